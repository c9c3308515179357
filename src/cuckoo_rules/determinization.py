"""Determinization: a full state that one seat cannot tell apart from the truth (rules §6).

:func:`determinize` goes the other way from :func:`~cuckoo_rules.observe`: given what a
seat sees (a :class:`~cuckoo_rules.PlayerView`), and optionally what its history proves
(a :class:`~cuckoo_rules.Knowledge`), it draws one full :class:`~cuckoo_rules.GameState`
among all those the seat cannot tell apart from the truth, as search bots need. The
view is checked first with :func:`~cuckoo_rules.views.check_view_consistency`, the check
:func:`~cuckoo_rules.decode_view` makes too.

Example:
    >>> from cuckoo_rules import GameOptions, new_game, observe
    >>> view = observe(new_game(GameOptions(num_players=3), seed=42), 1)
    >>> state = determinize(view, seed=5)
    >>> observe(state, 1) == view, state.seed
    (True, 5)
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from itertools import chain, compress, repeat
from math import comb

import attrs

from .actions import Phase
from .cards import NUM_SPECIES, SPECIES, Species
from .errors import InvalidOptionsError, ViewError
from .knowledge import Knowledge
from .rng import SEED_LIMIT, below, continue_shuffle, shuffle, splitmix64, stream_state
from .state import (
    DECK_COUNTS,
    EMPTY_COUNTS,
    SMALL_FLOCKS,
    Counts,
    GameState,
    can_fly_home,
    flock_prompt_needs_flock,
    format_counts,
)
from .views import PlayerView, check_view_consistency

__all__ = ["DealPlan", "deal_plan", "determinize"]

_MAX_TRIES = 10_000  # attempts of the card-by-card deal before a view is refused
_FLOCK_DRAWS = 32  # without knowledge: tries of a hidden acting hand before drawing a flock


def determinize(
    view: PlayerView,
    seed: int,
    *,
    knowledge: Knowledge | None = None,
    max_draws: int = 20_000,
) -> GameState:
    """Draw a full state the viewer cannot tell apart from the truth.

    The cards the viewer cannot see (the unknown part of every other hand, the draw pile
    and the discard pile) are shuffled uniformly with the seeded shuffle and dealt out
    with the sizes the view shows. Where the view shows the flock phase and the acting
    seat's known cards hold no flock, its hidden cards are dealt first and a draw that
    gives it no flock is redrawn with the next random stream; after a few such draws its
    hidden cards are drawn directly among those that give it a flock. Either way the
    result is uniform among the states the viewer cannot tell apart. The result's
    ``seed`` is ``seed`` and its ``shuffles`` counts the streams used, so later reshuffles
    in a search are seeded too. ``observe(determinize(view, seed), view.viewer) == view``
    always holds.

    A view does not record what only the history proves: a seat that has just laid all
    its ducks holds none until it draws again. Pass ``knowledge``
    (:func:`~cuckoo_rules.learn` folds a seat's redacted events into it) to draw only
    states that agree with the whole history: the cards the viewer knows to be in the
    discard pile are put there, and draws that break a hand's limits are rejected and
    redrawn like those without a flock, so the result is uniform among the states
    consistent with view and history.
    Without ``knowledge`` the result is exactly as before it existed.

    Args:
        view: What a seat (or a spectator) sees.
        seed: An integer in ``[0, 2**64)``; it fully decides the result.
        knowledge: What the viewer learned from the history (:class:`~cuckoo_rules.Knowledge`).
        max_draws: With ``knowledge``: how many uniform draws to try before dealing the
            hidden hands card by card within the limits. Fewer draws bound the time a
            call can take (a search bot uses 32); more keep the result exactly uniform
            in more views.

    Raises:
        InvalidOptionsError: If the seed or ``max_draws`` is out of range.
        ViewError: If the view is inconsistent (see
            :func:`~cuckoo_rules.views.check_view_consistency`: for example its hidden
            cards do not add up, or a public flock phase is impossible; the message is the
            one :func:`~cuckoo_rules.decode_view` gives), or ``knowledge`` does not fit it,
            or (``"no determinization found"``) 10,000 attempts of the card-by-card deal
            found no hands within the limits.

    Example:
        >>> from cuckoo_rules import GameOptions, new_game, observe
        >>> view = observe(new_game(GameOptions(num_players=3), seed=42), 1)
        >>> observe(determinize(view, seed=5), 1) == view
        True
    """
    if type(seed) is not int or not 0 <= seed < SEED_LIMIT:
        raise InvalidOptionsError(f"seed: {seed!r} is not an integer in [0, 2**64)")
    if type(max_draws) is not int or max_draws < 0:
        raise InvalidOptionsError(f"max_draws: {max_draws!r} is not an integer >= 0")
    pool, hidden, _, limits, discards, need_flock, draws = _plan_of(view, knowledge)
    if limits is not None:
        return _determinize_within(
            view,
            seed,
            limits,
            discards,
            pool,
            hidden,
            need_flock,
            max_draws if draws is None else draws,
        )
    cards = list(pool)
    shuffle(cards, seed, 0)
    hands, pos = _deal_hidden(view, cards, hidden)
    return _determinized(view, seed, 1, hands, cards, pos)


@attrs.frozen
class DealPlan:
    """What :func:`determinize` deals for a view: the same for every seed.

    The batch simulator's kernels deal determinizations from it exactly as
    :func:`determinize` does (the expert bot's search).

    Attributes:
        pool: The cards to deal, in species order (the unseen cards less the known
            discards).
        hidden: Each seat's hidden cards (0 for the viewer).
        seats: The seats with hidden cards, in the order the rejection path deals them
            (the acting seat first when it must hold a flock).
        limits: Each seat's limits on its hidden cards for the rejection path, or
            ``None`` for the plain shuffle (no knowledge, no flock to draw).
        known_discards: The cards known to lie in the discard pile.
        need_flock: Whether the acting seat's hidden cards must give it a flock.
        max_draws: The draws the rejection path tries before the card-by-card deal
            when it is there only for a flock (no knowledge); ``None`` when it takes
            the caller's ``max_draws`` (or there is no rejection path).
    """

    pool: tuple[Species, ...]
    hidden: tuple[int, ...]
    seats: tuple[int, ...]
    limits: tuple[Counts, ...] | None
    known_discards: Counts
    need_flock: bool
    max_draws: int | None


def deal_plan(view: PlayerView, knowledge: Knowledge | None = None) -> DealPlan:
    """Check ``view`` (and ``knowledge``) and return what :func:`determinize` deals for them.

    Raises:
        ViewError: As :func:`determinize`.
    """
    global _last_deal_plan
    last_view, last_knowledge, plan = _last_deal_plan
    if view is last_view and knowledge is last_knowledge and plan is not None:
        return plan  # the expert asks once per decision, and may ask again
    plan = DealPlan(*_plan_of(view, knowledge))
    _last_deal_plan = (view, knowledge, plan)
    return plan


# A DealPlan's fields as a tuple, in their order: determinize reads them without
# building the frozen class (it plans a fresh view at every call outside a search).
_Plan = tuple[
    tuple[Species, ...],
    tuple[int, ...],
    tuple[int, ...],
    tuple[Counts, ...] | None,
    Counts,
    bool,
    int | None,
]


def _plan_of(view: PlayerView, knowledge: Knowledge | None) -> _Plan:
    """:func:`_plan`, once for the same view and knowledge objects in a row."""
    global _last_plan
    last_view, last_knowledge, plan = _last_plan
    if view is last_view and knowledge is last_knowledge and plan is not None:
        return plan  # a search determinizes one view many times (as _checked)
    plan = _plan(view, knowledge)
    _last_plan = (view, knowledge, plan)
    return plan


def _plan(view: PlayerView, knowledge: Knowledge | None) -> _Plan:
    unseen = _checked(view)  # the cards the viewer cannot locate
    n = view.options.num_players
    current = view.current_player
    discards = EMPTY_COUNTS
    if knowledge is not None:
        discards = _check_knowledge(view, knowledge, unseen)
        unseen = tuple(map(operator.sub, unseen, discards))
    # In species order, at C speed (a fresh view is planned at every determinization).
    pool = tuple(chain.from_iterable(map(repeat, SPECIES, unseen)))
    # The hidden part of each hand (the check made one entry per seat, the viewer a seat).
    hidden_list = list(map(operator.sub, view.hand_sizes, map(sum, view.known_hands)))
    if view.viewer is not None:  # its own hand is no secret to it
        hidden_list[view.viewer] = 0
    hidden = tuple(hidden_list)
    # The view is consistent and the known discards fit it: the pool fills the hidden places.
    assert len(pool) == sum(hidden) + view.draw_pile_size + view.discard_pile_size - sum(discards)
    must_flock = (
        view.phase is Phase.FLOCK
        and flock_prompt_needs_flock(view.options)
        and view.viewer != current
    )
    # The acting seat's hidden cards must give it a flock (which the check found possible).
    need_flock = must_flock and not can_fly_home(view.known_hands[current])
    limits: tuple[Counts, ...] | None = None
    max_draws = None
    if knowledge is not None and not knowledge.is_empty:
        limits = knowledge.hidden_limits
    elif need_flock:  # no limits: the fallback's flock draw and card-by-card deal are uniform
        limits = (DECK_COUNTS,) * n
        max_draws = _FLOCK_DRAWS
    seats = tuple(compress(range(n), hidden))
    if need_flock:
        seats = (current, *(seat for seat in seats if seat != current))
    return pool, hidden, seats, limits, discards, need_flock, max_draws


# The last plan made, for the same view and knowledge objects (see _last_checked), and
# the last DealPlan handed out.
_last_plan: tuple[PlayerView | None, Knowledge | None, _Plan | None] = (None, None, None)
_last_deal_plan: tuple[PlayerView | None, Knowledge | None, DealPlan | None] = (None, None, None)

# The last view checked and its unseen cards. A search determinizes one view many times
# (ISMCTS: once per iteration); a view is immutable, so the same object need not be
# checked again. One entry, replaced as a whole (a tuple), so threads never see half.
_last_checked: tuple[object, Counts] = (object(), ())  # a first key no argument can be


def _checked(view: PlayerView) -> Counts:
    """:func:`~cuckoo_rules.views.check_view_consistency`, once per view object."""
    global _last_checked
    last, unseen = _last_checked
    if view is not last:
        unseen = check_view_consistency(view)
        _last_checked = (view, unseen)
    return unseen


def _determinize_within(
    view: PlayerView,
    seed: int,
    limits: Sequence[Counts],
    known_discards: Counts,
    pool: Sequence[Species],
    hidden_in_hands: Sequence[int],
    need_flock: bool,
    max_draws: int,
) -> GameState:
    """:func:`determinize` within ``limits``: rejection first, then a constrained deal.

    Each try runs the seeded Fisher-Yates shuffle of ``pool`` (stream by stream) only as
    far as the hidden hands need, dealing them hand by hand from the end of the list and
    stopping at the first card that breaks a limit. Where the acting seat must hold a
    flock (``need_flock``), its hand is dealt first and a try without a flock stops
    there, a few draws in. A try that succeeds finishes the same shuffle for the piles.
    Accepted tries are uniform among the consistent states. If ``max_draws`` tries fail,
    :func:`_deal_within` deals the hidden hands.
    """
    current = view.current_player
    seats = [seat for seat in range(view.options.num_players) if hidden_in_hands[seat]]
    if need_flock:
        seats.remove(current)
        seats.insert(0, current)
    kept = len(pool) - sum(hidden_in_hands)  # the cards left for the piles
    start = _hands_with_own(view)
    for stream in range(max_draws):
        cards = list(pool)
        state = stream_state(seed, stream)
        top = len(cards) - 1  # Fisher-Yates fixes the positions from the end
        hands = list(start)
        for seat in seats:
            size = hidden_in_hands[seat]
            state, hidden = _deal_seat(cards, state, top, size, limits[seat])
            if hidden is None:
                break
            top -= size
            hands[seat] = tuple(map(operator.add, view.known_hands[seat], hidden))
            if need_flock and seat == current and not can_fly_home(hands[seat]):
                break
        else:
            continue_shuffle(cards, state, top)  # finish the shuffle for the piles
            return _determinized(view, seed, stream + 1, hands, cards[:kept], 0, known_discards)
    return _deal_within(
        view, seed, limits, known_discards, pool, hidden_in_hands, need_flock, seats, max_draws
    )


def _deal_seat(
    cards: list[Species], state: int, top: int, size: int, limits: Counts
) -> tuple[int, list[int] | None]:
    """Deal one hand: fix positions ``top`` down of the Fisher-Yates shuffle of ``cards``.

    Returns the generator state and the ``size`` cards dealt as counts; ``None`` as soon
    as a card breaks ``limits`` (the rest of the shuffle is then left undone).
    """
    hidden = [0] * NUM_SPECIES
    for i in range(top, top - size, -1):
        if i:  # the step of continue_shuffle, inline: this is the hot loop of a search
            state, out = splitmix64(state)
            j = out % (i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        k = cards[i].index
        hidden[k] += 1
        if hidden[k] > limits[k]:
            return state, None
    return state, hidden


def _deal_within(
    view: PlayerView,
    seed: int,
    limits: Sequence[Counts],
    known_discards: Counts,
    pool: Sequence[Species],
    hidden_in_hands: Sequence[int],
    need_flock: bool,
    seats: list[int],
    first_stream: int,
) -> GameState:
    """Deal the hidden hands card by card among the cards each may take (the fallback).

    Where the acting seat must hold a flock, its hidden cards are drawn first, uniformly
    among those that give it a flock within its limits (:func:`_flock_sampler`). Without
    limits the deal is exactly uniform; with them, only close to uniform.
    """
    current = view.current_player
    draw_flock = None
    counts = [0] * NUM_SPECIES
    for card in pool:
        counts[card.index] += 1
    if need_flock:
        known = view.known_hands[current]
        draw_flock = _flock_sampler(known, hidden_in_hands[current], counts, limits[current])
        if draw_flock is None:
            raise ViewError("no determinization found: the view and knowledge are inconsistent")
        seats = [seat for seat in seats if seat != current]
    start = _hands_with_own(view)
    # The most constrained hands first: they have the fewest cards to choose from.
    seats = sorted(seats, key=lambda seat: sum(map(min, limits[seat], DECK_COUNTS)))
    for attempt in range(_MAX_TRIES):
        stream = first_stream + attempt
        state = stream_state(seed, stream)
        left = list(counts)  # the pool's cards not dealt yet, per species
        hands = list(start)
        if draw_flock is not None:
            state, hidden = draw_flock(state)
            left = list(map(operator.sub, left, hidden))
            hands[current] = tuple(map(operator.add, hands[current], hidden))
        for seat in seats:
            state, dealt = _deal_by_card(state, left, hidden_in_hands[seat], limits[seat])
            if dealt is None:
                break
            hands[seat] = tuple(map(operator.add, hands[seat], dealt))
        else:
            rest = [species for species, n in zip(SPECIES, left, strict=True) for _ in range(n)]
            shuffle(rest, seed, stream + 1)
            return _determinized(view, seed, stream + 2, hands, rest, 0, known_discards)
    raise ViewError("no determinization found: the view and knowledge are inconsistent")


def _deal_by_card(
    state: int, left: list[int], size: int, limits: Counts
) -> tuple[int, list[int] | None]:
    """Deal ``size`` cards from ``left`` (counts, updated), each within ``limits``.

    Each card is uniform among those left that the hand may still take: a species with
    probability proportional to its cards left. Returns the generator state and the
    cards dealt, ``None`` if the hand can take no more card before it is complete.
    """
    hidden = [0] * NUM_SPECIES
    for _ in range(size):
        weights = [n if h < k else 0 for n, h, k in zip(left, hidden, limits, strict=True)]
        total = sum(weights)
        if not total:
            return state, None
        state, out = splitmix64(state)
        pick = out % total
        species = 0
        while pick >= weights[species]:
            pick -= weights[species]
            species += 1
        hidden[species] += 1
        left[species] -= 1
    return state, hidden


def _flock_sampler(
    known: Counts, size: int, pool: Sequence[int], limits: Counts
) -> Callable[[int], tuple[int, list[int]]] | None:
    """A uniform draw of a hand's hidden cards among those that give it a flock.

    The hand holds ``known`` and ``size`` cards of ``pool`` (counts), at most ``limits``
    of each species. Each way to choose the cards is equally likely, as in a uniform
    shuffle of the pool conditioned on the flock, so a choice of counts has probability
    proportional to its number of ways. The sampler takes a generator state and returns
    the new state and the counts drawn; ``None`` if no choice gives a flock.
    """
    # choose[s][c]: the ways to take c cards of species s.
    choose = [
        [comb(n, c) for c in range(min(n, limit, size) + 1)]
        for n, limit in zip(pool, limits, strict=True)
    ]
    # ways[s][f][r]: the ways to take r cards of species s, s + 1... so that the hand
    # ends with a flock, f telling whether a species before s gave one already.
    ways = [([0] * (size + 1), [1] + [0] * size)]
    for s in reversed(range(NUM_SPECIES)):
        no, yes = ways[-1]
        binoms = choose[s]
        need = SMALL_FLOCKS[s] - known[s]
        with_no = [
            sum(b * (yes if c >= need else no)[r - c] for c, b in enumerate(binoms[: r + 1]))
            for r in range(size + 1)
        ]
        with_yes = [
            sum(b * yes[r - c] for c, b in enumerate(binoms[: r + 1])) for r in range(size + 1)
        ]
        ways.append((with_no, with_yes))
    ways.reverse()
    total = ways[0][0][size]
    if not total:
        return None

    def draw(state: int) -> tuple[int, list[int]]:
        state, x = below(state, total)  # the rank of the choice among all of them
        hidden = [0] * NUM_SPECIES
        r, flock = size, False
        for s in range(NUM_SPECIES):
            for c, b in enumerate(choose[s][: r + 1]):
                f = flock or known[s] + c >= SMALL_FLOCKS[s]
                after = ways[s + 1][f][r - c]
                if x < b * after:
                    x %= after  # uniform among the ways to take the other species
                    hidden[s], r, flock = c, r - c, f
                    break
                x -= b * after
        return state, hidden

    return draw


def _hands_with_own(view: PlayerView) -> list[Counts]:
    """The hands as far as the viewer knows them: the known parts and its own hand."""
    hands = list(view.known_hands)
    if view.viewer is not None:
        assert view.hand is not None
        hands[view.viewer] = view.hand
    return hands


def _check_knowledge(view: PlayerView, knowledge: Knowledge, unseen: Counts) -> Counts:
    """Check that ``knowledge`` fits ``view``; return the known discards."""
    if not isinstance(knowledge, Knowledge):
        raise ViewError(f"knowledge: expected a Knowledge, got {type(knowledge).__name__}")
    if len(knowledge.hidden_limits) != view.options.num_players:
        raise ViewError(
            f"knowledge: {len(knowledge.hidden_limits)} seats for a "
            f"{view.options.num_players}-player view"
        )
    discards = knowledge.known_discards
    if sum(discards) > view.discard_pile_size or any(map(int.__gt__, discards, unseen)):
        raise ViewError(
            f"knowledge: the known discards {format_counts(discards)} do not fit the "
            f"{view.discard_pile_size} cards of the discard pile and the unseen cards"
        )
    return discards


def _deal_hidden(
    view: PlayerView, cards: list[Species], hidden_in_hands: Sequence[int]
) -> tuple[list[Counts], int]:
    """Complete every hand from ``cards``; return the hands and the number of cards used."""
    hands: list[Counts] = []
    pos = 0
    for seat in range(view.options.num_players):
        if seat == view.viewer:
            assert view.hand is not None
            hands.append(view.hand)
            continue
        hand = list(view.known_hands[seat])
        for card in cards[pos : pos + hidden_in_hands[seat]]:
            hand[card.index] += 1
        pos += hidden_in_hands[seat]
        hands.append(tuple(hand))
    return hands, pos


def _determinized(
    view: PlayerView,
    seed: int,
    shuffles: int,
    hands: list[Counts],
    pool: list[Species],
    pos: int,
    known_discards: Counts = EMPTY_COUNTS,
) -> GameState:
    """Build the determinized state: the rest of ``pool`` from ``pos`` makes the piles.

    The discard pile is the end of ``pool`` plus ``known_discards``.
    """
    draw_pile = tuple(pool[pos : pos + view.draw_pile_size])
    pos += view.draw_pile_size
    discard = list(known_discards)
    for card in pool[pos:]:
        discard[card.index] += 1
    assert pos + view.discard_pile_size - sum(known_discards) == len(pool)
    # Positional, in the order of GameState's fields: a search determinizes at every step.
    return GameState(
        view.options,
        seed,
        shuffles,
        view.round,
        view.turn,
        view.dealer,
        view.current_player,
        view.phase,
        view.rows,
        draw_pile,
        tuple(discard),
        tuple(hands),
        view.known_hands,
        view.collections,
        view.winners,
    )
