"""Game records: recording, replaying, the JSON record format and its rejections."""

from __future__ import annotations

import copy
import io
import json
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any, get_args

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cuckoo_rules as cr
from cuckoo_rules.options import (
    NextRoundFirstPlayer,
    RefillTrigger,
    RoundEndTiming,
    SetupDuplicatesTo,
)
from cuckoo_rules.records import (
    RECORD_FORMAT,
    RECORD_VERSION,
    GameRecord,
    GameResult,
    Metadata,
    RecordError,
    check_record,
    decode_record,
    dump_record,
    dumps_record,
    encode_record,
    final_state,
    load_record,
    loads_record,
    replay,
    replay_steps,
)
from tests.conftest import DATA
from tests.documents import delete_at as _delete
from tests.documents import set_at as _set
from tests.formats.test_codec import as_version_1
from tests.games import random_game

Doc = dict[str, Any]

GOLDEN = sorted((DATA / "golden").glob("*.json"))
GAME_VECTORS = sorted((DATA / "vectors").glob("game-*.json"))  # version 1, each with a v2 twin


def _load(path: Path) -> Doc:
    doc: Doc = json.loads(path.read_text(encoding="utf-8"))
    return doc


def _text(doc: Any) -> str:
    return json.dumps(doc)  # key order matters, so no sort_keys


def _play(
    options: cr.GameOptions, seed: int, play_seed: int, limit: int | None = None
) -> tuple[GameRecord, list[cr.GameState]]:
    """Play random legal actions, recording by append; return the record and every state."""
    game = random_game(options, seed, rng=play_seed, max_actions=limit)
    record = GameRecord.start(options, seed)
    for action in game.actions:
        record = record.append(action)
    return record, list(game.states)


def _record_doc(doc: Doc, metadata: Doc | None = None) -> Doc:
    """A record document for a golden game or vector (which hold options, seed, actions)."""
    return {
        "format": "cuckoo-rules/record",
        "version": 2,
        "options": cr.GameOptions(**doc["options"]).to_json(),  # vectors omit defaults
        "seed": doc["seed"],
        "actions": doc["actions"],
        "metadata": {} if metadata is None else metadata,
    }


@pytest.fixture(scope="module")
def golden_2p() -> GameRecord:
    return decode_record(_record_doc(_load(DATA / "golden" / "2p-default.json")))


# --------------------------------------------------------------------------- record and replay


@pytest.mark.parametrize(("num_players", "seed"), [(2, 0), (3, 42), (4, 2**64 - 1), (5, 99)])
def test_recorded_game_survives_json_and_replays_to_the_same_states(
    num_players: int, seed: int
) -> None:
    options = cr.GameOptions(num_players=num_players, round_end_timing="immediate")
    record, states = _play(options, seed, play_seed=seed + 1)
    assert states[-1].is_over
    assert len(record.actions) == len(states) - 1 > 10
    record = attrs.evolve(
        record,
        metadata=Metadata(
            players=tuple(f"bot{p}" for p in range(num_players)),
            date="2026-11-29",
            result=GameResult.of(states[-1]),
        ),
    )

    text = dumps_record(record)
    decoded = loads_record(text)
    assert decoded == record
    assert hash(decoded) == hash(record)
    assert dumps_record(decoded) == text
    assert list(replay(decoded)) == states
    assert list(decoded.states()) == states
    assert final_state(decoded) == states[-1]
    assert check_record(decoded) == states[-1]


def test_replay_yields_the_initial_state_first() -> None:
    options = cr.GameOptions(num_players=3)
    record = GameRecord.start(options, 42)
    assert list(replay(record)) == [cr.new_game(options, 42)]
    assert final_state(record) == cr.new_game(options, 42)


def test_replay_steps_gives_the_states_of_replay_and_the_events_of_step(
    golden_2p: GameRecord,
) -> None:
    steps = list(replay_steps(golden_2p))
    states = list(replay(golden_2p))
    assert [state for state, _ in steps] == states
    assert steps[0][1] == ()
    for index, action in enumerate(golden_2p.actions):
        assert steps[index + 1] == cr.step(states[index], action)


def test_from_game_and_append_agree() -> None:
    options = cr.GameOptions(num_players=2)
    record, _ = _play(options, 5, play_seed=6, limit=30)
    assert GameRecord.from_game(options, 5, iter(record.actions)) == record
    assert GameRecord.from_game(options, 5, list(record.actions)) == record


def test_append_does_not_change_the_original() -> None:
    options = cr.GameOptions(num_players=3)
    meta = Metadata(players=("a", "b", "c"), event="club night")
    record = GameRecord.start(options, 42, metadata=meta)
    state = cr.new_game(options, 42)
    first = cr.legal_actions(state)[0]
    longer = record.append(first)
    longest = longer.append(cr.Pass())
    assert record.actions == ()
    assert longer.actions == (first,)
    assert longest.actions == (first, cr.Pass())
    assert longer.options == record.options
    assert longer.seed == record.seed
    assert longer.metadata is meta
    assert longer == GameRecord(options, 42, (first,), meta)


def test_append_checks_the_new_action() -> None:
    record = GameRecord.start(cr.GameOptions(num_players=2), 1).append(cr.Pass())
    with pytest.raises(
        RecordError, match=r"actions\[1\]: 'pass' is not a well-formed action"
    ) as info:
        record.append("pass")  # type: ignore[arg-type]
    assert info.value.index == 1
    assert record.actions == (cr.Pass(),)


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_game_replays_to_its_final_state(path: Path) -> None:
    doc = _load(path)
    final = doc["final_state"]
    record = decode_record(_record_doc(doc, {"result": {"winners": final["winners"]}}))
    assert len(record.actions) == len(doc["actions"]) > 0
    state = check_record(record)
    assert state == cr.decode_state(final)
    assert final_state(record) == cr.decode_state(final)
    assert encode_record(record)["actions"] == doc["actions"]


@pytest.mark.parametrize("path", GAME_VECTORS, ids=lambda p: p.stem)
def test_game_vector_replays_state_by_state(path: Path) -> None:
    doc = _load(path)
    twin = _load(DATA / "vectors" / "v2" / path.name)  # the same game in version 2
    record = decode_record(json.loads(_text(_record_doc(doc))))
    assert record == decode_record(_record_doc(twin))
    states = list(replay(record))
    assert len(states) == len(doc["states"]) == len(doc["actions"]) + 1
    for index, (state, old, new) in enumerate(
        zip(states, doc["states"], twin["states"], strict=True)
    ):
        assert _text(cr.encode_state(state)) == _text(new), f"state {index}"
        assert state == cr.decode_state(old), f"state {index}"
    assert states[-1].is_over


# --------------------------------------------------------------------------- illegal moves


def _illegal_action(state: cr.GameState) -> cr.Action:
    legal = set(cr.legal_actions(state))
    return next(a for a in cr.actions.ALL_ACTIONS if a not in legal)


@pytest.mark.parametrize("index", [0, 3, 17, 60])
def test_illegal_action_is_rejected_naming_the_move(golden_2p: GameRecord, index: int) -> None:
    states = list(replay(golden_2p))
    bad = _illegal_action(states[index])
    actions = list(golden_2p.actions)
    actions[index] = bad
    record = attrs.evolve(golden_2p, actions=tuple(actions))

    with pytest.raises(cr.IllegalActionError) as illegal:
        cr.apply(states[index], bad)
    reason = str(illegal.value)
    assert reason.startswith(f"{bad!r} is not legal")
    expected = f"actions[{index}] (move {index + 1}, turn {states[index].turn}): {reason}"

    seen: list[cr.GameState] = []
    with pytest.raises(RecordError) as info:
        seen.extend(replay(record))
    assert str(info.value) == expected
    assert info.value.index == index
    assert isinstance(info.value.__cause__, cr.IllegalActionError)
    assert seen == states[: index + 1]  # states before the bad move were yielded

    for check in (final_state, check_record, lambda r: list(replay_steps(r))):
        with pytest.raises(RecordError) as again:
            check(record)
        assert str(again.value) == expected
        assert again.value.index == index


def test_action_after_the_end_is_rejected(golden_2p: GameRecord) -> None:
    n = len(golden_2p.actions)
    record = golden_2p.append(cr.Pass())
    with pytest.raises(RecordError, match=rf"^actions\[{n}\] \(move {n + 1}, .*the game is over"):
        final_state(record)


def test_decoding_does_not_replay(golden_2p: GameRecord) -> None:
    doc = encode_record(golden_2p)
    doc["actions"][0] = {"type": "draw"}  # never legal as a first action
    record = decode_record(doc)  # fine: decoding checks the form only
    states = replay(record)
    assert next(states) == cr.new_game(record.options, record.seed)
    with pytest.raises(RecordError, match=r"^actions\[0\] \(move 1, turn 1\): Draw\(\) is not"):
        next(states)


def test_check_record_checks_the_result(golden_2p: GameRecord) -> None:
    final = final_state(golden_2p)
    assert final.is_over
    right = attrs.evolve(golden_2p, metadata=Metadata(result=GameResult.of(final)))
    assert check_record(right) == final
    wrong_seat = 1 - final.winners[0]
    wrong = attrs.evolve(golden_2p, metadata=Metadata(result=GameResult((wrong_seat,))))
    with pytest.raises(RecordError, match=r"^metadata.result.winners: the record gives \["):
        check_record(wrong)
    unfinished = GameRecord(golden_2p.options, golden_2p.seed, golden_2p.actions[:10])
    unfinished = attrs.evolve(unfinished, metadata=right.metadata)
    with pytest.raises(RecordError) as info:
        check_record(unfinished)
    winners = list(final.winners)
    assert str(info.value) == (
        f"metadata.result: the record gives winners {winners}, but the game is not over "
        "after its 10 actions"
    )
    assert check_record(attrs.evolve(unfinished, metadata=Metadata())).turn >= 1


# --------------------------------------------------------------------------- the JSON document


def test_document_layout() -> None:
    action = cr.Lay(cr.Species.PARROT, 0, cr.Side.LEFT)
    options = cr.GameOptions(num_players=2)
    meta = Metadata(players=("Ann", "greedy"), date="2026-11-29", result=GameResult((1,)))
    doc = encode_record(GameRecord(options, 42, (action, cr.Pass()), meta))
    assert doc == {
        "format": "cuckoo-rules/record",
        "version": 2,
        "options": options.to_json(),
        "seed": 42,
        "actions": [
            {"type": "lay", "species": "parrot", "row": 0, "side": "left"},
            {"type": "pass"},
        ],
        "metadata": {
            "players": ["Ann", "greedy"],
            "date": "2026-11-29",
            "result": {"winners": [1]},
        },
    }
    assert list(doc) == ["format", "version", "options", "seed", "actions", "metadata"]
    assert list(doc["options"]) == list(cr.encode_state(cr.new_game(options, 42))["options"])
    assert (RECORD_FORMAT, RECORD_VERSION) == ("cuckoo-rules/record", 2)


@pytest.mark.parametrize(
    ("metadata", "expected"),
    [
        (Metadata(), {}),
        (Metadata(event="final"), {"event": "final"}),
        (Metadata(date="", event=""), {"date": "", "event": ""}),
        (
            Metadata(players=("Zoë", "李"), event="x", date="d", result=GameResult((0, 1))),
            {"players": ["Zoë", "李"], "date": "d", "event": "x", "result": {"winners": [0, 1]}},
        ),
    ],
)
def test_metadata_round_trips(metadata: Metadata, expected: Doc) -> None:
    record = GameRecord(cr.GameOptions(num_players=2), 3, (), metadata)
    doc = encode_record(record)
    assert doc["metadata"] == expected
    assert list(doc["metadata"]) == list(expected)
    assert decode_record(doc) == record
    assert loads_record(dumps_record(record, indent=2)) == record
    assert dumps_record(record).isascii()


def test_key_order_is_not_checked_on_reading(golden_2p: GameRecord) -> None:
    doc = encode_record(golden_2p)
    assert decode_record(dict(reversed(list(doc.items())))) == golden_2p


def test_dump_and_load_files(tmp_path: Path, golden_2p: GameRecord) -> None:
    buffer = io.StringIO()
    dump_record(golden_2p, buffer, indent=1)
    assert "\n" in buffer.getvalue()
    assert load_record(io.StringIO(buffer.getvalue())) == golden_2p
    path = tmp_path / "game.json"
    with path.open("w", encoding="utf-8") as fp:
        dump_record(golden_2p, fp)
    with path.open("rb") as binary:
        assert load_record(binary) == golden_2p
    with path.open(encoding="utf-8") as text:
        assert load_record(text) == golden_2p


LAY = {"type": "lay", "species": "parrot", "row": 0, "side": "left"}

BAD_DOCUMENTS: list[tuple[str, Callable[[Doc], None], str]] = [
    ("format", _set("format", "cuckoo-rules/state"), "format: expected 'cuckoo-rules/record'"),
    ("version", _set("version", 3), "version: unsupported version 3, expected 1 or 2"),
    ("version-0", _set("version", 0), "version: unsupported version 0, expected 1 or 2"),
    ("version-bool", _set("version", True), "version: unsupported version True, expected 1"),
    ("version-str", _set("version", "1"), "version: unsupported version '1', expected 1"),
    ("version-float", _set("version", 2.0), "version: unsupported version 2.0, expected 1"),
    (
        "version-1-refill-trigger",
        _set("version", 1),
        "options: unknown key 'refill_trigger' (format version 1 has no such option",
    ),
    ("options-no-refill", _delete("options.refill_trigger"), "options: missing key 'refill_tr"),
    ("missing-format", _delete("format"), "record: missing key 'format'"),
    ("missing-seed", _delete("seed"), "record: missing key 'seed'"),
    ("missing-actions", _delete("actions"), "record: missing key 'actions'"),
    ("missing-metadata", _delete("metadata"), "record: missing key 'metadata'"),
    ("unknown-key", _set("states", []), "record: unknown key 'states'"),
    ("not-an-object", lambda doc: doc.clear(), "record: missing key 'format'"),
    ("options-type", _set("options", 3), "options: expected an object, got 3"),
    ("options-missing", _delete("options.always_prompt_flock"), "options: missing key 'always_"),
    ("options-unknown", _set("options.speed", 1), "options: unknown key 'speed'"),
    ("options-players", _set("options.num_players", 6), "options.num_players: 6 is not in 2..5"),
    ("options-value", _set("options.round_end_timing", "later"), "options.round_end_timing: "),
    ("options-bool", _set("options.num_players", True), "options.num_players: expected an int"),
    ("seed-range", _set("seed", 2**64), "seed: 18446744073709551616 is out of range"),
    ("seed-negative", _set("seed", -1), "seed: -1 is out of range"),
    ("seed-str", _set("seed", "42"), "seed: expected an integer, got '42'"),
    ("seed-bool", _set("seed", True), "seed: expected an integer, got True"),
    ("seed-float", _set("seed", 42.0), "seed: expected an integer, got 42.0"),
    ("seed-null", _set("seed", None), "seed: expected an integer, got None"),
    ("actions-type", _set("actions", {"0": LAY}), "actions: expected an array"),
    ("action-row", _set("actions.3", {**LAY, "row": 4}), "actions[3].row: 4 is out of range"),
    (
        "action-row-bool",
        _set("actions.3", {**LAY, "row": False}),
        "actions[3].row: expected an integer",
    ),
    ("action-species", _set("actions.3", {**LAY, "species": "eagle"}), "actions[3].species: "),
    ("action-side", _set("actions.3", {**LAY, "side": "up"}), "actions[3].side: 'up' is not"),
    ("action-missing", _set("actions.3", {"type": "fly_home"}), "actions[3]: missing key 'spec"),
    ("action-unknown", _set("actions.3", {"type": "pass", "n": 1}), "actions[3]: unknown key 'n'"),
    ("action-type", _set("actions.3", {"type": "fly"}), "actions[3].type: 'fly' is not one of"),
    ("action-no-type", _set("actions.3", {}), "actions[3].type: None is not one of"),
    ("action-not-object", _set("actions.3", "pass"), "actions[3]: expected an object, got 'p"),
    ("metadata-type", _set("metadata", []), "metadata: expected an object, got []"),
    ("metadata-unknown", _set("metadata.site", "x"), "metadata: unknown key 'site'"),
    ("metadata-null", _set("metadata.date", None), "metadata.date: null is not allowed"),
    ("date-type", _set("metadata.date", 20261129), "metadata.date: expected a string"),
    ("event-type", _set("metadata.event", ["x"]), "metadata.event: expected a string"),
    ("players-type", _set("metadata.players", "Ann Bob"), "metadata.players: expected an array"),
    ("players-item", _set("metadata.players", ["Ann", 7]), "metadata.players[1]: expected a str"),
    ("players-count", _set("metadata.players", ["Ann"]), "metadata.players: expected 2 names"),
    ("result-type", _set("metadata.result", [1]), "metadata.result: expected an object"),
    ("result-missing", _set("metadata.result", {}), "metadata.result: missing key 'winners'"),
    (
        "result-unknown",
        _set("metadata.result", {"winners": [0], "scores": [7, 6]}),
        "metadata.result: unknown key 'scores'",
    ),
    ("winners-type", _set("metadata.result.winners", 1), "metadata.result.winners: expected an"),
    ("winners-empty", _set("metadata.result.winners", []), "metadata.result.winners: a finished"),
    ("winners-bool", _set("metadata.result.winners", [True]), "metadata.result.winners[0]: expec"),
    ("winners-negative", _set("metadata.result.winners", [-1]), "metadata.result.winners[0]: -1"),
    ("winners-range", _set("metadata.result.winners", [0, 2]), "metadata.result.winners[1]: seat"),
    ("winners-order", _set("metadata.result.winners", [1, 0]), "metadata.result.winners: seats"),
    ("winners-twice", _set("metadata.result.winners", [1, 1]), "metadata.result.winners: seats"),
]


def _good_doc() -> Doc:
    options = cr.GameOptions(num_players=2)
    record, _ = _play(options, 11, play_seed=12, limit=8)
    meta = Metadata(players=("Ann", "Bob"), date="2026-11-29", result=GameResult((0,)))
    return encode_record(attrs.evolve(record, metadata=meta))


@pytest.mark.parametrize(
    ("mutate", "message"), [b[1:] for b in BAD_DOCUMENTS], ids=[b[0] for b in BAD_DOCUMENTS]
)
def test_decode_record_rejects_bad_document(mutate: Callable[[Doc], None], message: str) -> None:
    doc = _good_doc()
    decode_record(copy.deepcopy(doc))  # the unchanged document is fine
    mutate(doc)
    before = copy.deepcopy(doc)
    with pytest.raises(cr.DecodeError) as info:
        decode_record(doc)
    assert str(info.value).startswith(message)
    assert doc == before  # decoding never changes its input
    with pytest.raises(cr.DecodeError) as from_text:
        loads_record(json.dumps(doc))
    assert str(from_text.value) == str(info.value)


def test_bad_action_error_has_the_index() -> None:
    doc = _good_doc()
    doc["actions"][5] = {"type": "lay", "species": "owl", "row": "2", "side": "left"}
    with pytest.raises(RecordError) as info:
        decode_record(doc)
    assert info.value.index == 5
    assert str(info.value) == "actions[5].row: expected an integer, got '2'"


@pytest.mark.parametrize("value", [None, [], "record", 3, 2.5])
def test_decode_record_rejects_non_objects(value: object) -> None:
    with pytest.raises(cr.DecodeError, match=r"^record: expected an object, got "):
        decode_record(value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "invalid JSON at line 1, column 1 (char 0): Expecting value"),
        ('{"format": }', "invalid JSON at line 1, column 12 (char 11): Expecting value"),
        (
            '{"a": 1,\n "b" 2}',
            "invalid JSON at line 2, column 6 (char 14): Expecting ':' delimiter",
        ),
        ("[1, 2", "invalid JSON at line 1, column 6 (char 5): Expecting ',' delimiter"),
        ('{"seed": 1, "seed": 2}', "invalid JSON: duplicate key 'seed' in an object"),
        ("[]", "record: expected an object, got []"),
        ("NaN", "invalid JSON: NaN is not a JSON number"),
        ('{"seed": Infinity}', "invalid JSON: Infinity is not a JSON number"),
    ],
)
def test_loads_record_rejects_bad_text(text: str, message: str) -> None:
    with pytest.raises(cr.DecodeError) as info:
        loads_record(text)
    assert str(info.value) == message
    assert not isinstance(info.value, json.JSONDecodeError)


def test_loads_record_rejects_bad_bytes() -> None:
    with pytest.raises(cr.DecodeError, match=r"^invalid JSON: bytes 1 to 2 are not utf-8"):
        loads_record(b'{\xff"format": 1}')
    good = dumps_record(GameRecord(cr.GameOptions(num_players=2), 1)).encode()
    assert loads_record(good) == loads_record(bytearray(good))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 2000, "invalid JSON at line 1, column 65 (char 64): arrays and objects nested"),
        ('{"a": ' * 100_000, "invalid JSON at line 1, column 385 (char 384): arrays and objects"),
        (
            '{"seed": ' + "7" * 4301 + "}",
            "invalid JSON at line 1, column 10 (char 9): a number with 4301 digits in a row "
            "(at most 40)",
        ),
        ('{"seed": -' + "1" * 41 + "}", "(char 9): a number with 41 digits in a row (at most 40)"),
        ('{"seed": 1e999}', "invalid JSON at line 1, column 10 (char 9): 1e999 is too large"),
        ('{"seed": -1E400}', "(char 9): -1E400 is too large for a number"),
        ('{"seed": 0.' + "5" * 50 + "}", "(char 9): a number with 50 digits in a row"),
        (
            '{"metadata": {"event": "\\udc00"}}',
            "invalid JSON at line 1, column 25 (char 24): U+DC00 is a lone surrogate (half of a "
            "UTF-16 pair), not a character",
        ),
        ('{"a": "\\ud83d\\ude00", "b": "\\uD83D"}', "(char 28): U+D83D is a lone surrogate"),
        ('{"a": "\\ud83d\\u0041"}', "(char 7): U+D83D is a lone surrogate"),
        ('["\ud800"]', "invalid JSON at line 1, column 3 (char 2): U+D800 is a lone surrogate"),
        ('{"seed": 1, "seed": 2}', "invalid JSON: duplicate key 'seed' in an object"),
        ('{"' + "k" * 10_000 + '": 1, "' + "k" * 10_000 + '": 2}', "duplicate key 'kkkkkkk"),
    ],
)
def test_loads_record_refuses_hostile_text(text: str, message: str) -> None:
    with pytest.raises(cr.DecodeError) as info:
        loads_record(text)
    assert message in str(info.value)
    assert len(str(info.value)) < 200
    with pytest.raises(cr.DecodeError) as from_bytes:
        loads_record(text.encode("utf-8", "surrogatepass"))
    if "\ud800" not in text:  # as bytes, a raw surrogate is not UTF-8
        assert str(from_bytes.value) == str(info.value)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            b'{"a": "\xed\xa0\x80"}',
            "invalid JSON: bytes 7 to 8 are not utf-8: invalid continuation",
        ),
        (b'{"a": "\xc3"}', "invalid JSON: bytes 7 to 8 are not utf-8: invalid continuation byte"),
        (b"\xef\xbb\xbf[\xff]", "invalid JSON: bytes 1 to 2 are not utf-8: invalid start byte"),
        (
            '["\ud800"]'.encode("utf-16-le", "surrogatepass"),
            "invalid JSON: bytes 4 to 6 are not utf-16-le: illegal UTF-16 surrogate",
        ),
    ],
)
def test_loads_record_refuses_bytes_that_are_not_text(data: bytes, message: str) -> None:
    with pytest.raises(cr.DecodeError) as info:
        loads_record(data)
    assert str(info.value).startswith(message)


def test_hostile_text_nested_64_deep_is_parsed_and_65_deep_is_not() -> None:
    for depth, ok in ((64, True), (65, False)):
        text = '{"format": ' + "[" * (depth - 1) + "]" * (depth - 1) + "}"
        with pytest.raises(cr.DecodeError) as info:
            loads_record(text)
        nested = "arrays and objects nested more than 64 levels deep" in str(info.value)
        assert nested is not ok  # at 64 levels the JSON is fine and the record is not


def test_a_text_file_that_is_not_utf8_is_a_decode_error(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    good = dumps_record(GameRecord(cr.GameOptions(num_players=2), 1))
    path.write_bytes(good.encode()[:20] + b"\xff" + good.encode()[20:])
    with path.open(encoding="utf-8") as text, pytest.raises(cr.DecodeError) as info:
        load_record(text)
    assert str(info.value) == "invalid JSON: bytes 20 to 21 are not utf-8: invalid start byte"
    with path.open("rb") as binary, pytest.raises(cr.DecodeError):
        load_record(binary)


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: Metadata(players=("Ann", "B\udc80b")), "metadata.players[1]: U+DC80 at index 1"),
        (lambda: Metadata(event="\ud83d"), "metadata.event: U+D83D at index 0 is a lone surrogate"),
        (lambda: Metadata(date="2026\udfff"), "metadata.date: U+DFFF at index 4 is a lone"),
    ],
)
def test_metadata_refuses_lone_surrogates(build: Callable[[], object], message: str) -> None:
    with pytest.raises(RecordError) as info:
        build()
    assert str(info.value).startswith(message)
    assert Metadata(players=("Zoë", "😀")).players == ("Zoë", "😀")  # a pair is a character


# --------------------------------------------------------------------------- versions


def test_a_version_1_record_reads_as_version_2() -> None:
    doc = _good_doc()
    assert doc["version"] == 2
    old = as_version_1(doc)
    record = decode_record(old)
    assert record == decode_record(doc)
    assert record.options.refill_trigger == "capture"
    assert encode_record(record) == doc  # written back as version 2
    assert loads_record(json.dumps(old)) == record


@pytest.mark.parametrize("path", GAME_VECTORS, ids=lambda p: p.stem)
def test_a_version_1_record_of_a_vector_is_the_record_of_its_twin(path: Path) -> None:
    old, new = _load(path), _load(DATA / "vectors" / "v2" / path.name)
    v2 = _record_doc(new)
    v1 = {**v2, "version": 1, "options": old["states"][0]["options"]}  # as 0.1 wrote it
    assert "refill_trigger" not in v1["options"]
    assert v2["options"] == new["states"][0]["options"]
    assert decode_record(v1) == decode_record(v2)
    assert encode_record(decode_record(v1)) == v2


def test_a_version_1_record_may_not_use_same_dealer() -> None:
    doc = as_version_1(_good_doc())
    doc["options"]["next_round_first_player"] = "same_dealer"
    message = "options.next_round_first_player: format version 1 does not have 'same_dealer'"
    with pytest.raises(cr.DecodeError, match=f"^{message}"):
        decode_record(doc)
    with pytest.raises(cr.DecodeError, match=f"^{message}"):
        loads_record(json.dumps(doc))
    doc["version"] = 2
    doc["options"]["refill_trigger"] = "same_species_lay"
    assert decode_record(doc).options.next_round_first_player == "same_dealer"


# --------------------------------------------------------------------------- construction


@pytest.mark.parametrize("seed", [-1, 2**64, True, False, 1.0, "1", None, 2**70])
def test_bad_seeds_are_rejected_like_new_game(seed: Any) -> None:
    options = cr.GameOptions(num_players=2)
    with pytest.raises(cr.InvalidOptionsError) as engine:
        cr.new_game(options, seed)
    with pytest.raises(cr.InvalidOptionsError) as record:
        GameRecord(options, seed)
    assert str(record.value) == str(engine.value)
    with pytest.raises(cr.InvalidOptionsError):
        GameRecord.start(options, seed)
    with pytest.raises(cr.InvalidOptionsError):
        GameRecord.from_game(options, seed, [])


@pytest.mark.parametrize("seed", [0, 1, 2**64 - 1])
def test_good_seeds_are_accepted(seed: int) -> None:
    record = GameRecord(cr.GameOptions(num_players=2), seed)
    assert final_state(record) == cr.new_game(cr.GameOptions(num_players=2), seed)


def test_options_must_be_game_options() -> None:
    with pytest.raises(cr.InvalidOptionsError, match=r"^options: expected GameOptions"):
        GameRecord({"num_players": 2}, 1)  # type: ignore[arg-type]


OPTIONS_2P = cr.GameOptions(num_players=2)

BAD_FIELDS: list[tuple[str, Callable[[], object], str]] = [
    ("actions-list", lambda: GameRecord(OPTIONS_2P, 1, [cr.Pass()]), "actions: expected a tuple"),  # type: ignore[arg-type]
    (
        "action-type",
        lambda: GameRecord.from_game(OPTIONS_2P, 1, [cr.Draw(), {"type": "pass"}]),  # type: ignore[list-item]
        "actions[1]: {'type': 'pass'} is not a well-formed action",
    ),
    ("metadata-type", lambda: GameRecord(OPTIONS_2P, 1, (), {}), "metadata: expected Metadata"),  # type: ignore[arg-type]
    ("players-list", lambda: Metadata(players=["a", "b"]), "metadata.players: expected a tuple"),  # type: ignore[arg-type]
    ("players-str", lambda: Metadata(players="ab"), "metadata.players: expected a tuple"),  # type: ignore[arg-type]
    ("players-item", lambda: Metadata(players=("a", None)), "metadata.players[1]: expected a str"),  # type: ignore[arg-type]
    (
        "players-count",
        lambda: GameRecord(OPTIONS_2P, 1, (), Metadata(players=("a", "b", "c"))),
        "metadata.players: expected 2 names (one per player), got 3",
    ),
    ("date", lambda: Metadata(date=20261129), "metadata.date: expected a string or None"),  # type: ignore[arg-type]
    ("event", lambda: Metadata(event=b"x"), "metadata.event: expected a string or None"),  # type: ignore[arg-type]
    ("result", lambda: Metadata(result=(0,)), "metadata.result: expected a GameResult"),  # type: ignore[arg-type]
    ("winners-list", lambda: GameResult([0]), "metadata.result.winners: expected a tuple"),  # type: ignore[arg-type]
    ("winners-empty", lambda: GameResult(()), "metadata.result.winners: a finished game has"),
    ("winners-bool", lambda: GameResult((True,)), "metadata.result.winners[0]: expected an int"),
    ("winners-order", lambda: GameResult((2, 1)), "metadata.result.winners: seats must be dis"),
    (
        "winners-range",
        lambda: GameRecord(OPTIONS_2P, 1, (), Metadata(result=GameResult((0, 2)))),
        "metadata.result.winners[1]: seat 2 is out of range for 2 players (0 to 1)",
    ),
]


@pytest.mark.parametrize(
    ("build", "message"), [b[1:] for b in BAD_FIELDS], ids=[b[0] for b in BAD_FIELDS]
)
def test_construction_rejects_bad_fields(build: Callable[[], object], message: str) -> None:
    with pytest.raises(RecordError) as info:
        build()
    assert str(info.value).startswith(message)


def test_game_result_of_a_state() -> None:
    _, states = _play(cr.GameOptions(num_players=3), 8, play_seed=9)
    assert GameResult.of(states[-1]).winners == states[-1].winners
    with pytest.raises(RecordError, match=r"^metadata\.result: the game is not over"):
        GameResult.of(states[-2])


def test_record_error_is_a_decode_error_and_pickles() -> None:
    assert issubclass(RecordError, cr.DecodeError)
    assert issubclass(RecordError, cr.CuckooError)
    assert issubclass(RecordError, ValueError)
    error = RecordError("actions[3] (move 4, turn 2): nope", 3)
    copied = pickle.loads(pickle.dumps(error))
    assert (type(copied), str(copied), copied.index) == (RecordError, str(error), 3)
    assert RecordError("metadata: x").index is None


# --------------------------------------------------------------------------- property


@st.composite
def records(draw: st.DrawFn) -> GameRecord:
    options = cr.GameOptions(
        num_players=draw(st.integers(2, 5)),
        initial_row_length=draw(st.sampled_from((3, 4))),
        setup_duplicates_to=draw(st.sampled_from(get_args(SetupDuplicatesTo))),
        optional_draw_if_adjacent=draw(st.booleans()),
        refill_trigger=draw(st.sampled_from(get_args(RefillTrigger))),
        round_end_timing=draw(st.sampled_from(get_args(RoundEndTiming))),
        exhaustion_counts_discard=draw(st.booleans()),
        next_round_first_player=draw(st.sampled_from(get_args(NextRoundFirstPlayer))),
        always_prompt_flock=draw(st.booleans()),
    )
    n = options.num_players
    seed = draw(st.integers(0, 2**64 - 1))
    record, _ = _play(options, seed, draw(st.integers(0, 2**32)), limit=draw(st.integers(0, 80)))
    texts = st.none() | st.text(max_size=12)
    players = draw(st.none() | st.lists(st.text(max_size=8), min_size=n, max_size=n).map(tuple))
    seats = st.sets(st.integers(0, n - 1), min_size=1).map(lambda s: GameResult(tuple(sorted(s))))
    result = draw(st.none() | seats)
    return attrs.evolve(record, metadata=Metadata(players, draw(texts), draw(texts), result))


@given(records())
def test_decode_encode_round_trip(record: GameRecord) -> None:
    doc = encode_record(record)
    assert decode_record(doc) == record
    text = dumps_record(record)
    assert json.loads(text) == doc
    again = loads_record(text)
    assert again == record
    assert dumps_record(again) == text
    assert list(replay(again)) == list(replay(record))
