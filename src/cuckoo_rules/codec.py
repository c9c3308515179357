"""JSON state and action documents, format version 2 (``interchange.md`` §4-5).

:func:`encode_state` and :func:`encode_action` return plain ``dict`` objects ready for
:func:`json.dumps`; :func:`decode_state` and :func:`decode_action` accept such objects
(for example from :func:`json.loads`), check every field and raise :class:`DecodeError`
naming the first field that is wrong.

Versions: the writers write format version 2 only (:data:`STATE_VERSION`,
:data:`VIEW_VERSION`); the readers accept every version of :data:`READ_VERSIONS`. A
version 1 document (written by cuckoo-rules 0.1) has no ``refill_trigger`` key in its
``options`` (it means ``"capture"``, the only refill rule of version 1; the key is
rejected as unknown there) and may not use ``"same_dealer"`` for
``next_round_first_player``; otherwise it is read exactly as version 2, and gives the
same state as the version 2 document of the same game.

"""

from __future__ import annotations

import json
import operator
from collections.abc import Mapping, Sequence
from importlib import resources
from itertools import compress, groupby, pairwise
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
from .errors import short_repr as _describe
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
)
from .options import MAX_PLAYERS, OPTION_NAMES, GameOptions
from .outcome import WinReason
from .rng import SEED_LIMIT
from .state import DECK_COUNTS, EMPTY_COUNTS, Counts, GameState, Row, can_fly_home
from .views import PlayerView, _flock_possible, unseen_cards

__all__ = [
    "READ_VERSIONS",
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

STATE_VERSION = 2
"""The ``version`` of the JSON state format this library writes."""

READ_VERSIONS: tuple[int, ...] = (1, 2)
"""The format versions the readers accept, in state, view and record documents alike.

Version 1 (cuckoo-rules 0.1) had no option ``refill_trigger`` (its documents mean
``"capture"``) and no value ``"same_dealer"`` of ``next_round_first_player``; a version 1
document gives the same state, view or record as the version 2 document of the same game.
"""

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

VIEW_VERSION = 2
"""The ``version`` of the JSON view format this library writes."""

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

# What format version 2 added to the options object: a key (a version 1 document has
# none, and means the option's default) and values of keys that version 1 already had.
_OPTIONS_ADDED_IN_2 = ("refill_trigger",)
_VALUES_ADDED_IN_2: dict[str, tuple[str, ...]] = {"next_round_first_player": ("same_dealer",)}
_OPTION_KEYS: dict[int, tuple[str, ...]] = {
    1: tuple(name for name in OPTION_NAMES if name not in _OPTIONS_ADDED_IN_2),
    2: OPTION_NAMES,
}


# --------------------------------------------------------------------------- encode


def encode_counts(counts: Counts) -> dict[str, int]:
    """Encode a multiset as ``{species id: count}``, species order, zero counts omitted."""
    return dict(compress(zip(_IDS, counts, strict=True), counts))  # pairs with a count


def _card_ids(cards: Row) -> list[str]:
    """Encode cards as a list of species ids (``card.value``, looked up by index: faster)."""
    return [_IDS[card.index] for card in cards]


def encode_state(state: GameState) -> dict[str, Any]:
    """Return the JSON document (format version 2) of a state, keys in format order.

    Example:
        >>> import json
        >>> from cuckoo_rules import GameOptions, new_game
        >>> doc = encode_state(new_game(GameOptions(num_players=3), seed=42))
        >>> doc["format"], doc["version"], doc["dealer"], doc["rows"][0]
        ('cuckoo-rules/state', 2, 2, ['duck', 'robin', 'parrot'])
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
    """Return the JSON document (format version 2) of a player view, keys in format order.

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


def _fail(path: str, message: str) -> NoReturn:
    raise DecodeError(f"{path}: {message}")


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
            _fail(path, f"unknown key {_describe(key)}")


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
        _fail(path, f"{_describe(value)} is out of range (at least {low}{upper})")
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
        species = _species(key, f"{path}.{key[:40]}")  # a long bad key is cut short
        if type(count) is not int:
            _fail(f"{path}.{key}", f"expected an integer count, got {_describe(count)}")
        if count < 0:
            _fail(f"{path}.{key}", f"count {_describe(count)} is negative")
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


def _version(value: object) -> int:
    """Check a ``version``: one of :data:`READ_VERSIONS` (a boolean is not a version)."""
    if type(value) is not int or value not in READ_VERSIONS:
        expected = " or ".join(map(str, READ_VERSIONS))
        _fail("version", f"unsupported version {_describe(value)}, expected {expected}")
    return value


def decode_options(data: object, path: str = "options", version: int = 2) -> GameOptions:
    """Decode a JSON ``options`` object; every key of its format version must be present.

    Args:
        data: The options object.
        path: Where it is, for error messages.
        version: The format version of the document it comes from, one of
            :data:`READ_VERSIONS` (default 2, the version written). Version 1 options
            have no ``refill_trigger`` key (they mean ``"capture"``) and may not use
            ``"same_dealer"`` for ``next_round_first_player``.

    Raises:
        DecodeError: If a key is missing or unknown (``refill_trigger`` is unknown in
            version 1), a value is invalid or not in that version, or ``version`` is
            not one of :data:`READ_VERSIONS`.

    Example:
        >>> v2 = GameOptions(num_players=2).to_json()
        >>> v1 = {name: value for name, value in v2.items() if name != "refill_trigger"}
        >>> decode_options(v1, version=1) == decode_options(v2) == GameOptions(num_players=2)
        True
        >>> decode_options(v2, version=1)
        Traceback (most recent call last):
        ...
        cuckoo_rules.errors.DecodeError: options: unknown key 'refill_trigger' (format version 1 ...
    """
    if type(data) is dict:  # the usual case: options met before
        try:
            key = (version, tuple((name, type(value), value) for name, value in data.items()))
            known = _DECODED_OPTIONS.get(key)
        except TypeError:  # a value that cannot be hashed: not a valid option anyway
            key, known = None, None
        if known is not None:
            return known
    keys = _OPTION_KEYS[_version(version)]
    mapping = _mapping(data, path)
    if version == 1:
        for name in _OPTIONS_ADDED_IN_2:
            if name in mapping:
                _fail(
                    path,
                    f"unknown key {name!r} (format version 1 has no such option; "
                    "version 2 added it)",
                )
        for name, values in _VALUES_ADDED_IN_2.items():
            value = mapping.get(name)
            if isinstance(value, str) and value in values:
                _fail(
                    f"{path}.{name}",
                    f"format version 1 does not have {value!r} (version 2 added it)",
                )
    _keys(mapping, path, keys)
    try:
        options = GameOptions(**mapping)
    except InvalidOptionsError as error:
        raise DecodeError(f"{path}.{error}") from None
    if type(data) is dict and key is not None and len(_DECODED_OPTIONS) < 4096:
        _DECODED_OPTIONS[key] = options
    return options


# Options objects decoded so far, by version and (key, type, value) triples (the type
# tells True from 1): a game has one options object, decoded again with every state.
# GameOptions is immutable, so one value serves every document; there are fewer valid
# combinations than the bound.
_DECODED_OPTIONS: dict[tuple[int, tuple[tuple[str, type, object], ...]], GameOptions] = {}


# --------------------------------------------------------------------------- decode state


def _header(doc: Mapping[str, Any], name: str, keys: tuple[str, ...], fmt: str) -> int:
    """Check a document's keys, ``format`` and ``version``; return the version."""
    _keys(doc, name, keys)
    if doc["format"] != fmt:
        _fail("format", f"expected {fmt!r}, got {_describe(doc['format'])}")
    return _version(doc["version"])


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


def _check_blocks(ids: Sequence[str], path: str) -> None:
    """Each species of a row forms one contiguous block, as in every reachable row.

    A lay only ever captures up to the nearest bird of its species (rules §3.1), and
    that keeps each species in one block; so no reachable row reads ``owl flamingo owl``.

    Args:
        ids: The row's species ids, already known to be species ids (strings compare and
            hash at C speed, where :class:`Species` members hash in Python).
        path: Where the row is, for the error message.
    """
    if len(set(ids)) == len(list(groupby(ids))):
        return  # as many blocks as species
    seen = {ids[0]}
    for i, (before, card) in enumerate(pairwise(ids), 1):
        if card != before:
            if card in seen:
                _fail(
                    path,
                    f"the {card} at index {i} is apart from the {card} before it; "
                    "each species of a row forms one contiguous block",
                )
            seen.add(card)


def _public(doc: Mapping[str, Any], version: int) -> _Public:
    options = decode_options(doc["options"], version=version)
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
        _check_blocks(row_doc, f"rows[{r}]")
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
    public: _Public, hand: Counts | None, hand_sizes: Sequence[int], piles: int, field: str
) -> None:
    """Phase consistency of a state or a view.

    Args:
        public: The fields a state and a view share.
        hand: The acting seat's hand, or ``None`` where it is hidden.
        hand_sizes: The number of cards each seat holds.
        piles: The number of cards in the draw and discard piles together.
        field: Where the hand sizes are, for error messages (``"hands"`` or
            ``"hand_sizes"``).
    """
    current, phase = public.current_player, public.phase
    if phase is Phase.LAY and hand_sizes[current] == 0:
        _fail(f"{field}[{current}]", f"player {current} is to lay but holds no cards")
    if phase is not Phase.GAME_OVER and 0 in hand_sizes:
        # A hand only empties on its own turn, and the end of that turn ends the round.
        for seat, size in enumerate(hand_sizes):
            if size == 0 and seat != current:
                _fail(
                    f"{field}[{seat}]",
                    f"player {seat} holds no cards but is not to act; only the player to "
                    "act can have emptied its hand before the game is over",
                )
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
    """Read a JSON state document (format version 1 or 2), checking everything.

    A version 1 document (see :data:`READ_VERSIONS`) gives the same state as the
    version 2 document of the same game.

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
    version = _header(doc, "state", _STATE_KEYS, STATE_FORMAT)
    public = _public(doc, version)
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
    _check_phase(public, hands[current], tuple(map(sum, hands)), piles, "hands")

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
    """Read a JSON view document (format version 1 or 2), checking what a view can show.

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
    version = _header(doc, "view", _VIEW_KEYS, VIEW_FORMAT)
    public = _public(doc, version)
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
    _check_phase(public, acting_hand, hand_sizes, piles, "hand_sizes")
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
    if name in ("hands", "known_hands"):
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
    if name == "known_hands":
        known = _list(value, path)
        return tuple(_counts(hand, f"{path}[{i}]") for i, hand in enumerate(known))
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
    if isinstance(event, Dealt | RoundEnded):
        seats = len(event.hand_sizes)
        if len(event.hands) != seats:
            _fail("event.hands", f"{len(event.hands)} hands for {seats} hand sizes")
        for seat, (hand, size) in enumerate(zip(event.hands, event.hand_sizes, strict=True)):
            if hand is not None and sum(hand) != size:
                _fail(f"event.hands[{seat}]", f"{sum(hand)} cards but hand_sizes says {size}")
    if isinstance(event, RoundEnded):
        if len(event.known_hands) != len(event.hand_sizes):
            _fail("event.known_hands", f"{len(event.known_hands)} entries for the seats")
        for seat, known in enumerate(event.known_hands):
            hand = event.hands[seat]
            if sum(known) > event.hand_sizes[seat] or (
                hand is not None and any(map(operator.gt, known, hand))
            ):
                _fail(f"event.known_hands[{seat}]", "more cards known than the hand held")


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
