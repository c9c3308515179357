"""Fair shares of the server's work: hints and bot decisions, per client and per table.

Findings 3 and 4 of issue 27 (a probe of the server on ``682e8a4``): the hint queue had no
bound and searched the hints of clients that had gone, and one client's tables could
take every bot worker. Each test here drives a real uvicorn server, in a thread of this
process, on two addresses of this machine: loopback, where the noisy client talks, and
another address, so that the victim is another client (every loopback address counts as
one client). Hints are a stand-in search that sleeps and counts its calls; bots, a
stand-in decision that sleeps in a worker process. Each test failed on ``2cdbfba``.
"""

from __future__ import annotations

import asyncio
import ipaddress
import random
import socket
import statistics
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

import cuckoo_rules as cr
from cuckoo_rules.web import create_app
from cuckoo_rules.web.bots import BotJob, ProcessBotRunner
from tests.servers import ThreadedServer

TIMEOUT = 30.0
JSON = {"Content-Type": "application/json"}


def second_address() -> str:
    """An address of this machine that is not loopback (the victim's), or a skip."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: this sends nothing
            address: str = probe.getsockname()[0]
    except OSError:
        address = ""
    if not address or ipaddress.ip_address(address).is_loopback:
        pytest.skip("this machine has no address but loopback: a second client needs one")
    return address


@contextmanager
def serving(monkeypatch: pytest.MonkeyPatch, db: Path, **options: Any) -> Iterator[ThreadedServer]:
    import uvicorn

    # uvicorn may not configure logging in pytest: dictConfig would close pytest's handlers.
    monkeypatch.setattr(uvicorn.Config, "configure_logging", lambda config: None)
    other = second_address()
    app = create_app(db, allowed_hosts=["127.0.0.1", other], **options)
    with ThreadedServer(app, ["127.0.0.1", other]) as server:
        yield server


class SlowHints:
    """A stand-in for the expert's ``hint``: it sleeps, counts its calls, answers legally."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.calls: list[float] = []  # when each search began
        self._lock = threading.Lock()

    def __call__(self, view: cr.PlayerView, knowledge: object = None, **kwargs: Any) -> Any:
        from cuckoo_rules.bots.expert import ActionEstimate

        with self._lock:
            self.calls.append(time.monotonic())
        time.sleep(self.seconds)
        legal = cr.legal_actions(view)[: kwargs.get("top", 3)]
        return tuple(ActionEstimate(action, 0.5, 1) for action in legal)


@pytest.fixture
def slow_hints(monkeypatch: pytest.MonkeyPatch) -> SlowHints:
    module = pytest.importorskip("cuckoo_rules.bots.expert", reason="no batch extra")
    hints = SlowHints(0.4)
    monkeypatch.setattr(module, "hint", hints)
    return hints


def client_of(url: str, timeout: float = TIMEOUT) -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=url, timeout=timeout, headers=JSON)


HUMAN_FIRST = next(s for s in range(50) if cr.new_game(cr.GameOptions(2), s).current_player == 0)


async def human_first(client: httpx.AsyncClient, seats: list[str] | None = None) -> tuple[str, str]:
    """A new table whose human seat 0 is to act first; its id and seat 0's token."""
    body = {"seats": seats or ["human", "greedy"], "seed": HUMAN_FIRST}
    response = await client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    return response.json()["table"], response.json()["tokens"]["0"]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def ask_hint(client: httpx.AsyncClient, table: str, token: str) -> httpx.Response:
    return await client.get(f"/api/tables/{table}/hint", headers=bearer(token))


async def abandon_hint(url: str, table: str, token: str, after: float) -> None:
    """Ask for a hint and hang up after ``after`` seconds, without the answer."""
    async with client_of(url, timeout=after) as client:
        with pytest.raises(httpx.TimeoutException):
            await ask_hint(client, table, token)


async def play(client: httpx.AsyncClient, table: str, token: str) -> dict[str, Any]:
    """Play seat 0's first legal action, then wait for the greedy bot; the document then."""
    document = (await client.get(f"/api/tables/{table}", headers=bearer(token))).json()
    body = {"action": document["legal_actions"][0], "move": document["move"]}
    answer = await client.post(f"/api/tables/{table}/actions", json=body, headers=bearer(token))
    assert answer.status_code == 200, answer.text
    deadline = time.monotonic() + TIMEOUT
    while True:
        document = (await client.get(f"/api/tables/{table}", headers=bearer(token))).json()
        if document["legal_actions"] or document["status"] != "open":
            return dict(document)
        assert time.monotonic() < deadline
        await asyncio.sleep(0.01)


# --------------------------------------------------------------------------- hints


def test_the_hint_queue_is_bounded_per_client_and_another_client_is_served_next(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, slow_hints: SlowHints
) -> None:
    """Eight hints at once from one client: those beyond its bound get 429 and
    ``Retry-After``, nothing more is searched, and a hint of another client is answered
    after the search running, not after the noisy client's queue."""
    with serving(monkeypatch, tmp_path / "t.sqlite3") as server:

        async def main() -> tuple[list[httpx.Response], httpx.Response, float]:
            async with client_of(server.url) as noisy, client_of(server.urls[1]) as victim:
                tables = [await human_first(noisy) for _ in range(8)]
                mine = await human_first(victim)
                flood = asyncio.gather(*(ask_hint(noisy, *table) for table in tables))
                await asyncio.sleep(0.2)
                started = time.monotonic()
                answer = await ask_hint(victim, *mine)
                waited = time.monotonic() - started
                return list(await flood), answer, waited

        answers, victims, waited = asyncio.run(main())
    statuses = sorted(answer.status_code for answer in answers)
    refused = [answer for answer in answers if answer.status_code == 429]
    assert refused, f"no hint was refused: {statuses}"
    assert set(statuses) == {200, 429}, statuses
    for answer in refused:
        assert int(answer.headers["Retry-After"]) >= 1
        assert "hints waiting to be searched" in answer.json()["error"]
    assert victims.status_code == 200, victims.text
    # The victim waited for the search running and its own, not for the noisy queue.
    assert waited < 4 * slow_hints.seconds, waited
    assert len(slow_hints.calls) == statuses.count(200) + 1  # nothing refused was searched


def test_one_hint_per_seat_is_in_flight(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, slow_hints: SlowHints
) -> None:
    """Requests of a seat at one move share one search; a seat's request at a later move
    replaces its waiting one (answered 409) or, while the earlier one is being searched,
    gets 429 with ``Retry-After``."""
    with serving(monkeypatch, tmp_path / "t.sqlite3") as server:

        async def main() -> None:
            async with client_of(server.url) as client:
                table, token = await human_first(client)
                blocker = await human_first(client)
                # Four requests of one seat at one move: one search, four answers.
                same = await asyncio.gather(*(ask_hint(client, table, token) for _ in range(4)))
                assert [answer.status_code for answer in same] == [200] * 4
                assert len({answer.text for answer in same}) == 1
                assert len(slow_hints.calls) == 1

                # The seat's search at move 2 is running; it moves on and asks at move 4.
                await play(client, table, token)
                running = asyncio.create_task(ask_hint(client, table, token))
                await asyncio.sleep(0.2)
                later = await play(client, table, token)
                second = await ask_hint(client, table, token)
                assert second.status_code == 429, second.text
                assert int(second.headers["Retry-After"]) >= 1
                assert (await running).status_code == 200
                assert len(slow_hints.calls) == 2

                # Now its search at move 4 waits behind another; at move 6 it replaces it.
                other = asyncio.create_task(ask_hint(client, *blocker))
                await asyncio.sleep(0.2)
                waiting = asyncio.create_task(ask_hint(client, table, token))
                await asyncio.sleep(0.1)
                latest = await play(client, table, token)
                assert latest["move"] > later["move"]
                third = await ask_hint(client, table, token)
                replaced = await waiting
                assert replaced.status_code == 409, replaced.text
                assert replaced.json()["move"] == latest["move"]
                assert third.status_code == 200, third.text
                assert third.json()["move"] == latest["move"]
                assert (await other).status_code == 200
                assert len(slow_hints.calls) == 4  # the replaced search never ran

        asyncio.run(main())


def test_an_abandoned_hint_is_not_searched(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, slow_hints: SlowHints
) -> None:
    """Hints whose clients hung up while they waited are dropped when their turn comes."""
    slow_hints.seconds = 1.0  # the first search outlasts the others' hanging up, by far
    with serving(monkeypatch, tmp_path / "t.sqlite3") as server:

        async def main() -> tuple[httpx.Response, float]:
            async with client_of(server.url) as client:
                tables = [await human_first(client) for _ in range(5)]
                running = asyncio.create_task(ask_hint(client, *tables[0]))
                await asyncio.sleep(0.1)
                await asyncio.gather(
                    *(abandon_hint(server.url, *table, after=0.2) for table in tables[1:4])
                )
                started = time.monotonic()
                last = await ask_hint(client, *tables[4])
                assert (await running).status_code == 200
                return last, time.monotonic() - started

        last, waited = asyncio.run(main())
    assert last.status_code == 200, last.text
    assert len(slow_hints.calls) == 2  # the first and the last: the abandoned three were not
    assert waited < 2.5 * slow_hints.seconds, waited


# --------------------------------------------------------------------------- bots

DECISION_SECONDS = 0.4


def slow_decide(job: BotJob) -> cr.Action:
    """A bot that thinks ``DECISION_SECONDS`` (in a worker process), then plays greedy's move."""
    time.sleep(DECISION_SECONDS)
    return cr.bots.GreedyBot(seed=job.seed).choose(job.view)


async def bot_answers(client: httpx.AsyncClient, table: str, token: str) -> float:
    """Play seat 0 until its bot is to act; the seconds from that move sent to the bot's."""
    url = f"/api/tables/{table}"
    while True:
        document = (await client.get(url, headers=bearer(token))).json()
        if not document["legal_actions"]:  # the bot's turn goes on
            await asyncio.sleep(0.01)
            continue
        body = {"action": document["legal_actions"][0], "move": document["move"]}
        started = time.monotonic()
        answer = await client.post(f"{url}/actions", json=body, headers=bearer(token))
        assert answer.status_code == 200, answer.text
        if not answer.json()["legal_actions"]:  # the bot is to act
            break
    while (await client.get(url)).json()["move"] <= answer.json()["move"]:
        assert time.monotonic() - started < TIMEOUT
        await asyncio.sleep(0.01)
    return time.monotonic() - started


@pytest.mark.slow
def test_a_victims_bot_moves_while_another_clients_tables_keep_the_workers_busy(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Eight tables of three bots, kept playing by one client, and one worker: the bot of
    another client's table still moves within about two decisions, not eight."""
    runner = ProcessBotRunner(workers=1, decide=slow_decide)
    with serving(monkeypatch, tmp_path / "t.sqlite3", bot_runner=runner) as server:

        async def flood(client: httpx.AsyncClient, stop: asyncio.Event, moves: list[int]) -> None:
            seats = ["human", "ismcts", "ismcts", "ismcts"]
            tables = []
            for _ in range(8):
                response = await client.post("/api/tables", json={"seats": seats})
                assert response.status_code == 201, response.text
                tables.append((response.json()["table"], response.json()["tokens"]["0"]))
            rng = random.Random(5)
            while not stop.is_set():
                for table, token in tables:
                    url = f"/api/tables/{table}"
                    document = (await client.get(url, headers=bearer(token))).json()
                    moves.append(document["move"])
                    if document["legal_actions"]:
                        body = {
                            "action": rng.choice(document["legal_actions"]),
                            "move": document["move"],
                        }
                        await client.post(f"{url}/actions", json=body, headers=bearer(token))
                await asyncio.sleep(0.05)

        async def main() -> list[float]:
            stop = asyncio.Event()
            moves: list[int] = []
            async with client_of(server.url) as noisy, client_of(server.urls[1]) as victim:
                flooding = asyncio.create_task(flood(noisy, stop, moves))
                deadline = time.monotonic() + TIMEOUT
                while sum(moves[-8:]) < 16:  # the worker started and the bots play
                    assert time.monotonic() < deadline
                    assert not flooding.done()
                    await asyncio.sleep(0.1)
                table, token = await human_first(victim, ["human", "ismcts"])
                latencies = [await bot_answers(victim, table, token) for _ in range(4)]
                stop.set()
                await flooding
            return latencies

        latencies = asyncio.run(main())
    print(f"\nthe victim's bot moves: {[round(s, 2) for s in latencies]} s")
    # One decision running (at most DECISION_SECONDS) and its own; 8 the noisy tables'.
    assert statistics.median(latencies) < 4 * DECISION_SECONDS, latencies


def test_a_client_alone_may_hold_every_worker_and_leaves_one_while_another_asks() -> None:
    """The turns themselves: fewest in use first, and one slot kept for a recent other."""
    from cuckoo_rules.web.shares import FairShares

    now = [0.0]
    shares = FairShares(2, reserve_for=60.0, clock=lambda: now[0])
    held: list[str] = []

    async def main() -> None:
        release = asyncio.Event()

        async def work(client: str, table: str) -> None:
            async with shares.turn(client, table):
                held.append(client + table)
                await release.wait()

        alone = [asyncio.create_task(work("a", str(i))) for i in range(3)]
        await asyncio.sleep(0)
        assert held == ["a0", "a1"]  # alone, it holds both
        other = asyncio.create_task(work("b", "0"))
        await asyncio.sleep(0)
        assert held == ["a0", "a1"]
        assert shares.waiting == 2
        release.set()
        await asyncio.gather(*alone, other)
        # b was served before a's third table, and a then held one slot only (b asked
        # within a minute): the order of the turns shows it.
        assert held == ["a0", "a1", "b0", "a2"]
        release.clear()
        now[0] = 61.0  # b asked over a minute ago: a may hold both again
        again = [asyncio.create_task(work("a", str(i))) for i in range(2)]
        await asyncio.sleep(0)
        assert held[-2:] == ["a0", "a1"]
        release.set()
        await asyncio.gather(*again)

    asyncio.run(main())
