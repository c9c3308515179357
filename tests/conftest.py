"""Shared test configuration: Hypothesis profiles and small helpers.

Profiles (choose with ``HYPOTHESIS_PROFILE``; CI sets ``CI=true`` and gets ``ci``):

- ``dev`` (default): quick feedback while editing.
- ``ci``: more examples, derandomized so that a CI run is reproducible.
- ``soak``: long runs for ``scripts/soak.sh``; not for CI.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("dev", max_examples=50, deadline=None)
settings.register_profile(
    "ci",
    max_examples=200,
    deadline=None,
    derandomize=True,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "soak",
    max_examples=20_000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

ROOT = Path(__file__).resolve().parent.parent
"""The repository root."""

SHARED_VECTORS = ROOT.parent / "shared" / "vectors"
"""The shared test vectors (``../shared/vectors`` beside the checkout)."""

DATA = Path(__file__).resolve().parent / "data"
"""Test data kept in this repository (golden games, copies of the shared vectors)."""


def load_module(path: Path, name: str) -> ModuleType:
    """Import the script at ``path`` (an example or a script, not a package) as ``name``."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclass-like machinery looks modules up by name
    spec.loader.exec_module(module)
    return module


class HintSpy:
    """The calls of :func:`cuckoo_rules.bots.expert.hint` while a test runs (a spy)."""

    def __init__(self, module: ModuleType) -> None:
        self.real: Callable[..., Any] = module.hint
        """The real ``hint``."""
        self.calls: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
        """Each call's positional and keyword arguments."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls.append((args, kwargs))
        return self.real(*args, **kwargs)


@pytest.fixture
def hint_spy(monkeypatch: pytest.MonkeyPatch) -> HintSpy:
    """Spy on the expert's ``hint`` (skips without the batch extra: NumPy and numba)."""
    module = pytest.importorskip("cuckoo_rules.bots.expert", reason="no batch extra")
    spy = HintSpy(module)
    monkeypatch.setattr(module, "hint", spy)
    return spy
