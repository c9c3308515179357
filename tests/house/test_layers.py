"""The house in layers: the import contracts, no import cycle, and a light ``import``.

The layers and their order are stated once, in ``[tool.importlinter]`` of pyproject.toml
(docs/architecture.md draws them); ``lint-imports`` checks them in CI, and so does this
module, with the same contracts, so that the README's test command catches a broken
layer too.
"""

from __future__ import annotations

import subprocess
import sys

import grimp
import pytest

from tests.conftest import ROOT

UPPER_LAYERS = ("batch", "bots", "envs", "web", "terminal", "cli")


def _strongly_connected(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    counter = 0
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(sorted(component))
    return components


def test_strongly_connected_finds_a_cycle_and_nothing_else() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert _strongly_connected(edges) == [["a", "b", "c"]]
    assert _strongly_connected({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_between_any_two_modules() -> None:
    # Every import grimp finds counts: top-level, function-level and TYPE_CHECKING ones.
    graph = grimp.build_graph("cuckoo_rules")
    edges = {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    assert _strongly_connected(edges) == []


def test_the_import_contracts_are_kept() -> None:
    # In a process of its own: import-linter's command line takes over the output streams.
    code = "import sys; from importlinter.cli import lint_imports_command as c; c()"
    command = [sys.executable, "-c", code, "--no-cache"]
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout
    assert "The layers, from the front ends down to the model KEPT" in run.stdout


@pytest.mark.parametrize(
    "statement", ["import cuckoo_rules", "import cuckoo_rules as cr; cr.Match"]
)
def test_import_loads_no_upper_layer(statement: str) -> None:
    code = (
        f"{statement}\nimport sys\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('cuckoo_rules'))))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    assert "cuckoo_rules.engine" in loaded  # the check can see what it looks for
    upper = [m for m in loaded if m.split(".")[1:2] and m.split(".")[1] in UPPER_LAYERS]
    assert upper == []


def test_an_upper_layer_loads_when_first_used() -> None:
    code = (
        "import cuckoo_rules as cr, sys; cr.bots.GreedyBot\n"
        "print('cuckoo_rules.bots' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"
    import cuckoo_rules as cr

    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        cr.nothing  # type: ignore[attr-defined]  # noqa: B018
    assert "bots" in dir(cr)


def test_a_stand_in_taken_before_first_use_serves_as_the_module() -> None:
    code = (
        "import sys\nfrom cuckoo_rules import batch, bots\n"
        "assert 'cuckoo_rules.bots' not in sys.modules\n"
        "bot = bots.GreedyBot\n"
        "import cuckoo_rules as cr\n"
        "assert cr.bots is sys.modules['cuckoo_rules.bots'] and bot is cr.bots.GreedyBot\n"
        "assert bots.RandomBot is cr.bots.RandomBot and 'play_game' in dir(bots)\n"
        "real = bots.RandomBot\n"
        "bots.RandomBot = 1\n"
        "assert cr.bots.RandomBot == 1  # a write through the stand-in reaches the module\n"
        "assert vars(bots) is vars(cr.bots)  # its namespace is the module's\n"
        "import pytest\n"
        "with pytest.MonkeyPatch.context() as patch:  # it reads vars() to save the old value\n"
        "    patch.setattr(bots, 'RandomBot', 2)\n"
        "    assert cr.bots.RandomBot == 2\n"
        "assert cr.bots.RandomBot == 1  # put back, not deleted\n"
        "bots.RandomBot = real\n"
        "try:\n    bots.nothing\nexcept AttributeError as error:\n    print(error)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "'cuckoo_rules.bots' has no attribute 'nothing'" in out.stdout


def test_the_package_has_no_module_getattr() -> None:
    # CPython 3.11 does not specialise attribute reads (``cr.apply``) on a module with a
    # __getattr__ (PEP 562): every read takes the slow path, about 5% of ``legal_actions``.
    import cuckoo_rules as cr

    assert "__getattr__" not in vars(cr)
