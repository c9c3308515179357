"""Play CuBirds in a terminal: one screen of 80x24 at every prompt, and the loops.

Everything shown comes from a :class:`~cuckoo_rules.PlayerView`, from events redacted
by :func:`~cuckoo_rules.visible_events` and from what the seat's own history proves
(:meth:`Match.knowledge <cuckoo_rules.Match.knowledge>`), so the screen never shows what
the seat may not know. Bots are given views only. The games run on a
:class:`~cuckoo_rules.Match`, what happened is told by :mod:`cuckoo_rules.narration`,
and what an action would do by :func:`~cuckoo_rules.preview.preview`: the terminal holds
no rule of its own.

**The screen** (:func:`render_screen`) fits 80 columns and 24 lines with five players: a
header (round, turn, who acts, pile sizes), the four rows (a long row as runs,
``ROB×16``), the hand with each species' flock sizes (``OWL×3 (3/4 ✓1)``: 3 held, a
small flock is 3 and a big one 4, flying them home now brings 1 to the collection), one
line per player (hand size, progress towards the two wins, the collection, and the
cards known to be in the hand), the latest narration that fits (wrapped, never cut),
and the compact move list (:func:`compact_moves`: lays grouped by species, ``5:1L+2DUC``
is move 5, at the left of row 1, taking 2 ducks). The numbers are those of
:func:`~cuckoo_rules.legal_actions`' canonical order. ``m`` or ``?`` shows every move
described (:func:`describe_action`), ``help`` the commands and the rules in short, and
``hint`` the expert's best moves (:func:`hint_lines`, from the seat's view and knowledge
only; it needs the ``batch`` extra). On a terminal the screen is cleared and drawn
again at each prompt; otherwise (a pipe, a test) the same screens are printed one after
the other.

**Round ends and the end of the game** stop on a summary (:func:`round_summary`,
:func:`game_over_summary`) until Enter is pressed.

**Languages**: every text comes from the phrase tables (keys ``terminal.*`` of
:data:`cuckoo_rules.narration.PHRASES`, and the narration's sentences), in English,
German or Russian. Species are shown as three letters of the language (``OWL``, ``EUL``,
``СОВ``); the notation typed (``lay owl 0 left``) stays English.

The loops read and write through injected streams (:class:`Console`), so they can be
tested without a terminal; ``cuckoo-rules play`` and ``cuckoo-rules replay`` wire them
to the real one.
"""

# ruff: noqa: RUF001, RUF002
from __future__ import annotations

import itertools
import os
import re
import textwrap
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TextIO

import attrs

from .actions import Action, Draw, FlyHome, Lay, Pass, Phase
from .bots.specs import BotSpec, parse_bot_spec
from .cards import SPECIES, Species
from .engine import legal_actions, new_game, why_illegal
from .errors import CuckooError, DecodeError, IllegalActionError
from .events import Dealt, Event, GameOver, GameStarted, RoundEnded, visible_events
from .knowledge import Knowledge, learn
from .match import Bot, BotError, Match, MatchError
from .narration import cards_text, describe_event, narrate, phrase, seat_name, species_name
from .notation import format_action, parse_action
from .options import GameOptions
from .outcome import SPECIES_TO_WIN, TRIPLES_TO_WIN, win_progress
from .preview import birds_home, preview
from .records import GameRecord, Metadata, RecordError, dumps_record
from .state import Counts
from .views import PlayerView

__all__ = [
    "ABBREVIATIONS",
    "HEIGHT",
    "HUMAN",
    "WIDTH",
    "Console",
    "ResumeError",
    "abbreviation",
    "color_enabled",
    "compact_moves",
    "describe_action",
    "full_moves",
    "game_over_summary",
    "help_lines",
    "hint_lines",
    "illegal_reason",
    "parse_choice",
    "play_interactive",
    "render_screen",
    "render_view",
    "replay_interactive",
    "resume_seats",
    "round_summary",
    "visible_width",
]

WIDTH = 80
"""The screen width everything is made to fit."""

HEIGHT = 24
"""The screen height every screen fits, its prompt line included."""

HUMAN = "human"
"""The name ``cuckoo-rules play`` gives the human's seat in a record (how a resume finds it)."""

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

_STYLES: dict[Species, str] = {
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
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_CLEAR = "\x1b[H\x1b[2J"
_BOLD, _DIM, _RESET = "\x1b[1m", "\x1b[2m", "\x1b[0m"
_LOG_MARK = "│ "  # the narration's lines on the board start with it
_HINT_TOP = 3  # the moves a hint shows
_BATCH_EXTRA = "pip install 'cuckoo-rules[batch]'"
_NAME_WIDTH = 14  # the most columns a player's name takes on the board


class ResumeError(CuckooError, ValueError):
    """A record cannot be resumed: it is finished, or it does not say who played.

    The message says which, for example ``"the game is over: nothing to resume"``.
    """


# --------------------------------------------------------------------------- output


def color_enabled(stream: TextIO, *, no_color: bool = False) -> bool:
    """Whether to colour the output: a terminal, no ``--no-color`` and no ``NO_COLOR``.

    Args:
        stream: The output stream.
        no_color: Whether colour was turned off on the command line.
    """
    if no_color or os.environ.get("NO_COLOR"):
        return False
    return stream.isatty()


@attrs.define
class Console:
    """The input and output of an interactive loop.

    Attributes:
        input: Where the user's lines are read from.
        output: Where the screens are written.
        color: Whether to colour species with ANSI escapes.
        language: The language of every text (one of
            :data:`~cuckoo_rules.narration.LANGUAGES`).
        clear: Whether to clear the screen before each screen (a terminal); without it
            the screens are printed one after the other.
    """

    input: TextIO
    output: TextIO
    color: bool = False
    language: str = "en"
    clear: bool = False

    def say(self, *lines: str) -> None:
        """Write lines to the output."""
        for line in lines:
            self.output.write(line + "\n")
        self.output.flush()

    def ask(self, prompt: str) -> str | None:
        """Write ``prompt`` and read a line; ``None`` at the end of input (Ctrl-D).

        Input that is not a terminal is not echoed: a new line ends the prompt's line then.
        """
        self.output.write(prompt)
        self.output.flush()
        line = self.input.readline()
        if not line or not self.input.isatty():  # a terminal echoes the Enter, a pipe not
            self.output.write("\n")
        return line.strip() if line else None

    def show(self, lines: Sequence[str]) -> None:
        """Show a whole screen: cleared first on a terminal, else after the last one."""
        if self.clear:
            self.output.write(_CLEAR)
        self.say(*lines)

    def screen(self, lines: Sequence[str], prompt: str) -> str | None:
        """Show a whole screen (:meth:`show`), then ask ``prompt``."""
        self.show(lines)
        return self.ask(prompt)

    def text(self, key: str, *, count: int | None = None, **fields: object) -> str:
        """The phrase ``terminal.<key>`` in the console's language."""
        return _text(key, self.language, count=count, **fields)


def _text(key: str, language: str, *, count: int | None = None, **fields: object) -> str:
    return phrase(f"terminal.{key}", language, count=count, **fields)


def visible_width(line: str) -> int:
    r"""The columns ``line`` takes on screen: its length without colour escapes.

    Example:
        >>> visible_width("\x1b[1mOWL\x1b[0m×3")
        5
    """
    return len(_ANSI.sub("", line))


def _paint(text: str, style: str, color: bool) -> str:
    return f"\x1b[{style}m{text}{_RESET}" if color and style else text


def abbreviation(species: Species, language: str = "en") -> str:
    """A species' three letters on screen, in ``language``: ``OWL``, ``EUL``, ``СОВ``.

    Example:
        >>> abbreviation(Species.OWL), abbreviation(Species.OWL, "de")
        ('OWL', 'EUL')
    """
    return _text(f"abbr.{species.value}", language)


def _bird(species: Species, color: bool, language: str) -> str:
    return _paint(abbreviation(species, language), _STYLES[species], color)


def _counted(species: Species, n: int, color: bool, language: str, sign: str = "×") -> str:
    """``OWL`` for one bird, ``OWL×3`` for more."""
    return _bird(species, color, language) + (f"{sign}{n}" if n > 1 else "")


def _counts(counts: Counts, color: bool, language: str) -> str:
    """A multiset as ``FLA OWL×2`` (empty when there is nothing)."""
    return " ".join(_counted(s, n, color, language) for s in SPECIES if (n := counts[s.index]))


def _wrap(text: str, width: int = WIDTH, indent: str = "") -> list[str]:
    """Wrap ``text`` to ``width`` columns at spaces (colour escapes take none)."""
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


# --------------------------------------------------------------------------- the board


def _screen_names(names: Sequence[str] | None) -> tuple[str, ...] | None:
    """The names as the screen shows them, without a bot spec's parameters.

    The name ``you`` is left out too: ``play --save`` of 0.1 named the human so in its
    records, and a replay watched from another seat would say "P0 you".
    """
    if not names:
        return None
    short = (name.partition(":")[0] for name in names)
    return tuple("" if name.strip().lower() == "you" else name for name in short)


def _seat_name(seat: int, viewer: int | None, names: Sequence[str] | None, language: str) -> str:
    """``you``, or ``P1 greedy`` (a bot spec's parameters are left out)."""
    return seat_name(seat, viewer, names=_screen_names(names), language=language)


def _header(view: PlayerView, names: Sequence[str] | None, language: str) -> str:
    """The first line: round, turn, who is to act and what, the pile sizes."""
    for short in (False, True):
        if view.is_over:
            state = _text("game_over_state", language)
        else:
            who = (
                f"P{view.current_player}"
                if short
                else _seat_name(view.current_player, view.viewer, names, language)
            )
            phase = _text(f"phase.{view.phase.value}", language)
            state = _text("to_act", language, player=who, phase=phase)
        for key in ("header", "header_short"):
            line = _text(
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


def _row_text(row: Sequence[Species], color: bool, language: str = "en") -> str:
    """A row left to right; a row too long for the screen shows runs as ``ROB×16``."""
    if 10 + 4 * len(row) <= WIDTH:
        return " ".join(_bird(s, color, language) for s in row)
    runs = [(card, len(list(group))) for card, group in itertools.groupby(row)]
    return " ".join(_counted(card, n, color, language) for card, n in runs)


def _flock_entry(species: Species, held: int, form: int, color: bool, language: str) -> str:
    """One species of the hand: ``OWL×3 (3/4 ✓1)``, ``OWL×3 3/4✓1`` or ``OWL×3✓1``."""
    home = birds_home(species, held)  # what preview() says of the flock
    mark = f"✓{home}" if home else ""
    name = _bird(species, color, language) + f"×{held}"
    sizes = f"{species.small_flock}/{species.big_flock}"
    if form == 0:
        return f"{name} ({sizes}{' ' + mark if mark else ''})"
    if form == 1:
        return f"{name} {sizes}{mark}"
    return name + mark


def _hand_line(hand: Counts, color: bool, language: str) -> str:
    """The hand on one line, as detailed as fits."""
    label = _text("hand", language, count=sum(hand))
    if not sum(hand):
        return _text("hand_empty", language)
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
    parts = (
        [_counts(view.known_hands[seat], color, language)] if any(view.known_hands[seat]) else []
    )
    if knowledge is not None and view.hand_sizes[seat]:
        limits = knowledge.hidden_limits[seat]
        none = [
            _bird(s, color, language)
            for s in SPECIES
            if limits[s.index] == 0 and not view.known_hands[seat][s.index]
        ]
        if none:
            parts.append(_text("holds_none", language, species=" ".join(none)))
    return ", ".join(parts)


def _fit(line: str, width: int = WIDTH) -> str:
    """Cut a line (colour escapes kept whole) to ``width`` columns, marking the cut ``…``."""
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
    return "".join(out) + _RESET * ("\x1b" in line) + "…"


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
        _text(f"column.{key}", language) for key in ("hand", "species", "triples", "collection")
    ]
    known_label = _text("column.known", language)
    who = [_seat_name(seat, view.viewer, names, language)[:_NAME_WIDTH] for seat in range(n)]
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
    collections = [_counts(view.collections[seat], color, language) for seat in range(n)]
    known = [
        "" if seat == view.viewer else _known_text(view, seat, knowledge, color, language)
        for seat in range(n)
    ]
    column = start + max(len(labels[3]), *(visible_width(c) for c in collections)) + 2
    column = min(column, WIDTH - max(12, len(known_label)))
    top = head("", labels[:3]) + "  " + labels[3]
    if any(known):
        top = top.ljust(max(column, len(top) + 2)) + known_label
    lines = [_fit(top)]
    for seat in range(n):
        line = head(who[seat], cells[seat]) + "  " + collections[seat]
        if known[seat]:
            padded = line + " " * max(column - visible_width(line), 2)
            if visible_width(padded + known[seat]) <= WIDTH:
                line = padded + known[seat]
            elif compact:
                line = _fit(padded + known[seat])
            else:
                lines.append(_fit(line))
                width = visible_width(known[seat])
                pad = column if column + width <= WIDTH else max(WIDTH - width, start)
                line = " " * pad + known[seat]
        lines.append(_fit(line))
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
        lines.append(
            _fit(_text("row", language, row=index) + " " + _row_text(row, color, language))
        )
    if view.hand is not None:
        lines.append(_fit(_hand_line(view.hand, color, language)))
    lines += _player_lines(view, names, knowledge, color, language, compact=compact)
    return lines


# --------------------------------------------------------------------------- moves


def describe_action(action: Action, view: PlayerView, language: str = "en") -> str:
    """What ``action`` would do in ``view``, in words (the full move list's line).

    Lays and flocks are told from :func:`~cuckoo_rules.preview.preview`: the birds laid
    and what they capture, or the birds a flock brings home and discards.

    Example:
        >>> from cuckoo_rules import GameOptions, Lay, Pass, Side, Species, new_game, observe
        >>> view = observe(new_game(GameOptions(num_players=2), 7), 0)
        >>> describe_action(Lay(Species.DUCK, 0, Side.LEFT), view)
        'lay 3 ducks on the left of row 0, capturing 1 robin and 1 magpie'
        >>> describe_action(Pass(), view)
        'pass'
    """
    if isinstance(action, Lay | FlyHome) and view.is_my_turn:
        seen = preview(view, action)
        if isinstance(action, FlyHome):
            birds = species_name(
                action.species, seen.birds_home + seen.discarded, language=language
            )
            return _text(
                "do.fly", language, birds=birds, home=seen.birds_home, discarded=seen.discarded
            )
        held = (view.hand or (0,) * len(SPECIES))[action.species.index]
        lay = _text(
            "do.lay",
            language,
            birds=species_name(action.species, held, language=language),
            side=_text(f"side.{action.side.value}", language),
            row=action.row,
        )
        if not seen.captured:
            return _text("do.captures_nothing", language, lay=lay)
        return _text(
            "do.captures",
            language,
            lay=lay,
            cards=cards_text(seen.captured, language=language, obj=True),
        )
    if isinstance(action, Draw):
        return _text("do.draw", language)
    if isinstance(action, Pass) and view.phase is Phase.DRAW:
        return _text("do.no_draw", language)
    if isinstance(action, Pass) and view.phase is Phase.FLOCK:
        return _text("do.no_flock", language)
    return _text("do.pass", language)


def _lay_entry(
    number: int, action: Lay, captured: Sequence[Species], detail: bool, color: bool, language: str
) -> str:
    """``5:1L``, with what it captures: ``+2DUC,MAG`` (or only ``+3``)."""
    side = _text(f"side_letter.{action.side.value}", language)
    entry = f"{number}:{action.row}{side}"
    if not captured:
        return entry
    if detail:
        runs = [(card, len(list(run))) for card, run in itertools.groupby(captured)]
        taken = ",".join(
            (str(n) if n > 1 else "") + _bird(card, color, language) for card, n in runs
        )
    else:
        taken = str(len(captured))
    return _paint(entry, "1", color) + "+" + taken


def _lay_line(
    species: Species,
    entries: Sequence[tuple[int, Lay, tuple[Species, ...]]],
    color: bool,
    language: str,
) -> str:
    """The lays of one species on one line, the captures as detailed as fits."""
    label = _bird(species, color, language)
    detail = [bool(captured) for _, _, captured in entries]
    while True:
        for gap in ("  ", " "):
            line = (
                label
                + "  "
                + gap.join(
                    _lay_entry(number, action, captured, keep, color, language)
                    for (number, action, captured), keep in zip(entries, detail, strict=True)
                )
            )
            if visible_width(line) <= WIDTH or not any(detail):
                return _fit(line)
        # Say only how many cards the longest capture takes, and try again.
        longest = max(
            (k for k in range(len(entries)) if detail[k]), key=lambda k: len(entries[k][2])
        )
        detail[longest] = False


def compact_moves(
    view: PlayerView, *, color: bool = False, language: str = "en", compact: bool = False
) -> list[str]:
    """The move list below the board: every legal action once, by its number.

    Lays come one line per species (``DUC  17:0L+ROB,MAG  18:0R ...``: the number, the
    row and its end, ``+`` and the cards captured); the draw, the flocks and the pass
    come with their effect. The numbers are the positions in
    :func:`~cuckoo_rules.legal_actions` (from 1), the numbers to type.

    Args:
        view: The view of the seat to act.
        color: Whether to colour the species.
        language: The language of the texts.
        compact: Tell the flocks in short (for a crowded screen).

    Returns:
        Lines of at most 80 columns; none unless the viewer is to act.

    Example:
        >>> from cuckoo_rules import GameOptions, new_game, observe
        >>> for line in compact_moves(observe(new_game(GameOptions(num_players=2), 7), 0)):
        ...     print(line)
        OWL  1:0L  2:0R  3:1L  4:1R  5:2L  6:2R  7:3L  8:3R
        TOU  9:0L  10:0R  11:1L  12:1R  13:2L  14:2R  15:3L  16:3R
        DUC  17:0L+ROB,MAG  18:0R  19:1L  20:1R  21:2L+MAG,PAR  22:2R  23:3L  24:3R
        MAG  25:0L+ROB 26:0R+DUC 27:1L+REE 28:1R+FLA 29:2L 30:2R+2 31:3L+REE 32:3R+PAR
        REE  33:0L  34:0R  35:1L  36:1R+MAG,FLA  37:2L  38:2R  39:3L  40:3R+MAG,PAR
    """
    if not view.is_my_turn:
        return []
    actions = legal_actions(view)
    numbered = list(enumerate(actions, start=1))
    lays: dict[Species, list[tuple[int, Lay, tuple[Species, ...]]]] = {}
    others: list[str] = []
    for number, action in numbered:
        if isinstance(action, Lay):
            lays.setdefault(action.species, []).append(
                (number, action, preview(view, action).captured)
            )
        elif isinstance(action, FlyHome) and compact:
            seen = preview(view, action)
            birds = _counted(action.species, seen.birds_home + seen.discarded, color, language)
            text = _text(
                "do.fly_short",
                language,
                birds=birds,
                home=seen.birds_home,
                discarded=seen.discarded,
            )
            others.append(f"{number}: {text}")
        else:
            others.append(f"{number}: {describe_action(action, view, language)}")
    lines = [_lay_line(species, entries, color, language) for species, entries in lays.items()]
    if view.phase is Phase.DRAW and sum(visible_width(o) + 4 for o in others) <= WIDTH:
        return ["    ".join(others)]
    for other in others:
        lines += (
            [_fit(line) for line in _wrap(other, indent="    ")] if not compact else [_fit(other)]
        )
    return lines


def full_moves(view: PlayerView, *, language: str = "en") -> list[str]:
    """The full move list: ``17. lay 3 ducks on the left of row 0, capturing ...``.

    One entry per legal action, numbered as on the board, each told by
    :func:`describe_action` (an entry longer than the screen goes on the next line).
    """
    lines: list[str] = []
    for number, action in enumerate(legal_actions(view), start=1):
        lines += _wrap(f"{number:>2}. {describe_action(action, view, language)}", indent="      ")
    return lines


# --------------------------------------------------------------------------- the screen


def _log_lines(sentences: Sequence[str], room: int, new_from: int, color: bool) -> list[str]:
    """The newest sentences that fit in ``room`` lines, wrapped, oldest first."""
    chosen: list[str] = []
    for index in range(len(sentences) - 1, -1, -1):
        wrapped = [_LOG_MARK + part for part in _wrap(sentences[index], WIDTH - len(_LOG_MARK))]
        if len(wrapped) + len(chosen) > room:
            break
        if color and index < new_from:
            wrapped = [_DIM + line + _RESET for line in wrapped]
        chosen = wrapped + chosen
    return chosen


def render_screen(
    view: PlayerView,
    *,
    names: Sequence[str] | None = None,
    knowledge: Knowledge | None = None,
    log: Sequence[str] = (),
    new_from: int = 0,
    message: Sequence[str] = (),
    moves: bool = True,
    top: Sequence[str] = (),
    color: bool = False,
    language: str = "en",
    height: int = HEIGHT,
) -> list[str]:
    """Return the screen above a prompt: the board, the latest narration, the moves.

    Args:
        view: What the seat sees.
        names: One name per seat.
        knowledge: What the seat's history proves (for the cards known in hands).
        log: The narration so far, one sentence per item, oldest first; the newest that
            fit are shown, wrapped (a sentence is shown whole or not at all).
        new_from: The index in ``log`` of the first sentence not shown before (older
            ones are dimmed when coloured).
        message: Lines to show above the prompt (why a choice was refused, a hint).
        moves: Whether to show the move list (when the viewer is to act).
        top: Lines to show above the board (the replay's move number).
        color: Whether to colour the species.
        language: The language of the texts.
        height: The screen's height; the result leaves its last line to the prompt.

    Returns:
        At most ``height - 1`` lines of at most 80 columns.
    """
    room = height - 1
    messages = [part for line in message for part in _wrap(line, indent="  ")]
    for compact in (False, True):
        board = [
            *top,
            *render_view(
                view,
                names=names,
                color=color,
                knowledge=knowledge,
                language=language,
                compact=compact,
            ),
        ]
        listed = (
            compact_moves(view, color=color, language=language, compact=compact) if moves else []
        )
        if len(board) + len(listed) + len(messages) <= room:
            break
    if len(board) + len(listed) + len(messages) > room:
        # No room for the column heads, then for the oldest lines of the message.
        header = len(top) + 5 + (view.hand is not None)
        del board[header]
        messages = messages[max(0, len(board) + len(listed) + len(messages) - room) :]
    spare = room - len(board) - len(listed) - len(messages)
    return [*board, *_log_lines(log, spare, new_from, color), *listed, *messages]


# --------------------------------------------------------------------------- input


def illegal_reason(view: PlayerView, action: Action, language: str = "en") -> str:
    """Why ``action`` is not legal in ``view``, as the engine says it, in ``language``.

    The reason is the engine's (:func:`~cuckoo_rules.why_illegal`, the reasons of the
    :class:`~cuckoo_rules.IllegalActionError` of :func:`~cuckoo_rules.apply`), worded
    by the ``terminal.reason.*`` phrases.

    Raises:
        ValueError: If ``action`` is legal in ``view``.

    Example:
        >>> from cuckoo_rules import GameOptions, Lay, Side, Species, new_game, observe
        >>> view = observe(new_game(GameOptions(num_players=2), 7), 0)
        >>> illegal_reason(view, Lay(Species.FLAMINGO, 0, Side.LEFT))
        'you hold no flamingo'
    """
    reason = why_illegal(view, action)
    if reason is None:
        raise ValueError(f"{format_action(action)} is legal now")
    species = "" if reason.species is None else species_name(reason.species, language=language)
    return _text(
        f"reason.{reason.code}", language, species=species, small=reason.needed, held=reason.held
    )


def parse_choice(text: str, view: PlayerView, language: str = "en") -> Action | str:
    """Read a choice: a number ``1..n`` of the move list or an action's notation.

    Args:
        text: What the user typed.
        view: The view of the seat to act (its legal actions are numbered from 1).
        language: The language of the messages.

    Returns:
        The chosen action, or a message saying why the input is not a choice (for an
        illegal action, the engine's reason: :func:`illegal_reason`).

    Example:
        >>> from cuckoo_rules import GameOptions, new_game, observe
        >>> view = observe(new_game(GameOptions(num_players=2), 7), 0)
        >>> parse_choice("17", view)
        Lay(Species.DUCK, 0, Side.LEFT)
        >>> parse_choice("99", view)
        'There is no move 99: type a number from 1 to 40.'
        >>> parse_choice("lay owl 0 right", view)
        Lay(Species.OWL, 0, Side.RIGHT)
        >>> print(parse_choice("fly owl", view))
        fly owl: a turn starts by laying birds (all of one species from your hand, at one
        end of a row).
    """
    actions = legal_actions(view)
    text = text.strip()
    count = len(actions)
    if not text:
        return _text("empty_input", language, count=count)
    if text.lstrip("+-").isdigit():
        number = int(text)
        if 1 <= number <= count:
            return actions[number - 1]
        return _text("no_such_move", language, number=number, count=count)
    try:
        action = parse_action(text)
    except DecodeError:
        return _text("unreadable", language, text=text[:40], count=count)
    if action not in actions:
        return _text("illegal", language, move=text, reason=illegal_reason(view, action, language))
    return action


def hint_lines(
    view: PlayerView,
    knowledge: Knowledge | None = None,
    *,
    simulations: int | None = None,
    language: str = "en",
) -> Iterator[str]:
    """The lines of a hint: the expert's best moves for the seat to act, best first.

    Each move's line gives the estimated chance of winning after it
    (:func:`cuckoo_rules.bots.expert.hint`), then the move's number in the move list (the
    number to type to play it) and what it does (:func:`describe_action`). The search
    sees only ``view`` and ``knowledge``. Without the ``batch`` extra (NumPy and numba)
    the only line says what to install.

    Args:
        view: The view of the seat to act.
        knowledge: What the seat's own history proves (:meth:`Match.knowledge
            <cuckoo_rules.Match.knowledge>`), or ``None`` for the view alone.
        simulations: The search's budget; ``None`` for the library's default
            (:data:`~cuckoo_rules.bots.expert.DEFAULT_HINT_SIMULATIONS`).
        language: The language of the texts.

    Yields:
        A header, before the search (which may take a moment: print it at once), then
        the moves (at most three; a long one goes on in a line indented by 12 spaces) and a
        line saying how to play one; every line fits 80 columns.

    Raises:
        BotError: If ``view`` is not the acting seat's view or ``simulations`` is not a
            positive integer.
    """
    try:
        from .bots.expert import DEFAULT_HINT_SIMULATIONS, hint
    except ModuleNotFoundError:
        yield _text("hint.missing", language, command=_BATCH_EXTRA)
        return
    budget = DEFAULT_HINT_SIMULATIONS if simulations is None else simulations
    yield _text("hint.header", language, simulations=budget)
    found = hint(view, knowledge, top=_HINT_TOP, simulations=budget)
    numbers = {action: number for number, action in enumerate(legal_actions(view), start=1)}
    for estimate in found:
        action = estimate.action
        told = describe_action(action, view, language)
        line = f"  {estimate.win_chance:>4.0%}  {numbers[action]:>2}. {told}"
        yield from _wrap(line, indent=" " * 12)
    yield _text("hint.footer", language)


# --------------------------------------------------------------------------- pages


def help_lines(language: str = "en", *, color: bool = False) -> list[str]:
    """The help page: the commands, what the screen shows, the rules in short, the species.

    Example:
        >>> lines = help_lines()
        >>> len(lines) < 24 and all(len(line) <= 80 for line in lines)
        True
    """
    lines = _text("help", language).split("\n")
    key = [f"{_bird(s, color, language)} {species_name(s, language=language)}" for s in SPECIES]
    label = _text("help_species", language)
    row = label
    for item in key:
        if visible_width(row + "  " + item) > WIDTH:
            lines.append(row)
            row = " " * len(label)
        row += "  " + item
    return [*lines, row]


def _pages(lines: Sequence[str], size: int) -> list[list[str]]:
    return [list(lines[k : k + size]) for k in range(0, len(lines), size)] or [[]]


def _words(key: str, language: str, english: str) -> frozenset[str]:
    """A command's words: the English ones and the language's (``help``, ``hilfe``)."""
    return frozenset((english + " " + _text(f"commands.{key}", language)).lower().split())


# --------------------------------------------------------------------------- summaries


def _progress_text(counts: Counts, language: str) -> str:
    got = win_progress(counts)
    return _text(
        "progress",
        language,
        species=got.species,
        need_species=SPECIES_TO_WIN,
        triples=got.triples,
        need_triples=TRIPLES_TO_WIN,
    )


def _collection_lines(
    view: PlayerView,
    order: Sequence[int],
    names: Sequence[str] | None,
    color: bool,
    language: str,
    mark: Sequence[int] = (),
) -> list[str]:
    who = {seat: _seat_name(seat, view.viewer, names, language)[:_NAME_WIDTH] for seat in order}
    width = max(len(name) for name in who.values())
    lines = []
    for seat in order:
        counts = view.collections[seat]
        star = "★ " if seat in mark else "  "
        line = (
            f"{star}{who[seat]:<{width}}  {_progress_text(counts, language)}, "
            f"{_text('cards', language, count=sum(counts))}: {_counts(counts, color, language)}"
        )
        lines += [_fit(part) for part in _wrap(line, indent=" " * (width + 4))]
    return lines


def round_summary(
    events: Sequence[Event],
    view: PlayerView,
    *,
    names: Sequence[str] | None = None,
    color: bool = False,
    language: str = "en",
) -> list[str]:
    """The summary of a round that has just ended, as ``view``'s seat may know it.

    Who ended the round, what was discarded from each hand (all of the seat's own, and
    of the others only the cards everybody saw enter them), every collection, and who
    deals and plays first in the new round.

    Args:
        events: The events of the action that ended the round (with its
            :class:`~cuckoo_rules.RoundEnded`), redacted for the seat or not: they are
            redacted again.
        view: The seat's view after them (the new round).
        names: One name per seat.
        color: Whether to colour the species.
        language: The language of the texts.

    Raises:
        ValueError: If ``events`` hold no round end.
    """
    viewer = view.viewer
    seen = visible_events(events, viewer)
    ended = next((e for e in seen if isinstance(e, RoundEnded)), None)
    if ended is None:
        raise ValueError("events: no RoundEnded among them: no round ended")
    lines = [_fit(f"== {_text('round_over', language, round=ended.round)} ".ljust(WIDTH, "="))]
    if ended.player == viewer:
        lines.append(_text("round_ender_you", language))
    else:
        who = _seat_name(ended.player, viewer, names, language)
        lines.append(_text("round_ender", language, player=who))
    lines.append(_text("discarded", language))
    n = len(ended.hand_sizes)
    width = max(len(_seat_name(s, viewer, names, language)[:_NAME_WIDTH]) for s in range(n))
    for seat in range(n):
        size, hand, known = ended.hand_sizes[seat], ended.hands[seat], ended.known_hands[seat]
        if not size:
            text = _text("discard.none", language)
        elif hand is not None:
            text = _text("discard.all", language, count=size, cards=_counts(hand, color, language))
        elif any(known):
            text = _text(
                "discard.partly", language, count=size, cards=_counts(known, color, language)
            )
        else:
            text = _text("discard.unseen", language, count=size)
        name = _seat_name(seat, viewer, names, language)[:_NAME_WIDTH]
        lines += [
            _fit(part) for part in _wrap(f"  {name:<{width}}  {text}", indent=" " * (width + 4))
        ]
    lines.append(_text("collections", language))
    lines += _collection_lines(view, range(n), names, color, language)
    dealt = next((e for e in seen if isinstance(e, Dealt)), None)
    if dealt is not None:
        lines += _wrap(
            _text(
                "next_round",
                language,
                round=dealt.round,
                dealer=_seat_name(dealt.dealer, viewer, names, language),
                player=_seat_name(view.current_player, viewer, names, language),
            )
        )
    return lines


def game_over_summary(
    events: Sequence[Event],
    view: PlayerView,
    *,
    names: Sequence[str] | None = None,
    color: bool = False,
    language: str = "en",
) -> list[str]:
    """The summary of a finished game: why it ended and who won, the standings, its length.

    Why is told by the narration of the game's :class:`~cuckoo_rules.GameOver` (its
    :attr:`~cuckoo_rules.PlayerView.outcome`); the standings put the winners first, then
    the biggest collections.

    Args:
        events: The events of the last action (or any that hold the end), as for
            :func:`round_summary`; without a :class:`~cuckoo_rules.GameOver` among them
            the outcome of ``view`` is told.
        view: The seat's view of the finished game.
        names: One name per seat.
        color: Whether to colour the species.
        language: The language of the texts.

    Raises:
        ValueError: If the game is not over.
    """
    outcome = view.outcome
    if outcome is None:
        raise ValueError("view: the game is not over: it has no outcome to tell")
    viewer = view.viewer
    over = next(
        (e for e in visible_events(events, viewer) if isinstance(e, GameOver)),
        GameOver(outcome.winners, outcome.reason),
    )
    lines = [_fit(f"== {_text('game_over', language)} ".ljust(WIDTH, "="))]
    lines += _wrap(
        describe_event(over, viewer, names=_screen_names(names), language=language) or ""
    )
    lines.append(_text("standings", language))
    n = view.num_players
    order = sorted(range(n), key=lambda s: (s not in outcome.winners, -sum(view.collections[s]), s))
    lines += _collection_lines(view, order, names, color, language, outcome.winners)
    lines += _wrap(
        _text(
            "lasted",
            language,
            turns=_text("turns", language, count=view.turn),
            rounds=_text("rounds", language, count=view.round),
        )
    )
    return lines


# --------------------------------------------------------------------------- play


def _save(record: GameRecord, path: str, console: Console) -> bool:
    """Write ``record`` to ``path``; say so, or say why not."""
    try:
        with open(path, "w", encoding="utf-8") as out:
            out.write(dumps_record(record, indent=2) + "\n")
    except OSError as error:
        console.say(console.text("cannot_write", path=path, error=error))
        return False
    console.say(console.text("saved", path=path))
    return True


def _offer_save(record: GameRecord, save: str | None, console: Console) -> None:
    """Save to ``save``, or, without it, ask for a path (Enter, ``n`` or Ctrl-D skips)."""
    path = save
    if path is None:
        path = console.ask(console.text("save_ask"))
        if not path or path.strip().lower() in ("n", "no", "nein", "нет"):
            return
    if _save(record, path, console) and not record.metadata.result:
        console.say(console.text("resume_hint", path=path))


def resume_seats(record: GameRecord) -> tuple[int, tuple[BotSpec | None, ...]]:
    """Which seat of a saved game is the human's, and each other seat's bot spec.

    ``cuckoo-rules play`` names the human's seat ``human`` (:data:`HUMAN`) in the
    record's ``metadata.players`` and each bot's seat its spec (``greedy``,
    ``ismcts:iterations=50``), which is all a resume needs with the record's seed (each
    bot is seeded from it and its seat).

    Returns:
        The human's seat, and one entry per seat: the bot's spec, ``None`` at the human's.

    Raises:
        ResumeError: If the game is over, or the record does not name one ``human``
            seat and a valid bot spec at every other seat.

    Example:
        >>> from cuckoo_rules import GameOptions, GameRecord
        >>> from cuckoo_rules.records import Metadata
        >>> record = GameRecord(GameOptions(num_players=2), 7, (), Metadata(("greedy", "human")))
        >>> seat, specs = resume_seats(record)
        >>> seat, [None if s is None else s.text for s in specs]
        (1, ['greedy', None])
    """
    if record.metadata.result is not None:
        raise ResumeError("the game is over: nothing to resume")
    names = record.metadata.players
    if names is None:
        raise ResumeError("the record names no players")
    humans = [seat for seat, name in enumerate(names) if name == HUMAN]
    if len(humans) != 1:
        raise ResumeError(
            f"expected one seat named {HUMAN!r} (yours), found {len(humans)} in {list(names)!r}"
        )
    specs: list[BotSpec | None] = []
    for seat, name in enumerate(names):
        if seat == humans[0]:
            specs.append(None)
            continue
        try:
            specs.append(parse_bot_spec(name))
        except BotError as error:
            raise ResumeError(f"seat {seat}: {error}") from None
    return humans[0], tuple(specs)


@attrs.define
class _Table:
    """A game being played: the match, the human's seat, what it was told so far."""

    match: Match
    seat: int
    console: Console
    names: tuple[str, ...] | None
    log: list[str] = attrs.Factory(list)
    new_from: int = 0
    shown: int = 0  # the number of the first event not yet told

    @property
    def language(self) -> str:
        return self.console.language

    def tell(self) -> tuple[Event, ...]:
        """Narrate the events since the last call into the log; return them."""
        new = self.match.events(self.seat, self.shown)
        self.shown = self.match.event_count
        self.log += narrate(new, self.seat, names=_screen_names(self.names), language=self.language)
        return new

    def screen(self, message: Sequence[str] = ()) -> list[str]:
        console = self.console
        return render_screen(
            self.match.view(self.seat),
            names=self.names,
            knowledge=self.match.knowledge(self.seat),
            log=self.log,
            new_from=self.new_from,
            message=message,
            color=console.color,
            language=self.language,
        )


def _page_through(
    console: Console, title: str, lines: Sequence[str], view: PlayerView | None
) -> Action | None:
    """Show ``lines`` a page at a time; with ``view``, a move's number plays it."""
    pages = _pages(lines, HEIGHT - 2)
    for index, page in enumerate(pages):
        last = index == len(pages) - 1
        if view is None:
            prompt = console.text("press_enter_back")
        else:
            prompt = console.text("list_prompt_last" if last else "list_prompt")
        heading = title.format(
            first=index * (HEIGHT - 2) + 1, last=index * (HEIGHT - 2) + len(page)
        )
        text = console.screen([heading, *page], prompt)
        if text is None or text.lower() == "b":
            return None
        if view is not None and text:
            choice = parse_choice(text, view, console.language)
            if not isinstance(choice, str):
                return choice
    return None


def _choose(table: _Table, advise: Callable[[], Iterable[str]]) -> Action | None:
    """Ask the human for an action until a legal one is given; ``None`` to leave."""
    console, language = table.console, table.language
    view = table.match.view(table.seat)
    count = len(legal_actions(view))
    quit_words = _words("quit", language, "q quit exit")
    help_words = _words("help", language, "help")
    hint_words = _words("hint", language, "hint h")
    log_words = _words("log", language, "log l")
    advice: list[str] | None = None
    message: list[str] = []
    while True:
        text = console.screen(table.screen(message), console.text("prompt", count=count))
        message = []
        if text is None or text.lower() in quit_words:
            return None
        word = text.lower()
        if word in hint_words:
            if advice is None:
                advice = []
                for line in advise():
                    if not advice:
                        console.say(line)  # at once: the search takes a moment
                    advice.append(line)
            message = advice
            continue
        if word in ("m", "?"):
            title = _text("list_title", language, first="{first}", last="{last}", count=count)
            chosen = _page_through(console, title, full_moves(view, language=language), view)
            if chosen is not None:
                return chosen
            continue
        if word in help_words:
            console.screen(
                help_lines(language, color=console.color), console.text("press_enter_back")
            )
            continue
        if word in log_words:
            wrapped = [part for line in table.log for part in _wrap(line, indent="  ")]
            page = wrapped[-(HEIGHT - 2) :] or [console.text("log_empty")]
            console.screen([console.text("log_title"), *page], console.text("press_enter_back"))
            continue
        choice = parse_choice(text, view, language)
        if not isinstance(choice, str):
            return choice
        message = [choice]


def play_interactive(
    options: GameOptions,
    seed: int,
    seat: int,
    bots: Sequence[Bot | None],
    console: Console,
    *,
    names: Sequence[str] | None = None,
    save: str | None = None,
    hint_simulations: int | None = None,
    resume: GameRecord | None = None,
) -> GameRecord:
    """Play a game with a human at ``seat`` and bots at the other seats.

    The game is a :class:`~cuckoo_rules.Match`: a bot that follows the game (with an
    ``inform`` hook) is told what its seat saw. At each decision the screen
    (:func:`render_screen`) shows the board, what happened and the moves; the human
    types a move's number or notation, ``m`` for every move described, ``help``,
    ``hint`` for the expert's best moves (:func:`hint_lines`, from the seat's view and
    knowledge only), ``log`` for what happened lately, or ``q`` to leave. A round end
    and the end of the game stop on a summary until Enter is pressed.

    Args:
        options: The game options.
        seed: The seed of the deal.
        seat: The human's seat.
        bots: One entry per seat: a bot, or ``None`` at the human's seat.
        console: Where to read the human's choices and write the screens.
        names: One name per seat, for the screen and the record.
        save: A path to write the record to at the end (or when the human leaves);
            without it, the human is offered to save on leaving early.
        hint_simulations: The budget of each hint's search; ``None`` for the library's
            default (:data:`~cuckoo_rules.bots.expert.DEFAULT_HINT_SIMULATIONS`).
        resume: A saved record of this game (same options and seed) to go on from:
            its actions are taken first (:meth:`Match.from_record
            <cuckoo_rules.Match.from_record>`).

    Returns:
        The record of the game as far as it was played.

    Raises:
        BotError: If ``hint_simulations`` is not a positive integer (or ``None``), or a
            bot fails.
        MatchError: If ``resume`` is the record of another game.
        RecordError: If ``resume`` holds an illegal action.
    """
    if hint_simulations is not None and (type(hint_simulations) is not int or hint_simulations < 1):
        raise BotError(
            f"hint_simulations: expected a positive integer (or None), got {hint_simulations!r}"
        )
    seats = [None if s == seat else bots[s] for s in range(options.num_players)]
    if resume is None:
        match = Match(options, seed, seats, names=names)
    else:
        if (resume.options, resume.seed) != (options, seed):
            raise MatchError("resume: the record is of another game (its options or seed differ)")
        match = Match.from_record(resume, seats, names=names)
    meta = Metadata(players=tuple(names)) if names else Metadata()
    table = _Table(match, seat, console, tuple(names) if names else None)
    language = console.language
    screen_names = _screen_names(table.names)
    if resume is None:
        setup = GameStarted.of(new_game(options, seed))
        table.log.append(describe_event(setup, seat, names=screen_names, language=language) or "")
    else:
        table.tell()
    table.new_from = len(table.log)
    while not match.is_over:
        if match.bot_to_act:
            if console.clear:
                to_act = match.to_act
                assert to_act is not None
                who = _seat_name(to_act, seat, names, language)
                console.output.write("\r" + console.text("thinking", player=who) + "\x1b[K")
                console.output.flush()
            match.play_bot()
        else:
            view = match.view(seat)

            def advise(view: PlayerView = view) -> Iterator[str]:
                knowledge = match.knowledge(seat)  # what the seat's own history proves
                return hint_lines(view, knowledge, simulations=hint_simulations, language=language)

            action = _choose(table, advise)
            if action is None:
                console.say(console.text("you_leave"))
                record = match.record(meta)
                _offer_save(record, save, console)
                return record
            table.new_from = len(table.log)
            match.act(seat, action)
        new = table.tell()
        if not match.is_over and any(isinstance(event, RoundEnded) for event in new):
            summary = round_summary(
                new, match.view(seat), names=names, color=console.color, language=language
            )
            console.screen(_with_log(summary, table), console.text("press_enter"))
            table.new_from = len(table.log)
    record = match.record(meta)
    summary = game_over_summary(
        (),
        match.view(seat),
        names=names,
        color=console.color,
        language=language,
    )
    outcome = match.outcome
    assert outcome is not None
    over = GameOver(outcome.winners, outcome.reason)  # told once, by the summary
    said = describe_event(over, seat, names=screen_names, language=language)
    table.log = [line for line in table.log if line != said]
    console.show(_with_log(summary, table))
    if save is not None:
        _save(record, save, console)
    console.ask(console.text("press_enter_end"))
    return record


def _with_log(summary: list[str], table: _Table) -> list[str]:
    """A summary with the latest narration that fits above it, within the screen."""
    spare = HEIGHT - 3 - len(summary)  # a line for the saved message, one for the prompt
    if spare <= 0:
        return summary[: HEIGHT - 3]
    return [*_log_lines(table.log, spare, table.new_from, table.console.color), *summary]


# --------------------------------------------------------------------------- replay


@attrs.frozen
class _Step:
    view: PlayerView
    events: tuple[Event, ...]
    knowledge: Knowledge


def _replay_steps(record: GameRecord, viewer: int | None) -> list[_Step]:
    """Play a record on a :class:`Match`, keeping what ``viewer`` sees of each move.

    Returns:
        ``viewer``'s view after each move, with the events of that move as ``viewer``
        saw them and what its history proves then; the first entry is the deal, with
        the setup.

    Raises:
        RecordError: At the first action that is not legal.
    """
    n = record.options.num_players
    match = Match(record.options, record.seed, [None] * n)
    setup = visible_events((GameStarted.of(match.state),), viewer)
    known = learn(Knowledge.start(n), setup, viewer)
    steps = [_Step(match.view(viewer), setup, known)]
    for index, action in enumerate(record.actions):
        shown, now = match.event_count, match.view(None)
        try:
            match.act(now.current_player, action)
        except (IllegalActionError, MatchError) as error:
            where = f"actions[{index}] (move {index + 1}, turn {now.turn})"
            raise RecordError(f"{where}: {error}", index) from error
        events = match.events(viewer, shown)
        known = learn(known, events, viewer)
        steps.append(_Step(match.view(viewer), events, known))
    return steps


def replay_interactive(record: GameRecord, viewer: int | None, console: Console) -> None:
    """Step through a record from ``viewer``'s seat (``None``: as a spectator).

    Enter shows the next move, ``b`` the previous one, ``g N`` move ``N`` (``g 0`` the
    deal), ``q`` (or Ctrl-D) leaves. Each screen is the board after the move with the
    move told as ``viewer`` saw it.

    Raises:
        RecordError: If the record holds an illegal action.
    """
    steps = _replay_steps(record, viewer)
    names = record.metadata.players
    language = console.language
    screen_names = _screen_names(names)
    last = len(steps) - 1
    who = (
        console.text("replay.spectator")
        if viewer is None
        else console.text("replay.seat", player=f"P{viewer}")
    )
    index = 0
    message: list[str] = []
    while True:
        step = steps[index]
        if index:
            heading = console.text("replay.header", move=index, count=last)
        else:
            heading = console.text("replay.start", count=last)
        told = narrate(step.events, viewer, names=screen_names, language=language)
        lines = render_screen(
            step.view,
            names=names,
            knowledge=step.knowledge,
            log=told,
            message=message,
            moves=False,
            top=[_fit(f"-- {heading} ({who})")],
            color=console.color,
            language=language,
        )
        text = console.screen(lines, console.text("replay.prompt"))
        message = []
        if text is None or text.lower() in _words("quit", language, "q quit exit"):
            return
        word = text.lower()
        if word == "b":
            index = max(0, index - 1)
        elif word.startswith("g"):
            target = word[1:].strip()
            if target.isdigit() and int(target) <= last:
                index = int(target)
            else:
                message = [console.text("replay.bad_move", text=target or "?", count=last)]
        elif index < last:
            index += 1
        else:
            message = [console.text("replay.end")]
