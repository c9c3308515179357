"""Misuse of the core API gets a clear, typed error that says what was expected."""

from __future__ import annotations

from typing import Any

import pytest

import cuckoo_rules as cr


def test_apply_and_step_say_that_they_take_a_state() -> None:
    state = cr.new_game(cr.GameOptions(num_players=2), seed=1)
    view = cr.observe(state, state.current_player)
    for function in (cr.apply, cr.step):
        with pytest.raises(TypeError, match="take a GameState, got PlayerView: a view hides"):
            function(view, cr.legal_actions(view)[0])  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="take a GameState, got dict"):
            function({}, cr.Pass())  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("build", "error", "message"),
    [
        (
            lambda: cr.Lay("owl", 0, cr.Side.LEFT),  # type: ignore[arg-type]
            TypeError,
            "Lay: species must be a Species such as Species.OWL, got 'owl' \\(str\\); "
            "parse_action reads text such as 'lay owl 0 left'",
        ),
        (
            lambda: cr.Lay(cr.Species.OWL, 0, "left"),  # type: ignore[arg-type]
            TypeError,
            "Lay: side must be Side.LEFT or Side.RIGHT, got 'left' \\(str\\)",
        ),
        (
            lambda: cr.Lay(cr.Species.OWL, True, cr.Side.LEFT),
            TypeError,
            "Lay: row must be an int from 0 to 3, got True \\(bool\\)",
        ),
        (
            lambda: cr.Lay(cr.Species.OWL, -1, cr.Side.LEFT),
            cr.IllegalActionError,
            "Lay: row must be 0 to 3, got -1",
        ),
        (
            lambda: cr.Lay(cr.Species.OWL, 4, cr.Side.RIGHT),
            cr.IllegalActionError,
            "Lay: row must be 0 to 3, got 4",
        ),
        (
            lambda: cr.FlyHome("owl"),  # type: ignore[arg-type]
            TypeError,
            "FlyHome: species must be a Species .* such as 'fly owl'",
        ),
    ],
)
def test_actions_are_checked_when_built(build: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        build()


def test_every_lay_in_range_can_be_built() -> None:
    lays = {cr.Lay(s, row, side) for s in cr.Species for row in range(4) for side in cr.Side}
    assert len(lays) == 64
