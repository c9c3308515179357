"""Finding Debian's Chromium for the browser tests, or skipping (failing under CI) without it."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import NoReturn

import pytest


def unavailable(reason: str) -> NoReturn:
    """Skip, or fail when ``CUCKOO_REQUIRE_BROWSER=1`` says the browser must be there."""
    if os.environ.get("CUCKOO_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{reason}, and CUCKOO_REQUIRE_BROWSER=1 requires the browser tests")
    pytest.skip(reason)


def chromium_path() -> str | None:
    """Debian's Chromium: ``/usr/bin/chromium``, or ``chromium`` on the ``PATH``."""
    if Path("/usr/bin/chromium").is_file():
        return "/usr/bin/chromium"
    return shutil.which("chromium")
