"""The house rules that keep the package in order, checked on its source."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import cuckoo_rules as cr

SRC = Path(cr.__file__).resolve().parent


def private_imports(tree: ast.Module) -> list[str]:
    """The private names a module takes from another: ``from x import _y`` and ``x._y``."""
    found = []
    modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append(f"line {node.lineno}: from {node.module} import {alias.name}")
                modules.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            modules.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
            and isinstance(node.value, ast.Name)
            and node.value.id in modules
        ):
            found.append(f"line {node.lineno}: {node.value.id}.{node.attr}")
    return found


@pytest.mark.parametrize("path", sorted(SRC.rglob("*.py")), ids=lambda p: str(p.relative_to(SRC)))
def test_no_module_imports_a_private_name_of_another(path: Path) -> None:
    assert private_imports(ast.parse(path.read_text(encoding="utf-8"))) == []


def test_the_check_finds_private_imports() -> None:
    tree = ast.parse("from .state import _SMALL\nimport argparse\nx: argparse._Sub\n")
    assert private_imports(tree) == [
        "line 1: from state import _SMALL",
        "line 3: argparse._Sub",
    ]


def test_the_top_level_is_the_model_and_its_formats() -> None:
    assert len(cr.__all__) <= 50
    assert len(set(cr.__all__)) == len(cr.__all__)
    for name in cr.__all__:
        assert hasattr(cr, name), name
    relied_on = [
        "Species",
        "Side",
        "Phase",
        "GameOptions",
        "GameState",
        "PlayerView",
        "Action",
        "Lay",
        "Draw",
        "FlyHome",
        "Pass",
        "Match",
        "new_game",
        "legal_actions",
        "legal_action_mask",
        "apply",
        "step",
        "observe",
        "determinize",
        "visible_events",
        "encode_state",
        "decode_state",
        "encode_view",
        "decode_view",
        "encode_action",
        "decode_action",
        "encode_event",
        "decode_event",
        "action_id",
        "action_from_id",
        "NUM_DISTINCT_ACTIONS",
        "format_action",
        "parse_action",
        "GameRecord",
        "replay",
        "dumps_record",
        "loads_record",
        "json_schema",
        "CuckooError",
        "IllegalActionError",
        "DecodeError",
        "InvalidOptionsError",
        "RecordError",
        "ViewError",
    ]
    assert set(relied_on) <= set(cr.__all__)
    # The bots, tournaments and adapters are submodules, not top-level names.
    assert not {"GreedyBot", "play_game", "run_tournament", "CuckooEnv"} & set(cr.__all__)
    assert cr.bots.GreedyBot.__module__ == "cuckoo_rules.bots.greedy"
