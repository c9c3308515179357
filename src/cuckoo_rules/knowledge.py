"""What a seat has learned from the history beyond its current view.

A :class:`~cuckoo_rules.PlayerView` is a snapshot: it shows the cards everybody saw
enter each hand, but not what the past *rules out*. Laying birds lays every card of that
species, and so does flying a flock home, so right after either the seat holds none of
that species among its unknown cards, until it draws (two hidden cards at most) or a new
round is dealt. The viewer also knows some cards of the discard pile until it is
shuffled into a new draw pile (rules §6): the duplicates set aside at setup
(:meth:`Knowledge.at_setup`), the flock cards not kept, its own hand discarded at a
round end, and the public part of every other hand discarded then (the captured cards
that never provably left it).

:class:`Knowledge` holds these facts, :func:`learn` folds a seat's redacted events
(:func:`~cuckoo_rules.visible_events`) into them, and
:func:`~cuckoo_rules.determinize` accepts them so that the states it draws agree with the
whole history and not just with the view.

Example:
    >>> from cuckoo_rules import GameOptions, Lay, Side, Species, new_game, step
    >>> from cuckoo_rules import observe, visible_events, determinize
    >>> state = new_game(GameOptions(num_players=2), seed=3)
    >>> state.current_player
    0
    >>> state, events = step(state, Lay(Species.TOUCAN, 0, Side.LEFT))
    >>> known = learn(Knowledge.start(2), visible_events(events, 1), viewer=1)
    >>> known.hidden_limits[0][Species.TOUCAN.index]
    0
    >>> guess = determinize(observe(state, 1), seed=9, knowledge=known)
    >>> guess.hands[0][Species.TOUCAN.index] - state.known_hands[0][Species.TOUCAN.index]
    0
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import attrs

from .cards import NUM_SPECIES
from .errors import ViewError
from .events import (
    Dealt,
    Drew,
    Event,
    FlewHome,
    GameStarted,
    Laid,
    Reshuffled,
    RoundEnded,
    visible_events,
)
from .options import MAX_PLAYERS, MIN_PLAYERS
from .state import DECK_COUNTS, EMPTY_COUNTS, Counts, GameState

__all__ = ["Knowledge", "learn", "learn_each"]


def _check_counts(value: object, path: str) -> None:
    if (
        type(value) is not tuple
        or len(value) != NUM_SPECIES
        or any(type(x) is not int or x < 0 for x in value)
    ):
        raise ViewError(f"{path}: expected {NUM_SPECIES} non-negative integers, got {value!r}")


def _check_limits(instance: object, attribute: object, value: object) -> None:
    if type(value) is not tuple or not MIN_PLAYERS <= len(value) <= MAX_PLAYERS:
        raise ViewError(f"hidden_limits: expected one entry per seat, got {value!r}")
    for seat, limits in enumerate(value):
        _check_counts(limits, f"hidden_limits[{seat}]")


def _check_discards(instance: object, attribute: object, value: object) -> None:
    _check_counts(value, "known_discards")


@attrs.frozen
class Knowledge:
    """Facts about the hidden cards that the history proves and the view does not show.

    Attributes:
        hidden_limits: For each seat, the most cards of each species (as counts) that the
            part of its hand the viewer has not seen can hold; a species' number of
            copies means that no limit is known.
        known_discards: Cards (as counts) the viewer knows lie in the discard pile.
    """

    hidden_limits: tuple[Counts, ...] = attrs.field(validator=_check_limits)
    known_discards: Counts = attrs.field(validator=_check_discards)

    @classmethod
    def start(cls, num_players: int, known_discards: Counts = EMPTY_COUNTS) -> Knowledge:
        """What is known at the start of a game beyond the view.

        Args:
            num_players: The number of seats.
            known_discards: The cards every player saw go to the discard pile at setup:
                the duplicates set aside while building the rows (rules §2, §6), when
                they go to the discard pile. :meth:`at_setup` takes them from the state
                :func:`~cuckoo_rules.new_game` dealt.

        Raises:
            ViewError: If ``num_players`` is not 2 to 5 or ``known_discards`` is not
                counts.
        """
        if type(num_players) is not int:
            raise ViewError(f"num_players: expected an integer, got {num_players!r}")
        return cls((DECK_COUNTS,) * num_players, known_discards)

    @classmethod
    def at_setup(cls, state: GameState) -> Knowledge:
        """What every seat knows beyond its view of a freshly dealt game.

        The discard pile of a game that has just been set up holds only the duplicates
        set aside face up while the rows were built, so every seat (and a spectator)
        knows it; nothing else is known yet. Only the public part of ``state`` is read;
        it is also what :func:`learn` knows after a :class:`~cuckoo_rules.GameStarted`.

        Raises:
            ViewError: If ``state`` is not the state before the first action of a game
                (round 1, turn 1, phase ``lay``).

        Example:
            >>> from cuckoo_rules import GameOptions, new_game
            >>> state = new_game(GameOptions(num_players=3), seed=42)
            >>> Knowledge.at_setup(state).known_discards == state.discard_pile
            True
        """
        setup = GameStarted.of(state)  # checks that it is a game before its first action
        return learn(cls.start(len(setup.hand_sizes)), (setup,), None)

    @property
    def is_empty(self) -> bool:
        """Whether nothing is known beyond the view (no limit, no known discard)."""
        return not any(self.known_discards) and all(
            limits == DECK_COUNTS for limits in self.hidden_limits
        )

    def allows(self, seat: int, hidden: Counts) -> bool:
        """Whether ``seat``'s unseen cards may be ``hidden`` (as counts)."""
        return all(map(int.__le__, hidden, self.hidden_limits[seat]))


def _capped(limits: Counts, extra: int) -> Counts:
    return tuple(
        min(limit + extra, copies) for limit, copies in zip(limits, DECK_COUNTS, strict=True)
    )


def _zero(counts: Counts, index: int) -> Counts:
    return (*counts[:index], 0, *counts[index + 1 :])


def _plus(a: Counts, b: Counts) -> Counts:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def _discard_hands(discards: Counts, event: RoundEnded, seats: int) -> Counts:
    """``discards`` plus every hand of ``event`` (its known part where it is hidden)."""
    if len(event.hands) != seats or len(event.known_hands) != seats:
        raise ViewError(
            f"RoundEnded: {len(event.hands)} hands and {len(event.known_hands)} known hands "
            f"for the {seats} seats of this knowledge"
        )
    for seat, (hand, known) in enumerate(zip(event.hands, event.known_hands, strict=True)):
        field, counts = ("known_hands", known) if hand is None else ("hands", hand)
        if len(counts) != NUM_SPECIES:
            raise ViewError(
                f"RoundEnded: {field}[{seat}] has {len(counts)} counts, not {NUM_SPECIES}"
            )
        discards = _plus(discards, counts)
    return discards


def learn(knowledge: Knowledge, events: Iterable[Event], viewer: int | None) -> Knowledge:
    """Return ``knowledge`` updated with ``events``, as ``viewer`` saw them.

    Give the events of a game in order, from its start (:meth:`Knowledge.start`, or
    any knowledge followed by the game's :class:`~cuckoo_rules.GameStarted`), as
    :func:`~cuckoo_rules.visible_events` redacts them for ``viewer`` (a seat or ``None``
    for a spectator); events the viewer could not see in full are used only for what
    they show. The result is sound: the true state always agrees with it.

    Raises:
        ViewError: If an event names a seat the knowledge does not have, or a
            :class:`~cuckoo_rules.RoundEnded` does not hold one hand of eight counts
            per seat, or a :class:`~cuckoo_rules.GameStarted` discards what is not
            eight counts.
    """
    limits = list(knowledge.hidden_limits)
    discards = knowledge.known_discards
    try:
        for event in events:
            if type(event) is Laid:
                limits[event.player] = _zero(limits[event.player], event.species.index)
            elif type(event) is FlewHome:
                index = event.species.index
                limits[event.player] = _zero(limits[event.player], index)
                extra = event.revealed - event.kept
                discards = (*discards[:index], discards[index] + extra, *discards[index + 1 :])
            elif type(event) is Drew:
                if event.player != viewer:
                    limits[event.player] = _capped(limits[event.player], event.count)
            elif type(event) is RoundEnded:  # every hand goes to the discard pile
                discards = _discard_hands(discards, event, len(limits))
            elif type(event) is Dealt:
                limits = [DECK_COUNTS] * len(limits)
            elif type(event) is GameStarted:  # a new game: what Knowledge.at_setup knows
                limits = [DECK_COUNTS] * len(event.hand_sizes)
                _check_counts(event.discarded, "GameStarted: discarded")
                discards = event.discarded
            elif type(event) is Reshuffled:
                discards = EMPTY_COUNTS
    except IndexError:
        raise ViewError(
            f"events name a seat beyond the {len(limits)} seats of this knowledge"
        ) from None
    return Knowledge(tuple(limits), discards)


def learn_each(known: Mapping[int, Knowledge], events: Sequence[Event]) -> dict[int, Knowledge]:
    """Return ``known`` with each seat's knowledge updated by ``events`` as it saw them.

    ``known`` maps seats to what they have learned so far; ``events`` are the full
    (unredacted) events of one move, as :func:`~cuckoo_rules.step` returns them. Each seat
    learns from :func:`~cuckoo_rules.visible_events` of them for that seat, as a driver
    that follows a game for its bots needs.
    """
    return {seat: learn(k, visible_events(events, seat), seat) for seat, k in known.items()}
