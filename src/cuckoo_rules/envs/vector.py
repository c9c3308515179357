"""A Gymnasium vector environment on the batch simulator: one learner against batched bots.

Install with ``pip install 'cuckoo-rules[batch,gymnasium]'``. :class:`BatchCuckooEnv` is
``num_envs`` copies of :class:`~cuckoo_rules.envs.gymnasium.CuckooEnv` stepped at once,
the opponents playing inside the compiled kernels, so a step never goes back to Python
per game. It is also what ``gymnasium.make_vec("cuckoo_rules/CuBirds-v0", num_envs=...,
vectorization_mode="vector_entry_point")`` builds. (It was
``cuckoo_rules.batch.gymnasium.BatchCuckooEnv``, a deprecated path that still works.)

Each sub-environment plays exactly the games of ``CuckooEnv``: after ``reset(seed=s)``,
sub-environment ``i`` deals ``new_game(options, s + i)`` and its opponents are the
random and greedy bots seeded as ``CuckooEnv`` seeds them, so the same learner actions
give the same games, observations, masks and rewards (a test checks this). Spaces,
rewards and observations are those of ``CuckooEnv``, batched:

- ``observation_space``: ``Box(0, 110, (num_envs, observation_size), float32)``, the
  learner's own view (seats relative to the learner);
- ``action_space``: ``MultiDiscrete([74] * num_envs)``; :meth:`BatchCuckooEnv.action_masks`
  gives the legal ones, as sb3-contrib's ``MaskablePPO`` expects, and so does
  ``infos["action_mask"]``;
- reward: ``1 / len(winners)`` to a winning learner when its game ends, else 0.

**Autoreset** is Gymnasium's ``SAME_STEP`` mode: a sub-environment whose game ends (or is
truncated by ``max_turns``) is dealt its next game in the same step; the observation
returned is the new game's, the last one of the old game is in ``infos["final_obs"]``
(rows marked by ``infos["_final_obs"]``), and ``infos["winners"]``, a
``(num_envs, num_players)`` boolean array, the winning seats of the games that ended
(rows marked by ``infos["_winners"]``). The ``k``-th later game of sub-environment ``i`` has the
seed ``derive_seed(s + i, 2, k)``.

An illegal action raises :class:`~cuckoo_rules.IllegalActionError` naming the
sub-environment, and no game changes: use the masks.

Example:
    >>> env = BatchCuckooEnv(num_envs=8, num_players=3, opponents="greedy")
    >>> obs, infos = env.reset(seed=1)
    >>> obs.shape, env.action_masks().shape
    ((8, 179), (8, 74))
    >>> obs, rewards, terminated, truncated, infos = env.step(env.action_masks().argmax(axis=1))
    >>> rewards.shape, bool(terminated.any())
    ((8,), False)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import InvalidOptionsError, needs_extra

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
    from numpy.typing import NDArray
except ModuleNotFoundError as error:  # pragma: no cover - depends on the environment
    raise needs_extra(__name__, "gymnasium", error) from error

from ..actions import NUM_DISTINCT_ACTIONS
from ..batch import BatchGame
from ..bots.specs import BotSpec
from ..cards import DECK_SIZE
from ..observation import observation_size
from ..options import GameOptions
from ..rng import SEED_LIMIT
from ._common import check_max_turns, learner_seats, resolve_options

__all__ = ["BatchCuckooEnv"]

Observations = NDArray[np.float32]
"""A batch of observations, one row per sub-environment."""


class BatchCuckooEnv(VectorEnv[Observations, NDArray[np.int64], NDArray[Any]]):
    """``num_envs`` games of one learner against batched bots (see the module docstring).

    Args:
        num_envs: The number of sub-environments (games stepped at once).
        num_players: 2 to 5; defaults to 2, or to ``options.num_players``.
        options: The rule variants; if given with ``num_players``, both must agree.
        seat: The learner's seat in every game.
        opponents: One bot specification for every other seat (``"random"``,
            ``"greedy"``, ``"greedy:feed_weight=2"``), or one per other seat in turn
            order after the learner, as for ``CuckooEnv``.
        max_turns: If set, truncate a game still running after that many turns.

    Raises:
        InvalidOptionsError: If an argument is invalid (the message says which).
        BotSpecError: If an opponent specification is malformed.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int = 64,
        num_players: int | None = None,
        options: GameOptions | None = None,
        *,
        seat: int = 0,
        opponents: str | BotSpec | Sequence[str | BotSpec] = "greedy",
        max_turns: int | None = None,
    ) -> None:
        if type(num_envs) is not int or num_envs < 1:
            raise InvalidOptionsError(f"num_envs: expected a positive integer, got {num_envs!r}")
        self.options: GameOptions = resolve_options(num_players, options)
        """The game options."""
        n = self.options.num_players
        self.seat: int
        """The learner's seat."""
        self.seats: tuple[BotSpec | None, ...]
        """The bot of each seat (``None`` for the learner's)."""
        self.seat, self.seats = learner_seats(self.options, seat, opponents)
        self.max_turns: int | None = check_max_turns(max_turns)
        """The turn limit, or ``None``."""
        self.num_envs = num_envs
        size = observation_size(n)
        self.single_observation_space = spaces.Box(
            0.0, float(DECK_SIZE), shape=(size,), dtype=np.float32
        )
        self.single_action_space = spaces.Discrete(NUM_DISTINCT_ACTIONS)
        self.observation_space = spaces.Box(
            0.0, float(DECK_SIZE), shape=(num_envs, size), dtype=np.float32
        )
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, NUM_DISTINCT_ACTIONS))
        self._games: BatchGame | None = None
        self._masks: NDArray[np.bool_] | None = None  # the masks of the last step
        # Checks the bots at once, with the kernel of reset and step (compiled if need be).
        BatchGame.deal_observed(self.options, [0], self.seat, seats=list(self.seats))

    @property
    def games(self) -> BatchGame:
        """The :class:`~cuckoo_rules.batch.BatchGame` of the sub-environments.

        It holds every hidden card: reading it is cheating for an agent (it is there for
        tests and analysis).

        Raises:
            gymnasium.error.ResetNeeded: Before the first :meth:`reset`.
        """
        if self._games is None:
            raise gymnasium.error.ResetNeeded("the environment has not been reset: call reset()")
        return self._games

    def reset(
        self,
        *,
        seed: int | Sequence[int] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Observations, dict[str, Any]]:
        """Deal a game in every sub-environment; the bots play until the learner is to act.

        Args:
            seed: ``s`` deals ``new_game(options, s + i)`` in sub-environment ``i``; a
                list gives one seed per sub-environment; ``None`` draws them from
                ``np_random``.
            options: Accepted for the Gymnasium API and ignored.

        Returns:
            The observations and ``{"action_mask": (num_envs, 74) bool}``.
        """
        if seed is None or isinstance(seed, int | np.integer):
            super().reset(seed=None if seed is None else int(seed))
        else:
            super().reset(seed=None)
        if seed is None:
            seeds = [int(x) for x in self.np_random.integers(0, 2**63, size=self.num_envs)]
        elif isinstance(seed, int | np.integer) and not isinstance(seed, bool):
            if not 0 <= int(seed) <= SEED_LIMIT - self.num_envs:
                raise InvalidOptionsError(f"seed: {seed!r} is not in [0, 2**64 - num_envs]")
            seeds = [int(seed) + i for i in range(self.num_envs)]
        elif isinstance(seed, bool):
            raise InvalidOptionsError(f"seed: expected an integer or a list, got {seed!r}")
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise InvalidOptionsError(
                    f"seed: expected one seed per sub-environment ({self.num_envs}), "
                    f"got {len(seeds)}"
                )
        self._games, dealt = BatchGame.deal_observed(
            self.options, seeds, self.seat, seats=list(self.seats)
        )
        self._masks = dealt.masks
        return dealt.observations, {"action_mask": self.action_masks()}

    def step(
        self, actions: NDArray[Any] | Sequence[int]
    ) -> tuple[Observations, NDArray[Any], NDArray[Any], NDArray[Any], dict[str, Any]]:
        """Play the learner's action in every sub-environment, then the bots'.

        Returns:
            ``(observations, rewards, terminations, truncations, infos)``, each with one
            row per sub-environment (see the module docstring for the autoreset).

        Raises:
            IllegalActionError: If an action is not legal in its game (no game changes).
            InvalidOptionsError: If ``actions`` is not ``num_envs`` integers.
        """
        step = self.games.step_observed(actions, self.seat, self.max_turns)
        ended = step.terminated | step.truncated
        counts = step.winners.sum(axis=1)
        won = step.winners[:, self.seat] & step.terminated
        rewards = np.where(won, 1.0 / np.maximum(counts, 1), 0.0)
        infos: dict[str, Any] = {}
        if ended.any():
            infos["final_obs"] = step.final_observations
            infos["_final_obs"] = ended
            infos["winners"] = step.winners
            infos["_winners"] = step.terminated
        infos["action_mask"] = step.masks
        self._masks = step.masks
        return step.observations, rewards, step.terminated, step.truncated, infos

    def action_masks(self) -> NDArray[np.bool_]:
        """``(num_envs, 74)``: the learner's legal actions in every sub-environment."""
        if self._masks is None:
            self._masks = self.games.legal_action_mask()
        return self._masks.copy()
