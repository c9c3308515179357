"""The OpenSpiel game: registration, OpenSpiel's own checks, agreement with the engine,
no leak of hidden cards, resampling, and OpenSpiel's ISMCTS bot on it."""

from __future__ import annotations

import json
import pickle
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

import cuckoo_rules as cr  # noqa: E402
from cuckoo_rules.envs import openspiel as osp  # noqa: E402

GAME = osp.GAME_NAME


def load(**params: Any) -> osp.CuBirdsGame:
    game: osp.CuBirdsGame = pyspiel.load_game(GAME, params)
    return game


def dealt(game: osp.CuBirdsGame) -> osp.CuBirdsState:
    state: osp.CuBirdsState = game.new_initial_state()
    state.apply_action(0)
    return state


def sampler(seed: int) -> Callable[[], float]:
    return random.Random(seed).random


def random_walk(state: osp.CuBirdsState, rng: random.Random) -> Iterator[osp.CuBirdsState]:
    """Yield ``state`` and then every state of a random game from it (in place)."""
    yield state
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        yield state


def sample_states(players: int, seed: int, count: int) -> list[osp.CuBirdsState]:
    """Clones of ``count`` states spread over random games, the chance node excluded."""
    game = load(players=players, rng_seed=seed)
    rng = random.Random(seed)
    states: list[osp.CuBirdsState] = []
    while len(states) < count:
        for state in random_walk(dealt(game), rng):
            if rng.random() < 0.08 and len(states) < count:
                states.append(state.clone())
    return states


# --------------------------------------------------------------------------- the game


def test_registered_once_and_loadable_with_parameters() -> None:
    assert pyspiel.registered_names().count(GAME) == 1
    game = pyspiel.load_game(GAME, {"players": 3})
    assert isinstance(game, osp.CuBirdsGame)
    assert game.num_players() == 3
    assert game.options == cr.GameOptions(num_players=3)
    assert game.num_distinct_actions() == cr.NUM_DISTINCT_ACTIONS == 74
    assert game.max_chance_outcomes() == 1
    assert game.max_game_length() == 3 * osp.DEFAULT_MAX_TURNS
    assert game.max_history_length() == game.max_game_length() + 1  # one chance node
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (0.0, 1.0, 1.0)
    assert game.observation_tensor_size() == cr.observation.observation_size(3) == 179
    assert game.information_state_tensor_size() == osp.information_state_size(3) == 464
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (kind.min_num_players, kind.max_num_players) == (2, 5)


def test_rule_variants_are_game_parameters() -> None:
    game = pyspiel.load_game(
        f"{GAME}(players=4,round_end_timing=immediate,always_prompt_flock=true,"
        "initial_row_length=4,next_round_first_player=left_of_round_ender,max_turns=50)"
    )
    assert game.options == cr.GameOptions(
        num_players=4,
        round_end_timing="immediate",
        always_prompt_flock=True,
        initial_row_length=4,
        next_round_first_player="left_of_round_ender",
    )
    assert game.max_turns == 50
    assert game.max_game_length() == 150
    assert all(len(row) == 4 for row in dealt(game).engine_state.rows)
    assert load().num_players() == 2  # every parameter has a default


def test_refill_trigger_and_same_dealer_are_game_parameters() -> None:
    game = pyspiel.load_game(
        f"{GAME}(players=3,refill_trigger=same_species_lay,next_round_first_player=same_dealer)"
    )
    expected = cr.GameOptions(
        num_players=3, refill_trigger="same_species_lay", next_round_first_player="same_dealer"
    )
    assert game.options == expected
    assert game.get_parameters()["refill_trigger"] == "same_species_lay"
    state = dealt(game)
    assert state.engine_state.options == expected
    assert '"refill_trigger":"same_species_lay"' in state.information_state_string(0)
    first_dealer, rounds = state.engine_state.dealer, 1
    for later in random_walk(state.clone(), random.Random(3)):
        assert later.engine_state.options == expected
        assert later.engine_state.dealer == first_dealer  # "same_dealer": every round
        rounds = later.engine_state.round
    assert rounds > 1
    parameters = load().get_parameters()
    for name, value in cr.GameOptions(num_players=2).to_json().items():
        if name != "num_players":
            assert parameters[name] == value, name


@pytest.mark.parametrize(
    "params",
    [
        {"players": 6},
        {"players": 1},
        {"round_end_timing": "never"},
        {"refill_trigger": "lay"},
        {"next_round_first_player": "dealer"},
        {"max_turns": 0},
    ],
)
def test_bad_parameters_are_refused(params: dict[str, Any]) -> None:
    with pytest.raises(cr.InvalidOptionsError):
        pyspiel.load_game(GAME, params)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_openspiel_random_simulation_checks(players: int) -> None:
    # serialize=False: see the module documentation (no GetRNGState for Python games).
    game = load(players=players, rng_seed=players)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_openspiel_checks_with_variants_and_a_turn_limit() -> None:
    game = load(
        players=3,
        always_prompt_flock=True,
        round_end_timing="immediate",
        optional_draw_if_adjacent=False,
        exhaustion_counts_discard=False,
        setup_duplicates_to="draw_pile",
        max_turns=12,
    )
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


# --------------------------------------------------------------------------- chance


def test_the_deal_is_the_only_chance_node_and_is_reproducible() -> None:
    game = load(players=2, rng_seed=7)
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(0, 1.0)]
    assert state.legal_actions() == [0]
    assert not state.is_dealt
    with pytest.raises(ValueError, match="not dealt"):
        _ = state.engine_state
    state.clone()  # cloning must not consume the game's random numbers
    state.apply_action(0)
    assert not state.is_chance_node()
    assert state.history() == [0]
    first = state.engine_state
    second = dealt(game).engine_state
    assert first != second  # each deal draws a new seed
    again = load(players=2, rng_seed=7)
    assert dealt(again).engine_state == first
    assert dealt(again).engine_state == second
    assert dealt(load(players=2, rng_seed=8)).engine_state != first
    # No chance node after the deal: reshuffles come from the dealt seed.
    rng = random.Random(1)
    assert not any(s.is_chance_node() for s in random_walk(dealt(game), rng))


def test_state_from_engine_plays_a_given_deal() -> None:
    game = load(players=3)
    engine = cr.new_game(game.options, 42)
    state = game.state_from_engine(engine)
    assert state.engine_state == engine
    assert state.history() == [0]
    assert state.current_player() == engine.current_player
    with pytest.raises(ValueError, match="GameState"):
        game.state_from_engine(cr.new_game(cr.GameOptions(num_players=2), 42))


# --------------------------------------------------------------------------- the engine


@pytest.mark.parametrize("players", [2, 4])
def test_actions_observations_and_returns_agree_with_the_engine(players: int) -> None:
    game = load(players=players, rng_seed=11)
    rng = random.Random(players)
    for _ in range(3):
        state = dealt(game)
        engine = state.engine_state
        while not state.is_terminal():
            assert state.engine_state == engine
            assert state.current_player() == engine.current_player
            legal = state.legal_actions()
            assert legal == sorted(cr.action_id(a) for a in cr.legal_actions(engine))
            assert state.legal_actions_mask() == [int(x) for x in cr.legal_action_mask(engine)]
            for seat in range(players):
                view = cr.observe(engine, seat)
                assert state.view(seat) == view
                expected = np.asarray(cr.observation.encode_observation(view), np.float32)
                assert np.array_equal(np.asarray(state.observation_tensor(seat)), expected)
                infostate = np.asarray(state.information_state_tensor(seat))
                assert np.array_equal(infostate[: len(expected)], expected)
            assert state.returns() == [0.0] * players
            action = rng.choice(legal)
            assert state.action_to_string(action) == cr.format_action(cr.action_from_id(action))
            state.apply_action(action)
            engine = cr.apply(engine, cr.action_from_id(action))
        assert engine.is_over
        assert not state.truncated
        assert state.winners == engine.winners
        returns = state.returns()
        assert sum(returns) == pytest.approx(1.0)
        for seat in range(players):
            share = 1 / len(engine.winners) if seat in engine.winners else 0.0
            assert returns[seat] == pytest.approx(share)
        assert f"Winners: P{engine.winners[0]}" in state.observation_string(0)


def test_the_turn_limit_ends_the_game_by_collection_size() -> None:
    game = load(players=3, max_turns=4)
    state = dealt(game)
    decisions = 0
    for _ in random_walk(state, random.Random(3)):
        decisions += 0 if state.is_terminal() else 1
    assert decisions <= game.max_game_length()
    engine = state.engine_state
    assert state.is_terminal()
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert not engine.is_over  # the rules alone have not ended it
    assert state.truncated
    assert engine.turn == 5
    sizes = [sum(c) for c in engine.collections]
    assert state.winners == tuple(s for s in range(3) if sizes[s] == max(sizes))
    assert state.legal_actions() == []
    assert "(turn limit)" in state.observation_string(1)
    assert "truncated after 4 turns" in state.information_state_string(1)


def test_a_shared_victory_splits_the_return() -> None:
    game = load(players=3, max_turns=1)  # after one turn, usually a three-way tie
    shared = 0
    for _ in range(5):
        state = dealt(game)
        for _ in random_walk(state, random.Random(0)):
            pass
        winners = state.winners
        assert winners
        shared += len(winners) > 1
        returns = state.returns()
        assert returns == [1 / len(winners) if s in winners else 0.0 for s in range(3)]
        assert sum(returns) == pytest.approx(1.0)
    assert shared > 0


# --------------------------------------------------------------------------- observations


def test_observers_and_their_named_pieces() -> None:
    from open_spiel.python.observation import make_observation

    game = load(players=3)
    state = dealt(game)
    seat = state.current_player()
    observation = make_observation(game)
    observation.set_from(state, seat)
    assert np.array_equal(observation.tensor, state.observation_tensor(seat))
    assert observation.string_from(state, seat) == state.observation_string(seat)
    hand = cr.observation.observation_field(3, "hand")
    assert observation.dict["hand"].tolist() == list(state.engine_state.hands[seat])
    assert list(observation.dict) == [f.name for f in cr.observation.observation_layout(3)]
    assert hand.size == 8
    infostate = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    infostate.set_from(state, seat)
    assert np.array_equal(infostate.tensor, state.information_state_tensor(seat))
    assert infostate.string_from(state, seat) == state.information_state_string(seat)
    assert list(infostate.dict) == [f.name for f in osp.information_state_layout(3)]
    with pytest.raises(ValueError, match="only observations"):
        game.make_py_observer(
            pyspiel.IIGObservationType(
                perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
            )
        )
    with pytest.raises(ValueError, match="parameters"):
        game.make_py_observer(None, {"x": 1})


def test_the_information_state_layout_is_contiguous() -> None:
    for players in range(2, 6):
        layout = osp.information_state_layout(players)
        offset = 0
        for field in layout:
            assert field.offset == offset
            offset += field.size
        assert offset == osp.information_state_size(players) == 125 + 113 * players
        assert len({f.name for f in layout}) == len(layout)


def test_the_history_summary_counts_public_events() -> None:
    game = load(players=3, rng_seed=5)
    state = dealt(game)
    rng = random.Random(5)
    laid = [[0] * 8 for _ in range(3)]
    last = [-1] * 3
    declined = [0] * 3
    for _ in range(40):
        if state.is_terminal():
            break
        actor = state.current_player()
        action = rng.choice(state.legal_actions())
        move = cr.action_from_id(action)
        if isinstance(move, cr.Lay):
            laid[actor][move.species.index] += state.engine_state.hands[actor][move.species.index]
        if isinstance(move, cr.Pass) and state.engine_state.phase is cr.Phase.DRAW:
            declined[actor] += 1
        last[actor] = action
        state.apply_action(action)
    layout = {f.name: f for f in osp.information_state_layout(3)}
    for viewer in range(3):
        values = state.information_state_tensor(viewer)

        def piece(name: str, values: list[float] = values) -> list[int]:
            field = layout[name]
            return [int(v) for v in values[field.offset : field.offset + field.size]]

        assert piece("turn") == [state.engine_state.turn]
        assert piece("round") == [state.engine_state.round]
        for k in range(3):
            seat = (viewer + k) % 3
            assert piece(f"seat[{k}].laid") == laid[seat]
            assert piece(f"seat[{k}].draws_declined") == [declined[seat]]
            one_hot = piece(f"seat[{k}].last_action")
            assert one_hot == [int(i == last[seat]) for i in range(74)]


def test_information_state_string_has_perfect_recall() -> None:
    game = load(players=2, rng_seed=3)
    state = dealt(game)
    before = {seat: state.information_state_string(seat) for seat in range(2)}
    for _ in random_walk(state, random.Random(3)):
        for seat in range(2):
            now = state.information_state_string(seat)
            # Every earlier line but the last (the view at that time) is kept as it was.
            kept = before[seat].split("\n")[:-1]
            assert now.split("\n")[: len(kept)] == kept
            assert now.split("\n")[-1] == json.dumps(
                cr.encode_view(state.view(seat)), separators=(",", ":")
            )
            before[seat] = now
        if state.move_number() > 60:
            break
    lines = before[0].split("\n")
    assert lines[0].startswith("seat 0 of 2; ")
    assert len(lines) == 2 + (len(state.history()) - 1) + 1


def test_a_seat_remembers_its_own_draws_and_not_the_others() -> None:
    game = load(players=3, rng_seed=6)
    draws = 0
    for state in random_walk(dealt(game), random.Random(6)):
        if state.is_terminal() or cr.action_id(cr.Draw()) not in state.legal_actions():
            continue
        drawer = state.current_player()
        state.apply_action(cr.action_id(cr.Draw()))
        draws += 1
        for seat in range(3):
            line = json.loads(state.information_state_string(seat).split("\n")[-2])
            drew = [e for e in line if e["type"] == "drew"]
            # One event per pile the cards came from: two when the draw empties the pile.
            kinds = [e["type"] for e in line if e["type"] in ("drew", "reshuffled")]
            assert kinds in (["drew"], ["reshuffled", "drew"], ["drew", "reshuffled", "drew"])
            assert sum(e["count"] for e in drew) <= 2
            for event in drew:
                if seat == drawer:
                    assert len(event["cards"]) == event["count"] > 0
                else:
                    assert event["cards"] is None
    assert draws > 5


def knowledge(state: osp.CuBirdsState, seat: int) -> tuple[Any, ...]:
    """Everything the OpenSpiel state tells ``seat``."""
    return (
        state.observation_string(seat),
        tuple(state.observation_tensor(seat)),
        state.information_state_string(seat),
        tuple(state.information_state_tensor(seat)),
    )


def p_visible(events: tuple[cr.Event, ...], seat: int) -> tuple[cr.Event, ...]:
    return cr.visible_events(events, seat)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_what_a_seat_is_told_does_not_depend_on_cards_it_cannot_see(players: int) -> None:
    game = load(players=players)
    rng = random.Random(players)
    others_differ = 0
    for index, sample in enumerate(sample_states(players, seed=players, count=12)):
        engine = sample.engine_state
        if engine.is_over:
            continue
        seat = rng.randrange(players)
        # Another deal of the cards the seat cannot see: other hands, piles, the seed.
        twin = cr.determinize(cr.observe(engine, seat), seed=1000 + index)
        a, b = game.state_from_engine(engine), game.state_from_engine(twin)
        seen_a: list[cr.Event] = []
        seen_b: list[cr.Event] = []
        for _ in range(30):
            assert knowledge(a, seat) == knowledge(b, seat)
            if any(knowledge(a, q) != knowledge(b, q) for q in range(players) if q != seat):
                others_differ += 1
            if a.is_terminal() or b.is_terminal():
                break
            common = sorted(set(a.legal_actions()) & set(b.legal_actions()))
            if not common:
                break
            action = rng.choice(common)
            _, events_a = cr.step(a.engine_state, cr.action_from_id(action))
            _, events_b = cr.step(b.engine_state, cr.action_from_id(action))
            seen_a += p_visible(events_a, seat)
            seen_b += p_visible(events_b, seat)
            a.apply_action(action)
            b.apply_action(action)
            if seen_a != seen_b:  # the seat saw the difference (a refill, its own draw)
                assert knowledge(a, seat) != knowledge(b, seat)
                break
    assert others_differ > 0  # the check can tell states apart where it should


# --------------------------------------------------------------------------- resampling


def learned(state: osp.CuBirdsState, seat: int) -> cr.Knowledge:
    """What ``seat`` learned from the history of ``state``, replayed with the engine."""
    engine = cr.new_game(state.engine_state.options, state.engine_state.seed)
    knowledge = cr.Knowledge.at_setup(engine)  # the duplicates set aside are known
    for action in state.history()[1:]:  # the first action is the deal
        engine, events = cr.step(engine, cr.action_from_id(action))
        knowledge = cr.knowledge.learn(knowledge, cr.visible_events(events, seat), seat)
    assert engine == state.engine_state
    return knowledge


def test_resampled_hands_agree_with_the_history() -> None:
    """A seat that laid all its birds of a species holds none in a resampled state."""
    limited = placed = 0
    for sample in sample_states(4, seed=9, count=12):
        for seat in range(4):
            knowledge = learned(sample, seat)
            limited += sum(min(limits) == 0 for limits in knowledge.hidden_limits)
            for draw in range(3):
                engine = sample.resample_from_infostate(
                    seat, sampler(10 * seat + draw)
                ).engine_state
                for other in range(4):
                    if other != seat:
                        hidden = tuple(
                            h - k
                            for h, k in zip(
                                engine.hands[other], engine.known_hands[other], strict=True
                            )
                        )
                        assert knowledge.allows(other, hidden), (seat, other, hidden)
                assert all(map(int.__le__, knowledge.known_discards, engine.discard_pile))
                placed += any(knowledge.known_discards)
    assert limited > 10  # the histories did rule cards out
    assert placed > 10  # and put known cards in the discard pile


def test_resampling_keeps_the_information_state_and_redraws_the_rest() -> None:
    changed = different = 0
    for sample in sample_states(3, seed=4, count=10):
        for seat in range(3):
            resampled = sample.resample_from_infostate(seat, sampler(seat))
            assert isinstance(resampled, osp.CuBirdsState)
            assert resampled.history() == sample.history()
            assert resampled.current_player() == sample.current_player()
            assert knowledge(resampled, seat) == knowledge(sample, seat)
            if seat == sample.current_player():
                assert resampled.legal_actions() == sample.legal_actions()
            changed += resampled.engine_state != sample.engine_state
            again = sample.resample_from_infostate(seat, sampler(seat))
            assert again.engine_state == resampled.engine_state  # the sampler decides
            other_draw = sample.resample_from_infostate(seat, sampler(seat + 100))
            different += other_draw.engine_state != resampled.engine_state
            for other in range(3):
                if other == seat:
                    continue
                # Other seats keep only the public past: no dealt hand, no drawn cards.
                text = resampled.information_state_string(other)
                assert json.loads(text.split("\n")[1])["hand"] is None
                for line in text.split("\n")[2:-1]:
                    for event in json.loads(line):
                        if event["type"] == "drew":
                            assert event["cards"] is None
            # The resampled world plays on to the end.
            for _ in random_walk(resampled, random.Random(seat)):
                pass
            assert resampled.is_terminal()
    assert changed > 20
    assert different > 20


def rebuilt(state: osp.CuBirdsState) -> osp.CuBirdsState:
    """``state`` played again from its deal: the same history, with nothing cached."""
    engine = state.engine_state
    game: osp.CuBirdsGame = state.get_game()
    fresh = game.state_from_engine(cr.new_game(engine.options, engine.seed))
    for action in state.history()[1:]:
        fresh.apply_action(action)
    assert fresh.engine_state == engine
    return fresh


def test_what_steps_and_records_cache_matches_a_fresh_computation() -> None:
    """Resampling and the information-state tensor reuse what earlier calls cached on the
    steps a state shares with its past and its clones; a state replayed from its deal,
    with nothing cached, gives the same results, and so does a branch off a clone."""
    players = 3
    game = load(players=players, rng_seed=8)
    rng = random.Random(8)
    checked = 0

    def check(state: osp.CuBirdsState, draw: int) -> None:
        fresh = rebuilt(state)
        for seat in range(players):
            assert knowledge(state, seat) == knowledge(fresh, seat)
            for _ in range(2):  # the second call hits the record's cache
                a = state.resample_from_infostate(seat, sampler(draw + seat))
                b = fresh.resample_from_infostate(seat, sampler(draw + seat))
                assert a.engine_state == b.engine_state
                assert all(knowledge(a, q) == knowledge(b, q) for q in range(players))
            # The resampled hands agree with what the seat learned, replayed by the engine.
            known = learned(state, seat)
            for other in range(players):
                hidden = tuple(
                    h - k
                    for h, k in zip(
                        a.engine_state.hands[other], a.engine_state.known_hands[other], strict=True
                    )
                )
                assert other == seat or known.allows(other, hidden)
            # A state resampled for one seat, resampled again for the next one.
            again = (seat + 1) % players
            c = a.resample_from_infostate(again, sampler(draw))
            d = b.resample_from_infostate(again, sampler(draw))
            assert c.engine_state == d.engine_state
            assert knowledge(c, again) == knowledge(d, again)

    for _ in range(2):
        state = dealt(game)
        for _ in random_walk(state, rng):
            if state.is_terminal() or rng.random() < 0.15:
                check(state, checked)
                checked += 1
                legal = state.legal_actions()
                if len(legal) > 1:  # a branch that shares every step so far
                    branch = state.clone()
                    branch.apply_action(legal[-1])
                    check(branch, checked)
    assert checked > 20


def test_resampling_the_chance_node_and_a_bad_sampler() -> None:
    game = load()
    state = game.new_initial_state()
    assert state.resample_from_infostate(0, sampler(1)).is_chance_node()
    with pytest.raises(ValueError, match="probability_sampler"):
        dealt(game).resample_from_infostate(0, lambda: 2.0)
    uniform = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    resampled = dealt(game).resample_from_infostate(1, uniform)
    assert resampled.information_state_string(1).count("\n") == 2


# --------------------------------------------------------------------------- serialization


def test_states_and_games_serialize_and_pickle() -> None:
    game = load(players=3, rng_seed=9, max_turns=200)
    state = sample_states(3, seed=9, count=1)[0]
    state = game.state_from_engine(state.engine_state)
    for action in state.legal_actions()[:1]:
        state.apply_action(action)
    copy = game.deserialize_state(state.serialize())
    assert str(copy) == str(state)
    assert copy.history() == state.history()
    assert knowledge(copy, 1) == knowledge(state, 1)
    unpickled = pickle.loads(pickle.dumps(state))
    assert isinstance(unpickled, osp.CuBirdsState)
    assert unpickled.engine_state == state.engine_state
    assert knowledge(unpickled, 2) == knowledge(state, 2)
    assert unpickled.get_game().max_turns == 200
    # A pickled game goes on with the same deals.
    dealt(game)
    game_copy = pickle.loads(pickle.dumps(game))
    assert dealt(game_copy).engine_state == dealt(game).engine_state


# --------------------------------------------------------------------------- ISMCTS


def test_openspiel_ismcts_bot_plays_a_few_moves() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = load(players=3, rng_seed=2)
    rng = np.random.RandomState(2)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=6, random_state=rng)
    state = dealt(game)
    for _ in range(4):  # ISMCTSBot asserts every resampled root has the same infostate
        action = int(bot.step(state))
        assert action in state.legal_actions()
        state.apply_action(action)
    greedy = cr.bots.GreedyBot(seed=1)
    seat = state.current_player()
    action = cr.action_id(greedy.choose(state.view(seat)))
    assert action in state.legal_actions()
