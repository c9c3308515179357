"""The bot at a bot seat of a web table: its spec's bot, rebuilt for every decision.

A table's bot seats are :class:`SeatBot` objects, which the table's
:class:`~cuckoo_rules.Match` informs of the seat's view and events after every action.
Bots are rebuilt for every decision with the seed ``derive_seed(bot_seed, seat, move)``
(:func:`~cuckoo_rules.bots.derive_seed`) of the table's secret bot seed, the seat and
the move number, and a bot that follows the game (has ``inform``) is informed of the
seat's whole history before it chooses, so their choices are a function of the history
alone and do not depend on when the server was restarted. A decision is handed out as a
:class:`~cuckoo_rules.web.bots.BotJob` (:meth:`SeatBot.job`), to run in a worker process,
and its result played through :attr:`SeatBot.pending`.
"""

from __future__ import annotations

from ..actions import Action
from ..bots.specs import BotSpec
from ..bots.tournament import derive_seed
from ..events import Event, GameStarted
from ..views import PlayerView
from .bots import BotJob

__all__ = ["SeatBot"]


class SeatBot:
    """The bot at one seat of a table: its spec's bot, built afresh for every decision.

    A table's bots must choose the same whether the server ran all along or was
    restarted in the middle (:meth:`Lobby.open <cuckoo_rules.web.lobby.Lobby.open>`
    rebuilds every table from its stored actions), so no bot object lives from one
    decision to the next. The
    :class:`~cuckoo_rules.Match` informs this object of the seat's view and events
    after every action (:meth:`inform`), which it keeps; at each decision
    :meth:`choose` builds the spec's bot with the seed ``derive_seed(bot_seed, seat,
    move)`` and, if that bot follows the game (has ``inform``, as ``ismcts`` does),
    informs it of the whole history kept, then asks it to choose. A fresh bot informed
    of the whole history knows exactly what a bot informed all along would know, and
    the history is the same after a restart (:meth:`Match.from_record
    <cuckoo_rules.Match.from_record>` informs the seats of every stored action).

    The move number is counted from the same calls: ``inform`` comes once at the start
    (with the setup, a :class:`~cuckoo_rules.GameStarted`) and once after every action.

    Args:
        spec: The seat's bot specification.
        bot_seed: The table's secret seed, from which every decision's seed derives.
        seat: The seat.

    Raises:
        BotSpecError: If the spec does not build a bot.

    Attributes:
        spec: The seat's bot specification.
        bot_seed: The table's secret bot seed.
        seat: The seat.
        move: The number of the next move (the actions the seat was informed of).
    """

    __slots__ = ("_follows", "_history", "bot_seed", "move", "pending", "seat", "spec")

    def __init__(self, spec: BotSpec, bot_seed: int, seat: int) -> None:
        self.spec = spec
        self.bot_seed = bot_seed
        self.seat = seat
        self.move = 0
        self.pending: Action | None = None
        self._follows = callable(getattr(spec.build(0), "inform", None))
        # Every inform call since the start, if the spec's bot follows the game.
        self._history: list[tuple[PlayerView, tuple[Event, ...]]] = []

    def inform(self, view: PlayerView, events: tuple[Event, ...]) -> None:
        """Keep what the seat saw of an action, or of the setup of a new game.

        Args:
            view: The seat's view after the action (or the first view of the game).
            events: The action's events as the seat saw them, or the setup of a new
                game (a :class:`~cuckoo_rules.GameStarted`), which forgets the history
                kept and starts the move count again.
        """
        if events and type(events[0]) is GameStarted:
            self.move = 0
            self._history.clear()
        else:
            self.move += 1
        if self._follows:
            self._history.append((view, events))

    def job(self, view: PlayerView) -> BotJob:
        """Return this decision as a :class:`~cuckoo_rules.web.bots.BotJob`, to run elsewhere.

        Args:
            view: The seat's view, the seat being to act.
        """
        history = tuple(self._history) if self._follows else ()
        seed = derive_seed(self.bot_seed, self.seat, self.move)
        return BotJob(self.spec.text or self.spec.kind, seed, view, history)

    def choose(self, view: PlayerView) -> Action:
        """Return :attr:`pending` if a decision was made elsewhere, else decide here.

        Deciding here builds the bot of this decision, informs it of the history, and
        lets it choose.

        Args:
            view: The seat's view, the seat being to act.

        Returns:
            The bot's action.
        """
        if self.pending is not None:
            action, self.pending = self.pending, None
            return action
        bot = self.spec.build(derive_seed(self.bot_seed, self.seat, self.move))
        inform = getattr(bot, "inform", None)
        if self._follows and callable(inform):
            for seen, events in self._history:
                inform(seen, events)
        return bot.choose(view)

    def __repr__(self) -> str:
        return f"SeatBot({self.spec.text or self.spec.kind!r}, seat={self.seat})"
