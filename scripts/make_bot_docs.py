"""Write the table of bot parameters into ``docs/bots.md``.

The table is made from :data:`cuckoo_rules.bots.specs.BOT_KINDS`, whose parameters are the
tables of :mod:`cuckoo_rules.bots.parameters` that the bots' constructors and
``parse_bot_spec`` check, so the documentation cannot drift from the code: it goes
between the marker comments ``<!-- bot-parameters:start -->`` and
``<!-- bot-parameters:end -->``, replacing what was there. ``tests/bots/test_bots.py`` checks
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

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the sibling script, shared
import make_option_docs
from make_option_docs import MarkerError

__all__ = ["END", "FILES", "START", "MarkerError", "main", "render_table", "replace_table"]

ROOT = Path(__file__).resolve().parent.parent
FILES = (ROOT / "docs" / "bots.md",)
"""The files that hold the table."""

START = "<!-- bot-parameters:start -->"
"""The comment the table follows."""

END = "<!-- bot-parameters:end -->"
"""The comment the table precedes."""


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
    """Return ``text`` with ``table`` between this script's marker comments.

    Raises:
        MarkerError: If ``text`` does not hold each marker exactly once, start first.
    """
    return make_option_docs.replace_table(text, table, START, END)


def main(argv: Sequence[str] | None = None, files: Sequence[Path] = FILES) -> int:
    """Write the table into ``files``; with ``--check``, only report the files that differ.

    Returns:
        0 if every file is (now) up to date, 1 if ``--check`` found one that is not.
    """
    check = "--check" in (sys.argv[1:] if argv is None else argv)
    return make_option_docs.update_files(
        files, render_table(), check, start=START, end=END, script="scripts/make_bot_docs.py"
    )


if __name__ == "__main__":
    sys.exit(main())
