"""Every kernel of the batch simulator in one namespace, for tests and experiments.

The kernels live in modules by job: :mod:`._layout` (the facts and a game's row),
:mod:`._random` (SplitMix64 and the Mersenne Twister), :mod:`._rules` (the rules on one
game), :mod:`._observe` (the observation), :mod:`._greedy` (the batched bots),
:mod:`._drivers` (the loops over a batch) and :mod:`._search` (the expert's
simulations); :mod:`._jit` says how they are compiled.
"""

from __future__ import annotations

from ._drivers import *  # noqa: F403
from ._drivers import __all__ as _drivers
from ._greedy import *  # noqa: F403
from ._greedy import __all__ as _greedy
from ._layout import *  # noqa: F403
from ._layout import __all__ as _layout
from ._observe import *  # noqa: F403
from ._observe import __all__ as _observe
from ._random import *  # noqa: F403
from ._random import __all__ as _random
from ._rules import *  # noqa: F403
from ._rules import __all__ as _rules
from ._search import *  # noqa: F403
from ._search import __all__ as _search

__all__ = [*_layout, *_random, *_rules, *_observe, *_greedy, *_drivers, *_search]
