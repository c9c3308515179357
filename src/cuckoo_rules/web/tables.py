"""The web server's tables: setup, seat tokens, human and bot moves, and what a seat sees.

A :class:`Lobby` owns the :class:`~cuckoo_rules.web.store.Store` and every
:class:`Table` in memory. A table is a :class:`~cuckoo_rules.Match` (``None`` at the
human seats, a :class:`SeatBot` at each bot seat) and only ever hands out a seat's view
and the events redacted for that seat, with the numbering of the match's events. Every
accepted action, a human's or a bot's, is committed to the store by the match's
``on_action`` hook before the match takes it, so replaying the stored actions
(:meth:`Match.from_record <cuckoo_rules.Match.from_record>`) rebuilds the table exactly;
:meth:`Lobby.open` does that on start.

Bots decide in worker processes (:mod:`cuckoo_rules.web.bots`), off the request path: the
web layer runs :meth:`Table.run_bots` in a background task, which hands out a
:class:`~cuckoo_rules.web.bots.BotJob` (:meth:`Table.bot_job`), waits for the decision
*without* holding the table's lock, then takes the lock only to check that the table is
still at that move and commit the decision (:meth:`Table.play_decision`), stored with
its note if a stand-in played it; a decision for a position that changed meanwhile is
dropped. While a bot decides, :attr:`Table.thinking` names its seat. Bots are rebuilt for
every decision with the seed ``derive_seed(bot_seed, seat, move)``
(:func:`~cuckoo_rules.bots.derive_seed`) of the table's secret bot seed, the seat and
the move number, and a bot that follows the game (has ``inform``) is informed of the
seat's whole history before it chooses (:class:`SeatBot`), so their choices are a
function of the history alone and do not depend on when the server was restarted.

A hint (:meth:`Table.hint_position`, :func:`encode_hint`) is computed from the seat's
view and :meth:`Match.knowledge <cuckoo_rules.Match.knowledge>` only, never from the
state, so it cannot tell the seat more than its own history does.

Fair deals: a table with two or more human seats is always dealt from a seed the server
draws, and every table carries a commitment to its deal
(:func:`~cuckoo_rules.fairness.deal_commitment` of the seed and a secret salt), shown to
every seat from the start; the seed and the salt are shown once the game is over.

Seats and people: each human seat has a secret token; the creator holds the first human
seat, and a seat is *claimed* when its token is first used (:meth:`Table.claim`) or when
someone joins a free seat of a lobby table (:meth:`Table.join`, which gives the seat a
new token: its invitation token stops working). Players may give a name (at most
:data:`MAX_NAME_LENGTH` printable characters, :func:`parse_name`), shown in the
narration after the seat number. A finished game may have one rematch
(:meth:`Lobby.rematch`): the same seats, tokens, names and options, a new deal.

Watching: :meth:`Table.watch` registers a callback called (in whatever thread changed
the table) after every change a reader could see: a move, a bot starting to decide, a
claim, a join, a rematch, an expiry. The web layer's push stream waits on it.

Memory: a :class:`Lobby` keeps the open tables in memory and only a few finished or
expired ones (the most recently read); the others are read back from the store when
asked for. It refuses a new table beyond its limits (:class:`TooManyRequests`), and
tables with no move for a while expire (:meth:`Lobby.expire_idle`).

Nothing here knows HTTP; errors are :class:`ApiError` subclasses whose ``status`` is the
HTTP status the web layer answers with.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import hmac
import logging
import os
import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

import attrs
from anyio import to_thread

from .. import narration
from ..actions import Action, Draw, FlyHome, Lay, Phase
from ..bots.ismcts import DEFAULT_ITERATIONS
from ..bots.specs import BotSpec, parse_bot_spec
from ..bots.tournament import derive_seed
from ..cards import SPECIES
from ..codec import decode_options, encode_action, encode_event, encode_view
from ..engine import legal_actions
from ..errors import CuckooError, DecodeError, IllegalActionError
from ..errors import short_repr as _describe
from ..events import Captured, DeclinedDraw, Drew, Event, FlewHome, GameOver, GameStarted, Laid
from ..fairness import deal_commitment, new_salt
from ..knowledge import Knowledge
from ..match import BotError, Match, MatchError
from ..narration import describe_event, narrate, phrase, seat_name
from ..options import MAX_PLAYERS, MIN_PLAYERS, GameOptions
from ..outcome import Outcome, win_progress
from ..preview import ActionPreview, birds_home, preview
from ..records import GameRecord
from ..rng import SEED_LIMIT
from ..state import GameState
from ..views import PlayerView, observe
from .bots import BotJob, BotRunner, Decision
from .store import (
    LOBBY_LIMIT,
    LobbyEntry,
    MoveTaken,
    SeatState,
    Status,
    StorageError,
    StorageUnavailable,
    Store,
    StoredTable,
    TableSetup,
    free_seats,
    open_store,
)

if TYPE_CHECKING:  # the expert needs the batch extra; only its result's type is named here
    from ..bots.expert import ActionEstimate

__all__ = [
    "EXPIRE_AFTER",
    "FINISHED_KEPT",
    "HUMAN",
    "MAX_EXPERT_SIMULATIONS",
    "MAX_ISMCTS_ITERATIONS",
    "MAX_ISMCTS_SECONDS",
    "MAX_ISMCTS_WORK",
    "MAX_NAME_LENGTH",
    "MAX_OPEN_TABLES",
    "MAX_OPEN_TABLES_PER_CLIENT",
    "MAX_SPEC_LENGTH",
    "ApiError",
    "BadRequest",
    "Conflict",
    "Forbidden",
    "HintPosition",
    "Lobby",
    "NewTable",
    "NotAvailable",
    "NotFound",
    "PayloadTooLarge",
    "SeatBot",
    "ServiceUnavailable",
    "Table",
    "TooManyRequests",
    "Unauthorized",
    "describe_move",
    "encode_hint",
    "encode_lobby_entry",
    "encode_outcome",
    "encode_preview",
    "hash_token",
    "parse_name",
    "parse_new_table",
]

HUMAN = "human"
"""The seat entry of a seat played by a person (through a token)."""

MAX_ISMCTS_ITERATIONS = 5000
"""The most ``iterations`` an ``ismcts`` seat may be given (about 0.6 s a decision)."""

MAX_ISMCTS_WORK = MAX_ISMCTS_ITERATIONS * 10
"""The most work an ``ismcts`` seat may be given: ``iterations`` times the turns of each
rollout plus 5 (a rollout to the end, ``rollout_turns=-1``, counts 100 turns; the default,
one turn per player, 5), about 0.6 s a decision. So 5000 iterations with the default
rollouts, 476 with rollouts to the end of the game."""

MAX_ISMCTS_SECONDS = 1.0
"""The most ``seconds`` an ``ismcts`` or ``expert`` seat may be given per decision."""

MAX_EXPERT_SIMULATIONS = 20000
"""The most ``simulations`` an ``expert`` seat may be given (about 1 s a decision)."""

MAX_SPEC_LENGTH = 200
"""The longest seat entry accepted, in characters."""

MAX_NAME_LENGTH = 24
"""The longest name a player may give, in characters (after stripping spaces)."""

MAX_OPEN_TABLES = 1000
"""The most open tables a server holds, in all (more are refused with 429)."""

MAX_OPEN_TABLES_PER_CLIENT = 20
"""The most open tables one client address may have created (more are refused with 429)."""

EXPIRE_AFTER = 7 * 24 * 3600.0
"""Seconds without a move after which an open table expires (a week)."""

FINISHED_KEPT = 32
"""The finished or expired tables a lobby keeps in memory (the most recently read)."""

_logger = logging.getLogger(__name__)

_T = TypeVar("_T")


# --------------------------------------------------------------------------- errors


class ApiError(CuckooError):
    """A refused request: the message says what was wrong, ``status`` is the HTTP status.

    Args:
        message: What was wrong.
        move: The table's move number, sent with the error (a 409 of a stale move).
        retry_after: Seconds after which trying again may succeed (429, 503).

    Attributes:
        move: As given.
        retry_after: As given.
    """

    status: ClassVar[int] = 400

    def __init__(
        self, message: str, *, move: int | None = None, retry_after: int | None = None
    ) -> None:
        super().__init__(message)
        self.move = move
        self.retry_after = retry_after


class BadRequest(ApiError):
    """The request is malformed: not JSON, wrong shape, bad action, options or seat."""

    status = 400


class Unauthorized(ApiError):
    """A token is missing where one is needed, or it is not one of this table's."""

    status = 401


class Forbidden(ApiError):
    """The request is understood but not allowed: joining a table that is not in the lobby."""

    status = 403


class NotFound(ApiError):
    """There is no such table."""

    status = 404


class Conflict(ApiError):
    """The action is not legal now: not the seat's turn, illegal, or the game is over."""

    status = 409


class PayloadTooLarge(ApiError):
    """The request body is larger than the server accepts."""

    status = 413


class TooManyRequests(ApiError):
    """A limit is reached (open tables in all or per client); ``retry_after`` says when."""

    status = 429


class ServiceUnavailable(ApiError):
    """The storage cannot take a write now (a full disk); nothing was stored."""

    status = 503


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
        names: Per seat, the name given (stripped; ``""`` for none).
        lobby: Whether the table's free human seats are listed in the lobby.
    """

    options: GameOptions
    seed: int | None
    seats: tuple[str, ...]
    names: tuple[str, ...] = ()
    lobby: bool = False


_NEW_TABLE_KEYS = ("lobby", "names", "options", "seed", "seats")


def parse_new_table(data: object) -> NewTable:
    """Check the JSON body of ``POST /api/tables``.

    The body is ``{"seats": [...], "options": {...}, "seed": 42, "names": [...],
    "lobby": true}``; all but ``seats`` are optional. Each seat is ``"human"`` or a bot
    spec such as ``"greedy"``; at least one seat is human. ``names`` has one entry per
    seat, a name (:func:`parse_name`) or ``null``; ``lobby`` lists the table's free
    human seats in the lobby. An omitted option takes its default, and
    ``num_players`` defaults to the number of seats (and must equal it if given). A
    ``seed`` is refused when two or more seats are human: whoever chose it would know
    every hidden card, so the server draws the seed of a game between people itself.

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
            raise BadRequest(
                f"body: unknown key {_describe(key)} (expected {', '.join(_NEW_TABLE_KEYS)})"
            )
    if "seats" not in data:
        raise BadRequest('body: missing key \'seats\' (e.g. "seats": ["human", "greedy"])')
    seats = _parse_seats(data["seats"])
    options = _parse_options(data.get("options", {}), len(seats))
    seed = data.get("seed")
    if seed is not None and (type(seed) is not int or not 0 <= seed < SEED_LIMIT):
        raise BadRequest(f"seed: expected an integer in [0, 2**64), got {_describe(seed)}")
    if seed is not None and seats.count(HUMAN) > 1:
        raise BadRequest(
            "seed: a table with two or more human seats is dealt from a seed the server "
            "draws, so that no player knows the hidden cards; leave the seed out (a "
            "given seed is for a table with one human seat)"
        )
    names = _parse_names(data.get("names"), len(seats))
    lobby = data.get("lobby", False)
    if type(lobby) is not bool:
        raise BadRequest(f"lobby: expected true or false, got {_describe(lobby)}")
    return NewTable(options, seed, seats, names, lobby)


def parse_name(value: object, path: str) -> str:
    """Check a player's name: a string of printable characters, or ``null`` for none.

    The name is stripped of surrounding spaces; ``""`` and ``None`` give ``""`` (no
    name). It may have at most :data:`MAX_NAME_LENGTH` characters.

    Args:
        value: The name as sent.
        path: Where it was in the body, for the message (``"names[1]"``, ``"name"``).

    Raises:
        BadRequest: If it is not such a name; the message names ``path``.

    Example:
        >>> parse_name("  Ada ", "name"), parse_name(None, "name")
        ('Ada', '')
        >>> parse_name("x" * 25, "names[1]")
        Traceback (most recent call last):
        ...
        cuckoo_rules.web.tables.BadRequest: names[1]: 'xxxxxxxxxxxxxxxxxxxxxxxxx' is 25 \
characters long, more than the 24 a name may have
    """
    if value is None:
        return ""
    if not isinstance(value, str):
        raise BadRequest(f"{path}: expected a name (a string) or null, got {_describe(value)}")
    name = value.strip()
    if len(name) > MAX_NAME_LENGTH:
        raise BadRequest(
            f"{path}: {_describe(name)} is {len(name)} characters long, more than the "
            f"{MAX_NAME_LENGTH} a name may have"
        )
    bad = next((c for c in name if not c.isprintable()), None)
    if bad is not None:
        raise BadRequest(
            f"{path}: {_describe(name)} has a character that is not printable "
            f"(U+{ord(bad):04X}); a name is letters, digits, spaces and punctuation"
        )
    return name


def _parse_names(data: object, players: int) -> tuple[str, ...]:
    if data is None:
        return ("",) * players
    if not isinstance(data, list) or len(data) != players:
        raise BadRequest(
            f"names: expected an array of {players} names or nulls (one per seat), got "
            f"{_describe(data)}"
        )
    return tuple(parse_name(item, f"names[{index}]") for index, item in enumerate(data))


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
            f"{path}: bot spec {_describe(spec.text)}: iterations {iterations} is above this "
            f"server's limit of {MAX_ISMCTS_ITERATIONS}"
        )
    if spec.kind == "ismcts":  # a rollout to the end of the game costs about 100 turns
        turns = params.get("rollout_turns")
        per_iteration = 5 if turns is None else (100 if turns == -1 else int(turns))
        count = params.get("iterations", None if "seconds" in params else DEFAULT_ITERATIONS)
        work = int(count or 0) * (per_iteration + 5)
        if work > MAX_ISMCTS_WORK:
            most = MAX_ISMCTS_WORK // (per_iteration + 5)
            raise BadRequest(
                f"{path}: bot spec {_describe(spec.text)}: iterations {count} with rollout_turns "
                f"{turns} is above this server's limit ({most} iterations with these "
                "rollouts: each rollout turn costs time)"
            )
    simulations = params.get("simulations")
    if simulations is not None and simulations > MAX_EXPERT_SIMULATIONS:
        raise BadRequest(
            f"{path}: bot spec {_describe(spec.text)}: simulations {simulations} is above this "
            f"server's limit of {MAX_EXPERT_SIMULATIONS}"
        )
    seconds = params.get("seconds")
    if seconds is not None and seconds > MAX_ISMCTS_SECONDS:
        raise BadRequest(
            f"{path}: bot spec {_describe(spec.text)}: seconds {seconds:g} is above this "
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
    outcome: Outcome | None,
    viewer: int | None = None,
    names: Sequence[str] | None = None,
    language: str = "en",
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
        language: The language of ``text`` and ``reason_text``
            (:data:`cuckoo_rules.narration.LANGUAGES`).

    Example:
        >>> encode_outcome(Outcome((0,), "two_triples", (1.0, 0.0)), 0)
        {'winners': [0], 'reason': 'two_triples', 'shares': [1.0, 0.0], 'text': 'Game \
over: you win (two triples in a collection).', 'reason_text': 'two triples in a collection'}
    """
    if outcome is None:
        return None
    ended = GameOver(outcome.winners, outcome.reason)
    text = describe_event(ended, viewer, names=names, language=language)
    return {
        "winners": list(outcome.winners),
        "reason": outcome.reason,
        "shares": list(outcome.shares),
        "text": text,
        "reason_text": narration.PHRASES[language][f"reason.{outcome.reason}"],
    }


def describe_move(action: Action, view: PlayerView, language: str = "en") -> str:
    """What ``action`` would do, in the sentence the narration tells the seat's own move in.

    The sentence is :func:`~cuckoo_rules.narration.narrate` of the events the action
    would make, as far as the seat's view tells them (:func:`~cuckoo_rules.preview.preview`
    says what a lay captures and what a flock keeps): the narration's words, addressed to
    "you", made from nothing the seat cannot see.

    Args:
        action: One of the legal actions of ``view``.
        view: The view of the seat to act.
        language: One of :data:`cuckoo_rules.narration.LANGUAGES`.

    Raises:
        IllegalActionError: If ``action`` is not legal in ``view``.
        ViewError: If ``view`` is not the view of the seat to act.
        NarrationError: If ``language`` is unknown.

    Example:
        >>> from cuckoo_rules import GameOptions, Side, Species, new_game, observe
        >>> view = observe(new_game(GameOptions(num_players=2), 7), 0)
        >>> describe_move(Lay(Species.DUCK, 0, Side.LEFT), view)
        'You lay 3 ducks on the left of row 0 and capture 1 robin and 1 magpie.'
        >>> describe_move(Lay(Species.DUCK, 0, Side.LEFT), view, "de")
        'Du legst 3 Enten links an Reihe 0 an und nimmst 1 Rotkehlchen und 1 Elster auf die Hand.'
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
        return phrase("web.hint.no_flock", language)
    return " ".join(narrate(events, seat, language=language))


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
    position: HintPosition,
    estimates: Sequence[ActionEstimate],
    simulations: int,
    language: str = "en",
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
        language: The language of the texts, one of
            :data:`cuckoo_rules.narration.LANGUAGES`.
    """
    return {
        "move": position.move,
        "simulations": simulations,
        "hints": [
            {
                "action": encode_action(estimate.action),
                "text": describe_move(estimate.action, position.view, language),
                "win_chance": estimate.win_chance,
            }
            for estimate in estimates
        ],
    }


def encode_lobby_entry(entry: LobbyEntry) -> dict[str, Any]:
    """Return the JSON document of a table of the lobby (``GET /api/lobby``).

    ``{"table", "seats", "players", "free", "options", "created"}``: the table id, its
    seats (``"human"`` or a bot spec), each seat's name (the one given, a bot's kind, or
    ``null``), the human seats free to join, the JSON options object and when it was
    created (ISO 8601, UTC). Nothing secret: no token, no seed.
    """
    setup = entry.setup
    return {
        "table": setup.id,
        "seats": list(setup.seats),
        "players": list(_players(setup.seats, setup.names)),
        "free": list(entry.free),
        "options": setup.options.to_json(),
        "created": entry.created,
    }


def _hand_flocks(view: PlayerView) -> dict[str, int] | None:
    """For each species of the viewer's hand, the birds a flock of it would fly home."""
    hand = view.hand
    if hand is None:
        return None
    return {s.value: birds_home(s, hand[s.index]) for s in SPECIES if hand[s.index]}


def _narration(
    events: tuple[Event, ...], seat: int | None, names: tuple[str, ...], language: str
) -> list[str | None]:
    """One sentence (or ``None``, for bookkeeping events) per event, as ``seat`` reads it."""
    return [describe_event(event, seat, names=names, language=language) for event in events]


# The note of a stand-in's move (web.bots._stand_in), and the phrase that tells it in
# another language if the phrase tables have one.
_STAND_IN = re.compile(
    r"The bot of (?P<who>.*) failed twice \((?P<failures>.*)\); the greedy bot played this "
    r"move instead\.",
    re.DOTALL,
)
_STAND_IN_PHRASE = "notice.stand_in"


def _notice(note: str, language: str) -> str:
    """A stored note in ``language``: the stand-in's sentence if the language has it."""
    template = narration.PHRASES[language].get(_STAND_IN_PHRASE)
    found = _STAND_IN.fullmatch(note)
    if template is None or found is None:
        return note
    return template.format(who=found["who"], failures=found["failures"])


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

    __slots__ = ("_follows", "_history", "bot_seed", "move", "pending", "seat", "spec")

    def __init__(self, spec: BotSpec, bot_seed: int, seat: int) -> None:
        self.spec = spec
        self.bot_seed = bot_seed
        self.seat = seat
        self.move = 0
        self.pending: Action | None = None
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

    def job(self, view: PlayerView) -> BotJob:
        """Return this decision as a :class:`~cuckoo_rules.web.bots.BotJob`, to run elsewhere.

        Args:
            view: The seat's view, the seat being to act.
        """
        history = tuple(self._history) if self._follows else ()
        seed = derive_seed(self.bot_seed, self.seat, self.move)
        return BotJob(self.spec.text or self.spec.kind, seed, view, history)

    def choose(self, view: PlayerView) -> Action:
        """Return :attr:`pending` if a decision was made elsewhere, else decide here.

        Deciding here builds the bot of this decision, informs it of the history, and
        lets it choose.

        Args:
            view: The seat's view, the seat being to act.

        Returns:
            The bot's action.
        """
        if self.pending is not None:
            action, self.pending = self.pending, None
            return action
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


def _players(seats: tuple[str, ...], given: tuple[str, ...]) -> tuple[str | None, ...]:
    """Each seat's name: the one given, else a bot's kind, else ``None`` (a person unnamed)."""
    names = given + ("",) * (len(seats) - len(given))
    return tuple(
        name or (None if kind == HUMAN else kind.split(":")[0])
        for kind, name in zip(seats, names, strict=False)
    )


class Table:
    """One game being played: its setup, its :class:`~cuckoo_rules.Match` and its lock.

    Changes (:meth:`play`, :meth:`play_decision`, :meth:`catch_up`, :meth:`claim`,
    :meth:`join`, :meth:`refresh_seats`, :meth:`hint_position`) must be made by one caller
    at a time, with :attr:`lock` held: :meth:`locked` runs one in a worker thread with
    the lock held. The lock is only ever held for such a short step, never while a bot
    decides (:meth:`run_bots` takes it to fetch a decision's job and again to commit the
    decision). Readers (:meth:`document`, :meth:`check_after`, :meth:`bots_to_act`,
    :meth:`seat_of`) need no lock: they read the table as it was after the last action,
    even while a move is being made.

    Args:
        setup: How the table was set up.
        store: Where its actions are committed.
        actions: The actions taken so far (those stored), replayed.
        notes: The notes stored with those actions (move number and text).
        status: The table's stored status.
        updated: When its last action was stored (Unix time; now by default).
        claimed: The human seats claimed so far.
        rematch: The id of the table of its rematch, or ``None``.

    Raises:
        CuckooError: If the setup or the actions do not make a game (a bad bot spec, an
            illegal action: :meth:`restore` reports it as a :class:`StorageError`).

    Attributes:
        setup: How the table was set up (with the current token hashes and names).
        lock: Serializes the changes of this table (an :class:`asyncio.Lock`).
        match: The game; its ``on_action`` commits every action to the store.
        names: The seats' names, as the narration writes them in English for a spectator
            (``"P0"``, ``"P1 greedy"``, ``"P2 Ada"``: the name given, or a bot's kind,
            after the seat number).
        players: Each seat's name: the one given, else a bot's kind, else ``None``.
        commitment: The commitment to the deal (:func:`~cuckoo_rules.fairness.deal_commitment`
            of the seed and the salt), or ``None`` for a table stored without a salt.
        notes: For each move a stand-in played (a bot that failed twice), why.
        status: ``"open"``, ``"over"`` (the game is over) or ``"expired"`` (no move for
            too long: it takes no more moves).
        updated: When the last action was taken (Unix time).
        claimed: The human seats claimed (their token used, or joined).
        rematch: The id of the table of its rematch, or ``None``.
        hint: The last hint given at this table: ``(seat, move)`` and its document.
    """

    def __init__(
        self,
        setup: TableSetup,
        store: Store,
        actions: tuple[Action, ...] = (),
        notes: Sequence[tuple[int, str]] = (),
        status: Status = "open",
        updated: float | None = None,
        claimed: Iterable[int] = (),
        rematch: str | None = None,
    ) -> None:
        self.setup = setup
        self.lock = asyncio.Lock()
        self._store = store
        seats = tuple(
            None if kind == HUMAN else SeatBot(parse_bot_spec(kind), setup.bot_seed, seat)
            for seat, kind in enumerate(setup.seats)
        )
        self._name_seats()
        self._replaying = False
        self._note: str | None = None  # the note of the action being committed
        self.match = Match.from_record(
            GameRecord(setup.options, setup.seed, actions),
            seats,
            names=self.names,
            on_action=self._commit,
        )
        self.commitment = None if setup.salt is None else deal_commitment(setup.seed, setup.salt)
        self.notes: dict[int, str] = dict(notes)
        self.status: Status = status
        self.updated = time.time() if updated is None else updated
        self.claimed: frozenset[int] = frozenset(claimed)
        self.rematch = rematch
        self.hint: tuple[tuple[int, int], tuple[ActionEstimate, ...]] | None = None
        self._thinking: tuple[int, int] | None = None  # (move, seat) of the bot deciding
        self._decided: tuple[int, Decision] | None = None  # a decision not stored yet
        self._watchers: dict[int, Callable[[], None]] = {}
        self._watchers_lock = threading.Lock()
        self._published = self._now()

    def _name_seats(self) -> None:
        """Derive the names of the seats from the setup's names and seats."""
        self.players = _players(self.setup.seats, self.setup.names)
        self._narration_names = tuple(name or "" for name in self.players)
        self.names = tuple(
            seat_name(s, None, names=self._narration_names) for s in range(len(self.players))
        )

    @classmethod
    def start(cls, setup: TableSetup, store: Store, claimed: Iterable[int] = ()) -> Table:
        """Return a new table: the game just dealt, no action yet (nothing is stored)."""
        return cls(setup, store, claimed=claimed)

    @classmethod
    def restore(cls, stored: StoredTable, store: Store) -> Table:
        """Rebuild a table by replaying its stored actions.

        Raises:
            StorageError: If the stored options, seats or actions are not valid.
        """
        try:
            return cls(
                stored.setup,
                store,
                stored.actions,
                stored.notes,
                stored.status,
                stored.updated,
                stored.claimed,
                stored.rematch,
            )
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

    @property
    def is_open(self) -> bool:
        """Whether the table takes moves: its game is on and it has not expired."""
        return self.status == "open" and not self._published.state.is_over

    @property
    def thinking(self) -> int | None:
        """The seat whose bot is deciding the table's current move now, or ``None``."""
        thinking = self._thinking
        if thinking is None or thinking[0] != self._published.move:
            return None
        return thinking[1]

    @property
    def free(self) -> tuple[int, ...]:
        """The human seats nobody has claimed yet, in ascending order."""
        return free_seats(self.setup.seats, self.claimed)

    # ----------------------------------------------------------------- watching

    @property
    def watched(self) -> bool:
        """Whether anything watches the table (:meth:`watch`), such as a push stream."""
        with self._watchers_lock:
            return bool(self._watchers)

    def watch(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call ``callback()`` after every change of the table a reader could see.

        The changes are a move (a human's, a bot's or one caught up from another
        server process), a bot starting to decide, a seat claimed or joined, a rematch,
        the table expiring. ``callback`` is called in the thread that made the change (a
        worker thread, often), so it must be quick and thread-safe, such as
        ``lambda: loop.call_soon_threadsafe(event.set)``; an exception it raises is
        logged and ignored.

        Returns:
            A function that stops the calls (calling it again does nothing).
        """
        key = id(callback)
        with self._watchers_lock:
            while key in self._watchers:  # the same function watching twice
                key += 1
            self._watchers[key] = callback

        def unwatch() -> None:
            with self._watchers_lock:
                self._watchers.pop(key, None)

        return unwatch

    def _changed(self) -> None:
        """Tell the watchers that the table changed."""
        with self._watchers_lock:
            watchers = tuple(self._watchers.values())
        for callback in watchers:
            try:
                callback()
            except Exception:  # a watcher whose loop is gone, for one
                _logger.debug("table %s: a watcher failed", self.id, exc_info=True)

    async def locked(self, work: Callable[..., _T], *args: Any) -> _T:
        """Run ``work(*args)`` in a worker thread with :attr:`lock` held; return its result.

        The lock is released only once the thread is done, even if the caller is
        cancelled meanwhile (the cancellation then takes effect after it), so two changes
        never overlap.
        """
        async with self.lock:
            # Starlette's pool of threads (anyio's, 40 at once), as for the other requests.
            future = asyncio.ensure_future(to_thread.run_sync(functools.partial(work, *args)))
            try:
                return await asyncio.shield(future)
            except asyncio.CancelledError:
                await asyncio.wait([future])
                raise

    # ----------------------------------------------------------------- seats

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

    def claim(self, seat: int) -> None:
        """Record that ``seat``'s token was used: the seat is no longer free.

        Does nothing if it is claimed already. Hold :attr:`lock` (:meth:`locked`).

        Raises:
            StorageUnavailable: If the store cannot take the write now (the seat stays
                free; the next use of the token claims it).
        """
        if seat in self.claimed or self.setup.seats[seat] != HUMAN:
            return
        self._store.claim_seat(self.id, seat)  # False: another server process claimed it
        self.claimed = self.claimed | {seat}
        self._changed()

    def join(self, name: str, seat: int | None = None) -> tuple[int, str]:
        """Give a free human seat of a lobby table to someone new, with a new token.

        The seat is claimed, its name becomes ``name`` and its token a new one: the
        seat's invitation token stops working. Hold :attr:`lock` (:meth:`locked`).

        Args:
            name: The newcomer's name (checked by :func:`parse_name`; ``""``: none).
            seat: The seat wanted, or ``None`` for the first free one.

        Returns:
            The seat and its new token (the only time it is known).

        Raises:
            Forbidden: If the table is not in the lobby.
            Conflict: If the game is over or the table expired, no seat is free, or the
                seat wanted is taken.
            BadRequest: If ``seat`` is not a human seat of this table.
            ServiceUnavailable: If the store cannot take the write now (nothing stored).
        """
        if not self.setup.lobby:
            raise Forbidden(
                "this table is not in the lobby: only its invitation links (a seat's "
                "token) lead to its seats"
            )
        self._check_open()
        seats = self.setup.seats
        if seat is None:
            if not self.free:
                raise Conflict("no seat of this table is free: every human seat is taken")
            seat = self.free[0]
        elif not 0 <= seat < len(seats):
            raise BadRequest(f"seat: {seat} is not a seat of this table (0 to {len(seats) - 1})")
        elif seats[seat] != HUMAN:
            raise BadRequest(f"seat: {seat} is played by a bot ({seats[seat]}), not a person")
        elif seat not in self.free:
            raise Conflict(f"seat {seat} is taken; the free seats are {list(self.free)}")
        token = secrets.token_urlsafe(32)
        digest = hash_token(token)
        try:
            joined = self._store.join_seat(self.id, seat, digest, name)
        except StorageUnavailable as error:
            raise ServiceUnavailable(str(error), retry_after=error.retry_after) from None
        if not joined:  # another server process gave it away first
            self.refresh_seats()
            raise Conflict(f"seat {seat} is taken; the free seats are {list(self.free)}")
        hashes = list(self.setup.token_hashes)
        hashes[seat] = digest
        names = list(self.setup.names) + [""] * (len(seats) - len(self.setup.names))
        names[seat] = name
        self.setup = attrs.evolve(self.setup, token_hashes=tuple(hashes), names=tuple(names))
        self.claimed = self.claimed | {seat}
        self._name_seats()
        self._changed()
        return seat, token

    def refresh_seats(self) -> bool:
        """Read who holds which seat from the store (another server process may change it).

        Only a shared store (PostgreSQL) has changes to read. Hold :attr:`lock`.

        Returns:
            Whether anything changed.
        """
        state = self._store.seats(self.id)
        return state is not None and self._take_seats(state)

    def _take_seats(self, state: SeatState) -> bool:
        setup = attrs.evolve(self.setup, token_hashes=state.token_hashes, names=state.names)
        claimed = frozenset(state.claimed)
        if (setup, claimed, state.rematch) == (self.setup, self.claimed, self.rematch):
            return False
        self.setup, self.claimed, self.rematch = setup, claimed, state.rematch
        self._name_seats()
        self._changed()
        return True

    def set_rematch(self, table_id: str) -> None:
        """Record the id of the table of this table's rematch (it is stored already)."""
        self.rematch = table_id
        self._changed()

    # ----------------------------------------------------------------- moves

    def bots_to_act(self) -> bool:
        """Whether the table is open and a bot is to act."""
        state = self._published.state
        return self.is_open and self.match.seats[state.current_player] is not None

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

    def _check_open(self) -> None:
        match = self.match
        if self.status == "expired":
            raise Conflict(
                "the table expired (no move for too long): it takes no more moves",
                move=match.move,
            )
        if match.is_over:
            raise Conflict(f"the game is over (at move {match.move})", move=match.move)

    def hint_position(self, seat: int) -> HintPosition:
        """Return what a hint for ``seat`` is computed from now: its view and knowledge.

        It reads the match itself (the knowledge is folded over the seat's events), so
        like the moves it must be called by one caller at a time, with :attr:`lock`
        held: the view and the knowledge are then of the same moment.

        Args:
            seat: The seat asking (a human's).

        Raises:
            Conflict: If the game is over, the table expired or ``seat`` is not to act;
                the message gives the table's move number.
        """
        self._check_open()
        match = self.match
        if seat != match.to_act:
            raise Conflict(
                f"it is not your turn: player {match.to_act} is to act (the match is at "
                f"move {match.move})",
                move=match.move,
            )
        return HintPosition(match.move, match.view(seat), match.knowledge(seat))

    def play(self, seat: int, action: Action, move: int) -> None:
        """Take ``action`` for the human ``seat`` and commit it (the bots act afterwards).

        Hold :attr:`lock` (:meth:`locked`).

        Args:
            seat: The seat acting (a human's).
            action: Its action.
            move: The move number the client answers (the ``move`` of the document it
                answers): a request sent twice, or one answering an old document, is
                refused instead of being played again.

        Raises:
            Conflict: If ``move`` is not the table's move (the action was already
                played, for example a request sent twice), the game is over or the
                table expired, ``seat`` is not to act, or the action is not legal; the
                error carries the table's move number, and nothing is stored.
            ServiceUnavailable: If the store cannot take the write now (nothing stored).
        """
        match = self.match
        if move < match.move:
            raise Conflict(
                f"move {move} was already played: the table is at move {match.move} (a "
                "move sent twice, or an answer to an old document; read the table again)",
                move=match.move,
            )
        if move > match.move:
            raise Conflict(
                f"move {move} is not the table's move yet: it is at move {match.move}",
                move=match.move,
            )
        self._check_open()
        if seat != match.to_act:
            raise Conflict(f"it is not your turn: player {match.to_act} is to act", move=match.move)
        try:
            match.act(seat, action, move=move)
        except (MatchError, IllegalActionError) as error:
            raise Conflict(str(error), move=match.move) from None
        except MoveTaken:  # another server process stored this move first
            self.catch_up()
            raise Conflict(
                f"move {move} was already played: the table is at move {self.match.move}",
                move=self.match.move,
            ) from None
        except StorageUnavailable as error:
            raise ServiceUnavailable(str(error), retry_after=error.retry_after) from None
        self._settle()

    def expect_bot(self, runner: BotRunner) -> None:
        """Show the bot to act as :attr:`thinking` already, before its decision is asked for.

        For the web layer, which answers a human's move before the bots' task starts:
        the answer then says who thinks next. Bots the runner decides for at once
        (:meth:`BotRunner.decides_inline`) are never shown thinking.
        """
        if not self.bots_to_act():
            return
        published = self._published
        seat = published.state.current_player
        bot = self.match.seats[seat]
        if isinstance(bot, SeatBot) and not runner.decides_inline(bot.spec.text or bot.spec.kind):
            self._thinking = (published.move, seat)
            self._changed()

    def bot_job(self) -> tuple[int, int, BotJob] | None:
        """The decision the bot to act must make: ``(move, seat, job)``; ``None`` if none.

        Hold :attr:`lock` (it reads the match).
        """
        if not self.bots_to_act():
            return None
        match = self.match
        seat = match.state.current_player
        bot = match.seats[seat]
        assert isinstance(bot, SeatBot)
        return match.move, seat, bot.job(match.view(seat))

    def play_decision(self, move: int, decision: Decision) -> bool:
        """Play a bot's decision for ``move``, committing it with its note.

        Hold :attr:`lock` (:meth:`locked`).

        Args:
            move: The move the decision was made for (:meth:`bot_job`).
            decision: The decision.

        Returns:
            Whether it was played: ``False`` if the table is no longer at ``move`` (a
            decision for an old position, dropped: another server process played it
            meanwhile, or the table expired).

        Raises:
            StorageUnavailable: If the store cannot take the write now (nothing stored;
                the decision can be played again later).
        """
        match = self.match
        if match.move != move or not self.bots_to_act():
            return False
        bot = match.seats[match.state.current_player]
        assert isinstance(bot, SeatBot)
        bot.pending = decision.action
        self._note = decision.note
        try:
            match.play_bot()
        except MoveTaken:
            self.catch_up()
            return False
        except BotError:  # a decision the runner checked is legal: only a bug gets here
            _logger.exception("table %s: the bot's decision at move %d failed", self.id, move)
            return False
        finally:
            bot.pending = None
            self._note = None
        if decision.note is not None:
            self.notes[move] = decision.note
        self._settle()
        return True

    async def run_bots(self, runner: BotRunner) -> None:
        """Let the bots act, one move at a time, until a human is to act or the game ends.

        For each move: with :attr:`lock` held, take the decision's job
        (:meth:`bot_job`) and mark the seat as :attr:`thinking` (bots that search, not
        the quick :data:`~cuckoo_rules.web.bots.INLINE_KINDS`); then, without the lock,
        wait for the decision (:meth:`BotRunner.decide` runs it in a worker process, the
        quick kinds in a worker thread); then, with the lock held again, commit it
        (:meth:`play_decision`), or drop it if the table moved on meanwhile. So readers
        and other requests never wait for a decision, only for a commit. A decision
        never fails (greedy stands in for a bot that fails twice).

        Raises:
            StorageUnavailable: If the store cannot take a bot's move now; the decision is
                kept, and the next call commits it without deciding again.
        """
        while True:
            async with self.lock:
                job = self.bot_job()
                if job is None:
                    self._thinking = None
                    return
                move, seat, bot_job = job
                inline = runner.is_inline(bot_job)
                decided = self._decided
                if decided is None or decided[0] != move:
                    decided = None
                    if not inline:
                        self._thinking = (move, seat)
                        self._changed()
            try:
                if decided is not None:  # decided before, not stored then (a full disk)
                    decision = decided[1]
                elif inline:
                    name = self.names[seat]
                    decision = await asyncio.to_thread(runner.decide_here, bot_job, name)
                else:
                    decision = await runner.decide(bot_job, self.names[seat])
                self._decided = (move, decision)
                played = await self.locked(self.play_decision, move, decision)
            except BaseException:
                if self._thinking is not None:
                    self._thinking = None
                    self._changed()
                raise
            self._decided = None
            if not played and self._thinking is not None:  # dropped: the position changed
                self._thinking = None
                self._changed()

    def catch_up(self) -> int:
        """Take the actions other server processes stored since this table's last move.

        Only a shared store (PostgreSQL) has any. Hold :attr:`lock`.

        Returns:
            How many actions were taken.

        Raises:
            StorageError: If a stored action is not legal.
        """
        rows = self._store.actions(self.id, self.match.move)
        match = self.match
        for action, note in rows:
            move = match.move
            self._replaying = True
            try:
                seat = match.state.current_player
                bot = match.seats[seat]
                if isinstance(bot, SeatBot):
                    bot.pending = action
                    match.play_bot()
                else:
                    match.act(seat, action)
            except (BotError, MatchError, IllegalActionError) as error:
                raise StorageError(f"table {self.id!r}: actions[{move}]: {error}") from None
            finally:
                self._replaying = False
            if note is not None:
                self.notes[move] = note
            self._settle()
        return len(rows)

    def expire(self) -> None:
        """Mark the table expired in memory (the store was told): it takes no more moves."""
        self.status = "expired"
        self._changed()

    def _settle(self) -> None:
        """After an action: publish the new position; record a game that is over."""
        self.updated = time.time()
        self._published = self._now()
        if self.status == "open" and self.match.is_over:
            self.status = "over"
            try:
                self._store.set_status(self.id, "over")
            except StorageUnavailable:  # the next start replays it and records it then
                _logger.warning("table %s: could not record that the game is over", self.id)
        self._changed()

    def _commit(self, move: int, action: Action) -> None:
        """The match's ``on_action``: store (committed) the action before it is taken."""
        if not self._replaying:
            self._store.add_action(self.id, move, action, time.time(), self._note)

    def _now(self) -> _Published:
        match = self.match
        return _Published(match.state, match.move, match.event_count)

    def deal(self) -> dict[str, Any]:
        """The ``deal`` object of the documents: the commitment, then the secret revealed.

        ``{"commitment": hex or null, "seed_source": "server" or "request", "seed":
        null, "salt": null}`` while the game is on; once it is over (or the table
        expired) ``seed`` (in decimal, as a string: it may exceed what JavaScript
        numbers hold) and ``salt`` are filled in, so any seat can check
        :func:`~cuckoo_rules.fairness.check_deal` and replay the game.
        """
        revealed = self.status != "open" or self._published.state.is_over
        return {
            "commitment": self.commitment,
            "seed_source": self.setup.seed_source,
            "seed": str(self.setup.seed) if revealed else None,
            "salt": self.setup.salt if revealed else None,
        }

    def document(self, seat: int | None, after: int = 0, language: str = "en") -> dict[str, Any]:
        """Return what ``seat`` (``None``: a spectator) may see, as a JSON object.

        The keys, in this order (see ``docs/web.md``):

        - ``table``, ``seat``, ``seats`` (``"human"`` or the bot spec of each seat) and
          ``names`` (``"P0"``, ``"P1 greedy"``, ``"P2 Ada"``: each seat as the narration
          names it to a spectator; the narration calls the reader's own seat "you");
        - ``move``: the number of the next move, which a ``POST`` of an action gives, to
          be refused if the table moved on meanwhile;
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
          request);
        - ``status``: ``"open"``, ``"over"`` or ``"expired"`` (no move for too long);
        - ``thinking``: the seat whose bot is deciding now, or ``null``;
        - ``deal``: the commitment to the deal, and once the game is over its seed and
          salt (:meth:`deal`);
        - ``notices``: ``[{"move", "text"}]``, the moves a stand-in played and why (a
          bot that failed twice, replaced by the greedy bot for that move);
        - ``players``: each seat's given name, a bot's kind if none was given, or
          ``null`` for a person who gave none;
        - ``free``: the human seats nobody has claimed yet;
        - ``lobby``: whether the table's free seats are listed in the lobby;
        - ``rematch``: the id of the table of its rematch, or ``null``.

        ``after`` must have passed :meth:`check_after`. The document is built from one
        moment of the table, between two actions.

        Args:
            seat: The reader's seat, or ``None`` for a spectator.
            after: The number of the first event to include.
            language: The language of the names, narration, outcome and notices (one of
                :data:`cuckoo_rules.narration.LANGUAGES`).

        Raises:
            NarrationError: If ``language`` is not one of them.
        """
        published = self._published
        view = observe(published.state, seat)
        open_ = self.status == "open"
        legal = legal_actions(view) if view.is_my_turn and open_ else ()
        events = self.match.events(seat, after)[: published.event_count - after]
        names = self._narration_names
        thinking = self._thinking
        return {
            "table": self.id,
            "seat": seat,
            "seats": list(self.setup.seats),
            "names": [
                seat_name(s, None, names=names, language=language) for s in range(len(names))
            ],
            "move": published.move,
            "view": encode_view(view),
            "outcome": encode_outcome(view.outcome, seat, names, language),
            "progress": [attrs.asdict(win_progress(c)) for c in view.collections],
            "hand_flocks": _hand_flocks(view),
            "legal_actions": [encode_action(action) for action in legal],
            "previews": [encode_preview(preview(view, action)) for action in legal],
            "events": [encode_event(event) for event in events],
            "narration": _narration(events, seat, names, language),
            "next_event": published.event_count,
            "status": self.status,
            "thinking": (
                thinking[1] if thinking is not None and thinking[0] == published.move else None
            ),
            "deal": self.deal(),
            "notices": [
                {"move": move, "text": _notice(text, language)}
                for move, text in sorted(self.notes.items())
                if move < published.move
            ],
            "players": list(self.players),
            "free": list(self.free),
            "lobby": self.setup.lobby,
            "rematch": self.rematch,
        }


class Lobby:
    """Every table of a server, with the store they are kept in.

    The open tables are in memory; finished and expired ones are read back from the
    store when asked for, and the :data:`FINISHED_KEPT` most recently read stay in
    memory.

    Args:
        store: The store; :meth:`open` builds it and loads the open tables.
        max_open: The most open tables in all (:data:`MAX_OPEN_TABLES`).
        max_open_per_client: The most open tables one client address may have created.
        expire_after: Seconds without a move after which an open table expires.
        finished_kept: The finished or expired tables kept in memory.

    Raises:
        ValueError: If a limit is not a positive number.

    Attributes:
        store: The store.
        tables: The open tables in memory, by id.
        max_open: As given.
        max_open_per_client: As given.
        expire_after: As given.
    """

    def __init__(
        self,
        store: Store,
        *,
        max_open: int = MAX_OPEN_TABLES,
        max_open_per_client: int = MAX_OPEN_TABLES_PER_CLIENT,
        expire_after: float = EXPIRE_AFTER,
        finished_kept: int = FINISHED_KEPT,
    ) -> None:
        for name, value in (
            ("max_open", max_open),
            ("max_open_per_client", max_open_per_client),
            ("finished_kept", finished_kept),
        ):
            if type(value) is not int or value < 1:
                raise ValueError(f"{name}: expected a positive integer, got {value!r}")
        if not isinstance(expire_after, int | float) or not 0 < expire_after < 1e10:
            raise ValueError(
                f"expire_after: expected a positive number of seconds, got {expire_after!r}"
            )
        self.store = store
        self.tables: dict[str, Table] = {}
        self.max_open = max_open
        self.max_open_per_client = max_open_per_client
        self.expire_after = float(expire_after)
        self._finished: OrderedDict[str, Table] = OrderedDict()
        self._finished_kept = finished_kept

    @classmethod
    def open(cls, where: str | os.PathLike[str], **limits: Any) -> Lobby:
        """Open (or create) a store and rebuild every open table in it.

        Only the open tables are replayed; one found over is recorded as such and left
        in the store. Bots that were to act when the server stopped act when the web
        layer runs them (:meth:`Table.run_bots`).

        Args:
            where: A SQLite file or a PostgreSQL URL (:func:`~cuckoo_rules.web.store.open_store`).
            **limits: The keyword arguments of :class:`Lobby`.

        Raises:
            StorageError: If the store holds a table that does not replay, or another
                server holds the SQLite file (:class:`~cuckoo_rules.web.store.StoreInUse`).
            StorageUnavailable: If a PostgreSQL server cannot be reached.
            sqlite3.Error: If the file is not a usable database.
        """
        store = open_store(where)
        try:
            lobby = cls(store, **limits)
            for stored in store.tables("open"):
                table = Table.restore(stored, store)
                if table.match.is_over:
                    table.status = "over"
                    store.set_status(table.id, "over")
                else:
                    lobby.tables[table.id] = table
        except BaseException:
            store.close()
            raise
        return lobby

    def close(self) -> None:
        """Close the store."""
        self.store.close()

    def get(self, table_id: str) -> Table:
        """Return a table by id, reading it from the store if it is not in memory.

        Raises:
            NotFound: If there is no such table.
            StorageError: If the stored table does not replay.
        """
        table = self.tables.get(table_id)
        if table is not None:
            return table
        table = self._finished.get(table_id)
        if table is not None:
            self._finished.move_to_end(table_id)
            return table
        # Ids are 12 characters; a longer one is no table, and is not looked up.
        stored = self.store.table(table_id) if len(table_id) <= 64 else None
        if stored is None:
            raise NotFound(f"no table {_describe(table_id)}")
        table = Table.restore(stored, self.store)
        self.settle(table)
        return table

    def cached(self, table_id: str) -> Table | None:
        """The table if it is in memory (open, or among the finished kept), else ``None``."""
        table = self.tables.get(table_id)
        return self._finished.get(table_id) if table is None else table

    def settle(self, table: Table) -> None:
        """Keep ``table`` where its status says: open in memory, else among the last read."""
        if table.is_open:
            self.tables[table.id] = table
            return
        self.tables.pop(table.id, None)
        self._finished[table.id] = table
        self._finished.move_to_end(table.id)
        # The least recently read leave, unless a push stream watches them (it waits for
        # a rematch, which must reach the table it watches, not a copy read back later);
        # those are bounded by the streams' limits and their wait.
        excess = len(self._finished) - self._finished_kept
        if excess > 0:
            leaving = [key for key, kept in self._finished.items() if not kept.watched]
            for key in leaving[:excess]:
                del self._finished[key]

    def expire_idle(self, now: float | None = None) -> list[str]:
        """Expire the open tables with no move for :attr:`expire_after` seconds.

        They are recorded as expired in the store and leave memory; they stay readable.

        Args:
            now: The time (Unix time; now by default).

        Returns:
            The ids of the tables expired.
        """
        moment = time.time() if now is None else now
        expired = self.store.idle_tables(moment - self.expire_after)
        for table_id in expired:
            self.store.set_status(table_id, "expired")
            table = self.tables.get(table_id)
            if table is not None:
                table.expire()
                self.settle(table)
        return expired

    def _check_limits(self, client: str) -> None:
        """Refuse a new table beyond the limits of open tables (in all, for ``client``)."""
        if self.store.count_open() >= self.max_open:
            raise TooManyRequests(
                f"this server has {self.max_open} open tables, its limit; try again later",
                retry_after=60,
            )
        if client and self.store.count_open(client) >= self.max_open_per_client:
            raise TooManyRequests(
                f"you have {self.max_open_per_client} open tables, the limit per client; "
                "finish one or try again later",
                retry_after=60,
            )

    def create(self, request: NewTable, client: str = "") -> tuple[Table, Mapping[int, str]]:
        """Set up, store and start a table (its bots act when the web layer runs them).

        The seed is the request's, or else drawn here; every table gets a secret salt,
        so its deal has a commitment. The creator holds the first human seat (seat 0
        when it is human): it is claimed from the start.

        Args:
            request: The checked request.
            client: The address of the client creating it (for the per-client limit).

        Returns:
            The table and the token of each human seat (the only time they are known).

        Raises:
            TooManyRequests: If the server's open tables, or the client's, are at their
                limit.
            ServiceUnavailable: If the store cannot take the write now.
        """
        self._check_limits(client)
        if request.seed is None:
            seed, source = secrets.randbelow(SEED_LIMIT), "server"
        else:
            seed, source = request.seed, "request"
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
            salt=new_salt(),
            seed_source="server" if source == "server" else "request",
            names=request.names or ("",) * len(request.seats),
            client=client,
            lobby=request.lobby,
        )
        claimed = (min(tokens),)
        table = Table.start(setup, self.store, claimed)
        try:
            self.store.add_table(setup, table.updated, claimed)
        except StorageUnavailable as error:
            raise ServiceUnavailable(str(error), retry_after=error.retry_after) from None
        self.tables[table.id] = table
        return table, tokens

    def rematch(self, table: Table, client: str = "") -> tuple[Table, bool]:
        """Start the rematch of a finished game, once: the same seats, a new deal.

        The new table has the same seats, options, names and lobby flag, the same token
        at each human seat (so every player's link works at the same seat of the new
        one), the same seats claimed, and a new seed drawn by the server with a new salt
        and bot seed. A table has one rematch: asking again (from any seat, or another
        server process) gives the same one. Hold ``table``'s :attr:`~Table.lock`.

        Args:
            table: The finished table.
            client: The address of the client asking (for the per-client limit).

        Returns:
            The table of the rematch, and whether it was created now.

        Raises:
            Conflict: If the game is not over (or the table expired instead).
            TooManyRequests: If the open tables are at their limit.
            ServiceUnavailable: If the store cannot take the write now.
        """
        if table.rematch is not None:
            return self.get(table.rematch), False
        if table.status != "over":
            why = "the table expired" if table.status == "expired" else "the game is not over"
            raise Conflict(
                f"{why}: a rematch starts once the game is over (at move {table.move})",
                move=table.move,
            )
        self._check_limits(client)
        old = table.setup
        setup = attrs.evolve(
            old,
            id=secrets.token_urlsafe(9),
            seed=secrets.randbelow(SEED_LIMIT),
            bot_seed=secrets.randbelow(SEED_LIMIT),
            salt=new_salt(),
            seed_source="server",
            client=client,
        )
        new = Table.start(setup, self.store, table.claimed)
        try:
            stored = self.store.add_rematch(table.id, setup, new.updated, sorted(table.claimed))
        except StorageUnavailable as error:
            raise ServiceUnavailable(str(error), retry_after=error.retry_after) from None
        table.set_rematch(stored)
        if stored != setup.id:  # another server process started it first
            return self.get(stored), False
        self.tables[new.id] = new
        return new, True

    def lobby(self, limit: int = LOBBY_LIMIT) -> list[LobbyEntry]:
        """The open lobby tables with a free human seat, newest first (:meth:`Store.lobby`)."""
        return self.store.lobby(limit)
