"""Generated plugins against a server that validates every request with openapi-core.

For each OpenAPI 3.x spec below (corpus specs and the inline ones of ``tests/specs/``), the
plugin is generated and imported, and each operation is called through its carried view the
way the kernel calls it: arguments drawn from the view's parameters schema (hypothesis-
jsonschema), hydrated into the method's native types, the method called against
:class:`tests.conformance.ConformanceServer`. Every request must arrive valid; the server
answers with an instance of the operation's response schema, and the returned value, dumped
back to JSON, must be that instance (nothing lost, nothing added).

Transport limits the draws respect (not the generator's): header and cookie values are
printable ASCII (HTTP has no other), path parameters are non-empty and have no ``/`` (the
server decodes ``%2F`` before matching paths), query values are not empty strings (OpenAPI's
``allowEmptyValue`` is false unless the spec says otherwise, and openapi-core refuses ``?x=``),
form and multipart bodies hold no ``null`` and no empty array (the encoding has no spelling for
either: the member would be missing), and a raw (octet-stream, text) body is not empty (an empty
body is no body). A drawn reply openapi-core itself refuses (it reads ``nullable`` beside ``enum``
more strictly than the views do) is discarded, not used.

An operation whose spec declares no 2xx response (Twilio's redirects: ``302`` with a JSON body)
is answered with the status it declares; its request must still arrive valid, and the method
raises ``ApiError`` (there is no success value to return).
"""

from __future__ import annotations

import asyncio
import importlib
import inspect
import json
import os
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter

import sktypes as sk
from sktypes.openapi import Operation
from sktypes.remote import ApiError
from sktypes_codegen import generate_plugin
from tests.conformance import ConformanceServer, Reply, load_spec, serve
from tests.corpus_util import CORPUS
from tests.instances import instances, same_json

ROOT = Path(__file__).resolve().parents[1]
SPECS_DIR = Path(__file__).parent / "specs"

CORPUS_SPECS = {
    "petstore_v3": CORPUS / "oai-v3.0-petstore" / "petstore.yaml",
    "petstore_expanded_v3": CORPUS / "oai-v3.0-petstore-expanded" / "petstore-expanded.json",
    "uspto": CORPUS / "oai-v3.0-uspto" / "uspto.yaml",
    "link_example": CORPUS / "oai-v3.0-link-example" / "link-example.yaml",
    "api_with_examples_v3": CORPUS / "oai-v3.0-api-with-examples" / "api-with-examples.yaml",
    "non_oauth_scopes": CORPUS / "oai-v3.1-non-oauth-scopes" / "non-oauth-scopes.json",
    "twilio_oauth": CORPUS / "twilio-oauth-v1" / "twilio_oauth_v1.json",
    "twilio_messaging": CORPUS / "twilio-messaging-v1" / "twilio_messaging_v1.json",
}
LOCAL_SPECS = {p.stem.replace("-", "_"): p for p in sorted(SPECS_DIR.glob("*.yaml"))}
SPECS = {**{k: v for k, v in CORPUS_SPECS.items() if v.is_file()}, **LOCAL_SPECS}
EXAMPLES = int(os.environ.get("SKTYPES_CONFORMANCE_EXAMPLES", "8"))
"""Calls per operation (hypothesis examples); more with ``SKTYPES_CONFORMANCE_EXAMPLES``."""

_PLAIN_ASCII = st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=1)


class Generated:
    """Per spec, built once: the generated plugin class, the loaded spec, a running server."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.built: dict[str, tuple[Any, sk.OpenApiPlugin, ConformanceServer]] = {}
        self._stack = ExitStack()

    def plugin(self, key: str) -> tuple[Any, sk.OpenApiPlugin, ConformanceServer]:
        if key not in self.built:
            spec = SPECS[key]
            package = f"conformance_{key}"
            generate_plugin(spec, self.root, name=package)
            sys.path.insert(0, str(self.root))
            try:
                module = importlib.import_module(package)
            finally:
                sys.path.remove(str(self.root))
            cls = next(getattr(module, n) for n in module.__all__ if n != "ApiError")
            server = self._stack.enter_context(serve(load_spec(spec)))
            self.built[key] = (cls, sk.load_openapi(spec), server)
        return self.built[key]

    def close(self) -> None:
        self._stack.close()


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Generated]:
    built = Generated(tmp_path_factory.mktemp("conformance"))
    try:
        yield built
    finally:
        built.close()


def _cases() -> list[tuple[str, str]]:
    cases = []
    for key, spec in SPECS.items():
        loaded = sk.load_openapi(spec)
        for view in loaded.views:
            # a streamed answer is not one this server writes: streams are read against
            # tests/remote_server.py (tests/test_remote_streams.py)
            if loaded.operation(view.name).stream is None:
                cases.append((key, view.name))
    return cases


@pytest.mark.parametrize(("key", "function"), _cases())
def test_every_request_is_valid_and_every_response_hydrates_losslessly(
    generated: Generated, key: str, function: str
) -> None:
    cls, loaded, server = generated.plugin(key)
    operation = loaded.operation(function)
    plugin = cls(server.url, **_credentials(cls))
    view = next(v for v in sk.plugin_views(plugin) if v.name == function)
    assert view == loaded.view(function)
    raw = _raw_operation(load_spec(SPECS[key]), operation)
    arguments = _arguments(view, operation, raw)
    response = _response(view)
    if operation.success_status is None:  # no 2xx declared: only the request is judged
        status, ctype = _declared_status(raw)
        answer = Reply(status, ctype, b'{"redirect_to": "https://example.com"}' if ctype else b"")

        @settings(max_examples=EXAMPLES, deadline=None, database=None)
        @given(data=st.data())
        def call_declared(data: st.DataObject) -> None:
            args = data.draw(arguments, label="arguments")
            server.reply(answer)
            native = sk.hydrate(view, args, repair=False)
            assert view.native_function is not None
            with pytest.raises(ApiError):
                _run(view.native_function(**native))
            assert not server.seen[-1].errors, f"invalid request {args!r}"

        call_declared()
        return

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        database=None,
    )
    @given(data=st.data())
    def call(data: st.DataObject) -> None:
        args = data.draw(arguments, label="arguments")
        body = data.draw(response, label="response") if response is not None else None
        _check_call(server, view, operation, args, body)

    call()


def _credentials(cls: type) -> dict[str, str]:
    """A value for every credential the constructor takes (the server checks presence)."""
    fixed = {"base_url", "client", "sync_client", "timeout", "retries", "strict"}
    params = inspect.signature(cls).parameters.values()
    return {p.name: "secret" for p in params if p.kind is p.KEYWORD_ONLY and p.name not in fixed}


def _raw_operation(spec: dict[str, Any], operation: Operation) -> dict[str, Any]:
    """The operation object as written (its pointer is ``/paths/<escaped path>/<method>``)."""
    node: Any = spec
    for part in operation.pointer.lstrip("/").split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return dict(node)


def _raw_parameter(raw: dict[str, Any], name: str) -> bool:
    """Whether the written parameter ``name`` says ``allowEmptyValue: true``."""
    return any(
        isinstance(p, dict) and p.get("name") == name and p.get("allowEmptyValue") is True
        for p in raw.get("parameters") or ()
    )


def _declared_status(raw: dict[str, Any]) -> tuple[int, str | None]:
    """The first numeric status the operation declares, and its first media type."""
    for code, response in (raw.get("responses") or {}).items():
        if str(code).isdigit():
            content = (response or {}).get("content") or {}
            return int(code), next(iter(content), None)
    return 500, None


def _arguments(
    view: sk.FunctionView, operation: Operation, raw: dict[str, Any]
) -> st.SearchStrategy[Any]:
    """Arguments as a model would send them, within the transport limits (module docstring)."""
    schema = view.parameters_schema
    where = {p.argument: p.location for p in operation.parameters}
    empty_ok = {p.argument: bool(_raw_parameter(raw, p.name)) for p in operation.parameters}
    strategy = instances(schema)

    def within_limits(args: dict[str, Any]) -> bool:
        for name, value in args.items():
            location = where.get(name)
            texts = _texts(value)
            if location in ("header", "cookie") and not all(_printable(t) for t in texts):
                return False
            if location == "path" and any(not t or "/" in t for t in texts):
                return False
            if location == "query" and value == "" and not empty_ok.get(name, False):
                return False
        body = operation.request_body
        if body is not None and body.argument is not None and body.argument in args:
            value = args[body.argument]
            ctype = body.content_type.lower()
            if "form" in ctype and isinstance(value, dict):
                return not any(v is None or v == [] for v in value.values())
            if not _is_json(ctype) and value in ("", b""):
                return False
        return True

    return strategy.filter(within_limits)


def _is_json(ctype: str) -> bool:
    return ctype.endswith("json") or ctype == "*/*"


def _texts(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [*map(str, value), *(t for v in value.values() for t in _texts(v))]
    if isinstance(value, list):
        return [t for v in value for t in _texts(v)]
    return [json.dumps(value)]


def _printable(text: str) -> bool:
    return all(0x20 < ord(c) < 0x7F for c in text)


def _response(view: sk.FunctionView) -> st.SearchStrategy[Any] | None:
    schema = view.return_parameter.schema
    if schema is None:
        return None
    return instances(schema.to_python())


def _check_call(
    server: ConformanceServer,
    view: sk.FunctionView,
    operation: Operation,
    args: dict[str, Any],
    body: Any,
) -> None:
    kind = _result_kind(operation)
    if kind == "any":  # a JSON body the spec gives no schema: any JSON comes back as it is
        body = {"any": ["json", 1]}
        reply = Reply(_status(operation), "application/json", json.dumps(body).encode())
    elif kind == "json":
        reply = Reply(_status(operation), "application/json", json.dumps(body).encode())
    elif kind == "none":
        reply = Reply(_status(operation), None, b"")
    else:
        content = body if isinstance(body, str) else json.dumps(body)
        reply = Reply(_status(operation), operation.response_content_type, content.encode())
    server.reply(reply)
    before = len(server.seen)
    assert view.native_function is not None
    refused: sk.HydrationError | None = None
    try:
        native = sk.hydrate(view, args, repair=False)
    except sk.HydrationError as exc:
        refused = exc
    if refused is not None:  # refused before sending: the server must refuse it too
        with pytest.raises(ApiError):
            _run(view.native_function(**args))
        seen = server.seen[-1]
        assert seen.errors, f"{view.name}: {args!r} refused ({refused}) but the server accepts it"
        return
    try:
        result = _run(view.native_function(**native))
    except sk.HydrationError:
        if server.seen[-1].reply_errors:  # the drawn reply breaks a format (int64 bounds)
            reject()
        raise
    assert len(server.seen) == before + 1, "no request reached the server"
    seen = server.seen[-1]
    assert not seen.errors, f"{view.name}: invalid request {args!r}: {seen.errors}"
    if seen.reply_errors:  # a drawn reply openapi-core refuses (module docstring)
        reject()
    if kind == "any":
        assert result == body
    elif kind == "json":
        native_type = view.return_parameter.native_type
        dumped = TypeAdapter(native_type).dump_python(
            result, mode="json", by_alias=True, exclude_unset=True
        )
        assert same_json(dumped, body), f"{view.name}: sent {body!r}, got back {dumped!r}"
    elif kind == "text":
        assert result == reply.body.decode()
    elif kind == "bytes":
        assert result == reply.body


def _run(result: Any) -> Any:
    return asyncio.run(result) if asyncio.iscoroutine(result) else result


def _result_kind(operation: Operation) -> str:
    ctype = (operation.response_content_type or "").split(";")[0].strip().lower()
    if not ctype:
        return "none"
    if ctype == "application/json" or ctype.endswith("+json") or ctype == "*/*":
        return "json" if operation.response_schema is not None else "any"
    return "text" if ctype.startswith("text/") else "bytes"


def _status(operation: Operation) -> int:
    status = operation.success_status or "200"
    return 200 if not status.isdigit() else int(status)
