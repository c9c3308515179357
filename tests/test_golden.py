"""Golden games and the shared test vectors, replayed state by state.

The shared vectors of format version 2 (``../shared/vectors/v2``, copied to
``tests/data/vectors/v2``) give the state after every action of a few whole games, among
them games where the version 2 options change what happens: the engine must reproduce
them to the byte. The version 1 documents of the same games (``../shared/vectors``,
copied to ``tests/data/vectors``) must read as the same states. The golden games
(``tests/data/golden``, written by ``scripts/make_golden.py``) pin complete games under
several player counts and variants.
"""

from __future__ import annotations

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


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_game(path: Path) -> None:
    doc = _load(path)
    state = cr.new_game(cr.GameOptions(**doc["options"]), doc["seed"])
    for action_doc in doc["actions"]:
        state = cr.apply(state, cr.decode_action(action_doc))
    assert state.is_over
    assert _dump(cr.encode_state(state)) == _dump(doc["final_state"])


def test_golden_games_cover_both_endings() -> None:
    finals = [_load(path)["final_state"] for path in GOLDEN]
    by_exhaustion = [f for f in finals if not any(f["hands"])]
    assert any(len(f["winners"]) > 1 for f in by_exhaustion), "a shared victory"
    assert any(any(f["hands"]) for f in finals), "a win by collection"
    assert {f["options"]["num_players"] for f in finals} == {2, 3, 4, 5}
