"""Determinization's refusals, fallback and streams that only a wrong rule would change (issue 31).

Each test answers a mutant of :mod:`cuckoo_rules.determinization` that the rest of the
suite let through: known discards that fit the pile but not one species' unseen cards,
both "no determinization found" refusals, the card-by-card fallback's dead end and
retry, the fallback's random streams (the hands and the piles must be drawn
independently, and ``shuffles`` must count every stream used), and the documented
"acting seat first" order of the deal plan.
"""

from __future__ import annotations

import functools
import hashlib
import json
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Callable

import pytest

import cuckoo_rules as cr
from cuckoo_rules.determinization import deal_plan
from cuckoo_rules.state import DECK_COUNTS, EMPTY_COUNTS
from cuckoo_rules.views import unseen_cards
from tests import builders

FLAMINGO = cr.Species.FLAMINGO.index
OWL = cr.Species.OWL.index


def _knowledge(*limits: cr.Counts, discards: cr.Counts = EMPTY_COUNTS) -> cr.Knowledge:
    return cr.Knowledge(tuple(limits), discards)


# --------------------------------------------------------------------------- known discards


def _discards_view() -> cr.PlayerView:
    """Seat 0 sees 6 flamingos (2 in rows, 4 in hand): 1 unseen; 5 cards in the discard pile."""
    state = builders.build(hands=[{"flamingo": 4}, {"owl": 3}], discard_pile={"owl": 2, "robin": 3})
    view = cr.observe(state, 0)
    assert unseen_cards(view)[FLAMINGO] == 1
    assert view.discard_pile_size == 5
    return view


def test_known_discards_above_one_species_unseen_cards_are_refused() -> None:
    """2 flamingos known discarded, 1 unseen: refused though 2 cards fit the pile of 5."""
    view = _discards_view()
    two = builders.counts(flamingo=2)
    knowledge = _knowledge(DECK_COUNTS, DECK_COUNTS, discards=two)
    with pytest.raises(cr.ViewError) as info:
        cr.determinize(view, 1, knowledge=knowledge)
    assert str(info.value) == (
        "knowledge: the known discards {flamingo: 2} do not fit the 5 cards of the discard "
        "pile and the unseen cards"
    )


def test_known_discards_up_to_one_species_unseen_cards_go_to_the_discard_pile() -> None:
    view = _discards_view()
    one = builders.counts(flamingo=1)
    knowledge = _knowledge(DECK_COUNTS, DECK_COUNTS, discards=one)
    for seed in range(10):
        state = cr.determinize(view, seed, knowledge=knowledge)
        assert state.discard_pile[FLAMINGO] == 1
        assert state.hands[1][FLAMINGO] == 0
        assert FLAMINGO not in [card.index for card in state.draw_pile]
        assert cr.observe(state, 0) == view


def test_known_discards_may_fill_the_discard_pile_but_not_overfill_it() -> None:
    view = _discards_view()
    full = builders.counts(owl=2, robin=3)
    state = cr.determinize(view, 4, knowledge=_knowledge(DECK_COUNTS, DECK_COUNTS, discards=full))
    assert state.discard_pile == full
    over = builders.counts(owl=2, robin=3, duck=1)
    with pytest.raises(
        cr.ViewError,
        match=r"^knowledge: the known discards \{owl: 2, duck: 1, robin: 3\} do not fit the 5 ",
    ):
        cr.determinize(view, 4, knowledge=_knowledge(DECK_COUNTS, DECK_COUNTS, discards=over))


# ------------------------------------------------------------------- no determinization found


def _unlikely_flock() -> cr.PlayerView:
    """Seat 0's view: seat 1 is to fly home with its 2 hidden cards, the last 2 flamingos."""
    state = builders.build(
        current_player=1, phase="flock", hands=[{"flamingo": 3, "owl": 5}, {"flamingo": 2}]
    )
    view = cr.observe(state, 0)
    assert unseen_cards(view)[FLAMINGO] == 2
    return view


@pytest.mark.parametrize("max_draws", [0, 3])
def test_a_flock_the_limits_forbid_is_refused(max_draws: int) -> None:
    """Seat 1 can hold 1 flamingo at most: no draw gives it its flock (the flock sampler)."""
    one_flamingo = (1, *DECK_COUNTS[1:])
    knowledge = _knowledge(DECK_COUNTS, one_flamingo)
    with pytest.raises(cr.ViewError) as info:
        cr.determinize(_unlikely_flock(), 7, knowledge=knowledge, max_draws=max_draws)
    assert str(info.value) == ("no determinization found: the view and knowledge are inconsistent")


def test_the_flock_sampler_still_finds_the_only_flock_within_the_limits() -> None:
    two_flamingos = (2, 0, *DECK_COUNTS[2:])
    knowledge = _knowledge(DECK_COUNTS, two_flamingos)
    for seed in range(5):
        state = cr.determinize(_unlikely_flock(), seed, knowledge=knowledge, max_draws=0)
        assert state.hands[1] == builders.counts(flamingo=2)
        assert state.shuffles == 2  # the fallback's first stream, then the piles' stream


@pytest.mark.parametrize("max_draws", [0, 2])
def test_hidden_cards_no_species_may_fill_are_refused(max_draws: int) -> None:
    """Seat 1 hides 2 cards but may hold none of any species: every card-by-card try fails."""
    view = cr.observe(builders.build(hands=[{"flamingo": 3}, {"owl": 2}]), 0)
    knowledge = _knowledge(DECK_COUNTS, EMPTY_COUNTS)
    with pytest.raises(cr.ViewError) as info:
        cr.determinize(view, 1, knowledge=knowledge, max_draws=max_draws)
    assert str(info.value) == ("no determinization found: the view and knowledge are inconsistent")


def test_the_card_by_card_deal_gives_up_after_ten_thousand_attempts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One random stream per attempt, as many as the docstring says, none after."""
    streams: list[int] = []
    stream_state = cr.rng.stream_state  # what determinization calls, by its own name

    def counted(seed: int, stream: int) -> int:
        streams.append(stream)
        return stream_state(seed, stream)

    monkeypatch.setattr(cr.determinization, "stream_state", counted)
    view = cr.observe(builders.build(hands=[{"flamingo": 3}, {"owl": 2}]), 0)
    with pytest.raises(cr.ViewError, match=r"^no determinization found"):
        cr.determinize(view, 1, knowledge=_knowledge(DECK_COUNTS, EMPTY_COUNTS), max_draws=0)
    assert len(streams) == 10_000
    assert streams == list(range(streams[0], streams[0] + 10_000))


# ------------------------------------------------------------------ the card-by-card fallback


def _dead_end_view() -> cr.PlayerView:
    """Seat 0's view of 3 players: 2 flamingos and 1 owl unseen among other cards.

    Seat 1 hides 1 card, seat 2 hides 2.
    """
    state = builders.build(
        num_players=3,
        hands=[{"flamingo": 3}, {"owl": 1}, {"flamingo": 2}],
        collections=[{"owl": 7}, {}, {}],
    )
    view = cr.observe(state, 0)
    assert unseen_cards(view)[:2] == (2, 1)
    return view


def test_the_card_by_card_deal_retries_after_a_dead_end() -> None:
    """Seat 1 may take a flamingo or an owl, seat 2 only flamingos (2 of them).

    Seat 1 is dealt first (equally constrained, lower seat) and takes a flamingo 2 times
    in 3, leaving seat 2 one flamingo short: that try is dropped and the next stream
    tried. Only seat 1 owl, seat 2 two flamingos can come out.
    """
    view = _dead_end_view()
    knowledge = _knowledge(DECK_COUNTS, (1, 1, *EMPTY_COUNTS[2:]), (2, *EMPTY_COUNTS[1:]))
    streams: Counter[int] = Counter()
    for seed in range(40):
        state = cr.determinize(view, seed, knowledge=knowledge, max_draws=0)
        assert state.hands[1] == builders.counts(owl=1)
        assert state.hands[2] == builders.counts(flamingo=2)
        assert cr.observe(state, 0) == view
        assert state == cr.determinize(view, seed, knowledge=knowledge, max_draws=0)
        streams[state.shuffles] += 1
    # shuffles = the tries + 1 (the piles' stream): 1 try 1 time in 3, more otherwise.
    assert 5 < streams[2] < 25
    assert sum(n for shuffles, n in streams.items() if shuffles > 3) > 3


# --------------------------------------------------------------------------- the fallback's streams


def _three_unseen() -> cr.PlayerView:
    """Seat 0 sees all but a flamingo, an owl and a toucan: seat 1's card and the draw pile."""
    state = builders.build(
        hands=[{"robin": 2}, {"owl": 1}], draw_pile="flamingo toucan", rest="collection0"
    )
    view = cr.observe(state, 0)
    assert unseen_cards(view) == builders.counts(flamingo=1, owl=1, toucan=1)
    assert (view.draw_pile_size, view.discard_pile_size) == (2, 0)
    return view


FLAMINGO_OR_OWL = _knowledge(DECK_COUNTS, (1, 1, *EMPTY_COUNTS[2:]))
"""Seat 1's hidden card is a flamingo or an owl (never the toucan)."""


@pytest.mark.parametrize("max_draws", [0, 1])
def test_the_fallback_shuffles_the_piles_independently_of_the_hands(max_draws: int) -> None:
    """Seat 1's card and the top of the draw pile are independent: all 4 pairs come out.

    Seat 1 gets the flamingo or the owl; the draw pile is the other one and the toucan,
    in either order. A fallback that shuffled the piles with the stream it dealt the
    hands with would tie the order to the card dealt (each card with one top only).
    """
    view = _three_unseen()
    pairs: Counter[tuple[cr.Counts, cr.Species]] = Counter()
    for seed in range(400):
        state = cr.determinize(view, seed, knowledge=FLAMINGO_OR_OWL, max_draws=max_draws)
        assert cr.observe(state, 0) == view
        pairs[state.hands[1], state.draw_pile[0]] += 1
    flamingo, owl = builders.counts(flamingo=1), builders.counts(owl=1)
    expected = {
        (flamingo, cr.Species.OWL),
        (flamingo, cr.Species.TOUCAN),
        (owl, cr.Species.FLAMINGO),
        (owl, cr.Species.TOUCAN),
    }
    assert set(pairs) == expected
    for pair in expected:
        assert 60 < pairs[pair] < 140, pairs  # 100 each expected


@pytest.mark.parametrize("max_draws", [0, 1, 3])
def test_shuffles_counts_every_stream_a_determinization_used(max_draws: int) -> None:
    """A draw accepted at stream s used s + 1 streams; the fallback, max_draws + 2.

    Seat 1's card is accepted by a uniform draw 2 times in 3; when ``max_draws`` draws
    fail the card-by-card deal never fails (1 seat), then shuffles the piles with the
    next stream. A later reshuffle in the determinized game takes the stream
    ``shuffles``: a count too low would make it repeat a stream already used.
    """
    view = _three_unseen()
    seen: Counter[int] = Counter()
    for seed in range(150):
        state = cr.determinize(view, seed, knowledge=FLAMINGO_OR_OWL, max_draws=max_draws)
        assert state.shuffles <= max_draws or state.shuffles == max_draws + 2, state.shuffles
        seen[state.shuffles] += 1
    assert seen[max_draws + 2] > 0
    if max_draws:
        assert seen[1] > 60  # the first draw is accepted 2 times in 3


def test_by_default_20000_draws_are_tried_before_the_card_by_card_deal() -> None:
    """Seat 1 must hide the 1 unseen owl, seat 2 the 2 unseen flamingos (of 88 cards).

    A uniform draw gets both about 1 time in 330,000: the 20,000 draws (the default
    ``max_draws``) nearly always fail, then the card-by-card deal succeeds at once, so
    the state has used 20,000 streams, 1 for the deal and 1 for the piles.
    """
    state = builders.build(
        num_players=3, hands=[{"flamingo": 3, "owl": 7}, {"owl": 1}, {"flamingo": 2}]
    )
    view = cr.observe(state, 0)
    assert unseen_cards(view)[:2] == (2, 1)
    knowledge = _knowledge(DECK_COUNTS, (0, 1, *EMPTY_COUNTS[2:]), (2, *EMPTY_COUNTS[1:]))
    for seed in range(3):
        guess = cr.determinize(view, seed, knowledge=knowledge)
        assert guess.shuffles == 20_002
        assert guess.hands[1:] == (builders.counts(owl=1), builders.counts(flamingo=2))


def test_the_plain_shuffle_uses_one_stream() -> None:
    view = _three_unseen()
    for seed in range(5):
        state = cr.determinize(view, seed)
        assert state.shuffles == 1
        assert state.seed == seed


# --------------------------------------------------------------------------- the deal plan


def _flock_of_seat_2(viewer: int | None) -> cr.PlayerView:
    """3 players: seat 2 is to fly home with its 3 hidden cards (a flamingo pair and an owl)."""
    state = builders.build(
        num_players=3,
        current_player=2,
        phase="flock",
        hands=[{"owl": 2}, {"robin": 3}, {"flamingo": 2, "owl": 1}],
    )
    return cr.observe(state, viewer)


@pytest.mark.parametrize("viewer", [0, None])
def test_the_deal_plan_deals_the_acting_seat_first_when_it_must_hold_a_flock(
    viewer: int | None,
) -> None:
    plan = deal_plan(_flock_of_seat_2(viewer))
    assert plan.need_flock
    assert plan.seats == ((2, 1) if viewer == 0 else (2, 0, 1))
    assert plan.hidden == ((0, 3, 3) if viewer == 0 else (2, 3, 3))
    assert plan.limits == (DECK_COUNTS,) * 3
    assert plan.max_draws == 32


def test_the_deal_plan_deals_in_seat_order_without_a_flock() -> None:
    view = _flock_of_seat_2(0)
    lay = cr.observe(
        builders.build(
            num_players=3,
            current_player=2,
            hands=[{"owl": 2}, {"robin": 3}, {"flamingo": 2, "owl": 1}],
        ),
        0,
    )
    plan = deal_plan(lay)
    assert (plan.need_flock, plan.seats, plan.limits, plan.max_draws) == (False, (1, 2), None, None)
    own = deal_plan(_flock_of_seat_2(2))  # the acting seat sees its flock: nothing to draw
    assert (own.need_flock, own.seats, own.limits) == (False, (0, 1), None)
    assert deal_plan(view).pool == tuple(
        species for species in cr.SPECIES for _ in range(unseen_cards(view)[species.index])
    )


def test_the_acting_seat_known_flock_needs_no_draw() -> None:
    """Seat 2's flamingo pair is known (captured): its hidden card need not make a flock."""
    state = builders.build(
        num_players=3,
        current_player=2,
        phase="flock",
        hands=[{"owl": 2}, {"robin": 3}, {"flamingo": 2, "owl": 1}],
        known_hands=[{}, {}, {"flamingo": 2}],
    )
    plan = deal_plan(cr.observe(state, 0))
    assert (plan.need_flock, plan.seats, plan.limits) == (False, (1, 2), None)
    assert plan.hidden == (0, 3, 1)


# --------------------------------------------------------------------------- the state a seed gives


def _digest(states: list[cr.GameState]) -> str:
    digest = hashlib.sha256()
    for state in states:
        digest.update(json.dumps(cr.encode_state(state), sort_keys=True).encode())
    return digest.hexdigest()[:16]


def _history(num_players: int, seed: int, actions: int) -> tuple[cr.PlayerView, cr.Knowledge]:
    """A game of random actions (``random.Random(seed)``), seen by the seat after the actor."""
    rng = random.Random(seed)
    state = cr.new_game(cr.GameOptions(num_players=num_players), seed)
    known = {seat: cr.Knowledge.at_setup(state) for seat in range(num_players)}
    for _ in range(actions):
        state, events = cr.step(state, rng.choice(cr.legal_actions(state)))
        known = cr.knowledge.learn_each(known, events)
    viewer = (state.current_player + 1) % num_players
    assert not known[viewer].is_empty
    return cr.observe(state, viewer), known[viewer]


def _golden_cases() -> dict[str, Callable[[int], cr.GameState]]:
    plain = cr.observe(cr.new_game(cr.GameOptions(num_players=3), 42), 1)
    spectator = cr.observe(cr.new_game(cr.GameOptions(num_players=4), 7), None)
    dead_end = _knowledge(DECK_COUNTS, (1, 1, *EMPTY_COUNTS[2:]), (2, *EMPTY_COUNTS[1:]))
    no_owl = _knowledge(DECK_COUNTS, (2, 0, *DECK_COUNTS[2:]))
    owl = cr.Species.OWL.index
    seat_1_no_owl = _knowledge(
        DECK_COUNTS, (*DECK_COUNTS[:owl], 0, *DECK_COUNTS[owl + 1 :]), DECK_COUNTS
    )
    histories = {n: _history(n, seed, actions) for n, seed, actions in ((3, 11, 80), (4, 8, 120))}
    return {
        "plain shuffle": lambda seed: cr.determinize(plain, seed),
        "plain shuffle, spectator": lambda seed: cr.determinize(spectator, seed),
        "flock, drawn directly": lambda seed: cr.determinize(_unlikely_flock(), seed),
        "flock, redrawn or drawn": lambda seed: cr.determinize(_flock_of_seat_2(0), seed),
        "knowledge, redrawn": lambda seed: cr.determinize(
            _three_unseen(), seed, knowledge=FLAMINGO_OR_OWL
        ),
        "knowledge, card by card": lambda seed: cr.determinize(
            _dead_end_view(), seed, knowledge=dead_end, max_draws=0
        ),
        "knowledge, flock sampler": lambda seed: cr.determinize(
            _unlikely_flock(), seed, knowledge=no_owl, max_draws=0
        ),
        # Three hidden cards among many unseen: the sampler ranks thousands of choices.
        "knowledge, flock sampler, many ways": lambda seed: cr.determinize(
            _flock_of_seat_2(0), seed, knowledge=seat_1_no_owl, max_draws=0
        ),
        **{
            f"history of {n}, max_draws {draws}": functools.partial(
                lambda seed, view, knowledge, draws: cr.determinize(
                    view, seed, knowledge=knowledge, max_draws=draws
                ),
                view=view,
                knowledge=knowledge,
                draws=draws,
            )
            for n, (view, knowledge) in histories.items()
            for draws in (32, 0)
        },
    }


GOLDEN = {
    "plain shuffle": "7cc760688ad50ddb",
    "plain shuffle, spectator": "f09fdbe4e293c4fd",
    "flock, drawn directly": "41df9d81075edde2",
    "flock, redrawn or drawn": "fc657af170df45eb",
    "knowledge, redrawn": "c8ac0e7c8d6205a1",
    "knowledge, card by card": "52f327e256a2382e",
    "knowledge, flock sampler": "918b38b5cc68b79c",
    "knowledge, flock sampler, many ways": "bc4e5b6fc633b7b2",
    "history of 3, max_draws 32": "ef88494cc4c57b5d",
    "history of 3, max_draws 0": "f9e5f6cb9d6a004e",
    "history of 4, max_draws 32": "484dd76c3a03c835",
    "history of 4, max_draws 0": "2e183e3d26b2f080",
}
"""Digests of the states seeds 0 to 9 give on each path of :func:`determinize`."""


def test_each_seed_gives_the_state_it_always_gave() -> None:
    """The state a seed gives on every path is fixed: the batch kernels deal the same.

    The expert's kernels deal determinizations from the deal plan exactly as
    :func:`~cuckoo_rules.determinize` does (``tests/bots/test_expert.py``, slow and only
    with the batch extra); these digests hold every path to its past results in the quick
    suite. A change that is meant must change the kernels the same way, then the digests.
    """
    cases = _golden_cases()
    found = {name: _digest([draw(seed) for seed in range(10)]) for name, draw in cases.items()}
    assert found == GOLDEN


def test_the_deal_plan_is_made_once_for_the_same_view_and_knowledge() -> None:
    """The expert asks once per decision and may ask again: the same objects, the same plan."""
    view = _three_unseen()
    plan = deal_plan(view)
    assert deal_plan(view) is plan
    with_knowledge = deal_plan(view, FLAMINGO_OR_OWL)
    assert with_knowledge is not plan
    assert with_knowledge.limits == FLAMINGO_OR_OWL.hidden_limits
    assert plan.limits is None
    assert deal_plan(view, FLAMINGO_OR_OWL) is with_knowledge
    again = _three_unseen()  # an equal view, another object: planned afresh, alike
    assert deal_plan(again) == plan
    assert deal_plan(again) is not plan


def test_the_first_determinization_of_a_process_checks_its_view() -> None:
    # The check is skipped for the view checked last; in a fresh process nothing was, so a
    # first call with no view at all is refused as any other (ViewError, not AttributeError).
    code = (
        "import cuckoo_rules as cr\n"
        "try:\n"
        "    cr.determinize(None, 0)\n"
        "except Exception as error:\n"
        "    print(type(error).__name__)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "ViewError"
