"""Hypothesis strategies shared by the property tests."""

from __future__ import annotations

import hypothesis.strategies as st

import cuckoo_rules as cr
from cuckoo_rules.options import option_info
from tests.games import RandomGame

OPTIONS = st.builds(
    cr.GameOptions,
    **{info.name: st.sampled_from(info.values) for info in option_info()},
)
"""Game options over every allowed value of every field."""

SEEDS = st.integers(0, 2**64 - 1)
"""Game seeds over the whole range."""

RNG_SEEDS = st.integers(0, 2**32 - 1)
"""Seeds of the generator that chooses the actions of a random game."""


def random_games(
    options: st.SearchStrategy[cr.GameOptions] = OPTIONS,
    *,
    max_actions: int | None = None,
) -> st.SearchStrategy[RandomGame]:
    """Random games (:class:`tests.games.RandomGame`) under ``options``, any seed.

    The options, the seed and the chooser's seed are drawn (and shrunk) as three
    separate values; the game is played only when the test asks for its steps.
    """
    return st.builds(RandomGame, options, SEEDS, RNG_SEEDS, st.just(max_actions))
