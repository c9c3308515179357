"""``cuckoo-rules warm-up``: compile the batch kernels into numba's cache ahead of use.

The batch simulator's kernels (the ``batch`` extra) compile at their first use in a
process, for up to a minute on a fresh install, and load from numba's cache after. This
command compiles them all (or the paths named by ``--only``) through
:func:`cuckoo_rules.batch.warm.warm_up` and says how long it took: run it once after an
install or an upgrade, in an image build or before a benchmark. The cache is
``NUMBA_CACHE_DIR`` if set, else the ``__pycache__`` folders beside the library's
sources (numba falls back to a folder of the user's where those are read-only).

Every command shows on stderr, if it is a terminal, the kernels that compile for more
than a second (:func:`compiling_shown`; ``warm-up`` shows them wherever stderr goes); the
library itself stays silent unless asked (:mod:`logging`).
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import sys
import threading
from collections.abc import Iterator

from .parser import PROG, Commands, command_failed

__all__ = ["add_command", "compiling_shown", "warm_in_background"]

_PATHS = ("batch", "expert", "vector")  # cuckoo_rules.batch.warm.PATHS, without numba


def add_command(commands: Commands) -> None:
    """Declare ``warm-up`` and its argument ``--only``."""
    warm_up = commands.add_parser(
        "warm-up",
        help="compile the batch kernels into numba's cache ahead of their first use",
        description=(
            "Compile the batch simulator's kernels (the 'batch' extra) into numba's cache, "
            "so that the first BatchGame, expert hint or vector environment step of a "
            "process starts in about a second. Run once after installing or upgrading. "
            "--only batch|expert|vector compiles one path's kernels (repeat it for more)."
        ),
        epilog=f"example: {PROG} warm-up --only expert",
    )
    warm_up.add_argument(
        "--only",
        action="append",
        choices=_PATHS,
        metavar="PATH",
        help="compile this path's kernels only: batch, expert or vector (repeatable)",
    )
    warm_up.set_defaults(handler=_run, command_parser=warm_up)


@contextlib.contextmanager
def compiling_shown(always: bool = False) -> Iterator[None]:
    """Show the kernels' compiling lines (logger ``cuckoo_rules.batch``) on stderr, inside.

    Args:
        always: Show them even if stderr is not a terminal (a pipe, a file, a test).

    Nothing changes if the logger has a handler already (an application's own).
    """
    logger = logging.getLogger("cuckoo_rules.batch")
    if logger.handlers or not (always or _interactive()):
        yield
        return
    handler = _Stderr()
    handler.setFormatter(logging.Formatter(f"{PROG}: %(message)s"))
    level, propagate = logger.level, logger.propagate
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
        logger.propagate = propagate


def warm_in_background(*paths: str) -> threading.Thread | None:
    """Compile (or load) the kernels of ``paths`` in a daemon thread, and return it.

    What ``play`` (for the first hint) and ``serve`` (for the first hint and review) do
    as they start: the kernels are ready by the time a person asks, and a call that needs
    a kernel still compiling waits for that compile rather than starting its own. A
    failure is logged (logger ``cuckoo_rules.batch``), not raised: the kernels then
    compile at their first use, as without a warm-up.

    Args:
        paths: Paths of :data:`cuckoo_rules.batch.warm.PATHS` (none: every path).

    Returns:
        The thread, started; ``None`` without the ``batch`` extra (nothing to compile).
    """
    try:
        from ..batch.warm import warm_up
    except ModuleNotFoundError:  # the batch extra is not installed: no kernels, no hints
        return None

    def run() -> None:
        try:
            warm_up(paths or None)
        except Exception:  # the first use compiles instead; say why this one failed
            logging.getLogger("cuckoo_rules.batch").exception("warming up the kernels failed")

    thread = threading.Thread(target=run, name="cuckoo-rules warm-up", daemon=True)
    thread.start()
    return thread


def _interactive() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # replaced or closed
        return False


class _Stderr(logging.Handler):
    """Write to ``sys.stderr`` as it is when a line is written (tests replace it)."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            print(self.format(record), file=sys.stderr, flush=True)
        except Exception:  # as logging.StreamHandler does
            self.handleError(record)


def _run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Compile the kernels and print what was compiled and how long it took."""
    try:
        from ..batch.warm import warm_up
    except ModuleNotFoundError as error:  # the batch extra is not installed
        return command_failed("warm-up", error, 2)
    only: list[str] | None = args.only
    with compiling_shown(always=True):
        report = warm_up(only)
    paths = ", ".join(report.paths)
    if report.compiled:
        print(
            f"compiled {report.compiled} of {report.kernels} kernels ({paths}) "
            f"in {report.seconds:.1f} s; {_where()}"
        )
    else:
        print(f"the {report.kernels} kernels ({paths}) were in the cache: {report.seconds:.1f} s")
    return 0


def _where() -> str:
    """Where numba keeps the compiled kernels."""
    import numba

    folder = str(getattr(numba, "config").CACHE_DIR)  # noqa: B009  # not in numba's exports
    return f"cached in {folder}" if folder else "cached beside the sources (__pycache__)"
