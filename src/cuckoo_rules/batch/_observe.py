"""The observation of one game's row: :func:`~cuckoo_rules.encode_observation` on arrays.

The offsets of the fields are those of :func:`~cuckoo_rules.observation_layout`, and
the order of the one-hot ``phase`` field is
:data:`~cuckoo_rules.observation.PHASE_ORDER`.
"""

from __future__ import annotations

import numpy as np

from ..observation import PHASE_ORDER
from ._layout import (
    COLLECTIONS,
    COPIES,
    CURRENT,
    DISCARD,
    DRAW_END,
    DRAW_POS,
    HANDS,
    KNOWN,
    MAX_ROW,
    NUM_ROWS,
    NUM_SPECIES,
    O_PLAYERS,
    OBS_COLLECTION,
    OBS_DISCARD_PILE,
    OBS_DRAW_PILE,
    OBS_HAND,
    OBS_HAND_SIZE,
    OBS_KNOWN,
    OBS_PHASE,
    OBS_ROW,
    OBS_ROW_COUNT,
    OBS_ROW_LEFT,
    OBS_ROW_RIGHT,
    OBS_ROWS,
    OBS_SEAT,
    OBS_SEATS,
    OBS_TO_ACT,
    OBS_UNSEEN,
    OBS_WINNER,
    OVER,
    PHASE,
    PHASES,
    ROW_LEN,
    ROWS,
    WINNERS,
)
from ._rules import rule

__all__ = ["observe_into"]

_PHASE_VALUE = np.array([PHASE_ORDER.index(phase) for phase in PHASES], dtype=np.int64)
"""The value of the ``phase`` field that is 1 for each phase code of a game's row."""


@rule
def observe_into(s: np.ndarray, opt: np.ndarray, viewer: int, out: np.ndarray) -> None:
    """``encode_observation(observe(state, viewer))`` into ``out`` (any numeric dtype).

    The unseen cards are counted down where they are written, in ``out`` itself.
    """
    n = opt[O_PLAYERS]
    out[:] = 0
    phase = s[PHASE]
    out[OBS_PHASE + _PHASE_VALUE[phase]] = 1
    unseen = OBS_UNSEEN
    for i in range(NUM_SPECIES):
        out[OBS_HAND + i] = s[HANDS + viewer * NUM_SPECIES + i]
        out[unseen + i] = COPIES[i]
    for seat in range(n):
        held = HANDS if seat == viewer else KNOWN
        for i in range(NUM_SPECIES):
            out[unseen + i] -= (
                s[held + seat * NUM_SPECIES + i] + s[COLLECTIONS + seat * NUM_SPECIES + i]
            )
    out[OBS_DRAW_PILE] = s[DRAW_END] - s[DRAW_POS]
    discard = 0
    for i in range(NUM_SPECIES):
        discard += s[DISCARD + i]
    out[OBS_DISCARD_PILE] = discard
    for r in range(NUM_ROWS):
        o = OBS_ROWS + OBS_ROW * r
        base = ROWS + r * MAX_ROW
        length = s[ROW_LEN + r]
        out[o] = length
        for j in range(length):
            card = s[base + j]
            if out[o + OBS_ROW_COUNT + card] == 0:
                out[o + OBS_ROW_LEFT + card] = j
            out[o + OBS_ROW_COUNT + card] += 1
            out[o + OBS_ROW_RIGHT + card] = length - 1 - j
            out[unseen + card] -= 1
    acting = -1 if phase == OVER else s[CURRENT]
    for k in range(n):
        seat = (viewer + k) % n
        o = OBS_SEATS + OBS_SEAT * k
        out[o + OBS_TO_ACT] = 1 if seat == acting else 0
        out[o + OBS_WINNER] = (s[WINNERS] >> seat) & 1
        size = 0
        for i in range(NUM_SPECIES):
            size += s[HANDS + seat * NUM_SPECIES + i]
            out[o + OBS_KNOWN + i] = s[KNOWN + seat * NUM_SPECIES + i]
            out[o + OBS_COLLECTION + i] = s[COLLECTIONS + seat * NUM_SPECIES + i]
        out[o + OBS_HAND_SIZE] = size
