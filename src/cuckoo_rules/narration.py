"""Events told as sentences, for every front end: :func:`describe_event` and :func:`narrate`.

The terminal game, ``cuckoo-rules demo`` and ``replay``, and the web server tell what
happened with the same sentences, made here from the events a seat may see
(:func:`~cuckoo_rules.visible_events`) and the seats' names, nothing else: a sentence
cannot reveal a card its reader did not see. The reader (``viewer``) is a seat, whose
own moves are told as "you", or ``None`` for a spectator.

**Languages.** The narration speaks English (``"en"``), German (``"de"``, the reader is
"du") and Russian (``"ru"``, the reader is "вы"): :data:`LANGUAGES`. Every word comes from
:data:`PHRASES`, one table per language of templates with named fields
(``"{player} lays {birds} {side} of row {row}."``), so a new language is a new table
(and its plural rule in :data:`PLURAL_RULES`), not new code:

- A key ending in ``_you`` is the variant of a sentence whose subject is the reader
  (``"You lay ..."`` beside ``"P1 lays ..."``), so each language conjugates its verbs
  (``"Du legst ..."``, ``"Вы выкладываете ..."``); ``you_object`` is the reader where
  a share of a deal goes (``"8 to you"``, ``"8 an dich"``, ``"8 — вам"``).
- A counted phrase (the keys of :data:`PLURAL_KEYS`: ``cards``, ``birds.<species>``
  and their ``_object`` forms) is stored once per plural category of the language, as
  ``"cards#one"`` and ``"cards#other"`` in English and German, ``"cards#one"``,
  ``"cards#few"`` and ``"cards#many"`` in Russian (1 карта, 3 карты, 5 карт); the
  language's rule in :data:`PLURAL_RULES` says which category a number takes, as
  JavaScript's ``Intl.PluralRules`` does.
- A count that is a verb's object (what is laid, taken, drawn, dealt) is an ``_object``
  phrase, ``"cards_object"`` or ``"birds_object.<species>"``: the same words as the
  plain one in English and German, the accusative in Russian ("1 сову" beside the
  "1 сова" of a hand or a list).
- Species names are phrases too: ``"species.reed_warbler"`` is ``"reed warbler"``,
  ``"birds.reed_warbler#other"`` is ``"{count} reed warblers"`` (``"Rohrsänger"``,
  ``"камышовка"``).
- Lists are joined by the ``list_*`` phrases, as ``"1 owl, 2 ducks and 1 robin"``.
- Sentences start with a capital letter whatever their template starts with (a seat
  may be ``"you"``).

The table of a language holds every text of every front end, merged from one module
per area in ``cuckoo_rules/_phrases/``: ``narration.py`` (the keys above),
``terminal.py`` (keys starting with ``terminal.``) and ``web.py`` (``web.``, sent to the
browser by ``GET /api/phrases/<lang>``). :func:`phrase` fills any of them in, picking
the plural form of a counted one. :data:`PHRASE_KEYS` lists every key; the tests check
that every language has each of them (in every plural category its rule uses) and no
other, with the fields English has.

Example:
    >>> from cuckoo_rules import Side, Species
    >>> from cuckoo_rules.events import Captured, Drew, FlewHome, Laid
    >>> describe_event(Laid(1, Species.REED_WARBLER, 3, 2, Side.LEFT), 0)
    'P1 lays 3 reed warblers on the left of row 2.'
    >>> drew = Drew(1, 2, (Species.OWL, Species.DUCK))
    >>> describe_event(drew, 1), describe_event(drew, 0, names=["ann", "bob"])
    ('You draw 2 cards: 1 owl and 1 duck.', 'P1 bob draws 2 cards.')

    The same in German and Russian:

    >>> describe_event(Laid(1, Species.OWL, 3, 2, Side.LEFT), 1, language="de")
    'Du legst 3 Eulen links an Reihe 2 an.'
    >>> describe_event(drew, 1, language="ru")
    'Вы берёте из колоды 2 карты: 1 сова и 1 утка.'
    >>> lay, capture = Laid(0, Species.DUCK, 1, 0, Side.RIGHT), Captured(0, 0, (Species.OWL,))
    >>> narrate([lay, capture], None, names=["ann", "bob"], language="ru")
    ['P0 ann выкладывает 1 утку справа в ряд 0 и забирает 1 сову.']
    >>> describe_event(FlewHome(0, Species.ROBIN, 5, 2), None, language="de")
    'P0 spielt 5 Rotkehlchen als Schwarm aus: 2 in die eigene Sammlung, 3 auf den Ablagestapel.'
"""

from __future__ import annotations

import itertools
import string
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MappingProxyType

from ._phrases import LANGUAGES as _AREA_LANGUAGES
from ._phrases import TABLES as _TABLES
from .cards import SPECIES, Species
from .errors import NarrationError, short_repr
from .events import (
    Captured,
    Dealt,
    DeclinedDraw,
    DeclinedFlock,
    Drew,
    Event,
    FlewHome,
    GameOver,
    GameStarted,
    Laid,
    Reshuffled,
    RoundEnded,
    RowRefilled,
    TurnEnded,
    TurnStarted,
    visible_events,
)

__all__ = [
    "LANGUAGES",
    "PHRASES",
    "PHRASE_KEYS",
    "PLURAL_KEYS",
    "PLURAL_RULES",
    "NarrationError",
    "cards_text",
    "describe_event",
    "narrate",
    "phrase",
    "seat_name",
    "species_name",
]


def _english_plural(count: int) -> str:
    """English and German: ``one`` for 1, ``other`` for every other number."""
    return "one" if count == 1 else "other"


def _russian_plural(count: int) -> str:
    """Russian (CLDR, whole numbers): ``one`` (1, 21, ...), ``few`` (2-4, 22-24, ...), ``many``."""
    ones, tens = count % 10, count % 100
    if ones == 1 and tens != 11:
        return "one"
    if 2 <= ones <= 4 and not 12 <= tens <= 14:
        return "few"
    return "many"


LANGUAGES: tuple[str, ...] = _AREA_LANGUAGES
"""The languages the narration and the front ends speak, as keys of :data:`PHRASES`:
English (``"en"``), German (``"de"``) and Russian (``"ru"``)."""

PHRASES: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {language: MappingProxyType(_TABLES[language]) for language in LANGUAGES}
)
"""The phrase table: language, then phrase key, to a template with named fields.

One table per language holds every text of every front end: the narration's keys, the
terminal's (``terminal.*``) and the browser client's (``web.*``). Plural phrases are
stored as ``key#category`` (``"cards#other": "{count} cards"``); see the module
documentation.
"""

PLURAL_RULES: Mapping[str, Callable[[int], str]] = MappingProxyType(
    {"en": _english_plural, "de": _english_plural, "ru": _russian_plural}
)
"""For each language, the plural category of a whole number (``"one"``, ``"few"``, ...).

The categories are CLDR's, as JavaScript's ``Intl.PluralRules`` gives them, so the
browser client picks the same forms."""

_ENGLISH = PHRASES["en"]

PLURAL_KEYS: frozenset[str] = frozenset(key.partition("#")[0] for key in _ENGLISH if "#" in key)
"""The counted phrases, stored as ``key#category`` for each plural category of a language."""

PHRASE_KEYS: frozenset[str] = frozenset(key.partition("#")[0] for key in _ENGLISH)
"""Every phrase key the front ends look up, counted ones (:data:`PLURAL_KEYS`) included.

A language's table holds each key of ``PHRASE_KEYS - PLURAL_KEYS`` as it is, and each
key of :data:`PLURAL_KEYS` as ``key#category``.
"""


_COUNTING: frozenset[str] = frozenset(
    key
    for key, template in _ENGLISH.items()
    if "#" not in key
    and any(name == "count" for _, name, _, _ in string.Formatter().parse(template))
)
"""The plain phrases with a field ``count`` (``"Your hand ({count}):"``): no plural form."""


# --------------------------------------------------------------------------- phrases


def _table(language: str) -> Mapping[str, str]:
    """The phrases of ``language``, or a :class:`NarrationError` saying which exist."""
    table = PHRASES.get(language) if isinstance(language, str) else None
    if table is None:
        raise NarrationError(
            f"language: {short_repr(language)} is not available (the narration speaks: "
            f"{', '.join(LANGUAGES)})"
        )
    return table


def _lookup(table: Mapping[str, str], key: str) -> str:
    """One template of the table (every key is in :data:`PHRASE_KEYS` or a plural form).

    A key a language lacks falls back to English (the tests check that none lacks any).
    """
    found = table.get(key)
    return _ENGLISH[key] if found is None else found


def _say(table: Mapping[str, str], key: str, you: bool = False, **fields: object) -> str:
    """Fill in a sentence (its ``_you`` variant if ``you``), capitalised."""
    text = _lookup(table, key + "_you" if you else key).format(**fields)
    return text[:1].upper() + text[1:]


def _count(table: Mapping[str, str], key: str, count: int, language: str) -> str:
    """A counted phrase in the plural category of ``count``: ``"3 ducks"``."""
    category = PLURAL_RULES[language](count)
    return _lookup(table, f"{key}#{category}").format(count=count)


def _join(table: Mapping[str, str], items: Sequence[str]) -> str:
    """Join items as a list: ``"a"``, ``"a and b"``, ``"a, b and c"`` in English."""
    if not items:
        return _lookup(table, "nothing")
    if len(items) == 1:
        return items[0]
    if len(items) == 2:
        return _lookup(table, "list_two").format(a=items[0], b=items[1])
    text = items[0]
    for item in items[1:-1]:
        text = _lookup(table, "list_start").format(a=text, b=item)
    return _lookup(table, "list_end").format(a=text, b=items[-1])


def _cards(
    table: Mapping[str, str], cards: Iterable[Species], language: str, *, obj: bool = False
) -> str:
    """Cards in order, runs counted: ``"3 toucans, 1 owl and 10 parrots"``.

    With ``obj``, as the object of a verb (the ``birds_object.*`` phrases).
    """
    key = "birds_object" if obj else "birds"
    runs = [(card, len(list(run))) for card, run in itertools.groupby(cards)]
    return _join(table, [_count(table, f"{key}.{s.value}", n, language) for s, n in runs])


def _seat(
    table: Mapping[str, str],
    seat: int,
    viewer: int | None,
    names: Sequence[str] | None,
    *,
    obj: bool = False,
) -> str:
    """A seat as the reader sees it: ``you``, ``P1`` or ``P1 bob``."""
    if seat == viewer:
        return _lookup(table, "you_object" if obj else "you")
    if names is None:
        return _lookup(table, "seat").format(seat=seat)
    if not 0 <= seat < len(names):
        raise NarrationError(
            f"names: no name for seat {seat} ({len(names)} names given, one per seat needed)"
        )
    name = names[seat]
    if not name:
        return _lookup(table, "seat").format(seat=seat)
    return _lookup(table, "seat_named").format(seat=seat, name=name)


def seat_name(
    seat: int,
    viewer: int | None,
    *,
    names: Sequence[str] | None = None,
    language: str = "en",
) -> str:
    """A seat as ``viewer`` reads it in the narration: ``"you"``, ``"P1"`` or ``"P1 bob"``.

    Args:
        seat: The seat named.
        viewer: The reader's seat (its own seat is "you"), or ``None`` for a spectator.
        names: One name per seat, shown after the seat number (an empty name is left out).
        language: One of :data:`LANGUAGES`.

    Raises:
        NarrationError: If the language is unknown or ``names`` has no entry for ``seat``.

    Example:
        >>> seat_name(1, 0), seat_name(0, 0), seat_name(1, None, names=["ann", "bob"])
        ('P1', 'you', 'P1 bob')
    """
    return _seat(_table(language), seat, viewer, names)


def cards_text(cards: Iterable[Species], *, language: str = "en", obj: bool = False) -> str:
    """Cards as the narration lists them: in order, runs counted, joined as a list.

    Args:
        cards: The cards, in order (a capture, a refill).
        language: One of :data:`LANGUAGES`.
        obj: Whether the cards are the object of a verb ("captures ..."), which takes
            its own forms in some languages (the ``birds_object.*`` phrases: Russian's
            accusative).

    Raises:
        NarrationError: If the language is unknown.

    Example:
        >>> cards_text([Species.OWL, Species.OWL, Species.ROBIN])
        '2 owls and 1 robin'
        >>> robin = [Species.ROBIN]
        >>> cards_text(robin, language="ru"), cards_text(robin, language="ru", obj=True)
        ('1 малиновка', '1 малиновку')
    """
    return _cards(_table(language), cards, language, obj=obj)


def species_name(species: Species, count: int | None = None, *, language: str = "en") -> str:
    """A species as the narration writes it: its name, or a number of its birds.

    Args:
        species: The species.
        count: A number of birds, or ``None`` for the bare name.
        language: One of :data:`LANGUAGES`.

    Raises:
        NarrationError: If the language is unknown.

    Example:
        >>> species_name(Species.REED_WARBLER), species_name(Species.REED_WARBLER, 6)
        ('reed warbler', '6 reed warblers')
        >>> species_name(Species.OWL, 1)
        '1 owl'
    """
    table = _table(language)
    if count is None:
        return _lookup(table, f"species.{species.value}")
    return _count(table, f"birds.{species.value}", count, language)


def phrase(key: str, language: str = "en", *, count: int | None = None, **fields: object) -> str:
    """One phrase of a front end, its fields filled in: ``phrase("cards", count=2)``.

    Args:
        key: A key of :data:`PHRASE_KEYS`, such as ``"terminal.help"``.
        language: One of :data:`LANGUAGES`.
        count: For a counted phrase (a key of :data:`PLURAL_KEYS`), the number that
            picks its plural form; it is also passed as the field ``count``, which a
            plain phrase may have too (``"Your hand ({count}):"``).
        **fields: The template's other named fields.

    Raises:
        NarrationError: If the language or the key is unknown, a counted phrase has no
            ``count`` (or a plain one without the field ``count`` has one), or a field
            is missing.

    Example:
        >>> phrase("cards", count=1), phrase("cards", "ru", count=3)
        ('1 card', '3 карты')
        >>> phrase("side.left", "de")
        'links'
    """
    table = _table(language)
    if key not in PHRASE_KEYS:
        raise NarrationError(f"key: {short_repr(key)} is not a phrase key")
    counted = key in PLURAL_KEYS
    if counted and count is None:
        raise NarrationError(f"count: the phrase {key!r} needs a count")
    if count is not None:
        if not counted and key not in _COUNTING:
            raise NarrationError(f"count: the phrase {key!r} takes no count")
        if counted:
            key = f"{key}#{PLURAL_RULES[language](count)}"
        fields["count"] = count
    try:
        return _lookup(table, key).format(**fields)
    except (KeyError, IndexError) as error:
        raise NarrationError(f"fields: the phrase {key!r} needs the field {error}") from None


# --------------------------------------------------------------------------- events


def describe_event(
    event: Event,
    viewer: int | None,
    *,
    names: Sequence[str] | None = None,
    language: str = "en",
) -> str | None:
    """Tell one event as ``viewer`` may read it: one sentence, or ``None``.

    The event is redacted for ``viewer`` first (:func:`~cuckoo_rules.visible_events`),
    so another seat's drawn cards are counted, never named, even if the event given
    holds them. Bookkeeping events (a turn started or ended, a flock declined) give
    ``None``. The end of the game names the winners and the reason of
    :attr:`GameOver.reason <cuckoo_rules.GameOver.reason>`.

    Args:
        event: The event.
        viewer: The reader's seat (its own moves are told as "you"), or ``None`` for a
            spectator.
        names: One name per seat, shown after the seat numbers (``"P1 bob"``).
        language: One of :data:`LANGUAGES`.

    Raises:
        NarrationError: If the language is unknown or ``names`` lacks a seat's name.
        ViewError: If ``viewer`` is neither a seat number nor ``None``.

    Example:
        >>> from cuckoo_rules import Species
        >>> from cuckoo_rules.events import FlewHome, GameOver, TurnEnded
        >>> describe_event(FlewHome(0, Species.DUCK, 6, 2), 0)
        'You fly 6 ducks home: 2 to your collection, 4 discarded.'
        >>> describe_event(GameOver((1,), "two_triples"), None)
        'Game over: P1 wins (two triples in a collection).'
        >>> describe_event(TurnEnded(0), 0) is None
        True
    """
    table = _table(language)
    (seen,) = visible_events((event,), viewer)
    return _describe(table, seen, viewer, names, language)


def narrate(
    events: Iterable[Event],
    viewer: int | None,
    *,
    names: Sequence[str] | None = None,
    language: str = "en",
) -> list[str]:
    """Tell several events in order, as ``viewer`` may read them.

    The sentences are those of :func:`describe_event`, except that a lay and the
    capture it makes are told in one sentence.

    Args:
        events: The events, in the order they happened.
        viewer: The reader's seat, or ``None`` for a spectator.
        names: One name per seat.
        language: One of :data:`LANGUAGES`.

    Raises:
        NarrationError: As for :func:`describe_event`.
        ViewError: As for :func:`describe_event`.

    Example:
        >>> from cuckoo_rules import Side, Species
        >>> from cuckoo_rules.events import Captured, Laid
        >>> narrate([Laid(0, Species.OWL, 2, 1, Side.LEFT),
        ...          Captured(0, 1, (Species.DUCK, Species.DUCK))], 0)
        ['You lay 2 owls on the left of row 1 and capture 2 ducks.']
    """
    table = _table(language)
    seen = visible_events(events, viewer)
    lines: list[str] = []
    index = 0
    while index < len(seen):
        event = seen[index]
        following = seen[index + 1] if index + 1 < len(seen) else None
        index += 1
        if (
            isinstance(event, Laid)
            and isinstance(following, Captured)
            and (following.player, following.row) == (event.player, event.row)
        ):
            lines.append(
                _say(
                    table,
                    "laid_captured",
                    event.player == viewer,
                    **_lay_fields(table, event, viewer, names, language),
                    cards=_cards(table, following.cards, language, obj=True),
                )
            )
            index += 1
            continue
        line = _describe(table, event, viewer, names, language)
        if line is not None:
            lines.append(line)
    return lines


def _lay_fields(
    table: Mapping[str, str],
    event: Laid,
    viewer: int | None,
    names: Sequence[str] | None,
    language: str,
) -> dict[str, object]:
    """The fields of a lay's sentence: who, how many birds, which end of which row."""
    return {
        "player": _seat(table, event.player, viewer, names),
        "birds": _count(table, f"birds_object.{event.species.value}", event.count, language),
        "side": _lookup(table, f"side.{event.side.value}"),
        "row": event.row,
    }


def _describe(
    table: Mapping[str, str],
    event: Event,
    viewer: int | None,
    names: Sequence[str] | None,
    language: str,
) -> str | None:
    """The sentence of one event already redacted for ``viewer``."""

    def who(seat: int) -> str:
        return _seat(table, seat, viewer, names)

    def cards(of: Iterable[Species], *, obj: bool = False) -> str:
        return _cards(table, of, language, obj=obj)

    def count(key: str, n: int) -> str:
        return _count(table, key, n, language)

    if isinstance(event, Laid):
        fields = _lay_fields(table, event, viewer, names, language)
        return _say(table, "laid", event.player == viewer, **fields)
    if isinstance(event, Captured):
        you = event.player == viewer
        return _say(
            table,
            "captured",
            you,
            player=who(event.player),
            cards=cards(event.cards, obj=True),
            row=event.row,
        )
    if isinstance(event, RowRefilled):
        return _say(table, "refilled", row=event.row, cards=cards(event.cards))
    if isinstance(event, Drew):
        you = event.player == viewer
        player, drawn = who(event.player), count("cards_object", event.count)
        if event.cards is None or not you:  # redacted: only the drawer sees the cards
            return _say(table, "drew", you, player=player, drawn=drawn)
        return _say(table, "drew_seen_you", player=player, drawn=drawn, cards=cards(event.cards))
    if isinstance(event, DeclinedDraw):
        return _say(table, "declined_draw", event.player == viewer, player=who(event.player))
    if isinstance(event, FlewHome):
        return _say(
            table,
            "flew_home",
            event.player == viewer,
            player=who(event.player),
            birds=count(f"birds_object.{event.species.value}", event.revealed),
            home=event.kept,
            discarded=event.revealed - event.kept,
        )
    if isinstance(event, Reshuffled):
        return _say(table, "reshuffled")
    if isinstance(event, RoundEnded):
        return _say(
            table,
            "round_ended",
            event.player == viewer,
            round=event.round,
            player=who(event.player),
            cards=count("cards_object", sum(event.hand_sizes)),
        )
    if isinstance(event, GameStarted):
        aside = [card for card in SPECIES for _ in range(event.discarded[card.index])]
        return _say(
            table,
            "game_started_aside" if aside else "game_started",
            event.dealer == viewer,
            player=who(event.dealer),
            cards=count("cards_object", event.hand_sizes[0]),
            discarded=cards(aside),
        )
    if isinstance(event, Dealt):
        you = event.dealer == viewer
        sizes = event.hand_sizes
        if len(set(sizes)) == 1:
            return _say(
                table,
                "dealt",
                you,
                round=event.round,
                player=who(event.dealer),
                cards=count("cards_object", sizes[0]),
            )
        # A deal that empties the draw pile comes in two parts, around the reshuffle.
        n = len(sizes)
        order = [(event.dealer + k) % n for k in range(n)]
        shares = [
            _lookup(table, "dealt_share").format(
                number=sizes[seat], seat=_seat(table, seat, viewer, names, obj=True)
            )
            for seat in order
            if sizes[seat]
        ]
        return _say(
            table,
            "dealt_part",
            you,
            round=event.round,
            player=who(event.dealer),
            cards=count("cards_object", sum(sizes)),
            shares=_join(table, shares),
        )
    if isinstance(event, GameOver):
        winners = _join(table, [who(seat) for seat in event.winners])
        reason = _lookup(table, f"reason.{event.reason}")
        if len(event.winners) > 1:
            shared = viewer in event.winners
            return _say(table, "game_over_shared", shared, winners=winners, reason=reason)
        return _say(table, "game_over", event.winners == (viewer,), winners=winners, reason=reason)
    if isinstance(event, TurnStarted | TurnEnded | DeclinedFlock):
        return None
    raise TypeError(f"not an event: {short_repr(event)}")
