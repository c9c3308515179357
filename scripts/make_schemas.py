"""Write the JSON Schemas shipped in ``src/cuckoo_rules/schema/``.

The schemas are built here from the library's own tables (species, options, event
types), so they cannot drift from the code: ``tests/formats/test_schemas.py`` checks that the
shipped files equal what this script writes. Run ``python scripts/make_schemas.py``
after changing a format, and review the diff.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import attrs

import cuckoo_rules as cr
from cuckoo_rules.codec import EVENT_TYPES as _EVENT_TYPES
from cuckoo_rules.codec import OPTIONS_ADDED_IN_2 as _OPTIONS_ADDED_IN_2
from cuckoo_rules.codec import READ_VERSIONS
from cuckoo_rules.codec import VALUES_ADDED_IN_2 as _VALUES_ADDED_IN_2
from cuckoo_rules.options import MAX_PLAYERS, MIN_PLAYERS, OptionInfo, option_info

OUT = Path(__file__).resolve().parent.parent / "src" / "cuckoo_rules" / "schema"
BASE = "https://cuckoo-rules.invalid/schema/"
KINDS = ("state", "view", "action", "event", "record")

Schema = dict[str, Any]


def _option_schema(info: OptionInfo) -> Schema:
    """The schema of one option's value, from its values in :func:`option_info`.

    Yes-or-no options are booleans, numbers are the integers from the least value to the
    greatest (as :class:`~cuckoo_rules.GameOptions` checks them), and words are an enum.
    """
    values = info.values
    if all(isinstance(value, bool) for value in values):
        return {"type": "boolean"}
    numbers = [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
    if len(numbers) == len(values):
        return {"type": "integer", "minimum": min(numbers), "maximum": max(numbers)}
    return {"enum": list(values)}


def _defs() -> dict[str, Schema]:
    seat = {"type": "integer", "minimum": 0, "maximum": MAX_PLAYERS - 1}
    species = {"enum": [s.value for s in cr.SPECIES]}
    multiset = {
        "type": "object",
        "propertyNames": {"$ref": "#/$defs/species"},
        "additionalProperties": {"type": "integer", "minimum": 1},
    }
    infos = option_info()
    options = {
        "type": "object",
        "properties": {info.name: _option_schema(info) for info in infos},
        "required": [info.name for info in infos],
        "additionalProperties": False,
    }
    # Format version 1: no refill_trigger, and not the values version 2 added.
    v1 = {name: dict(schema) for name, schema in options["properties"].items()}
    for name in _OPTIONS_ADDED_IN_2:
        del v1[name]
    for name, added in _VALUES_ADDED_IN_2.items():
        v1[name]["enum"] = [v for v in v1[name]["enum"] if v not in added]
    options_v1 = {**options, "properties": v1, "required": list(v1)}
    return {
        "seat": seat,
        "species": species,
        "multiset": multiset,
        "options": options,
        "options_v1": options_v1,
        "phase": {"enum": [p.value for p in cr.Phase]},
        "cards": {"type": "array", "items": {"$ref": "#/$defs/species"}},
        "rows": {
            "type": "array",
            "minItems": cr.actions.NUM_ROWS,
            "maxItems": cr.actions.NUM_ROWS,
            "items": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/species"}},
        },
        "per_seat_multisets": {
            "type": "array",
            "minItems": MIN_PLAYERS,
            "maxItems": MAX_PLAYERS,
            "items": {"$ref": "#/$defs/multiset"},
        },
        "winners": {"type": "array", "items": {"$ref": "#/$defs/seat"}, "uniqueItems": True},
        "count": {"type": "integer", "minimum": 0},
    }


def _document(kind: str, title: str, description: str, body: Schema) -> Schema:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"{BASE}{kind}.schema.json",
        "title": title,
        "description": description,
        **body,
        "$defs": _defs(),
    }


def _object(properties: dict[str, Schema]) -> Schema:
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def _common(fmt: str) -> dict[str, Schema]:
    return {
        "format": {"const": fmt},
        "version": {"enum": list(READ_VERSIONS)},
    }


def _versioned(body: Schema) -> Schema:
    """``body`` with its ``options`` checked as the document's ``version`` says."""
    return {
        **body,
        "if": {"properties": {"version": {"const": 1}}},
        "then": {"properties": {"options": {"$ref": "#/$defs/options_v1"}}},
        "else": {"properties": {"options": {"$ref": "#/$defs/options"}}},
    }


def _public() -> dict[str, Schema]:
    return {
        "options": {"type": "object"},  # as the version says: see _versioned
        "round": {"type": "integer", "minimum": 1},
        "turn": {"type": "integer", "minimum": 1},
        "dealer": {"$ref": "#/$defs/seat"},
        "current_player": {"$ref": "#/$defs/seat"},
        "phase": {"$ref": "#/$defs/phase"},
        "rows": {"$ref": "#/$defs/rows"},
    }


def state_schema() -> Schema:
    """The schema of a state document (interchange.md §4)."""
    public = _public()
    properties = {
        **_common("cuckoo-rules/state"),
        "options": public["options"],
        "seed": {"type": "integer", "minimum": 0, "maximum": 2**64 - 1},
        "shuffles": {"type": "integer", "minimum": 1},
        **{k: v for k, v in public.items() if k != "options"},
        "draw_pile": {"$ref": "#/$defs/cards"},
        "discard_pile": {"$ref": "#/$defs/multiset"},
        "hands": {"$ref": "#/$defs/per_seat_multisets"},
        "known_hands": {"$ref": "#/$defs/per_seat_multisets"},
        "collections": {"$ref": "#/$defs/per_seat_multisets"},
        "winners": {"$ref": "#/$defs/winners"},
    }
    return _document(
        "state",
        f"cuckoo-rules state, format version {cr.codec.STATE_VERSION}",
        "A complete CuBirds game state, hidden parts included (versions 1 and 2 are read).",
        _versioned(_object(properties)),
    )


def view_schema() -> Schema:
    """The schema of a player view document."""
    sizes = {
        "type": "array",
        "minItems": MIN_PLAYERS,
        "maxItems": MAX_PLAYERS,
        "items": {"$ref": "#/$defs/count"},
    }
    properties = {
        **_common("cuckoo-rules/view"),
        "viewer": {"oneOf": [{"$ref": "#/$defs/seat"}, {"type": "null"}]},
        **_public(),
        "draw_pile_size": {"$ref": "#/$defs/count"},
        "discard_pile_size": {"$ref": "#/$defs/count"},
        "hand": {"oneOf": [{"$ref": "#/$defs/multiset"}, {"type": "null"}]},
        "hand_sizes": sizes,
        "known_hands": {"$ref": "#/$defs/per_seat_multisets"},
        "collections": {"$ref": "#/$defs/per_seat_multisets"},
        "winners": {"$ref": "#/$defs/winners"},
    }
    return _document(
        "view",
        f"cuckoo-rules player view, format version {cr.codec.VIEW_VERSION}",
        "What one seat (viewer) or a spectator (viewer null) may see of a state.",
        _versioned(_object(properties)),
    )


def action_schema() -> Schema:
    """The schema of an action document (interchange.md §5)."""
    return _document(
        "action",
        "cuckoo-rules action",
        "One decision of the player to act.",
        {
            "oneOf": [
                _object(
                    {
                        "type": {"const": "lay"},
                        "species": {"$ref": "#/$defs/species"},
                        "row": {
                            "type": "integer",
                            "minimum": 0,
                            "maximum": cr.actions.NUM_ROWS - 1,
                        },
                        "side": {"enum": [s.value for s in cr.Side]},
                    }
                ),
                _object({"type": {"const": "draw"}}),
                _object({"type": {"const": "fly_home"}, "species": {"$ref": "#/$defs/species"}}),
                _object({"type": {"const": "pass"}}),
            ]
        },
    )


_EVENT_FIELDS: dict[str, Schema] = {
    "player": {"$ref": "#/$defs/seat"},
    "dealer": {"$ref": "#/$defs/seat"},
    "species": {"$ref": "#/$defs/species"},
    "count": {"$ref": "#/$defs/count"},
    "revealed": {"$ref": "#/$defs/count"},
    "kept": {"type": "integer", "minimum": 1, "maximum": 2},
    "row": {"type": "integer", "minimum": 0, "maximum": cr.actions.NUM_ROWS - 1},
    "side": {"enum": [s.value for s in cr.Side]},
    "round": {"type": "integer", "minimum": 1},
    "turn": {"type": "integer", "minimum": 1},
    "hand_sizes": {"type": "array", "items": {"$ref": "#/$defs/count"}},
    "hands": {
        "type": "array",
        "items": {"oneOf": [{"$ref": "#/$defs/multiset"}, {"type": "null"}]},
    },
    "known_hands": {"type": "array", "items": {"$ref": "#/$defs/multiset"}},
    "discarded": {"$ref": "#/$defs/multiset"},
    "winners": {"$ref": "#/$defs/winners"},
    "reason": {"enum": ["seven_species", "two_triples", "most_cards"]},
}


def _event_field(kind: str, name: str) -> Schema:
    if name == "cards":
        if kind == "reshuffled":
            return {"$ref": "#/$defs/count"}
        if kind == "drew":
            return {"oneOf": [{"$ref": "#/$defs/cards", "minItems": 1}, {"type": "null"}]}
        if kind == "row_refilled":  # a refill that finds no card is not reported
            return {"$ref": "#/$defs/cards", "minItems": 1}
        return {"$ref": "#/$defs/cards"}
    return _EVENT_FIELDS[name]


def event_schema() -> Schema:
    """The schema of an event document."""
    variants = [
        _object(
            {
                "type": {"const": kind},
                **{f.name: _event_field(kind, f.name) for f in attrs.fields(cls)},
            }
        )
        for kind, cls in _EVENT_TYPES.items()
    ]
    return _document(
        "event",
        "cuckoo-rules event",
        "Something that happened in a transition; hidden parts are null once redacted.",
        {"oneOf": variants},
    )


def record_schema() -> Schema:
    """The schema of a game record document."""
    action = action_schema()
    metadata = {
        "type": "object",
        "properties": {
            "players": {"type": "array", "items": {"type": "string"}},
            "date": {"type": "string"},
            "event": {"type": "string"},
            "result": _object({"winners": {"$ref": "#/$defs/winners"}}),
        },
        "additionalProperties": False,
    }
    properties = {
        **_common("cuckoo-rules/record"),
        "options": {"type": "object"},
        "seed": {"type": "integer", "minimum": 0, "maximum": 2**64 - 1},
        "actions": {"type": "array", "items": {"oneOf": action["oneOf"]}},
        "metadata": metadata,
    }
    return _document(
        "record",
        f"cuckoo-rules game record, format version {cr.records.RECORD_VERSION}",
        "A game as options, seed and actions, with optional metadata.",
        _versioned(_object(properties)),
    )


def schemas() -> dict[str, Schema]:
    """Every schema by kind."""
    return {
        "state": state_schema(),
        "view": view_schema(),
        "action": action_schema(),
        "event": event_schema(),
        "record": record_schema(),
    }


def render(schema: Schema) -> str:
    """The text of a schema file."""
    return json.dumps(schema, indent=2) + "\n"


def main() -> int:
    """Write every schema file; with ``--check``, only report files that differ."""
    check = "--check" in sys.argv[1:]
    stale = []
    for kind, schema in schemas().items():
        path = OUT / f"{kind}.schema.json"
        text = render(schema)
        if check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(path.name)
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    if stale:
        print(f"out of date: {', '.join(stale)} (run scripts/make_schemas.py)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
