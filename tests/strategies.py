"""Hypothesis strategies shared by the property tests."""

from __future__ import annotations

import hypothesis.strategies as st
from hypothesis import settings

import cuckoo_rules as cr
from cuckoo_rules.options import option_info
from tests.games import RandomGame

OPTIONS = st.builds(
    cr.GameOptions,
    **{info.name: st.sampled_from(info.values) for info in option_info()},
)
"""Game options over every allowed value of every field."""

WHOLE_GAMES = settings(max_examples=max(10, settings().max_examples // 4))
"""The settings of a property of whole games (:func:`random_games`): a quarter of the
loaded profile's examples, at least 10.

One example is a whole game of about 150 actions, each checked (often from every seat,
or every legal action in each state): the ``ci`` profile's 200 examples would make
about 30,000 states a test, its 50 make 7,500 (derandomized: the same games in every
run). ``scripts/soak.sh``'s profile still plays 5,000 games a test.
"""

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
