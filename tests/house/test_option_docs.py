"""The table of game options in the docs: generated from ``option_info()``, and up to date."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from cuckoo_rules.options import option_info
from tests.conftest import ROOT, load_module

START = "<!-- options-table:start -->"
END = "<!-- options-table:end -->"


@pytest.fixture(scope="module")
def script() -> ModuleType:
    """``scripts/make_option_docs.py``, imported as a module."""
    return load_module(ROOT / "scripts" / "make_option_docs.py", "make_option_docs")


def between_markers(text: str) -> str:
    (_, rest) = text.split(START)
    (inside, _) = rest.split(END)
    return inside


@pytest.mark.parametrize("name", ["README.md", "docs/rules.md"])
def test_the_docs_hold_the_generated_table(script: ModuleType, name: str) -> None:
    text = (ROOT / name).read_text(encoding="utf-8")
    assert text.count(START) == text.count(END) == 1, name
    table: str = script.render_table()
    assert between_markers(text) == f"\n\n{table}\n", f"{name}: run scripts/make_option_docs.py"


def test_the_table_has_a_row_per_option_with_every_value(script: ModuleType) -> None:
    lines = script.render_table().splitlines()
    assert lines[0] == "| field | default | values | meaning |"
    rows = lines[2:]
    assert len(rows) == len(option_info())
    for row, info in zip(rows, option_info(), strict=True):
        assert row.startswith(f"| `{info.name}` | ")
        assert info.description in row
        for choice in info.choices:
            assert choice.text in row
    by_name = dict(zip([info.name for info in option_info()], rows, strict=True))
    assert '`"same_species_lay"`: any lay' in by_name["refill_trigger"]
    assert '| `"capture"` |' in by_name["refill_trigger"]
    assert '`"same_dealer"`: the first dealer' in by_name["next_round_first_player"]
    assert "| (required) |" in by_name["num_players"]
    assert "| `True` |" in by_name["optional_draw_if_adjacent"]


def test_check_reports_a_stale_file_and_writing_fixes_it(
    script: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "page.md"
    path.write_text(f"# Options\n\n{START}\n| old | table |\n{END}\n\nAfter.\n", encoding="utf-8")
    assert script.main(["--check"], [path]) == 1
    assert "out of date" in capsys.readouterr().out
    assert script.main([], [path]) == 0
    text = path.read_text(encoding="utf-8")
    assert text == f"# Options\n\n{START}\n\n{script.render_table()}\n{END}\n\nAfter.\n"
    assert script.main(["--check"], [path]) == 0


def test_a_file_without_its_markers_is_refused(script: ModuleType) -> None:
    with pytest.raises(script.MarkerError):
        script.replace_table("no markers here", "| table |\n")
    with pytest.raises(script.MarkerError):
        script.replace_table(f"{END}\n{START}\n", "| table |\n")
