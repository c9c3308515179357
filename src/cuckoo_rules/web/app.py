"""The ASGI application of ``cuckoo-rules serve``: a JSON API and the browser client.

Routes (every API answer is JSON; every error is ``{"error": "<what and where>"}``):

- ``GET /``: the browser client (``static/index.html``); ``GET /static/...``: its files.
- ``GET /api/bots``: ``{"bots": ["random", "greedy", "ismcts"]}``, the bot kinds a seat
  may name.
- ``GET /api/meta``: ``{"options": [...], "species": [...], "win": {...}}``
  (:func:`meta_document`): every game option with what each of its values means, in the
  order of the JSON ``options`` object (the browser client builds its form of rule
  variants from it); every species in canonical order with its id, name, number of
  cards and flock sizes; and what a collection needs to win. The browser client holds
  no species table and no rule: it reads them here and in the table documents.
- ``POST /api/tables`` with ``{"seats": ["human", "greedy"], "options": {...},
  "seed": 42}`` (``options`` and ``seed`` optional; ``seed`` only with one human seat,
  as whoever chose it knows every hidden card): ``201`` and ``{"table": id, "seats":
  [...], "tokens": {"0": token}, "move": n, "deal": {"commitment": ..., ...}}``, one
  secret token per human seat, the move number the first action answers (bots may
  have played first) and the commitment to the deal (see
  :meth:`~cuckoo_rules.web.tables.Table.deal`).
- ``GET /api/tables/{id}[?after=N]``, with ``Authorization: Bearer <token>`` for a seat
  or without it for a spectator: ``{"table", "seat", "seats", "names", "move", "view",
  "outcome", "progress", "hand_flocks", "legal_actions", "previews", "events",
  "narration", "next_event"}`` (see :meth:`~cuckoo_rules.web.tables.Table.document`). The
  events of a table are numbered from 0; ``events`` holds those numbered ``N`` and up
  (all of them without ``after``), redacted for the seat, and ``next_event`` is the
  number of events so far, the ``after`` of the next request. ``N`` above
  ``next_event`` is refused (400).
- ``POST /api/tables/{id}/actions[?after=N]`` with the seat's token and ``{"action":
  {...}, "move": n}``: ``move`` is the ``move`` of the document the action answers; if
  the table is no longer at that move (a request sent twice, a retry after a timeout),
  the request is refused with 409, its body ``{"error": ..., "move": <the table's
  move>}``, and nothing is stored, so a move is played exactly once. Plays the action,
  lets the bots answer (each decision in a worker process, see
  :mod:`cuckoo_rules.web.bots`) until a human is to act or the game is over, then
  answers like the ``GET``.
- ``GET /api/tables/{id}/hint`` with the token of the seat to act: ``{"move": n,
  "simulations": s, "hints": [{"action": {...}, "text": "You lay ...", "win_chance":
  0.54}, ...]}`` (:func:`~cuckoo_rules.web.tables.encode_hint`), the expert's three best
  moves (:func:`cuckoo_rules.bots.expert.hint` with :data:`HINT_SIMULATIONS`
  simulations), computed from the seat's view and :meth:`Match.knowledge
  <cuckoo_rules.Match.knowledge>` only, in a worker thread, one search at a time. The
  last hint of each table is kept, so asking again at the same move costs nothing.

Statuses: 400 malformed request (or a ``Host`` not allowed), 401 missing or unknown
token, 404 unknown table or path, 405 wrong method, 409 not your turn, illegal action,
game over, an expired table or a stale ``move`` (the body then has the table's
``move``), 413 body over :data:`MAX_BODY` bytes, 415 a POST body not declared
``Content-Type: application/json``, 429 too many open tables (in all or for the
client's address, with ``Retry-After``), 500 server fault, 501 a hint without the
``batch`` extra, 503 the storage cannot take a write now (a full disk; with
``Retry-After``). Every accepted action is committed to the store before the answer is
sent; a refused request stores nothing. Every answer carries the headers of
:data:`cuckoo_rules.web.guard.SECURITY_HEADERS` (see :mod:`cuckoo_rules.web.guard`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

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
from .store import StorageUnavailable
from .tables import (
    EXPIRE_AFTER,
    MAX_OPEN_TABLES,
    MAX_OPEN_TABLES_PER_CLIENT,
    ApiError,
    BadRequest,
    Lobby,
    NotAvailable,
    PayloadTooLarge,
    Table,
    Unauthorized,
    encode_hint,
    parse_new_table,
)

__all__ = [
    "HINT_MOVES",
    "HINT_SIMULATIONS",
    "MAX_BODY",
    "STATIC_DIR",
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

_NO_HINT = (
    "hints need the expert, which needs the batch extra (NumPy and numba): "
    "pip install 'cuckoo-rules[batch]'"
)

STATIC_DIR = Path(__file__).resolve().parent / "static"
"""The browser client's files, served at ``/`` and ``/static/``."""

_logger = logging.getLogger(__name__)

_NO_STORE = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}
_AFTER = re.compile(r"[0-9]{1,15}")


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
) -> Starlette:
    """Return the web application, with every open table of ``db_path`` loaded.

    The database is created if missing. Open tables are rebuilt by replaying their
    stored actions (finished ones stay in the store until asked for), and bots that were
    to act when the server stopped act when the application starts. The database is
    closed, and the bots' workers stopped, when the application shuts down (its lifespan
    ends).

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

    Raises:
        ValueError: If a number is out of range, or ``allowed_hosts`` is not a sequence
            of host names.
        cuckoo_rules.web.store.StorageError: If a stored table does not replay, or
            another server holds the SQLite file.
        sqlite3.Error: If the file is not a usable database.

    Example:
        >>> app = create_app(":memory:")
        >>> [getattr(route, "path", None) for route in app.routes]
        ['/', '/api/bots', '/api/meta', '/api/tables', '/api/tables/{table_id}',
         '/api/tables/{table_id}/actions', '/api/tables/{table_id}/hint', '/static']
        >>> app.state.lobby.close()
    """
    hosts = AllowedHosts(allowed_hosts)
    if type(hint_simulations) is not int or hint_simulations < 1:
        raise ValueError(f"hint_simulations: expected a positive integer, got {hint_simulations!r}")
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
    api = _Api(lobby, runner, max_body, hint_simulations)

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
        Route("/api/tables", api.create_table, methods=["POST"]),
        Route("/api/tables/{table_id}", api.get_table, methods=["GET"]),
        Route("/api/tables/{table_id}/actions", api.post_action, methods=["POST"]),
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


class _Api:
    """The API endpoints, bound to one lobby and one bot runner."""

    def __init__(
        self, lobby: Lobby, runner: BotRunner, max_body: int, hint_simulations: int
    ) -> None:
        self.lobby = lobby
        self.runner = runner
        self.max_body = max_body
        self.hint_simulations = hint_simulations
        # One hint search at a time: each runs on every core.
        self._searching = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()
        self._stop_listening: Callable[[], None] | None = None

    async def start(self) -> None:
        """At start-up: the bots to act play, idle tables expire, moves elsewhere arrive."""
        for table in list(self.lobby.tables.values()):
            if table.bots_to_act():
                self._spawn(self._bots(table))
        self._spawn(self._expire())
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
        if self._stop_listening is not None:
            self._stop_listening()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await run_in_threadpool(self.runner.close)
        self.lobby.close()

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _bots(self, table: Table) -> None:
        """Let the bots of ``table`` act, if no move is being made there."""
        if table.bots_to_act() and not table.lock.locked():
            async with table.lock:
                await table.run_bots(self.runner)
            self.lobby.settle(table)

    async def _expire(self) -> None:
        """Expire idle tables now and then (every tenth of the expiry time, at most a minute)."""
        pause = min(60.0, self.lobby.expire_after / 10)
        while True:
            try:
                await run_in_threadpool(self.lobby.expire_idle)
            except StorageUnavailable as error:
                _logger.warning("could not expire idle tables: %s", error)
            await asyncio.sleep(pause)

    def _notified(self, table_id: str, index: int) -> None:
        """Another server process stored move ``index`` of a table: catch up with it."""
        table = self.lobby.tables.get(table_id)
        if table is not None and index >= table.match.move:
            self._spawn(self._catch_up(table))

    def _catch_up_all(self) -> None:
        for table in list(self.lobby.tables.values()):
            self._spawn(self._catch_up(table))

    async def _catch_up(self, table: Table) -> None:
        async with table.lock:
            await run_in_threadpool(table.catch_up)
        self.lobby.settle(table)

    async def _table(self, request: Request) -> Table:
        """The table of the request's path, up to date with the store."""
        table_id = request.path_params["table_id"]
        table = self.lobby.cached(table_id)  # in memory: no thread needed
        if table is None:  # read from the store, in a thread
            table = await run_in_threadpool(self.lobby.get, table_id)
        if self.lobby.store.shared and table.is_open:
            await self._catch_up(table)
        return table

    async def bots(self, request: Request) -> Response:
        return _json({"bots": list(BOT_KINDS)})

    async def create_table(self, request: Request) -> Response:
        new = parse_new_table(await self._body(request))
        client = request.client.host if request.client is not None else ""
        table, tokens = await run_in_threadpool(self.lobby.create, new, client)
        async with table.lock:
            await table.run_bots(self.runner)
        self.lobby.settle(table)
        document = {
            "table": table.id,
            "seats": list(table.setup.seats),
            "tokens": {str(seat): token for seat, token in tokens.items()},
            "move": table.move,
            "deal": table.deal(),
        }
        return _json(document, 201)

    async def get_table(self, request: Request) -> Response:
        table = await self._table(request)
        seat = table.seat_of(_token(request))
        after = _after(request, table)
        await self._bots(table)  # a bot's move not made yet (a restart, a full disk)
        return _json(table.document(seat, after))

    async def post_action(self, request: Request) -> Response:
        table = await self._table(request)
        seat = _seat_required(request, table, "to act")
        after = _after(request, table)
        action, move = _parse_move(await self._body(request))
        async with table.lock:
            await run_in_threadpool(table.play, seat, action, move)
            await table.run_bots(self.runner)
        self.lobby.settle(table)
        return _json(table.document(seat, after))

    async def get_hint(self, request: Request) -> Response:
        table = await self._table(request)
        seat = _seat_required(request, table, "for a hint")
        async with table.lock:  # no move meanwhile: the view and knowledge of one moment
            position = await run_in_threadpool(table.hint_position, seat)
        try:
            from ..bots.expert import hint
        except ModuleNotFoundError:
            raise NotAvailable(_NO_HINT) from None
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
                    table.hint = (key, encode_hint(position, found, self.hint_simulations))
        return _json(table.hint[1])

    async def _body(self, request: Request) -> object:
        """Read the body as JSON, refusing bodies over ``max_body`` bytes."""
        length = request.headers.get("content-length")
        if length is not None and length.isdigit() and int(length) > self.max_body:
            raise PayloadTooLarge(f"body: {length} bytes, more than the {self.max_body} accepted")
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > self.max_body:
                raise PayloadTooLarge(f"body: more than the {self.max_body} bytes accepted")
        if not body:
            raise BadRequest("body: empty; send a JSON object")
        try:
            return loads(body)
        except DecodeError as error:
            raise BadRequest(f"body: {error}") from None


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


def _seat_required(request: Request, table: Table, purpose: str) -> int:
    """The seat of the request's token; a missing token is refused (``purpose``: why)."""
    seat = table.seat_of(_token(request))
    if seat is None:
        raise Unauthorized(
            f"a seat's token is needed {purpose}: send 'Authorization: Bearer <token>'"
        )
    return seat


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
