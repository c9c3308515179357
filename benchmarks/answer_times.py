"""Answer times of ``cuckoo-rules serve`` with bots to play, and the push latency of its streams.

Starts the real server as a subprocess (``--port 0``, a temporary SQLite database, the
default pool of ``--bot-workers`` processes) and measures, over loopback HTTP:

- **answer, 3 ismcts bots next**: the time a ``POST .../actions`` takes to answer a
  human's move after which three ``ismcts`` bots are to play (the bots play afterwards,
  in the background; the client then waits on the push stream until it is the human's
  turn again), over ``--turns`` turns of each of ``--games`` games;
- **answer, 3 greedy bots next**: the same against three ``greedy`` bots;
- **answer, any human move**: every ``POST`` of those games (a lay that does not end the
  turn, too);
- **push latency**: at a table of two humans, each with its push stream open, the time
  from seat A's ``POST`` being answered to seat B's stream receiving the first ``game``
  message of that move (negative when the push arrives before A's own answer), and
  from A's request being sent, over ``--pushes`` moves.

Prints a table of the median, 90th percentile and maximum of each, in milliseconds, and
with ``--json`` writes them (with every sample and the machine) to a file.

Usage::

    python benchmarks/answer_times.py                    # 3 games x 8 turns, 60 pushes
    python benchmarks/answer_times.py --games 5 --turns 10 --pushes 100 --json out.json

``--reference`` measures a server of an older version (one without the push stream,
whose ``POST`` answered only once the bots had played; run it with that version's
``PYTHONPATH``): the answers alone, the client reading the table until it is the human's
turn again, so the two versions' answer times compare in one session::

    PYTHONPATH=<a worktree of the old version>/src python benchmarks/answer_times.py --reference

Everything stays on 127.0.0.1; the run is bounded by ``--timeout`` (seconds, overall).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
from load import start_server, stop  # (sibling scripts)
from playouts import machine_info

JSON = {"Content-Type": "application/json"}


class Stream:
    """A push stream read in the background: each message with the time it arrived."""

    def __init__(self, response: httpx.Response) -> None:
        self.response = response
        self.messages: asyncio.Queue[tuple[str, dict[str, Any], float]] = asyncio.Queue()

    async def read(self) -> None:
        event, data = "", ""
        async for line in self.response.aiter_lines():
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: "):
                data = line[6:]
            elif not line and data:
                self.messages.put_nowait((event, json.loads(data), time.perf_counter()))
                event, data = "", ""

    async def until(
        self, done: Callable[[str, dict[str, Any]], bool], timeout: float
    ) -> tuple[str, dict[str, Any], float]:
        """The first message (event, data, arrival) for which ``done`` is true."""
        deadline = time.perf_counter() + timeout
        while True:
            left = deadline - time.perf_counter()
            event, data, at = await asyncio.wait_for(self.messages.get(), max(left, 0.001))
            if done(event, data):
                return event, data, at


@asynccontextmanager
async def stream(client: httpx.AsyncClient, table: str, token: str) -> AsyncIterator[Stream]:
    headers = {"Authorization": f"Bearer {token}"}
    timeout = httpx.Timeout(60.0, read=None)
    async with client.stream(
        "GET", f"/api/tables/{table}/stream", headers=headers, timeout=timeout
    ) as response:
        if response.status_code != 200:
            raise SystemExit(f"stream: {response.status_code} {(await response.aread())[:200]!r}")
        opened = Stream(response)
        reader = asyncio.create_task(opened.read())
        try:
            yield opened
        finally:
            reader.cancel()
            await asyncio.gather(reader, return_exceptions=True)


async def document(client: httpx.AsyncClient, table: str, token: str) -> dict[str, Any]:
    response = await client.get(
        f"/api/tables/{table}", headers={"Authorization": f"Bearer {token}"}
    )
    response.raise_for_status()
    result: dict[str, Any] = response.json()
    return result


async def post(
    client: httpx.AsyncClient, table: str, token: str, body: dict[str, Any]
) -> tuple[dict[str, Any], float, float]:
    """Send an action; return the answer, when it was sent and when it was answered."""
    sent = time.perf_counter()
    response = await client.post(
        f"/api/tables/{table}/actions", json=body, headers={"Authorization": f"Bearer {token}"}
    )
    answered = time.perf_counter()
    response.raise_for_status()
    return response.json(), sent, answered


class Polling:
    """For a server without the push stream: read the table until a condition holds."""

    def __init__(self, client: httpx.AsyncClient, table: str, token: str) -> None:
        self.client, self.table, self.token = client, table, token

    async def until(self, done: Callable[[str, dict[str, Any]], bool], timeout: float) -> None:
        deadline = time.perf_counter() + timeout
        while not done("table", await document(self.client, self.table, self.token)):
            if time.perf_counter() > deadline:
                raise TimeoutError("the bots did not play")
            await asyncio.sleep(0.02)


@asynccontextmanager
async def polling(client: httpx.AsyncClient, table: str, token: str) -> AsyncIterator[Polling]:
    yield Polling(client, table, token)


async def against_bots(
    url: str, bot: str, games: int, turns: int, seed: int, reference: bool = False
) -> tuple[list[float], list[float]]:
    """The answers to human moves after which three ``bot`` bots play, and to every move.

    With ``reference``, the client reads the table (a server without the push stream).
    """
    follow = polling if reference else stream
    rng = random.Random(seed)
    to_bots: list[float] = []
    every: list[float] = []
    async with httpx.AsyncClient(base_url=url, timeout=60.0, headers=JSON) as client:
        for game in range(games):
            created = await client.post(
                "/api/tables", json={"seats": ["human", bot, bot, bot], "seed": seed + game}
            )
            created.raise_for_status()
            table, token = created.json()["table"], created.json()["tokens"]["0"]
            async with follow(client, table, token) as watching:
                now = await document(client, table, token)
                if not now["legal_actions"]:  # the bots begin
                    await watching.until(
                        lambda event, data: event == "table" and bool(data["legal_actions"]), 60
                    )
                for _ in range(turns):
                    now = await document(client, table, token)
                    if now["status"] != "open":
                        break
                    while True:  # the human's moves of one turn
                        body = {"action": rng.choice(now["legal_actions"]), "move": now["move"]}
                        now, sent, answered = await post(client, table, token, body)
                        every.append(answered - sent)
                        # (An older server answers once the bots have played: moves on.)
                        if not now["legal_actions"] or now["move"] > body["move"] + 1:
                            break
                    if now["status"] != "open" or now["view"]["phase"] == "game_over":
                        break
                    to_bots.append(answered - sent)
                    move = body["move"]  # the human's last move of the turn
                    await watching.until(  # the bots' moves, then the human's turn again
                        lambda event, data, move=move: (
                            event == "table"
                            and data["move"] > move
                            and (bool(data["legal_actions"]) or data["status"] != "open")
                        ),
                        120,
                    )
    return to_bots, every


async def push_latency(url: str, moves: int, seed: int) -> tuple[list[float], list[float]]:
    """From a seat's answer (and its request) to the other seat's stream, per move."""
    rng = random.Random(seed)
    after_answer: list[float] = []
    after_request: list[float] = []
    async with httpx.AsyncClient(base_url=url, timeout=60.0, headers=JSON) as client:
        while len(after_answer) < moves:
            created = await client.post("/api/tables", json={"seats": ["human", "human"]})
            created.raise_for_status()
            table, tokens = created.json()["table"], dict(created.json()["tokens"])
            invitation = {"invitation": created.json()["invitations"]["1"]}
            accepted = await client.post(f"/api/tables/{table}/accept", json=invitation)
            accepted.raise_for_status()
            tokens["1"] = accepted.json()["token"]  # the friend takes seat 1
            await document(client, table, tokens["1"])
            async with (
                stream(client, table, tokens["0"]) as zero,
                stream(client, table, tokens["1"]) as one,
            ):
                streams = {0: zero, 1: one}
                while len(after_answer) < moves:
                    spectator = (await client.get(f"/api/tables/{table}")).json()
                    if spectator["status"] != "open":
                        break
                    mover = spectator["view"]["current_player"]
                    token = tokens[str(mover)]
                    now = await document(client, table, token)
                    body = {"action": rng.choice(now["legal_actions"]), "move": now["move"]}
                    first = now["next_event"]
                    _, sent, answered = await post(client, table, token, body)
                    _, _, at = await streams[1 - mover].until(
                        lambda event, data, first=first: event == "game" and data["index"] == first,
                        30,
                    )
                    after_answer.append(at - answered)
                    after_request.append(at - sent)
                    # The mover's own stream: read up to this move, so it never lags behind.
                    await streams[mover].until(
                        lambda event, data, first=first: event == "game" and data["index"] == first,
                        30,
                    )
    return after_answer, after_request


def summary(samples: list[float]) -> dict[str, Any]:
    ms = sorted(1000 * s for s in samples)
    if not ms:
        return {"n": 0}
    p90 = ms[min(len(ms) - 1, round(0.9 * (len(ms) - 1)))]
    return {
        "n": len(ms),
        "median_ms": round(statistics.median(ms), 1),
        "p90_ms": round(p90, 1),
        "max_ms": round(ms[-1], 1),
        "samples_ms": [round(value, 2) for value in ms],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="games per kind of bot (3)")
    parser.add_argument("--turns", type=int, default=8, help="human turns per game (8)")
    parser.add_argument("--pushes", type=int, default=60, help="moves timed for the push (60)")
    parser.add_argument("--bot-workers", type=int, default=2, help="the server's workers (2)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the games and choices (1)")
    parser.add_argument("--timeout", type=float, default=900.0, help="overall limit, s (900)")
    parser.add_argument("--json", type=Path, default=None, help="also write the results here")
    parser.add_argument(
        "--reference",
        action="store_true",
        help="a server of an older version, without the push stream: the answers alone",
    )
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        db, log = Path(tmp) / "tables.sqlite3", Path(tmp) / "server.log"
        process, url = start_server(db, log, 60.0, ("--bot-workers", str(args.bot_workers)))
        try:

            async def measure() -> dict[str, list[float]]:
                old = args.reference
                ismcts, every_ismcts = await against_bots(
                    url, "ismcts", args.games, args.turns, args.seed, old
                )
                greedy, every_greedy = await against_bots(
                    url, "greedy", args.games, args.turns, args.seed, old
                )
                found = {
                    "answer, 3 ismcts bots next": ismcts,
                    "answer, 3 greedy bots next": greedy,
                    "answer, any human move": every_ismcts + every_greedy,
                }
                if not old:
                    answered, requested = await push_latency(url, args.pushes, args.seed)
                    found["push, after A's answer"] = answered
                    found["push, after A's request"] = requested
                return found

            results = asyncio.run(asyncio.wait_for(measure(), args.timeout))
        finally:
            stop(process)
        if "Traceback" in log.read_text():
            print(log.read_text(), file=sys.stderr)
            return 1
    rows = {name: summary(samples) for name, samples in results.items()}
    print(f"{'measure':<30} {'n':>4} {'median':>9} {'p90':>9} {'max':>9}")
    for name, row in rows.items():
        print(
            f"{name:<30} {row['n']:>4} {row['median_ms']:>7.1f}ms {row['p90_ms']:>7.1f}ms "
            f"{row['max_ms']:>7.1f}ms"
        )
    if args.json is not None:
        arguments = {**vars(args), "json": str(args.json)}
        document = {"results": rows, "machine": machine_info(), "arguments": arguments}
        args.json.write_text(json.dumps(document, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
