"""``cuckoo-rules demo``: play a seeded game between random players and print it.

The game is told as a spectator reads it, in the sentences every front end uses
(:func:`cuckoo_rules.narration.narrate`), with the board of :mod:`cuckoo_rules.board`
at the deal and the row after each lay, and the terminal's summary at the end
(:func:`cuckoo_rules.terminal.game_over_summary`): the command line has no description
of a game of its own.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Sequence

from ..board import render_view, row_line
from ..cards import SPECIES
from ..events import (
    Captured,
    Dealt,
    Event,
    FlewHome,
    GameOver,
    GameStarted,
    Laid,
    Reshuffled,
    RoundEnded,
    RowRefilled,
    TurnStarted,
    visible_events,
)
from ..match import Match
from ..narration import cards_text, describe_event, narrate, phrase, seat_name
from ..options import GameOptions
from ..terminal import game_over_summary
from ..views import PlayerView
from .parser import (
    DEFAULTS,
    PROG,
    Commands,
    add_lang_argument,
    add_option_arguments,
    add_players_argument,
    add_seed_argument,
    checked_options,
    describe_options,
    option_flags,
    seed_from_args,
)

__all__ = ["add_command", "play_random_game", "replay_command"]


def add_command(commands: Commands) -> None:
    """Declare ``demo`` and its arguments: player count, seed and every game option."""
    demo = commands.add_parser(
        "demo",
        help="play a seeded game between random players and print it",
        description=(
            "Play a game between players who choose uniformly at random among their legal "
            "actions, and print it turn by turn. The seed fixes both the deal and the "
            "players' choices, so the same arguments always print the same game. "
            "Seats and rows are numbered from 0."
        ),
        epilog=f"example: {PROG} demo --players 3 --seed 7 --round-end-timing immediate",
    )
    add_players_argument(demo, DEFAULTS.num_players)
    add_seed_argument(demo)
    add_lang_argument(demo)
    add_option_arguments(demo)
    demo.set_defaults(handler=_run, command_parser=demo)


def _run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Play and print a game between random players; bad arguments are usage errors."""
    seed = seed_from_args(args, parser)
    options = checked_options(args, parser)
    match = Match(options, seed, [None] * options.num_players)
    language: str = args.lang
    command = replay_command(options, seed, language)
    print(phrase("terminal.demo.seed", language, seed=seed, command=command))
    play_random_game(match, random.Random(seed), print, language)
    return 0


def replay_command(options: GameOptions, seed: int, language: str = "en") -> str:
    """Return the ``cuckoo-rules demo`` command line that plays the same game again.

    The ``--lang`` of a language other than English is kept.

    Example:
        >>> replay_command(GameOptions(num_players=2, always_prompt_flock=True), 7, "de")
        'cuckoo-rules demo --players 2 --seed 7 --lang de --always-prompt-flock'
    """
    words = [PROG, "demo", "--players", str(options.num_players), "--seed", str(seed)]
    if language != "en":
        words += ["--lang", language]
    return " ".join([*words, *option_flags(options)])


def play_random_game(
    match: Match, rng: random.Random, emit: Callable[[str], object], language: str = "en"
) -> Match:
    """Play a match to the end with uniformly random legal actions, narrating each step.

    Every seat to act that is not a bot's takes an action drawn by ``rng`` among its legal
    actions (bots, if any, play their own). The narration is a spectator's: drawn cards
    stay hidden. First come the options, the setup (told by the narration) and the board
    (:func:`cuckoo_rules.board.render_view`); then each turn's header and its sentences
    (:func:`cuckoo_rules.narration.narrate`), each lay followed by its row as the board
    shows it and each flock by the collection it went to; at the end, the summary of
    the game (:func:`cuckoo_rules.terminal.game_over_summary`).

    Args:
        match: The match to play, usually fresh, with ``None`` seats.
        rng: The source of the players' choices.
        emit: Called with each line of narration.
        language: The language of the narration.

    Returns:
        The match, now over.
    """
    for line in _setup_lines(match, language):
        emit(line)
    while not match.is_over:
        shown = match.event_count
        if not match.play_bots():
            seat = match.view(None).current_player
            match.act(seat, rng.choice(match.legal_actions(seat)))
        for line in _action_lines(match.events(None, shown), match.view(None), language):
            emit(line)
    for line in game_over_summary((), match.view(None), language=language):
        emit(line)
    return match


def _setup_lines(match: Match, language: str) -> list[str]:
    """The options, the setup as the narration tells it (a fresh match), and the board."""
    view = match.view(None)
    options = describe_options(view.options, phrase("terminal.demo.standard", language))
    lines = [phrase("terminal.demo.setup", language, count=view.num_players, options=options)]
    if match.move == 0:
        lines += narrate((GameStarted.of(match.state),), None, language=language)
    lines += ["    " + line for line in render_view(view, language=language)]
    return [*lines, _turn_header(view, language)]


_ROW_EVENTS = (Laid, Captured, RowRefilled)


def _action_lines(events: Sequence[Event], view: PlayerView, language: str) -> list[str]:
    """The lines of the events of one action, for a spectator; ``view`` is the game after.

    A lay, its capture, the refill and a reshuffle during it are told together, then the
    row; a flock is followed by the collection; a new turn starts with its header. The
    end of the game is left to the summary.
    """
    seen = visible_events(events, None)
    lines: list[str] = []
    told: list[Event] = []  # a lay and what follows it on its row, told together
    for index, event in enumerate(seen):
        following = seen[index + 1] if index + 1 < len(seen) else None
        if isinstance(event, TurnStarted):
            lines.append(_turn_header(view, language))
        elif isinstance(event, _ROW_EVENTS) or (told and isinstance(event, Reshuffled)):
            told.append(event)
            if not isinstance(following, (*_ROW_EVENTS[1:], Reshuffled)):
                lines += ["  " + line for line in narrate(told, None, language=language)]
                row = next(e.row for e in told if isinstance(e, _ROW_EVENTS))
                lines.append("    " + row_line(row, view.rows[row], language=language))
                told = []
        elif not isinstance(event, GameOver):
            indent = "" if isinstance(event, RoundEnded | Dealt) else "  "
            line = describe_event(event, None, language=language)
            if line is not None:
                lines.append(indent + line)
            if isinstance(event, FlewHome):
                counts = view.collections[event.player]
                cards = cards_text(
                    [s for s in SPECIES for _ in range(counts[s.index])], language=language
                )
                lines.append(phrase("terminal.demo.collection", language, cards=cards))
    return lines


def _turn_header(view: PlayerView, language: str) -> str:
    """The first line of a turn: its number, the player and their hand size."""
    p = view.current_player
    return phrase(
        "terminal.demo.turn",
        language,
        turn=view.turn,
        round=view.round,
        player=seat_name(p, None, language=language),
        cards=phrase("terminal.cards", language, count=view.hand_sizes[p]),
    )
