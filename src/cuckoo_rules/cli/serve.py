"""``cuckoo-rules serve``: serve games in the browser over HTTP (needs the ``web`` extra).

The server is :mod:`cuckoo_rules.web`'s; this module reads the arguments, raises the
open-file limit, binds the port, builds the application
(:func:`cuckoo_rules.web.create_app`) and runs it with uvicorn, with the connection
limits of :mod:`cuckoo_rules.web.server`. Every limit has a flag (docs/security.md
lists them).
"""

from __future__ import annotations

import argparse
import logging
from typing import Any

from .parser import PROG, Commands, command_failed
from .warm_up import warm_in_background

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
        "--no-warm-up",
        dest="warm_up",
        action="store_false",
        help=(
            "do not compile the expert's kernels in the background at start (by default "
            "they are, so that the first hint or review is as quick as the later ones)"
        ),
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
        help="most open tables created by one client (see --ipv4-prefix) (default: 20)",
    )
    serve.add_argument(
        "--tables-per-minute",
        type=float,
        metavar="N",
        help="tables one client may create a minute, and at once; more get 429 (default: 20)",
    )
    serve.add_argument(
        "--tables-per-minute-total",
        type=float,
        metavar="N",
        help="tables all clients together may create a minute (default: 200)",
    )
    serve.add_argument(
        "--expire-after",
        type=float,
        metavar="HOURS",
        help="hours without a move after which a table expires (default: 168, a week)",
    )
    serve.add_argument(
        "--expire-unplayed",
        type=float,
        metavar="MINUTES",
        help=(
            "minutes without a move after which a table where no human has moved yet "
            "expires (default: 15)"
        ),
    )
    serve.add_argument(
        "--max-streams",
        type=int,
        metavar="N",
        help=(
            "most spectators' push streams in all, more get 503; seats' own streams are "
            "not counted (default: 1000, or half the connections the open-file limit allows)"
        ),
    )
    serve.add_argument(
        "--max-streams-per-table",
        type=int,
        metavar="N",
        help="most spectators' push streams on one table (default: 32)",
    )
    serve.add_argument(
        "--max-streams-per-client",
        type=int,
        metavar="N",
        help="most spectators' push streams of one client (default: 10)",
    )
    serve.add_argument(
        "--max-streams-per-seat",
        type=int,
        metavar="N",
        help="most push streams of one seat's token; one more ends the oldest (default: 2)",
    )
    serve.add_argument(
        "--hint-queue",
        type=int,
        metavar="N",
        help="most hint searches waiting their turn, in all; more get 429 (default: 64)",
    )
    serve.add_argument(
        "--hint-queue-per-client",
        type=int,
        metavar="N",
        help="most hint searches of one client waiting their turn; more get 429 (default: 4)",
    )
    serve.add_argument(
        "--review-simulations",
        type=int,
        metavar="N",
        help=(
            "the budget of each review of a finished game, in simulations per decision "
            "(default: the library's DEFAULT_REVIEW_SIMULATIONS)"
        ),
    )
    serve.add_argument(
        "--ipv4-prefix",
        type=int,
        metavar="BITS",
        help=(
            "IPv4 addresses sharing these first bits count as one client for every limit "
            "per client; every loopback address is one client (default: 32)"
        ),
    )
    serve.add_argument(
        "--ipv6-prefix",
        type=int,
        metavar="BITS",
        help="IPv6 addresses sharing these first bits count as one client (default: 64)",
    )
    serve.add_argument(
        "--trust-proxy",
        action="append",
        default=[],
        metavar="ADDRESS",
        help=(
            "a reverse proxy whose X-Forwarded-For names the client (repeatable; an address "
            "or a network). By default no header is believed: the client is the address "
            "connecting"
        ),
    )
    serve.add_argument(
        "--header-timeout",
        type=float,
        metavar="SECONDS",
        help=(
            "seconds a request's headers may take to arrive; slower clients get 408 and "
            "are dropped (default: 10)"
        ),
    )
    serve.add_argument(
        "--body-timeout",
        type=float,
        metavar="SECONDS",
        help="seconds a request's body may take to arrive after its headers (default: 15)",
    )
    serve.add_argument(
        "--fd-reserve",
        type=int,
        metavar="N",
        help=(
            "open files kept free for the store and the bot workers: connections beyond "
            "the open-file limit less these get 503 (default: 64, plus 8 per bot worker)"
        ),
    )
    serve.add_argument(
        "--log-lines-per-minute",
        type=int,
        metavar="N",
        help=(
            "lines of one kind logged a minute at most, such as refused connections (default: 10)"
        ),
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


def _app_limits(args: argparse.Namespace) -> dict[str, Any]:
    """The limits of :func:`~cuckoo_rules.web.create_app` given as flags (in its units)."""
    minutes = args.expire_unplayed
    hours = args.expire_after
    given = {
        "max_open": args.max_tables,
        "max_open_per_client": args.max_tables_per_client,
        "tables_per_minute": args.tables_per_minute,
        "tables_per_minute_total": args.tables_per_minute_total,
        "expire_after": None if hours is None else hours * 3600,
        "expire_unplayed": None if minutes is None else minutes * 60,
        "max_streams": args.max_streams,
        "max_streams_per_table": args.max_streams_per_table,
        "max_streams_per_client": args.max_streams_per_client,
        "max_streams_per_seat": args.max_streams_per_seat,
        "hint_queue": args.hint_queue,
        "hint_queue_per_client": args.hint_queue_per_client,
        "review_simulations": args.review_simulations,
        "ipv4_prefix": args.ipv4_prefix,
        "ipv6_prefix": args.ipv6_prefix,
    }
    return {name: value for name, value in given.items() if value is not None}


def _run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Bind the port, load the tables, print the URL and serve until interrupted.

    Returns 130 after Ctrl-C (SIGINT), 1 if the port or the database cannot be used,
    and 2 if the web extra is not installed. After SIGTERM, uvicorn shuts down cleanly
    and then ends the process with that signal.
    """
    import ipaddress
    import socket
    import sqlite3

    import attrs

    port: int = args.port
    if not 0 <= port <= 65535:
        parser.error(f"argument --port: {port} is not in 0..65535")
    try:
        # The extra's server itself first: the web modules may be imported already.
        import uvicorn  # noqa: F401

        from ..web import create_app
        from ..web.errors import StorageError
        from ..web.guard import LOOPBACK_HOSTS, AllowedHosts
        from ..web.server import (
            FD_RESERVE,
            FD_RESERVE_PER_WORKER,
            LOG_LINES_PER_MINUTE,
            ConnectionLimits,
            Server,
            connection_budget,
            raise_open_files,
            server_config,
        )
    except ModuleNotFoundError as error:
        if (error.name or "").partition(".")[0] not in (
            "starlette",
            "uvicorn",
            "sse_starlette",
            "h11",
        ):
            raise
        return command_failed("serve", _WEB_EXTRA_HINT, 2)
    try:  # the server's flags, checked before anything is opened
        limits = ConnectionLimits(
            **{
                name: value
                for name, value in (
                    ("header_timeout", args.header_timeout),
                    ("body_timeout", args.body_timeout),
                )
                if value is not None
            }
        )
    except ValueError as error:
        parser.error(str(error))
    log_lines = (
        LOG_LINES_PER_MINUTE if args.log_lines_per_minute is None else args.log_lines_per_minute
    )
    if log_lines < 1:
        parser.error(
            f"argument --log-lines-per-minute: expected a positive number, got {log_lines}"
        )
    for proxy in args.trust_proxy:
        try:
            if proxy != "*":
                ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            parser.error(f"argument --trust-proxy: {proxy!r} is not an address or a network")
    files = raise_open_files()  # before anything is opened, bot workers included
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
            app = create_app(
                args.db,
                allowed_hosts=allowed_hosts,
                bot_workers=args.bot_workers,
                **_app_limits(args),
            )
        except (OSError, sqlite3.Error, StorageError) as error:
            return command_failed("serve", f"cannot use the database {shown_db}: {error}")
        except ValueError as error:
            parser.error(str(error))
        reserve = args.fd_reserve
        if reserve is None:
            reserve = FD_RESERVE + FD_RESERVE_PER_WORKER * max(args.bot_workers, 0)
        budget = connection_budget(max(reserve, 0))
        streams = app.state.api.streams
        if budget is not None:  # spectators cannot take every connection
            streams.most = min(streams.most, max(budget // 2, 1))
        host, real_port = sock.getsockname()[:2]
        shown = f"[{host}]" if ":" in host else host
        print(f"{PROG} serving on http://{shown}:{real_port}/ (database {shown_db})", flush=True)
        if args.warm_up:  # the first hint and review as quick as the later ones
            warm_in_background("expert")
        # Push streams end by themselves when the server stops (sse-starlette hears the
        # signal); anything still open after 10 s is cancelled rather than waited for.
        config = server_config(
            app,
            attrs.evolve(limits, max_connections=budget),
            trusted_proxies=args.trust_proxy,
            log_lines_per_minute=log_lines,
            log_level="info",
            access_log=False,
            lifespan="on",
            timeout_graceful_shutdown=10,
        )
        logging.getLogger("uvicorn.error").info(
            "open files: at most %s%s; connections: at most %s (%d files kept for the store "
            "and the bot workers); spectators' streams: at most %d",
            "unknown" if files is None else files[1],
            "" if files is None or files[0] == files[1] else f" (raised from {files[0]})",
            "no limit" if budget is None else budget,
            reserve,
            streams.most,
        )
        try:
            Server(config).run(sockets=[sock])
        except KeyboardInterrupt:  # uvicorn has shut down cleanly, then re-raises Ctrl-C
            return 130
    return 0
