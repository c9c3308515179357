"""The board of a view as text: the rows, the hand and the players in 80 columns.

:func:`render_view` draws what a seat (or a spectator) sees of a game as lines of at
most 80 columns: a header (round, turn, who acts, pile sizes), the four rows (a long
row as runs, ``ROB×16``), the hand with each species' flock sizes (``OWL×3 (3/4 ✓1)``: 3
held, a small flock is 3 and a big one 4, flying them home now brings 1 to the
collection) and one line per player (hand size, progress towards the two wins, the
collection, the cards known to be in the hand). It is a pure function of a
:class:`~cuckoo_rules.PlayerView` (and of what the seat's history proves,
:class:`~cuckoo_rules.Knowledge`), so it shows nothing the seat may not know.

The terminal game draws its screen around it (:mod:`cuckoo_rules.terminal`), the
research environments' ``render()`` shows it (:mod:`cuckoo_rules.envs`) and
``cuckoo-rules demo`` prints it; the smaller pieces the terminal builds on (species as
three letters, a multiset of cards, wrapping and cutting lines that hold colour
escapes, a seat's name) are public here for that reason.

**Languages**: every text is a phrase of :data:`cuckoo_rules.narration.PHRASES` (the
``terminal.*`` keys, :func:`terminal_phrase`), in English, German or Russian. Species
are shown as three letters of the language (``OWL``, ``EUL``, ``СОВ``).
"""

# ruff: noqa: RUF001, RUF002
from __future__ import annotations

import itertools
import re
import textwrap
from collections.abc import Sequence

from .cards import SPECIES, Species
from .knowledge import Knowledge
from .narration import phrase, seat_name
from .outcome import SPECIES_TO_WIN, TRIPLES_TO_WIN, win_progress
from .preview import birds_home
from .state import Counts
from .views import PlayerView

__all__ = [
    "ABBREVIATIONS",
    "NAME_WIDTH",
    "RESET",
    "SPECIES_STYLES",
    "WIDTH",
    "abbreviation",
    "bird_label",
    "birds_label",
    "counts_label",
    "fit",
    "paint",
    "render_view",
    "row_line",
    "screen_names",
    "seat_label",
    "terminal_phrase",
    "visible_width",
    "wrap",
]

WIDTH = 80
"""The screen width everything is made to fit."""

NAME_WIDTH = 14
"""The most columns a player's name takes on the board and in the summaries."""

ABBREVIATIONS: dict[Species, str] = {
    Species.FLAMINGO: "FLA",
    Species.OWL: "OWL",
    Species.TOUCAN: "TOU",
    Species.DUCK: "DUC",
    Species.PARROT: "PAR",
    Species.MAGPIE: "MAG",
    Species.REED_WARBLER: "REE",
    Species.ROBIN: "ROB",
}
"""The English three-letter abbreviation of each species (see :func:`abbreviation`)."""

SPECIES_STYLES: dict[Species, str] = {
    # 256-colour hues far apart, and a second cue for the pairs that looked alike
    # (toucan bold orange against an underlined brown owl, a bold green parrot against a
    # bold red robin, a magpie white on grey).
    Species.FLAMINGO: "38;5;213",
    Species.OWL: "4;38;5;137",
    Species.TOUCAN: "1;38;5;208",
    Species.DUCK: "38;5;33",
    Species.PARROT: "1;38;5;40",
    Species.MAGPIE: "1;38;5;255;48;5;240",
    Species.REED_WARBLER: "38;5;44",
    Species.ROBIN: "1;38;5;196",
}
"""The ANSI style of each species' letters (SGR parameters), all distinct."""

RESET = "\x1b[0m"
"""The ANSI escape that ends a style."""

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


# --------------------------------------------------------------------------- text


def terminal_phrase(key: str, language: str, *, count: int | None = None, **fields: object) -> str:
    """The phrase ``terminal.<key>`` of ``language``, its fields filled in.

    Example:
        >>> terminal_phrase("row", "de", row=2)
        'Reihe 2:'
    """
    return phrase(f"terminal.{key}", language, count=count, **fields)


def visible_width(line: str) -> int:
    r"""The columns ``line`` takes on screen: its length without colour escapes.

    Example:
        >>> visible_width("\x1b[1mOWL\x1b[0m×3")
        5
    """
    return len(_ANSI.sub("", line))


def paint(text: str, style: str, color: bool) -> str:
    r"""``text`` in the ANSI ``style`` (SGR parameters) if ``color``, else as it is.

    Example:
        >>> paint("OWL", "1", True), paint("OWL", "1", False)
        ('\x1b[1mOWL\x1b[0m', 'OWL')
    """
    return f"\x1b[{style}m{text}{RESET}" if color and style else text


def wrap(text: str, width: int = WIDTH, indent: str = "") -> list[str]:
    """Wrap ``text`` to ``width`` columns at spaces (colour escapes take none).

    Args:
        text: The text, on one line.
        width: The most columns of a line.
        indent: What each line after the first starts with.

    Returns:
        At least one line (``[""]`` for an empty text).
    """
    if "\x1b" not in text:
        return textwrap.wrap(text, width, subsequent_indent=indent) or [""]
    words = text.lstrip(" ").split(" ")
    lines: list[str] = []
    line = text[: len(text) - len(text.lstrip(" "))] + words[0]
    for word in words[1:]:
        if word and visible_width(line + " " + word) > width:
            lines.append(line)
            line = indent + word
        else:
            line += " " + word
    return [*lines, line]


def fit(line: str, width: int = WIDTH) -> str:
    """Cut a line (colour escapes kept whole) to ``width`` columns, marking the cut ``…``.

    Example:
        >>> fit("a line too long", 10)
        'a line to…'
    """
    if visible_width(line) <= width:
        return line
    out, seen = [], 0
    for token in re.split(r"(\x1b\[[0-9;]*[A-Za-z])", line):
        if token.startswith("\x1b"):
            out.append(token)
            continue
        room = width - 1 - seen
        out.append(token[: max(room, 0)])
        seen += min(len(token), max(room, 0))
    return "".join(out) + RESET * ("\x1b" in line) + "…"


# --------------------------------------------------------------------------- cards


def abbreviation(species: Species, language: str = "en") -> str:
    """A species' three letters on screen, in ``language``: ``OWL``, ``EUL``, ``СОВ``.

    Example:
        >>> abbreviation(Species.OWL), abbreviation(Species.OWL, "de")
        ('OWL', 'EUL')
    """
    return terminal_phrase(f"abbr.{species.value}", language)


def bird_label(species: Species, color: bool, language: str) -> str:
    """A species' three letters, in its colour if ``color`` (:data:`SPECIES_STYLES`)."""
    return paint(abbreviation(species, language), SPECIES_STYLES[species], color)


def birds_label(species: Species, n: int, color: bool, language: str, sign: str = "×") -> str:
    """``n`` birds of a species: ``OWL`` for one bird, ``OWL×3`` for more.

    Example:
        >>> birds_label(Species.OWL, 3, False, "en"), birds_label(Species.OWL, 1, False, "en")
        ('OWL×3', 'OWL')
    """
    return bird_label(species, color, language) + (f"{sign}{n}" if n > 1 else "")


def counts_label(counts: Counts, color: bool, language: str) -> str:
    """A multiset of cards as ``FLA OWL×2``, in the species' order (empty when none).

    Example:
        >>> counts_label((1, 2, 0, 0, 0, 0, 0, 0), False, "en")
        'FLA OWL×2'
    """
    return " ".join(birds_label(s, n, color, language) for s in SPECIES if (n := counts[s.index]))


def _row_text(row: Sequence[Species], color: bool, language: str = "en") -> str:
    """A row left to right; a row too long for the screen shows runs as ``ROB×16``."""
    if 10 + 4 * len(row) <= WIDTH:
        return " ".join(bird_label(s, color, language) for s in row)
    runs = [(card, len(list(group))) for card, group in itertools.groupby(row)]
    return " ".join(birds_label(card, n, color, language) for card, n in runs)


def row_line(
    index: int, row: Sequence[Species], *, color: bool = False, language: str = "en"
) -> str:
    """One row as the board shows it: ``row 0: ROB MAG DUC`` (a long row as runs).

    A row too long to show card by card in 80 columns is shown as runs (``ROB×18 OWL``).

    Args:
        index: The row's number.
        row: Its cards, left to right.
        color: Whether to colour the species.
        language: The language of the texts.

    Returns:
        A line of at most 80 columns (a row too long even as runs is cut, marked ``…``).

    Example:
        >>> row_line(1, [Species.ROBIN] * 18 + [Species.OWL])
        'row 1: ROB×18 OWL'
    """
    return fit(terminal_phrase("row", language, row=index) + " " + _row_text(row, color, language))


# --------------------------------------------------------------------------- seats


_BOT_KINDS = ("random", "greedy", "ismcts", "expert")
"""The bot kinds whose names the screen says in its language (``terminal.bot.*``)."""


def screen_names(names: Sequence[str] | None, language: str = "en") -> tuple[str, ...] | None:
    """The names as the screen shows them, without a bot spec's parameters.

    A bot's kind is said in ``language`` (``greedy`` is ``gierig`` in German: the
    ``terminal.bot.*`` phrases).

    The name ``you`` is left out too: ``play --save`` of 0.1 named the human so in its
    records, and a replay watched from another seat would say "P0 you". So is a seat's
    default name, ``P0`` for seat 0 (a :class:`~cuckoo_rules.Match`'s records name
    unnamed seats so), which the screen would print twice ("P0 P0").

    Example:
        >>> screen_names(["ismcts:iterations=50", "you"])
        ('ismcts', '')
        >>> screen_names(["P0", "P1"])
        ('', '')
        >>> screen_names(["human", "greedy:feed_weight=2"], "de")
        ('human', 'gierig')
    """
    if not names:
        return None
    short = [name.partition(":")[0].strip() for name in names]
    return tuple(
        ""
        if name.lower() in ("you", f"p{seat}")
        else terminal_phrase(f"bot.{name}", language)
        if name in _BOT_KINDS
        else name
        for seat, name in enumerate(short)
    )


def seat_label(seat: int, viewer: int | None, names: Sequence[str] | None, language: str) -> str:
    """A seat as the screen names it: ``you``, or ``P1 greedy`` (see :func:`screen_names`).

    Example:
        >>> seat_label(1, 0, ["human", "greedy:depth=2"], "en"), seat_label(0, 0, None, "en")
        ('P1 greedy', 'you')
    """
    return seat_name(seat, viewer, names=screen_names(names, language), language=language)


# --------------------------------------------------------------------------- the board


def _header(view: PlayerView, names: Sequence[str] | None, language: str) -> str:
    """The first line: round, turn, who is to act and what, the pile sizes."""
    for short in (False, True):
        if view.is_over:
            state = terminal_phrase("game_over_state", language)
        else:
            who = (
                f"P{view.current_player}"
                if short
                else seat_label(view.current_player, view.viewer, names, language)
            )
            phase = terminal_phrase(f"phase.{view.phase.value}", language)
            state = terminal_phrase("to_act", language, player=who, phase=phase)
        for key in ("header", "header_short"):
            line = terminal_phrase(
                key,
                language,
                round=view.round,
                turn=view.turn,
                state=state,
                draw=view.draw_pile_size,
                discard=view.discard_pile_size,
            )
            if len(line) <= WIDTH:
                return line
    return line[:WIDTH]


def _flock_entry(species: Species, held: int, form: int, color: bool, language: str) -> str:
    """One species of the hand: ``OWL×3 (3/4 ✓1)``, ``OWL×3 3/4✓1`` or ``OWL×3✓1``."""
    home = birds_home(species, held)  # what preview() says of the flock
    mark = f"✓{home}" if home else ""
    name = bird_label(species, color, language) + f"×{held}"
    sizes = f"{species.small_flock}/{species.big_flock}"
    if form == 0:
        return f"{name} ({sizes}{' ' + mark if mark else ''})"
    if form == 1:
        return f"{name} {sizes}{mark}"
    return name + mark


def _hand_line(hand: Counts, color: bool, language: str) -> str:
    """The hand on one line, as detailed as fits."""
    label = terminal_phrase("hand", language, count=sum(hand))
    if not sum(hand):
        return terminal_phrase("hand_empty", language)
    held = [(s, hand[s.index]) for s in SPECIES if hand[s.index]]
    for form, gap in ((0, "  "), (1, "  "), (1, " "), (2, " ")):
        line = label + " " + gap.join(_flock_entry(s, n, form, color, language) for s, n in held)
        if visible_width(line) <= WIDTH:
            return line
    return line


def _known_text(
    view: PlayerView, seat: int, knowledge: Knowledge | None, color: bool, language: str
) -> str:
    """The cards known to be in ``seat``'s hand, and the species it provably holds none of."""
    known = view.known_hands[seat]
    parts = [counts_label(known, color, language)] if any(known) else []
    if knowledge is not None and view.hand_sizes[seat]:
        limits = knowledge.hidden_limits[seat]
        none = [
            bird_label(s, color, language)
            for s in SPECIES
            if limits[s.index] == 0 and not known[s.index]
        ]
        if none:
            parts.append(terminal_phrase("holds_none", language, species=" ".join(none)))
    return ", ".join(parts)


def _player_lines(
    view: PlayerView,
    names: Sequence[str] | None,
    knowledge: Knowledge | None,
    color: bool,
    language: str,
    *,
    compact: bool,
) -> list[str]:
    """A header of columns, then one line per player (two if it does not fit)."""
    n = view.num_players
    labels = [
        terminal_phrase(f"column.{key}", language)
        for key in ("hand", "species", "triples", "collection")
    ]
    known_label = terminal_phrase("column.known", language)
    who = [seat_label(seat, view.viewer, names, language)[:NAME_WIDTH] for seat in range(n)]
    name_width = max(len(name) for name in who)
    progress = [win_progress(counts) for counts in view.collections]
    cells = [
        (
            str(view.hand_sizes[seat]),
            f"{progress[seat].species}/{SPECIES_TO_WIN}",
            f"{progress[seat].triples}/{TRIPLES_TO_WIN}",
        )
        for seat in range(n)
    ]
    widths = [max(len(labels[k]), *(len(c[k]) for c in cells)) for k in range(3)]

    def head(name: str, values: Sequence[str]) -> str:
        cells = (v.rjust(w) for v, w in zip(values, widths, strict=True))
        return "  ".join([name.ljust(name_width), *cells])

    start = visible_width(head("", labels[:3])) + 2
    collections = [counts_label(view.collections[seat], color, language) for seat in range(n)]
    known = [
        "" if seat == view.viewer else _known_text(view, seat, knowledge, color, language)
        for seat in range(n)
    ]
    column = start + max(len(labels[3]), *(visible_width(c) for c in collections)) + 2
    column = min(column, WIDTH - max(12, len(known_label)))
    top = head("", labels[:3]) + "  " + labels[3]
    if any(known):
        top = top.ljust(max(column, len(top) + 2)) + known_label
    lines = [fit(top)]
    for seat in range(n):
        line = head(who[seat], cells[seat]) + "  " + collections[seat]
        if known[seat]:
            padded = line + " " * max(column - visible_width(line), 2)
            if visible_width(padded + known[seat]) <= WIDTH:
                line = padded + known[seat]
            elif compact:
                line = fit(padded + known[seat])
            else:
                lines.append(fit(line))
                width = visible_width(known[seat])
                pad = column if column + width <= WIDTH else max(WIDTH - width, start)
                line = " " * pad + known[seat]
        lines.append(fit(line))
    return lines


def render_view(
    view: PlayerView,
    *,
    names: Sequence[str] | None = None,
    color: bool = False,
    knowledge: Knowledge | None = None,
    language: str = "en",
    compact: bool = False,
) -> list[str]:
    """Return the board of a view: header, rows, the hand and one line per player.

    Args:
        view: What the seat (or a spectator) sees.
        names: One name per seat, shown beside the seat numbers.
        color: Whether to colour the species.
        knowledge: What the viewer's history proves (:meth:`Match.knowledge
            <cuckoo_rules.Match.knowledge>`): the species a player provably holds none
            of are shown beside the cards known to be in its hand.
        language: The language of the texts.
        compact: Keep every player on one line (a long one is cut, marked ``…``).

    Returns:
        Lines of at most 80 visible characters (without colour escapes).

    Example:
        >>> from cuckoo_rules import GameOptions, new_game, observe
        >>> for line in render_view(observe(new_game(GameOptions(num_players=2), 7), 0)):
        ...     print(line)
        Round 1 · turn 1 · you to lay · draw pile 78 · discard pile 2
        row 0: ROB MAG DUC
        row 1: REE MAG FLA
        row 2: MAG PAR DUC
        row 3: REE MAG PAR
        Your hand (8): OWL×1 (3/4)  TOU×1 (3/4)  DUC×3 (4/6)  MAG×2 (5/7)  REE×1 (6/9)
             hand  species  triples  collection
        you     8      1/7      0/2  MAG
        P1      8      1/7      0/2  PAR
    """
    lines = [_header(view, names, language)]
    for index, row in enumerate(view.rows):
        lines.append(row_line(index, row, color=color, language=language))
    if view.hand is not None:
        lines.append(fit(_hand_line(view.hand, color, language)))
    lines += _player_lines(view, names, knowledge, color, language, compact=compact)
    return lines
