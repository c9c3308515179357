"""The ``cuckoo-rules`` command line.

Subcommands:

- ``demo``: play a seeded game between random players and print it turn by turn.
- ``tournament``: play many games between bots and print their win rates.
- ``play``: play a game in the terminal against bots (``--resume`` goes on with a saved one).
- ``replay``: step through a saved game record (``g N`` jumps to move ``N``).
- ``serve``: serve games in the browser over HTTP (needs the ``web`` extra).

Each subcommand has an ``_add_<name>_command`` function that declares its arguments and
a ``_run_<name>`` handler; :func:`main` parses the arguments and calls the handler.

Games run on a :class:`cuckoo_rules.Match` and are told by :mod:`cuckoo_rules.narration`
(the sentences every front end uses), from a spectator's view and events: the command
line holds no rule of its own. Seats and rows are numbered from 0, as in the API.
``--lang en|de|ru`` sets the language of ``demo``, ``play`` and ``replay``: every text
they print is a phrase (``terminal.*`` keys and the narration's) of that language.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import secrets
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol

import cuckoo_rules as cr

from . import bots, narration, terminal
from .options import OptionInfo, option_info
from .rng import SEED_LIMIT

__all__ = [
    "build_parser",
    "describe_events",
    "describe_game_over",
    "describe_setup",
    "main",
    "play_random_game",
    "replay_command",
    "tournament_table",
]


class _Commands(Protocol):
    """The subcommands of a parser (what ``ArgumentParser.add_subparsers`` returns)."""

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser:
        """Add a subcommand and return its parser."""
        ...


PROG = "cuckoo-rules"
"""The name of the console script."""

Handler = Callable[[argparse.Namespace, argparse.ArgumentParser], int]
"""A subcommand: takes the parsed arguments and its own parser, returns the exit status."""

_DEFAULTS = cr.GameOptions(num_players=3)
"""The option defaults shown by ``--help`` (and the default player count)."""


# --------------------------------------------------------------------------- entry point


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line.

    Args:
        argv: The arguments after the program name; ``None`` reads ``sys.argv[1:]``.

    Returns:
        The exit status (0 on success). Bad arguments exit with status 2 through
        :class:`SystemExit`, as argparse does.
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Handler = args.handler
    command_parser: argparse.ArgumentParser = args.command_parser
    try:
        return handler(args, command_parser)
    except BrokenPipeError:  # e.g. ``cuckoo-rules demo | head``
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of ``cuckoo-rules`` with every subcommand."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Command line of cuckoo-rules, a rules engine for the card game CuBirds.",
        epilog=f"Run '{PROG} COMMAND --help' for the options of a command.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {cr.__version__}")
    commands = parser.add_subparsers(
        title="commands", dest="command", metavar="COMMAND", required=True
    )
    _add_demo_command(commands)
    _add_tournament_command(commands)
    _add_play_command(commands)
    _add_replay_command(commands)
    _add_serve_command(commands)
    return parser


# --------------------------------------------------------------------------- demo command


def _add_demo_command(commands: _Commands) -> None:
    """Declare ``demo`` and its arguments: player count, seed and every game option."""
    demo = commands.add_parser(
        "demo",
        help="play a seeded game between random players and print it",
        description=(
            "Play a game between players who choose uniformly at random among their legal "
            "actions, and print it turn by turn. The seed fixes both the deal and the "
            "players' choices, so the same arguments always print the same game. "
            "Seats and rows are numbered from 0."
        ),
        epilog=f"example: {PROG} demo --players 3 --seed 7 --round-end-timing immediate",
    )
    _add_players_argument(demo, _DEFAULTS.num_players)
    _add_seed_argument(demo)
    _add_lang_argument(demo)
    _add_option_arguments(demo)
    demo.set_defaults(handler=_run_demo, command_parser=demo)


def _add_players_argument(parser: argparse.ArgumentParser, default: int) -> None:
    """Declare ``--players N``."""
    parser.add_argument(
        "--players",
        type=int,
        default=default,
        metavar="N",
        help=(
            f"number of players, {cr.options.MIN_PLAYERS} to {cr.options.MAX_PLAYERS} "
            "(default: %(default)s)"
        ),
    )


def _add_seed_argument(
    parser: argparse.ArgumentParser, subject: str = "game", shown: str = "printed for replay"
) -> None:
    """Declare ``--seed S``, the seed of ``subject`` (a random one, ``shown``, without it)."""
    parser.add_argument(
        "--seed",
        type=int,
        metavar="S",
        help=f"seed of the {subject}, 0 to 2**64 - 1 (default: a random seed, {shown})",
    )


def _add_no_color_argument(parser: argparse.ArgumentParser) -> None:
    """Declare ``--no-color``."""
    parser.add_argument("--no-color", action="store_true", help="do not colour the species")


def _add_lang_argument(parser: argparse.ArgumentParser) -> None:
    """Declare ``--lang en|de|ru``, the language of everything printed."""
    parser.add_argument(
        "--lang",
        choices=list(narration.LANGUAGES),
        default="en",
        help="the language of the screens and the narration: English, German or Russian "
        "(default: %(default)s); the move notation stays English",
    )


_VARIANTS: tuple[OptionInfo, ...] = tuple(
    info for info in option_info() if info.name != "num_players"
)
"""The rule variants, one flag each; ``num_players`` is ``--players``."""


def _flag(name: str) -> str:
    """The flag of an option: ``round_end_timing`` -> ``--round-end-timing``."""
    return "--" + name.replace("_", "-")


def _help_text(text: str) -> str:
    """``text`` made safe for argparse's ``%`` formatting of help strings."""
    return text.replace("%", "%%")


def _add_option_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare one flag per rule variant of :class:`cuckoo_rules.GameOptions`.

    The flags, their values and their help are made from
    :func:`cuckoo_rules.options.option_info`: an option with words or numbers as values
    is ``--name VALUE``; a yes-or-no option is a switch to its other value,
    ``--no-name`` when it is on by default and ``--name`` when it is off.
    """
    group = parser.add_argument_group("rule variants (see rules.md)")
    for info in _VARIANTS:
        default = info.default
        if type(default) is bool:
            (other,) = (choice for choice in info.choices if choice.value is not default)
            flag = _flag(info.name).replace("--", "--no-", 1) if default else _flag(info.name)
            group.add_argument(
                flag,
                dest=info.name,
                action="store_false" if default else "store_true",
                help=_help_text(f"{info.description} With this flag: {other.text}."),
            )
            continue
        values = "; ".join(f"{choice.value}: {choice.text}" for choice in info.choices)
        group.add_argument(
            _flag(info.name),
            type=int if type(default) is int else str,
            choices=list(info.values),
            default=default,
            help=_help_text(f"{info.description} {values}. Default: {default}."),
        )


def _options_from_args(args: argparse.Namespace) -> cr.GameOptions:
    """Build the game options from the parsed arguments (``--players`` and every variant).

    Raises:
        InvalidOptionsError: If a value is out of range.
    """
    variants: dict[str, Any] = {info.name: getattr(args, info.name) for info in _VARIANTS}
    return cr.GameOptions(num_players=args.players, **variants)


def _checked_options(args: argparse.Namespace, parser: argparse.ArgumentParser) -> cr.GameOptions:
    """The game options of the parsed arguments; a value out of range is a usage error."""
    try:
        return _options_from_args(args)
    except cr.InvalidOptionsError as error:
        parser.error(_option_message(error))


def _seed_from_args(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """The ``--seed`` given (a usage error if out of range), or a fresh random seed."""
    chosen: int | None = args.seed
    if chosen is None:
        return secrets.randbelow(SEED_LIMIT)
    if not 0 <= chosen < SEED_LIMIT:
        parser.error(f"argument --seed: {chosen} is not an integer in [0, 2**64)")
    return chosen


def _run_demo(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Play and print a game between random players; bad arguments are usage errors."""
    seed = _seed_from_args(args, parser)
    options = _checked_options(args, parser)
    match = cr.Match(options, seed, [None] * options.num_players)
    language: str = args.lang
    command = replay_command(options, seed, language)
    print(narration.phrase("terminal.demo.seed", language, seed=seed, command=command))
    play_random_game(match, random.Random(seed), print, language)
    return 0


def _option_message(error: cr.InvalidOptionsError) -> str:
    """Turn an option error (``"num_players: 6 is not in 2..5"``) into a usage message."""
    field, _, detail = str(error).partition(": ")
    flag = "--players" if field == "num_players" else "--" + field.replace("_", "-")
    return f"argument {flag}: {detail}" if detail else str(error)


def replay_command(options: cr.GameOptions, seed: int, language: str = "en") -> str:
    """Return the ``cuckoo-rules demo`` command line that plays the same game again.

    The ``--lang`` of a language other than English is kept.
    """
    words = [PROG, "demo", "--players", str(options.num_players), "--seed", str(seed)]
    if language != "en":
        words += ["--lang", language]
    for name, value in options.to_json().items():
        default = getattr(_DEFAULTS, name)
        if name == "num_players" or value == default:
            continue
        flag = "--" + name.replace("_", "-")
        if isinstance(value, bool):
            words.append(flag if value else flag.replace("--", "--no-", 1))
        else:
            words += [flag, str(value)]
    return " ".join(words)


def play_random_game(
    match: cr.Match, rng: random.Random, emit: Callable[[str], object], language: str = "en"
) -> cr.Match:
    """Play a match to the end with uniformly random legal actions, narrating each step.

    Every seat to act that is not a bot's takes an action drawn by ``rng`` among its legal
    actions (bots, if any, play their own). The narration is a spectator's: drawn cards
    stay hidden.

    Args:
        match: The match to play, usually fresh, with ``None`` seats.
        rng: The source of the players' choices.
        emit: Called with each line of narration.
        language: The language of the narration.

    Returns:
        The match, now over.
    """
    for line in describe_setup(match.view(None), language):
        emit(line)
    while not match.is_over:
        shown = match.event_count
        if not match.play_bots():
            seat = match.view(None).current_player
            match.act(seat, rng.choice(match.legal_actions(seat)))
        for line in describe_events(match.events(None, shown), match.view(None), language):
            emit(line)
    for line in describe_game_over(match.view(None), language):
        emit(line)
    return match


# --------------------------------------------------------------------------- tournament command


def _add_tournament_command(
    commands: _Commands,
) -> None:
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
    _add_players_argument(tournament, 2)
    tournament.add_argument(
        "--bots",
        required=True,
        metavar="SPECS",
        help=(
            "one bot spec per player, comma-separated: KIND[:NAME=VALUE...], for example "
            "'greedy,random' or 'ismcts:seconds=0.1,greedy'; a spec given twice is "
            "reported as SPEC#1, SPEC#2"
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
    _add_seed_argument(tournament, "tournament", "printed")
    tournament.add_argument(
        "--json", metavar="PATH", help="also write the results to this file as JSON"
    )
    tournament.add_argument(
        "--no-progress", action="store_true", help="do not show a progress bar on stderr"
    )
    _add_option_arguments(tournament)
    tournament.set_defaults(handler=_run_tournament, command_parser=tournament)


def _run_tournament(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Play a tournament, print its table and write its JSON; bad arguments are usage errors."""
    options = _checked_options(args, parser)
    try:
        specs = bots.parse_bot_specs(args.bots)
    except bots.BotSpecError as error:
        parser.error(f"argument --bots: {error}")
    if len(specs) != options.num_players:
        parser.error(
            f"argument --bots: {len(specs)} bots for {options.num_players} players "
            "(give one bot spec per player)"
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
    seed = _seed_from_args(args, parser)
    json_path: str | None = args.json
    if json_path is not None and not os.path.isdir(os.path.dirname(json_path) or "."):
        parser.error(f"argument --json: the folder of {json_path!r} does not exist")
    print(
        f"Tournament: {games} games, {options.num_players} players, seed {seed}, "
        f"options: {_describe_options(options)}"
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
            print(f"{PROG} tournament: cannot write {json_path}: {error}", file=sys.stderr)
            return 1
        print(f"Results written to {json_path}")
    return 0


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


# --------------------------------------------------------------------------- play command


def _add_play_command(commands: _Commands) -> None:
    """Declare ``play`` and its arguments: players, seat, bots, seed, save, resume, colour."""
    play = commands.add_parser(
        "play",
        help="play a game in the terminal against bots",
        description=(
            "Play CuBirds in the terminal against bots. Each prompt shows one screen of "
            "80x24 with only what your seat may know: the four rows, your hand with each "
            "species' flock sizes, every player's hand size, collection and the cards known "
            "to be in their hand, what happened lately, and your moves, numbered. Type a "
            "move's number (or its notation, e.g. 'lay owl 2 left', 'draw', 'fly owl', "
            "'pass'); 'm' shows every move described, 'help' the commands and the rules in "
            "short, 'hint' the expert's three best moves with the estimated chance of "
            "winning after each (needs the batch extra: pip install 'cuckoo-rules[batch]'), "
            "'q' or Ctrl-D leaves (offering to save; --resume goes on later), Ctrl-C too. "
            "Round ends and the end of the game stop on a summary until Enter. Species are "
            "three letters of the language, coloured unless --no-color, NO_COLOR or an "
            "output that is not a terminal."
        ),
        epilog=(
            f"examples: {PROG} play --players 3 --seat 0 --bots greedy,ismcts --seed 7; "
            f"{PROG} play --resume game.json"
        ),
    )
    _add_players_argument(play, 2)
    play.add_argument(
        "--seat", type=int, default=0, metavar="K", help="your seat, from 0 (default: 0)"
    )
    play.add_argument(
        "--bots",
        default="greedy",
        metavar="SPECS",
        help=(
            "the opponents' bot specs in seat order, comma-separated, one per opponent or "
            "one for all: KIND[:NAME=VALUE...], e.g. 'greedy,ismcts:iterations=50' "
            "(kinds: " + ", ".join(bots.BOT_KINDS) + "; default: %(default)s)"
        ),
    )
    _add_seed_argument(play)
    play.add_argument(
        "--save",
        metavar="PATH",
        help=(
            "write the game record (JSON) to this file when the game ends or you leave "
            "(with --resume: the resumed file unless given)"
        ),
    )
    play.add_argument(
        "--resume",
        metavar="PATH",
        help=(
            "go on with an unfinished game saved by 'play' (with q or --save): the players, "
            "your seat, the bots, the seed and the rule variants come from the record"
        ),
    )
    _add_lang_argument(play)
    _add_no_color_argument(play)
    _add_option_arguments(play)
    play.set_defaults(handler=_run_play, command_parser=play)


def _play_specs(
    args: argparse.Namespace, parser: argparse.ArgumentParser, n: int
) -> list[bots.BotSpec | None]:
    """The bot spec of each seat (``None`` at the human's seat); bad ones are usage errors.

    ``--bots`` gives one spec per opponent in seat order, or one spec for all of them.
    """
    seat: int = args.seat
    if not 0 <= seat < n:
        parser.error(f"argument --seat: {seat} is not a seat of {n} players (0 to {n - 1})")
    try:
        specs: list[bots.BotSpec | None] = list(bots.parse_bot_specs(args.bots))
    except bots.BotSpecError as error:
        parser.error(f"argument --bots: {error}")
    if len(specs) == 1:
        specs *= n - 1
    if len(specs) != n - 1:
        parser.error(f"argument --bots: {len(specs)} bots for {n - 1} opponents")
    specs.insert(seat, None)
    return specs


def _console(args: argparse.Namespace) -> terminal.Console:
    """The terminal's input and output, in the language of ``--lang``.

    Coloured unless ``--no-color`` (or ``NO_COLOR``); cleared at each screen on a terminal.
    """
    return terminal.Console(
        sys.stdin,
        sys.stdout,
        terminal.color_enabled(sys.stdout, no_color=args.no_color),
        language=args.lang,
        clear=sys.stdout.isatty(),
    )


_GAME_FLAGS = ("players", "seat", "bots", "seed", *(info.name for info in _VARIANTS))
"""The arguments of ``play`` that a resumed game takes from its record instead."""


def _run_play(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Play a game in the terminal (or resume one); Ctrl-C leaves without a traceback.

    The bot of seat ``k`` gets the seed ``derive_seed(seed, 1, k)``
    (:func:`cuckoo_rules.bots.derive_seed`), as in the Gymnasium environment.
    """
    if args.resume is not None:
        return _resume(args, parser)
    seed = _seed_from_args(args, parser)
    options = _checked_options(args, parser)
    specs = _play_specs(args, parser, options.num_players)
    players = [
        None if spec is None else spec.build(bots.derive_seed(seed, 1, seat))
        for seat, spec in enumerate(specs)
    ]
    names = [terminal.HUMAN if spec is None else spec.text for spec in specs]
    console = _console(args)
    print(_say("started", args.lang, seed=seed, seat=args.seat))
    try:
        terminal.play_interactive(
            options, seed, args.seat, players, console, names=names, save=args.save
        )
    except KeyboardInterrupt:
        print("\n" + _say("interrupted", args.lang))
        return 130
    return 0


def _resume(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """``play --resume PATH``: go on with a saved game with the same seats and bots."""
    language: str = args.lang
    path: str = args.resume
    given = [
        f"--{name.replace('_', '-')}"
        for name in _GAME_FLAGS
        if getattr(args, name) != parser.get_default(name)
    ]
    if given:
        parser.error(_say("error.resume_options", language, flags=", ".join(given)))

    def fail(key: str, error: object = "") -> int:
        message = _say(key, language, path=path, error=error, detail=error)
        print(f"{PROG} play: {message}", file=sys.stderr)
        return 1

    try:
        with open(path, encoding="utf-8") as source:
            record = cr.records.load_record(source)
        over = cr.records.final_state(record).is_over
    except (OSError, cr.DecodeError, cr.RecordError) as error:
        return fail("error.read", error)
    if over or record.metadata.result is not None:
        return fail("error.resume_over")
    try:
        seat, specs = terminal.resume_seats(record)
    except terminal.ResumeError as error:
        return fail("error.resume_seats", error)
    players = [
        None if spec is None else spec.build(bots.derive_seed(record.seed, 1, k))
        for k, spec in enumerate(specs)
    ]
    names = list(record.metadata.players or ())
    print(
        _say("resumed", language, path=path, move=len(record.actions), seed=record.seed, seat=seat)
    )
    try:
        terminal.play_interactive(
            record.options,
            record.seed,
            seat,
            players,
            _console(args),
            names=names,
            save=path if args.save is None else args.save,
            resume=record,
        )
    except KeyboardInterrupt:
        print("\n" + _say("interrupted", language))
        return 130
    return 0


# --------------------------------------------------------------------------- replay command


def _add_replay_command(commands: _Commands) -> None:
    """Declare ``replay`` and its arguments: the record, the seat, language and colour."""
    replay = commands.add_parser(
        "replay",
        help="step through a saved game record",
        description=(
            "Step through a game record (as written by 'play --save') move by move, from "
            "one seat's view or, without --seat, as a spectator who sees no hand. Press "
            "Enter for the next move, 'b' then Enter to go back, 'g N' to go to move N "
            "('g 0': the deal), 'q' or Ctrl-D to leave."
        ),
        epilog=f"example: {PROG} replay game.json --seat 0",
    )
    replay.add_argument("record", metavar="PATH", help="the game record (JSON)")
    replay.add_argument(
        "--seat", type=int, metavar="K", help="watch from this seat (default: spectator)"
    )
    _add_lang_argument(replay)
    _add_no_color_argument(replay)
    replay.set_defaults(handler=_run_replay, command_parser=replay)


def _run_replay(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Step through a record; an unreadable record is an error, Ctrl-C leaves quietly."""
    language: str = args.lang
    try:
        with open(args.record, encoding="utf-8") as source:
            record = cr.records.load_record(source)
    except (OSError, cr.DecodeError) as error:
        message = _say("error.read", language, path=args.record, error=error)
        print(f"{PROG} replay: {message}", file=sys.stderr)
        return 1
    seat: int | None = args.seat
    n = record.options.num_players
    if seat is not None and not 0 <= seat < n:
        parser.error(f"argument --seat: {seat} is not a seat of {n} players (0 to {n - 1})")
    try:
        terminal.replay_interactive(record, seat, _console(args))
    except cr.RecordError as error:
        print(f"{PROG} replay: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print()
        return 130
    return 0


# --------------------------------------------------------------------------- serve command

_WEB_EXTRA_HINT = "install the web extra: pip install 'cuckoo-rules[web]'"
"""What ``serve`` prints when Starlette or uvicorn is missing."""


def _add_serve_command(commands: _Commands) -> None:
    """Declare ``serve`` and its arguments: host, port and database file."""
    serve = commands.add_parser(
        "serve",
        help="serve games in the browser over HTTP (needs the web extra)",
        description=(
            "Serve CuBirds over HTTP: a browser client at / and a JSON API under /api/, "
            "for tables of humans and bots. Every accepted move is committed to the SQLite "
            "database before it is answered, and the tables are reloaded from it on start, "
            "so stopping the server loses no move. Listens on the loopback address by "
            "default; --port 0 picks a free port. The first line printed gives the URL. "
            "Needs the web extra: pip install 'cuckoo-rules[web]'."
        ),
        epilog=f"example: {PROG} serve --port 8000 --db cuckoo.sqlite3",
    )
    serve.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: %(default)s)"
    )
    serve.add_argument(
        "--port", type=int, default=8000, help="port, 0 for a free one (default: %(default)s)"
    )
    serve.add_argument(
        "--db",
        default="cuckoo.sqlite3",
        metavar="PATH|URL",
        help=(
            "SQLite database of the tables, created if missing, used by one server at a "
            "time; or a postgresql://USER@HOST/DB URL, which several server processes may "
            "share (needs the postgres extra) (default: %(default)s)"
        ),
    )
    serve.add_argument(
        "--bot-workers",
        type=int,
        default=2,
        metavar="N",
        help=(
            "worker processes in which the bots think; 0 for threads of the server's "
            "process, without isolation (default: %(default)s)"
        ),
    )
    serve.add_argument(
        "--max-tables",
        type=int,
        metavar="N",
        help="most open tables in all; more get 429 (default: 1000)",
    )
    serve.add_argument(
        "--max-tables-per-client",
        type=int,
        metavar="N",
        help="most open tables created from one address (default: 20)",
    )
    serve.add_argument(
        "--expire-after",
        type=float,
        metavar="HOURS",
        help="hours without a move after which a table expires (default: 168, a week)",
    )
    serve.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help=(
            "also answer requests for this Host name, any port (repeatable; '*.example.org' "
            "allows a domain and its subdomains, '*' any name). Only localhost, 127.0.0.1 "
            "and [::1] are answered by default, against DNS rebinding: with --host 0.0.0.0, "
            "give the names or addresses the clients use"
        ),
    )
    serve.set_defaults(handler=_run_serve, command_parser=serve)


def _without_password(db: str) -> str:
    """The database as printed: a URL's password replaced by ``***``."""
    from urllib.parse import urlsplit, urlunsplit

    if "://" not in db:
        return db
    parts = urlsplit(db)
    if parts.password is None:
        return db
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{parts.username}:***@{host}"))


def _run_serve(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Bind the port, load the tables, print the URL and serve until interrupted.

    Returns 130 after Ctrl-C (SIGINT), 1 if the port or the database cannot be used,
    and 2 if the web extra is not installed. After SIGTERM, uvicorn shuts down cleanly
    and then ends the process with that signal.
    """
    import socket
    import sqlite3

    port: int = args.port
    if not 0 <= port <= 65535:
        parser.error(f"argument --port: {port} is not in 0..65535")
    try:
        import uvicorn

        from .web import create_app
        from .web.guard import LOOPBACK_HOSTS, AllowedHosts
        from .web.store import StorageError
    except ModuleNotFoundError as error:
        if (error.name or "").partition(".")[0] not in ("starlette", "uvicorn", "sse_starlette"):
            raise
        print(f"{PROG} serve: {_WEB_EXTRA_HINT}", file=sys.stderr)
        return 2
    allowed_hosts = (*LOOPBACK_HOSTS, *args.allow_host)
    shown_db = _without_password(args.db)
    try:
        AllowedHosts(allowed_hosts)
    except ValueError as error:
        parser.error(f"argument --allow-host: {str(error).removeprefix('allowed_hosts: ')}")
    try:
        # Built from getaddrinfo so that its proto is TCP: asyncio then sets TCP_NODELAY
        # on each connection (without it, keep-alive requests wait ~40 ms for acks).
        family, kind, proto, _, address = socket.getaddrinfo(
            args.host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP
        )[0]
        sock = socket.socket(family, kind, proto)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(address)
            sock.listen(2048)
        except OSError:
            sock.close()
            raise
    except OSError as error:
        print(f"{PROG} serve: cannot listen on {args.host} port {port}: {error}", file=sys.stderr)
        return 1
    with sock:
        try:
            limits: dict[str, Any] = {
                name: value
                for name, value in (
                    ("max_open", args.max_tables),
                    ("max_open_per_client", args.max_tables_per_client),
                    (
                        "expire_after",
                        None if args.expire_after is None else args.expire_after * 3600,
                    ),
                )
                if value is not None
            }
            app = create_app(
                args.db, allowed_hosts=allowed_hosts, bot_workers=args.bot_workers, **limits
            )
        except ValueError as error:
            if isinstance(error, StorageError):
                print(f"{PROG} serve: cannot use the database {shown_db}: {error}", file=sys.stderr)
                return 1
            parser.error(str(error))
        except (OSError, sqlite3.Error) as error:
            print(f"{PROG} serve: cannot use the database {shown_db}: {error}", file=sys.stderr)
            return 1
        host, real_port = sock.getsockname()[:2]
        shown = f"[{host}]" if ":" in host else host
        print(f"{PROG} serving on http://{shown}:{real_port}/ (database {shown_db})", flush=True)
        # Push streams end by themselves when the server stops (sse-starlette hears the
        # signal); anything still open after 10 s is cancelled rather than waited for.
        config = uvicorn.Config(
            app, log_level="info", access_log=False, lifespan="on", timeout_graceful_shutdown=10
        )
        try:
            uvicorn.Server(config).run(sockets=[sock])
        except KeyboardInterrupt:  # uvicorn has shut down cleanly, then re-raises Ctrl-C
            return 130
    return 0


# --------------------------------------------------------------------------- narration


def _spectator(state: cr.GameState | cr.PlayerView) -> cr.PlayerView:
    """What a spectator sees of ``state`` (a view is taken as it is)."""
    return state if isinstance(state, cr.PlayerView) else cr.observe(state, None)


def _say(key: str, language: str, *, count: int | None = None, **fields: object) -> str:
    """The phrase ``terminal.<key>`` in ``language`` (every text the command line prints)."""
    return narration.phrase(f"terminal.{key}", language, count=count, **fields)


def describe_setup(state: cr.GameState | cr.PlayerView, language: str = "en") -> list[str]:
    """Describe a freshly dealt game: options, dealer, rows, collections, piles.

    Args:
        state: The game as dealt, as a view (a spectator's, usually) or a state (of which
            only the public part is shown).
        language: The language of the texts (one of :data:`cuckoo_rules.narration.LANGUAGES`).
    """
    view = _spectator(state)
    n = view.num_players
    deal = cr.events.Dealt(view.round, view.dealer, view.hand_sizes, (None,) * n)
    options = _describe_options(view.options, language)
    lines = [
        _say("demo.setup", language, count=n, options=options),
        narration.describe_event(deal, None, language=language) or "",
        *_row_lines(view.rows, language),
        _say("demo.collections", language),
        *_collection_lines(view, language),
        _say(
            "demo.piles",
            language,
            cards=_say("cards", language, count=view.draw_pile_size),
            discard=view.discard_pile_size,
        ),
    ]
    return [*lines, _turn_header(view, language)]


_ROW_EVENTS = (cr.events.Laid, cr.events.Captured, cr.events.RowRefilled)


def describe_events(
    events: Sequence[cr.Event], after: cr.GameState | cr.PlayerView, language: str = "en"
) -> list[str]:
    """Describe the events of one action as the demo prints them, for a spectator.

    The sentences are :func:`cuckoo_rules.narration.narrate`'s (a lay and its capture in
    one); the demo adds what a spectator would look at next: the row once a lay (its
    capture and its refill) is told, the collection after a flock, and the header of each
    new turn. The end of the game is left to :func:`describe_game_over`.

    Args:
        events: The events of one action, in order (they are redacted for a spectator).
        after: The game after the action, as a view or a state (rows, collections and
            hand sizes are shown as they are now, as a spectator sees them).
        language: The language of the texts.

    Returns:
        The lines of the demo.
    """
    view = _spectator(after)
    seen = cr.visible_events(events, None)
    lines: list[str] = []
    told: list[cr.Event] = []  # a lay and what follows it on its row, told together
    for index, event in enumerate(seen):
        following = seen[index + 1] if index + 1 < len(seen) else None
        if isinstance(event, cr.events.TurnStarted):
            lines.append(_turn_header(view, language))
        elif isinstance(event, _ROW_EVENTS) or (told and isinstance(event, cr.events.Reshuffled)):
            told.append(event)
            if not isinstance(following, (*_ROW_EVENTS[1:], cr.events.Reshuffled)):
                lines += ["  " + line for line in narration.narrate(told, None, language=language)]
                rows = [e.row for e in told if isinstance(e, _ROW_EVENTS)]
                lines += _row_lines(view.rows, language, rows[0])
                told = []
        elif not isinstance(event, cr.events.GameOver):
            indent = "" if isinstance(event, cr.events.RoundEnded | cr.events.Dealt) else "  "
            line = narration.describe_event(event, None, language=language)
            if line is not None:
                lines.append(indent + line)
            if isinstance(event, cr.events.FlewHome):
                cards = _collection(view.collections[event.player], language)
                lines.append(_say("demo.collection", language, cards=cards))
    return lines


def describe_game_over(state: cr.GameState | cr.PlayerView, language: str = "en") -> list[str]:
    """Describe the end of a game: who won and why, its length, every final collection.

    The winners and the reason are the game's :attr:`~cuckoo_rules.PlayerView.outcome`,
    told by :func:`cuckoo_rules.narration.describe_event`.

    Args:
        state: The finished game, as a view or a state.
        language: The language of the texts.

    Raises:
        ValueError: If the game is not over.
    """
    view = _spectator(state)
    outcome = view.outcome
    if outcome is None:
        raise ValueError("the game is not over: it has no outcome to describe")
    over = cr.events.GameOver(outcome.winners, outcome.reason)
    lasted = _say(
        "lasted",
        language,
        turns=_say("turns", language, count=view.turn),
        rounds=_say("rounds", language, count=view.round),
    )
    return [
        narration.describe_event(over, None, language=language) or "",
        lasted,
        _say("demo.final", language),
        *_collection_lines(view, language),
    ]


def _turn_header(view: cr.PlayerView, language: str = "en") -> str:
    """The first line of a turn: its number, the player and their hand size."""
    p = view.current_player
    return _say(
        "demo.turn",
        language,
        turn=view.turn,
        round=view.round,
        player=narration.seat_name(p, None, language=language),
        cards=_say("cards", language, count=view.hand_sizes[p]),
    )


def _describe_options(options: cr.GameOptions, language: str = "en") -> str:
    """The options that differ from the rules' defaults, or ``"standard rules"``."""
    changed = [
        f"{name}={str(value).lower() if isinstance(value, bool) else value}"
        for name, value in options.to_json().items()
        if name != "num_players" and value != getattr(_DEFAULTS, name)
    ]
    return ", ".join(changed) if changed else _say("demo.standard", language)


def _row_lines(
    rows: Sequence[cr.state.Row], language: str = "en", only: int | None = None
) -> list[str]:
    """One line per row (or for row ``only``): ``row 0: owl duck duck robin``."""
    return [
        _say("demo.row", language, row=index, cards=_cards(row, language))
        for index, row in enumerate(rows)
        if only is None or index == only
    ]


def _collection_lines(view: cr.PlayerView, language: str = "en") -> list[str]:
    """One line per seat with its collection and its size."""
    return [
        _say(
            "demo.collection_line",
            language,
            player=narration.seat_name(seat, None, language=language),
            cards=_collection(counts, language),
            size=_say("cards", language, count=sum(counts)),
        )
        for seat, counts in enumerate(view.collections)
    ]


def _collection(counts: cr.Counts, language: str = "en") -> str:
    """A multiset as ``2 owls, 1 robin`` (``nothing`` when empty)."""
    items = [
        narration.species_name(s, n, language=language)
        for s, n in cr.state.counts_to_dict(counts).items()
    ]
    return ", ".join(items) if items else _say("nothing", language)


def _cards(cards: Sequence[cr.Species], language: str = "en") -> str:
    """Cards in order as ``owl duck duck robin``."""
    return " ".join(_say(f"card.{card.value}", language) for card in cards)


if __name__ == "__main__":
    raise SystemExit(main())
