"""A turn's transitions: lay, draw, flock, the end of a turn, a round, the game (§3, §4)."""

from __future__ import annotations

from ..actions import (
    Action,
    Draw,
    FlyHome,
    Lay,
    Pass,
    Phase,
    Side,
)
from ..cards import Species
from ..decisions import (
    DRAW_SIZE,
    END_TURN,
    NEXT_ROUND_RULES,
    OFFER_DRAW,
    after_lay,
    captured_by,
    flock_birds_home,
    lay_refills,
    next_round_seats,
    out_of_cards,
)
from ..errors import IllegalActionError
from ..events import (
    Captured,
    DeclinedDraw,
    DeclinedFlock,
    Drew,
    Event,
    FlewHome,
    GameOver,
    Laid,
    RoundEnded,
    RowRefilled,
    TurnEnded,
    TurnStarted,
)
from ..outcome import WinReason, has_won, most_cards_winners, win_reason
from ..state import (
    EMPTY_COUNTS,
    Counts,
    GameState,
    Row,
    can_fly_home,
    flock_prompt_needs_flock,
)
from ..views import PlayerView
from ._legal import illegal_message
from ._piles import Piles, add_cards, build_state, replace_at, replace_row
from ._setup import deal

_LAY = Phase.LAY
_DRAW = Phase.DRAW
_FLOCK = Phase.FLOCK
_OVER = Phase.GAME_OVER


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
                return _lay(state, species, row, action.side, Piles.of(state, events))
    elif phase is _DRAW:
        if kind is Draw:
            return _draw(state, Piles.of(state, events))
        if kind is Pass:
            if events is not None:
                events.append(DeclinedDraw(state.current_player))
            piles = Piles.of(state, events)
            return _flock_check(state, state.hands, state.known_hands, state.rows, piles)
    elif phase is _FLOCK:
        if kind is FlyHome:
            assert isinstance(action, FlyHome)
            species = action.species
            if state.hands[state.current_player][species.index] >= species.small_flock:
                return _fly_home(state, species, Piles.of(state, events))
        elif kind is Pass:
            if events is not None:
                events.append(DeclinedFlock(state.current_player))
            piles = Piles.of(state, events)
            hands, known, collections = state.hands, state.known_hands, state.collections
            return _end_turn(state, hands, known, collections, state.rows, piles)
    raise IllegalActionError(illegal_message(state, action))


def _lay(state: GameState, species: Species, row_index: int, side: Side, piles: Piles) -> GameState:
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
    hands = replace_at(state.hands, p, tuple(new_hand))
    known_hands = state.known_hands
    if known is not known_hands[p]:
        known_hands = replace_at(known_hands, p, known)
    events = piles.events
    if events is not None:
        events.append(Laid(p, species, len(laid), row_index, side))
        if captured:
            events.append(Captured(p, row_index, captured))

    # The decisions are decisions.lay_refills and decisions.after_lay, which preview.preview
    # and the batch kernels ask too; an absent species never refills (no count needed).
    options = state.options
    taken = len(captured)
    if not absent and lay_refills(
        taken,
        absent,
        options.refill_trigger == "same_species_lay",
        new_row.count(species) == len(new_row),
    ):
        new_row = _refill(new_row, row_index, piles)
    rows = replace_row(state.rows, row_index, new_row)
    follows = after_lay(
        taken,
        absent,
        options.optional_draw_if_adjacent,
        options.round_end_timing == "immediate" and not any(new_hand),
        piles.pos != len(piles.draw) or any(piles.discard),  # the piles are not both empty
    )
    if follows == END_TURN:
        return _end_turn(state, hands, known_hands, state.collections, rows, piles)
    if follows == OFFER_DRAW:
        return build_state(
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


def _refill(row: Row, row_index: int, piles: Piles) -> Row:
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


def _draw(state: GameState, piles: Piles) -> GameState:
    """Rules §3.1: the optional draw takes the top two cards (fewer if both piles run out)."""
    p = state.current_player
    drawn = piles.take(DRAW_SIZE)
    if piles.events is not None:
        piles.report(drawn, lambda _, cards: Drew(p, len(cards), tuple(cards)))
    hands = replace_at(state.hands, p, add_cards(state.hands[p], drawn))
    return _flock_check(state, hands, state.known_hands, state.rows, piles)


def _flock_check(
    state: GameState,
    hands: tuple[Counts, ...],
    known_hands: tuple[Counts, ...],
    rows: tuple[Row, ...],
    piles: Piles,
) -> GameState:
    """Go to the flock phase if a flock is possible (or always offered), else end the turn."""
    if can_fly_home(hands[state.current_player]) or not flock_prompt_needs_flock(state.options):
        return build_state(
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


def _fly_home(state: GameState, species: Species, piles: Piles) -> GameState:
    """Rules §3.2: reveal every card of a species; one or two go home, the rest are discarded."""
    p = state.current_player
    si = species.index
    hand = state.hands[p]
    count = hand[si]
    home = flock_birds_home(count, species.small_flock, species.big_flock)
    new_hand = list(hand)
    new_hand[si] = 0
    hands = replace_at(state.hands, p, tuple(new_hand))
    known = state.known_hands[p]
    known_hands = state.known_hands
    if known[si]:
        new_known = list(known)
        new_known[si] = 0
        known_hands = replace_at(known_hands, p, tuple(new_known))
    collection = list(state.collections[p])
    collection[si] += home
    collections = replace_at(state.collections, p, tuple(collection))
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
    piles: Piles,
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
        return build_state(
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
    piles: Piles,
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
    return build_state(
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
    piles: Piles,
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
    if out_of_cards(available, n):
        winners = most_cards_winners(collections)
        return _game_over(
            state, piles, rows, no_hands, no_hands, collections, winners, "most_cards"
        )
    rule = NEXT_ROUND_RULES.index(options.next_round_first_player)
    dealer, first = next_round_seats(rule, state.dealer, p, n)  # rules §4.3
    new_hands = deal(piles, n, dealer, state.round + 1)
    if events is not None:
        events.append(TurnStarted(first, state.turn + 1))
    return build_state(
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
