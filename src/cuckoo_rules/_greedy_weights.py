"""The greedy heuristic's weights and default parameters, stated once.

:class:`~cuckoo_rules.bots.GreedyBot` (:mod:`cuckoo_rules.bots.greedy`) and the batch
simulator's greedy bot (``cuckoo_rules.batch._greedy``, which must score exactly as it
does) both read them here: this module sits below the bots and the batch simulator and
imports nothing, so the bot needs neither NumPy nor numba for them. The rules' numbers
the heuristic uses (the winning collections, the flock sizes, the cards of the optional
draw) are the model's (:mod:`cuckoo_rules.outcome`, :mod:`cuckoo_rules.cards`,
:mod:`cuckoo_rules.decisions`), not these.

A weight is used as written in expressions that both bots evaluate in the same order,
so that their floating-point scores agree to the last bit: change one here and both
change.
"""

from __future__ import annotations

__all__ = [
    "BIG_FLOCK_SHARE",
    "BIRDS_PER_FLOCK",
    "DEFAULT_END_ROUND_THRESHOLD",
    "DEFAULT_FEED_WEIGHT",
    "DISCARD_PENALTY",
    "FAR_ROUTE_POINTS",
    "FLOCK_HAND_SHARE",
    "HELD_FLOCK_SHARE",
    "NEAR_ROUTE_POINTS",
    "PARTIAL_FLOCK_SHARE",
    "ROUND_END_POINTS",
    "TIE_TOLERANCE",
    "WIN_VALUE",
]

WIN_VALUE = 1000.0
"""The collection value of a winning collection."""

BIRDS_PER_FLOCK = 1.6
"""The birds a flock is taken to bring home, to count the two-triples route in flocks."""

NEAR_ROUTE_POINTS = 10.0
"""Points a collection loses per flock it still needs on its nearer route to a win."""

FAR_ROUTE_POINTS = 2.0
"""Points a collection loses per flock it still needs on its farther route to a win."""

HELD_FLOCK_SHARE = 0.8
"""The share of what flying a flock home would add that a hand holding the flock is worth."""

BIG_FLOCK_SHARE = 0.2
"""The share of the step from a small flock to a big one that a hand earns on the way."""

PARTIAL_FLOCK_SHARE = 0.5
"""The share of a one-bird flock's value, times ``(held / small flock) ** 2``, that a
partial flock is worth."""

ROUND_END_POINTS = 0.5
"""Points per card the other players lose when a lay empties the hand and ends the round."""

FLOCK_HAND_SHARE = 0.3
"""The weight of the change in hand value when a flock is scored (the collection's counts
in full)."""

DISCARD_PENALTY = 0.01
"""Points lost per bird a flock discards instead of sending home (the tie-break)."""

TIE_TOLERANCE = 1e-9
"""Actions scoring within this of the best are tied; the bot's generator picks one."""

DEFAULT_FEED_WEIGHT = 1.0
"""The default ``feed_weight`` of :class:`~cuckoo_rules.bots.GreedyBot`."""

DEFAULT_END_ROUND_THRESHOLD = 3
"""The default ``end_round_threshold`` of :class:`~cuckoo_rules.bots.GreedyBot`."""
