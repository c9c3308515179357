"""A table of the web server: one game, its seats, its moves and its bots, kept in a store.

A :class:`Table` is a :class:`~cuckoo_rules.Match` (``None`` at the human seats, a
:class:`~cuckoo_rules.web.seatbot.SeatBot` at each bot seat) and only ever hands out a
seat's view and the events redacted for that seat, with the numbering of the match's
events (:meth:`Table.document`). Every accepted action, a human's or a bot's, is
committed to the store by the match's ``on_action`` hook before the match takes it, so
replaying the stored actions (:meth:`Match.from_record <cuckoo_rules.Match.from_record>`)
rebuilds the table exactly (:meth:`Table.restore`).

Bots decide in worker processes (:mod:`cuckoo_rules.web.bots`), off the request path: the
web layer runs :meth:`Table.run_bots` in a background task, which hands out a
:class:`~cuckoo_rules.web.bots.BotJob` (:meth:`Table.bot_job`), waits for the decision
*without* holding the table's lock, then takes the lock only to check that the table is
still at that move and commit the decision (:meth:`Table.play_decision`), stored with
its note if a stand-in played it; a decision for a position that changed meanwhile is
dropped. While a bot decides, :attr:`Table.thinking` names its seat.

A hint (:meth:`Table.hint_position`, :func:`~cuckoo_rules.web.documents.encode_hint`) is
computed from the seat's view and :meth:`Match.knowledge <cuckoo_rules.Match.knowledge>`
only, never from the state, so it cannot tell the seat more than its own history does.

Fair deals: every table carries a commitment to its deal
(:func:`~cuckoo_rules.fairness.deal_commitment` of the seed and a secret salt), shown to
every seat from the start; the seed and the salt are shown once the game is over
(:meth:`Table.deal`).

Seats and people (tokens, claims, joins, names) are the part of a table that
:class:`~cuckoo_rules.web.seats.TableSeats` holds. Watching:
:meth:`~cuckoo_rules.web.seats.TableSeats.watch` registers a callback called (in
whatever thread changed the table) after every change a reader could see: a move, a bot
starting to decide, a claim, a join, a rematch, an expiry. The web layer's push stream
waits on it.

Nothing here knows HTTP; errors are :class:`~cuckoo_rules.web.errors.ApiError`
subclasses whose ``status`` is the HTTP status the web layer answers with.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import attrs

from ..actions import Action
from ..bots.specs import parse_bot_spec
from ..errors import CuckooError, IllegalActionError
from ..fairness import deal_commitment
from ..match import BotError, Match, MatchError
from ..records import GameRecord
from ..state import GameState
from .bots import BotJob, BotRunner, Decision
from .documents import HintPosition, encode_table
from .errors import (
    BadRequest,
    Conflict,
    MoveTaken,
    ServiceUnavailable,
    StorageError,
    StorageUnavailable,
)
from .seatbot import SeatBot
from .seats import TableSeats
from .stores.base import HUMAN, Status, Store, StoredTable, TableSetup
from .watchers import run_locked

if TYPE_CHECKING:  # the expert needs the batch extra; only its result's type is named here
    from ..bots.expert import ActionEstimate

__all__ = ["Table"]

_logger = logging.getLogger(__name__)

_T = TypeVar("_T")


@attrs.frozen
class _Published:
    """A table at one moment, between two actions: what every reader reads.

    The match changes in a worker thread while readers build documents in another, so a
    table publishes this after each action, and a document is built from one of them:
    never half a move.
    """

    state: GameState
    move: int
    event_count: int


class Table(TableSeats):
    """One game being played: its setup, its :class:`~cuckoo_rules.Match` and its lock.

    Changes (:meth:`play`, :meth:`play_decision`, :meth:`catch_up`, :meth:`claim`,
    :meth:`join`, :meth:`refresh_seats`, :meth:`hint_position`) must be made by one caller
    at a time, with :attr:`lock` held: :meth:`locked` runs one in a worker thread with
    the lock held. The lock is only ever held for such a short step, never while a bot
    decides (:meth:`run_bots` takes it to fetch a decision's job and again to commit the
    decision). Readers (:meth:`document`, :meth:`check_after`, :meth:`bots_to_act`,
    :meth:`seat_of`) need no lock: they read the table as it was after the last action,
    even while a move is being made.

    The seats and the people at them (:attr:`setup`, :attr:`names`, :attr:`players`,
    :attr:`claimed`, :attr:`rematch`, :meth:`seat_of`, :meth:`claim`, :meth:`join`...)
    are those of :class:`~cuckoo_rules.web.seats.TableSeats`.

    Args:
        setup: How the table was set up.
        store: Where its actions are committed.
        actions: The actions taken so far (those stored), replayed.
        notes: The notes stored with those actions (move number and text).
        status: The table's stored status.
        updated: When its last action was stored (Unix time; now by default).
        claimed: The human seats claimed so far.
        rematch: The id of the table of its rematch, or ``None``.

    Raises:
        CuckooError: If the setup or the actions do not make a game (a bad bot spec, an
            illegal action: :meth:`restore` reports it as a :class:`StorageError`).

    Attributes:
        lock: Serializes the changes of this table (an :class:`asyncio.Lock`).
        match: The game; its ``on_action`` commits every action to the store.
        commitment: The commitment to the deal (:func:`~cuckoo_rules.fairness.deal_commitment`
            of the seed and the salt), or ``None`` for a table stored without a salt.
        notes: For each move a stand-in played (a bot that failed twice), why; replaced,
            never changed, so a reader in another thread iterates a whole one.
        status: ``"open"``, ``"over"`` (the game is over) or ``"expired"`` (no move for
            too long: it takes no more moves).
        updated: When the last action was taken (Unix time).
        hint: The last hint given at this table: ``(seat, move)`` and its document.
    """

    def __init__(
        self,
        setup: TableSetup,
        store: Store,
        actions: tuple[Action, ...] = (),
        notes: Sequence[tuple[int, str]] = (),
        status: Status = "open",
        updated: float | None = None,
        claimed: Iterable[int] = (),
        rematch: str | None = None,
    ) -> None:
        super().__init__(setup, store, claimed, rematch)
        self.lock = asyncio.Lock()
        seats = tuple(
            None if kind == HUMAN else SeatBot(parse_bot_spec(kind), setup.bot_seed, seat)
            for seat, kind in enumerate(setup.seats)
        )
        self._replaying = False
        self._note: str | None = None  # the note of the action being committed
        self.match = Match.from_record(
            GameRecord(setup.options, setup.seed, actions),
            seats,
            names=self.names,
            log_setup=False,  # the API numbers events from the first action's
            on_action=self._commit,
        )
        self.commitment = None if setup.salt is None else deal_commitment(setup.seed, setup.salt)
        self.notes: dict[int, str] = dict(notes)
        self.status: Status = status
        self.updated = time.time() if updated is None else updated
        self.hint: tuple[tuple[int, int], tuple[ActionEstimate, ...]] | None = None
        self._thinking: tuple[int, int] | None = None  # (move, seat) of the bot deciding
        self._decided: tuple[int, Decision] | None = None  # a decision not stored yet
        self._published = self._now()

    @classmethod
    def start(cls, setup: TableSetup, store: Store, claimed: Iterable[int] = ()) -> Table:
        """Return a new table: the game just dealt, no action yet (nothing is stored)."""
        return cls(setup, store, claimed=claimed)

    @classmethod
    def restore(cls, stored: StoredTable, store: Store) -> Table:
        """Rebuild a table by replaying its stored actions.

        Raises:
            StorageError: If the stored options, seats or actions are not valid.
        """
        try:
            return cls(
                stored.setup,
                store,
                stored.actions,
                stored.notes,
                stored.status,
                stored.updated,
                stored.claimed,
                stored.rematch,
            )
        except CuckooError as error:
            raise StorageError(f"table {stored.setup.id!r}: {error}") from None

    @property
    def move(self) -> int:
        """The number of the next move, as readers see it (the actions taken and stored)."""
        return self._published.move

    @property
    def is_open(self) -> bool:
        """Whether the table takes moves: its game is on and it has not expired."""
        return self.status == "open" and not self._published.state.is_over

    @property
    def thinking(self) -> int | None:
        """The seat whose bot is deciding the table's current move now, or ``None``."""
        thinking = self._thinking
        if thinking is None or thinking[0] != self._published.move:
            return None
        return thinking[1]

    async def locked(self, work: Callable[..., _T], *args: Any) -> _T:
        """Run ``work(*args)`` in a worker thread with :attr:`lock` held; return its result.

        The lock is released only once the thread is done, even if the caller is
        cancelled meanwhile (the cancellation then takes effect after it), so two changes
        never overlap (:func:`~cuckoo_rules.web.watchers.run_locked`).
        """
        return await run_locked(self.lock, work, *args)

    # ----------------------------------------------------------------- moves

    def bots_to_act(self) -> bool:
        """Whether the table is open and a bot is to act."""
        state = self._published.state
        return self.is_open and self.match.seats[state.current_player] is not None

    def check_after(self, after: int) -> None:
        """Check that ``after`` is an event number of this table (at most ``next_event``).

        Events are only ever added, so a checked ``after`` stays valid for
        :meth:`document`, even after moves.

        Raises:
            BadRequest: If it is beyond the last event.
        """
        count = self._published.event_count
        if after > count:
            raise BadRequest(
                f"after: {after} is beyond the last event (this table has {count} events; "
                "pass the next_event of the previous answer)"
            )

    def _check_open(self) -> None:
        match = self.match
        if self.status == "expired":
            raise Conflict(
                "the table expired (no move for too long): it takes no more moves",
                move=match.move,
                key="web.error.expired",
            )
        if match.is_over:
            raise Conflict(
                f"the game is over (at move {match.move})",
                move=match.move,
                key="web.error.game_over",
            )

    def hint_position(self, seat: int) -> HintPosition:
        """Return what a hint for ``seat`` is computed from now: its view and knowledge.

        It reads the match itself (the knowledge is folded over the seat's events), so
        like the moves it must be called by one caller at a time, with :attr:`lock`
        held: the view and the knowledge are then of the same moment.

        Args:
            seat: The seat asking (a human's).

        Raises:
            Conflict: If the game is over, the table expired or ``seat`` is not to act;
                the message gives the table's move number.
        """
        self._check_open()
        match = self.match
        if seat != match.to_act:
            raise Conflict(
                f"it is not your turn: player {match.to_act} is to act (the match is at "
                f"move {match.move})",
                move=match.move,
                key="web.error.not_your_turn",
            )
        return HintPosition(match.move, match.view(seat), match.knowledge(seat))

    def play(self, seat: int, action: Action, move: int) -> None:
        """Take ``action`` for the human ``seat`` and commit it (the bots act afterwards).

        Hold :attr:`lock` (:meth:`locked`).

        Args:
            seat: The seat acting (a human's).
            action: Its action.
            move: The move number the client answers (the ``move`` of the document it
                answers): a request sent twice, or one answering an old document, is
                refused instead of being played again.

        Raises:
            Conflict: If ``move`` is not the table's move (the action was already
                played, for example a request sent twice), the game is over or the
                table expired, ``seat`` is not to act, or the action is not legal; the
                error carries the table's move number, and nothing is stored.
            ServiceUnavailable: If the store cannot take the write now (nothing stored).
        """
        match = self.match
        if move < match.move:
            raise Conflict(
                f"move {move} was already played: the table is at move {match.move} (a "
                "move sent twice, or an answer to an old document; read the table again)",
                move=match.move,
                key="web.error.stale_move",
            )
        if move > match.move:
            raise Conflict(
                f"move {move} is not the table's move yet: it is at move {match.move}",
                move=match.move,
            )
        self._check_open()
        if seat != match.to_act:
            raise Conflict(
                f"it is not your turn: player {match.to_act} is to act",
                move=match.move,
                key="web.error.not_your_turn",
            )
        try:
            match.act(seat, action, move=move)
        except (MatchError, IllegalActionError) as error:
            raise Conflict(str(error), move=match.move) from None
        except MoveTaken:  # another server process stored this move first
            self.catch_up()
            raise Conflict(
                f"move {move} was already played: the table is at move {self.match.move}",
                move=self.match.move,
            ) from None
        except StorageUnavailable as error:
            raise ServiceUnavailable(str(error), retry_after=error.retry_after) from None
        self._settle()

    def expect_bot(self, runner: BotRunner) -> None:
        """Show the bot to act as :attr:`thinking` already, before its decision is asked for.

        For the web layer, which answers a human's move before the bots' task starts:
        the answer then says who thinks next. Bots the runner decides for at once
        (:meth:`BotRunner.decides_inline`) are never shown thinking.
        """
        if not self.bots_to_act():
            return
        published = self._published
        seat = published.state.current_player
        bot = self.match.seats[seat]
        if isinstance(bot, SeatBot) and not runner.decides_inline(bot.spec.text or bot.spec.kind):
            self._thinking = (published.move, seat)
            self._changed()

    def bot_job(self) -> tuple[int, int, BotJob] | None:
        """The decision the bot to act must make: ``(move, seat, job)``; ``None`` if none.

        Hold :attr:`lock` (it reads the match).
        """
        if not self.bots_to_act():
            return None
        match = self.match
        seat = match.state.current_player
        bot = match.seats[seat]
        assert isinstance(bot, SeatBot)
        return match.move, seat, bot.job(match.view(seat))

    def play_decision(self, move: int, decision: Decision) -> bool:
        """Play a bot's decision for ``move``, committing it with its note.

        Hold :attr:`lock` (:meth:`locked`).

        Args:
            move: The move the decision was made for (:meth:`bot_job`).
            decision: The decision.

        Returns:
            Whether it was played: ``False`` if the table is no longer at ``move`` (a
            decision for an old position, dropped: another server process played it
            meanwhile, or the table expired).

        Raises:
            StorageUnavailable: If the store cannot take the write now (nothing stored;
                the decision can be played again later).
        """
        match = self.match
        if match.move != move or not self.bots_to_act():
            return False
        bot = match.seats[match.state.current_player]
        assert isinstance(bot, SeatBot)
        bot.pending = decision.action
        self._note = decision.note
        try:
            match.play_bot()
        except MoveTaken:
            self.catch_up()
            return False
        except BotError:  # a decision the runner checked is legal: only a bug gets here
            _logger.exception("table %s: the bot's decision at move %d failed", self.id, move)
            return False
        finally:
            bot.pending = None
            self._note = None
        if decision.note is not None:
            self.notes = {**self.notes, move: decision.note}  # readers hold the old one
        self._settle()
        return True

    async def run_bots(self, runner: BotRunner) -> None:
        """Let the bots act, one move at a time, until a human is to act or the game ends.

        For each move: with :attr:`lock` held, take the decision's job
        (:meth:`bot_job`) and mark the seat as :attr:`thinking` (bots that search, not
        the quick :data:`~cuckoo_rules.web.bots.INLINE_KINDS`); then, without the lock,
        wait for the decision (:meth:`BotRunner.decide` runs it in a worker process, in
        the turn of this table and of the client that created it, so that another
        client's tables cannot hold the workers; the quick kinds in a worker thread);
        then, with the lock held again, commit it
        (:meth:`play_decision`), or drop it if the table moved on meanwhile. So readers
        and other requests never wait for a decision, only for a commit. A decision
        never fails (greedy stands in for a bot that fails twice).

        Raises:
            StorageUnavailable: If the store cannot take a bot's move now; the decision is
                kept, and the next call commits it without deciding again.
        """
        while True:
            async with self.lock:
                job = self.bot_job()
                if job is None:
                    self._thinking = None
                    return
                move, seat, bot_job = job
                inline = runner.is_inline(bot_job)
                decided = self._decided
                if decided is None or decided[0] != move:
                    decided = None
                    if not inline:
                        self._thinking = (move, seat)
                        self._changed()
            try:
                if decided is not None:  # decided before, not stored then (a full disk)
                    decision = decided[1]
                elif inline:
                    name = self.names[seat]
                    decision = await asyncio.to_thread(runner.decide_here, bot_job, name)
                else:  # in the turn of the table and of the client that created it
                    decision = await runner.decide(
                        bot_job, self.names[seat], client=self.setup.client, table=self.id
                    )
                self._decided = (move, decision)
                played = await self.locked(self.play_decision, move, decision)
            except BaseException:
                if self._thinking is not None:
                    self._thinking = None
                    self._changed()
                raise
            self._decided = None
            if not played and self._thinking is not None:  # dropped: the position changed
                self._thinking = None
                self._changed()

    def catch_up(self) -> int:
        """Take the actions other server processes stored since this table's last move.

        Only a shared store (PostgreSQL) has any. Hold :attr:`lock`.

        Returns:
            How many actions were taken.

        Raises:
            StorageError: If a stored action is not legal.
        """
        rows = self._store.actions(self.id, self.match.move)
        match = self.match
        for action, note in rows:
            move = match.move
            self._replaying = True
            try:
                seat = match.state.current_player
                bot = match.seats[seat]
                if isinstance(bot, SeatBot):
                    bot.pending = action
                    match.play_bot()
                else:
                    match.act(seat, action)
            except (BotError, MatchError, IllegalActionError) as error:
                raise StorageError(f"table {self.id!r}: actions[{move}]: {error}") from None
            finally:
                self._replaying = False
            if note is not None:
                self.notes = {**self.notes, move: note}  # readers hold the old one
            self._settle()
        return len(rows)

    def expire(self) -> None:
        """Mark the table expired in memory (the store was told): it takes no more moves."""
        self.status = "expired"
        self._changed()

    def _settle(self) -> None:
        """After an action: publish the new position; record a game that is over."""
        self.updated = time.time()
        self._published = self._now()
        if self.status == "open" and self.match.is_over:
            self.status = "over"
            try:
                self._store.set_status(self.id, "over")
            except StorageUnavailable:  # the next start replays it and records it then
                _logger.warning("table %s: could not record that the game is over", self.id)
        self._changed()

    def _commit(self, move: int, action: Action) -> None:
        """The match's ``on_action``: store (committed) the action before it is taken."""
        if not self._replaying:
            self._store.add_action(self.id, move, action, time.time(), self._note)

    def _now(self) -> _Published:
        match = self.match
        return _Published(match.state, match.move, match.event_count)

    def deal(self) -> dict[str, Any]:
        """The ``deal`` object of the documents: the commitment, then the secret revealed.

        ``{"commitment": hex or null, "seed_source": "server" or "request", "seed":
        null, "salt": null}`` while the game is on; once it is over (or the table
        expired) ``seed`` (in decimal, as a string: it may exceed what JavaScript
        numbers hold) and ``salt`` are filled in, so any seat can check
        :func:`~cuckoo_rules.fairness.check_deal` and replay the game.
        """
        revealed = self.status != "open" or self._published.state.is_over
        return {
            "commitment": self.commitment,
            "seed_source": self.setup.seed_source,
            "seed": str(self.setup.seed) if revealed else None,
            "salt": self.setup.salt if revealed else None,
        }

    def document(self, seat: int | None, after: int = 0, language: str = "en") -> dict[str, Any]:
        """Return what ``seat`` (``None``: a spectator) may see, as a JSON object.

        The table document (:func:`~cuckoo_rules.web.documents.encode_table` lists its
        keys), built from one moment of the table, between two actions. ``after`` must
        have passed :meth:`check_after`.

        Args:
            seat: The reader's seat, or ``None`` for a spectator.
            after: The number of the first event to include.
            language: The language of the names, narration, outcome and notices (one of
                :data:`cuckoo_rules.narration.LANGUAGES`).

        Raises:
            NarrationError: If ``language`` is not one of them.
        """
        published = self._published
        thinking = self._thinking
        return encode_table(
            setup=self.setup,
            seat=seat,
            state=published.state,
            move=published.move,
            events=self.match.events(seat, after)[: published.event_count - after],
            next_event=published.event_count,
            names=self._narration_names,
            status=self.status,
            thinking=(
                thinking[1] if thinking is not None and thinking[0] == published.move else None
            ),
            deal=self.deal(),
            notes=self.notes,
            players=self.players,
            free=self.free,
            rematch=self.rematch,
            language=language,
        )
