"""The JSON state document, format version 2 (``interchange.md`` §4).

:func:`encode_state` writes a :class:`~cuckoo_rules.GameState` as a plain ``dict``, its
fields in the order the class defines them (:data:`STATE_KEYS`); :func:`decode_state`
reads one back and checks everything.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from itertools import chain
from typing import Any

import attrs

from .._consistency import known_problem, phase_problem
from ..actions import Phase
from ..cards import DECK_SIZE, NUM_SPECIES, SPECIES
from ..errors import DecodeError
from ..rng import SEED_LIMIT
from ..state import DECK_COUNTS, EMPTY_COUNTS, GameState
from ..views import PlayerView
from ._public import decode_public, field_writer
from .fields import cards, counts, fail, int_in, mapping, per_seat
from .versions import CURRENT_VERSION, check_header, upgrade

__all__ = ["STATE_FORMAT", "STATE_KEYS", "STATE_VERSION", "decode_state", "encode_state"]

STATE_FORMAT = "cuckoo-rules/state"
"""The ``format`` name of a JSON state document."""

STATE_VERSION = CURRENT_VERSION
"""The ``version`` of the JSON state format this library writes."""

STATE_KEYS: tuple[str, ...] = (
    "format",
    "version",
    *(field.name for field in attrs.fields(GameState)),
)
"""The keys of a state document in format order: the header, then the fields of
:class:`~cuckoo_rules.GameState` in the order the class defines them."""

_write_state = field_writer(GameState, {"format": STATE_FORMAT, "version": STATE_VERSION})


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

    Raises:
        TypeError: If ``state`` is not a :class:`~cuckoo_rules.GameState` (a view has
            its own document: :func:`~cuckoo_rules.codec.encode_view`).
    """
    try:
        return _write_state(state)
    except AttributeError:
        if type(state) is GameState:
            raise
        hint = ": a view has its own document, encode_view(view)"
        hint = hint if isinstance(state, PlayerView) else ""
        raise TypeError(
            f"encode_state takes a GameState, got {type(state).__name__}{hint}"
        ) from None


def decode_state(data: Mapping[str, Any]) -> GameState:
    """Read a JSON state document (format version 1 or 2), checking everything.

    A version 1 document (see :data:`~cuckoo_rules.codec.READ_VERSIONS`) gives the same
    state as the version 2 document of the same game.

    Args:
        data: A decoded JSON object, as :func:`json.loads` returns it.

    Returns:
        The state; ``encode_state(decode_state(d)) == d`` for every valid document
        written with keys in format order.

    Raises:
        DecodeError: If the document is malformed or inconsistent; the message names
            the field, for example ``"hands[1].robin: count -1 is negative"``.
    """
    doc = mapping(data, "state")
    check_header(doc, "state", STATE_KEYS, STATE_FORMAT)
    doc = upgrade(doc, "state")  # an older version is read as the current one
    (options, round_, turn, dealer, current, phase, rows, known_hands, collections, winners) = (
        decode_public(doc)
    )
    n = options.num_players
    seed = int_in(doc["seed"], "seed", 0, SEED_LIMIT - 1)
    shuffles = int_in(doc["shuffles"], "shuffles", 1)
    draw_pile = cards(doc["draw_pile"], "draw_pile")
    discard_pile = counts(doc["discard_pile"], "discard_pile")
    hands = per_seat(doc["hands"], "hands", n)
    # Positional, in the order of GameState's fields.
    state = GameState(
        options,
        seed,
        shuffles,
        round_,
        turn,
        dealer,
        current,
        phase,
        rows,
        draw_pile,
        discard_pile,
        hands,
        known_hands,
        collections,
        winners,
    )
    # The fields against each other.
    laid_out = [0] * NUM_SPECIES  # the cards in the rows and the draw pile
    for row in rows:
        for card in row:
            laid_out[card.index] += 1
    for card in draw_pile:
        laid_out[card.index] += 1
    total = tuple(map(sum, zip(laid_out, discard_pile, *hands, *collections, strict=True)))
    for species in SPECIES if total != DECK_COUNTS else ():  # name the first species that is off
        if total[species.index] != species.copies:
            fail(
                "state",
                f"there must be {species.copies} {species.value} cards in all, "
                f"found {total[species.index]} (of {sum(total)} cards; {DECK_SIZE} expected)",
            )
    # Each check calls its message helper only when a quick test at C speed fails.
    if not all(map(operator.le, chain.from_iterable(known_hands), chain.from_iterable(hands))):
        for p in range(n):
            problem = known_problem(known_hands[p], p, hands[p], f"hands[{p}]")
            if problem is not None:
                raise DecodeError(problem)
    # A lay with every hand holding cards breaks no rule of phase_problem.
    if phase is not Phase.LAY or EMPTY_COUNTS in hands:
        piles = len(draw_pile) + sum(discard_pile)
        problem = phase_problem(state, hands[current], tuple(map(sum, hands)), piles, "hands")
        if problem is not None:
            raise DecodeError(problem)
    return state
