"""The JSON readers at their edges: each bound, each message's field (issue 31).

The readers' other tests give documents far out of range; these give the first value
out of range and the last one in it, and check that each message names the field
(and the seat or index) that is wrong, so that a bound off by one or a message naming
the wrong place fails here. Each answers mutants of :mod:`cuckoo_rules.codec` or of the
readers of :mod:`cuckoo_rules.records`.
"""

from __future__ import annotations

import copy
import io
import itertools
import random
import types
from typing import Any

import pytest

import cuckoo_rules as cr
from cuckoo_rules.codec import fields, versions
from cuckoo_rules.codec import options as options_module
from cuckoo_rules.codec.options import decode_options
from cuckoo_rules.records import GameRecord, GameResult, Metadata
from tests import builders

Doc = dict[str, Any]


def _raises(call: Any, message: str) -> None:
    """``call()`` raises a DecodeError whose text is exactly ``message``."""
    with pytest.raises(cr.DecodeError) as info:
        call()
    assert str(info.value) == message


# --------------------------------------------------------------------------- fields


@pytest.mark.parametrize(("value", "low", "high"), [(0, 0, 3), (3, 0, 3), (7, 7, None)])
def test_int_in_takes_its_bounds(value: int, low: int, high: int | None) -> None:
    assert fields.int_in(value, "x", low, high) == value


@pytest.mark.parametrize(
    ("value", "low", "high", "message"),
    [
        (4, 0, 3, "x: 4 is out of range (at least 0 and at most 3)"),
        (-1, 0, 3, "x: -1 is out of range (at least 0 and at most 3)"),
        (6, 7, None, "x: 6 is out of range (at least 7)"),
        (True, 0, 3, "x: expected an integer, got True"),
        (1.0, 0, 3, "x: expected an integer, got 1.0"),
    ],
)
def test_int_in_refuses_what_is_out_of_its_bounds(
    value: Any, low: int, high: int | None, message: str
) -> None:
    _raises(lambda: fields.int_in(value, "x", low, high), message)


def test_mapping_refuses_a_key_that_is_not_a_string() -> None:
    _raises(lambda: fields.mapping({1: "a"}, "m"), "m: key 1 is not a string")
    _raises(lambda: fields.mapping(["a"], "m"), "m: expected an object, got ['a']")
    assert fields.mapping({"a": 1}, "m") == {"a": 1}


def test_keys_names_the_missing_key_before_an_unknown_one() -> None:
    _raises(lambda: fields.keys({"a": 1, "c": 2}, "o", ("a", "b")), "o: missing key 'b'")
    _raises(lambda: fields.keys({"a": 1, "b": 2, "c": 3}, "o", ("a", "b")), "o: unknown key 'c'")
    fields.keys({"b": 1, "a": 2}, "o", ("a", "b"))


def test_array_returns_a_list_as_it_is_and_a_tuple_as_a_list() -> None:
    items = ["owl"]
    assert fields.array(items, "a") is items  # documented: callers only read it
    assert fields.array(("owl",), "a") == ["owl"]
    _raises(lambda: fields.array("owl", "a"), "a: expected an array, got 'owl'")


def test_species_and_side_refuse_what_is_not_a_string() -> None:
    _raises(lambda: fields.species(3, "s"), "s: unknown species 3")
    _raises(lambda: fields.side(["left"], "d"), "d: ['left'] is not 'left' or 'right'")
    assert fields.side("right", "d") is cr.Side.RIGHT


def test_cards_name_the_index_of_the_array_and_of_the_card() -> None:
    _raises(lambda: fields.cards(["owl", "dodo"], "rows", 2), "rows[2][1]: unknown species 'dodo'")
    _raises(lambda: fields.cards(["owl", 7], "pile"), "pile[1]: unknown species 7")
    _raises(
        lambda: fields.cards({"owl": 1}, "rows", 0), "rows[0]: expected an array, got {'owl': 1}"
    )
    assert fields.cards(("owl", "duck"), "pile") == (cr.Species.OWL, cr.Species.DUCK)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"owl": 0}, "hands[1].owl: count 0 must be omitted"),
        ({"owl": -1}, "hands[1].owl: count -1 is negative"),
        ({"owl": True}, "hands[1].owl: expected an integer count, got True"),
        ({"owl": 1.0}, "hands[1].owl: expected an integer count, got 1.0"),
        ({"duck": 1, "dodo": 1}, "hands[1].dodo: unknown species 'dodo'"),
        ({"x" * 50: 1}, f"hands[1].{'x' * 40}: unknown species '{'x' * 36}..."),
        (["owl"], "hands[1]: expected an object, got ['owl']"),
        ([], "hands[1]: expected an object, got []"),
        ({"dodo": 1}, "hands[1].dodo: unknown species 'dodo'"),
    ],
)
def test_counts_name_the_seat_and_species_that_are_wrong(value: Any, message: str) -> None:
    _raises(lambda: fields.per_seat([{}, value], "hands", 2), message)


def test_counts_read_any_mapping_of_positive_counts() -> None:
    counts = fields.counts(types.MappingProxyType({"robin": 1, "owl": 2}), "c")
    assert counts == (0, 2, 0, 0, 0, 0, 0, 1)


def test_counts_read_one_count_per_species() -> None:
    assert fields.counts({"robin": 1, "owl": 2}, "c") == (0, 2, 0, 0, 0, 0, 0, 1)
    assert fields.counts({}, "c") == (0,) * 8
    _raises(
        lambda: fields.per_seat([{}], "known_hands", 2),
        "known_hands: expected 2 entries (one per player), got 1",
    )


# --------------------------------------------------------------------------- versions and options


@pytest.mark.parametrize("version", [0, 3, True, "2", None, 2.0])
def test_check_version_refuses_what_it_cannot_read(version: Any) -> None:
    _raises(
        lambda: versions.check_version(version),
        f"version: unsupported version {version!r}, expected 1 or 2",
    )


@pytest.mark.parametrize("version", [1, 2])
def test_check_version_reads_1_and_2(version: int) -> None:
    assert versions.check_version(version) == version


def test_a_document_of_another_format_is_named() -> None:
    doc = cr.encode_state(cr.new_game(cr.GameOptions(num_players=2), 1))
    _raises(
        lambda: cr.decode_state({**doc, "format": "cuckoo-rules/view"}),
        "format: expected 'cuckoo-rules/state', got 'cuckoo-rules/view'",
    )


def _options(**changes: Any) -> Doc:
    return {**cr.GameOptions(num_players=3).to_json(), **changes}


def test_version_1_options_refuse_same_dealer_naming_the_option() -> None:
    v1 = _options(next_round_first_player="same_dealer")
    del v1["refill_trigger"]
    _raises(
        lambda: versions.upgrade_options(v1, "table.options", 1),
        "table.options.next_round_first_player: format version 1 does not have 'same_dealer' "
        "(version 2 added it)",
    )


def test_decoded_options_are_told_apart_by_type_and_version() -> None:
    """The cache of decoded options keys on the values' types and the version too."""
    good = _options(always_prompt_flock=True)
    assert decode_options(good).always_prompt_flock is True
    with pytest.raises(cr.DecodeError, match=r"^options\.always_prompt_flock"):
        decode_options(_options(always_prompt_flock=1))
    with pytest.raises(cr.DecodeError, match="format version 1 has no such option"):
        decode_options(good, version=1)
    assert decode_options(good, "o", 2) == decode_options(copy.deepcopy(good))


def test_options_met_before_are_the_same_object() -> None:
    doc = _options(refill_trigger="same_species_lay")
    assert decode_options(doc) is decode_options(copy.deepcopy(doc))


def test_options_in_any_mapping_are_read_and_others_refused() -> None:
    doc = _options()
    assert decode_options(types.MappingProxyType(doc)) == cr.GameOptions(num_players=3)
    _raises(
        lambda: decode_options([("num_players", 3)]),
        "options: expected an object, got [('num_players', 3)]",
    )
    _raises(lambda: decode_options({**doc, "colour": "red"}), "options: unknown key 'colour'")


def test_the_cache_of_decoded_options_stays_bounded() -> None:
    """Hostile input (every key order of the same options) cannot grow it past 4096."""
    names = list(_options())
    for order in itertools.islice(itertools.permutations(names), 4200):
        decode_options({name: _options()[name] for name in order})
    assert len(options_module._DECODED_OPTIONS) == 4096


def test_options_name_their_path_in_errors() -> None:
    _raises(
        lambda: decode_options(_options(num_players=6), "table.options"),
        "table.options.num_players: 6 is not in 2..5",
    )


# --------------------------------------------------------------------------- the public fields


def _state_doc(num_players: int = 3) -> Doc:
    """Seed 42: hands of 8, lay; dealer and player to act as the seed gives."""
    return cr.encode_state(cr.new_game(cr.GameOptions(num_players=num_players), 42))


def _view_doc(viewer: int | None = 0) -> Doc:
    return cr.encode_view(cr.observe(cr.new_game(cr.GameOptions(num_players=3), 42), viewer))


DECODERS = {"state": cr.decode_state, "view": cr.decode_view}


def _doc(kind: str) -> Doc:
    return _state_doc() if kind == "state" else _view_doc()


@pytest.mark.parametrize("kind", sorted(DECODERS))
@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("dealer", 3, "dealer: 3 is out of range (at least 0 and at most 2)"),
        ("current_player", 3, "current_player: 3 is out of range (at least 0 and at most 2)"),
        ("dealer", -1, "dealer: -1 is out of range (at least 0 and at most 2)"),
        ("current_player", -1, "current_player: -1 is out of range (at least 0 and at most 2)"),
        ("round", 0, "round: 0 is out of range (at least 1)"),
        ("turn", 0, "turn: 0 is out of range (at least 1)"),
        ("phase", 3, "phase: 3 is not one of 'lay', 'draw', 'flock', 'game_over'"),
        ("rows", [["owl"]] * 3, "rows: expected 4 rows, got 3"),
        ("rows", [["owl"]] * 5, "rows: expected 4 rows, got 5"),
        ("winners", [3], "winners[0]: 3 is out of range (at least 0 and at most 2)"),
        ("winners", [-1], "winners[0]: -1 is out of range (at least 0 and at most 2)"),
        ("winners", [1, 0], "winners: seats must be distinct and in increasing order"),
        ("winners", [1, 1], "winners: seats must be distinct and in increasing order"),
        ("winners", [0], "winners: must be empty in phase 'lay'"),
    ],
)
def test_public_fields_out_of_range_are_named(
    kind: str, key: str, value: Any, message: str
) -> None:
    doc = _doc(kind)
    doc[key] = value
    _raises(lambda: DECODERS[kind](doc), message)


@pytest.mark.parametrize("kind", sorted(DECODERS))
def test_public_fields_take_their_last_values_in_range(kind: str) -> None:
    doc = _doc(kind)
    for key, value in (("dealer", 2), ("dealer", 0), ("turn", 1), ("round", 1)):
        changed = {**doc, key: value}
        assert getattr(DECODERS[kind](changed), key) == value
    later = {**doc, "round": 3, "turn": 3}
    assert DECODERS[kind](later).turn == 3
    _raises(
        lambda: DECODERS[kind]({**doc, "round": 3, "turn": 2}),
        "turn: 2 is out of range (at least 3)",
    )


@pytest.mark.parametrize("kind", sorted(DECODERS))
def test_an_empty_row_is_named(kind: str) -> None:
    doc = _doc(kind)
    doc["rows"][2] = []
    _raises(lambda: DECODERS[kind](doc), "rows[2]: a row cannot be empty")


@pytest.mark.parametrize(
    ("row", "message"),
    [
        (
            ["owl", "duck", "duck", "owl"],
            "rows[1]: the owl at index 3 is apart from the owl before it; each species of a "
            "row forms one contiguous block",
        ),
        (
            ["duck", "owl", "owl", "robin", "owl"],
            "rows[1]: the owl at index 4 is apart from the owl before it; each species of a "
            "row forms one contiguous block",
        ),
    ],
)
def test_a_species_apart_in_a_row_is_named_with_its_index(row: list[str], message: str) -> None:
    for kind in DECODERS:
        doc = _doc(kind)
        doc["rows"][1] = row
        _raises(lambda doc=doc, kind=kind: DECODERS[kind](doc), message)


def test_rows_in_blocks_are_read() -> None:
    doc = _state_doc()
    doc["rows"][1] = doc["rows"][1][:1] * 2 + doc["rows"][1][1:]  # the first species twice
    doc["draw_pile"].remove(doc["rows"][1][0])
    assert cr.decode_state(doc).rows[1][:2] == (cr.Species(doc["rows"][1][0]),) * 2


def test_a_finished_game_needs_winners() -> None:
    doc = _state_doc()
    doc["phase"] = "game_over"
    _raises(
        lambda: cr.decode_state(doc),
        "winners: a finished game (phase 'game_over') must have winners",
    )
    doc["winners"] = [2]
    assert cr.decode_state(doc).winners == (2,)
    doc["winners"] = [0, 2]
    assert cr.decode_state(doc).winners == (0, 2)


# --------------------------------------------------------------------------- the state


def test_the_seed_and_shuffles_take_their_bounds() -> None:
    doc = _state_doc()
    assert cr.decode_state({**doc, "seed": 2**64 - 1}).seed == 2**64 - 1
    assert cr.decode_state({**doc, "seed": 0}).seed == 0
    assert cr.decode_state({**doc, "shuffles": 1}).shuffles == 1
    _raises(
        lambda: cr.decode_state({**doc, "seed": 2**64}),
        f"seed: {2**64} is out of range (at least 0 and at most {2**64 - 1})",
    )
    _raises(
        lambda: cr.decode_state({**doc, "shuffles": 0}), "shuffles: 0 is out of range (at least 1)"
    )


def test_the_first_species_off_its_count_is_named() -> None:
    """One owl more in the draw pile, one robin fewer: the owls are named."""
    doc = _state_doc()
    pile = doc["draw_pile"]
    pile.remove("robin")
    pile.append("owl")
    _raises(
        lambda: cr.decode_state(doc),
        "state: there must be 10 owl cards in all, found 11 (of 110 cards; 110 expected)",
    )
    pile.remove("reed_warbler")
    _raises(
        lambda: cr.decode_state(doc),
        "state: there must be 10 owl cards in all, found 11 (of 109 cards; 110 expected)",
    )


def test_the_seat_whose_known_part_is_not_in_its_hand_is_named() -> None:
    doc = _state_doc()
    hand = doc["hands"][1]
    species = next(iter(hand))
    doc["known_hands"][1] = {species: hand[species] + 1}
    _raises(
        lambda: cr.decode_state(doc),
        f"known_hands[1].{species}: {hand[species] + 1} known but hands[1] holds {hand[species]}",
    )


def test_a_draw_with_both_piles_empty_is_named() -> None:
    doc = _state_doc(2)
    rest = doc["draw_pile"]
    doc["draw_pile"] = []
    seat = doc["current_player"]
    for card in rest:
        hand = doc["collections"][seat]
        hand[card] = hand.get(card, 0) + 1
    discard = doc["discard_pile"]
    for card, count in discard.items():
        doc["collections"][seat][card] = doc["collections"][seat].get(card, 0) + count
    doc["discard_pile"] = {}
    doc["phase"] = "draw"
    _raises(
        lambda: cr.decode_state(doc),
        "phase: 'draw' is offered only when the draw or discard pile holds cards",
    )
    doc["phase"] = "lay"
    assert sum(map(sum, cr.decode_state(doc).collections)) > 70


# --------------------------------------------------------------------------- the view


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("viewer", 3, "viewer: 3 is out of range (at least 0 and at most 2)"),
        ("viewer", -1, "viewer: -1 is out of range (at least 0 and at most 2)"),
        ("draw_pile_size", 111, "draw_pile_size: 111 is out of range (at least 0 and at most 110)"),
        (
            "discard_pile_size",
            111,
            "discard_pile_size: 111 is out of range (at least 0 and at most 110)",
        ),
        (
            "hand_sizes",
            [8, 8, 111],
            "hand_sizes[2]: 111 is out of range (at least 0 and at most 110)",
        ),
        ("hand_sizes", [8, 8, 8, 8], "hand_sizes: expected 3 entries (one per player), got 4"),
        ("hand", None, "hand: expected an object, got None"),
    ],
)
def test_view_fields_out_of_range_are_named(key: str, value: Any, message: str) -> None:
    doc = _view_doc(0)
    doc[key] = value
    _raises(lambda: cr.decode_view(doc), message)


def test_a_view_takes_the_last_seat_as_viewer_and_a_spectator() -> None:
    assert cr.decode_view(_view_doc(2)).viewer == 2
    spectator = cr.decode_view(_view_doc(None))
    assert spectator.viewer is None
    assert spectator.hand is None
    doc = _view_doc(None)
    doc["hand"] = {}
    _raises(lambda: cr.decode_view(doc), "hand: a spectator's view (viewer null) has no hand")


def test_a_decoded_view_is_the_view_it_was_written_from() -> None:
    for viewer in (None, 0, 1, 2):
        view = cr.observe(cr.new_game(cr.GameOptions(num_players=3), 7), viewer)
        decoded = cr.decode_view(cr.encode_view(view))
        assert decoded == view
        assert (decoded.hand, decoded.hand_sizes) == (view.hand, view.hand_sizes)


# --------------------------------------------------------------------------- actions and events


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        (
            {"type": "lay", "species": "owl", "row": 4, "side": "left"},
            "at.row: 4 is out of range (at least 0 and at most 3)",
        ),
        (
            {"type": "lay", "species": "owl", "row": -1, "side": "left"},
            "at.row: -1 is out of range (at least 0 and at most 3)",
        ),
        (
            {"type": "lay", "species": "dodo", "row": 0, "side": "left"},
            "at.species: unknown species 'dodo'",
        ),
        (
            {"type": "lay", "species": "owl", "row": 0, "side": "up"},
            "at.side: 'up' is not 'left' or 'right'",
        ),
        ({"type": 3}, "at.type: 3 is not one of 'lay', 'draw', 'fly_home', 'pass'"),
        ({"type": "draw", "row": 1}, "at: unknown key 'row'"),
    ],
)
def test_actions_name_their_path(doc: Doc, message: str) -> None:
    _raises(lambda: cr.decode_action(doc, "at"), message)


def test_every_lay_decodes_to_its_row_and_side() -> None:
    for species in cr.SPECIES:
        for row in range(4):
            for side in cr.Side:
                doc = {"type": "lay", "species": species.value, "row": row, "side": side.value}
                assert cr.decode_action(doc) == cr.Lay(species, row, side)
    assert cr.decode_action({"type": "fly_home", "species": "robin"}) == cr.FlyHome(
        cr.Species.ROBIN
    )
    assert cr.decode_action({"type": "draw"}) == cr.Draw()
    assert cr.decode_action({"type": "pass"}) == cr.Pass()


EVENTS: dict[str, Doc] = {
    "laid": {"type": "laid", "player": 4, "species": "owl", "count": 1, "row": 3, "side": "right"},
    "captured": {"type": "captured", "player": 0, "row": 0, "cards": ["duck"]},
    "row_refilled": {"type": "row_refilled", "row": 3, "cards": []},
    "drew": {"type": "drew", "player": 4, "count": 0, "cards": []},
    "drew_hidden": {"type": "drew", "player": 0, "count": 2, "cards": None},
    "declined_draw": {"type": "declined_draw", "player": 4},
    "flew_home": {"type": "flew_home", "player": 4, "species": "owl", "revealed": 2, "kept": 2},
    "flew_home_one": {"type": "flew_home", "player": 0, "species": "owl", "revealed": 1, "kept": 1},
    "declined_flock": {"type": "declined_flock", "player": 0},
    "reshuffled": {"type": "reshuffled", "cards": 0},
    "turn_ended": {"type": "turn_ended", "player": 4},
    "round_ended": {
        "type": "round_ended",
        "round": 1,
        "player": 4,
        "hand_sizes": [2, 0, 0, 0, 3],
        "hands": [{"owl": 2}, None, None, None, None],
        "known_hands": [{"owl": 2}, {}, {}, {}, {"robin": 3}],
    },
    "dealt": {
        "type": "dealt",
        "round": 1,
        "dealer": 4,
        "hand_sizes": [0, 8],
        "hands": [{}, None],
    },
    "game_started": {
        "type": "game_started",
        "dealer": 4,
        "discarded": {"owl": 1},
        "hand_sizes": [8, 8],
        "hands": [None, {"duck": 8}],
    },
    "turn_started": {"type": "turn_started", "player": 4, "turn": 1},
    "game_over": {"type": "game_over", "winners": [0, 4], "reason": "most_cards"},
}
"""Events with their fields at the edges of their ranges."""


@pytest.mark.parametrize("name", sorted(EVENTS))
def test_events_at_the_edges_of_their_ranges_are_read(name: str) -> None:
    doc = EVENTS[name]
    event = cr.decode_event(copy.deepcopy(doc))
    assert cr.encode_event(event) == doc


def _event(name: str, **changes: Any) -> Doc:
    return {**copy.deepcopy(EVENTS[name]), **changes}


BAD_EVENTS: list[tuple[Any, str]] = [
    (_event("laid", player=5), "event.player: 5 is out of range (at least 0 and at most 4)"),
    (_event("laid", player=-1), "event.player: -1 is out of range (at least 0 and at most 4)"),
    (_event("laid", row=4), "event.row: 4 is out of range (at least 0 and at most 3)"),
    (_event("laid", row=-1), "event.row: -1 is out of range (at least 0 and at most 3)"),
    (_event("laid", count=-1), "event.count: -1 is out of range (at least 0)"),
    (_event("laid", side="up"), "event.side: 'up' is not 'left' or 'right'"),
    (_event("laid", species="dodo"), "event.species: unknown species 'dodo'"),
    (_event("dealt", dealer=5), "event.dealer: 5 is out of range (at least 0 and at most 4)"),
    (_event("dealt", dealer=-1), "event.dealer: -1 is out of range (at least 0 and at most 4)"),
    (_event("dealt", round=0), "event.round: 0 is out of range (at least 1)"),
    (_event("turn_started", turn=0), "event.turn: 0 is out of range (at least 1)"),
    (
        _event("flew_home", kept=3, revealed=4),
        "event.kept: 3 is out of range (at least 1 and at most 2)",
    ),
    (_event("flew_home", kept=0), "event.kept: 0 is out of range (at least 1 and at most 2)"),
    (_event("flew_home_one", kept=2), "event.kept: 2 kept but only 1 revealed"),
    (_event("flew_home", revealed=-1), "event.revealed: -1 is out of range (at least 0)"),
    (_event("reshuffled", cards=-1), "event.cards: -1 is out of range (at least 0)"),
    (_event("reshuffled", cards=["owl"]), "event.cards: expected an integer, got ['owl']"),
    (_event("drew", count=1), "event.cards: 0 cards but count is 1"),
    (_event("drew", cards=["owl"]), "event.cards: 1 cards but count is 0"),
    (_event("captured", cards=None), "event.cards: expected an array, got None"),
    (_event("captured", cards=["duck", 3]), "event.cards[1]: unknown species 3"),
    (
        _event("game_over", winners=[5]),
        "event.winners[0]: 5 is out of range (at least 0 and at most 4)",
    ),
    (
        _event("game_over", winners=[-1]),
        "event.winners[0]: -1 is out of range (at least 0 and at most 4)",
    ),
    (
        _event("game_over", winners=[]),
        "event.winners: seats must be distinct, in increasing order, and at least one",
    ),
    (
        _event("game_over", winners=[2, 1]),
        "event.winners: seats must be distinct, in increasing order, and at least one",
    ),
    (
        _event("game_over", reason="luck"),
        "event.reason: 'luck' is not one of seven_species, two_triples, most_cards",
    ),
    (_event("dealt", hand_sizes=[0, -1]), "event.hand_sizes[1]: -1 is out of range (at least 0)"),
    (_event("dealt", hand_sizes=[0, 8, 8]), "event.hands: 2 hands for 3 hand sizes"),
    (_event("dealt", hands=[{"owl": 1}, None]), "event.hands[0]: 1 cards but hand_sizes says 0"),
    (_event("dealt", hands=[{}, {"owl": 0}]), "event.hands[1].owl: count 0 must be omitted"),
    (_event("dealt", hands="none"), "event.hands: expected an array, got 'none'"),
    (_event("game_started", discarded={"owl": -1}), "event.discarded.owl: count -1 is negative"),
    (
        _event("game_started", hands=[None, {"duck": 7}]),
        "event.hands[1]: 7 cards but hand_sizes says 8",
    ),
    (
        _event("round_ended", known_hands=[{"owl": 2}, {}, {}, {}, {"robin": 4}]),
        "event.known_hands[4]: more cards known than the hand held",
    ),
    (
        _event("round_ended", known_hands=[{"owl": 1, "duck": 1}, {}, {}, {}, {}]),
        "event.known_hands[0]: more cards known than the hand held",
    ),
    (
        _event("round_ended", known_hands=[{}, {}, {}, {}]),
        "event.known_hands: 4 entries for the seats",
    ),
    (
        _event("round_ended", known_hands=[{}, {}, {}, {}, {"dodo": 1}]),
        "event.known_hands[4].dodo: unknown species 'dodo'",
    ),
    (
        _event("round_ended", known_hands="all"),
        "event.known_hands: expected an array, got 'all'",
    ),
    (_event("round_ended", player=5), "event.player: 5 is out of range (at least 0 and at most 4)"),
    ({**_event("turn_ended"), "player": 1, "extra": 0}, "event: unknown key 'extra'"),
    (
        {"type": ["laid"]},
        "event.type: ['laid'] is not one of " + ", ".join(cr.codec.event.EVENT_TYPES),
    ),
    ("laid", "event: expected an object, got 'laid'"),
]


@pytest.mark.parametrize(
    ("doc", "message"),
    BAD_EVENTS,
    ids=[m.split(":")[0] + f"-{i}" for i, (_, m) in enumerate(BAD_EVENTS)],
)
def test_bad_events_are_named_exactly(doc: Any, message: str) -> None:
    _raises(lambda: cr.decode_event(doc), message)


# --------------------------------------------------------------------------- records


def _record_doc(**metadata: Any) -> Doc:
    record = GameRecord(cr.GameOptions(num_players=3), 9, (cr.Pass(),))
    doc = cr.records.encode_record(record)
    doc["metadata"] = metadata
    return doc


@pytest.mark.parametrize(
    ("metadata", "message"),
    [
        (
            {"players": ["a", "b", "c", "d"]},
            "metadata.players: expected 3 names (one per player), got 4",
        ),
        ({"players": ["a", 7, "c"]}, "metadata.players[1]: expected a string, got 7"),
        ({"players": "abc"}, "metadata.players: expected an array, got 'abc'"),
        ({"date": 2024}, "metadata.date: expected a string or None, got 2024"),
        ({"event": ["x"]}, "metadata.event: expected a string or None, got ['x']"),
        ({"date": None}, "metadata.date: null is not allowed; omit the key instead"),
        ({"place": "x"}, "metadata: unknown key 'place'"),
        (
            {"result": {"winners": [3]}},
            "metadata.result.winners[0]: seat 3 is out of range for 3 players (0 to 2)",
        ),
        (
            {"result": {"winners": [-1]}},
            "metadata.result.winners[0]: -1 is out of range (at least 0)",
        ),
        (
            {"result": {"winners": []}},
            "metadata.result.winners: a finished game has at least one winner",
        ),
        (
            {"result": {"winners": [1, 0]}},
            "metadata.result.winners: seats must be distinct and in increasing order",
        ),
        (
            {"result": {"winners": [1, 1]}},
            "metadata.result.winners: seats must be distinct and in increasing order",
        ),
        (
            {"result": {"winners": ["0"]}},
            "metadata.result.winners[0]: expected an integer, got '0'",
        ),
        ({"result": {"winners": [0], "by": 1}}, "metadata.result: unknown key 'by'"),
        ({"result": {}}, "metadata.result: missing key 'winners'"),
        ({"result": [0]}, "metadata.result: expected an object, got [0]"),
    ],
)
def test_bad_metadata_is_named_exactly(metadata: Doc, message: str) -> None:
    _raises(lambda: cr.records.decode_record(_record_doc(**metadata)), message)


def test_metadata_at_its_edges_is_read() -> None:
    doc = _record_doc(players=["a", "b", "c"], date="", event="e", result={"winners": [0, 2]})
    record = cr.records.decode_record(doc)
    assert record.metadata == Metadata(("a", "b", "c"), "", "e", GameResult((0, 2)))
    assert cr.records.encode_record(record) == doc
    assert cr.records.decode_record(_record_doc()).metadata == Metadata()


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("seed", 2**64, f"seed: {2**64} is out of range (at least 0 and at most {2**64 - 1})"),
        ("seed", -1, f"seed: -1 is out of range (at least 0 and at most {2**64 - 1})"),
        ("actions", {"type": "pass"}, "actions: expected an array, got {'type': 'pass'}"),
        (
            "actions",
            [{"type": "pass"}, {"type": "fly"}],
            "actions[1].type: 'fly' is not one of 'lay', 'draw', 'fly_home', 'pass'",
        ),
        (
            "format",
            "cuckoo-rules/state",
            "format: expected 'cuckoo-rules/record', got 'cuckoo-rules/state'",
        ),
    ],
)
def test_bad_record_fields_are_named_exactly(key: str, value: Any, message: str) -> None:
    doc = _record_doc()
    doc[key] = value
    _raises(lambda: cr.records.decode_record(doc), message)


def test_a_bad_action_in_a_record_carries_its_index() -> None:
    doc = _record_doc()
    doc["actions"] = [{"type": "pass"}, {"type": "draw"}, {"type": "lay"}]
    with pytest.raises(cr.RecordError) as info:
        cr.records.decode_record(doc)
    assert info.value.index == 2
    assert str(info.value) == "actions[2]: missing key 'species'"


def test_a_record_takes_the_seed_at_its_bounds() -> None:
    for seed in (0, 2**64 - 1):
        doc = _record_doc()
        doc["seed"] = seed
        assert cr.records.decode_record(doc).seed == seed


def test_a_file_whose_bytes_are_not_text_is_a_decode_error() -> None:
    class Broken:
        def read(self) -> str:
            raise UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")

    with pytest.raises(cr.DecodeError):
        cr.records.load_record(Broken())
    text = cr.records.dumps_record(GameRecord(cr.GameOptions(num_players=2), 3))
    assert cr.records.load_record(io.StringIO(text)) == GameRecord(cr.GameOptions(num_players=2), 3)
    assert cr.records.load_record(io.BytesIO(text.encode())).seed == 3


_AnyResult: Any = GameResult
_AnyMetadata: Any = Metadata
_AnyRecord: Any = GameRecord
"""The record classes, typed to be given what they refuse."""


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: _AnyResult([0]), "metadata.result.winners: expected a tuple of seats, got [0]"),
        (
            lambda: _AnyResult((0, True)),
            "metadata.result.winners[1]: expected an integer, got True",
        ),
        (
            lambda: _AnyMetadata(["a"]),
            "metadata.players: expected a tuple of names or None, got ['a']",
        ),
        (lambda: _AnyMetadata(("a", None)), "metadata.players[1]: expected a string, got None"),
        (
            lambda: _AnyMetadata(result=(0,)),
            "metadata.result: expected a GameResult or None, got (0,)",
        ),
        (
            lambda: _AnyMetadata(event="a\ud800"),
            "metadata.event: U+D800 at index 1 is a lone surrogate, not a character",
        ),
        (
            lambda: _AnyMetadata(("a", "b\udfff")),
            "metadata.players[1]: U+DFFF at index 1 is a lone surrogate, not a character",
        ),
        (
            lambda: _AnyRecord(cr.GameOptions(num_players=2), 1, [cr.Pass()]),
            "actions: expected a tuple of actions, got [Pass()]",
        ),
        (
            lambda: _AnyRecord(cr.GameOptions(num_players=2), 1, (cr.Pass(), "pass")),
            "actions[1]: 'pass' is not a well-formed action (Lay, Draw, FlyHome or Pass)",
        ),
        (
            lambda: _AnyRecord(cr.GameOptions(num_players=2), 1, (), {}),
            "metadata: expected Metadata, got {}",
        ),
    ],
)
def test_record_parts_built_wrongly_are_named_exactly(build: Any, message: str) -> None:
    with pytest.raises(cr.RecordError) as info:
        build()
    assert str(info.value) == message


def test_a_record_error_carries_the_index_of_a_bad_action_only() -> None:
    with pytest.raises(cr.RecordError) as info:
        GameRecord(cr.GameOptions(num_players=2), 1, (cr.Pass(), cr.Pass(), 3))  # type: ignore[arg-type]
    assert info.value.index == 2
    with pytest.raises(cr.RecordError) as info:
        GameResult((-1,))
    assert info.value.index is None
    assert str(info.value) == "metadata.result.winners[0]: -1 is out of range (at least 0)"


@pytest.mark.parametrize("seed", [2**64, -1, True, 1.0])
def test_a_record_built_with_a_bad_seed_is_refused(seed: Any) -> None:
    with pytest.raises(
        cr.InvalidOptionsError, match=r"^seed: .* is not an integer in \[0, 2\*\*64\)$"
    ):
        _AnyRecord(cr.GameOptions(num_players=2), seed)


def test_record_parts_at_their_edges_are_built() -> None:
    assert GameResult((0,)).winners == (0,)
    assert Metadata(("a", "b"), None, None, GameResult((1,))).players == ("a", "b")
    record = GameRecord(cr.GameOptions(num_players=2), 0, (), Metadata(result=GameResult((0, 1))))
    assert record.metadata.result == GameResult((0, 1))
    with pytest.raises(cr.RecordError, match=r"seat 2 is out of range for 2 players \(0 to 1\)"):
        GameRecord(cr.GameOptions(num_players=2), 0, (), Metadata(result=GameResult((2,))))
    with pytest.raises(cr.InvalidOptionsError, match="options: expected GameOptions"):
        GameRecord(cr.GameOptions(num_players=2).to_json(), 0)  # type: ignore[arg-type]


# ----------------------------------------------------------------- states and views at the edges


def test_a_known_part_over_a_hand_it_covers_is_named() -> None:
    """Seat 0 holds 1 owl with 2 known; seat 1's hand is all known: no hand holds more."""
    with pytest.raises(cr.DecodeError) as info:
        builders.build(hands=[{"owl": 1}, {"duck": 2}], known_hands=[{"owl": 2}, {"duck": 2}])
    assert str(info.value) == "known_hands[0].owl: 2 known but hands[0] holds 1"


def test_a_flock_phase_without_a_flock_is_named() -> None:
    with pytest.raises(cr.DecodeError) as info:
        builders.build(phase="flock", hands=[{"owl": 2}, {"duck": 2}])
    assert str(info.value) == "phase: 'flock' but player 0 holds no flock"
    always = builders.build(
        options={"always_prompt_flock": True}, phase="flock", hands=[{"owl": 2}, {"duck": 2}]
    )
    assert always.phase is cr.Phase.FLOCK


def test_a_draw_with_as_many_cards_in_each_pile_is_read() -> None:
    state = builders.build(
        phase="draw",
        hands=[{"owl": 2}, {"duck": 2}],
        draw_pile="robin robin robin",
        discard_pile={"robin": 3},
        rest="collection0",
    )
    assert (len(state.draw_pile), sum(state.discard_pile)) == (3, 3)


def test_a_view_with_an_empty_draw_pile_and_an_empty_hand_is_read() -> None:
    state = builders.build(
        phase="draw", hands=[{}, {"duck": 2}], discard_pile={"robin": 3}, rest="collection0"
    )
    for viewer in (None, 0, 1):
        view = cr.observe(state, viewer)
        assert (view.draw_pile_size, view.hand_sizes[0]) == (0, 0)
        assert cr.decode_view(cr.encode_view(view)) == view
    empty_discard = builders.build(hands=[{"owl": 1}, {"duck": 2}], draw_pile="robin")
    view = cr.observe(empty_discard, 1)
    assert view.discard_pile_size == 0
    assert cr.decode_view(cr.encode_view(view)) == view


def test_a_view_document_is_checked_as_a_whole_and_refused_as_a_decode_error() -> None:
    doc = _view_doc(0)
    doc["draw_pile_size"] += 1
    with pytest.raises(cr.DecodeError) as info:
        cr.decode_view(doc)
    assert not isinstance(info.value, cr.ViewError)
    assert str(info.value).startswith("view: the cards do not add up to 110: ")


@pytest.mark.parametrize("viewer", [None, 1])
def test_a_version_1_view_document_reads_as_its_version_2_twin(viewer: int | None) -> None:
    doc = _view_doc(viewer)
    old = copy.deepcopy(doc)
    old["version"] = 1
    del old["options"]["refill_trigger"]
    assert cr.decode_view(old) == cr.decode_view(doc)
    assert cr.encode_view(cr.decode_view(old)) == doc


def test_a_view_later_in_a_game_reads_back_field_by_field() -> None:
    """Round and turn differ (and so do the other numbers): none is read into another."""
    rng = random.Random(3)
    state = cr.new_game(cr.GameOptions(num_players=3), 3)
    while state.round < 2 or state.turn == state.round:
        state = cr.apply(state, rng.choice(cr.legal_actions(state)))
    for viewer in (0, 1, 2, None):
        view = cr.observe(state, viewer)
        assert len({view.round, view.turn, view.dealer + 10}) == 3
        assert cr.decode_view(cr.encode_view(view)) == view
