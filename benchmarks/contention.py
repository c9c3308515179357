"""Benchmark: the batch kernels' speed when other programs share the cores.

Each workload runs in a fresh process (so that the threading settings apply from the
start), first alone and then beside ``--busy`` CPU-bound processes (plain Python loops,
as another experiment or a CI job would be), round after round in the same run. Every
figure is a rate (decisions, steps or simulations per second of wall time), and the
kernels' slowdown under load is reported as a ratio to the slowdown of a plain
single-threaded Python loop measured beside the same processes, so that the machine's
own noise cancels: a *share* of 1.0 means the kernels keep their speed as well as a
one-thread program does; the goal is at least 0.8.

The workloads:

* ``python``: a plain Python loop, one thread (the reference).
* ``step``: :class:`~cuckoo_rules.batch.BatchGame`'s loop of ``legal_action_mask``, a
  random legal choice in NumPy, and ``step``, on 2,048 games of 4 players.
* ``playouts``: :meth:`~cuckoo_rules.batch.BatchGame.random_playouts` on 2,048 games.
* ``vector``: :class:`~cuckoo_rules.envs.vector.BatchCuckooEnv` of 256 two-player games
  against greedy bots, random legal learner actions.
* ``expert``: the expert bot's simulations per second (``ExpertBot`` with a fixed budget
  of simulations, on the first positions of a seeded game).

Usage::

    python benchmarks/contention.py                       # the library as installed
    python benchmarks/contention.py --tree /path/to/src   # another checkout's src, e.g. an
                                                          # older revision, in the same run
    python benchmarks/contention.py --env OMP_WAIT_POLICY=ACTIVE --rounds 5
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

WORKLOADS = ("python", "step", "playouts", "vector", "expert")

_CODE = r"""
import json, sys, time
name, seconds = sys.argv[1], float(sys.argv[2])

def timed(run, warm=1):
    for _ in range(warm):
        run()
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        done += run()
    return done / (time.perf_counter() - start)

if name == "python":
    def run():
        total = 0
        for i in range(200_000):
            total += i * i % 7
        return 200_000
    rate = timed(run)
elif name in ("step", "playouts"):
    import numpy as np
    import cuckoo_rules as cr
    from cuckoo_rules.batch import BatchGame
    game = BatchGame(cr.GameOptions(num_players=4), range(2048), auto_reset=True)
    rng = np.random.default_rng(0)
    def step():
        mask = game.legal_action_mask()
        game.step(np.argmax(mask * rng.random(mask.shape), axis=1))
        return len(mask)
    rate = timed(step if name == "step" else lambda: game.random_playouts(20, 1), warm=3)
elif name == "vector":
    import numpy as np
    try:
        from cuckoo_rules.envs.vector import BatchCuckooEnv
    except ImportError:  # before the vector environment moved
        from cuckoo_rules.batch.gymnasium import BatchCuckooEnv
    env = BatchCuckooEnv(256, num_players=2)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    def step():
        mask = env.action_masks()
        env.step(np.argmax(mask * rng.random(mask.shape), axis=1))
        return len(mask)
    rate = timed(step, warm=3)
elif name == "expert":
    import cuckoo_rules as cr
    from cuckoo_rules.bots.expert import ExpertBot
    state = cr.new_game(cr.GameOptions(num_players=3), 11)
    views = []
    for _ in range(6):
        views.append(cr.observe(state, state.current_player))
        state = cr.apply(state, cr.legal_actions(state)[0])
    bot = ExpertBot(seed=1, simulations=400)
    position = iter(range(10**9))
    def decide():
        bot.choose(views[next(position) % len(views)])
        return 400
    rate = timed(decide)
print(json.dumps({"rate": rate}))
"""


def measure(name: str, seconds: float, env: dict[str, str]) -> float:
    """One fresh process's rate for workload ``name``."""
    run = subprocess.run(
        [sys.executable, "-c", _CODE, name, str(seconds)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if run.returncode:
        raise SystemExit(f"{name} failed:\n{run.stderr[-3000:]}")
    return float(json.loads(run.stdout.strip().splitlines()[-1])["rate"])


def busy(count: int) -> list[subprocess.Popen[bytes]]:
    """Start ``count`` CPU-bound processes (plain Python loops)."""
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workloads", default=",".join(WORKLOADS), help="comma-separated")
    parser.add_argument("--seconds", type=float, default=3.0, help="timed seconds a run (3)")
    parser.add_argument("--rounds", type=int, default=3, help="quiet/loaded rounds (3)")
    parser.add_argument("--busy", type=int, default=2, help="CPU-bound neighbours (2)")
    parser.add_argument("--tree", type=Path, default=None, help="a src folder to import from")
    parser.add_argument("--env", action="append", default=[], help="KEY=VALUE for the runs")
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    args = parser.parse_args()
    env = dict(os.environ)
    if args.tree is not None:
        env["PYTHONPATH"] = str(args.tree.resolve())
    for item in args.env:
        key, _, value = item.partition("=")
        env[key] = value
    names = [n for n in args.workloads.split(",") if n]
    if "python" not in names:
        names.insert(0, "python")
    for name in names:  # compile the kernels (and warm the caches) before timing
        measure(name, 0.1, env)
    rates: dict[str, dict[str, list[float]]] = {n: {"quiet": [], "loaded": []} for n in names}
    for _ in range(args.rounds):
        for name in names:
            rates[name]["quiet"].append(measure(name, args.seconds, env))
        neighbours = busy(args.busy)
        try:
            time.sleep(0.5)
            for name in names:
                rates[name]["loaded"].append(measure(name, args.seconds, env))
        finally:
            for process in neighbours:
                process.kill()
                process.wait()
    reference = statistics.median(
        loaded / quiet
        for quiet, loaded in zip(rates["python"]["quiet"], rates["python"]["loaded"], strict=True)
    )
    print(
        f"{os.cpu_count()} cores, {args.busy} busy neighbours, {args.rounds} rounds; "
        f"settings: {', '.join(args.env) or 'defaults'}; tree: {args.tree or 'installed'}"
    )
    print(f"{'workload':10} {'quiet/s':>14} {'loaded/s':>14} {'loaded/quiet':>13} {'share':>7}")
    figures = {}
    for name in names:
        quiet = statistics.median(rates[name]["quiet"])
        loaded = statistics.median(rates[name]["loaded"])
        ratio = statistics.median(
            b / a for a, b in zip(rates[name]["quiet"], rates[name]["loaded"], strict=True)
        )
        share = ratio / reference
        figures[name] = {"quiet": quiet, "loaded": loaded, "ratio": ratio, "share": share}
        print(f"{name:10} {quiet:14,.0f} {loaded:14,.0f} {ratio:13.3f} {share:7.2f}")
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
