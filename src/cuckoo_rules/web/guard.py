"""The HTTP guard of ``cuckoo-rules serve``: what every request and every answer goes through.

:class:`HttpGuard` is the outermost layer of the application that
:func:`~cuckoo_rules.web.create_app` returns. Before a request reaches a route it refuses:

- a ``Host`` header that is missing, malformed or not one of the allowed hosts (400):
  by default the server answers to :data:`LOOPBACK_HOSTS` only, on any port, so that a
  web page whose name an attacker points at 127.0.0.1 (DNS rebinding) cannot talk to it;
- a POST, PUT, PATCH or DELETE whose ``Content-Type`` is not ``application/json``
  (415): a web page can send any other site a "simple" cross-site request with a
  ``text/plain`` or form body, or none, without asking first, but not a JSON one. A
  request with no body at all (no ``Content-Type``, no ``Transfer-Encoding``, no
  ``Content-Length`` or ``0``) that carries a seat's token (``Authorization: Bearer``)
  needs none (a rematch): a page cannot send that header to another site without asking
  first either, and a browser never adds it by itself.

Both refusals are JSON, ``{"error": "..."}``, before anything is read, stored or done.
Every answer, refusals, pages, static files and server errors included, carries
:data:`SECURITY_HEADERS`. Error messages quote at most :data:`ECHO_LIMIT` characters of
what they got (:func:`echo`).

Who a client is, for the limits per client: :func:`client_key` counts a network, not an
exact address (an IPv4 address, an IPv6 /64, every loopback address as one client), so
that a client cannot multiply its share by using more addresses of its own; and
:class:`TokenBuckets` limits how often something happens, per client and in all (the
creation of tables).
"""

from __future__ import annotations

import ipaddress
import re
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..errors import short_repr

__all__ = [
    "BODY_METHODS",
    "CONTENT_SECURITY_POLICY",
    "ECHO_LIMIT",
    "IPV4_PREFIX",
    "IPV6_PREFIX",
    "LOOPBACK_CLIENT",
    "LOOPBACK_HOSTS",
    "SECURITY_HEADERS",
    "AllowedHosts",
    "HttpGuard",
    "TokenBuckets",
    "check_prefixes",
    "client_key",
    "echo",
]

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
"""The ``Content-Security-Policy`` of every answer: the browser client's scripts, styles,
images and requests come from the server itself, never from inline code, another site or
a plug-in, and no other page may frame it."""

SECURITY_HEADERS: Mapping[str, str] = MappingProxyType(
    {
        "Content-Security-Policy": CONTENT_SECURITY_POLICY,
        "X-Frame-Options": "DENY",
        "Referrer-Policy": "no-referrer",
        "X-Content-Type-Options": "nosniff",
        "Cross-Origin-Opener-Policy": "same-origin",
    }
)
"""The headers set on every answer (they replace any of the same name)."""

LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]")
"""The hosts a server answers to by default: the loopback names, on any port."""

BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
"""The methods whose requests must declare a JSON body (``Content-Type:
application/json``)."""

ECHO_LIMIT = 40
"""The most characters of what a request sent that an error message quotes."""

IPV4_PREFIX = 32
"""The IPv4 addresses counted as one client: those with the same first 32 bits (one
address) by default (``serve --ipv4-prefix``)."""

IPV6_PREFIX = 64
"""The IPv6 addresses counted as one client: those with the same first 64 bits, the
network a single host is commonly given (``serve --ipv6-prefix``)."""

LOOPBACK_CLIENT = "loopback"
"""The client every loopback address counts as (``127.0.0.0/8`` and ``::1``)."""

_JSON_TYPE = "application/json"
_SECURITY_NAMES = frozenset(name.lower().encode("latin-1") for name in SECURITY_HEADERS)
_SECURITY_RAW = [
    (name.lower().encode("latin-1"), value.encode("latin-1"))
    for name, value in SECURITY_HEADERS.items()
]
_LABEL = r"[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?"
_HOST_NAME = re.compile(rf"{_LABEL}(?:\.{_LABEL})*")
_PORT = re.compile(r"[0-9]{0,5}")
_HOST_HELP = (
    "this server answers to localhost, 127.0.0.1 and [::1] unless it was started with "
    "--allow-host NAME for the names its clients use (a server listening on another "
    "address, such as with --host 0.0.0.0, needs it)"
)


def echo(text: str) -> str:
    """Return ``text`` as an error message quotes it: at most :data:`ECHO_LIMIT` characters.

    Args:
        text: What a request sent: a path, a method, a header.

    Returns:
        ``text`` itself when short enough, else its start followed by ``...``.

    Example:
        >>> echo("/api/tables/nope")
        '/api/tables/nope'
        >>> echo("/api/tables/" + "x" * 10_000)
        '/api/tables/xxxxxxxxxxxxxxxxxxxxxxxxx...'
    """
    return text if len(text) <= ECHO_LIMIT else text[: ECHO_LIMIT - 3] + "..."


class AllowedHosts:
    """The host names a server answers to, whatever the port.

    Each name is a host name or an IP address (an IPv6 one with or without its
    brackets), matched without regard to case or a final dot; ``"*"`` allows every host,
    and ``"*.example.org"`` allows ``example.org`` and all its subdomains.

    Args:
        names: The names; not a single string.

    Raises:
        ValueError: If ``names`` is a string or empty, or a name is not one of the above
            (with a port, say).

    Example:
        >>> hosts = AllowedHosts(["localhost", "*.example.org", "::1"])
        >>> [hosts.allows(h) for h in ("LOCALHOST:8000", "a.b.example.org", "[::1]:80")]
        [True, True, True]
        >>> [hosts.allows(h) for h in ("example.org.evil.com", "127.0.0.1", "localhost:x")]
        [False, False, False]
    """

    __slots__ = ("_any", "_domains", "_names")

    def __init__(self, names: Iterable[str]) -> None:
        if isinstance(names, str | bytes):
            raise ValueError(
                f"allowed_hosts: expected a sequence of host names, got the string "
                f"{short_repr(names)}"
            )
        self._any = False
        exact: set[str] = set()
        domains: set[str] = set()
        count = 0
        for name in names:
            count += 1
            if name == "*":
                self._any = True
            elif isinstance(name, str) and name.startswith("*."):
                domains.add(_allowed_name(name[2:], name, domain=True))
            else:
                exact.add(_allowed_name(name, name))
        if not count:
            raise ValueError("allowed_hosts: empty; give at least one host name, or '*'")
        self._names = frozenset(exact)
        self._domains = tuple(sorted(domains))

    def allows(self, host: str) -> bool:
        """Return whether a request with this ``Host`` header is answered.

        Args:
            host: The value of the header: a host name or address and an optional port.

        Returns:
            ``True`` if the header is well formed and names an allowed host.
        """
        name = _host_of(host)
        if name is None:
            return False
        if self._any or name in self._names:
            return True
        return any(name == domain or name.endswith("." + domain) for domain in self._domains)


class HttpGuard:
    """ASGI middleware: allowed hosts, JSON bodies only, security headers on every answer.

    It refuses, before the application sees them, requests whose ``Host`` is not allowed
    (400) and requests of :data:`BODY_METHODS` whose ``Content-Type`` is not
    ``application/json``, parameters such as ``charset=utf-8`` aside (415; a request
    without a body that sends a bearer token needs no ``Content-Type``); it sets
    :data:`SECURITY_HEADERS` on every answer. When the application fails before
    answering, it answers 500 itself, with those headers, and lets the exception go on
    to be logged. A WebSocket whose ``Host`` is not allowed is closed before it opens
    (the server answers 403); the lifespan scope passes through.

    Args:
        app: The application to guard.
        allowed_hosts: The hosts to answer to (see :class:`AllowedHosts`).

    Raises:
        ValueError: If ``allowed_hosts`` is not a sequence of valid names.
    """

    __slots__ = ("allowed_hosts", "app")

    def __init__(
        self, app: ASGIApp, allowed_hosts: AllowedHosts | Iterable[str] = LOOPBACK_HOSTS
    ) -> None:
        self.app = app
        self.allowed_hosts = (
            allowed_hosts
            if isinstance(allowed_hosts, AllowedHosts)
            else AllowedHosts(allowed_hosts)
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer one request (or pass a lifespan scope through)."""
        if scope["type"] == "websocket" and self._host_refusal(scope) is not None:
            await receive()  # websocket.connect
            await send({"type": "websocket.close", "code": 1008})  # the server answers 403
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def send_secured(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = [
                    (name, value)
                    for name, value in message.get("headers", ())
                    if name.lower() not in _SECURITY_NAMES
                ]
                message = {**message, "headers": headers + _SECURITY_RAW}
            await send(message)

        refusal = self._refusal(scope)
        if refusal is not None:
            status, error = refusal
            await _error(status, error)(scope, receive, send_secured)
            return
        try:
            await self.app(scope, receive, send_secured)
        except Exception:
            if not started:
                await _error(500, "internal server error")(scope, receive, send_secured)
            raise

    def _refusal(self, scope: Scope) -> tuple[int, str] | None:
        """The status and message refusing the request, or ``None`` to let it through."""
        host_refusal = self._host_refusal(scope)
        if host_refusal is not None:
            return 400, host_refusal
        if scope["method"] in BODY_METHODS and not _bodiless_with_token(scope):
            types = _header(scope, b"content-type")
            if len(types) != 1:
                got = "none" if not types else f"{len(types)} Content-Type headers"
            elif types[0].partition(";")[0].strip().lower() != _JSON_TYPE:
                got = short_repr(types[0])
            else:
                return None
            return 415, f"Content-Type: expected {_JSON_TYPE} (a JSON body), got {got}"
        return None

    def _host_refusal(self, scope: Scope) -> str | None:
        """Why the ``Host`` of the request is refused, or ``None`` if it is allowed."""
        hosts = _header(scope, b"host")
        if len(hosts) != 1:
            got = "no Host header" if not hosts else f"{len(hosts)} Host headers"
            return f"Host: expected one header, got {got}; {_HOST_HELP}"
        if not self.allowed_hosts.allows(hosts[0]):
            return f"Host: {short_repr(hosts[0])} is not allowed: {_HOST_HELP}"
        return None


def _bodiless_with_token(scope: Scope) -> bool:
    """Whether a request declares no body and no ``Content-Type``, and sends a token.

    A page may send such a request to another site only after asking (a preflight), as
    it would a JSON one: ``Authorization`` is not a header it may send freely, and a
    browser adds a ``Basic`` one by itself at most, never a ``Bearer`` one.
    """
    if _header(scope, b"content-type") or _header(scope, b"transfer-encoding"):
        return False
    tokens = _header(scope, b"authorization")
    if len(tokens) != 1 or tokens[0].strip()[:7].lower() != "bearer ":
        return False
    return all(length.strip() == "0" for length in _header(scope, b"content-length"))


def _header(scope: Scope, name: bytes) -> list[str]:
    """Every value of the header ``name`` (lower case) of a request."""
    return [value.decode("latin-1") for key, value in scope["headers"] if key == name]


def _error(status: int, message: str) -> JSONResponse:
    """An error answer of the guard, shaped like the application's."""
    return JSONResponse({"error": message}, status, headers={"Cache-Control": "no-store"})


def _allowed_name(name: object, entry: object, *, domain: bool = False) -> str:
    """The normalized form of an allowed host ``name`` (``entry``: as given, for errors)."""
    normalized: str | None = None
    if isinstance(name, str) and ":" not in name:
        normalized = _host_of(name)
        if domain and normalized is not None and not _HOST_NAME.fullmatch(normalized):
            normalized = None
    elif isinstance(name, str) and not domain:
        try:  # an IPv6 address, with or without its brackets (but without a port)
            bare = name[1:-1] if name.startswith("[") and name.endswith("]") else name
            normalized = f"[{ipaddress.IPv6Address(bare).compressed}]"
        except ValueError:
            normalized = None
    if normalized is None:
        raise ValueError(
            f"allowed_hosts: {short_repr(entry)} is not a host name, an IP address, '*' or "
            "'*.' and a domain (give no port: every port is allowed)"
        )
    return normalized


def _host_of(header: str) -> str | None:
    """The host of a ``Host`` header, lower case and without its port, or ``None``."""
    text = header.strip().lower()
    if text.startswith("["):
        end = text.find("]")
        if end < 0:
            return None
        try:
            name = f"[{ipaddress.IPv6Address(text[1:end]).compressed}]"
        except ValueError:
            return None
        rest = text[end + 1 :]
    else:
        name, colon, port = text.partition(":")
        rest = colon + port
        if name.endswith("."):
            name = name[:-1]
        if not _HOST_NAME.fullmatch(name):
            return None
    if rest and not (rest[0] == ":" and _PORT.fullmatch(rest[1:])):
        return None
    return name


def client_key(address: str, ipv4_prefix: int = IPV4_PREFIX, ipv6_prefix: int = IPV6_PREFIX) -> str:
    """Return the client an address counts as, for every limit per client.

    A client is a network, not an address: the IPv4 addresses that share their first
    ``ipv4_prefix`` bits, the IPv6 addresses that share their first ``ipv6_prefix`` bits
    (a host is commonly given a whole /64), and every loopback address is one client.
    An IPv4 address written as IPv6 (``::ffff:192.0.2.7``) counts as the IPv4 one.

    Args:
        address: The client's address as the server sees it (``request.client.host``).
        ipv4_prefix: The bits of an IPv4 address that name the client, 0 to 32.
        ipv6_prefix: The bits of an IPv6 address that name the client, 0 to 128.

    Returns:
        :data:`LOOPBACK_CLIENT`, or the network in CIDR notation; ``address`` itself
        (at most 64 characters) if it is not an IP address (a Unix socket, a test
        client), and ``""`` for none.

    Raises:
        ValueError: If a prefix is out of range.

    Example:
        >>> client_key("203.0.113.7")
        '203.0.113.7/32'
        >>> client_key("2001:db8:1:2:aaaa::1"), client_key("2001:db8:1:2:bbbb::2")
        ('2001:db8:1:2::/64', '2001:db8:1:2::/64')
        >>> client_key("127.0.0.2"), client_key("::1"), client_key("203.0.113.7", 24)
        ('loopback', 'loopback', '203.0.113.0/24')
    """
    check_prefixes(ipv4_prefix, ipv6_prefix)
    try:
        ip = ipaddress.ip_address(address.partition("%")[0])  # without an IPv6 zone
    except ValueError:
        return address[:64]
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback:
        return LOOPBACK_CLIENT
    prefix = ipv4_prefix if ip.version == 4 else ipv6_prefix
    return str(ipaddress.ip_network((ip, prefix), strict=False))


def check_prefixes(ipv4_prefix: int, ipv6_prefix: int) -> None:
    """Refuse prefixes of :func:`client_key` out of range.

    Raises:
        ValueError: If ``ipv4_prefix`` is not 0 to 32 or ``ipv6_prefix`` not 0 to 128.
    """
    for name, value, most in (("ipv4_prefix", ipv4_prefix, 32), ("ipv6_prefix", ipv6_prefix, 128)):
        if type(value) is not int or not 0 <= value <= most:
            raise ValueError(f"{name}: expected a number of bits from 0 to {most}, got {value!r}")


class TokenBuckets:
    """How often something may happen, per client and in all: token buckets.

    Each client has a bucket of ``per_client`` tokens and the server one of ``total``;
    both fill at that many tokens per ``period`` seconds, up to full. Taking a token
    from both is allowed; when either is empty, :meth:`take` says how long to wait.
    At most ``clients`` buckets are kept: beyond, full ones are forgotten (a full
    bucket is a new one), then the oldest. Safe to use from any thread.

    Args:
        per_client: Tokens per period for each client (and its burst).
        total: Tokens per period for all clients together.
        period: Seconds in which the buckets fill.
        clients: The most clients whose buckets are kept.
        clock: The clock, in seconds (:func:`time.monotonic`).

    Raises:
        ValueError: If a number is not positive.

    Example:
        >>> now = [0.0]
        >>> buckets = TokenBuckets(2, 3, period=60, clock=lambda: now[0])
        >>> [buckets.take("a"), buckets.take("a"), buckets.take("a")]
        [0.0, 0.0, 30.0]
        >>> buckets.take("b"), buckets.take("b")
        (0.0, 20.0)
        >>> now[0] = 20.0
        >>> buckets.take("b")
        0.0
    """

    __slots__ = (
        "_buckets",
        "_clients",
        "_clock",
        "_lock",
        "_total",
        "per_client",
        "period",
        "total",
    )

    def __init__(
        self,
        per_client: float,
        total: float,
        *,
        period: float = 60.0,
        clients: int = 100_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        for name, value in (("per_client", per_client), ("total", total), ("period", period)):
            if not isinstance(value, int | float) or not 0 < value < 1e9:
                raise ValueError(f"{name}: expected a positive number, got {value!r}")
        if type(clients) is not int or clients < 1:
            raise ValueError(f"clients: expected a positive integer, got {clients!r}")
        self.per_client = float(per_client)
        self.total = float(total)
        self.period = float(period)
        self._clients = clients
        self._clock = clock
        self._lock = threading.Lock()
        now = clock()
        self._total = (self.total, now)
        self._buckets: dict[str, tuple[float, float]] = {}

    def take(self, client: str) -> float:
        """Take a token for ``client`` (and one from all) if both buckets have one.

        Returns:
            0.0 if the tokens were taken, else the seconds to wait until they can be
            (nothing is taken then).
        """
        with self._lock:
            now = self._clock()
            total = _filled(self._total, self.total, self.period, now)
            mine = _filled(self._buckets.get(client), self.per_client, self.period, now)
            wait = max(
                _wait(total, self.total, self.period), _wait(mine, self.per_client, self.period)
            )
            if wait > 0:
                return wait
            self._total = (total - 1, now)
            self._buckets.pop(client, None)  # the last used, last in the order
            self._buckets[client] = (mine - 1, now)
            if len(self._buckets) > self._clients:
                self._forget(now)
            return 0.0

    def _forget(self, now: float) -> None:
        """Forget the full buckets; if still too many, the least recently used."""
        full = [
            client
            for client, bucket in self._buckets.items()
            if _filled(bucket, self.per_client, self.period, now) >= self.per_client
        ]
        for client in full:
            del self._buckets[client]
        excess = len(self._buckets) - self._clients
        for client in list(self._buckets)[: max(excess, 0)]:
            del self._buckets[client]


def _filled(bucket: tuple[float, float] | None, size: float, period: float, now: float) -> float:
    """The tokens in a bucket (``(tokens, when)``; ``None``: full) at ``now``."""
    if bucket is None:
        return size
    tokens, when = bucket
    return min(size, tokens + (now - when) * size / period)


def _wait(tokens: float, size: float, period: float) -> float:
    """Seconds until a bucket of ``tokens`` has one (0.0 if it has)."""
    return 0.0 if tokens >= 1 else (1 - tokens) * period / size
