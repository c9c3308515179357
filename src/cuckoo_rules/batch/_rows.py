"""Between the engine's values and the kernels' arrays: options, states and seats.

:func:`options_array` and :func:`state_row` write what the kernels read,
:func:`row_state` reads a game back as the engine's state, and :func:`seat_bots` says
who plays each seat (a bot specification of :data:`BATCH_BOTS`, or nobody: the seat is
played from outside).
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs
import numpy as np
from numpy.typing import NDArray

from .._greedy_weights import DEFAULT_END_ROUND_THRESHOLD, DEFAULT_FEED_WEIGHT
from ..botspec import BotSpec, as_specs
from ..cards import SPECIES
from ..errors import InvalidOptionsError
from ..options import OPTION_NAMES, GameOptions
from ..state import GameState
from ._layout import (
    COLLECTIONS,
    CURRENT,
    DEALER,
    DISCARD,
    DRAW_CARDS,
    DRAW_END,
    DRAW_POS,
    GREEDY,
    HANDS,
    HUMAN,
    KNOWN,
    MAX_ROW,
    NUM_OPTIONS,
    NUM_ROWS,
    NUM_SPECIES,
    PHASE,
    PHASES,
    RANDOM,
    ROUND,
    ROW_LEN,
    ROWS,
    SHUFFLES,
    TURN,
    WIDTH,
    WINNERS,
    encode_option,
)

__all__ = [
    "BATCH_BOTS",
    "SeatBots",
    "options_array",
    "row_state",
    "seat_bots",
    "state_row",
]

BATCH_BOTS: tuple[str, ...] = ("random", "greedy")
"""The bot kinds that can play a seat inside the kernels."""

_KINDS = {"random": RANDOM, "greedy": GREEDY}
_PHASE_CODE = {phase: code for code, phase in enumerate(PHASES)}


def options_array(options: GameOptions) -> NDArray[np.int64]:
    """The options as the kernels read them: one integer per option, in format order.

    A number is itself, a flag 0 or 1, and a word the index of its value among the
    option's values (:func:`~cuckoo_rules.options.option_info`).

    Example:
        >>> options_array(GameOptions(num_players=4, round_end_timing="immediate")).tolist()
        [4, 3, 0, 1, 0, 1, 1, 0, 0]
    """
    if not isinstance(options, GameOptions):
        raise InvalidOptionsError(f"options: expected GameOptions, got {options!r}")
    values = np.zeros(NUM_OPTIONS, dtype=np.int64)
    for index, name in enumerate(OPTION_NAMES):
        values[index] = encode_option(name, getattr(options, name))
    return values


def state_row(state: GameState) -> NDArray[np.int16]:
    """The kernels' row of ``state`` (the layout of ``_layout``), without its seed.

    :meth:`BatchGame.set_state <cuckoo_rules.batch.BatchGame.set_state>` stores it; a
    search fills its own arrays with it.
    """
    row = np.zeros(WIDTH, dtype=np.int16)
    for r, cards in enumerate(state.rows):
        row[ROW_LEN + r] = len(cards)
        for j, card in enumerate(cards):
            row[ROWS + r * MAX_ROW + j] = card.index
    for j, card in enumerate(state.draw_pile):
        row[DRAW_CARDS + j] = card.index
    row[DRAW_POS] = 0
    row[DRAW_END] = len(state.draw_pile)
    row[DISCARD : DISCARD + NUM_SPECIES] = state.discard_pile
    for p in range(state.num_players):
        for offset, counts in (
            (HANDS, state.hands[p]),
            (KNOWN, state.known_hands[p]),
            (COLLECTIONS, state.collections[p]),
        ):
            row[offset + p * NUM_SPECIES : offset + (p + 1) * NUM_SPECIES] = counts
    row[PHASE] = _PHASE_CODE[state.phase]
    row[CURRENT] = state.current_player
    row[DEALER] = state.dealer
    row[ROUND] = state.round
    row[TURN] = state.turn
    row[SHUFFLES] = state.shuffles
    row[WINNERS] = sum(1 << p for p in state.winners)
    return row


def row_state(row: NDArray[np.int16], options: GameOptions, seed: int) -> GameState:
    """The engine's state of a kernels' row (the inverse of :func:`state_row`)."""
    s = row.astype(np.int64).tolist()
    n = options.num_players

    def counts(offset: int, seat: int) -> tuple[int, ...]:
        start = offset + seat * NUM_SPECIES
        return tuple(s[start : start + NUM_SPECIES])

    rows = tuple(
        tuple(SPECIES[c] for c in s[ROWS + r * MAX_ROW : ROWS + r * MAX_ROW + s[ROW_LEN + r]])
        for r in range(NUM_ROWS)
    )
    draw = tuple(SPECIES[c] for c in s[DRAW_CARDS + s[DRAW_POS] : DRAW_CARDS + s[DRAW_END]])
    return GameState(
        options=options,
        seed=seed,
        shuffles=s[SHUFFLES],
        round=s[ROUND],
        turn=s[TURN],
        dealer=s[DEALER],
        current_player=s[CURRENT],
        phase=PHASES[s[PHASE]],
        rows=rows,
        draw_pile=draw,
        discard_pile=counts(DISCARD, 0),
        hands=tuple(counts(HANDS, p) for p in range(n)),
        known_hands=tuple(counts(KNOWN, p) for p in range(n)),
        collections=tuple(counts(COLLECTIONS, p) for p in range(n)),
        winners=tuple(p for p in range(n) if s[WINNERS] >> p & 1),
    )


@attrs.frozen
class SeatBots:
    """The kernels' description of who plays each seat.

    Attributes:
        kinds: Per seat, ``HUMAN`` (played from outside), ``RANDOM`` or ``GREEDY``.
        feed_weights: Per seat, the greedy bot's ``feed_weight``.
        thresholds: Per seat, the greedy bot's ``end_round_threshold``.
    """

    kinds: NDArray[np.int64]
    feed_weights: NDArray[np.float64]
    thresholds: NDArray[np.int64]


def seat_bots(seats: Sequence[str | BotSpec | None] | None, players: int) -> SeatBots:
    """Who plays each seat: ``seats`` as :class:`~cuckoo_rules.batch.BatchGame` takes it.

    Raises:
        InvalidOptionsError: If ``seats`` is not one entry per seat, or a bot cannot play
            inside the kernels.
        BotSpecError: If a bot specification is malformed.
    """
    kinds = np.full(players, HUMAN, dtype=np.int64)
    feed = np.full(players, DEFAULT_FEED_WEIGHT, dtype=np.float64)
    thresholds = np.full(players, DEFAULT_END_ROUND_THRESHOLD, dtype=np.int64)
    if seats is None:
        return SeatBots(kinds, feed, thresholds)
    if isinstance(seats, str | BotSpec) or len(seats) != players:
        raise InvalidOptionsError(
            f"seats: expected one entry per seat ({players}: None or a bot spec), got {seats!r}"
        )
    for seat, item in enumerate(seats):
        if item is None:
            continue
        (spec,) = as_specs([item], f"seats[{seat}]", InvalidOptionsError)
        if spec.kind not in BATCH_BOTS:
            raise InvalidOptionsError(
                f"seats[{seat}]: {spec.text or spec.kind!r} cannot play inside the batch "
                f"kernels (choose from {', '.join(BATCH_BOTS)})"
            )
        spec.check()  # the parameters' values
        params = dict(spec.params)
        kinds[seat] = _KINDS[spec.kind]
        feed[seat] = float(params.get("feed_weight", DEFAULT_FEED_WEIGHT))
        thresholds[seat] = int(params.get("end_round_threshold", DEFAULT_END_ROUND_THRESHOLD))
    return SeatBots(kinds, feed, thresholds)
