"""The terminal's replay: step through a saved game from one seat's view, or a spectator's."""

from __future__ import annotations

import attrs

from ..board import fit, screen_names
from ..errors import IllegalActionError
from ..events import Event
from ..knowledge import Knowledge, learn
from ..match import Match, MatchError
from ..narration import narrate
from ..records import GameRecord, RecordError
from ..views import PlayerView
from .input import Console, command_words
from .screen import render_screen

__all__ = ["replay_interactive"]


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
    setup = match.events(viewer)  # the deal, event 0
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
    shown_names = screen_names(names, language)
    last = len(steps) - 1
    who = (
        console.text("replay.spectator")
        if viewer is None
        else console.text("replay.seat", player=f"P{viewer}")
    )
    quit_words = command_words("quit", language, "q quit exit")
    index = 0
    message: list[str] = []
    while True:
        step = steps[index]
        if index:
            heading = console.text("replay.header", move=index, count=last)
        else:
            heading = console.text("replay.start", count=last)
        told = narrate(step.events, viewer, names=shown_names, language=language)
        lines = render_screen(
            step.view,
            names=names,
            knowledge=step.knowledge,
            log=told,
            message=message,
            moves=False,
            top=[fit(f"-- {heading} ({who})")],
            color=console.color,
            language=language,
        )
        text = console.screen(lines, console.text("replay.prompt"))
        message = []
        if text is None or text.lower() in quit_words:
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
