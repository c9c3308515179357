"""Tests of the terminal front end: snapshots of rendered views, input handling, loops."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest

import cuckoo_rules as cr
from cuckoo_rules import terminal
from cuckoo_rules.terminal import Console, parse_choice, render_view

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
    assert "  17. lay duck 0 left          3 duck, captures 2: ROB MAG" in menu


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


def test_narration_is_redacted() -> None:
    drew = cr.Drew(1, 2, (cr.Species.OWL, cr.Species.DUCK))
    assert terminal.narrate([drew], 0) == ["P1 draws 2 cards."]
    assert terminal.narrate([drew], 1) == ["You draw 2 cards: owl duck."]
    over = cr.GameOver((1,), "most_cards")
    assert terminal.narrate([over], 0, ("a", "b")) == [
        "Game over: P1 b wins (the cards ran out; most cards in a collection)."
    ]


def test_a_single_card_drawn_is_singular() -> None:
    drew = cr.Drew(1, 1, (cr.Species.OWL,))
    assert terminal.narrate([drew], 0) == ["P1 draws 1 card."]
    assert terminal.narrate([drew], 1) == ["You draw 1 card: owl."]


def test_the_deal_is_narrated_in_the_viewers_person() -> None:
    dealt = cr.Dealt(2, 1, (8, 8, 8), (None, None, None))
    assert terminal.describe_event(dealt) == ["** Round 2: P1 deals 8 cards to each player."]
    assert terminal.describe_event(dealt, 0, ("you", "greedy", "random")) == [
        "** Round 2: P1 greedy deals 8 cards to each player."
    ]
    assert terminal.describe_event(dealt, 1) == ["** Round 2: You deal 8 cards to each player."]
    assert str(cr.HAND_SIZE) in terminal.describe_event(dealt)[0]


def test_a_deal_split_by_a_reshuffle_is_narrated_in_two_parts() -> None:
    first = cr.Dealt(2, 1, (0, 8, 4), (None, None, None))
    rest = cr.Dealt(2, 1, (8, 0, 4), (None, None, None))
    assert terminal.describe_event(first) == [
        "** Round 2: P1 deals 12 cards from this draw pile (0, 8, 4)."
    ]
    assert terminal.describe_event(rest, 1) == [
        "** Round 2: You deal 12 cards from this draw pile (8, 0, 4)."
    ]


def run_play(text: str, save: str | None = None) -> tuple[str, cr.GameRecord]:
    out = io.StringIO()
    players: list[cr.Bot | None] = [None, cr.make_bot("random", 1)]
    record = terminal.play_interactive(
        cr.GameOptions(num_players=2), 7, 0, players, Console(io.StringIO(text), out), save=save
    )
    return out.getvalue(), record


def test_whole_game_by_numbers() -> None:
    text, record = run_play("1\n" * 500)
    assert "Game over: you win" in text
    assert record.metadata.result is not None
    assert cr.final_state(record).winners == record.metadata.result.winners


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
        assert cr.load_record(source) == record


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


def test_round_end_gets_a_summary() -> None:
    out = io.StringIO()
    players: list[cr.Bot | None] = [None, cr.make_bot("random", 1), cr.make_bot("random", 2)]
    terminal.play_interactive(
        cr.GameOptions(num_players=3), 7, 0, players, Console(io.StringIO("1\n" * 600), out)
    )
    text = out.getvalue()
    assert "** Round 1 is over. Collections:" in text
    assert "Game over" in text
    assert all(len(line) <= 80 for line in text.splitlines() if "choice (" not in line)
