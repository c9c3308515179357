"""Every exception of the web server: refused requests and storage failures.

Two families, both :class:`~cuckoo_rules.errors.CuckooError`:

- :class:`ApiError` and its subclasses: a request the server refuses. Each has the HTTP
  ``status`` the web layer answers with (400 :class:`BadRequest`, 401
  :class:`Unauthorized`, 403 :class:`Forbidden`, 404 :class:`NotFound`, 409
  :class:`Conflict`, 413 :class:`PayloadTooLarge`, 429 :class:`TooManyRequests`, 501
  :class:`NotAvailable`, 503 :class:`ServiceUnavailable`); the tables, the lobby and the
  request parsers raise them without knowing HTTP otherwise.
- :class:`StorageError` (a database that cannot be used, :class:`StoreInUse` for a SQLite
  file another server holds), :class:`StorageUnavailable` (a write the database cannot
  take now) and :class:`MoveTaken` (a move stored already), raised by the stores
  (:mod:`cuckoo_rules.web.stores`).
"""

from __future__ import annotations

from typing import ClassVar

from ..errors import CuckooError

__all__ = [
    "ApiError",
    "BadRequest",
    "Conflict",
    "Forbidden",
    "MoveTaken",
    "NotAvailable",
    "NotFound",
    "PayloadTooLarge",
    "ServiceUnavailable",
    "StorageError",
    "StorageUnavailable",
    "StoreInUse",
    "TooManyRequests",
    "Unauthorized",
]


# --------------------------------------------------------------------------- requests


class ApiError(CuckooError):
    """A refused request: the message says what was wrong, ``status`` is the HTTP status.

    Args:
        message: What was wrong.
        move: The table's move number, sent with the error (a 409 of a stale move).
        retry_after: Seconds after which trying again may succeed (429, 503).
        key: The phrase (``"web.error.*"``) that says what was wrong to a player in the
            request's language, if one does (the message stays the English detail).

    Attributes:
        move: As given.
        retry_after: As given.
        key: As given.
    """

    status: ClassVar[int] = 400

    def __init__(
        self,
        message: str,
        *,
        move: int | None = None,
        retry_after: int | None = None,
        key: str | None = None,
    ) -> None:
        super().__init__(message)
        self.move = move
        self.retry_after = retry_after
        self.key = key


class BadRequest(ApiError):
    """The request is malformed: not JSON, wrong shape, bad action, options or seat."""

    status = 400


class Unauthorized(ApiError):
    """A token is missing where one is needed, or it is not one of this table's."""

    status = 401


class Forbidden(ApiError):
    """The request is understood but not allowed: joining a table that is not in the lobby."""

    status = 403


class NotFound(ApiError):
    """There is no such table."""

    status = 404


class Conflict(ApiError):
    """The action is not legal now: not the seat's turn, illegal, or the game is over."""

    status = 409


class PayloadTooLarge(ApiError):
    """The request body is larger than the server accepts."""

    status = 413


class TooManyRequests(ApiError):
    """A limit is reached (open tables in all or per client); ``retry_after`` says when."""

    status = 429


class ServiceUnavailable(ApiError):
    """The storage cannot take a write now (a full disk); nothing was stored."""

    status = 503


class NotAvailable(ApiError):
    """The server lacks an optional part the request needs (hints: the ``batch`` extra)."""

    status = 501


# --------------------------------------------------------------------------- storage


class StorageError(CuckooError, ValueError):
    """The database cannot be used: a newer schema, or a row that does not decode.

    The message names the file or the table and field, for example ``"table 'x1':
    actions[3]: ..."``.
    """


class StoreInUse(StorageError):
    """Another server holds the SQLite file: one server at a time may use it."""


class StorageUnavailable(CuckooError, OSError):
    """The database cannot take a write now (a full or read-only disk, a lost server).

    Nothing was stored. It is worth trying again later: :attr:`retry_after` seconds is a
    good wait.
    """

    retry_after: int = 30
    """Seconds to wait before trying again (the web layer's ``Retry-After``)."""


class MoveTaken(CuckooError, ValueError):
    """The action of this move number is stored already (by another request or process).

    Nothing was stored.
    """
