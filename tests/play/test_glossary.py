"""Tests that every German and Russian phrase speaks the glossary's words.

The glossary (:mod:`cuckoo_rules._phrases.glossary`, explained in ``docs/glossary.md``)
gives each concept of the game one word per language, the seeds' word where they have
one. Each phrase is checked by its key: a phrase whose English names a concept uses the
concept's word, and no phrase uses a word the glossary rules out. The sentences the
front ends render from these phrases are checked as examples below.
"""

# Russian words made only of letters that look Latin are meant: RUF001 is off.
# ruff: noqa: RUF001

from __future__ import annotations

import re
from typing import Any

import pytest

from cuckoo_rules import GameOptions, Lay, Side, Species, new_game, observe
from cuckoo_rules._phrases.glossary import TERMS, Term
from cuckoo_rules.narration import PHRASES, cards_text, phrase, seat_name, species_name

TRANSLATED = ("de", "ru")


def english_of(key: str) -> str:
    """The English template of a key (a counted key's ``#other`` form)."""
    english = PHRASES["en"]
    return english.get(key) or english[key.partition("#")[0] + "#other"]


def mentions(term: Term, key: str) -> bool:
    """Whether the English phrase of ``key`` names the term's concept."""
    return re.search(term.english, re.sub(r"\{\w+\}", " ", english_of(key))) is not None


def test_the_glossary_names_its_concepts_and_its_languages() -> None:
    assert {"fly_home", "lay", "capture", "discard_pile", "deal", "pass", "turn", "move"} <= set(
        TERMS
    )
    for name, term in TERMS.items():
        assert term.concept == name
        assert set(term.words) | set(term.forbidden) | set(term.avoid) <= set(TRANSLATED)
        assert term.apart_from is None or term.apart_from in TERMS
        assert all(key in PHRASES["en"] for key in term.exempt), name
        # Every concept is named by some English phrase, and its exemptions are needed.
        assert any(mentions(term, key) for key in PHRASES["en"]), name
        assert all(mentions(term, key) for key in term.exempt), name


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_phrase_naming_a_concept_uses_the_glossarys_word(language: str) -> None:
    wrong = []
    for key, template in PHRASES[language].items():
        for term in TERMS.values():
            word = term.words.get(language)
            if word is None or key in term.exempt or not mentions(term, key):
                continue
            if not re.search(word, template):
                wrong.append((term.concept, key, template))
    assert not wrong, "\n".join(map(str, wrong))


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_phrase_uses_a_word_the_glossary_rules_out(language: str) -> None:
    wrong = [
        (term.concept, key, template)
        for key, template in PHRASES[language].items()
        for term in TERMS.values()
        for pattern in term.forbidden.get(language, ())
        if re.search(pattern, template)
    ]
    assert not wrong, "\n".join(map(str, wrong))


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_move_is_not_called_a_turn_nor_the_board_a_table(language: str) -> None:
    wrong = []
    for key, template in PHRASES[language].items():
        for term in TERMS.values():
            if not mentions(term, key):
                continue
            if term.apart_from is not None and mentions(TERMS[term.apart_from], key):
                continue
            wrong += [
                (term.concept, key, template)
                for pattern in term.avoid.get(language, ())
                if re.search(pattern, template)
            ]
    assert not wrong, "\n".join(map(str, wrong))


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_phrase_names_the_seeds_by_their_file_names(language: str) -> None:
    assert not [key for key, text in PHRASES[language].items() if "SEED" in text]


# --------------------------------------------------------------------------- examples


def test_the_next_round_line_reads_for_any_seat() -> None:
    def line(language: str, dealer: int, player: int) -> str:
        return phrase(
            "terminal.next_round",
            language,
            round=2,
            dealer=seat_name(dealer, 0, names=["", "greedy"], language=language),
            player=seat_name(player, 0, names=["", "greedy"], language=language),
        )

    assert line("en", 0, 1) == "Round 2. Dealer: you; first turn: P1 greedy."
    assert line("en", 1, 0) == "Round 2. Dealer: P1 greedy; first turn: you."
    assert line("de", 0, 1) == "Runde 2. Kartengeber: du; erster Zug: P1 greedy."
    assert line("de", 1, 0) == "Runde 2. Kartengeber: P1 greedy; erster Zug: du."
    assert line("ru", 0, 1) == "Раунд 2. Раздающий: вы; первый ход: P1 greedy."


def test_russian_lays_read_with_the_accusative_and_flocks_with_the_nominative() -> None:
    # A lay is a verb and its object: the terminal and the web client fill {birds} with
    # the accusative (tests/frontends/test_terminal_newcomer.py, test_web_newcomer.py).
    owl = cards_text([Species.OWL], language="ru", obj=True)
    assert owl == "1 сову"
    assert phrase("terminal.do.lay", "ru", birds=owl, side="слева", row=0) == (
        "выложить 1 сову слева в ряд 0"
    )
    assert phrase("web.lay_left", "ru", birds=owl, row=0) == "Выложить 1 сову слева в ряд 0"
    assert phrase("web.lay_group", "ru", birds=owl) == "Выложить 1 сову"
    robin = cards_text([Species.ROBIN], language="ru", obj=True)
    assert phrase("web.captures", "ru", cards=robin) == "забираете 1 малиновку"
    # A flock is named, not acted on: the nominative.
    ducks = species_name(Species.DUCK, 4, language="ru")
    assert phrase("terminal.do.fly_short", "ru", birds=ducks, home=1, discarded=3) == (
        "стая (4 утки): 1 в коллекцию, 3 в сброс"
    )


def test_the_terminal_move_list_in_russian() -> None:
    from cuckoo_rules.terminal import describe_action

    view = observe(new_game(GameOptions(num_players=2), 7), 0)
    assert describe_action(Lay(Species.DUCK, 0, Side.LEFT), view, "ru") == (
        "выложить 3 утки слева в ряд 0 и забрать 1 малиновку и 1 сороку"
    )
    assert describe_action(Lay(Species.OWL, 0, Side.LEFT), view, "ru") == (
        "выложить 1 сову слева в ряд 0, ничего не забирая"
    )


def test_the_length_of_a_game() -> None:
    turns, rounds = (
        phrase("terminal.turns", "ru", count=45),
        phrase("terminal.rounds", "ru", count=3),
    )
    assert phrase("terminal.lasted", "ru", turns=turns, rounds=rounds) == (
        "Игра длилась 3 раунда, всего 45 ходов."
    )


@pytest.mark.parametrize(
    ("key", "language", "fields", "expected"),
    [
        (
            "terminal.reason.draw_or_pass",
            "ru",
            {},
            "если при выкладке вы не забрали ни одной карты, можно взять 2 карты или не брать",
        ),
        (
            "terminal.list_title",
            "de",
            {"first": 1, "last": 20, "count": 40},
            "Alle Aktionen (1-20 von 40), nummeriert wie unter dem Spielfeld:",
        ),
        (
            "terminal.list_title",
            "ru",
            {"first": 1, "last": 20, "count": 40},
            "Все действия (1-20 из 40), с номерами как под игровым полем:",
        ),
        (
            "terminal.replay.bad_move",
            "de",
            {"text": "x", "count": 9},
            "Es gibt keine Aktion x: tippe g und eine Zahl von 0 bis 9.",
        ),
        ("web.standing_winner", "de", {"player": "du", "progress": "7/7"}, "du (Sieger): 7/7"),
        ("web.name_placeholder", "de", {}, "optional"),
        ("web.final_collections", "de", {}, "Sammlungen am Spielende"),
        (
            "terminal.unreadable",
            "de",
            {"text": "x", "count": 9},
            "„x“ ist keine Aktion: tippe ihre Nummer von 1 bis 9 oder hilfe für die Befehle.",
        ),
        (
            "terminal.list_prompt",
            "de",
            {},
            "Eingabe: weiter, b: Spielfeld oder die Nummer einer Aktion> ",
        ),
        ("terminal.list_prompt", "ru", {}, "Enter: дальше, b: поле или номер действия> "),
        ("web.bot.expert", "de", {}, "Expertenbot"),
        ("web.bot.expert", "ru", {}, "Бот-эксперт"),
    ],
)
def test_fixed_sentences(key: str, language: str, fields: dict[str, Any], expected: str) -> None:
    assert phrase(key, language, **fields) == expected


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_comma_before_or(language: str) -> None:
    word = {"de": "oder", "ru": "или"}[language]
    wrong = [key for key, text in PHRASES[language].items() if f", {word} " in text]
    assert not wrong
