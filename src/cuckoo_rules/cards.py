"""The bird species, their flock sizes and the deck (rules §1)."""

from __future__ import annotations

from enum import Enum

__all__ = ["DECK_SIZE", "NUM_SPECIES", "SPECIES", "Species", "canonical_deck"]


class Species(Enum):
    """One of the eight bird species, in canonical order.

    The value of a member is its JSON id (``Species.REED_WARBLER.value == "reed_warbler"``).
    Every member also knows its place in the canonical order and the numbers printed on
    its cards.

    Attributes:
        index: Position in the canonical species order (0 for ``FLAMINGO``).
        copies: How many cards of this species the deck holds.
        small_flock: Cards needed to fly home one bird.
        big_flock: Cards needed to fly home two birds.

    Example:
        >>> Species("owl").small_flock, Species.OWL.big_flock, Species.OWL.copies
        (3, 4, 10)
    """

    index: int
    copies: int
    small_flock: int
    big_flock: int

    FLAMINGO = "flamingo"
    OWL = "owl"
    TOUCAN = "toucan"
    DUCK = "duck"
    PARROT = "parrot"
    MAGPIE = "magpie"
    REED_WARBLER = "reed_warbler"
    ROBIN = "robin"

    def __repr__(self) -> str:
        return f"Species.{self.name}"

    @property
    def label(self) -> str:
        """The species' English name, for display (``"Reed Warbler"``)."""
        return _LABELS[self.index]


# species: (copies, small flock, big flock), rules §1
_NUMBERS = {
    Species.FLAMINGO: (7, 2, 3),
    Species.OWL: (10, 3, 4),
    Species.TOUCAN: (10, 3, 4),
    Species.DUCK: (13, 4, 6),
    Species.PARROT: (13, 4, 6),
    Species.MAGPIE: (17, 5, 7),
    Species.REED_WARBLER: (20, 6, 9),
    Species.ROBIN: (20, 6, 9),
}
for _index, (_species, (_copies, _small, _big)) in enumerate(_NUMBERS.items()):
    _species.index = _index
    _species.copies = _copies
    _species.small_flock = _small
    _species.big_flock = _big
del _index, _species, _copies, _small, _big

_LABELS = (
    "Pink Flamingo",
    "Owl",
    "Toucan",
    "Duck",
    "Parrot",
    "Magpie",
    "Reed Warbler",
    "Robin",
)

SPECIES: tuple[Species, ...] = tuple(Species)
"""All species in canonical order; ``SPECIES[s.index] is s``."""

NUM_SPECIES = len(SPECIES)
"""The number of species (8)."""

DECK_SIZE = sum(s.copies for s in SPECIES)
"""The number of cards in the game (110)."""


def canonical_deck() -> list[Species]:
    """Return the 110 cards in canonical order: species order, all copies together.

    This is the order that the first shuffle of a game starts from
    (``interchange.md`` §2).

    Example:
        >>> deck = canonical_deck()
        >>> len(deck), deck[0], deck[-1]
        (110, Species.FLAMINGO, Species.ROBIN)
    """
    return [s for s in SPECIES for _ in range(s.copies)]
