"""A fixed-size numeric encoding of a player's view, for learning agents.

:func:`encode_observation` turns a :class:`~cuckoo_rules.PlayerView` into a flat tuple of
non-negative integers whose length depends only on the number of players
(:func:`observation_size`). The research adapters (PettingZoo, Gymnasium, OpenSpiel)
hand it out as their observation tensor; it is built from the view alone, so it cannot
reveal another seat's hand, the draw-pile order or the seed.

Seats are numbered **relative to the viewer**: block 0 of the ``seat`` fields is the
viewer, block 1 the next seat in turn order (the viewer's left), and so on. A
spectator's view is encoded relative to seat 0, with an empty hand. Species are in
canonical order (flamingo, owl, toucan, duck, parrot, magpie, reed warbler, robin).

The layout, field by field (``P`` is the number of players; every value is a count or a
0/1 flag; :func:`observation_layout` gives the same table as data):

| field | offset | size | meaning |
|---|---|---|---|
| ``phase`` | 0 | 4 | one-hot: lay, draw, flock, game over |
| ``hand`` | 4 | 8 | the viewer's hand, per species (zeros: spectator) |
| ``unseen`` | 12 | 8 | cards the viewer cannot locate, per species |
| ``draw_pile_size`` | 20 | 1 | cards in the draw pile |
| ``discard_pile_size`` | 21 | 1 | cards in the discard pile |
| ``row[r].length`` | 22+25r | 1 | cards in row ``r`` (``r`` = 0..3) |
| ``row[r].count`` | 23+25r | 8 | cards of each species in row ``r`` |
| ``row[r].capture_left`` | 31+25r | 8 | cards laying that species on the left captures |
| ``row[r].capture_right`` | 39+25r | 8 | cards laying that species on the right captures |
| ``seat[k].to_act`` | 122+19k | 1 | 1 if seat ``viewer + k`` is to act |
| ``seat[k].winner`` | 123+19k | 1 | 1 if seat ``viewer + k`` has won |
| ``seat[k].hand_size`` | 124+19k | 1 | cards in that seat's hand |
| ``seat[k].known_hand`` | 125+19k | 8 | cards of that hand everybody has seen enter it |
| ``seat[k].collection`` | 133+19k | 8 | that seat's collection |

The size is therefore ``122 + 19 * P``: 160 for two players, 217 for five. A capture
count is 0 where the species is absent from the row (laying there captures nothing)
or already at that end.

Example:
    >>> from cuckoo_rules import GameOptions, new_game, observe
    >>> view = observe(new_game(GameOptions(num_players=2), seed=1), 0)
    >>> obs = encode_observation(view)
    >>> len(obs) == observation_size(2) == 160
    True
    >>> field = observation_field(2, "hand")
    >>> sum(obs[field.offset : field.offset + field.size])
    8
"""

from __future__ import annotations

import attrs

from .actions import NUM_ROWS, Phase
from .cards import NUM_SPECIES
from .errors import ViewError
from .options import MAX_PLAYERS, MIN_PLAYERS, check_int
from .preview import capture_sizes
from .state import EMPTY_COUNTS
from .views import PlayerView, unseen_given_rows

__all__ = [
    "PHASE_ORDER",
    "ObservationField",
    "encode_observation",
    "observation_field",
    "observation_layout",
    "observation_size",
]

PHASE_ORDER: tuple[Phase, ...] = (Phase.LAY, Phase.DRAW, Phase.FLOCK, Phase.GAME_OVER)
"""The phases in the order of the one-hot ``phase`` field: value ``k`` is 1 in phase
``PHASE_ORDER[k]``."""

_HEADER = len(PHASE_ORDER) + NUM_SPECIES + NUM_SPECIES + 2
_ROW = 1 + 3 * NUM_SPECIES
_SEAT = 3 + 2 * NUM_SPECIES
_ROWS_END = _HEADER + NUM_ROWS * _ROW


@attrs.frozen
class ObservationField:
    """One named field of the observation vector.

    Attributes:
        name: The field's name, such as ``"hand"``, ``"row[2].count"`` or
            ``"seat[1].collection"`` (seats relative to the viewer).
        offset: The index of its first value.
        size: How many values it spans.
        description: What the values mean.
    """

    name: str
    offset: int
    size: int
    description: str


def _check_players(num_players: int) -> None:
    check_int("num_players", num_players, MIN_PLAYERS, MAX_PLAYERS)  # as GameOptions does


def observation_size(num_players: int) -> int:
    """Return the length of the observation vector for ``num_players`` players (2 to 5).

    Raises:
        InvalidOptionsError: If ``num_players`` is not 2 to 5.

    Example:
        >>> [observation_size(p) for p in range(2, 6)]
        [160, 179, 198, 217]
    """
    _check_players(num_players)
    return _ROWS_END + num_players * _SEAT


def observation_layout(num_players: int) -> tuple[ObservationField, ...]:
    """Return every field of the observation vector, in order, without gaps.

    Raises:
        InvalidOptionsError: If ``num_players`` is not 2 to 5.

    Example:
        >>> [(f.name, f.offset, f.size) for f in observation_layout(2)[:3]]
        [('phase', 0, 4), ('hand', 4, 8), ('unseen', 12, 8)]
    """
    _check_players(num_players)
    fields: list[ObservationField] = []

    def add(name: str, size: int, description: str) -> None:
        offset = fields[-1].offset + fields[-1].size if fields else 0
        fields.append(ObservationField(name, offset, size, description))

    add("phase", len(PHASE_ORDER), "one-hot phase: lay, draw, flock, game over")
    add("hand", NUM_SPECIES, "the viewer's hand per species (zeros for a spectator)")
    add("unseen", NUM_SPECIES, "cards the viewer cannot locate, per species")
    add("draw_pile_size", 1, "cards in the draw pile")
    add("discard_pile_size", 1, "cards in the discard pile")
    for r in range(NUM_ROWS):
        add(f"row[{r}].length", 1, f"cards in row {r}")
        add(f"row[{r}].count", NUM_SPECIES, f"cards of each species in row {r}")
        add(
            f"row[{r}].capture_left",
            NUM_SPECIES,
            f"cards laying each species on the left of row {r} captures",
        )
        add(
            f"row[{r}].capture_right",
            NUM_SPECIES,
            f"cards laying each species on the right of row {r} captures",
        )
    for k in range(num_players):
        seat = "the viewer" if k == 0 else f"the seat {k} after the viewer"
        add(f"seat[{k}].to_act", 1, f"1 if {seat} is to act")
        add(f"seat[{k}].winner", 1, f"1 if {seat} has won")
        add(f"seat[{k}].hand_size", 1, f"cards in the hand of {seat}")
        add(f"seat[{k}].known_hand", NUM_SPECIES, f"cards of {seat}'s hand seen entering it")
        add(f"seat[{k}].collection", NUM_SPECIES, f"the collection of {seat}")
    return tuple(fields)


def observation_field(num_players: int, name: str) -> ObservationField:
    """Return the field called ``name`` in the layout for ``num_players`` players.

    Raises:
        InvalidOptionsError: If ``num_players`` is not 2 to 5.
        KeyError: If no field has that name.

    Example:
        >>> observation_field(3, "seat[1].collection")
        ObservationField(name='seat[1].collection', offset=152, size=8, description=...)
    """
    for field in observation_layout(num_players):
        if field.name == name:
            return field
    raise KeyError(f"no observation field called {name!r}")


def encode_observation(view: PlayerView) -> tuple[int, ...]:
    """Encode ``view`` as the flat vector described in this module's layout table.

    The result depends on nothing but the view: equal views give equal vectors.

    Raises:
        ViewError: If ``view`` is not a :class:`~cuckoo_rules.PlayerView`.
    """
    if not isinstance(view, PlayerView):
        raise ViewError(f"view: expected a PlayerView, got {type(view).__name__}")
    # The hot path of every adapter's step, so it avoids per-value Python work: one pass
    # over each row's cards, whose counts also give the unseen cards.
    out = [0] * len(PHASE_ORDER)
    out[PHASE_ORDER.index(view.phase)] = 1
    rows: list[int] = []
    row_counts: list[list[int]] = []
    for row in view.rows:
        n = len(row)
        count, left, right = capture_sizes(row)
        rows.append(n)
        rows += count
        rows += left
        rows += right
        row_counts.append(count)
    hand = view.hand
    viewer = view.viewer
    out += hand if hand is not None else EMPTY_COUNTS
    out += unseen_given_rows(view, row_counts)
    out.append(view.draw_pile_size)
    out.append(view.discard_pile_size)
    out += rows
    players = view.num_players
    me = 0 if viewer is None else viewer
    acting = -1 if view.phase is Phase.GAME_OVER else view.current_player
    winners, hand_sizes = view.winners, view.hand_sizes
    known_hands, collections = view.known_hands, view.collections
    for k in range(players):
        seat = (me + k) % players
        out.append(int(seat == acting))
        out.append(int(seat in winners))
        out.append(hand_sizes[seat])
        out += known_hands[seat]
        out += collections[seat]
    return tuple(out)
