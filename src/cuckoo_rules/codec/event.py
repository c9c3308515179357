"""The JSON objects of events: ``{"type": <snake_case name>, <fields>}``.

Cards are species ids, hands multisets ``{species id: count}`` and hidden parts
``null``. :data:`EVENT_TYPES` names every event class.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from typing import Any, get_args

import attrs

from ..actions import NUM_ROWS, Side
from ..cards import Species
from ..errors import short_repr
from ..events import (
    Captured,
    Dealt,
    DeclinedDraw,
    DeclinedFlock,
    Drew,
    Event,
    FlewHome,
    GameOver,
    GameStarted,
    Laid,
    Reshuffled,
    RoundEnded,
    RowRefilled,
    TurnEnded,
    TurnStarted,
)
from ..options import MAX_PLAYERS
from ..outcome import WinReason
from .counts import encode_counts
from .fields import array, card_ids, cards, counts, fail, int_in, keys, mapping, side, species

__all__ = ["EVENT_TYPES", "decode_event", "encode_event"]

EVENT_TYPES: dict[str, type[Event]] = {
    "laid": Laid,
    "captured": Captured,
    "row_refilled": RowRefilled,
    "drew": Drew,
    "declined_draw": DeclinedDraw,
    "flew_home": FlewHome,
    "declined_flock": DeclinedFlock,
    "reshuffled": Reshuffled,
    "turn_ended": TurnEnded,
    "round_ended": RoundEnded,
    "dealt": Dealt,
    "turn_started": TurnStarted,
    "game_over": GameOver,
    "game_started": GameStarted,
}
"""Every event class by the ``type`` its JSON object has."""

_EVENT_NAMES = {cls: name for name, cls in EVENT_TYPES.items()}
_WIN_REASONS: tuple[str, ...] = get_args(WinReason)


def _encode_event_field(name: str, value: Any) -> Any:
    if value is None or isinstance(value, int | str):
        return value
    if isinstance(value, Species | Side):
        return value.value
    if name in ("hands", "known_hands"):
        return [None if hand is None else encode_counts(hand) for hand in value]
    if name == "cards":
        return card_ids(value)
    if name == "discarded":
        return encode_counts(value)
    return list(value)


def encode_event(event: Event) -> dict[str, Any]:
    """Return the JSON object of an event: ``{"type": <snake_case name>, <fields>}``.

    Cards are species ids, hands multisets ``{species id: count}``, hidden parts ``null``.

    Example:
        >>> encode_event(Laid(0, Species.PARROT, 2, 1, Side.LEFT))
        {'type': 'laid', 'player': 0, 'species': 'parrot', 'count': 2, 'row': 1, 'side': 'left'}
        >>> encode_event(Drew(1, 2, None))
        {'type': 'drew', 'player': 1, 'count': 2, 'cards': None}
    """
    doc: dict[str, Any] = {"type": _EVENT_NAMES[type(event)]}
    for field in attrs.fields(type(event)):
        doc[field.name] = _encode_event_field(field.name, getattr(event, field.name))
    return doc


def decode_event(data: Mapping[str, Any]) -> Event:
    """Read an event written by :func:`encode_event`.

    Raises:
        DecodeError: On an unknown type, a missing or unknown key, or a bad value; the
            message names the field.

    Example:
        >>> decode_event({"type": "reshuffled", "cards": 30})
        Reshuffled(cards=30)
    """
    doc = mapping(data, "event")
    name = doc.get("type")
    if not isinstance(name, str) or name not in EVENT_TYPES:
        fail("event.type", f"{short_repr(name)} is not one of {', '.join(EVENT_TYPES)}")
    cls = EVENT_TYPES[name]
    fields = attrs.fields(cls)
    keys(doc, "event", ("type", *(f.name for f in fields)))
    values = {f.name: _decode_event_field(name, f.name, doc[f.name]) for f in fields}
    event: Event = cls(**values)
    _check_event(event)
    return event


_EVENT_INT_RANGES: dict[str, tuple[int, int | None]] = {
    "player": (0, MAX_PLAYERS - 1),
    "dealer": (0, MAX_PLAYERS - 1),
    "row": (0, NUM_ROWS - 1),
    "kept": (1, 2),
    "round": (1, None),
    "turn": (1, None),
}


def _decode_event_field(kind: str, name: str, value: Any) -> Any:
    path = f"event.{name}"
    if name == "species":
        return species(value, path)
    if name == "side":
        return side(value, path)
    if name == "reason":
        if value not in _WIN_REASONS:
            fail(path, f"{short_repr(value)} is not one of {', '.join(_WIN_REASONS)}")
        return value
    if name == "cards" and kind != "reshuffled":
        if value is None and kind == "drew":
            return None
        return cards(value, path)
    if name == "hands":
        hands = array(value, path)
        return tuple(
            None if hand is None else counts(hand, path, i) for i, hand in enumerate(hands)
        )
    if name == "discarded":
        return counts(value, path)
    if name == "known_hands":
        known = array(value, path)
        return tuple(counts(hand, path, i) for i, hand in enumerate(known))
    if name == "winners":
        seats = [
            int_in(v, f"{path}[{i}]", 0, MAX_PLAYERS - 1) for i, v in enumerate(array(value, path))
        ]
        if not seats or seats != sorted(set(seats)):
            fail(path, "seats must be distinct, in increasing order, and at least one")
        return tuple(seats)
    if name == "hand_sizes":
        return tuple(int_in(v, f"{path}[{i}]", 0) for i, v in enumerate(array(value, path)))
    low, high = _EVENT_INT_RANGES.get(name, (0, None))
    return int_in(value, path, low, high)


def _check_event(event: Event) -> None:
    """Checks across the fields of one decoded event."""
    if isinstance(event, Drew) and event.cards is not None and len(event.cards) != event.count:
        fail("event.cards", f"{len(event.cards)} cards but count is {event.count}")
    if isinstance(event, FlewHome) and event.kept > event.revealed:
        fail("event.kept", f"{event.kept} kept but only {event.revealed} revealed")
    if isinstance(event, Dealt | RoundEnded | GameStarted):
        seats = len(event.hand_sizes)
        if len(event.hands) != seats:
            fail("event.hands", f"{len(event.hands)} hands for {seats} hand sizes")
        for seat, (hand, size) in enumerate(zip(event.hands, event.hand_sizes, strict=True)):
            if hand is not None and sum(hand) != size:
                fail(f"event.hands[{seat}]", f"{sum(hand)} cards but hand_sizes says {size}")
    if isinstance(event, RoundEnded):
        if len(event.known_hands) != len(event.hand_sizes):
            fail("event.known_hands", f"{len(event.known_hands)} entries for the seats")
        for seat, known in enumerate(event.known_hands):
            hand = event.hands[seat]
            if sum(known) > event.hand_sizes[seat] or (
                hand is not None and any(map(operator.gt, known, hand))
            ):
                fail(f"event.known_hands[{seat}]", "more cards known than the hand held")
