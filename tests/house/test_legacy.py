"""What the previous release saved (format version 1) still loads, replays and plays on.

``tests/data/legacy-v1`` (see its ``README.md``) holds files written by cuckoo-rules 0.1:
two records saved by ``cuckoo-rules play --save``, the database of a ``cuckoo-rules
serve`` with three tables, the token of each table's seat 0, and the state (a version 1
document) that 0.1 reached by replaying each of them. The database is only ever opened
as a copy: opening it upgrades it to the current schema version (4).
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
import time
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

import cuckoo_rules as cr
from cuckoo_rules.web import create_app
from cuckoo_rules.web.store import SCHEMA_VERSION, SQLiteStore, StorageError
from tests.conftest import DATA

LEGACY = DATA / "legacy-v1"
DATABASE = LEGACY / "serve-tables.sqlite3"
RECORDS = ["play-finished-3p.json", "play-unfinished-2p.json"]
FINAL: dict[str, dict[str, Any]] = json.loads((LEGACY / "final-states-v1.json").read_text())
TOKENS: dict[str, str] = json.loads((LEGACY / "serve-tokens.json").read_text())
TWO_HUMANS = "hLPg15ij2jtE"  # human and human, after one request of seat 0
HUMAN_TO_DRAW = "CAVF_x3ayVY1"  # human against greedy and ismcts, the human to draw


def _final(key: str) -> cr.GameState:
    """The state cuckoo-rules 0.1 reached by replaying a file or a table."""
    return cr.decode_state(FINAL[key])


def _user_version(path: Path) -> int:
    with closing(sqlite3.connect(path)) as db:
        (version,) = db.execute("PRAGMA user_version").fetchone()
    return int(version)


def _stored_options(path: Path) -> dict[str, dict[str, Any]]:
    with closing(sqlite3.connect(path)) as db:
        rows = db.execute("SELECT id, options FROM tables").fetchall()
    return {table_id: json.loads(text) for table_id, text in rows}


@pytest.fixture
def legacy_db(tmp_path: Path) -> Path:
    """A copy of the database written by 0.1 (the committed file is never opened)."""
    path = tmp_path / DATABASE.name
    shutil.copyfile(DATABASE, path)
    return path


def test_the_legacy_files_are_of_version_1(legacy_db: Path) -> None:
    for name in RECORDS:
        doc = json.loads((LEGACY / name).read_text(encoding="utf-8"))
        assert (doc["format"], doc["version"]) == ("cuckoo-rules/record", 1)
        assert "refill_trigger" not in doc["options"]
    assert set(FINAL) == {*RECORDS, *TOKENS}
    for doc in FINAL.values():
        assert doc["version"] == 1
        assert "refill_trigger" not in doc["options"]
    assert _user_version(legacy_db) == 1
    assert all("refill_trigger" not in o for o in _stored_options(legacy_db).values())


# --------------------------------------------------------------------------- records


@pytest.mark.parametrize("name", RECORDS)
def test_a_saved_record_loads_and_replays_to_the_state_it_reached(name: str) -> None:
    path = LEGACY / name
    with path.open(encoding="utf-8") as text:
        record = cr.records.load_record(text)
    assert cr.loads_record(path.read_bytes()) == record
    assert record.options.refill_trigger == "capture"
    state = cr.records.final_state(record)
    assert state == _final(name)
    assert cr.records.check_record(record) == state  # and the recorded result, if any, is right
    assert state.is_over == (record.metadata.result is not None)
    again = cr.loads_record(cr.dumps_record(record))  # written back as version 2
    assert again == record
    assert cr.records.encode_record(again)["version"] == 2


# --------------------------------------------------------------------------- the database


def test_the_database_opens_upgraded_and_replays_its_tables(legacy_db: Path) -> None:
    committed = hashlib.sha256(DATABASE.read_bytes()).hexdigest()
    before = _stored_options(legacy_db)
    store = SQLiteStore(legacy_db)
    try:
        tables = store.tables()
    finally:
        store.close()
    assert sorted(table.setup.id for table in tables) == sorted(TOKENS)
    for table in tables:
        setup = table.setup
        record = cr.GameRecord(setup.options, setup.seed, table.actions)
        assert cr.records.final_state(record) == _final(setup.id), setup.id
        assert setup.options.refill_trigger == "capture"
    assert _user_version(legacy_db) == SCHEMA_VERSION == 5
    for table in tables:  # made before commitments: no salt; all open until replayed
        assert table.setup.salt is None
        assert table.status == "open"
        # Not in the lobby, no rematch, and every human seat claimed (its token was given).
        assert not table.setup.lobby
        assert table.rematch is None
        assert table.claimed == tuple(
            i for i, kind in enumerate(table.setup.seats) if kind == "human"
        )
        assert set(table.setup.invitation_hashes) == {None}  # held seats: no invitation
    after = _stored_options(legacy_db)
    for table_id, options in before.items():  # the same options, refill_trigger added
        assert after[table_id] == {**options, "refill_trigger": "capture"}
        assert list(after[table_id]) == list(cr.GameOptions(num_players=2).to_json())
    reopened = SQLiteStore(legacy_db)  # a second opening finds version 5: nothing to do
    try:
        assert reopened.tables() == tables
    finally:
        reopened.close()
    assert hashlib.sha256(DATABASE.read_bytes()).hexdigest() == committed


def test_the_upgrade_is_one_transaction(legacy_db: Path) -> None:
    with closing(sqlite3.connect(legacy_db)) as db, db:
        damaged = {**_stored_options(legacy_db)[TWO_HUMANS], "refill_trigger": "capture"}
        db.execute("UPDATE tables SET options = ? WHERE id = ?", (json.dumps(damaged), TWO_HUMANS))
    before = _stored_options(legacy_db)
    with pytest.raises(StorageError) as info:
        SQLiteStore(legacy_db)
    message = str(info.value)
    assert f"table {TWO_HUMANS!r}: options: unknown key 'refill_trigger'" in message
    assert "left as it was, at schema version 1" in message
    assert _user_version(legacy_db) == 1
    assert _stored_options(legacy_db) == before  # no table was upgraded


def test_a_database_of_a_newer_version_is_refused(legacy_db: Path) -> None:
    newer = SCHEMA_VERSION + 1
    with closing(sqlite3.connect(legacy_db)) as db:
        db.execute(f"PRAGMA user_version = {newer}")
    before = _stored_options(legacy_db)
    message = f"database schema version {newer} is newer than this"
    with pytest.raises(StorageError, match=message):
        SQLiteStore(legacy_db)
    with pytest.raises(StorageError, match=message):
        create_app(legacy_db)
    assert _user_version(legacy_db) == newer
    assert _stored_options(legacy_db) == before


# --------------------------------------------------------------------------- the server


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_the_server_serves_the_legacy_tables_and_plays_on(legacy_db: Path) -> None:
    app = create_app(legacy_db)
    with TestClient(app, base_url="http://127.0.0.1") as client:  # a host it answers to
        for table_id, token in TOKENS.items():  # each token is of its table's seat 0
            response = client.get(f"/api/tables/{table_id}", headers=_bearer(token))
            assert response.status_code == 200, response.text
            document = response.json()
            assert document["seat"] == 0
            assert document["view"]["version"] == 2
            state = _final(table_id)
            assert cr.decode_view(document["view"]) == cr.observe(state, 0)
            legal = tuple(cr.decode_action(a) for a in document["legal_actions"])
            assert legal == (cr.legal_actions(state) if state.current_player == 0 else ())

        # The two humans: seat 1 is to act (0.1's one request of seat 0 found it not its
        # turn, and stored no action), so seat 0, whose token we have, cannot act yet.
        response = client.get(f"/api/tables/{TWO_HUMANS}", headers=_bearer(TOKENS[TWO_HUMANS]))
        assert response.json()["view"]["current_player"] == 1
        assert response.json()["legal_actions"] == []
        two_humans = _final(TWO_HUMANS)
        assert (two_humans.phase, two_humans.turn) == (cr.Phase.LAY, 1)
        url = f"/api/tables/{TWO_HUMANS}/actions"
        lay = {"action": cr.encode_action(cr.legal_actions(two_humans)[0]), "move": 1}
        refused = client.post(url, headers=_bearer(TOKENS[TWO_HUMANS]), json=lay)
        assert refused.status_code == 409, refused.text

        # The human against the bots is to draw: it draws (and the bots answer, if it is
        # their turn then).
        state = _final(HUMAN_TO_DRAW)
        assert (state.current_player, state.phase) == (0, cr.Phase.DRAW)
        url = f"/api/tables/{HUMAN_TO_DRAW}/actions"
        body = {"action": cr.encode_action(cr.Draw()), "move": 32}
        answer = client.post(url, headers=_bearer(TOKENS[HUMAN_TO_DRAW]), json=body)
        assert answer.status_code == 200, answer.text
        view = cr.decode_view(answer.json()["view"])
        assert view.hand_sizes[0] == sum(state.hands[0]) + 2  # the answer: the draw only
        # The bots answer in the background, until the human is to act again.
        deadline = time.monotonic() + 60
        while True:
            document = client.get(
                f"/api/tables/{HUMAN_TO_DRAW}", headers=_bearer(TOKENS[HUMAN_TO_DRAW])
            ).json()
            if document["legal_actions"] or document["status"] != "open":
                break
            assert time.monotonic() < deadline, "the bots did not answer"
            time.sleep(0.02)
        view = cr.decode_view(document["view"])

    store = SQLiteStore(legacy_db)  # the move and the bots' answers are stored
    try:
        table = next(t for t in store.tables() if t.setup.id == HUMAN_TO_DRAW)
    finally:
        store.close()
    assert len(table.actions) >= 33
    assert table.actions[32] == cr.Draw()
    record = cr.GameRecord(table.setup.options, table.setup.seed, table.actions)
    assert cr.observe(cr.records.final_state(record), 0) == view
