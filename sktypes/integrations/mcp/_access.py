"""Who may talk to ``sktypes serve --transport http``: the ``Host`` and ``Origin`` of each request.

A browser page on any site can send requests to a server on the user's machine, and with DNS
rebinding its own name can come to point at ``127.0.0.1``: the page's requests then carry its
name in ``Host`` and its site in ``Origin``. The MCP specification requires servers to check
``Origin`` on every connection and answer 403 to an invalid one. Here both are checked on every
request, whatever address the server is bound to, against allow-lists decided from the *bound*
address (parsed, not spelled: ``127.1``, ``127.0.0.2``, ``::ffff:127.0.0.1`` and ``LOCALHOST``
are all loopback), and anything not allowed is refused:

- ``Host`` (421 when refused; exactly one, parseable): ``localhost`` (any case) and loopback
  addresses when the server is bound to loopback; the bound address itself when bound to one
  address; ``localhost`` or any IP address when bound to all of them (``0.0.0.0``, ``::``: an
  address cannot be rebound, only a name can); plus the names given (``allowed_hosts``,
  ``--allow-host``; ``*`` allows any). The port is not compared (proxies and port mappings).
- ``Origin`` (403 when refused): absent (not a browser: command-line and SDK clients send
  none), an ``http``/``https`` origin on a loopback host, or one given (``allowed_origins``,
  ``--allow-origin``: ``scheme://host[:port]``, ``scheme://host:*`` for any port, ``*`` for
  any origin). ``null`` and anything unparseable are refused.
"""

from __future__ import annotations

import ipaddress
import logging
import re
import socket
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

__all__ = ["HttpAccess", "access_for", "bind_address", "guarded"]

log = logging.getLogger("sktypes.mcp")

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
_IPV4_SHORTHAND = re.compile(r"(?:0[xX][0-9a-fA-F]*|[0-9]+)(?:\.(?:0[xX][0-9a-fA-F]*|[0-9]+)){0,3}")
_NAME = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?")


def parse_address(text: str) -> Address | None:
    """An IP address as a URL parser reads one (``127.1`` too), IPv4-mapped ones unwrapped."""
    text = text.strip("[]")
    try:
        address: Address = ipaddress.ip_address(text)
    except ValueError:
        if not _IPV4_SHORTHAND.fullmatch(text):
            return None
        try:  # the shorthand forms browsers and inet_aton accept: 127.1, 0x7f.1, 2130706433
            address = ipaddress.IPv4Address(socket.inet_aton(text))
        except OSError:
            return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _is_localhost(name: str) -> bool:
    return name.lower().rstrip(".") == "localhost"


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address in any spelling, or ``localhost``) is the loopback."""
    if _is_localhost(host):
        return True
    address = parse_address(host)
    return address is not None and address.is_loopback


@dataclass(frozen=True, slots=True)
class HttpAccess:
    """The allow-lists of one HTTP server (see the module docstring).

    Attributes:
        bound: the address the server listens on (as the socket reports it).
        allowed_hosts: host names (or addresses) allowed besides the defaults; ``*``: any.
        allowed_origins: origins allowed besides loopback ones; ``*``: any.
    """

    bound: Address
    allowed_hosts: frozenset[str] = frozenset()
    allowed_origins: frozenset[str] = frozenset()

    @property
    def loopback(self) -> bool:
        """Whether the server listens on a loopback address only."""
        return self.bound.is_loopback

    def host_problem(self, values: Sequence[str]) -> str | None:
        """Why the request's ``Host`` header(s) are refused, or ``None``."""
        if len(values) != 1:
            return "no Host header" if not values else "more than one Host header"
        host = _host_of(values[0])
        if host is None:
            return f"an unreadable Host header {values[0][:100]!r}"
        if "*" in self.allowed_hosts or host in self.allowed_hosts:
            return None
        address = parse_address(host)
        if self.loopback:
            if _is_localhost(host) or (address is not None and address.is_loopback):
                return None
        elif self.bound.is_unspecified:
            if _is_localhost(host) or address is not None:
                return None
        elif address == self.bound:
            return None
        return f"Host {host!r} is not this server (--allow-host NAME allows a name)"

    def origin_problem(self, values: Sequence[str]) -> str | None:
        """Why the request's ``Origin`` header(s) are refused, or ``None``."""
        if not values:
            return None  # not sent by a browser
        if len(values) != 1:
            return "more than one Origin header"
        origin = _origin_of(values[0])
        if origin is None:
            return f"Origin {values[0][:100]!r} is not allowed"
        scheme, host, port = origin
        allowed = self.allowed_origins
        if "*" in allowed or f"{scheme}://{_show(host)}:{port}" in allowed:
            return None
        if f"{scheme}://{_show(host)}:*" in allowed or (
            port == _DEFAULT_PORTS[scheme] and f"{scheme}://{_show(host)}" in allowed
        ):
            return None
        if is_loopback(host):
            return None
        return f"Origin {values[0][:100]!r} is not allowed (--allow-origin ORIGIN allows a site)"


_DEFAULT_PORTS = {"http": 80, "https": 443}


def _show(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _host_of(value: str) -> str | None:
    """The host of a ``Host`` header (lower case, without port or brackets), if well-formed.

    ``name[:port]`` or ``[address][:port]``, nothing else (RFC 9110's ``uri-host [":" port]``;
    spaces and tabs around it are HTTP's optional whitespace).
    """
    value = value.strip(" \t")
    if value.startswith("["):
        end = value.find("]")
        host, rest = value[1:end], value[end + 1 :]
        if end < 0 or ":" not in host or parse_address(host) is None:
            return None
    else:
        name, colon, port = value.partition(":")
        host, rest = name[:-1] if name.endswith(".") else name, colon + port
        if not _NAME.fullmatch(host):
            return None
    port = rest[1:]
    if rest and (rest[0] != ":" or (port and not (port.isdigit() and int(port) <= 65535))):
        return None
    return host.lower()


def _origin_of(value: str) -> tuple[str, str, int] | None:
    """``(scheme, host, port)`` of an ``Origin`` header, if it is a web origin.

    Exactly ``scheme://host[:port]`` (RFC 6454): nothing after the authority, not even an
    empty query or fragment (``http://localhost?``), which ``urlsplit`` reads as none.
    """
    text = value.strip()
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or text[len(parts.scheme) :] != f"://{parts.netloc}":
        return None
    if parts.username is not None or parts.password is not None:
        return None
    host = _host_of(parts.netloc)
    if host is None:
        return None
    return scheme, host, port if port is not None else _DEFAULT_PORTS[scheme]


def _normal_origin(value: str) -> str:
    """An ``--allow-origin`` value written as the checks compare it."""
    value = value.strip()
    if value == "*":
        return value
    if value.endswith(":*"):
        origin = _origin_of(value[:-2])
        if origin is None:
            raise ValueError(f"not an origin (scheme://host[:port]): {value!r}")
        return f"{origin[0]}://{_show(origin[1])}:*"
    origin = _origin_of(value)
    if origin is None:
        raise ValueError(f"not an origin (scheme://host[:port]): {value!r}")
    return f"{origin[0]}://{_show(origin[1])}:{origin[2]}"


def _normal_host(value: str) -> str:
    value = value.strip()
    if value == "*":
        return value
    host = _host_of(value)
    if host is None:
        raise ValueError(f"not a host name or address: {value!r}")
    return host


def access_for(
    bound: str, allowed_hosts: Sequence[str] = (), allowed_origins: Sequence[str] = ()
) -> HttpAccess:
    """The allow-lists of a server bound to ``bound`` (the socket's own address).

    Raises:
        ValueError: an allowed host or origin cannot be read (the message names it).
    """
    address = parse_address(bound)
    if address is None:  # pragma: no cover - a socket reports a numeric address
        raise ValueError(f"not an address: {bound!r}")
    return HttpAccess(
        address,
        frozenset(_normal_host(h) for h in allowed_hosts),
        frozenset(_normal_origin(o) for o in allowed_origins),
    )


def bind_address(host: str) -> str:
    """What to bind for ``--host``: an IPv4-mapped IPv6 address binds its IPv4 address."""
    address = parse_address(host)
    if address is not None and isinstance(address, ipaddress.IPv4Address) and ":" in host:
        return str(address)
    return host


Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


def guarded(app: App, access: HttpAccess) -> App:
    """``app`` behind the checks: a refused request gets 421 (Host) or 403 (Origin), no more."""

    async def guard(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await app(scope, receive, send)
            return
        hosts: list[str] = []
        origins: list[str] = []
        for key, value in scope.get("headers", ()):
            name = key.lower()
            if name == b"host":
                hosts.append(value.decode("latin-1"))
            elif name == b"origin":
                origins.append(value.decode("latin-1"))
        problem = access.host_problem(hosts)
        status = 421
        if problem is None:
            problem, status = access.origin_problem(origins), 403
        if problem is None:
            await app(scope, receive, send)
            return
        log.warning("refused a request: %s", problem)
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        body = (problem + "\n").encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"text/plain; charset=utf-8"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    return guard
