"""The legal actions in canonical order (interchange §1), and why an action is not legal."""

from __future__ import annotations

import attrs

from ..actions import (
    DRAW,
    FLY_HOME_ACTIONS,
    LAY_ACTIONS,
    NUM_DISTINCT_ACTIONS,
    PASS,
    Action,
    Draw,
    FlyHome,
    Lay,
    Pass,
    Phase,
    action_id,
)
from ..cards import NUM_SPECIES, Species
from ..errors import ViewError
from ..state import (
    SMALL_FLOCKS,
    Counts,
    GameState,
)
from ..views import PlayerView

_LAY = Phase.LAY
_DRAW = Phase.DRAW
_OVER = Phase.GAME_OVER
_DRAW_OR_PASS: tuple[Action, ...] = (DRAW, PASS)
_ONLY_PASS: tuple[Action, ...] = (PASS,)


def legal_actions(state: GameState | PlayerView) -> tuple[Action, ...]:
    """Return the current player's legal actions in canonical order (interchange §1).

    Lays come species by species, each row 0 to 3, left before right; in the draw phase
    ``Draw()`` then ``Pass()``; in the flock phase each possible flock in species order,
    then ``Pass()``. A finished game has none.

    Args:
        state: The full state, or the acting seat's view (the result is the same), so
            that a bot or client never needs the full state.

    Raises:
        ViewError: If given the view of a seat that is not to act (or a spectator's)
            while the game is not over.

    Example:
        >>> from cuckoo_rules import GameOptions, new_game, observe
        >>> state = new_game(GameOptions(num_players=2), seed=1)
        >>> actions = legal_actions(state)
        >>> actions[0]
        Lay(Species.OWL, 0, Side.LEFT)
        >>> legal_actions(observe(state, state.current_player)) == actions
        True
    """
    phase = state.phase
    if phase is _OVER:
        return ()
    if type(state) is GameState:
        hand = state.hands[state.current_player]
    else:
        assert isinstance(state, PlayerView)
        if state.hand is None or state.viewer != state.current_player:
            raise ViewError(
                f"the view of {_seat(state.viewer)} does not show the legal actions: "
                f"player {state.current_player} is to act"
            )
        hand = state.hand
    if phase is _LAY:
        actions: tuple[Action, ...] = ()
        for i in range(NUM_SPECIES):
            if hand[i]:
                actions += LAY_ACTIONS[i]
        return actions
    if phase is _DRAW:
        return _DRAW_OR_PASS
    flocks: tuple[Action, ...] = tuple(
        FLY_HOME_ACTIONS[i] for i in range(NUM_SPECIES) if hand[i] >= SMALL_FLOCKS[i]
    )
    return flocks + _ONLY_PASS


def _seat(viewer: int | None) -> str:
    return "a spectator" if viewer is None else f"player {viewer}"


@attrs.frozen
class IllegalReason:
    """Why an action is not legal, as data a front end can put in words (its language).

    Attributes:
        code: What is wrong: ``"over"`` (the game is over), ``"not_an_action"`` (not a
            :class:`~cuckoo_rules.Lay`, :class:`~cuckoo_rules.Draw`,
            :class:`~cuckoo_rules.FlyHome` or :class:`~cuckoo_rules.Pass`),
            ``"lay_first"`` (a turn starts by laying birds), ``"not_held"`` (a lay of a
            species the player holds none of), ``"draw_or_pass"`` (after a lay that took
            no cards the choice is to draw or not), ``"flock_size"`` (a flock smaller
            than the species' small flock) or ``"flock_or_pass"`` (the choice is to fly
            a flock home or not).
        species: The species of a ``"not_held"`` or ``"flock_size"`` reason.
        needed: The small flock of a ``"flock_size"`` reason.
        held: The cards of that species in the player's hand (``"flock_size"``).
    """

    code: str
    species: Species | None = None
    needed: int | None = None
    held: int | None = None


def why_illegal(state: GameState | PlayerView, action: object) -> IllegalReason | None:
    """Say why ``action`` is not legal for the player to act, or ``None`` if it is legal.

    The reasons are those of the :class:`~cuckoo_rules.IllegalActionError` that
    :func:`apply` raises, as data, so that a front end words them in its language.

    Args:
        state: The full state, or the acting seat's view.
        action: Anything; a non-action gives ``"not_an_action"``.

    Raises:
        ViewError: If given the view of a seat that is not to act while the game is on.

    Example:
        >>> from cuckoo_rules import FlyHome, GameOptions, Lay, Side, Species, new_game
        >>> state = new_game(GameOptions(num_players=2), seed=7)
        >>> why_illegal(state, FlyHome(Species.OWL))
        IllegalReason(code='lay_first', species=None, needed=None, held=None)
        >>> why_illegal(state, Lay(Species.FLAMINGO, 0, Side.LEFT)).code
        'not_held'
        >>> why_illegal(state, Lay(Species.OWL, 0, Side.LEFT)) is None
        True
    """
    if action in legal_actions(state):
        return None
    phase = state.phase
    if phase is _OVER:
        return IllegalReason("over")
    if not isinstance(action, Lay | Draw | FlyHome | Pass):
        return IllegalReason("not_an_action")
    if phase is _LAY:
        if not isinstance(action, Lay):
            return IllegalReason("lay_first")
        return IllegalReason("not_held", action.species)
    if phase is _DRAW:
        return IllegalReason("draw_or_pass")
    if isinstance(action, FlyHome):
        species = action.species
        if isinstance(state, GameState):
            hand: Counts | None = state.hands[state.current_player]
        else:
            hand = state.hand
        assert hand is not None  # legal_actions refused any other view
        return IllegalReason("flock_size", species, species.small_flock, hand[species.index])
    return IllegalReason("flock_or_pass")


_REASONS: dict[str, str] = {
    "lay_first": "a turn starts by laying birds",
    "not_held": "player {p} holds no {species}",
    "draw_or_pass": "after a lay that took no cards the choice is Draw() or Pass()",
    "flock_size": "a flock of {species} needs {needed} cards, player {p} holds {held}",
    "flock_or_pass": "the choice is to fly a flock home or Pass()",
}


def illegal_message(state: GameState, action: object) -> str:
    """Explain, in the message of an :class:`IllegalActionError`, why ``action`` is not legal."""
    reason = why_illegal(state, action)
    assert reason is not None  # apply found it illegal
    if reason.code == "over":
        return f"{action!r} is not legal: the game is over"
    if reason.code == "not_an_action":
        return f"{action!r} is not an action (expected Lay, Draw, FlyHome or Pass)"
    p = state.current_player
    species = reason.species.value if reason.species is not None else ""
    why = _REASONS[reason.code].format(p=p, species=species, needed=reason.needed, held=reason.held)
    return f"{action!r} is not legal for player {p} in phase {state.phase.value!r}: {why}"


def legal_action_mask(state: GameState | PlayerView) -> tuple[bool, ...]:
    """Return, for each action id 0-73, whether that action is legal (for learning code).

    Accepts a state or the acting seat's view, like :func:`legal_actions`.

    Example:
        >>> from cuckoo_rules import GameOptions, new_game, action_from_id
        >>> state = new_game(GameOptions(num_players=2), seed=1)
        >>> mask = legal_action_mask(state)
        >>> [action_from_id(i) for i, ok in enumerate(mask) if ok] == list(legal_actions(state))
        True
    """
    mask = [False] * NUM_DISTINCT_ACTIONS
    for action in legal_actions(state):
        mask[action_id(action)] = True
    return tuple(mask)
