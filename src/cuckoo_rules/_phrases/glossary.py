"""The glossary: one word per concept in every language, the seeds' words where they have one.

``docs/glossary.md`` gives the reasons and cites the seeds; this module is the same
glossary as data, which ``tests/play/test_glossary.py`` checks every phrase against:

- a phrase whose English names a concept (:attr:`Term.english` finds it) uses the
  concept's word in German and Russian (:attr:`Term.words`, a regular expression for
  the word's forms), unless its key is one of the term's :attr:`Term.exempt`;
- no phrase of a language uses a word the glossary rules out for it
  (:attr:`Term.forbidden`: the synonyms that would make two words of one concept);
- a phrase whose English names the concept but not its neighbour (:attr:`Term.apart_from`)
  avoids the neighbour's word (:attr:`Term.avoid`): a move is not called a turn.

Example:
    >>> import re
    >>> term = TERMS["capture"]
    >>> bool(re.search(term.words["de"], "nimmt 2 Enten auf die Hand"))
    True
    >>> [bool(re.search(p, "fängt 2 Enten")) for p in term.forbidden["de"]]
    [True, False, False]
"""

# The comments quote the Russian seed: Cyrillic letters that look Latin are meant.
# ruff: noqa: RUF003

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import attrs


@attrs.frozen
class Term:
    """One concept of the game and its word in each language.

    Attributes:
        concept: The concept's name (a key of :data:`TERMS`).
        english: A regular expression that finds the concept in an English phrase.
        words: Per language (``"de"``, ``"ru"``), the expression every phrase naming the
            concept must match: the forms of the glossary's word.
        forbidden: Per language, expressions no phrase of that language may match: the
            other words for the same concept.
        avoid: Per language, expressions a phrase naming this concept (and not the
            concept :attr:`apart_from`) may not match: a neighbour concept's word.
        apart_from: The neighbour concept whose mention lifts :attr:`avoid`.
        exempt: Keys whose phrases name the concept in English but rightly say it
            otherwise (each with its reason in ``docs/glossary.md``).
    """

    concept: str
    english: str
    words: Mapping[str, str] = attrs.field(factory=dict)
    forbidden: Mapping[str, tuple[str, ...]] = attrs.field(factory=dict)
    avoid: Mapping[str, tuple[str, ...]] = attrs.field(factory=dict)
    apart_from: str | None = None
    exempt: frozenset[str] = frozenset()


_TERMS: tuple[Term, ...] = (
    Term(
        # SEED0 "Complete a flock or 'Fly Home'"; SEED2 "darf ... einen Schwarm ausspielen",
        # "Zum Ausspielen"; SEED1 «Завершите стаю или "Улетай домой"».
        concept="fly_home",
        english=r"\bfl(y|ies|ew|ying)\b",
        words={"de": r"(?i)ausspiel|ausgespielt|spiel\w*\b.*\baus\b", "ru": r"(?i)отправ"},
        forbidden={
            "de": (r"(?i)flieg", r"(?i)\bheim", r"(?i)nach hause"),
            "ru": (r"улет", r"разыгр"),
        },
        exempt=frozenset({"terminal.do.fly_short"}),
    ),
    Term(
        # SEED0 "lay birds"; SEED2 "Vogelkarten anlegen", "Zum Anlegen"; SEED1 «положить».
        concept="lay",
        english=r"\blay(s|ing)?\b|\blaid\b",
        words={
            "de": r"(?i)anleg|angeleg|\bleg(e|t|st)?\b.*\ban\b",
            "ru": r"(?i)выкла|выложи|выложен",
        },
        forbidden={
            "de": (r"(?i)auslag", r"(?i)auslegen|ausgelegt|auslegt"),
            "ru": (r"(?i)\bполож", r"(?i)\bклад"),
        },
        exempt=frozenset({"web.option.refill_trigger.help"}),
    ),
    Term(
        # SEED0 "take all the cards between these birds into their hand"; SEED2 "nimmt er
        # sich alle anderen Karten ... auf die eigene Hand"; SEED1 «взять все карты ... в руку».
        concept="capture",
        english=r"captur|\btook\b",
        words={
            "de": r"auf die (eigene )?Hand|aufgenommen|aufnehm|Aufnehm|aufzunehm",
            "ru": r"забра|забира|в руку",
        },
        forbidden={
            "de": (r"(?i)\bfäng", r"(?i)\bfang", r"(?i)gefangen"),
            "ru": (r"(?i)захват",),
        },
    ),
    Term(
        # SEED0 "discard pile"; SEED2 "Ablagestapel"; SEED1 «стопка сброса».
        concept="discard_pile",
        english=r"discard pile",
        words={"de": r"Ablagestapel", "ru": r"(?i)сброс"},
        forbidden={"de": (r"\bAblage\b",)},
    ),
    Term(
        # SEED0 "draw pile"; SEED2 "Nachziehstapel"; SEED1 «колода».
        concept="draw_pile",
        english=r"draw pile",
        words={"de": r"Nachziehstapel|Nachzieh-", "ru": r"колод"},
    ),
    Term(
        # SEED0 "dealer", "deal 8 cards"; SEED2 "Kartengeber", "ausgeteilt"; SEED1 «дилер»,
        # «раздать 8 карт».
        concept="deal",
        english=r"\bdeal(s|t|ing|er)?\b|round-ender",
        words={"de": r"(?i)teil|kartengeber", "ru": r"разда"},
        forbidden={
            "de": (r"\bGeber\b", r"\bes gibt \{dealer\}"),
            "ru": (r"(?i)сда[её]т|сдающ|сдач|сдава|\bсдать|дилер",),
        },
    ),
    Term(
        # SEED2 "er darf auf das Ziehen allerdings auch verzichten"; the game's command and
        # button say "pass": de "passen", ru «пас» / «спасовать».
        concept="pass",
        english=r"\bpass\b",
        words={"de": r"(?i)\bpass", "ru": r"(?i)пас"},
        forbidden={"de": (r"(?i)verzicht",), "ru": (r"(?i)пропуст|пропуск",)},
        exempt=frozenset({"terminal.help"}),
    ),
    Term(
        # SEED0 "in their hand"; SEED2 "auf der Hand", "Handkarten"; SEED1 «в руке».
        concept="hand",
        english=r"\bhands?\b",
        words={"de": r"Hand|Händ", "ru": r"рук"},
        forbidden={"ru": (r"(?i)\bна рук",)},
    ),
    Term(
        # SEED0 "On their turn"; SEED2 "am Ende seines Zuges", "ihre Züge"; SEED1 «В свой ход».
        concept="turn",
        english=r"\bturns?\b",
        words={"de": r"Zug|Züg|\bdran\b", "ru": r"(?i)ход"},
    ),
    Term(
        # One of the choices within a turn (a lay, a draw, a flock, a pass): numbered on
        # the screen. Not "Zug" / «ход», which are the turn's.
        concept="move",
        english=r"\bmov(e|es|ed)\b",
        words={"de": r"Aktion", "ru": r"(?i)действи"},
        avoid={"de": (r"\bZ[uü]g",), "ru": (r"(?i)\bход",)},
        apart_from="turn",
    ),
    Term(
        # The screen's board (the rows, the hand, the players): not the table it lies on.
        concept="board",
        english=r"\bboard\b",
        words={"de": r"Spielfeld", "ru": r"(?i)игров\w* пол|\bпол[ея]\b"},
        avoid={"de": (r"Tisch",), "ru": (r"(?i)стол",)},
    ),
    Term(
        # Optional (a form field, the optional draw): not "freiwillig" (voluntary).
        concept="optional",
        english=r"\boptional\b",
        forbidden={"de": (r"(?i)freiwillig",)},
    ),
    Term(
        # SEED0 "flock"; SEED2 "Schwarm"; SEED1 «стая».
        concept="flock",
        english=r"\bflocks?\b",
        words={"de": r"Schwarm|Schwärm", "ru": r"(?i)\bста(я|и|ю|й|е|ям|ях|ями)\b"},
    ),
    Term(
        # SEED0 "collection"; SEED2 "Sammlung"; SEED1 «коллекция».
        concept="collection",
        english=r"\bcollections?\b",
        words={"de": r"Sammlung", "ru": r"коллекц"},
    ),
    Term(
        # SEED0 "row"; SEED2 "Reihe"; SEED1 «ряд».
        concept="row",
        english=r"\brows?\b",
        words={"de": r"Reihe", "ru": r"(?i)ряд"},
    ),
)

TERMS: Mapping[str, Term] = MappingProxyType({term.concept: term for term in _TERMS})
"""The glossary: concept to :class:`Term`, in the order of ``docs/glossary.md``."""
