"""JSON state and action documents: round trips and rejection of bad documents."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest

import cuckoo_rules as cr
from cuckoo_rules.codec.versions import DocumentKind
from tests import builders
from tests.conftest import DATA
from tests.documents import delete_at as _delete
from tests.documents import set_at as _set

Doc = dict[str, Any]


def _doc(num_players: int = 3, seed: int = 42) -> Doc:
    return cr.encode_state(cr.new_game(cr.GameOptions(num_players=num_players), seed))


def _get(doc: Doc, path: str) -> Any:
    target: Any = doc
    for key in path.split("."):
        target = target[int(key)] if key.isdigit() else target[key]
    return target


BAD_DOCUMENTS: list[tuple[str, Callable[[Doc], None], str]] = [
    ("format", _set("format", "cuckoo-rules/view"), "format: expected 'cuckoo-rules/state'"),
    ("version", _set("version", 3), "version: unsupported version 3, expected 1 or 2"),
    ("version-0", _set("version", 0), "version: unsupported version 0, expected 1 or 2"),
    ("version-bool", _set("version", True), "version: unsupported version True, expected 1"),
    ("version-str", _set("version", "2"), "version: unsupported version '2', expected 1 or 2"),
    ("version-float", _set("version", 2.0), "version: unsupported version 2.0, expected 1"),
    ("version-null", _set("version", None), "version: unsupported version None, expected 1"),
    ("missing-key", _delete("turn"), "state: missing key 'turn'"),
    ("unknown-key", _set("extra", 1), "state: unknown key 'extra'"),
    ("options-missing", _set("options", {"num_players": 3}), "options: missing key"),
    ("options-value", _set("options.round_end_timing", "later"), "options.round_end_timing"),
    ("options-players", _set("options.num_players", 6), "options.num_players: 6 is not in 2..5"),
    ("options-bool", _set("options.num_players", True), "options.num_players: expected an integer"),
    ("seed-range", _set("seed", 2**64), "seed: 18446744073709551616 is out of range"),
    ("seed-negative", _set("seed", -1), "seed: -1 is out of range"),
    ("seed-str", _set("seed", "42"), "seed: expected an integer, got '42'"),
    ("shuffles", _set("shuffles", 0), "shuffles: 0 is out of range"),
    ("round", _set("round", 0), "round: 0 is out of range"),
    ("turn-float", _set("turn", 1.0), "turn: expected an integer, got 1.0"),
    ("dealer", _set("dealer", 3), "dealer: 3 is out of range"),
    ("current", _set("current_player", -1), "current_player: -1 is out of range"),
    ("phase", _set("phase", "fly"), "phase: 'fly' is not one of"),
    ("rows-count", _set("rows", [["owl"]] * 3), "rows: expected 4 rows, got 3"),
    ("row-empty", _set("rows.2", []), "rows[2]: a row cannot be empty"),
    ("row-species", _set("rows.1.0", "eagle"), "rows[1][0]: unknown species 'eagle'"),
    ("row-type", _set("rows.1", "duck"), "rows[1]: expected an array"),
    ("draw-species", _set("draw_pile.5", 7), "draw_pile[5]: unknown species 7"),
    ("hands-len", _set("hands", [{}, {}]), "hands: expected 3 entries"),
    ("count-negative", _set("hands.1.robin", -1), "hands[1].robin: count -1 is negative"),
    ("count-zero", _set("collections.0.toucan", 0), "collections[0].toucan: count 0 must be"),
    ("count-type", _set("discard_pile.magpie", "1"), "discard_pile.magpie: expected an integer"),
    ("count-species", _set("discard_pile.cuckoo", 1), "discard_pile.cuckoo: unknown species"),
    ("multiset-type", _set("known_hands.0", []), "known_hands[0]: expected an object"),
    ("too-many-cards", _set("discard_pile.magpie", 2), "there must be 17 magpie cards"),
    ("too-few-cards", _set("draw_pile", []), "cards in all"),
    ("known-outside-hand", _set("known_hands.0", {"toucan": 1}), "known_hands[0].toucan"),
    ("winners-early", _set("winners", [1]), "winners: must be empty in phase 'lay'"),
    ("winners-range", _set("winners", [5]), "winners[0]: 5 is out of range"),
    ("winners-order", _set("winners", [1, 0]), "winners: seats must be distinct"),
    ("over-no-winner", _set("phase", "game_over"), "winners: a finished game"),
    ("flock-impossible", _set("phase", "flock"), "'flock' but player 2 holds no flock"),
    ("not-an-object", lambda doc: doc.clear(), "state: missing key 'format'"),
]


@pytest.mark.parametrize(
    ("mutate", "message"), [b[1:] for b in BAD_DOCUMENTS], ids=[b[0] for b in BAD_DOCUMENTS]
)
def test_decode_state_rejects_bad_document(mutate: Callable[[Doc], None], message: str) -> None:
    doc = _doc()
    mutate(doc)
    before = copy.deepcopy(doc)
    with pytest.raises(cr.DecodeError) as info:
        cr.decode_state(doc)
    assert message in str(info.value)
    assert doc == before  # decoding never changes its input


def test_decode_state_rejects_non_mapping() -> None:
    values: list[object] = [None, [], "state", 3]
    for value in values:
        with pytest.raises(cr.DecodeError, match="state: expected an object"):
            cr.decode_state(value)  # type: ignore[arg-type]


def test_lay_phase_needs_a_hand() -> None:
    doc = _doc()
    hand = doc["hands"][2]
    for species, count in hand.items():
        doc["discard_pile"][species] = doc["discard_pile"].get(species, 0) + count
    doc["hands"][2] = {}
    doc["discard_pile"] = {
        s.value: doc["discard_pile"][s.value] for s in cr.SPECIES if s.value in doc["discard_pile"]
    }
    with pytest.raises(cr.DecodeError, match="player 2 is to lay but holds no cards"):
        cr.decode_state(doc)


def test_draw_phase_needs_cards_to_draw() -> None:
    doc = _doc()
    doc["phase"] = "draw"
    cr.decode_state(doc)  # fine with cards in the piles
    spare = doc["draw_pile"] + [s for s, n in doc["discard_pile"].items() for _ in range(n)]
    for species in spare:
        doc["collections"][0][species] = doc["collections"][0].get(species, 0) + 1
    doc["collections"][0] = {
        s.value: doc["collections"][0][s.value]
        for s in cr.SPECIES
        if s.value in doc["collections"][0]
    }
    doc["draw_pile"], doc["discard_pile"] = [], {}
    with pytest.raises(cr.DecodeError, match="'draw' is offered only when"):
        cr.decode_state(doc)


def test_round_trip_is_exact_and_key_order_is_the_format_order() -> None:
    doc = _doc(5, 2**64 - 1)
    text = json.dumps(doc)
    state = cr.decode_state(json.loads(text))
    assert json.dumps(cr.encode_state(state)) == text
    assert list(doc) == [
        "format", "version", "options", "seed", "shuffles", "round", "turn", "dealer",
        "current_player", "phase", "rows", "draw_pile", "discard_pile", "hands",
        "known_hands", "collections", "winners",
    ]  # fmt: skip
    assert list(doc["options"]) == [
        "num_players", "initial_row_length", "setup_duplicates_to", "optional_draw_if_adjacent",
        "refill_trigger", "round_end_timing", "exhaustion_counts_discard",
        "next_round_first_player", "always_prompt_flock",
    ]  # fmt: skip
    assert doc["version"] == cr.codec.STATE_VERSION == 2


def test_key_order_is_not_checked_on_reading() -> None:
    doc = _doc()
    shuffled = dict(reversed(list(doc.items())))
    assert cr.decode_state(shuffled) == cr.decode_state(doc)


def test_multiset_keys_are_written_in_species_order() -> None:
    state = cr.decode_state(_doc())
    for hand in cr.encode_state(state)["hands"]:
        order = [cr.Species(key).index for key in hand]
        assert order == sorted(order)
        assert all(count > 0 for count in hand.values())


# --------------------------------------------------------------------------- versions

V1_VECTORS = sorted((DATA / "vectors").glob("*.json"))
V2_VECTORS = sorted((DATA / "vectors" / "v2").glob("*.json"))


def _states_of(path: Path) -> list[Doc]:
    """The state documents of a vector: a setup's one state, or a game's every state."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    states: list[Doc] = [doc["state"]] if "state" in doc else doc["states"]
    return states


def as_version_1(doc: Doc) -> Doc:
    """The version 1 form of a version 2 document (state, view or record) of the defaults.

    Version 1 had no ``refill_trigger`` (it meant ``"capture"``).
    """
    assert doc["version"] == 2
    assert doc["options"]["refill_trigger"] == "capture"
    v1 = copy.deepcopy(doc)
    v1["version"] = 1
    del v1["options"]["refill_trigger"]
    return v1


def test_every_version_1_vector_has_a_version_2_twin() -> None:
    assert len(V1_VECTORS) >= 9
    v2_names = {path.name for path in V2_VECTORS}
    assert {path.name for path in V1_VECTORS} < v2_names  # v2 also has games of new options
    v2_options = [json.loads(path.read_text(encoding="utf-8"))["options"] for path in V2_VECTORS]
    assert any(o.get("refill_trigger") == "same_species_lay" for o in v2_options)
    assert any(o.get("next_round_first_player") == "same_dealer" for o in v2_options)


@pytest.mark.parametrize("path", V1_VECTORS, ids=lambda p: p.name)
def test_a_version_1_vector_gives_the_states_of_its_version_2_twin(path: Path) -> None:
    v1_states, v2_states = _states_of(path), _states_of(DATA / "vectors" / "v2" / path.name)
    assert len(v1_states) == len(v2_states) >= 1
    for index, (v1, v2) in enumerate(zip(v1_states, v2_states, strict=True)):
        assert v1["version"] == 1
        assert "refill_trigger" not in v1["options"]
        assert v2["version"] == 2
        state = cr.decode_state(v1)
        assert state == cr.decode_state(v2), f"state {index}"
        assert json.dumps(cr.encode_state(state)) == json.dumps(v2), f"state {index}"


@pytest.mark.parametrize("path", V2_VECTORS, ids=lambda p: p.name)
def test_every_version_2_vector_state_decodes_and_encodes_back(path: Path) -> None:
    states = _states_of(path)
    for index, doc in enumerate(states):
        assert json.dumps(cr.encode_state(cr.decode_state(doc))) == json.dumps(doc), index
    options = json.loads(path.read_text(encoding="utf-8"))["options"]
    assert cr.decode_state(states[0]).options == cr.GameOptions(**options)


def test_a_version_1_document_reads_as_version_2() -> None:
    doc = _doc()
    assert cr.decode_state(as_version_1(doc)) == cr.decode_state(doc)
    assert cr.decode_state(as_version_1(doc)).options.refill_trigger == "capture"
    assert cr.encode_state(cr.decode_state(as_version_1(doc))) == doc  # written as version 2


def _same_dealer(doc: Doc) -> None:
    doc["options"]["next_round_first_player"] = "same_dealer"


BAD_VERSION_1: list[tuple[str, Callable[[Doc], None], str]] = [
    (
        "refill-trigger",
        lambda doc: doc["options"].update(refill_trigger="capture"),
        "options: unknown key 'refill_trigger' (format version 1 has no such option",
    ),
    (
        "same-dealer",
        _same_dealer,
        "options.next_round_first_player: format version 1 does not have 'same_dealer'",
    ),
    ("missing-option", _delete("options.round_end_timing"), "options: missing key 'round_end"),
    ("unknown-option", _set("options.speed", 1), "options: unknown key 'speed'"),
    ("bad-value", _set("options.next_round_first_player", "me"), "options.next_round_first_p"),
]


@pytest.mark.parametrize(
    ("mutate", "message"), [b[1:] for b in BAD_VERSION_1], ids=[b[0] for b in BAD_VERSION_1]
)
def test_version_1_options_are_those_of_version_1(
    mutate: Callable[[Doc], None], message: str
) -> None:
    doc = as_version_1(_doc())
    cr.decode_state(copy.deepcopy(doc))  # fine before the change
    mutate(doc)
    with pytest.raises(cr.DecodeError) as info:
        cr.decode_state(doc)
    assert str(info.value).startswith(message)


def test_version_2_options_need_refill_trigger_and_may_use_same_dealer() -> None:
    doc = _doc()
    _same_dealer(doc)
    assert cr.decode_state(doc).options.next_round_first_player == "same_dealer"
    del doc["options"]["refill_trigger"]
    with pytest.raises(cr.DecodeError, match=r"^options: missing key 'refill_trigger'$"):
        cr.decode_state(doc)


def test_decode_options_reads_the_version_it_is_given() -> None:
    v2 = cr.GameOptions(num_players=4, refill_trigger="same_species_lay").to_json()
    assert cr.codec.decode_options(v2) == cr.codec.decode_options(v2, version=2)
    assert cr.codec.decode_options(v2).refill_trigger == "same_species_lay"
    v1 = {name: value for name, value in v2.items() if name != "refill_trigger"}
    assert cr.codec.decode_options(v1, version=1) == cr.GameOptions(num_players=4)
    with pytest.raises(cr.DecodeError, match=r"^options: missing key 'refill_trigger'"):
        cr.codec.decode_options(v1)
    with pytest.raises(cr.DecodeError, match=r"^table\.options: unknown key 'refill_trigger'"):
        cr.codec.decode_options(v2, "table.options", version=1)
    for version in (0, 3, True, "1", None):
        with pytest.raises(cr.DecodeError, match=r"^version: unsupported version .*, expected"):
            cr.codec.decode_options(v2, version=version)  # type: ignore[arg-type]
    assert cr.codec.READ_VERSIONS == (1, 2)


# --------------------------------------------------------------------------- upgrade steps


def test_every_older_version_has_one_upgrade_step_to_the_next() -> None:
    from cuckoo_rules.codec import versions

    assert versions.CURRENT_VERSION == cr.codec.CURRENT_VERSION == 2
    assert (*range(1, versions.CURRENT_VERSION), 2) == versions.READ_VERSIONS
    assert sorted(versions.UPGRADES) == list(range(1, versions.CURRENT_VERSION))
    writers = (cr.codec.STATE_VERSION, cr.codec.VIEW_VERSION, cr.records.RECORD_VERSION)
    assert writers == (versions.CURRENT_VERSION,) * 3


@pytest.mark.parametrize("kind", ["state", "view", "record"])
def test_an_upgrade_turns_a_version_1_document_into_the_version_2_one(
    kind: DocumentKind,
) -> None:
    state = cr.new_game(cr.GameOptions(num_players=3), 42)
    v2: Doc = {
        "state": cr.encode_state(state),
        "view": cr.encode_view(cr.observe(state, 1)),
        "record": cr.records.encode_record(cr.GameRecord(state.options, 42)),
    }[kind]
    assert cr.codec.upgrade(v2, kind) is v2  # the current version: nothing to do
    options = {k: v for k, v in v2["options"].items() if k != "refill_trigger"}
    v1 = {**v2, "version": 1, "options": options}
    before = json.dumps(v1)
    upgraded = cr.codec.upgrade(v1, kind)
    assert upgraded == v2
    assert json.dumps(v1) == before  # the step made a new document
    with pytest.raises(cr.DecodeError, match=r"^options: unknown key 'refill_trigger' \(format"):
        cr.codec.upgrade({**v1, "options": v2["options"]}, kind)


def test_an_options_object_alone_is_upgraded_with_its_path() -> None:
    v2 = cr.GameOptions(num_players=2, next_round_first_player="same_dealer").to_json()
    v1 = {k: v for k, v in v2.items() if k != "refill_trigger"}
    assert cr.codec.upgrade_options(v2, "options", 2) is v2
    with pytest.raises(
        cr.DecodeError,
        match=r"^table\.options\.next_round_first_player: format version 1 does not have "
        r"'same_dealer' \(version 2 added it\)$",
    ):
        cr.codec.upgrade_options(v1, "table.options", 1)
    with pytest.raises(cr.DecodeError, match=r"^table\.options: expected an object, got 7$"):
        cr.codec.upgrade_options(7, "table.options", 1)
    with pytest.raises(cr.DecodeError, match=r"^version: unsupported version 3, expected 1 or 2$"):
        cr.codec.upgrade_options(v2, "options", 3)


# --------------------------------------------------------------------------- reachable states


def _move_hand_to_discard(doc: Doc, seat: int) -> None:
    """Empty ``hands[seat]`` into the discard pile (the cards still add up to 110)."""
    discard = doc["discard_pile"]
    for species, count in doc["hands"][seat].items():
        discard[species] = discard.get(species, 0) + count
    doc["discard_pile"] = {s.value: discard[s.value] for s in cr.SPECIES if s.value in discard}
    doc["hands"][seat] = {}


@pytest.mark.parametrize("seat", [0, 1])
def test_a_seat_not_to_act_cannot_hold_no_cards(seat: int) -> None:
    doc = _doc()  # player 2 is to lay
    _move_hand_to_discard(doc, seat)
    with pytest.raises(cr.DecodeError) as info:
        cr.decode_state(doc)
    assert str(info.value).startswith(
        f"hands[{seat}]: player {seat} holds no cards but is not to act"
    )
    for phase in ("draw", "flock"):  # in no phase
        doc["phase"] = phase
        with pytest.raises(cr.DecodeError, match=rf"^hands\[{seat}\]: player {seat} holds no"):
            cr.decode_state(doc)


def test_only_the_player_to_act_may_have_emptied_its_hand() -> None:
    hand = {"owl": 1, "duck": 2}
    draw = builders.build(phase="draw", current_player=1, hands=[hand, ()])
    assert draw.hands[1] == builders.counts()  # laid its last cards, may draw
    prompt = {"always_prompt_flock": True}
    flock = builders.build(phase="flock", current_player=0, hands=[(), hand], options=prompt)
    assert flock.hands[0] == builders.counts()
    with pytest.raises(cr.DecodeError, match=r"^hands\[0\]: player 0 is to lay but holds no"):
        builders.build(phase="lay", current_player=0, hands=[(), hand])
    with pytest.raises(cr.DecodeError, match=r"^hands\[0\]: player 0 holds no cards but is not"):
        builders.build(phase="draw", current_player=1, hands=[(), ()])
    over = builders.build(phase="game_over", winners=[1], hands=[(), ()])  # exhaustion
    assert over.hands == (builders.counts(), builders.counts())


ROWS = ["flamingo owl toucan", "duck parrot magpie", "reed_warbler robin", "owl toucan duck"]


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("owl flamingo owl", "the owl at index 2 is apart from the owl before it"),
        ("duck duck parrot duck", "the duck at index 3 is apart from the duck before it"),
        ("robin owl owl robin robin", "the robin at index 3 is apart from the robin before it"),
        ("magpie owl toucan owl", "the owl at index 3 is apart from the owl before it"),
    ],
)
def test_each_species_of_a_row_forms_one_block(row: str, message: str) -> None:
    hands = [{"owl": 1}, {"duck": 1}]
    builders.build(rows=[*ROWS[:2], "robin robin owl owl toucan", ROWS[3]], hands=hands)  # fine
    for r in range(4):
        rows = [*ROWS[:r], row, *ROWS[r + 1 :]]
        with pytest.raises(cr.DecodeError) as info:
            builders.build(rows=rows, hands=hands)
        assert str(info.value) == (
            f"rows[{r}]: {message}; each species of a row forms one contiguous block"
        )


# --------------------------------------------------------------------------- actions

ALL_ACTIONS: list[cr.Action] = [
    *(cr.Lay(s, row, side) for s in cr.SPECIES for row in range(4) for side in cr.Side),
    cr.Draw(),
    *(cr.FlyHome(s) for s in cr.SPECIES),
    cr.Pass(),
]


def test_every_action_round_trips() -> None:
    assert len(ALL_ACTIONS) == 74
    for action in ALL_ACTIONS:
        doc = cr.encode_action(action)
        assert cr.decode_action(json.loads(json.dumps(doc))) == action


def test_action_documents() -> None:
    assert cr.encode_action(cr.Lay(cr.Species.PARROT, 0, cr.Side.LEFT)) == {
        "type": "lay",
        "species": "parrot",
        "row": 0,
        "side": "left",
    }
    assert cr.encode_action(cr.Draw()) == {"type": "draw"}
    assert cr.encode_action(cr.FlyHome(cr.Species.OWL)) == {"type": "fly_home", "species": "owl"}
    assert cr.encode_action(cr.Pass()) == {"type": "pass"}


BAD_ACTIONS: list[tuple[Any, str]] = [
    (
        {"type": "lay", "species": "parrot", "row": 4, "side": "left"},
        "action.row: 4 is out of range",
    ),
    ({"type": "lay", "species": "parrot", "row": -1, "side": "left"}, "action.row: -1"),
    (
        {"type": "lay", "species": "parrot", "row": True, "side": "left"},
        "action.row: expected an integer",
    ),
    (
        {"type": "lay", "species": "parrot", "row": "0", "side": "left"},
        "action.row: expected an integer",
    ),
    ({"type": "lay", "species": "parrot", "row": 0, "side": "middle"}, "action.side: 'middle'"),
    (
        {"type": "lay", "species": "eagle", "row": 0, "side": "left"},
        "action.species: unknown species",
    ),
    ({"type": "lay", "species": "parrot", "row": 0}, "action: missing key 'side'"),
    ({"type": "draw", "count": 2}, "action: unknown key 'count'"),
    ({"type": "fly_home"}, "action: missing key 'species'"),
    ({"type": "fly"}, "action.type: 'fly' is not one of"),
    ({}, "action.type: None is not one of"),
    ([], "action: expected an object"),
]


@pytest.mark.parametrize(("doc", "message"), BAD_ACTIONS)
def test_decode_action_rejects_bad_document(doc: Any, message: str) -> None:
    with pytest.raises(cr.DecodeError) as info:
        cr.decode_action(doc)
    assert message in str(info.value)


def test_errors_are_value_errors() -> None:
    assert issubclass(cr.DecodeError, ValueError)
    assert issubclass(cr.DecodeError, cr.CuckooError)
    assert issubclass(cr.IllegalActionError, ValueError)
    assert issubclass(cr.InvalidOptionsError, ValueError)


@pytest.mark.parametrize(("doc", "message"), BAD_ACTIONS)
def test_decode_action_names_the_path_it_is_given(doc: Any, message: str) -> None:
    with pytest.raises(cr.DecodeError) as info:
        cr.decode_action(doc, "moves[2]")
    assert message.replace("action", "moves[2]", 1) in str(info.value)
    assert str(info.value).startswith("moves[2]")


# --------------------------------------------------------------------------- the codec package


def test_the_key_order_comes_from_the_classes() -> None:
    state = cr.new_game(cr.GameOptions(num_players=3), 42)
    for keys, cls, doc in (
        (cr.codec.STATE_KEYS, cr.GameState, cr.encode_state(state)),
        (cr.codec.VIEW_KEYS, cr.PlayerView, cr.encode_view(cr.observe(state, 1))),
    ):
        assert keys == ("format", "version", *(field.name for field in attrs.fields(cls)))
        assert tuple(doc) == keys


def test_every_name_codec_exported_is_still_there() -> None:
    names = [
        "CURRENT_VERSION",
        "READ_VERSIONS",
        "STATE_FORMAT",
        "STATE_VERSION",
        "VIEW_FORMAT",
        "VIEW_VERSION",
        "decode_action",
        "decode_event",
        "decode_options",
        "decode_state",
        "decode_view",
        "encode_action",
        "encode_counts",
        "encode_event",
        "encode_state",
        "encode_view",
        "json_schema",
    ]
    assert set(names) <= set(cr.codec.__all__)
    for name in cr.codec.__all__:
        assert getattr(cr.codec, name) is not None


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"owl": 1, "cuckoo": 1}, "hands[1].cuckoo: unknown species 'cuckoo'"),
        ({"owl": 0}, "hands[1].owl: count 0 must be omitted"),
        ({"owl": -1}, "hands[1].owl: count -1 is negative"),
        ({"owl": True}, "hands[1].owl: expected an integer count, got True"),
        ([], "hands[1]: expected an object, got []"),
    ],
)
def test_a_multiset_is_read_in_one_place_with_its_path(value: object, message: str) -> None:
    from cuckoo_rules.codec import fields

    assert fields.counts({"owl": 2, "robin": 1}, "hands", 1) == (0, 2, 0, 0, 0, 0, 0, 1)
    with pytest.raises(cr.DecodeError) as error:
        fields.counts(value, "hands", 1)
    assert str(error.value) == message
    with pytest.raises(cr.DecodeError) as error:
        fields.per_seat([{}, value], "hands", 2)
    assert str(error.value) == message
