"""The batch simulator: thousands of games stepped at once by compiled kernels.

Install with ``pip install 'cuckoo-rules[batch]'`` (NumPy and numba). A
:class:`BatchGame` holds one game per seed as NumPy arrays and steps them all with one
call, in kernels compiled by numba (on first use, then from numba's cache) that run the
games on every core. The games are exactly the engine's: game ``i`` is dealt as
``new_game(options, seeds[i])`` deals it, every reshuffle included, and
:meth:`BatchGame.state` gives it back as the engine's :class:`~cuckoo_rules.GameState`
at any moment (a differential test checks this after every step of thousands of games,
under every option).

Action ids, masks and observations are those of the engine: the mask of a game is
:func:`~cuckoo_rules.legal_action_mask` of its state, and its observation row is
:func:`~cuckoo_rules.encode_observation` of the acting seat's view.

Seats may be played inside the kernels by batched bots: ``"random"`` and ``"greedy"``
(with their parameters, such as ``"greedy:feed_weight=2"``) choose exactly what
:class:`~cuckoo_rules.bots.RandomBot` and :class:`~cuckoo_rules.bots.GreedyBot` would
choose, each seat's bot seeded with ``derive_seed(seed, 1, seat)`` as
:class:`~cuckoo_rules.envs.gymnasium.CuckooEnv` seeds them. The other seats (``None``)
are played from outside through :meth:`BatchGame.step`, after which the bots play on
until an outside seat is to act.

Example:
    >>> import numpy as np
    >>> from cuckoo_rules import GameOptions, action_from_id, apply, legal_action_mask, new_game
    >>> games = BatchGame(GameOptions(num_players=3), seeds=range(4))
    >>> games.state(2) == new_game(GameOptions(num_players=3), 2)
    True
    >>> masks = games.legal_action_mask()
    >>> masks.shape, bool((masks[2] == legal_action_mask(games.state(2))).all())
    ((4, 74), True)
    >>> first = masks.argmax(axis=1)  # the first legal action of every game
    >>> step = games.step(first)
    >>> options = GameOptions(num_players=3)
    >>> games.state(3) == apply(new_game(options, 3), action_from_id(int(first[3])))
    True

Every array this class returns is a new array: changing it changes no game.

The kernels compile at their first use in a process (11 to 19 seconds for each use of
the library on a fresh install), then load from numba's cache in about a second:
:func:`warm_up` (``cuckoo-rules warm-up``) compiles them ahead, and the logger
``cuckoo_rules.batch`` says at level ``INFO`` when a kernel compiles for long (see
:mod:`cuckoo_rules.batch.warm`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from ..errors import IllegalActionError, InvalidOptionsError, needs_extra

try:
    import numba
    import numpy as np
    from numpy.typing import NDArray

    from ._drivers import (
        apply_actions,
        env_steps,
        first_illegal,
        legal_masks,
        observe_all,
        play_bots,
        random_playouts,
        reset_games,
        scratch,
    )
    from ._layout import CURRENT, HUMAN, OVER, PHASE, TURN, WIDTH, WINNERS
    from ._random import MT_N
    from ._rows import BATCH_BOTS, options_array, row_state, seat_bots, state_row
    from .warm import WarmUp, warm_up
except ModuleNotFoundError as error:  # pragma: no cover - depends on the environment
    raise needs_extra(__name__, "batch", error) from error

from ..actions import NUM_DISTINCT_ACTIONS, action_from_id
from ..botspec import BotSpec
from ..observation import observation_size
from ..options import GameOptions
from ..rng import SEED_LIMIT
from ..state import GameState

__all__ = [
    "BATCH_BOTS",
    "BatchGame",
    "BatchStep",
    "ObservedStep",
    "WarmUp",
    "options_array",
    "state_row",
    "warm_up",
]

_numba: Any = numba  # numba's own annotations do not cover its config
_THREADS: int = _numba.config.NUMBA_NUM_THREADS  # the most threads a kernel can use


def _check_seeds(seeds: Iterable[int]) -> NDArray[np.uint64]:
    try:
        items = list(seeds)
    except TypeError:
        raise InvalidOptionsError(
            f"seeds: expected a sequence of integers, got {type(seeds).__name__}"
        ) from None
    if not items:
        raise InvalidOptionsError("seeds: a batch needs at least one seed")
    for index, seed in enumerate(items):
        if isinstance(seed, bool) or not isinstance(seed, int | np.integer):
            raise InvalidOptionsError(f"seeds[{index}]: expected an integer, got {seed!r}")
        if not 0 <= int(seed) < SEED_LIMIT:
            raise InvalidOptionsError(f"seeds[{index}]: {seed!r} is not in [0, 2**64)")
    return np.array([int(seed) for seed in items], dtype=np.uint64)


@attrs.frozen
class BatchStep:
    """What one :meth:`BatchGame.step` did to the games that ended in it.

    Attributes:
        finished: ``(B,)`` booleans: the games that ended in this step (with
            ``auto_reset`` they have already been dealt again).
        returns: ``(B, players)`` floats: each seat's share of the victory in a game
            that ended (``1 / len(winners)`` for a winner, else 0), zeros elsewhere.
        decisions: The decisions taken in this step: the actions given plus the bots'.
    """

    finished: NDArray[np.bool_]
    returns: NDArray[np.float64]
    decisions: int


@attrs.frozen
class ObservedStep:
    """What :meth:`BatchGame.step_observed` returns: one vector-environment step.

    Attributes:
        observations: ``(B, observation_size)`` float32: the viewer's observation of
            each game now (a new game where one ended).
        masks: ``(B, 74)`` booleans: the legal actions of each game now.
        terminated: ``(B,)``: the games that ended in this step.
        truncated: ``(B,)``: the games stopped by the turn limit in this step.
        winners: ``(B, players)`` booleans: the winners of the games that ended.
        final_observations: ``(B, observation_size)``: the viewer's last observation of
            each game that ended or was truncated (zeros in the other rows).
        decisions: The decisions taken: the actions given plus the bots'.
    """

    observations: NDArray[np.float32]
    masks: NDArray[np.bool_]
    terminated: NDArray[np.bool_]
    truncated: NDArray[np.bool_]
    winners: NDArray[np.bool_]
    final_observations: NDArray[np.float32]
    decisions: int


class BatchGame:
    """A batch of games, one per seed, stepped together (see the module docstring).

    Unlike the engine's states, a batch is mutable: its methods step and deal its games
    in place (arrays it returns are copies). It is not meant to be shared by threads.

    Args:
        options: The options of every game of the batch.
        seeds: One seed per game, each in ``[0, 2**64)``; game ``i`` is
            ``new_game(options, seeds[i])``.
        seats: ``None`` (every seat played from outside), or one entry per seat:
            ``None`` for a seat played through :meth:`step`, or a bot specification
            of :data:`BATCH_BOTS` (``"random"``, ``"greedy:feed_weight=2"``...).
        auto_reset: Deal a game that ends again at once, with the next seed of its
            slot: the ``k``-th game dealt in slot ``i`` (from 0) has the seed
            ``derive_seed(seeds[i], 2, k)`` for ``k >= 1``.

    Raises:
        InvalidOptionsError: If an argument is invalid (the message says which).
        BotSpecError: If a bot specification is malformed.
    """

    options: GameOptions
    """The options of every game."""
    auto_reset: bool
    """Whether a game that ends is dealt again at once."""

    def __init__(
        self,
        options: GameOptions,
        seeds: Iterable[int],
        *,
        seats: Sequence[str | BotSpec | None] | None = None,
        auto_reset: bool = False,
    ) -> None:
        self._setup(options, seeds, seats, auto_reset)
        reset_games(
            self._states, np.ones(len(self), dtype=np.bool_), self._seeds, self._base,
            self._deals, self._opt, self._bots.kinds, self._mts,
        )  # fmt: skip
        self._play_bots()

    def _setup(
        self,
        options: GameOptions,
        seeds: Iterable[int],
        seats: Sequence[str | BotSpec | None] | None,
        auto_reset: bool,
    ) -> None:
        """The constructor's checks and arrays, with no game dealt yet."""
        self._opt = options_array(options)
        self.options = options
        base = _check_seeds(seeds)
        if type(auto_reset) is not bool:
            raise InvalidOptionsError(f"auto_reset: expected True or False, got {auto_reset!r}")
        self.auto_reset = auto_reset
        self._bots = seat_bots(seats, options.num_players)
        size = len(base)
        self._base = base
        self._seeds = base.copy()
        self._deals = np.zeros(size, dtype=np.int64)
        self._states = np.zeros((size, WIDTH), dtype=np.int16)
        self._mts = np.zeros((size, options.num_players, MT_N + 1), dtype=np.uint32)
        self._mask = np.zeros((size, NUM_DISTINCT_ACTIONS), dtype=np.uint8)
        self._decisions = np.zeros(size, dtype=np.int64)
        self._work = scratch(_THREADS)
        self._bot_arrays = (
            self._bots.kinds,
            self._mts,
            self._bots.feed_weights,
            self._bots.thresholds,
        )

    @classmethod
    def deal_observed(
        cls,
        options: GameOptions,
        seeds: Iterable[int],
        viewer: int,
        *,
        seats: Sequence[str | BotSpec | None] | None = None,
    ) -> tuple[BatchGame, ObservedStep]:
        """A new batch, and ``viewer``'s observations and masks, in one pass: a vector env's reset.

        The batch is the one ``BatchGame(options, seeds, seats=seats)`` deals (the bots
        have played until an outside seat is to act); the step returned is what
        :meth:`step_observed` would then return with no game ended: the observations,
        the masks, the bots' decisions. The deal runs the kernel of
        :meth:`step_observed`, so a vector environment compiles one kernel for both.

        Raises:
            InvalidOptionsError: If an argument is invalid (the message says which).
            BotSpecError: If a bot specification is malformed.
        """
        games = cls.__new__(cls)
        games._setup(options, seeds, seats, False)
        return games, games._observed(np.zeros(len(games), dtype=np.int64), viewer, None, True)

    # ------------------------------------------------------------------ reading

    def __len__(self) -> int:
        return int(self._states.shape[0])

    @property
    def seeds(self) -> NDArray[np.uint64]:
        """``(B,)``: the seed of each game now in the batch."""
        return self._seeds.copy()

    @property
    def current_player(self) -> NDArray[np.int64]:
        """``(B,)``: the seat to act in each game (the last to act in a game that is over)."""
        return self._states[:, CURRENT].astype(np.int64)

    @property
    def is_over(self) -> NDArray[np.bool_]:
        """``(B,)``: whether each game is over."""
        return np.asarray(self._states[:, PHASE] == OVER)

    @property
    def turns(self) -> NDArray[np.int64]:
        """``(B,)``: the turn number of each game."""
        return self._states[:, TURN].astype(np.int64)

    @property
    def winners(self) -> NDArray[np.bool_]:
        """``(B, players)``: whether each seat has won each game (all false before the end)."""
        bits = self._states[:, WINNERS].astype(np.int64)
        seats = np.arange(self.options.num_players)
        return np.asarray((bits[:, None] >> seats[None, :]) & 1 == 1)

    @property
    def returns(self) -> NDArray[np.float64]:
        """``(B, players)``: each seat's share of the victory (``winner_shares``)."""
        return self._shares(self.winners)

    def legal_action_mask(self) -> NDArray[np.bool_]:
        """``(B, 74)``: the legal actions of each game, by action id (none once it is over)."""
        legal_masks(self._states, self._mask)
        return self._mask.astype(np.bool_)

    def observations(self, viewers: Sequence[int] | NDArray[Any] | None = None) -> NDArray[Any]:
        """``(B, observation_size)`` float32: the observation of each game.

        Row ``i`` equals ``encode_observation(observe(state(i), viewer))``, the viewer
        being the seat to act (or ``viewers[i]`` when given).
        """
        size = len(self)
        if viewers is None:
            chosen = np.full(size, -1, dtype=np.int64)
        else:
            chosen = np.asarray(viewers, dtype=np.int64)
            if (
                chosen.shape != (size,)
                or ((chosen < 0) | (chosen >= self.options.num_players)).any()
            ):
                raise InvalidOptionsError(f"viewers: expected {size} seats of the game")
        out = np.zeros((size, observation_size(self.options.num_players)), dtype=np.float32)
        observe_all(self._states, self._opt, chosen, out)
        return out

    def state(self, index: int) -> GameState:
        """Return game ``index`` as the engine's state (to show, save or check it).

        Raises:
            IndexError: If there is no such game.
        """
        if type(index) is not int or not -len(self) <= index < len(self):
            raise IndexError(f"game index {index!r} is not in a batch of {len(self)}")
        return row_state(self._states[index], self.options, int(self._seeds[index]))

    def set_state(self, index: int, state: GameState) -> None:
        """Replace game ``index`` by ``state`` (for search: a determinization, say).

        The bots of the batch go on with the generators they have.

        Raises:
            InvalidOptionsError: If ``state`` is not a state of this batch's options.
            IndexError: If there is no such game.
        """
        if not isinstance(state, GameState) or state.options != self.options:
            raise InvalidOptionsError("state: expected a GameState with the batch's options")
        if type(index) is not int or not -len(self) <= index < len(self):
            raise IndexError(f"game index {index!r} is not in a batch of {len(self)}")
        self._states[index] = state_row(state)
        self._seeds[index] = state.seed

    # ------------------------------------------------------------------ acting

    def step(self, action_ids: Sequence[int] | NDArray[Any]) -> BatchStep:
        """Play one action in every game that is not over (the others ignore theirs).

        Then the batch's bots play until a seat played from outside is to act; with
        ``auto_reset``, a game that ended is dealt again.

        Args:
            action_ids: ``(B,)`` action ids, one per game.

        Returns:
            What ended in this step (:class:`BatchStep`).

        Raises:
            IllegalActionError: If an action is not legal in its game (naming the
                first such game); no game changes.
            InvalidOptionsError: If ``action_ids`` is not ``B`` integers.
        """
        actions = self._checked(action_ids)
        before = self.is_over
        self._decisions[:] = 0
        apply_actions(self._states, self._seeds, self._opt, actions)
        self._play_bots()
        finished = self.is_over & ~before
        returns = self._shares(self.winners) * finished[:, None]
        decisions = int((~before).sum() + self._decisions.sum())
        if self.auto_reset and finished.any():
            self._reset(finished)
            decisions += int(self._decisions.sum())  # the bots' moves in the new games
        return BatchStep(finished, returns, decisions)

    def step_observed(
        self, action_ids: Sequence[int] | NDArray[Any], viewer: int, max_turns: int | None = None
    ) -> ObservedStep:
        """:meth:`step`, then observe, in one pass over the games: a vector env's step.

        A game that ends, or whose turn passes ``max_turns``, is dealt again at once (as
        :meth:`reset` deals, whatever ``auto_reset`` says) after its last observation is
        taken. The observations are ``viewer``'s.

        Raises:
            IllegalActionError: If an action is not legal in its game (no game changes).
            InvalidOptionsError: If an argument is invalid.
        """
        return self._observed(self._checked(action_ids), viewer, max_turns, False)

    def _observed(
        self, actions: NDArray[np.int64], viewer: int, max_turns: int | None, deal: bool
    ) -> ObservedStep:
        """:meth:`step_observed` of checked ``actions``, or with ``deal`` the first deal."""
        players = self.options.num_players
        if type(viewer) is not int or not 0 <= viewer < players:
            raise InvalidOptionsError(f"viewer: {viewer!r} is not a seat of the game")
        if max_turns is not None and (type(max_turns) is not int or max_turns < 1):
            raise InvalidOptionsError(f"max_turns: expected a positive integer, got {max_turns!r}")
        size = len(self)
        width = observation_size(players)
        observations = np.empty((size, width), dtype=np.float32)  # env_steps writes every row
        finals = np.empty((size, width), dtype=np.float32)
        ended = np.zeros(size, dtype=np.int8)
        winners = np.zeros(size, dtype=np.int64)
        env_steps(
            self._states, self._seeds, (self._base, self._deals), self._opt,
            self._bot_arrays, self._work, actions, viewer, max_turns or 0, deal,
            (observations, self._mask, finals, ended, winners, self._decisions),
        )  # fmt: skip
        won = (winners[:, None] >> np.arange(players)[None, :]) & 1 == 1
        return ObservedStep(
            observations,
            self._mask.astype(np.bool_),
            ended == 1,
            ended == 2,
            won,
            finals,
            int(self._decisions.sum()),
        )

    def reset(self, which: Sequence[bool] | NDArray[np.bool_] | None = None) -> None:
        """Deal the next game of each chosen slot (every slot when ``which`` is ``None``).

        The ``k``-th game dealt in slot ``i`` (from 0, the first deal of the batch) has
        the seed ``derive_seed(seeds[i], 2, k)``, ``seeds`` being the seeds the batch was
        made with; its bots are seeded again as in a new batch. The bots then play until
        an outside seat is to act.

        Raises:
            InvalidOptionsError: If ``which`` is not ``B`` booleans.
        """
        chosen = np.ones(len(self), dtype=np.bool_) if which is None else np.asarray(which)
        if chosen.shape != (len(self),) or chosen.dtype != np.bool_:
            raise InvalidOptionsError(f"which: expected {len(self)} booleans, one per game")
        self._reset(chosen)

    def play(self) -> int:
        """Let the bots play every game to its end (every seat must be a bot).

        Returns:
            The number of decisions taken.

        Raises:
            InvalidOptionsError: If a seat is played from outside.
        """
        if (self._bots.kinds == HUMAN).any():
            raise InvalidOptionsError("play: every seat must be played by a batch bot")
        self._decisions[:] = 0
        self._play_bots()
        return int(self._decisions.sum())

    def random_playouts(self, steps: int, seed: int, *, observations: bool = False) -> int:
        """Take ``steps`` uniformly random legal actions in every game, for benchmarks.

        Each step is a mask, a choice and a step in every game; a game that ends is
        dealt again (with a seed drawn from ``seed``'s stream). The bots of the batch
        do not play here. Returns the number of decisions taken.
        """
        size = len(self)
        out = np.zeros(
            (size if observations else 1, observation_size(self.options.num_players)),
            dtype=np.float32,
        )
        self._decisions[:] = 0
        random_playouts(
            self._states, self._seeds, self._opt, int(steps), np.uint64(seed), observations,
            out, self._decisions,
        )  # fmt: skip
        return int(self._decisions.sum())

    # ------------------------------------------------------------------ helpers

    def _play_bots(self) -> None:
        if (self._bots.kinds != HUMAN).any():
            play_bots(
                self._states, self._seeds, self._opt, self._bot_arrays, self._work,
                self._decisions,
            )  # fmt: skip

    def _reset(self, which: NDArray[np.bool_]) -> None:
        self._decisions[:] = 0
        reset_games(
            self._states, which, self._seeds, self._base, self._deals, self._opt,
            self._bots.kinds, self._mts,
        )  # fmt: skip
        self._play_bots()

    def _checked(self, action_ids: Sequence[int] | NDArray[Any]) -> NDArray[np.int64]:
        """The actions as int64, checked: one per game, each legal or in a finished game."""
        actions = np.asarray(action_ids)
        if actions.shape != (len(self),) or not np.issubdtype(actions.dtype, np.integer):
            raise InvalidOptionsError(
                f"action_ids: expected {len(self)} integers, one per game, got shape "
                f"{actions.shape} of {actions.dtype}"
            )
        actions = actions.astype(np.int64)
        bad = first_illegal(self._states, actions)
        if bad >= 0:
            raise IllegalActionError(self._illegal(bad, int(actions[bad])))
        return actions

    def _shares(self, winners: NDArray[np.bool_]) -> NDArray[np.float64]:
        count = winners.sum(axis=1, keepdims=True)
        return np.where(winners, 1.0 / np.maximum(count, 1), 0.0)

    def _illegal(self, index: int, action: int) -> str:
        state = self.state(index)
        if not 0 <= action < NUM_DISTINCT_ACTIONS:
            return f"game {index}: {action} is not an action id (0 to {NUM_DISTINCT_ACTIONS - 1})"
        return (
            f"game {index}: action {action} ({action_from_id(action)!r}) is not legal for "
            f"player {state.current_player} in phase {state.phase.value!r}"
        )
