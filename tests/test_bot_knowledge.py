"""Bots that use knowledge: ``IsmctsBot`` searches with it, and every driver gives it.

The drivers (``play_game``, the terminal game, the web server's tables and the
Gymnasium environment) must give a bot that declares ``uses_knowledge = True`` exactly
``learn`` folded over the events its seat saw since the game started, and must leave
every other bot with ``choose(view)``.
"""

from __future__ import annotations

import io
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

import attrs
import pytest

import cuckoo_rules as cr
from cuckoo_rules import bots, terminal
from cuckoo_rules.terminal import Console

TOUCAN = cr.Species.TOUCAN.index


# --------------------------------------------------------------------------- helpers


@attrs.define
class Recorder:
    """A bot that uses knowledge: it keeps what it is given and plays like ``bot``."""

    uses_knowledge: ClassVar[bool] = True

    bot: cr.Bot
    given: list[tuple[cr.PlayerView, cr.Knowledge | None]] = attrs.field(factory=list)

    def choose(self, view: cr.PlayerView, knowledge: cr.Knowledge | None = None) -> cr.Action:
        self.given.append((view, knowledge))
        return self.bot.choose(view)


@attrs.define
class Plain:
    """A bot of the bare protocol: ``choose(view)`` and nothing else."""

    bot: cr.Bot
    calls: int = 0

    def choose(self, view: cr.PlayerView) -> cr.Action:
        self.calls += 1
        return self.bot.choose(view)


@attrs.define
class Declines:
    """A bot that accepts knowledge but does not declare that it uses it."""

    bot: cr.Bot
    uses_knowledge: bool = False
    given: list[cr.Knowledge | None] = attrs.field(factory=list)

    def choose(self, view: cr.PlayerView, knowledge: cr.Knowledge | None = None) -> cr.Action:
        self.given.append(knowledge)
        return self.bot.choose(view)


def expected_knowledge(
    options: cr.GameOptions, seed: int, actions: Sequence[cr.Action], seats: Sequence[int]
) -> list[tuple[int, cr.Knowledge]]:
    """Replay ``actions``; for each decision of a seat in ``seats``, that seat and the
    fold of ``learn`` over every event it saw before the decision (independently of the
    drivers: from the start each time, no incremental state)."""
    state = cr.new_game(options, seed)
    events: list[cr.Event] = []
    expected = []
    for action in actions:
        seat = state.current_player
        if seat in seats:
            start = cr.Knowledge.at_setup(cr.new_game(options, seed))
            known = cr.learn(start, cr.visible_events(events, seat), seat)
            expected.append((seat, known))
        state, new = cr.step(state, action)
        events += new
    return expected


def toucan_position() -> tuple[cr.PlayerView, cr.Knowledge, cr.GameState]:
    """Seat 1 to act right after seat 0 laid all its toucans (it holds none hidden)."""
    state = cr.new_game(cr.GameOptions(num_players=2), seed=3)
    state, events = cr.step(state, cr.Lay(cr.Species.TOUCAN, 0, cr.Side.LEFT))
    assert state.current_player == 1
    known = cr.learn(cr.Knowledge.start(2), cr.visible_events(events, 1), viewer=1)
    assert known.hidden_limits[0][TOUCAN] == 0
    return cr.observe(state, 1), known, state


def hidden_toucans(state: cr.GameState, seat: int) -> int:
    return state.hands[seat][TOUCAN] - state.known_hands[seat][TOUCAN]


# --------------------------------------------------------------------------- the protocol


def test_the_package_bots_declare_whether_they_use_knowledge() -> None:
    assert bots.wants_knowledge(cr.IsmctsBot())
    assert not bots.wants_knowledge(cr.GreedyBot())
    assert not bots.wants_knowledge(cr.RandomBot())
    assert not bots.wants_knowledge(Plain(cr.RandomBot()))
    assert not bots.wants_knowledge(Declines(cr.RandomBot()))
    assert bots.wants_knowledge(Recorder(cr.RandomBot()))
    # Static checks (mypy): an IsmctsBot is both a Bot and a KnowledgeBot.
    bot: cr.Bot = cr.IsmctsBot()
    knowing: cr.KnowledgeBot = cr.IsmctsBot()
    assert isinstance(bot, cr.Bot)
    assert isinstance(knowing, cr.Bot)
    assert cr.choose_action is bots.choose_action


def test_choose_action_gives_knowledge_only_to_bots_that_use_it() -> None:
    view, known, _ = toucan_position()
    recorder, plain, declines = (
        Recorder(cr.RandomBot(1)),
        Plain(cr.RandomBot(1)),
        Declines(cr.RandomBot(1)),
    )
    for bot in (recorder, plain, declines):
        assert bots.choose_action(bot, view, known) in cr.legal_actions(view)
    bots.choose_action(recorder, view, None)
    bots.choose_action(recorder, view)
    assert [k for _, k in recorder.given] == [known, None, None]
    assert plain.calls == 1
    assert declines.given == [None]


# --------------------------------------------------------------------------- IsmctsBot


def spy_determinize(
    monkeypatch: pytest.MonkeyPatch,
) -> list[tuple[cr.Knowledge | None, cr.GameState]]:
    """Record the knowledge given to every ``determinize`` of the search, and its result."""
    calls: list[tuple[cr.Knowledge | None, cr.GameState]] = []
    real = cr.determinize

    def spy(
        view: cr.PlayerView, seed: int, *, knowledge: cr.Knowledge | None = None, max_draws: int
    ) -> Any:
        state = real(view, seed, knowledge=knowledge, max_draws=max_draws)
        calls.append((knowledge, state))
        return state

    monkeypatch.setattr("cuckoo_rules.bots.ismcts.determinize", spy)
    return calls


def test_ismcts_determinizes_with_the_knowledge_it_is_given(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    view, known, _ = toucan_position()
    calls = spy_determinize(monkeypatch)
    action = cr.IsmctsBot(seed=4, iterations=60).choose(view, knowledge=known)
    assert action in cr.legal_actions(view)
    assert len(calls) == 60
    assert all(k is known for k, _ in calls)
    # Seat 0 provably holds no hidden toucan: the search never sees one.
    assert max(hidden_toucans(state, 0) for _, state in calls) == 0


def test_ismcts_uses_knowledge_in_two_player_games_only(monkeypatch: pytest.MonkeyPatch) -> None:
    state = cr.new_game(cr.GameOptions(num_players=3), seed=3)
    seat = state.current_player
    state, events = cr.step(state, cr.legal_actions(state)[0])
    viewer = state.current_player
    assert viewer != seat
    known = cr.learn(cr.Knowledge.start(3), cr.visible_events(events, viewer), viewer)
    calls = spy_determinize(monkeypatch)
    cr.IsmctsBot(seed=4, iterations=20).choose(cr.observe(state, viewer), knowledge=known)
    assert len(calls) == 20
    assert all(k is None for k, _ in calls)


def test_ismcts_without_knowledge_sees_toucans_that_cannot_be_there(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    view, _, _ = toucan_position()
    calls = spy_determinize(monkeypatch)
    cr.IsmctsBot(seed=4, iterations=60).choose(view)
    assert all(k is None for k, _ in calls)
    assert max(hidden_toucans(state, 0) for _, state in calls) > 0


def test_ismcts_search_takes_knowledge_too(monkeypatch: pytest.MonkeyPatch) -> None:
    view, known, _ = toucan_position()
    calls = spy_determinize(monkeypatch)
    root = cr.IsmctsBot(seed=4, iterations=20).search(view, known)
    assert sum(child.visits for child in root.children.values()) == 20
    assert [k for k, _ in calls] == [known] * 20


def test_ismcts_with_empty_knowledge_plays_as_without() -> None:
    view, _, _ = toucan_position()
    blind = cr.IsmctsBot(seed=9, iterations=40).choose(view)
    empty = cr.IsmctsBot(seed=9, iterations=40).choose(view, cr.Knowledge.start(2))
    assert blind == empty


@pytest.mark.parametrize(
    ("knowledge", "message"),
    [
        ("knowledge", "knowledge: expected a Knowledge \\(or None\\), got str"),
        ({"hidden_limits": ()}, "knowledge: expected a Knowledge \\(or None\\), got dict"),
        (cr.Knowledge.start(3), "knowledge: 3 seats for a 2-player game"),
    ],
)
def test_ismcts_refuses_knowledge_that_is_not_knowledge(knowledge: Any, message: str) -> None:
    view, _, _ = toucan_position()
    bot = cr.IsmctsBot(seed=1, iterations=5)
    with pytest.raises(cr.BotError, match=message):
        bot.choose(view, knowledge)
    with pytest.raises(cr.BotError, match=message):
        bot.search(view, knowledge)


def test_ismcts_lets_determinize_refuse_knowledge_that_does_not_fit() -> None:
    view, known, _ = toucan_position()
    too_many = attrs.evolve(known, known_discards=(0, 0, 0, 0, 0, 0, 0, view.discard_pile_size + 1))
    with pytest.raises(cr.ViewError, match="known discards"):
        cr.IsmctsBot(seed=1, iterations=5).choose(view, too_many)


# --------------------------------------------------------------------------- play_game


def test_play_game_gives_each_seat_its_own_knowledge() -> None:
    options = cr.GameOptions(num_players=3)
    first, plain, third = (
        Recorder(cr.GreedyBot(seed=1)),
        Plain(cr.RandomBot(2)),
        Recorder(cr.RandomBot(3)),
    )
    played = cr.play_game(options, 21, [first, plain, third])
    expected = expected_knowledge(options, 21, played.record.actions, (0, 2))
    for seat, recorder in ((0, first), (2, third)):
        assert [k for _, k in recorder.given] == [k for s, k in expected if s == seat]
        assert all(view.viewer == seat for view, _ in recorder.given)
    assert any(not k.is_empty for _, k in expected)
    assert plain.calls == played.decisions[1]
    # Knowledge changes nothing for bots that ignore it: the same game as without.
    unwrapped = cr.play_game(
        options, 21, [cr.GreedyBot(seed=1), cr.RandomBot(seed=2), cr.RandomBot(3)]
    )
    assert unwrapped.record.actions == played.record.actions
    assert unwrapped.final_state == played.final_state


def test_play_game_follows_events_only_for_bots_that_use_knowledge(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_step(state: cr.GameState, action: cr.Action) -> Any:
        raise AssertionError("step was called although no bot uses knowledge")

    monkeypatch.setattr("cuckoo_rules.bots.play.step", no_step)
    declines = Declines(cr.RandomBot(seed=3))
    seated: list[cr.Bot] = [cr.GreedyBot(seed=1), Plain(cr.RandomBot(seed=2)), declines]
    played = cr.play_game(cr.GameOptions(num_players=3), 5, seated)
    assert played.final_state.is_over
    assert declines.given == [None] * played.decisions[2]


def test_play_game_with_ismcts_and_a_plain_bot() -> None:
    options = cr.GameOptions(num_players=2)
    plain = Plain(cr.GreedyBot(seed=2))
    played = cr.play_game(options, 8, [cr.IsmctsBot(seed=1, iterations=8), plain])
    assert cr.final_state(played.record) == played.final_state
    assert plain.calls == played.decisions[1]
    again = cr.play_game(options, 8, [cr.IsmctsBot(seed=1, iterations=8), cr.GreedyBot(seed=2)])
    assert again.record.actions == played.record.actions
    assert again.final_state == played.final_state


# --------------------------------------------------------------------------- terminal


def test_the_terminal_gives_bots_their_knowledge() -> None:
    options = cr.GameOptions(num_players=3)
    recorder, plain = Recorder(cr.RandomBot(seed=4)), Plain(cr.RandomBot(seed=5))
    players: list[cr.Bot | None] = [None, recorder, plain]
    out = io.StringIO()
    record = terminal.play_interactive(
        options, 7, 0, players, Console(io.StringIO("1\n" * 600), out)
    )
    assert "Game over" in out.getvalue()
    expected = expected_knowledge(options, 7, record.actions, (1,))
    assert [k for _, k in recorder.given] == [k for _, k in expected]
    assert plain.calls > 0


# --------------------------------------------------------------------------- web tables


def test_web_tables_give_bots_their_knowledge_across_restarts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cuckoo_rules.web import tables

    real = bots.choose_action
    checked: list[tuple[str, int, bool]] = []
    wrong: list[tuple[int, int]] = []  # (seat, action index): knowledge not as expected
    lobbies: list[tables.Lobby] = []

    def spy(bot: cr.Bot, view: cr.PlayerView, knowledge: cr.Knowledge | None = None) -> cr.Action:
        (table,) = lobbies[-1].tables.values()
        seat = view.viewer
        assert seat is not None
        if bots.wants_knowledge(bot):
            events = table.snapshot.events
            start = cr.Knowledge.at_setup(cr.new_game(table.setup.options, table.setup.seed))
            folded = cr.learn(start, cr.visible_events(events, seat), seat)
            if knowledge != folded:
                wrong.append((seat, table.snapshot.actions))
        elif knowledge is not None:
            wrong.append((seat, table.snapshot.actions))
        checked.append((type(bot).__name__, seat, knowledge is not None))
        return real(bot, view, knowledge)

    monkeypatch.setattr("cuckoo_rules.web.tables.choose_action", spy)
    db = tmp_path / "tables.db"
    rng = random.Random(2)
    request = tables.parse_new_table(
        {"seats": ["human", "ismcts:iterations=2", "greedy"], "seed": 17}
    )
    lobby = tables.Lobby.open(db)
    lobbies.append(lobby)
    table, _ = lobby.create(request)
    for stop in (30, None):
        while not table.snapshot.state.is_over and (stop is None or table.snapshot.actions < stop):
            state = table.snapshot.state
            assert state.current_player == 0
            table.play(0, rng.choice(cr.legal_actions(state)))
        if stop is not None:  # restart the server: the knowledge is rebuilt from the history
            lobby.close()
            lobbies.append(tables.Lobby.open(db))
            lobby = lobbies[-1]
            table = lobby.get(table.id)
    lobby.close()
    assert wrong == []
    assert table.snapshot.state.is_over
    assert ("IsmctsBot", 1, True) in checked
    assert ("GreedyBot", 2, False) in checked
    assert {seat for _, seat, _ in checked} == {1, 2}


# --------------------------------------------------------------------------- gymnasium


def test_the_gymnasium_opponents_get_their_knowledge(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("gymnasium")
    from cuckoo_rules.envs import gymnasium as cg

    real = bots.choose_action
    actions: list[cr.Action] = []
    given: list[tuple[int, cr.Knowledge | None]] = []

    def spy(bot: cr.Bot, view: cr.PlayerView, knowledge: cr.Knowledge | None = None) -> cr.Action:
        assert view.viewer is not None
        given.append((view.viewer, knowledge))
        action = real(bot, view, knowledge)
        actions.append(action)
        return action

    monkeypatch.setattr("cuckoo_rules.envs.gymnasium.choose_action", spy)
    env = cg.CuckooEnv(num_players=3, seat=1, opponents=["ismcts:iterations=2", "greedy"])
    rng = random.Random(5)
    _, info = env.reset(seed=13)
    done = False
    while not done:
        legal = [i for i, ok in enumerate(info["action_mask"]) if ok]
        index = rng.choice(legal)
        actions.append(cr.action_from_id(index))
        _, _, terminated, truncated, info = env.step(index)
        done = terminated or truncated
    # The ismcts bot plays seat 2 (the first after the learner), greedy seat 0.
    expected = expected_knowledge(env.options, 13, actions, (2,))
    assert [k for seat, k in given if seat == 2] == [k for _, k in expected]
    assert all(k is None for seat, k in given if seat == 0)
    assert any(seat == 0 for seat, _ in given)


def test_the_gymnasium_env_does_not_follow_events_without_ismcts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("gymnasium")
    from cuckoo_rules.envs import gymnasium as cg

    def no_step(state: cr.GameState, action: cr.Action) -> Any:
        raise AssertionError("step was called although no opponent uses knowledge")

    monkeypatch.setattr("cuckoo_rules.envs.gymnasium.step", no_step)
    env = cg.CuckooEnv(num_players=3, opponents=["greedy", "random"])
    _, info = env.reset(seed=3)
    done = False
    while not done:
        index = next(i for i, ok in enumerate(info["action_mask"]) if ok)
        _, _, terminated, truncated, info = env.step(index)
        done = terminated or truncated
