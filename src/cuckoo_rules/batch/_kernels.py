"""The compiled kernels of the batch simulator: the rules of ``engine.py`` on arrays.

Each game of a batch is one row of an ``int16`` array (the layout below) and one seed.
The functions on one game follow ``engine.py`` step by step, in the same order, so that
every card is taken from the same place and every shuffle uses the same random stream
(``interchange.md`` §2); the functions on a batch run them over the games with
``numba.prange``. The bots' random generators are CPython's Mersenne Twister
(``random.Random``), one per game and seat, so that the batched random and greedy
players choose exactly what :class:`~cuckoo_rules.bots.RandomBot` and
:class:`~cuckoo_rules.bots.GreedyBot` choose with the same seeds; the greedy scores are
computed with the same floating-point operations in the same order.

With ``NUMBA_DISABLE_JIT=1`` these are plain Python functions on NumPy arrays (slow,
but exactly the same games), which is how the tests see them under coverage.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np

# --------------------------------------------------------------------------- layout

MAX_PLAYERS = 5
NUM_SPECIES = 8
NUM_ROWS = 4
DECK_SIZE = 110
MAX_ROW = 112  # a row can hold every card of the game
HAND_SIZE = 8
NUM_ACTIONS = 74
DRAW_ID = 64
FLY_ID = 65
PASS_ID = 73

LAY, DRAW, FLOCK, OVER = 0, 1, 2, 3  # phases, in the observation's one-hot order

# int16 fields of one game's row
PHASE = 0
CURRENT = 1
DEALER = 2
ROUND = 3
TURN = 4
SHUFFLES = 5
DRAW_POS = 6  # the draw pile is DRAW_CARDS[DRAW_POS:DRAW_END], top first
DRAW_END = 7
WINNERS = 8  # a bit per winning seat
ROW_LEN = 10
ROWS = ROW_LEN + NUM_ROWS
DRAW_CARDS = ROWS + NUM_ROWS * MAX_ROW
DISCARD = DRAW_CARDS + DECK_SIZE
HANDS = DISCARD + NUM_SPECIES
KNOWN = HANDS + MAX_PLAYERS * NUM_SPECIES
COLLECTIONS = KNOWN + MAX_PLAYERS * NUM_SPECIES
WIDTH = COLLECTIONS + MAX_PLAYERS * NUM_SPECIES

# options, as one int64 array (see batch.options_array)
O_PLAYERS = 0
O_ROW_LENGTH = 1
O_DUPLICATES_TO_DRAW = 2
O_DRAW_IF_ADJACENT = 3
O_REFILL_SAME = 4
O_IMMEDIATE = 5
O_COUNT_DISCARD = 6
O_NEXT_ROUND = 7  # 0 round_ender, 1 left_of_round_ender, 2 same_dealer
O_ALWAYS_FLOCK = 8
NUM_OPTIONS = 9

# bots
HUMAN, RANDOM, GREEDY = 0, 1, 2
MT_N = 624
MT_M = 397

COPIES = np.array([7, 10, 10, 13, 13, 17, 20, 20], dtype=np.int64)
SMALL = np.array([2, 3, 3, 4, 4, 5, 6, 6], dtype=np.int64)
BIG = np.array([3, 4, 4, 6, 6, 7, 9, 9], dtype=np.int64)

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_STREAM = np.uint64(0xD1B54A32D192ED03)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S27 = np.uint64(27)
_S30 = np.uint64(30)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_LOW32 = np.uint64(0xFFFFFFFF)

WIN_VALUE = 1000.0
MAX_HELD = 24

F = TypeVar("F", bound=Callable[..., Any])
_numba: Any = numba  # numba's own annotations do not cover these names
get_thread_id = _numba.get_thread_id


def _compiled(**flags: Any) -> Callable[[F], F]:
    """``numba.njit(**flags)``, typed as keeping the function's own signature.

    With ``NUMBA_DISABLE_JIT=1`` the functions stay Python, and NumPy would warn of the
    64-bit wrapping that SplitMix64 and the Mersenne Twister rely on (compiled code
    wraps silently): each is then run with that warning off.
    """
    if _numba.config.DISABLE_JIT:
        return _wrapping
    return cast(Callable[[F], F], numba.njit(cache=True, nogil=True, **flags))


def _wrapping(function: F) -> F:
    @functools.wraps(function)
    def run(*args: Any) -> Any:
        with np.errstate(over="ignore"):
            return function(*args)

    return cast(F, run)


jit = _compiled()
pjit = _compiled(parallel=True)
ijit = _compiled(inline="always")  # the small helpers of the greedy bot's inner loops


# --------------------------------------------------------------------------- SplitMix64


@jit
def splitmix_state(state: np.uint64) -> np.uint64:
    """The next SplitMix64 state."""
    return state + _GOLDEN


@jit
def splitmix_output(state: np.uint64) -> np.uint64:
    """The output of a SplitMix64 state (after it was advanced)."""
    z = state
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@jit
def stream_state(seed: np.uint64, stream: int) -> np.uint64:
    """``rng.stream_state``: the first state of random stream ``stream`` of a game."""
    return seed ^ (np.uint64(stream) * _STREAM)


@jit
def derive_seed2(seed: np.uint64, a: int, b: int) -> np.uint64:
    """``bots.derive_seed(seed, a, b)``."""
    value = splitmix_output(splitmix_state(stream_state(seed, a + 1)))
    return splitmix_output(splitmix_state(stream_state(value, b + 1)))


@jit
def shuffle_cards(s: np.ndarray, start: int, count: int, state: np.uint64) -> np.uint64:
    """Fisher-Yates over ``s[start:start + count]`` (``rng.shuffle``); return the state."""
    for i in range(count - 1, 0, -1):
        state = splitmix_state(state)
        j = np.int64(splitmix_output(state) % np.uint64(i + 1))
        a = s[start + i]
        s[start + i] = s[start + j]
        s[start + j] = a
    return state


# --------------------------------------------------------------------------- piles


@jit
def discard_empty(s: np.ndarray) -> bool:
    for i in range(NUM_SPECIES):
        if s[DISCARD + i]:
            return False
    return True


@jit
def piles_empty(s: np.ndarray) -> bool:
    return s[DRAW_POS] == s[DRAW_END] and discard_empty(s)


@jit
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


@jit
def take(s: np.ndarray, seed: np.uint64) -> int:
    """Take the top card of the draw pile (reshuffling if needed); -1 when none is left."""
    if s[DRAW_POS] == s[DRAW_END] and not reshuffle(s, seed):
        return -1
    card = s[DRAW_CARDS + s[DRAW_POS]]
    s[DRAW_POS] += 1
    return int(card)


@jit
def deal(s: np.ndarray, seed: np.uint64, n: int, dealer: int) -> None:
    """Deal eight cards to each seat, dealer first (``engine._deal``); hands are empty."""
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
    if opt[O_DUPLICATES_TO_DRAW] and any_aside:
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


@jit
def legal_mask(s: np.ndarray, mask: np.ndarray) -> int:
    """Write the legal-action mask of ``s`` into ``mask`` (74); return how many are legal."""
    mask[:] = 0
    phase = s[PHASE]
    hand = HANDS + s[CURRENT] * NUM_SPECIES
    count = 0
    if phase == LAY:
        for i in range(NUM_SPECIES):
            if s[hand + i]:
                for a in range(8 * i, 8 * i + 8):
                    mask[a] = 1
                count += 8
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


@jit
def is_legal(s: np.ndarray, a: int, mask: np.ndarray) -> bool:
    """Whether action id ``a`` is legal in ``s`` (``mask`` is scratch space of 74)."""
    legal_mask(s, mask)
    return 0 <= a < NUM_ACTIONS and mask[a] == 1


# --------------------------------------------------------------------------- outcome


@jit
def has_won(s: np.ndarray, seat: int) -> bool:
    species = 0
    triples = 0
    base = COLLECTIONS + seat * NUM_SPECIES
    for i in range(NUM_SPECIES):
        if s[base + i]:
            species += 1
            if s[base + i] >= 3:
                triples += 1
    return species >= 7 or triples >= 2


@jit
def hand_empty(s: np.ndarray, seat: int) -> bool:
    base = HANDS + seat * NUM_SPECIES
    for i in range(NUM_SPECIES):
        if s[base + i]:
            return False
    return True


# --------------------------------------------------------------------------- turns


@jit
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
    if available < HAND_SIZE * n:
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
    who = opt[O_NEXT_ROUND]
    dealer = s[DEALER] if who == 2 else p
    deal(s, seed, n, dealer)
    s[DEALER] = dealer
    s[CURRENT] = (p + 1) % n if who == 1 else dealer
    s[ROUND] += 1
    s[TURN] += 1
    s[PHASE] = LAY


@jit
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


@jit
def flock_check(s: np.ndarray, seed: np.uint64, opt: np.ndarray) -> None:
    if opt[O_ALWAYS_FLOCK]:
        s[PHASE] = FLOCK
        return
    hand = HANDS + s[CURRENT] * NUM_SPECIES
    for i in range(NUM_SPECIES):
        if s[hand + i] >= SMALL[i]:
            s[PHASE] = FLOCK
            return
    end_turn(s, seed, opt)


@jit
def one_species(s: np.ndarray, base: int, length: int) -> bool:
    for j in range(1, length):
        if s[base + j] != s[base]:
            return False
    return True


@jit
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


@jit
def lay(s: np.ndarray, seed: np.uint64, opt: np.ndarray, species: int, r: int, right: bool) -> None:
    """Rules §3.1 (``engine._lay``)."""
    p = s[CURRENT]
    hand = HANDS + p * NUM_SPECIES
    known = KNOWN + p * NUM_SPECIES
    held = s[hand + species]
    base = ROWS + r * MAX_ROW
    length = s[ROW_LEN + r]
    first = -1
    last = -1
    for j in range(length):
        if s[base + j] == species:
            if first < 0:
                first = j
            last = j
    absent = first < 0
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
        captured = length - 1 - last
        for j in range(last + 1, length):
            s[hand + s[base + j]] += 1
            s[known + s[base + j]] += 1
        for j in range(held):
            s[base + last + 1 + j] = species
        length = last + 1 + held
    else:
        captured = first
        for j in range(first):
            s[hand + s[base + j]] += 1
            s[known + s[base + j]] += 1
        rest = length - first
        if held > first:  # the row grows: move the rest to the right, from its end
            for j in range(rest - 1, -1, -1):
                s[base + held + j] = s[base + first + j]
        elif held < first:
            for j in range(rest):
                s[base + held + j] = s[base + first + j]
        for j in range(held):
            s[base + j] = species
        length = held + rest
    s[ROW_LEN + r] = length
    if captured:
        if one_species(s, base, length):
            refill(s, seed, r)
        flock_check(s, seed, opt)
        return
    if not absent and opt[O_REFILL_SAME] and one_species(s, base, length):
        refill(s, seed, r)
    if opt[O_IMMEDIATE] and hand_empty(s, p):
        end_turn(s, seed, opt)
        return
    if not piles_empty(s) and (absent or opt[O_DRAW_IF_ADJACENT]):
        s[PHASE] = DRAW
        return
    flock_check(s, seed, opt)


@jit
def fly_home(s: np.ndarray, seed: np.uint64, opt: np.ndarray, species: int) -> None:
    """Rules §3.2 (``engine._fly_home``)."""
    p = s[CURRENT]
    count = s[HANDS + p * NUM_SPECIES + species]
    home = 2 if count >= BIG[species] else (1 if count >= SMALL[species] else 0)
    s[HANDS + p * NUM_SPECIES + species] = 0
    s[KNOWN + p * NUM_SPECIES + species] = 0
    s[COLLECTIONS + p * NUM_SPECIES + species] += home
    s[DISCARD + species] += count - home
    end_turn(s, seed, opt)


@jit
def apply_action(s: np.ndarray, seed: np.uint64, opt: np.ndarray, a: int) -> None:
    """Apply the legal action id ``a`` (``engine.apply``); nothing is checked here."""
    if a < DRAW_ID:
        lay(s, seed, opt, a // 8, (a % 8) // 2, a % 2 == 1)
    elif a == DRAW_ID:
        hand = HANDS + s[CURRENT] * NUM_SPECIES
        for _ in range(2):
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


# --------------------------------------------------------------------------- observation


@jit
def observe_into(s: np.ndarray, opt: np.ndarray, viewer: int, out: np.ndarray) -> None:
    """``encode_observation(observe(state, viewer))`` into ``out`` (any numeric dtype)."""
    n = opt[O_PLAYERS]
    out[:] = 0
    phase = s[PHASE]
    out[phase] = 1
    unseen = COPIES.copy()
    for i in range(NUM_SPECIES):
        out[4 + i] = s[HANDS + viewer * NUM_SPECIES + i]
    for seat in range(n):
        held = HANDS if seat == viewer else KNOWN
        for i in range(NUM_SPECIES):
            unseen[i] -= s[held + seat * NUM_SPECIES + i] + s[COLLECTIONS + seat * NUM_SPECIES + i]
    out[20] = s[DRAW_END] - s[DRAW_POS]
    discard = 0
    for i in range(NUM_SPECIES):
        discard += s[DISCARD + i]
    out[21] = discard
    for r in range(NUM_ROWS):
        o = 22 + 25 * r
        base = ROWS + r * MAX_ROW
        length = s[ROW_LEN + r]
        out[o] = length
        for j in range(length):
            card = s[base + j]
            if out[o + 1 + card] == 0:
                out[o + 9 + card] = j
            out[o + 1 + card] += 1
            out[o + 17 + card] = length - 1 - j
            unseen[card] -= 1
    for i in range(NUM_SPECIES):
        out[12 + i] = unseen[i]
    acting = -1 if phase == OVER else s[CURRENT]
    for k in range(n):
        seat = (viewer + k) % n
        o = 122 + 19 * k
        out[o] = 1 if seat == acting else 0
        out[o + 1] = (s[WINNERS] >> seat) & 1
        size = 0
        for i in range(NUM_SPECIES):
            size += s[HANDS + seat * NUM_SPECIES + i]
            out[o + 3 + i] = s[KNOWN + seat * NUM_SPECIES + i]
            out[o + 11 + i] = s[COLLECTIONS + seat * NUM_SPECIES + i]
        out[o + 2] = size


# --------------------------------------------------------------------------- Mersenne Twister


@jit
def mt_seed(mt: np.ndarray, seed: np.uint64) -> None:
    """``random.Random(seed)`` for ``0 <= seed < 2**64``: ``init_by_array`` of its words.

    ``mt`` holds the 624 words and, last, the index (CPython's ``_randommodule.c``).
    """
    mt[0] = np.uint32(19650218)
    for i in range(1, MT_N):
        prev = np.uint64(mt[i - 1])
        mt[i] = np.uint32((np.uint64(1812433253) * (prev ^ (prev >> _S30)) + np.uint64(i)) & _LOW32)
    high = seed >> _S32
    words = 2 if high else 1
    i = 1
    j = 0
    for _ in range(max(MT_N, words)):
        prev = np.uint64(mt[i - 1])
        key = (seed & _LOW32) if j == 0 else high
        value = (np.uint64(mt[i]) ^ ((prev ^ (prev >> _S30)) * np.uint64(1664525))) + key
        mt[i] = np.uint32((value + np.uint64(j)) & _LOW32)
        i += 1
        j += 1
        if i >= MT_N:
            mt[0] = mt[MT_N - 1]
            i = 1
        if j >= words:
            j = 0
    for _ in range(MT_N - 1):
        prev = np.uint64(mt[i - 1])
        value = np.uint64(mt[i]) ^ ((prev ^ (prev >> _S30)) * np.uint64(1566083941))
        mt[i] = np.uint32((value - np.uint64(i)) & _LOW32)
        i += 1
        if i >= MT_N:
            mt[0] = mt[MT_N - 1]
            i = 1
    mt[0] = np.uint32(0x80000000)
    mt[MT_N] = MT_N


@jit
def mt_next(mt: np.ndarray) -> np.uint32:
    """``genrand_uint32``: the next 32-bit output."""
    if mt[MT_N] >= MT_N:
        upper = np.uint32(0x80000000)
        lower = np.uint32(0x7FFFFFFF)
        matrix = np.uint32(0x9908B0DF)
        for k in range(MT_N):
            y = (mt[k] & upper) | (mt[(k + 1) % MT_N] & lower)
            value = mt[(k + MT_M) % MT_N] ^ (y >> np.uint32(1))
            if y & np.uint32(1):
                value ^= matrix
            mt[k] = value
        mt[MT_N] = 0
    y = mt[mt[MT_N]]
    mt[MT_N] += 1
    y ^= y >> np.uint32(11)
    y ^= (y << np.uint32(7)) & np.uint32(0x9D2C5680)
    y ^= (y << np.uint32(15)) & np.uint32(0xEFC60000)
    y ^= y >> np.uint32(18)
    return np.uint32(y)


@jit
def mt_below(mt: np.ndarray, n: int) -> int:
    """``random.Random._randbelow(n)`` for ``1 <= n < 2**32`` (what ``choice`` uses)."""
    k = 0
    while (n >> k) > 0:
        k += 1
    shift = np.uint32(32 - k)
    r = np.int64(mt_next(mt) >> shift)
    while r >= n:
        r = np.int64(mt_next(mt) >> shift)
    return int(r)


@jit
def random_choice(s: np.ndarray, mt: np.ndarray, mask: np.ndarray) -> int:
    """``RandomBot.choose``: ``rng.choice(legal_actions(view))``."""
    count = legal_mask(s, mask)
    pick = mt_below(mt, count)
    for a in range(NUM_ACTIONS):
        if mask[a]:
            if pick == 0:
                return a
            pick -= 1
    return -1


# --------------------------------------------------------------------------- greedy


@jit
def collection_value(c: np.ndarray) -> float:
    """``bots.greedy.collection_value`` of the counts ``c``."""
    first = 0
    second = 0
    species = 0
    triples3 = 0
    size = 0
    for i in range(NUM_SPECIES):
        count = c[i]
        if count:
            species += 1
            size += count
            if count >= 3:
                triples3 += 1
            capped = 3 if count > 3 else count
            if capped > first:
                second = first
                first = capped
            elif capped > second:
                second = capped
    if species >= 7 or triples3 >= 2:
        return WIN_VALUE
    triples = (6 - first - second) / 1.6
    seven = float(7 - species)
    if triples < seven:
        near, far = triples, seven
    else:
        near, far = seven, triples
    return -10.0 * near - 2.0 * far + size


@jit
def potential_rows(c: np.ndarray, one: np.ndarray, two: np.ndarray) -> None:
    """The values of one and two more birds of each species, for :func:`potential`.

    ``c`` is changed while this runs, and restored.
    """
    base = collection_value(c)
    for i in range(NUM_SPECIES):
        c[i] += 1
        one[i] = collection_value(c) - base
        c[i] += 1
        two[i] = collection_value(c) - base
        c[i] -= 2


@ijit
def potential(i: int, held: int, one: float, two: float) -> float:
    """``potential_table(collection)[i][held]``, given ``one[i]`` and ``two[i]``.

    They come from :func:`potential_rows`, as scalars: this is the innermost call.
    """
    if held <= 0:
        return 0.0
    small = SMALL[i]
    big = BIG[i]
    if held >= big:
        return 0.8 * two
    if held >= small:
        return float(0.8 * one + 0.2 * (held - small + 1) / (big - small + 1) * (two - one))
    fraction = held / small
    return float(0.5 * fraction * fraction * one)


@jit
def hand_value(hand: np.ndarray, one: np.ndarray, two: np.ndarray) -> float:
    """``bots.greedy.hand_value``, summed in species order as ``sum`` does."""
    total = 0.0
    for i in range(NUM_SPECIES):
        if hand[i]:
            total += potential(i, hand[i], one[i], two[i])
    return total


@jit
def unseen_of(s: np.ndarray, n: int, viewer: int, unseen: np.ndarray) -> int:
    """``views.unseen_cards`` of ``viewer``'s view into ``unseen``; return their sum."""
    for i in range(NUM_SPECIES):
        unseen[i] = COPIES[i]
    for r in range(NUM_ROWS):
        base = ROWS + r * MAX_ROW
        for j in range(s[ROW_LEN + r]):
            unseen[s[base + j]] -= 1
    for seat in range(n):
        held = HANDS if seat == viewer else KNOWN
        for i in range(NUM_SPECIES):
            unseen[i] -= s[held + seat * NUM_SPECIES + i] + s[COLLECTIONS + seat * NUM_SPECIES + i]
    total = 0
    for i in range(NUM_SPECIES):
        total += unseen[i]
    return total


@ijit
def sizes_best(
    rc: np.ndarray, rl: np.ndarray, rr: np.ndarray, o: int, length: int, chances: np.ndarray
) -> float:
    """``bots.greedy._best_capture`` of a row given its capture sizes at ``rc/rl/rr[o:o + 8]``."""
    best = 0.0
    for i in range(NUM_SPECIES):
        count = rc[o + i]
        if not count or count == length:
            continue
        expected = chances[i] * max(rl[o + i], rr[o + i])
        if expected > best:
            best = expected
    return best


@ijit
def grown_best(
    rc: np.ndarray,
    rl: np.ndarray,
    rr: np.ndarray,
    o: int,
    length: int,
    si: int,
    held: int,
    on_right: bool,
    chances: np.ndarray,
    present: np.ndarray,
    po: int,
) -> float:
    """``_best_capture`` of a row after ``held`` birds of ``si`` join it, capturing none.

    It is computed from the row's capture sizes: the same values, without the row.

    ``present[po:po + present[po + 8]]`` lists the row's species whose chance is not zero
    (a zero chance adds nothing: the best is the largest product, which does not depend
    on the order the species are tried in).
    """
    best = 0.0
    for k in range(present[po + 8]):
        i = present[po + k]
        if i == si:
            continue
        if on_right:
            expected = chances[i] * max(rl[o + i], rr[o + i] + held)
        else:
            expected = chances[i] * max(rl[o + i] + held, rr[o + i])
        if expected > best:
            best = expected
    count = rc[o + si]
    if count != length:  # the row is not all ``si`` (then the new row is not measured)
        if on_right:
            expected = chances[si] * max(rl[o + si] if count else length, 0)
        else:
            expected = chances[si] * max(0, rr[o + si] if count else length)
        if expected > best:
            best = expected
    return best


@ijit
def captured_best(
    s: np.ndarray,
    base: int,
    length: int,
    start: int,
    stop: int,
    si: int,
    held: int,
    on_right: bool,
    chances: np.ndarray,
    counts: np.ndarray,
    left: np.ndarray,
    right: np.ndarray,
) -> float:
    """``_best_capture`` of the row a capture of ``s[base + start:base + stop]`` leaves.

    The capture is a lay of ``held`` birds of ``si``; the result is 0 when the row is
    left with one species (it is refilled with cards nobody knows). It is measured
    without building the row; ``counts``, ``left`` and ``right`` are scratch space.
    """
    counts[:] = 0
    if on_right:
        new_length = start + held
        for j in range(start):
            card = s[base + j]
            if not counts[card]:
                left[card] = j
            counts[card] += 1
            right[card] = new_length - 1 - j
        counts[si] += held  # ``si`` is already in row[:start]: its last card was there
        right[si] = 0
    else:
        new_length = held + length - stop
        counts[si] = held
        left[si] = 0
        right[si] = new_length - held
        position = held
        for j in range(stop, length):
            card = s[base + j]
            if not counts[card]:
                left[card] = position
            counts[card] += 1
            right[card] = new_length - 1 - position
            position += 1
    if counts[si] == new_length:
        return 0.0
    return sizes_best(counts, left, right, 0, new_length, chances)


@jit
def greedy_scores(
    s: np.ndarray,
    opt: np.ndarray,
    feed_weight: float,
    end_round_threshold: int,
    mask: np.ndarray,
    scores: np.ndarray,
    iw: np.ndarray,
    fw: np.ndarray,
) -> int:
    """``GreedyBot.scores`` of the acting seat: ``scores[a]`` for every legal id ``a``.

    ``iw`` (200 integers) and ``fw`` (64 floats) are scratch space. Returns the number of
    legal actions (``mask`` holds them).
    """
    n = opt[O_PLAYERS]
    me = s[CURRENT]
    count = legal_mask(s, mask)
    hand = iw[0:8]
    collection = iw[8:16]
    unseen = iw[16:24]
    counts = iw[24:32]
    taken = iw[32:40]
    left = iw[40:48]
    right = iw[48:56]
    one = fw[0:8]
    two = fw[8:16]
    chances = fw[16:24]
    threat = fw[24:28]
    after_one = fw[28:36]
    after_two = fw[36:44]
    for i in range(NUM_SPECIES):
        hand[i] = s[HANDS + me * NUM_SPECIES + i]
        collection[i] = s[COLLECTIONS + me * NUM_SPECIES + i]
    phase = s[PHASE]
    cards_in_hand = 0
    for i in range(NUM_SPECIES):
        cards_in_hand += hand[i]
    all_cards = 0
    for seat in range(n):
        for i in range(NUM_SPECIES):
            all_cards += s[HANDS + seat * NUM_SPECIES + i]
    others = all_cards - cards_in_hand
    if phase == DRAW:
        if cards_in_hand == 0:
            end = others > end_round_threshold
            scores[DRAW_ID] = 0.0 if end else 1.0
            scores[PASS_ID] = 1.0 if end else 0.0
            return count
        potential_rows(collection, one, two)
        before = hand_value(hand, one, two)
        total = unseen_of(s, n, me, unseen)
        gain = 0.0
        if total:
            for i in range(NUM_SPECIES):
                if unseen[i]:
                    hand[i] += 1
                    after = hand_value(hand, one, two)
                    hand[i] -= 1
                    gain += unseen[i] / total * (after - before)
        scores[DRAW_ID] = 2.0 * gain
        scores[PASS_ID] = 0.0
        return count
    if phase == FLOCK:
        potential_rows(collection, one, two)
        before = hand_value(hand, one, two)
        base_value = collection_value(collection)
        for i in range(NUM_SPECIES):
            if mask[FLY_ID + i]:
                held = hand[i]
                birds = 2 if held >= BIG[i] else (1 if held >= SMALL[i] else 0)
                collection[i] += birds
                hand[i] = 0
                potential_rows(collection, after_one, after_two)
                scores[FLY_ID + i] = (
                    collection_value(collection)
                    - base_value
                    + 0.3 * (hand_value(hand, after_one, after_two) - before)
                    - 0.01 * (held - birds)
                )
                hand[i] = held
                collection[i] -= birds
        scores[PASS_ID] = 0.0
        return count
    # lays
    potential_rows(collection, one, two)
    following = (me + 1) % n
    total = unseen_of(s, n, me, unseen)
    hidden = 0
    for i in range(NUM_SPECIES):
        hidden += s[HANDS + following * NUM_SPECIES + i] - s[KNOWN + following * NUM_SPECIES + i]
    for i in range(NUM_SPECIES):
        if s[KNOWN + following * NUM_SPECIES + i]:
            chances[i] = 1.0
        elif hidden <= 0 or total <= 0 or not unseen[i]:
            chances[i] = 0.0
        else:
            miss = 1.0
            for j in range(min(hidden, total)):
                miss *= max(0.0, (total - unseen[i] - j) / (total - j))
            chances[i] = 1.0 - miss
    rc = iw[64:96]  # per row: the count, first position and distance from the end of
    rl = iw[96:128]  # the last one of each species (preview.capture_sizes)
    rr = iw[128:160]
    present = iw[160:196]  # per row, 9 entries: the species of grown_best, then how many
    for r in range(NUM_ROWS):
        base = ROWS + r * MAX_ROW
        length = s[ROW_LEN + r]
        o = r * NUM_SPECIES
        for i in range(NUM_SPECIES):
            rc[o + i] = 0
        for j in range(length):
            i = s[base + j]
            if not rc[o + i]:
                rl[o + i] = j
            rc[o + i] += 1
            rr[o + i] = length - 1 - j
        threat[r] = sizes_best(rc, rl, rr, o, length, chances)
        k = 0
        for i in range(NUM_SPECIES):
            if rc[o + i] and chances[i] != 0.0:
                present[r * 9 + k] = i
                k += 1
        present[r * 9 + 8] = k
    for a in range(DRAW_ID):
        if not mask[a]:
            continue
        si = a // 8
        r = (a % 8) // 2
        on_right = a % 2 == 1
        base = ROWS + r * MAX_ROW
        length = s[ROW_LEN + r]
        o = r * NUM_SPECIES
        held = hand[si]
        score = -potential(si, held, one[si], two[si])
        start = stop = 0
        if rc[o + si]:
            first = rl[o + si]
            last = length - 1 - rr[o + si]
            start = last + 1 if on_right else 0
            stop = length if on_right else first
        if stop > start:  # a capture
            taken[:] = 0
            for j in range(start, stop):
                taken[s[base + j]] += 1
            for i in range(NUM_SPECIES):
                if taken[i]:
                    score += potential(i, hand[i] + taken[i], one[i], two[i]) - potential(
                        i, hand[i], one[i], two[i]
                    )
            after = captured_best(
                s, base, length, start, stop, si, held, on_right, chances, counts, left, right
            )
        else:  # the birds join an end of the row: its sizes move by ``held``
            if held == cards_in_hand:
                score += 0.5 * others
            after = grown_best(rc, rl, rr, o, length, si, held, on_right, chances, present, r * 9)
        growth = after - threat[r]
        if growth > 0:
            score -= feed_weight * growth
        scores[a] = score
    return count


@jit
def greedy_choice(
    s: np.ndarray,
    opt: np.ndarray,
    mt: np.ndarray,
    feed_weight: float,
    end_round_threshold: int,
    mask: np.ndarray,
    scores: np.ndarray,
    iw: np.ndarray,
    fw: np.ndarray,
) -> int:
    """``GreedyBot.choose``: ``rng.choice`` among the best-scored legal actions."""
    greedy_scores(s, opt, feed_weight, end_round_threshold, mask, scores, iw, fw)
    top = -np.inf
    for a in range(NUM_ACTIONS):
        if mask[a] and scores[a] > top:
            top = scores[a]
    ties = 0
    for a in range(NUM_ACTIONS):
        if mask[a] and scores[a] >= top - 1e-9:
            ties += 1
    pick = mt_below(mt, ties)
    for a in range(NUM_ACTIONS):
        if mask[a] and scores[a] >= top - 1e-9:
            if pick == 0:
                return a
            pick -= 1
    return -1


@jit
def bot_choice(
    s: np.ndarray,
    opt: np.ndarray,
    kind: int,
    mt: np.ndarray,
    feed_weight: float,
    end_round_threshold: int,
    mask: np.ndarray,
    scores: np.ndarray,
    iw: np.ndarray,
    fw: np.ndarray,
) -> int:
    """The choice of the batch bot ``kind`` (``RANDOM`` or ``GREEDY``)."""
    if kind == GREEDY:
        return greedy_choice(s, opt, mt, feed_weight, end_round_threshold, mask, scores, iw, fw)
    return random_choice(s, mt, mask)


# --------------------------------------------------------------------------- batches


@pjit
def new_games(states: np.ndarray, seeds: np.ndarray, opt: np.ndarray) -> None:
    for b in numba.prange(states.shape[0]):
        new_game(states[b], seeds[b], opt)


@pjit
def legal_masks(states: np.ndarray, masks: np.ndarray) -> None:
    for b in numba.prange(states.shape[0]):
        legal_mask(states[b], masks[b])


@jit
def first_illegal(states: np.ndarray, actions: np.ndarray) -> int:
    """The first game whose action is illegal (games that are over ignore theirs), or -1."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.uint8)
    for b in range(states.shape[0]):
        if states[b, PHASE] != OVER and not is_legal(states[b], actions[b], mask):
            return b
    return -1


@pjit
def apply_actions(
    states: np.ndarray, seeds: np.ndarray, opt: np.ndarray, actions: np.ndarray
) -> None:
    for b in numba.prange(states.shape[0]):
        if states[b, PHASE] != OVER:
            apply_action(states[b], seeds[b], opt, actions[b])


@pjit
def observe_all(states: np.ndarray, opt: np.ndarray, viewers: np.ndarray, out: np.ndarray) -> None:
    for b in numba.prange(states.shape[0]):
        viewer = states[b, CURRENT] if viewers[b] < 0 else viewers[b]
        observe_into(states[b], opt, viewer, out[b])


@jit
def reset_game(
    s: np.ndarray,
    b: int,
    seeds: np.ndarray,
    base_seeds: np.ndarray,
    deals: np.ndarray,
    opt: np.ndarray,
    kinds: np.ndarray,
    mts: np.ndarray,
) -> None:
    """Deal game slot ``b`` its next game.

    Deal ``k`` (from 0) of a slot whose first seed is ``base`` has the seed ``base`` for
    ``k == 0`` and ``derive_seed(base, 2, k)`` after; the bot of seat ``p`` gets
    ``random.Random(derive_seed(seed, 1, p))``.
    """
    k = deals[b]
    deals[b] = k + 1
    seed = base_seeds[b] if k == 0 else derive_seed2(base_seeds[b], 2, k)
    seeds[b] = seed
    new_game(s, seed, opt)
    for p in range(opt[O_PLAYERS]):
        if kinds[p] != HUMAN:
            mt_seed(mts[b, p], derive_seed2(seed, 1, p))


@pjit
def reset_games(
    states: np.ndarray,
    seeds: np.ndarray,
    base_seeds: np.ndarray,
    deals: np.ndarray,
    opt: np.ndarray,
    kinds: np.ndarray,
    mts: np.ndarray,
) -> None:
    for b in numba.prange(states.shape[0]):
        deals[b] = 0
        reset_game(states[b], b, seeds, base_seeds, deals, opt, kinds, mts)


@pjit
def reset_finished(
    states: np.ndarray,
    which: np.ndarray,
    seeds: np.ndarray,
    base_seeds: np.ndarray,
    deals: np.ndarray,
    opt: np.ndarray,
    kinds: np.ndarray,
    mts: np.ndarray,
) -> None:
    for b in numba.prange(states.shape[0]):
        if which[b]:
            reset_game(states[b], b, seeds, base_seeds, deals, opt, kinds, mts)


SCRATCH_INTS = 200
SCRATCH_FLOATS = 64


def scratch(threads: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The bots' working space, one row per thread: masks, scores, ints, floats."""
    return (
        np.zeros((threads, NUM_ACTIONS), dtype=np.uint8),
        np.zeros((threads, NUM_ACTIONS)),
        np.zeros((threads, SCRATCH_INTS), dtype=np.int64),
        np.zeros((threads, SCRATCH_FLOATS)),
    )


@jit
def play_game_bots(
    s: np.ndarray, seed: np.uint64, opt: np.ndarray, b: int, bots: Any, work: Any
) -> int:
    """Let the bots play game ``s`` (slot ``b``) until an outside seat is to act or it ends.

    Returns the bots' decisions. ``bots`` is ``(kinds, mts, feed_weights, thresholds)``,
    ``work`` the per-thread :func:`scratch`.
    """
    kinds, mts, feed_weights, thresholds = bots
    masks, scores, iw, fw = work
    tid = get_thread_id()
    decisions = 0
    while s[PHASE] != OVER and kinds[s[CURRENT]] != HUMAN:
        p = s[CURRENT]
        a = bot_choice(
            s, opt, kinds[p], mts[b, p], feed_weights[p], thresholds[p], masks[tid],
            scores[tid], iw[tid], fw[tid],
        )  # fmt: skip
        apply_action(s, seed, opt, a)
        decisions += 1
    return decisions


@pjit
def play_bots(
    states: np.ndarray,
    seeds: np.ndarray,
    opt: np.ndarray,
    bots: Any,
    work: Any,
    decisions: np.ndarray,
) -> None:
    """:func:`play_game_bots` in every game; ``decisions[b]`` counts the bots' decisions."""
    for b in numba.prange(states.shape[0]):
        decisions[b] += play_game_bots(states[b], seeds[b], opt, b, bots, work)


@pjit
def env_steps(
    states: np.ndarray,
    seeds: np.ndarray,
    slots: Any,
    opt: np.ndarray,
    bots: Any,
    work: Any,
    actions: np.ndarray,
    viewer: int,
    max_turns: int,
    out: Any,
) -> None:
    """One step of a vector environment, in one pass over the games.

    In each game: the action (games that are over ignore theirs), the bots' moves, then,
    if the game ended or passed ``max_turns`` (0: no limit), its outcome and last
    observation and a new deal (:func:`reset_game`, bots included); last, the
    observation of ``viewer`` and the mask. ``slots`` is ``(base_seeds, deals)``;
    ``out`` is ``(observations, masks, final_observations, ended, winners, decisions)``
    with ``ended`` 1 for a game over and 2 for one truncated.
    """
    base_seeds, deals = slots
    kinds = bots[0]
    mts = bots[1]
    observations, masks, final_observations, ended, winners, decisions = out
    for b in numba.prange(states.shape[0]):
        s = states[b]
        count = 0
        ended[b] = 0
        winners[b] = 0
        if s[PHASE] != OVER:
            apply_action(s, seeds[b], opt, actions[b])
            count = 1 + play_game_bots(s, seeds[b], opt, b, bots, work)
        if s[PHASE] == OVER or (max_turns > 0 and s[TURN] > max_turns):
            ended[b] = 1 if s[PHASE] == OVER else 2
            winners[b] = s[WINNERS]
            observe_into(s, opt, viewer, final_observations[b])
            reset_game(s, b, seeds, base_seeds, deals, opt, kinds, mts)
            count += play_game_bots(s, seeds[b], opt, b, bots, work)
        decisions[b] = count
        observe_into(s, opt, viewer, observations[b])
        legal_mask(s, masks[b])


@pjit
def random_playouts(
    states: np.ndarray,
    seeds: np.ndarray,
    opt: np.ndarray,
    steps: int,
    rng_seed: np.uint64,
    with_observations: bool,
    out: np.ndarray,
    decisions: np.ndarray,
) -> None:
    """Take ``steps`` uniform random legal actions in every game (benchmarks, soak runs).

    A step is a mask, a choice and a step; a game that is over is dealt again, and the
    observations are computed after every step if asked.
    """
    for b in numba.prange(states.shape[0]):
        s = states[b]
        mask = np.zeros(NUM_ACTIONS, dtype=np.uint8)
        state = stream_state(rng_seed, b)
        for _ in range(steps):
            if s[PHASE] == OVER:
                state = splitmix_state(state)
                seeds[b] = splitmix_output(state)
                new_game(s, seeds[b], opt)
            count = legal_mask(s, mask)
            state = splitmix_state(state)
            pick = np.int64(splitmix_output(state) % np.uint64(count))
            for a in range(NUM_ACTIONS):
                if mask[a]:
                    if pick == 0:
                        apply_action(s, seeds[b], opt, a)
                        break
                    pick -= 1
            decisions[b] += 1
            if with_observations:
                observe_into(s, opt, s[CURRENT], out[b])


# --------------------------------------------------------------------------- search


@jit
def rollout_choice(
    s: np.ndarray, opt: np.ndarray, rng: np.uint64, mask: np.ndarray, scores: Any, iw: Any, fw: Any
) -> tuple[int, np.uint64]:
    """The greedy bot's choice (default parameters), ties broken by SplitMix64 ``rng``.

    The expert's rollout policy: the same scores as :func:`greedy_choice`, without a
    Mersenne Twister to seed for every rollout. Returns the action and the new state.
    """
    greedy_scores(s, opt, 1.0, 3, mask, scores, iw, fw)
    top = -np.inf
    ties = 0
    for a in range(NUM_ACTIONS):
        if mask[a]:
            if scores[a] > top + 1e-9:
                top = scores[a]
                ties = 1
            elif scores[a] >= top - 1e-9:
                ties += 1
    pick = np.int64(0)
    if ties > 1:
        rng = splitmix_state(rng)
        pick = np.int64(splitmix_output(rng) % np.uint64(ties))
    for a in range(NUM_ACTIONS):
        if mask[a] and scores[a] >= top - 1e-9:
            if pick == 0:
                return a, rng
            pick -= 1
    return -1, rng


@jit
def evaluate_seat(s: np.ndarray, opt: np.ndarray, seat: int, weights: np.ndarray, fw: Any) -> float:
    """``seat``'s reward: its share of the victory, or its estimated chance of winning.

    In a game stopped before its end, the chance is a softmax over the seats of
    ``weights . (collection value, hand value, hand size, to act)``
    (``bots.expert.value_features``); weights ``(1/T, 1/T, 0, 0)`` give ``IsmctsBot``'s
    evaluation at temperature ``T``.
    """
    n = opt[O_PLAYERS]
    if s[PHASE] == OVER:
        winners = 0
        for p in range(n):
            winners += (s[WINNERS] >> p) & 1
        return float((s[WINNERS] >> seat) & 1) / max(winners, 1)
    one = fw[48:56]
    two = fw[56:64]
    values = np.empty(MAX_PLAYERS)
    for p in range(n):
        c = s[COLLECTIONS + p * NUM_SPECIES : COLLECTIONS + (p + 1) * NUM_SPECIES].astype(np.int64)
        potential_rows(c, one, two)
        hand = s[HANDS + p * NUM_SPECIES : HANDS + (p + 1) * NUM_SPECIES]
        size = 0
        for i in range(NUM_SPECIES):
            size += hand[i]
        values[p] = (
            weights[0] * collection_value(c)
            + weights[1] * hand_value(hand, one, two)
            + weights[2] * size
            + weights[3] * (p == s[CURRENT])
        )
    top = values[:n].max()
    total = 0.0
    for p in range(n):
        total += np.exp(values[p] - top)
    return float(np.exp(values[seat] - top) / total)


@pjit
def search_rollouts(
    roots: np.ndarray,
    root_seeds: np.ndarray,
    opt: np.ndarray,
    candidates: np.ndarray,
    pairs: np.ndarray,
    seat: int,
    turns: int,
    weights: np.ndarray,
    rng_seed: np.uint64,
    work: Any,
    rewards: np.ndarray,
) -> None:
    """Evaluate candidate actions in determinized games: one rollout per pair.

    Pair ``k`` is ``(d, c)``: game ``roots[d]`` (a determinization, with its seed
    ``root_seeds[d]``), in which ``candidates[c]`` is played and then every seat plays
    :func:`rollout_choice` for ``turns`` more turns (``-1``: to the end of the game).
    ``rewards[k]`` is ``seat``'s reward (:func:`evaluate_seat`). The rollouts of one
    determinization share their tie-breaking stream, so candidates are compared on the
    same luck.
    """
    masks, scores, iw, fw = work
    for k in numba.prange(pairs.shape[0]):
        tid = get_thread_id()
        d = pairs[k, 0]
        s = roots[d].copy()
        seed = root_seeds[d]
        apply_action(s, seed, opt, candidates[pairs[k, 1]])
        rng = stream_state(rng_seed, d)
        stop = s[TURN] + turns
        while s[PHASE] != OVER and (turns < 0 or s[TURN] < stop):
            a, rng = rollout_choice(s, opt, rng, masks[tid], scores[tid], iw[tid], fw[tid])
            apply_action(s, seed, opt, a)
        rewards[k] = evaluate_seat(s, opt, seat, weights, fw[tid])


@jit
def determinize_into(
    s: np.ndarray,
    template: np.ndarray,
    pool: np.ndarray,
    cards: np.ndarray,
    deal: Any,
    seed: np.uint64,
) -> int:
    """``views.determinize`` of one view into row ``s``, for the paths without a fallback.

    ``template`` is the view's row (public parts, the viewer's hand and the known parts
    of the other hands); ``pool`` the cards to deal, in species order, and ``cards`` a
    scratch array as long. ``deal`` is ``(hidden, seats, limits, known_discards, flags)``:
    each seat's hidden cards, the seats to deal in order (``-1`` ends the list), their
    limits (``n x 8``), the known discards and the integers ``flags = (within, need_flock,
    current, draw_size, max_draws)``: ``within`` selects the rejection path of
    ``_determinize_within`` (knowledge, or a flock to draw), else the plain shuffle of
    ``determinize``. Returns the ``shuffles`` of the state, or ``-1`` when every draw of
    the rejection path failed (the caller then asks ``determinize`` itself, whose
    card-by-card fallback is not in the kernels).
    """
    hidden, seats, limits, known_discards, flags = deal
    within = flags[0]
    need_flock = flags[1]
    current = flags[2]
    draw_size = flags[3]
    max_draws = flags[4]
    size = pool.shape[0]
    n = hidden.shape[0]
    s[:] = template
    if not within:  # determinize: shuffle, deal the hands in seat order, then the piles
        cards[:] = pool
        shuffle_cards(cards, 0, size, stream_state(seed, 0))
        pos = 0
        for p in range(n):
            for _ in range(hidden[p]):
                s[HANDS + p * NUM_SPECIES + cards[pos]] += 1
                pos += 1
        fill_piles(s, cards, pos, draw_size, size, known_discards)
        return 1
    dealt = 0
    for p in range(n):
        dealt += hidden[p]
    kept = size - dealt
    for stream in range(max_draws):
        cards[:] = pool
        state = stream_state(seed, stream)
        top = size - 1
        good = True
        for k in range(n):
            p = seats[k]
            if p < 0:
                break
            base = HANDS + p * NUM_SPECIES
            for i in range(NUM_SPECIES):
                s[base + i] = template[base + i]
            for i in range(top, top - hidden[p], -1):
                if i:
                    state = splitmix_state(state)
                    j = np.int64(splitmix_output(state) % np.uint64(i + 1))
                    a = cards[i]
                    cards[i] = cards[j]
                    cards[j] = a
                c = cards[i]
                s[base + c] += 1
                if s[base + c] - template[base + c] > limits[p, c]:
                    good = False
                    break
            if not good:
                break
            top -= hidden[p]
            if need_flock and p == current:
                flock = False
                for i in range(NUM_SPECIES):
                    if s[base + i] >= SMALL[i]:
                        flock = True
                if not flock:
                    good = False
                    break
        if good:
            shuffle_cards(cards, 0, top + 1, state)  # continue_shuffle down from top
            fill_piles(s, cards, 0, draw_size, kept, known_discards)
            return stream + 1
    return -1


@jit
def fill_piles(
    s: np.ndarray,
    cards: np.ndarray,
    pos: int,
    draw_size: int,
    end: int,
    known_discards: np.ndarray,
) -> None:
    """``_determinized``: the draw pile from ``cards[pos:]``, the rest to the discards."""
    for j in range(draw_size):
        s[DRAW_CARDS + j] = cards[pos + j]
    s[DRAW_POS] = 0
    s[DRAW_END] = draw_size
    for i in range(NUM_SPECIES):
        s[DISCARD + i] = known_discards[i]
    for j in range(pos + draw_size, end):
        s[DISCARD + cards[j]] += 1


@pjit
def determinize_rows(
    rows: np.ndarray,
    seeds: np.ndarray,
    shuffles: np.ndarray,
    template: np.ndarray,
    pool: np.ndarray,
    deal: Any,
) -> None:
    """:func:`determinize_into` for every seed: ``rows[d]`` and ``shuffles[d]``."""
    for d in numba.prange(rows.shape[0]):
        cards = np.empty_like(pool)
        shuffles[d] = determinize_into(rows[d], template, pool, cards, deal, seeds[d])
        if shuffles[d] > 0:
            rows[d, SHUFFLES] = shuffles[d]
