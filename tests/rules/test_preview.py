"""``preview`` says what an action will do, and the engine does exactly that."""

from __future__ import annotations

import pytest
from hypothesis import given

import cuckoo_rules as cr
from cuckoo_rules.preview import ActionPreview, birds_home, captured_by, preview
from tests.builders import build
from tests.games import RandomGame
from tests.strategies import WHOLE_GAMES, random_games

S = cr.Species


def check(
    state: cr.GameState, action: cr.Action, view: cr.PlayerView | None = None
) -> ActionPreview:
    """The preview of ``action`` from the state and from the acting seat's view, checked.

    ``view`` is that seat's view of ``state``, if the caller has it already.
    """
    seen = preview(state, action)
    after, events = cr.step(state, action)
    taken = [e.cards for e in events if isinstance(e, cr.events.Captured)]
    assert seen.captured == (taken[0] if taken else ())
    assert seen.refilled == any(isinstance(e, cr.events.RowRefilled) for e in events)
    assert seen.draw_offered == (after.phase is cr.Phase.DRAW and isinstance(action, cr.Lay))
    flown = [e for e in events if isinstance(e, cr.events.FlewHome)]
    assert (seen.birds_home, seen.discarded) == (
        (flown[0].kept, flown[0].revealed - flown[0].kept) if flown else (0, 0)
    )
    # The acting seat sees the same, but where the draw depends on cards it cannot see.
    if view is None:
        view = cr.observe(state, state.current_player)
    from_view = preview(view, action)
    if from_view.draw_offered is None:
        assert seen.refilled
        from_view = ActionPreview(from_view.captured, from_view.refilled, seen.draw_offered, 0, 0)
    assert from_view == seen
    return seen


@WHOLE_GAMES
@given(random_games())
def test_every_legal_action_does_what_its_preview_says(game: RandomGame) -> None:
    for step in game.steps(events=False):
        view = cr.observe(step.before, step.before.current_player)
        for action in cr.legal_actions(step.before):
            check(step.before, action, view)


def test_a_same_species_lay_on_a_dry_row_previews_its_refill() -> None:
    state = build(
        options={"refill_trigger": "same_species_lay"},
        rows=("parrot parrot", "duck owl", "robin toucan", "magpie flamingo"),
        draw_pile="parrot robin owl",
        hands=[{"parrot": 1, "owl": 1}, {"duck": 2}],
    )
    seen = check(state, cr.Lay(S.PARROT, 0, cr.Side.RIGHT))
    assert (seen.captured, seen.refilled, seen.draw_offered) == ((), True, True)


def test_the_rules_of_a_lay_and_a_flock() -> None:
    row = (S.OWL, S.DUCK, S.DUCK, S.ROBIN)
    assert captured_by(row, S.ROBIN, cr.Side.LEFT) == (S.OWL, S.DUCK, S.DUCK)
    assert captured_by(row, S.OWL, cr.Side.RIGHT) == (S.DUCK, S.DUCK, S.ROBIN)
    assert captured_by(row, S.OWL, cr.Side.LEFT) == ()
    assert captured_by(row, S.PARROT, cr.Side.LEFT) is None
    assert [birds_home(S.FLAMINGO, n) for n in range(5)] == [0, 0, 1, 2, 2]
    assert [birds_home(S.ROBIN, n) for n in (5, 6, 8, 9)] == [0, 1, 1, 2]


def test_an_illegal_action_has_no_preview() -> None:
    state = cr.new_game(cr.GameOptions(num_players=2), 1)
    with pytest.raises(cr.IllegalActionError, match="nothing to preview"):
        preview(state, cr.Draw())
    with pytest.raises(cr.ViewError):
        preview(cr.observe(state, 1 - state.current_player), cr.legal_actions(state)[0])
