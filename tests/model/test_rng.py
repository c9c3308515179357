"""The seeded shuffle run in parts, and bounded draws (``cuckoo_rules.rng``)."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from cuckoo_rules.rng import below, continue_shuffle, shuffle, splitmix64, stream_state


@given(
    st.integers(0, 120),
    st.integers(0, 2**64 - 1),
    st.integers(0, 50),
    st.lists(st.integers(-1, 120), max_size=4),
)
def test_a_shuffle_run_in_parts_is_the_whole_shuffle(
    size: int, seed: int, stream: int, cuts: list[int]
) -> None:
    whole = list(range(size))
    end_state = shuffle(whole, seed, stream)
    parts = list(range(size))
    state, top = stream_state(seed, stream), size - 1
    for cut in sorted(cuts, reverse=True):
        if cut < top:
            state, top = continue_shuffle(parts, state, top, cut), cut
    state = continue_shuffle(parts, state, top)
    assert parts == whole
    assert state == end_state


def test_continue_shuffle_draws_nothing_for_position_0() -> None:
    cards = ["a", "b"]
    state = stream_state(5, 0)
    assert continue_shuffle(cards, state, 0) == state
    assert continue_shuffle(cards, state, 1, 0) == splitmix64(state)[0]


@given(st.integers(0, 2**64 - 1), st.integers(1, 2**200))
def test_below_stays_below_its_bound(state: int, bound: int) -> None:
    after, value = below(state, bound)
    assert 0 <= value < bound
    assert after != state


def test_below_is_uniform() -> None:
    state, tally = 7, Counter[int]()
    for _ in range(6000):
        state, value = below(state, 6)
        tally[value] += 1
    assert all(abs(n - 1000) < 100 for n in tally.values())
    big = 3 * 2**100  # spans several outputs: each third as likely
    thirds = Counter[int]()
    for _ in range(3000):
        state, value = below(state, big)
        thirds[value >> 100] += 1
    assert sorted(thirds) == [0, 1, 2]
    assert all(abs(n - 1000) < 100 for n in thirds.values())
