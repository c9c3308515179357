"""Random games for the tests: one generator, so that every test plays them alike.

A random game is fully described by its options, its seed and the seed of the chooser
(a :class:`random.Random` that picks each action uniformly among the legal ones with
``rng.choice(cr.legal_actions(state))``), so a failing game can be replayed from these
three numbers. :func:`random_steps` yields the game action by action; :func:`random_game`
plays it and keeps every state; :class:`RandomGame` holds the three numbers (the
Hypothesis strategy :func:`tests.strategies.random_games` draws them).

Pass ``events=False`` where the events are not needed: each action is then played with
:func:`cuckoo_rules.apply`, which is about a third faster than :func:`cuckoo_rules.step`.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import NamedTuple

import attrs

import cuckoo_rules as cr

__all__ = [
    "Game",
    "RandomGame",
    "Rng",
    "Step",
    "fields_of",
    "random_game",
    "random_steps",
    "random_steps_from",
]

Rng = int | random.Random
"""The chooser: the seed of a new :class:`random.Random`, or a generator to draw from.

A generator given by the caller is shared: it is drawn from once per action (and for
nothing else), so a test can go on drawing from it after the game in a reproducible way.
"""


class Step(NamedTuple):
    """One action of a game and what came of it."""

    before: cr.GameState
    """The state the action was chosen in."""
    action: cr.Action
    """The action, legal in ``before``."""
    after: cr.GameState
    """The state after the action."""
    events: tuple[cr.Event, ...]
    """The events of the action, unredacted (``()`` when played with ``events=False``)."""


def _chooser(rng: Rng) -> random.Random:
    return rng if isinstance(rng, random.Random) else random.Random(rng)


def random_steps_from(
    state: cr.GameState,
    *,
    rng: Rng = 0,
    max_actions: int | None = None,
    events: bool = True,
) -> Iterator[Step]:
    """Play uniformly random legal actions from ``state``, yielding each step.

    Args:
        state: Where to start.
        rng: The chooser (see :data:`Rng`).
        max_actions: Stop after this many actions (``None``: at the end of the game).
        events: Whether to play with :func:`cuckoo_rules.step` and report the events;
            with ``False`` :func:`cuckoo_rules.apply` is used and ``Step.events`` is ``()``.

    Yields:
        One :class:`Step` per action, until the game is over or ``max_actions`` were played.
    """
    choose = _chooser(rng).choice
    played = 0
    while not state.is_over and (max_actions is None or played < max_actions):
        action = choose(cr.legal_actions(state))
        if events:
            after, happened = cr.step(state, action)
        else:
            after, happened = cr.apply(state, action), ()
        yield Step(state, action, after, happened)
        state = after
        played += 1


def random_steps(
    options: cr.GameOptions,
    seed: int,
    *,
    rng: Rng = 0,
    max_actions: int | None = None,
    events: bool = True,
) -> Iterator[Step]:
    """Deal ``new_game(options, seed)`` and play random legal actions, yielding each step.

    Example:
        >>> steps = list(random_steps(cr.GameOptions(num_players=2), 1, rng=2, max_actions=3))
        >>> [step.before.turn for step in steps], steps[1].before is steps[0].after
        ([1, 1, 2], True)
    """
    return random_steps_from(
        cr.new_game(options, seed), rng=rng, max_actions=max_actions, events=events
    )


@attrs.frozen
class Game:
    """A game played to its end (or to ``max_actions``), every state kept."""

    states: tuple[cr.GameState, ...]
    """The dealt state, then the state after each action."""
    actions: tuple[cr.Action, ...]
    """The actions, one fewer than the states."""
    events: tuple[tuple[cr.Event, ...], ...]
    """The events of each action (all ``()`` when played with ``events=False``)."""

    def __attrs_post_init__(self) -> None:
        assert len(self.states) == len(self.actions) + 1 == len(self.events) + 1

    @property
    def final(self) -> cr.GameState:
        """The last state."""
        return self.states[-1]

    @property
    def steps(self) -> tuple[Step, ...]:
        """The game as steps, as :func:`random_steps` yields them."""
        before, after = self.states[:-1], self.states[1:]
        return tuple(map(Step, before, self.actions, after, self.events))


def random_game(
    options: cr.GameOptions,
    seed: int,
    *,
    rng: Rng = 0,
    max_actions: int | None = None,
    events: bool = False,
) -> Game:
    """Play a random game (see :func:`random_steps`) and keep every state.

    Unlike :func:`random_steps`, the events are not kept unless asked for.
    """
    states = [cr.new_game(options, seed)]
    actions: list[cr.Action] = []
    happened: list[tuple[cr.Event, ...]] = []
    for step in random_steps_from(states[0], rng=rng, max_actions=max_actions, events=events):
        states.append(step.after)
        actions.append(step.action)
        happened.append(step.events)
    return Game(tuple(states), tuple(actions), tuple(happened))


@attrs.frozen
class RandomGame:
    """The three numbers of a random game; its repr is enough to replay it.

    Hypothesis prints this (not the states) in a falsifying example, and shrinks the
    options, the seed and the chooser's seed as it would three separate arguments.
    """

    options: cr.GameOptions
    seed: int
    rng: int
    max_actions: int | None = None

    @property
    def num_players(self) -> int:
        """The number of seats."""
        return self.options.num_players

    def steps(self, *, events: bool = True) -> Iterator[Step]:
        """The game step by step (:func:`random_steps`)."""
        return random_steps(
            self.options, self.seed, rng=self.rng, max_actions=self.max_actions, events=events
        )

    def play(self, *, events: bool = False) -> Game:
        """The whole game, every state kept (:func:`random_game`)."""
        return random_game(
            self.options, self.seed, rng=self.rng, max_actions=self.max_actions, events=events
        )


def fields_of(state: cr.GameState) -> tuple[object, ...]:
    """The values of the state's fields, in order (the objects themselves, not copies).

    Every value in a state is immutable, so a function changed a state it was given
    only if this differs before and after (a field rebound); a deep copy adds nothing.
    """
    return attrs.astuple(state, recurse=False)
