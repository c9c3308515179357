"""A minimal JSON-over-HTTP game server for one table, with the standard library only.

    python examples/http_server.py --players 2 --seed 7 --port 8000

It deals a game, prints one secret token per seat, and serves:

- ``GET /game?since=N``: what the caller may see, as JSON: ``view`` (the seat's
  ``cuckoo-rules/view`` document), ``legal_actions`` (the seat's choices when it is to
  act, in canonical order, else ``[]``), ``events`` (the events from number ``N`` on,
  redacted for the seat), ``next_event`` (the ``since`` of the next poll) and ``move``
  (the number of actions taken so far).
- ``POST /action?since=N&move=M``: play an action, sent as a JSON action document such as
  ``{"type": "lay", "species": "owl", "row": 0, "side": "left"}``; the answer is that
  of ``GET /game?since=N`` just after the action. ``move`` is the ``move`` of the
  snapshot the action answers: if the game has moved on since (the request was sent
  twice), the action is refused with 409 and not played again.

A seat identifies itself with ``Authorization: Bearer TOKEN`` (or ``?token=TOKEN``);
without a token the caller is a spectator, who may watch but not play. The server keeps
the only full state, in a :class:`cuckoo_rules.Match`: clients only ever get a seat's
view and its redacted events (``match.view(seat)``, ``match.events(seat, since)``), so no
hidden card leaves it. Errors are JSON too,
``{"error": "..."}``, with status 400 (bad request), 401 (unknown token), 403 (not your
turn), 404 (no such path) or 409 (illegal action). The server listens on 127.0.0.1 by
default; ``--port 0`` picks a free port, and the first line printed gives the address.

``make_server`` builds the server without starting it, so a program or a test can run
it in a thread: ``threading.Thread(target=server.serve_forever).start()``. (The
``--8<--`` comments mark the part that the documentation quotes.)
"""

from __future__ import annotations

import argparse
import json
import secrets
import threading
from collections.abc import Callable, Sequence
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

import cuckoo_rules as cr
from cuckoo_rules.match import StaleMoveError

MAX_BODY = 4096  # bytes; an action document is far smaller


class HttpError(Exception):
    """An error to answer with ``status`` and ``{"error": message}``."""

    def __init__(self, status: HTTPStatus, message: str) -> None:
        super().__init__(message)
        self.status = status


# --8<-- [start:table]
class Table:
    """One game, a :class:`cuckoo_rules.Match` of outside seats, and the seats' tokens.

    Every method takes the lock: the server handles requests in threads.
    """

    def __init__(self, options: cr.GameOptions, seed: int, tokens: Sequence[str]) -> None:
        if len(tokens) != options.num_players:
            raise ValueError(f"expected {options.num_players} tokens, got {len(tokens)}")
        # The match holds the full state and event log; seats are None: played from here.
        self.match = cr.Match(options, seed, [None] * options.num_players)
        self.tokens = {token: seat for seat, token in enumerate(tokens)}
        self.lock = threading.Lock()

    def seat_of(self, token: str | None) -> int | None:
        """The seat of a token; ``None`` (a spectator) without one."""
        if token is None:
            return None
        if token not in self.tokens:
            raise HttpError(HTTPStatus.UNAUTHORIZED, "unknown token")
        return self.tokens[token]

    def snapshot(self, seat: int | None, since: int) -> dict[str, Any]:
        """What ``seat`` may see now, with the events from number ``since`` on."""
        with self.lock:
            return self._snapshot(seat, since)

    def play(
        self, seat: int | None, data: Any, since: int, move: int | None = None
    ) -> dict[str, Any]:
        """Play the action document ``data`` for ``seat`` at ``move``; return its snapshot."""
        if not isinstance(data, dict):
            raise HttpError(HTTPStatus.BAD_REQUEST, "the body must be a JSON action object")
        try:
            action = cr.decode_action(data)
        except cr.DecodeError as error:
            raise HttpError(HTTPStatus.BAD_REQUEST, str(error)) from None
        with self.lock:
            if seat is None or seat != self.match.to_act:
                raise HttpError(HTTPStatus.FORBIDDEN, "it is not your turn")
            try:
                self.match.act(seat, action, move=move)
            except (cr.IllegalActionError, StaleMoveError) as error:
                raise HttpError(HTTPStatus.CONFLICT, str(error)) from None
            return self._snapshot(seat, since)

    def _snapshot(self, seat: int | None, since: int) -> dict[str, Any]:
        match = self.match
        if not 0 <= since <= match.event_count:
            raise HttpError(HTTPStatus.BAD_REQUEST, f"since: {since} is not an event number")
        return {
            "view": cr.encode_view(match.view(seat)),
            "legal_actions": [cr.encode_action(action) for action in match.legal_actions(seat)],
            "events": [cr.encode_event(event) for event in match.events(seat, since)],
            "next_event": match.event_count,
            "move": match.move,
        }


# --8<-- [end:table]


class GameServer(ThreadingHTTPServer):
    """An HTTP server with the table it serves."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], table: Table) -> None:
        super().__init__(address, Handler)
        self.table = table


class Handler(BaseHTTPRequestHandler):
    """Answers ``GET /game`` and ``POST /action``."""

    server: GameServer

    def do_GET(self) -> None:
        self._answer("/game", lambda seat, since: self.server.table.snapshot(seat, since))

    def do_POST(self) -> None:
        self._answer(
            "/action",
            lambda seat, since: self.server.table.play(
                seat, self._body(), since, self._move(urlsplit(self.path).query)
            ),
        )

    def _answer(self, path: str, respond: Callable[[int | None, int], dict[str, Any]]) -> None:
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        try:
            if url.path != path:
                raise HttpError(HTTPStatus.NOT_FOUND, f"no {self.command} {url.path}")
            token = self._token(query)
            since = self._since(query)
            status, document = HTTPStatus.OK, respond(self.server.table.seat_of(token), since)
        except HttpError as error:
            status, document = error.status, {"error": str(error)}
        body = json.dumps(document).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _token(self, query: dict[str, list[str]]) -> str | None:
        header = self.headers.get("Authorization", "")
        if header.startswith("Bearer "):
            return header.removeprefix("Bearer ").strip()
        return query.get("token", [None])[0]

    def _since(self, query: dict[str, list[str]]) -> int:
        text = query.get("since", ["0"])[0]
        if not text.isdigit():
            raise HttpError(HTTPStatus.BAD_REQUEST, f"since: {text!r} is not an event number")
        return int(text)

    def _move(self, query_text: str) -> int | None:
        text = parse_qs(query_text).get("move", [None])[0]
        if text is None:
            return None
        if not text.isdigit():
            raise HttpError(HTTPStatus.BAD_REQUEST, f"move: {text[:40]!r} is not a move number")
        return int(text)

    def _body(self) -> Any:
        length = int(self.headers.get("Content-Length") or 0)
        if not 0 < length <= MAX_BODY:
            raise HttpError(HTTPStatus.BAD_REQUEST, f"send a JSON action of 1 to {MAX_BODY} bytes")
        try:
            return json.loads(self.rfile.read(length))
        except ValueError:
            raise HttpError(HTTPStatus.BAD_REQUEST, "the body is not JSON") from None

    def log_message(self, format: str, *args: Any) -> None:
        pass  # quiet: a real server would log to a file


def make_server(
    options: cr.GameOptions,
    seed: int,
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    tokens: Sequence[str] | None = None,
) -> GameServer:
    """Deal a game and build its server, bound but not yet serving.

    Args:
        options: The game options.
        seed: The seed of the deal.
        host: The address to listen on.
        port: The port; 0 picks a free one (read it from ``server.server_address``).
        tokens: One secret per seat (default: random ones).
    """
    if tokens is None:
        # Hexadecimal, so a token never begins with "-" and reads as an argument, not
        # an option, on a command line such as ``http_client.py URL TOKEN``.
        tokens = [secrets.token_hex(16) for _ in range(options.num_players)]
    return GameServer((host, port), Table(options, seed, tokens))


def main() -> None:
    parser = argparse.ArgumentParser(description="Serve one CuBirds table over HTTP.")
    parser.add_argument("--players", type=int, default=2, help="2 to 5 (default: 2)")
    parser.add_argument("--seed", type=int, help="seed of the deal (default: random)")
    parser.add_argument("--host", default="127.0.0.1", help="address (default: 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port, 0 for any (default: 8000)")
    args = parser.parse_args()
    seed = secrets.randbelow(2**64) if args.seed is None else args.seed
    server = make_server(
        cr.GameOptions(num_players=args.players), seed, host=args.host, port=args.port
    )
    port = server.server_address[1]
    print(f"serving on http://{args.host}:{port}/game (seed {seed})", flush=True)
    for token, seat in server.table.tokens.items():
        print(f"seat {seat} token {token}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
