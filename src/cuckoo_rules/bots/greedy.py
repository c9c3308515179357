"""A one-ply heuristic bot: :class:`GreedyBot`, and the evaluation it is built on.

The heuristic looks one decision ahead. Everything it uses is public or the bot's own
hand, so it works from the :class:`~cuckoo_rules.PlayerView` alone.

**Collection value** :func:`collection_value`. A winning collection is worth
:data:`WIN_VALUE`. Otherwise the bot measures how far it is from each win condition, in
flocks: the two-triples route needs ``6 - (min(a, 3) + min(b, 3))`` more birds for its
two best species ``a`` and ``b``, at about 1.6 birds a flock; the seven-species route
needs one flock per missing species. The nearer route counts ten points a flock, the
other two, and every card in the collection one more (the tie-break when the cards run
out is the collection size).

**Hand value** :func:`hand_value`. The sum, over the species in hand, of what flying
them home would add to the collection value: 80% of it for a flock the hand already
holds (two birds for a big flock; a small flock also earns part of the way to a big
one), and ``0.5 * (held / small flock) ** 2`` of a one-bird flock for a partial one.
The values depend only on the collection, so they are tabulated once per collection
(:func:`potential_table`), which keeps the bot (and the search built on it) fast.

**Decisions.**

- *Lay*: for each legal lay, the cards it captures are computed exactly from the public
  rows. The score is the hand value after the lay (laid cards gone, captured cards
  added) minus the hand value before, minus a *feeding* penalty: the growth, in the row
  laid on, of the best capture the next player could make, weighted by the chance that
  player holds the species needed (certain when the cards were seen entering their hand,
  otherwise estimated from the unseen cards and their hand size). A lay that empties the
  hand ends the round: it scores the cards the other players lose.
- *Draw*: take the two cards when the expected gain in hand value is positive, which is
  nearly always; with an empty hand, decline and so end the round when the other
  players hold more than :attr:`GreedyBot.end_round_threshold` cards in all.
- *Flock*: fly home the flock that best advances the win conditions: the largest gain
  in collection value, plus a little of the change in hand value (ties: fewer cards
  discarded); pass only when every flock would lose value.

Ties between equally scored actions are broken at random with the bot's own
:class:`random.Random`, so two greedy bots with different seeds play differently.
"""

from __future__ import annotations

import functools
import random

import attrs

from .._greedy_weights import (
    BIG_FLOCK_SHARE,
    BIRDS_PER_FLOCK,
    DEFAULT_END_ROUND_THRESHOLD,
    DEFAULT_FEED_WEIGHT,
    DISCARD_PENALTY,
    FAR_ROUTE_POINTS,
    FLOCK_HAND_SHARE,
    HELD_FLOCK_SHARE,
    NEAR_ROUTE_POINTS,
    PARTIAL_FLOCK_SHARE,
    ROUND_END_POINTS,
    TIE_TOLERANCE,
    WIN_VALUE,
)
from ..actions import DRAW, PASS, Action, FlyHome, Lay, Phase, Side
from ..cards import NUM_SPECIES, SPECIES
from ..decisions import DRAW_SIZE
from ..engine import legal_actions
from ..outcome import SPECIES_TO_WIN, TRIPLE, TRIPLES_TO_WIN, has_won
from ..preview import birds_home, captured_by
from ..state import SMALL_FLOCKS as _SMALL
from ..state import Counts, Row
from ..views import PlayerView, unseen_cards
from .base import check_view, own_rng
from .parameters import GREEDY_PARAMETERS, check_parameters

__all__ = [
    "WIN_VALUE",
    "GreedyBot",
    "collection_value",
    "hand_value",
    "potential_table",
]

_BIG = tuple(s.big_flock for s in SPECIES)


def collection_value(collection: Counts) -> float:
    """Return how good a collection is: progress towards a win, plus its size.

    Example:
        >>> collection_value((3, 0, 3, 0, 0, 0, 0, 0))
        1000.0
        >>> collection_value((2, 0, 1, 0, 0, 0, 0, 0)) > collection_value((1, 0, 1, 0, 0, 0, 0, 0))
        True
    """
    if has_won(collection):
        return WIN_VALUE
    first = second = 0
    species = 0
    size = 0
    for count in collection:
        if count:
            species += 1
            size += count
            capped = TRIPLE if count > TRIPLE else count
            if capped > first:
                first, second = capped, first
            elif capped > second:
                second = capped
    triples = (TRIPLES_TO_WIN * TRIPLE - first - second) / BIRDS_PER_FLOCK
    seven = SPECIES_TO_WIN - species
    near, far = (triples, seven) if triples < seven else (seven, triples)
    return -NEAR_ROUTE_POINTS * near - FAR_ROUTE_POINTS * far + size


def _with(counts: Counts, index: int, add: int) -> Counts:
    changed = list(counts)
    changed[index] += add
    return tuple(changed)


_MAX_HELD = max(s.copies for s in SPECIES)  # no hand holds more of a species


@functools.lru_cache(maxsize=4096)
def potential_table(collection: Counts) -> tuple[tuple[float, ...], ...]:
    """Return ``table[i][held]``: the flock potential of ``held`` cards of species ``i``.

    A hand's value is the sum of its species' entries (:func:`hand_value`); the table
    depends only on the collection, so it is computed once per collection (cached).
    """
    base = collection_value(collection)
    table: list[tuple[float, ...]] = []
    for i in range(NUM_SPECIES):
        one = collection_value(_with(collection, i, 1)) - base
        two = collection_value(_with(collection, i, 2)) - base
        small, big = _SMALL[i], _BIG[i]
        row = [0.0] * (_MAX_HELD + 1)
        for held in range(1, _MAX_HELD + 1):
            if held >= big:
                row[held] = HELD_FLOCK_SHARE * two
            elif held >= small:
                row[held] = HELD_FLOCK_SHARE * one + BIG_FLOCK_SHARE * (held - small + 1) / (
                    big - small + 1
                ) * (two - one)
            else:
                fraction = held / small
                row[held] = PARTIAL_FLOCK_SHARE * fraction * fraction * one
        table.append(tuple(row))
    return tuple(table)


def hand_value(hand: Counts, collection: Counts) -> float:
    """Return the flock potential of a hand for a collection.

    Each species in hand counts for what flying it home would add to the collection
    value: most of it for a flock the hand already holds (two birds for a big flock),
    and a fraction growing as ``(held / small flock) ** 2`` for a partial one.

    Example:
        >>> collection = (1, 0, 0, 0, 0, 0, 0, 0)
        >>> hand_value((3, 0, 0, 0, 0, 0, 0, 0), collection) > hand_value(
        ...     (1, 0, 0, 0, 0, 0, 0, 0), collection)
        True
    """
    table = potential_table(collection)
    return sum(table[i][held] for i, held in enumerate(hand) if held)


def _holding_chances(view: PlayerView, seat: int) -> tuple[float, ...]:
    """For each species, the chance (as the viewer estimates it) that ``seat`` holds one."""
    known = view.known_hands[seat]
    hidden = view.hand_sizes[seat] - sum(known)
    unseen = unseen_cards(view)
    total = sum(unseen)
    chances: list[float] = []
    for i in range(NUM_SPECIES):
        if known[i]:
            chances.append(1.0)
        elif hidden <= 0 or total <= 0 or not unseen[i]:
            chances.append(0.0)
        else:
            miss = 1.0
            for j in range(min(hidden, total)):
                miss *= max(0.0, (total - unseen[i] - j) / (total - j))
            chances.append(1.0 - miss)
    return tuple(chances)


def _best_capture(row: Row, chances: tuple[float, ...]) -> float:
    """The expected size of the best capture another seat could make on ``row``.

    The capture sizes are those of :func:`~cuckoo_rules.preview.capture_sizes`, found
    for each block of a species with two C-level searches (from the left and from the
    right) instead of a Python step per card: this runs for every lay the bot weighs.
    """
    n = len(row)
    if not n or row.count(row[0]) == n:  # no card, or one species only: no capture
        return 0.0
    backwards = row[::-1]
    best = 0.0
    previous = None
    for card in row:
        if card is previous:  # the same block (a species seen again later gives the same)
            continue
        previous = card
        left = row.index(card)  # the cards a lay at the left captures
        right = backwards.index(card)  # and at the right
        expected = chances[card.index] * (left if left > right else right)
        if expected > best:
            best = expected
    return best


@attrs.frozen
class GreedyBot:
    """A one-ply heuristic player (see the module documentation for the heuristic).

    Attributes:
        seed: Seeds the bot's own :class:`random.Random`, used to break ties.
        feed_weight: Points lost per card of capture the lay opens up for the next
            player (weighted by the chance they can take it).
        end_round_threshold: With an empty hand after a lay, decline the draw (ending
            the round) when the other players hold more cards than this in all.

    The ranges of the parameters are those of
    :data:`~cuckoo_rules.bots.parameters.GREEDY_PARAMETERS`.

    Raises:
        BotError: If a parameter is out of its range (NaN and infinities included).

    Example:
        >>> from cuckoo_rules import GameOptions, new_game, observe, legal_actions
        >>> state = new_game(GameOptions(num_players=2), seed=1)
        >>> view = observe(state, state.current_player)
        >>> GreedyBot(seed=5).choose(view) in legal_actions(view)
        True
    """

    seed: int = 0
    feed_weight: float = DEFAULT_FEED_WEIGHT
    end_round_threshold: int = DEFAULT_END_ROUND_THRESHOLD
    _rng: random.Random = attrs.field(
        init=False, repr=False, eq=False, default=attrs.Factory(own_rng, takes_self=True)
    )

    def __attrs_post_init__(self) -> None:
        check_parameters(self, GREEDY_PARAMETERS)

    def choose(self, view: PlayerView) -> Action:
        """Return the legal action of ``view`` with the best heuristic score."""
        check_view(view)
        return self._rng.choice(self.best_actions(view))

    def best_actions(self, view: PlayerView) -> list[Action]:
        """Return every legal action of ``view`` that has the best score (ties)."""
        scored = self.scores(view)
        top = max(item[1] for item in scored)
        return [action for action, score in scored if score >= top - TIE_TOLERANCE]

    def scores(self, view: PlayerView) -> list[tuple[Action, float]]:
        """Return each legal action of the acting seat's ``view`` with its score.

        Raises:
            BotError: If ``view`` is not the acting seat's view.
        """
        check_view(view)
        assert view.hand is not None
        actions = legal_actions(view)
        phase = view.phase
        if phase is Phase.LAY:
            return self._score_lays(view, view.hand, actions)
        if phase is Phase.DRAW:
            return self._score_draw(view, view.hand)
        return self._score_flocks(view, view.hand, actions)

    def _score_lays(
        self, view: PlayerView, hand: Counts, actions: tuple[Action, ...]
    ) -> list[tuple[Action, float]]:
        me = view.current_player
        table = potential_table(view.collections[me])
        following = (me + 1) % view.num_players
        chances = _holding_chances(view, following)
        others = sum(view.hand_sizes) - sum(hand)
        cards_in_hand = sum(hand)
        threat = [_best_capture(row, chances) for row in view.rows]
        scored: list[tuple[Action, float]] = []
        for action in actions:
            assert isinstance(action, Lay)
            species, row_index = action.species, action.row
            si = species.index
            row = view.rows[row_index]
            held = hand[si]
            captured = captured_by(row, species, action.side)
            score = -table[si][held]
            laid = (species,) * held
            if captured:
                taken = [0] * NUM_SPECIES
                for card in captured:
                    taken[card.index] += 1
                for i, count in enumerate(taken):
                    if count:
                        score += table[i][hand[i] + count] - table[i][hand[i]]
                if action.side is Side.LEFT:
                    new_row = laid + row[len(captured) :]
                else:
                    new_row = row[: len(row) - len(captured)] + laid
                if new_row.count(species) == len(new_row):
                    new_row = ()  # refilled with cards nobody knows yet
            else:
                new_row = laid + row if action.side is Side.LEFT else row + laid
                if held == cards_in_hand:  # the round ends: the others lose their hands
                    score += ROUND_END_POINTS * others
            growth = _best_capture(new_row, chances) - threat[row_index]
            if growth > 0:
                score -= self.feed_weight * growth
            scored.append((action, score))
        return scored

    def _score_draw(self, view: PlayerView, hand: Counts) -> list[tuple[Action, float]]:
        me = view.current_player
        if not any(hand):
            others = sum(view.hand_sizes) - sum(hand)
            end_round = others > self.end_round_threshold
            return [(DRAW, 0.0 if end_round else 1.0), (PASS, 1.0 if end_round else 0.0)]
        collection = view.collections[me]
        before = hand_value(hand, collection)
        unseen = unseen_cards(view)
        total = sum(unseen)
        gain = 0.0
        if total:
            for i in range(NUM_SPECIES):
                if unseen[i]:
                    gain += unseen[i] / total * (hand_value(_with(hand, i, 1), collection) - before)
        return [(DRAW, DRAW_SIZE * gain), (PASS, 0.0)]

    def _score_flocks(
        self, view: PlayerView, hand: Counts, actions: tuple[Action, ...]
    ) -> list[tuple[Action, float]]:
        collection = view.collections[view.current_player]
        before = hand_value(hand, collection)
        scored: list[tuple[Action, float]] = []
        for action in actions:
            if isinstance(action, FlyHome):
                i = action.species.index
                held = hand[i]
                birds = birds_home(action.species, held)
                after_collection = _with(collection, i, birds)
                after_hand = _with(hand, i, -held)
                score = (
                    collection_value(after_collection)
                    - collection_value(collection)
                    + FLOCK_HAND_SHARE * (hand_value(after_hand, after_collection) - before)
                    - DISCARD_PENALTY * (held - birds)
                )
                scored.append((action, score))
            else:
                scored.append((action, 0.0))
        return scored
