"""The JSON Schemas (draft 2020-12) of the documents, as shipped in the package."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any, Literal, get_args

__all__ = ["SchemaKind", "json_schema"]

SchemaKind = Literal["state", "view", "action", "event", "record"]
"""The documents that have a JSON Schema."""


def json_schema(kind: SchemaKind) -> dict[str, Any]:
    """Return the JSON Schema (draft 2020-12) of a document kind, as shipped in the package.

    The schemas describe the shape of each document; :func:`~cuckoo_rules.decode_state`
    and its siblings check more (110 cards, phase consistency, seats in range of the
    options).

    Raises:
        ValueError: For an unknown kind.

    Example:
        >>> json_schema("action")["title"]
        'cuckoo-rules action'
    """
    if kind not in get_args(SchemaKind):
        raise ValueError(f"no schema for {kind!r}: one of {', '.join(get_args(SchemaKind))}")
    text = resources.files("cuckoo_rules").joinpath(f"schema/{kind}.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema
