"""A real HTTP server on 127.0.0.1 that holds generated clients to their spec.

:class:`ConformanceServer` serves one OpenAPI 3.x document (openapi-core does not read
Swagger 2.0): every request is validated against the spec with openapi-core (the errors are
collected, and the request is answered 400), every valid one is answered with the response
the test queued — an instance of the operation's response schema, itself validated against
the spec. openapi-core does not parse a body sent under a wildcard request media type (``*/*``:
it validates the raw bytes against the schema), so the copy it reads names such a media type
``application/json``, the type the client makes it concrete as. The spec's ``servers`` are
pointed at the local address, so openapi-core matches
paths exactly as a deployment would.
"""

from __future__ import annotations

import copy
import json
import logging
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import yaml
from openapi_core import OpenAPI
from openapi_core.contrib.werkzeug import WerkzeugOpenAPIRequest, WerkzeugOpenAPIResponse
from werkzeug.serving import make_server
from werkzeug.wrappers import Request, Response

__all__ = ["ConformanceServer", "Reply", "load_spec", "serve"]

logging.getLogger("werkzeug").setLevel(logging.ERROR)  # one line per request otherwise


def load_spec(path: Path) -> dict[str, Any]:
    """The spec document as data (YAML or JSON; single-file specs only)."""
    text = path.read_text(encoding="utf-8")
    data = json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
    assert isinstance(data, dict)
    return data


@dataclass(slots=True)
class Reply:
    """What the server answers to the next valid request."""

    status: int = 200
    content_type: str | None = "application/json"
    body: bytes = b""


@dataclass(slots=True)
class Seen:
    """One request as the server received it."""

    method: str
    path: str
    query: list[tuple[str, str]]
    headers: dict[str, str]
    body: bytes
    errors: list[str] = field(default_factory=list)
    """What openapi-core finds wrong with the request."""
    reply_errors: list[str] = field(default_factory=list)
    """What openapi-core finds wrong with the queued reply as its answer (a test bug)."""


class ConformanceServer:
    """The validating server (use :func:`serve`).

    Attributes:
        url: the base URL the generated plugin must use (host, port and the spec's base path).
        seen: every request received, with its validation errors.
    """

    def __init__(self, spec: Mapping[str, Any]) -> None:
        self._spec = copy.deepcopy(dict(spec))
        self._server = make_server("127.0.0.1", 0, self._app, threaded=True)
        port = self._server.server_port
        servers = self._spec.get("servers") or [{"url": "/"}]
        base_path = urlparse(_server_url(servers[0])).path.rstrip("/")
        self.url = f"http://127.0.0.1:{port}{base_path}"
        self._spec["servers"] = [{"url": self.url}]
        for item in (self._spec.get("paths") or {}).values():  # path and operation servers
            for holder in [item, *(v for v in item.values() if isinstance(v, dict))]:
                if isinstance(holder, dict) and holder.get("servers"):
                    path = urlparse(_server_url(holder["servers"][0])).path.rstrip("/")
                    holder["servers"] = [{"url": f"http://127.0.0.1:{port}{path}"}]
        _concrete_wildcards(self._spec)
        self._openapi = OpenAPI.from_dict(self._spec)
        self._reply = Reply(204, None)
        self._lock = threading.Lock()
        self.seen: list[Seen] = []

    def reply(self, reply: Reply) -> None:
        """Answer the next valid request(s) with ``reply``."""
        with self._lock:
            self._reply = reply

    def _app(self, environ: dict[str, Any], start_response: Any) -> Any:
        request = Request(environ)
        body = request.get_data()
        seen = Seen(
            method=request.method,
            path=request.path,
            query=list(request.args.items(multi=True)),
            headers=dict(request.headers.items()),
            body=body,
        )
        wrapped = WerkzeugOpenAPIRequest(request)
        seen.errors = _errors(lambda: self._openapi.iter_request_errors(wrapped))
        with self._lock:
            self.seen.append(seen)
            reply = self._reply
        if seen.errors:
            response = Response(json.dumps(seen.errors), status=400, content_type="text/plain")
        else:
            response = Response(reply.body, status=reply.status, content_type=reply.content_type)
            if reply.content_type is None:
                response.headers.pop("Content-Type", None)
            answer = WerkzeugOpenAPIResponse(response)
            found = _errors(lambda: self._openapi.iter_response_errors(wrapped, answer))
            # openapi-core failing on a spec it reads is not the reply's fault
            seen.reply_errors = [e for e in found if not e.startswith(_CRASH)]
        return response(environ, start_response)

    def start(self) -> None:
        """Serve in a daemon thread."""
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop serving and close the socket."""
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)


@contextmanager
def serve(spec: Mapping[str, Any]) -> Iterator[ConformanceServer]:
    """Run a :class:`ConformanceServer` for ``spec`` while the block runs."""
    server = ConformanceServer(spec)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _concrete_wildcards(spec: dict[str, Any]) -> None:
    """Request bodies under ``*/*`` (or ``application/*``) read as ``application/json``."""
    bodies = [
        op.get("requestBody")
        for item in (spec.get("paths") or {}).values()
        if isinstance(item, dict)
        for op in item.values()
        if isinstance(op, dict)
    ]
    bodies.extend(((spec.get("components") or {}).get("requestBodies") or {}).values())
    for body in bodies:
        content = body.get("content") if isinstance(body, dict) else None
        if not isinstance(content, dict):
            continue
        for wildcard in ("*/*", "application/*"):
            if wildcard in content and "application/json" not in content:
                content["application/json"] = content.pop(wildcard)


def _server_url(server: Mapping[str, Any]) -> str:
    url = str(server.get("url", "/"))
    for name, variable in (server.get("variables") or {}).items():
        url = url.replace("{" + name + "}", str(variable.get("default", "")))
    return url


_CRASH = "openapi-core crashed: "


def _errors(run: Callable[[], Iterable[Exception]]) -> list[str]:
    try:
        return [_describe(e) for e in run()]
    except Exception as exc:  # openapi-core itself failing on a request is a finding too
        return [f"{_CRASH}{type(exc).__name__}: {exc}"]


def _describe(error: Exception) -> str:
    """One line per error, with the schema errors openapi-core nests inside."""
    parts = [f"{type(error).__name__}: {error}"]
    cause = error.__cause__
    while cause is not None:
        parts.append(f"{type(cause).__name__}: {cause}")
        inner = getattr(cause, "schema_errors", None)
        if inner:
            parts.extend(f"  {e.message} at {list(e.absolute_path)}" for e in inner)
        cause = cause.__cause__
    return " <- ".join(parts)
