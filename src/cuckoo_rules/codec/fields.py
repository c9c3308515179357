"""The field checks that every document reader shares.

Each reads one JSON value, checks it and returns it decoded, or raises a
:class:`~cuckoo_rules.DecodeError` that names the field (its ``path``) and says what is
wrong. Each check is one function: it tries the usual, well-formed case first (at C
speed where it can), and only where that fails looks at the value piece by piece to say
what is wrong. The readers of :mod:`cuckoo_rules.codec` and of
:mod:`cuckoo_rules.records` use them; so can any reader of a document that embeds these
(the names are not re-exported from :mod:`cuckoo_rules.codec`).

Example:
    >>> mapping({"owl": 2}, "hand")
    {'owl': 2}
    >>> int_in(4, "actions[3].row", 0, 3)
    Traceback (most recent call last):
    ...
    cuckoo_rules.errors.DecodeError: actions[3].row: 4 is out of range (at least 0 and at most 3)
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import repeat
from typing import Any, NoReturn

from ..actions import Phase, Side
from ..cards import NUM_SPECIES, SPECIES, Species
from ..errors import DecodeError, short_repr
from ..state import EMPTY_COUNTS, Counts

__all__ = [
    "IDS",
    "PHASES",
    "SIDES",
    "SPECIES_BY_ID",
    "array",
    "card_ids",
    "cards",
    "counts",
    "fail",
    "int_in",
    "keys",
    "mapping",
    "per_seat",
    "side",
    "species",
]

SPECIES_BY_ID: dict[str, Species] = {s.value: s for s in SPECIES}
"""Each species by its id."""

IDS: tuple[str, ...] = tuple(s.value for s in SPECIES)
"""The species ids by species index: ``IDS[s.index] == s.value``."""

PHASES: dict[str, Phase] = {p.value: p for p in Phase}
"""Each phase by its JSON name."""

SIDES: dict[str, Side] = {s.value: s for s in Side}
"""Each side by its JSON name."""

_INDEX_BY_ID = {s.value: s.index for s in SPECIES}
_STR = frozenset({str})


def fail(path: str, message: str) -> NoReturn:
    """Raise the :class:`~cuckoo_rules.DecodeError` ``"<path>: <message>"``."""
    raise DecodeError(f"{path}: {message}")


def mapping(value: object, path: str) -> Mapping[str, Any]:
    """Check that ``value`` is an object (a mapping with string keys) and return it."""
    if type(value) is dict and _STR.issuperset(map(type, value)):
        return value  # the usual case: a dict with string keys, checked at C speed
    if not isinstance(value, Mapping):
        fail(path, f"expected an object, got {short_repr(value)}")
    for key in value:
        if not isinstance(key, str):
            fail(path, f"key {short_repr(key)} is not a string")
    return value


def keys(value: Mapping[str, Any], path: str, expected: tuple[str, ...]) -> None:
    """Check that an object has exactly the keys ``expected`` (in any order)."""
    if len(value) == len(expected) and all(map(value.__contains__, expected)):
        return  # exactly the expected keys: the usual case, checked at C speed
    for key in expected:
        if key not in value:
            fail(path, f"missing key {key!r}")
    for key in value:
        if key not in expected:
            fail(path, f"unknown key {short_repr(key)}")


def array(value: object, path: str) -> list[Any]:
    """Check that ``value`` is an array (a list, or a tuple) and return it as a list.

    The usual list is returned as it is: callers only read it.
    """
    if type(value) is list:
        return value
    if not isinstance(value, list | tuple):
        fail(path, f"expected an array, got {short_repr(value)}")
    return list(value)


def int_in(value: object, path: str, low: int, high: int | None = None) -> int:
    """Check that ``value`` is an integer (not a boolean) from ``low`` to ``high``."""
    if type(value) is not int:
        fail(path, f"expected an integer, got {short_repr(value)}")
    if value < low or (high is not None and value > high):
        upper = "" if high is None else f" and at most {high}"
        fail(path, f"{short_repr(value)} is out of range (at least {low}{upper})")
    return value


def species(value: object, path: str) -> Species:
    """Decode a species id."""
    if not isinstance(value, str) or value not in SPECIES_BY_ID:
        fail(path, f"unknown species {short_repr(value)}")
    return SPECIES_BY_ID[value]


def side(value: object, path: str) -> Side:
    """Decode a side, ``"left"`` or ``"right"``."""
    if not isinstance(value, str) or value not in SIDES:
        fail(path, f"{short_repr(value)} is not 'left' or 'right'")
    return SIDES[value]


def cards(value: object, path: str, index: int | None = None) -> tuple[Species, ...]:
    """Decode an array of species ids.

    Args:
        value: The JSON value.
        path: Where it is, for error messages.
        index: Where it is in the array at ``path``, if it is in one: the message then
            names ``f"{path}[{index}]"`` (formatted only if something is wrong).
    """
    if type(value) is list:
        try:  # the usual case, at C speed; only strings equal species ids (JSON has no others)
            return tuple(map(SPECIES_BY_ID.__getitem__, value))
        except (KeyError, TypeError):
            pass
    where = path if index is None else f"{path}[{index}]"
    items = array(value, where)
    try:
        return tuple(map(SPECIES_BY_ID.__getitem__, items))
    except (KeyError, TypeError):
        return tuple(species(c, f"{where}[{i}]") for i, c in enumerate(items))


def counts(value: object, path: str, index: int | None = None) -> Counts:
    """Decode a multiset ``{species id: positive count}``.

    Args:
        value: The JSON value.
        path: Where it is, for error messages.
        index: Where it is in the array at ``path``, if it is in one: the message then
            names ``f"{path}[{index}]"`` (formatted only if something is wrong).
    """
    if type(value) is dict:  # the usual case: known ids and positive integer counts
        if not value:
            return EMPTY_COUNTS
        found = [0] * NUM_SPECIES
        index_of = _INDEX_BY_ID.get
        for key, count in value.items():
            i = index_of(key)
            if i is None or type(count) is not int or count <= 0:
                break
            found[i] = count
        else:
            return tuple(found)
    # Something is unusual: look at the value key by key, naming the first thing wrong.
    where = path if index is None else f"{path}[{index}]"
    checked = [0] * NUM_SPECIES
    for key, count in mapping(value, where).items():
        kind = species(key, f"{where}.{key[:40]}")  # a long bad key is cut short
        if type(count) is not int:
            fail(f"{where}.{key}", f"expected an integer count, got {short_repr(count)}")
        if count < 0:
            fail(f"{where}.{key}", f"count {short_repr(count)} is negative")
        if count == 0:
            fail(f"{where}.{key}", "count 0 must be omitted")
        checked[kind.index] = count
    return tuple(checked)


def per_seat(value: object, path: str, n: int) -> tuple[Counts, ...]:
    """Decode an array of ``n`` multisets, one per seat."""
    items = array(value, path)
    if len(items) != n:
        fail(path, f"expected {n} entries (one per player), got {len(items)}")
    return tuple(map(counts, items, repeat(path, n), range(n)))  # the loop at C speed


def card_ids(row: tuple[Species, ...]) -> list[str]:
    """Encode cards as a list of species ids (``card.value``, looked up by index: faster)."""
    return [IDS[card.index] for card in row]
