"""``cuckoo-rules tournament``: play many games between bots and print their win rates."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Callable, Iterator, Sequence

from .. import bots
from ..bots.specs import BotImport, is_import_spec, parse_entrant
from .parser import (
    PROG,
    Commands,
    add_option_arguments,
    add_players_argument,
    add_seed_argument,
    checked_options,
    command_failed,
    describe_options,
    seed_from_args,
)

__all__ = ["add_command", "tournament_table"]


def add_command(commands: Commands) -> None:
    """Declare ``tournament`` and its arguments: bots, games, workers, seed, JSON output."""
    kinds = "; ".join(
        f"{kind.name} ({kind.summary}"
        + (f"; parameters {', '.join(kind.parameters)}" if kind.parameters else "")
        + ")"
        for kind in bots.BOT_KINDS.values()
    )
    tournament = commands.add_parser(
        "tournament",
        help="play many games between bots and report their win rates",
        description=(
            "Play games between bots, one per seat, with the seats rotated so that every "
            "bot plays every seat of every deal equally often, then print each bot's share "
            "of victories (a victory shared by k players counts 1/k to each) with a 95% "
            "Wilson confidence interval, and the mean turns and rounds per game. Every "
            "game is reproducible from the options, the seed and its index. "
            f"Bots: {kinds}. ismcts searches {bots.DEFAULT_ITERATIONS} iterations per "
            "decision unless given iterations or seconds; expert (with the batch extra) "
            "plays 2000 simulations unless given simulations or seconds."
        ),
        epilog=(
            f"example: {PROG} tournament --players 2 --bots ismcts:iterations=300,greedy "
            "--games 200 --workers 2 --seed 1 --json results.json"
        ),
    )
    add_players_argument(tournament, 2)
    tournament.add_argument(
        "--bots",
        required=True,
        metavar="SPECS",
        help=(
            "one bot spec per player, comma-separated, or one for all: "
            "KIND[:NAME=VALUE...], for example 'greedy,random' or "
            "'ismcts:seconds=0.1,greedy'; a bot of your own as MODULE:NAME[:KEY=VALUE...] "
            "(for example 'mypkg.bots:MyBot'), a callable in an importable module (or in "
            "the current folder) that makes a bot from a seed, called as NAME(seed, "
            "KEY=VALUE...); a spec given twice (or alone, for all) is reported as SPEC#1, "
            "SPEC#2"
        ),
    )
    tournament.add_argument(
        "--games",
        type=int,
        default=100,
        metavar="G",
        help="number of games, a multiple of the number of players (default: %(default)s)",
    )
    tournament.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="W",
        help="worker processes to play the games in parallel (default: %(default)s)",
    )
    add_seed_argument(tournament, "tournament", "printed")
    tournament.add_argument(
        "--json", metavar="PATH", help="also write the results to this file as JSON"
    )
    tournament.add_argument(
        "--no-progress", action="store_true", help="do not show a progress bar on stderr"
    )
    add_option_arguments(tournament)
    tournament.set_defaults(handler=_run, command_parser=tournament)


def _run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Play a tournament, print its table and write its JSON; bad arguments are usage errors."""
    options = checked_options(args, parser)
    specs = _entrants_from_args(args, parser)
    if len(specs) == 1:  # one spec for all seats, as play takes it
        specs *= options.num_players
    if len(specs) != options.num_players:
        parser.error(
            f"argument --bots: {len(specs)} bot specs for {options.num_players} players "
            "(give one bot spec per player, or one for all)"
        )
    games: int = args.games
    if games < 1 or games % options.num_players:
        parser.error(
            f"argument --games: {games} is not a positive multiple of {options.num_players} "
            "(the number of players), so the seats cannot be rotated equally"
        )
    workers: int = args.workers
    if workers < 1:
        parser.error(f"argument --workers: {workers} is not a positive number of processes")
    seed = seed_from_args(args, parser)
    json_path: str | None = args.json
    if json_path is not None and not os.path.isdir(os.path.dirname(json_path) or "."):
        parser.error(f"argument --json: the folder of {json_path!r} does not exist")
    print(
        f"Tournament: {games} games, {options.num_players} players, seed {seed}, "
        f"options: {describe_options(options)}"
    )
    with _progress_reporter(games, enabled=not args.no_progress) as report:
        result = bots.run_tournament(options, specs, games, seed, workers=workers, progress=report)
    for line in tournament_table(result):
        print(line)
    if json_path is not None:
        try:
            with open(json_path, "w", encoding="utf-8") as out:
                json.dump(result.to_json(), out, indent=2)
                out.write("\n")
        except OSError as error:
            return command_failed("tournament", f"cannot write {json_path}: {error}")
        print(f"Results written to {json_path}")
    return 0


def _entrants_from_args(
    args: argparse.Namespace, parser: argparse.ArgumentParser
) -> tuple[bots.BotSpec | BotImport, ...]:
    """The entrants of ``--bots``: bot specs or import specs; a bad one is a usage error.

    The current folder is put on the Python path (as ``python -m`` does), so that
    ``--bots mybots:MyBot`` finds ``mybots.py`` there; worker processes inherit it.
    """
    text: str = args.bots
    if not text.strip():
        parser.error(f"argument --bots: expected a comma-separated list of bot specs, got {text!r}")
    items = text.split(",")
    if any(is_import_spec(item) for item in items) and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        return tuple(parse_entrant(item) for item in items)
    except bots.BotSpecError as error:
        parser.error(f"argument --bots: {error}")


@contextlib.contextmanager
def _progress_reporter(total: int, *, enabled: bool) -> Iterator[Callable[[int, int], object]]:
    """Yield a ``progress(done, total)`` callback that shows progress on stderr.

    With ``rich`` installed (the ``tournament`` extra) it is a progress bar; without,
    a line at every tenth of the games. Disabled, it does nothing.
    """
    if not enabled:
        yield _ignore_progress
        return
    try:
        from rich.console import Console
        from rich.progress import Progress
    except ImportError:
        step = max(1, total // 10)
        shown = [0]

        def plain(done: int, total: int) -> None:
            if done >= shown[0] + step or done == total:
                shown[0] = done
                print(f"played {done}/{total} games", file=sys.stderr, flush=True)

        yield plain
        return
    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("playing", total=total)

        def fancy(done: int, total: int) -> None:
            bar.update(task, completed=done)

        yield fancy


def _ignore_progress(done: int, total: int) -> None:
    """A progress callback that shows nothing."""


def tournament_table(result: bots.TournamentResult) -> list[str]:
    """Return the lines of a tournament's results table (a rich table if rich is installed).

    Columns: the bot's label, its win rate, the 95% Wilson interval, its share of
    victories and its mean thinking time per decision; then a line with the mean turns
    and rounds per game.
    """
    headers = ("bot", "win rate", "95% CI", "victories", "ms/decision")
    rows = [
        (
            entrant.label,
            f"{entrant.win_rate:.3f}",
            f"{entrant.interval[0]:.3f}-{entrant.interval[1]:.3f}",
            f"{entrant.victories:g}",
            f"{1000 * entrant.seconds_per_decision:.2f}",
        )
        for entrant in result.entrants
    ]
    summary = (
        f"{len(result.games)} games: mean {result.mean_turns:.1f} turns and "
        f"{result.mean_rounds:.2f} rounds per game"
    )
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        return [*_plain_table(headers, rows), summary]
    table = Table(*headers, title=None)
    for column in table.columns[1:]:
        column.justify = "right"
    for row in rows:
        table.add_row(*row)
    console = Console(width=100, color_system=None, force_terminal=False)
    with console.capture() as capture:
        console.print(table)
    return [*capture.get().rstrip("\n").split("\n"), summary]


def _plain_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Align a table in plain text: the first column left, the others right."""
    widths = [max(len(row[k]) for row in [headers, *rows]) for k in range(len(headers))]

    def line(cells: Sequence[str]) -> str:
        first, *rest = cells
        return "  ".join(
            [first.ljust(widths[0]), *(c.rjust(w) for c, w in zip(rest, widths[1:], strict=True))]
        ).rstrip()

    return [line(headers), "  ".join("-" * w for w in widths), *(line(row) for row in rows)]
