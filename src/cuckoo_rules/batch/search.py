"""The batch kernels a search runs: determinized deals and greedy rollouts on every core.

This is what :class:`~cuckoo_rules.bots.expert.ExpertBot` asks of the batch simulator
(the kernels themselves are private to :mod:`cuckoo_rules.batch`). A game is a row of
:data:`WIDTH` ``int16`` values, as :func:`~cuckoo_rules.batch.state_row` makes it; the
hand of seat ``p`` is ``row[HANDS + p * NUM_SPECIES:][:NUM_SPECIES]``.

- :func:`determinize_rows` deals a view's hidden cards into many rows at once, as
  :func:`~cuckoo_rules.determinization.determinize` deals them from the same seeds;
- :func:`search_rollouts` plays candidate actions on from those rows with the greedy
  bot's choices and scores each rollout for one seat;
- :func:`scratch` makes the bots' working space those kernels are given;
- :class:`Deals` sets up :func:`determinize_rows` for one view and deals its rows, as
  the expert's search and the game review do.
"""

from __future__ import annotations

import numpy as np

from ..determinization import deal_plan, determinize
from ..knowledge import Knowledge
from ..state import DECK_COUNTS
from ..views import PlayerView
from ._drivers import scratch
from ._layout import HANDS, NUM_SPECIES, WIDTH
from ._rows import state_row
from ._search import determinize_rows, search_rollouts
from .threads import kernel_turn

__all__ = [
    "HANDS",
    "MAX_DRAWS",
    "NUM_SPECIES",
    "WIDTH",
    "Deals",
    "determinize_rows",
    "scratch",
    "search_rollouts",
]

MAX_DRAWS = 32
"""Uniform draws per determinization before the card-by-card deal, where the view's deal
plan sets no number of its own (:func:`~cuckoo_rules.determinization.deal_plan`)."""


class Deals:
    """Determinizations of one view, dealt in the kernels as ``determinize`` deals them.

    Built once per view (the template row, the pool of unseen cards and the plan's
    arrays), then :meth:`rows` deals any number of seeds: row ``d`` is
    ``state_row(determinize(view, seeds[d], knowledge=knowledge, max_draws=MAX_DRAWS))``.

    Args:
        view: The view whose hidden cards are dealt.
        knowledge: What the viewer's history proves, or ``None``.

    Example:
        >>> from cuckoo_rules import GameOptions, new_game, observe
        >>> view = observe(new_game(GameOptions(num_players=2), seed=1), 0)
        >>> Deals(view, None).rows(np.array([7, 8], dtype=np.uint64)).shape == (2, WIDTH)
        True
    """

    def __init__(self, view: PlayerView, knowledge: Knowledge | None) -> None:
        self.view = view
        self.knowledge = knowledge
        plan = deal_plan(view, knowledge)
        n = view.num_players
        template = state_row(determinize(view, 0, knowledge=knowledge, max_draws=0))
        for seat in range(n):  # the known cards of each hand; the kernels deal the rest
            if seat != view.viewer:
                start = HANDS + seat * NUM_SPECIES
                template[start : start + NUM_SPECIES] = view.known_hands[seat]
        limits = plan.limits if plan.limits is not None else (DECK_COUNTS,) * n
        draws = MAX_DRAWS if plan.max_draws is None else plan.max_draws
        seats = np.full(n, -1, dtype=np.int64)
        seats[: len(plan.seats)] = plan.seats
        flags = [plan.limits is not None, plan.need_flock, view.current_player]
        self.template = template
        self.pool = np.array([card.index for card in plan.pool], dtype=np.int16)
        self.deal = (
            np.array(plan.hidden, dtype=np.int64),
            seats,
            np.array(limits, dtype=np.int64),
            np.array(plan.known_discards, dtype=np.int64),
            np.array([*flags, view.draw_pile_size, draws], dtype=np.int64),
        )

    def rows(self, seeds: np.ndarray) -> np.ndarray:
        """One state row per seed (``uint64``), a new ``int16`` array of ``WIDTH`` columns.

        A deal whose rejection draws all fail is dealt by ``determinize`` itself, card
        by card, from the same seed.
        """
        rows = np.zeros((len(seeds), WIDTH), dtype=np.int16)
        shuffles = np.zeros(len(seeds), dtype=np.int64)
        with kernel_turn():
            determinize_rows(rows, seeds, shuffles, self.template, self.pool, self.deal)
        for d in np.flatnonzero(shuffles < 0):  # every rejection draw failed: the fallback
            state = determinize(
                self.view, int(seeds[d]), knowledge=self.knowledge, max_draws=MAX_DRAWS
            )
            rows[d] = state_row(state)
        return rows
