"""The JSON documents of the API: a table as a seat sees it, moves, hints, the lobby, meta.

Every document is built from what its reader may see and nothing more: the table
document (:func:`encode_table`) from the seat's view and the events redacted for it, a
move's preview (:func:`encode_preview`) and its sentence (:func:`describe_move`) from the
seat's view, a hint (:func:`encode_hint`) from the view and the seat's
:class:`~cuckoo_rules.knowledge.Knowledge` only, a lobby entry
(:func:`encode_lobby_entry`) with no token and no seed. The texts come from the
narration's phrase tables, in the reader's language. :func:`meta_document` describes the
game (options, species, the win) for the browser client, which holds no rule of its own.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs
from starlette.responses import JSONResponse

from .. import narration
from ..actions import Action, Draw, FlyHome, Lay, Phase
from ..cards import SPECIES
from ..codec import encode_action, encode_event, encode_view
from ..decisions import DRAW_SIZE
from ..engine import legal_actions
from ..events import Captured, DeclinedDraw, Drew, Event, FlewHome, GameOver, Laid
from ..knowledge import Knowledge
from ..narration import describe_event, narrate, phrase, seat_name
from ..options import option_info
from ..outcome import SPECIES_TO_WIN, TRIPLE, TRIPLES_TO_WIN, Outcome, win_progress
from ..preview import ActionPreview, birds_home, preview
from ..state import GameState
from ..views import PlayerView, observe
from .errors import ApiError
from .seats import seat_players
from .stores.base import HUMAN, LobbyEntry, Status, TableSetup

if TYPE_CHECKING:  # the expert needs the batch extra; only its result's type is named here
    from ..bots.expert import ActionEstimate

__all__ = [
    "NO_STORE",
    "HintPosition",
    "describe_move",
    "encode_hint",
    "encode_lobby_entry",
    "encode_outcome",
    "encode_preview",
    "encode_table",
    "json_response",
    "meta_document",
]

NO_STORE = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}
"""The headers of every API answer: not to be cached (a table changes), not sniffed."""


def json_response(document: dict[str, Any], status: int = 200) -> JSONResponse:
    """Return ``document`` as the answer of a request, with the :data:`NO_STORE` headers."""
    return JSONResponse(document, status, headers=NO_STORE)


def encode_table(
    *,
    setup: TableSetup,
    seat: int | None,
    state: GameState,
    move: int,
    events: Sequence[Event],
    next_event: int,
    names: tuple[str, ...],
    status: Status,
    thinking: int | None,
    deal: dict[str, Any],
    notes: Mapping[int, str],
    players: Sequence[str | None],
    free: Sequence[int],
    rematch: str | None,
    language: str = "en",
) -> dict[str, Any]:
    """Return the table document: what ``seat`` (``None``: a spectator) may see of a table.

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
      salt (:meth:`Table.deal <cuckoo_rules.web.table.Table.deal>`);
    - ``notices``: ``[{"move", "text"}]``, the moves a stand-in played and why (a
      bot that failed twice, replaced by the greedy bot for that move);
    - ``players``: each seat's given name, a bot's kind if none was given, or
      ``null`` for a person who gave none;
    - ``free``: the human seats nobody has claimed yet;
    - ``lobby``: whether the table's free seats are listed in the lobby;
    - ``rematch``: the id of the table of its rematch, or ``null``.

    Every argument is of one moment of the table, between two actions
    (:meth:`Table.document <cuckoo_rules.web.table.Table.document>` gathers them).

    Args:
        setup: The table's setup (its id, seats and lobby flag).
        seat: The reader's seat, or ``None`` for a spectator.
        state: The game's state.
        move: The number of the next move.
        events: The events from number ``after`` on, redacted for ``seat``.
        next_event: The number of events so far.
        names: The seats' names as the narration writes them after the seat numbers
            (``""`` for none).
        status: The table's status.
        thinking: The seat whose bot is deciding the current move, or ``None``.
        deal: The ``deal`` object.
        notes: For each move a stand-in played, why (those from ``move`` on are left
            out).
        players: Each seat's name (:func:`~cuckoo_rules.web.seats.seat_players`).
        free: The human seats nobody has claimed.
        rematch: The id of the table of its rematch, or ``None``.
        language: The language of the names, narration, outcome and notices (one of
            :data:`cuckoo_rules.narration.LANGUAGES`).

    Raises:
        NarrationError: If ``language`` is not one of them.
    """
    view = observe(state, seat)
    legal = legal_actions(view) if view.is_my_turn and status == "open" else ()
    names = _spoken_names(setup, names, language)
    return {
        "table": setup.id,
        "seat": seat,
        "seats": list(setup.seats),
        "names": [seat_name(s, None, names=names, language=language) for s in range(len(names))],
        "move": move,
        "view": encode_view(view),
        "outcome": encode_outcome(view.outcome, seat, names, language),
        "progress": [attrs.asdict(win_progress(c)) for c in view.collections],
        "hand_flocks": _hand_flocks(view),
        "legal_actions": [encode_action(action) for action in legal],
        "previews": [encode_preview(preview(view, action)) for action in legal],
        "events": [encode_event(event) for event in events],
        "narration": _narration(events, seat, names, language),
        "next_event": next_event,
        "status": status,
        "thinking": thinking,
        "deal": deal,
        "notices": [
            {"move": at, "text": _notice(text, language)}
            for at, text in sorted(notes.items())
            if at < move
        ],
        "players": list(players),
        "free": list(free),
        "lobby": setup.lobby,
        "rematch": rematch,
    }


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
        events = [Drew(seat, DRAW_SIZE, None)]  # the optional draw (rules §3.1)
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
        "players": list(seat_players(setup.seats, setup.names)),
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
    events: Sequence[Event], seat: int | None, names: tuple[str, ...], language: str
) -> list[str | None]:
    """One sentence (or ``None``, for bookkeeping events) per event, as ``seat`` reads it."""
    return [describe_event(event, seat, names=names, language=language) for event in events]


def _spoken_names(setup: TableSetup, names: tuple[str, ...], language: str) -> tuple[str, ...]:
    """The seats' names as the narration writes them in ``language``.

    A bot seat nobody named is called by its kind; in German and Russian that is the
    language's word for the bot ("Gieriger Bot", "Жадный бот"), in English the kind
    itself ("P1 greedy").
    """
    if language == "en":
        return names
    table = narration.PHRASES[language]
    given = setup.names + ("",) * (len(setup.seats) - len(setup.names))
    spoken = list(names)
    for seat, (kind, name) in enumerate(zip(setup.seats, given, strict=False)):
        bot = kind.split(":")[0]
        key = f"web.bot.{bot}"
        if kind != HUMAN and not name and seat < len(spoken) and key in table:
            spoken[seat] = table[key]
    return tuple(spoken)


# The note of a stand-in's move (web.bots._stand_in), and the phrase that tells it in
# another language (its {failures}, the bot's errors in English, may be left out).
_STAND_IN = re.compile(
    r"The bot of (?P<who>.*) failed twice \((?P<failures>.*)\); the greedy bot played this "
    r"move instead\.",
    re.DOTALL,
)
_STAND_IN_PHRASE = "web.stand_in"


def _notice(note: str, language: str) -> str:
    """A stored note in ``language``: the stand-in's sentence if the language has it."""
    template = narration.PHRASES[language].get(_STAND_IN_PHRASE)
    found = _STAND_IN.fullmatch(note)
    if template is None or found is None:
        return note
    return template.format(who=found["who"], failures=found["failures"])


def error_text(error: ApiError, language: str) -> str:
    """What a refused request was refused for, in ``language``.

    The error's phrase (:attr:`~cuckoo_rules.web.errors.ApiError.key`) in German or
    Russian if it has one; else its English message, which says more.

    Example:
        >>> from .errors import Conflict
        >>> error_text(Conflict("the game is over (at move 9)", key="web.error.game_over"), "de")
        'das Spiel ist vorbei'
    """
    if language == "en" or error.key is None or error.key not in narration.PHRASES[language]:
        return str(error)
    return narration.PHRASES[language][error.key]


def request_language(query: str | None, accept: str | None) -> str:
    """The language of a request, one of :data:`cuckoo_rules.narration.LANGUAGES`.

    Its ``lang`` query parameter, else the first language of its ``Accept-Language``
    header this server speaks, else English.

    Example:
        >>> request_language(None, "ru-RU,ru;q=0.9,en;q=0.8"), request_language("de", None)
        ('ru', 'de')
    """
    if query in narration.LANGUAGES:
        return str(query)
    for part in (accept or "").split(","):
        primary = part.split(";")[0].strip().lower().split("-")[0]
        if primary in narration.LANGUAGES:
            return primary
    return "en"


def meta_document() -> dict[str, Any]:
    """Return the answer of ``GET /api/meta``: the options, the species, the win.

    - ``options``: :func:`cuckoo_rules.options.option_info` as JSON: one object per
      option, in the order of the JSON ``options`` object, with its ``name``,
      ``label``, ``description``, ``default`` (``null`` for the required
      ``num_players``) and ``choices``, each a ``{"value", "text"}`` object, the
      default first.
    - ``species``: :data:`cuckoo_rules.SPECIES` in canonical order, each
      ``{"id", "name", "copies", "small_flock", "big_flock"}`` (the JSON id, the English
      name, the cards of the species in the deck, and the cards a flock needs to fly
      home one bird or two).
    - ``win``: ``{"species": 7, "triples": 2, "triple": 3}``: a collection wins with 7
      species, or with 2 species of 3 cards or more (rules §3.3).

    Example:
        >>> meta = meta_document()
        >>> options = {o["name"]: o for o in meta["options"]}
        >>> options["refill_trigger"]["default"], options["num_players"]["default"]
        ('capture', None)
        >>> options["refill_trigger"]["choices"][0]
        {'value': 'capture', 'text': 'a capture'}
        >>> meta["species"][0]
        {'id': 'flamingo', 'name': 'Pink Flamingo', 'copies': 7, 'small_flock': 2, \
'big_flock': 3}
        >>> meta["win"]
        {'species': 7, 'triples': 2, 'triple': 3}
    """
    return {
        "options": [
            {
                "name": info.name,
                "label": info.label,
                "description": info.description,
                "default": info.default,
                "choices": [{"value": c.value, "text": c.text} for c in info.choices],
            }
            for info in option_info()
        ],
        "species": [
            {
                "id": species.value,
                "name": species.label,
                "copies": species.copies,
                "small_flock": species.small_flock,
                "big_flock": species.big_flock,
            }
            for species in SPECIES
        ],
        "win": {"species": SPECIES_TO_WIN, "triples": TRIPLES_TO_WIN, "triple": TRIPLE},
    }
