"""The view check and the view's parts that only a wrong rule would change (issue 31).

Each test answers a mutant of :mod:`cuckoo_rules.views` (or of the checks it shares,
:mod:`cuckoo_rules._consistency`) that the rest of the suite let through: a public flock
phase the acting seat's hidden cards cannot make, one card too many of a species in
sight, :func:`~cuckoo_rules.views.check_view_consistency`'s own type and hand checks,
messages that must name the right species and seat, and the ``repr`` of a view.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

import cuckoo_rules as cr
from cuckoo_rules.views import check_view_consistency, flock_possible, unseen_cards
from tests import builders

OWL = cr.Species.OWL.index
FLAMINGO = cr.Species.FLAMINGO.index


def _seat_1_acts(seat_0_hand: dict[str, int], seat_1_hand: dict[str, int], **known: int) -> Any:
    """Seat 0's view of a 2-player lay where seat 1 acts, its ``known`` cards captured."""
    state = builders.build(
        current_player=1,
        hands=[seat_0_hand, seat_1_hand],
        known_hands=[{}, known],
    )
    return cr.observe(state, 0)


def _as_flock(view: cr.PlayerView) -> cr.PlayerView:
    return attrs.evolve(view, phase=cr.Phase.FLOCK)


# --------------------------------------------------------------------------- a public flock


def test_a_flock_one_hidden_card_short_of_the_known_part_is_possible() -> None:
    """2 known owls, 1 hidden card and 1 unseen owl: exactly a small flock (3) is possible."""
    view = _seat_1_acts({"flamingo": 3, "owl": 5}, {"owl": 2, "toucan": 1}, owl=2)
    assert unseen_cards(view)[OWL] == 1
    flock = _as_flock(view)
    assert flock_possible(flock)
    assert check_view_consistency(flock) == unseen_cards(view)


def test_a_flock_needing_an_owl_nobody_can_hold_is_refused() -> None:
    """2 known owls and 1 hidden card, but every other owl is in sight: no flock possible.

    Counting the hidden place as unseen owls (max for min), or the whole hand of 3 as
    hidden (2 unseen flamingos would then make a pair), would call it possible.
    """
    view = _seat_1_acts({"flamingo": 3, "owl": 6}, {"owl": 2, "toucan": 1}, owl=2)
    assert unseen_cards(view)[OWL] == 0
    assert unseen_cards(view)[FLAMINGO] == 2
    flock = _as_flock(view)
    assert not flock_possible(flock)
    with pytest.raises(cr.ViewError, match=r"^phase: 'flock' but player 1 cannot hold a flock$"):
        check_view_consistency(flock)
    with pytest.raises(cr.ViewError, match="player 1 cannot hold a flock"):
        cr.determinize(flock, 3)


def test_one_hidden_card_and_nothing_known_never_makes_a_flock() -> None:
    """The smallest flock is 2 flamingos: a hand of 1 hidden card cannot fly home."""
    view = _seat_1_acts({"owl": 5}, {"toucan": 1})
    assert unseen_cards(view)[FLAMINGO] == 5
    assert not flock_possible(_as_flock(view))
    with pytest.raises(cr.ViewError, match="player 1 cannot hold a flock"):
        check_view_consistency(_as_flock(view))


def test_two_hidden_cards_may_be_a_flamingo_pair() -> None:
    view = _seat_1_acts({"owl": 5}, {"toucan": 2})
    assert flock_possible(_as_flock(view))
    check_view_consistency(_as_flock(view))


def test_with_always_prompt_flock_an_impossible_flock_phase_is_no_error() -> None:
    """The flock phase proves a flock only when only a flock opens it."""
    state = builders.build(
        options={"always_prompt_flock": True},
        current_player=1,
        hands=[{"owl": 5}, {"toucan": 1}],
    )
    view = _as_flock(cr.observe(state, 0))
    assert not flock_possible(view)
    assert check_view_consistency(view) == unseen_cards(view)
    own = _as_flock(cr.observe(state, 1))  # the acting seat itself, no flock in hand
    assert not flock_possible(own)
    check_view_consistency(own)


def test_the_acting_seat_sees_its_own_flock() -> None:
    view = _seat_1_acts({"owl": 5}, {"flamingo": 2})
    own = _as_flock(attrs.evolve(view, viewer=1, hand=builders.counts(flamingo=2)))
    assert flock_possible(own)
    check_view_consistency(own)
    # Its own 2 cards, no pair: hidden from others they could be 2 flamingos, not to itself.
    state = builders.build(current_player=1, hands=["owl", "owl toucan"])
    assert not flock_possible(_as_flock(cr.observe(state, 1)))
    assert flock_possible(_as_flock(cr.observe(state, 0)))


# --------------------------------------------------------------------------- cards in sight


def _with_collection(view: cr.PlayerView, seat: int, **cards: int) -> cr.PlayerView:
    collections = list(view.collections)
    collections[seat] = tuple(
        n + cards.get(s.value, 0) for n, s in zip(collections[seat], cr.SPECIES, strict=True)
    )
    return attrs.evolve(view, collections=tuple(collections))


def test_exactly_one_owl_too_many_in_sight_is_named() -> None:
    """11 owls in sight (the game has 10): the species check, not the adding up, refuses it."""
    view = _seat_1_acts({"owl": 8}, {"toucan": 1})  # and 2 owls in the rows
    one_more = _with_collection(view, 1, owl=1)
    assert unseen_cards(one_more)[OWL] == -1
    with pytest.raises(cr.ViewError) as info:
        check_view_consistency(one_more)
    assert str(info.value) == "view: 11 owl cards in sight, but the game has 10"


def test_a_species_all_in_sight_is_not_named_for_one_over() -> None:
    """Every flamingo in sight (none unseen), one owl too many: the owls are named."""
    view = _seat_1_acts({"flamingo": 5, "owl": 8}, {"toucan": 1})
    one_more = _with_collection(view, 1, owl=1)
    assert unseen_cards(one_more)[:2] == (0, -1)
    with pytest.raises(cr.ViewError) as info:
        check_view_consistency(one_more)
    assert str(info.value) == "view: 11 owl cards in sight, but the game has 10"


def test_the_first_species_over_its_copies_is_named() -> None:
    """Robins and magpies over: the message names the magpies (the first in species order)."""
    view = _seat_1_acts({"magpie": 16, "robin": 19}, {"toucan": 1})  # 1 each in the rows
    over = _with_collection(view, 0, robin=3, magpie=2)
    with pytest.raises(cr.ViewError) as info:
        check_view_consistency(over)
    assert str(info.value) == "view: 19 magpie cards in sight, but the game has 17"


def test_every_card_of_a_species_in_sight_is_consistent() -> None:
    view = _seat_1_acts({"owl": 8}, {"toucan": 1})
    assert unseen_cards(view)[OWL] == 0
    assert check_view_consistency(view) == unseen_cards(view)


def test_cards_that_do_not_add_up_name_both_totals() -> None:
    view = _seat_1_acts({"owl": 4}, {"toucan": 1})
    off = attrs.evolve(view, draw_pile_size=view.draw_pile_size + 2)
    with pytest.raises(cr.ViewError) as info:
        check_view_consistency(off)
    unseen = sum(unseen_cards(view))
    assert str(info.value) == (
        f"view: the cards do not add up to 110: {unseen} unseen cards for {unseen + 2} "
        "hidden places"
    )


# --------------------------------------------------------------------------- the check's own checks


@pytest.mark.parametrize("value", [None, {}, "view", 3])
def test_the_check_refuses_what_is_not_a_view(value: Any) -> None:
    with pytest.raises(cr.ViewError) as info:
        check_view_consistency(value)
    assert str(info.value) == f"view: expected a PlayerView, got {type(value).__name__}"


def test_the_check_refuses_a_state() -> None:
    state = cr.new_game(cr.GameOptions(num_players=2), 4)
    with pytest.raises(cr.ViewError, match=r"^view: expected a PlayerView, got GameState$"):
        check_view_consistency(state)  # type: ignore[arg-type]


def _three_seats(viewer: int | None) -> cr.PlayerView:
    """Seed 42, 3 players: hands of 8, player 2 to lay."""
    return cr.observe(cr.new_game(cr.GameOptions(num_players=3), 42), viewer)


@pytest.mark.parametrize("field", ["hand_sizes", "known_hands", "collections"])
@pytest.mark.parametrize("change", [1, -1])
def test_a_field_without_one_entry_per_player_is_refused(field: str, change: int) -> None:
    """Even a game over, where no other check would notice an extra empty seat."""
    view = attrs.evolve(_three_seats(1), phase=cr.Phase.GAME_OVER)
    entries = getattr(view, field)
    changed: dict[str, Any] = {field: (*entries, entries[-1]) if change > 0 else entries[:-1]}
    with pytest.raises(cr.ViewError) as info:
        check_view_consistency(attrs.evolve(view, **changed))
    assert str(info.value) == f"{field}: {3 + change} entries for the 3 players"


@pytest.mark.parametrize("viewer", [-1, 3, 7])
def test_a_viewer_that_is_no_seat_is_refused(viewer: int) -> None:
    view = attrs.evolve(_three_seats(1), viewer=viewer)
    with pytest.raises(cr.ViewError) as info:
        check_view_consistency(view)
    assert str(info.value) == f"viewer: {viewer} is out of range (at least 0 and at most 2)"


@pytest.mark.parametrize("phase", list(cr.Phase))
@pytest.mark.parametrize("current", [-1, 3])
def test_a_player_to_act_that_is_no_seat_is_refused_in_every_phase(
    phase: cr.Phase, current: int
) -> None:
    """Even where no rule of the phase needs the acting seat (a game over)."""
    view = attrs.evolve(_three_seats(None), phase=phase, current_player=current)
    with pytest.raises(cr.ViewError) as info:
        check_view_consistency(view)
    assert (
        str(info.value) == f"current_player: {current} is out of range (at least 0 and at most 2)"
    )


def test_the_last_seat_may_view_and_act() -> None:
    view = _three_seats(2)
    assert view.current_player == 2
    assert check_view_consistency(view) == unseen_cards(view)


def test_a_spectator_view_with_a_hand_is_refused() -> None:
    view = attrs.evolve(_three_seats(None), hand=_three_seats(1).hand)
    with pytest.raises(cr.ViewError) as info:
        check_view_consistency(view)
    assert str(info.value) == "hand: a spectator's view (viewer None) has no hand"


def test_a_seat_view_without_its_hand_is_refused_naming_the_seat() -> None:
    view = attrs.evolve(_three_seats(1), hand=None)
    with pytest.raises(cr.ViewError) as info:
        check_view_consistency(view)
    assert str(info.value) == "hand: the view of player 1 must hold its hand"


def test_a_hand_off_its_size_is_refused_naming_the_seat() -> None:
    view = _three_seats(2)
    assert view.hand is not None
    hand = (view.hand[0] + 1, *view.hand[1:])
    with pytest.raises(cr.ViewError) as info:
        check_view_consistency(attrs.evolve(view, hand=hand))
    assert str(info.value) == "hand: 9 cards but hand_sizes[2] is 8"
    sizes = attrs.evolve(view, hand_sizes=(8, 8, 7))
    with pytest.raises(cr.ViewError) as info:
        check_view_consistency(sizes)
    assert str(info.value) == "hand: 8 cards but hand_sizes[2] is 7"


def test_known_cards_over_a_hand_size_name_that_seat() -> None:
    """Seat 1 is fine (all 8 known), seat 2 is over: the message names seat 2."""
    view = _three_seats(0)
    eight = (0, 0, 0, 0, 0, 0, 8, 0)
    nine = (0, 0, 0, 0, 0, 0, 0, 9)
    over = attrs.evolve(view, known_hands=(view.known_hands[0], eight, nine))
    with pytest.raises(cr.ViewError) as info:
        check_view_consistency(over)
    assert str(info.value) == "known_hands[2]: more cards known than hand_sizes[2] = 8"


def test_known_cards_over_a_hand_are_refused_when_every_other_hand_is_fully_known() -> None:
    """Seat 0's 3 cards all known, seat 1's 2 cards with 3 known: no seat holds more than known."""
    state = builders.build(
        current_player=1, hands=[{"owl": 3}, {"duck": 2}], known_hands=[{"owl": 3}, {"duck": 2}]
    )
    spectator = cr.observe(state, None)
    over = attrs.evolve(spectator, known_hands=(builders.counts(owl=3), builders.counts(duck=3)))
    with pytest.raises(cr.ViewError) as info:
        check_view_consistency(over)
    assert str(info.value) == "known_hands[1]: more cards known than hand_sizes[1] = 2"


def test_a_fully_known_hand_is_not_over_its_size() -> None:
    """Seat 1's 2 cards both known (its hand size): nothing is wrong."""
    view = _seat_1_acts({"owl": 4}, {"toucan": 2}, toucan=2)
    assert sum(view.known_hands[1]) == view.hand_sizes[1] == 2
    assert check_view_consistency(view) == unseen_cards(view)


def test_known_cards_outside_the_viewers_own_hand_name_seat_and_species() -> None:
    """The viewer (seat 1) holds 1 magpie but 2 are said to be known in its hand."""
    state = builders.build(hands=[{"owl": 2}, {"magpie": 1, "owl": 1}], known_hands=[{}, {}])
    view = cr.observe(state, 1)
    known = (view.known_hands[0], builders.counts(owl=1, magpie=2))
    bad = attrs.evolve(view, known_hands=known, hand_sizes=(2, 3))
    bad = attrs.evolve(bad, hand=builders.counts(owl=2, magpie=1))
    with pytest.raises(cr.ViewError) as info:
        check_view_consistency(bad)
    assert str(info.value) == "known_hands[1].magpie: 2 known but hand holds 1"


# --------------------------------------------------------------------------- the phase


def test_a_draw_with_both_piles_empty_is_refused() -> None:
    """Every card in sight or in hands, phase draw: nothing to draw."""
    state = builders.build(hands=[{"owl": 2}, {"toucan": 3}], rest="collection0")
    view = attrs.evolve(cr.observe(state, 1), phase=cr.Phase.DRAW)
    assert view.draw_pile_size == view.discard_pile_size == 0
    with pytest.raises(cr.ViewError) as info:
        check_view_consistency(view)
    assert (
        str(info.value) == "phase: 'draw' is offered only when the draw or discard pile holds cards"
    )


def test_a_draw_with_a_card_in_the_discard_pile_is_consistent() -> None:
    state = builders.build(
        hands=[{"owl": 2}, {"toucan": 3}], discard_pile={"robin": 1}, rest="collection0"
    )
    view = attrs.evolve(cr.observe(state, 1), phase=cr.Phase.DRAW)
    assert (view.draw_pile_size, view.discard_pile_size) == (0, 1)
    check_view_consistency(view)


def test_an_empty_acting_hand_may_draw_but_not_lay() -> None:
    """The acting seat 0 with no cards: fine in a draw, refused in a lay (by every viewer)."""
    state = builders.build(phase="draw", hands=[{}, {"toucan": 3}])
    for viewer in (None, 0, 1):
        view = cr.observe(state, viewer)
        check_view_consistency(view)
        lay = attrs.evolve(view, phase=cr.Phase.LAY)
        with pytest.raises(cr.ViewError, match="player 0 is to lay but holds no cards"):
            check_view_consistency(lay)


def test_a_seat_not_to_act_with_an_empty_hand_is_refused_in_a_lay() -> None:
    """Seat 0 lays with cards, seat 1 has none: only the acting seat can have emptied its hand."""
    state = builders.build(phase="draw", current_player=1, hands=[{"owl": 2}, {}])
    for viewer in (None, 0, 1):
        view = attrs.evolve(cr.observe(state, viewer), current_player=0, phase=cr.Phase.LAY)
        with pytest.raises(cr.ViewError) as info:
            check_view_consistency(view)
        assert str(info.value).startswith(
            "hand_sizes[1]: player 1 holds no cards but is not to act"
        )


# --------------------------------------------------------------------------- unseen cards and repr


def test_unseen_cards_of_a_seat_view_count_its_whole_hand() -> None:
    """Seat 1 holds 2 magpies (1 known): all of its hand is in its sight, once."""
    state = builders.build(
        current_player=1, hands=[{"owl": 2}, {"magpie": 2}], known_hands=[{}, {"magpie": 1}]
    )
    magpie = cr.Species.MAGPIE.index
    assert unseen_cards(cr.observe(state, 1))[magpie] == 17 - 1 - 2  # 1 in a row
    assert unseen_cards(cr.observe(state, 0))[magpie] == 17 - 1 - 1  # the known one
    assert unseen_cards(cr.observe(state, None))[magpie] == 17 - 1 - 1


def test_unseen_cards_of_a_seat_view_without_a_hand_count_no_hand() -> None:
    """A malformed seat view without its hand (the check refuses it) counts none."""
    state = builders.build(hands=[{"owl": 2}, {"magpie": 2}], known_hands=[{}, {"magpie": 1}])
    view = attrs.evolve(cr.observe(state, 1), hand=None)
    spectator = cr.observe(state, None)
    magpie = cr.Species.MAGPIE.index
    assert unseen_cards(view)[magpie] == unseen_cards(spectator)[magpie] + 1


@pytest.mark.parametrize("viewer", [-1, 2, 3])
def test_unseen_cards_of_a_view_whose_viewer_is_no_seat_count_no_own_hand(viewer: int) -> None:
    """A malformed viewer (the check refuses it) is no seat: -1 is not the last."""
    state = builders.build(hands=[{"owl": 2}, {"magpie": 2}], known_hands=[{}, {"magpie": 1}])
    seat_1 = cr.observe(state, 1)
    view = attrs.evolve(seat_1, viewer=viewer)
    assert unseen_cards(view) == unseen_cards(cr.observe(state, None))


def test_unseen_given_rows_refuses_a_vector_that_is_not_eight_counts() -> None:
    view = _three_seats(0)
    rows = [[row.count(s) for s in cr.SPECIES] for row in view.rows]
    with pytest.raises(ValueError, match="zip"):
        cr.views.unseen_given_rows(view, [rows[0][:7], *rows[1:]])


def test_the_repr_of_a_seat_view_shows_its_hand() -> None:
    state = builders.build(current_player=1, hands=[{"owl": 2, "robin": 1}, {"magpie": 2}])
    text = repr(cr.observe(state, 0))
    assert "viewer=0 " in text
    assert "hand={owl: 2, robin: 1} " in text
    assert "hand_sizes=[3, 2]" in text
    assert "magpie" not in text.partition("rows=")[0]
    assert "current_player=1 " in text
    assert text.startswith("<PlayerView ")
    assert text.endswith(">")


def test_the_repr_of_a_spectator_view_hides_every_hand() -> None:
    state = builders.build(current_player=1, hands=[{"owl": 2, "robin": 1}, {"magpie": 2}])
    text = repr(cr.observe(state, None))
    assert "viewer=None " in text
    assert "hand=hidden " in text
    assert "owl: 2" not in text
    assert "magpie: 2" not in text


def test_the_repr_of_a_seat_view_with_an_empty_hand_shows_it_empty() -> None:
    state = builders.build(phase="draw", hands=[{}, {"magpie": 2}])
    text = repr(cr.observe(state, 0))
    assert "hand={} " in text


# --------------------------------------------------------------------------- is_my_turn


@pytest.mark.parametrize("phase", ["lay", "draw", "flock"])
def test_it_is_the_acting_seats_turn_in_every_phase_but_the_end(phase: str) -> None:
    state = builders.build(phase=phase, current_player=1, hands=[{"owl": 1}, {"flamingo": 2}])
    assert cr.observe(state, 1).is_my_turn
    assert not cr.observe(state, 0).is_my_turn
    assert not cr.observe(state, None).is_my_turn


def test_it_is_nobodys_turn_once_the_game_is_over() -> None:
    state = builders.build(
        phase="game_over", current_player=1, winners=[1], hands=[{"owl": 1}, {"duck": 1}]
    )
    assert [cr.observe(state, viewer).is_my_turn for viewer in (0, 1, None)] == [False] * 3


# ---------------------------------------------------------------------- shared checks, deprecation


def test_a_state_whose_known_part_is_over_a_hand_it_covers_is_refused() -> None:
    """Seat 0 holds 1 owl but 2 are known (the state check has no size check before)."""
    with pytest.raises(cr.DecodeError) as info:
        builders.build(hands=[{"owl": 1}, {"duck": 2}], known_hands=[{"owl": 2}, {}])
    assert str(info.value) == "known_hands[0].owl: 2 known but hands[0] holds 1"


def test_the_deprecated_determinize_alias_warns_at_the_callers_line() -> None:
    with pytest.warns(DeprecationWarning, match="deprecated") as record:
        cr.views.determinize  # noqa: B018
    assert record[0].filename == __file__
