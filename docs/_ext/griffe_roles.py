"""A Griffe extension that turns the Sphinx roles of the docstrings into Markdown.

The docstrings of ``cuckoo_rules`` are Google style, and name other objects with Sphinx
roles (``:func:`new_game```, ``:class:`~cuckoo_rules.PlayerView```), which read well in
``help()``. This extension rewrites each role into a mkdocstrings cross-reference to the
object's canonical path when the object is part of the package, and into plain code
otherwise (``:class:`random.Random``` becomes ``random.Random`` in code font); a class
attribute without a docstring of its own links to its class. It also turns the reST
``::`` that introduces an indented literal block into a single colon, and the
``Example:`` heading into Google's ``Examples:`` section, so that doctests are rendered
as Python console code (Griffe reads a singular ``Example:`` as an admonition).

It is loaded by ``mkdocs.yml`` (``plugins.mkdocstrings.handlers.python.options.extensions``)
and is not part of the package.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(
    r":(?:py:)?(?P<role>class|func|meth|data|attr|mod|obj|exc|const):`(?P<target>[^`]+)`"
)
_LITERAL_INTRO = re.compile(r"(?<=\S)::[ \t]*$", re.MULTILINE)
_EXAMPLE_SECTION = re.compile(r"^Example:[ \t]*$", re.MULTILINE)
_PACKAGE = "cuckoo_rules"


class SphinxRoles(griffe.Extension):
    """Rewrite Sphinx roles in every docstring of the package into Markdown links."""

    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        """Rewrite the docstrings once the whole package is loaded."""
        if pkg.name != _PACKAGE:
            return
        for obj in _walk(pkg):
            if obj.docstring is not None:
                obj.docstring.value = _rewrite(pkg, obj, obj.docstring.value)


def _rewrite(pkg: griffe.Module, obj: griffe.Object, text: str) -> str:
    text = _LITERAL_INTRO.sub(":", text)
    text = _EXAMPLE_SECTION.sub("Examples:", text)
    return _ROLE.sub(lambda match: _link(pkg, obj, match), text)


def _walk(obj: griffe.Object) -> list[griffe.Object]:
    found = [obj]
    for member in obj.members.values():
        if not member.is_alias and isinstance(member, griffe.Object):
            found += _walk(member)
    return found


def _link(pkg: griffe.Module, context: griffe.Object, match: re.Match[str]) -> str:
    written = match.group("target").strip()
    short = written.startswith("~")
    target = written.lstrip("~").rstrip("()")
    shown = target.rsplit(".", 1)[-1] if short else target
    if match.group("role") in ("func", "meth"):
        shown += "()"
    path = _resolve(pkg, context, target)
    if path is None:
        return f"`{shown}`"
    return f"[`{shown}`][{path}]"


def _scopes(context: griffe.Object) -> list[str]:
    """The paths a bare name is looked up in: the object itself, its parents, the package."""
    scopes: list[str] = []
    obj: griffe.Object | None = context
    while obj is not None:
        scopes.append(obj.path)
        obj = obj.parent
    return [*scopes, _PACKAGE, f"{_PACKAGE}.bots"]


def _resolve(pkg: griffe.Module, context: griffe.Object, target: str) -> str | None:
    candidates = [target] if target.startswith(_PACKAGE + ".") else []
    candidates += [f"{scope}.{target}" for scope in _scopes(context)]
    for candidate in candidates:
        path = _canonical(pkg, candidate)
        if path is not None:
            return path
    return None


def _canonical(pkg: griffe.Module, path: str, depth: int = 0) -> str | None:
    """The canonical path of the object that documents ``path``, if the reference renders it.

    ``None`` when ``path`` is not in the package or not public. An object without a
    docstring of its own (an attrs field) is documented by its nearest parent that has one.
    """
    if depth > 8 or not path.startswith(_PACKAGE + "."):
        return None
    parts = path.split(".")[1:]
    obj: Any = pkg
    chain: list[Any] = [pkg]
    for index, part in enumerate(parts):
        member = obj.members.get(part) if hasattr(obj, "members") else None
        if member is None:
            return None
        if member.is_alias:
            if not member.is_public:
                return None
            rest = ".".join([member.target_path, *parts[index + 1 :]])
            return _canonical(pkg, rest, depth + 1)
        if not member.is_public:
            return None
        obj = member
        chain.append(obj)
    for documented in reversed(chain):
        if documented.docstring is not None and documented.docstring.value.strip():
            return str(documented.path)
    return None
