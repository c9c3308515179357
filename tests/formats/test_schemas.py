"""The shipped JSON Schemas: up to date with the code, and every document we write is valid."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from jsonschema import Draft202012Validator

import cuckoo_rules as cr
from tests.conftest import DATA, ROOT, load_module
from tests.games import random_steps

KINDS = ("state", "view", "action", "event", "record")


def _validator(kind: str) -> Draft202012Validator:
    schema = cr.json_schema(kind)  # type: ignore[arg-type]
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def test_shipped_schemas_match_the_generator() -> None:
    module = load_module(ROOT / "scripts" / "make_schemas.py", "make_schemas")
    for kind, schema in module.schemas().items():
        assert cr.json_schema(kind) == schema, f"{kind}: run scripts/make_schemas.py"


def test_unknown_schema_kind() -> None:
    with pytest.raises(ValueError, match="no schema for 'board'"):
        cr.json_schema("board")  # type: ignore[arg-type]


def _documents(seed: int) -> dict[str, list[Any]]:
    """Every kind of document written while playing one random game."""
    rng = random.Random(seed)
    options = cr.GameOptions(
        num_players=rng.randint(2, 5),
        always_prompt_flock=rng.random() < 0.5,
        round_end_timing=rng.choice(["end_of_turn", "immediate"]),
    )
    game_seed = rng.randrange(2**64)
    docs: dict[str, list[Any]] = {kind: [] for kind in KINDS}
    record = cr.GameRecord.start(options, game_seed, cr.records.Metadata(date="2026-11-29"))
    viewer_choice = random.Random(~seed)  # who watches each state (the game has its own)
    for step in random_steps(options, game_seed, rng=rng):
        docs["state"].append(cr.encode_state(step.before))
        viewer = viewer_choice.choice([None, *range(options.num_players)])
        docs["view"].append(cr.encode_view(cr.observe(step.before, viewer)))
        docs["action"].append(cr.encode_action(step.action))
        record = record.append(step.action)
        visible = cr.visible_events(step.events, viewer)
        docs["event"].extend(cr.encode_event(e) for e in visible)
        docs["event"].extend(cr.encode_event(e) for e in step.events)
    final = step.after
    docs["state"].append(cr.encode_state(final))
    viewer = viewer_choice.choice([None, *range(options.num_players)])
    docs["view"].append(cr.encode_view(cr.observe(final, viewer)))
    players = tuple(f"bot {seat}" for seat in range(options.num_players))
    metadata = cr.records.Metadata(
        players=players, event="schema test", result=cr.records.GameResult.of(final)
    )
    docs["record"].append(
        cr.records.encode_record(cr.GameRecord(options, record.seed, record.actions, metadata))
    )
    docs["record"].append(cr.records.encode_record(cr.GameRecord(options, record.seed)))
    return docs


@pytest.mark.parametrize("seed", range(4))
def test_every_document_written_is_valid(seed: int) -> None:
    docs = _documents(seed)
    for kind in KINDS:
        validator = _validator(kind)
        assert docs[kind], kind
        for doc in docs[kind]:
            errors = list(validator.iter_errors(json.loads(json.dumps(doc))))
            assert not errors, (kind, doc, errors[0].message)


def test_every_action_is_valid() -> None:
    validator = _validator("action")
    for action in cr.actions.ALL_ACTIONS:
        validator.validate(cr.encode_action(action))


@pytest.mark.parametrize(
    ("kind", "doc"),
    [
        ("action", {"type": "lay", "species": "parrot", "row": 4, "side": "left"}),
        ("action", {"type": "draw", "extra": 1}),
        ("action", {"type": "fly_home", "species": "eagle"}),
        ("event", {"type": "drew", "player": 0, "count": 2}),
        (
            "event",
            {"type": "laid", "player": 0, "species": "owl", "count": 1, "row": 0, "side": "up"},
        ),
        ("event", {"type": "game_over", "winners": [0], "reason": "luck"}),
    ],
)
def test_schemas_reject_bad_documents(kind: str, doc: dict[str, Any]) -> None:
    assert list(_validator(kind).iter_errors(doc))


def test_state_schema_rejects_bad_state() -> None:
    doc = cr.encode_state(cr.new_game(cr.GameOptions(num_players=3), 42))
    validator = _validator("state")
    validator.validate(doc)
    for key, value in [("seed", -1), ("phase", "fly"), ("rows", [["owl"]]), ("version", 3)]:
        bad = {**doc, key: value}
        assert list(validator.iter_errors(bad)), key
    bad_hand = json.loads(json.dumps(doc))
    bad_hand["hands"][0]["robin"] = 0
    assert list(validator.iter_errors(bad_hand))


def test_the_schemas_read_version_1_documents_as_the_spec_says() -> None:
    # The version 1 vectors are valid; their options may not hold what version 2 added.
    state = _validator("state")
    v1 = json.loads((DATA / "vectors" / "setup-42-3p.json").read_text())["state"]
    assert v1["version"] == 1
    assert state.is_valid(v1)
    assert state.is_valid(
        json.loads((DATA / "vectors" / "v2" / "setup-42-3p.json").read_text())["state"]
    )
    with_new_key = {**v1, "options": {**v1["options"], "refill_trigger": "capture"}}
    assert not state.is_valid(with_new_key)
    new_value = {**v1, "options": {**v1["options"], "next_round_first_player": "same_dealer"}}
    assert not state.is_valid(new_value)
    assert state.is_valid(
        {
            **new_value,
            "version": 2,
            "options": {**new_value["options"], "refill_trigger": "same_species_lay"},
        }
    )
    assert not state.is_valid({**v1, "version": 2})  # version 2 needs refill_trigger
    assert not state.is_valid({**v1, "version": 3})
    record = _validator("record")
    old = json.loads((DATA / "legacy-v1" / "play-finished-3p.json").read_text())
    assert old["version"] == 1
    assert record.is_valid(old)
    assert not record.is_valid({**old, "version": 2})
