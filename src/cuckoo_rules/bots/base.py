"""The bot protocol, the errors of this package, and the random bot.

A bot is anything with a ``choose(view) -> Action`` method (:class:`Bot`). It is given
the acting seat's :class:`~cuckoo_rules.PlayerView`, never the
:class:`~cuckoo_rules.GameState`, so it cannot see hidden cards. Every bot of this
package owns a :class:`random.Random` seeded from its own ``seed``, so a bot built with
the same seed and shown the same views makes the same choices.

A bot may also use what its seat's history proves beyond the view (a
:class:`~cuckoo_rules.Knowledge`): it says so with a class attribute
``uses_knowledge = True`` and accepts ``choose(view, knowledge=...)``
(:class:`KnowledgeBot`). Drivers call :func:`choose_action`, which gives the knowledge
to such bots only, so ``choose(view)`` keeps working for every other bot.
"""

from __future__ import annotations

import random
from typing import ClassVar, Protocol, cast, runtime_checkable

import attrs

from ..actions import Action
from ..engine import legal_actions
from ..errors import CuckooError
from ..knowledge import Knowledge
from ..views import PlayerView

__all__ = [
    "Bot",
    "BotError",
    "BotSpecError",
    "KnowledgeBot",
    "RandomBot",
    "check_view",
    "choose_action",
    "own_rng",
    "wants_knowledge",
]


class BotError(CuckooError, ValueError):
    """A bot was misused or misbehaved: wrong number of bots, an illegal choice, a bad view.

    The message names the seat and the bot, for example ``"seat 1 (RandomBot(seed=3))
    chose Draw(), which is not legal: ..."``.
    """


class BotSpecError(BotError):
    """A bot specification such as ``"ismcts:iterations=300"`` is malformed.

    The message says what is wrong and what is accepted, for example ``"bot spec
    'ismcts:iterations=abc': iterations must be an integer, got 'abc'"``.
    """


@runtime_checkable
class Bot(Protocol):
    """A player: given the acting seat's view, choose one of its legal actions.

    Implementations must return an action that is legal in the view
    (:func:`cuckoo_rules.legal_actions` accepts the view) and should be deterministic
    given their own seed: no global random state.
    """

    def choose(self, view: PlayerView) -> Action:
        """Return the action to take.

        Args:
            view: What the acting seat sees; ``view.viewer == view.current_player``.

        Returns:
            One of ``legal_actions(view)``.
        """
        ...


class KnowledgeBot(Bot, Protocol):
    """A bot that can also use what its seat's history proves beyond the view.

    Such a bot sets the class attribute ``uses_knowledge = True`` and accepts a
    ``knowledge`` argument; ``choose(view)`` alone must keep working (as if nothing were
    known beyond the view), so it is still a :class:`Bot`. Drivers give the knowledge
    through :func:`choose_action`. :class:`~cuckoo_rules.bots.IsmctsBot` is one.

    Attributes:
        uses_knowledge: ``True``: drivers that follow the game's events pass the acting
            seat's :class:`~cuckoo_rules.Knowledge` to :meth:`choose`.
    """

    uses_knowledge: ClassVar[bool]

    def choose(self, view: PlayerView, knowledge: Knowledge | None = None) -> Action:
        """Return the action to take.

        Args:
            view: What the acting seat sees; ``view.viewer == view.current_player``.
            knowledge: What the acting seat's own history proves beyond ``view``:
                :func:`~cuckoo_rules.learn` folded over
                ``visible_events(events, view.viewer)`` of every event since the game
                started, from :meth:`Knowledge.start <cuckoo_rules.Knowledge.start>`;
                ``None`` if unknown.

        Returns:
            One of ``legal_actions(view)``.
        """
        ...


def wants_knowledge(bot: object) -> bool:
    """Whether ``bot`` declares that it uses knowledge (``uses_knowledge`` is ``True``).

    Drivers check this once per game, so that games without such a bot need not follow
    the events at all.

    Example:
        >>> from cuckoo_rules.bots import GreedyBot, IsmctsBot
        >>> wants_knowledge(IsmctsBot()), wants_knowledge(GreedyBot())
        (True, False)
    """
    return getattr(bot, "uses_knowledge", False) is True


def choose_action(bot: Bot, view: PlayerView, knowledge: Knowledge | None = None) -> Action:
    """Ask ``bot`` for its action, giving it ``knowledge`` if it uses knowledge.

    A bot that declares ``uses_knowledge = True`` (:class:`KnowledgeBot`) is called as
    ``bot.choose(view, knowledge=knowledge)``; every other bot, or any bot when
    ``knowledge`` is ``None``, as ``bot.choose(view)``. The result is not checked.

    Args:
        bot: The bot of the seat to act.
        view: The acting seat's view.
        knowledge: What that seat's own history proves beyond ``view`` (see
            :meth:`KnowledgeBot.choose`), or ``None``.

    Returns:
        The bot's choice.

    Example:
        >>> from cuckoo_rules import GameOptions, Knowledge, new_game, observe
        >>> from cuckoo_rules.bots import IsmctsBot
        >>> state = new_game(GameOptions(num_players=2), seed=1)
        >>> view = observe(state, state.current_player)
        >>> known = Knowledge.start(2)
        >>> choose_action(IsmctsBot(seed=5, iterations=20), view, known) in legal_actions(view)
        True
        >>> choose_action(RandomBot(seed=5), view, known) in legal_actions(view)
        True
    """
    if knowledge is not None and wants_knowledge(bot):
        return cast(KnowledgeBot, bot).choose(view, knowledge=knowledge)
    return bot.choose(view)


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
        cuckoo_rules.bots.base.BotError: a bot is given a PlayerView, not GameState
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
