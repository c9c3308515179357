"""The browser client as a newcomer meets it (issue 28), end to end in headless Chromium.

- A whole turn fits the window, at 375x740 (a phone) and 1280x900: the status, the
  rows with both lay targets of each, the prompt or the phase's buttons and the whole
  hand are in view without scrolling; each lay target holds its arrow, its count (one
  line: "+2" does not wrap), the pictures of the cards it would capture and its refill
  and draw marks inside its box.
- The Hint button is shown only when the server can give hints (``/api/meta``'s
  ``"hints"``): a server without the ``batch`` extra (here one whose check says so)
  offers no button, and no player is told to ``pip install``.
- The game-over banner folds the fairness proof (seed, salt, commitment, check_deal)
  under a "Check this deal" disclosure, closed until opened.

The browser, the server and the helpers are those of ``test_web_browser.py``; the
screenshots go to the same folder: ``web-client-phone-turn.png`` (a species chosen at
375x740, the targets showing their captures) and ``web-client-desktop-turn.png``.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import re
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from cuckoo_rules import Species
from cuckoo_rules._phrases.web import PHRASES as WEB_PHRASES
from cuckoo_rules.narration import cards_text
from cuckoo_rules.web import routes as web_routes
from tests.frontends.test_web_browser import (  # the fixtures too: one browser, one server
    DESKTOP,
    HAND,
    IDLE,
    MY_MOVE,
    PHASE,
    PHONE,
    STEP_MS,
    TABLE_DOCUMENT,
    TARGETS,
    TURN_OR_END,
    Problems,
    artifacts,  # noqa: F401
    best_lay,
    browser,  # noqa: F401
    click_and_wait,
    create_table,
    english_left,
    new_page,
    open_start,
    screenshot,
    server_url,  # noqa: F401
)
from tests.servers import ThreadedServer

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, ViewportSize

# What of a turn is out of the window (scrolled, or beyond its edges), and what of a lay
# target is outside its box or wraps; [] when the whole turn is in view.
TURN_IN_VIEW = """
    () => {
        const problems = [];
        const width = window.innerWidth, height = window.innerHeight;
        const where = r => [r.left, r.top, r.right, r.bottom].map(Math.round).join(",");
        const shown = node => node.getClientRects().length > 0
            && getComputedStyle(node).display !== "none";
        const inView = (node, what) => {
            if (!node || !shown(node)) return;
            const r = node.getBoundingClientRect();
            if (r.left < -0.5 || r.top < -0.5 || r.right > width + 0.5 || r.bottom > height + 0.5)
                problems.push(`${what} out of the window: ${where(r)}`);
        };
        if (window.scrollX || window.scrollY) problems.push(`scrolled ${scrollX},${scrollY}`);
        if (document.documentElement.scrollWidth > width) problems.push("wider than the window");
        inView(document.getElementById("status"), "status");
        document.querySelectorAll("#rows > li.row").forEach((n, i) => inView(n, `row ${i}`));
        for (const n of document.querySelectorAll("#rows button.target"))
            inView(n, `target ${n.dataset.row} ${n.dataset.side}`);
        for (const n of document.querySelectorAll("#hand .hand-card"))
            inView(n, `hand ${n.dataset.species}`);
        for (const n of document.querySelectorAll("#controls > *"))
            inView(n, `control ${n.className}`);
        inView(document.getElementById("hint-button"), "hint button");
        for (const target of document.querySelectorAll("#rows button.target")) {
            const box = target.getBoundingClientRect();
            const name = `target ${target.dataset.row} ${target.dataset.side}`;
            const parts = target.querySelectorAll(
                ".arrow, .take-count, .take-chips > .card, .take-mark, .take-mark .card");
            for (const part of parts) {
                if (!shown(part)) continue;
                const r = part.getBoundingClientRect();
                if (r.left < box.left - 0.5 || r.right > box.right + 0.5
                        || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5)
                    problems.push(`${name}: ${part.getAttribute("class")} sticks out `
                        + `(${where(r)} of ${where(box)})`);
            }
            const count = target.querySelector(".take-count");
            if (count) {
                const range = document.createRange();
                range.selectNodeContents(count);
                const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
                if (lines.size > 1) problems.push(`${name}: "${count.textContent}" wraps`);
            }
        }
        return problems;
    }
"""
# For each enabled lay target: the cards its preview says it captures, and the pictures
# of captured cards shown in it (each at least 6 pixels wide and tall).
CAPTURES_SHOWN = """
    () => [...document.querySelectorAll("#rows button.target:not([disabled])")].map(target => {
        const count = target.querySelector(".take-count").textContent;
        const chips = [...target.querySelectorAll(".take-chips > .card")].filter(chip => {
            const r = chip.getBoundingClientRect();
            return chip.getClientRects().length > 0 && r.width >= 6 && r.height >= 6;
        });
        return [count, chips.map(chip => chip.dataset.species)];
    })
"""
LAYABLE = f"{HAND}:not([disabled])"
MOST_CHIPS = 4  # the pictures a phone's target shows at most (the count says the rest)


def turn_problems(page: Page) -> list[str]:
    page.wait_for_function(IDLE)
    problems: list[str] = page.evaluate(TURN_IN_VIEW)
    return problems


def check_captures_shown(page: Page) -> int:
    """Every enabled target shows the pictures of what it captures; the most shown."""
    shown: list[tuple[str, list[str]]] = page.evaluate(CAPTURES_SHOWN)
    assert shown, "no lay target"
    most = 0
    for count, chips in shown:
        captured = int(count.lstrip("+"))
        assert len(chips) == min(captured, MOST_CHIPS) or len(chips) == min(captured, 6), shown
        most = max(most, len(chips))
    return most


def play_a_turn_in_view(page: Page, shots: Path | None) -> int:
    """Play this seat's turn by clicking, each step checked in view without scrolling:
    the lay that captures most, then the draw or flock buttons until the turn passes.
    Returns the most capture pictures one target showed."""
    page.wait_for_selector(MY_MOVE)
    assert turn_problems(page) == []
    action = best_lay(page)
    page.click(f"{HAND}[data-species='{action['species']}']")
    assert turn_problems(page) == []
    most = check_captures_shown(page)
    if shots is not None:
        screenshot(page, shots)
    target = page.locator(f"{TARGETS}[data-row='{action['row']}'][data-side='{action['side']}']")
    click_and_wait(page, target.click)
    while page.locator(PHASE).count() and not page.locator(LAYABLE).count():
        assert turn_problems(page) == []
        buttons = page.locator(PHASE)
        fly = page.locator(f"{PHASE}.action-fly_home")
        click_and_wait(page, (fly.first if fly.count() else buttons.first).click)
    return most


@pytest.mark.parametrize(
    ("viewport", "shot"),
    [(PHONE, "web-client-phone-turn.png"), (DESKTOP, "web-client-desktop-turn.png")],
    ids=["375x740", "1280x900"],
)
@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_whole_turn_fits_the_window_with_the_captures_shown(
    browser: Browser,  # noqa: F811
    server_url: str,  # noqa: F811
    artifacts: Path,  # noqa: F811
    viewport: ViewportSize,
    shot: str,
    language: str,
) -> None:
    problems = Problems()
    context, page = new_page(
        browser, problems, "turn", viewport=viewport, locale=language, reduced_motion="reduce"
    )
    try:
        # Seed 11 against greedy: the first lay captures two cards, with a refill.
        create_table(page, server_url, ["greedy"], seed=11)
        most = 0
        for turn in range(4):
            page.wait_for_selector(TURN_OR_END)
            if page.locator("#gameover").is_visible():
                break
            name = shot if turn == 0 and language == "en" else None
            most = max(most, play_a_turn_in_view(page, artifacts / name if name else None))
        assert most >= 2  # a lay that captures two cards showed both
        assert problems.messages == []
    finally:
        context.close()


# --------------------------------------------------------------------------- hints


def hint_shown(page: Page) -> bool:
    page.wait_for_selector(MY_MOVE)
    page.wait_for_function(IDLE)
    return page.locator("#hint-button").is_visible()


def test_the_hint_button_is_shown_when_the_server_gives_hints(
    browser: Browser,  # noqa: F811
    server_url: str,  # noqa: F811
) -> None:
    available = all(importlib.util.find_spec(name) for name in ("numpy", "numba"))
    problems = Problems()
    context, page = new_page(browser, problems, "hints", reduced_motion="reduce")
    try:
        open_start(page, server_url)
        meta = page.evaluate("async () => (await fetch('/api/meta')).json()")
        assert meta["hints"] is available
        create_table(page, server_url, ["random"], seed=7)
        assert hint_shown(page) is available
        assert problems.messages == []
    finally:
        context.close()


@pytest.fixture
def hintless_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A server in this process whose check finds no ``batch`` extra."""
    if importlib.util.find_spec("uvicorn") is None:
        pytest.skip("uvicorn (the web extra) is not installed")
    from cuckoo_rules.web.app import create_app

    monkeypatch.setattr(web_routes, "hints_available", lambda: False)
    with ThreadedServer(create_app(tmp_path / "db.sqlite3", bot_workers=0)) as server:
        yield server.url + "/"


def test_a_server_without_hints_offers_no_hint_button(
    browser: Browser,  # noqa: F811
    hintless_url: str,
) -> None:
    problems = Problems()
    context, page = new_page(browser, problems, "no hints", reduced_motion="reduce")
    try:
        open_start(page, hintless_url)
        meta = page.evaluate("async () => (await fetch('/api/meta')).json()")
        assert meta["hints"] is False
        create_table(page, hintless_url, ["random"], seed=7)
        for _ in range(3):  # not on any turn
            assert not hint_shown(page)
            action = best_lay(page)
            page.click(f"{HAND}[data-species='{action['species']}']")
            assert page.locator("#hint-button").is_hidden()
            target = f"{TARGETS}[data-row='{action['row']}'][data-side='{action['side']}']"
            click_and_wait(page, page.locator(target).click)
            while page.locator(PHASE).count() and not page.locator(LAYABLE).count():
                assert page.locator("#hint-button").is_hidden()
                click_and_wait(page, page.locator(PHASE).first.click)
        assert "pip install" not in page.locator("body").inner_text()
        # Asked all the same, the server says it cannot (501), in the reader's words.
        status = page.evaluate(
            """async () => {
                const fragment = new URLSearchParams(window.location.hash.slice(1));
                const headers = { Authorization: `Bearer ${fragment.get("token")}` };
                const path = `/api/tables/${fragment.get("table")}/hint`;
                return (await fetch(path, { headers })).status;
            }"""
        )
        assert status == 501
        problems.messages = [m for m in problems.messages if "/hint" not in m and "501" not in m]
        assert problems.messages == []
    finally:
        context.close()


# --------------------------------------------------------------------------- game over


def test_the_deal_proof_is_folded_under_check_this_deal(
    browser: Browser,  # noqa: F811
    server_url: str,  # noqa: F811
) -> None:
    import httpx

    from tests.frontends.test_web_review import client_of, finish

    problems = Problems()
    context, page = new_page(browser, problems, "deal", reduced_motion="reduce")
    try:
        # Seat 0 plays its first legal move each turn through the API against a random
        # bot (a whole game clicked through is test_web_browser's); the page then opens
        # seat 0's table, finished.
        url = server_url.rstrip("/")
        body = {"seats": ["human", "random"], "seed": 3}
        created = httpx.post(f"{url}/api/tables", json=body, timeout=STEP_MS / 1000).json()
        table, token = created["table"], created["tokens"]["0"]

        async def played() -> dict[str, Any]:
            async with client_of(url) as client:
                return await finish(client, table, token)

        # On a thread of its own: this one runs Playwright's event loop.
        with ThreadPoolExecutor(1) as thread:
            document = thread.submit(asyncio.run, played()).result()
        assert document["view"]["phase"] == "game_over"
        open_start(page, server_url)
        page.goto(f"{server_url}#table={table}&token={token}")
        page.locator("#gameover").wait_for(state="visible")
        check = page.locator("#gameover details#gameover-check")
        assert check.is_visible()
        assert check.get_attribute("open") is None  # closed by default
        summary = check.locator("summary")
        assert summary.inner_text() == WEB_PHRASES["en"]["web.check_deal"]
        proof = page.locator("#gameover-deal")
        assert proof.is_hidden()
        banner = page.locator("#gameover").inner_text()
        for hidden in ("check_deal", "salt", str(created["deal"]["commitment"])):
            assert hidden not in banner
        summary.click()
        assert proof.is_visible()
        text = proof.inner_text()
        assert "cuckoo_rules.fairness.check_deal" in text
        assert str(created["deal"]["commitment"]) in text
        assert re.search(r"seed \d+", text), text
        assert problems.messages == []
    finally:
        context.close()


# --------------------------------------------------------------------------- Russian


def test_russian_lays_put_the_birds_in_the_accusative(
    browser: Browser,  # noqa: F811
    server_url: str,  # noqa: F811
) -> None:
    problems = Problems()
    context, page = new_page(browser, problems, "ru", locale="ru-RU", reduced_motion="reduce")
    try:
        # Seed 11: the hand holds 1 toucan, 2 ducks, 1 parrot, 2 magpies, 1 reed warbler
        # and 1 robin; the first lays capture ducks, parrots, magpies.
        create_table(page, server_url, ["greedy"], seed=11)
        page.wait_for_selector(MY_MOVE)
        document = page.evaluate(TABLE_DOCUMENT)
        hand = document["view"]["hand"]

        def laid(species: str) -> str:  # "1 сову", "2 утки"
            return cards_text([Species(species)] * hand[species], language="ru", obj=True)

        page.locator("#all-moves summary").click()
        groups = page.locator("#all-moves-list h3.action-group").all_inner_texts()
        lays = [action for action in document["legal_actions"] if action["type"] == "lay"]
        assert groups == [f"Выложить {laid(s)}" for s in dict.fromkeys(a["species"] for a in lays)]
        assert "Выложить 1 малиновку" in groups  # not "1 малиновка"
        labels = page.locator("#all-moves-list button.action-lay").evaluate_all(
            "buttons => buttons.map(button => button.getAttribute('aria-label'))"
        )
        previews = {
            json.dumps(action): seen
            for action, seen in zip(document["legal_actions"], document["previews"], strict=True)
        }
        for action, label in zip(lays, labels, strict=True):
            side = "слева" if action["side"] == "left" else "справа"
            assert label.startswith(
                f"Выложить {laid(action['species'])} {side} в ряд {action['row']}: "
            )
            captured = previews[json.dumps(action)]["captured"]
            if captured:
                taken = Counter(captured)
                words = [
                    cards_text([Species(s)] * n, language="ru", obj=True) for s, n in taken.items()
                ]
                assert label.split(": ", 1)[1].startswith("забираете "), label
                assert all(word in label for word in words), label
        # The lay targets say the same.
        page.click(f"{HAND}[data-species='robin']")
        titles = page.locator(TARGETS).evaluate_all(
            "targets => targets.map(target => target.title)"
        )
        assert titles
        assert all(title.startswith("Выложить 1 малиновку ") for title in titles), titles
        assert problems.messages == []
    finally:
        context.close()


# --------------------------------------------------------------------------- German, Russian

# A phrase key shown as such: a phrase missing in the page's language.
MISSING_KEY = re.compile(r"\b(?:web|species|birds|birds_object|reason|notice|seat)\.[a-z_]+")
# The bot kinds, English words, as a player's name.
BOT_KIND = re.compile(r"\b(?:random|greedy|expert)\b")


def page_texts(page: Page) -> str:
    """The page's text, its title and its labels (but the language switch's)."""
    texts: list[str] = page.evaluate(
        """() => {
            const texts = [document.body.innerText, document.title];
            for (const node of document.querySelectorAll(
                    "[aria-label], [title], [placeholder], option")) {
                if (node.closest("#lang")) continue;
                for (const name of ["aria-label", "title", "placeholder"]) {
                    if (node.hasAttribute(name)) texts.push(node.getAttribute(name));
                }
                if (node.tagName === "OPTION") texts.push(node.textContent);
            }
            return texts;
        }"""
    )
    return "\n".join(texts)


def check_screen(page: Page, language: str, where: str) -> None:
    """No phrase key missing in ``language``, no English left, no bot kind as a name,
    and every card's corner initial the language's own."""
    page.wait_for_function(IDLE)
    text = page_texts(page)
    assert MISSING_KEY.findall(text) == [], where
    assert english_left(page, language) == [], where
    assert BOT_KIND.findall(text) == [], where
    initials = page.locator("svg.card[data-species] text.initial").evaluate_all(
        "texts => texts.map(t => [t.closest('svg').dataset.species, t.textContent])"
    )
    for species, initial in initials:
        assert initial == WEB_PHRASES[language][f"web.initial.{species}"], where


@pytest.mark.parametrize("language", ["de", "ru"])
def test_every_screen_in_german_and_russian_is_in_that_language(
    browser: Browser,  # noqa: F811
    server_url: str,  # noqa: F811
    language: str,
) -> None:
    problems = Problems()
    context, page = new_page(browser, problems, language, locale=language, reduced_motion="reduce")
    try:
        open_start(page, server_url)
        assert page.evaluate("() => document.documentElement.lang") == language
        page.select_option("#num-players", "3")  # the variants stay closed: their help
        # names "Board Game Arena"
        check_screen(page, language, "the start screen")
        # Every bot kind the form offers has its name in the language ("Bot: expert" had not).
        offered = page.locator("#seat-1 option").evaluate_all("os => os.map(o => o.value)")
        for kind in offered:
            if kind != "human":
                assert f"web.bot.{kind}" in WEB_PHRASES[language], kind
        create_table(page, server_url, ["greedy", "random"], seed=5)
        check_screen(page, language, "the table")
        assert (
            page.locator("#players .player-name").nth(1).inner_text()
            == (WEB_PHRASES[language]["web.bot.greedy"])
        )
        for move in range(40):
            page.wait_for_selector(TURN_OR_END)
            if page.locator("#gameover").is_visible():
                break
            if page.locator(PHASE).count():
                click_and_wait(page, page.locator(PHASE).first.click)
                continue
            action = best_lay(page)
            page.click(f"{HAND}[data-species='{action['species']}']")
            if move < 2:
                page.locator("#all-moves").evaluate("details => { details.open = true; }")
                check_screen(page, language, "a species chosen, the move list open")
            target = f"{TARGETS}[data-row='{action['row']}'][data-side='{action['side']}']"
            click_and_wait(page, page.locator(target).click)
        check_screen(page, language, "after some moves")
        # An error: the page's words only (not "no table 'nope'").
        page.goto(server_url + "#table=nope&token=nope")
        alert = page.locator("#error[role='alert']")
        alert.wait_for(state="visible")
        assert alert.inner_text().startswith(WEB_PHRASES[language]["web.error.404"])
        assert "nope" not in alert.inner_text()
        check_screen(page, language, "the error")
        problems.messages = [m for m in problems.messages if "404" not in m]
        assert problems.messages == []
    finally:
        context.close()


@pytest.mark.parametrize("language", ["de", "ru"])
def test_a_refused_move_is_explained_in_the_language_of_the_request(
    hintless_url: str, language: str
) -> None:
    import httpx

    url = hintless_url.rstrip("/")
    created = httpx.post(f"{url}/api/tables", json={"seats": ["human", "human"]}).json()
    headers = {"Authorization": f"Bearer {created['tokens']['0']}"}
    document = httpx.get(f"{url}/api/tables/{created['table']}", headers=headers).json()
    to_act = document["view"]["current_player"]
    if to_act == 0:  # seat 0 acts first: its second answer to move 0 is stale
        body = {"action": document["legal_actions"][0], "move": 0}
        httpx.post(f"{url}/api/tables/{created['table']}/actions", json=body, headers=headers)
        body = {"action": document["legal_actions"][0], "move": 0}
        key = "web.error.stale_move"
    else:
        body = {"action": {"type": "draw"}, "move": 0}
        key = "web.error.not_your_turn"
    answer = httpx.post(
        f"{url}/api/tables/{created['table']}/actions",
        json=body,
        headers={**headers, "Accept-Language": language},
    )
    assert answer.status_code == 409
    assert answer.json()["error"] == WEB_PHRASES[language][key]
    assert answer.headers["Content-Language"] == language
    english = httpx.post(f"{url}/api/tables/{created['table']}/actions", json=body, headers=headers)
    assert english.json()["error"] != WEB_PHRASES[language][key]  # the English detail


@pytest.mark.parametrize("language", ["de", "ru"])
def test_the_stand_in_notice_has_a_phrase(language: str) -> None:
    from cuckoo_rules.web.documents import _notice

    note = (
        "The bot of P1 ismcts (ismcts) failed twice (RuntimeError: broken; RuntimeError: "
        "broken); the greedy bot played this move instead."
    )
    text = _notice(note, language)
    assert text == WEB_PHRASES[language]["web.stand_in"].format(
        who="P1 ismcts (ismcts)", failures="RuntimeError: broken; RuntimeError: broken"
    )
    assert "failed" not in text  # the sentence is the language's; the errors are Python's
