"""Tests of the terminal front end: the screen, the move list, input, summaries, loops."""

# ruff: noqa: RUF001

from __future__ import annotations

import io
import itertools
import os
import random
import re
import string
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

import cuckoo_rules as cr
from cuckoo_rules import board, terminal
from cuckoo_rules._phrases.terminal import PHRASES as TERMINAL_PHRASES
from cuckoo_rules.narration import LANGUAGES, PHRASES, narrate, phrase, species_name
from cuckoo_rules.records import Metadata
from cuckoo_rules.terminal import (
    Console,
    compact_moves,
    parse_choice,
    render_screen,
    render_view,
    visible_width,
)
from tests.conftest import HintSpy

START_2P_SEED_7 = """\
Round 1 · turn 1 · you to lay · draw pile 78 · discard pile 2
row 0: ROB MAG DUC
row 1: REE MAG FLA
row 2: MAG PAR DUC
row 3: REE MAG PAR
Your hand (8): OWL×1 (3/4)  TOU×1 (3/4)  DUC×3 (4/6)  MAG×2 (5/7)  REE×1 (6/9)
     hand  species  triples  collection
you     8      1/7      0/2  MAG
P1      8      1/7      0/2  PAR"""

MIDGAME_3P_SEAT_1 = """\
Round 2 · turn 21 · P0 greedy to draw · draw pile 28 · discard pile 16
row 0: DUC DUC DUC PAR TOU TOU
row 1: OWL ROB ROB DUC MAG MAG MAG MAG REE REE REE
row 2: TOU TOU MAG ROB ROB
row 3: PAR ROB ROB ROB ROB OWL DUC DUC MAG MAG MAG MAG
Your hand (7): TOU×1 (3/4)  PAR×1 (4/6)  MAG×1 (5/7)  ROB×4 (6/9)
           hand  species  triples  collection   known in hand
P0 greedy    10      3/7      0/2  FLA OWL PAR  FLA REE×4
you           7      2/7      0/2  FLA PAR
P2 ismcts     9      1/7      0/2  MAG"""

MIDGAME_3P_SPECTATOR = """\
Round 2 · turn 21 · P0 to draw · draw pile 28 · discard pile 16
row 0: DUC DUC DUC PAR TOU TOU
row 1: OWL ROB ROB DUC MAG MAG MAG MAG REE REE REE
row 2: TOU TOU MAG ROB ROB
row 3: PAR ROB ROB ROB ROB OWL DUC DUC MAG MAG MAG MAG
    hand  species  triples  collection   known in hand
P0    10      3/7      0/2  FLA OWL PAR  FLA REE×4
P1     7      2/7      0/2  FLA PAR
P2     9      1/7      0/2  MAG"""


def midgame() -> cr.GameState:
    state = cr.new_game(cr.GameOptions(num_players=3), 11)
    rng = random.Random(3)
    for _ in range(40):
        state = cr.apply(state, rng.choice(cr.legal_actions(state)))
    return state


def positions(players: int, seed: int, every: int = 1) -> Iterator[cr.Match]:
    """A random game on a Match, stopped at every ``every``-th decision."""
    match = cr.Match(cr.GameOptions(num_players=players), seed, [None] * players)
    rng = random.Random(seed)
    for step in itertools.count():
        if match.is_over:
            return
        if step % every == 0:
            yield match
        seat = match.to_act
        assert seat is not None
        match.act(seat, rng.choice(match.legal_actions(seat)))


def plain(line: str) -> str:
    return re.sub(r"\x1b\[[0-9;]*m", "", line)


# --------------------------------------------------------------------------- the board


def test_snapshot_start_of_game() -> None:
    view = cr.observe(cr.new_game(cr.GameOptions(num_players=2), 7), 0)
    assert "\n".join(render_view(view)) == START_2P_SEED_7


def test_snapshot_midgame_seat() -> None:
    view = cr.observe(midgame(), 1)
    board = render_view(view, names=("greedy", "human", "ismcts:iterations=50"))
    assert "\n".join(board) == MIDGAME_3P_SEAT_1


def test_snapshot_midgame_spectator() -> None:
    assert "\n".join(render_view(cr.observe(midgame(), None))) == MIDGAME_3P_SPECTATOR


def test_colour_only_adds_escapes() -> None:
    view = cr.observe(midgame(), 1)
    coloured = "\n".join(render_screen(view, color=True, log=["Something happened."]))
    assert "\x1b[" in coloured
    assert plain(coloured) == "\n".join(render_screen(view, log=["Something happened."]))


def test_species_styles_are_distinct_and_the_letters_too() -> None:
    styles = list(board.SPECIES_STYLES.values())
    assert len(set(styles)) == len(styles)
    # The pairs that were confused share no colour code.
    for a, b in [(cr.Species.PARROT, cr.Species.ROBIN), (cr.Species.TOUCAN, cr.Species.OWL)]:
        assert board.SPECIES_STYLES[a] != board.SPECIES_STYLES[b]
    for language in LANGUAGES:
        letters = [terminal.abbreviation(s, language) for s in cr.SPECIES]
        assert len(set(letters)) == 8
        assert all(len(text) == 3 for text in letters)
    assert [terminal.abbreviation(s) for s in cr.SPECIES] == list(terminal.ABBREVIATIONS.values())


def test_long_rows_are_run_length_encoded() -> None:
    row = (cr.Species.ROBIN,) * 16 + (cr.Species.MAGPIE,) * 2 + (cr.Species.OWL,)
    assert board.row_line(2, row) == "row 2: ROB×16 MAG×2 OWL"


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


def test_the_hand_shows_each_species_flock_sizes_and_what_flies_home() -> None:
    view = cr.observe(cr.new_game(cr.GameOptions(num_players=2), 7), 0)
    hand = next(line for line in render_view(view) if line.startswith("Your hand"))
    assert "DUC×3 (4/6)" in hand  # 3 ducks: a small flock is 4, a big one 6
    found = 0
    for match in positions(3, 5, every=3):
        seat = match.to_act
        assert seat is not None
        view = match.view(seat)
        assert view.hand is not None
        line = next(line for line in render_view(view) if line.startswith("Your hand"))
        for species in cr.SPECIES:
            held = view.hand[species.index]
            entry = re.search(
                rf"{terminal.ABBREVIATIONS[species]}×(\d+)( \(?\d/\d)?( ?✓(\d))?", line
            )
            assert (entry is not None) == (held > 0), line
            if entry is None:
                continue
            assert int(entry[1]) == held
            home = cr.preview.birds_home(species, held)
            assert (entry[4] is not None and int(entry[4])) == (home or False), line
            found += home > 0
    assert found > 5


def player_texts(board: list[str], players: int) -> list[str]:
    """Each player's line of the board, a continuation line joined to it."""
    rows: list[str] = []
    for line in board[-(2 * players) :]:
        if line.startswith(" ") and rows:
            rows[-1] += " " + line.strip()
        elif not line.startswith(" "):
            rows.append(line)
    return rows[-players:]


def test_known_cards_and_provable_absences_appear() -> None:
    shown_known = shown_none = 0
    for match in positions(3, 9, every=2):
        viewer = match.to_act
        assert viewer is not None
        view, knowledge = match.view(viewer), match.knowledge(viewer)
        rows = player_texts(render_view(view, knowledge=knowledge), view.num_players)
        for seat, line in enumerate(rows):
            if seat == viewer:
                continue
            known = view.known_hands[seat]
            tokens = [
                terminal.ABBREVIATIONS[s] + (f"×{known[s.index]}" if known[s.index] > 1 else "")
                for s in cr.SPECIES
                if known[s.index]
            ]
            none = [
                terminal.ABBREVIATIONS[s]
                for s in cr.SPECIES
                if knowledge.hidden_limits[seat][s.index] == 0 and not known[s.index]
            ]
            parts = [" ".join(tokens)] if tokens else []
            if none and view.hand_sizes[seat]:
                parts.append("no " + " ".join(none))
                shown_none += 1
            shown_known += bool(tokens)
            collection = board.counts_label(view.collections[seat], False, "en")
            head = line.partition(f"  {collection}")[0] + f"  {collection}"
            assert line.startswith(head)
            told = line.removeprefix(head).strip()
            assert told == ", ".join(parts), line
    assert shown_known > 10
    assert shown_none > 10


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_screen_fits_80_by_24(players: int, language: str) -> None:
    long_message = "Why not: " + "a reason that goes on " * 8
    checked = 0
    for seed in range(2):
        log: list[str] = []
        for match in positions(players, 100 * players + seed, every=3):
            seat = match.to_act
            assert seat is not None
            view = match.view(seat)
            log += narrate(match.events(seat)[-6:], seat, language=language)
            for message in ((), (long_message,), ("a", "b", "c", "d", "e")):
                screen = render_screen(
                    view,
                    names=["human", "greedy", "ismcts:iterations=50", "random", "expert"][:players],
                    knowledge=match.knowledge(seat),
                    log=log,
                    message=message,
                    color=seed == 1,
                    language=language,
                )
                assert len(screen) <= 23
                assert all(visible_width(line) <= 80 for line in screen), screen
                text = [plain(line) for line in screen]
                # The rows and the hand are always on the screen, and every move.
                for row in range(4):
                    assert any(
                        line.startswith(phrase("terminal.row", language, row=row)) for line in text
                    )
                assert (
                    sum(
                        line.startswith(
                            phrase("terminal.hand", language, count=sum(view.hand or ())).partition(
                                "("
                            )[0]
                        )
                        for line in text
                    )
                    == 1
                )
                assert compact_moves(view, language=language, compact=True)[0] in text or (
                    compact_moves(view, language=language)[0] in text
                )
                checked += 1
    assert checked > 100


def test_narration_is_wrapped_never_cut() -> None:
    sentences = [
        "P1 greedy lays 3 reed warblers on the right of row 2 and captures 2 magpies, 1 "
        "parrot, 4 robins and 2 ducks.",
        "You draw 2 cards: 1 owl and 1 duck.",
    ]
    view = cr.observe(cr.new_game(cr.GameOptions(num_players=2), 7), 0)
    screen = render_screen(view, log=sentences)
    told = [line.removeprefix("│ ") for line in screen if line.startswith("│ ")]
    assert " ".join(told) == " ".join(sentences)
    # A sentence that does not fit whole is left out, not cut.
    small = render_screen(view, log=sentences, height=17)
    assert [line for line in small if line.startswith("│ ")] == ["│ " + sentences[1]]


# --------------------------------------------------------------------------- the move list


def move_numbers(lines: list[str]) -> list[int]:
    return [int(n) for line in lines for n in re.findall(r"(?:^|\s)(\d+):", plain(line))]


@pytest.mark.parametrize("players", [2, 5])
def test_the_compact_list_has_every_legal_action_once_in_canonical_order(players: int) -> None:
    checked = 0
    for match in positions(players, 41 + players):
        seat = match.to_act
        assert seat is not None
        view = match.view(seat)
        actions = cr.legal_actions(view)
        for compact in (False, True):
            lines = compact_moves(view, compact=compact)
            assert sorted(move_numbers(lines)) == list(range(1, len(actions) + 1))
            assert all(visible_width(line) <= 80 for line in lines)
            for line in lines:
                label = line[:3]
                for number, row, side, taken in re.findall(r"(\d+):(\d)([LR])(\+\S+)?", line):
                    action = actions[int(number) - 1]
                    assert isinstance(action, cr.Lay)
                    assert terminal.ABBREVIATIONS[action.species] == label
                    assert (action.row, action.side.value[0].upper()) == (int(row), side)
                    captured = cr.preview.preview(view, action).captured
                    assert bool(taken) == bool(captured)
                    if taken and not taken[1:].isdigit():
                        runs = [(s, len(list(g))) for s, g in itertools.groupby(captured)]
                        expected = ",".join(
                            (str(n) if n > 1 else "") + terminal.ABBREVIATIONS[s] for s, n in runs
                        )
                        assert taken == "+" + expected
                    elif taken:
                        assert int(taken[1:]) == len(captured)
            checked += 1
    assert checked > 50


def test_the_compact_list_groups_lays_and_tells_the_other_choices() -> None:
    view = cr.observe(cr.new_game(cr.GameOptions(num_players=2), 7), 0)
    lines = compact_moves(view)
    assert lines[2] == "DUC  17:0L+ROB,MAG  18:0R  19:1L  20:1R  21:2L+MAG,PAR  22:2R  23:3L  24:3R"
    after = cr.Match(cr.GameOptions(num_players=2), 7, [None, None])
    after.act(0, cr.Lay(cr.Species.OWL, 3, cr.Side.RIGHT))  # captures nothing: draw or not
    assert compact_moves(after.view(0)) == ["1: draw 2 cards    2: do not draw"]
    assert compact_moves(after.view(1)) == []


def test_a_flock_is_told_in_natural_words() -> None:
    state = cr.new_game(cr.GameOptions(num_players=2), 3)
    rng = random.Random(1)
    lines: list[str] = []
    while not state.is_over and not lines:
        view = cr.observe(state, state.current_player)
        if view.phase is cr.Phase.FLOCK:
            lines = [line for line in compact_moves(view) if " home: " in line]
        state = cr.apply(state, rng.choice(cr.legal_actions(state)))
    assert lines
    for line in lines:
        found = re.fullmatch(
            r"\d+: fly (\d+) ([a-z ]+) home: ([12]) to your collection, (\d+) discarded", line
        )
        assert found, line
        assert int(found[1]) == int(found[3]) + int(found[4])
        assert "_" not in line
        assert "keep" not in line


def test_the_full_list_describes_every_move() -> None:
    view = cr.observe(cr.new_game(cr.GameOptions(num_players=2), 7), 0)
    lines = terminal.full_moves(view)
    assert len(lines) == len(cr.legal_actions(view))
    assert "17. lay 3 ducks on the left of row 0, capturing 1 robin and 1 magpie" in lines
    assert " 8. lay 1 owl on the right of row 3, capturing nothing" in lines
    assert all(len(line) <= 80 for line in lines)


# --------------------------------------------------------------------------- input


def engine_reason(state: cr.GameState, action: cr.Action) -> str:
    with pytest.raises(cr.IllegalActionError) as error:
        cr.apply(state, action)
    return str(error.value).partition(": ")[2]


def test_illegal_reasons_are_the_engines() -> None:
    every = [cr.action_from_id(i) for i in range(cr.actions.NUM_DISTINCT_ACTIONS)]
    seen: set[str] = set()
    for match in positions(3, 2, every=3):
        state = match.state
        view = match.view(state.current_player)
        legal = set(cr.legal_actions(view))
        for action in every:
            if action in legal:
                continue
            ours, theirs = terminal.illegal_reason(view, action), engine_reason(state, action)
            p = state.current_player
            if "holds no" in theirs:
                assert isinstance(action, cr.Lay)
                assert theirs.endswith(f"player {p} holds no {action.species.value}")
                assert ours == f"you hold no {species_name(action.species)}"
            elif "a turn starts by laying birds" in theirs:
                assert ours.startswith("a turn starts by laying birds")
            elif "Draw() or Pass()" in theirs:
                assert ours.startswith("after a lay that took no cards")
            elif "needs" in theirs:
                assert isinstance(action, cr.FlyHome)
                held = view.hand[action.species.index] if view.hand else 0
                small = action.species.small_flock
                assert theirs.endswith(f"needs {small} cards, player {p} holds {held}")
                assert ours.endswith(f"a flock needs {small} birds, you hold {held}")
            else:
                assert "fly a flock home or Pass()" in theirs
                assert ours == "now you may fly one flock home, or pass"
            seen.add(ours.split()[0])
    assert len(seen) >= 4


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x", '"x" is not a move: type its number from 1 to 40'),
        ("0", "There is no move 0: type a number from 1 to 40."),
        ("99", "There is no move 99: type a number from 1 to 40."),
        ("-1", "There is no move -1"),
        ("", "Type a move's number from 1 to 40"),
        ("lay flamingo 0 left", "lay flamingo 0 left: you hold no flamingo."),
        ("draw", "draw: a turn starts by laying birds"),
        ("lay owl 5 left", "There is no row 5: the rows are 0 to 3."),
        ("lay reed warbler 4 r", "There is no row 4: the rows are 0 to 3."),
        ("lay owl 9 sideways", '"lay owl 9 sideways" is not a move'),
    ],
)
def test_bad_choices_explain_why(text: str, message: str) -> None:
    view = cr.observe(cr.new_game(cr.GameOptions(num_players=2), 7), 0)
    result = parse_choice(text, view)
    assert isinstance(result, str)
    assert message in result
    assert "pass" not in result  # pass is not legal here: never suggested


def test_a_wrong_number_suggests_only_legal_moves() -> None:
    match = cr.Match(cr.GameOptions(num_players=2), 7, [None, None])
    match.act(0, cr.Lay(cr.Species.OWL, 3, cr.Side.RIGHT))
    assert parse_choice("99", match.view(0)) == "There is no move 99: type a number from 1 to 2."
    assert parse_choice("lay owl 0 left", match.view(0)) == (
        "lay owl 0 left: after a lay that took no cards the choice is to draw 2 cards or not."
    )


def test_good_choices() -> None:
    view = cr.observe(cr.new_game(cr.GameOptions(num_players=2), 7), 0)
    actions = cr.legal_actions(view)
    assert parse_choice("1", view) == actions[0]
    assert parse_choice(f" {len(actions)} ", view) == actions[-1]
    assert parse_choice("LAY duck 0 l", view) == cr.Lay(cr.Species.DUCK, 0, cr.Side.LEFT)


@pytest.mark.parametrize("language", ["de", "ru"])
def test_reasons_and_messages_in_other_languages(language: str) -> None:
    view = cr.observe(cr.new_game(cr.GameOptions(num_players=2), 7), 0)
    reason = parse_choice("lay flamingo 0 left", view, language)
    assert isinstance(reason, str)
    assert species_name(cr.Species.FLAMINGO, language=language) in reason
    assert "hold" not in reason
    assert "40" in str(parse_choice("99", view, language))
    assert parse_choice("lay owl 5 left", view, language) == phrase(
        "terminal.no_such_row", language, row=5, last=3
    )


# --------------------------------------------------------------------------- phrases


def english_words() -> set[str]:
    """The words of the terminal's English phrases (for the spot checks of other languages)."""
    words: set[str] = set()
    for key, text in TERMINAL_PHRASES["en"].items():
        if key.startswith(("terminal.abbr.", "terminal.help")):
            continue
        plain_text = re.sub(r"\{[^}]*\}", " ", text)
        words |= set(re.findall(r"[A-Za-z]{4,}", plain_text))
    return words


def test_every_terminal_phrase_is_in_every_language_with_the_same_fields() -> None:
    formatter = string.Formatter()

    def fields(text: str) -> set[str]:
        return {name for _, name, _, _ in formatter.parse(text) if name}

    english = {k: v for k, v in PHRASES["en"].items() if k.startswith("terminal.")}
    assert english
    for language in LANGUAGES:
        table = PHRASES[language]
        for key, text in english.items():
            base, _, category = key.partition("#")
            if category:
                forms = [k for k in table if k.startswith(base + "#")]
                assert forms, (language, key)
                assert all(fields(table[k]) == fields(text) for k in forms), (language, key)
            else:
                assert key in table, (language, key)
                assert fields(table[key]) == fields(text), (language, key)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_help_fits_one_screen(language: str) -> None:
    lines = terminal.help_lines(language, color=True)
    assert len(lines) <= 23
    assert all(visible_width(line) <= 80 for line in lines)
    text = plain("\n".join(lines))
    for species in cr.SPECIES:
        assert (
            f"{terminal.abbreviation(species, language)} {species_name(species, language=language)}"
            in text
        )


@pytest.mark.parametrize("language", ["de", "ru"])
def test_screens_in_other_languages_have_no_english_words(language: str) -> None:
    own = {
        word
        for text in TERMINAL_PHRASES[language].values()
        for word in re.findall(r"[A-Za-z]+", re.sub(r"\{[^}]*\}", " ", text))
    }
    english = english_words() - own
    assert {"Round", "hand", "species", "collection", "Move", "quit"} <= english
    match = cr.Match(cr.GameOptions(num_players=3), 4, [None] * 3)
    rng = random.Random(4)
    screens = 0
    while not match.is_over:
        seat = match.to_act
        assert seat is not None
        view = match.view(seat)
        screen = render_screen(view, knowledge=match.knowledge(seat), language=language)
        screen.append(phrase("terminal.prompt", language, count=len(cr.legal_actions(view))))
        shown = match.event_count
        match.act(seat, rng.choice(match.legal_actions(seat)))
        new = match.events(seat, shown)
        if any(isinstance(e, cr.events.RoundEnded) for e in new) and not match.is_over:
            screen += terminal.round_summary(new, match.view(seat), language=language)
        words = {w for line in screen for w in re.findall(r"[A-Za-z]+", line)}
        assert not words & english, (words & english, screen)
        screens += 1
    over = terminal.game_over_summary((), match.view(0), language=language)
    assert not {w for line in over[2:] for w in re.findall(r"[A-Za-z]+", line)} & english
    assert screens > 30


# --------------------------------------------------------------------------- summaries


def test_the_round_summary_says_who_ended_it_what_was_discarded_and_who_deals() -> None:
    match = cr.Match(cr.GameOptions(num_players=3), 7, [None] * 3)
    rng = random.Random(7)
    while True:
        seat = match.to_act
        assert seat is not None
        shown, hands = match.event_count, match.state.hands  # the others' hands stay as they are
        match.act(seat, rng.choice(match.legal_actions(seat)))
        ended = [e for e in match.events(None, shown) if isinstance(e, cr.events.RoundEnded)]
        if ended:
            break
    (event,) = ended
    viewer = (event.player + 1) % 3
    seen = match.events(viewer, shown)
    lines = terminal.round_summary(seen, match.view(viewer))
    assert lines[0].startswith(f"== Round {event.round} is over ==")
    assert lines[1] == f"P{event.player} emptied their hand and so ended the round."
    (own,) = (e for e in seen if isinstance(e, cr.events.RoundEnded))
    assert isinstance(own, cr.events.RoundEnded)
    for seat in range(3):
        name = "you" if seat == viewer else f"P{seat}"
        line = next(line for line in lines if line.startswith(f"  {name} "))
        size = event.hand_sizes[seat]
        if seat == viewer:
            hand = own.hands[seat]
            assert hand is not None
            cards = (
                f"{size} card{'s' if size != 1 else ''}: {board.counts_label(hand, False, 'en')}"
            )
            assert not size or line.endswith(cards)
        elif seat == event.player:
            assert line.endswith("no cards")
        elif any(event.known_hands[seat]):
            assert (
                "known among them: " + board.counts_label(event.known_hands[seat], False, "en")
                in line
            )
        else:
            assert line.endswith("unseen")
        # What the viewer did not see stays hidden: only the public part is told.
        if seat not in (viewer, event.player):
            hidden = [
                s for s in cr.SPECIES if hands[seat][s.index] > event.known_hands[seat][s.index]
            ]
            told = line.partition(": ")[2]
            for species in hidden:
                count = event.known_hands[seat][species.index]
                token = terminal.ABBREVIATIONS[species] + (f"×{count}" if count > 1 else "")
                assert (token in told.split()) == (count > 0)
    dealer = match.view(viewer).dealer
    assert lines[-1] == (
        f"Round {event.round + 1}. Dealer: {'you' if dealer == viewer else f'P{dealer}'}; "
        f"first turn: {'you' if match.to_act == viewer else f'P{match.to_act}'}."
    )


def test_the_game_over_summary_tells_why_and_the_standings() -> None:
    match = cr.Match(cr.GameOptions(num_players=3), 7, [None] * 3)
    rng = random.Random(7)
    while not match.is_over:
        seat = match.to_act
        assert seat is not None
        match.act(seat, rng.choice(match.legal_actions(seat)))
    outcome = match.outcome
    assert outcome is not None
    lines = terminal.game_over_summary(match.events(0), match.view(0))
    assert lines[0].startswith("== Game over ==")
    said = cr.narration.describe_event(cr.events.GameOver(outcome.winners, outcome.reason), 0)
    assert said is not None
    assert " ".join(lines[1:3]).startswith(said[:60])
    standings = [line for line in lines if re.match(r"[★ ] ", line)]
    assert len(standings) == 3
    assert all(
        line.startswith("★") == (i < len(outcome.winners)) for i, line in enumerate(standings)
    )
    assert (
        lines[-1]
        == f"The game lasted {match.view(0).turn} turns over {match.view(0).round} rounds."
    )
    with pytest.raises(ValueError, match="not over"):
        terminal.game_over_summary((), cr.observe(cr.new_game(cr.GameOptions(num_players=2), 1), 0))


# --------------------------------------------------------------------------- the loops


def run_play(
    text: str, save: str | None = None, *, players: int = 2, language: str = "en"
) -> tuple[str, cr.GameRecord]:
    out = io.StringIO()
    seats: list[cr.bots.Bot | None] = [None] + [
        cr.bots.make_bot("random", k) for k in range(1, players)
    ]
    names = ["human"] + ["random"] * (players - 1)
    record = terminal.play_interactive(
        cr.GameOptions(num_players=players),
        7,
        0,
        seats,
        Console(io.StringIO(text), out, language=language),
        names=names,
        save=save,
    )
    return out.getvalue(), record


def screens_of(text: str, prompt: str = "Move 1-") -> list[list[str]]:
    """The screens before each move prompt (a non-terminal prints them one after the other).

    Every prompt ends its line (the input, not echoed, is followed by a new line).
    """
    screens: list[list[str]] = []
    screen: list[str] = []
    for line in text.splitlines():
        if line.endswith(("> ", "Press Enter to continue ")):
            if line.startswith(prompt):
                screens.append(screen)
            screen = []
        else:
            screen.append(line)
    return screens


def test_whole_game_by_numbers() -> None:
    text, record = run_play("1\n" * 500)
    assert "== Game over ==" in text
    assert "Game over: you win" in text
    assert text.rstrip().endswith("Press Enter to finish")
    assert record.metadata.result is not None
    assert cr.records.final_state(record).winners == record.metadata.result.winners
    for screen in screens_of(text):
        assert len(screen) <= 23
        assert all(visible_width(line) <= 80 for line in screen)


def test_a_round_end_stops_on_a_summary() -> None:
    text, _ = run_play("1\n" * 800, players=3)
    assert "== Round 1 is over ==" in text
    summary = text[text.index("== Round 1 is over ==") :]
    assert summary.index("Press Enter to continue") < summary.index("Move 1-")
    assert "Discarded from the hands:" in summary


def test_bad_input_then_good() -> None:
    text, record = run_play("x\n0\n99\nlay flamingo 0 left\n17\nq\n\n")
    for message in (
        '"x" is not a move',
        "There is no move 0",
        "There is no move 99",
        "lay flamingo 0 left: you hold no flamingo.",
    ):
        assert message in text
    assert record.actions[0] == cr.Lay(cr.Species.DUCK, 0, cr.Side.LEFT)
    assert "You leave the game." in text


def test_help_list_and_log_pages() -> None:
    text, record = run_play("help\n\nm\n\n\nlog\n\nm\n17\nq\n\n")
    assert "The rules in short" in text
    assert "Every move (1-22 of 40), as numbered on the board:" in text
    assert "Every move (23-40 of 40), as numbered on the board:" in text
    assert "What happened lately (newest last):" in text
    assert record.actions[0] == cr.Lay(cr.Species.DUCK, 0, cr.Side.LEFT)  # 17 from the list
    assert text.count("Every move (1-22 of 40)") == 2


def test_without_names_the_seats_are_named_as_the_match_names_them() -> None:
    out = io.StringIO()
    seats: list[cr.bots.Bot | None] = [None, cr.bots.make_bot("random", 1)]
    terminal.play_interactive(
        cr.GameOptions(num_players=2), 7, 0, seats, Console(io.StringIO("1\n" * 500), out)
    )
    text = out.getvalue()
    first = screens_of(text)[0]
    assert any(line.startswith("│ The game starts: you deal 8 cards") for line in first)  # event 0
    assert "P1 RandomBot lays" in text
    assert not re.search(r"P1 (lays|draws|flies)", text)


def test_b_at_the_board_draws_the_board_again() -> None:
    text, record = run_play("b\nm\nb\nb\n17\nq\n\n")
    screens = screens_of(text)
    # The board; again after b, after the list left with b, after b; then after 17.
    assert len(screens) == 5
    assert screens[0] == screens[1] == screens[2] == screens[3] != screens[4]
    assert "is not a move" not in text
    assert record.actions[0] == cr.Lay(cr.Species.DUCK, 0, cr.Side.LEFT)


def test_end_of_input_leaves_and_skips_saving() -> None:
    text, record = run_play("")
    assert "You leave the game." in text
    assert "Save the game to a file?" in text
    assert record.actions == ()


class Interrupting(io.StringIO):
    """Input that gives its lines, then raises ``error`` (Ctrl-C, a closed terminal)."""

    def __init__(self, text: str, error: BaseException) -> None:
        super().__init__(text)
        self.error = error

    def readline(self, size: int = -1, /) -> str:  # type: ignore[override]
        line = super().readline(size)
        if not line:
            raise self.error
        return line


@pytest.mark.parametrize("error", [KeyboardInterrupt(), EOFError(), OSError(5, "EIO")])
def test_every_way_out_saves_the_game_given_to_save(error: BaseException, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text("an older save", encoding="utf-8")
    out = io.StringIO()
    seats: list[cr.bots.Bot | None] = [None, cr.bots.make_bot("random", 1)]
    with pytest.raises(type(error)):
        terminal.play_interactive(
            cr.GameOptions(num_players=2),
            7,
            0,
            seats,
            Console(Interrupting("17\n1\n", error), out),
            names=["human", "random"],
            save=str(path),
        )
    record = cr.loads_record(path.read_text(encoding="utf-8"))
    assert record.actions[0] == cr.Lay(cr.Species.DUCK, 0, cr.Side.LEFT)
    assert record.metadata.players == ("human", "random")
    assert f"Game saved to {path}" in out.getvalue()
    assert f"cuckoo-rules play --resume {path}" in out.getvalue()
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # no temporary file left


def test_a_save_that_fails_leaves_the_earlier_file_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.json"
    path.write_text("an older save", encoding="utf-8")

    def fail(source: str, target: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    text, _ = run_play("17\nq\n", save=str(path))
    assert f"Cannot write {path}: [Errno 28] No space left on device" in text
    assert path.read_text(encoding="utf-8") == "an older save"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_quit_offers_to_save_and_resume_goes_on_to_the_end(tmp_path: Path) -> None:
    path = f"{tmp_path}/game.json"
    text, record = run_play(f"17\n1\nq\n{path}\n")
    assert f"Game saved to {path}" in text
    assert f"cuckoo-rules play --resume {path}" in text
    with open(path, encoding="utf-8") as source:
        saved = cr.records.load_record(source)
    assert saved == record
    seat, specs = terminal.resume_seats(saved)
    assert seat == 0
    assert [None if s is None else s.text for s in specs] == [None, "random"]
    out = io.StringIO()
    bots: list[cr.bots.Bot | None] = [None, cr.bots.make_bot("random", 1)]
    resumed = terminal.play_interactive(
        saved.options,
        saved.seed,
        0,
        bots,
        Console(io.StringIO("1\n" * 500), out),
        names=saved.metadata.players,
        resume=saved,
    )
    assert resumed.actions[: len(saved.actions)] == saved.actions
    assert resumed.metadata.result is not None
    assert "== Game over ==" in out.getvalue()
    # The first screen goes on where the game was left: what happened is in the log.
    first = screens_of(out.getvalue())[0]
    assert any(line.startswith("│ ") for line in first)
    with pytest.raises(cr.match.MatchError, match="another game"):
        terminal.play_interactive(
            saved.options, 8, 0, bots, Console(io.StringIO(""), io.StringIO()), resume=saved
        )


@pytest.mark.parametrize(
    ("players", "result", "message"),
    [
        (None, None, "names no players"),
        (("greedy", "random"), None, "expected one seat named 'human'"),
        (("human", "human"), None, "found 2"),
        (("human", "gredy"), None, "seat 1: bot spec 'gredy': unknown bot"),
        (("human", "greedy"), cr.records.GameResult((0,)), "the game is over"),
    ],
)
def test_a_record_that_cannot_be_resumed_is_refused(
    players: tuple[str, ...] | None, result: cr.records.GameResult | None, message: str
) -> None:
    record = cr.GameRecord(cr.GameOptions(num_players=2), 7, (), Metadata(players, result=result))
    with pytest.raises(terminal.ResumeError, match=re.escape(message)):
        terminal.resume_seats(record)


@pytest.mark.parametrize("answer", ["n", "No", ""])
def test_quit_then_no_skips_saving(
    answer: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    text, _ = run_play(f"17\nq\n{answer}\n")
    assert "Save the game to a file?" in text
    assert "Game saved" not in text
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("language", ["de", "ru"])
def test_a_whole_game_in_another_language(language: str) -> None:
    text, _ = run_play("1\n" * 500, language=language)
    prompt = phrase("terminal.prompt", language, count=1).partition("1-")[0]
    assert text.count(prompt) > 10
    assert phrase("terminal.game_over", language) in text
    assert phrase("terminal.press_enter_end", language).strip() in text


def test_replay_steps_back_and_forth_and_jumps() -> None:
    _, record = run_play("1\n" * 500)
    out = io.StringIO()
    terminal.replay_interactive(
        record, None, Console(io.StringIO("\n\nb\ng 40\ng 0\ng 9999\ng x\n\nq\n"), out)
    )
    text = out.getvalue()
    total = len(record.actions)
    moves = re.findall(r"-- Replay: (?:move (\d+) of (\d+)|the deal \(move 0 of (\d+)\))", text)
    assert [m[0] or "0" for m in moves] == ["0", "1", "2", "1", "40", "0", "0", "0", "1"]
    assert all(str(total) in (m[1] or m[2]) for m in moves)
    assert text.count(f"No move 9999: type g and a number from 0 to {total}.") == 1
    assert "No move x" in text
    assert "Your hand" not in text


def test_replay_tells_each_move_as_the_seat_saw_it() -> None:
    _, record = run_play("1\n" * 500)
    out = io.StringIO()
    terminal.replay_interactive(record, 1, Console(io.StringIO("\n" * 6 + "q\n"), out))
    steps = list(cr.records.replay_steps(record))
    text = out.getvalue().replace("\n│ ", " ")
    for _, events in steps[1:7]:
        for line in narrate(cr.visible_events(events, 1), 1, names=["human", "random"]):
            assert line in text
    assert "Your hand" in text


def test_replay_at_the_end_says_so() -> None:
    _, record = run_play("1\n" * 500)
    out = io.StringIO()
    terminal.replay_interactive(
        record, 0, Console(io.StringIO(f"g {len(record.actions)}\n\nq\n"), out)
    )
    assert "The end of the record: b goes back, g N goes to move N, q quits." in out.getvalue()


def test_a_seat_named_you_in_a_record_is_not_called_you_by_others() -> None:
    # Records saved by play --save of 0.1 name the human "you".
    _, record = run_play("1\n" * 500)
    old = cr.GameRecord(record.options, record.seed, record.actions, Metadata(("you", "random")))
    out = io.StringIO()
    terminal.replay_interactive(old, None, Console(io.StringIO("\n" * 3 + "q\n"), out))
    assert "P0 lays" in out.getvalue()
    assert "P0 you" not in out.getvalue()


def test_replay_refuses_an_illegal_record() -> None:
    _, record = run_play("1\n" * 500)
    bad = cr.GameRecord(record.options, record.seed, (*record.actions[:3], cr.Draw(), cr.Draw()))
    with pytest.raises(cr.RecordError, match=r"actions\[\d\] \(move \d, turn \d+\): "):
        terminal.replay_interactive(bad, None, Console(io.StringIO("q\n"), io.StringIO()))
    over = cr.GameRecord(record.options, record.seed, (*record.actions, cr.Pass()))
    with pytest.raises(cr.RecordError, match="the game is over"):
        terminal.replay_interactive(over, None, Console(io.StringIO("q\n"), io.StringIO()))


def test_a_terminal_is_cleared_before_each_screen() -> None:
    out = io.StringIO()
    terminal.play_interactive(
        cr.GameOptions(num_players=2),
        7,
        0,
        [None, cr.bots.make_bot("random", 1)],
        Console(io.StringIO("17\nq\n\n"), out, clear=True),
    )
    text = out.getvalue()
    assert text.startswith("\x1b[H\x1b[2J")
    assert text.count("\x1b[H\x1b[2J") >= 2
    assert "\x1b[H\x1b[2J" not in run_play("17\nq\n\n")[0]


# --------------------------------------------------------------------------- hints

HINT_BUDGET = 100  # simulations per hint in these tests: enough for the shape, and fast


def expert() -> ModuleType:
    """The expert's module, or a skip without the batch extra (NumPy and numba)."""
    module: ModuleType = pytest.importorskip("cuckoo_rules.bots.expert", reason="no batch extra")
    return module


def run_hints(text: str, seed: int = 7) -> tuple[str, cr.GameRecord]:
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
    return out.getvalue(), record


HINT_HEADER = f"Hint (expert, {HINT_BUDGET} simulations): chance of winning after each move"


def hinted(text: str, view: cr.PlayerView) -> list[tuple[int, int, cr.Action]]:
    """The (percentage, number, action) of each move of the first hint shown in ``text``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line == HINT_HEADER and i and "│" not in line)
    start = lines.index(HINT_HEADER, start + 1)  # the one on the screen, under the moves
    end = lines.index("Type a move's number to play it.", start)
    legal = cr.legal_actions(view)
    moves = []
    shown: list[str] = []
    for line in lines[start + 1 : end]:
        assert len(line) <= 80
        if line.startswith(" " * 12):
            shown[-1] += " " + line.strip()
        else:
            shown.append(line)
    for line in shown:
        found = re.fullmatch(r"  +(\d+)%  +(\d+)\. (.+)", line)
        assert found, line
        percent, number = int(found[1]), int(found[2])
        assert 0 <= percent <= 100
        assert 1 <= number <= len(legal)
        action = legal[number - 1]
        assert found[3] == terminal.describe_action(action, view)
        moves.append((percent, number, action))
    assert len(moves) == min(3, len(legal))
    return moves


def test_hint_prints_the_experts_three_best_moves_with_percentages(hint_spy: HintSpy) -> None:
    calls, real_hint = hint_spy.calls, hint_spy.real
    # Two hints at the first decision: one search, shown twice.
    text, _ = run_hints("hint\nh\nq\n\n")
    match = cr.Match(cr.GameOptions(num_players=2), 7, [None, None])
    view, knowledge = match.view(0), match.knowledge(0)
    moves = hinted(text, view)
    assert len(moves) == 3
    assert len({action for _, _, action in moves}) == 3
    expected = real_hint(view, knowledge, top=3, simulations=HINT_BUDGET)
    assert [action for _, _, action in moves] == [estimate.action for estimate in expected]
    assert [f"{percent}%" for percent, _, _ in moves] == [
        f"{estimate.win_chance:.0%}" for estimate in expected
    ]
    # The search saw the seat's view and what its history proves, once for the decision.
    assert calls == [((view, knowledge), {"top": 3, "simulations": HINT_BUDGET})]
    assert text.count(HINT_HEADER) == 3  # at once, then on two screens


def test_a_hinted_move_is_played_by_its_number_later_in_the_game() -> None:
    expert()
    # Eleven decisions in (a lay), so the knowledge is the history's, not the setup's.
    text, record = run_hints("1\n" * 11 + "hint\nq\n\n")
    match = cr.Match.from_record(record, [None, None])
    view = match.view(0)
    assert match.knowledge(0) != cr.Knowledge.at_setup(cr.new_game(record.options, 7))
    moves = hinted(text, view)
    assert len(moves) == 3
    _, number, action = moves[0]
    _, again = run_hints("1\n" * 11 + f"hint\n{number}\nq\n\n")
    assert again.actions[: len(record.actions)] == record.actions
    assert again.actions[len(record.actions)] == action


def test_hint_without_the_batch_extra_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "cuckoo_rules.bots.expert", None)  # as if not installed
    text, record = run_hints("hint\n17\nq\n\n")
    assert (
        "No hint: the expert needs the batch extra (NumPy and numba): "
        "pip install 'cuckoo-rules[batch]'"
    ) in text.splitlines()
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


def test_a_lays_captures_are_told_as_the_narration_tells_an_object() -> None:
    # The captured cards are the object of the verb: Russian takes the accusative.
    view = cr.observe(cr.new_game(cr.GameOptions(num_players=2), 7), 0)
    lay = cr.Lay(cr.Species.DUCK, 0, cr.Side.LEFT)
    assert terminal.describe_action(lay, view, "ru").endswith("забрать 1 малиновку и 1 сороку")
    assert terminal.describe_action(lay, view).endswith("capturing 1 robin and 1 magpie")
