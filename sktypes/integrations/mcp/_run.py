"""Serving an :class:`McpServer` over stdio or streamable HTTP, and stopping cleanly."""

from __future__ import annotations

import logging
import socket
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Literal

import anyio

from sktypes.integrations.mcp._access import access_for, bind_address, guarded

if TYPE_CHECKING:
    from sktypes.integrations.mcp._server import McpServer

__all__ = ["DEFAULT_HOST", "DEFAULT_PATH", "DEFAULT_PORT", "run", "serve"]

log = logging.getLogger("sktypes.mcp")

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_PATH = "/mcp"


def run(
    server: McpServer,
    transport: Literal["stdio", "http"] = "stdio",
    *,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    path: str = DEFAULT_PATH,
    ready: Callable[[str], None] | None = None,
    allowed_hosts: Sequence[str] = (),
    allowed_origins: Sequence[str] = (),
) -> None:
    """Serve ``server`` until the client leaves (stdio) or the process is stopped (http).

    Args:
        server: what :func:`sktypes.integrations.mcp.server` built.
        transport: ``stdio`` (the client started this process) or ``http`` (streamable
            HTTP at ``http://host:port/path``).
        host: the interface to bind; loopback by default (anything else exposes the tools
            to the network, and is logged as a warning).
        port: the TCP port (``0``: any free one; ``ready`` gets the URL).
        path: the endpoint's path.
        ready: called with the endpoint's URL once the HTTP server listens.
        allowed_hosts: HTTP: ``Host`` names accepted besides the defaults (``localhost``
            and loopback addresses on loopback, the bound address otherwise; ``*``: any).
        allowed_origins: HTTP: ``Origin`` values accepted besides loopback ones
            (``https://app.example.com``, ``http://host:*`` for any port; ``*``: any).
            Every request's ``Host`` and ``Origin`` are checked (421 and 403 when refused).

    Raises:
        ValueError: an allowed host or origin cannot be read.
    """
    anyio.run(_serve_kw, server, transport, host, port, path, ready, allowed_hosts, allowed_origins)


async def _serve_kw(
    server: McpServer,
    transport: Literal["stdio", "http"],
    host: str,
    port: int,
    path: str,
    ready: Callable[[str], None] | None,
    allowed_hosts: Sequence[str],
    allowed_origins: Sequence[str],
) -> None:
    await serve(
        server,
        transport,
        host=host,
        port=port,
        path=path,
        ready=ready,
        allowed_hosts=allowed_hosts,
        allowed_origins=allowed_origins,
    )


async def serve(
    server: McpServer,
    transport: Literal["stdio", "http"] = "stdio",
    *,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    path: str = DEFAULT_PATH,
    ready: Callable[[str], None] | None = None,
    allowed_hosts: Sequence[str] = (),
    allowed_origins: Sequence[str] = (),
) -> None:
    """:func:`run`, inside a running event loop; the server's HTTP client is closed at the end."""
    try:
        if transport == "stdio":
            await _stdio(server)
        elif transport == "http":
            await _http(server, host, port, path, ready, allowed_hosts, allowed_origins)
        else:
            raise ValueError(f"unknown transport {transport!r}; choose stdio or http")
    finally:
        with anyio.CancelScope(shield=True):
            await server.aclose()
        log.info("stopped")


async def _stdio(server: McpServer) -> None:
    from mcp.server.stdio import stdio_server

    from sktypes.integrations.mcp._stdio import stdio_streams

    log.info("serving %d tool(s) over stdio", len(server.toolset.names))
    options = server.create_initialization_options()
    async with stdio_streams() as pipes:
        if pipes is not None:
            await server.run(pipes[0], pipes[1], options)
            return
    async with stdio_server() as (read, write):  # not pipes: the SDK's threaded transport
        await server.run(read, write, options)


async def _http(
    server: McpServer,
    host: str,
    port: int,
    path: str,
    ready: Callable[[str], None] | None,
    allowed_hosts: Sequence[str],
    allowed_origins: Sequence[str],
) -> None:
    import uvicorn
    from mcp.server.transport_security import TransportSecuritySettings

    bind = bind_address(host)
    family = socket.getaddrinfo(bind, port, type=socket.SOCK_STREAM)[0][0]
    sock = socket.create_server((bind, port), family=family)
    try:
        bound_host, bound = sock.getsockname()[:2]
        # decided from the address bound, whatever its spelling (127.1, LOCALHOST, ::ffff:...)
        access = access_for(bound_host, allowed_hosts, allowed_origins)
        if not access.loopback:
            log.warning("binding to %s: the tools are reachable from the network", host)
        # the SDK's own check knows three spellings of loopback; this one decides, always
        settings = TransportSecuritySettings(enable_dns_rebinding_protection=False)
        app = server.streamable_http_app(streamable_http_path=path, transport_security=settings)
        shown = bind if bind != host else host
        shown = f"[{shown}]" if ":" in shown else shown
        url = f"http://{shown}:{bound}{path}"
        config = uvicorn.Config(
            guarded(app, access), log_config=None, log_level="warning", access_log=False
        )
        userver = uvicorn.Server(config)
        log.info("serving %d tool(s) at %s", len(server.toolset.names), url)
        if ready is not None:
            ready(url)
        await userver.serve(sockets=[sock])
    finally:
        sock.close()
