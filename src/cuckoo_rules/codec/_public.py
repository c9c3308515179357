"""The public part of the state and view documents (internal to :mod:`cuckoo_rules.codec`).

A state document and a view document write the public fields of
:class:`~cuckoo_rules.state.PublicState` alike; this module reads them
(:func:`decode_public`) and writes every field of a document in the order of its class's
fields (:func:`field_writer`), so that the key order comes from the classes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import groupby, pairwise
from typing import Any

import attrs

from ..actions import NUM_ROWS, Phase
from ..errors import short_repr
from ..options import GameOptions
from ..state import Counts, Row
from .counts import encode_counts
from .fields import PHASES, array, card_ids, cards, fail, int_in, per_seat
from .options import decode_options

__all__ = ["Public", "check_blocks", "decode_public", "field_writer"]


# How each kind of field is written, by its type as the class annotates it: an
# expression of the field's value ``{0}``.
_WRITERS: dict[str, str] = {
    "int": "{0}",
    "int | None": "{0}",
    "GameOptions": "{0}.to_json()",
    "Phase": "{0}.value",
    "tuple[Row, ...]": "[card_ids(row) for row in {0}]",
    "tuple[Species, ...]": "card_ids({0})",
    "Counts": "encode_counts({0})",
    "Counts | None": "None if {0} is None else encode_counts({0})",
    "tuple[Counts, ...]": "[encode_counts(counts) for counts in {0}]",
    "tuple[int, ...]": "list({0})",
}


def field_writer(cls: type, header: dict[str, str | int]) -> Callable[[Any], dict[str, Any]]:
    """Return the function that writes an instance of ``cls`` as a JSON document.

    The document holds ``header`` (its ``format`` and ``version``), then every field of
    the attrs class ``cls`` in the order the class defines them, each written as its
    type is. The function is generated from the class, as attrs generates ``__init__``:
    one dictionary display, as fast as one written by hand.

    Raises:
        KeyError: If a field has a type that has no JSON form here (at import).
    """
    items = [f"{key!r}: {value!r}" for key, value in header.items()]
    for field in attrs.fields(cls):
        value = f"value.{field.name}"
        items.append(f"{field.name!r}: {_WRITERS[str(field.type)].format(value)}")
    source = "def write(value):\n    return {" + ", ".join(items) + "}\n"
    namespace: dict[str, Any] = {"card_ids": card_ids, "encode_counts": encode_counts}
    exec(compile(source, f"<JSON writer of {cls.__qualname__}>", "exec"), namespace)
    write: Callable[[Any], dict[str, Any]] = namespace["write"]
    return write


def check_blocks(ids: Sequence[str], path: str, index: int | None = None) -> None:
    """Check that each species of a row forms one contiguous block, as in every reachable row.

    A lay only ever captures up to the nearest bird of its species (rules §3.1), and
    that keeps each species in one block; so no reachable row reads ``owl flamingo owl``.

    Args:
        ids: The row's species ids, already known to be species ids (strings compare and
            hash at C speed, where :class:`~cuckoo_rules.Species` members hash in Python).
        path: Where the row is, for the error message.
        index: Where the row is in the array at ``path``, if it is in one: the message
            then names ``f"{path}[{index}]"`` (formatted only if something is wrong).
    """
    if len(set(ids)) == len(list(groupby(ids))):
        return  # as many blocks as species
    if index is not None:
        path = f"{path}[{index}]"
    seen = {ids[0]}
    for i, (before, card) in enumerate(pairwise(ids), 1):
        if card != before:
            if card in seen:
                fail(
                    path,
                    f"the {card} at index {i} is apart from the {card} before it; "
                    "each species of a row forms one contiguous block",
                )
            seen.add(card)


Public = tuple[
    GameOptions,
    int,
    int,
    int,
    int,
    Phase,
    tuple[Row, ...],
    tuple[Counts, ...],
    tuple[Counts, ...],
    tuple[int, ...],
]
"""The fields of :class:`~cuckoo_rules.state.PublicState`, in its order."""


def decode_public(doc: Mapping[str, Any]) -> Public:
    """Decode and check the public fields of a state or view document, one by one.

    The document is of the current format version (an older one is upgraded first).

    Besides each field on its own, this checks ``winners`` against ``phase``.

    Returns:
        The fields of :class:`~cuckoo_rules.state.PublicState` in its order, to build a
        :class:`~cuckoo_rules.GameState` or a :class:`~cuckoo_rules.PlayerView` with
        (positionally: a state is decoded at every step of a replay).
    """
    options = decode_options(doc["options"])
    n = options.num_players
    round_ = int_in(doc["round"], "round", 1)
    turn = int_in(doc["turn"], "turn", round_)
    dealer = int_in(doc["dealer"], "dealer", 0, n - 1)
    current = int_in(doc["current_player"], "current_player", 0, n - 1)
    if not isinstance(doc["phase"], str) or doc["phase"] not in PHASES:
        allowed = ", ".join(repr(p) for p in PHASES)
        fail("phase", f"{short_repr(doc['phase'])} is not one of {allowed}")
    phase = PHASES[doc["phase"]]
    row_docs = array(doc["rows"], "rows")
    if len(row_docs) != NUM_ROWS:
        fail("rows", f"expected {NUM_ROWS} rows, got {len(row_docs)}")
    rows = []
    for r, row_doc in enumerate(row_docs):
        row = cards(row_doc, "rows", r)
        if not row:
            fail(f"rows[{r}]", "a row cannot be empty")
        check_blocks(row_doc, "rows", r)
        rows.append(row)
    known_hands = per_seat(doc["known_hands"], "known_hands", n)
    collections = per_seat(doc["collections"], "collections", n)
    winner_docs = array(doc["winners"], "winners")
    winners = tuple(int_in(w, f"winners[{i}]", 0, n - 1) for i, w in enumerate(winner_docs))
    if list(winners) != sorted(set(winners)):
        fail("winners", "seats must be distinct and in increasing order")
    if phase is Phase.GAME_OVER and not winners:
        fail("winners", "a finished game (phase 'game_over') must have winners")
    if phase is not Phase.GAME_OVER and winners:
        fail("winners", f"must be empty in phase {phase.value!r}")
    # The fields of PublicState (a state or view is built with them: checked there).
    return (
        options,
        round_,
        turn,
        dealer,
        current,
        phase,
        tuple(rows),
        known_hands,
        collections,
        winners,
    )
