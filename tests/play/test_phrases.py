"""Tests of the phrase tables of every front end: each language complete, in each area.

One table per language (:data:`cuckoo_rules.narration.PHRASES`) holds every text of the
narration, the terminal (``terminal.*``) and the browser client (``web.*``), merged from
the area modules of :mod:`cuckoo_rules._phrases`. English is the reference: a phrase
missing in German or Russian, one they have beyond English, or one with other fields
fails here. The plural categories must be those of JavaScript's ``Intl.PluralRules``,
which the browser client uses to pick the same forms from the same table.
"""

from __future__ import annotations

import ast
import json
import shutil
import string
import subprocess
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

from cuckoo_rules import _phrases
from cuckoo_rules._phrases import narration as narration_area
from cuckoo_rules._phrases import terminal as terminal_area
from cuckoo_rules._phrases import web as web_area
from cuckoo_rules.narration import (
    LANGUAGES,
    PHRASE_KEYS,
    PHRASES,
    PLURAL_KEYS,
    PLURAL_RULES,
    NarrationError,
    phrase,
)

AREAS: dict[str, ModuleType] = {
    "narration": narration_area,
    "terminal": terminal_area,
    "web": web_area,
}
"""Each area module, by the prefix of its keys (the narration's keys have none)."""


def categories(language: str) -> set[str]:
    """The plural categories the language's rule gives to 0 ... 1000."""
    return {PLURAL_RULES[language](n) for n in range(1001)}


def expected_keys(language: str, keys: set[str] | frozenset[str] = PHRASE_KEYS) -> set[str]:
    """The keys a language's table must have: plain ones as they are, counted ones per category."""
    plain = {key for key in keys if key not in PLURAL_KEYS}
    counted = {key for key in keys if key in PLURAL_KEYS}
    return plain | {f"{key}#{c}" for key in counted for c in categories(language)}


def fields(template: str) -> set[str]:
    """The named fields of a template (raises ValueError if its braces do not pair up)."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def english_of(key: str) -> str:
    """The English template a key of any language is checked against."""
    english = PHRASES["en"]
    base, _, _ = key.partition("#")
    return english.get(key) or english[f"{base}#other"]


# --------------------------------------------------------------------------- completeness


def test_the_table_is_the_merge_of_the_areas() -> None:
    assert tuple(_phrases.LANGUAGES) == LANGUAGES == tuple(PHRASES)
    for language in LANGUAGES:
        merged: dict[str, str] = {}
        for module in AREAS.values():
            merged.update(module.PHRASES[language])
        assert dict(PHRASES[language]) == merged == _phrases.TABLES[language]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_has_every_phrase_of_english_and_no_other(language: str) -> None:
    table = PHRASES[language]
    missing = sorted(expected_keys(language) - set(table))
    extra = sorted(set(table) - expected_keys(language))
    assert not missing, f"{language} lacks {len(missing)} phrases: {missing}"
    assert not extra, f"{language} has phrases English has not: {extra}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_phrase_has_the_fields_of_english_and_some_words(language: str) -> None:
    wrong = []
    for key, template in PHRASES[language].items():
        if fields(template) != fields(english_of(key)):
            wrong.append((key, sorted(fields(template)), sorted(fields(english_of(key)))))
    assert not wrong, f"{language}: phrases whose fields differ from English: {wrong}"
    empty = sorted(key for key, template in PHRASES[language].items() if not template.strip())
    assert not empty, f"{language}: empty phrases: {empty}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_field_is_named(language: str) -> None:
    for key, template in PHRASES[language].items():
        for name in fields(template):
            # phrase() fills templates by keyword: "{}", "{0}" or "{a.b}" could not be filled.
            assert name.isidentifier(), (language, key, name)


@pytest.mark.parametrize("language", LANGUAGES)
def test_phrase_fills_every_template_of_every_language(language: str) -> None:
    for key in sorted(PHRASE_KEYS):
        counted = key in PLURAL_KEYS
        english = PHRASES["en"][f"{key}#other" if counted else key]
        names = sorted(fields(english) - {"count"})
        values = {name: f"<{name}>" for name in names}
        numbers = (0, 1, 2, 5, 21) if counted or "count" in fields(english) else (None,)
        for n in numbers:
            text = phrase(key, language, count=n, **values)
            assert all(f"<{name}>" in text for name in names), (language, key, text)
            if "count" in fields(english):
                assert str(n) in text, (language, key, text)
            if names:
                with pytest.raises(NarrationError, match="fields: the phrase"):
                    phrase(key, language, count=n)
        if not counted and "count" not in fields(english):
            with pytest.raises(NarrationError, match="takes no count"):
                phrase(key, language, count=2, **values)


# --------------------------------------------------------------------------- the areas


@pytest.mark.parametrize("area", AREAS)
def test_each_area_speaks_every_language(area: str) -> None:
    tables = AREAS[area].PHRASES
    assert tuple(tables) == LANGUAGES, area


@pytest.mark.parametrize("area", AREAS)
def test_each_area_keeps_to_its_prefix(area: str) -> None:
    for language, table in AREAS[area].PHRASES.items():
        for key in table:
            if area == "narration":
                assert not key.startswith(("terminal.", "web.")), (language, key)
            else:
                assert key.startswith(f"{area}."), (area, language, key)


def test_no_key_is_in_two_areas() -> None:
    for language in LANGUAGES:
        seen = Counter(key for module in AREAS.values() for key in module.PHRASES[language])
        assert not [key for key, n in seen.items() if n > 1], language


def _literal_keys_written_twice(source: str) -> list[str]:
    """The string keys written twice in one dict literal (the second silently wins)."""
    twice = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Dict):
            keys = [
                k.value
                for k in node.keys
                if isinstance(k, ast.Constant) and isinstance(k.value, str)
            ]
            twice += [key for key, n in Counter(keys).items() if n > 1]
    return twice


def test_the_duplicate_finder_finds_duplicates() -> None:
    assert _literal_keys_written_twice('T = {"a": "1", "b": "2", "a": "3"}') == ["a"]
    assert _literal_keys_written_twice('T = {"a": "1", "b": {"a": "2"}}') == []


@pytest.mark.parametrize("area", AREAS)
def test_no_area_module_writes_a_key_twice(area: str) -> None:
    path = AREAS[area].__file__
    assert path is not None
    assert not _literal_keys_written_twice(Path(path).read_text(encoding="utf-8")), area


# --------------------------------------------------------------------------- plural rules

# Intl.PluralRules("ru").select(n) in Node 18 (ICU/CLDR), captured once: the browser
# client picks plural forms with it, so ours must agree.
INTL_RUSSIAN = (
    dict.fromkeys([*range(31), *range(100, 126)], "many")
    | dict.fromkeys((1, 21, 101, 121), "one")
    | dict.fromkeys((2, 3, 4, 22, 23, 24, 102, 103, 104, 122, 123, 124), "few")
)


def test_the_captured_intl_table_is_as_captured() -> None:
    assert len(INTL_RUSSIAN) == 57
    assert (INTL_RUSSIAN[0], INTL_RUSSIAN[11], INTL_RUSSIAN[111], INTL_RUSSIAN[112]) == (
        "many",
        "many",
        "many",
        "many",
    )


@pytest.mark.parametrize(("n", "category"), sorted(INTL_RUSSIAN.items()))
def test_russian_plurals_are_those_of_intl(n: int, category: str) -> None:
    assert PLURAL_RULES["ru"](n) == category


@pytest.mark.parametrize("language", ["en", "de"])
def test_english_and_german_plurals_are_those_of_intl(language: str) -> None:
    assert {n: PLURAL_RULES[language](n) for n in range(126)} == {
        n: "one" if n == 1 else "other" for n in range(126)
    }


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_plural_rules_agree_with_node_intl() -> None:
    script = (
        "const out = {};"
        f"for (const lang of {json.dumps(list(LANGUAGES))}) {{"
        "  const rules = new Intl.PluralRules(lang);"
        "  out[lang] = Array.from({length: 1001}, (_, n) => rules.select(n));"
        "}"
        "console.log(JSON.stringify(out));"
    )
    node = shutil.which("node")
    assert node is not None
    result = subprocess.run(
        [node, "-e", script], capture_output=True, text=True, timeout=60, check=True
    )
    intl = json.loads(result.stdout)
    for language in LANGUAGES:
        ours = [PLURAL_RULES[language](n) for n in range(1001)]
        assert ours == intl[language], language
