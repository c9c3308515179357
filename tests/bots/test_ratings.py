"""Elo ratings from games: the fit, its anchor and intervals, and the ladder benchmark."""

from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import cuckoo_rules as cr
from cuckoo_rules.bots import BotError, run_tournament
from cuckoo_rules.bots.ratings import (
    INTERVAL_METHODS,
    RATING_MODELS,
    PairResult,
    RatedGame,
    Rating,
    RatingModel,
    fit_elo,
    pairwise_results,
    rated_games,
)
from tests.conftest import ROOT, load_module


def elo_gap(strength_ratio: float) -> float:
    return 400.0 * math.log10(strength_ratio)


def by_label(ratings: Sequence[Rating]) -> dict[str, Rating]:
    return {rating.label: rating for rating in ratings}


def rotated(labels: tuple[str, ...], shift: int) -> tuple[str, ...]:
    shift %= len(labels)
    return labels[shift:] + labels[:shift]


def exact_pair_games(first: str, second: str, wins: int, games: int) -> list[RatedGame]:
    """``games`` games of two, seats alternating, ``first`` winning exactly ``wins``."""
    played = []
    for number in range(games):
        seats = (first, second) if number % 2 == 0 else (second, first)
        winner = first if number < wins else second
        played.append(RatedGame(seats, (seats.index(winner),)))
    return played


def sampled_games(strengths: dict[str, float], games: int, seed: int) -> list[RatedGame]:
    """Games of all the labels at one table, the winner drawn in proportion to strength."""
    rng = random.Random(seed)
    labels = tuple(strengths)
    played = []
    for number in range(games):
        seats = rotated(labels, number)
        (winner,) = rng.choices(range(len(seats)), [strengths[label] for label in seats])
        played.append(RatedGame(seats, (winner,)))
    return played


# The fit


def test_two_player_fit_recovers_the_strengths_of_exact_results() -> None:
    # a:b = 3:1, b:c = 3:1, a:c = 9:1 are consistent Bradley-Terry strengths 9, 3, 1.
    games = (
        exact_pair_games("a", "b", 300, 400)
        + exact_pair_games("b", "c", 300, 400)
        + exact_pair_games("a", "c", 360, 400)
    )
    ratings = fit_elo(games, anchor="c", anchor_elo=0.0, bootstrap=0)
    assert [rating.label for rating in ratings] == ["a", "b", "c"]
    elos = {rating.label: rating.elo for rating in ratings}
    assert elos["c"] == 0.0
    # The prior (one virtual draw each) pulls by well under a game's worth.
    assert elos["b"] == pytest.approx(elo_gap(3), abs=2.0)
    assert elos["a"] == pytest.approx(elo_gap(9), abs=4.0)
    assert all(rating.games == 800 for rating in ratings)


def test_table_fit_recovers_the_strengths_of_exact_results() -> None:
    # At one table of four, strengths 1:2:3:4 win 10%, 20%, 30%, 40% of the games.
    labels = ("w", "x", "y", "z")
    wins = {"w": 40, "x": 80, "y": 120, "z": 160}
    games = []
    for number, winner in enumerate(label for label in labels for _ in range(wins[label])):
        seats = rotated(labels, number)
        games.append(RatedGame(seats, (seats.index(winner),)))
    ratings = by_label(fit_elo(games, anchor="w", anchor_elo=0.0, bootstrap=0))
    for label, ratio in (("x", 2), ("y", 3), ("z", 4)):
        assert ratings[label].elo == pytest.approx(elo_gap(ratio), abs=3.0)


def test_fit_of_sampled_games_is_close_and_its_intervals_cover_the_truth() -> None:
    truth = {"a": 0.0, "b": 200.0, "c": 400.0}
    strengths = {label: 10 ** (elo / 400) for label, elo in truth.items()}
    ratings = by_label(
        fit_elo(sampled_games(strengths, 600, seed=3), anchor="a", anchor_elo=0.0, bootstrap=60)
    )
    for label, elo in truth.items():
        rating = ratings[label]
        assert rating.low <= rating.elo <= rating.high
        assert rating.low - 1e-9 <= elo <= rating.high + 1e-9
        assert abs(rating.elo - elo) < 80
    assert ratings["b"].high - ratings["b"].low > 20  # a real interval, not a point


def test_ratings_are_sorted_best_first_with_ties_in_order_of_appearance() -> None:
    games = [RatedGame(("p", "q", "r"), (0, 1))] * 4 + [RatedGame(("r", "q", "p"), (0,))]
    ratings = fit_elo(games, bootstrap=0)
    assert [rating.label for rating in ratings] == ["p", "q", "r"]
    assert ratings[0].elo == ratings[1].elo > ratings[2].elo
    draws = [RatedGame(("m", "n"), (0, 1))] * 3
    assert [rating.label for rating in fit_elo(draws, bootstrap=0)] == ["m", "n"]


def test_a_bot_that_won_every_game_gets_a_finite_rating() -> None:
    games = exact_pair_games("strong", "weak", 40, 40)
    ratings = by_label(fit_elo(games, anchor="weak", anchor_elo=0.0, bootstrap=10))
    assert math.isfinite(ratings["strong"].elo)
    # 40 wins out of 40 plus half a virtual win and half a virtual loss each.
    assert 500 < ratings["strong"].elo < 1500


# The anchor, the intervals, the seed


def test_the_anchor_holds_its_value_and_only_shifts_the_ratings() -> None:
    games = sampled_games({"a": 1.0, "b": 2.0, "c": 4.0}, 120, seed=1)
    first = by_label(fit_elo(games, anchor="b", anchor_elo=1500.0, bootstrap=30, seed=2))
    assert first["b"] == Rating("b", 1500.0, 1500.0, 1500.0, 120)
    second = by_label(fit_elo(games, anchor="a", anchor_elo=0.0, bootstrap=0))
    assert second["a"].elo == 0.0
    shift = first["a"].elo - second["a"].elo
    for label in "abc":
        assert first[label].elo - second[label].elo == pytest.approx(shift, abs=1e-6)


def test_the_default_anchor_is_the_first_label_at_1000() -> None:
    games = sampled_games({"late": 1.0, "early": 3.0}, 20, seed=4)
    assert games[0].labels[0] == "late"
    assert by_label(fit_elo(games, bootstrap=0))["late"].elo == 1000.0


def test_the_same_seed_gives_the_same_ratings() -> None:
    games = sampled_games({"a": 1.0, "b": 2.0, "c": 3.0, "d": 5.0}, 80, seed=9)
    first = fit_elo(games, bootstrap=40, seed=7)
    assert fit_elo(tuple(games), bootstrap=40, seed=7) == first
    other = fit_elo(games, bootstrap=40, seed=8)
    assert [r.elo for r in other] == [r.elo for r in first]
    assert [(r.low, r.high) for r in other] != [(r.low, r.high) for r in first]


def test_without_bootstrap_the_interval_is_the_estimate() -> None:
    games = sampled_games({"a": 1.0, "b": 2.0}, 20, seed=5)
    for rating in fit_elo(games, bootstrap=0):
        assert rating.low == rating.elo == rating.high


def a_mixed_and_a_unanimous_line_up() -> list[RatedGame]:
    """a and b share their games; c lost all of its 40 games to b."""
    return sampled_games({"a": 1.0, "b": 1.0}, 40, seed=2) + exact_pair_games("b", "c", 40, 40)


def test_a_bot_that_lost_every_game_gets_an_interval_towards_its_opponents() -> None:
    ratings = by_label(fit_elo(a_mixed_and_a_unanimous_line_up(), anchor="b", bootstrap=50))
    c = ratings["c"]
    # Played again from the fitted strengths, c wins a few games in some replicates.
    assert c.high - c.low > 100
    assert c.low - 1e-9 <= c.elo <= c.high
    assert c.high < ratings["b"].elo  # still below the bot it lost every game to
    # The games put no bound below c: its low end stays near its estimate, set by the
    # prior (and moved only by the prior's pull, which depends on a's rating).
    assert c.elo - c.low < 0.05 * (c.high - c.low)
    # The same holds for a bot that won every game, the other way round.
    won = by_label(fit_elo(exact_pair_games("strong", "weak", 30, 30), anchor="weak"))
    strong = won["strong"]
    assert strong.high - strong.low > 100
    assert strong.low <= strong.elo <= strong.high + 1e-9
    assert strong.low > won["weak"].elo


def test_resampled_games_keep_each_line_up_and_its_number_of_games() -> None:
    # Only a-b games are mixed; b-c is unanimous in every resample, so is c's gap to b.
    games = a_mixed_and_a_unanimous_line_up()
    ratings = by_label(fit_elo(games, anchor="b", bootstrap=50, interval="games"))
    assert ratings["a"].high - ratings["a"].low > 50
    # c's gap to b moves only through the prior's pull, which depends on a's rating.
    assert ratings["c"].high - ratings["c"].low < 0.2 * (ratings["a"].high - ratings["a"].low)


@pytest.mark.parametrize("wins", [200, 360])
def test_the_games_played_again_give_the_width_of_the_binomial_error(wins: int) -> None:
    # 400 games of two won with chance p: the fitted log-odds has a standard error of
    # 1 / sqrt(400 p (1 - p)), so the 95% interval is about 2 * 1.96 of it wide.
    p = wins / 400
    expected = 2 * 1.96 * 400 / math.log(10) / math.sqrt(400 * p * (1 - p))
    games = exact_pair_games("a", "b", wins, 400)
    a = by_label(fit_elo(games, anchor="b", bootstrap=200, seed=1))["a"]
    assert 0.8 * expected < a.high - a.low < 1.25 * expected
    assert a.low < a.elo < a.high


def test_drawn_games_are_played_again_with_one_winner() -> None:
    # Resampled, games that were all drawn stay drawn; played again, they are won.
    draws = [RatedGame(("a", "b"), (0, 1))] * 20
    resampled = by_label(fit_elo(draws, anchor="a", bootstrap=30, interval="games"))["b"]
    assert resampled.low == resampled.elo == resampled.high == 1000.0
    played = by_label(fit_elo(draws, anchor="a", bootstrap=30))["b"]
    assert played.elo == 1000.0
    assert played.low < 1000.0 - 50 < 1000.0 + 50 < played.high


@pytest.mark.parametrize("model", RATING_MODELS)
def test_the_intervals_of_a_table_hold_their_estimates(model: RatingModel) -> None:
    # Each model is played again from its own account of a game, so its refits centre on
    # its estimates (for the pairwise model, the pairs are independent games of two).
    table = sampled_games({"a": 1.0, "b": 2.0, "c": 4.0, "d": 8.0}, 200, seed=1)
    ratings = fit_elo(table, anchor="a", bootstrap=40, model=model)
    for rating in ratings:
        assert rating.low - 1e-9 <= rating.elo <= rating.high + 1e-9
        if rating.label != "a":
            assert rating.high - rating.low > 40


# Shared victories and the pairwise model


def test_pairwise_results_beat_the_losers_and_draw_the_rest() -> None:
    game = RatedGame(("a", "b", "c", "d"), (1, 3))
    assert pairwise_results([game]) == (
        PairResult("a", "b", 0.0),
        PairResult("a", "c", 0.5),
        PairResult("a", "d", 0.0),
        PairResult("b", "c", 1.0),
        PairResult("b", "d", 0.5),
        PairResult("c", "d", 0.0),
    )
    assert len(pairwise_results([RatedGame(("a", "b", "c"), (0,))] * 2)) == 6


def test_a_shared_victory_counts_as_a_share_of_a_victory_to_each() -> None:
    shared = [RatedGame(("a", "b", "c", "d"), (0, 1))] * 2
    split = [RatedGame(("a", "b", "c", "d"), (0,)), RatedGame(("a", "b", "c", "d"), (1,))]
    context = sampled_games({"a": 1.0, "b": 2.0, "c": 3.0, "d": 4.0}, 40, seed=6)
    with_shared = fit_elo(context + shared, bootstrap=0)
    with_split = fit_elo(context + split, bootstrap=0)
    assert [r.label for r in with_shared] == [r.label for r in with_split]
    for one, other in zip(with_shared, with_split, strict=True):
        assert one.elo == pytest.approx(other.elo, abs=1e-6)
    # With two players, a shared victory is a draw: equal ratings.
    draws = [RatedGame(("a", "b"), (0, 1))] * 5
    assert {r.elo for r in fit_elo(draws, bootstrap=0)} == {1000.0}


def test_the_two_models_agree_for_two_players_and_differ_at_a_table() -> None:
    pairs = sampled_games({"a": 1.0, "b": 3.0}, 50, seed=1)
    assert fit_elo(pairs, bootstrap=0) == fit_elo(pairs, bootstrap=0, model="pairwise")
    # With one pair per game, both models play the games again alike.
    for interval in INTERVAL_METHODS:
        chosen = fit_elo(pairs, bootstrap=20, interval=interval)
        assert chosen == fit_elo(pairs, bootstrap=20, model="pairwise", interval=interval)
        assert chosen[0].high > chosen[0].low
    table = sampled_games({"a": 1.0, "b": 2.0, "c": 4.0, "d": 8.0}, 200, seed=1)
    luce = by_label(fit_elo(table, anchor="a", bootstrap=0))
    pairwise = by_label(fit_elo(table, anchor="a", bootstrap=0, model="pairwise"))
    # The losers' draws pull the pairwise ratings together.
    assert 0 < pairwise["d"].elo - 1000 < luce["d"].elo - 1000


# Tournaments


def test_rated_games_of_a_tournament_keep_the_labels_and_winners() -> None:
    options = cr.GameOptions(num_players=2)
    result = run_tournament(options, ["random", "greedy"], 4, seed=1)
    games = rated_games(result)
    assert [game.labels for game in games] == [("random", "greedy"), ("greedy", "random")] * 2
    assert [game.winners for game in games] == [game.winners for game in result.games]
    ratings = fit_elo(games, anchor="random", anchor_elo=0.0, bootstrap=20)
    assert ratings[0].label == "greedy"  # greedy wins nearly every game against random
    assert ratings[0].elo > 200
    assert {rating.games for rating in ratings} == {4}
    repeated = run_tournament(options, ["greedy", "greedy"], 2, seed=1)
    assert {label for game in rated_games(repeated) for label in game.labels} == {
        "greedy#1",
        "greedy#2",
    }


# Bad input


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: fit_elo([]), "no games to rate"),
        (lambda: fit_elo("ab"), "expected a sequence of RatedGame"),  # type: ignore[arg-type]
        (lambda: fit_elo([RatedGame(("a", "b"), (0,))], anchor="c"), "'c' played none"),
        (lambda: fit_elo([RatedGame(("a", "b"), (0,))], bootstrap=-1), "bootstrap: -1"),
        (lambda: fit_elo([RatedGame(("a", "b"), (0,))], bootstrap=2.5), "bootstrap: 2.5"),  # type: ignore[arg-type]
        (lambda: fit_elo([RatedGame(("a", "b"), (0,))], seed=1.0), "seed: 1.0"),  # type: ignore[arg-type]
        (lambda: fit_elo([RatedGame(("a", "b"), (0,))], anchor_elo=math.nan), "not finite"),
        (lambda: fit_elo([RatedGame(("a", "b"), (0,))], model="elo"), "model: 'elo'"),  # type: ignore[arg-type]
        (
            lambda: fit_elo([RatedGame(("a", "b"), (0,))], interval="draws"),  # type: ignore[arg-type]
            "interval: 'draws' is not one of model, games",
        ),
        (
            lambda: fit_elo([RatedGame(("a", "b"), (0,)), RatedGame(("c", "d"), (0,))]),
            "do not all meet .*: a, b \\| c, d",
        ),
        (lambda: RatedGame(("a",), (0,)), "two or more strings"),
        (lambda: RatedGame("ab", (0,)), "two or more strings"),
        (lambda: RatedGame(("a", "a"), (0,)), "names a bot twice"),
        (lambda: RatedGame(("a", "b"), ()), "one or more different seats"),
        (lambda: RatedGame(("a", "b"), (2,)), "one or more different seats"),
        (lambda: RatedGame(("a", "b"), (0, 0)), "one or more different seats"),
        (lambda: RatedGame(("a", "b"), 0), "sequence of seats"),
        (lambda: rated_games("result"), "expected TournamentResult"),  # type: ignore[arg-type]
    ],
)
def test_bad_input_raises_a_bot_error_that_says_what_is_wrong(call: object, message: str) -> None:
    assert callable(call)
    with pytest.raises(BotError, match=message) as caught:
        call()
    assert isinstance(caught.value, ValueError)


def test_tournament_games_need_their_labels_first() -> None:
    result = run_tournament(cr.GameOptions(num_players=2), ["random", "greedy"], 2, seed=1)
    with pytest.raises(BotError, match=r"expected RatedGame, got TournamentGame.*rated_games"):
        fit_elo(result.games)  # type: ignore[arg-type]


# The ladder benchmark


@pytest.fixture(scope="module")
def ladder_script() -> ModuleType:
    return load_module(ROOT / "benchmarks" / "ladder.py", "ladder_benchmark")


def run_ladder(script: ModuleType, tmp_path: Path, *extra: str) -> dict[str, Any]:
    out = tmp_path / "ladder.json"
    argv = ["--bots", "random,greedy", "--players", "2", "--games", "2", "--out", str(out)]
    assert script.main([*argv, "--bootstrap", "10", *extra]) == 0
    document: dict[str, Any] = json.loads(out.read_text())
    return document


def test_the_ladder_writes_its_ratings_and_machine(
    ladder_script: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = run_ladder(ladder_script, tmp_path, "--no-plot")
    assert document["bots"] == ["random", "greedy"]
    assert document["anchor"] == "greedy"
    assert document["anchor_elo"] == 1000.0
    assert document["games_per_lineup"] == 2
    assert document["interval"] == "model"
    assert {"cpu", "cpu_count", "python", "platform"} <= set(document["machine"])
    (ladder,) = document["ladders"]
    assert ladder["players"] == 2
    (lineup,) = ladder["lineups"]
    assert lineup["bots"] == ["random", "greedy"]
    assert lineup["games"] == 2
    assert lineup["seed"] == cr.bots.derive_seed(1, 2, 0, 1)
    assert len(lineup["outcomes"]) == 2
    ratings = {rating["label"]: rating for rating in ladder["ratings"]}
    assert set(ratings) == {"random", "greedy"}
    assert ratings["greedy"]["elo"] == 1000.0
    for rating in ratings.values():
        assert set(rating) == {
            "label",
            "elo",
            "interval95",
            "games",
            "victories",
            "decisions",
            "seconds_per_decision",
        }
        assert rating["games"] == 2
        assert rating["decisions"] > 0
        assert rating["seconds_per_decision"] >= 0
        low, high = rating["interval95"]
        assert low <= rating["elo"] <= high
    printed = capsys.readouterr().out
    assert "2 players" in printed
    assert "greedy" in printed
    assert not (tmp_path / "ladder.png").exists()


@pytest.mark.parametrize("interval", ["model", "games"])
def test_the_ladder_notes_a_bot_that_lost_every_game(
    ladder_script: ModuleType, interval: str
) -> None:
    args = ladder_script.parse_args(
        ["--bots", "random,greedy", "--players", "2", "--interval", interval]
    )
    ratings = [
        {"label": "greedy", "elo": 1000.0, "interval95": [1000.0, 1000.0], "victories": 1.5},
        {"label": "random", "elo": 700.0, "interval95": [700.0, 900.0], "victories": 0.0},
    ]
    ladder = {
        "players": 2,
        "lineups": [{}],
        "ratings": [{**rating, "games": 3, "seconds_per_decision": 0.0} for rating in ratings],
    }
    text = ladder_script.table(ladder, args)
    assert f"intervals from games {'played again' if interval == 'model' else 'resampled'}" in text
    assert "700-900" in text
    (note,) = [line for line in text.splitlines() if "note:" in line]
    assert "random lost every game" in note
    assert "how far below, and the low end of its interval, rest on the prior" in note
    assert ("too narrow" in note) == (interval == "games")


def test_the_ladder_draws_its_plot(ladder_script: ModuleType, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    plot = tmp_path / "assets" / "ladder.png"
    run_ladder(ladder_script, tmp_path, "--plot", str(plot))
    assert plot.read_bytes().startswith(b"\x89PNG")


FOUR = ["--bots", "random,greedy,ismcts,ismcts:iterations=10"]


@pytest.mark.parametrize(
    "argv",
    [
        [*FOUR, "--games", "6"],  # not a multiple of 4
        ["--bots", "random,greedy"],  # no table of 4
        ["--bots", "random,random,greedy,greedy"],
        [*FOUR, "--anchor", "nobody"],
        [*FOUR, "--players", "2,x"],
        [*FOUR, "--players", "2,6"],
        ["--bots", "greedy:depth=2"],
        [*FOUR, "--games", "0"],
    ],
)
def test_the_ladder_refuses_bad_arguments(
    ladder_script: ModuleType, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as caught:
        ladder_script.parse_args(argv)
    assert caught.value.code == 2
    assert "error:" in capsys.readouterr().err
