"""Tests of the terminal's review: ``cuckoo-rules review``, its lines and ``play``'s offer.

The reviews run at tiny budgets (a few simulations of each possible move): what is checked is the
rendering (80 columns, three languages, the seats asked), not the expert's judgement.
"""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path
from typing import Any

import pytest

import cuckoo_rules as cr
from cuckoo_rules._phrases.terminal import PHRASES as TERMINAL_PHRASES
from cuckoo_rules.bots import GreedyBot, RandomBot, play_game
from cuckoo_rules.cli import main
from cuckoo_rules.narration import phrase
from cuckoo_rules.records import Metadata, dumps_record
from cuckoo_rules.terminal import Console, describe_action
from cuckoo_rules.terminal.review import (
    BUDGET_VARIABLE,
    SPARKS,
    chart_lines,
    costliest_lines,
    review_lines,
    show_review,
    sparkline,
)
from tests.frontends.test_terminal import english_words

review_module = pytest.importorskip("cuckoo_rules.bots.review", reason="no batch extra")
DecisionReview = review_module.DecisionReview
GameReview = review_module.GameReview

BUDGET = "8"  # simulations per decision: a review of a whole game in about a second


def finished(players: int, seed: int, names: tuple[str, ...] | None = None) -> cr.GameRecord:
    """A whole game between greedy and random bots, named as ``play --save`` names them."""
    bots = [GreedyBot(seed=k) if k % 2 == 0 else RandomBot(seed=k) for k in range(players)]
    record = play_game(cr.GameOptions(num_players=players), seed, bots).record
    return cr.GameRecord(record.options, record.seed, record.actions, Metadata(names))


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A finished two-player game saved as ``play --save`` saves it."""
    path = tmp_path_factory.mktemp("review") / "game.json"
    path.write_text(dumps_record(finished(2, 7, ("human", "greedy")), indent=2), encoding="utf-8")
    return str(path)


def run_review(capsys: pytest.CaptureFixture[str], *args: str) -> list[str]:
    """Run ``cuckoo-rules review ARGS`` at a tiny budget; check it succeeds; its lines."""
    assert main(["review", *args, "--simulations", BUDGET]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""  # no progress line: stderr is not a terminal
    return captured.out.splitlines()


def words(lines: list[str]) -> set[str]:
    return {word for line in lines for word in re.findall(r"[A-Za-z]+", line)}


# --------------------------------------------------------------------------- the command


def test_review_prints_the_charts_and_the_costliest_moves_in_80_columns(
    capsys: pytest.CaptureFixture[str], saved: str
) -> None:
    lines = run_review(capsys, saved)
    assert all(len(line) <= 80 for line in lines), [line for line in lines if len(line) > 80]
    assert lines[0] == f"Game review (expert, {BUDGET} simulations of each possible move)"
    charts = [line for line in lines if any(spark in line for spark in SPARKS)]
    assert [line.split()[:2] for line in charts] == [["P0", "human"], ["P1", "greedy"]]
    for line in charts:
        assert re.fullmatch(r"P\d \w+ +\d+% [▁▂▃▄▅▆▇█]+ +\d+%", line), line
        assert len(line) == 80  # the sparkline fills the width
    winner = cr.records.final_state(cr.records.loads_record(Path(saved).read_text())).winners
    assert [line.endswith(" 100%") for line in charts] == [seat in winner for seat in (0, 1)]
    moves = len(cr.records.loads_record(Path(saved).read_text()).actions)
    (axis,) = (line for line in lines if re.fullmatch(rf" {{15}}move 0 +move {moves}", line))
    assert len(axis) == 80 - len(" 100%")  # the moves' line ends where the charts do
    assert lines.index(axis) > lines.index(charts[-1])
    for chart in charts:  # under each chart, its costliest moves marked (or a blank line)
        marks = lines[lines.index(chart) + 1]
        assert re.fullmatch(r"( {15}[ ^]*\^)?", marks), marks
        assert marks or chart == charts[-1]
    for player in ("P0 human", "P1 greedy"):
        heading = next(line for line in lines if line.startswith(player + ": "))
        assert "costliest moves" in heading or "within 1 percentage point" in heading
    told = [line for line in lines if re.match(r"  Move \d+ \(turn \d+\): \d+ percentage", line)]
    assert 1 <= len(told) <= 6
    assert sum(bool(re.match(r" +\d+%  played: ", line)) for line in lines) == len(told)
    assert sum(bool(re.match(r" +\d+%  better: ", line)) for line in lines) == len(told)
    assert run_review(capsys, saved) == lines  # the same seed and budget: the same review


def test_seat_filters_the_charts_and_the_moves(
    capsys: pytest.CaptureFixture[str], saved: str
) -> None:
    lines = run_review(capsys, saved, "--seat", "1", "--top", "1")
    assert not any(line.startswith("P0") for line in lines)
    assert sum(line.startswith("P1 greedy ") for line in lines) == 1  # its chart
    assert sum(line.startswith("P1 greedy: ") for line in lines) == 1  # its moves
    assert sum(bool(re.match(r"  Move \d+", line)) for line in lines) <= 1


@pytest.mark.parametrize("language", ["de", "ru"])
def test_other_languages_leave_no_english(
    capsys: pytest.CaptureFixture[str], saved: str, language: str
) -> None:
    lines = run_review(capsys, saved, "--lang", language)
    assert all(len(line) <= 80 for line in lines)
    own = words(list(TERMINAL_PHRASES[language].values()))
    english = english_words() - own
    assert {"review", "costliest", "percentage", "better", "played", "lost"} <= english
    assert not words(lines) & english, words(lines) & english
    assert lines[0].startswith(phrase("terminal.review.title", language, simulations=8)[:10])
    move = "Aktion" if language == "de" else "Действие"
    assert any(re.match(rf"  {move} \d+ ", line) for line in lines), lines


def test_an_unreadable_record_is_an_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    missing = str(tmp_path / "missing.json")
    assert main(["review", missing]) == 1
    assert capsys.readouterr().err.startswith(f"cuckoo-rules review: cannot read {missing}: ")
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "cuckoo-rules/record"', encoding="utf-8")
    assert main(["review", str(broken), "--lang", "de"]) == 1
    assert f"{broken} lässt sich nicht lesen: " in capsys.readouterr().err
    illegal = tmp_path / "illegal.json"
    record = cr.GameRecord(cr.GameOptions(num_players=2), 1, (cr.Draw(),))
    illegal.write_text(dumps_record(record), encoding="utf-8")
    assert main(["review", str(illegal)]) == 1
    assert "actions[0] (move 1, turn 1): Draw() is not legal" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seat", "2"], "argument --seat: 2 is not a seat of 2 players (0 to 1)"),
        (["--simulations", "0"], "argument --simulations: 0 is not a positive integer"),
        (["--top", "0"], "argument --top: 0 is not a positive integer"),
        (["--seed", "-1"], "argument --seed: -1 is not an integer in [0, 2**64)"),
        (["--lang", "fr"], "argument --lang: invalid choice: 'fr'"),
    ],
)
def test_bad_arguments_are_usage_errors(
    capsys: pytest.CaptureFixture[str], saved: str, args: list[str], message: str
) -> None:
    with pytest.raises(SystemExit) as exc_info:
        main(["review", saved, *args])
    assert exc_info.value.code == 2
    assert message in capsys.readouterr().err


# --------------------------------------------------------------------------- the lines


def test_the_sparkline_averages_down_and_stretches_up() -> None:
    assert sparkline([(index + 1) / 8 for index in range(8)], 8) == SPARKS
    assert sparkline([0.0, 0.18, 0.19, 0.5, 0.99], 5) == "▁▁▂▄█"
    assert sparkline([0.0] * 50 + [1.0] * 50, 10) == "▁" * 5 + "█" * 5
    assert sparkline([0.0, 0.5], 4) == "▁▁▄▄"
    assert sparkline([], 10) == ""


def test_five_seats_and_long_names_fit_80_columns() -> None:
    names = ("human", "ismcts:iterations=50", "a-very-long-name-indeed", "greedy", "random")
    record = finished(5, 3, names)
    found = review_module.review(record, simulations=5, seats=[1])
    lines = review_lines(found, record, language="ru")
    assert all(len(line) <= 80 for line in lines)
    charts = chart_lines(found, marked=0)
    assert len(charts) == 1 + 5 + 4 + 1  # a blank line between two seats' charts
    assert charts[2:-1:2] == [""] * 4
    assert len({len(line) for line in charts[1:-1:2]}) == 1  # the charts line up
    assert charts[3].startswith("P1 ismcts ")  # a bot spec's parameters left out
    marked = chart_lines(found)  # the reviewed seat's costliest moves marked under it
    costly = [d for d in found.costliest(1) if round(100 * d.cost) >= 1]
    assert marked[4].count("^") == len({d.move for d in costly}) > 0
    assert marked[:4] + marked[5:] == charts[:4] + charts[5:]


def one_decision(cost: float) -> tuple[cr.GameRecord, Any]:
    """A record of one move and a review saying the move cost ``cost``."""
    options = cr.GameOptions(num_players=2)
    state = cr.new_game(options, 7)
    chosen, best = cr.legal_actions(state)[:2]
    record = cr.GameRecord(options, 7, (chosen,))
    estimates = tuple(
        cr.bots.expert.ActionEstimate(action, chance, 10)
        for action, chance in ((best, 0.5 + cost), (chosen, 0.5))
    )
    decision = DecisionReview(0, 0, estimates, chosen, 0.5, best, 0.5 + cost, cost)
    chances = ((0.5, 0.5), (0.4, 0.6))
    return record, GameReview(options, ("P0", "P1"), (0,), 10, 0, 1, (decision,), chances)


def test_a_costly_move_is_told_as_the_seat_saw_it() -> None:
    record, found = one_decision(0.14)
    view = cr.observe(cr.new_game(record.options, 7), 0)
    chosen, best = record.actions[0], cr.legal_actions(view)[1]
    assert costliest_lines(found, record, 0) == [
        "P0: the costliest moves (on average 14.0 percentage points lost per decision)",
        "  Move 1 (turn 1): 14 percentage points lost",
        f"     50%  played: {describe_action(chosen, view)}",
        f"     64%  better: {describe_action(best, view)}",
    ]
    ru = costliest_lines(found, record, 0, viewer=0, language="ru")
    assert ru[0] == "вы: худшие действия (средняя потеря за решение — 14,0 процентного пункта)"
    assert ru[1] == "  Действие 1 (ход 1): шанс на победу ниже на 14 процентных пунктов"
    de = costliest_lines(found, record, 0, language="de")
    assert de[-3] == "  Aktion 1 (Zug 1): 14 Prozentpunkte verloren"
    assert de[-2].startswith("     50%  gespielt: ")


def test_no_costly_move_is_said_so() -> None:
    record, found = one_decision(0.004)
    assert costliest_lines(found, record, 0, viewer=0) == [
        "you: every move was within 1 percentage point of the expert's best."
    ]
    record, found = one_decision(0.01)
    assert phrase("terminal.review.points", "en", count=1) == "1 percentage point"
    assert costliest_lines(found, record, 0)[1] == "  Move 1 (turn 1): 1 percentage point lost"


def test_play_shows_the_review_of_the_humans_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    record = finished(2, 7, ("human", "greedy"))
    monkeypatch.setenv(BUDGET_VARIABLE, BUDGET)
    out = io.StringIO()
    show_review(record, Console(io.StringIO(""), out), viewer=0)
    lines = out.getvalue().splitlines()
    assert lines[0] == f"Game review (expert, {BUDGET} simulations of each possible move)"
    assert any(line.startswith("you ") for line in lines)  # the human's chart
    assert any(line.startswith("P1 greedy ") for line in lines)  # every seat is charted
    assert any(line.startswith("you: ") for line in lines)  # the human's moves only
    assert not any(line.startswith("P1 greedy: ") for line in lines)


def test_without_the_batch_extra_the_review_says_what_to_install(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, saved: str
) -> None:
    monkeypatch.setitem(sys.modules, "cuckoo_rules.bots.review", None)  # import fails
    assert main(["review", saved, "--lang", "de"]) == 1
    assert capsys.readouterr().err == (
        "cuckoo-rules review: Keine Analyse: der Experte braucht das Extra batch (NumPy und "
        "numba): pip install 'cuckoo-rules[batch]'\n"
    )
    out = io.StringIO()
    show_review(finished(2, 7), Console(io.StringIO(""), out), viewer=0)
    assert (
        out.getvalue()
        == phrase("terminal.review.missing", "en", command="pip install 'cuckoo-rules[batch]'")
        + "\n"
    )


# --------------------------------------------------------------------------- play's offer


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty")
def test_play_offers_the_review_at_game_over() -> None:
    from tests.frontends.test_play_pty import Term
    from tests.frontends.test_play_pty import play_game as play_in_pty

    term = Term(
        "play", "--players", "2", "--seed", "7", "--bots", "greedy", env={BUDGET_VARIABLE: BUDGET}
    )
    play_in_pty(term, lambda count: "1")
    offer = phrase("terminal.review.offer", "en")
    assert offer in term.lines()
    term.send("r")
    term.expect([re.escape(phrase("terminal.press_enter_end", "en"))], timeout=120)
    lines = term.lines()
    assert f"Game review (expert, {BUDGET} simulations of each possible move)" in lines
    assert any(line.startswith("you ") and "%" in line for line in lines), lines
    assert any(line.startswith("P1 greedy ") for line in lines), lines
    assert any(line.startswith("you: ") for line in lines), lines
    assert term.screen.cursor.y == 23 or len([line for line in lines if line]) <= 23
    term.send("")
    term.finish()


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty")
def test_review_shows_its_progress_on_a_terminal(saved: str) -> None:
    from tests.frontends.test_play_pty import EOF, Term

    term = Term("review", saved, "--simulations", BUDGET, "--top", "1")
    term.expect([r"Reviewing the game: position \d+ of \d+"], timeout=120)
    term.expect([EOF], timeout=120)
    assert "\r\x1b[K" in term.seen.getvalue()  # the progress line is rubbed out
    assert not any("Reviewing" in line for line in term.lines())
    assert any(line.startswith("P1 greedy: ") for line in term.lines())
    term.child.close()
    assert term.child.exitstatus == 0
