"""Bots that play CuBirds, and tournaments between them.

- :class:`Bot`: the protocol, ``choose(view) -> Action``
  (:class:`cuckoo_rules.match.Bot`). Bots are given the acting seat's
  :class:`~cuckoo_rules.PlayerView`, never the state, and each owns a
  :class:`random.Random` seeded from its own ``seed``. A bot that follows the history
  (:class:`IsmctsBot`, for what it proves beyond the view) has the hook
  ``inform(view, events)``, which a :class:`~cuckoo_rules.Match` calls after each
  action; :func:`play_game`, tournaments, the terminal game, the web server and the
  Gymnasium environment all play on a match.
- :class:`RandomBot`, :class:`GreedyBot` (a one-ply heuristic, see
  :mod:`cuckoo_rules.bots.greedy`) and :class:`IsmctsBot` (Information Set Monte Carlo
  Tree Search, see :mod:`cuckoo_rules.bots.ismcts`).
- :class:`~cuckoo_rules.bots.expert.ExpertBot` (spec ``expert``, in the ``batch``
  extra, so imported from :mod:`cuckoo_rules.bots.expert`): determinized Monte Carlo
  search in the batch simulator's kernels, and :func:`~cuckoo_rules.bots.expert.hint`,
  its best moves for a person.
- :func:`~cuckoo_rules.bots.review.review` (in the ``batch`` extra): the expert's
  review of a recorded game, each decision's cost and each seat's chance move by move
  (:class:`GameReview`, :class:`DecisionReview`, :func:`encode_review`,
  :func:`decode_review`, loaded when first used; the function itself is imported from
  :mod:`cuckoo_rules.bots.review`, the module of the same name).
- :func:`play_game`: play one game between bots; :class:`PlayedGame` holds its record,
  winners, turns and rounds.
- :func:`run_tournament`: many games with the seats rotated, in parallel on worker
  processes or any :class:`concurrent.futures.Executor` (a dask cluster included), see
  :mod:`cuckoo_rules.bots.tournament`.
- Bot specifications such as ``"ismcts:iterations=300"``: :func:`parse_bot_spec`,
  :func:`make_bot`, :data:`BOT_KINDS`; every parameter's type and range is a
  :class:`BotParameter` (see :mod:`cuckoo_rules.bots.parameters`), checked by the
  specifications and the bots' constructors alike.
- :func:`fit_elo`: Elo ratings with intervals from tournaments (see
  :mod:`cuckoo_rules.bots.ratings` and ``benchmarks/ladder.py``).

Strength, measured with ``python benchmarks/strength.py --workers 2 --seed 1`` on a
2-core AMD EPYC machine (CPython 3.11); a victory shared by ``k`` players counts ``1/k``,
the intervals are 95% Wilson intervals:

========================================  =======  =======  =============  ===========
match                                     players  games    measured bot   wins (95% CI)
========================================  =======  =======  =============  ===========
greedy against random                     2        400      greedy         99.8% (98.6-100.0)
ismcts (default budget) against greedy    2        200      ismcts         85.5% (80.0-89.7)
one ismcts among three greedy             4        200      ismcts         40.0% (33.5-46.9)
========================================  =======  =======  =============  ===========

The default budget of :class:`IsmctsBot` (800 iterations) took, in one process, a mean
of 0.11 s per decision (at most 0.14 s) with 2 players and 0.13 s (at most 0.18 s) with
4 players on that machine. The two-player bot uses its seat's knowledge (83.0% without).
"""

import importlib
from typing import TYPE_CHECKING

from ..preview import captured_by
from .base import (
    Bot,
    BotError,
    BotSpecError,
    RandomBot,
    check_view,
)
from .greedy import WIN_VALUE, GreedyBot, collection_value, hand_value, potential_table
from .ismcts import DEFAULT_ITERATIONS, IsmctsBot, rollout_action
from .parameters import BotParameter
from .play import DEFAULT_MAX_TURNS, PlayedGame, play_game
from .ratings import (
    INTERVAL_METHODS,
    RATING_MODELS,
    IntervalMethod,
    PairResult,
    RatedGame,
    Rating,
    RatingModel,
    fit_elo,
    pairwise_results,
    rated_games,
)
from .specs import BOT_KINDS, BotKind, BotSpec, make_bot, parse_bot_spec, parse_bot_specs
from .tournament import (
    EntrantResult,
    TournamentGame,
    TournamentResult,
    derive_seed,
    entrant_labels,
    play_tournament_game,
    run_tournament,
    seating,
    wilson_interval,
)

if TYPE_CHECKING:  # loaded when first used (__getattr__): they need the batch extra
    from .review import (
        DEFAULT_REVIEW_SIMULATIONS,
        DecisionReview,
        GameReview,
        decode_review,
        encode_review,
    )

_REVIEW_NAMES = (
    "DEFAULT_REVIEW_SIMULATIONS",
    "DecisionReview",
    "GameReview",
    "decode_review",
    "encode_review",
)

__all__ = [
    "BOT_KINDS",
    "DEFAULT_ITERATIONS",
    "DEFAULT_MAX_TURNS",
    "DEFAULT_REVIEW_SIMULATIONS",
    "INTERVAL_METHODS",
    "RATING_MODELS",
    "WIN_VALUE",
    "Bot",
    "BotError",
    "BotKind",
    "BotParameter",
    "BotSpec",
    "BotSpecError",
    "DecisionReview",
    "EntrantResult",
    "GameReview",
    "GreedyBot",
    "IntervalMethod",
    "IsmctsBot",
    "PairResult",
    "PlayedGame",
    "RandomBot",
    "RatedGame",
    "Rating",
    "RatingModel",
    "TournamentGame",
    "TournamentResult",
    "captured_by",
    "check_view",
    "collection_value",
    "decode_review",
    "derive_seed",
    "encode_review",
    "entrant_labels",
    "fit_elo",
    "hand_value",
    "make_bot",
    "pairwise_results",
    "parse_bot_spec",
    "parse_bot_specs",
    "play_game",
    "play_tournament_game",
    "potential_table",
    "rated_games",
    "rollout_action",
    "run_tournament",
    "seating",
    "wilson_interval",
]


def __getattr__(name: str) -> object:
    """The review's names, from :mod:`cuckoo_rules.bots.review` when first read.

    Raises:
        AttributeError: If ``name`` is not a name of this package.
        ModuleNotFoundError: For a review name without the ``batch`` extra.
    """
    if name in _REVIEW_NAMES:
        value = getattr(importlib.import_module(f"{__name__}.review"), name)
        globals()[name] = value  # read once
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
