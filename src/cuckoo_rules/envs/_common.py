"""Helpers shared by the research adapters; imports no optional dependency.

Argument checks, action-id conversion and the text rendering are the same in every
adapter, so they live here once.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from itertools import repeat
from typing import SupportsIndex, cast

from ..actions import ACTION_ID_BY_IDENTITY as _ID_OF_ACTION
from ..actions import NUM_DISTINCT_ACTIONS, action_from_id, action_id
from ..board import render_view
from ..bots.specs import BotSpec, as_bot_specs
from ..engine import legal_actions
from ..errors import IllegalActionError, InvalidOptionsError
from ..notation import format_action
from ..options import GameOptions
from ..rng import SEED_LIMIT
from ..state import GameState
from ..views import observe

__all__ = [
    "RENDER_MODES",
    "action_index",
    "agent_name",
    "check_max_turns",
    "check_render_mode",
    "check_seed",
    "describe_id",
    "learner_seats",
    "legal_ids",
    "opponent_specs",
    "render",
    "render_text",
    "resolve_options",
]

RENDER_MODES: tuple[str, ...] = ("ansi", "human")
"""The render modes every adapter supports."""


def agent_name(seat: int) -> str:
    """The PettingZoo-style name of a seat: ``"player_0"``, ``"player_1"``, ..."""
    return f"player_{seat}"


def resolve_options(num_players: int | None, options: GameOptions | None) -> GameOptions:
    """Return the game options from ``num_players`` and/or ``options``.

    ``options`` wins when given; ``num_players`` must then be ``None`` or agree with it.
    With neither, a 2-player game with the default rules is played.

    Raises:
        InvalidOptionsError: If ``options`` is not a :class:`GameOptions`, the numbers of
            players disagree, or ``num_players`` is not 2 to 5.
    """
    if options is None:
        return GameOptions(num_players=2 if num_players is None else num_players)
    if not isinstance(options, GameOptions):
        raise InvalidOptionsError(f"options: expected GameOptions or None, got {options!r}")
    if num_players is not None and num_players != options.num_players:
        raise InvalidOptionsError(
            f"num_players: {num_players!r} disagrees with options.num_players="
            f"{options.num_players} (give one of them, or the same number)"
        )
    return options


def check_render_mode(render_mode: object) -> str | None:
    """Return ``render_mode`` if it is ``None``, ``"ansi"`` or ``"human"``.

    Raises:
        InvalidOptionsError: Otherwise.
    """
    if render_mode is None or (isinstance(render_mode, str) and render_mode in RENDER_MODES):
        return render_mode
    raise InvalidOptionsError(
        f"render_mode: {render_mode!r} is not one of None, " + ", ".join(map(repr, RENDER_MODES))
    )


def check_max_turns(max_turns: object) -> int | None:
    """Return ``max_turns`` if it is ``None`` or a positive integer.

    Raises:
        InvalidOptionsError: Otherwise.
    """
    if max_turns is None:
        return None
    if type(max_turns) is not int or max_turns < 1:
        raise InvalidOptionsError(f"max_turns: expected None or an integer >= 1, got {max_turns!r}")
    return max_turns


def _as_int(value: object) -> int | None:
    """``value`` as an ``int`` if it is a Python or NumPy integer (not a bool), else None."""
    if type(value) is int:  # the usual case, decided at once
        return value
    if isinstance(value, bool):
        return None
    # No ``isinstance(value, SupportsIndex)`` first: that protocol check costs about 2 µs
    # a call, and ``operator.index`` raises TypeError for whatever it would turn away.
    try:
        return operator.index(cast(SupportsIndex, value))
    except TypeError:  # not an integer, an array of more than one value, or of floats
        return None


def check_seed(seed: object) -> int:
    """Return ``seed`` as an ``int`` if it is an integer in ``[0, 2**64)``.

    NumPy integers are accepted; booleans are not.

    Raises:
        InvalidOptionsError: Otherwise.
    """
    value = _as_int(seed)
    if value is None or not 0 <= value < SEED_LIMIT:
        raise InvalidOptionsError(f"seed: {seed!r} is not None or an integer in [0, 2**64)")
    return value


def action_index(action: object) -> int:
    """Return ``action`` as an action id, an ``int`` from 0 to 73.

    Python and NumPy integers (``np.int64`` as sampled from a ``Discrete`` space, or a
    0-dimensional integer array) are accepted; booleans, floats and ``None`` are not.

    Raises:
        IllegalActionError: If ``action`` is not an integer from 0 to 73.
    """
    value = _as_int(action)
    if value is None or not 0 <= value < NUM_DISTINCT_ACTIONS:
        raise IllegalActionError(
            f"action {action!r} is not an action id (an integer from 0 to "
            f"{NUM_DISTINCT_ACTIONS - 1}); see cuckoo_rules.action_from_id"
        )
    return value


def legal_ids(state: GameState) -> list[int]:
    """The ids of ``state``'s legal actions, in canonical order (so ascending).

    A step of an adapter needs them for the action mask and the infos; looking the
    engine's own action objects up inline by identity (as :func:`~cuckoo_rules.action_id`
    does first) costs less than calling ``action_id`` on each.
    """
    out = list(map(_ID_OF_ACTION.get, map(id, legal_actions(state)), repeat(-1)))  # C speed
    if -1 in out:  # not the engine's own action objects: never happens, but be safe
        out = [action_id(a) for a in legal_actions(state)]
    return out


def describe_id(index: int) -> str:
    """``12 (lay owl 2 left)``: an action id with its notation."""
    return f"{index} ({format_action(action_from_id(index))})"


def render_text(state: GameState, seat: int) -> str:
    """The terminal screen of ``seat``'s view of ``state``, one string with newlines.

    A first line names the seat the screen is shown to; a last line gives the winners
    once the game is over.
    """
    lines = [f"View of {agent_name(seat)} (seat {seat})"]
    lines += render_view(observe(state, seat), color=False)
    if state.is_over:
        lines.append("Winners: " + ", ".join(agent_name(w) for w in state.winners))
    return "\n".join(lines)


def render(
    render_mode: str | None, screen: Callable[[], str], warn: Callable[[str], object]
) -> str | None:
    """What an adapter's ``render()`` does in ``render_mode``.

    Returns:
        ``screen()`` for ``"ansi"``; ``None`` for ``"human"``, after printing
        ``screen()``; ``None`` with no render mode, after passing a hint to ``warn``
        (``screen`` is then not called).
    """
    if render_mode is None:
        warn(
            "render() was called without a render mode: build the environment "
            "with render_mode='ansi' or 'human'"
        )
        return None
    text = screen()
    if render_mode == "ansi":
        return text
    print(text)
    return None


def learner_seats(
    options: GameOptions, seat: object, opponents: str | BotSpec | Sequence[str | BotSpec]
) -> tuple[int, tuple[BotSpec | None, ...]]:
    """The learner's seat, checked, and each seat's bot (``None`` for the learner's).

    ``opponents`` is one specification for every other seat, or one per other seat in
    turn order after the learner (``opponents[0]`` plays ``seat + 1``).

    Raises:
        InvalidOptionsError: If the seat is not one of the game, or ``opponents`` is
            neither one specification nor one per other seat.
        BotSpecError: If a specification is malformed.
    """
    n = options.num_players
    if type(seat) is not int or not 0 <= seat < n:
        raise InvalidOptionsError(f"seat: {seat!r} is not a seat of a {n}-player game")
    by_seat: list[BotSpec | None] = [None] * n
    for k, spec in enumerate(opponent_specs(opponents, n - 1), start=1):
        by_seat[(seat + k) % n] = spec
    return seat, tuple(by_seat)


def opponent_specs(
    opponents: str | BotSpec | Sequence[str | BotSpec], count: int
) -> tuple[BotSpec, ...]:
    """One parsed specification per opponent seat (``count`` of them).

    Raises:
        InvalidOptionsError: If ``opponents`` is neither one specification nor ``count``.
        BotSpecError: If a specification is malformed.
    """
    items = [opponents] if isinstance(opponents, str | BotSpec) else list(opponents)
    specs = as_bot_specs(items, "opponents", InvalidOptionsError)
    if len(specs) == 1:
        return specs * count
    if len(specs) != count:
        raise InvalidOptionsError(
            f"opponents: expected one bot spec for all opponents or {count} "
            f"(one per other seat), got {len(specs)}"
        )
    return specs
