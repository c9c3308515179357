"""What the web server's stores keep, and the interface every store implements.

A table is stored as what it takes to replay it: its setup (:class:`TableSetup`: options,
seed, salt, seats, the bots' seed and the SHA-256 hashes of the seat tokens, never the
tokens) and its actions in order. :meth:`Store.add_action` commits each action in its own
transaction before returning, so an action the server has answered for is stored; the
pair (table, move number) is unique, so two writers (two threads, or two server
processes on one PostgreSQL database) can never both store move ``N``: the second gets
:class:`~cuckoo_rules.web.errors.MoveTaken` and stores nothing. A table's record also
keeps what changes between moves (:class:`SeatState`): the names the players gave, which
human seats are held and by which token, the invitations of the free ones
(:meth:`Store.exchange_invitation`, :meth:`Store.join_seat`, :meth:`Store.hand_over`),
whether the table is listed in the lobby (:meth:`Store.lobby`) and the table of its
rematch (:meth:`Store.add_rematch`).

Seats and invitations: a human seat is *held* (claimed) by the one token whose hash is
its ``token_hashes`` entry, or *free*, with no token and the hash of an invitation in
its ``invitation_hashes`` entry. An invitation is not a token: it only buys the seat,
once, in a transaction that changes the row only if the seat is still free with that
invitation, so two requests (or two server processes) can never both take it. The store
is the truth about who holds a seat: a server process checks a token against it.

:class:`Store` is the interface; :class:`~cuckoo_rules.web.stores.sqlite.SQLiteStore`
(one file, the embedded default) and
:class:`~cuckoo_rules.web.stores.postgres.PostgresStore` (PostgreSQL, for several server
processes) implement it, and :func:`~cuckoo_rules.web.stores.open_store` picks one from a
path or a ``postgresql://`` URL. A write the database cannot take now gives
:class:`~cuckoo_rules.web.errors.StorageUnavailable` (the web layer answers 503 with
``Retry-After``); a database that cannot be used, or a row that does not decode, gives
:class:`~cuckoo_rules.web.errors.StorageError`.
"""

from __future__ import annotations

import abc
from collections.abc import Iterable, Sequence
from typing import Literal

import attrs

from ...actions import Action
from ...options import GameOptions

__all__ = [
    "HUMAN",
    "LOBBY_LIMIT",
    "SEATS_CHANGED",
    "STATUSES",
    "LobbyEntry",
    "SeatState",
    "SeedSource",
    "Status",
    "Store",
    "StoredTable",
    "TableSetup",
    "free_seats",
]

HUMAN = "human"
"""The seat entry of a seat played by a person (through a token)."""

LOBBY_LIMIT = 50
"""The most tables :meth:`Store.lobby` lists."""

SEATS_CHANGED = -1
"""The move index a shared store's notification carries when a table's seats changed (a
claim, a join or a rematch) rather than a move
(:meth:`cuckoo_rules.web.stores.postgres.PostgresStore.listen`)."""

Status = Literal["open", "over", "expired"]
"""A table's status: being played, its game over, or given up (no move for too long)."""

STATUSES: tuple[Status, ...] = ("open", "over", "expired")
"""Every :data:`Status`."""

SeedSource = Literal["server", "request"]
"""Who chose a table's seed: the server (secret until the game is over) or the request
that created the table (allowed with one human seat only)."""


@attrs.frozen
class TableSetup:
    """How a table was set up: everything stored about it but its actions.

    A seat's token hash, invitation hash and name change when someone takes the seat
    (:meth:`Store.exchange_invitation`, :meth:`Store.join_seat`) or its holder hands it
    over (:meth:`Store.hand_over`); the table then has a new setup with them replaced.

    Attributes:
        id: The table id.
        options: The game options.
        seed: The game seed (secret: it decides every shuffle).
        seats: Per seat, ``"human"`` or the bot spec playing it.
        bot_seed: The seed the bots' seeds derive from (secret).
        token_hashes: Per seat, the SHA-256 hex digest of the token that holds it, or
            ``None`` for a bot seat and a free human seat.
        salt: The deal commitment's secret salt, in hex (``None`` for a table stored
            before commitments existed).
        seed_source: Who chose the seed: ``"server"`` or ``"request"``.
        names: Per seat, the name its player gave (``""`` for none); empty for a table
            stored without names.
        client: The address of the client that created the table (for its limits).
        lobby: Whether the table's free human seats are listed in the lobby, for anyone
            to join (:meth:`Store.lobby`).
        invitation_hashes: Per seat, the SHA-256 hex digest of its invitation while the
            seat is free (``None`` for a held seat, a bot seat, or a free seat without
            one); empty for a table with no invitation at all.
    """

    id: str
    options: GameOptions
    seed: int
    seats: tuple[str, ...]
    bot_seed: int
    token_hashes: tuple[str | None, ...]
    salt: str | None = None
    seed_source: SeedSource = "server"
    names: tuple[str, ...] = ()
    client: str = ""
    lobby: bool = False
    invitation_hashes: tuple[str | None, ...] = ()

    def invitation_hash(self, seat: int) -> str | None:
        """The hash of ``seat``'s invitation, or ``None`` if it has none."""
        hashes = self.invitation_hashes
        return hashes[seat] if 0 <= seat < len(hashes) else None


@attrs.frozen
class StoredTable:
    """A table as read back from the database.

    Attributes:
        setup: Its setup.
        actions: Its actions in the order they were taken.
        notes: For the moves a stand-in played (a bot that failed, replaced), the move
            number and why.
        status: ``"open"``, ``"over"`` or ``"expired"``.
        updated: When its last action was stored (or it was created), as Unix time.
        claimed: The human seats claimed (their token used, or taken by a join), in
            ascending order.
        rematch: The id of the table of its rematch, or ``None``.
    """

    setup: TableSetup
    actions: tuple[Action, ...]
    notes: tuple[tuple[int, str], ...] = ()
    status: Status = "open"
    updated: float = 0.0
    claimed: tuple[int, ...] = ()
    rematch: str | None = None


@attrs.frozen
class SeatState:
    """What changes in a table's row between its moves: who holds which seat.

    Attributes:
        token_hashes: Per seat, the SHA-256 hex digest of the token holding it (``None``:
            a bot, or a free seat).
        names: Per seat, the name its player gave (``""`` for none).
        claimed: The human seats held, in ascending order.
        rematch: The id of the table of its rematch, or ``None``.
        invitation_hashes: Per seat, the SHA-256 hex digest of a free seat's invitation
            (as :attr:`TableSetup.invitation_hashes`).
    """

    token_hashes: tuple[str | None, ...]
    names: tuple[str, ...]
    claimed: tuple[int, ...]
    rematch: str | None
    invitation_hashes: tuple[str | None, ...] = ()


@attrs.frozen
class LobbyEntry:
    """An open table of the lobby, with at least one free human seat.

    Attributes:
        setup: Its setup (its current token hashes and names).
        claimed: The human seats claimed, in ascending order.
        created: When it was created, in ISO 8601 (UTC, to the second).
    """

    setup: TableSetup
    claimed: tuple[int, ...]
    created: str

    @property
    def free(self) -> tuple[int, ...]:
        """The human seats nobody has claimed yet (:func:`free_seats`)."""
        return free_seats(self.setup.seats, self.claimed)


def free_seats(seats: Sequence[str], claimed: Iterable[int]) -> tuple[int, ...]:
    """The human seats of ``seats`` that are not in ``claimed``, in ascending order.

    Example:
        >>> free_seats(["human", "greedy", "human", "human"], [0])
        (2, 3)
    """
    taken = set(claimed)
    return tuple(i for i, kind in enumerate(seats) if kind == HUMAN and i not in taken)


class Store(abc.ABC):
    """Where a server keeps its tables; safe to use from several threads.

    Every method commits before it returns. Methods that write raise
    :class:`~cuckoo_rules.web.errors.StorageUnavailable` when the database cannot take the
    write; nothing is stored then.

    Attributes:
        shared: Whether other server processes may write to the same database (then a
            table in memory must catch up with :meth:`actions` before it is used).
    """

    shared: bool = False

    @abc.abstractmethod
    def close(self) -> None:
        """Close the database; the store cannot be used afterwards."""

    @abc.abstractmethod
    def add_table(self, setup: TableSetup, updated: float, claimed: Sequence[int] = ()) -> None:
        """Store a new table (no actions yet, status ``"open"``) and commit.

        Args:
            setup: The table's setup.
            updated: The time of its creation (Unix time).
            claimed: The human seats claimed from the start (the creator's).

        Raises:
            StorageError: If a table with this id exists.
            StorageUnavailable: If the database cannot take the write.
        """

    @abc.abstractmethod
    def claim_seat(self, table_id: str, seat: int) -> bool:
        """Record that a human seat is claimed, and commit (nothing else changes).

        Tables of this version never need it (a seat is held from the moment its token
        exists); it records the claims of tables stored before invitations.

        Returns:
            Whether it was claimed now: ``False`` if it was already (nothing changed).

        Raises:
            StorageError: If there is no such table.
            StorageUnavailable: If the database cannot take the write.
        """

    @abc.abstractmethod
    def join_seat(self, table_id: str, seat: int, token_hash: str, name: str) -> bool:
        """Give a free human seat to someone new, and commit: claim it, give it a token.

        The seat's token hash becomes ``token_hash``, its invitation is dropped (it
        stops working) and its name becomes ``name``, in one transaction, only if the
        seat is not claimed.

        Returns:
            Whether the seat was joined: ``False`` if it was claimed already (by its
            token or another join; nothing changed).

        Raises:
            StorageError: If there is no such table.
            StorageUnavailable: If the database cannot take the write.
        """

    @abc.abstractmethod
    def exchange_invitation(
        self, table_id: str, invitation_hash: str, token_hash: str, name: str | None
    ) -> int | None:
        """Give the free seat whose invitation has this hash a token, once, and commit.

        In one transaction, with the table's row locked: the free human seat whose
        invitation hash is ``invitation_hash`` gets the token hash ``token_hash``, is
        claimed, loses its invitation and, unless ``name`` is ``None``, is named ``name``.
        Two exchanges of one invitation (in one process or two) give the seat once.

        Returns:
            The seat, or ``None`` if no free seat has that invitation (it was used, or
            never was one of this table's): nothing changed then.

        Raises:
            StorageError: If there is no such table.
            StorageUnavailable: If the database cannot take the write.
        """

    @abc.abstractmethod
    def hand_over(self, table_id: str, seat: int, token_hash: str, invitation_hash: str) -> bool:
        """Free a held seat for a new invitation, and commit: its token stops working.

        In one transaction, only if ``seat`` is held by the token whose hash is
        ``token_hash``: the seat gets no token, is no longer claimed, and has the
        invitation whose hash is ``invitation_hash``.

        Returns:
            Whether the seat was handed over: ``False`` if that token does not hold it
            (nothing changed).

        Raises:
            StorageError: If there is no such table.
            StorageUnavailable: If the database cannot take the write.
        """

    @abc.abstractmethod
    def add_rematch(
        self, table_id: str, setup: TableSetup, updated: float, claimed: Sequence[int] = ()
    ) -> str:
        """Store the table of a rematch of ``table_id``, once, and commit.

        In one transaction: if ``table_id`` has a rematch already, nothing is stored and
        its id is returned; else the new table is stored (as :meth:`add_table`) and
        becomes the rematch of ``table_id``. Two requests (or processes) asking at once
        store one rematch. Its seats are those of ``table_id`` as stored at that moment
        (the token and invitation hashes, names and claims: a seat carries over to its
        holder, an invitation as an invitation), whatever ``setup`` and ``claimed`` say.

        Returns:
            The id of the rematch: ``setup.id``, or the one stored before.

        Raises:
            StorageError: If there is no table ``table_id``, or one with the new id.
            StorageUnavailable: If the database cannot take the write.
        """

    @abc.abstractmethod
    def seats(self, table_id: str) -> SeatState | None:
        """Read who holds which seat of a table now; ``None`` if there is no such table.

        Raises:
            StorageError: If the row does not decode.
        """

    @abc.abstractmethod
    def lobby(self, limit: int = LOBBY_LIMIT) -> list[LobbyEntry]:
        """The open lobby tables with a free human seat, newest first, at most ``limit``.

        Raises:
            StorageError: If a row does not decode.
        """

    @abc.abstractmethod
    def add_action(
        self, table_id: str, index: int, action: Action, updated: float, note: str | None = None
    ) -> None:
        """Store the action of move ``index`` of a table and commit (synced to disk).

        Args:
            table_id: The table.
            index: The move number, from 0: the number of actions stored before it.
            action: The action.
            updated: The time of the move (Unix time), kept as the table's last activity.
            note: Why a stand-in played it (a bot that failed), or ``None``.

        Raises:
            MoveTaken: If the table has an action of this index already.
            StorageError: If there is no such table, or ``index`` would leave a gap (it
                is more than the number of actions stored).
            StorageUnavailable: If the database cannot take the write.
        """

    @abc.abstractmethod
    def set_status(self, table_id: str, status: Status) -> None:
        """Record that a table's game is over or that it expired, and commit.

        Raises:
            StorageUnavailable: If the database cannot take the write.
        """

    @abc.abstractmethod
    def table(self, table_id: str) -> StoredTable | None:
        """Read one table with its actions; ``None`` if there is no such table.

        Raises:
            StorageError: If a row does not decode (the message names the table).
        """

    @abc.abstractmethod
    def tables(self, status: Status | None = None) -> list[StoredTable]:
        """Read the tables of a status (every table for ``None``), in creation order.

        Raises:
            StorageError: If a row does not decode (the message names the table).
        """

    @abc.abstractmethod
    def actions(self, table_id: str, start: int) -> list[tuple[Action, str | None]]:
        """Read a table's actions from move ``start`` on, each with its note.

        Raises:
            StorageError: If a row does not decode.
        """

    @abc.abstractmethod
    def count_open(self, client: str | None = None) -> int:
        """The number of open tables, in all or created by ``client``."""

    @abc.abstractmethod
    def idle_tables(self, before: float) -> list[str]:
        """The ids of the open tables whose last activity was before ``before``."""

    def review(self, table_id: str) -> tuple[int, str] | None:
        """The review kept for a finished table: its budget and its JSON document.

        The review of a game is computed once (:mod:`cuckoo_rules.web.reviews`) and kept
        here, in a table of its own created when missing. A store that keeps no reviews
        (this default) has none: each is computed again after a restart.

        Args:
            table_id: The table.

        Returns:
            ``(simulations, document)``, the document as JSON text
            (:func:`cuckoo_rules.bots.review.encode_review`), or ``None``.
        """
        return None

    def add_review(self, table_id: str, simulations: int, document: str) -> None:  # noqa: B027
        """Keep the review of a finished table (a second one for it is ignored).

        Args:
            table_id: The table.
            simulations: The budget the review was computed with.
            document: The review, as JSON text.

        Raises:
            StorageUnavailable: If the database cannot take the write now.
        """
