"""Play a whole game between bots: :func:`play_game` and its result :class:`PlayedGame`."""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from ..botspec import DEFAULT_MAX_TURNS
from ..match import Bot, BotError, Match, MatchError
from ..options import GameOptions
from ..records import GameRecord, GameResult, Metadata
from ..state import GameState

__all__ = ["DEFAULT_MAX_TURNS", "PlayedGame", "play_game"]


@attrs.frozen
class PlayedGame:
    """A finished game between bots: its record, result and a few statistics.

    Attributes:
        record: The game record (options, seed, every action), with the bots' names
            as ``metadata.players`` and the winners as ``metadata.result``;
            :func:`cuckoo_rules.replay` reproduces every state.
        final_state: The state the game ended in.
        winners: The winning seats in increasing order (several for a shared victory).
        turns: The number of turns played (``final_state.turn``).
        rounds: The number of rounds played (``final_state.round``).
        decisions: For each seat, how many actions its bot chose.
        think_seconds: For each seat, the time its bot spent choosing, in seconds
            (measured, so not reproducible; not compared by ``==``).
    """

    record: GameRecord
    final_state: GameState
    winners: tuple[int, ...]
    turns: int
    rounds: int
    decisions: tuple[int, ...]
    think_seconds: tuple[float, ...] = attrs.field(eq=False)


def play_game(
    options: GameOptions,
    seed: int,
    bots: Sequence[Bot],
    *,
    names: Sequence[str] | None = None,
    event: str | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
) -> PlayedGame:
    """Play a game to the end, seat ``i`` played by ``bots[i]``.

    The game is a :class:`~cuckoo_rules.Match` whose seats are all bots: each bot is
    only ever given :func:`cuckoo_rules.observe` of the state for its own seat when it
    is to act, never the state, and a bot that follows the game (with an ``inform``
    hook, such as :class:`~cuckoo_rules.bots.IsmctsBot`) is told every action as its
    seat saw it. The game is reproducible: the same options, seed and bots (built with
    the same seeds) play the same game.

    Args:
        options: The game options.
        seed: The seed of the deal, an integer in ``[0, 2**64)``.
        bots: One bot per seat.
        names: One name per seat for the record's metadata (default: each bot's repr).
        event: Free text stored as the record's ``metadata.event``.
        max_turns: Give up (raise) if the game has not ended after this many turns.

    Returns:
        The record of the game, its winners and statistics.

    Raises:
        BotError: If the number of bots or names is not the number of players, a bot
            chooses an action that is not legal, or the game does not end in time.
        InvalidOptionsError: If the options or the seed are invalid.

    Example:
        >>> from cuckoo_rules import GameOptions
        >>> from cuckoo_rules.records import final_state
        >>> from cuckoo_rules.bots import GreedyBot, RandomBot
        >>> bots = [GreedyBot(seed=1), RandomBot(seed=2)]
        >>> played = play_game(GameOptions(num_players=2), 7, bots)
        >>> final_state(played.record) == played.final_state
        True
    """
    try:
        match = Match(options, seed, tuple(bots), names=names, keep_events=False)
    except MatchError as error:
        raise BotError(str(error)) from None
    match.play_bots(max_turns=max_turns)
    state = match.state
    if not state.is_over:
        raise BotError(f"the game did not end within {max_turns} turns (seed {seed})")
    metadata = Metadata(players=match.names, event=event, result=GameResult(state.winners))
    record = GameRecord.from_game(options, seed, match.actions, metadata)
    return PlayedGame(
        record,
        state,
        state.winners,
        state.turn,
        state.round,
        tuple(match.decisions),
        tuple(match.think_seconds),
    )
