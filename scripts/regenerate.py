"""Regenerate all the pinned data, or check that it is up to date: one command.

Pinned data is what the tests compare the library with, written once by the library
itself: after an intended change of the rules or of a format, regenerate it with this
command and review the diff (``git diff``) before committing it::

    python scripts/regenerate.py            # rewrite whatever is out of date
    python scripts/regenerate.py --check    # write nothing; exit status 1 if anything is
    python scripts/regenerate.py --only golden,perft   # some steps only (see --list)

The steps, in this order:

``golden``
    The golden games, ``tests/data/golden/`` (``scripts/make_golden.py``).
``schemas``
    The JSON Schemas shipped in the package, ``src/cuckoo_rules/schema/``
    (``scripts/make_schemas.py``).
``options-table``
    The table of game options in ``README.md`` and ``docs/rules.md``
    (``scripts/make_option_docs.py``).
``bot-table``
    The table of bot parameters in ``docs/bots.md`` (``scripts/make_bot_docs.py``).
``card-art``
    The card art drawn from the model (``scripts/make_card_art.py``, when it exists).
``perft``
    The perft counts of ``PERFT`` in ``tests/rules/test_perft.py``, computed again with the
    engine (the hand-checked breakdown tests beside it stay by hand).
``snapshots``
    The text snapshots of the terminal's board (the constants of :data:`SNAPSHOTS`):
    each is what the tests that compare with it now see.
``vectors``
    The shared test vectors, ``../shared/vectors``: the specification's, so they are
    only ever checked, never written. Each replays with the engine (the states after
    every action, byte for byte), each version 1 document reads as its version 2 twin,
    and the copies in ``tests/data/vectors`` equal them (a copy that differs is copied
    again from ``../shared/vectors``, unless ``--check``).

Exit status: 0 when everything this command can write is (now) up to date; 1 when
``--check`` finds something out of date (the vectors included) or a step fails; 2 for
a bad command line. Without ``--check``, vectors that do not replay are reported as a
warning and do not change the status: a rule change that breaks them is a change of the
specification, which this command cannot make.

Doctests and the examples of ``docs/*.md`` that show a game's numbers are pinned too,
by hand: the test run names them when they fail.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import inspect
import json
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SHARED_VECTORS = ROOT.parent / "shared" / "vectors"
VECTOR_COPIES = ROOT / "tests" / "data" / "vectors"
PERFT_TESTS = ROOT / "tests" / "rules" / "test_perft.py"

SNAPSHOTS: dict[str, tuple[str, ...]] = {
    "tests/frontends/test_terminal.py": (
        "START_2P_SEED_7",
        "MIDGAME_3P_SEAT_1",
        "MIDGAME_3P_SPECTATOR",
    ),
}
"""The text snapshots: module-level string constants of test files, by file."""


class StepError(Exception):
    """A step could not run (a script failed, a pinned value could not be found)."""


class Outcome:
    """What one step found: the files out of date, and the problems it cannot mend."""

    def __init__(self) -> None:
        self.stale: list[str] = []
        """What was (or, with ``--check``, would be) rewritten."""
        self.broken: list[str] = []
        """What does not hold and cannot be regenerated (the shared vectors)."""


# --------------------------------------------------------------------------- the scripts


def _script(name: str, check: bool, outcome: Outcome) -> None:
    """Run ``scripts/<name>`` (with ``--check`` first, then without if anything differs)."""
    path = ROOT / "scripts" / name
    checked = subprocess.run(
        [sys.executable, str(path), "--check"], cwd=ROOT, capture_output=True, text=True
    )
    if checked.returncode not in (0, 1):
        raise StepError(f"{name} --check failed:\n{checked.stdout}{checked.stderr}")
    if checked.returncode == 0:
        return
    outcome.stale.append(checked.stdout.strip() or f"{name} reports files out of date")
    if check:
        return
    written = subprocess.run([sys.executable, str(path)], cwd=ROOT, capture_output=True, text=True)
    if written.returncode != 0:
        raise StepError(f"{name} failed:\n{written.stdout}{written.stderr}")


def _script_step(name: str) -> Callable[[bool, Outcome], None]:
    def step(check: bool, outcome: Outcome) -> None:
        _script(name, check, outcome)

    step.__doc__ = f"Run scripts/{name}."
    return step


def _card_art(check: bool, outcome: Outcome) -> None:
    """Run ``scripts/make_card_art.py`` if it exists."""
    if (ROOT / "scripts" / "make_card_art.py").is_file():
        _script("make_card_art.py", check, outcome)
    else:
        print("  (no scripts/make_card_art.py: nothing to do)")


# --------------------------------------------------------------------------- pinned literals


def _import_test_module(relative: str) -> ModuleType:
    """Import a test file as a module of the ``tests`` package (from this checkout)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    name = relative.removesuffix(".py").replace("/", ".")
    try:
        return importlib.import_module(name)
    except Exception as error:
        raise StepError(f"cannot import {relative}: {type(error).__name__}: {error}") from error


def _module_assignment(tree: ast.Module, name: str) -> ast.expr:
    """The value of the module-level assignment of ``name``."""
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in node.targets
        ):
            return node.value
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and node.target.id == name
            and node.value is not None
        ):
            return node.value
    raise StepError(f"no module-level assignment of {name}")


def _replace(text: str, replacements: list[tuple[ast.expr, str]]) -> str:
    """Replace the source of each node by its new source, from the end of the text back."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(line: int, column: int) -> int:  # ast columns count UTF-8 bytes
        return starts[line - 1] + len(lines[line - 1].encode()[:column].decode())

    spans = []
    for node, new in replacements:
        assert node.end_lineno is not None
        assert node.end_col_offset is not None
        begin = offset(node.lineno, node.col_offset)
        spans.append((begin, offset(node.end_lineno, node.end_col_offset), new))
    for begin, end, new in sorted(spans, reverse=True):
        text = text[:begin] + new + text[end:]
    return text


def _rewrite(path: Path, replacements: list[tuple[ast.expr, str]], check: bool) -> bool:
    """Apply ``replacements`` to ``path`` (unless ``check``); whether anything changed."""
    text = path.read_text(encoding="utf-8")
    new = _replace(text, replacements)
    if new == text:
        return False
    if not check:
        path.write_text(new, encoding="utf-8")
    return True


def _perft(check: bool, outcome: Outcome) -> None:
    """Compute the counts of ``PERFT`` in ``tests/rules/test_perft.py`` again, as deep as pinned."""
    import cuckoo_rules as cr

    module = _import_test_module("tests/rules/test_perft.py")
    tree = ast.parse(PERFT_TESTS.read_text(encoding="utf-8"))
    table = _module_assignment(tree, "PERFT")
    if not isinstance(table, ast.List) or len(table.elts) != len(module.PERFT):
        raise StepError("tests/rules/test_perft.py: PERFT is not a list literal of its entries")
    replacements = []
    for node, (seed, options, expected) in zip(table.elts, module.PERFT, strict=True):
        if not isinstance(node, ast.Tuple) or len(node.elts) != 3:
            raise StepError(
                f"tests/rules/test_perft.py line {node.lineno}: not (seed, options, counts)"
            )
        state = cr.new_game(cr.GameOptions(**options), seed)
        counts = tuple(module.perft(state, depth) for depth in range(1, len(expected) + 1))
        if counts != tuple(expected):
            replacements.append((node.elts[2], repr(counts)))
    if _rewrite(PERFT_TESTS, replacements, check):
        outcome.stale.append(f"tests/rules/test_perft.py: {len(replacements)} perft counts")


class _Recorder:
    """Stands for a pinned constant while a test runs: equal to anything, it keeps what."""

    def __init__(self) -> None:
        self.seen: list[object] = []

    def __eq__(self, other: object) -> bool:
        self.seen.append(other)
        return True

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None  # type: ignore[assignment]


def _tests_using(tree: ast.Module, name: str) -> Iterator[str]:
    """The module-level test functions that read ``name``."""
    for node in tree.body:
        if (
            isinstance(node, ast.FunctionDef)
            and node.name.startswith("test")
            and any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))
        ):
            yield node.name


def _string_literal(text: str, old_source: str) -> str:
    """The source of a string literal holding ``text``, in the form of the old one if it can."""
    plain = all(c == "\n" or c.isprintable() for c in text)
    if plain and '"""' not in text and "\\" not in text and not text.endswith('"'):
        return '"""\\\n' + text + '"""' if old_source.startswith('"""') else repr(text)
    return repr(text)


def _snapshots(check: bool, outcome: Outcome) -> None:
    """Take the snapshots of :data:`SNAPSHOTS` again: what the tests that use them now see."""
    for relative, names in SNAPSHOTS.items():
        path = ROOT / relative
        module = _import_test_module(relative)
        source = path.read_text(encoding="utf-8")
        tree = ast.parse(source)
        replacements = []
        for name in names:
            node = _module_assignment(tree, name)
            tests = list(_tests_using(tree, name))
            if not tests:
                raise StepError(f"{relative}: no test function uses {name}")
            recorder = _Recorder()
            old = getattr(module, name)
            setattr(module, name, recorder)
            try:
                for test in tests:
                    function = getattr(module, test)
                    if inspect.signature(function).parameters:
                        continue  # a test with fixtures: the others say what it is
                    try:
                        function()
                    except Exception as error:
                        raise StepError(f"{relative}::{test} failed: {error!r}") from error
            finally:
                setattr(module, name, old)
            values = {repr(value) for value in recorder.seen}
            if len(values) != 1 or not isinstance(recorder.seen[0], str):
                raise StepError(f"{relative}: the tests compare {name} with {len(values)} values")
            new: str = recorder.seen[0]
            if new != old:
                segment = ast.get_source_segment(source, node) or ""
                replacements.append((node, _string_literal(new, segment)))
                outcome.stale.append(f"{relative}: {name}")
        _rewrite(path, replacements, check)


# --------------------------------------------------------------------------- the shared vectors


def _load(path: Path) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return document


def _dump(doc: object) -> str:
    return json.dumps(doc)


def _replay_problem(path: Path) -> str | None:
    """What is wrong when a version 2 vector is replayed with the engine, or ``None``."""
    import cuckoo_rules as cr

    doc = _load(path)
    state = cr.new_game(cr.GameOptions(**doc["options"]), doc["seed"])
    if "state" in doc:  # a setup vector
        return None if _dump(cr.encode_state(state)) == _dump(doc["state"]) else "the deal"
    if _dump(cr.encode_state(state)) != _dump(doc["states"][0]):
        return "the deal"
    for index, action_doc in enumerate(doc["actions"]):
        action = cr.decode_action(action_doc)
        if action not in cr.legal_actions(state):
            return f"action {index} is not legal"
        state = cr.apply(state, action)
        if _dump(cr.encode_state(state)) != _dump(doc["states"][index + 1]):
            return f"the state after action {index}"
    return None


def _v1_problem(path: Path, twin: Path) -> str | None:
    """What is wrong when a version 1 vector is read as its version 2 twin, or ``None``."""
    import cuckoo_rules as cr

    old, new = _load(path), _load(twin)
    if "state" in old:
        pairs = [(old["state"], new["state"])]
    elif len(old["states"]) != len(new["states"]):
        return "not as many states as the version 2 vector"
    else:
        pairs = list(zip(old["states"], new["states"], strict=True))
    for index, (v1, v2) in enumerate(pairs):
        if _dump(cr.encode_state(cr.decode_state(v1))) != _dump(v2):
            return f"state {index} does not read as the version 2 one"
    return None


def _vectors(check: bool, outcome: Outcome) -> None:
    """Check the shared vectors (never written) and the copies of them in ``tests/data``."""
    source = SHARED_VECTORS if SHARED_VECTORS.is_dir() else VECTOR_COPIES
    if source is VECTOR_COPIES:
        print(f"  ({SHARED_VECTORS} is not there: checking the copies in tests/data/vectors)")
    for folder in (".", "v2"):
        for path in sorted((source / folder).glob("*.json")):
            name = f"{folder}/{path.name}".removeprefix("./")
            try:
                if folder == "v2":
                    problem = _replay_problem(path)
                else:
                    problem = _v1_problem(path, source / "v2" / path.name)
            except Exception as error:  # a vector the library cannot even read
                problem = f"{type(error).__name__}: {error}"
            if problem is not None:
                outcome.broken.append(f"vectors/{name}: {problem}")
            copy = VECTOR_COPIES / folder / path.name
            if source is SHARED_VECTORS and (
                not copy.is_file() or copy.read_bytes() != path.read_bytes()
            ):
                outcome.stale.append(f"tests/data/vectors/{name} (a copy of ../shared/vectors)")
                if not check:
                    copy.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(path, copy)


# --------------------------------------------------------------------------- the command

STEPS: dict[str, Callable[[bool, Outcome], None]] = {
    "golden": _script_step("make_golden.py"),
    "schemas": _script_step("make_schemas.py"),
    "options-table": _script_step("make_option_docs.py"),
    "bot-table": _script_step("make_bot_docs.py"),
    "card-art": _card_art,
    "perft": _perft,
    "snapshots": _snapshots,
    "vectors": _vectors,
}
"""Every step by name, in the order they run."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the steps; return the exit status (see the module documentation)."""
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="The steps: " + ", ".join(STEPS) + ". See the script's documentation.",
    )
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if stale")
    parser.add_argument("--only", default=None, help="comma-separated steps to run (all)")
    parser.add_argument("--list", action="store_true", help="list the steps and stop")
    args = parser.parse_args(argv)
    if args.list:
        for name, step in STEPS.items():
            print(f"{name}: {(step.__doc__ or '').splitlines()[0]}")
        return 0
    chosen = list(STEPS) if args.only is None else [s.strip() for s in args.only.split(",")]
    unknown = [name for name in chosen if name not in STEPS]
    if unknown:
        parser.error(f"unknown step {', '.join(unknown)}: the steps are {', '.join(STEPS)}")
    failed = stale = broken = False
    for name in chosen:
        print(f"== {name}", flush=True)
        outcome = Outcome()
        try:
            STEPS[name](args.check, outcome)
        except Exception as error:  # a StepError, or a bug the step met
            print(f"  FAILED: {error}" if isinstance(error, StepError) else f"  FAILED: {error!r}")
            failed = True
            continue
        verb = "out of date" if args.check else "rewritten"
        for item in outcome.stale:
            print(f"  {verb}: {item}".replace("\n", "\n    "))
        for item in outcome.broken:
            print(f"  DOES NOT HOLD (the specification's; not regenerable here): {item}")
        stale = stale or bool(outcome.stale)
        broken = broken or bool(outcome.broken)
        if not outcome.stale and not outcome.broken:
            print("  up to date")
    if failed:
        print("some steps failed (see above)")
        return 1
    if args.check and (stale or broken):
        print("pinned data is out of date: run python scripts/regenerate.py, review the diff")
        return 1
    if broken:
        print("warning: the shared vectors do not hold (see above)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
