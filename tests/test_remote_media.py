"""Media types and drift (issue 24 §2, §3, §4, §6).

``Accept`` from the declared media types (JSON first); the body read by the
``Content-Type`` received, a type the result cannot hold a typed outcome (never a JSON
decoding error); wildcard request types made concrete by the caller or the bytes'
signature, never one the spec excludes; ``format: byte`` as base64 everywhere; a response
that breaks its schema returned as received with a warning, or raised under ``strict``.
"""

from __future__ import annotations

import base64
import datetime as dt
import email
import email.policy
import inspect
import json
import typing
import warnings
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import httpx
import pytest

from sktypes import load_openapi
from sktypes.errors import ArgumentsError
from sktypes.generated import Base64
from sktypes.remote import (
    RAW,
    ApiClient,
    RemoteRequestError,
    Request,
    ResponseDriftError,
    ResponseDriftWarning,
    UnexpectedMediaType,
    accept_header,
    read_result,
    sniff,
)
from sktypes.validate import validate_arguments
from tests.remote_rules import (
    MODES,
    SPEC,
    call,
    drifted,
    generated,
    invoke,
    kernel_function,
    serve_call,
    text,
)
from tests.remote_server import RemoteServer, Reply
from tests.remote_util import import_generated

BYTE = {"type": "string", "format": "byte"}
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
XML = Reply(200, "<item><id>1</id></item>", {"Content-Type": "application/xml"})


# --- Accept ---------------------------------------------------------------------------


def test_accept_puts_json_first_and_the_rest_after() -> None:
    assert accept_header(["application/xml", "application/json"]) == (
        "application/json, application/xml;q=0.9"
    )
    assert accept_header(["image/*", "application/json"]) == "application/json, image/*;q=0.5"
    assert accept_header(["*/*"]) == "*/*;q=0.1"
    assert accept_header(["text/plain", "application/problem+json"]) == (
        "application/problem+json, text/plain;q=0.9"
    )
    assert accept_header([]) is None


@pytest.mark.parametrize("mode", MODES)
def test_the_generated_client_sends_accept_from_the_declared_types(
    rules: Any, remote_server: RemoteServer, mode: str
) -> None:
    call(generated(rules, remote_server), mode, "get_item", 1)
    (seen,) = remote_server.seen("GET", "/items/1")
    assert seen.headers["accept"] == "application/json, application/xml;q=0.9, text/plain;q=0.9"


def test_a_swagger2_petstore_is_asked_for_json_before_xml() -> None:
    spec = {
        "swagger": "2.0",
        "info": {"title": "Pets", "version": "1"},
        "host": "pets.test",
        "produces": ["application/xml", "application/json"],
        "paths": {
            "/pets/{id}": {
                "get": {
                    "operationId": "getPet",
                    "parameters": [
                        {"name": "id", "in": "path", "required": True, "type": "integer"}
                    ],
                    "responses": {"200": {"description": "ok", "schema": {"type": "object"}}},
                }
            }
        },
    }
    seen: list[httpx.Request] = []

    def api(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"id": 1})

    from sktypes.kernel import openapi_plugin

    client = httpx.AsyncClient(transport=httpx.MockTransport(api))
    (fn,) = openapi_plugin(load_openapi(spec), client=client).values()
    assert invoke(fn, {"id": 1}) == {"id": 1}
    assert seen[0].headers["accept"] == "application/json, application/xml;q=0.9"


# --- what was received ----------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_xml_where_a_model_was_declared_is_a_typed_outcome(
    rules: Any, remote_server: RemoteServer, mode: str
) -> None:
    remote_server.script("GET", "/items/1", XML)
    with pytest.raises(UnexpectedMediaType) as info:
        call(generated(rules, remote_server), mode, "get_item", 1)
    assert info.value.media_type == "application/xml"
    assert info.value.body == XML.body
    assert info.value.status_code == 200


def test_kernel_openapi_and_serve_return_what_was_received(
    remote_server: RemoteServer, package_dir: Any
) -> None:
    remote_server.script("GET", "/items/1", XML)
    assert invoke(kernel_function(remote_server, "getItem"), {"id": 1}) == XML.body
    remote_server.script("GET", "/items/1", XML)
    result = serve_call(SPEC, remote_server, "getItem", {"id": 1})
    assert XML.body in text(result)  # returned, with the drift warning: JSON was declared
    assert "drift" in text(result)


@pytest.mark.parametrize("mode", MODES)
def test_a_string_declared_under_any_type_is_read_as_the_text_received(
    rules: Any, remote_server: RemoteServer, mode: str
) -> None:
    remote_server.script("GET", "/text", Reply(200, "plain words", {"Content-Type": "text/plain"}))
    assert call(generated(rules, remote_server), mode, "get_text") == "plain words"
    remote_server.script("GET", "/text", Reply(200, "a JSON string"))
    assert call(generated(rules, remote_server), mode, "get_text") == "a JSON string"
    remote_server.script("GET", "/text", Reply(200, "<p>hi</p>", {"Content-Type": "text/html"}))
    assert invoke(kernel_function(remote_server, "getText"), {}) == "<p>hi</p>"


def test_an_image_where_json_was_declared_keeps_its_bytes_and_media_type() -> None:
    response = httpx.Response(200, content=PNG, headers={"Content-Type": "image/png"})
    with pytest.raises(UnexpectedMediaType) as info:
        read_result("getPet", response, dict[str, int])
    assert info.value.content == PNG and info.value.media_type == "image/png"
    assert read_result("getPet", response, RAW) == PNG
    assert read_result("getPet", response, bytes) == PNG
    broken = httpx.Response(200, content=b"{not json", headers={"Content-Type": "application/json"})
    with pytest.raises(UnexpectedMediaType):
        read_result("getPet", broken, dict[str, int])
    assert read_result("getPet", broken, str) == "{not json"


# --- wildcard request media types -----------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_an_image_body_is_sent_as_the_type_its_bytes_prove(
    rules: Any, remote_server: RemoteServer, mode: str
) -> None:
    plugin = generated(rules, remote_server)
    call(plugin, mode, "upload", PNG)
    call(plugin, mode, "upload", b"\x00\x00\x01\x00icon", content_type="image/x-icon")
    sent = [s.headers["content-type"] for s in remote_server.seen("POST", "/echo")]
    assert sent == ["image/png", "image/x-icon"]
    with pytest.raises(RemoteRequestError, match="pass content_type="):
        call(plugin, mode, "upload", b"no signature here")
    with pytest.raises(RemoteRequestError, match="'text/plain' is not one the operation accepts"):
        call(plugin, mode, "upload", PNG, content_type="text/plain")
    assert len(remote_server.seen("POST", "/echo")) == 2  # the refused ones were never sent


def test_signatures_that_prove_a_media_type() -> None:
    assert sniff(PNG) == "image/png"
    assert sniff(b"\xff\xd8\xff\xe0....") == "image/jpeg"
    assert sniff(b"GIF87a") == sniff(b"GIF89a") == "image/gif"
    assert sniff(b"RIFF\x00\x00\x00\x00WEBPVP8 ") == "image/webp"
    assert sniff(b"%PDF-1.7") == "application/pdf"
    assert sniff(b"RIFF\x00\x00\x00\x00WAVE") is None
    assert sniff(b"") is None


def test_kernel_openapi_sends_an_image_argument_as_its_type(remote_server: RemoteServer) -> None:
    invoke(kernel_function(remote_server, "upload"), {"body": "GIF89a\x01\x00"})
    assert remote_server.seen("POST", "/echo")[0].headers["content-type"] == "image/gif"


# --- format: byte ---------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_format_byte_parameters_are_base64_on_the_wire(
    rules: Any, remote_server: RemoteServer, mode: str
) -> None:
    raw = b"\xff\x00\r\nnot utf-8 \x80"
    echo = call(generated(rules, remote_server), mode, "echo", x_blob=raw, blob=raw)
    encoded = base64.b64encode(raw).decode()
    assert echo.headers["x-blob"] == encoded
    assert echo.query == {"blob": [encoded]}


def test_a_view_refuses_a_format_byte_value_that_is_not_base64() -> None:
    view = load_openapi(SPEC).view("echo")
    validate_arguments(view, {"X-Blob": base64.b64encode(b"\xff").decode()})
    with pytest.raises(ArgumentsError, match="is not a 'byte'"):
        validate_arguments(view, {"X-Blob": "not base64!"})
    with pytest.raises(ArgumentsError):
        validate_arguments(view, {"blob": "abc"})  # unpadded


def test_format_byte_in_a_json_body_and_a_response() -> None:
    import pydantic

    class Blob(pydantic.BaseModel):
        data: Base64

    seen: list[bytes] = []

    def api(request: httpx.Request) -> httpx.Response:
        seen.append(request.content)
        return httpx.Response(
            200, content=request.content, headers={"Content-Type": "application/json"}
        )

    schema = (
        load_openapi(
            {
                "openapi": "3.0.3",
                "info": {"title": "t", "version": "1"},
                "paths": {
                    "/b": {
                        "post": {
                            "requestBody": {
                                "content": {"application/json": {"schema": {"type": "object"}}}
                            },
                            "responses": {
                                "200": {
                                    "description": "ok",
                                    "content": {
                                        "application/json": {
                                            "schema": {
                                                "type": "object",
                                                "properties": {
                                                    "data": {"type": "string", "format": "byte"}
                                                },
                                            }
                                        }
                                    },
                                }
                            },
                        }
                    }
                },
            }
        )
        .views[0]
        .return_parameter.schema
    )
    api_client = ApiClient(
        "https://api.test", sync_client=httpx.Client(transport=httpx.MockTransport(api))
    )
    request = Request(
        "op",
        "post",
        "/b",
        body={"data": b"\xff\xfe"},
        content_type="application/json",
        send_body=True,
    )
    value = api_client._call_sync(request, Blob, schema=schema)
    assert json.loads(seen[0]) == {"data": "//4="}
    assert value == Blob(data=b"\xff\xfe")  # bytes given are the bytes held
    assert Blob.model_validate_json('{"data": "//4="}').data == b"\xff\xfe"
    assert Blob(data=b"\xff\xfe").model_dump(mode="json") == {"data": "//4="}
    with pytest.raises(pydantic.ValidationError, match="not base64"):
        Blob.model_validate_json('{"data": "//4"}')


BYTES_EVERYWHERE = {
    "openapi": "3.0.3",
    "info": {"title": "Bytes Everywhere", "version": "1"},
    "paths": {
        "/p/{blob}": {
            "post": {
                "operationId": "form",
                "parameters": [
                    {"name": "blob", "in": "path", "required": True, "schema": BYTE},
                    {"name": "c", "in": "cookie", "schema": BYTE},
                    {"name": "q", "in": "query", "schema": {"type": "array", "items": BYTE}},
                ],
                "requestBody": {
                    "content": {
                        "application/x-www-form-urlencoded": {
                            "schema": {"type": "object", "properties": {"f": BYTE}}
                        }
                    }
                },
                "responses": {"204": {"description": "ok"}},
            }
        },
        "/m": {
            "post": {
                "operationId": "multi",
                "requestBody": {
                    "content": {
                        "multipart/form-data": {
                            "schema": {
                                "type": "object",
                                "properties": {
                                    "f": BYTE,
                                    "fs": {"type": "array", "items": BYTE},
                                    "raw": {"type": "string", "format": "binary"},
                                },
                            }
                        }
                    }
                },
                "responses": {"204": {"description": "ok"}},
            }
        },
    },
}


def _content_encoded(value: Any) -> Any:
    """``BYTES_EVERYWHERE`` as OpenAPI 3.1 says it: ``contentEncoding: base64``."""
    if value == BYTE:
        return {"type": "string", "contentEncoding": "base64"}
    if isinstance(value, dict):
        return {k: _content_encoded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_content_encoded(v) for v in value]
    return value


@pytest.mark.parametrize("spelling", ["format: byte", "contentEncoding: base64"])
def test_format_byte_in_path_cookie_form_and_multipart(tmp_path: Path, spelling: str) -> None:
    """Base64 in every location; in multipart a text part, while format: binary is a file.

    OpenAPI 3.1's ``contentEncoding: base64`` is the same bytes (it was typed ``str``)."""
    spec = tmp_path / "bytes.json"
    document = BYTES_EVERYWHERE
    if spelling != "format: byte":
        document = {**_content_encoded(document), "openapi": "3.1.0"}
    spec.write_text(json.dumps(document))
    name = "bytes_everywhere" if spelling == "format: byte" else "bytes_everywhere_31"
    package = import_generated(spec, tmp_path / "out", name)
    seen: list[httpx.Request] = []

    def api(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(204)

    client = httpx.Client(transport=httpx.MockTransport(api))
    plugin_class = next(v for k, v in vars(package).items() if k.endswith("Plugin"))
    plugin = plugin_class("https://api.test", sync_client=client)
    assert Base64 in typing.get_args(package.models.FormBody.model_fields["f"].annotation)
    assert inspect.signature(plugin.form_sync).parameters["blob"].annotation in ("Base64", Base64)
    raw = b"\xff\x00\r\n/+?"
    text = base64.b64encode(raw).decode()  # '/wANCi8rPw=='
    plugin.form_sync(blob=raw, c=raw, q=[raw, b"a"], body=package.models.FormBody(f=raw))
    plugin.multi_sync(body=package.models.MultiBody(f=raw, fs=[raw], raw=raw))
    form, multi = seen
    assert form.url.raw_path.decode() == "/p/%2FwANCi8rPw%3D%3D?q=%2FwANCi8rPw%3D%3D&q=YQ%3D%3D"
    assert form.headers["cookie"] == f"c={text}"
    assert parse_qs(form.content.decode()) == {"f": [text]}
    parts = email.message_from_bytes(
        b"Content-Type: " + multi.headers["content-type"].encode() + b"\r\n\r\n" + multi.content,
        policy=email.policy.HTTP,
    )
    got = {p.get_param("name", header="content-disposition"): p for p in parts.iter_parts()}
    assert got["f"].get_payload(decode=True) == text.encode()  # base64 text, no filename
    assert got["f"].get_filename() is None and got["fs"].get_payload(decode=True) == text.encode()
    assert got["raw"].get_payload(decode=True) == raw  # format: binary: the bytes, a file part
    assert got["raw"].get_content_type() == "application/octet-stream"


# --- drift ----------------------------------------------------------------------------


DRIFTED = Reply(200, {"id": "7", "extra": [1, 2]})


@pytest.mark.parametrize("mode", MODES)
def test_a_drifted_response_is_returned_as_received_with_warnings(
    rules: Any, remote_server: RemoteServer, mode: str
) -> None:
    remote_server.script("GET", "/items/7", DRIFTED)
    with pytest.warns(ResponseDriftWarning) as caught:
        item = call(generated(rules, remote_server), mode, "get_item", 7)
    assert isinstance(item, rules.models.Item)
    assert item.id == "7"  # not coerced
    assert item.model_extra == {"extra": [1, 2]}  # not dropped
    assert not hasattr(item, "name")  # missing stays missing
    drift = sorted((w.message.pointer, str(w.message.value)) for w in caught)
    assert ("/id", "7") in drift
    assert any("'name' is a required property" in str(w.message) for w in caught)
    first = caught[0].message
    assert first.operation == "getItem"
    assert json.loads(first.body) == DRIFTED.body  # the raw body is reachable


@pytest.mark.parametrize("mode", MODES)
def test_strict_raises_per_client_and_per_call(
    rules: Any, remote_server: RemoteServer, mode: str
) -> None:
    remote_server.script("GET", "/items/7", DRIFTED, DRIFTED, DRIFTED)
    with pytest.raises(ResponseDriftError) as info:
        call(generated(rules, remote_server, strict=True), mode, "get_item", 7)
    assert {p.pointer for p in info.value.problems} >= {"/id", ""}
    assert json.loads(info.value.body) == DRIFTED.body
    with pytest.raises(ResponseDriftError):
        call(generated(rules, remote_server), mode, "get_item", 7, strict=True)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        lax = call(generated(rules, remote_server, strict=True), mode, "get_item", 7, strict=False)
    assert lax.id == "7"


@pytest.mark.parametrize("mode", MODES)
def test_a_response_that_fits_raises_no_warning(
    rules: Any, remote_server: RemoteServer, mode: str
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        item = call(generated(rules, remote_server, strict=True), mode, "get_item", 3)
    assert item == rules.models.Item(id=3, name="item-3")


def test_kernel_openapi_follows_the_same_drift_rule(remote_server: RemoteServer) -> None:
    remote_server.script("GET", "/items/7", DRIFTED, DRIFTED)
    with pytest.warns(ResponseDriftWarning) as caught:
        assert invoke(kernel_function(remote_server, "getItem"), {"id": 7}) == DRIFTED.body
    shown = [str(w.message) for w in caught]
    assert "getItem: response drift at /id: '7' is not of type 'integer' (got 7)" in shown
    assert any("'name' is a required property" in line for line in shown)
    with pytest.raises(ResponseDriftError):
        invoke(kernel_function(remote_server, "getItem", strict=True), {"id": 7})


@pytest.mark.parametrize("target", ["spec", "package"])
def test_serve_reports_the_same_drift_and_returns_the_body(
    remote_server: RemoteServer, package_dir: Any, target: str
) -> None:
    remote_server.script("GET", "/items/7", DRIFTED)
    result = serve_call(
        SPEC if target == "spec" else package_dir, remote_server, "getItem", {"id": 7}
    )
    value, lines = drifted(result)  # the whole body, with the problems beside it
    assert value == DRIFTED.body
    assert any(line.startswith("$.id:") for line in lines)
    remote_server.script("GET", "/items/7", DRIFTED)
    failing = serve_call(
        SPEC if target == "spec" else package_dir,
        remote_server,
        "getItem",
        {"id": 7},
        drift="error",
    )
    assert failing.is_error and "does not match the declared output schema" in text(failing)


def test_lenient_types_what_fits_and_keeps_the_rest_as_received() -> None:
    from typing import Annotated

    import pydantic

    from sktypes.remote._drift import lenient

    class Pet(pydantic.BaseModel):
        model_config = pydantic.ConfigDict(extra="allow")
        id: int
        born: dt.date | None = None

    pets = lenient(
        Annotated[list[Pet], pydantic.Field(max_length=1)],
        [{"id": 1, "born": "2020-01-02"}, {"id": "two", "tag": None}],
    )
    assert len(pets) == 2  # the constraint broken: nothing dropped
    assert pets[0] == Pet(id=1, born=dt.date(2020, 1, 2))  # what fits is typed
    assert pets[1].id == "two" and pets[1].model_extra == {"tag": None}  # the rest as received
    assert lenient(int | str, 1.5) == 1.5
    assert lenient(dict[str, Pet], {"a": {"id": "x"}})["a"].id == "x"
    assert lenient(Pet | None, {"id": "1"}).id == "1"  # no coercion of "1" to 1


@pytest.mark.parametrize("kind", ["application/x-www-form-urlencoded", "multipart/form-data"])
def test_an_optional_form_body_left_out_sends_no_fields(kind: str) -> None:
    """rclone's operationsUploadfile (an optional form body): None was refused as a non-object."""
    from sktypes.remote._body import encode_body

    assert encode_body(None, kind, "upload") == ({}, None)
