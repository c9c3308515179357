"""The expert bot: legal, fair (it sees only a view), deterministic with a budget, and hints.

Strength is not tested here: it is measured by ``benchmarks/ladder.py`` and the
tournament command (see docs/bots.md). These tests check what can be checked fast: the
kernel's evaluation against the Python one, that the search depends on nothing but the
view and the seat's knowledge, and the shape of the hint.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys

import pytest

pytest.importorskip("numba")

import numpy as np

import cuckoo_rules as cr
from cuckoo_rules.batch import options_array, state_row
from cuckoo_rules.batch.search import WIDTH, determinize_rows, scratch, search_rollouts
from cuckoo_rules.bots import BotSpecError, GreedyBot, make_bot, play_game
from cuckoo_rules.bots.expert import (
    DEFAULT_SIMULATIONS,
    VALUE_WEIGHTS,
    ActionEstimate,
    ExpertBot,
    _Search,
    hint,
    value_features,
)
from cuckoo_rules.bots.ismcts import _evaluate
from cuckoo_rules.match import BotError, Match
from cuckoo_rules.outcome import winner_shares
from tests.games import random_game


def mid_game(players: int, seed: int, steps: int = 25) -> cr.GameState:
    """A state some random actions into a game (the game's own states, not a view)."""
    game = random_game(cr.GameOptions(num_players=players), seed, rng=seed, events=False)
    states = [state for state in game.states if state.phase is not cr.Phase.GAME_OVER]
    return states[min(steps, len(states) - 1)]


def acting_view(state: cr.GameState) -> cr.PlayerView:
    return cr.observe(state, state.current_player)


def run_rollouts(
    state: cr.GameState,
    actions: list[cr.Action],
    seat: int,
    turns: int,
    weights: tuple[float, ...] = (0.1, 0.1, 0.0, 0.0),
) -> np.ndarray:
    roots = np.zeros((1, WIDTH), dtype=np.int16)
    roots[0] = state_row(state)
    ids = np.array([cr.action_id(a) for a in actions], dtype=np.int64)
    pairs = np.array([[0, c] for c in range(len(actions))], dtype=np.int64)
    rewards = np.zeros(len(actions))
    search_rollouts(
        roots, np.array([state.seed], dtype=np.uint64), options_array(state.options), ids,
        pairs, seat, turns, np.array(weights), np.uint64(7), scratch(8), rewards,
    )  # fmt: skip
    return rewards


# --------------------------------------------------------------------------- the kernel


@pytest.mark.parametrize("players", [2, 3, 5])
@pytest.mark.parametrize("seed", range(4))
def test_a_rollout_of_no_turns_scores_as_ismcts_does(players: int, seed: int) -> None:
    """With ``turns=0`` the reward is the evaluation after the candidate: ``IsmctsBot``'s
    at weights ``(1/T, 1/T, 0, 0)``, and the softmax of the value features at the expert's.
    """
    state = mid_game(players, seed)
    actions = list(cr.legal_actions(state))
    learned = VALUE_WEIGHTS[players]
    for seat in range(players):
        rewards = run_rollouts(state, actions, seat, 0)
        values = run_rollouts(state, actions, seat, 0, learned)
        for action, reward, value in zip(actions, rewards, values, strict=True):
            after = cr.apply(state, action)
            if after.phase is cr.Phase.GAME_OVER:
                expected = winner_shares(after.winners, players)[seat]
                assert reward == value == expected
                continue
            assert reward == pytest.approx(_evaluate(after, 10.0)[seat], rel=1e-12, abs=1e-12)
            scores = np.array(value_features(after)) @ np.array(learned)
            chances = np.exp(scores - scores.max()) / np.exp(scores - scores.max()).sum()
            assert value == pytest.approx(chances[seat], rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("players", [2, 4])
def test_a_rollout_to_the_end_rewards_a_share_of_the_victory(players: int) -> None:
    state = mid_game(players, 3)
    actions = list(cr.legal_actions(state))
    rewards = run_rollouts(state, actions, state.current_player, -1)
    shares = {0.0, 1.0} | {1.0 / k for k in range(2, players + 1)}
    assert set(rewards.tolist()) <= shares
    # Every seat's rewards of one rollout add up to one victory.
    totals = sum(run_rollouts(state, actions[:1], seat, -1)[0] for seat in range(players))
    assert totals == pytest.approx(1.0)


# --------------------------------------------------------------------------- the bot


def test_the_spec_builds_the_expert_and_checks_its_parameters() -> None:
    bot = make_bot("expert:simulations=50:width=4", seed=3)
    assert isinstance(bot, ExpertBot)
    assert (bot.seed, bot.simulations, bot.width) == (3, 50, 4)
    assert ExpertBot().simulation_budget == DEFAULT_SIMULATIONS
    assert ExpertBot(seconds=0.1).simulation_budget is None
    for bad, says in [
        ("expert:simulations=0", "simulations must be an integer from 1 to 1000000, got 0"),
        ("expert:seconds=nan", "seconds must be a finite number from 0.001 to 3600, got nan"),
        ("expert:seconds=inf", "seconds must be a finite number from 0.001 to 3600, got inf"),
        ("expert:width=-1", "width must be an integer from 0 to 74, got -1"),
        ("expert:rollout_turns=-2", "rollout_turns must be an integer from -1 to 10000"),
        ("expert:depth=2", "unknown parameter 'depth'"),
    ]:
        with pytest.raises(BotSpecError, match=says):
            make_bot(bad, seed=0)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_whole_games_against_greedy_are_legal(players: int) -> None:
    """A Match checks every action; the expert's seats follow the game through inform."""
    expert = ExpertBot(seed=1, simulations=24)
    bots: list[cr.bots.Bot] = [expert, *(GreedyBot(seed=s) for s in range(1, players))]
    played = play_game(cr.GameOptions(num_players=players), seed=players, bots=bots)
    assert played.record.actions
    assert expert.followed_knowledge is not None


def test_the_followed_knowledge_is_the_matchs() -> None:
    expert = ExpertBot(seed=2, simulations=16)
    match = Match(cr.GameOptions(num_players=2), seed=8, seats=[expert, GreedyBot(seed=1)])
    for _ in range(30):
        if match.is_over:
            break
        match.play_bot()
    assert expert.followed_knowledge == match.knowledge(0)


def test_the_bot_refuses_a_state_or_another_seats_view() -> None:
    state = mid_game(2, 1)
    bot = ExpertBot(simulations=8)
    with pytest.raises(BotError, match="a bot is given a PlayerView, not GameState"):
        bot.choose(state)  # type: ignore[arg-type]
    with pytest.raises(BotError, match="the view of the seat to act"):
        bot.choose(cr.observe(state, 1 - state.current_player))
    with pytest.raises(BotError, match="knowledge: expected a Knowledge"):
        bot.estimates(acting_view(state), knowledge="everything")  # type: ignore[arg-type]
    with pytest.raises(BotError, match="3 seats for a 2-player game"):
        bot.estimates(acting_view(state), knowledge=cr.Knowledge.start(3))


@pytest.mark.parametrize("players", [2, 4])
def test_the_same_seed_and_budget_give_the_same_search(players: int) -> None:
    view = acting_view(mid_game(players, 5))
    first = ExpertBot(seed=11, simulations=120).estimates(view)
    again = ExpertBot(seed=11, simulations=120).estimates(view)
    other = ExpertBot(seed=12, simulations=120).estimates(view)
    assert first == again
    assert first != other  # another seed deals other determinizations


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("seed", range(3))
def test_the_search_sees_only_the_view(players: int, seed: int) -> None:
    """Two truths the seat cannot tell apart give the same search, card for card."""
    state = mid_game(players, seed)
    view = acting_view(state)
    other = cr.determinize(view, seed=99)  # another truth behind the same view
    assert other.hands != state.hands or other.draw_pile != state.draw_pile
    assert acting_view(other) == view
    found = ExpertBot(seed=4, simulations=60).estimates(acting_view(other))
    assert found == ExpertBot(seed=4, simulations=60).estimates(view)


def test_the_budget_is_kept_and_the_best_is_searched_most() -> None:
    view = acting_view(mid_game(2, 2))
    found = ExpertBot(seed=1, simulations=300, width=0).estimates(view)
    assert sum(e.simulations for e in found) <= 300
    assert {e.action for e in found} == set(cr.legal_actions(view))
    assert found[0].simulations == max(e.simulations for e in found)
    assert all(0.0 <= e.win_chance <= 1.0 for e in found)


def test_a_time_budget_gives_a_legal_action() -> None:
    view = acting_view(mid_game(3, 4))
    assert ExpertBot(seed=1, seconds=0.05).choose(view) in cr.legal_actions(view)


def test_knowledge_keeps_determinizations_within_the_history() -> None:
    """Given what the seat knows, the search still runs and stays reproducible."""
    match = Match(cr.GameOptions(num_players=2), seed=3, seats=[None, None])
    rng = random.Random(0)
    for _ in range(12):
        seat = match.to_act
        assert seat is not None
        match.act(seat, rng.choice(match.legal_actions(seat)))
    seat = match.to_act
    assert seat is not None
    view, known = match.view(seat), match.knowledge(seat)
    with_knowledge = ExpertBot(seed=3, simulations=80).estimates(view, known)
    assert with_knowledge == ExpertBot(seed=3, simulations=80).estimates(view, known)
    assert with_knowledge[0].action in cr.legal_actions(view)


# --------------------------------------------------------------------------- hints


def test_a_hint_is_the_top_three_of_every_legal_action() -> None:
    match = Match(cr.GameOptions(num_players=2), seed=3, seats=[None, None])
    seat = match.to_act
    assert seat is not None
    view, known = match.view(seat), match.knowledge(seat)
    top = hint(view, known, simulations=200, seed=1)
    assert len(top) == 3
    assert all(isinstance(e, ActionEstimate) for e in top)
    every = hint(view, known, top=0, simulations=200, seed=1)
    assert {e.action for e in every} == set(cr.legal_actions(view))
    assert top == tuple(sorted(top, key=lambda e: -e.win_chance))  # the finalists, by estimate
    assert len({e.simulations for e in top}) == 1  # measured alike
    assert {e.action for e in top} <= {e.action for e in every}
    with pytest.raises(BotError, match="top must be 0"):
        hint(view, known, top=-1)


# --------------------------------------------------------------------------- determinizations


def kernel_determinizations(
    view: cr.PlayerView, knowledge: cr.Knowledge | None, seeds: list[int]
) -> tuple[np.ndarray, np.ndarray]:
    """The rows the expert's kernel deals for ``seeds`` (and their ``shuffles``)."""
    deals = _Search(ExpertBot(simulations=1), view, knowledge).deals
    rows = np.zeros((len(seeds), WIDTH), dtype=np.int16)
    shuffles = np.zeros(len(seeds), dtype=np.int64)
    determinize_rows(
        rows, np.array(seeds, dtype=np.uint64), shuffles, deals.template, deals.pool, deals.deal
    )
    return rows, shuffles


@pytest.mark.parametrize("players", [2, 3, 5])
@pytest.mark.parametrize("game", range(6))
def test_the_kernel_deals_determinizations_as_determinize_does(players: int, game: int) -> None:
    """Card for card, with and without the seat's knowledge, in every phase met."""
    match = Match(cr.GameOptions(num_players=players), seed=game, seats=[None] * players)
    rng = random.Random(game)
    seeds = [rng.getrandbits(64) for _ in range(24)]
    checked = fallbacks = 0
    for _ in range(60):
        seat = match.to_act
        if seat is None:
            break
        view, known = match.view(seat), match.knowledge(seat)
        for knowledge in (None, known):
            rows, shuffles = kernel_determinizations(view, knowledge, seeds)
            for seed, row, count in zip(seeds, rows, shuffles, strict=True):
                if count < 0:  # the kernel hands this one to determinize's fallback
                    fallbacks += 1
                    continue
                state = cr.determinize(view, seed, knowledge=knowledge, max_draws=32)
                assert count == state.shuffles
                assert (row == state_row(state)).all()
                checked += 1
        match.act(seat, rng.choice(match.legal_actions(seat)))
    assert checked > 2 * fallbacks  # five players with knowledge fall back most (about 1 in 7)


def test_the_command_line_names_the_default_budget() -> None:
    from cuckoo_rules.cli import build_parser

    (commands,) = [
        action
        for action in build_parser()._actions
        if isinstance(action, argparse._SubParsersAction)
    ]
    description = commands.choices["tournament"].description or ""
    assert f"plays {DEFAULT_SIMULATIONS} simulations" in description


def test_a_tournament_on_workers_after_the_expert_played_here() -> None:
    """Workers start fresh: GNU OpenMP kills a child forked from a process using it."""
    code = (
        "import cuckoo_rules as cr\n"
        "from cuckoo_rules.bots import run_tournament\n"
        "from cuckoo_rules.bots.expert import ExpertBot\n"
        "state = cr.new_game(cr.GameOptions(num_players=2), seed=1)\n"
        "ExpertBot(simulations=50).choose(cr.observe(state, state.current_player))\n"
        "result = run_tournament(cr.GameOptions(num_players=2),"
        " ['expert:simulations=20', 'greedy'], 2, seed=1, workers=2)\n"
        "print(len(result.games))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=False
    )
    assert (done.returncode, done.stdout.strip()) == (0, "2"), done.stderr[-2000:]
