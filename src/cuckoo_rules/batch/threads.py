"""The batch kernels' threads: how many, and how they wait, on a machine others share.

numba runs the kernels' parallel loops on a pool of threads, its *threading layer*:
GNU OpenMP where numba finds it (the usual case on Linux), else TBB or numba's own
workqueue. GNU OpenMP's threads spin while they wait for the next loop, and on a machine
whose cores other programs use (a learner's PyTorch threads, a second experiment, a CI
job), the spinning threads take the time the working ones need: a loop of masks and
steps measured 15 to 17 times slower than with threads that sleep, and slower than one
thread (``docs/performance.md``). So, unless you chose otherwise:

* **Threads that sleep while they wait.** Importing :mod:`cuckoo_rules.batch` sets
  ``OMP_WAIT_POLICY=PASSIVE`` in the process's environment if neither
  ``OMP_WAIT_POLICY`` nor ``GOMP_SPINCOUNT`` is set. OpenMP reads it once, when its
  runtime starts, which for numba is at the first parallel kernel; a runtime that
  another library started earlier in the process keeps its own policy. The setting also
  reaches any OpenMP runtime the process starts later (PyTorch's, for one): set
  ``OMP_WAIT_POLICY`` yourself to choose otherwise. numba's choice of layer is left as
  it is (``NUMBA_THREADING_LAYER`` chooses another); OpenMP and TBB may be entered from
  several Python threads at once, the workqueue may not (:func:`thread_safe_layer`).
* **As many threads as the work and the cores allow.** Each parallel kernel runs on
  :func:`threads_for` threads: no more than the cores this process may run on
  (``os.sched_getaffinity``, so a ``taskset`` or a container's CPU set counts), nor than
  ``NUMBA_NUM_THREADS``, nor than one per :data:`GAMES_PER_THREAD` games (a small batch
  runs on one thread, where waking others costs more than it saves).

Example:
    >>> threads_for(1) == 1
    True
    >>> 1 <= threads_for(100_000) <= available_cores()
    True
"""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Callable, MutableMapping
from contextlib import AbstractContextManager, nullcontext
from typing import Any, TypeVar, cast

import numba

__all__ = [
    "GAMES_PER_THREAD",
    "WAIT_POLICY",
    "available_cores",
    "configure",
    "in_threads",
    "kernel_turn",
    "thread_safe_layer",
    "threads_for",
]

F = TypeVar("F", bound=Callable[..., Any])
_numba: Any = numba  # numba's own annotations do not cover its config

GAMES_PER_THREAD = 64
"""The fewest games (or rows of work) worth a thread of their own in a step's kernels:
below it, waking another thread costs more than the games it would take over."""

WAIT_POLICY = "PASSIVE"
"""The OpenMP wait policy set when the user chose none: waiting threads sleep."""


def configure(environ: MutableMapping[str, str] | None = None) -> bool:
    """Set the OpenMP wait policy to :data:`WAIT_POLICY` unless one is chosen already.

    Called when :mod:`cuckoo_rules.batch` is imported, before any kernel runs.

    Args:
        environ: The environment to change (the process's, ``os.environ``, by default).

    Returns:
        Whether the policy was set here (``False``: the user's own stays).

    Example:
        >>> configure({"OMP_WAIT_POLICY": "ACTIVE"}), configure({})
        (False, True)
    """
    target: MutableMapping[str, str] = os.environ if environ is None else environ
    if "OMP_WAIT_POLICY" in target or "GOMP_SPINCOUNT" in target:
        return False
    target["OMP_WAIT_POLICY"] = WAIT_POLICY
    return True


@functools.cache
def available_cores() -> int:
    """The cores this process may run on (its CPU affinity), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - no affinity on this platform
        return max(1, os.cpu_count() or 1)


def threads_for(work: int, per_thread: int = GAMES_PER_THREAD) -> int:
    """The threads a parallel kernel over ``work`` games (or rows) runs on.

    Args:
        work: The length of the kernel's parallel loop.
        per_thread: The least work worth a thread.

    Returns:
        At least 1; at most :func:`available_cores`, ``NUMBA_NUM_THREADS`` and one per
        ``per_thread`` items of work.
    """
    most = min(available_cores(), int(_numba.config.NUMBA_NUM_THREADS))
    return max(1, min(most, work // max(1, per_thread)))


def in_threads(kernel: F, per_thread: int = GAMES_PER_THREAD) -> F:
    """Wrap a parallel kernel so that it runs on :func:`threads_for` threads.

    The kernel's first argument is the array its parallel loop runs over (its length is
    the work). ``numba.set_num_threads`` holds for the calling thread only, so each call
    sets it.
    """

    @functools.wraps(kernel)
    def run(*args: Any) -> Any:
        _numba.set_num_threads(threads_for(len(args[0]), per_thread))
        return kernel(*args)

    return cast(F, run)


def thread_safe_layer() -> bool:
    """Whether numba's threading layer may be entered by several Python threads at once.

    OpenMP and TBB may; numba's own workqueue (the last resort) may not. Known once a
    parallel kernel has run (before, this starts the layer).
    """
    _numba.set_num_threads(_numba.get_num_threads())  # starts the layer if it has not
    return str(_numba.threading_layer()) != "workqueue"


_TURN = threading.Lock()  # one thread at a time in the parallel kernels, on the workqueue


@functools.cache
def kernel_turn() -> AbstractContextManager[object]:
    """What a thread holds while it runs the parallel kernels: a lock only where needed.

    On numba's workqueue layer, which two threads must not enter at once, one lock that
    every caller of the library takes (the expert's searches, the reviews, the web
    server's hints in its threads); on OpenMP and TBB, nothing.

    Example:
        >>> with kernel_turn():
        ...     pass
    """
    return nullcontext() if thread_safe_layer() else _TURN


configure()  # before any kernel starts the threading layer
