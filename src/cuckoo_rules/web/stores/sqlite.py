"""The SQLite store: every table of a server in one file, the embedded default.

:class:`SQLiteStore` implements :class:`~cuckoo_rules.web.stores.base.Store` on one file
(:func:`~cuckoo_rules.web.stores.open_store` opens it for a path). The file is opened in
WAL mode with ``synchronous=FULL``: every commit is written to the write-ahead log and
synced to the disk before it returns, so a committed action survives a crash of the
process (``kill -9``) and also of the machine (power loss). One server at a time may use
a file: :class:`SQLiteStore` holds an exclusive ``flock`` on it while open, and a second
server is refused at start (:class:`~cuckoo_rules.web.errors.StoreInUse`), since its
tables in memory would go stale. A disk that is full or read-only gives
:class:`~cuckoo_rules.web.errors.StorageUnavailable` (the web layer answers 503 with
``Retry-After``); nothing is stored then, and the next write tries again. The schema
(``PRAGMA user_version = 5``)::

    CREATE TABLE tables (
        id TEXT PRIMARY KEY,         -- the table id (unguessable)
        options TEXT NOT NULL,       -- JSON options object (format version 2), all keys
        seed TEXT NOT NULL,          -- the game seed, in decimal (may exceed 2**63)
        seats TEXT NOT NULL,         -- JSON array: "human" or a bot spec per seat
        bot_seed TEXT NOT NULL,      -- in decimal; each bot decision's seed derives from it
        token_hashes TEXT NOT NULL,  -- JSON array: SHA-256 hex of the token holding each
                                     -- human seat (null: a bot, or a free seat)
        created TEXT NOT NULL,       -- ISO 8601, UTC
        salt TEXT,                   -- hex; the deal commitment's salt (NULL: made before 3)
        seed_source TEXT NOT NULL DEFAULT 'server',  -- 'server' or 'request'
        names TEXT NOT NULL DEFAULT '[]',            -- JSON array: each seat's given name
        client TEXT NOT NULL DEFAULT '',  -- the address that created the table
        status TEXT NOT NULL DEFAULT 'open',  -- 'open', 'over' or 'expired'
        updated REAL NOT NULL DEFAULT 0,  -- Unix time of the last action (or the creation)
        lobby INTEGER NOT NULL DEFAULT 0,   -- 1: its free seats are listed in the lobby
        claimed TEXT NOT NULL DEFAULT '[]', -- JSON array: the human seats held, ascending
        rematch TEXT,                       -- the id of the table of its rematch, or NULL
        invitations TEXT NOT NULL DEFAULT '[]'  -- JSON array: SHA-256 hex of each free
                                            -- seat's invitation (null: none), or []
    );
    CREATE TABLE actions (
        table_id TEXT NOT NULL REFERENCES tables (id),
        idx INTEGER NOT NULL,        -- the index of the action in the game, from 0
        action TEXT NOT NULL,        -- JSON action document
        note TEXT,                   -- why a bot's move was played by a stand-in, or NULL
        PRIMARY KEY (table_id, idx)
    ) WITHOUT ROWID;
    CREATE TABLE reviews (               -- created when missing, in a file of any version
        table_id TEXT PRIMARY KEY REFERENCES tables (id),
        simulations INTEGER NOT NULL,    -- the budget of the review
        document TEXT NOT NULL,          -- the review's JSON document (cuckoo-rules/review)
        created REAL NOT NULL            -- Unix time
    ) WITHOUT ROWID;

Versions: a file of ``user_version`` 1, written by cuckoo-rules 0.1, holds options objects
of format version 1 (no ``refill_trigger``). Opening a file of an older version upgrades it
in place, in one transaction, step by step: a file of version 1 has every ``options`` read
as version 1 and written back as version 2 (the same options, ``refill_trigger``
``"capture"`` added); a file of version 2 gets the columns of version 3, with the defaults
above (its tables have no salt, so no deal commitment, and are all ``open`` until the
server replays them and finds which are over; their idle time counts from the upgrade);
a file of version 3 gets the columns of version 4 (its tables are not in the lobby, have
no rematch, and every human seat counts as claimed, as its tokens were all handed out);
a file of version 4 gets the column of version 5, ``invitations``: a human seat nobody
claimed had a token that only the creator and the friend it was sent to knew, and that
token becomes the seat's invitation (its hash moves from ``token_hashes`` to
``invitations``): the link still leads to the seat, once, and no longer reads or plays
it (:func:`~cuckoo_rules.web.stores.rows.upgrade_invitations`). A claimed seat keeps its
token. If a row does not decode, nothing is changed and the file is refused. Tables and actions
are otherwise the same, so every table replays to the same states; but an older
cuckoo-rules refuses the upgraded file, as this version refuses a file of a newer
``user_version``. Every JSON text of the file is read as strictly as text from outside: a
damaged file gives a :class:`~cuckoo_rules.web.errors.StorageError` naming the table, never a crash.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from typing import IO

from ...actions import Action
from ...codec import decode_options, encode_action
from ...errors import DecodeError
from ...jsontext import loads
from ..errors import MoveTaken, StorageError, StorageUnavailable, StoreInUse
from .base import LOBBY_LIMIT, LobbyEntry, SeatState, Status, Store, StoredTable, TableSetup
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
    upgrade_claims,
    upgrade_invitations,
)

__all__ = ["SCHEMA_VERSION", "SQLiteStore"]

SCHEMA_VERSION = 5
"""The ``user_version`` of the database files this module writes; files of versions 1 to
4 are upgraded when opened (see the module's description)."""

_TABLES = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    options TEXT NOT NULL,
    seed TEXT NOT NULL,
    seats TEXT NOT NULL,
    bot_seed TEXT NOT NULL,
    token_hashes TEXT NOT NULL,
    created TEXT NOT NULL{columns}
);
"""

# The columns of version 3, as added to a file of version 2.
_V3_COLUMNS = (
    "salt TEXT",
    "seed_source TEXT NOT NULL DEFAULT 'server'",
    "names TEXT NOT NULL DEFAULT '[]'",
    "client TEXT NOT NULL DEFAULT ''",
    "status TEXT NOT NULL DEFAULT 'open'",
    "updated REAL NOT NULL DEFAULT 0",
)

# The columns of version 4, as added to a file of version 3.
_V4_COLUMNS = (
    "lobby INTEGER NOT NULL DEFAULT 0",
    "claimed TEXT NOT NULL DEFAULT '[]'",
    "rematch TEXT",
)

# The column of version 5, as added to a file of version 4.
_V5_COLUMNS = ("invitations TEXT NOT NULL DEFAULT '[]'",)

# The reviews of finished games (:meth:`SQLiteStore.review`): a table of its own, created
# when missing in a file of any version (the version does not change for it, and a server
# of an older version ignores it).
_REVIEWS = """
CREATE TABLE IF NOT EXISTS reviews (
    table_id TEXT PRIMARY KEY REFERENCES tables (id),
    simulations INTEGER NOT NULL,
    document TEXT NOT NULL,
    created REAL NOT NULL
) WITHOUT ROWID;
"""

_SCHEMA = (
    _TABLES.format(
        columns="".join(f",\n    {c}" for c in (*_V3_COLUMNS, *_V4_COLUMNS, *_V5_COLUMNS))
    )
    + """
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables (id),
    idx INTEGER NOT NULL,
    action TEXT NOT NULL,
    note TEXT,
    PRIMARY KEY (table_id, idx)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS tables_status ON tables (status, client);
CREATE INDEX IF NOT EXISTS tables_lobby ON tables (lobby, status);
"""
    + _REVIEWS
)


# What SQLite says when the disk cannot take a write (the store answers 503 then).
_UNAVAILABLE = ("full", "readonly", "read-only", "disk i/o", "unable to open", "locked")


def _unavailable(error: sqlite3.Error) -> bool:
    message = str(error).lower()
    return isinstance(error, sqlite3.OperationalError) and any(m in message for m in _UNAVAILABLE)


class SQLiteStore(Store):
    """One SQLite file holding every table, used by one server at a time.

    One connection is shared and guarded by a lock, so calls are serialized.

    Args:
        path: The database file (created if missing), or ``":memory:"``.

    Raises:
        StoreInUse: If another server (another :class:`SQLiteStore`) has the file open.
        StorageError: If the file was written by a newer version of this module, or it
            is of version 1 and a table's options do not decode (the file is unchanged).
        sqlite3.Error: If the file cannot be opened or is not a database.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        self._lock = threading.Lock()
        self._flock = _hold(self.path)
        try:
            self._db = sqlite3.connect(self.path, timeout=10.0, check_same_thread=False)
        except BaseException:
            _release(self._flock)
            raise
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            (version,) = self._db.execute("PRAGMA user_version").fetchone()
            if version > SCHEMA_VERSION:
                raise StorageError(
                    f"{self.path}: database schema version {version} is newer than this "
                    f"version of cuckoo-rules reads ({SCHEMA_VERSION})"
                )
            if version in (1, 2, 3, 4):
                self._upgrade(version)
            with self._db:
                self._db.executescript(_SCHEMA)
                self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except BaseException:
            self._db.close()
            _release(self._flock)
            raise

    def _upgrade(self, version: int) -> None:
        """Bring a file of version 1 to 4 to the current version, in one transaction."""
        db = self._db
        db.execute("BEGIN IMMEDIATE")  # no other writer until the commit
        try:
            if version == 1:
                rows = db.execute("SELECT id, options FROM tables").fetchall()
                for table_id, text in rows:
                    try:
                        options = decode_options(loads(str(text)), version=1)
                    except DecodeError as error:
                        raise StorageError(
                            f"{self.path}: table {table_id!r}: {error} (the file is left as "
                            "it was, at schema version 1)"
                        ) from None
                    db.execute(
                        "UPDATE tables SET options = ? WHERE id = ?",
                        (json.dumps(options.to_json()), table_id),
                    )
            if version <= 2:
                for column in _V3_COLUMNS:
                    db.execute(f"ALTER TABLE tables ADD COLUMN {column}")
                db.execute("ALTER TABLE actions ADD COLUMN note TEXT")
                # Idle time counts from the upgrade: the file kept no time of the last move.
                db.execute("UPDATE tables SET updated = ?", (time.time(),))
            left = f"the file is left as it was, at schema version {version}"
            if version <= 3:
                for column in _V4_COLUMNS:
                    db.execute(f"ALTER TABLE tables ADD COLUMN {column}")
                claims = upgrade_claims(
                    db.execute("SELECT id, seats FROM tables").fetchall(), self.path, left
                )
                db.executemany("UPDATE tables SET claimed = ? WHERE id = ?", claims)
            for column in _V5_COLUMNS:
                db.execute(f"ALTER TABLE tables ADD COLUMN {column}")
            invitations = upgrade_invitations(
                db.execute("SELECT id, seats, token_hashes, claimed FROM tables").fetchall(),
                self.path,
                left,
            )
            db.executemany(
                "UPDATE tables SET token_hashes = ?, invitations = ? WHERE id = ?", invitations
            )
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            db.commit()
        except BaseException:
            db.rollback()
            raise

    def close(self) -> None:
        """As :meth:`Store.close`."""
        with self._lock:
            self._db.close()
            _release(self._flock)
            self._flock = None

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        """One transaction, committed at the end; a full or read-only disk is reported."""
        with self._lock:
            try:
                with self._db:
                    yield
            except sqlite3.OperationalError as error:
                if _unavailable(error):
                    raise StorageUnavailable(
                        f"the database cannot take the write now ({error}); nothing was "
                        "stored: try again later"
                    ) from error
                raise

    def _write(self, sql: str, row: Sequence[object]) -> None:
        """Run one statement that writes, and commit it."""
        with self._transaction():
            self._db.execute(sql, row)

    def add_table(self, setup: TableSetup, updated: float, claimed: Sequence[int] = ()) -> None:
        """As :meth:`Store.add_table`."""
        with self._transaction():
            self._insert(setup, updated, claimed)

    def _insert(self, setup: TableSetup, updated: float, claimed: Sequence[int]) -> None:
        """Insert a table's row, in the transaction of the caller."""
        try:
            self._db.execute(
                f"INSERT INTO tables ({TABLE_COLUMNS}, created) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?, NULL, ?, ?)",
                (
                    *setup_row(setup),
                    updated,
                    claimed_text(claimed),
                    invitations_text(setup),
                    _iso(updated),
                ),
            )
        except sqlite3.IntegrityError as error:
            raise StorageError(f"table {setup.id!r} is stored already ({error})") from None

    def _seat_row(self, table_id: str) -> tuple[object, ...]:
        """The columns ``SEAT_COLUMNS`` of a table, in the caller's transaction."""
        row = self._db.execute(
            f"SELECT {SEAT_COLUMNS} FROM tables WHERE id = ?", (table_id,)
        ).fetchone()
        if row is None:
            raise StorageError(f"no table {table_id!r}")
        return tuple(row)

    def claim_seat(self, table_id: str, seat: int) -> bool:
        """As :meth:`Store.claim_seat`."""
        with self._transaction():
            claimed = claimed_column(self._seat_row(table_id), seat)
            if claimed is None:
                return False
            self._db.execute("UPDATE tables SET claimed = ? WHERE id = ?", (claimed, table_id))
            return True

    def join_seat(self, table_id: str, seat: int, token_hash: str, name: str) -> bool:
        """As :meth:`Store.join_seat`."""
        with self._transaction():
            row = join_columns(self._seat_row(table_id), seat, token_hash, name)
            if row is None:
                return False
            self._set_seats(table_id, row)
            return True

    def _set_seats(self, table_id: str, row: tuple[str, str, str, str]) -> None:
        """Write the seat columns of a join or an exchange, in the caller's transaction."""
        self._db.execute(
            "UPDATE tables SET token_hashes = ?, names = ?, claimed = ?, invitations = ? "
            "WHERE id = ?",
            (*row, table_id),
        )

    def exchange_invitation(
        self, table_id: str, invitation_hash: str, token_hash: str, name: str | None
    ) -> int | None:
        """As :meth:`Store.exchange_invitation`."""
        with self._transaction():
            found = exchange_columns(self._seat_row(table_id), invitation_hash, token_hash, name)
            if found is None:
                return None
            seat, row = found
            self._set_seats(table_id, row)
            return seat

    def hand_over(self, table_id: str, seat: int, token_hash: str, invitation_hash: str) -> bool:
        """As :meth:`Store.hand_over`."""
        with self._transaction():
            row = hand_over_columns(self._seat_row(table_id), seat, token_hash, invitation_hash)
            if row is None:
                return False
            self._db.execute(
                "UPDATE tables SET token_hashes = ?, claimed = ?, invitations = ? WHERE id = ?",
                (*row, table_id),
            )
            return True

    def add_rematch(
        self, table_id: str, setup: TableSetup, updated: float, claimed: Sequence[int] = ()
    ) -> str:
        """As :meth:`Store.add_rematch`."""
        with self._transaction():
            row = self._seat_row(table_id)
            if row[4] is not None:
                return str(row[4])
            self._insert(setup, updated, claimed)
            # The seats as stored now, whatever the caller's copy says.
            self._db.execute(
                "UPDATE tables SET token_hashes = ?, names = ?, claimed = ?, invitations = ? "
                "WHERE id = ?",
                (*rematch_seats(row), setup.id),
            )
            self._db.execute("UPDATE tables SET rematch = ? WHERE id = ?", (setup.id, table_id))
            return setup.id

    def seats(self, table_id: str) -> SeatState | None:
        """As :meth:`Store.seats`."""
        rows = self._read(f"SELECT {SEAT_COLUMNS} FROM tables WHERE id = ?", (table_id,))
        return None if not rows else decode_seat_state(table_id, rows[0])

    def lobby(self, limit: int = LOBBY_LIMIT) -> list[LobbyEntry]:
        """As :meth:`Store.lobby`."""
        rows = self._read(
            f"SELECT {TABLE_COLUMNS}, created FROM tables WHERE lobby = 1 AND status = 'open' "
            "ORDER BY created DESC, rowid DESC"
        )
        return lobby_entries(rows, limit)

    def add_action(
        self, table_id: str, index: int, action: Action, updated: float, note: str | None = None
    ) -> None:
        """As :meth:`Store.add_action`."""
        try:
            with self._transaction():
                (stored,) = self._db.execute(
                    "SELECT count(*) FROM actions WHERE table_id = ?", (table_id,)
                ).fetchone()
                check_move_index(table_id, index, stored)
                self._db.execute(
                    "INSERT INTO actions VALUES (?, ?, ?, ?)",
                    (table_id, index, json.dumps(encode_action(action)), note),
                )
                self._db.execute("UPDATE tables SET updated = ? WHERE id = ?", (updated, table_id))
        except sqlite3.IntegrityError as error:
            if "UNIQUE" in str(error) or "PRIMARY KEY" in str(error):
                raise MoveTaken(f"table {table_id!r}: move {index} is stored already") from None
            raise StorageError(f"no table {table_id!r} ({error})") from None

    def set_status(self, table_id: str, status: Status) -> None:
        """As :meth:`Store.set_status`."""
        self._write("UPDATE tables SET status = ? WHERE id = ?", (status, table_id))

    def _read(self, sql: str, row: Sequence[object] = ()) -> list[tuple[object, ...]]:
        with self._lock:
            return self._db.execute(sql, row).fetchall()

    def table(self, table_id: str) -> StoredTable | None:
        """As :meth:`Store.table`."""
        rows = self._read(f"SELECT {TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,))
        if not rows:
            return None
        actions = self._read(
            "SELECT idx, action, note FROM actions WHERE table_id = ? ORDER BY idx", (table_id,)
        )
        return decode_table(rows[0], actions)

    def tables(self, status: Status | None = None) -> list[StoredTable]:
        """As :meth:`Store.tables`."""
        where, args = ("", ()) if status is None else (" WHERE status = ?", (status,))
        rows = self._read(f"SELECT {TABLE_COLUMNS} FROM tables{where} ORDER BY created, id", args)
        actions = self._read("SELECT table_id, idx, action, note FROM actions ORDER BY 1, 2")
        return decode_tables(rows, actions)

    def actions(self, table_id: str, start: int) -> list[tuple[Action, str | None]]:
        """As :meth:`Store.actions`."""
        rows = self._read(
            "SELECT idx, action, note FROM actions WHERE table_id = ? AND idx >= ? ORDER BY idx",
            (table_id, start),
        )
        return list(decode_actions(rows, start))

    def count_open(self, client: str | None = None) -> int:
        """As :meth:`Store.count_open`."""
        if client is None:
            rows = self._read("SELECT count(*) FROM tables WHERE status = 'open'")
        else:
            rows = self._read(
                "SELECT count(*) FROM tables WHERE status = 'open' AND client = ?", (client,)
            )
        return int(str(rows[0][0]))

    def idle_tables(self, before: float) -> list[str]:
        """As :meth:`Store.idle_tables`."""
        rows = self._read(
            "SELECT id FROM tables WHERE status = 'open' AND updated < ? ORDER BY updated",
            (before,),
        )
        return [str(row[0]) for row in rows]

    def review(self, table_id: str) -> tuple[int, str] | None:
        """As :meth:`Store.review`."""
        rows = self._read(
            "SELECT simulations, document FROM reviews WHERE table_id = ?", (table_id,)
        )
        if not rows:
            return None
        simulations, document = rows[0]
        return int(str(simulations)), str(document)

    def add_review(self, table_id: str, simulations: int, document: str) -> None:
        """As :meth:`Store.add_review`."""
        self._write(
            "INSERT OR IGNORE INTO reviews VALUES (?, ?, ?, ?)",
            (table_id, simulations, document, time.time()),
        )

    def limit_pages(self, pages: int | None) -> None:
        """Cap the file at ``pages`` pages (``None``: SQLite's default): a full disk, for tests.

        A write that needs more pages fails as on a full disk (``SQLITE_FULL``), which
        this store reports as :class:`StorageUnavailable`.
        """
        with self._lock:
            count = 1073741823 if pages is None else max(pages, 1)
            self._db.execute(f"PRAGMA max_page_count = {int(count)}")


def _hold(path: str) -> IO[bytes] | None:
    """Take the one-server lock of a SQLite file (an exclusive ``flock``), if it has one.

    Raises:
        StoreInUse: If another store holds it.
    """
    if path == ":memory:" or path.startswith("file:") or not path:
        return None
    try:
        import fcntl
    except ImportError:  # not on POSIX: no lock (the file is not shared there)
        return None
    handle = open(path, "ab")  # noqa: SIM115 (held open while the store is)
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise StoreInUse(
            f"{path}: another cuckoo-rules server is using this database; one server at "
            "a time may use a SQLite file (stop the other one, or use PostgreSQL for "
            "several server processes: --db postgresql://...)"
        ) from None
    return handle


def _release(handle: IO[bytes] | None) -> None:
    if handle is not None:
        handle.close()  # closing the file releases the flock


def _iso(when: float) -> str:
    return datetime.datetime.fromtimestamp(when, datetime.UTC).isoformat(timespec="seconds")
