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

import functools
import json
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, TypeAlias

from ..errors import needs_extra as _needs_extra

try:
    import numpy as np
    import numpy.typing as npt
    import pyspiel
except ModuleNotFoundError as error:
    raise _needs_extra(__name__, "openspiel", error) from error

from ..actions import DRAW_ID as _DRAW_ID
from ..actions import FLY_HOME_ID as _FLY_HOME_ID
from ..actions import NUM_DISTINCT_ACTIONS, Lay, action_from_id, action_id
from ..actions import PASS_ID as _PASS_ID
from ..cards import NUM_SPECIES, SPECIES
from ..codec import encode_counts, encode_event, encode_view
from ..engine import new_game, step
from ..errors import InvalidOptionsError, ViewError
from ..events import (
    DeclinedDraw,
    DeclinedFlock,
    Drew,
    Event,
    FlewHome,
    Laid,
    Reshuffled,
    visible_events,
)
from ..knowledge import Knowledge, learn
from ..notation import format_action
from ..observation import ObservationField, encode_observation, observation_layout
from ..options import MAX_PLAYERS, MIN_PLAYERS, OPTION_NAMES, GameOptions
from ..outcome import most_cards_winners, winner_shares
from ..state import GameState, counts_to_dict
from ..terminal import render_view
from ..views import PlayerView, determinize, observe
from ._common import legal_ids

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
_JSON_SEPARATORS = (",", ":")

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


# --------------------------------------------------------------------------- layouts

_SEAT_SUMMARY: tuple[tuple[str, int, str], ...] = (
    ("laid", NUM_SPECIES, "birds of each species that seat has laid"),
    ("revealed", NUM_SPECIES, "birds of each species that seat revealed in flocks"),
    ("draws", 1, "optional draws that seat took"),
    ("cards_drawn", 1, "cards that seat took in optional draws"),
    ("draws_declined", 1, "optional draws that seat declined"),
    ("flocks_declined", 1, "flock steps at which that seat passed"),
    ("last_action", NUM_DISTINCT_ACTIONS, "one-hot: that seat's last action id (zeros: none)"),
)


def information_state_layout(num_players: int) -> tuple[ObservationField, ...]:
    """Return every field of the information-state tensor, in order, without gaps.

    The observation fields (:func:`cuckoo_rules.observation_layout`) come first, then the
    summary of the public history; seats are numbered relative to the viewer.

    Raises:
        InvalidOptionsError: If ``num_players`` is not 2 to 5.

    Example:
        >>> [(f.name, f.offset, f.size) for f in information_state_layout(2)[-3:]]
        [('seat[1].draws_declined', 275, 1), ('seat[1].flocks_declined', 276, 1),
         ('seat[1].last_action', 277, 74)]
    """
    fields = list(observation_layout(num_players))

    def add(name: str, size: int, description: str) -> None:
        fields.append(
            ObservationField(name, fields[-1].offset + fields[-1].size, size, description)
        )

    add("round", 1, "the round number")
    add("turn", 1, "the turn number over the whole game")
    add("reshuffles", 1, "how many times the discard pile was shuffled into a new draw pile")
    for k in range(num_players):
        seat = "the viewer" if k == 0 else f"the seat {k} after the viewer"
        for name, size, description in _SEAT_SUMMARY:
            add(f"seat[{k}].{name}", size, f"{description} ({seat})")
    return tuple(fields)


def information_state_size(num_players: int) -> int:
    """Return the length of the information-state tensor: ``125 + 113 * num_players``.

    Raises:
        InvalidOptionsError: If ``num_players`` is not 2 to 5.

    Example:
        >>> [information_state_size(p) for p in range(2, 6)]
        [351, 464, 577, 690]
    """
    last = information_state_layout(num_players)[-1]
    return last.offset + last.size


# --------------------------------------------------------------------------- the record


def _to_json(document: object) -> str:
    return json.dumps(document, separators=_JSON_SEPARATORS)


class _Step:
    """The events of one move, as reported by :func:`cuckoo_rules.step` (or redacted).

    Steps are shared between a state and its clones and never changed. A step is made
    for one history (a record's steps only ever grow by new steps), so it can cache,
    besides the text each viewer sees of it (one line of the information-state string),
    what depends on the history up to it: each seat's :class:`~cuckoo_rules.Knowledge`
    and the public :class:`_Tally`.
    """

    __slots__ = ("_known", "_lines", "_redacted", "_source", "_tally", "events")

    def __init__(
        self, events: tuple[Event, ...], source: tuple[_Step, int, int] | None = None
    ) -> None:
        self.events = events
        # (step, seat, players) if this is that step redacted for that seat: its lines
        # are then those of ``step``, see redacted_for.
        self._source = source
        self._lines: dict[int | None, str] = {}
        self._redacted: dict[int, _Step] = {}
        # What each seat knew after this step: learn() of its redacted events so far.
        self._known: dict[int, Knowledge] = {}
        self._tally: _Tally | None = None  # the public counts after this step

    def line(self, viewer: int | None) -> str:
        """The JSON list of the events ``viewer`` sees (``None``: a spectator)."""
        text = self._lines.get(viewer)
        if text is None:
            source = self._source
            if source is not None and (viewer is None or viewer in range(source[2])):
                step, seat, _ = source
                text = step.line(seat if viewer == seat else None)
            else:
                text = _to_json([encode_event(e) for e in visible_events(self.events, viewer)])
            self._lines[viewer] = text
        return text

    def redacted_for(self, seat: int, num_players: int) -> _Step:
        """This step as ``seat`` saw it: other seats' drawn and dealt cards hidden.

        Every other seat sees of the redacted step what a spectator sees of this one.
        The redacted step is made once per seat and shared.
        """
        redacted = self._redacted.get(seat)
        if redacted is None:
            redacted = _Step(visible_events(self.events, seat), (self, seat, num_players))
            self._redacted[seat] = redacted
        return redacted

    def __getstate__(self) -> tuple[tuple[Event, ...]]:
        return (self.events,)  # the caches are rebuilt on demand (the lines from events)

    def __setstate__(self, data: tuple[tuple[Event, ...]]) -> None:
        _Step.__init__(self, data[0])


_Past: TypeAlias = tuple[tuple[str, ...], tuple[_Step, ...], Knowledge]
"""A seat's past in a record: see :meth:`_Record.past_of`."""


class _Record:
    """Everything a dealt state holds; never changed, so clones share it (``__deepcopy__``).

    A plain slotted class rather than a frozen ``attrs`` one: a record is built on every
    move, and a frozen class's ``__init__`` costs twice as much.

    Attributes:
        engine: The engine state.
        deal: For each seat, the JSON view of the dealt state it saw (with the hand
            removed for the seats whose private past a resampling dropped).
        steps: One :class:`_Step` per move since the deal.
    """

    __slots__ = ("_pasts", "deal", "engine", "steps")

    def __init__(self, engine: GameState, deal: tuple[str, ...], steps: tuple[_Step, ...]) -> None:
        self.engine = engine
        self.deal = deal
        self.steps = steps
        self._pasts: dict[int, _Past] = {}  # by seat: see past_of

    def __deepcopy__(self, memo: dict[int, object]) -> _Record:
        return self  # never changed: OpenSpiel's clone deep-copies the state's attributes

    def past_of(self, seat: int) -> _Past:
        """What ``seat`` saw of the deal and of each move, and what it learned (cached).

        Returns:
            The deal lines, with the hand of every other seat removed; the steps
            redacted for ``seat``; and :func:`cuckoo_rules.learn` folded over the
            events of those redacted steps, from ``Knowledge.start``.
        """
        past = self._pasts.get(seat)
        if past is None:
            n = self.engine.num_players
            deal = tuple(
                line if other == seat else _without_hand(line)
                for other, line in enumerate(self.deal)
            )
            # Mostly cached already: look the redacted steps up without a call each.
            seen = tuple([s._redacted.get(seat) or s.redacted_for(seat, n) for s in self.steps])
            known = _learned(self.steps, seen, seat, n, deal[seat])
            past = self._pasts[seat] = (deal, seen, known)
        return past


def _learned(
    steps: tuple[_Step, ...], seen: tuple[_Step, ...], seat: int, n: int, deal_line: str
) -> Knowledge:
    """What ``seat`` learned from ``seen`` (``steps`` as it saw them), cached on ``steps``.

    The last step keeps the result, so that a later record, whose steps go on from these,
    folds only its new steps.
    """
    done = len(steps)
    while done and seat not in steps[done - 1]._known:
        done -= 1
    known = steps[done - 1]._known[seat] if done else _known_at_deal(deal_line, n)
    if done < len(steps):
        known = learn(known, (event for move in seen[done:] for event in move.events), seat)
        steps[-1]._known[seat] = known
    return known


def _deal_lines(engine: GameState) -> tuple[str, ...]:
    """Each seat's first line of history: its view of the deal, and the cards set aside.

    The duplicates set aside while the rows were built went to the discard pile face up,
    so every seat knows them (rules §6): they are part of each seat's information. A game
    taken up from a later state (:meth:`CuBirdsGame.state_from_engine`) shows none: nothing
    is known there beyond the view.
    """
    try:
        set_aside = encode_counts(Knowledge.at_setup(engine).known_discards)
    except ViewError:  # not a freshly dealt game
        set_aside = {}
    return tuple(
        _to_json({**encode_view(observe(engine, seat)), "set_aside": set_aside})
        for seat in range(engine.num_players)
    )


def _known_at_deal(deal_line: str, n: int) -> Knowledge:
    """What a seat knows beyond its view right after the deal (from its deal line)."""
    set_aside = json.loads(deal_line)["set_aside"]
    return Knowledge.start(n, tuple(set_aside.get(s.value, 0) for s in SPECIES))


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
        self._record: _Record | None = None
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

    def _dealt(self) -> _Record:
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
            self._record = _Record(engine, _deal_lines(engine), ())
            return
        after, events = step(record.engine, action_from_id(int(action)))
        self._record = _Record(after, record.deal, (*record.steps, _Step(events)))

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
        clone._record = _Record(determinize(view, seed, knowledge=knowledge), deal, steps)
        return clone

    def __reduce__(self) -> tuple[Any, ...]:
        return _load_state, (dict(self.get_game().get_parameters()), self.serialize())

    # ----------------------------------------------------------------- observations

    def _information_state_string(self, player: int) -> str:
        record = self._record
        header = (
            f"seat {player} of {self._options.num_players}; {_to_json(self._options.to_json())}"
        )
        if record is None:
            return header
        lines = [header, record.deal[player]]
        lines += [s.line(player) for s in record.steps]
        lines.append(_to_json(encode_view(observe(record.engine, player))))
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
        values += _history_summary(record, player, view)
        out[:] = values


@functools.lru_cache(maxsize=256)
def _without_hand(line: str) -> str:
    """The deal line a seat keeps in a state resampled for another seat: no hand."""
    document = json.loads(line)
    document["hand"] = None
    return _to_json(document)


def _counts_text(counts: Sequence[int]) -> str:
    return " ".join(f"{n} {s.value}" for s, n in counts_to_dict(tuple(counts)).items())


# Where each count is in a seat's row of a _Tally.
_LAID = 0
_REVEALED = NUM_SPECIES
_DRAWS = 2 * NUM_SPECIES
_CARDS_DRAWN = _DRAWS + 1
_DRAWS_DECLINED = _DRAWS + 2
_FLOCKS_DECLINED = _DRAWS + 3
_LAST = _DRAWS + 4


class _Tally:
    """The public history of some moves, as the information-state tensor summarises it.

    ``seats[seat]`` holds, for an absolute seat, the birds laid and revealed of each
    species, the optional draws taken, cards drawn, draws and flocks declined, and the
    id of its last action (-1: none), at the offsets ``_LAID`` to ``_LAST``. A tally
    cached on a step is never changed: :func:`_tally` copies it to go on.
    """

    __slots__ = ("reshuffles", "seats")

    def __init__(self, reshuffles: int, seats: list[list[int]]) -> None:
        self.reshuffles = reshuffles
        self.seats = seats

    @classmethod
    def start(cls, num_players: int) -> _Tally:
        return cls(0, [[0] * _LAST + [-1] for _ in range(num_players)])

    def copy(self) -> _Tally:
        return _Tally(self.reshuffles, [row[:] for row in self.seats])

    def add(self, events: tuple[Event, ...]) -> None:
        """Count the events of one move."""
        seats = self.seats
        drew = False  # a draw that empties the draw pile has two Drew events: one draw
        for event in events:
            kind = type(event)
            if kind is Laid:
                assert isinstance(event, Laid)
                row = seats[event.player]
                row[_LAID + event.species.index] += event.count
                row[_LAST] = action_id(Lay(event.species, event.row, event.side))
            elif kind is Drew:
                assert isinstance(event, Drew)
                row = seats[event.player]
                row[_DRAWS] += not drew
                row[_CARDS_DRAWN] += event.count
                row[_LAST] = _DRAW_ID
                drew = True
            elif kind is DeclinedDraw:
                assert isinstance(event, DeclinedDraw)
                row = seats[event.player]
                row[_DRAWS_DECLINED] += 1
                row[_LAST] = _PASS_ID
            elif kind is FlewHome:
                assert isinstance(event, FlewHome)
                row = seats[event.player]
                row[_REVEALED + event.species.index] += event.revealed
                row[_LAST] = _FLY_HOME_ID + event.species.index
            elif kind is DeclinedFlock:
                assert isinstance(event, DeclinedFlock)
                row = seats[event.player]
                row[_FLOCKS_DECLINED] += 1
                row[_LAST] = _PASS_ID
            elif kind is Reshuffled:
                self.reshuffles += 1


def _tally(steps: tuple[_Step, ...], num_players: int) -> _Tally:
    """The tally of ``steps`` (not to be changed), cached on the last one.

    A later record, whose steps go on from these, counts only its new steps.
    """
    done = len(steps)
    while done and steps[done - 1]._tally is None:
        done -= 1
    cached = steps[done - 1]._tally if done else None
    if done == len(steps) and cached is not None:
        return cached
    tally = _Tally.start(num_players) if cached is None else cached.copy()
    for move in steps[done:]:
        tally.add(move.events)
    if steps:
        steps[-1]._tally = tally
    return tally


def _history_summary(record: _Record, viewer: int, view: PlayerView) -> list[int]:
    """The public-history part of the information-state tensor (seats relative to viewer)."""
    n = view.num_players
    tally = _tally(record.steps, n)
    out = [view.round, view.turn, tally.reshuffles]
    for k in range(n):
        row = tally.seats[(viewer + k) % n]
        out += row[:_LAST]
        one_hot = [0] * NUM_DISTINCT_ACTIONS
        if row[_LAST] >= 0:
            one_hot[row[_LAST]] = 1
        out += one_hot
    return out


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
