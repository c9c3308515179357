"""How ``cuckoo-rules serve`` runs the application: connections, time limits, files, logs.

uvicorn speaks HTTP; this module adds what a server open to strangers needs and uvicorn
does not do by itself (:func:`server_config` puts it together):

- **Time limits** (:class:`ConnectionLimits`, :func:`protocol_class`): a request's
  headers must arrive within ``header_timeout`` seconds of its first byte (of the
  connection, for the first request), and its body within ``body_timeout`` seconds of
  its headers. A client too slow is answered 408 and dropped, so half-sent requests
  cannot hold the server's connections (uvicorn closes idle kept-alive connections, but
  has no limit on a request that is still arriving).
- **Open files**: :func:`raise_open_files` raises the soft limit of open files
  (``RLIMIT_NOFILE``) to the hard one at start, and a connection beyond
  ``max_connections`` (:func:`connection_budget`: the limit, less the files open now and
  a reserve kept for the bot workers and the store) is answered 503 and closed at once,
  before the last descriptors are gone: the server never runs out of them.
  :class:`Server` accepts at most :data:`ACCEPTS_AT_ONCE` connections in one turn of
  the event loop (asyncio accepts as many as uvicorn's backlog, 2,048, before the first
  is refused and closed), so that those being refused fit in the reserve.
- **Logs a flood cannot fill** (:class:`LogLimit`): at most a few lines a minute of each
  kind from uvicorn, asyncio and this module, then one line saying how many were left
  out. (Out of descriptors, asyncio logs a traceback for every try to accept a
  connection: 442 MB in 25 s.)
- **Who the client is**: uvicorn believes ``X-Forwarded-For`` from 127.0.0.1 by default,
  which lets anyone on the machine pass for any address; here only the proxies named
  (``serve --trust-proxy``) are believed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
from collections.abc import Callable, Sequence
from typing import Any

import attrs
import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from .guard import SECURITY_HEADERS

__all__ = [
    "ACCEPTS_AT_ONCE",
    "BODY_TIMEOUT",
    "FD_RESERVE",
    "FD_RESERVE_PER_WORKER",
    "HEADER_TIMEOUT",
    "LISTEN_BACKLOG",
    "LOG_LINES_PER_MINUTE",
    "ConnectionLimits",
    "LogLimit",
    "Server",
    "connection_budget",
    "limit_logs",
    "open_files",
    "protocol_class",
    "raise_open_files",
    "server_config",
]

HEADER_TIMEOUT = 10.0
"""Seconds a request's headers may take to arrive (``serve --header-timeout``)."""

BODY_TIMEOUT = 15.0
"""Seconds a request's body may take to arrive after its headers (``serve --body-timeout``)."""

FD_RESERVE = 64
"""Descriptors kept free for the store, files and the bot workers, beyond those open at
start, plus :data:`FD_RESERVE_PER_WORKER` per bot worker (``serve --fd-reserve``)."""

FD_RESERVE_PER_WORKER = 8
"""Descriptors kept free for each bot worker (its pipes and process handle, restarts)."""

LOG_LINES_PER_MINUTE = 10
"""Lines of one kind logged a minute, at most (``serve --log-lines-per-minute``)."""

ACCEPTS_AT_ONCE = 16
"""The connections :class:`Server` accepts in one turn of the event loop."""

LISTEN_BACKLOG = 2048
"""The connections the system queues for the server to accept (``listen``'s backlog)."""

_IN_FLIGHT = 4 * ACCEPTS_AT_ONCE
"""Descriptors of connections accepted and not yet closed or counted: a few turns'."""

_logger = logging.getLogger(__name__)

_LIMITED_LOGGERS = ("asyncio", "uvicorn.error", __name__)
"""The loggers :func:`limit_logs` limits: what a flood of connections makes them say."""


@attrs.frozen
class ConnectionLimits:
    """The limits of every connection of a server (:func:`protocol_class`).

    Attributes:
        header_timeout: Seconds a request's headers may take, from their first byte (from
            the connection, for its first request).
        body_timeout: Seconds a request's body may take, from its headers.
        max_connections: The most connections open at once; one more gets 503 and is
            closed (``None``: no limit).
    """

    header_timeout: float = HEADER_TIMEOUT
    body_timeout: float = BODY_TIMEOUT
    max_connections: int | None = None

    def __attrs_post_init__(self) -> None:
        for name in ("header_timeout", "body_timeout"):
            value = getattr(self, name)
            if not isinstance(value, int | float) or not 0 < value <= 3600:
                raise ValueError(f"{name}: expected seconds in (0, 3600], got {value!r}")
        most = self.max_connections
        if most is not None and (type(most) is not int or most < 1):
            raise ValueError(f"max_connections: expected a positive integer, got {most!r}")


def _raw_answer(status: int, phrase: str, extra: Sequence[tuple[str, str]] = ()) -> bytes:
    """A whole HTTP/1.1 answer with no body that closes the connection."""
    headers = [*extra, ("Content-Length", "0"), ("Connection", "close")]
    headers += list(SECURITY_HEADERS.items())
    lines = [f"HTTP/1.1 {status} {phrase}", *(f"{name}: {value}" for name, value in headers)]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


_TIMED_OUT = _raw_answer(408, "Request Timeout")
_FULL = _raw_answer(503, "Service Unavailable", [("Retry-After", "5")])
_MALFORMED = _raw_answer(400, "Bad Request")


class _LimitedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with :class:`ConnectionLimits` (:func:`protocol_class`)."""

    limits = ConnectionLimits()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._refused = False
        self._timer: asyncio.TimerHandle | None = None
        self._phase = ""  # "headers" or "body": what the timer waits for

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Take the connection, or answer 503 and close it if the server has too many."""
        most = self.limits.max_connections
        if most is not None and len(self.connections) >= most:
            self._refused = True
            _logger.warning(
                "refused a connection: %d are open, the most this server's open-file limit "
                "allows (raise it, or lower the streams' limits)",
                len(self.connections),
            )
            assert isinstance(transport, asyncio.Transport)
            transport.write(_FULL)
            transport.close()
            return
        super().connection_made(transport)  # type: ignore[arg-type]
        self._start("headers", self.limits.header_timeout)

    def connection_lost(self, exc: Exception | None) -> None:
        """Forget the connection (and its timer)."""
        self._stop()
        if not self._refused:
            super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        """Read what came; time the request's headers, then its body."""
        if self._refused:
            return
        super().data_received(data)
        self._watch()

    def on_response_complete(self) -> None:
        """An answer was sent: the next request (kept alive, pipelined) is timed too."""
        super().on_response_complete()
        if not self.transport.is_closing():
            self._watch()

    def _watch(self) -> None:
        """Time what the request still has to send: its headers, its body, or nothing."""
        state = self.conn.their_state
        if state is h11.IDLE:  # the next request's headers: not all here yet
            if self._phase != "headers":
                self._start("headers", self.limits.header_timeout)
        elif state is h11.SEND_BODY:
            if self._phase != "body":
                self._start("body", self.limits.body_timeout)
        else:  # the whole request is here (or the connection is ending)
            self._stop()

    def _start(self, phase: str, seconds: float) -> None:
        self._stop()
        self._phase = phase
        self._timer = self.loop.call_later(seconds, self._timed_out)

    def _stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = None
        self._phase = ""

    def _timed_out(self) -> None:
        """The request is too slow: answer 408 (unless answered already) and close."""
        phase, self._timer, self._phase = self._phase, None, ""
        if self.transport.is_closing():
            return
        seconds = self.limits.header_timeout if phase == "headers" else self.limits.body_timeout
        client = f"{self.client[0]}:{self.client[1]}" if self.client else "a client"
        _logger.warning("dropped a slow client (%s): its %s took over %g s", client, phase, seconds)
        cycle = self.cycle
        if phase == "headers" or cycle is None or not cycle.response_started:
            self.transport.write(_TIMED_OUT)
        self.transport.close()

    def send_400_response(self, msg: str) -> None:
        """Answer a request uvicorn cannot parse: 400 with the security headers, and close.

        uvicorn's own answer has none of the application's headers (it never reaches
        the application); uvicorn has logged ``msg`` already.
        """
        self.transport.write(_MALFORMED)
        self.transport.close()


def protocol_class(limits: ConnectionLimits) -> type[asyncio.Protocol]:
    """Return uvicorn's h11 protocol with ``limits`` on every connection.

    Pass it to ``uvicorn.Config(http=...)`` (:func:`server_config` does).
    """
    return type("LimitedH11Protocol", (_LimitedH11Protocol,), {"limits": limits})


def raise_open_files() -> tuple[int, int] | None:
    """Raise the soft limit of open files (``RLIMIT_NOFILE``) to the hard limit.

    Where the hard limit is "unlimited", or the system refuses it, the highest of a few
    smaller values that it takes.

    Returns:
        The soft limit before and after, or ``None`` where there is no such limit
        (Windows).
    """
    try:
        import resource
    except ImportError:  # pragma: no cover - not on Windows
        return None
    kind = resource.RLIMIT_NOFILE
    soft, hard = resource.getrlimit(kind)
    wanted = [hard] if hard != resource.RLIM_INFINITY else []
    wanted += [value for value in (1 << 20, 1 << 16, 10240) if value < hard or not wanted]
    for value in wanted:
        if soft != resource.RLIM_INFINITY and value <= soft:
            break
        try:
            resource.setrlimit(kind, (value, hard))
        except (ValueError, OSError):
            continue
        return soft, value
    return soft, soft


def open_files() -> int | None:
    """The number of descriptors this process has open, or ``None`` if unknown."""
    for folder in ("/proc/self/fd", "/dev/fd"):
        try:
            return max(len(os.listdir(folder)) - 1, 0)  # less the listing's own
        except OSError:
            continue
    return None  # pragma: no cover - Linux and macOS have one of them


def connection_budget(reserve: int) -> int | None:
    """The most connections to take: the open-file limit less those open and ``reserve``.

    Args:
        reserve: Descriptors to keep free for the store, files and the bot workers.

    Returns:
        That number (at least 1), or ``None`` where the limit is unknown or unlimited.
        Also kept free: the descriptors of connections being accepted (four times
        :data:`ACCEPTS_AT_ONCE`).
    """
    try:
        import resource
    except ImportError:  # pragma: no cover - not on Windows
        return None
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if soft == resource.RLIM_INFINITY:
        return None
    used = open_files()
    return max(soft - reserve - _IN_FLIGHT - (64 if used is None else used), 1)


class LogLimit(logging.Filter):
    """A logging filter that lets at most ``lines`` records of each kind through a period.

    A kind is the logger and the first line of the record's message (its format, before
    the arguments are put in). The last record let through in a period says that more
    will be left out, and the first of the next says how many were.

    Args:
        lines: The records of one kind let through a period.
        period: The period, in seconds.
        clock: The clock (:func:`time.monotonic`).

    Example:
        >>> now = [0.0]
        >>> limit = LogLimit(2, 60, clock=lambda: now[0])
        >>> record = lambda: logging.LogRecord("x", 30, "", 0, "refused %s", ("a",), None)
        >>> [limit.filter(record()) for _ in range(4)]
        [True, True, False, False]
        >>> now[0] = 61.0
        >>> later = record()
        >>> limit.filter(later), later.getMessage()
        (True, 'refused a (2 more like this in the last 60 s were not logged)')
    """

    _KINDS = 1000  # kinds remembered at most (forgotten all at once beyond)

    def __init__(
        self,
        lines: int = LOG_LINES_PER_MINUTE,
        period: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        if type(lines) is not int or lines < 1:
            raise ValueError(f"lines: expected a positive integer, got {lines!r}")
        self.lines = lines
        self.period = period
        self._clock = clock
        self._kinds: dict[tuple[str, str], list[float]] = {}  # [start, let through, left out]

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether to log ``record`` (its message may say what was left out)."""
        key = (record.name, str(record.msg).partition("\n")[0][:200])
        now = self._clock()
        kind = self._kinds.get(key)
        if kind is None or now - kind[0] >= self.period:
            if len(self._kinds) >= self._KINDS:
                self._kinds.clear()
            left_out = 0 if kind is None else int(kind[2])
            self._kinds[key] = kind = [now, 0, 0]
            if left_out:
                record.msg = (
                    f"{record.msg} ({left_out} more like this in the last {self.period:g} s "
                    "were not logged)"
                )
        if kind[1] >= self.lines:
            kind[2] += 1
            return False
        kind[1] += 1
        if kind[1] == self.lines:
            record.msg = f"{record.msg} (more like this are not logged for {self.period:g} s)"
        return True


def limit_logs(lines: int = LOG_LINES_PER_MINUTE) -> LogLimit:
    """Limit what uvicorn, asyncio and this module log to ``lines`` a minute of each kind.

    Call it after uvicorn has configured logging (after ``uvicorn.Config(...)``).

    Returns:
        The filter, added to each of those loggers.
    """
    limit = LogLimit(lines)
    for name in _LIMITED_LOGGERS:
        logging.getLogger(name).addFilter(limit)
    return limit


def server_config(
    app: Any,
    limits: ConnectionLimits,
    *,
    trusted_proxies: Sequence[str] = (),
    log_lines_per_minute: int = LOG_LINES_PER_MINUTE,
    **options: Any,
) -> uvicorn.Config:
    """The uvicorn configuration of ``cuckoo-rules serve``, with the limits of this module.

    Args:
        app: The application (:func:`~cuckoo_rules.web.create_app`).
        limits: The limits of every connection.
        trusted_proxies: The addresses whose ``X-Forwarded-For`` and
            ``X-Forwarded-Proto`` are believed (none by default: the client is the
            address connecting).
        log_lines_per_minute: Lines of one kind logged a minute (:func:`limit_logs`).
        **options: Other arguments of ``uvicorn.Config``.
    """
    config = uvicorn.Config(
        app,
        http=protocol_class(limits),
        proxy_headers=bool(trusted_proxies),
        forwarded_allow_ips=list(trusted_proxies) or None,
        backlog=ACCEPTS_AT_ONCE,  # the most accepted in a turn (:class:`Server`)
        **options,
    )
    limit_logs(log_lines_per_minute)
    return config


class Server(uvicorn.Server):
    """uvicorn's server, accepting at most :data:`ACCEPTS_AT_ONCE` connections at once.

    asyncio accepts up to its ``backlog`` connections in one turn of the event loop, and
    uses the same number for the system's queue (``listen``): the configuration of
    :func:`server_config` gives :data:`ACCEPTS_AT_ONCE`, and once the server listens
    this sets the system's queue back to :data:`LISTEN_BACKLOG`.
    """

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        """Listen (on ``sockets``, if given), with the system's queue as long as before."""
        await super().startup(sockets)
        for server in getattr(self, "servers", ()):
            for listening in server.sockets:  # asyncio's wrappers, which cannot listen
                with (
                    contextlib.suppress(OSError),
                    socket.socket(fileno=os.dup(listening.fileno())) as sock,
                ):
                    sock.listen(LISTEN_BACKLOG)
