"""CuBirds as an OpenSpiel game, for OpenSpiel's algorithms (ISMCTS, CFR-style learners, RL).

Importing this module registers the game with ``pyspiel`` under the short name
:data:`GAME_NAME` (``"python_cuckoo_rules"``), so that::

    import pyspiel
    import cuckoo_rules.envs.openspiel  # registers the game

    game = pyspiel.load_game("python_cuckoo_rules", {"players": 3})
    state = game.new_initial_state()   # a chance node: the deal
    state.apply_action(0)              # its only outcome; the cards are dealt
    state.legal_actions()              # action ids, ascending

It needs OpenSpiel and NumPy: ``pip install 'cuckoo-rules[openspiel]'``.

**Parameters.** ``players`` (2 to 5, default 2), every rule variant of
:class:`~cuckoo_rules.GameOptions` under its own name (``initial_row_length``,
``setup_duplicates_to``, ``optional_draw_if_adjacent``, ``refill_trigger``,
``round_end_timing``, ``exhaustion_counts_discard``, ``next_round_first_player``,
``always_prompt_flock``, with the same values and defaults, as
:func:`cuckoo_rules.options.option_info` describes them), ``max_turns`` (default
:data:`DEFAULT_MAX_TURNS`) and ``rng_seed`` (default 0), for example
``pyspiel.load_game("python_cuckoo_rules(players=4,round_end_timing=immediate)")``.

**Chance.** The game is ``SAMPLED_STOCHASTIC``, as OpenSpiel calls games whose chance
outcomes are drawn by the state rather than enumerated. The initial state is a chance
node with a single outcome, ``0``; applying it draws a 64-bit deal seed from the game's own
:class:`random.Random` (seeded with ``rng_seed``, so a program that loads the game with the
same parameters and plays the same moves sees the same deals) and deals with
:func:`cuckoo_rules.new_game`. Every later shuffle of the discard pile is the engine's
seeded shuffle of that same seed (``interchange.md`` §2), so there are no further chance
nodes: the whole future randomness is fixed when the cards are dealt, and is hidden from
every seat (no observation shows the seed or the draw-pile order). To a player a reshuffle
is as random as a real one; :meth:`CuBirdsState.resample_from_infostate` draws a fresh seed
for the future as well as the hidden cards. (OpenSpiel's ``serialize_game_and_state`` and
pickling of a game object call a C++ method, ``GetRNGState``, that games written in Python
cannot provide for sampled-stochastic games; this module therefore gives
:class:`CuBirdsGame` and :class:`CuBirdsState` their own pickling, and
``state.serialize()`` with ``game.deserialize_state()`` work as in any Python game. Run
``pyspiel.random_sim_test`` with ``serialize=False``.)

**Actions** are the 74 ids of :func:`cuckoo_rules.action_id`: lays 0-63, draw 64, flocks
65-72, pass 73; :meth:`~CuBirdsState.legal_actions` lists them in increasing order.

**Returns.** Each winner gets ``1 / len(winners)`` (a shared victory is split), every
other seat 0: the returns of a finished game always sum to 1 (``CONSTANT_SUM``, utilities
from 0 to 1). Rewards come only at the end (``TERMINAL`` reward model).

**Length.** Neither the rules nor the engine limit the length of a game (flocks are
optional, and a round ends only when a hand is empty), but OpenSpiel needs a
``max_game_length``. So the OpenSpiel game ends when turn ``max_turns + 1`` would start:
the seats with the most cards in their collection then share the victory, as when a round
cannot be dealt (rules §4.2); the engine state itself is not over then
(:attr:`CuBirdsState.truncated`). A turn is at most three decisions (a lay; then draw or
pass; then a flock or pass), so ``max_game_length`` is ``3 * max_turns`` decisions, and a
history holds at most one more action, the deal. With uniformly random moves, 800 games
we played (2 to 5 players) all ended by the rules within 160 turns, far below the default
``max_turns`` of 1000.

**Observations** (``observation_string`` / ``observation_tensor``): what the seat sees
now, its :class:`~cuckoo_rules.PlayerView`. The tensor is
:func:`cuckoo_rules.encode_observation` of the view, ``122 + 19 * players`` values (160 to
217) laid out as :func:`cuckoo_rules.observation_layout` says, each layout field being a
named piece of the observer's ``dict``; the string is the terminal screen of the view
(:func:`cuckoo_rules.terminal.render_view`) with the seat, the dealer, the cards seen
entering hands and the winners added. Neither is perfect recall.

**Information states.** The string is perfect recall: the seat's number and options,
then one line for what the seat saw of the deal (the JSON view of the dealt state), one
line per move with the events the seat saw (:func:`cuckoo_rules.visible_events` of what
:func:`cuckoo_rules.step` reported, as JSON), and a last line with the current JSON view.
Two histories give the same string exactly when the seat saw the same things happen. The
tensor has a fixed size, so it is *not* perfect recall: it is the observation tensor
followed by a summary of the public history (:func:`information_state_layout`):
``round``, ``turn``, the number of reshuffles, and for each seat, relative to the
viewer, the birds of each species it laid and revealed in flocks, its optional draws taken,
cards drawn, draws declined and flocks declined, and its last action as a one-hot over the
74 ids: ``125 + 113 * players`` values (351 to 690).

Both are computed from the seat's view and the redacted events only, so no hidden card of
another seat, the draw-pile order or the seed can reach them.

**Resampling.** :meth:`CuBirdsState.resample_from_infostate` (for OpenSpiel's Python
ISMCTS, :class:`open_spiel.python.algorithms.ismcts.ISMCTSBot`) redraws the hidden cards
with :func:`cuckoo_rules.determinize`, uniformly among the deals consistent with the
seat's current view *and* with what its history proves (:func:`cuckoo_rules.learn`): a
seat that has just laid all its ducks holds no duck until it draws again, and the cards
the seat saw go to the discard pile stay there until it is reshuffled. The resampled
state keeps the seat's information state exactly; the other seats' past private
observations are not sampled, so their information states in it show only the public
past (plus their current, sampled, view). What a seat saw and learned is kept with the
history its state shares with its clones, so resampling a state again costs little more
than the :func:`~cuckoo_rules.determinize` call. The method is Python-only: C++ code
calling ``State::ResampleFromInfostate`` does not see it.

The underlying engine state is :attr:`CuBirdsState.engine_state` (read-only); give bots
only :meth:`CuBirdsState.view` of it. :meth:`CuBirdsGame.state_from_engine` starts a game
from a given engine state instead of a sampled deal.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from ..errors import needs_extra as _needs_extra

try:
    import numpy as np
    import numpy.typing as npt
    import pyspiel
except ModuleNotFoundError as error:
    raise _needs_extra(__name__, "openspiel", error) from error

from ..actions import NUM_DISTINCT_ACTIONS, action_from_id
from ..board import render_view
from ..codec import encode_view
from ..determinization import determinize
from ..engine import new_game, step
from ..errors import InvalidOptionsError
from ..notation import format_action
from ..observation import encode_observation, observation_layout
from ..options import MAX_PLAYERS, MIN_PLAYERS, OPTION_NAMES, GameOptions
from ..outcome import most_cards_winners, winner_shares
from ..state import GameState, counts_to_dict
from ..views import PlayerView, observe
from ._common import legal_ids
from ._spiel_history import (
    Record,
    Step,
    deal_lines,
    history_summary,
    information_state_layout,
    information_state_size,
    to_json,
)

__all__ = [
    "DEFAULT_MAX_TURNS",
    "GAME_NAME",
    "GAME_TYPE",
    "CuBirdsGame",
    "CuBirdsObserver",
    "CuBirdsState",
    "information_state_layout",
    "information_state_size",
]

GAME_NAME: Final = "python_cuckoo_rules"
"""The short name the game is registered under with ``pyspiel``."""

DEFAULT_MAX_TURNS: Final = 1000
"""The default ``max_turns``: the OpenSpiel game ends when turn 1001 would start."""

_DECISIONS_PER_TURN = 3  # lay; draw or pass; fly home or pass
_SEED_BITS = 64

_DEFAULT_OPTIONS = GameOptions(num_players=MIN_PLAYERS)
_PARAMETERS: dict[str, Any] = {
    "players": MIN_PLAYERS,
    **{name: getattr(_DEFAULT_OPTIONS, name) for name in OPTION_NAMES if name != "num_players"},
    "max_turns": DEFAULT_MAX_TURNS,
    "rng_seed": 0,
}

GAME_TYPE: Final = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="CuBirds (cuckoo-rules)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMETERS,
)
"""The ``pyspiel.GameType`` the game is registered with."""


# --------------------------------------------------------------------------- the game


class CuBirdsGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type stubs
    """The OpenSpiel game; build it with ``pyspiel.load_game("python_cuckoo_rules", ...)``.

    Args:
        params: The game parameters (see the module documentation); missing ones take
            their defaults.

    Raises:
        InvalidOptionsError: If a rule option is invalid or ``max_turns`` is not a
            positive integer.
    """

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        values = {**_PARAMETERS, **(params or {})}
        options = GameOptions(
            num_players=values["players"],
            **{name: values[name] for name in OPTION_NAMES if name != "num_players"},
        )
        max_turns = values["max_turns"]
        if type(max_turns) is not int or max_turns < 1:
            raise InvalidOptionsError(f"max_turns: {max_turns!r} is not an integer >= 1")
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_DISTINCT_ACTIONS,
            max_chance_outcomes=1,
            num_players=options.num_players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=_DECISIONS_PER_TURN * max_turns,
        )
        super().__init__(GAME_TYPE, info, dict(values))
        self._options = options
        self._max_turns: int = max_turns
        self._rng = random.Random(values["rng_seed"])

    @property
    def options(self) -> GameOptions:
        """The engine's options for this game."""
        return self._options

    @property
    def max_turns(self) -> int:
        """The turn limit: the game ends (truncated) when turn ``max_turns + 1`` would start."""
        return self._max_turns

    def new_initial_state(self) -> CuBirdsState:
        """Return the initial state: a chance node whose one outcome, ``0``, deals."""
        return CuBirdsState(self)

    def state_from_engine(self, engine_state: GameState) -> CuBirdsState:
        """Return a state past the chance node whose deal is ``engine_state``.

        Use it to play a given deal (``cuckoo_rules.new_game(game.options, seed)``) or to
        go on from a decoded position. The information states start there: each seat has
        seen ``observe(engine_state, seat)`` and nothing before it.

        Raises:
            ValueError: If ``engine_state`` is not a :class:`~cuckoo_rules.GameState` of
                this game's options.
        """
        if not isinstance(engine_state, GameState) or engine_state.options != self._options:
            raise ValueError(
                f"engine_state: expected a GameState with options {self._options!r}, "
                f"got {engine_state!r}"
            )
        state = CuBirdsState(self)
        state._next_deal = engine_state
        state.apply_action(0)
        return state

    def make_py_observer(
        self,
        iig_obs_type: Any = None,
        params: Mapping[str, Any] | None = None,
    ) -> CuBirdsObserver:
        """Return an observer of the observation, or with perfect recall of the infostate.

        Args:
            iig_obs_type: A ``pyspiel.IIGObservationType``; only public information plus
                the seat's own private information (``PrivateInfoType.SINGLE_PLAYER``)
                is supported.
            params: Must be empty.

        Raises:
            ValueError: For other observation types or any parameter.
        """
        if isinstance(iig_obs_type, Mapping):  # OpenSpiel passes params alone positionally
            iig_obs_type, params = None, iig_obs_type
        if params:
            raise ValueError(f"observation parameters are not supported, got {dict(params)}")
        perfect_recall = False
        if iig_obs_type is not None:
            if (
                not iig_obs_type.public_info
                or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            ):
                raise ValueError(
                    "only observations of public information and the seat's own private "
                    f"information are supported, got {iig_obs_type!r}"
                )
            perfect_recall = bool(iig_obs_type.perfect_recall)
        return CuBirdsObserver(self._options.num_players, perfect_recall)

    def max_chance_nodes_in_history(self) -> int:
        """One: the deal is the only chance node."""
        return 1

    def _next_seed(self) -> int:
        return self._rng.getrandbits(_SEED_BITS)

    def __reduce__(self) -> tuple[Any, ...]:
        return _load_game, (dict(self.get_parameters()), self._rng.getstate())


def _load_game(params: dict[str, Any], rng_state: Any) -> CuBirdsGame:
    """Unpickle a :class:`CuBirdsGame`: load it and restore its random generator."""
    game: CuBirdsGame = pyspiel.load_game(GAME_NAME, params)
    game._rng.setstate(rng_state)
    return game


def _load_state(params: dict[str, Any], serialized: str) -> CuBirdsState:
    """Unpickle a :class:`CuBirdsState` (its game is loaded afresh from ``params``)."""
    game: CuBirdsGame = pyspiel.load_game(GAME_NAME, params)
    state: CuBirdsState = game.deserialize_state(serialized)
    return state


# --------------------------------------------------------------------------- the state


class CuBirdsState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no type stubs
    """A CuBirds position in OpenSpiel; made by :meth:`CuBirdsGame.new_initial_state`.

    Before its chance node is applied it holds no cards; after, it wraps an engine state
    (:attr:`engine_state`) and the events each seat has seen.
    """

    def __init__(self, game: CuBirdsGame) -> None:
        super().__init__(game)
        self._options = game.options
        self._max_turns = game.max_turns
        self._record: Record | None = None
        self._next_deal: GameState | None = None

    # ----------------------------------------------------------------- read-only access

    @property
    def engine_state(self) -> GameState:
        """The engine's :class:`~cuckoo_rules.GameState`, hidden cards included.

        Raises:
            ValueError: Before the cards are dealt (at the chance node).
        """
        return self._dealt().engine

    @property
    def is_dealt(self) -> bool:
        """Whether the chance node has been applied."""
        return self._record is not None

    @property
    def truncated(self) -> bool:
        """Whether the game was ended by the ``max_turns`` limit, not by the rules."""
        record = self._record
        return record is not None and not record.engine.is_over and self._ended(record.engine)

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning seats once the game is over (empty before).

        After a truncated game: the seats with the most cards in their collection.
        """
        record = self._record
        if record is None:
            return ()
        engine = record.engine
        if engine.is_over:
            return engine.winners
        if self._ended(engine):
            return most_cards_winners(engine.collections)
        return ()

    def view(self, player: int) -> PlayerView:
        """Return what ``player`` sees: ``cuckoo_rules.observe(self.engine_state, player)``.

        Raises:
            ValueError: Before the cards are dealt.
            ViewError: If ``player`` is not a seat.
        """
        return observe(self._dealt().engine, player)

    def _ended(self, engine: GameState) -> bool:
        """Whether the OpenSpiel game is over at ``engine``: by the rules or by ``max_turns``."""
        return engine.is_over or engine.turn > self._max_turns

    def _dealt(self) -> Record:
        record = self._record
        if record is None:
            raise ValueError("the cards are not dealt yet: apply the chance outcome 0 first")
        return record

    # ----------------------------------------------------------------- OpenSpiel API

    def current_player(self) -> int:
        """The seat to act, ``PlayerId.CHANCE`` before the deal, ``TERMINAL`` at the end."""
        record = self._record
        if record is None:
            return int(pyspiel.PlayerId.CHANCE)
        engine = record.engine
        if self._ended(engine):
            return int(pyspiel.PlayerId.TERMINAL)
        return engine.current_player

    def _legal_actions(self, player: int) -> list[int]:
        """The legal action ids of the seat to act, in increasing order.

        Canonical order is increasing id order (see :func:`cuckoo_rules.action_id`).
        """
        return legal_ids(self._dealt().engine)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The chance node's only outcome: ``[(0, 1.0)]`` (the deal is sampled)."""
        return [(0, 1.0)]

    def _apply_action(self, action: int) -> None:
        """Deal (at the chance node) or play the action with id ``action``."""
        record = self._record
        if record is None:
            engine = self._next_deal
            if engine is None:
                game: CuBirdsGame = self.get_game()
                engine = new_game(self._options, game._next_seed())
            self._next_deal = None
            self._record = Record(engine, deal_lines(engine), ())
            return
        after, events = step(record.engine, action_from_id(int(action)))
        self._record = Record(after, record.deal, (*record.steps, Step(events)))

    def _action_to_string(self, player: int, action: int) -> str:
        """``"deal"`` for the chance outcome, else the action's notation (``"lay owl 2 left"``)."""
        if player == pyspiel.PlayerId.CHANCE:
            return "deal"
        return format_action(action_from_id(int(action)))

    def is_terminal(self) -> bool:
        """Whether the game is over (or truncated by ``max_turns``)."""
        record = self._record
        return record is not None and self._ended(record.engine)

    def returns(self) -> list[float]:
        """``1 / len(winners)`` for each winner, 0 for the others and before the end."""
        return list(winner_shares(self.winners, self._options.num_players))

    def __str__(self) -> str:
        """A debugging description of the whole state (hidden cards included)."""
        record = self._record
        if record is None:
            return "chance node: the cards are not dealt yet"
        text = repr(record.engine)
        return text + " (truncated)" if self.truncated else text

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> CuBirdsState:
        """Return a state ``player_id`` cannot tell from this one, hidden cards redrawn.

        The hidden cards and the seed of future reshuffles come from
        :func:`cuckoo_rules.determinize` of the seat's view and of what the seat learned
        from its history (:func:`cuckoo_rules.learn` of its redacted events), with a 64-bit
        seed built from two calls of ``probability_sampler`` (each a float in ``[0, 1)``,
        such as a ``pyspiel.UniformProbabilitySampler``). The result has the same history
        and the same information state for ``player_id``, and agrees with everything that
        history proves about the hidden cards.

        Raises:
            ValueError: If the sampler returns a value outside ``[0, 1]``.
            ViewError: If ``player_id`` is not a seat.
        """
        clone: CuBirdsState = self.clone()
        record = self._record
        if record is None:
            return clone
        view = observe(record.engine, player_id)
        seed = 0
        for _ in range(_SEED_BITS // 32):
            u = float(probability_sampler())
            if not 0.0 <= u <= 1.0:
                raise ValueError(f"probability_sampler returned {u!r}, not a number in [0, 1)")
            seed = (seed << 32) | min(int(u * 2**32), 2**32 - 1)
        deal, steps, knowledge = record.past_of(player_id)
        clone._record = Record(determinize(view, seed, knowledge=knowledge), deal, steps)
        return clone

    def __reduce__(self) -> tuple[Any, ...]:
        return _load_state, (dict(self.get_game().get_parameters()), self.serialize())

    # ----------------------------------------------------------------- observations

    def _information_state_string(self, player: int) -> str:
        record = self._record
        header = f"seat {player} of {self._options.num_players}; {to_json(self._options.to_json())}"
        if record is None:
            return header
        lines = [header, record.deal[player]]
        lines += [s.line(player) for s in record.steps]
        lines.append(to_json(encode_view(observe(record.engine, player))))
        if self.truncated:
            lines.append(f"truncated after {self._max_turns} turns")
        return "\n".join(lines)

    def _observation_string(self, player: int) -> str:
        record = self._record
        if record is None:
            return f"seat {player}: the cards are not dealt yet"
        view = observe(record.engine, player)
        lines = [f"Seat {player} of {view.num_players}, dealer P{view.dealer}"]
        lines += render_view(view)
        known = [
            f"{'you' if seat == player else f'P{seat}'} {_counts_text(counts)}"
            for seat, counts in enumerate(view.known_hands)
            if any(counts)
        ]
        if known:
            lines.append("Seen entering hands: " + "; ".join(known))
        winners = self.winners
        if winners:
            how = " (turn limit)" if self.truncated else ""
            lines.append(f"Winners{how}: " + ", ".join(f"P{w}" for w in winners))
        return "\n".join(lines)

    def _write_observation(self, player: int, out: npt.NDArray[np.float32]) -> None:
        record = self._record
        if record is None:
            out.fill(0.0)
            return
        out[:] = encode_observation(observe(record.engine, player))

    def _write_information_state(self, player: int, out: npt.NDArray[np.float32]) -> None:
        record = self._record
        if record is None:
            out.fill(0.0)
            return
        view = observe(record.engine, player)
        values = list(encode_observation(view))
        values += history_summary(record, player, view)
        out[:] = values


def _counts_text(counts: Sequence[int]) -> str:
    return " ".join(f"{n} {s.value}" for s, n in counts_to_dict(tuple(counts)).items())


# --------------------------------------------------------------------------- the observer


class CuBirdsObserver:
    """OpenSpiel's Python observer: a float tensor with named pieces, and a string.

    Made by :meth:`CuBirdsGame.make_py_observer`; ``pyspiel`` uses it for
    ``observation_*`` (``perfect_recall=False``) and ``information_state_*``
    (``perfect_recall=True``).

    Attributes:
        tensor: The flat ``float32`` tensor, rewritten by :meth:`set_from`.
        dict: A view of ``tensor`` per layout field (``"hand"``, ``"row[0].count"``,
            ``"seat[1].last_action"``, ...), in layout order.
        perfect_recall: Whether this is the information-state observer.
    """

    def __init__(self, num_players: int, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        layout = (
            information_state_layout(num_players)
            if perfect_recall
            else observation_layout(num_players)
        )
        size = layout[-1].offset + layout[-1].size
        self.tensor: npt.NDArray[np.float32] = np.zeros(size, np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {
            f.name: self.tensor[f.offset : f.offset + f.size] for f in layout
        }

    def set_from(self, state: CuBirdsState, player: int) -> None:
        """Write what ``player`` knows of ``state`` into :attr:`tensor`."""
        if self.perfect_recall:
            state._write_information_state(player, self.tensor)
        else:
            state._write_observation(player, self.tensor)

    def string_from(self, state: CuBirdsState, player: int) -> str:
        """Return what ``player`` knows of ``state`` as text."""
        if self.perfect_recall:
            return state._information_state_string(player)
        return state._observation_string(player)


if GAME_NAME not in pyspiel.registered_names():  # importing twice must not re-register
    pyspiel.register_game(GAME_TYPE, CuBirdsGame)
