"""The web server's bots: each decision in a worker process, bounded in time, never fatal.

A table's bot seat decides from a :class:`BotJob`: its spec, the decision's seed, the
seat's view and (for a bot that follows the game) the seat's whole history, all plain
values that can be sent to another process. :func:`decide` turns a job into an action;
a :class:`BotRunner` runs it:

- :class:`ProcessBotRunner`, the server's default, runs decisions in a pool of worker
  processes (Pebble's :class:`~pebble.ProcessPool`, started with ``spawn``), so a
  thinking bot holds neither the server's event loop nor its GIL, and a decision that
  overruns its time is stopped by ending its worker;
- :class:`ThreadBotRunner` runs them in threads of the server's own process (for tests and
  embedded use; an overrun is abandoned, not stopped).

Either way :meth:`BotRunner.decide` never fails: a decision that raises, overruns
:attr:`BotRunner.timeout` or chooses an illegal action is tried once more, and if the
second try fails too, the greedy bot (:class:`~cuckoo_rules.bots.GreedyBot`, with the
same seed) plays that move instead, and the returned note says so. A table therefore
never waits for ever on a broken bot, and the note is stored with the move, so a restart
replays the move instead of asking the bot again.

The decisions share the workers fairly: each waits for a worker in the turns of a
:class:`~cuckoo_rules.web.shares.FairShares` (per client, then per table), so one client's
many tables cannot hold the workers: another client's decision is the next to start, at
once while a worker is kept for other clients.
"""

from __future__ import annotations

import abc
import asyncio
import contextlib
import functools
import itertools
import logging
import multiprocessing
import multiprocessing.queues
import threading
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import TypeVar

import attrs

from ..actions import Action
from ..bots.greedy import GreedyBot
from ..bots.specs import BotSpec, parse_bot_spec
from ..engine import legal_actions
from ..events import Event
from ..views import PlayerView
from .shares import FairShares

__all__ = [
    "BOT_TIMEOUT",
    "INLINE_KINDS",
    "BotJob",
    "BotRunner",
    "Decision",
    "ProcessBotRunner",
    "Progress",
    "ThreadBotRunner",
    "decide",
]

_logger = logging.getLogger(__name__)

_Job = TypeVar("_Job")
_Result = TypeVar("_Result")

Progress = Callable[[int, int], None]
"""A callback of long work (:meth:`BotRunner.compute`): ``(done, total)``."""

INLINE_KINDS = frozenset({"random", "greedy"})
"""The bot kinds whose decisions a runner makes itself, in the caller's thread: they do not
search (a greedy decision takes about 0.3 ms), so sending them to a worker would cost more
than it saves. Their parameters are bounded, and a failure is tried again and then replaced
all the same."""

BOT_TIMEOUT = 10.0
"""The longest a bot decision may take, in seconds, before it is stopped and tried again.

The server's caps on bot parameters keep a decision near one second, so only a fault
reaches this."""


@attrs.frozen
class BotJob:
    """One bot decision, in plain values that can be sent to a worker process.

    Attributes:
        spec: The bot's specification, as text (``"ismcts:iterations=300"``).
        seed: The decision's seed.
        view: The seat's view; the seat is to act.
        history: Every ``(view, events)`` the seat was informed of since the game began,
            for a bot that follows the game (has ``inform``); empty otherwise.
    """

    spec: str
    seed: int
    view: PlayerView
    history: tuple[tuple[PlayerView, tuple[Event, ...]], ...] = ()


@attrs.frozen
class Decision:
    """What a runner decided for a job.

    Attributes:
        action: The action to play (legal in the job's view).
        note: ``None``, or why the greedy bot played instead of the seat's bot.
    """

    action: Action
    note: str | None = None


@functools.lru_cache(maxsize=64)
def _spec(text: str) -> BotSpec:
    return parse_bot_spec(text)


def decide(job: BotJob) -> Action:
    """Build the job's bot, inform it of the history, and return its choice.

    This is what a worker process runs; it is a function of the job alone.

    Raises:
        BotSpecError: If the spec does not build a bot.
        Exception: Whatever the bot raises.
    """
    bot = _spec(job.spec).build(job.seed)
    inform = getattr(bot, "inform", None)
    if callable(inform):
        for seen, events in job.history:
            inform(seen, events)
    return bot.choose(job.view)


def _greedy(job: BotJob) -> Action:
    return GreedyBot(seed=job.seed).choose(job.view)


class BotRunner(abc.ABC):
    """Runs bot decisions away from the server's request handling, in fair turns.

    Args:
        timeout: The longest one decision may take, in seconds.
        decide: The function a decision runs (:func:`decide`; tests pass another one,
            which must be a module-level function for the process runner).
        workers: How many decisions run at once; the others wait in :attr:`shares`.

    Raises:
        ValueError: If ``timeout`` is not a positive number, or ``workers`` not an
            integer from 1 to 64.

    Attributes:
        timeout: As given.
        workers: As given.
        shares: The turns of the decisions waiting for a worker (per client, then per
            table).
    """

    def __init__(
        self,
        timeout: float = BOT_TIMEOUT,
        decide: Callable[[BotJob], Action] = decide,
        workers: int = 2,
    ) -> None:
        if not isinstance(timeout, int | float) or not 0 < timeout < 3600:
            raise ValueError(f"timeout: expected a number of seconds in (0, 3600), got {timeout!r}")
        if type(workers) is not int or not 1 <= workers <= 64:
            raise ValueError(f"workers: expected an integer from 1 to 64, got {workers!r}")
        self.timeout = float(timeout)
        self.workers = workers
        self.shares = FairShares(workers)
        self._decide = decide

    @abc.abstractmethod
    async def _run(self, job: BotJob) -> Action:
        """Run one decision; raise :class:`TimeoutError` if it overruns."""

    async def compute(
        self,
        work: Callable[[_Job, Progress | None], _Result],
        job: _Job,
        *,
        client: str,
        table: str,
        timeout: float,
        progress: Progress | None = None,
    ) -> _Result:
        """Run a long piece of work (a review) on a worker, in the turn of its client.

        It waits for a worker in the same turns as the decisions (:attr:`shares`), and
        holds it until the work is done.

        Args:
            work: A module-level function of ``(job, progress)`` (sent to a worker process
                by the process runner, whose ``progress`` tells the runner through a queue).
            job: Its argument, in plain values that can be sent to another process.
            client: Who the work is for (whose turns it takes).
            table: The table it is for.
            timeout: The longest it may take, in seconds (then :class:`TimeoutError`).
            progress: Called with ``(done, total)`` as the work goes on, from a thread of
                the runner (the worker's, or the one reading the workers' queue).

        Returns:
            What ``work`` returns.

        Raises:
            TimeoutError: If it takes longer than ``timeout``.
            Exception: Whatever ``work`` raises.
        """
        async with self.shares.turn(client, table):
            return await self._compute(work, job, timeout, progress)

    async def _compute(
        self,
        work: Callable[[_Job, Progress | None], _Result],
        job: _Job,
        timeout: float,
        progress: Progress | None,
    ) -> _Result:
        """Run ``work`` for :meth:`compute`: in a thread of this process (by default)."""
        return await asyncio.wait_for(asyncio.to_thread(work, job, progress), timeout)

    def close(self) -> None:  # noqa: B027 (a runner with nothing to close)
        """Stop the workers; the runner cannot be used afterwards."""

    def is_inline(self, job: BotJob) -> bool:
        """Whether this runner decides ``job`` in the caller's thread (:data:`INLINE_KINDS`)."""
        return self.decides_inline(job.spec)

    def decides_inline(self, spec: str) -> bool:
        """Whether this runner decides for the bot ``spec`` itself (:data:`INLINE_KINDS`).

        Those decisions take a fraction of a millisecond: nobody is shown "thinking".
        """
        return self._decide is decide and _spec(spec).kind in INLINE_KINDS

    def decide_here(self, job: BotJob, name: str = "") -> Decision:
        """Decide a job in the calling thread: for the :data:`INLINE_KINDS` (and tests).

        Like :meth:`decide`, it never fails: the greedy bot stands in after two failures.
        """
        legal = legal_actions(job.view)
        failures: list[str] = []
        for _ in range(2):
            try:
                action = self._decide(job)
            except Exception as error:  # a bot's failure, whatever it is
                failures.append(_failure(error))
                continue
            if _accepted(action, legal, failures):
                return Decision(action)
        return _stand_in(job, name, failures)

    async def decide(
        self, job: BotJob, name: str = "", *, client: str = "", table: str = ""
    ) -> Decision:
        """Decide a job: the bot's legal choice, or greedy's after two failures.

        The :data:`INLINE_KINDS` are decided here (:meth:`decide_here`); the others in
        the runner's workers, each try in its turn (:attr:`shares`) and stopped after
        :attr:`timeout` seconds.

        Args:
            job: The decision.
            name: The seat's name, for the note (``"P1 ismcts"``).
            client: Who the decision is for (the client that created the table), whose
                decisions take turns with other clients'.
            table: The table it is for (a client's tables take turns).

        Returns:
            The action, and a note if greedy played it.
        """
        if self.is_inline(job):
            return self.decide_here(job, name)
        legal = legal_actions(job.view)
        failures: list[str] = []
        for _ in range(2):
            try:
                async with self.shares.turn(client, table):
                    action = await self._run(job)
            except (TimeoutError, FutureTimeout):
                failures.append(f"no answer within {self.timeout:g} s")
                continue
            except Exception as error:  # a bot's failure, whatever it is
                failures.append(_failure(error))
                continue
            if _accepted(action, legal, failures):
                return Decision(action)
        return _stand_in(job, name, failures)


def _failure(error: Exception) -> str:
    return f"{type(error).__name__}: {str(error)[:200]}"


def _accepted(action: Action, legal: tuple[Action, ...], failures: list[str]) -> bool:
    """Whether ``action`` is legal; if not, say so in ``failures``."""
    if action in legal:
        return True
    failures.append(f"it chose an illegal action ({action!r})"[:200])
    return False


def _stand_in(job: BotJob, name: str, failures: list[str]) -> Decision:
    """The greedy bot's decision for a bot that failed twice, with the note that says so."""
    who = f"{name} ({job.spec})" if name else job.spec
    note = (
        f"The bot of {who} failed twice ({'; '.join(failures)}); the greedy bot played "
        "this move instead."
    )
    return Decision(_greedy(job), note)


class ThreadBotRunner(BotRunner):
    """Runs decisions in threads of this process (a decision that overruns is abandoned).

    Args:
        timeout: As for :class:`BotRunner`.
        decide: As for :class:`BotRunner`.
        workers: As for :class:`BotRunner`: the threads deciding at once.
    """

    def __init__(
        self,
        timeout: float = BOT_TIMEOUT,
        decide: Callable[[BotJob], Action] = decide,
        workers: int = 4,
    ) -> None:
        super().__init__(timeout, decide, workers)

    async def _run(self, job: BotJob) -> Action:
        return await asyncio.wait_for(asyncio.to_thread(self._decide, job), self.timeout)


class ProcessBotRunner(BotRunner):
    """Runs decisions in a pool of worker processes, each stopped if it overruns.

    The workers are started (with ``spawn``) when the first decision comes, and each
    worker is replaced after :attr:`max_tasks` decisions, so no bot's memory grows in
    it for ever. A decision goes to the pool only when a worker is free, in its turn
    (:attr:`~BotRunner.shares`), so the pool's own queue (first come, first served)
    stays empty.

    Args:
        workers: The number of worker processes.
        timeout: As for :class:`BotRunner`.
        decide: As for :class:`BotRunner` (a module-level function).
        max_tasks: The decisions a worker makes before it is replaced.

    Raises:
        ValueError: If ``workers`` is not a positive integer, or ``timeout`` not a
            positive number.
        ModuleNotFoundError: If Pebble is not installed (the ``web`` extra).
    """

    def __init__(
        self,
        workers: int = 2,
        timeout: float = BOT_TIMEOUT,
        decide: Callable[[BotJob], Action] = decide,
        max_tasks: int = 1000,
    ) -> None:
        super().__init__(timeout, decide, workers)
        from pebble import ProcessPool

        self.max_tasks = max_tasks
        context = multiprocessing.get_context("spawn")
        # Where the workers tell the progress of long work (:meth:`compute`); read by a
        # thread of this process, started with the first such work.
        self._progress: multiprocessing.queues.Queue[tuple[int, int, int] | None] = context.Queue()
        self._listeners: dict[int, Progress] = {}
        self._tokens = itertools.count()
        self._reader: threading.Thread | None = None
        self._pool = ProcessPool(
            max_workers=workers,
            max_tasks=max_tasks,
            context=context,
            initializer=_start_worker,
            initargs=(self._progress,),
        )

    async def _run(self, job: BotJob) -> Action:
        future: Future[Action] = self._pool.schedule(self._decide, (job,), timeout=self.timeout)
        return await asyncio.wrap_future(future)

    async def _compute(
        self,
        work: Callable[[_Job, Progress | None], _Result],
        job: _Job,
        timeout: float,
        progress: Progress | None,
    ) -> _Result:
        """Run ``work`` in a worker process; its progress comes back through a queue."""
        token = next(self._tokens)
        if progress is not None:
            self._listeners[token] = progress
            if self._reader is None:
                self._reader = threading.Thread(
                    target=self._read_progress, name="bot-runner-progress", daemon=True
                )
                self._reader.start()
        try:
            future: Future[_Result] = self._pool.schedule(
                _with_progress,
                (work, job, token if progress is not None else None),
                timeout=timeout,
            )
            return await asyncio.wrap_future(future)
        finally:
            self._listeners.pop(token, None)

    def _read_progress(self) -> None:
        """Hand each ``(token, done, total)`` the workers tell to its listener."""
        while True:
            try:
                told = self._progress.get()
            except (EOFError, OSError):  # the queue was closed
                return
            if told is None:  # closed
                return
            token, done, total = told
            listener = self._listeners.get(token)
            if listener is not None:
                try:
                    listener(done, total)
                except Exception:
                    _logger.exception("a progress listener failed")

    def close(self) -> None:
        """As :meth:`BotRunner.close`."""
        self._pool.stop()  # type: ignore[no-untyped-call]
        self._pool.join(timeout=10)
        if self._reader is not None:
            self._progress.put(None)
            self._reader.join(timeout=5)
        self._progress.close()


_worker_progress: multiprocessing.queues.Queue[tuple[int, int, int] | None] | None = None
"""In a worker process of a :class:`ProcessBotRunner`: where progress is told."""


def _start_worker(queue: multiprocessing.queues.Queue[tuple[int, int, int] | None]) -> None:
    """The initializer of a worker process: keep the queue of progress."""
    global _worker_progress
    _worker_progress = queue


def _with_progress(
    work: Callable[[_Job, Progress | None], _Result], job: _Job, token: int | None
) -> _Result:
    """Run ``work`` in a worker process, telling its progress to the runner (if asked)."""
    queue = _worker_progress
    if token is None or queue is None:
        return work(job, None)

    def progress(done: int, total: int) -> None:
        with contextlib.suppress(Exception):  # progress is never worth failing for
            queue.put_nowait((token, done, total))

    return work(job, progress)
