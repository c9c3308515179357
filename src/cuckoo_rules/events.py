"""What happened in a transition, as typed, frozen events, and what each seat may see of it.

:func:`cuckoo_rules.step` returns the events of one action in the order they happened;
:func:`visible_events` redacts them for one seat or a spectator: another player's drawn
and dealt cards become counts, and hands discarded at a round end stay unseen. Give
clients the redacted stream, never the full one.

Every event encodes to JSON with :func:`cuckoo_rules.encode_event`
(``{"type": "laid", ...}``) and reads back with :func:`cuckoo_rules.decode_event`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeAlias

import attrs

from .actions import Phase, Side
from .cards import Species
from .errors import ViewError
from .outcome import WinReason
from .state import Counts, GameState

__all__ = [
    "Captured",
    "Dealt",
    "DeclinedDraw",
    "DeclinedFlock",
    "Drew",
    "Event",
    "FlewHome",
    "GameOver",
    "GameStarted",
    "Laid",
    "Reshuffled",
    "RoundEnded",
    "RowRefilled",
    "TurnEnded",
    "TurnStarted",
    "visible_events",
]


@attrs.frozen
class Laid:
    """A player laid every card of a species at one end of a row.

    Attributes:
        player: The seat that laid.
        species: The species laid.
        count: How many cards were laid.
        row: The row, 0 to 3.
        side: The end of the row.
    """

    player: int
    species: Species
    count: int
    row: int
    side: Side


@attrs.frozen
class Captured:
    """The cards between the laid birds and the nearest bird of their species went to hand.

    Attributes:
        player: The seat that took them.
        row: The row they came from.
        cards: The captured cards, left to right as they lay in the row (public).
    """

    player: int
    row: int
    cards: tuple[Species, ...]


@attrs.frozen
class RowRefilled:
    """Cards from the draw pile were appended on the right of a row left with one species.

    A refill that finds no card is not reported; one that empties the draw pile is
    reported as two events, with :class:`Reshuffled` between them.

    Attributes:
        row: The row.
        cards: The appended cards, in order (public: they are turned face up).
    """

    row: int
    cards: tuple[Species, ...]


@attrs.frozen
class Drew:
    """A player took the optional draw.

    A draw that empties the draw pile is reported as the card taken from it, then
    :class:`Reshuffled`, then the card taken from the new pile.

    Attributes:
        player: The seat that drew.
        count: How many cards this event took (2, or fewer when the cards ran out or the
            draw spans a reshuffle).
        cards: The cards drawn, or ``None`` where they are hidden from the viewer.
    """

    player: int
    count: int
    cards: tuple[Species, ...] | None


@attrs.frozen
class DeclinedDraw:
    """A player declined the optional draw.

    Attributes:
        player: The seat.
    """

    player: int


@attrs.frozen
class FlewHome:
    """A player revealed a flock: ``kept`` cards joined the collection, the rest were discarded.

    Attributes:
        player: The seat.
        species: The flock's species.
        revealed: How many cards were revealed (every card of the species in hand).
        kept: How many went to the collection (1 or 2).
    """

    player: int
    species: Species
    revealed: int
    kept: int


@attrs.frozen
class DeclinedFlock:
    """A player passed at the flock step.

    Attributes:
        player: The seat.
    """

    player: int


@attrs.frozen
class Reshuffled:
    """The discard pile was shuffled into a new draw pile.

    Attributes:
        cards: How many cards the new draw pile holds.
    """

    cards: int


@attrs.frozen
class TurnEnded:
    """A player's turn ended.

    Attributes:
        player: The seat whose turn ended.
    """

    player: int


@attrs.frozen
class RoundEnded:
    """A round ended because a player's hand was empty; every hand was discarded unseen.

    The part of each hand that every player had seen enter it (``known_hands``, the
    captured cards that never provably left it) is public, and so is its place in the
    discard pile until the next reshuffle (rules §6).

    Attributes:
        round: The round that ended.
        player: The seat whose empty hand ended it.
        hand_sizes: How many cards each seat discarded.
        hands: The discarded hands as counts, or ``None`` where the viewer did not see them.
        known_hands: The public part of each discarded hand, as counts (the state's
            ``known_hands`` when the round ended).
    """

    round: int
    player: int
    hand_sizes: tuple[int, ...]
    hands: tuple[Counts | None, ...]
    known_hands: tuple[Counts, ...]


@attrs.frozen
class Dealt:
    """Cards of a new round were dealt: eight to each seat, starting with the dealer.

    A deal that empties the draw pile is reported as two events: the cards dealt from
    the old pile, :class:`Reshuffled`, then the cards dealt from the new one (every event
    holds cards of one pile only).

    Attributes:
        round: The new round.
        dealer: The seat that dealt.
        hand_sizes: How many cards each seat received in this event (public).
        hands: The cards each seat received as counts, or ``None`` where hidden from the
            viewer.
    """

    round: int
    dealer: int
    hand_sizes: tuple[int, ...]
    hands: tuple[Counts | None, ...]


@attrs.frozen
class GameStarted:
    """A game was set up: the rows built, the duplicates set aside, the first hands dealt.

    :func:`cuckoo_rules.new_game` takes no action, so :func:`~cuckoo_rules.step` never
    returns this event: :meth:`of` makes it from a freshly dealt state, and a
    :class:`~cuckoo_rules.Match` tells its bots of it (it is what the setup shows every
    player beyond its first view).

    Attributes:
        dealer: The seat that dealt.
        discarded: The duplicates set aside face up while the rows were built that went
            to the discard pile, as counts (none with ``setup_duplicates_to =
            "draw_pile"``).
        hand_sizes: How many cards each seat received.
        hands: The cards each seat received as counts, or ``None`` where hidden from the
            viewer.
    """

    dealer: int
    discarded: Counts
    hand_sizes: tuple[int, ...]
    hands: tuple[Counts | None, ...]

    @classmethod
    def of(cls, state: GameState) -> GameStarted:
        """The setup of a game just dealt (``state`` as :func:`~cuckoo_rules.new_game` returns it).

        Raises:
            ViewError: If ``state`` is not the state before the first action of a game.
        """
        if not isinstance(state, GameState):
            raise ViewError(f"state: expected a GameState, got {type(state).__name__}")
        if (state.round, state.turn, state.phase) != (1, 1, Phase.LAY):
            raise ViewError(
                "state: not a game before its first action "
                f"(round {state.round}, turn {state.turn}, phase {state.phase.value!r})"
            )
        return cls(state.dealer, state.discard_pile, tuple(map(sum, state.hands)), state.hands)


@attrs.frozen
class TurnStarted:
    """A new turn started.

    Attributes:
        player: The seat to act.
        turn: The turn number over the whole game.
    """

    player: int
    turn: int


@attrs.frozen
class GameOver:
    """The game ended.

    Attributes:
        winners: The winning seats in increasing order (several share a victory).
        reason: ``"seven_species"`` or ``"two_triples"`` for a winning collection,
            ``"most_cards"`` when a new round could not be dealt.
    """

    winners: tuple[int, ...]
    reason: WinReason


Event: TypeAlias = (
    Laid
    | Captured
    | RowRefilled
    | Drew
    | DeclinedDraw
    | FlewHome
    | DeclinedFlock
    | Reshuffled
    | TurnEnded
    | RoundEnded
    | Dealt
    | GameStarted
    | TurnStarted
    | GameOver
)
"""Any event."""


# --------------------------------------------------------------------------- redaction


def visible_events(events: Iterable[Event], viewer: int | None) -> tuple[Event, ...]:
    """Return what ``viewer`` (a seat, or ``None`` for a spectator) may see of ``events``.

    Another player's drawn cards, other seats' dealt hands and every discarded hand but
    the viewer's own are replaced by ``None``; counts, public cards and the public part
    of discarded hands stay.

    Raises:
        ViewError: If ``viewer`` is neither ``None`` nor a non-negative integer.

    Example:
        >>> events = (Drew(1, 2, (Species.OWL, Species.DUCK)),)
        >>> visible_events(events, 0)
        (Drew(player=1, count=2, cards=None),)
        >>> visible_events(events, 1) == events
        True
    """
    if viewer is not None and (type(viewer) is not int or viewer < 0):
        raise ViewError(f"viewer: {viewer!r} is not a seat (an integer from 0) or None")
    out: list[Event] = []
    for event in events:
        if isinstance(event, Drew):
            if event.player != viewer and event.cards is not None:
                event = Drew(event.player, event.count, None)
        elif isinstance(event, Dealt | RoundEnded | GameStarted):
            hands = tuple(h if seat == viewer else None for seat, h in enumerate(event.hands))
            event = attrs.evolve(event, hands=hands)
        out.append(event)
    return tuple(out)
