"""Determinism and value semantics: same inputs, same states; nothing hidden, nothing mutated.

- The same options, seed and actions replay to equal states and byte-identical JSON, also
  when the game is resumed from the JSON of any intermediate state, and in a fresh
  interpreter with a different hash seed.
- Different seeds deal differently.
- Nothing depends on the global ``random`` module.
- States are values: equal states hash alike and work as dictionary keys, hold only
  immutable values of their declared types, and no function of the engine changes a state
  (or an action) it is given.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import hypothesis.strategies as st
import pytest
from hypothesis import given

import cuckoo_rules as cr
from tests.games import RandomGame, fields_of, random_game, random_steps
from tests.strategies import WHOLE_GAMES, random_games


def dumps(state: cr.GameState) -> str:
    return json.dumps(cr.encode_state(state))


# --------------------------------------------------------------------------- replays


@WHOLE_GAMES
@given(random_games())
def test_replay_gives_equal_states_and_identical_json(game: RandomGame) -> None:
    played = game.play()
    states, actions = played.states, played.actions
    assert states[-1].is_over
    again = cr.new_game(game.options, game.seed)
    for i, original in enumerate(states):
        assert again == original, f"replay differs after {i} actions"
        assert dumps(again) == dumps(original)
        assert hash(again) == hash(original)
        if i < len(actions):
            again = cr.apply(again, actions[i])


@WHOLE_GAMES
@given(random_games(), st.floats(0, 1))
def test_resuming_from_json_continues_identically(game: RandomGame, cut: float) -> None:
    """The JSON of a state holds everything the future depends on (reshuffles included)."""
    played = game.play()
    states, actions = played.states, played.actions
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
    for n in range(2, 6):  # the script plays as tests.games does
        for step in random_steps(cr.GameOptions(num_players=n), 1000 + n, rng=n, events=False):
            digest.update(dumps(step.after).encode())
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


def test_same_seed_and_options_deal_the_same_game_other_options_another() -> None:
    a = cr.new_game(cr.GameOptions(num_players=3), seed=5)
    b = cr.new_game(cr.GameOptions(num_players=3), seed=5)
    c = cr.new_game(cr.GameOptions(num_players=3, initial_row_length=4), seed=5)
    assert a == b
    assert c != a
    assert dumps(a) == dumps(b) != dumps(c)
    assert {len(row) for row in c.rows} == {4} != {len(row) for row in a.rows}


# --------------------------------------------------------------------------- global random


def test_new_game_and_apply_ignore_the_global_random_state() -> None:
    options = cr.GameOptions(num_players=4, setup_duplicates_to="draw_pile")
    results = []
    for global_seed in (0, 1, 123456789):
        random.seed(global_seed)
        texts = []
        for step in random_steps(options, 77, rng=3, events=False):
            texts.append(dumps(step.before))
            random.seed(global_seed * 7 + len(texts))  # before the next action is played
            random.random()
        texts.append(dumps(step.after))
        results.append(texts)
    assert results[0] == results[1] == results[2]
    # The game reshuffled the discard pile at least once, so play exercised the shuffle.
    assert json.loads(results[0][-1])["shuffles"] > 2


def test_new_game_and_apply_never_call_the_global_random_functions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    expected = [dumps(s) for s in random_game(cr.GameOptions(num_players=2), 9, rng=9).states]

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
    actual = [dumps(s) for s in random_game(cr.GameOptions(num_players=2), 9, rng=9).states]
    assert actual == expected


# --------------------------------------------------------------------------- value semantics


@WHOLE_GAMES
@given(random_games(max_actions=60))
def test_equal_states_hash_alike_and_work_as_dict_keys(game: RandomGame) -> None:
    states = game.play().states
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
        check_exact_types(copy_, "decoded")
    assert {cr.new_game(game.options, game.seed)} == {cr.new_game(game.options, game.seed)}


def immutable_parts_of(state: cr.GameState) -> Iterator[tuple[str, object, type]]:
    """Each part of ``state`` with the exact type its annotation says (tuples all the way)."""
    yield "options", state.options, cr.GameOptions
    for name in ("seed", "shuffles", "round", "turn", "dealer", "current_player"):
        yield name, getattr(state, name), int
    yield "phase", state.phase, cr.Phase
    for name in ("rows", "draw_pile", "discard_pile", "hands", "known_hands", "collections"):
        yield name, getattr(state, name), tuple
    for r, row in enumerate(state.rows):
        yield f"rows[{r}]", row, tuple
        yield from ((f"rows[{r}][{i}]", card, cr.Species) for i, card in enumerate(row))
    yield from ((f"draw_pile[{i}]", card, cr.Species) for i, card in enumerate(state.draw_pile))
    multisets = [("discard_pile", state.discard_pile)]
    for name in ("hands", "known_hands", "collections"):
        multisets += [(f"{name}[{seat}]", c) for seat, c in enumerate(getattr(state, name))]
    for name, counts in multisets:
        yield name, counts, tuple
        yield from ((f"{name}[{i}]", n, int) for i, n in enumerate(counts))
    yield "winners", state.winners, tuple
    yield from ((f"winners[{i}]", seat, int) for i, seat in enumerate(state.winners))


def has_exact_types(state: cr.GameState) -> bool:
    """Whether every part of ``state`` is of the exact (immutable) type it is declared as."""
    species, exact = cr.Species, type
    multisets = (state.discard_pile, *state.hands, *state.known_hands, *state.collections)
    return (
        exact(state.options) is cr.GameOptions
        and exact(state.phase) is cr.Phase
        and all(exact(getattr(state, name)) is int for name in INT_FIELDS)
        and all(exact(getattr(state, name)) is tuple for name in TUPLE_FIELDS)
        and all(exact(row) is tuple for row in state.rows)
        and all(exact(card) is species for row in state.rows for card in row)
        and all(exact(card) is species for card in state.draw_pile)
        and all(exact(counts) is tuple for counts in multisets)
        and all(exact(n) is int for counts in multisets for n in counts)
        and all(exact(seat) is int for seat in state.winners)
    )


def check_exact_types(state: cr.GameState, where: str) -> None:
    if not has_exact_types(state):
        wrong = [
            f"{name}: {type(value).__name__} {value!r}"
            for name, value, kind in immutable_parts_of(state)
            if type(value) is not kind
        ]
        raise AssertionError(f"{where}: {wrong}")
    multisets = [state.discard_pile, *state.hands, *state.known_hands, *state.collections]
    assert {len(counts) for counts in multisets} == {cr.cards.NUM_SPECIES}, where
    seats = {len(state.hands), len(state.known_hands), len(state.collections)}
    assert seats == {state.num_players}, where


INT_FIELDS = ("seed", "shuffles", "round", "turn", "dealer", "current_player")
TUPLE_FIELDS = ("rows", "draw_pile", "discard_pile", "hands", "known_hands", "collections")


@WHOLE_GAMES
@given(random_games())
def test_states_hold_only_immutable_values_of_their_declared_types(game: RandomGame) -> None:
    # A frozen state only keeps its attributes from being rebound: a list or a dict in
    # it (or a bool or an IntEnum passing for an int) could still be changed, or compare
    # and hash unlike the values the JSON reads back. Dealt, played and decoded states
    # alike hold exact tuples, ints, species and phases.
    # (test_equal_states_hash_alike_and_work_as_dict_keys checks decoded states so.)
    for i, state in enumerate(game.play().states):
        check_exact_types(state, f"after {i} actions")


@WHOLE_GAMES
@given(random_games(max_actions=400))
def test_no_function_of_the_engine_changes_its_arguments(game: RandomGame) -> None:
    """``apply``, ``step``, ``legal_actions``, ``observe``... leave the state (and action) given.

    Each state's fields (the objects bound to them) and its JSON are taken before
    anything was done with it, and compared after the next action was played from it
    (by :mod:`tests.games`) and after every other function was called on it: a field
    rebound or a value changed inside one shows. (A deep copy would add nothing: every
    value in a state is immutable, and a copy of a tuple of them is the tuple itself.)
    """
    seen = 0
    start = cr.new_game(game.options, game.seed)
    snapshot = fields_of(start), dumps(start), cr.legal_actions(start)
    for step in game.steps(events=False):
        state = step.before
        before, before_text, legal = snapshot
        snapshot = fields_of(step.after), dumps(step.after), cr.legal_actions(step.after)
        action_copy = copy.copy(step.action)
        # An action of another phase is refused, and leaves the state as it was too.
        illegal = next(a for a in cr.actions.ALL_ACTIONS if a not in legal)
        with pytest.raises(cr.IllegalActionError):
            cr.apply(state, illegal)
        with pytest.raises(cr.IllegalActionError):
            cr.step(state, illegal)
        assert cr.step(state, step.action)[0] == step.after
        cr.legal_action_mask(state)
        for viewer in [*range(state.num_players), None]:
            cr.observe(state, viewer)
        assert dumps(state) == before_text
        assert fields_of(state) == before
        assert step.action == action_copy
        assert cr.legal_actions(state) == legal
        assert step.after != state  # every action changes something
        seen += 1
    assert seen == len(game.play().actions) > 0


def test_the_engines_fast_constructor_builds_the_states_attrs_would() -> None:
    # The engine builds states without GameState.__init__ (engine._compile_new_state):
    # each must equal, hash like and print like the state attrs' constructor builds.
    for game in range(12):
        options = cr.GameOptions(num_players=2 + game % 4)
        for step in random_steps(options, game, rng=game, events=False):
            after = step.after
            rebuilt = cr.GameState(
                **{f.name: getattr(after, f.name) for f in attrs.fields(cr.GameState)}
            )
            assert type(after) is cr.GameState
            assert after == rebuilt
            assert hash(after) == hash(rebuilt)
            assert repr(after) == repr(rebuilt)
