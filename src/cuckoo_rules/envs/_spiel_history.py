"""What an OpenSpiel state remembers of its history, and the information-state layout.

A dealt :class:`~cuckoo_rules.envs.openspiel.CuBirdsState` holds a :class:`Record`: the
engine state, each seat's view of the deal, and one :class:`Step` per move (the events
:func:`cuckoo_rules.step` reported). Records and steps are never changed, so a state and
its clones share them, and they cache what each seat saw (:meth:`Step.line`), knew
(:func:`learned`) and what the public history adds up to (:class:`Tally`, the
information-state tensor's summary, laid out by :func:`information_state_layout`). This
module needs neither OpenSpiel nor NumPy.
"""

from __future__ import annotations

import functools
import json
from typing import TypeAlias

from ..actions import DRAW_ID, FLY_HOME_ID, NUM_DISTINCT_ACTIONS, PASS_ID, Lay, action_id
from ..cards import NUM_SPECIES, SPECIES
from ..codec import encode_counts, encode_event, encode_view
from ..errors import ViewError
from ..events import (
    DeclinedDraw,
    DeclinedFlock,
    Drew,
    Event,
    FlewHome,
    Laid,
    Reshuffled,
    visible_events,
)
from ..knowledge import Knowledge, learn
from ..observation import ObservationField, observation_layout
from ..state import GameState
from ..views import PlayerView, observe

__all__ = [
    "SEAT_SUMMARY",
    "Past",
    "Record",
    "Step",
    "Tally",
    "deal_lines",
    "history_summary",
    "information_state_layout",
    "information_state_size",
    "learned",
    "tally_of",
    "to_json",
    "without_hand",
]

_JSON_SEPARATORS = (",", ":")

# --------------------------------------------------------------------------- layouts

SEAT_SUMMARY: tuple[tuple[str, int, str], ...] = (
    ("laid", NUM_SPECIES, "birds of each species that seat has laid"),
    ("revealed", NUM_SPECIES, "birds of each species that seat revealed in flocks"),
    ("draws", 1, "optional draws that seat took"),
    ("cards_drawn", 1, "cards that seat took in optional draws"),
    ("draws_declined", 1, "optional draws that seat declined"),
    ("flocks_declined", 1, "flock steps at which that seat passed"),
    ("last_action", NUM_DISTINCT_ACTIONS, "one-hot: that seat's last action id (zeros: none)"),
)


def information_state_layout(num_players: int) -> tuple[ObservationField, ...]:
    """Return every field of the information-state tensor, in order, without gaps.

    The observation fields (:func:`cuckoo_rules.observation_layout`) come first, then the
    summary of the public history; seats are numbered relative to the viewer.

    Raises:
        InvalidOptionsError: If ``num_players`` is not 2 to 5.

    Example:
        >>> [(f.name, f.offset, f.size) for f in information_state_layout(2)[-3:]]
        [('seat[1].draws_declined', 275, 1), ('seat[1].flocks_declined', 276, 1),
         ('seat[1].last_action', 277, 74)]
    """
    fields = list(observation_layout(num_players))

    def add(name: str, size: int, description: str) -> None:
        fields.append(
            ObservationField(name, fields[-1].offset + fields[-1].size, size, description)
        )

    add("round", 1, "the round number")
    add("turn", 1, "the turn number over the whole game")
    add("reshuffles", 1, "how many times the discard pile was shuffled into a new draw pile")
    for k in range(num_players):
        seat = "the viewer" if k == 0 else f"the seat {k} after the viewer"
        for name, size, description in SEAT_SUMMARY:
            add(f"seat[{k}].{name}", size, f"{description} ({seat})")
    return tuple(fields)


def information_state_size(num_players: int) -> int:
    """Return the length of the information-state tensor: ``125 + 113 * num_players``.

    Raises:
        InvalidOptionsError: If ``num_players`` is not 2 to 5.

    Example:
        >>> [information_state_size(p) for p in range(2, 6)]
        [351, 464, 577, 690]
    """
    last = information_state_layout(num_players)[-1]
    return last.offset + last.size


# --------------------------------------------------------------------------- the record


def to_json(document: object) -> str:
    """``document`` as compact JSON, one line of an information-state string."""
    return json.dumps(document, separators=_JSON_SEPARATORS)


class Step:
    """The events of one move, as reported by :func:`cuckoo_rules.step` (or redacted).

    Steps are shared between a state and its clones and never changed. A step is made
    for one history (a record's steps only ever grow by new steps), so it can cache,
    besides the text each viewer sees of it (one line of the information-state string),
    what depends on the history up to it: each seat's :class:`~cuckoo_rules.Knowledge`
    and the public :class:`Tally`.
    """

    __slots__ = ("_known", "_lines", "_redacted", "_source", "_tally", "events")

    def __init__(
        self, events: tuple[Event, ...], source: tuple[Step, int, int] | None = None
    ) -> None:
        self.events = events
        # (step, seat, players) if this is that step redacted for that seat: its lines
        # are then those of ``step``, see redacted_for.
        self._source = source
        self._lines: dict[int | None, str] = {}
        self._redacted: dict[int, Step] = {}
        # What each seat knew after this step: learn() of its redacted events so far.
        self._known: dict[int, Knowledge] = {}
        self._tally: Tally | None = None  # the public counts after this step

    def line(self, viewer: int | None) -> str:
        """The JSON list of the events ``viewer`` sees (``None``: a spectator)."""
        text = self._lines.get(viewer)
        if text is None:
            source = self._source
            if source is not None and (viewer is None or viewer in range(source[2])):
                step, seat, _ = source
                text = step.line(seat if viewer == seat else None)
            else:
                text = to_json([encode_event(e) for e in visible_events(self.events, viewer)])
            self._lines[viewer] = text
        return text

    def redacted_for(self, seat: int, num_players: int) -> Step:
        """This step as ``seat`` saw it: other seats' drawn and dealt cards hidden.

        Every other seat sees of the redacted step what a spectator sees of this one.
        The redacted step is made once per seat and shared.
        """
        redacted = self._redacted.get(seat)
        if redacted is None:
            redacted = Step(visible_events(self.events, seat), (self, seat, num_players))
            self._redacted[seat] = redacted
        return redacted

    def __getstate__(self) -> tuple[tuple[Event, ...]]:
        return (self.events,)  # the caches are rebuilt on demand (the lines from events)

    def __setstate__(self, data: tuple[tuple[Event, ...]]) -> None:
        Step.__init__(self, data[0])


Past: TypeAlias = tuple[tuple[str, ...], tuple[Step, ...], Knowledge]
"""A seat's past in a record: see :meth:`Record.past_of`."""


class Record:
    """Everything a dealt state holds; never changed, so clones share it (``__deepcopy__``).

    A plain slotted class rather than a frozen ``attrs`` one: a record is built on every
    move, and a frozen class's ``__init__`` costs twice as much.

    Attributes:
        engine: The engine state.
        deal: For each seat, the JSON view of the dealt state it saw (with the hand
            removed for the seats whose private past a resampling dropped).
        steps: One :class:`Step` per move since the deal.
    """

    __slots__ = ("_pasts", "deal", "engine", "steps")

    def __init__(self, engine: GameState, deal: tuple[str, ...], steps: tuple[Step, ...]) -> None:
        self.engine = engine
        self.deal = deal
        self.steps = steps
        self._pasts: dict[int, Past] = {}  # by seat: see past_of

    def __deepcopy__(self, memo: dict[int, object]) -> Record:
        return self  # never changed: OpenSpiel's clone deep-copies the state's attributes

    def past_of(self, seat: int) -> Past:
        """What ``seat`` saw of the deal and of each move, and what it learned (cached).

        Returns:
            The deal lines, with the hand of every other seat removed; the steps
            redacted for ``seat``; and :func:`cuckoo_rules.learn` folded over the
            events of those redacted steps, from ``Knowledge.start``.
        """
        past = self._pasts.get(seat)
        if past is None:
            n = self.engine.num_players
            deal = tuple(
                line if other == seat else without_hand(line)
                for other, line in enumerate(self.deal)
            )
            # Mostly cached already: look the redacted steps up without a call each.
            seen = tuple([s._redacted.get(seat) or s.redacted_for(seat, n) for s in self.steps])
            known = learned(self.steps, seen, seat, n, deal[seat])
            past = self._pasts[seat] = (deal, seen, known)
        return past


def learned(
    steps: tuple[Step, ...], seen: tuple[Step, ...], seat: int, n: int, deal_line: str
) -> Knowledge:
    """What ``seat`` learned from ``seen`` (``steps`` as it saw them), cached on ``steps``.

    The last step keeps the result, so that a later record, whose steps go on from these,
    folds only its new steps.
    """
    done = len(steps)
    while done and seat not in steps[done - 1]._known:
        done -= 1
    known = steps[done - 1]._known[seat] if done else known_at_deal(deal_line, n)
    if done < len(steps):
        known = learn(known, (event for move in seen[done:] for event in move.events), seat)
        steps[-1]._known[seat] = known
    return known


def deal_lines(engine: GameState) -> tuple[str, ...]:
    """Each seat's first line of history: its view of the deal, and the cards set aside.

    The duplicates set aside while the rows were built went to the discard pile face up,
    so every seat knows them (rules §6): they are part of each seat's information. A game
    taken up from a later state (:meth:`CuBirdsGame.state_from_engine`) shows none: nothing
    is known there beyond the view.
    """
    try:
        set_aside = encode_counts(Knowledge.at_setup(engine).known_discards)
    except ViewError:  # not a freshly dealt game
        set_aside = {}
    return tuple(
        to_json({**encode_view(observe(engine, seat)), "set_aside": set_aside})
        for seat in range(engine.num_players)
    )


def known_at_deal(deal_line: str, n: int) -> Knowledge:
    """What a seat knows beyond its view right after the deal (from its deal line)."""
    set_aside = json.loads(deal_line)["set_aside"]
    return Knowledge.start(n, tuple(set_aside.get(s.value, 0) for s in SPECIES))


@functools.lru_cache(maxsize=256)
def without_hand(line: str) -> str:
    """The deal line a seat keeps in a state resampled for another seat: no hand."""
    document = json.loads(line)
    document["hand"] = None
    return to_json(document)


# Where each count is in a seat's row of a Tally.
_LAID = 0
_REVEALED = NUM_SPECIES
_DRAWS = 2 * NUM_SPECIES
_CARDS_DRAWN = _DRAWS + 1
_DRAWS_DECLINED = _DRAWS + 2
_FLOCKS_DECLINED = _DRAWS + 3
_LAST = _DRAWS + 4


class Tally:
    """The public history of some moves, as the information-state tensor summarises it.

    ``seats[seat]`` holds, for an absolute seat, the birds laid and revealed of each
    species, the optional draws taken, cards drawn, draws and flocks declined, and the
    id of its last action (-1: none), at the offsets ``_LAID`` to ``_LAST``. A tally
    cached on a step is never changed: :func:`_tally` copies it to go on.
    """

    __slots__ = ("reshuffles", "seats")

    def __init__(self, reshuffles: int, seats: list[list[int]]) -> None:
        self.reshuffles = reshuffles
        self.seats = seats

    @classmethod
    def start(cls, num_players: int) -> Tally:
        return cls(0, [[0] * _LAST + [-1] for _ in range(num_players)])

    def copy(self) -> Tally:
        return Tally(self.reshuffles, [row[:] for row in self.seats])

    def add(self, events: tuple[Event, ...]) -> None:
        """Count the events of one move."""
        seats = self.seats
        drew = False  # a draw that empties the draw pile has two Drew events: one draw
        for event in events:
            kind = type(event)
            if kind is Laid:
                assert isinstance(event, Laid)
                row = seats[event.player]
                row[_LAID + event.species.index] += event.count
                row[_LAST] = action_id(Lay(event.species, event.row, event.side))
            elif kind is Drew:
                assert isinstance(event, Drew)
                row = seats[event.player]
                row[_DRAWS] += not drew
                row[_CARDS_DRAWN] += event.count
                row[_LAST] = DRAW_ID
                drew = True
            elif kind is DeclinedDraw:
                assert isinstance(event, DeclinedDraw)
                row = seats[event.player]
                row[_DRAWS_DECLINED] += 1
                row[_LAST] = PASS_ID
            elif kind is FlewHome:
                assert isinstance(event, FlewHome)
                row = seats[event.player]
                row[_REVEALED + event.species.index] += event.revealed
                row[_LAST] = FLY_HOME_ID + event.species.index
            elif kind is DeclinedFlock:
                assert isinstance(event, DeclinedFlock)
                row = seats[event.player]
                row[_FLOCKS_DECLINED] += 1
                row[_LAST] = PASS_ID
            elif kind is Reshuffled:
                self.reshuffles += 1


def tally_of(steps: tuple[Step, ...], num_players: int) -> Tally:
    """The tally of ``steps`` (not to be changed), cached on the last one.

    A later record, whose steps go on from these, counts only its new steps.
    """
    done = len(steps)
    while done and steps[done - 1]._tally is None:
        done -= 1
    cached = steps[done - 1]._tally if done else None
    if done == len(steps) and cached is not None:
        return cached
    tally = Tally.start(num_players) if cached is None else cached.copy()
    for move in steps[done:]:
        tally.add(move.events)
    if steps:
        steps[-1]._tally = tally
    return tally


def history_summary(record: Record, viewer: int, view: PlayerView) -> list[int]:
    """The public-history part of the information-state tensor (seats relative to viewer)."""
    n = view.num_players
    tally = tally_of(record.steps, n)
    out = [view.round, view.turn, tally.reshuffles]
    for k in range(n):
        row = tally.seats[(viewer + k) % n]
        out += row[:_LAST]
        one_hot = [0] * NUM_DISTINCT_ACTIONS
        if row[_LAST] >= 0:
            one_hot[row[_LAST]] = 1
        out += one_hot
    return out
