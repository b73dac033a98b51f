"""Real components for the MCP tests: a local upstream API, and the official client.

``Upstream`` is an HTTP server on 127.0.0.1 (a thread) answering from a table of routes and
recording every request it gets. ``connected`` is the in-process client of an ``McpServer``
(closed after). ``stdio_session`` starts ``sktypes serve`` as a subprocess
and connects the official ``ClientSession`` to its stdin/stdout; ``http_server`` starts it
with ``--transport http`` and yields the endpoint URL, ``http_session`` connects to it.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import parse_qsl, urlsplit

import jsonschema
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
SPECS = ROOT / "schemas" / "examples"
CORPUS = Path("/work/shared/corpus/openapi")


@dataclass
class Seen:
    """One request the upstream server got."""

    method: str
    path: str
    query: list[tuple[str, str]]
    headers: dict[str, str]
    body: bytes
    raw_path: str = ""

    def header(self, name: str) -> str | None:
        for k, v in self.headers.items():
            if k.lower() == name.lower():
                return v
        return None


Reply = tuple[int, Any] | tuple[int, Any, str]
Route = Callable[[Seen], Reply]


@dataclass
class Upstream:
    """A local API: ``routes[(METHOD, path)]`` answers; every request is kept in ``seen``."""

    routes: dict[tuple[str, str], Route] = field(default_factory=dict)
    seen: list[Seen] = field(default_factory=list)
    fallback: Route | None = None
    url: str = ""

    def route(self, method: str, path: str, reply: Route | Reply) -> None:
        self.routes[(method.upper(), path)] = reply if callable(reply) else (lambda _s, r=reply: r)

    def answer(self, seen: Seen) -> Reply:
        route = self.routes.get((seen.method, seen.path))
        if route is None and self.fallback is not None:
            route = self.fallback
        if route is None:
            return (404, {"error": f"no route {seen.method} {seen.path}"})
        return route(seen)


@contextmanager
def upstream(api: Upstream | None = None) -> Iterator[Upstream]:
    """Serve ``api`` on 127.0.0.1 (any free port) while the block runs."""
    api = api or Upstream()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _handle(self) -> None:
            parts = urlsplit(self.path)
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            seen = Seen(
                self.command,
                parts.path,
                parse_qsl(parts.query, keep_blank_values=True),
                dict(self.headers.items()),
                body,
                raw_path=self.path,
            )
            api.seen.append(seen)
            reply = api.answer(seen)
            status, payload = reply[0], reply[1]
            ctype = reply[2] if len(reply) > 2 else "application/json"  # type: ignore[misc]
            if payload is None:
                data = b""
            elif isinstance(payload, bytes):
                data = payload
            elif isinstance(payload, str) and not ctype.endswith("json"):
                data = payload.encode()
            else:
                data = json.dumps(payload).encode()
            self.send_response(status)
            if data:
                self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = _handle

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    api.url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield api
    finally:
        server.shutdown()
        server.server_close()


def serve_command(*args: str) -> list[str]:
    """``python -m sktypes serve ARGS`` with this interpreter."""
    return [sys.executable, "-m", "sktypes", "serve", *args]


@asynccontextmanager
async def stdio_session(
    *args: str, env: dict[str, str] | None = None, errlog: TextIO | None = None
) -> AsyncIterator[ClientSession]:
    """The official client over stdio, the server a real ``sktypes serve`` subprocess.

    The server's stderr goes to ``errlog`` (this process's stderr by default).
    """
    command = serve_command(*args)
    params = StdioServerParameters(
        command=command[0], args=command[1:], env=env or {}, cwd=str(ROOT)
    )
    log = errlog if errlog is not None else sys.stderr
    async with (
        stdio_client(params, errlog=log) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


@contextmanager
def http_server(*args: str, env: dict[str, str] | None = None) -> Iterator[str]:
    """``sktypes serve --transport http --port 0 ARGS``: yields the endpoint URL.

    At the end the process gets SIGTERM and must stop cleanly (exit status 0).
    """
    command = serve_command("--transport", "http", "--port", "0", *args)
    proc = subprocess.Popen(
        command,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    assert proc.stderr is not None
    url = None
    lines: list[str] = []
    deadline = time.monotonic() + 60
    while url is None and time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        lines.append(line)
        found = re.search(r"listening on (\S+)", line)
        if found:
            url = found.group(1)
    if url is None:
        proc.kill()
        proc.wait()
        proc.stderr.close()
        raise AssertionError("the server did not start:\n" + "".join(lines))
    drained: list[str] = []
    reader = threading.Thread(target=lambda: drained.extend(proc.stderr), daemon=True)  # type: ignore[arg-type]
    reader.start()
    try:
        yield url
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            code = proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            raise AssertionError("the server did not stop on SIGTERM") from None
        finally:
            reader.join(timeout=5)
            proc.stderr.close()  # left open, its pipe is collected in a later test
        assert code == 0, f"exit status {code}:\n{''.join(lines + drained)}"


@asynccontextmanager
async def http_session(url: str) -> AsyncIterator[ClientSession]:
    """The official client over streamable HTTP."""
    async with streamable_http_client(url) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


@asynccontextmanager
async def connected(server: Any, **options: Any) -> AsyncIterator[Any]:
    """The official in-process ``Client`` of ``server`` (``options``: the client's), closed after.

    ``McpServer.aclose`` closes the HTTP client the server made for remote calls: left open,
    its pooled loopback sockets are collected in a later test, which the unclosed-socket
    ``ResourceWarning`` then fails.
    """
    from mcp import Client

    try:
        async with Client(server, **options) as client:
            yield client
    finally:
        await server.aclose()


def check_structured(tool: Any, result: Any) -> None:
    """A successful result's ``structuredContent`` validates against the tool's ``outputSchema``."""
    assert not result.is_error, result.content
    if tool.output_schema is not None:
        jsonschema.Draft202012Validator(tool.output_schema).validate(result.structured_content)


def text_of(result: Any) -> str:
    """Every text block of a result, joined."""
    return "\n".join(getattr(c, "text", "") for c in result.content)
