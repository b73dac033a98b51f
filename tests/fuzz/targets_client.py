"""Arguments a model passes to a generated client: they reach the server as values only.

A generated plugin's path, query, header and cookie parameters are fuzzed; the request the
client sends (through the user's httpx client, here with httpx's ``MockTransport``) must
keep the URL's path structure (no dot segments, no extra segment), give each query value,
header and cookie back exactly, and add no cookie or header. Anything refused is an
:class:`sktypes.SktypesError`, never an httpx or ``ValueError`` internal.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import sys
import tempfile
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import unquote_to_bytes

import httpx
from hypothesis import strategies as st

from sktypes.errors import SktypesError
from sktypes_codegen import render_plugin
from tests.fuzz._guard import watching
from tests.fuzz._inputs import mutated
from tests.fuzz._registry import Finding, target
from tests.fuzz.targets_documents import SYSTEM_DIRS

_SPEC = {
    "openapi": "3.0.3",
    "info": {"title": "Fz", "version": "1"},
    "servers": [{"url": "http://api.test/v1"}],
    "paths": {
        "/users/{id}/profile": {
            "get": {
                "operationId": "profile",
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}},
                    {"name": "q", "in": "query", "schema": {"type": "string"}},
                    {"name": "X-Token", "in": "header", "schema": {"type": "string"}},
                    {"name": "session", "in": "cookie", "schema": {"type": "string"}},
                ],
                "responses": {
                    "200": {
                        "description": "ok",
                        "content": {"application/json": {"schema": {"type": "object"}}},
                    }
                },
            }
        }
    },
}


def _plugin_class() -> Any:
    out = Path(tempfile.mkdtemp(prefix="sktypes-fuzz-client-"))
    (out / "spec.json").write_text(json.dumps(_SPEC))
    package = f"fuzz_client_{uuid.uuid4().hex[:8]}"
    _, files = render_plugin(out / "spec.json", name=package)
    for name, content in files.items():
        (out / package / name).parent.mkdir(parents=True, exist_ok=True)
        (out / package / name).write_text(content)
    sys.path.insert(0, str(out))
    try:
        module = importlib.import_module(package)
    finally:
        sys.path.remove(str(out))
    return next(getattr(module, n) for n in module.__all__ if n.endswith("Plugin"))


_PLUGIN = _plugin_class()

_NASTY = st.sampled_from(
    ["..", ".", "%2e%2e", "../admin", "a/b", "a?b", "a#b", "abc; apikey=ATTACKER", "a,b=c",
     "x\r\nInjected: 1", "\n", "\x00", "é", "\ud800", " ", "", "=", "a\"b", "%", "+", "&x=1"]
)  # fmt: skip
_values = _NASTY | st.text(max_size=12)
_arguments = st.tuples(_values, _values | st.none(), _values | st.none(), _values | st.none())
_inputs = _arguments.map(lambda a: json.dumps(list(a)).encode("utf-8", "surrogatepass")) | mutated(
    _arguments.map(lambda a: json.dumps(list(a)).encode())
)


def _decode(data: bytes) -> list[Any]:
    try:
        values = json.loads(data)
    except ValueError:
        values = data.decode("utf-8", "replace").split("\x00")
    if not isinstance(values, list):
        values = [values]
    values = [None if v is None else str(v) for v in values][:4]
    values += [None] * (4 - len(values))
    if values[0] is None:
        values[0] = ""
    return values


def _check_request(request: httpx.Request, id_: str, q: str | None, token: str | None,
                   session: str | None) -> None:  # fmt: skip
    path = request.url.raw_path.split(b"?", 1)[0]
    segments = path.split(b"/")
    if len(segments) != 5 or segments[:3] != [b"", b"v1", b"users"] or segments[4] != b"profile":
        raise Finding(f"path parameter {id_!r} changed the path: {path!r}")
    if segments[3] in (b".", b".."):
        raise Finding(f"path parameter {id_!r} sent as a dot segment")
    if unquote_to_bytes(segments[3]) != id_.encode("utf-8", "surrogatepass"):
        raise Finding(f"path parameter {id_!r} arrived as {unquote_to_bytes(segments[3])!r}")
    if q is not None and request.url.params.get("q") != q:
        raise Finding(f"query value {q!r} arrived as {request.url.params.get('q')!r}")
    if len(request.url.params.multi_items()) > (q is not None):
        raise Finding(f"query value {q!r} added parameters: {request.url.params!r}")
    if token is not None and request.headers.get("X-Token") != token:
        raise Finding(f"header value {token!r} arrived as {request.headers.get('X-Token')!r}")
    cookie = request.headers.get("Cookie")
    if session is not None:
        pairs = [p.strip() for p in (cookie or "").split(";") if p.strip()]
        if len(pairs) != 1 or not pairs[0].startswith("session="):
            raise Finding(f"cookie value {session!r} sent as {cookie!r}")


@target("client_args", _inputs, timeout=10.0)
def client_args(data: bytes) -> None:
    """Generated-client arguments: sent as values (structure kept) or an SktypesError."""
    id_, q, token, session = _decode(data)
    sent: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return httpx.Response(200, json={})

    async def call() -> None:
        async with httpx.AsyncClient(transport=httpx.MockTransport(handler)) as client:
            plugin = _PLUGIN(client=client)
            await plugin.profile(id=id_, q=q, x_token=token, session=session)

    with watching(SYSTEM_DIRS):
        try:
            asyncio.run(call())
        except SktypesError:
            return
    if len(sent) != 1:
        raise Finding(f"{len(sent)} requests sent for one call")
    _check_request(sent[0], id_, q, token, session)
