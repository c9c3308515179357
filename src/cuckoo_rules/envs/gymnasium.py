"""A single-agent Gymnasium environment for CuBirds: one learner against bots.

Install with ``pip install 'cuckoo-rules[gymnasium]'``. Importing this module registers
the environment as ``"cuckoo_rules/CuBirds-v0"``, so either of these works::

    import cuckoo_rules.envs.gymnasium
    env = gymnasium.make("cuckoo_rules/CuBirds-v0", num_players=3, opponents="greedy")

    env = gymnasium.make("cuckoo_rules.envs.gymnasium:cuckoo_rules/CuBirds-v0")

The learner plays seat ``seat`` (0 by default); the other seats are played by bots built
from specifications such as ``"greedy"``, ``"random"`` or ``"ismcts:iterations=200"``
(:func:`~cuckoo_rules.make_bot`). The bots act on their own whenever it is their turn,
so :meth:`~CuckooEnv.reset` and :meth:`~CuckooEnv.step` return only when the learner is to
act or the episode has ended.

**Observation**: :func:`~cuckoo_rules.encode_observation` of the learner's own
:class:`~cuckoo_rules.PlayerView` as a ``float32`` array in ``Box(0, 110)`` of
:func:`~cuckoo_rules.observation_size` values (seats relative to the learner; see
:mod:`cuckoo_rules.observation`). It never shows another hand or the draw-pile order.

**Action**: an action id of :func:`~cuckoo_rules.action_id`, ``Discrete(74)``. The legal
ones are given as ``info["action_mask"]`` (an ``int8`` array of 74, all zeros once the
episode has ended) after :meth:`~CuckooEnv.reset` and every :meth:`~CuckooEnv.step`,
and by :meth:`~CuckooEnv.action_masks` (the convention of sb3-contrib's
``MaskablePPO``).

**Reward**: 0 on every step except the last; when the game ends, ``1 / len(winners)`` if
the learner is among the winners (a victory shared by ``k`` seats is split), else 0.

**Illegal actions** (an id in ``0..73`` that is not legal now) are handled as
``illegal_action`` says:

- ``"penalize"`` (the default): the episode ends at once (``terminated=True``) with
  reward ``illegal_reward`` (-1.0 by default) and ``info["illegal_action"] = True``; the
  game itself is left as it was. This is the default because Gymnasium's
  :func:`~gymnasium.utils.env_checker.check_env` steps with unmasked random actions.
- ``"raise"``: raise :class:`~cuckoo_rules.IllegalActionError`, leaving the environment
  unchanged. Use it with masked agents to catch bugs early.

An action that is not an id at all (``80``, ``-1``, ``1.5``) always raises
:class:`~cuckoo_rules.IllegalActionError`; an illegal action is never replaced by a
legal one.

**Episode end**: the game always ends (``terminated``). With ``max_turns`` set, an
episode still running after that many turns is truncated (``truncated``, reward 0).
:meth:`~CuckooEnv.step` after the end raises :class:`gymnasium.error.ResetNeeded`.

**Seeding**: ``reset(seed=s)`` deals exactly ``new_game(options, s)`` and seeds the
environment's ``np_random``, from which every later ``reset()`` without a seed draws its
deal. The bot of seat ``k`` gets the seed ``derive_seed(deal, 1, k)``
(:func:`cuckoo_rules.bots.derive_seed`), so a seeded episode is reproducible whatever the
bots (except an ``ismcts`` bot with a time budget). No global random state is used.
The episode is a :class:`~cuckoo_rules.Match` (:attr:`CuckooEnv.match`) with the learner's
seat played from outside: a bot that follows the game (``ismcts``) is told what its seat
saw, and the events are only computed when such a bot plays.

**Rendering**: ``render_mode="ansi"`` makes :meth:`~CuckooEnv.render` return the terminal
front end's screen (:func:`cuckoo_rules.terminal.render_view`) of the learner's view;
``"human"`` prints it.

Example:
    >>> env = CuckooEnv(num_players=3, opponents="random")
    >>> obs, info = env.reset(seed=5)
    >>> obs.shape, info["action_mask"].shape
    ((179,), (74,))
    >>> terminated = truncated = False
    >>> while not (terminated or truncated):
    ...     action = int(info["action_mask"].nonzero()[0][0])
    ...     obs, reward, terminated, truncated, info = env.step(action)
    >>> reward == (1 / len(env.game_state.winners) if 0 in env.game_state.winners else 0)
    True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import needs_extra as _needs_extra

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from gymnasium.error import ResetNeeded
    from numpy.typing import NDArray
except ModuleNotFoundError as error:
    raise _needs_extra(__name__, "gymnasium", error) from error

from ..actions import NUM_DISTINCT_ACTIONS, action_from_id
from ..bots import BotSpec, derive_seed, make_bot
from ..cards import DECK_SIZE
from ..errors import IllegalActionError, InvalidOptionsError
from ..match import Match
from ..observation import encode_observation, observation_size
from ..options import GameOptions
from ..outcome import winner_shares
from ..state import GameState
from ..views import observe
from ._common import (
    RENDER_MODES,
    action_index,
    check_max_turns,
    check_render_mode,
    check_seed,
    describe_id,
    learner_seats,
    legal_ids,
    render,
    render_text,
    resolve_options,
)

__all__ = ["ENV_ID", "ILLEGAL_ACTION_MODES", "CuckooEnv"]

ENV_ID = "cuckoo_rules/CuBirds-v0"
"""The id the environment is registered under with :func:`gymnasium.register`."""

ILLEGAL_ACTION_MODES: tuple[str, ...] = ("penalize", "raise")
"""The accepted values of ``illegal_action``."""

Action = int | np.integer[Any]
"""An action id: a Python or NumPy integer from 0 to 73."""

Observation = NDArray[np.float32]
"""An observation vector."""


def _float32(values: tuple[int, ...]) -> Observation:
    """``np.asarray(values, dtype=np.float32)``, faster for the observation's small counts.

    Every value of an observation is a count from 0 to 110: ``bytes`` packs them at C
    speed (about 2.5 times as fast as converting the ints one by one), and any other
    value takes the general conversion.
    """
    try:
        packed = np.frombuffer(bytes(values), dtype=np.uint8)
    except (TypeError, ValueError):  # not all integers from 0 to 255
        return np.asarray(values, dtype=np.float32)
    return packed.astype(np.float32)


class CuckooEnv(gymnasium.Env[Observation, Action]):
    """One learner against bots (see the module docstring).

    Args:
        num_players: 2 to 5; defaults to 2, or to ``options.num_players``.
        options: The rule variants; if given with ``num_players``, both must agree.
        seat: The learner's seat, 0 to ``num_players - 1``.
        opponents: One bot specification for every other seat, or one per other seat
            in turn order after the learner (``opponents[0]`` plays seat
            ``seat + 1``, and so on around the table).
        illegal_action: ``"penalize"`` (default) or ``"raise"``, see the module
            docstring.
        illegal_reward: The reward of an illegal action under ``"penalize"``.
        max_turns: If set, truncate an episode that has not ended after this many turns.
        render_mode: ``None``, ``"ansi"`` or ``"human"``.

    Raises:
        InvalidOptionsError: If an argument is invalid (the message says which).
        BotSpecError: If an opponent specification is malformed.

    Attributes:
        options: The game options.
        seat: The learner's seat.
        opponents: The bot specification of each seat (``None`` for the learner's).
        illegal_action: How illegal actions are handled.
        illegal_reward: The reward of an illegal action under ``"penalize"``.
        max_turns: The turn limit, or ``None``.

    Example:
        >>> env = CuckooEnv(num_players=4, seat=2, opponents=["greedy", "random", "greedy"])
        >>> [spec.kind if spec else "learner" for spec in env.opponents]
        ['random', 'greedy', 'learner', 'greedy']
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        num_players: int | None = None,
        options: GameOptions | None = None,
        *,
        seat: int = 0,
        opponents: str | BotSpec | Sequence[str | BotSpec] = "greedy",
        illegal_action: str = "penalize",
        illegal_reward: float = -1.0,
        max_turns: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        self.options: GameOptions = resolve_options(num_players, options)
        n = self.options.num_players
        self.seat: int
        self.opponents: tuple[BotSpec | None, ...]
        self.seat, self.opponents = learner_seats(self.options, seat, opponents)
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise InvalidOptionsError(
                f"illegal_action: {illegal_action!r} is not one of "
                + ", ".join(map(repr, ILLEGAL_ACTION_MODES))
            )
        self.illegal_action: str = illegal_action
        if isinstance(illegal_reward, bool) or not isinstance(illegal_reward, int | float):
            raise InvalidOptionsError(f"illegal_reward: expected a number, got {illegal_reward!r}")
        self.illegal_reward: float = float(illegal_reward)
        self.max_turns: int | None = check_max_turns(max_turns)
        self.render_mode: str | None = check_render_mode(render_mode)
        self.observation_space: spaces.Box[np.float32] = spaces.Box(
            0.0, float(DECK_SIZE), shape=(observation_size(n),), dtype=np.float32
        )
        self.action_space: spaces.Discrete = spaces.Discrete(NUM_DISTINCT_ACTIONS)
        self._match: Match | None = None
        self._done = True
        # The learner's legal action ids and the state they are for, so that the info
        # and action_masks() of a step look them up once.
        self._ids_of: tuple[GameState | None, list[int]] = (None, [])

    # ------------------------------------------------------------------ state

    @property
    def match(self) -> Match:
        """The :class:`~cuckoo_rules.Match` of the episode (its record, its event log).

        Like :attr:`game_state`, it holds every hidden card: reading it is cheating for
        an agent.

        Raises:
            ResetNeeded: Before the first :meth:`reset`.
        """
        if self._match is None:
            raise ResetNeeded("the environment has not been reset yet: call reset()")
        return self._match

    @property
    def game_state(self) -> GameState:
        """The underlying :class:`~cuckoo_rules.GameState` (read-only; states are frozen).

        It holds every hand and the draw-pile order: reading it is cheating for an
        agent. It is there for tests, logging and analysis.

        Raises:
            ResetNeeded: Before the first :meth:`reset`.
        """
        return self.match.state

    # ------------------------------------------------------------------ API

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a new game and let the bots play until the learner is to act.

        Args:
            seed: The deal's seed, an integer in ``[0, 2**64)``: the game is exactly
                ``new_game(self.options, seed)``. ``None``: draw the deal from
                ``np_random``.
            options: Accepted for the Gymnasium API and ignored (the rules are fixed
                when the environment is built).

        Returns:
            The learner's observation and ``{"action_mask": int8 array of 74}``.

        Raises:
            InvalidOptionsError: If ``seed`` is not ``None`` or an integer in range.
        """
        deal = None if seed is None else check_seed(seed)
        super().reset(seed=seed)
        if deal is None:
            deal = int(self.np_random.integers(0, 2**64, dtype=np.uint64))
        seats = [
            None if spec is None else make_bot(spec, derive_seed(deal, 1, s))
            for s, spec in enumerate(self.opponents)
        ]
        match = self._match = Match(self.options, deal, seats, keep_events=False)
        self._done = False
        # No game can end before the learner's first turn (2 cards at most fly home a turn).
        match.play_bots(max_turns=self.max_turns)
        state = match.state
        return self._observation(state), {"action_mask": self._mask(state)}

    def step(self, action: Action) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play the learner's action, then the bots' until the learner is to act again.

        Returns:
            ``(observation, reward, terminated, truncated, info)``, as Gymnasium
            defines them; ``info["action_mask"]`` gives the next legal actions, and at
            the end of a game ``info["winners"]`` the winning seats.

        Raises:
            IllegalActionError: If ``action`` is not an action id, or (with
                ``illegal_action="raise"``) not legal now.
            ResetNeeded: If the episode has ended or :meth:`reset` was never called.
        """
        match = self._match
        if match is None or self._done:
            raise ResetNeeded("the episode has ended (or never began): call reset()")
        index = action_index(action)
        try:
            match.act(self.seat, action_from_id(index))
        except IllegalActionError as error:
            if self.illegal_action == "raise":
                raise IllegalActionError(
                    f"the learner (seat {self.seat}) cannot play action {describe_id(index)} "
                    f"now: {error}; only actions whose action_mask entry is 1 are legal"
                ) from error
            self._done = True
            state = match.state
            ended = {"action_mask": self._mask(state), "illegal_action": True}
            return self._observation(state), self.illegal_reward, True, False, ended
        max_turns = self.max_turns
        match.play_bots(max_turns=max_turns)
        after = match.state
        terminated = after.is_over
        truncated = not terminated and max_turns is not None and after.turn > max_turns
        self._done = terminated or truncated
        reward = winner_shares(after.winners, after.num_players)[self.seat] if terminated else 0.0
        info: dict[str, Any] = {"action_mask": self._mask(after)}
        if terminated:
            info["winners"] = list(after.winners)
        return self._observation(after), reward, terminated, truncated, info

    def action_masks(self) -> NDArray[np.bool_]:
        """The legal actions now, as a boolean array of 74 (all false once it has ended).

        This is the method sb3-contrib's ``MaskablePPO`` looks for.
        """
        return self._mask(self.game_state).astype(np.bool_)

    def render(self) -> str | None:
        """Render the learner's view, as set by ``render_mode``.

        Returns:
            The screen as one string for ``"ansi"``; ``None`` for ``"human"`` (the
            screen is printed) and when no render mode was set (with a warning).
        """
        return render(
            self.render_mode, lambda: render_text(self.game_state, self.seat), gymnasium.logger.warn
        )

    def close(self) -> None:
        """Release nothing: the environment holds no outside resources."""

    # ------------------------------------------------------------------ helpers

    def _mask(self, state: GameState) -> NDArray[np.int8]:
        """The action mask of the match's ``state`` (passed in: one read of it per step)."""
        mask = np.zeros(NUM_DISTINCT_ACTIONS, dtype=np.int8)
        if not (self._done or state.is_over or state.current_player != self.seat):
            known, ids = self._ids_of
            if known is not state:
                ids = legal_ids(state)
                self._ids_of = (state, ids)
            mask.put(ids, 1)  # legal_action_mask(state), without a tuple of 74
        return mask

    def _observation(self, state: GameState) -> Observation:
        """The learner's observation of the match's ``state``."""
        return _float32(encode_observation(observe(state, self.seat)))


def _register() -> None:
    """Register :data:`ENV_ID` with Gymnasium, unless it already is."""
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(
            id=ENV_ID,
            entry_point="cuckoo_rules.envs.gymnasium:CuckooEnv",
            vector_entry_point="cuckoo_rules.envs.vector:BatchCuckooEnv",
        )


_register()
