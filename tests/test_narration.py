"""Tests of the narration: the phrase table, every event for every reader, no leaks."""

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
from cuckoo_rules.narration import (
    LANGUAGES,
    PHRASE_KEYS,
    PHRASES,
    PLURAL_KEYS,
    PLURAL_RULES,
    NarrationError,
    describe_event,
    narrate,
    seat_name,
    species_name,
)

S = cr.Species

# --------------------------------------------------------------------------- the table


def categories(language: str) -> set[str]:
    """The plural categories the language's rule gives to the numbers a game can show."""
    return {PLURAL_RULES[language](n) for n in range(1000)}


def expected_keys(language: str) -> set[str]:
    plain = PHRASE_KEYS - PLURAL_KEYS
    return set(plain) | {f"{key}#{c}" for key in PLURAL_KEYS for c in categories(language)}


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def test_the_languages_are_those_of_the_table() -> None:
    assert LANGUAGES == tuple(PHRASES) == tuple(PLURAL_RULES)
    assert "en" in LANGUAGES
    assert PLURAL_KEYS <= PHRASE_KEYS


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_has_every_phrase_the_code_uses(language: str) -> None:
    table = PHRASES[language]
    missing = expected_keys(language) - set(table)
    extra = set(table) - expected_keys(language)
    assert not missing, f"{language} lacks {sorted(missing)}"
    assert not extra, f"{language} has phrases the code never uses: {sorted(extra)}"
    english = PHRASES["en"]
    for key, template in table.items():
        # A translation may leave a field out, never use one the code does not fill in.
        base = key.partition("#")[0]
        same = english.get(key) or english[f"{base}#other"]
        assert fields(template) <= fields(same), (language, key)
        assert template.strip(), (language, key)


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
    assert {"laid", "cards", "game_over", "list_two"} <= literals
    assert literals <= PHRASE_KEYS


def every_kind_of_event() -> list[cr.Event]:
    """At least one event of each kind, in each variant the narration tells apart."""
    events: list[cr.Event] = []
    for species in cr.SPECIES:
        events.append(cr.events.Laid(0, species, 1, 0, cr.Side.LEFT))
        events.append(cr.events.Laid(1, species, 3, 1, cr.Side.RIGHT))
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


def test_every_phrase_of_the_table_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    used: set[str] = set()
    real = narration._lookup

    def spy(table: dict[str, str], key: str) -> str:
        used.add(key)
        return real(table, key)

    monkeypatch.setattr(narration, "_lookup", spy)
    names = ["ann", "", "cy"]
    for viewer in (0, 1, None):
        for event in every_kind_of_event():
            describe_event(event, viewer, names=names)
            describe_event(event, viewer)
        narrate(every_kind_of_event(), viewer, names=names)
        narrate(
            [cr.events.Laid(0, S.OWL, 2, 1, cr.Side.LEFT), cr.events.Captured(0, 1, (S.DUCK,))],
            viewer,
        )
        for species in cr.SPECIES:
            species_name(species)
    assert used == expected_keys("en")


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


@pytest.mark.parametrize("language", ["de", "EN", "", None, 7])
def test_an_unknown_language_is_a_typed_error(language: object) -> None:
    drew = cr.events.Drew(0, 2, None)
    lang = cast(str, language)
    calls: list[Callable[[], object]] = [
        lambda: describe_event(drew, 0, language=lang),
        lambda: narrate([drew], 0, language=lang),
        lambda: species_name(S.OWL, language=lang),
        lambda: seat_name(0, None, language=lang),
    ]
    for call in calls:
        with pytest.raises(NarrationError, match=r"language: .* is not available") as info:
            call()
        assert isinstance(info.value, cr.CuckooError)
        assert isinstance(info.value, ValueError)
        assert "(the narration speaks: en)" in str(info.value)


def test_a_bad_viewer_is_refused() -> None:
    with pytest.raises(cr.ViewError):
        describe_event(cr.events.DeclinedDraw(0), -1)


# --------------------------------------------------------------------------- no leaks

_SPECIES_WORDS = {
    species: re.compile(rf"\b{re.escape(species_name(species))}s?\b") for species in cr.SPECIES
}


def mentioned(sentence: str) -> set[cr.Species]:
    return {species for species, word in _SPECIES_WORDS.items() if word.search(sentence)}


def public_species(event: cr.Event) -> set[cr.Species]:
    """The species an event redacted for its reader shows."""
    shown: set[cr.Species] = set()
    for value in (getattr(event, "species", None), getattr(event, "cards", None)):
        if isinstance(value, cr.Species):
            shown.add(value)
        elif isinstance(value, tuple):
            shown.update(value)
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


@pytest.mark.parametrize(("options", "seed"), list(games()))
def test_no_sentence_names_a_card_its_reader_could_not_see(
    options: cr.GameOptions, seed: int
) -> None:
    rng = random.Random(seed)
    match = cr.Match(options, seed, [None] * options.num_players, names=None)
    state = match.state
    full: list[cr.Event] = []
    while not match.is_over:
        seat = match.view(None).current_player
        action = rng.choice(match.legal_actions(seat))
        full += cr.step(state, action)[1]
        match.act(seat, action)
        state = match.state
    kinds = Counter(type(event).__name__ for event in full)
    assert kinds["Drew"]
    assert kinds["Laid"]
    assert kinds["GameOver"] == 1
    for viewer in [*range(options.num_players), None]:
        seen = match.events(viewer)
        assert seen == cr.visible_events(full, viewer)
        # Given the unredacted events, the narration redacts them itself.
        assert narrate(full, viewer) == narrate(seen, viewer)
        for event in seen:
            sentence = describe_event(event, viewer)
            if sentence is None:
                continue
            assert mentioned(sentence) <= public_species(event), (viewer, event, sentence)
            if isinstance(event, cr.events.Drew) and event.player != viewer:
                assert not mentioned(sentence), sentence
            if isinstance(event, cr.events.Dealt | cr.events.RoundEnded):
                assert not mentioned(sentence), sentence


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


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 1), (3, 5), (4, 16)])
def test_the_game_over_sentence_names_the_outcomes_reason(players: int, seed: int) -> None:
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
        sentence = narrate(match.events(viewer), viewer)[-1]
        assert sentence.startswith("Game over: ")
        assert f"({PHRASES['en'][f'reason.{outcome.reason}']})." in sentence
        winners = [seat_name(seat, viewer) for seat in outcome.winners]
        assert all(name in sentence for name in winners)
        if outcome.winners == (viewer,):
            assert sentence.startswith("Game over: you win (")


@pytest.mark.parametrize("reason", get_args(cr.outcome.WinReason))
def test_every_reason_has_its_words(reason: cr.outcome.WinReason) -> None:
    sentence = describe_event(cr.events.GameOver((0,), reason), None)
    assert sentence == f"Game over: P0 wins ({PHRASES['en'][f'reason.{reason}']})."
