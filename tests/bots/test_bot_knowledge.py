"""IsmctsBot and knowledge: it searches with what its seat's history proves.

The bot is given its seat's :class:`~cuckoo_rules.Knowledge` explicitly
(``choose(view, knowledge)``) or follows it itself through the ``inform`` hook of the
bot protocol; what each driver informs bots of is tested in ``tests/play/test_match.py``.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

import cuckoo_rules as cr

TOUCAN = cr.Species.TOUCAN.index


def toucan_position() -> tuple[cr.PlayerView, cr.Knowledge, cr.GameState]:
    """Seat 1 to act right after seat 0 laid all its toucans (it holds none hidden)."""
    state = cr.new_game(cr.GameOptions(num_players=2), seed=3)
    state, events = cr.step(state, cr.Lay(cr.Species.TOUCAN, 0, cr.Side.LEFT))
    assert state.current_player == 1
    known = cr.knowledge.learn(cr.Knowledge.start(2), cr.visible_events(events, 1), viewer=1)
    assert known.hidden_limits[0][TOUCAN] == 0
    return cr.observe(state, 1), known, state


def hidden_toucans(state: cr.GameState, seat: int) -> int:
    return state.hands[seat][TOUCAN] - state.known_hands[seat][TOUCAN]


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
    action = cr.bots.IsmctsBot(seed=4, iterations=60).choose(view, knowledge=known)
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
    known = cr.knowledge.learn(cr.Knowledge.start(3), cr.visible_events(events, viewer), viewer)
    calls = spy_determinize(monkeypatch)
    cr.bots.IsmctsBot(seed=4, iterations=20).choose(cr.observe(state, viewer), knowledge=known)
    assert len(calls) == 20
    assert all(k is None for k, _ in calls)


def test_ismcts_without_knowledge_sees_toucans_that_cannot_be_there(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    view, _, _ = toucan_position()
    calls = spy_determinize(monkeypatch)
    cr.bots.IsmctsBot(seed=4, iterations=60).choose(view)
    assert all(k is None for k, _ in calls)
    assert max(hidden_toucans(state, 0) for _, state in calls) > 0


def test_ismcts_search_takes_knowledge_too(monkeypatch: pytest.MonkeyPatch) -> None:
    view, known, _ = toucan_position()
    calls = spy_determinize(monkeypatch)
    root = cr.bots.IsmctsBot(seed=4, iterations=20).search(view, known)
    assert sum(child.visits for child in root.children.values()) == 20
    assert [k for k, _ in calls] == [known] * 20


def test_ismcts_with_empty_knowledge_plays_as_without() -> None:
    view, _, _ = toucan_position()
    blind = cr.bots.IsmctsBot(seed=9, iterations=40).choose(view)
    empty = cr.bots.IsmctsBot(seed=9, iterations=40).choose(view, cr.Knowledge.start(2))
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
    bot = cr.bots.IsmctsBot(seed=1, iterations=5)
    with pytest.raises(cr.bots.BotError, match=message):
        bot.choose(view, knowledge)
    with pytest.raises(cr.bots.BotError, match=message):
        bot.search(view, knowledge)


def test_ismcts_lets_determinize_refuse_knowledge_that_does_not_fit() -> None:
    view, known, _ = toucan_position()
    too_many = attrs.evolve(known, known_discards=(0, 0, 0, 0, 0, 0, 0, view.discard_pile_size + 1))
    with pytest.raises(cr.ViewError, match="known discards"):
        cr.bots.IsmctsBot(seed=1, iterations=5).choose(view, too_many)


# --------------------------------------------------------------------------- inform


def test_ismcts_follows_its_seat_through_inform(monkeypatch: pytest.MonkeyPatch) -> None:
    view, known, _state = toucan_position()
    bot = cr.bots.IsmctsBot(seed=4, iterations=30)
    start = cr.new_game(cr.GameOptions(num_players=2), seed=3)
    bot.inform(cr.observe(start, 1), (cr.events.GameStarted.of(start),))
    _, events = cr.step(start, cr.Lay(cr.Species.TOUCAN, 0, cr.Side.LEFT))
    bot.inform(view, cr.visible_events(events, 1))
    calls = spy_determinize(monkeypatch)
    exact = cr.knowledge.learn(cr.Knowledge.at_setup(start), cr.visible_events(events, 1), 1)
    assert bot.choose(view) == cr.bots.IsmctsBot(seed=4, iterations=30).choose(view, exact)
    assert [k for k, _ in calls] == [exact] * 60  # the informed bot, then the explicit one
    assert exact.hidden_limits == known.hidden_limits


def test_ismcts_uses_what_it_followed_only_for_the_view_it_was_informed_of(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    view, _, _state = toucan_position()
    bot = cr.bots.IsmctsBot(seed=4, iterations=10)
    start = cr.new_game(cr.GameOptions(num_players=2), seed=3)
    bot.inform(cr.observe(start, 1), (cr.events.GameStarted.of(start),))
    calls = spy_determinize(monkeypatch)
    bot.choose(view)  # informed of the start only: this view is later, so no knowledge
    assert all(k is None for k, _ in calls)


def test_ismcts_forgets_a_game_when_told_a_new_one_starts() -> None:
    view, _, state = toucan_position()
    bot = cr.bots.IsmctsBot(seed=4, iterations=10)
    start = cr.new_game(cr.GameOptions(num_players=2), seed=3)
    bot.inform(cr.observe(start, 1), (cr.events.GameStarted.of(start),))
    _, events = cr.step(start, cr.Lay(cr.Species.TOUCAN, 0, cr.Side.LEFT))
    bot.inform(view, cr.visible_events(events, 1))
    other = cr.new_game(cr.GameOptions(num_players=2), seed=4)
    bot.inform(cr.observe(other, 0), cr.visible_events((cr.events.GameStarted.of(other),), 0))
    assert bot.followed_knowledge == cr.Knowledge.at_setup(other)
    with pytest.raises(cr.ViewError, match="not a game before its first action \\(round 1, turn 2"):
        cr.events.GameStarted.of(state)
