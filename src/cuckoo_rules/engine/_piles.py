"""The piles while a transition is computed, and the one place the engine builds a state."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from ..actions import (
    Phase,
)
from ..cards import SPECIES, Species
from ..events import (
    Event,
    Reshuffled,
)
from ..options import GameOptions
from ..rng import shuffle
from ..state import (
    EMPTY_COUNTS,
    Counts,
    GameState,
    Row,
)


class Piles:
    """The draw and discard piles while one transition is computed (never shared).

    Cards are taken from the top of the draw pile; when it is empty and a card is
    needed, the discard pile is laid out in species order and shuffled into a new draw
    pile with the game's next random stream (rules §5, interchange §2).

    When events are logged, the cards an event takes are reported with :meth:`report`
    after they are taken: one event per pile they came from, with a ``Reshuffled``
    between them, so that every event holds cards of one pile only.
    """

    __slots__ = ("consumed", "discard", "draw", "events", "marks", "pos", "seed", "shuffles")

    def __init__(
        self,
        draw: tuple[Species, ...] | list[Species],
        discard: Counts,
        seed: int,
        shuffles: int,
        events: list[Event] | None = None,
    ) -> None:
        self.draw = draw
        self.pos = 0
        self.discard = discard
        self.seed = seed
        self.shuffles = shuffles
        self.events = events  # the event log of this transition, when one is wanted
        self.consumed = 0  # cards taken from earlier draw piles of this transition
        self.marks: list[tuple[int, int]] | None = None  # per reshuffle: (taken before, size)

    @classmethod
    def of(cls, state: GameState, events: list[Event] | None) -> Piles:
        """The piles of ``state``."""
        return cls(state.draw_pile, state.discard_pile, state.seed, state.shuffles, events)

    def take(self, count: int) -> list[Species]:
        """Take up to ``count`` cards from the top, reshuffling the discard pile if needed."""
        draw, pos = self.draw, self.pos
        if pos + count <= len(draw):
            self.pos = pos + count
            return list(draw[pos : pos + count])
        taken: list[Species] = []
        while len(taken) < count:
            if self.pos == len(self.draw) and not self._reshuffle():
                break
            taken.append(self.draw[self.pos])
            self.pos += 1
        return taken

    def _reshuffle(self) -> bool:
        if not any(self.discard):
            return False
        cards = [s for s, n in zip(SPECIES, self.discard, strict=True) for _ in range(n)]
        shuffle(cards, self.seed, self.shuffles)
        self.shuffles += 1
        self.consumed += self.pos
        if self.events is not None:
            self.marks = [*(self.marks or ()), (self.consumed, len(cards))]
        self.draw, self.pos, self.discard = cards, 0, EMPTY_COUNTS
        return True

    def report(
        self, cards: Sequence[Species], event_of: Callable[[int, Sequence[Species]], Event]
    ) -> None:
        """Log the events of ``cards``, the cards last taken, split at each reshuffle.

        ``event_of(offset, part)`` makes the event of the cards ``part``, which start at
        ``offset`` in ``cards``; no event is made for an empty part.
        """
        events = self.events
        if events is None:
            return
        start = self.consumed + self.pos - len(cards)  # cards taken before ``cards``
        done = 0
        for taken_before, size in self.marks or ():
            cut = taken_before - start
            if cut > done:
                events.append(event_of(done, cards[done:cut]))
                done = cut
            events.append(Reshuffled(size))
        self.marks = None
        if len(cards) > done:
            events.append(event_of(done, cards[done:]))


def add_cards(counts: Counts, cards: list[Species] | tuple[Species, ...]) -> Counts:
    """Return ``counts`` with ``cards`` added."""
    added = list(counts)
    for card in cards:
        added[card.index] += 1
    return tuple(added)


def replace_at(items: tuple[Counts, ...], index: int, value: Counts) -> tuple[Counts, ...]:
    return items[:index] + (value,) + items[index + 1 :]


def _slot_setter(cls: type, field: str) -> Callable[[object, object], None]:
    """The ``__set__`` of ``cls``'s slot ``field`` (a member descriptor)."""
    setter: Callable[[object, object], None] = getattr(cls, field).__set__
    return setter


def _compile_new_state() -> Callable[..., GameState]:
    """Make ``new_state(<every field of GameState, in order>)``, a fast ``GameState(...)``.

    attrs' ``__init__`` of a frozen class sets each slot through ``object.__setattr__``,
    which looks the name up on the type every time; this sets the slots through their
    own descriptors (about 0.25 us less per state, a few per cent of :func:`apply`).
    GameState has no validator, converter or ``__attrs_post_init__`` to skip, and a test
    checks that every state the engine builds equals the same state built by attrs.
    """
    names = [field.name for field in attrs.fields(GameState)]
    setters = {f"_set_{name}": _slot_setter(GameState, name) for name in names}
    lines = [f"def new_state({', '.join(names)}):", "    state = _new(GameState)"]
    lines += [f"    _set_{name}(state, {name})" for name in names]
    lines.append("    return state")
    scope: dict[str, Any] = {"_new": object.__new__, "GameState": GameState, **setters}
    exec("\n".join(lines), scope)  # as attrs writes __init__, from the fields
    new_state: Callable[..., GameState] = scope["new_state"]
    return new_state


_new_state = _compile_new_state()


def build_state(
    options: GameOptions,
    piles: Piles,
    *,
    round: int,
    turn: int,
    dealer: int,
    current_player: int,
    phase: Phase,
    rows: tuple[Row, ...],
    hands: tuple[Counts, ...],
    known_hands: tuple[Counts, ...],
    collections: tuple[Counts, ...],
    winners: tuple[int, ...] = (),
) -> GameState:
    """Build the state a transition ends in: the one place the engine makes a state.

    The seed, the random streams used and both piles are as ``piles`` left them; every
    other part is named, so that no two parts of one type (the seats and counters, the
    hands and collections) can be swapped unnoticed. ``winners`` stays empty until the
    game is over.
    """
    draw = piles.draw  # the cards from piles.pos on are left (a tuple's [0:] is itself)
    return _new_state(  # positional, in the order of GameState's fields: apply's hot path
        options,
        piles.seed,
        piles.shuffles,
        round,
        turn,
        dealer,
        current_player,
        phase,
        rows,
        draw[piles.pos :] if type(draw) is tuple else tuple(draw[piles.pos :]),
        piles.discard,
        hands,
        known_hands,
        collections,
        winners,
    )


def replace_row(rows: tuple[Row, ...], index: int, row: Row) -> tuple[Row, ...]:
    return rows[:index] + (row,) + rows[index + 1 :]
