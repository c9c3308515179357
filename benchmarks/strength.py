"""Benchmark: the strength of the bots, measured by tournaments (issue 4's targets).

Runs, with the tournament runner (seats rotated, every game reproducible from the seed):

- ``greedy`` against ``random``, 2 players, 400 games (target: greedy wins >= 90%);
- ``ismcts`` at its default budget against ``greedy``, 2 players, 200 games (>= 60%);
- one ``ismcts`` among three ``greedy``, 4 players, 200 games (ismcts >= 35%);

and the expert's matches (issue 18's targets, ``--expert`` and ``--ismcts`` set the
budgets, by default ``expert:seconds=0.2`` and ``ismcts:seconds=0.2``):

- ``expert`` against ``ismcts``, 2 players, 400 games (expert >= 65%);
- one ``expert`` among three ``ismcts``, 4 players, 400 games (expert >= 35%);
- ``expert`` against ``greedy``, 2 players, 400 games (expert >= 92%);

then times the default ``ismcts`` (or ``--bot``), in one process, on every decision of a few games
against greedy bots, 2 and 4 players (mean, median, 90th percentile and maximum seconds
per decision; the default budget is meant to stay under 0.2 s a decision).

Usage::

    python benchmarks/strength.py                        # greedy and ismcts, 2 workers, seed 1
    python benchmarks/strength.py --only greedy          # just greedy against random
    python benchmarks/strength.py --only ismcts2 --games 100 --bot ismcts:iterations=800
    NUMBA_NUM_THREADS=1 python benchmarks/strength.py --only expert2 expert4 expertgreedy \
        --expert expert:simulations=8000 --ismcts ismcts:iterations=1600
    python benchmarks/strength.py --only timing --bot expert:seconds=0.2

With ``--workers 2`` two games run at once, so a budget in seconds would get half the
machine; budgets in simulations and iterations play the same games however the games
are spread (with ``NUMBA_NUM_THREADS=1``, each worker's kernels use one core).

A run of the default matches takes about an hour on a 2-core machine. Win rates count a
victory shared by k players as 1/k to each; the interval is the 95% Wilson interval.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import cuckoo_rules as cr
from cuckoo_rules import bots

sys.path.insert(0, str(Path(__file__).resolve().parent))
from playouts import machine  # (a sibling script)

MATCHES = {
    "greedy": (2, ("greedy", "random"), 400, 0.90),
    "ismcts2": (2, ("ismcts", "greedy"), 200, 0.60),
    "ismcts4": (4, ("ismcts", "greedy", "greedy", "greedy"), 200, 0.35),
    "expert2": (2, ("expert", "ismcts"), 400, 0.65),
    "expert4": (4, ("expert", "ismcts", "ismcts", "ismcts"), 400, 0.35),
    "expertgreedy": (2, ("expert", "greedy"), 400, 0.92),
}
"""name: (players, entrants (the first is measured), games, target win rate)."""


def run_match(name: str, args: argparse.Namespace) -> dict[str, object]:
    players, entrants, games, target = MATCHES[name]
    if name.startswith("expert"):
        budgets = {"expert": args.expert, "ismcts": args.ismcts}
        entrants = tuple(budgets.get(spec, spec) for spec in entrants)
    elif args.bot and name != "greedy":
        entrants = (args.bot, *entrants[1:])
    if args.games:
        games = args.games - args.games % players
    options = cr.GameOptions(num_players=players)
    done = [0]
    start = time.perf_counter()

    def progress(count: int, total: int) -> None:
        if count - done[0] >= max(1, total // 10) or count == total:
            done[0] = count
            elapsed = time.perf_counter() - start
            print(f"  {name}: {count}/{total} games, {elapsed:.0f} s", file=sys.stderr, flush=True)

    result = cr.bots.run_tournament(
        options, entrants, games, args.seed, workers=args.workers, progress=progress
    )
    elapsed = time.perf_counter() - start
    measured = result.entrants[0]
    low, high = measured.interval
    verdict = "met" if measured.win_rate >= target else "NOT met"
    print(
        f"{name}: {' vs '.join(result.specs)}, {players} players, {len(result.games)} games: "
        f"{measured.label} wins {measured.win_rate:.1%} (95% CI {low:.1%}-{high:.1%}); "
        f"target {target:.0%} {verdict}; {1000 * measured.seconds_per_decision:.1f} ms per "
        f"decision; {result.mean_turns:.1f} turns, {result.mean_rounds:.2f} rounds per game; "
        f"{elapsed:.0f} s with {args.workers} workers",
        flush=True,
    )
    return {"match": name, "target": target, **result.to_json(), "wall_seconds": elapsed}


def time_decisions(spec: str, games: int, seed: int, players: int) -> dict[str, float]:
    """Time every decision of ``spec`` in a few games against greedy bots, in-process."""
    times: list[float] = []

    class Timed:
        def __init__(self, bot: bots.Bot) -> None:
            self.bot = bot
            inform = getattr(bot, "inform", None)
            if inform is not None:  # let the bot follow the game as it would alone
                self.inform = inform

        def choose(self, view: cr.PlayerView) -> cr.Action:
            begin = time.perf_counter()
            action = self.bot.choose(view)
            times.append(time.perf_counter() - begin)
            return action

    options = cr.GameOptions(num_players=players)
    start = cr.new_game(options, seed)  # one untimed decision: the expert's kernels compile
    cr.bots.make_bot(spec, seed).choose(cr.observe(start, start.current_player))
    for game in range(games):
        timed = Timed(cr.bots.make_bot(spec, bots.derive_seed(seed, 2, game)))
        seats: list[cr.bots.Bot] = [
            cr.bots.GreedyBot(seed=game * players + k) for k in range(players)
        ]
        seats[game % players] = timed
        cr.bots.play_game(options, bots.derive_seed(seed, 3, game), seats)
    times.sort()
    summary = {
        "decisions": float(len(times)),
        "mean": statistics.fmean(times),
        "median": statistics.median(times),
        "p90": times[int(0.9 * (len(times) - 1))],
        "max": times[-1],
    }
    print(
        f"timing: {spec} among greedy bots, {players} players, one process, "
        f"{len(times)} decisions of {games} games: "
        f"mean {summary['mean']:.3f} s, median {summary['median']:.3f} s, "
        f"90th percentile {summary['p90']:.3f} s, max {summary['max']:.3f} s per decision",
        flush=True,
    )
    return summary


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--only",
        nargs="+",
        choices=[*MATCHES, "timing"],
        default=["greedy", "ismcts2", "ismcts4", "timing"],
        help="what to run (default: the matches of greedy and ismcts, and the timing)",
    )
    parser.add_argument("--workers", type=int, default=2, help="worker processes (2)")
    parser.add_argument("--seed", type=int, default=1, help="tournament seed (1)")
    parser.add_argument("--games", type=int, help="override the number of games of each match")
    parser.add_argument(
        "--bot", help="the spec measured in the ismcts matches and the timing (default: ismcts)"
    )
    parser.add_argument(
        "--expert", default="expert:seconds=0.2", help="the expert's spec in its matches"
    )
    parser.add_argument(
        "--ismcts", default="ismcts:seconds=0.2", help="the ismcts spec in the expert's matches"
    )
    parser.add_argument("--timing-games", type=int, default=6, help="games timed (6)")
    parser.add_argument("--json", help="write every result to this file as JSON")
    args = parser.parse_args(argv)
    if args.workers < 1 or (args.games is not None and args.games < 1):
        parser.error("--workers and --games must be positive")
    for spec in (args.bot, args.expert, args.ismcts):
        try:
            if spec:
                cr.bots.parse_bot_spec(spec)
        except cr.bots.BotSpecError as error:
            parser.error(str(error))
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    print(f"cuckoo-rules {cr.__version__} bot strength on {machine()}; seed {args.seed}")
    results: list[dict[str, object]] = []
    for name in MATCHES:
        if name in args.only:
            results.append(run_match(name, args))
    if "timing" in args.only:
        for players in (2, 4):
            timing = time_decisions(args.bot or "ismcts", args.timing_games, args.seed, players)
            results.append({"match": f"timing{players}", **timing})
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
