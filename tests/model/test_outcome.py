"""How a game ends: ``state.outcome`` and ``view.outcome`` agree with the engine's GameOver."""

from __future__ import annotations

from hypothesis import given

import cuckoo_rules as cr
from cuckoo_rules.outcome import has_won, most_cards_winners, win_reason, winner_shares
from tests.games import RandomGame
from tests.strategies import WHOLE_GAMES, random_games


@WHOLE_GAMES
@given(random_games())
def test_the_outcome_is_the_game_over_event(game: RandomGame) -> None:
    options = game.options
    for step in game.steps():
        assert step.before.outcome is None
        assert cr.observe(step.before, None).outcome is None
    state, events = step.after, step.events
    (over,) = [e for e in events if isinstance(e, cr.events.GameOver)]
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


def test_win_progress_counts_species_triples_and_cards() -> None:
    from cuckoo_rules.outcome import WinProgress, win_progress

    assert win_progress((0,) * 8) == WinProgress(species=0, triples=0, cards=0)
    assert win_progress((3, 1, 0, 0, 0, 0, 0, 4)) == WinProgress(species=3, triples=2, cards=8)
    assert win_progress((2, 2, 1, 1, 1, 1, 1, 0)) == WinProgress(species=7, triples=0, cards=9)


def test_no_winners_share_nothing_and_shared_wins_split_equally() -> None:
    assert winner_shares((), 3) == (0.0, 0.0, 0.0)
    assert winner_shares((1,), 2) == (0.0, 1.0)
    assert winner_shares((0, 1, 3), 4) == (1 / 3, 1 / 3, 0.0, 1 / 3)
