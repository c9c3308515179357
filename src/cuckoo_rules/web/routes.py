"""The routes of ``cuckoo-rules serve``: its JSON API and the browser client.

Routes (every API answer is JSON, but the stream's; every error is ``{"error": "<what
and where>"}``):

- ``GET /``: the browser client (``static/index.html``); ``GET /static/...``: its files.
- ``GET /api/bots``: ``{"bots": ["random", "greedy", "ismcts"]}``, the bot kinds a seat
  may name.
- ``GET /api/meta``: ``{"options": [...], "species": [...], "win": {...}, "hints":
  true}`` (:func:`~cuckoo_rules.web.documents.meta_document`): every game option with
  what each of its values means, in the order of the JSON ``options`` object (the browser
  client builds its form of rule variants from it); every species in canonical order with
  its id, name, number of cards and flock sizes; what a collection needs to win; and
  whether this server gives hints (:func:`hints_available`: the ``batch`` extra is
  installed; the browser client shows no Hint button without it). The browser client
  holds no species table and no rule: it reads them here and in the table documents.
- ``GET /api/phrases/{lang}``: ``{"language", "languages", "phrases"}``, every phrase of
  :data:`cuckoo_rules.narration.PHRASES` in that language (404 for another).
- ``GET /api/lobby``: ``{"tables": [...]}``, the open tables listed in the lobby with a
  free seat, newest first, at most 50
  (:func:`~cuckoo_rules.web.documents.encode_lobby_entry`).
- ``POST /api/tables`` with ``{"seats": ["human", "greedy"], "options": {...}, "seed":
  42, "names": ["Ada", null], "lobby": false}`` (all but ``seats`` optional; ``seed``
  only with one human seat, as whoever chose it knows every hidden card): ``201`` and
  ``{"table": id, "seats": [...], "tokens": {"0": token}, "invitations": {"2": code},
  "move": 0, "deal": {"commitment": ..., ...}, "names": [...]}``: the creator's token
  (the first human seat, which the creator holds), one invitation per other human seat
  (not a token: it buys that seat once, ``POST .../accept``), the move number the first
  action answers and the commitment to the deal (see
  :meth:`~cuckoo_rules.web.table.Table.deal`). Bots that are to begin play in the
  background.
- ``GET /api/tables/{id}[?after=N][&lang=L]``, with ``Authorization: Bearer <token>``
  for a seat or without it for a spectator: the table document
  (:meth:`~cuckoo_rules.web.table.Table.document`). The events of a table are numbered
  from 0; ``events`` holds those numbered ``N`` and up (all of them without ``after``),
  redacted for the seat, and ``next_event`` is the number of events so far, the
  ``after`` of the next request. ``N`` above ``next_event`` is refused (400). ``lang``
  (``en`` by default, one of :data:`cuckoo_rules.narration.LANGUAGES`) is the language
  of the names, narration, outcome and notices.
- ``GET /api/tables/{id}/stream[?after=N][&lang=L]`` (or ``Last-Event-ID: N-1``), with
  the seat's token or none: a Server-Sent Events stream
  (:func:`~cuckoo_rules.web.streams.table_messages`) of the table's ``game`` events (one
  message per event, its ``id`` the event number) and ``table`` documents (after each
  action, and when who thinks, who sits where or the status changes), pings every
  :data:`~cuckoo_rules.web.streams.STREAM_PING` seconds; once the game is over and
  everything is sent it waits up to
  :data:`~cuckoo_rules.web.streams.STREAM_REMATCH_WAIT` seconds for a rematch, pushes it
  and ends.
- ``POST /api/tables/{id}/actions[?after=N][&lang=L]`` with the seat's token and
  ``{"action": {...}, "move": n}``: ``move`` is the ``move`` of the document the action
  answers; if the table is no longer at that move (a request sent twice, a retry after a
  timeout), the request is refused with 409, its body ``{"error": ..., "move": <the
  table's move>}``, and nothing is stored, so a move is played exactly once. Stores the
  action and answers like the ``GET`` at once: the bots that are to answer play
  afterwards in the background, one move at a time, each decision in a worker process
  (:mod:`cuckoo_rules.web.bots`), and their moves reach the stream as each is stored.
- ``POST /api/tables/{id}/join`` with ``{"name": "Ann"}`` (and optionally ``"seat":
  n``), no token: ``{"table", "seat", "token", "move"}``, a free human seat of a lobby
  table with a new token (403 if the table is not in the lobby, 409 if no seat or not
  that one is free); the seat's invitation dies.
- ``POST /api/tables/{id}/accept`` with ``{"invitation": code}`` (and optionally
  ``"name": "Ann"``), no token: ``{"table", "seat", "token", "move"}``, the invitation's
  seat with a new token, once (:meth:`~cuckoo_rules.web.seats.TableSeats.exchange`): the
  invitation is dead from then on, in every server process (409 for an invitation used
  or unknown, or a game over).
- ``POST /api/tables/{id}/handover`` with a seat's token (the body ``{}`` or none):
  ``{"table", "seat", "invitation", "move"}``; the token stops working at once, in every
  server process and push stream, and the seat is free with that new invitation
  (:meth:`~cuckoo_rules.web.seats.TableSeats.hand_over`; 409 once the game is over).
- ``POST /api/tables/{id}/rematch`` with the token of a human seat, once the game is
  over: ``201`` and ``{"table": new_id, "move": 0, "deal": {...}}``, or ``200`` and the
  same for the rematch another seat started already; every token holding a seat of the
  old table holds the same seat there, and a free seat's invitation invites to it too
  (:meth:`~cuckoo_rules.web.lobby.Lobby.rematch`).
- ``GET /api/tables/{id}/hint[?lang=L]`` with the token of the seat to act: ``{"move":
  n, "simulations": s, "hints": [{"action": {...}, "text": "You lay ...", "win_chance":
  0.54}, ...]}`` (:func:`~cuckoo_rules.web.documents.encode_hint`), the expert's three
  best moves (:func:`cuckoo_rules.bots.expert.hint` with
  :data:`~cuckoo_rules.web.app.HINT_SIMULATIONS` simulations), computed from the seat's
  view and :meth:`Match.knowledge <cuckoo_rules.Match.knowledge>` only, in a worker
  thread, one search at a time, in turns per client and table
  (:class:`~cuckoo_rules.web.shares.HintQueue`: one search per seat, a bounded queue,
  no search for a client that has gone). The last hint of each table is kept, so asking
  again at the same move costs nothing.
- ``POST /api/tables/{id}/review[?lang=L]`` (a seat's token or none; the body ``{}`` or
  none), once the game is over: ``200`` and the review (as the ``GET``) if it is ready,
  else ``202`` and ``{"table", "status": "queued" or "computing", "done", "total"}``:
  the expert's review of the game (:func:`cuckoo_rules.bots.review.review` with the
  server's budget, ``serve --review-simulations``), computed once per table on the bot
  workers in the turns of the request's client and kept in the store
  (:mod:`cuckoo_rules.web.reviews`); the stream pushes its progress and then the review
  itself (``event: review``). ``GET /api/tables/{id}/review[?lang=L]``: ``{"table",
  "status": "ready", "simulations", "review": {...}, "costliest": [...]}``
  (:func:`~cuckoo_rules.web.reviews.encode_answer`: the review document and each
  seat's costliest moves, with the position that seat saw and what the better move
  was); 404 while there is none ready, 409 while the game is on (a review shows every
  seat's decisions), 429 beyond the reviews waiting (in all or of the client), 501
  without the ``batch`` extra.

Statuses: 400 malformed request (or a ``Host`` not allowed, or an unknown ``lang``), 401
missing or unknown token, 403 joining a table that is not in the lobby, 404 unknown
table, path or phrase language, 405 wrong method, 409 not your turn, illegal action,
game over, an expired table, a stale ``move`` (the body then has the table's ``move``),
a seat taken or a rematch before the end, 413 body over
:data:`~cuckoo_rules.web.app.MAX_BODY` bytes, 415 a POST body not declared
``Content-Type: application/json``, 429 too many open tables (in all or for the
client), too many tables created this minute, or too many spectators' streams of one
table or one client, or too many hints waiting (in all or of the client) or the seat's
hint of an earlier move being searched (with ``Retry-After``), 500 server fault, 501 a
hint without the ``batch`` extra, 503 the storage cannot take a write now (a full disk) or too many
spectators' streams in all (with ``Retry-After``). A client is a network
(:func:`~cuckoo_rules.web.guard.client_key`). Every accepted action is committed to
the store before the answer is sent; a refused request stores nothing. A token holds
its seat until it is handed over; a seat is ``free`` until its invitation is exchanged
(or it is joined). Every answer
carries the headers of :data:`cuckoo_rules.web.guard.SECURITY_HEADERS` (see
:mod:`cuckoo_rules.web.guard`).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from .. import narration
from ..bots.specs import BOT_KINDS
from .documents import encode_hint, encode_lobby_entry, json_response, meta_document
from .errors import BadRequest, NotAvailable, NotFound
from .parsing import (
    after_param,
    bearer_token,
    language_param,
    last_event_id,
    parse_accept,
    parse_join,
    parse_move,
    parse_new_table,
    quote_json,
)
from .reviews import not_ready
from .seats import hash_token
from .service import Service
from .streams import open_stream
from .table import Table

__all__ = ["HINT_MOVES", "STATIC_DIR", "hints_available", "routes"]

HINT_MOVES = 3
"""The moves a hint gives, best first."""

STATIC_DIR = Path(__file__).resolve().parent / "static"
"""The browser client's files, served at ``/`` and ``/static/``."""

_NO_HINT = (
    "hints need the expert, which needs the batch extra (NumPy and numba): "
    "pip install 'cuckoo-rules[batch]'"
)


def hints_available() -> bool:
    """Whether this server can give hints: the expert's ``batch`` extra is installed.

    That is NumPy and numba. ``GET /api/meta`` says so (``"hints"``), and without them
    a hint is 501.

    Example:
        >>> hints_available() in (True, False)
        True
    """
    return all(importlib.util.find_spec(name) is not None for name in ("numpy", "numba"))


def routes(service: Service) -> list[BaseRoute]:
    """The routes of the application, each bound to ``service``, in the order they match.

    Args:
        service: What the routes share (the lobby, the bot runner, the limits).
    """
    api = _Endpoints(service)
    return [
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
        Route("/api/tables/{table_id}/accept", api.accept, methods=["POST"]),
        Route("/api/tables/{table_id}/handover", api.handover, methods=["POST"]),
        Route("/api/tables/{table_id}/rematch", api.rematch, methods=["POST"]),
        Route("/api/tables/{table_id}/hint", api.get_hint, methods=["GET"]),
        Route("/api/tables/{table_id}/review", api.post_review, methods=["POST"]),
        Route("/api/tables/{table_id}/review", api.get_review, methods=["GET"]),
        Mount("/static", app=StaticFiles(directory=STATIC_DIR, check_dir=False), name="static"),
    ]


async def _index(request: Request) -> Response:
    index = STATIC_DIR / "index.html"
    if not index.is_file():
        raise HTTPException(404, "the browser client is not installed (static/index.html)")
    return FileResponse(index, headers={"Cache-Control": "no-cache"})


async def _meta(request: Request) -> Response:
    return json_response({**meta_document(), "hints": hints_available()})


async def _phrases(request: Request) -> Response:
    language = request.path_params["language"]
    if language not in narration.LANGUAGES:
        raise NotFound(
            f"no phrases in {quote_json(language)}: this server speaks "
            f"{', '.join(narration.LANGUAGES)}"
        )
    return json_response(
        {
            "language": language,
            "languages": list(narration.LANGUAGES),
            "phrases": dict(narration.PHRASES[language]),
        }
    )


def _after(request: Request, table: Table) -> int:
    """The ``after`` query parameter (default 0), checked against the table's events."""
    after = after_param(request)
    table.check_after(after)
    return after


class _Endpoints:
    """The API's endpoints, bound to one :class:`~cuckoo_rules.web.service.Service`."""

    def __init__(self, service: Service) -> None:
        self.service = service

    async def bots(self, request: Request) -> Response:
        return json_response({"bots": list(BOT_KINDS)})

    async def list_lobby(self, request: Request) -> Response:
        entries = await run_in_threadpool(self.service.lobby.lobby)
        return json_response({"tables": [encode_lobby_entry(entry) for entry in entries]})

    async def create_table(self, request: Request) -> Response:
        new = parse_new_table(await self.service.body(request))
        client = self.service.client(request)
        created = await run_in_threadpool(self.service.lobby.create, new, client)
        table, tokens, invitations = created
        self.service.wake_bots(table)
        document = {
            "table": table.id,
            "seats": list(table.setup.seats),
            "tokens": {str(seat): token for seat, token in tokens.items()},
            "invitations": {str(seat): code for seat, code in invitations.items()},
            "move": table.move,
            "deal": table.deal(),
            "names": list(table.players),
        }
        return json_response(document, 201)

    async def get_table(self, request: Request) -> Response:
        table = await self.service.table(request)
        seat = await self.service.seat(request, table)
        after = _after(request, table)
        language = language_param(request)
        self.service.wake_bots(table)  # a bot's move not made yet (a restart, a full disk)
        await self.service.claim(table, seat)
        return json_response(table.document(seat, after, language))

    async def post_action(self, request: Request) -> Response:
        table = await self.service.table(request)
        seat = await self.service.seat_required(request, table, "to act")
        after = _after(request, table)
        language = language_param(request)
        action, move = parse_move(await self.service.body(request))
        await table.locked(table.play, seat, action, move)
        self.service.lobby.settle(table)
        await self.service.claim(table, seat)
        self.service.wake_bots(table)
        # Built before the bots' task runs: the human's move only, and who thinks next.
        return json_response(table.document(seat, after, language))

    async def join(self, request: Request) -> Response:
        table = await self.service.table(request)
        name, wanted = parse_join(await self.service.body(request))
        seat, token = await table.locked(table.join, name, wanted)
        return json_response({"table": table.id, "seat": seat, "token": token, "move": table.move})

    async def accept(self, request: Request) -> Response:
        """``POST /api/tables/{id}/accept``: an invitation exchanged for its seat's token."""
        table = await self.service.table(request)
        invitation, name = parse_accept(await self.service.body(request))
        seat, token = await table.locked(table.exchange, invitation, name)
        return json_response({"table": table.id, "seat": seat, "token": token, "move": table.move})

    async def handover(self, request: Request) -> Response:
        """``POST /api/tables/{id}/handover``: the holder gives the seat up for an invitation."""
        table = await self.service.table(request)
        seat = await self.service.seat_required(request, table, "to hand a seat over")
        body = await self.service.body(request, required=False)
        if body is not None and body != {}:
            raise BadRequest(
                f"body: a hand-over takes no fields: send {{}} or nothing, got {quote_json(body)}"
            )
        token = bearer_token(request)
        assert token is not None  # a seat was found for it
        invitation = await table.locked(table.hand_over, seat, token)
        document = {"table": table.id, "seat": seat, "invitation": invitation, "move": table.move}
        return json_response(document)

    async def rematch(self, request: Request) -> Response:
        table = await self.service.table(request)
        seat = await self.service.seat_required(request, table, "for a rematch")
        body = await self.service.body(request, required=False)
        if body is not None and body != {}:
            raise BadRequest(
                f"body: a rematch takes no fields: send {{}} or nothing, got {quote_json(body)}"
            )
        client = self.service.client(request)
        new, created = await table.locked(self.service.lobby.rematch, table, client)
        await self.service.claim(new, seat)  # the token asking plays that seat there
        self.service.wake_bots(new)
        document = {"table": new.id, "move": new.move, "deal": new.deal()}
        return json_response(document, 201 if created else 200)

    async def get_hint(self, request: Request) -> Response:
        table = await self.service.table(request)
        seat = await self.service.seat_required(request, table, "for a hint")
        # No move meanwhile: the view and knowledge of one moment.
        position = await table.locked(table.hint_position, seat)
        if not hints_available():
            raise NotAvailable(_NO_HINT)
        try:
            from ..bots.expert import hint
        except ModuleNotFoundError:
            raise NotAvailable(_NO_HINT) from None
        language = language_param(request)
        simulations = self.service.hint_simulations
        found = await self.service.hint(  # in its turn, per client (the request's) and table
            request,
            table,
            seat,
            position,
            lambda view, knowledge: hint(view, knowledge, top=HINT_MOVES, simulations=simulations),
        )
        await self.service.claim(table, seat)
        return json_response(encode_hint(position, found, simulations, language))

    async def post_review(self, request: Request) -> Response:
        """``POST /api/tables/{id}/review``: the review of a finished game, or its start.

        200 and the review if it is ready (computed before, kept); else 202 and its
        progress, the review being queued in the turns of the request's client (one per
        table: a second request joins the first).
        """
        table = await self.service.table(request)
        await self.service.seat(request, table)  # a token given must hold a seat
        language = language_param(request)
        body = await self.service.body(request, required=False)
        if body is not None and body != {}:
            raise BadRequest(
                f"body: a review takes no fields: send {{}} or nothing, got {quote_json(body)}"
            )
        reviews = self.service.reviews
        review = await reviews.request(table, self.service.client(request))
        if review.status == "ready":
            return json_response(await reviews.answer(review, table, language))
        return json_response(review.progress(), 202)

    async def get_review(self, request: Request) -> Response:
        """``GET /api/tables/{id}/review``: a finished game's review, once ready (404 before)."""
        table = await self.service.table(request)
        await self.service.seat(request, table)  # a token given must hold a seat
        language = language_param(request)
        reviews = self.service.reviews
        review = await reviews.load(table)
        if review is None or review.status != "ready":
            raise not_ready(review)
        return json_response(await reviews.answer(review, table, language))

    async def stream(self, request: Request) -> Response:
        """``GET /api/tables/{id}/stream``: the table's events and documents, as they happen.

        A Server-Sent Events stream for the token's seat (a spectator without a token)
        of the table's ``table`` documents and ``game`` events
        (:func:`~cuckoo_rules.web.streams.table_messages` says which and when), from
        event number ``after`` on: the ``after`` query parameter (the number of the
        first event not yet seen) or, as an ``EventSource`` resumes, the
        ``Last-Event-ID`` header (the ``id`` of the last event received, so the stream
        goes on from the next one); a comment every
        :data:`~cuckoo_rules.web.streams.STREAM_PING` seconds without news. The streams
        are counted (:class:`~cuckoo_rules.web.streams.Streams`): a seat's own stream
        always has a place (a third of the same seat ends the oldest); a spectator's
        beyond the spectators' limits is refused with 503 or 429.
        """
        service = self.service
        table = await service.table(request)
        seat = await service.seat(request, table)
        token = bearer_token(request)  # the stream ends once it no longer holds the seat
        after = last_event_id(request, table.match.event_count)
        if after is None:
            after = _after(request, table)
        language = language_param(request)
        slot = service.streams.reserve(table.id, seat, service.client(request))
        try:
            await service.claim(table, seat)
            response = open_stream(
                table,
                seat,
                after,
                language,
                slot,
                service.stream_ping,
                service.stream_rematch_wait,
                holder=None if token is None else hash_token(token),
                reviews=service.reviews,
            )
        except BaseException:
            slot.release()
            raise
        slot.on_evict = response.stop  # a newer stream of the seat ends this one
        return response
