"""Benchmark: the expert's strength at equal time against ISMCTS, quiet and on a busy machine.

With a budget in seconds, a bot whose search slows down under load simply searches less,
so its strength depends on how well it keeps its pace when other programs take the
cores. This plays ``expert:seconds=0.05`` against ``ismcts:seconds=0.05`` (``--expert``,
``--ismcts``), 2 players, ``--games`` games, seats rotated and every game's deal and bots
seeded from ``--seed`` exactly as :func:`~cuckoo_rules.bots.run_tournament` seeds them,
``--workers`` games at a time (2, as a tournament runs them):

1. **quiet**: with nothing else started by this script;
2. **loaded**: the same games beside ``--busy`` CPU-bound processes (plain Python loops,
   as another experiment or a CI job would be).

For each phase it reports the expert's win rate (a victory shared by k counts 1/k) with
its 95% Wilson interval, every bot's time per decision as measured around ``choose``
(mean, 90th percentile and maximum), the expert's simulations per decision, and the load
average (``/proc/loadavg``) at the start and end of the phase. The goal (issue 29): the
loaded win rate within 5 points of the quiet one, with 60 games or more in each.

Usage::

    python benchmarks/busy_strength.py                       # 60 games each
    python benchmarks/busy_strength.py --games 20            # a short check
    python benchmarks/busy_strength.py --phases loaded --busy 3
    PYTHONPATH=/path/to/older/src python benchmarks/busy_strength.py   # another checkout

On a machine others share, "quiet" is only as quiet as they leave it: compare the two
phases of one run, and read the load averages beside them.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cuckoo_rules as cr
from cuckoo_rules import bots
from cuckoo_rules.outcome import winner_shares

PLAYERS = 2
GOAL_POINTS = 0.05
"""The most the loaded win rate may fall below the quiet one (issue 29)."""


class Timed:
    """A bot that records the time of each of its decisions (and the expert's simulations)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.times: list[float] = []
        self.simulations: list[int] = []
        inform = getattr(bot, "inform", None)
        if inform is not None:  # let the bot follow the game as it would alone
            self.inform = inform

    def choose(self, view: cr.PlayerView) -> cr.Action:
        begin = time.perf_counter()
        estimates = getattr(self.bot, "estimates", None)
        if estimates is not None and len(cr.legal_actions(view)) > 1:
            found = estimates(view)  # what ExpertBot.choose does, keeping the count
            action: cr.Action = found[0].action
            self.simulations.append(sum(e.simulations for e in found))
        else:
            action = self.bot.choose(view)
        self.times.append(time.perf_counter() - begin)
        return action


def warm_up() -> None:
    """Load (or compile) the expert's kernels in a worker before its first timed game."""
    state = cr.new_game(cr.GameOptions(num_players=PLAYERS), 0)
    bots.make_bot("expert:simulations=64", 0).choose(cr.observe(state, state.current_player))


def play(specs: tuple[str, ...], seed: int, index: int) -> dict[str, Any]:
    """Play game ``index`` as ``run_tournament`` would; every seat's decision times."""
    parsed = [bots.parse_bot_spec(spec) for spec in specs]
    order = bots.seating(index, PLAYERS)
    deal = bots.derive_seed(seed, 0, index // PLAYERS)
    seats = [
        Timed(parsed[e].build(bots.derive_seed(seed, 1, index, k))) for k, e in enumerate(order)
    ]
    played = bots.play_game(cr.GameOptions(num_players=PLAYERS), deal, seats)
    shares = winner_shares(played.winners, PLAYERS)
    return {
        "index": index,
        "order": order,
        "shares": list(shares),
        "times": [seat.times for seat in seats],
        "simulations": [seat.simulations for seat in seats],
    }


def busy(count: int) -> list[subprocess.Popen[bytes]]:
    """Start ``count`` CPU-bound processes (plain Python loops)."""
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]


def load_average() -> str:
    """The 1-minute load average, or ``?`` where ``/proc/loadavg`` is missing."""
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "?"


def spread(values: Sequence[float]) -> dict[str, float]:
    """Mean, 90th percentile and maximum of some decision times."""
    ordered = sorted(values)
    if not ordered:
        return {"mean": 0.0, "p90": 0.0, "max": 0.0}
    return {
        "mean": statistics.fmean(ordered),
        "p90": ordered[int(0.9 * (len(ordered) - 1))],
        "max": ordered[-1],
    }


def run_phase(
    name: str, pool: concurrent.futures.Executor, args: argparse.Namespace
) -> dict[str, Any]:
    """Play every game of one phase; the expert's win rate and the decisions' times."""
    specs = (args.expert, args.ismcts)
    neighbours = busy(args.busy) if name == "loaded" else []
    try:
        if neighbours:
            time.sleep(0.5)
        load_before = load_average()
        start = time.perf_counter()
        futures = [pool.submit(play, specs, args.seed, index) for index in range(args.games)]
        games = [future.result() for future in futures]
        wall = time.perf_counter() - start
        load_after = load_average()
    finally:
        for process in neighbours:
            process.kill()
            process.wait()
    wins = 0.0
    times: list[list[float]] = [[], []]
    simulations: list[int] = []
    for game in games:
        for seat, entrant in enumerate(game["order"]):
            times[entrant] += game["times"][seat]
            if entrant == 0:
                wins += game["shares"][seat]
                simulations += game["simulations"][seat]
    rate = wins / len(games)
    low, high = bots.wilson_interval(wins, len(games))
    result: dict[str, Any] = {
        "phase": name,
        "games": len(games),
        "busy": len(neighbours),
        "expert_win_rate": rate,
        "interval95": [low, high],
        "expert_seconds": spread(times[0]),
        "ismcts_seconds": spread(times[1]),
        "expert_simulations": statistics.fmean(simulations) if simulations else 0.0,
        "load_before": load_before,
        "load_after": load_after,
        "wall_seconds": wall,
    }
    e, i = spread(times[0]), spread(times[1])
    print(
        f"{name:6} {len(games):3} games, {len(neighbours)} busy: expert wins {rate:6.1%} "
        f"(95% CI {low:.1%}-{high:.1%}); ms/decision mean/p90/max: expert "
        f"{1e3 * e['mean']:.1f}/{1e3 * e['p90']:.1f}/{1e3 * e['max']:.1f}, ismcts "
        f"{1e3 * i['mean']:.1f}/{1e3 * i['p90']:.1f}/{1e3 * i['max']:.1f}; expert "
        f"{result['expert_simulations']:.0f} simulations/decision; load {load_before} -> "
        f"{load_after}; {wall:.0f} s",
        flush=True,
    )
    return result


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=60, help="games per phase (60)")
    parser.add_argument("--expert", default="expert:seconds=0.05", help="the expert's spec")
    parser.add_argument("--ismcts", default="ismcts:seconds=0.05", help="its opponent's spec")
    parser.add_argument("--busy", type=int, default=2, help="CPU-bound neighbours (2)")
    parser.add_argument("--workers", type=int, default=2, help="games at a time (2)")
    parser.add_argument("--seed", type=int, default=1, help="tournament seed (1)")
    parser.add_argument(
        "--phases", nargs="+", choices=["quiet", "loaded"], default=["quiet", "loaded"]
    )
    parser.add_argument("--json", type=Path, help="write the figures to this file as JSON")
    args = parser.parse_args(argv)
    if args.games < 1 or args.workers < 1 or args.busy < 0:
        parser.error("--games and --workers must be positive, --busy not negative")
    for spec in (args.expert, args.ismcts):
        try:
            bots.parse_bot_spec(spec)
        except bots.BotSpecError as error:
            parser.error(str(error))
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    print(
        f"cuckoo-rules {cr.__version__}: {args.expert} vs {args.ismcts}, {PLAYERS} players, "
        f"{args.workers} games at a time, seed {args.seed}; {os.cpu_count()} CPUs",
        flush=True,
    )
    warm_up()  # compile the kernels once, here, if the cache is cold: the workers load them
    context = multiprocessing.get_context("spawn")  # no forked OpenMP pool (see worker_pool)
    with concurrent.futures.ProcessPoolExecutor(
        args.workers, mp_context=context, initializer=warm_up
    ) as pool:
        results = [run_phase(name, pool, args) for name in args.phases]
    by_phase = {result["phase"]: result for result in results}
    if "quiet" in by_phase and "loaded" in by_phase:
        drop = by_phase["quiet"]["expert_win_rate"] - by_phase["loaded"]["expert_win_rate"]
        verdict = "met" if drop <= GOAL_POINTS else "NOT met"
        print(
            f"loaded - quiet: {-100 * drop:+.1f} points (goal: no more than "
            f"{100 * GOAL_POINTS:.0f} below); {verdict}",
            flush=True,
        )
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
