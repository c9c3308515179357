"""Where the web server keeps its tables: a common interface, SQLite, PostgreSQL.

- :mod:`~cuckoo_rules.web.stores.base`: what is stored (:class:`~.base.TableSetup`,
  :class:`~.base.StoredTable`...) and the interface every store implements
  (:class:`~.base.Store`);
- :mod:`~cuckoo_rules.web.stores.rows`: a table's record as the columns both stores keep;
- :mod:`~cuckoo_rules.web.stores.sqlite`: one SQLite file, the embedded default
  (:class:`~.sqlite.SQLiteStore`);
- :mod:`~cuckoo_rules.web.stores.postgres`: one PostgreSQL database shared by several
  server processes (:class:`~.postgres.PostgresStore`, the ``postgres`` extra), with its
  schema (:mod:`~cuckoo_rules.web.stores.postgres_schema`) and the thread that listens
  for the moves other processes store (:mod:`~cuckoo_rules.web.stores.postgres_listen`).

:func:`open_store` picks one from a path or a URL; the PostgreSQL store is imported only
when a URL asks for it, so the server needs psycopg only then.
"""

from __future__ import annotations

import os

from .base import Store
from .sqlite import SQLiteStore

__all__ = ["open_store"]


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
        from .postgres import PostgresStore

        return PostgresStore(text)
    return SQLiteStore(text)
