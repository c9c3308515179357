"""The cuckoo-rules benchmark suite: one command, every figure, a JSON file and a table.

Usage::

    python benchmarks/run.py                        # full suite, writes benchmarks/results.json
    python benchmarks/run.py --quick                # a fast, rougher pass (for a smoke test)
    python benchmarks/run.py --only apply observe   # some benchmarks only (name prefixes)
    python benchmarks/run.py --output /tmp/a.json --repeats 11

What is measured (every figure is the median of ``--repeats`` timed runs after an untimed
warm-up; the minimum and maximum are reported too):

* ``playout.Np``: random playouts with N players, the games of ``benchmarks/playouts.py``
  (``legal_actions``, ``random.Random.choice`` and ``apply`` until the game ends), timed
  in CPU time here (that script times wall-clock time).
  Decisions per second and games per second.
* ``new_game``: ``new_game(GameOptions(num_players=4), seed)``, fresh seeds.
* ``legal_actions``: over every state met in random 4-player games (all phases).
* ``apply.<kind>``: ``apply(state, action)`` over (state, action) pairs met in random
  4-player games, grouped by what the action does (see :func:`classify`); ``apply.all`` is
  the natural mix of a random game.
* ``observe``: ``observe(state, state.current_player)``.
* ``determinize``: ``determinize(view, seed)`` on the acting seat's view.
* ``codec.*``: ``encode_state``, ``decode_state`` and the round trip of both (the target);
  ``codec.json_round_trip`` adds ``json.dumps`` and ``json.loads`` for reference.
* ``ismcts``: iterations per second of ``cuckoo_rules.bots.IsmctsBot`` (4 players).

Micro-benchmarks time a loop over a fixed sample of inputs (``--samples``, 500 by
default, drawn from seeded random 4-player games) and divide by the number of calls, so a
figure is the mean over a realistic mix of inputs. 500 inputs stay mostly in the CPU
caches, as the fresh states of a search do; with thousands, cache misses add about a
microsecond to ``apply``. The garbage collector is paused while they run, as in
:mod:`timeit`; playouts run with the collector on, as a real program would.

Times are process CPU time (see :class:`Clock`): the machine may be shared.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import cuckoo_rules as cr
from cuckoo_rules.bots import IsmctsBot

sys.path.insert(0, str(Path(__file__).resolve().parent))
from playouts import machine_info, play_one  # (a sibling script)

T = TypeVar("T")

DEFAULT_OUTPUT = Path(__file__).resolve().parent / "results.json"

# The targets of issue 7 (4 players, median): name -> (limit, "max" or "min").
TARGETS: dict[str, tuple[float, str]] = {
    "playout.4p": (120_000.0, "min"),
    "legal_actions": (4.0, "max"),
    "apply.all": (6.0, "max"),
    "observe": (5.0, "max"),
    "determinize": (40.0, "max"),
    "codec.round_trip": (80.0, "max"),
}


class Clock:
    """Process CPU time and wall time together.

    Figures are computed from CPU time (``time.process_time``): this machine is shared,
    and CPU time leaves out the time the process waits for a core while another program
    runs, which wall time would count. On an idle machine the two agree; the wall-time
    median is recorded as well, so the difference shows how busy the machine was.
    """

    __slots__ = ("cpu", "wall")

    def __init__(self) -> None:
        self.cpu = time.process_time()
        self.wall = time.perf_counter()

    def elapsed(self) -> tuple[float, float]:
        """CPU seconds and wall seconds since the clock was started."""
        return time.process_time() - self.cpu, time.perf_counter() - self.wall


@dataclass
class Figure:
    """One benchmark's result: the median and range of its timed runs (CPU time)."""

    name: str
    unit: str
    median: float
    low: float
    high: float
    runs: list[float]
    calls: int = 0
    wall_median: float = 0.0
    extra: dict[str, float] = field(default_factory=dict)
    note: str = ""

    @property
    def target(self) -> str:
        if self.name not in TARGETS:
            return ""
        limit, kind = TARGETS[self.name]
        met = self.median <= limit if kind == "max" else self.median >= limit
        sign = "<=" if kind == "max" else ">="
        return f"{sign} {limit:,.0f} {'met' if met else 'MISSED'}"


# --------------------------------------------------------------------------- samples


@dataclass
class Samples:
    """Inputs drawn from seeded random 4-player games."""

    states: list[cr.GameState]
    transitions: dict[str, list[tuple[cr.GameState, cr.Action]]]
    views: list[cr.PlayerView]
    docs: list[dict[str, Any]]


def classify(state: cr.GameState, action: cr.Action, events: Sequence[cr.Event]) -> list[str]:
    """The ``apply.<kind>`` groups a transition belongs to (a transition may be in two).

    * ``lay_capture`` / ``lay_no_capture``: a lay that captured cards, or none;
    * ``draw``: the optional draw; ``pass``: declining it;
    * ``fly_home``: a flock flown home;
    * ``turn_end``: any action that ends the turn and starts the next one in the same round;
    * ``round_end``: any action that ends the round and deals the next.
    """
    kinds: list[str] = []
    if isinstance(action, cr.Lay):
        captured = any(isinstance(e, cr.events.Captured) for e in events)
        kinds.append("lay_capture" if captured else "lay_no_capture")
    elif isinstance(action, cr.Draw):
        kinds.append("draw")
    elif isinstance(action, cr.FlyHome):
        kinds.append("fly_home")
    elif state.phase is cr.Phase.DRAW:
        kinds.append("pass")
    over = any(isinstance(e, cr.events.GameOver) for e in events)
    if any(isinstance(e, cr.events.RoundEnded) for e in events) and not over:
        kinds.append("round_end")
    elif any(isinstance(e, cr.events.TurnEnded) for e in events) and not over:
        kinds.append("turn_end")
    return kinds


APPLY_KINDS = (
    "lay_capture",
    "lay_no_capture",
    "draw",
    "pass",
    "fly_home",
    "turn_end",
    "round_end",
)


def collect(players: int, size: int, seed: int = 20240601) -> Samples:
    """Play seeded random games until every group holds ``size`` inputs (or 4,000 games)."""
    options = cr.GameOptions(num_players=players)
    rng = random.Random(seed)
    states: list[cr.GameState] = []
    everything: list[tuple[cr.GameState, cr.Action]] = []
    groups: dict[str, list[tuple[cr.GameState, cr.Action]]] = {k: [] for k in APPLY_KINDS}
    games = 0
    while games < 4000 and (
        len(everything) < size or min(len(g) for g in groups.values()) < min(size, 300)
    ):
        state = cr.new_game(options, rng.randrange(2**64))
        games += 1
        while not state.is_over:
            action = rng.choice(cr.legal_actions(state))
            after, events = cr.step(state, action)
            states.append(state)
            everything.append((state, action))
            for kind in classify(state, action, events):
                groups[kind].append((state, action))
            state = after
    pick = random.Random(seed + 1)

    def sample(items: list[T]) -> list[T]:
        return items if len(items) <= size else pick.sample(items, size)

    transitions = {"all": sample(everything)}
    transitions.update({kind: sample(items) for kind, items in groups.items()})
    chosen = sample(states)
    views = [cr.observe(s, s.current_player) for s in chosen]
    docs = [cr.encode_state(s) for s in chosen]
    return Samples(chosen, transitions, views, docs)


# --------------------------------------------------------------------------- timing


def time_calls(
    name: str, loop: Callable[[], int], repeats: int, min_seconds: float, warmup: float
) -> Figure:
    """Median microseconds per call of ``loop`` (which returns how many calls it made)."""
    clock = Clock()
    loops = 0
    while clock.elapsed()[0] < warmup or loops == 0:
        calls = loop()
        loops += 1
    once = clock.elapsed()[0] / loops
    inner = max(1, round(min_seconds / once)) if once > 0 else 1
    runs: list[float] = []
    walls: list[float] = []
    enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeats):
            clock = Clock()
            for _ in range(inner):
                loop()
            cpu, wall = clock.elapsed()
            runs.append(cpu / (inner * calls) * 1e6)
            walls.append(wall / (inner * calls) * 1e6)
    finally:
        if enabled:
            gc.enable()
    return Figure(
        name,
        "µs/call",
        statistics.median(runs),
        min(runs),
        max(runs),
        runs,
        calls * inner,
        wall_median=statistics.median(walls),
    )


@dataclass(frozen=True)
class TimedRun:
    """What one timed run of whole games did: how many, their steps, CPU and wall seconds."""

    games: int
    steps: int
    cpu: float
    wall: float


def timed_games(play: Callable[[int], int], first_seed: int, seconds: float) -> TimedRun:
    """Call ``play(seed)`` (one whole game; it returns its number of steps) with seeds
    from ``first_seed`` on until ``seconds`` of CPU time pass."""
    games = steps = 0
    clock = Clock()
    cpu = wall = 0.0
    while cpu < seconds:
        steps += play(first_seed + games)
        games += 1
        cpu, wall = clock.elapsed()
    return TimedRun(games, steps, cpu, wall)


def bench_playouts(players: int, seconds: float, repeats: int, warmup: float) -> Figure:
    options = cr.GameOptions(num_players=players)

    def play(seed: int) -> int:
        return play_one(options, seed)

    timed_games(play, 10**9, warmup)
    runs = [timed_games(play, index * 1_000_000, seconds) for index in range(repeats)]
    dps = [run.steps / run.cpu for run in runs]
    gps = [run.games / run.cpu for run in runs]
    games = sum(run.games for run in runs)
    decisions = sum(run.steps for run in runs)
    return Figure(
        f"playout.{players}p",
        "decisions/s",
        statistics.median(dps),
        min(dps),
        max(dps),
        dps,
        decisions,
        wall_median=statistics.median(run.steps / run.wall for run in runs),
        extra={
            "games_per_second": statistics.median(gps),
            "games_per_second_min": min(gps),
            "games_per_second_max": max(gps),
            "decisions_per_game": decisions / games,
        },
    )


def micro_benchmarks(samples: Samples) -> dict[str, Callable[[], int]]:
    """The loops to time, by name; each returns the number of calls it made."""
    options = cr.GameOptions(num_players=4)
    seeds = list(range(1000, 1500))
    states, views, docs = samples.states, samples.views, samples.docs
    view_seeds = [(v, 12345 + i) for i, v in enumerate(views)]
    encoded = [cr.encode_state(s) for s in states]
    texts = [json.dumps(d) for d in docs]
    new_game, legal_actions, apply = cr.new_game, cr.legal_actions, cr.apply
    observe, determinize = cr.observe, cr.determinize
    encode_state, decode_state = cr.encode_state, cr.decode_state

    def loop_new_game() -> int:
        for seed in seeds:
            new_game(options, seed)
        return len(seeds)

    def loop_legal() -> int:
        for state in states:
            legal_actions(state)
        return len(states)

    def apply_loop(pairs: list[tuple[cr.GameState, cr.Action]]) -> Callable[[], int]:
        def loop() -> int:
            for state, action in pairs:
                apply(state, action)
            return len(pairs)

        return loop

    def loop_observe() -> int:
        for state in states:
            observe(state, state.current_player)
        return len(states)

    def loop_determinize() -> int:
        for view, seed in view_seeds:
            determinize(view, seed)
        return len(view_seeds)

    def loop_encode() -> int:
        for state in states:
            encode_state(state)
        return len(states)

    def loop_decode() -> int:
        for doc in encoded:
            decode_state(doc)
        return len(encoded)

    def loop_round_trip() -> int:
        for state in states:
            decode_state(encode_state(state))
        return len(states)

    def loop_json_round_trip() -> int:
        for state in states:
            decode_state(json.loads(json.dumps(encode_state(state))))
        return len(states)

    def loop_json_text() -> int:
        for text in texts:
            decode_state(json.loads(text))
        return len(texts)

    loops: dict[str, Callable[[], int]] = {
        "new_game": loop_new_game,
        "legal_actions": loop_legal,
        "apply.all": apply_loop(samples.transitions["all"]),
    }
    for kind in APPLY_KINDS:
        loops[f"apply.{kind}"] = apply_loop(samples.transitions[kind])
    loops.update(
        {
            "observe": loop_observe,
            "determinize": loop_determinize,
            "codec.encode_state": loop_encode,
            "codec.decode_state": loop_decode,
            "codec.round_trip": loop_round_trip,
            "codec.json_round_trip": loop_json_round_trip,
            "codec.decode_json_text": loop_json_text,
        }
    )
    assert tuple(loops) == MICRO_NAMES
    return loops


MICRO_NAMES = (
    "new_game",
    "legal_actions",
    "apply.all",
    *(f"apply.{kind}" for kind in APPLY_KINDS),
    "observe",
    "determinize",
    "codec.encode_state",
    "codec.decode_state",
    "codec.round_trip",
    "codec.json_round_trip",
    "codec.decode_json_text",
)


# --------------------------------------------------------------------------- ISMCTS


def bench_ismcts(repeats: int, iterations: int, warmup: float) -> Figure:
    """Iterations per second of ``IsmctsBot`` choosing moves for 4 players."""
    bot = IsmctsBot(seed=7, iterations=iterations)
    options = cr.GameOptions(num_players=4)
    rng = random.Random(99)
    views: list[cr.PlayerView] = []
    for seed in range(8):  # acting seats' views from the opening and the middle game
        state = cr.new_game(options, seed)
        for _ in range(rng.randrange(0, 30)):
            if state.is_over:
                break
            state = cr.apply(state, rng.choice(cr.legal_actions(state)))
        if not state.is_over and len(cr.legal_actions(state)) > 1:  # else no search is run
            views.append(cr.observe(state, state.current_player))

    clock = Clock()
    while clock.elapsed()[0] < warmup:
        bot.choose(views[0])
    runs: list[float] = []
    walls: list[float] = []
    for _ in range(repeats):
        clock = Clock()
        for view in views:
            bot.choose(view)
        cpu, wall = clock.elapsed()
        runs.append(iterations * len(views) / cpu)
        walls.append(iterations * len(views) / wall)
    return Figure(
        "ismcts",
        "iterations/s",
        statistics.median(runs),
        min(runs),
        max(runs),
        runs,
        iterations * len(views) * repeats,
        wall_median=statistics.median(walls),
        note=f"{iterations} iterations per decision, 4 players, {len(views)} positions",
    )


# --------------------------------------------------------------------------- report


def results_header(fmt: str, label: str, info: dict[str, Any]) -> dict[str, Any]:
    """The first keys of a JSON results file: format, version, date, machine and load."""
    return {
        "format": fmt,
        "version": 1,
        "cuckoo_rules": cr.__version__,
        "label": label,
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": info,
        "load_average": load_average(),
    }


def load_average() -> list[float] | None:
    try:
        import os

        return [round(x, 2) for x in os.getloadavg()]
    except (OSError, AttributeError):
        return None


def format_value(figure: Figure, value: float) -> str:
    if figure.unit == "µs/call":
        return f"{value:.2f} µs"
    return f"{value:,.0f} /s"


def table(figures: Sequence[Figure]) -> str:
    lines = [
        f"{'benchmark':<22} {'median':>12} {'min':>10} {'max':>10} {'wall median':>12}  "
        f"{'target':<18} note",
        "-" * 104,
    ]
    for f in figures:
        if f.unit == "µs/call":
            low, high = f"{f.low:.2f}", f"{f.high:.2f}"
        else:
            low, high = f"{f.low:,.0f}", f"{f.high:,.0f}"
        note = f.note
        if "games_per_second" in f.extra:
            note = (
                f"{f.extra['games_per_second']:,.1f} games/s, "
                f"{f.extra['decisions_per_game']:.0f} decisions/game"
            )
        lines.append(
            f"{f.name:<22} {format_value(f, f.median):>12} {low:>10} {high:>10} "
            f"{format_value(f, f.wall_median):>12}  {f.target:<18} {note}"
        )
    return "\n".join(lines)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--repeats", type=int, default=7, help="timed runs per benchmark (7)")
    parser.add_argument(
        "--seconds", type=float, default=0.3, help="length of one micro-benchmark run (0.3)"
    )
    parser.add_argument(
        "--playout-seconds", type=float, default=2.0, help="length of one playout run (2)"
    )
    parser.add_argument("--warmup", type=float, default=0.5, help="untimed warm-up seconds (0.5)")
    parser.add_argument("--samples", type=int, default=500, help="inputs per micro-benchmark (500)")
    parser.add_argument(
        "--ismcts-iterations", type=int, default=200, help="ISMCTS iterations per decision"
    )
    parser.add_argument("--only", nargs="+", metavar="PREFIX", help="run these benchmarks only")
    parser.add_argument("--quick", action="store_true", help="fewer, shorter runs")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="the JSON file")
    parser.add_argument("--label", default="", help="what was measured, kept in the JSON file")
    args = parser.parse_args(argv)
    if args.quick:
        args.repeats, args.seconds, args.playout_seconds = 3, 0.1, 0.5
        args.warmup, args.samples, args.ismcts_iterations = 0.1, 200, 50
    if args.repeats < 1 or args.seconds <= 0 or args.playout_seconds <= 0 or args.samples < 1:
        parser.error("--repeats, --seconds, --playout-seconds and --samples must be positive")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)

    def wanted(name: str) -> bool:
        return not args.only or any(name.startswith(prefix) for prefix in args.only)

    info = machine_info()
    cpus = f"{info['cpu']} ({info['cpu_count']} CPUs)"
    print(f"cuckoo-rules {cr.__version__} on {cpus}, {info['python']}")
    print(
        f"median of {args.repeats} runs after a warm-up, in process CPU time "
        f"(wall time alongside); load average {load_average()}"
    )
    figures: list[Figure] = []
    for players in (2, 4):
        if wanted(f"playout.{players}p"):
            figures.append(bench_playouts(players, args.playout_seconds, args.repeats, args.warmup))
            print(table(figures[-1:]).splitlines()[-1], flush=True)

    if any(map(wanted, MICRO_NAMES)):
        samples = collect(4, args.samples)
        for name, loop in micro_benchmarks(samples).items():
            if wanted(name):
                figure = time_calls(name, loop, args.repeats, args.seconds, args.warmup)
                figures.append(figure)
                print(table([figure]).splitlines()[-1], flush=True)

    if wanted("ismcts"):
        figures.append(bench_ismcts(args.repeats, args.ismcts_iterations, args.warmup))

    print()
    print(table(figures))
    document = {
        **results_header("cuckoo-rules/benchmarks", args.label, info),
        "settings": {
            "repeats": args.repeats,
            "seconds": args.seconds,
            "playout_seconds": args.playout_seconds,
            "warmup": args.warmup,
            "samples": args.samples,
        },
        "figures": {f.name: {**asdict(f), "target": f.target} for f in figures},
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
