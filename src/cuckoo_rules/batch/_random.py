"""The kernels' random generators: the engine's SplitMix64, and CPython's Mersenne Twister.

SplitMix64 and its seeded Fisher-Yates shuffle are those of :mod:`cuckoo_rules.rng`
(``interchange.md`` §2), with its constants, on ``uint64`` values, so that every shuffle
of a game takes the same random stream as the engine's. The bots' generators are
CPython's Mersenne Twister (``random.Random``, as ``_randommodule.c`` writes it), one per
game and seat, so that the batched random and greedy players choose exactly what
:class:`~cuckoo_rules.bots.RandomBot` and :class:`~cuckoo_rules.bots.GreedyBot` choose
with the same seeds. A game uses a few dozen of a generator's 624 words, so the words
are refilled one at a time as they are drawn (:func:`mt_next`), not all at once.
"""

from __future__ import annotations

import numpy as np

from .. import rng
from ._jit import compiled, jit

__all__ = [
    "MT_N",
    "derive_seed2",
    "mt_below",
    "mt_next",
    "mt_seed",
    "shuffle_cards",
    "splitmix_output",
    "splitmix_state",
    "stream_state",
]

# --------------------------------------------------------------------------- SplitMix64

_GAMMA = np.uint64(rng.SPLITMIX_GAMMA)
_STREAM = np.uint64(rng.STREAM_MULTIPLIER)
_MIX1 = np.uint64(rng.SPLITMIX_MIX1)
_MIX2 = np.uint64(rng.SPLITMIX_MIX2)
_SHIFT1 = np.uint64(rng.SPLITMIX_SHIFT1)  # uint64 like the state, so that numba keeps
_SHIFT2 = np.uint64(rng.SPLITMIX_SHIFT2)  # the arithmetic in unsigned 64-bit integers
_SHIFT3 = np.uint64(rng.SPLITMIX_SHIFT3)


@jit
def splitmix_state(state: np.uint64) -> np.uint64:
    """The next SplitMix64 state."""
    return state + _GAMMA


@jit
def splitmix_output(state: np.uint64) -> np.uint64:
    """The output of a SplitMix64 state (after it was advanced)."""
    z = state
    z = (z ^ (z >> _SHIFT1)) * _MIX1
    z = (z ^ (z >> _SHIFT2)) * _MIX2
    return z ^ (z >> _SHIFT3)


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


# --------------------------------------------------------------------------- Mersenne Twister

MT_N = 624
"""The Mersenne Twister's words; a generator is ``MT_N + 1`` of them, the index last."""
_MT_M = 397
_S30 = np.uint64(30)
_S32 = np.uint64(32)
_LOW32 = np.uint64(0xFFFFFFFF)


def _init_genrand(seed: int) -> np.ndarray:
    """CPython's ``init_genrand(seed)``: the words ``init_by_array`` starts from."""
    words = [seed]
    for i in range(1, MT_N):
        prev = words[-1]
        words.append((1812433253 * (prev ^ (prev >> 30)) + i) & 0xFFFFFFFF)
    return np.array(words, dtype=np.uint32)


_GENRAND = _init_genrand(19650218)
"""The words every seeding starts from (the same for every seed, so computed once)."""

_no_refcount = compiled(forceinline=False, _nrt=False)  # as _rules.rule
_inlined = compiled(forceinline=True, _nrt=False)  # as _rules.inline


@jit
def mt_seed(mt: np.ndarray, seed: np.uint64) -> None:
    """``random.Random(seed)`` for ``0 <= seed < 2**64``: ``init_by_array`` of its words.

    ``mt`` holds the 624 words and, last, the index (CPython's ``_randommodule.c``).
    """
    for i in range(MT_N):
        mt[i] = _GENRAND[i]
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


@_inlined
def mt_next(mt: np.ndarray) -> np.uint32:
    """``genrand_uint32``: the next 32-bit output.

    CPython refills the 624 words all at once when the last is used, word ``k`` from
    words ``k``, ``k + 1`` and ``k + 397`` (mod 624), in order. Here word ``k`` is
    refilled when it is drawn, which gives the same words: in that loop, the words
    after ``k`` that it reads are still the old ones, and the words before ``k`` that it
    reads (``k + 1`` or ``k + 397`` past 624) are new ones, as they are here. Between two
    refills the words differ from CPython's (those not yet drawn are not yet refilled),
    the outputs do not.
    """
    k = mt[MT_N]
    if k >= MT_N:
        k = 0
    y = (mt[k] & np.uint32(0x80000000)) | (mt[(k + 1) % MT_N] & np.uint32(0x7FFFFFFF))
    value = mt[(k + _MT_M) % MT_N] ^ (y >> np.uint32(1))
    if y & np.uint32(1):
        value ^= np.uint32(0x9908B0DF)
    mt[k] = value
    mt[MT_N] = k + 1
    y = value
    y ^= y >> np.uint32(11)
    y ^= (y << np.uint32(7)) & np.uint32(0x9D2C5680)
    y ^= (y << np.uint32(15)) & np.uint32(0xEFC60000)
    y ^= y >> np.uint32(18)
    return np.uint32(y)


@_no_refcount
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
