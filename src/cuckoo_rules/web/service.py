"""What the routes of the web server share, and the work it does in the background.

A :class:`Service` holds one application's lobby, bot runner and limits, which every
route reads (:mod:`cuckoo_rules.web.routes`), with the steps the routes have in common:
find the table of a request (:meth:`Service.table`), its seat (:meth:`Service.seat`),
claim it (:meth:`Service.claim`), read the body (:meth:`Service.body`), answer a hint
in its fair turn (:meth:`Service.hint`). It also runs the application's background
tasks from its start to its shut-down: the bots of each table, one move at a time, in a
task of their own (:meth:`Service.wake_bots`), retried when their move cannot be stored;
the expiry of idle tables; the revival of bots nobody plays; and, with a shared store
(PostgreSQL), the moves and seat changes that other server processes store.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request

from .bots import BotRunner
from .documents import HintPosition
from .errors import ServiceUnavailable, StorageUnavailable, Unauthorized
from .guard import IPV4_PREFIX, IPV6_PREFIX, client_key
from .lobby import Lobby
from .parsing import bearer_token, read_json
from .reviews import ReviewQueue
from .shares import HintQueue, HintSearch
from .stores.base import SEATS_CHANGED
from .streams import Streams
from .table import Table

if TYPE_CHECKING:  # the expert needs the batch extra; only its result's type is named here
    from ..bots.expert import ActionEstimate

__all__ = ["Service"]

_logger = logging.getLogger(__name__)

_RETRY_BOTS = (0.5, 30.0)  # seconds before a bot's move that could not be stored is retried


class Service:
    """What the routes of one application share: the lobby, the bot runner, the limits.

    It also runs the application's background tasks (:meth:`start`, :meth:`stop`): each
    table's bots (:meth:`wake_bots`), the expiry of idle tables, the revival of bots
    nobody plays, and, with a shared store, the moves and seat changes other server
    processes store.

    Args:
        lobby: The tables.
        runner: Where the bots' decisions run.
        max_body: The largest request body accepted, in bytes.
        hint_simulations: The budget of each hint's search, in simulations.
        streams: The push streams open.
        stream_ping: Seconds between the pings of an idle push stream.
        stream_rematch_wait: Seconds a push stream waits for a rematch.
        hints: The queue of hint searches; ``None`` for one of the default bounds.
        reviews: The reviews of finished games; ``None`` for one of the default bounds
            and budget.

    Attributes:
        lobby: As given.
        runner: As given.
        max_body: As given.
        hint_simulations: As given.
        streams: As given.
        stream_ping: As given.
        stream_rematch_wait: As given.
        hints: The hint searches, one at a time, in turns per client and table.
        reviews: The reviews of finished games, computed on the bot workers in turns per
            client, kept in the store (:class:`~cuckoo_rules.web.reviews.ReviewQueue`).
        bot_loops: The background task playing the bots of each table that has one
            running.
    """

    def __init__(
        self,
        lobby: Lobby,
        runner: BotRunner,
        max_body: int,
        hint_simulations: int,
        streams: Streams,
        stream_ping: float,
        stream_rematch_wait: float,
        hints: HintQueue | None = None,
        reviews: ReviewQueue | None = None,
    ) -> None:
        self.lobby = lobby
        self.runner = runner
        self.max_body = max_body
        self.hint_simulations = hint_simulations
        self.streams = streams
        self.stream_ping = stream_ping
        self.stream_rematch_wait = stream_rematch_wait
        # One hint search at a time (each runs on every core), in fair turns.
        self.hints = HintQueue() if hints is None else hints
        # The reviews of finished games, on the bot workers, in turns per client.
        self.reviews = ReviewQueue(runner, lobby.store) if reviews is None else reviews
        self._tasks: set[asyncio.Task[None]] = set()
        self.bot_loops: dict[str, asyncio.Task[None]] = {}
        self._stopping = False
        self._stop_listening: Callable[[], None] | None = None

    @asynccontextmanager
    async def lifespan(self, app: object) -> AsyncIterator[None]:
        """The lifespan of the application: :meth:`start` before, :meth:`stop` after."""
        await self.start()
        try:
            yield
        finally:
            await self.stop()

    async def start(self) -> None:
        """At start-up: the bots to act play, idle tables expire, moves elsewhere arrive."""
        for table in list(self.lobby.tables.values()):
            self.wake_bots(table)
        self._spawn(self._expire())
        self._spawn(self._revive())
        listen = getattr(self.lobby.store, "listen", None)
        if callable(listen):
            loop = asyncio.get_running_loop()

            def notified(table_id: str, index: int) -> None:
                loop.call_soon_threadsafe(self._notified, table_id, index)

            def reconnected() -> None:  # moves stored meanwhile were not notified
                loop.call_soon_threadsafe(self._catch_up_all)

            self._stop_listening = listen(notified, on_reconnect=reconnected)

    async def stop(self) -> None:
        """At shut-down: stop the background tasks and the bots' workers, close the store."""
        self._stopping = True
        if self._stop_listening is not None:
            self._stop_listening()
        self.hints.close()
        self.reviews.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await run_in_threadpool(self.runner.close)
        self.lobby.close()

    def _spawn(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # ----------------------------------------------------------------- background

    def wake_bots(self, table: Table) -> None:
        """Start the background task of ``table``'s bots, unless one runs or none is to act.

        One task per table at most: it plays the bots' moves one at a time until a human
        is to act, then ends. Its check that no bot is to act and its removal from
        :attr:`bot_loops` happen in one step of the event loop, so a move that makes a
        bot due afterwards always finds it gone and starts another.
        """
        if self._stopping or table.id in self.bot_loops or not table.bots_to_act():
            return
        table.expect_bot(self.runner)  # an answer built now says who thinks next
        self.bot_loops[table.id] = self._spawn(self._bots(table))

    async def _bots(self, table: Table) -> None:
        """Play the bots of ``table`` until a human is to act; retry a move not stored."""
        delay = _RETRY_BOTS[0]
        try:
            while True:
                try:
                    await table.run_bots(self.runner)
                except StorageUnavailable as error:
                    _logger.warning(
                        "table %s: a bot's move could not be stored (%s); trying again in %g s",
                        table.id,
                        error,
                        delay,
                    )
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, _RETRY_BOTS[1])
                    continue
                except Exception:
                    _logger.exception("table %s: the bots stopped", table.id)
                    return
                self.lobby.settle(table)
                return
        finally:
            if self.bot_loops.get(table.id) is asyncio.current_task():
                del self.bot_loops[table.id]

    async def _expire(self) -> None:
        """Expire idle tables now and then (every tenth of the expiry time, at most a minute)."""
        pause = min(60.0, self.lobby.expire_after / 10, self.lobby.expire_unplayed / 10)
        while True:
            try:
                await run_in_threadpool(self.lobby.expire_idle)
            except StorageUnavailable as error:
                _logger.warning("could not expire idle tables: %s", error)
            await asyncio.sleep(pause)

    async def _revive(self) -> None:
        """Now and then, start the bots of tables where they are due but nobody plays them.

        That is a table whose bots' task failed, or, with a shared store, one whose bots
        another server process was playing when it stopped: nothing has moved there for
        longer than two tries of a decision take. (Were the other process only slow, the
        store would keep one copy of the move.)
        """
        stalled = 2 * self.runner.timeout + 1.0
        while True:
            await asyncio.sleep(min(5.0, stalled / 2))
            now = time.time()
            for table in list(self.lobby.tables.values()):
                if table.id not in self.bot_loops and now - table.updated > stalled:
                    self.wake_bots(table)

    def _notified(self, table_id: str, index: int) -> None:
        """Another server process stored move ``index`` of a table, or changed its seats."""
        table = self.lobby.cached(table_id)
        if table is None:
            return
        if index == SEATS_CHANGED:
            self._spawn(self._refresh_seats(table))
        elif index >= table.match.move:
            self._spawn(self._catch_up(table))

    def _catch_up_all(self) -> None:
        for table in list(self.lobby.tables.values()):
            self._spawn(self._catch_up(table))
            self._spawn(self._refresh_seats(table))

    async def _catch_up(self, table: Table) -> None:
        await table.locked(table.catch_up)
        self.lobby.settle(table)

    async def _refresh_seats(self, table: Table) -> None:
        try:
            await table.locked(table.refresh_seats)
        except StorageUnavailable as error:
            _logger.warning("table %s: could not read its seats: %s", table.id, error)

    # ----------------------------------------------------------------- requests

    async def table(self, request: Request) -> Table:
        """The table of the request's path, up to date with the store."""
        table_id = request.path_params["table_id"]
        table = self.lobby.cached(table_id)  # in memory: no thread needed
        if table is None:  # read from the store, in a thread
            table = await run_in_threadpool(self.lobby.get, table_id)
        if self.lobby.store.shared and table.is_open:
            await self._catch_up(table)
        return table

    client_prefixes: tuple[int, int] = (IPV4_PREFIX, IPV6_PREFIX)
    """The bits of an IPv4 and an IPv6 address that name a client (:meth:`client`)."""

    def client(self, request: Request) -> str:
        """The client of the request, as every limit per client counts it.

        :func:`~cuckoo_rules.web.guard.client_key` of its address, with
        :attr:`client_prefixes`: a network, every loopback address as one client.
        """
        address = request.client.host if request.client is not None else ""
        return client_key(address, *self.client_prefixes)

    async def seat(self, request: Request, table: Table) -> int | None:
        """The seat the request's token holds (``None`` without one).

        With a shared store, another server process may have just changed who holds a
        seat (an invitation exchanged, a seat handed over): the table reads its seats
        from the store, the truth, before every check of a token, so a token that lost
        its seat anywhere is refused everywhere at once, and a new one is known.

        Raises:
            Unauthorized: If the token holds no seat of the table.
            ServiceUnavailable: If a shared store cannot be read now.
        """
        token = bearer_token(request)
        if token is not None and self.lobby.store.shared:
            try:
                await table.locked(table.refresh_seats)
            except StorageUnavailable as error:
                raise ServiceUnavailable(str(error), retry_after=error.retry_after) from None
        return table.seat_of(token)

    async def seat_required(self, request: Request, table: Table, purpose: str) -> int:
        """The seat of the request's token; a missing token is refused (``purpose``: why)."""
        seat = await self.seat(request, table)
        if seat is None:
            raise Unauthorized(
                f"a seat's token is needed {purpose}: send 'Authorization: Bearer <token>'"
            )
        return seat

    async def claim(self, table: Table, seat: int | None) -> None:
        """A request of ``seat``'s token succeeded: the seat is claimed, if it was free."""
        if seat is None or seat in table.claimed or not table.is_open:
            return
        try:
            await table.locked(table.claim, seat)
        except StorageUnavailable as error:  # the next request of the seat claims it
            _logger.warning("table %s: could not record seat %d claimed: %s", table.id, seat, error)

    async def body(self, request: Request, *, required: bool = True) -> object:
        """Read the body as JSON, refusing bodies over :attr:`max_body` bytes.

        Without ``required``, an empty body gives ``None``
        (:func:`~cuckoo_rules.web.parsing.read_json`).
        """
        return await read_json(request, self.max_body, required=required)

    async def hint(
        self, request: Request, table: Table, seat: int, position: HintPosition, search: HintSearch
    ) -> tuple[ActionEstimate, ...]:
        """The hint of ``seat`` at ``position``: the table's last one, or a search in its turn.

        As :meth:`HintQueue.hint <cuckoo_rules.web.shares.HintQueue.hint>`: one search
        per seat, the searches waiting bounded in all and per client (the request's
        :meth:`client`; 429 beyond), and no search for a request whose client has gone
        when its turn comes.

        Args:
            request: The request asking (its client may go before the search).
            table: The table.
            seat: The seat asking, to act at ``position``.
            position: What the hint is computed from.
            search: The search (the expert's, with the server's budget).

        Raises:
            TooManyRequests: If the searches waiting are at their bound (with
                ``retry_after``), or the seat's search of an earlier move is running.
            Conflict: If the table moved on before the search's turn came.
        """
        return await self.hints.hint(
            table, seat, position, search, client=self.client(request), gone=request.is_disconnected
        )
