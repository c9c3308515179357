"""The exceptions the library raises.

Every error the library raises on bad input derives from :class:`CuckooError`, and the
ones about a bad value also derive from :class:`ValueError`, so ``except ValueError``
works as expected.
"""

from __future__ import annotations

__all__ = [
    "CuckooError",
    "DecodeError",
    "IllegalActionError",
    "InvalidOptionsError",
    "ViewError",
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


def _needs_extra(module: str, extra: str, error: ModuleNotFoundError) -> ModuleNotFoundError:
    """The error to raise when ``module`` cannot import a package of the optional ``extra``."""
    missing = (error.name or "").partition(".")[0] or "a package"
    return ModuleNotFoundError(
        f"{module} needs {missing}: pip install 'cuckoo-rules[{extra}]'", name=error.name
    )
