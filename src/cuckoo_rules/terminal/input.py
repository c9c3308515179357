"""The terminal's input and output: the :class:`Console`, and reading what the user types.

A loop reads and writes through a :class:`Console` of injected streams, so it can be
tested without a terminal. :func:`parse_choice` reads a move (its number in the move
list or its notation, ``lay owl 0 left``; a row that does not exist is named as such),
:func:`illegal_reason` says why a move is not legal as the engine does, and
:func:`command_words` the words of a command (``help``, ``hilfe``).
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Iterator, Sequence
from types import FrameType
from typing import TextIO

import attrs

from ..actions import NUM_ROWS, Action, Lay
from ..board import WIDTH, fit, terminal_phrase
from ..engine import legal_actions, why_illegal
from ..errors import DecodeError
from ..narration import species_name
from ..notation import format_action, parse_action
from ..views import PlayerView
from .screen import HEIGHT

__all__ = ["Console", "color_enabled", "command_words", "illegal_reason", "parse_choice"]

_CLEAR = "\x1b[H\x1b[2J"


def color_enabled(stream: TextIO, *, no_color: bool = False) -> bool:
    """Whether to colour the output: a terminal, no ``--no-color`` and no ``NO_COLOR``.

    Args:
        stream: The output stream.
        no_color: Whether colour was turned off on the command line.
    """
    if no_color or os.environ.get("NO_COLOR"):
        return False
    return stream.isatty()


@attrs.define
class Console:
    """The input and output of an interactive loop.

    Attributes:
        input: Where the user's lines are read from.
        output: Where the screens are written.
        color: Whether to colour species with ANSI escapes.
        language: The language of every text (one of
            :data:`~cuckoo_rules.narration.LANGUAGES`).
        clear: Whether to clear the screen before each screen (a terminal); without it
            the screens are printed one after the other. A cleared screen is drawn
            again at once when the terminal is resized (``SIGWINCH``), and one smaller
            than 80x24 says so on its first line, the screen cut to fit below it.
    """

    input: TextIO
    output: TextIO
    color: bool = False
    language: str = "en"
    clear: bool = False
    _lines: list[str] = attrs.field(factory=list, init=False, repr=False, eq=False)
    _prompt: str | None = attrs.field(default=None, init=False, repr=False, eq=False)

    def say(self, *lines: str) -> None:
        """Write lines to the output."""
        if self.clear:  # what a redraw draws again
            self._lines += lines
        for line in lines:
            self.output.write(line + "\n")
        self.output.flush()

    def ask(self, prompt: str) -> str | None:
        """Write ``prompt`` and read a line; ``None`` at the end of input (Ctrl-D).

        Input that is not a terminal is not echoed: a new line ends the prompt's line then.
        """
        self.output.write(prompt)
        self.output.flush()
        self._prompt = prompt
        try:
            with self._redrawn_on_resize():
                line = self.input.readline()
        finally:
            self._prompt = None
        if not line or not self.input.isatty():  # a terminal echoes the Enter, a pipe not
            self.output.write("\n")
        return line.strip() if line else None

    def show(self, lines: Sequence[str]) -> None:
        """Show a whole screen: cleared first on a terminal, else after the last one."""
        if not self.clear:
            self.say(*lines)
            return
        self._lines = list(lines)
        self._draw()

    def window(self) -> tuple[int, int] | None:
        """The terminal's columns and lines, or ``None`` if the output is no terminal."""
        if not self.clear:
            return None
        try:
            size = os.get_terminal_size(self.output.fileno())
        except (OSError, ValueError, AttributeError):  # no terminal, or a closed one
            return None
        return size.columns, size.lines

    def _draw(self) -> None:
        """Clear the terminal and draw the screen, with a notice if the window is too small."""
        lines = self._lines
        size = self.window()
        if size is not None and (size[0] < WIDTH or size[1] < HEIGHT):
            columns, rows = size
            notice = self.text("too_small", columns=columns, lines=rows, width=WIDTH, height=HEIGHT)
            lines = [fit(line, columns) for line in [notice, *lines][: max(1, rows - 1)]]
        self.output.write(_CLEAR)
        for line in lines:
            self.output.write(line + "\n")
        self.output.flush()

    def _redraw(self, signum: int, frame: FrameType | None) -> None:
        """Draw the screen and the prompt again (the terminal was resized)."""
        with contextlib.suppress(OSError):
            self._draw()
            self.output.write(self._prompt or "")
            self.output.flush()

    @contextlib.contextmanager
    def _redrawn_on_resize(self) -> Iterator[None]:
        """While a line is read on a terminal, redraw the screen whenever it is resized."""
        if (
            not self.clear
            or not hasattr(signal, "SIGWINCH")
            or threading.current_thread() is not threading.main_thread()
        ):
            yield
            return
        before = signal.signal(signal.SIGWINCH, self._redraw)
        try:
            yield
        finally:
            signal.signal(signal.SIGWINCH, before)

    def screen(self, lines: Sequence[str], prompt: str) -> str | None:
        """Show a whole screen (:meth:`show`), then ask ``prompt``."""
        self.show(lines)
        return self.ask(prompt)

    def text(self, key: str, *, count: int | None = None, **fields: object) -> str:
        """The phrase ``terminal.<key>`` in the console's language."""
        return terminal_phrase(key, self.language, count=count, **fields)


def command_words(key: str, language: str, english: str) -> frozenset[str]:
    """A command's words: the English ones and the language's (``help``, ``hilfe``).

    Args:
        key: The command's key among the ``terminal.commands.*`` phrases.
        language: The language of the loop.
        english: The English words, separated by spaces (``"q quit exit"``).

    Example:
        >>> sorted(command_words("help", "de", "help"))
        ['help', 'hilfe']
    """
    words = english + " " + terminal_phrase(f"commands.{key}", language)
    return frozenset(words.lower().split())


def illegal_reason(view: PlayerView, action: Action, language: str = "en") -> str:
    """Why ``action`` is not legal in ``view``, as the engine says it, in ``language``.

    The reason is the engine's (:func:`~cuckoo_rules.why_illegal`, the reasons of the
    :class:`~cuckoo_rules.IllegalActionError` of :func:`~cuckoo_rules.apply`), worded
    by the ``terminal.reason.*`` phrases.

    Raises:
        ValueError: If ``action`` is legal in ``view``.

    Example:
        >>> from cuckoo_rules import GameOptions, Lay, Side, Species, new_game, observe
        >>> view = observe(new_game(GameOptions(num_players=2), 7), 0)
        >>> illegal_reason(view, Lay(Species.FLAMINGO, 0, Side.LEFT))
        'you hold no flamingo'
    """
    reason = why_illegal(view, action)
    if reason is None:
        raise ValueError(f"{format_action(action)} is legal now")
    species = "" if reason.species is None else species_name(reason.species, language=language)
    return terminal_phrase(
        f"reason.{reason.code}", language, species=species, small=reason.needed, held=reason.held
    )


def _missing_row(text: str) -> int | None:
    """The row number of a lay that would read but for its row, out of range (``lay owl 5 l``)."""
    words = text.split()
    if len(words) < 4 or not words[-2].lstrip("+-").isdigit():
        return None
    row = int(words[-2])
    if 0 <= row < NUM_ROWS:
        return None
    try:
        action = parse_action(" ".join([*words[:-2], "0", words[-1]]))
    except DecodeError:
        return None
    return row if isinstance(action, Lay) else None


def parse_choice(text: str, view: PlayerView, language: str = "en") -> Action | str:
    """Read a choice: a number ``1..n`` of the move list or an action's notation.

    Args:
        text: What the user typed.
        view: The view of the seat to act (its legal actions are numbered from 1).
        language: The language of the messages.

    Returns:
        The chosen action, or a message saying why the input is not a choice (for an
        illegal action, the engine's reason: :func:`illegal_reason`).

    Example:
        >>> from cuckoo_rules import GameOptions, new_game, observe
        >>> view = observe(new_game(GameOptions(num_players=2), 7), 0)
        >>> parse_choice("17", view)
        Lay(Species.DUCK, 0, Side.LEFT)
        >>> parse_choice("99", view)
        'There is no move 99: type a number from 1 to 40.'
        >>> parse_choice("lay owl 0 right", view)
        Lay(Species.OWL, 0, Side.RIGHT)
        >>> parse_choice("lay owl 5 left", view)
        'There is no row 5: the rows are 0 to 3.'
        >>> print(parse_choice("fly owl", view))
        fly owl: a turn starts by laying birds (all of one species from your hand, at one
        end of a row).
    """
    actions = legal_actions(view)
    text = text.strip()
    count = len(actions)
    if not text:
        return terminal_phrase("empty_input", language, count=count)
    if text.lstrip("+-").isdigit():
        number = int(text)
        if 1 <= number <= count:
            return actions[number - 1]
        return terminal_phrase("no_such_move", language, number=number, count=count)
    try:
        action = parse_action(text)
    except DecodeError:
        row = _missing_row(text)
        if row is not None:
            return terminal_phrase("no_such_row", language, row=row, last=NUM_ROWS - 1)
        return terminal_phrase("unreadable", language, text=text[:40], count=count)
    if action not in actions:
        reason = illegal_reason(view, action, language)
        return terminal_phrase("illegal", language, move=text, reason=reason)
    return action
