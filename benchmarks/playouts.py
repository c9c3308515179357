"""Benchmark: random playouts through ``legal_actions`` and ``apply``.

Plays seeded games to the end, every decision chosen uniformly at random among the legal
actions with a ``random.Random`` seeded per game, and reports decisions per second and
games per second: the median of several timed runs after a warm-up.

Usage::

    python benchmarks/playouts.py                      # 2 and 4 players, 5 runs of 2 s
    python benchmarks/playouts.py --seconds 1 --repeats 3 --players 2 3 4 5

A decision is one ``apply`` (a lay, a draw or its refusal, a flock or its refusal).
The time includes ``legal_actions``, the random choice and ``apply``.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cuckoo_rules as cr


@dataclass(frozen=True)
class Run:
    """What one timed run did."""

    games: int
    decisions: int
    seconds: float

    @property
    def decisions_per_second(self) -> float:
        return self.decisions / self.seconds

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds


def play_one(options: cr.GameOptions, seed: int) -> int:
    """Play one game with random legal actions and return the number of decisions."""
    rng = random.Random(seed)
    state = cr.new_game(options, seed)
    decisions = 0
    while not state.is_over:
        state = cr.apply(state, rng.choice(cr.legal_actions(state)))
        decisions += 1
    return decisions


def timed_run(options: cr.GameOptions, first_seed: int, seconds: float) -> Run:
    """Play whole games from ``first_seed`` on until ``seconds`` have passed."""
    games = decisions = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        decisions += play_one(options, first_seed + games)
        games += 1
        elapsed = time.perf_counter() - start
    return Run(games, decisions, elapsed)


def benchmark(players: int, seconds: float, repeats: int, warmup: float) -> list[Run]:
    """Warm up, then time ``repeats`` runs; each run plays games with fresh seeds."""
    options = cr.GameOptions(num_players=players)
    timed_run(options, 10**9, warmup)
    runs: list[Run] = []
    for index in range(repeats):
        runs.append(timed_run(options, index * 1_000_000, seconds))
    return runs


def cpu_model() -> str:
    """The CPU model from /proc/cpuinfo, else what :mod:`platform` knows."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown CPU"


def machine_info() -> dict[str, Any]:
    """The machine and the Python running a benchmark, for its JSON results."""
    return {
        "cpu": cpu_model(),
        "cpu_count": os.cpu_count() or 0,
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(),
        "machine": platform.machine(),
    }


def machine() -> str:
    """One line describing the machine and the Python running the benchmark."""
    info = machine_info()
    return f"{info['cpu']} ({info['cpu_count']} CPUs); {info['platform']}; {info['python']}"


def report(players: int, runs: Sequence[Run]) -> str:
    """Summarise the runs of one player count: medians, ranges, decisions per game."""
    dps = [run.decisions_per_second for run in runs]
    gps = [run.games_per_second for run in runs]
    games = sum(run.games for run in runs)
    per_game = sum(run.decisions for run in runs) / games
    return (
        f"{players} players: {statistics.median(dps):>9,.0f} decisions/s "
        f"(min {min(dps):,.0f}, max {max(dps):,.0f}); "
        f"{statistics.median(gps):>7,.1f} games/s "
        f"(min {min(gps):,.1f}, max {max(gps):,.1f}); "
        f"{per_game:.1f} decisions/game over {games:,} games"
    )


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=2.0, help="length of a run (2)")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per count (5)")
    parser.add_argument(
        "--warmup", type=float, default=1.0, help="untimed seconds before the runs (1)"
    )
    parser.add_argument(
        "--players",
        type=int,
        nargs="+",
        default=[2, 4],
        choices=range(cr.options.MIN_PLAYERS, cr.options.MAX_PLAYERS + 1),
        metavar="N",
        help="player counts to measure (2 4)",
    )
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.repeats < 1 or args.warmup < 0:
        parser.error("--seconds must be > 0, --repeats >= 1 and --warmup >= 0")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    print(f"cuckoo-rules {cr.__version__} random playouts on {machine()}")
    print(f"{args.repeats} runs of {args.seconds:g} s per player count, median reported")
    for players in args.players:
        runs = benchmark(players, args.seconds, args.repeats, args.warmup)
        print(report(players, runs), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
