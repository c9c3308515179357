"""What the commands of ``cuckoo-rules`` share: the program's name and common arguments.

Every command module declares its arguments with an ``add_command(commands)`` function
that builds on these (``--players``, ``--seed``, ``--lang``, ``--no-color`` and one flag
per rule variant, made from :func:`cuckoo_rules.options.option_info`) and reads them
back with :func:`checked_options`, :func:`seed_from_args`, :func:`bot_specs_from_args`,
:func:`check_seat` and :func:`console_from_args`; :func:`option_flags` writes options
back as flags, and :func:`command_failed` reports a failure the way every command does.
"""

from __future__ import annotations

import argparse
import secrets
import sys
from collections.abc import Callable
from typing import Any, Protocol

from .. import bots, terminal
from ..errors import DecodeError, InvalidOptionsError
from ..narration import LANGUAGES, phrase
from ..options import MAX_PLAYERS, MIN_PLAYERS, GameOptions, OptionInfo, option_info
from ..records import GameRecord, load_record
from ..rng import SEED_LIMIT

__all__ = [
    "DEFAULTS",
    "PROG",
    "SOURCES_NOTE",
    "VARIANTS",
    "Commands",
    "Handler",
    "add_lang_argument",
    "add_no_color_argument",
    "add_option_arguments",
    "add_players_argument",
    "add_seed_argument",
    "bot_specs_from_args",
    "check_seat",
    "checked_options",
    "command_failed",
    "console_from_args",
    "describe_options",
    "option_flags",
    "options_from_args",
    "read_record",
    "seed_from_args",
]


class Commands(Protocol):
    """The subcommands of a parser (what ``ArgumentParser.add_subparsers`` returns)."""

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser:
        """Add a subcommand and return its parser."""
        ...


PROG = "cuckoo-rules"
"""The name of the console script."""

Handler = Callable[[argparse.Namespace, argparse.ArgumentParser], int]
"""A subcommand: takes the parsed arguments and its own parser, returns the exit status."""

DEFAULTS = GameOptions(num_players=3)
"""The option defaults shown by ``--help`` (and the default player count)."""

VARIANTS: tuple[OptionInfo, ...] = tuple(
    info for info in option_info() if info.name != "num_players"
)
"""The rule variants, one flag each; ``num_players`` is ``--players``."""


def _sources_note() -> str:
    """What the rule variants' help says first: where the rules are, which text is which.

    The seed texts (``SEED0``...) are explained only if a variant's help cites one.
    """
    note = (
        "Each variant is a point where the rule texts disagree; the default is the ruling "
        "of docs/rules.md in the repository, which gives every source."
    )
    texts = [info.description for info in VARIANTS]
    texts += [choice.text for info in VARIANTS for choice in info.choices]
    if any("SEED" in text for text in texts):
        note += (
            " SEED0, SEED1 and SEED2 are the three texts the project started from: SEED0 "
            "is the English Board Game Arena help page for CuBirds, SEED1 a Russian "
            "translation of that page and SEED2 a German rules summary."
        )
    return note


SOURCES_NOTE = _sources_note()
"""What the rule variants' help says first: where the rules are, and which text is which."""


def add_players_argument(parser: argparse.ArgumentParser, default: int) -> None:
    """Declare ``--players N``."""
    parser.add_argument(
        "--players",
        type=int,
        default=default,
        metavar="N",
        help=f"number of players, {MIN_PLAYERS} to {MAX_PLAYERS} (default: %(default)s)",
    )


def add_seed_argument(
    parser: argparse.ArgumentParser, subject: str = "game", shown: str = "printed for replay"
) -> None:
    """Declare ``--seed S``, the seed of ``subject`` (a random one, ``shown``, without it)."""
    parser.add_argument(
        "--seed",
        type=int,
        metavar="S",
        help=f"seed of the {subject}, 0 to 2**64 - 1 (default: a random seed, {shown})",
    )


def add_no_color_argument(parser: argparse.ArgumentParser) -> None:
    """Declare ``--no-color``."""
    parser.add_argument("--no-color", action="store_true", help="do not colour the species")


def add_lang_argument(parser: argparse.ArgumentParser) -> None:
    """Declare ``--lang en|de|ru``, the language of everything printed."""
    parser.add_argument(
        "--lang",
        choices=list(LANGUAGES),
        default="en",
        help="the language of the screens and the narration: English, German or Russian "
        "(default: %(default)s); the move notation stays English",
    )


def _flag(name: str) -> str:
    """The flag of an option: ``round_end_timing`` -> ``--round-end-timing``."""
    return "--" + name.replace("_", "-")


def _switch(name: str, value: bool) -> str:
    """The flag that sets a yes-or-no option to ``value``: ``--name``, or ``--no-name``."""
    return _flag(name) if value else _flag(name).replace("--", "--no-", 1)


def _help_text(text: str) -> str:
    """``text`` made safe for argparse's ``%`` formatting of help strings."""
    return text.replace("%", "%%")


def add_option_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare one flag per rule variant of :class:`cuckoo_rules.GameOptions`.

    The flags, their values and their help are made from
    :func:`cuckoo_rules.options.option_info`: an option with words or numbers as values
    is ``--name VALUE``; a yes-or-no option is a switch to its other value,
    ``--no-name`` when it is on by default and ``--name`` when it is off.
    """
    group = parser.add_argument_group("rule variants", SOURCES_NOTE)
    for info in VARIANTS:
        default = info.default
        if type(default) is bool:
            (other,) = (choice for choice in info.choices if choice.value is not default)
            group.add_argument(
                _switch(info.name, not default),
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


def _changed_options(options: GameOptions) -> list[tuple[str, object]]:
    """The rule variants of ``options`` that differ from the defaults, as JSON values."""
    return [
        (name, value)
        for name, value in options.to_json().items()
        if name != "num_players" and value != getattr(DEFAULTS, name)
    ]


def option_flags(options: GameOptions) -> list[str]:
    """The words of the flags (:func:`add_option_arguments`) that give ``options``' variants.

    Only the variants that differ from the defaults are given; ``--players`` is not.

    Example:
        >>> option_flags(GameOptions(num_players=2, initial_row_length=4, always_prompt_flock=True))
        ['--initial-row-length', '4', '--always-prompt-flock']
    """
    words: list[str] = []
    for name, value in _changed_options(options):
        if isinstance(value, bool):
            words.append(_switch(name, value))
        else:
            words += [_flag(name), str(value)]
    return words


def options_from_args(args: argparse.Namespace) -> GameOptions:
    """Build the game options from the parsed arguments (``--players`` and every variant).

    Raises:
        InvalidOptionsError: If a value is out of range.
    """
    variants: dict[str, Any] = {info.name: getattr(args, info.name) for info in VARIANTS}
    return GameOptions(num_players=args.players, **variants)


def _option_message(error: InvalidOptionsError) -> str:
    """Turn an option error (``"num_players: 6 is not in 2..5"``) into a usage message."""
    field, _, detail = str(error).partition(": ")
    flag = "--players" if field == "num_players" else _flag(field)
    return f"argument {flag}: {detail}" if detail else str(error)


def checked_options(args: argparse.Namespace, parser: argparse.ArgumentParser) -> GameOptions:
    """The game options of the parsed arguments; a value out of range is a usage error."""
    try:
        return options_from_args(args)
    except InvalidOptionsError as error:
        parser.error(_option_message(error))


def seed_from_args(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """The ``--seed`` given (a usage error if out of range), or a fresh random seed."""
    chosen: int | None = args.seed
    if chosen is None:
        return secrets.randbelow(SEED_LIMIT)
    if not 0 <= chosen < SEED_LIMIT:
        parser.error(f"argument --seed: {chosen} is not an integer in [0, 2**64)")
    return chosen


def bot_specs_from_args(
    args: argparse.Namespace, parser: argparse.ArgumentParser
) -> tuple[bots.BotSpec, ...]:
    """The bot specs of ``--bots``; one that does not parse is a usage error."""
    try:
        return bots.parse_bot_specs(args.bots)
    except bots.BotSpecError as error:
        parser.error(f"argument --bots: {error}")


def check_seat(parser: argparse.ArgumentParser, seat: int, players: int) -> None:
    """A usage error unless ``seat`` (of ``--seat``) is a seat of ``players`` players."""
    if not 0 <= seat < players:
        parser.error(
            f"argument --seat: {seat} is not a seat of {players} players (0 to {players - 1})"
        )


def read_record(path: str, language: str) -> GameRecord | str:
    """The game record saved at ``path``, or why it cannot be read, in ``language``.

    A record that reads but whose actions are illegal is returned: replaying it says so.
    """
    try:
        with open(path, encoding="utf-8") as source:
            return load_record(source)
    except (OSError, DecodeError) as error:
        return phrase("terminal.error.read", language, path=path, error=error)


def command_failed(command: str, message: object, status: int = 1) -> int:
    """Print ``cuckoo-rules COMMAND: MESSAGE`` on stderr and return the exit ``status``."""
    print(f"{PROG} {command}: {message}", file=sys.stderr)
    return status


def describe_options(options: GameOptions, standard: str = "standard rules") -> str:
    """The options that differ from the rules' defaults as ``name=value``, or ``standard``.

    Example:
        >>> describe_options(GameOptions(num_players=2, always_prompt_flock=True))
        'always_prompt_flock=true'
    """
    changed = [
        f"{name}={str(value).lower() if isinstance(value, bool) else value}"
        for name, value in _changed_options(options)
    ]
    return ", ".join(changed) if changed else standard


def console_from_args(args: argparse.Namespace) -> terminal.Console:
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
