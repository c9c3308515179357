"""Tournaments between bots of one's own: bot factories and ``module:Name`` specs (issue 28)."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest

import cuckoo_rules as cr
from cuckoo_rules.bots import BotError, BotSpecError, GreedyBot, RandomBot, run_tournament
from cuckoo_rules.bots.specs import BotImport, is_import_spec, parse_entrant
from cuckoo_rules.bots.tournament import Entrant
from cuckoo_rules.cli import main

TWO = cr.GameOptions(num_players=2)
HERE = __name__  # this module, importable by worker processes


def greedy_factory(seed: int) -> GreedyBot:
    """A factory at a module's top level: picklable, so it runs on workers too."""
    return GreedyBot(seed=seed)


class Hoarder:
    """A bot of one's own, built from a seed."""

    def __init__(self, seed: int, patience: int = 0) -> None:
        self.inner = RandomBot(seed=seed)
        self.patience = patience

    def choose(self, view: cr.PlayerView) -> cr.Action:
        return self.inner.choose(view)


def outcome(result: cr.bots.TournamentResult) -> list[tuple[int, int, tuple[int, ...], int]]:
    return [(g.index, g.seed, g.winners, g.turns) for g in result.games]


def test_a_factory_is_seeded_as_the_spec_of_the_same_bot() -> None:
    by_spec = run_tournament(TWO, ["greedy", "random"], 4, seed=3)
    by_factory = run_tournament(TWO, [greedy_factory, RandomBot], 4, seed=3)
    assert outcome(by_factory) == outcome(by_spec)
    assert [e.label for e in by_factory.entrants] == ["greedy_factory", "RandomBot"]
    assert by_factory.to_json()["bots"] == ["greedy_factory", "RandomBot"]


def test_factories_and_import_specs_run_on_worker_processes() -> None:
    line_up: list[Entrant] = [f"{HERE}:Hoarder:patience=2", functools.partial(greedy_factory)]
    alone = run_tournament(TWO, line_up, 4, seed=5)
    parallel = run_tournament(TWO, line_up, 4, seed=5, workers=2)
    assert outcome(parallel) == outcome(alone)
    assert [e.label for e in alone.entrants] == [f"{HERE}:Hoarder:patience=2", "greedy_factory"]


def test_an_unpicklable_factory_is_refused_before_the_workers_start() -> None:
    with pytest.raises(BotError, match=r"cannot be pickled.*top level of a module"):
        run_tournament(TWO, [lambda seed: GreedyBot(seed=seed), "random"], 4, workers=2)
    # in one process, a lambda is fine
    result = run_tournament(TWO, [lambda seed: GreedyBot(seed=seed), "random"], 2)
    assert result.entrants[0].label == "<lambda>"


def test_a_bot_object_is_refused_with_a_hint() -> None:
    with pytest.raises(BotError, match=r"bot factories.*pass its class"):
        run_tournament(TWO, [GreedyBot(seed=1), "random"], 2)  # type: ignore[list-item]


def test_import_specs_are_parsed_and_resolved() -> None:
    assert is_import_spec("mypkg.bots:MyBot")
    assert not is_import_spec("greedy:feed_weight=2")
    assert not is_import_spec("greedy")
    spec = parse_entrant("cuckoo_rules.bots:GreedyBot:feed_weight=2")
    assert isinstance(spec, BotImport)
    assert spec.build(7) == GreedyBot(seed=7, feed_weight=2)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("no_such_module_xyz:Bot", "cannot import module 'no_such_module_xyz'"),
        ("cuckoo_rules.bots:NoSuchBot", "has no 'NoSuchBot'"),
        ("cuckoo_rules.bots:DEFAULT_ITERATIONS", "not a callable"),
        ("cuckoo_rules.bots:GreedyBot:feed_weight", "expected KEY=VALUE"),
    ],
)
def test_bad_import_specs_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(BotSpecError, match=message):
        run_tournament(TWO, [text, "random"], 2)


def test_a_factory_that_makes_no_bot_is_named() -> None:
    with pytest.raises(BotSpecError, match=r"bot factory 'str' made '[0-9]+', which is not a bot"):
        run_tournament(TWO, [str, "random"], 2)  # type: ignore[list-item]


def test_the_command_takes_import_specs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.json"
    argv = ["tournament", "--bots", f"{HERE}:Hoarder,greedy", "--games", "2", "--no-progress"]
    assert main([*argv, "--workers", "2", "--json", str(path)]) == 0
    assert f"{HERE}:Hoarder" in capsys.readouterr().out
    assert json.loads(path.read_text())["bots"] == [f"{HERE}:Hoarder", "greedy"]


def test_the_command_finds_modules_in_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "my_folder_bots_28.py").write_text(
        "from cuckoo_rules.bots import GreedyBot as MyBot\n", encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.path", [p for p in __import__("sys").path if p not in ("", ".")])
    argv = ["tournament", "--bots", "my_folder_bots_28:MyBot", "--games", "2", "--no-progress"]
    assert main(argv) == 0
    assert "my_folder_bots_28:MyBot#1" in capsys.readouterr().out


def test_the_command_reports_a_missing_module_as_a_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exc_info:
        main(["tournament", "--bots", "no_such_module_xyz:Bot,greedy", "--games", "2"])
    assert exc_info.value.code == 2
    assert "cannot import module 'no_such_module_xyz'" in capsys.readouterr().err
