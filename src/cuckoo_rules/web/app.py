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
  "seed": 42}`` (``options`` and ``seed`` optional): ``201`` and ``{"table": id,
  "seats": [...], "tokens": {"0": token}}``, one secret token per human seat.
- ``GET /api/tables/{id}[?after=N]``, with ``Authorization: Bearer <token>`` for a seat
  or without it for a spectator: ``{"table", "seat", "seats", "names", "move", "view",
  "outcome", "progress", "hand_flocks", "legal_actions", "previews", "events",
  "narration", "next_event"}`` (see :meth:`~cuckoo_rules.web.tables.Table.document`). The
  events of a table are numbered from 0; ``events`` holds those numbered ``N`` and up
  (all of them without ``after``), redacted for the seat, and ``next_event`` is the
  number of events so far, the ``after`` of the next request. ``N`` above
  ``next_event`` is refused (400).
- ``POST /api/tables/{id}/actions[?after=N]`` with the seat's token and ``{"action":
  {...}, "move": n}`` (``move`` optional: the ``move`` of the document answered; if
  the table is no longer at that move, for a request sent twice, it is refused with 409
  and nothing is stored): plays the action, lets the bots answer until a human is to
  act or the game is over, then answers like the ``GET``.
- ``GET /api/tables/{id}/hint`` with the token of the seat to act: ``{"move": n,
  "simulations": s, "hints": [{"action": {...}, "text": "You lay ...", "win_chance":
  0.54}, ...]}`` (:func:`~cuckoo_rules.web.tables.encode_hint`), the expert's three best
  moves (:func:`cuckoo_rules.bots.expert.hint` with :data:`HINT_SIMULATIONS`
  simulations), computed from the seat's view and :meth:`Match.knowledge
  <cuckoo_rules.Match.knowledge>` only, in a worker thread, one search at a time. The
  last hint of each table is kept, so asking again at the same move costs nothing.

Statuses: 400 malformed request, 401 missing or unknown token, 404 unknown table or
path, 405 wrong method, 409 not your turn, illegal action, game over or a stale
``move``, 413 body over
:data:`MAX_BODY` bytes, 500 server fault, 501 a hint without the ``batch`` extra. Every
accepted action is committed to the SQLite file before the answer is sent; a refused
request stores nothing.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
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
from .tables import (
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

_NO_STORE = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}
_AFTER = re.compile(r"[0-9]{1,15}")


def create_app(
    db_path: str | os.PathLike[str],
    *,
    max_body: int = MAX_BODY,
    hint_simulations: int = HINT_SIMULATIONS,
) -> Starlette:
    """Return the web application, with every table of ``db_path`` loaded.

    The database is created if missing. Tables are rebuilt by replaying their stored
    actions, and bots that were to act when the server stopped act now. The database is
    closed when the application shuts down (its lifespan ends).

    Args:
        db_path: The SQLite file (``":memory:"`` for a throwaway server).
        max_body: The largest request body accepted, in bytes.
        hint_simulations: The budget of each hint's search, in simulations.

    Raises:
        ValueError: If ``hint_simulations`` is not a positive integer.
        cuckoo_rules.web.store.StorageError: If a stored table does not replay.
        sqlite3.Error: If the file is not a usable database.

    Example:
        >>> app = create_app(":memory:")
        >>> [getattr(route, "path", None) for route in app.routes]
        ['/', '/api/bots', '/api/meta', '/api/tables', '/api/tables/{table_id}',
         '/api/tables/{table_id}/actions', '/api/tables/{table_id}/hint', '/static']
        >>> app.state.lobby.close()
    """
    if type(hint_simulations) is not int or hint_simulations < 1:
        raise ValueError(f"hint_simulations: expected a positive integer, got {hint_simulations!r}")
    lobby = Lobby.open(db_path)
    api = _Api(lobby, max_body, hint_simulations)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            lobby.close()

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
        exception_handlers={
            ApiError: _api_error,
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
    """The API endpoints, bound to one lobby."""

    def __init__(self, lobby: Lobby, max_body: int, hint_simulations: int) -> None:
        self.lobby = lobby
        self.max_body = max_body
        self.hint_simulations = hint_simulations
        # One hint search at a time: each runs on every core.
        self._searching = asyncio.Lock()
        # The last hint of each table: (seat, move) and its document.
        self._hints: dict[str, tuple[tuple[int, int], dict[str, Any]]] = {}

    async def bots(self, request: Request) -> Response:
        return _json({"bots": list(BOT_KINDS)})

    async def create_table(self, request: Request) -> Response:
        new = parse_new_table(await self._body(request))
        table, tokens = await run_in_threadpool(self.lobby.create, new)
        document = {
            "table": table.id,
            "seats": list(table.setup.seats),
            "tokens": {str(seat): token for seat, token in tokens.items()},
        }
        return _json(document, 201)

    async def get_table(self, request: Request) -> Response:
        table = self.lobby.get(request.path_params["table_id"])
        seat = table.seat_of(_token(request))
        after = _after(request, table)
        if table.bots_to_act() and not table.lock.locked():  # a bot's move was not stored
            async with table.lock:
                await run_in_threadpool(table.run_bots)
        return _json(table.document(seat, after))

    async def post_action(self, request: Request) -> Response:
        table = self.lobby.get(request.path_params["table_id"])
        seat = _seat_required(request, table, "to act")
        after = _after(request, table)
        action, move = _parse_move(await self._body(request))
        async with table.lock:
            await run_in_threadpool(table.play, seat, action, move)
        return _json(table.document(seat, after))

    async def get_hint(self, request: Request) -> Response:
        table = self.lobby.get(request.path_params["table_id"])
        seat = _seat_required(request, table, "for a hint")
        async with table.lock:  # no move meanwhile: the view and knowledge of one moment
            position = await run_in_threadpool(table.hint_position, seat)
        try:
            from ..bots.expert import hint
        except ModuleNotFoundError:
            raise NotAvailable(_NO_HINT) from None
        key = (seat, position.move)
        kept = self._hints.get(table.id)
        if kept is None or kept[0] != key:
            async with self._searching:
                kept = self._hints.get(table.id)  # a search just finished may be this one
                if kept is None or kept[0] != key:
                    found = await run_in_threadpool(
                        hint,
                        position.view,
                        position.knowledge,
                        top=HINT_MOVES,
                        simulations=self.hint_simulations,
                    )
                    kept = (key, encode_hint(position, found, self.hint_simulations))
                    self._hints[table.id] = kept
        return _json(kept[1])

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


def _parse_move(body: object) -> tuple[Action, int | None]:
    """Check the body of a move: ``{"action": <action document>, "move": n}``."""
    if not isinstance(body, dict) or "action" not in body or not set(body) <= {"action", "move"}:
        raise BadRequest(
            'body: expected {"action": <action document>, "move": <move number>} ("move" '
            'optional), such as {"action": {"type": "pass"}, "move": 12}, got '
            f"{_describe(body)}"
        )
    try:
        action = decode_action(body["action"])
    except DecodeError as error:
        raise BadRequest(str(error)) from None
    move = body.get("move")
    if move is not None and (type(move) is not int or move < 0):
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
    response = _json({"error": str(exc)}, exc.status)
    if exc.status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="cuckoo-rules"'
    return response


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if exc.status_code == 404 and exc.detail == "Not Found":
        message = f"no {request.method} {request.url.path}"
    elif exc.status_code == 405:
        message = f"{request.method} is not allowed on {request.url.path}"
    else:
        message = exc.detail
    return JSONResponse({"error": message}, exc.status_code, headers=exc.headers)


async def _server_error(request: Request, exc: Exception) -> Response:
    # Starlette re-raises the exception afterwards, for the server to log it.
    return JSONResponse({"error": "internal server error"}, 500)
