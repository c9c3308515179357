"""The lobby of the web server: every table, in memory or in the store, and their limits.

A :class:`Lobby` owns the store (:mod:`cuckoo_rules.web.stores`) and every
:class:`~cuckoo_rules.web.table.Table` in memory. It creates tables
(:meth:`Lobby.create`: the seed drawn by the server unless one human seat gave one, a
secret salt so that the deal has a commitment, the creator's token and an invitation
for each other human seat) and their rematch (:meth:`Lobby.rematch`: a finished game
may have one, with the same seats, holders, invitations, names and options and a new
deal), and lists the tables whose free seats anyone
may join (:meth:`Lobby.lobby`). :meth:`Lobby.open` rebuilds the open tables from the
store when the server starts.

Fair deals: a table with two or more human seats is always dealt from a seed the server
draws (:func:`~cuckoo_rules.web.parsing.parse_new_table` refuses a seed there).

Memory: a lobby keeps the open tables in memory and only a few finished or expired ones
(the most recently read); the others are read back from the store when asked for. It
refuses a new table beyond its limits (:class:`~cuckoo_rules.web.errors.TooManyRequests`):
open tables in all and per client, and tables created a minute, per client and in all.
Tables with no move for a while expire (:meth:`Lobby.expire_idle`): within minutes a
table where no human has moved yet, within a week one being played. A client is a
network (:func:`~cuckoo_rules.web.guard.client_key`), not an address.

Threads: a lobby is used at once by the server's event loop and its worker threads (a
table read from the store, a table created, a rematch, the expiry run in threads). Its
tables in memory change under one lock, held only for a step of bookkeeping, never
while the store is read; a table is read from the store once at a time however many
requests ask for it (the others wait for that read and share its table), and a
rematch stored meanwhile reaches the table kept.
"""

from __future__ import annotations

import contextlib
import math
import os
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

import attrs

from ..errors import short_repr as _describe
from ..events import DeclinedDraw, DeclinedFlock, Drew, FlewHome, Laid
from ..fairness import new_salt
from ..rng import SEED_LIMIT
from .errors import Conflict, NotFound, ServiceUnavailable, StorageUnavailable, TooManyRequests
from .guard import TokenBuckets
from .parsing import NewTable
from .seats import hash_token
from .stores import open_store
from .stores.base import HUMAN, LOBBY_LIMIT, LobbyEntry, Store, TableSetup
from .table import Table

__all__ = [
    "EXPIRE_AFTER",
    "EXPIRE_UNPLAYED",
    "FINISHED_KEPT",
    "MAX_OPEN_TABLES",
    "MAX_OPEN_TABLES_PER_CLIENT",
    "TABLES_PER_MINUTE",
    "TABLES_PER_MINUTE_TOTAL",
    "Lobby",
]

MAX_OPEN_TABLES = 1000
"""The most open tables a server holds, in all (more are refused with 429)."""

MAX_OPEN_TABLES_PER_CLIENT = 20
"""The most open tables one client (:func:`~cuckoo_rules.web.guard.client_key`) may have
created (more are refused with 429)."""

EXPIRE_AFTER = 7 * 24 * 3600.0
"""Seconds without a move after which an open table expires (a week)."""

EXPIRE_UNPLAYED = 15 * 60.0
"""Seconds without a move after which an open table where no human seat has moved yet
expires (15 minutes): tables created and left cannot fill the server for a week."""

TABLES_PER_MINUTE = 20
"""The tables one client may create a minute, and at once (more are refused with 429).
Counted by each server process."""

TABLES_PER_MINUTE_TOTAL = 200
"""The tables all clients together may create a minute, and at once (more get 429).
Counted by each server process."""

_MOVES = (Laid, FlewHome, DeclinedFlock, Drew, DeclinedDraw)
"""The events of an action, each naming the seat that took it."""

FINISHED_KEPT = 32
"""The finished or expired tables a lobby keeps in memory (the most recently read)."""


class Lobby:
    """Every table of a server, with the store they are kept in.

    The open tables are in memory; finished and expired ones are read back from the
    store when asked for (one read of a table at a time, :meth:`get`), and the
    :data:`FINISHED_KEPT` most recently read stay in memory. Safe to use from several
    threads: the tables in memory change under one lock (an ``RLock``, never held while
    the store is read); :attr:`tables` may be copied (``list(lobby.tables.values())``,
    one step) but not iterated while other threads run.

    Args:
        store: The store; :meth:`open` builds it and loads the open tables.
        max_open: The most open tables in all (:data:`MAX_OPEN_TABLES`).
        max_open_per_client: The most open tables one client may have created.
        expire_after: Seconds without a move after which an open table expires.
        expire_unplayed: Seconds without a move after which an open table where no
            human seat has moved yet expires (at most ``expire_after``).
        tables_per_minute: The tables one client may create a minute (and at once).
        tables_per_minute_total: The tables all clients may create a minute.
        finished_kept: The finished or expired tables kept in memory.

    Raises:
        ValueError: If a limit is not a positive number.

    Attributes:
        store: The store.
        tables: The open tables in memory, by id.
        max_open: As given.
        max_open_per_client: As given.
        expire_after: As given.
        expire_unplayed: As given (or ``expire_after``, if that is shorter).
        creations: The token buckets of :meth:`create`, per client and in all.
    """

    def __init__(
        self,
        store: Store,
        *,
        max_open: int = MAX_OPEN_TABLES,
        max_open_per_client: int = MAX_OPEN_TABLES_PER_CLIENT,
        expire_after: float = EXPIRE_AFTER,
        expire_unplayed: float = EXPIRE_UNPLAYED,
        tables_per_minute: float = TABLES_PER_MINUTE,
        tables_per_minute_total: float = TABLES_PER_MINUTE_TOTAL,
        finished_kept: int = FINISHED_KEPT,
    ) -> None:
        for name, value in (
            ("max_open", max_open),
            ("max_open_per_client", max_open_per_client),
            ("finished_kept", finished_kept),
        ):
            if type(value) is not int or value < 1:
                raise ValueError(f"{name}: expected a positive integer, got {value!r}")
        for name, seconds in (("expire_after", expire_after), ("expire_unplayed", expire_unplayed)):
            if not isinstance(seconds, int | float) or not 0 < seconds < 1e10:
                raise ValueError(f"{name}: expected a positive number of seconds, got {seconds!r}")
        self.store = store
        self.tables: dict[str, Table] = {}
        self.max_open = max_open
        self.max_open_per_client = max_open_per_client
        self.expire_after = float(expire_after)
        self.expire_unplayed = float(min(expire_unplayed, expire_after))
        for name, rate in (
            ("tables_per_minute", tables_per_minute),
            ("tables_per_minute_total", tables_per_minute_total),
        ):
            if not isinstance(rate, int | float) or not 0 < rate < 1e9:
                raise ValueError(f"{name}: expected a positive number of tables, got {rate!r}")
        self.creations = TokenBuckets(tables_per_minute, tables_per_minute_total)
        self._played: set[str] = set()  # open tables where a human seat has moved
        self._finished: OrderedDict[str, Table] = OrderedDict()
        self._finished_kept = finished_kept
        # Guards tables, _finished and _loading: the server's threads all change them.
        self._lock = threading.RLock()
        self._loading: dict[str, _Loading] = {}  # the tables being read from the store

    @classmethod
    def open(cls, where: str | os.PathLike[str], **limits: Any) -> Lobby:
        """Open (or create) a store and rebuild every open table in it.

        Only the open tables are replayed; one found over is recorded as such and left
        in the store. Bots that were to act when the server stopped act when the web
        layer runs them (:meth:`Table.run_bots <cuckoo_rules.web.table.Table.run_bots>`).

        Args:
            where: A SQLite file or a PostgreSQL URL (:func:`~cuckoo_rules.web.stores.open_store`).
            **limits: The keyword arguments of :class:`Lobby`.

        Raises:
            StorageError: If the store holds a table that does not replay, or another
                server holds the SQLite file (:class:`~cuckoo_rules.web.errors.StoreInUse`).
            StorageUnavailable: If a PostgreSQL server cannot be reached.
            sqlite3.Error: If the file is not a usable database.
        """
        store = open_store(where)
        try:
            lobby = cls(store, **limits)
            for stored in store.tables("open"):
                table = Table.restore(stored, store)
                if table.match.is_over:
                    table.status = "over"
                    store.set_status(table.id, "over")
                else:
                    lobby.tables[table.id] = table
        except BaseException:
            store.close()
            raise
        return lobby

    def close(self) -> None:
        """Close the store."""
        self.store.close()

    def get(self, table_id: str) -> Table:
        """Return a table by id, reading it from the store if it is not in memory.

        One read of a table at a time: a request that asks for a table another one is
        reading waits for that read and gets the same table (and a rematch stored
        meanwhile, :meth:`rematch`), so every request sees one copy of it.

        Raises:
            NotFound: If there is no such table.
            StorageError: If the stored table does not replay.
        """
        with self._lock:
            table = self._in_memory(table_id)
            if table is not None:
                return table
            loading = self._loading.get(table_id)
            if loading is None:
                loading = self._loading[table_id] = _Loading()
                reader = True
            else:
                reader = False
        if not reader:
            loading.done.wait()
            if loading.table is not None:
                return loading.table
            return self.get(table_id)  # that read failed: read it again (or wait again)
        try:
            table = self._load(table_id)
        except BaseException:
            with self._lock:
                del self._loading[table_id]
            loading.done.set()
            raise
        with self._lock:
            del self._loading[table_id]
            if loading.rematch is not None and table.rematch is None:
                table.set_rematch(loading.rematch)  # stored while the table was read
            kept = self._in_memory(table_id)  # put there meanwhile (settled elsewhere)
            if kept is None:
                self.settle(table)
            else:
                table = kept
            loading.table = table
        loading.done.set()
        return table

    def _load(self, table_id: str) -> Table:
        """Read a table from the store and replay it (no lock held: it takes a while)."""
        # Ids are 12 characters; a longer one is no table, and is not looked up.
        stored = self.store.table(table_id) if len(table_id) <= 64 else None
        if stored is None:
            raise NotFound(f"no table {_describe(table_id)}")
        return Table.restore(stored, self.store)

    def _in_memory(self, table_id: str) -> Table | None:
        """The table if it is in memory, marked as read now; hold :attr:`_lock`."""
        table = self.tables.get(table_id)
        if table is None:
            table = self._finished.get(table_id)
            if table is not None:
                self._finished.move_to_end(table_id)
        return table

    def cached(self, table_id: str) -> Table | None:
        """The table if it is in memory (open, or among the finished kept), else ``None``.

        A finished table found counts as read now (it is kept the longer).
        """
        with self._lock:
            return self._in_memory(table_id)

    def settle(self, table: Table) -> None:
        """Keep ``table`` where its status says: open in memory, else among the last read.

        Safe from any thread: the tables in memory change under the lobby's lock.
        """
        with self._lock:
            if table.is_open:
                self.tables[table.id] = table
                return
            self.tables.pop(table.id, None)
            self._finished[table.id] = table
            self._finished.move_to_end(table.id)
            # The least recently read leave, unless a push stream watches them (it waits
            # for a rematch, which must reach the table it watches, not a copy read back
            # later); those are bounded by the streams' limits and their wait.
            excess = len(self._finished) - self._finished_kept
            if excess > 0:
                leaving = [key for key, kept in self._finished.items() if not kept.watched]
                for key in leaving[:excess]:
                    del self._finished[key]

    def expire_idle(self, now: float | None = None) -> list[str]:
        """Expire the open tables that have been idle too long.

        That is those with no move for :attr:`expire_after` seconds, and those where no
        human seat has moved yet with no move for :attr:`expire_unplayed` seconds. They
        are recorded as expired in the store and leave memory; they stay readable.
        (The second kind are the tables in memory: a table another server process
        created is its to expire, or expires with the first kind.)

        Args:
            now: The time (Unix time; now by default).

        Returns:
            The ids of the tables expired.
        """
        moment = time.time() if now is None else now
        expired = self.store.idle_tables(moment - self.expire_after)
        unplayed_since = moment - self.expire_unplayed
        expired += [
            table.id
            for table in list(self.tables.values())
            if table.updated < unplayed_since and table.is_open and not self._human_moved(table)
        ]
        expired = list(dict.fromkeys(expired))
        self._played.intersection_update(list(self.tables))
        for table_id in expired:
            self.store.set_status(table_id, "expired")
            table = self.tables.get(table_id)
            if table is not None:
                table.expire()
                self.settle(table)
        return expired

    def _human_moved(self, table: Table) -> bool:
        """Whether a human seat of ``table`` has taken an action (remembered once true)."""
        if table.id in self._played:
            return True
        humans = {seat for seat, kind in enumerate(table.setup.seats) if kind == HUMAN}
        moved = any(
            isinstance(event, _MOVES) and event.player in humans
            for event in table.match.events(None)
        )
        if moved:
            self._played.add(table.id)
        return moved

    def _check_rate(self, client: str) -> None:
        """Refuse a new table beyond the tables a minute (for ``client``, and in all).

        A table created with no client (from the library, not a request) is not counted.
        """
        if not client:
            return
        wait = self.creations.take(client)
        if wait > 0:
            raise TooManyRequests(
                f"too many tables created: at most {self.creations.per_client:g} a minute "
                f"per client and {self.creations.total:g} in all; try again in "
                f"{math.ceil(wait)} s",
                retry_after=math.ceil(wait),
            )

    def _check_limits(self, client: str) -> None:
        """Refuse a new table beyond the limits of open tables (in all, for ``client``)."""
        if self.store.count_open() >= self.max_open:
            raise TooManyRequests(
                f"this server has {self.max_open} open tables, its limit; try again later",
                retry_after=60,
            )
        if client and self.store.count_open(client) >= self.max_open_per_client:
            raise TooManyRequests(
                f"you have {self.max_open_per_client} open tables, the limit per client; "
                "finish one or try again later",
                retry_after=60,
            )

    def create(
        self, request: NewTable, client: str = ""
    ) -> tuple[Table, Mapping[int, str], Mapping[int, str]]:
        """Set up, store and start a table (its bots act when the web layer runs them).

        The seed is the request's, or else drawn here; every table gets a secret salt,
        so its deal has a commitment. The creator holds the first human seat (seat 0
        when it is human), with a token; every other human seat is free, with an
        invitation (:meth:`Table.exchange <cuckoo_rules.web.seats.TableSeats.exchange>`
        turns it into that seat's token, once): the creator never knows another seat's
        token.

        Args:
            request: The checked request.
            client: The client creating it (:func:`~cuckoo_rules.web.guard.client_key`),
                for the limits per client.

        Returns:
            The table, the creator's token by seat (one entry) and the invitation of
            each other human seat by seat (the only time they are known).

        Raises:
            TooManyRequests: If the server's open tables, or the client's, are at their
                limit, or the client (or everyone) created too many tables this minute.
            ServiceUnavailable: If the store cannot take the write now.
        """
        self._check_limits(client)
        self._check_rate(client)
        if request.seed is None:
            seed, source = secrets.randbelow(SEED_LIMIT), "server"
        else:
            seed, source = request.seed, "request"
        humans = [seat for seat, kind in enumerate(request.seats) if kind == HUMAN]
        tokens = {humans[0]: secrets.token_urlsafe(32)}
        invitations = {seat: secrets.token_urlsafe(32) for seat in humans[1:]}
        setup = TableSetup(
            id=secrets.token_urlsafe(9),
            options=request.options,
            seed=seed,
            seats=request.seats,
            bot_seed=secrets.randbelow(SEED_LIMIT),
            token_hashes=tuple(
                hash_token(tokens[seat]) if seat in tokens else None
                for seat in range(len(request.seats))
            ),
            salt=new_salt(),
            seed_source="server" if source == "server" else "request",
            names=request.names or ("",) * len(request.seats),
            client=client,
            lobby=request.lobby,
            invitation_hashes=tuple(
                hash_token(invitations[seat]) if seat in invitations else None
                for seat in range(len(request.seats))
            ),
        )
        claimed = (humans[0],)
        table = Table.start(setup, self.store, claimed)
        try:
            self.store.add_table(setup, table.updated, claimed)
        except StorageUnavailable as error:
            raise ServiceUnavailable(str(error), retry_after=error.retry_after) from None
        self.tables[table.id] = table
        return table, tokens, invitations

    def rematch(self, table: Table, client: str = "") -> tuple[Table, bool]:
        """Start the rematch of a finished game, once: the same seats, a new deal.

        The new table has the same seats, options, names and lobby flag, each human seat
        held by the token that holds it now (so every player's link works at the same
        seat of the new one, and nobody else's) and each free seat with its invitation
        (the same link invites to both tables), and a new seed drawn by the server with
        a new salt and bot seed. The seats are those the store holds when the rematch
        is stored, not an old copy in memory. A table has one rematch: asking again
        (from any seat, or another server process) gives the same one. Hold
        ``table``'s :attr:`~Table.lock`.

        Args:
            table: The finished table.
            client: The address of the client asking (for the per-client limit).

        Returns:
            The table of the rematch, and whether it was created now.

        Raises:
            Conflict: If the game is not over (or the table expired instead).
            TooManyRequests: If the open tables are at their limit.
            ServiceUnavailable: If the store cannot take the write now.
        """
        if table.rematch is not None:
            return self.get(table.rematch), False
        if table.status != "over":
            why = "the table expired" if table.status == "expired" else "the game is not over"
            raise Conflict(
                f"{why}: a rematch starts once the game is over (at move {table.move})",
                move=table.move,
            )
        self._check_limits(client)
        try:
            table.refresh_seats()  # who holds which seat now (another process may know)
        except StorageUnavailable as error:
            raise ServiceUnavailable(str(error), retry_after=error.retry_after) from None
        old = table.setup
        setup = attrs.evolve(
            old,
            id=secrets.token_urlsafe(9),
            seed=secrets.randbelow(SEED_LIMIT),
            bot_seed=secrets.randbelow(SEED_LIMIT),
            salt=new_salt(),
            seed_source="server",
            client=client,
        )
        new = Table.start(setup, self.store, table.claimed)
        try:
            stored = self.store.add_rematch(table.id, setup, new.updated, sorted(table.claimed))
        except StorageUnavailable as error:
            raise ServiceUnavailable(str(error), retry_after=error.retry_after) from None
        table.set_rematch(stored)
        self._rematched(table, stored)
        if stored != setup.id:  # another server process started it first
            return self.get(stored), False
        if self.store.shared:  # the seats the store copied, should they have changed
            with contextlib.suppress(StorageUnavailable):  # each request reads them too
                new.refresh_seats()
        with self._lock:
            self.tables[new.id] = new
        return new, True

    def _rematched(self, table: Table, rematch: str) -> None:
        """Tell every other copy of ``table`` of its rematch: in memory, or being read.

        A request may hold a copy that left memory meanwhile (the least recently read
        leave) while another reads the table again from the store, from before the
        rematch was stored: the copy kept must name the rematch all the same.
        """
        with self._lock:
            kept = self._in_memory(table.id)
            if kept is not None and kept is not table and kept.rematch is None:
                kept.set_rematch(rematch)
            loading = self._loading.get(table.id)
            if loading is not None:
                loading.rematch = rematch

    def lobby(self, limit: int = LOBBY_LIMIT) -> list[LobbyEntry]:
        """The open lobby tables with a free human seat, newest first.

        As :meth:`Store.lobby <cuckoo_rules.web.stores.base.Store.lobby>` lists them.
        """
        return self.store.lobby(limit)


class _Loading:
    """A table being read from the store, which the other requests for it wait for.

    Attributes:
        done: Set once the read is over, whether it gave a table or failed.
        table: The table read (``None`` until then, or if the read failed).
        rematch: The id of a rematch stored while the table was being read.
    """

    __slots__ = ("done", "rematch", "table")

    def __init__(self) -> None:
        self.done = threading.Event()
        self.table: Table | None = None
        self.rematch: str | None = None
