"""What the history proves beyond the view, and determinizations that respect it."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import event, given

import cuckoo_rules as cr
from tests.builders import build, counts
from tests.games import Game, RandomGame, random_game
from tests.strategies import WHOLE_GAMES, random_games


def minus(a: cr.Counts, b: cr.Counts) -> cr.Counts:
    return tuple(x - y for x, y in zip(a, b, strict=True))


def sound(state: cr.GameState, knowledge: cr.Knowledge, viewer: int | None) -> bool:
    """Whether the true state agrees with ``knowledge``."""
    for seat in range(state.num_players):
        if seat != viewer and not knowledge.allows(
            seat, minus(state.hands[seat], state.known_hands[seat])
        ):
            return False
    return all(map(int.__le__, knowledge.known_discards, state.discard_pile))


History = list[tuple[cr.GameState, tuple[cr.Event, ...]]]
"""The states of a game, each with the events that led to it (none for the first)."""


def history_of(game: Game) -> History:
    return list(zip(game.states, ((), *game.events), strict=True))


def play(options: cr.GameOptions, seed: int, rng: random.Random, steps: int) -> History:
    """The history of a random game of at most ``steps`` actions (drawing from ``rng``)."""
    return history_of(random_game(options, seed, rng=rng, max_actions=steps, events=True))


@WHOLE_GAMES
@given(random_games(max_actions=300))
def test_the_true_state_always_agrees_with_what_was_learned(game: RandomGame) -> None:
    history = history_of(game.play(events=True))
    for viewer in [*range(game.num_players), None]:
        knowledge = cr.Knowledge.at_setup(history[0][0])
        for state, events in history:
            knowledge = cr.knowledge.learn(knowledge, cr.visible_events(events, viewer), viewer)
            assert sound(state, knowledge, viewer), (viewer, knowledge)
    limited = sum(
        limit < s.copies
        for limits in knowledge.hidden_limits
        for limit, s in zip(limits, cr.SPECIES, strict=True)
    )
    event(f"limits at the end: {min(limited, 5)}")


def knowledge_at(history: History, viewer: int) -> cr.Knowledge:
    knowledge = cr.Knowledge.at_setup(history[0][0])
    for _, events in history:
        knowledge = cr.knowledge.learn(knowledge, cr.visible_events(events, viewer), viewer)
    return knowledge


def sample_histories(count: int, seed: int) -> list[History]:
    rng = random.Random(seed)
    return [
        play(
            cr.GameOptions(num_players=rng.randint(2, 5)),
            rng.randrange(2**64),
            rng,
            rng.randint(5, 120),
        )
        for _ in range(count)
    ]


def test_determinize_with_knowledge_agrees_with_view_and_history() -> None:
    violations_without = 0
    for history in sample_histories(60, seed=1):
        state = history[-1][0]
        for viewer in range(state.num_players):
            knowledge = knowledge_at(history, viewer)
            view = cr.observe(state, viewer)
            for seed in range(5):
                guess = cr.determinize(view, seed, knowledge=knowledge)
                assert cr.observe(guess, viewer) == view
                assert sound(guess, knowledge, viewer)
                violations_without += not sound(cr.determinize(view, seed), knowledge, viewer)
    # Without the knowledge, many determinizations contradict the history.
    assert violations_without > 100


def test_no_knowledge_gives_the_same_state_as_none() -> None:
    for history in sample_histories(20, seed=2):
        state = history[-1][0]
        view = cr.observe(state, 0)
        start = cr.Knowledge.start(state.num_players)
        for seed in range(3):
            assert cr.determinize(view, seed, knowledge=start) == cr.determinize(view, seed)


def test_conditioning_is_uniform() -> None:
    """The knowledge-conditioned draws match unconditioned draws filtered by the knowledge."""
    state = cr.new_game(cr.GameOptions(num_players=2), seed=3)
    state, events = cr.step(state, cr.Lay(cr.Species.TOUCAN, 0, cr.Side.LEFT))
    knowledge = cr.knowledge.learn(cr.Knowledge.start(2), cr.visible_events(events, 1), 1)
    view = cr.observe(state, 1)
    assert knowledge.hidden_limits[0][cr.Species.TOUCAN.index] == 0

    def statistic(guess: cr.GameState) -> int:
        return guess.hands[0][cr.Species.OWL.index]

    conditioned = Counter(
        statistic(cr.determinize(view, seed, knowledge=knowledge)) for seed in range(3000)
    )
    filtered: Counter[int] = Counter()
    seed = 10**6
    while filtered.total() < 3000:
        guess = cr.determinize(view, seed)
        seed += 1
        if sound(guess, knowledge, 1):
            filtered[statistic(guess)] += 1
    assert seed - 10**6 > 3300  # the filter really removed draws
    distance = sum(abs(conditioned[k] - filtered[k]) for k in conditioned | filtered) / 6000
    assert distance < 0.05, (conditioned, filtered)


def test_known_discards_are_put_in_the_discard_pile() -> None:
    found = 0
    for history in sample_histories(80, seed=4):
        state = history[-1][0]
        for viewer in range(state.num_players):
            knowledge = knowledge_at(history, viewer)
            if sum(knowledge.known_discards):
                found += 1
                guess = cr.determinize(cr.observe(state, viewer), 7, knowledge=knowledge)
                assert all(map(int.__le__, knowledge.known_discards, guess.discard_pile))
    assert found > 10


def test_the_duplicates_set_aside_at_setup_are_known_discards() -> None:
    # Rules §2 and §6: the cards set aside while the rows are built go to the discard pile
    # face up, so every seat knows them until the next reshuffle.
    state = cr.new_game(cr.GameOptions(num_players=3), seed=42)
    assert state.discard_pile == cr.state.dict_to_counts(
        {cr.Species.MAGPIE: 1, cr.Species.ROBIN: 1}
    )
    known = cr.Knowledge.at_setup(state)
    assert known.known_discards == state.discard_pile
    assert known.hidden_limits == cr.Knowledge.start(3).hidden_limits
    view = cr.observe(state, 0)
    for seed in range(20):
        guess = cr.determinize(view, seed, knowledge=known)
        assert guess.discard_pile == state.discard_pile  # the whole pile is known here
    # With the duplicates shuffled back into the draw pile, nothing is known.
    back = cr.new_game(cr.GameOptions(num_players=4, setup_duplicates_to="draw_pile"), 7)
    assert cr.Knowledge.at_setup(back).is_empty


def test_knowledge_at_setup_needs_a_fresh_game() -> None:
    state = cr.new_game(cr.GameOptions(num_players=2), seed=1)
    later = cr.apply(state, cr.legal_actions(state)[0])
    with pytest.raises(cr.ViewError, match="not a game before its first action"):
        cr.Knowledge.at_setup(later)
    with pytest.raises(cr.ViewError, match="expected a GameState"):
        cr.Knowledge.at_setup(cr.observe(state, 0))  # type: ignore[arg-type]


def test_the_known_part_of_a_hand_discarded_at_a_round_end_is_a_known_discard() -> None:
    # Rules §6: seat 1 captured two robins and still holds them when seat 0 empties its
    # hand; the round ends and every hand is discarded. Everyone saw the robins enter
    # seat 1's hand, so everyone knows they are in the discard pile now.
    state = build(
        num_players=3,
        phase="flock",
        rows=("duck parrot", "magpie owl", "toucan reed_warbler", "flamingo duck"),
        hands=("owl owl owl", "robin robin duck", "parrot"),
        known_hands=((), "robin robin", ()),
    )  # every other card is in the draw pile: the next deal needs no reshuffle
    after, events = cr.step(state, cr.FlyHome(cr.Species.OWL))
    (ended,) = [e for e in events if isinstance(e, cr.events.RoundEnded)]
    assert ended.known_hands == state.known_hands
    assert not any(isinstance(e, cr.events.Reshuffled) for e in events)  # the pile stays known
    robins = counts(robin=2)
    for viewer in (0, 2, None):
        learned = cr.knowledge.learn(
            cr.Knowledge.start(3), cr.visible_events(events, viewer), viewer
        )
        own = ended.hands[viewer] if viewer is not None else None  # its own discarded hand
        own = own or cr.state.EMPTY_COUNTS
        owls = counts(owl=2)  # the flock cards not kept (3 owls revealed, 1 kept)
        expected = tuple(a + b + c for a, b, c in zip(robins, own, owls, strict=True))
        assert learned.known_discards == expected, viewer
        guess = cr.determinize(cr.observe(after, viewer), 3, knowledge=learned)
        assert all(map(int.__le__, expected, guess.discard_pile))
    # Seat 1 knows its own whole hand went there.
    learned = cr.knowledge.learn(cr.Knowledge.start(3), cr.visible_events(events, 1), 1)
    assert learned.known_discards == tuple(
        a + b for a, b in zip(state.hands[1], counts(owl=2), strict=True)
    )


def test_bad_knowledge_is_refused_with_a_clear_error() -> None:
    state = cr.new_game(cr.GameOptions(num_players=3), seed=5)
    view = cr.observe(state, 0)
    with pytest.raises(cr.ViewError, match="knowledge: 2 seats for a 3-player view"):
        cr.determinize(view, 1, knowledge=cr.Knowledge.start(2))
    too_many = cr.Knowledge(cr.Knowledge.start(3).hidden_limits, (0, 0, 0, 0, 0, 0, 0, 99))
    with pytest.raises(cr.ViewError, match=r"known discards .* do not fit"):
        cr.determinize(view, 1, knowledge=too_many)
    with pytest.raises(cr.ViewError, match="expected a Knowledge, got dict"):
        cr.determinize(view, 1, knowledge={})  # type: ignore[arg-type]
    with pytest.raises(cr.ViewError, match=r"hidden_limits\[1\]: expected 8 non-negative"):
        cr.Knowledge(((0,) * 8, (0,) * 7), (0,) * 8)
    with pytest.raises(cr.ViewError, match="hidden_limits: expected one entry per seat"):
        cr.Knowledge.start(1)
    with pytest.raises(cr.ViewError, match="known_discards: expected 8"):
        cr.Knowledge(cr.Knowledge.start(2).hidden_limits, (-1,) * 8)
    with pytest.raises(cr.InvalidOptionsError, match="max_draws: -1 is not an integer >= 0"):
        cr.determinize(view, 1, knowledge=cr.Knowledge(((0,) * 8,) * 3, (0,) * 8), max_draws=-1)
    with pytest.raises(cr.ViewError, match="beyond the 2 seats"):
        cr.knowledge.learn(
            cr.Knowledge.start(2),
            [cr.events.DeclinedDraw(0), cr.events.Laid(4, cr.Species.OWL, 1, 0, cr.Side.LEFT)],
            0,
        )


def test_the_fallback_deal_keeps_to_the_limits() -> None:
    """With no uniform draws at all, the card-by-card deal still respects everything."""
    checked = 0
    for history in sample_histories(40, seed=6):
        state = history[-1][0]
        for viewer in range(state.num_players):
            knowledge = knowledge_at(history, viewer)
            if knowledge.is_empty:
                continue
            view = cr.observe(state, viewer)
            for seed in range(3):
                guess = cr.determinize(view, seed, knowledge=knowledge, max_draws=0)
                assert cr.observe(guess, viewer) == view
                assert sound(guess, knowledge, viewer)
                again = cr.determinize(view, seed, knowledge=knowledge, max_draws=0)
                assert guess == again  # seeded
                checked += 1
    assert checked > 100


def test_public_flock_phases_respect_knowledge_and_flock() -> None:
    """In a flock phase seen from another seat, the acting hand flies and fits the history."""
    rng = random.Random(8)
    checked = 0
    while checked < 60:
        options = cr.GameOptions(num_players=rng.randint(2, 5))
        history = play(options, rng.randrange(2**64), rng, rng.randint(5, 150))
        for end in range(1, len(history)):
            state = history[end][0]
            if state.phase is not cr.Phase.FLOCK:
                continue
            viewer = (state.current_player + 1) % state.num_players
            knowledge = knowledge_at(history[: end + 1], viewer)
            view = cr.observe(state, viewer)
            for seed, max_draws in ((0, 0), (1, 0), (2, 32), (3, 20_000)):
                guess = cr.determinize(view, seed, knowledge=knowledge, max_draws=max_draws)
                assert cr.observe(guess, viewer) == view
                assert cr.state.can_fly_home(guess.hands[state.current_player])
                assert sound(guess, knowledge, viewer)
            checked += 1
