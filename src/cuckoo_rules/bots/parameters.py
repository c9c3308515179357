"""The bots' parameters: each one's type, inclusive range and meaning, stated once.

Every parameter that a bot specification can set (``greedy:feed_weight=0.5``) is a
:class:`BotParameter` in one of the tables below, one per bot kind. The same tables are
read by the bots' constructors (:func:`check_parameters`, so that
``GreedyBot(feed_weight=float("nan"))`` is refused too), by
:func:`~cuckoo_rules.bots.specs.parse_bot_spec` through
:data:`~cuckoo_rules.bots.specs.BOT_KINDS`, by the batch simulator, and by the table of
parameters in the documentation (``scripts/make_bot_docs.py``). Every range is finite
and inclusive, chosen so that the bots' arithmetic cannot overflow or become NaN and a
decision cannot cost absurdly much; NaN and the infinities are never accepted.

They are defined in :mod:`cuckoo_rules.botspec`, the language of bot specifications
below the bots and the batch simulator, and importable from here as well. The module
needs neither NumPy nor numba, so the expert's parameters can be checked without the
``batch`` extra.
"""

from __future__ import annotations

from ..botspec import (
    EXPERT_PARAMETERS,
    GREEDY_PARAMETERS,
    ISMCTS_PARAMETERS,
    MAX_BUDGET,
    MAX_SECONDS,
    RANDOM_PARAMETERS,
    BotParameter,
    check_parameters,
)

__all__ = [
    "EXPERT_PARAMETERS",
    "GREEDY_PARAMETERS",
    "ISMCTS_PARAMETERS",
    "MAX_BUDGET",
    "MAX_SECONDS",
    "RANDOM_PARAMETERS",
    "BotParameter",
    "check_parameters",
]
