"""MkDocs hooks of the documentation site (loaded by ``mkdocs.yml``; not part of the package).

``on_page_markdown`` replaces the marker ``<!-- exported-names -->`` of the API overview
with a table of every name that ``cuckoo_rules`` and ``cuckoo_rules.bots`` export, each
linked to its entry and summed up by the first line of its docstring.

``on_post_build`` checks that the API reference is complete: every name that a module
of ``cuckoo_rules`` exports in its ``__all__`` (dunder names aside) must be rendered on
some page of ``api/``, with a docstring. A name that is missing is logged as a warning,
so ``mkdocs build --strict`` fails on it.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

import griffe

log = logging.getLogger("mkdocs.hooks.api_check")

_PACKAGE = "cuckoo_rules"
_ANCHOR = re.compile(r'id="(cuckoo_rules[\w.]*)"')


_MARKER = "<!-- exported-names -->"


def _load(config: Any) -> griffe.Module:
    root = Path(config["config_file_path"]).parent
    extensions = griffe.load_extensions(str(root / "docs" / "_ext" / "griffe_roles.py"))
    package = griffe.load(
        _PACKAGE, search_paths=[str(root / "src")], extensions=extensions, resolve_aliases=True
    )
    assert isinstance(package, griffe.Module)
    return package


def on_page_markdown(markdown: str, *, page: Any, config: Any, **kwargs: Any) -> str:
    """Fill in the table of exported names on the page that asks for it."""
    if _MARKER not in markdown:
        return markdown
    package = _load(config)
    sections: list[str] = []
    for module in (package, package.members["bots"]):
        assert isinstance(module, griffe.Module)
        groups: dict[str, list[str]] = {kind: [] for kind in _KINDS}
        for name in module.exports or ():
            if not isinstance(name, str) or name.startswith("__"):
                continue
            member = module.members[name]
            target = member.final_target if member.is_alias else member
            documented = _documented(member)
            where = documented.rpartition(".")[0]
            short = where.removeprefix(_PACKAGE + ".") or _PACKAGE
            groups[_kind(target)].append(
                f"| [`{name}`][{documented}] | [`{short}`][{where}] | {_summary(target)} |"
            )
        sections.append(f"### Exported by `{module.path}`")
        for kind, rows in groups.items():
            if rows:
                header = f"| {kind} | module | summary |\n|---|---|---|"
                sections.append("\n".join([header, *rows]))
    return markdown.replace(_MARKER, "\n\n".join(sections))


_KINDS = ("class", "function", "type alias", "constant")


def _kind(obj: Any) -> str:
    if obj.is_class:
        return "class"
    if obj.is_function:
        return "function"
    if str(obj.annotation) == "TypeAlias" or str(obj.value or "").startswith("Literal["):
        return "type alias"
    return "constant"


def _summary(obj: Any) -> str:
    """The first paragraph of a docstring on one line, with pipes outside code escaped."""
    text = obj.docstring.value.strip() if obj.docstring else ""
    first = " ".join(text.split("\n\n", 1)[0].split())
    parts = first.split("`")
    return "`".join(p if i % 2 else p.replace("|", "\\|") for i, p in enumerate(parts))


def on_post_build(config: Any, **kwargs: Any) -> None:
    """Warn about every exported name that the API reference does not document."""
    site = Path(config["site_dir"])
    anchors: set[str] = set()
    for page in (site / "api").rglob("*.html"):
        anchors.update(_ANCHOR.findall(page.read_text(encoding="utf-8")))
    package = _load(config)
    checked = 0
    for module in _modules(package):
        for name in module.exports or ():
            if not isinstance(name, str) or name.startswith("__"):
                continue
            checked += 1
            member = module.members.get(name)
            if member is None:
                log.warning("%s.__all__ names %r, which it does not define", module.path, name)
                continue
            target = member.final_target if member.is_alias else member
            if target.docstring is None or not target.docstring.value.strip():
                log.warning("%s (%s) has no docstring", f"{module.path}.{name}", target.path)
            elif target.path not in anchors and _documented(member) not in anchors:
                log.warning(
                    "%s (%s) is exported but not rendered in the API reference",
                    f"{module.path}.{name}",
                    target.path,
                )
    log.info("API reference: %d exported names checked", checked)


def _documented(member: Any) -> str:
    """Where the reference documents ``member``: the last public path of its alias chain.

    A name re-exported from a private module (``cuckoo_rules.engine._turns.apply``) is
    documented where its public package exports it (``cuckoo_rules.engine.apply``).
    """
    paths = [member.path]
    while member.is_alias:
        paths.append(member.target_path)
        member = member.target
    public = [p for p in paths if not any(part.startswith("_") for part in p.split("."))]
    return public[-1] if public else paths[-1]


def _modules(module: griffe.Module) -> list[griffe.Module]:
    found = [module]
    for member in module.members.values():
        if isinstance(member, griffe.Module) and not member.name.startswith("_"):
            found += _modules(member)
    return found
