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
used, for example at ``cr.bots`` (PEP 562).
"""

import importlib
from types import ModuleType
from typing import TYPE_CHECKING

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
"""The layers above the games in progress, loaded when first asked for."""


if TYPE_CHECKING:  # what ``cr.bots`` is, for the type checker; loaded when used
    from . import bots as bots
else:  # a module __getattr__ seen by mypy would type every misspelt name as a module

    def __getattr__(name: str) -> ModuleType:
        """Load a subpackage of the upper layers when it is first used (``cr.bots``)."""
        if name in _LAZY_SUBPACKAGES:
            module = importlib.import_module(f"{__name__}.{name}")
            globals()[name] = module
            return module
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted({*globals(), *_LAZY_SUBPACKAGES})


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
