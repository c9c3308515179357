"""The fast paths of the hot loops give exactly what their plain forms give.

``CuckooEnv``, ``decode_state`` and ``determinize`` were made faster (issue 29, "The old
regressions", ``docs/performance.md``) by paths that skip work the usual input does not
need; these tests hold each one to the plain computation it replaces, on the inputs
where the two could part: rows whose species are split, values an observation never
holds, views and documents that break a rule.
"""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cuckoo_rules as cr
from cuckoo_rules.bots.greedy import _best_capture
from cuckoo_rules.codec import decode_options, decode_state, encode_state
from cuckoo_rules.determinization import deal_plan
from cuckoo_rules.preview import capture_sizes
from cuckoo_rules.rng import continue_shuffle, splitmix64, stream_state
from cuckoo_rules.state import EMPTY_COUNTS
from cuckoo_rules.views import check_view_consistency, unseen_cards

SPECIES = list(cr.Species)


def plain_shuffle(cards: list[int], state: int, top: int, stop: int) -> int:
    for i in range(top, max(stop, 0), -1):
        state, out = splitmix64(state)
        j = out % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return state


@given(st.integers(0, 120), st.integers(0, 2**64 - 1), st.integers(-3, 120), st.integers(0, 9))
def test_the_inline_shuffle_is_splitmix64s(size: int, seed: int, stop: int, stream: int) -> None:
    fast, plain = list(range(size)), list(range(size))
    state = stream_state(seed, stream)
    top = size - 1
    assert continue_shuffle(fast, state, top, stop) == plain_shuffle(plain, state, top, stop)
    assert fast == plain


def plain_best_capture(row: tuple[cr.Species, ...], chances: tuple[float, ...]) -> float:
    counts, left, right = capture_sizes(row)
    best = 0.0
    for i in range(len(counts)):
        if counts[i] and counts[i] != len(row):
            best = max(best, chances[i] * max(left[i], right[i]))
    return best


@given(
    st.lists(st.sampled_from(SPECIES), max_size=14),  # split species included
    st.lists(st.floats(0.0, 1.0), min_size=8, max_size=8),
)
def test_the_greedy_bots_best_capture_is_capture_sizes(
    row: list[cr.Species], chances: list[float]
) -> None:
    assert _best_capture(tuple(row), tuple(chances)) == plain_best_capture(
        tuple(row), tuple(chances)
    )


def random_states(games: int, seed: int) -> list[cr.GameState]:
    rng = random.Random(seed)
    states = []
    for game in range(games):
        state = cr.new_game(cr.GameOptions(num_players=2 + game % 4), seed + game)
        while not state.is_over:
            states.append(state)
            state = cr.apply(state, rng.choice(cr.legal_actions(state)))
        states.append(state)
    return states


def test_a_plan_deals_the_unseen_cards_into_the_hidden_places() -> None:
    for state in random_states(6, 40)[::3]:
        for seat in [None, *range(state.num_players)]:
            view = cr.observe(state, seat)
            plan = deal_plan(view)
            unseen = unseen_cards(view)
            assert plan.pool == tuple(s for s in SPECIES for _ in range(unseen[s.index]))
            assert plan.hidden == tuple(
                0 if p == seat else size - sum(known)
                for p, (size, known) in enumerate(
                    zip(view.hand_sizes, view.known_hands, strict=True)
                )
            )
            assert plan.seats[:1] == (view.current_player,) or not plan.need_flock
            assert deal_plan(view) is plan  # the same view and knowledge: asked once


def test_a_view_check_skips_only_what_cannot_fail() -> None:
    state = next(s for s in random_states(1, 3) if s.phase is cr.Phase.LAY and s.turn > 2)
    view = cr.observe(state, state.current_player)
    check_view_consistency(view)
    # The lay's quick test must still let these through to the message helpers.
    other = (view.current_player + 1) % view.num_players
    sizes = tuple(0 if p == other else n for p, n in enumerate(view.hand_sizes))
    empty_known = tuple(EMPTY_COUNTS if p == other else k for p, k in enumerate(view.known_hands))
    pile = view.draw_pile_size + view.hand_sizes[other]  # its cards back in the pile
    broken = attrs.evolve(view, hand_sizes=sizes, known_hands=empty_known, draw_pile_size=pile)
    with pytest.raises(
        cr.ViewError, match=rf"hand_sizes\[{other}\]: player {other} holds no cards"
    ):
        check_view_consistency(broken)
    known = list(view.known_hands)
    hand = view.hand
    assert hand is not None
    missing = next(s for s in SPECIES if not hand[s.index])
    known[view.current_player] = tuple(
        1 if i == missing.index else n for i, n in enumerate(known[view.current_player])
    )
    with pytest.raises(
        cr.ViewError, match=rf"known_hands\[{view.current_player}\]\.{missing.value}"
    ):
        check_view_consistency(attrs.evolve(view, known_hands=tuple(known)))


def test_decode_state_names_the_row_only_when_it_is_wrong() -> None:
    state = random_states(1, 9)[4]
    doc: dict[str, Any] = encode_state(state)
    assert decode_state(doc) == state
    doc["rows"] = [list(row) for row in doc["rows"]]
    split = [doc["rows"][2][0], "toucan" if doc["rows"][2][0] != "toucan" else "owl"]
    bad = {**doc, "rows": [*doc["rows"][:2], [*split, split[0]], doc["rows"][3]]}
    with pytest.raises(cr.DecodeError, match=r"^rows\[2\]: the \w+ at index 2 is apart"):
        decode_state(bad)
    bad = {**doc, "rows": [doc["rows"][0], ["bogus"], *doc["rows"][2:]]}
    with pytest.raises(cr.DecodeError, match=r"^rows\[1\]\[0\]: unknown species 'bogus'"):
        decode_state(bad)
    bad = {**doc, "rows": [doc["rows"][0], "owl", *doc["rows"][2:]]}
    with pytest.raises(cr.DecodeError, match=r"^rows\[1\]: expected an array"):
        decode_state(bad)
    as_tuples = {**doc, "rows": [tuple(row) for row in doc["rows"]]}
    assert decode_state(as_tuples) == state


def test_decoded_options_tell_true_from_one() -> None:
    options = cr.GameOptions(num_players=2).to_json()
    assert decode_options(options) == cr.GameOptions(num_players=2)
    flags = [name for name, value in options.items() if value is False]
    assert flags
    as_int = {**options, flags[0]: 0}
    with pytest.raises(cr.DecodeError):
        decode_options(as_int)
    with pytest.raises(cr.DecodeError):
        decode_options({**options, "num_players": True})


def test_the_environment_hands_out_the_plain_arrays() -> None:
    np = pytest.importorskip("numpy")
    gym_env = pytest.importorskip("cuckoo_rules.envs.gymnasium")
    from cuckoo_rules.observation import encode_observation

    env = gym_env.CuckooEnv(num_players=3, opponents="greedy")
    rng = random.Random(2)
    for seed in range(3):
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            state = env.game_state
            plain = np.asarray(encode_observation(cr.observe(state, env.seat)), dtype=np.float32)
            assert obs.dtype == plain.dtype
            assert obs.shape == plain.shape
            assert (obs == plain).all()
            assert obs.flags.writeable
            mask = info["action_mask"]
            assert mask.dtype == np.int8
            assert mask.tolist() == [int(x) for x in cr.legal_action_mask(state)]
            action = rng.choice(mask.nonzero()[0])
            obs, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        assert not info["action_mask"].any()


def test_observations_beyond_a_byte_take_the_general_conversion() -> None:
    np = pytest.importorskip("numpy")
    gym_env = pytest.importorskip("cuckoo_rules.envs.gymnasium")
    for values in [(0, 1, 110), (), (300, 2), (-1, 4), (1.5, 2), (True, 3)]:
        fast = gym_env._float32(values)
        plain = np.asarray(values, dtype=np.float32)
        assert fast.dtype == plain.dtype
        assert fast.shape == plain.shape
        assert (fast == plain).all()
