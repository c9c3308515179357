"""The vector environment on the batch simulator plays the games of ``CuckooEnv``.

:class:`~cuckoo_rules.envs.vector.BatchCuckooEnv` steps ``num_envs`` games at once, the
opponents playing inside the batch kernels; sub-environment ``i`` plays exactly what a
``CuckooEnv`` reset with seed ``s + i`` plays, step for step.
"""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any

import pytest

pytest.importorskip("numba")
pytest.importorskip("gymnasium")

import numpy as np

import cuckoo_rules as cr
from cuckoo_rules.bots import derive_seed
from cuckoo_rules.envs.vector import BatchCuckooEnv


@pytest.mark.parametrize(
    ("players", "opponents", "seat"),
    [(2, "greedy", 0), (4, "greedy", 1), (3, ["random", "greedy"], 2), (5, "random", 0)],
)
def test_the_vector_env_plays_the_games_of_cuckooenv(
    players: int, opponents: str | list[str], seat: int
) -> None:
    from cuckoo_rules.envs.gymnasium import CuckooEnv

    size = 4
    vector = BatchCuckooEnv(num_envs=size, num_players=players, opponents=opponents, seat=seat)
    singles = [CuckooEnv(num_players=players, opponents=opponents, seat=seat) for _ in range(size)]
    observations, infos = vector.reset(seed=100)
    expected = [env.reset(seed=100 + i) for i, env in enumerate(singles)]
    deals = [0] * size
    rng = random.Random(players)
    ended = 0
    for _ in range(250):
        for i, (observation, info) in enumerate(expected):
            assert np.array_equal(observations[i], observation)
            assert np.array_equal(infos["action_mask"][i], info["action_mask"].astype(bool))
        assert np.array_equal(vector.action_masks(), infos["action_mask"])
        actions = np.array([rng.choice(np.flatnonzero(m).tolist()) for m in infos["action_mask"]])
        observations, rewards, terminated, truncated, infos = vector.step(actions)
        assert not truncated.any()
        for i, env in enumerate(singles):
            observation, reward, done, _, info = env.step(int(actions[i]))
            assert (reward, done) == (rewards[i], terminated[i])
            if done:
                ended += 1
                assert infos["_final_obs"][i]
                assert infos["_winners"][i]
                assert np.array_equal(infos["final_obs"][i], observation)
                assert np.flatnonzero(infos["winners"][i]).tolist() == info["winners"]
                deals[i] += 1
                observation, info = env.reset(seed=derive_seed(100 + i, 2, deals[i]))
            expected[i] = (observation, info)
    assert ended >= 4


def test_the_vector_env_truncates_at_max_turns_and_deals_again() -> None:
    env = BatchCuckooEnv(num_envs=3, num_players=2, opponents="random", max_turns=5)
    _, infos = env.reset(seed=[1, 2, 3])
    truncations = 0
    for _ in range(20):
        _, rewards, terminated, truncated, infos = env.step(infos["action_mask"].argmax(axis=1))
        assert not terminated.any()
        assert not rewards.any()
        truncations += int(truncated.sum())
        if truncated.any():
            assert infos["_final_obs"].tolist() == truncated.tolist()
        assert (env.games.turns <= 5).all()
    assert truncations >= 3


def test_make_vec_builds_the_vector_env() -> None:
    import gymnasium

    import cuckoo_rules.envs.gymnasium

    env = gymnasium.make_vec(
        cuckoo_rules.envs.gymnasium.ENV_ID,
        num_envs=5,
        vectorization_mode="vector_entry_point",
        num_players=3,
        opponents="greedy",
    )
    assert isinstance(env, BatchCuckooEnv)
    observations, _ = env.reset(seed=0)
    assert observations.shape == (5, 179)
    assert env.observation_space.contains(observations)
    assert env.action_space.shape == (5,)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"num_envs": 0}, "num_envs: expected a positive integer"),
        ({"num_players": 6}, "num_players: 6 is not in 2..5"),
        ({"seat": 2}, "seat: 2 is not a seat of a 2-player game"),
        ({"opponents": ["random", "greedy"]}, "opponents: expected one bot spec"),
        ({"opponents": "ismcts"}, "'ismcts' cannot play inside the batch"),
        ({"max_turns": 0}, "max_turns: expected None or an integer >= 1"),
        ({"options": cr.GameOptions(num_players=3), "num_players": 2}, "disagrees"),
    ],
)
def test_the_vector_env_refuses_bad_arguments(arguments: dict[str, Any], message: str) -> None:
    with pytest.raises(cr.InvalidOptionsError, match=message):
        BatchCuckooEnv(**arguments)


def test_the_vector_env_needs_a_reset_and_refuses_illegal_actions() -> None:
    import gymnasium

    env = BatchCuckooEnv(num_envs=2, num_players=2)
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.action_masks()
    _, infos = env.reset(seed=4)
    before = [env.games.state(i) for i in range(2)]
    with pytest.raises(cr.IllegalActionError, match="game 1"):
        env.step([int(infos["action_mask"][0].argmax()), 64])
    assert [env.games.state(i) for i in range(2)] == before
    with pytest.raises(cr.InvalidOptionsError, match="seed: expected one seed per"):
        env.reset(seed=[1, 2, 3])


def test_the_old_path_still_gives_the_vector_env_and_warns() -> None:
    code = (
        "import warnings\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    from cuckoo_rules.batch.gymnasium import BatchCuckooEnv\n"
        "from cuckoo_rules.envs.vector import BatchCuckooEnv as New\n"
        "print(BatchCuckooEnv is New, [str(w.message) for w in caught])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.startswith("True ['cuckoo_rules.batch.gymnasium is deprecated")
