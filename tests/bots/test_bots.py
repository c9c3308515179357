"""Tests of the bots and of ``play_game``: fair play, legality, determinism, records."""

from __future__ import annotations

import gc
import importlib.util
import math
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import attrs
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

import cuckoo_rules as cr
from cuckoo_rules import bots
from cuckoo_rules.bots.parameters import BotParameter
from cuckoo_rules.errors import short_repr
from cuckoo_rules.options import option_info
from tests.builders import build
from tests.conftest import ROOT, load_module
from tests.games import random_game
from tests.strategies import SEEDS

# Every value of every rule variant but its default, one at a time, and all the
# non-defaults together (the last value of each option).
_OTHER_VALUES: dict[str, list[object]] = {
    info.name: [choice.value for choice in info.choices[1:]]
    for info in option_info()
    if info.name != "num_players"
}
VARIANTS: tuple[dict[str, object], ...] = (
    {},
    *({name: value} for name, values in _OTHER_VALUES.items() for value in values),
    {name: values[-1] for name, values in _OTHER_VALUES.items()},
)


def small_bots(seed: int) -> list[cr.bots.Bot]:
    """One bot of each kind, with a tiny search budget."""
    return [
        cr.bots.RandomBot(seed=seed),
        cr.bots.GreedyBot(seed=seed + 1),
        cr.bots.IsmctsBot(seed=seed + 2, iterations=8),
    ]


@attrs.define
class Spy:
    """Wraps a bot and keeps every argument it was given."""

    bot: cr.bots.Bot
    seen: list[object] = attrs.field(factory=list)

    def choose(self, view: cr.PlayerView) -> cr.Action:
        self.seen.append(view)
        return self.bot.choose(view)


def reachable(root: object, limit: int = 100_000) -> Iterator[object]:
    """Every object reachable from ``root`` through references (breadth first)."""
    seen = {id(root)}
    queue = [root]
    while queue and len(seen) < limit:
        obj = queue.pop()
        yield obj
        for ref in gc.get_referents(obj):
            if id(ref) not in seen and not isinstance(ref, type):
                seen.add(id(ref))
                queue.append(ref)


# --------------------------------------------------------------------------- fair play


@pytest.mark.parametrize(
    "make", [cr.bots.RandomBot, cr.bots.GreedyBot, lambda seed: cr.bots.IsmctsBot(seed, 6)]
)
def test_bots_are_given_views_that_reach_no_state(make: object) -> None:
    assert callable(make)
    spies = [Spy(make(1)), Spy(make(2))]
    cr.bots.play_game(cr.GameOptions(num_players=2), 5, spies)
    for seat, spy in enumerate(spies):
        assert spy.seen
        for view in spy.seen:
            assert type(view) is cr.PlayerView
            assert view.viewer == seat == view.current_player
            assert not any(isinstance(obj, cr.GameState) for obj in reachable(view))


def test_a_bot_refuses_a_state_or_another_seats_view() -> None:
    state = cr.new_game(cr.GameOptions(num_players=3), 4)
    other = (state.current_player + 1) % 3
    for bot in small_bots(0):
        with pytest.raises(cr.bots.BotError, match="PlayerView, not GameState"):
            bot.choose(state)  # type: ignore[arg-type]
        with pytest.raises(cr.bots.BotError, match=f"not of player {other}"):
            bot.choose(cr.observe(state, other))
        with pytest.raises(cr.bots.BotError, match="not of a spectator"):
            bot.choose(cr.observe(state, None))


# --------------------------------------------------------------------------- legality


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize(
    "variant", VARIANTS, ids=lambda v: ",".join(f"{k}={x}" for k, x in v.items()) or "defaults"
)
def test_every_bot_plays_legal_games_under_every_option(
    players: int, variant: dict[str, object]
) -> None:
    options = cr.GameOptions(num_players=players, **variant)  # type: ignore[arg-type]
    seed = 17 * players + len(variant)
    seated = [small_bots(seed + 3 * seat)[(seat + seed) % 3] for seat in range(players)]
    played = cr.bots.play_game(options, seed, seated)  # raises BotError on an illegal choice
    assert played.final_state.is_over
    assert sum(played.decisions) == len(played.record.actions)


@given(
    players=st.integers(2, 5),
    variant=st.sampled_from(VARIANTS),
    seed=st.integers(0, 2**64 - 1),
    moves=st.integers(0, 120),
)
def test_every_bot_returns_a_legal_action_in_random_states(
    players: int, variant: dict[str, object], seed: int, moves: int
) -> None:
    options = cr.GameOptions(num_players=players, **variant)  # type: ignore[arg-type]
    state = random_game(options, seed, rng=seed, max_actions=moves).final
    if state.is_over:
        return
    view = cr.observe(state, state.current_player)
    legal = cr.legal_actions(state)
    for bot in small_bots(seed % 1000):
        assert bot.choose(view) in legal


def test_play_game_names_the_seat_of_an_illegal_choice() -> None:
    class Cheat:
        def choose(self, view: cr.PlayerView) -> cr.Action:
            return cr.Draw()

    with pytest.raises(
        cr.bots.BotError, match=r"seat \d \(cheat\) chose an illegal action: Draw\(\)"
    ):
        cr.bots.play_game(cr.GameOptions(num_players=2), 1, [Cheat(), Cheat()], names=["cheat"] * 2)


def test_play_game_checks_the_number_of_bots_and_names() -> None:
    options = cr.GameOptions(num_players=3)
    with pytest.raises(cr.bots.BotError, match="seats: expected 3 seats"):
        cr.bots.play_game(options, 1, [cr.bots.RandomBot(), cr.bots.RandomBot()])
    with pytest.raises(cr.bots.BotError, match="expected 3 strings"):
        cr.bots.play_game(options, 1, [cr.bots.RandomBot()] * 3, names=["a", "b"])


def test_play_game_gives_up_on_an_endless_game() -> None:
    with pytest.raises(cr.bots.BotError, match="did not end within 3 turns"):
        cr.bots.play_game(
            cr.GameOptions(num_players=2),
            1,
            [cr.bots.RandomBot(), cr.bots.RandomBot()],
            max_turns=3,
        )


# --------------------------------------------------------------------------- determinism, records


@pytest.mark.parametrize("players", [2, 4])
def test_the_same_seeds_play_the_same_game(players: int) -> None:
    options = cr.GameOptions(num_players=players)

    def play() -> cr.bots.PlayedGame:
        return cr.bots.play_game(
            options, 99, [small_bots(seat)[seat % 3] for seat in range(players)]
        )

    first, second = play(), play()
    assert first == second
    assert first.record == second.record
    other = cr.bots.play_game(options, 99, [cr.bots.RandomBot(seed=50 + s) for s in range(players)])
    assert other.record != first.record


def test_records_replay_to_the_final_state() -> None:
    options = cr.GameOptions(num_players=3)
    played = cr.bots.play_game(options, 8, small_bots(8), names=["r", "g", "i"], event="test")
    assert cr.records.final_state(played.record) == played.final_state
    assert cr.records.check_record(played.record) == played.final_state
    states = list(cr.replay(played.record))
    assert states[-1] == played.final_state
    assert len(states) == len(played.record.actions) + 1
    assert played.record.metadata.players == ("r", "g", "i")
    assert played.record.metadata.result == cr.records.GameResult(played.winners)
    assert played.winners == played.final_state.winners
    assert (played.turns, played.rounds) == (played.final_state.turn, played.final_state.round)
    assert cr.loads_record(cr.dumps_record(played.record)) == played.record


def test_bot_seeds_change_the_play() -> None:
    state = cr.new_game(cr.GameOptions(num_players=2), 3)
    view = cr.observe(state, state.current_player)
    choices = {cr.bots.RandomBot(seed=s).choose(view) for s in range(30)}
    assert len(choices) > 1
    assert cr.bots.IsmctsBot(seed=4, iterations=30).choose(view) == cr.bots.IsmctsBot(
        seed=4, iterations=30
    ).choose(view)


# --------------------------------------------------------------------------- greedy heuristic


def test_collection_value_rewards_progress_and_wins() -> None:
    empty = (0,) * 8
    assert bots.collection_value((3, 3, 0, 0, 0, 0, 0, 0)) == bots.WIN_VALUE
    assert bots.collection_value((1, 1, 1, 1, 1, 1, 1, 0)) > bots.collection_value(
        (1, 1, 1, 1, 1, 1, 0, 0)
    )
    assert bots.collection_value((2, 0, 0, 0, 0, 0, 0, 0)) > bots.collection_value(
        (1, 0, 0, 0, 0, 0, 0, 0)
    )
    assert bots.hand_value(empty, empty) == 0


def test_greedy_takes_the_capture_that_makes_a_flock_and_flies_it() -> None:
    # Two flamingos in hand: laying the owl on the left of row 0 captures a third one.
    state = build(
        rows=[
            "flamingo owl toucan",
            "duck parrot magpie",
            "reed_warbler robin duck",
            "parrot toucan duck",
        ],
        hands=[{"flamingo": 1, "owl": 1, "robin": 1}, {"magpie": 3}],
        collections=[{"owl": 1}, {"duck": 1}],
    )
    view = cr.observe(state, 0)
    bot = cr.bots.GreedyBot(seed=0)
    assert bot.choose(view) == cr.Lay(cr.Species.OWL, 0, cr.Side.LEFT)
    after = cr.apply(state, cr.Lay(cr.Species.OWL, 0, cr.Side.LEFT))
    assert after.phase is cr.Phase.FLOCK
    assert bot.choose(cr.observe(after, 0)) == cr.FlyHome(cr.Species.FLAMINGO)


def test_greedy_takes_the_draw_with_cards_in_hand() -> None:
    state = build(phase="draw", hands=[{"owl": 1}, {"duck": 3}])
    assert cr.bots.GreedyBot().choose(cr.observe(state, 0)) == cr.Draw()


def test_greedy_ends_the_round_when_the_others_hold_many_cards() -> None:
    state = build(phase="draw", hands=[{}, {"duck": 3, "robin": 4}])
    assert cr.bots.GreedyBot().choose(cr.observe(state, 0)) == cr.Pass()


def test_greedy_avoids_feeding_the_next_player() -> None:
    # The next player is known to hold a robin: laying the magpie next to the robins of
    # row 2 would hand them the magpie and everything beside it.
    state = build(
        rows=[
            "flamingo owl toucan",
            "duck parrot magpie",
            "robin robin duck",
            "parrot toucan duck",
        ],
        hands=[{"magpie": 1, "owl": 1}, {"robin": 1}],
        known_hands=[{}, {"robin": 1}],
    )
    scores = dict(cr.bots.GreedyBot().scores(cr.observe(state, 0)))
    assert (
        scores[cr.Lay(cr.Species.MAGPIE, 2, cr.Side.RIGHT)]
        < scores[cr.Lay(cr.Species.MAGPIE, 2, cr.Side.LEFT)]
    )


# --------------------------------------------------------------------------- ismcts


def test_ismcts_budget_by_time() -> None:
    state = cr.new_game(cr.GameOptions(num_players=2), 3)
    view = cr.observe(state, state.current_player)
    assert cr.bots.IsmctsBot(seed=1, seconds=0.01).choose(view) in cr.legal_actions(view)
    assert cr.bots.IsmctsBot().iteration_budget == cr.bots.DEFAULT_ITERATIONS
    assert cr.bots.IsmctsBot(seconds=0.5).iteration_budget is None


def test_ismcts_search_visits_within_the_budget() -> None:
    state = cr.new_game(cr.GameOptions(num_players=3), 11)
    view = cr.observe(state, state.current_player)
    root = cr.bots.IsmctsBot(seed=2, iterations=40).search(view)
    assert sum(child.visits for child in root.children.values()) == 40
    legal = set(cr.legal_actions(view))
    assert all(child.action in legal for child in root.children.values())


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"iterations": 0}, "iterations must be an integer from 1 to 1000000, got 0"),
        ({"seconds": -1.0}, "seconds must be a finite number from 0.001 to 3600"),
        ({"exploration": -0.1}, "exploration must be a finite number from 0 to 100"),
        ({"rollout_turns": -2}, "rollout_turns must be an integer from -1 to 10000"),
        ({"temperature": 0.0}, "temperature must be a finite number from 0.01 to 1000"),
        ({"widening": -1.0}, "widening must be a finite number from 0 to 100"),
    ],
)
def test_ismcts_rejects_bad_parameters(params: dict[str, float], message: str) -> None:
    with pytest.raises(cr.bots.BotError, match=message):
        cr.bots.IsmctsBot(**params)  # type: ignore[arg-type]


def test_ismcts_rollouts_to_the_end_of_the_game() -> None:
    played = cr.bots.play_game(
        cr.GameOptions(num_players=2),
        3,
        [cr.bots.IsmctsBot(seed=1, iterations=4, rollout_turns=-1), cr.bots.RandomBot(seed=2)],
    )
    assert played.final_state.is_over


# --------------------------------------------------------------------------- specs


def test_specs_parse_and_build() -> None:
    spec = cr.bots.parse_bot_spec(" ismcts:iterations=300:exploration=0.5 ")
    assert spec == cr.bots.BotSpec("ismcts", (("iterations", 300), ("exploration", 0.5)), spec.text)
    assert spec.text == "ismcts:iterations=300:exploration=0.5"
    bot = spec.build(7)
    assert bot == cr.bots.IsmctsBot(seed=7, iterations=300, exploration=0.5)
    assert cr.bots.make_bot("greedy:feed_weight=2", 1) == cr.bots.GreedyBot(seed=1, feed_weight=2.0)
    assert cr.bots.make_bot(cr.bots.parse_bot_spec("random"), 3) == cr.bots.RandomBot(seed=3)
    assert [s.kind for s in cr.bots.parse_bot_specs("greedy,random,ismcts:seconds=0.1")] == [
        "greedy",
        "random",
        "ismcts",
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("alphazero", "unknown bot 'alphazero' \\(choose from random, greedy, ismcts, expert\\)"),
        ("greedy:depth=2", "unknown parameter 'depth' for greedy"),
        ("random:seed=2", "unknown parameter 'seed' for random \\(it takes no parameters\\)"),
        ("ismcts:iterations", "expected NAME=VALUE"),
        ("ismcts:iterations=abc", "iterations must be an integer, got 'abc'"),
        ("ismcts:seconds=fast", "seconds must be a number"),
        ("ismcts:iterations=0", "iterations must be an integer from 1 to 1000000, got 0"),
        ("ismcts:iterations=5:iterations=6", "given twice"),
    ],
)
def test_bad_specs_are_rejected_with_a_clear_message(text: str, message: str) -> None:
    with pytest.raises(cr.bots.BotSpecError, match=message):
        cr.bots.parse_bot_spec(text)


def test_a_bad_spec_list_is_rejected() -> None:
    with pytest.raises(cr.bots.BotSpecError, match="comma-separated"):
        cr.bots.parse_bot_specs(" ")
    with pytest.raises(cr.bots.BotSpecError, match="empty"):
        cr.bots.parse_bot_specs("greedy,,random")


# --------------------------------------------------------------------------- parameter ranges

HAVE_NUMBA = importlib.util.find_spec("numba") is not None
"""The expert bot needs the batch extra (NumPy, numba); its specs parse without it."""

KIND_PARAMETERS: list[tuple[str, BotParameter]] = [
    (kind.name, parameter)
    for kind in bots.BOT_KINDS.values()
    for parameter in kind.parameters.values()
]
"""Every parameter of every bot kind, with the kind's name."""

PARAMETERS = [pytest.param(kind, p, id=f"{kind}:{p.name}") for kind, p in KIND_PARAMETERS]
FLOAT_PARAMETERS = [
    pytest.param(kind, p, id=f"{kind}:{p.name}") for kind, p in KIND_PARAMETERS if p.type is float
]


def bot_class(kind: str) -> type:
    """The class a kind builds (the expert's module is imported only when needed)."""
    if kind == "expert":
        from cuckoo_rules.bots.expert import ExpertBot

        return ExpertBot
    classes: dict[str, type] = {
        "random": cr.bots.RandomBot,
        "greedy": cr.bots.GreedyBot,
        "ismcts": cr.bots.IsmctsBot,
    }
    return classes[kind]


def needs_numba(kind: str) -> None:
    if kind == "expert":
        pytest.importorskip("numba")


def written(value: int | float) -> str:
    """A value as a spec writes it: ``repr`` gives every float back exactly."""
    return repr(value)


def refusal(spec: str, parameter: BotParameter, value: object) -> str:
    # The spec is quoted as error messages quote what they got: at most 40 characters.
    quoted = short_repr(spec)
    return f"bot spec {quoted}: {parameter.name} must be {parameter.expected}, got {value!r}"


def outside(parameter: BotParameter) -> tuple[int | float, int | float]:
    """The nearest values below and above the range."""
    if parameter.type is int:
        return parameter.minimum - 1, parameter.maximum + 1
    return (
        math.nextafter(parameter.minimum, -math.inf),
        math.nextafter(parameter.maximum, math.inf),
    )


@pytest.mark.parametrize("kind", [*bots.BOT_KINDS])
def test_every_parameter_of_every_constructor_has_a_range(kind: str) -> None:
    needs_numba(kind)
    fields = [field.name for field in attrs.fields(bot_class(kind)) if field.init]
    assert fields == ["seed", *bots.BOT_KINDS[kind].parameters]
    for name, parameter in bots.BOT_KINDS[kind].parameters.items():
        assert parameter.name == name
        assert parameter.type in (int, float)
        assert type(parameter.minimum) is type(parameter.maximum) is parameter.type
        assert math.isfinite(parameter.minimum)
        assert math.isfinite(parameter.maximum)
        assert parameter.minimum < parameter.maximum
        assert parameter.description


@pytest.mark.parametrize(("kind", "parameter"), PARAMETERS)
def test_the_bounds_are_accepted(kind: str, parameter: BotParameter) -> None:
    for bound in (parameter.minimum, parameter.maximum):
        spec = cr.bots.parse_bot_spec(f"{kind}:{parameter.name}={written(bound)}")
        assert spec.params == ((parameter.name, bound),)
        assert parameter.accepts(bound)
    needs_numba(kind)
    for bound in (parameter.minimum, parameter.maximum):
        bot = bots.BOT_KINDS[kind].factory(seed=0, **{parameter.name: bound})
        assert getattr(bot, parameter.name) == bound


@pytest.mark.parametrize(("kind", "parameter"), PARAMETERS)
def test_values_just_outside_are_refused_naming_the_range(
    kind: str, parameter: BotParameter
) -> None:
    for value in outside(parameter):
        spec = f"{kind}:{parameter.name}={written(value)}"
        with pytest.raises(cr.bots.BotSpecError) as refused:
            cr.bots.parse_bot_spec(spec)
        assert str(refused.value) == refusal(spec, parameter, value)
        assert not parameter.accepts(value)
    needs_numba(kind)
    for value in outside(parameter):
        with pytest.raises(cr.bots.BotError) as refused_by_the_bot:
            bots.BOT_KINDS[kind].factory(seed=0, **{parameter.name: value})
        assert type(refused_by_the_bot.value) is cr.bots.BotError
        assert str(refused_by_the_bot.value) == (
            f"{parameter.name} must be {parameter.expected}, got {value!r}"
        )


@pytest.mark.parametrize(("kind", "parameter"), FLOAT_PARAMETERS)
def test_nan_and_infinities_are_refused_for_every_float_parameter(
    kind: str, parameter: BotParameter
) -> None:
    assert parameter.expected.startswith("a finite number from ")
    for text in ("nan", "NaN", "inf", "+inf", "-inf", "Infinity", "1e999", "-1e999"):
        spec = f"{kind}:{parameter.name}={text}"
        with pytest.raises(cr.bots.BotSpecError) as refused:
            cr.bots.parse_bot_spec(spec)
        assert str(refused.value) == refusal(spec, parameter, float(text))
    needs_numba(kind)
    for value in (math.nan, math.inf, -math.inf):
        assert not parameter.accepts(value)
        with pytest.raises(cr.bots.BotError, match=f"^{parameter.name} must be a finite number"):
            bots.BOT_KINDS[kind].factory(seed=0, **{parameter.name: value})


@pytest.mark.parametrize(("kind", "parameter"), PARAMETERS)
def test_integers_suit_float_parameters_but_floats_not_integer_ones(
    kind: str, parameter: BotParameter
) -> None:
    whole = max(math.ceil(parameter.minimum), 1)
    assert parameter.accepts(whole)
    if parameter.type is float:
        (value,) = dict(cr.bots.parse_bot_spec(f"{kind}:{parameter.name}={whole}").params).values()
        assert type(value) is float
        assert value == whole
    else:
        spec = f"{kind}:{parameter.name}={whole}.0"
        with pytest.raises(cr.bots.BotSpecError) as refused:
            cr.bots.parse_bot_spec(spec)
        assert str(refused.value) == (
            f"bot spec {spec!r}: {parameter.name} must be an integer, got '{whole}.0'"
        )
    assert not parameter.accepts(True)
    needs_numba(kind)
    make = bots.BOT_KINDS[kind].factory
    assert getattr(make(seed=0, **{parameter.name: whole}), parameter.name) == whole
    with pytest.raises(cr.bots.BotError, match=f"^{parameter.name} must be "):
        make(seed=0, **{parameter.name: True})
    if parameter.type is int:
        with pytest.raises(cr.bots.BotError, match=f"^{parameter.name} must be an integer from "):
            make(seed=0, **{parameter.name: float(whole)})


@pytest.mark.parametrize(("kind", "parameter"), PARAMETERS)
def test_none_is_taken_only_where_the_bot_gives_it_a_meaning(
    kind: str, parameter: BotParameter
) -> None:
    needs_numba(kind)
    make = bots.BOT_KINDS[kind].factory
    assert parameter.accepts(None) is parameter.allows_none
    if parameter.allows_none:
        assert getattr(make(seed=0, **{parameter.name: None}), parameter.name) is None
    else:
        with pytest.raises(cr.bots.BotError, match=f"^{parameter.name} must be .*, got None$"):
            make(seed=0, **{parameter.name: None})


def test_the_two_findings_are_refused_by_the_spec_and_by_the_constructor() -> None:
    """``feed_weight=nan`` broke at the greedy bot's fourth move, ``widening=1e308`` at once."""
    with pytest.raises(cr.bots.BotSpecError) as refused:
        cr.bots.parse_bot_spec("greedy:feed_weight=nan")
    assert str(refused.value) == (
        "bot spec 'greedy:feed_weight=nan': feed_weight must be a finite number from -10 to 10, "
        "got nan"
    )
    with pytest.raises(cr.bots.BotSpecError) as refused:
        cr.bots.parse_bot_spec("ismcts:widening=1e308")
    assert str(refused.value) == (
        "bot spec 'ismcts:widening=1e308': widening must be a finite number from 0 to 100, "
        "got 1e+308"
    )
    with pytest.raises(cr.bots.BotError, match=r"^feed_weight must be a finite number .*got nan$"):
        cr.bots.GreedyBot(seed=0, feed_weight=math.nan)
    with pytest.raises(cr.bots.BotError, match=r"^widening must be a finite number .*got 1e\+308$"):
        cr.bots.IsmctsBot(seed=0, widening=1e308)
    # A BotSpec built by hand skips the parser; building it still refuses the value.
    with pytest.raises(cr.bots.BotSpecError, match=r"^bot spec 'greedy': feed_weight must be"):
        cr.bots.BotSpec("greedy", (("feed_weight", math.nan),)).build(0)


def parameter_values(parameter: BotParameter) -> st.SearchStrategy[int | float]:
    """Values in the parameter's range (the bounds often), or (one time in three) any value."""
    inside: st.SearchStrategy[int | float]
    if parameter.type is int:
        inside = st.integers(int(parameter.minimum), int(parameter.maximum))
        anything: st.SearchStrategy[int | float] = st.integers()
    else:
        inside = st.floats(parameter.minimum, parameter.maximum)
        anything = st.floats()  # NaN, the infinities and every size
    return st.one_of(inside, inside, anything)


# The budget of the search bots, drawn small so that a game stays fast; with ``seconds``
# too, whichever ends first ends the search.
SMALL_BUDGETS = {
    "ismcts": ("iterations", st.integers(1, 4)),
    "expert": ("simulations", st.integers(1, 16)),
}
PLAYABLE_KINDS = [kind for kind in bots.BOT_KINDS if HAVE_NUMBA or kind != "expert"]


@st.composite
def spec_texts(draw: st.DrawFn) -> tuple[str, dict[str, int | float]]:
    """A spec of any kind with some of its parameters set, its values in range or not."""
    kind = draw(st.sampled_from(PLAYABLE_KINDS))
    parameters = bots.BOT_KINDS[kind].parameters
    required: dict[str, st.SearchStrategy[int | float]] = {}
    if kind in SMALL_BUDGETS:
        name, budget = SMALL_BUDGETS[kind]
        required[name] = budget
    optional = {n: parameter_values(p) for n, p in parameters.items() if n not in required}
    params = draw(st.fixed_dictionaries(required, optional=optional))
    return ":".join([kind, *(f"{n}={written(v)}" for n, v in params.items())]), params


@settings(max_examples=60, deadline=None)
@given(drawn=spec_texts(), seed=SEEDS)
def test_any_accepted_spec_builds_a_bot_that_plays_a_whole_game(
    drawn: tuple[str, dict[str, int | float]], seed: int
) -> None:
    text, params = drawn
    kind = bots.BOT_KINDS[text.partition(":")[0]]
    in_range = all(kind.parameters[name].accepts(value) for name, value in params.items())
    try:
        spec = cr.bots.parse_bot_spec(text)
    except cr.bots.BotSpecError:
        assert not in_range
        event("refused")
        return
    assert in_range
    event(f"played: {kind.name}")
    players = [spec.build(seed % 1000), cr.bots.GreedyBot(seed=seed % 997)]
    played = cr.bots.play_game(cr.GameOptions(num_players=2), seed, players)
    assert played.final_state.is_over


# --------------------------------------------------------------------------- the parameter docs


@pytest.fixture(scope="module")
def bot_docs() -> ModuleType:
    """``scripts/make_bot_docs.py``, imported as a module."""
    return load_module(ROOT / "scripts" / "make_bot_docs.py", "make_bot_docs")


def test_the_bot_docs_hold_the_generated_parameter_table(bot_docs: ModuleType) -> None:
    text = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    assert text.count(bot_docs.START) == text.count(bot_docs.END) == 1
    inside = text.split(bot_docs.START)[1].split(bot_docs.END)[0]
    assert inside == f"\n\n{bot_docs.render_table()}\n", "run scripts/make_bot_docs.py"


def test_the_parameter_table_has_a_row_per_parameter(bot_docs: ModuleType) -> None:
    lines = bot_docs.render_table().splitlines()
    assert lines[0] == "| bot | parameter | type | range (inclusive) | meaning |"
    rows = lines[2:]
    assert len(rows) == len(KIND_PARAMETERS)
    for row, (kind, parameter) in zip(rows, KIND_PARAMETERS, strict=True):
        assert row.startswith(f"| `{kind}` | `{parameter.name}` | `{parameter.type.__name__}` | ")
        assert parameter.description in row
    assert "| `greedy` | `feed_weight` | `float` | `-10` to `10` |" in rows[0]


def test_the_bot_docs_check_reports_a_stale_table(
    bot_docs: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bots.md"
    path.write_text(f"# Bots\n\n{bot_docs.START}\n| old |\n{bot_docs.END}\n", encoding="utf-8")
    assert bot_docs.main(["--check"], [path]) == 1
    assert "out of date" in capsys.readouterr().out
    assert bot_docs.main([], [path]) == 0
    assert bot_docs.main(["--check"], [path]) == 0
    with pytest.raises(bot_docs.MarkerError):
        bot_docs.replace_table("no markers here", "| table |\n")
