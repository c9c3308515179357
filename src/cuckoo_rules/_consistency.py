"""The consistency checks that a state and a view share (internal).

:func:`cuckoo_rules.decode_state` checks a state with them, and
:func:`cuckoo_rules.views.check_view_consistency` a view (which :func:`~cuckoo_rules.decode_view`
and :func:`~cuckoo_rules.determinize` both call). Each returns what is wrong, as
``"field: message"``, or ``None``; the caller raises the error of its kind with it, so
that a state and a view that break the same rule are refused with the same words.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence

from .actions import Phase
from .cards import SPECIES
from .state import Counts, PublicState, can_fly_home, flock_prompt_needs_flock

__all__ = ["known_problem", "phase_problem"]


def known_problem(known: Counts, seat: int, hand: Counts, where: str) -> str | None:
    """Say what is wrong if a seat's known cards are not all in its hand.

    Args:
        known: The known part of the seat's hand (``known_hands[seat]``).
        seat: The seat.
        hand: The seat's hand.
        where: The hand's field, for the message (``"hands[1]"`` or ``"hand"``).

    Returns:
        ``"known_hands[<seat>].<species>: <n> known but <where> holds <m>"`` for the
        first species that is off, or ``None`` if every known card is held.
    """
    if all(map(operator.le, known, hand)):
        return None
    for species in SPECIES:
        count, held = known[species.index], hand[species.index]
        if count > held:
            return f"known_hands[{seat}].{species.value}: {count} known but {where} holds {held}"
    return None  # not reached: some species is off


def phase_problem(
    part: PublicState,
    hand: Counts | None,
    hand_sizes: Sequence[int],
    piles: int,
    field: str,
) -> str | None:
    """Say what is wrong if the phase of a state or a view cannot be (``interchange.md`` §4).

    In ``lay`` the seat to act holds cards; until the game is over every other seat
    holds cards; in ``draw`` the piles are not both empty; in ``flock`` (unless
    ``always_prompt_flock``) a hand that is known holds a flock.

    Args:
        part: The public part of the state or view.
        hand: The acting seat's hand, or ``None`` where it is hidden.
        hand_sizes: The number of cards each seat holds.
        piles: The number of cards in the draw and discard piles together.
        field: Where the hand sizes are, for the message (``"hands"`` or ``"hand_sizes"``).

    Returns:
        ``"<field>: <message>"`` naming the first rule broken, or ``None``.
    """
    current, phase = part.current_player, part.phase
    if phase is Phase.LAY and hand_sizes[current] == 0:
        return f"{field}[{current}]: player {current} is to lay but holds no cards"
    if phase is not Phase.GAME_OVER and 0 in hand_sizes:
        # A hand only empties on its own turn, and the end of that turn ends the round.
        for seat, size in enumerate(hand_sizes):
            if size == 0 and seat != current:
                return (
                    f"{field}[{seat}]: player {seat} holds no cards but is not to act; only "
                    "the player to act can have emptied its hand before the game is over"
                )
    if phase is Phase.DRAW and piles == 0:
        return "phase: 'draw' is offered only when the draw or discard pile holds cards"
    if (
        phase is Phase.FLOCK
        and hand is not None
        and flock_prompt_needs_flock(part.options)
        and not can_fly_home(hand)
    ):
        return f"phase: 'flock' but player {current} holds no flock"
    return None
