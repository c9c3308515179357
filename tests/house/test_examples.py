"""Run every program in ``examples/`` and every example of the documentation pages.

Each example runs as a subprocess with the interpreter running the tests and small
arguments; its output is checked against the engine. The HTTP server is also exercised
in a thread with real requests on 127.0.0.1 only, and the documentation pages in
``docs/`` are run as doctests, so that the tutorial and the other guides stay true.
"""

from __future__ import annotations

import doctest
import functools
import json
import os
import random
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any, ParamSpec

import pytest

import cuckoo_rules as cr
from cuckoo_rules.bots import RandomBot, play_game
from tests.conftest import ROOT, load_module
from tests.games import random_game, random_steps

EXAMPLES = ROOT / "examples"
DOCS = ROOT / "docs"
TIMEOUT = 120  # seconds, for any one example

# Pages written by other means: their examples are checked where they come from.
NOT_DOCTESTED = {"performance.md", "changelog.md"}

P = ParamSpec("P")


EXAMPLE_TESTS: dict[str, list[str]] = {}
"""For each program in ``examples/``, the tests that say they run it (``@runs``)."""

_run_by_this_test: set[str] = set()


@pytest.fixture(autouse=True)
def _forget_the_examples_run() -> None:
    """Each test starts with no example run (fixtures such as ``server`` run after this)."""
    _run_by_this_test.clear()


def runs(*names: str) -> Callable[[Callable[P, None]], Callable[P, None]]:
    """Mark a test as running the programs ``names`` of ``examples/``, and check it does.

    The test fails if it ends without having run (or imported) each of them through
    :func:`run_example`, :func:`example_command` or :func:`load_example`.
    """

    def mark(test: Callable[P, None]) -> Callable[P, None]:
        for name in names:
            EXAMPLE_TESTS.setdefault(name, []).append(test.__name__)

        @functools.wraps(test)
        def checked(*args: P.args, **kwargs: P.kwargs) -> None:
            test(*args, **kwargs)
            missing = sorted(set(names) - _run_by_this_test)
            assert not missing, f"{test.__name__} says it runs {missing} but did not run them"

        return checked

    return mark


def example_command(name: str, *args: str) -> list[str]:
    """The command line that runs ``examples/<name>`` with ``args`` (noted as run)."""
    path = EXAMPLES / name
    assert path.is_file(), path
    _run_by_this_test.add(name)
    return [sys.executable, str(path), *args]


def run_example(
    name: str, *args: str, cwd: Path | None = None, env: dict[str, str] | None = None
) -> str:
    """Run ``examples/<name>`` with ``args`` (and ``env``, if given, as its environment);
    check it succeeds and return its output."""
    completed = subprocess.run(
        example_command(name, *args),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        cwd=cwd,
        env=env,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stderr == ""
    return completed.stdout


def load_example(name: str) -> ModuleType:
    """Import ``examples/<name>.py`` as a module (it is a script, not a package)."""
    module = load_module(EXAMPLES / f"{name}.py", f"example_{name}")
    _run_by_this_test.add(f"{name}.py")
    return module


@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("*.py")))
def test_every_example_is_run_by_a_test(name: str) -> None:
    # Each test named here fails if it does not run the program (see ``runs``).
    tests = EXAMPLE_TESTS.get(name, [])
    assert tests, f"examples/{name} is run by no test: mark one with @runs({name!r})"
    for test in tests:
        assert test.startswith("test_"), test
        assert callable(globals().get(test)), test


def test_every_program_said_to_be_run_is_in_examples() -> None:
    assert set(EXAMPLE_TESTS) <= {p.name for p in EXAMPLES.glob("*.py")}


# --------------------------------------------------------------------------- random_game


@runs("random_game.py")
def test_random_game_prints_the_game_the_engine_plays() -> None:
    out = run_example("random_game.py", "--players", "2", "--seed", "3")
    lines = out.splitlines()
    # The example chooses as tests.games does: random.Random(seed).choice(legal_actions).
    game = random_game(cr.GameOptions(num_players=2), 3, rng=3)
    state = game.final
    expected = [f"2 players, seed 3; seat {game.states[0].dealer} deals and starts"]
    for before, action, _, _ in game.steps:
        expected.append(
            f"turn {before.turn:3}  seat {before.current_player}  {cr.format_action(action)}"
        )
    assert lines[: len(expected)] == expected
    assert lines[len(expected)] == f"game over after {state.round} rounds and {state.turn} turns"
    assert lines[-1] == "winners: " + ", ".join(f"seat {seat}" for seat in state.winners)
    assert run_example("random_game.py", "--players", "2", "--seed", "3") == out


# --------------------------------------------------------------------------- custom_bot


@runs("custom_bot.py")
def test_custom_bot_plays_legal_games_and_reports_every_game() -> None:
    out = run_example("custom_bot.py", "--games", "6")
    wins = {m[0]: float(m[1]) for m in re.findall(r"^(\w+) +won ([\d.]+) of 6 games$", out, re.M)}
    assert set(wins) == {"CaptureBot", "RandomBot"}
    assert sum(wins.values()) == pytest.approx(6)


@runs("custom_bot.py")
def test_custom_bot_uses_only_the_view() -> None:
    capture_bot: Any = load_example("custom_bot").CaptureBot
    for seed in range(4):
        # play_game gives each bot only its view, and raises on an illegal action.
        played = play_game(
            cr.GameOptions(num_players=3), seed, [capture_bot(), *map(RandomBot, (1, 2))]
        )
        assert played.final_state.is_over
        assert cr.records.final_state(played.record) == played.final_state


@runs("custom_bot.py")
def test_custom_bot_lays_where_the_engine_captures_the_most() -> None:
    capture_bot: Any = load_example("custom_bot").CaptureBot()
    checked = 0
    for seed in range(20):
        for step in random_steps(cr.GameOptions(num_players=3), seed, rng=seed, events=False):
            state = step.before
            if state.phase is cr.Phase.LAY:
                taken = {}
                for action in cr.legal_actions(state):
                    _, events = cr.step(state, action)
                    taken[action] = sum(
                        len(e.cards) for e in events if isinstance(e, cr.events.Captured)
                    )
                chosen = capture_bot.choose(cr.observe(state, state.current_player))
                assert taken[chosen] == max(taken.values()), (seed, chosen, taken)
                checked += 1
    assert checked > 200


# --------------------------------------------------------------------------- tournament


@runs("tournament.py")
def test_tournament_plays_every_deal_from_both_seats() -> None:
    out = run_example("tournament.py", "--deals", "3", "--workers", "2")
    assert out.splitlines()[0] == "6 games (3 deals, each from both seats)"
    rates = re.findall(r"^(\w+) +win rate +([\d.]+)%", out, re.M)
    assert [name for name, _ in rates] == ["Collector", "Specialist"]
    assert sum(float(rate) for _, rate in rates) == pytest.approx(100, abs=0.2)


# --------------------------------------------------------------------------- replay_record


@runs("replay_record.py")
def test_replay_record_makes_and_replays_a_record(tmp_path: Path) -> None:
    out = run_example("replay_record.py", "--make", "game.json", cwd=tmp_path)
    record = cr.loads_record((tmp_path / "game.json").read_text(encoding="utf-8"))
    final = cr.records.check_record(record)
    assert out.splitlines()[0] == f"wrote game.json: {len(record.actions)} actions"
    assert f"replayed {len(record.actions)} actions; final collections:" in out
    outcome = final.outcome
    assert outcome is not None
    ending = cr.narration.describe_event(
        cr.events.GameOver(outcome.winners, outcome.reason),
        None,
        names=list(record.metadata.players or ()),
    )
    assert ending is not None
    assert ending in out
    # A spectator is told how many cards were drawn, never which.
    assert re.search(r"draws \d cards?:", out) is None
    as_seat = run_example("replay_record.py", "game.json", "--seat", "0", cwd=tmp_path)
    drawn_by_me = re.findall(r"^You draw (.+)$", as_seat, re.M)
    drawn_by_other = re.findall(r"^P1 random draws (.+)$", as_seat, re.M)
    assert drawn_by_other  # the random bot draws (the greedy one may never)
    assert all(":" in text for text in drawn_by_me)  # the cards are named
    assert all(re.fullmatch(r"\d cards?\.", text) for text in drawn_by_other)


# --------------------------------------------------------------------------- http_server


Json = Any


def request(url: str, token: str | None = None, body: Json = None) -> tuple[int, Json]:
    """Send a GET (or a POST with a JSON body); return the status and the JSON answer."""
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode("utf-8")
    req = urllib.request.Request(url, data=data, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=10) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        with error:
            return error.code, json.load(error)


@pytest.fixture
def server() -> Iterator[Any]:
    """The example server for a 2-player game, seed 7, on a free port of 127.0.0.1."""
    http_server = load_example("http_server")
    options = cr.GameOptions(num_players=2)
    game_server = http_server.make_server(options, 7, port=0, tokens=["ann", "bob"])
    thread = threading.Thread(target=game_server.serve_forever, daemon=True)
    thread.start()
    try:
        yield game_server
    finally:
        game_server.shutdown()
        game_server.server_close()
        thread.join(timeout=10)


def base_url(game_server: Any) -> str:
    host, port = game_server.server_address[:2]
    assert host == "127.0.0.1"
    return f"http://{host}:{port}"


@runs("http_server.py")
def test_http_server_shows_each_seat_its_view(server: Any) -> None:
    url = base_url(server)
    state = cr.new_game(cr.GameOptions(num_players=2), 7)
    for token, seat in (("ann", 0), ("bob", 1), (None, None)):
        status, game = request(f"{url}/game", token)
        assert status == 200
        assert game["view"] == cr.encode_view(cr.observe(state, seat))
        setup = cr.visible_events((cr.events.GameStarted.of(state),), seat)
        assert game["events"] == [cr.encode_event(event) for event in setup]  # the deal
        assert game["next_event"] == 1
        expected = cr.legal_actions(state) if seat == state.current_player else ()
        assert game["legal_actions"] == [cr.encode_action(a) for a in expected]
    status, game = request(f"{url}/game?token=bob")
    assert status == 200
    assert game["view"]["viewer"] == 1


@runs("http_server.py")
def test_http_server_errors(server: Any) -> None:
    url = base_url(server)
    state = cr.new_game(cr.GameOptions(num_players=2), 7)
    me = ["ann", "bob"][state.current_player]
    other = ["ann", "bob"][1 - state.current_player]
    lay = cr.encode_action(cr.legal_actions(state)[0])
    assert request(f"{url}/nowhere")[0] == 404
    assert request(f"{url}/game", "eve")[0] == 401
    assert request(f"{url}/game?since=x", me)[0] == 400
    assert request(f"{url}/action", other, lay) == (403, {"error": "it is not your turn"})
    assert request(f"{url}/action", None, lay)[0] == 403
    assert request(f"{url}/action", me, {"type": "fly"})[0] == 400
    assert request(f"{url}/action", me, ["draw"])[0] == 400
    status, answer = request(f"{url}/action", me, {"type": "draw"})
    assert status == 409
    assert "a turn starts by laying birds" in answer["error"]
    assert request(f"{url}/action?move=x", me, lay)[0] == 400
    assert server.table.match.state == state  # nothing was played
    # A move sent twice with its move number is played once.
    assert request(f"{url}/action?move=0", me, lay)[0] == 200
    status, answer = request(f"{url}/action?move=0", me, lay)
    assert status == 409
    assert "move 0 was already played" in answer["error"]
    assert server.table.match.move == 1


@runs("http_server.py")
def test_http_server_plays_a_whole_game_without_leaking(server: Any) -> None:
    url = base_url(server)
    tokens = ["ann", "bob"]
    rng = random.Random(5)
    seen: list[list[Json]] = [[], []]  # the events each seat was shown
    since = [0, 0]
    moves = 0
    while True:
        games = []
        for seat, token in enumerate(tokens):
            status, game = request(f"{url}/game?since={since[seat]}", token)
            assert status == 200
            seen[seat] += game["events"]
            since[seat] = game["next_event"]
            games.append(game)
        if games[0]["view"]["phase"] == "game_over":
            break
        seat = games[0]["view"]["current_player"]
        assert games[1 - seat]["legal_actions"] == []
        action = rng.choice(games[seat]["legal_actions"])
        status, game = request(f"{url}/action?since={since[seat]}", tokens[seat], action)
        assert status == 200
        seen[seat] += game["events"]
        since[seat] = game["next_event"]
        moves += 1
        assert moves < 2000
    final = server.table.match.state
    assert final.is_over
    assert games[0]["view"]["winners"] == list(final.winners)
    record = server.table.match.record()
    everything = [
        cr.events.GameStarted.of(cr.new_game(record.options, record.seed)),
        *(e for _, events in cr.records.replay_steps(record) for e in events),
    ]
    for seat in (0, 1):
        assert len(seen[seat]) == len(everything)
        assert seen[seat] == [cr.encode_event(e) for e in cr.visible_events(everything, seat)]
        for event in seen[seat]:  # nothing hidden from this seat was sent to it
            if event["type"] == "drew" and event["player"] != seat:
                assert event["cards"] is None
            if event["type"] in ("dealt", "round_ended"):
                assert all(h is None for s, h in enumerate(event["hands"]) if s != seat)
    assert any(e["type"] == "drew" for e in seen[0])


@runs("http_server.py")
def test_http_server_tokens_never_look_like_options() -> None:
    # A token beginning with "-" was taken by argparse for an option of http_client.py.
    http_server = load_example("http_server")
    options = cr.GameOptions(num_players=5)
    for _ in range(200):
        server = http_server.make_server(options, 1)
        try:
            tokens = list(server.table.tokens)
        finally:
            server.server_close()
        assert all(re.fullmatch(r"[0-9a-f]{32}", token) for token in tokens), tokens


@runs("http_server.py", "http_client.py")
def test_http_server_and_clients_as_programs(tmp_path: Path) -> None:
    server = subprocess.Popen(
        example_command("http_server.py", "--port", "0", "--seed", "7"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    clients: list[subprocess.Popen[bytes]] = []
    try:
        assert server.stdout is not None
        first = server.stdout.readline()
        match = re.fullmatch(r"serving on (http://127\.0\.0\.1:\d+)/game \(seed 7\)\n", first)
        assert match, first
        url = match.group(1)
        tokens = [server.stdout.readline().split()[-1] for _ in range(2)]
        # Outputs go to files, not pipes: nothing blocks on a full pipe that is not read.
        outputs = [tmp_path / f"client{i}.out" for i in range(2)]
        errors = [tmp_path / f"client{i}.err" for i in range(2)]
        for i, token in enumerate(tokens):
            command = example_command("http_client.py", url, token)
            with outputs[i].open("w") as out, errors[i].open("w") as err:
                clients.append(
                    subprocess.Popen([*command, "--seed", str(i)], stdout=out, stderr=err)
                )
        # Wait for both, but stop at the first client that fails: the other one would
        # otherwise wait for its opponent's move until the timeout.
        deadline = time.monotonic() + TIMEOUT
        while any(client.poll() is None for client in clients):
            for seat, client in enumerate(clients):
                assert client.returncode in (None, 0), errors[seat].read_text()
            assert time.monotonic() < deadline, [error.read_text() for error in errors]
            time.sleep(0.05)
        winners = []
        for seat, client in enumerate(clients):
            assert client.returncode == 0, errors[seat].read_text()
            last = outputs[seat].read_text().splitlines()[-1]
            match = re.fullmatch(rf"game over: winners (\[[\d, ]+\]); I was seat {seat}", last)
            assert match, last
            winners.append(json.loads(match.group(1)))
        assert winners[0] == winners[1]
        assert winners[0]
    finally:
        for client in clients:
            if client.poll() is None:
                client.kill()
            client.wait()
        server.terminate()
        server.communicate(timeout=TIMEOUT)


# --------------------------------------------------------------------------- documentation


def doc_pages() -> list[Path]:
    return sorted(p for p in DOCS.rglob("*.md") if p.name not in NOT_DOCTESTED)


@pytest.mark.parametrize("page", doc_pages(), ids=lambda p: str(p.relative_to(DOCS)))
def test_documentation_examples(page: Path) -> None:
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    result = doctest.testfile(str(page), module_relative=False, optionflags=flags, verbose=False)
    assert result.failed == 0, f"{result.failed} doctest failures in {page}"


# --------------------------------------------------------------------------- research adapters


@runs("pettingzoo_random_game.py")
def test_pettingzoo_random_game_rewards_sum_to_one() -> None:
    lines = run_example("pettingzoo_random_game.py", "--players", "3", "--seed", "3").splitlines()
    assert lines[0].startswith("3 players, seed 3:")
    rewards = [float(line.split()[-1]) for line in lines if line.startswith("player_")]
    assert len(rewards) == 3
    assert sum(rewards) == pytest.approx(1)


@runs("gymnasium_random_agent.py")
def test_gymnasium_random_agent_prints_each_episode_and_the_mean() -> None:
    args = ("--episodes", "3", "--players", "3", "--seed", "2")
    out = run_example("gymnasium_random_agent.py", *args)
    lines = out.splitlines()
    assert [line.split(":")[0] for line in lines[:3]] == ["episode 0", "episode 1", "episode 2"]
    rewards = [float(line.split()[-1]) for line in lines[:3]]
    assert lines[3] == f"mean reward over 3 episodes: {sum(rewards) / 3:.3f}"
    assert run_example("gymnasium_random_agent.py", *args) == out  # seeded


@runs("openspiel_ismcts.py")
def test_openspiel_ismcts_against_greedy() -> None:
    out = run_example("openspiel_ismcts.py", "--games", "2", "--simulations", "5", "--seed", "3")
    lines = out.splitlines()
    assert lines[0].startswith("2 games of 2 players: OpenSpiel ISMCTS (5 simulations")
    assert len([line for line in lines if line.startswith("game ")]) == 2
    assert re.fullmatch(r"ismcts won [\d.]+ of 2 games, greedy [\d.]+", lines[-2])


@runs("batch_maskable_ppo.py")
def test_batch_maskable_ppo_learns_a_little(tmp_path: Path) -> None:
    import csv  # this test was appended: the imports above are other people's

    pytest.importorskip("sb3_contrib")
    curve = tmp_path / "curve.csv"
    temporary = tmp_path / "tmp"  # where SB3's default logger would make its folders
    temporary.mkdir()
    out = run_example(
        "batch_maskable_ppo.py",
        *("--envs", "8", "--stages", "random:3000,greedy:2000", "--n-steps", "64"),
        *("--log-every", "10", "--eval-games", "16", "--seed", "1", "--csv", str(curve)),
        env={**os.environ, "TMPDIR": str(temporary)},
    )
    assert list(temporary.glob("SB3-*")) == []  # no empty log folder left behind
    pattern = r"^stage (\d) (\w+) +steps +(\d+)  games +(\d+)  win rate ([\d.]+)  \d+ steps/s$"
    printed = re.findall(pattern, out, re.M)
    assert {(stage, opponents) for stage, opponents, *_ in printed} == {
        ("1", "random"),
        ("2", "greedy"),
    }
    with curve.open(newline="", encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    assert [(r["stage"], r["opponents"], r["timesteps_total"], r["games"]) for r in rows] == [
        tuple(line[:4]) for line in printed
    ]
    rates = [float(r["win_rate"]) for r in rows]
    assert rates == pytest.approx([float(line[4]) for line in printed], abs=5e-4)
    assert all(0 <= rate <= 1 for rate in rates)
    steps = [int(r["timesteps_total"]) for r in rows]
    assert steps == sorted(steps)
    # Against random bots even a fresh policy wins some of the games.
    assert max(float(r["win_rate"]) for r in rows if r["opponents"] == "random") > 0
    assert "stage 1 (random) done:" in out
    assert "stage 2 (greedy) done:" in out
    assert re.search(r"^final policy vs greedy: win rate [\d.]+ over 16 games", out, re.M)
