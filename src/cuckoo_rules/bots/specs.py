"""Bot specifications: ``"greedy"``, ``"ismcts:iterations=300"``, ``"expert:seconds=0.2"``.

A specification is a bot kind, optionally followed by parameters, each introduced by a
colon: ``KIND[:NAME=VALUE[:NAME=VALUE...]]``, for example
``ismcts:iterations=500:exploration=0.5``. The kinds and their parameters are listed in
:data:`BOT_KINDS`; the seed is not a parameter, since whoever plays the games (such as
the tournament runner) gives each bot its own seed. Each parameter is a
:class:`~cuckoo_rules.botspec.BotParameter` with a type and a finite, inclusive range
(the tables of :mod:`cuckoo_rules.bots.parameters`); a value out of its range, NaN or an
infinity is refused when the specification is parsed.

The language itself (:class:`BotSpec`, the parsing, the parameters) is
:mod:`cuckoo_rules.botspec`, which the batch simulator reads too; this module adds the
bots: each kind's constructor (:data:`BOT_KINDS`, registered for
:meth:`BotSpec.build <cuckoo_rules.botspec.BotSpec.build>`), :func:`make_bot`, and
parsing that also builds the bot once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import Any

import attrs

from ..botspec import (
    SPEC_KINDS,
    BotParameter,
    BotSpec,
    as_specs,
    parse,
    parse_list,
    register_bot_factory,
)
from .base import Bot, BotError, RandomBot
from .greedy import GreedyBot
from .ismcts import IsmctsBot


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


_FACTORIES: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "ismcts": IsmctsBot,
    "expert": _expert,
}

BOT_KINDS: Mapping[str, BotKind] = MappingProxyType(
    {
        name: BotKind(name, _FACTORIES[name], kind.parameters, kind.summary)
        for name, kind in SPEC_KINDS.items()
    }
)
"""The bot kinds a specification can name, by name (those of
:data:`~cuckoo_rules.botspec.SPEC_KINDS`, with their constructors)."""

for _kind in BOT_KINDS.values():
    register_bot_factory(_kind.name, _kind.factory)
del _kind


def parse_bot_spec(text: str) -> BotSpec:
    """Parse one bot specification, such as ``"ismcts:iterations=300"``.

    Each value is converted to its parameter's type (an integer is fine for a float
    parameter, not the other way round) and checked against its range
    (:class:`~cuckoo_rules.botspec.BotParameter`: NaN and infinities are out of every
    range), as :func:`cuckoo_rules.botspec.parse` does; then the bot is built once (with
    seed 0).

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
        cuckoo_rules.errors.BotSpecError: bot spec 'greedy:depth=2': unknown parameter ...
        >>> parse_bot_spec("greedy:feed_weight=nan")
        Traceback (most recent call last):
        ...
        cuckoo_rules.errors.BotSpecError: bot spec 'greedy:feed_weight=nan': feed_weight ...
    """
    parsed = parse(text)
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
    return parse_list(text, parse_bot_spec)


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
    return as_specs(items, what, error, parse_bot_spec)


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
