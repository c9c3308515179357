"""The rules' decisions that are plain arithmetic, each stated once.

What a flock sends home, whether a lay's row is refilled, what follows a lay (the
optional draw, the end of the turn or the flock check), whether the cards run out at a
round's end and who deals and starts the next round: the engine
(:mod:`cuckoo_rules.engine`), the previews (:mod:`cuckoo_rules.preview`) and the batch
simulator's compiled kernels (:mod:`cuckoo_rules.batch`) all ask these functions. They
take and return plain integers and booleans only, so that numba compiles them as they
are (``numba.njit(after_lay)``); the other facts of the rules they need (the flock
sizes, the hand size, the winning collections) come from the model modules
(:mod:`cuckoo_rules.cards`, :mod:`cuckoo_rules.outcome`) and from here.

Example:
    >>> flock_birds_home(4, small=3, big=4), flock_birds_home(3, small=3, big=4)
    (2, 1)
    >>> after_lay(0, absent=True, draw_if_adjacent=False, round_ends=False, piles=5)
    1
    >>> after_lay(0, True, False, False, 5) == OFFER_DRAW
    True
"""

from __future__ import annotations

from .actions import Side
from .cards import NUM_SPECIES, Species
from .state import Row

__all__ = [
    "DRAW_SIZE",
    "END_TURN",
    "FLOCK_CHECK",
    "HAND_SIZE",
    "NEXT_ROUND_RULES",
    "OFFER_DRAW",
    "after_lay",
    "capture_sizes",
    "captured_by",
    "flock_birds_home",
    "lay_refills",
    "next_round_seats",
    "out_of_cards",
]

HAND_SIZE = 8
"""Cards dealt to each player at the start of a round (rules §2.4)."""

DRAW_SIZE = 2
"""Cards the optional draw takes from the top of the draw pile (rules §3.1); fewer when
both piles run out."""

FLOCK_CHECK = 0
"""What follows a lay: the flock check (a flock phase if one is possible, else the turn ends)."""

OFFER_DRAW = 1
"""What follows a lay: the optional draw is offered (the draw phase)."""

END_TURN = 2
"""What follows a lay: the turn ends at once (the hand is empty and the round ends now)."""

NEXT_ROUND_RULES: tuple[str, ...] = ("round_ender", "left_of_round_ender", "same_dealer")
"""The values of ``GameOptions.next_round_first_player``; :func:`next_round_seats` takes
the index of one."""

_LEFT_OF_ENDER = NEXT_ROUND_RULES.index("left_of_round_ender")
_SAME_DEALER = NEXT_ROUND_RULES.index("same_dealer")


def flock_birds_home(count: int, small: int, big: int) -> int:
    """How many of ``count`` birds of one species a flock sends home (rules §3.2).

    Args:
        count: The birds of the species in the hand, all revealed.
        small: The species' small flock (:attr:`Species.small_flock
            <cuckoo_rules.Species.small_flock>`).
        big: The species' big flock.

    Returns:
        2 for a big flock, 1 for a small one, 0 below a small flock (which may not be
        revealed).

    Example:
        >>> flock_birds_home(2, 2, 3), flock_birds_home(1, 2, 3)
        (1, 0)
    """
    if count >= big:
        return 2
    return 1 if count >= small else 0


def lay_refills(captured: int, absent: bool, same_species_trigger: bool, one_species: bool) -> bool:
    """Whether a lay refills its row from the draw pile (rules §3.1).

    A row left with one species after a capture is refilled; with ``refill_trigger =
    "same_species_lay"`` so is one left with one species by a lay next to birds of its
    own species. A lay of a species absent from the row never refills it. The refill
    itself stops when both piles are empty.

    Args:
        captured: The cards the lay captured.
        absent: Whether the species was absent from the row before the lay.
        same_species_trigger: Whether ``refill_trigger`` is ``"same_species_lay"``.
        one_species: Whether the row after the lay holds one species only.

    Example:
        >>> lay_refills(2, False, False, True), lay_refills(0, False, False, True)
        (True, False)
        >>> lay_refills(0, False, True, True), lay_refills(0, True, True, True)
        (True, False)
    """
    return one_species and not absent and (captured > 0 or same_species_trigger)


def after_lay(
    captured: int, absent: bool, draw_if_adjacent: bool, round_ends: bool, piles: int
) -> int:
    """What follows a lay (rules §3.1, §4.1): the draw, the end of the turn or the flock check.

    One of :data:`OFFER_DRAW`, :data:`END_TURN` or :data:`FLOCK_CHECK`. A lay that
    captured goes to the flock check. One that captured nothing ends the turn at once
    when it emptied the hand and the round ends immediately (``round_end_timing =
    "immediate"``); otherwise it offers the draw if the piles hold a card and the species
    was absent from the row (or ``optional_draw_if_adjacent``).

    Args:
        captured: The cards the lay captured.
        absent: Whether the species was absent from the row.
        draw_if_adjacent: The option ``optional_draw_if_adjacent``.
        round_ends: Whether the round ends at once: the option ``round_end_timing`` is
            ``"immediate"`` and the lay emptied the hand.
        piles: The cards in the draw and discard piles after the lay (and its refill).

    Example:
        >>> after_lay(1, False, True, False, 9) == FLOCK_CHECK
        True
        >>> after_lay(0, True, False, True, 9) == END_TURN
        True
        >>> after_lay(0, False, False, False, 9) == FLOCK_CHECK
        True
    """
    if captured:
        return FLOCK_CHECK
    if round_ends:
        return END_TURN
    if piles > 0 and (absent or draw_if_adjacent):
        return OFFER_DRAW
    return FLOCK_CHECK


def out_of_cards(available: int, players: int) -> bool:
    """Whether the game ends at a round's end for want of cards (rules §4.2).

    Args:
        available: The cards left to deal: the draw pile, and the discard pile too when
            ``exhaustion_counts_discard`` is set.
        players: The number of players.

    Example:
        >>> out_of_cards(23, 3), out_of_cards(24, 3)
        (True, False)
    """
    return available < HAND_SIZE * players


def next_round_seats(rule: int, dealer: int, ender: int, players: int) -> tuple[int, int]:
    """The next round's dealer and first player (rules §4.3).

    Args:
        rule: The index in :data:`NEXT_ROUND_RULES` of ``next_round_first_player``.
        dealer: The dealer of the round that ended.
        ender: The player who ended it (whose hand emptied).
        players: The number of players.

    Returns:
        ``(dealer, first)``: the player who ended the round deals and starts
        (``"round_ender"``), deals and lets the left neighbour start
        (``"left_of_round_ender"``), or the dealer stays and starts (``"same_dealer"``).

    Example:
        >>> next_round_seats(0, 2, 1, 3), next_round_seats(1, 2, 1, 3), next_round_seats(2, 2, 1, 3)
        ((1, 1), (1, 2), (2, 2))
    """
    new_dealer = dealer if rule == _SAME_DEALER else ender
    first = (ender + 1) % players if rule == _LEFT_OF_ENDER else new_dealer
    return new_dealer, first


def captured_by(row: Row, species: Species, side: Side) -> tuple[Species, ...] | None:
    """Return the cards a lay of ``species`` at ``side`` of ``row`` captures (rules §3.1).

    Returns:
        The cards strictly between the laid birds and the nearest bird of the species,
        left to right (none when that bird is the end card), or ``None`` when the species
        is not in the row.

    Example:
        >>> from cuckoo_rules import Species as S
        >>> captured_by((S.OWL, S.DUCK, S.ROBIN), S.ROBIN, Side.LEFT)
        (Species.OWL, Species.DUCK)
        >>> captured_by((S.OWL, S.DUCK), S.ROBIN, Side.LEFT) is None
        True
    """
    if species not in row:
        return None
    if side is Side.LEFT:
        return row[: row.index(species)]
    return row[len(row) - row[::-1].index(species) :]


def capture_sizes(row: Row) -> tuple[list[int], list[int], list[int]]:
    """Return, for every species at once, how many cards its lays on ``row`` capture.

    This is :func:`captured_by` for every lay on a row in one pass, for the bots and the
    observation encoder that weigh them all: a lay of species ``i`` at the left captures
    ``row[:left[i]]``, at the right ``row[len(row) - right[i]:]``, provided ``counts[i]``
    (the birds of the species in the row) is not zero; a species absent from the row
    captures nothing.

    Args:
        row: A row, left to right.

    Returns:
        ``(counts, left, right)``, three lists of eight integers indexed by species
        index (:attr:`Species.index <cuckoo_rules.Species.index>`).

    Example:
        >>> from cuckoo_rules import Species as S
        >>> counts, left, right = capture_sizes((S.OWL, S.DUCK, S.ROBIN, S.OWL))
        >>> counts[S.OWL.index], left[S.ROBIN.index], right[S.DUCK.index]
        (2, 2, 2)
    """
    last = len(row) - 1
    counts = [0] * NUM_SPECIES
    left = [0] * NUM_SPECIES
    right = [0] * NUM_SPECIES
    for position, card in enumerate(row):
        i = card.index
        if not counts[i]:
            left[i] = position
        counts[i] += 1
        right[i] = last - position
    return counts, left, right
