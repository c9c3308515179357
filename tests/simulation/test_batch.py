"""The batch simulator plays exactly the engine's games, and its bots choose as ours do.

The differential tests step batches of games with random legal actions drawn from the
batch's own masks and check, after every step of every game, that the game taken out of
the batch (``state(i)``) equals the engine's state after the same actions, that the mask
equals ``legal_action_mask`` and that the observation row equals ``encode_observation``
of the acting seat's view. ``scripts/batch_soak.py`` runs the same check on many more
games. A subprocess runs a few games with ``NUMBA_DISABLE_JIT=1``, where the kernels are
plain Python.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

import attrs
import pytest

pytest.importorskip("numba")

import numba
import numpy as np

import cuckoo_rules as cr
from cuckoo_rules.batch import BATCH_BOTS, BatchGame, ObservedStep, options_array
from cuckoo_rules.batch._random import mt_below, mt_seed
from cuckoo_rules.bots import derive_seed, make_bot
from cuckoo_rules.match import Match
from cuckoo_rules.observation import encode_observation
from cuckoo_rules.options import option_info
from tests.conftest import DATA, ROOT

VECTORS = DATA / "vectors" / "v2"
GAMES_PER_OPTION = int(os.environ.get("CUCKOO_BATCH_GAMES", "16"))
"""Games per option set in the differential test (56 sets, 896 games; see the soak script)."""


def short(options: cr.GameOptions) -> str:
    """A test id: the player count and the options that are not the default."""
    parts = [f"{options.num_players}p"]
    for info in option_info()[1:]:
        value = getattr(options, info.name)
        if value != info.default:
            parts.append(f"{info.name}={value}")
    return "-".join(parts)


def options_of(players: int, **values: Any) -> cr.GameOptions:
    """``GameOptions`` of ``players`` and option values given by name."""
    return cr.GameOptions(num_players=players, **values)


def every_single_option() -> list[cr.GameOptions]:
    """Every value of every option, each with the defaults otherwise, for 2 to 5 players."""
    found = []
    for players in range(2, 6):
        found.append(cr.GameOptions(num_players=players))
        for info in option_info()[1:]:
            for value in info.values[1:]:  # the first is the default
                found.append(options_of(players, **{info.name: value}))
    return found


def mixed_options(count: int, seed: int) -> list[cr.GameOptions]:
    """``count`` random combinations of every option at once."""
    rng = random.Random(seed)
    infos = option_info()[1:]
    return [
        options_of(rng.randint(2, 5), **{i.name: rng.choice(i.values) for i in infos})
        for _ in range(count)
    ]


def play_alongside(options: cr.GameOptions, seeds: list[int], rng: np.random.Generator) -> int:
    """Play ``seeds`` in a batch and in the engine with the same random legal actions,
    checking state, mask and observation after every step; return the steps compared."""
    games = BatchGame(options, seeds)
    states = [cr.new_game(options, seed) for seed in seeds]
    compared = 0
    while True:
        masks = games.legal_action_mask()
        observations = games.observations()
        actions = np.zeros(len(seeds), dtype=np.int64)
        for i, state in enumerate(states):
            assert games.state(i) == state, f"game {i} (seed {seeds[i]}), turn {state.turn}"
            assert masks[i].tolist() == list(cr.legal_action_mask(state)), f"mask of game {i}"
            view = cr.observe(state, state.current_player)
            assert observations[i].tolist() == list(encode_observation(view)), i
            if not state.is_over:
                actions[i] = rng.choice(np.flatnonzero(masks[i]))
                states[i] = cr.apply(state, cr.action_from_id(int(actions[i])))
                compared += 1
        if all(state.is_over for state in states):
            return compared
        games.step(actions)


@pytest.mark.parametrize("options", every_single_option(), ids=short)
def test_a_batch_plays_the_engines_games_under_every_option(options: cr.GameOptions) -> None:
    rng = np.random.default_rng(zlib.crc32(repr(options).encode()))  # the same in every run
    seeds = [int(s) for s in rng.integers(0, 2**64, size=GAMES_PER_OPTION, dtype=np.uint64)]
    assert play_alongside(options, seeds, rng) > 50 * GAMES_PER_OPTION


@pytest.mark.parametrize("options", mixed_options(12, seed=5), ids=short)
def test_a_batch_plays_the_engines_games_under_mixed_options(options: cr.GameOptions) -> None:
    rng = np.random.default_rng(7)
    assert play_alongside(options, [0, 1, 2**64 - 1, 12345], rng) > 100


def _vector(path: Path) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return document


@pytest.mark.parametrize("path", sorted(VECTORS.glob("*.json")), ids=lambda p: p.name)
def test_the_shared_vectors_replay_in_a_batch(path: Path) -> None:
    vector = _vector(path)
    options = cr.GameOptions(**vector["options"])
    if "state" in vector:  # a setup
        games = BatchGame(options, [vector["seed"]] * 3)
        expected = cr.decode_state(vector["state"])
        assert all(games.state(i) == expected for i in range(3))
        return
    games = BatchGame(options, [vector["seed"]] * 2)
    assert games.state(0) == cr.decode_state(vector["states"][0])
    for doc, state in zip(vector["actions"], vector["states"][1:], strict=True):
        action = cr.action_id(cr.decode_action(doc))
        games.step([action, action])
        assert games.state(1) == games.state(0) == cr.decode_state(state)
    assert games.is_over.all()


# --------------------------------------------------------------------------- bots


@pytest.mark.parametrize(
    "seed", [0, 1, 5, 2**31, 2**32 - 1, 2**32, 2**63 + 12345, 2**64 - 1, 0xDEADBEEFCAFE]
)
def test_the_kernels_mersenne_twister_is_pythons(seed: int) -> None:
    words = np.zeros(625, dtype=np.uint32)
    mt_seed(words, np.uint64(seed))
    assert tuple(int(w) for w in words) == random.Random(seed).getstate()[1]
    python = random.Random(seed)
    for bound in [1, 2, 3, 7, 8, 40, 74, 1000, 2**31 + 1] * 80:  # past one refill of 624
        assert mt_below(words, bound) == python.choice(range(bound))


SEATINGS = [
    ("greedy", "greedy"),
    ("random", "greedy", "greedy"),
    ("greedy", "random", "greedy", "greedy"),
    ("random",) * 5,
    ("greedy:feed_weight=2.5:end_round_threshold=0", "greedy:feed_weight=0"),
    ("greedy",) * 5,
]


@pytest.mark.parametrize("kinds", SEATINGS, ids=",".join)
def test_the_batch_bots_choose_as_randombot_and_greedybot(kinds: tuple[str, ...]) -> None:
    mixed = attrs.evolve(mixed_options(1, seed=len(kinds))[0], num_players=len(kinds))
    for options in (cr.GameOptions(num_players=len(kinds)), mixed):
        seeds = list(range(40, 52))
        games = BatchGame(options, seeds, seats=kinds)
        assert games.is_over.all()
        for i, seed in enumerate(seeds):
            bots = [make_bot(kind, derive_seed(seed, 1, seat)) for seat, kind in enumerate(kinds)]
            match = Match(options, seed, bots, keep_events=False)
            match.play_bots()
            assert games.state(i) == match.state, f"seed {seed}"


def test_bots_play_the_other_seats_until_an_outside_seat_is_to_act() -> None:
    options = cr.GameOptions(num_players=3)
    games = BatchGame(options, range(20), seats=[None, "greedy", "random"], auto_reset=True)
    rng = np.random.default_rng(3)
    finished = 0
    for _ in range(300):
        assert (games.current_player == 0).all()
        assert not games.is_over.any()
        masks = games.legal_action_mask()
        step = games.step([rng.choice(np.flatnonzero(m)) for m in masks])
        finished += int(step.finished.sum())
        assert np.allclose(step.returns[step.finished].sum(axis=1), 1.0)
        assert not step.returns[~step.finished].any()
    assert finished > 5


def test_play_runs_games_of_bots_to_the_end_and_counts_the_decisions() -> None:
    games = BatchGame(cr.GameOptions(num_players=2), range(4), seats=["random", "random"])
    assert games.is_over.all()  # the bots played when the batch was made
    assert games.play() == 0
    assert games.winners.any(axis=1).all()
    assert np.allclose(games.returns.sum(axis=1), 1.0)


# --------------------------------------------------------------------------- the API


def test_deal_observed_deals_the_constructors_batch_and_observes_it() -> None:
    """The batch is the one the constructor deals; the step, its observations and masks
    with nothing ended; its decisions, the moves the bots made before the outside seat
    (counted by replaying each deal with the engine and the same bots)."""
    options = cr.GameOptions(num_players=2)
    seeds = list(range(40, 56))
    seats = [None, "random"]
    games, dealt = BatchGame.deal_observed(options, seeds, 0, seats=seats)
    made = BatchGame(options, seeds, seats=seats)
    assert [games.state(i) for i in range(len(seeds))] == [made.state(i) for i in range(len(seeds))]
    assert np.array_equal(dealt.observations, made.observations([0] * len(seeds)))
    assert np.array_equal(dealt.masks, made.legal_action_mask())
    assert not dealt.terminated.any()
    assert not dealt.truncated.any()
    assert not dealt.winners.any()
    assert not dealt.final_observations.any()
    bot_moves = []
    for seed in seeds:
        match = Match(options, seed, [None, make_bot("random", derive_seed(seed, 1, 1))])
        match.play_bots()
        bot_moves.append(len(match.actions))
    assert dealt.decisions == sum(bot_moves) > 0  # the bot began some of the games
    for _ in range(30):  # and it plays on as the constructor's
        first = made.legal_action_mask().argmax(axis=1)
        ours, theirs = games.step_observed(first, 0, 20), made.step_observed(first, 0, 20)
        for field in attrs.fields(ObservedStep):
            assert np.array_equal(getattr(ours, field.name), getattr(theirs, field.name))
    assert [games.state(i) for i in range(len(seeds))] == [made.state(i) for i in range(len(seeds))]


def test_auto_reset_deals_the_slots_next_seed() -> None:
    options = cr.GameOptions(num_players=2)
    games = BatchGame(options, [7, 8], seats=[None, "random"], auto_reset=True)
    rng = np.random.default_rng(0)
    while True:
        step = games.step([rng.choice(np.flatnonzero(m)) for m in games.legal_action_mask()])
        if step.finished[0]:
            break
    seed = derive_seed(7, 2, 1)
    assert int(games.seeds[0]) == seed
    bot = make_bot("random", derive_seed(seed, 1, 1))
    match = Match(options, seed, [None, bot], keep_events=False)
    match.play_bots()
    assert games.state(0) == match.state


def test_reset_deals_again_only_the_chosen_slots() -> None:
    options = cr.GameOptions(num_players=4)
    games = BatchGame(options, [1, 2, 3])
    before = [games.state(i) for i in range(3)]
    games.reset([False, True, False])
    assert games.state(0) == before[0]
    assert games.state(2) == before[2]
    assert games.state(1) == cr.new_game(options, derive_seed(2, 2, 1))
    with pytest.raises(cr.InvalidOptionsError, match="which: expected 3 booleans"):
        games.reset([1, 0, 1])  # type: ignore[list-item]


def test_set_state_puts_any_state_in_a_slot() -> None:
    options = cr.GameOptions(num_players=3, refill_trigger="same_species_lay")
    rng = random.Random(4)
    state = cr.new_game(options, 9)
    for _ in range(60):
        state = cr.apply(state, rng.choice(cr.legal_actions(state)))
    games = BatchGame(options, [0, 0])
    games.set_state(1, state)
    assert games.state(1) == state
    assert games.state(0) == cr.new_game(options, 0)
    action = rng.choice(cr.legal_actions(state))
    games.step([int(games.legal_action_mask()[0].argmax()), cr.action_id(action)])
    assert games.state(1) == cr.apply(state, action)
    with pytest.raises(cr.InvalidOptionsError, match="the batch's options"):
        games.set_state(0, cr.new_game(cr.GameOptions(num_players=3), 0))


def test_an_illegal_action_names_its_game_and_changes_nothing() -> None:
    games = BatchGame(cr.GameOptions(num_players=2), [1, 2, 3])
    before = [games.state(i) for i in range(3)]
    masks = games.legal_action_mask()
    actions = masks.argmax(axis=1)
    actions[1] = cr.actions.DRAW_ID  # a draw before laying
    with pytest.raises(cr.IllegalActionError, match=r"game 1: action 64 \(Draw\(\)\) is not legal"):
        games.step(actions)
    actions[1] = 99
    with pytest.raises(cr.IllegalActionError, match="game 1: 99 is not an action id"):
        games.step(actions)
    assert [games.state(i) for i in range(3)] == before
    with pytest.raises(cr.InvalidOptionsError, match="action_ids: expected 3 integers"):
        games.step([0.5, 1, 2])  # type: ignore[list-item]
    with pytest.raises(cr.InvalidOptionsError, match="action_ids: expected 3 integers"):
        games.step([1, 2])


def test_a_finished_game_ignores_its_action() -> None:
    games = BatchGame(cr.GameOptions(num_players=2), [5, 6], seats=[None, "greedy"])
    rng = np.random.default_rng(1)
    while not games.is_over[0]:
        masks = games.legal_action_mask()
        actions = [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks]
        games.step(actions)
    final = games.state(0)
    masks = games.legal_action_mask()
    assert not masks[0].any()
    games.step([73, int(masks[1].argmax()) if masks[1].any() else 0])
    assert games.state(0) == final


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"seeds": []}, "seeds: a batch needs at least one seed"),
        ({"seeds": [1, -1]}, r"seeds\[1\]: -1 is not in \[0, 2\*\*64\)"),
        ({"seeds": [2**64]}, r"seeds\[0\]"),
        ({"seeds": [True]}, r"seeds\[0\]: expected an integer"),
        ({"seeds": 5}, "seeds: expected a sequence of integers"),
        ({"seats": ["greedy"]}, "seats: expected one entry per seat"),
        ({"seats": [None, "ismcts"]}, r"seats\[1\]: 'ismcts' cannot play inside the batch"),
        ({"seats": [None, 3]}, r"seats\[1\]: expected bot specs"),
        ({"auto_reset": 1}, "auto_reset: expected True or False"),
    ],
)
def test_bad_arguments_are_refused_with_a_clear_error(
    arguments: dict[str, Any], message: str
) -> None:
    given: dict[str, Any] = {"seeds": [1, 2], **arguments}
    with pytest.raises(cr.InvalidOptionsError, match=message):
        BatchGame(cr.GameOptions(num_players=2), **given)


def test_a_bad_bot_parameter_is_refused() -> None:
    with pytest.raises(cr.bots.BotSpecError, match="depth"):
        BatchGame(cr.GameOptions(num_players=2), [1], seats=[None, "greedy:depth=2"])


def test_the_batch_bots_are_the_spec_kinds_it_names() -> None:
    assert set(BATCH_BOTS) <= set(cr.bots.BOT_KINDS)


def test_observations_for_chosen_viewers_and_bad_viewers() -> None:
    options = cr.GameOptions(num_players=3)
    games = BatchGame(options, [4, 5])
    rows = games.observations([1, 2])
    for i, viewer in enumerate([1, 2]):
        view = cr.observe(games.state(i), viewer)
        assert rows[i].tolist() == list(encode_observation(view))
    with pytest.raises(cr.InvalidOptionsError, match="viewers"):
        games.observations([0, 3])


def test_arrays_returned_are_copies() -> None:
    games = BatchGame(cr.GameOptions(num_players=2), [1])
    before = games.state(0)
    games.seeds[0] = 99
    games.current_player[0] = 1
    games.legal_action_mask()[0, :] = True
    assert games.state(0) == before


def test_state_index_errors() -> None:
    games = BatchGame(cr.GameOptions(num_players=2), [1, 2])
    assert games.state(-1) == games.state(1)
    with pytest.raises(IndexError, match="game index 2 is not in a batch of 2"):
        games.state(2)


def test_the_options_array_follows_the_options() -> None:
    for options in every_single_option():
        values = options_array(options).tolist()
        assert values[0] == options.num_players
        assert len(values) == len(cr.options.OPTION_NAMES)
    assert len({tuple(options_array(o).tolist()) for o in every_single_option()}) == len(
        every_single_option()
    )
    with pytest.raises(cr.InvalidOptionsError, match="options: expected GameOptions"):
        options_array("2p")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- no JIT

NO_JIT_PROGRAM = """
import warnings
warnings.simplefilter("error")
import numba
assert numba.config.DISABLE_JIT
import cuckoo_rules as cr
from tests.simulation.test_batch import play_alongside, mixed_options, SEATINGS
from cuckoo_rules.batch import BatchGame
from cuckoo_rules.bots import derive_seed, make_bot
from cuckoo_rules.match import Match
import numpy as np
steps = 0
for options in [cr.GameOptions(num_players=2), *mixed_options(2, seed=11)]:
    steps += play_alongside(options, [3, 2**64 - 2], np.random.default_rng(1))
for kinds in SEATINGS[:3]:
    options = cr.GameOptions(num_players=len(kinds))
    games = BatchGame(options, [9], seats=kinds)
    bots = [make_bot(kind, derive_seed(9, 1, seat)) for seat, kind in enumerate(kinds)]
    match = Match(options, 9, bots, keep_events=False)
    match.play_bots()
    assert games.state(0) == match.state
print(steps)
"""


def test_the_kernels_as_plain_python_play_the_same_games() -> None:
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    done = subprocess.run(
        [sys.executable, "-c", NO_JIT_PROGRAM],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) > 300


def test_every_option_combination_maps_to_distinct_kernel_options() -> None:
    infos = option_info()[1:]
    combos = list(itertools.product(*(i.values for i in infos)))
    arrays = {
        tuple(
            options_array(
                options_of(2, **dict(zip((i.name for i in infos), c, strict=True)))
            ).tolist()
        )
        for c in combos
    }
    assert len(arrays) == len(combos)


def test_a_batch_on_several_threads_plays_as_batches_on_one() -> None:
    """256 games (two threads or more, so the kernels' parallel variants, on a machine of
    several cores) play as the same games in batches of 64, which one thread plays with
    the serial variants: the deal, the bots' moves, the masks, the steps with and without
    observations, the new deals of the games that end."""
    from cuckoo_rules.batch import _drivers
    from cuckoo_rules.batch.threads import threads_for
    from cuckoo_rules.batch.warm import _warm_kernels

    if numba.config.DISABLE_JIT:  # type: ignore[attr-defined]
        pytest.skip("NUMBA_DISABLE_JIT: the kernels are Python functions, of one variant")
    names = ("reset_games", "legal_masks", "env_steps", "apply_actions", "play_bots", "observe_all")
    # Both variants, now: a first call on threads would otherwise run the serial one while
    # the parallel one compiles aside, where the cache lacks it (the test run's warm-up
    # fills it; a copy of the library, as the flock experiment's, starts without).
    _warm_kernels(names)

    options = cr.GameOptions(num_players=3)
    seats = [None, "greedy", "random"]
    seeds = list(range(1000, 1256))

    def play(chosen: list[int]) -> tuple[list[cr.GameState], Any]:
        games = BatchGame(options, chosen, seats=seats, auto_reset=True)
        seen = []  # each step's observations of every game, then the last ones
        for step in range(60):
            first_legal = games.legal_action_mask().argmax(axis=1)
            if step % 2:
                games.step(first_legal)
            else:
                observed = games.step_observed(first_legal, viewer=0, max_turns=40)
                seen += [observed.observations, observed.final_observations]
        seen.append(games.observations())
        return [games.state(i) for i in range(len(chosen))], np.stack(seen)

    whole, whole_seen = play(seeds)
    parts = [play(seeds[start : start + 64]) for start in range(0, len(seeds), 64)]
    assert whole == [state for states, _ in parts for state in states]
    assert np.array_equal(whole_seen, np.concatenate([seen for _, seen in parts], axis=1))
    assert any(state.round > 1 or state.is_over for state in whole)  # the games went far
    if threads_for(len(seeds)) > 1:  # the parallel variants ran
        for name in names:
            assert getattr(_drivers, name).variants[1].signatures, name
