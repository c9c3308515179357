"""The language of bot specifications: ``"greedy"``, ``"ismcts:iterations=300"``.

A specification is a bot kind, optionally followed by parameters, each introduced by a
colon: ``KIND[:NAME=VALUE[:NAME=VALUE...]]``, for example
``ismcts:iterations=500:exploration=0.5``. The kinds and their parameters are listed in
:data:`SPEC_KINDS`; the seed is not a parameter, since whoever plays the games (such as
the tournament runner) gives each bot its own seed. Each parameter is a
:class:`BotParameter` with a type and a finite, inclusive range, stated once in the
tables below; a value out of its range, NaN or an infinity is refused when a
specification is parsed, and by the bots' constructors alike (:func:`check_parameters`).

This module is below the bots and the batch simulator, so that both read the same
language: :mod:`cuckoo_rules.bots.specs` re-exports it and adds the bots themselves
(``BOT_KINDS``, ``make_bot``, and ``parse_bot_spec``, which also builds the bot once),
registering each kind's constructor here (:func:`register_bot_factory`) for
:meth:`BotSpec.build`. It needs neither NumPy nor numba.

Example:
    >>> spec = parse("greedy:feed_weight=2")
    >>> spec.kind, spec.params
    ('greedy', (('feed_weight', 2.0),))
    >>> SPEC_KINDS["greedy"].parameters["feed_weight"].expected
    'a finite number from -10 to 10'
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import Any

import attrs

from .actions import NUM_DISTINCT_ACTIONS
from .cards import DECK_SIZE
from .errors import BotError, BotSpecError, short_repr
from .match import Bot

__all__ = [
    "DEFAULT_MAX_TURNS",
    "EXPERT_PARAMETERS",
    "GREEDY_PARAMETERS",
    "ISMCTS_PARAMETERS",
    "MAX_BUDGET",
    "MAX_SECONDS",
    "RANDOM_PARAMETERS",
    "SPEC_KINDS",
    "BotParameter",
    "BotSpec",
    "SpecKind",
    "as_specs",
    "check_parameters",
    "parse",
    "parse_list",
    "register_bot_factory",
]

DEFAULT_MAX_TURNS = 10_000
"""The turn after which :func:`~cuckoo_rules.bots.play_game` gives up on a game that does
not end (and the longest rollout a search parameter may ask for)."""


# --------------------------------------------------------------------------- parameters


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


# --------------------------------------------------------------------------- kinds


@attrs.frozen
class SpecKind:
    """A kind of bot that a specification can name, as the language knows it.

    Attributes:
        name: The kind's name in specifications (``"greedy"``).
        parameters: The parameters a specification can set, by name: each one's type,
            range and meaning.
        summary: One line for help texts.
    """

    name: str
    parameters: Mapping[str, BotParameter]
    summary: str


SPEC_KINDS: Mapping[str, SpecKind] = MappingProxyType(
    {
        "random": SpecKind("random", RANDOM_PARAMETERS, "uniform over legal actions"),
        "greedy": SpecKind("greedy", GREEDY_PARAMETERS, "one-ply heuristic"),
        "ismcts": SpecKind("ismcts", ISMCTS_PARAMETERS, "information set Monte Carlo tree search"),
        "expert": SpecKind(
            "expert",
            EXPERT_PARAMETERS,
            "determinized Monte Carlo search with greedy rollouts (extra 'batch')",
        ),
    }
)
"""The bot kinds a specification can name, by name, in the order help texts list them."""

_FACTORIES: dict[str, Callable[..., Bot]] = {}


def register_bot_factory(kind: str, factory: Callable[..., Bot]) -> None:
    """Let :meth:`BotSpec.build` make the bots of ``kind`` with ``factory(seed=..., **params)``.

    :mod:`cuckoo_rules.bots.specs` registers every kind of :data:`SPEC_KINDS` when it is
    imported.

    Raises:
        BotSpecError: If ``kind`` is not a kind of :data:`SPEC_KINDS`.
    """
    if kind not in SPEC_KINDS:
        raise BotSpecError(f"bot kind {short_repr(kind)}: {_unknown_kind(kind)}")
    _FACTORIES[kind] = factory


def _unknown_kind(kind: str) -> str:
    return f"unknown bot {short_repr(kind)} (choose from {', '.join(SPEC_KINDS)})"


# --------------------------------------------------------------------------- specifications


@attrs.frozen
class BotSpec:
    """A parsed bot specification: a kind and its parameters.

    Build one with :func:`parse` (or :func:`cuckoo_rules.bots.parse_bot_spec`);
    :meth:`build` makes a bot with a given seed. Specifications are plain values, so they
    can be sent to worker processes.

    Attributes:
        kind: The bot kind, a key of :data:`SPEC_KINDS`.
        params: The parameters, as ``(name, value)`` pairs in the order given.
        text: The specification as written (whitespace around it removed).
    """

    kind: str
    params: tuple[tuple[str, int | float], ...] = ()
    text: str = attrs.field(default="")

    def check(self) -> None:
        """Check the kind and every parameter against :data:`SPEC_KINDS`, building nothing.

        Raises:
            BotSpecError: If the kind or a parameter is unknown, or a value is out of its
                range (as :meth:`build` would say).
        """
        kind = SPEC_KINDS.get(self.kind)
        if kind is None:
            raise BotSpecError(f"bot spec {self._label}: {_unknown_kind(self.kind)}")
        for name, value in self.params:
            parameter = kind.parameters.get(name)
            if parameter is None:
                raise BotSpecError(f"bot spec {self._label}: {_unknown_parameter(kind, name)}")
            try:
                parameter.check(value)
            except BotError as error:
                raise BotSpecError(f"bot spec {self._label}: {error}") from None

    def build(self, seed: int) -> Bot:
        """Return a new bot of this specification, seeded with ``seed``.

        Raises:
            BotSpecError: If the kind is unknown, or a parameter value is out of range
                for the bot (or, for a kind whose bots need an extra, that extra is not
                installed).
        """
        if self.kind not in SPEC_KINDS:
            raise BotSpecError(f"bot spec {self._label}: {_unknown_kind(self.kind)}")
        factory = _FACTORIES.get(self.kind)
        if factory is None:
            raise BotSpecError(
                f"bot spec {self._label}: no bots are registered yet (import cuckoo_rules.bots)"
            )
        try:
            return factory(seed=seed, **dict(self.params))
        except BotError as error:
            raise BotSpecError(f"bot spec {self._label}: {error}") from None

    @property
    def _label(self) -> str:
        return repr(self.text or self.kind)


def _unknown_parameter(kind: SpecKind, name: str) -> str:
    takes = ", ".join(kind.parameters) or "no parameters"
    return f"unknown parameter {short_repr(name)} for {kind.name} (it takes {takes})"


def _convert(parameter: BotParameter, text: str, spec: str) -> int | float:
    """The value of ``parameter`` written ``text``, checked against its range."""
    try:
        value = int(text) if parameter.type is int else float(text)
    except ValueError:
        expected = "an integer" if parameter.type is int else "a number"
        raise BotSpecError(
            f"bot spec {short_repr(spec)}: {parameter.name} must be {expected}, "
            f"got {short_repr(text)}"
        ) from None
    try:
        parameter.check(value)
    except BotError as error:
        raise BotSpecError(f"bot spec {short_repr(spec)}: {error}") from None
    return value


def parse(text: str) -> BotSpec:
    """Parse one bot specification, such as ``"ismcts:iterations=300"``; build nothing.

    Each value is converted to its parameter's type (an integer is fine for a float
    parameter, not the other way round) and checked against its range
    (:class:`BotParameter`: NaN and infinities are out of every range).
    :func:`cuckoo_rules.bots.parse_bot_spec` also builds the bot once.

    Raises:
        BotSpecError: If the kind is unknown, a parameter is unknown, repeated, not of
            the form ``NAME=VALUE`` or of the wrong type, or a value is out of range (the
            message names the specification, the parameter, the range and the value).

    Example:
        >>> parse("ismcts:iterations=300").params
        (('iterations', 300),)
        >>> parse("greedy:depth=2")
        Traceback (most recent call last):
        ...
        cuckoo_rules.errors.BotSpecError: bot spec 'greedy:depth=2': unknown parameter ...
    """
    if not isinstance(text, str):
        raise BotSpecError(f"bot spec: expected a string, got {short_repr(text)}")
    spec = text.strip()
    if not spec:
        raise BotSpecError(
            f"bot spec {short_repr(text)}: empty (expected one of {', '.join(SPEC_KINDS)})"
        )
    name, *items = spec.split(":")
    kind = SPEC_KINDS.get(name)
    if kind is None:
        raise BotSpecError(f"bot spec {short_repr(spec)}: {_unknown_kind(name)}")
    params: dict[str, Any] = {}
    for item in items:
        key, equals, value = item.partition("=")
        if not equals or not key or not value:
            raise BotSpecError(
                f"bot spec {short_repr(spec)}: expected NAME=VALUE after ':', "
                f"got {short_repr(item)}"
            )
        if key not in kind.parameters:
            raise BotSpecError(f"bot spec {short_repr(spec)}: {_unknown_parameter(kind, key)}")
        if key in params:
            raise BotSpecError(
                f"bot spec {short_repr(spec)}: parameter {short_repr(key)} given twice"
            )
        params[key] = _convert(kind.parameters[key], value, spec)
    return BotSpec(name, tuple(params.items()), spec)


def parse_list(text: str, one: Callable[[str], BotSpec] = parse) -> tuple[BotSpec, ...]:
    """Parse a comma-separated list of bot specifications (``"greedy,random"``).

    Each item is parsed by ``one`` (:func:`parse` unless given).

    Raises:
        BotSpecError: If the list is empty or a specification is malformed.

    Example:
        >>> [spec.kind for spec in parse_list("greedy, ismcts:iterations=50")]
        ['greedy', 'ismcts']
    """
    if not isinstance(text, str) or not text.strip():
        raise BotSpecError(
            f"bots: expected a comma-separated list of bot specs, got {short_repr(text)}"
        )
    return tuple(one(item) for item in text.split(","))


def as_specs(
    items: Iterable[object],
    what: str,
    error: type[Exception],
    one: Callable[[str], BotSpec] = parse,
) -> tuple[BotSpec, ...]:
    """Parse the strings among ``items`` with ``one``; every other item must be a BotSpec.

    Args:
        items: Bot specifications, as text or parsed (a mix is fine).
        what: The argument's name, for the error message (``"bots"``).
        error: The error to raise for an item that is neither (the caller's own kind).
        one: Parses one specification (:func:`parse` unless given).

    Raises:
        BotSpecError: If a string is not a valid specification.
        error: If an item is neither a string nor a :class:`BotSpec` (the message starts
            with ``what``, the argument's name).

    Example:
        >>> [spec.kind for spec in as_specs(["greedy", BotSpec("random")], "bots", TypeError)]
        ['greedy', 'random']
    """
    parsed = [one(item) if isinstance(item, str) else item for item in items]
    specs: list[BotSpec] = []
    for spec in parsed:
        if not isinstance(spec, BotSpec):
            raise error(f"{what}: expected bot specs (strings or BotSpec), got {short_repr(spec)}")
        specs.append(spec)
    return tuple(specs)
