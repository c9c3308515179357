"""``cuckoo-rules replay``: step through a saved game record in the terminal.

The loop is the terminal's (:func:`cuckoo_rules.terminal.replay_interactive`).
"""

from __future__ import annotations

import argparse

from .. import terminal
from ..records import RecordError
from .parser import (
    PROG,
    Commands,
    add_lang_argument,
    add_no_color_argument,
    check_seat,
    command_failed,
    console_from_args,
    read_record,
)

__all__ = ["add_command"]


def add_command(commands: Commands) -> None:
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
    add_lang_argument(replay)
    add_no_color_argument(replay)
    replay.set_defaults(handler=_run, command_parser=replay)


def _run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Step through a record; an unreadable record is an error, Ctrl-C leaves quietly."""
    language: str = args.lang
    record = read_record(args.record, language)
    if isinstance(record, str):
        return command_failed("replay", record)
    seat: int | None = args.seat
    if seat is not None:
        check_seat(parser, seat, record.options.num_players)
    try:
        terminal.replay_interactive(record, seat, console_from_args(args))
    except RecordError as error:
        return command_failed("replay", error)
    except KeyboardInterrupt:
        print()
        return 130
    return 0
