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

With ``--rounds R`` the tables are played R times over, one round after the other, and
the server's resident memory (RSS) is read after the first round and after the last, so
``rss_growth_mb`` is what ``(R - 1) * tables`` finished tables cost it; ``--restart`` then
times a start-up on the database they left, against a start-up on an empty one. With
``--db postgresql://...`` and ``--processes 2``, that many server processes share the
database and each request goes to one of them at random.

With ``--noisy-neighbour`` it measures fair shares instead (issue 27): a victim plays
against an ``ismcts`` bot, asking a hint at each of its decisions and timing its bot's
answer to its moves, first alone (``quiet``), then while a noisy client floods
(``--phases``): ``bots``, where the noisy client keeps ``--flood-tables`` tables of four
``ismcts`` bots at the server's cap playing (its human seat moves whenever it is to
act); ``hints``, where it asks hints at ``--flood-hints`` tables over and over, hanging
up on each after ``--abandon`` seconds and playing on; or ``both`` at once. The noisy
client talks from loopback and the victim from another address of this machine (the
server listens there, ``--victim-address``), so that they are two clients. It prints
the victim's hint and bot latencies (median, 90th percentile, maximum) in each phase,
and what the noisy client's requests got (statuses).

Usage::

    python benchmarks/load.py                      # 50 tables against random bots
    python benchmarks/load.py --tables 100 --opponent greedy --seed 3
    python benchmarks/load.py --tables 50 --rounds 40 --restart   # 2,000 finished tables
    python benchmarks/load.py --db postgresql://localhost/cuckoo --processes 2
    python benchmarks/load.py --noisy-neighbour    # a victim's hints and bots under a flood
    PYTHONPATH=/tmp/old/src python benchmarks/load.py --noisy-neighbour --no-check  # another

Everything stays on 127.0.0.1; the run is bounded by ``--timeout`` (seconds, overall).
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import json
import os
import queue
import random
import signal
import socket
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


async def play_table(urls: list[str], tally: Tally, opponent: str, seed: int) -> str | None:
    """Play one table with a client of its own per server (one keep-alive connection each)."""
    clients = [httpx.AsyncClient(base_url=url, timeout=60.0) for url in urls]
    try:
        return await play_human(clients, tally, opponent, seed)
    finally:
        for client in clients:
            await client.aclose()


async def play_human(
    clients: list[httpx.AsyncClient], tally: Tally, opponent: str, seed: int
) -> str | None:
    """Create a table and play its human seat to the end; return the table id.

    Each request goes to one of ``clients`` (one per server process) at random.
    """
    rng = random.Random(seed)

    def client() -> httpx.AsyncClient:
        return clients[rng.randrange(len(clients))]

    seats = ["human", opponent] if seed % 2 else [opponent, "human"]
    created = await request(client(), tally, "POST", "/api/tables", json={"seats": seats})
    if created is None:
        return None
    table: str = created["table"]
    seat, token = next(iter(created["tokens"].items()))
    headers = {"Authorization": f"Bearer {token}"}
    document = await request(client(), tally, "GET", f"/api/tables/{table}", headers=headers)
    after = 0
    while document is not None:
        after = document["next_event"]
        if document["view"]["phase"] == "game_over":
            tally.finished += 1
            return table
        if not document["legal_actions"]:  # the bot plays, in the background: read again
            if document["status"] != "open":
                tally.failures.append(f"table {table}: seat {seat} has nothing to do")
                return table
            await asyncio.sleep(0.005)
            document = await request(
                client(), tally, "GET", f"/api/tables/{table}?after={after}", headers=headers
            )
            continue
        body = {"action": rng.choice(document["legal_actions"]), "move": document["move"]}
        document = await request(
            client(),
            tally,
            "POST",
            f"/api/tables/{table}/actions?after={after}",
            json=body,
            headers=headers,
        )
    return table


_NO_LIMITS = (  # the limits a load test lifts (flag, value), where the server has them
    ("--max-tables-per-client", "100000"),
    ("--max-tables", "100000"),
    ("--tables-per-minute", "100000"),
    ("--tables-per-minute-total", "100000"),
)


def _lifted_limits() -> list[str]:
    """The flags lifting the table limits that the ``serve`` command run here has.

    (A server of an older version, measured for reference, has fewer or none.)
    """
    help_text = subprocess.run(
        [sys.executable, "-m", "cuckoo_rules.cli", "serve", "--help"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    flags = set(help_text.replace("=", " ").split())
    return [item for flag, value in _NO_LIMITS if flag in flags for item in (flag, value)]


def start_server(
    db: Path | str, log: Path, timeout: float, extra: tuple[str, ...] = ()
) -> tuple[subprocess.Popen[str], str]:
    """Start ``cuckoo-rules serve`` on a free port; return the process and its URL."""
    command = [sys.executable, "-m", "cuckoo_rules.cli", "serve", "--port", "0", "--db", str(db)]
    command += extra
    command += _lifted_limits()
    with log.open("a") as errors:
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


async def run(
    urls: list[str], tables: int, opponent: str, seed: int, tally: Tally
) -> tuple[float, list[str]]:
    """Play every table concurrently; return the wall time and the table ids."""
    start = time.perf_counter()
    ids = await asyncio.gather(
        *(play_table(urls, tally, opponent, seed * 100_000 + i) for i in range(tables))
    )
    seconds = time.perf_counter() - start
    return seconds, [table for table in ids if table is not None]


def rss_mb(pids: list[int], workers: bool = False) -> float | None:
    """The resident memory of processes, in MB; with ``workers``, their children's too.

    The children (the bots' worker processes) are read from every thread of each process,
    since a pool starts its workers from a thread of its own (Linux only, else ``None``).
    """
    family = list(pids)
    total = 0
    try:
        if workers:
            for pid in pids:
                for task in Path(f"/proc/{pid}/task").iterdir():
                    family += [int(c) for c in (task / "children").read_text().split()]
        for member in family:
            for line in Path(f"/proc/{member}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    except OSError:
        return None
    return round(total / 1024, 1)


def start_up_seconds(db: Path | str, log: Path) -> float:
    """The time from starting a server on ``db`` to its first line (tables loaded)."""
    start = time.perf_counter()
    process, _ = start_server(db, log, 300.0)
    seconds = time.perf_counter() - start
    stop(process)
    return round(seconds, 3)


def stop(process: subprocess.Popen[str]) -> None:
    """Stop a server as Ctrl-C does, or kill it after 30 s."""
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
    if process.stdout is not None:
        process.stdout.close()


def cpu_seconds(pid: int) -> float | None:
    """The CPU time a process has used so far (Linux only, else ``None``)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def check_stored(db: Path | str, ids: list[str]) -> list[str]:
    """Replay every stored table; return the problems (a game not over, a table missing)."""
    from cuckoo_rules.web.stores import open_store
    from cuckoo_rules.web.table import Table

    store = open_store(db)
    try:
        problems = []
        for table_id in ids:
            stored = store.table(table_id)
            if stored is None:
                problems.append(f"table {table_id} is not stored")
            elif not Table.restore(stored, store).match.is_over:
                problems.append(f"table {table_id}: the stored game is not over")
        return problems
    finally:
        store.close()


def percentile(values: list[float], fraction: float) -> float:
    """The ``fraction`` quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


# --------------------------------------------------------------------------- noisy neighbour

FLOOD_BOT = "ismcts:iterations=5000"
"""The flood's bots: ``ismcts`` at the server's cap (``MAX_ISMCTS_WORK``, about 0.6 s)."""


def victim_address() -> str:
    """An address of this machine other than loopback (the route out), or ``""``."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: this sends nothing
            address: str = probe.getsockname()[0]
    except OSError:
        return ""
    return "" if ipaddress.ip_address(address).is_loopback else address


@dataclass
class Flood:
    """What the noisy client sent and got."""

    statuses: dict[str, int] = field(default_factory=dict)
    stop: asyncio.Event = field(default_factory=asyncio.Event)

    def count(self, what: str) -> None:
        self.statuses[what] = self.statuses.get(what, 0) + 1


async def sent(
    flood: Flood, kind: str, client: httpx.AsyncClient, method: str, url: str, **kwargs: Any
) -> httpx.Response | None:
    """Send one request of the flood; count its status (``"hint timeout"`` if abandoned)."""
    try:
        response = await client.request(method, url, **kwargs)
    except httpx.TimeoutException:
        flood.count(f"{kind} timeout")
        return None
    except httpx.HTTPError as error:
        flood.count(f"{kind} {type(error).__name__}")
        return None
    flood.count(f"{kind} {response.status_code}")
    return response


async def new_table(client: httpx.AsyncClient, seats: list[str]) -> tuple[str, dict[str, str]]:
    response = await client.post("/api/tables", json={"seats": seats})
    if response.status_code != 201:
        raise RuntimeError(f"could not create a table: {response.status_code} {response.text}")
    return response.json()["table"], {"Authorization": f"Bearer {response.json()['tokens']['0']}"}


async def flood_bots(client: httpx.AsyncClient, flood: Flood, seats: list[str], seed: int) -> None:
    """Keep a table of bots playing (its human seat moves whenever it is to act), and
    another when its game ends."""
    rng = random.Random(seed)
    while not flood.stop.is_set():
        try:
            table, headers = await new_table(client, seats)
        except RuntimeError as error:
            flood.count(f"table {str(error)[:40]}")
            return
        flood.count("table 201")
        url = f"/api/tables/{table}"
        while not flood.stop.is_set():
            response = await sent(flood, "read", client, "GET", url, headers=headers)
            document = response.json() if response is not None and response.is_success else {}
            if document.get("status", "open") != "open":
                break
            if document.get("legal_actions"):
                body = {"action": rng.choice(document["legal_actions"]), "move": document["move"]}
                await sent(
                    flood, "move", client, "POST", f"{url}/actions", json=body, headers=headers
                )
            await asyncio.sleep(0.5)


async def flood_hints(client: httpx.AsyncClient, flood: Flood, abandon: float, seed: int) -> None:
    """At a table against greedy: ask a hint and hang up after ``abandon`` seconds, play,
    and again, and again (at another table when the game ends): a hint every ``abandon``
    seconds or so, whatever the server answers."""
    rng = random.Random(seed)
    while not flood.stop.is_set():
        try:
            table, headers = await new_table(client, ["human", "greedy"])
        except RuntimeError as error:
            flood.count(f"table {str(error)[:40]}")
            return
        flood.count("table 201")
        url = f"/api/tables/{table}"
        while not flood.stop.is_set():
            asked = time.monotonic()
            await sent(
                flood, "hint", client, "GET", f"{url}/hint", headers=headers, timeout=abandon
            )
            # As fast against any server: a hint refused at once waits out the ``abandon``.
            await asyncio.sleep(max(0.0, asked + abandon - time.monotonic()))
            response = await sent(flood, "read", client, "GET", url, headers=headers)
            document = response.json() if response is not None and response.is_success else {}
            if document.get("status", "open") != "open":
                break
            if document.get("legal_actions"):
                body = {"action": rng.choice(document["legal_actions"]), "move": document["move"]}
                await sent(
                    flood, "move", client, "POST", f"{url}/actions", json=body, headers=headers
                )
            await asyncio.sleep(0.05)


@dataclass
class Victim:
    """The victim's timings: each hint, each bot's first move after its own move."""

    hints: list[float] = field(default_factory=list)
    bots: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


async def victim_turns(
    client: httpx.AsyncClient, bot: str, turns: int, deadline: float, seed: int
) -> Victim:
    """Play against ``bot`` until ``turns`` hints and bot answers are timed (or time is up).

    At each decision of its seat the victim asks a hint (timed to its answer) and plays a
    random legal action; when that hands the turn to the bot, the time from the move sent
    to the bot's move stored is timed (the table read every 20 ms).
    """
    rng = random.Random(seed)
    victim = Victim()
    table, headers = await new_table(client, ["human", bot])
    url = f"/api/tables/{table}"
    while min(len(victim.hints), len(victim.bots)) < turns and time.monotonic() < deadline:
        document = (await client.get(url, headers=headers)).json()
        if document["status"] != "open":  # the game ended: another
            table, headers = await new_table(client, ["human", bot])
            url = f"/api/tables/{table}"
            continue
        if not document["legal_actions"]:
            await asyncio.sleep(0.02)
            continue
        if len(victim.hints) < turns:
            started = time.monotonic()
            try:
                hint = await client.get(f"{url}/hint", headers=headers, timeout=deadline - started)
            except httpx.TimeoutException:
                victim.failures.append(f"a hint not answered in {deadline - started:.0f} s")
                victim.hints.append(time.monotonic() - started)
                break
            victim.hints.append(time.monotonic() - started)
            if hint.status_code != 200:
                victim.failures.append(f"hint: {hint.status_code} {hint.text[:200]}")
        body = {"action": rng.choice(document["legal_actions"]), "move": document["move"]}
        started = time.monotonic()
        answer = await client.post(f"{url}/actions", json=body, headers=headers)
        if answer.status_code != 200:
            victim.failures.append(f"move: {answer.status_code} {answer.text[:200]}")
            continue
        if answer.json()["legal_actions"] or answer.json()["status"] != "open":
            continue  # still the victim's turn, or the end
        while (await client.get(url)).json()["move"] <= answer.json()["move"]:
            if time.monotonic() > deadline:
                victim.failures.append("the bot did not move before the deadline")
                victim.bots.append(time.monotonic() - started)
                return victim
            await asyncio.sleep(0.02)
        if len(victim.bots) < turns:
            victim.bots.append(time.monotonic() - started)
    return victim


def latency_summary(values: list[float]) -> dict[str, float | int | None]:
    """The median, 90th percentile and maximum of ``values``, in seconds, and their count."""
    if not values:
        return {"n": 0, "median": None, "p90": None, "max": None}
    return {
        "n": len(values),
        "median": round(statistics.median(values), 3),
        "p90": round(percentile(values, 0.9), 3),
        "max": round(max(values), 3),
    }


PHASES = ("bots", "hints", "both")
"""The floods of ``--phases``: the bot tables alone (finding 4), the hint tables alone
(finding 3), or both at once."""


async def flood_phase(
    noisy: httpx.AsyncClient, victim: httpx.AsyncClient, args: argparse.Namespace, phase: str
) -> tuple[Victim, Flood]:
    """Start the noisy client's flood of ``phase``; time the victim's turns under it."""
    flood = Flood()
    tasks = []
    if phase in ("bots", "both"):
        seats = ["human"] + [args.flood_bot] * 4
        for i in range(args.flood_tables):
            tasks.append(asyncio.create_task(flood_bots(noisy, flood, seats, args.seed + i)))
    if phase in ("hints", "both"):
        for i in range(args.flood_hints):
            work = flood_hints(noisy, flood, args.abandon, args.seed + i)
            tasks.append(asyncio.create_task(work))
    await asyncio.sleep(args.warm_up)  # the queues fill
    deadline = time.monotonic() + args.phase_timeout
    timed = await victim_turns(victim, args.victim_bot, args.victim_turns, deadline, args.seed)
    flood.stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return timed, flood


async def noisy_run(url: str, args: argparse.Namespace) -> dict[str, tuple[Victim, Flood]]:
    """The victim's turns without a flood, then under each flood of ``args.phases``."""
    # The noisy client talks from loopback, the victim from the server's own address.
    loopback = httpx.AsyncHTTPTransport(
        local_address="127.0.0.1", limits=httpx.Limits(max_connections=1000)
    )
    async with (
        httpx.AsyncClient(base_url=url, timeout=60.0) as victim,
        httpx.AsyncClient(base_url=url, timeout=60.0, transport=loopback) as noisy,
    ):
        # A first hint compiles the search's kernels if they are not cached yet, and
        # the first bot decision starts the workers.
        warm = await victim_turns(victim, args.victim_bot, 1, time.monotonic() + 300, args.seed)
        deadline = time.monotonic() + args.phase_timeout
        quiet = await victim_turns(victim, args.victim_bot, args.quiet_turns, deadline, args.seed)
        quiet.failures += warm.failures
        runs = {"quiet": (quiet, Flood())}
        for phase in args.phases:
            runs[phase] = await flood_phase(noisy, victim, args, phase)
    return runs


def noisy_neighbour(args: argparse.Namespace) -> int:
    """Run the noisy neighbour's flood against a new server; print the victim's latencies."""
    address = args.victim_address or victim_address()
    if not address:
        raise SystemExit("--noisy-neighbour needs an address of this machine but loopback")
    with tempfile.TemporaryDirectory(prefix="cuckoo-noisy-") as directory:
        log = Path(directory) / "server.log"
        extra = ["--host", address, "--allow-host", address]
        if args.bot_workers is not None:
            extra += ["--bot-workers", str(args.bot_workers)]
        process, url = start_server(Path(directory) / "noisy.sqlite3", log, 60.0, tuple(extra))
        try:
            runs = asyncio.run(noisy_run(url, args))
        finally:
            stop(process)
    summary = {
        "benchmark": "load --noisy-neighbour",
        "flood": {
            "bot_tables": args.flood_tables,
            "bots": [args.flood_bot] * 4,
            "hint_tables": args.flood_hints,
            "abandon_after_s": args.abandon,
        },
        "victim_bot": args.victim_bot,
        "victim_s": {
            phase: {"hint": latency_summary(timed.hints), "bot": latency_summary(timed.bots)}
            for phase, (timed, _) in runs.items()
        },
        "victim_samples_s": {
            phase: {
                "hint": [round(value, 3) for value in timed.hints],
                "bot": [round(value, 3) for value in timed.bots],
            }
            for phase, (timed, _) in runs.items()
        },
        "flood_requests": {
            phase: dict(sorted(flood.statuses.items()))
            for phase, (_, flood) in runs.items()
            if flood.statuses
        },
        "failures": [
            f"{phase}: {failure}"
            for phase, (timed, _) in runs.items()
            for failure in timed.failures
        ],
        "machine": machine_info(),
    }
    text = json.dumps(summary, indent=2)
    print(text)
    if args.json is not None:
        args.json.write_text(text + "\n")
    return 1 if summary["failures"] else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="tables played at once (50)")
    parser.add_argument(
        "--opponent", default="random", help="bot spec of the opponent seat (random)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the clients' choices (1)")
    parser.add_argument("--rounds", type=int, default=1, help="rounds of --tables tables (1)")
    parser.add_argument(
        "--db", default=None, help="database: a PostgreSQL URL (default: a new SQLite file)"
    )
    parser.add_argument(
        "--processes", type=int, default=1, help="server processes on the database (1)"
    )
    parser.add_argument(
        "--restart", action="store_true", help="then time a start-up on the database left"
    )
    parser.add_argument("--timeout", type=float, default=600.0, help="overall limit, s (600)")
    parser.add_argument("--json", type=Path, default=None, help="also write the summary here")
    parser.add_argument(
        "--bot-workers", type=int, default=None, help="the servers' --bot-workers (their default)"
    )
    parser.add_argument(
        "--no-check",
        action="store_true",
        help="do not replay the stored tables afterwards (for a server of another version)",
    )
    noisy = parser.add_argument_group("noisy neighbour (fair shares, issue 27)")
    noisy.add_argument(
        "--noisy-neighbour",
        action="store_true",
        help="time a victim's hints and bot moves while another client floods",
    )
    noisy.add_argument(
        "--flood-tables", type=int, default=20, help="tables of four bots kept playing (20)"
    )
    noisy.add_argument("--flood-bot", default=FLOOD_BOT, help=f"their bots ({FLOOD_BOT})")
    noisy.add_argument(
        "--flood-hints", type=int, default=20, help="tables asking hints over and over (20)"
    )
    noisy.add_argument(
        "--abandon", type=float, default=0.2, help="seconds before a flood hint is left (0.2)"
    )
    noisy.add_argument(
        "--warm-up", type=float, default=5.0, help="seconds of flood before timing (5)"
    )
    noisy.add_argument("--victim-bot", default=FLOOD_BOT, help=f"the victim's bot ({FLOOD_BOT})")
    noisy.add_argument(
        "--victim-turns", type=int, default=10, help="victim hints and bot moves timed (10)"
    )
    noisy.add_argument(
        "--quiet-turns", type=int, default=5, help="the same, timed before the flood (5)"
    )
    noisy.add_argument(
        "--phases",
        type=lambda text: tuple(text.split(",")),
        default=PHASES[:2],
        help=f"the floods, in order, from {', '.join(PHASES)} (bots,hints)",
    )
    noisy.add_argument(
        "--phase-timeout", type=float, default=180.0, help="the victim's time in each, s (180)"
    )
    noisy.add_argument(
        "--victim-address",
        default=None,
        help="the victim's address, where the server listens (this machine's route out)",
    )
    args = parser.parse_args()
    if args.noisy_neighbour:
        if not set(args.phases) <= set(PHASES):
            parser.error(f"--phases: expected some of {', '.join(PHASES)}")
        return noisy_neighbour(args)
    with tempfile.TemporaryDirectory(prefix="cuckoo-load-") as directory:
        db: Path | str = args.db or Path(directory) / "load.sqlite3"
        log = Path(directory) / "server.log"
        empty_start = None
        if args.restart:  # the reference: a start-up on an empty database, same run
            empty_start = start_up_seconds(Path(directory) / "empty.sqlite3", log)
        extra = () if args.bot_workers is None else ("--bot-workers", str(args.bot_workers))
        servers = [start_server(db, log, 60.0, extra) for _ in range(args.processes)]
        urls = [url for _, url in servers]
        pids = [process.pid for process, _ in servers]
        client_cpu = time.process_time()
        server_cpu = [cpu_seconds(pid) for pid in pids]
        tally = Tally()
        ids: list[str] = []
        seconds = 0.0
        rss: list[float | None] = []
        try:
            for round_ in range(args.rounds):
                elapsed, new = asyncio.run(
                    asyncio.wait_for(
                        run(urls, args.tables, args.opponent, args.seed + round_, tally),
                        args.timeout,
                    )
                )
                seconds += elapsed
                ids += new
                rss.append(rss_mb(pids))
        except TimeoutError:
            tally.failures.append(f"timed out after {args.timeout} s")
        finally:
            client_cpu = time.process_time() - client_cpu
            server_end = [cpu_seconds(pid) for pid in pids]
            used = [
                None if a is None or b is None else b - a
                for a, b in zip(server_cpu, server_end, strict=True)
            ]
            workers_rss = rss_mb(pids, workers=True)
            for process, _ in servers:
                stop(process)
        problems = tally.failures + ([] if args.no_check else check_stored(db, ids))
        if tally.finished != args.tables * args.rounds:
            problems.append(f"{tally.finished} of {args.tables * args.rounds} games finished")
        restart = start_up_seconds(db, log) if args.restart else None
    latencies = tally.latencies or [0.0]
    summary = {
        "benchmark": "load",
        "tables": args.tables,
        "rounds": args.rounds,
        "processes": args.processes,
        "database": "postgresql" if args.db else "sqlite",
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
        "server_rss_mb": {
            "after_first_round": rss[0] if rss else None,
            "after_last_round": rss[-1] if rss else None,
            "growth": (
                round(rss[-1] - rss[0], 1) if len(rss) > 1 and None not in rss else None  # type: ignore[operator]
            ),
            "with_bot_workers_at_end": workers_rss,
        },
        "start_up_seconds": (
            None if restart is None else {"empty_database": empty_start, "after_the_run": restart}
        ),
        "cpu_seconds": {
            "servers": [None if u is None else round(u, 2) for u in used],
            "clients": round(client_cpu, 2),
        },
        "machine": machine_info(),
    }
    text = json.dumps(summary, indent=2)
    print(text)
    if args.json is not None:
        args.json.write_text(text + "\n")
    for problem in problems[:20]:
        print(f"problem: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
