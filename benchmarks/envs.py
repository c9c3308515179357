"""Benchmark: steps per second of the research adapters, with random masked legal actions.

Plays seeded episodes through each adapter, every action drawn uniformly at random (with a
``random.Random`` seeded per run) among those its mask allows, and reports the median of
several timed runs after a warm-up, in process CPU time:

* ``pz.env``: PettingZoo ``env()`` (wrapped as PettingZoo's classic games are). A step is
  one ``last()`` and one ``step()`` of the ``agent_iter()`` loop; steps are counted for the
  decisions only, but the ``None`` steps of the finished agents are timed.
* ``pz.raw``: the same with the unwrapped ``raw_env``.
* ``gym.random``, ``gym.greedy``: Gymnasium ``CuckooEnv`` (built directly, without
  ``gymnasium.make``'s checking wrappers) against ``random`` or ``greedy`` bots. A step is
  one learner ``step()``, which also plays the bots' moves until the learner is to act
  again, so it costs about as many engine decisions as there are players.
* ``os.plain``: OpenSpiel, ``pyspiel.load_game("python_cuckoo_rules", {"players": n})``,
  ``legal_actions()`` and ``apply_action`` per decision. Each episode starts from
  ``game.state_from_engine(new_game(options, seed))`` (the chance node's deal, with the
  episode's seed) so that every adapter plays the same seeded deals.
* ``os.obs``: the same, plus ``observation_tensor()`` of the acting player every step.
* ``obs.encode``: ``encode_observation(observe(state, seat))`` for the acting seat, in
  microseconds per call; ``obs.float32`` adds ``np.asarray(..., dtype=np.float32)`` as the
  adapters do; ``obs.mask`` is ``np.asarray(legal_action_mask(state), dtype=np.int8)``.
  These loop over 500 states from seeded random games, with the garbage collector paused
  (as in :mod:`timeit` and ``benchmarks/run.py``), in runs of a tenth of ``--seconds``.

Resets are part of the timed loops (a run plays whole episodes); actions are picked from
``mask.nonzero()[0]`` (``legal_actions()`` for OpenSpiel) with ``random.Random.choice``,
which is timed too.

Usage::

    python benchmarks/envs.py                          # 2 and 4 players, 5 runs of 2 s
    python benchmarks/envs.py --players 3 --seconds 1 --repeats 3 --only pz gym
    python benchmarks/envs.py --json /tmp/envs.json

With the defaults the whole suite takes about two minutes of CPU time.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import cuckoo_rules as cr

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run  # (a sibling script: its timing, clock and machine description)
from playouts import machine_info
from run import TimedRun, load_average, results_header, timed_games

SAMPLE_SIZE = 500
MICRO_FRACTION = 0.1  # a micro-benchmark run lasts this fraction of --seconds


@dataclass
class Figure:
    """One benchmark's result: the median and range of its timed runs (CPU time)."""

    name: str
    players: int
    unit: str
    median: float
    low: float
    high: float
    runs: list[float]
    wall_median: float
    steps: int = 0
    episodes: int = 0
    note: str = ""
    extra: dict[str, float] = field(default_factory=dict)


# An episode function plays one whole seeded episode and returns the steps it counted.
Episode = Callable[[int, random.Random], int]


# --------------------------------------------------------------------------- adapters


def pettingzoo_episode(players: int, wrapped: bool) -> Episode:
    from cuckoo_rules.envs import pettingzoo

    env = pettingzoo.env(players) if wrapped else pettingzoo.raw_env(players)

    def episode(seed: int, rng: random.Random) -> int:
        env.reset(seed=seed)
        steps = 0
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
            else:
                env.step(rng.choice(obs["action_mask"].nonzero()[0]))
                steps += 1
        return steps

    return episode


def gymnasium_episode(players: int, opponents: str) -> Episode:
    from cuckoo_rules.envs.gymnasium import CuckooEnv

    env = CuckooEnv(num_players=players, opponents=opponents)

    def episode(seed: int, rng: random.Random) -> int:
        _obs, info = env.reset(seed=seed)
        steps = 0
        done = False
        while not done:
            action = rng.choice(info["action_mask"].nonzero()[0])
            _obs, _reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
            steps += 1
        return steps

    return episode


def openspiel_episode(players: int, observe: bool) -> Episode:
    import pyspiel

    import cuckoo_rules.envs.openspiel  # noqa: F401  (registers the game)

    game = pyspiel.load_game("python_cuckoo_rules", {"players": players})
    options = game.options

    def episode(seed: int, rng: random.Random) -> int:
        # The deal of ``seed`` (the chance node's own deal draws from the game's rng).
        state = game.state_from_engine(cr.new_game(options, seed))
        steps = 0
        while not state.is_terminal():
            if observe:
                state.observation_tensor(state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        return steps

    return episode


ADAPTERS: dict[str, tuple[Callable[[int], Episode], str]] = {
    "pz.env": (lambda n: pettingzoo_episode(n, wrapped=True), "PettingZoo env(), AEC steps"),
    "pz.raw": (lambda n: pettingzoo_episode(n, wrapped=False), "PettingZoo raw_env, AEC steps"),
    "gym.random": (
        lambda n: gymnasium_episode(n, "random"),
        "Gymnasium CuckooEnv vs random bots, learner steps (bot moves included)",
    ),
    "gym.greedy": (
        lambda n: gymnasium_episode(n, "greedy"),
        "Gymnasium CuckooEnv vs greedy bots, learner steps (bot moves included)",
    ),
    "os.plain": (
        lambda n: openspiel_episode(n, observe=False),
        "OpenSpiel legal_actions + apply_action",
    ),
    "os.obs": (
        lambda n: openspiel_episode(n, observe=True),
        "OpenSpiel, plus observation_tensor of the acting player",
    ),
}


def bench_adapter(name: str, players: int, seconds: float, repeats: int, warmup: float) -> Figure:
    make, note = ADAPTERS[name]
    episode = make(players)

    def timed_episodes(first_seed: int, seconds: float) -> TimedRun:
        rng = random.Random(first_seed)
        return timed_games(lambda seed: episode(seed, rng), first_seed, seconds)

    timed_episodes(10**9, warmup)
    runs = [timed_episodes(index * 1_000_000, seconds) for index in range(repeats)]
    rates = [run.steps / run.cpu for run in runs]
    steps = sum(run.steps for run in runs)
    episodes = sum(run.games for run in runs)
    return Figure(
        name,
        players,
        "steps/s",
        statistics.median(rates),
        min(rates),
        max(rates),
        rates,
        statistics.median(run.steps / run.wall for run in runs),
        steps,
        episodes,
        note,
        {
            "episodes_per_second": statistics.median(run.games / run.cpu for run in runs),
            "steps_per_episode": steps / episodes,
        },
    )


# --------------------------------------------------------------------------- observation


def sample_states(players: int, size: int = SAMPLE_SIZE, seed: int = 20240601) -> list[Any]:
    """``size`` states met in seeded random games (all phases, game over excluded)."""
    options = cr.GameOptions(num_players=players)
    rng = random.Random(seed)
    states: list[cr.GameState] = []
    while len(states) < 4 * size:
        state = cr.new_game(options, rng.randrange(2**64))
        while not state.is_over:
            states.append(state)
            state = cr.apply(state, rng.choice(cr.legal_actions(state)))
    return random.Random(seed + 1).sample(states, size)


def micro_loops(players: int) -> dict[str, tuple[Callable[[], int], str]]:
    states = sample_states(players)
    pairs = [(s, s.current_player) for s in states]
    observe, encode, mask = cr.observe, cr.observation.encode_observation, cr.legal_action_mask
    asarray, float32, int8 = np.asarray, np.float32, np.int8

    def loop_encode() -> int:
        for state, seat in pairs:
            encode(observe(state, seat))
        return len(pairs)

    def loop_float32() -> int:
        for state, seat in pairs:
            asarray(encode(observe(state, seat)), dtype=float32)
        return len(pairs)

    def loop_mask() -> int:
        for state in states:
            asarray(mask(state), dtype=int8)
        return len(states)

    return {
        "obs.encode": (loop_encode, "encode_observation(observe(state, seat))"),
        "obs.float32": (loop_float32, "np.asarray(<obs.encode>, dtype=np.float32)"),
        "obs.mask": (loop_mask, "np.asarray(legal_action_mask(state), dtype=np.int8)"),
    }


def time_calls(
    name: str,
    players: int,
    loop: Callable[[], int],
    note: str,
    repeats: int,
    seconds: float,
    warmup: float,
) -> Figure:
    """Median microseconds per call of ``loop``: ``benchmarks/run.py``'s timing."""
    timed = run.time_calls(name, loop, repeats, seconds, warmup)
    return Figure(
        name,
        players,
        timed.unit,
        timed.median,
        timed.low,
        timed.high,
        timed.runs,
        timed.wall_median,
        steps=timed.calls * repeats,
        note=note,
    )


# --------------------------------------------------------------------------- report


def row(figure: Figure) -> str:
    if figure.unit == "µs/call":
        values = [f"{v:.2f} µs" for v in (figure.median, figure.low, figure.high)]
        wall = f"{figure.wall_median:.2f} µs"
        extra = ""
    else:
        values = [f"{v:,.0f}" for v in (figure.median, figure.low, figure.high)]
        values[0] += " /s"
        wall = f"{figure.wall_median:,.0f} /s"
        extra = (
            f"{figure.extra['episodes_per_second']:,.1f} ep/s, "
            f"{figure.extra['steps_per_episode']:.0f} steps/ep"
        )
    name = f"{figure.name} {figure.players}p"
    return (
        f"{name:<16} {values[0]:>12} {values[1]:>9} {values[2]:>9} {wall:>12}  "
        f"{extra:<26} {figure.note}"
    )


def table(figures: Sequence[Figure]) -> str:
    header = (
        f"{'benchmark':<16} {'median':>12} {'min':>9} {'max':>9} {'wall median':>12}  "
        f"{'episodes':<26} what"
    )
    return "\n".join([header, "-" * 120, *map(row, figures)])


NAMES = (*ADAPTERS, "obs.encode", "obs.float32", "obs.mask")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=2.0, help="length of a run (2)")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per figure (5)")
    parser.add_argument(
        "--warmup", type=float, default=0.3, help="untimed seconds before the runs (0.3)"
    )
    parser.add_argument(
        "--players",
        type=int,
        nargs="+",
        default=[2, 4],
        choices=range(cr.options.MIN_PLAYERS, cr.options.MAX_PLAYERS + 1),
        metavar="N",
        help="player counts to measure (2 4)",
    )
    parser.add_argument(
        "--only", nargs="+", metavar="PREFIX", help=f"run these only (prefixes of {NAMES})"
    )
    parser.add_argument("--json", type=Path, metavar="PATH", help="save the figures there")
    parser.add_argument("--label", default="", help="what was measured, kept in the JSON file")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.repeats < 1 or args.warmup < 0:
        parser.error("--seconds must be > 0, --repeats >= 1 and --warmup >= 0")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)

    def wanted(name: str) -> bool:
        return not args.only or any(name.startswith(prefix) for prefix in args.only)

    info = machine_info()
    print(
        f"cuckoo-rules {cr.__version__} adapters on {info['cpu']} ({info['cpu_count']} CPUs), "
        f"{info['python']}"
    )
    print(
        f"median of {args.repeats} runs of {args.seconds:g} s after a {args.warmup:g} s "
        f"warm-up, in process CPU time (wall time alongside); load average {load_average()}"
    )
    print(table([]))
    figures: list[Figure] = []
    for players in args.players:
        for name in ADAPTERS:
            if wanted(name):
                figures.append(
                    bench_adapter(name, players, args.seconds, args.repeats, args.warmup)
                )
                print(row(figures[-1]), flush=True)
        micro = [name for name in NAMES if name.startswith("obs.") and wanted(name)]
        if micro:
            loops = micro_loops(players)
            for name in micro:
                loop, note = loops[name]
                figure = time_calls(
                    name,
                    players,
                    loop,
                    note,
                    args.repeats,
                    args.seconds * MICRO_FRACTION,
                    args.warmup,
                )
                figures.append(figure)
                print(row(figure), flush=True)
    if args.json is not None:
        document = {
            **results_header("cuckoo-rules/benchmarks-envs", args.label, info),
            "settings": {
                "seconds": args.seconds,
                "repeats": args.repeats,
                "warmup": args.warmup,
                "players": args.players,
                "micro_seconds": args.seconds * MICRO_FRACTION,
                "samples": SAMPLE_SIZE,
            },
            "figures": [asdict(f) for f in figures],
        }
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
