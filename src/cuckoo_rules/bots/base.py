"""The bot protocol's helpers, the errors of this package, and the random bot.

A bot is anything with a ``choose(view) -> Action`` method
(:class:`~cuckoo_rules.match.Bot`). It is given the acting seat's
:class:`~cuckoo_rules.PlayerView`, never the :class:`~cuckoo_rules.GameState`, so it
cannot see hidden cards. Every bot of this package owns a :class:`random.Random` seeded
from its own ``seed``, so a bot built with the same seed and shown the same views makes
the same choices. A bot that follows the history also has the hook
``inform(view, events)``, which a :class:`~cuckoo_rules.Match` calls after every action
(see :mod:`cuckoo_rules.match`).
"""

from __future__ import annotations

import random
from typing import Protocol

import attrs

from ..actions import Action
from ..engine import legal_actions
from ..errors import BotError, BotSpecError
from ..events import Event, GameStarted
from ..knowledge import Knowledge, learn
from ..match import Bot
from ..views import PlayerView

__all__ = [
    "Bot",
    "BotError",
    "BotSpecError",
    "Followed",
    "RandomBot",
    "check_knowledge",
    "check_view",
    "own_rng",
]


def check_view(view: object) -> PlayerView:
    """Check that ``view`` is the view of the seat to act, and return it.

    Bots call this first, so that passing a state (or a view of another seat) fails
    loudly instead of leaking hidden information.

    Raises:
        BotError: If ``view`` is not a :class:`~cuckoo_rules.PlayerView`, or it is not
            the acting seat's view of a game in progress.

    Example:
        >>> from cuckoo_rules import GameOptions, new_game, observe
        >>> state = new_game(GameOptions(num_players=2), seed=1)
        >>> check_view(observe(state, state.current_player)).viewer == state.current_player
        True
        >>> check_view(state)
        Traceback (most recent call last):
        ...
        cuckoo_rules.errors.BotError: a bot is given a PlayerView, not GameState
    """
    if not isinstance(view, PlayerView):
        raise BotError(f"a bot is given a PlayerView, not {type(view).__name__}")
    if not view.is_my_turn or view.hand is None:
        raise BotError(
            f"a bot is given the view of the seat to act (player {view.current_player}), "
            f"not of {'a spectator' if view.viewer is None else f'player {view.viewer}'}"
            + (" after the game is over" if view.is_over else "")
        )
    return view


class _Seeded(Protocol):
    seed: int


def own_rng(bot: _Seeded) -> random.Random:
    """The bot's own random generator, seeded from its ``seed`` (no global random state).

    Bots use it as ``attrs.Factory(own_rng, takes_self=True)``.
    """
    return random.Random(bot.seed)


@attrs.frozen
class RandomBot:
    """Chooses uniformly at random among the legal actions.

    Attributes:
        seed: Seeds the bot's own :class:`random.Random`.

    Example:
        >>> from cuckoo_rules import GameOptions, new_game, observe, legal_actions
        >>> state = new_game(GameOptions(num_players=2), seed=1)
        >>> view = observe(state, state.current_player)
        >>> RandomBot(seed=5).choose(view) in legal_actions(view)
        True
    """

    seed: int = 0
    _rng: random.Random = attrs.field(
        init=False, repr=False, eq=False, default=attrs.Factory(own_rng, takes_self=True)
    )

    def choose(self, view: PlayerView) -> Action:
        """Return a legal action of ``view`` chosen uniformly at random."""
        return self._rng.choice(legal_actions(check_view(view)))


def check_knowledge(knowledge: object, view: PlayerView) -> None:
    """Cheap checks of the ``knowledge`` given to a search bot (``determinize`` does the rest).

    Raises:
        BotError: If ``knowledge`` is neither ``None`` nor a
            :class:`~cuckoo_rules.Knowledge` with one entry per seat of ``view``'s game.
    """
    if knowledge is None:
        return
    if not isinstance(knowledge, Knowledge):
        raise BotError(f"knowledge: expected a Knowledge (or None), got {type(knowledge).__name__}")
    players = view.options.num_players
    if len(knowledge.hidden_limits) != players:
        raise BotError(
            f"knowledge: {len(knowledge.hidden_limits)} seats for a {players}-player game"
        )


class Followed:
    """What a search bot learned from the game it is informed of (mutable, one per bot).

    The search bots' ``inform`` hook (see :mod:`cuckoo_rules.match`) calls
    :meth:`follow`; their ``choose`` asks :meth:`knowledge_for` the view it is given.
    """

    __slots__ = ("knowledge", "view")

    def __init__(self) -> None:
        self.knowledge: Knowledge | None = None
        self.view: PlayerView | None = None

    def follow(self, view: PlayerView, events: tuple[Event, ...], *, learning: bool) -> None:
        """Take in the events of one action (or a new game's setup) and the view after.

        Args:
            view: The seat's view after the events.
            events: The events as the seat saw them; a
                :class:`~cuckoo_rules.GameStarted` first starts a new game.
            learning: Whether to fold the events into the knowledge (``False`` keeps
                what the setup showed only).

        Raises:
            ViewError: If an event names a seat the game does not have.
        """
        if events and type(events[0]) is GameStarted:
            self.knowledge = Knowledge.start(view.num_players)
        if self.knowledge is not None and learning:
            self.knowledge = learn(self.knowledge, events, view.viewer)
        self.view = view

    def knowledge_for(self, view: PlayerView) -> Knowledge | None:
        """The knowledge followed, if ``view`` is the view last informed of."""
        if self.knowledge is None or view != self.view:
            return None
        return self.knowledge
