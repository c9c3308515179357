"""The immutable game state (``interchange.md`` §4).

A :class:`GameState` is a frozen, hashable value. Multisets of cards (hands, known
parts of hands, collections, the discard pile) are stored as :data:`Counts`: tuples of
eight counts in canonical species order, so ``state.hands[1][Species.OWL.index]`` is
the number of owls in player 1's hand. :func:`counts_to_dict` turns them into
dictionaries for display.
"""

from __future__ import annotations

import operator
from typing import TypeAlias

import attrs

from .actions import Phase
from .cards import NUM_SPECIES, SPECIES, Species
from .options import GameOptions
from .outcome import Outcome

__all__ = [
    "DECK_COUNTS",
    "EMPTY_COUNTS",
    "Counts",
    "GameState",
    "Row",
    "can_fly_home",
    "counts_to_dict",
    "dict_to_counts",
]

Counts: TypeAlias = tuple[int, ...]
"""A multiset of cards: eight counts in canonical species order."""

Row: TypeAlias = tuple[Species, ...]
"""A row of cards, left to right."""

EMPTY_COUNTS: Counts = (0,) * NUM_SPECIES
"""The empty multiset."""

DECK_COUNTS: Counts = tuple(s.copies for s in SPECIES)
"""The whole deck as a multiset: the number of cards of each species."""


def counts_to_dict(counts: Counts) -> dict[Species, int]:
    """Return the non-zero counts of a multiset as a dictionary in species order.

    Example:
        >>> counts_to_dict((0, 1, 0, 0, 0, 2, 0, 0))
        {Species.OWL: 1, Species.MAGPIE: 2}
    """
    return {s: n for s, n in zip(SPECIES, counts, strict=True) if n}


def dict_to_counts(cards: dict[Species, int]) -> Counts:
    """Return the :data:`Counts` of a ``{species: count}`` dictionary.

    Example:
        >>> dict_to_counts({Species.MAGPIE: 2, Species.OWL: 1})
        (0, 1, 0, 0, 0, 2, 0, 0)
    """
    return tuple(cards.get(s, 0) for s in SPECIES)


_SMALL: Counts = tuple(s.small_flock for s in SPECIES)


def can_fly_home(hand: Counts) -> bool:
    """Whether a hand holds at least a small flock of some species (rules §3.2).

    Example:
        >>> can_fly_home((2, 0, 0, 0, 0, 0, 0, 0)), can_fly_home((1, 2, 2, 3, 3, 4, 5, 5))
        (True, False)
    """
    return any(map(operator.ge, hand, _SMALL))  # at C speed: this runs on every turn


def _rows_repr(rows: tuple[Row, ...]) -> str:
    return "[" + ", ".join("[" + " ".join(s.value for s in row) + "]" for row in rows) + "]"


def _counts_repr(counts: Counts) -> str:
    inner = ", ".join(f"{s.value}: {n}" for s, n in counts_to_dict(counts).items())
    return "{" + inner + "}"


@attrs.frozen(repr=False)
class GameState:
    """Everything about a game at one moment, hidden parts included.

    Build one with :func:`cuckoo_rules.new_game` or :func:`cuckoo_rules.decode_state`,
    and move on with :func:`cuckoo_rules.apply`; never change one in place (it is
    frozen). Two states are equal when all their fields are, and equal states hash alike.

    The fields mirror the JSON state format v1 field by field.

    Attributes:
        options: The game's options.
        seed: The seed the game was dealt with; later reshuffles use it too.
        shuffles: How many random streams have been used so far.
        round: The round number, from 1.
        turn: The turn number over the whole game, from 1.
        dealer: The seat that dealt the current round.
        current_player: The seat to act (after the game ends, the seat whose turn ended it).
        phase: What the current player is to decide.
        rows: The four rows, each left to right.
        draw_pile: The draw pile, top card first.
        discard_pile: The discard pile as counts.
        hands: Each seat's hand as counts.
        known_hands: For each seat, the part of its hand every player has seen enter it
            (captured cards) and that has not provably left it since.
        collections: Each seat's collection as counts.
        winners: The winning seats in increasing order; empty until the game is over.
    """

    options: GameOptions
    seed: int
    shuffles: int
    round: int
    turn: int
    dealer: int
    current_player: int
    phase: Phase
    rows: tuple[Row, ...]
    draw_pile: tuple[Species, ...]
    discard_pile: Counts
    hands: tuple[Counts, ...]
    known_hands: tuple[Counts, ...]
    collections: tuple[Counts, ...]
    winners: tuple[int, ...]

    @property
    def num_players(self) -> int:
        """The number of seats."""
        return self.options.num_players

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.phase is Phase.GAME_OVER

    @property
    def outcome(self) -> Outcome | None:
        """Who won and why, and each seat's share, once the game is over (else ``None``)."""
        if self.phase is not Phase.GAME_OVER:
            return None
        return Outcome.of(self.winners, self.current_player, self.collections)

    def hand(self, player: int) -> dict[Species, int]:
        """Return a seat's hand as a ``{species: count}`` dictionary in species order."""
        return counts_to_dict(self.hands[player])

    def collection(self, player: int) -> dict[Species, int]:
        """Return a seat's collection as a ``{species: count}`` dictionary."""
        return counts_to_dict(self.collections[player])

    def hand_size(self, player: int) -> int:
        """Return the number of cards in a seat's hand."""
        return sum(self.hands[player])

    def collection_size(self, player: int) -> int:
        """Return the number of cards in a seat's collection."""
        return sum(self.collections[player])

    def __repr__(self) -> str:
        hands = ", ".join(_counts_repr(h) for h in self.hands)
        collections = ", ".join(_counts_repr(c) for c in self.collections)
        return (
            f"<GameState players={self.num_players} seed={self.seed} round={self.round} "
            f"turn={self.turn} phase={self.phase.value} current_player={self.current_player} "
            f"dealer={self.dealer} winners={list(self.winners)} rows={_rows_repr(self.rows)} "
            f"hands=[{hands}] collections=[{collections}] draw_pile={len(self.draw_pile)} "
            f"discard_pile={sum(self.discard_pile)}>"
        )
