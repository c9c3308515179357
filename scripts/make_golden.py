"""Regenerate the golden games in ``tests/data/golden/``.

Run this only when a rule change is intended, then review the diff of the JSON files:
``python scripts/make_golden.py``. Each game is played by a seeded chooser (SplitMix64,
so that the choices themselves are reproducible in any language) and stored as its
options, seed, actions and final state, followed by what every seat saw at every step:
the state, each seat's view (and the spectator's) and the events of the action as each
seat sees them. ``tests/data/golden/README.md`` describes the format.

``--check`` writes nothing: it says which files would change (exit status 1 if any).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cuckoo_rules as cr
from cuckoo_rules.rng import splitmix64

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "data" / "golden"

FULL_FIRST = 3
"""The first steps of a game are stored in full, and so is its last step; the others as
digests (storing every step in full would take about 10 MB)."""

GAMES: list[tuple[str, dict[str, Any], int]] = [
    ("2p-default", {"num_players": 2}, 1),
    ("3p-default", {"num_players": 3}, 2024),
    ("4p-default", {"num_players": 4}, 31337),
    ("5p-default", {"num_players": 5}, 2**64 - 1),
    ("3p-exhaustion-shared-victory", {"num_players": 3}, 0),
    (
        "3p-variants",
        {
            "num_players": 3,
            "initial_row_length": 4,
            "setup_duplicates_to": "draw_pile",
            "optional_draw_if_adjacent": False,
            "round_end_timing": "immediate",
        },
        99,
    ),
    (
        "4p-variants",
        {
            "num_players": 4,
            "exhaustion_counts_discard": False,
            "next_round_first_player": "left_of_round_ender",
            "always_prompt_flock": True,
        },
        123456789,
    ),
    (
        "3p-seed2-readings",
        {
            "num_players": 3,
            "optional_draw_if_adjacent": False,
            "refill_trigger": "same_species_lay",
            "exhaustion_counts_discard": False,
            "next_round_first_player": "same_dealer",
        },
        2029,
    ),
]


# --------------------------------------------------------------------------- digests


def canonical(doc: Any) -> str:
    """The canonical JSON text of ``doc``: sorted keys, no spaces."""
    return json.dumps(doc, sort_keys=True, separators=(",", ":"))


def sha256(doc: Any) -> str:
    return hashlib.sha256(canonical(doc).encode("utf-8")).hexdigest()


def digest(doc: dict[str, Any] | list[Any]) -> str:
    """``"<sha256>.<parts>"``: the SHA-256 of ``doc``'s canonical JSON, then 4 hex digits
    of the SHA-256 of each of its parts (the values of an object in sorted key order, the
    items of an array), which say where a changed document first differs."""
    parts = [doc[key] for key in sorted(doc)] if isinstance(doc, dict) else doc
    return sha256(doc) + "." + "".join(sha256(part)[:4] for part in parts)


# --------------------------------------------------------------------------- the games


def seat_key(seat: int | None) -> str:
    """The key of a seat's documents: ``"0"``, ``"1"``... and ``"spectator"``."""
    return "spectator" if seat is None else str(seat)


def seats(state: cr.GameState) -> list[int | None]:
    return [*range(state.num_players), None]


def views(state: cr.GameState) -> dict[str, Any]:
    return {seat_key(s): cr.encode_view(cr.observe(state, s)) for s in seats(state)}


def seen_events(state: cr.GameState, events: Sequence[cr.Event]) -> dict[str, Any]:
    return {
        seat_key(s): [cr.encode_event(e) for e in cr.visible_events(events, s)]
        for s in seats(state)
    }


def play(options: cr.GameOptions, seed: int, chooser_seed: int) -> dict[str, Any]:
    """Play one game with a SplitMix64 chooser; return its golden document."""
    state = cr.new_game(options, seed)
    start = {"state": cr.encode_state(state), "views": views(state)}
    rng = chooser_seed
    actions = []
    steps: list[dict[str, Any]] = []
    while not state.is_over:
        legal = cr.legal_actions(state)
        rng, out = splitmix64(rng)
        action = legal[out % len(legal)]
        actions.append(cr.encode_action(action))
        state, events = cr.step(state, action)
        steps.append(
            {
                "step": len(steps),
                "state": cr.encode_state(state),
                "views": views(state),
                "events": seen_events(state, events),
            }
        )
    for step in steps[FULL_FIRST:-1]:
        step["state"] = digest(step["state"])
        for part in ("views", "events"):
            step[part] = {seat: digest(doc) for seat, doc in step[part].items()}
    return {
        "options": options.to_json(),
        "seed": seed,
        "actions": actions,
        "final_state": cr.encode_state(state),
        "start": start,
        "steps": steps,
    }


# --------------------------------------------------------------------------- writing


WIDTH = 96
"""Arrays and objects whose JSON fits in this many characters are written on one line."""


def pretty(value: Any, indent: int) -> str:
    """``value`` as JSON, one line if it is short, else one member or item a line."""
    flat = json.dumps(value)
    if len(flat) + indent <= WIDTH or not isinstance(value, dict | list) or not value:
        return flat
    inner = " " * (indent + 1)
    if isinstance(value, dict):
        members = [f"{inner}{json.dumps(k)}: {pretty(v, indent + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(members) + "\n" + " " * indent + "}"
    if any(isinstance(item, dict | list) for item in value):
        items = [inner + pretty(item, indent + 1) for item in value]
        return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"
    lines = [inner]  # scalars: as many a line as fit
    for item in map(json.dumps, value):
        if len(lines[-1]) + len(item) + 2 > WIDTH and lines[-1].strip():
            lines[-1] = lines[-1].rstrip()
            lines.append(inner)
        lines[-1] += item + ", "
    return "[\n" + "\n".join(lines)[:-2] + "\n" + " " * indent + "]"


def text_of(doc: dict[str, Any]) -> str:
    """The file: the game and its final state as before (``indent=1``), then the start and
    the steps, a step stored as digests on one line."""
    head = {key: doc[key] for key in ("options", "seed", "actions", "final_state")}
    lines = [json.dumps(head, indent=1)[:-2] + ","]
    lines.append(' "start": ' + pretty(doc["start"], 1) + ",")
    lines.append(' "steps": [')
    steps = doc["steps"]
    for index, step in enumerate(steps):
        full = isinstance(step["state"], dict)
        text = pretty(step, 2) if full else json.dumps(step)
        lines.append("  " + text + ("," if index < len(steps) - 1 else ""))
    lines.append(" ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write (or check) every golden game."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; say what differs")
    args = parser.parse_args(argv)
    GOLDEN.mkdir(parents=True, exist_ok=True)
    stale = []
    for name, options, seed in GAMES:
        doc = play(cr.GameOptions(**options), seed, chooser_seed=seed)
        path = GOLDEN / f"{name}.json"
        text = text_of(doc)
        assert json.loads(text) == doc
        if args.check:
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                stale.append(path.name)
            continue
        path.write_text(text, encoding="utf-8")
        final = doc["final_state"]
        print(
            f"{path.name}: {len(doc['actions'])} actions, round {final['round']}, "
            f"winners {final['winners']}, {len(text) // 1024} KiB"
        )
    if stale:
        print("out of date:", ", ".join(stale))
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
