"""How a game ends: ``state.outcome`` and ``view.outcome`` agree with the engine's GameOver."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

import cuckoo_rules as cr
from cuckoo_rules.outcome import has_won, most_cards_winners, win_reason, winner_shares
from tests.strategies import OPTIONS, SEEDS


@given(OPTIONS, SEEDS, st.integers(0, 2**32 - 1))
def test_the_outcome_is_the_game_over_event(options: cr.GameOptions, seed: int, play: int) -> None:
    rng = random.Random(play)
    state = cr.new_game(options, seed)
    while not state.is_over:
        assert state.outcome is None
        assert cr.observe(state, None).outcome is None
        state, events = cr.step(state, rng.choice(cr.legal_actions(state)))
    (over,) = [e for e in events if isinstance(e, cr.GameOver)]
    outcome = state.outcome
    assert outcome is not None
    assert outcome == cr.Outcome(
        over.winners, over.reason, winner_shares(over.winners, options.num_players)
    )
    assert abs(sum(outcome.shares) - 1.0) < 1e-9
    for viewer in [None, *range(options.num_players)]:
        assert cr.observe(state, viewer).outcome == outcome  # public facts only
    assert cr.decode_state(cr.encode_state(state)).outcome == outcome  # JSON keeps it


def test_a_collection_with_both_conditions_wins_by_its_seven_species() -> None:
    both = (3, 3, 1, 1, 1, 1, 1, 0)
    assert has_won(both)
    assert win_reason(both) == "seven_species"
    assert win_reason((3, 3, 0, 0, 0, 0, 0, 0)) == "two_triples"
    assert most_cards_winners([(1, 1), (2, 0), (0, 1)]) == (0, 1)
