"""Tests of the terminal front end: snapshots of rendered views, input handling, loops."""

from __future__ import annotations

import io
import random
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

import cuckoo_rules as cr
from cuckoo_rules import terminal
from cuckoo_rules.narration import narrate
from cuckoo_rules.terminal import Console, parse_choice, render_view

from .conftest import HintSpy

START_2P_SEED_7 = """\
== Round 1, turn 1: you to lay =================================================
Draw pile 78, discard pile 2
  row 0: ROB MAG DUC
  row 1: REE MAG FLA
  row 2: MAG PAR DUC
  row 3: REE MAG PAR
Your hand (8): 1 OWL 1 TOU 3 DUC 2 MAG 1 REE
Collections (win: 7 species or 2 triples):
  you              hand  8   1/7 species 0/2 triples  1 card
      1 MAG
  P1               hand  8   1/7 species 0/2 triples  1 card
      1 PAR"""

MIDGAME_3P_SEAT_1 = """\
== Round 2, turn 21: P0 to draw ================================================
Draw pile 28, discard pile 16
  row 0: DUC DUC DUC PAR TOU TOU
  row 1: OWL ROB ROB DUC MAG MAG MAG MAG REE REE REE
  row 2: TOU TOU MAG ROB ROB
  row 3: PAR ROB ROB ROB ROB OWL DUC DUC MAG MAG MAG MAG
Your hand (7): 1 TOU 1 PAR 1 MAG 4 ROB
Collections (win: 7 species or 2 triples):
  P0 greedy        hand 10   3/7 species 0/2 triples  3 cards
      1 FLA 1 OWL 1 PAR
  you              hand  7   2/7 species 0/2 triples  2 cards
      1 FLA 1 PAR
  P2 ismcts        hand  9   1/7 species 0/2 triples  1 card
      1 MAG"""

MIDGAME_3P_SPECTATOR = """\
== Round 2, turn 21: P0 to draw ================================================
Draw pile 28, discard pile 16
  row 0: DUC DUC DUC PAR TOU TOU
  row 1: OWL ROB ROB DUC MAG MAG MAG MAG REE REE REE
  row 2: TOU TOU MAG ROB ROB
  row 3: PAR ROB ROB ROB ROB OWL DUC DUC MAG MAG MAG MAG
Collections (win: 7 species or 2 triples):
  P0               hand 10   3/7 species 0/2 triples  3 cards
      1 FLA 1 OWL 1 PAR
  P1               hand  7   2/7 species 0/2 triples  2 cards
      1 FLA 1 PAR
  P2               hand  9   1/7 species 0/2 triples  1 card
      1 MAG"""


def midgame() -> cr.GameState:
    state = cr.new_game(cr.GameOptions(num_players=3), 11)
    rng = random.Random(3)
    for _ in range(40):
        state = cr.apply(state, rng.choice(cr.legal_actions(state)))
    return state


def test_snapshot_start_of_game() -> None:
    view = cr.observe(cr.new_game(cr.GameOptions(num_players=2), 7), 0)
    assert "\n".join(render_view(view)) == START_2P_SEED_7


def test_snapshot_midgame_seat() -> None:
    view = cr.observe(midgame(), 1)
    assert "\n".join(render_view(view, names=("greedy", "you", "ismcts"))) == MIDGAME_3P_SEAT_1


def test_snapshot_midgame_spectator() -> None:
    assert "\n".join(render_view(cr.observe(midgame(), None))) == MIDGAME_3P_SPECTATOR


def test_colour_only_adds_escapes() -> None:
    view = cr.observe(midgame(), 1)
    coloured = "\n".join(render_view(view, color=True))
    assert "\x1b[" in coloured
    plain = coloured.replace("\x1b[0m", "")
    for code in terminal._COLORS.values():
        plain = plain.replace(f"\x1b[{code}m", "")
    assert plain == "\n".join(render_view(view))


def test_long_rows_are_run_length_encoded() -> None:
    row = (cr.Species.ROBIN,) * 16 + (cr.Species.MAGPIE,) * 2 + (cr.Species.OWL,)
    assert terminal._row_text(row, False) == "ROBx16 MAGx2 OWL"


def test_colour_respects_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert terminal.color_enabled(Tty())
    assert not terminal.color_enabled(Tty(), no_color=True)
    assert not terminal.color_enabled(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not terminal.color_enabled(Tty())


def test_menu_fits_80_columns_and_describes_captures() -> None:
    view = cr.observe(cr.new_game(cr.GameOptions(num_players=2), 7), 0)
    menu = terminal.action_menu(view)
    assert len(menu) == len(cr.legal_actions(view))
    assert all(len(line) <= 80 for line in menu)
    assert "  17. lay duck 0 left          3 ducks, captures 2: ROB MAG" in menu


def test_the_menu_says_where_a_flock_goes() -> None:
    # The first flock step of a random game: each fly line says what preview says.
    state = cr.new_game(cr.GameOptions(num_players=2), 3)
    rng = random.Random(1)
    lines: list[str] = []
    while not state.is_over and not lines:
        view = cr.observe(state, state.current_player)
        lines = [line for line in terminal.action_menu(view) if ". fly " in line]
        state = cr.apply(state, rng.choice(cr.legal_actions(state)))
    assert lines
    for line in lines:
        assert re.search(r"\. fly \w+ +\d+ [a-z ]+: [12] to collection, \d+ discarded$", line)
        assert len(line) <= 80


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x", "unknown action"),
        ("0", "no action 0"),
        ("99", "no action 99"),
        ("-1", "no action -1"),
        ("", "type a number"),
        ("lay flamingo 0 left", "is not legal now"),
    ],
)
def test_bad_choices_explain_why(text: str, message: str) -> None:
    actions = cr.legal_actions(cr.new_game(cr.GameOptions(num_players=2), 7))
    result = parse_choice(text, actions)
    assert isinstance(result, str)
    assert message in result


def test_good_choices() -> None:
    actions = cr.legal_actions(cr.new_game(cr.GameOptions(num_players=2), 7))
    assert parse_choice("1", actions) == actions[0]
    assert parse_choice(f" {len(actions)} ", actions) == actions[-1]
    assert parse_choice("LAY duck 0 l", actions) == cr.Lay(cr.Species.DUCK, 0, cr.Side.LEFT)


def test_what_happened_is_told_by_the_narration() -> None:
    events: list[cr.Event] = [
        cr.events.Laid(1, cr.Species.REED_WARBLER, 3, 2, cr.Side.RIGHT),
        cr.events.Captured(1, 2, (cr.Species.MAGPIE, cr.Species.MAGPIE, cr.Species.PARROT)),
        cr.events.Drew(0, 2, (cr.Species.OWL, cr.Species.DUCK)),
    ]
    out = io.StringIO()
    names = ("you", "ismcts:iterations=50")
    terminal._say_happened(Console(io.StringIO(), out), events, 0, names)
    assert out.getvalue().splitlines() == [
        "What happened:",
        "  P1 ismcts lays 3 reed warblers on the right of row 2 and captures 2 magpies",
        "    and 1 parrot.",
        "  You draw 2 cards: 1 owl and 1 duck.",
    ]
    assert narrate(events, 0, names=["", "ismcts"]) == [
        "P1 ismcts lays 3 reed warblers on the right of row 2 and captures 2 magpies and 1 parrot.",
        "You draw 2 cards: 1 owl and 1 duck.",
    ]


def test_a_seat_named_you_in_a_record_is_not_called_you_by_others() -> None:
    # Records saved by play --save of 0.1 name the human "you".
    laid = cr.events.Laid(0, cr.Species.DUCK, 3, 0, cr.Side.LEFT)
    out = io.StringIO()
    terminal._say_happened(Console(io.StringIO(), out), [laid], None, ("you", "greedy"))
    assert "  P0 lays 3 ducks on the left of row 0." in out.getvalue().splitlines()


def run_play(text: str, save: str | None = None) -> tuple[str, cr.GameRecord]:
    out = io.StringIO()
    players: list[cr.bots.Bot | None] = [None, cr.bots.make_bot("random", 1)]
    record = terminal.play_interactive(
        cr.GameOptions(num_players=2), 7, 0, players, Console(io.StringIO(text), out), save=save
    )
    return out.getvalue(), record


def test_whole_game_by_numbers() -> None:
    text, record = run_play("1\n" * 500)
    assert "Game over: you win" in text
    assert record.metadata.result is not None
    assert cr.records.final_state(record).winners == record.metadata.result.winners


def test_bad_input_then_good() -> None:
    text, record = run_play("x\n0\n99\nlay flamingo 0 left\n17\nq\n\n")
    for message in ("unknown action", "no action 0", "no action 99", "is not legal now"):
        assert message in text
    assert record.actions[0] == cr.Lay(cr.Species.DUCK, 0, cr.Side.LEFT)
    assert "You leave the game." in text


def test_end_of_input_leaves_and_skips_saving() -> None:
    text, record = run_play("")
    assert "You leave the game." in text
    assert "save to file?" in text
    assert record.actions == ()


def test_quit_offers_to_save(tmp_path: Path) -> None:
    path = f"{tmp_path}/game.json"
    text, record = run_play(f"17\nq\n{path}\n")
    assert f"Game saved to {path}" in text
    with open(path, encoding="utf-8") as source:
        assert cr.records.load_record(source) == record


@pytest.mark.parametrize("answer", ["n", "No", ""])
def test_quit_then_no_skips_saving(
    answer: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    text, _ = run_play(f"17\nq\n{answer}\n")
    assert "save to file?" in text
    assert "Game saved" not in text
    assert list(tmp_path.iterdir()) == []


def test_replay_steps_back_and_forth() -> None:
    _, record = run_play("1\n" * 500)
    out = io.StringIO()
    terminal.replay_interactive(record, None, Console(io.StringIO("\n\nb\nq\n"), out))
    moves = re.findall(r"-- Move (\d+) of (\d+)", out.getvalue())
    total = str(len(record.actions))
    assert moves == [(i, total) for i in ("0", "1", "2", "1")]
    assert "Your hand" not in out.getvalue()


def test_replay_tells_each_move_as_the_seat_saw_it() -> None:
    _, record = run_play("1\n" * 500)
    out = io.StringIO()
    terminal.replay_interactive(record, 1, Console(io.StringIO("\n" * 6 + "q\n"), out))
    steps = list(cr.records.replay_steps(record))
    for _, events in steps[1:7]:
        for line in narrate(cr.visible_events(events, 1), 1):
            assert line[:60] in out.getvalue()
    assert "Your hand" in out.getvalue()


def test_replay_refuses_an_illegal_record() -> None:
    _, record = run_play("1\n" * 500)
    bad = cr.GameRecord(record.options, record.seed, (*record.actions[:3], cr.Draw(), cr.Draw()))
    with pytest.raises(cr.RecordError, match=r"actions\[\d\] \(move \d, turn \d+\): "):
        terminal.replay_interactive(bad, None, Console(io.StringIO("q\n"), io.StringIO()))
    over = cr.GameRecord(record.options, record.seed, (*record.actions, cr.Pass()))
    with pytest.raises(cr.RecordError, match="the game is over"):
        terminal.replay_interactive(over, None, Console(io.StringIO("q\n"), io.StringIO()))


def test_round_end_gets_a_summary() -> None:
    out = io.StringIO()
    players: list[cr.bots.Bot | None] = [
        None,
        cr.bots.make_bot("random", 1),
        cr.bots.make_bot("random", 2),
    ]
    terminal.play_interactive(
        cr.GameOptions(num_players=3), 7, 0, players, Console(io.StringIO("1\n" * 600), out)
    )
    text = out.getvalue()
    assert "** Round 1 is over. Collections:" in text
    assert "Game over" in text
    assert all(len(line) <= 80 for line in text.splitlines() if "choice (" not in line)


# --------------------------------------------------------------------------- hints

HINT_BUDGET = 100  # simulations per hint in these tests: enough for the shape, and fast


def expert() -> ModuleType:
    """The expert's module, or a skip without the batch extra (NumPy and numba)."""
    module: ModuleType = pytest.importorskip("cuckoo_rules.bots.expert", reason="no batch extra")
    return module


def run_hints(text: str, seed: int = 7) -> tuple[list[str], cr.GameRecord]:
    out = io.StringIO()
    players: list[cr.bots.Bot | None] = [None, cr.bots.make_bot("random", 1)]
    record = terminal.play_interactive(
        cr.GameOptions(num_players=2),
        seed,
        0,
        players,
        Console(io.StringIO(text), out),
        hint_simulations=HINT_BUDGET,
    )
    return out.getvalue().splitlines(), record


def hinted(lines: list[str], view: cr.PlayerView) -> list[tuple[int, int, cr.Action]]:
    """The (percentage, number, action) of each move of the first hint in ``lines``."""
    header = (
        f"Hint (expert, {HINT_BUDGET} simulations): estimated chance of winning after each move"
    )
    start = next(i for i, line in enumerate(lines) if line.endswith(header))
    end = lines.index("Type a move's number (or its notation) to play it.", start)
    legal = cr.legal_actions(view)
    moves = []
    for line in lines[start + 1 : end]:
        assert len(line) <= 80
        found = re.fullmatch(r"  +(\d+)%  +(\d+)\. (.+)", line)
        assert found, line
        percent, number = int(found[1]), int(found[2])
        assert 0 <= percent <= 100
        assert 1 <= number <= len(legal)
        action = legal[number - 1]
        # The move as the move list shows it: its number there, notation and effect.
        shown = f"{cr.notation.format_action(action):<24} {terminal.describe_action(action, view)}"
        assert line == terminal._fit(f"  {percent:>3}%  {number:>2}. {shown}")
        moves.append((percent, number, action))
    assert len(moves) == min(3, len(legal))
    return moves


def test_hint_prints_the_experts_three_best_moves_with_percentages(hint_spy: HintSpy) -> None:
    calls, real_hint = hint_spy.calls, hint_spy.real
    # Two hints at the first decision: one search, printed twice.
    lines, _ = run_hints("hint\nh\nq\n\n")
    match = cr.Match(cr.GameOptions(num_players=2), 7, [None, None])
    view, knowledge = match.view(0), match.knowledge(0)
    moves = hinted(lines, view)
    assert len(moves) == 3
    assert len({action for _, _, action in moves}) == 3
    expected = real_hint(view, knowledge, top=3, simulations=HINT_BUDGET)
    assert [action for _, _, action in moves] == [estimate.action for estimate in expected]
    assert [f"{percent}%" for percent, _, _ in moves] == [
        f"{estimate.win_chance:.0%}" for estimate in expected
    ]
    # The search saw the seat's view and what its history proves, once for the decision.
    assert calls == [((view, knowledge), {"top": 3, "simulations": HINT_BUDGET})]
    prompt = "choice (1-40, notation, hint, or q to quit)> "
    answers = [line.removeprefix(prompt) for line in lines if line.startswith(prompt)]
    hint_header = "Hint (expert, 100 simulations)"
    assert [line.partition(":")[0] for line in answers] == [hint_header] * 2 + [
        "You leave the game."
    ]


def test_a_hinted_move_is_played_by_its_number_later_in_the_game() -> None:
    expert()
    # Eleven decisions in (a lay), so the knowledge is the history's, not the setup's.
    lines, record = run_hints("1\n" * 11 + "hint\nq\n\n")
    match = cr.Match.from_record(record, [None, None])
    view = match.view(0)
    assert match.knowledge(0) != cr.Knowledge.at_setup(cr.new_game(record.options, 7))
    moves = hinted(lines, view)
    assert len(moves) == 3
    _, number, action = moves[0]
    _, again = run_hints("1\n" * 11 + f"hint\n{number}\nq\n\n")
    assert again.actions[: len(record.actions)] == record.actions
    assert again.actions[len(record.actions)] == action


def test_hint_without_the_batch_extra_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "cuckoo_rules.bots.expert", None)  # as if not installed
    lines, record = run_hints("hint\n17\nq\n\n")
    assert (
        "No hint: the expert needs the batch extra (NumPy and numba): "
        "pip install 'cuckoo-rules[batch]'"
    ) in [line.partition("> ")[2] for line in lines]
    assert record.actions[0] == cr.Lay(cr.Species.DUCK, 0, cr.Side.LEFT)  # the game goes on


@pytest.mark.parametrize("budget", [0, -1, 2.5, True])
def test_a_bad_hint_budget_is_refused(budget: object) -> None:
    with pytest.raises(cr.bots.BotError, match="hint_simulations: expected a positive integer"):
        terminal.play_interactive(
            cr.GameOptions(num_players=2),
            7,
            0,
            [None, cr.bots.make_bot("random", 1)],
            Console(io.StringIO(""), io.StringIO()),
            hint_simulations=budget,  # type: ignore[arg-type]
        )
