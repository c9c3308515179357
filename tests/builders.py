"""Hand-made game states for rule tests.

:func:`build` writes a JSON state document (format version 2) from the parts a test cares
about and reads it back with :func:`cuckoo_rules.decode_state`, so every state a test
builds passes the same checks as any other document: 110 cards, phase consistency,
``known_hands`` inside ``hands``... The cards a test does not place are "the rest":
they go, in canonical species order, to the bottom of the draw pile (the default), to
the discard pile, to the right end of a row or into a collection (``rest=``).

Cards are written as species ids; a row or pile can be given as a space-separated
string (``"owl flamingo parrot"``) and a multiset as a mapping (``{"owl": 2}``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import cuckoo_rules as cr

__all__ = [
    "DEFAULT_ROWS",
    "build",
    "cards",
    "counts",
    "reference_setup",
    "reference_shuffle",
    "spec_splitmix64",
]

Cards = str | Sequence[str | cr.Species]
"""Species or species ids, or one string of space-separated ids."""

DEFAULT_ROWS: tuple[str, ...] = (
    "flamingo owl toucan",
    "duck parrot magpie",
    "reed_warbler robin flamingo",
    "owl toucan duck",
)
"""Four rows of three different species each, as a fresh setup has."""


def _ids(value: Cards) -> list[str]:
    if isinstance(value, str):
        return value.split()
    return [card.value if isinstance(card, cr.Species) else card for card in value]


def cards(value: Cards) -> tuple[cr.Species, ...]:
    """Return the species of a space-separated string (or a list of ids), in order."""
    return tuple(cr.Species(name) for name in _ids(value))


def counts(value: Mapping[str, int] | Cards = (), **more: int) -> cr.Counts:
    """Return the :data:`cuckoo_rules.Counts` of a multiset.

    ``counts({"owl": 2})``, ``counts(owl=2)`` and ``counts("owl owl")`` are equal.
    """
    tally: Counter[str] = Counter()
    if isinstance(value, Mapping):
        tally.update(value)
    else:
        tally.update(_ids(value))
    tally.update(more)
    return cr.state.dict_to_counts({cr.Species(name): n for name, n in tally.items()})


def _multiset(value: Mapping[str, int] | Cards) -> dict[str, int]:
    return cr.codec.encode_counts(counts(value))


def build(
    *,
    num_players: int = 2,
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
    shuffles: int = 1,
    round: int = 1,
    turn: int = 1,
    dealer: int = 0,
    current_player: int = 0,
    phase: str = "lay",
    rows: Sequence[Cards] = DEFAULT_ROWS,
    draw_pile: Cards = (),
    discard_pile: Mapping[str, int] | Cards = (),
    hands: Sequence[Mapping[str, int] | Cards] | None = None,
    known_hands: Sequence[Mapping[str, int] | Cards] | None = None,
    collections: Sequence[Mapping[str, int] | Cards] | None = None,
    winners: Sequence[int] = (),
    rest: str = "draw_pile",
) -> cr.GameState:
    """Build a valid state from the given parts; the other cards go where ``rest`` says.

    Args:
        num_players: Number of seats (ignored if ``options`` names it).
        options: Option overrides, JSON names and values.
        seed: The game seed (used by later reshuffles).
        shuffles: Random streams used so far.
        round: Round number.
        turn: Turn number.
        dealer: The current dealer.
        current_player: The seat to act.
        phase: ``"lay"``, ``"draw"``, ``"flock"`` or ``"game_over"``.
        rows: The four rows, left to right.
        draw_pile: The top of the draw pile, top first (the rest may go under it).
        discard_pile: The discard pile (the rest may be added to it).
        hands: One multiset per seat (default: empty hands).
        known_hands: One multiset per seat (default: nothing known).
        collections: One multiset per seat (default: empty collections).
        winners: Winning seats (``game_over`` only).
        rest: Where the cards not placed go: ``"draw_pile"`` (under the given top),
            ``"discard_pile"``, ``"row<i>"`` (right end of row i) or ``"collection<p>"``.

    Returns:
        The state, as :func:`cuckoo_rules.decode_state` reads it.
    """
    opts: dict[str, Any] = {"num_players": num_players, **(options or {})}
    n = opts["num_players"]
    empty: list[Mapping[str, int] | Cards] = [() for _ in range(n)]
    row_ids = [_ids(row) for row in rows]
    draw_ids = _ids(draw_pile)
    discard = _multiset(discard_pile)
    hand_docs = [_multiset(h) for h in (hands if hands is not None else empty)]
    known_docs = [_multiset(h) for h in (known_hands if known_hands is not None else empty)]
    coll_docs = [_multiset(c) for c in (collections if collections is not None else empty)]

    placed: Counter[str] = Counter()
    for ids in (*row_ids, draw_ids):
        placed.update(ids)
    for multiset in (discard, *hand_docs, *coll_docs):
        placed.update(multiset)
    leftover: list[str] = []
    for species in cr.SPECIES:
        missing = species.copies - placed[species.value]
        if missing < 0:
            raise ValueError(f"{-missing} {species.value} cards too many")
        leftover += [species.value] * missing

    if rest == "draw_pile":
        draw_ids += leftover
    elif rest == "discard_pile":
        discard = _multiset(Counter(discard) + Counter(leftover))
    elif rest.startswith("row"):
        row_ids[int(rest[3:])] += leftover
    elif rest.startswith("collection"):
        seat = int(rest[10:])
        coll_docs[seat] = _multiset(Counter(coll_docs[seat]) + Counter(leftover))
    else:
        raise ValueError(f"rest: unknown place {rest!r}")

    doc: dict[str, Any] = {
        "format": cr.codec.STATE_FORMAT,
        "version": cr.codec.STATE_VERSION,
        "options": cr.GameOptions(**opts).to_json(),
        "seed": seed,
        "shuffles": shuffles,
        "round": round,
        "turn": turn,
        "dealer": dealer,
        "current_player": current_player,
        "phase": phase,
        "rows": row_ids,
        "draw_pile": draw_ids,
        "discard_pile": discard,
        "hands": hand_docs,
        "known_hands": known_docs,
        "collections": coll_docs,
        "winners": list(winners),
    }
    return cr.decode_state(doc)


# --------------------------------------------------------------------------- reference RNG

_MASK = 2**64 - 1


def spec_splitmix64(state: int) -> tuple[int, int]:
    """SplitMix64 exactly as written in ``interchange.md`` §2 (an independent copy)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def _spec_shuffle(items: list[cr.Species], seed: int, k: int) -> int:
    """Fisher-Yates exactly as written in ``interchange.md`` §2; returns the final state."""
    state = (seed ^ ((k * 0xD1B54A32D192ED03) & _MASK)) & _MASK
    for i in range(len(items) - 1, 0, -1):
        state, out = spec_splitmix64(state)
        j = out % (i + 1)
        items[i], items[j] = items[j], items[i]
    return state


def reference_shuffle(pile: Iterable[cr.Species], seed: int, k: int) -> list[cr.Species]:
    """The ``k``-th shuffle of a game as ``interchange.md`` §2 writes it.

    The pile is first laid out in canonical (species) order, as every reshuffle of the
    discard pile is; the shuffled list is returned, top card first.
    """
    result = sorted(pile, key=lambda s: s.index)
    _spec_shuffle(result, seed, k)
    return result


def reference_setup(num_players: int, seed: int, row_length: int = 3) -> dict[str, Any]:
    """The setup of rules §2 with duplicates to the discard pile, written from the spec.

    Returns the JSON fields ``dealer``, ``rows``, ``draw_pile``, ``discard_pile``,
    ``hands`` and ``collections`` (rows and piles as lists of species ids).
    """
    deck = [s for s in cr.SPECIES for _ in range(s.copies)]
    state = _spec_shuffle(deck, seed, 0)
    _, out = spec_splitmix64(state)
    dealer = out % num_players
    rows: list[list[str]] = []
    set_aside: list[str] = []
    for _ in range(4):
        row: list[str] = []
        while len(row) < row_length:
            card = deck.pop(0).value
            (set_aside if card in row else row).append(card)
        rows.append(row)
    seats = [(dealer + k) % num_players for k in range(num_players)]
    hands: list[list[str]] = [[] for _ in range(num_players)]
    collections: list[list[str]] = [[] for _ in range(num_players)]
    for seat in seats:
        hands[seat] = [deck.pop(0).value for _ in range(8)]
    for seat in seats:
        collections[seat] = [deck.pop(0).value]
    return {
        "dealer": dealer,
        "rows": rows,
        "draw_pile": [card.value for card in deck],
        "discard_pile": _multiset(set_aside),
        "hands": [_multiset(h) for h in hands],
        "collections": [_multiset(c) for c in collections],
    }
