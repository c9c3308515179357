"""The web server's tables: setup, seat tokens, human and bot moves, and what a seat sees.

A :class:`Lobby` owns the :class:`~cuckoo_rules.web.store.Store` and every
:class:`Table` in memory. A table is a :class:`~cuckoo_rules.Match` (``None`` at the
human seats, a :class:`SeatBot` at each bot seat) and only ever hands out a seat's view
and the events redacted for that seat, with the numbering of the match's events. Every
accepted action, a human's or a bot's, is committed to the store by the match's
``on_action`` hook before the match takes it, so replaying the stored actions
(:meth:`Match.from_record <cuckoo_rules.Match.from_record>`) rebuilds the table exactly;
:meth:`Lobby.open` does that on start.

Bots are rebuilt for every decision with the seed ``derive_seed(bot_seed, seat, move)``
(:func:`~cuckoo_rules.bots.derive_seed`) of the table's secret bot seed, the seat and
the move number, and a bot that follows the game (has ``inform``) is informed of the
seat's whole history before it chooses (:class:`SeatBot`), so their choices are a
function of the history alone and do not depend on when the server was restarted.

A hint (:meth:`Table.hint_position`, :func:`encode_hint`) is computed from the seat's
view and :meth:`Match.knowledge <cuckoo_rules.Match.knowledge>` only, never from the
state, so it cannot tell the seat more than its own history does.

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
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from ..actions import Action, Draw, FlyHome, Lay, Phase
from ..bots.specs import BotSpec, parse_bot_spec
from ..bots.tournament import derive_seed
from ..cards import SPECIES
from ..codec import decode_options, encode_action, encode_event, encode_view
from ..engine import legal_actions
from ..errors import CuckooError, DecodeError, IllegalActionError
from ..errors import short_repr as _describe
from ..events import Captured, DeclinedDraw, Drew, Event, FlewHome, GameOver, GameStarted, Laid
from ..knowledge import Knowledge
from ..match import BotError, Match, MatchError
from ..narration import PHRASES, describe_event, narrate, seat_name
from ..options import MAX_PLAYERS, MIN_PLAYERS, GameOptions
from ..outcome import Outcome, win_progress
from ..preview import ActionPreview, birds_home, preview
from ..records import GameRecord
from ..rng import SEED_LIMIT
from ..state import GameState
from ..views import PlayerView, observe
from .store import StorageError, Store, StoredTable, TableSetup

if TYPE_CHECKING:  # the expert needs the batch extra; only its result's type is named here
    from ..bots.expert import ActionEstimate

__all__ = [
    "HUMAN",
    "MAX_EXPERT_SIMULATIONS",
    "MAX_ISMCTS_ITERATIONS",
    "MAX_ISMCTS_SECONDS",
    "MAX_SPEC_LENGTH",
    "ApiError",
    "BadRequest",
    "Conflict",
    "HintPosition",
    "Lobby",
    "NewTable",
    "NotAvailable",
    "NotFound",
    "PayloadTooLarge",
    "SeatBot",
    "Table",
    "Unauthorized",
    "describe_move",
    "encode_hint",
    "encode_outcome",
    "encode_preview",
    "hash_token",
    "parse_new_table",
]

HUMAN = "human"
"""The seat entry of a seat played by a person (through a token)."""

MAX_ISMCTS_ITERATIONS = 5000
"""The most ``iterations`` an ``ismcts`` seat may be given (about 0.6 s a decision)."""

MAX_ISMCTS_SECONDS = 1.0
"""The most ``seconds`` an ``ismcts`` or ``expert`` seat may be given per decision."""

MAX_EXPERT_SIMULATIONS = 20000
"""The most ``simulations`` an ``expert`` seat may be given (about 1 s a decision)."""

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


class NotAvailable(ApiError):
    """The server lacks an optional part the request needs (hints: the ``batch`` extra)."""

    status = 501


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
    simulations = params.get("simulations")
    if simulations is not None and simulations > MAX_EXPERT_SIMULATIONS:
        raise BadRequest(
            f"{path}: bot spec {spec.text!r}: simulations {simulations} is above this "
            f"server's limit of {MAX_EXPERT_SIMULATIONS}"
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


# --------------------------------------------------------------------------- documents


def encode_preview(seen: ActionPreview) -> dict[str, Any]:
    """Return the JSON document of an :class:`~cuckoo_rules.preview.ActionPreview`.

    ``{"captured": [species ids], "refilled": bool, "draw_offered": bool or null,
    "birds_home": n, "discarded": n}``, the fields of the preview (``captured`` left to
    right as in the row).

    Example:
        >>> from cuckoo_rules import Species
        >>> encode_preview(ActionPreview(captured=(Species.OWL,), refilled=True))
        {'captured': ['owl'], 'refilled': True, 'draw_offered': False, 'birds_home': 0, \
'discarded': 0}
    """
    return {
        "captured": [species.value for species in seen.captured],
        "refilled": seen.refilled,
        "draw_offered": seen.draw_offered,
        "birds_home": seen.birds_home,
        "discarded": seen.discarded,
    }


def encode_outcome(
    outcome: Outcome | None, viewer: int | None = None, names: Sequence[str] | None = None
) -> dict[str, Any] | None:
    """Return the JSON document of an outcome, with its sentences for ``viewer``.

    ``{"winners", "reason", "shares", "text", "reason_text"}``: the outcome's fields,
    the sentence of the narration that ends the game as ``viewer`` (a seat, or ``None``
    for a spectator) reads it (:func:`~cuckoo_rules.narration.describe_event` of its
    :class:`~cuckoo_rules.GameOver`), and the reason alone in words. ``None`` (a game
    not over) gives ``None``.

    Args:
        outcome: The outcome, or ``None``.
        viewer: The reader, who is "you" in ``text``.
        names: The names shown after the seat numbers, as for the narration.

    Example:
        >>> encode_outcome(Outcome((0,), "two_triples", (1.0, 0.0)), 0)
        {'winners': [0], 'reason': 'two_triples', 'shares': [1.0, 0.0], 'text': 'Game \
over: you win (two triples in a collection).', 'reason_text': 'two triples in a collection'}
    """
    if outcome is None:
        return None
    text = describe_event(GameOver(outcome.winners, outcome.reason), viewer, names=names)
    return {
        "winners": list(outcome.winners),
        "reason": outcome.reason,
        "shares": list(outcome.shares),
        "text": text,
        "reason_text": PHRASES["en"][f"reason.{outcome.reason}"],
    }


def describe_move(action: Action, view: PlayerView) -> str:
    """What ``action`` would do, in the sentence the narration tells the seat's own move in.

    The sentence is :func:`~cuckoo_rules.narration.narrate` of the events the action
    would make, as far as the seat's view tells them (:func:`~cuckoo_rules.preview.preview`
    says what a lay captures and what a flock keeps): the narration's words, addressed to
    "you", made from nothing the seat cannot see.

    Args:
        action: One of the legal actions of ``view``.
        view: The view of the seat to act.

    Raises:
        IllegalActionError: If ``action`` is not legal in ``view``.
        ViewError: If ``view`` is not the view of the seat to act.

    Example:
        >>> from cuckoo_rules import GameOptions, Side, Species, new_game, observe
        >>> view = observe(new_game(GameOptions(num_players=2), 7), 0)
        >>> describe_move(Lay(Species.DUCK, 0, Side.LEFT), view)
        'You lay 3 ducks on the left of row 0 and capture 1 robin and 1 magpie.'
    """
    seen = preview(view, action)  # checks that the action is legal for the viewer
    seat = view.current_player
    events: list[Event]
    if isinstance(action, Lay):
        held = view.hand[action.species.index] if view.hand is not None else 0
        events = [Laid(seat, action.species, held, action.row, action.side)]
        if seen.captured:
            events.append(Captured(seat, action.row, seen.captured))
    elif isinstance(action, FlyHome):
        revealed = seen.birds_home + seen.discarded
        events = [FlewHome(seat, action.species, revealed, seen.birds_home)]
    elif isinstance(action, Draw):
        events = [Drew(seat, 2, None)]  # the optional draw takes two cards (rules §3.1)
    elif view.phase is Phase.DRAW:
        events = [DeclinedDraw(seat)]
    else:  # a pass at the flock step, which the narration does not tell (bookkeeping)
        return "You fly no flock home."
    return " ".join(narrate(events, seat))


@attrs.frozen
class HintPosition:
    """What a hint is computed from: the seat's view and knowledge, at one move.

    Attributes:
        move: The table's move number then (the move the hint answers).
        view: The seat's view; the seat is to act.
        knowledge: What the seat's own history proves beyond the view
            (:meth:`Match.knowledge <cuckoo_rules.Match.knowledge>`).
    """

    move: int
    view: PlayerView
    knowledge: Knowledge


def encode_hint(
    position: HintPosition, estimates: Sequence[ActionEstimate], simulations: int
) -> dict[str, Any]:
    """Return the JSON document of a hint: the expert's best moves, best first.

    ``{"move": n, "simulations": s, "hints": [{"action", "text", "win_chance"}, ...]}``:
    the move the hint answers, the search's budget, and per move its action document
    (:func:`~cuckoo_rules.encode_action`), what it would do in words
    (:func:`describe_move`) and the estimated chance of winning after it, in ``[0, 1]``
    (:class:`~cuckoo_rules.bots.expert.ActionEstimate`).

    Args:
        position: What the hint was computed from.
        estimates: The result of :func:`cuckoo_rules.bots.expert.hint` on it.
        simulations: The budget the search was given.
    """
    return {
        "move": position.move,
        "simulations": simulations,
        "hints": [
            {
                "action": encode_action(estimate.action),
                "text": describe_move(estimate.action, position.view),
                "win_chance": estimate.win_chance,
            }
            for estimate in estimates
        ],
    }


def _hand_flocks(view: PlayerView) -> dict[str, int] | None:
    """For each species of the viewer's hand, the birds a flock of it would fly home."""
    hand = view.hand
    if hand is None:
        return None
    return {s.value: birds_home(s, hand[s.index]) for s in SPECIES if hand[s.index]}


def _narration(
    events: tuple[Event, ...], seat: int | None, names: tuple[str, ...]
) -> list[str | None]:
    """One sentence (or ``None``, for bookkeeping events) per event, as ``seat`` reads it."""
    return [describe_event(event, seat, names=names) for event in events]


# --------------------------------------------------------------------------- tables


class SeatBot:
    """The bot at one seat of a table: its spec's bot, built afresh for every decision.

    A table's bots must choose the same whether the server ran all along or was
    restarted in the middle (:meth:`Lobby.open` rebuilds every table from its stored
    actions), so no bot object lives from one decision to the next. The
    :class:`~cuckoo_rules.Match` informs this object of the seat's view and events
    after every action (:meth:`inform`), which it keeps; at each decision
    :meth:`choose` builds the spec's bot with the seed ``derive_seed(bot_seed, seat,
    move)`` and, if that bot follows the game (has ``inform``, as ``ismcts`` does),
    informs it of the whole history kept, then asks it to choose. A fresh bot informed
    of the whole history knows exactly what a bot informed all along would know, and
    the history is the same after a restart (:meth:`Match.from_record
    <cuckoo_rules.Match.from_record>` informs the seats of every stored action).

    The move number is counted from the same calls: ``inform`` comes once at the start
    (with the setup, a :class:`~cuckoo_rules.GameStarted`) and once after every action.

    Args:
        spec: The seat's bot specification.
        bot_seed: The table's secret seed, from which every decision's seed derives.
        seat: The seat.

    Raises:
        BotSpecError: If the spec does not build a bot.

    Attributes:
        spec: The seat's bot specification.
        bot_seed: The table's secret bot seed.
        seat: The seat.
        move: The number of the next move (the actions the seat was informed of).
    """

    __slots__ = ("_follows", "_history", "bot_seed", "move", "seat", "spec")

    def __init__(self, spec: BotSpec, bot_seed: int, seat: int) -> None:
        self.spec = spec
        self.bot_seed = bot_seed
        self.seat = seat
        self.move = 0
        self._follows = callable(getattr(spec.build(0), "inform", None))
        # Every inform call since the start, if the spec's bot follows the game.
        self._history: list[tuple[PlayerView, tuple[Event, ...]]] = []

    def inform(self, view: PlayerView, events: tuple[Event, ...]) -> None:
        """Keep what the seat saw of an action, or of the setup of a new game.

        Args:
            view: The seat's view after the action (or the first view of the game).
            events: The action's events as the seat saw them, or the setup of a new
                game (a :class:`~cuckoo_rules.GameStarted`), which forgets the history
                kept and starts the move count again.
        """
        if events and type(events[0]) is GameStarted:
            self.move = 0
            self._history.clear()
        else:
            self.move += 1
        if self._follows:
            self._history.append((view, events))

    def choose(self, view: PlayerView) -> Action:
        """Build the bot of this decision, inform it of the history, and let it choose.

        Args:
            view: The seat's view, the seat being to act.

        Returns:
            The bot's action.
        """
        bot = self.spec.build(derive_seed(self.bot_seed, self.seat, self.move))
        inform = getattr(bot, "inform", None)
        if self._follows and callable(inform):
            for seen, events in self._history:
                inform(seen, events)
        return bot.choose(view)

    def __repr__(self) -> str:
        return f"SeatBot({self.spec.text or self.spec.kind!r}, seat={self.seat})"


@attrs.frozen
class _Published:
    """A table at one moment, between two actions: what every reader reads.

    The match changes in a worker thread while readers build documents in another, so a
    table publishes this after each action, and a document is built from one of them:
    never half a move.
    """

    state: GameState
    move: int
    event_count: int


def _bot_names(seats: tuple[str, ...]) -> tuple[str, ...]:
    """The names the narration shows after the seat numbers: a bot's kind, else none."""
    return tuple("" if kind == HUMAN else kind.split(":")[0] for kind in seats)


class Table:
    """One game being played: its setup, its :class:`~cuckoo_rules.Match` and its lock.

    Moves (:meth:`play`, :meth:`run_bots`) must be called by one caller at a time: the web
    layer holds :attr:`lock` around them. Readers (:meth:`document`, :meth:`check_after`,
    :meth:`bots_to_act`) need no lock: they read the table as it was after the last
    action, even while a move is being made.

    Args:
        setup: How the table was set up.
        store: Where its actions are committed.
        actions: The actions taken so far (those stored), replayed.

    Raises:
        CuckooError: If the setup or the actions do not make a game (a bad bot spec, an
            illegal action: :meth:`restore` reports it as a :class:`StorageError`).

    Attributes:
        setup: How the table was set up.
        lock: Serializes the moves on this table (an :class:`asyncio.Lock`).
        match: The game; its ``on_action`` commits every action to the store.
        names: The seats' names, as the narration writes them for a spectator (``"P0"``,
            ``"P1 greedy"``: a bot's kind after its seat number).
    """

    def __init__(self, setup: TableSetup, store: Store, actions: tuple[Action, ...] = ()) -> None:
        self.setup = setup
        self.lock = asyncio.Lock()
        self._store = store
        seats = tuple(
            None if kind == HUMAN else SeatBot(parse_bot_spec(kind), setup.bot_seed, seat)
            for seat, kind in enumerate(setup.seats)
        )
        self._narration_names = _bot_names(setup.seats)
        self.names = tuple(
            seat_name(s, None, names=self._narration_names) for s in range(len(seats))
        )
        self.match = Match.from_record(
            GameRecord(setup.options, setup.seed, actions),
            seats,
            names=self.names,
            on_action=self._commit,
        )
        self._published = self._now()
        # The move at which a bot last failed: asked again for the same move, it would
        # fail the same way (same seed, same history), so it is not asked again.
        self._bot_failed_at: int | None = None

    @classmethod
    def start(cls, setup: TableSetup, store: Store) -> Table:
        """Return a new table: the game just dealt, no action yet (nothing is stored)."""
        return cls(setup, store)

    @classmethod
    def restore(cls, stored: StoredTable, store: Store) -> Table:
        """Rebuild a table by replaying its stored actions.

        Raises:
            StorageError: If the stored options, seats or actions are not valid.
        """
        try:
            return cls(stored.setup, store, stored.actions)
        except CuckooError as error:
            raise StorageError(f"table {stored.setup.id!r}: {error}") from None

    @property
    def id(self) -> str:
        """The table id."""
        return self.setup.id

    @property
    def move(self) -> int:
        """The number of the next move, as readers see it (the actions taken and stored)."""
        return self._published.move

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
        published = self._published
        state = published.state
        return (
            not state.is_over
            and self.match.seats[state.current_player] is not None
            and self._bot_failed_at != published.move
        )

    def check_after(self, after: int) -> None:
        """Check that ``after`` is an event number of this table (at most ``next_event``).

        Events are only ever added, so a checked ``after`` stays valid for
        :meth:`document`, even after moves.

        Raises:
            BadRequest: If it is beyond the last event.
        """
        count = self._published.event_count
        if after > count:
            raise BadRequest(
                f"after: {after} is beyond the last event (this table has {count} events; "
                "pass the next_event of the previous answer)"
            )

    def hint_position(self, seat: int) -> HintPosition:
        """Return what a hint for ``seat`` is computed from now: its view and knowledge.

        It reads the match itself (the knowledge is folded over the seat's events), so
        like the moves it must be called by one caller at a time, with :attr:`lock`
        held: the view and the knowledge are then of the same moment.

        Args:
            seat: The seat asking (a human's).

        Raises:
            Conflict: If the game is over or ``seat`` is not to act; the message gives
                the table's move number.
        """
        match = self.match
        if match.is_over:
            raise Conflict(f"the game is over: no hint (the match is at move {match.move})")
        if seat != match.to_act:
            raise Conflict(
                f"it is not your turn: player {match.to_act} is to act (the match is at "
                f"move {match.move})"
            )
        return HintPosition(match.move, match.view(seat), match.knowledge(seat))

    def play(self, seat: int, action: Action, move: int | None = None) -> None:
        """Take ``action`` for the human ``seat``, commit it, then let the bots act.

        A bot that fails is logged (:meth:`run_bots`): the human's action stands.

        Args:
            seat: The seat acting (a human's).
            action: Its action.
            move: The move number the client answers (the ``move`` of the document it
                answers), or ``None`` to skip that check.

        Raises:
            Conflict: If ``move`` is not the table's move (the action was already
                played, for example a request sent twice), the game is over, ``seat``
                is not to act, or the action is not legal; nothing is stored then.
        """
        match = self.match
        if move is None or move == match.move:  # else the match refuses the stale move
            if match.is_over:
                raise Conflict("the game is over")
            if seat != match.to_act:
                raise Conflict(f"it is not your turn: player {match.to_act} is to act")
        try:
            match.act(seat, action, move=move)
        except (MatchError, IllegalActionError) as error:
            raise Conflict(str(error)) from None
        self._published = self._now()
        self.run_bots()

    def run_bots(self) -> None:
        """Let the bots act, committing each action, until a human is to act or it is over.

        A failure is logged, not raised, and the table waits. A bot that failed (raised, or
        chose an illegal action) is not asked again for the same move, as it would fail the
        same way; a failure to store its action is retried at the next call.
        """
        match = self.match
        while self.bots_to_act():
            move = match.move
            try:
                match.play_bot()
            except BotError:
                self._bot_failed_at = move
                _logger.exception(
                    "table %s: the bot of seat %s failed at move %d; it will not be asked "
                    "again for this move",
                    self.id,
                    match.to_act,
                    move,
                )
                return
            except Exception:
                _logger.exception(
                    "table %s: a bot's action was not stored; will try again", self.id
                )
                return
            self._published = self._now()

    def _commit(self, move: int, action: Action) -> None:
        """The match's ``on_action``: store (committed) the action before it is taken."""
        self._store.add_action(self.id, move, action)

    def _now(self) -> _Published:
        match = self.match
        return _Published(match.state, match.move, match.event_count)

    def document(self, seat: int | None, after: int = 0) -> dict[str, Any]:
        """Return what ``seat`` (``None``: a spectator) may see, as a JSON object.

        The keys, in this order (see ``docs/web.md``):

        - ``table``, ``seat``, ``seats`` (``"human"`` or the bot spec of each seat) and
          ``names`` (``"P0"``, ``"P1 greedy"``: each seat as the narration names it to
          a spectator; the narration calls the reader's own seat "you");
        - ``move``: the number of the next move, which a ``POST`` of an action may give
          to be refused if the table moved on meanwhile;
        - ``view``: the seat's view document;
        - ``outcome``: ``{"winners", "reason", "shares", "text", "reason_text"}`` once
          the game is over (:func:`encode_outcome`), else ``null``;
        - ``progress``: per seat, its collection's ``{"species", "triples", "cards"}``
          (:func:`~cuckoo_rules.outcome.win_progress`);
        - ``hand_flocks``: for each species of the seat's hand, the birds a flock of it
          would fly home now (0, 1 or 2); ``null`` for a spectator;
        - ``legal_actions``: the seat's legal actions in canonical order, empty unless it
          is to act, and ``previews``, parallel to it: what each would do
          (:func:`encode_preview` of :func:`~cuckoo_rules.preview.preview` on the
          seat's view, so it reveals nothing the seat cannot see);
        - ``events``: the events numbered ``after`` and up, redacted for ``seat``, and
          ``narration``, parallel to it: a sentence per event, or ``null`` for
          bookkeeping events (:func:`~cuckoo_rules.narration.describe_event` of the
          redacted event, for ``seat``);
        - ``next_event``: the number of events so far (the ``after`` of the next
          request).

        ``after`` must have passed :meth:`check_after`. The document is built from one
        moment of the table, between two actions.
        """
        published = self._published
        view = observe(published.state, seat)
        legal = legal_actions(view) if view.is_my_turn else ()
        events = self.match.events(seat, after)[: published.event_count - after]
        return {
            "table": self.id,
            "seat": seat,
            "seats": list(self.setup.seats),
            "names": list(self.names),
            "move": published.move,
            "view": encode_view(view),
            "outcome": encode_outcome(view.outcome, seat, self._narration_names),
            "progress": [attrs.asdict(win_progress(c)) for c in view.collections],
            "hand_flocks": _hand_flocks(view),
            "legal_actions": [encode_action(action) for action in legal],
            "previews": [encode_preview(preview(view, action)) for action in legal],
            "events": [encode_event(event) for event in events],
            "narration": _narration(events, seat, self._narration_names),
            "next_event": published.event_count,
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
