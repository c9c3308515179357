"""Who sits where at a table of the web server: seat tokens, invitations, joins and names.

A human seat is *held* (claimed) by one secret token, or *free*. A token reads the
seat's hand and acts for it; the server keeps only its hash (:func:`hash_token`). The
creator of a table holds the first human seat; every other human seat starts free, with
an *invitation*: another secret (kept as its hash too) that is not a token, reads and
plays nothing, and buys the seat once (:meth:`TableSeats.exchange`: a new token that only
the one who exchanged it knows; the invitation dies in the same transaction of the
store). A free seat of a lobby table may also be joined without an invitation
(:meth:`TableSeats.join`, which drops its invitation). A holder gives the seat up only
by asking (:meth:`TableSeats.hand_over`): its token stops working and the seat is free
with a new invitation. So the creator, who holds the invitations to send, never holds
another seat's token.

Players may give a name (at most :data:`~cuckoo_rules.web.parsing.MAX_NAME_LENGTH`
printable characters, :func:`~cuckoo_rules.web.parsing.parse_name`), shown in the
narration after the seat number. With a shared store, another server process may change
the seats: the table reads them again (:meth:`TableSeats.refresh_seats`), and a token
is checked against the store itself (:meth:`TableSeats.holds_stored`), so no process
accepts a token that lost its seat in another.

:class:`TableSeats` is the part of a :class:`~cuckoo_rules.web.table.Table` that knows
its people, and tells the table's watchers (:meth:`TableSeats.watch`) of every change.
"""

from __future__ import annotations

import abc
import hashlib
import hmac
import secrets
from collections.abc import Callable, Iterable

import attrs

from ..narration import seat_name
from .errors import (
    BadRequest,
    Conflict,
    Forbidden,
    ServiceUnavailable,
    StorageError,
    StorageUnavailable,
    Unauthorized,
)
from .stores.base import HUMAN, SeatState, Store, TableSetup, free_seats
from .watchers import Watchers

__all__ = ["TableSeats", "hash_token", "seat_players"]


def hash_token(token: str) -> str:
    """Return the SHA-256 hex digest of a seat token, as stored.

    Tokens carry 256 random bits, so a plain hash cannot be reversed by guessing.
    """
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def seat_players(seats: tuple[str, ...], given: tuple[str, ...]) -> tuple[str | None, ...]:
    """Each seat's name: the one given, else a bot's kind, else ``None`` (a person unnamed).

    Args:
        seats: Per seat, ``"human"`` or a bot spec.
        given: Per seat, the name given (``""`` for none); may be shorter than ``seats``.

    Example:
        >>> seat_players(("human", "ismcts:iterations=50", "human"), ("Ada",))
        ('Ada', 'ismcts', None)
    """
    names = given + ("",) * (len(seats) - len(given))
    return tuple(
        name or (None if kind == HUMAN else kind.split(":")[0])
        for kind, name in zip(seats, names, strict=False)
    )


class TableSeats(abc.ABC):
    """The seats of a table and the people at them: the base of a table.

    :class:`~cuckoo_rules.web.table.Table` adds the game to them.

    The changes (:meth:`claim`, :meth:`join`, :meth:`refresh_seats`) are made as the
    table's moves are, one caller at a time with the table's lock held
    (:meth:`Table.locked <cuckoo_rules.web.table.Table.locked>`); :meth:`seat_of` reads.

    Args:
        setup: How the table was set up.
        store: Where its changes are committed.
        claimed: The human seats claimed so far.
        rematch: The id of the table of its rematch, or ``None``.

    Attributes:
        setup: How the table was set up (with the current token hashes and names).
        names: The seats' names, as the narration writes them in English for a spectator
            (``"P0"``, ``"P1 greedy"``, ``"P2 Ada"``: the name given, or a bot's kind,
            after the seat number).
        players: Each seat's name: the one given, else a bot's kind, else ``None``.
        claimed: The human seats held by a token (the creator's, an invitation
            exchanged, a join).
        rematch: The id of the table of its rematch, or ``None``.
    """

    def __init__(
        self,
        setup: TableSetup,
        store: Store,
        claimed: Iterable[int] = (),
        rematch: str | None = None,
    ) -> None:
        self.setup = setup
        self._store = store
        self._name_seats()
        self.claimed: frozenset[int] = frozenset(claimed)
        self.rematch = rematch
        self._watchers = Watchers(f"table {setup.id}")

    def _name_seats(self) -> None:
        """Derive the names of the seats from the setup's names and seats."""
        self.players = seat_players(self.setup.seats, self.setup.names)
        self._narration_names = tuple(name or "" for name in self.players)
        self.names = tuple(
            seat_name(s, None, names=self._narration_names) for s in range(len(self.players))
        )

    @property
    def id(self) -> str:
        """The table id."""
        return self.setup.id

    @property
    def free(self) -> tuple[int, ...]:
        """The human seats nobody holds yet (free, with an invitation), in ascending order."""
        return free_seats(self.setup.seats, self.claimed)

    @abc.abstractmethod
    def _check_open(self) -> None:
        """Refuse a change of a table that takes no more moves (raise :class:`Conflict`)."""

    # ----------------------------------------------------------------- watching

    @property
    def watched(self) -> bool:
        """Whether anything watches the table (:meth:`watch`), such as a push stream."""
        return bool(self._watchers)

    def watch(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call ``callback()`` after every change of the table a reader could see.

        The changes are a move (a human's, a bot's or one caught up from another
        server process), a bot starting to decide, a seat claimed or joined, a rematch,
        the table expiring. ``callback`` is called in the thread that made the change (a
        worker thread, often), so it must be quick and thread-safe, such as
        ``lambda: loop.call_soon_threadsafe(event.set)``; an exception it raises is
        logged and ignored.

        Returns:
            A function that stops the calls (calling it again does nothing).
        """
        return self._watchers.add(callback)

    def _changed(self) -> None:
        """Tell the watchers that the table changed."""
        self._watchers.notify()

    # ----------------------------------------------------------------- seats

    @property
    def store_shared(self) -> bool:
        """Whether other server processes may change the table (a shared store)."""
        return self._store.shared

    def holds(self, seat: int, digest: str) -> bool:
        """Whether the token of hash ``digest`` holds ``seat``, as this process knows.

        Args:
            seat: A seat of the table.
            digest: The token's hash (:func:`hash_token`).
        """
        hashes = self.setup.token_hashes
        stored = hashes[seat] if 0 <= seat < len(hashes) else None
        return stored is not None and hmac.compare_digest(stored, digest)

    def holds_stored(self, seat: int, digest: str) -> bool:
        """Whether the token of hash ``digest`` holds ``seat`` in the store, now.

        The store is the truth: another server process may have changed the seat. It
        reads the store (call it in a worker thread); a store that cannot be read
        answers ``False``, so a token is never trusted on old knowledge.
        """
        try:
            state = self._store.seats(self.id)
        except (StorageUnavailable, StorageError):
            return False
        if state is None or not 0 <= seat < len(state.token_hashes):
            return False
        stored = state.token_hashes[seat]
        return stored is not None and hmac.compare_digest(stored, digest)

    def seat_of(self, token: str | None) -> int | None:
        """Return the seat a token holds; ``None`` (a spectator) without a token.

        Raises:
            Unauthorized: If the token holds no seat of this table (an invitation is
                not a token: it is refused too, with a word on what to do with it).
        """
        if token is None:
            return None
        digest = hash_token(token)
        seat = None
        for index, stored in enumerate(self.setup.token_hashes):
            if stored is not None and hmac.compare_digest(stored, digest):
                seat = index
        if seat is None:
            if any(
                stored is not None and hmac.compare_digest(stored, digest)
                for stored in self.setup.invitation_hashes
            ):
                raise Unauthorized(
                    "this is an invitation, not a seat's token: exchange it for the seat's "
                    'token first (POST /api/tables/ID/accept with {"invitation": ...})'
                )
            raise Unauthorized("the token is not one of this table's seats")
        return seat

    def claim(self, seat: int) -> None:
        """Record that ``seat`` is claimed: it is no longer free.

        Does nothing if it is claimed already, as a seat with a token always is (the
        store's tables of earlier versions are upgraded so). Hold :attr:`lock`
        (:meth:`locked`).

        Raises:
            StorageUnavailable: If the store cannot take the write now (the seat stays
                free; the next use of the token claims it).
        """
        if seat in self.claimed or self.setup.seats[seat] != HUMAN:
            return
        self._store.claim_seat(self.id, seat)  # False: another server process claimed it
        self.claimed = self.claimed | {seat}
        self._changed()

    def join(self, name: str, seat: int | None = None) -> tuple[int, str]:
        """Give a free human seat of a lobby table to someone new, with a new token.

        The seat is claimed, its name becomes ``name`` and it gets a token: the seat's
        invitation stops working. Hold :attr:`lock` (:meth:`locked`).

        Args:
            name: The newcomer's name (checked by
                :func:`~cuckoo_rules.web.parsing.parse_name`; ``""``: none).
            seat: The seat wanted, or ``None`` for the first free one.

        Returns:
            The seat and its new token (the only time it is known).

        Raises:
            Forbidden: If the table is not in the lobby.
            Conflict: If the game is over or the table expired, no seat is free, or the
                seat wanted is taken.
            BadRequest: If ``seat`` is not a human seat of this table.
            ServiceUnavailable: If the store cannot take the write now (nothing stored).
        """
        if not self.setup.lobby:
            raise Forbidden(
                "this table is not in the lobby: only its invitation links lead to its "
                "seats (POST /api/tables/ID/accept with the invitation)"
            )
        self._check_open()
        seats = self.setup.seats
        if seat is None:
            if not self.free:
                raise Conflict(
                    "no seat of this table is free: every human seat is taken",
                    key="web.error.no_free_seat",
                )
            seat = self.free[0]
        elif not 0 <= seat < len(seats):
            raise BadRequest(f"seat: {seat} is not a seat of this table (0 to {len(seats) - 1})")
        elif seats[seat] != HUMAN:
            raise BadRequest(f"seat: {seat} is played by a bot ({seats[seat]}), not a person")
        elif seat not in self.free:
            raise Conflict(
                f"seat {seat} is taken; the free seats are {list(self.free)}",
                key="web.error.seat_taken",
            )
        token = secrets.token_urlsafe(32)
        digest = hash_token(token)
        try:
            joined = self._store.join_seat(self.id, seat, digest, name)
        except StorageUnavailable as error:
            raise ServiceUnavailable(str(error), retry_after=error.retry_after) from None
        if not joined:  # another server process gave it away first
            self.refresh_seats()
            raise Conflict(
                f"seat {seat} is taken; the free seats are {list(self.free)}",
                key="web.error.seat_taken",
            )
        self._seated(seat, digest, name)
        return seat, token

    def exchange(self, invitation: str, name: str | None = None) -> tuple[int, str]:
        """Give the seat of an invitation to whoever presents it, with a new token, once.

        The store makes the exchange in one transaction that changes the table only if
        the seat is still free with this invitation, so of two exchanges (in one server
        process or two) one gets the seat; the invitation is dead from then on, in
        every process. Hold :attr:`lock` (:meth:`locked`).

        Args:
            invitation: The invitation, as sent in its link.
            name: The newcomer's name (checked by
                :func:`~cuckoo_rules.web.parsing.parse_name`), or ``None`` to keep the
                name the creator gave the seat.

        Returns:
            The seat and its new token (the only time it is known).

        Raises:
            Conflict: If the game is over or the table expired, or no free seat has this
                invitation (it was used, or it is not one of this table's).
            ServiceUnavailable: If the store cannot take the write now (nothing stored).
        """
        self._check_open()
        token = secrets.token_urlsafe(32)
        digest = hash_token(token)
        try:
            seat = self._store.exchange_invitation(self.id, hash_token(invitation), digest, name)
        except StorageUnavailable as error:
            raise ServiceUnavailable(str(error), retry_after=error.retry_after) from None
        if seat is None:
            self.refresh_seats()  # another process may have taken it: show who did
            raise Conflict(
                "this invitation leads to no free seat of this table: it was used already "
                "(an invitation works once) or it is not one of this table's; ask whoever "
                f"sent it for a new one (the free seats are {list(self.free)})",
                key="web.error.invitation_used",
            )
        self._seated(seat, digest, name)
        return seat, token

    def _seated(self, seat: int, digest: str, name: str | None) -> None:
        """Record in memory that ``seat`` is held by the token of hash ``digest`` now."""
        setup = self.setup
        count = len(setup.seats)
        hashes = list(setup.token_hashes)
        hashes[seat] = digest
        names = list(setup.names) + [""] * (count - len(setup.names))
        if name is not None:
            names[seat] = name
        invited = list(setup.invitation_hashes)
        if invited:
            invited[seat] = None
        self.setup = attrs.evolve(
            setup,
            token_hashes=tuple(hashes),
            names=tuple(names),
            invitation_hashes=tuple(invited),
        )
        self.claimed = self.claimed | {seat}
        self._name_seats()
        self._changed()

    def hand_over(self, seat: int, token: str) -> str:
        """Give up ``seat``: its token stops working, and it is free with a new invitation.

        The only way a seat changes hands once held: its holder asks. The token stops
        working at once in this process and, through the store, in every other (each
        checks a token against the store); every push stream of the token ends. Hold
        :attr:`lock` (:meth:`locked`).

        Args:
            seat: The seat (the one ``token`` holds).
            token: The holder's token.

        Returns:
            The seat's new invitation (the only time it is known).

        Raises:
            Conflict: If the game is over or the table expired.
            Unauthorized: If ``token`` does not hold ``seat`` (any more).
            ServiceUnavailable: If the store cannot take the write now (nothing stored).
        """
        self._check_open()
        invitation = secrets.token_urlsafe(32)
        digest = hash_token(invitation)
        try:
            done = self._store.hand_over(self.id, seat, hash_token(token), digest)
        except StorageUnavailable as error:
            raise ServiceUnavailable(str(error), retry_after=error.retry_after) from None
        if not done:
            self.refresh_seats()
            raise Unauthorized("the token no longer holds a seat of this table")
        setup = self.setup
        hashes = list(setup.token_hashes)
        hashes[seat] = None
        invited = list(setup.invitation_hashes) or [None] * len(setup.seats)
        invited[seat] = digest
        self.setup = attrs.evolve(
            setup, token_hashes=tuple(hashes), invitation_hashes=tuple(invited)
        )
        self.claimed = self.claimed - {seat}
        self._changed()
        return invitation

    def refresh_seats(self) -> bool:
        """Read who holds which seat from the store (another server process may change it).

        Only a shared store (PostgreSQL) has changes to read. Hold :attr:`lock`.

        Returns:
            Whether anything changed.
        """
        state = self._store.seats(self.id)
        return state is not None and self._take_seats(state)

    def _take_seats(self, state: SeatState) -> bool:
        setup = attrs.evolve(
            self.setup,
            token_hashes=state.token_hashes,
            names=state.names,
            invitation_hashes=state.invitation_hashes,
        )
        claimed = frozenset(state.claimed)
        if (setup, claimed, state.rematch) == (self.setup, self.claimed, self.rematch):
            return False
        self.setup, self.claimed, self.rematch = setup, claimed, state.rematch
        self._name_seats()
        self._changed()
        return True

    def set_rematch(self, table_id: str) -> None:
        """Record the id of the table of this table's rematch (it is stored already)."""
        self.rematch = table_id
        self._changed()
