"""A PettingZoo AEC environment for CuBirds: every seat is an agent.

Install with ``pip install 'cuckoo-rules[pettingzoo]'``. :func:`env` returns the
environment wrapped as PettingZoo's classic games are; :class:`CuckooAECEnv` (also
exported as ``raw_env``) is the unwrapped environment.

**Agents** are ``"player_0"`` to ``"player_{n-1}"``; ``player_k`` is seat ``k`` of the
engine. The dealer, chosen by the seeded deal, takes the first turn, so the first
``agent_selection`` is not always ``player_0``. ``agent_selection`` is always the seat to
act (``state.current_player``); a seat acts several times in a row within its turn (lay,
then the optional draw, then the optional flock).

**Observations** are ``{"observation": ..., "action_mask": ...}``:

- ``observation``: :func:`~cuckoo_rules.encode_observation` of the agent's own
  :class:`~cuckoo_rules.PlayerView` as a ``float32`` array of
  :func:`~cuckoo_rules.observation_size` values, in ``Box(0, 110)`` (seats relative to the
  agent; see :mod:`cuckoo_rules.observation` for the layout). It is built from that
  agent's view only, so it never shows another hand or the draw-pile order.
- ``action_mask``: an ``int8`` array of 74 values, ``legal_action_mask`` of the agent's
  view when it is to act, all zeros otherwise (and once the episode has ended).

**Actions** are the ids of :func:`~cuckoo_rules.action_id`, ``Discrete(74)``.

**Rewards**: 0 on every step except the last; when the game ends each winner gets
``1 / len(winners)`` (a victory shared by ``k`` seats is split) and every other seat 0,
so the final rewards sum to 1. ``last()`` returns the reward accumulated since the
agent last acted, as PettingZoo requires.

**Termination and truncation**: the game always ends, at which point every agent is
terminated and must then be stepped with ``None`` (PettingZoo's dead-agent convention)
until ``agents`` is empty. With ``max_turns`` set, an episode still running after that
many turns is truncated instead (every agent, reward 0).

**Illegal actions** raise :class:`~cuckoo_rules.IllegalActionError` (a
:class:`ValueError`) naming the agent and the action, and leave the environment
unchanged, so the caller may retry. The ``action_mask`` tells which ids are legal; an
id outside ``0..73`` fails :class:`~pettingzoo.utils.wrappers.AssertOutOfBoundsWrapper`'s
check first. For PettingZoo's classic convention instead (the offender loses with
reward -1 and the episode ends), wrap the raw environment yourself::

    from pettingzoo.utils import wrappers
    e = wrappers.OrderEnforcingWrapper(
        wrappers.TerminateIllegalWrapper(raw_env(num_players=3), illegal_reward=-1)
    )

**Seeding**: ``reset(seed=s)`` deals exactly ``new_game(options, s)``, and seeds the
environment's own :class:`random.Random`, from which every later ``reset()`` without a
seed draws its deal; before any seed is given, that generator is seeded from the
operating system. No global random state is used: the same seed always gives the same
episode.

**Rendering**: ``render_mode="ansi"`` makes :meth:`~CuckooAECEnv.render` return the
terminal front end's screen (:func:`cuckoo_rules.terminal.render_view`) of the view of
the seat to act (after the game, of the seat whose turn ended it), so it shows that
seat's hand; ``"human"`` prints the same text.

Example:
    >>> from cuckoo_rules.envs.pettingzoo import env
    >>> game = env(num_players=3)
    >>> game.reset(seed=7)
    >>> for agent in game.agent_iter():
    ...     obs, reward, terminated, truncated, info = game.last()
    ...     mask = obs["action_mask"]
    ...     action = None if terminated or truncated else int(mask.nonzero()[0][0])
    ...     game.step(action)
    >>> game.agents
    []
"""

from __future__ import annotations

import random
from typing import Any

from ..errors import needs_extra as _needs_extra

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from numpy.typing import NDArray
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ModuleNotFoundError as error:
    raise _needs_extra(__name__, "pettingzoo", error) from error

from ..actions import NUM_DISTINCT_ACTIONS, action_from_id
from ..cards import DECK_SIZE
from ..engine import apply, new_game
from ..errors import IllegalActionError
from ..observation import encode_observation, observation_size
from ..options import GameOptions
from ..outcome import winner_shares
from ..state import GameState
from ..views import observe
from ._common import (
    RENDER_MODES,
    action_index,
    agent_name,
    check_max_turns,
    check_render_mode,
    check_seed,
    describe_id,
    legal_ids,
    render,
    render_text,
    resolve_options,
)

__all__ = ["CuckooAECEnv", "env", "raw_env"]

Observation = dict[str, NDArray[Any]]
"""An observation: ``{"observation": float32 array, "action_mask": int8 array}``."""


class CuckooAECEnv(AECEnv):  # type: ignore[misc]
    """The unwrapped PettingZoo AEC environment (see the module docstring).

    Prefer :func:`env`, which adds PettingZoo's usual checking wrappers.

    Args:
        num_players: 2 to 5; defaults to 2, or to ``options.num_players``.
        options: The rule variants; if given with ``num_players``, both must agree.
        render_mode: ``None``, ``"ansi"`` or ``"human"``.
        max_turns: If set, truncate an episode that has not ended after this many turns.

    Raises:
        InvalidOptionsError: If an argument is invalid (the message says which).

    Attributes:
        options: The game options.
        render_mode: The render mode.
        max_turns: The turn limit, or ``None``.
        possible_agents: ``["player_0", ..., "player_{n-1}"]``.

    Example:
        >>> game = CuckooAECEnv(num_players=2)
        >>> game.reset(seed=1)
        >>> game.agent_selection, game.observation_space("player_0")["observation"].shape
        ('player_1', (160,))
    """

    metadata: dict[str, Any] = {  # noqa: RUF012  (PettingZoo's convention)
        "render_modes": list(RENDER_MODES),
        "name": "cuckoo_rules_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        num_players: int | None = None,
        options: GameOptions | None = None,
        render_mode: str | None = None,
        max_turns: int | None = None,
    ) -> None:
        super().__init__()
        self.options: GameOptions = resolve_options(num_players, options)
        self.render_mode: str | None = check_render_mode(render_mode)
        self.max_turns: int | None = check_max_turns(max_turns)
        n = self.options.num_players
        self.possible_agents: list[str] = [agent_name(seat) for seat in range(n)]
        self._seats: dict[str, int] = {agent: s for s, agent in enumerate(self.possible_agents)}
        size = observation_size(n)
        # One space object per agent, so that seeding one does not seed the others.
        self.observation_spaces: dict[str, spaces.Dict] = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0, DECK_SIZE, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (NUM_DISTINCT_ACTIONS,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces: dict[str, spaces.Discrete] = {
            agent: spaces.Discrete(NUM_DISTINCT_ACTIONS) for agent in self.possible_agents
        }
        self._rng: random.Random | None = None
        self._state: GameState | None = None
        self._finished = False  # whether the episode has ended (terminated or truncated)
        # The legal action ids of the seat to act in ``_state`` ([] once the episode has
        # ended), kept by _update_infos for the infos and the action mask.
        self._legal_ids: list[int] = []

    # ------------------------------------------------------------------ spaces

    def observation_space(self, agent: str) -> spaces.Dict:
        """The observation space of ``agent`` (the same object on every call)."""
        return self.observation_spaces[self._check_agent(agent)]

    def action_space(self, agent: str) -> spaces.Discrete:
        """The action space of ``agent``: ``Discrete(74)`` (the same object on every call)."""
        return self.action_spaces[self._check_agent(agent)]

    # ------------------------------------------------------------------ state

    @property
    def game_state(self) -> GameState:
        """The underlying :class:`~cuckoo_rules.GameState` (read-only; states are frozen).

        It holds every hand and the draw-pile order: reading it is cheating for an
        agent. It is there for tests, logging and analysis.

        Raises:
            gymnasium.error.ResetNeeded: Before the first :meth:`reset`.
        """
        if self._state is None:
            raise gymnasium.error.ResetNeeded("the environment has not been reset: call reset()")
        return self._state

    def seat_of(self, agent: str) -> int:
        """The engine seat of ``agent``: ``seat_of("player_2") == 2``."""
        return self._seats[self._check_agent(agent)]

    def _check_agent(self, agent: str) -> str:
        if agent not in self._seats:
            raise KeyError(
                f"{agent!r} is not an agent of this game; agents: {self.possible_agents}"
            )
        return agent

    # ------------------------------------------------------------------ API

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game.

        Args:
            seed: The deal's seed, an integer in ``[0, 2**64)``: the game is exactly
                ``new_game(self.options, seed)``, and later unseeded resets are drawn
                from a generator seeded with it. ``None``: draw the deal from that
                generator.
            options: Accepted for the PettingZoo API and ignored (the rules are fixed
                when the environment is built).

        Raises:
            InvalidOptionsError: If ``seed`` is not ``None`` or an integer in range.
        """
        if seed is not None:
            deal = check_seed(seed)
            self._rng = random.Random(deal)
        else:
            if self._rng is None:
                self._rng = random.Random()  # seeded from the operating system
            deal = self._rng.getrandbits(64)
        self._state = new_game(self.options, deal)
        self._finished = False
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._skip_agent_selection = None
        self.agent_selection = agent_name(self._state.current_player)
        self._update_infos()

    def observe(self, agent: str) -> Observation:
        """Return ``agent``'s observation, built from its own view only.

        Returns:
            ``{"observation": float32 array, "action_mask": int8 array of 74}``; the mask
            is all zeros unless the agent is to act in an episode that has not ended.
        """
        seat = self.seat_of(agent)
        view = observe(self.game_state, seat)
        observation = np.asarray(encode_observation(view), dtype=np.float32)
        mask = np.zeros(NUM_DISTINCT_ACTIONS, dtype=np.int8)
        if view.is_my_turn and not self._finished:
            # legal_action_mask(view), from the ids _update_infos found for this state
            mask[self._legal_ids] = 1
        return {"observation": observation, "action_mask": mask}

    def step(self, action: int | np.integer[Any] | None) -> None:
        """Play ``action`` (an action id) for ``agent_selection``.

        Once the episode has ended, each agent is stepped with ``None`` in turn and
        leaves ``agents`` (PettingZoo's dead-agent convention).

        Raises:
            IllegalActionError: If the action is not an id that is legal now (or the
                episode is over and every agent has left); the environment is unchanged.
            ValueError: If an agent whose episode has ended is given an action other
                than ``None``.
        """
        agent = self.agent_selection
        if self._ended(agent):
            self._was_dead_step(action)
            return
        if self._finished:
            raise IllegalActionError("the episode has ended and every agent left: call reset()")
        state = self.game_state
        index = action_index(action)
        try:
            after = apply(state, action_from_id(index))
        except IllegalActionError as error:
            raise IllegalActionError(
                f"{agent} cannot play action {describe_id(index)} now: {error}; "
                "only actions whose action_mask entry is 1 are legal"
            ) from error
        self._state = after
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if after.is_over:
            self._finished = True
            shares = winner_shares(after.winners, after.num_players)
            for name in self.agents:
                self.rewards[name] = shares[self._seats[name]]
                self.terminations[name] = True
        elif self.max_turns is not None and after.turn > self.max_turns:
            self._finished = True
            for name in self.agents:
                self.truncations[name] = True
        self.agent_selection = agent_name(after.current_player)
        self._update_infos()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """Render the view of the seat to act, as set by ``render_mode``.

        Returns:
            The screen as one string for ``"ansi"``; ``None`` for ``"human"`` (the
            screen is printed) and when no render mode was set (with a warning).
        """
        return render(
            self.render_mode,
            lambda: render_text(self.game_state, self.game_state.current_player),
            gymnasium.logger.warn,
        )

    def close(self) -> None:
        """Release nothing: the environment holds no outside resources."""

    # ------------------------------------------------------------------ helpers

    def _ended(self, agent: str) -> bool:
        return bool(self.terminations.get(agent) or self.truncations.get(agent))

    def _update_infos(self) -> None:
        """``infos[agent]``: the legal action ids (for the seat to act), and the winners."""
        state = self.game_state
        acting = agent_name(state.current_player)
        moves = [] if self._finished else legal_ids(state)
        self._legal_ids = moves
        self.infos = {}
        for name in self.agents:
            info: dict[str, Any] = {"legal_moves": moves[:] if name == acting else []}
            if state.is_over:
                info["winners"] = [agent_name(seat) for seat in state.winners]
            self.infos[name] = info


raw_env = CuckooAECEnv
"""The unwrapped environment class, under PettingZoo's conventional name."""


def env(
    num_players: int | None = None,
    options: GameOptions | None = None,
    render_mode: str | None = None,
    max_turns: int | None = None,
) -> AECEnv:
    """Return a CuBirds AEC environment with PettingZoo's usual wrappers.

    The wrappers are :class:`~pettingzoo.utils.wrappers.AssertOutOfBoundsWrapper` (an
    action outside ``Discrete(74)`` fails an assertion) and
    :class:`~pettingzoo.utils.wrappers.OrderEnforcingWrapper` (using the environment
    before :meth:`~CuckooAECEnv.reset` is an error). An id inside the space that is
    illegal now raises :class:`~cuckoo_rules.IllegalActionError`, see the module
    docstring.

    Args:
        num_players: 2 to 5; defaults to 2, or to ``options.num_players``.
        options: The rule variants; if given with ``num_players``, both must agree.
        render_mode: ``None``, ``"ansi"`` or ``"human"``.
        max_turns: If set, truncate an episode that has not ended after this many turns.

    Raises:
        InvalidOptionsError: If an argument is invalid.

    Example:
        >>> game = env(num_players=4, render_mode="ansi")
        >>> game.reset(seed=3)
        >>> game.possible_agents
        ['player_0', 'player_1', 'player_2', 'player_3']
        >>> "row 0:" in game.render()
        True
    """
    wrapped = CuckooAECEnv(num_players, options, render_mode, max_turns)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
