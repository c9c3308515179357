"""How the kernels are compiled: ``numba.njit``, cached on disk, keyed on what they read.

numba's cache keys a compiled function on its own bytecode and is refreshed when its
own source file changes, but a kernel also holds, compiled into it, the kernels it calls
from the other modules of this package, the rules' functions it compiles from
:mod:`cuckoo_rules.decisions` and :mod:`cuckoo_rules.outcome`, and the facts of the model
frozen as constants (a flock size changed in ``cards.py`` changes no kernel's file). So
the kernels' cache entries are also keyed on :data:`SOURCES`, a hash of every file they
read: a change to any of them compiles the kernels again instead of loading stale ones.

With ``NUMBA_DISABLE_JIT=1`` the kernels stay Python functions (slow, but the same
games), which is how the tests see them under coverage. NumPy would then warn of the
64-bit wrapping that SplitMix64 and the Mersenne Twister rely on (compiled code wraps
silently): each is run with that warning off.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import numba
import numpy as np

from .. import actions, cards, decisions, observation, options, outcome, rng
from .threads import GAMES_PER_THREAD, in_threads

__all__ = ["SOURCES", "compiled", "get_thread_id", "ijit", "jit", "pjit", "pjit_each", "prange"]

F = TypeVar("F", bound=Callable[..., Any])
_numba: Any = numba  # numba's own annotations do not cover these names
get_thread_id = _numba.get_thread_id
prange = _numba.prange

_MODEL = (actions, cards, decisions, observation, options, outcome, rng)


def _sources() -> str:
    """A hash of the kernels' modules and of the model modules they take facts from."""
    files = sorted(Path(__file__).parent.glob("_*.py"))
    files += [Path(str(module.__file__)) for module in _MODEL]
    files.append(Path(str(cards.__file__)).with_name("_greedy_weights.py"))  # the bots' weights
    hasher = hashlib.sha256()
    try:
        for path in files:
            hasher.update(path.name.encode())
            hasher.update(path.read_bytes())
    except OSError:  # pragma: no cover - sources not on disk (a zip): numba's own key only
        return ""
    return hasher.hexdigest()


SOURCES = _sources()
"""The hash every cache entry of a kernel is also keyed on."""


def _cache_class() -> type | None:
    """Numba's function cache with :data:`SOURCES` in its key (None if numba changed)."""
    try:
        from numba.core.caching import FunctionCache
    except ImportError:  # pragma: no cover - depends on numba's version
        return None
    if not hasattr(FunctionCache, "_index_key"):  # pragma: no cover - likewise
        return None

    class KernelCache(FunctionCache):  # type: ignore[misc,unused-ignore]  # numba's types vary
        def _index_key(self, sig: Any, codegen: Any) -> tuple[Any, ...]:
            key: tuple[Any, ...] = super()._index_key(sig, codegen)  # type: ignore[no-untyped-call]
            return (*key, SOURCES)

    return KernelCache


_KERNEL_CACHE = _cache_class()


def compiled(**flags: Any) -> Callable[[F], F]:
    """``numba.njit(**flags)`` with the kernels' cache, typed as keeping the signature."""
    if _numba.config.DISABLE_JIT:
        return _wrapping
    if _KERNEL_CACHE is None:  # pragma: no cover - depends on numba's version
        return cast(Callable[[F], F], numba.njit(cache=True, nogil=True, **flags))

    def compile_(function: F) -> F:
        dispatcher = numba.njit(nogil=True, **flags)(function)
        dispatcher._cache = _KERNEL_CACHE(function)  # what cache=True does, keyed on SOURCES
        return cast(F, dispatcher)

    return compile_


def _wrapping(function: F) -> F:
    @functools.wraps(function)
    def run(*args: Any) -> Any:
        with np.errstate(over="ignore"):
            return function(*args)

    return cast(F, run)


jit = compiled()
"""Compile a kernel."""


def _parallel(per_thread: int) -> Callable[[F], F]:
    """Compile a parallel kernel run on as many threads as ``threads.threads_for`` gives."""
    compile_ = compiled(parallel=True)

    def wrap(function: F) -> F:
        return in_threads(compile_(function), per_thread)

    return wrap


pjit = _parallel(GAMES_PER_THREAD)
"""Compile a kernel whose ``prange`` loop over games runs on as many cores as the batch's
size and the process's cores allow (a thread per ``GAMES_PER_THREAD`` games at least)."""

pjit_each = _parallel(1)
"""Compile a kernel whose ``prange`` loop runs a whole playout per item: a thread per item."""

ijit = compiled(inline="always")
"""Compile a small helper inlined where it is called (the greedy bot's inner loops)."""
