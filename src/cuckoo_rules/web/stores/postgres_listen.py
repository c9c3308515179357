"""The thread that listens for the moves other server processes store in PostgreSQL.

Every write of the PostgreSQL store that a reader could see sends, in its transaction,
``NOTIFY cuckoo_moves, '<table_id>:<index>'`` (a move) or ``'<table_id>:seats'`` (a
claim, a join or a rematch); PostgreSQL delivers it at the commit, and only if the
transaction commits. A :class:`Listener` (started by
:meth:`PostgresStore.listen <cuckoo_rules.web.stores.postgres.PostgresStore.listen>`)
holds a connection of its own that runs ``LISTEN cuckoo_moves`` and hands each
notification to a callback, reconnecting when the connection is lost.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from ...errors import needs_extra
from .base import SEATS_CHANGED

try:
    import psycopg
except ModuleNotFoundError as error:
    raise needs_extra(__name__, "postgres", error) from error

__all__ = ["CHANNEL", "Listener"]

CHANNEL = "cuckoo_moves"
"""The ``NOTIFY`` channel of stored moves; each payload is ``"<table_id>:<index>"`` (or
``"<table_id>:seats"`` when a table's seats changed)."""

_log = logging.getLogger(__name__)


class Listener:
    """The thread that listens for the store's notifications (``LISTEN cuckoo_moves``).

    Args:
        url: The connection URL.
        kwargs: The keyword arguments of :func:`psycopg.connect` (the store's).
        callback: Called with the table id and the move index of each notification
            (:data:`~cuckoo_rules.web.stores.base.SEATS_CHANGED` for a change of seats).
        on_reconnect: Called after each reconnection, or ``None``.
    """

    _POLL = 0.5  # seconds between checks of the stop flag
    _PING = 10.0  # seconds of silence before the connection is checked

    def __init__(
        self,
        url: str,
        kwargs: dict[str, Any],
        callback: Callable[[str, int], None],
        on_reconnect: Callable[[], None] | None,
    ) -> None:
        self._url = url
        self._kwargs = kwargs
        self._callback = callback
        self._on_reconnect = on_reconnect
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Connect and LISTEN, then start the thread.

        Raises:
            psycopg.Error: If the first connection fails.
        """
        conn = self._connect()
        self._thread = threading.Thread(
            target=self._run, args=(conn,), name="cuckoo-listen", daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        """Stop the thread and wait for it (a few tenths of a second)."""
        self._stopping.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=self._POLL + 5.0)

    def _connect(self) -> psycopg.Connection[tuple[Any, ...]]:
        conn = psycopg.connect(self._url, **self._kwargs)
        try:
            conn.execute(f"LISTEN {CHANNEL}")
        except BaseException:
            conn.close()
            raise
        return conn

    def _run(self, conn: psycopg.Connection[tuple[Any, ...]] | None = None) -> None:
        delay = 0.1
        while not self._stopping.is_set():
            if conn is None:
                try:
                    conn = self._connect()
                except psycopg.Error as error:
                    _log.warning("LISTEN %s: cannot reconnect (%s)", CHANNEL, error)
                    self._stopping.wait(delay)
                    delay = min(delay * 2, 5.0)
                    continue
                delay = 0.1
                _log.info("LISTEN %s: reconnected", CHANNEL)
                self._notify_reconnect()
            try:
                self._serve(conn)
            except psycopg.Error as error:
                _log.warning("LISTEN %s: connection lost (%s)", CHANNEL, error)
            finally:
                conn.close()
                conn = None

    def _serve(self, conn: psycopg.Connection[tuple[Any, ...]]) -> None:
        """Deliver notifications until asked to stop; raise when the connection is lost."""
        quiet_since = time.monotonic()
        while not self._stopping.is_set():
            for notify in conn.notifies(timeout=self._POLL):
                quiet_since = time.monotonic()
                self._deliver(notify.payload)
            if time.monotonic() - quiet_since > self._PING:
                conn.execute("")  # a lost server is noticed here, not never
                quiet_since = time.monotonic()

    def _deliver(self, payload: str) -> None:
        table_id, _, index = payload.rpartition(":")
        if not table_id or not (index.isdigit() or index == "seats"):
            _log.warning("LISTEN %s: ignored payload %r", CHANNEL, payload)
            return
        try:
            self._callback(table_id, SEATS_CHANGED if index == "seats" else int(index))
        except Exception:
            _log.exception("LISTEN %s: the callback failed on %r", CHANNEL, payload)

    def _notify_reconnect(self) -> None:
        if self._on_reconnect is None:
            return
        try:
            self._on_reconnect()
        except Exception:
            _log.exception("LISTEN %s: on_reconnect failed", CHANNEL)
