"""The review of a finished game on the web server (issue 30): asked for, computed, kept, pushed.

Each test drives a real uvicorn server in a thread of this process (as
``test_web_fairness.py`` does): ``POST /api/tables/{id}/review`` queues the review of a
finished table on the bot workers, the stream pushes its progress and then the review,
``GET`` answers it once ready, and it is kept in the store, so asking again (or after a
restart) computes nothing. A game in progress has no review (409): it would show every
seat's decisions. One client's reviews take turns with another's, and never hold up its
hint. The real review runs with a tiny budget; the tests of turns use a stand-in that
sleeps.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

import cuckoo_rules as cr
from cuckoo_rules.web import create_app
from cuckoo_rules.web.bots import ProcessBotRunner, Progress, ThreadBotRunner
from cuckoo_rules.web.reviews import ReviewJob
from cuckoo_rules.web.stores.base import Store, TableSetup
from cuckoo_rules.web.stores.sqlite import SQLiteStore
from tests import postgres
from tests.browser import chromium_path, unavailable
from tests.conftest import ROOT
from tests.frontends.test_web_fairness import SlowHints, second_address
from tests.servers import ThreadedServer

TIMEOUT = 60.0
JSON = {"Content-Type": "application/json"}
SIMULATIONS = 8  # per decision: a tiny budget, for a review of a few seconds


@contextmanager
def serving(
    monkeypatch: pytest.MonkeyPatch,
    db: str | Path,
    hosts: tuple[str, ...] = ("127.0.0.1",),
    **options: Any,
) -> Iterator[ThreadedServer]:
    import uvicorn

    # uvicorn may not configure logging in pytest: dictConfig would close pytest's handlers.
    monkeypatch.setattr(uvicorn.Config, "configure_logging", lambda config: None)
    options.setdefault("review_simulations", SIMULATIONS)
    options.setdefault("bot_workers", 0)
    app = create_app(db, allowed_hosts=list(hosts), **options)
    with ThreadedServer(app, hosts) as server:
        yield server


def client_of(url: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=url, timeout=TIMEOUT, headers=JSON)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def new_table(client: httpx.AsyncClient, seed: int = 0) -> tuple[str, str]:
    body = {"seats": ["human", "greedy"], "seed": seed}
    response = await client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    return response.json()["table"], response.json()["tokens"]["0"]


async def human_to_act(client: httpx.AsyncClient, table: str, token: str) -> int:
    """Wait until seat 0 may act; the move number then."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        document = (await client.get(f"/api/tables/{table}", headers=bearer(token))).json()
        if document["legal_actions"]:
            return int(document["move"])
        assert time.monotonic() < deadline, "seat 0 never got its turn"
        await asyncio.sleep(0.005)


async def finish(client: httpx.AsyncClient, table: str, token: str) -> dict[str, Any]:
    """Play seat 0's first legal action until the game is over; the last document."""
    url = f"/api/tables/{table}"
    deadline = time.monotonic() + TIMEOUT
    while True:
        document = (await client.get(url, headers=bearer(token))).json()
        if document["status"] != "open":
            assert document["status"] == "over", document["status"]
            return dict(document)
        if document["legal_actions"]:
            body = {"action": document["legal_actions"][0], "move": document["move"]}
            answer = await client.post(f"{url}/actions", json=body, headers=bearer(token))
            assert answer.status_code == 200, answer.text
        else:
            await asyncio.sleep(0.005)
        assert time.monotonic() < deadline, "the game did not end"


async def finished_table(client: httpx.AsyncClient, seed: int = 0) -> tuple[str, str]:
    table, token = await new_table(client, seed)
    await finish(client, table, token)
    return table, token


async def review_messages(
    client: httpx.AsyncClient, table: str, seen: list[dict[str, Any]], ready: asyncio.Event
) -> None:
    """Read the table's stream; keep its ``review`` messages until one is ready."""
    async with client.stream("GET", f"/api/tables/{table}/stream") as response:
        assert response.status_code == 200
        event = ""
        async for line in response.aiter_lines():
            if line.startswith("event:"):
                event = line.partition(":")[2].strip()
            elif line.startswith("data:") and event == "review":
                seen.append(json.loads(line.partition(":")[2]))
                if seen[-1]["status"] in ("ready", "failed"):
                    ready.set()
                    return
            elif not line:
                event = ""


def check_answer(answer: dict[str, Any], table: str) -> None:
    """The answer's shape: the library's document, and each seat's costliest moves."""
    assert answer["table"] == table
    assert answer["status"] == "ready"
    assert answer["simulations"] == SIMULATIONS
    review = answer["review"]
    assert review["format"] == "cuckoo-rules/review"
    assert review["seats"] == [0, 1]
    assert len(review["chances"]) == review["moves"] + 1
    assert sorted(review["chances"][-1]) in ([0.0, 1.0], [0.5, 0.5])  # the result
    assert [entry["seat"] for entry in answer["costliest"]] == [0, 1]
    moments = [moment for entry in answer["costliest"] for moment in entry["moves"]]
    assert moments, "no costly move in the whole game"
    for entry in answer["costliest"]:
        costs = [moment["cost"] for moment in entry["moves"]]
        assert costs == sorted(costs, reverse=True)
        assert 0 <= entry["average_cost"] <= 1
    for moment in moments:
        # The position as the seat saw it before its move: its own hand, no other.
        view = moment["view"]
        assert view["viewer"] == moment["seat"] == view["current_player"]
        assert moment["cost"] > 0
        assert moment["best"]["win_chance"] - moment["chosen"]["win_chance"] == pytest.approx(
            moment["cost"]
        )
        assert moment["best"]["text"]
        assert moment["chosen"]["text"]
        assert moment["best"]["action"] != moment["chosen"]["action"]


def test_a_finished_tables_review_is_computed_once_kept_and_pushed(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The real review, with a tiny budget: 404 before it is asked for, 202 when asked,
    pushed on the stream with its progress, then 200; asked again, and after a restart,
    it is read from the store, not computed again."""
    pytest.importorskip("cuckoo_rules.bots.review", reason="no batch extra")
    db = tmp_path / "t.sqlite3"
    with serving(monkeypatch, db) as server:
        reviews = server.app.state.api.reviews

        async def main() -> tuple[str, list[dict[str, Any]], dict[str, Any]]:
            async with client_of(server.url) as client:
                table, token = await finished_table(client)
                missing = await client.get(f"/api/tables/{table}/review")
                assert missing.status_code == 404, missing.text
                assert "POST" in missing.json()["error"]
                seen: list[dict[str, Any]] = []
                ready = asyncio.Event()
                reading = asyncio.create_task(review_messages(client, table, seen, ready))
                await asyncio.sleep(0.2)  # the stream is open (it pushes the table first)
                asked = await client.post(f"/api/tables/{table}/review", headers=bearer(token))
                assert asked.status_code == 202, asked.text
                assert asked.json()["status"] in ("queued", "computing")
                await asyncio.wait_for(ready.wait(), TIMEOUT)
                await reading
                answer = await client.get(f"/api/tables/{table}/review?lang=de")
                assert answer.status_code == 200, answer.text
                again = await client.post(f"/api/tables/{table}/review")
                assert again.status_code == 200, again.text
                assert again.json()["review"] == answer.json()["review"]
                return table, seen, answer.json()

        table, seen, answer = asyncio.run(main())
        assert reviews.computed == 1
    check_answer(answer, table)
    assert seen[-1]["status"] == "ready"
    assert seen[-1]["review"] == answer["review"]
    assert seen[-1]["costliest"][0]["moves"][0]["chosen"]["text"].startswith("You ")
    assert answer["costliest"][0]["moves"][0]["chosen"]["text"].startswith("Du ")
    progress = [message for message in seen if message["status"] == "computing"]
    assert progress, seen
    done = [message["done"] for message in progress]
    assert done == sorted(done)
    assert progress[-1]["total"] == answer["review"]["moves"] + 1

    with serving(monkeypatch, db) as server:  # a restart: the review is in the file

        async def again() -> httpx.Response:
            async with client_of(server.url) as client:
                return await client.get(f"/api/tables/{table}/review")

        kept = asyncio.run(again())
        assert kept.status_code == 200, kept.text
        assert kept.json()["review"] == answer["review"]
        assert server.app.state.api.reviews.computed == 0


def test_a_review_in_a_worker_process_tells_its_progress(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """As ``serve`` runs it, in a worker process of the bot runner: the stream still
    pushes how many positions are done (they come back through the runner's queue)."""
    pytest.importorskip("cuckoo_rules.bots.review", reason="no batch extra")
    runner = ProcessBotRunner(workers=1)
    with serving(monkeypatch, tmp_path / "t.sqlite3", bot_runner=runner) as server:

        async def main() -> list[dict[str, Any]]:
            async with client_of(server.url) as client:
                table, _ = await finished_table(client, 3)
                seen: list[dict[str, Any]] = []
                ready = asyncio.Event()
                reading = asyncio.create_task(review_messages(client, table, seen, ready))
                await asyncio.sleep(0.2)
                asked = await client.post(f"/api/tables/{table}/review")
                assert asked.status_code == 202, asked.text
                await asyncio.wait_for(ready.wait(), TIMEOUT)
                await reading
                return seen

        seen = asyncio.run(main())
    assert seen[-1]["status"] == "ready", seen[-1]
    done = [message["done"] for message in seen if message["status"] == "computing"]
    assert len(done) > 2, seen
    assert done == sorted(done)
    assert [message for message in seen if message.get("total")][-1]["total"] == (
        seen[-1]["review"]["moves"] + 1
    )


def fake_review(job: ReviewJob, progress: Progress | None = None) -> tuple[int, str]:
    """A stand-in for the review: every decision costs 0.1, no search (instant)."""
    state = cr.new_game(job.record.options, job.record.seed)
    chances: list[list[float]] = []
    decisions: list[dict[str, Any]] = []
    for move, action in enumerate(job.record.actions):
        seat = state.current_player
        chances.append([0.5] * job.record.options.num_players)
        legal = cr.legal_actions(state)
        if len(legal) > 1:
            best = next(other for other in legal if other != action)
            decisions.append(
                {
                    "move": move,
                    "seat": seat,
                    "chosen": cr.encode_action(action),
                    "chosen_chance": 0.4,
                    "best": cr.encode_action(best),
                    "best_chance": 0.5,
                    "cost": 0.1,
                    "estimates": [],
                }
            )
        state = cr.apply(state, action)
        if progress is not None:
            progress(move + 1, len(job.record.actions) + 1)
    chances.append([1.0, 0.0])
    document = {
        "format": "cuckoo-rules/review",
        "version": 1,
        "options": job.record.options.to_json(),
        "players": ["P0", "P1"],
        "seats": [0, 1],
        "simulations": 1,
        "seed": 0,
        "moves": len(job.record.actions),
        "chances": chances,
        "decisions": decisions,
    }
    return 1, json.dumps(document)


class SlowReviews:
    """The stand-in review, taking ``seconds``; it records which table each one was for."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.order: list[int] = []  # the seeds of the games reviewed, in order
        self._lock = threading.Lock()

    def __call__(self, job: ReviewJob, progress: Progress | None = None) -> tuple[int, str]:
        with self._lock:
            self.order.append(job.record.seed)
        time.sleep(self.seconds)
        return fake_review(job, progress)


def test_a_game_in_progress_has_no_review(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """409 for POST and GET while the game is on: nothing is queued (a body with fields
    is refused first, with 400; an unknown table is 404)."""
    with serving(monkeypatch, tmp_path / "t.sqlite3") as server:
        reviews = server.app.state.api.reviews
        reviews.work = SlowReviews(0.0)

        async def main() -> tuple[int, list[httpx.Response]]:
            async with client_of(server.url) as client:
                table, token = await new_table(client)
                # Seat 0's turn (the bot's first move, if it deals, is made), so the move
                # number stays as it is while the requests are answered.
                move = await human_to_act(client, table, token)
                return move, [
                    await client.post(f"/api/tables/{table}/review", headers=bearer(token)),
                    await client.post(f"/api/tables/{table}/review"),
                    await client.get(f"/api/tables/{table}/review", headers=bearer(token)),
                    await client.post(f"/api/tables/{table}/review", json={"seat": 1}),
                    await client.get("/api/tables/nosuchtable/review"),
                    await client.get(f"/api/tables/{table}/review?lang=de"),
                    await client.post(
                        f"/api/tables/{table}/review", headers={"Accept-Language": "ru"}
                    ),
                ]

        move, answers = asyncio.run(main())
        assert [answer.status_code for answer in answers] == [409, 409, 409, 400, 404, 409, 409]
        assert "not over" in answers[0].json()["error"]
        # In the request's language, as every error with a phrase.
        assert answers[5].json()["error"].startswith("das Spiel ist nicht vorbei")
        assert answers[6].json()["error"].startswith("игра не окончена")
        assert answers[0].json()["move"] == move
        assert reviews.work.order == []
        assert reviews.find(answers[0].url.path.split("/")[3]) is None


def test_one_clients_reviews_take_turns_with_anothers_and_never_hold_up_its_hint(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Two bot workers: one review at a time. One client asks for three reviews, then
    another client for one and for a hint: its review is the next computed (not the
    fourth), and its hint is answered at once, while the reviews go on."""
    module = pytest.importorskip("cuckoo_rules.bots.expert", reason="no batch extra")
    hints = SlowHints(0.2)
    monkeypatch.setattr(module, "hint", hints)
    other = second_address()
    runner = ThreadBotRunner(workers=2)
    with serving(
        monkeypatch, tmp_path / "t.sqlite3", ("127.0.0.1", other), bot_runner=runner
    ) as server:
        reviews = server.app.state.api.reviews
        assert reviews.shares.slots == 1
        work = reviews.work = SlowReviews(1.0)

        async def main() -> float:
            async with client_of(server.url) as noisy, client_of(server.urls[1]) as victim:
                tables = [await finished_table(noisy, seed) for seed in (1, 2, 3)]
                mine, _ = await finished_table(victim, 4)
                playing, token = await new_table(victim, 5)
                for table, _ in tables:
                    answer = await noisy.post(f"/api/tables/{table}/review")
                    assert answer.status_code == 202, answer.text
                await asyncio.sleep(0.1)  # the first review is computing
                answer = await victim.post(f"/api/tables/{mine}/review")
                assert answer.status_code == 202, answer.text
                assert answer.json()["status"] == "queued"
                started = time.monotonic()
                hint = await victim.get(f"/api/tables/{playing}/hint", headers=bearer(token))
                waited = time.monotonic() - started
                assert hint.status_code == 200, hint.text
                deadline = time.monotonic() + TIMEOUT
                while (await victim.get(f"/api/tables/{mine}/review")).status_code != 200:
                    assert time.monotonic() < deadline
                    await asyncio.sleep(0.05)
                return waited

        waited = asyncio.run(main())
        # A review runs (about 1 s); the hint (0.2 s) does not wait for it.
        assert waited < 0.9, waited
        assert work.order[:2] == [1, 4], work.order


SETUP = TableSetup("t1", cr.GameOptions(2), 1, ("human", "greedy"), 2, (None, None))


def test_the_reviews_of_a_file_made_before_them_are_kept_in_a_table_created_then(
    tmp_path: Path,
) -> None:
    """A file of schema version 5 without the reviews table (written before them) opens
    as it was, gets the table, and keeps a review; the first one of a table stays."""
    path = tmp_path / "old.sqlite3"
    store = SQLiteStore(path)
    store.close()
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE reviews")
        (version,) = db.execute("PRAGMA user_version").fetchone()
    db.close()
    assert version == 5
    keeps_the_first_review(SQLiteStore(path))


def test_postgresql_keeps_reviews_too() -> None:
    """The same on PostgreSQL (skipped without ``CUCKOO_POSTGRES_URL``)."""
    with postgres.fresh_database(postgres.server_url()) as url:
        from cuckoo_rules.web.stores.postgres import PostgresStore

        keeps_the_first_review(PostgresStore(url))


def keeps_the_first_review(store: Store) -> None:
    """A new table has no review; of two reviews added, the first is kept. Closes ``store``."""
    try:
        store.add_table(SETUP, time.time())
        assert store.review("t1") is None
        store.add_review("t1", 8, '{"a": 1}')
        store.add_review("t1", 9, '{"b": 2}')
        assert store.review("t1") == (8, '{"a": 1}')
    finally:
        store.close()


# --------------------------------------------------------------------------- the browser

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 375, "height": 740}
ASSETS = ROOT / "docs" / "assets"


def test_the_review_tab_shows_the_chart_and_a_costly_move_as_its_player_saw_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Headless Chromium opens a finished game (a person who always played the first legal
    move, against greedy), at 1280x900 and 375x740: the Review tab asks for the review,
    draws the chart (a line per seat) and the costliest moves; clicking one shows the rows
    and the hand its player saw, the better move marked. Screenshots:
    ``docs/assets/review-desktop.png`` and ``docs/assets/review-phone.png``."""
    pytest.importorskip("cuckoo_rules.bots.review", reason="no batch extra")
    if importlib.util.find_spec("playwright") is None:
        unavailable("the playwright package is not installed")
    executable = chromium_path()
    if executable is None:
        unavailable("no Chromium at /usr/bin/chromium or on the PATH")
    from playwright.sync_api import sync_playwright

    from tests.frontends.test_web_browser import CHROMIUM_ARGS

    # A budget of 160: ten deals per position for the chart (a few seconds in all).
    with serving(monkeypatch, tmp_path / "t.sqlite3", review_simulations=160) as server:

        async def game() -> tuple[str, str]:
            async with client_of(server.url) as client:
                body = {"seats": ["human", "greedy"], "seed": 0, "names": ["Ann", None]}
                response = await client.post("/api/tables", json=body)
                assert response.status_code == 201, response.text
                table, token = response.json()["table"], response.json()["tokens"]["0"]
                await finish(client, table, token)
                return table, token

        table, token = asyncio.run(game())
        problems: list[str] = []
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=executable, args=CHROMIUM_ARGS, timeout=30_000
            )
            try:
                for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
                    context = browser.new_context(viewport=viewport)  # type: ignore[arg-type]
                    page = context.new_page()
                    page.on("pageerror", lambda error: problems.append(str(error)))
                    page.on(
                        "console",
                        lambda message: (
                            problems.append(message.text) if message.type == "error" else None
                        ),
                    )
                    page.goto(f"{server.url}/#table={table}&token={token}")
                    page.wait_for_selector("#gameover:not([hidden])", timeout=15_000)
                    assert page.locator("#tab-review").is_visible()
                    page.click("#tab-review")
                    page.wait_for_selector("#review svg.review-chart", timeout=60_000)
                    assert page.locator("#review polyline.review-line").count() == 2
                    assert not page.locator("#rows").is_visible()  # the board is behind its tab
                    move = page.locator("#review button.review-move").first
                    move.wait_for(timeout=5_000)
                    number = move.get_attribute("data-move")
                    move.click()
                    position = page.locator("#review-position")
                    position.wait_for(state="visible", timeout=5_000)
                    title = position.locator("h3").inner_text()
                    assert str(number) in title, title
                    assert "Ann" in title, title
                    assert position.locator(".review-better.better").is_visible()
                    # The better move marked on the position: its row end, or its species.
                    marked = position.locator(".review-row.better, .review-hand-card.better")
                    better = position.locator(".review-better").inner_text()
                    assert marked.count() >= 1 or "draw" in better.lower(), better
                    assert page.locator("#review circle.review-dot.selected").count() == 1
                    width = page.evaluate("() => document.documentElement.scrollWidth")
                    assert width <= viewport["width"], (name, width)
                    page.wait_for_timeout(500)  # the smooth scroll to the position ends
                    page.evaluate("() => window.scrollTo(0, 0)")
                    path = ASSETS / f"review-{name}.png"
                    if name == "desktop":
                        page.screenshot(path=str(path), full_page=True)
                    else:  # the tabs, the chart, the costliest moves and the position
                        top = page.locator("#review-tabs").bounding_box()
                        box = page.locator("#review").bounding_box()
                        assert top is not None
                        assert box is not None
                        clip = {"x": 0, "y": top["y"], "width": viewport["width"]}
                        clip["height"] = box["y"] + box["height"] - top["y"] + 8
                        page.screenshot(path=str(path), full_page=True, clip=clip)  # type: ignore[arg-type]
                    if name == "desktop":  # in German: the tab stays open, the words follow
                        page.select_option("#lang", "de")
                        page.wait_for_function(
                            "() => document.querySelector('#review .review-title')"
                            " && document.querySelector('#review .review-title')"
                            ".textContent.startsWith('Spielanalyse')",
                            timeout=15_000,
                        )
                        assert page.locator("#tab-review").inner_text() == "Analyse"
                        played = page.locator("#review button.review-move span").first
                        assert played.inner_text().startswith("Gespielt"), played.inner_text()
                    # Back to the game: the board again.
                    page.click("#tab-game")
                    assert page.locator("#rows").is_visible()
                    context.close()
            finally:
                browser.close()
        assert server.app.state.api.reviews.computed == 1  # the phone's was read, not made
    assert not problems, problems
