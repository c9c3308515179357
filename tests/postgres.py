"""PostgreSQL for the tests: the server of ``CUCKOO_POSTGRES_URL`` and clusters of their own.

Tests that need PostgreSQL read the server's URL from ``CUCKOO_POSTGRES_URL`` (start one
with ``eval "$(bash scripts/postgres.sh start)"``, or run ``bash scripts/postgres.sh run
.venv/bin/pytest``) and each gets a database of its own (:func:`fresh_database`), so no
test sees another's tables. Without the URL (or psycopg) they are skipped, unless
``CUCKOO_REQUIRE_POSTGRES=1`` (set by ``.ci/run``) turns the skip into a failure.

A test that stops and restarts the server uses a :class:`Cluster` of its own, made by
``scripts/postgres.sh``.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NoReturn
from urllib.parse import urlsplit, urlunsplit

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "postgres.sh"


def required() -> bool:
    """Whether ``CUCKOO_REQUIRE_POSTGRES=1`` says the PostgreSQL tests must run."""
    return os.environ.get("CUCKOO_REQUIRE_POSTGRES") == "1"


def unavailable(reason: str) -> NoReturn:
    """Skip, or fail when ``CUCKOO_REQUIRE_POSTGRES=1`` says PostgreSQL must be there."""
    if required():
        pytest.fail(f"{reason}, and CUCKOO_REQUIRE_POSTGRES=1 requires the PostgreSQL tests")
    pytest.skip(reason)


def need_psycopg() -> None:
    """Skip (or fail, see :func:`unavailable`) without psycopg and psycopg_pool."""
    try:
        import psycopg  # noqa: F401
        import psycopg_pool  # noqa: F401
    except ModuleNotFoundError as error:
        unavailable(f"no {error.name} (the 'postgres' extra)")


def server_url() -> str:
    """The URL of ``CUCKOO_POSTGRES_URL``; skips (or fails) without it or psycopg."""
    need_psycopg()
    url = os.environ.get("CUCKOO_POSTGRES_URL", "")
    if not url:
        unavailable("CUCKOO_POSTGRES_URL is not set (bash scripts/postgres.sh start)")
    return url


def with_database(url: str, name: str) -> str:
    """``url`` with its database replaced by ``name``."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + name))


@contextmanager
def fresh_database(url: str) -> Iterator[str]:
    """Create a uniquely named database on the server of ``url``; drop it afterwards.

    Yields:
        The URL of the new database.
    """
    import psycopg
    from psycopg import sql

    name = f"cuckoo_test_{uuid.uuid4().hex[:16]}"
    try:
        admin = psycopg.connect(url, autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as error:
        unavailable(f"cannot connect to CUCKOO_POSTGRES_URL: {error}")
    with admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield with_database(url, name)
    finally:
        with psycopg.connect(url, autocommit=True, connect_timeout=5) as admin:
            admin.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )


class Cluster:
    """A throwaway PostgreSQL cluster of ``scripts/postgres.sh``, to stop and start at will.

    Attributes:
        url: The URL of its database ``cuckoo``.
        directory: Its directory.
    """

    def __init__(self) -> None:
        need_psycopg()
        found = subprocess.run(
            ["bash", str(SCRIPT), "bindir"], capture_output=True, text=True, check=False
        )
        if found.returncode != 0:
            unavailable("PostgreSQL's server (initdb, pg_ctl) is not installed")
        exports = self._script("start")
        values = dict(line.removeprefix("export ").split("=", 1) for line in exports.splitlines())
        self.url = values["CUCKOO_POSTGRES_URL"]
        self.directory = values["CUCKOO_POSTGRES_DIR"]

    def _script(self, *args: str) -> str:
        done = subprocess.run(
            ["bash", str(SCRIPT), *args], capture_output=True, text=True, check=False
        )
        if done.returncode != 0:
            command = shlex.join(["scripts/postgres.sh", *args])
            raise AssertionError(f"{command} failed:\n{done.stdout}{done.stderr}")
        return done.stdout

    def stop(self) -> None:
        """Stop the server (fast shutdown: the connections are closed)."""
        self._script("stop", self.directory)

    def start(self) -> None:
        """Start the server again, on the same port."""
        self._script("start", self.directory)

    def destroy(self) -> None:
        """Stop the server and delete the cluster."""
        self._script("destroy", self.directory)
