"""The numeric observation encoding: its documented layout, its values, and what it hides."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cuckoo_rules as cr
from cuckoo_rules.preview import captured_by
from tests.games import random_game
from tests.secrecy.test_views import perturb, reachable_states, sample_states, viewers

PHASES = [cr.Phase.LAY, cr.Phase.DRAW, cr.Phase.FLOCK, cr.Phase.GAME_OVER]


def field(obs: tuple[int, ...], players: int, name: str) -> list[int]:
    f = cr.observation.observation_field(players, name)
    return list(obs[f.offset : f.offset + f.size])


@pytest.mark.parametrize("players", range(cr.options.MIN_PLAYERS, cr.options.MAX_PLAYERS + 1))
def test_layout_is_contiguous_and_matches_the_size(players: int) -> None:
    layout = cr.observation.observation_layout(players)
    offset = 0
    for f in layout:
        assert f.offset == offset, f.name
        assert f.size > 0
        assert f.description
        offset += f.size
    assert offset == cr.observation.observation_size(players) == 122 + 19 * players
    assert len({f.name for f in layout}) == len(layout)
    assert len(layout) == 5 + 4 * cr.actions.NUM_ROWS + 5 * players


def test_documented_offsets() -> None:
    """The offsets quoted in the module docstring's table (for two players)."""
    expected = {
        "phase": 0,
        "hand": 4,
        "unseen": 12,
        "draw_pile_size": 20,
        "discard_pile_size": 21,
        "row[0].length": 22,
        "row[0].count": 23,
        "row[0].capture_left": 31,
        "row[0].capture_right": 39,
        "row[3].length": 97,
        "seat[0].to_act": 122,
        "seat[0].winner": 123,
        "seat[0].hand_size": 124,
        "seat[0].known_hand": 125,
        "seat[0].collection": 133,
        "seat[1].to_act": 141,
    }
    assert {name: cr.observation.observation_field(2, name).offset for name in expected} == expected


def check_encoding(view: cr.PlayerView) -> None:
    """Decode ``view``'s vector field by field and compare it with the view itself."""
    players = view.num_players
    obs = cr.observation.encode_observation(view)
    assert len(obs) == cr.observation.observation_size(players)
    assert all(type(x) is int and 0 <= x <= cr.cards.DECK_SIZE for x in obs)
    assert field(obs, players, "phase") == [int(view.phase is p) for p in PHASES]
    hand = view.hand if view.hand is not None else (0,) * cr.cards.NUM_SPECIES
    assert field(obs, players, "hand") == list(hand)
    assert field(obs, players, "unseen") == list(cr.views.unseen_cards(view))
    assert field(obs, players, "draw_pile_size") == [view.draw_pile_size]
    assert field(obs, players, "discard_pile_size") == [view.discard_pile_size]
    for r, row in enumerate(view.rows):
        counts = Counter(row)
        assert field(obs, players, f"row[{r}].length") == [len(row)]
        assert field(obs, players, f"row[{r}].count") == [counts[s] for s in cr.SPECIES]
        for side in cr.Side:
            captures = [len(captured_by(row, s, side) or ()) for s in cr.SPECIES]
            assert field(obs, players, f"row[{r}].capture_{side.value}") == captures
    me = 0 if view.viewer is None else view.viewer
    for k in range(players):
        seat = (me + k) % players
        to_act = seat == view.current_player and not view.is_over
        assert field(obs, players, f"seat[{k}].to_act") == [int(to_act)]
        assert field(obs, players, f"seat[{k}].winner") == [int(seat in view.winners)]
        assert field(obs, players, f"seat[{k}].hand_size") == [view.hand_sizes[seat]]
        assert field(obs, players, f"seat[{k}].known_hand") == list(view.known_hands[seat])
        assert field(obs, players, f"seat[{k}].collection") == list(view.collections[seat])


@given(reachable_states())
def test_every_field_says_what_the_layout_says(state: cr.GameState) -> None:
    for viewer in viewers(state):
        check_encoding(cr.observe(state, viewer))


def test_finished_games_are_encoded() -> None:
    finished = [s for s in sample_states(60, seed=3, low=150) if s.is_over]
    rng = random.Random(5)
    for _ in range(20):
        options = cr.GameOptions(num_players=rng.randint(2, 5))
        finished.append(random_game(options, rng.randrange(2**64), rng=rng).final)
    for state in finished:
        for viewer in viewers(state):
            view = cr.observe(state, viewer)
            check_encoding(view)
            obs = cr.observation.encode_observation(view)
            assert field(obs, state.num_players, "phase") == [0, 0, 0, 1]
            wins = sum(
                field(obs, state.num_players, f"seat[{k}].winner")[0]
                for k in range(state.num_players)
            )
            assert wins == len(state.winners) > 0


@given(reachable_states(), st.integers(0, 2**32 - 1))
def test_moving_hidden_cards_never_changes_the_vector(state: cr.GameState, seed: int) -> None:
    rng = random.Random(seed)
    for viewer in viewers(state):
        moved = perturb(state, viewer, rng)
        assert cr.observation.encode_observation(
            cr.observe(moved, viewer)
        ) == cr.observation.encode_observation(cr.observe(state, viewer))


def test_seats_are_relative_to_the_viewer() -> None:
    state = sample_states(1, seed=11, low=40)[0]
    players = state.num_players
    for viewer in range(players):
        obs = cr.observation.encode_observation(cr.observe(state, viewer))
        assert field(obs, players, "seat[0].collection") == list(state.collections[viewer])
        assert field(obs, players, "seat[0].hand_size") == [sum(state.hands[viewer])]
        nxt = (viewer + 1) % players
        assert field(obs, players, "seat[1].collection") == list(state.collections[nxt])


def test_different_hands_give_different_vectors() -> None:
    """The encoding is not blind: two seats' views of one deal differ (their hands do)."""
    state = cr.new_game(cr.GameOptions(num_players=2), seed=1)
    assert state.hands[0] != state.hands[1]
    assert cr.observation.encode_observation(
        cr.observe(state, 0)
    ) != cr.observation.encode_observation(cr.observe(state, 1))


def test_bad_arguments_raise_clear_errors() -> None:
    with pytest.raises(cr.ViewError, match="expected a PlayerView, got GameState"):
        cr.observation.encode_observation(cr.new_game(cr.GameOptions(num_players=2), seed=1))  # type: ignore[arg-type]
    for bad in (1, 6):  # the messages of GameOptions(num_players=...)
        with pytest.raises(cr.InvalidOptionsError, match=rf"^num_players: {bad} is not in 2\.\.5$"):
            cr.observation.observation_size(bad)
    for wrong in (True, 2.0):
        with pytest.raises(cr.InvalidOptionsError, match=r"^num_players: expected an integer"):
            cr.observation.observation_size(wrong)  # type: ignore[arg-type]
    with pytest.raises(KeyError, match="no observation field called 'hands'"):
        cr.observation.observation_field(2, "hands")
