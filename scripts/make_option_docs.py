"""Write the table of game options into ``README.md`` and ``docs/rules.md``.

The table is made from :func:`cuckoo_rules.options.option_info`, the one description of
every option, so the documentation cannot drift from the code: it goes between the
marker comments ``<!-- options-table:start -->`` and ``<!-- options-table:end -->`` of
each file, replacing what was there. ``tests/house/test_option_docs.py`` checks that the files
hold what this script writes. Run ``python scripts/make_option_docs.py`` after changing
an option, and review the diff; ``--check`` only reports the files that differ (exit
status 1).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from cuckoo_rules.options import OptionInfo, option_info

ROOT = Path(__file__).resolve().parent.parent
FILES = (ROOT / "README.md", ROOT / "docs" / "rules.md")
"""The files that hold the table."""

START = "<!-- options-table:start -->"
"""The comment the table follows."""

END = "<!-- options-table:end -->"
"""The comment the table precedes."""


class MarkerError(ValueError):
    """A file lacks the marker comments, or has them more than once or out of order."""


def _value(value: object) -> str:
    """An option value as Python code, in backquotes: ``3``, ``True``, ``"discard"``."""
    text = json.dumps(value) if isinstance(value, str) else repr(value)
    return f"`{text}`"


def _cell(text: str) -> str:
    """Text made safe for a cell of a markdown table."""
    return text.replace("|", "\\|").replace("\n", " ")


def _row(info: OptionInfo) -> str:
    default = "(required)" if info.default is None else _value(info.default)
    values = "; ".join(f"{_value(choice.value)}: {choice.text}" for choice in info.choices)
    cells = [f"`{info.name}`", default, values, info.description]
    return "| " + " | ".join(_cell(cell) for cell in cells) + " |"


def render_table(infos: Iterable[OptionInfo] | None = None) -> str:
    """Return the markdown table of the options: field, default, values, meaning.

    Args:
        infos: The options to list; by default every option of
            :func:`~cuckoo_rules.options.option_info`, in JSON order.

    Returns:
        The table's lines, each ending with a newline.
    """
    rows = [_row(info) for info in (option_info() if infos is None else infos)]
    lines = ["| field | default | values | meaning |", "|---|---|---|---|", *rows]
    return "".join(line + "\n" for line in lines)


def replace_table(text: str, table: str, start: str = START, end: str = END) -> str:
    """Return ``text`` with ``table`` between its marker comments, a blank line each side.

    Args:
        text: The file's text.
        table: The table.
        start: The comment the table follows.
        end: The comment the table precedes.

    Raises:
        MarkerError: If ``text`` does not hold each marker exactly once, start first.
    """
    if text.count(start) != 1 or text.count(end) != 1:
        raise MarkerError(f"expected {start} and {end} once each")
    head, _, rest = text.partition(start)
    if end not in rest:
        raise MarkerError(f"{end} comes before {start}")
    _, _, tail = rest.partition(end)
    return f"{head}{start}\n\n{table}\n{end}{tail}"


def update_files(
    files: Sequence[Path],
    table: str,
    check: bool,
    *,
    start: str = START,
    end: str = END,
    script: str = "scripts/make_option_docs.py",
) -> int:
    """Write ``table`` between the markers of ``files``; with ``check``, only report.

    Shared by the scripts that keep a generated table in the docs.

    Returns:
        0 if every file is (now) up to date, 1 if ``check`` found one that is not.
    """
    stale = []
    for path in files:
        text = path.read_text(encoding="utf-8")
        updated = replace_table(text, table, start, end)
        if updated == text:
            continue
        if check:
            stale.append(str(path))
        else:
            path.write_text(updated, encoding="utf-8")
            print(f"wrote {path}")
    if stale:
        print(f"out of date: {', '.join(stale)} (run {script})")
        return 1
    return 0


def main(argv: Sequence[str] | None = None, files: Sequence[Path] = FILES) -> int:
    """Write the table into ``files``; with ``--check``, only report the files that differ.

    Returns:
        0 if every file is (now) up to date, 1 if ``--check`` found one that is not.
    """
    check = "--check" in (sys.argv[1:] if argv is None else argv)
    return update_files(files, render_table(), check)


if __name__ == "__main__":
    sys.exit(main())
