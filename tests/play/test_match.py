"""Match: a game in progress for the front ends, and what its drivers tell the bots.

A bot with the ``inform`` hook must be told exactly, and only, what its seat saw: the
setup (``GameStarted``), then after every action the seat's view and the events of that
action as ``visible_events`` redacts them for the seat. Every driver of the library
(``play_game``, the terminal game, the web server's tables, the Gymnasium environment)
plays on a Match, and these tests check each of them against a replay of its record
that does not use Match.
"""

from __future__ import annotations

import asyncio
import io
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs
import pytest

import cuckoo_rules as cr
from cuckoo_rules import terminal
from cuckoo_rules.match import Bot, BotError, Match, MatchError, StaleMoveError
from cuckoo_rules.narration import describe_event, narrate
from cuckoo_rules.terminal import Console

Told = tuple[cr.PlayerView, tuple[cr.Event, ...]]


# --------------------------------------------------------------------------- helpers


@attrs.define
class Recorder:
    """A bot that follows the game: it keeps what it is told and plays like ``bot``."""

    bot: Bot
    told: list[Told] = attrs.field(factory=list)
    shown: list[cr.PlayerView] = attrs.field(factory=list)

    def inform(self, view: cr.PlayerView, events: tuple[cr.Event, ...]) -> None:
        self.told.append((view, events))

    def choose(self, view: cr.PlayerView) -> cr.Action:
        self.shown.append(view)
        return self.bot.choose(view)


@attrs.define
class Plain:
    """A bot of the bare protocol: ``choose(view)`` and nothing else."""

    bot: Bot
    shown: list[cr.PlayerView] = attrs.field(factory=list)

    def choose(self, view: cr.PlayerView) -> cr.Action:
        self.shown.append(view)
        return self.bot.choose(view)


def expected_told(
    options: cr.GameOptions, seed: int, actions: Sequence[cr.Action], seat: int
) -> list[Told]:
    """What ``seat`` must be told of a game, replayed with ``step`` (no Match)."""
    state = cr.new_game(options, seed)
    told = [(cr.observe(state, seat), cr.visible_events((cr.events.GameStarted.of(state),), seat))]
    for action in actions:
        state, events = cr.step(state, action)
        told.append((cr.observe(state, seat), cr.visible_events(events, seat)))
    return told


def expected_shown(
    options: cr.GameOptions, seed: int, actions: Sequence[cr.Action], seat: int
) -> list[cr.PlayerView]:
    """The views ``seat`` must be shown when it is to act (``seat`` chose those actions)."""
    shown = []
    for state in cr.replay(cr.GameRecord(options, seed, tuple(actions))):
        if not state.is_over and state.current_player == seat:
            shown.append(cr.observe(state, seat))
    return shown


def hidden_is_hidden(told: Sequence[Told], seat: int) -> None:
    """Nothing told to ``seat`` shows another seat's dealt, drawn or discarded cards."""
    for view, events in told:
        assert view.viewer == seat
        for event in events:
            if isinstance(event, cr.events.Drew) and event.player != seat:
                assert event.cards is None
            if isinstance(event, cr.events.Dealt | cr.events.RoundEnded | cr.events.GameStarted):
                assert all(h is None for s, h in enumerate(event.hands) if s != seat)


def outside_game(match: Match, rng: random.Random, seat: int) -> None:
    """Play ``seat`` (an outside seat) at random and the bots in turn, to the end."""
    while not match.is_over:
        if match.bot_to_act:
            match.play_bot()
        else:
            assert match.to_act == seat
            match.act(seat, rng.choice(match.legal_actions(seat)), move=match.move)


# --------------------------------------------------------------------------- the match itself


def test_a_match_plays_the_engines_game_and_keeps_its_record() -> None:
    options = cr.GameOptions(num_players=3)
    match = Match(options, 11, [None, cr.bots.GreedyBot(seed=1), cr.bots.RandomBot(seed=2)])
    outside_game(match, random.Random(4), 0)
    record = match.record()
    assert record.metadata.result == cr.records.GameResult.of(match.state)
    assert record.metadata.players == (
        "P0",
        "GreedyBot(seed=1, feed_weight=1.0, end_round_threshold=3)",
        "RandomBot(seed=2)",
    )
    assert cr.records.final_state(record) == match.state
    assert match.outcome == match.state.outcome is not None
    assert match.to_act is None
    assert not match.bot_to_act
    assert match.play_bot() is None
    assert match.play_bots() == 0
    # The log holds the setup and the events of every action, in one numbering for all
    # seats.
    steps = list(cr.records.replay_steps(record))
    setup = cr.events.GameStarted.of(cr.new_game(options, 11))
    full = (setup, *(event for _, events in steps for event in events))
    assert match.event_count == len(full)
    for seat in (0, 1, None):
        assert match.events(seat) == cr.visible_events(full, seat)
        cut = match.event_count // 2
        assert match.events(seat, 0)[:cut] + match.events(seat, cut) == match.events(seat)
        assert match.events(seat, match.event_count) == ()


def test_a_match_tells_the_deal_to_a_follower_of_its_events() -> None:
    options = cr.GameOptions(num_players=3)
    state = cr.new_game(options, 11)
    setup = cr.events.GameStarted.of(state)
    names = ["ann", "bob", "cy"]
    seats: list[Bot | None] = [None, cr.bots.GreedyBot(seed=1), cr.bots.RandomBot(seed=2)]
    match = Match(options, 11, seats, names=names)  # log_setup=True: the default
    assert match.event_count == 1
    for seat in (0, 1, None):
        assert match.events(seat) == cr.visible_events((setup,), seat)
    told = narrate(match.events(1), 1, names=match.names)
    assert told == [describe_event(setup, 1, names=names)]
    assert told[0].startswith("The game starts: P2 cy deals 8 cards to each player")
    outside_game(match, random.Random(4), 0)
    # The setup is event 0; the actions' events follow, numbered on from 1.
    full = (setup, *(e for _, events in cr.records.replay_steps(match.record()) for e in events))
    assert match.event_count == len(full)
    for seat in (0, 2, None):
        assert match.events(seat) == cr.visible_events(full, seat)
        assert match.events(seat, 1) == cr.visible_events(full[1:], seat)
    plain = Match.from_record(match.record(), [None] * 3, log_setup=False)  # actions only
    assert plain.events(0) == match.events(0, 1)
    assert plain.event_count == match.event_count - 1
    again = Match.from_record(match.record(), [None] * 3)
    assert again.events(0) == match.events(0)
    assert again.knowledge(0) == plain.knowledge(0)
    without_log = Match(options, 11, [None] * 3, keep_events=False, log_setup=True)
    with pytest.raises(MatchError, match="keeps no event log"):
        without_log.events(None)


def snapshot(match: Match) -> tuple[Any, ...]:
    return (match.state, match.actions, match.event_count, match.events(None), match.record())


def test_a_stale_move_number_is_refused_and_changes_nothing() -> None:
    stored: list[tuple[int, cr.Action]] = []
    match = Match(
        cr.GameOptions(num_players=2),
        5,
        [None, cr.bots.GreedyBot(seed=1)],
        on_action=lambda move, action: stored.append((move, action)),
    )
    first = match.legal_actions(0)[0]
    match.act(0, first, move=0)
    before, kept = snapshot(match), list(stored)
    for stale in (0, -1, 99, "1", True):
        with pytest.raises(StaleMoveError, match="move"):
            match.act(0, cr.Pass(), move=stale)  # type: ignore[arg-type]
        assert snapshot(match) == before
        assert stored == kept
    match.play_bots()
    match.act(0, match.legal_actions(0)[0], move=match.move)  # the current number is accepted
    assert [move for move, _ in stored] == list(range(match.move))  # bots' moves stored too
    assert tuple(action for _, action in stored) == match.actions


def test_acting_out_of_turn_for_a_bot_or_illegally_changes_nothing() -> None:
    match = Match(cr.GameOptions(num_players=2), 5, [None, cr.bots.GreedyBot(seed=1)])
    while match.to_act == 0:
        match.act(0, match.legal_actions(0)[0])
    before = snapshot(match)
    assert match.legal_actions(0) == ()
    with pytest.raises(MatchError, match="seat 0 is not to act: player 1 is"):
        match.act(0, cr.Pass())
    with pytest.raises(MatchError, match="seat 1 is played by a bot"):
        match.act(1, cr.legal_actions(match.state)[0])
    assert snapshot(match) == before
    match.play_bots()
    before = snapshot(match)
    with pytest.raises(cr.IllegalActionError):
        match.act(0, cr.Draw())
    assert snapshot(match) == before


def test_a_failing_store_hook_leaves_the_match_as_it_was() -> None:
    def refuse(move: int, action: cr.Action) -> None:
        raise OSError("disk full")

    match = Match(cr.GameOptions(num_players=2), 5, [None, None], on_action=refuse)
    before = snapshot(match)
    with pytest.raises(OSError, match="disk full"):
        match.act(0, match.legal_actions(0)[0])
    assert snapshot(match) == before


@attrs.define
class Broken:
    """A bot that raises, or chooses an illegal action."""

    illegal: bool

    def choose(self, view: cr.PlayerView) -> cr.Action:
        if self.illegal:
            return cr.Draw()
        raise IndexError("a bug in the bot")


@pytest.mark.parametrize(
    ("illegal", "message"),
    [
        (True, "seat 0 \\(Broken\\(illegal=True\\)\\) chose an illegal action"),
        (False, "seat 0 \\(Broken\\(illegal=False\\)\\) failed: IndexError: a bug in the bot"),
    ],
)
def test_a_failing_bot_raises_a_bot_error_and_changes_nothing(illegal: bool, message: str) -> None:
    match = Match(cr.GameOptions(num_players=2), 5, [Broken(illegal), None])
    before = snapshot(match)
    with pytest.raises(BotError, match=message):
        match.play_bots()
    assert snapshot(match) == before
    assert match.decisions == [1 if illegal else 0, 0]


def test_a_match_refuses_bad_seats() -> None:
    options = cr.GameOptions(num_players=3)
    with pytest.raises(MatchError, match="seats: expected 3 seats \\(one per player\\), got 2"):
        Match(options, 1, [None, None])
    with pytest.raises(MatchError, match="names: expected 3 strings"):
        Match(options, 1, [None, None, None], names=["a", "b"])
    follower = Recorder(cr.bots.RandomBot(seed=1))
    with pytest.raises(MatchError, match="the same bot object sits at seats 0 and 2"):
        Match(options, 1, [follower, None, follower])
    plain = cr.bots.RandomBot(seed=1)  # a bot told nothing may sit at several seats
    assert Match(options, 1, [plain, None, plain]).move == 0
    spec: Any = "greedy"  # a spec is not a bot: refused at once, not at its seat's turn
    with pytest.raises(MatchError, match=r"seats\[2\]: expected a bot .* got 'greedy' \(str\); .*"):
        Match(options, 1, [None, plain, spec])
    with pytest.raises(MatchError, match=r"make_bot\('greedy', seed\)"):
        Match.from_record(cr.GameRecord(options, 1, ()), [spec, None, None])
    with pytest.raises(cr.bots.BotError, match=r"seats\[0\]: expected a bot .* got 3 \(int\)"):
        cr.bots.play_game(options, 1, [3, plain, plain])  # type: ignore[list-item]
    with pytest.raises(MatchError, match="after: expected an event number from 0 to 1"):
        Match(options, 1, [None] * 3).events(None, 2)
    with pytest.raises(MatchError, match="after: expected an event number from 0 to 0"):
        Match(options, 1, [None] * 3, log_setup=False).events(None, 1)
    with pytest.raises(MatchError, match="keeps no event log"):
        Match(options, 1, [None] * 3, keep_events=False).events(None)


def test_a_match_resumed_from_a_record_equals_the_original() -> None:
    options = cr.GameOptions(num_players=2)

    def seats() -> list[Bot | None]:
        return [None, Recorder(cr.bots.IsmctsBot(seed=3, iterations=10))]

    original = Match(options, 9, seats(), names=["Ann", "Bot"])
    rng = random.Random(1)
    while original.move < 40:
        if original.bot_to_act:
            original.play_bot()
        else:
            original.act(0, rng.choice(original.legal_actions(0)))
    saved = cr.loads_record(cr.dumps_record(original.record()))
    resumed = Match.from_record(saved, seats())
    assert resumed.names == ("Ann", "Bot")
    assert snapshot(resumed) == snapshot(original)
    assert resumed.events(0) == original.events(0)
    told = original.seats[1], resumed.seats[1]
    assert isinstance(told[0], Recorder)
    assert isinstance(told[1], Recorder)
    assert told[1].told == told[0].told  # the bot knows the history as if it had played it
    # Both go on alike: the same bot moves (same seeds, same knowledge).
    for match in (original, resumed):
        outside_game(match, random.Random(2), 0)
    assert resumed.record() == original.record()


def test_from_record_refuses_an_illegal_record() -> None:
    record = cr.GameRecord(cr.GameOptions(num_players=2), 1, (cr.Pass(),))
    with pytest.raises(cr.RecordError, match=r"actions\[0\] \(move 1, turn 1\): Pass\(\)"):
        Match.from_record(record, [None, None])


def test_a_match_without_followers_or_log_never_computes_events(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_step(state: cr.GameState, action: cr.Action) -> Any:
        raise AssertionError("step was called although nobody needs the events")

    monkeypatch.setattr("cuckoo_rules.match.step", no_step)
    plain = Plain(cr.bots.RandomBot(seed=2))
    played = cr.bots.play_game(
        cr.GameOptions(num_players=3),
        5,
        [cr.bots.GreedyBot(seed=1), plain, cr.bots.RandomBot(seed=3)],
    )
    assert played.final_state.is_over
    assert len(plain.shown) == played.decisions[1]


# --------------------------------------------------------------------------- the drivers


def check_followers(
    options: cr.GameOptions,
    seed: int,
    actions: Sequence[cr.Action],
    followers: dict[int, Recorder],
) -> None:
    for seat, bot in followers.items():
        assert bot.told == expected_told(options, seed, actions, seat), f"seat {seat}"
        assert bot.shown == expected_shown(options, seed, actions, seat), f"seat {seat}"
        hidden_is_hidden(bot.told, seat)


def test_play_game_tells_each_follower_what_its_seat_saw() -> None:
    options = cr.GameOptions(num_players=3)
    first, plain, third = (
        Recorder(cr.bots.GreedyBot(seed=1)),
        Plain(cr.bots.RandomBot(2)),
        Recorder(cr.bots.RandomBot(3)),
    )
    played = cr.bots.play_game(options, 21, [first, plain, third])
    check_followers(options, 21, played.record.actions, {0: first, 2: third})
    assert plain.shown == expected_shown(options, 21, played.record.actions, 1)
    # Following changes nothing: the same game as with the bare bots.
    bare = cr.bots.play_game(
        options, 21, [cr.bots.GreedyBot(seed=1), cr.bots.RandomBot(2), cr.bots.RandomBot(3)]
    )
    assert bare.record.actions == played.record.actions


def test_tournament_games_inform_ismcts_like_play_game() -> None:
    options = cr.GameOptions(num_players=2)
    a = cr.bots.play_game(
        options, 8, [cr.bots.IsmctsBot(seed=1, iterations=8), cr.bots.GreedyBot(seed=2)]
    )
    b = cr.bots.play_game(
        options, 8, [cr.bots.IsmctsBot(seed=1, iterations=8), cr.bots.GreedyBot(seed=2)]
    )
    assert a.record == b.record
    # An informed IsmctsBot plays with what its seat's history proves (not as if blind).
    blind = cr.bots.play_game(
        options, 8, [Plain(cr.bots.IsmctsBot(seed=1, iterations=8)), cr.bots.GreedyBot(seed=2)]
    )
    assert cr.records.final_state(blind.record).is_over


def test_the_terminal_tells_its_bots_what_their_seats_saw() -> None:
    options = cr.GameOptions(num_players=3)
    recorder, plain = Recorder(cr.bots.RandomBot(seed=4)), Plain(cr.bots.RandomBot(seed=5))
    players: list[Bot | None] = [None, recorder, plain]
    out = io.StringIO()
    record = terminal.play_interactive(
        options, 7, 0, players, Console(io.StringIO("1\n" * 600), out)
    )
    assert "Game over" in out.getvalue()
    check_followers(options, 7, record.actions, {1: recorder})
    assert plain.shown == expected_shown(options, 7, record.actions, 2)


def test_the_gymnasium_opponents_are_told_what_their_seats_saw(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("gymnasium")
    from cuckoo_rules.bots import make_bot as real
    from cuckoo_rules.envs import gymnasium as cg

    followers: dict[int, Recorder] = {}

    def recording(spec: Any, seed: int) -> Bot:
        bot = Recorder(real(spec, seed))
        followers[len(followers)] = bot
        return bot

    monkeypatch.setattr("cuckoo_rules.envs.gymnasium.make_bot", recording)
    env = cg.CuckooEnv(num_players=3, seat=1, opponents=["ismcts:iterations=2", "greedy"])
    rng = random.Random(5)
    _, info = env.reset(seed=13)
    # Built in seat order: seat 0 (greedy), then seat 2 (ismcts).
    by_seat = {0: followers[0], 2: followers[1]}
    done = False
    while not done:
        legal = [i for i, ok in enumerate(info["action_mask"]) if ok]
        _, _, terminated, truncated, info = env.step(rng.choice(legal))
        done = terminated or truncated
    check_followers(env.options, 13, env.match.actions, by_seat)


def test_the_web_tables_tell_ismcts_what_its_seat_saw_across_restarts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cuckoo_rules.bots import ismcts
    from cuckoo_rules.web import tables
    from cuckoo_rules.web.bots import ThreadBotRunner

    checked: list[tuple[int, int]] = []
    wrong: list[int] = []
    lobbies: list[tables.Lobby] = []
    real = ismcts.IsmctsBot.choose

    def spy(self: cr.bots.IsmctsBot, view: cr.PlayerView, knowledge: Any = None) -> cr.Action:
        (table,) = lobbies[-1].tables.values()
        record = table.match.record()
        seat = view.viewer
        assert seat is not None
        start = cr.new_game(record.options, record.seed)
        events = [e for _, new in cr.records.replay_steps(record) for e in new]
        folded = cr.knowledge.learn(
            cr.Knowledge.at_setup(start), cr.visible_events(events, seat), seat
        )
        if self.followed_knowledge != folded or view != cr.observe(table.match.state, seat):
            wrong.append(record.actions.__len__())
        checked.append((seat, len(record.actions)))
        return real(self, view, knowledge)

    monkeypatch.setattr(ismcts.IsmctsBot, "choose", spy)
    db = tmp_path / "tables.db"
    rng = random.Random(2)
    request = tables.parse_new_table({"seats": ["human", "ismcts:iterations=2"], "seed": 7})
    lobby = tables.Lobby.open(db)
    lobbies.append(lobby)
    table, _, _ = lobby.create(request)
    runner = ThreadBotRunner()  # the bot decides in this process, where the spy is
    asyncio.run(table.run_bots(runner))
    for stop in (30, None):
        while not table.match.is_over and (stop is None or table.match.move < stop):
            assert table.match.to_act == 0
            table.play(0, rng.choice(table.match.legal_actions(0)), table.match.move)
            asyncio.run(table.run_bots(runner))
        if stop is not None:  # restart the server: the bot is told the history again
            lobby.close()
            lobbies.append(tables.Lobby.open(db))
            lobby = lobbies[-1]
            table = lobby.get(table.id)
    lobby.close()
    assert wrong == []
    assert checked
    assert {seat for seat, _ in checked} == {1}
    assert any(move > 30 for _, move in checked)
