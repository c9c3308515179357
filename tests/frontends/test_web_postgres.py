"""Several server processes on one PostgreSQL database: no move lost, none doubled.

Needs ``CUCKOO_POSTGRES_URL`` (``bash scripts/postgres.sh start``; ``.ci/run`` starts one);
skipped without it, unless ``CUCKOO_REQUIRE_POSTGRES=1`` requires it. Each test has a
database of its own.
"""

from __future__ import annotations

import asyncio
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient

import cuckoo_rules as cr
from cuckoo_rules.web import create_app
from cuckoo_rules.web.bots import ThreadBotRunner
from cuckoo_rules.web.stores import open_store
from tests import postgres
from tests.servers import serve

TIMEOUT = 60.0
JSON = {"Content-Type": "application/json"}


@pytest.fixture
def database() -> Iterator[str]:
    """A fresh PostgreSQL database, dropped afterwards."""
    with postgres.fresh_database(postgres.server_url()) as url:
        yield url


class Acknowledged:
    """Every move a server answered 200 for: (table, move number) -> action document."""

    def __init__(self) -> None:
        self.moves: dict[tuple[str, int], dict[str, Any]] = {}
        self.refused = 0  # 409s of a move stored already (a retry after a lost answer)


async def play_table(
    urls: list[str], seed: int, acknowledged: Acknowledged, seats: list[str]
) -> str:
    """Create a table and play its human seats at random, each request to a random server.

    A request that gets no answer (the server was killed) is sent again, with the same
    move number, to another server: a 409 then says the move was stored.
    """
    rng = random.Random(seed)
    clients = [httpx.AsyncClient(base_url=url, timeout=TIMEOUT, headers=JSON) for url in urls]

    async def send(method: str, path: str, **kwargs: Any) -> httpx.Response:
        for _ in range(200):
            client = clients[rng.randrange(len(clients))]
            try:
                response = await client.request(method, path, **kwargs)
            except httpx.TransportError:
                await asyncio.sleep(0.05)
                continue
            if response.status_code != 503:
                return response
            await asyncio.sleep(0.05)
        raise AssertionError(f"{method} {path}: no server answered")

    try:
        created = await send("POST", "/api/tables", json={"seats": seats})
        assert created.status_code == 201, created.text
        table, tokens = created.json()["table"], dict(created.json()["tokens"])
        for seat, invitation in created.json()["invitations"].items():  # the friends come
            body = {"invitation": invitation}
            accepted = await send("POST", f"/api/tables/{table}/accept", json=body)
            if accepted.status_code == 409:  # taken by a first try that got no answer: again
                raise AssertionError(
                    f"table {table}: the answer of seat {seat}'s exchange was lost"
                )
            assert accepted.status_code == 200, accepted.text
            tokens[seat] = accepted.json()["token"]
        headers = {seat: {"Authorization": f"Bearer {token}"} for seat, token in tokens.items()}
        seat = rng.choice(sorted(headers))
        document: dict[str, Any] | None = None  # the seat's table, if the last answer gave it
        after = 0  # the first event not seen yet: as a polling client, ask for the new ones
        for _ in range(5000):
            if document is None:
                got = await send("GET", f"/api/tables/{table}?after={after}", headers=headers[seat])
                document = got.json()
            after = document["next_event"]
            if document["view"]["phase"] == "game_over":
                return str(table)
            if not document["legal_actions"]:
                to_act = str(document["view"]["current_player"])
                if to_act in headers:  # another person's turn: that person looks
                    seat = to_act
                else:  # a bot's: it plays in the background
                    await asyncio.sleep(0.02)
                document = None
                continue
            body = {"action": rng.choice(document["legal_actions"]), "move": document["move"]}
            answer = await send(
                "POST",
                f"/api/tables/{table}/actions?after={after}",
                json=body,
                headers=headers[seat],
            )
            if answer.status_code == 200:  # its answer is the table after the move
                acknowledged.moves[table, body["move"]] = body["action"]
                document = answer.json()
            else:
                assert answer.status_code == 409, answer.text
                acknowledged.refused += 1
                document = None
        raise AssertionError(f"table {table}: the game did not end")
    finally:
        for client in clients:
            await client.aclose()


def check_tables(url: str, tables: list[str], acknowledged: Acknowledged) -> int:
    """Every acknowledged move is stored, once, at its number; every game replays to its end."""
    store = open_store(url)
    moves = 0
    try:
        for table_id in tables:
            stored = store.table(table_id)
            assert stored is not None, table_id
            record = cr.GameRecord(stored.setup.options, stored.setup.seed, stored.actions)
            assert cr.records.final_state(record).is_over  # it replays, legally, to the end
            assert stored.status == "over"
            moves += len(stored.actions)
            for (table, move), action in acknowledged.moves.items():
                if table == table_id:
                    assert cr.encode_action(stored.actions[move]) == action, (table, move)
    finally:
        store.close()
    return moves


def test_two_servers_play_twenty_tables_at_once(database: str, tmp_path: Path) -> None:
    acknowledged = Acknowledged()
    with ExitStack() as stack:
        urls = [
            stack.enter_context(serve(database, tmp_path / f"server{i}.log", TIMEOUT))[1]
            for i in range(2)
        ]

        async def main() -> list[str]:
            seats = [["human", "human"], ["human", "random"], ["human", "greedy", "human"]]
            return await asyncio.gather(
                *(play_table(urls, i, acknowledged, seats[i % 3]) for i in range(20))
            )

        tables = asyncio.run(main())
    moves = check_tables(database, tables, acknowledged)
    print(f"\n20 tables on 2 servers: {len(acknowledged.moves)} moves acknowledged, {moves} stored")
    assert len(set(tables)) == 20
    assert len(acknowledged.moves) > 500
    assert moves >= len(acknowledged.moves)


def test_a_server_killed_mid_game_loses_no_acknowledged_move(database: str, tmp_path: Path) -> None:
    acknowledged = Acknowledged()
    with ExitStack() as stack:
        servers = [
            stack.enter_context(serve(database, tmp_path / f"server{i}.log", TIMEOUT))
            for i in range(2)
        ]
        urls = [url for _, url in servers]

        async def killer() -> None:
            for victim in (0, 1, 0):  # either process, while the games go on
                await asyncio.sleep(1.5)
                process = servers[victim][0]
                process.send_signal(signal.SIGKILL)
                await asyncio.to_thread(process.wait, TIMEOUT)
                # Its replacement takes the same port: the clients' retries find it.
                port = urls[victim].rsplit(":", 1)[1].strip("/")
                replacement = await asyncio.to_thread(
                    restart, database, int(port), tmp_path / f"again{victim}.log"
                )
                stack.callback(replacement.kill)
                servers[victim] = (replacement, urls[victim])

        async def main() -> list[str]:
            seats = [["human", "human"], ["human", "random"]]
            games = asyncio.gather(
                *(play_table(urls, 100 + i, acknowledged, seats[i % 2]) for i in range(8))
            )
            _, tables = await asyncio.gather(killer(), games)
            return tables

        tables = asyncio.run(main())
    stored = check_tables(database, tables, acknowledged)
    assert len(acknowledged.moves) > 100
    print(  # the figures of the run (seen with -s)
        f"\n3 kills: {len(acknowledged.moves)} moves acknowledged, all stored; {stored} moves "
        f"stored (bots' included); {acknowledged.refused} resent moves refused as played"
    )


def restart(database: str, port: int, log: Path) -> subprocess.Popen[str]:
    """Start a server again on ``port`` (the killed one's), waiting until it answers."""
    command = [sys.executable, "-m", "cuckoo_rules.cli", "serve", "--port", str(port)]
    with log.open("a") as errors:
        process = subprocess.Popen(
            [*command, "--db", database],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=errors,
            text=True,
        )
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/bots", timeout=1.0)
            return process
        except httpx.TransportError:
            time.sleep(0.1)
    process.kill()
    raise AssertionError(f"the server did not start again: {log.read_text()}")


def test_a_move_stored_by_one_process_reaches_the_other_without_a_request(
    database: str,
) -> None:
    # Two servers in this process, each with its own lobby on the database: a move made
    # through one is in the other's table in memory within a second, by LISTEN/NOTIFY.
    first = create_app(database, bot_runner=ThreadBotRunner())
    second = create_app(database, bot_runner=ThreadBotRunner())
    with (
        TestClient(first, base_url="http://127.0.0.1", headers=JSON) as one,
        TestClient(second, base_url="http://127.0.0.1", headers=JSON) as two,
    ):
        created = one.post("/api/tables", json={"seats": ["human", "human"]}).json()
        table, tokens = created["table"], dict(created["tokens"])
        accepted = one.post(
            f"/api/tables/{table}/accept", json={"invitation": created["invitations"]["1"]}
        )
        tokens["1"] = accepted.json()["token"]
        spectator = two.get(f"/api/tables/{table}").json()  # now in the second's memory
        assert spectator["move"] == 0
        seat = str(spectator["view"]["current_player"])
        document = one.get(
            f"/api/tables/{table}", headers={"Authorization": f"Bearer {tokens[seat]}"}
        ).json()
        body = {"action": document["legal_actions"][0], "move": 0}
        moved = one.post(
            f"/api/tables/{table}/actions",
            json=body,
            headers={"Authorization": f"Bearer {tokens[seat]}"},
        )
        assert moved.status_code == 200
        in_memory = second.state.lobby.tables[table]
        deadline = time.monotonic() + 1.0
        while in_memory.move == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert in_memory.move == 1
        # And the same move sent to the second server is refused there: it was played.
        again = two.post(
            f"/api/tables/{table}/actions",
            json=body,
            headers={"Authorization": f"Bearer {tokens[seat]}"},
        )
        assert again.status_code == 409
        assert again.json()["move"] == 1
