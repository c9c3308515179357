"""Load test of ``cuckoo-rules serve``: many tables played at once over loopback HTTP.

Starts the real server as a subprocess (``--port 0``, a temporary database), then plays
``--tables`` games concurrently to the end, each by a scripted client (asyncio and
``httpx.AsyncClient``) whose human seat picks a random legal action, against one bot
(``--opponent``, ``random`` by default). Every request is timed. Prints a JSON summary:
total requests, requests per second, median, 99th-percentile and maximum latency, the
number of failed requests (any error status, transport error or timeout), the CPU time
used by the server and by the clients (all on one machine), and the machine. Exits with
status 1 if a request failed, a game did not finish, or a stored game does not replay to
its end after the server is stopped. Each table has its own client and connection, as
browsers would; one shared ``httpx`` pool of 50 connections costs the clients more CPU
than the server uses.

Usage::

    python benchmarks/load.py                      # 50 tables against random bots
    python benchmarks/load.py --tables 100 --opponent greedy --seed 3

Everything stays on 127.0.0.1; the run is bounded by ``--timeout`` (seconds, overall).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import queue
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from playouts import machine_info  # (a sibling script)

from cuckoo_rules.web.store import Store
from cuckoo_rules.web.tables import Table


@dataclass
class Tally:
    """What the clients did: one latency per request, and the failures."""

    latencies: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    finished: int = 0


async def request(
    client: httpx.AsyncClient, tally: Tally, method: str, url: str, **kwargs: Any
) -> dict[str, Any] | None:
    """Send one request, time it, and return its JSON (``None`` if it failed)."""
    start = time.perf_counter()
    try:
        response = await client.request(method, url, **kwargs)
    except httpx.HTTPError as error:
        tally.latencies.append(time.perf_counter() - start)
        tally.failures.append(f"{method} {url}: {type(error).__name__}: {error}")
        return None
    tally.latencies.append(time.perf_counter() - start)
    if response.status_code not in (200, 201):
        tally.failures.append(f"{method} {url}: {response.status_code} {response.text[:200]}")
        return None
    document: dict[str, Any] = response.json()
    return document


async def play_table(url: str, tally: Tally, opponent: str, seed: int) -> str | None:
    """Play one table with a client of its own (one keep-alive connection)."""
    async with httpx.AsyncClient(base_url=url, timeout=60.0) as client:
        return await play_human(client, tally, opponent, seed)


async def play_human(
    client: httpx.AsyncClient, tally: Tally, opponent: str, seed: int
) -> str | None:
    """Create a table and play its human seat to the end; return the table id."""
    rng = random.Random(seed)
    seats = ["human", opponent] if seed % 2 else [opponent, "human"]
    created = await request(client, tally, "POST", "/api/tables", json={"seats": seats})
    if created is None:
        return None
    table: str = created["table"]
    seat, token = next(iter(created["tokens"].items()))
    headers = {"Authorization": f"Bearer {token}"}
    document = await request(client, tally, "GET", f"/api/tables/{table}", headers=headers)
    after = 0
    while document is not None:
        after = document["next_event"]
        if document["view"]["phase"] == "game_over":
            tally.finished += 1
            return table
        if not document["legal_actions"]:  # cannot happen: bots answer before the reply
            tally.failures.append(f"table {table}: seat {seat} has nothing to do")
            return table
        action = rng.choice(document["legal_actions"])
        document = await request(
            client,
            tally,
            "POST",
            f"/api/tables/{table}/actions?after={after}",
            json={"action": action},
            headers=headers,
        )
    return table


def start_server(db: Path, log: Path, timeout: float) -> tuple[subprocess.Popen[str], str]:
    """Start ``cuckoo-rules serve`` on a free port; return the process and its URL."""
    command = [sys.executable, "-m", "cuckoo_rules.cli", "serve", "--port", "0", "--db", str(db)]
    with log.open("w") as errors:
        process = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=errors, text=True
        )
    assert process.stdout is not None
    stdout = process.stdout
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: lines.put(stdout.readline()), daemon=True).start()
    try:
        line = lines.get(timeout=timeout)
    except queue.Empty:
        line = ""
    if not line.startswith("cuckoo-rules serving on http://"):
        process.kill()
        raise SystemExit(f"the server did not start: {line}{log.read_text()}")
    return process, line.split()[3]


async def run(url: str, tables: int, opponent: str, seed: int) -> tuple[Tally, float, list[str]]:
    """Play every table concurrently; return the tally, the wall time and the table ids."""
    tally = Tally()
    start = time.perf_counter()
    ids = await asyncio.gather(
        *(play_table(url, tally, opponent, seed * 1000 + i) for i in range(tables))
    )
    seconds = time.perf_counter() - start
    return tally, seconds, [table for table in ids if table is not None]


def cpu_seconds(pid: int) -> float | None:
    """The CPU time a process has used so far (Linux only, else ``None``)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def check_stored(db: Path, ids: list[str]) -> list[str]:
    """Replay every stored table; return the problems (a game not over, a table missing)."""
    store = Store(db)
    try:
        stored = {table.setup.id: table for table in store.tables()}
        problems = []
        for table_id in ids:
            if table_id not in stored:
                problems.append(f"table {table_id} is not stored")
            elif not Table.restore(stored[table_id], store).snapshot.state.is_over:
                problems.append(f"table {table_id}: the stored game is not over")
        return problems
    finally:
        store.close()


def percentile(values: list[float], fraction: float) -> float:
    """The ``fraction`` quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="tables played at once (50)")
    parser.add_argument(
        "--opponent", default="random", help="bot spec of the opponent seat (random)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the clients' choices (1)")
    parser.add_argument("--timeout", type=float, default=600.0, help="overall limit, s (600)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cuckoo-load-") as directory:
        db = Path(directory) / "load.sqlite3"
        process, url = start_server(db, Path(directory) / "server.log", 30.0)
        client_cpu = time.process_time()
        server_cpu = cpu_seconds(process.pid)
        try:
            tally, seconds, ids = asyncio.run(
                asyncio.wait_for(run(url, args.tables, args.opponent, args.seed), args.timeout)
            )
        except TimeoutError:
            tally, seconds, ids = Tally(failures=[f"timed out after {args.timeout} s"]), 0.0, []
        finally:
            client_cpu = time.process_time() - client_cpu
            server_end = cpu_seconds(process.pid)
            if server_cpu is not None and server_end is not None:
                server_cpu = server_end - server_cpu
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
            assert process.stdout is not None
            process.stdout.close()
        problems = tally.failures + check_stored(db, ids)
        if tally.finished != args.tables:
            problems.append(f"{tally.finished} of {args.tables} games finished")
    latencies = tally.latencies or [0.0]
    summary = {
        "benchmark": "load",
        "tables": args.tables,
        "opponent": args.opponent,
        "games_finished": tally.finished,
        "requests": len(tally.latencies),
        "seconds": round(seconds, 3),
        "requests_per_second": round(len(tally.latencies) / seconds, 1) if seconds else 0.0,
        "latency_ms": {
            "median": round(1000 * statistics.median(latencies), 2),
            "p99": round(1000 * percentile(latencies, 0.99), 2),
            "max": round(1000 * max(latencies), 2),
        },
        "failed_requests": len(tally.failures),
        "cpu_seconds": {
            "server": None if server_cpu is None else round(server_cpu, 2),
            "clients": round(client_cpu, 2),
        },
        "machine": machine_info(),
    }
    print(json.dumps(summary, indent=2))
    for problem in problems[:20]:
        print(f"problem: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
