"""The ASGI application of ``cuckoo-rules serve``: a JSON API and the browser client.

:func:`create_app` opens the lobby (:class:`~cuckoo_rules.web.lobby.Lobby`) and the bot
runner (:mod:`cuckoo_rules.web.bots`), and assembles the application: the routes of
:mod:`cuckoo_rules.web.routes` (which lists the API), bound to one
:class:`~cuckoo_rules.web.service.Service` that also runs the background tasks; the HTTP
guard (:class:`~cuckoo_rules.web.guard.HttpGuard`); and the handlers that turn errors
into JSON answers (every error is ``{"error": "<what and where>"}``, with the status of
its :class:`~cuckoo_rules.web.errors.ApiError`, 503 and ``Retry-After`` for a store that
cannot take a write now, 500 for a fault of the server; a client that leaves before its
request is read is one line of the log, not a traceback).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response

from .bots import BOT_TIMEOUT, BotRunner, ProcessBotRunner, ThreadBotRunner
from .documents import error_text, json_response, meta_document, request_language
from .errors import ApiError, StorageUnavailable
from .guard import (
    IPV4_PREFIX,
    IPV6_PREFIX,
    LOOPBACK_HOSTS,
    AllowedHosts,
    HttpGuard,
    check_prefixes,
    echo,
)
from .lobby import (
    EXPIRE_AFTER,
    EXPIRE_UNPLAYED,
    MAX_OPEN_TABLES,
    MAX_OPEN_TABLES_PER_CLIENT,
    TABLES_PER_MINUTE,
    TABLES_PER_MINUTE_TOTAL,
    Lobby,
)
from .reviews import ReviewQueue
from .routes import HINT_MOVES, STATIC_DIR, routes
from .service import Service
from .shares import HINT_QUEUE, HINT_QUEUE_PER_CLIENT, HintQueue
from .streams import (
    MAX_STREAMS,
    MAX_STREAMS_PER_CLIENT,
    MAX_STREAMS_PER_SEAT,
    MAX_STREAMS_PER_TABLE,
    STREAM_PING,
    STREAM_REMATCH_WAIT,
    Streams,
)

__all__ = [
    "HINT_MOVES",
    "HINT_SIMULATIONS",
    "MAX_BODY",
    "MAX_STREAMS",
    "MAX_STREAMS_PER_TABLE",
    "STATIC_DIR",
    "STREAM_PING",
    "STREAM_REMATCH_WAIT",
    "create_app",
    "meta_document",
]
# HINT_MOVES, MAX_STREAMS, MAX_STREAMS_PER_TABLE, STATIC_DIR, STREAM_PING,
# STREAM_REMATCH_WAIT and meta_document are defined beside (routes, streams, documents)
# and named here too, where they were first.

MAX_BODY = 64 * 1024
"""The largest request body accepted, in bytes (larger ones get 413)."""

HINT_SIMULATIONS = 3000
"""The budget of a hint's search, in simulations: the library's default for hints
(:data:`cuckoo_rules.bots.expert.DEFAULT_HINT_SIMULATIONS`, which a test checks it
equals; this module cannot import it, as the expert needs the ``batch`` extra). About
half a second on two cores; :func:`create_app` takes another."""

_logger = logging.getLogger(__name__)


def create_app(
    db_path: str | os.PathLike[str],
    *,
    max_body: int = MAX_BODY,
    hint_simulations: int = HINT_SIMULATIONS,
    hint_queue: int = HINT_QUEUE,
    hint_queue_per_client: int = HINT_QUEUE_PER_CLIENT,
    bot_runner: BotRunner | None = None,
    bot_workers: int = 2,
    bot_timeout: float = BOT_TIMEOUT,
    max_open: int = MAX_OPEN_TABLES,
    max_open_per_client: int = MAX_OPEN_TABLES_PER_CLIENT,
    expire_after: float = EXPIRE_AFTER,
    expire_unplayed: float = EXPIRE_UNPLAYED,
    tables_per_minute: float = TABLES_PER_MINUTE,
    tables_per_minute_total: float = TABLES_PER_MINUTE_TOTAL,
    allowed_hosts: Sequence[str] = LOOPBACK_HOSTS,
    max_streams: int = MAX_STREAMS,
    max_streams_per_table: int = MAX_STREAMS_PER_TABLE,
    max_streams_per_client: int = MAX_STREAMS_PER_CLIENT,
    max_streams_per_seat: int = MAX_STREAMS_PER_SEAT,
    ipv4_prefix: int = IPV4_PREFIX,
    ipv6_prefix: int = IPV6_PREFIX,
    stream_ping: float = STREAM_PING,
    stream_rematch_wait: float = STREAM_REMATCH_WAIT,
    review_simulations: int | None = None,
) -> Starlette:
    """Return the web application, with every open table of ``db_path`` loaded.

    The database is created if missing. Open tables are rebuilt by replaying their
    stored actions (finished ones stay in the store until asked for), and bots that were
    to act when the server stopped act when the application starts. Bots play in
    background tasks of the application, which need its lifespan to run (uvicorn runs
    it; Starlette's test client runs it when used as a context manager). The database
    is closed, and the bots' workers stopped, when the application shuts down (its
    lifespan ends).

    Args:
        db_path: The SQLite file (``":memory:"`` for a throwaway server), or a
            ``postgresql://`` URL (several server processes may share it).
        max_body: The largest request body accepted, in bytes.
        hint_simulations: The budget of each hint's search, in simulations.
        hint_queue: The most hint searches waiting their turn, in all (more get 429).
        hint_queue_per_client: The most hint searches of one client waiting their
            turn (more get 429).
        bot_runner: Where bot decisions run; by default a
            :class:`~cuckoo_rules.web.bots.ProcessBotRunner` of ``bot_workers``
            processes, each decision stopped after ``bot_timeout`` seconds.
        bot_workers: The worker processes of the default runner; 0 runs the bots in
            threads of the server's process instead
            (:class:`~cuckoo_rules.web.bots.ThreadBotRunner`: no isolation, a decision
            that overruns is abandoned but not stopped).
        bot_timeout: The longest one bot decision may take, in seconds.
        max_open: The most open tables in all.
        max_open_per_client: The most open tables one client may have created.
        expire_after: Seconds without a move after which an open table expires.
        expire_unplayed: Seconds without a move after which an open table where no
            human seat has moved yet expires.
        tables_per_minute: The tables one client may create a minute (and at once).
        tables_per_minute_total: The tables all clients may create a minute.
        allowed_hosts: The ``Host`` names answered, on any port; other requests get 400
            (:class:`~cuckoo_rules.web.guard.AllowedHosts`: ``"*"`` allows any,
            ``"*.example.org"`` a domain and its subdomains). The loopback names by
            default.
        max_streams: The most spectators' push streams open in all (more get 503).
        max_streams_per_table: The most spectators' push streams open on one table
            (more get 429).
        max_streams_per_client: The most spectators' push streams one client keeps open
            (more get 429).
        max_streams_per_seat: The most push streams of one seat's token (one more ends
            the oldest): seats' streams never wait for spectators'.
        ipv4_prefix: The bits of an IPv4 address that name a client (every loopback
            address is one client): :func:`~cuckoo_rules.web.guard.client_key`.
        ipv6_prefix: The bits of an IPv6 address that name a client.
        stream_ping: Seconds between the pings of an idle push stream.
        stream_rematch_wait: Seconds a push stream stays open after its game is over,
            to push a rematch (0: it ends with the game).
        review_simulations: The budget of each review of a finished game
            (:mod:`cuckoo_rules.web.reviews`); ``None`` for the library's default
            (:data:`cuckoo_rules.bots.review.DEFAULT_REVIEW_SIMULATIONS`).

    Raises:
        ValueError: If a number is out of range, or ``allowed_hosts`` is not a sequence
            of host names.
        cuckoo_rules.web.errors.StorageError: If a stored table does not replay, or
            another server holds the SQLite file.
        sqlite3.Error: If the file is not a usable database.

    Example:
        >>> app = create_app(":memory:")
        >>> [getattr(route, "path", None) for route in app.routes]
        ['/', '/api/bots', '/api/meta', '/api/phrases/{language}', '/api/lobby', \
'/api/tables', '/api/tables/{table_id}', '/api/tables/{table_id}/stream', \
'/api/tables/{table_id}/actions', '/api/tables/{table_id}/join', \
'/api/tables/{table_id}/accept', '/api/tables/{table_id}/handover', \
'/api/tables/{table_id}/rematch', '/api/tables/{table_id}/hint', \
'/api/tables/{table_id}/review', '/api/tables/{table_id}/review', '/static']
        >>> app.state.lobby.close()
    """
    hosts = AllowedHosts(allowed_hosts)
    _check_numbers(
        hint_simulations,
        {
            "max_streams": max_streams,
            "max_streams_per_table": max_streams_per_table,
            "hint_queue": hint_queue,
            "hint_queue_per_client": hint_queue_per_client,
        },
        stream_ping,
        stream_rematch_wait,
    )
    check_prefixes(ipv4_prefix, ipv6_prefix)
    hints = HintQueue(hint_queue, hint_queue_per_client)
    streams = Streams(
        max_streams, max_streams_per_table, max_streams_per_client, max_streams_per_seat
    )
    lobby = Lobby.open(
        db_path,
        max_open=max_open,
        max_open_per_client=max_open_per_client,
        expire_after=expire_after,
        expire_unplayed=expire_unplayed,
        tables_per_minute=tables_per_minute,
        tables_per_minute_total=tables_per_minute_total,
    )
    try:
        runner = _bot_runner(bot_runner, bot_workers, bot_timeout)
    except BaseException:
        lobby.close()
        raise
    try:
        reviews = ReviewQueue(runner, lobby.store, review_simulations)
    except BaseException:
        runner.close()
        lobby.close()
        raise
    service = Service(
        lobby,
        runner,
        max_body,
        hint_simulations,
        streams,
        float(stream_ping),
        float(stream_rematch_wait),
        hints,
        reviews,
    )
    service.client_prefixes = (ipv4_prefix, ipv6_prefix)
    app = Starlette(
        routes=routes(service),
        lifespan=service.lifespan,
        middleware=[Middleware(HttpGuard, allowed_hosts=hosts)],
        exception_handlers=_HANDLERS,
    )
    app.state.lobby = lobby
    app.state.api = service
    return app


def _check_numbers(
    hint_simulations: int,
    counts: dict[str, int],
    stream_ping: float,
    stream_rematch_wait: float,
) -> None:
    """Refuse the numbers of :func:`create_app` that are out of range (``ValueError``).

    ``counts`` are limits that must be positive integers, by argument name.
    """
    if type(hint_simulations) is not int or hint_simulations < 1:
        raise ValueError(f"hint_simulations: expected a positive integer, got {hint_simulations!r}")
    for name, value in counts.items():
        if type(value) is not int or value < 1:
            raise ValueError(f"{name}: expected a positive integer, got {value!r}")
    if not isinstance(stream_ping, int | float) or not 0 < stream_ping <= 3600:
        raise ValueError(
            f"stream_ping: expected a number of seconds in (0, 3600], got {stream_ping!r}"
        )
    if not isinstance(stream_rematch_wait, int | float) or not 0 <= stream_rematch_wait <= 86400:
        raise ValueError(
            "stream_rematch_wait: expected a number of seconds in [0, 86400], got "
            f"{stream_rematch_wait!r}"
        )


def _bot_runner(given: BotRunner | None, workers: int, timeout: float) -> BotRunner:
    """The runner given, else one of ``workers`` processes, or of threads for 0."""
    if given is not None:
        return given
    if workers == 0:
        return ThreadBotRunner(timeout)
    return ProcessBotRunner(workers, timeout)


async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    # In the request's language when the error has a phrase (the browser client sends
    # its language in Accept-Language); the English message otherwise.
    language = request_language(
        request.query_params.get("lang"), request.headers.get("accept-language")
    )
    text = error_text(exc, language)
    document: dict[str, Any] = {"error": text}
    if exc.move is not None:
        document["move"] = exc.move
    response = json_response(document, exc.status)
    response.headers["Content-Language"] = language if text != str(exc) else "en"
    if exc.status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="cuckoo-rules"'
    if exc.retry_after is not None:
        response.headers["Retry-After"] = str(exc.retry_after)
    return response


async def _storage_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StorageUnavailable)
    _logger.warning("storage unavailable: %s", exc)
    response = json_response({"error": str(exc)}, 503)
    response.headers["Retry-After"] = str(exc.retry_after)
    return response


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if exc.status_code == 404 and exc.detail == "Not Found":
        message = f"no {echo(request.method)} {echo(request.url.path)}"
    elif exc.status_code == 405:
        message = f"{echo(request.method)} is not allowed on {echo(request.url.path)}"
    else:
        message = exc.detail
    return JSONResponse({"error": message}, exc.status_code, headers=exc.headers)


async def _client_left(request: Request, exc: Exception) -> Response:
    # The client closed the connection before sending its whole body: nobody is left to
    # answer, and nothing failed here. One line, not a traceback.
    assert isinstance(exc, ClientDisconnect)
    _logger.warning(
        "%s %s: the client left before sending its whole request",
        echo(request.method),
        echo(request.url.path),
    )
    return Response(status_code=400)  # never sent: the connection is gone


async def _server_error(request: Request, exc: Exception) -> Response:
    # Starlette re-raises the exception afterwards, for the server to log it.
    return JSONResponse({"error": "internal server error"}, 500)


_HANDLERS: dict[Any, Callable[[Request, Exception], Coroutine[Any, Any, Response]]] = {
    ApiError: _api_error,
    StorageUnavailable: _storage_error,
    HTTPException: _http_error,
    ClientDisconnect: _client_left,
    Exception: _server_error,
}
