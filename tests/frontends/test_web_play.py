"""Tables and people on the web server: names, claimed seats, the lobby, joining, rematches,
languages, and the bots playing in the background (never in the request's way).

In process (Starlette's test client, the lifespan running); every table document an
answer gives is checked against the truth rebuilt from the SQLite file
(:func:`tests.frontends.test_web_api.check_answer`). The push stream is tested against the real
server process in ``test_web_stream.py``.
"""

from __future__ import annotations

import itertools
import json
import random
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

import cuckoo_rules as cr
from cuckoo_rules import narration
from cuckoo_rules.narration import describe_event, seat_name
from cuckoo_rules.web.bots import BotJob, Decision, ThreadBotRunner
from cuckoo_rules.web.parsing import MAX_NAME_LENGTH
from tests.frontends.test_web_api import (
    BIG_SEED,
    accept_invitations,
    bearer,
    check_answer,
    claimed_of,
    create,
    create_document,
    local_client,
    narration_of,
    play_to_the_end,
    rematch_of,
    row_counts,
    setup_of,
    stored,
    wait_for_people,
)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "tables.sqlite3"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with local_client(db, max_open_per_client=100) as test_client:
        yield test_client


def document_of(client: TestClient, table: str, token: str | None = None, **query: Any) -> Any:
    headers = {} if token is None else bearer(token)
    response = client.get(f"/api/tables/{table}", headers=headers, params=query)
    assert response.status_code == 200, response.text
    return response.json()


def finish(client: TestClient, table_id: str, seed: int = 0) -> None:
    """Play a table of humans to its end at once, on the server's table itself (no HTTP)."""
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    table = lobby.get(table_id)
    rng = random.Random(seed)
    match = table.match
    while not match.is_over:
        table.play(match.to_act, rng.choice(match.legal_actions(match.to_act)), match.move)
    lobby.settle(table)


def stored_row(db: Path, table: str) -> tuple[Any, ...]:
    """The columns of a table that a refused request must leave as they were."""
    with closing(sqlite3.connect(db)) as connection:
        row: tuple[Any, ...] = connection.execute(
            "SELECT token_hashes, names, claimed, rematch, invitations FROM tables WHERE id = ?",
            (table,),
        ).fetchone()
    return row


# --------------------------------------------------------------------------- names


def test_names_are_shown_to_every_seat_and_in_the_narration(client: TestClient, db: Path) -> None:
    names = ["  Ada ", None, "Grace ✈"]
    response = client.post(
        "/api/tables", json={"seats": ["human", "greedy", "human"], "names": names}
    )
    assert response.status_code == 201, response.text
    created = response.json()
    assert created["names"] == ["Ada", "greedy", "Grace ✈"]  # stripped; a bot its kind
    assert setup_of(db, created["table"]).names == ("Ada", "", "Grace ✈")
    spectator = document_of(client, created["table"])
    assert spectator["players"] == ["Ada", "greedy", "Grace ✈"]
    assert spectator["names"] == ["P0 Ada", "P1 greedy", "P2 Grace ✈"]
    # Grace takes her seat without a name of her own: the one given stays.
    tokens = accept_invitations(client, created)
    assert document_of(client, created["table"])["players"] == ["Ada", "greedy", "Grace ✈"]
    # A whole game, every answer checked: the narration names the seats so.
    final = play_to_the_end(client, db, created["table"], tokens, random.Random(3))
    assert final["outcome"]["text"].startswith("Game over: ")
    told = " ".join(text for text in final["narration"] if text)
    assert "P2 Grace ✈" in told or "P1 greedy" in told


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"names": "Ada"}, "names: expected an array of 2 names or nulls (one per seat)"),
        ({"names": ["Ada"]}, "names: expected an array of 2 names or nulls"),
        ({"names": ["Ada", 7]}, "names[1]: expected a name (a string) or null, got 7"),
        (
            {"names": ["x" * (MAX_NAME_LENGTH + 1), None]},
            f"names[0]: '{'x' * 25}' is 25 characters long, more than the 24 a name may have",
        ),
        (
            {"names": ["a\nb", None]},
            "names[0]: 'a\\nb' has a character that is not printable (U+000A)",
        ),
        ({"names": [None, "\u202eevil"]}, "names[1]: "),
        ({"lobby": "yes"}, "lobby: expected true or false, got 'yes'"),
        ({"lobby": 1}, "lobby: expected true or false, got 1"),
    ],
)
def test_bad_names_and_lobby_flags_are_refused(
    client: TestClient, db: Path, fields: dict[str, Any], message: str
) -> None:
    before = row_counts(db)
    response = client.post("/api/tables", json={"seats": ["human", "human"], **fields})
    assert response.status_code == 400, response.text
    assert list(response.json()) == ["error"]
    assert message in response.json()["error"]
    assert row_counts(db) == before


def test_a_name_of_24_characters_and_no_names_are_fine(client: TestClient, db: Path) -> None:
    name = "Ж" * MAX_NAME_LENGTH
    table, _ = create(client, ["human", "human"], names=[f" {name} ", ""])
    assert setup_of(db, table).names == (name, "")
    assert document_of(client, table)["players"] == [name, None]
    table, _ = create(client, ["human", "random"])
    assert document_of(client, table)["players"] == [None, "random"]


# --------------------------------------------------------------------------- seats


def test_a_seat_is_free_until_its_invitation_is_exchanged(db: Path) -> None:
    with local_client(db) as client:
        created = create_document(client, ["human", "human", "human"])
        table, invitations = created["table"], created["invitations"]
        assert document_of(client, table)["free"] == [1, 2]  # the creator holds seat 0
        assert claimed_of(db, table) == [0]
        # An invitation is not a token: it reads and plays nothing, and claims nothing.
        _, state, _ = stored(db, table)
        idle = next(s for s in (1, 2) if s != state.current_player)
        body = {"action": cr.encode_action(cr.legal_actions(state)[0]), "move": 0}
        for seat in (1, 2):
            headers = bearer(invitations[str(seat)])
            refused = client.post(f"/api/tables/{table}/actions", json=body, headers=headers)
            assert refused.status_code == 401
            assert "an invitation, not a seat's token" in refused.json()["error"]
            assert client.get(f"/api/tables/{table}", headers=headers).status_code == 401
        wrong = client.post(f"/api/tables/{table}/accept", json={"invitation": "x" * 43})
        assert wrong.status_code == 409
        assert document_of(client, table)["free"] == [1, 2]
        assert claimed_of(db, table) == [0]
        # Exchanged: the seat is held by the new token, and stays so.
        accepted = client.post(
            f"/api/tables/{table}/accept", json={"invitation": invitations[str(idle)]}
        )
        assert accepted.status_code == 200, accepted.text
        check_answer(db, document_of(client, table, accepted.json()["token"]), idle)
        free = [s for s in (1, 2) if s != idle]
        assert document_of(client, table)["free"] == free
        assert claimed_of(db, table) == sorted({0, idle})
    with local_client(db) as client:  # after a restart too
        assert document_of(client, table)["free"] == free


# --------------------------------------------------------------------------- the lobby


def test_the_lobby_lists_open_tables_with_a_free_seat_newest_first(
    client: TestClient, db: Path
) -> None:
    made = create_document(client, ["human", "human"], names=["Ann", None], lobby=True)
    ann, ann_tokens = made["table"], made["tokens"]
    create(client, ["human", "greedy"], lobby=True)  # no seat to take
    create_document(client, ["human", "human"])  # not in the lobby
    time.sleep(1.05)  # the newest: a second later (SQLite keeps seconds)
    three = create_document(
        client, ["human", "human", "random"], lobby=True, options={"initial_row_length": 4}
    )["table"]
    response = client.get("/api/lobby")
    assert response.status_code == 200
    listed = response.json()["tables"]
    assert [entry["table"] for entry in listed] == [three, ann]
    entry = listed[1]
    assert list(entry) == ["table", "seats", "players", "free", "options", "created"]
    assert entry["seats"] == ["human", "human"]
    assert entry["players"] == ["Ann", None]
    assert entry["free"] == [1]
    assert entry["options"] == cr.GameOptions(num_players=2).to_json()
    assert listed[0]["options"]["initial_row_length"] == 4
    assert listed[0]["players"] == [None, None, "random"]
    created = [time.mktime(time.strptime(e["created"][:19], "%Y-%m-%dT%H:%M:%S")) for e in listed]
    assert created[0] > created[1]
    # Nothing secret is listed: no token, no invitation, no seed, no hash.
    for token in [*ann_tokens.values(), *made["invitations"].values()]:
        assert token not in response.text
    assert str(setup_of(db, ann).seed) not in response.text
    assert "hash" not in response.text
    # A table whose seats are all taken leaves the lobby.
    ann_tokens = accept_invitations(client, made)
    assert document_of(client, ann, ann_tokens["1"])["free"] == []
    assert [e["table"] for e in client.get("/api/lobby").json()["tables"]] == [three]


def test_the_lobby_lists_at_most_50_tables(db: Path) -> None:
    with local_client(db, max_open_per_client=100, tables_per_minute=60) as client:
        made = [create_document(client, ["human", "human"], lobby=True)["table"] for _ in range(52)]
        listed = [entry["table"] for entry in client.get("/api/lobby").json()["tables"]]
    assert len(listed) == 50
    assert set(listed) <= set(made)


# --------------------------------------------------------------------------- joining


def test_joining_a_free_seat_gives_it_a_new_token(db: Path) -> None:
    with local_client(db) as client:
        created = create_document(
            client, ["human", "human", "human"], names=["Ann", None, None], lobby=True
        )
        table, tokens, invitations = created["table"], created["tokens"], created["invitations"]
        url = f"/api/tables/{table}/join"
        response = client.post(url, json={"name": " Bob ", "seat": 2})
        assert response.status_code == 200, response.text
        joined = response.json()
        assert list(joined) == ["table", "seat", "token", "move"]
        assert (joined["table"], joined["seat"], joined["move"]) == (table, 2, 0)
        assert joined["token"] not in [*tokens.values(), *invitations.values()]
        # The invitation of that seat no longer works; the new token does.
        refused = client.post(f"/api/tables/{table}/accept", json={"invitation": invitations["2"]})
        assert refused.status_code == 409
        mine = document_of(client, table, joined["token"])
        check_answer(db, mine, 2)
        assert mine["players"] == ["Ann", None, "Bob"]
        assert mine["names"] == ["P0 Ann", "P1", "P2 Bob"]
        assert mine["free"] == [1]
        # Seat 2 is taken; the next join gets the free one, then none is left.
        before = stored_row(db, table)
        taken = client.post(url, json={"name": "Carl", "seat": 2})
        assert taken.status_code == 409
        assert taken.json() == {"error": "seat 2 is taken; the free seats are [1]"}
        assert stored_row(db, table) == before
        second = client.post(url, json={"name": None}).json()
        assert second["seat"] == 1
        full = client.post(url, json={"name": "Dan"})
        assert full.status_code == 409
        assert full.json()["error"] == "no seat of this table is free: every human seat is taken"
        hashes = json.loads(stored_row(db, table)[0])
        assert hashes[1] != hashes[2]
    with local_client(db) as client:  # after a restart: the new tokens, not the old ones
        assert document_of(client, table, joined["token"])["seat"] == 2
        late = client.post(f"/api/tables/{table}/accept", json={"invitation": invitations["1"]})
        assert late.status_code == 409
        # The people who joined play their seats: a round of turns.
        seats = {0: tokens["0"], 1: second["token"], 2: joined["token"]}
        played: set[int] = set()
        rng = random.Random(4)
        while len(played) < 3:
            _, state, _ = stored(db, table)
            seat = state.current_player
            document = document_of(client, table, seats[seat])
            body = {"action": rng.choice(document["legal_actions"]), "move": document["move"]}
            answer = client.post(
                f"/api/tables/{table}/actions", json=body, headers=bearer(seats[seat])
            )
            assert answer.status_code == 200, answer.text
            check_answer(db, answer.json(), seat)
            played.add(seat)
        finish(client, table)
        after_end = client.post(f"/api/tables/{table}/join", json={"name": "Eve"})
        assert after_end.status_code == 409
        assert after_end.json()["error"].startswith("the game is over")


def test_bad_joins_are_refused_and_change_nothing(client: TestClient, db: Path) -> None:
    table = create_document(client, ["human", "greedy", "human"], lobby=True)["table"]
    private = create_document(client, ["human", "human"])["table"]
    wait_for_people(client, table)
    url = f"/api/tables/{table}/join"
    cases: list[tuple[str, Any, int, str]] = [
        (url, {"name": "Ann", "seat": 1}, 400, "seat: 1 is played by a bot (greedy)"),
        (url, {"name": "Ann", "seat": 3}, 400, "seat: 3 is not a seat of this table (0 to 2)"),
        (url, {"name": "Ann", "seat": -1}, 400, "seat: expected a seat number"),
        (url, {"name": "Ann", "seat": True}, 400, "seat: expected a seat number"),
        (url, {"name": "Ann", "seat": 0}, 409, "seat 0 is taken; the free seats are [2]"),
        (url, {"name": 3}, 400, "name: expected a name (a string) or null, got 3"),
        (url, {"name": "x" * 30}, 400, "name: "),
        (url, {"nick": "Ann"}, 400, 'body: expected {"name": <your name or null>}'),
        (url, ["Ann"], 400, "body: expected"),
        (f"/api/tables/{private}/join", {"name": "Ann"}, 403, "this table is not in the lobby"),
        ("/api/tables/nope/join", {"name": "Ann"}, 404, "no table 'nope'"),
    ]
    rows = {t: stored_row(db, t) for t in (table, private)}
    before = row_counts(db)
    for path, body, status, message in cases:
        response = client.post(path, json=body)
        assert response.status_code == status, (body, response.text)
        assert message in response.json()["error"], (body, response.text)
    assert {t: stored_row(db, t) for t in rows} == rows
    assert row_counts(db) == before


# --------------------------------------------------------------------------- rematches


def test_a_rematch_has_the_same_seats_people_and_options_and_a_new_deal(
    client: TestClient, db: Path
) -> None:
    options = {"round_end_timing": "immediate"}
    table, tokens = create(
        client, ["human", "human"], names=["Ann", "Bob"], lobby=True, options=options
    )
    url = f"/api/tables/{table}/rematch"
    early = client.post(url, json={}, headers=bearer(tokens["0"]))
    assert early.status_code == 409
    assert early.json() == {
        "error": "the game is not over: a rematch starts once the game is over (at move 0)",
        "move": 0,
    }
    finish(client, table, 5)
    assert client.post(url, json={}).status_code == 401  # a seat asks, not a spectator
    _, elsewhere = create(client, ["human", "human"])
    assert client.post(url, json={}, headers=bearer(elsewhere["0"])).status_code == 401
    assert client.post(url, json={"x": 1}, headers=bearer(tokens["0"])).status_code == 400
    before = row_counts(db)
    response = client.post(url, content=b"", headers=bearer(tokens["1"]))  # no body is fine
    assert response.status_code == 201, response.text
    rematch = response.json()
    assert list(rematch) == ["table", "move", "deal"]
    assert rematch["move"] == 0
    assert rematch["deal"]["seed_source"] == "server"
    assert rematch["deal"]["seed"] is None
    assert row_counts(db) == (before[0] + 1, before[1])
    new = rematch["table"]
    # Asked again, by the other seat: the same rematch, nothing new stored.
    again = client.post(url, json={}, headers=bearer(tokens["0"]))
    assert again.status_code == 200
    assert again.json() == rematch
    assert row_counts(db) == (before[0] + 1, before[1])
    assert document_of(client, table)["rematch"] == new
    assert rematch_of(db, table) == new
    # The same seats, names, options and lobby flag; each token plays its old seat.
    old_setup, new_setup = setup_of(db, table), setup_of(db, new)
    assert (new_setup.seats, new_setup.names, new_setup.options, new_setup.lobby) == (
        old_setup.seats,
        old_setup.names,
        old_setup.options,
        old_setup.lobby,
    )
    assert new_setup.token_hashes == old_setup.token_hashes
    assert new_setup.seed != old_setup.seed
    assert new_setup.bot_seed != old_setup.bot_seed
    assert new_setup.salt != old_setup.salt
    for seat, token in tokens.items():
        document = document_of(client, new, token)
        check_answer(db, document, int(seat))
        assert document["players"] == ["Ann", "Bob"]
        assert document["free"] == []
        assert document["rematch"] is None
    assert document["deal"]["commitment"] == rematch["deal"]["commitment"]
    assert document["deal"]["commitment"] != document_of(client, table)["deal"]["commitment"]


def test_a_rematch_asked_at_once_by_every_seat_is_made_once(client: TestClient, db: Path) -> None:
    table, tokens = create(client, ["human", "human"])
    finish(client, table, 6)
    before = row_counts(db)
    start = threading.Barrier(6)
    answers: list[Any] = [None] * 6

    def ask(index: int) -> None:
        start.wait()
        token = tokens[str(index % 2)]
        response = client.post(f"/api/tables/{table}/rematch", json={}, headers=bearer(token))
        answers[index] = (response.status_code, response.json())

    threads = [threading.Thread(target=ask, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(status for status, _ in answers) == [200] * 5 + [201]
    assert len({document["table"] for _, document in answers}) == 1
    assert row_counts(db)[0] == before[0] + 1
    new = answers[0][1]["table"]
    check_answer(db, document_of(client, new), None)


def test_the_bots_of_a_rematch_play_in_the_background(client: TestClient, db: Path) -> None:
    table, tokens = create(client, ["human", "greedy"])
    play_to_the_end(client, db, table, tokens, random.Random(9))
    response = client.post(f"/api/tables/{table}/rematch", json={}, headers=bearer(tokens["0"]))
    assert response.status_code == 201
    new = response.json()["table"]
    wait_for_people(client, new)
    document = document_of(client, new, tokens["0"])
    check_answer(db, document, 0)
    assert document["legal_actions"]


def test_an_expired_table_has_no_rematch(client: TestClient, db: Path) -> None:
    table, tokens = create(client, ["human", "human"])
    client.app.state.lobby.expire_idle(time.time() + 10**9)  # type: ignore[attr-defined]
    response = client.post(f"/api/tables/{table}/rematch", json={}, headers=bearer(tokens["0"]))
    assert response.status_code == 409
    assert response.json()["error"].startswith("the table expired: a rematch starts once")


# --------------------------------------------------------------------------- languages


def bot_named(kind: str, language: str) -> str:
    """A bot seat nobody named, as the documents call it: its kind, or the language's word."""
    return kind if language == "en" else narration.PHRASES[language][f"web.bot.{kind}"]


def test_the_documents_speak_the_language_asked_for(client: TestClient, db: Path) -> None:
    table, tokens = create(client, ["human", "greedy"], seed=BIG_SEED, names=["Ann", None])
    rng = random.Random(7)
    for _ in range(6):
        wait_for_people(client, table)
        document = document_of(client, table, tokens["0"])
        body = {"action": rng.choice(document["legal_actions"]), "move": document["move"]}
        answer = client.post(
            f"/api/tables/{table}/actions?lang=de", json=body, headers=bearer(tokens["0"])
        )
        assert answer.status_code == 200
        _, _, events = stored(db, table, answer.json()["move"])
        seen = cr.visible_events(events, 0)
        assert answer.json()["narration"] == narration_of(
            seen, 0, ["Ann", bot_named("greedy", "de")], "de"
        )
    wait_for_people(client, table)
    for language in narration.LANGUAGES:
        players: list[str | None] = ["Ann", bot_named("greedy", language)]
        for seat, token in ((0, tokens["0"]), (None, None)):
            document = document_of(client, table, token, lang=language)
            _, _, events = stored(db, table, document["move"])
            seen = cr.visible_events(events, seat)
            assert document["narration"] == narration_of(seen, seat, players, language)
            assert document["names"] == [
                seat_name(s, None, names=["Ann", bot_named("greedy", language)], language=language)
                for s in (0, 1)
            ]
    assert document_of(client, table, lang="en") == document_of(client, table)
    if len(narration.LANGUAGES) > 1:  # the other helper's languages are there
        assert document_of(client, table, lang="de")["narration"] != document["narration"]


def test_the_outcome_and_notices_speak_the_language_asked_for(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(bot: cr.bots.RandomBot, view: cr.PlayerView) -> cr.Action:
        raise RuntimeError("broken")

    monkeypatch.setattr(cr.bots.RandomBot, "choose", broken)  # greedy stands in, with a note
    with local_client(db, bot_runner=ThreadBotRunner()) as client:
        table, tokens = create(client, ["human", "random"])
        final = play_to_the_end(client, db, table, tokens, random.Random(8))
        _, state, _ = stored(db, table)
        outcome = state.outcome
        assert outcome is not None
        ended = cr.events.GameOver(outcome.winners, outcome.reason)
        english = final["notices"][0]["text"]
        for language in narration.LANGUAGES:
            document = document_of(client, table, tokens["0"], lang=language)
            assert document["outcome"]["text"] == describe_event(
                ended, 0, names=["", bot_named("random", language)], language=language
            )
            assert (
                document["outcome"]["reason_text"]
                == (narration.PHRASES[language][f"reason.{outcome.reason}"])
            )
            template = narration.PHRASES[language].get("web.stand_in")
            who = "P1 random (random)"
            failures = "RuntimeError: broken; RuntimeError: broken"
            expected = english if template is None else template.format(who=who, failures=failures)
            assert document["notices"][0]["text"] == expected
        assert english == (
            f"The bot of {who} failed twice ({failures}); the greedy bot played this move instead."
        )


def test_an_unknown_language_is_refused(client: TestClient, db: Path) -> None:
    table, tokens = create(client, ["human", "human"])
    before = row_counts(db)
    _, state, _ = stored(db, table)
    body = {"action": cr.encode_action(cr.legal_actions(state)[0]), "move": 0}
    token = bearer(tokens[str(state.current_player)])
    spoken = ", ".join(narration.LANGUAGES)
    for query in ("lang=xx", "lang=", "lang=EN", "lang=en&lang=de"[:7] + "x"):
        for method, path, sent in (
            ("GET", f"/api/tables/{table}", None),
            ("POST", f"/api/tables/{table}/actions", body),
            ("GET", f"/api/tables/{table}/stream", None),
        ):
            response = client.request(method, f"{path}?{query}", json=sent, headers=token)
            assert response.status_code == 400, (path, query, response.text)
            assert response.json()["error"].endswith(
                f"is not a language of this server (choose from {spoken})"
            )
    assert row_counts(db) == before


def test_the_phrases_of_each_language(client: TestClient) -> None:
    for language in narration.LANGUAGES:
        response = client.get(f"/api/phrases/{language}")
        assert response.status_code == 200
        assert response.json() == {
            "language": language,
            "languages": list(narration.LANGUAGES),
            "phrases": dict(narration.PHRASES[language]),
        }
    response = client.get("/api/phrases/xx")
    assert response.status_code == 404
    assert response.json() == {
        "error": f'no phrases in "xx": this server speaks {", ".join(narration.LANGUAGES)}'
    }


# --------------------------------------------------------------------------- bots, off the path

DECIDING = threading.Lock()
decisions: list[tuple[float, float]] = []  # (start, end) of each slow decision
SLOW = {"seconds": 0.0}


def slow_decide(job: BotJob) -> cr.Action:
    """A bot that thinks ``SLOW["seconds"]`` (in a thread of the test's server)."""
    started = time.monotonic()
    time.sleep(SLOW["seconds"])
    with DECIDING:
        decisions.append((started, time.monotonic()))
    return cr.bots.GreedyBot(seed=job.seed).choose(job.view)


@pytest.fixture
def slow_bots(monkeypatch: pytest.MonkeyPatch) -> dict[str, float]:
    decisions.clear()
    monkeypatch.setitem(SLOW, "seconds", 0.8)
    return SLOW


def test_a_move_is_answered_before_the_bots_decide_and_nothing_waits_for_them(
    db: Path, slow_bots: dict[str, float]
) -> None:
    runner = ThreadBotRunner(decide=slow_decide)
    with local_client(db, bot_runner=runner) as client:
        seed = next(s for s in range(50) if cr.new_game(cr.GameOptions(3), s).current_player == 0)
        table, tokens = create(client, ["human", "greedy", "greedy"], seed=seed)
        me = bearer(tokens["0"])
        # Seat 0 plays until its turn passes to the bots.
        answer: dict[str, Any] = {}
        started = 0.0
        for _ in range(3):
            document = document_of(client, table, tokens["0"])
            body = {"action": document["legal_actions"][0], "move": document["move"]}
            started = time.monotonic()
            response = client.post(f"/api/tables/{table}/actions", json=body, headers=me)
            answered = time.monotonic() - started
            answer = response.json()
            check_answer(db, answer, 0)
            assert answer["move"] == document["move"] + 1  # the human's move only
            if answer["view"]["current_player"] != 0:
                break
        assert answer["view"]["current_player"] == 1
        assert answer["thinking"] == 1  # who thinks next is in the answer already
        assert answered < slow_bots["seconds"]  # it did not wait for the decision
        assert decisions == []
        # While the bot thinks, reads answer at once, and the table is not locked.
        live = client.app.state.lobby.tables[table]  # type: ignore[attr-defined]
        reads = []
        while not decisions:
            began = time.monotonic()
            spectator = document_of(client, table)
            reads.append(time.monotonic() - began)
            if not decisions:
                assert spectator["thinking"] == 1
                assert spectator["move"] == answer["move"]
                assert not live.lock.locked()
            assert len(client.app.state.api.bot_loops) <= 1  # type: ignore[attr-defined]
            time.sleep(0.02)
        assert max(reads) < slow_bots["seconds"] / 2
        wait_for_people(client, table)
    # One decision at a time, one after the other, however often the table was read.
    assert len(decisions) >= 2
    for (_, end), (start, _) in itertools.pairwise(decisions):
        assert start >= end
    assert decisions[0][0] - started < slow_bots["seconds"]


def test_a_decision_for_a_position_that_changed_is_dropped(
    db: Path, slow_bots: dict[str, float]
) -> None:
    runner = ThreadBotRunner(decide=slow_decide)
    with local_client(db, bot_runner=runner) as client:
        seed = next(s for s in range(50) if cr.new_game(cr.GameOptions(2), s).current_player == 1)
        table, _ = create(client, ["human", "greedy"], seed=seed)  # the bot begins
        deadline = time.monotonic() + 10
        while document_of(client, table)["thinking"] != 1:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        lobby = client.app.state.lobby  # type: ignore[attr-defined]
        live = lobby.tables[table]
        assert lobby.expire_idle(time.time() + 10**9) == [table]  # expires while it thinks
        deadline = time.monotonic() + 10
        while not decisions:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        time.sleep(0.2)
        assert row_counts(db) == (1, 0)  # the decision came back, and was not played
        assert live.thinking is None
        assert document_of(client, table)["status"] == "expired"
    # The same for a decision of another move, directly.
    move, seat, job = (0, 1, None)
    assert live.play_decision(move, Decision(cr.Pass())) is False
    assert (seat, job) == (1, None)


def test_shutdown_stops_the_bots_and_a_restart_plays_on(
    db: Path, slow_bots: dict[str, float]
) -> None:
    seed = next(s for s in range(50) if cr.new_game(cr.GameOptions(2), s).current_player == 1)
    with local_client(db, bot_runner=ThreadBotRunner(decide=slow_decide)) as client:
        table, tokens = create(client, ["human", "greedy"], seed=seed)
        deadline = time.monotonic() + 10
        while document_of(client, table)["thinking"] != 1:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        stopping = time.monotonic()
    assert time.monotonic() - stopping < 5
    assert row_counts(db) == (1, 0)  # stopped in the middle of the decision: nothing stored
    with local_client(db) as client:  # the bot that was to act plays when the server starts
        document = wait_for_people(client, table)
        check_answer(db, document_of(client, table, tokens["0"]), 0)
        assert document["move"] >= 1


def test_bots_whose_task_failed_are_started_again(
    db: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    calls: list[int] = []
    decide = ThreadBotRunner.decide

    async def failing_once(
        self: ThreadBotRunner, job: BotJob, name: str = "", **share: str
    ) -> Decision:
        calls.append(job.seed)
        if len(calls) == 1:  # a fault of the server's own (decisions themselves never fail)
            raise RuntimeError("a fault in the bots' task")
        return await decide(self, job, name, **share)

    monkeypatch.setattr(ThreadBotRunner, "decide", failing_once)
    seed = next(s for s in range(50) if cr.new_game(cr.GameOptions(2), s).current_player == 1)
    with local_client(db, bot_runner=ThreadBotRunner(timeout=0.5, decide=slow_decide)) as client:
        table, tokens = create(client, ["human", "greedy"], seed=seed)
        started = time.monotonic()
        # Nobody reads the table (a read would start the bots too): the server does it by
        # itself, after two tries' time (2 s here).
        while stored(db, table)[1].current_player != 0:
            assert time.monotonic() - started < 20, "the bots were not started again"
            time.sleep(0.02)
        waited = time.monotonic() - started
        check_answer(db, document_of(client, table, tokens["0"]), 0)
    assert len(calls) >= 2
    assert calls[0] == calls[1]  # the same decision, asked again
    assert 1.5 < waited < 15
    assert "the bots stopped" in caplog.text
