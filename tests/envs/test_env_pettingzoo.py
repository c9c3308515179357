"""Tests of the PettingZoo AEC adapter: PettingZoo's own conformance tests, the
observations and masks against the engine, rewards, determinism, rendering and errors."""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test
from pettingzoo.utils import wrappers

import cuckoo_rules as cr
from cuckoo_rules.board import render_view
from cuckoo_rules.envs.pettingzoo import CuckooAECEnv, env, raw_env

PLAYERS = (2, 3, 4, 5)

# What PettingZoo's api_test says of every environment with dictionary observations
# that is not one of its own classic games (it whitelists those by name).
EXPECTED_API_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
}


def masked_random(rng: np.random.Generator) -> Callable[[dict[str, Any]], int]:
    """A policy choosing uniformly among the legal action ids of an observation."""

    def choose(observation: dict[str, Any]) -> int:
        return int(rng.choice(np.flatnonzero(observation["action_mask"])))

    return choose


def play(game: Any, seed: int, policy_seed: int = 0) -> Iterator[tuple[str, Any, int | None]]:
    """Reset ``game`` with ``seed`` and play it to the end with masked random actions.

    Yields ``(agent, last(), action)`` for every step, dead steps included.
    """
    choose = masked_random(np.random.default_rng(policy_seed))
    game.reset(seed=seed)
    for agent in game.agent_iter():
        last = game.last()
        observation, _, terminated, truncated, _ = last
        action = None if terminated or truncated else choose(observation)
        yield agent, last, action
        game.step(action)


def trajectory(game: Any, seed: int, policy_seed: int = 0) -> list[tuple[Any, ...]]:
    """Everything seen along a game, as comparable plain values."""
    out: list[tuple[Any, ...]] = []
    for agent, (obs, reward, term, trunc, info), action in play(game, seed, policy_seed):
        out.append(
            (agent, obs["observation"].tolist(), obs["action_mask"].tolist(), reward, term)
            + (trunc, repr(info), action)
        )
    return out


# --------------------------------------------------------------------------- conformance


@pytest.mark.parametrize("players", PLAYERS)
def test_pettingzoo_api_test(players: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(num_players=players), num_cycles=1000)
    assert {str(w.message) for w in caught} <= EXPECTED_API_WARNINGS


@pytest.mark.parametrize("players", PLAYERS)
def test_pettingzoo_api_test_of_the_raw_env_with_variants(players: int) -> None:
    options = cr.GameOptions(num_players=players, always_prompt_flock=True, initial_row_length=4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(raw_env(options=options), num_cycles=1000)


@pytest.mark.parametrize("players", PLAYERS)
def test_pettingzoo_seed_test(players: int) -> None:
    seed_test(lambda: env(num_players=players), num_cycles=1000)


@pytest.mark.parametrize("players", [2, 5])
def test_pettingzoo_render_test(players: int, capsys: pytest.CaptureFixture[str]) -> None:
    def make(render_mode: str | None = None) -> Any:
        return env(num_players=players, render_mode=render_mode)

    render_test(make, custom_tests={"ansi": lambda text: "row 3:" in text})
    assert "row 0:" in capsys.readouterr().out  # the "human" mode printed the screen


def test_metadata_agents_and_spaces() -> None:
    game = env(num_players=3)
    assert game.metadata["name"] == "cuckoo_rules_v0"
    assert game.metadata["render_modes"] == ["ansi", "human"]
    assert game.metadata["is_parallelizable"] is False
    assert game.possible_agents == ["player_0", "player_1", "player_2"]
    game.reset(seed=0)
    spaces = [game.observation_space(a) for a in game.agents]
    assert spaces[0]["observation"].shape == (cr.observation.observation_size(3),)
    assert spaces[0]["observation"].dtype == np.float32
    assert float(spaces[0]["observation"].high.max()) == cr.cards.DECK_SIZE
    assert spaces[0]["action_mask"].shape == (cr.NUM_DISTINCT_ACTIONS,)
    assert spaces[0]["action_mask"].dtype == np.int8
    assert spaces[0] is not spaces[1]  # seeding one agent's space leaves the others alone
    assert game.action_space("player_1").n == 74
    assert isinstance(game.unwrapped, CuckooAECEnv)
    assert raw_env is CuckooAECEnv


# --------------------------------------------------------------------------- the engine


@pytest.mark.parametrize("players", PLAYERS)
def test_observations_and_masks_are_the_engine_views(players: int) -> None:
    game = raw_env(num_players=players)
    steps = 0
    for agent, (obs, _, terminated, _, info), _ in play(game, seed=players):
        state = game.game_state
        assert agent == f"player_{state.current_player}" or terminated
        for other in game.possible_agents:  # every agent's observation, not just the actor's
            seat = game.seat_of(other)
            view = cr.observe(state, seat)
            seen = game.observe(other)
            assert seen["observation"].dtype == np.float32
            assert seen["observation"].tolist() == list(cr.observation.encode_observation(view))
            mask = seen["action_mask"]
            assert mask.dtype == np.int8
            if view.is_my_turn:
                assert mask.tolist() == [int(b) for b in cr.legal_action_mask(view)]
                assert info["legal_moves"] == np.flatnonzero(mask).tolist()
            else:
                assert not mask.any()
        if not terminated:
            assert obs["action_mask"].any()
        steps += 1
    assert steps > 20


@pytest.mark.parametrize("players", PLAYERS)
def test_a_game_ends_with_every_agent_terminated_and_rewards_to_the_winners(players: int) -> None:
    for seed in range(3):
        game = env(num_players=players)
        finals: dict[str, float] = {}
        saw_all_terminated = False
        infos = []
        for agent, (_, reward, terminated, truncated, info), _ in play(game, seed, seed):
            assert not truncated
            if terminated:
                infos.append(info)
                if not finals:
                    assert all(game.terminations.values())
                    assert set(game.terminations) == set(game.possible_agents)
                    saw_all_terminated = True
                finals[agent] = reward
            else:
                assert reward == 0
                assert not finals
        assert saw_all_terminated
        assert game.agents == []
        state = game.unwrapped.game_state
        assert state.is_over
        assert sorted(finals) == game.possible_agents
        assert sum(finals.values()) == pytest.approx(1)
        for agent, reward in finals.items():
            seat = int(agent.removeprefix("player_"))
            expected = 1 / len(state.winners) if seat in state.winners else 0
            assert reward == pytest.approx(expected)
        assert (
            infos
            == [{"legal_moves": [], "winners": [f"player_{w}" for w in state.winners]}] * players
        )


def test_a_shared_victory_is_split() -> None:
    # This random 3-player game ends by exhaustion with seats 0 and 1 tied on cards.
    game = raw_env(num_players=3)
    finals = {a: r for a, (_, r, t, _, _), _ in play(game, seed=90, policy_seed=90) if t}
    assert game.game_state.winners == (0, 1)
    assert finals == {"player_0": 0.5, "player_1": 0.5, "player_2": 0.0}


def test_reset_seed_deals_new_game_of_that_seed() -> None:
    options = cr.GameOptions(num_players=4, round_end_timing="immediate")
    game = env(options=options)
    game.reset(seed=12345)
    state = cr.new_game(options, 12345)
    assert game.unwrapped.game_state == state
    assert game.agent_selection == f"player_{state.current_player}"
    game.reset(seed=np.int64(12345))  # NumPy integers are seeds too
    assert game.unwrapped.game_state == state


# --------------------------------------------------------------------------- determinism


def test_same_seed_same_trajectory_and_different_seeds_differ() -> None:
    first = trajectory(env(num_players=3), seed=11)
    assert trajectory(env(num_players=3), seed=11) == first
    assert trajectory(env(num_players=3), seed=12) != first


def test_unseeded_resets_follow_the_last_seed() -> None:
    def deals(game: Any) -> list[cr.GameState]:
        game.reset(seed=99)
        out = [game.unwrapped.game_state]
        for _ in range(3):
            game.reset()
            out.append(game.unwrapped.game_state)
        return out

    a, b = deals(env(num_players=2)), deals(env(num_players=2))
    assert a == b
    assert len({s.seed for s in a}) == 4
    fresh = env(num_players=2)
    fresh.reset()  # no seed yet: drawn from the operating system
    fresh.reset()
    assert fresh.unwrapped.game_state.is_over is False


def test_no_global_random_state_is_used() -> None:
    random.seed(1)
    np.random.seed(1)
    expected = (random.random(), np.random.random())
    random.seed(1)
    np.random.seed(1)
    trajectory(env(num_players=2), seed=3)
    game = env(num_players=2)
    game.reset()
    game.reset()
    assert (random.random(), np.random.random()) == expected


# --------------------------------------------------------------------------- truncation


def test_max_turns_truncates_every_agent_without_reward() -> None:
    game = env(num_players=3, max_turns=5)
    truncated_at = None
    for agent, (obs, reward, terminated, truncated, _), _ in play(game, seed=4):
        assert not terminated
        assert reward == 0
        if truncated:
            if truncated_at is None:
                truncated_at = game.unwrapped.game_state.turn
                assert all(game.truncations.values())
            assert not obs["action_mask"].any()
            assert agent in game.agents
    assert truncated_at == 6
    assert game.agents == []
    state = game.unwrapped.game_state
    assert not state.is_over
    # Even the seat that was to act sees no legal action once the episode is over.
    assert not game.observe(f"player_{state.current_player}")["action_mask"].any()
    raw = game.unwrapped
    with pytest.raises(cr.IllegalActionError, match="the episode has ended"):
        raw.step(cr.action_id(cr.legal_actions(state)[0]))


# --------------------------------------------------------------------------- rendering


def test_render_ansi_shows_the_acting_seat_s_screen() -> None:
    game = env(num_players=3, render_mode="ansi")
    game.reset(seed=8)
    state = game.unwrapped.game_state
    text = game.render()
    assert isinstance(text, str)
    lines = text.splitlines()
    assert lines[0] == f"View of player_{state.current_player} (seat {state.current_player})"
    assert lines[1:] == render_view(cr.observe(state, state.current_player))
    for row in range(4):
        assert f"row {row}:" in text
    assert "Your hand (8)" in text
    for _ in play(game, seed=8):
        pass
    assert "Winners: player_" in game.render()


def test_render_human_prints_and_no_mode_warns(capsys: pytest.CaptureFixture[str]) -> None:
    game = env(num_players=2, render_mode="human")
    game.reset(seed=1)
    assert game.render() is None
    assert "row 2:" in capsys.readouterr().out
    quiet = env(num_players=2)
    quiet.reset(seed=1)
    with pytest.warns(UserWarning, match="without a render mode"):
        assert quiet.render() is None
    quiet.close()


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"num_players": 6}, "num_players: 6 is not in 2..5"),
        ({"num_players": 1}, "num_players: 1 is not in 2..5"),
        ({"num_players": 3, "options": cr.GameOptions(num_players=2)}, "disagrees"),
        ({"options": {"num_players": 2}}, "expected GameOptions"),
        ({"render_mode": "rgb_array"}, "render_mode: 'rgb_array' is not one of"),
        ({"max_turns": 0}, "max_turns: expected None or an integer >= 1"),
        ({"max_turns": 2.5}, "max_turns"),
    ],
)
def test_bad_arguments_raise_clear_errors(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(cr.InvalidOptionsError, match=message):
        env(**kwargs)


def test_options_alone_or_agreeing_are_accepted() -> None:
    options = cr.GameOptions(num_players=4)
    assert env(options=options).possible_agents[-1] == "player_3"
    assert env(num_players=4, options=options).unwrapped.options is options


def test_bad_seeds_and_agents() -> None:
    game = env(num_players=2)
    for seed in (-1, 2**64, 1.5, True):
        with pytest.raises(cr.InvalidOptionsError, match="seed"):
            game.reset(seed=seed)
    game.reset(seed=0)
    with pytest.raises(KeyError, match="player_2"):
        game.observe("player_2")
    with pytest.raises(KeyError, match="not an agent"):
        game.observation_space("bob")


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    game = env(num_players=2)
    game.reset(seed=5)
    before = game.unwrapped.game_state
    agent = game.agent_selection
    obs, *_ = game.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(cr.IllegalActionError, match=f"{agent} cannot play action {illegal} "):
        game.step(illegal)
    with pytest.raises(cr.IllegalActionError, match="a turn starts by laying birds"):
        game.step(73)  # pass: not legal in the lay phase
    raw = raw_env(num_players=2)
    raw.reset(seed=5)
    for bad in (None, 74, -1, 1.0, True):
        with pytest.raises(cr.IllegalActionError, match="is not an action id"):
            raw.step(bad)  # type: ignore[arg-type]
    assert game.unwrapped.game_state == before
    assert game.agent_selection == agent
    game.step(int(np.flatnonzero(obs["action_mask"])[0]))  # a legal action still works
    assert game.unwrapped.game_state != before


def test_out_of_space_actions_fail_the_bounds_wrapper() -> None:
    game = env(num_players=2)
    game.reset(seed=5)
    with pytest.raises(AssertionError, match="action is not in action space"):
        game.step(74)


def test_dead_agents_take_only_none() -> None:
    game = env(num_players=2)
    for _agent, (_, _, terminated, _, _), _ in play(game, seed=2):
        if terminated:
            with pytest.raises(ValueError, match="the only valid action is None"):
                game.step(0)
            break


def test_use_before_reset_is_an_error() -> None:
    game = env(num_players=2)
    with pytest.raises(AttributeError, match="agent_selection cannot be accessed before reset"):
        _ = game.agent_selection
    with pytest.raises(gymnasium.error.ResetNeeded, match="has not been reset"):
        _ = raw_env(num_players=2).game_state


def test_terminate_illegal_wrapper_convention_works_as_documented(
    caplog: pytest.LogCaptureFixture,
) -> None:
    game = wrappers.OrderEnforcingWrapper(
        wrappers.TerminateIllegalWrapper(raw_env(num_players=3), illegal_reward=-1)
    )
    game.reset(seed=6)
    offender = game.agent_selection
    obs, *_ = game.last()
    game.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert "Illegal move made" in caplog.text
    finals = {}
    for agent in game.agent_iter():
        _, reward, terminated, truncated, _ = game.last()
        assert terminated or truncated
        finals[agent] = reward
        game.step(None)
    assert finals[offender] == -1
    assert sum(finals.values()) == -1
