"""The rules of CuBirds as pure functions: ``new_game``, ``legal_actions``, ``apply``.

The code follows ``rules.md`` section by section; the phase transitions and the
canonical order of actions are those of ``interchange.md`` §1, and every shuffle is
the seeded one of §2. No function here changes its arguments: each transition builds a
new :class:`~cuckoo_rules.GameState` that shares the unchanged parts of the old one.

The rules' arithmetic (what a lay captures, whether a row is refilled, what follows a
lay, how many birds a flock sends home, when the cards run out) is asked of
:mod:`cuckoo_rules.decisions`, which the previews and the batch kernels ask too. The
engine itself is four private modules: the piles and the building of states
(``_piles``), the set-up (``_setup``), the legal actions and the reasons an action is
not legal (``_legal``), and the transitions of a turn (``_turns``); every public name
is here.
"""

from __future__ import annotations

from ..decisions import HAND_SIZE
from ..state import can_fly_home
from ._legal import IllegalReason, legal_action_mask, legal_actions, why_illegal
from ._setup import new_game
from ._turns import apply, step

__all__ = [
    "HAND_SIZE",
    "IllegalReason",
    "apply",
    "can_fly_home",
    "legal_action_mask",
    "legal_actions",
    "new_game",
    "step",
    "why_illegal",
]
