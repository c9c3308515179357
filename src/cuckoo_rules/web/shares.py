"""Fair shares of the server's work: bot decisions and hints, in turns per client and table.

Two kinds of work on a server are costly and shared by everyone: bot decisions, which run
in a fixed number of worker processes (:mod:`cuckoo_rules.web.bots`), and hints, searched
one at a time (each search uses every core). Served first come, first served, one client
with many tables or many requests takes them all, and everyone else waits behind its
whole queue. So:

- :class:`FairShares` hands out a fixed number of slots in turns. When a slot frees, the
  waiting client with the fewest slots in use gets it (among equals, the one served
  longest ago), and a client's waiting tables take turns. A client with one table waits
  for one slot to free, however many tables another client keeps busy, and every waiting
  table is served in its turn: none starves.
- :class:`HintQueue` runs the hint searches one at a time in those turns, with at most one
  search per seat (a second request of the seat at the same move joins the first), a
  bound on the searches waiting, in all (:data:`HINT_QUEUE`) and per client
  (:data:`HINT_QUEUE_PER_CLIENT`), beyond which a request is refused with 429 and
  ``Retry-After``, and no search for a request whose client has gone, or whose table has
  moved on, by the time its turn comes.

A client is the key the server counts its limits by (the client's network: see
:mod:`cuckoo_rules.web.guard`); a bot's decision counts for the client that created its
table.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Protocol

from starlette.concurrency import run_in_threadpool

from ..knowledge import Knowledge
from ..views import PlayerView
from .documents import HintPosition
from .errors import Conflict, ServiceUnavailable, TooManyRequests

if TYPE_CHECKING:  # the expert needs the batch extra; only its result's type is named here
    from ..bots.expert import ActionEstimate

__all__ = [
    "HINT_QUEUE",
    "HINT_QUEUE_PER_CLIENT",
    "RESERVE_FOR",
    "FairShares",
    "HintQueue",
    "HintSearch",
    "HintTable",
]

HINT_QUEUE = 64
"""The most hint searches waiting for their turn on a server, in all (more get 429)."""

HINT_QUEUE_PER_CLIENT = 4
"""The most hint searches of one client waiting for their turn (more get 429)."""

HintSearch = Callable[[PlayerView, Knowledge], "Sequence[ActionEstimate]"]
"""A hint's search: the seat's view and knowledge to its best moves
(:func:`cuckoo_rules.bots.expert.hint` with the server's budget)."""


class HintTable(Protocol):
    """What a hint search needs of its table (:class:`~cuckoo_rules.web.table.Table`)."""

    @property
    def id(self) -> str:
        """The table's id."""

    @property
    def move(self) -> int:
        """The table's move now."""

    @property
    def is_open(self) -> bool:
        """Whether the table takes moves."""

    hint: tuple[tuple[int, int], tuple[ActionEstimate, ...]] | None
    """The last hint given at the table: ``(seat, move)`` and its result."""


RESERVE_FOR = 60.0
"""Seconds after another client last asked for a bot worker during which a client holds
every worker but one (:class:`FairShares`): the next client's decision starts at once."""

_RETRY_MOST = 60  # seconds: the longest Retry-After a refused hint is given


class FairShares:
    """A fixed number of slots, handed out in turns: per client, then per table.

    :meth:`turn` waits for a slot and holds it. A slot that frees goes to the waiting
    client with the fewest slots in use, among equals the one whose last turn is the
    oldest (a client with no turn yet first); within a client, its tables take turns.
    And while another client has asked for a slot in the last ``reserve_for`` seconds,
    no client holds every slot (of two or more): one is kept for the others, so that
    their next turn starts at once instead of after one of its own. Alone, a client may
    hold them all. Everything runs on one event loop; nothing here is thread-safe.

    Args:
        slots: How many holders at once (the bot workers, or 1 for the hint search).
        reserve_for: Seconds after another client's last turn during which a client
            holds one slot fewer than all (0: never).
        clock: The clock, in seconds (:func:`time.monotonic`).

    Raises:
        ValueError: If ``slots`` is not a positive integer, or ``reserve_for`` is
            negative.

    Example:
        >>> async def demo() -> list[str]:
        ...     shares, order = FairShares(1), []
        ...     async def work(client: str, table: str) -> None:
        ...         async with shares.turn(client, table):
        ...             order.append(client + table)
        ...             await asyncio.sleep(0)
        ...     await asyncio.gather(*(work("a", str(i)) for i in range(3)), work("b", "0"))
        ...     return order
        >>> asyncio.run(demo())
        ['a0', 'b0', 'a1', 'a2']
    """

    __slots__ = (
        "_asked",
        "_busy",
        "_clock",
        "_last",
        "_turns",
        "_waiting",
        "_waiting_count",
        "in_use",
        "reserve_for",
        "slots",
    )

    def __init__(
        self,
        slots: int,
        reserve_for: float = RESERVE_FOR,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if type(slots) is not int or slots < 1:
            raise ValueError(f"slots: expected a positive integer, got {slots!r}")
        if not isinstance(reserve_for, int | float) or not 0 <= reserve_for < 1e9:
            raise ValueError(f"reserve_for: expected seconds, 0 or more, got {reserve_for!r}")
        self.slots = slots
        self.reserve_for = float(reserve_for)
        self.in_use = 0
        """The slots held now."""
        self._clock = clock
        self._busy: dict[str, int] = {}  # client -> the slots it holds
        self._last: dict[str, int] = {}  # client -> the number of its last turn
        self._asked: dict[str, float] = {}  # client -> when it last asked, oldest first
        self._turns = 0
        # client -> table -> the holders waiting, in order
        self._waiting: dict[str, OrderedDict[str, deque[asyncio.Future[None]]]] = {}
        self._waiting_count = 0

    @property
    def waiting(self) -> int:
        """How many wait for a slot."""
        return self._waiting_count

    @asynccontextmanager
    async def turn(self, client: str, table: str) -> AsyncIterator[None]:
        """Wait for a slot in the turn of ``client`` and ``table``, and hold it meanwhile.

        Args:
            client: Who the work is for (the key the server's limits count by).
            table: The table it is for (a client's tables take turns).
        """
        await self._acquire(client, table)
        try:
            yield
        finally:
            self._release(client)

    def _reserving(self) -> bool:
        """Whether a slot may be kept for other clients (two slots or more)."""
        return self.slots > 1 and self.reserve_for > 0

    def _most(self, client: str) -> int:
        """The slots ``client`` may hold now: all, or all but one while others ask."""
        if not self._reserving():
            return self.slots
        since = self._clock() - self.reserve_for
        for other, when in list(self._asked.items()):  # forget those asked too long ago
            if when >= since:
                break
            del self._asked[other]
        others = len(self._asked) - (client in self._asked)
        return self.slots - 1 if others else self.slots

    async def _acquire(self, client: str, table: str) -> None:
        if self._reserving():
            self._asked.pop(client, None)  # the latest last
            self._asked[client] = self._clock()
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(client, OrderedDict()).setdefault(table, deque()).append(future)
        self._waiting_count += 1
        self._hand_out()  # a free slot, if it may have one, goes to it (or one before it) now
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():  # given a slot as it was cancelled
                self._release(client)
            else:
                self._forget(client, table, future)
            raise

    def _forget(self, client: str, table: str, future: asyncio.Future[None]) -> None:
        """Take a holder that stopped waiting out of the queue."""
        tables = self._waiting.get(client)
        queue = None if tables is None else tables.get(table)
        if tables is None or queue is None or future not in queue:
            return
        queue.remove(future)
        self._waiting_count -= 1
        if not queue:
            del tables[table]
        if not tables:
            del self._waiting[client]
            if client not in self._busy:
                self._last.pop(client, None)
        self._hand_out()  # a slot kept free for it may go to another

    def _grant(self, client: str) -> None:
        self.in_use += 1
        self._busy[client] = self._busy.get(client, 0) + 1
        self._turns += 1
        self._last[client] = self._turns

    def _release(self, client: str) -> None:
        self.in_use -= 1
        held = self._busy[client] - 1
        if held:
            self._busy[client] = held
        else:
            del self._busy[client]
            if client not in self._waiting:
                self._last.pop(client, None)
        self._hand_out()

    def _hand_out(self) -> None:
        """Give the free slots to the next holders in turn."""
        while self.in_use < self.slots and self._waiting:
            allowed = [c for c in self._waiting if self._busy.get(c, 0) < self._most(c)]
            if not allowed:  # the free slot is kept for other clients
                return
            client = min(allowed, key=lambda c: (self._busy.get(c, 0), self._last.get(c, 0)))
            tables = self._waiting[client]
            table, queue = next(iter(tables.items()))
            future = queue.popleft()
            self._waiting_count -= 1
            if queue:
                tables.move_to_end(table)
            else:
                del tables[table]
            if not tables:
                del self._waiting[client]
            if future.done():  # its holder was cancelled as it waited: it takes no slot
                continue
            self._grant(client)
            future.set_result(None)


class _Job:
    """One hint search: for a seat at a move, and the requests waiting for it."""

    __slots__ = (
        "client",
        "future",
        "position",
        "search",
        "searching",
        "seat",
        "table",
        "task",
        "waiters",
    )

    def __init__(
        self, table: HintTable, seat: int, position: HintPosition, client: str, search: HintSearch
    ) -> None:
        self.table = table
        self.seat = seat
        self.position = position
        self.client = client
        self.search = search
        self.waiters: list[Callable[[], Awaitable[bool]]] = []  # each: has its client gone?
        self.future: asyncio.Future[tuple[ActionEstimate, ...]] = (
            asyncio.get_running_loop().create_future()
        )
        # An error nobody waits for any more is not logged as "never retrieved".
        self.future.add_done_callback(lambda done: done.cancelled() or done.exception())
        self.searching = False  # its turn came (it no longer waits)
        self.task: asyncio.Task[None] | None = None


class HintQueue:
    """The hint searches of a server, one at a time, in turns per client and table.

    :meth:`hint` answers a seat's hint: the table's last hint if it is for that seat and
    move, else a search, queued in the turns of a :class:`FairShares` of one slot. Each
    seat has one search at most: a request at the same move joins it; at another move
    (the seat moved since) the waiting one is dropped for the new one, and one being
    searched refuses the new one with 429. When a search's turn comes, it is dropped if
    every request waiting for it has gone (its client disconnected) or the table has
    moved on; only then is it searched.

    Args:
        max_waiting: The most searches waiting in all (:data:`HINT_QUEUE`).
        max_waiting_per_client: The most searches of one client waiting
            (:data:`HINT_QUEUE_PER_CLIENT`).

    Raises:
        ValueError: If a bound is not a positive integer.

    Attributes:
        max_waiting: As given.
        max_waiting_per_client: As given.
        shares: The turns of the searches (one at a time).
        searched: How many searches ran.
        dropped: How many searches were dropped before they ran (their requests had gone
            or their table had moved on).
    """

    def __init__(
        self,
        max_waiting: int = HINT_QUEUE,
        max_waiting_per_client: int = HINT_QUEUE_PER_CLIENT,
    ) -> None:
        for name, value in (
            ("max_waiting", max_waiting),
            ("max_waiting_per_client", max_waiting_per_client),
        ):
            if type(value) is not int or value < 1:
                raise ValueError(f"{name}: expected a positive integer, got {value!r}")
        self.max_waiting = max_waiting
        self.max_waiting_per_client = max_waiting_per_client
        self.shares = FairShares(1)
        self.searched = 0
        self.dropped = 0
        self._jobs: dict[tuple[str, int], _Job] = {}  # (table id, seat) -> its search
        self._waiting: dict[str, int] = {}  # client -> its searches waiting for their turn
        self._tasks: set[asyncio.Task[None]] = set()
        self._seconds = 1.0  # a search's time, as last measured (a moving average)

    async def hint(
        self,
        table: HintTable,
        seat: int,
        position: HintPosition,
        search: HintSearch,
        *,
        client: str,
        gone: Callable[[], Awaitable[bool]],
    ) -> tuple[ActionEstimate, ...]:
        """The best moves for ``seat`` at ``position``: the table's last hint, or a search.

        Args:
            table: The table.
            seat: The seat asking, to act at ``position``.
            position: What the hint is computed from
                (:meth:`Table.hint_position <cuckoo_rules.web.table.Table.hint_position>`).
            search: The search, from the view and knowledge to the best moves.
            client: The client asking (the key the server's limits count by).
            gone: Whether the request's client has gone (``request.is_disconnected``).

        Returns:
            The search's result, which is also kept as the table's ``hint``.

        Raises:
            TooManyRequests: If the searches waiting are at their bound, in all or for
                ``client``, or the seat's search of another move is running (with
                ``retry_after``).
            Conflict: If the table moved on before the search's turn came.
        """
        cached = table.hint
        if cached is not None and cached[0] == (seat, position.move):
            return cached[1]
        job = self._jobs.get((table.id, seat))
        if job is not None and job.position.move != position.move:
            if job.searching:
                raise TooManyRequests(
                    f"your seat's hint for move {job.position.move} is being searched; ask "
                    "again when it is done",
                    retry_after=self._retry_after(1),
                )
            self._moved_on(job, position.move)
            job = None
        if job is None:
            self._check_room(client)
            job = self._start(table, seat, position, client, search)
        job.waiters.append(gone)
        try:
            return await asyncio.shield(job.future)
        except asyncio.CancelledError:
            job.waiters.remove(gone)
            if not job.waiters and not job.searching:  # nobody waits for it any more
                self._cancel(job)
            raise

    def close(self) -> None:
        """Cancel every search waiting or running (at shut-down)."""
        for task in list(self._tasks):
            task.cancel()

    # ----------------------------------------------------------------- the searches

    def _check_room(self, client: str) -> None:
        """Refuse a new search beyond the bounds of the searches waiting (429)."""
        waiting = sum(self._waiting.values())
        if waiting >= self.max_waiting:
            raise TooManyRequests(
                f"this server has {waiting} hints waiting to be searched, its limit; try "
                "again in a moment",
                retry_after=self._retry_after(len(self._waiting)),
            )
        if self._waiting.get(client, 0) >= self.max_waiting_per_client:
            raise TooManyRequests(
                f"you have {self.max_waiting_per_client} hints waiting to be searched, the "
                "limit per client; try again when one is answered",
                retry_after=self._retry_after(len(self._waiting)),
            )

    def _retry_after(self, searches: int) -> int:
        """Whole seconds for about ``searches`` searches, from 1 to a minute."""
        return max(1, min(_RETRY_MOST, math.ceil(self._seconds * searches)))

    def _start(
        self, table: HintTable, seat: int, position: HintPosition, client: str, search: HintSearch
    ) -> _Job:
        job = _Job(table, seat, position, client, search)
        self._jobs[table.id, seat] = job
        self._waiting[client] = self._waiting.get(client, 0) + 1
        task = asyncio.get_running_loop().create_task(self._run(job))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        job.task = task
        return job

    def _stop_waiting(self, job: _Job) -> None:
        """``job`` no longer waits for its turn (it is searched, dropped or cancelled)."""
        if job.searching:
            return
        job.searching = True
        left = self._waiting[job.client] - 1
        if left:
            self._waiting[job.client] = left
        else:
            del self._waiting[job.client]

    def _end(self, job: _Job, error: BaseException | None = None) -> None:
        """Take ``job`` out of the queue; its requests get ``error`` if it is given."""
        self._stop_waiting(job)
        key = (job.table.id, job.seat)
        if self._jobs.get(key) is job:
            del self._jobs[key]
        if error is not None and not job.future.done():
            job.future.set_exception(error)

    def _moved_on(self, job: _Job, move: int) -> None:
        """Drop ``job`` (waiting): its seat asks again at ``move``, later in the game."""
        self._end(job, _moved_on(job, move))
        self.dropped += 1
        if job.task is not None:
            job.task.cancel()

    def _cancel(self, job: _Job) -> None:
        """Drop ``job`` (waiting): every request for it was cancelled."""
        self._end(job)
        job.future.cancel()
        if job.task is not None:
            job.task.cancel()

    async def _run(self, job: _Job) -> None:
        """Wait for ``job``'s turn, then search, unless nobody wants the answer any more."""
        try:
            async with self.shares.turn(job.client, job.table.id):
                if job.future.done():  # dropped meanwhile
                    return
                self._stop_waiting(job)
                if not await self._wanted(job):
                    self.dropped += 1
                    gone = ServiceUnavailable(
                        "the hint was not searched: its client had gone", retry_after=1
                    )
                    self._end(job, gone)
                    return
                table, position = job.table, job.position
                if table.move != position.move or not table.is_open:
                    self.dropped += 1
                    self._end(job, _moved_on(job, table.move))
                    return
                started = time.monotonic()
                found = tuple(
                    await run_in_threadpool(job.search, position.view, position.knowledge)
                )
                self._seconds = (self._seconds + (time.monotonic() - started)) / 2
                self.searched += 1
                table.hint = ((job.seat, position.move), found)
                self._end(job)
                if not job.future.done():
                    job.future.set_result(found)
        except asyncio.CancelledError:
            self._end(job)
            job.future.cancel()
            raise
        except Exception as error:  # the search failed: its requests get the error
            self._end(job, error)

    async def _wanted(self, job: _Job) -> bool:
        """Whether a request waiting for ``job`` is still there (its client connected)."""
        asked = list(job.waiters)
        for gone in asked:
            if not await gone():
                return True
        return any(waiter not in asked for waiter in job.waiters)  # one came meanwhile


def _moved_on(job: _Job, move: int) -> Conflict:
    return Conflict(
        f"the table moved on (it is at move {move}): this hint, for move "
        f"{job.position.move}, was not searched",
        move=move,
    )
