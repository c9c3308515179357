"""What each event teaches a seat, fact by fact, and the checks of a Knowledge (issue 31).

:func:`~cuckoo_rules.knowledge.learn` is tested on whole games elsewhere (the true state
always agrees with what was learned); these tests give it one event at a time and
check the exact limits and known discards, so that a rule learned wrongly, or too
little, fails here: each answers mutants of :mod:`cuckoo_rules.knowledge`.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

import cuckoo_rules as cr
from cuckoo_rules.events import (
    Dealt,
    DeclinedDraw,
    Drew,
    FlewHome,
    GameStarted,
    Laid,
    Reshuffled,
    RoundEnded,
)
from cuckoo_rules.knowledge import Knowledge, learn, learn_each
from cuckoo_rules.state import DECK_COUNTS, EMPTY_COUNTS
from tests.builders import counts

OWL = cr.Species.OWL
DUCK = cr.Species.DUCK
ROBIN = cr.Species.ROBIN


def _with(counts_: cr.Counts, species: cr.Species, value: int) -> cr.Counts:
    return tuple(value if i == species.index else n for i, n in enumerate(counts_))


def _limited(num_players: int, seat: int, **limits: int) -> Knowledge:
    """No known discards; ``seat``'s hidden cards capped at ``limits`` (species ids)."""
    seats = [DECK_COUNTS] * num_players
    for name, value in limits.items():
        seats[seat] = _with(seats[seat], cr.Species(name), value)
    return Knowledge(tuple(seats), EMPTY_COUNTS)


# --------------------------------------------------------------------------- the checks


@pytest.mark.parametrize("num_players", [2, 5])
def test_knowledge_takes_two_to_five_seats(num_players: int) -> None:
    knowledge = Knowledge((DECK_COUNTS,) * num_players, EMPTY_COUNTS)
    assert len(knowledge.hidden_limits) == num_players
    assert Knowledge.start(num_players) == knowledge


@pytest.mark.parametrize("num_players", [0, 1, 6])
def test_knowledge_refuses_other_numbers_of_seats(num_players: int) -> None:
    with pytest.raises(cr.ViewError) as info:
        Knowledge((DECK_COUNTS,) * num_players, EMPTY_COUNTS)
    assert str(info.value).startswith("hidden_limits: expected one entry per seat, got (")


def test_knowledge_refuses_limits_that_are_not_a_tuple() -> None:
    with pytest.raises(cr.ViewError, match=r"^hidden_limits: expected one entry per seat, got \["):
        Knowledge([DECK_COUNTS, DECK_COUNTS], EMPTY_COUNTS)  # type: ignore[arg-type]


BAD_COUNTS: list[Any] = [
    [0] * 8,  # a list
    (0,) * 7,
    (0,) * 9,
    (0, 0, 0, 0, 0, 0, 0, -1),
    (0, 0, 0, True, 0, 0, 0, 0),
    (0, 0, 0, 1.0, 0, 0, 0, 0),
    "01234567",
]


@pytest.mark.parametrize("value", BAD_COUNTS, ids=repr)
def test_knowledge_refuses_bad_counts_naming_the_field(value: Any) -> None:
    with pytest.raises(cr.ViewError) as info:
        Knowledge((DECK_COUNTS, value), EMPTY_COUNTS)
    assert str(info.value) == f"hidden_limits[1]: expected 8 non-negative integers, got {value!r}"
    with pytest.raises(cr.ViewError) as info:
        Knowledge((DECK_COUNTS, DECK_COUNTS), value)
    assert str(info.value) == f"known_discards: expected 8 non-negative integers, got {value!r}"


def test_knowledge_takes_zero_limits_and_zero_discards() -> None:
    knowledge = Knowledge((EMPTY_COUNTS, EMPTY_COUNTS, DECK_COUNTS), EMPTY_COUNTS)
    assert knowledge.hidden_limits[0] == EMPTY_COUNTS
    assert not knowledge.is_empty


@pytest.mark.parametrize("value", [2.0, "2", True, None])
def test_start_needs_an_integer_number_of_seats(value: Any) -> None:
    with pytest.raises(cr.ViewError) as info:
        Knowledge.start(value)
    assert str(info.value) == f"num_players: expected an integer, got {value!r}"


def test_start_knows_only_the_discards_it_is_given() -> None:
    start = Knowledge.start(3, counts(owl=2))
    assert start.hidden_limits == (DECK_COUNTS,) * 3
    assert start.known_discards == counts(owl=2)
    assert not start.is_empty
    assert Knowledge.start(4).is_empty


def test_is_empty_needs_no_limit_and_no_known_discard() -> None:
    assert not _limited(2, 1, owl=9).is_empty
    assert not Knowledge((DECK_COUNTS,) * 2, counts(robin=1)).is_empty
    assert not Knowledge((EMPTY_COUNTS,) * 2, counts(robin=1)).is_empty


def test_allows_compares_each_species_with_its_limit() -> None:
    knowledge = _limited(2, 1, owl=2, duck=0)
    assert knowledge.allows(1, counts(owl=2))  # at the limit
    assert not knowledge.allows(1, counts(owl=3))
    assert not knowledge.allows(1, counts(duck=1))
    assert knowledge.allows(1, counts(robin=20))
    assert knowledge.allows(0, counts(owl=3, duck=5))  # another seat's limits
    assert not knowledge.allows(1, _with(DECK_COUNTS, OWL, 2))  # all but owls at copies


def test_at_setup_needs_a_game_before_its_first_action() -> None:
    state = cr.new_game(cr.GameOptions(num_players=2), 1)
    with pytest.raises(cr.ViewError, match="not a game before its first action"):
        Knowledge.at_setup(cr.apply(state, cr.legal_actions(state)[0]))
    with pytest.raises(cr.ViewError, match="expected a GameState, got PlayerView"):
        Knowledge.at_setup(cr.observe(state, 0))  # type: ignore[arg-type]


def test_at_setup_knows_the_set_aside_duplicates_and_no_limit() -> None:
    options = cr.GameOptions(num_players=3)
    for seed in range(40):
        state = cr.new_game(options, seed)
        if sum(state.discard_pile):
            break
    else:
        pytest.fail("no setup set duplicates aside")
    knowledge = Knowledge.at_setup(state)
    assert knowledge == Knowledge((DECK_COUNTS,) * 3, state.discard_pile)


# --------------------------------------------------------------------------- event by event


def test_laying_birds_leaves_none_of_that_species_hidden() -> None:
    start = _limited(3, 2, robin=4)
    learned = learn(start, [Laid(2, OWL, 2, 0, cr.Side.LEFT)], 0)
    assert learned.hidden_limits[2] == _with(_with(DECK_COUNTS, ROBIN, 4), OWL, 0)
    assert learned.hidden_limits[:2] == (DECK_COUNTS, DECK_COUNTS)
    assert learned.known_discards == EMPTY_COUNTS


def test_flying_home_leaves_none_of_that_species_and_discards_the_rest() -> None:
    """5 ducks revealed, 2 kept (one bird): 3 ducks known to be in the discard pile."""
    start = Knowledge((DECK_COUNTS, DECK_COUNTS), counts(duck=1, robin=2))
    learned = learn(start, [FlewHome(1, DUCK, 5, 2)], 0)
    assert learned.hidden_limits == (DECK_COUNTS, _with(DECK_COUNTS, DUCK, 0))
    assert learned.known_discards == counts(duck=4, robin=2)


def test_drawing_raises_a_limit_by_the_cards_drawn_up_to_the_copies() -> None:
    """Another seat draws 2 unseen cards: each limit up by 2, never above the copies."""
    start = Knowledge((DECK_COUNTS, _with(_with(DECK_COUNTS, OWL, 0), ROBIN, 19)), counts(owl=1))
    learned = learn(start, [Drew(1, 2, None)], 0)
    assert learned.hidden_limits[1] == _with(_with(DECK_COUNTS, OWL, 2), ROBIN, 20)
    assert learned.hidden_limits[0] == DECK_COUNTS
    assert learned.known_discards == counts(owl=1)


def test_a_viewers_own_draw_changes_nothing() -> None:
    start = _limited(2, 0, owl=0)
    assert learn(start, [Drew(0, 2, (OWL, OWL))], 0) == start
    assert learn(start, [Drew(0, 1, None)], None) == _limited(2, 0, owl=1)  # a spectator


def test_a_round_end_discards_every_hand_seen_or_its_known_part() -> None:
    """Seat 0 sees its own hand discarded, and only the known part of seat 1's."""
    start = Knowledge((DECK_COUNTS, DECK_COUNTS), counts(robin=1))
    event = RoundEnded(
        round=1,
        player=0,
        hand_sizes=(0, 3),
        hands=(counts(duck=2), None),
        known_hands=(counts(duck=1), counts(owl=2)),
    )
    learned = learn(start, [event], 0)
    assert learned.known_discards == counts(robin=1, duck=2, owl=2)
    assert learned.hidden_limits == start.hidden_limits


def test_a_deal_lifts_every_limit_and_keeps_the_known_discards() -> None:
    start = Knowledge((_with(DECK_COUNTS, OWL, 0),) * 3, counts(duck=2))
    event = Dealt(round=2, dealer=1, hand_sizes=(8, 8, 8), hands=(None, None, None))
    learned = learn(start, [event], 1)
    assert learned == Knowledge((DECK_COUNTS,) * 3, counts(duck=2))


def test_a_game_start_forgets_the_old_game() -> None:
    start = Knowledge((_with(DECK_COUNTS, OWL, 0),) * 2, counts(duck=2))
    event = GameStarted(dealer=0, discarded=counts(robin=1), hand_sizes=(8, 8, 8), hands=())
    learned = learn(start, [event], None)
    assert learned == Knowledge((DECK_COUNTS,) * 3, counts(robin=1))


def test_a_reshuffle_forgets_the_known_discards_but_not_the_limits() -> None:
    start = Knowledge((_with(DECK_COUNTS, OWL, 0), DECK_COUNTS), counts(duck=2))
    learned = learn(start, [Reshuffled(40)], 1)
    assert learned == Knowledge(start.hidden_limits, EMPTY_COUNTS)


def test_other_events_teach_nothing() -> None:
    start = Knowledge((_with(DECK_COUNTS, OWL, 0), DECK_COUNTS), counts(duck=2))
    assert learn(start, [DeclinedDraw(0)], 1) == start
    assert learn(start, [], 1) == start


def test_events_are_learned_in_order() -> None:
    """A lay zeroes owls, a draw of 1 lets one back in; then a reshuffle, then a flock."""
    start = Knowledge.start(2)
    events: list[cr.Event] = [
        FlewHome(0, DUCK, 4, 4),  # nothing discarded
        Laid(1, OWL, 1, 2, cr.Side.RIGHT),
        Drew(1, 1, None),
        FlewHome(1, DUCK, 6, 2),
        Reshuffled(30),
        FlewHome(1, ROBIN, 7, 2),
    ]
    learned = learn(start, events, 0)
    assert learned.hidden_limits == (
        _with(DECK_COUNTS, DUCK, 0),
        _with(_with(_with(DECK_COUNTS, OWL, 1), DUCK, 0), ROBIN, 0),
    )
    assert learned.known_discards == counts(robin=5)


def test_an_event_naming_a_seat_beyond_the_knowledge_is_refused() -> None:
    with pytest.raises(cr.ViewError) as info:
        learn(Knowledge.start(3), [Drew(3, 1, None)], 0)
    assert str(info.value) == "events name a seat beyond the 3 seats of this knowledge"


def test_learn_each_redacts_the_events_for_each_seat() -> None:
    """Seat 0's draw: seat 1 learns its limits went up, seat 0 (who saw the cards) nothing."""
    known = {0: _limited(2, 0, owl=0), 1: _limited(2, 0, owl=0)}
    learned = learn_each(known, [Drew(0, 2, (OWL, DUCK))])
    assert learned == {0: _limited(2, 0, owl=0), 1: _limited(2, 0, owl=2)}
    assert learn_each({}, [Drew(0, 2, (OWL, DUCK))]) == {}


def test_learning_from_a_real_game_matches_the_state() -> None:
    """A real lay then the knowledge folded by learn_each keeps the acting seat's species out."""
    state = cr.new_game(cr.GameOptions(num_players=2), seed=3)
    lay = cr.Lay(cr.Species.TOUCAN, 0, cr.Side.LEFT)
    state, events = cr.step(state, lay)
    known = learn_each({0: Knowledge.start(2), 1: Knowledge.start(2)}, events)
    toucan = cr.Species.TOUCAN.index
    assert known[1].hidden_limits[0][toucan] == 0
    assert known[0].hidden_limits[0][toucan] == 0  # its own limit too: it holds none now
    assert state.hands[0][toucan] == 0


@pytest.mark.parametrize(
    ("hands", "known_hands", "message"),
    [
        (
            (None, (*counts(duck=2), 0)),
            (EMPTY_COUNTS, EMPTY_COUNTS),
            "RoundEnded: hands[1] has 9 counts, not 8",
        ),
        (
            (None, counts(duck=2)[:7]),
            (EMPTY_COUNTS, EMPTY_COUNTS),
            "RoundEnded: hands[1] has 7 counts, not 8",
        ),
        (
            (None, None),
            (EMPTY_COUNTS[:7], EMPTY_COUNTS),
            "RoundEnded: known_hands[0] has 7 counts, not 8",
        ),
        (
            (counts(duck=2), None),
            (EMPTY_COUNTS[:7], EMPTY_COUNTS),  # the known part of a hand seen whole is unused
            None,
        ),
    ],
)
def test_a_round_end_with_a_hand_that_is_not_eight_counts_is_refused(
    hands: tuple[cr.Counts | None, ...], known_hands: tuple[cr.Counts, ...], message: str | None
) -> None:
    """A malformed event is not cut or padded to eight counts and learned."""
    event = RoundEnded(round=1, player=0, hand_sizes=(2, 0), hands=hands, known_hands=known_hands)
    if message is None:
        assert learn(Knowledge.start(2), [event], 0).known_discards == counts(duck=2)
        return
    with pytest.raises(cr.ViewError) as info:
        learn(Knowledge.start(2), [event], None)
    assert str(info.value) == message


@pytest.mark.parametrize(
    ("seats", "hands", "known"),
    [(2, 3, 2), (2, 2, 3), (2, 3, 3), (3, 2, 2)],
)
def test_a_round_end_without_one_hand_per_seat_is_refused(
    seats: int, hands: int, known: int
) -> None:
    event = RoundEnded(
        round=1,
        player=0,
        hand_sizes=(0, 2, 1)[:hands],
        hands=(None,) * hands,
        known_hands=(EMPTY_COUNTS,) * known,
    )
    with pytest.raises(cr.ViewError) as info:
        learn(Knowledge.start(seats), [event], None)
    assert str(info.value) == (
        f"RoundEnded: {hands} hands and {known} known hands for the {seats} seats of this knowledge"
    )


def test_a_game_start_discarding_what_is_not_eight_counts_is_refused() -> None:
    """Before any later event adds to it (a round end would fail on other words)."""
    state = cr.new_game(cr.GameOptions(num_players=2), 5)
    started = cr.events.GameStarted.of(state)
    malformed = attrs.evolve(started, discarded=(*started.discarded, 0))
    ended = RoundEnded(
        round=1, player=0, hand_sizes=(0, 0), hands=(None, None), known_hands=(EMPTY_COUNTS,) * 2
    )
    with pytest.raises(cr.ViewError) as info:
        learn(Knowledge.start(2), [malformed, ended], None)
    assert str(info.value) == (
        f"GameStarted: discarded: expected 8 non-negative integers, got {malformed.discarded!r}"
    )
