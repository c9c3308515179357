"""The four kinds of action, the phases they belong to, and their canonical order.

Actions are small frozen values. The engine hands out the same action objects again
and again (see :data:`LAY_ACTIONS`), but any equal action built by hand is accepted too.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import TypeAlias

import attrs

from .cards import SPECIES, Species
from .errors import IllegalActionError, short_repr

__all__ = [
    "ACTION_ID_BY_IDENTITY",
    "ALL_ACTIONS",
    "DRAW",
    "DRAW_ID",
    "FLY_HOME_ACTIONS",
    "FLY_HOME_ID",
    "LAY_ACTIONS",
    "NUM_DISTINCT_ACTIONS",
    "NUM_ROWS",
    "PASS",
    "PASS_ID",
    "Action",
    "Draw",
    "FlyHome",
    "Lay",
    "Pass",
    "Phase",
    "Side",
    "action_from_id",
    "action_id",
]

NUM_ROWS = 4
"""The number of rows on the table."""


class Side(Enum):
    """The end of a row where birds are laid."""

    LEFT = "left"
    RIGHT = "right"

    def __repr__(self) -> str:
        return f"Side.{self.name}"


class Phase(Enum):
    """What the current player is to decide (``interchange.md`` §1).

    Attributes:
        LAY: Lay all birds of one species at an end of a row.
        DRAW: Take the optional draw of two cards, or pass.
        FLOCK: Fly one flock home, or pass.
        GAME_OVER: The game has ended; no action is legal.
    """

    LAY = "lay"
    DRAW = "draw"
    FLOCK = "flock"
    GAME_OVER = "game_over"

    def __repr__(self) -> str:
        return f"Phase.{self.name}"


def _check_species(instance: object, attribute: attrs.Attribute[Species], value: object) -> None:
    if type(value) is not Species:
        raise TypeError(
            f"{type(instance).__name__}: species must be a Species such as Species.OWL, got "
            f"{short_repr(value)} ({type(value).__name__}); parse_action reads text such as "
            + ("'lay owl 0 left'" if type(instance) is Lay else "'fly owl'")
        )


def _check_side(instance: object, attribute: attrs.Attribute[Side], value: object) -> None:
    if type(value) is not Side:
        raise TypeError(
            f"Lay: side must be Side.LEFT or Side.RIGHT, got {short_repr(value)} "
            f"({type(value).__name__})"
        )


def _check_row(instance: object, attribute: attrs.Attribute[int], value: object) -> None:
    # ``True == 1`` and ``1.0 == 1``: refuse them, or equality and legality would disagree.
    if type(value) is not int:
        raise TypeError(
            f"Lay: row must be an int from 0 to {NUM_ROWS - 1}, got {short_repr(value)} "
            f"({type(value).__name__})"
        )
    if not 0 <= value < NUM_ROWS:
        raise IllegalActionError(f"Lay: row must be 0 to {NUM_ROWS - 1}, got {value}")


@attrs.frozen(repr=False)
class Lay:
    """Lay every card of ``species`` from hand at the ``side`` end of row ``row``.

    Building a ``Lay`` checks the types (a :class:`TypeError` saying what was expected
    otherwise) and the row (an :class:`~cuckoo_rules.IllegalActionError` unless 0 to 3);
    whether the species is in hand is for :func:`cuckoo_rules.apply` to say.

    Attributes:
        species: The species laid; the hand must hold at least one card of it.
        row: The row, 0 to 3 (an ``int``; ``True`` or ``1.0`` are refused).
        side: The end of the row.

    Example:
        >>> Lay(Species.PARROT, 0, Side.LEFT)
        Lay(Species.PARROT, 0, Side.LEFT)
    """

    species: Species = attrs.field(validator=_check_species)
    row: int = attrs.field(validator=_check_row)
    side: Side = attrs.field(validator=_check_side)

    def __repr__(self) -> str:
        return f"Lay({self.species!r}, {self.row!r}, {self.side!r})"


@attrs.frozen(repr=False)
class Draw:
    """Take the optional draw: the top two cards of the draw pile."""

    def __repr__(self) -> str:
        return "Draw()"


@attrs.frozen(repr=False)
class FlyHome:
    """Reveal every card of ``species`` in hand and fly one or two of them home.

    Attributes:
        species: The flock's species; the hand must hold at least its small-flock number.
    """

    species: Species = attrs.field(validator=_check_species)

    def __repr__(self) -> str:
        return f"FlyHome({self.species!r})"


@attrs.frozen(repr=False)
class Pass:
    """Decline the optional draw (in the draw phase) or the flock (in the flock phase)."""

    def __repr__(self) -> str:
        return "Pass()"


Action: TypeAlias = Lay | Draw | FlyHome | Pass
"""Any action: ``Lay | Draw | FlyHome | Pass``."""

LAY_ACTIONS: tuple[tuple[Lay, ...], ...] = tuple(
    tuple(Lay(s, row, side) for row in range(NUM_ROWS) for side in Side) for s in SPECIES
)
"""``LAY_ACTIONS[s.index]``: the 8 lays of species ``s`` in canonical order."""

FLY_HOME_ACTIONS: tuple[FlyHome, ...] = tuple(FlyHome(s) for s in SPECIES)
"""``FLY_HOME_ACTIONS[s.index]``: the flock action of species ``s``."""

DRAW = Draw()
"""The draw action."""

PASS = Pass()
"""The pass action."""


# --------------------------------------------------------------------------- integer ids

ALL_ACTIONS: tuple[Action, ...] = (
    *(lay for lays in LAY_ACTIONS for lay in lays),
    DRAW,
    *FLY_HOME_ACTIONS,
    PASS,
)
"""Every distinct action, indexed by its id (canonical order within each phase)."""

NUM_DISTINCT_ACTIONS = len(ALL_ACTIONS)
"""The number of distinct actions: 64 lays, draw, 8 flocks and pass (74)."""

DRAW_ID = 64
"""The id of ``Draw()``."""

FLY_HOME_ID = 65
"""The id of ``FlyHome(Species.FLAMINGO)``: ``FlyHome(s)`` has id ``FLY_HOME_ID + s.index``."""

PASS_ID = 73
"""The id of ``Pass()``."""

_LEFT = Side.LEFT  # module constants: ``Side.LEFT`` is a slow class-attribute lookup
_RIGHT = Side.RIGHT

# The engine hands out the objects of ALL_ACTIONS (kept alive there), so their
# identities map to their ids at the cost of one dictionary lookup.
ACTION_ID_BY_IDENTITY: Mapping[int, int] = {id(a): i for i, a in enumerate(ALL_ACTIONS)}
"""The id of each object of :data:`ALL_ACTIONS`, by its :func:`id`: the fast path of
:func:`action_id` for the action objects the engine hands out (an equal action built by
hand has another identity: use :func:`action_id`). Read it, never change it."""


def action_id(action: Action) -> int:
    """Return the integer id of an action, for learning code.

    Ids follow the canonical order: ``Lay(s, row, side)`` is ``8 * s.index + 2 * row +
    (0 for left, 1 for right)``; ``Draw()`` is 64; ``FlyHome(s)`` is ``65 + s.index``;
    ``Pass()`` is 73.

    The action objects the engine hands out (those of :data:`ALL_ACTIONS`) are looked
    up by identity, which is fastest; any equal action built by hand gets the same id.

    Raises:
        ValueError: If ``action`` is not a well-formed action.

    Example:
        >>> action_id(Lay(Species.OWL, 1, Side.RIGHT)), action_id(Pass())
        (11, 73)
    """
    index = ACTION_ID_BY_IDENTITY.get(id(action))
    if index is not None:
        return index
    if isinstance(action, Lay):
        species, row, side = action.species, action.row, action.side
        if isinstance(species, Species) and type(row) is int and 0 <= row < NUM_ROWS:
            if side is _LEFT:
                return species.index * 8 + row * 2
            if side is _RIGHT:
                return species.index * 8 + row * 2 + 1
    elif isinstance(action, Draw):
        return DRAW_ID
    elif isinstance(action, FlyHome):
        if isinstance(action.species, Species):
            return FLY_HOME_ID + action.species.index
    elif isinstance(action, Pass):
        return PASS_ID
    raise ValueError(f"{action!r} is not a well-formed action")


def action_from_id(index: int) -> Action:
    """Return the action with id ``index`` (the inverse of :func:`action_id`).

    Raises:
        ValueError: If ``index`` is not an integer from 0 to 73.

    Example:
        >>> action_from_id(11)
        Lay(Species.OWL, 1, Side.RIGHT)
    """
    if type(index) is not int or not 0 <= index < NUM_DISTINCT_ACTIONS:
        raise ValueError(f"action id {index!r} is not an integer from 0 to 73")
    return ALL_ACTIONS[index]
