"""The terminal's review of a finished game: each seat's chances and its costliest moves.

:func:`review_lines` turns a :class:`~cuckoo_rules.bots.review.GameReview` (and the
record it reviews, for the moves' descriptions) into lines of at most 80 columns, in
the language asked:

- a chart per seat (:func:`chart_lines`): the seat's chance of winning before each
  move, as the expert estimates it from what everyone sees, drawn as a sparkline of the
  block characters ``▁▂▃▄▅▆▇█`` (:func:`sparkline`, the moves averaged down to the
  width, or stretched to it), between the chance at the deal and the final one, and
  the seat's costliest moves marked ``^`` below it;
- per reviewed seat, its costliest moves (:func:`costliest_lines`): the move in words
  (:func:`~cuckoo_rules.terminal.screen.describe_action`, as the seat saw the
  position), the expert's better move, each with its chance of winning, and the cost
  in percentage points.

These are pure functions; :func:`show_review` runs the review (it needs the ``batch``
extra) for ``cuckoo-rules play`` at the end of a game, and ``cuckoo-rules review``
(:mod:`cuckoo_rules.cli.review`) prints :func:`review_lines` for a saved record.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..board import WIDTH, fit, seat_label, terminal_phrase, visible_width, wrap
from ..records import GameRecord, replay
from ..state import GameState
from ..views import observe
from .input import Console
from .screen import HEIGHT, describe_action

if TYPE_CHECKING:
    from ..bots.review import DecisionReview, GameReview

__all__ = [
    "BUDGET_VARIABLE",
    "COSTLIEST",
    "SPARKS",
    "chart_lines",
    "costliest_lines",
    "review_lines",
    "show_review",
    "sparkline",
]

SPARKS = "▁▂▃▄▅▆▇█"
"""The sparkline's characters, 1/8 to 8/8 of a line tall: a chance of 0 (``▁``) to 1 (``█``)."""

COSTLIEST = 3
"""How many of a seat's costliest moves are shown by default."""

BUDGET_VARIABLE = "CUCKOO_RULES_REVIEW_SIMULATIONS"
"""The environment variable that sets the budget of ``play``'s review (tests keep it small)."""

_LABEL_WIDTH = 16  # the most columns a seat's label takes before its chart
_BATCH_EXTRA = "pip install 'cuckoo-rules[batch]'"


def sparkline(values: Sequence[float], width: int) -> str:
    """Values from 0 to 1 as a line of ``width`` block characters (none without values).

    With more values than ``width``, consecutive values are averaged into the columns (as
    evenly as they divide); with fewer, each value takes one column or more. A column's
    block is as tall as its value, to the nearest eighth: ``█`` for 1, ``▄`` for 1/2,
    and ``▁`` for anything below 3/16 (so that a line is always seen).

    Example:
        >>> sparkline([0.0, 0.25, 0.5, 0.75, 1.0], 5)
        '▁▂▄▆█'
        >>> sparkline([0.0, 0.0, 1.0, 1.0], 2), sparkline([0.0, 1.0], 4)
        ('▁█', '▁▁██')
    """
    count = len(values)
    columns: list[float] = []
    for column in range(width if count else 0):
        if count > width:
            part = values[column * count // width : (column + 1) * count // width]
            columns.append(sum(part) / len(part))
        else:
            columns.append(values[column * count // width])
    top = len(SPARKS) - 1
    return "".join(SPARKS[min(top, max(0, round(value * len(SPARKS)) - 1))] for value in columns)


def _names(review: GameReview) -> tuple[str, ...]:
    """The seats' names for their labels: none where the review has only ``P0``, ``P1``..."""
    return tuple("" if name == f"P{seat}" else name for seat, name in enumerate(review.players))


def _label(review: GameReview, seat: int, viewer: int | None, language: str) -> str:
    """A seat as the review names it: ``P1 greedy``, or ``you`` (the viewer's seat)."""
    return seat_label(seat, viewer, _names(review), language)


def _percent(chance: float) -> str:
    """A chance as a whole percentage: ``45%``."""
    return f"{chance:.0%}"


def _decimal(value: float, language: str) -> str:
    """A number with one decimal, its separator the language's: ``2.5``, ``2,5``."""
    text = f"{value:.1f}"
    return text if language == "en" else text.replace(".", ",")


def _costly(review: GameReview, seat: int, count: int) -> list[DecisionReview]:
    """A reviewed seat's ``count`` costliest decisions that cost a percentage point or more."""
    if seat not in review.seats:
        return []
    return [d for d in review.costliest(seat, count) if round(100 * d.cost) >= 1]


def _column(index: int, count: int, width: int) -> int:
    """The column of a :func:`sparkline` ``width`` wide that shows value ``index`` of ``count``."""
    if count > width:
        return index * width // count
    return min(width - 1, -(-index * width // count))  # the first column of the value


def chart_lines(
    review: GameReview,
    *,
    seats: Sequence[int] | None = None,
    viewer: int | None = None,
    language: str = "en",
    width: int = WIDTH,
    marked: int = COSTLIEST,
) -> list[str]:
    """The chances of winning, move by move, one sparkline per seat.

    Each seat's line is its label, its chance at the deal, the sparkline of its chance
    before each move (:func:`sparkline`; the last column ends at the game's result)
    and its final chance. Under a reviewed seat's line, ``^`` marks the columns of its
    costliest moves (those :func:`costliest_lines` lists, at the chance after the
    move); a blank line parts two seats otherwise. A line below them all marks the
    first and the last move.

    Args:
        review: The game's review.
        seats: The seats to chart, in order; ``None`` for every seat.
        viewer: The seat named "you", if any.
        language: The language of the texts.
        width: The most columns of a line.
        marked: How many of a reviewed seat's costliest moves to mark (0: none).

    Returns:
        A heading, the seats' lines and the moves' line, each at most ``width`` columns.
    """
    chosen = range(len(review.players)) if seats is None else seats
    labels = {seat: fit(_label(review, seat, viewer, language), _LABEL_WIDTH) for seat in chosen}
    label_width = max((visible_width(label) for label in labels.values()), default=0)
    room = max(1, width - label_width - 11)  # the label, " 50% " and " 100%"
    indent = " " * (label_width + 6)
    lines = [terminal_phrase("review.chart", language)]
    spark = ""
    parted = True  # whether the last line is no chart (blocks in a row read as one chart)
    for seat, label in labels.items():
        chances = [chance[seat] for chance in review.chances]
        spark = sparkline(chances, room)
        start, end = _percent(chances[0]), _percent(chances[-1])
        pad = " " * (label_width - visible_width(label))
        if not parted:
            lines.append("")
        lines.append(fit(f"{label}{pad} {start:>4} {spark} {end:>4}", width))
        columns = {
            _column(d.move + 1, len(chances), len(spark)) for d in _costly(review, seat, marked)
        }
        parted = bool(columns and spark)
        if parted:
            marks = "".join("^" if column in columns else " " for column in range(len(spark)))
            lines.append(indent + marks.rstrip())
    first = terminal_phrase("review.move_number", language, move=0)
    last = terminal_phrase("review.move_number", language, move=review.moves)
    gap = max(1, len(spark) - len(first) - len(last))
    lines.append(fit(indent + first + " " * gap + last, width))
    return lines


def _positions(record: GameRecord) -> list[GameState]:
    """The state before each move of ``record``, and the one after the last."""
    return list(replay(record))


def costliest_lines(
    review: GameReview,
    record: GameRecord,
    seat: int,
    *,
    count: int = COSTLIEST,
    viewer: int | None = None,
    language: str = "en",
    positions: Sequence[GameState] | None = None,
) -> list[str]:
    """A seat's costliest moves: what it played, what the expert thought better, the cost.

    Each move is told as the seat saw the position
    (:func:`~cuckoo_rules.terminal.screen.describe_action` of its view then), with the
    chance of winning the expert gives it; moves numbered from 1, as the replay does
    (``cuckoo-rules replay``'s ``g N`` shows the board after move ``N``). Moves that cost
    less than half a percentage point are left out.

    Args:
        review: The game's review; ``seat`` must be one of its reviewed seats.
        record: The record reviewed (for the positions).
        seat: The seat.
        count: The most moves to show.
        viewer: The seat named "you", if any.
        language: The language of the texts.
        positions: The states of ``record`` (:func:`~cuckoo_rules.records.replay`), if
            already at hand.

    Returns:
        Lines of at most 80 columns: a heading with the seat's average cost per
        decision, then three or more lines per move (or one saying none cost much).
    """
    states = _positions(record) if positions is None else positions
    label = _label(review, seat, viewer, language)
    average = _decimal(100 * review.average_cost(seat), language)
    costly = _costly(review, seat, count)
    if not costly:
        return wrap(terminal_phrase("review.no_costly", language, player=label), indent="  ")
    lines = wrap(
        terminal_phrase("review.costliest", language, player=label, average=average),
        indent="  ",
    )
    for decision in costly:
        view = observe(states[decision.move], seat)
        points = terminal_phrase("review.points", language, count=round(100 * decision.cost))
        heading = terminal_phrase(
            "review.move", language, move=decision.move + 1, turn=view.turn, points=points
        )
        lines += wrap("  " + heading, indent="    ")
        for key, action, chance in (
            ("review.played", decision.chosen, decision.chosen_chance),
            ("review.better", decision.best, decision.best_chance),
        ):
            told = terminal_phrase(key, language, action=describe_action(action, view, language))
            lines += wrap(f"    {_percent(chance):>4}  {told}", indent=" " * 10)
    return lines


def review_lines(
    review: GameReview,
    record: GameRecord,
    *,
    seats: Sequence[int] | None = None,
    count: int = COSTLIEST,
    viewer: int | None = None,
    language: str = "en",
) -> list[str]:
    """The whole review: a title, the charts, then each reviewed seat's costliest moves.

    Args:
        review: The game's review.
        record: The record reviewed.
        seats: The seats to show (charts and moves); ``None`` for every seat charted and
            every reviewed seat's moves.
        count: The most moves to show per seat.
        viewer: The seat named "you", if any.
        language: The language of the texts.

    Returns:
        Lines of at most 80 columns, blank lines between the parts.

    Raises:
        RecordError: If ``record`` holds an illegal action.
    """
    shown = review.seats if seats is None else [s for s in seats if s in review.seats]
    lines = [
        terminal_phrase("review.title", language, simulations=review.simulations),
        "",
        *chart_lines(review, seats=seats, viewer=viewer, language=language, marked=count),
    ]
    states = _positions(record)
    for seat in shown:
        lines += [
            "",
            *costliest_lines(
                review,
                record,
                seat,
                count=count,
                viewer=viewer,
                language=language,
                positions=states,
            ),
        ]
    return lines


def show_review(
    record: GameRecord, console: Console, *, viewer: int, simulations: int | None = None
) -> None:
    """Review a finished game for ``cuckoo-rules play`` and show it, a screen at a time.

    Only ``viewer``'s moves are reviewed (every seat is charted); the progress is shown
    on a terminal. Every screen but the last waits for Enter; the caller asks for the
    last. Without the ``batch`` extra, one line says what to install.

    Args:
        record: The finished game's record.
        console: Where to show the review.
        viewer: The human's seat.
        simulations: The review's budget; ``None`` for the environment variable
            ``CUCKOO_RULES_REVIEW_SIMULATIONS`` (:data:`BUDGET_VARIABLE`) if it holds a
            positive integer, else the library's default.
    """
    language = console.language
    try:
        from ..bots.review import DEFAULT_REVIEW_SIMULATIONS, review
    except ModuleNotFoundError:
        console.show([console.text("review.missing", command=_BATCH_EXTRA)])
        return

    def progress(done: int, total: int) -> None:
        if console.clear:
            line = console.text("review.progress", done=done, total=total)
            console.output.write("\r" + line + "\x1b[K")
            console.output.flush()

    budget = simulations
    if budget is None:
        given = os.environ.get(BUDGET_VARIABLE, "")
        budget = int(given) if given.isdigit() and int(given) > 0 else DEFAULT_REVIEW_SIMULATIONS
    found = review(record, simulations=budget, seats=[viewer], progress=progress)
    lines = review_lines(found, record, viewer=viewer, language=language)
    size = HEIGHT - 2  # a line for the prompt, one spare
    pages = [lines[k : k + size] for k in range(0, len(lines), size)]
    for page in pages[:-1]:
        console.screen(page, console.text("press_enter"))
    console.show(pages[-1])
