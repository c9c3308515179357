"""The ASGI application of ``cuckoo-rules serve``: a JSON API and the browser client.

Routes (every API answer is JSON, but the stream's; every error is ``{"error": "<what and
where>"}``):

- ``GET /``: the browser client (``static/index.html``); ``GET /static/...``: its files.
- ``GET /api/bots``: ``{"bots": ["random", "greedy", "ismcts"]}``, the bot kinds a seat
  may name.
- ``GET /api/meta``: ``{"options": [...], "species": [...], "win": {...}}``
  (:func:`meta_document`): every game option with what each of its values means, in the
  order of the JSON ``options`` object (the browser client builds its form of rule
  variants from it); every species in canonical order with its id, name, number of
  cards and flock sizes; and what a collection needs to win. The browser client holds
  no species table and no rule: it reads them here and in the table documents.
- ``GET /api/phrases/{lang}``: ``{"language", "languages", "phrases"}``, every phrase of
  :data:`cuckoo_rules.narration.PHRASES` in that language (404 for another).
- ``GET /api/lobby``: ``{"tables": [...]}``, the open tables listed in the lobby with a
  free seat, newest first, at most 50
  (:func:`~cuckoo_rules.web.tables.encode_lobby_entry`).
- ``POST /api/tables`` with ``{"seats": ["human", "greedy"], "options": {...},
  "seed": 42, "names": ["Ada", null], "lobby": false}`` (all but ``seats`` optional;
  ``seed`` only with one human seat, as whoever chose it knows every hidden card):
  ``201`` and ``{"table": id, "seats": [...], "tokens": {"0": token}, "move": 0,
  "deal": {"commitment": ..., ...}, "names": [...]}``, one secret token per human seat
  (the creator holds the first), the move number the first action answers and the
  commitment to the deal (see :meth:`~cuckoo_rules.web.tables.Table.deal`). Bots that
  are to begin play in the background.
- ``GET /api/tables/{id}[?after=N][&lang=L]``, with ``Authorization: Bearer <token>``
  for a seat or without it for a spectator: the table document
  (:meth:`~cuckoo_rules.web.tables.Table.document`). The events of a table are
  numbered from 0; ``events`` holds those numbered ``N`` and up (all of them without
  ``after``), redacted for the seat, and ``next_event`` is the number of events so far,
  the ``after`` of the next request. ``N`` above ``next_event`` is refused (400).
  ``lang`` (``en`` by default, one of :data:`cuckoo_rules.narration.LANGUAGES`) is the
  language of the names, narration, outcome and notices.
- ``GET /api/tables/{id}/stream[?after=N][&lang=L]`` (or ``Last-Event-ID: N-1``), with
  the seat's token or none: a Server-Sent Events stream (see ``_Api.stream``) of the
  table's ``game`` events (one message per event, its ``id`` the event number) and
  ``table`` documents (after each action, and when who thinks, who sits where or the
  status changes), pings every :data:`STREAM_PING` seconds; once the game is over and
  everything is sent it waits up to :data:`STREAM_REMATCH_WAIT` seconds for a rematch,
  pushes it and ends.
- ``POST /api/tables/{id}/actions[?after=N][&lang=L]`` with the seat's token and
  ``{"action": {...}, "move": n}``: ``move`` is the ``move`` of the document the
  action answers; if the table is no longer at that move (a request sent twice, a
  retry after a timeout), the request is refused with 409, its body ``{"error": ...,
  "move": <the table's move>}``, and nothing is stored, so a move is played exactly
  once. Stores the action and answers like the ``GET`` at once: the bots that are to
  answer play afterwards in the background, one move at a time, each decision in a
  worker process (:mod:`cuckoo_rules.web.bots`), and their moves reach the stream as
  each is stored.
- ``POST /api/tables/{id}/join`` with ``{"name": "Ann"}`` (and optionally ``"seat":
  n``), no token: ``{"table", "seat", "token", "move"}``, a free human seat of a lobby
  table with a new token (403 if the table is not in the lobby, 409 if no seat or not
  that one is free).
- ``POST /api/tables/{id}/rematch`` with the token of a human seat, once the game is
  over: ``201`` and ``{"table": new_id, "move": 0, "deal": {...}}``, or ``200`` and
  the same for the rematch another seat started already; every token of the old table
  plays the same seat there (:meth:`~cuckoo_rules.web.tables.Lobby.rematch`).
- ``GET /api/tables/{id}/hint[?lang=L]`` with the token of the seat to act: ``{"move": n,
  "simulations": s, "hints": [{"action": {...}, "text": "You lay ...", "win_chance":
  0.54}, ...]}`` (:func:`~cuckoo_rules.web.tables.encode_hint`), the expert's three best
  moves (:func:`cuckoo_rules.bots.expert.hint` with :data:`HINT_SIMULATIONS`
  simulations), computed from the seat's view and :meth:`Match.knowledge
  <cuckoo_rules.Match.knowledge>` only, in a worker thread, one search at a time. The
  last hint of each table is kept, so asking again at the same move costs nothing.

Statuses: 400 malformed request (or a ``Host`` not allowed, or an unknown ``lang``),
401 missing or unknown token, 403 joining a table that is not in the lobby, 404 unknown
table, path or phrase language, 405 wrong method, 409 not your turn, illegal action,
game over, an expired table, a stale ``move`` (the body then has the table's ``move``),
a seat taken or a rematch before the end, 413 body over :data:`MAX_BODY` bytes, 415 a
POST body not declared ``Content-Type: application/json``, 429 too many open tables (in
all or for the client's address) or streams of one table (with ``Retry-After``), 500
server fault, 501 a hint without the ``batch`` extra, 503 the storage cannot take a
write now (a full disk) or too many streams in all (with ``Retry-After``). Every
accepted action is committed to the store before the answer is sent; a refused request
stores nothing. A seat's token used in a request that succeeds claims the seat (it is no
longer ``free``). Every answer carries the headers of
:data:`cuckoo_rules.web.guard.SECURITY_HEADERS` (see :mod:`cuckoo_rules.web.guard`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send

from .. import narration
from ..actions import Action
from ..bots.specs import BOT_KINDS
from ..cards import SPECIES
from ..codec import decode_action
from ..errors import DecodeError
from ..jsontext import loads
from ..options import option_info
from ..outcome import SPECIES_TO_WIN, TRIPLE, TRIPLES_TO_WIN
from .bots import BOT_TIMEOUT, BotRunner, ProcessBotRunner, ThreadBotRunner
from .guard import LOOPBACK_HOSTS, AllowedHosts, HttpGuard, echo
from .store import SEATS_CHANGED, StorageUnavailable
from .tables import (
    EXPIRE_AFTER,
    MAX_OPEN_TABLES,
    MAX_OPEN_TABLES_PER_CLIENT,
    ApiError,
    BadRequest,
    Lobby,
    NotAvailable,
    NotFound,
    PayloadTooLarge,
    ServiceUnavailable,
    Table,
    TooManyRequests,
    Unauthorized,
    encode_hint,
    encode_lobby_entry,
    parse_name,
    parse_new_table,
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

MAX_BODY = 64 * 1024
"""The largest request body accepted, in bytes (larger ones get 413)."""

HINT_SIMULATIONS = 3000
"""The budget of a hint's search, in simulations: the library's default for hints
(:data:`cuckoo_rules.bots.expert.DEFAULT_HINT_SIMULATIONS`, which a test checks it
equals; this module cannot import it, as the expert needs the ``batch`` extra). About
half a second on two cores; :func:`create_app` takes another."""

HINT_MOVES = 3
"""The moves a hint gives, best first."""

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

_NO_HINT = (
    "hints need the expert, which needs the batch extra (NumPy and numba): "
    "pip install 'cuckoo-rules[batch]'"
)

STATIC_DIR = Path(__file__).resolve().parent / "static"
"""The browser client's files, served at ``/`` and ``/static/``."""

_logger = logging.getLogger(__name__)

_NO_STORE = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}
_AFTER = re.compile(r"[0-9]{1,15}")
_RETRY_BOTS = (0.5, 30.0)  # seconds before a bot's move that could not be stored is retried


def create_app(
    db_path: str | os.PathLike[str],
    *,
    max_body: int = MAX_BODY,
    hint_simulations: int = HINT_SIMULATIONS,
    bot_runner: BotRunner | None = None,
    bot_workers: int = 2,
    bot_timeout: float = BOT_TIMEOUT,
    max_open: int = MAX_OPEN_TABLES,
    max_open_per_client: int = MAX_OPEN_TABLES_PER_CLIENT,
    expire_after: float = EXPIRE_AFTER,
    allowed_hosts: Sequence[str] = LOOPBACK_HOSTS,
    max_streams: int = MAX_STREAMS,
    max_streams_per_table: int = MAX_STREAMS_PER_TABLE,
    stream_ping: float = STREAM_PING,
    stream_rematch_wait: float = STREAM_REMATCH_WAIT,
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
        bot_runner: Where bot decisions run; by default a
            :class:`~cuckoo_rules.web.bots.ProcessBotRunner` of ``bot_workers``
            processes, each decision stopped after ``bot_timeout`` seconds.
        bot_workers: The worker processes of the default runner; 0 runs the bots in
            threads of the server's process instead
            (:class:`~cuckoo_rules.web.bots.ThreadBotRunner`: no isolation, a decision
            that overruns is abandoned but not stopped).
        bot_timeout: The longest one bot decision may take, in seconds.
        max_open: The most open tables in all.
        max_open_per_client: The most open tables one client address may have created.
        expire_after: Seconds without a move after which an open table expires.
        allowed_hosts: The ``Host`` names answered, on any port; other requests get 400
            (:class:`~cuckoo_rules.web.guard.AllowedHosts`: ``"*"`` allows any,
            ``"*.example.org"`` a domain and its subdomains). The loopback names by
            default.
        max_streams: The most push streams open in all (more get 503).
        max_streams_per_table: The most push streams open on one table (more get 429).
        stream_ping: Seconds between the pings of an idle push stream.
        stream_rematch_wait: Seconds a push stream stays open after its game is over,
            to push a rematch (0: it ends with the game).

    Raises:
        ValueError: If a number is out of range, or ``allowed_hosts`` is not a sequence
            of host names.
        cuckoo_rules.web.store.StorageError: If a stored table does not replay, or
            another server holds the SQLite file.
        sqlite3.Error: If the file is not a usable database.

    Example:
        >>> app = create_app(":memory:")
        >>> [getattr(route, "path", None) for route in app.routes]
        ['/', '/api/bots', '/api/meta', '/api/phrases/{language}', '/api/lobby', \
'/api/tables', '/api/tables/{table_id}', '/api/tables/{table_id}/stream', \
'/api/tables/{table_id}/actions', '/api/tables/{table_id}/join', \
'/api/tables/{table_id}/rematch', '/api/tables/{table_id}/hint', '/static']
        >>> app.state.lobby.close()
    """
    hosts = AllowedHosts(allowed_hosts)
    if type(hint_simulations) is not int or hint_simulations < 1:
        raise ValueError(f"hint_simulations: expected a positive integer, got {hint_simulations!r}")
    for name, value in (
        ("max_streams", max_streams),
        ("max_streams_per_table", max_streams_per_table),
    ):
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
    lobby = Lobby.open(
        db_path,
        max_open=max_open,
        max_open_per_client=max_open_per_client,
        expire_after=expire_after,
    )
    try:
        if bot_runner is not None:
            runner = bot_runner
        elif bot_workers == 0:
            runner = ThreadBotRunner(bot_timeout)
        else:
            runner = ProcessBotRunner(bot_workers, bot_timeout)
    except BaseException:
        lobby.close()
        raise
    streams = _Streams(max_streams, max_streams_per_table)
    api = _Api(
        lobby,
        runner,
        max_body,
        hint_simulations,
        streams,
        float(stream_ping),
        float(stream_rematch_wait),
    )

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await api.start()
        try:
            yield
        finally:
            await api.stop()

    routes: list[BaseRoute] = [
        Route("/", _index, methods=["GET"]),
        Route("/api/bots", api.bots, methods=["GET"]),
        Route("/api/meta", _meta, methods=["GET"]),
        Route("/api/phrases/{language}", _phrases, methods=["GET"]),
        Route("/api/lobby", api.list_lobby, methods=["GET"]),
        Route("/api/tables", api.create_table, methods=["POST"]),
        Route("/api/tables/{table_id}", api.get_table, methods=["GET"]),
        Route("/api/tables/{table_id}/stream", api.stream, methods=["GET"]),
        Route("/api/tables/{table_id}/actions", api.post_action, methods=["POST"]),
        Route("/api/tables/{table_id}/join", api.join, methods=["POST"]),
        Route("/api/tables/{table_id}/rematch", api.rematch, methods=["POST"]),
        Route("/api/tables/{table_id}/hint", api.get_hint, methods=["GET"]),
        Mount("/static", app=StaticFiles(directory=STATIC_DIR, check_dir=False), name="static"),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[Middleware(HttpGuard, allowed_hosts=hosts)],
        exception_handlers={
            ApiError: _api_error,
            StorageUnavailable: _storage_error,
            HTTPException: _http_error,
            Exception: _server_error,
        },
    )
    app.state.lobby = lobby
    app.state.api = api
    return app


def meta_document() -> dict[str, Any]:
    """Return the answer of ``GET /api/meta``: the options, the species, the win.

    - ``options``: :func:`cuckoo_rules.options.option_info` as JSON: one object per
      option, in the order of the JSON ``options`` object, with its ``name``,
      ``label``, ``description``, ``default`` (``null`` for the required
      ``num_players``) and ``choices``, each a ``{"value", "text"}`` object, the
      default first.
    - ``species``: :data:`cuckoo_rules.SPECIES` in canonical order, each
      ``{"id", "name", "copies", "small_flock", "big_flock"}`` (the JSON id, the English
      name, the cards of the species in the deck, and the cards a flock needs to fly
      home one bird or two).
    - ``win``: ``{"species": 7, "triples": 2, "triple": 3}``: a collection wins with 7
      species, or with 2 species of 3 cards or more (rules §3.3).

    Example:
        >>> meta = meta_document()
        >>> options = {o["name"]: o for o in meta["options"]}
        >>> options["refill_trigger"]["default"], options["num_players"]["default"]
        ('capture', None)
        >>> options["refill_trigger"]["choices"][0]
        {'value': 'capture', 'text': 'a capture'}
        >>> meta["species"][0]
        {'id': 'flamingo', 'name': 'Pink Flamingo', 'copies': 7, 'small_flock': 2, \
'big_flock': 3}
        >>> meta["win"]
        {'species': 7, 'triples': 2, 'triple': 3}
    """
    return {
        "options": [
            {
                "name": info.name,
                "label": info.label,
                "description": info.description,
                "default": info.default,
                "choices": [{"value": c.value, "text": c.text} for c in info.choices],
            }
            for info in option_info()
        ],
        "species": [
            {
                "id": species.value,
                "name": species.label,
                "copies": species.copies,
                "small_flock": species.small_flock,
                "big_flock": species.big_flock,
            }
            for species in SPECIES
        ],
        "win": {"species": SPECIES_TO_WIN, "triples": TRIPLES_TO_WIN, "triple": TRIPLE},
    }


async def _meta(request: Request) -> Response:
    return _json(meta_document())


async def _phrases(request: Request) -> Response:
    language = request.path_params["language"]
    if language not in narration.LANGUAGES:
        raise NotFound(
            f"no phrases in {_describe(language)}: this server speaks "
            f"{', '.join(narration.LANGUAGES)}"
        )
    return _json(
        {
            "language": language,
            "languages": list(narration.LANGUAGES),
            "phrases": dict(narration.PHRASES[language]),
        }
    )


class _Streams:
    """The push streams open: counted per table and in all, each within its limit."""

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


class _EventStream(EventSourceResponse):
    """A push stream that gives its place back (:meth:`_Streams.reserve`) however it ends.

    When the server shuts down, sse-starlette sets ``stopping``: the messages end, and
    the response is completed properly, within a second.
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
            headers=_NO_STORE,
            ping=ping,
            shutdown_event=stopping,
            shutdown_grace_period=1.0,
        )
        self._release = release

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:  # the client closed it, the game ended, the server stops, or a failure
            self._release()


class _Api:
    """The API endpoints, bound to one lobby and one bot runner."""

    def __init__(
        self,
        lobby: Lobby,
        runner: BotRunner,
        max_body: int,
        hint_simulations: int,
        streams: _Streams,
        stream_ping: float,
        stream_rematch_wait: float,
    ) -> None:
        self.lobby = lobby
        self.runner = runner
        self.max_body = max_body
        self.hint_simulations = hint_simulations
        self.streams = streams
        self.stream_ping = stream_ping
        self.stream_rematch_wait = stream_rematch_wait
        # One hint search at a time: each runs on every core.
        self._searching = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()
        self.bot_loops: dict[str, asyncio.Task[None]] = {}
        """The background task playing the bots of each table that has one running."""
        self._stopping = False
        self._stop_listening: Callable[[], None] | None = None

    async def start(self) -> None:
        """At start-up: the bots to act play, idle tables expire, moves elsewhere arrive."""
        for table in list(self.lobby.tables.values()):
            self._wake_bots(table)
        self._spawn(self._expire())
        self._spawn(self._revive())
        listen = getattr(self.lobby.store, "listen", None)
        if callable(listen):
            loop = asyncio.get_running_loop()

            def notified(table_id: str, index: int) -> None:
                loop.call_soon_threadsafe(self._notified, table_id, index)

            def reconnected() -> None:  # moves stored meanwhile were not notified
                loop.call_soon_threadsafe(self._catch_up_all)

            self._stop_listening = listen(notified, on_reconnect=reconnected)

    async def stop(self) -> None:
        """At shut-down: stop the background tasks and the bots' workers, close the store."""
        self._stopping = True
        if self._stop_listening is not None:
            self._stop_listening()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await run_in_threadpool(self.runner.close)
        self.lobby.close()

    def _spawn(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # ----------------------------------------------------------------- background

    def _wake_bots(self, table: Table) -> None:
        """Start the background task of ``table``'s bots, unless one runs or none is to act.

        One task per table at most: it plays the bots' moves one at a time until a human
        is to act, then ends. Its check that no bot is to act and its removal from
        :attr:`bot_loops` happen in one step of the event loop, so a move that makes a
        bot due afterwards always finds it gone and starts another.
        """
        if self._stopping or table.id in self.bot_loops or not table.bots_to_act():
            return
        table.expect_bot(self.runner)  # an answer built now says who thinks next
        self.bot_loops[table.id] = self._spawn(self._bots(table))

    async def _bots(self, table: Table) -> None:
        """Play the bots of ``table`` until a human is to act; retry a move not stored."""
        delay = _RETRY_BOTS[0]
        try:
            while True:
                try:
                    await table.run_bots(self.runner)
                except StorageUnavailable as error:
                    _logger.warning(
                        "table %s: a bot's move could not be stored (%s); trying again in %g s",
                        table.id,
                        error,
                        delay,
                    )
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, _RETRY_BOTS[1])
                    continue
                except Exception:
                    _logger.exception("table %s: the bots stopped", table.id)
                    return
                self.lobby.settle(table)
                return
        finally:
            if self.bot_loops.get(table.id) is asyncio.current_task():
                del self.bot_loops[table.id]

    async def _expire(self) -> None:
        """Expire idle tables now and then (every tenth of the expiry time, at most a minute)."""
        pause = min(60.0, self.lobby.expire_after / 10)
        while True:
            try:
                await run_in_threadpool(self.lobby.expire_idle)
            except StorageUnavailable as error:
                _logger.warning("could not expire idle tables: %s", error)
            await asyncio.sleep(pause)

    async def _revive(self) -> None:
        """Now and then, start the bots of tables where they are due but nobody plays them.

        That is a table whose bots' task failed, or, with a shared store, one whose bots
        another server process was playing when it stopped: nothing has moved there for
        longer than two tries of a decision take. (Were the other process only slow, the
        store would keep one copy of the move.)
        """
        stalled = 2 * self.runner.timeout + 1.0
        while True:
            await asyncio.sleep(min(5.0, stalled / 2))
            now = time.time()
            for table in list(self.lobby.tables.values()):
                if table.id not in self.bot_loops and now - table.updated > stalled:
                    self._wake_bots(table)

    def _notified(self, table_id: str, index: int) -> None:
        """Another server process stored move ``index`` of a table, or changed its seats."""
        table = self.lobby.cached(table_id)
        if table is None:
            return
        if index == SEATS_CHANGED:
            self._spawn(self._refresh_seats(table))
        elif index >= table.match.move:
            self._spawn(self._catch_up(table))

    def _catch_up_all(self) -> None:
        for table in list(self.lobby.tables.values()):
            self._spawn(self._catch_up(table))
            self._spawn(self._refresh_seats(table))

    async def _catch_up(self, table: Table) -> None:
        await table.locked(table.catch_up)
        self.lobby.settle(table)

    async def _refresh_seats(self, table: Table) -> None:
        try:
            await table.locked(table.refresh_seats)
        except StorageUnavailable as error:
            _logger.warning("table %s: could not read its seats: %s", table.id, error)

    # ----------------------------------------------------------------- helpers

    async def _table(self, request: Request) -> Table:
        """The table of the request's path, up to date with the store."""
        table_id = request.path_params["table_id"]
        table = self.lobby.cached(table_id)  # in memory: no thread needed
        if table is None:  # read from the store, in a thread
            table = await run_in_threadpool(self.lobby.get, table_id)
        if self.lobby.store.shared and table.is_open:
            await self._catch_up(table)
        return table

    async def _seat(self, request: Request, table: Table) -> int | None:
        """The seat of the request's token (``None`` without one).

        With a shared store, an unknown token may be one another server process just
        gave out (a join): the table reads its seats again before refusing it.

        Raises:
            Unauthorized: If the token is not one of the table's.
        """
        token = _token(request)
        try:
            return table.seat_of(token)
        except Unauthorized:
            if not self.lobby.store.shared:
                raise
        await self._refresh_seats(table)
        return table.seat_of(token)

    async def _seat_required(self, request: Request, table: Table, purpose: str) -> int:
        """The seat of the request's token; a missing token is refused (``purpose``: why)."""
        seat = await self._seat(request, table)
        if seat is None:
            raise Unauthorized(
                f"a seat's token is needed {purpose}: send 'Authorization: Bearer <token>'"
            )
        return seat

    async def _claim(self, table: Table, seat: int | None) -> None:
        """A request of ``seat``'s token succeeded: the seat is claimed, if it was free."""
        if seat is None or seat in table.claimed or not table.is_open:
            return
        try:
            await table.locked(table.claim, seat)
        except StorageUnavailable as error:  # the next request of the seat claims it
            _logger.warning("table %s: could not record seat %d claimed: %s", table.id, seat, error)

    async def _body(self, request: Request, *, required: bool = True) -> object:
        """Read the body as JSON, refusing bodies over ``max_body`` bytes.

        Without ``required``, an empty body gives ``None``.
        """
        length = request.headers.get("content-length")
        if length is not None and length.isdigit() and int(length) > self.max_body:
            raise PayloadTooLarge(f"body: {length} bytes, more than the {self.max_body} accepted")
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > self.max_body:
                raise PayloadTooLarge(f"body: more than the {self.max_body} bytes accepted")
        if not body:
            if not required:
                return None
            raise BadRequest("body: empty; send a JSON object")
        try:
            return loads(body)
        except DecodeError as error:
            raise BadRequest(f"body: {error}") from None

    # ----------------------------------------------------------------- endpoints

    async def bots(self, request: Request) -> Response:
        return _json({"bots": list(BOT_KINDS)})

    async def list_lobby(self, request: Request) -> Response:
        entries = await run_in_threadpool(self.lobby.lobby)
        return _json({"tables": [encode_lobby_entry(entry) for entry in entries]})

    async def create_table(self, request: Request) -> Response:
        new = parse_new_table(await self._body(request))
        client = request.client.host if request.client is not None else ""
        table, tokens = await run_in_threadpool(self.lobby.create, new, client)
        self._wake_bots(table)
        document = {
            "table": table.id,
            "seats": list(table.setup.seats),
            "tokens": {str(seat): token for seat, token in tokens.items()},
            "move": table.move,
            "deal": table.deal(),
            "names": list(table.players),
        }
        return _json(document, 201)

    async def get_table(self, request: Request) -> Response:
        table = await self._table(request)
        seat = await self._seat(request, table)
        after = _after(request, table)
        language = _language(request)
        self._wake_bots(table)  # a bot's move not made yet (a restart, a full disk)
        await self._claim(table, seat)
        return _json(table.document(seat, after, language))

    async def post_action(self, request: Request) -> Response:
        table = await self._table(request)
        seat = await self._seat_required(request, table, "to act")
        after = _after(request, table)
        language = _language(request)
        action, move = _parse_move(await self._body(request))
        await table.locked(table.play, seat, action, move)
        self.lobby.settle(table)
        await self._claim(table, seat)
        self._wake_bots(table)
        # Built before the bots' task runs: the human's move only, and who thinks next.
        return _json(table.document(seat, after, language))

    async def join(self, request: Request) -> Response:
        table = await self._table(request)
        name, wanted = _parse_join(await self._body(request))
        seat, token = await table.locked(table.join, name, wanted)
        return _json({"table": table.id, "seat": seat, "token": token, "move": table.move})

    async def rematch(self, request: Request) -> Response:
        table = await self._table(request)
        seat = await self._seat_required(request, table, "for a rematch")
        body = await self._body(request, required=False)
        if body is not None and body != {}:
            raise BadRequest(
                f"body: a rematch takes no fields: send {{}} or nothing, got {_describe(body)}"
            )
        client = request.client.host if request.client is not None else ""
        new, created = await table.locked(self.lobby.rematch, table, client)
        await self._claim(new, seat)  # the token asking plays that seat there
        self._wake_bots(new)
        document = {"table": new.id, "move": new.move, "deal": new.deal()}
        return _json(document, 201 if created else 200)

    async def get_hint(self, request: Request) -> Response:
        table = await self._table(request)
        seat = await self._seat_required(request, table, "for a hint")
        # No move meanwhile: the view and knowledge of one moment.
        position = await table.locked(table.hint_position, seat)
        try:
            from ..bots.expert import hint
        except ModuleNotFoundError:
            raise NotAvailable(_NO_HINT) from None
        language = _language(request)
        key = (seat, position.move)
        if table.hint is None or table.hint[0] != key:
            async with self._searching:
                if table.hint is None or table.hint[0] != key:  # not just found meanwhile
                    found = await run_in_threadpool(
                        hint,
                        position.view,
                        position.knowledge,
                        top=HINT_MOVES,
                        simulations=self.hint_simulations,
                    )
                    table.hint = (key, tuple(found))
        await self._claim(table, seat)
        return _json(encode_hint(position, table.hint[1], self.hint_simulations, language))

    async def stream(self, request: Request) -> Response:
        """``GET /api/tables/{id}/stream``: the table's events and documents, as they happen.

        A Server-Sent Events stream for the token's seat (a spectator without a token).
        Messages, each redacted for the seat exactly as the table document is (it is
        built by :meth:`~cuckoo_rules.web.tables.Table.document`):

        - ``event: table``, no ``id``, ``data``: the table document with ``"events":
          []`` and ``"narration": []``; first when the stream opens, then after the
          events of each change, and whenever the document changes otherwise (a bot
          starts to decide, a seat is claimed or joined, a rematch, the status);
        - ``event: game``, ``id: n``, ``data``: ``{"index": n, "event": {...},
          "narration": "..."}``, one per event from number ``after`` on (the
          ``after`` query parameter: the number of the first event not yet seen; or, as
          an ``EventSource`` resumes, the ``Last-Event-ID`` header: the ``id`` of the
          last event received, so the stream goes on from the next one), in order;
        - a comment every :data:`STREAM_PING` seconds without news.

        Once the game is over and everything is sent, the stream waits up to
        :data:`STREAM_REMATCH_WAIT` seconds for a seat to start a rematch, pushes the
        ``table`` message that names it and ends (an expired table's stream ends at
        once). The table wakes the stream when it changes (:meth:`Table.watch
        <cuckoo_rules.web.tables.Table.watch>`), whichever thread or server process
        made the change.
        """
        table = await self._table(request)
        seat = await self._seat(request, table)
        after = _stream_after(request, table)
        language = _language(request)
        release = self.streams.reserve(table.id)
        try:
            await self._claim(table, seat)
            stopping = anyio.Event()
            messages = _messages(table, seat, after, language, stopping, self.stream_rematch_wait)
            return _EventStream(messages, release, self.stream_ping, stopping)
        except BaseException:
            release()
            raise


async def _messages(
    table: Table,
    seat: int | None,
    after: int,
    language: str,
    stopping: anyio.Event,
    rematch_wait: float,
) -> AsyncIterator[ServerSentEvent]:
    """The messages of a push stream (see :meth:`_Api.stream`), until ``stopping``."""
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


def _parse_move(body: object) -> tuple[Action, int]:
    """Check the body of a move: ``{"action": <action document>, "move": n}``."""
    if not isinstance(body, dict) or set(body) != {"action", "move"}:
        raise BadRequest(
            'body: expected {"action": <action document>, "move": <move number>}, such as '
            '{"action": {"type": "pass"}, "move": 12} ("move" is the "move" of the table '
            f"document the action answers), got {_describe(body)}"
        )
    try:
        action = decode_action(body["action"])
    except DecodeError as error:
        raise BadRequest(str(error)) from None
    move = body["move"]
    if type(move) is not int or move < 0:
        raise BadRequest(
            "move: expected the move number the action answers (the table document's "
            f'"move", an integer from 0), got {_describe(move)}'
        )
    return action, move


def _parse_join(body: object) -> tuple[str, int | None]:
    """Check the body of a join: ``{"name": "Ann"}``, optionally with ``"seat": n``."""
    if not isinstance(body, dict) or not set(body) <= {"name", "seat"}:
        raise BadRequest(
            'body: expected {"name": <your name or null>} and optionally "seat": <a free '
            f"seat>, got {_describe(body)}"
        )
    name = parse_name(body.get("name"), "name")
    seat = body.get("seat")
    if seat is not None and (type(seat) is not int or seat < 0):
        raise BadRequest(f"seat: expected a seat number (an integer from 0), got {_describe(seat)}")
    return name, seat


def _language(request: Request) -> str:
    """The ``lang`` query parameter (``"en"`` by default): a narration language."""
    language = request.query_params.get("lang", "en")
    if language not in narration.LANGUAGES:
        raise BadRequest(
            f"lang: {_describe(language)} is not a language of this server (choose from "
            f"{', '.join(narration.LANGUAGES)})"
        )
    return language


def _stream_after(request: Request, table: Table) -> int:
    """The first event a stream sends: the one after ``Last-Event-ID``, else ``after`` (0).

    ``Last-Event-ID`` is, as Server-Sent Events define it, the ``id`` of the last event
    the client received; ``after`` the number of the first event it has not seen.
    """
    header = request.headers.get("last-event-id")
    if header is None:
        return _after(request, table)
    if not _AFTER.fullmatch(header.strip()):
        raise BadRequest(
            f"Last-Event-ID: {_describe(header)} is not an event number (an integer from 0: "
            "the id of the last event received)"
        )
    after = int(header) + 1
    if after > table.match.event_count:
        raise BadRequest(
            f"Last-Event-ID: {int(header)} is not an event of this table (it has "
            f"{table.match.event_count} events)"
        )
    return after


def _token(request: Request) -> str | None:
    """The bearer token of a request, or ``None`` without an ``Authorization`` header."""
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise Unauthorized("Authorization: expected 'Bearer <token>'")
    return token


def _after(request: Request, table: Table) -> int:
    """The ``after`` query parameter (default 0), checked against the table's events."""
    text = request.query_params.get("after")
    if text is None:
        return 0
    if not _AFTER.fullmatch(text):
        raise BadRequest(f"after: {_describe(text)} is not an event number (an integer from 0)")
    after = int(text)
    table.check_after(after)
    return after


def _describe(value: object) -> str:
    text = json.dumps(value) if isinstance(value, str | int | float | bool | None) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _json(document: dict[str, Any], status: int = 200) -> JSONResponse:
    return JSONResponse(document, status, headers=_NO_STORE)


async def _index(request: Request) -> Response:
    index = STATIC_DIR / "index.html"
    if not index.is_file():
        raise HTTPException(404, "the browser client is not installed (static/index.html)")
    return FileResponse(index, headers={"Cache-Control": "no-cache"})


async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    document: dict[str, Any] = {"error": str(exc)}
    if exc.move is not None:
        document["move"] = exc.move
    response = _json(document, exc.status)
    if exc.status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="cuckoo-rules"'
    if exc.retry_after is not None:
        response.headers["Retry-After"] = str(exc.retry_after)
    return response


async def _storage_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StorageUnavailable)
    _logger.warning("storage unavailable: %s", exc)
    response = _json({"error": str(exc)}, 503)
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


async def _server_error(request: Request, exc: Exception) -> Response:
    # Starlette re-raises the exception afterwards, for the server to log it.
    return JSONResponse({"error": "internal server error"}, 500)
