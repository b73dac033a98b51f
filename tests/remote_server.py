"""A real HTTP API on 127.0.0.1 for the remote-client tests: pages, failures, OAuth2, streams.

Shared test infrastructure (pagination, streaming, retries, typed errors, auth). A stdlib
``ThreadingHTTPServer`` in a thread, HTTP/1.1 with keep-alive, one fresh server per test
(the ``remote_server`` fixture; starting one takes about a millisecond), so no state leaks
between tests. The spec describing it for the generated-client tests comes with those tests.

Routes (``N`` items ``{"id": i, "name": "item-i"}``, ``i`` from 1; ``server.item_count``):

==========================  ===========================================================
``GET /link/items``         ``?page=1&per_page=3``: a bare JSON array; ``Link`` header with
                            ``rel="next"`` (absolute URL, other query kept), ``prev``,
                            ``first``, ``last`` -- GitHub's shape
``GET /cursor/items``       ``?cursor=&limit=3``: ``{"items": [...], "next_cursor": str|null}``
``GET /token/items``        ``?pageToken=&pageSize=3``: ``{"items": [...], "nextPageToken": str}``,
                            the token absent on the last page -- Google's shape
``GET /next/items``         ``?offset=0&limit=3``: ``{"count", "next": URL|null, "previous",
                            "results": [...]}`` -- Django REST framework's shape
``GET /offset/items``       ``?offset=0&limit=3``: ``{"items": [...], "total": N}``
``GET /page/items``         ``?page=1&per_page=3``: ``{"data": [...], "has_more": bool}``
``GET /plain/items``        ``?page=1&per_page=3``: a bare array, no header: a short or empty
                            page is the only end
``GET /items/{id}``         the item, or 404 ``{"code": "not_found", "message": ...}``
``POST /orders``            201 ``{"id", "item_id", "quantity", "idempotency_key"}``; the same
                            ``Idempotency-Key`` again answers the order it created
``* /echo``                 200 ``{"method", "path", "query", "headers", "body"}`` (headers
                            lower-cased, query as lists)
``POST /oauth/token``       OAuth2 client credentials (RFC 6749 §4.4): client id and secret
                            by HTTP Basic or in the form; ``{"access_token", "token_type":
                            "Bearer", "expires_in": server.token_ttl, "scope"}``; 401
                            ``invalid_client``, 400 ``unsupported_grant_type``
``GET /secure/whoami``      needs ``Authorization: Bearer <live token>``: ``{"client_id",
                            "scope"}``; else 401 with ``WWW-Authenticate``
``GET /secure/key``         needs ``X-API-Key: server.api_key``; ``GET /secure/basic`` needs
                            HTTP Basic ``server.basic``: ``{"ok": true}`` or 401
``GET /stream/sse``         ``?count=3``: ``text/event-stream``, events ``tick`` (``id`` i,
                            ``data`` ``{"n": i, "text": ...}``, odd ones spread over several
                            ``data:`` lines, a ``: comment`` before each) then one ``done``
                            event ``{"count": N}``
``GET /stream/jsonl``       ``?count=3``: ``{"n": i, "text": ...}`` per line,
                            ``application/jsonl``; ``/stream/ndjson`` the same as
                            ``application/x-ndjson``; ``/stream/json-seq`` as RFC 7464
                            records (``\\x1e`` JSON ``\\n``), ``application/json-seq``
``GET /secure/stream``      ``/stream/jsonl`` for ``Authorization: Bearer <live token>``
                            only; else 401 with ``WWW-Authenticate``
==========================  ===========================================================

Streams answer ``QUERY`` as they answer ``GET``; they are chunked, one chunk per item,
``server.stream_delay`` seconds apart (default 0.01). Set by the test, not on the wire:

- ``server.script(method, path, *replies)``: the next requests to that route (path without
  query) get these replies, in order, before the route's own answer. A reply is
  ``Reply(status, body, headers)`` (a ``dict``/``list`` body is JSON), :data:`RESET` (the
  connection is reset: TCP RST, nothing sent) or :data:`DROP` (closed without an answer).
- ``server.hold_streams()``: streams stop after their first item until the returned event
  is set (or 10 s pass) -- proof that a client reads items as they arrive, without timing.
- ``server.malformed_at = k``: stream item ``k`` (0-based) is not JSON;
  ``server.cut_streams_after = k``: the connection is reset after ``k`` items.
- ``server.expire_tokens()``: every issued token is refused from now on (a 401 on a token
  the client still believes live); ``server.tokens_issued`` counts the grants.
- ``server.requests``: every request received (:class:`Seen`), in order, including those
  answered by a script.
"""

from __future__ import annotations

import base64
import json
import secrets
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from email.utils import format_datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

try:  # the fixture needs pytest; benchmarks/compare_remote_client.py runs the server without
    import pytest
except ImportError:  # pragma: no cover - outside the test venv
    pytest = None  # type: ignore[assignment]

__all__ = [
    "DROP",
    "RESET",
    "RemoteServer",
    "Reply",
    "Seen",
    "http_date",
    "remote_server",
]


@dataclass(frozen=True)
class Reply:
    """A scripted answer: ``body`` as ``dict``/``list`` is sent as JSON, ``str``/``bytes`` as is."""

    status: int
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)


RESET = "reset"
"""Scripted action: reset the connection (TCP RST) without answering."""
DROP = "drop"
"""Scripted action: close the connection cleanly without answering."""

Script = Reply | str


@dataclass
class Seen:
    """One request the server received."""

    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]  # lower-case names
    body: bytes
    answer: str = ""  # "200", "503", "reset", "drop", ...


def http_date(seconds_from_now: float) -> str:
    """An HTTP date (``Retry-After`` form) ``seconds_from_now`` seconds ahead."""
    import datetime as dt

    at = dt.datetime.now(dt.UTC) + dt.timedelta(seconds=seconds_from_now)
    return format_datetime(at, usegmt=True)


class RemoteServer:
    """The server's state and controls; ``url`` is its base URL once started."""

    def __init__(self) -> None:
        self.item_count = 7
        self.token_ttl = 3600
        self.clients = {"client-1": "secret-1"}
        self.api_key = "key-1"
        self.basic = ("user", "pass")
        self.stream_delay = 0.01
        self.malformed_at: int | None = None
        self.cut_streams_after: int | None = None
        self.tokens_issued = 0
        self.requests: list[Seen] = []
        self._scripts: dict[tuple[str, str], list[Script]] = {}
        self._tokens: dict[str, tuple[str, str, float]] = {}  # token -> (client, scope, expiry)
        self._orders: dict[str, dict[str, Any]] = {}
        self._gate: threading.Event | None = None
        self._lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self.url = ""

    # --- controls ------------------------------------------------------------------------

    def script(self, method: str, path: str, *replies: Script) -> None:
        """Answer the next requests to ``method path`` with ``replies``, in order."""
        with self._lock:
            self._scripts.setdefault((method.upper(), path), []).extend(replies)

    def unscript(self) -> None:
        """Drop the scripted replies not used yet."""
        with self._lock:
            self._scripts.clear()

    def hold_streams(self) -> threading.Event:
        """Make streams wait after their first item until the returned event is set."""
        self._gate = threading.Event()
        return self._gate

    def expire_tokens(self) -> None:
        """Refuse every token issued so far (the client's cache still thinks them live)."""
        with self._lock:
            self._tokens.clear()

    def seen(self, method: str, path: str) -> list[Seen]:
        """The requests received for ``method path``, in order."""
        with self._lock:
            return [s for s in self.requests if s.method == method.upper() and s.path == path]

    @property
    def items(self) -> list[dict[str, Any]]:
        """Every item the pages hold."""
        return [{"id": i, "name": f"item-{i}"} for i in range(1, self.item_count + 1)]

    # --- life cycle ------------------------------------------------------------------------

    def start(self) -> RemoteServer:
        """Listen on a free port of 127.0.0.1 (in a daemon thread)."""
        owner = self

        class Handler(_Handler):
            server_state = owner

        httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        httpd.daemon_threads = True
        httpd.block_on_close = False  # a client still reading a stream must not hang stop()
        self._httpd = httpd
        self._thread = threading.Thread(
            target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        self.url = f"http://127.0.0.1:{httpd.server_address[1]}"
        return self

    def stop(self) -> None:
        """Stop listening; held streams are released."""
        if self._gate is not None:
            self._gate.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(5)

    def __enter__(self) -> RemoteServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- answers (run in the handler's thread) ------------------------------------------

    def _record(self, seen: Seen) -> Script | None:
        with self._lock:
            self.requests.append(seen)
            queue = self._scripts.get((seen.method, seen.path))
            return queue.pop(0) if queue else None

    def _issue(self, client: str, scope: str) -> dict[str, Any]:
        token = secrets.token_urlsafe(16)
        with self._lock:
            self._tokens[token] = (client, scope, time.monotonic() + self.token_ttl)
            self.tokens_issued += 1
        body = {"access_token": token, "token_type": "Bearer", "expires_in": self.token_ttl}
        return {**body, "scope": scope} if scope else body

    def _bearer(self, headers: dict[str, str]) -> tuple[str, str] | None:
        kind, _, token = headers.get("authorization", "").partition(" ")
        with self._lock:
            live = self._tokens.get(token) if kind.lower() == "bearer" else None
        if live is None or live[2] < time.monotonic():
            return None
        return live[0], live[1]


Answer = tuple[int, Any, dict[str, str]]


def _slice(items: list[dict[str, Any]], start: int, size: int) -> list[dict[str, Any]]:
    return items[max(start, 0) : max(start, 0) + max(size, 0)]


def _int(query: dict[str, list[str]], name: str, default: int) -> int:
    try:
        return int(query.get(name, [str(default)])[-1])
    except ValueError:
        return default


def _cursor(offset: int) -> str:
    return base64.urlsafe_b64encode(f"offset:{offset}".encode()).decode().rstrip("=")


def _offset_of(cursor: str) -> int:
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        return int(text.removeprefix("offset:"))
    except ValueError:
        return 0


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_state: RemoteServer

    def setup(self) -> None:
        """No Nagle delay: headers and body are written separately (40 ms each otherwise)."""
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the tests read ``server.requests`` instead."""

    def do_GET(self) -> None:
        self._handle()

    do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = do_QUERY = do_GET

    # --- dispatch ----------------------------------------------------------------------------

    def _handle(self) -> None:
        state = self.server_state
        split = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        seen = Seen(
            self.command,
            split.path,
            parse_qs(split.query, keep_blank_values=True),
            {k.lower(): v for k, v in self.headers.items()},
            body,
        )
        scripted = state._record(seen)
        if scripted == RESET:
            seen.answer = RESET
            self._reset()
            return
        if scripted == DROP:
            seen.answer = DROP
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        if isinstance(scripted, Reply):
            seen.answer = str(scripted.status)
            self._send(scripted.status, scripted.body, scripted.headers)
            return
        stream = _STREAMS.get(split.path)
        if stream is not None and self.command in ("GET", "QUERY"):
            if split.path.startswith("/secure/") and state._bearer(seen.headers) is None:
                seen.answer = "401"
                refused = {"code": "unauthorized", "message": "credentials refused"}
                self._send(401, refused, {"WWW-Authenticate": 'Bearer error="invalid_token"'})
                return
            seen.answer = "200"
            try:
                self._stream(seen, *stream)
            except (BrokenPipeError, ConnectionResetError):  # the client stopped reading
                self.close_connection = True
            return
        status, payload, headers = self._route(seen)
        seen.answer = str(status)
        self._send(status, payload, headers)

    def _route(self, seen: Seen) -> Answer:
        state = self.server_state
        path, q = seen.path, seen.query
        items = state.items
        if seen.method == "GET" and path in _PAGES:
            return _PAGES[path](self, items, q)
        if seen.method == "GET" and path.startswith("/items/"):
            wanted = path.removeprefix("/items/")
            found = [i for i in items if str(i["id"]) == wanted]
            if found:
                return 200, found[0], {}
            return 404, {"code": "not_found", "message": f"no item {wanted}"}, {}
        if path == "/echo":
            echo = {
                "method": seen.method,
                "path": path,
                "query": q,
                "headers": seen.headers,
                "body": seen.body.decode("utf-8", "replace"),
            }
            return 200, echo, {}
        if path == "/orders" and seen.method == "POST":
            return self._order(seen)
        if path == "/oauth/token" and seen.method == "POST":
            return self._token(seen)
        if path.startswith("/secure/"):
            return self._secure(seen)
        return 404, {"code": "no_route", "message": f"no route {seen.method} {path}"}, {}

    # --- pages -------------------------------------------------------------------------------

    def _link_page(self, items: list[dict[str, Any]], q: dict[str, list[str]]) -> Answer:
        page, per_page = _int(q, "page", 1), _int(q, "per_page", 3)
        last = max(1, -(-len(items) // max(per_page, 1)))
        rels = {"first": 1, "last": last}
        if page > 1:
            rels["prev"] = page - 1
        if page < last:
            rels["next"] = page + 1
        base = f"{self.server_state.url}/link/items"
        others = [(k, v) for k, vs in q.items() if k not in ("page", "per_page") for v in vs]
        links = ", ".join(
            f'<{base}?{urlencode([*others, ("page", n), ("per_page", per_page)])}>; rel="{rel}"'
            for rel, n in sorted(rels.items())
        )
        return 200, _slice(items, (page - 1) * per_page, per_page), {"Link": links}

    def _cursor_page(self, items: list[dict[str, Any]], q: dict[str, list[str]]) -> Answer:
        start = _offset_of(q.get("cursor", [""])[-1]) if q.get("cursor", [""])[-1] else 0
        limit = _int(q, "limit", 3)
        end = start + limit
        return (
            200,
            {
                "items": _slice(items, start, limit),
                "next_cursor": _cursor(end) if end < len(items) else None,
            },
            {},
        )

    def _token_page(self, items: list[dict[str, Any]], q: dict[str, list[str]]) -> Answer:
        token = q.get("pageToken", [""])[-1]
        start, size = (_offset_of(token) if token else 0), _int(q, "pageSize", 3)
        body: dict[str, Any] = {"items": _slice(items, start, size)}
        if start + size < len(items):
            body["nextPageToken"] = _cursor(start + size)
        return 200, body, {}

    def _next_page(self, items: list[dict[str, Any]], q: dict[str, list[str]]) -> Answer:
        offset, limit = _int(q, "offset", 0), _int(q, "limit", 3)
        base = f"{self.server_state.url}/next/items"

        def at(o: int) -> str:
            return f"{base}?{urlencode({'limit': limit, 'offset': o})}"

        return (
            200,
            {
                "count": len(items),
                "next": at(offset + limit) if offset + limit < len(items) else None,
                "previous": at(max(offset - limit, 0)) if offset > 0 else None,
                "results": _slice(items, offset, limit),
            },
            {},
        )

    def _offset_page(self, items: list[dict[str, Any]], q: dict[str, list[str]]) -> Answer:
        offset, limit = _int(q, "offset", 0), _int(q, "limit", 3)
        return 200, {"items": _slice(items, offset, limit), "total": len(items)}, {}

    def _page_page(self, items: list[dict[str, Any]], q: dict[str, list[str]]) -> Answer:
        page, per_page = _int(q, "page", 1), _int(q, "per_page", 3)
        data = _slice(items, (page - 1) * per_page, per_page)
        return 200, {"data": data, "has_more": page * per_page < len(items)}, {}

    def _plain_page(self, items: list[dict[str, Any]], q: dict[str, list[str]]) -> Answer:
        page, per_page = _int(q, "page", 1), _int(q, "per_page", 3)
        return 200, _slice(items, (page - 1) * per_page, per_page), {}

    # --- orders, OAuth2, secured routes ---------------------------------------------------

    def _order(self, seen: Seen) -> Answer:
        state = self.server_state
        key = seen.headers.get("idempotency-key")
        try:
            sent = json.loads(seen.body or b"{}")
        except ValueError:
            return 400, {"code": "bad_json", "message": "the body is not JSON"}, {}
        if not isinstance(sent, dict):
            return 400, {"code": "bad_body", "message": "the body must be an object"}, {}
        with state._lock:
            if key is not None and key in state._orders:
                return 201, state._orders[key], {}
            order = {
                "id": len(state._orders) + 1,
                "item_id": sent.get("item_id"),
                "quantity": sent.get("quantity", 1),
                "idempotency_key": key,
            }
            state._orders[key or f"_anonymous{len(state._orders)}"] = order
        return 201, order, {}

    def _token(self, seen: Seen) -> Answer:
        state = self.server_state
        form = {k: v[-1] for k, v in parse_qs(seen.body.decode("latin-1")).items()}
        client, secret = form.get("client_id"), form.get("client_secret")
        kind, _, encoded = seen.headers.get("authorization", "").partition(" ")
        if kind.lower() == "basic":
            client, _, secret = base64.b64decode(encoded).decode().partition(":")
        if form.get("grant_type") != "client_credentials":
            return 400, {"error": "unsupported_grant_type"}, {}
        if client is None or state.clients.get(client) != secret:
            return 401, {"error": "invalid_client"}, {"WWW-Authenticate": "Basic"}
        return 200, state._issue(client, form.get("scope", "")), {"Cache-Control": "no-store"}

    def _secure(self, seen: Seen) -> Answer:
        state = self.server_state
        refused = (401, {"code": "unauthorized", "message": "credentials refused"})
        if seen.path == "/secure/whoami":
            who = state._bearer(seen.headers)
            if who is None:
                return (*refused, {"WWW-Authenticate": 'Bearer error="invalid_token"'})
            return 200, {"client_id": who[0], "scope": who[1]}, {}
        if seen.path == "/secure/key":
            ok = seen.headers.get("x-api-key") == state.api_key
            return (200, {"ok": True}, {}) if ok else (*refused, {})
        if seen.path == "/secure/basic":
            user, password = state.basic
            token = base64.b64encode(f"{user}:{password}".encode()).decode()
            ok = seen.headers.get("authorization") == f"Basic {token}"
            return (200, {"ok": True}, {}) if ok else (*refused, {"WWW-Authenticate": "Basic"})
        return 404, {"code": "no_route", "message": f"no route {seen.path}"}, {}

    # --- streams -----------------------------------------------------------------------------

    def _stream(self, seen: Seen, media_type: str, frame: Callable[[int, str, bool], str]) -> None:
        state = self.server_state
        count = _int(seen.query, "count", 3)
        self.send_response(200)
        self.send_header("Content-Type", media_type)
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        last = count + 1 if media_type == "text/event-stream" else count
        for i in range(last):
            if state.cut_streams_after is not None and i >= state.cut_streams_after:
                self._reset()
                return
            text = json.dumps({"n": i, "text": f"item {i}"})
            if state.malformed_at == i:
                text = '{"n": ' + str(i) + ', "text": '  # cut short: not JSON
            self._chunk(frame(i, text, i == count).encode())
            if i == 0 and state._gate is not None:
                state._gate.wait(10)
            elif state.stream_delay:
                time.sleep(state.stream_delay)
        self._chunk(b"")

    def _chunk(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()

    # --- plain answers ---------------------------------------------------------------------

    def _send(self, status: int, body: Any, headers: dict[str, str]) -> None:
        if isinstance(body, bytes):
            data, ctype = body, "application/octet-stream"
        elif isinstance(body, str):
            data, ctype = body.encode(), "text/plain; charset=utf-8"
        elif body is None:
            data, ctype = b"", ""
        else:
            data, ctype = json.dumps(body).encode(), "application/json"
        self.send_response(status)
        if ctype and not any(k.lower() == "content-type" for k in headers):
            self.send_header("Content-Type", ctype)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def _reset(self) -> None:
        """Reset the connection: SO_LINGER 0, then close sends a TCP RST."""
        self.close_connection = True
        self.wfile.flush()
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.connection.close()


def _sse(i: int, text: str, done: bool) -> str:
    if done:
        return f'event: done\ndata: {{"count": {i}}}\n\n'
    lines = text.replace(", ", ",\n").split("\n") if i % 2 else [text]
    data = "".join(f"data: {line}\n" for line in lines)
    return f": tick {i}\nevent: tick\nid: {i}\n{data}\n"


def _line(i: int, text: str, done: bool) -> str:
    return text + "\n"


def _seq(i: int, text: str, done: bool) -> str:
    return "\x1e" + text + "\n"


_STREAMS: dict[str, tuple[str, Callable[[int, str, bool], str]]] = {
    "/stream/sse": ("text/event-stream", _sse),
    "/stream/jsonl": ("application/jsonl", _line),
    "/stream/ndjson": ("application/x-ndjson", _line),
    "/stream/json-seq": ("application/json-seq", _seq),
    "/secure/stream": ("application/jsonl", _line),
}

_PAGES: dict[str, Callable[[_Handler, list[dict[str, Any]], dict[str, list[str]]], Answer]] = {
    "/link/items": _Handler._link_page,
    "/cursor/items": _Handler._cursor_page,
    "/token/items": _Handler._token_page,
    "/next/items": _Handler._next_page,
    "/offset/items": _Handler._offset_page,
    "/page/items": _Handler._page_page,
    "/plain/items": _Handler._plain_page,
}


def _fixture() -> Iterator[RemoteServer]:
    """A fresh :class:`RemoteServer` on 127.0.0.1, stopped after the test."""
    with RemoteServer() as server:
        yield server


remote_server = pytest.fixture(_fixture, name="remote_server") if pytest is not None else _fixture
