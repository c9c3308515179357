"""Write the table of bot parameters into ``docs/bots.md``.

The table is made from :data:`cuckoo_rules.bots.specs.BOT_KINDS`, whose parameters are the
tables of :mod:`cuckoo_rules.bots.parameters` that the bots' constructors and
``parse_bot_spec`` check, so the documentation cannot drift from the code: it goes
between the marker comments ``<!-- bot-parameters:start -->`` and
``<!-- bot-parameters:end -->``, replacing what was there. ``tests/test_bots.py`` checks
that the file holds what this script writes. Run ``python scripts/make_bot_docs.py``
after changing a parameter, and review the diff; ``--check`` only reports a file that
differs (exit status 1).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from cuckoo_rules.bots.parameters import BotParameter
from cuckoo_rules.bots.specs import BOT_KINDS, BotKind

ROOT = Path(__file__).resolve().parent.parent
FILES = (ROOT / "docs" / "bots.md",)
"""The files that hold the table."""

START = "<!-- bot-parameters:start -->"
"""The comment the table follows."""

END = "<!-- bot-parameters:end -->"
"""The comment the table precedes."""


class MarkerError(ValueError):
    """A file lacks the marker comments, or has them more than once or out of order."""


def _number(value: int | float) -> str:
    """A bound in backquotes: ``10``, ``0.001``, ``1000000``."""
    return f"`{value}`" if isinstance(value, int) else f"`{value:g}`"


def _cell(text: str) -> str:
    """Text made safe for a cell of a markdown table."""
    return text.replace("|", "\\|").replace("\n", " ")


def _row(kind: BotKind, parameter: BotParameter) -> str:
    cells = [
        f"`{kind.name}`",
        f"`{parameter.name}`",
        f"`{parameter.type.__name__}`",
        f"{_number(parameter.minimum)} to {_number(parameter.maximum)}",
        parameter.description,
    ]
    return "| " + " | ".join(_cell(cell) for cell in cells) + " |"


def render_table(kinds: Iterable[BotKind] | None = None) -> str:
    """Return the markdown table of the bots' parameters: bot, parameter, type, range, meaning.

    Args:
        kinds: The bot kinds to list; by default every kind of
            :data:`~cuckoo_rules.bots.specs.BOT_KINDS`, in its order (a kind without
            parameters has no row).

    Returns:
        The table's lines, each ending with a newline.
    """
    rows = [
        _row(kind, parameter)
        for kind in (BOT_KINDS.values() if kinds is None else kinds)
        for parameter in kind.parameters.values()
    ]
    lines = ["| bot | parameter | type | range (inclusive) | meaning |", "|---|---|---|---|---|"]
    return "".join(line + "\n" for line in [*lines, *rows])


def replace_table(text: str, table: str) -> str:
    """Return ``text`` with ``table`` between its marker comments, a blank line each side.

    Raises:
        MarkerError: If ``text`` does not hold each marker exactly once, start first.
    """
    if text.count(START) != 1 or text.count(END) != 1:
        raise MarkerError(f"expected {START} and {END} once each")
    head, _, rest = text.partition(START)
    if END not in rest:
        raise MarkerError(f"{END} comes before {START}")
    _, _, tail = rest.partition(END)
    return f"{head}{START}\n\n{table}\n{END}{tail}"


def main(argv: Sequence[str] | None = None, files: Sequence[Path] = FILES) -> int:
    """Write the table into ``files``; with ``--check``, only report the files that differ.

    Returns:
        0 if every file is (now) up to date, 1 if ``--check`` found one that is not.
    """
    check = "--check" in (sys.argv[1:] if argv is None else argv)
    table = render_table()
    stale = []
    for path in files:
        text = path.read_text(encoding="utf-8")
        updated = replace_table(text, table)
        if updated == text:
            continue
        if check:
            stale.append(str(path))
        else:
            path.write_text(updated, encoding="utf-8")
            print(f"wrote {path}")
    if stale:
        print(f"out of date: {', '.join(stale)} (run scripts/make_bot_docs.py)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
