"""Hypothesis strategies shared by the property tests."""

from __future__ import annotations

import hypothesis.strategies as st

import cuckoo_rules as cr
from cuckoo_rules.options import option_info

OPTIONS = st.builds(
    cr.GameOptions,
    **{info.name: st.sampled_from(info.values) for info in option_info()},
)
"""Game options over every allowed value of every field."""

SEEDS = st.integers(0, 2**64 - 1)
"""Game seeds over the whole range."""
