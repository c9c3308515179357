"""How a game ends: the winning collections (rules §3.3), the most cards (§4.2), the outcome.

The rules of winning live here, once: :func:`has_won` and :func:`win_reason` for a
collection, :func:`most_cards_winners` for a game that runs out of cards, and
:func:`winner_shares` for each seat's share of a victory. The engine ends games with
them, and :attr:`GameState.outcome <cuckoo_rules.GameState.outcome>` (and the same on a
:class:`~cuckoo_rules.PlayerView`) says who won and why, so that no front end works it out
again.

Example:
    >>> import cuckoo_rules as cr
    >>> state = cr.new_game(cr.GameOptions(num_players=2), seed=1)
    >>> state.outcome is None
    True
    >>> while not state.is_over:
    ...     state = cr.apply(state, cr.legal_actions(state)[0])
    >>> state.outcome
    Outcome(winners=(0,), reason='seven_species', shares=(1.0, 0.0))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import attrs

__all__ = [
    "SPECIES_TO_WIN",
    "TRIPLE",
    "TRIPLES_TO_WIN",
    "Outcome",
    "WinProgress",
    "WinReason",
    "has_won",
    "most_cards_winners",
    "win_progress",
    "win_reason",
    "winner_shares",
    "wins",
]

SPECIES_TO_WIN = 7
"""A collection of this many species wins (rules §3.3)."""

TRIPLE = 3
"""The cards of one species that make a triple."""

TRIPLES_TO_WIN = 2
"""A collection with this many triples wins (rules §3.3)."""

WinReason = Literal["seven_species", "two_triples", "most_cards"]
"""Why a game ended: a collection of 7 species, of two triples, or the cards ran out."""


def has_won(collection: Sequence[int]) -> bool:
    """Whether a collection wins: 7 species, or 3 or more cards of each of 2 species (§3.3).

    Example:
        >>> has_won((3, 0, 3, 0, 0, 0, 0, 0)), has_won((1, 1, 1, 1, 1, 1, 0, 0))
        (True, False)
    """
    species = 0
    triples = 0
    for count in collection:
        if count:
            species += 1
            if count >= TRIPLE:
                triples += 1
    return wins(species, triples)


def wins(species: int, triples: int) -> bool:
    """Whether a collection of ``species`` species, ``triples`` of them triples, wins (§3.3).

    The winning rule on its two numbers, in plain integers, for :func:`has_won` and for
    the batch simulator's compiled kernels alike.

    Example:
        >>> wins(7, 0), wins(2, 2), wins(6, 1)
        (True, True, False)
    """
    return species >= SPECIES_TO_WIN or triples >= TRIPLES_TO_WIN


@attrs.frozen
class WinProgress:
    """How far a collection is from winning, for display.

    Attributes:
        species: The species it holds (it wins with :data:`SPECIES_TO_WIN`).
        triples: The species it holds three or more of (it wins with
            :data:`TRIPLES_TO_WIN`).
        cards: The cards it holds (what counts when the cards run out, §4.2).
    """

    species: int
    triples: int
    cards: int


def win_progress(collection: Sequence[int]) -> WinProgress:
    """Return how far ``collection`` is from each way of winning.

    Example:
        >>> win_progress((3, 1, 0, 0, 0, 0, 0, 4))
        WinProgress(species=3, triples=2, cards=8)
    """
    return WinProgress(
        sum(1 for count in collection if count),
        sum(1 for count in collection if count >= TRIPLE),
        sum(collection),
    )


def win_reason(collection: Sequence[int]) -> WinReason:
    """Why a winning collection wins: ``"seven_species"`` if it has 7, else ``"two_triples"``.

    A collection that meets both conditions is said to win by its 7 species.

    Example:
        >>> win_reason((3, 0, 3, 0, 0, 0, 0, 0)), win_reason((1, 1, 1, 1, 1, 1, 1, 0))
        ('two_triples', 'seven_species')
    """
    return (
        "seven_species"
        if sum(1 for count in collection if count) >= SPECIES_TO_WIN
        else "two_triples"
    )


def most_cards_winners(collections: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """The seats with the most cards in their collection (rules §4.2), in seat order.

    Example:
        >>> most_cards_winners([(2, 1), (0, 3), (1, 0)])
        (0, 1)
    """
    sizes = [sum(c) for c in collections]
    best = max(sizes)
    return tuple(seat for seat, size in enumerate(sizes) if size == best)


def winner_shares(winners: Sequence[int], num_players: int) -> tuple[float, ...]:
    """Return each seat's share of a victory: ``1 / len(winners)`` for a winner, else 0.

    A victory shared by ``k`` seats is split equally, so the shares of a finished game
    sum to 1 (up to rounding); with no winners (a game not over) every share is 0.

    Args:
        winners: The winning seats, such as :attr:`GameState.winners`.
        num_players: The number of seats.

    Returns:
        One share per seat, in seat order.

    Example:
        >>> winner_shares((0, 2), 3)
        (0.5, 0.0, 0.5)
        >>> winner_shares((), 2)
        (0.0, 0.0)
    """
    if not winners:
        return (0.0,) * num_players
    share = 1.0 / len(winners)
    return tuple(share if seat in winners else 0.0 for seat in range(num_players))


@attrs.frozen
class Outcome:
    """How a finished game ended: who won, why, and each seat's share of the victory.

    Read it from :attr:`GameState.outcome <cuckoo_rules.GameState.outcome>` or
    :attr:`PlayerView.outcome <cuckoo_rules.PlayerView.outcome>`, which are ``None``
    until the game is over.

    Attributes:
        winners: The winning seats in increasing order (several share a victory).
        reason: ``"seven_species"`` or ``"two_triples"`` when a collection won at the end
            of its turn, ``"most_cards"`` when the cards ran out (rules §4.2).
        shares: Each seat's share of the victory (:func:`winner_shares`).
    """

    winners: tuple[int, ...]
    reason: WinReason
    shares: tuple[float, ...]

    @classmethod
    def of(
        cls,
        winners: tuple[int, ...],
        current_player: int,
        collections: Sequence[Sequence[int]],
    ) -> Outcome:
        """The outcome of a finished game from its public facts.

        A game ended by a winning collection ends at once with its player to act, alone
        among the winners; a game whose cards ran out ends on a collection that does not
        win (a win is checked first, rules §3.3), so the public state tells the two apart.

        Args:
            winners: The winning seats (non-empty).
            current_player: The seat whose turn ended the game.
            collections: Every seat's collection as counts.
        """
        mine = collections[current_player]
        reason = win_reason(mine) if has_won(mine) else "most_cards"
        return cls(winners, reason, winner_shares(winners, len(collections)))
