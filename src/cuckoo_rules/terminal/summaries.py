"""The summaries the terminal stops on: the end of a round and the end of the game.

Both are pure functions of the seat's view and the events of the action that ended the
round or the game (redacted again for the seat), in lines of 80 columns.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..board import NAME_WIDTH, WIDTH, counts_label, fit, screen_names, seat_label, wrap
from ..board import terminal_phrase as _text
from ..events import Dealt, Event, GameOver, RoundEnded, visible_events
from ..narration import describe_event
from ..outcome import SPECIES_TO_WIN, TRIPLES_TO_WIN, win_progress
from ..state import Counts
from ..views import PlayerView

__all__ = ["game_over_summary", "round_summary"]


def _progress_text(counts: Counts, language: str) -> str:
    got = win_progress(counts)
    return _text(
        "progress",
        language,
        species=got.species,
        need_species=SPECIES_TO_WIN,
        triples=got.triples,
        need_triples=TRIPLES_TO_WIN,
    )


def _title(text: str) -> str:
    """A summary's first line: ``== text ====...``, as wide as the screen."""
    return fit(f"== {text} ".ljust(WIDTH, "="))


def _seat_lines(
    texts: Mapping[int, str],
    viewer: int | None,
    names: Sequence[str] | None,
    language: str,
    mark: Sequence[int] = (),
) -> list[str]:
    """A line per seat, in the order of ``texts``: a star if in ``mark``, the name, the text.

    The names are a column as wide as the longest; a long text wraps below its start.
    """
    who = {seat: seat_label(seat, viewer, names, language)[:NAME_WIDTH] for seat in texts}
    width = max(len(name) for name in who.values())
    lines = []
    for seat, text in texts.items():
        star = "★ " if seat in mark else "  "
        line = f"{star}{who[seat]:<{width}}  {text}"
        lines += [fit(part) for part in wrap(line, indent=" " * (width + 4))]
    return lines


def _collection_lines(
    view: PlayerView,
    order: Sequence[int],
    names: Sequence[str] | None,
    color: bool,
    language: str,
    mark: Sequence[int] = (),
) -> list[str]:
    texts = {}
    for seat in order:
        counts = view.collections[seat]
        cards = _text("cards", language, count=sum(counts))
        progress = _progress_text(counts, language)
        texts[seat] = f"{progress}, {cards}: {counts_label(counts, color, language)}"
    return _seat_lines(texts, view.viewer, names, language, mark)


def round_summary(
    events: Sequence[Event],
    view: PlayerView,
    *,
    names: Sequence[str] | None = None,
    color: bool = False,
    language: str = "en",
) -> list[str]:
    """The summary of a round that has just ended, as ``view``'s seat may know it.

    Who ended the round, what was discarded from each hand (all of the seat's own, and
    of the others only the cards everybody saw enter them), every collection, and who
    deals and plays first in the new round.

    Args:
        events: The events of the action that ended the round (with its
            :class:`~cuckoo_rules.RoundEnded`), redacted for the seat or not: they are
            redacted again.
        view: The seat's view after them (the new round).
        names: One name per seat.
        color: Whether to colour the species.
        language: The language of the texts.

    Raises:
        ValueError: If ``events`` hold no round end.
    """
    viewer = view.viewer
    seen = visible_events(events, viewer)
    ended = next((e for e in seen if isinstance(e, RoundEnded)), None)
    if ended is None:
        raise ValueError("events: no RoundEnded among them: no round ended")
    lines = [_title(_text("round_over", language, round=ended.round))]
    if ended.player == viewer:
        lines.append(_text("round_ender_you", language))
    else:
        who = seat_label(ended.player, viewer, names, language)
        lines.append(_text("round_ender", language, player=who))
    lines.append(_text("discarded", language))
    n = len(ended.hand_sizes)
    discards = {}
    for seat in range(n):
        size, hand, known = ended.hand_sizes[seat], ended.hands[seat], ended.known_hands[seat]
        if not size:
            text = _text("discard.none", language)
        elif hand is not None:
            cards = counts_label(hand, color, language)
            text = _text("discard.all", language, count=size, cards=cards)
        elif any(known):
            cards = counts_label(known, color, language)
            text = _text("discard.partly", language, count=size, cards=cards)
        else:
            text = _text("discard.unseen", language, count=size)
        discards[seat] = text
    lines += _seat_lines(discards, viewer, names, language)
    lines.append(_text("collections", language))
    lines += _collection_lines(view, range(n), names, color, language)
    dealt = next((e for e in seen if isinstance(e, Dealt)), None)
    if dealt is not None:
        lines += wrap(
            _text(
                "next_round",
                language,
                round=dealt.round,
                dealer=seat_label(dealt.dealer, viewer, names, language),
                player=seat_label(view.current_player, viewer, names, language),
            )
        )
    return lines


def game_over_summary(
    events: Sequence[Event],
    view: PlayerView,
    *,
    names: Sequence[str] | None = None,
    color: bool = False,
    language: str = "en",
) -> list[str]:
    """The summary of a finished game: why it ended and who won, the standings, its length.

    Why is told by the narration of the game's :class:`~cuckoo_rules.GameOver` (its
    :attr:`~cuckoo_rules.PlayerView.outcome`); the standings put the winners first, then
    the biggest collections.

    Args:
        events: The events of the last action (or any that hold the end), as for
            :func:`round_summary`; without a :class:`~cuckoo_rules.GameOver` among them
            the outcome of ``view`` is told.
        view: The seat's view of the finished game.
        names: One name per seat.
        color: Whether to colour the species.
        language: The language of the texts.

    Raises:
        ValueError: If the game is not over.
    """
    outcome = view.outcome
    if outcome is None:
        raise ValueError("view: the game is not over: it has no outcome to tell")
    viewer = view.viewer
    over = next(
        (e for e in visible_events(events, viewer) if isinstance(e, GameOver)),
        GameOver(outcome.winners, outcome.reason),
    )
    lines = [_title(_text("game_over", language))]
    shown = screen_names(names, language)
    lines += wrap(describe_event(over, viewer, names=shown, language=language) or "")
    lines.append(_text("standings", language))
    n = view.num_players
    order = sorted(range(n), key=lambda s: (s not in outcome.winners, -sum(view.collections[s]), s))
    lines += _collection_lines(view, order, names, color, language, outcome.winners)
    lines += wrap(
        _text(
            "lasted",
            language,
            turns=_text("turns", language, count=view.turn),
            rounds=_text("rounds", language, count=view.round),
        )
    )
    return lines
