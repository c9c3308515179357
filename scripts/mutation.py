"""The mutation run: how many wrong rules would the tests notice (issue 31).

Usage (from the repository root; not part of CI, it takes benchmark-like time)::

    .venv/bin/python scripts/mutation.py --list --module preview     # the mutants, nothing run
    nice -n 10 .venv/bin/python scripts/mutation.py --module outcome  # run one module
    nice -n 10 .venv/bin/python scripts/mutation.py --jobs 2 --report scripts/mutation-report.json
    .venv/bin/python scripts/mutation.py --mutant 'preview:L57:C11:flip_cmp:1a2b3c4d'
    .venv/bin/python scripts/mutation.py --mutant ID --tests tests/rules/test_mutants_preview.py
    .venv/bin/python scripts/mutation.py --from-report scripts/mutation-report.json --markdown

``--mutant ID`` prints the mutant's diff, runs the module's tests (or ``--tests``) against it
and prints their output: "killed" means a test failed on the mutant, as it should. Other
options: ``--root DIR`` (another checkout, e.g. an exported older tree), ``--timeout-factor``,
``--no-cache`` (recompute the coverage map), ``--survivors`` (list them after the table),
``--resume REPORT`` (reuse the results of a stopped run's report). ``--from-report`` counts
the equivalents file as it is now; with ``--report`` it merges the reports into one.

What it does. The rules' modules (:data:`MODULES`) are parsed and mutated by a small AST
mutator (:func:`generate_mutants`): flipped comparisons, integer constants off by one,
swapped arithmetic operators, negated conditions, ``and``/``or`` swapped, ``True``/``False``
swapped, deleted statements (asserts aside) and raises, two adjacent call arguments
swapped, and a ``Phase`` or ``Side`` member replaced by another. Docstrings, annotations,
decorators, ``__all__`` and ``TYPE_CHECKING`` blocks are left alone. Nothing under ``src/``
or ``tests/`` of the checkout is touched: ``src``, ``tests`` and ``pyproject.toml`` are
copied to a temporary directory, one copy of ``src`` per job, and pytest runs there with
``PYTHONPATH`` pointing at the job's copy.

First the module's tests run once under coverage.py with one context per test (the map from a
line to the tests that run it is cached in the temporary directory, keyed by the files'
contents). Then each mutant runs only the tests that cover its lines, fastest first, with
``-x``, the Hypothesis CI profile (``CI=true``; derandomized) and two timeouts (5 times the
tests' measured time, and 5 times the longest test's without a test ending); a line run at
import time (a module constant) gets all the module's tests, those that run most of the file
per second first. A pytest server per job (:class:`_Worker`) imports pytest once and forks a
child per mutant. A mutant no test covers counts as "not covered" and survives; one that
hangs is "timed out" (killed, counted apart).

Mutant ids are ``<module>:L<line>:C<col>:<operator>:<hash>`` (the hash is of the original and
the mutated source text), e.g. ``engine._turns:L120:C11:flip_cmp:0f3a9c1e``. Equivalent
mutants, which no input can tell apart from the original, are listed in
``scripts/mutation_equivalents.toml`` with a one-line reason each; an entry whose line moved
still matches by module, operator and hash when that is unique. Score = killed /
(mutants - equivalent), where killed counts timeouts.
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import contextlib
import difflib
import hashlib
import json
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
"""The checkout this script belongs to (the default ``--root``)."""

EQUIVALENTS = Path(__file__).resolve().parent / "mutation_equivalents.toml"
"""The reviewed list of equivalent mutants."""

PACKAGE = "cuckoo_rules"


@dataclass(frozen=True)
class ModuleSpec:
    """One mutated unit: its source files, its tests, and which functions count.

    Attributes:
        files: Paths under ``src/cuckoo_rules``.
        tests: Test files or folders (relative to the root) that are this module's own tests.
        include: If set, only code in functions whose qualified name matches is mutated.
        exclude: Code in functions whose qualified name matches is not mutated.
    """

    files: tuple[str, ...]
    tests: tuple[str, ...]
    include: str | None = None
    exclude: str | None = None


MODULES: dict[str, ModuleSpec] = {
    "outcome": ModuleSpec(("outcome.py",), ("tests/model", "tests/rules")),
    "cards": ModuleSpec(("cards.py",), ("tests/rules", "tests/model")),
    "preview": ModuleSpec(("preview.py",), ("tests/rules", "tests/model")),
    "knowledge": ModuleSpec(("knowledge.py",), ("tests/secrecy",)),
    "views": ModuleSpec(("views.py", "_consistency.py"), ("tests/secrecy",)),
    "determinization": ModuleSpec(("determinization.py",), ("tests/secrecy",)),
    "engine": ModuleSpec(
        (
            "engine/__init__.py",
            "engine/_legal.py",
            "engine/_piles.py",
            "engine/_setup.py",
            "engine/_turns.py",
        ),
        ("tests/rules", "tests/model"),
    ),
    # The JSON readers: the decode side of the codec and the record readers.
    "codec": ModuleSpec(
        (
            "codec/__init__.py",
            "codec/_public.py",
            "codec/action.py",
            "codec/counts.py",
            "codec/event.py",
            "codec/fields.py",
            "codec/options.py",
            "codec/state.py",
            "codec/versions.py",
            "codec/view.py",
        ),
        ("tests/formats", "tests/rules/test_events.py"),
        exclude=r"^(_?encode|field_writer|json_schema)",
    ),
    "records": ModuleSpec(
        ("records.py",),
        ("tests/formats",),
        include=r"^(_?decode|_?loads?_record|_TextReader|_check|check_record|_record_fail"
        r"|\w+\.__attrs_post_init__|illegal_action_error)",
    ),
}
"""The mutated modules, smallest run first, and their own tests."""

SKIPPED_CALLS = frozenset(
    {
        "isinstance",
        "issubclass",
        "getattr",
        "setattr",
        "hasattr",
        "super",
        "cast",
        "print",
        "assert_never",
        "field",
    }
)
"""Calls whose arguments are never swapped (the swap is a type error or meaningless)."""

SKIPPED_NAMES = frozenset({"__all__", "__slots__", "__match_args__", "__version__"})

_FLIP_CMP: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
}
_SWAP_ARITH: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.FloorDiv,
    ast.FloorDiv: ast.Mult,
    ast.Div: ast.Mult,
    ast.Mod: ast.FloorDiv,
}
OPERATORS = (
    "flip_cmp",
    "off_by_one",
    "swap_arith",
    "negate",
    "drop_not",
    "and_or",
    "true_false",
    "del_stmt",
    "del_raise",
    "swap_args",
    "swap_member",
)
"""The mutation operators, as they appear in mutant ids."""


@dataclass(frozen=True)
class Mutant:
    """One mutant: a piece of one file's source replaced by another.

    Attributes:
        id: The stable id (see the module docstring).
        module: The :data:`MODULES` key.
        path: The file, relative to ``src/``.
        line: The 1-based line of the replaced text.
        col: Its 0-based column (UTF-8 bytes, as in the AST).
        end_line: The line where the replaced text ends.
        end_col: The column where it ends.
        operator: One of :data:`OPERATORS`.
        qualname: The enclosing function or class (``<module>`` at the top level).
        before: The replaced text.
        after: The text put in its place.
        lines: The source lines whose tests decide the mutant.
    """

    id: str
    module: str
    path: str
    line: int
    col: int
    end_line: int
    end_col: int
    operator: str
    qualname: str
    before: str
    after: str
    lines: tuple[int, ...]

    def one_line(self) -> str:
        """The change in one line: ``before -> after``."""
        squash = re.compile(r"\s*\n\s*")
        return f"{squash.sub(' ', self.before)}  ->  {squash.sub(' ', self.after)}"


def _short_hash(*parts: str) -> str:
    return hashlib.sha1("\0".join(parts).encode()).hexdigest()[:8]


def _dotted(path: str) -> str:
    """``cuckoo_rules/engine/_turns.py`` -> ``engine._turns``; an ``__init__`` -> its package."""
    parts = Path(path).with_suffix("").parts
    if parts and parts[0] == PACKAGE:
        parts = parts[1:]
    if parts and parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts) or PACKAGE


def enum_members(src: Path) -> dict[str, tuple[str, ...]]:
    """The members of the ``Phase`` and ``Side`` enums, read from ``actions.py`` under ``src``."""
    members: dict[str, tuple[str, ...]] = {}
    path = src / PACKAGE / "actions.py"
    if not path.exists():
        return members
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ClassDef) and node.name in ("Phase", "Side"):
            names = [
                target.id
                for stmt in node.body
                if isinstance(stmt, ast.Assign)
                for target in stmt.targets
                if isinstance(target, ast.Name)
            ]
            members[node.name] = tuple(names)
    return members


class _Source:
    """A file's text with UTF-8 byte offsets, for splicing at AST positions."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.data = text.encode("utf-8")
        self.starts = [0]
        for index, byte in enumerate(self.data):
            if byte == 0x0A:
                self.starts.append(index + 1)

    def offset(self, line: int, col: int) -> int:
        return self.starts[line - 1] + col

    def segment(self, node: ast.AST) -> str:
        start, end = self._span(node)
        return self.data[start:end].decode("utf-8")

    def _span(self, node: ast.AST) -> tuple[int, int]:
        end_line = node.end_lineno  # type: ignore[attr-defined]
        end_col = node.end_col_offset  # type: ignore[attr-defined]
        start = self.offset(node.lineno, node.col_offset)  # type: ignore[attr-defined]
        return start, self.offset(end_line, end_col)

    def splice(self, line: int, col: int, end_line: int, end_col: int, text: str) -> str:
        start = self.offset(line, col)
        end = self.offset(end_line, end_col)
        return (self.data[:start] + text.encode("utf-8") + self.data[end:]).decode("utf-8")


def _is_docstring(stmt: ast.stmt) -> bool:
    """A docstring, or another bare constant (``...``)."""
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _replace_child(parent: ast.AST, old: ast.AST, new: ast.AST) -> None:
    for name, value in ast.iter_fields(parent):
        if value is old:
            setattr(parent, name, new)
            return
        if isinstance(value, list):
            for index, item in enumerate(value):
                if item is old:
                    value[index] = new
                    return
    raise ValueError("not a child")  # pragma: no cover


class _Generator:
    """Walks one file's tree and collects its mutants."""

    def __init__(
        self,
        module: str,
        path: str,
        text: str,
        spec: ModuleSpec,
        members: dict[str, tuple[str, ...]],
    ) -> None:
        self.module = module
        self.path = path
        self.source = _Source(text)
        self.tree = ast.parse(text)
        self.spec = spec
        self.members = members
        self.parents: dict[int, ast.AST] = {}
        for node in ast.walk(self.tree):
            for child in ast.iter_child_nodes(node):
                self.parents[id(child)] = node
        self.mutants: list[Mutant] = []
        self.dotted = _dotted(path)
        self.dump = ast.dump(self.tree)

    # -- the walk ---------------------------------------------------------------------------

    def run(self) -> list[Mutant]:
        self._body(self.tree.body, [], in_function=False)
        return self.mutants

    def _wanted(self, qualname: list[str]) -> bool:
        name = ".".join(qualname)
        if self.spec.include is not None and not re.search(self.spec.include, name):
            return False
        return not (self.spec.exclude is not None and re.search(self.spec.exclude, name))

    def _body(self, body: list[ast.stmt], qualname: list[str], *, in_function: bool) -> None:
        for stmt in body:
            self._stmt(stmt, qualname, in_function=in_function)

    def _stmt(self, stmt: ast.stmt, qualname: list[str], *, in_function: bool) -> None:
        if _is_docstring(stmt):
            return
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            inner = [*qualname, stmt.name]
            if any(
                _call_name_of(decorator) in ("overload", "abstractmethod")
                for decorator in stmt.decorator_list
            ):
                return
            for default in [*stmt.args.defaults, *stmt.args.kw_defaults]:
                if default is not None and self._wanted(inner):
                    self._expr(default, stmt, inner)
            self._body(stmt.body, inner, in_function=True)
            return
        if isinstance(stmt, ast.ClassDef):
            self._body(stmt.body, [*qualname, stmt.name], in_function=False)
            return
        if isinstance(stmt, ast.Import | ast.ImportFrom):
            return
        if isinstance(stmt, ast.If) and _is_type_checking(stmt.test):
            return
        if isinstance(stmt, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            if any(isinstance(t, ast.Name) and t.id in SKIPPED_NAMES for t in targets):
                return
        wanted = self._wanted(qualname) if qualname else self.spec.include is None
        if not wanted:
            # Descend anyway: a wanted function may be nested in an unwanted class.
            for child in _child_bodies(stmt):
                self._body(child, qualname, in_function=in_function)
            return
        # Statement-level mutants.
        deletable = in_function and isinstance(
            stmt,
            ast.Expr
            | ast.Assign
            | ast.AugAssign
            | ast.AnnAssign
            | ast.Raise
            | ast.Return
            | ast.Break
            | ast.Continue
            | ast.Delete,
        )
        # An assert is not deleted: that only matters if it can fail, which its negated
        # condition ("negate") shows; the deleted assert itself would be equivalent.
        if isinstance(stmt, ast.AnnAssign) and stmt.value is None:
            deletable = False
        if isinstance(stmt, ast.Return) and self._is_last_of_function(stmt):
            deletable = False  # the function would return None: a type error, not a rule
        if deletable:
            operator = "del_raise" if isinstance(stmt, ast.Raise) else "del_stmt"
            self._add(stmt, stmt, operator, "pass", qualname)
        # Conditions.
        if isinstance(stmt, ast.If | ast.While):
            self._condition(stmt.test, stmt, qualname)
        if isinstance(stmt, ast.Assert):
            self._condition(stmt.test, stmt, qualname)
        # Expressions directly in this statement (not in nested statements).
        for name, value in ast.iter_fields(stmt):
            if name in ("body", "orelse", "finalbody", "handlers", "decorator_list"):
                continue
            if name in ("annotation", "returns", "type_comment"):
                continue
            if isinstance(stmt, ast.AnnAssign) and name == "target":
                continue
            values = value if isinstance(value, list) else [value]
            for item in values:
                if isinstance(item, ast.expr):
                    self._expr(item, stmt, qualname)
        for handler in getattr(stmt, "handlers", []):
            self._body(handler.body, qualname, in_function=in_function)
        for child in _child_bodies(stmt):
            self._body(child, qualname, in_function=in_function)

    def _is_last_of_function(self, stmt: ast.stmt) -> bool:
        parent = self.parents.get(id(stmt))
        return (
            isinstance(parent, ast.FunctionDef | ast.AsyncFunctionDef) and parent.body[-1] is stmt
        )

    def _condition(self, test: ast.expr, stmt: ast.stmt, qualname: list[str]) -> None:
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            return  # drop_not covers it
        if (
            isinstance(test, ast.Compare)
            and len(test.ops) == 1
            and isinstance(
                test.ops[0], ast.Eq | ast.NotEq | ast.Is | ast.IsNot | ast.In | ast.NotIn
            )
        ):
            return  # flip_cmp is the same mutant
        self._mutate(test, stmt, "negate", ast.UnaryOp(op=ast.Not(), operand=test), qualname)

    def _expr(self, root: ast.expr, stmt: ast.stmt, qualname: list[str]) -> None:
        for node in _walk_expr(root):
            if isinstance(node, ast.Compare):
                for index, op in enumerate(node.ops):
                    flipped = _FLIP_CMP.get(type(op))
                    if flipped is not None:
                        ops = list(node.ops)
                        ops[index] = flipped()
                        new = ast.Compare(left=node.left, ops=ops, comparators=node.comparators)
                        self._mutate(node, stmt, "flip_cmp", new, qualname)
            elif isinstance(node, ast.BinOp):
                swapped = _SWAP_ARITH.get(type(node.op))
                if swapped is not None:
                    new_bin = ast.BinOp(left=node.left, op=swapped(), right=node.right)
                    self._mutate(node, stmt, "swap_arith", new_bin, qualname)
            elif isinstance(node, ast.BoolOp):
                other = ast.Or() if isinstance(node.op, ast.And) else ast.And()
                self._mutate(
                    node, stmt, "and_or", ast.BoolOp(op=other, values=node.values), qualname
                )
            elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
                self._mutate(node, stmt, "drop_not", node.operand, qualname)
            elif isinstance(node, ast.IfExp):
                self._condition(node.test, stmt, qualname)
            elif isinstance(node, ast.comprehension):
                for condition in node.ifs:
                    self._condition(condition, stmt, qualname)
            elif isinstance(node, ast.Constant):
                if node.value is True or node.value is False:
                    self._mutate(
                        node, stmt, "true_false", ast.Constant(value=not node.value), qualname
                    )
                elif type(node.value) is int:
                    new_int = ast.Constant(value=node.value + 1)
                    self._mutate(node, stmt, "off_by_one", new_int, qualname)
            elif isinstance(node, ast.Call):
                self._swap_args(node, stmt, qualname)
            elif (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in self.members
                and node.attr in self.members[node.value.id]
            ):
                for member in self.members[node.value.id]:
                    if member != node.attr:
                        new_attr = ast.Attribute(value=node.value, attr=member, ctx=ast.Load())
                        self._mutate(node, stmt, "swap_member", new_attr, qualname)

    def _swap_args(self, call: ast.Call, stmt: ast.stmt, qualname: list[str]) -> None:
        if _call_name_of(call) in SKIPPED_CALLS:
            return
        args = call.args
        if any(isinstance(arg, ast.Starred) for arg in args):
            return
        for index in range(len(args) - 1):
            first, second = args[index], args[index + 1]
            if ast.dump(first) == ast.dump(second):
                continue
            swapped = list(args)
            swapped[index], swapped[index + 1] = second, first
            new = ast.Call(func=call.func, args=swapped, keywords=call.keywords)
            self._mutate(call, stmt, "swap_args", new, qualname)

    # -- building mutants -------------------------------------------------------------------

    def _mutate(
        self, target: ast.expr, stmt: ast.stmt, operator: str, new: ast.expr, qualname: list[str]
    ) -> None:
        """Add the mutant that puts ``new`` in the place of ``target``.

        Inside an f-string the whole f-string is rewritten (positions inside f-strings are
        not reliable before Python 3.12).
        """
        anchor: ast.AST = target
        node: ast.AST = target
        while id(node) in self.parents:
            node = self.parents[id(node)]
            if isinstance(node, ast.JoinedStr):
                anchor = node
        if anchor is target:
            after = f"({ast.unparse(new)})"
        else:
            parent = self.parents[id(target)]
            _replace_child(parent, target, new)
            try:
                after = ast.unparse(anchor)
            finally:
                _replace_child(parent, new, target)
        self._add(anchor, stmt, operator, after, qualname)

    def _add(
        self, node: ast.AST, stmt: ast.stmt, operator: str, after: str, qualname: list[str]
    ) -> None:
        line = node.lineno  # type: ignore[attr-defined]
        col = node.col_offset  # type: ignore[attr-defined]
        end_line = node.end_lineno  # type: ignore[attr-defined]
        end_col = node.end_col_offset  # type: ignore[attr-defined]
        before = self.source.segment(node)
        mutated = self.source.splice(line, col, end_line, end_col, after)
        try:
            new_tree = ast.parse(mutated)
        except SyntaxError:
            return
        if ast.dump(new_tree) == self.dump:
            return
        lines = sorted({stmt.lineno, *range(line, end_line + 1)})
        hashed = _short_hash(before, after)
        mutant_id = f"{self.dotted}:L{line}:C{col}:{operator}:{hashed}"
        self.mutants.append(
            Mutant(
                id=mutant_id,
                module=self.module,
                path=self.path,
                line=line,
                col=col,
                end_line=end_line,
                end_col=end_col,
                operator=operator,
                qualname=".".join(qualname) or "<module>",
                before=before,
                after=after,
                lines=tuple(lines),
            )
        )


def _call_name_of(node: ast.expr) -> str:
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _child_bodies(stmt: ast.stmt) -> Iterator[list[ast.stmt]]:
    for name in ("body", "orelse", "finalbody"):
        value = getattr(stmt, name, None)
        if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
            yield value
    if isinstance(stmt, ast.Match):
        for case in stmt.cases:
            yield case.body


def _walk_expr(root: ast.AST) -> Iterator[ast.AST]:
    """The nodes of an expression, skipping lambdas' annotations and starred targets."""
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        children = list(ast.iter_child_nodes(node))
        stack.extend(reversed(children))


def generate_mutants(
    module: str,
    path: str,
    text: str,
    spec: ModuleSpec | None = None,
    members: dict[str, tuple[str, ...]] | None = None,
) -> list[Mutant]:
    """The mutants of one file, in source order, with unique ids.

    Args:
        module: The :data:`MODULES` key the file belongs to.
        path: The file's path relative to ``src/`` (``cuckoo_rules/preview.py``).
        text: The file's source.
        spec: The module's spec (for its include/exclude filters); none filters nothing.
        members: The enum members for ``swap_member`` (:func:`enum_members`).

    Returns:
        The mutants.
    """
    spec = spec or ModuleSpec((), ())
    mutants = _Generator(module, path, text, spec, members or {}).run()
    mutants.sort(key=lambda m: (m.line, m.col, OPERATORS.index(m.operator), m.after))
    seen: dict[str, int] = {}
    unique = []
    for mutant in mutants:
        count = seen.get(mutant.id, 0)
        seen[mutant.id] = count + 1
        if count:
            mutant = _with_id(mutant, f"{mutant.id}-{count}")
        unique.append(mutant)
    return unique


def _with_id(mutant: Mutant, new_id: str) -> Mutant:
    values = asdict(mutant)
    values["id"] = new_id
    values["lines"] = tuple(values["lines"])
    return Mutant(**values)


def mutated_source(mutant: Mutant, text: str) -> str:
    """The file's source with the mutant applied."""
    return _Source(text).splice(
        mutant.line, mutant.col, mutant.end_line, mutant.end_col, mutant.after
    )


def one_line_diff(mutant: Mutant) -> str:
    """``path:line: before -> after``."""
    return f"{mutant.path}:{mutant.line}: {mutant.one_line()}"


def unified_diff(mutant: Mutant, text: str) -> str:
    """The mutant as a unified diff of its file."""
    lines = difflib.unified_diff(
        text.splitlines(keepends=True),
        mutated_source(mutant, text).splitlines(keepends=True),
        fromfile=f"a/src/{mutant.path}",
        tofile=f"b/src/{mutant.path}",
        n=2,
    )
    return "".join(lines)


def module_mutants(root: Path, name: str) -> list[Mutant]:
    """All mutants of one module of :data:`MODULES` in the checkout at ``root``."""
    spec = MODULES[name]
    src = root / "src"
    members = enum_members(src)
    mutants: list[Mutant] = []
    for file in spec.files:
        path = f"{PACKAGE}/{file}"
        text = (src / path).read_text(encoding="utf-8")
        mutants.extend(generate_mutants(name, path, text, spec, members))
    return mutants


# -- equivalents ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Equivalent:
    """One reviewed equivalent mutant."""

    id: str
    reason: str


def load_equivalents(path: Path = EQUIVALENTS) -> list[Equivalent]:
    """The entries of the equivalents file (none if it does not exist)."""
    if not path.exists():
        return []
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return [Equivalent(str(e["id"]), str(e["reason"])) for e in data.get("equivalent", [])]


def _loose_key(mutant_id: str) -> tuple[str, str, str]:
    parts = mutant_id.split(":")
    return (parts[0], parts[-2], parts[-1]) if len(parts) >= 5 else (mutant_id, "", "")


def match_equivalents(
    mutants: Sequence[Mutant], equivalents: Sequence[Equivalent]
) -> tuple[dict[str, Equivalent], list[Equivalent]]:
    """Match the file's entries to mutants: by id, else by file, operator and hash if unique.

    Returns:
        The matched entries by mutant id, and the entries for these mutants' files that match
        no mutant (stale: the code changed; review them again).
    """
    by_id = {m.id: m for m in mutants}
    by_loose: dict[tuple[str, str, str], list[Mutant]] = {}
    for mutant in mutants:
        by_loose.setdefault(_loose_key(mutant.id), []).append(mutant)
    files = {_dotted(m.path) for m in mutants}
    matched: dict[str, Equivalent] = {}
    stale: list[Equivalent] = []
    for entry in equivalents:
        if entry.id in by_id:
            matched[entry.id] = entry
            continue
        candidates = by_loose.get(_loose_key(entry.id), [])
        if len(candidates) == 1:
            matched[candidates[0].id] = entry
        elif entry.id.split(":", 1)[0] in files:
            stale.append(entry)
    return matched, stale


# -- the work tree ----------------------------------------------------------------------------

_COPY_IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis", ".pytest_cache")
_NOT_LINKED = {"src", "tests", ".git", ".venv", "site", "test-artifacts", ".hypothesis"}


_BASES: list[Path] = []
"""The temporary directories of the workspaces, for :func:`_terminate`."""


class Workspace:
    """A temporary copy of the checkout: shared tests, one ``src`` per job."""

    def __init__(self, root: Path, jobs: int) -> None:
        self.base = Path(tempfile.mkdtemp(prefix="cuckoo-mutation-"))
        _BASES.append(self.base)
        self.root = self.base / "work"
        self.root.mkdir()
        shutil.copytree(root / "tests", self.root / "tests", ignore=_COPY_IGNORE)
        for entry in root.iterdir():
            if entry.name in _NOT_LINKED or entry.name.startswith("."):
                continue
            if entry.name == "pyproject.toml":
                shutil.copy2(entry, self.root / entry.name)
            else:
                (self.root / entry.name).symlink_to(entry)
        shared = root.parent / "shared"
        if not shared.exists():
            shared = ROOT.parent / "shared"  # an exported tree: this checkout's neighbour
        if shared.exists():
            (self.base / "shared").symlink_to(shared)
        self.slots: queue.Queue[Path] = queue.Queue()
        for index in range(max(1, jobs)):
            slot = self.base / f"job{index}"
            shutil.copytree(root / "src", slot / "src", ignore=_COPY_IGNORE)
            # A file named __pycache__ in each package: no bytecode is cached for the
            # copy, so a mutant's file is always compiled from its text.
            for package in (slot / "src").rglob("*"):
                if package.is_dir() and (package / "__init__.py").exists():
                    (package / "__pycache__").write_text("")
            (slot / "cwd").mkdir()
            self.slots.put(slot)
        self.workers: dict[Path, _Worker] = {}

    def worker(self, slot: Path) -> _Worker:
        """The slot's pytest server (started on first use, again if it died)."""
        worker = self.workers.get(slot)
        if worker is None or worker.process.poll() is not None:
            worker = self.workers[slot] = _Worker(slot)
        return worker

    def cleanup(self) -> None:
        for worker in self.workers.values():
            worker.close()
        shutil.rmtree(self.base, ignore_errors=True)


_SERVER = r"""
import json, os, signal, sys, time
import pytest, _hypothesis_pytestplugin, hypothesis, attrs  # warm, but no cuckoo_rules
for line in sys.stdin:
    request = json.loads(line)
    pid = os.fork()
    if pid == 0:
        fd = os.open(request["output"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        try:
            code = int(pytest.main(request["args"]))
        except BaseException:
            code = 3
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    now = time.monotonic()
    deadline = now + request["timeout"]
    stall, size, moved = request["stall"], 0, now
    code = None
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            code = os.waitstatus_to_exitcode(status)
            break
        now = time.monotonic()
        try:
            grown = os.path.getsize(request["output"])
        except OSError:
            grown = size
        if grown != size:  # a test ended (pytest -q prints a character per test)
            size, moved = grown, now
        if now > deadline or now - moved > stall:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            break
        time.sleep(0.02)
    print(json.dumps({"code": code}), flush=True)
"""


_CHILDREN: set[int] = set()
"""The process groups of the coverage runs under way, for :func:`_terminate`."""

_WORKERS: list[_Worker] = []
"""Every pytest server started, for :func:`_terminate`."""


def _terminate(signum: int, frame: object) -> None:
    """On SIGTERM: end the pytest servers and their runs, remove the copies, exit."""
    for worker in _WORKERS:
        worker.kill()
    for pid in _CHILDREN:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pid, signal.SIGKILL)
    for base in _BASES:
        shutil.rmtree(base, ignore_errors=True)
    os._exit(128 + signum)


class _Worker:
    """A pytest server for one slot: imports pytest once, forks a child per run.

    The child runs ``pytest.main`` and imports ``cuckoo_rules`` afresh from the slot's copy
    of ``src``, so each run sees the mutant written there, without the start-up of a new
    interpreter, pytest and Hypothesis.
    """

    def __init__(self, slot: Path) -> None:
        self.slot = slot
        self.process = subprocess.Popen(
            [*_nice(), sys.executable, "-c", _SERVER],
            cwd=slot / "cwd",
            env=_environment(slot),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        _WORKERS.append(self)

    def run(
        self, args: list[str], timeout: float, stall: float | None = None
    ) -> tuple[int | None, str, float]:
        """Run pytest with ``args``; ``None`` as the code means it timed out.

        It times out after ``timeout`` seconds, or after ``stall`` seconds in which no
        test ended (a mutant that loops forever in the first test is found early).
        """
        start = time.monotonic()
        output = self.slot / "output.txt"
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        stall = timeout if stall is None else stall
        request = {"args": args, "timeout": timeout, "stall": stall, "output": str(output)}
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        if not answer:
            raise RuntimeError(f"the pytest server of {self.slot} died")
        code: int | None = json.loads(answer)["code"]
        text = output.read_text(errors="replace") if output.exists() else ""
        return code, text, time.monotonic() - start

    def kill(self) -> None:
        """End the server and the run it is waiting for, now (its own process group)."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def _environment(slot: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        {
            "CI": "true",
            "PYTHONPATH": str(slot / "src"),
            "PYTHONDONTWRITEBYTECODE": "1",
            "PYTHONHASHSEED": "0",
        }
    )
    env.pop("HYPOTHESIS_PROFILE", None)
    env.pop("PYTEST_ADDOPTS", None)
    return env


PYTEST_OPTIONS = (
    "-o",
    "addopts=--strict-markers",
    "-p",
    "no:cacheprovider",
    "-p",
    "no:randomly",
    "--hypothesis-seed=0",
)


NICENESS = 10
"""The niceness of the test runs: 10, or this process's own if it is higher already."""


def _nice() -> list[str]:
    """The ``nice`` prefix that brings a child to :data:`NICENESS` (not 10 more than ours)."""
    more = NICENESS - os.nice(0)
    return ["nice", "-n", str(more)] if more > 0 else []


_QUIET = ("-W", "ignore::pytest.PytestAssertRewriteWarning")
"""The server imported Hypothesis before pytest could rewrite its asserts: that is fine."""


def _run(
    command: list[str], slot: Path, timeout: float | None, env: dict[str, str] | None = None
) -> tuple[int | None, str, float]:
    """Run a child in its own session under nice; ``None`` as the code means it timed out."""
    start = time.monotonic()
    environment = _environment(slot)
    environment.update(env or {})
    with subprocess.Popen(
        [*_nice(), *command],
        cwd=slot / "cwd",
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    ) as process:
        _CHILDREN.add(process.pid)
        try:
            output, _ = process.communicate(timeout=timeout)
            code: int | None = process.returncode
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            output, _ = process.communicate()
            code = None
        except BaseException:
            os.killpg(process.pid, signal.SIGKILL)
            raise
        finally:
            _CHILDREN.discard(process.pid)
    return code, output, time.monotonic() - start


_PLUGIN = '''
"""Coverage with one context per test, written by scripts/mutation.py."""
import json, os
import coverage

_OUT = os.environ["MUTATION_COVERAGE_OUT"]
_SRC = os.environ["MUTATION_COVERAGE_SRC"]
_cov = coverage.Coverage(data_file=None, source=[_SRC], config_file=False)
_cov.start()
_durations = {}
_failed = []


def pytest_runtest_logstart(nodeid, location):
    _cov.switch_context(nodeid)


def pytest_runtest_logreport(report):
    _durations[report.nodeid] = _durations.get(report.nodeid, 0.0) + report.duration
    if report.failed:
        _failed.append(report.nodeid)


def pytest_sessionfinish(session, exitstatus):
    _cov.stop()
    import cuckoo_rules
    data = _cov.get_data()
    lines = {}
    for path in data.measured_files():
        rel = os.path.relpath(path, _SRC)
        lines[rel] = {str(k): sorted(v) for k, v in data.contexts_by_lineno(path).items()}
    with open(_OUT, "w") as out:
        json.dump({"lines": lines, "durations": _durations, "failed": _failed,
                   "package": cuckoo_rules.__file__}, out)
'''


@dataclass
class CoverageMap:
    """Which tests run which lines, and how long each test takes."""

    lines: dict[str, dict[str, list[str]]]
    durations: dict[str, float]
    failed: list[str]
    seconds: float = 0.0

    def tests_for(self, mutant: Mutant) -> list[str]:
        """The tests that run the mutant's lines, fastest first (all, for import-time lines)."""
        by_line = self.lines.get(mutant.path, {})
        tests: set[str] = set()
        for line in mutant.lines:
            tests.update(by_line.get(str(line), ()))
        if "" in tests:
            # Run at import time (a constant, a table): every test, those that run the
            # most of this file per second first, as they are the likeliest to notice.
            weight: dict[str, int] = {}
            for contexts in by_line.values():
                for test in contexts:
                    weight[test] = weight.get(test, 0) + 1
            ranked = set(self.durations) - set(self.failed)
            return sorted(
                ranked,
                key=lambda t: (-weight.get(t, 0) / (self.durations.get(t, 0.0) + 0.05), t),
            )
        tests.discard("")
        tests.difference_update(self.failed)
        return sorted(tests, key=lambda t: (self.durations.get(t, 0.0), t))


def _fingerprint(root: Path, spec: ModuleSpec) -> str:
    """A key for the coverage map: the test paths and the contents of the source and tests."""
    digest = hashlib.sha256(repr(sorted(spec.tests)).encode())
    paths = sorted((root / "src").rglob("*.py"))
    for test in (*sorted(spec.tests), "tests/conftest.py"):
        target = root / test
        paths.extend(sorted(target.rglob("*.py")) if target.is_dir() else [target])
    paths.extend(sorted((root / "tests").glob("*.py")))
    for path in paths:
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


CACHE = Path(tempfile.gettempdir()) / "cuckoo-mutation-cache"


def coverage_map(
    root: Path,
    name: str,
    workspace: Workspace,
    *,
    use_cache: bool = True,
    log: Callable[[str], None],
) -> CoverageMap:
    """Run the module's tests once under coverage (or read the cached map)."""
    spec = MODULES[name]
    CACHE.mkdir(exist_ok=True)
    cached = CACHE / f"{_fingerprint(root, spec)}.json"
    if use_cache and cached.exists():
        log(f"{name}: coverage map from {cached}")
        data = json.loads(cached.read_text())
    else:
        slot = workspace.slots.get()
        try:
            plugin_dir = workspace.base / "plugin"
            plugin_dir.mkdir(exist_ok=True)
            (plugin_dir / "_mutation_coverage.py").write_text(_PLUGIN)
            out = workspace.base / f"coverage-{name}.json"
            command = [
                sys.executable,
                "-m",
                "pytest",
                "-q",
                *PYTEST_OPTIONS,
                "-p",
                "_mutation_coverage",
                *(str(workspace.root / t) for t in spec.tests),
            ]
            env_extra = {
                "MUTATION_COVERAGE_OUT": str(out),
                "MUTATION_COVERAGE_SRC": str(slot / "src"),
                "PYTHONPATH": f"{slot / 'src'}{os.pathsep}{plugin_dir}",
            }
            log(f"{name}: coverage run of {' '.join(spec.tests)} ...")
            code, output, seconds = _run(command, slot, None, env_extra)
            if not out.exists():
                raise SystemExit(f"the coverage run failed (exit {code}):\n{output[-4000:]}")
            data = json.loads(out.read_text())
            data["seconds"] = seconds
            expected = str(slot / "src")
            if not str(data["package"]).startswith(expected):
                raise SystemExit(f"tests imported {data['package']}, not the copy in {expected}")
            log(f"{name}: coverage run took {seconds:.0f} s, exit {code}")
            if data["failed"]:
                log(f"{name}: WARNING: tests failing before any mutation: {data['failed']}")
            cached.write_text(json.dumps(data))
        finally:
            workspace.slots.put(slot)
    return CoverageMap(
        lines=data["lines"],
        durations=data["durations"],
        failed=data["failed"],
        seconds=float(data.get("seconds", 0.0)),
    )


# -- running mutants --------------------------------------------------------------------------

KILLED = "killed"
TIMED_OUT = "timed out"
SURVIVED = "survived"
NOT_COVERED = "not covered"
EQUIVALENT = "equivalent"
ERROR = "error"


@dataclass
class Result:
    """What became of one mutant."""

    mutant: Mutant
    status: str
    seconds: float = 0.0
    tests: int = 0
    output: str = ""
    reason: str = ""


def run_mutant(
    mutant: Mutant,
    tests: Sequence[str],
    workspace: Workspace,
    *,
    timeout: float,
    stall: float | None = None,
    exitfirst: bool = True,
) -> Result:
    """Run ``tests`` (node ids or paths relative to the root) against the mutant."""
    if not tests:
        return Result(mutant, NOT_COVERED)
    slot = workspace.slots.get()
    target = slot / "src" / mutant.path
    original = target.read_text(encoding="utf-8")
    try:
        target.write_text(mutated_source(mutant, original), encoding="utf-8")
        args_file = slot / "tests.txt"
        args_file.write_text("\n".join(str(workspace.root / t) for t in tests) + "\n")
        args = ["-q", *(["-x"] if exitfirst else []), *PYTEST_OPTIONS, *_QUIET, f"@{args_file}"]
        code, output, seconds = workspace.worker(slot).run(args, timeout, stall)
    finally:
        target.write_text(original, encoding="utf-8")
        workspace.slots.put(slot)
    if code is None:
        status = TIMED_OUT
    elif code == 0:
        status = SURVIVED
    elif code == 5 or (code == 4 and "ERROR: not found:" in output):
        status = ERROR  # the tests were not found: a problem of this script, not a kill
    else:
        status = KILLED
    return Result(mutant, status, seconds, len(tests), output)


@dataclass
class ModuleReport:
    """The results of one module."""

    name: str
    results: list[Result] = field(default_factory=list)
    seconds: float = 0.0
    coverage_seconds: float = 0.0
    planned: int = 0
    stale_equivalents: list[str] = field(default_factory=list)

    def count(self, *statuses: str) -> int:
        return sum(1 for r in self.results if r.status in statuses)

    @property
    def score(self) -> float | None:
        counted = len(self.results) - self.count(EQUIVALENT)
        killed = self.count(KILLED, TIMED_OUT)
        return killed / counted if counted else None

    def row(self) -> dict[str, Any]:
        score = self.score
        return {
            "module": self.name,
            "mutants": len(self.results),
            "killed": self.count(KILLED),
            "timed_out": self.count(TIMED_OUT),
            "survived": self.count(SURVIVED),
            "not_covered": self.count(NOT_COVERED),
            "errors": self.count(ERROR),
            "equivalent": self.count(EQUIVALENT),
            "score": None if score is None else round(100 * score, 1),
            "seconds": round(self.seconds),
            "coverage_seconds": round(self.coverage_seconds),
            "planned": max(self.planned, len(self.results)),
        }


def run_module(
    root: Path,
    name: str,
    workspace: Workspace,
    *,
    jobs: int,
    timeout_factor: float,
    use_cache: bool,
    log: Callable[[str], None],
    progress: Callable[[ModuleReport], None] | None = None,
    done_before: dict[str, str] | None = None,
) -> ModuleReport:
    """Run every mutant of one module (``progress`` is told every ten mutants)."""
    start = time.monotonic()
    report = ModuleReport(name)
    mutants = module_mutants(root, name)
    report.planned = len(mutants)
    matched, stale = match_equivalents(mutants, load_equivalents())
    report.stale_equivalents = [entry.id for entry in stale]
    cover = coverage_map(root, name, workspace, use_cache=use_cache, log=log)
    report.coverage_seconds = cover.seconds
    log(f"{name}: {len(mutants)} mutants, {len(matched)} listed as equivalent")
    done = 0

    def one(mutant: Mutant) -> Result:
        if mutant.id in matched:
            return Result(mutant, EQUIVALENT, reason=matched[mutant.id].reason)
        if done_before and done_before.get(mutant.id, EQUIVALENT) != EQUIVALENT:
            return Result(mutant, done_before[mutant.id], reason="from --resume")
        tests = cover.tests_for(mutant)
        budget = sum(cover.durations.get(t, 0.0) for t in tests)
        longest = max((cover.durations.get(t, 0.0) for t in tests), default=0.0)
        timeout = 30.0 + timeout_factor * budget
        stall = 30.0 + timeout_factor * longest
        return run_mutant(mutant, tests, workspace, timeout=timeout, stall=stall)

    # In an order shuffled by id (the same every run): a run stopped half-way has sampled
    # the whole module, not its first files.
    order = sorted(mutants, key=lambda m: _short_hash(m.id))
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for result in pool.map(one, order):
            done += 1
            report.results.append(result)
            if result.status in (SURVIVED, NOT_COVERED, ERROR, TIMED_OUT):
                log(f"  [{done}/{len(mutants)}] {result.status}: {result.mutant.id}")
            elif done % 25 == 0:
                log(f"  [{done}/{len(mutants)}] ...")
            if progress is not None and done % 10 == 0:
                report.seconds = time.monotonic() - start
                progress(report)
    report.seconds = time.monotonic() - start
    rank = {m.id: index for index, m in enumerate(mutants)}
    report.results.sort(key=lambda r: rank[r.mutant.id])
    return report


# -- reports ----------------------------------------------------------------------------------


def markdown_table(rows: Sequence[dict[str, Any]]) -> str:
    """The per-module table, as in ``docs/testing.md``."""
    lines = [
        "| module | mutants | killed | timed out | survived | not covered | equivalent "
        "| score | time |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        score = "-" if row["score"] is None else f"{row['score']:.1f}%"
        module = row["module"]
        if row.get("planned", row["mutants"]) > row["mutants"]:
            module = f"{module} (partial: {row['mutants']} of {row['planned']})"
        minutes, seconds = divmod(int(row["seconds"]), 60)
        lines.append(
            f"| {module} | {row['mutants']} | {row['killed']} | {row['timed_out']} "
            f"| {row['survived']} | {row['not_covered']} | {row['equivalent']} | {score} "
            f"| {minutes}:{seconds:02d} |"
        )
    return "\n".join(lines)


def report_json(reports: Sequence[ModuleReport], root: Path) -> dict[str, Any]:
    """The JSON report: rows, survivors and the command's context."""
    return {
        "root": str(root),
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "python": sys.version.split()[0],
        "modules": [r.row() for r in reports],
        "survivors": [
            {
                "id": res.mutant.id,
                "status": res.status,
                "where": f"{res.mutant.path}:{res.mutant.line}",
                "function": res.mutant.qualname,
                "diff": res.mutant.one_line(),
            }
            for r in reports
            for res in r.results
            if res.status in (SURVIVED, NOT_COVERED, ERROR)
        ],
        "timed_out": [
            res.mutant.id for r in reports for res in r.results if res.status == TIMED_OUT
        ],
        "stale_equivalents": [e for r in reports for e in r.stale_equivalents],
        "results": {res.mutant.id: res.status for r in reports for res in r.results},
    }


def refresh_report(data: dict[str, Any], root: Path) -> None:
    """Bring a saved report up to date with the equivalents file and the mutator, in place.

    A survivor now listed as equivalent is counted as equivalent; one the mutator no
    longer makes (of code still at ``root``) is dropped. Killed mutants are left as they
    were. So a report of an older run prints the table that run would print today.
    """
    equivalents = load_equivalents()
    for row in data["modules"]:
        name = row["module"]
        survivors = [s for s in data["survivors"] if _module_of(s["id"]) == name]
        if not survivors:
            continue
        mutants = module_mutants(root, name) if name in MODULES else []
        current = {m.id for m in mutants}
        matched, _ = match_equivalents(mutants, equivalents)
        keys = {"survived": "survived", "not covered": "not_covered", "error": "errors"}
        kept = []
        for item in survivors:
            key = keys[item["status"]]
            if mutants and item["id"] not in current:
                row["mutants"] -= 1
                row["planned"] = row.get("planned", row["mutants"] + 1) - 1
                row[key] -= 1
            elif item["id"] in matched:
                row[key] -= 1
                row["equivalent"] += 1
                item["status"] = EQUIVALENT
                kept.append(item)
            else:
                kept.append(item)
        others = [s for s in data["survivors"] if _module_of(s["id"]) != name]
        data["survivors"] = [*others, *(s for s in kept if s["status"] != EQUIVALENT)]
        counted = row["mutants"] - row["equivalent"]
        killed = row["killed"] + row["timed_out"]
        row["score"] = round(100 * killed / counted, 1) if counted else None


def _module_of(mutant_id: str) -> str:
    dotted = mutant_id.split(":", 1)[0]
    for name, spec in MODULES.items():
        if any(_dotted(f"{PACKAGE}/{f}") == dotted for f in spec.files):
            return name
    return ""


def _find_mutant(root: Path, mutant_id: str) -> Mutant:
    dotted = mutant_id.split(":", 1)[0]
    for name, spec in MODULES.items():
        if any(_dotted(f"{PACKAGE}/{f}") == dotted for f in spec.files):
            mutants = module_mutants(root, name)
            for mutant in mutants:
                if mutant.id == mutant_id:
                    return mutant
            loose = [m for m in mutants if _loose_key(m.id) == _loose_key(mutant_id)]
            if len(loose) == 1:
                print(f"(no mutant {mutant_id}; its code moved to {loose[0].id})")
                return loose[0]
    raise SystemExit(f"no mutant {mutant_id} (see --list)")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line."""
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n", 1)[0] if __doc__ else None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout (default: this one)")
    parser.add_argument("--module", action="append", choices=list(MODULES), help="repeatable")
    parser.add_argument("--mutant", help="run one mutant by id and show its diff and the output")
    parser.add_argument("--tests", nargs="+", help="with --mutant: these tests instead")
    parser.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    parser.add_argument("--jobs", type=int, default=1, help="mutants run at once (default 1)")
    parser.add_argument("--report", type=Path, help="write the JSON report here")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    parser.add_argument(
        "--from-report", type=Path, nargs="+", help="print the table of JSON reports, run nothing"
    )
    parser.add_argument("--survivors", action="store_true", help="list the surviving mutants")
    parser.add_argument("--timeout-factor", type=float, default=5.0)
    parser.add_argument("--no-cache", action="store_true", help="recompute the coverage maps")
    parser.add_argument(
        "--resume", type=Path, help="take the results of mutants run in this (partial) report"
    )
    args = parser.parse_args(argv)
    root: Path = args.root.resolve()
    # Killed by a signal: still end the pytest servers and remove the temporary copies.
    signal.signal(signal.SIGTERM, _terminate)
    names: list[str] = args.module or list(MODULES)

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    if args.from_report:
        reports_data = [json.loads(path.read_text()) for path in args.from_report]
        for data in reports_data:
            refresh_report(data, root)
        print(markdown_table([row for data in reports_data for row in data["modules"]]))
        if args.report:  # merge the reports into one
            merged: dict[str, Any] = {"merged_from": [str(p) for p in args.from_report]}
            for data in reports_data:
                for key, value in data.items():
                    if isinstance(value, list):
                        merged.setdefault(key, []).extend(value)
                    elif isinstance(value, dict):
                        merged.setdefault(key, {}).update(value)
                    else:
                        merged.setdefault(key, value)
            args.report.write_text(json.dumps(merged, indent=1) + "\n")
        if args.survivors:
            for data in reports_data:
                for item in data["survivors"]:
                    print(f"{item['status']:11} {item['id']}  {item['where']}  {item['diff']}")
        return 0
    if args.list:
        for name in names:
            for mutant in module_mutants(root, name):
                print(f"{mutant.id}  {one_line_diff(mutant)}")
        return 0
    if args.mutant:
        mutant = _find_mutant(root, args.mutant)
        print(unified_diff(mutant, (root / "src" / mutant.path).read_text(encoding="utf-8")))
        matched, _ = match_equivalents([mutant], load_equivalents())
        if mutant.id in matched:
            print(f"(listed as equivalent: {matched[mutant.id].reason})")
        tests = args.tests or list(MODULES[mutant.module].tests)
        workspace = Workspace(root, 1)
        try:
            result = run_mutant(mutant, tests, workspace, timeout=1800, stall=300, exitfirst=True)
        finally:
            workspace.cleanup()
        print(result.output)
        print(f"{mutant.id}: {result.status} ({result.seconds:.0f} s, tests: {' '.join(tests)})")
        return 0
    done_before: dict[str, str] = {}
    if args.resume:
        done_before = json.loads(args.resume.read_text()).get("results", {})
    workspace = Workspace(root, args.jobs)
    reports: list[ModuleReport] = []

    def write_partial(partial: ModuleReport) -> None:
        data = report_json([*reports, partial], root)
        args.report.write_text(json.dumps(data, indent=1) + "\n")

    try:
        for name in names:
            report = run_module(
                root,
                name,
                workspace,
                jobs=args.jobs,
                timeout_factor=args.timeout_factor,
                use_cache=not args.no_cache,
                log=log,
                progress=write_partial if args.report else None,
                done_before=done_before,
            )
            reports.append(report)
            row = report.row()
            log(f"{name}: {row}")
            if args.report:
                args.report.write_text(json.dumps(report_json(reports, root), indent=1) + "\n")
    finally:
        workspace.cleanup()
    rows = [r.row() for r in reports]
    print(markdown_table(rows))
    if args.survivors or not args.markdown:
        for r in reports:
            for res in r.results:
                if res.status in (SURVIVED, NOT_COVERED, ERROR):
                    print(f"{res.status:11} {res.mutant.id}  {one_line_diff(res.mutant)}")
            for stale in r.stale_equivalents:
                print(f"stale equivalent entry (matches no mutant): {stale}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
