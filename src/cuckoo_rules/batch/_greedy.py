"""The batched bots on one game's row: ``RandomBot`` and ``GreedyBot``, choice for choice.

The greedy scores are :class:`~cuckoo_rules.bots.GreedyBot`'s
(:mod:`cuckoo_rules.bots.greedy`), computed with the same floating-point operations in
the same order, so that the same ties are broken by the same Mersenne Twister draws.
The heuristic's own weights and default parameters are the bot's, which both read from
``cuckoo_rules._greedy_weights``; the rules' numbers in it (the winning collections, the
flock sizes, the cards of the optional draw) are the model's.
"""

from __future__ import annotations

import numpy as np

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
from ..decisions import DRAW_SIZE
from ._jit import ijit
from ._layout import (
    BIG,
    COLLECTIONS,
    COPIES,
    CURRENT,
    DRAW,
    DRAW_ID,
    FLOCK,
    FLY_ID,
    GREEDY,
    HANDS,
    KNOWN,
    MAX_ROW,
    NUM_ACTIONS,
    NUM_ROWS,
    NUM_SPECIES,
    O_PLAYERS,
    PASS_ID,
    PHASE,
    ROW_LEN,
    ROWS,
    SMALL,
    SPECIES_TO_WIN,
    TRIPLE,
    TRIPLES_TO_WIN,
)
from ._random import mt_below
from ._rules import flock_birds_home, inline, lay_parts, legal_mask, rule, wins

__all__ = [
    "DEFAULT_END_ROUND_THRESHOLD",
    "DEFAULT_FEED_WEIGHT",
    "SCRATCH_FLOATS",
    "SCRATCH_INTS",
    "WIN_VALUE",
    "bot_choice",
    "collection_value",
    "greedy_choice",
    "greedy_scores",
    "hand_value",
    "nth_legal",
    "potential_rows",
    "random_choice",
]

# The bots' working space (see scratch() in _drivers): where each array of greedy_scores
# and evaluate_seat lives in a thread's integers and floats.
_S = NUM_SPECIES
_ROWS = NUM_ROWS * NUM_SPECIES  # an array per species of every row
_PRESENT = NUM_SPECIES + 1  # per row: the species of grown_best, then how many
I_HAND, I_COLLECTION, I_UNSEEN, I_COUNTS, I_TAKEN, I_LEFT, I_RIGHT = range(0, 7 * _S, _S)
I_ROW_COUNTS = 7 * _S
I_ROW_LEFT = I_ROW_COUNTS + _ROWS
I_ROW_RIGHT = I_ROW_LEFT + _ROWS
I_PRESENT = I_ROW_RIGHT + _ROWS
SCRATCH_INTS = I_PRESENT + NUM_ROWS * _PRESENT
F_ONE, F_TWO, F_CHANCES = range(0, 3 * _S, _S)
F_THREAT = 3 * _S
F_AFTER_ONE = F_THREAT + NUM_ROWS
F_AFTER_TWO = F_AFTER_ONE + _S
F_HELD = F_AFTER_TWO + _S  # the lays' potential of each species as held now
F_EVAL_ONE = F_HELD + _S  # evaluate_seat's, after a rollout's greedy_scores
F_EVAL_TWO = F_EVAL_ONE + _S
SCRATCH_FLOATS = F_EVAL_TWO + _S


def _shares() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The divisions of the bot's values that depend on small integers only, done once.

    ``missing[k]`` is ``collection_value``'s ``(TRIPLES_TO_WIN * TRIPLE - k) /
    BIRDS_PER_FLOCK`` for the two largest capped counts summing to ``k``; for a flock of
    ``held`` birds of species ``i``, ``grown[i, held]`` is ``potential``'s
    ``BIG_FLOCK_SHARE * (held - small + 1) / (big - small + 1)`` (a small flock or more)
    and ``partial[i, held]`` its ``PARTIAL_FLOCK_SHARE * fraction * fraction`` (fewer).
    Each is computed here with the bot's operations in the bot's order, so each value is
    the bot's to the last bit, and so is every product the kernels take of it.
    """
    missing = np.array(
        [(TRIPLES_TO_WIN * TRIPLE - k) / BIRDS_PER_FLOCK for k in range(2 * TRIPLE + 1)]
    )
    width = int(BIG.max())
    grown = np.zeros((NUM_SPECIES, width))
    partial = np.zeros((NUM_SPECIES, width))
    for i in range(NUM_SPECIES):
        small, big = int(SMALL[i]), int(BIG[i])
        for held in range(1, big):
            if held >= small:
                grown[i, held] = BIG_FLOCK_SHARE * (held - small + 1) / (big - small + 1)
            else:
                fraction = held / small
                partial[i, held] = PARTIAL_FLOCK_SHARE * fraction * fraction
    return missing, grown, partial


_MISSING, _GROWN, _PARTIAL = _shares()


@inline
def collection_value(c: np.ndarray) -> float:
    """``bots.greedy.collection_value`` of the counts ``c``."""
    first = 0
    second = 0
    species = 0
    triples = 0
    size = 0
    for i in range(NUM_SPECIES):
        count = c[i]
        if count:
            species += 1
            size += count
            if count >= TRIPLE:
                triples += 1
            capped = TRIPLE if count > TRIPLE else count
            if capped > first:
                second = first
                first = capped
            elif capped > second:
                second = capped
    if wins(species, triples):
        return WIN_VALUE
    missing_triples = float(_MISSING[first + second])
    missing_species = float(SPECIES_TO_WIN - species)
    if missing_triples < missing_species:
        near, far = missing_triples, missing_species
    else:
        near, far = missing_species, missing_triples
    return -NEAR_ROUTE_POINTS * near - FAR_ROUTE_POINTS * far + size


@rule
def potential_rows(c: np.ndarray, one: np.ndarray, two: np.ndarray) -> None:
    """The values of one and two more birds of each species, for :func:`potential`.

    ``c`` is changed while this runs, and restored.
    """
    base = collection_value(c)
    for i in range(NUM_SPECIES):
        c[i] += 1
        one[i] = collection_value(c) - base
        c[i] += 1
        two[i] = collection_value(c) - base
        c[i] -= 2


@ijit
def potential(i: int, held: int, one: float, two: float) -> float:
    """``potential_table(collection)[i][held]``, given ``one[i]`` and ``two[i]``.

    They come from :func:`potential_rows`, as scalars: this is the innermost call.
    """
    if held <= 0:
        return 0.0
    small = SMALL[i]
    big = BIG[i]
    if held >= big:
        return HELD_FLOCK_SHARE * two
    if held >= small:
        return float(HELD_FLOCK_SHARE * one + _GROWN[i, held] * (two - one))
    return float(_PARTIAL[i, held] * one)


@rule
def hand_value(hand: np.ndarray, one: np.ndarray, two: np.ndarray) -> float:
    """``bots.greedy.hand_value``, summed in species order as ``sum`` does."""
    total = 0.0
    for i in range(NUM_SPECIES):
        if hand[i]:
            total += potential(i, hand[i], one[i], two[i])
    return total


@inline
def unseen_of(s: np.ndarray, n: int, viewer: int, unseen: np.ndarray) -> int:
    """``views.unseen_cards`` of ``viewer``'s view into ``unseen``; return their sum."""
    for i in range(NUM_SPECIES):
        unseen[i] = COPIES[i]
    for r in range(NUM_ROWS):
        base = ROWS + r * MAX_ROW
        for j in range(s[ROW_LEN + r]):
            unseen[s[base + j]] -= 1
    for seat in range(n):
        held = HANDS if seat == viewer else KNOWN
        for i in range(NUM_SPECIES):
            unseen[i] -= s[held + seat * NUM_SPECIES + i] + s[COLLECTIONS + seat * NUM_SPECIES + i]
    total = 0
    for i in range(NUM_SPECIES):
        total += unseen[i]
    return total


@ijit
def sizes_best(
    rc: np.ndarray, rl: np.ndarray, rr: np.ndarray, o: int, length: int, chances: np.ndarray
) -> float:
    """``bots.greedy._best_capture`` of a row given its capture sizes at ``rc/rl/rr[o:]``."""
    best = 0.0
    for i in range(NUM_SPECIES):
        count = rc[o + i]
        if not count or count == length:
            continue
        expected = chances[i] * max(rl[o + i], rr[o + i])
        if expected > best:
            best = expected
    return best


@ijit
def grown_best(
    rc: np.ndarray,
    rl: np.ndarray,
    rr: np.ndarray,
    o: int,
    length: int,
    si: int,
    held: int,
    on_right: bool,
    chances: np.ndarray,
    present: np.ndarray,
    po: int,
) -> float:
    """``_best_capture`` of a row after ``held`` birds of ``si`` join it, capturing none.

    It is computed from the row's capture sizes: the same values, without the row.

    ``present[po:po + present[po + NUM_SPECIES]]`` lists the row's species whose chance
    is not zero (a zero chance adds nothing: the best is the largest product, which does
    not depend on the order the species are tried in).
    """
    best = 0.0
    for k in range(present[po + NUM_SPECIES]):
        i = present[po + k]
        if i == si:
            continue
        if on_right:
            expected = chances[i] * max(rl[o + i], rr[o + i] + held)
        else:
            expected = chances[i] * max(rl[o + i] + held, rr[o + i])
        if expected > best:
            best = expected
    count = rc[o + si]
    if count != length:  # the row is not all ``si`` (then the new row is not measured)
        if on_right:
            expected = chances[si] * max(rl[o + si] if count else length, 0)
        else:
            expected = chances[si] * max(0, rr[o + si] if count else length)
        if expected > best:
            best = expected
    return best


@ijit
def captured_best(
    s: np.ndarray,
    base: int,
    length: int,
    start: int,
    stop: int,
    si: int,
    held: int,
    on_right: bool,
    chances: np.ndarray,
    counts: np.ndarray,
    left: np.ndarray,
    right: np.ndarray,
) -> float:
    """``_best_capture`` of the row a capture of ``s[base + start:base + stop]`` leaves.

    The capture is a lay of ``held`` birds of ``si``; the result is 0 when the row is
    left with one species (it is refilled with cards nobody knows). It is measured
    without building the row; ``counts``, ``left`` and ``right`` are scratch space.
    """
    counts[:] = 0
    if on_right:
        new_length = start + held
        for j in range(start):
            card = s[base + j]
            if not counts[card]:
                left[card] = j
            counts[card] += 1
            right[card] = new_length - 1 - j
        counts[si] += held  # ``si`` is already in row[:start]: its last card was there
        right[si] = 0
    else:
        new_length = held + length - stop
        counts[si] = held
        left[si] = 0
        right[si] = new_length - held
        position = held
        for j in range(stop, length):
            card = s[base + j]
            if not counts[card]:
                left[card] = position
            counts[card] += 1
            right[card] = new_length - 1 - position
            position += 1
    if counts[si] == new_length:
        return 0.0
    return sizes_best(counts, left, right, 0, new_length, chances)


@rule
def greedy_scores(
    s: np.ndarray,
    opt: np.ndarray,
    feed_weight: float,
    end_round_threshold: int,
    mask: np.ndarray,
    scores: np.ndarray,
    iw: np.ndarray,
    fw: np.ndarray,
) -> int:
    """``GreedyBot.scores`` of the acting seat: ``scores[a]`` for every legal id ``a``.

    ``iw`` (:data:`SCRATCH_INTS` integers) and ``fw`` (:data:`SCRATCH_FLOATS` floats) are
    scratch space. Returns the number of legal actions (``mask`` holds them).
    """
    n = opt[O_PLAYERS]
    me = s[CURRENT]
    count = legal_mask(s, mask)
    hand = iw[I_HAND : I_HAND + _S]
    collection = iw[I_COLLECTION : I_COLLECTION + _S]
    unseen = iw[I_UNSEEN : I_UNSEEN + _S]
    counts = iw[I_COUNTS : I_COUNTS + _S]
    taken = iw[I_TAKEN : I_TAKEN + _S]
    left = iw[I_LEFT : I_LEFT + _S]
    right = iw[I_RIGHT : I_RIGHT + _S]
    one = fw[F_ONE : F_ONE + _S]
    two = fw[F_TWO : F_TWO + _S]
    chances = fw[F_CHANCES : F_CHANCES + _S]
    threat = fw[F_THREAT : F_THREAT + NUM_ROWS]
    after_one = fw[F_AFTER_ONE : F_AFTER_ONE + _S]
    after_two = fw[F_AFTER_TWO : F_AFTER_TWO + _S]
    for i in range(NUM_SPECIES):
        hand[i] = s[HANDS + me * NUM_SPECIES + i]
        collection[i] = s[COLLECTIONS + me * NUM_SPECIES + i]
    phase = s[PHASE]
    cards_in_hand = 0
    for i in range(NUM_SPECIES):
        cards_in_hand += hand[i]
    all_cards = 0
    for seat in range(n):
        for i in range(NUM_SPECIES):
            all_cards += s[HANDS + seat * NUM_SPECIES + i]
    others = all_cards - cards_in_hand
    if phase == DRAW:
        if cards_in_hand == 0:
            end = others > end_round_threshold
            scores[DRAW_ID] = 0.0 if end else 1.0
            scores[PASS_ID] = 1.0 if end else 0.0
            return count
        potential_rows(collection, one, two)
        before = hand_value(hand, one, two)
        total = unseen_of(s, n, me, unseen)
        gain = 0.0
        if total:
            for i in range(NUM_SPECIES):
                if unseen[i]:
                    hand[i] += 1
                    after = hand_value(hand, one, two)
                    hand[i] -= 1
                    gain += unseen[i] / total * (after - before)
        scores[DRAW_ID] = DRAW_SIZE * gain
        scores[PASS_ID] = 0.0
        return count
    if phase == FLOCK:
        potential_rows(collection, one, two)
        before = hand_value(hand, one, two)
        base_value = collection_value(collection)
        for i in range(NUM_SPECIES):
            if mask[FLY_ID + i]:
                held = hand[i]
                birds = flock_birds_home(held, SMALL[i], BIG[i])
                collection[i] += birds
                hand[i] = 0
                potential_rows(collection, after_one, after_two)
                scores[FLY_ID + i] = (
                    collection_value(collection)
                    - base_value
                    + FLOCK_HAND_SHARE * (hand_value(hand, after_one, after_two) - before)
                    - DISCARD_PENALTY * (held - birds)
                )
                hand[i] = held
                collection[i] -= birds
        scores[PASS_ID] = 0.0
        return count
    # lays
    potential_rows(collection, one, two)
    following = (me + 1) % n
    total = unseen_of(s, n, me, unseen)
    hidden = 0
    for i in range(NUM_SPECIES):
        hidden += s[HANDS + following * NUM_SPECIES + i] - s[KNOWN + following * NUM_SPECIES + i]
    for i in range(NUM_SPECIES):
        if s[KNOWN + following * NUM_SPECIES + i]:
            chances[i] = 1.0
        elif hidden <= 0 or total <= 0 or not unseen[i]:
            chances[i] = 0.0
        else:
            miss = 1.0
            for j in range(min(hidden, total)):
                miss *= max(0.0, (total - unseen[i] - j) / (total - j))
            chances[i] = 1.0 - miss
    rc = iw[I_ROW_COUNTS : I_ROW_COUNTS + _ROWS]  # per row: the count, first position and
    rl = iw[I_ROW_LEFT : I_ROW_LEFT + _ROWS]  # distance from the end of the last one of
    rr = iw[I_ROW_RIGHT : I_ROW_RIGHT + _ROWS]  # each species (decisions.capture_sizes)
    present = iw[I_PRESENT : I_PRESENT + NUM_ROWS * _PRESENT]
    for r in range(NUM_ROWS):
        base = ROWS + r * MAX_ROW
        length = s[ROW_LEN + r]
        o = r * NUM_SPECIES
        for i in range(NUM_SPECIES):
            rc[o + i] = 0
        for j in range(length):
            i = s[base + j]
            if not rc[o + i]:
                rl[o + i] = j
            rc[o + i] += 1
            rr[o + i] = length - 1 - j
        threat[r] = sizes_best(rc, rl, rr, o, length, chances)
        k = 0
        for i in range(NUM_SPECIES):
            if rc[o + i] and chances[i] != 0.0:
                present[r * _PRESENT + k] = i
                k += 1
        present[r * _PRESENT + NUM_SPECIES] = k
    held_value = fw[F_HELD : F_HELD + _S]  # each species' potential, computed once
    for i in range(NUM_SPECIES):
        held_value[i] = potential(i, hand[i], one[i], two[i])
    for a in range(DRAW_ID):
        if not mask[a]:
            continue
        si, r, on_right = lay_parts(a)
        base = ROWS + r * MAX_ROW
        length = s[ROW_LEN + r]
        o = r * NUM_SPECIES
        held = hand[si]
        score = -held_value[si]
        start = stop = 0
        if rc[o + si]:
            first = rl[o + si]
            last = length - 1 - rr[o + si]
            start = last + 1 if on_right else 0
            stop = length if on_right else first
        if stop > start:  # a capture
            taken[:] = 0
            for j in range(start, stop):
                taken[s[base + j]] += 1
            for i in range(NUM_SPECIES):
                if taken[i]:
                    score += potential(i, hand[i] + taken[i], one[i], two[i]) - held_value[i]
            after = captured_best(
                s, base, length, start, stop, si, held, on_right, chances, counts, left, right
            )
        else:  # the birds join an end of the row: its sizes move by ``held``
            if held == cards_in_hand:
                score += ROUND_END_POINTS * others
            after = grown_best(
                rc, rl, rr, o, length, si, held, on_right, chances, present, r * _PRESENT
            )
        growth = after - threat[r]
        if growth > 0:
            score -= feed_weight * growth
        scores[a] = score
    return count


@ijit
def nth_legal(mask: np.ndarray, pick: int) -> int:
    """The id of the ``pick``-th action (from 0) that ``mask`` holds, or -1 if it holds fewer.

    The actions are taken in id order, the canonical order of ``legal_actions``.
    """
    for a in range(NUM_ACTIONS):
        if mask[a]:
            if pick == 0:
                return a
            pick -= 1
    return -1


@rule
def random_choice(s: np.ndarray, mt: np.ndarray, mask: np.ndarray) -> int:
    """``RandomBot.choose``: ``rng.choice(legal_actions(view))``."""
    return nth_legal(mask, mt_below(mt, legal_mask(s, mask)))


@rule
def greedy_choice(
    s: np.ndarray,
    opt: np.ndarray,
    mt: np.ndarray,
    feed_weight: float,
    end_round_threshold: int,
    mask: np.ndarray,
    scores: np.ndarray,
    iw: np.ndarray,
    fw: np.ndarray,
) -> int:
    """``GreedyBot.choose``: ``rng.choice`` among the best-scored legal actions.

    ``mask`` is left holding those actions (``GreedyBot.best_actions``).
    """
    greedy_scores(s, opt, feed_weight, end_round_threshold, mask, scores, iw, fw)
    top = -np.inf
    for a in range(NUM_ACTIONS):
        if mask[a] and scores[a] > top:
            top = scores[a]
    ties = 0
    for a in range(NUM_ACTIONS):
        if mask[a]:
            if scores[a] >= top - TIE_TOLERANCE:
                ties += 1
            else:
                mask[a] = 0
    return nth_legal(mask, mt_below(mt, ties))


@rule
def bot_choice(
    s: np.ndarray,
    opt: np.ndarray,
    kind: int,
    mt: np.ndarray,
    feed_weight: float,
    end_round_threshold: int,
    mask: np.ndarray,
    scores: np.ndarray,
    iw: np.ndarray,
    fw: np.ndarray,
) -> int:
    """The choice of the batch bot ``kind`` (``RANDOM`` or ``GREEDY``)."""
    if kind == GREEDY:
        return greedy_choice(s, opt, mt, feed_weight, end_round_threshold, mask, scores, iw, fw)
    return random_choice(s, mt, mask)
