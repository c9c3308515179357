"""Helpers for JSON documents in tests: walk their keys, damage them in bad-document tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

Doc = dict[str, Any]
Mutation = Callable[[Doc], None]


def _walk(doc: Doc, path: str) -> tuple[Any, Any]:
    keys: list[Any] = [int(k) if k.isdigit() else k for k in path.split(".")]
    target: Any = doc
    for key in keys[:-1]:
        target = target[key]
    return target, keys[-1]


def set_at(path: str, value: Any) -> Mutation:
    """A mutation that sets ``doc[a][b]...`` (path with dots; integers index lists)."""

    def mutate(doc: Doc) -> None:
        target, key = _walk(doc, path)
        target[key] = value

    return mutate


def delete_at(path: str) -> Mutation:
    """A mutation that deletes ``doc[a][b]...`` (path with dots; integers index lists)."""

    def mutate(doc: Doc) -> None:
        target, key = _walk(doc, path)
        del target[key]

    return mutate


def all_keys(value: object) -> Iterator[str]:
    """Every key of every object in a JSON document, nested ones included."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from all_keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from all_keys(item)
