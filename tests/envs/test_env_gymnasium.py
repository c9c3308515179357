"""Tests of the Gymnasium adapter: ``check_env``, registration, the learner against bots,
illegal actions, rewards, determinism, rendering and errors."""

from __future__ import annotations

import importlib
import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.error import ResetNeeded
from gymnasium.utils.env_checker import check_env

import cuckoo_rules as cr
from cuckoo_rules.board import render_view
from cuckoo_rules.bots import derive_seed
from cuckoo_rules.envs import gymnasium as cg
from cuckoo_rules.envs.gymnasium import ENV_ID, CuckooEnv

PLAYERS = (2, 3, 4, 5)


def checked(env: Any) -> list[str]:
    """Run ``check_env`` on ``env``; return the warnings it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env)
    return [str(w.message) for w in caught]


Step = tuple[list[float], float, bool, bool, list[int], int | None]


def run_episode(env: Any, seed: int | None, policy_seed: int = 0) -> list[Step]:
    """Reset with ``seed`` and play masked random actions to the end; return every step."""
    rng = np.random.default_rng(policy_seed)
    obs, info = env.reset(seed=seed)
    steps: list[Step] = [(obs.tolist(), 0.0, False, False, info["action_mask"].tolist(), None)]
    done = False
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        steps.append(
            (obs.tolist(), reward, terminated, truncated, info["action_mask"].tolist(), action)
        )
        done = terminated or truncated
    return steps


# --------------------------------------------------------------------------- conformance


@pytest.mark.parametrize("players", PLAYERS)
def test_check_env_on_the_raw_env_passes_without_warnings(players: int) -> None:
    made = gymnasium.make(ENV_ID, num_players=players, render_mode="ansi")
    # The unwrapped environment of gymnasium.make has a spec, so every check runs.
    assert checked(made.unwrapped) == []


def test_check_env_of_the_default_settings(capsys: pytest.CaptureFixture[str]) -> None:
    # Built directly it has no spec: check_env says it cannot try the other render modes.
    messages = checked(CuckooEnv())
    assert len(messages) == 1
    assert "Not able to test alternative render modes" in messages[0]
    # Through gymnasium.make: the one warning is that wrappers are present.
    messages = checked(gymnasium.make(ENV_ID))
    assert len(messages) == 1
    assert "is different from the unwrapped version" in messages[0]
    assert "row 0:" in capsys.readouterr().out  # the "human" render mode printed


def test_registration_and_reimport() -> None:
    assert ENV_ID == "cuckoo_rules/CuBirds-v0"
    assert gymnasium.spec(ENV_ID).entry_point == "cuckoo_rules.envs.gymnasium:CuckooEnv"
    importlib.reload(cg)  # registering twice is harmless
    env = gymnasium.make("cuckoo_rules.envs.gymnasium:cuckoo_rules/CuBirds-v0", num_players=3)
    assert isinstance(env.unwrapped, cg.CuckooEnv)
    assert env.observation_space.shape == (cr.observation.observation_size(3),)


def test_spaces() -> None:
    env = CuckooEnv(num_players=4)
    assert env.observation_space.shape == (cr.observation.observation_size(4),)
    assert env.observation_space.dtype == np.float32
    assert float(env.observation_space.low.min()) == 0
    assert float(env.observation_space.high.max()) == cr.cards.DECK_SIZE
    assert env.action_space.n == cr.NUM_DISTINCT_ACTIONS
    assert env.metadata["render_modes"] == ["ansi", "human"]


# --------------------------------------------------------------------------- the engine


@pytest.mark.parametrize("players", PLAYERS)
def test_observation_mask_and_reward_follow_the_engine(players: int) -> None:
    seat = players - 1
    env = CuckooEnv(num_players=players, seat=seat, opponents="random")
    rng = np.random.default_rng(players)
    obs, info = env.reset(seed=players)
    terminated = truncated = False
    reward = 0.0
    while not (terminated or truncated):
        state = env.game_state
        assert state.current_player == seat  # the bots have played up to the learner's turn
        view = cr.observe(state, seat)
        assert obs.dtype == np.float32
        assert obs.tolist() == list(cr.observation.encode_observation(view))
        assert info["action_mask"].dtype == np.int8
        assert info["action_mask"].tolist() == [int(b) for b in cr.legal_action_mask(view)]
        assert env.action_masks().tolist() == list(cr.legal_action_mask(view))
        assert reward == 0
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
    assert terminated
    assert not truncated
    state = env.game_state
    assert state.is_over
    assert obs.tolist() == list(cr.observation.encode_observation(cr.observe(state, seat)))
    assert not info["action_mask"].any()
    assert not env.action_masks().any()
    assert info["winners"] == list(state.winners)
    assert reward == (1 / len(state.winners) if seat in state.winners else 0)


def test_opponents_are_the_seeded_bots_of_their_specs() -> None:
    # Replay the episode with the engine and the bots the documentation promises.
    options = cr.GameOptions(num_players=3)
    env = CuckooEnv(options=options, seat=1, opponents=["greedy", "random"])
    assert [spec.kind if spec else None for spec in env.opponents] == ["random", None, "greedy"]
    steps = run_episode(env, seed=21)
    learner = iter([action for *_, action in steps[1:] if action is not None])
    bots = {
        0: cr.bots.make_bot("random", derive_seed(21, 1, 0)),
        2: cr.bots.make_bot("greedy", derive_seed(21, 1, 2)),
    }
    state = cr.new_game(options, 21)
    bot_moves = 0
    while not state.is_over:
        seat = state.current_player
        if seat == 1:
            action = cr.action_from_id(next(learner))
        else:
            action = bots[seat].choose(cr.observe(state, seat))
            bot_moves += 1
        state = cr.apply(state, action)
    assert state == env.game_state
    assert bot_moves > 10
    assert next(learner, None) is None


def test_a_learner_win_is_rewarded() -> None:
    # The learner plays greedily itself, so that it wins some games against random bots.
    rewards = []
    for seed in range(6):
        env = CuckooEnv(num_players=2, opponents="random")
        me = cr.bots.make_bot("greedy", seed)
        env.reset(seed=seed)
        reward: float = 0.0
        terminated = truncated = False
        while not (terminated or truncated):
            action = cr.action_id(me.choose(cr.observe(env.game_state, 0)))
            _, reward, terminated, truncated, _ = env.step(action)
        winners = env.game_state.winners
        assert reward == (1 / len(winners) if 0 in winners else 0)
        rewards.append(reward)
    assert max(rewards) > 0


# --------------------------------------------------------------------------- illegal actions


def illegal_id(info: dict[str, Any]) -> int:
    return int(np.flatnonzero(info["action_mask"] == 0)[0])


def test_penalize_ends_the_episode_with_the_penalty_and_leaves_the_game() -> None:
    env = CuckooEnv(num_players=3, illegal_reward=-2)
    obs, info = env.reset(seed=3)
    before = env.game_state
    obs2, reward, terminated, truncated, info2 = env.step(illegal_id(info))
    assert (reward, terminated, truncated, info2["illegal_action"]) == (-2.0, True, False, True)
    assert env.game_state == before
    assert obs2.tolist() == obs.tolist()
    assert not info2["action_mask"].any()
    with pytest.raises(ResetNeeded, match="call reset"):
        env.step(0)
    env.reset(seed=3)
    assert env.game_state == before


def test_raise_mode_raises_a_clear_error_and_changes_nothing() -> None:
    env = CuckooEnv(num_players=2, illegal_action="raise")
    _, info = env.reset(seed=4)
    before = env.game_state
    bad = illegal_id(info)
    with pytest.raises(cr.IllegalActionError, match=rf"seat 0\) cannot play action {bad} \("):
        env.step(bad)
    assert env.game_state == before
    env.step(int(np.flatnonzero(info["action_mask"])[0]))  # the episode goes on
    assert env.game_state != before


@pytest.mark.parametrize("mode", ["penalize", "raise"])
def test_non_ids_always_raise(mode: str) -> None:
    env = CuckooEnv(num_players=2, illegal_action=mode)
    env.reset(seed=4)
    for bad in (74, -1, 2.0, None, True, np.array([1, 2])):
        with pytest.raises(cr.IllegalActionError, match="is not an action id"):
            env.step(bad)  # type: ignore[arg-type]
    _, info = env.reset(seed=4)
    legal = int(np.flatnonzero(info["action_mask"])[0])
    env.step(np.int64(legal))  # NumPy integers, as sampled from the space, are fine


# --------------------------------------------------------------------------- determinism


def test_same_seed_same_episode_and_different_seeds_differ() -> None:
    first = run_episode(CuckooEnv(num_players=3), seed=17)
    assert run_episode(CuckooEnv(num_players=3), seed=17) == first
    assert run_episode(CuckooEnv(num_players=3), seed=18) != first


def test_reset_seed_deals_new_game_and_unseeded_resets_are_reproducible() -> None:
    options = cr.GameOptions(num_players=2, initial_row_length=4)

    def deals() -> list[int]:
        env = CuckooEnv(options=options, opponents="random")
        env.reset(seed=77)
        assert env.game_state.seed == 77
        out = []
        for _ in range(3):
            env.reset()
            out.append(env.game_state.seed)
        return out

    first = deals()
    assert deals() == first
    assert len(set(first)) == 3
    env = CuckooEnv(options=options)
    env.reset(seed=5)
    start = cr.new_game(options, 5)
    assert env.game_state.seed == 5
    assert env.game_state.collections == start.collections


# --------------------------------------------------------------------------- truncation


def test_max_turns_truncates() -> None:
    env = CuckooEnv(num_players=3, opponents="random", max_turns=4)
    steps = run_episode(env, seed=2)
    *_, (_, reward, terminated, truncated, mask, _) = steps
    assert (reward, terminated, truncated) == (0.0, False, True)
    assert not any(mask)
    assert env.game_state.turn == 5
    assert not env.game_state.is_over
    with pytest.raises(ResetNeeded):
        env.step(0)


# --------------------------------------------------------------------------- rendering


def test_render_ansi_is_the_learner_s_screen() -> None:
    env = CuckooEnv(num_players=3, seat=1, render_mode="ansi")
    env.reset(seed=9)
    text = env.render()
    assert isinstance(text, str)
    lines = text.splitlines()
    assert lines[0] == "View of player_1 (seat 1)"
    assert lines[1:] == render_view(cr.observe(env.game_state, 1))
    for row in range(4):
        assert f"row {row}:" in text
    assert "Your hand (" in text


def test_render_human_prints_and_no_mode_warns(capsys: pytest.CaptureFixture[str]) -> None:
    env = CuckooEnv(render_mode="human")
    env.reset(seed=1)
    assert env.render() is None
    assert "row 3:" in capsys.readouterr().out
    quiet = CuckooEnv()
    quiet.reset(seed=1)
    with pytest.warns(UserWarning, match="without a render mode"):
        assert quiet.render() is None
    quiet.close()
    quiet.close()


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"num_players": 6}, cr.InvalidOptionsError, "num_players: 6 is not in 2..5"),
        (
            {"num_players": 2, "options": cr.GameOptions(num_players=3)},
            cr.InvalidOptionsError,
            "disagrees",
        ),
        ({"seat": 2}, cr.InvalidOptionsError, "seat: 2 is not a seat of a 2-player game"),
        ({"seat": -1}, cr.InvalidOptionsError, "seat: -1"),
        ({"opponents": []}, cr.InvalidOptionsError, "expected one bot spec .* got 0"),
        (
            {"num_players": 4, "opponents": ["greedy", "random"]},
            cr.InvalidOptionsError,
            "or 3 \\(one per other seat\\), got 2",
        ),
        ({"opponents": [3]}, cr.InvalidOptionsError, "expected bot specs"),
        ({"opponents": "genius"}, cr.bots.BotSpecError, "genius"),
        ({"illegal_action": "ignore"}, cr.InvalidOptionsError, "illegal_action: 'ignore'"),
        ({"illegal_reward": "low"}, cr.InvalidOptionsError, "illegal_reward"),
        ({"render_mode": "rgb_array"}, cr.InvalidOptionsError, "render_mode"),
        ({"max_turns": -3}, cr.InvalidOptionsError, "max_turns"),
    ],
)
def test_bad_arguments_raise_clear_errors(
    kwargs: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        CuckooEnv(**kwargs)


def test_use_before_reset_and_bad_seeds() -> None:
    env = CuckooEnv()
    with pytest.raises(ResetNeeded):
        env.step(0)
    with pytest.raises(ResetNeeded):
        _ = env.game_state
    for seed in (-1, 2**64):
        with pytest.raises(cr.InvalidOptionsError, match="seed"):
            env.reset(seed=seed)
