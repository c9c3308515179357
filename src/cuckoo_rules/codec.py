"""JSON state and action documents, format version 1 (``interchange.md`` §4-5).

:func:`encode_state` and :func:`encode_action` return plain ``dict`` objects ready for
:func:`json.dumps`; :func:`decode_state` and :func:`decode_action` accept such objects
(for example from :func:`json.loads`), check every field and raise :class:`DecodeError`
naming the first field that is wrong.
"""

from __future__ import annotations

import json
import operator
from collections.abc import Mapping
from importlib import resources
from itertools import compress
from typing import Any, Literal, NoReturn, cast, get_args

import attrs

from .actions import (
    DRAW,
    FLY_HOME_ACTIONS,
    LAY_ACTIONS,
    NUM_ROWS,
    PASS,
    Action,
    Draw,
    FlyHome,
    Lay,
    Pass,
    Phase,
    Side,
)
from .cards import DECK_SIZE, NUM_SPECIES, SPECIES, Species
from .errors import DecodeError, InvalidOptionsError
from .events import (
    Captured,
    Dealt,
    DeclinedDraw,
    DeclinedFlock,
    Drew,
    Event,
    FlewHome,
    GameOver,
    Laid,
    Reshuffled,
    RoundEnded,
    RowRefilled,
    TurnEnded,
    TurnStarted,
    WinReason,
)
from .options import MAX_PLAYERS, OPTION_NAMES, GameOptions
from .rng import SEED_LIMIT
from .state import DECK_COUNTS, EMPTY_COUNTS, Counts, GameState, Row, can_fly_home
from .views import PlayerView, _flock_possible, unseen_cards

__all__ = [
    "STATE_FORMAT",
    "STATE_VERSION",
    "VIEW_FORMAT",
    "VIEW_VERSION",
    "decode_action",
    "decode_event",
    "decode_options",
    "decode_state",
    "decode_view",
    "encode_action",
    "encode_counts",
    "encode_event",
    "encode_state",
    "encode_view",
    "json_schema",
]

STATE_FORMAT = "cuckoo-rules/state"
"""The ``format`` name of a JSON state document."""

STATE_VERSION = 1
"""The ``version`` of the JSON state format this library reads and writes."""

_STATE_KEYS = (
    "format",
    "version",
    "options",
    "seed",
    "shuffles",
    "round",
    "turn",
    "dealer",
    "current_player",
    "phase",
    "rows",
    "draw_pile",
    "discard_pile",
    "hands",
    "known_hands",
    "collections",
    "winners",
)
VIEW_FORMAT = "cuckoo-rules/view"
"""The ``format`` name of a JSON view document."""

VIEW_VERSION = 1
"""The ``version`` of the JSON view format."""

_VIEW_KEYS = (
    "format",
    "version",
    "viewer",
    "options",
    "round",
    "turn",
    "dealer",
    "current_player",
    "phase",
    "rows",
    "draw_pile_size",
    "discard_pile_size",
    "hand",
    "hand_sizes",
    "known_hands",
    "collections",
    "winners",
)
_SPECIES_BY_ID = {s.value: s for s in SPECIES}
_INDEX_BY_ID = {s.value: s.index for s in SPECIES}
_IDS: tuple[str, ...] = tuple(s.value for s in SPECIES)  # _IDS[s.index] == s.value
_STR = frozenset({str})
_PHASES = {p.value: p for p in Phase}
_SIDES = {s.value: s for s in Side}


# --------------------------------------------------------------------------- encode


def encode_counts(counts: Counts) -> dict[str, int]:
    """Encode a multiset as ``{species id: count}``, species order, zero counts omitted."""
    return dict(compress(zip(_IDS, counts, strict=True), counts))  # pairs with a count


def _card_ids(cards: Row) -> list[str]:
    """Encode cards as a list of species ids (``card.value``, looked up by index: faster)."""
    return [_IDS[card.index] for card in cards]


def encode_state(state: GameState) -> dict[str, Any]:
    """Return the JSON document (format v1) of a state, keys in format order.

    Example:
        >>> import json
        >>> from cuckoo_rules import GameOptions, new_game
        >>> doc = encode_state(new_game(GameOptions(num_players=3), seed=42))
        >>> doc["format"], doc["dealer"], doc["rows"][0]
        ('cuckoo-rules/state', 2, ['duck', 'robin', 'parrot'])
        >>> decode_state(json.loads(json.dumps(doc))) == new_game(GameOptions(num_players=3), 42)
        True
    """
    return {
        "format": STATE_FORMAT,
        "version": STATE_VERSION,
        "options": state.options.to_json(),
        "seed": state.seed,
        "shuffles": state.shuffles,
        "round": state.round,
        "turn": state.turn,
        "dealer": state.dealer,
        "current_player": state.current_player,
        "phase": state.phase.value,
        "rows": [_card_ids(row) for row in state.rows],
        "draw_pile": _card_ids(state.draw_pile),
        "discard_pile": encode_counts(state.discard_pile),
        "hands": [encode_counts(h) for h in state.hands],
        "known_hands": [encode_counts(h) for h in state.known_hands],
        "collections": [encode_counts(c) for c in state.collections],
        "winners": list(state.winners),
    }


def encode_view(view: PlayerView) -> dict[str, Any]:
    """Return the JSON document (format v1) of a player view, keys in format order.

    Example:
        >>> from cuckoo_rules import GameOptions, new_game, observe
        >>> doc = encode_view(observe(new_game(GameOptions(num_players=3), seed=42), 0))
        >>> doc["viewer"], doc["hand_sizes"], doc["draw_pile_size"], "draw_pile" in doc
        (0, [8, 8, 8], 69, False)
        >>> list(doc["hand"])[:3], doc["hand"]["magpie"]
        (['flamingo', 'owl', 'duck'], 2)
    """
    return {
        "format": VIEW_FORMAT,
        "version": VIEW_VERSION,
        "viewer": view.viewer,
        "options": view.options.to_json(),
        "round": view.round,
        "turn": view.turn,
        "dealer": view.dealer,
        "current_player": view.current_player,
        "phase": view.phase.value,
        "rows": [_card_ids(row) for row in view.rows],
        "draw_pile_size": view.draw_pile_size,
        "discard_pile_size": view.discard_pile_size,
        "hand": None if view.hand is None else encode_counts(view.hand),
        "hand_sizes": list(view.hand_sizes),
        "known_hands": [encode_counts(h) for h in view.known_hands],
        "collections": [encode_counts(c) for c in view.collections],
        "winners": list(view.winners),
    }


def encode_action(action: Action) -> dict[str, Any]:
    """Return the JSON document of an action (interchange §5).

    Example:
        >>> encode_action(Lay(Species.PARROT, 0, Side.LEFT))
        {'type': 'lay', 'species': 'parrot', 'row': 0, 'side': 'left'}
    """
    if isinstance(action, Lay):
        return {
            "type": "lay",
            "species": action.species.value,
            "row": action.row,
            "side": action.side.value,
        }
    if isinstance(action, Draw):
        return {"type": "draw"}
    if isinstance(action, FlyHome):
        return {"type": "fly_home", "species": action.species.value}
    if isinstance(action, Pass):
        return {"type": "pass"}
    raise TypeError(f"not an action: {action!r}")


# --------------------------------------------------------------------------- decode helpers


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    doc: dict[str, Any] = {}
    for key, value in pairs:
        if key in doc:
            raise DecodeError(f"invalid JSON: duplicate key {key!r} in an object")
        doc[key] = value
    return doc


def _no_constant(name: str) -> Any:
    raise DecodeError(f"invalid JSON: {name} is not a JSON number")


def _loads_strict(text: str | bytes | bytearray) -> Any:
    """Parse JSON text strictly: no key twice in an object, no ``NaN`` or ``Infinity``.

    Raises:
        DecodeError: With the line, column and character position of a syntax error.
    """
    try:
        return json.loads(text, object_pairs_hook=_unique_keys, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise DecodeError(
            f"invalid JSON at line {error.lineno}, column {error.colno} "
            f"(char {error.pos}): {error.msg}"
        ) from None
    except UnicodeDecodeError as error:
        raise DecodeError(
            f"invalid JSON: bytes {error.start} to {error.end} are not {error.encoding}: "
            f"{error.reason}"
        ) from None


def _fail(path: str, message: str) -> NoReturn:
    raise DecodeError(f"{path}: {message}")


def _describe(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _mapping(value: object, path: str) -> Mapping[str, Any]:
    if type(value) is dict and _STR.issuperset(map(type, value)):
        return value  # the usual case: a dict with string keys, checked at C speed
    if not isinstance(value, Mapping):
        _fail(path, f"expected an object, got {_describe(value)}")
    for key in value:
        if not isinstance(key, str):
            _fail(path, f"key {_describe(key)} is not a string")
    return value


def _keys(value: Mapping[str, Any], path: str, keys: tuple[str, ...]) -> None:
    if len(value) == len(keys) and all(map(value.__contains__, keys)):
        return  # exactly the expected keys: the usual case, checked at C speed
    for key in keys:
        if key not in value:
            _fail(path, f"missing key {key!r}")
    for key in value:
        if key not in keys:
            _fail(path, f"unknown key {key!r}")


def _list(value: object, path: str) -> list[Any]:
    if type(value) is list:
        return value  # the usual case (callers only read it)
    if not isinstance(value, list | tuple):
        _fail(path, f"expected an array, got {_describe(value)}")
    return list(value)


def _int(value: object, path: str, low: int, high: int | None = None) -> int:
    if type(value) is not int:
        _fail(path, f"expected an integer, got {_describe(value)}")
    if value < low or (high is not None and value > high):
        upper = "" if high is None else f" and at most {high}"
        _fail(path, f"{value} is out of range (at least {low}{upper})")
    return value


def _species(value: object, path: str) -> Species:
    if not isinstance(value, str) or value not in _SPECIES_BY_ID:
        _fail(path, f"unknown species {_describe(value)}")
    return _SPECIES_BY_ID[value]


def _cards(value: object, path: str) -> tuple[Species, ...]:
    """Decode an array of species ids."""
    items = _list(value, path)
    try:  # the usual case, at C speed; only strings equal species ids (JSON has no others)
        return tuple(map(_SPECIES_BY_ID.__getitem__, items))
    except (KeyError, TypeError):
        return tuple(_species(c, f"{path}[{i}]") for i, c in enumerate(items))


def _counts(value: object, path: str) -> Counts:
    """Decode a multiset ``{species id: positive count}``."""
    counts = _quick_counts(value)
    return _checked_counts(value, path) if counts is None else counts


def _quick_counts(value: object) -> Counts | None:
    """Decode a well-formed multiset quickly; ``None`` if anything is unusual."""
    if type(value) is not dict:
        return None
    if not value:
        return EMPTY_COUNTS
    counts = [0] * NUM_SPECIES
    index_of = _INDEX_BY_ID.get
    for key, count in value.items():
        index = index_of(key)
        if index is None or type(count) is not int or count <= 0:
            return None
        counts[index] = count
    return tuple(counts)


def _checked_counts(value: object, path: str) -> Counts:
    """:func:`_counts` field by field, naming the first thing that is wrong."""
    mapping = _mapping(value, path)
    counts = [0] * NUM_SPECIES
    for key, count in mapping.items():
        species = _species(key, f"{path}.{key}")
        if type(count) is not int:
            _fail(f"{path}.{key}", f"expected an integer count, got {_describe(count)}")
        if count < 0:
            _fail(f"{path}.{key}", f"count {count} is negative")
        if count == 0:
            _fail(f"{path}.{key}", "count 0 must be omitted")
        counts[species.index] = count
    return tuple(counts)


def _per_seat(value: object, path: str, n: int) -> tuple[Counts, ...]:
    items = _list(value, path)
    if len(items) != n:
        _fail(path, f"expected {n} entries (one per player), got {len(items)}")
    decoded = tuple(map(_quick_counts, items))
    if None in decoded:  # something is unusual: check entry by entry, naming it
        return tuple(_counts(item, f"{path}[{i}]") for i, item in enumerate(items))
    return cast(tuple[Counts, ...], decoded)


def decode_options(data: object, path: str = "options") -> GameOptions:
    """Decode a JSON ``options`` object; every key must be present.

    Raises:
        DecodeError: If a key is missing or unknown, or a value is invalid.
    """
    mapping = _mapping(data, path)
    _keys(mapping, path, OPTION_NAMES)
    try:
        return GameOptions(**mapping)
    except InvalidOptionsError as error:
        raise DecodeError(f"{path}.{error}") from None


# --------------------------------------------------------------------------- decode state


def _header(doc: Mapping[str, Any], name: str, keys: tuple[str, ...], fmt: str) -> None:
    _keys(doc, name, keys)
    if doc["format"] != fmt:
        _fail("format", f"expected {fmt!r}, got {_describe(doc['format'])}")
    if type(doc["version"]) is not int or doc["version"] != 1:
        _fail("version", f"unsupported version {_describe(doc['version'])}, expected 1")


@attrs.frozen
class _Public:
    """The fields that a state and a view share, decoded and checked one by one."""

    options: GameOptions
    round: int
    turn: int
    dealer: int
    current_player: int
    phase: Phase
    rows: tuple[Row, ...]
    known_hands: tuple[Counts, ...]
    collections: tuple[Counts, ...]
    winners: tuple[int, ...]


def _public(doc: Mapping[str, Any]) -> _Public:
    options = decode_options(doc["options"])
    n = options.num_players
    round_ = _int(doc["round"], "round", 1)
    turn = _int(doc["turn"], "turn", round_)
    dealer = _int(doc["dealer"], "dealer", 0, n - 1)
    current = _int(doc["current_player"], "current_player", 0, n - 1)
    if not isinstance(doc["phase"], str) or doc["phase"] not in _PHASES:
        allowed = ", ".join(repr(p) for p in _PHASES)
        _fail("phase", f"{_describe(doc['phase'])} is not one of {allowed}")
    phase = _PHASES[doc["phase"]]
    row_docs = _list(doc["rows"], "rows")
    if len(row_docs) != NUM_ROWS:
        _fail("rows", f"expected {NUM_ROWS} rows, got {len(row_docs)}")
    rows = []
    for r, row_doc in enumerate(row_docs):
        row = _cards(row_doc, f"rows[{r}]")
        if not row:
            _fail(f"rows[{r}]", "a row cannot be empty")
        rows.append(row)
    known_hands = _per_seat(doc["known_hands"], "known_hands", n)
    collections = _per_seat(doc["collections"], "collections", n)
    winner_docs = _list(doc["winners"], "winners")
    winners = tuple(_int(w, f"winners[{i}]", 0, n - 1) for i, w in enumerate(winner_docs))
    if list(winners) != sorted(set(winners)):
        _fail("winners", "seats must be distinct and in increasing order")
    if phase is Phase.GAME_OVER and not winners:
        _fail("winners", "a finished game (phase 'game_over') must have winners")
    if phase is not Phase.GAME_OVER and winners:
        _fail("winners", f"must be empty in phase {phase.value!r}")
    return _Public(
        options,
        round_,
        turn,
        dealer,
        current,
        phase,
        tuple(rows),
        known_hands,
        collections,
        winners,
    )


def _check_known(known_hands: tuple[Counts, ...], p: int, hand: Counts, where: str) -> None:
    if all(map(operator.le, known_hands[p], hand)):
        return
    for species in SPECIES:
        known, held = known_hands[p][species.index], hand[species.index]
        if known > held:
            _fail(f"known_hands[{p}].{species.value}", f"{known} known but {where} holds {held}")


def _check_phase(
    public: _Public, hand: Counts | None, hand_size: int, piles: int, where: str
) -> None:
    """Phase consistency for the acting seat (``hand`` is ``None`` where it is hidden)."""
    current, phase = public.current_player, public.phase
    if phase is Phase.LAY and hand_size == 0:
        _fail(where, f"player {current} is to lay but holds no cards")
    if phase is Phase.DRAW and piles == 0:
        _fail("phase", "'draw' is offered only when the draw or discard pile holds cards")
    if (
        phase is Phase.FLOCK
        and hand is not None
        and not public.options.always_prompt_flock
        and not can_fly_home(hand)
    ):
        _fail("phase", f"'flock' but player {current} holds no flock")


def decode_state(data: Mapping[str, Any]) -> GameState:
    """Read a JSON state document (format v1), checking everything.

    Args:
        data: A decoded JSON object, as :func:`json.loads` returns it.

    Returns:
        The state; ``encode_state(decode_state(d)) == d`` for every valid document
        written with keys in format order.

    Raises:
        DecodeError: If the document is malformed or inconsistent; the message names
            the field, for example ``"hands[1].robin: count -1 is negative"``.
    """
    doc = _mapping(data, "state")
    _header(doc, "state", _STATE_KEYS, STATE_FORMAT)
    public = _public(doc)
    n = public.options.num_players
    seed = _int(doc["seed"], "seed", 0, SEED_LIMIT - 1)
    shuffles = _int(doc["shuffles"], "shuffles", 1)
    draw_pile = _cards(doc["draw_pile"], "draw_pile")
    discard = _counts(doc["discard_pile"], "discard_pile")
    hands = _per_seat(doc["hands"], "hands", n)

    laid_out = [0] * NUM_SPECIES  # the cards in the rows and the draw pile
    for row in public.rows:
        for card in row:
            laid_out[card.index] += 1
    for card in draw_pile:
        laid_out[card.index] += 1
    total = tuple(map(sum, zip(laid_out, discard, *hands, *public.collections, strict=True)))
    for species in SPECIES if total != DECK_COUNTS else ():  # name the first species that is off
        if total[species.index] != species.copies:
            _fail(
                "state",
                f"there must be {species.copies} {species.value} cards in all, "
                f"found {total[species.index]} (of {sum(total)} cards; {DECK_SIZE} expected)",
            )
    for p in range(n):
        _check_known(public.known_hands, p, hands[p], f"hands[{p}]")
    current = public.current_player
    piles = len(draw_pile) + sum(discard)
    _check_phase(public, hands[current], sum(hands[current]), piles, f"hands[{current}]")

    return GameState(
        public.options,
        seed,
        shuffles,
        public.round,
        public.turn,
        public.dealer,
        current,
        public.phase,
        public.rows,
        draw_pile,
        discard,
        hands,
        public.known_hands,
        public.collections,
        public.winners,
    )


def decode_view(data: Mapping[str, Any]) -> PlayerView:
    """Read a JSON view document (format v1), checking everything a view can show.

    Raises:
        DecodeError: If the document is malformed or inconsistent (for example more
            cards of a species in sight than the game has); the message names the field.

    Example:
        >>> from cuckoo_rules import GameOptions, new_game, observe
        >>> view = observe(new_game(GameOptions(num_players=3), seed=42), None)
        >>> decode_view(encode_view(view)) == view
        True
    """
    doc = _mapping(data, "view")
    _header(doc, "view", _VIEW_KEYS, VIEW_FORMAT)
    public = _public(doc)
    n = public.options.num_players
    viewer_doc = doc["viewer"]
    viewer = None if viewer_doc is None else _int(viewer_doc, "viewer", 0, n - 1)
    draw_size = _int(doc["draw_pile_size"], "draw_pile_size", 0, DECK_SIZE)
    discard_size = _int(doc["discard_pile_size"], "discard_pile_size", 0, DECK_SIZE)
    sizes_doc = _list(doc["hand_sizes"], "hand_sizes")
    if len(sizes_doc) != n:
        _fail("hand_sizes", f"expected {n} entries (one per player), got {len(sizes_doc)}")
    hand_sizes = tuple(_int(h, f"hand_sizes[{i}]", 0, DECK_SIZE) for i, h in enumerate(sizes_doc))
    hand: Counts | None = None
    if viewer is None:
        if doc["hand"] is not None:
            _fail("hand", "a spectator's view (viewer null) has no hand")
    else:
        hand = _counts(doc["hand"], "hand")
        if sum(hand) != hand_sizes[viewer]:
            _fail("hand", f"{sum(hand)} cards but hand_sizes[{viewer}] is {hand_sizes[viewer]}")
    for p in range(n):
        if sum(public.known_hands[p]) > hand_sizes[p]:
            _fail(f"known_hands[{p}]", f"more cards known than hand_sizes[{p}] = {hand_sizes[p]}")
    if hand is not None and viewer is not None:
        _check_known(public.known_hands, viewer, hand, "hand")

    view = PlayerView(
        viewer,
        public.options,
        public.round,
        public.turn,
        public.dealer,
        public.current_player,
        public.phase,
        public.rows,
        draw_size,
        discard_size,
        hand,
        hand_sizes,
        public.known_hands,
        public.collections,
        public.winners,
    )
    unseen = unseen_cards(view)
    for species in SPECIES:
        if unseen[species.index] < 0:
            _fail(
                "view",
                f"{species.copies - unseen[species.index]} {species.value} cards in sight, "
                f"but the game has {species.copies}",
            )
    hidden = draw_size + discard_size
    hidden += sum(hand_sizes[p] - sum(public.known_hands[p]) for p in range(n) if p != viewer)
    if sum(unseen) != hidden:
        _fail(
            "view",
            f"the cards do not add up to {DECK_SIZE}: {sum(unseen)} unseen cards "
            f"for {hidden} hidden places",
        )
    acting_hand = hand if viewer == public.current_player else None
    piles = draw_size + discard_size
    current = public.current_player
    _check_phase(public, acting_hand, hand_sizes[current], piles, f"hand_sizes[{current}]")
    prompted = public.phase is Phase.FLOCK and not public.options.always_prompt_flock
    if prompted and not _flock_possible(view, unseen):
        _fail("phase", f"'flock' but player {current} cannot hold a flock")
    return view


# --------------------------------------------------------------------------- decode action

_ACTION_KEYS = {
    "lay": ("type", "species", "row", "side"),
    "draw": ("type",),
    "fly_home": ("type", "species"),
    "pass": ("type",),
}


def decode_action(data: Mapping[str, Any], path: str = "action") -> Action:
    """Read a JSON action document (interchange §5).

    Args:
        data: The action object.
        path: Where the action is, for error messages (such as ``"actions[3]"`` in a
            game record): a bad row is reported at ``f"{path}.row"``.

    Raises:
        DecodeError: On an unknown type, species or side, a row that is not an integer
            from 0 to 3, or a missing or unknown key.

    Example:
        >>> decode_action({"type": "fly_home", "species": "owl"})
        FlyHome(Species.OWL)
    """
    doc = _mapping(data, path)
    kind = doc.get("type")
    if not isinstance(kind, str) or kind not in _ACTION_KEYS:
        allowed = ", ".join(repr(k) for k in _ACTION_KEYS)
        _fail(f"{path}.type", f"{_describe(kind)} is not one of {allowed}")
    _keys(doc, path, _ACTION_KEYS[kind])
    if kind == "draw":
        return DRAW
    if kind == "pass":
        return PASS
    species = _species(doc["species"], f"{path}.species")
    if kind == "fly_home":
        return FLY_HOME_ACTIONS[species.index]
    row = _int(doc["row"], f"{path}.row", 0, NUM_ROWS - 1)
    side = doc["side"]
    if not isinstance(side, str) or side not in _SIDES:
        _fail(f"{path}.side", f"{_describe(side)} is not 'left' or 'right'")
    return LAY_ACTIONS[species.index][row * 2 + (0 if _SIDES[side] is Side.LEFT else 1)]


# --------------------------------------------------------------------------- events

_EVENT_TYPES: dict[str, type[Event]] = {
    "laid": Laid,
    "captured": Captured,
    "row_refilled": RowRefilled,
    "drew": Drew,
    "declined_draw": DeclinedDraw,
    "flew_home": FlewHome,
    "declined_flock": DeclinedFlock,
    "reshuffled": Reshuffled,
    "turn_ended": TurnEnded,
    "round_ended": RoundEnded,
    "dealt": Dealt,
    "turn_started": TurnStarted,
    "game_over": GameOver,
}
_EVENT_NAMES = {cls: name for name, cls in _EVENT_TYPES.items()}
_WIN_REASONS: tuple[str, ...] = get_args(WinReason)


def _encode_event_field(name: str, value: Any) -> Any:
    if value is None or isinstance(value, int | str):
        return value
    if isinstance(value, Species | Side):
        return value.value
    if name == "hands":
        return [None if hand is None else encode_counts(hand) for hand in value]
    if name == "cards":
        return _card_ids(value)
    return list(value)


def encode_event(event: Event) -> dict[str, Any]:
    """Return the JSON object of an event: ``{"type": <snake_case name>, <fields>}``.

    Cards are species ids, hands multisets ``{species id: count}``, hidden parts ``null``.

    Example:
        >>> encode_event(Laid(0, Species.PARROT, 2, 1, Side.LEFT))
        {'type': 'laid', 'player': 0, 'species': 'parrot', 'count': 2, 'row': 1, 'side': 'left'}
        >>> encode_event(Drew(1, 2, None))
        {'type': 'drew', 'player': 1, 'count': 2, 'cards': None}
    """
    doc: dict[str, Any] = {"type": _EVENT_NAMES[type(event)]}
    for field in attrs.fields(type(event)):
        doc[field.name] = _encode_event_field(field.name, getattr(event, field.name))
    return doc


def decode_event(data: Mapping[str, Any]) -> Event:
    """Read an event written by :func:`encode_event`.

    Raises:
        DecodeError: On an unknown type, a missing or unknown key, or a bad value; the
            message names the field.

    Example:
        >>> decode_event({"type": "reshuffled", "cards": 30})
        Reshuffled(cards=30)
    """
    doc = _mapping(data, "event")
    name = doc.get("type")
    if not isinstance(name, str) or name not in _EVENT_TYPES:
        _fail("event.type", f"{_describe(name)} is not one of {', '.join(_EVENT_TYPES)}")
    cls = _EVENT_TYPES[name]
    fields = attrs.fields(cls)
    _keys(doc, "event", ("type", *(f.name for f in fields)))
    values = {f.name: _decode_event_field(name, f.name, doc[f.name]) for f in fields}
    event: Event = cls(**values)
    _check_event(event)
    return event


_EVENT_INT_RANGES: dict[str, tuple[int, int | None]] = {
    "player": (0, MAX_PLAYERS - 1),
    "dealer": (0, MAX_PLAYERS - 1),
    "row": (0, NUM_ROWS - 1),
    "kept": (1, 2),
    "round": (1, None),
    "turn": (1, None),
}


def _decode_event_field(kind: str, name: str, value: Any) -> Any:
    path = f"event.{name}"
    if name == "species":
        return _species(value, path)
    if name == "side":
        if not isinstance(value, str) or value not in _SIDES:
            _fail(path, f"{_describe(value)} is not 'left' or 'right'")
        return _SIDES[value]
    if name == "reason":
        if value not in _WIN_REASONS:
            _fail(path, f"{_describe(value)} is not one of {', '.join(_WIN_REASONS)}")
        return value
    if name == "cards" and kind != "reshuffled":
        if value is None and kind == "drew":
            return None
        return _cards(value, path)
    if name == "hands":
        hands = _list(value, path)
        return tuple(
            None if hand is None else _counts(hand, f"{path}[{i}]") for i, hand in enumerate(hands)
        )
    if name == "winners":
        seats = [
            _int(v, f"{path}[{i}]", 0, MAX_PLAYERS - 1) for i, v in enumerate(_list(value, path))
        ]
        if not seats or seats != sorted(set(seats)):
            _fail(path, "seats must be distinct, in increasing order, and at least one")
        return tuple(seats)
    if name == "hand_sizes":
        return tuple(_int(v, f"{path}[{i}]", 0) for i, v in enumerate(_list(value, path)))
    low, high = _EVENT_INT_RANGES.get(name, (0, None))
    return _int(value, path, low, high)


def _check_event(event: Event) -> None:
    """Checks across the fields of one decoded event."""
    if isinstance(event, Drew) and event.cards is not None and len(event.cards) != event.count:
        _fail("event.cards", f"{len(event.cards)} cards but count is {event.count}")
    if isinstance(event, FlewHome) and event.kept > event.revealed:
        _fail("event.kept", f"{event.kept} kept but only {event.revealed} revealed")


# --------------------------------------------------------------------------- schemas

SchemaKind = Literal["state", "view", "action", "event", "record"]
"""The documents that have a JSON Schema."""


def json_schema(kind: SchemaKind) -> dict[str, Any]:
    """Return the JSON Schema (draft 2020-12) of a document kind, as shipped in the package.

    The schemas describe the shape of each document; :func:`decode_state` and its
    siblings check more (110 cards, phase consistency, seats in range of the options).

    Raises:
        ValueError: For an unknown kind.

    Example:
        >>> json_schema("action")["title"]
        'cuckoo-rules action'
    """
    if kind not in get_args(SchemaKind):
        raise ValueError(f"no schema for {kind!r}: one of {', '.join(get_args(SchemaKind))}")
    text = resources.files("cuckoo_rules").joinpath(f"schema/{kind}.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema
