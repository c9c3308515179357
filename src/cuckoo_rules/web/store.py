"""SQLite storage of the web server's tables: one file, every accepted action committed.

A table is stored as what it takes to replay it: its setup (options, seed, seats, the
bots' seed and the SHA-256 hashes of the seat tokens, never the tokens) in one row of
``tables``, and its actions in order, one row each in ``actions``. :meth:`Store.add_action`
commits each action in its own transaction before returning, so an action the server
has answered for is on disk.

The file is opened in WAL mode with ``synchronous=FULL``: every commit is written to the
write-ahead log and synced to the disk before it returns, so a committed action survives
a crash of the process (``kill -9``) and also of the machine (power loss). The schema
(``PRAGMA user_version = 2``)::

    CREATE TABLE tables (
        id TEXT PRIMARY KEY,         -- the table id (unguessable)
        options TEXT NOT NULL,       -- JSON options object (format version 2), all keys
        seed TEXT NOT NULL,          -- the game seed, in decimal (may exceed 2**63)
        seats TEXT NOT NULL,         -- JSON array: "human" or a bot spec per seat
        bot_seed TEXT NOT NULL,      -- in decimal; each bot decision's seed derives from it
        token_hashes TEXT NOT NULL,  -- JSON array: SHA-256 hex of each human seat's token
        created TEXT NOT NULL        -- ISO 8601, UTC
    );
    CREATE TABLE actions (
        table_id TEXT NOT NULL REFERENCES tables (id),
        idx INTEGER NOT NULL,        -- the index of the action in the game, from 0
        action TEXT NOT NULL,        -- JSON action document
        PRIMARY KEY (table_id, idx)
    ) WITHOUT ROWID;

Versions: a file of ``user_version`` 1, written by cuckoo-rules 0.1, holds options objects
of format version 1 (no ``refill_trigger``). Opening it upgrades it in place, in one
transaction: every ``options`` is read as version 1 and written back as version 2 (the
same options, ``refill_trigger`` ``"capture"`` added), then ``user_version`` becomes 2.
If a row does not decode, nothing is changed and the file is refused. Tables and actions
are otherwise the same, so every table replays to the same states; but cuckoo-rules 0.1
refuses the upgraded file, as this version refuses a file of a newer ``user_version``.
Every JSON text of the file is read as strictly as text from outside: a damaged file
gives a :class:`StorageError` naming the table, never a crash.
"""

from __future__ import annotations

import datetime
import json
import os
import sqlite3
import threading
from collections.abc import Iterator, Sequence

import attrs

from ..actions import Action
from ..codec import decode_action, decode_options, encode_action
from ..errors import CuckooError, DecodeError
from ..jsontext import loads
from ..options import GameOptions

__all__ = ["SCHEMA_VERSION", "StorageError", "Store", "StoredTable", "TableSetup"]

SCHEMA_VERSION = 2
"""The ``user_version`` of the database files this module writes; files of version 1 are
upgraded when opened (see the module's description)."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    options TEXT NOT NULL,
    seed TEXT NOT NULL,
    seats TEXT NOT NULL,
    bot_seed TEXT NOT NULL,
    token_hashes TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables (id),
    idx INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (table_id, idx)
) WITHOUT ROWID;
"""


class StorageError(CuckooError, ValueError):
    """The database file cannot be used: a newer schema, or a row that does not decode.

    The message names the file or the table and field, for example ``"table 'x1':
    actions[3]: ..."``.
    """


@attrs.frozen
class TableSetup:
    """How a table was set up: everything stored about it but its actions.

    Attributes:
        id: The table id.
        options: The game options.
        seed: The game seed (secret: it decides every shuffle).
        seats: Per seat, ``"human"`` or the bot spec playing it.
        bot_seed: The seed the bots' seeds derive from (secret).
        token_hashes: Per seat, the SHA-256 hex digest of its token, or ``None`` for a
            bot seat.
    """

    id: str
    options: GameOptions
    seed: int
    seats: tuple[str, ...]
    bot_seed: int
    token_hashes: tuple[str | None, ...]


@attrs.frozen
class StoredTable:
    """A table as read back from the database.

    Attributes:
        setup: Its setup.
        actions: Its actions in the order they were taken.
    """

    setup: TableSetup
    actions: tuple[Action, ...]


class Store:
    """One SQLite file holding every table; safe to use from several threads.

    One connection is shared and guarded by a lock, so calls are serialized.

    Args:
        path: The database file (created if missing), or ``":memory:"``.

    Raises:
        StorageError: If the file was written by a newer version of this module, or it
            is of version 1 and a table's options do not decode (the file is unchanged).
        sqlite3.Error: If the file cannot be opened or is not a database.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, timeout=10.0, check_same_thread=False)
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
            if version == 1:
                self._upgrade_from_1()
            with self._db:
                self._db.executescript(_SCHEMA)
                self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except BaseException:
            self._db.close()
            raise

    def _upgrade_from_1(self) -> None:
        """Rewrite every table's options in format version 2, in one transaction."""
        db = self._db
        db.execute("BEGIN IMMEDIATE")  # no other writer until the commit
        try:
            (version,) = db.execute("PRAGMA user_version").fetchone()
            if version == 1:  # not upgraded meanwhile by another process
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
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            db.commit()
        except BaseException:
            db.rollback()
            raise

    def close(self) -> None:
        """Close the database; the store cannot be used afterwards."""
        with self._lock:
            self._db.close()

    def add_table(self, setup: TableSetup) -> None:
        """Store a new table (no actions yet) and commit.

        Raises:
            sqlite3.IntegrityError: If a table with this id exists.
        """
        created = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
        row = (
            setup.id,
            json.dumps(setup.options.to_json()),
            str(setup.seed),
            json.dumps(list(setup.seats)),
            str(setup.bot_seed),
            json.dumps(list(setup.token_hashes)),
            created,
        )
        with self._lock, self._db:
            self._db.execute("INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?, ?)", row)

    def add_action(self, table_id: str, index: int, action: Action) -> None:
        """Store the action of index ``index`` of a table and commit (synced to disk).

        Raises:
            sqlite3.IntegrityError: If the table has an action of this index already, or
                there is no such table.
        """
        row = (table_id, index, json.dumps(encode_action(action)))
        with self._lock, self._db:
            self._db.execute("INSERT INTO actions VALUES (?, ?, ?)", row)

    def tables(self) -> list[StoredTable]:
        """Read every table with its actions, in the order the tables were created.

        Raises:
            StorageError: If a row does not decode (the message names the table).
        """
        with self._lock:
            rows = self._db.execute("SELECT * FROM tables ORDER BY created, id").fetchall()
            actions: dict[str, list[tuple[int, str]]] = {}
            cursor = self._db.execute("SELECT table_id, idx, action FROM actions ORDER BY 1, 2")
            for table_id, index, action in cursor:
                actions.setdefault(table_id, []).append((index, action))
        return [_decode_table(row, actions.get(row[0], [])) for row in rows]


def _decode_table(row: Sequence[object], actions: list[tuple[int, str]]) -> StoredTable:
    table_id, options, seed, seats, bot_seed, token_hashes, _created = row
    try:
        setup = TableSetup(
            str(table_id),
            decode_options(loads(str(options))),
            int(str(seed)),
            tuple(loads(str(seats))),
            int(str(bot_seed)),
            tuple(loads(str(token_hashes))),
        )
        return StoredTable(setup, tuple(_decode_actions(actions)))
    except (ValueError, TypeError) as error:  # DecodeError and StorageError are ValueErrors
        raise StorageError(f"table {table_id!r}: {error}") from None


def _decode_actions(rows: list[tuple[int, str]]) -> Iterator[Action]:
    for expected, (index, text) in enumerate(rows):
        if index != expected:
            raise StorageError(f"actions[{expected}] is missing (the next stored is {index})")
        try:
            yield decode_action(loads(text))
        except DecodeError as error:
            raise StorageError(f"actions[{index}]: {error}") from None
