"""Benchmark: how long the batch kernels take to start, with an empty cache and a full one.

numba compiles the kernels at their first call and keeps them in its cache
(``NUMBA_CACHE_DIR``, else ``__pycache__`` beside the sources); a process that finds them
there loads them in a fraction of a second. This script measures three first uses, each
in a fresh process with a fresh, empty cache directory (*cold*), then again in a second
process with the cache the first one filled (*warm*):

* ``batch``: ``import cuckoo_rules.batch``, a :class:`~cuckoo_rules.batch.BatchGame` of
  ``--games`` four-player games and one call of ``random_playouts``;
* ``expert``: the expert's first hint (:func:`cuckoo_rules.bots.expert.hint` with its
  default budget) on the first position of a two-player game;
* ``vector``: a :class:`~cuckoo_rules.envs.vector.BatchCuckooEnv` of ``--envs``
  two-player games against greedy bots: ``reset`` and one ``step``.

Each line gives the wall-clock seconds of the whole process (imports included) and its
CPU seconds (all its threads), which a loaded machine disturbs less; the machine's load
average is printed with every round. ``--profile`` also lists the kernels each cold run
compiled, with the seconds each took (a kernel's time includes the kernels it called
that were compiled for it).

Usage::

    python benchmarks/cold_start.py                        # the library as installed
    python benchmarks/cold_start.py --only expert --profile
    python benchmarks/cold_start.py --tree /path/to/src    # another checkout's src, in the
                                                           # same run, interleaved
    python benchmarks/cold_start.py --rounds 3 --json results.json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

PATHS = ("batch", "expert", "vector")

_CODE = r"""
import json, sys, time
name, games, envs, profile = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1"
wall, cpu = time.perf_counter(), time.process_time()
compiled = []
if profile:
    import numba.core.event as event

    class Compiles(event.Listener):
        def __init__(self):
            self.started = []

        def on_start(self, ev):
            self.started.append(time.perf_counter())

        def on_end(self, ev):
            function = ev.data["dispatcher"].py_func
            seconds = time.perf_counter() - self.started.pop()
            if function.__module__.startswith("cuckoo_rules"):
                module = function.__module__.rsplit(".", 1)[-1]
                compiled.append([len(self.started), f"{module}.{function.__name__}", seconds])

    event.register("numba:compile", Compiles())

if name == "batch":
    import cuckoo_rules as cr
    from cuckoo_rules.batch import BatchGame

    BatchGame(cr.GameOptions(num_players=4), range(games)).random_playouts(20, 1)
elif name == "expert":
    import cuckoo_rules as cr
    from cuckoo_rules.bots.expert import hint

    match = cr.Match(cr.GameOptions(num_players=2), seed=3, seats=[None, None])
    hint(match.view(match.to_act), match.knowledge(match.to_act))
elif name == "vector":
    import numpy as np
    from cuckoo_rules.envs.vector import BatchCuckooEnv

    env = BatchCuckooEnv(envs, num_players=2)
    _, info = env.reset(seed=0)
    env.step(np.argmax(info["action_mask"], axis=1))
print(json.dumps({
    "wall": time.perf_counter() - wall,
    "cpu": time.process_time() - cpu,
    "compiled": compiled,
}))
"""


def _load() -> float:
    try:
        return float(Path("/proc/loadavg").read_text().split()[0])
    except OSError:  # not Linux
        return os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")


def run_once(
    path: str, cache: str, tree: str | None, args: argparse.Namespace, profile: bool
) -> dict[str, object]:
    """Run ``path`` in a new process with ``cache`` as numba's cache; return its figures."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONWARNINGS="ignore")
    if tree:
        env["PYTHONPATH"] = tree + os.pathsep + env.get("PYTHONPATH", "")
    command = [sys.executable, "-c", _CODE, path, str(args.games), str(args.envs)]
    done = subprocess.run(
        [*command, "1" if profile else "0"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise SystemExit(f"{path} failed:\n{done.stderr[-3000:]}")
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", choices=PATHS, default=list(PATHS))
    parser.add_argument("--rounds", type=int, default=1, help="cold+warm runs of each path")
    parser.add_argument("--games", type=int, default=2048, help="games of the batch path")
    parser.add_argument("--envs", type=int, default=64, help="sub-environments (vector path)")
    parser.add_argument(
        "--tree",
        action="append",
        default=[],
        help="a src directory to measure too (repeatable); 'installed' is the library as installed",
    )
    parser.add_argument("--profile", action="store_true", help="list the kernels compiled")
    parser.add_argument("--json", type=Path, help="write every figure to this file")
    args = parser.parse_args(argv)
    trees: list[str | None] = [None if t == "installed" else t for t in args.tree] or [None]
    results: list[dict[str, object]] = []
    for round_ in range(args.rounds):
        for path in args.only:
            for tree in trees:
                load = _load()
                with tempfile.TemporaryDirectory(prefix="cuckoo-cold-") as cache:
                    cold = run_once(path, cache, tree, args, args.profile)
                    warm = run_once(path, cache, tree, args, False)
                label = tree or "installed"
                cold_s, cold_cpu = float(str(cold["wall"])), float(str(cold["cpu"]))
                warm_s, warm_cpu = float(str(warm["wall"])), float(str(warm["cpu"]))
                results.append(
                    {"round": round_, "path": path, "tree": label, "load": load, "cold": cold_s}
                    | {"cold_cpu": cold_cpu, "warm": warm_s, "warm_cpu": warm_cpu}
                )
                print(
                    f"{path:7s} {label:24.24s} load {load:5.2f}  cold {cold_s:6.1f} s "
                    f"(cpu {cold_cpu:6.1f} s)  warm {warm_s:5.2f} s (cpu {warm_cpu:5.2f} s)  "
                    f"cold/warm {cold_s / warm_s:5.1f}x",
                    flush=True,
                )
                compiled: list[tuple[int, str, float]] = cold["compiled"]  # type: ignore[assignment]
                for depth, name, seconds in compiled:
                    print(f"    {'  ' * depth}{name} {seconds:.2f} s")
    if args.rounds > 1:
        print("medians:")
        for path in args.only:
            for tree in trees:
                label = tree or "installed"
                rows = [r for r in results if r["path"] == path and r["tree"] == label]
                median = {
                    key: statistics.median(float(str(r[key])) for r in rows)
                    for key in ("cold", "cold_cpu", "warm")
                }
                print(
                    f"{path:7s} {label:24.24s} cold {median['cold']:6.1f} s "
                    f"(cpu {median['cold_cpu']:6.1f} s)  warm {median['warm']:5.2f} s"
                )
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
