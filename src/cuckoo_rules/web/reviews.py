"""The review of a finished game on the web server: computed once, in turns, kept and pushed.

A review (:func:`cuckoo_rules.bots.review.review`) runs the expert's search at every
decision of a game: a minute or more of a worker. So the server makes one only when
someone asks for it (``POST /api/tables/{id}/review``), never at every game's end (most
finished games are never looked back at, and a table of bots alone would make one for
nobody), and only once per table:

- :class:`ReviewQueue` runs each review on the bot workers
  (:meth:`BotRunner.compute <cuckoo_rules.web.bots.BotRunner.compute>`), in the turns of
  the client that asked for it (as a bot's decision takes them), and at most
  :attr:`ReviewQueue.slots` at once (all the workers but one), so the bots of every table
  always have a worker and a hint never waits for a review (hints have their own queue,
  :class:`~cuckoo_rules.web.shares.HintQueue`). Reviews waiting for their turn are
  bounded, in all (:data:`REVIEW_QUEUE`) and per client
  (:data:`REVIEW_QUEUE_PER_CLIENT`): beyond, 429.
- A review done is kept in the store (:meth:`Store.add_review
  <cuckoo_rules.web.stores.base.Store.add_review>`) and in memory: asking again, after a
  restart too, computes nothing.
- Its progress and, once it is ready, the review itself are pushed on the table's stream
  (:func:`~cuckoo_rules.web.streams.table_messages`, ``event: review``): watchers
  register with :meth:`ReviewQueue.watch`.

A review holds every seat's decisions, and the chance the expert gave each of their legal
moves: what each seat held. It is made, kept and shown only for a game that is over
(:func:`check_over`), when the deal's seed is shown to everyone anyway.

The answer (:func:`encode_answer`) is the library's document
(:func:`cuckoo_rules.bots.review.encode_review`) with, for each reviewed seat, its
costliest moves (:data:`REVIEW_COSTLIEST`), each with the position as that seat saw it
before the move (its view) and what the move played and the best one would do, in words
(:func:`~cuckoo_rules.web.documents.describe_move`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Literal

import attrs
from starlette.concurrency import run_in_threadpool

from ..codec import decode_action, encode_view
from ..records import GameRecord, replay
from ..views import observe
from .bots import BotRunner, Progress
from .documents import describe_move
from .errors import Conflict, NotAvailable, NotFound, StorageUnavailable, TooManyRequests
from .shares import FairShares
from .stores.base import Store
from .table import Table

__all__ = [
    "REVIEW_COSTLIEST",
    "REVIEW_QUEUE",
    "REVIEW_QUEUE_PER_CLIENT",
    "REVIEW_TIMEOUT",
    "Review",
    "ReviewJob",
    "ReviewQueue",
    "check_over",
    "compute_review",
    "encode_answer",
    "not_ready",
]

REVIEW_QUEUE = 64
"""The most reviews waiting for their turn on a server, in all (more get 429)."""

REVIEW_QUEUE_PER_CLIENT = 4
"""The most reviews one client has waiting for their turn (more get 429)."""

REVIEW_TIMEOUT = 1800.0
"""The longest a review may take, in seconds, before its worker is stopped."""

REVIEW_COSTLIEST = 3
"""The costliest moves of each seat the answer shows, with their positions."""

_KEPT = 64  # reviews done kept in memory (the store keeps them all)

_NO_REVIEW = (
    "reviews need the expert, which needs the batch extra (NumPy and numba): "
    "pip install 'cuckoo-rules[batch]'"
)

_logger = logging.getLogger(__name__)

ReviewStatus = Literal["queued", "computing", "ready", "failed"]


@attrs.frozen
class ReviewJob:
    """One review to compute, in plain values that can be sent to a worker process.

    Attributes:
        record: The finished game.
        simulations: The budget, or ``None`` for the library's default
            (:data:`cuckoo_rules.bots.review.DEFAULT_REVIEW_SIMULATIONS`).
        seed: The review's seed.
    """

    record: GameRecord
    simulations: int | None = None
    seed: int = 0


def compute_review(job: ReviewJob, progress: Progress | None = None) -> tuple[int, str]:
    """Review a game: what a worker runs (:meth:`ReviewQueue.work` by default).

    Args:
        job: The game and the budget.
        progress: Called with ``(done, total)`` after each position.

    Returns:
        The budget used and the review's JSON document, as text.

    Raises:
        ModuleNotFoundError: Without the batch extra.
    """
    from ..bots.review import DEFAULT_REVIEW_SIMULATIONS, encode_review, review

    simulations = DEFAULT_REVIEW_SIMULATIONS if job.simulations is None else job.simulations
    found = review(job.record, simulations=simulations, seed=job.seed, progress=progress)
    text = json.dumps(encode_review(found), ensure_ascii=False, separators=(",", ":"))
    return simulations, text


def check_over(table: Table) -> None:
    """Refuse a review of a game that is not over (409): it would show what seats hold.

    Raises:
        Conflict: If the game is in progress, or the table expired before its end.
    """
    match = table.match
    if match.is_over:
        return
    if table.status == "expired":
        raise Conflict(
            "the table expired before the end of its game: there is no review of a "
            "game that did not end",
            move=match.move,
            key="web.error.review_expired",
        )
    raise Conflict(
        f"the game is not over (it is at move {match.move}): a review shows every "
        "seat's decisions, so it is made only once the game is over",
        move=match.move,
        key="web.error.review_not_over",
    )


class Review:
    """The review of one table: waiting, being computed, ready or failed.

    Attributes:
        table_id: The table.
        status: ``"queued"``, ``"computing"``, ``"ready"`` or ``"failed"``.
        done: The positions reviewed so far (while computing, where the runner tells).
        total: The positions to review (0 while unknown).
        simulations: The budget (once ready).
        document: The review's JSON document, as text (once ready).
        error: Why it failed (once failed).
        answers: The answers built so far, by language (:func:`encode_answer`).
    """

    __slots__ = (
        "answers",
        "document",
        "done",
        "error",
        "simulations",
        "status",
        "table_id",
        "total",
    )

    def __init__(self, table_id: str, status: ReviewStatus = "queued") -> None:
        self.table_id = table_id
        self.status: ReviewStatus = status
        self.done = 0
        self.total = 0
        self.simulations = 0
        self.document: str | None = None
        self.error: str | None = None
        self.answers: dict[str, dict[str, Any]] = {}

    @property
    def pending(self) -> bool:
        """Whether it is waiting or being computed."""
        return self.status in ("queued", "computing")

    @property
    def key(self) -> tuple[str, int, int]:
        """What a stream compares to know whether to push it again."""
        return (self.status, self.done, self.total)

    def progress(self) -> dict[str, Any]:
        """``{"table", "status", "done", "total"}`` (and ``"error"`` if it failed)."""
        document: dict[str, Any] = {
            "table": self.table_id,
            "status": self.status,
            "done": self.done,
            "total": self.total,
        }
        if self.error is not None:
            document["error"] = self.error
        return document


class ReviewQueue:
    """The reviews of a server: one per finished table, each computed once, in turns.

    Args:
        runner: The bot runner whose workers compute them.
        store: Where reviews done are kept.
        simulations: The budget of each review (``None``: the library's default).
        max_waiting: The most reviews waiting, in all (:data:`REVIEW_QUEUE`).
        max_waiting_per_client: The most reviews of one client waiting
            (:data:`REVIEW_QUEUE_PER_CLIENT`).
        timeout: The longest one review may take, in seconds.
        slots: The most reviews computed at once (all the runner's workers but one,
            at least one, by default).

    Raises:
        ValueError: If a number is out of range.

    Attributes:
        simulations: As given.
        shares: The turns of the reviews waiting (per client, then per table).
        work: The function a worker runs (:func:`compute_review`; a module-level
            function for a process runner).
        computed: How many reviews were computed.
    """

    def __init__(
        self,
        runner: BotRunner,
        store: Store,
        simulations: int | None = None,
        max_waiting: int = REVIEW_QUEUE,
        max_waiting_per_client: int = REVIEW_QUEUE_PER_CLIENT,
        timeout: float = REVIEW_TIMEOUT,
        slots: int | None = None,
    ) -> None:
        if simulations is not None and (type(simulations) is not int or simulations < 1):
            raise ValueError(
                f"review_simulations: expected a positive integer, got {simulations!r}"
            )
        for name, value in (
            ("review_queue", max_waiting),
            ("review_queue_per_client", max_waiting_per_client),
        ):
            if type(value) is not int or value < 1:
                raise ValueError(f"{name}: expected a positive integer, got {value!r}")
        if not isinstance(timeout, int | float) or not 0 < timeout <= 86400:
            raise ValueError(f"review timeout: expected seconds in (0, 86400], got {timeout!r}")
        self.runner = runner
        self.store = store
        self.simulations = simulations
        self.max_waiting = max_waiting
        self.max_waiting_per_client = max_waiting_per_client
        self.timeout = float(timeout)
        self.shares = FairShares(max(1, runner.workers - 1) if slots is None else slots)
        self.work: Callable[[ReviewJob, Progress | None], tuple[int, str]] = compute_review
        self.computed = 0
        self._reviews: dict[str, Review] = {}  # pending and failed ones
        self._ready: OrderedDict[str, Review] = OrderedDict()  # done, least recent first
        self._waiting: dict[str, int] = {}  # client -> its reviews waiting for their turn
        self._watchers: dict[str, set[Callable[[], None]]] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    # ----------------------------------------------------------------- reading

    def find(self, table_id: str) -> Review | None:
        """The review of a table this process knows in memory, or ``None``."""
        ready = self._ready.get(table_id)
        if ready is not None:
            self._ready.move_to_end(table_id)
            return ready
        return self._reviews.get(table_id)

    async def load(self, table: Table) -> Review | None:
        """The review of ``table``: in memory, else the one kept in the store, else ``None``.

        Raises:
            Conflict: If the game is not over (:func:`check_over`).
        """
        check_over(table)
        found = self.find(table.id)
        if found is not None:
            return found
        kept = await run_in_threadpool(self.store.review, table.id)
        if kept is None:
            return None
        review = Review(table.id, "ready")
        review.simulations, review.document = kept
        self._keep(review)
        return review

    async def answer(self, review: Review, table: Table, language: str) -> dict[str, Any]:
        """The answer of a review ready (:func:`encode_answer`), built once per language."""
        built = review.answers.get(language)
        if built is None:
            assert review.document is not None
            record = table.match.record()
            built = await run_in_threadpool(
                encode_answer, table.id, record, review.simulations, review.document, language
            )
            review.answers = {**review.answers, language: built}
        return built

    async def message(self, review: Review, table: Table, language: str) -> dict[str, Any]:
        """What a stream pushes of a review: its progress, or its answer once ready."""
        if review.status == "ready":
            return await self.answer(review, table, language)
        return review.progress()

    # ----------------------------------------------------------------- asking

    async def request(self, table: Table, client: str) -> Review:
        """The review of ``table``: the one ready or under way, else a new one, queued.

        A review that failed is queued again.

        Args:
            table: A table whose game is over.
            client: Who asks (the key the server's limits count by), in whose turn it is
                computed.

        Raises:
            Conflict: If the game is not over.
            NotAvailable: Without the batch extra (no expert to review with).
            TooManyRequests: If the reviews waiting are at their bound, in all or for the
                client.
        """
        found = await self.load(table)
        if found is not None and found.status != "failed":
            return found
        try:
            import cuckoo_rules.bots.review  # noqa: F401 (the expert needs the batch extra)
        except ModuleNotFoundError:
            raise NotAvailable(_NO_REVIEW) from None
        self._check_room(client)
        review = Review(table.id)
        self._reviews[table.id] = review
        self._waiting[client] = self._waiting.get(client, 0) + 1
        job = ReviewJob(table.match.record(), self.simulations)
        task = asyncio.get_running_loop().create_task(self._run(review, job, client))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        self._notify(table.id)
        return review

    def _check_room(self, client: str) -> None:
        waiting = sum(self._waiting.values())
        if waiting >= self.max_waiting:
            raise TooManyRequests(
                f"this server has {waiting} reviews waiting to be computed, its limit; try "
                "again later",
                retry_after=60,
                key="web.error.review_busy",
            )
        if self._waiting.get(client, 0) >= self.max_waiting_per_client:
            raise TooManyRequests(
                f"you have {self.max_waiting_per_client} reviews waiting to be computed, the "
                "limit per client; ask again when one is ready",
                retry_after=60,
                key="web.error.review_busy",
            )

    def _stop_waiting(self, client: str, waited: list[bool]) -> None:
        if waited[0]:
            waited[0] = False
            left = self._waiting[client] - 1
            if left:
                self._waiting[client] = left
            else:
                del self._waiting[client]

    async def _run(self, review: Review, job: ReviewJob, client: str) -> None:
        """Wait for the review's turn, compute it, keep it and tell the watchers."""
        loop = asyncio.get_running_loop()
        table_id = review.table_id
        waited = [True]

        def progress(done: int, total: int) -> None:  # in the worker's thread
            def update() -> None:
                if review.status == "computing" and done >= review.done:
                    review.done, review.total = done, total
                    self._notify(table_id)

            loop.call_soon_threadsafe(update)

        try:
            async with self.shares.turn(client, table_id):
                self._stop_waiting(client, waited)
                review.status = "computing"
                self._notify(table_id)
                simulations, document = await self.runner.compute(
                    self.work,
                    job,
                    client=client,
                    table=table_id,
                    timeout=self.timeout,
                    progress=progress,
                )
            self.computed += 1
            try:
                await run_in_threadpool(self.store.add_review, table_id, simulations, document)
            except StorageUnavailable as error:  # kept in memory; computed again after a restart
                _logger.warning("table %s: could not keep its review: %s", table_id, error)
            review.simulations, review.document = simulations, document
            review.done = review.total
            review.status = "ready"
            if self._reviews.get(table_id) is review:
                del self._reviews[table_id]
            self._keep(review)
        except asyncio.CancelledError:
            review.status, review.error = "failed", "the server stopped"
            raise
        except Exception as error:
            _logger.exception("table %s: the review failed", table_id)
            review.status = "failed"
            review.error = f"{type(error).__name__}: {str(error)[:200]}"
        finally:
            self._stop_waiting(client, waited)
            self._notify(table_id)

    def _keep(self, review: Review) -> None:
        self._ready[review.table_id] = review
        self._ready.move_to_end(review.table_id)
        while len(self._ready) > _KEPT:
            self._ready.popitem(last=False)

    # ----------------------------------------------------------------- watching

    def watch(self, table_id: str, callback: Callable[[], None]) -> Callable[[], None]:
        """Call ``callback()`` (in the event loop) whenever the review of a table changes.

        Returns:
            A function that stops the calls.
        """
        self._watchers.setdefault(table_id, set()).add(callback)

        def unwatch() -> None:
            callbacks = self._watchers.get(table_id)
            if callbacks is not None:
                callbacks.discard(callback)
                if not callbacks:
                    del self._watchers[table_id]

        return unwatch

    def _notify(self, table_id: str) -> None:
        for callback in list(self._watchers.get(table_id, ())):
            try:
                callback()
            except Exception:
                _logger.exception("a watcher of the review of table %s failed", table_id)

    def close(self) -> None:
        """Cancel every review waiting or being computed (at shut-down)."""
        for task in list(self._tasks):
            task.cancel()


def encode_answer(
    table_id: str, record: GameRecord, simulations: int, document: str, language: str = "en"
) -> dict[str, Any]:
    """The answer of ``GET /api/tables/{id}/review``: the review and its costliest moves.

    ``{"table", "status": "ready", "simulations", "review", "costliest"}``: ``review`` is
    the library's document (``cuckoo-rules/review``: the chances of every seat before
    each move, each decision's estimates); ``costliest`` has, for each reviewed seat,
    ``{"seat", "decisions", "average_cost", "moves"}``: the number of its decisions, the
    mean cost of its moves, and its :data:`REVIEW_COSTLIEST` costliest moves (those that
    cost something), biggest first, each ``{"move", "seat", "cost", "view", "chosen",
    "best"}``: the position as the seat saw it before the move (the view document) and,
    for the move played and the best one, ``{"action", "text", "win_chance"}``.

    Args:
        table_id: The table.
        record: Its game, over.
        simulations: The review's budget.
        document: The review's JSON document, as text.
        language: The language of the texts.
    """
    review: dict[str, Any] = json.loads(document)
    states = list(replay(record))
    decisions: list[dict[str, Any]] = list(review.get("decisions", []))
    costliest = []
    for seat in review.get("seats", []):
        mine = [decision for decision in decisions if decision["seat"] == seat]
        costly = sorted(
            (decision for decision in mine if decision["cost"] > 0),
            key=lambda decision: (-decision["cost"], decision["move"]),
        )[:REVIEW_COSTLIEST]
        average = math.fsum(decision["cost"] for decision in mine) / len(mine) if mine else 0.0
        costliest.append(
            {
                "seat": seat,
                "decisions": len(mine),
                "average_cost": average,
                "moves": [_moment(decision, states, language) for decision in costly],
            }
        )
    return {
        "table": table_id,
        "status": "ready",
        "simulations": simulations,
        "review": review,
        "costliest": costliest,
    }


def _moment(decision: dict[str, Any], states: list[Any], language: str) -> dict[str, Any]:
    """A costly move: the position the seat saw, the move played and the best one."""
    view = observe(states[decision["move"]], decision["seat"])

    def told(action: dict[str, Any], chance: float) -> dict[str, Any]:
        text = describe_move(decode_action(action), view, language)
        return {"action": action, "text": text, "win_chance": chance}

    return {
        "move": decision["move"],
        "seat": decision["seat"],
        "cost": decision["cost"],
        "view": encode_view(view),
        "chosen": told(decision["chosen"], decision["chosen_chance"]),
        "best": told(decision["best"], decision["best_chance"]),
    }


def not_ready(review: Review | None) -> NotFound:
    """The 404 of ``GET .../review`` while there is no review ready."""
    if review is None:
        return NotFound("this table has no review yet: ask for one with POST /api/tables/ID/review")
    if review.status == "failed":
        return NotFound(
            f"the review failed ({review.error}): ask for one again with POST",
            key="web.error.review_not_ready",
        )
    if review.status == "queued":
        return NotFound(
            "the review is waiting for its turn: it is pushed on the stream when ready",
            key="web.error.review_not_ready",
        )
    return NotFound(
        f"the review is being computed ({review.done} of {review.total} positions): it is "
        "pushed on the stream when ready",
        key="web.error.review_not_ready",
    )
