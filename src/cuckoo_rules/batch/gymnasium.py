"""Deprecated: the vector environment is :mod:`cuckoo_rules.envs.vector` now.

:class:`~cuckoo_rules.envs.vector.BatchCuckooEnv` is an adapter, so it lives with the
other research adapters, above the batch simulator it steps; this module still gives it
for a release, with a :class:`DeprecationWarning` when it is taken from here. Import it
from :mod:`cuckoo_rules.envs.vector`.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

from ..errors import needs_extra

try:
    import gymnasium  # noqa: F401  # the extra this module needs, named as before
except ModuleNotFoundError as error:  # pragma: no cover - depends on the environment
    raise needs_extra(__name__, "gymnasium", error) from error

if TYPE_CHECKING:
    from ..envs.vector import BatchCuckooEnv

__all__ = ["BatchCuckooEnv"]


def __getattr__(name: str) -> object:
    """``BatchCuckooEnv``, from :mod:`cuckoo_rules.envs.vector`, with a deprecation warning."""
    if name == "BatchCuckooEnv":
        warnings.warn(
            "cuckoo_rules.batch.gymnasium is deprecated: import BatchCuckooEnv from "
            "cuckoo_rules.envs.vector",
            DeprecationWarning,
            stacklevel=2,
        )
        from ..envs.vector import BatchCuckooEnv

        return BatchCuckooEnv
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
