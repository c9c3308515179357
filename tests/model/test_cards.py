"""The cards, as the rules' table states them (``docs/rules.md`` §1)."""

from __future__ import annotations

import cuckoo_rules as cr

RULES_TABLE = [
    ("flamingo", "Pink Flamingo", 7, 2, 3),
    ("owl", "Owl", 10, 3, 4),
    ("toucan", "Toucan", 10, 3, 4),
    ("duck", "Duck", 13, 4, 6),
    ("parrot", "Parrot", 13, 4, 6),
    ("magpie", "Magpie", 17, 5, 7),
    ("reed_warbler", "Reed Warbler", 20, 6, 9),
    ("robin", "Robin", 20, 6, 9),
]
"""Rules §1, row by row: id, name, copies, small flock, big flock, in the canonical order."""


def test_every_species_has_the_numbers_of_the_rules_table_in_its_order() -> None:
    found = [(s.value, s.label, s.copies, s.small_flock, s.big_flock) for s in cr.SPECIES]
    assert found == RULES_TABLE
    assert [s.index for s in cr.SPECIES] == list(range(8))


def test_the_deck_holds_110_cards() -> None:
    assert sum(s.copies for s in cr.SPECIES) == 110
