"""Tests of the JSON API of ``cuckoo-rules serve`` (``cuckoo_rules.web``), in process.

Every answer is checked against the truth rebuilt independently from the SQLite file
(options, seed and the stored actions, replayed with ``step``): a seat's answer must be
exactly its view of the state after the first ``move`` stored actions and its redacted
events, so it cannot hold anything another seat's hand, the draw pile or the seed would
reveal, and every answered action must be on disk already. Bots play in the background
after an answer, so the file may hold more actions than the answer shows, never fewer;
:func:`wait_for_people` waits until no bot is to act.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import sqlite3
import sys
import time
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient

import cuckoo_rules as cr
from cuckoo_rules.bots import derive_seed
from cuckoo_rules.fairness import check_deal
from cuckoo_rules.narration import PHRASES, describe_event
from cuckoo_rules.options import OptionChoice, OptionInfo, option_info
from cuckoo_rules.preview import birds_home, preview
from cuckoo_rules.web import MAX_BODY, create_app
from cuckoo_rules.web.app import HINT_SIMULATIONS, STATIC_DIR
from cuckoo_rules.web.bots import ThreadBotRunner
from cuckoo_rules.web.documents import describe_move
from cuckoo_rules.web.errors import StorageUnavailable
from cuckoo_rules.web.parsing import MAX_ISMCTS_ITERATIONS
from cuckoo_rules.web.seatbot import SeatBot
from cuckoo_rules.web.seats import hash_token
from cuckoo_rules.web.stores.base import TableSetup
from cuckoo_rules.web.stores.rows import TABLE_COLUMNS, decode_table
from tests.conftest import HintSpy
from tests.documents import all_keys

DOCUMENT_KEYS = [
    "table",
    "seat",
    "seats",
    "names",
    "move",
    "view",
    "outcome",
    "progress",
    "hand_flocks",
    "legal_actions",
    "previews",
    "events",
    "narration",
    "next_event",
    "status",
    "thinking",
    "deal",
    "notices",
    "players",
    "free",
    "lobby",
    "rematch",
]
SECRET_KEYS = {"draw_pile", "discard_pile", "hands_full", "seed", "shuffles", "token", "bot_seed"}
BIG_SEED = 2**63 + 987_654_321  # its digits cannot appear in an answer by chance


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "tables.sqlite3"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with local_client(db) as test_client:
        yield test_client


LOCAL = "http://127.0.0.1"  # a host the server answers to (loopback only, by default)


def local_client(db: Path, **options: Any) -> TestClient:
    """A test client of a new server on ``db``, talking to it on a loopback address."""
    # Bodies are JSON, also those given as bytes (the server refuses other types: 415).
    headers = {"Content-Type": "application/json"}
    return TestClient(create_app(db, **options), base_url=LOCAL, headers=headers)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create_document(client: TestClient, seats: list[str], **fields: Any) -> dict[str, Any]:
    """Create a table; its answer: the creator's token and the other seats' invitations."""
    response = client.post("/api/tables", json={"seats": seats, **fields})
    assert response.status_code == 201, response.text
    document: dict[str, Any] = response.json()
    assert list(document) == ["table", "seats", "tokens", "invitations", "move", "deal", "names"]
    assert document["seats"] == seats
    assert document["move"] == 0  # the bots, if they begin, play afterwards
    humans = [str(i) for i, s in enumerate(seats) if s == "human"]
    assert list(document["tokens"]) == humans[:1]  # the creator's seat only
    assert sorted(document["invitations"]) == humans[1:]
    assert not set(document["tokens"].values()) & set(document["invitations"].values())
    return document


def create(client: TestClient, seats: list[str], **fields: Any) -> tuple[str, dict[str, str]]:
    """Create a table and take every invited seat: the token of each human seat, by seat.

    The creator's token comes with the table; each other seat's comes from exchanging
    its invitation (``POST .../accept``), as the person invited does.
    """
    document = create_document(client, seats, **fields)
    return document["table"], accept_invitations(client, document)


def accept_invitations(client: TestClient, document: dict[str, Any]) -> dict[str, str]:
    """Exchange every invitation of a new table's answer: every human seat's token, by seat."""
    table = document["table"]
    tokens = dict(document["tokens"])
    for seat, invitation in document["invitations"].items():
        accepted = client.post(f"/api/tables/{table}/accept", json={"invitation": invitation})
        assert accepted.status_code == 200, accepted.text
        assert accepted.json()["seat"] == int(seat)
        tokens[seat] = accepted.json()["token"]
    return tokens


def bots_to_act(document: dict[str, Any]) -> bool:
    """Whether a table document shows a bot to act (or deciding)."""
    if document["status"] != "open" or document["view"]["phase"] == "game_over":
        return False
    return bool(document["seats"][document["view"]["current_player"]] != "human")


def wait_for_people(
    client: TestClient, table: str, timeout: float = 30.0, after: int = 0
) -> dict[str, Any]:
    """Wait until no bot is to act at ``table`` (they play in the background); return the
    spectator's document then (its events from number ``after`` on)."""
    deadline = time.monotonic() + timeout
    while True:
        response = client.get(f"/api/tables/{table}?after={after}")
        assert response.status_code == 200, response.text
        document: dict[str, Any] = response.json()
        if not bots_to_act(document) and document["thinking"] is None:
            return document
        if time.monotonic() > deadline:
            pytest.fail(f"the bots of table {table} did not finish in {timeout} s: {document}")
        time.sleep(0.005)


# --------------------------------------------------------------------------- the truth


def stored(
    db: Path, table_id: str, upto: int | None = None
) -> tuple[cr.GameRecord, cr.GameState, list[cr.Event]]:
    """The record of a table as read from the file, its state and every event.

    With ``upto``, of its first ``upto`` actions only (there must be that many stored).
    """
    with closing(sqlite3.connect(db)) as connection:
        options, seed = connection.execute(
            "SELECT options, seed FROM tables WHERE id = ?", (table_id,)
        ).fetchone()
        rows = connection.execute(
            "SELECT idx, action FROM actions WHERE table_id = ? ORDER BY idx", (table_id,)
        ).fetchall()
    assert [index for index, _ in rows] == list(range(len(rows)))
    if upto is not None:
        assert len(rows) >= upto, f"an answer shows move {upto}, but {len(rows)} are stored"
        rows = rows[:upto]
    actions = tuple(cr.decode_action(json.loads(text)) for _, text in rows)
    record = cr.GameRecord(cr.codec.decode_options(json.loads(options)), int(seed), actions)
    state = cr.new_game(record.options, record.seed)
    events: list[cr.Event] = []
    for action in actions:
        state, new = cr.step(state, action)
        events += new
    return record, state, events


def narration_of(
    events: tuple[cr.Event, ...], seat: int | None, players: list[str | None], language: str = "en"
) -> list[str | None]:
    """The sentences of ``describe_event`` for ``events``, the seats named by ``players``."""
    names = [name or "" for name in players]
    return [describe_event(event, seat, names=names, language=language) for event in events]


def setup_of(db: Path, table_id: str) -> TableSetup:
    """The stored setup of a table, read through the store."""
    with closing(sqlite3.connect(db)) as connection:
        row = connection.execute(
            f"SELECT {TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)
        ).fetchone()
    return decode_table(row, []).setup


def claimed_of(db: Path, table_id: str) -> list[int]:
    """The seats stored as claimed."""
    with closing(sqlite3.connect(db)) as connection:
        (claimed,) = connection.execute(
            "SELECT claimed FROM tables WHERE id = ?", (table_id,)
        ).fetchone()
    seats: list[int] = json.loads(claimed)
    return seats


def rematch_of(db: Path, table_id: str) -> str | None:
    """The stored id of a table's rematch."""
    with closing(sqlite3.connect(db)) as connection:
        (rematch,) = connection.execute(
            "SELECT rematch FROM tables WHERE id = ?", (table_id,)
        ).fetchone()
    return None if rematch is None else str(rematch)


def note_of(db: Path, table_id: str, move: int) -> str | None:
    """The note stored with a move."""
    with closing(sqlite3.connect(db)) as connection:
        (note,) = connection.execute(
            "SELECT note FROM actions WHERE table_id = ? AND idx = ?", (table_id, move)
        ).fetchone()
    return None if note is None else str(note)


def notes_of(db: Path, table_id: str) -> dict[int, str | None]:
    """The note stored with each move of a table, by move number (one query for all)."""
    with closing(sqlite3.connect(db)) as connection:
        rows = connection.execute(
            "SELECT idx, note FROM actions WHERE table_id = ?", (table_id,)
        ).fetchall()
    return {int(move): None if note is None else str(note) for move, note in rows}


def row_counts(db: Path) -> tuple[int, int]:
    with closing(sqlite3.connect(db)) as connection:
        (tables,) = connection.execute("SELECT count(*) FROM tables").fetchone()
        (actions,) = connection.execute("SELECT count(*) FROM actions").fetchone()
    return tables, actions


def expected_preview(view: cr.PlayerView, action: cr.Action) -> dict[str, Any]:
    """The preview document of ``action``, written out here from ``preview`` itself."""
    seen = preview(view, action)
    return {
        "captured": [species.value for species in seen.captured],
        "refilled": seen.refilled,
        "draw_offered": seen.draw_offered,
        "birds_home": seen.birds_home,
        "discarded": seen.discarded,
    }


def check_answer(db: Path, document: dict[str, Any], seat: int | None, after: int = 0) -> None:
    """Check an answer is exactly what ``seat`` may see of the stored game, and no more.

    The truth is the game of the first ``move`` stored actions: every move the answer
    shows is stored (bots may have stored more since, in the background).
    """
    record, state, events = stored(db, document["table"], document["move"])
    assert list(document) == DOCUMENT_KEYS
    assert document["seat"] == seat
    assert document["move"] == len(record.actions)
    setup = setup_of(db, document["table"])
    given = list(setup.names) + [""] * (len(document["seats"]) - len(setup.names))
    players = [
        name or (None if kind == "human" else kind.split(":")[0])
        for name, kind in zip(given, document["seats"], strict=True)
    ]
    assert document["players"] == players
    assert document["names"] == [
        f"P{s}" if name is None else f"P{s} {name}" for s, name in enumerate(players)
    ]
    claimed = claimed_of(db, document["table"])
    assert document["free"] == [
        s for s, kind in enumerate(document["seats"]) if kind == "human" and s not in claimed
    ]
    assert document["lobby"] is setup.lobby
    assert document["rematch"] == rematch_of(db, document["table"])
    view = cr.observe(state, seat)
    assert document["view"] == cr.encode_view(view)
    legal = cr.legal_actions(view) if view.is_my_turn else ()
    assert document["legal_actions"] == [cr.encode_action(action) for action in legal]
    # The previews are computed on the seat's view, never on the state.
    assert document["previews"] == [expected_preview(view, action) for action in legal]
    outcome = state.outcome
    if outcome is None:
        assert document["outcome"] is None
    else:
        names = [name or "" for name in players]
        ended = cr.events.GameOver(outcome.winners, outcome.reason)
        assert document["outcome"] == {
            "winners": list(outcome.winners),
            "reason": outcome.reason,
            "shares": list(outcome.shares),
            "text": describe_event(ended, seat, names=names),
            "reason_text": PHRASES["en"][f"reason.{outcome.reason}"],
        }
        assert after > 0 or document["outcome"]["text"] == document["narration"][-1]
    for progress, collection in zip(document["progress"], state.collections, strict=True):
        assert progress["cards"] == sum(collection)
        assert progress["species"] == sum(1 for n in collection if n)
        assert cr.outcome.has_won(collection) == (
            progress["species"] >= 7 or progress["triples"] >= 2
        )
    if seat is None:
        assert document["hand_flocks"] is None
    else:
        hand = state.hands[seat]
        assert document["hand_flocks"] == {
            s.value: birds_home(s, hand[s.index]) for s in cr.SPECIES if hand[s.index]
        }
    redacted = cr.visible_events(events[after:], seat)
    assert document["events"] == [cr.encode_event(event) for event in redacted]
    assert document["narration"] == narration_of(redacted, seat, players)
    assert document["next_event"] == len(events)
    assert document["status"] == ("over" if state.is_over else "open")
    # Only the bot to act may be deciding.
    bot_to_act = not state.is_over and document["seats"][state.current_player] != "human"
    assert document["thinking"] is None or (
        bot_to_act and document["thinking"] == state.current_player
    )
    notes = notes_of(db, document["table"])
    assert document["notices"] == [
        {"move": move, "text": note}
        for move in range(len(record.actions))
        if (note := notes[move]) is not None
    ]
    deal = document["deal"]
    assert list(deal) == ["commitment", "seed_source", "seed", "salt"]
    if state.is_over:  # the secret is revealed, and it is the one committed to
        assert deal["seed"] == str(record.seed)
        assert check_deal(deal["commitment"], int(deal["seed"]), deal["salt"])
    else:
        assert deal["seed"] is None
        assert deal["salt"] is None
        assert len(deal["commitment"]) == 64
    # Independently of the functions above: nothing secret is in the answer at all.
    assert not SECRET_KEYS & set(all_keys({k: v for k, v in document.items() if k != "deal"}))
    for event in document["events"]:
        if "hands" in event:
            assert all(hand is None for i, hand in enumerate(event["hands"]) if i != seat)
        if event["type"] == "drew" and event["player"] != seat:
            assert event["cards"] is None
    if seat is not None:
        assert document["view"]["hand"] == cr.codec.encode_counts(state.hands[seat])


def play_to_the_end(
    client: TestClient, db: Path, table: str, tokens: dict[str, str], rng: random.Random
) -> dict[str, Any]:
    """Play every human seat with random legal actions until the game is over."""
    seats = {int(seat): token for seat, token in tokens.items()}
    after = dict.fromkeys(seats, 0)
    seen: dict[int, list[Any]] = {seat: [] for seat in seats}

    def read(seat: int, response: httpx.Response) -> dict[str, Any]:
        """Check an answer to ``seat`` and take in the events it brings."""
        assert response.status_code == 200, response.text
        document: dict[str, Any] = response.json()
        check_answer(db, document, seat, after[seat])
        seen[seat] += document["events"]
        after[seat] = document["next_event"]
        return document

    document: dict[str, Any] = {}
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        acted = False
        for seat, token in seats.items():
            url = f"/api/tables/{table}?after={after[seat]}"
            document = read(seat, client.get(url, headers=bearer(token)))
            if document["view"]["phase"] == "game_over":
                continue
            if document["legal_actions"]:
                action = rng.choice(document["legal_actions"])
                response = client.post(
                    f"/api/tables/{table}/actions?after={after[seat]}",
                    json={"action": action, "move": document["move"]},
                    headers=bearer(token),
                )
                document = read(seat, response)
                acted = True
        if document["view"]["phase"] == "game_over":
            break
        if not acted:  # a bot is to act, in the background
            wait_for_people(client, table)
    else:
        pytest.fail("the game did not end")
    for seat, token in seats.items():  # every seat reads the end
        url = f"/api/tables/{table}?after={after[seat]}"
        read(seat, client.get(url, headers=bearer(token)))
    _, _, events = stored(db, table)
    for seat, got in seen.items():  # the events read piece by piece add up to the whole
        assert got == [cr.encode_event(event) for event in cr.visible_events(events, seat)]
    return document


# --------------------------------------------------------------------------- whole games


def test_a_whole_game_against_greedy(client: TestClient, db: Path) -> None:
    table, tokens = create(client, ["human", "greedy"], seed=BIG_SEED)
    final = play_to_the_end(client, db, table, tokens, random.Random(1))
    record, state, _ = stored(db, table)
    assert record.seed == BIG_SEED
    assert cr.records.final_state(record) == state
    assert state.is_over
    assert final["view"]["winners"] == list(cr.records.final_state(record).winners)
    # Any action once the game is over is refused, and nothing is stored.
    before = row_counts(db)
    moves = len(record.actions)
    response = client.post(
        f"/api/tables/{table}/actions",
        json={"action": {"type": "pass"}, "move": moves},
        headers=bearer(tokens["0"]),
    )
    assert response.status_code == 409
    assert response.json() == {"error": f"the game is over (at move {moves})", "move": moves}
    assert row_counts(db) == before
    # So is a hint (before any search, so without the batch extra too).
    response = client.get(f"/api/tables/{table}/hint", headers=bearer(tokens["0"]))
    assert response.status_code == 409
    assert response.json() == {"error": f"the game is over (at move {moves})", "move": moves}
    assert {"error": f"the game is over: no hint (the match is at move {moves})"}
    # The spectator sees the end too, and no hand.
    spectator = client.get(f"/api/tables/{table}").json()
    check_answer(db, spectator, None)
    assert spectator["view"]["hand"] is None
    assert spectator["legal_actions"] == []


def test_two_humans_and_a_random_bot(client: TestClient, db: Path) -> None:
    table, tokens = create(
        client, ["human", "random", "human"], options={"round_end_timing": "immediate"}
    )
    final = play_to_the_end(client, db, table, tokens, random.Random(2))
    record, _, _ = stored(db, table)
    assert record.options == cr.GameOptions(num_players=3, round_end_timing="immediate")
    assert final["view"]["winners"] == list(cr.records.final_state(record).winners)


def test_bots_move_first_when_a_bot_is_to_start(client: TestClient, db: Path) -> None:
    seed = next(s for s in range(100) if cr.new_game(cr.GameOptions(2), s).current_player == 0)
    table, tokens = create(client, ["greedy", "human"], seed=seed)  # answered at move 0
    wait_for_people(client, table)  # the bot plays in the background
    _, state, events = stored(db, table)
    assert events
    assert state.current_player == 1
    document = client.get(f"/api/tables/{table}", headers=bearer(tokens["1"])).json()
    check_answer(db, document, 1)
    assert document["legal_actions"]


def test_bots_lists_the_bot_kinds(client: TestClient) -> None:
    response = client.get("/api/bots")
    assert response.status_code == 200
    assert response.json() == {"bots": list(cr.bots.BOT_KINDS)}


def test_meta_describes_every_option_as_option_info_does(client: TestClient) -> None:
    response = client.get("/api/meta")
    assert response.status_code == 200
    document = response.json()
    assert list(document) == ["options", "species", "win", "hints"]
    described = tuple(
        OptionInfo(
            name=option["name"],
            label=option["label"],
            description=option["description"],
            default=option["default"],
            choices=tuple(OptionChoice(c["value"], c["text"]) for c in option["choices"]),
        )
        for option in document["options"]
    )
    assert described == option_info()
    for option, info in zip(document["options"], option_info(), strict=True):
        assert list(option) == ["name", "label", "description", "default", "choices"]
        assert type(option["default"]) is type(info.default), info.name  # 1 is not true
        assert [type(c["value"]) for c in option["choices"]] == [type(v) for v in info.values]
    by_name = {option["name"]: option for option in document["options"]}
    assert by_name["num_players"]["default"] is None
    assert [c["value"] for c in by_name["refill_trigger"]["choices"]] == [
        "capture",
        "same_species_lay",
    ]
    assert "same_dealer" in [c["value"] for c in by_name["next_round_first_player"]["choices"]]
    assert [o["name"] for o in document["options"]] == list(cr.GameOptions(num_players=2).to_json())


def test_meta_sends_the_species_of_cards_py(client: TestClient) -> None:
    document = client.get("/api/meta").json()
    assert document["species"] == [
        {
            "id": species.value,
            "name": species.label,
            "copies": species.copies,
            "small_flock": species.small_flock,
            "big_flock": species.big_flock,
        }
        for species in cr.SPECIES
    ]
    assert sum(species["copies"] for species in document["species"]) == cr.cards.DECK_SIZE
    assert document["win"] == {"species": 7, "triples": 2, "triple": 3}
    # The win conditions sent are the library's (has_won), on every collection below.
    rng = random.Random(4)
    win = document["win"]
    for _ in range(2000):
        collection = tuple(rng.choice((0, 0, 1, 2, 3, 4)) for _ in cr.SPECIES)
        species = sum(1 for n in collection if n)
        triples = sum(1 for n in collection if n >= win["triple"])
        assert cr.outcome.has_won(collection) == (
            species >= win["species"] or triples >= win["triples"]
        )


def test_the_browser_client_is_served_when_present(client: TestClient) -> None:
    response = client.get("/")
    if response.status_code == 404:  # the static files are not there yet
        assert "error" in response.json()
    else:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/html")


def rules_in_client(source: str) -> list[str]:
    """What in a JavaScript source looks like a species table or a rule of the game."""
    code = re.sub(r"/\*.*?\*/", "", source, flags=re.DOTALL)  # comments do not count
    code = re.sub(r"(?m)(^|\s)//.*$", "", code)
    found = [
        f"the species id {species.value!r} as a string"
        for species in cr.SPECIES
        if re.search(rf"[\"'`]{species.value}[\"'`]", code)
    ]
    patterns = {
        r"\bfunction\s+\w*captur\w*By\b|\bcapturedBy\b|\bcaptured_by\b": "a capture function",
        r"\blastIndexOf\s*\(|\.includes\(\s*species\s*\)": "the capture rule (nearest bird)",
        r"\bdescribeEvent\b|\bcase\s+[\"']laid[\"']": "a narration of the events",
        r"(>=|<=|<|>)\s*[\w.]*\b(small|big)(_flock)?\b": "a flock size compared",
        r"\bseven_species\b|\btwo_triples\b|\bmost_cards\b": "the win reasons",
        r"(>=|>)\s*3\b|/7 species|/2 triples": "the win conditions",
        r"\bkeep\s*=|\bkept\s*=": "the birds a flock keeps",
    }
    found += [what for pattern, what in patterns.items() if re.search(pattern, code)]
    return found


OLD_CLIENT = """
  const SPECIES = [{ id: "flamingo", name: "Flamingo", copies: 7, small: 2, big: 3 }];
  // capturedBy("owl") in a comment is not code
  function capturedBy(row, species, side) {
    if (!row.includes(species)) return null;
    return row.slice(row.lastIndexOf(species) + 1);
  }
  const kept = info && held >= info.big ? 2 : 1;
  function describeEvent(event) { switch (event.type) { case "laid": return ""; } }
  const triples = items.filter(([, n]) => n >= 3).length;
"""


def test_the_browser_client_holds_no_species_table_and_no_rule() -> None:
    assert rules_in_client("/* 'owl' */ const x = 1; // 'duck'") == []
    assert set(rules_in_client(OLD_CLIENT)) == {
        "the species id 'flamingo' as a string",
        "a capture function",
        "the capture rule (nearest bird)",
        "a narration of the events",
        "a flock size compared",
        "the win conditions",
        "the birds a flock keeps",
    }
    client = "".join(p.read_text(encoding="utf-8") for p in sorted(STATIC_DIR.rglob("*.js")))
    assert rules_in_client(client) == []


# --------------------------------------------------------------------------- seats and tokens


def test_a_token_reads_and_acts_for_its_own_seat_only(client: TestClient, db: Path) -> None:
    table, tokens = create(client, ["human", "human"])
    _, state, _ = stored(db, table)
    mover = state.current_player
    other = 1 - mover
    for seat in (0, 1):
        document = client.get(f"/api/tables/{table}", headers=bearer(tokens[str(seat)])).json()
        check_answer(db, document, seat)
        assert bool(document["legal_actions"]) == (seat == mover)
        assert document["view"]["hand"] != cr.codec.encode_counts(state.hands[1 - seat])
    before = row_counts(db)
    body = {"action": cr.encode_action(cr.legal_actions(state)[0]), "move": 0}
    response = client.post(
        f"/api/tables/{table}/actions", json=body, headers=bearer(tokens[str(other)])
    )
    assert response.status_code == 409
    assert response.json() == {"error": f"it is not your turn: player {mover} is to act", "move": 0}
    check_answer(db, client.get(f"/api/tables/{table}").json(), None)
    assert row_counts(db) == before
    response = client.post(
        f"/api/tables/{table}/actions", json=body, headers=bearer(tokens[str(mover)])
    )
    assert response.status_code == 200
    check_answer(db, response.json(), mover)
    assert row_counts(db) == (before[0], before[1] + 1)


def test_a_token_of_another_table_is_refused(client: TestClient) -> None:
    table, _ = create(client, ["human", "greedy"])
    _, tokens = create(client, ["human", "greedy"])
    response = client.get(f"/api/tables/{table}", headers=bearer(tokens["0"]))
    assert response.status_code == 401
    assert response.json() == {"error": "the token is not one of this table's seats"}


def test_tokens_are_not_stored_in_clear(client: TestClient, db: Path) -> None:
    table, tokens = create(client, ["human", "human", "greedy"])
    client.get(f"/api/tables/{table}", headers=bearer(tokens["0"]))

    def stored_bytes() -> bytes:
        return b"".join(path.read_bytes() for path in db.parent.glob(db.name + "*"))

    for token in tokens.values():
        assert token.encode() not in stored_bytes()
        assert hash_token(token).encode() in stored_bytes()


# --------------------------------------------------------------------------- refused requests


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        (b"", 400, "body: empty; send a JSON object"),
        (b"{", 400, "body: invalid JSON at line 1, column 2 (char 1)"),
        (b'{"seats": ["human", "greedy"], "seats": []}', 400, "duplicate key 'seats'"),
        (b'{"seats": ["human", "greedy"], "seed": NaN}', 400, "NaN is not a JSON number"),
        (b"\xff", 400, "body: invalid JSON"),
        (b"[]", 400, "body: expected a JSON object"),
        (b'{"seats": ["human", "greedy"], "players": 2}', 400, "body: unknown key 'players'"),
        (b'{"options": {}}', 400, "body: missing key 'seats'"),
        (b'{"seats": "human"}', 400, "seats: expected an array"),
        (b'{"seats": ["human"]}', 400, "seats: expected 2 to 5 seats, got 1"),
        (b'{"seats": ["human", "human", "human", "human", "human", "human"]}', 400, "got 6"),
        (b'{"seats": ["human", 3]}', 400, "seats[1]: expected 'human' or a bot spec"),
        (b'{"seats": ["human", "gredy"]}', 400, "seats[1]: bot spec 'gredy': unknown bot"),
        (b'{"seats": ["human", "greedy:depth=2"]}', 400, "seats[1]: bot spec 'greedy:depth=2'"),
        (b'{"seats": ["greedy", "random"]}', 400, "seats: at least one seat must be 'human'"),
        (
            b'{"seats": ["human", "ismcts:iterations=100000"]}',
            400,
            f"seats[1]: bot spec 'ismcts:iterations=100000': iterations 100000 is above this "
            f"server's limit of {MAX_ISMCTS_ITERATIONS}",
        ),
        (b'{"seats": ["human", "ismcts:seconds=30"]}', 400, "seconds 30 is above"),
        (
            b'{"seats": ["human", "expert:simulations=100000"]}',
            400,
            "seats[1]: bot spec 'expert:simulations=100000': simulations 100000 is above "
            "this server's limit of 20000",
        ),
        (b'{"seats": ["human", "expert:seconds=5"]}', 400, "seconds 5 is above"),
        (b'{"seats": ["human", "greedy"], "options": 3}', 400, "options: expected an object"),
        (
            b'{"seats": ["human", "greedy"], "options": {"initial_row_length": 5}}',
            400,
            "options.initial_row_length: 5 is not in 3..4",
        ),
        (b'{"seats": ["human", "greedy"], "options": {"colour": 1}}', 400, "unknown key 'colour'"),
        (
            b'{"seats": ["human", "greedy"], "options": {"num_players": 3}}',
            400,
            "options.num_players: 3 does not match the 2 seats",
        ),
        (b'{"seats": ["human", "greedy"], "seed": -1}', 400, "seed: expected an integer"),
        (b'{"seats": ["human", "greedy"], "seed": 2.5}', 400, "seed: expected an integer"),
        (b'{"seats": ["human", "greedy"], "seed": true}', 400, "seed: expected an integer"),
    ],
)
def test_bad_new_tables_are_refused(
    client: TestClient, db: Path, body: bytes, status: int, message: str
) -> None:
    before = row_counts(db)
    response = client.post("/api/tables", content=body)
    assert response.status_code == status
    assert list(response.json()) == ["error"]
    assert message in response.json()["error"]
    assert row_counts(db) == before


@pytest.fixture
def game(client: TestClient, db: Path) -> tuple[str, dict[str, str], cr.GameState]:
    table, tokens = create(client, ["human", "human"])
    _, state, _ = stored(db, table)
    return table, tokens, state


def test_bad_actions_are_refused(
    client: TestClient, db: Path, game: tuple[str, dict[str, str], cr.GameState]
) -> None:
    table, tokens, state = game
    token = tokens[str(state.current_player)]
    url = f"/api/tables/{table}/actions"
    legal = cr.legal_actions(state)
    illegal = next(a for a in cr.actions.ALL_ACTIONS if a not in legal)
    cases: list[tuple[dict[str, Any], int, str]] = [
        ({"content": b"nope"}, 400, "body: invalid JSON at line 1, column 1"),
        ({"json": {"type": "pass"}}, 400, 'body: expected {"action": <action document>'),
        ({"json": {"action": {"type": "pass"}, "x": 1}}, 400, "body: expected"),
        ({"json": {"move": 0}}, 400, "body: expected"),
        ({"json": {"action": cr.encode_action(legal[0]), "move": -1}}, 400, "move: expected"),
        ({"json": {"action": cr.encode_action(legal[0]), "move": "0"}}, 400, "move: expected"),
        ({"json": {"action": cr.encode_action(legal[0]), "move": True}}, 400, "move: expected"),
        ({"json": {"action": cr.encode_action(legal[0]), "move": 1.0}}, 400, "move: expected"),
        ({"json": {"action": cr.encode_action(legal[0]), "move": 1}}, 409, "move yet"),
        ({"json": {"action": cr.encode_action(legal[0])}}, 400, 'body: expected {"action"'),
        ({"json": {"action": {"type": "fly"}, "move": 0}}, 400, "action.type: 'fly' is not one"),
        (
            {
                "json": {
                    "action": {"type": "lay", "species": "owl", "row": 4, "side": "left"},
                    "move": 0,
                }
            },
            400,
            "action.row: 4 is out of range",
        ),
        (
            {"json": {"action": {"type": "fly_home", "species": "dodo"}, "move": 0}},
            400,
            "action.species",
        ),
        (
            {"json": {"action": {"type": "pass", "row": 1}, "move": 0}},
            400,
            "action: unknown key 'row'",
        ),
        ({"json": {"action": cr.encode_action(illegal), "move": 0}}, 409, "is not legal"),
        ({"content": b"{" + b" " * MAX_BODY + b"}"}, 413, "more than the 65536"),
        ({"content": iter([b"{", b" " * MAX_BODY, b"}"])}, 413, "more than the 65536"),
    ]
    for query in ("?after=x", "?after=-1", "?after=1", "?after=%201"):
        cases.append(
            (
                {"json": {"action": cr.encode_action(legal[0]), "move": 0}, "query": query},
                400,
                "after",
            )
        )
    before = row_counts(db)
    for request, status, message in cases:
        query = request.pop("query", "")
        response = client.post(url + query, headers=bearer(token), **request)
        assert response.status_code == status, (request, response.text)
        assert list(response.json()) == (["error", "move"] if status == 409 else ["error"])
        assert message in response.json()["error"], (request, response.text)
        assert row_counts(db) == before
    assert stored(db, table)[1] == state


def test_missing_and_wrong_tokens_are_refused(
    client: TestClient, db: Path, game: tuple[str, dict[str, str], cr.GameState]
) -> None:
    table, tokens, state = game
    action = {"action": cr.encode_action(cr.legal_actions(state)[0]), "move": 0}
    url = f"/api/tables/{table}"
    before = row_counts(db)
    cases = [
        ("POST", url + "/actions", {}, "a seat's token is needed to act"),
        ("POST", url + "/actions", bearer("x" + tokens["0"]), "not one of this table's seats"),
        ("GET", url, bearer(tokens["0"][:-1]), "not one of this table's seats"),
        ("GET", url, {"Authorization": f"Basic {tokens['0']}"}, "expected 'Bearer <token>'"),
        ("GET", url, {"Authorization": "Bearer"}, "expected 'Bearer <token>'"),
    ]
    for method, path, headers, message in cases:
        response = client.request(method, path, headers=headers, json=action)
        assert response.status_code == 401, response.text
        assert response.headers["www-authenticate"].startswith("Bearer")
        assert message in response.json()["error"]
    assert row_counts(db) == before


def test_unknown_tables_and_paths_are_404(client: TestClient, db: Path) -> None:
    table, tokens = create(client, ["human", "greedy"])
    wait_for_people(client, table)
    before = row_counts(db)
    for method, path in [
        ("GET", "/api/tables/nope"),
        ("POST", "/api/tables/nope/actions"),
        ("GET", "/api/nothing"),
        ("GET", "/static/nothing-here.js"),
    ]:
        response = client.request(
            method, path, headers=bearer(tokens["0"]), json={"action": {"type": "pass"}}
        )
        assert response.status_code == 404, path
        assert list(response.json()) == ["error"]
    assert client.get("/api/tables/nope").json() == {"error": "no table 'nope'"}
    response = client.get("/api/tables")
    assert response.status_code == 405
    assert response.json() == {"error": "GET is not allowed on /api/tables"}
    assert row_counts(db) == before


def test_a_move_sent_twice_is_refused_the_second_time(client: TestClient, db: Path) -> None:
    table, tokens = create(client, ["human", "greedy"], seed=BIG_SEED)
    headers = bearer(tokens["0"])
    wait_for_people(client, table)
    document = client.get(f"/api/tables/{table}", headers=headers).json()
    move = document["move"]
    body = {"action": document["legal_actions"][0], "move": move}
    first = client.post(f"/api/tables/{table}/actions", json=body, headers=headers)
    assert first.status_code == 200, first.text
    check_answer(db, first.json(), 0)
    assert first.json()["move"] == move + 1  # the human's move only: the bot answers later
    now = wait_for_people(client, table)["move"]
    before = row_counts(db)
    again = client.post(f"/api/tables/{table}/actions", json=body, headers=headers)
    assert again.status_code == 409, again.text
    assert again.json() == {
        "error": f"move {move} was already played: the table is at move {now} (a move sent "
        "twice, or an answer to an old document; read the table again)",
        "move": now,
    }
    assert row_counts(db) == before
    # The same action with the move number now in force is taken, if still legal.
    document = client.get(f"/api/tables/{table}", headers=headers).json()
    body = {"action": document["legal_actions"][0], "move": document["move"]}
    third = client.post(f"/api/tables/{table}/actions", json=body, headers=headers)
    assert third.status_code == 200, third.text
    assert row_counts(db)[1] > before[1]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_previews_are_those_of_the_seats_view(client: TestClient, db: Path, seed: int) -> None:
    rng = random.Random(seed)
    options = {
        "refill_trigger": rng.choice(["capture", "same_species_lay"]),
        "round_end_timing": rng.choice(["immediate", "end_of_turn"]),
        "optional_draw_if_adjacent": rng.choice([True, False]),
    }
    table, tokens = create(client, ["human", "human", "random"], options=options)
    previews = 0
    after = 0  # the events come as a polling client asks for them: the new ones only
    for _ in range(400):
        after = wait_for_people(client, table, after=after)["next_event"]  # the bot plays
        _, state, _ = stored(db, table)
        if state.is_over:
            break
        seat = state.current_player
        path = f"/api/tables/{table}?after={after}"
        document = client.get(path, headers=bearer(tokens[str(seat)])).json()
        view = cr.observe(state, seat)
        legal = cr.legal_actions(view)
        assert document["previews"] == [expected_preview(view, action) for action in legal]
        previews += len(legal)
        other = client.get(path, headers=bearer(tokens[str(1 - seat)])).json()
        assert other["legal_actions"] == other["previews"] == []
        pick = rng.randrange(len(legal))
        body = {"action": document["legal_actions"][pick], "move": document["move"]}
        response = client.post(
            f"/api/tables/{table}/actions?after={after}",
            json=body,
            headers=bearer(tokens[str(seat)]),
        )
        assert response.status_code == 200, response.text
    assert previews > 200


def test_a_seat_bot_chooses_as_a_fresh_bot_told_the_whole_history() -> None:
    """The old behaviour: a bot built per move, given the knowledge folded from the start."""
    options = cr.GameOptions(num_players=2)
    spec = cr.bots.parse_bot_spec("ismcts:iterations=40")
    bot_seed, seed = 12345, 8
    rng = random.Random(8)
    match = cr.Match(options, seed, [None, SeatBot(spec, bot_seed, 1)])
    known = cr.Knowledge.at_setup(cr.new_game(options, seed))
    state = match.state
    checked = 0
    while not match.is_over and match.move < 80:
        if match.to_act == 0:
            action = rng.choice(match.legal_actions(0))
            match.act(0, action, move=match.move)
        else:
            move = match.move
            fresh = cr.bots.IsmctsBot(seed=derive_seed(bot_seed, 1, move), iterations=40)
            expected = fresh.choose(match.view(1), knowledge=known)
            action = match.play_bot()  # type: ignore[assignment]
            assert action == expected, move
            checked += 1
        state, events = cr.step(state, action)
        known = cr.knowledge.learn(known, cr.visible_events(events, 1), 1)
        assert state == match.state
    assert checked >= 15
    # Rebuilt from the record in the middle of the game, the seat chooses the same.
    record = match.record()
    cut = cr.GameRecord(record.options, record.seed, record.actions[:-7])
    again = cr.Match.from_record(cut, [None, SeatBot(spec, bot_seed, 1)], names=["a", "b"])
    for action in record.actions[-7:]:
        if again.to_act == 1:
            assert again.play_bot() == action
        else:
            again.act(0, action)
    assert again.state == match.state


# --------------------------------------------------------------------------- hints

HINT_BUDGET = 100  # simulations per hint in these tests: enough for the shape, and fast


@pytest.fixture
def hint_client(db: Path) -> Iterator[TestClient]:
    with local_client(db, hint_simulations=HINT_BUDGET) as test_client:
        yield test_client


def expert() -> ModuleType:
    """The expert's module, or a skip without the batch extra (NumPy and numba)."""
    module: ModuleType = pytest.importorskip("cuckoo_rules.bots.expert", reason="no batch extra")
    return module


def rebuilt_position(db: Path, table: str, seat: int) -> tuple[cr.PlayerView, cr.Knowledge]:
    """The seat's view and knowledge, rebuilt here from the stored record alone."""
    record, _, _ = stored(db, table)
    match = cr.Match.from_record(record, [None] * record.options.num_players)
    return match.view(seat), match.knowledge(seat)


def test_a_hint_is_the_experts_best_moves_from_the_seats_view_and_knowledge(
    hint_client: TestClient, db: Path, hint_spy: HintSpy
) -> None:
    calls, real_hint = hint_spy.calls, hint_spy.real
    table, tokens = create(hint_client, ["human", "greedy"], seed=BIG_SEED)
    me = bearer(tokens["0"])
    rng = random.Random(4)
    for _ in range(8):  # some history first, so that the knowledge is more than the setup
        wait_for_people(hint_client, table)
        document = hint_client.get(f"/api/tables/{table}", headers=me).json()
        body = {"action": rng.choice(document["legal_actions"]), "move": document["move"]}
        assert hint_client.post(f"/api/tables/{table}/actions", json=body, headers=me).is_success
    wait_for_people(hint_client, table)
    document = hint_client.get(f"/api/tables/{table}", headers=me).json()
    assert document["legal_actions"], "the human is to act"
    before = row_counts(db)

    response = hint_client.get(f"/api/tables/{table}/hint", headers=me)
    assert response.status_code == 200, response.text
    answer = response.json()
    assert list(answer) == ["move", "simulations", "hints"]
    assert answer["move"] == document["move"]
    assert answer["simulations"] == HINT_BUDGET
    assert len(answer["hints"]) == 3
    view, knowledge = rebuilt_position(db, table, 0)
    for item in answer["hints"]:
        assert list(item) == ["action", "text", "win_chance"]
        assert item["action"] in document["legal_actions"]
        assert 0.0 <= item["win_chance"] <= 1.0
        assert item["text"] == describe_move(cr.decode_action(item["action"]), view)
        assert item["text"].startswith("You ")
    assert len({json.dumps(item["action"]) for item in answer["hints"]}) == 3
    # The search was given the seat's view and what its history proves, nothing else...
    assert len(calls) == 1
    args, kwargs = calls[0]
    assert args == (view, knowledge)
    assert kwargs == {"top": 3, "simulations": HINT_BUDGET}
    # ... and the answer is that search's, word for word: nothing hidden can be in it.
    expected = real_hint(view, knowledge, top=3, simulations=HINT_BUDGET)
    assert answer["hints"] == [
        {
            "action": cr.encode_action(estimate.action),
            "text": describe_move(estimate.action, view),
            "win_chance": estimate.win_chance,
        }
        for estimate in expected
    ]
    assert not SECRET_KEYS & set(all_keys(answer))
    assert str(BIG_SEED) not in response.text
    assert tokens["0"] not in response.text
    assert row_counts(db) == before  # a hint stores nothing

    # Asked again at the same move: the same answer, without a new search.
    again = hint_client.get(f"/api/tables/{table}/hint", headers=me)
    assert again.json() == answer
    assert len(calls) == 1
    # In German: the same moves of the same search, told in German.
    german = hint_client.get(f"/api/tables/{table}/hint?lang=de", headers=me).json()
    assert [item["action"] for item in german["hints"]] == [h["action"] for h in answer["hints"]]
    assert [item["text"] for item in german["hints"]] == [
        describe_move(cr.decode_action(item["action"]), view, "de") for item in german["hints"]
    ]
    assert all(item["text"].startswith("Du ") for item in german["hints"])
    assert len(calls) == 1
    unknown = hint_client.get(f"/api/tables/{table}/hint?lang=xx", headers=me)
    assert unknown.status_code == 400
    assert unknown.json()["error"].startswith("lang: ")
    # The hinted move can be played; the next hint answers the next move.
    body = {"action": answer["hints"][0]["action"], "move": answer["move"]}
    played = hint_client.post(f"/api/tables/{table}/actions", json=body, headers=me)
    assert played.status_code == 200, played.text
    if played.json()["legal_actions"]:
        later = hint_client.get(f"/api/tables/{table}/hint", headers=me).json()
        assert later["move"] == played.json()["move"] > answer["move"]
        assert len(calls) == 2


def test_a_hint_is_for_the_seat_to_act_only(hint_client: TestClient, db: Path) -> None:
    table, tokens = create(hint_client, ["human", "human"])
    _, state, _ = stored(db, table)
    mover, other = state.current_player, 1 - state.current_player
    url = f"/api/tables/{table}/hint"
    elsewhere, tokens_elsewhere = create(hint_client, ["human", "greedy"])
    wait_for_people(hint_client, elsewhere)
    before = row_counts(db)
    response = hint_client.get(url, headers=bearer(tokens[str(other)]))
    assert response.status_code == 409, response.text
    assert response.json() == {
        "error": f"it is not your turn: player {mover} is to act (the match is at move 0)",
        "move": 0,
    }
    cases = [
        ({}, "a seat's token is needed for a hint"),
        (bearer(tokens_elsewhere["0"]), "the token is not one of this table's seats"),
        (bearer(tokens[str(mover)][:-1]), "the token is not one of this table's seats"),
        ({"Authorization": f"Basic {tokens[str(mover)]}"}, "expected 'Bearer <token>'"),
    ]
    for headers, message in cases:
        response = hint_client.get(url, headers=headers)
        assert response.status_code == 401, response.text
        assert response.headers["www-authenticate"].startswith("Bearer")
        assert message in response.json()["error"]
    assert hint_client.get("/api/tables/nope/hint", headers=bearer(tokens["0"])).status_code == 404
    assert hint_client.post(url, headers=bearer(tokens[str(mover)])).status_code == 405
    assert row_counts(db) == before  # a refused hint stores nothing


def test_a_hint_without_the_batch_extra_says_what_to_install(
    hint_client: TestClient, db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table, tokens = create(hint_client, ["human", "human"])
    _, state, _ = stored(db, table)
    monkeypatch.setitem(sys.modules, "cuckoo_rules.bots.expert", None)  # as if not installed
    response = hint_client.get(
        f"/api/tables/{table}/hint", headers=bearer(tokens[str(state.current_player)])
    )
    assert response.status_code == 501, response.text
    assert list(response.json()) == ["error"]
    assert "pip install 'cuckoo-rules[batch]'" in response.json()["error"]
    # The rest of the table is served as before.
    document = hint_client.get(f"/api/tables/{table}", headers=bearer(tokens["0"]))
    check_answer(db, document.json(), 0)


def test_a_hinted_move_is_described_as_the_narration_will_tell_it() -> None:
    # Every legal action of every decision of a random game: a lay or a flock is told in
    # the sentence the narration then tells of it, the others in fixed words.
    fixed = {
        ("draw", cr.Draw()): "You draw 2 cards.",
        ("draw", cr.Pass()): "You do not draw.",
        ("flock", cr.Pass()): "You fly no flock home.",
    }
    rng = random.Random(5)
    state = cr.new_game(cr.GameOptions(num_players=3), 5)
    told: set[str] = set()
    while not state.is_over:
        seat = state.current_player
        view = cr.observe(state, seat)
        for action in cr.legal_actions(view):
            text = describe_move(action, view)
            if isinstance(action, cr.Lay | cr.FlyHome):
                _, events = cr.step(state, action)
                assert text == cr.narration.narrate(cr.visible_events(events, seat), seat)[0]
            else:
                assert text == fixed[view.phase.value, action]
            told.add(f"{type(action).__name__} at the {view.phase.value} step")
        state = cr.apply(state, rng.choice(cr.legal_actions(state)))
    kinds = [("Lay", "lay"), ("FlyHome", "flock"), ("Draw", "draw"), ("Pass", "draw")]
    assert told == {f"{kind} at the {step} step" for kind, step in [*kinds, ("Pass", "flock")]}
    # In another language, the narration's sentences of that language.
    view = cr.observe(cr.new_game(cr.GameOptions(num_players=2), 7), 0)
    lay = cr.Lay(cr.Species.DUCK, 0, cr.Side.LEFT)
    assert describe_move(lay, view, "ru") == (
        "Вы выкладываете 3 утки слева в ряд 0 и забираете 1 малиновку и 1 сороку."
    )


def test_the_hint_budget_is_the_librarys_and_checked(db: Path) -> None:
    assert expert().DEFAULT_HINT_SIMULATIONS == HINT_SIMULATIONS
    for bad in (0, -5, 2.5, True):
        with pytest.raises(ValueError, match="hint_simulations: expected a positive integer"):
            create_app(db, hint_simulations=bad)  # type: ignore[arg-type]


def test_the_hint_queues_bounds_are_checked_and_set_by_the_serve_flags(db: Path) -> None:
    from cuckoo_rules.cli import build_parser
    from cuckoo_rules.cli.serve import _app_limits

    for name in ("hint_queue", "hint_queue_per_client"):
        for bad in (0, -5, 2.5, True):
            with pytest.raises(ValueError, match=f"{name}: expected a positive integer"):
                create_app(db, **{name: bad})  # type: ignore[arg-type]
    flags = ["serve", "--hint-queue", "3", "--hint-queue-per-client", "2"]
    app = create_app(db, bot_workers=0, **_app_limits(build_parser().parse_args(flags)))
    try:
        hints = app.state.api.hints
        assert (hints.max_waiting, hints.max_waiting_per_client) == (3, 2)
    finally:
        app.state.lobby.close()


# --------------------------------------------------------------------------- concurrency


def test_the_same_action_sent_at_once_eight_times_is_taken_once(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = create_app(db)
    store = app.state.lobby.store
    add_action = store.add_action

    def slow_add_action(table_id: str, index: int, action: cr.Action, *args: Any) -> None:
        time.sleep(0.05)  # a slow disk: the other requests arrive meanwhile
        add_action(table_id, index, action, *args)

    monkeypatch.setattr(store, "add_action", slow_add_action)

    async def race() -> list[int]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url=LOCAL) as client:
            created = await client.post("/api/tables", json={"seats": ["human", "human"]})
            table, tokens = created.json()["table"], dict(created.json()["tokens"])
            for seat, invitation in created.json()["invitations"].items():
                accepted = await client.post(
                    f"/api/tables/{table}/accept", json={"invitation": invitation}
                )
                tokens[seat] = accepted.json()["token"]
            _, state, _ = stored(db, table)
            lay = next(a for a in cr.legal_actions(state) if isinstance(a, cr.Lay))
            headers = bearer(tokens[str(state.current_player)])
            responses = await asyncio.gather(
                *(
                    client.post(
                        f"/api/tables/{table}/actions",
                        json={"action": cr.encode_action(lay), "move": 0},
                        headers=headers,
                    )
                    for _ in range(8)
                )
            )
            return sorted(response.status_code for response in responses)

    try:
        statuses = asyncio.run(race())
    finally:
        app.state.lobby.close()
    assert statuses == [200] + [409] * 7
    assert row_counts(db) == (1, 1)


# --------------------------------------------------------------------------- restarts


def test_a_game_goes_on_after_a_restart(db: Path) -> None:
    rng = random.Random(7)
    with local_client(db) as client:
        table, tokens = create(client, ["random", "human"], seed=11)
        for _ in range(10):
            wait_for_people(client, table)
            document = client.get(f"/api/tables/{table}", headers=bearer(tokens["1"])).json()
            action = rng.choice(document["legal_actions"])
            body = {"action": action, "move": document["move"]}
            response = client.post(
                f"/api/tables/{table}/actions", json=body, headers=bearer(tokens["1"])
            )
            assert response.status_code == 200
        wait_for_people(client, table)
        before = client.get(f"/api/tables/{table}", headers=bearer(tokens["1"])).json()
        spectator = client.get(f"/api/tables/{table}").json()
    with local_client(db) as client:
        assert client.get(f"/api/tables/{table}", headers=bearer(tokens["1"])).json() == before
        assert client.get(f"/api/tables/{table}").json() == spectator
        check_answer(db, before, 1)
    with local_client(db) as client:  # and once more, to the end
        final = play_to_the_end(client, db, table, {"1": tokens["1"]}, rng)
    record, _, _ = stored(db, table)
    assert final["view"]["winners"] == list(cr.records.final_state(record).winners)


def test_bots_that_were_to_act_act_on_restart(db: Path) -> None:
    with local_client(db) as client:
        table, tokens = create(client, ["human", "greedy"], seed=BIG_SEED)
        wait_for_people(client, table)
        _, state, _ = stored(db, table)
        if state.current_player != 0:
            pytest.fail("seat 0 should be to act after the bots")
    # The server stopped after committing the human's actions, before the bot's answer.
    record, state, _ = stored(db, table)
    actions = list(record.actions)
    with closing(sqlite3.connect(db)) as connection, connection:
        while state.current_player == 0:
            action = cr.legal_actions(state)[0]
            connection.execute(
                "INSERT INTO actions (table_id, idx, action) VALUES (?, ?, ?)",
                (table, len(actions), json.dumps(cr.encode_action(action))),
            )
            actions.append(action)
            state = cr.apply(state, action)
    assert not state.is_over
    with local_client(db) as client:  # the bots act when the server starts, in the background
        deadline = time.monotonic() + 30
        while stored(db, table)[1].current_player != 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        record_now, state_now, _ = stored(db, table)
        assert len(record_now.actions) > len(actions)
        assert record_now.actions[: len(actions)] == tuple(actions)
        assert state_now.current_player == 0 or state_now.is_over
        check_answer(db, client.get(f"/api/tables/{table}", headers=bearer(tokens["0"])).json(), 0)


def test_a_failing_bot_is_tried_twice_then_greedy_plays_that_move_and_the_table_says_so(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []

    def broken(bot: cr.bots.RandomBot, view: cr.PlayerView) -> cr.Action:
        calls.append(view.turn)
        raise RuntimeError("this bot is broken")

    # In-process bots, so that the broken bot is the one patched here.
    monkeypatch.setattr(cr.bots.RandomBot, "choose", broken)
    with local_client(db, bot_runner=ThreadBotRunner()) as client:
        table, tokens = create(client, ["human", "random"], seed=0)  # seat 1 starts
        wait_for_people(client, table)  # the bot plays in the background
        assert calls == [1, 1]  # tried once more, then replaced for that move
        record, _, _ = stored(db, table)
        assert len(record.actions) >= 1
        # The stand-in is the greedy bot with the decision's seed: its choice, exactly.
        greedy = cr.bots.GreedyBot(seed=derive_seed(setup_of(db, table).bot_seed, 1, 0))
        assert record.actions[0] == greedy.choose(
            cr.observe(cr.new_game(record.options, record.seed), 1)
        )
        document = client.get(f"/api/tables/{table}", headers=bearer(tokens["0"])).json()
        assert document["view"]["current_player"] == 0
        (notice,) = [n for n in document["notices"] if n["move"] == 0]
        failure = "RuntimeError: this bot is broken"
        assert notice["text"].startswith(
            f"The bot of P1 random (random) failed twice ({failure}; {failure})"
        )
        assert notice["text"].endswith("the greedy bot played this move instead.")
        assert note_of(db, table, 0) == notice["text"]
    monkeypatch.undo()
    with local_client(db, bot_runner=ThreadBotRunner()) as client:  # a restart replays it
        again = client.get(f"/api/tables/{table}", headers=bearer(tokens["0"])).json()
        assert again["notices"] == document["notices"]
    assert stored(db, table)[0].actions[: len(record.actions)] == record.actions


def test_a_bot_move_that_was_not_stored_is_tried_again(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = create_app(db)
    with TestClient(app, base_url=LOCAL, headers={"Content-Type": "application/json"}) as client:
        store = app.state.lobby.store
        add_action = store.add_action
        failures = [StorageUnavailable("disk full")]

        def flaky_add_action(table_id: str, index: int, action: cr.Action, *args: Any) -> None:
            if failures:
                raise failures.pop()
            add_action(table_id, index, action, *args)

        monkeypatch.setattr(store, "add_action", flaky_add_action)
        table, tokens = create(client, ["human", "random"], seed=0)  # seat 1 starts
        # The bot's first move is refused by the store; the bots' task tries it again
        # by itself, a moment later.
        wait_for_people(client, table)
        assert failures == []
        assert row_counts(db)[1] >= 1
        document = client.get(f"/api/tables/{table}", headers=bearer(tokens["0"])).json()
        check_answer(db, document, 0)
        assert document["legal_actions"]


def test_a_corrupt_database_is_not_served(db: Path) -> None:
    with local_client(db) as client:
        table, _ = create(client, ["human", "greedy"], seed=BIG_SEED)
        wait_for_people(client, table)
        record, state, _ = stored(db, table)
    illegal = next(a for a in cr.actions.ALL_ACTIONS if a not in cr.legal_actions(state))
    with closing(sqlite3.connect(db)) as connection, connection:
        connection.execute(
            "INSERT INTO actions (table_id, idx, action) VALUES (?, ?, ?)",
            (table, len(record.actions), json.dumps(cr.encode_action(illegal))),
        )
    with pytest.raises(
        cr.CuckooError,
        match=rf"table '{table}': actions\[\d+\]( \(move \d+, turn \d+\))?: .* is not legal",
    ):
        create_app(db)


# --------------------------------------------------------------------------- hostile bodies


def test_a_body_nested_2000_deep_is_refused(client: TestClient, db: Path) -> None:
    before = row_counts(db)
    response = client.post("/api/tables", content=b"[" * 2000)
    assert response.status_code == 400, response.text
    assert response.json() == {
        "error": "body: invalid JSON at line 1, column 65 (char 64): arrays and objects "
        "nested more than 64 levels deep"
    }
    assert row_counts(db) == before


def test_a_seed_of_4301_digits_is_refused(client: TestClient, db: Path) -> None:
    before = row_counts(db)
    body = b'{"seats": ["human", "greedy"], "seed": ' + b"9" * 4301 + b"}"
    response = client.post("/api/tables", content=body)
    assert response.status_code == 400, response.text
    assert response.json() == {
        "error": "body: invalid JSON at line 1, column 40 (char 39): a number with 4301 "
        "digits in a row (at most 40)"
    }
    assert row_counts(db) == before
