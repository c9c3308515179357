"""The terminal's screen: pure functions of a view that return lines of 80 columns.

:func:`render_screen` is the screen above a prompt: the board
(:func:`~cuckoo_rules.board.render_view`), the latest narration that fits (wrapped,
never cut) and the compact move list (:func:`compact_moves`: lays grouped by species,
``5:1L+2DUC`` is move 5, at the left of row 1, taking 2 ducks). The numbers are those of
:func:`~cuckoo_rules.legal_actions`' canonical order. :func:`full_moves` describes every
move (:func:`describe_action`), :func:`help_lines` is the help page and
:func:`hint_lines` the expert's best moves. What an action would do is told by
:func:`~cuckoo_rules.preview.preview`: the screen holds no rule of its own.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

from ..actions import Action, Draw, FlyHome, Lay, Pass, Phase
from ..board import (
    RESET,
    WIDTH,
    bird_label,
    birds_label,
    fit,
    paint,
    render_view,
    terminal_phrase,
    visible_width,
    wrap,
)
from ..cards import SPECIES, Species
from ..engine import legal_actions
from ..knowledge import Knowledge
from ..narration import cards_text, species_name
from ..preview import preview
from ..views import PlayerView

__all__ = [
    "HEIGHT",
    "compact_moves",
    "describe_action",
    "full_moves",
    "help_lines",
    "hint_lines",
    "log_lines",
    "render_screen",
]

HEIGHT = 24
"""The screen height every screen fits, its prompt line included."""

_DIM = "\x1b[2m"
_LOG_MARK = "│ "  # the narration's lines on the board start with it
_HINT_TOP = 3  # the moves a hint shows
_BATCH_EXTRA = "pip install 'cuckoo-rules[batch]'"


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
            return terminal_phrase(
                "do.fly", language, birds=birds, home=seen.birds_home, discarded=seen.discarded
            )
        held = (view.hand or (0,) * len(SPECIES))[action.species.index]
        lay = terminal_phrase(
            "do.lay",
            language,
            # the birds are the verb's object: Russian's accusative («выложить 1 сову»)
            birds=cards_text([action.species] * held, language=language, obj=True),
            side=terminal_phrase(f"side.{action.side.value}", language),
            row=action.row,
        )
        if not seen.captured:
            return terminal_phrase("do.captures_nothing", language, lay=lay)
        return terminal_phrase(
            "do.captures",
            language,
            lay=lay,
            cards=cards_text(seen.captured, language=language, obj=True),
        )
    if isinstance(action, Draw):
        return terminal_phrase("do.draw", language)
    if isinstance(action, Pass) and view.phase is Phase.DRAW:
        return terminal_phrase("do.no_draw", language)
    if isinstance(action, Pass) and view.phase is Phase.FLOCK:
        return terminal_phrase("do.no_flock", language)
    return terminal_phrase("do.pass", language)


def _lay_entry(
    number: int, action: Lay, captured: Sequence[Species], detail: bool, color: bool, language: str
) -> str:
    """``5:1L``, with what it captures: ``+2DUC,MAG`` (or only ``+3``)."""
    side = terminal_phrase(f"side_letter.{action.side.value}", language)
    entry = f"{number}:{action.row}{side}"
    if not captured:
        return entry
    if detail:
        runs = [(card, len(list(run))) for card, run in itertools.groupby(captured)]
        taken = ",".join(
            (str(n) if n > 1 else "") + bird_label(card, color, language) for card, n in runs
        )
    else:
        taken = str(len(captured))
    return paint(entry, "1", color) + "+" + taken


def _lay_line(
    species: Species,
    entries: Sequence[tuple[int, Lay, tuple[Species, ...]]],
    color: bool,
    language: str,
) -> str:
    """The lays of one species on one line, the captures as detailed as fits."""
    label = bird_label(species, color, language)
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
                return fit(line)
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
            birds = birds_label(action.species, seen.birds_home + seen.discarded, color, language)
            text = terminal_phrase(
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
        lines += [fit(line) for line in wrap(other, indent="    ")] if not compact else [fit(other)]
    return lines


def full_moves(view: PlayerView, *, language: str = "en") -> list[str]:
    """The full move list: ``17. lay 3 ducks on the left of row 0, capturing ...``.

    One entry per legal action, numbered as on the board, each told by
    :func:`describe_action` (an entry longer than the screen goes on the next line).
    """
    lines: list[str] = []
    for number, action in enumerate(legal_actions(view), start=1):
        lines += wrap(f"{number:>2}. {describe_action(action, view, language)}", indent="      ")
    return lines


# --------------------------------------------------------------------------- the screen


def log_lines(sentences: Sequence[str], room: int, new_from: int, color: bool) -> list[str]:
    """The newest sentences of the narration that fit in ``room`` lines, oldest first.

    Each sentence is wrapped (shown whole or not at all), its lines marked ``│``.

    Args:
        sentences: The narration so far, oldest first.
        room: The most lines to fill.
        new_from: The index of the first sentence not shown before (older ones are
            dimmed when coloured).
        color: Whether to colour (dim) the older sentences.
    """
    chosen: list[str] = []
    for index in range(len(sentences) - 1, -1, -1):
        wrapped = [_LOG_MARK + part for part in wrap(sentences[index], WIDTH - len(_LOG_MARK))]
        if len(wrapped) + len(chosen) > room:
            break
        if color and index < new_from:
            wrapped = [_DIM + line + RESET for line in wrapped]
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
    messages = [part for line in message for part in wrap(line, indent="  ")]
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
    return [*board, *log_lines(log, spare, new_from, color), *listed, *messages]


# --------------------------------------------------------------------------- pages


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
        from ..bots.expert import DEFAULT_HINT_SIMULATIONS, hint
    except ModuleNotFoundError:
        yield terminal_phrase("hint.missing", language, command=_BATCH_EXTRA)
        return
    budget = DEFAULT_HINT_SIMULATIONS if simulations is None else simulations
    yield terminal_phrase("hint.header", language, simulations=budget)
    found = hint(view, knowledge, top=_HINT_TOP, simulations=budget)
    numbers = {action: number for number, action in enumerate(legal_actions(view), start=1)}
    for estimate in found:
        action = estimate.action
        told = describe_action(action, view, language)
        line = f"  {estimate.win_chance:>4.0%}  {numbers[action]:>2}. {told}"
        yield from wrap(line, indent=" " * 12)
    yield terminal_phrase("hint.footer", language)


def help_lines(language: str = "en", *, color: bool = False) -> list[str]:
    """The help page: the commands, what the screen shows, the rules in short, the species.

    Example:
        >>> lines = help_lines()
        >>> len(lines) < 24 and all(len(line) <= 80 for line in lines)
        True
    """
    lines = terminal_phrase("help", language).split("\n")
    key = [
        f"{bird_label(s, color, language)} {species_name(s, language=language)}" for s in SPECIES
    ]
    label = terminal_phrase("help_species", language)
    row = label
    for item in key:
        if visible_width(row + "  " + item) > WIDTH:
            lines.append(row)
            row = " " * len(label)
        row += "  " + item
    return [*lines, row]
