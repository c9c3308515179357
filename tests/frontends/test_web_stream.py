"""The push stream of ``cuckoo-rules serve`` (``GET /api/tables/ID/stream``), and the bots
playing in the background, against the real server process (``tests.servers.serve``).

Streams are read with httpx, as the browser client reads them with ``fetch``: the token
goes in the ``Authorization`` header, never in the URL. Every message is checked against
what ``GET`` answers the same seat (the same redaction), so a stream cannot show more
than the table document does. The limits of streams and their pings are tested on an
in-process uvicorn server with small limits; the stream of a finished game, which ends,
with Starlette's test client. Timings are printed (``-s``) and held to loose bounds only;
``benchmarks/answer_times.py`` measures them.
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AbstractContextManager, ExitStack, asynccontextmanager, closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

import cuckoo_rules as cr
from cuckoo_rules.web import create_app
from cuckoo_rules.web.bots import ThreadBotRunner
from tests import postgres
from tests.documents import all_keys
from tests.frontends.test_web_api import SECRET_KEYS, bearer, local_client
from tests.servers import ThreadedServer, serve

TIMEOUT = 30.0
JSON = {"Content-Type": "application/json"}


@dataclass
class Message:
    """One message of a stream: its event name, id and data, and when it was read."""

    event: str
    id: str | None
    data: Any
    at: float
    raw: str


@dataclass
class Stream:
    """A push stream being read in the background, its messages queued as they come."""

    response: httpx.Response
    messages: asyncio.Queue[Message | None] = field(default_factory=asyncio.Queue)
    comments: list[str] = field(default_factory=list)
    received: list[Message] = field(default_factory=list)

    async def read(self) -> None:
        fields: dict[str, str] = {}
        lines: list[str] = []
        try:
            async for line in self.response.aiter_lines():
                if line.startswith(":"):
                    self.comments.append(line)
                elif line:
                    name, _, value = line.partition(":")
                    fields[name] = value.removeprefix(" ")
                    lines.append(line)
                elif fields:
                    data = json.loads(fields["data"])
                    message = Message(
                        fields["event"], fields.get("id"), data, time.monotonic(), "\n".join(lines)
                    )
                    self.received.append(message)
                    self.messages.put_nowait(message)
                    fields, lines = {}, []
        finally:
            self.messages.put_nowait(None)  # the stream ended

    async def next(self, timeout: float = TIMEOUT) -> Message | None:
        """The next message, or ``None`` once the stream has ended."""
        return await asyncio.wait_for(self.messages.get(), timeout)

    async def until(
        self, done: Callable[[Message], bool], timeout: float = TIMEOUT
    ) -> list[Message]:
        """The messages up to the first for which ``done`` is true (included)."""
        got: list[Message] = []
        deadline = time.monotonic() + timeout
        while True:
            message = await self.next(max(0.01, deadline - time.monotonic()))
            assert message is not None, f"the stream ended after {got}"
            got.append(message)
            if done(message):
                return got


@asynccontextmanager
async def stream(
    client: httpx.AsyncClient, table: str, token: str | None = None, **options: Any
) -> AsyncIterator[Stream]:
    """Open the stream of ``table`` for ``token``'s seat (a spectator without one)."""
    headers = {} if token is None else bearer(token)
    headers.update(options.pop("headers", {}))
    timeout = httpx.Timeout(TIMEOUT, read=None)
    async with client.stream(
        "GET", f"/api/tables/{table}/stream", headers=headers, params=options, timeout=timeout
    ) as response:
        assert response.status_code == 200, (await response.aread()).decode()
        assert response.headers["content-type"] == "text/event-stream; charset=utf-8"
        assert response.headers["cache-control"] == "no-store"
        assert response.headers["x-frame-options"] == "DENY"  # the guard's headers too
        opened = Stream(response)
        reader = asyncio.create_task(opened.read())
        try:
            yield opened
        finally:
            reader.cancel()
            await asyncio.gather(reader, return_exceptions=True)


def header(document: dict[str, Any]) -> dict[str, Any]:
    """A table document as a ``table`` message sends it: without events."""
    return {**document, "events": [], "narration": []}


def table_message(document: dict[str, Any]) -> Callable[[Message], bool]:
    """A predicate: the ``table`` message equal to ``document``."""
    return lambda message: message.event == "table" and message.data == header(document)


async def get(
    client: httpx.AsyncClient, table: str, token: str | None = None, after: int = 0
) -> dict[str, Any]:
    headers = {} if token is None else bearer(token)
    response = await client.get(f"/api/tables/{table}", params={"after": after}, headers=headers)
    assert response.status_code == 200, response.text
    document: dict[str, Any] = response.json()
    return document


async def create(client: httpx.AsyncClient, body: dict[str, Any]) -> tuple[str, dict[str, str]]:
    """Create a table and take every invited seat: each human seat's token, by seat."""
    response = await client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    table, tokens = response.json()["table"], dict(response.json()["tokens"])
    for seat, invitation in response.json()["invitations"].items():
        accepted = await client.post(f"/api/tables/{table}/accept", json={"invitation": invitation})
        assert accepted.status_code == 200, accepted.text
        tokens[seat] = accepted.json()["token"]
    return table, tokens


SENT: dict[str, float] = {"at": 0.0}  # when the last action of act() was sent


async def act(
    client: httpx.AsyncClient, table: str, token: str, rng: random.Random
) -> tuple[dict[str, Any], float]:
    """Play a random legal action of the seat of ``token``; the answer and when it came.

    When it was sent is in ``SENT["at"]`` (a push may arrive before the answer does).
    """
    document = await get(client, table, token)
    body = {"action": rng.choice(document["legal_actions"]), "move": document["move"]}
    SENT["at"] = time.monotonic()
    response = await client.post(f"/api/tables/{table}/actions", json=body, headers=bearer(token))
    assert response.status_code == 200, response.text
    return response.json(), time.monotonic()


def event_number(number: int) -> Callable[[Message], bool]:
    """A predicate: the ``game`` message of event ``number``."""
    return lambda message: message.event == "game" and message.id == str(number)


def back_to(seat: int, move: int) -> Callable[[Message], bool]:
    """A predicate: a ``table`` message after ``move`` with ``seat`` to act, nobody thinking."""

    def done(message: Message) -> bool:
        data = message.data
        return bool(
            message.event == "table"
            and data["move"] > move
            and data["view"]["current_player"] == seat
            and data["thinking"] is None
        )

    return done


def check_games(messages: list[Message], document: dict[str, Any], first: int) -> None:
    """The ``game`` messages are the events of ``document`` (a GET with ``after=first``)."""
    games = [m for m in messages if m.event == "game"]
    assert [m.id for m in games] == [str(n) for n in range(first, first + len(games))]
    assert [m.data["index"] for m in games] == list(range(first, first + len(games)))
    assert [m.data["event"] for m in games] == document["events"][: len(games)]
    assert [m.data["narration"] for m in games] == document["narration"][: len(games)]


SERVER_DB: dict[str, Path] = {}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One real server process for the module's tests (each makes tables of its own)."""
    where = tmp_path_factory.mktemp("stream")
    SERVER_DB["path"] = where / "tables.sqlite3"
    with serve(SERVER_DB["path"], where / "server.log", TIMEOUT) as (_, url):
        yield url


def client_of(url: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=url, timeout=TIMEOUT, headers=JSON)


# --------------------------------------------------------------------------- two seats


def test_each_seat_sees_the_others_moves_on_its_stream(server: str) -> None:
    async def main() -> list[tuple[float, float]]:
        rng = random.Random(1)
        latencies: list[tuple[float, float]] = []
        async with client_of(server) as client:
            table, tokens = await create(client, {"seats": ["human", "human"]})
            await get(client, table, tokens["1"])  # seat 1 is held before the streams open
            async with (
                stream(client, table, tokens["0"]) as zero,
                stream(client, table, tokens["1"]) as one,
            ):
                streams = {0: zero, 1: one}
                for seat, opened in streams.items():  # first: the table as GET shows it
                    first = await opened.next()
                    assert first is not None
                    assert first.event == "table"
                    assert first.id is None
                    assert first.data == header(await get(client, table, tokens[str(seat)]))
                seen = {0: 0, 1: 0}  # the next event each stream should send
                for _ in range(3):  # three turns: each seat sees the other's moves
                    mover = (await get(client, table))["view"]["current_player"]
                    other = 1 - mover
                    answer, answered = await act(client, table, tokens[str(mover)], rng)
                    sent = SENT["at"]
                    while answer["view"]["current_player"] == mover:  # the rest of the turn
                        answer, answered = await act(client, table, tokens[str(mover)], rng)
                    for seat in (other, mover):
                        token = tokens[str(seat)]
                        now = await get(client, table, token, seen[seat])
                        got = await streams[seat].until(table_message(now))
                        check_games(got, now, seen[seat])
                        assert len([m for m in got if m.event == "game"]) == len(now["events"])
                        if seat == other:
                            first_game = next(m for m in got if m.event == "game")
                            latencies.append((first_game.at - answered, first_game.at - sent))
                        seen[seat] = now["next_event"]
                    # The other seat's events are redacted for it: no card it cannot see.
                    for message in streams[other].received:
                        event = message.data.get("event", {})
                        if event.get("type") == "drew" and event["player"] != other:
                            assert event["cards"] is None
        return latencies

    latencies = asyncio.run(main())
    print(  # negative: the push came before the mover's own answer
        "\npush latency between two seats, after the answer / after the request: "
        f"{[(round(a * 1000, 1), round(b * 1000, 1)) for a, b in latencies]} ms"
    )
    assert max(b for _, b in latencies) < 2.0


def test_last_event_id_resumes_without_loss_or_duplicates(server: str) -> None:
    async def main() -> None:
        rng = random.Random(2)
        async with client_of(server) as client:
            table, tokens = await create(client, {"seats": ["human", "random"]})
            token = tokens["0"]
            got: list[Message] = []

            async def play(moves: int) -> None:
                for _ in range(moves):
                    deadline = time.monotonic() + TIMEOUT
                    while not (await get(client, table, token))["legal_actions"]:
                        assert time.monotonic() < deadline, "the bot did not answer"
                        await asyncio.sleep(0.01)  # the bot's turn, in the background
                    await act(client, table, token, rng)

            async with stream(client, table, token) as first:
                await play(4)
                now = await get(client, table, token)
                got += await first.until(lambda m: m.event == "game" and m.id == "3")
            # Disconnected: more moves are made meanwhile (the bot's too).
            await play(4)
            last = int(got[-1].data["index"])  # the id of the last event received
            async with stream(client, table, token, headers={"Last-Event-ID": str(last)}) as again:
                await play(2)
                deadline = time.monotonic() + TIMEOUT
                while True:
                    now = await get(client, table, token)
                    if now["legal_actions"] or time.monotonic() > deadline:
                        break
                    await asyncio.sleep(0.01)
                tail = await again.until(table_message(now))
            assert tail[0].event == "table"  # a reconnection starts with the table too
            games = [m for m in got + tail if m.event == "game"]
            assert [int(m.id or -1) for m in games] == list(range(now["next_event"]))
            everything = await get(client, table, token)
            check_games(games, everything, 0)
            # ``after`` does the same as the header; the header wins over it.
            async with stream(client, table, token, after=5) as later:
                message = await later.until(lambda m: m.event == "game")
                assert message[-1].id == "5"
            headers = {"Last-Event-ID": "7"}
            async with stream(client, table, token, after=2, headers=headers) as both:
                assert (await both.until(lambda m: m.event == "game"))[-1].id == "8"

    asyncio.run(main())


def test_a_spectator_stream_shows_no_hidden_card(server: str) -> None:
    async def main() -> tuple[list[Message], str, dict[str, str]]:
        rng = random.Random(3)
        async with client_of(server) as client:
            table, tokens = await create(client, {"seats": ["human", "human", "human"]})
            async with stream(client, table) as watching:
                for _ in range(12):
                    mover = (await get(client, table))["view"]["current_player"]
                    await act(client, table, tokens[str(mover)], rng)
                now = await get(client, table)
                got = await watching.until(table_message(now))
                check_games(got, now, 0)
                for message in got:
                    if message.event == "table":
                        assert message.data["seat"] is None
                        assert message.data["view"]["hand"] is None
                        assert message.data["hand_flocks"] is None
                        assert message.data["legal_actions"] == []
                        assert message.data["deal"]["seed"] is None
                        assert message.data["deal"]["salt"] is None
                    else:
                        event = message.data["event"]
                        if event["type"] == "drew":
                            assert event["cards"] is None
                        if "hands" in event:
                            assert all(hand is None for hand in event["hands"])
                    shown = {k: v for k, v in message.data.items() if k != "deal"}  # null above
                    assert not SECRET_KEYS & set(all_keys(shown)), message.raw
                assert any(m.event == "game" and m.data["event"]["type"] == "drew" for m in got), (
                    "no draw was streamed: the test proves little"
                )
        return got, table, tokens

    got, table, tokens = asyncio.run(main())
    text = "\n".join(message.raw for message in got)
    for token in tokens.values():
        assert token not in text
    with closing(sqlite3.connect(SERVER_DB["path"])) as connection:
        (seed,) = connection.execute("SELECT seed FROM tables WHERE id = ?", (table,)).fetchone()
    assert len(str(seed)) > 6
    assert str(seed) not in text


# --------------------------------------------------------------------------- bots


def test_bots_answer_after_the_move_is_answered_and_arrive_one_by_one(server: str) -> None:
    async def main() -> tuple[list[float], list[tuple[int, float]]]:
        rng = random.Random(4)
        seats = ["human", "ismcts", "ismcts", "ismcts"]
        async with client_of(server) as client:
            table, tokens = await create(client, {"seats": seats, "seed": 12})
            token = tokens["0"]
            answers: list[float] = []
            arrivals: list[tuple[int, float]] = []
            deadline = time.monotonic() + TIMEOUT
            while not (await get(client, table, token))["legal_actions"]:
                assert time.monotonic() < deadline
                await asyncio.sleep(0.05)  # the bots begin, maybe
            for _ in range(2):  # two turns of the human, each answered by the three bots
                before = await get(client, table, token)
                async with stream(client, table, token, after=before["next_event"]) as watching:
                    assert (await watching.next()) is not None  # the table, first
                    answer = before
                    while answer["view"]["current_player"] == 0:
                        started = time.monotonic()
                        move = answer["move"]
                        answer, answered = await act(client, table, token, rng)
                        answers.append(answered - started)
                        assert answer["move"] == move + 1  # the human's move, no bot's
                    # The answer says who thinks next; its events are the human's only.
                    assert answer["thinking"] == 1
                    assert answer["view"]["current_player"] == 1
                    mine = answer["events"][before["next_event"] :]
                    assert mine
                    # (The human's move ends its turn: the next turn's start is one of them.)
                    assert all(
                        event.get("player", 0) == 0 or event["type"] == "turn_started"
                        for event in mine
                    ), mine
                    # Then the bots' moves, one by one, until the human is to act again.
                    got = await watching.until(back_to(0, answer["move"]), timeout=60)
                    now = await get(client, table, token, before["next_event"])
                    check_games(got, now, before["next_event"])
                    players = [
                        m.data["event"]["player"]
                        for m in got
                        if m.event == "game" and "player" in m.data["event"]
                    ]
                    bots = [p for p in players if p != 0]
                    assert bots == sorted(bots), players  # in their order: 1, then 2, then 3
                    assert set(bots) == {1, 2, 3}
                    thinking = [m.data["thinking"] for m in got if m.event == "table"]
                    assert [t for t in thinking if t is not None][:1] == [1]
                    assert {t for t in thinking if t is not None} == {1, 2, 3}
                    for bot in (1, 2, 3):  # each bot's first move, as it arrived
                        first = next(
                            m
                            for m in got
                            if m.event == "game"
                            and m.data["event"].get("player") == bot
                            and m.data["event"]["type"] != "turn_started"
                        )
                        arrivals.append((bot, first.at - answered))
        return answers, arrivals

    answers, arrivals = asyncio.run(main())
    print(
        f"\nanswer times with three ismcts bots to play: "
        f"{[round(s * 1000, 1) for s in answers]} ms; each bot's first event pushed after "
        f"{[(bot, round(s, 2)) for bot, s in arrivals]} s"
    )
    assert max(answers) < 1.0
    # The bots' moves came one after the other, not all at once with the answer.
    for turn in range(0, len(arrivals), 3):
        times = [at for _, at in arrivals[turn : turn + 3]]
        assert times == sorted(times)
        assert times[2] - times[0] > 0.05


# --------------------------------------------------------------------------- PostgreSQL


def test_the_stream_wakes_on_a_move_stored_by_another_process(tmp_path: Path) -> None:
    with ExitStack() as stack:
        database = stack.enter_context(postgres.fresh_database(postgres.server_url()))
        urls = [
            stack.enter_context(serve(database, tmp_path / f"server{i}.log", TIMEOUT))[1]
            for i in range(2)
        ]

        async def main() -> list[float]:
            rng = random.Random(5)
            latencies = []
            async with client_of(urls[0]) as one, client_of(urls[1]) as two:
                table, tokens = await create(one, {"seats": ["human", "human"]})
                async with (
                    stream(one, table, tokens["0"]) as zero,
                    stream(one, table, tokens["1"]) as first,
                ):
                    await zero.next()
                    await first.next()
                    for _ in range(4):  # every move is made through the other server
                        spectator = await get(two, table)
                        mover, new = spectator["view"]["current_player"], spectator["next_event"]
                        await act(two, table, tokens[str(mover)], rng)
                        watching = zero if mover == 1 else first
                        got = await watching.until(event_number(new), timeout=10)
                        latencies.append(got[-1].at - SENT["at"])
                        now = await get(two, table, tokens[str(1 - mover)])
                        await watching.until(table_message(now), timeout=10)
                        assert now["move"] == spectator["move"] + 1
            return latencies

        latencies = asyncio.run(main())
    print(  # from the request sent to the other process
        f"\npush latency across two processes: {[round(s * 1000, 1) for s in latencies]} ms"
    )
    assert max(latencies) < 2.0


# --------------------------------------------------------------------------- limits


def live(
    monkeypatch: pytest.MonkeyPatch, db: Path, **options: Any
) -> AbstractContextManager[ThreadedServer]:
    import uvicorn

    # uvicorn may not configure logging in pytest: dictConfig would close pytest's handlers.
    monkeypatch.setattr(uvicorn.Config, "configure_logging", lambda config: None)
    return ThreadedServer(create_app(db, bot_runner=ThreadBotRunner(), **options))


def test_streams_are_limited_and_a_closed_one_frees_its_place(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    with live(
        monkeypatch, tmp_path / "t.sqlite3", max_streams=3, max_streams_per_table=2, stream_ping=0.2
    ) as running:
        api = running.app.state.api

        async def main() -> None:
            async with client_of(running.url) as client:
                first, tokens = await create(client, {"seats": ["human", "human"]})
                second, _ = await create(client, {"seats": ["human", "human"]})
                third, _ = await create(client, {"seats": ["human", "human"]})
                async with (
                    stream(client, first, tokens["0"]) as a,
                    stream(client, first),
                    stream(client, first),
                ):
                    assert (await a.next()) is not None
                    # Two spectators on the first table: a third is refused (the seat's
                    # own stream is not counted against them).
                    refused = await client.get(f"/api/tables/{first}/stream")
                    assert refused.status_code == 429
                    assert refused.headers["retry-after"] == "30"
                    assert "the limit per table" in refused.json()["error"]
                    async with stream(client, second) as b:
                        assert (await b.next()) is not None
                        full = await client.get(f"/api/tables/{third}/stream")
                        assert full.status_code == 503
                        assert "open streams, its limit" in full.json()["error"]
                        # An idle stream is pinged (comments), about every 0.2 s here.
                        await asyncio.sleep(0.7)
                        assert len(b.comments) >= 2, b.comments
                        assert all(c.startswith(": ping") for c in b.comments)
                        assert (api.streams.total, api.streams.spectators) == (4, 3)
                # Closed by the client: the places are free again, at once or nearly.
                deadline = time.monotonic() + 5
                while api.streams.total and time.monotonic() < deadline:
                    await asyncio.sleep(0.02)
                assert api.streams.total == 0
                assert api.streams.open == {}
                async with stream(client, first) as c, stream(client, first) as d:
                    assert (await c.next()) is not None
                    assert (await d.next()) is not None

        asyncio.run(main())


def test_a_stream_is_refused_as_a_read_would_be(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    with live(monkeypatch, tmp_path / "t.sqlite3") as running:

        async def main() -> None:
            async with client_of(running.url) as client:
                table, tokens = await create(client, {"seats": ["human", "human"]})
                _, other = await create(client, {"seats": ["human", "human"]})
                path = f"/api/tables/{table}/stream"
                cases: list[tuple[str, dict[str, str], int, str]] = [
                    ("/api/tables/nope/stream", {}, 404, "no table 'nope'"),
                    (path, bearer(other["0"]), 401, "not one of this table's seats"),
                    (path, {"Authorization": f"Basic {tokens['0']}"}, 401, "Bearer <token>"),
                    (path + "?after=99", {}, 400, "after: 99 is beyond the last event"),
                    (path + "?after=x", {}, 400, "after: "),
                    (path, {"Last-Event-ID": "x1"}, 400, 'Last-Event-ID: "x1" is not an event'),
                    (path, {"Last-Event-ID": "99"}, 400, "Last-Event-ID: 99 is not an event of"),
                    (path + "?lang=xx", {}, 400, "lang: "),
                    (path + f"?token={tokens['0']}", {}, 200, ""),  # a token in the URL: ignored
                ]
                for url, headers, status, message in cases:
                    if status == 200:
                        async with client.stream("GET", url, headers=headers) as response:
                            lines = response.aiter_lines()
                            assert await anext(lines) == "event: table"
                            data = await anext(lines)
                            assert json.loads(data.removeprefix("data: "))["seat"] is None
                        continue
                    response = await client.get(url, headers=headers)
                    assert response.status_code == status, (url, response.text)
                    assert message in response.json()["error"]
                deadline = time.monotonic() + 5  # the stream closed is counted out
                while running.app.state.api.streams.total and time.monotonic() < deadline:
                    await asyncio.sleep(0.02)
                assert running.app.state.api.streams.total == 0

        asyncio.run(main())


# --------------------------------------------------------------------------- the end


def test_the_stream_of_a_finished_game_sends_everything_then_ends(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    with local_client(db, stream_rematch_wait=0) as client:
        created = client.post("/api/tables", json={"seats": ["human", "human"]}).json()
        table, tokens = created["table"], created["tokens"]
        live_table = client.app.state.lobby.get(table)  # type: ignore[attr-defined]
        rng = random.Random(6)
        match = live_table.match
        while not match.is_over:  # to the end, on the server's table itself
            live_table.play(match.to_act, rng.choice(match.legal_actions(match.to_act)), match.move)
        for seat, token in (("0", tokens["0"]), (None, None)):
            headers = {} if token is None else bearer(token)
            document = client.get(f"/api/tables/{table}?lang=de", headers=headers).json()
            response = client.get(f"/api/tables/{table}/stream?lang=de", headers=headers)
            assert response.status_code == 200
            messages = parse(response.text)
            assert [m[0] for m in messages] == ["table"] + ["game"] * len(document["events"]) + [
                "table"
            ]
            assert messages[0][2] == messages[-1][2] == header(document)
            assert [m[1] for m in messages[1:-1]] == [
                str(n) for n in range(len(document["events"]))
            ]
            assert [m[2]["event"] for m in messages[1:-1]] == document["events"]
            assert [m[2]["narration"] for m in messages[1:-1]] == document["narration"]
            assert document["deal"]["seed"] is not None  # over: the deal is revealed
            # From the last event on: the table alone.
            last = client.get(
                f"/api/tables/{table}/stream",
                headers={**headers, "Last-Event-ID": str(document["next_event"] - 1)},
            )
            assert [m[0] for m in parse(last.text)] == ["table"]
            assert seat is None or document["seat"] == 0
        assert client.app.state.api.streams.total == 0  # type: ignore[attr-defined]
    # Sanity: the game is a game of the engine.
    assert cr.records.final_state(match.record()).is_over


def test_a_finished_games_stream_pushes_the_rematch_then_ends(server: str) -> None:
    async def main() -> None:
        rng = random.Random(8)
        async with client_of(server) as client:
            table, tokens = await create(client, {"seats": ["human", "human"]})
            document = await get(client, table)
            while document["status"] == "open":
                mover = document["view"]["current_player"]
                await act(client, table, tokens[str(mover)], rng)
                document = await get(client, table)
            document = await get(client, table, tokens["1"])
            after = document["next_event"]
            async with stream(client, table, tokens["1"], after=after) as waiting:
                opened = await waiting.next()
                assert opened is not None
                assert opened.data == header(document)
                assert opened.data["rematch"] is None  # the game is over: it waits
                with pytest.raises(TimeoutError):  # still open, nothing to say
                    await waiting.next(timeout=0.5)
                started = await client.post(
                    f"/api/tables/{table}/rematch", json={}, headers=bearer(tokens["0"])
                )
                assert started.status_code == 201, started.text
                pushed = await waiting.until(
                    lambda m: m.event == "table" and bool(m.data["rematch"])
                )
                assert pushed[-1].data["rematch"] == started.json()["table"]
                assert await waiting.next() is None  # then the stream ends
            # The rematch's table takes the same token at the same seat.
            assert (await get(client, started.json()["table"], tokens["1"]))["seat"] == 1

    asyncio.run(main())


def parse(text: str) -> list[tuple[str, str | None, Any]]:
    """The messages of a whole stream's text: (event, id, data)."""
    messages = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        fields = dict(
            line.split(": ", 1) for line in block.split("\n") if line and not line.startswith(":")
        )
        if fields:
            messages.append((fields["event"], fields.get("id"), json.loads(fields["data"])))
    return messages
