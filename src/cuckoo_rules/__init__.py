"""cuckoo-rules: an exact, immutable, typed rules engine for the card game CuBirds.

The top level holds the model and its formats; import the package as ``cr``::

    import cuckoo_rules as cr

    state = cr.new_game(cr.GameOptions(num_players=3), seed=7)
    state = cr.apply(state, cr.legal_actions(state)[0])

Everything else lives in a submodule, reachable from ``cr`` too: the events
(:mod:`cr.events <cuckoo_rules.events>`), records (:mod:`cr.records
<cuckoo_rules.records>`), action previews (:mod:`cr.preview <cuckoo_rules.preview>`),
outcomes, knowledge, observations, narration, the bots and tournaments
(:mod:`cr.bots <cuckoo_rules.bots>`); the research adapters
(:mod:`cuckoo_rules.envs`), the terminal game and the web server are imported on their
own. The architecture page of the documentation maps them.

``import cuckoo_rules`` loads the model, the rules, what a seat may know, the formats and
the games in progress (:class:`Match`, the narration) only; the layers above (the bots,
the batch simulator, the research environments and the front ends) load when first
used, for example at ``cr.bots.GreedyBot``.
"""

import importlib
from types import ModuleType
from typing import TYPE_CHECKING, Any

from . import (
    actions as actions,
)
from . import (
    cards as cards,
)
from . import (
    codec as codec,
)
from . import (
    determinization as determinization,
)
from . import (
    engine as engine,
)
from . import (
    errors as errors,
)
from . import (
    events as events,
)
from . import (
    knowledge as knowledge,
)
from . import (
    match as match,
)
from . import (
    narration as narration,
)
from . import (
    notation as notation,
)
from . import (
    observation as observation,
)
from . import (
    options as options,
)
from . import (
    outcome as outcome,
)
from . import (
    preview as preview,
)
from . import (
    records as records,
)
from . import (
    rng as rng,
)
from . import (
    state as state,
)
from . import (
    views as views,
)
from .actions import (
    NUM_DISTINCT_ACTIONS,
    Action,
    Draw,
    FlyHome,
    Lay,
    Pass,
    Phase,
    Side,
    action_from_id,
    action_id,
)
from .cards import SPECIES, Species
from .codec import (
    decode_action,
    decode_event,
    decode_state,
    decode_view,
    encode_action,
    encode_event,
    encode_state,
    encode_view,
    json_schema,
)
from .determinization import determinize
from .engine import apply, legal_action_mask, legal_actions, new_game, step
from .errors import CuckooError, DecodeError, IllegalActionError, InvalidOptionsError, ViewError
from .events import Event, visible_events
from .knowledge import Knowledge
from .match import Match
from .notation import format_action, parse_action
from .options import GameOptions
from .outcome import Outcome
from .records import GameRecord, RecordError, dumps_record, loads_record, replay
from .state import Counts, GameState
from .views import PlayerView, observe

__version__ = "0.1.0"

_LAZY_SUBPACKAGES = ("batch", "bots", "cli", "envs", "terminal", "web")
"""The layers above the games in progress, loaded when first used."""


class _Subpackage(ModuleType):
    """The stand-in of a subpackage of the upper layers until it is first used.

    ``cr.bots`` is this stand-in until an attribute is read (``cr.bots.RandomBot``): the
    read imports :mod:`cuckoo_rules.bots`, which then takes the stand-in's place in the
    package. Whoever took the stand-in before (``from cuckoo_rules import bots``) keeps
    reading and writing the module itself through it. Not a module ``__getattr__`` (PEP
    562): CPython 3.11 does not specialise attribute reads on a module that defines one,
    which would slow every ``cr.apply`` in a loop.
    """

    def _module(self) -> ModuleType:
        return importlib.import_module(self.__name__)

    @property  # the module's namespace, not the stand-in's own
    def __dict__(self) -> dict[str, Any]:  # type: ignore[override]
        # What reads the namespace itself, as pytest's monkeypatch does to save the value
        # it replaces, must see the module's: the stand-in's own holds nothing of it.
        return self._module().__dict__

    def __getattr__(self, name: str) -> object:
        return getattr(self._module(), name)

    def __setattr__(self, name: str, value: object) -> None:
        setattr(self._module(), name, value)

    def __delattr__(self, name: str) -> None:
        delattr(self._module(), name)

    def __dir__(self) -> list[str]:
        return dir(self._module())


if TYPE_CHECKING:  # what ``cr.bots`` is, for the type checker; loaded when used
    from . import bots as bots
else:
    for _name in _LAZY_SUBPACKAGES:
        globals()[_name] = _Subpackage(f"{__name__}.{_name}")
    del _name


__all__ = [
    "NUM_DISTINCT_ACTIONS",
    "SPECIES",
    "Action",
    "Counts",
    "CuckooError",
    "DecodeError",
    "Draw",
    "Event",
    "FlyHome",
    "GameOptions",
    "GameRecord",
    "GameState",
    "IllegalActionError",
    "InvalidOptionsError",
    "Knowledge",
    "Lay",
    "Match",
    "Outcome",
    "Pass",
    "Phase",
    "PlayerView",
    "RecordError",
    "Side",
    "Species",
    "ViewError",
    "__version__",
    "action_from_id",
    "action_id",
    "apply",
    "decode_action",
    "decode_event",
    "decode_state",
    "decode_view",
    "determinize",
    "dumps_record",
    "encode_action",
    "encode_event",
    "encode_state",
    "encode_view",
    "format_action",
    "json_schema",
    "legal_action_mask",
    "legal_actions",
    "loads_record",
    "new_game",
    "observe",
    "parse_action",
    "replay",
    "step",
    "visible_events",
]
