"""The terminal front end's exceptions."""

from __future__ import annotations

from ..errors import CuckooError

__all__ = ["ResumeError"]


class ResumeError(CuckooError, ValueError):
    """A record cannot be resumed: it is finished, or it does not say who played.

    The message says which, for example ``"the game is over: nothing to resume"``.
    """
