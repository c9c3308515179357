"""The kernels on a batch: the functions on one game's row, over every game with ``prange``.

These are what :class:`~cuckoo_rules.batch.BatchGame` calls: deal, mask, step, observe,
let the batched bots play, and a vector environment's whole step in one pass.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._greedy import SCRATCH_FLOATS, SCRATCH_INTS, bot_choice
from ._jit import get_thread_id, jit, pjit, prange
from ._layout import CURRENT, HUMAN, NUM_ACTIONS, O_PLAYERS, OVER, PHASE, TURN, WINNERS
from ._observe import observe_into
from ._random import derive_seed2, mt_seed, splitmix_output, splitmix_state, stream_state
from ._rules import (
    apply_action,
    is_legal,
    legal_count,
    legal_mask,
    new_game,
    nth_legal_action,
    rule,
)

__all__ = [
    "apply_actions",
    "env_steps",
    "first_illegal",
    "legal_masks",
    "new_games",
    "observe_all",
    "play_bots",
    "random_playouts",
    "reset_games",
    "scratch",
]


@pjit
def new_games(states: np.ndarray, seeds: np.ndarray, opt: np.ndarray) -> None:
    """:func:`~._rules.new_game` in every row."""
    for b in prange(states.shape[0]):
        new_game(states[b], seeds[b], opt)


@pjit
def legal_masks(states: np.ndarray, masks: np.ndarray) -> None:
    """The legal-action mask of every game."""
    for b in prange(states.shape[0]):
        legal_mask(states[b], masks[b])


@jit
def first_illegal(states: np.ndarray, actions: np.ndarray) -> int:
    """The first game whose action is illegal (games that are over ignore theirs), or -1."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.uint8)
    for b in range(states.shape[0]):
        if states[b, PHASE] != OVER and not is_legal(states[b], actions[b], mask):
            return b
    return -1


@pjit
def apply_actions(
    states: np.ndarray, seeds: np.ndarray, opt: np.ndarray, actions: np.ndarray
) -> None:
    """Play ``actions[b]`` in every game ``b`` that is not over."""
    for b in prange(states.shape[0]):
        if states[b, PHASE] != OVER:
            apply_action(states[b], seeds[b], opt, actions[b])


@pjit
def observe_all(states: np.ndarray, opt: np.ndarray, viewers: np.ndarray, out: np.ndarray) -> None:
    """The observation of every game: ``viewers[b]``'s, or the acting seat's where negative."""
    for b in prange(states.shape[0]):
        viewer = states[b, CURRENT] if viewers[b] < 0 else viewers[b]
        observe_into(states[b], opt, viewer, out[b])


@jit
def reset_game(
    s: np.ndarray,
    b: int | np.int64,
    seeds: np.ndarray,
    base_seeds: np.ndarray,
    deals: np.ndarray,
    opt: np.ndarray,
    kinds: np.ndarray,
    mts: np.ndarray,
) -> None:
    """Deal game slot ``b`` its next game.

    Deal ``k`` (from 0) of a slot whose first seed is ``base`` has the seed ``base`` for
    ``k == 0`` and ``derive_seed(base, 2, k)`` after; the bot of seat ``p`` gets
    ``random.Random(derive_seed(seed, 1, p))``.
    """
    k = deals[b]
    deals[b] = k + 1
    seed = base_seeds[b] if k == 0 else derive_seed2(base_seeds[b], 2, k)
    seeds[b] = seed
    new_game(s, seed, opt)
    for p in range(opt[O_PLAYERS]):
        if kinds[p] != HUMAN:
            mt_seed(mts[b, p], derive_seed2(seed, 1, p))


@pjit
def reset_games(
    states: np.ndarray,
    which: np.ndarray,
    seeds: np.ndarray,
    base_seeds: np.ndarray,
    deals: np.ndarray,
    opt: np.ndarray,
    kinds: np.ndarray,
    mts: np.ndarray,
) -> None:
    """Deal the next game of every slot ``b`` with ``which[b]`` (:func:`reset_game`).

    A slot whose ``deals`` count is 0 is dealt its first game, with its base seed.
    """
    for b in prange(states.shape[0]):
        if which[b]:
            reset_game(states[b], np.int64(b), seeds, base_seeds, deals, opt, kinds, mts)


def scratch(threads: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The bots' working space, one row per thread: masks, scores, ints, floats."""
    return (
        np.zeros((threads, NUM_ACTIONS), dtype=np.uint8),
        np.zeros((threads, NUM_ACTIONS)),
        np.zeros((threads, SCRATCH_INTS), dtype=np.int64),
        np.zeros((threads, SCRATCH_FLOATS)),
    )


@rule
def play_game_bots(
    s: np.ndarray, seed: np.uint64, opt: np.ndarray, b: int | np.int64, bots: Any, work: Any
) -> int:
    """Let the bots play game ``s`` (slot ``b``) until an outside seat is to act or it ends.

    Returns the bots' decisions. ``bots`` is ``(kinds, mts, feed_weights, thresholds)``,
    ``work`` the per-thread :func:`scratch`.
    """
    kinds, mts, feed_weights, thresholds = bots
    masks, scores, iw, fw = work
    tid = get_thread_id()
    decisions = 0
    while s[PHASE] != OVER and kinds[s[CURRENT]] != HUMAN:
        p = s[CURRENT]
        a = bot_choice(
            s, opt, kinds[p], mts[b, p], feed_weights[p], thresholds[p], masks[tid],
            scores[tid], iw[tid], fw[tid],
        )  # fmt: skip
        apply_action(s, seed, opt, a)
        decisions += 1
    return decisions


@pjit
def play_bots(
    states: np.ndarray,
    seeds: np.ndarray,
    opt: np.ndarray,
    bots: Any,
    work: Any,
    decisions: np.ndarray,
) -> None:
    """:func:`play_game_bots` in every game; ``decisions[b]`` counts the bots' decisions."""
    for b in prange(states.shape[0]):
        decisions[b] += play_game_bots(states[b], seeds[b], opt, np.int64(b), bots, work)


@pjit
def env_steps(
    states: np.ndarray,
    seeds: np.ndarray,
    slots: Any,
    opt: np.ndarray,
    bots: Any,
    work: Any,
    actions: np.ndarray,
    viewer: int,
    max_turns: int,
    deal: bool,
    out: Any,
) -> None:
    """One step of a vector environment, in one pass over the games (or its first deal).

    In each game: the action (games that are over ignore theirs), the bots' moves, then,
    if the game ended or passed ``max_turns`` (0: no limit), its outcome and last
    observation and a new deal (:func:`reset_game`, bots included); last, the
    observation of ``viewer`` and the mask. With ``deal``, every game is dealt its next
    game instead (the actions ignored, no game counted as ended), the bots play, and
    the observation and the mask follow: a vector environment's reset, with the code
    of its steps (no other kernel to compile). ``slots`` is ``(base_seeds, deals)``;
    ``out`` is ``(observations, masks, final_observations, ended, winners, decisions)``
    with ``ended`` 1 for a game over and 2 for one truncated. Every row of ``out`` is
    written (``final_observations`` is zeros in the rows of the games that go on), so
    its arrays need not be zeroed first.
    """
    base_seeds, deals = slots
    kinds = bots[0]
    mts = bots[1]
    observations, masks, final_observations, ended, winners, decisions = out
    for b in prange(states.shape[0]):
        s = states[b]
        count = 0
        ended[b] = 0
        winners[b] = 0
        if not deal and s[PHASE] != OVER:
            apply_action(s, seeds[b], opt, actions[b])
            count = 1 + play_game_bots(s, seeds[b], opt, np.int64(b), bots, work)
        if not deal and (s[PHASE] == OVER or (max_turns > 0 and s[TURN] > max_turns)):
            ended[b] = 1 if s[PHASE] == OVER else 2
            winners[b] = s[WINNERS]
            observe_into(s, opt, viewer, final_observations[b])
        else:
            final_observations[b, :] = 0
        if deal or ended[b]:
            reset_game(s, np.int64(b), seeds, base_seeds, deals, opt, kinds, mts)
            count += play_game_bots(s, seeds[b], opt, np.int64(b), bots, work)
        decisions[b] = count
        observe_into(s, opt, viewer, observations[b])
        legal_mask(s, masks[b])


@pjit
def random_playouts(
    states: np.ndarray,
    seeds: np.ndarray,
    opt: np.ndarray,
    steps: int,
    rng_seed: np.uint64,
    with_observations: bool,
    out: np.ndarray,
    decisions: np.ndarray,
) -> None:
    """Take ``steps`` uniform random legal actions in every game (benchmarks, soak runs).

    A step is a count of the legal actions, a choice among them and a step (the chosen
    action is the ``pick``-th of the mask, without writing the mask); a game that is over
    is dealt again, and the observations are computed after every step if asked.
    """
    for b in prange(states.shape[0]):
        s = states[b]
        seed = seeds[b]
        state = stream_state(rng_seed, b)
        taken = 0
        for _ in range(steps):
            if s[PHASE] == OVER:
                state = splitmix_state(state)
                seed = splitmix_output(state)
                seeds[b] = seed
                new_game(s, seed, opt)
            count = legal_count(s)
            state = splitmix_state(state)
            pick = int(np.int64(splitmix_output(state) % np.uint64(count)))
            apply_action(s, seed, opt, nth_legal_action(s, pick))
            taken += 1
            if with_observations:
                observe_into(s, opt, s[CURRENT], out[b])
        decisions[b] += taken
