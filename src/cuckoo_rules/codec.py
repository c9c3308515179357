"""JSON state and action documents, format version 1 (``interchange.md`` §4-5).

:func:`encode_state` and :func:`encode_action` return plain ``dict`` objects ready for
:func:`json.dumps`; :func:`decode_state` and :func:`decode_action` accept such objects
(for example from :func:`json.loads`), check every field and raise :class:`DecodeError`
naming the first field that is wrong.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NoReturn

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
from .engine import can_fly_home
from .errors import DecodeError, InvalidOptionsError
from .options import OPTION_NAMES, GameOptions
from .rng import SEED_LIMIT
from .state import Counts, GameState

__all__ = [
    "STATE_FORMAT",
    "STATE_VERSION",
    "decode_action",
    "decode_options",
    "decode_state",
    "encode_action",
    "encode_counts",
    "encode_state",
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
_SPECIES_BY_ID = {s.value: s for s in SPECIES}
_PHASES = {p.value: p for p in Phase}
_SIDES = {s.value: s for s in Side}


# --------------------------------------------------------------------------- encode


def encode_counts(counts: Counts) -> dict[str, int]:
    """Encode a multiset as ``{species id: count}``, species order, zero counts omitted."""
    return {s.value: n for s, n in zip(SPECIES, counts, strict=True) if n}


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
        "rows": [[card.value for card in row] for row in state.rows],
        "draw_pile": [card.value for card in state.draw_pile],
        "discard_pile": encode_counts(state.discard_pile),
        "hands": [encode_counts(h) for h in state.hands],
        "known_hands": [encode_counts(h) for h in state.known_hands],
        "collections": [encode_counts(c) for c in state.collections],
        "winners": list(state.winners),
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


def _fail(path: str, message: str) -> NoReturn:
    raise DecodeError(f"{path}: {message}")


def _describe(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _mapping(value: object, path: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        _fail(path, f"expected an object, got {_describe(value)}")
    for key in value:
        if not isinstance(key, str):
            _fail(path, f"key {_describe(key)} is not a string")
    return value


def _keys(value: Mapping[str, Any], path: str, keys: tuple[str, ...]) -> None:
    for key in keys:
        if key not in value:
            _fail(path, f"missing key {key!r}")
    for key in value:
        if key not in keys:
            _fail(path, f"unknown key {key!r}")


def _list(value: object, path: str) -> list[Any]:
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


def _counts(value: object, path: str) -> Counts:
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
    return tuple(_counts(item, f"{path}[{i}]") for i, item in enumerate(items))


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
    _keys(doc, "state", _STATE_KEYS)
    if doc["format"] != STATE_FORMAT:
        _fail("format", f"expected {STATE_FORMAT!r}, got {_describe(doc['format'])}")
    if type(doc["version"]) is not int or doc["version"] != STATE_VERSION:
        _fail("version", f"unsupported version {_describe(doc['version'])}, expected 1")
    options = decode_options(doc["options"])
    n = options.num_players
    seed = _int(doc["seed"], "seed", 0, SEED_LIMIT - 1)
    shuffles = _int(doc["shuffles"], "shuffles", 1)
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
        cards = _list(row_doc, f"rows[{r}]")
        if not cards:
            _fail(f"rows[{r}]", "a row cannot be empty")
        rows.append(tuple(_species(c, f"rows[{r}][{i}]") for i, c in enumerate(cards)))
    draw_pile = tuple(
        _species(c, f"draw_pile[{i}]") for i, c in enumerate(_list(doc["draw_pile"], "draw_pile"))
    )
    discard = _counts(doc["discard_pile"], "discard_pile")
    hands = _per_seat(doc["hands"], "hands", n)
    known_hands = _per_seat(doc["known_hands"], "known_hands", n)
    collections = _per_seat(doc["collections"], "collections", n)
    winner_docs = _list(doc["winners"], "winners")
    winners = tuple(_int(w, f"winners[{i}]", 0, n - 1) for i, w in enumerate(winner_docs))
    if list(winners) != sorted(set(winners)):
        _fail("winners", "seats must be distinct and in increasing order")

    # 110 cards, the right number of each species.
    total = [0] * NUM_SPECIES
    for row in rows:
        for card in row:
            total[card.index] += 1
    for card in draw_pile:
        total[card.index] += 1
    for counts in (discard, *hands, *collections):
        for i, count in enumerate(counts):
            total[i] += count
    for species in SPECIES:
        if total[species.index] != species.copies:
            _fail(
                "state",
                f"there must be {species.copies} {species.value} cards in all, "
                f"found {total[species.index]} (of {sum(total)} cards; {DECK_SIZE} expected)",
            )
    for p in range(n):
        for species in SPECIES:
            if known_hands[p][species.index] > hands[p][species.index]:
                _fail(
                    f"known_hands[{p}].{species.value}",
                    f"{known_hands[p][species.index]} known but hands[{p}] holds "
                    f"{hands[p][species.index]}",
                )

    # Phase consistency.
    if phase is Phase.GAME_OVER and not winners:
        _fail("winners", "a finished game (phase 'game_over') must have winners")
    if phase is not Phase.GAME_OVER and winners:
        _fail("winners", f"must be empty in phase {phase.value!r}")
    if phase is Phase.LAY and not any(hands[current]):
        _fail("hands", f"player {current} is to lay but holds no cards")
    if phase is Phase.DRAW and not draw_pile and not any(discard):
        _fail("phase", "'draw' is offered only when the draw or discard pile holds cards")
    if (
        phase is Phase.FLOCK
        and not options.always_prompt_flock
        and not can_fly_home(hands[current])
    ):
        _fail("phase", f"'flock' but player {current} holds no flock")

    return GameState(
        options,
        seed,
        shuffles,
        round_,
        turn,
        dealer,
        current,
        phase,
        tuple(rows),
        draw_pile,
        discard,
        hands,
        known_hands,
        collections,
        winners,
    )


# --------------------------------------------------------------------------- decode action

_ACTION_KEYS = {
    "lay": ("type", "species", "row", "side"),
    "draw": ("type",),
    "fly_home": ("type", "species"),
    "pass": ("type",),
}


def decode_action(data: Mapping[str, Any]) -> Action:
    """Read a JSON action document (interchange §5).

    Raises:
        DecodeError: On an unknown type, species or side, a row that is not an integer
            from 0 to 3, or a missing or unknown key.

    Example:
        >>> decode_action({"type": "fly_home", "species": "owl"})
        FlyHome(Species.OWL)
    """
    doc = _mapping(data, "action")
    kind = doc.get("type")
    if not isinstance(kind, str) or kind not in _ACTION_KEYS:
        allowed = ", ".join(repr(k) for k in _ACTION_KEYS)
        _fail("action.type", f"{_describe(kind)} is not one of {allowed}")
    _keys(doc, "action", _ACTION_KEYS[kind])
    if kind == "draw":
        return DRAW
    if kind == "pass":
        return PASS
    species = _species(doc["species"], "action.species")
    if kind == "fly_home":
        return FLY_HOME_ACTIONS[species.index]
    row = _int(doc["row"], "action.row", 0, NUM_ROWS - 1)
    side = doc["side"]
    if not isinstance(side, str) or side not in _SIDES:
        _fail("action.side", f"{_describe(side)} is not 'left' or 'right'")
    return LAY_ACTIONS[species.index][row * 2 + (0 if _SIDES[side] is Side.LEFT else 1)]
