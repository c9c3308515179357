"""The phrase tables of every front end, one per language, merged from their areas.

Each area module (:mod:`.narration`, :mod:`.terminal`, :mod:`.web`) holds
``PHRASES: dict[language, dict[key, template]]``; the terminal's keys start with
``terminal.``, the browser client's with ``web.``. :data:`TABLES` merges them into one
table per language, which :data:`cuckoo_rules.narration.PHRASES` publishes.
"""

from __future__ import annotations

from . import narration, terminal, web

LANGUAGES: tuple[str, ...] = ("en", "de", "ru")
"""The languages of the front ends, English first (the reference of every key)."""

_AREAS = (narration.PHRASES, terminal.PHRASES, web.PHRASES)


def _merged(language: str) -> dict[str, str]:
    table: dict[str, str] = {}
    for area in _AREAS:
        for key, template in area.get(language, {}).items():
            if key in table:
                raise AssertionError(f"phrase {key!r} of {language!r} is defined twice")
            table[key] = template
    return table


TABLES: dict[str, dict[str, str]] = {language: _merged(language) for language in LANGUAGES}
"""Every phrase of each language: language, then key, to a template."""
