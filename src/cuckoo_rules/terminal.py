"""Play CuBirds in a terminal: render a player's view as text, and the interactive loops.

Everything shown comes from a :class:`~cuckoo_rules.PlayerView` and from events
redacted by :func:`~cuckoo_rules.visible_events`, so the screen never shows what the
seat may not know. Bots are given views only. The games run on a
:class:`~cuckoo_rules.Match`, what happened is told by
:mod:`cuckoo_rules.narration`, and what an action would do by
:func:`~cuckoo_rules.preview.preview`: the terminal holds no rule of its own.

At a decision the human may type ``hint``: the expert's best moves for their seat, each
with its estimated chance of winning (:func:`hint_lines`, from
:func:`cuckoo_rules.bots.expert.hint` on the seat's view and
:meth:`Match.knowledge <cuckoo_rules.Match.knowledge>`, never the state). It needs the
``batch`` extra; without it the terminal says what to install.

The loops read and write through injected streams (:class:`Console`), so they can be
tested without a terminal; ``cuckoo-rules play`` and ``cuckoo-rules replay`` wire them
to the real one.
"""

from __future__ import annotations

import itertools
import os
import textwrap
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TextIO

import attrs

from .actions import Action, Draw, FlyHome, Lay, Pass, Phase
from .cards import SPECIES, Species
from .engine import legal_actions
from .errors import DecodeError, IllegalActionError
from .events import Event, RoundEnded
from .knowledge import Knowledge
from .match import Bot, BotError, Match, MatchError
from .narration import narrate, seat_name, species_name
from .notation import format_action, parse_action
from .options import GameOptions
from .outcome import SPECIES_TO_WIN, TRIPLES_TO_WIN, win_progress
from .preview import preview
from .records import GameRecord, Metadata, RecordError, dumps_record
from .state import Counts
from .views import PlayerView

__all__ = [
    "ABBREVIATIONS",
    "Console",
    "color_enabled",
    "describe_action",
    "hint_lines",
    "parse_choice",
    "play_interactive",
    "render_view",
    "replay_interactive",
]

WIDTH = 80
"""The screen width everything is made to fit."""

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
"""The three-letter abbreviation of each species on screen."""

_COLORS: dict[Species, str] = {
    Species.FLAMINGO: "95",
    Species.OWL: "33",
    Species.TOUCAN: "93",
    Species.DUCK: "32",
    Species.PARROT: "91",
    Species.MAGPIE: "94",
    Species.REED_WARBLER: "96",
    Species.ROBIN: "31",
}
_QUIT_WORDS = frozenset({"q", "quit", "exit"})
_HINT_WORDS = frozenset({"hint", "h"})
_HINT_TOP = 3  # the moves a hint shows
_BATCH_EXTRA = "pip install 'cuckoo-rules[batch]'"


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
    """

    input: TextIO
    output: TextIO
    color: bool = False

    def say(self, *lines: str) -> None:
        """Write lines to the output."""
        for line in lines:
            self.output.write(line + "\n")
        self.output.flush()

    def ask(self, prompt: str) -> str | None:
        """Write ``prompt`` and read a line; ``None`` at the end of input (Ctrl-D)."""
        self.output.write(prompt)
        self.output.flush()
        line = self.input.readline()
        if not line:
            self.output.write("\n")
            return None
        return line.strip()


# --------------------------------------------------------------------------- rendering


def _bird(species: Species, color: bool) -> str:
    """One species as its abbreviation, coloured if asked."""
    text = ABBREVIATIONS[species]
    return f"\x1b[{_COLORS[species]}m{text}\x1b[0m" if color else text


def _counts(counts: Counts, color: bool) -> str:
    """A multiset as ``2 OWL 1 ROB`` (``-`` when empty)."""
    items = [f"{n} {_bird(s, color)}" for s in SPECIES if (n := counts[s.index])]
    return " ".join(items) if items else "-"


def _row_text(row: Sequence[Species], color: bool) -> str:
    """A row left to right; a row too long for the screen shows runs as ``ROBx16``."""
    if 10 + 4 * len(row) <= WIDTH:
        return " ".join(_bird(s, color) for s in row)
    runs = [(card, len(list(group))) for card, group in itertools.groupby(row)]
    return " ".join(_bird(card, color) + (f"x{n}" if n > 1 else "") for card, n in runs)


def _screen_names(names: Sequence[str] | None) -> tuple[str, ...] | None:
    """The names as the screen shows them, without a bot spec's parameters.

    The name ``you`` is left out too: ``play --save`` of 0.1 named the human so in its
    records, and a replay watched from another seat would say "P0 you".
    """
    if not names:
        return None
    short = (name.partition(":")[0] for name in names)
    return tuple("" if name.strip().lower() == "you" else name for name in short)


def _seat_name(seat: int, viewer: int | None, names: Sequence[str] | None) -> str:
    """``you``, or ``P1 greedy`` (a bot spec's parameters are left out)."""
    return seat_name(seat, viewer, names=_screen_names(names))


def _progress(counts: Counts) -> str:
    """Progress towards the win conditions: species out of 7, triples out of 2."""
    got = win_progress(counts)
    return (
        f"{got.species}/{SPECIES_TO_WIN} species {got.triples}/{TRIPLES_TO_WIN} triples "
        f"{got.cards:>2} card{'' if got.cards == 1 else 's'}"
    )


def render_view(
    view: PlayerView, *, names: Sequence[str] | None = None, color: bool = False
) -> list[str]:
    """Return the screen of a view: header, rows, hand and every collection.

    Args:
        view: What the seat (or a spectator) sees.
        names: One name per seat, shown beside the seat numbers.
        color: Whether to colour the species.

    Returns:
        Lines of at most 80 visible characters (without colour escapes).
    """
    who = "you" if view.is_my_turn else f"P{view.current_player}"
    state = "game over" if view.is_over else f"{who} to {view.phase.value}"
    lines = [
        f"== Round {view.round}, turn {view.turn}: {state} ".ljust(WIDTH, "="),
        f"Draw pile {view.draw_pile_size}, discard pile {view.discard_pile_size}",
    ]
    for index, row in enumerate(view.rows):
        lines.append(f"  row {index}: " + _row_text(row, color))
    if view.hand is not None:
        lines.append(f"Your hand ({sum(view.hand)}): {_counts(view.hand, color)}")
    lines.append(f"Collections (win: {SPECIES_TO_WIN} species or {TRIPLES_TO_WIN} triples):")
    for seat, counts in enumerate(view.collections):
        name = _seat_name(seat, view.viewer, names)[:16]
        lines.append(f"  {name:<16} hand {view.hand_sizes[seat]:>2}   {_progress(counts)}")
        lines.append(f"      {_counts(counts, color)}")
    return lines


def legend(color: bool = False) -> list[str]:
    """The key of the abbreviations, on two lines."""
    pairs = [f"{_bird(s, color)}={s.value}" for s in SPECIES]
    return ["Key: " + " ".join(pairs[:4]), "     " + " ".join(pairs[4:])]


def describe_action(action: Action, view: PlayerView) -> str:
    """A short description of what ``action`` would do in ``view``.

    Example:
        >>> from cuckoo_rules import GameOptions, Pass, new_game, observe
        >>> describe_action(Pass(), observe(new_game(GameOptions(num_players=2), 1), 0))
        'pass'
    """
    if isinstance(action, Lay | FlyHome) and view.is_my_turn:
        seen = preview(view, action)
        if isinstance(action, FlyHome):
            birds = species_name(action.species, seen.birds_home + seen.discarded)
            return f"{birds}: {seen.birds_home} to collection, {seen.discarded} discarded"
        held = (view.hand or (0,) * len(SPECIES))[action.species.index]
        birds = species_name(action.species, held)
        if not seen.captured:
            return f"{birds}, captures nothing"
        cards = " ".join(ABBREVIATIONS[s] for s in seen.captured)
        return f"{birds}, captures {len(seen.captured)}: {cards}"
    if isinstance(action, Draw):
        return "draw 2 cards"
    if isinstance(action, Pass):
        return {Phase.DRAW: "do not draw", Phase.FLOCK: "fly no flock home"}.get(view.phase, "pass")
    return format_action(action)


def _fit(line: str) -> str:
    """Cut a plain line to the screen width, marking the cut with ``...``."""
    return line if len(line) <= WIDTH else line[: WIDTH - 3] + "..."


def action_menu(view: PlayerView) -> list[str]:
    """The numbered list of legal actions with their notation and effect."""
    return [
        _fit(f"  {number:>2}. {format_action(action):<24} {describe_action(action, view)}")
        for number, action in enumerate(legal_actions(view), start=1)
    ]


def round_summary(view: PlayerView, names: Sequence[str] | None = None) -> list[str]:
    """The summary shown when a round ends: each collection's progress, the new round."""
    lines = [f"** Round {view.round - 1} is over. Collections:"]
    for seat, counts in enumerate(view.collections):
        name = _seat_name(seat, view.viewer, names)[:16]
        lines.append(f"  {name:<16} {_progress(counts)}")
    return [*lines, f"** Round {view.round} begins: P{view.current_player} starts."]


# --------------------------------------------------------------------------- input


def parse_choice(text: str, actions: Sequence[Action]) -> Action | str:
    """Read a choice: a number ``1..n`` or an action's notation.

    Args:
        text: What the user typed.
        actions: The legal actions, in the order they are numbered.

    Returns:
        The chosen action, or a message saying why the input is not a choice.

    Example:
        >>> from cuckoo_rules import Draw, Pass
        >>> parse_choice("2", [Draw(), Pass()])
        Pass()
        >>> parse_choice("9", [Draw(), Pass()])
        'no action 9: type a number from 1 to 2, or an action such as "pass"'
    """
    text = text.strip()
    hint = f'type a number from 1 to {len(actions)}, or an action such as "pass"'
    if not text:
        return hint
    if text.lstrip("+-").isdigit():
        number = int(text)
        if 1 <= number <= len(actions):
            return actions[number - 1]
        return f"no action {number}: {hint}"
    try:
        action = parse_action(text)
    except DecodeError as error:
        return f"{error} ({hint})"
    if action not in actions:
        return f"{format_action(action)} is not legal now: {hint}"
    return action


def hint_lines(
    view: PlayerView, knowledge: Knowledge | None = None, *, simulations: int | None = None
) -> Iterator[str]:
    """The lines of a hint: the expert's best moves for the seat to act, best first.

    Each move's line gives the estimated chance of winning after it
    (:func:`cuckoo_rules.bots.expert.hint`), then the move as the move list shows it,
    with its number there, the number to type to play it. The search sees only ``view``
    and ``knowledge``. Without the ``batch`` extra (NumPy and numba) the only line says
    what to install.

    Args:
        view: The view of the seat to act.
        knowledge: What the seat's own history proves (:meth:`Match.knowledge
            <cuckoo_rules.Match.knowledge>`), or ``None`` for the view alone.
        simulations: The search's budget; ``None`` for the library's default
            (:data:`~cuckoo_rules.bots.expert.DEFAULT_HINT_SIMULATIONS`).

    Yields:
        A header, before the search (which may take a moment: print it at once), then
        one line per move (at most three) and a line saying how to play one; every line
        fits 80 columns.

    Raises:
        BotError: If ``view`` is not the acting seat's view or ``simulations`` is not a
            positive integer.
    """
    try:
        from .bots.expert import DEFAULT_HINT_SIMULATIONS, hint
    except ModuleNotFoundError:
        yield f"No hint: the expert needs the batch extra (NumPy and numba): {_BATCH_EXTRA}"
        return
    budget = DEFAULT_HINT_SIMULATIONS if simulations is None else simulations
    yield f"Hint (expert, {budget} simulations): estimated chance of winning after each move"
    found = hint(view, knowledge, top=_HINT_TOP, simulations=budget)
    numbers = {action: number for number, action in enumerate(legal_actions(view), start=1)}
    for estimate in found:
        action = estimate.action
        yield _fit(
            f"  {estimate.win_chance:>4.0%}  {numbers[action]:>2}. "
            f"{format_action(action):<24} {describe_action(action, view)}"
        )
    yield "Type a move's number (or its notation) to play it."


def _choose(
    console: Console, view: PlayerView, advise: Callable[[], Iterable[str]]
) -> Action | None:
    """Ask the human for an action until a legal one is given; ``None`` to leave.

    ``hint`` (or ``h``) prints the lines of ``advise()`` as they come, computed once per
    decision.
    """
    actions = legal_actions(view)
    console.say("Your move:", *action_menu(view))
    advice: list[str] | None = None
    while True:
        text = console.ask(f"choice (1-{len(actions)}, notation, hint, or q to quit)> ")
        if text is None or text.lower() in _QUIT_WORDS:
            return None
        if text.lower() in _HINT_WORDS:
            if advice is None:
                advice = []
                for line in advise():
                    console.say(line)
                    advice.append(line)
            else:
                console.say(*advice)
            continue
        choice = parse_choice(text, actions)
        if not isinstance(choice, str):
            return choice
        console.say(choice)


# --------------------------------------------------------------------------- play


def _save(record: GameRecord, path: str, console: Console) -> bool:
    """Write ``record`` to ``path``; say so, or say why not."""
    try:
        with open(path, "w", encoding="utf-8") as out:
            out.write(dumps_record(record, indent=2) + "\n")
    except OSError as error:
        console.say(f"Cannot write {path}: {error}")
        return False
    console.say(f"Game saved to {path}")
    return True


def _offer_save(record: GameRecord, save: str | None, console: Console) -> None:
    """Save to ``save``, or, without it, ask for a path (Enter, ``n`` or Ctrl-D skips)."""
    if save is not None:
        _save(record, save, console)
        return
    path = console.ask("save to file? (path or Enter to skip) ")
    if path and path.strip().lower() not in ("n", "no"):
        _save(record, path, console)


def _say_happened(
    console: Console, events: Sequence[Event], viewer: int | None, names: Sequence[str] | None
) -> None:
    """Narrate ``events`` as ``viewer`` may see them, under ``What happened:``."""
    happened = narrate(events, viewer, names=_screen_names(names))
    if happened:
        wrapped = (
            textwrap.wrap(line, WIDTH, initial_indent="  ", subsequent_indent="    ")
            for line in happened
        )
        console.say("What happened:", *itertools.chain.from_iterable(wrapped))


def _show(
    console: Console,
    view: PlayerView,
    recent: Sequence[Event],
    names: Sequence[str] | None,
) -> None:
    """Print the screen: what happened since the last one, then the view."""
    _say_happened(console, recent, view.viewer, names)
    console.say(*render_view(view, names=names, color=console.color))


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
) -> GameRecord:
    """Play a game with a human at ``seat`` and bots at the other seats.

    The game is a :class:`~cuckoo_rules.Match`: a bot that follows the game (with an
    ``inform`` hook) is told what its seat saw. At each decision the human types the
    number or the notation of a move, ``hint`` for the expert's best moves
    (:func:`hint_lines`, from the seat's view and knowledge only), or ``q`` to leave.

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

    Returns:
        The record of the game as far as it was played.

    Raises:
        BotError: If ``hint_simulations`` is not a positive integer (or ``None``), or a
            bot fails.
    """
    if hint_simulations is not None and (type(hint_simulations) is not int or hint_simulations < 1):
        raise BotError(
            f"hint_simulations: expected a positive integer (or None), got {hint_simulations!r}"
        )
    seats = [None if s == seat else bots[s] for s in range(options.num_players)]
    match = Match(options, seed, seats, names=names)
    meta = Metadata(players=tuple(names)) if names else Metadata()
    console.say(*legend(console.color))
    shown = 0  # the number of the first event the human has not been shown
    while not match.is_over:
        if match.bot_to_act:
            match.play_bot()
        else:
            view = match.view(seat)
            _show(console, view, match.events(seat, shown), names)
            shown = match.event_count

            def advise(view: PlayerView = view) -> Iterator[str]:
                knowledge = match.knowledge(seat)  # what the seat's own history proves
                return hint_lines(view, knowledge, simulations=hint_simulations)

            action = _choose(console, view, advise)
            if action is None:
                console.say("You leave the game.")
                record = match.record(meta)
                _offer_save(record, save, console)
                return record
            match.act(seat, action)
        new = match.events(seat, shown)
        if any(isinstance(event, RoundEnded) for event in new) and not match.is_over:
            _say_happened(console, new, seat, names)
            shown = match.event_count
            console.say(*round_summary(match.view(seat), names))
    _show(console, match.view(seat), match.events(seat, shown), names)
    record = match.record(meta)
    if save is not None:
        _save(record, save, console)
    return record


# --------------------------------------------------------------------------- replay


def _replay_screens(
    record: GameRecord, viewer: int | None
) -> list[tuple[PlayerView, tuple[Event, ...]]]:
    """Play a record on a :class:`Match`, keeping what ``viewer`` sees of each move.

    Returns:
        ``viewer``'s view after each move with the events of that move as ``viewer`` saw
        them; the first entry is the deal, with no events.

    Raises:
        RecordError: At the first action that is not legal.
    """
    n = record.options.num_players
    match = Match(record.options, record.seed, [None] * n)
    screens: list[tuple[PlayerView, tuple[Event, ...]]] = [(match.view(viewer), ())]
    for index, action in enumerate(record.actions):
        shown, now = match.event_count, match.view(None)
        try:
            match.act(now.current_player, action)
        except (IllegalActionError, MatchError) as error:
            where = f"actions[{index}] (move {index + 1}, turn {now.turn})"
            raise RecordError(f"{where}: {error}", index) from error
        screens.append((match.view(viewer), match.events(viewer, shown)))
    return screens


def replay_interactive(record: GameRecord, viewer: int | None, console: Console) -> None:
    """Step through a record from ``viewer``'s seat (``None``: as a spectator).

    Enter shows the next move, ``b`` the previous one, ``q`` (or Ctrl-D) leaves.

    Raises:
        RecordError: If the record holds an illegal action.
    """
    steps = _replay_screens(record, viewer)
    names = record.metadata.players
    console.say(*legend(console.color))
    index = 0
    while True:
        view, events = steps[index]
        console.say(f"-- Move {index} of {len(steps) - 1}")
        _show(console, view, events, names)
        text = console.ask("Enter: next, b: back, q: quit> ")
        if text is None or text.lower() in _QUIT_WORDS:
            return
        if text.lower() == "b":
            index = max(0, index - 1)
        elif index + 1 < len(steps):
            index += 1
        else:
            console.say("End of the record (b: back, q: quit).")
