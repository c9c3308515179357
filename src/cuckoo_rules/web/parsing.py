"""Reading requests: the bodies, headers and query parameters of the API, checked.

Every function here refuses what it cannot take with a
:class:`~cuckoo_rules.web.errors.BadRequest` (or :class:`~cuckoo_rules.web.errors.Unauthorized`,
:class:`~cuckoo_rules.web.errors.PayloadTooLarge`) whose message names the field, for
example ``"seats[1]: bot spec 'gredy': unknown bot 'gredy' (choose from random, greedy,
ismcts)"``:

- the bodies: a new table (:func:`parse_new_table`, with the limits on the bots' budget
  such as :data:`MAX_ISMCTS_ITERATIONS`), a player's name (:func:`parse_name`), a move
  (:func:`parse_move`), a join (:func:`parse_join`) and an invitation's exchange
  (:func:`parse_accept`), read as JSON within a size (:func:`read_json`);
- the request's bearer token (:func:`bearer_token`), its ``lang`` (:func:`language_param`)
  and ``after`` (:func:`after_param`) query parameters, and a push stream's
  ``Last-Event-ID`` header (:func:`last_event_id`).
"""

from __future__ import annotations

import json
import re

import attrs
from starlette.requests import Request

from .. import narration
from ..actions import Action
from ..bots.ismcts import DEFAULT_ITERATIONS
from ..bots.specs import BotSpec, parse_bot_spec
from ..codec import decode_action, decode_options
from ..errors import CuckooError, DecodeError
from ..errors import short_repr as _describe
from ..jsontext import loads
from ..options import MAX_PLAYERS, MIN_PLAYERS, GameOptions
from ..rng import SEED_LIMIT
from .errors import BadRequest, PayloadTooLarge, Unauthorized
from .stores.base import HUMAN

__all__ = [
    "MAX_EXPERT_SIMULATIONS",
    "MAX_INVITATION_LENGTH",
    "MAX_ISMCTS_ITERATIONS",
    "MAX_ISMCTS_SECONDS",
    "MAX_ISMCTS_WORK",
    "MAX_NAME_LENGTH",
    "MAX_SPEC_LENGTH",
    "NewTable",
    "after_param",
    "bearer_token",
    "language_param",
    "last_event_id",
    "parse_accept",
    "parse_join",
    "parse_move",
    "parse_name",
    "parse_new_table",
    "quote_json",
    "read_json",
]

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

_AFTER = re.compile(r"[0-9]{1,15}")


# --------------------------------------------------------------------------- bodies


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
        cuckoo_rules.web.errors.BadRequest: options.num_players: 3 does not match the 2 seats
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
        cuckoo_rules.web.errors.BadRequest: names[1]: 'xxxxxxxxxxxxxxxxxxxxxxxxx' is 25 \
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


def parse_move(body: object) -> tuple[Action, int]:
    """Check the body of a move: ``{"action": <action document>, "move": n}``."""
    if not isinstance(body, dict) or set(body) != {"action", "move"}:
        raise BadRequest(
            'body: expected {"action": <action document>, "move": <move number>}, such as '
            '{"action": {"type": "pass"}, "move": 12} ("move" is the "move" of the table '
            f"document the action answers), got {quote_json(body)}"
        )
    try:
        action = decode_action(body["action"])
    except DecodeError as error:
        raise BadRequest(str(error)) from None
    move = body["move"]
    if type(move) is not int or move < 0:
        raise BadRequest(
            "move: expected the move number the action answers (the table document's "
            f'"move", an integer from 0), got {quote_json(move)}'
        )
    return action, move


def parse_join(body: object) -> tuple[str, int | None]:
    """Check the body of a join: ``{"name": "Ann"}``, optionally with ``"seat": n``."""
    if not isinstance(body, dict) or not set(body) <= {"name", "seat"}:
        raise BadRequest(
            'body: expected {"name": <your name or null>} and optionally "seat": <a free '
            f"seat>, got {quote_json(body)}"
        )
    name = parse_name(body.get("name"), "name")
    seat = body.get("seat")
    if seat is not None and (type(seat) is not int or seat < 0):
        raise BadRequest(
            f"seat: expected a seat number (an integer from 0), got {quote_json(seat)}"
        )
    return name, seat


MAX_INVITATION_LENGTH = 128
"""The longest invitation accepted (the server's are 43 characters)."""

_INVITATION = re.compile(rf"[A-Za-z0-9_-]{{1,{MAX_INVITATION_LENGTH}}}")


def parse_accept(body: object) -> tuple[str, str | None]:
    """Check the body of an invitation's exchange: ``{"invitation": "...", "name": "Ann"}``.

    ``name`` is optional: without it (or ``null``) the seat keeps the name its creator
    gave it. The invitation is never quoted back in a message.

    Returns:
        The invitation and the name (``None``: keep the seat's).

    Raises:
        BadRequest: If the body is not such an object.
    """
    fields = {"invitation", "name"}
    if not isinstance(body, dict) or "invitation" not in body or not set(body) <= fields:
        raise BadRequest(
            'body: expected {"invitation": <the invitation of the link>} and optionally '
            '"name": <your name or null>'
        )
    invitation = body["invitation"]
    if not isinstance(invitation, str) or not _INVITATION.fullmatch(invitation):
        raise BadRequest(
            "invitation: expected the invitation of a link (letters, digits, - and _, at "
            f"most {MAX_INVITATION_LENGTH} characters)"
        )
    name = body.get("name")
    return invitation, None if name is None else parse_name(name, "name")


async def read_json(request: Request, max_body: int, *, required: bool = True) -> object:
    """Read the body of ``request`` as JSON, refusing bodies over ``max_body`` bytes.

    Args:
        request: The request.
        max_body: The largest body accepted, in bytes.
        required: Whether a body must be sent; without it, an empty body gives ``None``.

    Raises:
        PayloadTooLarge: If the body is larger than ``max_body`` bytes.
        BadRequest: If it is empty (and required) or not JSON.
    """
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > max_body:
        raise PayloadTooLarge(f"body: {length} bytes, more than the {max_body} accepted")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > max_body:
            raise PayloadTooLarge(f"body: more than the {max_body} bytes accepted")
    if not body:
        if not required:
            return None
        raise BadRequest("body: empty; send a JSON object")
    try:
        return loads(body)
    except DecodeError as error:
        raise BadRequest(f"body: {error}") from None


# --------------------------------------------------------------------------- headers, query


def language_param(request: Request) -> str:
    """The ``lang`` query parameter (``"en"`` by default): a narration language."""
    language = request.query_params.get("lang", "en")
    if language not in narration.LANGUAGES:
        raise BadRequest(
            f"lang: {quote_json(language)} is not a language of this server (choose from "
            f"{', '.join(narration.LANGUAGES)})"
        )
    return language


def after_param(request: Request) -> int:
    """The ``after`` query parameter: the number of the first event wanted (0 by default).

    The caller checks it against the table (:meth:`Table.check_after
    <cuckoo_rules.web.table.Table.check_after>`).

    Raises:
        BadRequest: If it is not an event number.
    """
    text = request.query_params.get("after")
    if text is None:
        return 0
    if not _AFTER.fullmatch(text):
        raise BadRequest(f"after: {quote_json(text)} is not an event number (an integer from 0)")
    return int(text)


def last_event_id(request: Request, event_count: int) -> int | None:
    """The first event a push stream sends after ``Last-Event-ID``; ``None`` without it.

    ``Last-Event-ID`` is, as Server-Sent Events define it, the ``id`` of the last event
    the client received (the ``after`` query parameter is the number of the first event
    it has not seen).

    Args:
        request: The request.
        event_count: The number of events of the table.

    Raises:
        BadRequest: If the header is not the number of one of the table's events.
    """
    header = request.headers.get("last-event-id")
    if header is None:
        return None
    if not _AFTER.fullmatch(header.strip()):
        raise BadRequest(
            f"Last-Event-ID: {quote_json(header)} is not an event number (an integer from 0: "
            "the id of the last event received)"
        )
    after = int(header) + 1
    if after > event_count:
        raise BadRequest(
            f"Last-Event-ID: {int(header)} is not an event of this table (it has "
            f"{event_count} events)"
        )
    return after


def bearer_token(request: Request) -> str | None:
    """The bearer token of a request, or ``None`` without an ``Authorization`` header."""
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise Unauthorized("Authorization: expected 'Bearer <token>'")
    return token


def quote_json(value: object) -> str:
    """``value`` as the API's messages quote it: JSON for a plain value, at most 40 characters."""
    text = json.dumps(value) if isinstance(value, str | int | float | bool | None) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
