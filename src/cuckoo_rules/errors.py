"""The exceptions the library raises.

Every error the library raises on bad input derives from :class:`CuckooError`, and the
ones about a bad value also derive from :class:`ValueError`, so ``except ValueError``
works as expected.
"""

from __future__ import annotations

import reprlib

__all__ = [
    "CuckooError",
    "DecodeError",
    "IllegalActionError",
    "InvalidOptionsError",
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
