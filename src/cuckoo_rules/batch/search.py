"""The batch kernels a search runs: determinized deals and greedy rollouts on every core.

This is what :class:`~cuckoo_rules.bots.expert.ExpertBot` asks of the batch simulator
(the kernels themselves are private to :mod:`cuckoo_rules.batch`). A game is a row of
:data:`WIDTH` ``int16`` values, as :func:`~cuckoo_rules.batch.state_row` makes it; the
hand of seat ``p`` is ``row[HANDS + p * NUM_SPECIES:][:NUM_SPECIES]``.

- :func:`determinize_rows` deals a view's hidden cards into many rows at once, as
  :func:`~cuckoo_rules.determinization.determinize` deals them from the same seeds;
- :func:`search_rollouts` plays candidate actions on from those rows with the greedy
  bot's choices and scores each rollout for one seat;
- :func:`scratch` makes the bots' working space those kernels are given.
"""

from __future__ import annotations

from ._drivers import scratch
from ._layout import HANDS, NUM_SPECIES, WIDTH
from ._search import determinize_rows, search_rollouts

__all__ = ["HANDS", "NUM_SPECIES", "WIDTH", "determinize_rows", "scratch", "search_rollouts"]
