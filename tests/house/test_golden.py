"""Golden games and the shared test vectors, replayed state by state.

The shared vectors of format version 2 (``../shared/vectors/v2``, copied to
``tests/data/vectors/v2``) give the state after every action of a few whole games, among
them games where the version 2 options change what happens: the engine must reproduce
them to the byte. The version 1 documents of the same games (``../shared/vectors``,
copied to ``tests/data/vectors``) must read as the same states. The golden games
(``tests/data/golden``, written by ``scripts/make_golden.py``, described in its README)
pin complete games under several player counts and variants at every step: the state,
every seat's view and the events as every seat sees them.
"""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any

import attrs
import pytest

import cuckoo_rules as cr
from tests.conftest import DATA, SHARED_VECTORS

VECTORS = sorted((DATA / "vectors" / "v2").glob("*.json"))
V1_VECTORS = sorted((DATA / "vectors").glob("*.json"))
GOLDEN = sorted((DATA / "golden").glob("*.json"))


def _load(path: Path) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return doc


def _dump(doc: dict[str, Any]) -> str:
    return json.dumps(doc, sort_keys=False)


def test_there_are_vectors_and_golden_games() -> None:
    assert len([p for p in VECTORS if p.name.startswith("setup-")]) >= 6
    assert len([p for p in VECTORS if p.name.startswith("game-")]) >= 3
    assert len(GOLDEN) >= 6


@pytest.mark.skipif(not SHARED_VECTORS.is_dir(), reason="../shared/vectors is not beside the repo")
@pytest.mark.parametrize(("ours", "folder"), [(VECTORS, "v2"), (V1_VECTORS, ".")])
def test_vector_copies_match_shared(ours: list[Path], folder: str) -> None:
    shared = {p.name: p.read_bytes() for p in (SHARED_VECTORS / folder).glob("*.json")}
    assert {p.name: p.read_bytes() for p in ours} == shared


@pytest.mark.parametrize("path", [p for p in VECTORS if p.name.startswith("setup-")], ids=str)
def test_setup_vector(path: Path) -> None:
    doc = _load(path)
    state = cr.new_game(cr.GameOptions(**doc["options"]), doc["seed"])
    encoded = cr.encode_state(state)
    assert encoded == doc["state"]
    assert list(encoded) == list(doc["state"])  # key order too
    assert cr.decode_state(doc["state"]) == state


@pytest.mark.parametrize("path", [p for p in VECTORS if p.name.startswith("game-")], ids=str)
def test_game_vector_state_after_every_action(path: Path) -> None:
    doc = _load(path)
    state = cr.new_game(cr.GameOptions(**doc["options"]), doc["seed"])
    assert _dump(cr.encode_state(state)) == _dump(doc["states"][0])
    for index, action_doc in enumerate(doc["actions"]):
        action = cr.decode_action(action_doc)
        assert action in cr.legal_actions(state), f"action {index} is not legal"
        assert cr.encode_action(action) == action_doc
        state = cr.apply(state, action)
        expected = doc["states"][index + 1]
        assert _dump(cr.encode_state(state)) == _dump(expected), f"after action {index}"
        assert cr.decode_state(expected) == state
    assert state.is_over


def test_the_version_2_vectors_reach_what_the_new_options_change() -> None:
    # The games of the new options replay differently under the old rules: each shows
    # its rule at work (a dry row refilled by a same-species lay, the first dealer kept).
    changed = {}
    old: Any
    for name, option, old in [
        ("game-124-4p-refill-same-species", "refill_trigger", "capture"),
        ("game-500-3p-same-dealer", "next_round_first_player", "round_ender"),
    ]:
        doc = _load(DATA / "vectors" / "v2" / f"{name}.json")
        options = cr.GameOptions(**doc["options"])
        new, old_rules = (
            cr.new_game(options, doc["seed"]),
            cr.new_game(attrs.evolve(options, **{option: old}), doc["seed"]),
        )
        for index, action_doc in enumerate(doc["actions"]):
            action = cr.decode_action(action_doc)
            new = cr.apply(new, action)
            if action not in cr.legal_actions(old_rules):
                changed[name] = index
                break
            old_rules = cr.apply(old_rules, action)
            if cr.encode_state(new)["rows"] != cr.encode_state(old_rules)["rows"] or (
                new.dealer != old_rules.dealer
            ):
                changed[name] = index
                break
    assert set(changed) == {"game-124-4p-refill-same-species", "game-500-3p-same-dealer"}


@pytest.mark.parametrize("path", [p for p in V1_VECTORS if p.name.startswith("setup-")], ids=str)
def test_version_1_setup_vector_reads_as_the_version_2_state(path: Path) -> None:
    old, new = _load(path), _load(DATA / "vectors" / "v2" / path.name)
    assert old["state"]["version"] == 1
    assert cr.decode_state(old["state"]) == cr.decode_state(new["state"])


@pytest.mark.parametrize("path", [p for p in V1_VECTORS if p.name.startswith("game-")], ids=str)
def test_version_1_game_vector_reads_as_the_version_2_states(path: Path) -> None:
    old, new = _load(path), _load(DATA / "vectors" / "v2" / path.name)
    assert old["actions"] == new["actions"]
    assert len(old["states"]) == len(new["states"])
    for index, (v1, v2) in enumerate(zip(old["states"], new["states"], strict=True)):
        assert v1["version"] == 1
        assert "refill_trigger" not in v1["options"]
        assert cr.decode_state(v1) == cr.decode_state(v2), f"state {index}"
        # Written again, a version 1 document becomes the version 2 one, to the byte.
        assert _dump(cr.encode_state(cr.decode_state(v1))) == _dump(v2)


# --------------------------------------------------------------------------- golden games
#
# A golden game pins, after every action, the state, each seat's view (and the
# spectator's) and the events of the action as each of them sees them. The first steps
# and the last are stored in full; the others as digests (tests/data/golden/README.md):
# "<SHA-256 of the canonical JSON>.<4 hex digits of the SHA-256 of each part>", the parts
# being an object's values in sorted key order or an array's items.


def _canonical(doc: Any) -> str:
    return json.dumps(doc, sort_keys=True, separators=(",", ":"))


def _sha256(doc: Any) -> str:
    return hashlib.sha256(_canonical(doc).encode("utf-8")).hexdigest()


def _short(value: Any, limit: int = 240) -> str:
    text = json.dumps(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _parts(doc: Any) -> list[tuple[str, Any]]:
    if isinstance(doc, dict):
        return [(repr(key), doc[key]) for key in sorted(doc)]
    return [(f"[{index}]", item) for index, item in enumerate(doc)]


def _first_difference(expected: Any, actual: Any, path: str = "") -> str | None:
    """Where two JSON documents first differ (key order included), or None."""
    if type(expected) is not type(actual):
        return f"at {path or 'the top'}: expected {_short(expected)}, got {_short(actual)}"
    if isinstance(expected, dict):
        for key in expected:
            if key not in actual:
                return f"at {path}[{key!r}]: missing (expected {_short(expected[key])})"
            found = _first_difference(expected[key], actual[key], f"{path}[{key!r}]")
            if found:
                return found
        extra = [key for key in actual if key not in expected]
        if extra:
            return f"at {path or 'the top'}: unexpected keys {extra}"
        if list(expected) != list(actual):
            return f"at {path or 'the top'}: key order {list(actual)}, expected {list(expected)}"
        return None
    if isinstance(expected, list):
        for index, (want, got) in enumerate(zip(expected, actual, strict=False)):
            found = _first_difference(want, got, f"{path}[{index}]")
            if found:
                return found
        if len(expected) != len(actual):
            return f"at {path or 'the top'}: {len(actual)} items, expected {len(expected)}"
        return None
    if expected != actual:
        return f"at {path or 'the top'}: expected {_short(expected)}, got {_short(actual)}"
    return None


def _difference(stored: Any, actual: Any) -> str | None:
    """How ``actual`` differs from the golden ``stored`` (a document or a digest), or None."""
    if not isinstance(stored, str):
        return _first_difference(stored, actual)
    sha, _, marks = stored.partition(".")
    if sha == _sha256(actual):
        return None
    parts = _parts(actual)
    expected_marks = [marks[i : i + 4] for i in range(0, len(marks), 4)]
    where = "a digest step, so the golden value is not stored"
    if len(expected_marks) != len(parts):
        count = f"{len(parts)} parts where the golden one has {len(expected_marks)}"
        return f"differs: {count} ({where}); it is now {_short(actual)}"
    for (name, value), mark in zip(parts, expected_marks, strict=True):
        if _sha256(value)[:4] != mark:
            return f"differs at {name} ({where}); it is now {_short(value)}"
    return f"differs, though no single part can be named ({where}): {_short(actual)}"


def _seats(state: cr.GameState) -> list[int | None]:
    return [*range(state.num_players), None]


def _seat_key(seat: int | None) -> str:
    return "spectator" if seat is None else str(seat)


def _check_documents(
    stored: dict[str, Any], state: cr.GameState, events: tuple[cr.Event, ...] | None
) -> list[str]:
    """What differs between a stored step (or start) and the one played now."""
    problems = []
    found = _difference(stored["state"], cr.encode_state(state))
    if found:
        problems.append(f"the state {found}")
    parts = ["views"] if events is None else ["views", "events"]
    for part in parts:
        if set(stored[part]) != {_seat_key(seat) for seat in _seats(state)}:
            problems.append(f"{part}: seats {sorted(stored[part])}, expected every seat")
    for seat in _seats(state):
        who = "the spectator" if seat is None else f"seat {seat}"
        key = _seat_key(seat)
        found = _difference(stored["views"].get(key), cr.encode_view(cr.observe(state, seat)))
        if found:
            problems.append(f"{who}: the view {found}")
        if events is not None:
            seen = [cr.encode_event(e) for e in cr.visible_events(events, seat)]
            found = _difference(stored["events"].get(key), seen)
            if found:
                problems.append(f"{who}: the events {found}")
    return problems


def golden_mismatch(name: str, doc: dict[str, Any]) -> str | None:
    """Replay a golden game; say where it first stops matching (game, step, seat, what)."""
    state = cr.new_game(cr.GameOptions(**doc["options"]), doc["seed"])
    problems = _check_documents(doc["start"], state, None)
    if problems:
        return f"golden game {name}, at the start (before any action):\n  " + "\n  ".join(problems)
    if len(doc["steps"]) != len(doc["actions"]):
        return f"golden game {name}: {len(doc['steps'])} steps for {len(doc['actions'])} actions"
    for index, (action_doc, stored) in enumerate(zip(doc["actions"], doc["steps"], strict=True)):
        action = cr.decode_action(action_doc)
        where = (
            f"golden game {name}, step {index} (actions[{index}] = {cr.format_action(action)!r}"
            f", seat {state.current_player}, turn {state.turn})"
        )
        if stored.get("step") != index:
            return f"{where}: the step is numbered {stored.get('step')}"
        if action not in cr.legal_actions(state):
            return f"{where}: the action is not legal"
        state, events = cr.step(state, action)
        problems = _check_documents(stored, state, events)
        if problems:
            return f"{where}:\n  " + "\n  ".join(problems)
    if not state.is_over:
        return f"golden game {name}: not over after its {len(doc['actions'])} actions"
    final = cr.encode_state(state)
    if _dump(final) != _dump(doc["final_state"]):
        return f"golden game {name}: the final state {_first_difference(doc['final_state'], final)}"
    return None


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_game_every_step(path: Path) -> None:
    mismatch = golden_mismatch(path.stem, _load(path))
    assert mismatch is None, mismatch


def test_golden_games_pin_every_step_of_every_seat_and_stay_small() -> None:
    for path in GOLDEN:
        doc = _load(path)
        n = doc["options"]["num_players"]
        seats = {*map(str, range(n)), "spectator"}
        steps = doc["steps"]
        assert len(steps) == len(doc["actions"]), path.name
        assert isinstance(doc["start"]["state"], dict)
        assert set(doc["start"]["views"]) == seats
        for index, step in enumerate(steps):
            assert set(step) == {"step", "state", "views", "events"}, (path.name, index)
            assert set(step["views"]) == set(step["events"]) == seats, (path.name, index)
            # In full: the first three steps and the last; digests in between.
            full = index < 3 or index == len(steps) - 1
            values = [step["state"], *step["views"].values(), *step["events"].values()]
            assert all(isinstance(v, str) is not full for v in values), (path.name, index)
        assert steps[-1]["state"] == doc["final_state"]
    assert sum(path.stat().st_size for path in GOLDEN) < 3_000_000


def _tampered(doc: dict[str, Any], step: int, seat: str, key: str, value: Any) -> dict[str, Any]:
    """``doc`` with the view of ``seat`` after ``step`` changed at ``key`` (as a golden
    file written by an engine that differed there would hold it)."""
    doc = copy.deepcopy(doc)
    stored = doc["steps"][step]["views"][seat]
    if isinstance(stored, dict):
        stored[key] = value
    else:  # a digest: write the one of the changed view
        viewer = None if seat == "spectator" else int(seat)
        view = cr.encode_view(cr.observe(_state_after(doc, step), viewer))
        view[key] = value
        parts = "".join(_sha256(view[k])[:4] for k in sorted(view))
        doc["steps"][step]["views"][seat] = _sha256(view) + "." + parts
    return doc


def _state_after(doc: dict[str, Any], step: int) -> cr.GameState:
    state = cr.new_game(cr.GameOptions(**doc["options"]), doc["seed"])
    for action_doc in doc["actions"][: step + 1]:
        state = cr.apply(state, cr.decode_action(action_doc))
    return state


@pytest.mark.parametrize("step", [1, 40])
def test_a_golden_mismatch_names_the_game_the_step_the_seat_and_the_key(step: int) -> None:
    doc = _load(DATA / "golden" / "3p-default.json")
    assert isinstance(doc["steps"][step]["views"]["2"], dict) is (step < 3)
    message = golden_mismatch("3p-default", _tampered(doc, step, "2", "discard_pile_size", 99))
    assert message is not None
    assert message.startswith(f"golden game 3p-default, step {step} (actions[{step}] = ")
    assert "seat 2: the view " in message
    assert "'discard_pile_size'" in message
    assert "seat 0" not in message
    assert "the state" not in message
    size = sum(_state_after(doc, step).discard_pile)
    assert (f"expected 99, got {size}" if step < 3 else f"it is now {size}") in message


def test_golden_games_cover_both_endings() -> None:
    finals = [_load(path)["final_state"] for path in GOLDEN]
    by_exhaustion = [f for f in finals if not any(f["hands"])]
    assert any(len(f["winners"]) > 1 for f in by_exhaustion), "a shared victory"
    assert any(any(f["hands"]) for f in finals), "a win by collection"
    assert {f["options"]["num_players"] for f in finals} == {2, 3, 4, 5}
