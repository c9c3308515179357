"""``cuckoo-rules review``: review a saved game, its chances move by move and costly moves.

The review is the library's (:func:`cuckoo_rules.bots.review.review`, which needs the
``batch`` extra), the lines the terminal's
(:func:`cuckoo_rules.terminal.review.review_lines`): a sparkline of each seat's chance
of winning before each move, then each seat's costliest moves with the expert's better
one and what it cost, in percentage points. While it runs, a line on stderr (if stderr
is a terminal) says how far it is.
"""

from __future__ import annotations

import argparse
import sys

from ..match import BotError
from ..narration import phrase
from ..records import RecordError
from ..rng import SEED_LIMIT
from ..terminal.review import COSTLIEST, review_lines
from .parser import PROG, Commands, add_lang_argument, check_seat, command_failed, read_record

__all__ = ["add_command"]

_BATCH_EXTRA = "pip install 'cuckoo-rules[batch]'"


def add_command(commands: Commands) -> None:
    """Declare ``review`` and its arguments: the record, the seat, budget, seed, language."""
    review = commands.add_parser(
        "review",
        help="review a saved game: each seat's chances move by move and its costliest moves",
        description=(
            "Review a finished game record (as written by 'play --save') with the expert's "
            "search: for each seat, a chart of its chance of winning before each move (as "
            "estimated from what everyone sees) and the moves that cost it the most, each "
            "with the move the expert thinks better and the difference in percentage "
            "points (judged from what that seat knew then). Needs the batch extra: pip "
            "install 'cuckoo-rules[batch]'. A 2-player game takes a few seconds at the "
            "default budget on a quiet machine, once the kernels are compiled."
        ),
        epilog=f"example: {PROG} review game.json --seat 0 --lang de",
    )
    review.add_argument("record", metavar="PATH", help="the game record (JSON)")
    review.add_argument(
        "--seat", type=int, metavar="K", help="review this seat only (default: every seat)"
    )
    review.add_argument(
        "--simulations",
        type=int,
        metavar="N",
        help="the expert's simulations of each legal action of a decision (default: the "
        "library's DEFAULT_REVIEW_SIMULATIONS); fewer "
        "is faster and rougher",
    )
    review.add_argument(
        "--seed",
        type=int,
        default=0,
        metavar="S",
        help="seed of the review's simulations (default: %(default)s); the same seed and "
        "budget give the same review",
    )
    review.add_argument(
        "--top",
        type=int,
        default=COSTLIEST,
        metavar="N",
        help="how many of each seat's costliest moves to show (default: %(default)s)",
    )
    add_lang_argument(review)
    review.set_defaults(handler=_run, command_parser=review)


class _Progress:
    """The review's progress as one line on stderr, rewritten in place, if it is a terminal."""

    def __init__(self, language: str) -> None:
        self.language = language
        try:
            self.shown = sys.stderr.isatty()
        except (AttributeError, ValueError):  # replaced or closed
            self.shown = False

    def __call__(self, done: int, total: int) -> None:
        """Show that ``done`` of ``total`` positions are reviewed."""
        if self.shown:
            line = phrase("terminal.review.progress", self.language, done=done, total=total)
            sys.stderr.write("\r" + line + "\x1b[K")
            sys.stderr.flush()

    def clear(self) -> None:
        """Rub the line out."""
        if self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


def _run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Review a record and print the review; an unreadable record is an error."""
    language: str = args.lang
    simulations: int | None = args.simulations
    if simulations is not None and simulations < 1:
        parser.error(f"argument --simulations: {simulations} is not a positive integer")
    if args.top < 1:
        parser.error(f"argument --top: {args.top} is not a positive integer")
    if not 0 <= args.seed < SEED_LIMIT:
        parser.error(f"argument --seed: {args.seed} is not an integer in [0, 2**64)")
    record = read_record(args.record, language)
    if isinstance(record, str):
        return command_failed("review", record)
    seat: int | None = args.seat
    if seat is not None:
        check_seat(parser, seat, record.options.num_players)
    try:
        from ..bots.review import DEFAULT_REVIEW_SIMULATIONS, review
    except ModuleNotFoundError:  # the batch extra is not installed
        missing = phrase("terminal.review.missing", language, command=_BATCH_EXTRA)
        return command_failed("review", missing)
    seats = None if seat is None else [seat]
    progress = _Progress(language)
    try:
        found = review(
            record,
            simulations=DEFAULT_REVIEW_SIMULATIONS if simulations is None else simulations,
            seats=seats,
            seed=args.seed,
            progress=progress,
        )
        lines = review_lines(found, record, seats=seats, count=args.top, language=language)
    except (RecordError, BotError) as error:
        return command_failed("review", f"{args.record}: {error}")
    except KeyboardInterrupt:
        return 130
    finally:
        progress.clear()
    print("\n".join(lines))
    return 0
