"""Player views and determinization (rules §6): what a seat may see, and nothing more."""

from __future__ import annotations

import copy
import json
import math
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

import cuckoo_rules as cr
from cuckoo_rules import Counts, GameOptions, Phase
from cuckoo_rules.state import Row
from tests import builders
from tests.documents import all_keys
from tests.documents import delete_at as _delete
from tests.documents import set_at as _set
from tests.formats.test_codec import as_version_1
from tests.strategies import OPTIONS

Doc = dict[str, Any]
Observer = Callable[[cr.GameState, int | None], cr.PlayerView]

# --------------------------------------------------------------------------- strategies


def play_randomly(state: cr.GameState, rng: random.Random, max_actions: int) -> cr.GameState:
    """Play up to ``max_actions`` random legal actions, stopping at game over."""
    for _ in range(max_actions):
        if state.is_over:
            break
        state = cr.apply(state, rng.choice(cr.legal_actions(state)))
    return state


@st.composite
def reachable_states(draw: st.DrawFn) -> cr.GameState:
    """A state reached from a random setup by 0-400 random legal actions (finished games too)."""
    options = draw(OPTIONS)
    seed = draw(st.integers(0, 2**64 - 1))
    steps = draw(st.one_of(st.integers(0, 150), st.integers(0, 400)))  # fewer finished games
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    state = play_randomly(cr.new_game(options, seed), rng, steps)
    event(f"phase {state.phase.value}")
    return state


def sample_states(count: int, seed: int = 0, low: int = 0) -> list[cr.GameState]:
    """Reachable states without Hypothesis, for plain tests (``low`` to 150 actions played)."""
    rng = random.Random(seed)
    states = []
    for _ in range(count):
        options = cr.GameOptions(
            num_players=rng.randint(cr.options.MIN_PLAYERS, cr.options.MAX_PLAYERS),
            always_prompt_flock=rng.random() < 0.3,
        )
        start = cr.new_game(options, rng.randrange(2**64))
        states.append(play_randomly(start, rng, rng.randint(low, 150)))
    return states


def viewers(state: cr.GameState) -> list[int | None]:
    """Every seat and the spectator."""
    return [*range(state.num_players), None]


# --------------------------------------------------------------------------- helpers


def cards_of(counts: cr.Counts) -> list[cr.Species]:
    return [s for s in cr.SPECIES for _ in range(counts[s.index])]


def minus(a: cr.Counts, b: cr.Counts) -> cr.Counts:
    return tuple(x - y for x, y in zip(a, b, strict=True))


def add(counts: cr.Counts, cards: list[cr.Species]) -> cr.Counts:
    result = list(counts)
    for card in cards:
        result[card.index] += 1
    return tuple(result)


HiddenLayout = tuple[tuple[cr.Counts, ...], tuple[cr.Species, ...], cr.Counts]


def hidden_layout(state: cr.GameState, viewer: int | None) -> HiddenLayout:
    """Where the cards hidden from ``viewer`` are: others' unknown hand parts, both piles."""
    unknown = tuple(
        minus(state.hands[p], state.known_hands[p]) for p in range(state.num_players) if p != viewer
    )
    return unknown, state.draw_pile, state.discard_pile


def hidden_pool(state: cr.GameState, viewer: int | None) -> Counter[cr.Species]:
    unknown, draw_pile, discard = hidden_layout(state, viewer)
    pool: Counter[cr.Species] = Counter(draw_pile)
    for counts in (*unknown, discard):
        pool.update(cards_of(counts))
    return pool


def species_totals(state: cr.GameState) -> list[int]:
    total = [0] * cr.cards.NUM_SPECIES
    for row in state.rows:
        for card in row:
            total[card.index] += 1
    for card in state.draw_pile:
        total[card.index] += 1
    for counts in (state.discard_pile, *state.hands, *state.collections):
        for i, n in enumerate(counts):
            total[i] += n
    return total


def perturb(state: cr.GameState, viewer: int | None, rng: random.Random) -> cr.GameState:
    """Move the cards hidden from ``viewer`` around, keeping every size; new seed and shuffles.

    The hidden cards (other seats' unknown hand parts, the draw pile in order, the discard
    pile) are pooled, shuffled and dealt back with the same sizes; up to 20 shuffles are
    tried to find a layout that differs from the original.
    """
    n = state.num_players
    others = [p for p in range(n) if p != viewer]
    unknown, draw_pile, discard = hidden_layout(state, viewer)
    sizes = [sum(counts) for counts in unknown]
    pool = [card for counts in unknown for card in cards_of(counts)]
    pool += [*draw_pile, *cards_of(discard)]
    original = hidden_layout(state, viewer)
    hands = list(state.hands)
    for _ in range(20):
        rng.shuffle(pool)
        pos = 0
        for p, size in zip(others, sizes, strict=True):
            hands[p] = add(state.known_hands[p], pool[pos : pos + size])
            pos += size
        new_draw = tuple(pool[pos : pos + len(draw_pile)])
        new_discard = add(cr.state.dict_to_counts({}), pool[pos + len(draw_pile) :])
        perturbed = attrs.evolve(
            state,
            seed=(state.seed + rng.randrange(1, 2**64)) % 2**64,
            shuffles=state.shuffles + rng.randint(1, 50),
            hands=tuple(hands),
            draw_pile=new_draw,
            discard_pile=new_discard,
        )
        if hidden_layout(perturbed, viewer) != original:
            break
    return perturbed


def check_hidden_moves_are_invisible(
    state: cr.GameState,
    viewer: int | None,
    rng: random.Random,
    see: Observer = cr.observe,
) -> bool:
    """Assert that ``see`` cannot tell ``state`` from a perturbation of its hidden cards.

    Returns whether the perturbation moved hidden cards (it always changes seed and shuffles).
    """
    perturbed = perturb(state, viewer, rng)
    # The perturbation keeps everything public and every size, and differs from the truth.
    assert perturbed != state
    assert perturbed.seed != state.seed
    assert perturbed.shuffles != state.shuffles
    assert species_totals(perturbed) == [s.copies for s in cr.SPECIES]
    assert [sum(h) for h in perturbed.hands] == [sum(h) for h in state.hands]
    assert len(perturbed.draw_pile) == len(state.draw_pile)
    assert sum(perturbed.discard_pile) == sum(state.discard_pile)
    if viewer is not None:
        assert perturbed.hands[viewer] == state.hands[viewer]

    view, other = see(state, viewer), see(perturbed, viewer)
    assert other == view
    assert json.dumps(cr.encode_view(other)) == json.dumps(cr.encode_view(view))
    return hidden_layout(perturbed, viewer) != hidden_layout(state, viewer)


# --------------------------------------------------------------------------- observe


@given(reachable_states(), st.integers(0, 2**32 - 1))
def test_moving_hidden_cards_does_not_change_any_view(state: cr.GameState, rng_seed: int) -> None:
    rng = random.Random(rng_seed)
    for viewer in viewers(state):
        moved = check_hidden_moves_are_invisible(state, viewer, rng)
        event(f"hidden cards moved: {moved}")


def _leak_draw_order(state: cr.GameState, viewer: int | None) -> cr.PlayerView:
    fingerprint = 0
    for card in state.draw_pile:
        fingerprint = (fingerprint * 31 + card.index + 1) % 1_000_000_007
    return attrs.evolve(cr.observe(state, viewer), turn=fingerprint)


def _leak_draw_content(state: cr.GameState, viewer: int | None) -> cr.PlayerView:
    content = Counter(state.draw_pile)
    weight = sum((s.index + 1) ** 3 * n for s, n in content.items())
    return attrs.evolve(cr.observe(state, viewer), draw_pile_size=weight)


def _leak_discard(state: cr.GameState, viewer: int | None) -> cr.PlayerView:
    weight = sum((i + 1) ** 3 * n for i, n in enumerate(state.discard_pile))
    return attrs.evolve(cr.observe(state, viewer), discard_pile_size=weight)


def _leak_hands(state: cr.GameState, viewer: int | None) -> cr.PlayerView:
    return attrs.evolve(cr.observe(state, viewer), known_hands=state.hands)


def _leak_seed(state: cr.GameState, viewer: int | None) -> cr.PlayerView:
    return attrs.evolve(cr.observe(state, viewer), round=state.seed)


def _leak_shuffles(state: cr.GameState, viewer: int | None) -> cr.PlayerView:
    return attrs.evolve(cr.observe(state, viewer), dealer=state.shuffles)


def _has_draw_pile(state: cr.GameState, viewer: int | None) -> bool:
    return len(state.draw_pile) > 1


def _has_discard(state: cr.GameState, viewer: int | None) -> bool:
    return sum(state.discard_pile) > 0


def _has_hidden_hand(state: cr.GameState, viewer: int | None) -> bool:
    return any(sum(counts) for counts in hidden_layout(state, viewer)[0])


def _always(state: cr.GameState, viewer: int | None) -> bool:
    return True


@pytest.mark.parametrize(
    ("leaky", "applies"),
    [
        (_leak_draw_order, _has_draw_pile),
        (_leak_draw_content, _has_draw_pile),
        (_leak_discard, _has_discard),
        (_leak_hands, _has_hidden_hand),
        (_leak_seed, _always),
        (_leak_shuffles, _always),
    ],
)
def test_the_perturbation_check_catches_leaks(
    leaky: Observer, applies: Callable[[cr.GameState, int | None], bool]
) -> None:
    """The property above can fail: a view leaking any hidden part is caught."""
    rng = random.Random(1)
    caught = tried = 0
    for state in sample_states(20, seed=5, low=40):
        for viewer in viewers(state):
            if not applies(state, viewer):
                continue
            tried += 1
            try:
                check_hidden_moves_are_invisible(state, viewer, rng, see=leaky)
            except AssertionError:
                caught += 1
    assert tried >= 20
    assert caught >= 0.9 * tried, (caught, tried)


def test_perturbation_moves_hidden_cards_most_of_the_time() -> None:
    rng = random.Random(2)
    moved = [
        check_hidden_moves_are_invisible(state, viewer, rng)
        for state in sample_states(30, seed=7)
        for viewer in viewers(state)
    ]
    assert sum(moved) >= 0.9 * len(moved)


VIEW_KEYS = [
    "format",
    "version",
    "viewer",
    "options",
    "round",
    "turn",
    "dealer",
    "current_player",
    "phase",
    "rows",
    "draw_pile_size",
    "discard_pile_size",
    "hand",
    "hand_sizes",
    "known_hands",
    "collections",
    "winners",
]
FORBIDDEN_KEYS = {"draw_pile", "discard_pile", "seed", "shuffles", "hands"}


def test_a_view_has_no_hidden_fields() -> None:
    names = {field.name for field in attrs.fields(cr.PlayerView)}
    assert not names & FORBIDDEN_KEYS
    view = cr.observe(cr.new_game(cr.GameOptions(num_players=3), 42), 1)
    for name in names:
        assert not isinstance(getattr(view, name), cr.GameState)


@given(reachable_states())
def test_view_json_shows_only_what_the_viewer_may_see(state: cr.GameState) -> None:
    for viewer in viewers(state):
        view = cr.observe(state, viewer)
        doc = cr.encode_view(view)
        text = json.dumps(doc)
        assert list(doc) == VIEW_KEYS
        keys = set(all_keys(doc))
        assert not keys & FORBIDDEN_KEYS
        assert not any("seed" in key or "shuffle" in key for key in keys)
        assert doc["format"] == "cuckoo-rules/view"
        assert doc["viewer"] == viewer
        # Only the viewer's own hand is shown; other hands only by size and known part.
        if viewer is None:
            assert doc["hand"] is None
        else:
            assert doc["hand"] == cr.codec.encode_counts(state.hands[viewer])
        assert doc["hand_sizes"] == [sum(hand) for hand in state.hands]
        assert doc["known_hands"] == [cr.codec.encode_counts(k) for k in state.known_hands]
        assert doc["draw_pile_size"] == len(state.draw_pile)
        assert doc["discard_pile_size"] == sum(state.discard_pile)
        assert doc["rows"] == [[card.value for card in row] for row in state.rows]
        assert doc["collections"] == [cr.codec.encode_counts(c) for c in state.collections]
        assert doc["winners"] == list(state.winners)
        # Round trip through JSON text.
        decoded = cr.decode_view(json.loads(text))
        assert decoded == view
        assert json.dumps(cr.encode_view(decoded)) == text


@pytest.mark.parametrize("player", [-1, 3, 7, True, False, "0", 0.0, 1.5])
def test_observe_rejects_a_non_seat(player: Any) -> None:
    state = cr.new_game(cr.GameOptions(num_players=3), 42)
    with pytest.raises(ValueError, match="player"):
        cr.observe(state, player)


def test_observe_spectator_and_seats() -> None:
    state = cr.new_game(cr.GameOptions(num_players=3), 42)
    spectator = cr.observe(state, None)
    assert spectator.viewer is None
    assert spectator.hand is None
    assert not spectator.is_my_turn
    seat = cr.observe(state, state.current_player)
    assert seat.hand == state.hands[state.current_player]
    assert seat.is_my_turn
    assert seat.num_players == 3
    assert not seat.is_over
    assert "draw_pile=69" in repr(seat)


# --------------------------------------------------------------------------- legal actions


@given(reachable_states())
def test_legal_actions_of_views(state: cr.GameState) -> None:
    truth = cr.legal_actions(state)
    mask = cr.legal_action_mask(state)
    assert len(mask) == cr.NUM_DISTINCT_ACTIONS == 74
    assert [i for i, ok in enumerate(mask) if ok] == [cr.action_id(a) for a in truth]
    for viewer in viewers(state):
        view = cr.observe(state, viewer)
        if state.is_over:
            assert cr.legal_actions(view) == ()
            assert cr.legal_action_mask(view) == (False,) * 74
        elif viewer == state.current_player:
            assert cr.legal_actions(view) == truth
            assert cr.legal_action_mask(view) == mask
        else:
            with pytest.raises(ValueError, match="is to act"):
                cr.legal_actions(view)
            with pytest.raises(ValueError, match="is to act"):
                cr.legal_action_mask(view)


# --------------------------------------------------------------------------- determinize


def _flock_is_hidden(view: cr.PlayerView) -> bool:
    """A flock phase whose acting hand is hidden: the acting seat must be dealt a flock."""
    return (
        view.phase is cr.Phase.FLOCK
        and view.viewer != view.current_player
        and not view.options.always_prompt_flock
    )


@given(reachable_states(), st.integers(0, 2**64 - 1))
def test_determinize_is_consistent_with_the_view(state: cr.GameState, seed: int) -> None:
    for viewer in viewers(state):
        view = cr.observe(state, viewer)
        det = cr.determinize(view, seed)
        assert cr.observe(det, viewer) == view
        assert cr.determinize(view, seed) == det  # the seed decides everything
        assert det.seed == seed
        # Only a public flock phase may need more than one stream (rejected draws).
        assert det.shuffles >= 1
        assert det.shuffles == 1 or _flock_is_hidden(view)
        # A complete game of 110 cards, public parts and the viewer's hand as in the truth.
        assert species_totals(det) == [s.copies for s in cr.SPECIES]
        for name in ("options", "round", "turn", "dealer", "current_player", "phase", "rows"):
            assert getattr(det, name) == getattr(state, name)
        assert det.known_hands == state.known_hands
        assert det.collections == state.collections
        assert det.winners == state.winners
        assert [sum(h) for h in det.hands] == [sum(h) for h in state.hands]
        assert len(det.draw_pile) == len(state.draw_pile)
        assert sum(det.discard_pile) == sum(state.discard_pile)
        if viewer is not None:
            assert det.hands[viewer] == state.hands[viewer]
        # The hidden cards are the same multiset, only placed differently.
        assert hidden_pool(det, viewer) == hidden_pool(state, viewer)
        assert sum(cr.views.unseen_cards(view)) == sum(hidden_pool(state, viewer).values())
        assert cr.decode_state(cr.encode_state(det)) == det
        if view.is_my_turn:
            assert cr.legal_actions(det) == cr.legal_actions(state) == cr.legal_actions(view)
            assert cr.legal_action_mask(det) == cr.legal_action_mask(state)


def _arrangements_may_differ(view: cr.PlayerView) -> bool:
    """Whether at least two different placements of the hidden species exist."""
    unseen = cr.views.unseen_cards(view)
    if sum(1 for n in unseen if n) < 2:
        return False
    places = view.draw_pile_size + (view.discard_pile_size > 0)
    places += sum(
        1
        for p in range(view.num_players)
        if p != view.viewer and view.hand_sizes[p] > sum(view.known_hands[p])
    )
    return places >= 2


@given(reachable_states())
def test_different_seeds_give_different_hidden_cards(state: cr.GameState) -> None:
    for viewer in viewers(state):
        view = cr.observe(state, viewer)
        layouts = {hidden_layout(cr.determinize(view, seed), viewer) for seed in range(10)}
        if not _arrangements_may_differ(view):
            event("a single arrangement of the hidden cards")
            assert len(layouts) == 1
            continue
        if len(layouts) == 1:  # possible only with very lopsided piles; look further
            more = {hidden_layout(cr.determinize(view, s), viewer) for s in range(10, 200)}
            layouts |= more
        assert len(layouts) > 1


@settings(max_examples=25)
@given(reachable_states(), st.integers(0, 2**64 - 1), st.integers(0, 2**32 - 1))
def test_play_goes_on_from_a_determinized_state(
    state: cr.GameState, seed: int, rng_seed: int
) -> None:
    rng = random.Random(rng_seed)
    viewer = rng.choice(viewers(state))
    det = cr.determinize(cr.observe(state, viewer), seed)
    end = play_randomly(det, rng, 20_000)
    assert end.is_over
    assert end.winners
    assert cr.decode_state(cr.encode_state(end)) == end


def test_determinize_rejects_bad_seeds() -> None:
    view = cr.observe(cr.new_game(cr.GameOptions(num_players=3), 42), 0)
    bad: list[Any] = [-1, 2**64, True, 1.0, "1"]
    for seed in bad:
        with pytest.raises(cr.InvalidOptionsError):
            cr.determinize(view, seed)
    bad_draws: list[Any] = [-1, True, 1.0, "1"]
    for max_draws in bad_draws:  # checked with or without knowledge
        with pytest.raises(cr.InvalidOptionsError, match="max_draws"):
            cr.determinize(view, 1, max_draws=max_draws)


def test_determinization_is_close_to_uniform() -> None:
    """Each hidden card lands in a place with probability proportional to its size."""
    state = cr.new_game(cr.GameOptions(num_players=3), 42)
    view = cr.observe(state, 0)
    unseen = cr.views.unseen_cards(view)
    pool = sum(unseen)
    sizes = {"hand 1": 8, "hand 2": 8, "draw": len(state.draw_pile)}
    sizes["discard"] = sum(state.discard_pile)
    assert sum(sizes.values()) == pool
    runs = 2000
    landed = {place: [0] * cr.cards.NUM_SPECIES for place in sizes}
    top = [0] * cr.cards.NUM_SPECIES
    for seed in range(runs):
        det = cr.determinize(view, seed)
        for i in range(cr.cards.NUM_SPECIES):
            landed["hand 1"][i] += det.hands[1][i]
            landed["hand 2"][i] += det.hands[2][i]
            landed["discard"][i] += det.discard_pile[i]
        for card in det.draw_pile:
            landed["draw"][card.index] += 1
        top[det.draw_pile[0].index] += 1
    for species in cr.SPECIES:
        copies = unseen[species.index]
        assert copies > 0
        for place, size in sizes.items():
            share = landed[place][species.index] / (runs * copies)
            assert abs(share - size / pool) < 0.05, (species, place, share, size / pool)
        assert abs(top[species.index] / runs - copies / pool) < 0.05, species


def test_determinize_respects_the_known_part_of_hands() -> None:
    # Find a state where an opponent holds captured (known) cards.
    for state in sample_states(60, seed=11):
        for p in range(state.num_players):
            if sum(state.known_hands[p]) and not state.is_over:
                viewer = (p + 1) % state.num_players
                view = cr.observe(state, viewer)
                for seed in range(5):
                    det = cr.determinize(view, seed)
                    assert all(
                        k <= h for k, h in zip(state.known_hands[p], det.hands[p], strict=True)
                    )
                return
    pytest.fail("no state with a known hand part found")


def _flock_repro() -> cr.GameState:
    state = cr.new_game(cr.GameOptions(num_players=2), 23)
    state = cr.apply(state, cr.parse_action("lay parrot 1 left"))
    assert state.phase is cr.Phase.FLOCK
    assert state.current_player == 0
    assert cr.legal_actions(state) == (cr.FlyHome(cr.Species.FLAMINGO), cr.Pass())
    return state


def test_determinize_respects_a_public_flock_phase() -> None:
    """Seed 23, 2 players, 'lay parrot 1 left': seat 1's view, determinize seed 0."""
    state = _flock_repro()
    view = cr.observe(state, 1)
    for seed in range(20):
        det = cr.determinize(view, seed)
        assert cr.state.can_fly_home(det.hands[det.current_player])
        assert cr.decode_state(cr.encode_state(det)) == det


def test_determinized_flock_phases_are_valid_states() -> None:
    checked = 0
    for state in sample_states(150, seed=3):
        for viewer in viewers(state):
            view = cr.observe(state, viewer)
            if _flock_is_hidden(view):
                checked += 1
                for seed in range(10):
                    det = cr.determinize(view, seed)
                    assert cr.decode_state(cr.encode_state(det)) == det
    assert checked > 0


def _unlikely_flock() -> cr.GameState:
    """Seat 1 is to fly home with its 2 hidden cards: the last 2 flamingos seat 0 cannot see.

    Seat 0 sees the other 5 flamingos (2 in rows, 3 in hand), so among the 90 unseen
    cards only 1 pair of 4005 gives seat 1 its flock.
    """
    state = builders.build(
        seed=11,
        current_player=1,
        phase="flock",
        hands=[{"flamingo": 3, "owl": 5}, {"flamingo": 2}],
    )
    assert cr.views.unseen_cards(cr.observe(state, 0))[cr.Species.FLAMINGO.index] == 2
    return state


def test_determinize_finds_an_unlikely_public_flock() -> None:
    """A valid flock phase whose flock is 1 draw in 4005: once refused 1 time in 10."""
    state = _unlikely_flock()
    view = cr.observe(state, 0)
    start = cr.Knowledge.start(2)
    owl = cr.Species.OWL.index
    limits = start.hidden_limits[1][:owl] + (0,) + start.hidden_limits[1][owl + 1 :]
    no_owl = cr.Knowledge((start.hidden_limits[0], limits), start.known_discards)
    for seed in range(300):
        det = cr.determinize(view, seed)
        assert det.hands[1] == builders.counts(flamingo=2)
        assert cr.observe(det, 0) == view
        assert cr.determinize(view, seed) == det
        assert cr.decode_state(cr.encode_state(det)) == det
        for max_draws in (0, 32):  # the knowledge path, by rejection and by its fallback
            guess = cr.determinize(view, seed, knowledge=no_owl, max_draws=max_draws)
            assert guess.hands[1] == builders.counts(flamingo=2)
            assert cr.observe(guess, 0) == view


def _rare_flock() -> cr.GameState:
    """Seat 1 is to fly home with 3 hidden cards of 13 unseen: 12 of the 286 triples fly.

    The unseen cards: 2 flamingos, 3 owls, 1 toucan, 2 ducks, 1 parrot, 1 magpie, 1 reed
    warbler, 2 robins. A flamingo pair with any 1 of the 11 others, or the 3 owls.
    """
    return builders.build(
        current_player=1,
        phase="flock",
        hands=[{"magpie": 1}, {"flamingo": 2, "owl": 1}],  # seat 0's magpie: in its sight
        draw_pile="owl owl toucan duck duck parrot magpie reed_warbler robin robin",
        rest="collection0",
    )


def _exact_flock_hands(
    unseen: cr.Counts, size: int, limits: cr.Counts | None = None
) -> dict[cr.Counts, float]:
    """The law of a hidden hand of ``size`` unseen cards (within ``limits``) that flies."""
    weights: dict[cr.Counts, int] = {}
    caps = unseen if limits is None else tuple(map(min, unseen, limits))

    def extend(prefix: tuple[int, ...], left: int) -> None:
        if len(prefix) == cr.cards.NUM_SPECIES:
            if not left and cr.state.can_fly_home(prefix):
                weights[prefix] = math.prod(map(math.comb, unseen, prefix))
            return
        for c in range(min(left, caps[len(prefix)]) + 1):
            extend((*prefix, c), left - c)

    extend((), size)
    total = sum(weights.values())
    return {hand: w / total for hand, w in weights.items()}


def _no_toucan_for_seat_1() -> cr.Knowledge:
    start = cr.Knowledge.start(2)
    toucan = cr.Species.TOUCAN.index
    limits = start.hidden_limits[1][:toucan] + (0,) + start.hidden_limits[1][toucan + 1 :]
    return cr.Knowledge((start.hidden_limits[0], limits), start.known_discards)


@pytest.mark.parametrize(
    ("knowledge", "max_draws"),
    [(None, 0), (_no_toucan_for_seat_1(), 20_000), (_no_toucan_for_seat_1(), 0)],
    ids=["no knowledge", "knowledge, redrawn", "knowledge, drawn directly"],
)
def test_a_rare_public_flock_is_drawn_uniformly(
    knowledge: cr.Knowledge | None, max_draws: int
) -> None:
    """Whether found by redrawing or drawn directly, the acting hand has its exact law."""
    view = cr.observe(_rare_flock(), 0)
    unseen = cr.views.unseen_cards(view)
    assert sum(unseen) == 13
    limits = None if knowledge is None else knowledge.hidden_limits[1]
    exact = _exact_flock_hands(unseen, 3, limits)
    assert len(exact) == (8 if knowledge is None else 7)
    runs = 3000
    hands: Counter[cr.Counts] = Counter()
    top: Counter[cr.Species] = Counter()
    streams: Counter[int] = Counter()
    for seed in range(runs):
        det = cr.determinize(view, seed, knowledge=knowledge, max_draws=max_draws)
        assert cr.observe(det, 0) == view
        hands[det.hands[1]] += 1
        top[det.draw_pile[0]] += 1
        streams[det.shuffles] += 1
    assert set(hands) <= set(exact)
    for hand, p in exact.items():
        assert abs(hands[hand] / runs - p) < 0.03, (hand, hands[hand] / runs, p)
    # The rest is shuffled uniformly: the top card is any of the 10 cards left.
    for species in cr.SPECIES:
        p = sum(q * (unseen[species.index] - h[species.index]) / 10 for h, q in exact.items())
        assert abs(top[species] / runs - p) < 0.03, (species, top[species] / runs, p)
    if knowledge is None:
        # 1 try in 24 flies: the first few tries find a flock about 3 times in 4; else it is
        # drawn directly, always after the same number of streams (the commonest count).
        direct, count = streams.most_common(1)[0]
        assert runs / 10 < count < runs / 2
        assert min(streams) == 1 < direct == max(streams)


# --------------------------------------------------------------------------- decode_view


def _view_doc(viewer: int | None = 0) -> Doc:
    """Seed 42, 3 players: dealer and current player 2, hands of 8, piles 69 and 2."""
    return cr.encode_view(cr.observe(cr.new_game(cr.GameOptions(num_players=3), 42), viewer))


def _all(*mutations: Callable[[Doc], None]) -> Callable[[Doc], None]:
    def mutate(doc: Doc) -> None:
        for mutation in mutations:
            mutation(doc)

    return mutate


def _empty_hand(seat: int) -> Callable[[Doc], None]:
    """Player ``seat`` holds nothing; its 8 cards counted in the discard pile instead."""

    def mutate(doc: Doc) -> None:
        doc["hand_sizes"][seat] = 0
        doc["discard_pile_size"] += 8
        if doc["viewer"] == seat:
            doc["hand"] = {}

    return mutate


_empty_acting_hand = _empty_hand(2)  # player 2 is to lay


def _version_1(doc: Doc) -> None:
    """Write the document in format version 1 (which had no option ``refill_trigger``)."""
    doc.update(as_version_1(doc))


# (id, viewer, mutation, the field the message starts with, a fragment of the message)
BAD_VIEWS: list[Any] = [
    ("format", 0, _set("format", "cuckoo-rules/state"), "format", "expected 'cuckoo-rules/view'"),
    ("version", 0, _set("version", 3), "version", "unsupported version 3, expected 1 or 2"),
    ("version-bool", 0, _set("version", True), "version", "unsupported version True"),
    ("version-str", None, _set("version", "2"), "version", "unsupported version '2'"),
    (
        "version-1-refill-trigger",
        1,
        _set("version", 1),
        "options",
        "unknown key 'refill_trigger' (format version 1 has no such option",
    ),
    (
        "version-1-same-dealer",
        1,
        _all(_version_1, _set("options.next_round_first_player", "same_dealer")),
        "options.next_round_first_player",
        "format version 1 does not have 'same_dealer'",
    ),
    ("version-2-no-refill", 1, _delete("options.refill_trigger"), "options", "missing key 'ref"),
    ("missing-key", 0, _delete("hand_sizes"), "view", "missing key 'hand_sizes'"),
    ("missing-hand", 1, _delete("hand"), "view", "missing key 'hand'"),
    ("unknown-key", 0, _set("colour", "red"), "view", "unknown key 'colour'"),
    ("draw-pile-key", 0, _set("draw_pile", []), "view", "unknown key 'draw_pile'"),
    ("seed-key", None, _set("seed", 42), "view", "unknown key 'seed'"),
    ("hands-key", None, _set("hands", [{}, {}, {}]), "view", "unknown key 'hands'"),
    ("viewer-range", 0, _set("viewer", 3), "viewer", "3 is out of range"),
    ("viewer-bool", 0, _set("viewer", True), "viewer", "expected an integer"),
    ("spectator-hand", 0, _set("viewer", None), "hand", "a spectator's view"),
    ("seat-no-hand", 1, _set("hand", None), "hand", "expected an object"),
    ("hand-size", 0, _set("hand_sizes.0", 7), "hand", "8 cards but hand_sizes[0] is 7"),
    ("hand-count", 0, _set("hand.magpie", 3), "hand", "9 cards but hand_sizes[0] is 8"),
    ("hand-negative", 0, _set("hand.magpie", -2), "hand.magpie", "count -2 is negative"),
    ("hand-species", 0, _set("hand.cuckoo", 1), "hand.cuckoo", "unknown species"),
    (
        "too-many-flamingos",
        0,
        _set("collections.1.flamingo", 7),
        "view",
        "flamingo cards in sight, but the game has 7",
    ),
    (
        "too-many-robins-in-a-row",
        None,
        _set("rows.0", ["robin"] * 21),
        "view",
        "robin cards in sight, but the game has 20",
    ),
    ("draw-size-off", 0, _set("draw_pile_size", 70), "view", "do not add up to 110"),
    ("discard-size-off", 1, _set("discard_pile_size", 1), "view", "do not add up to 110"),
    ("hand-sizes-off", None, _set("hand_sizes.1", 9), "view", "do not add up to 110"),
    ("draw-size-negative", 0, _set("draw_pile_size", -1), "draw_pile_size", "-1 is out of range"),
    (
        "discard-size-negative",
        0,
        _set("discard_pile_size", -2),
        "discard_pile_size",
        "-2 is out of range",
    ),
    ("hand-size-negative", 0, _set("hand_sizes.1", -1), "hand_sizes[1]", "-1 is out of range"),
    ("hand-sizes-len", 0, _set("hand_sizes", [8, 8]), "hand_sizes", "expected 3 entries"),
    (
        "known-over-size",
        0,
        _set("known_hands.1", {"owl": 9}),
        "known_hands[1]",
        "more cards known than hand_sizes[1] = 8",
    ),
    (
        "known-over-size-spectator",
        None,
        _all(_set("known_hands.2", {"robin": 5}), _set("hand_sizes.2", 4)),
        "known_hands[2]",
        "more cards known than hand_sizes[2] = 4",
    ),
    (
        "known-outside-own-hand",
        0,
        _set("known_hands.0", {"toucan": 1}),
        "known_hands[0].toucan",
        "1 known but",
    ),
    ("known-len", 0, _set("known_hands", [{}, {}]), "known_hands", "expected 3 entries"),
    ("winners-early", 0, _set("winners", [1]), "winners", "must be empty in phase 'lay'"),
    ("phase", 0, _set("phase", "fly"), "phase", "'fly' is not one of"),
    ("row-species", 0, _set("rows.1.0", "eagle"), "rows[1][0]", "unknown species 'eagle'"),
    ("flock-impossible", 2, _set("phase", "flock"), "phase", "'flock' but player 2 holds no"),
    ("options", 0, _set("options.num_players", 4), "known_hands", "expected 4 entries"),
    *(
        (
            f"row-blocks-{viewer}",
            viewer,
            _set("rows.3", ["owl", "flamingo", "owl"]),  # was magpie owl reed_warbler
            "rows[3]",
            "the owl at index 2 is apart from the owl before it; each species of a row forms",
        )
        for viewer in (None, 0, 2)
    ),
    *(
        (
            f"empty-hand-not-to-act-{seat}-seen-by-{viewer}",
            viewer,
            _empty_hand(seat),
            f"hand_sizes[{seat}]",
            f"player {seat} holds no cards but is not to act",
        )
        for seat in (0, 1)
        for viewer in (None, 0, 1, 2)
    ),
    ("lay-empty-hand", 0, _empty_acting_hand, "", "player 2 is to lay but holds no cards"),
    ("lay-empty-own-hand", 2, _empty_acting_hand, "", "player 2 is to lay but holds no cards"),
    (
        "lay-empty-hand-field",
        None,
        _empty_acting_hand,
        "hand_sizes[2]",
        "player 2 is to lay but holds no cards",
    ),
]


def _case_id(case: Any) -> str:
    return str(case[0]) if isinstance(case, tuple) else str(case.id)


@pytest.mark.parametrize(
    ("name", "viewer", "mutate", "field", "message"),
    BAD_VIEWS,
    ids=[_case_id(case) for case in BAD_VIEWS],
)
def test_decode_view_rejects_bad_document(
    name: str, viewer: int | None, mutate: Callable[[Doc], None], field: str, message: str
) -> None:
    doc = _view_doc(viewer)
    cr.decode_view(copy.deepcopy(doc))  # the unchanged document is fine
    mutate(doc)
    before = copy.deepcopy(doc)
    with pytest.raises(cr.DecodeError) as info:
        cr.decode_view(doc)
    text = str(info.value)
    assert message in text, name
    assert text.startswith(field), name
    assert doc == before  # decoding never changes its input


def test_decode_view_rejects_non_mapping() -> None:
    values: list[object] = [None, [], "view", 3]
    for value in values:
        with pytest.raises(cr.DecodeError, match="view: expected an object"):
            cr.decode_view(value)  # type: ignore[arg-type]


def test_decode_view_accepts_any_key_order() -> None:
    doc = _view_doc(1)
    shuffled = dict(reversed(list(doc.items())))
    assert cr.decode_view(shuffled) == cr.decode_view(doc)


@pytest.mark.parametrize("viewer", [None, 0, 1, 2])
def test_a_version_1_view_reads_as_version_2(viewer: int | None) -> None:
    doc = _view_doc(viewer)
    assert doc["version"] == cr.codec.VIEW_VERSION == 2
    old = copy.deepcopy(doc)
    _version_1(old)
    view = cr.decode_view(old)
    assert view == cr.decode_view(doc)
    assert view.options.refill_trigger == "capture"
    assert cr.encode_view(view) == doc  # written back as version 2


def test_a_version_2_view_may_use_the_new_options() -> None:
    options = cr.GameOptions(
        num_players=3, refill_trigger="same_species_lay", next_round_first_player="same_dealer"
    )
    view = cr.observe(cr.new_game(options, 42), 1)
    assert cr.decode_view(json.loads(json.dumps(cr.encode_view(view)))) == view


def test_view_errors_are_typed() -> None:
    state = cr.new_game(cr.GameOptions(num_players=3), 42)
    other = (state.current_player + 1) % 3
    with pytest.raises(cr.ViewError, match="is to act"):
        cr.legal_actions(cr.observe(state, other))
    with pytest.raises(cr.ViewError, match="not a seat"):
        cr.observe(state, 3)
    with pytest.raises(cr.ViewError, match="viewer"):
        cr.visible_events((), -1)
    assert issubclass(cr.ViewError, cr.CuckooError)
    assert issubclass(cr.ViewError, ValueError)


# --------------------------------------------------------------------------- the one view check


EMPTY = (0,) * cr.cards.NUM_SPECIES


def _inconsistent_views() -> list[tuple[str, cr.PlayerView]]:
    """Views that break one rule each, built directly (no decoding involved)."""
    state = cr.new_game(cr.GameOptions(num_players=3), 42)  # player 2 is to lay
    spectator, seat0, seat2 = (cr.observe(state, v) for v in (None, 0, 2))
    flamingos = (7, 0, 0, 0, 0, 0, 0, 0)
    return [
        ("draw-size", attrs.evolve(seat0, draw_pile_size=70)),
        ("discard-size", attrs.evolve(spectator, discard_pile_size=1)),
        ("hand-sizes", attrs.evolve(spectator, hand_sizes=(8, 9, 8))),
        ("too-many-flamingos", attrs.evolve(seat0, collections=(EMPTY, flamingos, EMPTY))),
        (
            "known-over-size",
            attrs.evolve(spectator, known_hands=(EMPTY, (0, 9, *EMPTY[2:]), EMPTY)),
        ),
        ("own-hand-size", attrs.evolve(seat0, hand_sizes=(7, 8, 8))),
        ("flock-without-flock", attrs.evolve(seat2, phase=cr.Phase.FLOCK)),
    ]


INCONSISTENT_VIEWS = _inconsistent_views()


@pytest.mark.parametrize(
    ("name", "view"), INCONSISTENT_VIEWS, ids=[name for name, _ in INCONSISTENT_VIEWS]
)
def test_decode_view_and_determinize_make_the_same_check(name: str, view: cr.PlayerView) -> None:
    with pytest.raises(cr.ViewError) as checked:
        cr.views.check_view_consistency(view)
    with pytest.raises(cr.DecodeError) as decoded:
        cr.decode_view(json.loads(json.dumps(cr.encode_view(view))))
    with pytest.raises(cr.ViewError) as drawn:
        cr.determinize(view, 1)
    assert str(checked.value) == str(decoded.value) == str(drawn.value), name
    assert not isinstance(decoded.value, cr.ViewError)  # each caller raises its own kind


def test_the_view_check_returns_the_unseen_cards() -> None:
    for state in sample_states(20, seed=11):
        for viewer in viewers(state):
            view = cr.observe(state, viewer)
            assert cr.views.check_view_consistency(view) == cr.views.unseen_cards(view)


def test_unseen_given_rows_is_unseen_cards() -> None:
    for state in sample_states(10, seed=12):
        for viewer in viewers(state):
            view = cr.observe(state, viewer)
            rows = [[row.count(s) for s in cr.SPECIES] for row in view.rows]
            assert cr.views.unseen_given_rows(view, rows) == cr.views.unseen_cards(view)


def test_determinize_is_still_importable_from_views_with_a_warning() -> None:
    with pytest.warns(DeprecationWarning, match=r"cuckoo_rules\.determinization"):
        alias = cr.views.determinize
    assert alias is cr.determinize is cr.determinization.determinize
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        cr.views.nothing  # noqa: B018


# --------------------------------------------------------------------------- the public part


def test_state_and_view_share_the_public_part() -> None:
    public = [field.name for field in attrs.fields(cr.state.PublicState)]
    for cls in (cr.GameState, cr.PlayerView):
        assert issubclass(cls, cr.state.PublicState)
        names = [field.name for field in attrs.fields(cls)]
        assert [name for name in names if name in public] == public  # restated in order
    state = sample_states(1, seed=13, low=30)[0]
    view = cr.observe(state, 0)
    assert [getattr(state, name) for name in public] == [getattr(view, name) for name in public]
    assert (view.num_players, view.is_over, view.outcome) == (
        state.num_players,
        state.is_over,
        state.outcome,
    )
    assert [view.collection(p) for p in range(state.num_players)] == [
        state.collection(p) for p in range(state.num_players)
    ]
    assert view.collection_size(1) == state.collection_size(1)


def test_a_public_state_must_restate_the_public_fields_in_order() -> None:
    @attrs.frozen
    class Annotated(cr.state.PublicState):  # the public fields in order, one field between
        options: GameOptions
        note: str
        round: int
        turn: int
        dealer: int
        current_player: int
        phase: Phase
        rows: tuple[Row, ...]
        known_hands: tuple[Counts, ...]
        collections: tuple[Counts, ...]
        winners: tuple[int, ...]

    assert [field.name for field in attrs.fields(Annotated)][:3] == ["options", "note", "round"]
    with pytest.raises(TypeError, match="must restate the fields of PublicState"):

        @attrs.frozen
        class Shuffled(cr.state.PublicState):  # round and turn swapped
            options: GameOptions
            turn: int
            round: int
            dealer: int
            current_player: int
            phase: Phase
            rows: tuple[Row, ...]
            known_hands: tuple[Counts, ...]
            collections: tuple[Counts, ...]
            winners: tuple[int, ...]


def test_observe_and_encode_state_given_a_view_say_they_take_a_state() -> None:
    state = cr.new_game(GameOptions(num_players=2), 7)
    view = cr.observe(state, 0)
    with pytest.raises(TypeError, match="apply and step take a GameState, got PlayerView"):
        cr.apply(view, cr.legal_actions(state)[0])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="observe takes a GameState, got PlayerView: a view"):
        cr.observe(view, 0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"observe takes a GameState, got NoneType$"):
        cr.observe(None, 0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="encode_state takes a GameState, got PlayerView: a vi"):
        cr.encode_state(view)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"encode_state takes a GameState, got dict$"):
        cr.encode_state({})  # type: ignore[arg-type]
    assert cr.decode_state(cr.encode_state(state)) == state
