"""The web server's tables: setup, seat tokens, human and bot moves, and what a seat sees.

A :class:`Lobby` owns the :class:`~cuckoo_rules.web.store.Store` and every
:class:`Table` in memory. A table keeps the full state and the full event log and only
ever hands out a seat's view (:func:`~cuckoo_rules.observe`) and the events redacted for
that seat (:func:`~cuckoo_rules.visible_events`). Every accepted action, a human's or a
bot's, is committed to the store before the table moves on, so replaying the stored
actions rebuilds the table exactly; :meth:`Lobby.open` does that on start.

Bots are rebuilt for every decision with the seed ``derive_seed(bot_seed, seat, index)``
(:func:`~cuckoo_rules.bots.derive_seed`) of the table's secret bot seed, the seat and
the action's index, so their choices do not depend on when the server was restarted.
A bot that uses knowledge (:class:`~cuckoo_rules.bots.KnowledgeBot`) is given what its
seat learned from the events it saw since the deal (:func:`~cuckoo_rules.learn`), a
function of the history alone, so neither does it.

Nothing here knows HTTP; errors are :class:`ApiError` subclasses whose ``status`` is the
HTTP status the web layer answers with.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import os
import secrets
from collections.abc import Mapping
from typing import Any, ClassVar

import attrs

from ..actions import Action
from ..bots.base import choose_action, wants_knowledge
from ..bots.specs import BotSpec, parse_bot_spec
from ..bots.tournament import derive_seed
from ..codec import decode_options, encode_action, encode_event, encode_view
from ..engine import legal_actions, new_game, step
from ..errors import CuckooError, DecodeError, IllegalActionError
from ..errors import short_repr as _describe
from ..events import Event, visible_events
from ..knowledge import Knowledge, learn_each
from ..options import MAX_PLAYERS, MIN_PLAYERS, GameOptions
from ..records import GameRecord, replay_steps
from ..rng import SEED_LIMIT
from ..state import GameState
from ..views import observe
from .store import StorageError, Store, StoredTable, TableSetup

__all__ = [
    "HUMAN",
    "MAX_ISMCTS_ITERATIONS",
    "MAX_ISMCTS_SECONDS",
    "MAX_SPEC_LENGTH",
    "ApiError",
    "BadRequest",
    "Conflict",
    "Lobby",
    "NewTable",
    "NotFound",
    "PayloadTooLarge",
    "Snapshot",
    "Table",
    "Unauthorized",
    "hash_token",
    "parse_new_table",
]

HUMAN = "human"
"""The seat entry of a seat played by a person (through a token)."""

MAX_ISMCTS_ITERATIONS = 5000
"""The most ``iterations`` an ``ismcts`` seat may be given (about 0.6 s a decision)."""

MAX_ISMCTS_SECONDS = 1.0
"""The most ``seconds`` an ``ismcts`` seat may be given per decision."""

MAX_SPEC_LENGTH = 200
"""The longest seat entry accepted, in characters."""

_logger = logging.getLogger(__name__)


# --------------------------------------------------------------------------- errors


class ApiError(CuckooError):
    """A refused request: the message says what was wrong, ``status`` is the HTTP status."""

    status: ClassVar[int] = 400


class BadRequest(ApiError):
    """The request is malformed: not JSON, wrong shape, bad action, options or seat."""

    status = 400


class Unauthorized(ApiError):
    """A token is missing where one is needed, or it is not one of this table's."""

    status = 401


class NotFound(ApiError):
    """There is no such table."""

    status = 404


class Conflict(ApiError):
    """The action is not legal now: not the seat's turn, illegal, or the game is over."""

    status = 409


class PayloadTooLarge(ApiError):
    """The request body is larger than the server accepts."""

    status = 413


# --------------------------------------------------------------------------- setup


@attrs.frozen
class NewTable:
    """A checked request for a new table.

    Attributes:
        options: The game options; ``num_players`` equals the number of seats.
        seed: The game seed, or ``None`` to draw a secret one.
        seats: Per seat, ``"human"`` or a bot spec (as written, whitespace removed).
    """

    options: GameOptions
    seed: int | None
    seats: tuple[str, ...]


_NEW_TABLE_KEYS = ("options", "seed", "seats")


def parse_new_table(data: object) -> NewTable:
    """Check the JSON body of ``POST /api/tables``.

    The body is ``{"seats": [...], "options": {...}, "seed": 42}``; ``options`` and
    ``seed`` are optional. Each seat is ``"human"`` or a bot spec such as ``"greedy"``;
    at least one seat is human. An omitted option takes its default, and
    ``num_players`` defaults to the number of seats (and must equal it if given).

    Raises:
        BadRequest: If the body is not of this shape; the message names the field, for
            example ``"seats[1]: bot spec 'gredy': unknown bot 'gredy' (choose from
            random, greedy, ismcts)"``.

    Example:
        >>> parse_new_table({"seats": ["human", "greedy"]}).options.num_players
        2
        >>> parse_new_table({"seats": ["human", "greedy"], "options": {"num_players": 3}})
        Traceback (most recent call last):
        ...
        cuckoo_rules.web.tables.BadRequest: options.num_players: 3 does not match the 2 seats
    """
    if not isinstance(data, dict):
        raise BadRequest(
            'body: expected a JSON object such as {"seats": ["human", "greedy"]}, '
            f"got {_describe(data)}"
        )
    for key in data:
        if key not in _NEW_TABLE_KEYS:
            raise BadRequest(f"body: unknown key {key!r} (expected options, seed, seats)")
    if "seats" not in data:
        raise BadRequest('body: missing key \'seats\' (e.g. "seats": ["human", "greedy"])')
    seats = _parse_seats(data["seats"])
    options = _parse_options(data.get("options", {}), len(seats))
    seed = data.get("seed")
    if seed is not None and (type(seed) is not int or not 0 <= seed < SEED_LIMIT):
        raise BadRequest(f"seed: expected an integer in [0, 2**64), got {_describe(seed)}")
    return NewTable(options, seed, seats)


def _parse_seats(data: object) -> tuple[str, ...]:
    if not isinstance(data, list):
        raise BadRequest(f"seats: expected an array of seats, got {_describe(data)}")
    if not MIN_PLAYERS <= len(data) <= MAX_PLAYERS:
        raise BadRequest(f"seats: expected {MIN_PLAYERS} to {MAX_PLAYERS} seats, got {len(data)}")
    seats: list[str] = []
    for index, item in enumerate(data):
        path = f"seats[{index}]"
        if not isinstance(item, str):
            raise BadRequest(f"{path}: expected 'human' or a bot spec, got {_describe(item)}")
        if len(item) > MAX_SPEC_LENGTH:
            raise BadRequest(f"{path}: longer than {MAX_SPEC_LENGTH} characters")
        if item.strip() == HUMAN:
            seats.append(HUMAN)
            continue
        try:
            spec = parse_bot_spec(item)
        except CuckooError as error:
            raise BadRequest(f"{path}: {error} (or 'human')") from None
        _check_budget(spec, path)
        seats.append(spec.text)
    if HUMAN not in seats:
        raise BadRequest("seats: at least one seat must be 'human'")
    return tuple(seats)


def _check_budget(spec: BotSpec, path: str) -> None:
    """Refuse bots that would think for too long on each decision."""
    params = dict(spec.params)
    iterations = params.get("iterations")
    if iterations is not None and iterations > MAX_ISMCTS_ITERATIONS:
        raise BadRequest(
            f"{path}: bot spec {spec.text!r}: iterations {iterations} is above this "
            f"server's limit of {MAX_ISMCTS_ITERATIONS}"
        )
    seconds = params.get("seconds")
    if seconds is not None and seconds > MAX_ISMCTS_SECONDS:
        raise BadRequest(
            f"{path}: bot spec {spec.text!r}: seconds {seconds:g} is above this "
            f"server's limit of {MAX_ISMCTS_SECONDS:g}"
        )


def _parse_options(data: object, players: int) -> GameOptions:
    if not isinstance(data, dict):
        raise BadRequest(f"options: expected an object, got {_describe(data)}")
    merged = {**GameOptions(num_players=players).to_json(), **data}
    try:
        options = decode_options(merged)
    except DecodeError as error:
        raise BadRequest(str(error)) from None
    if options.num_players != players:
        raise BadRequest(
            f"options.num_players: {options.num_players} does not match the {players} seats"
        )
    return options


def hash_token(token: str) -> str:
    """Return the SHA-256 hex digest of a seat token, as stored.

    Tokens carry 256 random bits, so a plain hash cannot be reversed by guessing.
    """
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


# --------------------------------------------------------------------------- tables


@attrs.frozen
class Snapshot:
    """A table at one moment; replaced as a whole, so readers never see half a move.

    Attributes:
        state: The full state (never sent to anybody).
        events: Every event since the deal, hidden cards included.
        actions: The number of actions taken (and stored).
    """

    state: GameState
    events: tuple[Event, ...]
    actions: int


class Table:
    """One game being played: its setup, its current snapshot and its lock.

    Moves (:meth:`play`, :meth:`run_bots`) must be called by one caller at a time: the web
    layer holds :attr:`lock` around them. Readers (:meth:`document`) need no lock.

    Args:
        setup: How the table was set up.
        store: Where its actions are committed.
        snapshot: Its state now (after replaying the stored actions).

    Attributes:
        setup: How the table was set up.
        lock: Serializes the moves on this table (an :class:`asyncio.Lock`).
        snapshot: The table now.
    """

    def __init__(self, setup: TableSetup, store: Store, snapshot: Snapshot) -> None:
        self.setup = setup
        self.lock = asyncio.Lock()
        self.snapshot = snapshot
        self._store = store
        self._bots = tuple(None if seat == HUMAN else parse_bot_spec(seat) for seat in setup.seats)
        # What each bot seat that uses knowledge learned from the events it saw: the fold
        # of learn over the events so far, then brought up to date by each commit.
        start = Knowledge.at_setup(new_game(setup.options, setup.seed))
        known = {
            seat: start
            for seat, spec in enumerate(self._bots)
            if spec is not None and wants_knowledge(spec.build(0))
        }
        self._known = learn_each(known, snapshot.events)
        # The number of actions when a bot last failed: asked again for the same move, it
        # would fail the same way (same seed, same view), so it is not asked again.
        self._bot_failed_at: int | None = None

    @classmethod
    def start(cls, setup: TableSetup, store: Store) -> Table:
        """Return a new table: the game just dealt, no action yet (nothing is stored)."""
        return cls(setup, store, Snapshot(new_game(setup.options, setup.seed), (), 0))

    @classmethod
    def restore(cls, stored: StoredTable, store: Store) -> Table:
        """Rebuild a table by replaying its stored actions (with ``step``, for the events).

        Raises:
            StorageError: If the stored options, seats or actions are not valid.
        """
        setup = stored.setup
        try:
            steps = list(replay_steps(GameRecord(setup.options, setup.seed, stored.actions)))
            events = tuple(event for _, new in steps for event in new)
            return cls(setup, store, Snapshot(steps[-1][0], events, len(stored.actions)))
        except CuckooError as error:
            raise StorageError(f"table {setup.id!r}: {error}") from None

    @property
    def id(self) -> str:
        """The table id."""
        return self.setup.id

    def seat_of(self, token: str | None) -> int | None:
        """Return the seat a token belongs to; ``None`` (a spectator) without a token.

        Raises:
            Unauthorized: If the token is not one of this table's.
        """
        if token is None:
            return None
        digest = hash_token(token)
        seat = None
        for index, stored in enumerate(self.setup.token_hashes):
            if stored is not None and hmac.compare_digest(stored, digest):
                seat = index
        if seat is None:
            raise Unauthorized("the token is not one of this table's seats")
        return seat

    def bots_to_act(self) -> bool:
        """Whether the game is on and a bot is to act that has not failed at this move."""
        snapshot = self.snapshot
        state = snapshot.state
        return (
            not state.is_over
            and self._bots[state.current_player] is not None
            and self._bot_failed_at != snapshot.actions
        )

    def check_after(self, after: int) -> None:
        """Check that ``after`` is an event number of this table (at most ``next_event``).

        Events are only ever added, so a checked ``after`` stays valid for
        :meth:`document`, even after moves.

        Raises:
            BadRequest: If it is beyond the last event.
        """
        count = len(self.snapshot.events)
        if after > count:
            raise BadRequest(
                f"after: {after} is beyond the last event (this table has {count} events; "
                "pass the next_event of the previous answer)"
            )

    def play(self, seat: int, action: Action) -> None:
        """Take ``action`` for the human ``seat``, commit it, then let the bots act.

        A bot that fails is logged (:meth:`run_bots`): the human's action stands.

        Raises:
            Conflict: If the game is over, ``seat`` is not to act, or the action is not
                legal; nothing is stored then.
        """
        state = self.snapshot.state
        if state.is_over:
            raise Conflict("the game is over")
        if seat != state.current_player:
            raise Conflict(f"it is not your turn: player {state.current_player} is to act")
        try:
            self._commit(action)
        except IllegalActionError as error:
            raise Conflict(str(error)) from None
        self.run_bots()

    def run_bots(self) -> None:
        """Let the bots act, committing each action, until a human is to act or it is over.

        A failure is logged, not raised, and the table waits. A bot that failed (raised, or
        chose an illegal action) is not asked again for the same move, as it would fail the
        same way; a failure to store its action is retried at the next call.
        """
        while self.bots_to_act():
            snapshot = self.snapshot
            seat = snapshot.state.current_player
            spec = self._bots[seat]
            assert spec is not None
            try:
                bot = spec.build(derive_seed(self.setup.bot_seed, seat, snapshot.actions))
                action = choose_action(bot, observe(snapshot.state, seat), self._known.get(seat))
                state, events = step(snapshot.state, action)
            except Exception:
                self._bot_failed_at = snapshot.actions
                _logger.exception(
                    "table %s: the bot of seat %d failed at action %d; it will not be asked "
                    "again for this move",
                    self.id,
                    seat,
                    snapshot.actions,
                )
                return
            try:
                self._publish(action, state, events)
            except Exception:
                _logger.exception(
                    "table %s: a bot's action was not stored; will try again", self.id
                )
                return

    def _commit(self, action: Action) -> None:
        """Apply, store (committed) and only then publish an action.

        Raises:
            IllegalActionError: If it is not legal; nothing changes.
        """
        self._publish(action, *step(self.snapshot.state, action))

    def _publish(self, action: Action, state: GameState, events: tuple[Event, ...]) -> None:
        """Store (committed) an action, then publish the state and events it led to."""
        snapshot = self.snapshot
        known = learn_each(self._known, events)
        self._store.add_action(self.id, snapshot.actions, action)
        self._known = known
        self.snapshot = Snapshot(state, snapshot.events + events, snapshot.actions + 1)

    def document(self, seat: int | None, after: int = 0) -> dict[str, Any]:
        """Return what ``seat`` (``None``: a spectator) may see, as a JSON object.

        ``{"table": id, "seat": seat, "seats": [...], "view": <view document>,
        "legal_actions": [...], "events": [...], "next_event": n}``: ``legal_actions``
        is empty unless ``seat`` is to act; ``events`` are the events numbered ``after``
        and up (``events[after:]``), redacted for ``seat``; ``next_event`` is the number
        of events so far (the ``after`` of the next request). ``after`` must have passed
        :meth:`check_after`.
        """
        snapshot = self.snapshot
        view = observe(snapshot.state, seat)
        legal = legal_actions(view) if view.is_my_turn else ()
        return {
            "table": self.id,
            "seat": seat,
            "seats": list(self.setup.seats),
            "view": encode_view(view),
            "legal_actions": [encode_action(action) for action in legal],
            "events": [encode_event(e) for e in visible_events(snapshot.events[after:], seat)],
            "next_event": len(snapshot.events),
        }


class Lobby:
    """Every table of a server, with the store they are kept in.

    Args:
        store: The store; :meth:`open` builds it and loads the tables.

    Attributes:
        store: The store.
        tables: The tables by id.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self.tables: dict[str, Table] = {}

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> Lobby:
        """Open (or create) a database and rebuild every table in it.

        Tables where a bot is to act (the server stopped between a human's move and the
        bots' answer) are played on until a human is to act.

        Raises:
            StorageError: If the database holds a table that does not replay.
            sqlite3.Error: If the file is not a usable database.
        """
        store = Store(path)
        try:
            lobby = cls(store)
            for stored in store.tables():
                table = Table.restore(stored, store)
                lobby.tables[table.id] = table
        except BaseException:
            store.close()
            raise
        for table in lobby.tables.values():
            table.run_bots()
        return lobby

    def close(self) -> None:
        """Close the store."""
        self.store.close()

    def get(self, table_id: str) -> Table:
        """Return a table by id.

        Raises:
            NotFound: If there is no such table.
        """
        table = self.tables.get(table_id)
        if table is None:
            raise NotFound(f"no table {table_id!r}")
        return table

    def create(self, request: NewTable) -> tuple[Table, Mapping[int, str]]:
        """Set up, store and start a table; the bots act if one of them is to start.

        Returns:
            The table and the token of each human seat (the only time they are known).
        """
        seed = secrets.randbelow(SEED_LIMIT) if request.seed is None else request.seed
        tokens = {
            seat: secrets.token_urlsafe(32)
            for seat, kind in enumerate(request.seats)
            if kind == HUMAN
        }
        setup = TableSetup(
            id=secrets.token_urlsafe(9),
            options=request.options,
            seed=seed,
            seats=request.seats,
            bot_seed=secrets.randbelow(SEED_LIMIT),
            token_hashes=tuple(
                hash_token(tokens[seat]) if seat in tokens else None
                for seat in range(len(request.seats))
            ),
        )
        table = Table.start(setup, self.store)
        self.store.add_table(setup)
        table.run_bots()
        self.tables[table.id] = table
        return table, tokens
