"""The mutator of ``scripts/mutation.py`` (issue 31): its mutants and their ids.

Only the mutator is tested here, on tiny sources; the mutation run itself takes benchmark
time and is not part of the test suite (see ``docs/testing.md``).
"""

from __future__ import annotations

import ast
from types import ModuleType
from typing import Any

import pytest

from tests.conftest import ROOT, load_module

SOURCE = '''"""A docstring."""

LIMIT: int = 3


def keep(count: int, phase: Phase, flag: bool = True) -> bool:
    """Say whether to keep."""
    if count < LIMIT and not flag:
        raise ValueError(f"too few: {count + 1}")
    total = count * 2
    return phase is Phase.LAY or total == 4
'''


@pytest.fixture(scope="module")
def mutation() -> ModuleType:
    return load_module(ROOT / "scripts" / "mutation.py", "mutation_script")


def _mutants(mutation: ModuleType, source: str = SOURCE) -> list[Any]:
    members = {"Phase": ("LAY", "DRAW", "FLOCK")}
    return list(mutation.generate_mutants("demo", "cuckoo_rules/demo.py", source, None, members))


def test_every_operator_has_its_mutants(mutation: ModuleType) -> None:
    changes = {(m.operator, m.before, m.after) for m in _mutants(mutation)}
    expected = {
        ("off_by_one", "3", "(4)"),
        ("true_false", "True", "(False)"),
        ("flip_cmp", "count < LIMIT", "(count <= LIMIT)"),
        ("negate", "count < LIMIT and not flag", "(not (count < LIMIT and (not flag)))"),
        ("and_or", "count < LIMIT and not flag", "(count < LIMIT or not flag)"),
        ("drop_not", "not flag", "(flag)"),
        ("swap_arith", "count * 2", "(count // 2)"),
        ("off_by_one", "2", "(3)"),
        ("del_stmt", "total = count * 2", "pass"),
        ("flip_cmp", "phase is Phase.LAY", "(phase is not Phase.LAY)"),
        ("swap_member", "Phase.LAY", "(Phase.DRAW)"),
        ("swap_member", "Phase.LAY", "(Phase.FLOCK)"),
        ("flip_cmp", "total == 4", "(total != 4)"),
    }
    assert expected <= changes
    # A mutant inside an f-string rewrites the whole f-string; a raise is deleted apart.
    assert ("swap_arith", 'f"too few: {count + 1}"', "f'too few: {count - 1}'") in changes
    assert any(op == "del_raise" for op, _, _ in changes)


def test_docstrings_annotations_and_the_last_return_are_left_alone(mutation: ModuleType) -> None:
    mutants = _mutants(mutation)
    assert all("docstring" not in m.before and "Say whether" not in m.before for m in mutants)
    assert all(m.line != 6 for m in mutants if m.operator != "true_false")  # the signature
    assert not any(m.operator == "del_stmt" and m.before.startswith("return") for m in mutants)


def test_each_mutant_is_valid_python_and_changes_the_tree(mutation: ModuleType) -> None:
    original = ast.dump(ast.parse(SOURCE))
    for mutant in _mutants(mutation):
        changed = mutation.mutated_source(mutant, SOURCE)
        assert ast.dump(ast.parse(changed)) != original, mutant.id


def test_ids_are_unique_and_stable(mutation: ModuleType) -> None:
    mutants = _mutants(mutation)
    ids = [m.id for m in mutants]
    assert len(set(ids)) == len(ids)
    assert ids == [m.id for m in _mutants(mutation)]
    first = next(m for m in mutants if m.operator == "off_by_one" and m.before == "3")
    assert first.id.startswith("demo:L3:C13:off_by_one:")


def test_an_equivalent_entry_follows_its_code_when_lines_move(mutation: ModuleType) -> None:
    before = _mutants(mutation)
    moved = _mutants(mutation, SOURCE.replace('"""A docstring."""\n', '"""A docstring."""\n\n\n'))
    target = next(m for m in before if m.operator == "swap_arith" and m.before == "count * 2")
    entry = mutation.Equivalent(target.id, "a reason")
    matched, stale = mutation.match_equivalents(moved, [entry])
    (moved_id,) = matched
    assert moved_id != target.id
    assert moved_id.split(":")[-2:] == target.id.split(":")[-2:]
    assert not stale
    gone = mutation.Equivalent("demo:L9:C1:flip_cmp:00000000", "gone")
    assert mutation.match_equivalents(moved, [gone])[1] == [gone]


def test_the_module_table_names_existing_files(mutation: ModuleType) -> None:
    for spec in mutation.MODULES.values():
        for file in spec.files:
            assert (ROOT / "src" / "cuckoo_rules" / file).is_file(), file
        for test in spec.tests:
            assert (ROOT / test).exists(), test


def test_the_equivalents_file_reads_and_every_entry_has_a_reason(mutation: ModuleType) -> None:
    entries = mutation.load_equivalents()
    assert len({e.id for e in entries}) == len(entries)
    assert all(e.reason.strip() for e in entries)


def test_the_markdown_table(mutation: ModuleType) -> None:
    row = {
        "module": "demo",
        "mutants": 10,
        "killed": 7,
        "timed_out": 1,
        "survived": 1,
        "not_covered": 0,
        "errors": 0,
        "equivalent": 1,
        "score": 88.9,
        "seconds": 75,
    }
    table = mutation.markdown_table([row])
    assert table.splitlines()[-1] == "| demo | 10 | 7 | 1 | 1 | 0 | 1 | 88.9% | 1:15 |"


def test_a_saved_report_drops_the_mutants_the_mutator_no_longer_makes(
    mutation: ModuleType,
) -> None:
    gone = "outcome:L1:C0:flip_cmp:00000000"
    row = {"module": "outcome", "mutants": 3, "killed": 2, "timed_out": 0, "survived": 1}
    row |= {"not_covered": 0, "errors": 0, "equivalent": 0, "score": 66.7, "seconds": 1}
    data: dict[str, Any] = {
        "modules": [row],
        "survivors": [{"id": gone, "status": "survived", "where": "", "diff": ""}],
    }
    mutation.refresh_report(data, ROOT)
    assert (row["mutants"], row["survived"], row["score"]) == (2, 0, 100.0)
    assert data["survivors"] == []
