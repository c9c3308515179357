"""The push streams of the web server: a table's events and documents, as they happen.

``GET /api/tables/{id}/stream`` (:mod:`cuckoo_rules.web.routes`) answers with a
Server-Sent Events stream (:class:`EventStream`) of a table's messages
(:func:`table_messages`): its ``game`` events and ``table`` documents, redacted for the
reader's seat, pushed when the table changes, with a ping every :data:`STREAM_PING`
seconds of silence. The streams are counted (:class:`Streams`) in two pools: a seat's
own streams, at most :data:`MAX_STREAMS_PER_SEAT` per seat (a new one ends the oldest),
which spectators never take; and the spectators' streams, at most :data:`MAX_STREAMS` in
all, :data:`MAX_STREAMS_PER_TABLE` on one table and :data:`MAX_STREAMS_PER_CLIENT` for
one client (:func:`~cuckoo_rules.web.guard.client_key`).
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
from .reviews import ReviewQueue
from .table import Table

__all__ = [
    "MAX_STREAMS",
    "MAX_STREAMS_PER_CLIENT",
    "MAX_STREAMS_PER_SEAT",
    "MAX_STREAMS_PER_TABLE",
    "STREAM_PING",
    "STREAM_REMATCH_WAIT",
    "EventStream",
    "StreamSlot",
    "Streams",
    "open_stream",
    "table_messages",
]

MAX_STREAMS = 1000
"""The most spectators' push streams (``GET .../stream`` without a token) a server keeps
open in all; more get 503. Seats' streams are not counted here."""

MAX_STREAMS_PER_TABLE = 32
"""The most spectators' push streams open on one table; more get 429."""

MAX_STREAMS_PER_CLIENT = 10
"""The most spectators' push streams one client keeps open, on all tables; more get 429."""

MAX_STREAMS_PER_SEAT = 2
"""The most push streams open with one seat's token (two tabs, say); a new one is always
answered, and ends the oldest."""

STREAM_PING = 15.0
"""Seconds between the pings (SSE comments) of a push stream that has nothing to say, so
that proxies and clients see a live connection."""

STREAM_REMATCH_WAIT = 600.0
"""Seconds a push stream stays open after its game is over, to push the rematch (the
``table`` message whose ``rematch`` names the new table) if a seat starts one; it ends
then, or at once after pushing the rematch."""


class StreamSlot:
    """The place of one open push stream (:meth:`Streams.reserve`).

    Calling it, or :meth:`release`, gives the place back (once; again does nothing).

    Attributes:
        table_id: The table streamed.
        seat: The seat whose token opened it, or ``None`` for a spectator.
        client: The client that opened it (:func:`~cuckoo_rules.web.guard.client_key`).
        released: Whether the place was given back.
        on_evict: Called when a newer stream of the same seat takes the place (it
            should end the stream); ``None`` to do nothing.
    """

    __slots__ = ("_streams", "client", "on_evict", "released", "seat", "table_id")

    def __init__(self, streams: Streams, table_id: str, seat: int | None, client: str) -> None:
        self._streams = streams
        self.table_id = table_id
        self.seat = seat
        self.client = client
        self.released = False
        self.on_evict: Callable[[], None] | None = None

    def __call__(self) -> None:
        """Give the place back (:meth:`release`)."""
        self.release()

    def release(self) -> None:
        """Give the place back, once."""
        if not self.released:
            self.released = True
            self._streams._release(self)


class Streams:
    """The push streams open, in two pools: seats' own, and spectators'.

    A seat's token may keep :attr:`most_per_seat` streams open; one more is answered
    all the same, and the oldest of that seat ends (its
    :attr:`StreamSlot.on_evict`), so that a seat's own stream always has a place, which
    no spectator can take. Spectators (no token) share a pool of their own: at most
    :attr:`most` in all (more get 503), :attr:`most_per_table` on one table and
    :attr:`most_per_client` for one client (more get 429). Used from the event loop
    only.

    Args:
        most: The most spectators' streams open in all (:data:`MAX_STREAMS`).
        most_per_table: The most spectators' streams on one table
            (:data:`MAX_STREAMS_PER_TABLE`).
        most_per_client: The most spectators' streams of one client
            (:data:`MAX_STREAMS_PER_CLIENT`).
        most_per_seat: The most streams of one seat (:data:`MAX_STREAMS_PER_SEAT`).

    Raises:
        ValueError: If a limit is not a positive integer.

    Attributes:
        most: As given.
        most_per_table: As given.
        most_per_client: As given.
        most_per_seat: As given.
        open: The number of streams open on each table that has any (seats' and
            spectators'), by table id.
        total: The number of streams open in all (seats' and spectators').
        spectators: The number of spectators' streams open in all.

    Example:
        >>> streams = Streams(most=2, most_per_table=2, most_per_client=1, most_per_seat=1)
        >>> watching = streams.reserve("t1", None, "203.0.113.7/32")
        >>> try:  # a second spectator's stream of that client
        ...     streams.reserve("t1", None, "203.0.113.7/32")
        ... except TooManyRequests as error:
        ...     print(error.status, str(error)[:53])
        429 you have 1 open streams as a spectator, the limit per
        >>> first = streams.reserve("t1", 0, "203.0.113.7/32")
        >>> second = streams.reserve("t1", 0, "203.0.113.7/32")  # the same seat: ends the first
        >>> first.released, second.released, streams.total, streams.spectators
        (True, False, 2, 1)
    """

    def __init__(
        self,
        most: int = MAX_STREAMS,
        most_per_table: int = MAX_STREAMS_PER_TABLE,
        most_per_client: int = MAX_STREAMS_PER_CLIENT,
        most_per_seat: int = MAX_STREAMS_PER_SEAT,
    ) -> None:
        for name, value in (
            ("max_streams", most),
            ("max_streams_per_table", most_per_table),
            ("max_streams_per_client", most_per_client),
            ("max_streams_per_seat", most_per_seat),
        ):
            if type(value) is not int or value < 1:
                raise ValueError(f"{name}: expected a positive integer, got {value!r}")
        self.most = most
        self.most_per_table = most_per_table
        self.most_per_client = most_per_client
        self.most_per_seat = most_per_seat
        self.open: dict[str, int] = {}
        self.total = 0
        self.spectators = 0
        self._seats: dict[tuple[str, int], list[StreamSlot]] = {}
        self._watching: dict[str, int] = {}  # spectators' streams by table
        self._clients: dict[str, int] = {}  # spectators' streams by client

    def reserve(self, table_id: str, seat: int | None = None, client: str = "") -> StreamSlot:
        """Count one more stream of a table; return its place (call it to give it back).

        Args:
            table_id: The table.
            seat: The seat whose token opens it, or ``None`` for a spectator.
            client: The client opening it (:func:`~cuckoo_rules.web.guard.client_key`;
                ``""``: not counted per client).

        Raises:
            ServiceUnavailable: If a spectator asks and :attr:`most` spectators'
                streams are open.
            TooManyRequests: If a spectator asks and the table has
                :attr:`most_per_table` spectators' streams open, or the client
                :attr:`most_per_client`.
        """
        if seat is None:
            self._check_spectator(table_id, client)
        slot = StreamSlot(self, table_id, seat, client)
        if seat is None:
            self.spectators += 1
            self._watching[table_id] = self._watching.get(table_id, 0) + 1
            if client:
                self._clients[client] = self._clients.get(client, 0) + 1
        else:
            held = self._seats.setdefault((table_id, seat), [])
            while len(held) >= self.most_per_seat:  # the oldest of the seat ends
                oldest = held[0]
                oldest.release()
                if oldest.on_evict is not None:
                    oldest.on_evict()
            self._seats.setdefault((table_id, seat), []).append(slot)
        self.open[table_id] = self.open.get(table_id, 0) + 1
        self.total += 1
        return slot

    def _check_spectator(self, table_id: str, client: str) -> None:
        """Refuse a spectator's stream beyond the spectators' limits."""
        if self.spectators >= self.most:
            raise ServiceUnavailable(
                f"this server has {self.most} open streams, its limit for spectators (a "
                "seat's token has places of its own); try again later (GET /api/tables/ID "
                "reads the table meanwhile)",
                retry_after=30,
            )
        if self._watching.get(table_id, 0) >= self.most_per_table:
            raise TooManyRequests(
                f"this table has {self.most_per_table} open streams of spectators, the limit "
                "per table; try again later (GET /api/tables/ID reads the table meanwhile)",
                retry_after=30,
            )
        if client and self._clients.get(client, 0) >= self.most_per_client:
            raise TooManyRequests(
                f"you have {self.most_per_client} open streams as a spectator, the limit per "
                "client; close one or try again later",
                retry_after=30,
            )

    def _release(self, slot: StreamSlot) -> None:
        """Count out a stream (:meth:`StreamSlot.release`)."""
        table_id = slot.table_id
        if slot.seat is None:
            self.spectators -= 1
            _count_out(self._watching, table_id)
            if slot.client:
                _count_out(self._clients, slot.client)
        else:
            key = (table_id, slot.seat)
            held = self._seats[key]
            held.remove(slot)
            if not held:
                del self._seats[key]
        self.total -= 1
        _count_out(self.open, table_id)


def _count_out(counts: dict[str, int], key: str) -> None:
    """One less of ``key`` in ``counts`` (dropped at 0)."""
    left = counts[key] - 1
    if left:
        counts[key] = left
    else:
        del counts[key]


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
        self._stopping = stopping

    def stop(self) -> None:
        """End the stream, as a shut-down does (a newer stream of its seat took its place)."""
        self._stopping.set()

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
    *,
    holder: str | None = None,
    reviews: ReviewQueue | None = None,
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
        holder: The hash of the token that opened a seat's stream
            (:func:`~cuckoo_rules.web.seats.hash_token`): the stream ends as soon as
            that token no longer holds ``seat``.
        reviews: The server's reviews, whose progress and answer the stream pushes
            once the game is over (``None``: none).
    """
    stopping = anyio.Event()
    messages = table_messages(
        table, seat, after, language, stopping, rematch_wait, holder=holder, reviews=reviews
    )
    return EventStream(messages, release, ping, stopping)


async def table_messages(
    table: Table,
    seat: int | None,
    after: int,
    language: str,
    stopping: anyio.Event,
    rematch_wait: float,
    *,
    holder: str | None = None,
    reviews: ReviewQueue | None = None,
) -> AsyncIterator[ServerSentEvent]:
    """The messages of a table's push stream, until the stream ends or ``stopping``.

    Messages, each redacted for ``seat`` exactly as the table document is (it is built
    by :meth:`Table.document <cuckoo_rules.web.table.Table.document>`):

    - ``event: table``, no ``id``, ``data``: the table document with ``"events": []``
      and ``"narration": []``; first when the stream opens, then after the events of
      each change, and whenever the document changes otherwise (a bot starts to
      decide, a seat is claimed or joined, a rematch, the status);
    - ``event: game``, ``id: n``, ``data``: ``{"index": n, "event": {...},
      "narration": "..."}``, one per event from number ``after`` on, in order;
    - ``event: review``, no ``id``, once the game is over and someone asked for its
      review (:mod:`cuckoo_rules.web.reviews`): ``{"table", "status", "done",
      "total"}`` as it waits (``"queued"``) and is computed (``"computing"``, ``done``
      of ``total`` positions, as the worker tells them), or fails (``"failed"``, with
      ``"error"``); then, once ``"ready"``, the answer of ``GET
      /api/tables/{id}/review`` itself.

    Once the game is over and everything is sent, the stream waits up to
    ``rematch_wait`` seconds for a seat to start a rematch (and, beyond, while a review
    asked for is not ready), pushes the ``table`` message that names it and ends (an
    expired table's stream ends at once). The table
    wakes the stream when it changes (:meth:`Table.watch
    <cuckoo_rules.web.seats.TableSeats.watch>`), whichever thread or server process made the
    change.

    A seat's stream sends only what its token may read when it is sent: after building
    each batch of messages, and before sending any of it, the stream checks that the
    token (``holder``) still holds the seat, in memory and, with a shared store, in the
    store itself (another server process may have handed the seat over); if it does not,
    the stream ends without sending the batch.

    Args:
        table: The table.
        seat: The reader's seat, or ``None`` for a spectator.
        after: The number of the first event to send.
        language: The language of the documents and the narration.
        stopping: Set when the server shuts down.
        rematch_wait: Seconds to wait for a rematch once the game is over.
        holder: The hash of the token that opened a seat's stream; ``None`` for a
            spectator (or to check nothing).
        reviews: The server's reviews (``None``: no ``review`` messages).
    """
    loop = asyncio.get_running_loop()
    wake = asyncio.Event()

    def woken() -> None:  # called in the thread that changed the table
        loop.call_soon_threadsafe(wake.set)

    unwatch = table.watch(woken)
    unwatch_review = None if reviews is None else reviews.watch(table.id, woken)
    try:
        sent: dict[str, Any] | None = None
        next_event = after
        over_since: float | None = None
        review_sent: tuple[str, int, int] | None = None
        while True:
            wake.clear()  # a change from now on wakes the stream again
            document = table.document(seat, next_event, language)
            # Built, then checked: what the batch holds was built while the token held
            # the seat (a seat, once lost, is never held by the same token again).
            if seat is not None and holder is not None and not await _holds(table, seat, holder):
                return  # the seat was handed over: nothing more for this token
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
            reviewing = False
            if reviews is not None and document["status"] == "over":
                review = reviews.find(table.id)
                if review is not None and review.key != review_sent:
                    key = review.key  # (what it was when the message was built)
                    yield _message("review", await reviews.message(review, table, language))
                    review_sent = key
                reviewing = review is not None and review.pending
            if document["status"] != "open":
                # The game is over (or the table expired): no more moves. A finished
                # game's stream waits a while for a rematch, which it pushes, then ends
                # (not before a review asked for is pushed).
                if document["status"] != "over" or document["rematch"] is not None:
                    return
                if over_since is None:
                    over_since = loop.time()
                timeout = over_since + rematch_wait - loop.time()
                if timeout <= 0:
                    if not reviewing:
                        return
                    timeout = None
            await _woken(wake, stopping, timeout)  # a change, a timeout or the end
            if stopping.is_set():
                return  # the server shuts down
    finally:
        unwatch()
        if unwatch_review is not None:
            unwatch_review()


async def _holds(table: Table, seat: int, holder: str) -> bool:
    """Whether the token of hash ``holder`` holds ``seat`` now.

    In memory, then in a shared store (the truth, read in a worker thread).
    """
    if not table.holds(seat, holder):
        return False
    if table.store_shared:
        return await asyncio.to_thread(table.holds_stored, seat, holder)
    return True


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
