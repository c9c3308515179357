"""``cuckoo-rules play``: a game in the terminal against bots, or a saved one resumed.

The loop is the terminal's (:func:`cuckoo_rules.terminal.play_interactive`); this
module reads the arguments, builds the bots (the bot of seat ``k`` gets the seed
``derive_seed(seed, 1, k)``, :func:`cuckoo_rules.bots.derive_seed`, as in the Gymnasium
environment) and, for ``--resume``, reads the seats and bots from the record
(:func:`cuckoo_rules.terminal.resume_seats`).
"""

from __future__ import annotations

import argparse
import errno
import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any

from .. import bots, terminal
from ..errors import DecodeError
from ..narration import phrase
from ..records import RecordError, final_state, load_record
from .parser import (
    PROG,
    VARIANTS,
    Commands,
    add_lang_argument,
    add_no_color_argument,
    add_option_arguments,
    add_players_argument,
    add_seed_argument,
    bot_specs_from_args,
    check_seat,
    checked_options,
    command_failed,
    console_from_args,
    seed_from_args,
)
from .warm_up import warm_in_background

__all__ = ["add_command"]


def add_command(commands: Commands) -> None:
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
    add_players_argument(play, 2)
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
    add_seed_argument(play)
    play.add_argument(
        "--save",
        metavar="PATH",
        help=(
            "write the game record (JSON) to this file when the game ends or you leave, "
            "whichever way: q, Ctrl-D, Ctrl-C or a closed terminal; the file is replaced "
            "whole (with --resume: the resumed file unless given)"
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
    add_lang_argument(play)
    add_no_color_argument(play)
    add_option_arguments(play)
    play.set_defaults(handler=_run, command_parser=play)


def _say(key: str, language: str, **fields: object) -> str:
    """The phrase ``terminal.<key>`` in ``language`` (none of those here is counted)."""
    return phrase(f"terminal.{key}", language, count=None, **fields)


def _play_specs(
    args: argparse.Namespace, parser: argparse.ArgumentParser, n: int
) -> list[bots.BotSpec | None]:
    """The bot spec of each seat (``None`` at the human's seat); bad ones are usage errors.

    ``--bots`` gives one spec per opponent in seat order, or one spec for all of them.
    """
    seat: int = args.seat
    check_seat(parser, seat, n)
    specs: list[bots.BotSpec | None] = list(bot_specs_from_args(args, parser))
    if len(specs) == 1:
        specs *= n - 1
    if len(specs) != n - 1:
        parser.error(
            f"argument --bots: {_counted(len(specs), 'bot spec')} for "
            f"{_counted(n - 1, 'opponent')}: give one per opponent, or one for all"
        )
    specs.insert(seat, None)
    return specs


def _counted(count: int, noun: str) -> str:
    """``1 opponent``, ``3 opponents``: a count and its noun (English usage errors)."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


_GAME_FLAGS = ("players", "seat", "bots", "seed", *(info.name for info in VARIANTS))
"""The arguments of ``play`` that a resumed game takes from its record instead."""


def _run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Play a game in the terminal (or resume one); Ctrl-C leaves without a traceback."""
    if args.resume is not None:
        return _resume(args, parser)
    seed = seed_from_args(args, parser)
    options = checked_options(args, parser)
    specs = _play_specs(args, parser, options.num_players)
    players = _players(specs, seed)
    names = [terminal.HUMAN if spec is None else spec.text for spec in specs]
    console = console_from_args(args)
    print(_say("started", args.lang, seed=seed, seat=args.seat))
    warm_in_background("expert")  # the first hint is then as quick as the later ones
    return _interruptible(
        args.lang,
        lambda: terminal.play_interactive(
            options, seed, args.seat, players, console, names=names, save=args.save
        ),
    )


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
        return command_failed("play", _say(key, language, path=path, error=error, detail=error))

    try:
        with open(path, encoding="utf-8") as source:
            record = load_record(source)
        over = final_state(record).is_over
    except (OSError, DecodeError, RecordError) as error:
        return fail("error.read", error)
    if over or record.metadata.result is not None:
        return fail("error.resume_over")
    try:
        seat, specs = terminal.resume_seats(record)
    except terminal.ResumeError as error:
        return fail("error.resume_seats", error)
    players = _players(specs, record.seed)
    names = list(record.metadata.players or ())
    print(
        _say("resumed", language, path=path, move=len(record.actions), seed=record.seed, seat=seat)
    )
    warm_in_background("expert")
    return _interruptible(
        language,
        lambda: terminal.play_interactive(
            record.options,
            record.seed,
            seat,
            players,
            console_from_args(args),
            names=names,
            save=path if args.save is None else args.save,
            resume=record,
        ),
    )


def _players(specs: Sequence[bots.BotSpec | None], seed: int) -> list[bots.Bot | None]:
    """The bot of each seat (``None`` at the human's), seat ``k``'s seeded ``(seed, 1, k)``."""
    return [
        None if spec is None else spec.build(bots.derive_seed(seed, 1, seat))
        for seat, spec in enumerate(specs)
    ]


class _HungUp(BaseException):
    """The terminal was closed (SIGHUP): raised at the game, so that it saves and ends.

    Not an :class:`Exception`, so that nothing on the way (a bot's error handling) takes
    it for an error of its own.
    """


def _hang_up(signum: int, frame: object) -> None:
    """The SIGHUP handler: no one is left to answer, so stop listening and leave.

    If an exception is being handled already (a read from the closed terminal failed,
    and the game is saving on its way out), it is left to end the game.
    """
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # nobody can press Ctrl-C: save in peace
    if sys.exc_info()[1] is None:
        raise _HungUp


def _interruptible(language: str, play: Callable[[], object]) -> int:
    """Run ``play``, the game in the terminal: 0, 130 when Ctrl-C leaves it, 129 on SIGHUP.

    The game saves itself (with ``--save``) on the way out; a closed terminal (SIGHUP)
    is turned into an exception for that, and nothing more is written to it.
    """
    hangup: int | None = getattr(signal, "SIGHUP", None)  # not on Windows
    previous: dict[int, Any] = {}
    if hangup is not None and threading.current_thread() is threading.main_thread():
        for number in (hangup, signal.SIGINT):
            handler = signal.getsignal(number)
            if handler is not None:  # None: set outside Python, cannot be put back
                previous[number] = handler
        signal.signal(hangup, _hang_up)
    try:
        play()
    except KeyboardInterrupt:
        print("\n" + _say("interrupted", language))
        return 130
    except (_HungUp, OSError) as error:
        if isinstance(error, OSError) and error.errno != errno.EIO:
            raise
        devnull = os.open(os.devnull, os.O_WRONLY)  # the terminal is gone (EIO: it was)
        os.dup2(devnull, sys.stdout.fileno())
        return 128 + int(getattr(signal, "SIGHUP", 1))
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
    return 0
