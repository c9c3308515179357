"""Compiling the batch kernels: only what a caller needs, said when long, ahead with warm_up.

The kernels of a toy module written for each test (so that numba's cache never has
them) show how the kernels compile: a kernel called by another is compiled once for a
constant's type, at :data:`~cuckoo_rules.batch._jit.HELPER_OPT`; a small batch runs a
serial variant; a long compile says so through the ``cuckoo_rules.batch`` logger. A slow
test runs :func:`~cuckoo_rules.batch.warm_up` in one process and the first uses of the
library in another, and checks that they need nothing the warm-up did not save.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import logging
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

pytest.importorskip("numba")

import numba
import numpy as np
from llvmlite.binding import Linkage  # type: ignore[import-untyped]

from cuckoo_rules.batch import WarmUp, _jit, warm, warm_up
from cuckoo_rules.batch.threads import threads_for
from cuckoo_rules.cli import main
from cuckoo_rules.cli.warm_up import warm_in_background
from cuckoo_rules.errors import InvalidOptionsError

JIT = not getattr(numba, "config").DISABLE_JIT  # noqa: B009  # not in numba's exports
needs_jit = pytest.mark.skipif(not JIT, reason="the kernels are Python (NUMBA_DISABLE_JIT)")

TOY = """
import numpy as np
from cuckoo_rules.batch._jit import jit, pjit, prange


@jit
def double(x):
    return x * 2


@jit
def twice(x):
    return double(x) + double(3) + double(4)


@pjit
def fill(out):
    for b in prange(out.shape[0]):
        out[b] = double(b)
"""


def toy(tmp_path: Path) -> ModuleType:
    """A module of kernels numba has never compiled (its file is new)."""
    path = tmp_path / f"toy_kernels_{abs(hash(tmp_path))}.py"
    path.write_text(textwrap.dedent(TOY))
    return load(path)


def load(path: Path) -> ModuleType:
    """The module at ``path``, imported anew (new dispatchers, numba's cache as it is)."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Levels(numba.core.event.Listener):
    """The LLVM level each compile of a toy kernel started at."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, int]] = []

    def on_start(self, event: Any) -> None:
        function = event.data["dispatcher"].py_func
        if function.__module__.startswith("toy_kernels"):
            self.seen.append((function.__name__, int(getattr(numba, "config").OPT)))  # noqa: B009

    def on_end(self, event: Any) -> None:
        pass


@needs_jit
def test_a_kernel_is_compiled_once_for_constants_and_helpers_at_a_lower_level(
    tmp_path: Path,
) -> None:
    kernels = toy(tmp_path)
    levels = Levels()
    event: Any = numba.core.event
    event.register("numba:compile", levels)
    try:
        before = _jit.compiles()
        assert kernels.twice(5) == 10 + 6 + 8
    finally:
        event.unregister("numba:compile", levels)
    assert len(kernels.double.signatures) == 1  # not once per constant (3, 4)
    top = int(getattr(numba, "config").OPT)  # noqa: B009
    assert levels.seen == [("twice", top), ("double", min(top, _jit.HELPER_OPT))]
    assert _jit.compiles() == before + 1


@needs_jit
def test_a_helpers_own_code_is_quick_private_and_still_callable(tmp_path: Path) -> None:
    """A kernel compiled for another keeps its optimized IR for the kernels that link it,
    and emits its own code unoptimized (``optnone``) and private to it, but for the
    wrappers that Python calls: called from Python, it still answers."""
    assert _jit._QUICK_HELPERS  # in place with this numba
    kernels = toy(tmp_path)
    assert kernels.twice(5) == 10 + 6 + 8  # compiles double for twice
    (helper,) = kernels.double.overloads.values()
    (caller,) = kernels.twice.overloads.values()
    own = {f.name: f for f in helper.library._final_module.functions if not f.is_declaration}
    linked = list(helper.library._get_module_for_linking().functions)
    wrappers = [name for name in own if name.startswith(("_ZN7cpython", "cfunc."))]
    assert wrappers
    for name, function in own.items():
        attributes = b" ".join(function.attributes)
        assert b"optnone" in attributes or b"alwaysinline" in attributes
        assert (function.linkage == Linkage.internal) == (name not in wrappers)
    assert not any(b"optnone" in b" ".join(f.attributes) for f in linked)
    caller_attributes = [b" ".join(f.attributes) for f in caller.library._final_module.functions]
    assert not any(b"optnone" in attributes for attributes in caller_attributes)
    assert kernels.double(7) == 14  # the helper's own code, from Python


THREAD_IDS = """
from cuckoo_rules.batch._jit import get_thread_id, jit, pjit, prange


@jit
def thread_id():
    return get_thread_id()


@pjit
def ids(out):
    for b in prange(out.shape[0]):
        out[b] = thread_id()


@jit
def first_id():
    return thread_id()
"""

WARM_IDS = """
import sys
from pathlib import Path

import numpy as np
from cuckoo_rules.batch._jit import warm

sys.path.insert(0, str(Path(sys.argv[1]).parent))
kernels = __import__(Path(sys.argv[1]).stem)
ids = sys.argv[2] == "ids"
print(warm(kernels.ids, np.zeros(4, dtype=np.int64)) if ids else warm(kernels.first_id))
"""


@needs_jit
def test_a_warm_up_compiles_what_calls_get_thread_id_before_any_kernel_ran(
    tmp_path: Path,
) -> None:
    """The code of ``get_thread_id`` needs numba's threads started (numba aborts the
    process otherwise): a warm-up in a new process, where no kernel has run to start
    them, starts them first, before it loads a helper that calls it from the cache."""
    module = tmp_path / f"toy_ids_{abs(hash(tmp_path))}.py"
    module.write_text(textwrap.dedent(THREAD_IDS))
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), PYTHONWARNINGS="ignore")
    outputs = []
    for kernel in ("ids", "first_id"):  # the second loads the helper the first compiled
        done = subprocess.run(
            [sys.executable, "-c", WARM_IDS, str(module), kernel],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        outputs.append(done.stdout.split()[-1])
    assert outputs == ["2", "1"]  # both variants of ids, then first_id


@needs_jit
def test_a_small_batch_runs_the_serial_variant_and_both_fill_alike(tmp_path: Path) -> None:
    kernels = toy(tmp_path)
    serial, parallel = kernels.fill.variants
    small = np.zeros(3, dtype=np.int64)
    kernels.fill(small)
    assert small.tolist() == [0, 2, 4]
    assert serial.signatures
    assert not parallel.signatures
    many = np.zeros(4096, dtype=np.int64)
    kernels.fill(many)
    assert many.tolist() == [2 * b for b in range(4096)]
    if threads_for(len(many)) > 1:  # a machine of one core runs the serial one only
        assert _jit.compiled_later(timeout=300)  # not in the cache: in the background
        assert parallel.signatures
        kernels.fill(small)  # the parallel variant, compiled now, runs small batches too
        assert small.tolist() == [0, 2, 4]


@needs_jit
def test_a_first_call_on_threads_runs_serial_while_the_parallel_variant_compiles_aside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if threads_for(4096) == 1:
        pytest.skip("one core: the parallel variant is never needed")
    monkeypatch.setattr(_jit, "QUIET_BEFORE_LATER", 2.0)  # the checks below come first
    kernels = toy(tmp_path)
    serial, parallel = kernels.fill.variants
    many = np.zeros(4096, dtype=np.int64)
    kernels.fill(many)  # answered by the serial variant, compiled for it
    assert many.tolist() == [2 * b for b in range(4096)]
    assert serial.signatures
    assert not parallel.signatures  # queued, not compiled in the caller's time
    assert _jit.compiled_later(timeout=300)
    assert parallel.signatures
    # Another process (here, the module imported anew) finds it in the cache: its first
    # call loads the parallel variant and runs it; the serial one is never compiled.
    again = load(Path(str(kernels.__file__)))
    again_serial, again_parallel = again.fill.variants
    again.fill(many)
    assert again_parallel.signatures
    assert not again_serial.signatures
    assert _jit.compiled_later(timeout=0)  # nothing was queued


TOGETHER = """
import json, sys, time
from pathlib import Path

import numpy as np
from cuckoo_rules.batch import _jit

module, ready, go = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
sys.path.insert(0, str(Path(module).parent))
kernels = __import__(Path(module).stem)
ready.touch()
while not go.exists():
    time.sleep(0.001)
out = np.zeros(8, dtype=np.int64)
kernels.fill.variants[0](out)
print(json.dumps([_jit.compiles(), out.tolist()]))
"""


@needs_jit
def test_processes_starting_together_compile_a_kernel_once(tmp_path: Path) -> None:
    """The second waits on the cache index's lock, then loads what the first saved."""
    module = tmp_path / f"toy_kernels_{abs(hash(tmp_path))}.py"
    module.write_text(textwrap.dedent(TOY))
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), PYTHONWARNINGS="ignore")
    go = tmp_path / "go"
    readies = [tmp_path / f"ready{n}" for n in range(2)]
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", TOGETHER, str(module), str(ready), str(go)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for ready in readies
    ]
    try:
        while not all(ready.exists() for ready in readies):
            assert all(process.poll() is None for process in processes)
            time.sleep(0.01)
        go.touch()  # both compile now
        outputs = [process.communicate(timeout=300) for process in processes]
    finally:
        for process in processes:
            process.kill()
    results = []
    for process, (out, err) in zip(processes, outputs, strict=True):
        assert process.returncode == 0, err
        results.append(json.loads(out.strip().splitlines()[-1]))
    assert sorted(compiled for compiled, _ in results) == [0, 1]  # once, then loaded
    assert [filled for _, filled in results] == [[2 * b for b in range(8)]] * 2
    assert list((tmp_path / "cache").rglob("*.nbi.lock"))  # the lock beside the index


@needs_jit
def test_a_long_compile_says_so_and_how_long_it_took(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    kernels = toy(tmp_path)
    monkeypatch.setattr(_jit, "PROGRESS_AFTER", 0.01)
    with caplog.at_level(logging.INFO, logger="cuckoo_rules.batch"):
        kernels.twice(1)
        kernels.twice(2)  # compiled: nothing to say
    said = [record.getMessage() for record in caplog.records]
    assert said[0] == "compiling the batch kernels (twice: first use, cached after)"
    assert said[1].startswith("compiled the batch kernels (twice) in ")
    assert len(said) == 2


def test_the_library_is_silent_unless_asked() -> None:
    logger = logging.getLogger("cuckoo_rules.batch")
    assert not logger.handlers  # an application's choice
    assert logger.level == logging.NOTSET  # so the root logger's: WARNING unless set


def test_unknown_paths_are_refused() -> None:
    with pytest.raises(InvalidOptionsError, match="only: expected paths among batch"):
        warm_up("gpu")
    with pytest.raises(InvalidOptionsError):
        warm_up([])


def test_warm_up_compiles_what_was_asked_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    called: list[str] = []

    def fake(kernel: Any, *args: Any, parallel: bool = True) -> int:
        called.append(getattr(kernel, "__name__", ""))
        return 2

    monkeypatch.setattr(warm, "warm_kernel", fake)
    report = warm_up(["vector", "expert"])
    assert report.paths == ("expert", "vector")
    assert called[:2] == ["determinize_rows", "search_rollouts"]
    assert called[2:] == list(warm._VECTOR)
    assert report.kernels == 2 * len(called)


@pytest.mark.skipif(JIT, reason="compiles every kernel: the slow test below does")
def test_warm_up_counts_every_kernel() -> None:
    report = warm_up()
    assert report.paths == warm.PATHS
    assert report.kernels == len({*warm._BATCH, *warm._EXPERT, *warm._VECTOR})
    assert report.compiled == 0


def test_the_command_line_reports_the_warm_up(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    reports = iter([WarmUp(("expert",), 4, 3, 12.34), WarmUp(("batch", "vector"), 16, 0, 0.5)])

    def fake(only: Any = None) -> WarmUp:
        logging.getLogger("cuckoo_rules.batch").info("compiling the batch kernels (x)")
        return next(reports)

    monkeypatch.setattr(warm, "warm_up", fake)
    assert main(["warm-up", "--only", "expert"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("compiled 3 of 4 kernels (expert) in 12.3 s; cached ")
    assert err == "cuckoo-rules: compiling the batch kernels (x)\n"  # shown, then taken off
    assert not logging.getLogger("cuckoo_rules.batch").handlers
    assert main(["warm-up"]) == 0
    out, _ = capsys.readouterr()
    assert out == "the 16 kernels (batch, vector) were in the cache: 0.5 s\n"


def test_the_command_line_refuses_an_unknown_path(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["warm-up", "--only", "gpu"])
    assert exit_.value.code == 2
    assert "invalid choice: 'gpu'" in capsys.readouterr().err


WARM_UP = """
import json
from cuckoo_rules.batch import warm_up

report = warm_up()
print(json.dumps([report.kernels, report.compiled]))
"""

FIRST_USES = """
import gc, json, sys
import numpy as np
import cuckoo_rules as cr
from cuckoo_rules.batch import BatchGame, _jit, warm_up
from cuckoo_rules.bots.expert import ExpertBot, hint
from cuckoo_rules.envs.vector import BatchCuckooEnv


def overloads():  # every kernel's specializations ready here (compiled or loaded)
    kernels = [o for o in gc.get_objects() if isinstance(o, _jit._KERNEL)]
    return {f"{k.py_func.__module__}.{k.py_func.__qualname__}/{id(k)}": len(k.overloads)
            for k in kernels}


report = warm_up()
before, ready = _jit.compiles(), overloads()
for size in (1, 300):
    game = BatchGame(cr.GameOptions(num_players=3), range(size), seats=[None, "greedy", "random"])
    game.observations()
    game.step(game.legal_action_mask().argmax(axis=1))
    game.step_observed(game.legal_action_mask().argmax(axis=1), 0, 50)
    game.reset()
    game.random_playouts(3, 1, observations=True)
    for envs in (size, 64):
        env = BatchCuckooEnv(envs, num_players=2, max_turns=30)
        _, info = env.reset(seed=1)
        env.step(info["action_mask"].argmax(axis=1))
match = cr.Match(cr.GameOptions(num_players=2), seed=3, seats=[None, None])
view = match.view(match.to_act)
hint(view, match.knowledge(match.to_act), simulations=300)
ExpertBot(seed=1, simulations=1).choose(view)
after = overloads()
new = sorted(name for name, count in after.items() if count > ready.get(name, 0))
print(json.dumps([report.kernels, report.compiled, _jit.compiles() - before, new]))
"""


def _last_json_line(done: subprocess.CompletedProcess[str]) -> Any:
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow
@needs_jit
def test_after_a_warm_up_the_first_uses_compile_nothing() -> None:
    """A warm-up saves every kernel; after it, a new process's first uses need no other.

    In numba's own cache, however warm (the README's test command fills it before its
    workers start; with a cold one the first process compiles it all): one process warms
    up; a second one's warm-up then compiles nothing (everything was saved), and its first
    uses of the library add no specialization to any kernel, compiled or loaded, to those
    the warm-up made ready.
    """
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    run = functools.partial(subprocess.run, env=env, capture_output=True, text=True)
    kernels, _ = _last_json_line(run([sys.executable, "-c", WARM_UP]))
    assert kernels >= len(warm._BATCH) + len(warm._EXPERT)
    kernels, compiled, after, new = _last_json_line(run([sys.executable, "-c", FIRST_USES]))
    assert compiled == 0  # the first process saved everything
    assert after == 0
    assert new == []  # the warm up made ready what every first use needs


@needs_jit
def test_a_warm_up_in_the_background_leaves_the_kernels_compiled(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.ERROR, logger="cuckoo_rules.batch"):
        thread = warm_in_background("expert")
        assert thread is not None
        assert thread.daemon
        thread.join(timeout=900)
    assert not thread.is_alive()
    assert caplog.records == []
    assert warm_up("expert").compiled == 0  # all there: loaded by the thread


def test_a_failed_warm_up_in_the_background_is_logged_not_raised(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.ERROR, logger="cuckoo_rules.batch"):
        thread = warm_in_background("nowhere")
        assert thread is not None
        thread.join(timeout=60)
    assert [record.getMessage() for record in caplog.records] == ["warming up the kernels failed"]
    assert "nowhere" in caplog.text  # the reason: an unknown path


def test_serve_warms_the_expert_up_unless_told_not_to() -> None:
    from cuckoo_rules.cli import build_parser

    parser = build_parser()
    assert parser.parse_args(["serve"]).warm_up is True
    assert parser.parse_args(["serve", "--no-warm-up"]).warm_up is False
