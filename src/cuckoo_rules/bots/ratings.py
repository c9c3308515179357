"""Elo ratings of bots from the games they played: Bradley-Terry by maximum likelihood.

A :class:`RatedGame` is what a rating needs of one game: the label of the bot at each
seat and the winning seats (:func:`rated_games` turns tournaments into rated games, so
games of different tournaments, and of different line-ups, can be rated together).
:func:`fit_elo` fits one strength per label and reports it on the Elo scale with a 95%
bootstrap interval, as a tuple of :class:`Rating`, best first.

**The model.** Each label ``i`` has a strength ``g_i = 10 ** (elo_i / 400)``. With the
default ``model="luce"``, the winner of a game is drawn with probability proportional
to strength (Luce's choice axiom, the Bradley-Terry model of a game of several
players, Hunter 2004, section 5): the bot at ``i`` wins a game among the set ``S`` with
probability ``g_i / sum(g_j for j in S)``. Two bots ``400`` Elo apart win ``10 : 1`` against
each other, and four equal bots win a quarter of the games each. A victory shared by
``k`` seats counts ``1/k`` of a victory to each co-winner (as the tournament runner
counts it): the likelihood of such a game is that of ``k`` games of weight ``1/k``, one
won by each co-winner. With two players this is exactly Bradley-Terry with a draw
counted as half a win.

With ``model="pairwise"``, each game is first split into its pairs
(:func:`pairwise_results`): every winner beats every non-winner, and two co-winners or
two non-winners draw; the pairs are then fitted by Bradley-Terry, draws as half wins.
That is the usual decomposition of a game of several players into games of two; it is
the same as the default with two players. With more, the draws between the losers pull
the ratings together, so it is offered to compare, not as the default: the winners are
all a tournament keeps of a game, and the choice model is the likelihood of exactly that.

**The prior.** A bot that won (or lost) every one of its games would get an infinite
maximum-likelihood rating, so every label also gets one virtual draw against a virtual
bot of strength ``g = 1`` (log-strength 0, which this pull makes the centre of the
ratings, so in effect the mean): half a virtual win, half a virtual loss. It
keeps every rating finite and moves the others by a tiny amount (less than one game's
worth). The maximum is then unique, found by Newton's method on the log-strengths
(the log-likelihood is strictly concave), and every label must meet every other
through a chain of games: otherwise the gap between two groups would be set by the
prior alone, and :func:`fit_elo` refuses.

**The scale.** The ratings are shifted so that the ``anchor`` label has ``anchor_elo``
(only differences are measured).

**The intervals.** They are 95% percentile intervals of a parametric bootstrap, as the
chess rating tool Ordo computes them: ``bootstrap`` times, every game is played again
from the fitted model (the same line-ups, the same seats), the ratings are fitted again
to the simulated games and anchored in the same way, and each label's interval runs
from the 2.5th to the 97.5th percentile of its refitted ratings. The random numbers come
from ``random.Random(seed)``, so the same games and seed give the same ratings. An interval
is relative to the anchor, whose own interval is its value.

How a game is played again depends on the model. With ``"luce"``, its one winner is
drawn among the seats with probability proportional to the fitted strengths, which is
the model's own account of a game. A shared victory of the data is played again as a
game with one winner: the model has no probability for sharing (its likelihood counts
a shared victory as fractions of single ones), shared victories are rare, and a single
winner scores the same on average with a little more spread, so this errs on the side
of wider intervals. With ``"pairwise"``, every pair of seats of a game is played again
as an independent game of two, won by either side with probability proportional to
strength (so no pair is drawn): that is the model the pairwise fit maximises, which
counts the pairs as independent games, so its refits centre on its estimate (and, like
the fit, the simulation ignores that the pairs of a game are played together). Drawing
one winner per table instead and splitting it into pairs would not: the losers' draws
would pull the refits towards the mean, away from the estimate. With two players the
two models draw the same games, and give the same intervals.

Played again from the model, a bot that won (or lost) every game can lose (or win)
some, so its interval has a width, stretching towards its opponents. Its other end stays
at or near its estimate, and both rest on the prior: the games put no bound on how much
stronger (or weaker) than its opponents it is. With ``interval="games"``, the older
non-parametric bootstrap, whole games are resampled with replacement within each
line-up instead (each set of labels at a table keeps its number of games); it makes no
use of the model, but a line-up whose games all went the same way resamples to itself,
so a bot that won or lost every game gets an interval of (nearly) no width, which
understates the uncertainty. Games that shared a deal (the rotated sets of a
tournament) are simulated, or resampled, as independent games, which, because the
rotation cancels part of the luck of the deal, errs on the side of wider intervals.
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Literal

import attrs

from ..outcome import winner_shares
from .base import BotError
from .tournament import TournamentResult

__all__ = [
    "INTERVAL_METHODS",
    "RATING_MODELS",
    "IntervalMethod",
    "PairResult",
    "RatedGame",
    "Rating",
    "RatingModel",
    "fit_elo",
    "pairwise_results",
    "rated_games",
]

RatingModel = Literal["luce", "pairwise"]
"""How :func:`fit_elo` reads a game: ``"luce"`` (who won among the table) or
``"pairwise"`` (every pair of seats as a game of two)."""

RATING_MODELS: tuple[RatingModel, ...] = ("luce", "pairwise")
"""The models :func:`fit_elo` accepts, the default first."""

IntervalMethod = Literal["model", "games"]
"""How :func:`fit_elo` draws its bootstrap replicates: ``"model"`` (every game played
again from the fitted strengths, a parametric bootstrap) or ``"games"`` (the games
resampled with replacement within each line-up)."""

INTERVAL_METHODS: tuple[IntervalMethod, ...] = ("model", "games")
"""The interval methods :func:`fit_elo` accepts, the default first."""

_ELO = 400.0 / math.log(10.0)
"""Elo points per unit of natural log-strength."""

_PRIOR_SCORE = 0.5
"""Each label's score in its one virtual game against the mean (a draw)."""


def _labels(value: object) -> tuple[str, ...]:
    items = () if isinstance(value, str | bytes) else _items(value)
    labels = tuple(item for item in items if isinstance(item, str))
    if len(labels) < 2 or len(labels) != len(items):
        raise BotError(f"labels: expected a sequence of two or more strings, got {value!r}")
    return labels


def _winners(value: object) -> tuple[int, ...]:
    items = _items(value)
    seats = tuple(item for item in items if type(item) is int)
    if (
        isinstance(value, str | bytes)
        or not isinstance(value, Iterable)
        or len(seats) != len(items)
    ):
        raise BotError(f"winners: expected a sequence of seats (integers), got {value!r}")
    return seats


def _items(value: object) -> tuple[object, ...]:
    return tuple(value) if isinstance(value, Iterable) else (value,)


@attrs.frozen
class RatedGame:
    """One game as a rating sees it: who sat at each seat, and who won.

    Attributes:
        labels: The label of the bot at each seat, in seat order (at least two, all
            different).
        winners: The winning seats, at least one (several for a shared victory).

    Raises:
        BotError: If the labels or the winners are not as described.

    Example:
        >>> RatedGame(("greedy", "random"), (0,)).winning_labels
        ('greedy',)
    """

    labels: tuple[str, ...] = attrs.field(converter=_labels)
    winners: tuple[int, ...] = attrs.field(converter=_winners)

    def __attrs_post_init__(self) -> None:
        labels, winners = self.labels, self.winners
        if len(set(labels)) != len(labels):
            raise BotError(
                f"labels: {labels!r} names a bot twice; give each entry its own label "
                "(as entrant_labels does: 'greedy#1', 'greedy#2')"
            )
        if (
            not winners
            or len(set(winners)) != len(winners)
            or not all(0 <= seat < len(labels) for seat in winners)
        ):
            raise BotError(
                f"winners: expected one or more different seats in [0, {len(labels)}), "
                f"got {winners!r}"
            )

    @property
    def winning_labels(self) -> tuple[str, ...]:
        """The labels of the winning seats, in seat order."""
        return tuple(label for seat, label in enumerate(self.labels) if seat in self.winners)


@attrs.frozen
class PairResult:
    """One pair of seats of a game, read as a game of two.

    Attributes:
        first: The label of the earlier seat.
        second: The label of the later seat.
        score: ``first``'s score: 1 if it won and ``second`` did not, 0 for the
            reverse, 0.5 if both won or both lost; ``second`` scores ``1 - score``.
    """

    first: str
    second: str
    score: float


@attrs.frozen
class Rating:
    """One label's rating on the Elo scale.

    Attributes:
        label: The bot's label.
        elo: Its rating: ``400 * log10`` of its fitted strength, shifted so that the
            anchor has its value.
        low: The low end of the 95% bootstrap interval (relative to the anchor).
        high: The high end of the 95% bootstrap interval.
        games: The games it played.
    """

    label: str
    elo: float
    low: float
    high: float
    games: int


def rated_games(*results: TournamentResult) -> tuple[RatedGame, ...]:
    """Return the games of tournaments as rated games, labelled by their entrants' labels.

    Args:
        *results: Tournaments, from :func:`~cuckoo_rules.bots.run_tournament`.

    Returns:
        Every game of every tournament, in order.

    Raises:
        BotError: If a result is not a :class:`~cuckoo_rules.bots.TournamentResult`.

    Example:
        >>> from cuckoo_rules import GameOptions
        >>> from cuckoo_rules.bots import run_tournament
        >>> result = run_tournament(GameOptions(num_players=2), ["greedy", "random"], 2, seed=1)
        >>> [game.labels for game in rated_games(result)]
        [('greedy', 'random'), ('random', 'greedy')]
    """
    games: list[RatedGame] = []
    for result in results:
        if not isinstance(result, TournamentResult):
            raise BotError(f"results: expected TournamentResult, got {type(result).__name__}")
        labels = [entrant.label for entrant in result.entrants]
        games += (
            RatedGame(tuple(labels[entrant] for entrant in game.seating), game.winners)
            for game in result.games
        )
    return tuple(games)


def pairwise_results(games: Sequence[RatedGame]) -> tuple[PairResult, ...]:
    """Split every game into its pairs of seats, each read as a game of two.

    Every winner beats every non-winner; two co-winners, or two non-winners, draw. A
    game of ``n`` seats gives ``n * (n - 1) / 2`` pairs, in seat order.

    Args:
        games: The games.

    Returns:
        The pairs of every game, game by game.

    Raises:
        BotError: If ``games`` is not a sequence of :class:`RatedGame`.

    Example:
        >>> game = RatedGame(("a", "b", "c"), (1,))
        >>> [(pair.first, pair.second, pair.score) for pair in pairwise_results([game])]
        [('a', 'b', 0.0), ('a', 'c', 0.5), ('b', 'c', 1.0)]
    """
    pairs: list[PairResult] = []
    for game in _checked_games(games):
        for seat, first in enumerate(game.labels):
            won = seat in game.winners
            for other in range(seat + 1, len(game.labels)):
                score = 0.5 + 0.5 * (won - (other in game.winners))
                pairs.append(PairResult(first, game.labels[other], score))
    return tuple(pairs)


def fit_elo(
    games: Sequence[RatedGame],
    *,
    anchor: str | None = None,
    anchor_elo: float = 1000.0,
    bootstrap: int = 200,
    seed: int = 0,
    model: RatingModel = "luce",
    interval: IntervalMethod = "model",
) -> tuple[Rating, ...]:
    """Fit an Elo rating to every label of the games, with 95% bootstrap intervals.

    See the module's documentation for the model, the prior (one virtual draw against
    the mean for every label) and the bootstrap. By default the intervals come from a
    parametric bootstrap: each replicate plays every game again from the fitted
    strengths (the same line-ups and seats; with ``"luce"`` one winner per game, even
    where the game was a shared victory; with ``"pairwise"`` every pair of seats an
    independent game of two) and fits the ratings again.

    Args:
        games: The games to rate (:func:`rated_games` makes them from tournaments).
        anchor: The label whose rating is ``anchor_elo`` (default: the first label of
            the first game).
        anchor_elo: The anchor's rating.
        bootstrap: Bootstrap replicates for the intervals (0: no interval,
            ``low == high == elo``).
        seed: The seed of the bootstrap; the same games and seed give the same ratings.
        model: ``"luce"`` (who won among the table; the default) or ``"pairwise"``
            (every pair of seats as a game of two, :func:`pairwise_results`).
        interval: How the replicates are drawn: ``"model"`` (the default; every game
            played again from the fitted model, a parametric bootstrap) or ``"games"``
            (the games resampled with replacement within each line-up, which gives a
            bot that won or lost every game an interval of nearly no width).

    Returns:
        One rating per label, best first (ties in the order the labels first appear).

    Raises:
        BotError: If there are no games, the anchor played none of them, the labels do
            not all meet through a chain of games, or a parameter is invalid.

    Example:
        >>> games = [RatedGame(("a", "b"), (0,))] * 3 + [RatedGame(("b", "a"), (0,))]
        >>> [(r.label, round(r.elo)) for r in fit_elo(games, anchor="b", bootstrap=0)]
        [('a', 1165), ('b', 1000)]

        A bot that lost every game gets an interval towards its opponent from the games
        played again, and none from the games resampled:

        >>> games = [RatedGame(("a", "b"), (0,)), RatedGame(("b", "a"), (1,))] * 2
        >>> def show(ratings):
        ...     return [(r.label, round(r.elo), round(r.low), round(r.high)) for r in ratings]
        >>> show(fit_elo(games, anchor="a", bootstrap=50))
        [('a', 1000, 1000, 1000), ('b', 553, 553, 835)]
        >>> show(fit_elo(games, anchor="a", bootstrap=50, interval="games"))
        [('a', 1000, 1000, 1000), ('b', 553, 553, 553)]
    """
    checked = _checked_games(games)
    if not checked:
        raise BotError("games: there are no games to rate")
    if type(bootstrap) is not int or bootstrap < 0:
        raise BotError(f"bootstrap: {bootstrap!r} is not a non-negative integer")
    if type(seed) is not int:
        raise BotError(f"seed: {seed!r} is not an integer")
    if isinstance(anchor_elo, bool) or not isinstance(anchor_elo, int | float):
        raise BotError(f"anchor_elo: {anchor_elo!r} is not a number")
    if not math.isfinite(anchor_elo):
        raise BotError(f"anchor_elo: {anchor_elo!r} is not finite")
    if model not in RATING_MODELS:
        raise BotError(f"model: {model!r} is not one of {', '.join(RATING_MODELS)}")
    if interval not in INTERVAL_METHODS:
        raise BotError(f"interval: {interval!r} is not one of {', '.join(INTERVAL_METHODS)}")
    labels = tuple(dict.fromkeys(label for game in checked for label in game.labels))
    index = {label: i for i, label in enumerate(labels)}
    if anchor is None:
        anchor = labels[0]
    elif anchor not in index:
        raise BotError(
            f"anchor: {anchor!r} played none of the games; the labels are "
            + ", ".join(map(repr, labels))
        )
    _check_connected(checked, labels)
    events = [_events(game, index, model) for game in checked]
    theta = _maximise(events, len(labels), [0.0] * len(labels))
    elos = _anchored(theta, index[anchor], anchor_elo)
    samples: list[list[float]] = [[] for _ in labels]
    if bootstrap:
        rng = random.Random(seed)
        draw = (
            _simulator(checked, index, model, theta)
            if interval == "model"
            else _resampler(checked, events)
        )
        for _ in range(bootstrap):
            replicate = _maximise(draw(rng), len(labels), theta)
            for i, elo in enumerate(_anchored(replicate, index[anchor], anchor_elo)):
                samples[i].append(elo)
    played = [0] * len(labels)
    for game in checked:
        for label in game.labels:
            played[index[label]] += 1
    ratings = []
    for i, label in enumerate(labels):
        if samples[i]:
            ordered = sorted(samples[i])
            low, high = _percentile(ordered, 0.025), _percentile(ordered, 0.975)
        else:
            low = high = elos[i]
        ratings.append(Rating(label, elos[i], low, high, played[i]))
    order = sorted(range(len(labels)), key=lambda i: (-elos[i], i))
    return tuple(ratings[i] for i in order)


def _checked_games(games: Sequence[RatedGame]) -> tuple[RatedGame, ...]:
    if isinstance(games, str | bytes) or not isinstance(games, Iterable):
        raise BotError(f"games: expected a sequence of RatedGame, got {type(games).__name__}")
    checked = tuple(games)
    for game in checked:
        if not isinstance(game, RatedGame):
            hint = " (rated_games turns tournaments into rated games)"
            raise BotError(f"games: expected RatedGame, got {type(game).__name__}{hint}")
    return checked


def _check_connected(games: tuple[RatedGame, ...], labels: tuple[str, ...]) -> None:
    """Refuse labels that do not all meet through a chain of games."""
    group = {label: label for label in labels}

    def root(label: str) -> str:
        while group[label] != label:
            label = group[label]
        return label

    for game in games:
        first = root(game.labels[0])
        for label in game.labels[1:]:
            group[root(label)] = first
    roots = {root(label) for label in labels}
    if len(roots) > 1:
        parts = [sorted(label for label in labels if root(label) == r) for r in roots]
        parts.sort()
        raise BotError(
            "games: the labels do not all meet through a chain of games, so the gap "
            "between these groups cannot be measured: "
            + " | ".join(", ".join(part) for part in parts)
        )


_Event = tuple[tuple[int, ...], tuple[float, ...]]
"""Who took part (label indices) and each one's score, which sum to 1."""


def _events(game: RatedGame, index: dict[str, int], model: RatingModel) -> list[_Event]:
    """The likelihood terms of one game: the table's (luce) or every pair's (pairwise)."""
    members = tuple(index[label] for label in game.labels)
    if model == "luce":
        return [(members, winner_shares(game.winners, len(members)))]
    events: list[_Event] = []
    for seat, first in enumerate(members):
        for other in range(seat + 1, len(members)):
            score = 0.5 + 0.5 * ((seat in game.winners) - (other in game.winners))
            events.append(((first, members[other]), (score, 1.0 - score)))
    return events


_Draw = Callable[[random.Random], list[list[_Event]]]
"""One bootstrap replicate of the games' likelihood terms, drawn from a random source."""


def _resampler(games: tuple[RatedGame, ...], events: list[list[_Event]]) -> _Draw:
    """Draw whole games with replacement, within each line-up (``interval="games"``)."""
    strata: dict[tuple[str, ...], list[int]] = {}
    for number, game in enumerate(games):
        strata.setdefault(tuple(sorted(game.labels)), []).append(number)

    def draw(rng: random.Random) -> list[list[_Event]]:
        return [
            events[number]
            for members in strata.values()
            for number in rng.choices(members, k=len(members))
        ]

    return draw


def _simulator(
    games: tuple[RatedGame, ...], index: dict[str, int], model: RatingModel, theta: list[float]
) -> _Draw:
    """Play every game again from the fitted strengths ``theta`` (``interval="model"``).

    With ``"luce"`` each game's one winner is drawn among its seats with probability
    proportional to strength; with ``"pairwise"`` every pair of its seats is an
    independent game of two, won by either side with probability proportional to
    strength. Each draw takes one ``rng.random()``, game by game and pair by pair in seat
    order, so with two seats both models draw the same winners.
    """
    tables: list[tuple[int, ...]] = []
    for game in games:
        members = tuple(index[label] for label in game.labels)
        if model == "luce":
            tables.append(members)
        else:
            tables.extend(
                (first, members[other])
                for seat, first in enumerate(members)
                for other in range(seat + 1, len(members))
            )
    cumulative = {members: _cumulative(theta, members) for members in set(tables)}
    won = {
        size: [tuple(float(seat == winner) for seat in range(size)) for winner in range(size)]
        for size in {len(members) for members in tables}
    }

    def draw(rng: random.Random) -> list[list[_Event]]:
        simulated: list[_Event] = []
        for members in tables:
            winner = bisect.bisect_right(cumulative[members], rng.random())
            simulated.append((members, won[len(members)][min(winner, len(members) - 1)]))
        return [simulated]

    return draw


def _cumulative(theta: list[float], members: tuple[int, ...]) -> list[float]:
    """The cumulative chances of the seats of ``members`` to win, proportional to strength."""
    top = max(theta[i] for i in members)
    weights = [math.exp(theta[i] - top) for i in members]
    total = sum(weights)
    return list(itertools.accumulate(weight / total for weight in weights))


def _maximise(games: list[list[_Event]], size: int, start: list[float]) -> list[float]:
    """Return the log-strengths of maximum penalised likelihood, by Newton's method.

    The log-likelihood of an event where ``i`` scores ``s_i`` among ``S`` is
    ``sum(s_i t_i) - log(sum(exp(t_j) for j in S))`` (the scores sum to 1); every label also has
    a virtual draw against ``t = 0``. The sum is strictly concave, so Newton's steps,
    halved until the likelihood grows, reach its unique maximum.
    """
    tables: dict[tuple[int, ...], int] = {}
    scores = [_PRIOR_SCORE] * size
    for events in games:
        for members, shares in events:
            tables[members] = tables.get(members, 0) + 1
            for i, share in zip(members, shares, strict=True):
                scores[i] += share
    theta = list(start)
    value = _objective(theta, scores, tables)
    for _ in range(100):
        gradient = [scores[i] - _sigmoid(theta[i]) for i in range(size)]
        hessian = [[0.0] * size for _ in range(size)]
        for i in range(size):
            p = _sigmoid(theta[i])
            hessian[i][i] = p * (1.0 - p)
        for members, count in tables.items():
            top = max(theta[i] for i in members)
            weights = [math.exp(theta[i] - top) for i in members]
            total = sum(weights)
            chances = [weight / total for weight in weights]
            for a, i in enumerate(members):
                gradient[i] -= count * chances[a]
                for b, j in enumerate(members):
                    hessian[i][j] += count * ((a == b) * chances[a] - chances[a] * chances[b])
        step = _solve(hessian, gradient)
        length = 1.0
        while True:
            trial = [t + length * s for t, s in zip(theta, step, strict=True)]
            trial_value = _objective(trial, scores, tables)
            if trial_value >= value or length < 1e-9:
                break
            length /= 2.0
        moved = max(abs(length * s) for s in step)
        theta, value = trial, trial_value
        if moved < 1e-11:
            break
    return theta


def _objective(
    theta: list[float], scores: list[float], tables: dict[tuple[int, ...], int]
) -> float:
    """The penalised log-likelihood (up to a constant)."""
    value = sum(s * t for s, t in zip(scores, theta, strict=True))
    value -= sum(max(t, 0.0) + math.log1p(math.exp(-abs(t))) for t in theta)
    for members, count in tables.items():
        top = max(theta[i] for i in members)
        value -= count * (top + math.log(sum(math.exp(theta[i] - top) for i in members)))
    return value


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Solve ``matrix @ x = vector`` by Gaussian elimination with partial pivoting."""
    size = len(vector)
    rows = [[*matrix[i], vector[i]] for i in range(size)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda r: abs(rows[r][column]))
        rows[column], rows[pivot] = rows[pivot], rows[column]
        head = rows[column][column]
        for r in range(column + 1, size):
            factor = rows[r][column] / head
            if factor:
                for c in range(column, size + 1):
                    rows[r][c] -= factor * rows[column][c]
    solution = [0.0] * size
    for r in range(size - 1, -1, -1):
        known = sum(rows[r][c] * solution[c] for c in range(r + 1, size))
        solution[r] = (rows[r][size] - known) / rows[r][r]
    return solution


def _anchored(theta: list[float], anchor: int, anchor_elo: float) -> list[float]:
    return [anchor_elo + _ELO * (t - theta[anchor]) for t in theta]


def _percentile(ordered: list[float], q: float) -> float:
    """The ``q`` quantile of sorted values, interpolated linearly between them."""
    position = q * (len(ordered) - 1)
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (position - below) * (ordered[above] - ordered[below])
