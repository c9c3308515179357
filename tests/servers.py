"""Real servers for the tests: ``cuckoo-rules serve`` as a process (crash test, browser
test), or an application on uvicorn in a thread of the test's process."""

from __future__ import annotations

import os
import queue
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

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
def serve(
    db: Path | str, log: Path, timeout: float, args: Sequence[str] = ()
) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """Run ``cuckoo-rules serve --port 0 --db DB [ARGS...]``; yield the process and its URL.

    The server's standard error goes to ``log``; the process is killed on exit.
    """
    command = [sys.executable, "-m", "cuckoo_rules.cli", "serve", "--port", "0", "--db", str(db)]
    with log.open("a") as errors:
        process = subprocess.Popen(
            [*command, *args],
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


class ThreadedServer:
    """An ASGI application on a real uvicorn server in a thread of this process.

    It listens on a free port of each of ``hosts`` (:attr:`urls`, the first also
    :attr:`url`, without a trailing slash). uvicorn leaves logging alone (its records
    propagate to pytest's handlers) and writes no access log.
    """

    def __init__(
        self, app: Any, hosts: Sequence[str] = ("127.0.0.1",), *, timeout: float = 20.0
    ) -> None:
        import uvicorn

        self.app = app
        self.timeout = timeout
        self.sockets: list[socket.socket] = []
        for host in hosts:
            sock = socket.socket()
            sock.bind((host, 0))
            sock.listen(256)
            self.sockets.append(sock)
        self.urls = [
            f"http://{host}:{sock.getsockname()[1]}"
            for host, sock in zip(hosts, self.sockets, strict=True)
        ]
        self.url = self.urls[0]
        config = uvicorn.Config(
            app, log_config=None, access_log=False, lifespan="on", timeout_graceful_shutdown=2
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": self.sockets}, daemon=True
        )

    def __enter__(self) -> ThreadedServer:
        self.thread.start()
        deadline = time.monotonic() + self.timeout
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            assert self.thread.is_alive(), "the server stopped"
            time.sleep(0.01)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=self.timeout)
        for sock in self.sockets:
            sock.close()
