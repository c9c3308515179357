"""Budgets in seconds: the search bots read the clock during the decision, not once.

A budget in seconds is wall-clock time. The expert runs each round of its halving in
kernel calls sized from the pace measured on the call before; ISMCTS reads the clock
after every iteration. So a stall or a machine that slows down mid-decision shortens the
search instead of overrunning the budget by more than the call under way, and a quick
machine uses its whole budget. Most tests here run the bots on a fake clock that only
the patched kernels move, so their figures are exact whatever the machine's load; one
per bot stalls for real. Budgets in simulations and iterations never read the clock.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest

pytest.importorskip("numba")

import cuckoo_rules as cr
from cuckoo_rules.bots.expert import ExpertBot
from cuckoo_rules.bots.ismcts import IsmctsBot
from tests.games import random_game

expert_module = importlib.import_module("cuckoo_rules.bots.expert")
ismcts_module = importlib.import_module("cuckoo_rules.bots.ismcts")

SECONDS = 0.05


def early_view(players: int = 2, seed: int = 3, steps: int = 4) -> cr.PlayerView:
    """The acting seat's view a few actions into a game (twelve candidates or more)."""
    game = random_game(cr.GameOptions(num_players=players), seed, rng=seed, events=False)
    states = [state for state in game.states if state.phase is cr.Phase.LAY]
    state = states[min(steps, len(states) - 1)]
    return cr.observe(state, state.current_player)


class FakeClock:
    """A ``time`` module whose clock moves only when told to."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        return self.now


def slowed_kernels(
    monkeypatch: pytest.MonkeyPatch, seconds_for: Callable[[int, int], float]
) -> tuple[FakeClock, list[int]]:
    """Run the expert on a fake clock that its rollout kernel's calls move.

    ``seconds_for(call, rollouts)`` is how long the fake clock says call number ``call``
    (from 0) of ``rollouts`` rollouts took. Returns the clock and each call's rollouts.
    """
    clock = FakeClock()
    calls: list[int] = []
    real = expert_module.search_rollouts

    def kernel(*args: Any) -> None:
        real(*args)
        rollouts = len(args[4])  # the (determinization, candidate) pairs
        clock.now += seconds_for(len(calls), rollouts)
        calls.append(rollouts)

    monkeypatch.setattr(expert_module, "time", SimpleNamespace(perf_counter=clock.perf_counter))
    monkeypatch.setattr(expert_module, "search_rollouts", kernel)
    return clock, calls


PACE = 20e-6  # seconds per rollout on the fake quick machine


def test_a_steady_machine_gives_the_expert_its_whole_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock, calls = slowed_kernels(monkeypatch, lambda call, rollouts: PACE * rollouts)
    start = clock.now
    found = ExpertBot(seed=1, seconds=SECONDS).estimates(early_view())
    elapsed = clock.now - start
    assert SECONDS * 0.98 <= elapsed <= SECONDS + 1e-9  # used, and never overrun
    assert sum(e.simulations for e in found) == sum(calls)
    assert sum(calls) >= 0.98 * SECONDS / PACE
    assert max(calls) * PACE <= SECONDS * expert_module._CHUNK_SHARE + 1e-9
    assert calls[0] == len(found) >= 12  # a pilot: one determinization of every candidate


@pytest.mark.parametrize(("stalled", "stall"), [(2, 0.02), (2, 0.2), (9, 0.2)])
def test_a_stall_shortens_the_experts_search(
    monkeypatch: pytest.MonkeyPatch, stalled: int, stall: float
) -> None:
    """A call that stalls costs the search its time; the budget is overrun only by it."""

    def seconds_for(call: int, rollouts: int) -> float:
        return PACE * rollouts + (stall if call == stalled else 0.0)

    clock, calls = slowed_kernels(monkeypatch, seconds_for)
    start = clock.now
    ExpertBot(seed=1, seconds=SECONDS).estimates(early_view())
    elapsed = clock.now - start
    assert len(calls) > stalled
    if stall < SECONDS:  # time was left after it: the rest of the search fits
        assert elapsed <= SECONDS + 1e-9
        assert sum(calls) * PACE >= 0.98 * (SECONDS - stall)
    else:  # nothing runs after the call that passed the deadline
        assert len(calls) == stalled + 1
        assert elapsed <= SECONDS + stall


def test_a_machine_that_slows_mid_decision_overruns_by_less_than_a_chunk(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ten times slower from the fourth kernel call on: the next calls are sized anew."""

    def seconds_for(call: int, rollouts: int) -> float:
        return PACE * rollouts * (1 if call < 3 else 10)

    clock, calls = slowed_kernels(monkeypatch, seconds_for)
    start = clock.now
    ExpertBot(seed=1, seconds=SECONDS).estimates(early_view())
    overrun = clock.now - start - SECONDS
    # One call planned at the quick pace (at most _CHUNK_SHARE of the budget) runs slow.
    assert overrun <= 9 * SECONDS * expert_module._CHUNK_SHARE
    assert len(calls) > 4  # and the search went on at the slow pace


def test_both_budgets_stop_at_the_simulations_on_a_quick_machine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    view = early_view()
    counted = ExpertBot(seed=1, simulations=300).estimates(view)
    slowed_kernels(monkeypatch, lambda call, rollouts: PACE * rollouts)
    both = ExpertBot(seed=1, simulations=300, seconds=10.0).estimates(view)
    assert sorted(e.simulations for e in both) == sorted(e.simulations for e in counted)


def test_budgets_in_simulations_and_iterations_never_read_the_clock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    view = early_view()
    expected = ExpertBot(seed=4, simulations=120).estimates(view)
    ismcts = IsmctsBot(seed=4, iterations=30).choose(view)

    def no_clock() -> float:
        raise AssertionError("a fixed budget read the clock")

    for module in (expert_module, ismcts_module):
        monkeypatch.setattr(module, "time", SimpleNamespace(perf_counter=no_clock))
    assert ExpertBot(seed=4, simulations=120).estimates(view) == expected
    assert IsmctsBot(seed=4, iterations=30).choose(view) == ismcts


def test_ismcts_reads_the_clock_after_every_iteration(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a fake clock, a unit an iteration and a stall of 20: exactly the iterations that fit."""
    unit = 2.0**-10  # about a millisecond, in exact binary fractions
    clock = FakeClock()
    real: Callable[..., cr.GameState] = ismcts_module.determinize
    calls = [0]

    def determinize(*args: Any, **kwargs: Any) -> cr.GameState:
        calls[0] += 1
        clock.now += unit * (21 if calls[0] == 10 else 1)
        return real(*args, **kwargs)

    monkeypatch.setattr(ismcts_module, "time", SimpleNamespace(perf_counter=clock.perf_counter))
    monkeypatch.setattr(ismcts_module, "determinize", determinize)
    root = IsmctsBot(seed=1, seconds=50 * unit).search(early_view())
    assert root.visits == calls[0] == 30  # 29 iterations of one unit and the stalled one


def real_stall(
    monkeypatch: pytest.MonkeyPatch, module: Any, name: str, stalled: int, stall: float
) -> list[float]:
    """Make call ``stalled`` of ``module.name`` sleep ``stall`` seconds first; calls' times."""
    real = getattr(module, name)
    started: list[float] = []

    def slow(*args: Any, **kwargs: Any) -> Any:
        started.append(time.perf_counter())
        if len(started) == stalled + 1:
            time.sleep(stall)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, slow)
    return started


@pytest.mark.parametrize("bot", ["expert", "ismcts"])
def test_a_real_stall_past_the_deadline_ends_the_decision(
    monkeypatch: pytest.MonkeyPatch, bot: str
) -> None:
    view = early_view()
    player = (
        ExpertBot(seed=2, seconds=SECONDS)
        if bot == "expert"
        else IsmctsBot(seed=2, seconds=SECONDS)
    )
    player.choose(view)  # the kernels loaded, the caches warm
    if bot == "expert":
        started = real_stall(monkeypatch, expert_module, "search_rollouts", 1, 2 * SECONDS)
    else:
        started = real_stall(monkeypatch, ismcts_module, "determinize", 3, 2 * SECONDS)
    begin = time.perf_counter()
    assert player.choose(view) in cr.legal_actions(view)
    elapsed = time.perf_counter() - begin
    stalled = 1 if bot == "expert" else 3
    assert len(started) == stalled + 1  # no kernel call (or iteration) after the stall
    assert elapsed < SECONDS + 2 * SECONDS + 1.0  # the stall, and a generous margin for load
