"""Races of ``cuckoo-rules serve`` and its rough answers: findings 8, 9 and 10 of issue 27.

Each test failed on the server before the fix (``682e8a4`` and the house split after it)
and passes now, against a real server on loopback: uvicorn in a thread of this process
(:class:`tests.servers.ThreadedServer`, so that a test can count what the store is asked), or
``cuckoo-rules serve`` itself (:func:`tests.servers.serve`) for what uvicorn answers by
itself and for the log the server writes.

- 8: many threads read finished and expired tables that are not in memory, so that
  each read settles a table in the lobby while others do: no answer is a 500.
- 9: concurrent first reads of a stored finished table read it from the store once,
  and the copy the server keeps names the rematch started meanwhile.
- 10: a rematch ``POST`` with no body and no ``Content-Type`` is taken; every refusal
  carries the security headers, uvicorn's own 400 included; a client that leaves in the
  middle of its body is one line of the log, not a traceback.

The races are made likely rather than waited for: a table's check of whether a stream
watches it yields to the other threads (8), and the store is slow to answer (9).
"""

from __future__ import annotations

import http.client
import random
import socket
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from cuckoo_rules.web import create_app
from cuckoo_rules.web.bots import ThreadBotRunner
from cuckoo_rules.web.guard import SECURITY_HEADERS
from cuckoo_rules.web.lobby import FINISHED_KEPT, Lobby
from cuckoo_rules.web.parsing import parse_new_table
from cuckoo_rules.web.seats import TableSeats
from cuckoo_rules.web.stores.base import Store, StoredTable
from cuckoo_rules.web.table import Table
from tests.servers import ThreadedServer, serve

TIMEOUT = 20.0  # seconds, for a server to start and for any one request
JSON = {"Content-Type": "application/json"}


# --------------------------------------------------------------------------- helpers


def live(db: Path, **options: Any) -> ThreadedServer:
    return ThreadedServer(create_app(db, bot_runner=ThreadBotRunner(), **options))


def play_out(lobby: Lobby, rng: random.Random) -> tuple[str, str]:
    """A table of two people played to its end directly; its id and its creator's token."""
    created = lobby.create(parse_new_table({"seats": ["human", "human"]}), client_of(rng))
    table, token = created[0], next(iter(created[1].values()))
    match = table.match
    while not match.is_over:
        seat = match.state.current_player
        table.play(seat, rng.choice(match.legal_actions(seat)), match.move)
    lobby.settle(table)
    return table.id, token


def client_of(rng: random.Random) -> str:
    """A client of its own for a new table, so that the tables a minute are no limit."""
    return f"test-{rng.getrandbits(64):x}"


def stored_tables(db: Path, finished: int, expired: int) -> list[str]:
    """Store tables that are not open (played to the end, or expired); their ids."""
    lobby = Lobby.open(db)
    try:
        rng = random.Random(27)
        ids = [play_out(lobby, rng)[0] for _ in range(finished)]
        for _ in range(expired):
            table = lobby.create(parse_new_table({"seats": ["human", "greedy"]}), client_of(rng))[0]
            lobby.store.set_status(table.id, "expired")
            ids.append(table.id)
    finally:
        lobby.close()
    return ids


class SlowStore:
    """A store that counts the tables read and answers each read ``delay`` seconds late.

    The copy it answers is the one in the store when it was asked (a slow disk).
    """

    def __init__(self, store: Store, delay: float) -> None:
        self._store = store
        self._delay = delay
        self._lock = threading.Lock()
        self.reads: Counter[str] = Counter()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def table(self, table_id: str) -> StoredTable | None:
        with self._lock:
            self.reads[table_id] += 1
        stored = self._store.table(table_id)
        time.sleep(self._delay)
        return stored


def assert_secured(headers: httpx.Headers | http.client.HTTPMessage) -> None:
    for name, value in SECURITY_HEADERS.items():
        assert headers.get(name) == value, (name, dict(headers.items()))


# --------------------------------------------------------------------------- 8: settle


def test_reads_of_tables_that_settle_at_once_draw_no_500(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "t.sqlite3"
    # More tables than the lobby keeps: nearly every read reads one from the store and
    # settles it among the finished kept, and another leaves.
    ids = stored_tables(db, finished=8, expired=FINISHED_KEPT + 40)
    # Each check of whether a stream watches a table lets the other threads run: a
    # dictionary changed meanwhile shows at once, not one read in a thousand.
    watched = vars(TableSeats)["watched"].fget

    def yielding(table: TableSeats) -> bool:
        time.sleep(0)
        return bool(watched(table))

    monkeypatch.setattr(Table, "watched", property(yielding))
    statuses: Counter[str] = Counter()
    counting = threading.Lock()

    def reader(seed: int) -> None:
        rng = random.Random(seed)
        with httpx.Client(base_url=server.url, timeout=TIMEOUT) as client:
            while time.monotonic() < deadline:
                try:
                    status = str(client.get(f"/api/tables/{rng.choice(ids)}").status_code)
                except httpx.TransportError as error:  # uvicorn closes after a 500
                    status = type(error).__name__
                with counting:
                    statuses[status] += 1

    with live(db) as server:
        deadline = time.monotonic() + 1.5
        threads = [threading.Thread(target=reader, args=(seed,)) for seed in range(12)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    print(f"\n8: {sum(statuses.values())} reads: {dict(statuses)}")
    assert set(statuses) == {"200"}, statuses
    assert statuses["200"] >= 30  # reads happened, many of them at once


# --------------------------------------------------------------------------- 9: one load


def test_first_reads_of_a_stored_table_read_it_once_and_see_its_rematch(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    lobby = Lobby.open(db)
    try:
        table_id, token = play_out(lobby, random.Random(9))
    finally:
        lobby.close()
    readers = 8
    with live(db) as server:  # a restart: the finished table is in the store only
        served: Lobby = server.app.state.lobby
        store = SlowStore(served.store, delay=0.2)
        served.store = store  # type: ignore[assignment]
        start = threading.Barrier(readers + 1, timeout=TIMEOUT)
        rematched = threading.Barrier(readers + 1, timeout=TIMEOUT)
        first: list[dict[str, Any]] = []
        second: list[dict[str, Any]] = []
        answers: dict[str, Any] = {}

        def reader() -> None:
            with httpx.Client(base_url=server.url, timeout=TIMEOUT) as client:
                start.wait()
                response = client.get(f"/api/tables/{table_id}")
                assert response.status_code == 200, response.text
                first.append(response.json())
                rematched.wait()
                second.append(client.get(f"/api/tables/{table_id}").json())

        def rematch() -> None:
            with httpx.Client(base_url=server.url, timeout=TIMEOUT) as client:
                start.wait()
                time.sleep(0.05)  # while the readers read the table
                answers["rematch"] = client.post(
                    f"/api/tables/{table_id}/rematch",
                    json={},
                    headers={"Authorization": f"Bearer {token}"},
                )
                rematched.wait()

        threads = [threading.Thread(target=reader) for _ in range(readers)]
        threads.append(threading.Thread(target=rematch))
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        started = answers["rematch"]
        assert started.status_code == 201, started.text
        new_id = started.json()["table"]
        last = httpx.get(f"{server.url}/api/tables/{table_id}", timeout=TIMEOUT).json()
    print(f"\n9: reads of the table from the store: {store.reads[table_id]}")
    assert len(first) == len(second) == readers
    assert all(document["status"] == "over" for document in first)
    assert store.reads[table_id] == 1  # one read, which the others waited for
    # Every read once the rematch is answered names it: the copy kept is the newest.
    assert [document["rematch"] for document in second] == [new_id] * readers
    assert last["rematch"] == new_id


def test_a_rematch_stored_while_the_table_is_read_again_reaches_the_copy_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A request holds a copy of a finished table that left memory meanwhile (the least
    # recently read leave), starts its rematch while another request reads the table
    # back from the store, from before the rematch was stored.
    lobby = Lobby.open(tmp_path / "t.sqlite3", finished_kept=1)
    try:
        rng = random.Random(10)
        table_id, _ = play_out(lobby, rng)
        held = lobby.get(table_id)
        play_out(lobby, rng)  # another finished table: the first leaves memory
        assert lobby.cached(table_id) is None
        read, go_on = threading.Event(), threading.Event()
        real_table = lobby.store.table

        def slow_table(wanted: str) -> StoredTable | None:
            stored = real_table(wanted)
            read.set()
            assert go_on.wait(TIMEOUT)
            return stored

        monkeypatch.setattr(lobby.store, "table", slow_table)
        got: list[Table] = []
        reading = threading.Thread(target=lambda: got.append(lobby.get(table_id)))
        reading.start()
        assert read.wait(TIMEOUT)
        assert real_table(table_id).rematch is None  # type: ignore[union-attr]
        new, created = lobby.rematch(held)
        assert created
        go_on.set()
        reading.join(TIMEOUT)
        monkeypatch.undo()
        assert got[0].rematch == new.id
        assert lobby.get(table_id).rematch == new.id
    finally:
        lobby.close()


# --------------------------------------------------------------------------- 10: answers


@pytest.fixture
def finished(tmp_path: Path) -> tuple[Path, str, str]:
    """A database with a finished table of two people: its path, the table and a token."""
    db = tmp_path / "t.sqlite3"
    lobby = Lobby.open(db)
    try:
        table_id, token = play_out(lobby, random.Random(11))
    finally:
        lobby.close()
    return db, table_id, token


def test_a_rematch_without_a_body_is_taken(finished: tuple[Path, str, str]) -> None:
    db, table_id, token = finished
    path = f"/api/tables/{table_id}/rematch"
    with live(db) as server, httpx.Client(base_url=server.url, timeout=TIMEOUT) as client:
        # Without a token, or with a body that is not declared JSON (even an empty one),
        # the guard refuses it as before, and nothing is started.
        assert client.post(path).status_code == 415
        assert client.post(path, headers={"Authorization": "Basic eDp5"}).status_code == 415
        text = {"Authorization": f"Bearer {token}", "Content-Type": "text/plain"}
        assert client.post(path, headers=text).status_code == 415
        assert client.post(path, headers=text, content=b"{}").status_code == 415
        assert client.get(f"/api/tables/{table_id}").json()["rematch"] is None
        # No body, no Content-Type, the seat's token: as the documents say.
        response = client.post(path, headers={"Authorization": f"Bearer {token}"})
        assert response.status_code == 201, response.text
        assert response.request.headers.get("content-type") is None
        new_id = response.json()["table"]
        # The same without even a Content-Length (a body of none, for HTTP/1.1).
        host, port = server.url.removeprefix("http://").split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=TIMEOUT)
        try:
            connection.putrequest("POST", path)
            connection.putheader("Authorization", f"Bearer {token}")
            connection.endheaders()
            again = connection.getresponse()
            assert again.status == 200  # the rematch started already
            assert again.getheader("Content-Type") == "application/json"
        finally:
            connection.close()
        assert client.get(f"/api/tables/{table_id}").json()["rematch"] == new_id


def test_every_refusal_of_the_application_carries_the_security_headers(tmp_path: Path) -> None:
    with (
        live(tmp_path / "t.sqlite3", max_open=1) as server,
        httpx.Client(base_url=server.url, timeout=TIMEOUT) as client,
    ):
        new = {"seats": ["human", "random"]}
        assert client.post("/api/tables", json=new).status_code == 201
        answers = {
            400: client.post("/api/tables", content=b"{", headers=JSON),
            404: client.get("/api/tables/nope"),
            405: client.get("/api/tables"),
            413: client.post("/api/tables", content=b" " * (1 << 17), headers=JSON),
            415: client.post("/api/tables", content=b"{}", headers={"Content-Type": "text/plain"}),
            429: client.post("/api/tables", json=new),
        }
    for status, response in answers.items():
        assert response.status_code == status, (status, response.text)
        assert_secured(response.headers)
        assert response.headers["content-type"] == "application/json"
        assert "error" in response.json()


@pytest.fixture(scope="module")
def server_process(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """``cuckoo-rules serve`` on a new database: its URL and its log."""
    where = tmp_path_factory.mktemp("races")
    log = where / "server.log"
    with serve(where / "tables.sqlite3", log, TIMEOUT) as (_, url):
        yield url.rstrip("/"), log


def raw_request(url: str, data: bytes, *, close: bool = False) -> bytes:
    """Send ``data`` on a new connection; what the server answers (nothing if ``close``)."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=TIMEOUT) as sock:
        sock.sendall(data)
        if close:
            return b""
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
        return answer


def test_uvicorns_own_400_carries_the_security_headers(
    server_process: tuple[str, Path],
) -> None:
    url, _ = server_process
    for malformed in (
        b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nNo colon here\r\n\r\n",
        b"GET /\x00 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        b"NOT HTTP AT ALL\r\n\r\n",
    ):
        answer = raw_request(url, malformed)  # and the server closes the connection
        head, _, body = answer.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        assert lines[0] == "HTTP/1.1 400 Bad Request", answer
        headers = http.client.HTTPMessage()
        for line in lines[1:]:
            name, _, value = line.partition(": ")
            headers[name] = value
        assert_secured(headers)
        assert len(body) == int(headers["Content-Length"])


def test_a_client_that_leaves_mid_body_is_one_quiet_line_of_the_log(
    server_process: tuple[str, Path],
) -> None:
    url, log = server_process
    before = log.read_text()
    request = (
        b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: 1000\r\n\r\n" + b'{"seats": ["human", '
    )
    raw_request(url, request, close=True)
    deadline = time.monotonic() + 5
    while log.read_text() == before and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)  # a traceback would follow its first line at once
    written = log.read_text()[len(before) :]
    assert written.count("\n") == 1, written
    assert "the client left before sending its whole request" in written
    assert "POST /api/tables" in written
    assert "Traceback" not in written
    assert "Exception in ASGI application" not in written
    # The server goes on answering.
    assert httpx.get(f"{url}/api/bots", timeout=TIMEOUT).status_code == 200
