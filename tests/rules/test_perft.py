"""Perft: the number of distinct legal action sequences from fixed starting states.

As with chess move generators, these counts pin the whole of ``legal_actions`` and
``apply`` over the first few plies (captures, refills, draws, flock prompts and the
change of player) in one number each. They were computed once with the engine and
checked by hand at depths 1 and 2 (see the comments and the two breakdown tests).
A change of any count means the rules changed: find out why before updating it.
"""

from __future__ import annotations

from typing import Any

import pytest

import cuckoo_rules as cr


def perft(state: cr.GameState, depth: int) -> int:
    """Count the legal action sequences of exactly ``depth`` actions from ``state``."""
    if depth == 0:
        return 1
    actions = cr.legal_actions(state)
    assert len(set(actions)) == len(actions), "legal actions must be distinct"
    if depth == 1:
        return len(actions)
    return sum(perft(cr.apply(state, action), depth - 1) for action in actions)


NON_DEFAULT: dict[str, Any] = {
    "num_players": 5,
    "optional_draw_if_adjacent": False,
    "round_end_timing": "immediate",
    "always_prompt_flock": True,
    "next_round_first_player": "left_of_round_ender",
    "exhaustion_counts_discard": False,
}

# (seed, options) -> counts at depth 1, 2, 3, ...
PERFT: list[tuple[int, dict[str, Any], tuple[int, ...]]] = [
    # Seat 1 holds 6 species: 48 lays. 9 of them capture (and make no flock), so seat 0,
    # holding 4 species, lays next: 9 * 32; the other 39 lead to Draw/Pass: 39 * 2.
    (0, {"num_players": 2}, (48, 366, 7446)),
    (42, {"num_players": 3}, (40, 512, 8528)),
    (7, {"num_players": 4}, (40, 422, 3468, 23088)),
    (2**64 - 1, {"num_players": 5}, (40, 422, 5708)),
    (
        123456789,
        {"num_players": 3, "initial_row_length": 4, "setup_duplicates_to": "draw_pile"},
        (48, 666, 3260),
    ),
    # Seat 4 holds 4 species: 32 lays. With always_prompt_flock and no draw after an
    # adjacent lay, 22 lays of an absent species offer Draw/Pass and the 10 others
    # prompt a flock with Pass only: 22 * 2 + 10 * 1 = 54.
    (2026, NON_DEFAULT, (32, 54, 364, 1958)),
]


@pytest.mark.parametrize(
    ("seed", "options", "expected"),
    PERFT,
    ids=[
        f"seed{seed}-{options['num_players']}p" + ("-variants" if len(options) > 1 else "")
        for seed, options, _ in PERFT
    ],
)
def test_perft(seed: int, options: dict[str, Any], expected: tuple[int, ...]) -> None:
    state = cr.new_game(cr.GameOptions(**options), seed)
    species_in_hand = sum(1 for n in state.hands[state.current_player] if n)
    assert expected[0] == 8 * species_in_hand
    assert tuple(perft(state, depth) for depth in range(1, len(expected) + 1)) == expected


def _captures(row: cr.state.Row, species: cr.Species, side: cr.Side) -> bool:
    """Whether laying ``species`` at ``side`` of ``row`` takes cards (rules §3.1)."""
    end = row[0] if side is cr.Side.LEFT else row[-1]
    return species in row and end is not species


def test_perft_depth_2_breakdown_default_rules() -> None:
    # Every capture from this start leaves no flock in hand, so it passes the turn.
    state = cr.new_game(cr.GameOptions(num_players=2), seed=0)
    player = state.current_player
    next_lays = 8 * sum(1 for n in state.hands[1 - player] if n)
    expected = 0
    for lay in cr.legal_actions(state):
        assert isinstance(lay, cr.Lay)
        captures = _captures(state.rows[lay.row], lay.species, lay.side)
        expected += next_lays if captures else 2
    assert expected == 366
    assert perft(state, 2) == expected


def test_perft_depth_2_breakdown_always_prompt_flock_no_adjacent_draw() -> None:
    state = cr.new_game(cr.GameOptions(**NON_DEFAULT), seed=2026)
    expected = 0
    for lay in cr.legal_actions(state):
        assert isinstance(lay, cr.Lay)
        absent = lay.species not in state.rows[lay.row]
        expected += 2 if absent else 1
    assert expected == 54
    assert perft(state, 2) == expected
