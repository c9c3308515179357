"""Shared test configuration: Hypothesis profiles, the ``slow`` marker and small helpers.

Profiles (choose with ``HYPOTHESIS_PROFILE``; CI sets ``CI=true`` and gets ``ci``):

- ``dev`` (default): quick feedback while editing.
- ``ci``: more examples, derandomized so that a CI run is reproducible.
- ``soak``: long runs for ``scripts/soak.sh``; not for CI.

The ``slow`` marker (registered in ``pyproject.toml``) is put on the tests that need a
browser, a pseudo-terminal or a PostgreSQL server, and on the long ones (whole games of
the search bots, tournaments, the batch kernels' differential games, the examples run
as programs): :func:`pytest_collection_modifyitems` adds it by file and test name, from
:data:`SLOW_FILES` and :data:`SLOW_TESTS`, so the test files need no decorator.
``pytest -m "not slow"`` is the quick loop (see ``CONTRIBUTING.md``); plain ``pytest``
still runs everything.

The README's test command runs the tests on pytest-xdist's workers (``-n auto --dist
worksteal``). For that, this module puts ``tmp_path`` in memory when it can
(:func:`_temp_root_in_memory`), fills numba's cache once before the workers start
(:func:`pytest_xdist_setupnodes`) and starts every worker on its share of the slow tests
(:func:`slow_first_for_workers`); see ``docs/testing.md``.
"""

from __future__ import annotations

import compileall
import importlib.util
import inspect
import itertools
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("dev", max_examples=50, deadline=None)
settings.register_profile(
    "ci",
    max_examples=200,
    deadline=None,
    derandomize=True,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "soak",
    max_examples=20_000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


def _temp_root_in_memory(shm: Path = Path("/dev/shm"), least: int = 512 * 2**20) -> None:
    """Put pytest's temporary folders (``tmp_path``) in memory, on ``/dev/shm``, if it can.

    The web server's SQLite store commits with ``synchronous=FULL``: every move a test
    plays waits for the disk (8 ms each on the development machine, 94 % of a whole game
    played through the lobby); on a file system in memory the wait is gone and the same
    code runs. Done when ``/dev/shm`` is a writable tmpfs with ``least`` bytes free and
    neither ``TMPDIR`` nor ``PYTEST_DEBUG_TEMPROOT`` (pytest's own setting, set here)
    chooses a place already; ``--basetemp`` still wins. Subprocesses inherit it.
    """
    if os.environ.get("TMPDIR") or os.environ.get("PYTEST_DEBUG_TEMPROOT"):
        return
    if not hasattr(os, "statvfs"):  # Windows
        return
    try:
        stats = os.statvfs(shm)
    except OSError:
        return
    if stats.f_bavail * stats.f_frsize >= least and os.access(shm, os.W_OK | os.X_OK):
        os.environ["PYTEST_DEBUG_TEMPROOT"] = str(shm)


_temp_root_in_memory()


def _ctrl_c_reaches_child_processes() -> None:
    """Let the processes the tests start be stopped with Ctrl-C (``SIGINT``).

    A program started in the background of a script (``pytest ... &``) inherits
    ``SIGINT`` ignored, and so would every process it starts: then Python in them makes
    no ``KeyboardInterrupt``, and the tests of what Ctrl-C does (the terminal game's
    save, the server's clean stop) wait for it in vain. Python's own handler is put
    back; a process started from here has ``SIGINT``'s default again.
    """
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


_ctrl_c_reaches_child_processes()

TESTS = Path(__file__).resolve().parent
"""This folder, ``tests/``: the slow files and tests below are named by their paths in it."""

ROOT = TESTS.parent
"""The repository root."""

SHARED_VECTORS = ROOT.parent / "shared" / "vectors"
"""The shared test vectors (``../shared/vectors`` beside the checkout)."""

DATA = TESTS / "data"
"""Test data kept in this repository (golden games, copies of the shared vectors)."""


SLOW_FILES: dict[str, str] = {
    "frontends/test_web_browser.py": "drives a browser",
    "frontends/test_play_pty.py": "plays in a pseudo-terminal",
    "frontends/test_web_postgres.py": "needs a PostgreSQL server",
}
"""Test files whose every test is slow (their paths under ``tests/``), with why."""

SLOW_TESTS: dict[str, str] = {
    # The batch kernels against the engine: hundreds of whole games (a soak in small).
    "simulation/test_batch.py::test_a_batch_plays_the_engines_games_under_every_option": (
        "896 games"
    ),
    "simulation/test_batch.py::test_the_batch_bots_choose_as_randombot_and_greedybot": (
        "whole games"
    ),
    "envs/test_env_vector.py::test_the_vector_env_plays_the_games_of_cuckooenv": "whole games",
    "simulation/test_batch.py::test_bots_play_the_other_seats_until_an_outside_seat_is_to_act": (
        "games"
    ),
    # The expert bot: searches, rollouts, whole games and a tournament on workers.
    "bots/test_expert.py::test_the_kernel_deals_determinizations_as_determinize_does": "many deals",
    "bots/test_expert.py::test_a_rollout_of_no_turns_scores_as_ismcts_does": "searches",
    "bots/test_expert.py::test_whole_games_against_greedy_are_legal": "whole games of the expert",
    "bots/test_expert.py::test_a_tournament_on_workers_after_the_expert_played_here": (
        "a tournament"
    ),
    # Long property runs and fuzzing.
    "rules/test_state_machine.py::TestCuBirdsMachine::runTest": "a Hypothesis state machine",
    "frontends/test_web_http.py::test_fuzz_every_endpoint": "fuzzes a real server",
    "envs/test_env_openspiel.py::test_what_steps_and_records_cache_matches_a_fresh_computation": (
        "whole games, twice"
    ),
    # The web server over many tables and real time.
    "frontends/test_web_trust.py::test_finished_tables_leave_memory": (
        "plays many tables to the end"
    ),
    "frontends/test_web_review.py::"
    "test_the_review_tab_shows_the_chart_and_a_costly_move_as_its_player_saw_it": (
        "drives a browser"
    ),
    # Every kernel warmed up: compiled, when numba's cache is cold.
    "simulation/test_warm_up.py::test_after_a_warm_up_the_first_uses_compile_nothing": (
        "warms every kernel up"
    ),
}
"""Single slow tests, ``"<path under tests/>::<test>"`` (every parametrization), with why.

Measured with ``--durations``: each took 5 seconds or more (in all its
parametrizations) on the 2-core development machine.
"""


def _uses_postgres(item: pytest.Item) -> bool:
    """Whether a test of ``frontends/test_store.py`` uses PostgreSQL (fixture, parameter, code)."""
    if "postgres_url" in getattr(item, "fixturenames", ()):
        return True
    callspec = getattr(item, "callspec", None)
    if callspec is not None and "postgres" in callspec.params.values():
        return True
    function = getattr(item, "function", None)
    return function is not None and "PostgresStore" in inspect.getsource(function)


def slow_reason(item: pytest.Item) -> str | None:
    """Why a collected test is slow (and gets the ``slow`` marker), or ``None``."""
    path = item.path.resolve()
    if not path.is_relative_to(TESTS):
        return None  # the doctests of src/ and of README.md
    name = path.relative_to(TESTS).as_posix()
    if name in SLOW_FILES:
        return SLOW_FILES[name]
    if name == "frontends/test_store.py" and _uses_postgres(item):
        return "needs a PostgreSQL server"
    if "browser" in getattr(item, "fixturenames", ()):
        return "drives a browser"  # the fixture of frontends/test_web_browser.py, imported
    test = item.nodeid.partition("::")[2].partition("[")[0]  # the parameters left out
    return SLOW_TESTS.get(f"{name}::{test}")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the slow tests ``slow`` (see the module documentation).

    In a pytest-xdist worker (``-n``), the tests are also put in the order of
    :func:`slow_first_for_workers`.
    """
    for item in items:
        reason = slow_reason(item)
        if reason is not None:
            item.add_marker(pytest.mark.slow(reason=reason))
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT") or 0)
    if os.environ.get("PYTEST_XDIST_WORKER") and workers > 1:
        items[:] = slow_first_for_workers(items, workers)


def slow_first_for_workers(items: list[pytest.Item], workers: int) -> list[pytest.Item]:
    """The collected tests in the order that starts every worker on its share of slow ones.

    ``--dist worksteal`` gives each of the ``workers`` a consecutive slice of the list
    (the first ``len // workers`` tests, then an even share of the rest, and so on), and
    an idle worker takes the second half of the longest queue left. So each slice here
    starts with every ``workers``-th slow test and goes on with the quick ones in their
    order: the long tests run first, side by side, and the run ends on quick ones. Every
    worker computes the same order from the same collection, as pytest-xdist requires.
    """
    slow = [item for item in items if item.get_closest_marker("slow") is not None]
    quick = iter([item for item in items if item.get_closest_marker("slow") is None])
    ordered: list[pytest.Item] = []
    left = len(items)
    for worker in range(workers):
        size = left // (workers - worker)  # as pytest-xdist's worksteal scheduler splits
        share = slow[worker::workers]
        ordered += share
        ordered += itertools.islice(quick, max(0, size - len(share)))
        left -= size
    ordered += list(quick)
    assert len(ordered) == len(items)
    return ordered


def pytest_configure(config: pytest.Config) -> None:
    """Before any test: the package's bytecode on disk, for every process the run starts.

    Hundreds of tests start Python processes (servers, the command line, examples) that
    import the package. Where ``PYTHONDONTWRITEBYTECODE`` is set (as on the CI machine)
    none of them writes its modules' bytecode, so each compiled them all from source
    again (about 0.15 s of CPU a process); :mod:`compileall` writes it once, in the
    controller (``.pyc`` files in ``__pycache__``, as any first import would write
    without that setting). The workers of pytest-xdist find it there.
    """
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    package = importlib.util.find_spec("cuckoo_rules")
    if package is not None and package.submodule_search_locations:
        for folder in package.submodule_search_locations:
            compileall.compile_dir(folder, quiet=2)  # unwritable: nothing said, nothing lost


def workers_for(cores: int) -> int:
    """The workers ``-n auto`` starts: two per core the process may use, at most 16.

    Many tests wait more than they compute (a browser drawing, a server answering, a
    pseudo-terminal, PostgreSQL committing): with one worker per core the cores were
    idle a third of the time (CPU 133 % of the 200 % two cores give); two per core keep
    them busy (the README's test command 8 min 39 s -> 6 min 51 s on the 2-core
    development machine, quiet, numba's cache warm).
    """
    return max(1, min(16, 2 * cores))


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: :func:`workers_for` the cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        cores = len(os.sched_getaffinity(0))
    else:  # pragma: no cover - macOS, Windows
        cores = os.cpu_count() or 1
    return workers_for(cores)


WARM_UP_JOBS: tuple[tuple[str, ...], ...] = (
    ("search_rollouts", "determinize_rows", "reset_games", "random_playouts", "apply_actions"),
    ("play_bots", "env_steps", "observe_all", "legal_masks", "first_illegal"),
)
"""The kernels of each process that fills numba's cache before the workers start.

Every kernel of :func:`cuckoo_rules.batch.warm_up`'s paths, split in two by their compile
times with an empty cache (CPU seconds, both variants, on the 2-core development
machine: the expert's two kernels about 25 s, ``play_bots`` 21, ``env_steps`` 12 to 18,
``random_playouts`` 8, ``reset_games`` 7, ``apply_actions`` 3.5, the three others 2), so
that the two processes end together: 35.9 and 33.3 s side by side, against 43.8 and
45.0 s for the paths ``batch`` and ``expert`` (the first alone 46 s), alternating, quiet;
since a helper's own code is generated unoptimized (``_jit._quick_helper_code``), both
done in 36.8 s against 42.6 s before (one run each, at a busier hour).
A kernel's cache index is locked while it is compiled or loaded
(:mod:`cuckoo_rules.batch._jit`), so a kernel both need is compiled once.
"""


_WARM_UP = (
    "import sys; from cuckoo_rules.batch.warm import _warm_kernels; _warm_kernels(sys.argv[1:])"
)
"""What each warm-up process runs, with its kernels' names as arguments."""


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_setupnodes(config: pytest.Config, specs: list[Any]) -> None:
    """Under pytest-xdist (``-n``), fill numba's cache before the workers start.

    Each worker would otherwise start its tests and compile the batch kernels it needs
    as they come, while the others wait for that kernel's cache index (only the first
    compiles it) or compile others: the timed tests of the expert's hints and the web
    server's bots would then measure compiling. The controller compiles every kernel
    ``cuckoo-rules warm-up`` does, in two processes side by side (:data:`WARM_UP_JOBS`;
    about 2 s when the cache is already warm, 34 s when it is empty against 71 s in one
    process, on the quiet 2-core development machine); the workers then load them.
    Nothing happens without numba or with ``NUMBA_DISABLE_JIT`` set; a failure is left
    to the tests.
    """
    if importlib.util.find_spec("numba") is None:
        return
    if os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"):
        return
    started = time.monotonic()
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", _WARM_UP, *job],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for job in WARM_UP_JOBS
    ]
    codes = [process.wait() for process in processes]
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        failed = [code for code in codes if code != 0]
        outcome = "done" if not failed else f"failed ({failed[0]})"
        seconds = time.monotonic() - started
        reporter.write_line(f"numba cache warm-up for the workers: {outcome}, {seconds:.1f} s")


def load_module(path: Path, name: str) -> ModuleType:
    """Import the script at ``path`` (an example or a script, not a package) as ``name``."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclass-like machinery looks modules up by name
    spec.loader.exec_module(module)
    return module


class HintSpy:
    """The calls of :func:`cuckoo_rules.bots.expert.hint` while a test runs (a spy)."""

    def __init__(self, module: ModuleType) -> None:
        self.real: Callable[..., Any] = module.hint
        """The real ``hint``."""
        self.calls: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
        """Each call's positional and keyword arguments."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls.append((args, kwargs))
        return self.real(*args, **kwargs)


@pytest.fixture
def hint_spy(monkeypatch: pytest.MonkeyPatch) -> HintSpy:
    """Spy on the expert's ``hint`` (skips without the batch extra: NumPy and numba)."""
    module = pytest.importorskip("cuckoo_rules.bots.expert", reason="no batch extra")
    spy = HintSpy(module)
    monkeypatch.setattr(module, "hint", spy)
    return spy
