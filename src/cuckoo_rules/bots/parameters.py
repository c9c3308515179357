"""The bots' parameters: each one's type, inclusive range and meaning, stated once.

Every parameter that a bot specification can set (``greedy:feed_weight=0.5``) is a
:class:`BotParameter` in one of the tables below, one per bot kind. The same tables are
read by the bots' constructors (:func:`check_parameters`, so that
``GreedyBot(feed_weight=float("nan"))`` is refused too), by
:func:`~cuckoo_rules.bots.specs.parse_bot_spec` through
:data:`~cuckoo_rules.bots.specs.BOT_KINDS`, and by the table of parameters in the
documentation (``scripts/make_bot_docs.py``). Every range is finite and inclusive,
chosen so that the bots' arithmetic cannot overflow or become NaN and a decision cannot
cost absurdly much; NaN and the infinities are never accepted. The module needs neither
NumPy nor numba, so the expert's parameters can be checked without the ``batch`` extra.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from types import MappingProxyType

import attrs

from ..actions import NUM_DISTINCT_ACTIONS
from ..cards import DECK_SIZE
from ..match import BotError
from .play import DEFAULT_MAX_TURNS

__all__ = [
    "EXPERT_PARAMETERS",
    "GREEDY_PARAMETERS",
    "ISMCTS_PARAMETERS",
    "MAX_BUDGET",
    "MAX_SECONDS",
    "RANDOM_PARAMETERS",
    "BotParameter",
    "check_parameters",
]


def _number(value: int | float) -> str:
    """A bound as it is written in messages and tables: ``10``, ``0.001``, ``1000000``."""
    return str(value) if isinstance(value, int) else f"{value:g}"


@attrs.frozen
class BotParameter:
    """One parameter of a bot kind: its name, type, inclusive range and meaning.

    Attributes:
        name: The parameter's name, in specifications and as the bot's attribute.
        type: ``int`` or ``float``. A float parameter also takes an integer (``2`` for
            ``2.0``); an integer parameter takes no float.
        minimum: The smallest value accepted.
        maximum: The largest value accepted.
        description: What the parameter does, one line for tables and help texts.
        allows_none: Whether the bot's constructor also takes ``None`` (no limit of
            this kind, or the bot's default behaviour). A specification says that by
            leaving the parameter out.

    Example:
        >>> feed_weight = GREEDY_PARAMETERS["feed_weight"]
        >>> feed_weight.expected
        'a finite number from -10 to 10'
        >>> feed_weight.accepts(2), feed_weight.accepts(float("nan"))
        (True, False)
    """

    name: str
    type: type[int] | type[float]
    minimum: int | float
    maximum: int | float
    description: str
    allows_none: bool = False

    @property
    def expected(self) -> str:
        """What a value must be, for messages: ``"an integer from 1 to 1000000"``."""
        what = "an integer" if self.type is int else "a finite number"
        return f"{what} from {_number(self.minimum)} to {_number(self.maximum)}"

    def accepts(self, value: object) -> bool:
        """Whether ``value`` is of the parameter's type and within its range.

        ``None`` is accepted when :attr:`allows_none` is set; a bool, NaN and the
        infinities never are.
        """
        if value is None:
            return self.allows_none
        if isinstance(value, bool) or not isinstance(value, int | float):
            return False
        if isinstance(value, float) and (self.type is int or not math.isfinite(value)):
            return False
        return self.minimum <= value <= self.maximum

    def check(self, value: object) -> None:
        """Refuse a value that :meth:`accepts` does not accept.

        Raises:
            BotError: If it is refused; the message names the parameter, the range and
                the value (``"feed_weight must be a finite number from -10 to 10, got
                nan"``).
        """
        if not self.accepts(value):
            raise BotError(f"{self.name} must be {self.expected}, got {value!r}")

    def to_json(self) -> dict[str, str | int | float | bool]:
        """The parameter as a JSON-ready dictionary (for front ends and help texts).

        Example:
            >>> ISMCTS_PARAMETERS["iterations"].to_json()["maximum"]
            1000000
        """
        return {
            "name": self.name,
            "type": self.type.__name__,
            "minimum": self.minimum,
            "maximum": self.maximum,
            "description": self.description,
            "allows_none": self.allows_none,
        }


def check_parameters(bot: object, parameters: Mapping[str, BotParameter]) -> None:
    """Check each of ``parameters`` on ``bot``, read as the attribute of the same name.

    The bots call it from their constructors (``__attrs_post_init__``).

    Raises:
        BotError: For the first parameter whose value is refused (see
            :meth:`BotParameter.check`).
    """
    for parameter in parameters.values():
        parameter.check(getattr(bot, parameter.name))


def _table(*parameters: BotParameter) -> Mapping[str, BotParameter]:
    return MappingProxyType({parameter.name: parameter for parameter in parameters})


MAX_BUDGET = 10**6
"""The most iterations or simulations per decision (minutes of thinking per move)."""

MAX_SECONDS = 3600.0
"""The longest thinking time per decision, in seconds (an hour)."""

_SECONDS = BotParameter(
    "seconds",
    float,
    0.001,
    MAX_SECONDS,
    "thinking time per decision, in seconds (the play then depends on the machine's speed)",
    allows_none=True,
)

RANDOM_PARAMETERS: Mapping[str, BotParameter] = _table()
"""The random bot's parameters: none (its seed is given by whoever plays the games)."""

GREEDY_PARAMETERS: Mapping[str, BotParameter] = _table(
    BotParameter(
        "feed_weight",
        float,
        -10.0,
        10.0,
        "points lost per card of capture a lay opens up for the next player, weighted by "
        "the chance they can take it (negative: seek such lays)",
    ),
    BotParameter(
        "end_round_threshold",
        int,
        0,
        DECK_SIZE,
        "with an empty hand after a lay, decline the draw (ending the round) when the other "
        "players hold more cards than this in all",
    ),
)
"""The parameters of :class:`~cuckoo_rules.bots.greedy.GreedyBot`, by name."""

ISMCTS_PARAMETERS: Mapping[str, BotParameter] = _table(
    BotParameter(
        "iterations",
        int,
        1,
        MAX_BUDGET,
        "iterations per decision (without iterations or seconds: the default budget)",
        allows_none=True,
    ),
    _SECONDS,
    BotParameter(
        "exploration",
        float,
        0.0,
        100.0,
        "the UCB1 exploration constant c (the rewards lie between 0 and 1)",
    ),
    BotParameter(
        "rollout_turns",
        int,
        -1,
        DEFAULT_MAX_TURNS,
        "turns the rollout plays after leaving the tree before the position is scored; "
        "-1 plays to the end of the game (default: one turn per player)",
        allows_none=True,
    ),
    BotParameter(
        "temperature",
        float,
        0.01,
        1000.0,
        "the softmax temperature that turns heuristic score differences (in "
        "collection-value points) into rewards",
    ),
    BotParameter(
        "widening",
        float,
        0.0,
        100.0,
        "progressive widening: a node considers its first 1 + widening * sqrt(visits) "
        "candidates; 0 considers them all",
    ),
)
"""The parameters of :class:`~cuckoo_rules.bots.ismcts.IsmctsBot`, by name."""

EXPERT_PARAMETERS: Mapping[str, BotParameter] = _table(
    BotParameter(
        "simulations",
        int,
        1,
        MAX_BUDGET,
        "simulations (rollouts) per decision (without simulations or seconds: the default budget)",
        allows_none=True,
    ),
    _SECONDS,
    BotParameter(
        "width",
        int,
        0,
        NUM_DISTINCT_ACTIONS,
        "how many candidate actions are searched, best first by the greedy heuristic; "
        "0 searches every legal action",
    ),
    BotParameter(
        "rollout_turns",
        int,
        -1,
        DEFAULT_MAX_TURNS,
        "turns each rollout plays after the candidate before the position is scored; "
        "-1 (the default) plays to the end of the game",
    ),
)
"""The parameters of :class:`~cuckoo_rules.bots.expert.ExpertBot`, by name."""
