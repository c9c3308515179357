"""Information Set Monte Carlo Tree Search: :class:`IsmctsBot`.

This is single-observer ISMCTS (SO-ISMCTS) after Cowling, Powley and Whitehouse,
"Information Set Monte Carlo Tree Search", IEEE Transactions on Computational
Intelligence and AI in Games 4(2), 2012. One tree is grown for the decision at hand;
its nodes are sequences of actions (every seat's) from the current decision on, so a
node stands for an information set of the searching seat rather than a state.

Each iteration:

1. **Determinize.** :func:`cuckoo_rules.determinize` draws a full state the seat cannot
   tell apart from the truth (other hands, the draw-pile order and the discard pile are
   dealt from the unseen cards, respecting what the view shows), with a seed from the
   bot's own :class:`random.Random`. Given the seat's :class:`~cuckoo_rules.Knowledge`
   (which the bot follows itself when a :class:`~cuckoo_rules.Match` informs it of each
   action, or ``choose(view, knowledge=...)``), it draws only states that also agree with
   what the history proves, such as a hand that holds no toucan right after laying its
   toucans. It does so in two-player games only: there it won 85.5% of 200 games
   against the greedy bot (83.0% without); with four players it brought no gain (38.0%
   against 40.0%) and made decisions about 30% slower.
2. **Select.** From the root, while every candidate action has a child, pick the child
   maximising ``mean + c * sqrt(ln(availability) / visits)`` (UCB1 with availability
   counts: a child's availability counts the iterations in which its action was legal,
   and a candidate, when its parent was visited, not the parent's visits). The mean is
   the reward of the seat that takes the action, so each seat plays for itself. The
   candidates are the actions legal *in this determinization*, best first by a cheap
   heuristic, of which only the first ``1 + widening * sqrt(visits)`` are considered
   (progressive widening: a node's later candidates are tried as it gets visits).
   Below the root the tree branches on lays only: the optional draw and the flock,
   which follow from the lay, are taken by the rollout policy, so the tree reaches
   further in turns. At the root, every legal action is a candidate, ranked by the
   :class:`~cuckoo_rules.bots.GreedyBot` heuristic.
3. **Expand** the best-ranked candidate that has no child yet.
4. **Roll out** with a cheap policy (:func:`rollout_action`) for
   :attr:`IsmctsBot.rollout_turns` more turns (by default one turn per player, so that
   every seat moves once more), or to the end of the game: it lays the birds whose
   capture adds most flock potential (:func:`lay_scores`), takes the draw while it
   holds cards, and flies home the flock that raises the collection value most.
5. **Evaluate and back up.** A finished game rewards each winner ``1/k`` (``k``
   winners). Otherwise each seat scores its collection value plus its hand value (the
   heuristic of :mod:`cuckoo_rules.bots.greedy`, on the determinized hands) and the
   rewards are the softmax of the scores divided by :attr:`IsmctsBot.temperature`.
   Every node on the path adds the reward of the seat that chose its action.

The bot plays the root action with the most visits. The budget is a number of
iterations (deterministic: the same seed and views give the same choices, and the clock
is never read) or a number of wall-clock seconds per decision, read after every
iteration (not reproducible, since it depends on the machine's speed and load), or both,
whichever ends first. The default, :data:`DEFAULT_ITERATIONS` iterations, took a
mean of 0.10 s per decision with 2 players and 0.13 s with 4 (at most 0.17 s) on a 2-core
AMD EPYC machine (``benchmarks/strength.py``).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

import attrs

from ..actions import (
    DRAW,
    FLY_HOME_ACTIONS,
    LAY_ACTIONS,
    PASS,
    Action,
    Phase,
    action_id,
)
from ..cards import NUM_SPECIES, SPECIES
from ..determinization import determinize
from ..engine import apply, legal_actions
from ..events import Event
from ..knowledge import Knowledge
from ..outcome import winner_shares
from ..preview import birds_home, capture_sizes
from ..state import SMALL_FLOCKS as _SMALL
from ..state import GameState
from ..views import PlayerView
from .base import BotError, Followed, check_knowledge, check_view, own_rng
from .greedy import GreedyBot, collection_value, hand_value, potential_table
from .parameters import ISMCTS_PARAMETERS, check_parameters

__all__ = ["DEFAULT_ITERATIONS", "IsmctsBot"]

DEFAULT_ITERATIONS = 800
"""The default budget of :class:`IsmctsBot`: iterations per decision."""

_SEED_BITS = 64
_MAX_DRAWS = 32  # uniform draws per determinization before the card-by-card deal
_KNOWLEDGE_MAX_PLAYERS = 2  # where knowledge measurably helped (module documentation)
_LAY = Phase.LAY
_DRAW = Phase.DRAW
_FLOCK = Phase.FLOCK
_OVER = Phase.GAME_OVER


class _Node:
    """A node of the search tree: the action that led here and its statistics."""

    __slots__ = ("action", "availability", "children", "parent", "player", "reward", "visits")

    def __init__(self, parent: _Node | None, action: Action | None, player: int) -> None:
        self.parent = parent
        self.action = action
        self.player = player  # the seat that chose ``action``
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.availability = 1
        self.reward = 0.0


@attrs.frozen
class IsmctsBot:
    """An Information Set Monte Carlo Tree Search player (see the module documentation).

    Attributes:
        seed: Seeds the bot's own :class:`random.Random` (determinizations, rollouts).
        iterations: Iterations per decision; ``None`` for no limit on iterations
            (then ``seconds`` must be set). When neither is set the budget is
            :data:`DEFAULT_ITERATIONS` iterations.
        seconds: Thinking time per decision, in wall-clock seconds, or ``None``. A
            time budget makes the bot's play depend on the machine's speed and load,
            so it is not reproducible. The clock is read after every iteration (well
            under a millisecond each), so a machine that slows down mid-decision
            shortens the search, and the budget is overrun by at most the iteration
            under way.
        exploration: The UCB1 exploration constant ``c`` (rewards are in ``[0, 1]``).
        rollout_turns: Turns the rollout policy plays after leaving the tree before the
            position is evaluated; ``-1`` plays to the end of the game; ``None`` (the
            default) plays one turn per player.
        temperature: Turns heuristic score differences into rewards (softmax
            temperature, in collection-value points).
        widening: Progressive widening: a node considers its first
            ``1 + widening * sqrt(visits)`` candidates; ``0`` considers them all.

    The bot follows the game it is informed of (:meth:`inform`, called by a
    :class:`~cuckoo_rules.Match`): what its seat's history proves beyond the view is
    used when it chooses from the view it was last informed of.

    The ranges of the parameters are those of
    :data:`~cuckoo_rules.bots.parameters.ISMCTS_PARAMETERS`.

    Raises:
        BotError: If a parameter is out of its range (NaN and infinities included).

    Example:
        >>> from cuckoo_rules import GameOptions, new_game, observe, legal_actions
        >>> state = new_game(GameOptions(num_players=2), seed=1)
        >>> view = observe(state, state.current_player)
        >>> IsmctsBot(seed=5, iterations=20).choose(view) in legal_actions(view)
        True
    """

    seed: int = 0
    iterations: int | None = None
    seconds: float | None = None
    exploration: float = 0.7
    rollout_turns: int | None = None
    temperature: float = 10.0
    widening: float = 0.5
    _rng: random.Random = attrs.field(
        init=False, repr=False, eq=False, default=attrs.Factory(own_rng, takes_self=True)
    )
    _followed: Followed = attrs.field(init=False, repr=False, eq=False, factory=Followed)

    def __attrs_post_init__(self) -> None:
        check_parameters(self, ISMCTS_PARAMETERS)

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
        self._followed.follow(view, events, learning=view.num_players <= _KNOWLEDGE_MAX_PLAYERS)

    @property
    def followed_knowledge(self) -> Knowledge | None:
        """What the bot learned from the game it is informed of (``None`` before a start).

        In games of more than two players the bot does not use knowledge and keeps only
        what the setup showed.
        """
        return self._followed.knowledge

    @property
    def iteration_budget(self) -> int | None:
        """The iterations per decision in force (``None``: limited by time only)."""
        if self.iterations is None and self.seconds is None:
            return DEFAULT_ITERATIONS
        return self.iterations

    def choose(self, view: PlayerView, knowledge: Knowledge | None = None) -> Action:
        """Search from ``view`` within the budget and return the most visited action.

        Args:
            view: What the acting seat sees.
            knowledge: What the acting seat's own history proves beyond ``view``:
                :func:`~cuckoo_rules.learn` folded over
                ``visible_events(events, view.viewer)`` of every event since the game
                started, from :meth:`Knowledge.start <cuckoo_rules.Knowledge.start>`.
                Every determinization then agrees with it (see
                :func:`~cuckoo_rules.determinize`). ``None`` (the default) uses what
                the bot followed through :meth:`inform` if ``view`` is the view it was
                last informed of, else the view alone. Knowledge of another seat, or of
                another game, is not detected in general and makes the search draw
                states that cannot be the truth.

        Returns:
            One of ``legal_actions(view)``.

        Raises:
            BotError: If ``view`` is not the acting seat's view, or ``knowledge`` is not
                a :class:`~cuckoo_rules.Knowledge` with one entry per seat.
            ViewError: If ``knowledge`` does not fit ``view`` otherwise (for example it
                knows more discarded cards than the discard pile holds); raised by
                :func:`~cuckoo_rules.determinize` once the search starts.

        Example:
            >>> from cuckoo_rules import GameOptions, Knowledge, Lay, Side, Species
            >>> from cuckoo_rules import new_game, observe, step, visible_events
            >>> from cuckoo_rules.knowledge import learn
            >>> state = new_game(GameOptions(num_players=2), seed=3)
            >>> state, events = step(state, Lay(Species.TOUCAN, 0, Side.LEFT))
            >>> known = learn(Knowledge.start(2), visible_events(events, 1), viewer=1)
            >>> view = observe(state, 1)
            >>> IsmctsBot(seed=5, iterations=20).choose(view, known) in legal_actions(view)
            True
        """
        check_view(view)
        if knowledge is None:
            knowledge = self._followed.knowledge_for(view)
        check_knowledge(knowledge, view)
        actions = legal_actions(view)
        if len(actions) == 1:
            return actions[0]
        root = self.search(view, knowledge)
        best = max(
            root.children.values(),
            key=lambda child: (child.visits, child.reward / max(child.visits, 1)),
        )
        assert best.action is not None
        return best.action

    def search(self, view: PlayerView, knowledge: Knowledge | None = None) -> _Node:
        """Run the search from the acting seat's ``view`` and return the root node.

        Args:
            view: What the acting seat sees.
            knowledge: What the acting seat's own history proves beyond ``view`` (see
                :meth:`choose`), given to every :func:`~cuckoo_rules.determinize` in a
                two-player game (see the module documentation); ``None`` uses the view
                alone.

        Raises:
            BotError: If ``knowledge`` is not a :class:`~cuckoo_rules.Knowledge` with
                one entry per seat.
            ViewError: If ``knowledge`` does not fit ``view`` otherwise.
        """
        # The budget in seconds counts from here: the root's ranking too.
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        check_knowledge(knowledge, view)
        if view.num_players > _KNOWLEDGE_MAX_PLAYERS:
            knowledge = None
        rng = self._rng
        root = _Node(None, None, view.current_player)
        order = _root_order(view)
        budget = self.iteration_budget
        done = 0
        while (budget is None or done < budget) and (
            deadline is None or done == 0 or time.perf_counter() < deadline
        ):
            state = determinize(
                view, rng.getrandbits(_SEED_BITS), knowledge=knowledge, max_draws=_MAX_DRAWS
            )
            self._iterate(root, order, state, rng)
            done += 1
        return root

    def _iterate(
        self, root: _Node, order: tuple[Action, ...], state: GameState, rng: random.Random
    ) -> None:
        node = root
        c = self.exploration
        widening = self.widening
        # Selection and expansion.
        while state.phase is not _OVER:
            if node is root:
                candidates = order
            elif state.phase is not _LAY:
                state = apply(state, rollout_action(state, rng))
                continue
            else:
                candidates = ranked_lays(state)
            children = node.children
            width = len(candidates)
            if widening > 0:
                width = min(width, 1 + int(widening * math.sqrt(node.visits)))
            untried: Action | None = None
            best: _Node | None = None
            best_value = -math.inf
            for action in candidates[:width]:
                child = children.get(action_id(action))
                if child is None:
                    if untried is None:
                        untried = action
                    continue
                child.availability += 1
                value = child.reward / child.visits + c * math.sqrt(
                    math.log(child.availability) / child.visits
                )
                if value > best_value:
                    best, best_value = child, value
            if untried is not None:
                node = children[action_id(untried)] = _Node(node, untried, state.current_player)
                state = apply(state, untried)
                break
            assert best is not None
            assert best.action is not None
            node = best
            state = apply(state, best.action)
        # Rollout and evaluation.
        rewards = self._rollout(state, rng)
        # Backpropagation.
        walk: _Node | None = node
        while walk is not None:
            walk.visits += 1
            walk.reward += rewards[walk.player]
            walk = walk.parent

    def _rollout(self, state: GameState, rng: random.Random) -> Sequence[float]:
        turns_left = state.num_players if self.rollout_turns is None else self.rollout_turns
        while state.phase is not Phase.GAME_OVER:
            if turns_left == 0:
                return _evaluate(state, self.temperature)
            turn = state.turn
            state = apply(state, rollout_action(state, rng))
            if state.turn != turn and turns_left > 0:
                turns_left -= 1
        return winner_shares(state.winners, state.num_players)


def _evaluate(state: GameState, temperature: float) -> list[float]:
    """Rewards of an unfinished game: a softmax of each seat's heuristic score."""
    scores = [
        collection_value(collection) + hand_value(hand, collection)
        for hand, collection in zip(state.hands, state.collections, strict=True)
    ]
    top = max(scores)
    weights = [math.exp((score - top) / temperature) for score in scores]
    total = sum(weights)
    return [weight / total for weight in weights]


def _root_order(view: PlayerView) -> tuple[Action, ...]:
    """The root's legal actions, best first by the greedy heuristic."""
    scored = GreedyBot().scores(view)
    ranked = sorted(range(len(scored)), key=lambda k: -scored[k][1])
    return tuple(scored[k][0] for k in ranked)


def lay_scores(state: GameState) -> list[tuple[float, Action]]:
    """Score every legal lay of the seat to act in ``state`` (in the ``LAY`` phase).

    The score of a lay is the flock potential it captures (the tables of
    :func:`~cuckoo_rules.bots.greedy.potential_table`) less the potential of the birds
    laid. It is the cheap part of the greedy heuristic, without the feeding penalty.
    """
    p = state.current_player
    hand = state.hands[p]
    table = potential_table(state.collections[p])
    held_species = [i for i in range(NUM_SPECIES) if hand[i]]
    losses = {i: -table[i][hand[i]] for i in held_species}
    scored: list[tuple[float, Action]] = []
    for r, row in enumerate(state.rows):
        counts, left, right = capture_sizes(row)
        indices = [card.index for card in row]
        end = len(indices)
        for i in held_species:
            lays = LAY_ACTIONS[i]
            loss = losses[i]
            if not counts[i]:
                scored.append((loss, lays[2 * r]))
                scored.append((loss, lays[2 * r + 1]))
                continue
            for side, captured in ((0, indices[: left[i]]), (1, indices[end - right[i] :])):
                score = loss
                if captured:
                    if len(captured) == 1:
                        j = captured[0]
                        score += table[j][hand[j] + 1] - table[j][hand[j]]
                    else:
                        for j in set(captured):
                            score += table[j][hand[j] + captured.count(j)] - table[j][hand[j]]
                scored.append((score, lays[2 * r + side]))
    return scored


def ranked_lays(state: GameState) -> tuple[Action, ...]:
    """The legal lays of ``state``, best first by :func:`lay_scores`."""
    scored = lay_scores(state)
    scored.sort(key=_first, reverse=True)
    return tuple(action for _, action in scored)


def _first(item: tuple[float, Action]) -> float:
    return item[0]


def rollout_action(state: GameState, rng: random.Random) -> Action:
    """The cheap rollout policy: a fast, greedy-ish choice for the seat to act in ``state``.

    Lay the birds with the best :func:`lay_scores` (ties broken at random); take the
    draw unless the hand is empty; fly home the flock that raises the collection value
    most.
    """
    p = state.current_player
    hand = state.hands[p]
    phase = state.phase
    if phase is _DRAW:
        return DRAW if any(hand) else PASS
    if phase is _FLOCK:
        collection = state.collections[p]
        best_action: Action = PASS
        best_value = -math.inf
        for i in range(NUM_SPECIES):
            held = hand[i]
            if held >= _SMALL[i]:
                changed = list(collection)
                changed[i] += birds_home(SPECIES[i], held)
                value = collection_value(tuple(changed))
                if value > best_value:
                    best_action, best_value = FLY_HOME_ACTIONS[i], value
        return best_action
    if phase is not _LAY:
        raise BotError(f"no action in phase {phase.value!r}")
    best: list[Action] = []
    best_score = -math.inf
    for score, action in lay_scores(state):
        if score > best_score:
            best, best_score = [action], score
        elif score == best_score:
            best.append(action)
    return best[rng.randrange(len(best))]
