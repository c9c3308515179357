"""The rules on one game's row: the engine's :mod:`cuckoo_rules.engine`, step by step.

The functions follow the engine in the same order, so that every card is taken from the
same place and every shuffle uses the same random stream (``interchange.md`` §2). The
decisions that are plain arithmetic are not written here: they are the functions of
:mod:`cuckoo_rules.decisions` and :func:`cuckoo_rules.outcome.wins` that the engine
asks, compiled as they are.

The small functions a decision runs through (a lay, a flock flown home, taking a card,
the checks of a hand or a collection) are compiled with :data:`inline`: LLVM copies them
into the function that calls them. The others that take a game's row are compiled with
:data:`rule`: called, not copied (the end of a turn, which every kind of action reaches,
and the rare, long steps: a reshuffle, the end of a round, a refill). Neither takes a
reference count on the row it is given (the caller holds it), which numba would
otherwise do, atomically, at every call: a decision costs a few calls and no atomic
operation. ``new_game`` allocates its scratch space, so it stays an ordinary kernel.
"""

from __future__ import annotations

import numpy as np

from .. import decisions, outcome
from ._jit import compiled, ijit, jit
from ._layout import (
    BIG,
    COLLECTIONS,
    COPIES,
    CURRENT,
    DEALER,
    DECK_SIZE,
    DISCARD,
    DRAW,
    DRAW_CARDS,
    DRAW_END,
    DRAW_ID,
    DRAW_POS,
    DUPLICATES_TO_DRAW_PILE,
    FLOCK,
    FLY_ID,
    HAND_SIZE,
    HANDS,
    KNOWN,
    LAY,
    LAY_RIGHT,
    LAY_ROW,
    LAYS_PER_SPECIES,
    MAX_ROW,
    NUM_ACTIONS,
    NUM_ROWS,
    NUM_SPECIES,
    O_ALWAYS_FLOCK,
    O_COUNT_DISCARD,
    O_DRAW_IF_ADJACENT,
    O_DUPLICATES_TO,
    O_NEXT_ROUND,
    O_PLAYERS,
    O_REFILL_TRIGGER,
    O_ROUND_END,
    O_ROW_LENGTH,
    OVER,
    PASS_ID,
    PHASE,
    REFILL_SAME_SPECIES_LAY,
    ROUND,
    ROUND_END_IMMEDIATE,
    ROW_LEN,
    ROWS,
    SHUFFLES,
    SMALL,
    TRIPLE,
    TURN,
    WINNERS,
)
from ._random import shuffle_cards, splitmix_output, splitmix_state, stream_state

__all__ = [
    "apply_action",
    "inline",
    "is_legal",
    "lay_parts",
    "legal_count",
    "legal_mask",
    "new_game",
    "nth_legal_action",
    "rule",
    "take",
]

inline = compiled(forceinline=True, _nrt=False)
"""Compile a small function of a game's row that LLVM inlines where it is called, without
reference counting (it must not allocate an array nor keep one)."""

rule = compiled(forceinline=False, _nrt=False)
"""Compile a function of a game's row that is called, not inlined (it is long, or rare),
without reference counting (likewise). The flags are explicit: numba passes a caller's
``forceinline`` and ``_nrt`` on to the functions it compiles for it unless they set them."""

# The rules' arithmetic, as the engine asks it (decisions.py, outcome.py).
after_lay = inline(decisions.after_lay)
flock_birds_home = inline(decisions.flock_birds_home)
lay_refills = inline(decisions.lay_refills)
next_round_seats = jit(decisions.next_round_seats)
out_of_cards = jit(decisions.out_of_cards)
wins = inline(outcome.wins)

_OFFER_DRAW = decisions.OFFER_DRAW
_END_TURN = decisions.END_TURN
_DRAWN = decisions.DRAW_SIZE  # the cards of the optional draw (rules §3.1)

# --------------------------------------------------------------------------- piles


@ijit
def lay_parts(a: int) -> tuple[int, int, bool]:
    """The species, the row and whether the right end, of the lay with id ``a``."""
    within = a % LAYS_PER_SPECIES
    return a // LAYS_PER_SPECIES, within // LAY_ROW, within % LAY_ROW == LAY_RIGHT


@inline
def discard_empty(s: np.ndarray) -> bool:
    """Whether the discard pile is empty."""
    for i in range(NUM_SPECIES):
        if s[DISCARD + i]:
            return False
    return True


@inline
def piles_empty(s: np.ndarray) -> bool:
    """Whether the draw and discard piles are both empty."""
    return s[DRAW_POS] == s[DRAW_END] and discard_empty(s)


@rule
def reshuffle(s: np.ndarray, seed: np.uint64) -> bool:
    """Shuffle the discard pile, laid out in species order, into a new draw pile."""
    if discard_empty(s):
        return False
    k = 0
    for i in range(NUM_SPECIES):
        for _ in range(s[DISCARD + i]):
            s[DRAW_CARDS + k] = i
            k += 1
        s[DISCARD + i] = 0
    shuffle_cards(s, DRAW_CARDS, k, stream_state(seed, s[SHUFFLES]))
    s[SHUFFLES] += 1
    s[DRAW_POS] = 0
    s[DRAW_END] = k
    return True


@inline
def take(s: np.ndarray, seed: np.uint64) -> int:
    """Take the top card of the draw pile (reshuffling if needed); -1 when none is left."""
    if s[DRAW_POS] == s[DRAW_END] and not reshuffle(s, seed):
        return -1
    card = s[DRAW_CARDS + s[DRAW_POS]]
    s[DRAW_POS] += 1
    return int(card)


@rule
def deal(s: np.ndarray, seed: np.uint64, n: int, dealer: int) -> None:
    """Deal a hand to each seat, dealer first (``engine._deal``); hands are empty."""
    for i in range(HAND_SIZE * n):
        card = take(s, seed)
        if card < 0:
            break
        s[HANDS + ((dealer + i // HAND_SIZE) % n) * NUM_SPECIES + card] += 1


# --------------------------------------------------------------------------- setup


@jit
def new_game(s: np.ndarray, seed: np.uint64, opt: np.ndarray) -> None:
    """``engine.new_game`` into ``s`` (every field is written)."""
    s[:] = 0
    n = opt[O_PLAYERS]
    k = 0
    for i in range(NUM_SPECIES):
        for _ in range(COPIES[i]):
            s[DRAW_CARDS + k] = i
            k += 1
    state = shuffle_cards(s, DRAW_CARDS, DECK_SIZE, stream_state(seed, 0))
    dealer = int(splitmix_output(splitmix_state(state)) % np.uint64(n))
    s[SHUFFLES] = 1
    s[DRAW_POS] = 0
    s[DRAW_END] = DECK_SIZE
    aside = np.zeros(NUM_SPECIES, dtype=np.int64)
    for r in range(NUM_ROWS):
        base = ROWS + r * MAX_ROW
        length = 0
        while length < opt[O_ROW_LENGTH]:
            if s[DRAW_POS] == s[DRAW_END]:  # only for absurd orders (rules §2.2)
                for i in range(NUM_SPECIES):
                    s[DISCARD + i] += aside[i]
                    aside[i] = 0
            card = take(s, seed)
            present = False
            for j in range(length):
                if s[base + j] == card:
                    present = True
            if present:
                aside[card] += 1
            else:
                s[base + length] = card
                length += 1
        s[ROW_LEN + r] = length
    any_aside = False
    for i in range(NUM_SPECIES):
        if aside[i]:
            any_aside = True
    if opt[O_DUPLICATES_TO] == DUPLICATES_TO_DRAW_PILE and any_aside:
        counts = aside.copy()
        for p in range(s[DRAW_POS], s[DRAW_END]):
            counts[s[DRAW_CARDS + p]] += 1
        k = 0
        for i in range(NUM_SPECIES):
            for _ in range(counts[i]):
                s[DRAW_CARDS + k] = i
                k += 1
        shuffle_cards(s, DRAW_CARDS, k, stream_state(seed, s[SHUFFLES]))
        s[SHUFFLES] += 1
        s[DRAW_POS] = 0
        s[DRAW_END] = k
    else:
        for i in range(NUM_SPECIES):
            s[DISCARD + i] += aside[i]
    deal(s, seed, n, dealer)
    for k in range(n):
        seat = (dealer + k) % n
        card = take(s, seed)
        if card >= 0:
            s[COLLECTIONS + seat * NUM_SPECIES + card] += 1
    s[ROUND] = 1
    s[TURN] = 1
    s[DEALER] = dealer
    s[CURRENT] = dealer
    s[PHASE] = LAY


# --------------------------------------------------------------------------- legal actions


@rule
def legal_mask(s: np.ndarray, mask: np.ndarray) -> int:
    """Write the legal-action mask of ``s`` into ``mask``; return how many are legal."""
    mask[:] = 0
    phase = s[PHASE]
    hand = HANDS + s[CURRENT] * NUM_SPECIES
    count = 0
    if phase == LAY:
        for i in range(NUM_SPECIES):
            if s[hand + i]:
                for a in range(LAYS_PER_SPECIES * i, LAYS_PER_SPECIES * (i + 1)):
                    mask[a] = 1
                count += LAYS_PER_SPECIES
    elif phase == DRAW:
        mask[DRAW_ID] = 1
        mask[PASS_ID] = 1
        count = 2
    elif phase == FLOCK:
        for i in range(NUM_SPECIES):
            if s[hand + i] >= SMALL[i]:
                mask[FLY_ID + i] = 1
                count += 1
        mask[PASS_ID] = 1
        count += 1
    return count


@inline
def legal_count(s: np.ndarray) -> int:
    """How many actions are legal in ``s``: what :func:`legal_mask` returns, without a mask."""
    phase = s[PHASE]
    hand = HANDS + s[CURRENT] * NUM_SPECIES
    count = 0
    if phase == LAY:
        for i in range(NUM_SPECIES):
            if s[hand + i]:
                count += LAYS_PER_SPECIES
    elif phase == DRAW:
        count = 2
    elif phase == FLOCK:
        count = 1
        for i in range(NUM_SPECIES):
            if s[hand + i] >= SMALL[i]:
                count += 1
    return count


@inline
def nth_legal_action(s: np.ndarray, pick: int) -> int:
    """The id of legal action ``pick`` of ``s``, without writing a mask.

    The actions are counted from 0 in id order, as :func:`legal_mask` lists them;
    ``0 <= pick < legal_count(s)``.
    """
    phase = s[PHASE]
    hand = HANDS + s[CURRENT] * NUM_SPECIES
    if phase == LAY:
        skip = pick // LAYS_PER_SPECIES
        for i in range(NUM_SPECIES):
            if s[hand + i]:
                if skip == 0:
                    return LAYS_PER_SPECIES * i + pick % LAYS_PER_SPECIES
                skip -= 1
        return -1
    if phase == DRAW:
        return DRAW_ID if pick == 0 else PASS_ID
    for i in range(NUM_SPECIES):
        if s[hand + i] >= SMALL[i]:
            if pick == 0:
                return FLY_ID + i
            pick -= 1
    return PASS_ID


@jit
def is_legal(s: np.ndarray, a: int, mask: np.ndarray) -> bool:
    """Whether action id ``a`` is legal in ``s`` (``mask`` is scratch space for a mask)."""
    legal_mask(s, mask)
    return 0 <= a < NUM_ACTIONS and mask[a] == 1


# --------------------------------------------------------------------------- outcome


@inline
def has_won(s: np.ndarray, seat: int) -> bool:
    """``outcome.has_won`` of ``seat``'s collection."""
    species = 0
    triples = 0
    base = COLLECTIONS + seat * NUM_SPECIES
    for i in range(NUM_SPECIES):
        if s[base + i]:
            species += 1
            if s[base + i] >= TRIPLE:
                triples += 1
    return wins(species, triples)


@inline
def hand_empty(s: np.ndarray, seat: int) -> bool:
    """Whether ``seat`` holds no card."""
    base = HANDS + seat * NUM_SPECIES
    for i in range(NUM_SPECIES):
        if s[base + i]:
            return False
    return True


# --------------------------------------------------------------------------- turns


@rule
def end_round(s: np.ndarray, seed: np.uint64, opt: np.ndarray) -> None:
    """Rules §4 (``engine._end_round``)."""
    n = opt[O_PLAYERS]
    p = s[CURRENT]
    for seat in range(n):
        for i in range(NUM_SPECIES):
            s[DISCARD + i] += s[HANDS + seat * NUM_SPECIES + i]
            s[HANDS + seat * NUM_SPECIES + i] = 0
            s[KNOWN + seat * NUM_SPECIES + i] = 0
    available = s[DRAW_END] - s[DRAW_POS]
    if opt[O_COUNT_DISCARD]:
        for i in range(NUM_SPECIES):
            available += s[DISCARD + i]
    if out_of_cards(available, n):  # the most cards win (outcome.most_cards_winners)
        best = -1
        for seat in range(n):
            size = 0
            for i in range(NUM_SPECIES):
                size += s[COLLECTIONS + seat * NUM_SPECIES + i]
            if size > best:
                best = size
                s[WINNERS] = 1 << seat
            elif size == best:
                s[WINNERS] |= 1 << seat
        s[PHASE] = OVER
        return
    dealer, first = next_round_seats(opt[O_NEXT_ROUND], s[DEALER], p, n)
    deal(s, seed, n, dealer)
    s[DEALER] = dealer
    s[CURRENT] = first
    s[ROUND] += 1
    s[TURN] += 1
    s[PHASE] = LAY


@rule
def end_turn(s: np.ndarray, seed: np.uint64, opt: np.ndarray) -> None:
    """Rules §3.3 (``engine._end_turn``)."""
    p = s[CURRENT]
    if has_won(s, p):
        s[WINNERS] = 1 << p
        s[PHASE] = OVER
    elif not hand_empty(s, p):
        s[CURRENT] = (p + 1) % opt[O_PLAYERS]
        s[TURN] += 1
        s[PHASE] = LAY
    else:
        end_round(s, seed, opt)


@rule
def flock_check(s: np.ndarray, seed: np.uint64, opt: np.ndarray) -> None:
    """The flock phase if a flock is possible (or always offered), else the turn's end."""
    if opt[O_ALWAYS_FLOCK]:
        s[PHASE] = FLOCK
        return
    hand = HANDS + s[CURRENT] * NUM_SPECIES
    for i in range(NUM_SPECIES):
        if s[hand + i] >= SMALL[i]:
            s[PHASE] = FLOCK
            return
    end_turn(s, seed, opt)


@inline
def one_species(s: np.ndarray, base: int, length: int) -> bool:
    """Whether the row at ``base`` holds a single species."""
    for j in range(1, length):
        if s[base + j] != s[base]:
            return False
    return True


@rule
def refill(s: np.ndarray, seed: np.uint64, r: int) -> None:
    """Append cards to a one-species row until it holds two species (``engine._refill``)."""
    base = ROWS + r * MAX_ROW
    length = s[ROW_LEN + r]
    while one_species(s, base, length):
        card = take(s, seed)
        if card < 0:
            break
        s[base + length] = card
        length += 1
    s[ROW_LEN + r] = length


@inline
def lay(s: np.ndarray, seed: np.uint64, opt: np.ndarray, species: int, r: int, right: bool) -> None:
    """Rules §3.1 (``engine._lay``)."""
    p = s[CURRENT]
    hand = HANDS + p * NUM_SPECIES
    known = KNOWN + p * NUM_SPECIES
    held = s[hand + species]
    base = ROWS + r * MAX_ROW
    length = s[ROW_LEN + r]
    nearest = -1  # the card of ``species`` nearest the end laid at (the first or the last)
    if right:
        for j in range(length - 1, -1, -1):
            if s[base + j] == species:
                nearest = j
                break
    else:
        for j in range(length):
            if s[base + j] == species:
                nearest = j
                break
    absent = nearest < 0
    s[hand + species] = 0
    s[known + species] = 0
    captured = 0
    if absent:
        if right:
            for j in range(held):
                s[base + length + j] = species
        else:
            for j in range(length - 1, -1, -1):
                s[base + held + j] = s[base + j]
            for j in range(held):
                s[base + j] = species
        length += held
    elif right:
        captured = length - 1 - nearest
        for j in range(nearest + 1, length):
            s[hand + s[base + j]] += 1
            s[known + s[base + j]] += 1
        for j in range(held):
            s[base + nearest + 1 + j] = species
        length = nearest + 1 + held
    else:
        captured = nearest
        for j in range(nearest):
            s[hand + s[base + j]] += 1
            s[known + s[base + j]] += 1
        rest = length - nearest
        if held > nearest:  # the row grows: move the rest to the right, from its end
            for j in range(rest - 1, -1, -1):
                s[base + held + j] = s[base + nearest + j]
        elif held < nearest:
            for j in range(rest):
                s[base + held + j] = s[base + nearest + j]
        for j in range(held):
            s[base + j] = species
        length = held + rest
    s[ROW_LEN + r] = length
    trigger = opt[O_REFILL_TRIGGER] == REFILL_SAME_SPECIES_LAY
    if not absent and lay_refills(captured, absent, trigger, one_species(s, base, length)):
        refill(s, seed, r)
    round_ends = opt[O_ROUND_END] == ROUND_END_IMMEDIATE and hand_empty(s, p)
    piles = 0 if piles_empty(s) else 1
    follows = after_lay(captured, absent, opt[O_DRAW_IF_ADJACENT] != 0, round_ends, piles)
    if follows == _END_TURN:
        end_turn(s, seed, opt)
    elif follows == _OFFER_DRAW:
        s[PHASE] = DRAW
    else:
        flock_check(s, seed, opt)


@inline
def fly_home(s: np.ndarray, seed: np.uint64, opt: np.ndarray, species: int) -> None:
    """Rules §3.2 (``engine._fly_home``)."""
    p = s[CURRENT]
    count = s[HANDS + p * NUM_SPECIES + species]
    home = flock_birds_home(count, SMALL[species], BIG[species])
    s[HANDS + p * NUM_SPECIES + species] = 0
    s[KNOWN + p * NUM_SPECIES + species] = 0
    s[COLLECTIONS + p * NUM_SPECIES + species] += home
    s[DISCARD + species] += count - home
    end_turn(s, seed, opt)


@rule
def apply_action(s: np.ndarray, seed: np.uint64, opt: np.ndarray, a: int) -> None:
    """Apply the legal action id ``a`` (``engine.apply``); nothing is checked here."""
    if a < DRAW_ID:
        species, r, right = lay_parts(a)
        lay(s, seed, opt, species, r, right)
    elif a == DRAW_ID:
        hand = HANDS + s[CURRENT] * NUM_SPECIES
        for _ in range(_DRAWN):
            card = take(s, seed)
            if card >= 0:
                s[hand + card] += 1
        flock_check(s, seed, opt)
    elif a == PASS_ID:
        if s[PHASE] == DRAW:
            flock_check(s, seed, opt)
        else:
            end_turn(s, seed, opt)
    else:
        fly_home(s, seed, opt, a - FLY_ID)
