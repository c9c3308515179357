"""The browser client end to end: headless Chromium plays whole games by clicking.

``cuckoo-rules serve`` runs as a real process on a free port of 127.0.0.1 with a
temporary database, and Playwright drives Debian's Chromium (never a downloaded one).
Without the ``playwright`` package or a Chromium the tests are skipped, unless
``CUCKOO_REQUIRE_BROWSER=1`` is set (CI sets it), which turns the skip into a failure.

Screenshots are written to ``$CUCKOO_ARTIFACTS`` (default ``test-artifacts/`` at the
repository root): ``web-client-midgame.png``, ``web-client-end.png``,
``web-client-phone.png`` (the same seat mid-game at 375x740) and
``web-client-phone-host.png`` (a three-seat table with a friend's seat, at 375x740).
Every wait has a timeout.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import math
import os
import re
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import pytest

import cuckoo_rules as cr
from cuckoo_rules.options import option_info
from tests.conftest import ROOT
from tests.servers import serve

if TYPE_CHECKING:
    from playwright.sync_api import Browser, ConsoleMessage, Error, Page, Request, ViewportSize

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SERVER_TIMEOUT = 20.0  # seconds, for the server to print its URL
STEP_MS = 5_000  # milliseconds, for any one click or answer
GAME_SECONDS = 40.0  # for a whole game against a bot (a few seconds in practice)
DESKTOP: ViewportSize = {"width": 1280, "height": 900}
PHONE: ViewportSize = {"width": 375, "height": 740}

ACTIONS = "#actions button:not([disabled])"
HAND = "#hand button.hand-card"
TARGETS = "#rows button.target:not([disabled])"
READY = f"{ACTIONS}, #gameover:not([hidden])"
ANSWERED = """
    renders => Number(document.body.dataset.renders) > renders
        && document.body.dataset.busy === "false"
"""


# --------------------------------------------------------------------------- fixtures


def unavailable(reason: str) -> NoReturn:
    """Skip, or fail when ``CUCKOO_REQUIRE_BROWSER=1`` says the browser must be there."""
    if os.environ.get("CUCKOO_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{reason}, and CUCKOO_REQUIRE_BROWSER=1 requires the browser tests")
    pytest.skip(reason)


def chromium_path() -> str | None:
    if Path("/usr/bin/chromium").is_file():
        return "/usr/bin/chromium"
    return shutil.which("chromium")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if importlib.util.find_spec("playwright") is None:
        unavailable("the playwright package is not installed")
    executable = chromium_path()
    if executable is None:
        unavailable("no Chromium at /usr/bin/chromium or on the PATH")
    for module in ("starlette", "uvicorn"):
        if importlib.util.find_spec(module) is None:
            unavailable(f"{module} (the web extra) is not installed")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=executable, args=CHROMIUM_ARGS, timeout=30_000
        )
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture(scope="module")
def server_url(browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Run ``cuckoo-rules serve --port 0`` on a fresh database; yield its URL."""
    folder = tmp_path_factory.mktemp("web-browser")
    log = folder / "server.log"
    with serve(folder / "db.sqlite3", log, SERVER_TIMEOUT) as (_, url):
        yield url
    assert "Traceback" not in log.read_text(), log.read_text()


@pytest.fixture(scope="module")
def artifacts() -> Path:
    folder = Path(os.environ.get("CUCKOO_ARTIFACTS") or ROOT / "test-artifacts")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class Problems:
    """The JavaScript errors and console errors of the pages it watches."""

    def __init__(self) -> None:
        self.messages: list[str] = []

    def watch(self, page: Page, name: str) -> Page:
        def console(message: ConsoleMessage) -> None:
            if message.type == "error":
                self.messages.append(f"{name} console: {message.text}")

        def error(exception: Error) -> None:
            self.messages.append(f"{name} page error: {exception}")

        page.on("console", console)
        page.on("pageerror", error)
        page.set_default_timeout(STEP_MS)
        return page


# --------------------------------------------------------------------------- helpers


def create_table(
    page: Page,
    url: str,
    seats: list[str],
    seed: int | None,
    variants: dict[str, str | bool] | None = None,
) -> None:
    """Fill in the new-game form and start: seat 0 is this page, the others ``seats``.

    ``variants`` gives rule variants to choose in the form (a select's value, or whether
    a checkbox is ticked).
    """
    page.goto(url)
    page.wait_for_selector("#seat-1 option[value='random']", state="attached")
    page.select_option("#num-players", str(len(seats) + 1))
    for seat, kind in enumerate(seats, start=1):
        page.select_option(f"#seat-{seat}", kind)
    if seed is not None:
        page.fill("#seed", str(seed))
    if variants:
        page.wait_for_selector("#variant-fields [data-option]", state="attached")
        page.locator("details.variants").evaluate("details => { details.open = true; }")
        for name, value in variants.items():
            if isinstance(value, bool):
                page.set_checked(f"#opt-{name}", value)
            else:
                page.select_option(f"#opt-{name}", value)
    page.click("#start")
    page.wait_for_selector("#rows > li.row")
    page.wait_for_function("document.body.dataset.renders !== '0'")


def click_and_wait(page: Page, click: Callable[[], None]) -> None:
    """Click, then wait until the server's answer has been drawn."""
    renders = int(page.evaluate("document.body.dataset.renders"))
    click()
    page.wait_for_function(ANSWERED, arg=renders)


def lay_at_row_end(page: Page) -> bool:
    """Lay by choosing a species in the hand, then a "Lay" target; False if none."""
    if page.locator(HAND).count() == 0:
        return False
    my_lays = page.locator("#log li.ev-laid.mine")
    before = my_lays.count()
    page.locator(HAND).first.click()
    assert page.locator(f"{HAND}[aria-pressed='true']").count() == 1
    click_and_wait(page, page.locator(TARGETS).first.click)
    assert my_lays.count() == before + 1
    return True


def play_one_move(page: Page, move: int) -> None:
    """Every third lay goes through the row targets, everything else through the list."""
    page.wait_for_selector(READY)
    if page.locator("#gameover").is_visible():
        return
    if move % 3 == 1 and lay_at_row_end(page):
        return
    click_and_wait(page, page.locator(ACTIONS).first.click)


def to_act(*pages: Page) -> Page:
    """The page whose seat is to act, once it has shown its moves (others poll each second)."""
    deadline = time.monotonic() + STEP_MS / 1000
    while time.monotonic() < deadline:
        for page in pages:
            if page.locator(ACTIONS).count():
                return page
        pages[0].wait_for_timeout(50)
    pytest.fail("no seat was offered a move")


def screenshot(page: Page, path: Path) -> None:
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(path), full_page=True)


CLIPPED_NAMES = """
    () => [...document.querySelectorAll(".card .name")]
        .filter(name => {
            const inner = name.getBoundingClientRect();
            const card = name.closest(".card").getBoundingClientRect();
            return inner.left < card.left - 1 || inner.right > card.right + 1;
        })
        .map(name => name.textContent)
"""


def page_width(page: Page) -> int:
    width: int = page.evaluate("document.documentElement.scrollWidth")
    return width


TABLE_OPTIONS = """
    async () => {
        const fragment = new URLSearchParams(window.location.hash.slice(1));
        const headers = { Authorization: `Bearer ${fragment.get("token")}` };
        const response = await fetch(`/api/tables/${fragment.get("table")}`, { headers });
        return (await response.json()).view.options;
    }
"""


def check_variant_form(page: Page) -> None:
    """The rule variants are built from ``/api/meta``: a field per option, in order."""
    page.wait_for_selector("#opt-refill_trigger", state="attached")
    page.click("details.variants summary")
    fields = page.locator("#variant-fields [data-option]")
    names = fields.evaluate_all("fields => fields.map(field => field.dataset.option)")
    assert names == [info.name for info in option_info() if info.name != "num_players"]
    info = {info.name: info for info in option_info()}["refill_trigger"]
    select = page.locator("#opt-refill_trigger")
    assert select.is_visible()
    assert page.locator("label[for='opt-refill_trigger']").inner_text() == info.label
    choices = select.locator("option")
    values = choices.evaluate_all("options => options.map(option => option.value)")
    assert values == ["capture", "same_species_lay"]
    assert choices.all_inner_texts() == [f"{info.choices[0].text} (standard)", info.choices[1].text]
    assert select.input_value() == "capture"
    dealer = page.locator("#opt-next_round_first_player option[value='same_dealer']")
    assert dealer.count() == 1
    assert page.locator("#opt-optional_draw_if_adjacent[data-type='bool']").is_checked()
    assert not page.locator("#opt-always_prompt_flock").is_checked()
    assert page.locator("#opt-initial_row_length[data-type='int']").input_value() == "3"


# --------------------------------------------------------------------------- tests


def posted_actions(page: Page) -> list[object]:
    """The bodies the page posts to ``/actions``, in order, as they are sent."""
    posted: list[object] = []

    def request(request: Request) -> None:
        if request.method == "POST" and request.url.split("?")[0].endswith("/actions"):
            posted.append(json.loads(request.post_data or "null"))

    page.on("request", request)
    return posted


def test_whole_game_against_a_bot_by_clicking(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    problems = Problems()
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = problems.watch(context.new_page(), "desktop")
        posted = posted_actions(page)
        create_table(page, server_url, ["random"], seed=7)
        check_species_key(page)
        assert re.search(r"#table=[^&]+&token=.+", page.url), page.url
        assert page.locator("#rows > li.row").count() == 4
        assert page.locator("#hand .hand-card").count() >= 1
        assert page.locator("#players .player").count() == 2

        started = time.monotonic()
        move = 0
        while not page.locator("#gameover").is_visible():
            assert time.monotonic() - started < GAME_SECONDS, f"no end after {move} moves"
            play_one_move(page, move)
            move += 1
            if move == 3:
                check_previews_shown(page)
            if move == 12:
                screenshot(page, artifacts / "web-client-midgame.png")
                check_phone_view(browser, page.url, artifacts, problems)

        title = page.locator("#gameover-title").inner_text()
        winners = r"(you win|P1 random wins|.* share the victory)"
        assert re.fullmatch(rf"Game over: {winners} \(.+\)\.", title), title
        assert page.locator("#status").inner_text() == title
        assert page.locator("#standings li").count() == 2
        assert page.locator("#actions-section").is_hidden()
        log = page.locator("#log").inner_text()
        assert re.search(r"P1 random (lays|draws|does not draw|flies)", log), log
        assert re.search(r"You (lay|draw|do not draw|fly)", log), log
        assert title in log  # the outcome's sentence ends the narration too
        reason = page.locator("#gameover-reason").inner_text()
        reasons = "(seven species|two triples) in a collection|the cards ran out; most cards.*"
        assert re.fullmatch(rf"Reason: ({reasons})\.", reason), reason
        assert page.locator("#error").is_hidden()
        screenshot(page, artifacts / "web-client-end.png")
        page.reload()  # the reason comes back with the events
        page.locator("#gameover").wait_for(state="visible")
        assert page.locator("#gameover-reason").inner_text() == reason
        assert move > 5
        # Every move was sent with the move number it answers (a resent one is refused).
        assert posted
        for body in posted:
            assert isinstance(body, dict), body
            assert set(body) == {"action", "move"}, body
            assert type(body["move"]) is int
        assert problems.messages == []
    finally:
        context.close()


TABLE_DOCUMENT = """
    async () => {
        const fragment = new URLSearchParams(window.location.hash.slice(1));
        const headers = { Authorization: `Bearer ${fragment.get("token")}` };
        const response = await fetch(`/api/tables/${fragment.get("table")}`, { headers });
        return await response.json();
    }
"""


def check_species_key(page: Page) -> None:
    """The key of species and flock sizes is built from /api/meta (cards.py)."""
    rows = page.locator("#species-table tbody tr")
    assert rows.count() == len(cr.SPECIES)
    for row, species in zip(rows.all(), cr.SPECIES, strict=True):
        cells = row.locator("td").all_text_contents()  # in a closed <details>
        assert row.locator(".name").text_content() == species.label
        assert cells == [str(species.copies), str(species.small_flock), str(species.big_flock)]


def check_previews_shown(page: Page) -> None:
    """Each move button says what the server's preview of that action says."""
    page.wait_for_selector(READY)
    if page.locator("#gameover").is_visible():
        return
    document = page.evaluate(TABLE_DOCUMENT)
    names = {s.value: s.label for s in cr.SPECIES}
    buttons = page.locator("#actions button.action-lay")
    lays = [
        (action, seen)
        for action, seen in zip(document["legal_actions"], document["previews"], strict=True)
        if action["type"] == "lay"
    ]
    assert buttons.count() == len(lays)
    for button, (action, seen) in zip(buttons.all(), lays, strict=True):
        title = str(button.get_attribute("title"))
        assert f"row {action['row']}" in title
        taken = seen["captured"]
        if taken:
            assert f"captures {len(taken)}: {', '.join(names[s] for s in taken)}" in title
        else:
            assert "captures nothing" in title
        assert ("the row is refilled" in title) == seen["refilled"]
        assert ("then you may draw" in title) == (seen["draw_offered"] is True)


def check_phone_view(browser: Browser, url: str, artifacts: Path, problems: Problems) -> None:
    """The same seat, opened at 375x740 from its link: no horizontal scroll of the page."""
    context = browser.new_context(viewport=PHONE)
    try:
        phone = problems.watch(context.new_page(), "phone")
        phone.goto(url)
        phone.wait_for_selector("#rows > li.row")
        phone.wait_for_selector(READY)
        assert page_width(phone) <= PHONE["width"]
        assert phone.evaluate(CLIPPED_NAMES) == []  # every species name fits on its card
        screenshot(phone, artifacts / "web-client-phone.png")
    finally:
        context.close()


def test_phone_layout_share_links_reload_and_keyboard(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    problems = Problems()
    context = browser.new_context(viewport=PHONE)
    try:
        page = problems.watch(context.new_page(), "phone host")
        page.goto(server_url)
        page.wait_for_selector("#seat-1 option[value='greedy']", state="attached")
        assert page_width(page) <= PHONE["width"]
        check_variant_form(page)
        assert page_width(page) <= PHONE["width"]  # the variants open
        variants: dict[str, str | bool] = {
            "refill_trigger": "same_species_lay",
            "next_round_first_player": "same_dealer",
            "optional_draw_if_adjacent": False,
        }
        # Two human seats: the server draws the seed (a given one would be refused).
        create_table(page, server_url, ["greedy", "human"], seed=None, variants=variants)
        assert page.evaluate(TABLE_OPTIONS) == {
            **cr.GameOptions(num_players=3).to_json(),
            **variants,
        }
        assert page_width(page) <= PHONE["width"]

        # The other human seat gets a link; opening it joins that seat.
        links = page.locator("#share-list a")
        assert links.count() == 2  # seat 2, and a spectator's link
        guest = problems.watch(context.new_page(), "phone guest")
        guest.goto(str(links.first.get_attribute("href")))
        guest.wait_for_selector("#players .player.me[data-seat='2']")
        assert page_width(guest) <= PHONE["width"]

        # Reloading resumes the same table and seat.
        table_url = page.url
        page.reload()
        page.wait_for_selector("#players .player.me[data-seat='0']")
        assert page.url == table_url

        # Keyboard only: Enter on a focused move; then the focus stays among the moves.
        for _ in range(4):
            seat_page = to_act(page, guest)
            seat_page.locator(ACTIONS).first.focus()
            click_and_wait(seat_page, functools.partial(seat_page.keyboard.press, "Enter"))
            focus = "document.activeElement.closest('#actions-section, #gameover') !== null"
            assert seat_page.evaluate(focus)
        assert page_width(page) <= PHONE["width"]
        assert page.evaluate(CLIPPED_NAMES) == []
        assert page.locator("#log li").count() > 3
        screenshot(page, artifacts / "web-client-phone-host.png")
        assert problems.messages == []
    finally:
        context.close()


HINT_MS = 120_000  # the first hint of a fresh install compiles the search kernels (~30 s)
HINT_DOCUMENT = """
    async () => {
        const fragment = new URLSearchParams(window.location.hash.slice(1));
        const headers = { Authorization: `Bearer ${fragment.get("token")}` };
        const response = await fetch(`/api/tables/${fragment.get("table")}/hint`, { headers });
        return await response.json();
    }
"""


def test_the_hint_button_shows_three_moves(browser: Browser, server_url: str) -> None:
    for module in ("numpy", "numba"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} (the batch extra, which hints need) is not installed")
    problems = Problems()
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = problems.watch(context.new_page(), "hint")
        posted = posted_actions(page)
        create_table(page, server_url, ["random"], seed=7)
        page.wait_for_selector(ACTIONS)
        assert page.locator("#hint").is_hidden()
        page.click("#hint-button")
        moves = page.locator("#hint-list button.hint-move")
        moves.nth(2).wait_for(timeout=HINT_MS)
        assert moves.count() == 3
        document = page.evaluate(TABLE_DOCUMENT)
        hint = page.evaluate(HINT_DOCUMENT)  # the server's answer, kept: no second search
        assert hint["move"] == document["move"]
        title = page.locator("#hint-title").inner_text()
        assert f"({hint['simulations']} simulations)" in title
        for button, item in zip(moves.all(), hint["hints"], strict=True):
            assert item["action"] in document["legal_actions"]
            percent = f"{math.floor(100 * item['win_chance'] + 0.5)}%"  # JavaScript's round
            assert button.inner_text() == f"{percent} {item['text']}"
            assert button.is_enabled()
        # Clicking a hinted move plays it; the hint goes with the move it answered.
        click_and_wait(page, moves.first.click)
        assert posted == [{"action": hint["hints"][0]["action"], "move": hint["move"]}]
        assert page.locator("#hint").is_hidden()
        assert page.locator("#error").is_hidden()
        assert problems.messages == []
    finally:
        context.close()


def test_an_unknown_table_shows_an_error(browser: Browser, server_url: str) -> None:
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        page.set_default_timeout(STEP_MS)
        page.goto(server_url + "#table=no-such-table&token=nope")
        alert = page.locator("#error[role='alert']")
        alert.wait_for(state="visible")
        assert "No such table" in alert.inner_text()
        assert page.locator("#setup").is_visible()
    finally:
        context.close()
