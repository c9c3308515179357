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

**Compile time.** A kernel is compiled at its first call in a process (or loaded from
the cache, in a fraction of a second), and a kernel called from Python compiles, into
itself, every kernel it calls. numba compiles a called kernel on its own first, and LLVM
then optimizes its code again inside every kernel that calls it, so the kernels called
by other kernels (:data:`HELPER_OPT`) are compiled at a lower LLVM level than the
kernels called from Python, which optimize the whole again at numba's level (``-O3``
unless ``NUMBA_OPT`` says otherwise): the compiled games and their speed are those of
the kernels called from Python. A called kernel's own machine code, which no kernel runs,
is made without optimizing it (:func:`_quick_helper_code`). An argument that is a
constant where a kernel is called (``shuffle_cards(s, DECK_SIZE, 0, state)``) is compiled
as its type, not as its value, so that a kernel is not compiled again for every constant
it is called with. A kernel over games (:data:`pjit`, :data:`pjit_each`) has a serial
variant besides its parallel one, for the calls one thread runs: it compiles in a
fraction of the time.

**The parallel variant, in the background.** A call that would run on several threads
while the parallel variant is neither compiled in the process nor in the cache runs the
serial variant (compiled at once if need be), and the parallel one is compiled on a
thread of its own once no kernel has been compiled for :data:`QUIET_BEFORE_LATER`
seconds; the calls after it take the parallel one. So a cold start waits for the serial
variants only (the expert's first hint: 22.0 -> 16.7 CPU-s). At the interpreter's exit
a compile under way is finished and cached (the waiting ones are dropped);
:func:`compiled_later` waits for them all.

**Several processes.** A kernel called from Python is compiled, or loaded, holding a
lock on its cache index (a ``.lock`` file beside it, ``fcntl.flock``; none where
``fcntl`` is missing, on Windows): processes that start together (a tournament's workers,
a server's, a test run's) compile each kernel once, the others load it once it is saved,
and no process overwrites the entry another has just added to the index.

**Progress.** A kernel whose compiling takes more than :data:`PROGRESS_AFTER` seconds
says so through the :mod:`logging` logger ``cuckoo_rules.batch`` at level ``INFO``
(silent unless an application shows that level: the command line does), and again with
the time it took.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import hashlib
import logging
import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar, TypeVar, cast

import numba
import numpy as np

from .. import actions, cards, decisions, observation, options, outcome, rng
from .threads import GAMES_PER_THREAD, threads_for

__all__ = [
    "HELPER_OPT",
    "LOG",
    "PROGRESS_AFTER",
    "QUIET_BEFORE_LATER",
    "SOURCES",
    "compiled",
    "compiled_later",
    "compiles",
    "get_thread_id",
    "ijit",
    "jit",
    "pjit",
    "pjit_each",
    "prange",
    "warm",
]

F = TypeVar("F", bound=Callable[..., Any])
_numba: Any = numba  # numba's own annotations do not cover these names
get_thread_id = _numba.get_thread_id
prange = _numba.prange

LOG = logging.getLogger("cuckoo_rules.batch")
"""Where the kernels say that they are compiling (level ``INFO``)."""

PROGRESS_AFTER = 1.0
"""The seconds a kernel compiles before :data:`LOG` says so."""

HELPER_OPT = 1
"""The LLVM level of a kernel compiled for another kernel, which optimizes its code
again at numba's level (``NUMBA_OPT``, 3 by default) when it takes it in."""

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


QUIET_BEFORE_LATER = 0.5
"""The seconds without a kernel compiled (or loaded) for a call before a parallel
variant is compiled in the background (so it does not hold up the kernels a first call
still needs)."""


class _Compiling:
    """The compiling under way in this process (changed under numba's compiler lock)."""

    depth = 0  # the kernels being compiled, one inside the other
    started = False  # whether numba compiles (not only loads) for the outermost one
    kernels = 0  # the kernels called from Python that numba compiled (not loaded)
    ended = 0.0  # time.monotonic() when a call's kernel was last compiled or loaded


class _Pending:
    """A parallel variant queued to be compiled in the background."""

    __slots__ = ("dispatcher", "failed", "types")

    def __init__(self, dispatcher: Any, args: tuple[Any, ...]) -> None:
        self.dispatcher = dispatcher
        self.types = tuple(dispatcher.typeof_pyval(a) for a in args)
        self.failed = False  # its compiling in the background raised


class _Later:
    """The parallel variants waiting to be compiled in the background, and its thread."""

    ready = threading.Condition()
    waiting: ClassVar[list[_Pending]] = []
    thread: threading.Thread | None = None
    busy = False  # the thread is compiling
    stopping = False  # the interpreter is exiting: compile nothing more


def _compile_later(dispatcher: Any, args: tuple[Any, ...]) -> _Pending | None:
    """Queue ``dispatcher`` to be compiled for the types of ``args`` in the background.

    Returns:
        What was queued, or ``None`` once the interpreter is exiting.
    """
    with _Later.ready:
        if _Later.stopping:
            return None
        pending = _Pending(dispatcher, args)
        _Later.waiting.append(pending)
        if _Later.thread is None:
            _Later.thread = threading.Thread(
                target=_compile_waiting, name="cuckoo-rules kernels", daemon=True
            )
            _Later.thread.start()
        _Later.ready.notify_all()
        return pending


def _compile_waiting() -> None:
    """The background thread: compile each queued variant once the calls are quiet."""
    while True:
        with _Later.ready:
            while not _Later.stopping:
                quiet = time.monotonic() - _Compiling.ended
                if _Later.waiting and quiet >= QUIET_BEFORE_LATER and not _Compiling.depth:
                    break
                until_woken = not _Later.waiting or _Compiling.depth  # notified on a change
                _Later.ready.wait(None if until_woken else max(0.01, QUIET_BEFORE_LATER - quiet))
            if _Later.stopping:
                return
            pending = _Later.waiting.pop(0)
            _Later.busy = True
        try:
            pending.dispatcher.compile(pending.types)
        except Exception:  # the next call compiles it itself, and shows the error
            LOG.debug("compiling %s in the background failed", pending.dispatcher, exc_info=True)
            pending.failed = True
        finally:
            with _Later.ready:
                _Later.busy = False
                _Later.ready.notify_all()


def compiled_later(timeout: float | None = None) -> bool:
    """Wait until the parallel variants queued for the background are compiled.

    Args:
        timeout: The most seconds to wait (``None``: as long as it takes).

    Returns:
        Whether none is waiting or being compiled any more.
    """
    deadline = None if timeout is None else time.monotonic() + timeout
    with _Later.ready:
        while _Later.waiting or _Later.busy:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return False
            _Later.ready.wait(left)
        return True


@atexit.register
def _stop_later() -> None:
    """At exit: drop the waiting variants, let one being compiled finish (and be cached)."""
    with _Later.ready:
        _Later.stopping = True
        _Later.waiting.clear()
        _Later.ready.notify_all()
        while _Later.busy:
            _Later.ready.wait()


class _Progress:
    """The progress lines of a kernel called from Python while it compiles.

    After :data:`PROGRESS_AFTER` seconds, if numba is compiling (not only loading from
    the cache), one line says so; when the kernel is ready, a second line says how long
    it took.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self.began = time.perf_counter()
        self.said = False
        self.stopped = False
        self.lock = threading.Lock()
        self.timer = self._arm()

    def _arm(self) -> threading.Timer:
        timer = threading.Timer(PROGRESS_AFTER, self.say)
        timer.daemon = True
        timer.start()
        return timer

    def say(self) -> None:
        with self.lock:
            if self.stopped:
                return
            if not _Compiling.started:  # still loading from the cache: look again later
                self.timer = self._arm()
                return
            LOG.info("compiling the batch kernels (%s: first use, cached after)", self.name)
            self.said = True

    def stop(self) -> None:
        with self.lock:
            self.timer.cancel()
            self.stopped = True
            if self.said:
                seconds = time.perf_counter() - self.began
                LOG.info("compiled the batch kernels (%s) in %.1f s", self.name, seconds)


def _compile(dispatcher: Any, sig: Any, compile_: Callable[[Any], Any]) -> Any:
    """``compile_(sig)`` for ``dispatcher``, called under numba's compiler lock.

    A kernel compiled for another one is compiled at :data:`HELPER_OPT`; one called
    from Python says when it compiles for long (:class:`_Progress`).
    """
    config: Any = _numba.core.config
    saved = config.OPT
    nested = _Compiling.depth > 0
    progress = None
    if nested:
        if int(saved) > HELPER_OPT:
            config.OPT = type(saved)(HELPER_OPT)
    else:
        _Compiling.started = False
        if LOG.isEnabledFor(logging.INFO) and threading.current_thread() is not _Later.thread:
            variant = ", parallel" if dispatcher.targetoptions.get("parallel") else ""
            progress = _Progress(dispatcher.py_func.__name__ + variant)
    _Compiling.depth += 1
    try:
        return compile_(sig)
    finally:
        _Compiling.depth -= 1
        config.OPT = saved
        if not nested and _Compiling.started:
            _Compiling.kernels += 1
        if not nested and threading.current_thread() is not _Later.thread:
            with _Later.ready:
                _Compiling.ended = time.monotonic()
                _Later.ready.notify_all()
        if progress is not None:
            progress.stop()


try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


@contextlib.contextmanager
def _index_locked(dispatcher: Any) -> Iterator[None]:
    """Hold an exclusive lock on ``dispatcher``'s cache index, shared by every process.

    Nothing is locked where there is no cache file, no ``fcntl`` or no writable place
    for the lock: then numba alone decides, as without this lock.
    """
    index = getattr(
        getattr(getattr(dispatcher, "_cache", None), "_cache_file", None), "_index_path", None
    )
    handle = None
    if fcntl is not None and isinstance(index, str):
        try:
            os.makedirs(os.path.dirname(index), exist_ok=True)
            handle = open(index + ".lock", "a")  # noqa: SIM115  # held until the end
        except OSError:
            handle = None
    if handle is None:
        yield
        return
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        yield
    finally:
        handle.close()  # closing releases the lock


def compiles() -> int:
    """How many kernels called from Python numba has compiled in this process.

    A kernel loaded from the cache does not count.
    """
    return _Compiling.kernels


def warm(kernel: Callable[..., Any], *args: Any, parallel: bool = True) -> int:
    """Compile (or load from the cache) ``kernel`` for the types of ``args``, not running it.

    Every variant a call may take is compiled: the serial one, and the parallel one
    unless ``parallel`` is false. With ``NUMBA_DISABLE_JIT`` there is nothing to compile.

    Returns:
        The variants compiled or loaded.
    """
    variants: tuple[Any, ...] = getattr(kernel, "variants", (kernel,))
    if hasattr(variants[0], "typeof_pyval"):
        _numba.get_num_threads()  # starts numba's threads: get_thread_id's code needs them
    if not parallel:
        variants = variants[:1]
    for variant in variants:
        if hasattr(variant, "typeof_pyval"):  # a dispatcher, not a Python function
            variant.compile(tuple(variant.typeof_pyval(arg) for arg in args))
    return len(variants)


def _kernel_class() -> type | None:
    """The numba dispatcher the kernels need (None where numba's internals differ).

    Its cache entries are also keyed on :data:`SOURCES` and on the compiling flags; a
    call from another kernel compiles it for the constants' types (not their values);
    and its compiling goes through :func:`_compile`.
    """
    try:
        from numba.core import event, types
        from numba.core.caching import FunctionCache
        from numba.core.compiler_lock import global_compiler_lock
        from numba.core.registry import CPUDispatcher
        from numba.core.sigutils import normalize_signature
    except ImportError:  # pragma: no cover - depends on numba's version
        return None
    if not hasattr(FunctionCache, "_index_key"):  # pragma: no cover - likewise
        return None
    unliteral: Any = types.unliteral
    normalize: Any = normalize_signature
    register: Any = event.register

    class KernelCache(FunctionCache):  # type: ignore[misc,unused-ignore]  # numba's types vary
        def __init__(self, py_func: Any, flags: str) -> None:
            super().__init__(py_func)  # type: ignore[no-untyped-call]
            self._flags = flags

        def _index_key(self, sig: Any, codegen: Any) -> tuple[Any, ...]:
            key: tuple[Any, ...] = super()._index_key(sig, codegen)  # type: ignore[no-untyped-call]
            return (*key, SOURCES, self._flags)

    class Kernel(CPUDispatcher):  # type: ignore[misc,unused-ignore]  # likewise
        def enable_caching(self) -> None:
            self._cache = KernelCache(self.py_func, repr(sorted(self.targetoptions.items())))

        def get_call_template(self, args: Any, kws: Any) -> Any:
            args = tuple(unliteral(a) for a in args)
            kws = {name: unliteral(a) for name, a in kws.items()}
            return super().get_call_template(args, kws)

        def cached(self, args: tuple[Any, ...]) -> bool:
            """Whether this kernel is ready for ``args``' types without compiling.

            Compiled in this process, or loaded now from the cache (as numba's
            ``Dispatcher.compile`` loads); never compiled here.
            """
            types = tuple(self.typeof_pyval(a) for a in args)
            me: Any = self  # numba's private attributes, untyped
            with global_compiler_lock:
                if types in self.overloads:
                    return True
                with _index_locked(self):
                    result = me._cache.load_overload(types, self.targetctx)
                if result is None:
                    return False
                me._cache_hits[types] += 1
                if not result.objectmode:
                    me.targetctx.insert_user_function(
                        result.entry_point, result.fndesc, [result.library]
                    )
                self.add_overload(result)
                return True

        def compile(self, sig: Any) -> Any:
            with global_compiler_lock:
                if _Compiling.depth or tuple(normalize(sig)[0]) in self.overloads:
                    return _compile(self, sig, super().compile)
                with _index_locked(self):  # another process may be compiling it
                    return _compile(self, sig, super().compile)

    class Started(event.Listener):  # type: ignore[misc,unused-ignore]  # likewise
        def on_start(self, ev: Any) -> None:
            if _Compiling.depth:
                _Compiling.started = True

        def on_end(self, ev: Any) -> None:
            pass

    register("numba:compile", Started())
    return Kernel


def _quick_helper_code() -> bool:
    """Emit the machine code of a kernel compiled for another kernel without optimizing it.

    numba makes the machine code of every function it compiles, but that of a kernel
    compiled for another one (a *helper*) is never run by a kernel: the kernels link the
    helper's IR, kept aside, and optimize and compile it into their own code. So, while
    this package compiles a helper (and only then: numba's ``_finalize_final_module``
    is wrapped, and acts on nothing else), the IR for linking is set aside first, then
    the helper's own functions are made private to it (a kernel's weak copy of one then
    resolves to the kernel's own, not to the helper's) and compiled with LLVM's
    ``optnone``, its quickest code generation. Cold starts: the vector environment's
    about 20 % shorter, the whole warm-up 14 % (see ``docs/batch.md``). The kernels
    link the helpers' IR as it was before code generation (numba links it as code
    generation left it), at the same speed within the noise. A helper called from
    Python with the types it was compiled for runs that unoptimized code: only the
    tests call one so; no kernel that the library calls from Python is also a helper.

    Returns:
        Whether it is in place (not where numba's internals differ).
    """
    try:
        from llvmlite import binding  # type: ignore[import-untyped]
        from numba.core.codegen import JITCodeLibrary
    except ImportError:  # pragma: no cover - depends on numba's version
        return False
    wrapped = "_finalize_final_module"  # numba's, private: looked up, not imported
    finalize = getattr(JITCodeLibrary, wrapped, None)
    if finalize is None:  # pragma: no cover - likewise
        return False
    external = binding.Linkage.external
    wrappers = ("_ZN7cpython", "cfunc.")  # what numba calls from Python, or takes the address of

    def finalize_final_module(library: Any) -> None:
        module = getattr(library, "_final_module", None)
        if (
            _Compiling.depth > 1
            and module is not None
            and library._shared_module is None  # compiled here, not loaded from the cache
            and not any(g.name.startswith(".numba.unresolved$") for g in module.global_variables)
        ):
            shared = module.clone()  # what kernels link, as numba's _get_module_for_linking
            for function in shared.functions:
                if not function.is_declaration and function.linkage == external:
                    function.linkage = binding.Linkage.linkonce_odr
            library._shared_module = shared
            for function in module.functions:
                if function.is_declaration:
                    continue
                if not function.name.startswith(wrappers):
                    function.linkage = binding.Linkage.internal
                if not any(b"alwaysinline" in attribute for attribute in function.attributes):
                    function.add_function_attribute("noinline")
                    function.add_function_attribute("optnone")
        finalize(library)

    setattr(JITCodeLibrary, wrapped, finalize_final_module)
    return True


_KERNEL = None if _numba.config.DISABLE_JIT else _kernel_class()
_QUICK_HELPERS = False if _numba.config.DISABLE_JIT else _quick_helper_code()


def compiled(**flags: Any) -> Callable[[F], F]:
    """``numba.njit(**flags)`` with the kernels' cache, typed as keeping the signature."""
    if _numba.config.DISABLE_JIT:
        return _wrapping
    if _KERNEL is None:  # pragma: no cover - depends on numba's version
        return cast(Callable[[F], F], numba.njit(cache=True, nogil=True, **flags))
    options_ = {"nopython": True, "boundscheck": None, "nogil": True, **flags}

    def compile_(function: F) -> F:
        dispatcher = _KERNEL(py_func=function, locals={}, targetoptions=dict(options_))
        dispatcher.enable_caching()
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


def _parallel_now(parallel: Any, later: _Pending | None, args: tuple[Any, ...]) -> bool:
    """Whether a call runs the ``parallel`` variant now, not yet compiled for ``args``.

    ``later`` is the variant queued for the background, if it is. Yes when compiling it
    there failed (the call compiles it, and shows why it fails), when it is in the cache
    (loaded here) and where numba's internals differ (no ``Kernel.cached``: the call
    compiles it, as before); no while it waits for the background or is compiled there.
    """
    if later is not None:
        return later.failed
    cached = getattr(parallel, "cached", None)
    return cached is None or bool(cached(args))


def _parallel(per_thread: int) -> Callable[[F], F]:
    """Compile a kernel run on as many threads as ``threads.threads_for`` gives.

    The kernel has two variants, each compiled at its first use: a parallel one
    (``parallel=True``), and a serial one, which compiles in a fraction of the time (no
    parallel loop to build and optimize), for a call that one thread runs (a small batch,
    or a process on one core) while the parallel variant is not compiled in the process,
    and for a call on several threads while the parallel variant, not in the cache, is
    compiled in the background (see the module's documentation). Both play the same games.
    """
    if _numba.config.DISABLE_JIT:
        return _wrapping
    serial_ = compiled()
    parallel_ = compiled(parallel=True)

    def wrap(function: F) -> F:
        serial: Any = serial_(function)
        parallel: Any = parallel_(function)

        later: _Pending | None = None  # the parallel variant, once queued

        @functools.wraps(function)
        def run(*args: Any) -> Any:
            nonlocal later
            threads = threads_for(len(args[0]), per_thread)
            # Also in a serial call: get_thread_id needs numba's threads started.
            _numba.set_num_threads(threads)
            if parallel.signatures or (threads > 1 and _parallel_now(parallel, later, args)):
                return parallel(*args)
            result = serial(*args)  # compiled first: the background waits for it
            if threads > 1 and later is None:
                later = _compile_later(parallel, args)
            return result

        run.variants = (serial, parallel)  # type: ignore[attr-defined]  # for warm_up
        return cast(F, run)

    return wrap


pjit = _parallel(GAMES_PER_THREAD)
"""Compile a kernel whose ``prange`` loop over games runs on as many cores as the batch's
size and the process's cores allow (a thread per ``GAMES_PER_THREAD`` games at least)."""

pjit_each = _parallel(1)
"""Compile a kernel whose ``prange`` loop runs a whole playout per item: a thread per item."""

ijit = compiled(forceinline=True)
"""Compile a small helper that LLVM inlines where it is called (the greedy bot's inner
loops): compiled once, not typed again in every kernel that calls it."""
