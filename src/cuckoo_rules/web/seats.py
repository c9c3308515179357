"""Who sits where at a table of the web server: seat tokens, claims, joins and names.

Each human seat of a table has a secret token, stored as its hash (:func:`hash_token`);
the creator holds the first human seat, and a seat is *claimed* when its token is first
used (:meth:`TableSeats.claim`) or when someone joins a free seat of a lobby table
(:meth:`TableSeats.join`, which gives the seat a new token: its invitation token stops
working). Players may give a name (at most
:data:`~cuckoo_rules.web.parsing.MAX_NAME_LENGTH` printable characters,
:func:`~cuckoo_rules.web.parsing.parse_name`), shown in the narration after the seat
number. With a shared store, another server process may change the seats: the table
reads them again (:meth:`TableSeats.refresh_seats`).

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
        claimed: The human seats claimed (their token used, or joined).
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
        """The human seats nobody has claimed yet, in ascending order."""
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

    def seat_of(self, token: str | None) -> int | None:
        """Return the seat a token belongs to; ``None`` (a spectator) without a token.

        Raises:
            Unauthorized: If the token is not one of this table's.
        """
        if token is None:
            return None
        digest = hash_token(token)
        seat = None
        for index, stored in enumerate(self.setup.token_hashes):
            if stored is not None and hmac.compare_digest(stored, digest):
                seat = index
        if seat is None:
            raise Unauthorized("the token is not one of this table's seats")
        return seat

    def claim(self, seat: int) -> None:
        """Record that ``seat``'s token was used: the seat is no longer free.

        Does nothing if it is claimed already. Hold :attr:`lock` (:meth:`locked`).

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

        The seat is claimed, its name becomes ``name`` and its token a new one: the
        seat's invitation token stops working. Hold :attr:`lock` (:meth:`locked`).

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
                "this table is not in the lobby: only its invitation links (a seat's "
                "token) lead to its seats"
            )
        self._check_open()
        seats = self.setup.seats
        if seat is None:
            if not self.free:
                raise Conflict("no seat of this table is free: every human seat is taken")
            seat = self.free[0]
        elif not 0 <= seat < len(seats):
            raise BadRequest(f"seat: {seat} is not a seat of this table (0 to {len(seats) - 1})")
        elif seats[seat] != HUMAN:
            raise BadRequest(f"seat: {seat} is played by a bot ({seats[seat]}), not a person")
        elif seat not in self.free:
            raise Conflict(f"seat {seat} is taken; the free seats are {list(self.free)}")
        token = secrets.token_urlsafe(32)
        digest = hash_token(token)
        try:
            joined = self._store.join_seat(self.id, seat, digest, name)
        except StorageUnavailable as error:
            raise ServiceUnavailable(str(error), retry_after=error.retry_after) from None
        if not joined:  # another server process gave it away first
            self.refresh_seats()
            raise Conflict(f"seat {seat} is taken; the free seats are {list(self.free)}")
        hashes = list(self.setup.token_hashes)
        hashes[seat] = digest
        names = list(self.setup.names) + [""] * (len(seats) - len(self.setup.names))
        names[seat] = name
        self.setup = attrs.evolve(self.setup, token_hashes=tuple(hashes), names=tuple(names))
        self.claimed = self.claimed | {seat}
        self._name_seats()
        self._changed()
        return seat, token

    def refresh_seats(self) -> bool:
        """Read who holds which seat from the store (another server process may change it).

        Only a shared store (PostgreSQL) has changes to read. Hold :attr:`lock`.

        Returns:
            Whether anything changed.
        """
        state = self._store.seats(self.id)
        return state is not None and self._take_seats(state)

    def _take_seats(self, state: SeatState) -> bool:
        setup = attrs.evolve(self.setup, token_hashes=state.token_hashes, names=state.names)
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
