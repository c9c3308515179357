"""Tests of the tournament runner and of the ``cuckoo-rules tournament`` command."""

from __future__ import annotations

import json
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import cuckoo_rules as cr
from cuckoo_rules import bots
from cuckoo_rules.cli import main

TWO = cr.GameOptions(num_players=2)
FAST = ["greedy", "random"]


def outcome(result: cr.bots.TournamentResult) -> list[tuple[int, int, tuple[int, ...], int, int]]:
    """What must not depend on how the games were run (everything but the timings)."""
    return [(g.index, g.seed, g.winners, g.turns, g.rounds) for g in result.games]


# --------------------------------------------------------------------------- seats and seeds


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_entrant_sits_in_every_seat_equally(players: int) -> None:
    games = 4 * players
    seats = Counter(
        (seat, entrant)
        for g in range(games)
        for seat, entrant in enumerate(bots.seating(g, players))
    )
    assert set(seats.values()) == {4}
    assert len(seats) == players * players
    for g in range(games):
        assert sorted(bots.seating(g, players)) == list(range(players))


def test_games_of_a_set_share_their_deal_and_rotate_the_seats() -> None:
    result = cr.bots.run_tournament(
        cr.GameOptions(num_players=3), ["greedy", "random", "random"], 6, 5
    )
    deals = [game.seed for game in result.games]
    assert deals[0] == deals[1] == deals[2] != deals[3] == deals[4] == deals[5]
    assert [game.seating for game in result.games[:3]] == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    for entrant in result.entrants:
        assert entrant.games == 6


def test_each_game_is_reproducible_from_options_seed_and_index() -> None:
    result = cr.bots.run_tournament(TWO, FAST, 8, seed=42)
    for index in (0, 3, 7):
        played = cr.bots.play_tournament_game(TWO, FAST, 42, index)
        game = result.games[index]
        assert (played.record.seed, played.winners, played.turns, played.rounds) == (
            game.seed,
            game.winners,
            game.turns,
            game.rounds,
        )
        assert played == cr.bots.play_tournament_game(TWO, FAST, 42, index)
        names = played.record.metadata.players
        assert names is not None
        assert [FAST[e] for e in bots.seating(index, 2)] == list(names)
        assert cr.records.check_record(played.record).winners == game.winners
    assert outcome(cr.bots.run_tournament(TWO, FAST, 8, seed=42)) == outcome(result)
    assert outcome(cr.bots.run_tournament(TWO, FAST, 8, seed=43)) != outcome(result)


def test_derived_seeds_are_distinct_and_in_range() -> None:
    seeds = {
        bots.derive_seed(s, k, g) for s in (0, 1, 2**64 - 1) for k in (0, 1) for g in range(50)
    }
    assert len(seeds) == 300
    assert all(0 <= seed < 2**64 for seed in seeds)


# --------------------------------------------------------------------------- accounting


def test_shared_victories_count_one_kth_to_each_winner() -> None:
    game = cr.bots.TournamentGame(0, 1, (2, 0, 1), (0, 2), 10, 1, (5, 5, 5), (0.0, 0.0, 0.0))
    assert game.shares() == {2: 0.5, 1: 0.5}


def test_win_rates_add_up_with_shared_victories() -> None:
    # Four random players share a victory now and then when the cards run out.
    four = cr.GameOptions(num_players=4)
    result = cr.bots.run_tournament(four, ["random"] * 4, 24, seed=1)
    shared = [game for game in result.games if len(game.winners) > 1]
    assert shared, "expected a shared victory among these games"
    expected = [0.0] * 4
    for game in result.games:
        for seat in game.winners:
            expected[game.seating[seat]] += 1 / len(game.winners)
    assert [e.victories for e in result.entrants] == pytest.approx(expected)
    assert sum(e.win_rate for e in result.entrants) == pytest.approx(1.0)
    assert [e.label for e in result.entrants] == [f"random#{k}" for k in range(1, 5)]
    for entrant in result.entrants:
        assert entrant.interval == bots.wilson_interval(entrant.victories, 24)


def test_wilson_interval() -> None:
    assert bots.wilson_interval(0, 0) == (0.0, 1.0)
    low, high = bots.wilson_interval(0, 10)
    assert low == 0.0
    assert 0.27 < high < 0.28
    low, high = bots.wilson_interval(50, 100)
    assert low == pytest.approx(1 - high)


def test_labels_of_repeated_specs() -> None:
    assert bots.entrant_labels(["greedy", "random"]) == ("greedy", "random")
    assert bots.entrant_labels(["ismcts", "greedy", "greedy", "greedy"]) == (
        "ismcts",
        "greedy#1",
        "greedy#2",
        "greedy#3",
    )


def test_the_json_document() -> None:
    result = cr.bots.run_tournament(TWO, ["greedy", "random"], 4, seed=1)
    doc = json.loads(json.dumps(result.to_json()))
    assert doc["players"] == 2
    assert doc["games"] == 4
    assert doc["bots"] == ["greedy", "random"]
    assert set(doc["win_rate"]) == {"greedy", "random"}
    assert sum(doc["win_rate"].values()) == pytest.approx(1.0)
    assert doc["options"] == TWO.to_json()
    assert doc["mean_turns"] == result.mean_turns


# --------------------------------------------------------------------------- executors


def test_a_thread_pool_gives_the_same_results() -> None:
    done: list[tuple[int, int]] = []
    with ThreadPoolExecutor(max_workers=2) as pool:
        threaded = cr.bots.run_tournament(
            TWO,
            FAST,
            12,
            seed=9,
            executor=pool,
            chunk_size=2,
            progress=lambda d, t: done.append((d, t)),
        )
    assert outcome(threaded) == outcome(cr.bots.run_tournament(TWO, FAST, 12, seed=9))
    assert done[-1] == (12, 12)
    assert [d for d, _ in done] == sorted(d for d, _ in done)


def test_worker_processes_give_the_same_results() -> None:
    spec = ["ismcts:iterations=5", "greedy"]
    parallel = cr.bots.run_tournament(TWO, spec, 4, seed=2, workers=2)
    assert outcome(parallel) == outcome(cr.bots.run_tournament(TWO, spec, 4, seed=2))


def test_a_dask_executor_gives_the_same_results() -> None:
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        result = cr.bots.run_tournament(TWO, FAST, 6, seed=4, executor=client.get_executor())
    assert outcome(result) == outcome(cr.bots.run_tournament(TWO, FAST, 6, seed=4))


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("bots_", "games", "seed", "workers", "message"),
    [
        (["greedy"], 2, 0, 1, "expected 2 bots"),
        ("greedy,random", 2, 0, 1, "got a string"),
        (["greedy", "chess"], 2, 0, 1, "unknown bot 'chess'"),
        (FAST, 3, 0, 1, "not a positive multiple of 2"),
        (FAST, 0, 0, 1, "not a positive multiple of 2"),
        (FAST, 2, -1, 1, "seed: -1"),
        (FAST, 2, 0, 0, "workers: 0"),
    ],
)
def test_bad_tournaments_are_rejected(
    bots_: list[str], games: int, seed: int, workers: int, message: str
) -> None:
    with pytest.raises(cr.bots.BotError, match=message):
        cr.bots.run_tournament(TWO, bots_, games, seed, workers=workers)


# --------------------------------------------------------------------------- command line


def test_the_command_prints_a_table_and_writes_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "results.json"
    argv = ["tournament", "--players", "2", "--bots", "greedy,random", "--games", "6"]
    assert main([*argv, "--workers", "2", "--seed", "1", "--json", str(path)]) == 0
    out = capsys.readouterr().out
    assert "seed 1" in out
    assert "greedy" in out
    assert "random" in out
    assert "95% CI" in out
    assert "6 games: mean" in out
    doc = json.loads(path.read_text())
    assert doc["players"] == 2
    assert doc["games"] == 6
    assert doc["bots"] == ["greedy", "random"]
    assert set(doc["win_rate"]) == {"greedy", "random"}
    same = tmp_path / "same.json"
    assert main([*argv, "--seed", "1", "--json", str(same), "--no-progress"]) == 0
    again = json.loads(same.read_text())
    assert again["win_rate"] == doc["win_rate"]
    assert again["mean_turns"] == doc["mean_turns"]


def test_the_command_works_without_rich(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("rich", "rich.console", "rich.progress", "rich.table"):
        monkeypatch.setitem(sys.modules, name, None)
    path = tmp_path / "r.json"
    argv = ["tournament", "--bots", "ismcts:iterations=4,greedy,greedy", "--players", "3"]
    assert main([*argv, "--games", "3", "--seed", "2", "--json", str(path)]) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    header = next(line for line in lines if line.startswith("bot"))
    assert header.split() == ["bot", "win", "rate", "95%", "CI", "victories", "ms/decision"]
    assert any(line.startswith("greedy#2 ") for line in lines)
    assert "played 3/3 games" in captured.err
    doc = json.loads(path.read_text())
    assert list(doc["win_rate"]) == ["ismcts:iterations=4", "greedy#1", "greedy#2"]
    assert doc["bots"] == ["ismcts:iterations=4", "greedy", "greedy"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "greedy,chess"], "argument --bots: bot spec 'chess': unknown bot 'chess'"),
        (["--bots", "ismcts:iterations=x,greedy"], "iterations must be an integer, got 'x'"),
        (["--bots", "ismcts:budget=3,greedy"], "unknown parameter 'budget' for ismcts"),
        (["--bots", "greedy,random,random"], "3 bot specs for 2 players"),
        (["--bots", "greedy,random", "--games", "3"], "not a positive multiple of 2"),
        (["--bots", "greedy,random", "--workers", "0"], "argument --workers"),
        (["--bots", "greedy,random", "--seed", "-4"], "argument --seed"),
        (["--bots", "greedy,random", "--players", "6"], "argument --players: 6 is not in 2..5"),
        (["--bots", "greedy,random", "--json", "/no/such/folder/r.json"], "does not exist"),
        (["--games", "2"], "the following arguments are required: --bots"),
        (["--bots", "greedy,random", "--games", "two"], "invalid int value"),
    ],
)
def test_the_command_rejects_bad_arguments_with_status_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc_info:
        main(["tournament", *args])
    assert exc_info.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert message in captured.err
