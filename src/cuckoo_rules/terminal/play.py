"""The terminal game's loop: a human against bots, and a saved game resumed.

:func:`play_interactive` runs a game on a :class:`~cuckoo_rules.Match`, showing the
screen (:func:`~cuckoo_rules.terminal.screen.render_screen`) at each of the human's
decisions and stopping on a summary at each round end and at the end of the game;
:func:`resume_seats` reads from a saved record which seat was the human's and which bots
played, for ``cuckoo-rules play --resume``.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
from collections.abc import Callable, Iterable, Iterator, Sequence

import attrs

from ..actions import Action
from ..board import screen_names, seat_label, wrap
from ..bots.specs import BotSpec, parse_bot_spec
from ..engine import legal_actions
from ..events import Event, GameOver, RoundEnded
from ..match import Bot, BotError, Match, MatchError
from ..narration import describe_event, narrate
from ..options import GameOptions
from ..records import GameRecord, Metadata, dumps_record
from ..views import PlayerView
from .errors import ResumeError
from .input import Console, command_words, parse_choice
from .review import show_review
from .screen import HEIGHT, full_moves, help_lines, hint_lines, log_lines, render_screen
from .summaries import game_over_summary, round_summary

__all__ = ["HUMAN", "play_interactive", "resume_seats"]

HUMAN = "human"
"""The name ``cuckoo-rules play`` gives the human's seat in a record (how a resume finds it)."""


def _write_atomically(path: str, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all: a temporary file, then a rename.

    The temporary file is in the same folder (so the rename is atomic) and is removed if
    anything goes wrong, a second Ctrl-C included; ``path`` then keeps what it held.

    Raises:
        OSError: If the folder cannot be written, or the rename fails.
    """
    folder, name = os.path.split(os.path.abspath(path))
    temporary = os.path.join(folder, f".{name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    with _signals_held():
        handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # umask applies
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(text)
                out.flush()
                os.fsync(out.fileno())
            os.replace(temporary, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Hold Ctrl-C (SIGINT) and a hang-up (SIGHUP) back while a file is written.

    A signal that comes meanwhile is delivered after (its exception raised then), so
    that a hang-up on the heels of a failed read does not stop the save it starts.
    Where signals cannot be held (Windows), nothing is done.
    """
    held = {getattr(signal, name) for name in ("SIGINT", "SIGHUP") if hasattr(signal, name)}
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _save(record: GameRecord, path: str, console: Console) -> bool:
    """Write ``record`` to ``path`` (atomically); say so, or say why not."""
    try:
        _write_atomically(path, dumps_record(record, indent=2) + "\n")
    except OSError as error:
        console.say(console.text("cannot_write", path=path, error=error))
        return False
    console.say(console.text("saved", path=path))
    return True


def _save_on_the_way_out(record: GameRecord, path: str, console: Console) -> None:
    """Save when the game is left by an exception (Ctrl-C, a closed terminal, an error).

    The file is written first; saying so may fail on a terminal that is gone.
    """
    try:
        _write_atomically(path, dumps_record(record, indent=2) + "\n")
    except OSError as error:
        with contextlib.suppress(OSError):
            console.say("", console.text("cannot_write", path=path, error=error))
        return
    with contextlib.suppress(OSError):
        console.say("", console.text("saved", path=path))
        if not record.metadata.result:
            console.say(console.text("resume_hint", path=path))


def _offer_save(record: GameRecord, save: str | None, console: Console) -> None:
    """Save to ``save``, or, without it, ask for a path (Enter, ``n`` or Ctrl-D skips)."""
    path = save
    if path is None:
        path = console.ask(console.text("save_ask"))
        if not path or path.strip().lower() in ("n", "no", "nein", "нет"):
            return
    if _save(record, path, console) and not record.metadata.result:
        console.say(console.text("resume_hint", path=path))


def resume_seats(record: GameRecord) -> tuple[int, tuple[BotSpec | None, ...]]:
    """Which seat of a saved game is the human's, and each other seat's bot spec.

    ``cuckoo-rules play`` names the human's seat ``human`` (:data:`HUMAN`) in the
    record's ``metadata.players`` and each bot's seat its spec (``greedy``,
    ``ismcts:iterations=50``), which is all a resume needs with the record's seed (each
    bot is seeded from it and its seat).

    Returns:
        The human's seat, and one entry per seat: the bot's spec, ``None`` at the human's.

    Raises:
        ResumeError: If the game is over, or the record does not name one ``human``
            seat and a valid bot spec at every other seat.

    Example:
        >>> from cuckoo_rules import GameOptions, GameRecord
        >>> from cuckoo_rules.records import Metadata
        >>> record = GameRecord(GameOptions(num_players=2), 7, (), Metadata(("greedy", "human")))
        >>> seat, specs = resume_seats(record)
        >>> seat, [None if s is None else s.text for s in specs]
        (1, ['greedy', None])
    """
    if record.metadata.result is not None:
        raise ResumeError("the game is over: nothing to resume")
    names = record.metadata.players
    if names is None:
        raise ResumeError("the record names no players")
    humans = [seat for seat, name in enumerate(names) if name == HUMAN]
    if len(humans) != 1:
        raise ResumeError(
            f"expected one seat named {HUMAN!r} (yours), found {len(humans)} in {list(names)!r}"
        )
    specs: list[BotSpec | None] = []
    for seat, name in enumerate(names):
        if seat == humans[0]:
            specs.append(None)
            continue
        try:
            specs.append(parse_bot_spec(name))
        except BotError as error:
            raise ResumeError(f"seat {seat}: {error}") from None
    return humans[0], tuple(specs)


@attrs.define
class _Table:
    """A game being played: the match, the human's seat, what it was told so far."""

    match: Match
    seat: int
    console: Console
    names: tuple[str, ...] | None
    log: list[str] = attrs.Factory(list)
    new_from: int = 0
    shown: int = 0  # the number of the first event not yet told

    @property
    def language(self) -> str:
        return self.console.language

    def tell(self) -> tuple[Event, ...]:
        """Narrate the events since the last call into the log; return them."""
        new = self.match.events(self.seat, self.shown)
        self.shown = self.match.event_count
        shown = screen_names(self.names, self.language)
        self.log += narrate(new, self.seat, names=shown, language=self.language)
        return new

    def screen(self, message: Sequence[str] = ()) -> list[str]:
        console = self.console
        return render_screen(
            self.match.view(self.seat),
            names=self.names,
            knowledge=self.match.knowledge(self.seat),
            log=self.log,
            new_from=self.new_from,
            message=message,
            color=console.color,
            language=self.language,
        )


def _seat_names(match: Match) -> tuple[str, ...]:
    """The seats' names when none were given: the match's, as short as the screen wants.

    A seat played from outside is named ``P1`` by the match, which the screen says
    already (so it is left out); a bot is named by its repr, of which the class name is
    kept (``GreedyBot``).

    Example:
        >>> from cuckoo_rules import GameOptions
        >>> from cuckoo_rules.bots import GreedyBot
        >>> _seat_names(Match(GameOptions(num_players=2), 7, [None, GreedyBot(seed=1)]))
        ('', 'GreedyBot')
    """
    return tuple(
        "" if name == f"P{seat}" else name.partition("(")[0].strip()
        for seat, name in enumerate(match.names)
    )


def _pages(lines: Sequence[str], size: int) -> list[list[str]]:
    return [list(lines[k : k + size]) for k in range(0, len(lines), size)] or [[]]


def _page_through(
    console: Console, title: str, lines: Sequence[str], view: PlayerView | None
) -> Action | None:
    """Show ``lines`` a page at a time; with ``view``, a move's number plays it."""
    pages = _pages(lines, HEIGHT - 2)
    for index, page in enumerate(pages):
        last = index == len(pages) - 1
        if view is None:
            prompt = console.text("press_enter_back")
        else:
            prompt = console.text("list_prompt_last" if last else "list_prompt")
        heading = title.format(
            first=index * (HEIGHT - 2) + 1, last=index * (HEIGHT - 2) + len(page)
        )
        text = console.screen([heading, *page], prompt)
        if text is None or text.lower() == "b":
            return None
        if view is not None and text:
            choice = parse_choice(text, view, console.language)
            if not isinstance(choice, str):
                return choice
    return None


def _choose(table: _Table, advise: Callable[[], Iterable[str]]) -> Action | None:
    """Ask the human for an action until a legal one is given; ``None`` to leave."""
    console, language = table.console, table.language
    view = table.match.view(table.seat)
    count = len(legal_actions(view))
    quit_words = command_words("quit", language, "q quit exit")
    help_words = command_words("help", language, "help")
    hint_words = command_words("hint", language, "hint h")
    log_words = command_words("log", language, "log l")
    advice: list[str] | None = None
    message: list[str] = []
    while True:
        text = console.screen(table.screen(message), console.text("prompt", count=count))
        message = []
        if text is None or text.lower() in quit_words:
            return None
        word = text.lower()
        if word == "b":  # back to the board, as in the lists: here, the board again
            continue
        if word in hint_words:
            if advice is None:
                advice = []
                for line in advise():
                    if not advice:
                        console.say(line)  # at once: the search takes a moment
                    advice.append(line)
            message = advice
            continue
        if word in ("m", "?"):
            title = console.text("list_title", first="{first}", last="{last}", count=count)
            chosen = _page_through(console, title, full_moves(view, language=language), view)
            if chosen is not None:
                return chosen
            continue
        if word in help_words:
            console.screen(
                help_lines(language, color=console.color), console.text("press_enter_back")
            )
            continue
        if word in log_words:
            wrapped = [part for line in table.log for part in wrap(line, indent="  ")]
            page = wrapped[-(HEIGHT - 2) :] or [console.text("log_empty")]
            console.screen([console.text("log_title"), *page], console.text("press_enter_back"))
            continue
        choice = parse_choice(text, view, language)
        if not isinstance(choice, str):
            return choice
        message = [choice]


def play_interactive(
    options: GameOptions,
    seed: int,
    seat: int,
    bots: Sequence[Bot | None],
    console: Console,
    *,
    names: Sequence[str] | None = None,
    save: str | None = None,
    hint_simulations: int | None = None,
    resume: GameRecord | None = None,
) -> GameRecord:
    """Play a game with a human at ``seat`` and bots at the other seats.

    The game is a :class:`~cuckoo_rules.Match`: a bot that follows the game (with an
    ``inform`` hook) is told what its seat saw. At each decision the screen
    (:func:`~cuckoo_rules.terminal.screen.render_screen`) shows the board, what happened
    and the moves; the human types a move's number or notation, ``m`` for every move
    described, ``help``, ``hint`` for the expert's best moves
    (:func:`~cuckoo_rules.terminal.screen.hint_lines`, from the seat's view and
    knowledge only), ``log`` for what happened lately, or ``q`` to leave. A round end
    and the end of the game stop on a summary until Enter is pressed; at the end of
    the game, ``r`` shows a review of it first
    (:func:`~cuckoo_rules.terminal.review.show_review`).

    Args:
        options: The game options.
        seed: The seed of the deal.
        seat: The human's seat.
        bots: One entry per seat: a bot, or ``None`` at the human's seat.
        console: Where to read the human's choices and write the screens.
        names: One name per seat, for the screen and the record.
        save: A path to write the record to at the end, and on every way out before
            it: ``q``, the end of input (Ctrl-D), or an exception such as Ctrl-C's
            :class:`KeyboardInterrupt` or a closed terminal's hang-up (which
            ``cuckoo-rules play`` turns into one), re-raised once the file is written.
            The file is written whole or not at all (a temporary file, then a rename).
            Without it, the human is offered to save on leaving with ``q`` or Ctrl-D.
        hint_simulations: The budget of each hint's search; ``None`` for the library's
            default (:data:`~cuckoo_rules.bots.expert.DEFAULT_HINT_SIMULATIONS`).
        resume: A saved record of this game (same options and seed) to go on from:
            its actions are taken first (:meth:`Match.from_record
            <cuckoo_rules.Match.from_record>`).

    Returns:
        The record of the game as far as it was played.

    Raises:
        BotError: If ``hint_simulations`` is not a positive integer (or ``None``), or a
            bot fails.
        MatchError: If ``resume`` is the record of another game.
        RecordError: If ``resume`` holds an illegal action.
    """
    if hint_simulations is not None and (type(hint_simulations) is not int or hint_simulations < 1):
        raise BotError(
            f"hint_simulations: expected a positive integer (or None), got {hint_simulations!r}"
        )
    seats = [None if s == seat else bots[s] for s in range(options.num_players)]
    if resume is None:
        match = Match(options, seed, seats, names=names)
    else:
        if (resume.options, resume.seed) != (options, seed):
            raise MatchError("resume: the record is of another game (its options or seed differ)")
        match = Match.from_record(resume, seats, names=names)
    meta = Metadata(players=tuple(names)) if names else Metadata()
    table = _Table(match, seat, console, tuple(names) if names else _seat_names(match))
    language = console.language
    shown_names = screen_names(table.names, language)
    table.tell()  # the deal (event 0 of the log), and on a resume what happened since
    table.new_from = len(table.log)
    try:
        finished = _play_turns(table, hint_simulations)
    except BaseException:  # Ctrl-C, a closed terminal (SIGHUP), a bot's error: save first
        if save is not None:
            with _signals_held():
                _save_on_the_way_out(match.record(meta), save, console)
        raise
    if not finished:
        console.say(console.text("you_leave"), console.text("seed_line", seed=match.seed))
        record = match.record(meta)
        _offer_save(record, save, console)
        return record
    record = match.record(meta)
    summary = game_over_summary(
        (),
        match.view(seat),
        names=table.names,
        color=console.color,
        language=language,
    )
    outcome = match.outcome
    assert outcome is not None
    over = GameOver(outcome.winners, outcome.reason)  # told once, by the summary
    said = describe_event(over, seat, names=shown_names, language=language)
    table.log = [line for line in table.log if line != said]
    seed_line = console.text("seed_line", seed=match.seed)  # the start's is wiped by now
    console.show(_with_log([*summary, seed_line, console.text("review.offer")], table))
    if save is not None:
        _save(record, save, console)
    if (console.ask(console.text("press_enter_end")) or "").lower() == "r":
        show_review(record, console, viewer=seat)  # the human's moves, every seat's chances
        console.ask(console.text("press_enter_end"))
    return record


def _play_turns(table: _Table, hint_simulations: int | None) -> bool:
    """Play until the game is over (``True``) or the human leaves (``False``)."""
    match, seat, console, language = table.match, table.seat, table.console, table.language
    names = table.names
    while not match.is_over:
        if match.bot_to_act:
            if console.clear:
                to_act = match.to_act
                assert to_act is not None
                who = seat_label(to_act, seat, names, language)
                console.output.write("\r" + console.text("thinking", player=who) + "\x1b[K")
                console.output.flush()
            match.play_bot()
        else:
            view = match.view(seat)

            def advise(view: PlayerView = view) -> Iterator[str]:
                knowledge = match.knowledge(seat)  # what the seat's own history proves
                return hint_lines(view, knowledge, simulations=hint_simulations, language=language)

            action = _choose(table, advise)
            if action is None:
                return False
            table.new_from = len(table.log)
            match.act(seat, action)
        new = table.tell()
        if not match.is_over and any(isinstance(event, RoundEnded) for event in new):
            summary = round_summary(
                new, match.view(seat), names=names, color=console.color, language=language
            )
            summary.append(console.text("seed_line", seed=match.seed))
            console.screen(_with_log(summary, table), console.text("press_enter"))
            table.new_from = len(table.log)
    return True


def _with_log(summary: list[str], table: _Table) -> list[str]:
    """A summary with the latest narration that fits above it, within the screen."""
    spare = HEIGHT - 3 - len(summary)  # a line for the saved message, one for the prompt
    if spare <= 0:
        return summary[: HEIGHT - 3]
    return [*log_lines(table.log, spare, table.new_from, table.console.color), *summary]
