"""End-to-end tests of ``cuckoo-rules play`` and ``replay`` through a real pseudo-terminal."""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path

import pexpect
import pytest

from tests.conftest import DATA

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty")

PROMPT = r"q to quit\)> "
TIMEOUT = 20


def spawn(*args: str) -> pexpect.spawn[str]:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "80"}
    child = pexpect.spawn(
        sys.executable,
        ["-m", "cuckoo_rules.cli", *args],
        env=env,
        encoding="utf-8",
        timeout=TIMEOUT,
        dimensions=(24, 80),
    )
    child.delaybeforesend = None  # the default 50 ms per line makes a whole game slow
    return child


def play_to_the_end(child: pexpect.spawn[str]) -> None:
    """Type ``1`` at every decision until the game is over."""
    while child.expect([PROMPT, "Game over"]) == 0:
        child.sendline("1")


def test_whole_game_typed_by_numbers() -> None:
    child = spawn("play", "--players", "2", "--seed", "7", "--bots", "random")
    child.expect("Seed 7")
    play_to_the_end(child)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_bad_input_then_good_one() -> None:
    child = spawn("play", "--seed", "7", "--bots", "random")
    child.expect(PROMPT)
    child.sendline("x")
    child.expect("unknown action")
    child.expect(PROMPT)
    child.sendline("99")
    child.expect("no action 99")
    child.expect(PROMPT)
    child.sendline("lay flamingo 0 left")
    child.expect("is not legal now")
    child.expect(PROMPT)
    child.sendline("lay duck 0 left")
    child.expect("You lay 3 ducks on the left of row 0 and capture 1 robin and 1 magpie.")
    child.sendeof()
    child.expect("save to file")
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_ctrl_d_leaves_cleanly() -> None:
    child = spawn("play", "--seed", "3")
    child.expect(PROMPT)
    child.sendeof()
    child.expect("You leave the game")
    child.expect("save to file")
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "Traceback" not in (child.before or "")


def test_ctrl_c_leaves_without_traceback() -> None:
    child = spawn("play", "--seed", "3")
    child.expect(PROMPT)
    child.sendintr()
    child.expect("Interrupted")
    child.expect(pexpect.EOF)
    assert "Traceback" not in (child.before or "")
    child.close()
    assert child.exitstatus == 130


def test_save_then_replay(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    child = spawn("play", "--seed", "7", "--bots", "random", "--save", str(path))
    play_to_the_end(child)
    child.expect(f"Game saved to {path}")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    replay = spawn("replay", str(path), "--seat", "1")
    replay.expect("Move 0 of")
    replay.expect("Enter: next")
    replay.sendline("")
    replay.expect("Move 1 of")
    replay.expect("Enter: next")
    replay.sendline("b")
    replay.expect("Move 0 of")
    replay.expect("Enter: next")
    replay.sendline("q")
    replay.expect(pexpect.EOF)
    replay.close()
    assert replay.exitstatus == 0


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
    )
    child.expect(PROMPT)
    assert ("\x1b[" in (child.before or "")) is coloured
    child.sendeof()
    child.expect("save to file")
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()


def test_a_record_saved_by_the_previous_release_replays_to_its_end() -> None:
    # Saved by 'play --save' of cuckoo-rules 0.1 (format version 1): tests/data/legacy-v1.
    path = DATA / "legacy-v1" / "play-finished-3p.json"
    moves = len(json.loads(path.read_text())["actions"])
    replay = spawn("replay", str(path))
    seen = io.StringIO()
    replay.logfile_read = seen
    replay.expect(f"Move 0 of {moves}")
    for move in range(1, moves + 1):
        replay.expect("Enter: next")
        replay.sendline("")
        replay.expect(f"Move {move} of {moves}")
    replay.expect("Game over")
    replay.sendline("q")
    replay.expect(pexpect.EOF)
    replay.close()
    assert replay.exitstatus == 0
    # Its players are named "you", "greedy", "random": a spectator reads "P0", not "P0 you".
    assert "P0 lays" in seen.getvalue()
    assert "P0 you" not in seen.getvalue()
