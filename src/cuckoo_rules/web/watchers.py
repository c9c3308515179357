"""How a table's changes are serialized and announced: its lock, and its watchers.

A table changes in worker threads, one change at a time (:func:`run_locked` holds the
table's lock while a thread makes it), and every change a reader could see is announced
to the table's :class:`Watchers`, such as a push stream waiting for news.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from anyio import to_thread

__all__ = ["Watchers", "run_locked"]

_logger = logging.getLogger(__name__)

_T = TypeVar("_T")


class Watchers:
    """The callbacks to call after every change of one table; safe to use from any thread.

    Args:
        label: What changes, as the log names it (``"table abc"``).
    """

    def __init__(self, label: str) -> None:
        self._label = label
        self._callbacks: dict[int, Callable[[], None]] = {}
        self._lock = threading.Lock()

    def __bool__(self) -> bool:
        """Whether any callback is registered."""
        with self._lock:
            return bool(self._callbacks)

    def add(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call ``callback()`` after every change (:meth:`notify`) from now on.

        Returns:
            A function that stops the calls (calling it again does nothing).
        """
        key = id(callback)
        with self._lock:
            while key in self._callbacks:  # the same function watching twice
                key += 1
            self._callbacks[key] = callback

        def unwatch() -> None:
            with self._lock:
                self._callbacks.pop(key, None)

        return unwatch

    def notify(self) -> None:
        """Call every callback, in this thread; one that raises is logged and ignored."""
        with self._lock:
            callbacks = tuple(self._callbacks.values())
        for callback in callbacks:
            try:
                callback()
            except Exception:  # a watcher whose loop is gone, for one
                _logger.debug("%s: a watcher failed", self._label, exc_info=True)


async def run_locked(lock: asyncio.Lock, work: Callable[..., _T], *args: Any) -> _T:
    """Run ``work(*args)`` in a worker thread with ``lock`` held; return its result.

    The lock is released only once the thread is done, even if the caller is cancelled
    meanwhile (the cancellation then takes effect after it), so two changes never
    overlap.
    """
    async with lock:
        # Starlette's pool of threads (anyio's, 40 at once), as for the other requests.
        future = asyncio.ensure_future(to_thread.run_sync(functools.partial(work, *args)))
        try:
            return await asyncio.shield(future)
        except asyncio.CancelledError:
            await asyncio.wait([future])
            raise
