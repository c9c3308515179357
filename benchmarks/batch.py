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

Usage::

    python benchmarks/batch.py                     # about three minutes
    python benchmarks/batch.py --seconds 1 --repeats 3 --json /tmp/batch.json
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import random
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
    return np.where(masks, rng.random(masks.shape, dtype=np.float32), -1.0).argmax(axis=1)


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


def median(repeats: int, measure: Callable[[], float]) -> float:
    return statistics.median(measure() for _ in range(repeats))


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=4096)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--no-compile", action="store_true", help="skip the compile timing")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    s, r, p, b = args.seconds, args.repeats, args.processes, args.batch
    figures: dict[str, float] = {}
    figures["engine.random"] = median(r, lambda: on_cores("engine", s, p, 1))
    figures["batch.random"] = median(r, lambda: batch_random(b, s, False))
    figures["batch.random+obs"] = median(r, lambda: batch_random(b, s, True))
    for players in (4, 2):
        figures[f"env.greedy.{players}p"] = median(
            r, lambda players=players: on_cores("env", s, p, 7, players)
        )
        figures[f"env.greedy.{players}p.1"] = median(
            r, lambda players=players: on_cores("env", s, 1, 7, players)
        )
        figures[f"vector.greedy.{players}p"] = median(
            r, lambda players=players: vector_greedy(b, s, players)
        )
    ratios = {
        "batch.random / engine.random": figures["batch.random"] / figures["engine.random"],
        "batch.random+obs / engine.random": figures["batch.random+obs"] / figures["engine.random"],
        **{
            f"vector.greedy.{n}p / env.greedy.{n}p": figures[f"vector.greedy.{n}p"]
            / figures[f"env.greedy.{n}p"]
            for n in (4, 2)
        },
        **{
            f"vector.greedy.{n}p / env.greedy.{n}p.1": figures[f"vector.greedy.{n}p"]
            / figures[f"env.greedy.{n}p.1"]
            for n in (4, 2)
        },
    }
    result: dict[str, Any] = {
        "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}",
        "batch": b,
        "processes": p,
        "per_second": figures,
        "ratios": ratios,
    }
    if not args.no_compile:
        cold, warm = compile_seconds()
        result["compile_seconds"] = {"empty_cache": cold, "warm_cache": warm}
    for name, value in figures.items():
        print(f"{name:22} {value:14,.0f} /s")
    for name, value in ratios.items():
        print(f"{name:40} {value:8.1f}x")
    if "compile_seconds" in result:
        print(
            "compile: {empty_cache:.1f} s with an empty cache, {warm_cache:.1f} s warm".format(
                **result["compile_seconds"]
            )
        )
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return result


if __name__ == "__main__":
    main()
