"""End-to-end tests of ``cuckoo-rules play`` and ``replay`` in a real pseudo-terminal.

The terminal is 80x24; what the program writes is fed to a ``pyte`` screen, so the tests
read the screen a person would see (the rows, the hand, the move list at every prompt),
not just the bytes.
"""

from __future__ import annotations

import io
import json
import os
import random
import re
import signal
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pexpect
import pyte
import pytest

import cuckoo_rules as cr
from cuckoo_rules.narration import PHRASES, phrase
from tests.conftest import DATA
from tests.frontends.test_terminal import english_words

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty")

TIMEOUT = 30
EOF = pexpect.EOF


def template_pattern(key: str, language: str) -> str:
    """A regular expression of a phrase, its ``{count}`` a captured number."""
    before, _, after = PHRASES[language][f"terminal.{key}"].partition("{count}")
    return re.escape(before) + (r"(\d+)" + re.escape(after) if after else "")


class Term:
    """A program in an 80x24 pseudo-terminal, and the screen it shows (``pyte``)."""

    def __init__(self, *args: str, language: str = "en", env: dict[str, str] | None = None):
        environ = {**os.environ, "NO_COLOR": "1", "COLUMNS": "80", "LINES": "24"}
        self.child = pexpect.spawn(
            sys.executable,
            ["-m", "cuckoo_rules.cli", *args, "--lang", language],
            env={**environ, **(env or {})},
            encoding="utf-8",
            timeout=TIMEOUT,
            dimensions=(24, 80),
        )
        self.child.delaybeforesend = None  # the default 50 ms per line makes a game slow
        self.language = language
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.Stream(self.screen)
        self.seen = io.StringIO()
        self.move = template_pattern("prompt", language)
        self.enter = re.escape(phrase("terminal.press_enter", language))
        self.end = re.escape(phrase("terminal.press_enter_end", language))

    def expect(self, patterns: Sequence[str | type[pexpect.EOF]], timeout: float = TIMEOUT) -> int:
        """Wait for one of ``patterns``; feed what came to the screen; return its index."""
        index: int = self.child.expect(list(patterns), timeout=timeout)
        after = self.child.after
        text = (self.child.before or "") + (after if isinstance(after, str) else "")
        self.stream.feed(text)
        self.seen.write(text)
        return index

    def lines(self) -> list[str]:
        return [line.rstrip() for line in self.screen.display]

    def send(self, text: str) -> None:
        self.child.sendline(text)

    def finish(self, status: int = 0) -> None:
        self.expect([EOF])
        self.child.close()
        assert self.child.exitstatus == status

    def check_board(self, count: int) -> None:
        """The whole board and every move are on the screen, the prompt on its last line."""
        lines, language = self.lines(), self.language
        assert lines[0].startswith(PHRASES[language]["terminal.header"].partition(" ")[0]), lines
        for index in range(4):
            label = phrase("terminal.row", language, row=index)
            assert sum(line.startswith(label) for line in lines) == 1, lines
        hand = phrase("terminal.hand", language, count=0).partition("(")[0]
        assert sum(line.startswith(hand) for line in lines) == 1, lines
        row = phrase("terminal.row", language, row=0)[:-2]  # "row 0:" is no move
        numbers = sorted(
            int(n)
            for line in lines
            if not line.startswith((row, "│"))
            for n in re.findall(r"(?:^|\s)(\d+):", line)
        )
        assert numbers == list(range(1, count + 1)), lines
        assert re.match(self.move, self.screen.display[self.screen.cursor.y]), lines


def play_game(
    term: Term,
    choose: Callable[[int], str],
    *,
    on_board: Callable[[Term], None] | None = None,
    on_summary: Callable[[Term], None] | None = None,
) -> tuple[int, int]:
    """Play to the end: ``choose(n)`` at each of the ``n``-move prompts, Enter at summaries.

    Returns:
        The number of move prompts and of round summaries.
    """
    moves = summaries = 0
    while True:
        index = term.expect([term.move, term.enter, term.end])
        if index == 0:
            found = term.child.match
            assert isinstance(found, re.Match)
            count = int(found.group(1))
            term.check_board(count)
            if on_board is not None:
                on_board(term)
            moves += 1
            term.send(choose(count))
        elif index == 1:
            title = phrase("terminal.round_over", term.language, round=0).partition("0")[0]
            assert any(line.startswith("== " + title) for line in term.lines()), term.lines()
            if on_summary is not None:
                on_summary(term)
            summaries += 1
            term.send("")
        else:
            title = "== " + phrase("terminal.game_over", term.language) + " =="
            assert any(line.startswith(title) for line in term.lines()), term.lines()
            return moves, summaries


def waits_for_enter(term: Term, next_pattern: str | type[pexpect.EOF]) -> bool:
    """Whether nothing matching ``next_pattern`` comes until Enter is pressed."""
    try:
        term.child.expect([next_pattern], timeout=0.4)
    except pexpect.TIMEOUT:
        return True
    return False


# --------------------------------------------------------------------------- whole games


def test_a_two_player_game_by_ones_fits_the_screen_at_every_prompt() -> None:
    term = Term("play", "--players", "2", "--seed", "7", "--bots", "greedy")
    moves, summaries = play_game(term, lambda count: "1")
    lasted = next(line for line in term.lines() if line.startswith("The game lasted"))
    rounds = int(re.search(r"over (\d+) round", lasted)[1])  # type: ignore[index]
    assert summaries == rounds - 1
    assert moves > 20
    assert waits_for_enter(term, EOF)  # the game-over summary stays until Enter
    term.send("")
    term.finish()


def test_a_five_player_game_of_random_moves_fits_the_screen_at_every_prompt() -> None:
    rng = random.Random(5)
    term = Term("play", "--players", "5", "--seed", "6", "--bots", "random,greedy,random,greedy")
    waited: list[bool] = []

    def summary(term: Term) -> None:
        lines = "\n".join(term.lines())
        assert "Discarded from the hands:" in lines
        assert re.search(r"Round \d+\. Dealer: .*; first turn: ", lines)
        if not waited:  # the next prompt does not come until Enter
            waited.append(waits_for_enter(term, term.move))

    moves, summaries = play_game(term, lambda count: str(rng.randint(1, count)), on_summary=summary)
    assert moves > 10
    assert summaries >= 1
    assert waited == [True]
    assert any(line.startswith("★ ") for line in term.lines())  # the standings
    term.send("")
    term.finish()


# --------------------------------------------------------------------------- commands


def test_help_and_the_full_list_then_back_to_the_board() -> None:
    term = Term("play", "--seed", "7", "--bots", "random")
    term.expect([term.move])
    term.check_board(40)
    term.send("help")
    term.expect([re.escape(phrase("terminal.press_enter_back", "en"))])
    screen = "\n".join(term.lines())
    for text in ("Commands (type one, then Enter)", "The rules in short", "Species:  FLA flamingo"):
        assert text in screen
    term.send("")
    term.expect([term.move])
    term.check_board(40)
    term.send("m")
    term.expect([re.escape(phrase("terminal.list_prompt", "en"))])
    screen = "\n".join(term.lines())
    assert "Every move (1-22 of 40)" in screen
    assert "17. lay 3 ducks on the left of row 0, capturing 1 robin and 1 magpie" in screen
    term.send("17")  # a number plays the move from the list
    term.expect([term.move])
    assert any("You lay 3 ducks on the left of row 0" in line for line in term.lines())
    term.send("q")
    term.expect([re.escape(phrase("terminal.save_ask", "en"))])
    term.send("")
    term.finish()


def test_an_illegal_choice_says_why() -> None:
    term = Term("play", "--seed", "7", "--bots", "random")
    term.expect([term.move])
    term.send("lay flamingo 0 left")
    term.expect([term.move])
    term.check_board(40)
    assert "lay flamingo 0 left: you hold no flamingo." in term.lines()
    term.send("99")
    term.expect([term.move])
    assert "There is no move 99: type a number from 1 to 40." in term.lines()
    assert not any("pass" in line for line in term.lines())  # not legal: not suggested
    term.send("x")
    term.expect([term.move])
    assert any(line.startswith('"x" is not a move') for line in term.lines())
    term.send("lay owl 3 right")  # takes nothing: draw or not
    term.expect([term.move])
    term.check_board(2)
    term.send("fly owl")
    term.expect([term.move])
    assert any(
        line.startswith("fly owl: after a lay that took no cards the choice is to draw")
        for line in term.lines()
    )
    term.child.sendeof()
    term.expect([re.escape(phrase("terminal.save_ask", "en"))])
    term.child.sendeof()
    term.finish()


def test_resume_goes_on_with_a_game_saved_with_q(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    term = Term("play", "--players", "3", "--seed", "11", "--bots", "random,greedy")
    for choice in ("1", "1", "2"):
        term.expect([term.move])
        term.send(choice)
    term.expect([term.move])
    term.send("q")
    term.expect([re.escape(phrase("terminal.save_ask", "en"))])
    term.send(str(path))
    term.expect([f"cuckoo-rules play --resume {re.escape(str(path))}"])
    term.finish()
    with path.open(encoding="utf-8") as source:
        saved = cr.records.load_record(source)
    assert saved.metadata.players == ("human", "random", "greedy")
    assert saved.metadata.result is None
    again = Term("play", "--resume", str(path))
    again.expect([f"Resuming {re.escape(str(path))} at move {len(saved.actions)}"])
    play_game(again, lambda count: "1")
    again.send("")
    again.finish()
    with path.open(encoding="utf-8") as source:  # saved again, to the same file, finished
        final = cr.records.load_record(source)
    assert final.actions[: len(saved.actions)] == saved.actions
    assert len(final.actions) > len(saved.actions)
    assert final.metadata.result is not None
    assert final.metadata.result.winners == cr.records.final_state(final).winners
    refused = Term("play", "--resume", str(path))
    refused.expect(["holds a finished game: there is nothing to resume"])
    refused.finish(1)


@pytest.mark.parametrize("language", ["de", "ru"])
def test_other_languages_show_no_english_words(language: str) -> None:
    own = {
        word
        for key, text in PHRASES[language].items()
        if key.startswith("terminal.")
        for word in re.findall(r"[A-Za-z]+", re.sub(r"\{[^}]*\}", " ", text))
    }
    english = english_words() - own
    seen: list[str] = []

    def check(term: Term) -> None:
        lines = [line for line in term.lines() if not line.startswith("│")]  # narration
        words = {w for line in lines for w in re.findall(r"[A-Za-z]+", line)}
        assert not words & english, (words & english, lines)
        seen.append(lines[0])

    term = Term("play", "--players", "3", "--seed", "4", "--bots", "greedy", language=language)
    moves, summaries = play_game(term, lambda count: "1", on_board=check, on_summary=check)
    check(term)  # the game-over summary
    assert summaries >= 1
    assert len(seen) == moves + summaries + 1
    term.send("")
    term.finish()


def test_ctrl_c_leaves_without_traceback() -> None:
    term = Term("play", "--seed", "3")
    term.expect([term.move])
    term.child.sendintr()
    term.expect(["Interrupted: you leave the game."])
    term.finish(130)
    assert "Traceback" not in term.seen.getvalue()


def saved_game(path: Path) -> cr.GameRecord:
    """The record in ``path``, which must be whole; no temporary file is left beside it."""
    record = cr.loads_record(path.read_text(encoding="utf-8"))
    assert [p.name for p in path.parent.iterdir()] == [path.name]
    return record


def play_two_moves(path: Path) -> Term:
    """``play --save path``, two of the human's moves made, at the next move prompt."""
    term = Term("play", "--seed", "7", "--bots", "random", "--save", str(path))
    for choice in ("17", "1"):
        term.expect([term.move])
        term.send(choice)
    term.expect([term.move])
    return term


def test_ctrl_c_saves_the_game_given_to_save(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    term = play_two_moves(path)
    term.child.sendintr()
    term.expect([f"Game saved to {re.escape(str(path))}"])
    term.expect([f"cuckoo-rules play --resume {re.escape(str(path))}"])
    term.expect(["Interrupted: you leave the game."])
    term.finish(130)
    assert "Traceback" not in term.seen.getvalue()
    record = saved_game(path)
    assert record.actions[0] == cr.Lay(cr.Species.DUCK, 0, cr.Side.LEFT)  # 17
    assert len(record.actions) >= 2
    assert record.metadata.players == ("human", "random")
    assert record.metadata.result is None
    again = Term("play", "--resume", str(path))
    again.expect([f"Resuming {re.escape(str(path))} at move {len(record.actions)}"])
    again.expect([again.move])
    again.child.sendintr()
    again.finish(130)


def test_end_of_input_saves_the_game_given_to_save(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    term = play_two_moves(path)
    term.child.sendeof()
    term.expect([f"Game saved to {re.escape(str(path))}"])
    term.finish()
    assert len(saved_game(path).actions) >= 2


def test_a_hang_up_saves_the_game_given_to_save(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    term = play_two_moves(path)
    term.child.kill(signal.SIGHUP)
    term.expect([EOF])
    term.child.close()
    assert term.child.exitstatus == 128 + signal.SIGHUP
    record = saved_game(path)
    assert len(record.actions) >= 2
    assert record.metadata.result is None


def test_a_closed_terminal_saves_the_game_given_to_save(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    term = play_two_moves(path)
    pid = term.child.pid
    assert pid is not None
    pty: Any = getattr(term.child, "ptyproc")  # noqa: B009 (pexpect's stubs lack it)
    pty.fileobj.close()  # the terminal window closes: the kernel hangs up
    deadline = time.monotonic() + TIMEOUT
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        assert time.monotonic() < deadline, "the game did not end on the hang-up"
        time.sleep(0.05)
    assert os.waitstatus_to_exitcode(status) == 128 + signal.SIGHUP
    assert len(saved_game(path).actions) >= 2


def test_an_earlier_save_is_replaced_whole(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text("an older file", encoding="utf-8")
    term = play_two_moves(path)
    term.child.sendintr()
    term.finish(130)
    assert len(saved_game(path).actions) >= 2


@pytest.mark.parametrize(
    ("flag", "env", "coloured"),
    [([], {}, True), (["--no-color"], {}, False), ([], {"NO_COLOR": "1"}, False)],
)
def test_colour_on_a_terminal_unless_turned_off(
    flag: list[str], env: dict[str, str], coloured: bool
) -> None:
    environ = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    child = pexpect.spawn(
        sys.executable,
        ["-m", "cuckoo_rules.cli", "play", "--seed", "7", *flag],
        env={**environ, **env},
        encoding="utf-8",
        timeout=TIMEOUT,
        dimensions=(24, 80),
    )
    child.expect(template_pattern("prompt", "en"))
    assert ("\x1b[38;5;" in (child.before or "")) is coloured
    assert "\x1b[H\x1b[2J" in (child.before or "")  # a terminal: the screen is drawn anew
    child.sendeof()
    child.expect("Save the game")
    child.sendeof()
    child.expect(EOF)
    child.close()


# --------------------------------------------------------------------------- replay


def test_save_then_replay_steps_and_jumps(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    term = Term("play", "--seed", "7", "--bots", "random", "--save", str(path))
    play_game(term, lambda count: "1")
    term.send("")
    term.finish()
    moves = len(json.loads(path.read_text())["actions"])
    replay = Term("replay", str(path), "--seat", "1")
    prompt = re.escape(phrase("terminal.replay.prompt", "en"))

    def at(move: int) -> None:
        replay.expect([prompt])
        top = replay.lines()[0]
        assert top.startswith(
            f"-- Replay: move {move} of {moves}"
            if move
            else f"-- Replay: the deal (move 0 of {moves})"
        ), top
        assert any(line.startswith("row 3:") for line in replay.lines())
        assert any(line.startswith("Your hand (") for line in replay.lines())

    at(0)
    replay.send("")
    at(1)
    replay.send("g 40")
    at(40)
    replay.send("b")
    at(39)
    replay.send("g 0")
    at(0)
    replay.send(f"g {moves}")
    at(moves)
    replay.send("")
    at(moves)
    assert "The end of the record: b goes back, g N goes to move N, q quits." in replay.lines()
    replay.send("q")
    replay.finish()


def test_a_record_saved_by_the_previous_release_replays_to_its_end() -> None:
    # Saved by 'play --save' of cuckoo-rules 0.1 (format version 1): tests/data/legacy-v1.
    path = DATA / "legacy-v1" / "play-finished-3p.json"
    moves = len(json.loads(path.read_text())["actions"])
    replay = Term("replay", str(path))
    prompt = re.escape(phrase("terminal.replay.prompt", "en"))
    for move in range(moves + 1):
        replay.expect([prompt])
        if move:
            assert replay.lines()[0].startswith(f"-- Replay: move {move} of {moves}")
        replay.send("")
    replay.expect([prompt])
    assert replay.lines()[1].startswith("Round ")
    assert "game over" in replay.lines()[1]
    replay.send("q")
    replay.finish()
    # Its players are named "you", "greedy", "random": a spectator reads "P0", not "P0 you".
    assert "P0 lays" in replay.seen.getvalue()
    assert "P0 you" not in replay.seen.getvalue()
