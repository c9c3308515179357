"""Tests of the HTTP layer of ``cuckoo-rules serve`` (:mod:`cuckoo_rules.web.guard`).

One test per finding of the HTTP review, each failing without the guard: the security
headers on every answer, 415 for a body not declared JSON (nothing stored), the allowed
hosts (DNS rebinding), short echoes of what a request sent, and hostile JSON refused by
the real server process without losing the keep-alive connection. Then a fuzz test
sends random requests to every endpoint of the ASGI application: no answer is a 500,
every error is JSON with an ``"error"``, and a refused request changes nothing.

The fuzz test sends ``CUCKOO_FUZZ_REQUESTS`` requests (default
:data:`DEFAULT_FUZZ_REQUESTS`, about 15 s on two cores); ``HYPOTHESIS_PROFILE=ci``
derandomizes it, ``--hypothesis-seed=N`` replays a run, and ``-s`` prints its figures.
"""

from __future__ import annotations

import asyncio
import html.parser
import http.client
import itertools
import json
import os
import random
import sqlite3
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import closing
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urlsplit

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, given, settings
from starlette.applications import Starlette
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import cuckoo_rules as cr
import cuckoo_rules.web.routes as web_routes
from cuckoo_rules.cli import main
from cuckoo_rules.options import option_info
from cuckoo_rules.web import MAX_BODY, create_app
from cuckoo_rules.web.app import STATIC_DIR
from cuckoo_rules.web.bots import ThreadBotRunner
from cuckoo_rules.web.guard import (
    ECHO_LIMIT,
    LOOPBACK_HOSTS,
    SECURITY_HEADERS,
    AllowedHosts,
    HttpGuard,
)
from tests.frontends.test_web_api import wait_for_people
from tests.servers import serve

LOCAL = "http://127.0.0.1"  # a host the server answers to (loopback only, by default)
JSON_BODY = {"Content-Type": "application/json"}
TIMEOUT = 20.0  # seconds, for the real server to start and for any one request
DEFAULT_FUZZ_REQUESTS = 2000
"""The fuzz test's requests when ``CUCKOO_FUZZ_REQUESTS`` is not set."""

DEEP = b"[" * 2000
LONG_SEED = b'{"seats": ["human", "greedy"], "seed": ' + b"9" * 4301 + b"}"
MARKER = "x" * 10_000  # what a hostile request sends; an answer may quote 40 characters


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "tables.sqlite3"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    app = create_app(db, bot_runner=ThreadBotRunner())
    with TestClient(app, base_url=LOCAL, raise_server_exceptions=False) as test_client:
        yield test_client


def row_counts(db: Path) -> tuple[int, int]:
    """The tables and the stored actions in the file."""
    with closing(sqlite3.connect(db)) as connection:
        (tables,) = connection.execute("SELECT count(*) FROM tables").fetchone()
        (actions,) = connection.execute("SELECT count(*) FROM actions").fetchone()
    return tables, actions


def new_table(client: TestClient, seats: Sequence[str] = ("human", "random")) -> dict[str, Any]:
    """Create a table; its answer, with every invitation exchanged into ``tokens``."""
    response = client.post("/api/tables", json={"seats": list(seats)})
    assert response.status_code == 201, response.text
    document: dict[str, Any] = response.json()
    for seat, invitation in document["invitations"].items():
        accepted = client.post(
            f"/api/tables/{document['table']}/accept", json={"invitation": invitation}
        )
        assert accepted.status_code == 200, accepted.text
        document["tokens"][seat] = accepted.json()["token"]
    return document


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def assert_error(response: Any, status: int, *parts: str) -> str:
    """Check an error answer: its status, its JSON ``{"error": ...}``, what it says."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/json"
    assert list(response.json()) == ["error"]
    message: str = response.json()["error"]
    for part in parts:
        assert part in message, message
    return message


# --------------------------------------------------------------------------- 1. headers


def assert_secured(headers: Any) -> None:
    """Check that the answer's headers include every security header, once."""
    for name, value in SECURITY_HEADERS.items():
        assert headers.get_list(name) == [value], name


def test_the_security_headers_are_the_promised_ones() -> None:
    assert dict(SECURITY_HEADERS) == {
        "Content-Security-Policy": "default-src 'self'; object-src 'none'; base-uri 'none'; "
        "form-action 'self'; frame-ancestors 'none'",
        "X-Frame-Options": "DENY",
        "Referrer-Policy": "no-referrer",
        "X-Content-Type-Options": "nosniff",
        "Cross-Origin-Opener-Policy": "same-origin",
    }


def test_every_answer_carries_the_security_headers(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = new_table(client)
    url = f"/api/tables/{table['table']}"
    requests: list[tuple[str, str, dict[str, Any], int]] = [
        ("GET", "/", {}, 200),
        ("GET", "/static/app.js", {}, 200),
        ("GET", "/static/style.css", {}, 200),
        ("GET", "/static/favicon.svg", {}, 200),
        ("HEAD", "/", {}, 200),
        ("GET", "/api/bots", {}, 200),
        ("GET", "/api/meta", {}, 200),
        ("POST", "/api/tables", {"json": {"seats": ["human", "random"]}}, 201),
        ("GET", url, {"headers": bearer(table["tokens"]["0"])}, 200),
        ("GET", url, {}, 200),
        ("GET", "/static/nothing.js", {}, 404),
        ("GET", "/api/tables/nope", {}, 404),
        ("GET", "/api/tables", {}, 405),
        ("GET", url, {"headers": bearer("nope")}, 401),
        ("POST", "/api/tables", {"content": b"nope", "headers": JSON_BODY}, 400),
        ("POST", "/api/tables", {"content": b" " * (MAX_BODY + 1), "headers": JSON_BODY}, 413),
        ("POST", "/api/tables", {"content": b"{}"}, 415),
        ("GET", "/", {"headers": {"Host": "evil.example"}}, 400),
    ]
    for method, path, options, status in requests:
        response = client.request(method, path, **options)
        assert response.status_code == status, (method, path, response.text)
        assert_secured(response.headers)

    def broken() -> dict[str, Any]:
        raise RuntimeError("a bug")

    monkeypatch.setattr(web_routes, "meta_document", broken)
    response = client.get("/api/meta")
    assert response.status_code == 500
    assert response.json() == {"error": "internal server error"}
    assert_secured(response.headers)


class _PageScan(html.parser.HTMLParser):
    """What in a page a strict Content-Security-Policy would block or need."""

    def __init__(self) -> None:
        super().__init__()
        self.blocked: list[str] = []
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "script" and not values.get("src"):
            self.blocked.append("an inline <script>")
        if tag == "style":
            self.blocked.append("a <style> element")
        for name, value in attrs:
            if name.startswith("on") or name == "style":
                self.blocked.append(f"the {name} attribute of <{tag}>")
            if name in ("src", "href", "action") and value is not None:
                self.urls.append(value)


def test_the_client_needs_nothing_the_policy_blocks() -> None:
    # The browser tests (test_web_browser.py) fail on any console error, a blocked
    # resource included; this says early what the policy would block.
    scan = _PageScan()
    scan.feed((STATIC_DIR / "index.html").read_text(encoding="utf-8"))
    assert scan.blocked == []
    assert all(url.startswith(("/static/", "#")) for url in scan.urls), scan.urls
    script = "".join(p.read_text(encoding="utf-8") for p in sorted(STATIC_DIR.rglob("*.js")))
    for needs_unsafe in ("eval(", "new Function", 'setAttribute("style"', "cssText", "<style"):
        assert needs_unsafe not in script
    assert "url(" not in (STATIC_DIR / "style.css").read_text(encoding="utf-8")


# --------------------------------------------------------------------------- 2. JSON bodies


@pytest.mark.parametrize(
    ("content_type", "got"),
    [
        (None, "got none"),
        ("text/plain", "got 'text/plain'"),
        ("text/plain;charset=UTF-8", "got 'text/plain;charset=UTF-8'"),
        ("application/x-www-form-urlencoded", "got 'application/x-www-form-urlencoded'"),
        ("multipart/form-data; boundary=x", "got 'multipart/form-data; boundary=x'"),
        ("application/jsonp", "got 'application/jsonp'"),
        ("application/json-patch+json", "got 'application/json-patch+json'"),
        ("application/json, text/plain", "got 'application/json, text/plain'"),
        ("", "got ''"),
    ],
)
def test_a_body_not_declared_json_is_refused_and_nothing_stored(
    client: TestClient, db: Path, content_type: str | None, got: str
) -> None:
    table = new_table(client, ["human", "human"])
    document = client.get(f"/api/tables/{table['table']}").json()
    seat = document["view"]["current_player"]
    move = {"action": document_action(client, table, seat), "move": document["move"]}
    before = row_counts(db)
    headers = {} if content_type is None else {"Content-Type": content_type}
    for path, body, auth in [
        ("/api/tables", {"seats": ["human", "random"]}, {}),
        (f"/api/tables/{table['table']}/actions", move, bearer(table["tokens"][str(seat)])),
    ]:
        response = client.post(path, content=json.dumps(body), headers={**headers, **auth})
        assert_error(response, 415, "Content-Type: expected application/json", got)
        assert row_counts(db) == before
    assert client.get(f"/api/tables/{table['table']}").json()["move"] == document["move"]


def document_action(client: TestClient, table: dict[str, Any], seat: int) -> Any:
    """A legal action of ``seat``, the seat to act, as JSON."""
    token = table["tokens"][str(seat)]
    return client.get(f"/api/tables/{table['table']}", headers=bearer(token)).json()[
        "legal_actions"
    ][0]


def test_two_content_types_are_refused(client: TestClient, db: Path) -> None:
    before = row_counts(db)
    body = json.dumps({"seats": ["human", "random"]}).encode()
    response = client.post(
        "/api/tables",
        content=body,
        headers=[("Content-Type", "application/json"), ("Content-Type", "text/plain")],
    )
    assert_error(response, 415, "got 2 Content-Type headers")
    assert row_counts(db) == before


@pytest.mark.parametrize(
    "content_type",
    ["application/json", "application/json; charset=utf-8", "Application/JSON;charset=UTF-8"],
)
def test_json_bodies_are_taken_with_or_without_parameters(
    client: TestClient, content_type: str
) -> None:
    body = json.dumps({"seats": ["human", "random"]})
    response = client.post("/api/tables", content=body, headers={"Content-Type": content_type})
    assert response.status_code == 201, response.text


def test_every_body_method_needs_json(client: TestClient) -> None:
    for method in ("PUT", "PATCH", "DELETE"):  # no route takes them: 415 comes first
        response = client.request(method, "/api/tables", content=b"{}")
        assert_error(response, 415, "Content-Type: expected application/json")
        response = client.request(method, "/api/tables", content=b"{}", headers=JSON_BODY)
        assert_error(response, 405, f"{method} is not allowed on /api/tables")


# --------------------------------------------------------------------------- 3. hosts


@pytest.mark.parametrize(
    "host",
    [
        "evil.example",
        "evil.example:8000",
        "localhost.evil.example",
        "127.0.0.1.nip.io",
        "testserver",
        "0.0.0.0:8000",
        "localhost:x",
        "[::1",
        "[::2]:8000",
        "local host",
        "",
    ],
)
def test_a_host_not_allowed_is_refused(client: TestClient, db: Path, host: str) -> None:
    before = row_counts(db)
    for method, path, options in [
        ("GET", "/", {}),
        ("GET", "/api/meta", {}),
        ("POST", "/api/tables", {"json": {"seats": ["human", "random"]}}),
    ]:
        response = client.request(method, path, headers={"Host": host}, **options)
        message = assert_error(response, 400, "Host: ", "is not allowed", "--allow-host NAME")
        assert "--host 0.0.0.0" in message
        assert_secured(response.headers)
    assert row_counts(db) == before


@pytest.mark.parametrize(
    "host", ["localhost", "localhost:8000", "LocalHost:1", "127.0.0.1:65535", "[::1]:8000"]
)
def test_the_loopback_hosts_are_allowed_on_any_port(client: TestClient, host: str) -> None:
    assert client.get("/api/bots", headers={"Host": host}).status_code == 200


def test_allowed_hosts_replace_the_loopback_ones(db: Path) -> None:
    app = create_app(db, allowed_hosts=["*.example.org", "cubirds.test"])
    with TestClient(app, base_url="http://cubirds.test") as client:
        assert client.get("/api/bots").status_code == 200
        for host in ("example.org", "a.example.org:8443", "a.b.example.org"):
            assert client.get("/api/bots", headers={"Host": host}).status_code == 200, host
        for host in ("localhost", "127.0.0.1", "badexample.org", "example.org.evil.example"):
            assert client.get("/api/bots", headers={"Host": host}).status_code == 400, host
    with TestClient(create_app(":memory:", allowed_hosts=["*"])) as client:  # testserver
        assert client.get("/api/bots", headers={"Host": "anything.example"}).status_code == 200


@pytest.mark.parametrize(
    ("names", "message"),
    [
        ("localhost", "expected a sequence of host names, got the string 'localhost'"),
        ([], "empty"),
        (["localhost:8000"], "'localhost:8000' is not a host name"),
        (["http://example.org"], "is not a host name"),
        (["*.[::1]"], "'*.[::1]' is not a host name"),
        (["a b"], "'a b' is not a host name"),
        ([3], "3 is not a host name"),
    ],
)
def test_bad_allowed_hosts_are_refused(names: Any, message: str) -> None:
    with pytest.raises(ValueError, match=r"^allowed_hosts: ") as info:
        create_app(":memory:", allowed_hosts=names)
    assert message in str(info.value)


def test_missing_and_repeated_host_headers_are_refused() -> None:
    answers: list[tuple[int, bytes]] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        raise AssertionError("the guard let the request through")

    async def send(message: Any) -> None:
        if message["type"] == "http.response.start":
            answers.append((message["status"], b""))
        else:
            answers[-1] = (answers[-1][0], answers[-1][1] + message.get("body", b""))

    async def receive() -> Any:
        return {"type": "http.request", "body": b"", "more_body": False}

    guard = HttpGuard(app)
    for headers in ([], [(b"host", b"localhost"), (b"host", b"evil.example")]):
        scope = {"type": "http", "method": "GET", "path": "/", "headers": headers}
        asyncio.run(guard(scope, receive, send))
    assert [status for status, _ in answers] == [400, 400]
    assert b"expected one header, got no Host header" in answers[0][1]
    assert b"expected one header, got 2 Host headers" in answers[1][1]


def test_a_websocket_of_a_host_not_allowed_is_closed(client: TestClient) -> None:
    codes = []
    for url in ("ws://evil.example/", "ws://127.0.0.1/"):
        with pytest.raises(WebSocketDisconnect) as info, client.websocket_connect(url):
            pass
        codes.append(info.value.code)
    assert codes == [1008, 1000]  # a policy violation; then no such route


def test_allowed_hosts_match_names_not_text() -> None:
    hosts = AllowedHosts([*LOOPBACK_HOSTS, "*.example.org", "10.0.0.7", "::2"])
    allowed = ["localhost.", "[0:0:0:0:0:0:0:1]:80", "x.example.org.", "10.0.0.7:1", "[::2]"]
    refused = ["10.0.0.70", "example.org.evil", "x.example.org:99999999", "[::1]x", "::1"]
    assert [hosts.allows(host) for host in allowed] == [True] * len(allowed)
    assert [hosts.allows(host) for host in refused] == [False] * len(refused)


def test_serve_allow_host_adds_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import uvicorn

    served: list[Any] = []

    def run(server: uvicorn.Server, sockets: Any = None) -> None:
        served.append(server.config.app)

    monkeypatch.setattr(uvicorn.Server, "run", run)
    # Nor may uvicorn configure logging in this process: logging.config.dictConfig closes
    # every handler there is, pytest's capturing ones included, and pytest then fails
    # writing its report to a closed stream.
    monkeypatch.setattr(uvicorn.Config, "configure_logging", lambda config: None)
    argv = ["serve", "--port", "0", "--db", str(tmp_path / "t.sqlite3")]
    assert main([*argv, "--allow-host", "cubirds.test", "--allow-host", "*.lan"]) == 0
    (app,) = served
    assert isinstance(app, Starlette)
    with TestClient(app, base_url=LOCAL) as client:
        for host in ("cubirds.test:8000", "box.lan", "localhost", "[::1]", "127.0.0.1"):
            assert client.get("/api/bots", headers={"Host": host}).status_code == 200, host
        assert client.get("/api/bots", headers={"Host": "evil.example"}).status_code == 400
    capsys.readouterr()
    with pytest.raises(SystemExit) as info:
        main([*argv, "--allow-host", "cubirds.test:8000"])
    assert info.value.code == 2
    assert "argument --allow-host: 'cubirds.test:8000' is not a host name" in (
        capsys.readouterr().err
    )


# --------------------------------------------------------------------------- 4. short echoes


def assert_short_echo(response: Any, status: int) -> None:
    assert response.status_code == status, response.text[:200]
    assert "error" in response.json()
    assert "x" * (ECHO_LIMIT + 1) not in response.text.lower(), response.text[:200]
    assert len(response.text) < 400


def test_long_paths_and_table_ids_are_not_echoed(client: TestClient, db: Path) -> None:
    table = new_table(client)
    token = bearer(table["tokens"]["0"])
    wait_for_people(client, table["table"])  # the bot's moves, in the background, first
    before = row_counts(db)
    cases: list[tuple[str, str, dict[str, Any], int]] = [
        ("GET", f"/api/tables/{MARKER}", {}, 404),
        ("GET", f"/api/tables/{MARKER}", {"headers": token}, 404),
        ("POST", f"/api/tables/{MARKER}/actions", {"json": {}, "headers": token}, 404),
        ("GET", f"/api/tables/{MARKER}/hint", {"headers": token}, 404),
        ("GET", f"/api/tables/{MARKER}/stream", {"headers": token}, 404),
        ("POST", f"/api/tables/{MARKER}/join", {"json": {"name": "a"}}, 404),
        ("POST", f"/api/tables/{MARKER}/rematch", {"json": {}, "headers": token}, 404),
        ("GET", f"/api/phrases/{MARKER}", {}, 404),
        ("GET", f"/api/tables/{table['table']}?lang={MARKER}", {}, 400),
        ("GET", f"/api/tables/{table['table']}/stream?lang={MARKER}", {}, 400),
        (
            "GET",
            f"/api/tables/{table['table']}/stream",
            {"headers": {"Last-Event-ID": MARKER}},
            400,
        ),
        ("POST", f"/api/tables/{table['table']}/join", {"json": {"name": MARKER}}, 400),
        ("POST", "/api/tables", {"json": {"seats": ["human", "random"], "names": [MARKER]}}, 400),
        ("GET", f"/{MARKER}", {}, 404),
        ("GET", f"/static/{MARKER}", {}, 404),
        ("PUT", f"/api/tables/{MARKER}", {"json": {}}, 405),
        ("GET", f"/api/tables/{table['table']}?after={MARKER}", {}, 400),
        ("GET", f"/api/tables/{table['table']}", {"headers": bearer(MARKER)}, 401),
        ("POST", "/api/tables", {"content": b"{}", "headers": {"Content-Type": MARKER}}, 415),
        ("GET", "/", {"headers": {"Host": MARKER}}, 400),
        ("POST", "/api/tables", {"json": {"seats": ["human", "random"], "seed": MARKER}}, 400),
        ("POST", "/api/tables", {"json": {"seats": [MARKER, "random"]}}, 400),
        ("POST", "/api/tables", {"json": {"seats": ["human"], "options": {MARKER: 1}}}, 400),
        ("POST", "/api/tables", {"json": [MARKER]}, 400),
        ("POST", "/api/tables", {"content": f'{{"{MARKER}', "headers": JSON_BODY}, 400),
    ]
    for method, path, options, status in cases:
        response = client.request(method, path, **options)
        assert_short_echo(response, status)
    response = client.request(MARKER, "/api/tables")
    assert_short_echo(response, 405)
    assert response.json()["error"] == f"{'X' * 37}... is not allowed on /api/tables"
    path = client.get(f"/api/nothing/{MARKER}").json()["error"]
    assert path == "no GET /api/nothing/xxxxxxxxxxxxxxxxxxxxxxxx..."
    assert row_counts(db) == before


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(
            {"seats": ["human", "random"], MARKER: 1},
            id="unknown-key",
        ),
        pytest.param(
            {"seats": ["human", "x" * 200]},
            id="long-bot-spec",
        ),
    ],
)
def test_long_body_fields_are_not_echoed(client: TestClient, body: Any) -> None:
    assert_short_echo(client.post("/api/tables", json=body), 400)


# --------------------------------------------------------------------------- 5. the real server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    """``cuckoo-rules serve`` as a process: its host and port."""
    skip_on_windows()
    directory = tmp_path_factory.mktemp("server")
    with serve(directory / "tables.sqlite3", directory / "server.log", TIMEOUT) as (_, url):
        parts = urlsplit(url)
        assert parts.hostname is not None
        assert parts.port is not None
        yield parts.hostname, parts.port


def skip_on_windows() -> None:
    if sys.platform == "win32":
        pytest.skip("the server process is tested on POSIX")


def exchange(
    connection: http.client.HTTPConnection,
    method: str,
    path: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[http.client.HTTPResponse, bytes]:
    """Send a request on ``connection`` and read its whole answer."""
    connection.request(method, path, body=body, headers=headers or {})
    response = connection.getresponse()
    return response, response.read()


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            DEEP,
            "body: invalid JSON at line 1, column 65 (char 64): arrays and objects nested "
            "more than 64 levels deep",
        ),
        (
            LONG_SEED,
            "body: invalid JSON at line 1, column 40 (char 39): a number with 4301 digits in "
            "a row (at most 40)",
        ),
    ],
    ids=["2000-brackets", "4301-digit-seed"],
)
def test_hostile_json_gets_400_and_the_connection_still_serves(
    server: tuple[str, int], body: bytes, message: str
) -> None:
    connection = http.client.HTTPConnection(*server, timeout=TIMEOUT)
    with closing(connection):
        response, answer = exchange(connection, "POST", "/api/tables", body, JSON_BODY)
        assert response.status == 400, answer
        assert json.loads(answer) == {"error": message}
        assert response.getheader("Connection") != "close"
        socket = connection.sock
        assert socket is not None
        response, answer = exchange(connection, "GET", "/api/bots")
        assert response.status == 200, answer
        assert connection.sock is socket  # the same connection, not a new one


def test_the_real_server_guards_its_answers(server: tuple[str, int]) -> None:
    connection = http.client.HTTPConnection(*server, timeout=TIMEOUT)
    with closing(connection):
        socket = None
        for method, path, body, headers, status in [
            ("GET", "/", None, {}, 200),
            ("GET", "/static/app.js", None, {}, 200),
            ("GET", f"/api/tables/{MARKER}", None, {}, 404),
            ("POST", "/api/tables", b"{}", {"Content-Type": "text/plain"}, 415),
            ("POST", "/api/tables", b"x" * 1000, {}, 415),  # a body nobody reads
            ("GET", "/api/meta", None, {"Host": "evil.example"}, 400),
            ("GET", "/api/bots", None, {}, 200),
        ]:
            response, answer = exchange(connection, method, path, body, headers)
            assert response.status == status, (path, answer[:200])
            for name, value in SECURITY_HEADERS.items():
                assert response.getheader(name) == value
            assert len(answer) < 10_000 or status == 200
            socket = socket or connection.sock
            assert connection.sock is socket, path  # keep-alive throughout


# --------------------------------------------------------------------------- 6. fuzz


def fuzz_requests() -> int:
    """The fuzz test's number of requests: ``CUCKOO_FUZZ_REQUESTS`` or the default."""
    return int(os.environ.get("CUCKOO_FUZZ_REQUESTS", DEFAULT_FUZZ_REQUESTS))


class Answer:
    """An answer of the ASGI application to one request."""

    def __init__(self) -> None:
        self.status = 0
        self.headers: list[tuple[bytes, bytes]] = []
        self.body = b""
        self.error: BaseException | None = None

    def header(self, name: bytes) -> list[bytes]:
        return [value for key, value in self.headers if key.lower() == name]


class AsgiServer:
    """An ASGI application driven as uvicorn drives it, in process, one request at a time.

    Requests are raw: a method, an ASCII target (path and query, percent-encoded as on
    the wire), header bytes, a body in chunks. The lifespan runs around them.
    """

    def __init__(self, app: Any) -> None:
        self.app = app
        self.loop = asyncio.new_event_loop()
        self._lifespan: asyncio.Future[None] | None = None
        self._events: asyncio.Queue[dict[str, Any]] | None = None
        self._replies: asyncio.Queue[dict[str, Any]] | None = None

    def __enter__(self) -> AsgiServer:
        self.loop.run_until_complete(self._start())
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self.loop.run_until_complete(self._stop())
        finally:
            self.loop.close()

    async def _start(self) -> None:
        self._events, self._replies = asyncio.Queue(), asyncio.Queue()
        scope = {"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}}
        self._lifespan = asyncio.ensure_future(self.app(scope, self._events.get, self._replies.put))
        await self._events.put({"type": "lifespan.startup"})
        reply = await asyncio.wait_for(self._replies.get(), TIMEOUT)
        assert reply["type"] == "lifespan.startup.complete", reply

    async def _stop(self) -> None:
        assert self._events is not None
        assert self._replies is not None
        assert self._lifespan is not None
        await self._events.put({"type": "lifespan.shutdown"})
        reply = await asyncio.wait_for(self._replies.get(), TIMEOUT)
        assert reply["type"] == "lifespan.shutdown.complete", reply
        await asyncio.wait_for(self._lifespan, TIMEOUT)

    def idle(self) -> None:
        """Let the application run until no table's bots play in the background."""

        async def wait() -> None:
            loops = self.app.state.api.bot_loops
            deadline = time.monotonic() + TIMEOUT
            while loops and time.monotonic() < deadline:
                await asyncio.sleep(0.002)
            assert not loops, f"the bots of {list(loops)} did not finish in {TIMEOUT} s"

        self.loop.run_until_complete(wait())

    def request(
        self,
        method: str,
        target: bytes,
        headers: Sequence[tuple[bytes, bytes]] = (),
        chunks: Sequence[bytes] = (),
    ) -> Answer:
        """Send one request; return its answer (``error``: what the application raised)."""
        return self.loop.run_until_complete(self._request(method, target, headers, chunks))

    async def _request(
        self,
        method: str,
        target: bytes,
        headers: Sequence[tuple[bytes, bytes]],
        chunks: Sequence[bytes],
    ) -> Answer:
        raw_path, _, query = target.partition(b"?")
        scope = {
            "type": "http",
            "asgi": {"version": "3.0", "spec_version": "2.3"},
            "http_version": "1.1",
            "server": ("127.0.0.1", 8000),
            "client": ("127.0.0.1", 40000),
            "scheme": "http",
            "method": method,
            "root_path": "",
            "path": unquote(raw_path.decode("ascii")),
            "raw_path": raw_path,
            "query_string": query,
            "headers": [(name.lower(), value) for name, value in headers],
            "state": {},
        }
        parts = list(chunks) or [b""]
        done = asyncio.Event()
        answer = Answer()

        async def receive() -> dict[str, Any]:
            if parts:
                body = parts.pop(0)
                return {"type": "http.request", "body": body, "more_body": bool(parts)}
            await done.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                answer.status = message["status"]
                answer.headers = list(message.get("headers", []))
            elif message["type"] == "http.response.body":
                answer.body += message.get("body", b"")
                if not message.get("more_body", False):
                    done.set()

        try:
            await asyncio.wait_for(self.app(scope, receive, send), TIMEOUT)
        except Exception as error:
            answer.error = error
        done.set()
        return answer


class Fuzzed:
    """A request of the fuzz test, before the tokens and the legal moves are filled in."""

    def __init__(
        self,
        method: str,
        target: bytes,
        headers: list[tuple[bytes, bytes]],
        body: bytes | None,
        length: str | None,
        chunks: int,
        legal: tuple[int, int] | None,
    ) -> None:
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
        self.length = length  # the Content-Length: "right", another (a lie) or None
        self.chunks = chunks
        self.legal = legal  # (table, seat): the body is a legal move of that seat

    def __repr__(self) -> str:
        body = None if self.body is None else self.body[:300]
        return (
            f"Fuzzed({self.method!r}, {self.target[:300]!r}, {self.headers!r}, {body!r}, "
            f"length={self.length!r}, chunks={self.chunks}, legal={self.legal})"
        )


JSON_SCALARS = (
    st.none() | st.booleans() | st.integers(-(10**30), 10**30) | st.floats() | st.text(max_size=20)
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
SEATS = st.sampled_from(
    [
        "human",
        "human",
        "random",
        "greedy",
        "ismcts:iterations=5",
        "expert:simulations=10",
        "Human",
        " human ",
        "",
        "randomx",
        "random:seed=1",
        "ismcts:iterations=100000",
        "greedy:depth=2",
    ]
) | st.text(max_size=12)
OPTION_VALUES = st.sampled_from(
    sorted({json.dumps(c.value) for info in option_info() for c in info.choices})
).map(json.loads)
OPTIONS = st.dictionaries(
    st.sampled_from([info.name for info in option_info()] + ["colour"]),
    OPTION_VALUES | JSON_SCALARS,
    max_size=4,
)
TABLE_DOCUMENTS = st.fixed_dictionaries(
    {"seats": st.lists(SEATS, min_size=1, max_size=6) | JSON_VALUES},
    optional={
        "options": OPTIONS | JSON_VALUES,
        "seed": st.integers(-2, 2**65) | JSON_SCALARS,
        "extra": JSON_VALUES,
    },
)
GOOD_TABLES = st.fixed_dictionaries(
    {"seats": st.sampled_from([["human", "random"], ["random", "human", "random"]])},
    optional={"options": OPTIONS, "seed": st.integers(0, 2**64 - 1)},
)
ACTIONS = st.fixed_dictionaries(
    {"type": st.sampled_from(["lay", "draw", "pass", "fly_home", "fly", "LAY", ""])},
    optional={
        "species": st.sampled_from([s.value for s in cr.SPECIES] + ["dodo"]) | JSON_SCALARS,
        "row": st.integers(-1, 5) | JSON_SCALARS,
        "side": st.sampled_from(["left", "right", "up"]) | JSON_SCALARS,
        "count": JSON_SCALARS,
    },
)
MOVE_DOCUMENTS = st.fixed_dictionaries(
    {"action": ACTIONS | JSON_VALUES},
    optional={"move": st.integers(-1, 300) | JSON_SCALARS, "x": JSON_VALUES},
)
HOSTILE_BODIES = st.sampled_from(
    [
        DEEP,
        LONG_SEED,
        b"{" + b" " * MAX_BODY + b"}",
        b"\xef\xbb\xbf{}",
        b'"\\ud800"',
        b"[" * 65 + b"]" * 65,
        b'{"seats": NaN}',
        b'{"seats": ["human", "random"], "seats": ["human", "random"]}',
        b"\xff\xfe{\x00}\x00",
        b"",
    ]
)
AFTERS = st.sampled_from(
    ["", "0", "1", "-1", "01", "1.0", "1e3", "0x1", "+1", " 1", "9" * 15, "9" * 16, "9" * 5000]
    + ["\u0661", "null", "[]", "%00"]
) | st.integers(-5, 10**20).map(str)
SEGMENTS = (
    st.sampled_from(
        ["", ".", "..", "%2e%2e", "%2E%2e%2f", "..%2f..%2fpyproject.toml", "%00", "%ff"]
        + ["%c3%28", "%e2%82%ac", "%", "%zz", "%%", "a;b", "%3f", "%23", "x" * 10_000]
        + ["app.js", "style.css", "index.html", "favicon.svg", "__init__.py", "~", "*"]
    )
    | st.text(max_size=12).map(lambda text: quote(text, safe=""))
    | st.binary(max_size=12).map(lambda data: quote(data, safe=""))
)
TEMPLATES = [
    "/",
    "/index.html",
    "/api",
    "/api/bots",
    "/api/meta",
    "/api/tables",
    "/api/tables/",
    "/api/tables/{}",
    "/api/tables/{}",
    "/api/tables/{}/",
    "/api/tables/{}/actions",
    "/api/tables/{}/actions",
    "/api/tables/{}/actions",
    "/api/tables/{}/hint",
    "/api/tables/{}/join",
    "/api/tables/{}/rematch",
    "/api/lobby",
    "/api/phrases/{}",
    "/api/tables/{}/actions/{}",
    "/api/tables/{}/../{}",
    "/static/{}",
    "/static/{}/{}",
    "/{}",
    "//api/tables",
    "/API/TABLES",
]
METHODS = st.sampled_from(
    ["GET", "GET", "GET", "POST", "POST", "POST", "POST", "HEAD", "PUT", "PATCH", "DELETE"]
    + ["OPTIONS", "TRACE", "get", "FOO"]
)
HOSTS = st.sampled_from(
    [b"127.0.0.1:8000"] * 12
    + [b"localhost", b"[::1]:8000", b"evil.example", b"testserver", b"localhost.evil.example"]
    + [b"", b"127.0.0.1:x", b"\xff", None, (b"localhost", b"evil.example")]
)
CONTENT_TYPES = st.sampled_from(
    [b"application/json"] * 10
    + [b"application/json; charset=utf-8", b"APPLICATION/JSON", b"application/json;"]
    + [b"application/json;charset=latin-1", b"text/plain", b"text/plain;charset=UTF-8"]
    + [b"application/x-www-form-urlencoded", b"multipart/form-data; boundary=x"]
    + [b"application/jsonx", b"application/json-patch+json", b"", b";", b"application/json\xff"]
    + [None, None, (b"application/json", b"text/plain")]
)
AUTHORIZATIONS = st.sampled_from(
    [None, None, "Bearer {token}", "Bearer {token}", "Bearer {token}", "bearer {token}"]
    + ["BEARER   {token}  ", "Bearer {token}x", "Basic {token}", "Token {token}"]
    + ["Bearer", "Bearer ", "Bearer a b", "Bearer " + "x" * 5000, "Bearer \xff"]
)
LENGTHS = st.sampled_from(["right"] * 6 + [None, "0", "1", "-1", "abc", "9" * 20, "1, 2", "+1"])


SANE_TEMPLATES = [
    "/api/tables",
    "/api/tables/{}",
    "/api/tables/{}/actions",
    "/api/tables/{}/actions",
    "/api/tables/{}/hint",
    "/api/tables/{}/join",
    "/api/tables/{}/rematch",
    "/api/lobby",
    "/api/phrases/de",
    "/api/meta",
    "/",
]


@st.composite
def fuzzed(draw: st.DrawFn, tables: int, seats: int) -> Fuzzed:
    """A random request to the server (``tables`` tables of ``seats`` seats exist).

    Half of them are sane (the method, host, content type, token and length a client
    would send, to one of the tables) so that they go deep; the others are anything.
    """
    sane = draw(st.booleans())
    table, seat = draw(st.integers(0, tables - 1)), draw(st.integers(0, seats - 1))
    method = draw(st.sampled_from(["GET", "POST"]) if sane else METHODS)

    def segment() -> str:
        if sane or draw(st.integers(0, 2)):
            return f"{{table{table if sane else draw(st.integers(0, tables - 1))}}}"
        return draw(SEGMENTS)

    template = draw(st.sampled_from(SANE_TEMPLATES if sane else TEMPLATES))
    path = template.format(*(segment() for _ in range(template.count("{}"))))
    if sane:
        query = draw(st.sampled_from(["", "after=0"]) | st.integers(0, 50).map("after={}".format))
    else:
        query = draw(
            st.sampled_from(["", "", "after", "after=0&after=1", "x=1"])
            | AFTERS.map(lambda after: "after=" + quote(after, safe=""))
            | st.text(max_size=10).map(lambda text: quote(text, safe="=&"))
        )
    target = (path + ("?" + query if query else "")).encode("ascii")
    headers: list[tuple[bytes, bytes]] = []
    for name, values in ((b"host", HOSTS), (b"content-type", CONTENT_TYPES)):
        value = draw(values)
        if sane:
            value = b"127.0.0.1:8000" if name == b"host" else b"application/json"
        for one in value if isinstance(value, tuple) else [value]:
            if one is not None:
                headers.append((name, one))
    authorization = "Bearer {token}" if sane else draw(AUTHORIZATIONS)
    if authorization is not None:
        index = table * seats + seat if sane else draw(st.integers(0, tables * seats - 1))
        value = authorization.replace("{token}", f"{{token{index}}}").encode("latin-1")
        headers.append((b"authorization", value))
    if draw(st.integers(0, 9)) == 0:
        headers.append((b"x-extra", draw(st.binary(max_size=20)).translate(None, b"\r\n\x00")))
    kind = draw(st.sampled_from([5, 6, 8, 8]) if sane else st.integers(0, 9))
    legal = None
    if kind == 0:
        body = None
    elif kind == 1:
        body = json.dumps(draw(JSON_VALUES)).encode()
    elif kind == 2:
        text = json.dumps(draw(TABLE_DOCUMENTS | MOVE_DOCUMENTS)).encode()
        body = text[: draw(st.integers(0, len(text)))]
    elif kind == 3:
        body = draw(st.binary(max_size=100))
    elif kind == 4:
        body = json.dumps(draw(TABLE_DOCUMENTS)).encode()
    elif kind == 5:
        body = json.dumps(draw(GOOD_TABLES)).encode()
    elif kind in (6, 7):
        body = json.dumps(draw(MOVE_DOCUMENTS)).encode()
    elif kind == 8:
        body = b""
        legal = (table, seat)
    else:
        body = draw(HOSTILE_BODIES)
    length = "right" if sane else draw(LENGTHS)
    chunks = draw(st.integers(1, 3))
    return Fuzzed(method, target, headers, body, length, chunks, legal)


FUZZ_SEATS = ["human", "human", "random"]
FUZZ_TABLES = 3


def test_fuzz_every_endpoint(db: Path) -> None:
    requests = fuzz_requests()
    app = create_app(db, bot_runner=ThreadBotRunner(), hint_simulations=8)
    seen: Counter[int] = Counter()
    sent = reads = 0
    started = time.perf_counter()
    with AsgiServer(app) as server, closing(sqlite3.connect(db, isolation_level=None)) as reader:

        def counts() -> tuple[int, int]:
            (tables,) = reader.execute("SELECT count(*) FROM tables").fetchone()
            (actions,) = reader.execute("SELECT count(*) FROM actions").fetchone()
            return tables, actions

        def call(method: str, target: str, body: Any = None, token: str | None = None) -> Any:
            headers = [(b"host", b"127.0.0.1"), (b"content-type", b"application/json")]
            if token is not None:
                headers.append((b"authorization", f"Bearer {token}".encode()))
            chunks = [] if body is None else [json.dumps(body).encode()]
            answer = server.request(method, target.encode(), headers, chunks)
            assert answer.error is None, answer.error
            return json.loads(answer.body)

        ids: list[str] = []
        tokens: list[str] = []
        for _ in range(FUZZ_TABLES):
            created = call("POST", "/api/tables", {"seats": FUZZ_SEATS})
            ids.append(created["table"])
            for seat, invitation in created["invitations"].items():
                accept = f"/api/tables/{created['table']}/accept"
                created["tokens"][seat] = call("POST", accept, {"invitation": invitation})["token"]
            tokens += [created["tokens"].get(str(seat), "none") for seat in range(len(FUZZ_SEATS))]
        names = {f"{{table{i}}}": quote(table) for i, table in enumerate(ids)}
        names |= {f"{{token{i}}}": token for i, token in enumerate(tokens)}

        def fill(data: bytes) -> bytes:
            for name, value in names.items():
                data = data.replace(name.encode(), value.encode())
            return data

        @settings(
            max_examples=requests,
            deadline=None,
            suppress_health_check=[
                HealthCheck.too_slow,
                HealthCheck.data_too_large,
                HealthCheck.large_base_example,
            ],
        )
        @given(fuzzed(FUZZ_TABLES, len(FUZZ_SEATS)))
        def check(request: Fuzzed) -> None:
            nonlocal sent, reads
            body = request.body
            if request.legal is not None:  # read the table to send one of its legal moves
                table, seat = request.legal
                token = tokens[table * len(FUZZ_SEATS) + seat]
                document = call("GET", f"/api/tables/{ids[table]}", token=token)
                reads += 1
                if document.get("legal_actions"):
                    action = random.Random(sent).choice(document["legal_actions"])
                    body = json.dumps({"action": action, "move": document["move"]}).encode()
            body = fill(body or b"")
            cuts = [i * len(body) // request.chunks for i in range(request.chunks + 1)]
            chunks = [body[start:end] for start, end in itertools.pairwise(cuts)]
            headers = [(name, fill(value)) for name, value in request.headers]
            if request.length is not None:
                length = str(len(body)) if request.length == "right" else request.length
                headers.append((b"content-length", length.encode()))
            server.idle()  # bots play in the background: their moves are not this request's
            before = counts()
            answer = server.request(request.method, fill(request.target), headers, chunks)
            sent += 1
            seen[answer.status] += 1
            assert answer.error is None, f"{answer.error!r} for {request!r}"
            assert answer.status != 500, request
            for name, value in SECURITY_HEADERS.items():
                assert answer.header(name.lower().encode()) == [value.encode()], request
            if answer.status >= 400:
                assert answer.header(b"content-type") == [b"application/json"], request
                document = json.loads(answer.body)
                assert isinstance(document, dict), request
                assert isinstance(document.get("error"), str), request
                assert counts() == before, request  # a refused request stores nothing

        check()
    seconds = time.perf_counter() - started
    print(
        f"\nfuzz: {sent} requests (and {reads} reads of legal moves) in {seconds:.1f} s, "
        f"{seen[500]} answers of 500; statuses {dict(sorted(seen.items()))}"
    )
    assert seen[500] == 0
    assert sum(n for status, n in seen.items() if status < 300) > 0
    assert sum(n for status, n in seen.items() if status >= 400) > 0


def test_the_fuzz_test_runs_as_many_requests_as_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CUCKOO_FUZZ_REQUESTS", "10000")
    assert fuzz_requests() == 10_000
    monkeypatch.delenv("CUCKOO_FUZZ_REQUESTS")
    assert fuzz_requests() == DEFAULT_FUZZ_REQUESTS
