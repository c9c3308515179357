"""The terminal's rough edges for a newcomer (issue 28): words, names, size, seed.

The move list puts the birds in the accusative after a verb; a replay of a record with
default names says "P0", not "P0 P0"; bot kinds are named in the screen's language; a
terminal smaller than 80x24 says so, a resize redraws at once, and the seed printed at
the start is shown again on the summaries and on leaving.
"""

from __future__ import annotations

import io
import re
import sys

import attrs
import pytest

import cuckoo_rules as cr
from cuckoo_rules.narration import PHRASES, cards_text, phrase, species_name
from cuckoo_rules.terminal import Console, describe_action, render_screen
from cuckoo_rules.terminal.replay import replay_interactive
from tests.frontends.test_play_pty import Term, play_game

TWO = cr.GameOptions(num_players=2)


def view_holding(species: cr.Species, count: int) -> cr.PlayerView:
    """Seat 0's first view of deal 7 (2 players), its hand made ``count`` of ``species``."""
    view = cr.observe(cr.new_game(TWO, 7), 0)
    hand = [0] * len(cr.SPECIES)
    hand[species.index] = count
    return attrs.evolve(view, hand=tuple(hand))


# --------------------------------------------------------------------------- the accusative


RUSSIAN_OBJECTS = {
    cr.Species.FLAMINGO: ("1 фламинго", "2 фламинго", "5 фламинго"),
    cr.Species.OWL: ("1 сову", "2 совы", "5 сов"),
    cr.Species.TOUCAN: ("1 тукана", "2 тукана", "5 туканов"),
    cr.Species.DUCK: ("1 утку", "2 утки", "5 уток"),
    cr.Species.PARROT: ("1 попугая", "2 попугая", "5 попугаев"),
    cr.Species.MAGPIE: ("1 сороку", "2 сороки", "5 сорок"),
    cr.Species.REED_WARBLER: ("1 камышовку", "2 камышовки", "5 камышовок"),
    cr.Species.ROBIN: ("1 малиновку", "2 малиновки", "5 малиновок"),
}


@pytest.mark.parametrize("species", cr.SPECIES, ids=lambda s: s.value)
def test_russian_lays_put_every_bird_in_the_accusative(species: cr.Species) -> None:
    for count, expected in zip((1, 2, 5), RUSSIAN_OBJECTS[species], strict=True):
        text = describe_action(
            cr.Lay(species, 1, cr.Side.RIGHT), view_holding(species, count), "ru"
        )
        assert text.startswith(f"выложить {expected} справа в ряд 1"), text
    for count in range(1, 22):  # every plural category, 11 to 14 and 21 included
        text = describe_action(cr.Lay(species, 1, cr.Side.LEFT), view_holding(species, count), "ru")
        birds = cards_text([species] * count, language="ru", obj=True)
        assert text.startswith(f"выложить {birds} слева"), text
        nominative = species_name(species, count, language="ru")
        if nominative != birds:
            assert not re.search(re.escape(nominative) + r"(?!\w)", text), text


@pytest.mark.parametrize("species", cr.SPECIES, ids=lambda s: s.value)
def test_german_lays_name_the_birds_as_the_object(species: cr.Species) -> None:
    for count in (1, 2, 7):
        text = describe_action(cr.Lay(species, 0, cr.Side.LEFT), view_holding(species, count), "de")
        birds = cards_text([species] * count, language="de", obj=True)
        assert text.startswith(f"{birds} links an Reihe 0 anlegen"), text


def test_the_move_list_reads_in_russian() -> None:
    view = cr.observe(cr.new_game(TWO, 7), 0)
    lines = [describe_action(action, view, "ru") for action in cr.legal_actions(view)]
    lays = [line for line in lines if line.startswith("выложить")]
    assert len(lays) == len(lines) == 40
    assert "выложить 1 сову слева в ряд 0, ничего не забирая" in lines
    assert "выложить 3 утки слева в ряд 0 и забрать 1 малиновку и 1 сороку" in lines
    nominatives = ("сова ", "утка ", "сорока ", "малиновка ")
    assert not [line for line in lays if any(word in line for word in nominatives)]


# --------------------------------------------------------------------------- names


def test_a_replay_of_default_names_says_each_seat_once() -> None:
    match = cr.Match(TWO, 3, [None, None])
    for _ in range(3):
        match.act(match.to_act or 0, cr.legal_actions(match.view(match.to_act or 0))[0])
    record = match.record()
    assert record.metadata.players == ("P0", "P1")
    out = io.StringIO()
    replay_interactive(record, None, Console(io.StringIO("\n\nq\n"), out))
    screens = out.getvalue()
    assert "P1 to" in screens or "P0 to" in screens
    assert not re.search(r"P(\d) P\1", screens), screens


@pytest.mark.parametrize(
    ("language", "greedy", "expert"),
    [("de", "P1 gierig", "P2 Experte"), ("ru", "P1 жадный", "P2 эксперт")],
)
def test_bot_kinds_are_named_in_the_screens_language(
    language: str, greedy: str, expert: str
) -> None:
    view = cr.observe(cr.new_game(cr.GameOptions(num_players=3), 7), 0)
    screen = "\n".join(
        render_screen(view, names=["human", "greedy:feed_weight=2", "expert"], language=language)
    )
    assert greedy in screen
    assert expert in screen
    assert "greedy" not in screen
    assert "expert" not in screen


def test_every_bot_kind_has_a_name_in_every_language() -> None:
    for language in ("en", "de", "ru"):
        for kind in cr.bots.BOT_KINDS:
            assert PHRASES[language][f"terminal.bot.{kind}"]


# --------------------------------------------------------------------------- a real terminal

pty = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty")


@pty
def test_a_small_terminal_says_so_and_a_resize_redraws_at_once() -> None:
    term = Term("play", "--seed", "7", "--bots", "greedy")
    term.expect([term.move])
    term.check_board(40)
    notice = phrase("terminal.too_small", "en", columns=60, lines=20, width=80, height=24)
    term.child.setwinsize(20, 60)  # no Enter: the resize alone redraws
    term.screen.resize(20, 60)
    term.expect([re.escape(notice[:40])])
    term.expect([term.move])
    lines = term.lines()
    assert lines[0] == notice, lines  # one line, within the window
    assert all(len(line) <= 60 for line in lines), lines
    term.child.setwinsize(24, 80)
    term.screen.resize(24, 80)
    term.expect([term.move])  # the whole board again, without the notice
    term.check_board(40)
    assert not any("The window is" in line for line in term.lines())
    term.send("q")
    term.expect([re.escape(phrase("terminal.save_ask", "en"))])
    term.send("")
    term.finish()


@pty
def test_the_random_seed_is_shown_again_on_leaving() -> None:
    term = Term("play", "--bots", "greedy")
    term.expect([term.move])
    found = re.search(r"Seed (\d+); you are player 0", term.seen.getvalue())
    assert found, term.seen.getvalue()
    seed = found[1]
    assert f"Seed {seed}" not in "\n".join(term.lines())  # the first screen wiped it
    term.send("q")
    term.expect([re.escape(phrase("terminal.save_ask", "en"))])
    assert f"Seed of this game: {seed}" in "\n".join(term.lines())
    term.send("")
    term.finish()


@pty
def test_the_seed_is_on_every_summary() -> None:
    term = Term("play", "--players", "2", "--seed", "7", "--bots", "greedy")
    seen: list[bool] = []

    def summary(term: Term) -> None:
        seen.append("Seed of this game: 7" in term.lines())

    play_game(term, lambda count: "1", on_summary=summary)
    assert seen
    assert all(seen)
    assert "Seed of this game: 7" in term.lines()  # the game-over summary
    term.send("")
    term.finish()
