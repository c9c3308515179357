"""Tournaments between bots: many games, seats rotated, in parallel on any executor.

:func:`run_tournament` plays ``games`` games between one bot per seat, given as
specifications (:func:`~cuckoo_rules.bots.parse_bot_spec`), import specifications of
your own bots (``"mypkg.bots:MyBot"``, :class:`~cuckoo_rules.bots.specs.BotImport`) or
*bot factories*: callables that make a bot from a seed (``factory(seed) -> Bot``, such
as a bot class whose first parameter is the seed). Games come in *sets* of
``players`` games that share a deal: game ``g`` uses the deal of set ``g // players``
and rotates the seats by ``g % players`` (seat ``k`` is played by entrant
``(k + g) % players``), so every entrant sits in every seat, and plays every hand of
the deal, equally often. This is why ``games`` must be a multiple of the number of
players. Every game is reproducible on its own from the options, the tournament seed and
its index (:func:`play_tournament_game`): the seeds of the deal and of each bot are
derived from them with SplitMix64 (:func:`derive_seed`), and a bot is built for each
game from its own seed, so a bot that draws its randomness from that seed alone plays
the same game on any worker.

**Parallelism.** Games are independent, so they are sent in small chunks to a
:class:`concurrent.futures.Executor`: by default a :class:`~concurrent.futures.ProcessPoolExecutor`
with ``workers`` processes (none for ``workers=1``), or any executor passed as
``executor``: a thread pool, or a ``dask.distributed`` cluster through
``Client.get_executor()`` when an experiment outgrows one machine (install the
``distributed`` extra)::

    from dask.distributed import Client
    with Client("tcp://scheduler:8786") as client:
        result = run_tournament(options, ["ismcts", "greedy"], 1000,
                                executor=client.get_executor())

The result does not depend on the executor or the number of workers, except for the
measured thinking times. Worker processes are sent the entrants by :mod:`pickle`: a
factory must then be a function or class defined at the top level of an importable
module (not a lambda, a nested function or one typed into the interactive prompt), or a
:func:`functools.partial` of one; with ``workers`` > 1, one that cannot be pickled is
refused with a :class:`~cuckoo_rules.bots.BotError` before any game is played.

**Accounting.** A game won by ``k`` seats together gives ``1/k`` of a victory to each.
An entrant's win rate is its share of victories divided by the number of games, with a
95% Wilson score interval (:func:`wilson_interval`; it treats each game as one
Bernoulli trial, which is exact without shared victories and close with few of them).
When the same specification is entered more than once, each entry keeps its own label:
the text followed by ``#1``, ``#2``, ... in seat order of the entries (``greedy#1``,
``greedy#2``), so the labels are unique.
"""

from __future__ import annotations

import concurrent.futures
import math
import multiprocessing
import pickle
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import attrs

from ..errors import short_repr
from ..options import GameOptions
from ..outcome import winner_shares
from ..rng import MASK64, SEED_LIMIT, splitmix64, stream_state
from .base import Bot, BotError
from .play import PlayedGame, play_game
from .specs import BotImport, BotSpec, checked_bot, parse_entrant

__all__ = [
    "BotFactory",
    "Entrant",
    "EntrantResult",
    "TournamentGame",
    "TournamentResult",
    "derive_seed",
    "entrant_labels",
    "play_tournament_game",
    "run_tournament",
    "seating",
    "wilson_interval",
    "worker_pool",
]

Progress = Callable[[int, int], object]
"""Called as ``progress(games_done, games_total)`` after each finished chunk."""

_Z95 = 1.959963984540054

BotFactory = Callable[[int], Bot]
"""Makes a bot from a seed: ``factory(seed) -> Bot`` (a bot class, a function, a partial)."""

Entrant = str | BotSpec | BotImport | BotFactory
"""What :func:`run_tournament` takes per seat: a specification (text or parsed), an
import specification, or a bot factory."""

_Parsed = BotSpec | BotImport | BotFactory


def derive_seed(seed: int, *path: int) -> int:
    """Derive a seed in ``[0, 2**64)`` from a base seed and a path of integers.

    Each step mixes one integer into the state with one SplitMix64 step of
    :func:`cuckoo_rules.rng.stream_state` (the engine's own generator), so different
    paths give unrelated seeds.

    Example:
        >>> derive_seed(1, 0, 5) == derive_seed(1, 0, 5) != derive_seed(1, 0, 6)
        True
    """
    value = seed & MASK64
    for part in path:
        _, value = splitmix64(stream_state(value, (part + 1) & MASK64))
    return value


def seating(index: int, players: int) -> tuple[int, ...]:
    """Return, for each seat of game ``index``, the entrant that plays it.

    Example:
        >>> [seating(g, 3) for g in range(3)]
        [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    """
    return tuple((seat + index) % players for seat in range(players))


def entrant_labels(texts: Sequence[str]) -> tuple[str, ...]:
    """Return a unique label for each entrant: its text, or ``text#k`` for repeats.

    Example:
        >>> entrant_labels(["ismcts", "greedy", "greedy"])
        ('ismcts', 'greedy#1', 'greedy#2')
    """
    labels: list[str] = []
    for index, text in enumerate(texts):
        total = texts.count(text)
        if total == 1:
            labels.append(text)
        else:
            labels.append(f"{text}#{texts[: index + 1].count(text)}")
    return tuple(labels)


def wilson_interval(successes: float, trials: int, z: float = _Z95) -> tuple[float, float]:
    """Return the Wilson score interval of a proportion (95% by default).

    Example:
        >>> low, high = wilson_interval(91, 100)
        >>> round(low, 3), round(high, 3)
        (0.838, 0.952)
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@attrs.frozen
class TournamentGame:
    """What the tournament keeps of one game.

    Attributes:
        index: The game's index in the tournament, from 0.
        seed: The seed of the deal.
        seating: For each seat, the index of the entrant that played it.
        winners: The winning seats.
        turns: Turns played.
        rounds: Rounds played.
        decisions: For each seat, the actions its bot chose.
        think_seconds: For each seat, its bot's thinking time (not compared by ``==``).
    """

    index: int
    seed: int
    seating: tuple[int, ...]
    winners: tuple[int, ...]
    turns: int
    rounds: int
    decisions: tuple[int, ...]
    think_seconds: tuple[float, ...] = attrs.field(eq=False)

    def shares(self) -> dict[int, float]:
        """Return each winning entrant's share of this game's victory (``1/k`` each)."""
        shares = winner_shares(self.winners, len(self.seating))
        result: dict[int, float] = {}
        for seat in self.winners:
            entrant = self.seating[seat]
            result[entrant] = result.get(entrant, 0.0) + shares[seat]
        return result


@attrs.frozen
class EntrantResult:
    """One entrant's results over a tournament.

    Attributes:
        label: The entrant's unique label (its specification, ``#k`` added for repeats).
        spec: The specification as given.
        games: Games played.
        victories: Share of victories (a victory shared by ``k`` seats counts ``1/k``).
        win_rate: ``victories / games``.
        interval: The 95% Wilson score interval of the win rate.
        decisions: Actions chosen over all games.
        think_seconds: Time spent choosing over all games (measured; not compared).
    """

    label: str
    spec: str
    games: int
    victories: float
    win_rate: float
    interval: tuple[float, float]
    decisions: int
    think_seconds: float = attrs.field(eq=False)

    @property
    def seconds_per_decision(self) -> float:
        """The mean thinking time per decision, in seconds."""
        return self.think_seconds / self.decisions if self.decisions else 0.0


@attrs.frozen
class TournamentResult:
    """The outcome of a tournament: per-entrant results and every game's summary.

    Attributes:
        options: The game options.
        seed: The tournament seed.
        specs: The entrants' specifications as given, in entrant order.
        entrants: Each entrant's results, in entrant order.
        games: Every game's summary, by index.
    """

    options: GameOptions
    seed: int
    specs: tuple[str, ...]
    entrants: tuple[EntrantResult, ...]
    games: tuple[TournamentGame, ...]

    @property
    def mean_turns(self) -> float:
        """The mean number of turns per game."""
        return sum(game.turns for game in self.games) / len(self.games)

    @property
    def mean_rounds(self) -> float:
        """The mean number of rounds per game."""
        return sum(game.rounds for game in self.games) / len(self.games)

    def to_json(self) -> dict[str, Any]:
        """Return the result as a JSON-ready dictionary.

        Keys: ``players``, ``games``, ``seed``, ``options``, ``bots`` (the
        specifications as given), ``labels``, ``win_rate``, ``victories``,
        ``interval95`` and ``seconds_per_decision`` (each keyed by label),
        ``mean_turns`` and ``mean_rounds``.
        """
        labels = [entrant.label for entrant in self.entrants]
        return {
            "players": self.options.num_players,
            "games": len(self.games),
            "seed": self.seed,
            "options": self.options.to_json(),
            "bots": list(self.specs),
            "labels": labels,
            "win_rate": {e.label: e.win_rate for e in self.entrants},
            "victories": {e.label: e.victories for e in self.entrants},
            "interval95": {e.label: list(e.interval) for e in self.entrants},
            "seconds_per_decision": {e.label: e.seconds_per_decision for e in self.entrants},
            "mean_turns": self.mean_turns,
            "mean_rounds": self.mean_rounds,
        }


def _specs_of(bots: Sequence[Entrant], players: int) -> tuple[_Parsed, ...]:
    if isinstance(bots, str):
        raise BotError("bots: expected a sequence of bot specs, got a string (split it first)")
    specs: list[_Parsed] = []
    for item in bots:
        if isinstance(item, str):
            specs.append(parse_entrant(item))
        elif isinstance(item, BotSpec | BotImport) or callable(item):
            specs.append(item)
        else:
            raise BotError(
                "bots: expected bot specs (strings or BotSpec) or bot factories (callables "
                f"that make a bot from a seed), got {short_repr(item)}; for a bot object, "
                "pass its class or a function that makes one from a seed"
            )
    if len(specs) != players:
        raise BotError(f"bots: expected {players} bots (one per player), got {len(specs)}")
    return tuple(specs)


def _label(spec: _Parsed) -> str:
    """An entrant's text: the specification as written, or the factory's name."""
    if isinstance(spec, BotSpec):
        return spec.text or spec.kind
    if isinstance(spec, BotImport):
        return spec.label
    inner = getattr(spec, "func", spec)  # a functools.partial names its function
    name = getattr(inner, "__name__", None) or type(inner).__name__
    return str(name)


def _build(spec: _Parsed, seed: int) -> Bot:
    if isinstance(spec, BotSpec | BotImport):
        return spec.build(seed)
    return checked_bot(spec(seed), f"bot factory {_label(spec)!r}")


def _check_picklable(specs: tuple[_Parsed, ...], workers: int) -> None:
    """Refuse a factory that cannot be sent to worker processes."""
    for spec in specs:
        if isinstance(spec, BotSpec | BotImport):
            continue
        try:
            pickle.dumps(spec)
        except Exception as error:  # pickling raises several kinds of errors
            raise BotError(
                f"bots: the bot factory {_label(spec)!r} cannot be sent to {workers} worker "
                f"processes, since it cannot be pickled ({error}); define it at the top "
                "level of a module (not as a lambda or nested function), or play with "
                "workers=1"
            ) from None


def play_tournament_game(
    options: GameOptions, bots: Sequence[Entrant], seed: int, index: int
) -> PlayedGame:
    """Play game ``index`` of a tournament, exactly as :func:`run_tournament` plays it.

    Args:
        options: The game options.
        bots: One specification or bot factory per entrant, in entrant order.
        seed: The tournament seed.
        index: The game's index, from 0.

    Returns:
        The played game (with its record); seat ``k`` is played by entrant
        ``seating(index, players)[k]``.

    Raises:
        BotError: If the bots do not fit the options.
    """
    players = options.num_players
    specs = _specs_of(bots, players)
    order = seating(index, players)
    deal = derive_seed(seed, 0, index // players)
    seat_bots = [
        _build(specs[e], derive_seed(seed, 1, index, seat)) for seat, e in enumerate(order)
    ]
    names = [_label(specs[e]) for e in order]
    return play_game(options, deal, seat_bots, names=names, event=f"tournament game {index}")


def _play_chunk(
    options: GameOptions, specs: tuple[_Parsed, ...], seed: int, indices: tuple[int, ...]
) -> list[TournamentGame]:
    """Play some games of a tournament (run in a worker)."""
    games: list[TournamentGame] = []
    for index in indices:
        played = play_tournament_game(options, specs, seed, index)
        games.append(
            TournamentGame(
                index,
                played.record.seed,
                seating(index, options.num_players),
                played.winners,
                played.turns,
                played.rounds,
                played.decisions,
                played.think_seconds,
            )
        )
    return games


def _chunks(games: int, size: int) -> Iterator[tuple[int, ...]]:
    for start in range(0, games, size):
        yield tuple(range(start, min(games, start + size)))


def run_tournament(
    options: GameOptions,
    bots: Sequence[Entrant],
    games: int,
    seed: int = 0,
    *,
    workers: int = 1,
    executor: concurrent.futures.Executor | None = None,
    progress: Progress | None = None,
    chunk_size: int | None = None,
) -> TournamentResult:
    """Play a tournament and return its results.

    Args:
        options: The game options (``options.num_players`` seats).
        bots: One entrant per seat: a bot specification, as text
            (``"ismcts:iterations=300"``) or parsed :class:`~cuckoo_rules.bots.BotSpec`;
            an import specification of a bot factory (``"mypkg.bots:MyBot"``); or a
            bot factory, a callable that makes a bot from a seed (picklable if
            ``workers`` > 1: defined at the top level of a module).
        games: The number of games, a positive multiple of the number of players.
        seed: The tournament seed, in ``[0, 2**64)``.
        workers: Worker processes when no executor is given (1: play in this process).
        executor: Any :class:`concurrent.futures.Executor` to play the games on (for
            example ``ThreadPoolExecutor``, ``ProcessPoolExecutor`` or a dask
            ``Client.get_executor()``); it is not shut down. ``workers`` is then only
            used to size the chunks.
        progress: Called as ``progress(done, total)`` as games finish.
        chunk_size: Games per task (default: small enough to keep every worker busy).

    Returns:
        Per-entrant results and a summary of every game, in game order.

    Raises:
        BotError: If the bots, games, seed or workers are invalid (a
            :class:`~cuckoo_rules.bots.BotSpecError` for a malformed specification or
            one that cannot be imported), or a factory cannot be pickled for the worker
            processes.

    Example:
        >>> from cuckoo_rules import GameOptions
        >>> result = run_tournament(GameOptions(num_players=2), ["greedy", "random"], 4, seed=1)
        >>> [entrant.label for entrant in result.entrants], len(result.games)
        (['greedy', 'random'], 4)
    """
    if not isinstance(options, GameOptions):
        raise BotError(f"options: expected GameOptions, got {options!r}")
    players = options.num_players
    specs = _specs_of(bots, players)
    if type(games) is not int or games < 1 or games % players:
        raise BotError(
            f"games: {games!r} is not a positive multiple of {players} (the number of "
            "players), so the seats cannot be rotated equally"
        )
    if type(seed) is not int or not 0 <= seed < SEED_LIMIT:
        raise BotError(f"seed: {seed!r} is not an integer in [0, 2**64)")
    if type(workers) is not int or workers < 1:
        raise BotError(f"workers: {workers!r} is not a positive integer")
    if chunk_size is None:
        chunk_size = max(1, min(8, games // (8 * workers)))
    elif type(chunk_size) is not int or chunk_size < 1:
        raise BotError(f"chunk_size: {chunk_size!r} is not a positive integer")
    chunks = list(_chunks(games, chunk_size))
    played: list[TournamentGame] = []
    if executor is None and workers == 1:
        for chunk in chunks:
            played += _play_chunk(options, specs, seed, chunk)
            if progress is not None:
                progress(len(played), games)
    elif executor is None:
        _check_picklable(specs, workers)
        with worker_pool(workers) as pool:
            played = _run_on(pool, options, specs, seed, chunks, games, progress)
    else:
        played = _run_on(executor, options, specs, seed, chunks, games, progress)
    played.sort(key=lambda game: game.index)
    return _summarise(options, seed, specs, tuple(played))


def worker_pool(workers: int) -> concurrent.futures.ProcessPoolExecutor:
    """A pool of ``workers`` processes for tournaments, started fresh (``spawn``).

    A forked worker would inherit the parent's threads, and a parent that has run the
    expert's parallel kernels holds an OpenMP thread pool that GNU OpenMP forbids to
    fork (the child is killed); fresh processes import the library again instead.
    """
    return concurrent.futures.ProcessPoolExecutor(
        max_workers=workers, mp_context=multiprocessing.get_context("spawn")
    )


def _run_on(
    executor: concurrent.futures.Executor,
    options: GameOptions,
    specs: tuple[_Parsed, ...],
    seed: int,
    chunks: list[tuple[int, ...]],
    games: int,
    progress: Progress | None,
) -> list[TournamentGame]:
    futures = [executor.submit(_play_chunk, options, specs, seed, chunk) for chunk in chunks]
    played: list[TournamentGame] = []
    try:
        for future in concurrent.futures.as_completed(futures):
            played += future.result()
            if progress is not None:
                progress(len(played), games)
    except BaseException:
        for future in futures:
            future.cancel()
        raise
    return played


def _summarise(
    options: GameOptions,
    seed: int,
    specs: tuple[_Parsed, ...],
    games: tuple[TournamentGame, ...],
) -> TournamentResult:
    players = options.num_players
    texts = [_label(spec) for spec in specs]
    labels = entrant_labels(texts)
    victories = [0.0] * players
    decisions = [0] * players
    think = [0.0] * players
    for game in games:
        for entrant, share in game.shares().items():
            victories[entrant] += share
        for seat, entrant in enumerate(game.seating):
            decisions[entrant] += game.decisions[seat]
            think[entrant] += game.think_seconds[seat]
    count = len(games)
    entrants = tuple(
        EntrantResult(
            labels[e],
            texts[e],
            count,
            victories[e],
            victories[e] / count,
            wilson_interval(victories[e], count),
            decisions[e],
            think[e],
        )
        for e in range(players)
    )
    return TournamentResult(options, seed, tuple(texts), entrants, games)
