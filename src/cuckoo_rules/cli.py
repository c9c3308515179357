"""The ``cuckoo-rules`` command line.

Subcommands:

- ``demo``: play a seeded game between random players and print it turn by turn.

Each subcommand has an ``_add_<name>_command`` function that declares its arguments and
a ``_run_<name>`` handler; :func:`main` parses the arguments and calls the handler.

The narration of a game is derived by comparing the state before and after each
:func:`cuckoo_rules.apply`; seats and rows are numbered from 0, as in the API.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import sys
from collections.abc import Callable, Sequence
from typing import get_args

import cuckoo_rules as cr

from .options import NextRoundFirstPlayer, RoundEndTiming, SetupDuplicatesTo

__all__ = ["describe_game_over", "describe_setup", "describe_step", "main"]

PROG = "cuckoo-rules"
"""The name of the console script."""

Handler = Callable[[argparse.Namespace, argparse.ArgumentParser], int]
"""A subcommand: takes the parsed arguments and its own parser, returns the exit status."""

_DEFAULTS = cr.GameOptions(num_players=3)
"""The option defaults shown by ``--help`` (and the default player count)."""

_SEED_LIMIT = 2**64

_TIMES = "\N{MULTIPLICATION SIGN}"


# --------------------------------------------------------------------------- entry point


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line.

    Args:
        argv: The arguments after the program name; ``None`` reads ``sys.argv[1:]``.

    Returns:
        The exit status (0 on success). Bad arguments exit with status 2 through
        :class:`SystemExit`, as argparse does.
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Handler = args.handler
    command_parser: argparse.ArgumentParser = args.command_parser
    try:
        return handler(args, command_parser)
    except BrokenPipeError:  # e.g. ``cuckoo-rules demo | head``
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of ``cuckoo-rules`` with every subcommand."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Command line of cuckoo-rules, a rules engine for the card game CuBirds.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {cr.__version__}")
    commands = parser.add_subparsers(
        title="commands", dest="command", metavar="COMMAND", required=True
    )
    _add_demo_command(commands)
    return parser


# --------------------------------------------------------------------------- demo command


def _add_demo_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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
    )
    demo.add_argument(
        "--players",
        type=int,
        default=_DEFAULTS.num_players,
        metavar="N",
        help=f"number of players, {cr.MIN_PLAYERS} to {cr.MAX_PLAYERS} (default: %(default)s)",
    )
    demo.add_argument(
        "--seed",
        type=int,
        metavar="S",
        help="seed of the game, 0 to 2**64 - 1 (default: a random seed, printed for replay)",
    )
    _add_option_arguments(demo)
    demo.set_defaults(handler=_run_demo, command_parser=demo)


def _add_option_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare one flag per rule variant of :class:`cuckoo_rules.GameOptions`."""
    group = parser.add_argument_group("rule variants (see rules.md)")
    group.add_argument(
        "--initial-row-length",
        type=int,
        default=_DEFAULTS.initial_row_length,
        metavar="{3,4}",
        help="cards in each row at setup (default: %(default)s)",
    )
    group.add_argument(
        "--setup-duplicates-to",
        choices=get_args(SetupDuplicatesTo),
        default=_DEFAULTS.setup_duplicates_to,
        help="where cards set aside while building the rows go (default: %(default)s)",
    )
    group.add_argument(
        "--no-optional-draw-if-adjacent",
        dest="optional_draw_if_adjacent",
        action="store_false",
        help="offer the optional draw only when the laid species was absent from the row",
    )
    group.add_argument(
        "--round-end-timing",
        choices=get_args(RoundEndTiming),
        default=_DEFAULTS.round_end_timing,
        help="when an empty hand ends the round (default: %(default)s)",
    )
    group.add_argument(
        "--no-exhaustion-counts-discard",
        dest="exhaustion_counts_discard",
        action="store_false",
        help="count only the draw pile when checking whether a new round can be dealt",
    )
    group.add_argument(
        "--next-round-first-player",
        choices=get_args(NextRoundFirstPlayer),
        default=_DEFAULTS.next_round_first_player,
        help="who takes the first turn of a new round (default: %(default)s)",
    )
    group.add_argument(
        "--always-prompt-flock",
        action="store_true",
        help="offer the flock step every turn, with pass as the only choice if no flock",
    )


def _options_from_args(args: argparse.Namespace) -> cr.GameOptions:
    """Build the game options from the parsed arguments.

    Raises:
        InvalidOptionsError: If a value is out of range.
    """
    return cr.GameOptions(
        num_players=args.players,
        initial_row_length=args.initial_row_length,
        setup_duplicates_to=args.setup_duplicates_to,
        optional_draw_if_adjacent=args.optional_draw_if_adjacent,
        round_end_timing=args.round_end_timing,
        exhaustion_counts_discard=args.exhaustion_counts_discard,
        next_round_first_player=args.next_round_first_player,
        always_prompt_flock=args.always_prompt_flock,
    )


def _run_demo(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Play and print a game between random players; bad arguments are usage errors."""
    chosen_seed: int | None = args.seed
    seed = secrets.randbelow(_SEED_LIMIT) if chosen_seed is None else chosen_seed
    try:
        state = cr.new_game(_options_from_args(args), seed)
    except cr.InvalidOptionsError as error:
        parser.error(_option_message(error))
    print(f"Seed {seed}; replay with: {replay_command(state.options, seed)}")
    play_random_game(state, random.Random(seed), print)
    return 0


def _option_message(error: cr.InvalidOptionsError) -> str:
    """Turn an option error (``"num_players: 6 is not in 2..5"``) into a usage message."""
    field, _, detail = str(error).partition(": ")
    flag = "--players" if field == "num_players" else "--" + field.replace("_", "-")
    return f"argument {flag}: {detail}" if detail else str(error)


def replay_command(options: cr.GameOptions, seed: int) -> str:
    """Return the ``cuckoo-rules demo`` command line that plays the same game again."""
    words = [PROG, "demo", "--players", str(options.num_players), "--seed", str(seed)]
    for name, value in options.to_json().items():
        default = getattr(_DEFAULTS, name)
        if name == "num_players" or value == default:
            continue
        flag = "--" + name.replace("_", "-")
        if isinstance(value, bool):
            words.append(flag if value else flag.replace("--", "--no-", 1))
        else:
            words += [flag, str(value)]
    return " ".join(words)


def play_random_game(
    state: cr.GameState, rng: random.Random, emit: Callable[[str], object]
) -> cr.GameState:
    """Play ``state`` to the end with uniformly random legal actions, narrating each step.

    Args:
        state: The state to start from (usually fresh from :func:`cuckoo_rules.new_game`).
        rng: The source of the players' choices.
        emit: Called with each line of narration.

    Returns:
        The final state.
    """
    for line in describe_setup(state):
        emit(line)
    while not state.is_over:
        action = rng.choice(cr.legal_actions(state))
        after = cr.apply(state, action)
        for line in describe_step(state, action, after):
            emit(line)
        state = after
    for line in describe_game_over(state):
        emit(line)
    return state


# --------------------------------------------------------------------------- narration


def describe_setup(state: cr.GameState) -> list[str]:
    """Describe a freshly dealt game: options, dealer, rows, collections, piles."""
    lines = [
        f"CuBirds, {state.num_players} players. Options: {_describe_options(state.options)}",
        f"Player {state.dealer} deals {cr.HAND_SIZE} cards to each player.",
        *_row_lines(state.rows),
        "Collections:",
        *_collection_lines(state),
        f"Draw pile {len(state.draw_pile)} cards, discard pile {sum(state.discard_pile)}.",
    ]
    return [*lines, _turn_header(state)]


def describe_step(before: cr.GameState, action: cr.Action, after: cr.GameState) -> list[str]:
    """Describe what ``action`` did, by comparing the states before and after it.

    Args:
        before: The state the action was applied to.
        action: The action, legal in ``before``.
        after: ``cuckoo_rules.apply(before, action)``.

    Returns:
        The lines of narration: the decision and its effects, any reshuffle, the end of
        the round and the start of the next turn (the end of the game is left to
        :func:`describe_game_over`).
    """
    lines = _describe_action(before, action, after)
    reshuffle = ["  The discard pile is shuffled into a new draw pile."] * (
        after.shuffles - before.shuffles
    )
    if after.round != before.round or _ran_out_of_cards(after):
        # A lay that ends the round captured nothing, so any reshuffle was for the deal.
        lines.append(
            f"Round {before.round} ends: player {before.current_player} has no cards left; "
            "the hands are discarded."
        )
        lines += reshuffle
        lines.append(_describe_next_round(after))
    else:
        lines += reshuffle
    if not after.is_over and after.turn != before.turn:
        lines.append(_turn_header(after))
    return lines


def describe_game_over(state: cr.GameState) -> list[str]:
    """Describe the end of a game: who won, why, and every final collection."""
    seats = [str(seat) for seat in state.winners]
    if len(seats) == 1:
        names, verb = f"player {seats[0]}", "wins"
    else:
        names, verb = f"players {', '.join(seats[:-1])} and {seats[-1]}", "share the victory"
    return [
        f"Game over after {state.turn} turns and {state.round} rounds: "
        f"{names} {verb} ({_why_won(state)}).",
        "Final collections:",
        *_collection_lines(state),
    ]


def _describe_action(before: cr.GameState, action: cr.Action, after: cr.GameState) -> list[str]:
    """Describe one decision of the current player and its immediate effects."""
    player = f"Player {before.current_player}"
    if isinstance(action, cr.Lay):
        return _describe_lay(before, action, after)
    if isinstance(action, cr.Draw):
        drawn = after.hand_size(before.current_player) - before.hand_size(before.current_player)
        return [f"  {player} draws {_plural(drawn, 'card')}."]
    if isinstance(action, cr.FlyHome):
        return [_describe_fly_home(before, action, after)]
    if before.phase is cr.Phase.DRAW:
        return [f"  {player} declines the draw."]
    if len(cr.legal_actions(before)) > 1:
        return [f"  {player} flies no flock home."]
    return []


def _describe_lay(before: cr.GameState, action: cr.Lay, after: cr.GameState) -> list[str]:
    """Describe a lay: what was laid where, what was captured, how the row was refilled."""
    p = before.current_player
    laid = before.hands[p][action.species.index]
    old_row = before.rows[action.row]
    new_row = after.rows[action.row]
    captured = _captured_count(before, action, after)
    if action.side is cr.Side.LEFT:
        taken = old_row[:captured]
        kept = (action.species,) * laid + old_row[captured:]
    else:
        taken = old_row[len(old_row) - captured :]
        kept = old_row[: len(old_row) - captured] + (action.species,) * laid
    refill = new_row[len(kept) :]
    lay = (
        f"  Player {p} lays {laid} {_TIMES} {action.species.value} "
        f"on the {action.side.value} of row {action.row}"
    )
    lines = [f"{lay}, captures {_cards(taken)}." if taken else f"{lay}."]
    if refill:
        lines.append(f"  Row {action.row} is refilled with {_cards(refill)}.")
    lines.append(f"    row {action.row}: {_cards(new_row)}")
    return lines


def _captured_count(before: cr.GameState, action: cr.Lay, after: cr.GameState) -> int:
    """Count the cards a lay captured, from the change in the player's hand.

    A lay that captures leaves cards in hand, so the round goes on and the hand after the
    lay is still there to compare; a lay that ends the round captured nothing.
    """
    p = before.current_player
    if after.round != before.round or after.is_over:
        return 0
    laid = before.hands[p][action.species.index]
    return after.hand_size(p) - before.hand_size(p) + laid


def _describe_fly_home(before: cr.GameState, action: cr.FlyHome, after: cr.GameState) -> str:
    """Describe a flock flown home: how many birds went home and how many were discarded."""
    p = before.current_player
    species = action.species
    revealed = before.hands[p][species.index]
    home = after.collections[p][species.index] - before.collections[p][species.index]
    return (
        f"  Player {p} flies {revealed} {_TIMES} {species.value} home: {home} to the collection, "
        f"{revealed - home} discarded. Collection: {_collection(after.collections[p])}."
    )


def _describe_next_round(after: cr.GameState) -> str:
    """Describe what follows the end of a round: the next deal, or the end by exhaustion."""
    options = after.options
    if not after.is_over:
        return (
            f"Round {after.round}: player {after.dealer} deals {cr.HAND_SIZE} cards to each "
            f"player; player {after.current_player} starts."
        )
    available = len(after.draw_pile)
    where = "draw pile"
    if options.exhaustion_counts_discard:
        available += sum(after.discard_pile)
        where = "draw and discard piles"
    needed = cr.HAND_SIZE * options.num_players
    return (
        f"Only {_plural(available, 'card')} remain in the {where}, fewer than the {needed} "
        "needed to deal: the game ends."
    )


def _ran_out_of_cards(state: cr.GameState) -> bool:
    """Whether the game ended by exhaustion rather than by a winning collection.

    A win is checked before the end of the round, so a game that ended without the
    current player holding a winning collection ended because no new round could be dealt.
    """
    return state.is_over and not cr.has_won(state.collections[state.current_player])


def _turn_header(state: cr.GameState) -> str:
    """The first line of a turn: its number, the player and their hand size."""
    p = state.current_player
    hand = _plural(state.hand_size(p), "card")
    return f"Turn {state.turn} (round {state.round}): player {p}, {hand} in hand"


def _why_won(state: cr.GameState) -> str:
    """Explain the victory: a winning collection, or the most cards when the cards ran out."""
    collection = state.collections[state.winners[0]]
    if _ran_out_of_cards(state):
        return f"the cards ran out; most cards in a collection: {sum(collection)}"
    reasons = []
    present = [s for s in cr.SPECIES if collection[s.index]]
    triples = [s.value for s in present if collection[s.index] >= 3]
    if len(present) >= 7:
        reasons.append(f"{len(present)} species")
    if len(triples) >= 2:
        reasons.append("3 or more of " + " and ".join(triples))
    return "; ".join(reasons)


def _describe_options(options: cr.GameOptions) -> str:
    """The options that differ from the rules' defaults, or ``"standard rules"``."""
    changed = [
        f"{name}={str(value).lower() if isinstance(value, bool) else value}"
        for name, value in options.to_json().items()
        if name != "num_players" and value != getattr(_DEFAULTS, name)
    ]
    return ", ".join(changed) if changed else "standard rules"


def _row_lines(rows: Sequence[cr.Row]) -> list[str]:
    """One line per row: ``row 0: owl duck duck robin``."""
    return [f"    row {index}: {_cards(row)}" for index, row in enumerate(rows)]


def _collection_lines(state: cr.GameState) -> list[str]:
    """One line per seat with its collection and its size."""
    return [
        f"    player {seat}: {_collection(counts)} ({_plural(sum(counts), 'card')})"
        for seat, counts in enumerate(state.collections)
    ]


def _collection(counts: cr.Counts) -> str:
    """A multiset as ``2 owl, 1 robin`` (``nothing`` when empty)."""
    items = [f"{n} {species.value}" for species, n in cr.counts_to_dict(counts).items()]
    return ", ".join(items) if items else "nothing"


def _plural(count: int, noun: str) -> str:
    """``1 card``, ``2 cards``."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _cards(cards: Sequence[cr.Species]) -> str:
    """Cards in order as ``owl duck duck robin``."""
    return " ".join(card.value for card in cards)


if __name__ == "__main__":
    raise SystemExit(main())
