"""The review of a recorded game: shapes, invariants, determinism, secrecy, errors, JSON.

Short games and tiny budgets: what the figures mean (the average cost ranks the bots,
the winner's chance near the end) is measured by ``benchmarks/review_quality.py``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from typing import Any

import attrs
import pytest

pytest.importorskip("numba")

import numpy as np

import cuckoo_rules as cr
import cuckoo_rules.bots.review as review_module
from cuckoo_rules.batch import state_row
from cuckoo_rules.batch.search import Deals
from cuckoo_rules.bots import Bot, GreedyBot, RandomBot, play_game
from cuckoo_rules.bots.review import (
    DEFAULT_REVIEW_SIMULATIONS,
    MAX_REVIEW_SIMULATIONS,
    REVIEW_FORMAT,
    DecisionReview,
    GameReview,
    chart_determinizations,
    decode_review,
    encode_review,
    review,
)
from cuckoo_rules.errors import BotError, DecodeError, RecordError
from cuckoo_rules.events import Event, GameStarted, visible_events
from cuckoo_rules.knowledge import Knowledge, learn
from cuckoo_rules.records import GameRecord, Metadata, replay, replay_steps

SIMULATIONS = 8


def game_record(players: int, seed: int) -> GameRecord:
    """A finished game between a greedy bot and random bots (short, and costly moves)."""
    bots: list[Bot] = [GreedyBot(seed=seed)]
    bots += [RandomBot(seed=seed + k) for k in range(1, players)]
    return play_game(cr.GameOptions(num_players=players), seed, bots).record


@pytest.fixture(scope="module")
def record() -> GameRecord:
    return game_record(2, 3)


@pytest.fixture(scope="module")
def reviewed(record: GameRecord) -> GameReview:
    return review(record, simulations=SIMULATIONS, seed=5)


def test_the_shapes_and_invariants(record: GameRecord, reviewed: GameReview) -> None:
    states = list(replay(record))
    n = record.options.num_players
    assert reviewed.moves == len(record.actions)
    assert reviewed.seats == (0, 1)
    assert reviewed.players == record.metadata.players
    assert (reviewed.simulations, reviewed.seed, reviewed.options) == (
        SIMULATIONS,
        5,
        record.options,
    )
    assert len(reviewed.chances) == reviewed.moves + 1
    for chances in reviewed.chances:
        assert len(chances) == n
        assert all(0.0 <= chance <= 1.0 for chance in chances)
        assert math.isclose(sum(chances), 1.0, abs_tol=1e-9)
    final = states[-1]
    assert final.is_over
    assert reviewed.chances[-1] == tuple(
        1 / len(final.winners) if seat in final.winners else 0.0 for seat in range(n)
    )
    # Every position with a choice is a decision of the seat to act, in move order.
    choices = [k for k, s in enumerate(states[:-1]) if len(cr.legal_actions(s)) >= 2]
    assert [d.move for d in reviewed.decisions] == choices
    for decision in reviewed.decisions:
        state = states[decision.move]
        assert decision.seat == state.current_player
        assert decision.chosen == record.actions[decision.move]
        actions = [e.action for e in decision.estimates]
        assert sorted(map(cr.action_id, actions)) == sorted(
            map(cr.action_id, cr.legal_actions(state))
        )
        found = {e.action: e.win_chance for e in decision.estimates}
        assert decision.chosen_chance == found[decision.chosen]
        assert (decision.best, decision.best_chance) == (actions[0], found[actions[0]])
        assert decision.cost == max(0.0, decision.best_chance - decision.chosen_chance) >= 0.0
        assert all(0.0 <= e.win_chance <= 1.0 for e in decision.estimates)
        # Every action, the chosen one and the best one included, is measured alike.
        assert {e.simulations for e in decision.estimates} == {SIMULATIONS}
        means = [e.win_chance for e in decision.estimates]
        assert means == sorted(means, reverse=True)


def test_costliest_and_average_cost(reviewed: GameReview) -> None:
    for seat in reviewed.seats:
        own = [d for d in reviewed.decisions if d.seat == seat]
        top = reviewed.costliest(seat, 5)
        assert len(top) == min(5, len(own))
        assert [d.cost for d in top] == sorted((d.cost for d in own), reverse=True)[: len(top)]
        keys = [(-d.cost, d.move) for d in top]
        assert keys == sorted(keys)
        assert reviewed.average_cost(seat) == pytest.approx(sum(d.cost for d in own) / len(own))
    assert reviewed.costliest(0, 0) == ()
    with pytest.raises(BotError, match="seat"):
        reviewed.costliest(2)
    with pytest.raises(BotError, match="count"):
        reviewed.costliest(0, -1)
    with pytest.raises(BotError, match="seat"):
        reviewed.average_cost(-1)


def test_a_review_is_deterministic(record: GameRecord, reviewed: GameReview) -> None:
    assert review(record, simulations=SIMULATIONS, seed=5) == reviewed
    other = review(record, simulations=SIMULATIONS, seed=6)
    assert other.chances != reviewed.chances


def test_the_seats_filter_reviews_the_same_positions(
    record: GameRecord, reviewed: GameReview
) -> None:
    # Each position is seeded from (seed, move): a subset of seats gives the same judgements.
    one = review(record, simulations=SIMULATIONS, seed=5, seats=[1, 1])
    assert one.seats == (1,)
    assert one.decisions == tuple(d for d in reviewed.decisions if d.seat == 1)
    assert one.chances == reviewed.chances
    assert one.average_cost(0) == 0.0
    none = review(record, simulations=SIMULATIONS, seed=5, seats=())
    assert none.decisions == ()
    assert none.seats == ()


def test_progress_is_reported_after_each_position(record: GameRecord) -> None:
    calls: list[tuple[int, int]] = []
    review(record, simulations=8, progress=lambda done, total: calls.append((done, total)))
    total = len(record.actions) + 1
    assert calls == [(done, total) for done in range(1, total + 1)]


def test_names_and_unfinished_games() -> None:
    full = game_record(3, 8)
    names = Metadata(players=("Ann", "Bob", "Cy"))
    record = attrs.evolve(full, actions=full.actions[:12], metadata=names)
    result = review(record, simulations=8)
    assert result.players == ("Ann", "Bob", "Cy")
    assert result.moves == 12
    assert len(result.chances) == 13
    assert all(len(c) == 3 and math.isclose(sum(c), 1.0) for c in result.chances)
    empty = review(GameRecord(cr.GameOptions(num_players=2), seed=4), simulations=8)
    assert empty.players == ("P0", "P1")
    assert (empty.moves, len(empty.chances), empty.decisions) == (0, 1, ())


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"simulations": 0}, "simulations"),
        ({"simulations": -3}, "simulations"),
        ({"simulations": True}, "simulations"),
        ({"simulations": 2.0}, "simulations"),
        ({"simulations": MAX_REVIEW_SIMULATIONS + 1}, "simulations"),
        ({"seats": [2]}, "seats"),
        ({"seats": [-1]}, "seats"),
        ({"seats": ["0"]}, "seats"),
        ({"seats": "01"}, "seats"),
        ({"seats": 1}, "seats"),
        ({"seed": -1}, "seed"),
        ({"seed": 2**64}, "seed"),
        ({"seed": "1"}, "seed"),
        ({"progress": "print"}, "progress"),
    ],
)
def test_bad_arguments_are_bot_errors(
    record: GameRecord, arguments: dict[str, object], message: str
) -> None:
    with pytest.raises(BotError, match=message):
        review(record, **arguments)  # type: ignore[arg-type]


def test_a_bad_record() -> None:
    with pytest.raises(BotError, match="record"):
        review({"actions": []}, simulations=8)  # type: ignore[arg-type]
    illegal = GameRecord(cr.GameOptions(num_players=2), seed=1, actions=(cr.Draw(),))
    with pytest.raises(RecordError, match=r"actions\[0\]"):
        review(illegal, simulations=8)


# --------------------------------------------------------------------------- secrecy


def resampled_game(record: GameRecord, seat: int) -> list[tuple[cr.GameState, tuple[Event, ...]]]:
    """The record's states and events with every card ``seat`` cannot see dealt anew.

    Each state is :func:`~cuckoo_rules.determinize` of ``seat``'s view with what its
    history proves; the events stay. ``seat`` (and a spectator) saw exactly the same
    views and events; the other hands and the draw pile differ.
    """
    n = record.options.num_players
    steps = list(replay_steps(record))
    known = learn(Knowledge.start(n), visible_events((GameStarted.of(steps[0][0]),), seat), seat)
    resampled = []
    for k, (state, events) in enumerate(steps):
        known = learn(known, visible_events(events, seat), seat)
        other = cr.determinize(cr.observe(state, seat), seed=1000 + k, knowledge=known)
        resampled.append((other, events))
    return resampled


def test_a_decision_review_never_reads_hidden_cards(
    record: GameRecord, reviewed: GameReview, monkeypatch: pytest.MonkeyPatch
) -> None:
    seat = 0
    steps = resampled_game(record, seat)
    truth = list(replay_steps(record))
    for (state, _), (true_state, _) in zip(steps, truth, strict=True):
        assert cr.observe(state, seat) == cr.observe(true_state, seat)
    differ = [
        s.hands[1] != t.hands[1] or s.draw_pile != t.draw_pile
        for (s, _), (t, _) in zip(steps, truth, strict=True)
    ]
    assert sum(differ) > len(differ) // 2

    def fake_replay_steps(given: GameRecord) -> Iterator[tuple[cr.GameState, tuple[Event, ...]]]:
        assert given is record
        return iter(steps)

    monkeypatch.setattr(review_module, "replay_steps", fake_replay_steps)
    resampled = review(record, simulations=SIMULATIONS, seed=5, seats=[seat])
    assert resampled.decisions == tuple(d for d in reviewed.decisions if d.seat == seat)
    assert resampled.chances == reviewed.chances  # a spectator saw the same game too


# --------------------------------------------------------------------------- JSON


def test_the_document_round_trips(reviewed: GameReview) -> None:
    document = encode_review(reviewed)
    assert list(document)[:3] == ["format", "version", "options"]
    assert document["format"] == REVIEW_FORMAT
    assert decode_review(json.loads(json.dumps(document))) == reviewed
    first = document["decisions"][0]
    assert set(first) == {f.name for f in attrs.fields(DecisionReview)}
    assert first["chosen"] == cr.encode_action(reviewed.decisions[0].chosen)
    with pytest.raises(BotError):
        encode_review(document)  # type: ignore[arg-type]


def bad(document: dict[str, object], path: str, value: object) -> dict[str, object]:
    """A copy of ``document`` with the value at ``path`` (dotted, with indices) replaced."""
    copy: dict[str, object] = json.loads(json.dumps(document))
    *parents, last = path.split(".")
    target: Any = copy
    for key in parents:
        target = target[int(key)] if isinstance(target, list) else target[key]
    if isinstance(target, list):
        target[int(last)] = value
    elif value is ...:
        del target[last]
    else:
        target[last] = value
    return copy


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("format", "cuckoo-rules/record", "format"),
        ("version", 2, "version"),
        ("version", True, "version"),
        ("seed", ..., "missing key 'seed'"),
        ("players", ["a"], "players"),
        ("seats", [1, 0], "seats"),
        ("simulations", 0, "simulations"),
        ("moves", 3, "chances"),
        ("chances.0", [0.5], r"chances\[0\]"),
        ("chances.0.1", 1.5, r"chances\[0\]\[1\]"),
        ("chances.0.1", "0.5", r"chances\[0\]\[1\]"),
        ("decisions.0.cost", -0.1, r"decisions\[0\]\.cost"),
        ("decisions.0.seat", 7, r"decisions\[0\]\.seat"),
        ("decisions.0.estimates", [], r"decisions\[0\]\.estimates"),
        ("decisions.0.chosen", {"type": "pass"}, r"decisions\[0\]"),
        ("decisions.0.estimates.0.simulations", -1, "simulations"),
    ],
)
def test_bad_documents_are_decode_errors(
    reviewed: GameReview, path: str, value: object, message: str
) -> None:
    with pytest.raises(DecodeError, match=message):
        decode_review(bad(encode_review(reviewed), path, value))
    with pytest.raises(DecodeError, match="review"):
        decode_review([])


def test_the_budget_constants() -> None:
    assert DEFAULT_REVIEW_SIMULATIONS >= 100
    assert chart_determinizations(1) == 1
    assert chart_determinizations(10**9) == chart_determinizations(10**6)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_chart_deals_as_determinize_does(players: int) -> None:
    # The chart deals a spectator's view in the kernels: the same states as determinize.
    record = game_record(players, 40 + players)
    n = record.options.num_players
    steps = list(replay_steps(record))
    known = learn(Knowledge.start(n), visible_events((GameStarted.of(steps[0][0]),), None), None)
    seeds = np.array([3, 99, 2**63 + 5], dtype=np.uint64)
    for k, (state, events) in enumerate(steps[:-1]):
        known = learn(known, visible_events(events, None), None)
        if k % 3:
            continue
        view = cr.observe(state, None)
        rows = Deals(view, known).rows(seeds)
        for row, seed in zip(rows, seeds, strict=True):
            dealt = cr.determinize(view, int(seed), knowledge=known, max_draws=32)
            assert (row == state_row(dealt)).all()


def test_the_names_are_exported_from_bots() -> None:
    import cuckoo_rules.bots as bots

    for name in ("GameReview", "DecisionReview", "encode_review", "decode_review"):
        assert getattr(bots, name) is getattr(review_module, name)
        assert name in bots.__all__
    with pytest.raises(AttributeError):
        bots.no_such_name  # noqa: B018


@pytest.mark.slow
def test_a_four_player_game() -> None:
    record = game_record(4, 21)
    result = review(record, simulations=24)
    assert len(result.chances) == result.moves + 1
    assert all(math.isclose(sum(c), 1.0) for c in result.chances)
    assert {d.seat for d in result.decisions} == {0, 1, 2, 3}
    # The greedy seat loses less per decision than the random ones.
    assert result.average_cost(0) < min(result.average_cost(s) for s in (1, 2, 3))
