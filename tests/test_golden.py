"""Golden games and the shared test vectors, replayed state by state.

The shared vectors (``../shared/vectors``, copied to ``tests/data/vectors``) give the
state after every action of a few whole games: the engine must reproduce them to the
byte. The golden games (``tests/data/golden``, written by ``scripts/make_golden.py``)
pin complete games under several player counts and variants.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import cuckoo_rules as cr
from tests.conftest import DATA, SHARED_VECTORS

VECTORS = sorted((DATA / "vectors").glob("*.json"))
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
def test_vector_copies_match_shared() -> None:
    shared = {p.name: p.read_bytes() for p in SHARED_VECTORS.glob("*.json")}
    ours = {p.name: p.read_bytes() for p in VECTORS}
    assert ours == shared


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
