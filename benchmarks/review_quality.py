"""Benchmark: does the review mean something? Costs by bot strength, and the chart's end.

Plays two-player games between the bots ``random``, ``greedy``, ``ismcts`` and ``expert``
(``--bots``), a round robin: game ``g`` is the pairing ``g // 2`` (of the six, in turn),
the seats swapped between games ``2k`` and ``2k + 1``, which share their deal, every
game dealt and seeded exactly as :func:`~cuckoo_rules.bots.run_tournament` does it
(:func:`~cuckoo_rules.bots.play_tournament_game`). It reviews each game with
:func:`~cuckoo_rules.bots.review.review` (``--simulations`` per legal action, every seat)
and reports:

1. **the average cost per decision of each bot kind**: the mean over the games of the
   kind's average cost in the game, with a 95% interval (Student's t over the games,
   since the decisions of one game are not independent), and the mean over all its
   decisions. A review that means something ranks them in their order of strength:
   expert < ismcts < greedy < random. These means mix the opponents: a seat far behind
   (or far ahead) loses little chance by any move, so a bot that is always far behind
   looks better than it plays; hence also
2. **head to head**: in each pairing's games, each side's cost per decision and the
   difference (weaker minus stronger, 95% t interval over the games): the same games,
   the same context;
3. **the winner's chance at the last move before the end** (the chart's
   ``chances[moves - 1]``, summed over the winners of a shared victory): it should be
   near 1, the game's result being close by then.

Games are played and reviewed ``--workers`` at a time, in worker processes. Usage::

    nice -n 10 python benchmarks/review_quality.py --games 12 --workers 2
    python benchmarks/review_quality.py --start 12 --games 12 --json b.json   # more games...
    python benchmarks/review_quality.py --combine a.json b.json              # ...reported together
    python benchmarks/review_quality.py --games 48 --simulations 300 --json out.json
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import math
import os
import statistics
import sys
import time
from typing import Any

import cuckoo_rules as cr
from cuckoo_rules import bots
from cuckoo_rules.bots.review import review

PLAYERS = 2
KINDS = ("random", "greedy", "ismcts", "expert")
PAIRS = tuple((a, b) for a in range(len(KINDS)) for b in range(a + 1, len(KINDS)))
"""The round robin's pairings, as indices into :data:`KINDS`."""
_T95 = {  # Student's t, two-sided 95%, by degrees of freedom (above 30: 1.96 is close)
    1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
    9: 2.262, 10: 2.228, 12: 2.179, 15: 2.131, 20: 2.086, 25: 2.060, 30: 2.042,
}  # fmt: skip


def t95(freedom: int) -> float:
    """Student's t quantile for a two-sided 95% interval (the table's nearest below)."""
    if freedom > max(_T95):
        return 1.96
    return _T95[max(k for k in _T95 if k <= freedom)]


def interval(values: list[float]) -> tuple[float, float, float]:
    """The mean of ``values`` and its 95% t interval (the mean twice if one value)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, mean, mean
    half = t95(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def play_and_review(
    specs: tuple[str, ...], seed: int, index: int, simulations: int
) -> dict[str, Any]:
    """Play game ``index`` of the round robin and review it; what the report needs of it."""
    options = cr.GameOptions(num_players=PLAYERS)
    pair = PAIRS[(index // PLAYERS) % len(PAIRS)]
    begin = time.perf_counter()
    game = bots.play_tournament_game(options, [specs[k] for k in pair], seed, index)
    played = time.perf_counter() - begin
    begin = time.perf_counter()
    result = review(game.record, simulations=simulations, seed=seed + index)
    reviewed = time.perf_counter() - begin
    order = [pair[e] for e in bots.seating(index, PLAYERS)]  # each seat's kind
    costs: dict[str, list[float]] = {kind: [] for kind in KINDS}
    for decision in result.decisions:
        costs[KINDS[order[decision.seat]]].append(decision.cost)
    last = result.chances[result.moves - 1] if result.moves else result.chances[0]
    return {
        "index": index,
        "simulations": simulations,
        "moves": result.moves,
        "costs": costs,
        "winners": [KINDS[order[seat]] for seat in game.winners],
        "winner_chance_before_end": math.fsum(last[seat] for seat in game.winners),
        "play_seconds": played,
        "review_seconds": reviewed,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=12, help="games (12: each pairing twice)")
    parser.add_argument("--simulations", type=int, default=100, help="review budget per action")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--bots",
        default="random,greedy,ismcts,expert",
        help="the four entrants' specifications, weakest first, as random,greedy,ismcts,expert",
    )
    parser.add_argument("--start", type=int, default=0, help="the first game's index")
    parser.add_argument("--json", help="also write the figures and the games to this file")
    parser.add_argument(
        "--combine",
        nargs="+",
        metavar="JSON",
        help="report on the games of earlier runs' --json files instead of playing",
    )
    args = parser.parse_args(argv)
    specs = tuple(args.bots.split(","))
    if len(specs) != len(KINDS):
        parser.error(f"--bots: expected {len(KINDS)} specifications")
    load = os.getloadavg()
    begin = time.perf_counter()
    if args.combine:
        games = []
        for name in args.combine:
            with open(name, encoding="utf-8") as given:
                games += json.load(given)["games"]
        games.sort(key=lambda g: g["index"])
        print(f"combined {len(games)} games from {len(args.combine)} runs")
    else:
        with concurrent.futures.ProcessPoolExecutor(args.workers) as pool:
            futures = [
                pool.submit(play_and_review, specs, args.seed, index, args.simulations)
                for index in range(args.start, args.start + args.games)
            ]
            games = [future.result() for future in futures]
    elapsed = time.perf_counter() - begin
    print(
        f"{len(games)} two-player games ({', '.join(specs)}), review at "
        f"{args.simulations} simulations per action, seed {args.seed}, "
        f"{elapsed:.0f} s, load {load[0]:.2f} -> {os.getloadavg()[0]:.2f}"
    )
    print(f"{'bot':8} {'decisions':>9} {'cost/decision (games, 95% t)':>30} {'pooled':>8}")
    figures: dict[str, Any] = {"kinds": {}}
    for kind in KINDS:
        per_game = [statistics.fmean(g["costs"][kind]) for g in games if g["costs"][kind]]
        pooled = [c for g in games for c in g["costs"][kind]]
        if not pooled:  # the kind played no game of these
            continue
        mean, low, high = interval(per_game)
        print(
            f"{kind:8} {len(pooled):9d} {mean:12.4f} ({low:.4f} to {high:.4f})"
            f" {statistics.fmean(pooled):8.4f}"
        )
        figures["kinds"][kind] = {
            "decisions": len(pooled),
            "mean": mean,
            "low": low,
            "high": high,
            "pooled": statistics.fmean(pooled),
        }
    # Head to head: the same games, so the same context (a seat far behind or far ahead
    # loses little by any move; the pooled means above mix the opponents).
    print("head to head, cost per decision in the pairing's games (95% t over the games):")
    figures["pairs"] = {}
    for p, (a, b) in enumerate(PAIRS):
        own = [g for g in games if (g["index"] // PLAYERS) % len(PAIRS) == p]
        if not own:
            continue
        weak = [statistics.fmean(g["costs"][KINDS[a]]) for g in own]
        strong = [statistics.fmean(g["costs"][KINDS[b]]) for g in own]
        diff, low, high = interval([x - y for x, y in zip(weak, strong, strict=True)])
        name = f"{KINDS[a]}-{KINDS[b]}"
        print(
            f"  {KINDS[a]:7} {statistics.fmean(weak):.4f}  {KINDS[b]:7} "
            f"{statistics.fmean(strong):.4f}  difference {diff:+.4f} ({low:+.4f} to {high:+.4f}),"
            f" {len(own)} games"
        )
        figures["pairs"][name] = {"games": len(own), "difference": diff, "low": low, "high": high}
    wins = {
        kind: sum(1 / len(g["winners"]) for g in games if kind in g["winners"]) for kind in KINDS
    }
    chances = [g["winner_chance_before_end"] for g in games]
    mean, low, high = interval(chances)
    print("wins: " + ", ".join(f"{kind} {wins[kind]:g}" for kind in KINDS))
    print(
        f"winner's chance before the last move: mean {mean:.3f} ({low:.3f} to {high:.3f}), "
        f"min {min(chances):.3f}"
    )
    reviews = [g["review_seconds"] for g in games]
    print(
        f"review time per game: mean {statistics.fmean(reviews):.1f} s, moves per game: mean "
        f"{statistics.fmean(g['moves'] for g in games):.0f}"
    )
    figures.update(
        games=games,
        simulations=args.simulations,
        seed=args.seed,
        bots=list(specs),
        wins=wins,
        winner_chance_before_end={"mean": mean, "low": low, "high": high, "min": min(chances)},
        review_seconds_mean=statistics.fmean(reviews),
        seconds=elapsed,
        load=load[0],
    )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(figures, out, indent=1)
    ranked = sorted(figures["kinds"], key=lambda kind: figures["kinds"][kind]["mean"])
    print("ranking, least cost first: " + " < ".join(ranked))
    return 0


if __name__ == "__main__":
    sys.exit(main())
