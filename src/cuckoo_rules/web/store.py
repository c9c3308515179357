"""Storage of the web server's tables: every accepted action committed before it is answered.

A table is stored as what it takes to replay it: its setup (options, seed, salt, seats,
the bots' seed and the SHA-256 hashes of the seat tokens, never the tokens) in one row of
``tables``, and its actions in order, one row each in ``actions``. :meth:`Store.add_action`
commits each action in its own transaction before returning, so an action the server
has answered for is stored; the pair (table, move number) is unique, so two writers (two
threads, or two server processes on one PostgreSQL database) can never both store move
``N``: the second gets :class:`MoveTaken` and stores nothing. The row of a table also
keeps what changes between moves: the names the players gave, which human seats are
claimed (:meth:`Store.claim_seat`, :meth:`Store.join_seat`), whether the table is listed
in the lobby (:meth:`Store.lobby`) and the table of its rematch (:meth:`Store.add_rematch`).

:class:`Store` is the interface; :class:`SQLiteStore` (one file, the embedded default)
and :class:`cuckoo_rules.web.pgstore.PostgresStore` (PostgreSQL, for several server
processes) implement it, and :func:`open_store` picks one from a path or a
``postgresql://`` URL.

The SQLite file is opened in WAL mode with ``synchronous=FULL``: every commit is written to
the write-ahead log and synced to the disk before it returns, so a committed action
survives a crash of the process (``kill -9``) and also of the machine (power loss). One
server at a time may use a file: :class:`SQLiteStore` holds an exclusive ``flock`` on it
while open, and a second server is refused at start (:class:`StoreInUse`), since its
tables in memory would go stale. A disk that is full or read-only gives
:class:`StorageUnavailable` (the web layer answers 503 with ``Retry-After``); nothing is
stored then, and the next write tries again. The schema (``PRAGMA user_version = 4``)::

    CREATE TABLE tables (
        id TEXT PRIMARY KEY,         -- the table id (unguessable)
        options TEXT NOT NULL,       -- JSON options object (format version 2), all keys
        seed TEXT NOT NULL,          -- the game seed, in decimal (may exceed 2**63)
        seats TEXT NOT NULL,         -- JSON array: "human" or a bot spec per seat
        bot_seed TEXT NOT NULL,      -- in decimal; each bot decision's seed derives from it
        token_hashes TEXT NOT NULL,  -- JSON array: SHA-256 hex of each human seat's token
        created TEXT NOT NULL,       -- ISO 8601, UTC
        salt TEXT,                   -- hex; the deal commitment's salt (NULL: made before 3)
        seed_source TEXT NOT NULL DEFAULT 'server',  -- 'server' or 'request'
        names TEXT NOT NULL DEFAULT '[]',            -- JSON array: each seat's given name
        client TEXT NOT NULL DEFAULT '',  -- the address that created the table
        status TEXT NOT NULL DEFAULT 'open',  -- 'open', 'over' or 'expired'
        updated REAL NOT NULL DEFAULT 0,  -- Unix time of the last action (or the creation)
        lobby INTEGER NOT NULL DEFAULT 0,   -- 1: its free seats are listed in the lobby
        claimed TEXT NOT NULL DEFAULT '[]', -- JSON array: the human seats claimed, ascending
        rematch TEXT                        -- the id of the table of its rematch, or NULL
    );
    CREATE TABLE actions (
        table_id TEXT NOT NULL REFERENCES tables (id),
        idx INTEGER NOT NULL,        -- the index of the action in the game, from 0
        action TEXT NOT NULL,        -- JSON action document
        note TEXT,                   -- why a bot's move was played by a stand-in, or NULL
        PRIMARY KEY (table_id, idx)
    ) WITHOUT ROWID;

Versions: a file of ``user_version`` 1, written by cuckoo-rules 0.1, holds options objects
of format version 1 (no ``refill_trigger``). Opening a file of an older version upgrades it
in place, in one transaction, step by step: a file of version 1 has every ``options`` read
as version 1 and written back as version 2 (the same options, ``refill_trigger``
``"capture"`` added); a file of version 2 gets the columns of version 3, with the defaults
above (its tables have no salt, so no deal commitment, and are all ``open`` until the
server replays them and finds which are over; their idle time counts from the upgrade);
a file of version 3 gets the columns of version 4 (its tables are not in the lobby, have
no rematch, and every human seat counts as claimed, as its tokens were all handed out).
If a row does not decode, nothing is changed and the file is refused. Tables and actions
are otherwise the same, so every table replays to the same states; but an older
cuckoo-rules refuses the upgraded file, as this version refuses a file of a newer
``user_version``. Every JSON text of the file is read as strictly as text from outside: a
damaged file gives a :class:`StorageError` naming the table, never a crash.
"""

from __future__ import annotations

import abc
import contextlib
import datetime
import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from typing import IO, Literal

import attrs

from ..actions import Action
from ..codec import decode_action, decode_options, encode_action
from ..errors import CuckooError, DecodeError
from ..jsontext import loads
from ..options import GameOptions

__all__ = [
    "LOBBY_LIMIT",
    "SCHEMA_VERSION",
    "SEATS_CHANGED",
    "STATUSES",
    "LobbyEntry",
    "MoveTaken",
    "SQLiteStore",
    "SeatState",
    "SeedSource",
    "Status",
    "StorageError",
    "StorageUnavailable",
    "Store",
    "StoreInUse",
    "StoredTable",
    "TableSetup",
    "free_seats",
    "open_store",
]

SCHEMA_VERSION = 4
"""The ``user_version`` of the database files this module writes; files of versions 1 to
3 are upgraded when opened (see the module's description)."""

LOBBY_LIMIT = 50
"""The most tables :meth:`Store.lobby` lists."""

SEATS_CHANGED = -1
"""The move index a shared store's notification carries when a table's seats changed (a
claim, a join or a rematch) rather than a move
(:meth:`cuckoo_rules.web.pgstore.PostgresStore.listen`)."""

Status = Literal["open", "over", "expired"]
"""A table's status: being played, its game over, or given up (no move for too long)."""

STATUSES: tuple[Status, ...] = ("open", "over", "expired")
"""Every :data:`Status`."""

SeedSource = Literal["server", "request"]
"""Who chose a table's seed: the server (secret until the game is over) or the request
that created the table (allowed with one human seat only)."""

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

_SCHEMA = (
    _TABLES.format(columns="".join(f",\n    {c}" for c in (*_V3_COLUMNS, *_V4_COLUMNS)))
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
)

# The columns of a table row, in the order the stores select them.
TABLE_COLUMNS = (
    "id, options, seed, seats, bot_seed, token_hashes, salt, seed_source, names, client, "
    "lobby, status, updated, claimed, rematch"
)


class StorageError(CuckooError, ValueError):
    """The database cannot be used: a newer schema, or a row that does not decode.

    The message names the file or the table and field, for example ``"table 'x1':
    actions[3]: ..."``.
    """


class StoreInUse(StorageError):
    """Another server holds the SQLite file: one server at a time may use it."""


class StorageUnavailable(CuckooError, OSError):
    """The database cannot take a write now (a full or read-only disk, a lost server).

    Nothing was stored. It is worth trying again later: :attr:`retry_after` seconds is a
    good wait.
    """

    retry_after: int = 30
    """Seconds to wait before trying again (the web layer's ``Retry-After``)."""


class MoveTaken(CuckooError, ValueError):
    """The action of this move number is stored already (by another request or process).

    Nothing was stored.
    """


@attrs.frozen
class TableSetup:
    """How a table was set up: everything stored about it but its actions.

    A seat's token hash and name change when someone joins the table at that seat
    (:meth:`Store.join_seat`); the table then has a new setup with them replaced.

    Attributes:
        id: The table id.
        options: The game options.
        seed: The game seed (secret: it decides every shuffle).
        seats: Per seat, ``"human"`` or the bot spec playing it.
        bot_seed: The seed the bots' seeds derive from (secret).
        token_hashes: Per seat, the SHA-256 hex digest of its token, or ``None`` for a
            bot seat.
        salt: The deal commitment's secret salt, in hex (``None`` for a table stored
            before commitments existed).
        seed_source: Who chose the seed: ``"server"`` or ``"request"``.
        names: Per seat, the name its player gave (``""`` for none); empty for a table
            stored without names.
        client: The address of the client that created the table (for its limits).
        lobby: Whether the table's free human seats are listed in the lobby, for anyone
            to join (:meth:`Store.lobby`).
    """

    id: str
    options: GameOptions
    seed: int
    seats: tuple[str, ...]
    bot_seed: int
    token_hashes: tuple[str | None, ...]
    salt: str | None = None
    seed_source: SeedSource = "server"
    names: tuple[str, ...] = ()
    client: str = ""
    lobby: bool = False


@attrs.frozen
class StoredTable:
    """A table as read back from the database.

    Attributes:
        setup: Its setup.
        actions: Its actions in the order they were taken.
        notes: For the moves a stand-in played (a bot that failed, replaced), the move
            number and why.
        status: ``"open"``, ``"over"`` or ``"expired"``.
        updated: When its last action was stored (or it was created), as Unix time.
        claimed: The human seats claimed (their token used, or taken by a join), in
            ascending order.
        rematch: The id of the table of its rematch, or ``None``.
    """

    setup: TableSetup
    actions: tuple[Action, ...]
    notes: tuple[tuple[int, str], ...] = ()
    status: Status = "open"
    updated: float = 0.0
    claimed: tuple[int, ...] = ()
    rematch: str | None = None


@attrs.frozen
class SeatState:
    """What changes in a table's row between its moves: who holds which seat.

    Attributes:
        token_hashes: Per seat, the SHA-256 hex digest of its token (``None``: a bot).
        names: Per seat, the name its player gave (``""`` for none).
        claimed: The human seats claimed, in ascending order.
        rematch: The id of the table of its rematch, or ``None``.
    """

    token_hashes: tuple[str | None, ...]
    names: tuple[str, ...]
    claimed: tuple[int, ...]
    rematch: str | None


@attrs.frozen
class LobbyEntry:
    """An open table of the lobby, with at least one free human seat.

    Attributes:
        setup: Its setup (its current token hashes and names).
        claimed: The human seats claimed, in ascending order.
        created: When it was created, in ISO 8601 (UTC, to the second).
    """

    setup: TableSetup
    claimed: tuple[int, ...]
    created: str

    @property
    def free(self) -> tuple[int, ...]:
        """The human seats nobody has claimed yet (:func:`free_seats`)."""
        return free_seats(self.setup.seats, self.claimed)


def free_seats(seats: Sequence[str], claimed: Iterable[int]) -> tuple[int, ...]:
    """The human seats of ``seats`` that are not in ``claimed``, in ascending order.

    Example:
        >>> free_seats(["human", "greedy", "human", "human"], [0])
        (2, 3)
    """
    taken = set(claimed)
    return tuple(i for i, kind in enumerate(seats) if kind == "human" and i not in taken)


class Store(abc.ABC):
    """Where a server keeps its tables; safe to use from several threads.

    Every method commits before it returns. Methods that write raise
    :class:`StorageUnavailable` when the database cannot take the write; nothing is
    stored then.

    Attributes:
        shared: Whether other server processes may write to the same database (then a
            table in memory must catch up with :meth:`actions` before it is used).
    """

    shared: bool = False

    @abc.abstractmethod
    def close(self) -> None:
        """Close the database; the store cannot be used afterwards."""

    @abc.abstractmethod
    def add_table(self, setup: TableSetup, updated: float, claimed: Sequence[int] = ()) -> None:
        """Store a new table (no actions yet, status ``"open"``) and commit.

        Args:
            setup: The table's setup.
            updated: The time of its creation (Unix time).
            claimed: The human seats claimed from the start (the creator's).

        Raises:
            StorageError: If a table with this id exists.
            StorageUnavailable: If the database cannot take the write.
        """

    @abc.abstractmethod
    def claim_seat(self, table_id: str, seat: int) -> bool:
        """Record that a human seat is claimed (its token was used), and commit.

        Returns:
            Whether it was claimed now: ``False`` if it was already (nothing changed).

        Raises:
            StorageError: If there is no such table.
            StorageUnavailable: If the database cannot take the write.
        """

    @abc.abstractmethod
    def join_seat(self, table_id: str, seat: int, token_hash: str, name: str) -> bool:
        """Give a free human seat to someone new, and commit: claim it, replace its token.

        The seat's token hash becomes ``token_hash`` (its old token stops working) and
        its name ``name``, in one transaction, only if the seat is not claimed.

        Returns:
            Whether the seat was joined: ``False`` if it was claimed already (by its
            token or another join; nothing changed).

        Raises:
            StorageError: If there is no such table.
            StorageUnavailable: If the database cannot take the write.
        """

    @abc.abstractmethod
    def add_rematch(
        self, table_id: str, setup: TableSetup, updated: float, claimed: Sequence[int] = ()
    ) -> str:
        """Store the table of a rematch of ``table_id``, once, and commit.

        In one transaction: if ``table_id`` has a rematch already, nothing is stored and
        its id is returned; else the new table is stored (as :meth:`add_table`) and
        becomes the rematch of ``table_id``. Two requests (or processes) asking at once
        store one rematch.

        Returns:
            The id of the rematch: ``setup.id``, or the one stored before.

        Raises:
            StorageError: If there is no table ``table_id``, or one with the new id.
            StorageUnavailable: If the database cannot take the write.
        """

    @abc.abstractmethod
    def seats(self, table_id: str) -> SeatState | None:
        """Read who holds which seat of a table now; ``None`` if there is no such table.

        Raises:
            StorageError: If the row does not decode.
        """

    @abc.abstractmethod
    def lobby(self, limit: int = LOBBY_LIMIT) -> list[LobbyEntry]:
        """The open lobby tables with a free human seat, newest first, at most ``limit``.

        Raises:
            StorageError: If a row does not decode.
        """

    @abc.abstractmethod
    def add_action(
        self, table_id: str, index: int, action: Action, updated: float, note: str | None = None
    ) -> None:
        """Store the action of move ``index`` of a table and commit (synced to disk).

        Args:
            table_id: The table.
            index: The move number, from 0: the number of actions stored before it.
            action: The action.
            updated: The time of the move (Unix time), kept as the table's last activity.
            note: Why a stand-in played it (a bot that failed), or ``None``.

        Raises:
            MoveTaken: If the table has an action of this index already.
            StorageError: If there is no such table, or ``index`` would leave a gap (it
                is more than the number of actions stored).
            StorageUnavailable: If the database cannot take the write.
        """

    @abc.abstractmethod
    def set_status(self, table_id: str, status: Status) -> None:
        """Record that a table's game is over or that it expired, and commit.

        Raises:
            StorageUnavailable: If the database cannot take the write.
        """

    @abc.abstractmethod
    def table(self, table_id: str) -> StoredTable | None:
        """Read one table with its actions; ``None`` if there is no such table.

        Raises:
            StorageError: If a row does not decode (the message names the table).
        """

    @abc.abstractmethod
    def tables(self, status: Status | None = None) -> list[StoredTable]:
        """Read the tables of a status (every table for ``None``), in creation order.

        Raises:
            StorageError: If a row does not decode (the message names the table).
        """

    @abc.abstractmethod
    def actions(self, table_id: str, start: int) -> list[tuple[Action, str | None]]:
        """Read a table's actions from move ``start`` on, each with its note.

        Raises:
            StorageError: If a row does not decode.
        """

    @abc.abstractmethod
    def count_open(self, client: str | None = None) -> int:
        """The number of open tables, in all or created by ``client``."""

    @abc.abstractmethod
    def idle_tables(self, before: float) -> list[str]:
        """The ids of the open tables whose last activity was before ``before``."""


def open_store(where: str | os.PathLike[str]) -> Store:
    """Open the store at ``where``: a SQLite file, or a PostgreSQL URL.

    Args:
        where: A path (``":memory:"`` for a throwaway store), or a ``postgresql://`` (or
            ``postgres://``) connection URL, which needs psycopg 3 (the ``postgres``
            extra).

    Raises:
        StorageError: As the store's constructor raises.
        StorageUnavailable: If a PostgreSQL server cannot be reached.
    """
    text = os.fspath(where)
    if isinstance(text, str) and text.startswith(("postgresql://", "postgres://")):
        from .pgstore import PostgresStore

        return PostgresStore(text)
    return SQLiteStore(text)


# --------------------------------------------------------------------------- SQLite

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
            if version in (1, 2, 3):
                self._upgrade(version)
            with self._db:
                self._db.executescript(_SCHEMA)
                self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except BaseException:
            self._db.close()
            _release(self._flock)
            raise

    def _upgrade(self, version: int) -> None:
        """Bring a file of version 1, 2 or 3 to the current version, in one transaction."""
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
            for column in _V4_COLUMNS:
                db.execute(f"ALTER TABLE tables ADD COLUMN {column}")
            # Every token of an older table was handed out: its human seats are claimed.
            for table_id, seats in db.execute("SELECT id, seats FROM tables").fetchall():
                try:
                    claimed = human_seats(seats)
                except StorageError as error:
                    raise StorageError(
                        f"{self.path}: table {table_id!r}: {error} (the file is left as it "
                        f"was, at schema version {version})"
                    ) from None
                db.execute(
                    "UPDATE tables SET claimed = ? WHERE id = ?", (json.dumps(claimed), table_id)
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
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?, NULL, ?)",
                (*setup_row(setup), updated, claimed_text(claimed), _iso(updated)),
            )
        except sqlite3.IntegrityError as error:
            raise StorageError(f"table {setup.id!r} is stored already ({error})") from None

    def _seat_row(self, table_id: str) -> tuple[object, ...]:
        """The seats, token hashes, names and claims of a table, in a transaction."""
        row = self._db.execute(
            "SELECT seats, token_hashes, names, claimed FROM tables WHERE id = ?", (table_id,)
        ).fetchone()
        if row is None:
            raise StorageError(f"no table {table_id!r}")
        return tuple(row)

    def claim_seat(self, table_id: str, seat: int) -> bool:
        """As :meth:`Store.claim_seat`."""
        with self._transaction():
            seats, _, _, claimed = self._seat_row(table_id)
            taken = decode_claimed(claimed, decode_seats(seats))
            if seat in taken:
                return False
            self._db.execute(
                "UPDATE tables SET claimed = ? WHERE id = ?",
                (claimed_text((*taken, seat)), table_id),
            )
            return True

    def join_seat(self, table_id: str, seat: int, token_hash: str, name: str) -> bool:
        """As :meth:`Store.join_seat`."""
        with self._transaction():
            seats, hashes, names, claimed = self._seat_row(table_id)
            kinds = decode_seats(seats)
            taken = decode_claimed(claimed, kinds)
            if seat in taken:
                return False
            row = joined_row(kinds, hashes, names, taken, seat, token_hash, name)
            self._db.execute(
                "UPDATE tables SET token_hashes = ?, names = ?, claimed = ? WHERE id = ?",
                (*row, table_id),
            )
            return True

    def add_rematch(
        self, table_id: str, setup: TableSetup, updated: float, claimed: Sequence[int] = ()
    ) -> str:
        """As :meth:`Store.add_rematch`."""
        with self._transaction():
            row = self._db.execute(
                "SELECT rematch FROM tables WHERE id = ?", (table_id,)
            ).fetchone()
            if row is None:
                raise StorageError(f"no table {table_id!r}")
            if row[0] is not None:
                return str(row[0])
            self._insert(setup, updated, claimed)
            self._db.execute("UPDATE tables SET rematch = ? WHERE id = ?", (setup.id, table_id))
            return setup.id

    def seats(self, table_id: str) -> SeatState | None:
        """As :meth:`Store.seats`."""
        rows = self._read(
            "SELECT seats, token_hashes, names, claimed, rematch FROM tables WHERE id = ?",
            (table_id,),
        )
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
                if index > stored:
                    raise StorageError(
                        f"table {table_id!r}: move {index} cannot be stored: the table "
                        f"has {stored} actions, so the next is move {stored}"
                    )
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
        wanted = {row[0] for row in rows}
        actions: dict[object, list[tuple[object, ...]]] = {}
        for table_id, index, action, note in self._read(
            "SELECT table_id, idx, action, note FROM actions ORDER BY 1, 2"
        ):
            if table_id in wanted:
                actions.setdefault(table_id, []).append((index, action, note))
        return [decode_table(row, actions.get(row[0], [])) for row in rows]

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


# --------------------------------------------------------------------------- rows


def setup_row(setup: TableSetup) -> tuple[object, ...]:
    """The columns ``TABLE_COLUMNS`` of a table's setup, up to ``lobby`` (11 values)."""
    return (
        setup.id,
        json.dumps(setup.options.to_json()),
        str(setup.seed),
        json.dumps(list(setup.seats)),
        str(setup.bot_seed),
        json.dumps(list(setup.token_hashes)),
        setup.salt,
        setup.seed_source,
        json.dumps(list(setup.names)),
        setup.client,
        setup.lobby,
    )


def claimed_text(claimed: Iterable[int]) -> str:
    """The ``claimed`` column of a set of seats: a JSON array, ascending, no repeats."""
    return json.dumps(sorted(set(claimed)))


def decode_seats(text: object) -> tuple[str, ...]:
    """Decode the ``seats`` column: a JSON array of strings.

    Raises:
        StorageError: If it is not one.
    """
    try:
        seats = loads(str(text))
    except DecodeError as error:
        raise StorageError(f"seats: {error}") from None
    if not isinstance(seats, list) or not all(isinstance(kind, str) for kind in seats):
        raise StorageError(f"seats: expected an array of strings, got {str(text)[:40]!r}")
    return tuple(seats)


def human_seats(text: object) -> list[int]:
    """The human seats of a ``seats`` column (every one is claimed in an upgraded file).

    Raises:
        StorageError: If the column does not decode.
    """
    return [i for i, kind in enumerate(decode_seats(text)) if kind == "human"]


def decode_claimed(text: object, seats: Sequence[str]) -> tuple[int, ...]:
    """Decode the ``claimed`` column: human seats of ``seats``, ascending, no repeats.

    Raises:
        StorageError: If it is not such an array.
    """
    try:
        claimed = loads(str(text))
    except DecodeError as error:
        raise StorageError(f"claimed: {error}") from None
    if (
        not isinstance(claimed, list)
        or not all(type(seat) is int and 0 <= seat < len(seats) for seat in claimed)
        or claimed != sorted(set(claimed))
        or any(seats[seat] != "human" for seat in claimed)
    ):
        raise StorageError(
            f"claimed: expected the human seats claimed, ascending, got {str(text)[:40]!r}"
        )
    return tuple(claimed)


def _decode_list(text: object, column: str) -> list[object]:
    try:
        value = loads(str(text))
    except DecodeError as error:
        raise StorageError(f"{column}: {error}") from None
    if not isinstance(value, list):
        raise StorageError(f"{column}: expected an array, got {str(text)[:40]!r}")
    return value


def joined_row(
    seats: Sequence[str],
    hashes: object,
    names: object,
    claimed: Sequence[int],
    seat: int,
    token_hash: str,
    name: str,
) -> tuple[str, str, str]:
    """The ``token_hashes``, ``names`` and ``claimed`` columns after a join at ``seat``.

    Raises:
        StorageError: If a column does not decode, or ``seat`` is not a human seat.
    """
    if not 0 <= seat < len(seats) or seats[seat] != "human":
        raise StorageError(f"seat {seat} is not a human seat")
    token_hashes = _decode_list(hashes, "token_hashes")
    given = _decode_list(names, "names")
    given += [""] * (len(seats) - len(given))  # a table stored without names
    token_hashes[seat] = token_hash
    given[seat] = name
    return json.dumps(token_hashes), json.dumps(given), claimed_text((*claimed, seat))


def decode_seat_state(table_id: object, row: Sequence[object]) -> SeatState:
    """Decode ``(seats, token_hashes, names, claimed, rematch)`` columns.

    Raises:
        StorageError: If a field does not decode; the message names the table.
    """
    seats, hashes, names, claimed, rematch = row
    try:
        kinds = decode_seats(seats)
        return SeatState(
            tuple(loads(str(hashes))),
            tuple(loads(str(names))),
            decode_claimed(claimed, kinds),
            None if rematch is None else str(rematch),
        )
    except (ValueError, TypeError) as error:  # DecodeError and StorageError are ValueErrors
        raise StorageError(f"table {table_id!r}: {error}") from None


def lobby_entries(rows: Sequence[Sequence[object]], limit: int) -> list[LobbyEntry]:
    """The lobby's entries of rows of ``TABLE_COLUMNS`` and ``created``, newest first.

    Tables with no free seat are left out; at most ``limit`` are returned.

    Raises:
        StorageError: If a row does not decode.
    """
    entries: list[LobbyEntry] = []
    for row in rows:
        stored = decode_table(row[:-1], [])
        entry = LobbyEntry(stored.setup, stored.claimed, _created_text(row[-1]))
        if entry.free:
            entries.append(entry)
            if len(entries) >= limit:
                break
    return entries


def _created_text(created: object) -> str:
    """The ``created`` column as ISO 8601 text (PostgreSQL gives a datetime)."""
    if isinstance(created, datetime.datetime):
        when = created.astimezone(datetime.UTC).replace(microsecond=0)
        return when.isoformat()
    return str(created)


def decode_table(row: Sequence[object], actions: Sequence[Sequence[object]]) -> StoredTable:
    """Decode a row of ``TABLE_COLUMNS`` and its ``(idx, action, note)`` rows.

    Raises:
        StorageError: If a field does not decode; the message names the table.
    """
    (table_id, options, seed, seats, bot_seed, hashes, salt, source, names, client) = row[:10]
    lobby, status, updated, claimed, rematch = row[10:15]
    try:
        if source not in ("server", "request"):
            raise StorageError(f"seed_source: {source!r} is not 'server' or 'request'")
        if status not in STATUSES:
            raise StorageError(f"status: {status!r} is not one of {', '.join(STATUSES)}")
        if lobby not in (0, 1):  # SQLite's integers, PostgreSQL's booleans
            raise StorageError(f"lobby: {lobby!r} is not a boolean")
        kinds = decode_seats(seats)
        setup = TableSetup(
            str(table_id),
            decode_options(loads(str(options))),
            int(str(seed)),
            kinds,
            int(str(bot_seed)),
            tuple(loads(str(hashes))),
            None if salt is None else str(salt),
            source,
            tuple(loads(str(names))),
            str(client),
            bool(lobby),
        )
        decoded = list(decode_actions(actions, 0))
        notes = tuple((index, note) for index, (_, note) in enumerate(decoded) if note is not None)
        return StoredTable(
            setup,
            tuple(a for a, _ in decoded),
            notes,
            status,
            float(str(updated)),
            decode_claimed(claimed, kinds),
            None if rematch is None else str(rematch),
        )
    except (ValueError, TypeError) as error:  # DecodeError and StorageError are ValueErrors
        raise StorageError(f"table {table_id!r}: {error}") from None


def decode_actions(
    rows: Sequence[Sequence[object]], start: int
) -> Iterator[tuple[Action, str | None]]:
    """Decode ``(idx, action, note)`` rows numbered from ``start`` with no gap.

    Raises:
        StorageError: If an index is missing or an action does not decode.
    """
    for expected, (index, text, note) in enumerate(rows, start):
        if index != expected:
            raise StorageError(f"actions[{expected}] is missing (the next stored is {index})")
        try:
            action = decode_action(loads(str(text)))
        except DecodeError as error:
            raise StorageError(f"actions[{index}]: {error}") from None
        yield action, None if note is None else str(note)


def now() -> float:
    """The time stored with tables and actions: Unix time, in seconds."""
    return time.time()
