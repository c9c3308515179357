"""The ``cuckoo-rules`` command line.

Subcommands, one module each:

- ``demo`` (:mod:`cuckoo_rules.cli.demo`): play a seeded game between random players
  and print it turn by turn.
- ``tournament`` (:mod:`cuckoo_rules.cli.tournament`): play many games between bots and
  print their win rates.
- ``play`` (:mod:`cuckoo_rules.cli.play`): play a game in the terminal against bots
  (``--resume`` goes on with a saved one).
- ``replay`` (:mod:`cuckoo_rules.cli.replay`): step through a saved game record
  (``g N`` jumps to move ``N``).
- ``review`` (:mod:`cuckoo_rules.cli.review`): review a saved game, each seat's chances
  move by move and its costliest moves (needs the ``batch`` extra).
- ``serve`` (:mod:`cuckoo_rules.cli.serve`): serve games in the browser over HTTP (needs
  the ``web`` extra).
- ``warm-up`` (:mod:`cuckoo_rules.cli.warm_up`): compile the batch kernels into numba's
  cache ahead of their first use (needs the ``batch`` extra).

Each command module has an ``add_command`` function that declares the command and its
arguments (with the shared ones of :mod:`cuckoo_rules.cli.parser`) and sets its handler;
:func:`main` parses the arguments and calls the handler.

Games run on a :class:`cuckoo_rules.Match` and are told by :mod:`cuckoo_rules.narration`
(the sentences every front end uses) and drawn by :mod:`cuckoo_rules.board`, from a
spectator's view and events: the command line holds no rule and no description of a
game of its own. Seats and rows are numbered from 0, as in the API. ``--lang en|de|ru``
sets the language of ``demo``, ``play``, ``replay`` and ``review``: every text they
print is a phrase (``terminal.*`` keys and the narration's) of that language.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from .. import __version__
from . import demo, play, replay, review, serve, tournament, warm_up
from .demo import play_random_game, replay_command
from .parser import PROG, Handler
from .tournament import tournament_table

__all__ = ["build_parser", "main", "play_random_game", "replay_command", "tournament_table"]


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
        with warm_up.compiling_shown():  # a kernel compiling for long says so on a terminal
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
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(
        title="commands", dest="command", metavar="COMMAND", required=True
    )
    for command in (demo, tournament, play, replay, review, serve, warm_up):
        command.add_command(commands)
    return parser
