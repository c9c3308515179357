"""Tests of the ``cuckoo-rules`` command line."""

from __future__ import annotations

import inspect
import io
import random
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import cuckoo_rules as cr
from cuckoo_rules import bots
from cuckoo_rules.board import ABBREVIATIONS, render_view, row_line
from cuckoo_rules.cli import build_parser, main
from cuckoo_rules.cli.demo import _action_lines
from cuckoo_rules.cli.parser import options_from_args
from cuckoo_rules.narration import describe_event, narrate, species_name
from cuckoo_rules.options import OptionInfo, option_info
from cuckoo_rules.records import Metadata
from cuckoo_rules.terminal import game_over_summary

Step = tuple[cr.GameState, cr.Action, cr.GameState]


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """Run ``main`` with ``args``, check that it succeeds and return what it printed."""
    assert main(list(args)) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    return captured.out


def run_demo(capsys: pytest.CaptureFixture[str], players: int, seed: int) -> str:
    return run_cli(capsys, "demo", "--players", str(players), "--seed", str(seed))


def play(players: int, seed: int) -> list[Step]:
    """Play the game ``demo`` plays: the seed drives both the deal and the random players."""
    rng = random.Random(seed)
    state = cr.new_game(cr.GameOptions(num_players=players), seed)
    steps: list[Step] = []
    while not state.is_over:
        action = rng.choice(cr.legal_actions(state))
        after = cr.apply(state, action)
        steps.append((state, action, after))
        state = after
    return steps


def parse_cards(text: str) -> list[cr.Species]:
    """Read the narration's list of cards ("3 toucans, 1 owl and 2 ducks") back, in order."""
    cards: list[cr.Species] = []
    for item in re.split(r", | and ", text):
        count = int(item.split()[0])
        (species,) = (s for s in cr.SPECIES if species_name(s, count) == item)
        cards += [species] * count
    return cards


def usage_error(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """Run ``main`` with bad ``args``; check the exit status is 2 and return stderr."""
    with pytest.raises(SystemExit) as exc_info:
        main(list(args))
    assert exc_info.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    return captured.err


# --------------------------------------------------------------------------- demo output


def test_demo_prints_the_setup_of_the_seeded_game(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_demo(capsys, 3, 7)
    state = cr.new_game(cr.GameOptions(num_players=3), 7)
    lines = out.splitlines()
    assert lines[0] == "Seed 7; replay with: cuckoo-rules demo --players 3 --seed 7"
    assert lines[1] == "CuBirds, 3 players. Options: standard rules"
    # The setup as the narration tells it, then the board as a spectator sees it.
    (told,) = narrate([cr.events.GameStarted.of(state)], None)
    assert told.startswith(f"The game starts: P{state.dealer} deals 8 cards to each player")
    assert lines[2] == told
    board = render_view(cr.observe(state, None))
    assert lines[3 : 3 + len(board)] == ["    " + line for line in board]
    assert (
        lines[3] == f"    Round 1 · turn 1 · P{state.dealer} to lay · draw pile 69 · discard pile 2"
    )
    for index, row in enumerate(state.rows):
        abbreviations = " ".join(ABBREVIATIONS[s] for s in row)
        assert f"    row {index}: {abbreviations}" in lines
    for seat in range(3):
        ((species, count),) = state.collection(seat).items()
        assert count == 1
        expected = f"    P{seat}     8      1/7      0/2  {ABBREVIATIONS[species]}"
        assert expected in lines
    assert lines[3 + len(board)] == f"Turn 1 (round 1): P{state.dealer}, 8 cards in hand"


def test_demo_announces_the_engines_winner(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_demo(capsys, 3, 7)
    final = play(3, 7)[-1][2]
    (winner,) = final.winners
    game_over = [line for line in out.splitlines() if line.startswith("Game over")]
    assert game_over == [f"Game over: P{winner} wins (two triples in a collection)."]
    assert final.outcome == cr.Outcome((winner,), "two_triples", (0.0, 1.0, 0.0))
    # The end is the terminal's summary of the game, for a spectator.
    summary = game_over_summary((), cr.observe(final, None))
    assert out.endswith("\n".join(summary) + "\n")
    assert summary[0].startswith("== Game over ==")
    assert f"The game lasted {final.turn} turns over {final.round} rounds." in out
    standings = out.split("Standings:\n")[1].splitlines()
    assert len(standings) == 4  # the players, winner first, then the length
    assert standings[0].startswith(f"★ P{winner}  ")


@pytest.mark.parametrize(
    ("players", "seed", "reason"),
    [
        (2, 1, re.compile(r"^Game over: P\d wins \(seven species in a collection\)\.$")),
        (3, 1, re.compile(r"^Game over: P\d wins \(two triples in a collection\)\.$")),
        (3, 5, re.compile(r"^Game over: P\d wins \(the cards ran out; most cards in a")),
        (4, 16, re.compile(r"^Game over: P\d and P\d share the victory \(the cards ran out")),
    ],
)
def test_demo_explains_why_the_game_was_won(
    capsys: pytest.CaptureFixture[str], players: int, seed: int, reason: re.Pattern[str]
) -> None:
    out = run_demo(capsys, players, seed)
    assert re.search(reason.pattern, out, re.MULTILINE), out[-600:]
    final = play(players, seed)[-1][2]
    outcome = final.outcome
    assert outcome is not None
    # The reason is the engine's outcome, told once by the narration (wrapped at 80 columns).
    told = describe_event(cr.events.GameOver(outcome.winners, outcome.reason), None)
    assert told is not None
    assert " ".join(out.split()).count(told) == 1
    assert [line for line in out.splitlines() if line.startswith("Game over")] == [
        line for line in out.splitlines() if told.startswith(line)
    ]


def test_demo_is_deterministic(capsys: pytest.CaptureFixture[str]) -> None:
    first = run_demo(capsys, 3, 7)
    second = run_demo(capsys, 3, 7)
    assert first == second
    assert run_demo(capsys, 3, 8) != first


def test_demo_narrates_every_turn_round_and_reshuffle(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_demo(capsys, 4, 3)
    steps = play(4, 3)
    first, final = steps[0][0], steps[-1][2]
    headers = re.findall(r"^Turn (\d+) \(round (\d+)\): P(\d)", out, re.MULTILINE)
    assert [int(turn) for turn, _, _ in headers] == list(range(1, final.turn + 1))
    round_ends = re.findall(r"^Round (\d+) ends: P\d emptied their hand", out, re.MULTILINE)
    assert final.outcome is not None
    ran_out = final.outcome.reason == "most_cards"
    assert len(round_ends) == final.round - 1 + ran_out
    reshuffles = out.count("The discard pile is shuffled into a new draw pile.")
    assert reshuffles == final.shuffles - first.shuffles > 0


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 7), (5, 2)])
def test_lay_narration_matches_the_engine(players: int, seed: int) -> None:
    """Check each lay's captures, refill and row against the states, not the narration code."""
    lays = refills = 0
    for before, action, after in play(players, seed):
        if not isinstance(action, cr.Lay):
            continue
        lays += 1
        text = "\n".join(_action_lines(cr.step(before, action)[1], cr.observe(after, None), "en"))
        p = before.current_player
        laid = before.hands[p][action.species.index]
        lay = f"P{p} lays {species_name(action.species, laid)} on the {action.side.value} of"
        assert f"{lay} row {action.row}" in text
        row = " ".join(ABBREVIATIONS[s] for s in after.rows[action.row])
        if len(after.rows[action.row]) <= 17:  # a longer row is shown as runs
            assert f"    row {action.row}: {row}\n" in text + "\n"
        assert f"    {row_line(action.row, after.rows[action.row])}\n" in text + "\n"

        captures = re.search(rf"{lay} row {action.row} and captures (.+)\.\n", text)
        if after.round == before.round and not after.is_over:
            gained = Counter(after.hand(p))
            gained.subtract(before.hand(p))
            gained[action.species] += laid
            expected = Counter({s.value: n for s, n in gained.items() if n})
        else:
            expected = Counter()
        got = Counter(s.value for s in parse_cards(captures.group(1))) if captures else Counter()
        assert got == expected

        refill = re.search(r"Row \d is refilled with (.+)\.", text)
        if refill and after.shuffles == before.shuffles:
            refills += 1
            cards = tuple(parse_cards(refill.group(1)))
            assert cards == before.draw_pile[: len(cards)]
            assert after.rows[action.row][-len(cards) :] == before.draw_pile[: len(cards)]
    assert lays > 20
    assert refills > 0


def test_demo_draw_and_flock_lines(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_demo(capsys, 3, 7)
    # A spectator's narration: drawn cards are counted, never named.
    assert re.search(r"^  P\d draws 2 cards\.$", out, re.MULTILINE)
    assert not re.search(r"draws \d cards?:", out)
    assert re.search(r"^  P\d does not draw\.$", out, re.MULTILINE)
    flights = re.findall(
        r"flies (\d+ [a-z ]+) home: (\d) to their collection, (\d+) discarded\.\n"
        r"    collection: (.*)",
        out,
    )
    assert flights
    for birds, home, discarded, collection in flights:
        ((species, revealed),) = Counter(parse_cards(birds)).items()
        assert revealed >= species.small_flock
        assert int(home) == (2 if revealed >= species.big_flock else 1)
        assert int(discarded) == revealed - int(home)
        assert re.search(rf"\b\d+ {species_name(species)}s?\b", collection)


# --------------------------------------------------------------------------- seeds and options


def test_demo_without_a_seed_prints_one_that_replays_the_game(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = run_cli(capsys, "demo", "--players", "2")
    match = re.match(r"Seed (\d+); replay with: cuckoo-rules (demo --players 2 --seed \d+)\n", out)
    assert match, out.splitlines()[0]
    assert 0 <= int(match.group(1)) < 2**64
    assert run_cli(capsys, *match.group(2).split()) == out
    other = run_cli(capsys, "demo", "--players", "2").splitlines()[0]
    assert other != out.splitlines()[0]  # a fresh random seed each time


def test_every_variant_flag_reaches_the_options(capsys: pytest.CaptureFixture[str]) -> None:
    flags = [
        "--initial-row-length",
        "4",
        "--setup-duplicates-to",
        "draw_pile",
        "--no-optional-draw-if-adjacent",
        "--round-end-timing",
        "immediate",
        "--no-exhaustion-counts-discard",
        "--next-round-first-player",
        "left_of_round_ender",
        "--always-prompt-flock",
    ]
    out = run_cli(capsys, "demo", "--players", "4", "--seed", "11", *flags)
    lines = out.splitlines()
    assert lines[0].endswith("--players 4 --seed 11 " + " ".join(flags))
    assert lines[1] == (
        "CuBirds, 4 players. Options: initial_row_length=4, setup_duplicates_to=draw_pile, "
        "optional_draw_if_adjacent=false, round_end_timing=immediate, "
        "exhaustion_counts_discard=false, next_round_first_player=left_of_round_ender, "
        "always_prompt_flock=true"
    )
    rows = [line for line in lines if line.startswith("    row ")][:4]
    assert all(len(row.split(": ")[1].split()) == 4 for row in rows)
    standard = run_cli(capsys, "demo", "--players", "4", "--seed", "11")
    assert "Options: standard rules" in standard
    assert standard != out


VARIANTS = [info for info in option_info() if info.name != "num_players"]


def other_value_flags(info: OptionInfo) -> tuple[list[str], object]:
    """The words that give ``info`` its last value (not its default), and that value."""
    value = info.choices[-1].value
    assert value != info.default
    flag = "--" + info.name.replace("_", "-")
    if isinstance(value, bool):
        return ([flag] if value else [flag.replace("--", "--no-", 1)]), value
    return [flag, str(value)], value


@pytest.mark.parametrize("command", ["demo", "play", "tournament"])
def test_the_option_flags_of_every_command_come_from_option_info(command: str) -> None:
    words: list[str] = []
    expected: dict[str, Any] = {}
    for info in VARIANTS:
        flags, value = other_value_flags(info)
        words += flags
        expected[info.name] = value
    extra = ["--bots", "random,random,random"] if command == "tournament" else []
    args = build_parser().parse_args([command, "--players", "3", *extra, *words])
    assert options_from_args(args) == cr.GameOptions(num_players=3, **expected)
    defaults = build_parser().parse_args([command, "--players", "3", *extra])
    assert options_from_args(defaults) == cr.GameOptions(num_players=3)


def test_refill_trigger_and_same_dealer_reach_the_demo(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    dealt: list[cr.GameOptions] = []
    real_match = cr.Match

    def match(options: cr.GameOptions, seed: int, seats: list[None]) -> cr.Match:
        dealt.append(options)
        return real_match(options, seed, seats)

    monkeypatch.setattr("cuckoo_rules.cli.demo.Match", match)
    flags = ["--refill-trigger", "same_species_lay", "--next-round-first-player", "same_dealer"]
    out = run_cli(capsys, "demo", "--players", "3", "--seed", "4", *flags)
    assert dealt == [
        cr.GameOptions(
            num_players=3, refill_trigger="same_species_lay", next_round_first_player="same_dealer"
        )
    ]
    lines = out.splitlines()
    assert lines[0].endswith("--players 3 --seed 4 " + " ".join(flags))
    assert lines[1] == (
        "CuBirds, 3 players. Options: refill_trigger=same_species_lay, "
        "next_round_first_player=same_dealer"
    )


def test_refill_trigger_and_same_dealer_reach_play_and_tournament(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = cr.GameOptions(
        num_players=2, refill_trigger="same_species_lay", next_round_first_player="same_dealer"
    )
    flags = ["--refill-trigger", "same_species_lay", "--next-round-first-player", "same_dealer"]
    played: list[cr.GameOptions] = []
    monkeypatch.setattr(
        "cuckoo_rules.terminal.play_interactive",
        lambda options, *args, **kwargs: played.append(options),
    )
    run_cli(capsys, "play", "--players", "2", "--seed", "3", *flags)
    assert played == [expected]

    real_run = bots.run_tournament
    toured: list[cr.GameOptions] = []

    def run_tournament(options: cr.GameOptions, *args: Any, **kwargs: Any) -> Any:
        toured.append(options)
        return real_run(options, *args, **kwargs)

    monkeypatch.setattr(bots, "run_tournament", run_tournament)
    tournament = ["--bots", "random,random", "--games", "2", "--no-progress", "--seed", "1"]
    out = run_cli(capsys, "tournament", "--players", "2", *tournament, *flags)
    assert toured == [expected]
    assert "options: refill_trigger=same_species_lay, next_round_first_player=same_dealer" in out


def test_play_help_shows_every_option_text(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc_info:
        main(["play", "--help"])
    assert exc_info.value.code == 0
    # argparse wraps the help (after spaces and hyphens): compare without the white space.
    out = "".join(capsys.readouterr().out.split())

    def shown(text: str) -> bool:
        return "".join(text.split()) in out

    for info in VARIANTS:
        flags, _ = other_value_flags(info)
        assert shown(flags[0]), info.name
        assert shown(info.description), info.name
        for choice in info.choices:
            if isinstance(choice.value, bool) and choice.value == info.default:
                continue  # a switch's help says what the flag turns the option to
            assert shown(f"{choice.value}: {choice.text}" if len(flags) == 2 else choice.text)
        if len(flags) == 2:
            assert shown(f"Default: {info.default}."), info.name


# --------------------------------------------------------------------------- play


def test_play_seeds_each_bot_from_the_game_seed_and_its_seat(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[Any, ...]] = []

    def fake_play(*args: Any, **kwargs: Any) -> None:
        calls.append((*args, kwargs))

    monkeypatch.setattr("cuckoo_rules.terminal.play_interactive", fake_play)
    args = ["play", "--players", "3", "--seat", "1", "--bots", "random,greedy", "--seed", "5"]
    out = run_cli(capsys, *args)
    assert out.startswith("Seed 5; you are player 1.")
    ((options, seed, seat, players, _console, kwargs),) = calls
    assert (options.num_players, seed, seat) == (3, 5, 1)
    expected = [
        cr.bots.make_bot("random", bots.derive_seed(5, 1, 0)),
        None,
        cr.bots.make_bot("greedy", bots.derive_seed(5, 1, 2)),
    ]
    assert repr(players) == repr(expected)
    assert kwargs["names"] == ["random", "human", "greedy"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seed", "-1"], "argument --seed: -1 is not an integer in [0, 2**64)"),
        (["--seat", "2"], "argument --seat: 2 is not a seat of 2 players (0 to 1)"),
        (["--bots", "greedy,random"], "argument --bots: 2 bot specs for 1 opponent: give"),
        (
            ["--players", "4", "--bots", "greedy,random"],
            "argument --bots: 2 bot specs for 3 opponents: give one per opponent, or one for all",
        ),
        (["--bots", "gredy"], "argument --bots: bot spec 'gredy': unknown bot"),
        (["--players", "6"], "argument --players: 6 is not in 2..5"),
    ],
)
def test_bad_play_arguments_are_usage_errors(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    err = usage_error(capsys, "play", *args)
    assert "usage: cuckoo-rules play" in err
    assert message in err


def test_tournament_takes_one_bot_spec_for_every_seat(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    entered: list[tuple[str, ...]] = []
    real_run = bots.run_tournament

    def run_tournament(options: cr.GameOptions, specs: Any, *args: Any, **kwargs: Any) -> Any:
        entered.append(tuple(spec.text for spec in specs))
        return real_run(options, specs, *args, **kwargs)

    monkeypatch.setattr(bots, "run_tournament", run_tournament)
    flags = ["--games", "3", "--no-progress", "--seed", "1"]
    out = run_cli(capsys, "tournament", "--players", "3", "--bots", "random", *flags)
    assert entered == [("random", "random", "random")]
    assert "random#3" in out
    err = usage_error(capsys, "tournament", "--players", "3", "--bots", "random,greedy", *flags)
    assert "argument --bots: 2 bot specs for 3 players (give one bot spec per player, or one" in err


def test_the_bots_guide_gives_the_tournaments_default_workers() -> None:
    default = inspect.signature(bots.run_tournament).parameters["workers"].default
    guide = (Path(__file__).parents[2] / "docs" / "bots.md").read_text(encoding="utf-8")
    parallel = next(line for line in guide.split("\n- ") if line.startswith("**In parallel.**"))
    assert f"By default (`workers={default}`)" in parallel
    assert build_parser().parse_args(["tournament", "--bots", "greedy"]).workers == default


def save_record(path: Path, record: cr.GameRecord) -> str:
    path.write_text(cr.records.dumps_record(record), encoding="utf-8")
    return str(path)


def test_play_resume_continues_with_the_records_seats_and_bots(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    options = cr.GameOptions(num_players=3, round_end_timing="immediate")
    match = cr.Match(options, 9, [None] * 3)
    for _ in range(5):
        seat = match.to_act
        assert seat is not None
        match.act(seat, match.legal_actions(seat)[0])
    names = ("greedy", "human", "random")
    path = save_record(tmp_path / "game.json", match.record(Metadata(names)))
    calls: list[tuple[Any, ...]] = []
    monkeypatch.setattr(
        "cuckoo_rules.terminal.play_interactive", lambda *a, **k: calls.append((*a, k))
    )
    out = run_cli(capsys, "play", "--resume", path)
    assert out.startswith(f"Resuming {path} at move 5 (seed 9); you are player 1.")
    ((got_options, seed, seat, players, _console, kwargs),) = calls
    assert (got_options, seed, seat) == (options, 9, 1)
    expected = [
        cr.bots.make_bot("greedy", bots.derive_seed(9, 1, 0)),
        None,
        cr.bots.make_bot("random", bots.derive_seed(9, 1, 2)),
    ]
    assert repr(players) == repr(expected)
    assert kwargs["resume"] == match.record(Metadata(names))
    assert kwargs["save"] == path  # saved again to the same file
    assert kwargs["names"] == list(names)
    run_cli(capsys, "play", "--resume", path, "--save", str(tmp_path / "other.json"))
    assert calls[-1][-1]["save"] == str(tmp_path / "other.json")


def test_play_resume_refuses_what_cannot_be_resumed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    options = cr.GameOptions(num_players=2)
    finished = cr.Match(options, 1, [None, None])
    while not finished.is_over:
        seat = finished.to_act
        assert seat is not None
        finished.act(seat, finished.legal_actions(seat)[0])
    cases = {
        "over": (finished.record(Metadata(("human", "greedy"))), "holds a finished game"),
        "anonymous": (cr.GameRecord(options, 1), "does not say which seat is yours"),
        "no human": (
            cr.GameRecord(options, 1, (), Metadata(("greedy", "random"))),
            "expected one seat named 'human'",
        ),
    }
    for name, (record, message) in cases.items():
        path = save_record(tmp_path / f"{name}.json", record)
        assert main(["play", "--resume", path]) == 1
        captured = capsys.readouterr()
        assert captured.err.startswith(f"cuckoo-rules play: {path} ") or name == "no human"
        assert message in captured.err
    assert main(["play", "--resume", str(tmp_path / "missing.json")]) == 1
    assert "cannot read" in capsys.readouterr().err
    err = usage_error(capsys, "play", "--resume", path, "--players", "3", "--seed", "4")
    assert "--resume takes the players, seat, bots, seed and rule variants" in err
    assert "do not give --players, --seed" in err


@pytest.mark.parametrize("command", [["demo"], ["play"], ["replay", "x.json"]])
def test_an_unknown_language_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    err = usage_error(capsys, *command, "--lang", "fr")
    assert "argument --lang: invalid choice: 'fr'" in err


@pytest.mark.parametrize("language", ["de", "ru"])
def test_the_demo_speaks_the_language_asked(
    capsys: pytest.CaptureFixture[str], language: str
) -> None:
    out = run_cli(capsys, "demo", "--players", "3", "--seed", "7", "--lang", language)
    english = run_demo(capsys, 3, 7)
    lines = out.splitlines()
    turns = re.compile(r"^\S+ \d+ \(\S+ \d+\): ")  # the header of each turn
    assert len([line for line in lines if turns.match(line)]) == len(
        [line for line in english.splitlines() if turns.match(line)]
    )
    assert lines[0].endswith("cuckoo-rules demo --players 3 --seed 7 --lang " + language)
    for word in ("Turn ", "Standings:", "Options:", "collection:", "standard rules", "row 0"):
        assert word in english
        assert word not in out
    assert cr.narration.phrase("terminal.standings", language) in lines


def test_replay_in_another_language(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    match = cr.Match(cr.GameOptions(num_players=2), 3, [None, None])
    match.act(0, match.legal_actions(0)[0])
    path = save_record(tmp_path / "game.json", match.record())
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    out = run_cli(capsys, "replay", path, "--lang", "ru")
    assert "-- Повтор: раздача (действие 0 из 1) (глазами зрителя)" in out
    assert "ряд 0:" in out


# --------------------------------------------------------------------------- usage


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["demo", "--players", "6"], "argument --players: 6 is not in 2..5"),
        (["demo", "--players", "1"], "argument --players: 1 is not in 2..5"),
        (["demo", "--players", "two"], "argument --players: invalid int value: 'two'"),
        (["demo", "--seed", "-1"], "argument --seed: -1 is not an integer in [0, 2**64)"),
        (["demo", "--seed", str(2**64)], "argument --seed: 18446744073709551616 is not"),
        (["demo", "--initial-row-length", "5"], "argument --initial-row-length: invalid choice"),
        (["demo", "--refill-trigger", "lay"], "argument --refill-trigger: invalid choice: 'lay'"),
        (["demo", "--round-end-timing", "later"], "argument --round-end-timing: invalid choice"),
        (["demo", "--setup-duplicates-to", "box"], "argument --setup-duplicates-to: invalid"),
        (["demo", "--next-round-first-player", "x"], "argument --next-round-first-player: inv"),
        (["demo", "--turbo"], "unrecognized arguments: --turbo"),
        (["fly"], "invalid choice: 'fly'"),
        ([], "the following arguments are required: COMMAND"),
    ],
)
def test_bad_arguments_are_usage_errors(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    err = usage_error(capsys, *args)
    assert "usage: cuckoo-rules" in err
    assert message in err


ROOT = Path(__file__).parents[2]

SEED_TEXTS = {
    "SEED0": "the English Board Game Arena help page",
    "SEED1": "a Russian translation of that page",
    "SEED2": "a German rules summary",
}
"""What docs/rules.md ("Sources") says each seed text is."""


def help_text(capsys: pytest.CaptureFixture[str], command: str) -> str:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    return capsys.readouterr().out


@pytest.mark.parametrize("where", ["README.md", "play", "demo", "tournament", "replay"])
def test_the_readme_and_help_name_only_files_of_the_repository_and_say_what_seeds_are(
    capsys: pytest.CaptureFixture[str], where: str
) -> None:
    if where.endswith(".md"):
        text = (ROOT / where).read_text(encoding="utf-8")
    else:
        text = help_text(capsys, where)
    text = " ".join(text.split())  # argparse wraps lines
    assert "shared/" not in text
    assert "../" not in text
    for name in re.findall(r"[\w./-]+\.md\b", text):
        assert (ROOT / name).is_file(), f"{where} names {name}, which the repository lacks"
    for seed in sorted(set(re.findall(r"SEED\d", text))):
        assert seed in SEED_TEXTS, seed
        said = re.escape(SEED_TEXTS[seed]).replace("\\ ", " ")
        assert re.search(rf"{seed} (?:is )?{said}", text), f"{where}: {seed} is not explained"
    sources = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert "| SEED0 | The English Board Game Arena page the project started from. |" in sources
    assert "| SEED1 | A Russian translation of the same page. |" in sources
    assert "| SEED2 | A German rules summary. |" in sources


def test_help_documents_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc_info:
        main(["--help"])
    assert exc_info.value.code == 0
    out = capsys.readouterr().out
    assert "usage: cuckoo-rules" in out
    assert "demo" in out
    assert "--version" in out


def test_demo_help_documents_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc_info:
        main(["demo", "--help"])
    assert exc_info.value.code == 0
    out = capsys.readouterr().out
    for flag in ["--players", "--seed"]:
        assert flag in out
    for name in cr.GameOptions(num_players=2).to_json():
        if name != "num_players":
            assert name.replace("_", "-") in out, name
    assert "end_of_turn" in out
    assert "left_of_round_ender" in out


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc_info:
        main(["--version"])
    assert exc_info.value.code == 0
    assert capsys.readouterr().out == f"cuckoo-rules {cr.__version__}\n"


# --------------------------------------------------------------------------- console script


def test_installed_console_script(capsys: pytest.CaptureFixture[str]) -> None:
    script = Path(sys.executable).parent / "cuckoo-rules"
    if not script.exists():
        pytest.skip(f"console script not installed next to {sys.executable}")
    result = subprocess.run(
        [str(script), "demo", "--players", "2", "--seed", "1"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert "Game over" in result.stdout
    assert result.stdout == run_demo(capsys, 2, 1)
