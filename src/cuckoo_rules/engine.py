"""The rules of CuBirds as pure functions: ``new_game``, ``legal_actions``, ``apply``.

The code follows ``rules.md`` section by section; the phase transitions and the
canonical order of actions are those of ``interchange.md`` §1, and every shuffle is
the seeded one of §2. No function here changes its arguments: each transition builds a
new :class:`GameState` that shares the unchanged parts of the old one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from .actions import (
    DRAW,
    FLY_HOME_ACTIONS,
    LAY_ACTIONS,
    NUM_DISTINCT_ACTIONS,
    NUM_ROWS,
    PASS,
    Action,
    Draw,
    FlyHome,
    Lay,
    Pass,
    Phase,
    Side,
    action_id,
)
from .cards import NUM_SPECIES, SPECIES, Species, canonical_deck
from .errors import IllegalActionError, InvalidOptionsError, ViewError
from .events import (
    Captured,
    Dealt,
    DeclinedDraw,
    DeclinedFlock,
    Drew,
    Event,
    FlewHome,
    GameOver,
    Laid,
    Reshuffled,
    RoundEnded,
    RowRefilled,
    TurnEnded,
    TurnStarted,
)
from .options import GameOptions
from .outcome import WinReason, has_won, most_cards_winners, win_reason
from .preview import birds_home, captured_by
from .rng import SEED_LIMIT, shuffle, splitmix64
from .state import EMPTY_COUNTS, SMALL_FLOCKS, Counts, GameState, Row, can_fly_home
from .views import PlayerView

__all__ = [
    "HAND_SIZE",
    "IllegalReason",
    "apply",
    "can_fly_home",
    "legal_action_mask",
    "legal_actions",
    "new_game",
    "step",
    "why_illegal",
]

HAND_SIZE = 8
"""Cards dealt to each player at the start of a round."""

_LAY = Phase.LAY
_DRAW = Phase.DRAW
_FLOCK = Phase.FLOCK
_OVER = Phase.GAME_OVER
_DRAW_OR_PASS: tuple[Action, ...] = (DRAW, PASS)
_ONLY_PASS: tuple[Action, ...] = (PASS,)


# --------------------------------------------------------------------------- piles


class _Piles:
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
    def of(cls, state: GameState, events: list[Event] | None) -> _Piles:
        """The piles of ``state``."""
        return cls(state.draw_pile, state.discard_pile, state.seed, state.shuffles, events)

    def is_empty(self) -> bool:
        return self.pos == len(self.draw) and not any(self.discard)

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


def _add(counts: Counts, cards: list[Species] | tuple[Species, ...]) -> Counts:
    """Return ``counts`` with ``cards`` added."""
    added = list(counts)
    for card in cards:
        added[card.index] += 1
    return tuple(added)


def _replace(items: tuple[Counts, ...], index: int, value: Counts) -> tuple[Counts, ...]:
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


def _state(
    options: GameOptions,
    piles: _Piles,
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


# --------------------------------------------------------------------------- setup (§2)


def new_game(options: GameOptions, seed: int) -> GameState:
    """Set up a game: shuffle, choose the dealer, build the rows, deal (rules §2).

    Args:
        options: The game options.
        seed: An integer in ``[0, 2**64)``; the same options and seed always give the
            same game.

    Returns:
        The state before the first turn: the dealer is to lay.

    Raises:
        InvalidOptionsError: If ``options`` is not a :class:`GameOptions` or the seed is
            not an integer in range.

    Example:
        >>> from cuckoo_rules import GameOptions, new_game
        >>> state = new_game(GameOptions(num_players=3), seed=42)
        >>> state.current_player, [len(row) for row in state.rows], state.hand_size(0)
        (2, [3, 3, 3, 3], 8)
    """
    if not isinstance(options, GameOptions):
        raise InvalidOptionsError(f"options: expected GameOptions, got {options!r}")
    if type(seed) is not int or not 0 <= seed < SEED_LIMIT:
        raise InvalidOptionsError(f"seed: {seed!r} is not an integer in [0, 2**64)")
    n = options.num_players
    deck = canonical_deck()
    rng_state = shuffle(deck, seed, 0)
    _, out = splitmix64(rng_state)
    dealer = out % n

    piles = _Piles(deck, EMPTY_COUNTS, seed, 1)

    # Rows: turn cards one at a time; a species already in the row is set aside.
    rows: list[Row] = []
    set_aside: list[Species] = []
    for _ in range(NUM_ROWS):
        row: list[Species] = []
        while len(row) < options.initial_row_length:
            if piles.pos == len(piles.draw):  # only for absurd orders: rules §2.2
                piles.discard = _add(piles.discard, set_aside)
                set_aside = []
            (card,) = piles.take(1)
            if card in row:
                set_aside.append(card)
            else:
                row.append(card)
        rows.append(tuple(row))

    if options.setup_duplicates_to == "draw_pile" and set_aside:
        cards = sorted([*piles.draw[piles.pos :], *set_aside], key=_species_index)
        shuffle(cards, seed, piles.shuffles)
        piles.shuffles += 1
        piles.draw, piles.pos = cards, 0
    else:
        piles.discard = _add(piles.discard, set_aside)

    hands = _deal(piles, n, dealer)
    collections = [EMPTY_COUNTS] * n
    for k in range(n):
        seat = (dealer + k) % n
        collections[seat] = _add(EMPTY_COUNTS, piles.take(1))

    return _state(
        options,
        piles,
        round=1,
        turn=1,
        dealer=dealer,
        current_player=dealer,
        phase=_LAY,
        rows=tuple(rows),
        hands=hands,
        known_hands=(EMPTY_COUNTS,) * n,
        collections=tuple(collections),
    )


def _species_index(card: Species) -> int:
    return card.index


def _deal(piles: _Piles, n: int, dealer: int, round_: int = 1) -> tuple[Counts, ...]:
    """Deal a hand to each seat, starting with the dealer, in seat order (interchange §3).

    ``round_`` is the round dealt, for the ``Dealt`` events (one per pile the cards come
    from).
    """
    cards = piles.take(HAND_SIZE * n)
    if piles.events is not None:

        def dealt(offset: int, part: Sequence[Species]) -> Dealt:
            hands = _hands_of(part, offset, n, dealer)
            return Dealt(round_, dealer, tuple(map(sum, hands)), hands)

        piles.report(cards, dealt)
    hands = [EMPTY_COUNTS] * n
    for k in range(n):
        hands[(dealer + k) % n] = _add(EMPTY_COUNTS, cards[HAND_SIZE * k : HAND_SIZE * (k + 1)])
    return tuple(hands)


def _hands_of(cards: Sequence[Species], offset: int, n: int, dealer: int) -> tuple[Counts, ...]:
    """The hands that ``cards`` make when they are cards ``offset`` and on of a deal."""
    hands = [[0] * NUM_SPECIES for _ in range(n)]
    for i, card in enumerate(cards, offset):
        hands[(dealer + i // HAND_SIZE) % n][card.index] += 1
    return tuple(map(tuple, hands))


# --------------------------------------------------------------------------- legal actions


def legal_actions(state: GameState | PlayerView) -> tuple[Action, ...]:
    """Return the current player's legal actions in canonical order (interchange §1).

    Lays come species by species, each row 0 to 3, left before right; in the draw phase
    ``Draw()`` then ``Pass()``; in the flock phase each possible flock in species order,
    then ``Pass()``. A finished game has none.

    Args:
        state: The full state, or the acting seat's view (the result is the same), so
            that a bot or client never needs the full state.

    Raises:
        ViewError: If given the view of a seat that is not to act (or a spectator's)
            while the game is not over.

    Example:
        >>> from cuckoo_rules import GameOptions, new_game, observe
        >>> state = new_game(GameOptions(num_players=2), seed=1)
        >>> actions = legal_actions(state)
        >>> actions[0]
        Lay(Species.OWL, 0, Side.LEFT)
        >>> legal_actions(observe(state, state.current_player)) == actions
        True
    """
    phase = state.phase
    if phase is _OVER:
        return ()
    if type(state) is GameState:
        hand = state.hands[state.current_player]
    else:
        assert isinstance(state, PlayerView)
        if state.hand is None or state.viewer != state.current_player:
            raise ViewError(
                f"the view of {_seat(state.viewer)} does not show the legal actions: "
                f"player {state.current_player} is to act"
            )
        hand = state.hand
    if phase is _LAY:
        actions: tuple[Action, ...] = ()
        for i in range(NUM_SPECIES):
            if hand[i]:
                actions += LAY_ACTIONS[i]
        return actions
    if phase is _DRAW:
        return _DRAW_OR_PASS
    flocks: tuple[Action, ...] = tuple(
        FLY_HOME_ACTIONS[i] for i in range(NUM_SPECIES) if hand[i] >= SMALL_FLOCKS[i]
    )
    return flocks + _ONLY_PASS


def _seat(viewer: int | None) -> str:
    return "a spectator" if viewer is None else f"player {viewer}"


# --------------------------------------------------------------------------- apply


def apply(state: GameState, action: Action) -> GameState:
    """Return the state after the current player takes ``action``.

    Args:
        state: The state before the action; it is not changed.
        action: One of :func:`legal_actions` of ``state`` (an equal action built by hand
            is fine).

    Returns:
        The next state.

    Raises:
        IllegalActionError: If ``action`` is not legal in ``state``; the message says why.
        TypeError: If ``state`` is not a :class:`GameState` (a view, say).

    Example:
        >>> from cuckoo_rules import GameOptions, new_game, legal_actions
        >>> state = new_game(GameOptions(num_players=2), seed=1)
        >>> after = apply(state, legal_actions(state)[0])
        >>> after.turn > state.turn or after.phase is not Phase.LAY
        True
    """
    try:  # free in CPython 3.11 unless it raises: apply's hot path
        return _transition(state, action, None)
    except AttributeError:
        _check_state(state)
        raise


def step(state: GameState, action: Action) -> tuple[GameState, tuple[Event, ...]]:
    """Like :func:`apply`, and also report what happened, in order, as events.

    The events hold everything, hidden cards included: give a seat only
    :func:`~cuckoo_rules.visible_events` of them.

    Raises:
        IllegalActionError: If ``action`` is not legal in ``state``.

    Example:
        >>> from cuckoo_rules import GameOptions, new_game, Lay, Species, Side
        >>> state = new_game(GameOptions(num_players=3), seed=42)
        >>> after, events = step(state, Lay(Species.DUCK, 0, Side.RIGHT))
        >>> for event in events:
        ...     print(event)
        Laid(player=2, species=Species.DUCK, count=1, row=0, side=Side.RIGHT)
        Captured(player=2, row=0, cards=(Species.ROBIN, Species.PARROT))
        RowRefilled(row=0, cards=(Species.REED_WARBLER,))
        TurnEnded(player=2)
        TurnStarted(player=0, turn=2)
    """
    events: list[Event] = []
    try:
        after = _transition(state, action, events)
    except AttributeError:
        _check_state(state)
        raise
    return after, tuple(events)


def _check_state(state: object) -> None:
    """Raise a clear TypeError if ``state`` is not a state (a view, say)."""
    if type(state) is not GameState:
        hint = (
            ": a view hides cards the rules need (act through a Match, which holds the state)"
            if isinstance(state, PlayerView)
            else ""
        )
        raise TypeError(f"apply and step take a GameState, got {type(state).__name__}{hint}")


def _transition(state: GameState, action: Action, events: list[Event] | None) -> GameState:
    """Apply ``action``, logging events into ``events`` unless it is ``None``."""
    phase = state.phase
    kind = type(action)
    if phase is _LAY:
        if kind is Lay:
            assert isinstance(action, Lay)
            species = action.species
            row = action.row
            # A Lay's fields (types, row range) are checked when it is built: only the hand.
            if state.hands[state.current_player][species.index]:
                return _lay(state, species, row, action.side, _Piles.of(state, events))
    elif phase is _DRAW:
        if kind is Draw:
            return _draw(state, _Piles.of(state, events))
        if kind is Pass:
            if events is not None:
                events.append(DeclinedDraw(state.current_player))
            piles = _Piles.of(state, events)
            return _flock_check(state, state.hands, state.known_hands, state.rows, piles)
    elif phase is _FLOCK:
        if kind is FlyHome:
            assert isinstance(action, FlyHome)
            species = action.species
            if state.hands[state.current_player][species.index] >= species.small_flock:
                return _fly_home(state, species, _Piles.of(state, events))
        elif kind is Pass:
            if events is not None:
                events.append(DeclinedFlock(state.current_player))
            piles = _Piles.of(state, events)
            hands, known, collections = state.hands, state.known_hands, state.collections
            return _end_turn(state, hands, known, collections, state.rows, piles)
    raise IllegalActionError(_why_illegal(state, action))


def _lay(
    state: GameState, species: Species, row_index: int, side: Side, piles: _Piles
) -> GameState:
    """Rules §3.1: lay every card of a species at one end of a row, capture, refill."""
    p = state.current_player
    si = species.index
    hand = state.hands[p]
    laid = (species,) * hand[si]
    row = state.rows[row_index]

    captured: tuple[Species, ...] = ()
    absent = species not in row  # tested first: most lays go where the species is absent
    if absent:
        new_row = laid + row if side is Side.LEFT else row + laid
    else:  # capture up to the nearest bird of the species
        captured = captured_by(row, species, side) or ()
        if side is Side.LEFT:
            new_row = laid + row[len(captured) :]
        else:
            new_row = row[: len(row) - len(captured)] + laid

    new_hand = list(hand)
    new_hand[si] = 0
    known = state.known_hands[p]
    if known[si] or captured:
        new_known = list(known)
        new_known[si] = 0
        for card in captured:
            new_hand[card.index] += 1
            new_known[card.index] += 1
        known = tuple(new_known)
    hands = _replace(state.hands, p, tuple(new_hand))
    known_hands = state.known_hands
    if known is not known_hands[p]:
        known_hands = _replace(known_hands, p, known)
    events = piles.events
    if events is not None:
        events.append(Laid(p, species, len(laid), row_index, side))
        if captured:
            events.append(Captured(p, row_index, captured))

    if captured:
        if new_row.count(species) == len(new_row):  # a single species is left (§3.1)
            new_row = _refill(new_row, row_index, piles)
        rows = _replace_row(state.rows, row_index, new_row)
        return _flock_check(state, hands, known_hands, rows, piles)

    # preview.preview says the same from a view (tests/test_preview.py checks it).
    options = state.options
    if (
        not absent
        and options.refill_trigger == "same_species_lay"
        and new_row.count(species) == len(new_row)
    ):  # SEED2's reading: any lay of a species already in the row may refill it (§3.1)
        new_row = _refill(new_row, row_index, piles)
    rows = _replace_row(state.rows, row_index, new_row)
    if options.round_end_timing == "immediate" and not any(new_hand):
        return _end_turn(state, hands, known_hands, state.collections, rows, piles)
    if not piles.is_empty() and (absent or options.optional_draw_if_adjacent):
        return _state(
            options,
            piles,
            round=state.round,
            turn=state.turn,
            dealer=state.dealer,
            current_player=p,
            phase=_DRAW,
            rows=rows,
            hands=hands,
            known_hands=known_hands,
            collections=state.collections,
        )
    return _flock_check(state, hands, known_hands, rows, piles)


def _refill(row: Row, row_index: int, piles: _Piles) -> Row:
    """Append cards from the draw pile to a one-species row until it holds two (§3.1, §5).

    With both piles empty the refill stops where it is, and a refill that finds no card
    reports nothing.
    """
    species = row[0]
    refilled = list(row)
    while refilled.count(species) == len(refilled):
        drawn = piles.take(1)
        if not drawn:
            break
        refilled.append(drawn[0])
    added = refilled[len(row) :]
    piles.report(added, lambda _, cards: RowRefilled(row_index, tuple(cards)))
    return tuple(refilled)


def _replace_row(rows: tuple[Row, ...], index: int, row: Row) -> tuple[Row, ...]:
    return rows[:index] + (row,) + rows[index + 1 :]


def _draw(state: GameState, piles: _Piles) -> GameState:
    """Rules §3.1: the optional draw takes the top two cards (fewer if both piles run out)."""
    p = state.current_player
    drawn = piles.take(2)
    if piles.events is not None:
        piles.report(drawn, lambda _, cards: Drew(p, len(cards), tuple(cards)))
    hands = _replace(state.hands, p, _add(state.hands[p], drawn))
    return _flock_check(state, hands, state.known_hands, state.rows, piles)


def _flock_check(
    state: GameState,
    hands: tuple[Counts, ...],
    known_hands: tuple[Counts, ...],
    rows: tuple[Row, ...],
    piles: _Piles,
) -> GameState:
    """Go to the flock phase if a flock is possible (or always offered), else end the turn."""
    if state.options.always_prompt_flock or can_fly_home(hands[state.current_player]):
        return _state(
            state.options,
            piles,
            round=state.round,
            turn=state.turn,
            dealer=state.dealer,
            current_player=state.current_player,
            phase=_FLOCK,
            rows=rows,
            hands=hands,
            known_hands=known_hands,
            collections=state.collections,
        )
    return _end_turn(state, hands, known_hands, state.collections, rows, piles)


def _fly_home(state: GameState, species: Species, piles: _Piles) -> GameState:
    """Rules §3.2: reveal every card of a species; one or two go home, the rest are discarded."""
    p = state.current_player
    si = species.index
    hand = state.hands[p]
    count = hand[si]
    home = birds_home(species, count)
    new_hand = list(hand)
    new_hand[si] = 0
    hands = _replace(state.hands, p, tuple(new_hand))
    known = state.known_hands[p]
    known_hands = state.known_hands
    if known[si]:
        new_known = list(known)
        new_known[si] = 0
        known_hands = _replace(known_hands, p, tuple(new_known))
    collection = list(state.collections[p])
    collection[si] += home
    collections = _replace(state.collections, p, tuple(collection))
    if piles.events is not None:
        piles.events.append(FlewHome(p, species, count, home))
    if count > home:
        discard = list(piles.discard)
        discard[si] += count - home
        piles.discard = tuple(discard)
    return _end_turn(state, hands, known_hands, collections, state.rows, piles)


def _end_turn(
    state: GameState,
    hands: tuple[Counts, ...],
    known_hands: tuple[Counts, ...],
    collections: tuple[Counts, ...],
    rows: tuple[Row, ...],
    piles: _Piles,
) -> GameState:
    """Rules §3.3: a win ends the game; an empty hand ends the round; else the next turn."""
    p = state.current_player
    options = state.options
    events = piles.events
    if events is not None:
        events.append(TurnEnded(p))
    if has_won(collections[p]):
        reason = win_reason(collections[p])
        return _game_over(state, piles, rows, hands, known_hands, collections, (p,), reason)
    if any(hands[p]):
        if events is not None:
            events.append(TurnStarted((p + 1) % options.num_players, state.turn + 1))
        return _state(
            options,
            piles,
            round=state.round,
            turn=state.turn + 1,
            dealer=state.dealer,
            current_player=(p + 1) % options.num_players,
            phase=_LAY,
            rows=rows,
            hands=hands,
            known_hands=known_hands,
            collections=collections,
        )
    return _end_round(state, hands, known_hands, collections, rows, piles)


def _game_over(
    state: GameState,
    piles: _Piles,
    rows: tuple[Row, ...],
    hands: tuple[Counts, ...],
    known_hands: tuple[Counts, ...],
    collections: tuple[Counts, ...],
    winners: tuple[int, ...],
    reason: WinReason,
) -> GameState:
    """The game ends in the current player's turn: ``winners`` win, for ``reason``."""
    if piles.events is not None:
        piles.events.append(GameOver(winners, reason))
    return _state(
        state.options,
        piles,
        round=state.round,
        turn=state.turn,
        dealer=state.dealer,
        current_player=state.current_player,
        phase=_OVER,
        rows=rows,
        hands=hands,
        known_hands=known_hands,
        collections=collections,
        winners=winners,
    )


def _end_round(
    state: GameState,
    hands: tuple[Counts, ...],
    known_hands: tuple[Counts, ...],
    collections: tuple[Counts, ...],
    rows: tuple[Row, ...],
    piles: _Piles,
) -> GameState:
    """Rules §4: hands are discarded; the game ends by exhaustion or a new round is dealt."""
    p = state.current_player
    options = state.options
    n = options.num_players
    events = piles.events
    if events is not None:
        events.append(RoundEnded(state.round, p, tuple(map(sum, hands)), hands, known_hands))
    discard = list(piles.discard)
    for hand in hands:
        for i, count in enumerate(hand):
            discard[i] += count
    piles.discard = tuple(discard)
    no_hands = (EMPTY_COUNTS,) * n
    available = len(piles.draw) - piles.pos
    if options.exhaustion_counts_discard:
        available += sum(discard)
    if available < HAND_SIZE * n:
        winners = most_cards_winners(collections)
        return _game_over(
            state, piles, rows, no_hands, no_hands, collections, winners, "most_cards"
        )
    who = options.next_round_first_player
    dealer = state.dealer if who == "same_dealer" else p  # rules §4.3
    new_hands = _deal(piles, n, dealer, state.round + 1)
    first = (p + 1) % n if who == "left_of_round_ender" else dealer
    if events is not None:
        events.append(TurnStarted(first, state.turn + 1))
    return _state(
        options,
        piles,
        round=state.round + 1,
        turn=state.turn + 1,
        dealer=dealer,
        current_player=first,
        phase=_LAY,
        rows=rows,
        hands=new_hands,
        known_hands=no_hands,
        collections=collections,
    )


# --------------------------------------------------------------------------- errors


@attrs.frozen
class IllegalReason:
    """Why an action is not legal, as data a front end can put in words (its language).

    Attributes:
        code: What is wrong: ``"over"`` (the game is over), ``"not_an_action"`` (not a
            :class:`~cuckoo_rules.Lay`, :class:`~cuckoo_rules.Draw`,
            :class:`~cuckoo_rules.FlyHome` or :class:`~cuckoo_rules.Pass`),
            ``"lay_first"`` (a turn starts by laying birds), ``"not_held"`` (a lay of a
            species the player holds none of), ``"draw_or_pass"`` (after a lay that took
            no cards the choice is to draw or not), ``"flock_size"`` (a flock smaller
            than the species' small flock) or ``"flock_or_pass"`` (the choice is to fly
            a flock home or not).
        species: The species of a ``"not_held"`` or ``"flock_size"`` reason.
        needed: The small flock of a ``"flock_size"`` reason.
        held: The cards of that species in the player's hand (``"flock_size"``).
    """

    code: str
    species: Species | None = None
    needed: int | None = None
    held: int | None = None


def why_illegal(state: GameState | PlayerView, action: object) -> IllegalReason | None:
    """Say why ``action`` is not legal for the player to act, or ``None`` if it is legal.

    The reasons are those of the :class:`~cuckoo_rules.IllegalActionError` that
    :func:`apply` raises, as data, so that a front end words them in its language.

    Args:
        state: The full state, or the acting seat's view.
        action: Anything; a non-action gives ``"not_an_action"``.

    Raises:
        ViewError: If given the view of a seat that is not to act while the game is on.

    Example:
        >>> from cuckoo_rules import FlyHome, GameOptions, Lay, Side, Species, new_game
        >>> state = new_game(GameOptions(num_players=2), seed=7)
        >>> why_illegal(state, FlyHome(Species.OWL))
        IllegalReason(code='lay_first', species=None, needed=None, held=None)
        >>> why_illegal(state, Lay(Species.FLAMINGO, 0, Side.LEFT)).code
        'not_held'
        >>> why_illegal(state, Lay(Species.OWL, 0, Side.LEFT)) is None
        True
    """
    if action in legal_actions(state):
        return None
    phase = state.phase
    if phase is _OVER:
        return IllegalReason("over")
    if not isinstance(action, Lay | Draw | FlyHome | Pass):
        return IllegalReason("not_an_action")
    if phase is _LAY:
        if not isinstance(action, Lay):
            return IllegalReason("lay_first")
        return IllegalReason("not_held", action.species)
    if phase is _DRAW:
        return IllegalReason("draw_or_pass")
    if isinstance(action, FlyHome):
        species = action.species
        if isinstance(state, GameState):
            hand: Counts | None = state.hands[state.current_player]
        else:
            hand = state.hand
        assert hand is not None  # legal_actions refused any other view
        return IllegalReason("flock_size", species, species.small_flock, hand[species.index])
    return IllegalReason("flock_or_pass")


_REASONS: dict[str, str] = {
    "lay_first": "a turn starts by laying birds",
    "not_held": "player {p} holds no {species}",
    "draw_or_pass": "after a lay that took no cards the choice is Draw() or Pass()",
    "flock_size": "a flock of {species} needs {needed} cards, player {p} holds {held}",
    "flock_or_pass": "the choice is to fly a flock home or Pass()",
}


def _why_illegal(state: GameState, action: object) -> str:
    """Explain, in the message of an :class:`IllegalActionError`, why ``action`` is not legal."""
    reason = why_illegal(state, action)
    assert reason is not None  # apply found it illegal
    if reason.code == "over":
        return f"{action!r} is not legal: the game is over"
    if reason.code == "not_an_action":
        return f"{action!r} is not an action (expected Lay, Draw, FlyHome or Pass)"
    p = state.current_player
    species = reason.species.value if reason.species is not None else ""
    why = _REASONS[reason.code].format(p=p, species=species, needed=reason.needed, held=reason.held)
    return f"{action!r} is not legal for player {p} in phase {state.phase.value!r}: {why}"


def legal_action_mask(state: GameState | PlayerView) -> tuple[bool, ...]:
    """Return, for each action id 0-73, whether that action is legal (for learning code).

    Accepts a state or the acting seat's view, like :func:`legal_actions`.

    Example:
        >>> from cuckoo_rules import GameOptions, new_game, action_from_id
        >>> state = new_game(GameOptions(num_players=2), seed=1)
        >>> mask = legal_action_mask(state)
        >>> [action_from_id(i) for i, ok in enumerate(mask) if ok] == list(legal_actions(state))
        True
    """
    mask = [False] * NUM_DISTINCT_ACTIONS
    for action in legal_actions(state):
        mask[action_id(action)] = True
    return tuple(mask)
