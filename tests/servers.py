"""Start ``cuckoo-rules serve`` as a real process for the tests (crash test, browser test)."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

import pytest


def first_line(stream: IO[str], timeout: float) -> str:
    """The first line of ``stream``; the rest is read and dropped so the pipe never fills."""
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:
        lines.put(stream.readline())
        for _ in stream:
            pass

    threading.Thread(target=read, daemon=True).start()
    try:
        return lines.get(timeout=timeout)
    except queue.Empty:
        pytest.fail(f"the server printed nothing in {timeout} s")


@contextmanager
def serve(db: Path | str, log: Path, timeout: float) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """Run ``cuckoo-rules serve --port 0 --db DB``; yield the process and its URL.

    The server's standard error goes to ``log``; the process is killed on exit.
    """
    with log.open("a") as errors:
        process = subprocess.Popen(
            [sys.executable, "-m", "cuckoo_rules.cli", "serve", "--port", "0", "--db", str(db)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=errors,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
    try:
        assert process.stdout is not None
        line = first_line(process.stdout, timeout)
        prefix = "cuckoo-rules serving on http://127.0.0.1:"
        assert line.startswith(prefix), (line, log.read_text())
        assert line.endswith(f"/ (database {db})\n")
        yield process, line.split()[3]
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=timeout)
        if process.stdout is not None:
            process.stdout.close()
