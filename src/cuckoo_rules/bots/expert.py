"""The expert bot: determinized Monte Carlo search in the batch simulator's kernels.

:class:`ExpertBot` decides by *determinized flat Monte Carlo with greedy rollouts*, the
search of a game of hidden hands where many cheap simulations beat a deep tree:

1. **Candidates.** The legal actions, best first by the
   :class:`~cuckoo_rules.bots.GreedyBot` heuristic; the first :attr:`ExpertBot.width`
   are searched (all of them when ``width`` is 0).
2. **Determinizations.** Each simulation starts from a full state drawn by
   :func:`~cuckoo_rules.determinize` from the seat's view and the
   :class:`~cuckoo_rules.Knowledge` its own history proves (what the bot follows
   through :meth:`ExpertBot.inform`, or ``choose(view, knowledge=...)``), with a seed
   from the bot's own :class:`random.Random`: every hidden card is dealt anew, so the
   bot never plays on the true hands or the true draw pile.
3. **Rollouts in the kernels.** Each determinization is copied once per candidate, the
   candidate is played, and every seat then plays the greedy bot's choice (its scores
   in the compiled kernels of :mod:`cuckoo_rules.batch`, ties broken by the
   determinization's own random stream) to the end of the game, or for
   :attr:`ExpertBot.rollout_turns` turns, the position then being scored by the value
   estimate (:data:`VALUE_WEIGHTS`: each seat's chance of winning from the position, a
   model fitted on greedy games). A finished game rewards each winner ``1/k``. All the
   rollouts of a round run in one kernel call, over the machine's cores.
4. **Sequential halving.** The budget of simulations is split into
   ``ceil(log2(candidates))`` rounds; each round deals fresh determinizations, plays
   every surviving candidate on each of them (so candidates are compared on the same
   cards and the same luck) and keeps the better half. The bot plays the survivor with
   the best mean reward: its estimated chance of winning after that action.

The budget is a number of simulations (rollouts) per decision, which is deterministic:
the same seed, views and budget give the same choices on any machine, or a number of
seconds, or both, whichever ends first. A budget in seconds is wall-clock time, and a
search within it is not reproducible (how far it gets depends on the machine and on
what else runs on it). Each round then gets an equal share of the time left and runs as
a series of kernel calls (*chunks*): the first deals one determinization, and each next
one is sized from the pace (seconds per rollout) measured on the chunk before, to end
with the round's share and to take at most an eighth of the budget; the clock is read
between chunks. So a machine that slows down in the middle of a decision
(other programs taking the cores) shortens the search instead of overrunning it by
more than the chunk under way, and a quick one uses its whole budget.
:meth:`ExpertBot.estimates` returns every searched action's estimate: the hints a front
end shows.

It needs the ``batch`` extra (NumPy and numba); the first decision of a fresh install
compiles the kernels (cached after).
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

import attrs

from ..actions import Action, action_id
from ..engine import legal_actions
from ..errors import needs_extra
from ..events import Event
from ..knowledge import Knowledge
from ..state import GameState
from ..views import PlayerView
from .base import BotError, Followed, check_knowledge, check_view, own_rng
from .greedy import GreedyBot, collection_value, hand_value
from .parameters import EXPERT_PARAMETERS, check_parameters

try:
    import numba
    import numpy as np

    from ..batch import options_array
    from ..batch.search import (
        Deals,
        scratch,
        search_rollouts,
    )
    from ..batch.threads import kernel_turn
except ModuleNotFoundError as error:  # pragma: no cover - depends on the environment
    raise needs_extra(__name__, "batch", error) from error

__all__ = [
    "DEFAULT_HINT_SIMULATIONS",
    "DEFAULT_SIMULATIONS",
    "VALUE_FEATURES",
    "VALUE_WEIGHTS",
    "ActionEstimate",
    "ExpertBot",
    "hint",
    "value_features",
]

DEFAULT_SIMULATIONS = 2000
"""The default budget of :class:`ExpertBot`: simulations (rollouts) per decision."""

DEFAULT_HINT_SIMULATIONS = 3000
"""The default budget of :func:`hint`: simulations over every legal action."""

_SEED_BITS = 64
_GROWTH = 2  # a timed chunk plays at most this many times the rollouts of the one before
# The most of a budget in seconds one kernel call is planned to take. The clock is read
# between calls (a compiled call cannot be stopped), so a machine that slows down
# mid-call overruns by that call's slowdown; smaller chunks cost more calls (~0.1 ms each).
_CHUNK_SHARE = 0.125


@attrs.frozen
class ActionEstimate:
    """What the expert's search found out about one legal action.

    Attributes:
        action: The action.
        win_chance: The mean reward of the acting seat after the action, over the
            simulations: its estimated chance of winning (a victory shared by ``k``
            counts ``1/k``).
        simulations: The simulations that evaluated it (actions dropped early by the
            sequential halving have fewer).
    """

    action: Action
    win_chance: float
    simulations: int


VALUE_FEATURES = ("collection value", "hand value", "hand size", "to act")
"""The features of a seat that the expert's value estimate weighs (:func:`value_features`)."""


VALUE_WEIGHTS: Mapping[int, tuple[float, float, float, float]] = MappingProxyType(
    {
        2: (0.0696868, 0.00299018, 0.0193739, 0.136573),
        3: (0.0765992, 0.00294809, 0.0322537, 0.170359),
        4: (0.083741, 0.00358738, 0.0330632, 0.194943),
        5: (0.0940898, 0.00423973, 0.0468162, 0.217101),
    }
)
"""The value estimate's weights of :data:`VALUE_FEATURES`, by number of players.

A seat's estimated chance of winning a game stopped before its end is the softmax over
the seats of ``weights . value_features(state)[seat]``. Fitted on greedy games by
``scripts/fit_expert_value.py`` (maximum likelihood, a conditional logit).
"""


def value_features(state: GameState) -> tuple[tuple[float, ...], ...]:
    """Each seat's features for the value estimate (:data:`VALUE_FEATURES`).

    The collection value and hand value are the greedy heuristic's
    (:func:`~cuckoo_rules.bots.greedy.collection_value`,
    :func:`~cuckoo_rules.bots.greedy.hand_value`); the kernels compute the same numbers.

    Example:
        >>> from cuckoo_rules import GameOptions, new_game
        >>> [round(x, 2) for x in value_features(new_game(GameOptions(num_players=2), seed=1))[1]]
        [-42.25, 3.76, 8.0, 1.0]
    """
    return tuple(
        (
            collection_value(collection),
            hand_value(hand, collection),
            float(sum(hand)),
            float(seat == state.current_player),
        )
        for seat, (hand, collection) in enumerate(zip(state.hands, state.collections, strict=True))
    )


@attrs.frozen
class ExpertBot:
    """The strongest bot here: determinized Monte Carlo search (see the module documentation).

    Attributes:
        seed: Seeds the bot's own :class:`random.Random` (determinizations, rollouts).
        simulations: Simulations (rollouts) per decision, or ``None`` for no limit on
            simulations (then ``seconds`` must be set). When neither is set the budget
            is :data:`DEFAULT_SIMULATIONS`.
        seconds: Thinking time per decision, in wall-clock seconds, or ``None``. A
            time budget makes the bot's play depend on the machine's speed and load,
            so it is not reproducible; the search reads the clock between its kernel
            calls and sizes each from the pace measured on the one before (see the
            module documentation).
        width: How many candidate actions are searched, best first by the greedy
            heuristic; ``0`` searches every legal action.
        rollout_turns: Turns each rollout plays after the candidate before the position
            is scored; ``-1`` (the default) plays to the end of the game.

    The ranges of the parameters are those of
    :data:`~cuckoo_rules.bots.parameters.EXPERT_PARAMETERS`.

    Raises:
        BotError: If a parameter is out of its range (NaN and infinities included).

    Example:
        >>> from cuckoo_rules import GameOptions, new_game, observe, legal_actions
        >>> state = new_game(GameOptions(num_players=2), seed=1)
        >>> view = observe(state, state.current_player)
        >>> ExpertBot(seed=5, simulations=64).choose(view) in legal_actions(view)
        True
    """

    seed: int = 0
    simulations: int | None = None
    seconds: float | None = None
    width: int = 12
    rollout_turns: int = -1
    _rng: random.Random = attrs.field(
        init=False, repr=False, eq=False, default=attrs.Factory(own_rng, takes_self=True)
    )
    _followed: Followed = attrs.field(init=False, repr=False, eq=False, factory=Followed)

    def __attrs_post_init__(self) -> None:
        check_parameters(self, EXPERT_PARAMETERS)

    @property
    def simulation_budget(self) -> int | None:
        """The simulations per decision in force (``None``: limited by time only)."""
        if self.simulations is None and self.seconds is None:
            return DEFAULT_SIMULATIONS
        return self.simulations

    def inform(self, view: PlayerView, events: tuple[Event, ...]) -> None:
        """Follow the game: learn what ``events`` prove (see :mod:`cuckoo_rules.match`).

        Args:
            view: The bot's seat's view after the events.
            events: The events of one action as the seat saw them, or the setup of a
                new game (a :class:`~cuckoo_rules.GameStarted` first), which forgets the
                game followed before.

        Raises:
            ViewError: If an event names a seat the game does not have.
        """
        self._followed.follow(view, events, learning=True)

    @property
    def followed_knowledge(self) -> Knowledge | None:
        """What the bot learned from the game it is informed of (``None`` before a start)."""
        return self._followed.knowledge

    def choose(self, view: PlayerView, knowledge: Knowledge | None = None) -> Action:
        """Search from ``view`` within the budget and return the best action found.

        Args:
            view: What the acting seat sees.
            knowledge: What the acting seat's own history proves beyond ``view`` (see
                :meth:`IsmctsBot.choose <cuckoo_rules.bots.IsmctsBot.choose>`);
                ``None`` uses what the bot followed through :meth:`inform` if ``view``
                is the view it was last informed of, else the view alone.

        Returns:
            One of ``legal_actions(view)``.

        Raises:
            BotError: If ``view`` is not the acting seat's view, or ``knowledge`` is not
                a :class:`~cuckoo_rules.Knowledge` of this game's seats.
            ViewError: If ``knowledge`` does not fit ``view`` otherwise.
        """
        actions = legal_actions(check_view(view))
        if len(actions) == 1:
            return actions[0]
        return self.estimates(view, knowledge)[0].action

    def estimates(
        self, view: PlayerView, knowledge: Knowledge | None = None, *, finalists: int = 1
    ) -> tuple[ActionEstimate, ...]:
        """Search from ``view`` and return the searched actions' estimates, best first.

        The order is that of the sequential halving: the actions that stayed longest
        first (their estimates rest on the most simulations), each group by its
        estimate. The first is the action :meth:`choose` plays. With ``width=0`` every
        legal action is searched (what a hint shows); otherwise the actions the greedy
        heuristic ranks below the first ``width`` are not.

        Args:
            view: What the acting seat sees.
            knowledge: As for :meth:`choose`.
            finalists: How many actions the halving keeps to its last round (a hint
                keeps three, so that the moves it shows were measured alike and come
                in the order of their estimates); ``1`` is the bot's own search.

        Raises:
            BotError: As :meth:`choose`.
            ViewError: As :meth:`choose`.

        Example:
            >>> from cuckoo_rules import GameOptions, new_game, observe
            >>> view = observe(new_game(GameOptions(num_players=2), seed=1), 1)
            >>> best = ExpertBot(seed=5, simulations=64, width=3).estimates(view)
            >>> len(best), 0 <= best[0].win_chance <= 1
            (3, True)
        """
        check_view(view)
        if knowledge is None:
            knowledge = self._followed.knowledge_for(view)
        check_knowledge(knowledge, view)
        if type(finalists) is not int or finalists < 1:
            raise BotError(f"finalists must be a positive integer, got {finalists!r}")
        return _Search(self, view, knowledge, finalists).run()


def hint(
    view: PlayerView,
    knowledge: Knowledge | None = None,
    *,
    top: int = 3,
    simulations: int = DEFAULT_HINT_SIMULATIONS,
    seed: int = 0,
) -> tuple[ActionEstimate, ...]:
    """The expert's best moves for the seat to act, with its estimated chance of winning.

    Every legal action is searched (``ExpertBot(width=0)``); the result is best first,
    the first being the move the expert would play. For a person's seat in a
    :class:`~cuckoo_rules.Match`, pass ``match.view(seat)`` and
    ``match.knowledge(seat)``.

    Args:
        view: The view of the seat to act.
        knowledge: What the seat's own history proves (:meth:`Match.knowledge
            <cuckoo_rules.Match.knowledge>`), or ``None`` for the view alone.
        top: How many moves to return (``0``: every legal action).
        simulations: The search's budget (deterministic: the same view, knowledge,
            seed and budget give the same hint).
        seed: Seeds the search.

    Raises:
        BotError: If ``view`` is not the acting seat's view, or an argument is out of
            range.

    Example:
        >>> from cuckoo_rules import GameOptions, Match
        >>> match = Match(GameOptions(num_players=2), seed=3, seats=[None, None])
        >>> seat = match.to_act
        >>> best = hint(match.view(seat), match.knowledge(seat), simulations=200)
        >>> len(best), best[0].action in match.legal_actions(seat)
        (3, True)
    """
    if type(top) is not int or top < 0:
        raise BotError(f"top must be 0 (every action) or a positive integer, got {top!r}")
    expert = ExpertBot(seed=seed, simulations=simulations, width=0)
    found = expert.estimates(view, knowledge, finalists=max(top, 1))
    return found[:top] if top else found


class _Search:
    """One decision's sequential halving (see the module documentation)."""

    def __init__(
        self, bot: ExpertBot, view: PlayerView, knowledge: Knowledge | None, finalists: int = 1
    ) -> None:
        # The budget in seconds counts from here: the ranking and the deal's plan too.
        self.clock = None if bot.seconds is None else _Clock(bot.seconds)
        self.bot = bot
        self.finalists = finalists
        self.view = view
        self.knowledge = knowledge
        scored = GreedyBot().scores(view)
        order = sorted(range(len(scored)), key=lambda k: -scored[k][1])
        if bot.width:
            order = order[: bot.width]
        self.actions = [scored[k][0] for k in order]
        self.ids = np.array([action_id(a) for a in self.actions], dtype=np.int64)
        self.sums = np.zeros(len(self.actions))
        self.counts = np.zeros(len(self.actions), dtype=np.int64)
        self.opt = options_array(view.options)
        self.weights = np.array(VALUE_WEIGHTS[view.num_players], dtype=np.float64)
        self.work = scratch(_threads())
        self.deals = Deals(view, knowledge)

    def run(self) -> tuple[ActionEstimate, ...]:
        bot = self.bot
        alive = list(range(len(self.actions)))
        rounds = self._rounds(len(alive))
        budget = bot.simulation_budget
        clock = self.clock
        used = 0
        for done in range(rounds):
            if done and (len(alive) == 1 or (clock is not None and clock.over())):
                break
            each = None  # determinizations of the round, if simulations are counted
            if budget is not None:
                each = max((budget - used) // ((rounds - done) * len(alive)), 1)
            if clock is None:
                assert each is not None
                self._round(alive, each)
                played = each
            else:
                played = self._timed_round(alive, each, clock, rounds - done)
            used += played * len(alive)
            alive = self._better_half(alive)
        return self._ranked()

    def _timed_round(
        self, alive: Sequence[int], each: int | None, clock: _Clock, rounds: int
    ) -> int:
        """A round in chunks, until its share of the time left (or ``each``) is used.

        ``rounds`` counts this round and those after it, which share the time left
        equally. Returns the determinizations played (at least one).
        """
        end = clock.share(rounds)
        played = 0
        while True:
            chunk = clock.plan(end, len(alive))
            if not played:  # every round plays at least one determinization
                chunk = max(chunk, 1)
            if each is not None:
                chunk = min(chunk, each - played)
            if chunk <= 0:
                return played
            started = time.perf_counter()
            self._round(alive, chunk)
            clock.measure(time.perf_counter() - started, chunk * len(alive))
            played += chunk

    def _rounds(self, candidates: int) -> int:
        """The rounds of the halving: one per size down to the finalists, who get one too."""
        rounds, left = 0, candidates
        while left > self.finalists:
            rounds += 1
            left = max(self.finalists, (left + 1) // 2)
        if self.finalists > 1:
            rounds += 1
        return max(rounds, 1)

    def _round(self, alive: Sequence[int], determinizations: int) -> None:
        """Deal ``determinizations`` states and play every candidate of ``alive`` on each."""
        rng = self.bot._rng
        seeds = np.array(
            [rng.getrandbits(_SEED_BITS) for _ in range(determinizations)], dtype=np.uint64
        )
        roots = self.deals.rows(seeds)
        chosen = np.asarray(alive, dtype=np.int64)
        pairs = np.zeros((determinizations * len(chosen), 2), dtype=np.int64)
        pairs[:, 0] = np.repeat(np.arange(determinizations), len(chosen))
        pairs[:, 1] = np.tile(chosen, determinizations)
        rewards = np.zeros(len(pairs))
        tie_seed = np.uint64(rng.getrandbits(_SEED_BITS))
        with kernel_turn():
            search_rollouts(
                roots, seeds, self.opt, self.ids, pairs, self.view.current_player,
                self.bot.rollout_turns, self.weights, tie_seed, self.work, rewards,
            )  # fmt: skip
        np.add.at(self.sums, pairs[:, 1], rewards)
        np.add.at(self.counts, pairs[:, 1], 1)

    def _means(self) -> np.ndarray:
        return np.asarray(self.sums / np.maximum(self.counts, 1))

    def _better_half(self, alive: list[int]) -> list[int]:
        means = self._means()
        # Stable: equal means keep the heuristic's order (the candidates' order).
        ranked = sorted(alive, key=lambda c: -means[c])
        return ranked[: max(self.finalists, (len(ranked) + 1) // 2)]

    def _ranked(self) -> tuple[ActionEstimate, ...]:
        means = self._means()
        order = sorted(range(len(self.actions)), key=lambda c: (-self.counts[c], -means[c]))
        return tuple(
            ActionEstimate(self.actions[c], float(means[c]), int(self.counts[c])) for c in order
        )


class _Clock:
    """A decision's budget in seconds: its deadline, and the pace of the last kernel call."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.deadline = time.perf_counter() + seconds
        self.pace = 0.0  # wall-clock seconds per rollout, measured on the last chunk
        self.rollouts = 0  # the last chunk's

    def over(self) -> bool:
        """Whether the deadline has passed."""
        return time.perf_counter() >= self.deadline

    def share(self, rounds: int) -> float:
        """When a round that shares the time left with ``rounds - 1`` others should end."""
        now = time.perf_counter()
        return now + max(self.deadline - now, 0.0) / rounds

    def measure(self, seconds: float, rollouts: int) -> None:
        """Record a chunk: ``rollouts`` rollouts took ``seconds`` (dealing included)."""
        self.pace = max(seconds / rollouts, 1e-9)
        self.rollouts = rollouts

    def plan(self, end: float, width: int) -> int:
        """Determinizations of ``width`` candidates that fit before ``end`` (0: none).

        At the last measured pace, within ``_CHUNK_SHARE`` of the budget, and with at
        most ``_GROWTH`` times the rollouts of the last chunk (a small chunk's pace may
        flatter the machine).
        """
        if not self.rollouts:  # nothing measured yet: one determinization, a pilot
            return 1
        room = min(end - time.perf_counter(), self.seconds * _CHUNK_SHARE)
        fits = int(room / (self.pace * width)) if room > 0 else 0
        return min(fits, max(_GROWTH * self.rollouts // width, 1))


def _threads() -> int:
    """The most threads a kernel can use (the per-thread scratch rows needed)."""
    config: Any = numba.config  # numba's own annotations do not cover its config
    return int(config.NUMBA_NUM_THREADS)
