"""After the game: the expert's review of a recorded game, move by move.

:func:`review` replays a :class:`~cuckoo_rules.records.GameRecord` and asks the expert's
search (:class:`~cuckoo_rules.bots.expert.ExpertBot`) two things:

1. **Each decision of the chosen seats** (a position where the seat had two legal
   actions or more): the win chance of *every* legal action, estimated from what that
   seat knew then, its view (:func:`~cuckoo_rules.observe`) and what its own history
   proves (:class:`~cuckoo_rules.Knowledge`, followed from the events as that seat saw
   them, as :meth:`Match.knowledge <cuckoo_rules.Match.knowledge>` does), never from
   the hidden truth. The search is the expert's (``ExpertBot(width=0)``), over every
   legal action and kept to one round (as many finalists as actions): every action is
   played ``simulations`` times, on the same determinizations (the same cards and the
   same luck), so the move played and the best move are measured alike and their
   difference is measured, not their luck. (The expert's sequential halving would give
   the actions it drops early fewer simulations; the move played is often one of them.)
   The :class:`DecisionReview` holds every estimate, best first, and the *cost*: how
   much chance of winning the move played gave up against the best one found.
2. **Each seat's chance before every move**, for a chart, estimated from a spectator's
   knowledge only: the public view (:func:`~cuckoo_rules.observe` with ``None``) and
   what the public history proves. Every hidden card, the hands of all seats included,
   is dealt anew (:func:`~cuckoo_rules.determinize`, in the kernels) on each of
   :func:`chart_determinizations` deals; on each, the seat to act plays the greedy
   bot's choice from its own view of the deal, then every seat plays on as the
   expert's rollouts do (the greedy bot's choices) to the end of the game. A seat's
   chance is its mean share of the victory (a victory shared by ``w`` seats counts
   ``1/w``). The chance after the last move of a finished game is its result.

Both are estimates from partial knowledge with a finite budget: a chance says how well a
seat stood as far as that seat (or a spectator) could tell, not what the hidden cards
had in store, and a small cost may be noise. Each position is searched with seeds
derived from ``(seed, move)``, so a review is the same for the same record, seed and
budget, whatever order the positions are searched in. The positions are searched one
after the other: each kernel call already runs its rollouts on every core, and a pool of
threads over the positions measured slower on a 2-core machine (``docs/review.md``).

It needs the ``batch`` extra (NumPy and numba), like the expert.

Example:
    >>> from cuckoo_rules import GameOptions
    >>> from cuckoo_rules.bots import GreedyBot, RandomBot, play_game
    >>> game = play_game(GameOptions(num_players=2), 3, [GreedyBot(seed=1), RandomBot(seed=2)])
    >>> result = review(game.record, simulations=8, seats=[1])
    >>> result.moves == len(game.record.actions), len(result.chances) == result.moves + 1
    (True, True)
    >>> {d.seat for d in result.decisions}, result.average_cost(1) >= 0
    ({1}, True)
    >>> decode_review(encode_review(result)) == result
    True
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import attrs

from ..actions import NUM_DISTINCT_ACTIONS, Action, action_id
from ..botspec import MAX_BUDGET
from ..codec import decode_action, decode_options, encode_action
from ..codec.fields import array, fail, int_in, keys, mapping
from ..engine import legal_actions
from ..errors import DecodeError, needs_extra, short_repr
from ..events import GameStarted, visible_events
from ..knowledge import Knowledge, learn
from ..options import GameOptions
from ..records import GameRecord, replay_steps
from ..rng import SEED_LIMIT
from ..state import GameState
from ..views import observe
from .base import BotError
from .expert import VALUE_WEIGHTS, ActionEstimate, ExpertBot
from .greedy import GreedyBot
from .tournament import derive_seed

try:
    import numba
    import numpy as np

    from ..batch import options_array
    from ..batch.search import HANDS, NUM_SPECIES, Deals, scratch, search_rollouts
    from ..batch.threads import kernel_turn
except ModuleNotFoundError as error:  # pragma: no cover - depends on the environment
    raise needs_extra(__name__, "batch", error) from error

__all__ = [
    "DEFAULT_REVIEW_SIMULATIONS",
    "MAX_REVIEW_SIMULATIONS",
    "REVIEW_FORMAT",
    "REVIEW_VERSION",
    "DecisionReview",
    "GameReview",
    "chart_determinizations",
    "decode_review",
    "encode_review",
    "review",
]

DEFAULT_REVIEW_SIMULATIONS = 300
"""The default budget of :func:`review`: the simulations of each legal action of a decision.

A whole two-player game of 54 moves reviews in 6 s on a quiet 2-core machine (in about
a minute when other programs load its cores; see ``docs/review.md`` for the timings)."""

MAX_REVIEW_SIMULATIONS = MAX_BUDGET // NUM_DISTINCT_ACTIONS
"""The most simulations of each action a review takes (the expert's most per decision,
:data:`~cuckoo_rules.botspec.MAX_BUDGET`, over the most legal actions a decision can have)."""

REVIEW_FORMAT = "cuckoo-rules/review"
"""The ``format`` name of a review document (:func:`encode_review`)."""

REVIEW_VERSION = 1
"""The ``version`` of the review document this library writes and reads."""

_CHART_MOST = 128  # the chart's determinizations per position: the budget, at most this
_SEED_BITS = 64
_DECISION, _CHART = 0, 1  # the first step of a position's seed path
_KEYS = (
    "format",
    "version",
    "options",
    "players",
    "seats",
    "simulations",
    "seed",
    "moves",
    "chances",
    "decisions",
)
_DECISION_KEYS = (
    "move",
    "seat",
    "chosen",
    "chosen_chance",
    "best",
    "best_chance",
    "cost",
    "estimates",
)
_ESTIMATE_KEYS = ("action", "win_chance", "simulations")


@attrs.frozen
class DecisionReview:
    """The expert's judgement of one decision: every legal action's win chance.

    Attributes:
        move: The index in ``record.actions`` of the action the seat took (0-based).
        seat: The seat that decided.
        estimates: Every legal action's estimate, best first (see
            :meth:`ExpertBot.estimates <cuckoo_rules.bots.expert.ExpertBot.estimates>`:
            the actions the halving kept longest first, each group by its estimate;
            actions dropped early rest on fewer simulations).
        chosen: The action the seat took.
        chosen_chance: The chosen action's estimated win chance (its estimate's).
        best: The action the expert found best (``estimates[0].action``).
        best_chance: Its estimated win chance.
        cost: ``max(0.0, best_chance - chosen_chance)``: the chance of winning the move
            gave up, as far as the seat could tell.
    """

    move: int
    seat: int
    estimates: tuple[ActionEstimate, ...]
    chosen: Action
    chosen_chance: float
    best: Action
    best_chance: float
    cost: float


@attrs.frozen
class GameReview:
    """The review of a recorded game (see :func:`review`).

    Attributes:
        options: The game's options.
        players: One name per seat: the record's ``metadata.players``, else ``"P0"``,
            ``"P1"``...
        seats: The reviewed seats, in increasing order.
        simulations: The simulations of each legal action of a decision.
        seed: The seed the review's searches were derived from.
        moves: The number of actions in the record.
        decisions: The reviewed seats' decisions (two legal actions or more), in move
            order.
        chances: ``chances[k][seat]``: each seat's chance of winning before move ``k``,
            ``k = 0..moves``, estimated from a spectator's knowledge;
            ``chances[moves]`` is the result of a finished game (``1/w`` for each of
            ``w`` winners, 0 for the others).
    """

    options: GameOptions
    players: tuple[str, ...]
    seats: tuple[int, ...]
    simulations: int
    seed: int
    moves: int
    decisions: tuple[DecisionReview, ...]
    chances: tuple[tuple[float, ...], ...]

    def _seat(self, seat: object) -> int:
        if type(seat) is not int or not 0 <= seat < self.options.num_players:
            raise BotError(
                f"seat: expected a seat from 0 to {self.options.num_players - 1}, "
                f"got {short_repr(seat)}"
            )
        return seat

    def costliest(self, seat: int, count: int = 3) -> tuple[DecisionReview, ...]:
        """The seat's ``count`` costliest decisions: the biggest cost first, ties by move.

        Raises:
            BotError: If ``seat`` is not a seat of the game or ``count`` is negative.
        """
        self._seat(seat)
        if type(count) is not int or count < 0:
            raise BotError(f"count: expected an integer >= 0, got {short_repr(count)}")
        own = sorted((d for d in self.decisions if d.seat == seat), key=lambda d: (-d.cost, d.move))
        return tuple(own[:count])

    def average_cost(self, seat: int) -> float:
        """The mean cost of the seat's reviewed decisions (0.0 if it has none).

        Raises:
            BotError: If ``seat`` is not a seat of the game.
        """
        self._seat(seat)
        costs = [d.cost for d in self.decisions if d.seat == seat]
        return math.fsum(costs) / len(costs) if costs else 0.0


def chart_determinizations(simulations: int) -> int:
    """The deals a review's chart averages over at each position, for a budget.

    As many as each action of a decision gets, at most 128: enough for a chart (a
    chance's standard error is at most 0.5 over the square root of this).

    Example:
        >>> chart_determinizations(300), chart_determinizations(10)
        (128, 10)
    """
    return max(1, min(simulations, _CHART_MOST))


# --------------------------------------------------------------------------- the search


def _decision(
    move: int, state: GameState, knowledge: Knowledge, chosen: Action, simulations: int, seed: int
) -> DecisionReview:
    """Judge the decision before ``move`` from its seat's view and knowledge."""
    seat = state.current_player
    view = observe(state, seat)
    count = len(legal_actions(view))
    # Every action to the end: one round, every action played on the same deals.
    bot = ExpertBot(
        seed=derive_seed(seed, _DECISION, move), simulations=simulations * count, width=0
    )
    estimates = bot.estimates(view, knowledge, finalists=count)
    best = estimates[0]
    chosen_chance = next(e.win_chance for e in estimates if e.action == chosen)
    return DecisionReview(
        move,
        seat,
        estimates,
        chosen,
        chosen_chance,
        best.action,
        best.win_chance,
        max(0.0, best.win_chance - chosen_chance),
    )


def _threads() -> int:
    """The most threads a kernel can use (the per-thread scratch rows needed)."""
    config: Any = numba.config  # numba's own annotations do not cover its config
    return int(config.NUMBA_NUM_THREADS)


def _chances(
    move: int, state: GameState, knowledge: Knowledge, determinizations: int, seed: int
) -> tuple[float, ...]:
    """Each seat's chance before ``move``, from a spectator's view and knowledge."""
    view = observe(state, None)
    n = view.num_players
    rng = random.Random(derive_seed(seed, _CHART, move))
    seeds = np.array(
        [rng.getrandbits(_SEED_BITS) for _ in range(determinizations)], dtype=np.uint64
    )
    roots = Deals(view, knowledge).rows(seeds)
    # The seat to act plays the greedy bot's choice from its view of each deal: the
    # spectator's view with the hand dealt to it (the same hand, the same choice).
    greedy = GreedyBot(seed=rng.getrandbits(_SEED_BITS))
    acting = view.current_player
    hands = roots[:, HANDS + acting * NUM_SPECIES : HANDS + (acting + 1) * NUM_SPECIES]
    choices: dict[tuple[int, ...], int] = {}
    firsts: list[int] = []
    for row in hands.tolist():
        hand = tuple(row)
        if hand not in choices:
            seen = attrs.evolve(view, viewer=acting, hand=hand)
            choices[hand] = action_id(greedy.choose(seen))
        firsts.append(choices[hand])
    candidates = sorted(set(firsts))
    pairs = np.zeros((determinizations, 2), dtype=np.int64)
    pairs[:, 0] = np.arange(determinizations)
    pairs[:, 1] = [candidates.index(first) for first in firsts]
    opt = options_array(view.options)
    weights = np.array(VALUE_WEIGHTS[n], dtype=np.float64)
    tie_seed = np.uint64(rng.getrandbits(_SEED_BITS))
    work = scratch(_threads())
    ids = np.array(candidates, dtype=np.int64)
    chances: list[float] = []
    for seat in range(n - 1):  # the same rollouts for every seat: the last one's is the rest
        rewards = np.zeros(determinizations)
        with kernel_turn():
            search_rollouts(
                roots, seeds, opt, ids, pairs, seat, -1, weights, tie_seed, work, rewards
            )
        chances.append(float(rewards.mean()))
    chances.append(max(0.0, 1.0 - math.fsum(chances)))
    return tuple(chances)


def _result(state: GameState) -> tuple[float, ...]:
    winners = state.winners
    return tuple(
        1.0 / len(winners) if seat in winners else 0.0 for seat in range(state.options.num_players)
    )


# --------------------------------------------------------------------------- review


def _check_seats(seats: Iterable[int] | None, n: int) -> tuple[int, ...]:
    if seats is None:
        return tuple(range(n))
    if isinstance(seats, str | bytes) or not isinstance(seats, Iterable):
        raise BotError(f"seats: expected seats or None, got {short_repr(seats)}")
    chosen = tuple(seats)
    for seat in chosen:
        if type(seat) is not int or not 0 <= seat < n:
            raise BotError(f"seats: expected seats from 0 to {n - 1}, got {short_repr(seat)}")
    return tuple(sorted(set(chosen)))


def review(
    record: GameRecord,
    *,
    simulations: int = DEFAULT_REVIEW_SIMULATIONS,
    seats: Iterable[int] | None = None,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> GameReview:
    """Review a recorded game: each decision's cost and each seat's chance, move by move.

    See the module documentation for how the chances are estimated. The same record,
    seats, seed and budget give the same review, on any machine.

    Args:
        record: The game (finished or not: an unfinished game's last chances are
            estimated like the others).
        simulations: The simulations of each legal action of a decision (a decision
            with ``k`` legal actions costs ``k`` times this); the chart uses
            :func:`chart_determinizations` of it per position.
        seats: The seats whose decisions are reviewed (default: every seat). The chart
            covers every seat whatever this is.
        seed: Seeds the searches (an integer in ``[0, 2**64)``).
        progress: Called as ``progress(done, total)`` in the calling thread after each
            position is reviewed, ``total`` being ``moves + 1`` (the positions before
            each move and after the last).

    Returns:
        The review.

    Raises:
        BotError: If ``record`` is not a :class:`~cuckoo_rules.records.GameRecord`,
            ``simulations`` not an integer from 1 to :data:`MAX_REVIEW_SIMULATIONS`,
            ``seats`` not seats of the game,
            ``seed`` out of range or ``progress`` not callable.
        RecordError: If an action of the record is not legal (from
            :func:`~cuckoo_rules.records.replay_steps`).

    Example:
        >>> from cuckoo_rules import GameOptions, GameRecord
        >>> review(GameRecord(GameOptions(num_players=2), seed=1), simulations=0)
        Traceback (most recent call last):
        ...
        cuckoo_rules.errors.BotError: simulations: expected an integer from 1 to 13513, got 0
    """
    if not isinstance(record, GameRecord):
        raise BotError(f"record: expected a GameRecord, got {short_repr(record)}")
    if type(simulations) is not int or not 1 <= simulations <= MAX_REVIEW_SIMULATIONS:
        raise BotError(
            f"simulations: expected an integer from 1 to {MAX_REVIEW_SIMULATIONS}, "
            f"got {short_repr(simulations)}"
        )
    if type(seed) is not int or not 0 <= seed < SEED_LIMIT:
        raise BotError(f"seed: expected an integer in [0, 2**64), got {short_repr(seed)}")
    if progress is not None and not callable(progress):
        raise BotError(f"progress: expected a callable or None, got {short_repr(progress)}")
    n = record.options.num_players
    reviewed = _check_seats(seats, n)
    steps = list(replay_steps(record))  # raises RecordError at an illegal action
    states = [state for state, _ in steps]
    # What each seat (and a spectator, None) knows before each move, as Match.knowledge.
    viewers: list[int | None] = [*range(n), None]
    setup = (GameStarted.of(states[0]),)
    known = {v: learn(Knowledge.start(n), visible_events(setup, v), v) for v in viewers}
    knowledge: list[Mapping[int | None, Knowledge]] = [known]
    for _, events in steps[1:]:
        known = {v: learn(known[v], visible_events(events, v), v) for v in viewers}
        knowledge.append(known)
    moves = len(record.actions)
    deals = chart_determinizations(simulations)

    def position(move: int) -> tuple[tuple[float, ...], DecisionReview | None]:
        state = states[move]
        if move == moves and state.is_over:
            chances = _result(state)
        else:
            chances = _chances(move, state, knowledge[move][None], deals, seed)
        seat = state.current_player
        if move == moves or seat not in reviewed or len(legal_actions(state)) < 2:
            return chances, None
        chosen = record.actions[move]
        decision = _decision(move, state, knowledge[move][seat], chosen, simulations, seed)
        return chances, decision

    total = moves + 1
    results: list[tuple[tuple[float, ...], DecisionReview | None]] = []
    for move in range(total):  # each kernel call runs on every core already
        results.append(position(move))
        if progress is not None:
            progress(move + 1, total)
    chances = tuple(r[0] for r in results)
    decisions = tuple(r[1] for r in results if r[1] is not None)
    names = record.metadata.players
    players = names if names is not None else tuple(f"P{seat}" for seat in range(n))
    return GameReview(
        record.options, players, reviewed, simulations, seed, moves, decisions, chances
    )


# --------------------------------------------------------------------------- JSON


def _encode_decision(decision: DecisionReview) -> dict[str, Any]:
    return {
        "move": decision.move,
        "seat": decision.seat,
        "chosen": encode_action(decision.chosen),
        "chosen_chance": decision.chosen_chance,
        "best": encode_action(decision.best),
        "best_chance": decision.best_chance,
        "cost": decision.cost,
        "estimates": [
            {
                "action": encode_action(e.action),
                "win_chance": e.win_chance,
                "simulations": e.simulations,
            }
            for e in decision.estimates
        ],
    }


def encode_review(review: GameReview) -> dict[str, Any]:
    """Return the JSON document of a review (actions as in the interchange format).

    The keys, in this order: ``format`` (:data:`REVIEW_FORMAT`), ``version``
    (:data:`REVIEW_VERSION`), ``options`` (as in a record), ``players``, ``seats``,
    ``simulations``, ``seed``, ``moves``, ``chances`` (one array of chances per
    position) and ``decisions`` (each with ``move``, ``seat``, ``chosen``,
    ``chosen_chance``, ``best``, ``best_chance``, ``cost`` and ``estimates``, each
    estimate with ``action``, ``win_chance`` and ``simulations``).

    Raises:
        BotError: If ``review`` is not a :class:`GameReview`.
    """
    if not isinstance(review, GameReview):
        raise BotError(f"review: expected a GameReview, got {short_repr(review)}")
    return {
        "format": REVIEW_FORMAT,
        "version": REVIEW_VERSION,
        "options": review.options.to_json(),
        "players": list(review.players),
        "seats": list(review.seats),
        "simulations": review.simulations,
        "seed": review.seed,
        "moves": review.moves,
        "chances": [list(chances) for chances in review.chances],
        "decisions": [_encode_decision(decision) for decision in review.decisions],
    }


def _chance(value: object, path: str) -> float:
    """A number from 0 to 1 (an integer or a float, not a boolean)."""
    if type(value) not in (int, float):
        fail(path, f"expected a number, got {short_repr(value)}")
    number = float(value)  # type: ignore[arg-type]
    if not 0.0 <= number <= 1.0:
        fail(path, f"{short_repr(value)} is out of range (at least 0 and at most 1)")
    return number


def _action(value: object, path: str) -> Action:
    return decode_action(mapping(value, path), path)


def _decode_decision(data: object, path: str, n: int, moves: int) -> DecisionReview:
    doc = mapping(data, path)
    keys(doc, path, _DECISION_KEYS)
    estimates = []
    for i, item in enumerate(array(doc["estimates"], f"{path}.estimates")):
        where = f"{path}.estimates[{i}]"
        entry = mapping(item, where)
        keys(entry, where, _ESTIMATE_KEYS)
        estimates.append(
            ActionEstimate(
                _action(entry["action"], f"{where}.action"),
                _chance(entry["win_chance"], f"{where}.win_chance"),
                int_in(entry["simulations"], f"{where}.simulations", 0),
            )
        )
    if not estimates:
        fail(f"{path}.estimates", "a decision has at least one estimate")
    chosen = _action(doc["chosen"], f"{path}.chosen")
    if chosen not in [e.action for e in estimates]:
        fail(f"{path}.chosen", "the chosen action has no estimate")
    best = _action(doc["best"], f"{path}.best")
    if best != estimates[0].action:
        fail(f"{path}.best", "the best action is not the first estimate's")
    return DecisionReview(
        int_in(doc["move"], f"{path}.move", 0, moves - 1),
        int_in(doc["seat"], f"{path}.seat", 0, n - 1),
        tuple(estimates),
        chosen,
        _chance(doc["chosen_chance"], f"{path}.chosen_chance"),
        best,
        _chance(doc["best_chance"], f"{path}.best_chance"),
        _chance(doc["cost"], f"{path}.cost"),
    )


def decode_review(data: object) -> GameReview:
    """Read a review document (:func:`encode_review`), checking every field.

    Args:
        data: A decoded JSON object, as :func:`json.loads` returns it.

    Returns:
        The review; ``decode_review(encode_review(r)) == r``.

    Raises:
        DecodeError: If the document is malformed; the message names the field, for
            example ``"decisions[2].cost: 1.5 is out of range (at least 0 and at most 1)"``.

    Example:
        >>> decode_review({"format": "cuckoo-rules/review"})
        Traceback (most recent call last):
        ...
        cuckoo_rules.errors.DecodeError: review: missing key 'version'
    """
    doc = mapping(data, "review")
    keys(doc, "review", _KEYS)
    if doc["format"] != REVIEW_FORMAT:
        fail("format", f"expected {REVIEW_FORMAT!r}, got {short_repr(doc['format'])}")
    if doc["version"] != REVIEW_VERSION or type(doc["version"]) is not int:
        fail("version", f"expected {REVIEW_VERSION}, got {short_repr(doc['version'])}")
    options = decode_options(doc["options"])
    n = options.num_players
    players = array(doc["players"], "players")
    if len(players) != n:
        fail("players", f"expected {n} names (one per player), got {len(players)}")
    for i, name in enumerate(players):
        if not isinstance(name, str):
            fail(f"players[{i}]", f"expected a string, got {short_repr(name)}")
    seats = [int_in(s, f"seats[{i}]", 0, n - 1) for i, s in enumerate(array(doc["seats"], "seats"))]
    if seats != sorted(set(seats)):
        fail("seats", "seats must be distinct and in increasing order")
    simulations = int_in(doc["simulations"], "simulations", 1, MAX_REVIEW_SIMULATIONS)
    seed = int_in(doc["seed"], "seed", 0, SEED_LIMIT - 1)
    moves = int_in(doc["moves"], "moves", 0)
    rows = array(doc["chances"], "chances")
    if len(rows) != moves + 1:
        fail("chances", f"expected {moves + 1} positions (moves + 1), got {len(rows)}")
    chances = []
    for k, row in enumerate(rows):
        values = array(row, f"chances[{k}]")
        if len(values) != n:
            fail(f"chances[{k}]", f"expected {n} chances (one per player), got {len(values)}")
        chances.append(tuple(_chance(v, f"chances[{k}][{s}]") for s, v in enumerate(values)))
    decisions = tuple(
        _decode_decision(item, f"decisions[{i}]", n, moves)
        for i, item in enumerate(array(doc["decisions"], "decisions"))
    )
    if [d.move for d in decisions] != sorted({d.move for d in decisions}):
        fail("decisions", "decisions must be distinct moves, in move order")
    for i, decision in enumerate(decisions):
        if decision.seat not in seats:
            fail(f"decisions[{i}].seat", f"seat {decision.seat} is not among the reviewed seats")
    try:
        return GameReview(
            options, tuple(players), tuple(seats), simulations, seed, moves, decisions,
            tuple(chances),
        )  # fmt: skip
    except (TypeError, ValueError) as error:  # pragma: no cover - every field is checked above
        raise DecodeError(f"review: {error}") from None
