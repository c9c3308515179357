"""The rows of the web server's stores: a table's record as columns, and back.

Both stores (:mod:`cuckoo_rules.web.stores.sqlite`, :mod:`cuckoo_rules.web.stores.postgres`)
keep the same columns with the same meaning (see the SQLite file's schema), so they share
the code that writes a setup as a row (:func:`setup_row`), that reads rows back
(:func:`decode_table`, :func:`decode_tables`, :func:`decode_actions`,
:func:`lobby_entries`...) and that decides what a write changes (:func:`claimed_column`,
:func:`join_columns`, :func:`exchange_columns`, :func:`hand_over_columns`,
:func:`rematch_seats`, :func:`check_move_index`, :func:`upgrade_claims`,
:func:`upgrade_invitations`); each store keeps only its SQL and its transactions. Every JSON text
of a row is read as strictly as text from outside: a damaged row gives a
:class:`~cuckoo_rules.web.errors.StorageError` naming the table, never a crash.
"""

from __future__ import annotations

import datetime
import hmac
import json
import time
from collections.abc import Iterable, Iterator, Sequence

from ...actions import Action
from ...codec import decode_action, decode_options
from ...errors import DecodeError
from ...jsontext import loads
from ..errors import MoveTaken, StorageError
from .base import HUMAN, STATUSES, LobbyEntry, SeatState, StoredTable, TableSetup

__all__ = [
    "SEAT_COLUMNS",
    "TABLE_COLUMNS",
    "check_move_index",
    "claimed_column",
    "claimed_text",
    "decode_actions",
    "decode_claimed",
    "decode_seat_state",
    "decode_seats",
    "decode_table",
    "decode_tables",
    "exchange_columns",
    "hand_over_columns",
    "human_seats",
    "invitations_text",
    "join_columns",
    "joined_row",
    "lobby_entries",
    "now",
    "rematch_seats",
    "setup_row",
    "upgrade_claims",
    "upgrade_invitations",
]

TABLE_COLUMNS = (
    "id, options, seed, seats, bot_seed, token_hashes, salt, seed_source, names, client, "
    "lobby, status, updated, claimed, rematch, invitations"
)
"""The columns of a table row, in the order the stores select them."""

SEAT_COLUMNS = "seats, token_hashes, names, claimed, rematch, invitations"
"""The columns of who holds which seat, in the order the stores select them (read by
:func:`decode_seat_state`, :func:`claimed_column`, :func:`join_columns`,
:func:`exchange_columns`, :func:`hand_over_columns` and :func:`rematch_seats`)."""


def setup_row(setup: TableSetup) -> tuple[object, ...]:
    """The columns ``TABLE_COLUMNS`` of a table's setup, up to ``lobby`` (11 values)."""
    return (
        setup.id,
        json.dumps(setup.options.to_json()),
        str(setup.seed),
        json.dumps(list(setup.seats)),
        str(setup.bot_seed),
        json.dumps(list(setup.token_hashes)),
        setup.salt,
        setup.seed_source,
        json.dumps(list(setup.names)),
        setup.client,
        setup.lobby,
    )


def invitations_text(setup: TableSetup) -> str:
    """The ``invitations`` column of a setup: a JSON array of hashes and ``null``."""
    return json.dumps(list(setup.invitation_hashes))


def claimed_text(claimed: Iterable[int]) -> str:
    """The ``claimed`` column of a set of seats: a JSON array, ascending, no repeats."""
    return json.dumps(sorted(set(claimed)))


def decode_seats(text: object) -> tuple[str, ...]:
    """Decode the ``seats`` column: a JSON array of strings.

    Raises:
        StorageError: If it is not one.
    """
    try:
        seats = loads(str(text))
    except DecodeError as error:
        raise StorageError(f"seats: {error}") from None
    if not isinstance(seats, list) or not all(isinstance(kind, str) for kind in seats):
        raise StorageError(f"seats: expected an array of strings, got {str(text)[:40]!r}")
    return tuple(seats)


def human_seats(text: object) -> list[int]:
    """The human seats of a ``seats`` column (every one is claimed in an upgraded file).

    Raises:
        StorageError: If the column does not decode.
    """
    return [i for i, kind in enumerate(decode_seats(text)) if kind == HUMAN]


def decode_claimed(text: object, seats: Sequence[str]) -> tuple[int, ...]:
    """Decode the ``claimed`` column: human seats of ``seats``, ascending, no repeats.

    Raises:
        StorageError: If it is not such an array.
    """
    try:
        claimed = loads(str(text))
    except DecodeError as error:
        raise StorageError(f"claimed: {error}") from None
    if (
        not isinstance(claimed, list)
        or not all(type(seat) is int and 0 <= seat < len(seats) for seat in claimed)
        or claimed != sorted(set(claimed))
        or any(seats[seat] != HUMAN for seat in claimed)
    ):
        raise StorageError(
            f"claimed: expected the human seats claimed, ascending, got {str(text)[:40]!r}"
        )
    return tuple(claimed)


def _decode_list(text: object, column: str) -> list[object]:
    try:
        value = loads(str(text))
    except DecodeError as error:
        raise StorageError(f"{column}: {error}") from None
    if not isinstance(value, list):
        raise StorageError(f"{column}: expected an array, got {str(text)[:40]!r}")
    return value


def _decode_hashes(text: object, column: str, seats: int) -> list[str | None]:
    """A JSON array of hex digests and ``null``, one per seat (or empty: none at all).

    Raises:
        StorageError: If it is not one.
    """
    value = _decode_list(text, column)
    if (value and len(value) != seats) or not all(
        item is None or isinstance(item, str) for item in value
    ):
        raise StorageError(f"{column}: expected a hash or null per seat, got {str(text)[:40]!r}")
    return [None if item is None else str(item) for item in value]


def _filled(hashes: list[str | None], seats: int) -> list[str | None]:
    """``hashes``, or ``null`` for every seat if it is empty."""
    return hashes if hashes else [None] * seats


def joined_row(
    seats: Sequence[str],
    hashes: object,
    names: object,
    claimed: Sequence[int],
    seat: int,
    token_hash: str,
    name: str | None,
    invitations: object = "[]",
) -> tuple[str, str, str, str]:
    """The seat columns after a join (or an invitation's exchange) at ``seat``.

    ``token_hashes``, ``names``, ``claimed`` and ``invitations``: the seat's token, its
    name (kept if ``name`` is ``None``), the seat claimed, its invitation dropped.

    Raises:
        StorageError: If a column does not decode, or ``seat`` is not a human seat.
    """
    if not 0 <= seat < len(seats) or seats[seat] != HUMAN:
        raise StorageError(f"seat {seat} is not a human seat")
    token_hashes = _decode_list(hashes, "token_hashes")
    given = _decode_list(names, "names")
    given += [""] * (len(seats) - len(given))  # a table stored without names
    invited = _decode_hashes(invitations, "invitations", len(seats))
    token_hashes[seat] = token_hash
    if name is not None:
        given[seat] = name
    if invited:
        invited[seat] = None
    return (
        json.dumps(token_hashes),
        json.dumps(given),
        claimed_text((*claimed, seat)),
        json.dumps(invited),
    )


def claimed_column(row: Sequence[object], seat: int) -> str | None:
    """The ``claimed`` column after a claim of ``seat``; ``None`` if it is claimed already.

    Args:
        row: The table's columns :data:`SEAT_COLUMNS`.
        seat: The seat claimed.

    Raises:
        StorageError: If a column does not decode.
    """
    seats, _, _, claimed, _, _ = row
    taken = decode_claimed(claimed, decode_seats(seats))
    return None if seat in taken else claimed_text((*taken, seat))


def join_columns(
    row: Sequence[object], seat: int, token_hash: str, name: str
) -> tuple[str, str, str, str] | None:
    """The columns of :func:`joined_row` after a join at ``seat``; ``None`` if it is claimed.

    Args:
        row: The table's columns :data:`SEAT_COLUMNS`.
        seat: The seat joined.
        token_hash: The new token's hash.
        name: The name of the one who joins.

    Raises:
        StorageError: If a column does not decode, or ``seat`` is not a human seat.
    """
    seats, hashes, names, claimed, _, invitations = row
    kinds = decode_seats(seats)
    taken = decode_claimed(claimed, kinds)
    if seat in taken:
        return None
    return joined_row(kinds, hashes, names, taken, seat, token_hash, name, invitations)


def exchange_columns(
    row: Sequence[object], invitation_hash: str, token_hash: str, name: str | None
) -> tuple[int, tuple[str, str, str, str]] | None:
    """The seat an invitation buys and the columns of :func:`joined_row` after it.

    Args:
        row: The table's columns :data:`SEAT_COLUMNS`.
        invitation_hash: The hash of the invitation presented.
        token_hash: The new token's hash.
        name: The name of the one who takes the seat, or ``None`` to keep the seat's.

    Returns:
        The seat and the columns; ``None`` if no free human seat has that invitation.

    Raises:
        StorageError: If a column does not decode.
    """
    seats, hashes, names, claimed, _, invitations = row
    kinds = decode_seats(seats)
    taken = decode_claimed(claimed, kinds)
    invited = _decode_hashes(invitations, "invitations", len(kinds))
    for seat, stored in enumerate(invited):
        if (
            stored is not None
            and hmac.compare_digest(stored, invitation_hash)
            and kinds[seat] == HUMAN
            and seat not in taken
        ):
            columns = joined_row(kinds, hashes, names, taken, seat, token_hash, name, invitations)
            return seat, columns
    return None


def hand_over_columns(
    row: Sequence[object], seat: int, token_hash: str, invitation_hash: str
) -> tuple[str, str, str] | None:
    """The ``token_hashes``, ``claimed`` and ``invitations`` columns after a hand-over.

    Args:
        row: The table's columns :data:`SEAT_COLUMNS`.
        seat: The seat handed over.
        token_hash: The hash of the token that must hold it.
        invitation_hash: The hash of its new invitation.

    Returns:
        The columns, the seat free with the new invitation; ``None`` if that token does
        not hold the seat.

    Raises:
        StorageError: If a column does not decode.
    """
    seats, hashes, _, claimed, _, invitations = row
    kinds = decode_seats(seats)
    taken = decode_claimed(claimed, kinds)
    token_hashes = _decode_hashes(hashes, "token_hashes", len(kinds))
    holder = token_hashes[seat] if 0 <= seat < len(token_hashes) else None
    if holder is None or not hmac.compare_digest(holder, token_hash):
        return None
    invited = _filled(_decode_hashes(invitations, "invitations", len(kinds)), len(kinds))
    token_hashes[seat] = None
    invited[seat] = invitation_hash
    left = [s for s in taken if s != seat]
    return json.dumps(token_hashes), claimed_text(left), json.dumps(invited)


def rematch_seats(row: Sequence[object]) -> tuple[str, str, str, str]:
    """The ``token_hashes``, ``names``, ``claimed`` and ``invitations`` of a rematch.

    Those of the finished table as stored (its columns :data:`SEAT_COLUMNS`): each seat
    goes on with its holder, and a free seat with its invitation.

    Raises:
        StorageError: If a column does not decode.
    """
    seats, hashes, names, claimed, _, invitations = row
    kinds = decode_seats(seats)
    decode_claimed(claimed, kinds)
    _decode_hashes(invitations, "invitations", len(kinds))
    return str(hashes), str(names), str(claimed), str(invitations)


def check_move_index(table_id: str, index: int, stored: int) -> None:
    """Check that move ``index`` is the next of a table that has ``stored`` actions.

    Raises:
        MoveTaken: If the move is stored already (``index < stored``).
        StorageError: If it would leave a gap (``index > stored``).
    """
    if index < stored:
        raise MoveTaken(f"table {table_id!r}: move {index} is stored already")
    if index > stored:
        raise StorageError(
            f"table {table_id!r}: move {index} cannot be stored: the table has "
            f"{stored} actions, so the next is move {stored}"
        )


def upgrade_claims(
    rows: Iterable[Sequence[object]], where: str, left: str
) -> list[tuple[str, str]]:
    """The ``claimed`` column of tables stored before claims were kept: every human seat.

    Every token of such a table was handed out, so each of its human seats is claimed.

    Args:
        rows: The ``(id, seats)`` columns of the tables.
        where: The database, as messages name it.
        left: What a failure leaves, for its message (``"the file is left as it was, at
            schema version 3"``).

    Returns:
        ``(claimed, id)`` per table, the parameters of an ``UPDATE``.

    Raises:
        StorageError: If a table's seats do not decode; the message names the table.
    """
    updates = []
    for table_id, seats in rows:
        try:
            claimed = human_seats(seats)
        except StorageError as error:
            raise StorageError(f"{where}: table {table_id!r}: {error} ({left})") from None
        updates.append((claimed_text(claimed), str(table_id)))
    return updates


def upgrade_invitations(
    rows: Iterable[Sequence[object]], where: str, left: str
) -> list[tuple[str, str, str]]:
    """The ``token_hashes`` and ``invitations`` of tables stored before invitations.

    Such a table gave the creator a token for every human seat, and a seat was claimed
    when its token was first used. The token of a seat nobody claimed was the link sent
    to a friend: it becomes that seat's invitation (the same secret, so the link still
    leads to the seat, once), and no longer reads or plays the seat. A claimed seat
    keeps its token.

    Args:
        rows: The ``(id, seats, token_hashes, claimed)`` columns of the tables.
        where: The database, as messages name it.
        left: What a failure leaves, for its message.

    Returns:
        ``(token_hashes, invitations, id)`` per table, the parameters of an ``UPDATE``.

    Raises:
        StorageError: If a table's columns do not decode; the message names the table.
    """
    updates = []
    for table_id, seats, hashes, claimed in rows:
        try:
            kinds = decode_seats(seats)
            taken = decode_claimed(claimed, kinds)
            tokens = _filled(_decode_hashes(hashes, "token_hashes", len(kinds)), len(kinds))
        except StorageError as error:
            raise StorageError(f"{where}: table {table_id!r}: {error} ({left})") from None
        invited: list[str | None] = [None] * len(kinds)
        for seat, kind in enumerate(kinds):
            if kind == HUMAN and seat not in taken:
                invited[seat], tokens[seat] = tokens[seat], None
        updates.append((json.dumps(tokens), json.dumps(invited), str(table_id)))
    return updates


def decode_seat_state(table_id: object, row: Sequence[object]) -> SeatState:
    """Decode the columns :data:`SEAT_COLUMNS`.

    Raises:
        StorageError: If a field does not decode; the message names the table.
    """
    seats, hashes, names, claimed, rematch, invitations = row
    try:
        kinds = decode_seats(seats)
        return SeatState(
            tuple(loads(str(hashes))),
            tuple(loads(str(names))),
            decode_claimed(claimed, kinds),
            None if rematch is None else str(rematch),
            tuple(_decode_hashes(invitations, "invitations", len(kinds))),
        )
    except (ValueError, TypeError) as error:  # DecodeError and StorageError are ValueErrors
        raise StorageError(f"table {table_id!r}: {error}") from None


def lobby_entries(rows: Sequence[Sequence[object]], limit: int) -> list[LobbyEntry]:
    """The lobby's entries of rows of ``TABLE_COLUMNS`` and ``created``, newest first.

    Tables with no free seat are left out; at most ``limit`` are returned.

    Raises:
        StorageError: If a row does not decode.
    """
    entries: list[LobbyEntry] = []
    for row in rows:
        stored = decode_table(row[:-1], [])
        entry = LobbyEntry(stored.setup, stored.claimed, _created_text(row[-1]))
        if entry.free:
            entries.append(entry)
            if len(entries) >= limit:
                break
    return entries


def _created_text(created: object) -> str:
    """The ``created`` column as ISO 8601 text (PostgreSQL gives a datetime)."""
    if isinstance(created, datetime.datetime):
        when = created.astimezone(datetime.UTC).replace(microsecond=0)
        return when.isoformat()
    return str(created)


def decode_table(row: Sequence[object], actions: Sequence[Sequence[object]]) -> StoredTable:
    """Decode a row of ``TABLE_COLUMNS`` and its ``(idx, action, note)`` rows.

    Raises:
        StorageError: If a field does not decode; the message names the table.
    """
    (table_id, options, seed, seats, bot_seed, hashes, salt, source, names, client) = row[:10]
    lobby, status, updated, claimed, rematch, invitations = row[10:16]
    try:
        if source not in ("server", "request"):
            raise StorageError(f"seed_source: {source!r} is not 'server' or 'request'")
        if status not in STATUSES:
            raise StorageError(f"status: {status!r} is not one of {', '.join(STATUSES)}")
        if lobby not in (0, 1):  # SQLite's integers, PostgreSQL's booleans
            raise StorageError(f"lobby: {lobby!r} is not a boolean")
        kinds = decode_seats(seats)
        setup = TableSetup(
            str(table_id),
            decode_options(loads(str(options))),
            int(str(seed)),
            kinds,
            int(str(bot_seed)),
            tuple(loads(str(hashes))),
            None if salt is None else str(salt),
            source,
            tuple(loads(str(names))),
            str(client),
            bool(lobby),
            tuple(_decode_hashes(invitations, "invitations", len(kinds))),
        )
        decoded = list(decode_actions(actions, 0))
        notes = tuple((index, note) for index, (_, note) in enumerate(decoded) if note is not None)
        return StoredTable(
            setup,
            tuple(a for a, _ in decoded),
            notes,
            status,
            float(str(updated)),
            decode_claimed(claimed, kinds),
            None if rematch is None else str(rematch),
        )
    except (ValueError, TypeError) as error:  # DecodeError and StorageError are ValueErrors
        raise StorageError(f"table {table_id!r}: {error}") from None


def decode_tables(
    rows: Sequence[Sequence[object]], actions: Iterable[Sequence[object]]
) -> list[StoredTable]:
    """Decode rows of ``TABLE_COLUMNS`` with their actions, in the order of ``rows``.

    Args:
        rows: The tables' rows.
        actions: ``(table_id, idx, action, note)`` rows, in order of index within each
            table; those of tables not in ``rows`` are passed over.

    Raises:
        StorageError: If a field does not decode; the message names the table.
    """
    by_table: dict[object, list[tuple[object, ...]]] = {row[0]: [] for row in rows}
    for table_id, index, action, note in actions:
        if table_id in by_table:
            by_table[table_id].append((index, action, note))
    return [decode_table(row, by_table[row[0]]) for row in rows]


def decode_actions(
    rows: Sequence[Sequence[object]], start: int
) -> Iterator[tuple[Action, str | None]]:
    """Decode ``(idx, action, note)`` rows numbered from ``start`` with no gap.

    Raises:
        StorageError: If an index is missing or an action does not decode.
    """
    for expected, (index, text, note) in enumerate(rows, start):
        if index != expected:
            raise StorageError(f"actions[{expected}] is missing (the next stored is {index})")
        try:
            action = decode_action(loads(str(text)))
        except DecodeError as error:
            raise StorageError(f"actions[{index}]: {error}") from None
        yield action, None if note is None else str(note)


def now() -> float:
    """The time stored with tables and actions: Unix time, in seconds."""
    return time.time()
