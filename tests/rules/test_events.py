"""Events: ``step`` reports exactly what happened, and each seat sees only what it may.

The core of this file is an *event interpreter* (:class:`Tracker`): it starts from what a
seat (or a spectator, or an omniscient observer) sees of a new game and then learns
about the game from events alone, never looking at a later state. After every step its
model must equal the real next state: ``observe(next, viewer)`` for a seat or a
spectator, and the whole :class:`~cuckoo_rules.GameState` for the omniscient observer.
So a missing, extra, misplaced or wrong event, or a redacted stream that hides what a
seat needs to follow its own hand, makes a test fail.

Beside it: ``step`` agrees with ``apply``; the events agree one by one with the change
of state; :func:`~cuckoo_rules.visible_events` hides exactly the hidden cards (rules §6);
events round-trip through JSON, and ``decode_event`` rejects bad documents.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator, Sequence
from typing import Any

import hypothesis.strategies as st
import pytest
from hypothesis import event as note_situation
from hypothesis import given

import cuckoo_rules as cr
from tests.games import RandomGame, Step
from tests.strategies import WHOLE_GAMES, random_games

N_ROWS = 4
HAND = 8
ZERO: cr.Counts = (0,) * len(cr.SPECIES)
S = cr.Species

# Actions tried now and then to check that step rejects them exactly like apply.
ODD_ACTIONS: tuple[Any, ...] = (
    None,
    "pass",
    {"type": "pass"},
)


# --------------------------------------------------------------------------- viewers


def viewers(n: int) -> list[int | None]:
    """Every seat, and the spectator."""
    return [*range(n), None]


# --------------------------------------------------------------------------- helpers


def add(counts: Sequence[int], cards: Sequence[cr.Species]) -> cr.Counts:
    out = list(counts)
    for card in cards:
        out[card.index] += 1
    return tuple(out)


def plus(*counts: Sequence[int]) -> cr.Counts:
    return tuple(map(sum, zip(ZERO, *counts, strict=True)))


def without(counts: Sequence[int], species: cr.Species) -> cr.Counts:
    out = list(counts)
    out[species.index] = 0
    return tuple(out)


def spec_shuffle(cards: list[cr.Species], seed: int, k: int) -> None:
    """The seeded Fisher-Yates shuffle of interchange.md §2, written from the spec."""
    mask = 2**64 - 1
    state = (seed ^ ((k * 0xD1B54A32D192ED03) & mask)) & mask
    for i in range(len(cards) - 1, 0, -1):
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        j = (z ^ (z >> 31)) % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]


def win_reasons(collection: cr.Counts) -> set[str]:
    """The winning conditions (rules §3.3) a collection meets."""
    reasons = set()
    if sum(1 for c in collection if c) >= 7:
        reasons.add("seven_species")
    if sum(1 for c in collection if c >= 3) >= 2:
        reasons.add("two_triples")
    return reasons


# --------------------------------------------------------------------------- the interpreter


class Tracker:
    """Follows a game from events alone: a seat's view, a spectator's, or everything.

    ``viewer`` is the seat whose hand is followed (``None``: a spectator); with
    ``full=True`` every hand, the draw pile in order, the discard pile and the shuffle
    counter are followed too, and :meth:`state` rebuilds the whole state. Each event is
    checked against the model as it is applied; :meth:`step` raises ``AssertionError``
    on anything inconsistent.
    """

    def __init__(self, start: cr.GameState, viewer: int | None, *, full: bool = False) -> None:
        view = cr.observe(start, viewer)
        self.options = start.options
        self.n = start.num_players
        self.viewer = viewer
        self.full = full
        self.round = view.round
        self.turn = view.turn
        self.dealer = view.dealer
        self.current = view.current_player
        self.phase = view.phase
        self.rows = [list(row) for row in view.rows]
        self.draw_size = view.draw_pile_size
        self.discard_size = view.discard_pile_size
        self.hand_sizes = list(view.hand_sizes)
        self.known = [list(k) for k in view.known_hands]
        self.collections = [list(c) for c in view.collections]
        self.winners = view.winners
        self.hands: list[list[int] | None] = [None] * self.n
        if viewer is not None:
            assert view.hand is not None
            self.hands[viewer] = list(view.hand)
        # Full mode only (they are not public).
        self.seed = start.seed
        self.shuffles = start.shuffles
        self.draw_pile: list[cr.Species] = []
        self.discard = list(ZERO)
        if full:
            self.hands = [list(h) for h in start.hands]
            self.draw_pile = list(start.draw_pile)
            self.discard = list(start.discard_pile)
        # Per-step bookkeeping.
        self.stage = "start"
        self.lay: cr.events.Laid | None = None
        self.lay_absent = False
        self.needs_refill = False
        self.reshuffled = False  # a reshuffle no card has been taken from yet
        self.drawn = 0  # cards taken by the optional draw of this step
        self.dealt = 0  # cards dealt in this step (a deal may come in two parts)
        self.available_at_round_end = 0

    # ----------------------------------------------------------------- results

    def view(self) -> cr.PlayerView:
        hand = self.hands[self.viewer] if self.viewer is not None else None
        return cr.PlayerView(
            self.viewer,
            self.options,
            self.round,
            self.turn,
            self.dealer,
            self.current,
            self.phase,
            tuple(tuple(row) for row in self.rows),
            self.draw_size,
            self.discard_size,
            None if hand is None else tuple(hand),
            tuple(self.hand_sizes),
            tuple(tuple(k) for k in self.known),
            tuple(tuple(c) for c in self.collections),
            self.winners,
        )

    def state(self) -> cr.GameState:
        assert self.full
        hands = []
        for hand in self.hands:
            assert hand is not None
            hands.append(tuple(hand))
        assert len(self.draw_pile) == self.draw_size
        assert sum(self.discard) == self.discard_size
        return cr.GameState(
            self.options,
            self.seed,
            self.shuffles,
            self.round,
            self.turn,
            self.dealer,
            self.current,
            self.phase,
            tuple(tuple(row) for row in self.rows),
            tuple(self.draw_pile),
            tuple(self.discard),
            tuple(hands),
            tuple(tuple(k) for k in self.known),
            tuple(tuple(c) for c in self.collections),
            self.winners,
        )

    # ----------------------------------------------------------------- one step

    def step(self, events: Sequence[cr.Event]) -> None:
        """Apply the events of one action; the model is then that of the next state."""
        assert self.phase is not cr.Phase.GAME_OVER, "events after the game ended"
        self.stage = "start"
        self.lay = None
        self.needs_refill = False
        self.reshuffled = False
        self.drawn = 0
        self.dealt = 0
        for event in events:
            if not isinstance(event, cr.events.RowRefilled | cr.events.Reshuffled):
                assert not self.needs_refill, f"single-species row {self.lay} was not refilled"
            self.apply(event)
        assert not self.needs_refill, f"single-species row {self.lay} was not refilled"
        assert not self.reshuffled, "a reshuffle that no card was taken from"
        if 0 < self.drawn < 2:
            assert self.draw_size + self.discard_size == 0, "drew fewer than 2 cards needlessly"
        assert self.dealt in (0, HAND * self.n), "a deal stopped short"
        # The phase the step ends in follows from the events and public facts.
        if self.stage == "laid":  # a lay that took nothing and did not end the turn
            can_draw = self.draw_size + self.discard_size > 0
            offered = self.lay_absent or self.options.optional_draw_if_adjacent
            self.phase = cr.Phase.DRAW if can_draw and offered else cr.Phase.FLOCK
        elif self.stage in ("captured", "refilled", "drew", "declined_draw"):
            self.phase = cr.Phase.FLOCK
        else:
            assert self.stage in ("started", "over"), f"a step cannot stop at {self.stage!r}"

    def apply(self, event: cr.Event) -> None:
        if isinstance(event, cr.events.Laid):
            self._laid(event)
        elif isinstance(event, cr.events.Captured):
            self._captured(event)
        elif isinstance(event, cr.events.RowRefilled):
            self._refilled(event)
        elif isinstance(event, cr.events.Drew):
            self._drew(event)
        elif isinstance(event, cr.events.DeclinedDraw):
            self._decision(event.player, cr.Phase.DRAW)
            self.stage = "declined_draw"
        elif isinstance(event, cr.events.FlewHome):
            self._flew_home(event)
        elif isinstance(event, cr.events.DeclinedFlock):
            self._decision(event.player, cr.Phase.FLOCK)
            self.stage = "declined_flock"
        elif isinstance(event, cr.events.Reshuffled):
            self._reshuffled(event)
        elif isinstance(event, cr.events.TurnEnded):
            self._turn_ended(event)
        elif isinstance(event, cr.events.RoundEnded):
            self._round_ended(event)
        elif isinstance(event, cr.events.Dealt):
            self._dealt(event)
        elif isinstance(event, cr.events.TurnStarted):
            self._turn_started(event)
        else:
            assert isinstance(event, cr.events.GameOver)
            self._game_over(event)

    # ----------------------------------------------------------------- handlers

    def _decision(self, player: int, phase: cr.Phase) -> None:
        assert self.stage == "start", f"a decision of phase {phase} after {self.stage!r}"
        assert self.phase is phase, f"a decision of phase {phase} in phase {self.phase}"
        assert player == self.current, f"player {player} decided; {self.current} is to act"

    def _take(self, count: int, cards: Sequence[cr.Species] | None) -> None:
        """``count`` cards leave the top of the draw pile (one pile per event)."""
        assert count > 0, "an event that takes no card is not reported"
        self.reshuffled = False
        assert count <= self.draw_size, f"{count} cards taken from a pile of {self.draw_size}"
        self.draw_size -= count
        if self.full:
            top = self.draw_pile[:count]
            assert cards is not None
            assert tuple(cards) == tuple(top), f"took {cards}, the top of the pile is {top}"
            del self.draw_pile[:count]

    def _laid(self, event: cr.events.Laid) -> None:
        self._decision(event.player, cr.Phase.LAY)
        p, s = event.player, event.species
        assert 0 <= event.row < N_ROWS
        assert event.count >= 1
        assert self.known[p][s.index] <= event.count <= self.hand_sizes[p]
        hand = self.hands[p]
        if hand is not None:
            assert hand[s.index] == event.count, "a lay must take every card of the species"
            hand[s.index] = 0
        self.hand_sizes[p] -= event.count
        self.known[p][s.index] = 0
        row = self.rows[event.row]
        self.lay_absent = s not in row
        laid = [s] * event.count
        self.rows[event.row] = row = laid + row if event.side is cr.Side.LEFT else row + laid
        self.lay = event
        self.stage = "laid"
        # SEED2's reading refills after any lay of a species already in the row (§3.1).
        same_species = self.options.refill_trigger == "same_species_lay" and not self.lay_absent
        self.needs_refill = same_species and len(set(row)) == 1 and self._piles_hold_cards()

    def _piles_hold_cards(self) -> bool:
        return self.draw_size + self.discard_size > 0

    def _captured(self, event: cr.events.Captured) -> None:
        lay = self.lay
        assert self.stage == "laid", f"Captured after {self.stage!r}"
        assert lay is not None
        assert (event.player, event.row) == (lay.player, lay.row)
        cards, k, c, s = list(event.cards), len(event.cards), lay.count, lay.species
        assert k > 0, "an empty capture has no Captured event"
        assert s not in cards, "captured cards stop at the nearest bird of the species"
        row = self.rows[lay.row]
        if lay.side is cr.Side.LEFT:
            assert row[c : c + k] == cards, f"captured {cards} from {row} after laying {c}"
            assert row[c + k] == s, "the capture must end at the nearest bird of the species"
            del row[c : c + k]
        else:
            m = len(row) - c
            assert row[m - k : m] == cards, f"captured {cards} from {row} after laying {c}"
            assert row[m - k - 1] == s, "the capture must end at the nearest bird of the species"
            del row[m - k : m]
        p = event.player
        self.hand_sizes[p] += k
        self.known[p] = list(add(self.known[p], cards))
        hand = self.hands[p]
        if hand is not None:
            self.hands[p] = list(add(hand, cards))
        self.needs_refill = len(set(row)) == 1 and self._piles_hold_cards()
        self.stage = "captured"

    def _refilled(self, event: cr.events.RowRefilled) -> None:
        lay = self.lay
        assert self.stage in ("captured", "refilled", "laid"), f"RowRefilled after {self.stage!r}"
        assert lay is not None
        assert self.needs_refill, "only a row left with one species is refilled"
        assert event.row == lay.row
        row = self.rows[event.row]
        own = row[0]
        cards = list(event.cards)
        self._take(len(cards), cards)
        assert all(card is own for card in cards[:-1]), "the refill stops at another species"
        row.extend(cards)
        if cards[-1] is own:  # the draw pile ran out: a reshuffle goes on, or both are empty
            assert self.draw_size == 0, "the refill stopped too early"
        self.needs_refill = cards[-1] is own and self._piles_hold_cards()
        if self.stage != "laid":  # a refill after a capture; one after a lay keeps its stage
            self.stage = "refilled"

    def _drew(self, event: cr.events.Drew) -> None:
        if self.drawn:  # the rest of a draw that emptied the draw pile
            assert self.stage == "drew"
            assert self.reshuffled, "a second draw without a reshuffle"
            assert event.player == self.current
        else:
            self._decision(event.player, cr.Phase.DRAW)
        p = event.player
        assert 1 <= event.count <= 2 - self.drawn
        if event.cards is not None:
            assert len(event.cards) == event.count
        self._take(event.count, event.cards)
        self.drawn += event.count
        if self.drawn < 2:
            assert self.draw_size == 0, "drew fewer than 2 cards from a pile that held more"
        self.hand_sizes[p] += event.count
        hand = self.hands[p]
        if hand is not None:
            assert event.cards is not None, f"player {p} cannot see the cards it drew"
            self.hands[p] = list(add(hand, event.cards))
        self.stage = "drew"

    def _flew_home(self, event: cr.events.FlewHome) -> None:
        self._decision(event.player, cr.Phase.FLOCK)
        p, s = event.player, event.species
        assert event.revealed >= s.small_flock
        assert event.kept == (2 if event.revealed >= s.big_flock else 1)
        assert self.known[p][s.index] <= event.revealed <= self.hand_sizes[p]
        hand = self.hands[p]
        if hand is not None:
            assert hand[s.index] == event.revealed, "a flock reveals every card of the species"
            hand[s.index] = 0
        self.hand_sizes[p] -= event.revealed
        self.known[p][s.index] = 0
        self.collections[p][s.index] += event.kept
        self.discard_size += event.revealed - event.kept
        self.discard[s.index] += event.revealed - event.kept
        self.stage = "flew"

    def _reshuffled(self, event: cr.events.Reshuffled) -> None:
        # The discard pile becomes the draw pile, when the draw pile is empty (rules §5).
        assert not self.reshuffled, "two reshuffles for one take"
        assert self.draw_size == 0, "a reshuffle before the draw pile was empty"
        assert event.cards == self.discard_size > 0, "the whole discard pile is reshuffled"
        self.reshuffled = True
        self.draw_size = event.cards
        self.discard_size = 0
        if self.full:
            assert self.draw_pile == []
            pile = [s for s in cr.SPECIES for _ in range(self.discard[s.index])]
            spec_shuffle(pile, self.seed, self.shuffles)
            self.shuffles += 1
            self.draw_pile = pile
            self.discard = list(ZERO)

    def _turn_ended(self, event: cr.events.TurnEnded) -> None:
        p = event.player
        assert p == self.current, f"the turn of {p} ended; {self.current} was acting"
        stage = self.stage
        if stage == "laid":  # no capture, no draw offered, no flock step
            immediate = self.options.round_end_timing == "immediate" and self.hand_sizes[p] == 0
            can_draw = self.draw_size + self.discard_size > 0 and (
                self.lay_absent or self.options.optional_draw_if_adjacent
            )
            assert immediate or (not can_draw and not self.options.always_prompt_flock)
        elif stage in ("captured", "refilled", "drew", "declined_draw"):  # no flock step
            assert not self.options.always_prompt_flock, "the flock step was skipped"
            hand = self.hands[p]
            if hand is not None:
                assert not cr.state.can_fly_home(tuple(hand)), "the flock step was skipped"
        else:
            assert stage in ("flew", "declined_flock"), f"TurnEnded after {stage!r}"
        self.stage = "turn_ended"

    def _round_ended(self, event: cr.events.RoundEnded) -> None:
        assert self.stage == "turn_ended", f"RoundEnded after {self.stage!r}"
        p = event.player
        assert p == self.current
        assert event.round == self.round
        assert self.hand_sizes[p] == 0, "only an empty hand ends the round"
        assert not win_reasons(tuple(self.collections[p])), "a win ends the game first"
        assert event.hand_sizes == tuple(self.hand_sizes)
        assert event.known_hands == tuple(map(tuple, self.known)), "the public part of each hand"
        assert len(event.hands) == self.n
        for seat, shown in enumerate(event.hands):
            hand = self.hands[seat]
            if hand is not None:
                assert shown == tuple(hand), f"seat {seat} discarded {shown}, held {hand}"
            if shown is not None:
                assert sum(shown) == self.hand_sizes[seat]
            self.discard_size += self.hand_sizes[seat]
            if self.full:
                assert shown is not None
                self.discard = [a + b for a, b in zip(self.discard, shown, strict=True)]
            if hand is not None:
                self.hands[seat] = list(ZERO)
        self.hand_sizes = [0] * self.n
        self.known = [list(ZERO) for _ in range(self.n)]
        self.available_at_round_end = self.draw_size + (
            self.discard_size if self.options.exhaustion_counts_discard else 0
        )
        self.stage = "round_ended"

    def _dealt(self, event: cr.events.Dealt) -> None:
        if self.dealt:  # the rest of a deal that emptied the draw pile
            assert self.stage == "dealt"
            assert self.reshuffled, "a second deal without a reshuffle"
            assert (event.round, event.dealer) == (self.round, self.dealer)
        else:
            assert self.stage == "round_ended", f"Dealt after {self.stage!r}"
            assert self.available_at_round_end >= HAND * self.n, "dealt from too few cards"
            assert event.round == self.round + 1
            if self.options.next_round_first_player == "same_dealer":
                assert event.dealer == self.dealer, "the first dealer deals every round"
            else:
                assert event.dealer == self.current, "the round-ender deals"
        assert len(event.hands) == self.n
        count = sum(event.hand_sizes)
        top = self.draw_pile[:count]
        self._take(count, top if self.full else None)
        cards = iter(top)
        for k in range(self.n):  # the dealer first, then in seat order, 8 cards each
            seat = (event.dealer + k) % self.n
            due = max(0, min(HAND * (k + 1), self.dealt + count) - max(HAND * k, self.dealt))
            assert event.hand_sizes[seat] == due, f"seat {seat} got its cards out of order"
            shown = event.hands[seat]
            if shown is not None:
                assert sum(shown) == due
            if self.full:
                assert shown == add(ZERO, [next(cards) for _ in range(due)]), f"deal to {seat}"
            if self.hands[seat] is not None:
                assert shown is not None, f"seat {seat} cannot see its own new hand"
                self.hands[seat] = list(plus(self.hands[seat], shown))  # type: ignore[arg-type]
            self.hand_sizes[seat] += due
        self.dealt += count
        if self.dealt < HAND * self.n:
            assert self.draw_size == 0, "a deal stopped before the draw pile was empty"
        self.round = event.round
        self.dealer = event.dealer
        self.stage = "dealt"

    def _turn_started(self, event: cr.events.TurnStarted) -> None:
        assert event.turn == self.turn + 1
        if self.stage == "turn_ended":
            ender = self.current
            assert self.hand_sizes[ender] > 0, "an empty hand ends the round"
            assert not win_reasons(tuple(self.collections[ender])), "a win ends the game"
            assert event.player == (ender + 1) % self.n
        else:
            assert self.stage == "dealt", f"TurnStarted after {self.stage!r}"
            assert self.dealt == HAND * self.n, "a new round began before its deal ended"
            first = self.dealer
            if self.options.next_round_first_player == "left_of_round_ender":
                first = (self.current + 1) % self.n  # the round-ender is still current
            assert event.player == first
        self.current = event.player
        self.turn = event.turn
        self.phase = cr.Phase.LAY
        self.stage = "started"

    def _game_over(self, event: cr.events.GameOver) -> None:
        if self.stage == "turn_ended":
            p = self.current
            assert event.winners == (p,)
            assert event.reason in win_reasons(tuple(self.collections[p])), event
        else:
            assert self.stage == "round_ended", f"GameOver after {self.stage!r}"
            assert self.available_at_round_end < HAND * self.n, "a round could be dealt"
            sizes = [sum(c) for c in self.collections]
            best = max(sizes)
            assert event.winners == tuple(s for s in range(self.n) if sizes[s] == best)
            assert event.reason == "most_cards"
        self.winners = event.winners
        self.phase = cr.Phase.GAME_OVER
        self.stage = "over"


# --------------------------------------------------------------------------- direct checks


def check_events_against_states(step: Step) -> None:
    """The events of one step agree with the change from ``before`` to ``after``."""
    before, events, after = step.before, step.events, step.after
    p = before.current_player
    kinds = [type(e) for e in events]

    # Nothing is hidden in the full stream.
    for e in events:
        if isinstance(e, cr.events.Drew):
            assert e.cards is not None
        if isinstance(e, cr.events.Dealt | cr.events.RoundEnded):
            assert None not in e.hands

    # The first event is the decision itself.
    first = events[0]
    action = step.action
    if isinstance(action, cr.Lay):
        count = before.hands[p][action.species.index]
        assert first == cr.events.Laid(p, action.species, count, action.row, action.side)
        # The laid birds sit at that end, the captured cards left that end, the refill
        # went on the right; nothing else on the table moved.
        r = action.row
        row = before.rows[r]
        laid = (action.species,) * count
        cap = next((e.cards for e in events if isinstance(e, cr.events.Captured)), ())
        refill = tuple(c for e in events if isinstance(e, cr.events.RowRefilled) for c in e.cards)
        if action.side is cr.Side.LEFT:
            assert row[: len(cap)] == cap
            expected = laid + row[len(cap) :] + refill
        else:
            assert row[len(row) - len(cap) :] == cap
            expected = row[: len(row) - len(cap)] + laid + refill
        assert after.rows[r] == expected
        assert after.rows[:r] + after.rows[r + 1 :] == before.rows[:r] + before.rows[r + 1 :]
    elif isinstance(action, cr.Draw):
        # A draw from an empty draw pile begins with the reshuffle.
        draws = [e for e in events if isinstance(e, cr.events.Drew)]
        assert draws
        assert {e.player for e in draws} == {p}
        assert 1 <= sum(e.count for e in draws) <= 2
        assert isinstance(first, cr.events.Drew | cr.events.Reshuffled)
    elif isinstance(action, cr.FlyHome):
        s = action.species
        revealed = before.hands[p][s.index]
        kept = 2 if revealed >= s.big_flock else 1
        assert first == cr.events.FlewHome(p, s, revealed, kept)
        assert after.collections[p] == add(before.collections[p], [s] * kept)
        if cr.events.RoundEnded not in kinds:
            assert after.discard_pile == add(before.discard_pile, [s] * (revealed - kept))
    elif before.phase is cr.Phase.DRAW:
        assert first == cr.events.DeclinedDraw(p)
    else:
        assert first == cr.events.DeclinedFlock(p)

    # Reshuffles: one event per random stream used, each the size of the pile it made.
    reshuffles = [e for e in events if isinstance(e, cr.events.Reshuffled)]
    assert len(reshuffles) == after.shuffles - before.shuffles

    # Cards entering the hand of the acting player (unless the round ended).
    round_ended = cr.events.RoundEnded in kinds
    if not round_ended:
        captured = [c for e in events if isinstance(e, cr.events.Captured) for c in e.cards]
        drawn = [c for e in events if isinstance(e, cr.events.Drew) for c in e.cards or ()]
        hand = before.hands[p]
        known = before.known_hands[p]
        if isinstance(action, cr.Lay | cr.FlyHome):
            hand = without(hand, action.species)
            known = without(known, action.species)
        assert after.hands[p] == add(hand, captured + drawn)
        assert after.known_hands[p] == add(known, captured)
        for seat in range(before.num_players):
            if seat != p:
                assert after.hands[seat] == before.hands[seat]
                assert after.known_hands[seat] == before.known_hands[seat]

    # Refilled cards sit at the right end of their row.
    for r in {e.row for e in events if isinstance(e, cr.events.RowRefilled)}:
        refilled = tuple(
            c
            for e in events
            if isinstance(e, cr.events.RowRefilled) and e.row == r
            for c in e.cards
        )
        assert refilled
        assert after.rows[r][len(after.rows[r]) - len(refilled) :] == refilled
    # Every event that takes cards takes them from the top of one pile: the cards taken
    # before a reshuffle are the rest of the old pile, and the reshuffle makes a pile of
    # the size it says, from which the later events take.
    pile: list[cr.Species] | None = list(before.draw_pile)  # None: a pile of unseen order
    left = len(before.draw_pile)
    for e in events:
        if isinstance(e, cr.events.Reshuffled):
            assert left == 0, "a reshuffle only when the draw pile is empty"
            pile, left = None, e.cards
            continue
        if isinstance(e, cr.events.RowRefilled | cr.events.Drew):
            assert e.cards, "no event for no card"
            count = len(e.cards)
            assert pile is None or list(e.cards) == pile[:count]
        elif isinstance(e, cr.events.Dealt):
            hands = [h for h in e.hands if h is not None]
            assert e.hand_sizes == tuple(map(sum, hands))
            count = sum(e.hand_sizes)
            assert count > 0, "no event for no card"
            assert pile is None or plus(*hands) == add(ZERO, pile[:count])
        else:
            continue
        assert count <= left, "an event takes no more than its pile holds"
        pile = None if pile is None else pile[count:]
        left -= count
    assert left == len(after.draw_pile)
    assert pile is None or tuple(pile) == after.draw_pile

    # The end of the turn.
    ended = [e for e in events if isinstance(e, cr.events.TurnEnded)]
    turn_over = after.turn > before.turn or after.is_over
    assert ended == ([cr.events.TurnEnded(p)] if turn_over else [])
    started = [e for e in events if isinstance(e, cr.events.TurnStarted)]
    if after.turn > before.turn:
        assert after.turn == before.turn + 1
        assert started == [cr.events.TurnStarted(after.current_player, after.turn)]
        assert events[-1] == started[0]
    else:
        assert started == []
    over = [e for e in events if isinstance(e, cr.events.GameOver)]
    if after.is_over:
        assert len(over) == 1
        assert events[-1] == over[0]
        assert over[0].winners == after.winners
        if round_ended:
            assert over[0].reason == "most_cards"
        else:
            assert over[0].reason in win_reasons(after.collections[p])
    else:
        assert over == []

    # The end of a round.
    rounds = [e for e in events if isinstance(e, cr.events.RoundEnded)]
    if round_ended:
        held = list(before.hands)
        held[p] = ZERO  # the round ends on an empty hand; other hands did not change
        public = list(before.known_hands)
        public[p] = ZERO
        assert rounds == [
            cr.events.RoundEnded(before.round, p, tuple(map(sum, held)), tuple(held), tuple(public))
        ]
    else:
        assert rounds == []
    dealt = [e for e in events if isinstance(e, cr.events.Dealt)]
    if after.round > before.round:
        assert round_ended
        assert after.round == before.round + 1
        assert {(e.round, e.dealer) for e in dealt} == {(after.round, after.dealer)}
        assert len(dealt) in (1, 2)
        parts = [[h for h in e.hands if h is not None] for e in dealt]
        assert tuple(map(plus, *parts)) == after.hands
        same = before.options.next_round_first_player == "same_dealer"
        assert after.dealer == (before.dealer if same else p)
    else:
        assert dealt == []


def check_redaction(events: tuple[cr.Event, ...], viewer: int | None, n: int) -> None:
    """``visible_events`` hides exactly what rules §6 hides from ``viewer``."""
    shown = cr.visible_events(events, viewer)
    assert len(shown) == len(events)
    assert cr.visible_events(shown, viewer) == shown
    for full, seen in zip(events, shown, strict=True):
        assert type(seen) is type(full)
        if isinstance(full, cr.events.Drew):
            assert isinstance(seen, cr.events.Drew)
            assert (seen.player, seen.count) == (full.player, full.count)
            assert seen.cards == (full.cards if full.player == viewer else None)
        elif isinstance(full, cr.events.Dealt):
            assert isinstance(seen, cr.events.Dealt)
            assert (seen.round, seen.dealer) == (full.round, full.dealer)
            assert len(seen.hands) == n
            for seat in range(n):
                assert seen.hands[seat] == (full.hands[seat] if seat == viewer else None)
        elif isinstance(full, cr.events.RoundEnded):
            assert isinstance(seen, cr.events.RoundEnded)
            assert (seen.round, seen.player) == (full.round, full.player)
            assert seen.hand_sizes == full.hand_sizes
            assert len(seen.hands) == n
            for seat in range(n):
                assert seen.hands[seat] == (full.hands[seat] if seat == viewer else None)
        else:
            assert seen == full


def check_json(
    events: tuple[cr.Event, ...],
    viewer: int | None,
    n: int,
    docs: dict[int, tuple[cr.Event, dict[str, Any]]] | None = None,
) -> None:
    """Every event survives JSON; a redacted stream's JSON holds no hidden cards.

    ``docs`` (by ``id`` of the event, shared across the viewers of one stream) keeps
    the events already round-tripped, with their documents: most events are the same
    objects in every viewer's stream, and each is checked once. (Each entry holds its
    event, so no other event can take its ``id`` while ``docs`` lives.)
    """
    docs = {} if docs is None else docs
    shown = cr.visible_events(events, viewer)
    for event in (*events, *shown):
        if id(event) not in docs:
            doc = json.loads(json.dumps(cr.encode_event(event)))
            assert cr.decode_event(doc) == event
            docs[id(event)] = event, doc
    for event in shown:
        doc = docs[id(event)][1]
        if doc["type"] in ("dealt", "round_ended"):
            assert len(doc["hands"]) == n
            for seat, hand in enumerate(doc["hands"]):
                if seat == viewer:
                    assert isinstance(hand, dict)
                else:
                    assert hand is None, f"the hand of seat {seat} leaks to {viewer}"
        if doc["type"] == "drew":
            if doc["player"] == viewer:
                assert isinstance(doc["cards"], list)
                assert len(doc["cards"]) == doc["count"]
            else:
                assert doc["cards"] is None, f"the draw of {doc['player']} leaks to {viewer}"


# --------------------------------------------------------------------------- properties


@WHOLE_GAMES
@given(random_games())
def test_step_agrees_with_apply(game: RandomGame) -> None:
    rnd = random.Random(~game.rng)
    for step in game.steps():
        assert cr.apply(step.before, step.action) == step.after
        assert cr.step(step.before, step.action) == (step.after, step.events)
        # An action picked at random (usually illegal) is rejected by both, alike.
        legal = cr.legal_actions(step.before)
        odd = rnd.choice(cr.actions.ALL_ACTIONS) if rnd.random() < 0.8 else rnd.choice(ODD_ACTIONS)
        if odd in legal:
            assert cr.step(step.before, odd)[0] == cr.apply(step.before, odd)
            continue
        with pytest.raises(cr.IllegalActionError) as by_apply:
            cr.apply(step.before, odd)
        with pytest.raises(cr.IllegalActionError) as by_step:
            cr.step(step.before, odd)
        assert str(by_step.value) == str(by_apply.value)
    # And nothing is legal once the game is over.
    with pytest.raises(cr.IllegalActionError):
        cr.step(step.after, cr.Pass())


@WHOLE_GAMES
@given(random_games())
def test_events_agree_with_each_state_change(game: RandomGame) -> None:
    for step in game.steps():
        check_events_against_states(step)
        for label in situations(step):
            note_situation(label)


def situations(step: Step) -> Iterator[str]:
    """Labels of the rarer situations a step shows (``--hypothesis-show-statistics``)."""
    kinds = [type(e) for e in step.events]
    if cr.events.Reshuffled in kinds:
        after = kinds[kinds.index(cr.events.Reshuffled) + 1]
        yield f"reshuffle before {after.__name__}"
    for e in step.events:
        if isinstance(e, cr.events.RowRefilled) and not e.cards:
            yield "refill from empty piles"
        if isinstance(e, cr.events.Drew) and e.count < 2:
            yield "short draw"
        if isinstance(e, cr.events.GameOver):
            yield f"game over: {e.reason}"
    if kinds[:2] == [cr.events.Laid, cr.events.TurnEnded] and cr.events.RoundEnded in kinds:
        yield "a lay ends the turn and the round"


@WHOLE_GAMES
@given(random_games())
def test_full_events_rebuild_every_state(game: RandomGame) -> None:
    start = cr.new_game(game.options, game.seed)
    omniscient = Tracker(start, None, full=True)
    spectator = Tracker(start, None)  # the full stream, public model only
    for step in game.steps():
        omniscient.step(step.events)
        assert omniscient.state() == step.after
        spectator.step(step.events)
        assert spectator.view() == cr.observe(step.after, None)


@WHOLE_GAMES
@given(random_games())
def test_redacted_events_rebuild_every_view(game: RandomGame) -> None:
    start = cr.new_game(game.options, game.seed)
    n = game.num_players
    trackers = {viewer: Tracker(start, viewer) for viewer in viewers(n)}
    for step in game.steps():
        for viewer, tracker in trackers.items():
            check_redaction(step.events, viewer, n)
            tracker.step(cr.visible_events(step.events, viewer))
            assert tracker.view() == cr.observe(step.after, viewer), f"viewer {viewer}"


def true_pile_sizes(before: cr.GameState, events: Sequence[cr.Event]) -> list[tuple[int, int]]:
    """The draw and discard pile sizes after each event, following the cards themselves.

    The cards each full event takes must be the top of the draw pile, and a reshuffle
    makes the draw pile that interchange.md §2 gives, so these sizes are the true ones.
    """
    draw = list(before.draw_pile)
    discard = list(before.discard_pile)
    shuffles = before.shuffles
    sizes = []
    for e in events:
        taken: list[cr.Species] | None = None
        if isinstance(e, cr.events.Drew | cr.events.RowRefilled):
            assert e.cards is not None
            taken = list(e.cards)
        elif isinstance(e, cr.events.Dealt):
            hands = [h for h in e.hands if h is not None]
            count = sum(e.hand_sizes)
            assert plus(*hands) == add(ZERO, draw[:count])
            del draw[:count]
        elif isinstance(e, cr.events.FlewHome):
            discard[e.species.index] += e.revealed - e.kept
        elif isinstance(e, cr.events.RoundEnded):
            discard = list(plus(discard, *[h for h in e.hands if h is not None]))
        elif isinstance(e, cr.events.Reshuffled):
            assert draw == []
            draw = [s for s in cr.SPECIES for _ in range(discard[s.index])]
            spec_shuffle(draw, before.seed, shuffles)
            shuffles += 1
            discard = list(ZERO)
        if taken is not None:
            assert draw[: len(taken)] == taken
            del draw[: len(taken)]
        sizes.append((len(draw), sum(discard)))
    return sizes


@WHOLE_GAMES
@given(random_games())
def test_every_seat_follows_the_pile_sizes_through_every_event(game: RandomGame) -> None:
    # What a client that shows pile sizes does: count the cards each event moves, with a
    # reshuffle making the discard pile the draw pile. It must find the true sizes after
    # every event, from any seat's redacted stream.
    start = cr.new_game(game.options, game.seed)
    followed = {
        viewer: (view.draw_pile_size, view.discard_pile_size)
        for viewer in viewers(game.num_players)
        for view in [cr.observe(start, viewer)]
    }
    for step in game.steps():
        truth = true_pile_sizes(step.before, step.events)
        assert truth[-1] == (len(step.after.draw_pile), sum(step.after.discard_pile))
        for viewer in followed:
            draw, discard = followed[viewer]
            shown = cr.visible_events(step.events, viewer)
            for index, e in enumerate(shown):
                if isinstance(e, cr.events.Drew):
                    draw -= e.count
                elif isinstance(e, cr.events.RowRefilled):
                    draw -= len(e.cards)
                elif isinstance(e, cr.events.Dealt):
                    draw -= sum(e.hand_sizes)
                elif isinstance(e, cr.events.FlewHome):
                    discard += e.revealed - e.kept
                elif isinstance(e, cr.events.RoundEnded):
                    discard += sum(e.hand_sizes)
                elif isinstance(e, cr.events.Reshuffled):
                    assert (draw, e.cards) == (0, discard)
                    draw, discard = discard, 0
                assert (draw, discard) == truth[index], f"viewer {viewer}, event {index}: {e}"
            followed[viewer] = (draw, discard)


@WHOLE_GAMES
@given(random_games())
def test_events_round_trip_through_json(game: RandomGame) -> None:
    n = game.num_players
    for step in game.steps():
        docs: dict[int, tuple[cr.Event, dict[str, Any]]] = {}
        for viewer in viewers(n):
            check_json(step.events, viewer, n, docs)


# --------------------------------------------------------------------------- examples


def test_the_seed_42_lay() -> None:
    state = cr.new_game(cr.GameOptions(num_players=3), 42)
    after, events = cr.step(state, cr.Lay(S.DUCK, 0, cr.Side.RIGHT))
    assert events == (
        cr.events.Laid(2, S.DUCK, 1, 0, cr.Side.RIGHT),
        cr.events.Captured(2, 0, (S.ROBIN, S.PARROT)),
        cr.events.RowRefilled(0, (S.REED_WARBLER,)),
        cr.events.TurnEnded(2),
        cr.events.TurnStarted(0, 2),
    )
    assert after == cr.apply(state, cr.Lay(S.DUCK, 0, cr.Side.RIGHT))
    assert after.rows[0] == (S.DUCK, S.DUCK, S.REED_WARBLER)


def make_state(
    *,
    options: cr.GameOptions | None = None,
    rows: Sequence[str] = ("flamingo owl toucan", "duck parrot magpie", "robin owl", "toucan duck"),
    hands: Sequence[str] = ("", "", ""),
    collections: Sequence[str] = ("", "", ""),
    draw_top: str = "",
    discard: str = "",
    rest: str = "draw",
    phase: cr.Phase = cr.Phase.LAY,
    current: int = 0,
    turn: int = 5,
) -> cr.GameState:
    """A state with the given cards; the others go, in species order, where ``rest`` says.

    ``rest`` is ``"draw"`` (under ``draw_top``), ``"discard"`` or ``"hand<seat>"``. The
    state is read back by ``decode_state``, so it passes every check of a document.
    """
    options = options or cr.GameOptions(num_players=len(hands))

    def cards(text: str) -> list[cr.Species]:
        return [cr.Species(name) for name in text.split()]

    def counts(text: str) -> cr.Counts:
        return add(ZERO, cards(text))

    placed = [*cards(draw_top), *cards(discard)]
    for text in (*rows, *hands, *collections):
        placed += cards(text)
    left = [s.copies for s in cr.SPECIES]
    for card in placed:
        left[card.index] -= 1
    others = [s for s in cr.SPECIES for _ in range(left[s.index])]
    hand_counts = [counts(h) for h in hands]
    draw_pile, discard_pile = cards(draw_top), counts(discard)
    if rest == "draw":
        draw_pile += others
    elif rest == "discard":
        discard_pile = add(discard_pile, others)
    else:
        seat = int(rest.removeprefix("hand"))
        hand_counts[seat] = add(hand_counts[seat], others)
    state = cr.GameState(
        options,
        7,
        1,
        2,
        turn,
        current,
        current,
        phase,
        tuple(tuple(cards(row)) for row in rows),
        tuple(draw_pile),
        discard_pile,
        tuple(hand_counts),
        (ZERO,) * options.num_players,
        tuple(counts(c) for c in collections),
        (),
    )
    assert cr.decode_state(json.loads(json.dumps(cr.encode_state(state)))) == state
    return state


def follow(state: cr.GameState, actions: Sequence[cr.Action]) -> list[tuple[cr.Event, ...]]:
    """Step through ``actions`` with every check of the properties; return the events."""
    n = state.num_players
    trackers = {v: Tracker(state, v) for v in viewers(n)}
    omniscient = Tracker(state, None, full=True)
    out = []
    for action in actions:
        after, events = cr.step(state, action)
        assert after == cr.apply(state, action)
        check_events_against_states(Step(state, action, after, events))
        omniscient.step(events)
        assert omniscient.state() == after
        docs: dict[int, tuple[cr.Event, dict[str, Any]]] = {}
        for viewer, tracker in trackers.items():
            check_redaction(events, viewer, n)
            check_json(events, viewer, n, docs)
            tracker.step(cr.visible_events(events, viewer))
            assert tracker.view() == cr.observe(after, viewer)
        out.append(events)
        state = after
    return out


def test_a_draw_reshuffles_the_discard_pile_when_the_draw_pile_runs_out() -> None:
    state = make_state(
        hands=("owl", "duck", "parrot"), draw_top="magpie", rest="discard", phase=cr.Phase.DRAW
    )
    (events,) = follow(state, [cr.Draw()])
    after = cr.apply(state, cr.Draw())
    # One event per pile: the last card of the old pile, the reshuffle, a card of the new.
    first, reshuffled, second = events[:3]
    assert first == cr.events.Drew(0, 1, (S.MAGPIE,))
    assert reshuffled == cr.events.Reshuffled(sum(state.discard_pile))
    assert isinstance(second, cr.events.Drew)
    assert second.count == 1
    assert second.cards is not None
    assert add(state.hands[0], [S.MAGPIE, *second.cards]) == after.hands[0]
    for viewer in (1, 2, None):
        seen = cr.visible_events(events, viewer)
        assert seen[:3] == (cr.events.Drew(0, 1, None), reshuffled, cr.events.Drew(0, 1, None))
    assert cr.visible_events(events, 0) == events


def test_a_draw_from_an_empty_draw_pile_begins_with_the_reshuffle() -> None:
    state = make_state(hands=("owl", "duck", "parrot"), rest="discard", phase=cr.Phase.DRAW)
    assert state.draw_pile == ()
    (events,) = follow(state, [cr.Draw()])
    assert events[0] == cr.events.Reshuffled(sum(state.discard_pile))
    assert isinstance(events[1], cr.events.Drew)
    assert events[1].count == 2
    assert not any(isinstance(e, cr.events.Drew) for e in events[2:])


def test_the_last_card_is_drawn_alone() -> None:
    state = make_state(
        hands=("owl", "duck", "parrot"), draw_top="magpie", rest="hand1", phase=cr.Phase.DRAW
    )
    (events,) = follow(state, [cr.Draw()])
    assert events == (
        cr.events.Drew(0, 1, (S.MAGPIE,)),
        cr.events.TurnEnded(0),
        cr.events.TurnStarted(1, 6),
    )
    assert cr.visible_events(events, 2)[0] == cr.events.Drew(0, 1, None)


def test_a_refill_takes_cards_until_a_second_species() -> None:
    state = make_state(
        rows=("owl flamingo", "duck parrot magpie", "robin owl", "toucan duck"),
        hands=("owl", "duck", "parrot"),
        draw_top="owl owl toucan",
    )
    (events,) = follow(state, [cr.Lay(S.OWL, 0, cr.Side.RIGHT)])
    assert events[:3] == (
        cr.events.Laid(0, S.OWL, 1, 0, cr.Side.RIGHT),
        cr.events.Captured(0, 0, (S.FLAMINGO,)),
        cr.events.RowRefilled(0, (S.OWL, S.OWL, S.TOUCAN)),
    )


def test_a_refill_stops_when_both_piles_are_empty() -> None:
    state = make_state(
        rows=("owl flamingo", "duck parrot magpie", "robin owl", "toucan duck"),
        hands=("owl", "duck", "parrot"),
        rest="hand2",
    )
    (events,) = follow(state, [cr.Lay(S.OWL, 0, cr.Side.RIGHT)])
    assert events == (  # a refill that finds no card reports nothing
        cr.events.Laid(0, S.OWL, 1, 0, cr.Side.RIGHT),
        cr.events.Captured(0, 0, (S.FLAMINGO,)),
        cr.events.TurnEnded(0),
        cr.events.TurnStarted(1, 6),
    )


def test_a_refill_that_empties_the_draw_pile_is_reported_per_pile() -> None:
    state = make_state(
        rows=("owl flamingo", "duck parrot magpie", "robin owl", "toucan duck"),
        hands=("owl", "duck", "parrot"),
        draw_top="owl",
        rest="discard",
    )
    (events,) = follow(state, [cr.Lay(S.OWL, 0, cr.Side.RIGHT)])
    after = cr.apply(state, cr.Lay(S.OWL, 0, cr.Side.RIGHT))
    assert events[2] == cr.events.RowRefilled(0, (S.OWL,))
    assert events[3] == cr.events.Reshuffled(sum(state.discard_pile))
    rest = events[4]
    assert isinstance(rest, cr.events.RowRefilled)
    assert after.rows[0] == (S.OWL, S.OWL, S.OWL, *rest.cards)


@pytest.mark.parametrize(
    ("collection", "flock", "reason"),
    [
        ("toucan toucan toucan owl", "owl owl owl owl", "two_triples"),
        ("owl toucan duck parrot magpie robin", "flamingo flamingo", "seven_species"),
    ],
)
def test_a_flock_home_that_wins_ends_the_game(collection: str, flock: str, reason: str) -> None:
    state = make_state(
        hands=(flock + " duck", "duck", "parrot"),
        collections=(collection, "", ""),
        phase=cr.Phase.FLOCK,
    )
    species = S(flock.split()[0])
    kept = 2 if len(flock.split()) >= species.big_flock else 1
    (events,) = follow(state, [cr.FlyHome(species)])
    assert events == (
        cr.events.FlewHome(0, species, len(flock.split()), kept),
        cr.events.TurnEnded(0),
        cr.events.GameOver((0,), reason),  # type: ignore[arg-type]
    )


@pytest.mark.parametrize("first", ["round_ender", "left_of_round_ender"])
def test_an_empty_hand_ends_the_round_and_a_new_one_is_dealt(first: str) -> None:
    options = cr.GameOptions(num_players=3, next_round_first_player=first)  # type: ignore[arg-type]
    state = make_state(
        options=options,
        hands=("duck robin", "owl owl owl", "parrot"),
        draw_top="magpie robin",
        rest="discard",
        phase=cr.Phase.FLOCK,
        current=1,
    )
    (events,) = follow(state, [cr.FlyHome(S.OWL)])
    after = cr.apply(state, cr.FlyHome(S.OWL))
    discarded = (state.hands[0], ZERO, state.hands[2])
    known = state.known_hands
    # The two cards left are dealt to the dealer from the old pile, then the reshuffle.
    top = add(ZERO, [S.MAGPIE, S.ROBIN])
    rest = tuple(
        h if seat != 1 else tuple(a - b for a, b in zip(h, top, strict=True))
        for seat, h in enumerate(after.hands)
    )
    assert events == (
        cr.events.FlewHome(1, S.OWL, 3, 1),
        cr.events.TurnEnded(1),
        cr.events.RoundEnded(2, 1, (2, 0, 1), discarded, known),
        cr.events.Dealt(3, 1, (0, 2, 0), (ZERO, top, ZERO)),
        cr.events.Reshuffled(sum(state.discard_pile) + 2 + 3),
        cr.events.Dealt(3, 1, (8, 6, 8), rest),
        cr.events.TurnStarted(1 if first == "round_ender" else 2, 6),
    )
    seen = cr.visible_events(events, 2)
    assert seen[2] == cr.events.RoundEnded(2, 1, (2, 0, 1), (None, None, state.hands[2]), known)
    assert seen[3] == cr.events.Dealt(3, 1, (0, 2, 0), (None, None, ZERO))
    assert seen[5] == cr.events.Dealt(3, 1, (8, 6, 8), (None, None, after.hands[2]))
    assert cr.visible_events(events, None)[5] == cr.events.Dealt(
        3, 1, (8, 6, 8), (None, None, None)
    )


def test_a_lay_that_empties_the_hand_ends_the_round_at_once_if_immediate() -> None:
    options = cr.GameOptions(num_players=3, round_end_timing="immediate")
    state = make_state(options=options, hands=("robin", "duck", "parrot"))
    (events,) = follow(state, [cr.Lay(S.ROBIN, 3, cr.Side.LEFT)])
    assert [type(e) for e in events] == [
        cr.events.Laid,
        cr.events.TurnEnded,
        cr.events.RoundEnded,
        cr.events.Dealt,
        cr.events.TurnStarted,
    ]


def test_a_round_that_cannot_be_dealt_ends_the_game_with_shared_victory() -> None:
    options = cr.GameOptions(num_players=3, exhaustion_counts_discard=False)
    state = make_state(
        options=options,
        hands=("owl owl owl", "duck", "parrot"),
        collections=("toucan", "magpie magpie", "robin robin"),
        draw_top="magpie robin owl",
        rest="hand2",
        phase=cr.Phase.FLOCK,
    )
    (events,) = follow(state, [cr.FlyHome(S.OWL)])
    sizes = (0, 1, sum(state.hands[2]))
    known = state.known_hands
    assert events[2:] == (
        cr.events.RoundEnded(2, 0, sizes, (ZERO, *state.hands[1:]), known),
        cr.events.GameOver((0, 1, 2), "most_cards"),
    )
    assert cr.visible_events(events, 0)[2] == cr.events.RoundEnded(
        2, 0, sizes, (ZERO, None, None), known
    )


def test_declining_is_reported() -> None:
    state = make_state(hands=("owl owl owl", "duck", "parrot"), phase=cr.Phase.DRAW)
    declined_draw, declined_flock = follow(state, [cr.Pass(), cr.Pass()])
    assert declined_draw == (cr.events.DeclinedDraw(0),)
    assert declined_flock == (
        cr.events.DeclinedFlock(0),
        cr.events.TurnEnded(0),
        cr.events.TurnStarted(1, 6),
    )


# --------------------------------------------------------------------------- decoding


def test_visible_events_documented_example() -> None:
    events = (cr.events.Drew(1, 2, (S.OWL, S.DUCK)),)
    assert cr.visible_events(events, 0) == (cr.events.Drew(1, 2, None),)
    assert cr.visible_events(events, None) == (cr.events.Drew(1, 2, None),)
    assert cr.visible_events(events, 1) == events
    assert cr.visible_events(iter(events), 1) == events


GOOD: dict[str, dict[str, Any]] = {
    "laid": {"type": "laid", "player": 0, "species": "owl", "count": 2, "row": 1, "side": "left"},
    "captured": {"type": "captured", "player": 1, "row": 0, "cards": ["duck", "robin"]},
    "row_refilled": {"type": "row_refilled", "row": 2, "cards": ["owl"]},
    "drew": {"type": "drew", "player": 0, "count": 2, "cards": ["owl", "duck"]},
    "drew_hidden": {"type": "drew", "player": 0, "count": 2, "cards": None},
    "declined_draw": {"type": "declined_draw", "player": 1},
    "flew_home": {"type": "flew_home", "player": 1, "species": "owl", "revealed": 4, "kept": 2},
    "declined_flock": {"type": "declined_flock", "player": 0},
    "reshuffled": {"type": "reshuffled", "cards": 30},
    "turn_ended": {"type": "turn_ended", "player": 2},
    "round_ended": {
        "type": "round_ended",
        "round": 1,
        "player": 0,
        "hand_sizes": [0, 3],
        "hands": [{}, {"owl": 1, "robin": 2}],
        "known_hands": [{}, {"robin": 1}],
    },
    "dealt": {
        "type": "dealt",
        "round": 2,
        "dealer": 0,
        "hand_sizes": [8, 8],
        "hands": [None, {"duck": 8}],
    },
    "turn_started": {"type": "turn_started", "player": 1, "turn": 9},
    "game_over": {"type": "game_over", "winners": [0, 2], "reason": "most_cards"},
}


@pytest.mark.parametrize("name", sorted(GOOD))
def test_good_documents_decode_and_encode_back(name: str) -> None:
    doc = GOOD[name]
    event = cr.decode_event(doc)
    assert cr.encode_event(event) == doc
    assert list(cr.encode_event(event)) == list(doc)  # type first, then fields in order


def changed(name: str, **fields: Any) -> dict[str, Any]:
    return {**GOOD[name], **fields}


def dropped(name: str, key: str) -> dict[str, Any]:
    return {k: v for k, v in GOOD[name].items() if k != key}


BAD: list[tuple[Any, str, str]] = [
    # (document, the path the message starts with, a word it must contain)
    ([], "event", "object"),
    ({"player": 0}, "event.type", "None"),
    (changed("turn_ended", type="turn_over"), "event.type", "turn_over"),
    (changed("turn_ended", type=1), "event.type", "1"),
    (dropped("laid", "side"), "event", "'side'"),
    (dropped("dealt", "hands"), "event", "'hands'"),
    (changed("reshuffled", extra=1), "event", "'extra'"),
    (changed("drew", Cards=None), "event", "'Cards'"),
    (changed("laid", species="dodo"), "event.species", "dodo"),
    (changed("laid", species=None), "event.species", "None"),
    (changed("flew_home", species="Owl"), "event.species", "Owl"),
    (changed("captured", cards=["duck", "dodo"]), "event.cards[1]", "dodo"),
    (changed("row_refilled", cards=["owl", 3]), "event.cards[1]", "3"),
    (changed("laid", side="up"), "event.side", "up"),
    (changed("laid", side=0), "event.side", "0"),
    (changed("game_over", reason="luck"), "event.reason", "luck"),
    (changed("game_over", reason=None), "event.reason", "None"),
    (changed("laid", count=-1), "event.count", "-1"),
    (changed("drew", count=-2), "event.count", "-2"),
    (changed("reshuffled", cards=-5), "event.cards", "-5"),
    (changed("turn_started", turn=-1), "event.turn", "-1"),
    (changed("round_ended", hand_sizes=[0, -3]), "event.hand_sizes[1]", "-3"),
    (changed("round_ended", hands=[{}, {"owl": -1}]), "event.hands[1].owl", "-1"),
    (changed("dealt", hands=[None, {"owl": 0}]), "event.hands[1].owl", "0"),
    (changed("dealt", hands=[None, {"dodo": 1}]), "event.hands[1].dodo", "dodo"),
    (changed("laid", player="0"), "event.player", "'0'"),
    (changed("laid", player=True), "event.player", "True"),
    (changed("laid", row=1.0), "event.row", "1.0"),
    (changed("reshuffled", cards="30"), "event.cards", "'30'"),
    (changed("captured", cards="duck"), "event.cards", "duck"),
    (changed("captured", cards=None), "event.cards", "None"),
    (changed("row_refilled", cards=None), "event.cards", "None"),
    (changed("dealt", hands={"0": None}), "event.hands", "array"),
    (changed("dealt", hands=[None, ["duck"] * 8]), "event.hands[1]", "object"),
    (changed("round_ended", hand_sizes=3), "event.hand_sizes", "array"),
    (changed("round_ended", known_hands=[{}, {"owl": 2}]), "event.known_hands[1]", "known"),
    (changed("round_ended", known_hands=[{}]), "event.known_hands", "entries"),
    (changed("round_ended", known_hands=[None, {}]), "event.known_hands[0]", "object"),
    (changed("round_ended", hands=[{}, {"owl": 1}]), "event.hands[1]", "hand_sizes"),
    (changed("dealt", hand_sizes=[8, 7]), "event.hands[1]", "hand_sizes"),
    (changed("dealt", hand_sizes=[8]), "event.hands", "hand sizes"),
    (dropped("dealt", "hand_sizes"), "event", "'hand_sizes'"),
    (changed("game_over", winners=["0"]), "event.winners[0]", "'0'"),
    (changed("game_over", winners=0), "event.winners", "array"),
    (changed("dealt", round=None), "event.round", "None"),
]


@pytest.mark.parametrize(("doc", "path", "word"), BAD)
def test_bad_documents_are_rejected_naming_the_field(doc: Any, path: str, word: str) -> None:
    with pytest.raises(cr.DecodeError) as error:
        cr.decode_event(doc)
    message = str(error.value)
    assert message.startswith(path + ":"), message
    assert word in message, message


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 40)
    | st.floats(allow_nan=False)
    | st.sampled_from(["owl", "left", "most_cards", "dodo", ""]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=8,
)


@given(st.sampled_from(sorted(GOOD)), st.data())
def test_decoding_a_damaged_document_fails_cleanly_or_is_exact(
    name: str, data: st.DataObject
) -> None:
    doc = dict(GOOD[name])
    key = data.draw(st.sampled_from(sorted(doc)), label="key")
    doc[key] = data.draw(JSON_VALUES, label="value")
    try:
        event = cr.decode_event(doc)
    except cr.DecodeError:
        return
    assert cr.encode_event(event) == doc


# The shipped event schema (src/cuckoo_rules/schema/event.schema.json) bounds these
# fields; decode_event only checks that they are not negative, so it reads documents
# that the schema, and every event step() can produce, rule out.
OUT_OF_RANGE: list[tuple[dict[str, Any], str]] = [
    (changed("laid", row=4), "event.row"),
    (changed("captured", row=9), "event.row"),
    (changed("row_refilled", row=4), "event.row"),
    (changed("flew_home", kept=3), "event.kept"),
    (changed("flew_home", kept=0), "event.kept"),
    (changed("turn_ended", player=5), "event.player"),
    (changed("turn_started", turn=0), "event.turn"),
    (changed("dealt", round=0), "event.round"),
    (changed("game_over", winners=[1, 1]), "event.winners"),
]


@pytest.mark.parametrize(("doc", "path"), OUT_OF_RANGE)
def test_out_of_range_values_are_rejected_like_the_schema_does(
    doc: dict[str, Any], path: str
) -> None:
    with pytest.raises(cr.DecodeError, match=path.replace(".", r"\.")):
        cr.decode_event(doc)


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ({"type": "drew", "player": 0, "count": 2, "cards": ["owl"]}, "event.cards: 1 cards but"),
        (
            {"type": "flew_home", "player": 0, "species": "owl", "revealed": 1, "kept": 2},
            "event.kept: 2 kept but only 1 revealed",
        ),
        ({"type": "game_over", "winners": [], "reason": "most_cards"}, "event.winners"),
    ],
)
def test_decode_event_checks_fields_against_each_other(doc: dict[str, Any], message: str) -> None:
    with pytest.raises(cr.DecodeError, match=re.escape(message)):
        cr.decode_event(doc)


@pytest.mark.parametrize("viewer", [True, -1, "0", 1.0])
def test_visible_events_rejects_a_bad_viewer(viewer: Any) -> None:
    with pytest.raises(ValueError, match="viewer"):
        cr.visible_events((), viewer)
