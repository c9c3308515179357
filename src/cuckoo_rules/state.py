"""The immutable game state (``interchange.md`` §4) and the public part it shares with a view.

A :class:`GameState` is a frozen, hashable value. Multisets of cards (hands, known
parts of hands, collections, the discard pile) are stored as :data:`Counts`: tuples of
eight counts in canonical species order, so ``state.hands[1][Species.OWL.index]`` is
the number of owls in player 1's hand. :func:`counts_to_dict` turns them into
dictionaries for display.

:class:`PublicState` is the public part of a game, defined here once: the fields that
every seat sees, with what can be asked of them (:attr:`~PublicState.num_players`,
:attr:`~PublicState.outcome`, ...). A :class:`GameState` and a
:class:`~cuckoo_rules.PlayerView` are both public states: the state adds the hidden
parts, the view what one seat may see of them.
"""

from __future__ import annotations

import inspect
import operator
from typing import Any, TypeAlias

import attrs

from .actions import Phase
from .cards import NUM_SPECIES, SPECIES, Species
from .options import GameOptions
from .outcome import Outcome

__all__ = [
    "BIG_FLOCKS",
    "DECK_COUNTS",
    "EMPTY_COUNTS",
    "SMALL_FLOCKS",
    "Counts",
    "GameState",
    "PublicState",
    "Row",
    "can_fly_home",
    "counts_to_dict",
    "dict_to_counts",
    "flock_prompt_needs_flock",
    "format_counts",
    "format_rows",
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


SMALL_FLOCKS: Counts = tuple(s.small_flock for s in SPECIES)
"""The cards of each species a small flock needs, in species order (rules §3.2).

Example:
    >>> SMALL_FLOCKS[Species.FLAMINGO.index], SMALL_FLOCKS[Species.ROBIN.index]
    (2, 6)
"""

BIG_FLOCKS: Counts = tuple(s.big_flock for s in SPECIES)
"""The cards of each species a big flock needs, in species order (rules §3.2).

Example:
    >>> BIG_FLOCKS[Species.FLAMINGO.index], BIG_FLOCKS[Species.ROBIN.index]
    (3, 9)
"""


def can_fly_home(hand: Counts) -> bool:
    """Whether a hand holds at least a small flock of some species (rules §3.2).

    Example:
        >>> can_fly_home((2, 0, 0, 0, 0, 0, 0, 0)), can_fly_home((1, 2, 2, 3, 3, 4, 5, 5))
        (True, False)
    """
    return any(map(operator.ge, hand, SMALL_FLOCKS))  # at C speed: this runs on every turn


def flock_prompt_needs_flock(options: GameOptions) -> bool:
    """The flock-phase secrecy rule, stated once: whether only a flock opens the flock phase.

    Unless ``always_prompt_flock`` is set, the flock phase is offered only to a player
    who holds a flock (rules §3.2), so everybody who sees the phase knows that the player
    to act holds one. The engine enters the flock phase by this rule, and the checks of a
    state or a view (:mod:`cuckoo_rules.views`), the determinization's deal and the
    view's own consistency check draw the same conclusion from it.

    Example:
        >>> from cuckoo_rules import GameOptions
        >>> flock_prompt_needs_flock(GameOptions(num_players=2))
        True
        >>> flock_prompt_needs_flock(GameOptions(num_players=2, always_prompt_flock=True))
        False
    """
    return not options.always_prompt_flock


def format_rows(rows: tuple[Row, ...]) -> str:
    """Return rows as the ``repr`` of states and views writes them: species ids, left to right.

    Example:
        >>> format_rows(((Species.OWL, Species.DUCK), (Species.ROBIN,)))
        '[[owl duck], [robin]]'
    """
    return "[" + ", ".join("[" + " ".join(s.value for s in row) + "]" for row in rows) + "]"


def format_counts(counts: Counts) -> str:
    """Return a multiset as the ``repr`` of states and views writes it, zero counts omitted.

    Example:
        >>> format_counts((0, 1, 0, 0, 0, 2, 0, 0))
        '{owl: 1, magpie: 2}'
    """
    inner = ", ".join(f"{s.value}: {n}" for s, n in counts_to_dict(counts).items())
    return "{" + inner + "}"


@attrs.frozen
class PublicState:
    """The public part of a game at one moment: what every seat, and a spectator, sees.

    This class defines the public fields once. :class:`GameState` (the whole truth) and
    :class:`~cuckoo_rules.PlayerView` (what one seat sees) derive from it and add their
    own fields; the JSON state and view documents write the public fields as they are
    here (``interchange.md`` §4). A subclass restates the public fields in its body,
    between its own ones, so that its constructor keeps its documented argument order
    (type checkers put inherited fields first). Defining the class checks that it
    restates every public field, in this order; type checkers check that it keeps
    their types.

    Attributes:
        options: The game's options.
        round: The round number, from 1.
        turn: The turn number over the whole game, from 1.
        dealer: The seat that dealt the current round.
        current_player: The seat to act (after the game ends, the seat whose turn ended it).
        phase: What the current player is to decide.
        rows: The four rows, each left to right.
        known_hands: For each seat, the part of its hand every player has seen enter it
            (captured cards) and that has not provably left it since.
        collections: Each seat's collection as counts.
        winners: The winning seats in increasing order; empty until the game is over.

    Example:
        >>> from cuckoo_rules import GameOptions, new_game, observe
        >>> state = new_game(GameOptions(num_players=3), seed=42)
        >>> view = observe(state, 0)
        >>> isinstance(state, PublicState), isinstance(view, PublicState)
        (True, True)
        >>> public = [field.name for field in attrs.fields(PublicState)]
        >>> [name for name in public if getattr(state, name) != getattr(view, name)]
        []
    """

    options: GameOptions
    round: int
    turn: int
    dealer: int
    current_player: int
    phase: Phase
    rows: tuple[Row, ...]
    known_hands: tuple[Counts, ...]
    collections: tuple[Counts, ...]
    winners: tuple[int, ...]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        public = list(inspect.get_annotations(PublicState))
        if [name for name in inspect.get_annotations(cls) if name in public] != public:
            raise TypeError(
                f"{cls.__name__} must restate the fields of PublicState in their order: "
                + ", ".join(public)
            )

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
        """Who won and why, and each seat's share, once the game is over (else ``None``).

        A state and every view of it have the same outcome: it needs only public facts.
        """
        if self.phase is not Phase.GAME_OVER:
            return None
        return Outcome.of(self.winners, self.current_player, self.collections)

    def collection(self, player: int) -> dict[Species, int]:
        """Return a seat's collection as a ``{species: count}`` dictionary."""
        return counts_to_dict(self.collections[player])

    def collection_size(self, player: int) -> int:
        """Return the number of cards in a seat's collection."""
        return sum(self.collections[player])


@attrs.frozen(repr=False)
class GameState(PublicState):
    """Everything about a game at one moment, hidden parts included.

    Build one with :func:`cuckoo_rules.new_game` or :func:`cuckoo_rules.decode_state`,
    and move on with :func:`cuckoo_rules.apply`; never change one in place (it is
    frozen). Two states are equal when all their fields are, and equal states hash alike.

    The fields mirror the JSON state format field by field, in its order; the public
    ones (and what they mean) are those of :class:`PublicState`.

    Attributes:
        seed: The seed the game was dealt with; later reshuffles use it too.
        shuffles: How many random streams have been used so far.
        draw_pile: The draw pile, top card first.
        discard_pile: The discard pile as counts.
        hands: Each seat's hand as counts.
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

    def hand(self, player: int) -> dict[Species, int]:
        """Return a seat's hand as a ``{species: count}`` dictionary in species order."""
        return counts_to_dict(self.hands[player])

    def hand_size(self, player: int) -> int:
        """Return the number of cards in a seat's hand."""
        return sum(self.hands[player])

    def __repr__(self) -> str:
        hands = ", ".join(format_counts(h) for h in self.hands)
        collections = ", ".join(format_counts(c) for c in self.collections)
        return (
            f"<GameState players={self.num_players} seed={self.seed} round={self.round} "
            f"turn={self.turn} phase={self.phase.value} current_player={self.current_player} "
            f"dealer={self.dealer} winners={list(self.winners)} rows={format_rows(self.rows)} "
            f"hands=[{hands}] collections=[{collections}] draw_pile={len(self.draw_pile)} "
            f"discard_pile={sum(self.discard_pile)}>"
        )
