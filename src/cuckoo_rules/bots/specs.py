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

Bots of your own are named by where they live: an *import specification*
``MODULE:NAME[:KEY=VALUE...]`` (``"mypkg.bots:MyBot"``, :class:`BotImport`) names a
callable in an importable module that makes a bot from a seed, called as
``NAME(seed, **params)`` (the values are integers, numbers or text, as they parse).
:func:`parse_entrant` reads either kind of text; the tournament runner and
``cuckoo-rules tournament --bots`` take both.
"""

from __future__ import annotations

import importlib
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
from ..errors import BotSpecError, short_repr
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
    "BotImport",
    "BotKind",
    "BotSpec",
    "as_bot_specs",
    "checked_bot",
    "is_import_spec",
    "make_bot",
    "parse_bot_import",
    "parse_bot_spec",
    "parse_bot_specs",
    "parse_entrant",
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


ImportValue = int | float | str
"""A parameter value of an import specification: an integer, a number or text."""


@attrs.frozen
class BotImport:
    """An import specification: a bot factory named by its module, ``"mypkg.bots:MyBot"``.

    The named object (a bot class whose first parameter is the seed, or a function) is
    imported when the bot is built, so an import specification can be sent to worker
    processes that import the module themselves.

    Attributes:
        module: The module's dotted name (``"mypkg.bots"``).
        name: The callable's name in the module (dots reach nested attributes).
        params: Keyword arguments, as ``(name, value)`` pairs in the order given.
        text: The specification as written.

    Example:
        >>> spec = parse_bot_import("cuckoo_rules.bots:GreedyBot:feed_weight=2")
        >>> spec.build(seed=3)
        GreedyBot(seed=3, feed_weight=2, end_round_threshold=3)
    """

    module: str
    name: str
    params: tuple[tuple[str, ImportValue], ...] = ()
    text: str = ""

    @property
    def label(self) -> str:
        """The specification as written, or ``MODULE:NAME``."""
        return self.text or f"{self.module}:{self.name}"

    def resolve(self) -> Callable[..., Bot]:
        """Import the module and return the named callable.

        Raises:
            BotSpecError: If the module cannot be imported, has no such attribute, or
                the attribute is not callable.
        """
        where = f"bot spec {self.label!r}"
        try:
            found: object = importlib.import_module(self.module)
        except ImportError as error:
            raise BotSpecError(
                f"{where}: cannot import module {self.module!r} ({error}); is it installed "
                "or on the Python path?"
            ) from None
        for part in self.name.split("."):
            if not hasattr(found, part):
                raise BotSpecError(f"{where}: module {self.module!r} has no {self.name!r}")
            found = getattr(found, part)
        if not callable(found):
            raise BotSpecError(
                f"{where}: {self.name!r} is {short_repr(found)}, not a callable that makes a "
                "bot from a seed"
            )
        return found

    def build(self, seed: int) -> Bot:
        """Return ``NAME(seed, **params)``, checked to be a bot.

        Raises:
            BotSpecError: If the name cannot be resolved, or what it returns has no
                ``choose`` method.
        """
        bot = self.resolve()(seed, **dict(self.params))
        return checked_bot(bot, f"bot spec {self.label!r}")


def checked_bot(bot: object, source: str) -> Bot:
    """Return ``bot`` if it has a ``choose`` method; ``source`` names who made it.

    Raises:
        BotSpecError: If it has none.
    """
    if not callable(getattr(bot, "choose", None)):
        raise BotSpecError(
            f"{source} made {short_repr(bot)}, which is not a bot (it has no choose(view) method)"
        )
    return bot  # type: ignore[return-value]


def is_import_spec(text: str) -> bool:
    """Whether ``text`` reads as an import specification rather than a bot kind.

    It does when its first part is not a kind of :data:`BOT_KINDS` and its second part
    is a name, not ``NAME=VALUE``.

    Example:
        >>> is_import_spec("mypkg.bots:MyBot"), is_import_spec("greedy:feed_weight=2")
        (True, False)
    """
    first, colon, rest = text.strip().partition(":")
    name = rest.partition(":")[0]
    return bool(colon) and first not in BOT_KINDS and bool(name) and "=" not in name


def _import_value(text: str) -> ImportValue:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_bot_import(text: str) -> BotImport:
    """Parse an import specification, ``MODULE:NAME[:KEY=VALUE...]``; import nothing.

    Raises:
        BotSpecError: If the text is not of that form.

    Example:
        >>> spec = parse_bot_import("mypkg.bots:MyBot:depth=2")
        >>> spec.module, spec.name, spec.params
        ('mypkg.bots', 'MyBot', (('depth', 2),))
    """
    spec = text.strip() if isinstance(text, str) else ""
    module, _, rest = spec.partition(":")
    name, *items = rest.split(":")
    dotted = (*module.split("."), *name.split("."))
    if not all(part.isidentifier() for part in dotted):
        raise BotSpecError(
            f"bot spec {short_repr(text)}: expected MODULE:NAME, such as 'mypkg.bots:MyBot'"
        )
    params: dict[str, ImportValue] = {}
    for item in items:
        key, equals, value = item.partition("=")
        if not equals or not key.isidentifier() or not value or key in params:
            raise BotSpecError(
                f"bot spec {short_repr(spec)}: expected KEY=VALUE (each key once) after "
                f"':', got {short_repr(item)}"
            )
        params[key] = _import_value(value)
    return BotImport(module, name, tuple(params.items()), spec)


def parse_entrant(text: str) -> BotSpec | BotImport:
    """Parse a bot kind's specification or an import specification, and check it.

    A kind's specification is parsed (and built once) by :func:`parse_bot_spec`; an
    import specification (:func:`is_import_spec`) is parsed and its callable imported.

    Raises:
        BotSpecError: If the text is malformed, or the callable cannot be imported.

    Example:
        >>> parse_entrant("cuckoo_rules.bots:RandomBot").build(4)
        RandomBot(seed=4)
    """
    if isinstance(text, str) and is_import_spec(text):
        spec = parse_bot_import(text)
        spec.resolve()
        return spec
    return parse_bot_spec(text)
