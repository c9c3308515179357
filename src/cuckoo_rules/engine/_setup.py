"""Setting up a game and dealing a round (rules §2, interchange §3)."""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import (
    NUM_ROWS,
    Phase,
)
from ..cards import NUM_SPECIES, Species, canonical_deck
from ..decisions import (
    HAND_SIZE,
)
from ..errors import InvalidOptionsError
from ..events import (
    Dealt,
)
from ..options import GameOptions
from ..rng import SEED_LIMIT, shuffle, splitmix64
from ..state import (
    EMPTY_COUNTS,
    Counts,
    GameState,
    Row,
)
from ._piles import Piles, add_cards, build_state

_LAY = Phase.LAY


def new_game(options: GameOptions, seed: int) -> GameState:
    """Set up a game: shuffle, choose the dealer, build the rows, deal (rules §2).

    Args:
        options: The game options.
        seed: An integer in ``[0, 2**64)``; the same options and seed always give the
            same game.

    Returns:
        The state before the first turn: the dealer is to lay.

    Raises:
        InvalidOptionsError: If ``options`` is not a :class:`GameOptions` or the seed is
            not an integer in range.

    Example:
        >>> from cuckoo_rules import GameOptions, new_game
        >>> state = new_game(GameOptions(num_players=3), seed=42)
        >>> state.current_player, [len(row) for row in state.rows], state.hand_size(0)
        (2, [3, 3, 3, 3], 8)
    """
    if not isinstance(options, GameOptions):
        raise InvalidOptionsError(f"options: expected GameOptions, got {options!r}")
    if type(seed) is not int or not 0 <= seed < SEED_LIMIT:
        raise InvalidOptionsError(f"seed: {seed!r} is not an integer in [0, 2**64)")
    n = options.num_players
    deck = canonical_deck()
    rng_state = shuffle(deck, seed, 0)
    _, out = splitmix64(rng_state)
    dealer = out % n

    piles = Piles(deck, EMPTY_COUNTS, seed, 1)

    # Rows: turn cards one at a time; a species already in the row is set aside.
    rows: list[Row] = []
    set_aside: list[Species] = []
    for _ in range(NUM_ROWS):
        row: list[Species] = []
        while len(row) < options.initial_row_length:
            if piles.pos == len(piles.draw):  # only for absurd orders: rules §2.2
                piles.discard = add_cards(piles.discard, set_aside)
                set_aside = []
            (card,) = piles.take(1)
            if card in row:
                set_aside.append(card)
            else:
                row.append(card)
        rows.append(tuple(row))

    if options.setup_duplicates_to == "draw_pile" and set_aside:
        cards = sorted([*piles.draw[piles.pos :], *set_aside], key=_species_index)
        shuffle(cards, seed, piles.shuffles)
        piles.shuffles += 1
        piles.draw, piles.pos = cards, 0
    else:
        piles.discard = add_cards(piles.discard, set_aside)

    hands = deal(piles, n, dealer)
    collections = [EMPTY_COUNTS] * n
    for k in range(n):
        seat = (dealer + k) % n
        collections[seat] = add_cards(EMPTY_COUNTS, piles.take(1))

    return build_state(
        options,
        piles,
        round=1,
        turn=1,
        dealer=dealer,
        current_player=dealer,
        phase=_LAY,
        rows=tuple(rows),
        hands=hands,
        known_hands=(EMPTY_COUNTS,) * n,
        collections=tuple(collections),
    )


def _species_index(card: Species) -> int:
    return card.index


def deal(piles: Piles, n: int, dealer: int, round_: int = 1) -> tuple[Counts, ...]:
    """Deal a hand to each seat, starting with the dealer, in seat order (interchange §3).

    ``round_`` is the round dealt, for the ``Dealt`` events (one per pile the cards come
    from).
    """
    cards = piles.take(HAND_SIZE * n)
    if piles.events is not None:

        def dealt(offset: int, part: Sequence[Species]) -> Dealt:
            hands = _hands_of(part, offset, n, dealer)
            return Dealt(round_, dealer, tuple(map(sum, hands)), hands)

        piles.report(cards, dealt)
    hands = [EMPTY_COUNTS] * n
    for k in range(n):
        hands[(dealer + k) % n] = add_cards(
            EMPTY_COUNTS, cards[HAND_SIZE * k : HAND_SIZE * (k + 1)]
        )
    return tuple(hands)


def _hands_of(cards: Sequence[Species], offset: int, n: int, dealer: int) -> tuple[Counts, ...]:
    """The hands that ``cards`` make when they are cards ``offset`` and on of a deal."""
    hands = [[0] * NUM_SPECIES for _ in range(n)]
    for i, card in enumerate(cards, offset):
        hands[(dealer + i // HAND_SIZE) % n][card.index] += 1
    return tuple(map(tuple, hands))
