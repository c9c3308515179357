"""Seats only their holder controls: invitations, hand-overs and streams (issue 27).

Against the real server process on loopback (``tests.servers.serve``), as a creator who
would read a friend's hand would try it: every credential the creator was ever given
(the answer to ``POST /api/tables``) is tried on the invited seat, before and after the
friend takes it, and in the rematch; an invitation is exchanged once, also by requests
racing each other; a push stream whose token loses its seat ends without sending what
came after; and two server processes on one PostgreSQL database agree at once on who
holds a seat.

The tests speak to the server as any client does, so each also runs against a server
from before invitations (whose creation answer held every seat's token, the "link" of
an invited seat): there the friend takes the seat as that server allowed (using the
link's token, or joining a lobby table), and each test fails on the finding it checks.
"""

from __future__ import annotations

import asyncio
import functools
import json
import random
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import ExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient

from cuckoo_rules.web import create_app
from tests import postgres
from tests.servers import serve

TIMEOUT = 30.0
JSON = {"Content-Type": "application/json"}
TRIALS = 10  # of the race of a stream and a join (the finding: 54 leaks in 80)
PROCESS_TRIALS = 40  # seats taken in one process, checked in the other (before: 1 in 10 leaked)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@functools.cache
def room() -> tuple[str, ...]:
    """The server's flags that let these tests create their tables at once (all from one
    client): none for a server without limits on the tables created a minute."""
    helped = subprocess.run(
        [sys.executable, "-m", "cuckoo_rules.cli", "serve", "--help"],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=True,
    )
    tables = ("--max-tables-per-client", "1000")
    if "--tables-per-minute-total" not in helped.stdout:
        return tables
    return (*tables, "--tables-per-minute", "1000", "--tables-per-minute-total", "1000")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One real server process (SQLite) for the module's tests, each with its own tables."""
    where = tmp_path_factory.mktemp("invitations")
    with serve(where / "tables.sqlite3", where / "server.log", TIMEOUT, room()) as (_, url):
        yield url


def client_of(url: str) -> httpx.Client:
    return httpx.Client(base_url=url, timeout=TIMEOUT, headers=JSON)


def create(client: httpx.Client, seats: list[str], **fields: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json={"seats": seats, **fields})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def credentials(created: dict[str, Any]) -> list[str]:
    """Every secret the creator was given: tokens, invitations, whatever the answer holds."""
    found: list[str] = []
    for key in ("tokens", "invitations"):
        found += [str(value) for value in (created.get(key) or {}).values()]
    return found


def link_of(created: dict[str, Any], seat: int) -> str:
    """What the creator sends to the friend of ``seat``: its invitation (its token, before
    invitations existed)."""
    invitations = created.get("invitations")
    if invitations is not None:
        return str(invitations[str(seat)])
    return str(created["tokens"][str(seat)])


def take_seat(client: httpx.Client, created: dict[str, Any], seat: int) -> str:
    """The friend opens the link of ``seat``: the token the friend holds it with."""
    table = created["table"]
    if "invitations" in created:
        accepted = client.post(
            f"/api/tables/{table}/accept", json={"invitation": link_of(created, seat)}
        )
        assert accepted.status_code == 200, accepted.text
        assert accepted.json()["seat"] == seat
        return str(accepted.json()["token"])
    # Before invitations: the link held the seat's token, which the friend used.
    token = link_of(created, seat)
    read = client.get(f"/api/tables/{table}", headers=bearer(token))
    assert read.status_code == 200, read.text
    return token


def join_seat(client: httpx.Client, table: str, seat: int) -> str:
    """Someone joins ``seat`` of a lobby table: the new token."""
    joined = client.post(f"/api/tables/{table}/join", json={"name": "Bob", "seat": seat})
    assert joined.status_code == 200, joined.text
    return str(joined.json()["token"])


def read_as(client: httpx.Client, table: str, token: str) -> httpx.Response:
    return client.get(f"/api/tables/{table}", headers=bearer(token))


def seat_read(client: httpx.Client, table: str, token: str) -> int | None:
    """The seat whose view ``token`` reads (``None``: refused, or a spectator's view)."""
    response = read_as(client, table, token)
    if response.status_code == 401:
        return None
    assert response.status_code == 200, response.text
    seat = response.json()["seat"]
    return None if seat is None else int(seat)


def check_not_seat(
    client: httpx.Client, table: str, tokens: list[str], seat: int, holder: str | None
) -> None:
    """None of ``tokens`` reads ``seat``'s hand or acts for it (``holder`` does, if given)."""
    for token in tokens:
        read = seat_read(client, table, token)
        assert read != seat, f"a credential of the creator reads seat {seat}'s hand"
    if holder is None:
        return
    document = read_as(client, table, holder).json()
    assert document["seat"] == seat
    if document["view"]["current_player"] != seat or not document["legal_actions"]:
        return
    body = {"action": document["legal_actions"][0], "move": document["move"]}
    for token in tokens:
        acted = client.post(f"/api/tables/{table}/actions", json=body, headers=bearer(token))
        assert acted.status_code in (401, 409), f"a credential of the creator acted: {acted.text}"
    assert read_as(client, table, holder).json()["move"] == document["move"]  # nothing played


def check_no_stream_of(url: str, table: str, tokens: list[str], seat: int) -> None:
    """No stream opened with one of ``tokens`` shows ``seat``'s view."""
    with httpx.Client(base_url=url, timeout=httpx.Timeout(TIMEOUT, read=5.0)) as client:
        for token in tokens:
            with client.stream(
                "GET", f"/api/tables/{table}/stream", headers=bearer(token)
            ) as response:
                if response.status_code == 401:
                    continue
                assert response.status_code == 200
                for line in response.iter_lines():
                    if line.startswith("data:"):
                        first = json.loads(line.removeprefix("data:"))
                        assert first["seat"] != seat, "a creator's stream shows the friend's hand"
                        break


def play_to_the_end(client: httpx.Client, table: str, tokens: dict[int, str], seed: int) -> None:
    """Play a table of humans to its end, each seat with its own token, at random."""
    rng = random.Random(seed)
    for _ in range(2000):
        spectator = client.get(f"/api/tables/{table}").json()
        if spectator["status"] != "open" or spectator["view"]["phase"] == "game_over":
            return
        seat = spectator["view"]["current_player"]
        document = read_as(client, table, tokens[seat]).json()
        body = {"action": rng.choice(document["legal_actions"]), "move": document["move"]}
        acted = client.post(f"/api/tables/{table}/actions", json=body, headers=bearer(tokens[seat]))
        assert acted.status_code == 200, acted.text
    raise AssertionError("the game did not end")


# --------------------------------------------------------------------------- finding 1


@pytest.mark.slow
def test_the_creator_cannot_read_or_act_for_an_invited_seat_nor_in_the_rematch(
    server: str,
) -> None:
    with client_of(server) as client:
        created = create(client, ["human", "human"], names=["Ada", "Bob"])
        table = created["table"]
        mine = str(created["tokens"]["0"])
        others = [c for c in credentials(created) if c != mine]
        assert others, "the answer gives the creator something to invite with"
        # Before the friend comes: nothing the creator holds reads or plays seat 1.
        check_not_seat(client, table, others, 1, None)
        check_no_stream_of(server, table, others, 1)
        friend = take_seat(client, created, 1)
        assert seat_read(client, table, friend) == 1
        # After: still nothing, not the token of the creator's own seat either.
        everything = credentials(created)
        check_not_seat(client, table, everything, 1, friend)
        check_no_stream_of(server, table, everything, 1)
        play_to_the_end(client, table, {0: mine, 1: friend}, seed=27)
        rematch = client.post(f"/api/tables/{table}/rematch", json={}, headers=bearer(friend))
        assert rematch.status_code == 201, rematch.text
        new = rematch.json()["table"]
        # The rematch: each seat goes to its holder, and to nobody else.
        assert seat_read(client, new, mine) == 0
        assert seat_read(client, new, friend) == 1
        check_not_seat(client, new, everything, 1, friend)
        check_no_stream_of(server, new, everything, 1)


def test_an_invitation_that_nobody_took_carries_over_to_the_rematch_as_an_invitation() -> None:
    # In process: a game of three people ended at once on the server's own table (over
    # HTTP at random it is long); the seats and invitations are the store's (and
    # tests/frontends/test_store.py checks its rematch on both databases).
    with TestClient(create_app(":memory:"), base_url="http://127.0.0.1", headers=JSON) as local:
        made = local.post("/api/tables", json={"seats": ["human", "human", "human"]}).json()
        assert "invitations" in made, "no invitations: every seat's token went to the creator"
        table = made["table"]
        friend = local.post(
            f"/api/tables/{table}/accept", json={"invitation": made["invitations"]["1"]}
        ).json()["token"]
        lobby = local.app.state.lobby  # type: ignore[attr-defined]
        game = lobby.get(table)
        rng = random.Random(5)
        while not game.match.is_over:
            seat = game.match.to_act
            game.play(seat, rng.choice(game.match.legal_actions(seat)), game.match.move)
        lobby.settle(game)
        new = local.post(f"/api/tables/{table}/rematch", json={}, headers=bearer(friend))
        assert new.status_code == 201, new.text
        rematch = new.json()["table"]
        assert local.get(f"/api/tables/{rematch}").json()["free"] == [2]
        assert local.get(f"/api/tables/{rematch}", headers=bearer(friend)).json()["seat"] == 1
        invitation = {"invitation": made["invitations"]["2"]}
        assert (
            local.get(
                f"/api/tables/{rematch}", headers=bearer(invitation["invitation"])
            ).status_code
            == 401
        )  # an invitation reads no seat
        taken = local.post(f"/api/tables/{rematch}/accept", json=invitation)
        assert taken.status_code == 200, taken.text
        assert taken.json()["seat"] == 2
        assert local.post(f"/api/tables/{rematch}/accept", json=invitation).status_code == 409
        for token in (made["tokens"]["0"], *made["invitations"].values()):
            seat = local.get(f"/api/tables/{rematch}", headers=bearer(token))
            assert seat.status_code == 401 or seat.json()["seat"] == 0


# --------------------------------------------------------------------------- once


def test_an_invitation_works_once(server: str) -> None:
    with client_of(server) as client:
        created = create(client, ["human", "human", "human"], names=["Ada", "Bob", None])
        table = created["table"]
        assert "invitations" in created, "no invitations: every seat's token went to the creator"
        invitation = {"invitation": created["invitations"]["1"]}
        first = client.post(f"/api/tables/{table}/accept", json=invitation)
        assert first.status_code == 200, first.text
        assert list(first.json()) == ["table", "seat", "token", "move"]
        token = first.json()["token"]
        assert token not in credentials(created)  # nobody but its holder ever saw it
        assert seat_read(client, table, created["invitations"]["2"]) is None  # reads nothing
        again = client.post(f"/api/tables/{table}/accept", json={**invitation, "name": "Eve"})
        assert again.status_code == 409
        assert "an invitation works once" in again.json()["error"]
        document = read_as(client, table, token).json()
        assert (document["seat"], document["players"]) == (1, ["Ada", "Bob", None])
        assert document["free"] == [2]

    # Twelve requests racing for one invitation: one gets the seat.
    async def race() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=server, timeout=TIMEOUT, headers=JSON) as racing:
            body = {"invitation": created["invitations"]["2"]}
            return await asyncio.gather(
                *(racing.post(f"/api/tables/{table}/accept", json=body) for _ in range(12))
            )

    answers = asyncio.run(race())
    assert sorted(answer.status_code for answer in answers) == [200] + [409] * 11
    with client_of(server) as client:
        (winner,) = [a.json()["token"] for a in answers if a.status_code == 200]
        assert seat_read(client, table, winner) == 2
        assert client.get(f"/api/tables/{table}").json()["free"] == []


# --------------------------------------------------------------------------- finding 2


@asynccontextmanager
async def open_stream(
    client: httpx.AsyncClient, table: str, token: str
) -> AsyncIterator[tuple[httpx.Response, asyncio.Queue[dict[str, Any] | None]]]:
    """A stream read in the background: its response and the ``data`` of its messages
    (``None`` once it ended)."""
    queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
    timeout = httpx.Timeout(TIMEOUT, read=None)
    async with client.stream(
        "GET", f"/api/tables/{table}/stream", headers=bearer(token), timeout=timeout
    ) as response:

        async def read() -> None:
            try:
                if response.status_code == 200:
                    async for line in response.aiter_lines():
                        if line.startswith("data:"):
                            queue.put_nowait(json.loads(line.removeprefix("data:")))
            except httpx.HTTPError:
                pass
            finally:
                queue.put_nowait(None)

        reader = asyncio.create_task(read())
        try:
            yield response, queue
        finally:
            reader.cancel()
            await asyncio.gather(reader, return_exceptions=True)


async def drain(queue: asyncio.Queue[dict[str, Any] | None], seconds: float) -> list[Any]:
    """The messages that come within ``seconds`` (up to the stream's end, ``None``)."""
    got: list[Any] = []
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        try:
            message = await asyncio.wait_for(queue.get(), left)
        except TimeoutError:
            break
        got.append(message)
        if message is None:
            break
    return got


def test_a_stream_opened_with_the_invitation_racing_a_join_never_shows_the_joiners_hand(
    server: str,
) -> None:
    # Finding 2: a stream opened with the invitation's link while someone joins the seat
    # from the lobby kept showing that seat (the joiner's hand) after the join.
    async def trial(client: httpx.AsyncClient, number: int) -> int:
        response = await client.post(
            "/api/tables", json={"seats": ["human", "human"], "lobby": True}
        )
        created = response.json()
        table, link = created["table"], link_of(created, 1)
        body = {"name": f"Bob {number}", "seat": 1}
        # The join and the stream at once, as a person joining and the link opened race:
        # the join sent first, the stream while the join is on its way.
        join = asyncio.create_task(client.post(f"/api/tables/{table}/join", json=body))
        await asyncio.sleep(0)
        async with open_stream(client, table, link) as (opened, messages):
            joined = await join
            if "invitations" in created:
                assert opened.status_code == 401  # an invitation opens no seat's stream
            if joined.status_code != 200 or opened.status_code != 200:
                return 0  # one of them got the seat, the other nothing
            later = [m for m in await drain(messages, 0.5) if m is not None]
            # Anything built after the join names Bob: none of it may show seat 1's view.
            return sum(
                1
                for m in later
                if m.get("seat") == 1 and f"Bob {number}" in (m.get("players") or [])
            )

    async def main() -> list[int]:
        async with httpx.AsyncClient(base_url=server, timeout=TIMEOUT, headers=JSON) as client:
            return [await trial(client, n) for n in range(TRIALS)]

    leaks = asyncio.run(main())
    assert leaks == [0] * TRIALS, f"the joiner's seat was streamed to the link: {leaks}"


def test_a_stream_whose_token_loses_the_seat_ends(server: str) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(base_url=server, timeout=TIMEOUT, headers=JSON) as client:
            created = (await client.post("/api/tables", json={"seats": ["human", "human"]})).json()
            table = created["table"]
            assert "invitations" in created, "no invitations: a seat cannot change hands"
            accepted = await client.post(
                f"/api/tables/{table}/accept", json={"invitation": created["invitations"]["1"]}
            )
            old = accepted.json()["token"]
            async with open_stream(client, table, old) as (opened, messages):
                assert opened.status_code == 200
                first = await asyncio.wait_for(messages.get(), TIMEOUT)
                assert first is not None
                assert (first["seat"], first["free"]) == (1, [])
                handed = await client.post(f"/api/tables/{table}/handover", headers=bearer(old))
                assert handed.status_code == 200, handed.text
                assert list(handed.json()) == ["table", "seat", "invitation", "move"]
                rest = await drain(messages, 10.0)
                assert rest[-1:] == [None], "the stream goes on after the hand-over"
                # Nothing built after the hand-over (the seat free again) was sent.
                assert all(m["free"] == [] for m in rest[:-1])
            # The old token is dead everywhere; the new invitation buys the seat, once.
            assert (
                await client.get(f"/api/tables/{table}", headers=bearer(old))
            ).status_code == 401
            invitation = {"invitation": handed.json()["invitation"]}
            taken = await client.post(f"/api/tables/{table}/accept", json=invitation)
            assert taken.status_code == 200
            assert taken.json()["seat"] == 1
            refused = await client.get(f"/api/tables/{table}/stream", headers=bearer(old))
            assert refused.status_code == 401

    asyncio.run(main())


# --------------------------------------------------------------------------- processes


@pytest.fixture
def database() -> Iterator[str]:
    """A fresh PostgreSQL database, dropped afterwards."""
    with postgres.fresh_database(postgres.server_url()) as url:
        yield url


@pytest.mark.slow
def test_two_processes_on_one_database_agree_at_once_on_who_holds_a_seat(
    database: str, tmp_path: Path
) -> None:
    with ExitStack() as stack:
        one, two = (
            stack.enter_context(serve(database, tmp_path / f"server{i}.log", TIMEOUT, room()))[1]
            for i in range(2)
        )
        a, b = stack.enter_context(client_of(one)), stack.enter_context(client_of(two))
        # The seat is taken through the first process; the second, which holds the table
        # in memory from before, refuses what the creator kept, at once (no waiting for
        # its notification).
        refused = 0
        for trial in range(PROCESS_TRIALS):
            created = create(a, ["human", "human"], lobby=True)
            table = created["table"]
            assert seat_read(b, table, str(created["tokens"]["0"])) == 0  # in its memory
            if "invitations" in created:
                friend = take_seat(a, created, 1)
            else:
                friend = join_seat(a, table, 1)  # the way a seat changed hands before
            kept = [c for c in credentials(created) if c != created["tokens"]["0"]]
            reads = [seat_read(b, table, token) for token in kept]
            refused += all(read != 1 for read in reads)
            assert seat_read(b, table, friend) == 1  # and the new holder is known there
            if "invitations" in created:  # the invitation buys nothing there any more
                again = b.post(
                    f"/api/tables/{table}/accept", json={"invitation": link_of(created, 1)}
                )
                assert again.status_code == 409, (trial, again.text)
        accepted = PROCESS_TRIALS - refused
        assert accepted == 0, f"the second process accepted an old credential {accepted} times"

        # A hand-over through the first process: the token is dead in the second at once,
        # and the second's stream of that token ends.
        created = create(a, ["human", "human"])
        table = created["table"]
        assert "invitations" in created, "no invitations: a seat cannot change hands"
        friend = take_seat(a, created, 1)

        async def main() -> None:
            async with (
                httpx.AsyncClient(base_url=two, timeout=TIMEOUT, headers=JSON) as far,
                open_stream(far, table, friend) as (opened, messages),
            ):
                assert opened.status_code == 200
                first = await asyncio.wait_for(messages.get(), TIMEOUT)
                assert first is not None
                assert first["seat"] == 1
                handed = a.post(f"/api/tables/{table}/handover", headers=bearer(friend))
                assert handed.status_code == 200, handed.text
                gone = await far.get(f"/api/tables/{table}", headers=bearer(friend))
                assert gone.status_code == 401  # at once, in the other process
                rest = await drain(messages, 10.0)
                assert rest[-1:] == [None], "the other process's stream goes on"
                assert all(m["free"] == [] for m in rest[:-1])

        asyncio.run(main())
