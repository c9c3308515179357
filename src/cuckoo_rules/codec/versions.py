"""The format versions, and the header every document starts with (``interchange.md`` §4).

Every document (state, view, record) starts with ``"format"`` and ``"version"``. The
writers write version 2 only; the readers accept every version of :data:`READ_VERSIONS`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import short_repr
from ._fields import fail, keys

__all__ = ["READ_VERSIONS", "check_header", "check_version"]

READ_VERSIONS: tuple[int, ...] = (1, 2)
"""The format versions the readers accept, in state, view and record documents alike.

Version 1 (cuckoo-rules 0.1) had no option ``refill_trigger`` (its documents mean
``"capture"``) and no value ``"same_dealer"`` of ``next_round_first_player``; a version 1
document gives the same state, view or record as the version 2 document of the same game.
"""


def check_version(value: object) -> int:
    """Check a ``version``: one of :data:`READ_VERSIONS` (a boolean is not a version).

    Raises:
        DecodeError: Naming the version, for example ``"version: unsupported version 3,
            expected 1 or 2"``.

    Example:
        >>> check_version(1)
        1
    """
    if type(value) is not int or value not in READ_VERSIONS:
        expected = " or ".join(map(str, READ_VERSIONS))
        fail("version", f"unsupported version {short_repr(value)}, expected {expected}")
    return value


def check_header(doc: Mapping[str, Any], name: str, expected: tuple[str, ...], fmt: str) -> int:
    """Check a document's keys, its ``format`` and its ``version``; return the version.

    Args:
        doc: The document, already known to be an object.
        name: What the document is, for the message about its keys (``"state"``).
        expected: Every key of the document, ``format`` and ``version`` included.
        fmt: The ``format`` name it must have (``"cuckoo-rules/state"``).

    Raises:
        DecodeError: If a key is missing or unknown, or the format or version is wrong.
    """
    keys(doc, name, expected)
    if doc["format"] != fmt:
        fail("format", f"expected {fmt!r}, got {short_repr(doc['format'])}")
    return check_version(doc["version"])
