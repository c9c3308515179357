"""Compare the hot paths of two (or more) revisions in one process, interleaved.

Usage::

    python benchmarks/ab.py dd6ba57 HEAD            # 11 rounds
    python benchmarks/ab.py 36f163e HEAD --rounds 21
    python benchmarks/ab.py 682e8a4 WORKTREE        # the uncommitted working tree

Whole runs of ``benchmarks/run.py`` one after the other are too noisy on a shared
machine to tell a few per cent apart (unchanged code moved by 50% between runs). This
script extracts ``src/cuckoo_rules`` of each revision with ``git archive`` into a
temporary directory as a package of its own (``cr_0``, ``cr_1``, ...), imports them all
into one process, and times each benchmark on every copy in turn, round after round, in
process CPU time (best of 3 per round). It reports, per benchmark, each copy's median
per call and the median over the rounds of each copy's ratio to the first revision.

The inputs are the same for every copy: (state, action) pairs from seeded random games
of 2 to 5 players, and the views of those states. ``determinize`` deals a different view
each call (200 in turn), so its per-view check and plan are never reused.

``env greedy 2p`` and ``env greedy 4p`` time the Gymnasium ``CuckooEnv`` (built directly)
against greedy bots, per learner step: seeded episodes played to the end, resets
included, the learner's action drawn from the action mask with a seeded
``random.Random``. They need the ``gymnasium`` extra and are left out without it.
``--only`` keeps the benchmarks whose names start with one of its words::

    python benchmarks/ab.py dd6ba57 WORKTREE --only env decode determinize --rounds 31

``--batch`` adds the batch simulator's kernels (numba, one thread: set
``NUMBA_NUM_THREADS`` to change it), per decision: ``random_playouts`` on 512 games of 4
players, the same with every observation, and a loop of ``legal_action_mask`` and
``step`` against three batched greedy bots. Each copy compiles its own kernels first (a
minute or two each with an empty numba cache)::

    NUMBA_NUM_THREADS=1 python benchmarks/ab.py 682e8a4 WORKTREE --batch --rounds 31
"""

from __future__ import annotations

import argparse
import importlib
import io
import random
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import timeit
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def extract(rev: str, into: Path, name: str) -> None:
    """Write ``src/cuckoo_rules`` of ``rev`` as the package ``into/name``.

    ``WORKTREE`` stands for the working tree as it is, uncommitted changes included, and
    a directory for the package in it (a ``cuckoo_rules`` folder).
    """
    if rev == "WORKTREE" or Path(rev).is_dir():
        source = ROOT / "src" / "cuckoo_rules" if rev == "WORKTREE" else Path(rev)
        shutil.copytree(source, into / name)
        return
    archive = subprocess.run(
        ["git", "archive", rev, "src/cuckoo_rules"], cwd=ROOT, capture_output=True, check=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into / "_x", filter="data")
    (into / "_x" / "src" / "cuckoo_rules").rename(into / name)


def benchmarks(cr: Any, name: str) -> dict[str, tuple[Callable[[], object], int]]:
    """The timed loops of one copy, each with its number of calls."""
    rng = random.Random(1)
    pairs: list[tuple[Any, Any]] = []
    game = 0
    while len(pairs) < 2000:
        state = cr.new_game(cr.GameOptions(num_players=2 + game % 4), 1000 + game)
        game += 1
        while not state.is_over and len(pairs) < 2000:
            action = rng.choice(cr.legal_actions(state))
            if rng.random() < 0.15:
                pairs.append((state, action))
            state = cr.apply(state, action)
    states = [s for s, _ in pairs]
    views = [cr.observe(s, s.current_player) for s in states]
    encode_observation = importlib.import_module(name + ".observation").encode_observation
    codec = importlib.import_module(name + ".codec")
    docs = [codec.encode_state(s) for s in states[:400]]

    def playouts() -> None:
        choose = random.Random(5).choice
        for g in range(6):
            s = cr.new_game(cr.GameOptions(num_players=4), g)
            while not s.is_over:
                s = cr.apply(s, choose(cr.legal_actions(s)))

    return {
        "apply": (lambda: [cr.apply(s, a) for s, a in pairs], len(pairs)),
        "legal_actions": (lambda: [cr.legal_actions(s) for s in states], len(states)),
        "observe": (lambda: [cr.observe(s, s.current_player) for s in states], len(states)),
        "encode_observation": (lambda: [encode_observation(v) for v in views], len(views)),
        "encode_state": (lambda: [codec.encode_state(s) for s in states[:400]], 400),
        "decode_state": (lambda: [codec.decode_state(d) for d in docs], 400),
        "determinize": (lambda: [cr.determinize(v, k) for k, v in enumerate(views[:200])], 200),
        "playouts (6 games, 4p)": (playouts, 1),
    }


def env_benchmarks(name: str) -> dict[str, tuple[Callable[[], object], int]]:
    """``CuckooEnv`` against greedy bots, per learner step; empty without gymnasium."""
    try:
        gym = importlib.import_module(name + ".envs.gymnasium")
    except ImportError:
        return {}

    def episodes(players: int, count: int) -> Callable[[], int]:
        env = gym.CuckooEnv(num_players=players, opponents="greedy")

        def run() -> int:
            rng = random.Random(3)
            steps = 0
            for seed in range(count):
                _obs, info = env.reset(seed=seed)
                done = False
                while not done:
                    action = rng.choice(info["action_mask"].nonzero()[0])
                    _obs, _reward, terminated, truncated, info = env.step(action)
                    done = terminated or truncated
                    steps += 1
            return steps

        return run

    loops = {"env greedy 2p": episodes(2, 12), "env greedy 4p": episodes(4, 6)}
    return {key: (run, run()) for key, run in loops.items()}  # the same steps every run


def batch_benchmarks(cr: Any, name: str) -> dict[str, tuple[Callable[[], object], int]]:
    """The batch simulator's timed loops of one copy, each with its number of decisions."""
    import numpy as np

    batch = importlib.import_module(name + ".batch")
    options = cr.GameOptions(num_players=4)
    plain = batch.BatchGame(options, range(512), auto_reset=True)
    observed = batch.BatchGame(options, range(512), auto_reset=True)
    seats = [None, "greedy", "greedy", "greedy"]
    stepped = batch.BatchGame(options, range(256), seats=seats, auto_reset=True)
    rng = np.random.default_rng(0)

    def step_loop() -> int:
        decisions = 0
        for _ in range(20):
            mask = stepped.legal_action_mask()
            stepped.step(np.argmax(mask * rng.random(mask.shape), axis=1))
            decisions += len(mask)
        return decisions

    loops: dict[str, Callable[[], int]] = {
        "batch random_playouts": lambda: int(plain.random_playouts(100, 2)),
        "batch playouts+obs": lambda: int(observed.random_playouts(30, 3, observations=True)),
        "batch mask+step (greedy)": step_loop,
    }
    return {key: (run, run()) for key, run in loops.items()}  # the first run compiles


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("revisions", nargs="+", help="git revisions; the first is the reference")
    parser.add_argument("--rounds", type=int, default=11, help="interleaved rounds (11)")
    parser.add_argument("--batch", action="store_true", help="time the batch kernels too")
    parser.add_argument(
        "--only", nargs="+", metavar="PREFIX", help="only the benchmarks named so (prefixes)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        names = [f"cr_{i}" for i in range(len(args.revisions))]
        for rev, name in zip(args.revisions, names, strict=True):
            extract(rev, Path(tmp), name)
        sys.path.insert(0, tmp)
        copies: dict[str, ModuleType] = {n: importlib.import_module(n) for n in names}
        only = tuple(args.only or ("",))  # every name starts with ""
        loops = {n: benchmarks(copies[n], n) for n in names}
        if any(name.startswith(only) for name in ("env greedy 2p", "env greedy 4p")):
            for n in names:
                loops[n].update(env_benchmarks(n))
        if args.batch:
            for n in names:
                loops[n].update(batch_benchmarks(copies[n], n))
        for n in names:
            loops[n] = {k: v for k, v in loops[n].items() if k.startswith(only)}
        times: dict[str, dict[str, list[float]]] = {
            k: {n: [] for n in names} for k in loops[names[0]]
        }
        for r in range(args.rounds):
            order = names[r % len(names) :] + names[: r % len(names)]
            for bench in times:
                for n in order:
                    run, calls = loops[n][bench]
                    best = min(timeit.repeat(run, number=1, repeat=3, timer=time.process_time))
                    times[bench][n].append(best / calls * 1e6)
    print(f"median µs per call (CPU time) over {args.rounds} rounds; ratio to {args.revisions[0]}")
    for bench, by_copy in times.items():
        cells = []
        for rev, n in zip(args.revisions, names, strict=True):
            ratio = statistics.median(
                t / t0 for t, t0 in zip(by_copy[n], by_copy[names[0]], strict=True)
            )
            cells.append(f"{rev} {statistics.median(by_copy[n]):9.2f} ({ratio:.3f})")
        print(f"{bench:24} " + "  ".join(cells))


if __name__ == "__main__":
    main()
