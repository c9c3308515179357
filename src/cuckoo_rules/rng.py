"""SplitMix64 and the seeded Fisher-Yates shuffle (``interchange.md`` §2).

These are the only sources of randomness in the rules engine. They are pure functions
of their inputs, so a deal can be reproduced in any language. :func:`continue_shuffle`
runs a shuffle in parts, and :func:`below` draws a bounded integer (for
:func:`~cuckoo_rules.determinize`, which no interchange vector pins).
"""

from __future__ import annotations

from typing import TypeVar

__all__ = [
    "MASK64",
    "SEED_LIMIT",
    "SPLITMIX_GAMMA",
    "SPLITMIX_MIX1",
    "SPLITMIX_MIX2",
    "SPLITMIX_SHIFT1",
    "SPLITMIX_SHIFT2",
    "SPLITMIX_SHIFT3",
    "STREAM_MULTIPLIER",
    "below",
    "continue_shuffle",
    "shuffle",
    "splitmix64",
    "stream_state",
]

T = TypeVar("T")

MASK64 = (1 << 64) - 1
"""Mask of a 64-bit unsigned integer."""

SEED_LIMIT = 1 << 64
"""Seeds are integers in ``[0, SEED_LIMIT)``."""

SPLITMIX_GAMMA = 0x9E3779B97F4A7C15
"""What each SplitMix64 step adds to the state (modulo ``2**64``): the odd integer
nearest ``2**64`` divided by the golden ratio."""

SPLITMIX_MIX1 = 0xBF58476D1CE4E5B9
"""The first multiplier of SplitMix64's output mix."""

SPLITMIX_MIX2 = 0x94D049BB133111EB
"""The second multiplier of SplitMix64's output mix."""

SPLITMIX_SHIFT1 = 30
"""The shift of the output mix before :data:`SPLITMIX_MIX1`."""

SPLITMIX_SHIFT2 = 27
"""The shift of the output mix before :data:`SPLITMIX_MIX2`."""

SPLITMIX_SHIFT3 = 31
"""The last shift of the output mix."""

STREAM_MULTIPLIER = 0xD1B54A32D192ED03
"""Random stream ``k`` of seed ``s`` starts from the state ``s ^ (k * STREAM_MULTIPLIER)``
(modulo ``2**64``; :func:`stream_state`)."""


def splitmix64(state: int) -> tuple[int, int]:
    """Advance a SplitMix64 generator by one step.

    Args:
        state: The generator state, a 64-bit unsigned integer.

    Returns:
        The new state and the 64-bit output.

    Example:
        >>> state, out = splitmix64(0)
        >>> hex(out)
        '0xe220a8397b1dcdaf'
    """
    state = (state + SPLITMIX_GAMMA) & MASK64
    z = state
    z = ((z ^ (z >> SPLITMIX_SHIFT1)) * SPLITMIX_MIX1) & MASK64
    z = ((z ^ (z >> SPLITMIX_SHIFT2)) * SPLITMIX_MIX2) & MASK64
    return state, z ^ (z >> SPLITMIX_SHIFT3)


def stream_state(seed: int, stream: int) -> int:
    """Return the initial generator state of random stream ``stream`` of game ``seed``."""
    return (seed ^ ((stream * STREAM_MULTIPLIER) & MASK64)) & MASK64


def shuffle(cards: list[T], seed: int, stream: int) -> int:
    """Shuffle ``cards`` in place with Fisher-Yates driven by SplitMix64.

    This function mutates the list it is given; the engine only ever passes it a fresh
    list of its own.

    Args:
        cards: The list to shuffle, in place.
        seed: The game seed, in ``[0, 2**64)``.
        stream: The number of the random stream (0 for the first shuffle of a game).

    Returns:
        The generator state after the shuffle (stream 0 goes on to pick the dealer).
    """
    return continue_shuffle(cards, stream_state(seed, stream), len(cards) - 1)


def continue_shuffle(cards: list[T], state: int, top: int, stop: int = 0) -> int:
    """Run the steps of :func:`shuffle` that fix positions ``top`` down to ``stop + 1``.

    Fisher-Yates fixes the positions of ``cards`` from the end: position ``i`` is
    swapped with position ``out % (i + 1)``, ``out`` the next SplitMix64 output, and
    position 0 needs no draw. A shuffle may be run in parts, each part going on from
    the state the previous one returned: ``shuffle`` is
    ``continue_shuffle(cards, stream_state(seed, stream), len(cards) - 1)``.

    Args:
        cards: The list being shuffled, in place.
        state: The generator state to go on from.
        top: The first position to fix (``len(cards) - 1`` to start a shuffle).
        stop: The position below the last one to fix (0, the default, finishes it).

    Returns:
        The generator state after the last step.
    """
    # splitmix64 inline, its constants read as locals: this loop is most of a deal, of a
    # reshuffle and of a determinization, and the call cost a fifth of it.
    gamma, mix1, mix2, mask = SPLITMIX_GAMMA, SPLITMIX_MIX1, SPLITMIX_MIX2, MASK64
    shift1, shift2, shift3 = SPLITMIX_SHIFT1, SPLITMIX_SHIFT2, SPLITMIX_SHIFT3
    for i in range(top, max(stop, 0), -1):
        state = (state + gamma) & mask
        z = ((state ^ (state >> shift1)) * mix1) & mask
        z = ((z ^ (z >> shift2)) * mix2) & mask
        j = (z ^ (z >> shift3)) % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return state


def below(state: int, bound: int) -> tuple[int, int]:
    """Draw an integer in ``[0, bound)`` with a bias below ``2**-64``, however large ``bound``.

    The outputs of as many steps as the bound needs, plus one, are joined into one
    number and reduced modulo ``bound``.

    Returns:
        The new generator state and the number.

    Example:
        >>> below(0, 10**30)[1] < 10**30
        True
    """
    value = 0
    for _ in range(bound.bit_length() // 64 + 2):
        state, out = splitmix64(state)
        value = value << 64 | out
    return state, value % bound
