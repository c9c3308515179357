"""Rule examples for ``preview``'s rarely reached decisions (issue 31: each answers a mutant).

With ``refill_trigger = "same_species_lay"`` a lay next to birds of its own species on a
row left with one species (a dry row: a refill ran out of cards, rules §5) refills the
row and still offers the optional draw. Whether the draw is then offered depends on the
piles keeping a card after the refill: sure when they hold at least two cards more than
the unseen birds of the row's species, otherwise known to a state and unknowable from a
view (``draw_offered is None``). Random games almost never reach these lines.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

import cuckoo_rules as cr
from cuckoo_rules.preview import preview
from cuckoo_rules.views import unseen_cards
from tests.builders import build

S = cr.Species
SAME_SPECIES = {"refill_trigger": "same_species_lay"}
LAY_ON_DRY_ROW = cr.Lay(S.PARROT, 0, cr.Side.RIGHT)


def dry_row(
    draw_pile: str, discard: Mapping[str, int] | None = None, hand1: Mapping[str, int] | None = None
) -> cr.GameState:
    """Seat 0 holds a parrot and an owl; row 0 is a dry row of two parrots.

    Every card not placed lies face up in row 3, so the unseen parrots are those in the
    piles and in seat 1's hand.
    """
    return build(
        options=SAME_SPECIES,
        rows=("parrot parrot", "duck owl", "robin toucan", ""),
        draw_pile=draw_pile,
        discard_pile=discard or {},
        hands=[{"parrot": 1, "owl": 1}, hand1 or {"duck": 2}],
        rest="row3",
    )


def previews(state: cr.GameState, action: cr.Action) -> tuple[Any, Any, bool]:
    """The draw offered as the state and the acting seat's view preview it, and in fact."""
    after = cr.apply(state, action)
    from_state = preview(state, action)
    from_view = preview(cr.observe(state, state.current_player), action)
    assert from_state.refilled == from_view.refilled
    return from_state.draw_offered, from_view.draw_offered, after.phase is cr.Phase.DRAW


def unseen_parrots(state: cr.GameState) -> int:
    return unseen_cards(cr.observe(state, 0))[S.PARROT.index]


@pytest.mark.parametrize(
    ("state", "offered"),
    [
        # The refill takes parrot, parrot, owl: the piles are empty, no draw.
        (dry_row("parrot parrot owl"), False),
        # The refill takes parrot, owl and leaves the duck: the draw is offered, but from
        # seat 0's view the parrot in seat 1's hand could have been the duck (3 < 2 + 2).
        (dry_row("parrot owl duck", hand1={"parrot": 1}), True),
        # The discard pile counts: parrot, reshuffle, owl; nothing is left.
        (dry_row("parrot", discard={"owl": 1}), False),
    ],
)
def test_a_refill_that_may_empty_the_piles_is_known_to_the_state_not_to_the_view(
    state: cr.GameState, offered: bool
) -> None:
    assert unseen_parrots(state) + 2 > len(state.draw_pile) + sum(state.discard_pile)
    from_state, from_view, actual = previews(state, LAY_ON_DRY_ROW)
    assert actual is offered
    assert from_state is offered
    assert from_view is None


@pytest.mark.parametrize(
    "state",
    [
        # One unseen parrot and three cards: at least two others, one is left.
        dry_row("parrot owl duck"),
        # The same with the piles split: the discard pile's cards count.
        dry_row("parrot", discard={"owl": 1, "duck": 1}),
        # An empty draw pile: the refill reshuffles the discard pile first.
        dry_row("", discard={"parrot": 1, "owl": 1, "duck": 1}),
    ],
)
def test_a_refill_that_surely_leaves_a_card_offers_the_draw_even_from_the_view(
    state: cr.GameState,
) -> None:
    # Exactly two cards more than the unseen parrots: the refill stops at the first other
    # card and the second stays, so the view knows the draw is offered.
    assert unseen_parrots(state) + 2 == len(state.draw_pile) + sum(state.discard_pile)
    assert previews(state, LAY_ON_DRY_ROW) == (True, True, True)
    assert preview(cr.observe(state, 0), LAY_ON_DRY_ROW).refilled


def test_an_adjacent_lay_without_refill_offers_the_draw_whatever_the_piles_hold() -> None:
    # Default refill trigger: the lay next to the parrot takes nothing and refills
    # nothing, so the draw is offered while a pile holds a card, unseen birds or not.
    state = build(
        rows=("parrot owl", "duck owl", "robin toucan", ""),
        draw_pile="parrot parrot owl",
        hands=[{"parrot": 1, "owl": 1}, {"parrot": 9, "duck": 2}],
        rest="row3",
    )
    assert len(state.draw_pile) < unseen_parrots(state)
    assert previews(state, cr.Lay(S.PARROT, 0, cr.Side.LEFT)) == (True, True, True)


def test_a_capture_that_refills_never_offers_the_draw_whatever_the_piles_hold() -> None:
    state = build(
        rows=("parrot owl", "duck owl", "robin toucan", ""),
        draw_pile="parrot parrot owl",
        hands=[{"parrot": 1, "owl": 1}, {"parrot": 9, "duck": 2}],
        rest="row3",
    )
    lay = cr.Lay(S.PARROT, 0, cr.Side.RIGHT)
    assert preview(state, lay).captured == (S.OWL,)
    assert previews(state, lay) == (False, False, False)
    assert preview(cr.observe(state, 0), lay).refilled


@pytest.mark.parametrize(("draw_pile", "refilled"), [("", False), ("owl", True), ("parrot", True)])
def test_a_dry_row_is_refilled_while_a_pile_holds_a_card(draw_pile: str, refilled: bool) -> None:
    # Rules §5: the refill takes what there is; with both piles empty nothing happens and
    # the draw is not offered. One card is enough for a refill (and then none is left).
    state = dry_row(draw_pile)
    _, events = cr.step(state, LAY_ON_DRY_ROW)
    assert any(isinstance(e, cr.events.RowRefilled) for e in events) is refilled
    for seen in (state, cr.observe(state, 0)):
        assert preview(seen, LAY_ON_DRY_ROW).refilled is refilled
    from_state, _, offered = previews(state, LAY_ON_DRY_ROW)
    assert (from_state, offered) == (False, False)


@pytest.mark.parametrize("draw_pile", ["owl", "parrot"])
def test_a_view_knows_that_a_refill_takes_the_only_card_left(draw_pile: str) -> None:
    # A refill takes at least one card, so with one card in the piles the draw is surely
    # not offered after it; ActionPreview documents None only for what unseen cards decide.
    state = dry_row(draw_pile)
    assert previews(state, LAY_ON_DRY_ROW) == (False, False, False)


@pytest.mark.parametrize(("timing", "offered"), [("end_of_turn", True), ("immediate", False)])
def test_a_lay_that_empties_the_hand_offers_the_draw_unless_the_round_ends_at_once(
    timing: str, offered: bool
) -> None:
    # Rules §3.3: with round_end_timing "immediate" the lay of the last birds in hand
    # (taking nothing) ends the round before the draw; at the end of the turn it does not.
    state = build(
        options={"round_end_timing": timing},
        hands=[{"robin": 2}, {"duck": 2}],
    )
    lay = cr.Lay(S.ROBIN, 1, cr.Side.LEFT)
    assert previews(state, lay) == (offered, offered, offered)
    other = build(options={"round_end_timing": timing}, hands=[{"robin": 2, "owl": 1}, {"duck": 2}])
    assert previews(other, lay) == (True, True, True)  # birds stay in hand: the draw
