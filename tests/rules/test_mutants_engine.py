"""Rule examples for the engine's rarely reached paths (issue 31: each answers a mutant).

Random games almost never reach these: a round that ends in the turn of a refill, one
transition that takes cards twice across a reshuffle (a refill, then the next round's
deal), the set-up running out of cards while it builds the rows (rules §2.2), and a
malformed state given to ``apply`` or ``step``. Each test builds its state as a rule
example and says exactly what the rules give; the shuffled piles are worked out with the
reference shuffle written from ``interchange.md`` §2 (:mod:`tests.builders`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import attrs
import hypothesis.strategies as st
import pytest
from hypothesis import example, given, settings

import cuckoo_rules as cr
import cuckoo_rules.engine._setup as engine_setup
from cuckoo_rules.rng import shuffle as real_shuffle
from tests.builders import build, counts, reference_shuffle
from tests.strategies import SEEDS

S = cr.Species
ZERO: cr.Counts = (0,) * len(cr.SPECIES)
HAND = 8

# A same-species lay on a dry row refills it (rules §3.1, refill_trigger), and the lay
# that empties the hand ends the round at once: the refill and the round's end fall in
# one transition.
DRY_ROW_ROUND_END = {"refill_trigger": "same_species_lay", "round_end_timing": "immediate"}
# The same with the end of the round at the end of the turn, the draw not being offered
# after an adjacent lay (optional_draw_if_adjacent false): the lay goes to the flock
# check, which ends the turn and with it the round.
DRY_ROW_TURN_END = {
    "refill_trigger": "same_species_lay",
    "optional_draw_if_adjacent": False,
}


def tally(cards: Sequence[cr.Species]) -> cr.Counts:
    """The counts of ``cards``."""
    out = [0] * len(cr.SPECIES)
    for card in cards:
        out[card.index] += 1
    return tuple(out)


def deal_from(
    cards: Sequence[cr.Species], offset: int, n: int, dealer: int
) -> tuple[cr.Counts, ...]:
    """The hands that ``cards``, dealt from card ``offset`` of a deal on, add to each seat.

    Eight cards to each seat in turn, starting with the dealer (rules §2.3, §4.3).
    """
    hands = [[0] * len(cr.SPECIES) for _ in range(n)]
    for i, card in enumerate(cards, offset):
        hands[(dealer + i // HAND) % n][card.index] += 1
    return tuple(tuple(h) for h in hands)


def pile_of(multiset: dict[str, int]) -> list[cr.Species]:
    """The cards of a multiset (``reference_shuffle`` lays them out in species order)."""
    return [cr.Species(name) for name, n in multiset.items() for _ in range(n)]


# --------------------------------------------------------------------------- §4.2 after a refill


def dry_row_state(options: dict[str, Any], discard: int) -> cr.GameState:
    """Seat 0 lays its last parrot on the dry parrot row; the refill takes three cards.

    Before the lay the piles and seat 1's hand hold 5 + ``discard`` + 3 cards; the
    refill takes ``parrot parrot robin`` from the draw pile, which leaves ``discard`` + 5.
    """
    return build(
        options=options,
        rows=("parrot parrot", "duck owl", "robin toucan", ""),
        draw_pile="parrot parrot robin owl duck",
        discard_pile={"magpie": discard},
        hands=[{"parrot": 1}, {"toucan": 3}],
        collections=[{"owl": 2}, {"duck": 1}],
        rest="row3",
    )


@pytest.mark.parametrize("options", [DRY_ROW_ROUND_END, DRY_ROW_TURN_END])
def test_the_cards_a_refill_took_are_gone_when_the_round_end_counts_them(
    options: dict[str, Any],
) -> None:
    # Rules §4.2: after the refill 2 + 10 + 3 = 15 cards are left, fewer than 8 x 2: the
    # game ends. Counting the whole draw pile as it was before the refill (18 cards) would
    # deal hands of 8 and 7 instead.
    state = dry_row_state(options, discard=10)
    lay = cr.Lay(S.PARROT, 0, cr.Side.RIGHT)
    after, events = cr.step(state, lay)
    assert after.rows[0] == (S.PARROT,) * 5 + (S.ROBIN,)
    assert after.phase is cr.Phase.GAME_OVER
    assert after.winners == (0,)
    assert after.round == state.round
    assert after.hands == (ZERO, ZERO)
    assert len(after.draw_pile) + sum(after.discard_pile) == 15
    assert events[-1] == cr.events.GameOver((0,), "most_cards")
    assert not any(isinstance(e, cr.events.Dealt) for e in events)


@pytest.mark.parametrize("options", [DRY_ROW_ROUND_END, DRY_ROW_TURN_END])
def test_a_round_ended_after_a_refill_is_dealt_when_exactly_enough_cards_are_left(
    options: dict[str, Any],
) -> None:
    # 2 + 11 + 3 = 16 cards are left after the refill: exactly two hands, so a new round.
    state = dry_row_state(options, discard=11)
    after = cr.apply(state, cr.Lay(S.PARROT, 0, cr.Side.RIGHT))
    assert after.phase is cr.Phase.LAY
    assert after.round == state.round + 1
    assert [sum(hand) for hand in after.hands] == [8, 8]
    assert after.draw_pile == ()
    assert sum(after.discard_pile) == 0


def test_the_draw_pile_alone_counts_after_a_refill_when_the_discard_pile_does_not() -> None:
    # exhaustion_counts_discard false: 18 cards in the draw pile, the refill takes 3, and
    # 15 are too few to deal (the discard pile's 20 cards do not count).
    options = {**DRY_ROW_ROUND_END, "exhaustion_counts_discard": False}
    state = build(
        options=options,
        rows=("parrot parrot", "duck owl", "robin toucan", ""),
        draw_pile="parrot parrot robin " + "magpie " * 15,
        discard_pile={"reed_warbler": 20},
        hands=[{"parrot": 1}, {"toucan": 3}],
        collections=[{"owl": 1}, {"duck": 2}],
        rest="row3",
    )
    after = cr.apply(state, cr.Lay(S.PARROT, 0, cr.Side.RIGHT))
    assert after.phase is cr.Phase.GAME_OVER
    assert after.winners == (1,)
    assert len(after.draw_pile) == 15


# --------------------------------------------------------------------------- events of two takes


def two_takes_state(discard: dict[str, int], hands: Sequence[dict[str, int]]) -> cr.GameState:
    """Seat 1 of 3 lays its last parrot on a dry row; the draw pile holds one parrot.

    The refill takes that parrot, reshuffles the discard pile (no parrot in it) and takes
    its first card; the round ends (``round_end_timing = "immediate"``) and seat 1 deals.
    """
    return build(
        num_players=3,
        options=DRY_ROW_ROUND_END,
        seed=2026,
        shuffles=3,
        current_player=1,
        dealer=2,
        rows=("parrot parrot", "flamingo duck", "robin toucan", ""),
        draw_pile="parrot",
        discard_pile=discard,
        hands=[hands[0], {"parrot": 1}, hands[1]],
        rest="row3",
    )


def test_a_refill_and_the_next_deal_across_two_reshuffles_are_reported_per_pile() -> None:
    # The refill empties the draw pile and reshuffles the discard pile (13 cards, stream
    # 3); the deal takes its 12 cards left, then the discarded hands (13 cards, stream 4)
    # are reshuffled for the last 12 cards: two Dealt events around the second Reshuffled,
    # split where the second pile begins, and no Reshuffled repeated from the refill.
    discard = {"owl": 4, "toucan": 4, "duck": 5}
    held = [{"magpie": 6}, {"robin": 4, "reed_warbler": 3}]
    state = two_takes_state(discard, held)
    after, events = cr.step(state, cr.Lay(S.PARROT, 0, cr.Side.RIGHT))

    first_pile = reference_shuffle(pile_of(discard), 2026, 3)
    refill = first_pile[0]
    hands_discarded = (state.hands[0], ZERO, state.hands[2])
    second_pile = reference_shuffle(
        [s for s in cr.SPECIES for h in hands_discarded for _ in range(h[s.index])], 2026, 4
    )
    dealt_first, dealt_second = first_pile[1:], second_pile[:12]
    assert events == (
        cr.events.Laid(1, S.PARROT, 1, 0, cr.Side.RIGHT),
        cr.events.RowRefilled(0, (S.PARROT,)),
        cr.events.Reshuffled(13),
        cr.events.RowRefilled(0, (refill,)),
        cr.events.TurnEnded(1),
        cr.events.RoundEnded(1, 1, (6, 0, 7), hands_discarded, (ZERO, ZERO, ZERO)),
        cr.events.Dealt(2, 1, (0, 8, 4), deal_from(dealt_first, 0, 3, 1)),
        cr.events.Reshuffled(13),
        cr.events.Dealt(2, 1, (8, 0, 4), deal_from(dealt_second, 12, 3, 1)),
        cr.events.TurnStarted(1, 2),
    )
    assert after.rows[0] == (S.PARROT, S.PARROT, S.PARROT, S.PARROT, refill)
    assert after.shuffles == 5
    assert after.draw_pile == tuple(second_pile[12:])
    for seat in range(3):
        parts = [e.hands[seat] for e in events if isinstance(e, cr.events.Dealt)]
        assert after.hands[seat] == tuple(map(sum, zip(*parts, strict=True)))


def test_a_deal_after_a_reshuffling_refill_in_the_same_turn_is_one_event() -> None:
    # The refill's reshuffle leaves 30 cards: the deal takes 24 of them, one Dealt event,
    # and the Reshuffled of the refill is not reported a second time before it.
    discard = {"owl": 9, "toucan": 9, "duck": 12, "magpie": 1}
    state = two_takes_state(discard, [{"magpie": 2}, {"robin": 3}])
    after, events = cr.step(state, cr.Lay(S.PARROT, 0, cr.Side.RIGHT))
    pile = reference_shuffle(pile_of(discard), 2026, 3)
    assert [type(e) for e in events] == [
        cr.events.Laid,
        cr.events.RowRefilled,
        cr.events.Reshuffled,
        cr.events.RowRefilled,
        cr.events.TurnEnded,
        cr.events.RoundEnded,
        cr.events.Dealt,
        cr.events.TurnStarted,
    ]
    assert events[2] == cr.events.Reshuffled(31)
    assert events[3] == cr.events.RowRefilled(0, (pile[0],))
    assert events[6] == cr.events.Dealt(2, 1, (8, 8, 8), deal_from(pile[1:25], 0, 3, 1))
    assert after.hands == events[6].hands
    assert after.draw_pile == tuple(pile[25:])
    assert after.discard_pile == counts({"magpie": 2, "robin": 3})


# --------------------------------------------------------------------------- §2.2 rows run out


def sorted_deck_setup(options: cr.GameOptions, seed: int) -> cr.GameState:
    """``new_game`` on an unshuffled deck: the absurd order that runs out in row 4.

    The first shuffle leaves the deck in canonical order (and gives the random state the
    real one gives, so the dealer is chosen as usual); later shuffles are the real ones.
    """

    def unshuffled(items: list[cr.Species], seed: int, k: int) -> int:
        if k:
            return real_shuffle(items, seed, k)
        return real_shuffle(list(items), seed, k)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(engine_setup, "shuffle", unshuffled)
        return cr.new_game(options, seed)


def expected_sorted_deck_setup(seed: int, n: int, to_draw_pile: bool) -> dict[str, Any]:
    """Rules §2 on the canonical deck, written from the rulebook.

    Rows 1 to 3 are ``flamingo owl toucan``, ``toucan duck parrot`` and ``parrot magpie
    reed_warbler``; row 4 has ``reed_warbler robin`` when the deck runs out with 99 cards
    set aside. They are shuffled (stream 1) into a new draw pile, and row 4 takes its
    third card from it, setting aside reed warblers and robins.
    """
    set_aside: list[cr.Species] = []
    in_rows = {S.FLAMINGO: 1, S.OWL: 1, S.TOUCAN: 2, S.DUCK: 1, S.PARROT: 2, S.MAGPIE: 1}
    in_rows |= {S.REED_WARBLER: 2, S.ROBIN: 1}
    for s in cr.SPECIES:
        set_aside += [s] * (s.copies - in_rows[s])
    assert len(set_aside) == 99
    pile = reference_shuffle(set_aside, seed, 1)
    later_aside: list[cr.Species] = []
    while pile[0] in (S.REED_WARBLER, S.ROBIN):
        later_aside.append(pile.pop(0))
    third = pile.pop(0)
    shuffles = 2
    if to_draw_pile and later_aside:
        pile = reference_shuffle([*pile, *later_aside], seed, 2)
        later_aside, shuffles = [], 3
    return {
        "rows": (
            (S.FLAMINGO, S.OWL, S.TOUCAN),
            (S.TOUCAN, S.DUCK, S.PARROT),
            (S.PARROT, S.MAGPIE, S.REED_WARBLER),
            (S.REED_WARBLER, S.ROBIN, third),
        ),
        "pile": pile,
        "discard": tally(later_aside),
        "shuffles": shuffles,
    }


# Seed 7: row 4's third card is the new pile's first; seed 17: two robins are set aside
# after the reshuffle first; seed 1: a reed warbler and a robin.
@example(n=2, seed=7)
@example(n=3, seed=17)
@example(n=5, seed=1)
@settings(max_examples=25)
@given(n=st.integers(2, 5), seed=SEEDS)
def test_rows_that_run_out_of_cards_reshuffle_the_set_aside_cards(n: int, seed: int) -> None:
    # Rules §2.2: the cards set aside so far are shuffled into a new draw pile, as in §5;
    # then the hands and the collections are dealt from it as usual.
    options = cr.GameOptions(num_players=n)
    state = sorted_deck_setup(options, seed)
    expected = expected_sorted_deck_setup(seed, n, to_draw_pile=False)
    assert state.rows == expected["rows"]
    assert state.shuffles == expected["shuffles"]
    assert state.discard_pile == expected["discard"]
    pile = expected["pile"]
    dealer = cr.new_game(options, seed).dealer
    assert (state.dealer, state.current_player) == (dealer, dealer)
    assert state.hands == deal_from(pile[: HAND * n], 0, n, dealer)
    collections = [ZERO] * n
    for k in range(n):
        collections[(dealer + k) % n] = tally([pile[HAND * n + k]])
    assert state.collections == tuple(collections)
    assert state.draw_pile == tuple(pile[HAND * n + n :])
    assert cr.decode_state(cr.encode_state(state)) == state  # 110 cards, a valid state


@pytest.mark.parametrize(("seed", "later"), [(17, counts(robin=2)), (7, ZERO)])
def test_rows_that_run_out_put_the_later_duplicates_back_into_the_draw_pile(
    seed: int, later: cr.Counts
) -> None:
    # setup_duplicates_to "draw_pile": only the cards set aside after the reshuffle are
    # left to put back, with one more shuffle (the earlier ones are the new draw pile
    # already); with none left to put back the pile is not shuffled again.
    options = cr.GameOptions(num_players=2, setup_duplicates_to="draw_pile")
    state = sorted_deck_setup(options, seed)
    assert expected_sorted_deck_setup(seed, 2, to_draw_pile=False)["discard"] == later
    expected = expected_sorted_deck_setup(seed, 2, to_draw_pile=True)
    assert state.rows == expected["rows"]
    assert state.shuffles == expected["shuffles"] == (3 if any(later) else 2)
    assert state.discard_pile == ZERO
    pile = expected["pile"]
    assert state.hands == deal_from(pile[: 2 * HAND], 0, 2, state.dealer)
    assert state.draw_pile == tuple(pile[2 * HAND + 2 :])


# --------------------------------------------------------------------------- malformed states


@pytest.mark.parametrize("function", [cr.apply, cr.step])
def test_a_malformed_state_raises_and_never_returns_none(function: Any) -> None:
    # A GameState whose options are missing fails on the attribute it lacks: apply and
    # step re-raise the error (they check that the argument is a state, then raise).
    state = cr.new_game(cr.GameOptions(num_players=2), seed=1)
    broken = attrs.evolve(state, options=None)  # type: ignore[arg-type]
    action = cr.legal_actions(state)[0]
    with pytest.raises(AttributeError):
        function(broken, action)


# --------------------------------------------------------------------------- the action mask


def test_the_action_mask_marks_exactly_the_legal_actions_of_a_state_and_its_view() -> None:
    """Along a whole game: one flag per action id, true for the legal ones only."""
    rng = random.Random(5)
    state = cr.new_game(cr.GameOptions(num_players=3), 5)
    seen = 0
    while not state.is_over:
        legal = cr.legal_actions(state)
        ids = {cr.action_id(action) for action in legal}
        mask = cr.legal_action_mask(state)
        assert len(mask) == cr.NUM_DISTINCT_ACTIONS == 74
        assert {i for i, ok in enumerate(mask) if ok} == ids
        assert cr.legal_action_mask(cr.observe(state, state.current_player)) == mask
        seen += 1
        state = cr.apply(state, rng.choice(legal))
    assert seen > 50
    assert cr.legal_action_mask(state) == (False,) * 74  # nothing is legal once it is over


def test_a_view_that_does_not_act_is_told_whose_turn_it_is() -> None:
    state = cr.new_game(cr.GameOptions(num_players=3), 5)
    acting = state.current_player
    other = (acting + 1) % 3
    for viewer, who in ((None, "a spectator"), (other, f"player {other}")):
        with pytest.raises(cr.ViewError) as info:
            cr.legal_actions(cr.observe(state, viewer))
        assert str(info.value) == (
            f"the view of {who} does not show the legal actions: player {acting} is to act"
        )


def test_a_reshuffle_refuses_a_discard_pile_that_is_not_eight_counts() -> None:
    """A malformed (hand-built) discard pile is not cut to eight species when reshuffled."""
    state = build(
        phase="draw",
        hands=[{"owl": 2}, {"duck": 2}],
        discard_pile={"robin": 3},
        rest="discard_pile",
    )
    assert not state.draw_pile  # the draw reshuffles the discard pile
    drawn = cr.apply(state, cr.Draw())
    assert sum(drawn.hands[0]) == 4
    malformed = attrs.evolve(state, discard_pile=(*state.discard_pile, 1))
    with pytest.raises(ValueError, match="zip"):
        cr.apply(malformed, cr.Draw())
