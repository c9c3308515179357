"""The kernels' fast paths play the games the engine plays.

:meth:`BatchGame.random_playouts` chooses without writing a mask (it counts the legal
actions, draws one and finds it), and the rules' small functions are inlined into the
kernels without reference counting. These tests replay ``random_playouts`` in the engine,
choice for choice, and check the count-then-pick functions against the masks.
"""

from __future__ import annotations

import pytest

pytest.importorskip("numba")

import numpy as np

import cuckoo_rules as cr
from cuckoo_rules.batch import BatchGame
from cuckoo_rules.batch._layout import NUM_ACTIONS, PHASE
from cuckoo_rules.batch._rules import legal_count, legal_mask, nth_legal_action
from cuckoo_rules.rng import splitmix64, stream_state


def engine_playouts(
    options: cr.GameOptions, seeds: list[int], steps: int, rng_seed: int
) -> list[cr.GameState]:
    """``random_playouts(steps, rng_seed)`` on a new batch of ``seeds``, in the engine."""
    finals = []
    for b, seed in enumerate(seeds):
        state = cr.new_game(options, seed)
        generator = stream_state(rng_seed, b)
        for _ in range(steps):
            if state.is_over:
                generator, seed = splitmix64(generator)
                state = cr.new_game(options, seed)
            actions = cr.legal_actions(state)
            generator, out = splitmix64(generator)
            state = cr.apply(state, actions[out % len(actions)])
        finals.append(state)
    return finals


@pytest.mark.parametrize(
    "options",
    [
        cr.GameOptions(num_players=2),
        cr.GameOptions(num_players=4),
        cr.GameOptions(num_players=5, round_end_timing="immediate", always_prompt_flock=True),
        cr.GameOptions(num_players=3, refill_trigger="same_species_lay"),
    ],
    ids=["2p", "4p", "5p-immediate-flock", "3p-refill"],
)
def test_random_playouts_play_the_engines_games(options: cr.GameOptions) -> None:
    seeds = [3, 17, 2**63 + 5, 1234]
    games = BatchGame(options, seeds)
    steps, rng_seed = 300, 99  # long enough for games to end and be dealt again
    decisions = games.random_playouts(steps, rng_seed)
    assert decisions == steps * len(seeds)
    for b, state in enumerate(engine_playouts(options, seeds, steps, rng_seed)):
        assert games.state(b) == state, f"game {b}"


def test_count_then_pick_lists_the_mask_in_order() -> None:
    games = BatchGame(cr.GameOptions(num_players=4), range(16), auto_reset=True)
    rng = np.random.default_rng(5)
    mask = np.zeros(NUM_ACTIONS, dtype=np.uint8)
    seen_phases = set()
    for _ in range(200):
        for row in games._states:
            count = legal_mask(row, mask)
            assert legal_count(row) == count
            listed = [nth_legal_action(row, k) for k in range(count)]
            assert listed == np.flatnonzero(mask).tolist()
            seen_phases.add(int(row[PHASE]))
        masks = games.legal_action_mask()
        games.step(np.where(masks, rng.random(masks.shape), -1.0).argmax(axis=1))
    assert len(seen_phases) >= 3  # lay, draw and flock all met


@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_kernels_greedy_scores_are_the_bots_to_the_last_bit(players: int) -> None:
    from cuckoo_rules.batch._drivers import scratch
    from cuckoo_rules.batch._greedy import greedy_scores
    from cuckoo_rules.bots import GreedyBot

    games = BatchGame(cr.GameOptions(num_players=players), range(12), auto_reset=True)
    bot = GreedyBot(feed_weight=1.5, end_round_threshold=2)
    masks, scores, ints, floats = scratch(1)
    rng = np.random.default_rng(players)
    compared = 0
    for _ in range(40):
        for i in range(len(games)):
            state = games.state(i)
            expected = bot.scores(cr.observe(state, state.current_player))
            greedy_scores(
                games._states[i], games._opt, 1.5, 2, masks[0], scores[0], ints[0], floats[0]
            )
            for action, score in expected:
                assert scores[0, cr.action_id(action)] == score, (i, action)
            compared += len(expected)
        masks_now = games.legal_action_mask()
        games.step(np.where(masks_now, rng.random(masks_now.shape), -1.0).argmax(axis=1))
    assert compared > 1000
