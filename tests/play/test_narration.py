"""Tests of the narration: the phrase tables, every event for every reader, no leaks.

English is checked sentence by sentence (the golden files and the doctests depend on its
every byte); German and Russian by a handful of exact sentences each, so that a grammar
regression fails, and over whole games for what every sentence must be.
"""

# Russian words made only of letters that look Latin are meant: RUF001 is off.
# ruff: noqa: RUF001

from __future__ import annotations

import ast
import random
import re
import string
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import cast, get_args

import pytest

import cuckoo_rules as cr
from cuckoo_rules import narration
from cuckoo_rules._phrases import narration as narration_area
from cuckoo_rules.narration import (
    LANGUAGES,
    PHRASE_KEYS,
    PHRASES,
    PLURAL_KEYS,
    PLURAL_RULES,
    NarrationError,
    describe_event,
    narrate,
    phrase,
    seat_name,
    species_name,
)

S = cr.Species

# --------------------------------------------------------------------------- the table


def categories(language: str) -> set[str]:
    """The plural categories the language's rule gives to the numbers a game can show."""
    return {PLURAL_RULES[language](n) for n in range(1000)}


# The narration's own phrases (the terminal's and the web client's are in test_phrases.py).
TABLES = narration_area.PHRASES
KEYS = frozenset(key.partition("#")[0] for key in narration_area.ENGLISH)
COUNTED = KEYS & PLURAL_KEYS


def expected_keys(language: str) -> set[str]:
    plain = KEYS - COUNTED
    return set(plain) | {f"{key}#{c}" for key in COUNTED for c in categories(language)}


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def test_the_languages_are_those_of_the_table() -> None:
    assert LANGUAGES == tuple(PHRASES) == tuple(PLURAL_RULES) == ("en", "de", "ru")
    assert PLURAL_KEYS <= PHRASE_KEYS
    assert KEYS <= PHRASE_KEYS
    assert tuple(TABLES) == LANGUAGES
    assert all(TABLES[language].items() <= PHRASES[language].items() for language in LANGUAGES)
    assert {"cards", "cards_object", "birds.owl", "birds_object.owl"} <= COUNTED
    assert not any(key.startswith(("terminal.", "web.")) for key in KEYS)


@pytest.mark.parametrize(
    ("language", "expected"),
    [("en", {"one", "other"}), ("de", {"one", "other"}), ("ru", {"one", "few", "many"})],
)
def test_each_language_has_its_plural_categories(language: str, expected: set[str]) -> None:
    assert categories(language) == expected
    assert {key.partition("#")[2] for key in TABLES[language] if "#" in key} == expected


# CLDR's integer plural categories of Russian, as Intl.PluralRules("ru") gives them.
RUSSIAN_PLURALS = {
    0: "many", 1: "one", 2: "few", 3: "few", 4: "few", 5: "many", 10: "many", 11: "many",
    12: "many", 14: "many", 15: "many", 20: "many", 21: "one", 22: "few", 24: "few",
    25: "many", 100: "many", 101: "one", 102: "few", 111: "many", 112: "many", 114: "many",
    121: "one", 1001: "one", 1011: "many",
}  # fmt: skip


@pytest.mark.parametrize(("n", "category"), sorted(RUSSIAN_PLURALS.items()))
def test_the_russian_plural_rule_is_cldrs(n: int, category: str) -> None:
    assert PLURAL_RULES["ru"](n) == category


@pytest.mark.parametrize("n", [0, 1, 2, 5, 11, 21, 101])
def test_english_and_german_say_one_only_of_1(n: int) -> None:
    assert PLURAL_RULES["en"](n) == PLURAL_RULES["de"](n) == ("one" if n == 1 else "other")


@pytest.mark.parametrize(
    ("n", "owls", "seen"),
    [(1, "1 сова", "1 сову"), (2, "2 совы", "2 совы"), (4, "4 совы", "4 совы"),
     (5, "5 сов", "5 сов"), (11, "11 сов", "11 сов"), (21, "21 сова", "21 сову"),
     (22, "22 совы", "22 совы"), (111, "111 сов", "111 сов"), (0, "0 сов", "0 сов")],
)  # fmt: skip
def test_russian_counts_take_the_case_their_number_asks(n: int, owls: str, seen: str) -> None:
    assert species_name(S.OWL, n, language="ru") == owls
    assert phrase("birds.owl", "ru", count=n) == owls
    assert phrase("birds_object.owl", "ru", count=n) == seen


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_has_every_phrase_the_code_uses(language: str) -> None:
    table = TABLES[language]
    missing = expected_keys(language) - set(table)
    extra = set(table) - expected_keys(language)
    assert not missing, f"{language} lacks {sorted(missing)}"
    assert not extra, f"{language} has phrases the code never uses: {sorted(extra)}"
    english = TABLES["en"]
    for key, template in table.items():
        # Every field English has, and no other: the code fills in just these.
        base = key.partition("#")[0]
        same = english.get(key) or english[f"{base}#other"]
        assert fields(template) == fields(same), (language, key)
        assert template.strip(), (language, key)
        assert template == template.strip(), (language, key)


def _literal_keys() -> Iterator[str]:
    """The phrase keys written as literals in the calls of narration.py's lookups."""
    tree = ast.parse(Path(narration.__file__).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("_lookup", "_say", "_count", "count")
        ):
            position = 0 if node.func.id == "count" else 1
            if len(node.args) > position:
                key = node.args[position]
                if isinstance(key, ast.Constant) and isinstance(key.value, str):
                    yield key.value


def test_every_literal_key_of_the_code_is_in_the_table() -> None:
    literals = set(_literal_keys())
    assert {"laid", "cards_object", "game_over", "list_two"} <= literals
    assert literals <= KEYS


def every_kind_of_event() -> list[cr.Event]:
    """At least one event of each kind, in each variant the narration tells apart."""
    events: list[cr.Event] = []
    for species in cr.SPECIES:  # each species in each plural category of each language
        events.append(cr.events.Laid(0, species, 1, 0, cr.Side.LEFT))
        events.append(cr.events.Laid(1, species, 3, 1, cr.Side.RIGHT))
        events.append(cr.events.Laid(2, species, 5, 2, cr.Side.LEFT))
    events += [
        cr.events.Captured(0, 2, (S.OWL, S.OWL, S.DUCK, S.ROBIN)),
        cr.events.Captured(1, 2, ()),
        cr.events.RowRefilled(3, (S.MAGPIE,)),
        cr.events.Drew(0, 2, (S.OWL, S.DUCK)),
        cr.events.Drew(1, 1, (S.OWL,)),
        cr.events.Drew(0, 1, None),
        cr.events.DeclinedDraw(0),
        cr.events.DeclinedDraw(1),
        cr.events.FlewHome(0, S.FLAMINGO, 3, 2),
        cr.events.FlewHome(1, S.ROBIN, 7, 1),
        cr.events.DeclinedFlock(1),
        cr.events.Reshuffled(40),
        cr.events.TurnEnded(0),
        cr.events.RoundEnded(1, 1, (5, 0, 3), ((0,) * 8, (0,) * 8, (0,) * 8), ((0,) * 8,) * 3),
        cr.events.RoundEnded(1, 0, (0, 5, 3), ((0,) * 8, (0,) * 8, (0,) * 8), ((0,) * 8,) * 3),
        cr.events.Dealt(2, 1, (8, 8, 8), ((0,) * 8, (0,) * 8, (0,) * 8)),
        cr.events.Dealt(2, 0, (8, 8, 8), (None, None, None)),
        cr.events.Dealt(2, 1, (0, 8, 4), (None, None, None)),
        cr.events.Dealt(2, 0, (8, 0, 4), (None, None, None)),
        cr.events.TurnStarted(1, 5),
        cr.events.GameStarted(1, (0, 1, 0, 0, 0, 0, 0, 2), (8, 8, 8), (None, (0,) * 8, None)),
        cr.events.GameStarted(0, (0,) * 8, (8, 8, 8), (None, None, None)),
    ]
    events += [cr.events.GameOver((1,), reason) for reason in get_args(cr.outcome.WinReason)]
    events += [cr.events.GameOver((0,), "two_triples"), cr.events.GameOver((0, 1, 2), "most_cards")]
    return events


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_phrase_of_the_table_is_used(language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    used: set[str] = set()
    real = narration._lookup

    def spy(table: dict[str, str], key: str) -> str:
        assert key in table, key  # no language falls back to English
        used.add(key)
        return real(table, key)

    monkeypatch.setattr(narration, "_lookup", spy)
    names = ["ann", "", "cy"]
    for viewer in (0, 1, None):
        for event in every_kind_of_event():
            describe_event(event, viewer, names=names, language=language)
            describe_event(event, viewer, language=language)
        narrate(every_kind_of_event(), viewer, names=names, language=language)
        narrate(
            [cr.events.Laid(0, S.OWL, 2, 1, cr.Side.LEFT), cr.events.Captured(0, 1, (S.DUCK,))],
            viewer,
            language=language,
        )
    for species in cr.SPECIES:  # the bare names, and the counts of a hand or a list
        species_name(species, language=language)
        for n in (1, 3, 5):
            species_name(species, n, language=language)
    for n in (1, 3, 5):  # the front ends count cards with "cards" ("5 cards in hand")
        phrase("cards", language, count=n)
    assert used == expected_keys(language)


# --------------------------------------------------------------------------- every event

SENTENCES: list[tuple[cr.Event, str, str, str]] = [
    # event, as told to its owner (seat 0), to seat 1, to a spectator
    (
        cr.events.GameStarted(
            0, (0, 1, 0, 0, 0, 0, 0, 2), (8, 8), ((0, 8, 0, 0, 0, 0, 0, 0), None)
        ),
        "The game starts: you deal 8 cards to each player; set aside to the discard pile: "
        "1 owl and 2 robins.",
        "The game starts: P0 ann deals 8 cards to each player; set aside to the discard pile: "
        "1 owl and 2 robins.",
        "The game starts: P0 ann deals 8 cards to each player; set aside to the discard pile: "
        "1 owl and 2 robins.",
    ),
    (
        cr.events.Laid(0, S.REED_WARBLER, 3, 2, cr.Side.RIGHT),
        "You lay 3 reed warblers on the right of row 2.",
        "P0 ann lays 3 reed warblers on the right of row 2.",
        "P0 ann lays 3 reed warblers on the right of row 2.",
    ),
    (
        cr.events.Captured(0, 2, (S.TOUCAN,) * 3 + (S.OWL,) + (S.PARROT,) * 10),
        "You capture 3 toucans, 1 owl and 10 parrots from row 2.",
        "P0 ann captures 3 toucans, 1 owl and 10 parrots from row 2.",
        "P0 ann captures 3 toucans, 1 owl and 10 parrots from row 2.",
    ),
    (
        cr.events.RowRefilled(1, (S.DUCK, S.MAGPIE)),
        "Row 1 is refilled with 1 duck and 1 magpie.",
        "Row 1 is refilled with 1 duck and 1 magpie.",
        "Row 1 is refilled with 1 duck and 1 magpie.",
    ),
    (
        cr.events.Drew(0, 2, (S.OWL, S.OWL)),
        "You draw 2 cards: 2 owls.",
        "P0 ann draws 2 cards.",
        "P0 ann draws 2 cards.",
    ),
    (
        cr.events.Drew(0, 1, (S.FLAMINGO,)),
        "You draw 1 card: 1 flamingo.",
        "P0 ann draws 1 card.",
        "P0 ann draws 1 card.",
    ),
    (
        cr.events.DeclinedDraw(0),
        "You do not draw.",
        "P0 ann does not draw.",
        "P0 ann does not draw.",
    ),
    (
        cr.events.FlewHome(0, S.REED_WARBLER, 6, 1),
        "You fly 6 reed warblers home: 1 to your collection, 5 discarded.",
        "P0 ann flies 6 reed warblers home: 1 to their collection, 5 discarded.",
        "P0 ann flies 6 reed warblers home: 1 to their collection, 5 discarded.",
    ),
    (
        cr.events.Reshuffled(30),
        "The discard pile is shuffled into a new draw pile.",
        "The discard pile is shuffled into a new draw pile.",
        "The discard pile is shuffled into a new draw pile.",
    ),
    (
        cr.events.RoundEnded(3, 0, (0, 4), ((0,) * 8, (0, 4, 0, 0, 0, 0, 0, 0)), ((0,) * 8,) * 2),
        "Round 3 ends: you emptied your hand; 4 cards from the other hands are discarded.",
        "Round 3 ends: P0 ann emptied their hand; 4 cards from the other hands are discarded.",
        "Round 3 ends: P0 ann emptied their hand; 4 cards from the other hands are discarded.",
    ),
    (
        cr.events.Dealt(2, 0, (8, 8), ((0, 8, 0, 0, 0, 0, 0, 0), (8, 0, 0, 0, 0, 0, 0, 0))),
        "Round 2: you deal 8 cards to each player.",
        "Round 2: P0 ann deals 8 cards to each player.",
        "Round 2: P0 ann deals 8 cards to each player.",
    ),
    (
        cr.events.Dealt(2, 0, (8, 3), (None, None)),
        "Round 2: you deal 11 cards from this draw pile (8 to you and 3 to P1 bob).",
        "Round 2: P0 ann deals 11 cards from this draw pile (8 to P0 ann and 3 to you).",
        "Round 2: P0 ann deals 11 cards from this draw pile (8 to P0 ann and 3 to P1 bob).",
    ),
    (
        cr.events.GameOver((0,), "seven_species"),
        "Game over: you win (seven species in a collection).",
        "Game over: P0 ann wins (seven species in a collection).",
        "Game over: P0 ann wins (seven species in a collection).",
    ),
    (
        cr.events.GameOver((0, 1), "most_cards"),
        "Game over: you and P1 bob share the victory (the cards ran out; most cards in a "
        "collection).",
        "Game over: P0 ann and you share the victory (the cards ran out; most cards in a "
        "collection).",
        "Game over: P0 ann and P1 bob share the victory (the cards ran out; most cards in a "
        "collection).",
    ),
]


@pytest.mark.parametrize(("event", "owner", "other", "spectator"), SENTENCES)
def test_every_event_for_its_owner_another_seat_and_a_spectator(
    event: cr.Event, owner: str, other: str, spectator: str
) -> None:
    names = ("ann", "bob")
    assert describe_event(event, 0, names=names) == owner
    assert describe_event(event, 1, names=names) == other
    assert describe_event(event, None, names=names) == spectator
    assert narrate([event], 1, names=names) == [other]


@pytest.mark.parametrize(
    "event",
    [cr.events.TurnStarted(1, 4), cr.events.TurnEnded(0), cr.events.DeclinedFlock(1)],
    ids=repr,
)
def test_bookkeeping_events_give_no_sentence(event: cr.Event) -> None:
    for viewer in (0, 1, None):
        assert describe_event(event, viewer) is None
        assert narrate([event], viewer) == []


def test_a_lay_and_its_capture_are_one_sentence() -> None:
    lay = cr.events.Laid(1, S.DUCK, 2, 0, cr.Side.LEFT)
    capture = cr.events.Captured(1, 0, (S.ROBIN, S.MAGPIE))
    refill = cr.events.RowRefilled(0, (S.OWL,))
    assert narrate([lay, capture, refill], None) == [
        "P1 lays 2 ducks on the left of row 0 and captures 1 robin and 1 magpie.",
        "Row 0 is refilled with 1 owl.",
    ]
    assert narrate([lay, capture], 1) == [
        "You lay 2 ducks on the left of row 0 and capture 1 robin and 1 magpie."
    ]
    assert narrate([lay], 1) == [describe_event(lay, 1)]


def test_names_and_seats() -> None:
    assert seat_name(2, None) == "P2"
    assert seat_name(2, 2, names=["a", "b", "c"]) == "you"
    assert seat_name(1, 0, names=["a", "", "c"]) == "P1"
    assert describe_event(cr.events.DeclinedDraw(1), 0, names=["a", "", "c"]) == "P1 does not draw."
    assert species_name(S.ROBIN, 0) == "0 robins"
    with pytest.raises(NarrationError, match="names: no name for seat 2"):
        describe_event(cr.events.DeclinedDraw(2), 0, names=["a", "b"])
    with pytest.raises(NarrationError, match="names: no name for seat 2"):
        describe_event(cr.events.DeclinedDraw(2), 0, names=["a", "b"], language="ru")


@pytest.mark.parametrize(
    ("language", "you", "seat", "named"),
    [("en", "you", "P1", "P1 bob"), ("de", "du", "P1", "P1 bob"), ("ru", "вы", "P1", "P1 bob")],
)
def test_seats_in_every_language(language: str, you: str, seat: str, named: str) -> None:
    assert seat_name(0, 0, language=language) == you
    assert seat_name(1, 0, language=language) == seat
    assert seat_name(1, None, names=["ann", "bob"], language=language) == named


# --------------------------------------------------------------------------- German, Russian

_LAY = cr.events.Laid(0, S.OWL, 3, 2, cr.Side.LEFT)
_CAPTURE = cr.events.Captured(0, 2, (S.DUCK, S.TOUCAN, S.TOUCAN))
_ONE_LAY = cr.events.Laid(1, S.PARROT, 1, 0, cr.Side.RIGHT)
_ONE_CAPTURE = cr.events.Captured(1, 0, (S.MAGPIE, S.TOUCAN))
_REFILL = cr.events.RowRefilled(0, (S.REED_WARBLER, S.ROBIN, S.ROBIN))
_FLIGHT = cr.events.FlewHome(0, S.DUCK, 6, 2)
_ROUND_END = cr.events.RoundEnded(3, 1, (5, 0), ((0,) * 8, (0,) * 8), ((0,) * 8,) * 2)
_DEAL = cr.events.Dealt(4, 1, (8, 3), (None, None))
_DRAW = cr.events.Drew(0, 1, (S.FLAMINGO,))
_WIN = cr.events.GameOver((0,), "two_triples")
_SHARED = cr.events.GameOver((0, 1), "most_cards")
_STORY: list[cr.Event] = [
    _LAY,
    _CAPTURE,
    _ONE_LAY,
    _ONE_CAPTURE,
    _REFILL,
    _FLIGHT,
    _DRAW,
    _ROUND_END,
    _DEAL,
]

TRANSLATED: dict[str, dict[int | None, list[str]]] = {
    "de": {
        0: [
            "Du legst 3 Eulen links an Reihe 2 an und nimmst 1 Ente und 2 Tukane auf die Hand.",
            "P1 bob legt 1 Papagei rechts an Reihe 0 an und nimmt 1 Elster und 1 Tukan auf "
            "die Hand.",
            "Reihe 0 wird aufgefüllt: 1 Rohrsänger und 2 Rotkehlchen.",
            "Du spielst 6 Enten als Schwarm aus: 2 in deine Sammlung, 4 auf den Ablagestapel.",
            "Du ziehst 1 Karte: 1 Flamingo.",
            "Runde 3 endet: P1 bob hat keine Handkarten mehr; die anderen werfen 5 Karten ab.",
            "Runde 4: P1 bob teilt 11 Karten von diesem Nachziehstapel aus (3 an P1 bob und "
            "8 an dich).",
        ],
        1: [
            "P0 ann legt 3 Eulen links an Reihe 2 an und nimmt 1 Ente und 2 Tukane auf die Hand.",
            "Du legst 1 Papagei rechts an Reihe 0 an und nimmst 1 Elster und 1 Tukan auf die Hand.",
            "Reihe 0 wird aufgefüllt: 1 Rohrsänger und 2 Rotkehlchen.",
            "P0 ann spielt 6 Enten als Schwarm aus: 2 in die eigene Sammlung, 4 auf den "
            "Ablagestapel.",
            "P0 ann zieht 1 Karte.",
            "Runde 3 endet: du hast keine Handkarten mehr; die anderen werfen 5 Karten ab.",
            "Runde 4: du teilst 11 Karten von diesem Nachziehstapel aus (3 an dich und 8 an "
            "P0 ann).",
        ],
    },
    "ru": {
        0: [
            "Вы выкладываете 3 совы слева в ряд 2 и забираете 1 утку и 2 тукана.",
            "P1 bob выкладывает 1 попугая справа в ряд 0 и забирает 1 сороку и 1 тукана.",
            "Ряд 0 пополняется: 1 камышовка и 2 малиновки.",
            "Вы отправляете домой 6 уток: 2 — в свою коллекцию, 4 — в сброс.",
            "Вы берёте из колоды 1 карту: 1 фламинго.",
            "Раунд 3 окончен: P1 bob остаётся без карт в руке; остальные сбрасывают из рук 5 карт.",
            "Раунд 4: P1 bob раздаёт 11 карт из этой колоды (3 — P1 bob и 8 — вам).",
        ],
        1: [
            "P0 ann выкладывает 3 совы слева в ряд 2 и забирает 1 утку и 2 тукана.",
            "Вы выкладываете 1 попугая справа в ряд 0 и забираете 1 сороку и 1 тукана.",
            "Ряд 0 пополняется: 1 камышовка и 2 малиновки.",
            "P0 ann отправляет домой 6 уток: 2 — в свою коллекцию, 4 — в сброс.",
            "P0 ann берёт из колоды 1 карту.",
            "Раунд 3 окончен: вы остаётесь без карт в руке; остальные сбрасывают из рук 5 карт.",
            "Раунд 4: вы раздаёте 11 карт из этой колоды (3 — вам и 8 — P0 ann).",
        ],
    },
}


@pytest.mark.parametrize("language", ["de", "ru"])
@pytest.mark.parametrize("viewer", [0, 1])
def test_a_round_told_in_german_and_russian(language: str, viewer: int) -> None:
    told = narrate(_STORY, viewer, names=["ann", "bob"], language=language)
    assert told == TRANSLATED[language][viewer]


@pytest.mark.parametrize(
    ("language", "event", "viewer", "sentence"),
    [
        ("de", _LAY, None, "P0 legt 3 Eulen links an Reihe 2 an."),
        ("de", _ONE_LAY, 1, "Du legst 1 Papagei rechts an Reihe 0 an."),
        ("de", _CAPTURE, 0, "Du nimmst 1 Ente und 2 Tukane aus Reihe 2 auf die Hand."),
        ("de", cr.events.Drew(1, 2, None), None, "P1 zieht 2 Karten."),
        ("de", cr.events.DeclinedDraw(0), 0, "Du ziehst keine Karten."),
        ("de", cr.events.Reshuffled(12), None,
         "Der Ablagestapel wird zu einem neuen Nachziehstapel gemischt."),
        ("de", cr.events.Dealt(2, 0, (8, 8), (None, None)), 0,
         "Runde 2: du teilst jedem Spieler 8 Karten aus."),
        ("de", cr.events.GameStarted(1, (0, 0, 0, 0, 0, 1, 0, 0), (8, 8), (None, None)), None,
         "Das Spiel beginnt: P1 teilt jedem Spieler 8 Karten aus; auf den Ablagestapel "
         "gelegt: 1 Elster."),
        ("de", _WIN, 0, "Spielende: du gewinnst (zwei Arten mit je drei Vögeln in einer "
         "Sammlung)."),
        ("de", _WIN, 1, "Spielende: P0 gewinnt (zwei Arten mit je drei Vögeln in einer "
         "Sammlung)."),
        ("de", _SHARED, 1, "Spielende: P0 und du teilt euch den Sieg (die Karten sind "
         "aufgebraucht; die meisten Karten in einer Sammlung)."),
        ("de", _SHARED, None, "Spielende: P0 und P1 teilen sich den Sieg (die Karten sind "
         "aufgebraucht; die meisten Karten in einer Sammlung)."),
        ("de", cr.events.GameOver((2,), "seven_species"), None,
         "Spielende: P2 gewinnt (sieben Arten in einer Sammlung)."),
        ("ru", _LAY, None, "P0 выкладывает 3 совы слева в ряд 2."),
        ("ru", cr.events.Laid(0, S.REED_WARBLER, 5, 1, cr.Side.RIGHT), 0,
         "Вы выкладываете 5 камышовок справа в ряд 1."),
        ("ru", cr.events.Laid(0, S.ROBIN, 1, 1, cr.Side.RIGHT), 0,
         "Вы выкладываете 1 малиновку справа в ряд 1."),
        ("ru", cr.events.Laid(0, S.FLAMINGO, 2, 1, cr.Side.LEFT), 0,
         "Вы выкладываете 2 фламинго слева в ряд 1."),
        ("ru", _CAPTURE, 0, "Вы забираете 1 утку и 2 тукана из ряда 2."),
        ("ru", cr.events.Captured(1, 3, (S.OWL,) * 21 + (S.PARROT,) * 11), None,
         "P1 забирает 21 сову и 11 попугаев из ряда 3."),
        ("ru", cr.events.Drew(1, 2, None), None, "P1 берёт из колоды 2 карты."),
        ("ru", cr.events.Drew(1, 2, (S.OWL, S.DUCK)), 1,
         "Вы берёте из колоды 2 карты: 1 сова и 1 утка."),
        ("ru", cr.events.DeclinedDraw(0), 0, "Вы не берёте карты."),
        ("ru", cr.events.FlewHome(1, S.TOUCAN, 3, 1), None,
         "P1 отправляет домой 3 тукана: 1 — в свою коллекцию, 2 — в сброс."),
        ("ru", cr.events.Reshuffled(12), None,
         "Сброс перемешивается и становится новой колодой."),
        ("ru", cr.events.RoundEnded(1, 0, (0, 1), ((0,) * 8,) * 2, ((0,) * 8,) * 2), 1,
         "Раунд 1 окончен: P0 остаётся без карт в руке; остальные сбрасывают из рук 1 карту."),
        ("ru", cr.events.Dealt(2, 0, (8, 8), (None, None)), 0,
         "Раунд 2: вы раздаёте каждому игроку 8 карт."),
        ("ru", cr.events.GameStarted(1, (0, 0, 0, 0, 0, 1, 0, 0), (8, 8), (None, None)), None,
         "Игра начинается: P1 раздаёт каждому игроку 8 карт; в сброс отложены карты: "
         "1 сорока."),
        ("ru", _WIN, 0, "Игра окончена: вы побеждаете (два вида по три птицы в коллекции)."),
        ("ru", _WIN, 1, "Игра окончена: P0 побеждает (два вида по три птицы в коллекции)."),
        ("ru", _SHARED, 1, "Игра окончена: P0 и вы делите победу (карты закончились; больше "
         "всего карт в коллекции)."),
        ("ru", _SHARED, None, "Игра окончена: P0 и P1 делят победу (карты закончились; больше "
         "всего карт в коллекции)."),
        ("ru", cr.events.GameOver((2,), "seven_species"), None,
         "Игра окончена: P2 побеждает (семь видов в коллекции)."),
    ],
)  # fmt: skip
def test_german_and_russian_sentences(
    language: str, event: cr.Event, viewer: int | None, sentence: str
) -> None:
    assert describe_event(event, viewer, language=language) == sentence


@pytest.mark.parametrize("language", ["fr", "EN", "de-DE", "de_DE", "", None, 7, ("de",)])
def test_an_unknown_language_is_a_typed_error(language: object) -> None:
    drew = cr.events.Drew(0, 2, None)
    lang = cast(str, language)
    calls: list[Callable[[], object]] = [
        lambda: describe_event(drew, 0, language=lang),
        lambda: narrate([drew], 0, language=lang),
        lambda: species_name(S.OWL, language=lang),
        lambda: seat_name(0, None, language=lang),
        lambda: phrase("cards", lang, count=2),
    ]
    for call in calls:
        with pytest.raises(NarrationError, match=r"language: .* is not available") as info:
            call()
        assert isinstance(info.value, cr.CuckooError)
        assert isinstance(info.value, ValueError)
        assert str(info.value).endswith("(the narration speaks: en, de, ru)")


# --------------------------------------------------------------------------- phrase()


def test_phrase_fills_a_template_and_picks_the_plural_form() -> None:
    assert phrase("side.left") == "on the left"
    assert phrase("side.left", "de") == "links"
    assert phrase("cards", count=1) == "1 card"
    assert phrase("cards", "en", count=0) == "0 cards"
    assert phrase("cards", "de", count=1) == "1 Karte"
    assert [phrase("cards", "ru", count=n) for n in (1, 3, 5, 21)] == [
        "1 карта", "3 карты", "5 карт", "21 карта"
    ]  # fmt: skip
    assert phrase("cards_object", "ru", count=21) == "21 карту"
    assert phrase("seat_named", "ru", seat=2, name="cy") == "P2 cy"
    assert phrase("dealt_share", "de", number=3, seat="dich") == "3 an dich"
    # Fields the template does not use are ignored, as str.format does.
    assert phrase("nothing", "de", extra=1) == "nichts"


def test_a_counted_phrase_needs_a_count_and_a_plain_one_takes_none() -> None:
    with pytest.raises(NarrationError, match=r"count: the phrase 'cards' needs a count"):
        phrase("cards", "de")
    with pytest.raises(NarrationError, match=r"count: the phrase 'nothing' takes no count"):
        phrase("nothing", "ru", count=2)


def test_a_phrase_missing_a_field_is_a_typed_error() -> None:
    with pytest.raises(NarrationError, match=r"fields: the phrase 'seat_named' needs the field"):
        phrase("seat_named", "de", seat=1)
    with pytest.raises(NarrationError, match=r"'name'"):
        phrase("seat_named", "ru", seat=1)


@pytest.mark.parametrize("key", ["nope", "cards#one", "birds.owl#few", "species.", "", "terminal."])
def test_an_unknown_phrase_key_is_a_typed_error(key: str) -> None:
    with pytest.raises(NarrationError, match=r"key: .* is not a phrase key"):
        phrase(key, "ru")


def test_a_bad_viewer_is_refused() -> None:
    with pytest.raises(cr.ViewError):
        describe_event(cr.events.DeclinedDraw(0), -1)


# --------------------------------------------------------------------------- no leaks


def _bird_words(language: str, species: cr.Species) -> set[str]:
    """Every form of a species' name in the language: its name and its counted forms."""
    table = PHRASES[language]
    forms = {table[f"species.{species.value}"]}
    for key, template in table.items():
        if key.partition("#")[0] in (f"birds.{species.value}", f"birds_object.{species.value}"):
            forms.add(template.replace("{count}", "").strip())
    return forms


_SPECIES_WORDS = {
    language: {
        species: re.compile(
            r"\b(?:" + "|".join(map(re.escape, _bird_words(language, species))) + r")\b"
        )
        for species in cr.SPECIES
    }
    for language in LANGUAGES
}


def mentioned(sentence: str, language: str = "en") -> set[cr.Species]:
    words = _SPECIES_WORDS[language]
    return {species for species, word in words.items() if word.search(sentence)}


def test_the_bird_words_are_every_form_of_the_names() -> None:
    assert _bird_words("en", S.REED_WARBLER) == {"reed warbler", "reed warblers"}
    assert _bird_words("de", S.TOUCAN) == {"Tukan", "Tukane"}
    assert _bird_words("ru", S.OWL) == {"сова", "совы", "сов", "сову"}
    assert mentioned("Вы забираете 1 сову и 5 уток.", "ru") == {S.OWL, S.DUCK}
    assert mentioned("Du nimmst 2 Rotkehlchen.", "de") == {S.ROBIN}


def public_species(event: cr.Event) -> set[cr.Species]:
    """The species an event redacted for its reader shows."""
    shown: set[cr.Species] = set()
    for value in (getattr(event, "species", None), getattr(event, "cards", None)):
        if isinstance(value, cr.Species):
            shown.add(value)
        elif isinstance(value, tuple):
            shown.update(value)
    if isinstance(event, cr.events.GameStarted):  # set aside face up: everyone saw them
        shown.update(s for s in cr.SPECIES if event.discarded[s.index])
    return shown


def games() -> Iterator[tuple[cr.GameOptions, int]]:
    rng = random.Random(2024)
    for players in (2, 3, 4, 5):
        for _ in range(2):
            options = cr.GameOptions(
                num_players=players,
                round_end_timing=rng.choice(["end_of_turn", "immediate"]),
                always_prompt_flock=rng.random() < 0.5,
            )
            yield options, rng.randrange(2**64)


def played(options: cr.GameOptions, seed: int) -> tuple[cr.Match, list[cr.Event]]:
    """A whole random game of ``options``, and all its events unredacted."""
    rng = random.Random(seed)
    match = cr.Match(options, seed, [None] * options.num_players, names=None)
    state = match.state
    full: list[cr.Event] = [cr.events.GameStarted.of(state)]  # the log's event 0
    while not match.is_over:
        seat = match.view(None).current_player
        action = rng.choice(match.legal_actions(seat))
        full += cr.step(state, action)[1]
        match.act(seat, action)
        state = match.state
    return match, full


@pytest.mark.parametrize(("options", "seed"), list(games()))
def test_no_sentence_names_a_card_its_reader_could_not_see(
    options: cr.GameOptions, seed: int
) -> None:
    match, full = played(options, seed)
    kinds = Counter(type(event).__name__ for event in full)
    assert kinds["Drew"]
    assert kinds["Laid"]
    assert kinds["GameOver"] == 1
    for language in LANGUAGES:
        for viewer in [*range(options.num_players), None]:
            seen = match.events(viewer)
            assert seen == cr.visible_events(full, viewer)
            # Given the unredacted events, the narration redacts them itself.
            told = narrate(seen, viewer, language=language)
            assert narrate(full, viewer, language=language) == told
            for event in seen:
                sentence = describe_event(event, viewer, language=language)
                if sentence is None:
                    continue
                shown = mentioned(sentence, language)
                assert shown <= public_species(event), (language, viewer, event, sentence)
                if isinstance(event, cr.events.Drew) and event.player != viewer:
                    assert not shown, sentence
                if isinstance(event, cr.events.Dealt | cr.events.RoundEnded):
                    assert not shown, sentence


def _words(text: str) -> set[str]:
    """The words of a text (or of a template, its fields left out), in lower case."""
    return set(re.findall(r"[^\W\d_]+", re.sub(r"\{\w*\}", " ", text).lower()))


# The words of the English templates that the other language's have not ("lays", "owl").
_ENGLISH_ONLY = {
    language: set().union(*map(_words, TABLES["en"].values()))
    - set().union(*map(_words, TABLES[language].values()))
    for language in ("de", "ru")
}


@pytest.mark.parametrize("language", ["de", "ru"])
@pytest.mark.parametrize(("options", "seed"), list(games())[::2])
def test_whole_games_told_in_german_and_russian(
    language: str, options: cr.GameOptions, seed: int
) -> None:
    match, _ = played(options, seed)
    names = ["ann", "bob", "cy", "dee", "eve"][: options.num_players]
    assert {"lays", "owl", "owls", "row", "you", "draws"} <= _ENGLISH_ONLY[language]
    for viewer in [*range(options.num_players), None]:
        seen = match.events(viewer)
        english = narrate(seen, viewer, names=names)
        told = narrate(seen, viewer, names=names, language=language)
        assert len(told) == len(english) > 10
        described = [describe_event(event, viewer, language=language) for event in seen]
        assert [line is None for line in described] == [
            describe_event(event, viewer) is None for event in seen
        ]
        for sentence in told + [line for line in described if line is not None]:
            assert sentence.strip() == sentence, sentence
            assert sentence[:1].isupper(), sentence
            assert sentence.endswith("."), sentence
            assert "{" not in sentence, sentence
            assert "}" not in sentence, sentence
            assert not mentioned(sentence) - mentioned(sentence, language), sentence
            # No English word is left over, once the seats ("P2", "P2 cy") are taken out.
            bare = re.sub(r"\bP\d( (?:ann|bob|cy|dee|eve)\b)?", "", sentence)
            assert not _words(bare) & _ENGLISH_ONLY[language], sentence
            if language == "ru":
                assert not re.search(r"[A-Za-z]", bare), sentence


def test_a_seats_own_draw_is_named_and_nobody_elses() -> None:
    options = cr.GameOptions(num_players=3)
    match = cr.Match(options, 5, [None] * 3)
    rng = random.Random(5)
    draws = 0
    while not match.is_over and draws < 20:
        seat = match.view(None).current_player
        shown = match.event_count
        match.act(seat, rng.choice(match.legal_actions(seat)))
        for viewer in (0, 1, 2, None):
            for event in match.events(viewer, shown):
                if isinstance(event, cr.events.Drew) and event.count:
                    draws += viewer == 0
                    sentence = describe_event(event, viewer)
                    assert sentence is not None
                    assert (event.player == viewer) is (":" in sentence)
    assert draws


# --------------------------------------------------------------------------- game over


_YOU_WIN = {
    "en": "Game over: you win (",
    "de": "Spielende: du gewinnst (",
    "ru": "Игра окончена: вы побеждаете (",
}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 1), (3, 5), (4, 16)])
def test_the_game_over_sentence_names_the_outcomes_reason(
    players: int, seed: int, language: str
) -> None:
    options = cr.GameOptions(num_players=players)
    match = cr.Match(options, seed, [None] * players)
    rng = random.Random(seed)
    while not match.is_over:
        seat = match.view(None).current_player
        match.act(seat, rng.choice(match.legal_actions(seat)))
    outcome = match.outcome
    assert outcome is not None
    (over,) = [e for e in match.events(None) if isinstance(e, cr.events.GameOver)]
    assert (over.winners, over.reason) == (outcome.winners, outcome.reason)
    for viewer in [*range(players), None]:
        sentence = narrate(match.events(viewer), viewer, language=language)[-1]
        assert sentence.startswith(_YOU_WIN[language].partition(":")[0] + ": ")
        assert f"({PHRASES[language][f'reason.{outcome.reason}']})." in sentence
        winners = [seat_name(seat, viewer, language=language) for seat in outcome.winners]
        assert all(name in sentence for name in winners)
        if outcome.winners == (viewer,):
            assert sentence.startswith(_YOU_WIN[language])


@pytest.mark.parametrize("reason", get_args(cr.outcome.WinReason))
def test_every_reason_has_its_words(reason: cr.outcome.WinReason) -> None:
    sentence = describe_event(cr.events.GameOver((0,), reason), None)
    assert sentence == f"Game over: P0 wins ({PHRASES['en'][f'reason.{reason}']})."
