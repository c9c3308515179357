"""The format versions: the header of every document, and the upgrade steps between versions.

Every document (state, view, record) starts with ``"format"`` and ``"version"``
(``interchange.md`` §4). The writers write :data:`CURRENT_VERSION` only; the readers
accept every version of :data:`READ_VERSIONS`, and read an older one in two steps:

1. :func:`upgrade` turns a version ``N`` document into a version ``N + 1`` document, one
   small function of :data:`UPGRADES` per version, until it is of
   :data:`CURRENT_VERSION`; each step checks what the older version did not allow and
   names the field;
2. the reader decodes the current version, once (one decoder per kind of document, with
   no branch on the version).

So a new format version (a new option, say) is one new step in :data:`UPGRADES` plus
the JSON Schema, and :data:`CURRENT_VERSION` one higher. The options object is upgraded
alone too (:func:`upgrade_options`), for the stores that keep it apart from a document
(:func:`~cuckoo_rules.codec.decode_options` takes the version it was written in).

Example:
    >>> v1 = {"num_players": 2, "turn_limit": 400, "next_round_first_player": "next",
    ...       "always_prompt_flock": False, "max_turns": None}
    >>> upgrade_options(v1, "options", version=1)["refill_trigger"]
    'capture'
    >>> upgrade_options({**v1, "refill_trigger": "capture"}, "table.options", version=1)
    Traceback (most recent call last):
    ...
    cuckoo_rules.errors.DecodeError: table.options: unknown key 'refill_trigger' (format ...
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal

from ..errors import short_repr
from .fields import fail, keys, mapping

__all__ = [
    "CURRENT_VERSION",
    "OPTIONS_ADDED_IN_2",
    "READ_VERSIONS",
    "UPGRADES",
    "VALUES_ADDED_IN_2",
    "DocumentKind",
    "Upgrade",
    "check_header",
    "check_version",
    "upgrade",
    "upgrade_options",
]

CURRENT_VERSION = 2
"""The format version the writers write, and the one the readers decode: every older
version is first upgraded to it (:func:`upgrade`)."""

DocumentKind = Literal["state", "view", "record", "options"]
"""What an upgrade step is given: a whole state, view or record document (its header
included), or an ``"options"`` object on its own (as a store keeps it)."""

Upgrade = Callable[[Mapping[str, Any], DocumentKind, str], dict[str, Any]]
"""One upgrade step: ``step(doc, kind, path)`` returns the document of the next version.

``doc`` is a document of ``kind`` (its header already checked), or the options object
when ``kind`` is ``"options"``; ``path`` is where its options object is, for error
messages (``"options"`` in a document; a store may say ``"table.options"``). A step
never changes ``doc``: it returns a new object, and raises a
:class:`~cuckoo_rules.DecodeError` naming the field for what the older version did not
allow.
"""

OPTIONS_ADDED_IN_2: tuple[str, ...] = ("refill_trigger",)
"""The options that format version 2 added: a version 1 document has no such key."""

VALUES_ADDED_IN_2: dict[str, tuple[str, ...]] = {"next_round_first_player": ("same_dealer",)}
"""The values that format version 2 added to options that version 1 already had."""


def _v1_to_v2(doc: Mapping[str, Any], kind: DocumentKind, path: str) -> dict[str, Any]:
    """Version 1 (cuckoo-rules 0.1) to version 2: the options gained ``refill_trigger``.

    A version 1 options object has no ``refill_trigger`` key (it means ``"capture"``,
    the only refill rule of 0.1: the key is refused as unknown there) and no value
    ``"same_dealer"`` of ``next_round_first_player``; nothing else changed.
    """
    options = mapping(doc if kind == "options" else doc["options"], path)
    for name in OPTIONS_ADDED_IN_2:
        if name in options:
            fail(
                path,
                f"unknown key {name!r} (format version 1 has no such option; version 2 added it)",
            )
    for name, values in VALUES_ADDED_IN_2.items():
        value = options.get(name)
        if isinstance(value, str) and value in values:
            fail(f"{path}.{name}", f"format version 1 does not have {value!r} (version 2 added it)")
    upgraded = {**options, "refill_trigger": "capture"}  # what every 0.1 game played
    return upgraded if kind == "options" else {**doc, "version": 2, "options": upgraded}


UPGRADES: dict[int, Upgrade] = {1: _v1_to_v2}
"""The upgrade step from each older version ``N`` to ``N + 1``, by ``N``."""

READ_VERSIONS: tuple[int, ...] = (*sorted(UPGRADES), CURRENT_VERSION)
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


def upgrade(doc: Mapping[str, Any], kind: DocumentKind) -> Mapping[str, Any]:
    """Return a document of :data:`CURRENT_VERSION`: ``doc`` itself if it is one already.

    Args:
        doc: A state, view or record document whose header :func:`check_header` has
            checked (so its ``version`` is one of :data:`READ_VERSIONS`).
        kind: What the document is.

    Returns:
        The same document in the current version, every step of :data:`UPGRADES` from
        its version on applied in turn; ``doc`` is never changed.

    Raises:
        DecodeError: If the document has what its version did not allow (an option
            that a later version added, say); the message names the field, for example
            ``"options: unknown key 'refill_trigger' (format version 1 has no such
            option; version 2 added it)"``.

    Example:
        >>> from cuckoo_rules import GameOptions
        >>> from cuckoo_rules.records import GameRecord, encode_record
        >>> doc = encode_record(GameRecord(GameOptions(num_players=2), seed=5))
        >>> upgrade(doc, "record") is doc
        True
        >>> options = {k: v for k, v in doc["options"].items() if k != "refill_trigger"}
        >>> upgrade({**doc, "version": 1, "options": options}, "record") == doc
        True
    """
    version: int = doc["version"]
    while version != CURRENT_VERSION:
        doc = UPGRADES[version](doc, kind, "options")
        version += 1
    return doc


def upgrade_options(data: object, path: str, version: int) -> Mapping[str, Any]:
    """Return an ``options`` object of format version ``version`` as one of the current version.

    Args:
        data: The options object, as a document of that version holds it.
        path: Where it is, for error messages.
        version: The format version it was written in, one of :data:`READ_VERSIONS`.

    Returns:
        The options object in the current version (``data`` itself when it is already
        of it and an object), not yet checked key by key: that is
        :func:`~cuckoo_rules.codec.decode_options`'s job.

    Raises:
        DecodeError: If ``data`` is not an object, ``version`` is not one of
            :data:`READ_VERSIONS`, or the object has what its version did not allow.
    """
    version = check_version(version)
    doc = mapping(data, path)
    for step in range(version, CURRENT_VERSION):
        doc = UPGRADES[step](doc, "options", path)
    return doc
