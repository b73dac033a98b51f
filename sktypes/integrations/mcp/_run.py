"""Serving an :class:`McpServer` over stdio or streamable HTTP, and stopping cleanly."""

from __future__ import annotations

import ipaddress
import logging
import socket
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

import anyio

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
    """
    anyio.run(_serve_kw, server, transport, host, port, path, ready)


async def _serve_kw(
    server: McpServer,
    transport: Literal["stdio", "http"],
    host: str,
    port: int,
    path: str,
    ready: Callable[[str], None] | None,
) -> None:
    await serve(server, transport, host=host, port=port, path=path, ready=ready)


async def serve(
    server: McpServer,
    transport: Literal["stdio", "http"] = "stdio",
    *,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    path: str = DEFAULT_PATH,
    ready: Callable[[str], None] | None = None,
) -> None:
    """:func:`run`, inside a running event loop; the server's HTTP client is closed at the end."""
    try:
        if transport == "stdio":
            await _stdio(server)
        elif transport == "http":
            await _http(server, host, port, path, ready)
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
    server: McpServer, host: str, port: int, path: str, ready: Callable[[str], None] | None
) -> None:
    import uvicorn

    if not _is_loopback(host):
        log.warning("binding to %s: the tools are reachable from the network", host)
    app = server.streamable_http_app(streamable_http_path=path, host=host)
    family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
    sock = socket.create_server((host, port), family=family)
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{bound}{path}"
    config = uvicorn.Config(app, log_config=None, log_level="warning", access_log=False)
    userver = uvicorn.Server(config)
    log.info("serving %d tool(s) at %s", len(server.toolset.names), url)
    if ready is not None:
        ready(url)
    try:
        await userver.serve(sockets=[sock])
    finally:
        sock.close()


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
