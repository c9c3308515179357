"""One example per rule and per option of rules.md and interchange.md.

Each test builds a small hand-made state with :func:`builders.build`, applies one or a
few actions and, where the spec is precise, compares the whole resulting state with the
state the spec says it must be (rows, hands, piles, phase, current player, turn...).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import cuckoo_rules as cr
from cuckoo_rules.engine import IllegalReason, why_illegal
from cuckoo_rules.rng import splitmix64, stream_state
from tests.builders import DEFAULT_ROWS, build, cards, counts, reference_setup, reference_shuffle
from tests.conftest import DATA

S = cr.Species
LEFT = cr.Side.LEFT
RIGHT = cr.Side.RIGHT
DRAW = cr.Draw()
PASS = cr.Pass()


def rows_with(row0: str, *, row3: str | None = None) -> list[str]:
    """The default rows with row 0 (and optionally row 3) replaced."""
    rows = [row0, *DEFAULT_ROWS[1:]]
    if row3 is not None:
        rows[3] = row3
    return rows


def play(state: cr.GameState, *actions: cr.Action) -> cr.GameState:
    for action in actions:
        state = cr.apply(state, action)
    return state


# =========================================================================== §3.1 lay


def mirrored(row: str, side: cr.Side) -> str:
    """``row`` (written for a lay on the left end) as the mirror case for ``side`` has it."""
    return row if side is LEFT else " ".join(reversed(row.split()))


# The rulebook's example is a lay on the left: two parrots laid on the left of [owl,
# flamingo, parrot, ...] surround the owl and the flamingo, which go to the player's hand.
# Each case is played on both ends; the second had the birds to capture the other way round.
@pytest.mark.parametrize("side", cr.Side)
@pytest.mark.parametrize("row", ["owl flamingo parrot toucan", "flamingo owl parrot toucan"])
def test_lay_captures_cards_between_laid_birds_and_nearest_same_species(
    row: str, side: cr.Side
) -> None:
    parts: dict[str, Any] = {
        "rows": rows_with(mirrored(row, side)),
        "hands": [{"parrot": 2, "robin": 1}, {"duck": 2}],
    }
    after = cr.apply(build(**parts), cr.Lay(S.PARROT, 0, side))
    assert after == build(
        **{
            **parts,
            "rows": rows_with(mirrored("parrot parrot parrot toucan", side)),
            "hands": [{"owl": 1, "flamingo": 1, "robin": 1}, {"duck": 2}],
            "known_hands": [{"owl": 1, "flamingo": 1}, {}],
            "current_player": 1,
            "turn": 2,
        }
    )


def test_lay_captures_only_up_to_the_nearest_bird_of_the_species() -> None:
    # The block of two ducks stops the capture at its near end; the robin beyond stays.
    parts: dict[str, Any] = {
        "rows": rows_with("owl toucan duck duck robin"),
        "hands": [{"duck": 1, "magpie": 1}, {"owl": 1}],
    }
    after = cr.apply(build(**parts), cr.Lay(S.DUCK, 0, LEFT))
    assert after.rows[0] == cards("duck duck duck robin")
    assert after.hands[0] == counts(owl=1, toucan=1, magpie=1)


def test_lay_any_species_may_go_on_any_row_and_lays_all_cards_of_it() -> None:
    state = build(hands=[{"magpie": 3, "owl": 1}, {"duck": 1}])
    after = cr.apply(state, cr.Lay(S.MAGPIE, 2, LEFT))
    assert after.rows[2] == cards("magpie magpie magpie reed_warbler robin flamingo")
    assert after.hands[0] == counts(owl=1)


@pytest.mark.parametrize("side", cr.Side)
@pytest.mark.parametrize("row", ["parrot owl duck", "parrot duck owl"])
def test_lay_adjacent_to_same_species_captures_nothing_and_offers_draw(
    row: str, side: cr.Side
) -> None:
    parts: dict[str, Any] = {
        "rows": rows_with(mirrored(row, side)),
        "hands": [{"parrot": 2, "robin": 1}, {"duck": 2}],
    }
    after = cr.apply(build(**parts), cr.Lay(S.PARROT, 0, side))
    expected_row = mirrored(f"parrot parrot {row}", side)
    assert after == build(
        **{**parts, "rows": rows_with(expected_row), "hands": [{"robin": 1}, {"duck": 2}]},
        phase="draw",
    )
    assert cr.legal_actions(after) == (DRAW, PASS)


def test_lay_species_absent_from_row_captures_nothing_and_offers_draw() -> None:
    parts: dict[str, Any] = {
        "rows": rows_with("owl flamingo toucan"),
        "hands": [{"parrot": 2, "robin": 1}, {"duck": 2}],
    }
    after = cr.apply(build(**parts), cr.Lay(S.PARROT, 0, RIGHT))
    assert after == build(
        **{
            **parts,
            "rows": rows_with("owl flamingo toucan parrot parrot"),
            "hands": [{"robin": 1}, {"duck": 2}],
        },
        phase="draw",
    )


# --------------------------------------------------------------------------- refill


def test_refill_after_capture_leaving_single_species_appends_until_second_species() -> None:
    # The capture leaves [parrot parrot parrot]; cards are appended on the right, the
    # row's own species included, up to and including the first robin.
    parts: dict[str, Any] = {
        "rows": rows_with("owl flamingo parrot"),
        "draw_pile": "parrot parrot robin duck",
        "hands": [{"parrot": 2, "robin": 1}, {"duck": 2}],
    }
    after = cr.apply(build(**parts), cr.Lay(S.PARROT, 0, LEFT))
    assert after == build(
        **{
            **parts,
            "rows": rows_with("parrot parrot parrot parrot parrot robin"),
            "draw_pile": "duck",
            "hands": [{"owl": 1, "flamingo": 1, "robin": 1}, {"duck": 2}],
            "known_hands": [{"owl": 1, "flamingo": 1}, {}],
            "current_player": 1,
            "turn": 2,
        }
    )


def test_refill_reshuffles_discard_pile_with_next_random_stream() -> None:
    # One parrot is left in the draw pile; then the discard pile (3 parrots, 2 robins)
    # is laid out in species order and shuffled with stream 3 (the 4th shuffle).
    parts: dict[str, Any] = {
        "seed": 4,
        "shuffles": 3,
        "rows": rows_with("owl flamingo parrot"),
        "draw_pile": "parrot",
        "discard_pile": {"parrot": 3, "robin": 2},
        "hands": [{"parrot": 2, "robin": 1}, {"duck": 2}],
        "rest": "collection1",
    }
    reshuffled = reference_shuffle(cards("robin parrot robin parrot parrot"), seed=4, k=3)
    assert reshuffled == list(cards("parrot parrot robin parrot robin"))
    after = cr.apply(build(**parts), cr.Lay(S.PARROT, 0, LEFT))
    assert after == build(
        **{
            **parts,
            "shuffles": 4,
            "rows": rows_with("parrot parrot parrot parrot parrot parrot robin"),
            "draw_pile": "parrot robin",
            "discard_pile": {},
            "hands": [{"owl": 1, "flamingo": 1, "robin": 1}, {"duck": 2}],
            "known_hands": [{"owl": 1, "flamingo": 1}, {}],
            "current_player": 1,
            "turn": 2,
        }
    )


def test_refill_stops_when_draw_and_discard_piles_are_both_empty() -> None:
    parts: dict[str, Any] = {
        "rows": rows_with("owl parrot"),
        "draw_pile": "parrot",
        "hands": [{"parrot": 1, "robin": 1}, {"duck": 2}],
        "rest": "collection1",
    }
    after = cr.apply(build(**parts), cr.Lay(S.PARROT, 0, LEFT))
    assert after == build(
        **{
            **parts,
            "rows": rows_with("parrot parrot parrot"),
            "draw_pile": "",
            "hands": [{"owl": 1, "robin": 1}, {"duck": 2}],
            "known_hands": [{"owl": 1}, {}],
            "current_player": 1,
            "turn": 2,
        }
    )


def test_no_refill_when_two_species_remain_after_capture() -> None:
    parts: dict[str, Any] = {
        "rows": rows_with("duck parrot owl"),
        "draw_pile": "parrot robin",
        "hands": [{"parrot": 2, "robin": 1}, {"duck": 2}],
    }
    after = cr.apply(build(**parts), cr.Lay(S.PARROT, 0, RIGHT))
    assert after == build(
        **{
            **parts,
            "rows": rows_with("duck parrot parrot parrot"),
            "hands": [{"owl": 1, "robin": 1}, {"duck": 2}],
            "known_hands": [{"owl": 1}, {}],
            "current_player": 1,
            "turn": 2,
        }
    )


def test_no_refill_without_capture_even_on_a_single_species_row() -> None:
    # A row left with one species (both piles were empty at a refill) stays so when the
    # same species is laid next to it: nothing is captured, so nothing is refilled.
    parts: dict[str, Any] = {
        "rows": rows_with("parrot parrot"),
        "draw_pile": "robin",
        "hands": [{"parrot": 1, "owl": 1}, {"duck": 2}],
    }
    after = cr.apply(build(**parts), cr.Lay(S.PARROT, 0, RIGHT))
    assert after == build(
        **{**parts, "rows": rows_with("parrot parrot parrot"), "hands": [{"owl": 1}, {"duck": 2}]},
        phase="draw",
    )


SAME_SPECIES_LAY = {"refill_trigger": "same_species_lay"}
"""SEED2's reading of the refill (rules §3.1)."""


@pytest.mark.parametrize("side", [LEFT, RIGHT])
def test_option_refill_trigger_same_species_lay_refills_a_dry_row(side: cr.Side) -> None:
    # The row a dry refill left with parrots alone gets a parrot laid on it: with SEED2's
    # reading the lay refills it at once (from the right, as every refill), and the lay
    # still took no cards, so the optional draw is offered after the refill.
    parts: dict[str, Any] = {
        "options": SAME_SPECIES_LAY,
        "rows": rows_with("parrot parrot"),
        "draw_pile": "parrot robin owl",
        "hands": [{"parrot": 1, "owl": 1}, {"duck": 2}],
    }
    state, events = cr.step(build(**parts), cr.Lay(S.PARROT, 0, side))
    assert state == build(
        **{
            **parts,
            "rows": rows_with("parrot parrot parrot parrot robin"),
            "draw_pile": "owl",
            "hands": [{"owl": 1}, {"duck": 2}],
        },
        phase="draw",
    )
    assert events[:2] == (
        cr.events.Laid(0, S.PARROT, 1, 0, side),
        cr.events.RowRefilled(0, (S.PARROT, S.ROBIN)),
    )


def test_option_refill_trigger_same_species_lay_only_for_a_species_in_the_row() -> None:
    # A lay of another species on the dry row gives it two species: no refill.
    parts: dict[str, Any] = {
        "options": SAME_SPECIES_LAY,
        "rows": rows_with("parrot parrot"),
        "draw_pile": "robin",
        "hands": [{"owl": 1, "duck": 1}, {"duck": 2}],
    }
    after = cr.apply(build(**parts), cr.Lay(S.OWL, 0, RIGHT))
    assert after.rows[0] == cards("parrot parrot owl")
    assert after.draw_pile[0] is S.ROBIN


def test_option_refill_trigger_same_species_lay_refills_before_the_draw_is_offered() -> None:
    # The one card left refills the row; then both piles are empty, so the optional draw
    # is not offered and the turn ends (with "capture", the draw would take that card).
    parts: dict[str, Any] = {
        "options": SAME_SPECIES_LAY,
        "rows": rows_with("parrot parrot"),
        "draw_pile": "robin",
        "hands": [{"parrot": 1, "owl": 1}, {"duck": 2}],
        "rest": "collection1",
    }
    after = cr.apply(build(**parts), cr.Lay(S.PARROT, 0, RIGHT))
    assert after == build(
        **{
            **parts,
            "rows": rows_with("parrot parrot parrot robin"),
            "draw_pile": "",
            "hands": [{"owl": 1}, {"duck": 2}],
            "current_player": 1,
            "turn": 2,
        }
    )
    default = cr.apply(build(**{**parts, "options": {}}), cr.Lay(S.PARROT, 0, RIGHT))
    assert default.phase is cr.Phase.DRAW
    assert default.rows[0] == cards("parrot parrot parrot")


def test_option_refill_trigger_same_species_lay_refills_before_an_immediate_round_end() -> None:
    # The lay empties the hand and, with "immediate", ends the round at once: the refill
    # is part of the lay, so the row takes the top cards first and the deal the next ones.
    parts: dict[str, Any] = {
        "options": {**SAME_SPECIES_LAY, "round_end_timing": "immediate"},
        "num_players": 3,
        "rows": rows_with("parrot parrot"),
        "draw_pile": "parrot robin " + DEAL,
        "hands": [{"parrot": 1}, {"duck": 1}, {"duck": 1}],
    }
    state, events = cr.step(build(**parts), cr.Lay(S.PARROT, 0, RIGHT))
    assert state.rows[0] == cards("parrot parrot parrot parrot robin")
    assert (state.round, state.dealer, state.current_player) == (2, 0, 0)
    assert state.hands == tuple(counts(DEAL.split()[8 * p : 8 * p + 8]) for p in range(3))
    kinds = [type(e) for e in events]
    assert kinds[:4] == [
        cr.events.Laid,
        cr.events.RowRefilled,
        cr.events.TurnEnded,
        cr.events.RoundEnded,
    ]
    default = cr.apply(
        build(**{**parts, "options": {"round_end_timing": "immediate"}}),
        cr.Lay(S.PARROT, 0, RIGHT),
    )
    assert default.rows[0] == cards("parrot parrot parrot")


# --------------------------------------------------------------------------- optional draw


DRAW_PARTS: dict[str, Any] = {
    "rows": rows_with("owl flamingo toucan"),
    "draw_pile": "owl robin magpie",
    "hands": [{"owl": 2, "parrot": 2}, {"duck": 2}],
}
"""Player 0 lays two parrots where there are none, then owns two owls."""


def test_optional_draw_takes_two_cards_then_flock_check() -> None:
    state = cr.apply(build(**DRAW_PARTS), cr.Lay(S.PARROT, 0, RIGHT))
    assert state.phase is cr.Phase.DRAW
    after = cr.apply(state, DRAW)
    # The drawn owl makes three: a small flock of owls may now fly home.
    assert after == build(
        **{
            **DRAW_PARTS,
            "rows": rows_with("owl flamingo toucan parrot parrot"),
            "draw_pile": "magpie",
            "hands": [{"owl": 3, "robin": 1}, {"duck": 2}],
        },
        phase="flock",
    )
    assert cr.legal_actions(after) == (cr.FlyHome(S.OWL), PASS)


def test_optional_draw_declined_ends_turn_when_no_flock() -> None:
    state = cr.apply(build(**DRAW_PARTS), cr.Lay(S.PARROT, 0, RIGHT))
    after = cr.apply(state, PASS)
    assert after == build(
        **{
            **DRAW_PARTS,
            "rows": rows_with("owl flamingo toucan parrot parrot"),
            "hands": [{"owl": 2}, {"duck": 2}],
        },
        current_player=1,
        turn=2,
    )


def test_optional_draw_not_offered_when_both_piles_are_empty() -> None:
    parts: dict[str, Any] = {**DRAW_PARTS, "draw_pile": "", "rest": "collection1"}
    after = cr.apply(build(**parts), cr.Lay(S.PARROT, 0, RIGHT))
    assert after == build(
        **{
            **parts,
            "rows": rows_with("owl flamingo toucan parrot parrot"),
            "hands": [{"owl": 2}, {"duck": 2}],
        },
        current_player=1,
        turn=2,
    )


def test_optional_draw_offered_when_only_discard_pile_has_cards() -> None:
    parts: dict[str, Any] = {**DRAW_PARTS, "draw_pile": "", "rest": "discard_pile"}
    after = cr.apply(build(**parts), cr.Lay(S.PARROT, 0, RIGHT))
    assert after.phase is cr.Phase.DRAW
    assert after.draw_pile == ()


def test_optional_draw_reshuffles_discard_when_draw_pile_runs_out_mid_draw() -> None:
    parts: dict[str, Any] = {
        **DRAW_PARTS,
        "seed": 4,
        "shuffles": 3,
        "draw_pile": "owl",
        "discard_pile": {"parrot": 3, "robin": 2},
        "rest": "collection1",
    }
    reshuffled = reference_shuffle(cards("parrot parrot parrot robin robin"), seed=4, k=3)
    assert reshuffled == list(cards("parrot parrot robin parrot robin"))
    state = cr.apply(build(**parts), cr.Lay(S.PARROT, 0, RIGHT))
    after = cr.apply(state, DRAW)
    # The owl comes from the old pile, the parrot from the top of the new one.
    assert after == build(
        **{
            **parts,
            "shuffles": 4,
            "rows": rows_with("owl flamingo toucan parrot parrot"),
            "draw_pile": "parrot robin parrot robin",
            "discard_pile": {},
            "hands": [{"owl": 3, "parrot": 1}, {"duck": 2}],
        },
        phase="flock",
    )


def test_optional_draw_with_one_card_left_in_all_takes_one() -> None:
    parts: dict[str, Any] = {**DRAW_PARTS, "draw_pile": "owl", "rest": "collection1"}
    after = play(build(**parts), cr.Lay(S.PARROT, 0, RIGHT), DRAW)
    assert after == build(
        **{
            **parts,
            "rows": rows_with("owl flamingo toucan parrot parrot"),
            "draw_pile": "",
            "hands": [{"owl": 3}, {"duck": 2}],
        },
        phase="flock",
    )


def test_optional_draw_reshuffles_a_discard_pile_of_one_card() -> None:
    # Every shuffle of a non-empty pile uses a stream, even a pile of one card.
    parts: dict[str, Any] = {
        **DRAW_PARTS,
        "shuffles": 2,
        "draw_pile": "",
        "discard_pile": {"robin": 1},
        "rest": "collection1",
    }
    after = play(build(**parts), cr.Lay(S.PARROT, 0, RIGHT), DRAW)
    assert after == build(
        **{
            **parts,
            "shuffles": 3,
            "rows": rows_with("owl flamingo toucan parrot parrot"),
            "discard_pile": {},
            "hands": [{"owl": 2, "robin": 1}, {"duck": 2}],
        },
        current_player=1,
        turn=2,
    )


# =========================================================================== §3.2 flock


@pytest.mark.parametrize(
    ("species", "held", "home"),
    [
        ("flamingo", 2, 1),
        ("flamingo", 3, 2),
        ("owl", 3, 1),
        ("owl", 4, 2),
        ("owl", 5, 2),
        ("magpie", 6, 1),
        ("magpie", 7, 2),
        ("robin", 8, 1),
        ("robin", 9, 2),
    ],
)
def test_flock_small_sends_one_home_big_sends_two_rest_discarded(
    species: str, held: int, home: int
) -> None:
    parts: dict[str, Any] = {
        "phase": "flock",
        "hands": [{species: held, "duck": 1}, {"duck": 2}],
        "collections": [{"toucan": 1}, {"owl": 1}],
    }
    after = cr.apply(build(**parts), cr.FlyHome(S(species)))
    assert after == build(
        **{
            **parts,
            "phase": "lay",
            "hands": [{"duck": 1}, {"duck": 2}],
            "collections": [{"toucan": 1, species: home}, {"owl": 1}],
            "discard_pile": {species: held - home} if held > home else {},
            "current_player": 1,
            "turn": 2,
        }
    )


def test_flock_smaller_than_small_flock_is_illegal() -> None:
    # The flock sizes are the model's (owl 3, magpie 5), so that the example follows them.
    owls, magpies = S.OWL.small_flock - 1, S.MAGPIE.small_flock
    state = build(phase="flock", hands=[{"owl": owls, "magpie": magpies}, {"duck": 1}])
    assert cr.legal_actions(state) == (cr.FlyHome(S.MAGPIE), PASS)
    message = f"a flock of owl needs {S.OWL.small_flock} cards, player 0 holds {owls}"
    with pytest.raises(cr.IllegalActionError, match=message):
        cr.apply(state, cr.FlyHome(S.OWL))


def test_flock_of_species_already_in_collection_is_allowed() -> None:
    state = build(
        phase="flock", hands=[{"owl": 3, "duck": 1}, {"duck": 1}], collections=[{"owl": 2}, {}]
    )
    after = cr.apply(state, cr.FlyHome(S.OWL))
    assert after.collections[0] == counts(owl=3)
    assert after.discard_pile == counts(owl=2)


def test_flock_phase_lists_every_possible_flock_in_species_order_then_pass() -> None:
    state = build(phase="flock", hands=[{"robin": 6, "owl": 3, "duck": 3}, {"duck": 1}])
    assert cr.legal_actions(state) == (cr.FlyHome(S.OWL), cr.FlyHome(S.ROBIN), PASS)


def test_flock_declined_ends_turn_with_hand_unchanged() -> None:
    parts: dict[str, Any] = {"phase": "flock", "hands": [{"owl": 3}, {"duck": 1}]}
    after = cr.apply(build(**parts), PASS)
    assert after == build(**{**parts, "phase": "lay", "current_player": 1, "turn": 2})


def test_flock_may_use_cards_just_captured() -> None:
    # The captured flamingo joins the one in hand: a small flock of flamingos.
    state = build(
        rows=rows_with("owl flamingo parrot"),
        hands=[{"parrot": 1, "flamingo": 1}, {"duck": 1}],
    )
    after = cr.apply(state, cr.Lay(S.PARROT, 0, LEFT))
    assert after.phase is cr.Phase.FLOCK
    assert cr.legal_actions(after) == (cr.FlyHome(S.FLAMINGO), PASS)
    final = cr.apply(after, cr.FlyHome(S.FLAMINGO))
    assert final.collections[0] == counts(flamingo=1)
    assert final.known_hands[0] == counts(owl=1)


# =========================================================================== known_hands


def test_known_hands_captured_cards_become_known_and_accumulate() -> None:
    state = build(
        rows=rows_with("owl duck"),
        hands=[{"duck": 1, "owl": 1}, {"duck": 1}],
        known_hands=[{"owl": 1}, {}],
    )
    after = cr.apply(state, cr.Lay(S.DUCK, 0, LEFT))
    assert after.hands[0] == counts(owl=2)
    assert after.known_hands[0] == counts(owl=2)


def test_known_hands_laying_a_species_clears_it() -> None:
    state = build(
        hands=[{"parrot": 2, "owl": 1, "robin": 1}, {"duck": 1}],
        known_hands=[{"parrot": 1, "owl": 1}, {}],
    )
    after = cr.apply(state, cr.Lay(S.PARROT, 0, LEFT))
    assert after.known_hands[0] == counts(owl=1)


def test_known_hands_flying_a_species_home_clears_it() -> None:
    state = build(
        phase="flock",
        hands=[{"owl": 3, "flamingo": 1}, {"duck": 1}],
        known_hands=[{"owl": 1, "flamingo": 1}, {}],
    )
    after = cr.apply(state, cr.FlyHome(S.OWL))
    assert after.known_hands[0] == counts(flamingo=1)


def test_known_hands_round_end_clears_all() -> None:
    state = build(
        phase="flock",
        hands=[{"owl": 3}, {"duck": 1, "robin": 2}],
        known_hands=[{"owl": 1}, {"robin": 1}],
    )
    after = cr.apply(state, cr.FlyHome(S.OWL))
    assert after.round == 2
    assert after.known_hands == (counts(), counts())


# =========================================================================== §3.3 win


def test_win_by_seven_species() -> None:
    parts: dict[str, Any] = {
        "phase": "flock",
        "turn": 9,
        "dealer": 1,
        "hands": [{"robin": 6, "owl": 1}, {"duck": 2}],
        "collections": [
            {"flamingo": 1, "owl": 1, "toucan": 1, "duck": 1, "parrot": 1, "magpie": 1},
            {"owl": 1},
        ],
    }
    after = cr.apply(build(**parts), cr.FlyHome(S.ROBIN))
    assert after == build(
        **{
            **parts,
            "phase": "game_over",
            "winners": [0],
            "hands": [{"owl": 1}, {"duck": 2}],
            "discard_pile": {"robin": 5},
            "collections": [
                {
                    "flamingo": 1,
                    "owl": 1,
                    "toucan": 1,
                    "duck": 1,
                    "parrot": 1,
                    "magpie": 1,
                    "robin": 1,
                },
                {"owl": 1},
            ],
        }
    )
    assert cr.legal_actions(after) == ()


def test_win_by_two_triples() -> None:
    parts: dict[str, Any] = {
        "num_players": 3,
        "current_player": 1,
        "phase": "flock",
        "hands": [{"duck": 1}, {"toucan": 3, "duck": 1}, {"duck": 1}],
        "collections": [{"robin": 1}, {"owl": 3, "toucan": 2}, {"robin": 1}],
    }
    after = cr.apply(build(**parts), cr.FlyHome(S.TOUCAN))
    assert after == build(
        **{
            **parts,
            "phase": "game_over",
            "winners": [1],
            "hands": [{"duck": 1}, {"duck": 1}, {"duck": 1}],
            "discard_pile": {"toucan": 2},
            "collections": [{"robin": 1}, {"owl": 3, "toucan": 3}, {"robin": 1}],
        }
    )


@pytest.mark.parametrize(
    ("collection", "wins"),
    [
        ({"flamingo": 1, "owl": 1, "toucan": 1, "duck": 1, "parrot": 1, "magpie": 1}, False),
        (
            {"flamingo": 1, "owl": 1, "toucan": 1, "duck": 1, "parrot": 1, "robin": 1, "magpie": 1},
            True,
        ),
        ({"owl": 3, "flamingo": 1, "toucan": 1, "duck": 1, "parrot": 1, "magpie": 1}, False),
        ({"owl": 5, "toucan": 2}, False),
        ({"owl": 3, "toucan": 3}, True),
        ({"flamingo": 9, "robin": 3}, True),
    ],
)
def test_has_won_seven_species_or_two_triples(collection: dict[str, int], wins: bool) -> None:
    assert cr.outcome.has_won(counts(collection)) is wins


def test_six_species_and_one_triple_is_not_a_win() -> None:
    state = build(
        phase="flock",
        hands=[{"owl": 3, "duck": 1}, {"duck": 1}],
        collections=[
            {"flamingo": 1, "owl": 2, "toucan": 1, "duck": 1, "parrot": 1, "magpie": 1},
            {},
        ],
    )
    after = cr.apply(state, cr.FlyHome(S.OWL))
    assert after.phase is cr.Phase.LAY
    assert after.winners == ()
    assert after.current_player == 1


def test_win_is_checked_before_round_end() -> None:
    # The winning flock empties the hand: the game ends, no round end, hands stay.
    parts: dict[str, Any] = {
        "phase": "flock",
        "round": 3,
        "turn": 20,
        "dealer": 1,
        "hands": [{"toucan": 3}, {"duck": 2}],
        "known_hands": [{}, {"duck": 1}],
        "collections": [{"owl": 3, "toucan": 2}, {"owl": 1}],
    }
    after = cr.apply(build(**parts), cr.FlyHome(S.TOUCAN))
    assert after == build(
        **{
            **parts,
            "phase": "game_over",
            "winners": [0],
            "hands": [{}, {"duck": 2}],
            "discard_pile": {"toucan": 2},
            "collections": [{"owl": 3, "toucan": 3}, {"owl": 1}],
        }
    )


# =========================================================================== §4 round end

DEAL = "robin robin robin robin owl owl owl owl  magpie magpie magpie magpie magpie duck duck duck  reed_warbler reed_warbler reed_warbler reed_warbler toucan toucan flamingo flamingo"  # noqa: E501
"""24 cards on top of the draw pile: the next deal of a 3-player game."""


def test_round_end_hands_discarded_round_ender_deals_and_starts() -> None:
    parts: dict[str, Any] = {
        "num_players": 3,
        "turn": 5,
        "dealer": 0,
        "current_player": 1,
        "rows": rows_with("owl flamingo toucan"),
        "draw_pile": DEAL,
        "hands": [{"owl": 1, "duck": 2}, {"parrot": 2}, {"robin": 3}],
        "known_hands": [{"owl": 1}, {}, {"robin": 1}],
        "collections": [{"owl": 1}, {"robin": 1}, {"duck": 1}],
    }
    state = cr.apply(build(**parts), cr.Lay(S.PARROT, 0, RIGHT))
    # end_of_turn timing: the player who laid their last cards is still offered the draw.
    assert state.phase is cr.Phase.DRAW
    assert state.hand_size(1) == 0
    after = cr.apply(state, PASS)
    # Seat 1 ended the round: deals 8 to itself, then 8 to seat 2, then 8 to seat 0.
    assert after == build(
        **{
            **parts,
            "round": 2,
            "turn": 6,
            "dealer": 1,
            "current_player": 1,
            "rows": rows_with("owl flamingo toucan parrot parrot"),
            "draw_pile": "",
            "discard_pile": {"owl": 1, "duck": 2, "robin": 3},
            "hands": [
                {"flamingo": 2, "toucan": 2, "reed_warbler": 4},
                {"owl": 4, "robin": 4},
                {"duck": 3, "magpie": 5},
            ],
            "known_hands": [{}, {}, {}],
        }
    )
    assert [after.hand_size(p) for p in range(3)] == [8, 8, 8]


def test_round_end_timing_end_of_turn_draw_after_emptying_hand_keeps_round_going() -> None:
    parts: dict[str, Any] = {
        "rows": rows_with("owl flamingo toucan"),
        "draw_pile": "robin duck",
        "hands": [{"parrot": 2}, {"duck": 2}],
    }
    after = play(build(**parts), cr.Lay(S.PARROT, 0, RIGHT), DRAW)
    assert after == build(
        **{
            **parts,
            "rows": rows_with("owl flamingo toucan parrot parrot"),
            "draw_pile": "",
            "hands": [{"robin": 1, "duck": 1}, {"duck": 2}],
        },
        current_player=1,
        turn=2,
    )


def test_round_end_deal_takes_rest_of_draw_pile_then_reshuffles_discard() -> None:
    parts: dict[str, Any] = {
        "seed": 99,
        "shuffles": 2,
        "phase": "flock",
        "turn": 7,
        "dealer": 1,
        "rows": rows_with("owl flamingo toucan", row3=""),
        "draw_pile": "owl owl owl owl owl robin robin robin robin robin",
        "discard_pile": {"magpie": 10},
        "hands": [{"duck": 4}, {"parrot": 4}],
        "rest": "row3",
    }
    after = cr.apply(build(**parts), cr.FlyHome(S.DUCK))
    # The discard pile then holds 10 magpies, 3 ducks and 4 parrots.
    reshuffled = reference_shuffle(cards("magpie " * 10 + "duck " * 3 + "parrot " * 4), 99, 2)
    hand1 = cards("robin robin") + tuple(reshuffled[:6])
    assert after == build(
        **{
            **parts,
            "shuffles": 3,
            "phase": "lay",
            "round": 2,
            "turn": 8,
            "dealer": 0,
            "current_player": 0,
            "draw_pile": reshuffled[6:],
            "discard_pile": {},
            "hands": [{"owl": 5, "robin": 3}, hand1],
            "collections": [{"duck": 1}, {}],
        }
    )


def test_round_end_by_exhaustion_discards_hands_and_ties_share_victory() -> None:
    parts: dict[str, Any] = {
        "phase": "flock",
        "round": 4,
        "turn": 30,
        "dealer": 1,
        "rows": rows_with("owl flamingo toucan", row3=""),
        "draw_pile": "robin robin robin robin robin",
        "discard_pile": {"magpie": 3},
        "hands": [{"duck": 4}, {"parrot": 2}],
        "known_hands": [{}, {"parrot": 1}],
        "collections": [{"owl": 2}, {"robin": 1, "toucan": 1, "duck": 1}],
        "rest": "row3",
    }
    after = cr.apply(build(**parts), cr.FlyHome(S.DUCK))
    # Draw pile 5 + discard pile 3 magpies, 3 ducks and 2 parrots = 13 < 16 cards: the
    # game ends; seat 0 now has 3 cards in its collection, like seat 1: a shared victory.
    assert after == build(
        **{
            **parts,
            "phase": "game_over",
            "winners": [0, 1],
            "discard_pile": {"duck": 3, "parrot": 2, "magpie": 3},
            "hands": [{}, {}],
            "known_hands": [{}, {}],
            "collections": [{"owl": 2, "duck": 1}, {"robin": 1, "toucan": 1, "duck": 1}],
        }
    )


def test_exhaustion_single_winner_is_largest_collection() -> None:
    parts: dict[str, Any] = {
        "num_players": 3,
        "current_player": 2,
        "round": 2,
        "turn": 15,
        "dealer": 0,
        "rows": rows_with("owl flamingo toucan", row3=""),
        "draw_pile": "robin " * 10,
        "hands": [{"magpie": 2}, {"magpie": 3}, {"parrot": 1}],
        "collections": [{"owl": 1}, {"robin": 1, "toucan": 3}, {"duck": 2}],
        "rest": "row3",
    }
    state = cr.apply(build(**parts), cr.Lay(S.PARROT, 0, RIGHT))
    after = cr.apply(state, PASS)
    # Draw pile 10 + discard pile 5 magpies (the parrot was laid) = 15 < 24 cards.
    assert after == build(
        **{
            **parts,
            "phase": "game_over",
            "winners": [1],
            "rows": rows_with("owl flamingo toucan parrot", row3=""),
            "discard_pile": {"magpie": 5},
            "hands": [{}, {}, {}],
        }
    )


def test_exhaustion_shared_victory_winners_sorted() -> None:
    parts: dict[str, Any] = {
        "num_players": 3,
        "phase": "flock",
        "current_player": 1,
        "rows": rows_with("owl flamingo toucan", row3=""),
        "draw_pile": "robin " * 3,
        "hands": [{"magpie": 2}, {"owl": 3}, {"parrot": 1}],
        "collections": [{"owl": 1, "duck": 2}, {"robin": 1}, {"duck": 1, "toucan": 2}],
        "rest": "row3",
    }
    after = cr.apply(build(**parts), cr.FlyHome(S.OWL))
    # Seat 1 now has 2 cards in its collection; seats 0 and 2 have 3 each.
    assert after == build(
        **{
            **parts,
            "phase": "game_over",
            "winners": [0, 2],
            "discard_pile": {"owl": 2, "parrot": 1, "magpie": 2},
            "hands": [{}, {}, {}],
            "collections": [
                {"owl": 1, "duck": 2},
                {"owl": 1, "robin": 1},
                {"duck": 1, "toucan": 2},
            ],
        }
    )


@pytest.mark.parametrize(("available", "over"), [(15, True), (16, False)])
def test_exhaustion_threshold_is_fewer_than_eight_cards_per_player(
    available: int, over: bool
) -> None:
    state = build(
        phase="flock",
        rows=rows_with("owl flamingo toucan", row3=""),
        draw_pile="robin " * (available - 4),
        hands=[{"owl": 3}, {"magpie": 2}],
        rest="row3",
    )
    # The flock discards 2 owls, the round end 2 magpies: `available` cards in all.
    after = cr.apply(state, cr.FlyHome(S.OWL))
    assert after.is_over is over
    assert after.round == (1 if over else 2)


# =========================================================================== options


def test_option_initial_row_length_4() -> None:
    vector = json.loads((DATA / "vectors" / "setup-7-4p-rows4.json").read_text())
    state = cr.new_game(cr.GameOptions(num_players=4, initial_row_length=4), seed=7)
    assert cr.encode_state(state)["rows"] == vector["state"]["rows"]
    assert state.rows == (
        cards("robin magpie duck reed_warbler"),
        cards("magpie reed_warbler flamingo parrot"),
        cards("duck reed_warbler magpie parrot"),
        cards("owl magpie reed_warbler duck"),
    )
    assert state.discard_pile == counts(magpie=2)
    assert len(state.draw_pile) == 110 - 16 - 2 - 4 * 9


@pytest.mark.parametrize("row_length", [3, 4])
@pytest.mark.parametrize(("seed", "num_players"), [(0, 2), (42, 3), (7, 4), (2**64 - 1, 5)])
def test_setup_builds_rows_of_distinct_species_and_deals_from_dealer(
    seed: int, num_players: int, row_length: int
) -> None:
    options = cr.GameOptions(num_players=num_players, initial_row_length=row_length)
    state = cr.new_game(options, seed)
    doc = cr.encode_state(state)
    reference = reference_setup(num_players, seed, row_length)
    assert {key: doc[key] for key in reference} == reference
    assert all(len(row) == len(set(row)) == row_length for row in state.rows)
    assert (state.round, state.turn, state.shuffles, state.phase) == (1, 1, 1, cr.Phase.LAY)
    assert state.current_player == state.dealer
    assert state.known_hands == (counts(),) * num_players


def test_option_setup_duplicates_to_draw_pile_shuffles_them_back() -> None:
    options = cr.GameOptions(num_players=4, setup_duplicates_to="draw_pile")
    default = cr.new_game(cr.GameOptions(num_players=4), seed=7)
    assert default.discard_pile == counts(magpie=1, reed_warbler=1)  # duplicates exist
    state = cr.new_game(options, seed=7)
    assert state.shuffles == 2
    assert state.discard_pile == counts()
    assert state.rows == default.rows
    assert state.dealer == default.dealer == 0
    # Everything but the rows, in species order, shuffled with stream 1; then the deal.
    pile = [card for species in cr.SPECIES for card in [species] * species.copies]
    for row in state.rows:
        for card in row:
            pile.remove(card)
    shuffled = reference_shuffle(pile, seed=7, k=1)
    assert state.hands == tuple(counts(shuffled[8 * p : 8 * p + 8]) for p in range(4))
    assert state.collections == tuple(counts(shuffled[32 + p : 33 + p]) for p in range(4))
    assert state.draw_pile == tuple(shuffled[36:])
    vector = json.loads((DATA / "vectors" / "v2" / "setup-7-4p-dupsback.json").read_text())
    assert cr.encode_state(state) == vector["state"]


def test_option_setup_duplicates_to_draw_pile_without_duplicates_does_not_shuffle() -> None:
    default = cr.new_game(cr.GameOptions(num_players=2), seed=20)
    assert default.discard_pile == counts()  # seed 20 sets no card aside
    state = cr.new_game(cr.GameOptions(num_players=2, setup_duplicates_to="draw_pile"), seed=20)
    assert state.shuffles == 1
    assert state.draw_pile == default.draw_pile
    assert (state.rows, state.hands, state.collections) == (
        default.rows,
        default.hands,
        default.collections,
    )


def test_option_optional_draw_if_adjacent_false_adjacent_lay_skips_draw() -> None:
    parts: dict[str, Any] = {
        "options": {"optional_draw_if_adjacent": False},
        "rows": rows_with("parrot owl duck"),
        "hands": [{"parrot": 2, "robin": 1}, {"duck": 2}],
    }
    after = cr.apply(build(**parts), cr.Lay(S.PARROT, 0, LEFT))
    assert after == build(
        **{
            **parts,
            "rows": rows_with("parrot parrot parrot owl duck"),
            "hands": [{"robin": 1}, {"duck": 2}],
        },
        current_player=1,
        turn=2,
    )


def test_option_optional_draw_if_adjacent_false_adjacent_lay_goes_to_flock_check() -> None:
    state = build(
        options={"optional_draw_if_adjacent": False},
        rows=rows_with("parrot owl duck"),
        hands=[{"parrot": 2, "owl": 3}, {"duck": 2}],
    )
    after = cr.apply(state, cr.Lay(S.PARROT, 0, LEFT))
    assert after.phase is cr.Phase.FLOCK
    assert after.current_player == 0
    assert cr.legal_actions(after) == (cr.FlyHome(S.OWL), PASS)


def test_option_optional_draw_if_adjacent_false_still_draws_when_absent() -> None:
    state = build(
        options={"optional_draw_if_adjacent": False},
        rows=rows_with("owl duck"),
        hands=[{"parrot": 2, "robin": 1}, {"duck": 2}],
    )
    after = cr.apply(state, cr.Lay(S.PARROT, 0, LEFT))
    assert after.phase is cr.Phase.DRAW


def test_option_round_end_timing_immediate_lay_emptying_hand_ends_round_without_draw() -> None:
    parts: dict[str, Any] = {
        "options": {"round_end_timing": "immediate"},
        "num_players": 3,
        "turn": 5,
        "current_player": 1,
        "rows": rows_with("owl flamingo toucan"),
        "draw_pile": DEAL,
        "hands": [{"owl": 1, "duck": 2}, {"parrot": 2}, {"robin": 3}],
        "known_hands": [{"owl": 1}, {}, {"robin": 1}],
    }
    after = cr.apply(build(**parts), cr.Lay(S.PARROT, 0, RIGHT))
    assert after == build(
        **{
            **parts,
            "round": 2,
            "turn": 6,
            "dealer": 1,
            "rows": rows_with("owl flamingo toucan parrot parrot"),
            "draw_pile": "",
            "discard_pile": {"owl": 1, "duck": 2, "robin": 3},
            "hands": [
                {"flamingo": 2, "toucan": 2, "reed_warbler": 4},
                {"owl": 4, "robin": 4},
                {"duck": 3, "magpie": 5},
            ],
            "known_hands": [{}, {}, {}],
        }
    )


def test_option_round_end_timing_immediate_capture_keeps_turn_going() -> None:
    state = build(
        options={"round_end_timing": "immediate"},
        rows=rows_with("owl parrot"),
        hands=[{"parrot": 2}, {"duck": 2}],
    )
    after = cr.apply(state, cr.Lay(S.PARROT, 0, LEFT))
    assert after.round == 1
    assert after.hands[0] == counts(owl=1)
    assert after.current_player == 1


def test_option_exhaustion_counts_discard_false_counts_draw_pile_alone() -> None:
    parts: dict[str, Any] = {
        "phase": "flock",
        "rows": rows_with("owl flamingo toucan", row3=""),
        "draw_pile": "robin " * 10,
        "discard_pile": {"magpie": 10},
        "hands": [{"owl": 3}, {"duck": 2}],
        "rest": "row3",
    }
    default = cr.apply(build(**parts), cr.FlyHome(S.OWL))
    assert default.phase is cr.Phase.LAY
    assert default.round == 2
    state = build(**parts, options={"exhaustion_counts_discard": False})
    after = cr.apply(state, cr.FlyHome(S.OWL))
    assert after == build(
        **{
            **parts,
            "options": {"exhaustion_counts_discard": False},
            "phase": "game_over",
            "winners": [0],
            "discard_pile": {"owl": 2, "duck": 2, "magpie": 10},
            "hands": [{}, {}],
            "collections": [{"owl": 1}, {}],
        }
    )


@pytest.mark.parametrize(("ender", "first"), [(1, 2), (2, 0)])
def test_option_next_round_first_player_left_of_round_ender(ender: int, first: int) -> None:
    hands: list[dict[str, int]] = [{"duck": 1}, {"duck": 1}, {"duck": 1}]
    hands[ender] = {"owl": 3}
    parts: dict[str, Any] = {
        "options": {"next_round_first_player": "left_of_round_ender"},
        "num_players": 3,
        "phase": "flock",
        "current_player": ender,
        "draw_pile": DEAL,
        "hands": hands,
    }
    after = cr.apply(build(**parts), cr.FlyHome(S.OWL))
    # The round-ender still deals, starting with itself; the next seat starts.
    assert after.dealer == ender
    assert after.current_player == first
    assert after.phase is cr.Phase.LAY
    assert after.hands[ender] == counts(owl=4, robin=4)
    assert after.hands[(ender + 1) % 3] == counts(duck=3, magpie=5)
    assert (after.round, after.turn) == (2, 2)


@pytest.mark.parametrize("ender", [0, 1, 2])
def test_option_next_round_first_player_same_dealer(ender: int) -> None:
    # SEED2 read literally: the first dealer (seat 0 here) deals every round, starting
    # with itself, and takes the first turn, whoever ended the round.
    hands: list[dict[str, int]] = [{"duck": 1}, {"duck": 1}, {"duck": 1}]
    hands[ender] = {"owl": 3}
    parts: dict[str, Any] = {
        "options": {"next_round_first_player": "same_dealer"},
        "num_players": 3,
        "phase": "flock",
        "dealer": 0,
        "current_player": ender,
        "draw_pile": DEAL,
        "hands": hands,
    }
    after = cr.apply(build(**parts), cr.FlyHome(S.OWL))
    assert (after.dealer, after.current_player, after.phase) == (0, 0, cr.Phase.LAY)
    assert after.hands[0] == counts(DEAL.split()[:8])
    assert after.hands[1] == counts(DEAL.split()[8:16])
    assert (after.round, after.turn) == (2, 2)


def test_option_same_dealer_keeps_the_first_dealer_for_three_rounds() -> None:
    # A whole seeded game (the shared vector): every round is dealt and started by the
    # first dealer, although other seats end rounds.
    doc = json.loads((DATA / "vectors" / "v2" / "game-500-3p-same-dealer.json").read_text())
    state = cr.new_game(cr.GameOptions(**doc["options"]), doc["seed"])
    first_dealer = state.dealer
    enders = []
    for action_doc in doc["actions"]:
        before = state
        state = cr.apply(state, cr.decode_action(action_doc))
        assert state.dealer == first_dealer
        if state.round > before.round:
            enders.append(before.current_player)
            assert state.current_player == first_dealer
    assert len(enders) >= 2  # three rounds or more
    assert set(enders) - {first_dealer}, "some other seat ended a round"


def test_option_always_prompt_flock_offers_only_pass_when_no_flock() -> None:
    parts: dict[str, Any] = {
        "options": {"always_prompt_flock": True},
        "rows": rows_with("owl flamingo parrot toucan"),
        "hands": [{"parrot": 2, "robin": 1}, {"duck": 2}],
    }
    after = cr.apply(build(**parts), cr.Lay(S.PARROT, 0, LEFT))
    assert after == build(
        **{
            **parts,
            "phase": "flock",
            "rows": rows_with("parrot parrot parrot toucan"),
            "hands": [{"owl": 1, "flamingo": 1, "robin": 1}, {"duck": 2}],
            "known_hands": [{"owl": 1, "flamingo": 1}, {}],
        }
    )
    assert cr.legal_actions(after) == (PASS,)
    with pytest.raises(cr.IllegalActionError):
        cr.apply(after, cr.FlyHome(S.OWL))
    final = cr.apply(after, PASS)
    assert (final.phase, final.current_player, final.turn) == (cr.Phase.LAY, 1, 2)


def test_option_always_prompt_flock_after_declined_draw_and_empty_hand() -> None:
    state = build(
        options={"always_prompt_flock": True},
        rows=rows_with("owl flamingo toucan"),
        hands=[{"parrot": 2}, {"duck": 2}],
    )
    state = play(state, cr.Lay(S.PARROT, 0, RIGHT), PASS)
    assert state.phase is cr.Phase.FLOCK
    assert cr.legal_actions(state) == (PASS,)
    after = cr.apply(state, PASS)
    assert (after.round, after.dealer, after.current_player) == (2, 0, 0)


def test_option_always_prompt_flock_with_immediate_timing_empty_hand_ends_turn_at_once() -> None:
    state = build(
        options={"always_prompt_flock": True, "round_end_timing": "immediate"},
        rows=rows_with("owl flamingo toucan"),
        hands=[{"parrot": 2}, {"duck": 2}],
        dealer=1,
    )
    after = cr.apply(state, cr.Lay(S.PARROT, 0, RIGHT))
    assert after.phase is cr.Phase.LAY
    assert (after.round, after.turn, after.dealer, after.current_player) == (2, 2, 0, 0)


def test_option_always_prompt_flock_with_immediate_timing_hand_not_empty_prompts() -> None:
    state = build(
        options={"always_prompt_flock": True, "round_end_timing": "immediate"},
        rows=rows_with("owl flamingo toucan"),
        hands=[{"parrot": 2, "duck": 1}, {"duck": 2}],
    )
    after = play(state, cr.Lay(S.PARROT, 0, RIGHT), PASS)
    assert after.phase is cr.Phase.FLOCK
    assert cr.legal_actions(after) == (PASS,)


# =========================================================================== legal actions


def test_legal_actions_lay_in_species_row_side_order() -> None:
    state = build(hands=[{"robin": 1, "owl": 2}, {"duck": 1}])
    expected = tuple(
        cr.Lay(species, row, side)
        for species in (S.OWL, S.ROBIN)
        for row in range(4)
        for side in (LEFT, RIGHT)
    )
    assert cr.legal_actions(state) == expected
    assert cr.legal_actions(state)[:3] == (
        cr.Lay(S.OWL, 0, LEFT),
        cr.Lay(S.OWL, 0, RIGHT),
        cr.Lay(S.OWL, 1, LEFT),
    )


# =========================================================================== illegal actions


LAY_STATE: dict[str, Any] = {"hands": [{"owl": 2}, {"duck": 1}]}
DRAW_STATE: dict[str, Any] = {"phase": "draw", "hands": [{"owl": 2}, {"duck": 1}]}
FLOCK_STATE: dict[str, Any] = {"phase": "flock", "hands": [{"owl": 3, "duck": 1}, {"duck": 1}]}


@pytest.mark.parametrize(
    ("parts", "action", "fragment"),
    [
        (LAY_STATE, cr.Draw(), "a turn starts by laying birds"),
        (LAY_STATE, cr.Pass(), "a turn starts by laying birds"),
        (LAY_STATE, cr.FlyHome(S.OWL), "a turn starts by laying birds"),
        (LAY_STATE, cr.Lay(S.ROBIN, 0, LEFT), "player 0 holds no robin"),
        (DRAW_STATE, cr.Lay(S.OWL, 0, LEFT), "the choice is Draw() or Pass()"),
        (DRAW_STATE, cr.FlyHome(S.OWL), "the choice is Draw() or Pass()"),
        (FLOCK_STATE, cr.Draw(), "the choice is to fly a flock home or Pass()"),
        (FLOCK_STATE, cr.Lay(S.OWL, 0, LEFT), "the choice is to fly a flock home or Pass()"),
        (FLOCK_STATE, cr.FlyHome(S.DUCK), "a flock of duck needs 4 cards, player 0 holds 1"),
        (FLOCK_STATE, cr.FlyHome(S.ROBIN), "a flock of robin needs 6 cards, player 0 holds 0"),
    ],
)
def test_illegal_action_raises_with_reason(
    parts: dict[str, Any], action: cr.Action, fragment: str
) -> None:
    state = build(**parts)
    assert action not in cr.legal_actions(state)
    with pytest.raises(cr.IllegalActionError) as info:
        cr.apply(state, action)
    assert fragment in str(info.value)
    assert f"is not legal for player 0 in phase {state.phase.value!r}" in str(info.value)
    assert isinstance(info.value, ValueError)


def test_illegal_action_not_an_action() -> None:
    state = build(**LAY_STATE)
    with pytest.raises(cr.IllegalActionError, match="is not an action"):
        cr.apply(state, "lay owl")  # type: ignore[arg-type]


def test_after_game_over_every_action_is_illegal() -> None:
    state = build(
        phase="game_over",
        winners=[1],
        hands=[{"owl": 3, "duck": 1}, {"duck": 1}],
        collections=[{}, {"owl": 3, "toucan": 3}],
    )
    assert cr.legal_actions(state) == ()
    every_action: list[cr.Action] = [cr.Draw(), cr.Pass()]
    for species in cr.SPECIES:
        every_action.append(cr.FlyHome(species))
        every_action += [cr.Lay(species, row, side) for row in range(4) for side in cr.Side]
    for action in every_action:
        with pytest.raises(cr.IllegalActionError, match="the game is over"):
            cr.apply(state, action)


# =========================================================================== new_game arguments


@pytest.mark.parametrize("seed", [-1, 2**64, True, False, 1.5, "1", None])
def test_new_game_rejects_bad_seeds(seed: object) -> None:
    with pytest.raises(cr.InvalidOptionsError, match="seed") as info:
        cr.new_game(cr.GameOptions(num_players=2), seed)  # type: ignore[arg-type]
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("seed", [0, 2**64 - 1])
def test_new_game_accepts_seed_range_ends(seed: int) -> None:
    assert cr.new_game(cr.GameOptions(num_players=2), seed).seed == seed


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("num_players", 1),
        ("num_players", 6),
        ("num_players", True),
        ("num_players", 2.0),
        ("num_players", "2"),
        ("initial_row_length", 2),
        ("initial_row_length", 5),
        ("setup_duplicates_to", "deck"),
        ("optional_draw_if_adjacent", 1),
        ("round_end_timing", "later"),
        ("exhaustion_counts_discard", None),
        ("next_round_first_player", "dealer"),
        ("always_prompt_flock", "yes"),
    ],
)
def test_game_options_rejects_bad_values(name: str, value: object) -> None:
    options: dict[str, Any] = {"num_players": 2, name: value}
    with pytest.raises(cr.InvalidOptionsError, match=f"^{name}: ") as info:
        cr.GameOptions(**options)
    assert isinstance(info.value, ValueError)


def test_new_game_rejects_options_that_are_not_game_options() -> None:
    with pytest.raises(cr.InvalidOptionsError, match="expected GameOptions"):
        cr.new_game({"num_players": 2}, 0)  # type: ignore[arg-type]


# =========================================================================== RNG known answers


def test_splitmix64_known_answers_from_state_zero() -> None:
    state = 0
    outputs = []
    for _ in range(3):
        state, out = splitmix64(state)
        outputs.append(out)
    assert outputs == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    assert state == 3 * 0x9E3779B97F4A7C15 & (2**64 - 1)


def test_random_stream_k_state_is_seed_xor_k_times_constant() -> None:
    assert stream_state(42, 0) == 42
    assert stream_state(0, 1) == 0xD1B54A32D192ED03
    assert stream_state(2**64 - 1, 2) == (2**64 - 1) ^ (2 * 0xD1B54A32D192ED03 & (2**64 - 1))


# First 10 cards of the draw pile and the dealer after new_game. Rows and the 9 cards per
# seat dealt before come from the same stream-0 deck, so n players see the vector's
# n0-player draw pile minus its first 9 * (n - n0) cards (see the vector test below).
DRAW_TOPS: dict[tuple[int, int], tuple[int, str]] = {
    (0, 2): (
        1,
        "reed_warbler reed_warbler duck reed_warbler owl magpie reed_warbler reed_warbler robin reed_warbler",  # noqa: E501
    ),
    (0, 3): (
        0,
        "reed_warbler flamingo reed_warbler magpie robin reed_warbler reed_warbler reed_warbler robin owl",  # noqa: E501
    ),
    (0, 5): (0, "flamingo owl toucan flamingo robin magpie magpie owl toucan parrot"),
    (42, 2): (
        0,
        "toucan reed_warbler reed_warbler owl duck reed_warbler robin toucan toucan reed_warbler",
    ),
    (42, 3): (
        2,
        "reed_warbler reed_warbler owl magpie parrot parrot toucan reed_warbler duck parrot",
    ),
    (42, 4): (0, "parrot parrot reed_warbler robin robin reed_warbler magpie magpie duck owl"),
    (2**64 - 1, 2): (1, "parrot owl duck parrot toucan toucan magpie magpie parrot toucan"),
    (2**64 - 1, 4): (
        1,
        "reed_warbler magpie robin parrot duck magpie owl robin reed_warbler owl",
    ),
    (2**64 - 1, 5): (0, "owl robin magpie duck robin robin robin magpie robin parrot"),
}


@pytest.mark.parametrize(("seed", "num_players"), list(DRAW_TOPS))
def test_new_game_draw_pile_top_and_dealer_known_answers(seed: int, num_players: int) -> None:
    dealer, top = DRAW_TOPS[seed, num_players]
    state = cr.new_game(cr.GameOptions(num_players=num_players), seed)
    assert state.draw_pile[:10] == cards(top)
    assert state.dealer == state.current_player == dealer


@pytest.mark.parametrize(
    ("vector", "vector_players"),
    [("setup-0-2p", 2), ("setup-42-3p", 3), ("setup-18446744073709551615-5p", 5)],
)
def test_draw_pile_known_answers_agree_with_shared_vectors(
    vector: str, vector_players: int
) -> None:
    doc = json.loads((DATA / "vectors" / "v2" / f"{vector}.json").read_text())
    seed = doc["seed"]
    pile = doc["state"]["draw_pile"]
    checked = 0
    for (s, n), (dealer, top) in DRAW_TOPS.items():
        if s != seed or n < vector_players:
            continue
        assert pile[9 * (n - vector_players) :][:10] == top.split()
        if n == vector_players:
            assert doc["state"]["dealer"] == dealer
        checked += 1
    assert checked >= 1


def test_why_illegal_is_none_exactly_for_the_legal_actions_and_matches_apply() -> None:
    every = [cr.action_from_id(i) for i in range(cr.actions.NUM_DISTINCT_ACTIONS)]
    codes: set[str] = set()
    for seed in range(6):
        state = cr.new_game(cr.GameOptions(num_players=2 + seed % 4), seed)
        rng = random.Random(seed)
        while not state.is_over:
            legal = cr.legal_actions(state)
            view = cr.observe(state, state.current_player)
            for action in every:
                reason = why_illegal(state, action)
                assert (reason is None) == (action in legal)
                assert why_illegal(view, action) == reason
                if reason is None:
                    continue
                codes.add(reason.code)
                with pytest.raises(cr.IllegalActionError) as raised:
                    cr.apply(state, action)
                if reason.code == "flock_size":
                    assert isinstance(action, cr.FlyHome)
                    assert reason.held == state.hands[state.current_player][action.species.index]
                    assert f"needs {reason.needed} cards" in str(raised.value)
                if reason.code == "not_held":
                    assert isinstance(action, cr.Lay)
                    assert f"holds no {action.species.value}" in str(raised.value)
            state = cr.apply(state, rng.choice(legal))
    assert codes == {"lay_first", "not_held", "draw_or_pass", "flock_size", "flock_or_pass"}
    over = why_illegal(state, cr.Pass())
    assert over == IllegalReason("over")
    assert why_illegal(cr.new_game(cr.GameOptions(num_players=2), 1), "pass") == (
        IllegalReason("not_an_action")
    )
