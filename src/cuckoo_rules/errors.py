"""The exceptions the library raises: every one of the core's, in this one module.

Every error the library raises on bad input derives from :class:`CuckooError`, and the
ones about a bad value also derive from :class:`ValueError`, so ``except ValueError``
works as expected. The classes, by the layer that raises them:

- the model and the rules: :class:`IllegalActionError`, :class:`InvalidOptionsError`;
- secrecy: :class:`ViewError`;
- the formats: :class:`DecodeError` and its subclass :class:`RecordError`;
- play: :class:`MatchError` and its subclass :class:`StaleMoveError`,
  :class:`BotError`, :class:`NarrationError`;
- the bots: :class:`BotSpecError`, a :class:`BotError`.

Each is also importable from the module that raises it, as before
(``cuckoo_rules.match.MatchError`` is :class:`MatchError`, ``cuckoo_rules.records.RecordError``
is :class:`RecordError`, and so on). The front ends (the terminal, the web server) keep
their own errors in their own packages.
"""

from __future__ import annotations

import reprlib

__all__ = [
    "BotError",
    "BotSpecError",
    "CuckooError",
    "DecodeError",
    "IllegalActionError",
    "InvalidOptionsError",
    "MatchError",
    "NarrationError",
    "RecordError",
    "StaleMoveError",
    "ViewError",
    "needs_extra",
    "short_repr",
]


class CuckooError(Exception):
    """Base class of every error raised by ``cuckoo_rules``."""


class IllegalActionError(CuckooError, ValueError):
    """An action that is not legal in the given state was applied.

    The message says which action was asked for and why it is not allowed. The state
    passed in is unchanged (states are immutable).
    """


class DecodeError(CuckooError, ValueError):
    """A JSON document (state or action) is malformed or inconsistent.

    The message names the offending field, for example
    ``"hands[1].robin: count -1 is negative"``.
    """


class InvalidOptionsError(CuckooError, ValueError):
    """Game options or a seed are out of range or of the wrong type."""


class ViewError(CuckooError, ValueError):
    """A seat or a view cannot serve the purpose it was given.

    For example the legal actions asked of the view of a seat that is not to act,
    ``observe`` asked for a seat the game does not have, or ``determinize`` given a view
    whose hidden cards do not add up.
    """


class RecordError(DecodeError):
    """A game record is malformed, inconsistent, or holds an illegal move.

    Raised when a record is built with fields of the wrong type, when a record document
    is decoded (as a :class:`DecodeError`, which this class subclasses), and by
    :func:`~cuckoo_rules.records.replay` at the first action that is not legal. The
    message names the field, for example ``"actions[17] (move 18, turn 9): Lay(Species.OWL,
    0, Side.LEFT) is not legal for player 1 in phase 'lay': player 1 holds no owl"``.

    Also importable as ``cuckoo_rules.records.RecordError`` and ``cuckoo_rules.RecordError``.

    Attributes:
        index: The index in ``actions`` of the offending action, or ``None`` when the
            problem is not about one action.
    """

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.index = index

    def __reduce__(self) -> tuple[type[RecordError], tuple[str, int | None]]:
        return (type(self), (str(self), self.index))


class MatchError(CuckooError, ValueError):
    """A match was misused: acting out of turn, for a bot's seat, after the end, ...

    The message says what was expected, for example ``"seat 1 is not to act: player 0
    is"``. Nothing changes when it is raised. Also importable as
    ``cuckoo_rules.match.MatchError``.
    """


class StaleMoveError(MatchError):
    """The move number given with an action is not the match's current move.

    A client that resends a request (after a timeout, say) passes the move number it
    answered, so the second copy is refused instead of played twice. Also importable as
    ``cuckoo_rules.match.StaleMoveError``.
    """


class BotError(CuckooError, ValueError):
    """A bot was misused or misbehaved: wrong number of bots, an illegal choice, a bad view.

    The message names the seat and the bot, for example ``"seat 1 (RandomBot(seed=3))
    chose Draw(), which is not legal: ..."``. Also importable as
    ``cuckoo_rules.match.BotError`` and ``cuckoo_rules.bots.BotError``.
    """


class BotSpecError(BotError):
    """A bot specification such as ``"ismcts:iterations=300"`` is malformed.

    The message says what is wrong and what is accepted, for example ``"bot spec
    'ismcts:iterations=abc': iterations must be an integer, got 'abc'"``. Also
    importable as ``cuckoo_rules.bots.BotSpecError``.
    """


class NarrationError(CuckooError, ValueError):
    """A narration was asked in a language it does not speak, or with too few names.

    The message says what was given and what is available, for example
    ``"language: 'de' is not available (the narration speaks: en)"``. Also importable as
    ``cuckoo_rules.narration.NarrationError``.
    """


class _ShortRepr(reprlib.Repr):
    """``repr`` cut short for error messages, even of what :func:`repr` cannot write.

    Long strings, huge integers (which :func:`repr` refuses beyond 4,300 digits) and deep
    or long containers (which it may recurse too deep into) stay a few dozen characters.
    """

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxstring = self.maxother = self.maxlong = 40

    def repr_str(self, x: str, level: int) -> str:
        return repr(x[: self.maxstring])

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() <= 128:
            return repr(x)
        return f"<an integer of about {x.bit_length() * 30103 // 100000 + 1} digits>"


_SHORT_REPR = _ShortRepr()


def short_repr(value: object) -> str:
    """Return ``value`` as error messages show it: its ``repr``, at most 40 characters.

    Works on any value, even a huge integer or a deeply nested list, so that an error
    about bad input never echoes much of it, nor fails while saying what it got.

    Example:
        >>> short_repr("owl"), short_repr(10**5000), short_repr("x" * 100)[-6:]
        ("'owl'", '<an integer of about 5001 digits>', 'xxx...')
    """
    text = _SHORT_REPR.repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def needs_extra(module: str, extra: str, error: ModuleNotFoundError) -> ModuleNotFoundError:
    """Return the error to raise when ``module`` cannot import a package of an optional extra.

    The research adapters and the web server need packages that ``pip install
    cuckoo-rules`` does not bring; each catches the :class:`ModuleNotFoundError` of its
    import and raises this one instead, which says what to install.

    Args:
        module: The module that needs the package (``"cuckoo_rules.web"``).
        extra: The optional dependency group that brings it (``"web"``).
        error: The error the import raised.

    Example:
        >>> error = needs_extra("cuckoo_rules.web", "web", ModuleNotFoundError(name="uvicorn"))
        >>> print(error)
        cuckoo_rules.web needs uvicorn: pip install 'cuckoo-rules[web]'
    """
    missing = (error.name or "").partition(".")[0] or "a package"
    return ModuleNotFoundError(
        f"{module} needs {missing}: pip install 'cuckoo-rules[{extra}]'", name=error.name
    )
