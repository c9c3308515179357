"""What one seat may know: the secrecy boundary (rules §6).

A :class:`PlayerView` holds exactly the public part of a state plus the viewer's own
hand; it never holds the draw-pile order, another hand's unknown cards, the seed or
the shuffle counter, and it keeps no reference to the state it came from. Give bots and
clients views, never states.

:func:`observe` makes a view of a state, :func:`unseen_cards` says which cards a viewer
cannot locate, and :func:`check_view_consistency` is the one check of a view that
:func:`~cuckoo_rules.decode_view` and :func:`~cuckoo_rules.determinize` both make.
:func:`~cuckoo_rules.determinization.determinize`, which draws a full state a viewer
cannot tell apart from the truth, lives in :mod:`cuckoo_rules.determinization`, a layer
above (importing it from here still works for a release, with a deprecation warning).
"""

from __future__ import annotations

import importlib
import operator
import warnings
from collections.abc import Iterable, Sequence

import attrs

from ._consistency import known_problem, phase_problem
from .actions import Phase
from .cards import DECK_SIZE, NUM_SPECIES, SPECIES
from .errors import ViewError
from .options import GameOptions
from .state import (
    DECK_COUNTS,
    EMPTY_COUNTS,
    Counts,
    GameState,
    PublicState,
    Row,
    can_fly_home,
    flock_prompt_needs_flock,
    format_counts,
    format_rows,
)

__all__ = [
    "PlayerView",
    "check_view_consistency",
    "flock_possible",
    "observe",
    "unseen_cards",
    "unseen_given_rows",
]


@attrs.frozen(repr=False)
class PlayerView(PublicState):
    """The part of a state one seat (or a spectator) may see.

    The public fields (and what they mean) are those of
    :class:`~cuckoo_rules.state.PublicState`; the view adds what the seat may see of
    the rest. The fields mirror the JSON view format field by field, in its order.

    Attributes:
        viewer: The seat the view belongs to, or ``None`` for a spectator.
        draw_pile_size: The number of cards in the draw pile.
        discard_pile_size: The number of cards in the discard pile.
        hand: The viewer's hand as counts, or ``None`` for a spectator.
        hand_sizes: The number of cards in each seat's hand.
    """

    viewer: int | None
    options: GameOptions
    round: int
    turn: int
    dealer: int
    current_player: int
    phase: Phase
    rows: tuple[Row, ...]
    draw_pile_size: int
    discard_pile_size: int
    hand: Counts | None
    hand_sizes: tuple[int, ...]
    known_hands: tuple[Counts, ...]
    collections: tuple[Counts, ...]
    winners: tuple[int, ...]

    @property
    def is_my_turn(self) -> bool:
        """Whether the viewer is the seat to act (never for a spectator or a finished game)."""
        return self.viewer == self.current_player and self.phase is not Phase.GAME_OVER

    def __repr__(self) -> str:
        hand = "hidden" if self.hand is None else format_counts(self.hand)
        return (
            f"<PlayerView viewer={self.viewer} round={self.round} turn={self.turn} "
            f"phase={self.phase.value} current_player={self.current_player} "
            f"rows={format_rows(self.rows)} hand={hand} hand_sizes={list(self.hand_sizes)} "
            f"draw_pile={self.draw_pile_size} discard_pile={self.discard_pile_size}>"
        )


def _not_a_state(name: str, given: object) -> str:
    """The message of a :class:`TypeError`: ``name`` takes a state, not ``given``."""
    hint = (
        ": a view hides cards other seats see (a Match holds the state: match.view(seat))"
        if isinstance(given, PlayerView)
        else ""
    )
    return f"{name} takes a GameState, got {type(given).__name__}{hint}"


def observe(state: GameState, player: int | None) -> PlayerView:
    """Return what ``player`` may see of ``state`` (``None``: a spectator).

    Raises:
        ViewError: If ``player`` is not a seat of the game.
        TypeError: If ``state`` is not a :class:`~cuckoo_rules.GameState` (a view, say:
            it hides what another seat's view shows).

    Example:
        >>> from cuckoo_rules import GameOptions, new_game
        >>> view = observe(new_game(GameOptions(num_players=2), seed=1), 0)
        >>> view.hand_sizes, view.draw_pile_size
        ((8, 8), 79)
        >>> observe(view, 0)
        Traceback (most recent call last):
        ...
        TypeError: observe takes a GameState, got PlayerView: a view hides cards other seats ...
    """
    try:
        hands = state.hands
    except AttributeError:
        raise TypeError(_not_a_state("observe", state)) from None
    if player is None:
        hand = None
    elif type(player) is int and 0 <= player < len(hands):
        hand = hands[player]
    else:
        raise ViewError(f"player: {player!r} is not a seat of this {len(hands)}-player game")
    # Positional, in the order of PlayerView's fields: this runs for every decision.
    return PlayerView(
        player,
        state.options,
        state.round,
        state.turn,
        state.dealer,
        state.current_player,
        state.phase,
        state.rows,
        len(state.draw_pile),
        sum(state.discard_pile),
        hand,
        tuple(map(sum, hands)),
        state.known_hands,
        state.collections,
        state.winners,
    )


def unseen_cards(view: PlayerView) -> Counts:
    """Return the cards the viewer cannot locate: other hands' unknown parts and both piles.

    Example:
        >>> from cuckoo_rules import GameOptions, new_game
        >>> view = observe(new_game(GameOptions(num_players=2), seed=1), 0)
        >>> sum(unseen_cards(view)) == view.draw_pile_size + view.discard_pile_size + 8
        True
    """
    in_rows = [0] * NUM_SPECIES
    for row in view.rows:
        for card in row:
            in_rows[card.index] += 1
    return unseen_given_rows(view, (in_rows,))


def unseen_given_rows(view: PlayerView, row_counts: Iterable[Sequence[int]]) -> Counts:
    """Return :func:`unseen_cards` of a view whose rows' cards are already counted.

    For code that counts the rows' cards anyway (the observation encoder does, row by
    row), this saves counting them again.

    Args:
        view: The view.
        row_counts: The cards of the view's rows as counts (eight per vector, species
            order), in one vector or several (one per row, say) that add up to them.

    Example:
        >>> from cuckoo_rules import GameOptions, new_game
        >>> view = observe(new_game(GameOptions(num_players=2), seed=1), 0)
        >>> rows = [[row.count(s) for s in SPECIES] for row in view.rows]
        >>> unseen_given_rows(view, rows) == unseen_cards(view)
        True
    """
    held = list(view.known_hands)  # the cards in hands that the viewer has seen
    viewer = view.viewer
    if viewer is not None and 0 <= viewer < len(held):  # all of its own hand
        held[viewer] = EMPTY_COUNTS if view.hand is None else view.hand
    seen = map(sum, zip(*row_counts, *held, *view.collections, strict=True))  # species by species
    return tuple(map(operator.sub, DECK_COUNTS, seen))


def flock_possible(view: PlayerView) -> bool:
    """Whether, as far as the viewer can tell, the seat to act may hold a flock.

    In the flock phase (unless ``always_prompt_flock`` is set) everybody knows that the
    acting seat holds a flock, which constrains its hidden cards;
    :func:`check_view_consistency` refuses a view where it cannot, and
    :func:`~cuckoo_rules.determinize` deals the hidden cards so that it does.

    Example:
        >>> from cuckoo_rules import GameOptions, new_game
        >>> flock_possible(observe(new_game(GameOptions(num_players=2), seed=1), None))
        True
    """
    return _flock_possible(view, unseen_cards(view))


def _flock_possible(view: PlayerView, unseen: Counts) -> bool:
    """:func:`flock_possible`, given the view's :func:`unseen_cards`."""
    current = view.current_player
    if view.viewer == current:
        assert view.hand is not None
        return can_fly_home(view.hand)
    known = view.known_hands[current]
    hidden = view.hand_sizes[current] - sum(known)
    return any(known[s.index] + min(unseen[s.index], hidden) >= s.small_flock for s in SPECIES)


def check_view_consistency(view: PlayerView) -> Counts:
    """Check that a view can be what some seat sees of some reachable state.

    This is the one check of a view: :func:`~cuckoo_rules.decode_view` makes it once
    the fields are read (and raises its message as a
    :class:`~cuckoo_rules.DecodeError`), and :func:`~cuckoo_rules.determinize` makes it
    before it deals. It assumes each field well formed on its own (the right types), as
    :func:`~cuckoo_rules.observe` and :func:`~cuckoo_rules.decode_view` make them, and
    checks the fields against each other: one entry per player in ``hand_sizes``,
    ``known_hands`` and ``collections``; the viewer and the player to act are seats of
    the game; the viewer's hand
    has its size and holds its known cards; no seat has more cards known than it
    holds; no species has more cards in sight than the game has, and
    the unseen cards fill the hidden places exactly; the phase fits the hands and the
    piles (as for a state, ``interchange.md`` §4); and a public flock phase is possible
    (:func:`flock_possible`).

    Args:
        view: The view to check.

    Returns:
        The view's :func:`unseen_cards`, which the check needs anyway.

    Raises:
        ViewError: If ``view`` is not a :class:`PlayerView`, or naming the first field
            that is off, for example ``"view: the cards do not add up to 110: 88 unseen
            cards for 89 hidden places"``.

    Example:
        >>> import attrs
        >>> from cuckoo_rules import GameOptions, new_game
        >>> view = observe(new_game(GameOptions(num_players=2), seed=1), 0)
        >>> check_view_consistency(view) == unseen_cards(view)
        True
        >>> check_view_consistency(attrs.evolve(view, draw_pile_size=80))
        Traceback (most recent call last):
        ...
        cuckoo_rules.errors.ViewError: view: the cards do not add up to 110: 88 unseen cards ...
    """
    if not isinstance(view, PlayerView):
        raise ViewError(f"view: expected a PlayerView, got {type(view).__name__}")
    viewer, hand, hand_sizes = view.viewer, view.hand, view.hand_sizes
    known_hands = view.known_hands
    seats = view.options.num_players
    for name, per_seat in (
        ("hand_sizes", hand_sizes),
        ("known_hands", known_hands),
        ("collections", view.collections),
    ):
        if len(per_seat) != seats:
            raise ViewError(f"{name}: {len(per_seat)} entries for the {seats} players")
    last = seats - 1
    for name, seat in (("viewer", viewer), ("current_player", view.current_player)):
        if seat is not None and not 0 <= seat <= last:
            raise ViewError(f"{name}: {seat} is out of range (at least 0 and at most {last})")
    if viewer is None:
        if hand is not None:
            raise ViewError("hand: a spectator's view (viewer None) has no hand")
    elif hand is None:
        raise ViewError(f"hand: the view of player {viewer} must hold its hand")
    elif sum(hand) != hand_sizes[viewer]:
        raise ViewError(f"hand: {sum(hand)} cards but hand_sizes[{viewer}] is {hand_sizes[viewer]}")
    known_sizes = tuple(map(sum, known_hands))
    if any(map(operator.gt, known_sizes, hand_sizes)):
        for seat, (known, size) in enumerate(zip(known_sizes, hand_sizes, strict=True)):
            if known > size:
                raise ViewError(
                    f"known_hands[{seat}]: more cards known than hand_sizes[{seat}] = {size}"
                )
    # The checks below call the shared message helpers only when a quick test fails:
    # determinize checks every fresh view, so the usual, consistent one must pass fast.
    if hand is not None:
        assert viewer is not None
        own_known = known_hands[viewer]
        if not all(map(operator.le, own_known, hand)):
            problem = known_problem(own_known, viewer, hand, "hand")
            if problem is not None:
                raise ViewError(problem)
    unseen = unseen_cards(view)
    if min(unseen) < 0:
        for species in SPECIES:
            if unseen[species.index] < 0:
                raise ViewError(
                    f"view: {species.copies - unseen[species.index]} {species.value} cards in "
                    f"sight, but the game has {species.copies}"
                )
    piles = view.draw_pile_size + view.discard_pile_size
    hidden = piles + sum(hand_sizes) - sum(known_sizes)  # the unknown parts of the hands...
    if viewer is not None:  # ...but the viewer's own
        hidden -= hand_sizes[viewer] - known_sizes[viewer]
    if sum(unseen) != hidden:
        raise ViewError(
            f"view: the cards do not add up to {DECK_SIZE}: {sum(unseen)} unseen cards "
            f"for {hidden} hidden places"
        )
    current, phase = view.current_player, view.phase
    # A lay with every hand holding cards breaks no rule of phase_problem.
    if phase is not Phase.LAY or not hand_sizes[current] or 0 in hand_sizes:
        problem = phase_problem(
            view, hand if viewer == current else None, hand_sizes, piles, "hand_sizes"
        )
        if problem is not None:
            raise ViewError(problem)
    prompted = phase is Phase.FLOCK and flock_prompt_needs_flock(view.options)
    if prompted and not _flock_possible(view, unseen):
        raise ViewError(f"phase: 'flock' but player {current} cannot hold a flock")
    return unseen


def __getattr__(name: str) -> object:
    """``cuckoo_rules.views.determinize``: deprecated, import it from the determinization.

    :func:`~cuckoo_rules.determinization.determinize` lives in
    :mod:`cuckoo_rules.determinization`, a layer above this module (it reasons about
    views): this alias keeps old imports working for one release, with a warning.
    """
    if name == "determinize":
        warnings.warn(
            "cuckoo_rules.views.determinize is deprecated: import determinize from "
            "cuckoo_rules or cuckoo_rules.determinization",
            DeprecationWarning,
            stacklevel=2,
        )
        return importlib.import_module(__package__ + ".determinization").determinize
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
