"""The names that ``cuckoo_rules.web.store`` held, kept here for a release.

The module was split: the stores are in the package :mod:`cuckoo_rules.web.stores` (the
interface and what is stored in :mod:`~cuckoo_rules.web.stores.base`, the rows in
:mod:`~cuckoo_rules.web.stores.rows`, SQLite in :mod:`~cuckoo_rules.web.stores.sqlite`,
:func:`~cuckoo_rules.web.stores.open_store` in the package), and their exceptions in
:mod:`cuckoo_rules.web.errors`. Import them from there.
"""

from __future__ import annotations

from .errors import MoveTaken, StorageError, StorageUnavailable, StoreInUse
from .stores import open_store
from .stores.base import (
    LOBBY_LIMIT,
    SEATS_CHANGED,
    STATUSES,
    LobbyEntry,
    SeatState,
    SeedSource,
    Status,
    Store,
    StoredTable,
    TableSetup,
    free_seats,
)
from .stores.rows import (
    TABLE_COLUMNS,
    claimed_text,
    decode_actions,
    decode_claimed,
    decode_seat_state,
    decode_seats,
    decode_table,
    human_seats,
    joined_row,
    lobby_entries,
    now,
    setup_row,
)
from .stores.sqlite import SCHEMA_VERSION, SQLiteStore

__all__ = [
    "LOBBY_LIMIT",
    "SCHEMA_VERSION",
    "SEATS_CHANGED",
    "STATUSES",
    "TABLE_COLUMNS",
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
    "claimed_text",
    "decode_actions",
    "decode_claimed",
    "decode_seat_state",
    "decode_seats",
    "decode_table",
    "free_seats",
    "human_seats",
    "joined_row",
    "lobby_entries",
    "now",
    "open_store",
    "setup_row",
]
