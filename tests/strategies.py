"""Hypothesis strategies shared by the property tests."""

from __future__ import annotations

import hypothesis.strategies as st

import cuckoo_rules as cr

OPTIONS = st.builds(
    cr.GameOptions,
    num_players=st.integers(cr.MIN_PLAYERS, cr.MAX_PLAYERS),
    initial_row_length=st.sampled_from([3, 4]),
    setup_duplicates_to=st.sampled_from(["discard", "draw_pile"]),
    optional_draw_if_adjacent=st.booleans(),
    round_end_timing=st.sampled_from(["end_of_turn", "immediate"]),
    exhaustion_counts_discard=st.booleans(),
    next_round_first_player=st.sampled_from(["round_ender", "left_of_round_ender"]),
    always_prompt_flock=st.booleans(),
)
"""Game options over every allowed value of every field."""

SEEDS = st.integers(0, 2**64 - 1)
"""Game seeds over the whole range."""
