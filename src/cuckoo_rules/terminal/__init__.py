"""Play CuBirds in a terminal: one screen of 80x24 at every prompt, and the loops.

Everything shown comes from a :class:`~cuckoo_rules.PlayerView`, from events redacted
by :func:`~cuckoo_rules.visible_events` and from what the seat's own history proves
(:meth:`Match.knowledge <cuckoo_rules.Match.knowledge>`), so the screen never shows what
the seat may not know. Bots are given views only. The games run on a
:class:`~cuckoo_rules.Match`, what happened is told by :mod:`cuckoo_rules.narration`,
and what an action would do by :func:`~cuckoo_rules.preview.preview`: the terminal holds
no rule of its own.

The package is split by job, and every name below is also importable from here
(``from cuckoo_rules.terminal import render_screen``):

- :mod:`cuckoo_rules.terminal.screen`: the screen, pure functions of a view
  (:func:`render_screen`, the move lists, the help page and the hint), around the board
  of :mod:`cuckoo_rules.board` (:func:`render_view`, which the research environments
  show too);
- :mod:`cuckoo_rules.terminal.summaries`: the summaries of a round and of the game;
- :mod:`cuckoo_rules.terminal.input`: the :class:`Console` and reading what the user
  types (:func:`parse_choice`);
- :mod:`cuckoo_rules.terminal.play` and :mod:`cuckoo_rules.terminal.replay`: the loops
  (:func:`play_interactive`, which also resumes a saved game, and
  :func:`replay_interactive`);
- :mod:`cuckoo_rules.terminal.errors`: :class:`ResumeError`.

**The screen** (:func:`render_screen`) fits 80 columns and 24 lines with five players: a
header (round, turn, who acts, pile sizes), the four rows (a long row as runs,
``ROB×16``), the hand with each species' flock sizes (``OWL×3 (3/4 ✓1)``: 3 held, a
small flock is 3 and a big one 4, flying them home now brings 1 to the collection), one
line per player (hand size, progress towards the two wins, the collection, and the
cards known to be in the hand), the latest narration that fits (wrapped, never cut),
and the compact move list (:func:`compact_moves`: lays grouped by species, ``5:1L+2DUC``
is move 5, at the left of row 1, taking 2 ducks). The numbers are those of
:func:`~cuckoo_rules.legal_actions`' canonical order. ``m`` or ``?`` shows every move
described (:func:`describe_action`), ``help`` the commands and the rules in short, and
``hint`` the expert's best moves (:func:`hint_lines`, from the seat's view and knowledge
only; it needs the ``batch`` extra). On a terminal the screen is cleared and drawn
again at each prompt; otherwise (a pipe, a test) the same screens are printed one after
the other.

**Round ends and the end of the game** stop on a summary (:func:`round_summary`,
:func:`game_over_summary`) until Enter is pressed.

**Languages**: every text comes from the phrase tables (keys ``terminal.*`` of
:data:`cuckoo_rules.narration.PHRASES`, and the narration's sentences), in English,
German or Russian. Species are shown as three letters of the language (``OWL``, ``EUL``,
``СОВ``); the notation typed (``lay owl 0 left``) stays English.

The loops read and write through injected streams (:class:`Console`), so they can be
tested without a terminal; ``cuckoo-rules play`` and ``cuckoo-rules replay`` wire them
to the real one.
"""

# ruff: noqa: RUF002
from __future__ import annotations

from ..board import ABBREVIATIONS, WIDTH, abbreviation, render_view, visible_width
from .errors import ResumeError
from .input import Console, color_enabled, illegal_reason, parse_choice
from .play import HUMAN, play_interactive, resume_seats
from .replay import replay_interactive
from .screen import (
    HEIGHT,
    compact_moves,
    describe_action,
    full_moves,
    help_lines,
    hint_lines,
    render_screen,
)
from .summaries import game_over_summary, round_summary

__all__ = [
    "ABBREVIATIONS",
    "HEIGHT",
    "HUMAN",
    "WIDTH",
    "Console",
    "ResumeError",
    "abbreviation",
    "color_enabled",
    "compact_moves",
    "describe_action",
    "full_moves",
    "game_over_summary",
    "help_lines",
    "hint_lines",
    "illegal_reason",
    "parse_choice",
    "play_interactive",
    "render_screen",
    "render_view",
    "replay_interactive",
    "resume_seats",
    "round_summary",
    "visible_width",
]
