"""The names that ``cuckoo_rules.web.tables`` held, kept here for a release.

The module was split by job: the errors are in :mod:`cuckoo_rules.web.errors`, request
parsing in :mod:`cuckoo_rules.web.parsing`, the JSON documents in
:mod:`cuckoo_rules.web.documents`, the bot seats in :mod:`cuckoo_rules.web.seatbot`,
the seats and tokens in :mod:`cuckoo_rules.web.seats`, :class:`Table` in
:mod:`cuckoo_rules.web.table` and :class:`Lobby` in :mod:`cuckoo_rules.web.lobby`.
Import them from there.
"""

from __future__ import annotations

from .documents import (
    HintPosition,
    describe_move,
    encode_hint,
    encode_lobby_entry,
    encode_outcome,
    encode_preview,
)
from .errors import (
    ApiError,
    BadRequest,
    Conflict,
    Forbidden,
    NotAvailable,
    NotFound,
    PayloadTooLarge,
    ServiceUnavailable,
    TooManyRequests,
    Unauthorized,
)
from .lobby import EXPIRE_AFTER, FINISHED_KEPT, MAX_OPEN_TABLES, MAX_OPEN_TABLES_PER_CLIENT, Lobby
from .parsing import (
    MAX_EXPERT_SIMULATIONS,
    MAX_ISMCTS_ITERATIONS,
    MAX_ISMCTS_SECONDS,
    MAX_ISMCTS_WORK,
    MAX_NAME_LENGTH,
    MAX_SPEC_LENGTH,
    NewTable,
    parse_name,
    parse_new_table,
)
from .seatbot import SeatBot
from .seats import hash_token
from .stores.base import HUMAN
from .table import Table

__all__ = [
    "EXPIRE_AFTER",
    "FINISHED_KEPT",
    "HUMAN",
    "MAX_EXPERT_SIMULATIONS",
    "MAX_ISMCTS_ITERATIONS",
    "MAX_ISMCTS_SECONDS",
    "MAX_ISMCTS_WORK",
    "MAX_NAME_LENGTH",
    "MAX_OPEN_TABLES",
    "MAX_OPEN_TABLES_PER_CLIENT",
    "MAX_SPEC_LENGTH",
    "ApiError",
    "BadRequest",
    "Conflict",
    "Forbidden",
    "HintPosition",
    "Lobby",
    "NewTable",
    "NotAvailable",
    "NotFound",
    "PayloadTooLarge",
    "SeatBot",
    "ServiceUnavailable",
    "Table",
    "TooManyRequests",
    "Unauthorized",
    "describe_move",
    "encode_hint",
    "encode_lobby_entry",
    "encode_outcome",
    "encode_preview",
    "hash_token",
    "parse_name",
    "parse_new_table",
]
