"""The facts the kernels use, taken from the model, and the layout of a game's row.

Nothing here is typed again: the species and their numbers come from
:mod:`cuckoo_rules.cards`, the action ids from :mod:`cuckoo_rules.actions`, the hand size
from :mod:`cuckoo_rules.decisions`, the winning collections from
:mod:`cuckoo_rules.outcome`, the options and their values from
:mod:`cuckoo_rules.options`, and the observation's offsets from
:func:`~cuckoo_rules.observation.observation_layout`. They are computed when the module
is imported, as module globals, which numba freezes into the compiled code as constants:
reading them costs nothing at run time. The checks at the end refuse, at import, a model
that the kernels' arithmetic could not follow (say an action id layout that is not
species, row, side).

A game is one row of an ``int16`` array: the fields below (:data:`PHASE` to
:data:`WINNERS`), the rows' lengths and cards, the draw pile, the discard pile, then
hands, known hands and collections, one block of :data:`NUM_SPECIES` per seat.
"""

from __future__ import annotations

import numpy as np

from ..actions import (
    DRAW_ID,
    FLY_HOME_ACTIONS,
    FLY_HOME_ID,
    LAY_ACTIONS,
    NUM_DISTINCT_ACTIONS,
    NUM_ROWS,
    PASS_ID,
    Draw,
    Lay,
    Pass,
    Phase,
    Side,
    action_id,
)
from ..cards import DECK_SIZE, NUM_SPECIES, SPECIES
from ..decisions import HAND_SIZE, NEXT_ROUND_RULES
from ..observation import observation_layout
from ..options import MAX_PLAYERS, OPTION_NAMES, OptionValue, option_info
from ..outcome import SPECIES_TO_WIN, TRIPLE, TRIPLES_TO_WIN

__all__ = [
    "BIG",
    "COLLECTIONS",
    "COPIES",
    "CURRENT",
    "DEALER",
    "DECK_SIZE",
    "DISCARD",
    "DRAW",
    "DRAW_CARDS",
    "DRAW_END",
    "DRAW_ID",
    "DRAW_POS",
    "DUPLICATES_TO_DRAW_PILE",
    "FLOCK",
    "FLY_ID",
    "GREEDY",
    "HANDS",
    "HAND_SIZE",
    "HUMAN",
    "KNOWN",
    "LAY",
    "LAYS_PER_SPECIES",
    "LAY_RIGHT",
    "LAY_ROW",
    "MAX_PLAYERS",
    "MAX_ROW",
    "NUM_ACTIONS",
    "NUM_OPTIONS",
    "NUM_ROWS",
    "NUM_SPECIES",
    "OBS_COLLECTION",
    "OBS_DISCARD_PILE",
    "OBS_DRAW_PILE",
    "OBS_HAND",
    "OBS_HAND_SIZE",
    "OBS_KNOWN",
    "OBS_PHASE",
    "OBS_ROW",
    "OBS_ROWS",
    "OBS_ROW_COUNT",
    "OBS_ROW_LEFT",
    "OBS_ROW_RIGHT",
    "OBS_SEAT",
    "OBS_SEATS",
    "OBS_TO_ACT",
    "OBS_UNSEEN",
    "OBS_WINNER",
    "OVER",
    "O_ALWAYS_FLOCK",
    "O_COUNT_DISCARD",
    "O_DRAW_IF_ADJACENT",
    "O_DUPLICATES_TO",
    "O_NEXT_ROUND",
    "O_PLAYERS",
    "O_REFILL_TRIGGER",
    "O_ROUND_END",
    "O_ROW_LENGTH",
    "PASS_ID",
    "PHASE",
    "PHASES",
    "RANDOM",
    "REFILL_SAME_SPECIES_LAY",
    "ROUND",
    "ROUND_END_IMMEDIATE",
    "ROWS",
    "ROW_LEN",
    "SHUFFLES",
    "SMALL",
    "SPECIES_TO_WIN",
    "TRIPLE",
    "TRIPLES_TO_WIN",
    "TURN",
    "WIDTH",
    "WINNERS",
    "encode_option",
]

# --------------------------------------------------------------------------- the model

COPIES = np.array([s.copies for s in SPECIES], dtype=np.int64)
"""The cards of each species in the deck."""

SMALL = np.array([s.small_flock for s in SPECIES], dtype=np.int64)
"""The small flock of each species."""

BIG = np.array([s.big_flock for s in SPECIES], dtype=np.int64)
"""The big flock of each species."""

NUM_ACTIONS = NUM_DISTINCT_ACTIONS
"""The number of action ids (the length of a mask)."""

FLY_ID = FLY_HOME_ID
"""The id of the flock of species 0; species ``i`` has ``FLY_ID + i``."""

_FIRST_LAY = LAY_ACTIONS[0][0]
LAYS_PER_SPECIES = action_id(LAY_ACTIONS[1][0]) - action_id(_FIRST_LAY)
"""The lays of one species (a row and a side each); species ``i``'s start at
``LAYS_PER_SPECIES * i``."""

LAY_ROW = action_id(Lay(_FIRST_LAY.species, 1, Side.LEFT)) - action_id(_FIRST_LAY)
"""The distance between the ids of two lays on neighbouring rows."""

LAY_RIGHT = action_id(Lay(_FIRST_LAY.species, 0, Side.RIGHT)) - action_id(_FIRST_LAY)
"""What laying at the right end adds to a lay's id."""

PHASES: tuple[Phase, ...] = tuple(Phase)
"""The phases by code: the order of the observation's one-hot ``phase`` field."""

LAY = PHASES.index(Phase.LAY)
DRAW = PHASES.index(Phase.DRAW)
FLOCK = PHASES.index(Phase.FLOCK)
OVER = PHASES.index(Phase.GAME_OVER)

# --------------------------------------------------------------------------- a game's row

PHASE = 0
CURRENT = 1
DEALER = 2
ROUND = 3
TURN = 4
SHUFFLES = 5
DRAW_POS = 6  # the draw pile is DRAW_CARDS[DRAW_POS:DRAW_END], top first
DRAW_END = 7
WINNERS = 8  # a bit per winning seat
ROW_LEN = 10
MAX_ROW = DECK_SIZE
"""The cards a row has room for: every card of the game."""
ROWS = ROW_LEN + NUM_ROWS
DRAW_CARDS = ROWS + NUM_ROWS * MAX_ROW
DISCARD = DRAW_CARDS + DECK_SIZE
HANDS = DISCARD + NUM_SPECIES
"""Where the hands start: seat ``p``'s is ``NUM_SPECIES`` counts at ``HANDS + p * NUM_SPECIES``."""
KNOWN = HANDS + MAX_PLAYERS * NUM_SPECIES
COLLECTIONS = KNOWN + MAX_PLAYERS * NUM_SPECIES
WIDTH = COLLECTIONS + MAX_PLAYERS * NUM_SPECIES
"""The length of a game's row."""

# --------------------------------------------------------------------------- options

NUM_OPTIONS = len(OPTION_NAMES)
"""The options, one integer each, in format order (see :func:`encode_option`)."""

O_PLAYERS = OPTION_NAMES.index("num_players")
O_ROW_LENGTH = OPTION_NAMES.index("initial_row_length")
O_DUPLICATES_TO = OPTION_NAMES.index("setup_duplicates_to")
O_DRAW_IF_ADJACENT = OPTION_NAMES.index("optional_draw_if_adjacent")
O_REFILL_TRIGGER = OPTION_NAMES.index("refill_trigger")
O_ROUND_END = OPTION_NAMES.index("round_end_timing")
O_COUNT_DISCARD = OPTION_NAMES.index("exhaustion_counts_discard")
O_NEXT_ROUND = OPTION_NAMES.index("next_round_first_player")
O_ALWAYS_FLOCK = OPTION_NAMES.index("always_prompt_flock")

_CHOICES: dict[str, tuple[OptionValue, ...]] = {info.name: info.values for info in option_info()}


def encode_option(name: str, value: OptionValue) -> int:
    """The integer the kernels read for option ``name``: the number, or the value's index.

    A number (the players, the row length) is itself, a flag 0 or 1, and a word its
    index among the option's values (:func:`~cuckoo_rules.options.option_info`).

    Example:
        >>> encode_option("round_end_timing", "immediate"), encode_option("num_players", 4)
        (1, 4)
    """
    if type(value) is str:
        return _CHOICES[name].index(value)
    return int(value)


DUPLICATES_TO_DRAW_PILE = encode_option("setup_duplicates_to", "draw_pile")
REFILL_SAME_SPECIES_LAY = encode_option("refill_trigger", "same_species_lay")
ROUND_END_IMMEDIATE = encode_option("round_end_timing", "immediate")

# --------------------------------------------------------------------------- bots

HUMAN, RANDOM, GREEDY = 0, 1, 2  # who plays a seat: from outside, or a batched bot

# --------------------------------------------------------------------------- observation

_FIELDS = {field.name: field for field in observation_layout(MAX_PLAYERS)}
OBS_PHASE = _FIELDS["phase"].offset
OBS_HAND = _FIELDS["hand"].offset
OBS_UNSEEN = _FIELDS["unseen"].offset
OBS_DRAW_PILE = _FIELDS["draw_pile_size"].offset
OBS_DISCARD_PILE = _FIELDS["discard_pile_size"].offset
OBS_ROWS = _FIELDS["row[0].length"].offset
OBS_ROW = _FIELDS["row[1].length"].offset - OBS_ROWS
"""The values of one row; the fields below are offsets within a row's values."""
OBS_ROW_COUNT = _FIELDS["row[0].count"].offset - OBS_ROWS
OBS_ROW_LEFT = _FIELDS["row[0].capture_left"].offset - OBS_ROWS
OBS_ROW_RIGHT = _FIELDS["row[0].capture_right"].offset - OBS_ROWS
OBS_SEATS = _FIELDS["seat[0].to_act"].offset
OBS_SEAT = _FIELDS["seat[1].to_act"].offset - OBS_SEATS
"""The values of one seat; the fields below are offsets within a seat's values."""
OBS_TO_ACT = 0
OBS_WINNER = _FIELDS["seat[0].winner"].offset - OBS_SEATS
OBS_HAND_SIZE = _FIELDS["seat[0].hand_size"].offset - OBS_SEATS
OBS_KNOWN = _FIELDS["seat[0].known_hand"].offset - OBS_SEATS
OBS_COLLECTION = _FIELDS["seat[0].collection"].offset - OBS_SEATS


# --------------------------------------------------------------------------- checks


def _check() -> None:
    """Refuse, at import, a model the kernels' arithmetic does not follow."""
    lays = [(lay, action_id(lay)) for lays in LAY_ACTIONS for lay in lays]
    for lay, index in lays:  # lay ids: species, then row, then side (_rules.lay_parts)
        within = index % LAYS_PER_SPECIES
        parts = (index // LAYS_PER_SPECIES, within // LAY_ROW, within % LAY_ROW == LAY_RIGHT)
        if parts != (lay.species.index, lay.row, lay.side is Side.RIGHT):
            raise ImportError(f"the kernels cannot decode the id {index} of {lay!r}")
    if sorted(index for _, index in lays) != list(range(DRAW_ID)):
        raise ImportError("the kernels take the ids below DRAW_ID for the lays")
    fly_ids = [action_id(a) for a in FLY_HOME_ACTIONS]
    if fly_ids != list(range(FLY_ID, FLY_ID + NUM_SPECIES)) or PASS_ID != NUM_ACTIONS - 1:
        raise ImportError("the kernels take FLY_ID + i for flock i and the last id for pass")
    if action_id(Draw()) != DRAW_ID or action_id(Pass()) != PASS_ID or DRAW_ID + 1 != FLY_ID:
        raise ImportError("the kernels take the ids of draw, the flocks and pass in order")
    if _FIELDS["phase"].size != len(PHASES):
        raise ImportError("the observation's phase field is one value per phase")
    if _CHOICES["next_round_first_player"] != NEXT_ROUND_RULES:
        raise ImportError("next_round_first_player's values are decisions.NEXT_ROUND_RULES")
    if max(s.copies for s in SPECIES) > np.iinfo(np.int16).max:
        raise ImportError("a game's row holds its counts as int16")


_check()
