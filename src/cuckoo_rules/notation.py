"""A short text notation for actions: ``lay parrot 2 left``, ``draw``, ``fly owl``, ``pass``.

:func:`format_action` writes the canonical form; :func:`parse_action` reads it back and
is forgiving with people: case and extra spaces do not matter, ``fly_home`` may stand for
``fly``, species and sides may be shortened to any unambiguous prefix (``lay par 2 l``),
and ``-`` or a space may stand for ``_`` in ``reed_warbler`` (``lay reed warbler 0 r``).
Mistakes raise :class:`~cuckoo_rules.DecodeError` with a hint.
"""

from __future__ import annotations

import difflib

from .actions import (
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
from .cards import SPECIES, Species
from .errors import DecodeError

__all__ = ["format_action", "parse_action"]

_SPECIES_IDS = [s.value for s in SPECIES]
_SIDE_IDS = [s.value for s in Side]
_ROW_WORDS = tuple(str(row) for row in range(NUM_ROWS))
_FORMS = "'lay SPECIES ROW left|right', 'draw', 'fly SPECIES' or 'pass'"


def format_action(action: Action) -> str:
    """Return the canonical notation of an action.

    Example:
        >>> format_action(Lay(Species.REED_WARBLER, 2, Side.LEFT))
        'lay reed_warbler 2 left'
        >>> format_action(FlyHome(Species.OWL)), format_action(Draw()), format_action(Pass())
        ('fly owl', 'draw', 'pass')
    """
    if isinstance(action, Lay):
        return f"lay {action.species.value} {action.row} {action.side.value}"
    if isinstance(action, FlyHome):
        return f"fly {action.species.value}"
    if isinstance(action, Draw):
        return "draw"
    if isinstance(action, Pass):
        return "pass"
    raise TypeError(f"not an action: {action!r}")


def _choose(word: str, choices: list[str], what: str, text: str) -> str:
    if word in choices:
        return word
    matches = [c for c in choices if c.startswith(word)]
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        raise DecodeError(f"{text!r}: {what} {word!r} is ambiguous: {' or '.join(matches)}?")
    close = difflib.get_close_matches(word, choices, n=2, cutoff=0.5)
    hint = f"; did you mean {' or '.join(close)}?" if close else f"; one of {', '.join(choices)}"
    raise DecodeError(f"{text!r}: unknown {what} {word!r}{hint}")


def _species(words: list[str], text: str) -> Species:
    word = "_".join(words).replace("-", "_")
    return Species(_choose(word, _SPECIES_IDS, "species", text))


def parse_action(text: str) -> Action:
    """Read an action in the notation of :func:`format_action`.

    Raises:
        DecodeError: If the text is not an action; the message says what is wrong and
            suggests the nearest spelling.

    Example:
        >>> parse_action("lay Parrot 2 left")
        Lay(Species.PARROT, 2, Side.LEFT)
        >>> parse_action("lay reed warbler 0 r")
        Lay(Species.REED_WARBLER, 0, Side.RIGHT)
        >>> parse_action("fly owl"), parse_action("PASS")
        (FlyHome(Species.OWL), Pass())
        >>> parse_action("fly parot")
        Traceback (most recent call last):
        ...
        cuckoo_rules.errors.DecodeError: 'fly parot': unknown species 'parot'; did you mean parrot?
    """
    if not isinstance(text, str):
        raise DecodeError(f"expected a string, got {text!r}")
    words = text.lower().split()
    if not words:
        raise DecodeError(f"{text!r}: empty; write {_FORMS}")
    verb = words[0]
    if verb == "fly_home":
        verb = "fly"
    verb = _choose(verb, ["lay", "draw", "fly", "pass"], "action", text)
    rest = words[1:]
    if verb in ("draw", "pass"):
        if rest:
            raise DecodeError(f"{text!r}: {verb!r} takes nothing after it")
        return DRAW if verb == "draw" else PASS
    if verb == "fly":
        if not rest:
            raise DecodeError(f"{text!r}: which species? write 'fly SPECIES', e.g. 'fly owl'")
        return FLY_HOME_ACTIONS[_species(rest, text).index]
    if len(rest) < 3:
        raise DecodeError(f"{text!r}: write 'lay SPECIES ROW left|right', e.g. 'lay parrot 2 left'")
    species = _species(rest[:-2], text)
    row_word, side_word = rest[-2], rest[-1]
    if row_word not in _ROW_WORDS:
        raise DecodeError(f"{text!r}: row {row_word!r} is not a row number from 0 to 3")
    side = Side(_choose(side_word, _SIDE_IDS, "side", text))
    return LAY_ACTIONS[species.index][int(row_word) * 2 + (side is Side.RIGHT)]
