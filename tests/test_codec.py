"""JSON state and action documents: round trips and rejection of bad documents."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

import cuckoo_rules as cr
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
    ("version", _set("version", 2), "version: unsupported version 2"),
    ("version-bool", _set("version", True), "version: unsupported version True"),
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
        "round_end_timing", "exhaustion_counts_discard", "next_round_first_player",
        "always_prompt_flock",
    ]  # fmt: skip


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
