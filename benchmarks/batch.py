"""Benchmark: the batch simulator beside the pure engine, in one run, on the same games.

Every figure is in decisions (or learner steps) per second of wall time, the median of
``--repeats`` timed runs after a warm-up, and every batch figure is given as a ratio to
the pure-engine figure measured in the same run (the machine is shared and noisy):

* ``engine.random``: the pure engine's random 4-player playouts (``legal_actions``,
  ``random.Random.choice``, ``apply``), one process per core (``--processes``, both cores
  by default), summed: the reference.
* ``batch.random``: :meth:`BatchGame.random_playouts` (mask, uniform choice and step in the
  kernels) on ``--batch`` games, both cores (numba's threads).
* ``batch.random+obs``: the same with the observation of every game computed each step.
* ``env.greedy.<P>p``: Gymnasium ``CuckooEnv`` against greedy bots, one learner step per
  call with a random legal action, one process per core, summed (``.1``: one process,
  as one ``CuckooEnv`` runs): the reference of
* ``vector.greedy.<P>p``: :class:`BatchCuckooEnv` against batched greedy bots, ``--batch``
  sub-environments, random legal learner actions drawn from the masks with NumPy.
* ``compile``: the first import and first call of every kernel with an empty numba cache
  (a fresh ``NUMBA_CACHE_DIR``), and the same with the cache warm, in fresh processes.

With ``--reference-c DIR`` (the folder of ``climit``'s ``cubirds.c`` and ``build.sh``)
the script also builds the compiled C reference into a temporary folder (with the flags
of ``build.sh``; nothing is written into ``DIR``) and measures, in rounds that take turns:

* ``c.list``: ``cubirds bench 4 N``, random 4-player games in C on one thread, choosing
  among the legal actions listed in an array;
* ``c.direct``: ``cubirds_direct``, the same choosing without building the list;
* ``ours.1t``: :meth:`BatchGame.random_playouts` on one thread (a worker process started
  with ``NUMBA_NUM_THREADS=1``; each ``--tree`` adds one more, importing that ``src``
  folder, say an older checkout's).

Each is in decisions per second of CPU time (the C program's from ``getrusage``, the
worker's from ``time.process_time``, both one thread), which a busy machine disturbs
less than wall time; the wall-time figures are kept alongside. The fractions
``ours / c.list`` and ``ours / c.direct`` are medians of the per-round fractions.

Usage::

    python benchmarks/batch.py                     # about three minutes
    python benchmarks/batch.py --seconds 1 --repeats 3 --json /tmp/batch.json
    python benchmarks/batch.py --only c --reference-c ../shared/climit   # about a minute
    python benchmarks/batch.py --only vector --players 2   # CuckooEnv and the vector env
"""

from __future__ import annotations

import argparse
import functools
import json
import multiprocessing
import os
import platform
import random
import re
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

import cuckoo_rules as cr
from cuckoo_rules.batch import BatchGame
from cuckoo_rules.envs.gymnasium import CuckooEnv
from cuckoo_rules.envs.vector import BatchCuckooEnv

ROOT = Path(__file__).resolve().parent.parent


# --------------------------------------------------------------------------- references


def engine_random(seconds: float, seed: int) -> tuple[int, float]:
    """Random 4-player playouts in the pure engine for ``seconds``: (decisions, seconds)."""
    options = cr.GameOptions(num_players=4)
    rng = random.Random(seed)
    decisions = 0
    game = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = cr.new_game(options, seed * 1_000_003 + game)
        game += 1
        while not state.is_over:
            state = cr.apply(state, rng.choice(cr.legal_actions(state)))
            decisions += 1
    return decisions, time.perf_counter() - start


def env_greedy(seconds: float, seed: int, players: int) -> tuple[int, float]:
    """CuckooEnv against greedy with random legal learner actions: (steps, seconds)."""
    env = CuckooEnv(num_players=players, opponents="greedy")
    rng = random.Random(seed)
    _, info = env.reset(seed=seed)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        action = rng.choice(info["action_mask"].nonzero()[0].tolist())
        _, _, terminated, truncated, info = env.step(action)
        steps += 1
        if terminated or truncated:
            _, info = env.reset()
    return steps, time.perf_counter() - start


def _call(job: tuple[str, float, int, int]) -> tuple[int, float]:
    name, seconds, seed, players = job
    if name == "engine":
        return engine_random(seconds, seed)
    return env_greedy(seconds, seed, players)


def on_cores(name: str, seconds: float, processes: int, seed: int, players: int = 4) -> float:
    """The summed rate of ``processes`` processes running the reference ``name`` at once."""
    with multiprocessing.get_context("spawn").Pool(processes) as pool:
        results = pool.map(_call, [(name, seconds, seed + k, players) for k in range(processes)])
    return sum(count / elapsed for count, elapsed in results)


# --------------------------------------------------------------------------- batch


def batch_random(batch: int, seconds: float, observations: bool) -> float:
    games = BatchGame(cr.GameOptions(num_players=4), range(batch))
    games.random_playouts(5, 1, observations=observations)  # warm up
    decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        decisions += games.random_playouts(50, decisions + 2, observations=observations)
    return decisions / (time.perf_counter() - start)


def random_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of ``masks`` (the learner's policy)."""
    choice: np.ndarray = np.where(masks, rng.random(masks.shape, dtype=np.float32), -1.0).argmax(
        axis=1
    )
    return choice


def vector_greedy(batch: int, seconds: float, players: int) -> float:
    env = BatchCuckooEnv(num_envs=batch, num_players=players, opponents="greedy")
    rng = np.random.default_rng(0)
    _, infos = env.reset(seed=0)
    for _ in range(3):  # warm up
        _, _, _, _, infos = env.step(random_legal(infos["action_mask"], rng))
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, _, _, _, infos = env.step(random_legal(infos["action_mask"], rng))
        steps += batch
    return steps / (time.perf_counter() - start)


COMPILE_PROGRAM = """
import time
start = time.perf_counter()
import cuckoo_rules as cr
from cuckoo_rules.envs.vector import BatchCuckooEnv
from cuckoo_rules.batch import BatchGame
games = BatchGame(cr.GameOptions(num_players=3), range(4))
games.step(games.legal_action_mask().argmax(axis=1))
games.observations()
games.random_playouts(2, 1, observations=True)
games.reset()
env = BatchCuckooEnv(num_envs=4, num_players=3, opponents="greedy")
env.reset(seed=0)
env.step(env.action_masks().argmax(axis=1))
BatchGame(cr.GameOptions(num_players=2), range(2), seats=["random", "random"]).play()
print(time.perf_counter() - start)
"""


def compile_seconds() -> tuple[float, float]:
    """Seconds to import and call every kernel once: (empty cache, warm cache)."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        times = []
        for _ in range(2):
            done = subprocess.run(
                [sys.executable, "-c", COMPILE_PROGRAM],
                env=env,
                capture_output=True,
                text=True,
                check=True,
            )
            times.append(float(done.stdout))
    return times[0], times[1]


# --------------------------------------------------------------------------- the C reference

C_PLAYERS = 4
C_FLAGS = "-std=c11 -O2 -march=native"  # if build.sh names none
C_PROGRAMS = {"c.list": "cubirds", "c.direct": "cubirds_direct"}

WORKER = r"""
import json, sys, time
import numpy as np
import cuckoo_rules as cr
from cuckoo_rules.batch import BatchGame
games = BatchGame(cr.GameOptions(num_players=int(sys.argv[1])), range(int(sys.argv[2])))
games.random_playouts(5, 1)  # compile or load the kernels
seed = 2
print(json.dumps({"ready": True}), flush=True)
for line in sys.stdin:
    seconds = float(line)
    decisions = 0
    cpu, wall = time.process_time(), time.perf_counter()
    while time.perf_counter() - wall < seconds:
        decisions += games.random_playouts(50, seed)
        seed += 1
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    print(json.dumps({"decisions": decisions, "cpu": cpu, "wall": wall}), flush=True)
"""


def c_flags(folder: Path) -> list[str]:
    """The compiler flags of ``folder/build.sh`` (its ``F="..."`` line), or :data:`C_FLAGS`."""
    try:
        script = (folder / "build.sh").read_text(encoding="utf-8")
    except OSError:
        script = ""
    found = re.search(r'^F="([^"]*)"', script, re.MULTILINE)
    return shlex.split(found.group(1) if found else C_FLAGS)


def build_c(folder: Path, into: Path) -> dict[str, Path]:
    """Compile ``folder/cubirds.c`` into ``into``: the two single-thread programs."""
    source = folder / "cubirds.c"
    flags = c_flags(folder)
    built = {}
    for name, program in C_PROGRAMS.items():
        extra = ["-DDIRECT"] if name == "c.direct" else []
        target = into / program
        subprocess.run(["gcc", *flags, *extra, str(source), "-o", str(target)], check=True)
        built[name] = target
    return built


def run_c(program: Path, games: int) -> dict[str, float]:
    """One ``bench`` run: its decisions, and its CPU and wall seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [str(program), "bench", str(C_PLAYERS), str(games)],
        capture_output=True,
        text=True,
        check=True,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    found = re.search(r"decisions=(\d+)", done.stdout)
    if found is None:
        raise SystemExit(f"{program}: unexpected output {done.stdout!r}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"decisions": float(found.group(1)), "cpu": cpu, "wall": wall}


class Worker:
    """A process that runs :meth:`BatchGame.random_playouts` on one thread on request."""

    def __init__(self, tree: Path | None, batch: int) -> None:
        env = {**os.environ, "NUMBA_NUM_THREADS": "1"}
        if tree is not None:
            env["PYTHONPATH"] = str(tree.resolve())
        self.process = subprocess.Popen(
            [sys.executable, "-c", WORKER, str(C_PLAYERS), str(batch)],
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.read()  # ready

    def read(self) -> dict[str, float]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"the worker stopped (exit status {self.process.wait()})")
        return dict(json.loads(line))

    def measure(self, seconds: float) -> dict[str, float]:
        assert self.process.stdin is not None
        self.process.stdin.write(f"{seconds}\n")
        self.process.stdin.flush()
        return self.read()

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait()


def against_c(
    folder: Path, trees: list[Path | None], batch: int, seconds: float, repeats: int
) -> dict[str, Any]:
    """``random_playouts`` on one thread beside the C reference, rounds taking turns."""
    with tempfile.TemporaryDirectory() as into:
        programs = build_c(folder, Path(into))
        # size the C runs to about ``seconds`` each, from a short first run
        probe = run_c(programs["c.list"], 2000)
        games = max(2000, int(2000 * seconds / max(probe["cpu"], 1e-3)))
        workers = {
            "ours.1t" if tree is None else f"ours.1t[{tree}]": Worker(tree, batch) for tree in trees
        }
        runs: dict[str, list[dict[str, float]]] = {name: [] for name in (*programs, *workers)}
        try:
            for _ in range(repeats):
                for name, program in programs.items():
                    runs[name].append(run_c(program, games))
                for name, worker in workers.items():
                    runs[name].append(worker.measure(seconds))
        finally:
            for worker in workers.values():
                worker.close()
    rates = {
        name: {
            clock: statistics.median(run["decisions"] / run[clock] for run in items)
            for clock in ("cpu", "wall")
        }
        for name, items in runs.items()
    }
    fractions = {
        f"{name} / {c}": statistics.median(
            mine["decisions"] / mine["cpu"] / (theirs["decisions"] / theirs["cpu"])
            for mine, theirs in zip(runs[name], runs[c], strict=True)
        )
        for name in workers
        for c in programs
    }
    return {"games_per_c_run": games, "per_cpu_second": rates, "fractions": fractions}


def median(repeats: int, measure: Callable[[], float]) -> float:
    return statistics.median(measure() for _ in range(repeats))


GROUPS = ("random", "vector", "compile", "c")


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=4096)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--players", type=int, nargs="+", default=[4, 2], choices=range(2, 6))
    parser.add_argument("--no-compile", action="store_true", help="skip the compile timing")
    parser.add_argument(
        "--only", nargs="+", choices=GROUPS, help="measure these groups only (c: the C reference)"
    )
    parser.add_argument("--reference-c", type=Path, metavar="DIR", help="climit's folder")
    parser.add_argument(
        "--tree", type=Path, action="append", default=[], help="also measure this src (C only)"
    )
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    s, r, p, b = args.seconds, args.repeats, args.processes, args.batch
    groups = set(args.only or GROUPS)
    if args.reference_c is None:
        if args.only and "c" in groups:
            parser.error("--only c needs --reference-c DIR")
        groups.discard("c")
    figures: dict[str, float] = {}
    ratios: dict[str, float] = {}
    loads = [load_average()]
    if "random" in groups:
        figures["engine.random"] = median(r, lambda: on_cores("engine", s, p, 1))
        figures["batch.random"] = median(r, lambda: batch_random(b, s, False))
        figures["batch.random+obs"] = median(r, lambda: batch_random(b, s, True))
        for name in ("batch.random", "batch.random+obs"):
            ratios[f"{name} / engine.random"] = figures[name] / figures["engine.random"]
    if "vector" in groups:
        for n in args.players:
            figures[f"env.greedy.{n}p"] = median(r, functools.partial(on_cores, "env", s, p, 7, n))
            figures[f"env.greedy.{n}p.1"] = median(
                r, functools.partial(on_cores, "env", s, 1, 7, n)
            )
            figures[f"vector.greedy.{n}p"] = median(r, functools.partial(vector_greedy, b, s, n))
        for n in args.players:
            for reference in (f"env.greedy.{n}p", f"env.greedy.{n}p.1"):
                ratios[f"vector.greedy.{n}p / {reference}"] = (
                    figures[f"vector.greedy.{n}p"] / figures[reference]
                )
    result: dict[str, Any] = {
        "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}",
        "batch": b,
        "processes": p,
        "per_second": figures,
        "ratios": ratios,
    }
    if "c" in groups:
        trees: list[Path | None] = [None, *args.tree]
        result["reference_c"] = against_c(args.reference_c, trees, b, s, r)
    if "compile" in groups and not args.no_compile:
        cold, warm = compile_seconds()
        result["compile_seconds"] = {"empty_cache": cold, "warm_cache": warm}
    loads.append(load_average())
    result["load_average"] = {"start": loads[0], "end": loads[1]}
    for name, value in figures.items():
        print(f"{name:22} {value:14,.0f} /s")
    for name, value in ratios.items():
        print(f"{name:40} {value:8.1f}x")
    if "reference_c" in result:
        c = result["reference_c"]
        print(f"random playouts, {C_PLAYERS} players, one thread (medians of {r} rounds):")
        for name, rates in c["per_cpu_second"].items():
            print(
                f"  {name:28} {rates['cpu']:14,.0f} decisions per CPU second "
                f"({rates['wall']:,.0f} per wall second)"
            )
        for name, value in c["fractions"].items():
            print(f"  {name:44} {value:6.2f}")
    if "compile_seconds" in result:
        print(
            "compile: {empty_cache:.1f} s with an empty cache, {warm_cache:.1f} s warm".format(
                **result["compile_seconds"]
            )
        )
    print(f"load average: {loads[0]} at the start, {loads[1]} at the end")
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return result


def load_average() -> list[float]:
    """The 1, 5 and 15-minute load averages (empty where the system has none)."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return []


if __name__ == "__main__":
    main()
