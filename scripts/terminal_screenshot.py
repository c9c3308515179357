"""Screenshots of ``cuckoo-rules play`` at 80x24, in every language, as PNG files.

Runs the game in a pseudo-terminal of 80x24 (pexpect), reads the screen a person would
see with ``pyte`` (colours included), draws it as an HTML ``<pre>`` and takes its picture
with Playwright in headless Chromium. Writes, by default into ``docs/assets/``:

- ``terminal-en.png``, ``terminal-de.png``, ``terminal-ru.png``: a mid-game prompt;
- ``terminal-round-en.png``: the summary at the end of the first round.

Usage::

    python scripts/terminal_screenshot.py [--out DIR] [--chromium /usr/bin/chromium]

Needs the ``dev`` extra (pexpect, pyte, playwright) and a Chromium.
"""

from __future__ import annotations

import argparse
import html
import os
import re
import sys
from pathlib import Path

import pexpect
import pyte
from playwright.sync_api import sync_playwright

from cuckoo_rules.narration import LANGUAGES, PHRASES, phrase

ROOT = Path(__file__).resolve().parent.parent
GAME = ["play", "--players", "3", "--seed", "12", "--bots", "greedy"]
MOVES = 6  # the screenshot: the first lay after this many choices
BACKGROUND, FOREGROUND = "#1e1f29", "#e6e6e6"
ANSI_COLOURS = {
    "black": "#2e3436",
    "red": "#cc0000",
    "green": "#4e9a06",
    "brown": "#c4a000",
    "blue": "#3465a4",
    "magenta": "#75507b",
    "cyan": "#06989a",
    "white": "#d3d7cf",
    "brightblack": "#555753",
    "brightred": "#ef2929",
    "brightgreen": "#8ae234",
    "brightbrown": "#fce94f",
    "brightblue": "#729fcf",
    "brightmagenta": "#ad7fa8",
    "brightcyan": "#34e2e2",
    "brightwhite": "#eeeeec",
}


def colour(name: str, default: str) -> str:
    """A pyte colour (a name, ``default`` or six hex digits) as CSS."""
    if name == "default":
        return default
    if re.fullmatch(r"[0-9a-fA-F]{6}", name):
        return "#" + name
    return ANSI_COLOURS.get(name, default)


def screen_html(screen: pyte.Screen) -> str:
    """The screen as an HTML page with one ``<pre>``, each cell in its colours."""
    rows = []
    for y in range(screen.lines):
        line = screen.buffer[y]
        cells = []
        for x in range(screen.columns):
            char = line[x]
            fg = colour(char.fg, FOREGROUND)
            bg = colour(char.bg, BACKGROUND)
            if char.reverse:
                fg, bg = bg, fg
            style = f"color:{fg};background:{bg}"
            if char.bold:
                style += ";font-weight:bold"
            if char.underscore:
                style += ";text-decoration:underline"
            cells.append(f'<span style="{style}">{html.escape(char.data or " ")}</span>')
        rows.append("".join(cells))
    body = "\n".join(rows)
    return (
        "<!doctype html><meta charset='utf-8'><style>"
        f"body{{margin:0;background:{BACKGROUND}}}"
        "pre{margin:0;padding:14px 16px;font:15px/1.25 'DejaVu Sans Mono','Liberation Mono',"
        f"monospace;background:{BACKGROUND};display:inline-block}}"
        f"</style><pre>{body}</pre>"
    )


class Game:
    """``cuckoo-rules play`` in an 80x24 pseudo-terminal, with colours."""

    def __init__(self, language: str) -> None:
        env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
        env.update(TERM="xterm-256color", COLUMNS="80", LINES="24")
        self.child = pexpect.spawn(
            sys.executable,
            ["-m", "cuckoo_rules.cli", *GAME, "--lang", language],
            env=env,
            encoding="utf-8",
            timeout=60,
            dimensions=(24, 80),
        )
        self.child.delaybeforesend = None
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.Stream(self.screen)
        before, _, after = PHRASES[language]["terminal.prompt"].partition("{count}")
        self.prompts: list[str | type[pexpect.EOF]] = [
            re.escape(before) + r"\d+" + re.escape(after),
            re.escape(phrase("terminal.press_enter", language)),
            re.escape(phrase("terminal.press_enter_end", language)),
        ]

    def next(self) -> int:
        """Wait for the next prompt, the screen drawn; 0: a move, 1: a summary, 2: the end."""
        index: int = self.child.expect(list(self.prompts))
        after = self.child.after
        self.stream.feed((self.child.before or "") + (after if isinstance(after, str) else ""))
        return index

    def close(self) -> None:
        self.child.terminate(force=True)


def shoot(page: object, screen: pyte.Screen, path: Path) -> None:
    """Draw ``screen`` on the page and take the picture of its ``<pre>``."""
    page.set_content(screen_html(screen))  # type: ignore[attr-defined]
    page.locator("pre").screenshot(path=str(path))  # type: ignore[attr-defined]
    print(f"wrote {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "assets")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=args.chromium, args=["--headless", "--no-sandbox"]
        )
        page = browser.new_page(device_scale_factor=1)
        for language in LANGUAGES:
            game = Game(language)
            moves = 0
            shot_round = language != "en"
            shot_board = False
            while not (shot_board and shot_round):
                kind = game.next()
                if kind == 0:
                    moves += 1
                    count = int(re.findall(r"1-(\d+)", str(game.child.after))[-1])
                    if moves >= MOVES and count > 8 and not shot_board:  # a lay: the long list
                        shoot(page, game.screen, args.out / f"terminal-{language}.png")
                        shot_board = True
                    game.child.sendline("1")
                elif kind == 1:
                    if not shot_round:
                        shoot(page, game.screen, args.out / f"terminal-round-{language}.png")
                        shot_round = True
                    game.child.sendline("")
                else:
                    break
            game.close()
        browser.close()


if __name__ == "__main__":
    main()
