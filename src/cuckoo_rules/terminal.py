"""Play CuBirds in a terminal: render a player's view as text, and the interactive loops.

Everything shown comes from a :class:`~cuckoo_rules.PlayerView` and from events
redacted by :func:`~cuckoo_rules.visible_events`, so the screen never shows what the
seat may not know. Bots are given views only.

The loops read and write through injected streams (:class:`Console`), so they can be
tested without a terminal; ``cuckoo-rules play`` and ``cuckoo-rules replay`` wire them
to the real one.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Sequence
from typing import TextIO

import attrs

from .actions import Action, Draw, FlyHome, Lay, Pass, Phase
from .bots import Bot, choose_action, wants_knowledge
from .cards import SPECIES, Species
from .engine import HAND_SIZE, legal_actions, new_game, step
from .errors import DecodeError
from .events import (
    Captured,
    Dealt,
    DeclinedDraw,
    DeclinedFlock,
    Drew,
    Event,
    FlewHome,
    GameOver,
    Laid,
    Reshuffled,
    RoundEnded,
    RowRefilled,
    visible_events,
)
from .knowledge import Knowledge, learn_each
from .notation import format_action, parse_action
from .options import GameOptions
from .preview import preview
from .records import GameRecord, GameResult, Metadata, dumps_record, replay_steps
from .state import Counts
from .views import PlayerView, observe

__all__ = [
    "ABBREVIATIONS",
    "Console",
    "color_enabled",
    "describe_action",
    "describe_event",
    "narrate",
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


def _seat_name(seat: int, viewer: int | None, names: Sequence[str] | None) -> str:
    """``you``, or ``P1 greedy`` (a bot spec's parameters are left out)."""
    if seat == viewer:
        return "you"
    return f"P{seat}" + (f" {names[seat].partition(':')[0]}" if names else "")


def _plural(count: int, noun: str) -> str:
    """``1 card``, ``2 cards``."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _progress(counts: Counts) -> str:
    """Progress towards the win conditions: species out of 7, triples out of 2."""
    species = sum(1 for n in counts if n)
    triples = sum(1 for n in counts if n >= 3)
    total = sum(counts)
    return f"{species}/7 species {triples}/2 triples {total:>2} card{'' if total == 1 else 's'}"


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
    lines.append("Collections (win: 7 species or 2 triples):")
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
        held = (view.hand or (0,) * len(SPECIES))[action.species.index]
        seen = preview(view, action)
        if isinstance(action, FlyHome):
            return f"fly {held} {action.species.value} home (keep {seen.birds_home})"
        if not seen.captured:
            return f"{held} {action.species.value}, captures nothing"
        cards = " ".join(ABBREVIATIONS[s] for s in seen.captured)
        return f"{held} {action.species.value}, captures {len(seen.captured)}: {cards}"
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


# --------------------------------------------------------------------------- narration


def narrate(
    events: Sequence[Event], viewer: int | None, names: Sequence[str] | None = None
) -> list[str]:
    """Describe events as ``viewer`` may see them (redacted by ``visible_events``).

    Example:
        >>> from cuckoo_rules import Drew, Species
        >>> narrate([Drew(1, 2, (Species.OWL, Species.DUCK))], 0)
        ['P1 draws 2 cards.']
    """
    lines: list[str] = []
    for event in visible_events(events, viewer):
        lines += describe_event(event, viewer, names)
    return lines


def describe_event(
    event: Event, viewer: int | None = None, names: Sequence[str] | None = None
) -> list[str]:
    """Describe one event in English, as ``viewer`` would read it (``None``: a spectator).

    The viewer's own seat is "you"; others are ``P1`` (followed by their name from
    ``names``). Bookkeeping events (turn starts and ends, a declined flock) give no line.
    Redact the event first (:func:`~cuckoo_rules.visible_events`) for a seat.

    Example:
        >>> from cuckoo_rules import Laid, Side, Species
        >>> describe_event(Laid(2, Species.DUCK, 3, 1, Side.LEFT))
        ['P2 lays 3 duck on the left of row 1.']
    """

    def who(seat: int, verb: str = "") -> str:
        name = _seat_name(seat, viewer, names)
        if verb and seat == viewer:
            verb = _FIRST_PERSON.get(verb, verb.removesuffix("s"))
        return (name[0].upper() + name[1:] + " " + verb).rstrip()

    if isinstance(event, Laid):
        return [
            f"{who(event.player, 'lays')} {event.count} {event.species.value} on the "
            f"{event.side.value} of row {event.row}."
        ]
    if isinstance(event, Captured):
        cards = " ".join(s.value for s in event.cards)
        return [f"{who(event.player, 'captures')} {cards} from row {event.row}."]
    if isinstance(event, RowRefilled):
        return [f"Row {event.row} is refilled with {' '.join(s.value for s in event.cards)}."]
    if isinstance(event, Drew):
        seen = f": {' '.join(s.value for s in event.cards)}" if event.cards else ""
        return [f"{who(event.player, 'draws')} {_plural(event.count, 'card')}{seen}."]
    if isinstance(event, DeclinedDraw):
        return [f"{who(event.player, 'does')} not draw."]
    if isinstance(event, FlewHome):
        return [
            f"{who(event.player, 'flies')} {event.revealed} {event.species.value} home, "
            f"keeping {event.kept}."
        ]
    if isinstance(event, DeclinedFlock):
        return []
    if isinstance(event, Reshuffled):
        return ["The discard pile is shuffled into a new draw pile."]
    if isinstance(event, RoundEnded):
        return [
            f"** Round {event.round} ends: {who(event.player)} emptied a hand. "
            f"Hands discarded: {', '.join(map(str, event.hand_sizes))} cards."
        ]
    if isinstance(event, Dealt):
        dealer = who(event.dealer, "deals")
        if all(size == HAND_SIZE for size in event.hand_sizes):
            return [f"** Round {event.round}: {dealer} {HAND_SIZE} cards to each player."]
        # A deal that empties the draw pile comes in two parts, around the reshuffle.
        total = _plural(sum(event.hand_sizes), "card")
        sizes = ", ".join(map(str, event.hand_sizes))
        return [f"** Round {event.round}: {dealer} {total} from this draw pile ({sizes})."]
    if isinstance(event, GameOver):
        return [_game_over_line(event.winners, event.reason, viewer, names)]
    return []


_FIRST_PERSON = {"flies": "fly", "does": "do"}

_REASONS = {
    "seven_species": "seven species in a collection",
    "two_triples": "two triples in a collection",
    "most_cards": "the cards ran out; most cards in a collection",
}


def _game_over_line(
    winners: Sequence[int], reason: str, viewer: int | None, names: Sequence[str] | None
) -> str:
    """The last line of a game, such as ``Game over: you win (two triples ...)``."""
    who = " and ".join(_seat_name(seat, viewer, names) for seat in winners)
    if len(winners) > 1:
        verb = "share the victory"
    else:
        verb = "win" if list(winners) == [viewer] else "wins"
    return f"Game over: {who} {verb} ({_REASONS.get(reason, reason)})."


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


def _choose(console: Console, view: PlayerView) -> Action | None:
    """Ask the human for an action until a legal one is given; ``None`` to leave."""
    actions = legal_actions(view)
    console.say("Your move:", *action_menu(view))
    while True:
        text = console.ask(f"choice (1-{len(actions)}, notation, or q to quit)> ")
        if text is None or text.lower() in _QUIT_WORDS:
            return None
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
    happened = narrate(events, viewer, names)
    if happened:
        console.say("What happened:", *(_fit(f"  {line}") for line in happened))


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
) -> GameRecord:
    """Play a game with a human at ``seat`` and bots at the other seats.

    A bot that uses knowledge (:class:`~cuckoo_rules.bots.KnowledgeBot`) is given what
    its seat learned from the events it saw (:func:`~cuckoo_rules.learn`).

    Args:
        options: The game options.
        seed: The seed of the deal.
        seat: The human's seat.
        bots: One entry per seat: a bot, or ``None`` at the human's seat.
        console: Where to read the human's choices and write the screens.
        names: One name per seat, for the screen and the record.
        save: A path to write the record to at the end (or when the human leaves);
            without it, the human is offered to save on leaving early.

    Returns:
        The record of the game as far as it was played.
    """
    state = new_game(options, seed)
    start = Knowledge.at_setup(state)
    known = {s: start for s, bot in enumerate(bots) if wants_knowledge(bot)}
    meta = Metadata(players=tuple(names)) if names else Metadata()
    record = GameRecord.start(options, seed, meta)
    console.say(*legend(console.color))
    recent: list[Event] = []
    while not state.is_over:
        player = state.current_player
        if player == seat:
            view = observe(state, seat)
            _show(console, view, recent, names)
            recent = []
            action = _choose(console, view)
            if action is None:
                console.say("You leave the game.")
                _offer_save(record, save, console)
                return record
        else:
            bot = bots[player]
            assert bot is not None, f"no bot at seat {player}"
            action = choose_action(bot, observe(state, player), known.get(player))
        state, events = step(state, action)
        known = learn_each(known, events)
        record = record.append(action)
        recent += events
        if any(isinstance(event, RoundEnded) for event in events) and not state.is_over:
            _say_happened(console, recent, seat, names)
            recent = []
            console.say(*round_summary(observe(state, seat), names))
    _show(console, observe(state, seat), recent, names)
    record = attrs.evolve(record, metadata=attrs.evolve(meta, result=GameResult.of(state)))
    if save is not None:
        _save(record, save, console)
    return record


# --------------------------------------------------------------------------- replay


def replay_interactive(record: GameRecord, viewer: int | None, console: Console) -> None:
    """Step through a record from ``viewer``'s seat (``None``: as a spectator).

    Enter shows the next move, ``b`` the previous one, ``q`` (or Ctrl-D) leaves.

    Raises:
        RecordError: If the record holds an illegal action.
    """
    steps = list(replay_steps(record))
    names = record.metadata.players
    console.say(*legend(console.color))
    index = 0
    while True:
        state, events = steps[index]
        console.say(f"-- Move {index} of {len(steps) - 1}")
        _show(console, observe(state, viewer), events, names)
        text = console.ask("Enter: next, b: back, q: quit> ")
        if text is None or text.lower() in _QUIT_WORDS:
            return
        if text.lower() == "b":
            index = max(0, index - 1)
        elif index + 1 < len(steps):
            index += 1
        else:
            console.say("End of the record (b: back, q: quit).")
