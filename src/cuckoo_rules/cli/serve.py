"""``cuckoo-rules serve``: serve games in the browser over HTTP (needs the ``web`` extra).

The server is :mod:`cuckoo_rules.web`'s; this module reads the arguments, binds the
port, builds the application (:func:`cuckoo_rules.web.create_app`) and runs it with
uvicorn.
"""

from __future__ import annotations

import argparse
from typing import Any

from .parser import PROG, Commands, command_failed

__all__ = ["add_command"]

_WEB_EXTRA_HINT = "install the web extra: pip install 'cuckoo-rules[web]'"
"""What ``serve`` prints when Starlette or uvicorn is missing."""


def add_command(commands: Commands) -> None:
    """Declare ``serve`` and its arguments: host, port and database file."""
    serve = commands.add_parser(
        "serve",
        help="serve games in the browser over HTTP (needs the web extra)",
        description=(
            "Serve CuBirds over HTTP: a browser client at / and a JSON API under /api/, "
            "for tables of humans and bots. Every accepted move is committed to the SQLite "
            "database before it is answered, and the tables are reloaded from it on start, "
            "so stopping the server loses no move. Listens on the loopback address by "
            "default; --port 0 picks a free port. The first line printed gives the URL. "
            "Needs the web extra: pip install 'cuckoo-rules[web]'."
        ),
        epilog=f"example: {PROG} serve --port 8000 --db cuckoo.sqlite3",
    )
    serve.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: %(default)s)"
    )
    serve.add_argument(
        "--port", type=int, default=8000, help="port, 0 for a free one (default: %(default)s)"
    )
    serve.add_argument(
        "--db",
        default="cuckoo.sqlite3",
        metavar="PATH|URL",
        help=(
            "SQLite database of the tables, created if missing, used by one server at a "
            "time; or a postgresql://USER@HOST/DB URL, which several server processes may "
            "share (needs the postgres extra) (default: %(default)s)"
        ),
    )
    serve.add_argument(
        "--bot-workers",
        type=int,
        default=2,
        metavar="N",
        help=(
            "worker processes in which the bots think; 0 for threads of the server's "
            "process, without isolation (default: %(default)s)"
        ),
    )
    serve.add_argument(
        "--max-tables",
        type=int,
        metavar="N",
        help="most open tables in all; more get 429 (default: 1000)",
    )
    serve.add_argument(
        "--max-tables-per-client",
        type=int,
        metavar="N",
        help="most open tables created from one address (default: 20)",
    )
    serve.add_argument(
        "--expire-after",
        type=float,
        metavar="HOURS",
        help="hours without a move after which a table expires (default: 168, a week)",
    )
    serve.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help=(
            "also answer requests for this Host name, any port (repeatable; '*.example.org' "
            "allows a domain and its subdomains, '*' any name). Only localhost, 127.0.0.1 "
            "and [::1] are answered by default, against DNS rebinding: with --host 0.0.0.0, "
            "give the names or addresses the clients use"
        ),
    )
    serve.set_defaults(handler=_run, command_parser=serve)


def _without_password(db: str) -> str:
    """The database as printed: a URL's password replaced by ``***``."""
    from urllib.parse import urlsplit, urlunsplit

    if "://" not in db:
        return db
    parts = urlsplit(db)
    if parts.password is None:
        return db
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{parts.username}:***@{host}"))


def _run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Bind the port, load the tables, print the URL and serve until interrupted.

    Returns 130 after Ctrl-C (SIGINT), 1 if the port or the database cannot be used,
    and 2 if the web extra is not installed. After SIGTERM, uvicorn shuts down cleanly
    and then ends the process with that signal.
    """
    import socket
    import sqlite3

    port: int = args.port
    if not 0 <= port <= 65535:
        parser.error(f"argument --port: {port} is not in 0..65535")
    try:
        import uvicorn

        from ..web import create_app
        from ..web.errors import StorageError
        from ..web.guard import LOOPBACK_HOSTS, AllowedHosts
    except ModuleNotFoundError as error:
        if (error.name or "").partition(".")[0] not in ("starlette", "uvicorn", "sse_starlette"):
            raise
        return command_failed("serve", _WEB_EXTRA_HINT, 2)
    allowed_hosts = (*LOOPBACK_HOSTS, *args.allow_host)
    shown_db = _without_password(args.db)
    try:
        AllowedHosts(allowed_hosts)
    except ValueError as error:
        parser.error(f"argument --allow-host: {str(error).removeprefix('allowed_hosts: ')}")
    try:
        # Built from getaddrinfo so that its proto is TCP: asyncio then sets TCP_NODELAY
        # on each connection (without it, keep-alive requests wait ~40 ms for acks).
        family, kind, proto, _, address = socket.getaddrinfo(
            args.host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP
        )[0]
        sock = socket.socket(family, kind, proto)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(address)
            sock.listen(2048)
        except OSError:
            sock.close()
            raise
    except OSError as error:
        return command_failed("serve", f"cannot listen on {args.host} port {port}: {error}")
    with sock:
        try:
            limits: dict[str, Any] = {
                name: value
                for name, value in (
                    ("max_open", args.max_tables),
                    ("max_open_per_client", args.max_tables_per_client),
                    (
                        "expire_after",
                        None if args.expire_after is None else args.expire_after * 3600,
                    ),
                )
                if value is not None
            }
            app = create_app(
                args.db, allowed_hosts=allowed_hosts, bot_workers=args.bot_workers, **limits
            )
        except (OSError, sqlite3.Error, StorageError) as error:
            return command_failed("serve", f"cannot use the database {shown_db}: {error}")
        except ValueError as error:
            parser.error(str(error))
        host, real_port = sock.getsockname()[:2]
        shown = f"[{host}]" if ":" in host else host
        print(f"{PROG} serving on http://{shown}:{real_port}/ (database {shown_db})", flush=True)
        # Push streams end by themselves when the server stops (sse-starlette hears the
        # signal); anything still open after 10 s is cancelled rather than waited for.
        config = uvicorn.Config(
            app, log_level="info", access_log=False, lifespan="on", timeout_graceful_shutdown=10
        )
        try:
            uvicorn.Server(config).run(sockets=[sock])
        except KeyboardInterrupt:  # uvicorn has shut down cleanly, then re-raises Ctrl-C
            return 130
    return 0
