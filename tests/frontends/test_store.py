"""The storage contract of the web server, run against SQLite and PostgreSQL.

Every test of the contract runs against :class:`SQLiteStore` (a file in a temporary
directory) and :class:`PostgresStore` (a fresh database on the server of
``CUCKOO_POSTGRES_URL``; skipped without it unless ``CUCKOO_REQUIRE_POSTGRES=1``, see
:mod:`tests.postgres`). Then what only one of them does: several processes on one
PostgreSQL database, its notifications and a restart of its server; the SQLite file's
one-server lock and a full disk.
"""

from __future__ import annotations

import multiprocessing
import queue
import random
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from cuckoo_rules import Draw, FlyHome, GameOptions, Lay, Pass, Side, Species
from cuckoo_rules.actions import Action
from cuckoo_rules.web.errors import MoveTaken, StorageError, StorageUnavailable, StoreInUse
from cuckoo_rules.web.stores.base import LobbyEntry, SeatState, Store, StoredTable, TableSetup
from cuckoo_rules.web.stores.sqlite import SCHEMA_VERSION, SQLiteStore
from tests import postgres

ACTIONS: tuple[Action, ...] = (
    Lay(Species.PARROT, 0, Side.LEFT),
    Draw(),
    FlyHome(Species.OWL),
    Pass(),
    Lay(Species.ROBIN, 3, Side.RIGHT),
)

# --------------------------------------------------------------------------- backends


class Backend:
    """A database of one kind, and every store opened on it (closed at the end)."""

    def __init__(self, kind: str, where: str) -> None:
        self.kind = kind
        self.where = where
        self.stores: list[Store] = []

    def open(self) -> Store:
        """Open a store on the database (for SQLite, close the others first)."""
        store: Store
        if self.kind == "sqlite":
            store = SQLiteStore(self.where)
        else:
            from cuckoo_rules.web.stores.postgres import PostgresStore

            store = PostgresStore(self.where)
        self.stores.append(store)
        return store

    def close(self, store: Store) -> None:
        store.close()
        self.stores.remove(store)

    def close_all(self) -> None:
        for store in self.stores:
            store.close()
        self.stores.clear()

    def set_version(self, version: int) -> None:
        """Write ``version`` as the database's schema version, as a newer release would."""
        if self.kind == "sqlite":
            db = sqlite3.connect(self.where)
            with db:
                db.execute(f"PRAGMA user_version = {version}")
            db.close()
        else:
            import psycopg

            with psycopg.connect(self.where, autocommit=True) as conn:
                conn.execute(
                    "UPDATE cuckoo_meta SET value = %s WHERE key = 'schema_version'",
                    (str(version),),
                )

    def current_version(self) -> int:
        if self.kind == "sqlite":
            return SCHEMA_VERSION
        from cuckoo_rules.web.stores import postgres_schema

        return postgres_schema.SCHEMA_VERSION


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh database on the server of ``CUCKOO_POSTGRES_URL``, dropped afterwards."""
    with postgres.fresh_database(postgres.server_url()) as url:
        yield url


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    if request.param == "sqlite":
        where = str(tmp_path / "tables.db")
        kind = "sqlite"
    else:
        where = request.getfixturevalue("postgres_url")
        kind = "postgres"
    database = Backend(kind, where)
    try:
        yield database
    finally:
        database.close_all()


@pytest.fixture
def store(backend: Backend) -> Store:
    return backend.open()


def setup(table_id: str = "t1", *, client: str = "10.0.0.1", **changes: Any) -> TableSetup:
    """A table's setup with every field set away from its default."""
    fields: dict[str, Any] = {
        "id": table_id,
        "options": GameOptions(3, refill_trigger="same_species_lay", always_prompt_flock=True),
        "seed": 2**64 + 12345,  # beyond a 64-bit integer: stored as text
        "seats": ("human", "greedy:feed_weight=2", "human"),
        "bot_seed": 2**63 + 7,
        "token_hashes": ("a" * 64, None, "b" * 64),
        "salt": "00ff" * 8,
        "seed_source": "request",
        "names": ("Ada", "", "Grace Hopper ✈"),
        "client": client,
        "lobby": True,
    }
    fields.update(changes)
    return TableSetup(**fields)


# --------------------------------------------------------------------------- the contract


def test_round_trip(backend: Backend, store: Store) -> None:
    first, second = setup("t1"), setup("t2", client="::1", salt=None, seed_source="server")
    store.add_table(first, 1000.5)
    store.add_table(second, 1001.25)
    for index, action in enumerate(ACTIONS):
        note = "the bot failed: random played" if index == 2 else None
        store.add_action("t1", index, action, 2000.0 + index / 8, note)
    expected = StoredTable(first, ACTIONS, ((2, "the bot failed: random played"),), "open", 2000.5)
    assert store.table("t1") == expected
    assert store.table("t2") == StoredTable(second, (), (), "open", 1001.25)
    assert store.tables() == [expected, StoredTable(second, (), (), "open", 1001.25)]
    backend.close(store)
    again = backend.open()  # what was committed is read back by a new store
    assert again.table("t1") == expected


def test_duplicate_table_refused(store: Store) -> None:
    store.add_table(setup("t1"), 1.0)
    with pytest.raises(StorageError, match="stored already"):
        store.add_table(setup("t1", client="other"), 2.0)
    stored = store.table("t1")
    assert stored is not None
    assert stored.setup.client == "10.0.0.1"


def test_move_taken_stores_nothing(store: Store) -> None:
    store.add_table(setup(), 1.0)
    store.add_action("t1", 0, ACTIONS[0], 2.0)
    store.add_action("t1", 1, ACTIONS[1], 3.0)
    with pytest.raises(MoveTaken, match="move 1 is stored already"):
        store.add_action("t1", 1, ACTIONS[3], 4.0, "a note")
    with pytest.raises(MoveTaken):
        store.add_action("t1", 0, ACTIONS[3], 4.0)
    assert store.table("t1") == StoredTable(setup(), ACTIONS[:2], (), "open", 3.0)


def test_gap_refused(backend: Backend, store: Store) -> None:
    store.add_table(setup(), 1.0)
    with pytest.raises(StorageError, match="next is move 0"):
        store.add_action("t1", 1, ACTIONS[0], 2.0)
    store.add_action("t1", 0, ACTIONS[0], 2.0)
    with pytest.raises(StorageError, match="next is move 1"):
        store.add_action("t1", 5, ACTIONS[1], 3.0)
    assert store.table("t1") == StoredTable(setup(), ACTIONS[:1], (), "open", 2.0)


def test_unknown_table(store: Store) -> None:
    assert store.table("nope") is None
    assert store.actions("nope", 0) == []
    with pytest.raises(StorageError, match="no table 'nope'"):
        store.add_action("nope", 0, ACTIONS[0], 1.0)
    store.set_status("nope", "over")  # nothing to change
    assert store.tables() == []


def test_actions_from_start(store: Store) -> None:
    store.add_table(setup(), 1.0)
    for index, action in enumerate(ACTIONS):
        store.add_action("t1", index, action, 2.0, f"note {index}" if index % 2 else None)
    assert store.actions("t1", 0) == [
        (action, f"note {i}" if i % 2 else None) for i, action in enumerate(ACTIONS)
    ]
    assert store.actions("t1", 3) == [(ACTIONS[3], "note 3"), (ACTIONS[4], None)]
    assert store.actions("t1", len(ACTIONS)) == []
    assert store.actions("t1", 99) == []


def test_tables_by_status_in_creation_order(store: Store) -> None:
    # Created out of the order of their ids, a few seconds apart.
    for table_id, created in (("c", 100.0), ("a", 200.0), ("d", 300.0), ("b", 400.0)):
        store.add_table(setup(table_id), created)
    store.set_status("a", "over")
    store.set_status("b", "expired")
    store.set_status("d", "over")

    def ids(status: Any = None) -> list[str]:
        return [t.setup.id for t in store.tables(status)]

    assert ids() == ["c", "a", "d", "b"]
    assert ids("open") == ["c"]
    assert ids("over") == ["a", "d"]
    assert ids("expired") == ["b"]
    over = store.table("a")
    assert over is not None
    assert over.status == "over"
    store.set_status("a", "open")
    assert ids("open") == ["c", "a"]


def test_count_open(store: Store) -> None:
    assert store.count_open() == 0
    store.add_table(setup("t1", client="10.0.0.1"), 1.0)
    store.add_table(setup("t2", client="10.0.0.1"), 2.0)
    store.add_table(setup("t3", client="10.0.0.2"), 3.0)
    assert store.count_open() == 3
    assert store.count_open("10.0.0.1") == 2
    assert store.count_open("10.0.0.2") == 1
    assert store.count_open("10.0.0.3") == 0
    store.set_status("t1", "over")
    store.set_status("t3", "expired")
    assert store.count_open() == 1
    assert store.count_open("10.0.0.1") == 1
    assert store.count_open("10.0.0.2") == 0


def test_idle_tables(store: Store) -> None:
    store.add_table(setup("t1"), 100.0)
    store.add_table(setup("t2"), 200.0)
    store.add_table(setup("t3"), 300.0)
    store.add_action("t1", 0, ACTIONS[0], 400.0)  # activity moves t1 after t3
    store.set_status("t2", "over")  # only open tables expire
    assert store.idle_tables(150.0) == []
    assert store.idle_tables(300.5) == ["t3"]
    assert store.idle_tables(1000.0) == ["t3", "t1"]


def test_newer_schema_refused(backend: Backend, store: Store) -> None:
    store.add_table(setup(), 1.0)
    backend.close(store)
    backend.set_version(backend.current_version() + 1)
    with pytest.raises(StorageError, match="newer than this version"):
        backend.open()
    backend.set_version(backend.current_version())
    assert backend.open().table("t1") is not None


def test_threads_race_for_one_move(store: Store) -> None:
    store.add_table(setup(), 1.0)
    for index in range(3):
        store.add_action("t1", index, ACTIONS[index], 2.0)
    start = threading.Barrier(20)
    results: list[str] = ["?"] * 20

    def play(thread: int) -> None:
        start.wait()
        try:
            store.add_action("t1", 3, ACTIONS[thread % len(ACTIONS)], 3.0, f"thread {thread}")
        except MoveTaken:
            results[thread] = "taken"
        else:
            results[thread] = "won"

    threads = [threading.Thread(target=play, args=(n,)) for n in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == ["taken"] * 19 + ["won"]
    winner = results.index("won")
    assert store.actions("t1", 3) == [(ACTIONS[winner % len(ACTIONS)], f"thread {winner}")]


def test_seats_round_trip(backend: Backend, store: Store) -> None:
    store.add_table(setup("t1"), 1.0, claimed=[0])
    store.add_table(setup("t2", lobby=False, names=()), 2.0)
    first = store.table("t1")
    assert first is not None
    assert first.setup == setup("t1")
    assert (first.claimed, first.rematch) == ((0,), None)
    second = store.table("t2")
    assert second is not None
    assert (second.setup.lobby, second.setup.names, second.claimed) == (False, (), ())
    assert store.seats("t1") == SeatState(("a" * 64, None, "b" * 64), setup().names, (0,), None)
    assert store.seats("nope") is None
    backend.close(store)
    assert backend.open().table("t1") == first


def test_claim_seat(store: Store) -> None:
    store.add_table(setup(), 1.0, claimed=[0])
    assert store.claim_seat("t1", 2) is True
    assert store.claim_seat("t1", 2) is False  # claimed already: nothing changes
    assert store.claim_seat("t1", 0) is False
    seats = store.seats("t1")
    assert seats is not None
    assert seats.claimed == (0, 2)
    assert seats.token_hashes == ("a" * 64, None, "b" * 64)  # a claim keeps the token
    with pytest.raises(StorageError, match="no table 'nope'"):
        store.claim_seat("nope", 0)


def test_join_seat_replaces_the_token_once(store: Store) -> None:
    store.add_table(setup(names=()), 1.0, claimed=[0])
    assert store.join_seat("t1", 2, "c" * 64, "Ann") is True
    assert store.seats("t1") == SeatState(("a" * 64, None, "c" * 64), ("", "", "Ann"), (0, 2), None)
    # The seat is taken now: a second join changes nothing.
    assert store.join_seat("t1", 2, "d" * 64, "Bob") is False
    assert store.join_seat("t1", 0, "d" * 64, "Bob") is False
    stored = store.table("t1")
    assert stored is not None
    assert stored.setup.token_hashes == ("a" * 64, None, "c" * 64)
    assert stored.setup.names == ("", "", "Ann")
    with pytest.raises(StorageError, match="not a human seat"):
        store.join_seat("t1", 1, "d" * 64, "Bot")
    with pytest.raises(StorageError, match="no table 'nope'"):
        store.join_seat("nope", 0, "d" * 64, "")


def winners(attempt: Callable[[int], bool], threads: int = 12) -> list[int]:
    """The threads (0 to ``threads - 1``) for which ``attempt`` succeeded, all let go at once."""
    start = threading.Barrier(threads)
    won: list[int] = []

    def run(thread: int) -> None:
        start.wait()
        if attempt(thread):
            won.append(thread)

    running = [threading.Thread(target=run, args=(n,)) for n in range(threads)]
    for thread in running:
        thread.start()
    for thread in running:
        thread.join()
    return won


def test_threads_race_for_one_seat(store: Store) -> None:
    store.add_table(setup(), 1.0, claimed=[0])
    won = winners(lambda n: store.join_seat("t1", 2, f"{n:064x}", f"player {n}"))
    assert len(won) == 1
    seats = store.seats("t1")
    assert seats is not None
    assert seats.token_hashes[2] == f"{won[0]:064x}"
    assert seats.names[2] == f"player {won[0]}"


def test_add_rematch_once(backend: Backend, store: Store) -> None:
    store.add_table(setup("t1"), 1.0, claimed=[0, 2])
    store.set_status("t1", "over")
    assert store.add_rematch("t1", setup("t2", seed=5), 2.0, [0, 2]) == "t2"
    # Asked again (another seat, another process): the first rematch, nothing stored.
    assert store.add_rematch("t1", setup("t3", seed=6), 3.0, [0]) == "t2"
    assert store.table("t3") is None
    old, new = store.table("t1"), store.table("t2")
    assert old is not None
    assert new is not None
    assert old.rematch == "t2"
    assert new == StoredTable(setup("t2", seed=5), (), (), "open", 2.0, (0, 2), None)
    with pytest.raises(StorageError, match="no table 'nope'"):
        store.add_rematch("nope", setup("t4"), 4.0)
    with pytest.raises(StorageError, match="stored already"):
        store.add_rematch("t2", setup("t1"), 4.0)  # the new id is taken: nothing changes
    again = store.table("t2")
    assert again is not None
    assert again.rematch is None


def invited_setup(table_id: str = "t1") -> TableSetup:
    """A table whose creator holds seat 0 and whose seat 2 is free, with an invitation."""
    return setup(
        table_id,
        token_hashes=("a" * 64, None, None),
        invitation_hashes=(None, None, "i" * 64),
    )


def test_an_invitation_is_exchanged_once(store: Store) -> None:
    store.add_table(invited_setup(), 1.0, claimed=[0])
    assert store.exchange_invitation("t1", "x" * 64, "c" * 64, "Ann") is None  # not one
    assert store.exchange_invitation("t1", "i" * 64, "c" * 64, None) == 2
    names = setup().names  # None: the name the creator gave stays
    assert store.seats("t1") == SeatState(
        ("a" * 64, None, "c" * 64), names, (0, 2), None, (None, None, None)
    )
    # Used: it buys nothing any more, and changes nothing.
    assert store.exchange_invitation("t1", "i" * 64, "d" * 64, "Eve") is None
    stored = store.table("t1")
    assert stored is not None
    assert stored.setup.token_hashes == ("a" * 64, None, "c" * 64)
    assert stored.setup.invitation_hashes == (None, None, None)
    assert stored.claimed == (0, 2)
    with pytest.raises(StorageError, match="no table 'nope'"):
        store.exchange_invitation("nope", "i" * 64, "c" * 64, None)
    # A name given replaces the creator's.
    store.add_table(invited_setup("t2"), 1.0, claimed=[0])
    assert store.exchange_invitation("t2", "i" * 64, "e" * 64, "Ann") == 2
    seats = store.seats("t2")
    assert seats is not None
    assert seats.names == ("Ada", "", "Ann")


def test_threads_race_for_one_invitation(store: Store) -> None:
    store.add_table(invited_setup(), 1.0, claimed=[0])
    won = winners(
        lambda n: store.exchange_invitation("t1", "i" * 64, f"{n:064x}", None) is not None
    )
    assert len(won) == 1
    seats = store.seats("t1")
    assert seats is not None
    assert seats.token_hashes[2] == f"{won[0]:064x}"


def test_a_join_drops_the_invitation(store: Store) -> None:
    store.add_table(invited_setup(), 1.0, claimed=[0])
    assert store.join_seat("t1", 2, "c" * 64, "Ann") is True
    seats = store.seats("t1")
    assert seats is not None
    assert seats.invitation_hashes == (None, None, None)
    assert store.exchange_invitation("t1", "i" * 64, "d" * 64, None) is None


def test_a_holder_hands_a_seat_over(store: Store) -> None:
    store.add_table(invited_setup(), 1.0, claimed=[0])
    assert store.hand_over("t1", 0, "z" * 64, "j" * 64) is False  # not its token
    assert store.hand_over("t1", 2, "a" * 64, "j" * 64) is False  # not its seat
    assert store.hand_over("t1", 0, "a" * 64, "j" * 64) is True
    seats = store.seats("t1")
    assert seats is not None
    assert (seats.token_hashes, seats.claimed) == ((None, None, None), ())
    assert seats.invitation_hashes == ("j" * 64, None, "i" * 64)
    assert store.hand_over("t1", 0, "a" * 64, "k" * 64) is False  # the token holds nothing
    assert store.exchange_invitation("t1", "j" * 64, "c" * 64, None) == 0
    with pytest.raises(StorageError, match="no table 'nope'"):
        store.hand_over("nope", 0, "a" * 64, "j" * 64)


def test_a_rematch_takes_the_seats_as_stored(store: Store) -> None:
    store.add_table(invited_setup(), 1.0, claimed=[0])
    store.set_status("t1", "over")
    old_copy = invited_setup("t2")  # a process's copy, from before the exchange below
    assert store.exchange_invitation("t1", "i" * 64, "c" * 64, "Ann") == 2
    assert store.add_rematch("t1", old_copy, 2.0, [0]) == "t2"
    new = store.table("t2")
    assert new is not None
    assert new.setup.token_hashes == ("a" * 64, None, "c" * 64)  # each seat to its holder
    assert new.setup.invitation_hashes == (None, None, None)
    assert new.setup.names == ("Ada", "", "Ann")
    assert new.claimed == (0, 2)
    # A free seat's invitation carries over as an invitation.
    store.add_table(invited_setup("t3"), 1.0, claimed=[0])
    store.set_status("t3", "over")
    assert store.add_rematch("t3", setup("t4"), 2.0, [0, 2]) == "t4"
    again = store.table("t4")
    assert again is not None
    assert again.setup.token_hashes == ("a" * 64, None, None)
    assert again.setup.invitation_hashes == (None, None, "i" * 64)
    assert again.claimed == (0,)


def test_threads_race_for_one_rematch(store: Store) -> None:
    store.add_table(setup("t1"), 1.0)
    store.set_status("t1", "over")
    start = threading.Barrier(10)
    answers: list[str] = [""] * 10

    def rematch(thread: int) -> None:
        start.wait()
        answers[thread] = store.add_rematch("t1", setup(f"r{thread}"), 2.0)

    threads = [threading.Thread(target=rematch, args=(n,)) for n in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(answers)) == 1
    assert [t.setup.id for t in store.tables()] == ["t1", answers[0]]


def test_lobby_lists_open_tables_with_a_free_seat_newest_first(store: Store) -> None:
    store.add_table(setup("old"), 100.0, claimed=[0])
    store.add_table(setup("full"), 200.0, claimed=[0, 2])  # no free seat
    store.add_table(setup("private", lobby=False), 300.0, claimed=[0])  # not in the lobby
    store.add_table(setup("over"), 400.0, claimed=[0])
    store.set_status("over", "over")
    store.add_table(setup("new"), 500.0)  # nobody claimed: both human seats free
    store.add_table(setup("same second"), 500.25, claimed=[2])
    entries = store.lobby()
    assert [e.setup.id for e in entries] == ["same second", "new", "old"]
    assert [e.free for e in entries] == [(0,), (0, 2), (2,)]
    assert entries[2] == LobbyEntry(setup("old"), (0,), "1970-01-01T00:01:40+00:00")
    assert [e.setup.id for e in store.lobby(limit=2)] == ["same second", "new"]
    store.join_seat("old", 2, "c" * 64, "Ann")  # now full
    assert [e.setup.id for e in store.lobby()] == ["same second", "new"]


def test_a_damaged_claimed_column_is_reported(backend: Backend, store: Store) -> None:
    store.add_table(setup(), 1.0)
    for bad in ("[1]", "[2, 0]", "[0, 0]", "[7]", '"0"', "{"):
        if backend.kind == "sqlite":
            db = sqlite3.connect(backend.where)
            with db:
                db.execute("UPDATE tables SET claimed = ?", (bad,))
            db.close()
        else:
            import psycopg

            with psycopg.connect(backend.where, autocommit=True) as conn:
                conn.execute("UPDATE tables SET claimed = %s", (bad,))
        with pytest.raises(StorageError, match="table 't1': claimed: "):
            store.table("t1")


# --------------------------------------------------------------------------- PostgreSQL


def race_worker(url: str, tables: list[str], moves: int, seed: int, go: Any, out: Any) -> None:
    """Store every move of ``tables`` in a race with other processes; report what it won.

    Each try reads the number of stored actions, then stores the move of that number
    or, one time in three, of the number after it (a gap the store must refuse).
    """
    from cuckoo_rules.web.stores.postgres import PostgresStore

    rng = random.Random(seed)
    won: list[tuple[str, int]] = []
    taken = gaps = 0
    try:
        store = PostgresStore(url)
        go.wait()
        pending = list(tables)
        while pending:
            table_id = rng.choice(pending)
            stored = len(store.actions(table_id, 0))
            if stored >= moves:
                pending.remove(table_id)
                continue
            index = min(stored + (rng.random() < 1 / 3), moves - 1)
            try:
                store.add_action(table_id, index, ACTIONS[index % len(ACTIONS)], 1.0, str(seed))
            except MoveTaken:
                taken += 1
            except StorageError:
                gaps += 1
            else:
                won.append((table_id, index))
        store.close()
    except Exception:
        out.put((seed, won, taken, gaps, traceback.format_exc()))
    else:
        out.put((seed, won, taken, gaps, None))


def notify_worker(url: str, go: Any, out: Any) -> None:
    """Store move 0 of table ``t1`` when told to; report the time of the commit."""
    from cuckoo_rules.web.stores.postgres import PostgresStore

    try:
        store = PostgresStore(url)
        go.wait()
        store.add_action("t1", 0, ACTIONS[0], 1.0)
        out.put(time.time())
        store.close()
    except Exception:
        out.put(traceback.format_exc())


def test_processes_race_for_moves(postgres_url: str) -> None:
    from cuckoo_rules.web.stores.postgres import PostgresStore

    store = PostgresStore(postgres_url)
    tables, moves = [f"t{n}" for n in range(4)], 40
    for table_id in tables:
        store.add_table(setup(table_id), 1.0)
    spawn = multiprocessing.get_context("spawn")
    go, out = spawn.Event(), spawn.Queue()
    workers = [
        spawn.Process(target=race_worker, args=(postgres_url, tables, moves, n, go, out))
        for n in range(3)
    ]
    try:
        for worker in workers:
            worker.start()
        go.set()
        reports = [out.get(timeout=120) for _ in workers]
    finally:
        for worker in workers:
            worker.join(timeout=10)
            if worker.is_alive():
                worker.kill()
        store.close()
    assert [error for *_, error in reports] == [None] * len(workers)
    store = PostgresStore(postgres_url)
    try:
        won = [move for _, moves_won, *_ in reports for move in moves_won]
        assert len(won) == len(set(won)) == len(tables) * moves  # each move stored once
        assert sum(taken for _, _, taken, _, _ in reports) > 0  # they did race
        assert sum(gaps for _, _, _, gaps, _ in reports) > 0  # and tried gaps, all refused
        for table_id in tables:
            stored = store.table(table_id)  # decoding checks that no index is missing
            assert stored is not None
            assert len(stored.actions) == moves
            notes = [note for _, note in store.actions(table_id, 0)]
            owners = {
                index: str(seed) for seed, ws, *_ in reports for t, index in ws if t == table_id
            }
            assert notes == [owners[index] for index in range(moves)]
    finally:
        store.close()


def test_notification_reaches_another_process(postgres_url: str) -> None:
    from cuckoo_rules.web.stores.postgres import PostgresStore

    store = PostgresStore(postgres_url)
    store.add_table(setup("t1"), 1.0)
    store.add_table(setup("t2"), 1.0)
    heard: queue.Queue[tuple[str, int, float]] = queue.Queue()
    stop = store.listen(lambda table_id, index: heard.put((table_id, index, time.time())))
    spawn = multiprocessing.get_context("spawn")
    go, out = spawn.Event(), spawn.Queue()
    worker = spawn.Process(target=notify_worker, args=(postgres_url, go, out))
    try:
        worker.start()
        go.set()
        committed = out.get(timeout=60)
        assert isinstance(committed, float), committed  # or the worker's traceback
        table_id, index, when = heard.get(timeout=1.0)
        assert (table_id, index) == ("t1", 0)
        assert when - committed < 1.0
        store.add_action("t2", 0, ACTIONS[1], 2.0)  # this process's moves are heard too
        assert heard.get(timeout=1.0)[:2] == ("t2", 0)
        store.add_action("t2", 1, ACTIONS[2], 2.0)
        with pytest.raises(MoveTaken):
            store.add_action("t2", 1, ACTIONS[2], 2.0)  # nothing stored: nothing heard
        assert heard.get(timeout=1.0)[:2] == ("t2", 1)
        stop()
        store.add_action("t2", 2, ACTIONS[3], 2.0)
        with pytest.raises(queue.Empty):
            heard.get(timeout=0.5)
        stop()  # twice: nothing
    finally:
        worker.join(timeout=10)
        if worker.is_alive():
            worker.kill()
        store.close()


def test_listener_survives_its_callback(postgres_url: str) -> None:
    from cuckoo_rules.web.stores.postgres import PostgresStore

    store = PostgresStore(postgres_url)
    heard: queue.Queue[tuple[str, int]] = queue.Queue()

    def callback(table_id: str, index: int) -> None:
        heard.put((table_id, index))
        if index == 0:
            raise RuntimeError("a callback that fails")

    store.listen(callback)
    try:
        store.add_table(setup("t1"), 1.0)
        store.add_action("t1", 0, ACTIONS[0], 2.0)
        store.add_action("t1", 1, ACTIONS[1], 2.0)
        assert [heard.get(timeout=1.0), heard.get(timeout=1.0)] == [("t1", 0), ("t1", 1)]
    finally:
        store.close()  # stops the listener too


def test_stores_open_at_once_on_a_new_database(postgres_url: str) -> None:
    from cuckoo_rules.web.stores.postgres import PostgresStore

    start = threading.Barrier(8)
    opened: list[PostgresStore] = []
    failures: list[BaseException] = []

    def open_store() -> None:
        start.wait()
        try:
            opened.append(PostgresStore(postgres_url))
        except BaseException as error:
            failures.append(error)

    threads = [threading.Thread(target=open_store) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    try:
        assert failures == []
        assert len(opened) == 8
        opened[0].add_table(setup(), 1.0)
        assert opened[-1].table("t1") is not None
    finally:
        for store in opened:
            store.close()


def test_foreign_tables_refused(postgres_url: str) -> None:
    import psycopg

    from cuckoo_rules.web.stores.postgres import PostgresStore

    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute("CREATE TABLE tables (name TEXT)")
    with pytest.raises(StorageError, match="not made by cuckoo-rules"):
        PostgresStore(postgres_url)


def test_unreachable_server() -> None:
    postgres.need_psycopg()
    from cuckoo_rules.web.stores.postgres import PostgresStore

    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(StorageUnavailable, match="cannot be used now") as caught:
        PostgresStore(f"postgresql://someone:secret@127.0.0.1:{port}/cuckoo")
    assert "secret" not in str(caught.value)  # the password is never shown


def test_read_only_database(postgres_url: str) -> None:
    import psycopg
    from psycopg import sql

    from cuckoo_rules.web.stores.postgres import PostgresStore

    name = sql.Identifier(postgres_url.rsplit("/", 1)[1])
    store = PostgresStore(postgres_url)
    store.add_table(setup("t1"), 1.0)
    store.close()
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(
            sql.SQL("ALTER DATABASE {} SET default_transaction_read_only = on").format(name)
        )
    store = PostgresStore(postgres_url)  # the tables exist: opening writes nothing
    try:
        with pytest.raises(StorageUnavailable, match="read-only"):
            store.add_action("t1", 0, ACTIONS[0], 2.0)
        with pytest.raises(StorageUnavailable, match="read-only"):
            store.add_table(setup("t2"), 2.0)
        assert store.table("t1") == StoredTable(setup("t1"), (), (), "open", 1.0)
        assert store.table("t2") is None
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            conn.execute("SET default_transaction_read_only = off")
            reset = "ALTER DATABASE {} RESET default_transaction_read_only"
            conn.execute(sql.SQL(reset).format(name))
        retry(lambda: store.add_action("t1", 0, ACTIONS[0], 3.0))  # a fresh connection
        assert store.actions("t1", 0) == [(ACTIONS[0], None)]
    finally:
        store.close()


def test_a_stuck_writer_times_out(postgres_url: str) -> None:
    import psycopg

    from cuckoo_rules.web.stores.postgres import PostgresStore

    store = PostgresStore(postgres_url, timeout=1.0)
    try:
        store.add_table(setup("t1"), 1.0)
        store.add_table(setup("t2"), 1.0)
        with psycopg.connect(postgres_url) as stuck:  # a transaction that holds t1's row
            stuck.execute("SELECT 1 FROM tables WHERE id = 't1' FOR UPDATE")
            began = time.monotonic()
            with pytest.raises(StorageUnavailable, match="lock timeout"):
                store.add_action("t1", 0, ACTIONS[0], 2.0)
            assert 0.9 < time.monotonic() - began < 5.0
            store.add_action("t2", 0, ACTIONS[0], 2.0)  # other tables do not wait
            stuck.rollback()
        store.add_action("t1", 0, ACTIONS[0], 2.0)
        assert store.actions("t1", 0) == [(ACTIONS[0], None)]
    finally:
        store.close()


def test_schema_of_the_url(postgres_url: str) -> None:
    import psycopg

    from cuckoo_rules.web.stores.postgres import PostgresStore

    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute("CREATE SCHEMA games")
        conn.execute("CREATE TABLE tables (name TEXT)")  # in public: not ours, not used
    store = PostgresStore(postgres_url + "?options=-csearch_path%3Dgames")
    try:
        store.add_table(setup("t1"), 1.0)
        assert store.table("t1") is not None
    finally:
        store.close()
    with psycopg.connect(postgres_url) as conn:
        row = conn.execute("SELECT count(*) FROM games.tables").fetchone()
        assert row == (1,)


def retry(write: Callable[[], None], seconds: float = 30.0) -> int:
    """Call ``write`` until it does not raise StorageUnavailable; return the failures."""
    deadline = time.monotonic() + seconds
    failures = 0
    while True:
        try:
            write()
        except StorageUnavailable:
            failures += 1
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
        else:
            return failures


def test_server_restart() -> None:
    from cuckoo_rules.web.stores.postgres import PostgresStore

    postgres.server_url()  # the PostgreSQL tests are asked for (the server is our own)
    cluster = postgres.Cluster()
    try:
        store = PostgresStore(cluster.url, timeout=1.0, reconnect_timeout=2.0)
        try:
            heard: queue.Queue[tuple[str, int]] = queue.Queue()
            reconnected = threading.Event()
            store.listen(lambda t, i: heard.put((t, i)), on_reconnect=reconnected.set)
            store.add_table(setup("t1"), 1.0)
            store.add_action("t1", 0, ACTIONS[0], 2.0)
            assert heard.get(timeout=1.0) == ("t1", 0)

            cluster.stop()
            with pytest.raises(StorageUnavailable, match="nothing was stored"):
                store.add_action("t1", 1, ACTIONS[1], 3.0)
            with pytest.raises(StorageUnavailable):
                store.table("t1")

            cluster.start()
            retry(lambda: store.add_action("t1", 1, ACTIONS[1], 3.0))
            assert store.actions("t1", 0) == [(ACTIONS[0], None), (ACTIONS[1], None)]
            assert reconnected.wait(timeout=15.0)  # the listener is back
            store.add_action("t1", 2, ACTIONS[2], 4.0)
            while heard.get(timeout=2.0) != ("t1", 2):  # move 1 may be heard first
                pass
        finally:
            store.close()
    finally:
        cluster.destroy()


@pytest.mark.parametrize("blocked", ["psycopg", "psycopg_pool"])
def test_a_missing_postgres_extra_is_named(blocked: str) -> None:
    code = (
        f"import sys; sys.modules[{blocked!r}] = None\n"  # as if it were not installed
        "from cuckoo_rules.web.stores import open_store\n"
        "try:\n"
        "    open_store('postgresql://localhost/cuckoo')\n"
        "except ModuleNotFoundError as error:\n"
        "    print(error)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    expected = (
        f"cuckoo_rules.web.stores.postgres needs {blocked}: pip install 'cuckoo-rules[postgres]'"
    )
    assert result.stdout.strip() == expected


# --------------------------------------------------------------------------- SQLite


def test_sqlite_one_server_per_file(tmp_path: Path) -> None:
    path = tmp_path / "tables.db"
    first = SQLiteStore(path)
    try:
        with pytest.raises(StoreInUse, match="another cuckoo-rules server"):
            SQLiteStore(path)
        first.add_table(setup(), 1.0)
    finally:
        first.close()
    second = SQLiteStore(path)  # free again once the first is closed
    try:
        assert second.table("t1") is not None
    finally:
        second.close()


def test_sqlite_full_disk(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "tables.db")
    try:
        store.add_table(setup(), 1.0)
        store.add_action("t1", 0, ACTIONS[0], 2.0)
        store.limit_pages(1)  # no page more than the file has
        big = "x" * 50_000
        with pytest.raises(StorageUnavailable, match="nothing was stored"):
            store.add_action("t1", 1, ACTIONS[1], 3.0, big)
        with pytest.raises(StorageUnavailable):
            store.add_table(setup("t2", names=(big, "", "")), 3.0)
        assert store.table("t1") == StoredTable(setup(), ACTIONS[:1], (), "open", 2.0)
        store.limit_pages(None)
        store.add_action("t1", 1, ACTIONS[1], 3.0, big)
        store.add_table(setup("t2"), 3.0)
        assert store.actions("t1", 1) == [(ACTIONS[1], big)]
    finally:
        store.close()


# The schemas of the versions before 4, as those releases wrote them.
V2_TABLES = """
CREATE TABLE tables (
    id TEXT PRIMARY KEY, options TEXT NOT NULL, seed TEXT NOT NULL, seats TEXT NOT NULL,
    bot_seed TEXT NOT NULL, token_hashes TEXT NOT NULL, created TEXT NOT NULL
);
CREATE TABLE actions (
    table_id TEXT NOT NULL REFERENCES tables (id), idx INTEGER NOT NULL,
    action TEXT NOT NULL, PRIMARY KEY (table_id, idx)
) WITHOUT ROWID;
"""
V3_TABLES = """
CREATE TABLE tables (
    id TEXT PRIMARY KEY, options TEXT NOT NULL, seed TEXT NOT NULL, seats TEXT NOT NULL,
    bot_seed TEXT NOT NULL, token_hashes TEXT NOT NULL, created TEXT NOT NULL, salt TEXT,
    seed_source TEXT NOT NULL DEFAULT 'server', names TEXT NOT NULL DEFAULT '[]',
    client TEXT NOT NULL DEFAULT '', status TEXT NOT NULL DEFAULT 'open',
    updated REAL NOT NULL DEFAULT 0
);
CREATE TABLE actions (
    table_id TEXT NOT NULL REFERENCES tables (id), idx INTEGER NOT NULL,
    action TEXT NOT NULL, note TEXT, PRIMARY KEY (table_id, idx)
) WITHOUT ROWID;
CREATE INDEX tables_status ON tables (status, client);
"""
OLD_SEATS = '["human", "greedy", "human"]'
OLD_HASHES = '["' + "a" * 64 + '", null, "' + "b" * 64 + '"]'


def old_file(path: Path, version: int, seats: str = OLD_SEATS) -> None:
    """Write a SQLite file of schema ``version`` (2 to 4) with one table and two actions."""
    import json

    from cuckoo_rules import encode_action

    options = json.dumps(GameOptions(3).to_json())
    db = sqlite3.connect(path)
    with db:
        db.executescript(V2_TABLES if version == 2 else V3_TABLES)
        columns = "id, options, seed, seats, bot_seed, token_hashes, created"
        values: list[object] = [
            "t1",
            options,
            "17",
            seats,
            "99",
            OLD_HASHES,
            "2024-05-01T10:00:00+00:00",
        ]
        if version >= 3:
            columns += ", salt, seed_source, names, client, status, updated"
            values += ["00ff" * 8, "request", '["Ada", "", ""]', "10.0.0.1", "open", 1234.5]
        if version == 4:  # seat 2 was never claimed: its token is the link sent to a friend
            for column in ("lobby INTEGER NOT NULL DEFAULT 0", "claimed TEXT", "rematch TEXT"):
                db.execute(f"ALTER TABLE tables ADD COLUMN {column}")
            columns += ", lobby, claimed"
            values += [1, "[0]"]
        marks = ", ".join("?" * len(values))
        db.execute(f"INSERT INTO tables ({columns}) VALUES ({marks})", values)
        for index, action in enumerate(ACTIONS[:2]):
            db.execute(
                "INSERT INTO actions (table_id, idx, action) VALUES (?, ?, ?)",
                ("t1", index, json.dumps(encode_action(action))),
            )
        db.execute(f"PRAGMA user_version = {version}")
    db.close()


def user_version(path: Path) -> int:
    db = sqlite3.connect(path)
    try:
        (version,) = db.execute("PRAGMA user_version").fetchone()
    finally:
        db.close()
    return int(version)


@pytest.mark.parametrize("version", [2, 3])
def test_sqlite_upgrades_an_older_file_in_place(tmp_path: Path, version: int) -> None:
    path = tmp_path / "old.db"
    old_file(path, version)
    store = SQLiteStore(path)
    try:
        stored = store.table("t1")
        assert stored is not None
        assert stored.actions == ACTIONS[:2]
        assert stored.setup.seed == 17
        assert stored.setup.seats == ("human", "greedy", "human")
        assert stored.setup.token_hashes == ("a" * 64, None, "b" * 64)
        # Version 4's columns: not in the lobby, no rematch, every human seat claimed.
        assert (stored.setup.lobby, stored.rematch, stored.claimed) == (False, None, (0, 2))
        if version == 3:  # and version 3's columns are kept
            assert (stored.setup.salt, stored.setup.seed_source) == ("00ff" * 8, "request")
            assert (stored.setup.names, stored.updated) == (("Ada", "", ""), 1234.5)
        else:
            assert (stored.setup.salt, stored.setup.names, stored.status) == (None, (), "open")
        assert store.lobby() == []
        store.add_action("t1", 2, ACTIONS[2], 2000.0)  # and it plays on
        assert store.join_seat("t1", 2, "c" * 64, "Bob") is False  # claimed: not free
        assert stored.setup.invitation_hashes == (None, None, None)  # every seat is held
    finally:
        store.close()
    assert user_version(path) == SCHEMA_VERSION == 5
    again = SQLiteStore(path)  # a second opening has nothing to upgrade
    try:
        assert again.actions("t1", 0)[2] == (ACTIONS[2], None)
    finally:
        again.close()


def test_sqlite_upgrade_turns_an_unclaimed_seats_token_into_its_invitation(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.db"
    old_file(path, 4)
    store = SQLiteStore(path)
    try:
        stored = store.table("t1")
        assert stored is not None
        # Seat 0 was claimed: its token holds it. Seat 2's token is its invitation now.
        assert stored.setup.token_hashes == ("a" * 64, None, None)
        assert stored.setup.invitation_hashes == (None, None, "b" * 64)
        assert (stored.claimed, stored.setup.lobby) == ((0,), True)
        assert [entry.free for entry in store.lobby()] == [(2,)]
        assert store.exchange_invitation("t1", "b" * 64, "c" * 64, None) == 2  # once
        assert store.exchange_invitation("t1", "b" * 64, "d" * 64, None) is None
    finally:
        store.close()
    assert user_version(path) == SCHEMA_VERSION


def test_sqlite_upgrade_of_a_damaged_file_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    old_file(path, 3, seats='["human", 7]')

    def rows() -> list[Any]:
        db = sqlite3.connect(path)
        try:
            return db.execute("SELECT * FROM tables").fetchall()
        finally:
            db.close()

    before = rows()
    message = "table 't1': seats: .*left as it was, at schema version 3"
    with pytest.raises(StorageError, match=message):
        SQLiteStore(path)
    assert user_version(path) == 3
    db = sqlite3.connect(path)
    try:
        columns = [row[1] for row in db.execute("PRAGMA table_info(tables)")]
    finally:
        db.close()
    assert "claimed" not in columns  # the transaction was rolled back, columns and all
    assert rows() == before


V1_POSTGRES = (
    "CREATE TABLE cuckoo_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """CREATE TABLE tables (
        id TEXT PRIMARY KEY, options TEXT NOT NULL, seed TEXT NOT NULL, seats TEXT NOT NULL,
        bot_seed TEXT NOT NULL, token_hashes TEXT NOT NULL, created TIMESTAMPTZ NOT NULL,
        salt TEXT, seed_source TEXT NOT NULL DEFAULT 'server',
        names TEXT NOT NULL DEFAULT '[]', client TEXT NOT NULL DEFAULT '',
        status TEXT NOT NULL DEFAULT 'open', updated DOUBLE PRECISION NOT NULL DEFAULT 0
    )""",
    """CREATE TABLE actions (
        table_id TEXT NOT NULL REFERENCES tables (id), idx INTEGER NOT NULL,
        action TEXT NOT NULL, note TEXT, PRIMARY KEY (table_id, idx)
    )""",
    "CREATE INDEX tables_status ON tables (status, client)",
    "INSERT INTO cuckoo_meta VALUES ('schema_version', '1')",
)


def test_postgres_upgrades_a_database_of_version_1(postgres_url: str) -> None:
    import json

    import psycopg

    from cuckoo_rules.web.stores.postgres import PostgresStore
    from cuckoo_rules.web.stores.postgres_schema import SCHEMA_VERSION as PG_VERSION

    with psycopg.connect(postgres_url, autocommit=True) as conn:
        for statement in V1_POSTGRES:
            conn.execute(statement)
        conn.execute(
            "INSERT INTO tables (id, options, seed, seats, bot_seed, token_hashes, created, "
            "names) VALUES ('t1', %s, '17', %s, '99', %s, now(), %s)",
            (json.dumps(GameOptions(3).to_json()), OLD_SEATS, OLD_HASHES, '["Ada", "", ""]'),
        )
    store = PostgresStore(postgres_url)
    try:
        stored = store.table("t1")
        assert stored is not None
        assert (stored.setup.lobby, stored.rematch, stored.claimed) == (False, None, (0, 2))
        assert stored.setup.names == ("Ada", "", "")
        assert stored.setup.invitation_hashes == (None, None, None)  # every seat held
        assert store.claim_seat("t1", 0) is False
    finally:
        store.close()
    with psycopg.connect(postgres_url) as conn:
        row = conn.execute("SELECT value FROM cuckoo_meta").fetchone()
    assert row == (str(PG_VERSION),)
    assert PG_VERSION == 3
    PostgresStore(postgres_url).close()  # opened again: nothing to do


def test_postgres_upgrade_turns_an_unclaimed_seats_token_into_its_invitation(
    postgres_url: str,
) -> None:
    import json

    import psycopg

    from cuckoo_rules.web.stores.postgres import PostgresStore

    with psycopg.connect(postgres_url, autocommit=True) as conn:
        for statement in V1_POSTGRES[:-1]:
            conn.execute(statement)
        for statement in (
            "ALTER TABLE tables ADD COLUMN lobby BOOLEAN NOT NULL DEFAULT FALSE",
            "ALTER TABLE tables ADD COLUMN claimed TEXT NOT NULL DEFAULT '[]'",
            "ALTER TABLE tables ADD COLUMN rematch TEXT",
            "INSERT INTO cuckoo_meta VALUES ('schema_version', '2')",
        ):
            conn.execute(statement)
        conn.execute(
            "INSERT INTO tables (id, options, seed, seats, bot_seed, token_hashes, created, "
            "claimed) VALUES ('t1', %s, '17', %s, '99', %s, now(), '[0]')",
            (json.dumps(GameOptions(3).to_json()), OLD_SEATS, OLD_HASHES),
        )
    store = PostgresStore(postgres_url)
    try:
        stored = store.table("t1")
        assert stored is not None
        assert stored.setup.token_hashes == ("a" * 64, None, None)
        assert stored.setup.invitation_hashes == (None, None, "b" * 64)
        assert store.exchange_invitation("t1", "b" * 64, "c" * 64, None) == 2
    finally:
        store.close()
