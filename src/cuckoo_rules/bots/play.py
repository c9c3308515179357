"""Play a whole game between bots: :func:`play_game` and its result :class:`PlayedGame`."""

from __future__ import annotations

import time
from collections.abc import Sequence

import attrs

from ..engine import apply, new_game, step
from ..errors import IllegalActionError
from ..knowledge import Knowledge, learn_each
from ..options import GameOptions
from ..records import GameRecord, GameResult, Metadata
from ..state import GameState
from ..views import observe
from .base import Bot, BotError, choose_action, wants_knowledge

__all__ = ["DEFAULT_MAX_TURNS", "PlayedGame", "play_game"]

DEFAULT_MAX_TURNS = 10_000
"""The turn after which :func:`play_game` gives up on a game that does not end."""


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

    Each bot is only ever given :func:`cuckoo_rules.observe` of the state for its own
    seat when it is to act, never the state. A bot that uses knowledge
    (:class:`~cuckoo_rules.bots.KnowledgeBot`, such as
    :class:`~cuckoo_rules.bots.IsmctsBot`) is also given its seat's
    :class:`~cuckoo_rules.Knowledge`, :func:`~cuckoo_rules.learn` folded over the events
    of the game as :func:`~cuckoo_rules.visible_events` shows them to that seat; the
    events are only followed when some bot uses knowledge. The game is reproducible:
    the same options, seed and bots (built with the same seeds) play the same game.

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
        >>> from cuckoo_rules import GameOptions, final_state
        >>> from cuckoo_rules.bots import GreedyBot, RandomBot
        >>> bots = [GreedyBot(seed=1), RandomBot(seed=2)]
        >>> played = play_game(GameOptions(num_players=2), 7, bots)
        >>> final_state(played.record) == played.final_state
        True
    """
    state = new_game(options, seed)
    n = options.num_players
    bots = tuple(bots)
    if len(bots) != n:
        raise BotError(f"bots: expected {n} bots (one per player), got {len(bots)}")
    seat_names = tuple(repr(bot) for bot in bots) if names is None else tuple(names)
    if len(seat_names) != n or not all(isinstance(name, str) for name in seat_names):
        raise BotError(f"names: expected {n} strings (one per player), got {seat_names!r}")
    # What each seat whose bot uses knowledge has learned from the events so far.
    at_setup = Knowledge.at_setup(state)
    known = {s: at_setup for s, bot in enumerate(bots) if wants_knowledge(bot)}
    actions = []
    decisions = [0] * n
    think = [0.0] * n
    while not state.is_over:
        if state.turn > max_turns:
            raise BotError(f"the game did not end within {max_turns} turns (seed {seed})")
        seat = state.current_player
        bot = bots[seat]
        start = time.perf_counter()
        action = choose_action(bot, observe(state, seat), known.get(seat))
        think[seat] += time.perf_counter() - start
        decisions[seat] += 1
        try:
            state, events = step(state, action) if known else (apply(state, action), ())
        except IllegalActionError as error:
            raise BotError(
                f"seat {seat} ({seat_names[seat]}) chose an illegal action: {error}"
            ) from error
        known = learn_each(known, events)
        actions.append(action)
    metadata = Metadata(players=seat_names, event=event, result=GameResult(state.winners))
    record = GameRecord.from_game(options, seed, actions, metadata)
    return PlayedGame(
        record,
        state,
        state.winners,
        state.turn,
        state.round,
        tuple(decisions),
        tuple(think),
    )
