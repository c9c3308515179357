"""A game in progress, for every front end: :class:`Match`, and the bot protocol.

The engine is pure: :func:`~cuckoo_rules.apply` takes a state and an action and returns
the next state. A front end needs more around it: seats played by people or by bots,
each seat's view and the events it may see, a check that a request answers the move it
believes it answers, the bots' turns, the record as it goes and the outcome. A
:class:`Match` holds all of that, so that the terminal game, the web server's tables,
:func:`~cuckoo_rules.bots.play_game`, the tournaments and the Gymnasium environment share
one game loop. It is the only mutable object of the core library (the optional batch
simulator's :class:`~cuckoo_rules.batch.BatchGame` is the other); what it holds
(states, events, actions) is immutable.

**Seats.** Each seat is a :class:`Bot` (the match asks it to choose when the seat is to
act) or ``None`` (a person, a learner or any outside caller, who acts through
:meth:`Match.act`).

**The bot protocol.** A bot has ``choose(view) -> Action``, given the acting seat's
:class:`~cuckoo_rules.PlayerView`, never the state. A bot that follows the history (as
:class:`~cuckoo_rules.bots.IsmctsBot` does, to know what the history proves beyond the
view) also has one hook, ``inform(view, events)``: the match calls it once when the
game starts, with the seat's first view and the setup (one
:class:`~cuckoo_rules.GameStarted` event), then after every action with the seat's view
after it and the events of the action, each time as that seat saw them
(:func:`~cuckoo_rules.visible_events`). Bots without ``inform`` are told nothing, and a
match in which no bot is informed and no event log is kept never computes events.

**Numbering.** Moves (actions) are numbered from 0: :attr:`Match.move` is the number of
the next one, which is also the number of actions taken. Events are numbered from 0 in
one sequence for every seat, the events of each action as :func:`~cuckoo_rules.step`
reports them; the setup, :class:`~cuckoo_rules.GameStarted`, is told to the bots, and is
event 0 (so a front end that narrates the events tells the deal too), unless the match is
made with ``log_setup=False`` (then the first view shows the deal, and event 0 is the
first action's, as the web server numbers them). :meth:`Match.events` gives the
events from a number on, redacted for a seat, and :attr:`Match.event_count` is the number
of the next one.

Example:
    >>> from cuckoo_rules import GameOptions, Match
    >>> from cuckoo_rules.bots import GreedyBot
    >>> match = Match(GameOptions(num_players=2), seed=7, seats=[None, GreedyBot(seed=1)])
    >>> match.to_act, match.move
    (0, 0)
    >>> while match.to_act == 0:  # the human's turn: a lay, then maybe a draw
    ...     events = match.act(0, match.legal_actions(0)[0], move=match.move)
    >>> match.play_bots() > 0 and match.to_act == 0  # the bot's turn, back to seat 0
    True
    >>> match.act(0, match.legal_actions(0)[0], move=0)  # a resent request
    Traceback (most recent call last):
    ...
    cuckoo_rules.errors.StaleMoveError: move 0 was already played: the match is at move ...
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from time import perf_counter
from typing import Protocol

from .actions import Action
from .engine import apply, legal_actions, new_game, step
from .errors import BotError, IllegalActionError, MatchError, StaleMoveError
from .events import Event, GameStarted, visible_events
from .knowledge import Knowledge, learn
from .options import GameOptions
from .outcome import Outcome
from .records import GameRecord, GameResult, Metadata, illegal_action_error
from .state import GameState
from .views import PlayerView, observe

__all__ = [
    "Bot",
    "BotError",
    "Match",
    "MatchError",
    "Seat",
    "StaleMoveError",
]


class Bot(Protocol):
    """A player: given the acting seat's view, choose one of its legal actions.

    Implementations must return an action that is legal in the view
    (:func:`cuckoo_rules.legal_actions` accepts the view) and should be deterministic
    given their own seed: no global random state.

    A bot may also define the hook ``inform(view: PlayerView, events: tuple[Event,
    ...]) -> None`` to follow the game (see the module documentation): when a game
    starts, ``events`` is its :class:`~cuckoo_rules.GameStarted` event (forget any
    earlier game); after that, the events of one action; each time as the bot's seat
    saw them, ``view`` being that seat's view after them. It is not one of this
    protocol's required methods, so that ``choose`` alone makes a bot.
    """

    def choose(self, view: PlayerView) -> Action:
        """Return the action to take.

        Args:
            view: What the acting seat sees; ``view.viewer == view.current_player``.

        Returns:
            One of ``legal_actions(view)``.
        """
        ...


Seat = Bot | None
"""A seat of a :class:`Match`: a bot, or ``None`` for a seat played from outside."""


def _not_a_bot(seat: int, given: object) -> str:
    """Why ``given`` cannot sit at ``seat``: it is not a bot (a spec string, say)."""
    message = (
        f"seats[{seat}]: expected a bot (an object with choose(view)) or None, got "
        f"{given!r} ({type(given).__name__})"
    )
    if isinstance(given, str):
        message += f"; build the bot of a spec with cuckoo_rules.bots.make_bot({given!r}, seed)"
    return message


def _informed(bot: Seat) -> Callable[[PlayerView, tuple[Event, ...]], None] | None:
    inform = getattr(bot, "inform", None)
    return inform if callable(inform) else None


class Match:
    """A game in progress: the state, the seats, the event log, the record.

    Args:
        options: The game's options.
        seed: The seed of the deal, an integer in ``[0, 2**64)``.
        seats: One entry per seat: a :class:`Bot`, or ``None`` for a seat played
            through :meth:`act`.
        names: One name per seat, for the record and the narration (default: ``"P0"``,
            ``"P1"``, ... for outside seats and each bot's repr for bots).
        keep_events: Keep the log of every event, for :meth:`events`. Without it (for
            simulations) events are computed only for the bots that are informed.
        log_setup: Begin the log with the setup, a :class:`~cuckoo_rules.GameStarted`
            (event 0, each seat seeing its own hand in it), so that a front end that
            narrates what :meth:`events` gives tells the deal too (the default); with
            ``False`` the log begins with the first action's events, as the web
            server's numbering does.
        on_action: Called as ``on_action(move, action)`` with each legal action before
            the match takes it, for example to store it; if it raises, the match does
            not change and the exception propagates.

    Raises:
        InvalidOptionsError: If the options or the seed are invalid.
        MatchError: If there is not one seat (and one name) per player, a seat is
            neither a bot (an object with ``choose``) nor ``None`` (a spec string such as
            ``"greedy"``, say: :func:`cuckoo_rules.bots.make_bot` builds its bot), or one
            informed bot sits at two seats.

    Attributes:
        options: The game's options.
        seed: The seed of the deal (keep it from the players: it reveals every card).
        seats: The seats, as given.
        names: One name per seat.
    """

    __slots__ = (
        "_actions",
        "_events",
        "_informed",
        "_keep_events",
        "_on_action",
        "_state",
        "decisions",
        "names",
        "options",
        "seats",
        "seed",
        "think_seconds",
    )

    def __init__(
        self,
        options: GameOptions,
        seed: int,
        seats: Sequence[Seat],
        *,
        names: Sequence[str] | None = None,
        keep_events: bool = True,
        log_setup: bool = True,
        on_action: Callable[[int, Action], None] | None = None,
    ) -> None:
        state = new_game(options, seed)
        n = options.num_players
        seats = tuple(seats)
        if len(seats) != n:
            raise MatchError(f"seats: expected {n} seats (one per player), got {len(seats)}")
        for s, bot in enumerate(seats):
            if bot is not None and not callable(getattr(bot, "choose", None)):
                raise MatchError(_not_a_bot(s, bot))
        if names is None:
            names = tuple(f"P{i}" if bot is None else repr(bot) for i, bot in enumerate(seats))
        names = tuple(names)
        if len(names) != n or not all(isinstance(name, str) for name in names):
            raise MatchError(f"names: expected {n} strings (one per player), got {names!r}")
        informed = {s: inform for s, bot in enumerate(seats) if (inform := _informed(bot))}
        seen: dict[int, int] = {}
        for s in informed:
            other = seen.setdefault(id(seats[s]), s)
            if other != s:
                raise MatchError(
                    f"seats: the same bot object sits at seats {other} and {s}; a bot that "
                    "follows the game (has inform) needs one object per seat"
                )
        self.options = options
        self.seed = seed
        self.seats = seats
        self.names: tuple[str, ...] = names
        self.decisions = [0] * n
        """For each seat, how many actions its bot chose."""
        self.think_seconds = [0.0] * n
        """For each seat, the time its bot spent choosing, in seconds (measured)."""
        self._state = state
        self._actions: list[Action] = []
        self._events: list[Event] = [GameStarted.of(state)] if keep_events and log_setup else []
        self._keep_events = keep_events
        self._on_action = on_action
        self._informed = informed
        if informed:
            setup = (GameStarted.of(state),)
            for s, inform in informed.items():
                inform(observe(state, s), visible_events(setup, s))

    @classmethod
    def from_record(
        cls,
        record: GameRecord,
        seats: Sequence[Seat],
        *,
        names: Sequence[str] | None = None,
        keep_events: bool = True,
        log_setup: bool = True,
        on_action: Callable[[int, Action], None] | None = None,
    ) -> Match:
        """Rebuild a match from a record, to go on with it (a saved game resumed).

        The record's actions are taken in order (``on_action`` is not called for them),
        so the bots are informed of the whole history as if they had played it.

        Args:
            record: A record of a game, finished or not.
            seats: One entry per seat, as for :class:`Match`.
            names: One name per seat (default: the record's ``metadata.players``).
            keep_events: As for :class:`Match`.
            log_setup: As for :class:`Match`.
            on_action: As for :class:`Match`, for the actions taken from now on.

        Raises:
            RecordError: If an action of the record is not legal where it stands.
            MatchError: As for :class:`Match`.
        """
        if names is None:
            names = record.metadata.players
        match = cls(
            record.options,
            record.seed,
            seats,
            names=names,
            keep_events=keep_events,
            log_setup=log_setup,
        )
        for index, action in enumerate(record.actions):
            try:
                match._take(action)
            except IllegalActionError as error:
                raise illegal_action_error(match.state, index, error) from None
        match._on_action = on_action
        return match

    # ------------------------------------------------------------------ reading

    @property
    def state(self) -> GameState:
        """The full state, hidden cards included: never show it to a player."""
        return self._state

    @property
    def move(self) -> int:
        """The number of the next move: how many actions have been taken."""
        return len(self._actions)

    @property
    def actions(self) -> tuple[Action, ...]:
        """Every action taken, in order."""
        return tuple(self._actions)

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self._state.is_over

    @property
    def outcome(self) -> Outcome | None:
        """Who won and why, and each seat's share, once the game is over (else ``None``)."""
        return self._state.outcome

    @property
    def to_act(self) -> int | None:
        """The seat to act, or ``None`` once the game is over."""
        state = self._state
        return None if state.is_over else state.current_player

    @property
    def bot_to_act(self) -> bool:
        """Whether the game is on and the seat to act is a bot's."""
        seat = self.to_act
        return seat is not None and self.seats[seat] is not None

    @property
    def event_count(self) -> int:
        """The number of events logged so far (the number of the next event)."""
        return len(self._events)

    def view(self, seat: int | None) -> PlayerView:
        """Return what ``seat`` (``None``: a spectator) sees now.

        Raises:
            ViewError: If ``seat`` is not a seat of this game or ``None``.
        """
        return observe(self._state, seat)

    def legal_actions(self, seat: int | None) -> tuple[Action, ...]:
        """The legal actions of ``seat`` now, in canonical order; empty unless it is to act."""
        if seat is None or seat != self.to_act:
            return ()
        return legal_actions(self._state)

    def knowledge(self, seat: int | None) -> Knowledge:
        """What ``seat``'s own history proves beyond its view, for a search or a hint.

        It is :func:`~cuckoo_rules.learn` folded over the setup and every event since,
        as ``seat`` saw them: what a bot that follows the game
        (:class:`~cuckoo_rules.bots.IsmctsBot`, the expert) knows, and what
        :func:`~cuckoo_rules.bots.expert.hint` takes for a person's seat.

        Raises:
            MatchError: If the match keeps no event log.
            ViewError: If ``seat`` is not a seat of this game or ``None``.

        Example:
            >>> from cuckoo_rules import GameOptions, Match
            >>> match = Match(GameOptions(num_players=2), seed=3, seats=[None, None])
            >>> match.knowledge(1).known_discards == match.state.discard_pile  # the setup's
            True
        """
        setup = visible_events((GameStarted.of(new_game(self.options, self.seed)),), seat)
        return learn(Knowledge.start(self.options.num_players), setup + self.events(seat), seat)

    def events(self, seat: int | None, after: int = 0) -> tuple[Event, ...]:
        """Return the events numbered ``after`` and up, as ``seat`` may see them.

        Args:
            seat: A seat, or ``None`` for a spectator.
            after: The number of the first event wanted (the :attr:`event_count` of an
                earlier call gives only what is new since).

        Raises:
            MatchError: If ``after`` is not between 0 and :attr:`event_count`, or the
                match keeps no event log.
        """
        if not self._keep_events:
            raise MatchError("this match keeps no event log (it was made with keep_events=False)")
        count = len(self._events)
        if type(after) is not int or not 0 <= after <= count:
            raise MatchError(
                f"after: expected an event number from 0 to {count} (the event_count of an "
                f"earlier answer), got {after!r}"
            )
        return visible_events(self._events[after:], seat)

    def record(self, metadata: Metadata | None = None) -> GameRecord:
        """Return the record of the game so far.

        Args:
            metadata: The record's metadata; by default only the seats' names. Once the
                game is over the result is filled in (unless ``metadata`` has one).
        """
        meta = Metadata(players=self.names) if metadata is None else metadata
        if meta.result is None and self._state.is_over:
            meta = Metadata(meta.players, meta.date, meta.event, GameResult.of(self._state))
        return GameRecord(self.options, self.seed, tuple(self._actions), meta)

    # ------------------------------------------------------------------ acting

    def act(self, seat: int, action: Action, *, move: int | None = None) -> tuple[Event, ...]:
        """Take ``action`` for ``seat``, a seat played from outside (not a bot's).

        Args:
            seat: The seat acting.
            action: Its action.
            move: The move number the caller answers (:attr:`move` when it looked);
                ``None`` skips the check.

        Returns:
            The events of the action as ``seat`` saw them (empty if the match keeps no
            event log and no bot is informed).

        Raises:
            StaleMoveError: If ``move`` is given and is not :attr:`move`.
            MatchError: If the game is over, ``seat`` is not to act, or a bot plays it.
            IllegalActionError: If the action is not legal now.
            Exception: Whatever ``on_action`` raises.

        Nothing changes when an error is raised.
        """
        if move is not None and (type(move) is not int or move != len(self._actions)):
            if type(move) is not int or not 0 <= move < len(self._actions):
                raise StaleMoveError(
                    f"move: {move!r} is not a move of this match: it is at move "
                    f"{len(self._actions)}"
                )
            raise StaleMoveError(
                f"move {move} was already played: the match is at move {len(self._actions)}"
            )
        state = self._state
        if state.is_over:
            raise MatchError("the game is over")
        if seat != state.current_player:
            raise MatchError(f"seat {seat!r} is not to act: player {state.current_player} is")
        if self.seats[seat] is not None:
            raise MatchError(f"seat {seat} is played by a bot ({self.names[seat]})")
        events = self._take(action)
        return visible_events(events, seat) if events else ()

    def play_bot(self) -> Action | None:
        """Let the bot to act take one action; ``None`` if no bot is to act.

        Raises:
            BotError: If the bot raises or chooses an action that is not legal (the
                match does not change).
        """
        state = self._state
        if state.is_over:
            return None
        seat = state.current_player
        bot = self.seats[seat]
        if bot is None:
            return None
        return self._bot_acts(state, seat, bot)

    def play_bots(self, *, max_turns: int | None = None) -> int:
        """Let the bots act until a seat played from outside is to act or the game ends.

        Args:
            max_turns: Stop once the turn number is above this (a safeguard for games
                between bots); ``None`` for no limit.

        Returns:
            How many actions the bots took.

        Raises:
            BotError: As for :meth:`play_bot`; the actions before it stand.
        """
        done = 0
        seats = self.seats
        bot_acts = self._bot_acts
        while True:  # play_bot's loop, inline: a learning environment runs it every step
            state = self._state
            if (max_turns is not None and state.turn > max_turns) or state.is_over:
                return done
            seat = state.current_player
            bot = seats[seat]
            if bot is None:
                return done
            bot_acts(state, seat, bot)
            done += 1

    def _bot_acts(self, state: GameState, seat: int, bot: Bot) -> Action:
        """Let ``bot``, at ``seat`` to act in ``state`` (the match's), take one action."""
        start = perf_counter()
        try:
            action = bot.choose(observe(state, seat))
        except BotError:
            raise
        except Exception as error:  # a bot's bug must not pass for the engine's
            raise BotError(
                f"seat {seat} ({self.names[seat]}) failed: {type(error).__name__}: {error}"
            ) from error
        finally:
            self.think_seconds[seat] += perf_counter() - start
        self.decisions[seat] += 1
        try:
            self._take(action)
        except IllegalActionError as error:
            raise BotError(
                f"seat {seat} ({self.names[seat]}) chose an illegal action: {error}"
            ) from error
        return action

    def _take(self, action: Action) -> tuple[Event, ...]:
        """Apply a legal action: nothing changes if it is illegal or ``on_action`` raises."""
        state = self._state
        informed = self._informed
        if not (self._keep_events or informed) and self._on_action is None:  # a simulation
            after = apply(state, action)  # raises if illegal: nothing has changed yet
            self._state = after
            self._actions.append(action)
            return ()
        if self._keep_events or informed:
            after, events = step(state, action)
        else:
            after, events = apply(state, action), ()
        if self._on_action is not None:
            self._on_action(len(self._actions), action)
        self._state = after
        self._actions.append(action)
        if self._keep_events:
            self._events += events
        for s, inform in informed.items():
            inform(observe(after, s), visible_events(events, s))
        return events

    def __repr__(self) -> str:
        return (
            f"<Match players={self.options.num_players} move={self.move} "
            f"to_act={self.to_act} names={list(self.names)}>"
        )
