"""Random play as a Hypothesis state machine, with the rules' invariants checked at every step.

The machine starts games with random options and seeds, plays random legal actions (many
full games per run), and now and then tries an arbitrary action, which must be rejected
unless it is legal. After every single action it checks what must hold in every reachable
state (``rules.md``, ``interchange.md``) and what must hold between a state and the next.
The piles are followed card by card with a reference written from the spec (SplitMix64,
the seeded shuffle, reshuffles, refills, deals), and every new game is compared with a
reference setup, so all the randomness of the engine is checked too.

Run with ``--hypothesis-show-statistics`` to see how often games end by a win or by
exhaustion, how many rounds end, and how often the rarer situations occur (reshuffles,
single-species rows, both piles empty).
"""

from __future__ import annotations

import functools
import json
import random
from collections import Counter
from typing import Any, cast

import hypothesis.strategies as st
import pytest
from hypothesis import event, note, settings
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

import cuckoo_rules as cr
from tests.games import fields_of, random_steps
from tests.strategies import OPTIONS, SEEDS

N_ROWS = 4


# Any action at all, legal or not (a Lay's row out of range is refused when it is built:
# try_near_miss checks that).
ANY_ACTION: st.SearchStrategy[cr.Action] = st.one_of(
    st.builds(cr.Lay, st.sampled_from(cr.SPECIES), st.integers(0, 3), st.sampled_from(cr.Side)),
    st.just(cr.Draw()),
    st.builds(cr.FlyHome, st.sampled_from(cr.SPECIES)),
    st.just(cr.Pass()),
)
# Not actions at all (wrongly typed on purpose).
NON_ACTIONS: list[object] = [
    None,
    "pass",
    {"type": "pass"},
    cr.Species.OWL,
]


# --------------------------------------------------------------------------- helpers


def action_key(action: cr.Action) -> tuple[int, ...]:
    """Sort key of the canonical action order (interchange.md §1) across all phases."""
    if isinstance(action, cr.Lay):
        return (0, action.species.index, action.row, 0 if action.side is cr.Side.LEFT else 1)
    if isinstance(action, cr.Draw):
        return (1,)
    if isinstance(action, cr.FlyHome):
        return (2, action.species.index)
    return (3,)


def dumps(state: cr.GameState) -> str:
    return json.dumps(cr.encode_state(state))


def piles_empty(state: cr.GameState) -> bool:
    return not state.draw_pile and not any(state.discard_pile)


def without(counts: cr.Counts, species: cr.Species) -> cr.Counts:
    return tuple(0 if i == species.index else n for i, n in enumerate(counts))


def wins(collection: cr.Counts) -> bool:
    """Rules §3.3: 7 different species, or at least 3 cards of each of 2 species."""
    species = len(collection) - collection.count(0)
    return species >= 7 or (species >= 2 and sum(n >= 3 for n in collection) >= 2)


def can_flock(hand: cr.Counts) -> bool:
    """Rules §3.2: some species in hand reaches its small-flock number."""
    return any(hand[s.index] >= s.small_flock for s in cr.SPECIES)


def check_card_conservation(state: cr.GameState) -> None:
    loose = [card for row in state.rows for card in row]
    loose += state.draw_pile
    counted = (state.discard_pile, *state.hands, *state.collections)
    for counts in counted:
        assert len(counts) == cr.cards.NUM_SPECIES
        assert min(counts) >= 0, f"negative count in {counts}"
    held = [sum(column) for column in zip(*counted, strict=True)]
    for species in cr.SPECIES:
        total = loose.count(species) + held[species.index]
        assert total == species.copies, (
            f"{species.value}: {total} cards in play, {species.copies} expected"
        )


def check_rows(state: cr.GameState) -> None:
    assert len(state.rows) == N_ROWS
    for r, row in enumerate(state.rows):
        assert row, f"row {r} is empty"
        # The species in the order their blocks come: each species makes one block when
        # none of them comes twice (a set of these few, not of every card: enums hash slowly).
        blocks = [card for i, card in enumerate(row) if not i or card is not row[i - 1]]
        assert len(set(blocks)) == len(blocks), f"row {r}: a species is not one block: {row}"


def check_legal_actions(state: cr.GameState) -> tuple[cr.Action, ...]:
    """The legal actions are exactly those interchange.md §1 lists, in canonical order."""
    actions = cr.legal_actions(state)
    keys = [action_key(a) for a in actions]  # one to one (list equality below: the types)
    assert len(set(keys)) == len(keys), f"duplicate legal actions: {actions}"
    assert keys == sorted(keys), f"legal actions not in canonical order: {actions}"
    assert bool(actions) == (state.phase is not cr.Phase.GAME_OVER)
    hand = state.hands[state.current_player]
    if state.phase is cr.Phase.LAY:
        held = tuple(s for s in cr.SPECIES if hand[s.index])
    elif state.phase is cr.Phase.FLOCK:
        held = tuple(s for s in cr.SPECIES if hand[s.index] >= s.small_flock)
    else:
        held = ()
    assert list(actions) == expected_actions(state.phase, held)
    return actions


@functools.cache
def expected_actions(phase: cr.Phase, species: tuple[cr.Species, ...]) -> list[cr.Action]:
    """The legal actions of interchange.md §1 in a ``phase`` where a lay or a flock of
    each of ``species`` is possible (written out once for each such pair)."""
    if phase is cr.Phase.LAY:
        return [
            cr.Lay(s, row, side)
            for s in species
            for row in range(N_ROWS)
            for side in (cr.Side.LEFT, cr.Side.RIGHT)
        ]
    if phase is cr.Phase.DRAW:
        return [cr.Draw(), cr.Pass()]
    if phase is cr.Phase.FLOCK:
        return [*(cr.FlyHome(s) for s in species), cr.Pass()]
    return []


def check_state(state: cr.GameState, text: str, round_trip: bool = True) -> None:
    """Everything that holds in every reachable state; ``text`` is ``dumps(state)``.

    ``round_trip``: also decode ``text`` and encode the result again (see
    :meth:`CuBirdsMachine._step` for the states that are).
    """
    n = state.num_players
    assert 0 <= state.current_player < n
    assert 0 <= state.dealer < n
    assert 1 <= state.round <= state.turn
    assert state.shuffles >= 1
    assert len(state.hands) == len(state.known_hands) == len(state.collections) == n
    check_card_conservation(state)
    check_rows(state)
    for p in range(n):
        for known, held in zip(state.known_hands[p], state.hands[p], strict=True):
            assert 0 <= known <= held, f"known_hands[{p}] not inside hands[{p}]"
    assert bool(state.winners) == (state.phase is cr.Phase.GAME_OVER)
    if state.phase is cr.Phase.LAY:
        assert any(state.hands[state.current_player]), "the player to lay holds no cards"
    if state.phase is cr.Phase.DRAW:
        assert not piles_empty(state), "draw offered with both piles empty"
    if state.phase is cr.Phase.FLOCK and not state.options.always_prompt_flock:
        assert can_flock(state.hands[state.current_player])
    if state.phase is cr.Phase.GAME_OVER:
        check_game_over(state)
    else:
        for p in range(n):
            assert not wins(state.collections[p]), f"player {p} has won, game goes on"
    check_legal_actions(state)
    if not round_trip:
        return
    # JSON round trip, through text.
    decoded = cr.decode_state(json.loads(text))
    assert decoded == state
    assert dumps(decoded) == text


def unusual(prev: cr.GameState, new: cr.GameState) -> bool:
    """Whether the step from ``prev`` to ``new`` ends a round, reshuffles or ends the game."""
    return new.round != prev.round or new.shuffles != prev.shuffles or new.is_over


def check_game_over(state: cr.GameState) -> None:
    cp = state.current_player
    n = state.num_players
    assert list(state.winners) == sorted(set(state.winners))
    if state.winners == (cp,) and wins(state.collections[cp]):
        return  # a win (rules §3.3): hands stay as they are
    # Otherwise the game ended by exhaustion (rules §4.2).
    assert all(not any(h) for h in state.hands), "game over without a win, hands not discarded"
    assert all(not any(k) for k in state.known_hands)
    available = len(state.draw_pile)
    if state.options.exhaustion_counts_discard:
        available += sum(state.discard_pile)
    assert available < cr.engine.HAND_SIZE * n, "game ended by exhaustion with enough cards to deal"
    sizes = [state.collection_size(p) for p in range(n)]
    assert state.winners == tuple(p for p in range(n) if sizes[p] == max(sizes))


def check_new_game(state: cr.GameState, options: cr.GameOptions, seed: int) -> None:
    n = options.num_players
    assert state.options == options
    assert state.seed == seed
    assert (state.round, state.turn) == (1, 1)
    assert state.phase is cr.Phase.LAY
    assert state.current_player == state.dealer
    assert state.shuffles in (1, 2)
    if options.setup_duplicates_to == "discard":
        assert state.shuffles == 1
    assert state.winners == ()
    for row in state.rows:
        assert len(row) == options.initial_row_length
        assert len(set(row)) == len(row), f"setup row with a repeated species: {row}"
    assert all(state.hand_size(p) == cr.engine.HAND_SIZE for p in range(n))
    assert all(state.collection_size(p) == 1 for p in range(n))
    assert all(not any(k) for k in state.known_hands)


# --------------------------------------------------------------------------- reference piles

MASK64 = 2**64 - 1


def splitmix64(state: int) -> tuple[int, int]:
    """SplitMix64 exactly as interchange.md §2 prints it (independent of the engine's)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def reference_shuffle(cards: list[cr.Species], seed: int, k: int) -> int:
    """The seeded Fisher-Yates shuffle of interchange.md §2, stream ``k``."""
    state = (seed ^ ((k * 0xD1B54A32D192ED03) & MASK64)) & MASK64
    for i in range(len(cards) - 1, 0, -1):
        state, out = splitmix64(state)
        j = out % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return state


def in_species_order(counts: list[int] | cr.Counts) -> list[cr.Species]:
    return [s for s in cr.SPECIES for _ in range(counts[s.index])]


def add(counts: cr.Counts, cards: tuple[cr.Species, ...] | list[cr.Species]) -> cr.Counts:
    result = list(counts)
    for card in cards:
        result[card.index] += 1
    return tuple(result)


class ReferencePiles:
    """The draw and discard piles as rules §5 and interchange.md §2 describe them."""

    def __init__(self, draw: list[cr.Species], discard: list[int], seed: int, shuffles: int):
        self.draw = draw
        self.discard = discard
        self.seed = seed
        self.shuffles = shuffles

    @classmethod
    def of(cls, state: cr.GameState) -> ReferencePiles:
        return cls(list(state.draw_pile), list(state.discard_pile), state.seed, state.shuffles)

    def take(self, count: int) -> list[cr.Species]:
        """Take up to ``count`` cards from the top, reshuffling the discard pile when needed."""
        taken: list[cr.Species] = []
        while len(taken) < count:
            if not self.draw:
                if not any(self.discard):
                    break
                cards = in_species_order(self.discard)
                reference_shuffle(cards, self.seed, self.shuffles)
                self.shuffles += 1
                self.draw, self.discard = cards, [0] * cr.cards.NUM_SPECIES
            taken.append(self.draw.pop(0))
        return taken

    def empty(self) -> bool:
        return not self.draw and not any(self.discard)

    def deal(self, n: int, first: int) -> tuple[cr.Counts, ...]:
        hands = [(0,) * cr.cards.NUM_SPECIES] * n
        for k in range(n):
            hands[(first + k) % n] = add(
                (0,) * cr.cards.NUM_SPECIES, self.take(cr.engine.HAND_SIZE)
            )
        return tuple(hands)

    def check(self, new: cr.GameState, after: object) -> None:
        assert new.draw_pile == tuple(self.draw), f"draw pile after {after}"
        assert new.discard_pile == tuple(self.discard), f"discard pile after {after}"
        assert new.shuffles == self.shuffles, f"shuffles after {after}"


def reference_new_game(options: cr.GameOptions, seed: int) -> cr.GameState:
    """Rules §2 and interchange.md §2-3, written from the text."""
    n = options.num_players
    deck = in_species_order([s.copies for s in cr.SPECIES])
    _, out = splitmix64(reference_shuffle(deck, seed, 0))
    dealer = out % n
    piles = ReferencePiles(deck, [0] * cr.cards.NUM_SPECIES, seed, 1)
    rows: list[cr.state.Row] = []
    set_aside: list[cr.Species] = []
    for _ in range(N_ROWS):
        row: list[cr.Species] = []
        while len(row) < options.initial_row_length:
            if not piles.draw:  # absurd deck orders only
                piles.discard = list(add(tuple(piles.discard), set_aside))
                set_aside = []
            (card,) = piles.take(1)
            (set_aside if card in row else row).append(card)
        rows.append(tuple(row))
    if options.setup_duplicates_to == "draw_pile" and set_aside:
        cards = in_species_order(add((0,) * cr.cards.NUM_SPECIES, piles.draw + set_aside))
        reference_shuffle(cards, seed, piles.shuffles)
        piles.shuffles += 1
        piles.draw = cards
    else:
        piles.discard = list(add(tuple(piles.discard), set_aside))
    hands = piles.deal(n, dealer)
    collections = [(0,) * cr.cards.NUM_SPECIES] * n
    for k in range(n):
        collections[(dealer + k) % n] = add((0,) * cr.cards.NUM_SPECIES, piles.take(1))
    return cr.GameState(
        options,
        seed,
        piles.shuffles,
        1,
        1,
        dealer,
        dealer,
        cr.Phase.LAY,
        tuple(rows),
        tuple(piles.draw),
        tuple(piles.discard),
        hands,
        ((0,) * cr.cards.NUM_SPECIES,) * n,
        tuple(collections),
        (),
    )


# --------------------------------------------------------------------------- transitions


def expected_lay(
    prev: cr.GameState, action: cr.Lay
) -> tuple[tuple[cr.Species, ...], cr.state.Row, bool]:
    """The cards a lay captures, the row before any refill, and whether the species was absent."""
    row = prev.rows[action.row]
    s = action.species
    laid = (s,) * prev.hands[prev.current_player][s.index]
    if s not in row:
        return (), (laid + row if action.side is cr.Side.LEFT else row + laid), True
    if action.side is cr.Side.LEFT:
        nearest = row.index(s)
        return row[:nearest], laid + row[nearest:], False
    nearest = len(row) - 1 - row[::-1].index(s)
    return row[nearest + 1 :], row[: nearest + 1] + laid, False


def check_transition(
    prev: cr.GameState, prev_fields: tuple[object, ...], action: cr.Action, new: cr.GameState
) -> None:
    """What must hold between a state and the state after ``action``.

    The piles are followed with :class:`ReferencePiles`, so every card drawn, refilled,
    discarded, reshuffled and dealt is checked, not only counted.
    """
    # Every value in a state is immutable: only a field rebound could change it.
    assert fields_of(prev) == prev_fields, "apply changed the state it was given"
    n = prev.num_players
    p = prev.current_player
    options = prev.options
    assert new.options == prev.options
    assert new.seed == prev.seed
    assert new.shuffles >= prev.shuffles
    piles = ReferencePiles.of(prev)

    # Collections never shrink; only the acting player's grows, only by flying home.
    for q in range(n):
        for before, after in zip(prev.collections[q], new.collections[q], strict=True):
            assert after >= before, f"collection of player {q} shrank"
    if isinstance(action, cr.FlyHome):
        s = action.species
        count = prev.hands[p][s.index]
        home = 2 if count >= s.big_flock else 1
        assert new.collections[p] == add(prev.collections[p], (s,) * home)
        assert all(new.collections[q] == prev.collections[q] for q in range(n) if q != p)
        piles.discard[s.index] += count - home
    else:
        assert new.collections == prev.collections

    # The single-species rows (rules §5): a row holds one species only when a refill ran
    # out of cards (then both piles are empty right after this step) or when it already
    # held that one species before.
    for was, row in zip(prev.rows, new.rows, strict=True):
        only = row[0]  # (counts, not sets: enums hash slowly)
        if row.count(only) == len(row) and was.count(only) != len(was):
            assert piles_empty(new), (
                f"a row became single-species {row} (was {was}) but the piles were not exhausted"
            )

    # The acting player's hand after the action (before any round end), the rows, and
    # where the turn goes next (interchange.md §1).
    rows = list(prev.rows)
    known = prev.known_hands[p]
    hand_after: cr.Counts
    turn_goes_on: bool | None  # None: the turn ends whatever the flock check says
    if isinstance(action, cr.Lay):
        s = action.species
        captured, row, absent = expected_lay(prev, action)
        refills = captured or (not absent and options.refill_trigger == "same_species_lay")
        if refills and set(row) == {s}:
            # Refill (rules §3.1): append cards until the row holds two species.
            refill = list(row)
            while set(refill) == {s}:
                drawn = piles.take(1)
                if not drawn:
                    break
                refill += drawn
            row = tuple(refill)
        rows[action.row] = row
        hand_after = add(without(prev.hands[p], s), captured)
        known = add(without(known, s), captured)
        if captured:
            turn_goes_on = False
        elif options.round_end_timing == "immediate" and not any(hand_after):
            turn_goes_on = None
        else:
            # The piles after any refill: a refill is part of the lay (interchange.md §1).
            turn_goes_on = not piles.empty() and (absent or options.optional_draw_if_adjacent)
            if turn_goes_on:
                assert new.phase is cr.Phase.DRAW, f"draw not offered after {action}"
    elif isinstance(action, cr.Draw):
        drawn = piles.take(2)
        assert 1 <= len(drawn) <= 2
        hand_after = add(prev.hands[p], drawn)
        turn_goes_on = False
    elif isinstance(action, cr.Pass) and prev.phase is cr.Phase.DRAW:
        hand_after = prev.hands[p]
        turn_goes_on = False
    else:  # the flock step ends the turn
        hand_after = prev.hands[p]
        if isinstance(action, cr.FlyHome):
            hand_after = without(hand_after, action.species)
            known = without(known, action.species)
        turn_goes_on = None
    assert new.rows == tuple(rows), f"rows after {action}: {new.rows}, expected {rows}"
    flock_offered = options.always_prompt_flock or can_flock(hand_after)
    if turn_goes_on is False and flock_offered:  # the flock check
        turn_goes_on = True
        assert new.phase is cr.Phase.FLOCK, "flock step not offered"
    turn_ended = new.turn != prev.turn or new.phase is cr.Phase.GAME_OVER
    assert turn_ended == (not turn_goes_on), f"turn_ended={turn_ended} after {action}"

    assert new.turn in (prev.turn, prev.turn + 1)
    assert new.round in (prev.round, prev.round + 1)
    won = wins(new.collections[p])
    round_ended = turn_ended and not won and not any(hand_after)
    hands = prev.hands[:p] + (hand_after,) + prev.hands[p + 1 :]
    known_hands = prev.known_hands[:p] + (known,) + prev.known_hands[p + 1 :]
    if not round_ended:
        piles.check(new, action)
        assert new.hands == hands, f"hands after {action}"
        assert new.known_hands == known_hands, f"known hands after {action}"
    if not turn_ended:
        assert new.current_player == p
        assert (new.round, new.dealer) == (prev.round, prev.dealer)
        return
    if won:
        assert new.phase is cr.Phase.GAME_OVER
        assert new.winners == (p,)
        assert (new.round, new.turn, new.dealer) == (prev.round, prev.turn, prev.dealer)
        assert new.current_player == p
        return
    if not round_ended:
        assert new.phase is cr.Phase.LAY
        assert new.turn == prev.turn + 1
        assert (new.round, new.dealer) == (prev.round, prev.dealer)
        assert new.current_player == (p + 1) % n
        return
    # The round ends (rules §4): hands to the discard pile, then exhaustion or a new deal.
    for hand in hands:
        piles.discard = list(add(tuple(piles.discard), in_species_order(hand)))
    available = len(piles.draw)
    if options.exhaustion_counts_discard:
        available += sum(piles.discard)
    exhausted = available < cr.engine.HAND_SIZE * n
    assert (new.phase is cr.Phase.GAME_OVER) == exhausted, f"exhaustion: {available} cards"
    if exhausted:
        piles.check(new, "the round end")
        assert (new.round, new.turn, new.dealer) == (prev.round, prev.turn, prev.dealer)
        assert new.current_player == p
        assert all(not any(h) for h in new.hands)
        assert all(not any(k) for k in new.known_hands)
    else:
        # Rules §4.3: the round-ender deals, or the first dealer with "same_dealer".
        same = options.next_round_first_player == "same_dealer"
        dealer = prev.dealer if same else p
        assert new.hands == piles.deal(n, dealer), "the deal after the round end"
        piles.check(new, "the deal")
        assert new.round == prev.round + 1
        assert new.turn == prev.turn + 1
        assert new.dealer == dealer
        left = options.next_round_first_player == "left_of_round_ender"
        assert new.current_player == ((p + 1) % n if left else dealer)
        assert new.phase is cr.Phase.LAY
        assert all(not any(k) for k in new.known_hands)


# --------------------------------------------------------------------------- the machine


class CuBirdsMachine(RuleBasedStateMachine):
    """Plays random games and checks every state and every transition."""

    def __init__(self) -> None:
        super().__init__()
        self.state: cr.GameState | None = None
        self.text = ""
        self.actions: list[cr.Action] = []
        self.games_finished = 0
        self.rounds_ended = 0

    # -- starting games

    def _start(self, options: cr.GameOptions, seed: int) -> None:
        state = cr.new_game(options, seed)
        text = dumps(state)
        check_new_game(state, options, seed)
        assert state == reference_new_game(options, seed), "setup differs from rules §2"
        check_state(state, text)
        assert cr.new_game(options, seed) == state
        self.state, self.text, self.actions = state, text, []
        event("players", str(options.num_players))

    @initialize(options=OPTIONS, seed=SEEDS)
    def first_game(self, options: cr.GameOptions, seed: int) -> None:
        self._start(options, seed)

    @precondition(lambda self: self.state is not None and self.state.is_over)
    @rule(options=OPTIONS, seed=SEEDS)
    def another_game(self, options: cr.GameOptions, seed: int) -> None:
        self._start(options, seed)

    # -- playing

    def _step(self, action: cr.Action) -> None:
        prev = self.state
        assert prev is not None
        try:
            prev_fields = fields_of(prev)
            new = cr.apply(prev, action)
            text = dumps(new)
            check_transition(prev, prev_fields, action, new)
            # The JSON round trip, two fifths of the test's time, for every fourth state and
            # every state that ends a round, reshuffles or ends the game (10,234 of 37,217 in a
            # run of the ci profile).
            check_state(new, text, round_trip=not len(self.actions) % 4 or unusual(prev, new))
        except Exception:
            # Everything needed to replay the failing game without Hypothesis.
            note(
                f"{prev.options!r} seed={prev.seed} actions="
                f"{json.dumps([cr.encode_action(a) for a in [*self.actions, action]])}"
            )
            raise
        self.actions.append(action)
        self.state, self.text = new, text
        self._record(prev, new)

    def _record(self, prev: cr.GameState, new: cr.GameState) -> None:
        if new.shuffles > prev.shuffles:
            event("reshuffle of the discard pile during play")
        if new.round > prev.round:
            self.rounds_ended += 1
            event("round ended and a new one was dealt")
        if any(row.count(row[0]) == len(row) for row in new.rows):
            event("single-species row")
        if piles_empty(new) and not piles_empty(prev):
            event("draw and discard piles both emptied")
        if new.is_over:
            self.games_finished += 1
            won = len(new.winners) == 1 and wins(new.collections[new.winners[0]])
            event("game over", "win" if won else "exhaustion")
            if len(new.winners) > 1:
                event("game over with shared victory")

    def _play(self, choices: list[int]) -> None:
        for choice in choices:
            if self.state is None:
                return
            actions = cr.legal_actions(self.state)
            if not actions:
                return
            self._step(actions[choice % len(actions)])

    @rule(choices=st.lists(st.integers(0, 63), min_size=1, max_size=8))
    def play_chosen(self, choices: list[int]) -> None:
        """A few actions, each chosen by Hypothesis (shrinks well)."""
        self._play(choices)

    @rule(rng_seed=st.integers(0, 2**32 - 1), count=st.integers(1, 120))
    def play_random(self, rng_seed: int, count: int) -> None:
        """Many actions chosen by a seeded generator (reaches the end of games quickly)."""
        rng = random.Random(rng_seed)
        self._play([rng.randrange(64) for _ in range(count)])

    @rule(rng_seed=st.integers(0, 2**32 - 1), first_choices=st.booleans())
    def play_to_the_end(self, rng_seed: int, first_choices: bool) -> None:
        """Play the rest of the game (random actions, or always the first legal action)."""
        rng = random.Random(rng_seed)
        assert self.state is not None
        for _ in range(2000):
            actions = cr.legal_actions(self.state)
            if not actions:
                return
            self._step(actions[0] if first_choices else rng.choice(actions))
        raise AssertionError("a game did not end within 2000 actions")

    @rule(rng_seed=st.integers(0, 2**32 - 1))
    def play_lay_then_pass(self, rng_seed: int) -> None:
        """Play to the end of the turn, declining every draw and flock."""
        rng = random.Random(rng_seed)
        assert self.state is not None
        turn = self.state.turn
        while self.state.turn == turn and not self.state.is_over:
            actions = cr.legal_actions(self.state)
            self._step(cr.Pass() if cr.Pass() in actions else rng.choice(actions))

    # -- illegal actions

    @rule(action=ANY_ACTION)
    def try_any_action(self, action: cr.Action) -> None:
        state = self.state
        assert state is not None
        if state.is_over:
            event("arbitrary action after the game ended")
        legal = cr.legal_actions(state)
        if action in legal:
            event("arbitrary action was legal")
            self._step(action)
            return
        event("arbitrary action was illegal")
        with pytest.raises(cr.IllegalActionError):
            cr.apply(state, action)
        assert dumps(state) == self.text
        assert cr.decode_state(json.loads(self.text)) == state

    @rule(
        choice=st.integers(0, 63),
        bad_row=st.sampled_from([-1, -4, 4, 5, 2**63]),
        kind=st.sampled_from(["row", "species", "phase"]),
    )
    def try_near_miss(self, choice: int, bad_row: int, kind: str) -> None:
        """An action that is almost legal: a legal lay on a row that does not exist, a lay
        or flock of a species the hand lacks (or is too short of), an action of another
        phase."""
        state = self.state
        assert state is not None
        hand = state.hands[state.current_player]
        candidates: list[cr.Action]
        if kind == "row":
            legal = [a for a in cr.legal_actions(state) if isinstance(a, cr.Lay)]
            lay = legal[choice % len(legal)] if legal else cr.Lay(cr.Species.OWL, 0, cr.Side.LEFT)
            event("near-miss illegal action", kind)
            with pytest.raises(cr.IllegalActionError, match="row must be 0 to 3"):
                cr.Lay(lay.species, bad_row, lay.side)  # refused when built, not only applied
            return
        if kind == "species":
            candidates = [
                *(
                    cr.Lay(s, choice % N_ROWS, cr.Side.RIGHT)
                    for s in cr.SPECIES
                    if not hand[s.index]
                ),
                *(cr.FlyHome(s) for s in cr.SPECIES if hand[s.index] < s.small_flock),
            ]
        else:
            candidates = [
                cr.Lay(s, choice % N_ROWS, cr.Side.LEFT) for s in cr.SPECIES if hand[s.index]
            ]
            candidates += [cr.Draw(), cr.Pass()]
            candidates += [cr.FlyHome(s) for s in cr.SPECIES if hand[s.index] >= s.small_flock]
        legal_now = cr.legal_actions(state)
        candidates = [a for a in candidates if a not in legal_now]
        if not candidates:
            return
        action = candidates[choice % len(candidates)]
        event("near-miss illegal action", kind)
        with pytest.raises(cr.IllegalActionError):
            cr.apply(state, action)
        assert dumps(state) == self.text

    @rule(index=st.integers(0, len(NON_ACTIONS) - 1))
    def try_non_action(self, index: int) -> None:
        state = self.state
        assert state is not None
        with pytest.raises(cr.IllegalActionError):
            cr.apply(state, cast(Any, NON_ACTIONS[index]))
        assert dumps(state) == self.text

    # -- checks after every rule (the per-action checks run inside the rules)

    @invariant()
    def current_state_is_consistent(self) -> None:
        if self.state is not None:
            assert dumps(self.state) == self.text

    def teardown(self) -> None:
        event("games finished in this run", str(self.games_finished))
        event("rounds ended in this run", str(min(self.rounds_ended, 10)))


# A full game is about 150 actions; a run of 100 steps plays several games. The ci profile's
# example count is scaled down so that the whole file stays well under a minute.
CuBirdsMachine.TestCase.settings = settings(
    stateful_step_count=100,
    max_examples=max(10, settings().max_examples // 2),
)
TestCuBirdsMachine = CuBirdsMachine.TestCase


# --------------------------------------------------------------------------- equal actions


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: cr.Lay(cr.Species.DUCK, cast(int, True), cr.Side.RIGHT), "row must be an int"),
        (lambda: cr.Lay(cr.Species.DUCK, cast(int, 1.0), cr.Side.RIGHT), "row must be an int"),
        (lambda: cr.Lay(cast(cr.Species, "owl"), 0, cr.Side.LEFT), "species"),
        (lambda: cr.Lay(cr.Species.OWL, 0, cast(cr.Side, "left")), "side"),
        (lambda: cr.FlyHome(cast(cr.Species, "owl")), "species"),
    ],
)
def test_malformed_actions_are_refused_when_built(build: Any, message: str) -> None:
    """``Lay(s, True, side) == Lay(s, 1, side)`` would make equality and legality disagree,
    so values of the wrong type are refused when the action is built."""
    with pytest.raises(TypeError, match=message):
        build()


def test_an_action_equal_to_a_legal_action_is_accepted() -> None:
    state = cr.new_game(cr.GameOptions(num_players=3), seed=42)
    for action in cr.legal_actions(state):
        assert isinstance(action, cr.Lay)
        twin = cr.Lay(action.species, int(str(action.row)), action.side)
        assert twin == action
        assert twin is not action
        assert cr.apply(state, twin) == cr.apply(state, action)


# --------------------------------------------------------------------------- reachability


def test_random_play_reaches_every_kind_of_ending() -> None:
    """Random play reaches wins, exhaustion, round ends and empty piles (not only in theory).

    This guards the state machine above against testing only the start of games.
    """
    rng = random.Random(20260101)
    seen: Counter[str] = Counter()
    for _ in range(60):
        options = cr.GameOptions(
            num_players=rng.randint(2, 5),
            round_end_timing=rng.choice(["end_of_turn", "immediate"]),
        )
        for prev, _, state, _ in random_steps(options, rng.randrange(2**64), rng=rng, events=False):
            if state.round > prev.round:
                seen["round"] += 1
            if piles_empty(state):
                seen["piles empty"] += 1
            if any(len(set(row)) == 1 for row in state.rows):
                seen["single-species row"] += 1
        won = len(state.winners) == 1 and wins(state.collections[state.winners[0]])
        seen["win" if won else "exhaustion"] += 1
    for kind in ("round", "win", "exhaustion", "piles empty", "single-species row"):
        assert seen[kind] > 0, f"random play never reached: {kind} ({seen})"
