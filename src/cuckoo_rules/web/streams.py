"""The push streams of the web server: a table's events and documents, as they happen.

``GET /api/tables/{id}/stream`` (:mod:`cuckoo_rules.web.routes`) answers with a
Server-Sent Events stream (:class:`EventStream`) of a table's messages
(:func:`table_messages`): its ``game`` events and ``table`` documents, redacted for the
reader's seat, pushed when the table changes, with a ping every :data:`STREAM_PING`
seconds of silence. The streams are counted (:class:`Streams`): at most
:data:`MAX_STREAMS` in all and :data:`MAX_STREAMS_PER_TABLE` on one table.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import anyio
from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.types import Receive, Scope, Send

from .documents import NO_STORE
from .errors import ServiceUnavailable, TooManyRequests
from .table import Table

__all__ = [
    "MAX_STREAMS",
    "MAX_STREAMS_PER_TABLE",
    "STREAM_PING",
    "STREAM_REMATCH_WAIT",
    "EventStream",
    "Streams",
    "open_stream",
    "table_messages",
]

MAX_STREAMS = 1000
"""The most push streams (``GET .../stream``) a server keeps open in all; more get 503."""

MAX_STREAMS_PER_TABLE = 32
"""The most push streams open on one table (its seats and spectators); more get 429."""

STREAM_PING = 15.0
"""Seconds between the pings (SSE comments) of a push stream that has nothing to say, so
that proxies and clients see a live connection."""

STREAM_REMATCH_WAIT = 600.0
"""Seconds a push stream stays open after its game is over, to push the rematch (the
``table`` message whose ``rematch`` names the new table) if a seat starts one; it ends
then, or at once after pushing the rematch."""


class Streams:
    """The push streams open: counted per table and in all, each within its limit.

    Args:
        most: The most streams open in all (:data:`MAX_STREAMS`).
        most_per_table: The most streams open on one table (:data:`MAX_STREAMS_PER_TABLE`).

    Attributes:
        most: As given.
        most_per_table: As given.
        open: The number of streams open on each table that has any, by table id.
        total: The number of streams open in all.
    """

    def __init__(self, most: int, most_per_table: int) -> None:
        self.most = most
        self.most_per_table = most_per_table
        self.open: dict[str, int] = {}
        self.total = 0

    def reserve(self, table_id: str) -> Callable[[], None]:
        """Count one more stream of a table; return the function that counts it out.

        Raises:
            ServiceUnavailable: If the server has :attr:`most` streams open.
            TooManyRequests: If the table has :attr:`most_per_table` streams open.
        """
        if self.total >= self.most:
            raise ServiceUnavailable(
                f"this server has {self.most} open streams, its limit; try again later "
                "(GET /api/tables/ID reads the table meanwhile)",
                retry_after=30,
            )
        if self.open.get(table_id, 0) >= self.most_per_table:
            raise TooManyRequests(
                f"this table has {self.most_per_table} open streams, the limit per table; "
                "close one (another tab?) or try again later",
                retry_after=30,
            )
        self.open[table_id] = self.open.get(table_id, 0) + 1
        self.total += 1
        released = False

        def release() -> None:
            nonlocal released
            if released:
                return
            released = True
            self.total -= 1
            left = self.open[table_id] - 1
            if left:
                self.open[table_id] = left
            else:
                del self.open[table_id]

        return release


class EventStream(EventSourceResponse):
    """A push stream that gives its place back (:meth:`Streams.reserve`) however it ends.

    When the server shuts down, sse-starlette sets ``stopping``: the messages end, and
    the response is completed properly, within a second.

    Args:
        content: The messages (:func:`table_messages`).
        release: Gives the stream's place back (from :meth:`Streams.reserve`).
        ping: Seconds between the pings of an idle stream.
        stopping: Set when the server shuts down.
    """

    def __init__(
        self,
        content: AsyncIterator[ServerSentEvent],
        release: Callable[[], None],
        ping: float,
        stopping: anyio.Event,
    ) -> None:
        super().__init__(
            content,
            headers=NO_STORE,
            ping=ping,
            shutdown_event=stopping,
            shutdown_grace_period=1.0,
        )
        self._release = release

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Send the stream; give its place back when it ends, however it ends."""
        try:
            await super().__call__(scope, receive, send)
        finally:  # the client closed it, the game ended, the server stops, or a failure
            self._release()


def open_stream(
    table: Table,
    seat: int | None,
    after: int,
    language: str,
    release: Callable[[], None],
    ping: float,
    rematch_wait: float,
) -> EventStream:
    """Return the push stream of ``table`` for ``seat``, from event ``after`` on.

    Args:
        table: The table.
        seat: The reader's seat, or ``None`` for a spectator.
        after: The number of the first event to send.
        language: The language of the documents and the narration.
        release: Gives the stream's place back when it ends (:meth:`Streams.reserve`).
        ping: Seconds between the pings of an idle stream.
        rematch_wait: Seconds to wait for a rematch once the game is over.
    """
    stopping = anyio.Event()
    messages = table_messages(table, seat, after, language, stopping, rematch_wait)
    return EventStream(messages, release, ping, stopping)


async def table_messages(
    table: Table,
    seat: int | None,
    after: int,
    language: str,
    stopping: anyio.Event,
    rematch_wait: float,
) -> AsyncIterator[ServerSentEvent]:
    """The messages of a table's push stream, until the stream ends or ``stopping``.

    Messages, each redacted for ``seat`` exactly as the table document is (it is built
    by :meth:`Table.document <cuckoo_rules.web.table.Table.document>`):

    - ``event: table``, no ``id``, ``data``: the table document with ``"events": []``
      and ``"narration": []``; first when the stream opens, then after the events of
      each change, and whenever the document changes otherwise (a bot starts to
      decide, a seat is claimed or joined, a rematch, the status);
    - ``event: game``, ``id: n``, ``data``: ``{"index": n, "event": {...},
      "narration": "..."}``, one per event from number ``after`` on, in order.

    Once the game is over and everything is sent, the stream waits up to
    ``rematch_wait`` seconds for a seat to start a rematch, pushes the ``table``
    message that names it and ends (an expired table's stream ends at once). The table
    wakes the stream when it changes (:meth:`Table.watch
    <cuckoo_rules.web.seats.TableSeats.watch>`), whichever thread or server process made the
    change.

    Args:
        table: The table.
        seat: The reader's seat, or ``None`` for a spectator.
        after: The number of the first event to send.
        language: The language of the documents and the narration.
        stopping: Set when the server shuts down.
        rematch_wait: Seconds to wait for a rematch once the game is over.
    """
    loop = asyncio.get_running_loop()
    wake = asyncio.Event()

    def woken() -> None:  # called in the thread that changed the table
        loop.call_soon_threadsafe(wake.set)

    unwatch = table.watch(woken)
    try:
        sent: dict[str, Any] | None = None
        next_event = after
        over_since: float | None = None
        while True:
            wake.clear()  # a change from now on wakes the stream again
            document = table.document(seat, next_event, language)
            header = {**document, "events": [], "narration": []}
            if sent is None:
                yield _message("table", header)
                sent = header
            pairs = zip(document["events"], document["narration"], strict=True)
            for index, (event, sentence) in enumerate(pairs, next_event):
                body = {"index": index, "event": event, "narration": sentence}
                yield _message("game", body, str(index))
            if document["events"] or header != sent:
                yield _message("table", header)
                sent = header
            next_event = document["next_event"]
            timeout = None
            if document["status"] != "open":
                # The game is over (or the table expired): no more moves. A finished
                # game's stream waits a while for a rematch, which it pushes, then ends.
                if document["status"] != "over" or document["rematch"] is not None:
                    return
                if over_since is None:
                    over_since = loop.time()
                timeout = over_since + rematch_wait - loop.time()
                if timeout <= 0:
                    return
            await _woken(wake, stopping, timeout)  # a change, a timeout or the end
            if stopping.is_set():
                return  # the server shuts down
    finally:
        unwatch()


async def _woken(wake: asyncio.Event, stopping: anyio.Event, timeout: float | None = None) -> bool:
    """Wait for ``wake``, ``stopping`` or ``timeout`` seconds; return whether ``wake`` came."""
    if stopping.is_set():
        return False
    woken = asyncio.ensure_future(wake.wait())
    stopped = asyncio.ensure_future(stopping.wait())
    try:
        await asyncio.wait((woken, stopped), timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        woken.cancel()
        stopped.cancel()
    return wake.is_set() and not stopping.is_set()


def _message(kind: str, data: dict[str, Any], event_id: str | None = None) -> ServerSentEvent:
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return ServerSentEvent(text, event=kind, id=event_id)
