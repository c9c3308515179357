"""Compile the batch kernels before their first use: :func:`warm_up`.

numba compiles a kernel at its first call in a process and keeps it in its cache
(``NUMBA_CACHE_DIR``, else the ``__pycache__`` folders beside the sources), from which
any later process loads it in a fraction of a second. The first call of a fresh install,
or after an upgrade, waits while the kernels it needs compile: the first step of a
:class:`~cuckoo_rules.batch.BatchGame`, the expert's first decision or hint, the vector
environment's first step. :func:`warm_up` compiles them ahead, for a server at its start
(in a thread, so that it serves meanwhile), a training script before its clock starts,
an image build or a CI job that fills the cache. ``cuckoo-rules warm-up`` calls it.

The kernels come in *paths*, what one use of the library runs (a kernel shared by two
paths is compiled once):

* ``"batch"``: every kernel of :class:`~cuckoo_rules.batch.BatchGame` (deal, mask, step,
  observe, the batched bots, ``random_playouts`` and ``step_observed``);
* ``"expert"``: the expert's searches (:mod:`cuckoo_rules.batch.search`: determinized
  deals and greedy rollouts), for :class:`~cuckoo_rules.bots.expert.ExpertBot` and
  :func:`~cuckoo_rules.bots.expert.hint`;
* ``"vector"``: what :class:`~cuckoo_rules.envs.vector.BatchCuckooEnv` runs.

Each kernel is compiled in both its variants where the process may run more than one
thread: the parallel one and the serial one that a small batch runs (on one core, only
the serial one), for the types of the arguments its callers give; none is run, so a
warm up in a thread does not enter numba's threads beside the kernels the program runs.

Example:
    Before a training run (the report says what was compiled, and how long it took)::

        from cuckoo_rules.batch import warm_up
        report = warm_up(["batch", "vector"])

    In a server, without waiting for it::

        import threading
        threading.Thread(target=warm_up, daemon=True, name="warm-up").start()
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable
from typing import Any

import attrs
import numpy as np

from ..actions import NUM_DISTINCT_ACTIONS
from ..cards import NUM_SPECIES
from ..errors import InvalidOptionsError
from ..observation import observation_size
from ..options import GameOptions
from ._drivers import (
    apply_actions,
    env_steps,
    first_illegal,
    legal_masks,
    observe_all,
    play_bots,
    random_playouts,
    reset_games,
)
from ._drivers import scratch as driver_scratch
from ._jit import compiles
from ._jit import warm as warm_kernel
from ._layout import WIDTH
from ._random import MT_N
from ._rows import options_array, seat_bots
from .search import determinize_rows, scratch, search_rollouts
from .threads import threads_for

__all__ = ["PATHS", "WarmUp", "warm_up"]

PATHS = ("batch", "expert", "vector")
"""The paths :func:`warm_up` knows, in the order it compiles them."""

_VECTOR = ("env_steps", "first_illegal")
_BATCH = (
    *_VECTOR,
    "reset_games",
    "play_bots",
    "observe_all",
    "legal_masks",
    "apply_actions",
    "random_playouts",
)
_EXPERT = ("determinize_rows", "search_rollouts")


@attrs.frozen
class WarmUp:
    """What :func:`warm_up` did.

    Attributes:
        paths: The paths warmed up (:data:`PATHS`).
        kernels: The kernel variants compiled or loaded from the cache.
        compiled: How many of them numba compiled (0: every one was in the cache).
        seconds: The time it took.
    """

    paths: tuple[str, ...]
    kernels: int
    compiled: int
    seconds: float


def warm_up(only: str | Iterable[str] | None = None) -> WarmUp:
    """Compile (or load from numba's cache) the batch kernels, before their first use.

    Safe to call at any time and from any thread (numba compiles one kernel at a time;
    a kernel another thread needs meanwhile waits for it, as it would have compiled it
    itself), and cheap once the kernels are in the cache. While a kernel compiles for
    more than a second, the logger ``cuckoo_rules.batch`` says so at level ``INFO``.

    Args:
        only: A path of :data:`PATHS` or several (``None``: every path).

    Returns:
        What was compiled, and how long it took (:class:`WarmUp`).

    Raises:
        InvalidOptionsError: If ``only`` names an unknown path.
    """
    paths = _paths(only)
    names: list[str] = []
    for path in paths:
        names += [name for name in _KERNELS[path] if name not in names]
    before = compiles()
    started = time.perf_counter()
    kernels = _warm_kernels(names)
    return WarmUp(paths, kernels, compiles() - before, time.perf_counter() - started)


def _warm_kernels(names: Iterable[str]) -> int:
    """Compile (or load) the kernels ``names`` of :data:`_KERNELS`, in that order.

    What :func:`warm_up` does for its paths; the test run's controller splits the
    kernels between processes by their compile time (``tests/conftest.py``).

    Returns:
        The kernel variants compiled or loaded.
    """
    kernels = 0
    arguments = _Arguments()
    for name in names:
        kernel, args = arguments.call(name)
        kernels += warm_kernel(kernel, *args, parallel=threads_for(sys.maxsize, 1) > 1)
    return kernels


def _paths(only: str | Iterable[str] | None) -> tuple[str, ...]:
    """The paths to warm up, in :data:`PATHS` order."""
    if only is None:
        return PATHS
    asked = {only} if isinstance(only, str) else set(only)
    unknown = sorted(str(path) for path in asked if path not in PATHS)
    if unknown or not asked:
        raise InvalidOptionsError(
            f"only: expected paths among {', '.join(PATHS)}, got {', '.join(unknown) or 'none'}"
        )
    return tuple(path for path in PATHS if path in asked)


_KERNELS = {"batch": _BATCH, "expert": _EXPERT, "vector": _VECTOR}


class _Arguments:
    """Arguments of the kernels' types, as their callers give them (and empty).

    The arrays are those :class:`~cuckoo_rules.batch.BatchGame` and
    :class:`~cuckoo_rules.bots.expert.ExpertBot` make (types, dimensions and order),
    with no game in them; ``tests/simulation/test_warm_up.py`` checks that after a warm
    up their first uses compile nothing.
    """

    def __init__(self) -> None:
        players = 2
        options = GameOptions(num_players=players)
        bots = seat_bots([None, "greedy"], players)
        width = observation_size(players)
        self.opt = options_array(options)
        self.states = np.zeros((0, WIDTH), dtype=np.int16)
        self.seeds = np.zeros(0, dtype=np.uint64)
        self.counts = np.zeros(0, dtype=np.int64)  # deals, decisions, actions, viewers
        self.mask = np.zeros((0, NUM_DISTINCT_ACTIONS), dtype=np.uint8)
        self.observations = np.zeros((0, width), dtype=np.float32)
        self.mts = np.zeros((0, players, MT_N + 1), dtype=np.uint32)
        self.bots = (bots.kinds, self.mts, bots.feed_weights, bots.thresholds)
        self.work = driver_scratch(1)

    def call(self, name: str) -> tuple[Callable[..., Any], tuple[Any, ...]]:
        """The kernel ``name`` and empty arguments for it, as its callers give them."""
        states, seeds, opt, counts = self.states, self.seeds, self.opt, self.counts
        observations, mask = self.observations, self.mask
        calls: dict[str, tuple[Callable[..., Any], tuple[Any, ...]]] = {
            "reset_games": (reset_games, (
                states, np.zeros(0, dtype=np.bool_), seeds, seeds, counts, opt, self.bots[0],
                self.mts,
            )),
            "play_bots": (play_bots, (states, seeds, opt, self.bots, self.work, counts)),
            "observe_all": (observe_all, (states, opt, counts, observations)),
            "legal_masks": (legal_masks, (states, mask)),
            "first_illegal": (first_illegal, (states, counts)),
            "apply_actions": (apply_actions, (states, seeds, opt, counts)),
            "random_playouts": (random_playouts, (
                states, seeds, opt, 0, np.uint64(0), False, observations, counts,
            )),
            "env_steps": (env_steps, (
                states, seeds, (seeds, counts), opt, self.bots, self.work, counts, 0, 0, False,
                (observations, mask, observations, np.zeros(0, dtype=np.int8), counts, counts),
            )),
            "determinize_rows": (determinize_rows, (states, seeds, counts, *self._deal())),
            "search_rollouts": (search_rollouts, (
                states, seeds, opt, counts, np.zeros((0, 2), dtype=np.int64), 0, 0,
                np.zeros(4), np.uint64(0), scratch(1), np.zeros(0),
            )),
        }  # fmt: skip
        return calls[name]

    def _deal(self) -> tuple[Any, ...]:
        """``determinize_rows``' view of a deal: template, pool, and the deal's arrays."""
        template = np.zeros(WIDTH, dtype=np.int16)
        pool = np.zeros(0, dtype=np.int16)
        players = np.zeros(2, dtype=np.int64)
        limits = np.zeros((2, NUM_SPECIES), dtype=np.int64)
        discards = np.zeros(NUM_SPECIES, dtype=np.int64)
        flags = np.zeros(5, dtype=np.int64)
        return template, pool, (players, players, limits, discards, flags)
