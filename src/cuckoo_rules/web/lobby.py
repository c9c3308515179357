"""The lobby of the web server: every table, in memory or in the store, and their limits.

A :class:`Lobby` owns the store (:mod:`cuckoo_rules.web.stores`) and every
:class:`~cuckoo_rules.web.table.Table` in memory. It creates tables
(:meth:`Lobby.create`: the seed drawn by the server unless one human seat gave one, a
secret salt so that the deal has a commitment, a token per human seat) and their
rematch (:meth:`Lobby.rematch`: a finished game may have one, with the same seats,
tokens, names and options and a new deal), and lists the tables whose free seats anyone
may join (:meth:`Lobby.lobby`). :meth:`Lobby.open` rebuilds the open tables from the
store when the server starts.

Fair deals: a table with two or more human seats is always dealt from a seed the server
draws (:func:`~cuckoo_rules.web.parsing.parse_new_table` refuses a seed there).

Memory: a lobby keeps the open tables in memory and only a few finished or expired ones
(the most recently read); the others are read back from the store when asked for. It
refuses a new table beyond its limits (:class:`~cuckoo_rules.web.errors.TooManyRequests`),
and tables with no move for a while expire (:meth:`Lobby.expire_idle`).
"""

from __future__ import annotations

import os
import secrets
import time
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

import attrs

from ..errors import short_repr as _describe
from ..fairness import new_salt
from ..rng import SEED_LIMIT
from .errors import Conflict, NotFound, ServiceUnavailable, StorageUnavailable, TooManyRequests
from .parsing import NewTable
from .seats import hash_token
from .stores import open_store
from .stores.base import HUMAN, LOBBY_LIMIT, LobbyEntry, Store, TableSetup
from .table import Table

__all__ = [
    "EXPIRE_AFTER",
    "FINISHED_KEPT",
    "MAX_OPEN_TABLES",
    "MAX_OPEN_TABLES_PER_CLIENT",
    "Lobby",
]

MAX_OPEN_TABLES = 1000
"""The most open tables a server holds, in all (more are refused with 429)."""

MAX_OPEN_TABLES_PER_CLIENT = 20
"""The most open tables one client address may have created (more are refused with 429)."""

EXPIRE_AFTER = 7 * 24 * 3600.0
"""Seconds without a move after which an open table expires (a week)."""

FINISHED_KEPT = 32
"""The finished or expired tables a lobby keeps in memory (the most recently read)."""


class Lobby:
    """Every table of a server, with the store they are kept in.

    The open tables are in memory; finished and expired ones are read back from the
    store when asked for, and the :data:`FINISHED_KEPT` most recently read stay in
    memory.

    Args:
        store: The store; :meth:`open` builds it and loads the open tables.
        max_open: The most open tables in all (:data:`MAX_OPEN_TABLES`).
        max_open_per_client: The most open tables one client address may have created.
        expire_after: Seconds without a move after which an open table expires.
        finished_kept: The finished or expired tables kept in memory.

    Raises:
        ValueError: If a limit is not a positive number.

    Attributes:
        store: The store.
        tables: The open tables in memory, by id.
        max_open: As given.
        max_open_per_client: As given.
        expire_after: As given.
    """

    def __init__(
        self,
        store: Store,
        *,
        max_open: int = MAX_OPEN_TABLES,
        max_open_per_client: int = MAX_OPEN_TABLES_PER_CLIENT,
        expire_after: float = EXPIRE_AFTER,
        finished_kept: int = FINISHED_KEPT,
    ) -> None:
        for name, value in (
            ("max_open", max_open),
            ("max_open_per_client", max_open_per_client),
            ("finished_kept", finished_kept),
        ):
            if type(value) is not int or value < 1:
                raise ValueError(f"{name}: expected a positive integer, got {value!r}")
        if not isinstance(expire_after, int | float) or not 0 < expire_after < 1e10:
            raise ValueError(
                f"expire_after: expected a positive number of seconds, got {expire_after!r}"
            )
        self.store = store
        self.tables: dict[str, Table] = {}
        self.max_open = max_open
        self.max_open_per_client = max_open_per_client
        self.expire_after = float(expire_after)
        self._finished: OrderedDict[str, Table] = OrderedDict()
        self._finished_kept = finished_kept

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

        Raises:
            NotFound: If there is no such table.
            StorageError: If the stored table does not replay.
        """
        table = self.tables.get(table_id)
        if table is not None:
            return table
        table = self._finished.get(table_id)
        if table is not None:
            self._finished.move_to_end(table_id)
            return table
        # Ids are 12 characters; a longer one is no table, and is not looked up.
        stored = self.store.table(table_id) if len(table_id) <= 64 else None
        if stored is None:
            raise NotFound(f"no table {_describe(table_id)}")
        table = Table.restore(stored, self.store)
        self.settle(table)
        return table

    def cached(self, table_id: str) -> Table | None:
        """The table if it is in memory (open, or among the finished kept), else ``None``."""
        table = self.tables.get(table_id)
        return self._finished.get(table_id) if table is None else table

    def settle(self, table: Table) -> None:
        """Keep ``table`` where its status says: open in memory, else among the last read."""
        if table.is_open:
            self.tables[table.id] = table
            return
        self.tables.pop(table.id, None)
        self._finished[table.id] = table
        self._finished.move_to_end(table.id)
        # The least recently read leave, unless a push stream watches them (it waits for
        # a rematch, which must reach the table it watches, not a copy read back later);
        # those are bounded by the streams' limits and their wait.
        excess = len(self._finished) - self._finished_kept
        if excess > 0:
            leaving = [key for key, kept in self._finished.items() if not kept.watched]
            for key in leaving[:excess]:
                del self._finished[key]

    def expire_idle(self, now: float | None = None) -> list[str]:
        """Expire the open tables with no move for :attr:`expire_after` seconds.

        They are recorded as expired in the store and leave memory; they stay readable.

        Args:
            now: The time (Unix time; now by default).

        Returns:
            The ids of the tables expired.
        """
        moment = time.time() if now is None else now
        expired = self.store.idle_tables(moment - self.expire_after)
        for table_id in expired:
            self.store.set_status(table_id, "expired")
            table = self.tables.get(table_id)
            if table is not None:
                table.expire()
                self.settle(table)
        return expired

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

    def create(self, request: NewTable, client: str = "") -> tuple[Table, Mapping[int, str]]:
        """Set up, store and start a table (its bots act when the web layer runs them).

        The seed is the request's, or else drawn here; every table gets a secret salt,
        so its deal has a commitment. The creator holds the first human seat (seat 0
        when it is human): it is claimed from the start.

        Args:
            request: The checked request.
            client: The address of the client creating it (for the per-client limit).

        Returns:
            The table and the token of each human seat (the only time they are known).

        Raises:
            TooManyRequests: If the server's open tables, or the client's, are at their
                limit.
            ServiceUnavailable: If the store cannot take the write now.
        """
        self._check_limits(client)
        if request.seed is None:
            seed, source = secrets.randbelow(SEED_LIMIT), "server"
        else:
            seed, source = request.seed, "request"
        tokens = {
            seat: secrets.token_urlsafe(32)
            for seat, kind in enumerate(request.seats)
            if kind == HUMAN
        }
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
        )
        claimed = (min(tokens),)
        table = Table.start(setup, self.store, claimed)
        try:
            self.store.add_table(setup, table.updated, claimed)
        except StorageUnavailable as error:
            raise ServiceUnavailable(str(error), retry_after=error.retry_after) from None
        self.tables[table.id] = table
        return table, tokens

    def rematch(self, table: Table, client: str = "") -> tuple[Table, bool]:
        """Start the rematch of a finished game, once: the same seats, a new deal.

        The new table has the same seats, options, names and lobby flag, the same token
        at each human seat (so every player's link works at the same seat of the new
        one), the same seats claimed, and a new seed drawn by the server with a new salt
        and bot seed. A table has one rematch: asking again (from any seat, or another
        server process) gives the same one. Hold ``table``'s :attr:`~Table.lock`.

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
        if stored != setup.id:  # another server process started it first
            return self.get(stored), False
        self.tables[new.id] = new
        return new, True

    def lobby(self, limit: int = LOBBY_LIMIT) -> list[LobbyEntry]:
        """The open lobby tables with a free human seat, newest first.

        As :meth:`Store.lobby <cuckoo_rules.web.stores.base.Store.lobby>` lists them.
        """
        return self.store.lobby(limit)
