"""The expert's simulations: determinized deals and greedy rollouts, on every core.

:class:`~cuckoo_rules.bots.expert.ExpertBot` deals the hidden cards of its view many
times (:func:`determinize_rows`, ``determinize`` on rows) and plays each candidate action
on from each deal with greedy rollouts (:func:`search_rollouts`), through the public
:mod:`cuckoo_rules.batch.search`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._greedy_weights import DEFAULT_END_ROUND_THRESHOLD, DEFAULT_FEED_WEIGHT, TIE_TOLERANCE
from ._greedy import (
    F_EVAL_ONE,
    F_EVAL_TWO,
    collection_value,
    greedy_scores,
    hand_value,
    potential_rows,
)
from ._jit import get_thread_id, jit, pjit_each, prange
from ._layout import (
    COLLECTIONS,
    CURRENT,
    DISCARD,
    DRAW_CARDS,
    DRAW_END,
    DRAW_POS,
    HANDS,
    MAX_PLAYERS,
    NUM_ACTIONS,
    NUM_SPECIES,
    O_PLAYERS,
    OVER,
    PHASE,
    SHUFFLES,
    SMALL,
    TURN,
    WINNERS,
)
from ._random import shuffle_cards, splitmix_output, splitmix_state, stream_state
from ._rules import apply_action

__all__ = [
    "determinize_into",
    "determinize_rows",
    "evaluate_seat",
    "fill_piles",
    "rollout_choice",
    "search_rollouts",
]


@jit
def rollout_choice(
    s: np.ndarray, opt: np.ndarray, rng: np.uint64, mask: np.ndarray, scores: Any, iw: Any, fw: Any
) -> tuple[int, np.uint64]:
    """The greedy bot's choice (default parameters), ties broken by SplitMix64 ``rng``.

    The expert's rollout policy: the same scores as
    :func:`~cuckoo_rules.batch._greedy.greedy_choice`, without a Mersenne Twister to seed
    for every rollout. Returns the action and the new state.
    """
    greedy_scores(s, opt, DEFAULT_FEED_WEIGHT, DEFAULT_END_ROUND_THRESHOLD, mask, scores, iw, fw)
    top = -np.inf
    ties = 0
    for a in range(NUM_ACTIONS):
        if mask[a]:
            if scores[a] > top + TIE_TOLERANCE:
                top = scores[a]
                ties = 1
            elif scores[a] >= top - TIE_TOLERANCE:
                ties += 1
    pick = np.int64(0)
    if ties > 1:
        rng = splitmix_state(rng)
        pick = np.int64(splitmix_output(rng) % np.uint64(ties))
    for a in range(NUM_ACTIONS):
        if mask[a] and scores[a] >= top - TIE_TOLERANCE:
            if pick == 0:
                return a, rng
            pick -= 1
    return -1, rng


@jit
def evaluate_seat(s: np.ndarray, opt: np.ndarray, seat: int, weights: np.ndarray, fw: Any) -> float:
    """``seat``'s reward: its share of the victory, or its estimated chance of winning.

    In a game stopped before its end, the chance is a softmax over the seats of
    ``weights . (collection value, hand value, hand size, to act)``
    (``bots.expert.value_features``); weights ``(1/T, 1/T, 0, 0)`` give ``IsmctsBot``'s
    evaluation at temperature ``T``.
    """
    n = opt[O_PLAYERS]
    if s[PHASE] == OVER:
        winners = 0
        for p in range(n):
            winners += (s[WINNERS] >> p) & 1
        return float((s[WINNERS] >> seat) & 1) / max(winners, 1)
    one = fw[F_EVAL_ONE : F_EVAL_ONE + NUM_SPECIES]
    two = fw[F_EVAL_TWO : F_EVAL_TWO + NUM_SPECIES]
    values = np.empty(MAX_PLAYERS)
    for p in range(n):
        c = s[COLLECTIONS + p * NUM_SPECIES : COLLECTIONS + (p + 1) * NUM_SPECIES].astype(np.int64)
        potential_rows(c, one, two)
        hand = s[HANDS + p * NUM_SPECIES : HANDS + (p + 1) * NUM_SPECIES]
        size = 0
        for i in range(NUM_SPECIES):
            size += hand[i]
        values[p] = (
            weights[0] * collection_value(c)
            + weights[1] * hand_value(hand, one, two)
            + weights[2] * size
            + weights[3] * (p == s[CURRENT])
        )
    top = values[0]
    for p in range(1, n):
        top = max(top, values[p])
    total = 0.0
    for p in range(n):
        total += np.exp(values[p] - top)
    return float(np.exp(values[seat] - top) / total)


@pjit_each
def search_rollouts(
    roots: np.ndarray,
    root_seeds: np.ndarray,
    opt: np.ndarray,
    candidates: np.ndarray,
    pairs: np.ndarray,
    seat: int,
    turns: int,
    weights: np.ndarray,
    rng_seed: np.uint64,
    work: Any,
    rewards: np.ndarray,
) -> None:
    """Evaluate candidate actions in determinized games: one rollout per pair.

    Pair ``k`` is ``(d, c)``: game ``roots[d]`` (a determinization, with its seed
    ``root_seeds[d]``), in which ``candidates[c]`` is played and then every seat plays
    :func:`rollout_choice` for ``turns`` more turns (``-1``: to the end of the game).
    ``rewards[k]`` is ``seat``'s reward (:func:`evaluate_seat`). The rollouts of one
    determinization share their tie-breaking stream, so candidates are compared on the
    same luck.
    """
    masks, scores, iw, fw = work
    for k in prange(pairs.shape[0]):
        tid = get_thread_id()
        d = pairs[k, 0]
        s = roots[d].copy()
        seed = root_seeds[d]
        apply_action(s, seed, opt, candidates[pairs[k, 1]])
        rng = stream_state(rng_seed, d)
        stop = s[TURN] + turns
        while s[PHASE] != OVER and (turns < 0 or s[TURN] < stop):
            a, rng = rollout_choice(s, opt, rng, masks[tid], scores[tid], iw[tid], fw[tid])
            apply_action(s, seed, opt, a)
        rewards[k] = evaluate_seat(s, opt, seat, weights, fw[tid])


@jit
def determinize_into(
    s: np.ndarray,
    template: np.ndarray,
    pool: np.ndarray,
    cards: np.ndarray,
    deal: Any,
    seed: np.uint64,
) -> int:
    """``determinize`` of one view into row ``s``, for the paths without a fallback.

    ``template`` is the view's row (public parts, the viewer's hand and the known parts
    of the other hands); ``pool`` the cards to deal, in species order, and ``cards`` a
    scratch array as long. ``deal`` is ``(hidden, seats, limits, known_discards, flags)``:
    each seat's hidden cards, the seats to deal in order (``-1`` ends the list), their
    limits (``n x NUM_SPECIES``), the known discards and the integers ``flags = (within,
    need_flock, current, draw_size, max_draws)``: ``within`` selects the rejection path of
    ``_determinize_within`` (knowledge, or a flock to draw), else the plain shuffle of
    ``determinize``. Returns the ``shuffles`` of the state, or ``-1`` when every draw of
    the rejection path failed (the caller then asks ``determinize`` itself, whose
    card-by-card fallback is not in the kernels).
    """
    hidden, seats, limits, known_discards, flags = deal
    within = flags[0]
    need_flock = flags[1]
    current = flags[2]
    draw_size = flags[3]
    max_draws = flags[4]
    size = pool.shape[0]
    n = hidden.shape[0]
    for i in range(s.shape[0]):
        s[i] = template[i]
    if not within:  # determinize: shuffle, deal the hands in seat order, then the piles
        for i in range(size):
            cards[i] = pool[i]
        shuffle_cards(cards, 0, size, stream_state(seed, 0))
        pos = 0
        for p in range(n):
            for _ in range(hidden[p]):
                s[HANDS + p * NUM_SPECIES + cards[pos]] += 1
                pos += 1
        fill_piles(s, cards, pos, draw_size, size, known_discards)
        return 1
    dealt = 0
    for p in range(n):
        dealt += hidden[p]
    kept = size - dealt
    for stream in range(max_draws):
        for i in range(size):
            cards[i] = pool[i]
        state = stream_state(seed, stream)
        top = size - 1
        good = True
        for k in range(n):
            p = seats[k]
            if p < 0:
                break
            base = HANDS + p * NUM_SPECIES
            for i in range(NUM_SPECIES):
                s[base + i] = template[base + i]
            for i in range(top, top - hidden[p], -1):
                if i:
                    state = splitmix_state(state)
                    j = np.int64(splitmix_output(state) % np.uint64(i + 1))
                    a = cards[i]
                    cards[i] = cards[j]
                    cards[j] = a
                c = cards[i]
                s[base + c] += 1
                if s[base + c] - template[base + c] > limits[p, c]:
                    good = False
                    break
            if not good:
                break
            top -= hidden[p]
            if need_flock and p == current:
                flock = False
                for i in range(NUM_SPECIES):
                    if s[base + i] >= SMALL[i]:
                        flock = True
                if not flock:
                    good = False
                    break
        if good:
            shuffle_cards(cards, 0, top + 1, state)  # continue_shuffle down from top
            fill_piles(s, cards, 0, draw_size, kept, known_discards)
            return stream + 1
    return -1


@jit
def fill_piles(
    s: np.ndarray,
    cards: np.ndarray,
    pos: int,
    draw_size: int,
    end: int,
    known_discards: np.ndarray,
) -> None:
    """``_determinized``: the draw pile from ``cards[pos:]``, the rest to the discards."""
    for j in range(draw_size):
        s[DRAW_CARDS + j] = cards[pos + j]
    s[DRAW_POS] = 0
    s[DRAW_END] = draw_size
    for i in range(NUM_SPECIES):
        s[DISCARD + i] = known_discards[i]
    for j in range(pos + draw_size, end):
        s[DISCARD + cards[j]] += 1


@pjit_each
def determinize_rows(
    rows: np.ndarray,
    seeds: np.ndarray,
    shuffles: np.ndarray,
    template: np.ndarray,
    pool: np.ndarray,
    deal: Any,
) -> None:
    """:func:`determinize_into` for every seed: ``rows[d]`` and ``shuffles[d]``."""
    for d in prange(rows.shape[0]):
        cards = np.empty_like(pool)
        shuffles[d] = determinize_into(rows[d], template, pool, cards, deal, seeds[d])
        if shuffles[d] > 0:
            rows[d, SHUFFLES] = shuffles[d]
