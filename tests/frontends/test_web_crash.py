"""``cuckoo-rules serve`` as a real process: killed with SIGKILL, it loses no accepted move.

The server is started as a subprocess on a free port of 127.0.0.1 with a temporary
database; moves are played over HTTP; the process is killed with ``SIGKILL`` right after
the last answer, started again on the same file, and must show exactly what it showed
before. Every wait has a timeout, so a hang fails the test instead of stalling it.
"""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import threading
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.servers import serve

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")

TIMEOUT = 20.0  # seconds, for the server to start and for any one request


def server(db: Path, log: Path) -> AbstractContextManager[tuple[subprocess.Popen[str], str]]:
    """Run ``cuckoo-rules serve --port 0 --db DB``; yield the process and its URL."""
    return serve(db, log, TIMEOUT)


def get(client: httpx.Client, url: str, token: str | None = None) -> dict[str, Any]:
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    response = client.get(url, headers=headers)
    assert response.status_code == 200, response.text
    document: dict[str, Any] = response.json()
    return document


def test_no_accepted_move_is_lost_to_sigkill(tmp_path: Path) -> None:
    db = tmp_path / "crash.sqlite3"
    log = tmp_path / "server.log"
    rng = random.Random(3)
    with server(db, log) as (process, url), httpx.Client(base_url=url, timeout=TIMEOUT) as client:
        created = client.post("/api/tables", json={"seats": ["human", "greedy"], "seed": 99})
        assert created.status_code == 201, created.text
        table = created.json()["table"]
        token = created.json()["tokens"]["0"]
        events: list[Any] = []
        narration: list[Any] = []
        after = 0
        moves = 0
        while moves < 12:
            document = get(client, f"/api/tables/{table}?after={after}", token)
            events += document["events"]
            narration += document["narration"]
            after = document["next_event"]
            if document["view"]["phase"] == "game_over":
                break
            if not document["legal_actions"]:  # the bot plays, in the background
                threading.Event().wait(0.01)
                continue
            action = rng.choice(document["legal_actions"])
            response = client.post(
                f"/api/tables/{table}/actions?after={after}",
                json={"action": action, "move": document["move"]},
                headers={"Authorization": f"Bearer {token}"},
            )
            assert response.status_code == 200, response.text
            events += response.json()["events"]
            narration += response.json()["narration"]
            after = response.json()["next_event"]
            moves += 1
            last_action, last_move = action, document["move"]
        last = response.json()
        while last["status"] == "open" and not last["legal_actions"]:  # the bot's answer
            threading.Event().wait(0.01)
            last = get(client, f"/api/tables/{table}?after={after}", token)
            events += last["events"]
            narration += last["narration"]
            after = last["next_event"]
        process.send_signal(signal.SIGKILL)  # at once, right after the last answer
        assert process.wait(timeout=TIMEOUT) == -signal.SIGKILL
    assert moves == 12

    with server(db, log) as (_, url), httpx.Client(base_url=url, timeout=TIMEOUT) as client:
        again = get(client, f"/api/tables/{table}", token)
        assert again["events"] == events
        assert again["narration"] == narration
        parts: dict[str, list[Any]] = {"events": [], "narration": []}
        assert {**again, **parts} == {**last, **parts}
        assert again == get(client, f"/api/tables/{table}?after=0", token)
        # The last move sent again (a client that did not see the answer) is refused.
        resent = client.post(
            f"/api/tables/{table}/actions",
            json={"action": last_action, "move": last_move},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert resent.status_code == 409, resent.text
        assert "was already played" in resent.json()["error"]
        assert get(client, f"/api/tables/{table}", token) == again
        # The game goes on from there.
        action = again["legal_actions"][0]
        response = client.post(
            f"/api/tables/{table}/actions",
            json={"action": action, "move": again["move"]},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert response.status_code == 200, response.text
        assert response.json()["next_event"] > again["next_event"]


def test_serve_answers_on_the_printed_url(tmp_path: Path) -> None:
    db = tmp_path / "serve.sqlite3"
    with (
        server(db, tmp_path / "server.log") as (process, url),
        httpx.Client(base_url=url, timeout=TIMEOUT) as client,
    ):
        assert client.get("/api/bots").json()["bots"][:2] == ["random", "greedy"]
        process.send_signal(signal.SIGINT)  # Ctrl-C: a clean stop
        assert process.wait(timeout=TIMEOUT) == 130
    assert db.exists()
    assert "Traceback" not in (tmp_path / "server.log").read_text()
    assert "Application shutdown complete" in (tmp_path / "server.log").read_text()


def test_a_kill_in_the_middle_of_play_keeps_every_answered_move(tmp_path: Path) -> None:
    db = tmp_path / "busy.sqlite3"
    log = tmp_path / "server.log"
    answered: list[dict[str, Any]] = []  # every answer the client got, in order
    with server(db, log) as (process, url):
        with httpx.Client(base_url=url, timeout=TIMEOUT) as client:
            created = client.post("/api/tables", json={"seats": ["human", "random"], "seed": 5})
            table = created.json()["table"]
            token = created.json()["tokens"]["0"]

        def play() -> None:  # moves as fast as it can until the server dies
            rng = random.Random(5)
            with httpx.Client(base_url=url, timeout=TIMEOUT) as client:
                try:
                    while True:
                        document = get(client, f"/api/tables/{table}", token)
                        if document["status"] != "open":
                            return
                        if not document["legal_actions"]:  # the bot's turn, in the background
                            threading.Event().wait(0.002)
                            continue
                        response = client.post(
                            f"/api/tables/{table}/actions",
                            json={
                                "action": rng.choice(document["legal_actions"]),
                                "move": document["move"],
                            },
                            headers={"Authorization": f"Bearer {token}"},
                        )
                        assert response.status_code == 200, response.text
                        answered.append(response.json())
                except httpx.TransportError:
                    return

        player = threading.Thread(target=play, daemon=True)
        player.start()
        for _ in range(int(TIMEOUT / 0.01)):  # kill it at some moment in the middle
            if len(answered) >= 10 or not player.is_alive():
                break
            threading.Event().wait(0.01)
        threading.Event().wait(random.Random().uniform(0, 0.02))
        process.send_signal(signal.SIGKILL)
        player.join(timeout=TIMEOUT)
        assert not player.is_alive()
    assert answered, "no move was answered before the kill"
    last = answered[-1]
    with server(db, log) as (_, url), httpx.Client(base_url=url, timeout=TIMEOUT) as client:
        again = get(client, f"/api/tables/{table}", token)
    # Every answered move is there: the events up to the last answer are unchanged.
    assert again["next_event"] >= last["next_event"]
    assert again["events"][: last["next_event"]] == last["events"]
    assert again["narration"][: last["next_event"]] == last["narration"]
    assert again["view"]["turn"] >= last["view"]["turn"]


def test_serve_stops_cleanly_on_sigterm(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    with server(tmp_path / "term.sqlite3", log) as (process, url):
        assert httpx.get(url + "api/bots", timeout=TIMEOUT).status_code == 200  # serving
        process.send_signal(signal.SIGTERM)
        # uvicorn shuts down, then ends the process with the signal it was sent.
        assert process.wait(timeout=TIMEOUT) == -signal.SIGTERM
    assert "Application shutdown complete" in log.read_text()
    assert "Traceback" not in log.read_text()


def test_serve_without_the_web_extra_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import cuckoo_rules.web.server  # noqa: F401  # loaded already, as in the whole suite
    from cuckoo_rules.cli import main

    monkeypatch.setitem(sys.modules, "uvicorn", None)
    assert main(["serve", "--port", "0", "--db", str(tmp_path / "x.sqlite3")]) == 2
    assert "install the web extra: pip install 'cuckoo-rules[web]'" in capsys.readouterr().err
    assert not (tmp_path / "x.sqlite3").exists()


def test_serve_refuses_a_bad_port(capsys: pytest.CaptureFixture[str]) -> None:
    from cuckoo_rules.cli import main

    with pytest.raises(SystemExit) as exit_info:
        main(["serve", "--port", "70000"])
    assert exit_info.value.code == 2
    assert "argument --port: 70000 is not in 0..65535" in capsys.readouterr().err
