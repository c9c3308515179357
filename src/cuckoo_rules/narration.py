"""Events told as sentences, for every front end: :func:`describe_event` and :func:`narrate`.

The terminal game, ``cuckoo-rules demo`` and ``replay``, and the web server tell what
happened with the same sentences, made here from the events a seat may see
(:func:`~cuckoo_rules.visible_events`) and the seats' names, nothing else: a sentence
cannot reveal a card its reader did not see. The reader (``viewer``) is a seat, whose
own moves are told as "you", or ``None`` for a spectator.

**Languages.** Every word comes from :data:`PHRASES`, one table per language of
templates with named fields (``"{player} lays {birds} {side} of row {row}."``), so a
new language is a new table (and its plural rule in :data:`PLURAL_RULES`), not new code:

- A key ending in ``_you`` is the variant of a sentence whose subject is the reader
  (``"You lay ..."`` beside ``"P1 lays ..."``), so each language conjugates its verbs.
- A counted phrase (the keys of :data:`PLURAL_KEYS`: ``cards`` and ``birds.<species>``)
  is stored once per plural category of the language, as ``"cards#one"`` and
  ``"cards#other"`` in English; the language's rule in :data:`PLURAL_RULES` says which
  category a number takes (Russian, say, would have ``one``, ``few`` and ``many``).
- Species names are phrases too: ``"species.reed_warbler"`` is ``"reed warbler"``,
  ``"birds.reed_warbler#other"`` is ``"{count} reed warblers"``.
- Lists are joined by the ``list_*`` phrases, as ``"1 owl, 2 ducks and 1 robin"``.
- Sentences start with a capital letter whatever their template starts with (a seat
  may be ``"you"``).

:data:`PHRASE_KEYS` lists every key the code looks up; the tests check that every
language of the table has each of them (in every plural category its rule uses) and no
other, with no field that English does not have.

Example:
    >>> from cuckoo_rules import Side, Species
    >>> from cuckoo_rules.events import Drew, Laid
    >>> describe_event(Laid(1, Species.REED_WARBLER, 3, 2, Side.LEFT), 0)
    'P1 lays 3 reed warblers on the left of row 2.'
    >>> drew = Drew(1, 2, (Species.OWL, Species.DUCK))
    >>> describe_event(drew, 1), describe_event(drew, 0, names=["ann", "bob"])
    ('You draw 2 cards: 1 owl and 1 duck.', 'P1 bob draws 2 cards.')
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MappingProxyType

from .cards import SPECIES, Species
from .errors import CuckooError, short_repr
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
    "describe_event",
    "narrate",
    "seat_name",
    "species_name",
]


class NarrationError(CuckooError, ValueError):
    """A narration was asked in a language it does not speak, or with too few names.

    The message says what was given and what is available, for example
    ``"language: 'de' is not available (the narration speaks: en)"``.
    """


_ENGLISH: dict[str, str] = {
    # Seats: "P1", "P1 greedy" (with a name), and the reader's own seat.
    "seat": "P{seat}",
    "seat_named": "P{seat} {name}",
    "you": "you",
    "you_object": "you",
    # Lists: two items, then longer ones joined from the left ("a, b, c and d").
    "list_two": "{a} and {b}",
    "list_start": "{a}, {b}",
    "list_end": "{a} and {b}",
    "nothing": "nothing",
    # Counted phrases, one per plural category.
    "cards#one": "{count} card",
    "cards#other": "{count} cards",
    "species.flamingo": "flamingo",
    "birds.flamingo#one": "{count} flamingo",
    "birds.flamingo#other": "{count} flamingos",
    "species.owl": "owl",
    "birds.owl#one": "{count} owl",
    "birds.owl#other": "{count} owls",
    "species.toucan": "toucan",
    "birds.toucan#one": "{count} toucan",
    "birds.toucan#other": "{count} toucans",
    "species.duck": "duck",
    "birds.duck#one": "{count} duck",
    "birds.duck#other": "{count} ducks",
    "species.parrot": "parrot",
    "birds.parrot#one": "{count} parrot",
    "birds.parrot#other": "{count} parrots",
    "species.magpie": "magpie",
    "birds.magpie#one": "{count} magpie",
    "birds.magpie#other": "{count} magpies",
    "species.reed_warbler": "reed warbler",
    "birds.reed_warbler#one": "{count} reed warbler",
    "birds.reed_warbler#other": "{count} reed warblers",
    "species.robin": "robin",
    "birds.robin#one": "{count} robin",
    "birds.robin#other": "{count} robins",
    "side.left": "on the left",
    "side.right": "on the right",
    # Events. {player} is a seat (or "you" in the _you variants).
    "laid": "{player} lays {birds} {side} of row {row}.",
    "laid_you": "{player} lay {birds} {side} of row {row}.",
    "laid_captured": "{player} lays {birds} {side} of row {row} and captures {cards}.",
    "laid_captured_you": "{player} lay {birds} {side} of row {row} and capture {cards}.",
    "captured": "{player} captures {cards} from row {row}.",
    "captured_you": "{player} capture {cards} from row {row}.",
    "refilled": "Row {row} is refilled with {cards}.",
    "drew": "{player} draws {count}.",
    "drew_you": "{player} draw {count}.",
    "drew_seen_you": "{player} draw {count}: {cards}.",
    "declined_draw": "{player} does not draw.",
    "declined_draw_you": "{player} do not draw.",
    "flew_home": "{player} flies {birds} home: {home} to their collection, {discarded} discarded.",
    "flew_home_you": "{player} fly {birds} home: {home} to your collection, {discarded} discarded.",
    "reshuffled": "The discard pile is shuffled into a new draw pile.",
    "round_ended": (
        "Round {round} ends: {player} emptied their hand; {cards} from the other hands "
        "are discarded."
    ),
    "round_ended_you": (
        "Round {round} ends: {player} emptied your hand; {cards} from the other hands "
        "are discarded."
    ),
    "game_started": "The game starts: {player} deals {cards} to each player.",
    "game_started_you": "The game starts: {player} deal {cards} to each player.",
    "game_started_aside": (
        "The game starts: {player} deals {cards} to each player; set aside to the discard "
        "pile: {discarded}."
    ),
    "game_started_aside_you": (
        "The game starts: {player} deal {cards} to each player; set aside to the discard "
        "pile: {discarded}."
    ),
    "dealt": "Round {round}: {player} deals {cards} to each player.",
    "dealt_you": "Round {round}: {player} deal {cards} to each player.",
    "dealt_part": "Round {round}: {player} deals {cards} from this draw pile ({shares}).",
    "dealt_part_you": "Round {round}: {player} deal {cards} from this draw pile ({shares}).",
    "dealt_share": "{count} to {seat}",
    "game_over": "Game over: {winners} wins ({reason}).",
    "game_over_you": "Game over: {winners} win ({reason}).",
    "game_over_shared": "Game over: {winners} share the victory ({reason}).",
    "reason.seven_species": "seven species in a collection",
    "reason.two_triples": "two triples in a collection",
    "reason.most_cards": "the cards ran out; most cards in a collection",
}


def _english_plural(count: int) -> str:
    """English: ``one`` for 1, ``other`` for every other number."""
    return "one" if count == 1 else "other"


PHRASES: Mapping[str, Mapping[str, str]] = MappingProxyType({"en": MappingProxyType(_ENGLISH)})
"""The phrase table: language, then phrase key, to a template with named fields.

Plural phrases are stored as ``key#category`` (``"cards#other": "{count} cards"``); see
the module documentation.
"""

PLURAL_RULES: Mapping[str, Callable[[int], str]] = MappingProxyType({"en": _english_plural})
"""For each language, the plural category of a number (``"one"``, ``"other"``, ...)."""

LANGUAGES: tuple[str, ...] = ("en",)
"""The languages the narration speaks, as keys of :data:`PHRASES`."""

PLURAL_KEYS: frozenset[str] = frozenset(key.partition("#")[0] for key in _ENGLISH if "#" in key)
"""The counted phrases, stored as ``key#category`` for each plural category of a language."""

PHRASE_KEYS: frozenset[str] = frozenset(key.partition("#")[0] for key in _ENGLISH)
"""Every phrase key the narration looks up, counted ones (:data:`PLURAL_KEYS`) included.

A language's table holds each key of ``PHRASE_KEYS - PLURAL_KEYS`` as it is, and each
key of :data:`PLURAL_KEYS` as ``key#category``.
"""


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
    """One template of the table (every key is in :data:`PHRASE_KEYS` or a plural form)."""
    return table[key]


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


def _cards(table: Mapping[str, str], cards: Iterable[Species], language: str) -> str:
    """Cards in order, runs counted: ``"3 toucans, 1 owl and 10 parrots"``."""
    runs = [(card, len(list(run))) for card, run in itertools.groupby(cards)]
    return _join(table, [_count(table, f"birds.{s.value}", n, language) for s, n in runs])


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
                    cards=_cards(table, following.cards, language),
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
        "birds": _count(table, f"birds.{event.species.value}", event.count, language),
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

    def cards(of: Iterable[Species]) -> str:
        return _cards(table, of, language)

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
            cards=cards(event.cards),
            row=event.row,
        )
    if isinstance(event, RowRefilled):
        return _say(table, "refilled", row=event.row, cards=cards(event.cards))
    if isinstance(event, Drew):
        you = event.player == viewer
        player, drawn = who(event.player), count("cards", event.count)
        if event.cards is None or not you:  # redacted: only the drawer sees the cards
            return _say(table, "drew", you, player=player, count=drawn)
        return _say(table, "drew_seen_you", player=player, count=drawn, cards=cards(event.cards))
    if isinstance(event, DeclinedDraw):
        return _say(table, "declined_draw", event.player == viewer, player=who(event.player))
    if isinstance(event, FlewHome):
        return _say(
            table,
            "flew_home",
            event.player == viewer,
            player=who(event.player),
            birds=count(f"birds.{event.species.value}", event.revealed),
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
            cards=count("cards", sum(event.hand_sizes)),
        )
    if isinstance(event, GameStarted):
        aside = [card for card in SPECIES for _ in range(event.discarded[card.index])]
        return _say(
            table,
            "game_started_aside" if aside else "game_started",
            event.dealer == viewer,
            player=who(event.dealer),
            cards=count("cards", event.hand_sizes[0]),
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
                cards=count("cards", sizes[0]),
            )
        # A deal that empties the draw pile comes in two parts, around the reshuffle.
        n = len(sizes)
        order = [(event.dealer + k) % n for k in range(n)]
        shares = [
            _lookup(table, "dealt_share").format(
                count=sizes[seat], seat=_seat(table, seat, viewer, names, obj=True)
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
            cards=count("cards", sum(sizes)),
            shares=_join(table, shares),
        )
    if isinstance(event, GameOver):
        winners = _join(table, [who(seat) for seat in event.winners])
        reason = _lookup(table, f"reason.{event.reason}")
        if len(event.winners) > 1:
            return _say(table, "game_over_shared", winners=winners, reason=reason)
        return _say(table, "game_over", event.winners == (viewer,), winners=winners, reason=reason)
    if isinstance(event, TurnStarted | TurnEnded | DeclinedFlock):
        return None
    raise TypeError(f"not an event: {short_repr(event)}")
