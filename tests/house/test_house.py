"""The house rules that keep the package in order, checked on its source.

- No module takes a private name (``_name``) of another module.
- No module imports a private module (``cuckoo_rules.x._y``) of a package it is not in:
  a private module serves its own package only (``cuckoo_rules._consistency`` serves the
  whole library, ``cuckoo_rules.codec.fields`` is public for the readers outside
  :mod:`cuckoo_rules.codec`). Imports inside functions count too.
- Every exception class the core raises is defined in :mod:`cuckoo_rules.errors` (and
  importable from its old module too); the front ends keep theirs in their own packages.
- The top level holds the model and its formats.

The layer order itself is checked by import-linter (``lint-imports``, see
``CONTRIBUTING.md``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import cuckoo_rules as cr

SRC = Path(cr.__file__).resolve().parent
MODULES = sorted(SRC.rglob("*.py"))


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


def module_name(path: Path) -> tuple[str, bool]:
    """The dotted name of the module at ``path`` under ``SRC``, and whether it is a package."""
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        return ".".join(parts[:-1]), True
    return ".".join(parts), False


def imported_modules(tree: ast.Module, name: str, is_package: bool) -> list[tuple[int, str]]:
    """Every module (or module attribute) ``name``'s code imports, as absolute dotted names.

    ``from .a import b`` in ``pkg.mod`` gives ``pkg.a`` and ``pkg.a.b`` (``b`` may be a
    module); imports inside functions are included.
    """
    package = name if is_package else name.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            found.append((node.lineno, module))
            found.extend((node.lineno, f"{module}.{alias.name}") for alias in node.names)
        elif isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
    return found


def private_module_imports(tree: ast.Module, name: str, is_package: bool = False) -> list[str]:
    """The imports by module ``name`` of a private module of a package it is not in.

    A dotted name's first private part (``_y`` in ``cuckoo_rules.x._y.z``) is private to
    the package before it (``cuckoo_rules.x``): only modules in that package, its
    subpackages included, may import it.
    """
    found = []
    for line, imported in imported_modules(tree, name, is_package):
        parts = imported.split(".")
        if parts[0] != "cuckoo_rules":
            continue
        for i, part in enumerate(parts):
            if part.startswith("_") and not part.startswith("__"):
                owner = ".".join(parts[:i])
                if name != owner and not name.startswith(f"{owner}."):
                    found.append(f"line {line}: {'.'.join(parts[: i + 1])} (private to {owner})")
                break
    return sorted(set(found))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(SRC)))
def test_no_module_imports_a_private_module_of_another_package(path: Path) -> None:
    name, is_package = module_name(path)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assert private_module_imports(tree, name, is_package) == []


def test_the_check_finds_private_modules_of_other_packages() -> None:
    source = """
from .codec._fields import fail
from .codec.fields import mapping
from . import _consistency
from ._phrases import TABLES
import cuckoo_rules.batch._kernels as kernels

def later() -> None:
    from .envs._common import learner_seats
"""
    assert private_module_imports(ast.parse(source), "cuckoo_rules.records") == [
        "line 2: cuckoo_rules.codec._fields (private to cuckoo_rules.codec)",
        "line 6: cuckoo_rules.batch._kernels (private to cuckoo_rules.batch)",
        "line 9: cuckoo_rules.envs._common (private to cuckoo_rules.envs)",
    ]
    inside = "from ._fields import fail\nfrom .._consistency import known_problem\n"
    assert private_module_imports(ast.parse(inside), "cuckoo_rules.codec.state") == []
    package = "from ._kernels import step\nfrom .gymnasium import BatchEnv\n"
    assert private_module_imports(ast.parse(package), "cuckoo_rules.batch", True) == []
    assert module_name(SRC / "codec" / "__init__.py") == ("cuckoo_rules.codec", True)
    assert module_name(SRC / "records.py") == ("cuckoo_rules.records", False)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(SRC)))
def test_no_module_imports_a_private_name_of_another(path: Path) -> None:
    assert private_imports(ast.parse(path.read_text(encoding="utf-8"))) == []


def test_the_check_finds_private_imports() -> None:
    tree = ast.parse("from .state import _SMALL\nimport argparse\nx: argparse._Sub\n")
    assert private_imports(tree) == [
        "line 1: from state import _SMALL",
        "line 3: argparse._Sub",
    ]


FRONT_ENDS = ("cuckoo_rules.web", "cuckoo_rules.terminal", "cuckoo_rules.cli")
"""The front ends: they define their own errors, in their own packages."""


def exception_classes(tree: ast.Module) -> list[str]:
    """The public classes a module defines that derive from an error or an exception class."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            bases = [
                b.attr if isinstance(b, ast.Attribute) else getattr(b, "id", "") for b in node.bases
            ]
            if any(base.endswith(("Error", "Exception")) for base in bases):
                found.append(node.name)
    return found


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(SRC)))
def test_the_core_defines_its_exceptions_in_errors_only(path: Path) -> None:
    name, _ = module_name(path)
    if name == "cuckoo_rules.errors" or name.startswith(FRONT_ENDS):
        return
    assert exception_classes(ast.parse(path.read_text(encoding="utf-8"))) == []


def test_the_errors_are_importable_from_their_old_modules() -> None:
    from cuckoo_rules import errors, match, narration, records
    from cuckoo_rules.bots import base

    old_paths = {
        records: ["RecordError"],
        match: ["MatchError", "StaleMoveError", "BotError"],
        narration: ["NarrationError"],
        base: ["BotError", "BotSpecError"],
        cr.bots: ["BotError", "BotSpecError"],
    }
    for module, names in old_paths.items():
        for name in names:
            assert name in module.__all__, (module.__name__, name)
            assert getattr(module, name) is getattr(errors, name), (module.__name__, name)
            assert getattr(errors, name).__module__ == "cuckoo_rules.errors"
    assert cr.RecordError is errors.RecordError
    assert exception_classes(ast.parse("class A(CuckooError, ValueError): ...")) == ["A"]
    assert exception_classes(ast.parse("class _A(Exception): ...\nclass B: ...")) == []


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
