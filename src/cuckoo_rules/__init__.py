"""cuckoo-rules: an exact, immutable, typed rules engine for the card game CuBirds.

Everything public is re-exported here; import the package as ``cr``::

    import cuckoo_rules as cr

    state = cr.new_game(cr.GameOptions(num_players=3), seed=7)
    state = cr.apply(state, cr.legal_actions(state)[0])
"""

from .actions import (
    ALL_ACTIONS,
    NUM_DISTINCT_ACTIONS,
    NUM_ROWS,
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
from .cards import DECK_SIZE, NUM_SPECIES, SPECIES, Species, canonical_deck
from .codec import (
    decode_action,
    decode_event,
    decode_options,
    decode_state,
    decode_view,
    encode_action,
    encode_counts,
    encode_event,
    encode_state,
    encode_view,
    json_schema,
)
from .engine import (
    HAND_SIZE,
    apply,
    can_fly_home,
    has_won,
    legal_action_mask,
    legal_actions,
    new_game,
    step,
)
from .errors import CuckooError, DecodeError, IllegalActionError, InvalidOptionsError
from .events import (
    Captured,
    Dealt,
    DeclinedDraw,
    DeclinedFlock,
    Drew,
    Event,
    FlewHome,
    GameOver,
    Laid,
    Reshuffled,
    RoundEnded,
    RowRefilled,
    TurnEnded,
    TurnStarted,
    WinReason,
    visible_events,
)
from .notation import format_action, parse_action
from .options import MAX_PLAYERS, MIN_PLAYERS, GameOptions
from .state import Counts, GameState, Row, counts_to_dict, dict_to_counts
from .views import PlayerView, determinize, observe, unseen_cards

__version__ = "0.1.0"

__all__ = [
    "ALL_ACTIONS",
    "DECK_SIZE",
    "HAND_SIZE",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NUM_DISTINCT_ACTIONS",
    "NUM_ROWS",
    "NUM_SPECIES",
    "SPECIES",
    "Action",
    "Captured",
    "Counts",
    "CuckooError",
    "Dealt",
    "DeclinedDraw",
    "DeclinedFlock",
    "DecodeError",
    "Draw",
    "Drew",
    "Event",
    "FlewHome",
    "FlyHome",
    "GameOptions",
    "GameOver",
    "GameState",
    "IllegalActionError",
    "InvalidOptionsError",
    "Laid",
    "Lay",
    "Pass",
    "Phase",
    "PlayerView",
    "Reshuffled",
    "RoundEnded",
    "Row",
    "RowRefilled",
    "Side",
    "Species",
    "TurnEnded",
    "TurnStarted",
    "WinReason",
    "__version__",
    "action_from_id",
    "action_id",
    "apply",
    "can_fly_home",
    "canonical_deck",
    "counts_to_dict",
    "decode_action",
    "decode_event",
    "decode_options",
    "decode_state",
    "decode_view",
    "determinize",
    "dict_to_counts",
    "encode_action",
    "encode_counts",
    "encode_event",
    "encode_state",
    "encode_view",
    "format_action",
    "has_won",
    "json_schema",
    "legal_action_mask",
    "legal_actions",
    "new_game",
    "observe",
    "parse_action",
    "step",
    "unseen_cards",
    "visible_events",
]
