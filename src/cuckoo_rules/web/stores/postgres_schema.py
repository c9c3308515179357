"""The schema of the PostgreSQL store: created when missing, upgraded when older.

The tables have the columns and the meaning of the SQLite file's (schema version 5, see
:mod:`cuckoo_rules.web.stores.sqlite`), with PostgreSQL's types: the JSON documents and
the big decimal seeds are ``TEXT`` as there, ``updated`` is ``DOUBLE PRECISION``,
``created`` a ``TIMESTAMPTZ`` and ``lobby`` a ``BOOLEAN``. They are created in the first
schema of the connection's ``search_path`` when missing (choose another schema with
``?options=-csearch_path%3Dname`` in the URL). The version of this schema,
:data:`SCHEMA_VERSION`, is kept in a small table of its own::

    CREATE TABLE cuckoo_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    -- one row: ('schema_version', '3')

The reviews of finished games are kept in a table ``reviews`` (``table_id``,
``simulations``, ``document``, ``created``) outside the versioned schema: it is created
when missing in a database of any version.

A database of a newer version is refused (:class:`~cuckoo_rules.web.errors.StorageError`),
as is one holding a ``tables`` table that this module did not create. An older database
is upgraded when a store opens it, in one transaction (under the same lock as the
creation), step by step: version 1 gets the columns ``lobby``, ``claimed`` and
``rematch``, every human seat of a table counting as claimed (its tokens were all handed
out); version 2 gets ``invitations``, and the token of each human seat nobody claimed
becomes that seat's invitation (as the SQLite file's version 5 does,
:func:`~cuckoo_rules.web.stores.rows.upgrade_invitations`). A server of an older version
refuses the upgraded database, so no process of an older version, which would take an
invitation for a token, can run on it beside the new ones.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import StorageError
from .rows import upgrade_claims, upgrade_invitations

if TYPE_CHECKING:  # psycopg is the postgres extra, which the store checks for
    import psycopg

__all__ = ["SCHEMA_VERSION", "prepare"]

SCHEMA_VERSION = 3
"""The version of the PostgreSQL schema this module writes (in ``cuckoo_meta``).

Version 1 had the columns and the meaning of the SQLite file's version 3; version 2 has
those of its version 4 (names, lobby, claimed seats, rematch); version 3 those of its
version 5 (invitations). The two numbers are independent: each database kind counts its
own upgrades.
"""

# The key of an advisory lock: one process at a time creates or checks the schema.
_SCHEMA_LOCK = 0x6375636B6F6F  # "cuckoo"

_SCHEMA = (
    """
    CREATE TABLE IF NOT EXISTS cuckoo_meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    )
    """,
    """
    CREATE TABLE IF NOT EXISTS tables (
        id TEXT PRIMARY KEY,
        options TEXT NOT NULL,
        seed TEXT NOT NULL,
        seats TEXT NOT NULL,
        bot_seed TEXT NOT NULL,
        token_hashes TEXT NOT NULL,
        created TIMESTAMPTZ NOT NULL,
        salt TEXT,
        seed_source TEXT NOT NULL DEFAULT 'server',
        names TEXT NOT NULL DEFAULT '[]',
        client TEXT NOT NULL DEFAULT '',
        status TEXT NOT NULL DEFAULT 'open',
        updated DOUBLE PRECISION NOT NULL DEFAULT 0,
        lobby BOOLEAN NOT NULL DEFAULT FALSE,
        claimed TEXT NOT NULL DEFAULT '[]',
        rematch TEXT,
        invitations TEXT NOT NULL DEFAULT '[]'
    )
    """,
    """
    CREATE TABLE IF NOT EXISTS actions (
        table_id TEXT NOT NULL REFERENCES tables (id),
        idx INTEGER NOT NULL,
        action TEXT NOT NULL,
        note TEXT,
        PRIMARY KEY (table_id, idx)
    )
    """,
    "CREATE INDEX IF NOT EXISTS tables_status ON tables (status, client)",
    "CREATE INDEX IF NOT EXISTS tables_lobby ON tables (lobby, status)",
)

# The reviews of finished games: created when missing, in a database of any version.
_REVIEWS = """
    CREATE TABLE IF NOT EXISTS reviews (
        table_id TEXT PRIMARY KEY REFERENCES tables (id),
        simulations INTEGER NOT NULL,
        document TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL
    )
    """

# What version 2 adds to a database of version 1.
_UPGRADE_1 = (
    "ALTER TABLE tables ADD COLUMN lobby BOOLEAN NOT NULL DEFAULT FALSE",
    "ALTER TABLE tables ADD COLUMN claimed TEXT NOT NULL DEFAULT '[]'",
    "ALTER TABLE tables ADD COLUMN rematch TEXT",
    "CREATE INDEX IF NOT EXISTS tables_lobby ON tables (lobby, status)",
)

# What version 3 adds to a database of version 2.
_UPGRADE_2 = ("ALTER TABLE tables ADD COLUMN invitations TEXT NOT NULL DEFAULT '[]'",)


def prepare(conn: psycopg.Connection[tuple[Any, ...]], where: str) -> None:
    """Check the schema version; create the tables if missing (one process at a time).

    Args:
        conn: A connection in autocommit mode.
        where: The database, as messages name it (a URL without the password).

    Raises:
        StorageError: If the database has a newer schema version, or a ``tables`` table
            this module did not create.
        psycopg.Error: If the database fails.
    """
    version = _version(conn, where)
    if version == SCHEMA_VERSION:
        _add_reviews(conn)
        return  # nothing else to write: a read-only database is fine for reading
    _check_version(version, where)
    # A session lock, and the check in a transaction begun after it: a transaction
    # that waited for an advisory lock may still see the catalog as it was before
    # (its cache is refreshed when a transaction begins).
    conn.execute("SELECT pg_advisory_lock(%s)", (_SCHEMA_LOCK,))
    try:
        with conn.transaction():
            version = _version(conn, where)  # another process may have just made it
            _check_version(version, where)
            if version is None:
                for statement in _SCHEMA:
                    conn.execute(statement)
                conn.execute(
                    "INSERT INTO cuckoo_meta VALUES ('schema_version', %s)",
                    (str(SCHEMA_VERSION),),
                )
            elif version < SCHEMA_VERSION:
                if version == 1:
                    _upgrade_from_1(conn, where)
                _upgrade_from_2(conn, where, version)
    finally:
        if not conn.closed:
            conn.execute("SELECT pg_advisory_unlock(%s)", (_SCHEMA_LOCK,))
    _add_reviews(conn)


def _add_reviews(conn: psycopg.Connection[tuple[Any, ...]]) -> None:
    """Create the table of the reviews if it is missing (one process at a time).

    It is not part of the versioned schema: a database of any version gets it, and a
    server of an older version ignores it. A database that cannot take the creation (a
    read-only one) keeps no reviews (the store reads none and drops those it is given).
    """
    row = conn.execute("SELECT to_regclass('reviews') IS NOT NULL").fetchone()
    if row is not None and row[0]:
        return
    import psycopg

    conn.execute("SELECT pg_advisory_lock(%s)", (_SCHEMA_LOCK,))
    try:
        with conn.transaction():
            conn.execute(_REVIEWS)
    except psycopg.Error:
        pass
    finally:
        if not conn.closed:
            conn.execute("SELECT pg_advisory_unlock(%s)", (_SCHEMA_LOCK,))


def _upgrade_from_1(conn: psycopg.Connection[tuple[Any, ...]], where: str) -> None:
    """Bring a database of version 1 to version 2's columns (in the caller's transaction)."""
    for statement in _UPGRADE_1:
        conn.execute(statement)
    claims = upgrade_claims(
        conn.execute("SELECT id, seats FROM tables").fetchall(),
        where,
        "the database is left as it was, at schema version 1",
    )
    for claimed, table_id in claims:
        conn.execute("UPDATE tables SET claimed = %s WHERE id = %s", (claimed, table_id))


def _upgrade_from_2(conn: psycopg.Connection[tuple[Any, ...]], where: str, version: int) -> None:
    """Bring a database of version 2 (or 1, upgraded) to version 3, in the transaction.

    The tokens of the seats nobody claimed become their invitations.
    """
    for statement in _UPGRADE_2:
        conn.execute(statement)
    updates = upgrade_invitations(
        conn.execute("SELECT id, seats, token_hashes, claimed FROM tables").fetchall(),
        where,
        f"the database is left as it was, at schema version {version}",
    )
    for token_hashes, invitations, table_id in updates:
        conn.execute(
            "UPDATE tables SET token_hashes = %s, invitations = %s WHERE id = %s",
            (token_hashes, invitations, table_id),
        )
    conn.execute(
        "UPDATE cuckoo_meta SET value = %s WHERE key = 'schema_version'",
        (str(SCHEMA_VERSION),),
    )


def _version(conn: psycopg.Connection[tuple[Any, ...]], where: str) -> int | None:
    """The schema version of the database; ``None`` if it has no cuckoo tables."""
    row = conn.execute(
        "SELECT to_regclass('cuckoo_meta') IS NOT NULL, to_regclass('tables') IS NOT NULL"
    ).fetchone()
    assert row is not None
    has_meta, has_tables = row
    if not has_meta:
        if has_tables:
            raise StorageError(
                f"{where}: the database has a table named 'tables' but no "
                "'cuckoo_meta': it was not made by cuckoo-rules (use another database, "
                "or another schema with ?options=-csearch_path%3Dname)"
            )
        return None
    row = conn.execute("SELECT value FROM cuckoo_meta WHERE key = 'schema_version'").fetchone()
    if row is None:
        raise StorageError(f"{where}: cuckoo_meta has no schema_version")
    try:
        return int(str(row[0]))
    except ValueError:
        raise StorageError(
            f"{where}: cuckoo_meta: schema_version {row[0]!r} is not a number"
        ) from None


def _check_version(version: int | None, where: str) -> None:
    if version is not None and version > SCHEMA_VERSION:
        raise StorageError(
            f"{where}: database schema version {version} is newer than this "
            f"version of cuckoo-rules reads ({SCHEMA_VERSION})"
        )
    if version is not None and version < 1:  # no such version was ever written
        raise StorageError(
            f"{where}: database schema version {version} is older than this "
            f"version of cuckoo-rules knows how to upgrade (1 to {SCHEMA_VERSION})"
        )
