"""The language of bot specifications, below the bots and the batch simulator."""

from __future__ import annotations

import math
import subprocess
import sys

import pytest

import cuckoo_rules.bots as bots
from cuckoo_rules import botspec
from cuckoo_rules.errors import BotSpecError


def test_the_bots_kinds_are_the_languages_kinds_with_their_constructors() -> None:
    assert list(bots.BOT_KINDS) == list(botspec.SPEC_KINDS)
    for name, kind in bots.BOT_KINDS.items():
        assert kind.parameters is botspec.SPEC_KINDS[name].parameters
        assert kind.summary == botspec.SPEC_KINDS[name].summary
    assert bots.BotSpec is botspec.BotSpec
    assert bots.BotParameter is botspec.BotParameter


def test_parse_reads_and_checks_a_spec_and_builds_nothing() -> None:
    spec = botspec.parse(" greedy:feed_weight=2:end_round_threshold=0 ")
    assert spec == botspec.BotSpec(
        "greedy",
        (("feed_weight", 2.0), ("end_round_threshold", 0)),
        "greedy:feed_weight=2:end_round_threshold=0",
    )
    assert [s.kind for s in botspec.parse_list("random, expert:width=3")] == ["random", "expert"]
    with pytest.raises(BotSpecError, match="unknown bot 'nobody'"):
        botspec.parse("nobody")
    with pytest.raises(BotSpecError, match="feed_weight must be a finite number"):
        botspec.parse("greedy:feed_weight=inf")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (botspec.BotSpec("greedy", (("feed_weight", math.nan),)), "'greedy': feed_weight must be"),
        (botspec.BotSpec("greedy", (("depth", 2),), "greedy:depth=2"), "unknown parameter 'depth'"),
        (botspec.BotSpec("chess"), "unknown bot 'chess'"),
    ],
)
def test_check_refuses_what_build_would(spec: botspec.BotSpec, message: str) -> None:
    with pytest.raises(BotSpecError, match=message):
        spec.check()


def test_a_spec_checks_and_builds_with_the_registered_constructors() -> None:
    spec = botspec.BotSpec("greedy", (("feed_weight", 0.5),))
    spec.check()
    assert spec.build(3) == bots.GreedyBot(seed=3, feed_weight=0.5)
    with pytest.raises(BotSpecError, match="bot kind 'chess'"):
        botspec.register_bot_factory("chess", bots.GreedyBot)


def test_the_language_needs_neither_the_bots_nor_numba() -> None:
    code = (
        "import sys; sys.modules['numba'] = None\n"
        "from cuckoo_rules import botspec\n"
        "print(botspec.parse('expert:simulations=5').params)\n"
        "print('cuckoo_rules.bots' in sys.modules)\n"
        "try:\n"
        "    botspec.BotSpec('random').build(0)\n"
        "except botspec.BotSpecError as error:\n"
        "    print(error)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == [
        "(('simulations', 5),)",
        "False",
        "bot spec 'random': no bots are registered yet (import cuckoo_rules.bots)",
    ]
