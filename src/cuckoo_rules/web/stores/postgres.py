"""The PostgreSQL store: every table in one database, for several server processes.

:class:`PostgresStore` implements :class:`~cuckoo_rules.web.stores.base.Store` with
psycopg 3 (the ``postgres`` extra: ``pip install 'cuckoo-rules[postgres]'``) and a pool
of connections (:class:`psycopg_pool.ConnectionPool`), so the threads of a server use it
at once and several server processes, on one machine or several behind a load balancer,
share one database (:attr:`PostgresStore.shared` is ``True``). ``cuckoo-rules serve --db
postgresql://user@host/db`` opens one (:func:`~cuckoo_rules.web.stores.open_store`). The
tables are those of the SQLite file, created or upgraded when the store opens the
database (:mod:`cuckoo_rules.web.stores.postgres_schema`).

Moves: :meth:`PostgresStore.add_action` stores move ``N`` of a table in one transaction
that first locks the table's row (``SELECT ... FOR UPDATE``), then counts the table's
stored actions: ``N`` must be that count. The lock serializes the writers of one table
across every process (writers of different tables do not wait for each other), so the
count cannot change before the commit: a move stored already gives
:class:`~cuckoo_rules.web.errors.MoveTaken` and a move that would leave a gap is refused,
and nothing is stored in either case. The primary key ``(table_id, idx)`` makes a second
copy of a move impossible even for a writer that would not take the lock. In the same
transaction, ``NOTIFY cuckoo_moves, '<table_id>:<index>'`` tells every listening process
(:meth:`PostgresStore.listen`) that the move is stored; PostgreSQL delivers it at the
commit, and only if the transaction commits.

Failures: a server that cannot be reached, that shuts down or restarts, that is
read-only (a hot standby, ``default_transaction_read_only``) or whose disk is full gives
:class:`~cuckoo_rules.web.errors.StorageUnavailable` and the transaction is rolled back,
so nothing is stored. The pool checks each connection before lending it and replaces a
broken one, so the store recovers by itself once the server is back: the next call
succeeds. One case is in doubt: if the connection is lost while the server commits, the
write may have been stored; writing it again then gives ``MoveTaken`` (or
``StorageError`` for a table), and the server catches up by reading the actions.

Seats: a claim, a join, an invitation's exchange, a hand-over and a rematch
(:meth:`PostgresStore.claim_seat`, :meth:`~PostgresStore.join_seat`,
:meth:`~PostgresStore.exchange_invitation`, :meth:`~PostgresStore.hand_over`,
:meth:`~PostgresStore.add_rematch`) each lock the table's row too, change it only if the
seat is still free with that invitation (held by that token, for a hand-over; the
rematch only if there is none yet), and send ``NOTIFY cuckoo_moves, '<table_id>:seats'``,
which the listeners report as the index
:data:`~cuckoo_rules.web.stores.base.SEATS_CHANGED`. The notification only keeps the
other processes' copies in memory fresh: a process checks a token against the row
itself (:meth:`~PostgresStore.seats`) before it answers, so an exchange or a hand-over
holds in every process at once.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from ...actions import Action
from ...codec import encode_action
from ...errors import needs_extra
from ..errors import MoveTaken, StorageError, StorageUnavailable
from .base import (
    LOBBY_LIMIT,
    LobbyEntry,
    SeatState,
    Status,
    Store,
    StoredTable,
    TableSetup,
)
from .rows import (
    SEAT_COLUMNS,
    TABLE_COLUMNS,
    check_move_index,
    claimed_column,
    claimed_text,
    decode_actions,
    decode_seat_state,
    decode_table,
    decode_tables,
    exchange_columns,
    hand_over_columns,
    invitations_text,
    join_columns,
    lobby_entries,
    rematch_seats,
    setup_row,
)

try:
    import psycopg
    from psycopg import errors as pg_errors
    from psycopg.conninfo import conninfo_to_dict
    from psycopg_pool import ConnectionPool, PoolClosed, PoolTimeout
except ModuleNotFoundError as error:
    raise needs_extra(__name__, "postgres", error) from error

from .postgres_listen import CHANNEL, Listener
from .postgres_schema import prepare

__all__ = ["PostgresStore"]

# SQLSTATEs that are not OperationalErrors but mean "not now" all the same.
_UNAVAILABLE_STATES = frozenset({"25006"})  # read_only_sql_transaction

# Why the database cannot take a write, by SQLSTATE (for the messages).
_REASONS = {
    "25006": "the database is read-only",
    "53100": "the database server's disk is full",
    "53200": "the database server is out of memory",
    "53300": "the database server has too many connections",
    "57P01": "the database server is shutting down",
    "57P02": "the database server crashed",
    "57P03": "the database server is starting up or shutting down",
}


def _unavailable(error: psycopg.Error) -> bool:
    """Whether ``error`` means the database cannot serve now (worth a retry later)."""
    if isinstance(error, PoolClosed):
        return False  # the store was closed: a bug of the caller, not an outage
    return isinstance(error, psycopg.OperationalError) or error.sqlstate in _UNAVAILABLE_STATES


def _describe(conninfo: str) -> str:
    """The database of a connection string, for messages: never its password."""
    try:
        params = conninfo_to_dict(conninfo)
    except psycopg.ProgrammingError:
        return "PostgreSQL database"
    host = str(params.get("host") or "localhost")
    port = f":{params['port']}" if params.get("port") else ""
    user = f"{params['user']}@" if params.get("user") else ""
    return f"postgresql://{user}{host}{port}/{params.get('dbname') or ''}"


class PostgresStore(Store):
    """Every table in one PostgreSQL database, shared by any number of server processes.

    Opening the store creates the tables if missing. Calls from several threads run at
    once, each on a connection of the pool; every method commits before it returns.
    Any `libpq parameter <https://www.postgresql.org/docs/current/libpq-connect.html>`_
    may be given in the URL (``sslmode``, ``options``...); ``connect_timeout`` defaults
    to ``timeout`` and ``application_name`` to ``cuckoo-rules``, and ``lock_timeout``
    is ``timeout`` too: a call that waits longer for a lock (the row of a table that a
    stuck transaction holds) raises :class:`~cuckoo_rules.web.errors.StorageUnavailable`.
    Every method raises it, a read too, when the server cannot be reached; a write then
    stores nothing.

    Args:
        url: A ``postgresql://`` URL (or a libpq ``key=value`` connection string).
        min_size: Connections the pool keeps open.
        max_size: The most connections the pool opens (calls beyond it wait).
        timeout: Seconds a call waits for a working connection, or for a lock, before
            it raises :class:`~cuckoo_rules.web.errors.StorageUnavailable`.
        reconnect_timeout: Seconds the pool keeps retrying one lost connection before it
            gives that attempt up (a later call starts a new one).

    Raises:
        StorageUnavailable: If the server cannot be reached (or is read-only and the
            tables are missing).
        StorageError: If ``url`` is not a connection URL, or the database has a newer
            schema version or a ``tables`` table this module did not create.
    """

    shared = True

    def __init__(
        self,
        url: str,
        *,
        min_size: int = 1,
        max_size: int = 10,
        timeout: float = 5.0,
        reconnect_timeout: float = 10.0,
    ) -> None:
        self.where = _describe(url)
        """The database, as a URL without the password (for messages)."""
        try:
            given = conninfo_to_dict(url)
        except psycopg.ProgrammingError:  # its message may quote the password
            raise StorageError(
                "not a valid PostgreSQL connection URL (postgresql://user@host:port/database"
                "?param=value, see libpq's connection strings)"
            ) from None
        self._url = url
        self._kwargs: dict[str, Any] = {"autocommit": True}
        if "connect_timeout" not in given:
            self._kwargs["connect_timeout"] = max(1, round(timeout))
        if "application_name" not in given:
            self._kwargs["application_name"] = "cuckoo-rules"
        # A lock held by a stuck transaction (another process lost on the network)
        # fails a call after ``timeout`` instead of blocking it; the URL's own options
        # come after, so they win.
        lock_timeout = f"-c lock_timeout={max(1, round(timeout * 1000))}"
        self._kwargs["options"] = f"{lock_timeout} {given.get('options', '')}".strip()
        self._listeners: list[Listener] = []
        self._listeners_lock = threading.Lock()
        self._closed = False
        try:
            # One direct connection first: a server that cannot be reached fails here
            # at once, with libpq's own message.
            with psycopg.connect(url, **self._kwargs) as conn:
                prepare(conn, self.where)
        except psycopg.Error as error:
            if _unavailable(error):
                raise self._unavailable_error(error) from error
            raise
        self._pool: ConnectionPool[psycopg.Connection[tuple[Any, ...]]] = ConnectionPool(
            url,
            kwargs=self._kwargs,
            min_size=min_size,
            max_size=max(min_size, max_size),
            timeout=timeout,
            reconnect_timeout=reconnect_timeout,
            check=ConnectionPool.check_connection,
            name="cuckoo-rules",
            open=True,
        )

    def _unavailable_error(self, error: psycopg.Error) -> StorageUnavailable:
        if isinstance(error, PoolTimeout):
            reason = f"no working connection to the server ({error}): is it running?"
        else:
            state = error.sqlstate or ""
            text = " ".join(str(error).split()) or type(error).__name__
            reason = f"{_REASONS[state]}: {text}" if state in _REASONS else text
        return StorageUnavailable(
            f"{self.where} cannot be used now ({reason}); nothing was stored: try again later"
        )

    @contextlib.contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[tuple[Any, ...]]]:
        """A connection of the pool; the database's "not now" errors as StorageUnavailable.

        A connection that gave such an error is closed, so the pool replaces it (a
        connection opened while the database was read-only stays read-only).
        """
        try:
            with self._pool.connection() as conn:
                try:
                    yield conn
                except psycopg.Error as error:
                    if _unavailable(error) and not conn.closed:
                        conn.close()
                    raise
        except psycopg.Error as error:
            if _unavailable(error):
                raise self._unavailable_error(error) from error
            raise

    def close(self) -> None:
        """Stop the listeners (:meth:`listen`) and close the pool's connections."""
        with self._listeners_lock:
            listeners, self._listeners = self._listeners, []
            self._closed = True
        for listener in listeners:
            listener.stop()
        self._pool.close()

    def add_table(self, setup: TableSetup, updated: float, claimed: Sequence[int] = ()) -> None:
        """As :meth:`Store.add_table`."""
        with self._connection() as conn:
            self._insert(conn, setup, updated, claimed)

    @staticmethod
    def _insert(
        conn: psycopg.Connection[tuple[Any, ...]],
        setup: TableSetup,
        updated: float,
        claimed: Sequence[int],
    ) -> None:
        try:
            conn.execute(
                f"INSERT INTO tables ({TABLE_COLUMNS}, created) VALUES "
                "(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, 'open', %s, %s, NULL, %s, "
                "to_timestamp(%s))",
                (
                    *setup_row(setup),
                    updated,
                    claimed_text(claimed),
                    invitations_text(setup),
                    updated,
                ),
            )
        except pg_errors.UniqueViolation as error:
            raise StorageError(f"table {setup.id!r} is stored already ({error})") from None

    @staticmethod
    def _locked_seats(conn: psycopg.Connection[tuple[Any, ...]], table_id: str) -> tuple[Any, ...]:
        """Lock a table's row; its columns ``SEAT_COLUMNS``."""
        row = conn.execute(
            f"SELECT {SEAT_COLUMNS} FROM tables WHERE id = %s FOR UPDATE", (table_id,)
        ).fetchone()
        if row is None:
            raise StorageError(f"no table {table_id!r}")
        return tuple(row)

    def claim_seat(self, table_id: str, seat: int) -> bool:
        """As :meth:`Store.claim_seat`, and notify the listeners (``<table_id>:seats``)."""
        with self._connection() as conn, conn.transaction():
            claimed = claimed_column(self._locked_seats(conn, table_id), seat)
            if claimed is None:
                return False
            conn.execute("UPDATE tables SET claimed = %s WHERE id = %s", (claimed, table_id))
            conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{table_id}:seats"))
            return True

    def join_seat(self, table_id: str, seat: int, token_hash: str, name: str) -> bool:
        """As :meth:`Store.join_seat`, and notify the listeners (``<table_id>:seats``)."""
        with self._connection() as conn, conn.transaction():
            row = join_columns(self._locked_seats(conn, table_id), seat, token_hash, name)
            if row is None:
                return False
            self._set_seats(conn, table_id, row)
            return True

    @staticmethod
    def _set_seats(
        conn: psycopg.Connection[tuple[Any, ...]], table_id: str, row: tuple[str, str, str, str]
    ) -> None:
        """Write the seat columns of a join or an exchange and notify, in the transaction."""
        conn.execute(
            "UPDATE tables SET token_hashes = %s, names = %s, claimed = %s, invitations = %s "
            "WHERE id = %s",
            (*row, table_id),
        )
        conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{table_id}:seats"))

    def exchange_invitation(
        self, table_id: str, invitation_hash: str, token_hash: str, name: str | None
    ) -> int | None:
        """As :meth:`Store.exchange_invitation`, and notify the listeners."""
        with self._connection() as conn, conn.transaction():
            row = self._locked_seats(conn, table_id)
            found = exchange_columns(row, invitation_hash, token_hash, name)
            if found is None:
                return None
            seat, columns = found
            self._set_seats(conn, table_id, columns)
            return seat

    def hand_over(self, table_id: str, seat: int, token_hash: str, invitation_hash: str) -> bool:
        """As :meth:`Store.hand_over`, and notify the listeners (``<table_id>:seats``)."""
        with self._connection() as conn, conn.transaction():
            row = self._locked_seats(conn, table_id)
            columns = hand_over_columns(row, seat, token_hash, invitation_hash)
            if columns is None:
                return False
            conn.execute(
                "UPDATE tables SET token_hashes = %s, claimed = %s, invitations = %s WHERE id = %s",
                (*columns, table_id),
            )
            conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{table_id}:seats"))
            return True

    def add_rematch(
        self, table_id: str, setup: TableSetup, updated: float, claimed: Sequence[int] = ()
    ) -> str:
        """As :meth:`Store.add_rematch`, and notify the listeners (``<table_id>:seats``)."""
        with self._connection() as conn, conn.transaction():
            row = self._locked_seats(conn, table_id)
            if row[4] is not None:
                return str(row[4])
            self._insert(conn, setup, updated, claimed)
            # The seats as stored now, whatever the caller's copy says.
            conn.execute(
                "UPDATE tables SET token_hashes = %s, names = %s, claimed = %s, "
                "invitations = %s WHERE id = %s",
                (*rematch_seats(row), setup.id),
            )
            conn.execute("UPDATE tables SET rematch = %s WHERE id = %s", (setup.id, table_id))
            conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{table_id}:seats"))
            return setup.id

    def seats(self, table_id: str) -> SeatState | None:
        """As :meth:`Store.seats`."""
        rows = self._read(f"SELECT {SEAT_COLUMNS} FROM tables WHERE id = %s", (table_id,))
        return None if not rows else decode_seat_state(table_id, rows[0])

    def lobby(self, limit: int = LOBBY_LIMIT) -> list[LobbyEntry]:
        """As :meth:`Store.lobby`."""
        rows = self._read(
            f"SELECT {TABLE_COLUMNS}, created FROM tables WHERE lobby AND status = 'open' "
            "ORDER BY created DESC, id"
        )
        return lobby_entries(rows, limit)

    def add_action(
        self, table_id: str, index: int, action: Action, updated: float, note: str | None = None
    ) -> None:
        """As :meth:`Store.add_action`, and notify the listeners.

        One transaction locks the table's row (``SELECT ... FOR UPDATE``, so the writers
        of one table, in every process, take turns), checks that ``index`` is the number
        of actions stored, inserts the action, sets the table's ``updated`` and sends
        ``NOTIFY cuckoo_moves, '<table_id>:<index>'`` (delivered at the commit).
        """
        with self._connection() as conn, conn.transaction():
            self._locked_seats(conn, table_id)
            row = conn.execute(
                "SELECT count(*) FROM actions WHERE table_id = %s", (table_id,)
            ).fetchone()
            assert row is not None
            check_move_index(table_id, index, int(row[0]))
            try:
                conn.execute(
                    "INSERT INTO actions VALUES (%s, %s, %s, %s)",
                    (table_id, index, json.dumps(encode_action(action)), note),
                )
            except pg_errors.UniqueViolation:  # only a writer that skipped the lock
                raise MoveTaken(f"table {table_id!r}: move {index} is stored already") from None
            conn.execute("UPDATE tables SET updated = %s WHERE id = %s", (updated, table_id))
            conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{table_id}:{index}"))

    def set_status(self, table_id: str, status: Status) -> None:
        """As :meth:`Store.set_status`."""
        with self._connection() as conn:
            conn.execute("UPDATE tables SET status = %s WHERE id = %s", (status, table_id))

    def _read(self, sql: str, row: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        with self._connection() as conn:
            return conn.execute(sql, row).fetchall()

    def table(self, table_id: str) -> StoredTable | None:
        """As :meth:`Store.table`, read in one snapshot."""
        with self._connection() as conn, conn.transaction():
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            row = conn.execute(
                f"SELECT {TABLE_COLUMNS} FROM tables WHERE id = %s", (table_id,)
            ).fetchone()
            if row is None:
                return None
            actions = conn.execute(
                "SELECT idx, action, note FROM actions WHERE table_id = %s ORDER BY idx",
                (table_id,),
            ).fetchall()
        return decode_table(row, actions)

    def tables(self, status: Status | None = None) -> list[StoredTable]:
        """As :meth:`Store.tables`, read in one snapshot."""
        where, args = ("", ()) if status is None else (" WHERE status = %s", (status,))
        with self._connection() as conn, conn.transaction():
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            rows = conn.execute(
                f"SELECT {TABLE_COLUMNS} FROM tables{where} ORDER BY created, id", args
            ).fetchall()
            stored = conn.execute(
                "SELECT a.table_id, a.idx, a.action, a.note FROM actions a "
                f"JOIN tables ON tables.id = a.table_id{where} ORDER BY 1, 2",
                args,
            ).fetchall()
        return decode_tables(rows, stored)

    def actions(self, table_id: str, start: int) -> list[tuple[Action, str | None]]:
        """As :meth:`Store.actions`."""
        rows = self._read(
            "SELECT idx, action, note FROM actions WHERE table_id = %s AND idx >= %s ORDER BY idx",
            (table_id, start),
        )
        return list(decode_actions(rows, start))

    def count_open(self, client: str | None = None) -> int:
        """As :meth:`Store.count_open`."""
        if client is None:
            rows = self._read("SELECT count(*) FROM tables WHERE status = 'open'")
        else:
            rows = self._read(
                "SELECT count(*) FROM tables WHERE status = 'open' AND client = %s", (client,)
            )
        return int(rows[0][0])

    def idle_tables(self, before: float) -> list[str]:
        """As :meth:`Store.idle_tables`."""
        rows = self._read(
            "SELECT id FROM tables WHERE status = 'open' AND updated < %s ORDER BY updated, id",
            (before,),
        )
        return [str(row[0]) for row in rows]

    def review(self, table_id: str) -> tuple[int, str] | None:
        """As :meth:`Store.review` (none if the database could not make the table)."""
        try:
            rows = self._read(
                "SELECT simulations, document FROM reviews WHERE table_id = %s", (table_id,)
            )
        except pg_errors.UndefinedTable:
            return None
        if not rows:
            return None
        simulations, document = rows[0]
        return int(simulations), str(document)

    def add_review(self, table_id: str, simulations: int, document: str) -> None:
        """As :meth:`Store.add_review` (dropped if the database could not make the table)."""
        with contextlib.suppress(pg_errors.UndefinedTable), self._connection() as conn:
            conn.execute(
                "INSERT INTO reviews VALUES (%s, %s, %s, %s) ON CONFLICT (table_id) DO NOTHING",
                (table_id, simulations, document, time.time()),
            )

    def listen(
        self,
        callback: Callable[[str, int], None],
        *,
        on_reconnect: Callable[[], None] | None = None,
    ) -> Callable[[], None]:
        """Call ``callback(table_id, index)`` for every move stored, by any process.

        A daemon thread with a connection of its own runs ``LISTEN cuckoo_moves`` and
        calls ``callback`` (in that thread) for each notification that
        :meth:`add_action` sends, this process's included, in the order of the commits;
        ``index`` is :data:`~cuckoo_rules.web.stores.base.SEATS_CHANGED` for a change of
        a table's seats (a claim, a join or a rematch). An exception of ``callback`` is
        logged and the thread goes on. If the connection is lost, the thread reconnects
        (waiting up to 5 seconds between attempts) and then calls ``on_reconnect``: the
        moves stored meanwhile were not notified, so it should catch up (read
        :meth:`actions`). When this method returns, the thread listens already: every
        move committed afterwards is notified.

        Args:
            callback: Called with the table id and the move number of each stored move.
            on_reconnect: Called (in the thread) after each reconnection.

        Returns:
            A function that stops the thread (and waits for it); :meth:`close` stops it
            too. Calling it twice does nothing.

        Raises:
            StorageUnavailable: If the first connection fails (no thread is left running).
            StorageError: If the store is closed.
        """
        listener = Listener(self._url, self._kwargs, callback, on_reconnect)
        try:
            listener.start()
        except psycopg.Error as error:
            if _unavailable(error):
                raise self._unavailable_error(error) from error
            raise
        with self._listeners_lock:
            closed = self._closed
            if not closed:
                self._listeners.append(listener)
        if closed:
            listener.stop()
            raise StorageError(f"{self.where}: the store is closed")

        def stop() -> None:
            with self._listeners_lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)
            listener.stop()

        return stop
