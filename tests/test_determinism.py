"""Determinism and value semantics: same inputs, same states; nothing hidden, nothing mutated.

- The same options, seed and actions replay to equal states and byte-identical JSON, also
  when the game is resumed from the JSON of any intermediate state, and in a fresh
  interpreter with a different hash seed.
- Different seeds deal differently.
- Nothing depends on the global ``random`` module.
- States are values: equal states hash alike and work as dictionary keys; ``apply`` and
  ``legal_actions`` never change their arguments.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import hypothesis.strategies as st
import pytest
from hypothesis import given

import cuckoo_rules as cr
from tests.strategies import OPTIONS, SEEDS

# A seed for the generator that chooses actions (part of the example, so it shrinks).
CHOOSER = st.integers(0, 2**32 - 1)


def dumps(state: cr.GameState) -> str:
    return json.dumps(cr.encode_state(state))


def random_game(
    options: cr.GameOptions, seed: int, chooser: int, limit: int = 10_000
) -> tuple[list[cr.GameState], list[cr.Action]]:
    """Play up to ``limit`` random legal actions; return every state and the actions."""
    rng = random.Random(chooser)
    states = [cr.new_game(options, seed)]
    actions: list[cr.Action] = []
    while len(actions) < limit:
        legal = cr.legal_actions(states[-1])
        if not legal:
            break
        action = rng.choice(legal)
        actions.append(action)
        states.append(cr.apply(states[-1], action))
    return states, actions


# --------------------------------------------------------------------------- replays


@given(options=OPTIONS, seed=SEEDS, chooser=CHOOSER)
def test_replay_gives_equal_states_and_identical_json(
    options: cr.GameOptions, seed: int, chooser: int
) -> None:
    states, actions = random_game(options, seed, chooser)
    assert states[-1].is_over
    again = cr.new_game(options, seed)
    for i, original in enumerate(states):
        assert again == original, f"replay differs after {i} actions"
        assert dumps(again) == dumps(original)
        assert hash(again) == hash(original)
        if i < len(actions):
            again = cr.apply(again, actions[i])


@given(options=OPTIONS, seed=SEEDS, chooser=CHOOSER, cut=st.floats(0, 1))
def test_resuming_from_json_continues_identically(
    options: cr.GameOptions, seed: int, chooser: int, cut: float
) -> None:
    """The JSON of a state holds everything the future depends on (reshuffles included)."""
    states, actions = random_game(options, seed, chooser)
    k = int(cut * (len(states) - 1))
    again = cr.decode_state(json.loads(dumps(states[k])))
    for i in range(k, len(states)):
        assert dumps(again) == dumps(states[i]), f"resumed at {k}, differs at {i}"
        assert again == states[i]
        if i < len(actions):
            again = cr.apply(again, actions[i])


def test_replay_is_identical_in_a_fresh_interpreter_with_another_hash_seed() -> None:
    """No dependence on hash randomisation (set order, id(), ...): same bytes in a new process."""
    script = (
        "import hashlib, json, random, sys\n"
        "import cuckoo_rules as cr\n"
        "digest = hashlib.sha256()\n"
        "for n in range(2, 6):\n"
        "    state = cr.new_game(cr.GameOptions(num_players=n), seed=1000 + n)\n"
        "    rng = random.Random(n)\n"
        "    while not state.is_over:\n"
        "        state = cr.apply(state, rng.choice(cr.legal_actions(state)))\n"
        "        digest.update(json.dumps(cr.encode_state(state)).encode())\n"
        "print(digest.hexdigest())\n"
    )
    digest = hashlib.sha256()
    for n in range(2, 6):
        state = cr.new_game(cr.GameOptions(num_players=n), seed=1000 + n)
        rng = random.Random(n)
        while not state.is_over:
            state = cr.apply(state, rng.choice(cr.legal_actions(state)))
            digest.update(dumps(state).encode())
    env = dict(os.environ, PYTHONPATH=str(Path(cr.__file__).resolve().parent.parent))
    for hash_seed in ("0", "4242"):
        env["PYTHONHASHSEED"] = hash_seed
        out = subprocess.run(
            [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
        )
        assert out.stdout.strip() == digest.hexdigest(), f"PYTHONHASHSEED={hash_seed}"


# --------------------------------------------------------------------------- seeds


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_different_seeds_deal_differently(num_players: int) -> None:
    options = cr.GameOptions(num_players=num_players)
    seeds = [
        *range(25),
        *(2**64 - 1 - k for k in range(10)),
        *(k * 0x9E3779B97F4A7C15 % 2**64 for k in range(1, 16)),
    ]
    assert len(set(seeds)) == 50
    games = [cr.new_game(options, seed) for seed in seeds]
    draw_piles = {game.draw_pile for game in games}
    assert len(draw_piles) == len(seeds), "two seeds gave the same draw pile"
    assert len({game.rows for game in games}) > 40, "rows barely depend on the seed"
    assert len({game.hands for game in games}) == len(seeds), "two seeds dealt the same hands"
    assert len({game.dealer for game in games}) == num_players, "some seat never deals first"
    assert len(set(games)) == len(seeds)


def test_same_seed_same_game_different_options_do_not_share_state() -> None:
    a = cr.new_game(cr.GameOptions(num_players=3), seed=5)
    b = cr.new_game(cr.GameOptions(num_players=3), seed=5)
    c = cr.new_game(cr.GameOptions(num_players=3, initial_row_length=4), seed=5)
    assert a == b
    assert a is not b
    assert c != a
    assert dumps(a) == dumps(b) != dumps(c)


# --------------------------------------------------------------------------- global random


def test_new_game_and_apply_ignore_the_global_random_state() -> None:
    options = cr.GameOptions(num_players=4, setup_duplicates_to="draw_pile")
    results = []
    for global_seed in (0, 1, 123456789):
        random.seed(global_seed)
        state = cr.new_game(options, seed=77)
        texts = [dumps(state)]
        chooser = random.Random(3)
        while not state.is_over:
            random.seed(global_seed * 7 + len(texts))
            random.random()
            state = cr.apply(state, chooser.choice(cr.legal_actions(state)))
            texts.append(dumps(state))
        results.append(texts)
    assert results[0] == results[1] == results[2]
    # The game reshuffled the discard pile at least once, so play exercised the shuffle.
    assert json.loads(results[0][-1])["shuffles"] > 2


def test_new_game_and_apply_never_call_the_global_random_functions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    expected = [dumps(s) for s in random_game(cr.GameOptions(num_players=2), 9, 9)[0]]

    def forbidden(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the engine used the global random generator")

    for name in (
        "random",
        "randint",
        "randrange",
        "choice",
        "choices",
        "shuffle",
        "sample",
        "getrandbits",
        "seed",
        "uniform",
    ):
        monkeypatch.setattr(random, name, forbidden)
    monkeypatch.setattr(os, "urandom", forbidden)
    actual = [dumps(s) for s in random_game(cr.GameOptions(num_players=2), 9, 9)[0]]
    assert actual == expected


# --------------------------------------------------------------------------- value semantics


@given(options=OPTIONS, seed=SEEDS, chooser=CHOOSER)
def test_equal_states_hash_alike_and_work_as_dict_keys(
    options: cr.GameOptions, seed: int, chooser: int
) -> None:
    states, _ = random_game(options, seed, chooser, limit=60)
    by_state: dict[cr.GameState, int] = {}
    texts: dict[str, int] = {}
    for i, state in enumerate(states):
        by_state.setdefault(state, i)
        texts.setdefault(dumps(state), i)
    # Two states are equal exactly when their JSON is.
    assert len(by_state) == len(texts)
    for state in states:
        copy_ = cr.decode_state(json.loads(dumps(state)))
        assert copy_ == state
        assert hash(copy_) == hash(state)
        assert by_state[copy_] == texts[dumps(state)]
        assert copy.deepcopy(state) == state
        assert hash(copy.deepcopy(state)) == hash(state)
    assert {cr.new_game(options, seed)} == {cr.new_game(options, seed)}


def test_states_differing_in_one_field_are_different_keys() -> None:
    state = cr.new_game(cr.GameOptions(num_players=2), seed=11)
    doc = cr.encode_state(state)
    other = dict(doc, turn=doc["turn"] + 1, round=doc["round"])
    changed = cr.decode_state(other)
    assert changed != state
    assert len({state: 1, changed: 2}) == 2


@given(options=OPTIONS, seed=SEEDS, chooser=CHOOSER)
def test_apply_and_legal_actions_never_mutate_their_inputs(
    options: cr.GameOptions, seed: int, chooser: int
) -> None:
    rng = random.Random(chooser)
    state = cr.new_game(options, seed)
    seen = 0
    while not state.is_over and seen < 400:
        before_text = dumps(state)
        before = copy.deepcopy(state)
        legal = cr.legal_actions(state)
        legal_copy = copy.deepcopy(legal)
        action = rng.choice(legal)
        action_copy = copy.deepcopy(action)
        # An illegal action first: it must leave the state as it was too.
        illegal = cr.Lay(cr.Species.FLAMINGO, 7, cr.Side.LEFT)
        with pytest.raises(cr.IllegalActionError):
            cr.apply(state, illegal)
        new = cr.apply(state, action)
        assert dumps(state) == before_text
        assert state == before
        assert action == action_copy
        assert cr.legal_actions(state) == legal == legal_copy
        assert new is not state
        state = new
        seen += 1
    before_text = dumps(state)
    assert cr.legal_actions(state) == () or seen == 400
    assert dumps(state) == before_text


def test_states_are_frozen() -> None:
    state = cr.new_game(cr.GameOptions(num_players=2), seed=1)
    with pytest.raises(AttributeError):
        state.turn = 5  # type: ignore[misc]
    with pytest.raises(TypeError):
        state.rows[0][0] = cr.Species.OWL  # type: ignore[index]
