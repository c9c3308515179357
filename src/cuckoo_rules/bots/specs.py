"""Bot specifications: ``"greedy"``, ``"ismcts:iterations=300"``, ``"expert:seconds=0.2"``.

A specification is a bot kind, optionally followed by parameters, each introduced by a
colon: ``KIND[:NAME=VALUE[:NAME=VALUE...]]``, for example
``ismcts:iterations=500:exploration=0.5``. The kinds and their parameters are listed in
:data:`BOT_KINDS`; the seed is not a parameter, since whoever plays the games (such as
the tournament runner) gives each bot its own seed. Each parameter is a
:class:`~cuckoo_rules.bots.parameters.BotParameter` with a type and a finite, inclusive
range (the tables of :mod:`cuckoo_rules.bots.parameters`); a value out of its range, NaN
or an infinity is refused when the specification is parsed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import Any

import attrs

from ..errors import short_repr
from .base import Bot, BotError, BotSpecError, RandomBot
from .greedy import GreedyBot
from .ismcts import IsmctsBot
from .parameters import (
    EXPERT_PARAMETERS,
    GREEDY_PARAMETERS,
    ISMCTS_PARAMETERS,
    RANDOM_PARAMETERS,
    BotParameter,
)


def _expert(**params: Any) -> Bot:
    """Build an :class:`~cuckoo_rules.bots.expert.ExpertBot` (imported when first used).

    Raises:
        BotError: If the ``batch`` extra (NumPy, numba) is not installed, or a parameter
            is out of range.
    """
    try:
        from .expert import ExpertBot
    except ModuleNotFoundError as error:
        raise BotError(str(error)) from None
    return ExpertBot(**params)


__all__ = [
    "BOT_KINDS",
    "BotKind",
    "BotSpec",
    "as_bot_specs",
    "make_bot",
    "parse_bot_spec",
    "parse_bot_specs",
]


@attrs.frozen
class BotKind:
    """A kind of bot that a specification can name.

    Attributes:
        name: The kind's name in specifications (``"greedy"``).
        factory: Builds the bot from a seed and keyword parameters.
        parameters: The parameters a specification can set, by name: each one's type,
            range and meaning (one of the tables of :mod:`cuckoo_rules.bots.parameters`).
        summary: One line for help texts.

    Example:
        >>> BOT_KINDS["greedy"].parameters["feed_weight"].expected
        'a finite number from -10 to 10'
    """

    name: str
    factory: Callable[..., Bot]
    parameters: Mapping[str, BotParameter]
    summary: str


BOT_KINDS: Mapping[str, BotKind] = MappingProxyType(
    {
        "random": BotKind("random", RandomBot, RANDOM_PARAMETERS, "uniform over legal actions"),
        "greedy": BotKind("greedy", GreedyBot, GREEDY_PARAMETERS, "one-ply heuristic"),
        "ismcts": BotKind(
            "ismcts", IsmctsBot, ISMCTS_PARAMETERS, "information set Monte Carlo tree search"
        ),
        "expert": BotKind(
            "expert",
            _expert,
            EXPERT_PARAMETERS,
            "determinized Monte Carlo search with greedy rollouts (extra 'batch')",
        ),
    }
)
"""The bot kinds a specification can name, by name."""


@attrs.frozen
class BotSpec:
    """A parsed bot specification: a kind and its parameters.

    Build one with :func:`parse_bot_spec`; :meth:`build` makes a bot with a given seed.
    Specifications are plain values, so they can be sent to worker processes.

    Attributes:
        kind: The bot kind, a key of :data:`BOT_KINDS`.
        params: The parameters, as ``(name, value)`` pairs in the order given.
        text: The specification as written (whitespace around it removed).
    """

    kind: str
    params: tuple[tuple[str, int | float], ...] = ()
    text: str = attrs.field(default="")

    def build(self, seed: int) -> Bot:
        """Return a new bot of this specification, seeded with ``seed``.

        Raises:
            BotSpecError: If a parameter value is out of range for the bot.
        """
        kind = BOT_KINDS.get(self.kind)
        if kind is None:
            raise BotSpecError(f"bot spec {self.text or self.kind!r}: {_unknown_kind(self.kind)}")
        try:
            return kind.factory(seed=seed, **dict(self.params))
        except BotError as error:
            raise BotSpecError(f"bot spec {self.text or self.kind!r}: {error}") from None


def _unknown_kind(kind: str) -> str:
    return f"unknown bot {short_repr(kind)} (choose from {', '.join(BOT_KINDS)})"


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


def parse_bot_spec(text: str) -> BotSpec:
    """Parse one bot specification, such as ``"ismcts:iterations=300"``.

    Each value is converted to its parameter's type (an integer is fine for a float
    parameter, not the other way round) and checked against its range
    (:class:`~cuckoo_rules.bots.parameters.BotParameter`: NaN and infinities are out of
    every range); then the bot is built once (with seed 0).

    Raises:
        BotSpecError: If the kind is unknown, a parameter is unknown, repeated, not of
            the form ``NAME=VALUE`` or of the wrong type, or a value is out of range (the
            message names the specification, the parameter, the range and the value).

    Example:
        >>> parse_bot_spec("ismcts:iterations=300").params
        (('iterations', 300),)
        >>> parse_bot_spec("greedy:depth=2")
        Traceback (most recent call last):
        ...
        cuckoo_rules.bots.base.BotSpecError: bot spec 'greedy:depth=2': unknown parameter ...
        >>> parse_bot_spec("greedy:feed_weight=nan")
        Traceback (most recent call last):
        ...
        cuckoo_rules.bots.base.BotSpecError: bot spec 'greedy:feed_weight=nan': feed_weight ...
    """
    if not isinstance(text, str):
        raise BotSpecError(f"bot spec: expected a string, got {short_repr(text)}")
    spec = text.strip()
    if not spec:
        raise BotSpecError(
            f"bot spec {short_repr(text)}: empty (expected one of {', '.join(BOT_KINDS)})"
        )
    name, *items = spec.split(":")
    kind = BOT_KINDS.get(name)
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
            takes = ", ".join(kind.parameters) or "no parameters"
            raise BotSpecError(
                f"bot spec {short_repr(spec)}: unknown parameter {short_repr(key)} for "
                f"{name} (it takes {takes})"
            )
        if key in params:
            raise BotSpecError(
                f"bot spec {short_repr(spec)}: parameter {short_repr(key)} given twice"
            )
        params[key] = _convert(kind.parameters[key], value, spec)
    parsed = BotSpec(name, tuple(params.items()), spec)
    parsed.build(0)
    return parsed


def parse_bot_specs(text: str) -> tuple[BotSpec, ...]:
    """Parse a comma-separated list of bot specifications (``"greedy,random"``).

    Raises:
        BotSpecError: If the list is empty or a specification is malformed.

    Example:
        >>> [spec.kind for spec in parse_bot_specs("greedy, ismcts:iterations=50")]
        ['greedy', 'ismcts']
    """
    if not isinstance(text, str) or not text.strip():
        raise BotSpecError(
            f"bots: expected a comma-separated list of bot specs, got {short_repr(text)}"
        )
    return tuple(parse_bot_spec(item) for item in text.split(","))


def as_bot_specs(items: Iterable[object], what: str, error: type[Exception]) -> tuple[BotSpec, ...]:
    """Parse the strings among ``items``; every other item must already be a BotSpec.

    Args:
        items: Bot specifications, as text or parsed (a mix is fine).
        what: The argument's name, for the error message (``"bots"``).
        error: The error to raise for an item that is neither (the caller's own kind).

    Raises:
        BotSpecError: If a string is not a valid specification.
        error: If an item is neither a string nor a :class:`BotSpec` (the message starts
            with ``what``, the argument's name).

    Example:
        >>> [spec.kind for spec in as_bot_specs(["greedy", BotSpec("random")], "bots", TypeError)]
        ['greedy', 'random']
    """
    parsed = [parse_bot_spec(item) if isinstance(item, str) else item for item in items]
    specs: list[BotSpec] = []
    for spec in parsed:
        if not isinstance(spec, BotSpec):
            raise error(f"{what}: expected bot specs (strings or BotSpec), got {short_repr(spec)}")
        specs.append(spec)
    return tuple(specs)


def make_bot(spec: str | BotSpec, seed: int) -> Bot:
    """Return a new bot from a specification (text or parsed) and a seed.

    Raises:
        BotSpecError: If the specification is malformed.

    Example:
        >>> make_bot("greedy", seed=3)
        GreedyBot(seed=3, feed_weight=1.0, end_round_threshold=3)
    """
    parsed = parse_bot_spec(spec) if isinstance(spec, str) else spec
    return parsed.build(seed)
