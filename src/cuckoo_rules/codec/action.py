"""The JSON action documents (``interchange.md`` §5).

``{"type": "lay", "species": "parrot", "row": 0, "side": "left"}``, ``{"type": "draw"}``,
``{"type": "fly_home", "species": "owl"}`` and ``{"type": "pass"}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..actions import (
    DRAW,
    FLY_HOME_ACTIONS,
    LAY_ACTIONS,
    NUM_ROWS,
    PASS,
    Action,
    Draw,
    FlyHome,
    Lay,
    Pass,
    Side,
)
from ..errors import short_repr
from .fields import fail, int_in, keys, mapping, side, species

__all__ = ["decode_action", "encode_action"]

_ACTION_KEYS = {
    "lay": ("type", "species", "row", "side"),
    "draw": ("type",),
    "fly_home": ("type", "species"),
    "pass": ("type",),
}


def encode_action(action: Action) -> dict[str, Any]:
    """Return the JSON document of an action (interchange §5).

    Example:
        >>> from cuckoo_rules import Species
        >>> encode_action(Lay(Species.PARROT, 0, Side.LEFT))
        {'type': 'lay', 'species': 'parrot', 'row': 0, 'side': 'left'}
    """
    if isinstance(action, Lay):
        return {
            "type": "lay",
            "species": action.species.value,
            "row": action.row,
            "side": action.side.value,
        }
    if isinstance(action, Draw):
        return {"type": "draw"}
    if isinstance(action, FlyHome):
        return {"type": "fly_home", "species": action.species.value}
    if isinstance(action, Pass):
        return {"type": "pass"}
    raise TypeError(f"not an action: {action!r}")


def decode_action(data: Mapping[str, Any], path: str = "action") -> Action:
    """Read a JSON action document (interchange §5).

    Args:
        data: The action object.
        path: Where the action is, for error messages (such as ``"actions[3]"`` in a
            game record): a bad row is reported at ``f"{path}.row"``.

    Raises:
        DecodeError: On an unknown type, species or side, a row that is not an integer
            from 0 to 3, or a missing or unknown key.

    Example:
        >>> decode_action({"type": "fly_home", "species": "owl"})
        FlyHome(Species.OWL)
    """
    doc = mapping(data, path)
    kind = doc.get("type")
    if not isinstance(kind, str) or kind not in _ACTION_KEYS:
        allowed = ", ".join(repr(k) for k in _ACTION_KEYS)
        fail(f"{path}.type", f"{short_repr(kind)} is not one of {allowed}")
    keys(doc, path, _ACTION_KEYS[kind])
    if kind == "draw":
        return DRAW
    if kind == "pass":
        return PASS
    bird = species(doc["species"], f"{path}.species")
    if kind == "fly_home":
        return FLY_HOME_ACTIONS[bird.index]
    row = int_in(doc["row"], f"{path}.row", 0, NUM_ROWS - 1)
    end = side(doc["side"], f"{path}.side")
    return LAY_ACTIONS[bird.index][row * 2 + (0 if end is Side.LEFT else 1)]
