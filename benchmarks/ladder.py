"""Benchmark: an Elo ladder of the bots, from round robins at 2 and at 4 players.

For each player count ``n`` of ``--players``, every ``n``-combination of the entrants
(with 2 players every pair, with 4 players and exactly 4 entrants the one table) plays
``--games`` games with the tournament runner: seats rotated, each game reproducible on
its own from the line-up's seed, ``derive_seed(--seed, n, *entrant indices)``. The games
of a player count are then fitted into one rating list by
:func:`cuckoo_rules.bots.ratings.fit_elo` (Bradley-Terry on the Elo scale, the winner of
a table drawn in proportion to strength, 95% percentile intervals of a parametric
bootstrap: every game played again from the fitted strengths and the ratings fitted
again) and anchored so that ``--anchor`` (default ``greedy``, or the first bot without
it) has ``--anchor-elo`` (1000).

Usage::

    python benchmarks/ladder.py --workers 2              # the default ladder, seed 1
    python benchmarks/ladder.py --bots random,greedy --players 2 --games 20 --no-plot

Writes the results, the machine and every game's winners as JSON (``--out``) and plots
the ratings with their intervals (``--plot``, if matplotlib is installed). The time per
decision is each bot's mean thinking time over all its games of that player count; each
bot first makes one untimed decision in this process, so that compiling the expert's
kernels is not counted (worker processes still load them from numba's cache once).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import itertools
import json
import math
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cuckoo_rules as cr
from cuckoo_rules.bots import derive_seed, run_tournament
from cuckoo_rules.bots.ratings import (
    INTERVAL_METHODS,
    RATING_MODELS,
    Rating,
    fit_elo,
    rated_games,
)
from cuckoo_rules.bots.tournament import worker_pool

sys.path.insert(0, str(Path(__file__).resolve().parent))
from playouts import machine, machine_info  # (a sibling script)

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_BOTS = "random,greedy,ismcts,expert"
DEFAULT_ANCHOR = "greedy"
INTERVAL_SOURCES = {"model": "games played again", "games": "games resampled"}
"""What each interval method of ``fit_elo`` refits on, for the table and the plot."""


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--bots", default=DEFAULT_BOTS, help=f"comma-separated bot specs ({DEFAULT_BOTS})"
    )
    parser.add_argument("--players", default="2,4", help="comma-separated player counts (2,4)")
    parser.add_argument(
        "--games",
        type=int,
        default=40,
        help="games per line-up, a multiple of every player count (40)",
    )
    parser.add_argument("--seed", type=int, default=1, help="ladder seed (1)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (1)")
    parser.add_argument(
        "--out",
        type=Path,
        default=ROOT / "benchmarks" / "results-ladder.json",
        help="JSON results (benchmarks/results-ladder.json)",
    )
    parser.add_argument(
        "--plot",
        type=Path,
        default=ROOT / "docs" / "assets" / "ladder.png",
        help="the plot of the ratings (docs/assets/ladder.png)",
    )
    parser.add_argument("--no-plot", action="store_true", help="do not draw the plot")
    parser.add_argument(
        "--anchor",
        help=f"the bot whose rating is --anchor-elo (default: {DEFAULT_ANCHOR}, or the first bot)",
    )
    parser.add_argument(
        "--anchor-elo", type=float, default=1000.0, help="the anchor's rating (1000)"
    )
    parser.add_argument(
        "--bootstrap",
        type=int,
        default=200,
        help="bootstrap replicates for the 95%% intervals (200)",
    )
    parser.add_argument(
        "--model",
        choices=RATING_MODELS,
        default=RATING_MODELS[0],
        help=f"how a game is read (default {RATING_MODELS[0]}; see cuckoo_rules.bots.ratings)",
    )
    parser.add_argument(
        "--interval",
        choices=INTERVAL_METHODS,
        default=INTERVAL_METHODS[0],
        help=(
            f"how the intervals' replicates are drawn (default {INTERVAL_METHODS[0]}: the "
            "games played again from the fitted model; games: the games resampled)"
        ),
    )
    args = parser.parse_args(argv)
    try:
        specs = cr.bots.parse_bot_specs(args.bots)
    except cr.bots.BotSpecError as error:
        parser.error(str(error))
    args.labels = [spec.text for spec in specs]
    if len(set(args.labels)) != len(args.labels):
        parser.error(f"--bots: a bot is named twice in {args.bots!r}")
    try:
        args.player_counts = sorted({int(item) for item in args.players.split(",")})
    except ValueError:
        parser.error(f"--players: expected comma-separated integers, got {args.players!r}")
    for players in args.player_counts:
        if not 2 <= players <= 5:
            parser.error(f"--players: {players} is not a number of players (2 to 5)")
        if players > len(args.labels):
            parser.error(f"--players: a table of {players} needs at least {players} bots")
    if args.games < 1 or any(args.games % players for players in args.player_counts):
        parser.error(
            f"--games: {args.games} is not a positive multiple of every player count "
            f"({args.players}), so the seats cannot be rotated equally"
        )
    if args.workers < 1:
        parser.error("--workers must be positive")
    if args.bootstrap < 0:
        parser.error("--bootstrap must not be negative")
    if not math.isfinite(args.anchor_elo):
        parser.error("--anchor-elo must be finite")
    if args.anchor is None:
        args.anchor = DEFAULT_ANCHOR if DEFAULT_ANCHOR in args.labels else args.labels[0]
    elif args.anchor.strip() not in args.labels:
        parser.error(f"--anchor: {args.anchor!r} is not one of --bots ({', '.join(args.labels)})")
    args.anchor = args.anchor.strip()
    return args


def warm_up(labels: Sequence[str]) -> float:
    """Make one decision with each bot, so that compiling (numba) is not timed; seconds."""
    start = time.perf_counter()
    state = cr.new_game(cr.GameOptions(num_players=2), seed=0)
    for label in labels:
        cr.bots.make_bot(label, 0).choose(cr.observe(state, state.current_player))
    return time.perf_counter() - start


def play_ladder(
    players: int, args: argparse.Namespace, executor: concurrent.futures.Executor | None
) -> dict[str, Any]:
    """Play every line-up of ``players`` seats and fit their games into one rating list."""
    options = cr.GameOptions(num_players=players)
    start = time.perf_counter()
    results: list[cr.bots.TournamentResult] = []
    lineups: list[dict[str, Any]] = []
    for entrants in itertools.combinations(range(len(args.labels)), players):
        seed = derive_seed(args.seed, players, *entrants)
        bots = [args.labels[entrant] for entrant in entrants]
        begin = time.perf_counter()
        result = run_tournament(
            options, bots, args.games, seed, workers=args.workers, executor=executor
        )
        seconds = time.perf_counter() - begin
        print(
            f"  {players} players: {' vs '.join(bots)}: {len(result.games)} games, {seconds:.1f} s",
            file=sys.stderr,
            flush=True,
        )
        results.append(result)
        lineups.append(
            {
                **result.to_json(),
                "wall_seconds": seconds,
                "outcomes": [
                    {"seating": list(game.seating), "winners": list(game.winners)}
                    for game in result.games
                ],
            }
        )
    ratings = fit_elo(
        rated_games(*results),
        anchor=args.anchor,
        anchor_elo=args.anchor_elo,
        bootstrap=args.bootstrap,
        seed=args.seed,
        model=args.model,
        interval=args.interval,
    )
    decisions = dict.fromkeys(args.labels, 0)
    thinking = dict.fromkeys(args.labels, 0.0)
    victories = dict.fromkeys(args.labels, 0.0)
    for result in results:
        for entrant in result.entrants:
            decisions[entrant.label] += entrant.decisions
            thinking[entrant.label] += entrant.think_seconds
            victories[entrant.label] += entrant.victories
    return {
        "players": players,
        "lineups": lineups,
        "ratings": [
            {
                "label": rating.label,
                "elo": rating.elo,
                "interval95": [rating.low, rating.high],
                "games": rating.games,
                "victories": victories[rating.label],
                "decisions": decisions[rating.label],
                "seconds_per_decision": (
                    thinking[rating.label] / decisions[rating.label]
                    if decisions[rating.label]
                    else 0.0
                ),
            }
            for rating in ratings
        ],
        "wall_seconds": time.perf_counter() - start,
    }


def table(ladder: dict[str, Any], args: argparse.Namespace) -> str:
    """The rating list of one player count, as aligned text."""
    players = ladder["players"]
    lines = [
        f"{players} players: {len(ladder['lineups'])} line-up(s) of {args.games} games, "
        f"{args.model} model, {args.anchor} anchored at {args.anchor_elo:g}, "
        f"intervals from {INTERVAL_SOURCES[args.interval]}",
        f"{'bot':<28} {'Elo':>6}  {'95% interval':>13}  {'games':>5}  {'s/decision':>10}",
    ]
    notes: list[str] = []
    for rating in ladder["ratings"]:
        low, high = rating["interval95"]
        lines.append(
            f"{rating['label']:<28} {rating['elo']:>6.0f}  {low:>6.0f}-{high:<6.0f}  "
            f"{rating['games']:>5}  {rating['seconds_per_decision']:>10.4f}"
        )
        if rating["victories"] in (0, rating["games"]):
            lost = rating["victories"] == 0
            side, end = ("below", "low") if lost else ("above", "high")
            caveat = "" if args.interval == "model" else "; resampled, the interval is too narrow"
            notes.append(
                f"  note: {rating['label']} {'lost' if lost else 'won'} every game: the games "
                f"only put it {side} its opponents; how far {side}, and the {end} end of its "
                f"interval, rest on the prior{caveat}"
            )
    return "\n".join(lines + notes)


def plot(ladders: Sequence[dict[str, Any]], args: argparse.Namespace, path: Path) -> bool:
    """Draw every player count's ratings with their intervals; False without matplotlib."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    figure, axes = plt.subplots(figsize=(7.0, 4.0), layout="constrained")
    positions = {label: index for index, label in enumerate(args.labels)}
    width = 0.5 / max(1, len(ladders))
    for number, ladder in enumerate(ladders):
        ratings = [
            Rating(r["label"], r["elo"], r["interval95"][0], r["interval95"][1], r["games"])
            for r in ladder["ratings"]
        ]
        offset = (number - (len(ladders) - 1) / 2) * width
        axes.errorbar(
            [positions[r.label] + offset for r in ratings],
            [r.elo for r in ratings],
            yerr=[[r.elo - r.low for r in ratings], [r.high - r.elo for r in ratings]],
            fmt="o",
            capsize=4,
            label=f"{ladder['players']} players",
        )
    axes.set_xticks(range(len(args.labels)), args.labels, rotation=15)
    axes.set_ylabel(f"Elo ({args.anchor} = {args.anchor_elo:g})")
    axes.set_title(
        f"Bot ladder: {args.games} games per line-up, "
        f"95% intervals from {INTERVAL_SOURCES[args.interval]}"
    )
    axes.grid(axis="y", alpha=0.3)
    axes.legend()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=150)
    plt.close(figure)
    return True


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    print(
        f"cuckoo-rules {cr.__version__} bot ladder on {machine()}; seed {args.seed}; "
        f"bots {', '.join(args.labels)}",
        flush=True,
    )
    start = time.perf_counter()
    print(f"  warm-up: one decision of each bot, {warm_up(args.labels):.1f} s", file=sys.stderr)
    ladders: list[dict[str, Any]] = []
    executor = (
        worker_pool(args.workers)  # fresh processes: the warm-up ran the expert's kernels here
        if args.workers > 1
        else None
    )
    try:
        for players in args.player_counts:
            ladder = play_ladder(players, args, executor)
            ladders.append(ladder)
            print(table(ladder, args), flush=True)
    finally:
        if executor is not None:
            executor.shutdown(cancel_futures=True)
    document = {
        "benchmark": "ladder",
        "version": cr.__version__,
        "machine": machine_info(),
        "command": " ".join(
            ["python", "benchmarks/ladder.py", *(sys.argv[1:] if argv is None else argv)]
        ),
        "seed": args.seed,
        "bots": args.labels,
        "games_per_lineup": args.games,
        "workers": args.workers,
        "model": args.model,
        "anchor": args.anchor,
        "anchor_elo": args.anchor_elo,
        "bootstrap": args.bootstrap,
        "interval": args.interval,
        "ladders": ladders,
        "wall_seconds": time.perf_counter() - start,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(document, indent=2) + "\n")
    print(f"results written to {args.out}")
    if not args.no_plot:
        if plot(ladders, args, args.plot):
            print(f"plot written to {args.plot}")
        else:
            print("matplotlib is not installed: no plot (pip install matplotlib)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
