"""Kernel.add_plugin(OpenApiPlugin): operations called over HTTP (httpx mock transport)."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import httpx
import pytest

from sktypes.content import FunctionCallContent
from sktypes.errors import ArgumentsError, KernelError
from sktypes.kernel import Kernel
from sktypes.kernel_openapi import openapi_plugin
from sktypes.openapi import load_openapi

SPEC: dict[str, Any] = {
    "openapi": "3.0.3",
    "info": {"title": "Pet Store", "version": "1"},
    "servers": [{"url": "https://pets.test/v1"}],
    "paths": {
        "/pets/{petId}": {
            "get": {
                "operationId": "getPet",
                "parameters": [
                    {
                        "name": "petId",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "integer"},
                    },
                    {
                        "name": "tags",
                        "in": "query",
                        "schema": {"type": "array", "items": {"type": "string"}},
                    },
                    {"name": "X-Trace", "in": "header", "schema": {"type": "string"}},
                ],
                "responses": {
                    "200": {
                        "description": "a pet",
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}
                        },
                    }
                },
            }
        },
        "/pets": {
            "post": {
                "operationId": "addPet",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}
                    },
                },
                "responses": {"201": {"description": "created"}},
            }
        },
    },
    "components": {
        "schemas": {
            "Pet": {
                "type": "object",
                "required": ["id", "name"],
                "properties": {"id": {"type": "integer"}, "name": {"type": "string"}},
            }
        }
    },
}


def kernel_with(handler: Any) -> tuple[Kernel, list[httpx.Request]]:
    seen: list[httpx.Request] = []

    def record(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return handler(request)  # type: ignore[no-any-return]

    client = httpx.AsyncClient(transport=httpx.MockTransport(record))
    kernel = Kernel()
    kernel.add_plugin(openapi_plugin(load_openapi(SPEC), client=client, headers={"X-Key": "k"}))
    return kernel, seen


def test_get_substitutes_path_query_and_header_and_returns_the_json_body() -> None:
    kernel, seen = kernel_with(lambda r: httpx.Response(200, json={"id": 7, "name": "Rex"}))
    result = asyncio.run(
        kernel.invoke("PetStore.getPet", {"petId": 7, "tags": ["a", "b"], "X-Trace": "t1"})
    )
    assert result.value == {"id": 7, "name": "Rex"}
    (request,) = seen
    assert request.method == "GET"
    assert str(request.url) == "https://pets.test/v1/pets/7?tags=a&tags=b"
    assert request.headers["X-Trace"] == "t1"
    assert request.headers["X-Key"] == "k"


def test_post_sends_the_body_as_json() -> None:
    kernel, seen = kernel_with(lambda r: httpx.Response(201))
    result = asyncio.run(kernel.invoke("PetStore.addPet", {"body": {"id": 1, "name": "Tom"}}))
    assert result.value is None
    assert json.loads(seen[0].content) == {"id": 1, "name": "Tom"}
    assert seen[0].headers["Content-Type"] == "application/json"


def test_arguments_are_validated_before_any_request() -> None:
    kernel, seen = kernel_with(lambda r: httpx.Response(200, json={}))
    with pytest.raises(ArgumentsError):
        asyncio.run(kernel.invoke("PetStore.getPet", {"petId": "seven"}))
    assert seen == []


def test_an_error_status_becomes_an_error_result_for_the_model() -> None:
    kernel, _ = kernel_with(lambda r: httpx.Response(404, text="no such pet"))
    with pytest.raises(KernelError, match=re.escape("GET /pets/{petId} returned 404: no such pet")):
        asyncio.run(kernel.invoke("PetStore.getPet", {"petId": 1}))
    call = FunctionCallContent("c1", "PetStore", "getPet", '{"petId": 1}')
    result = asyncio.run(call.invoke(kernel))
    assert result.is_error
    assert "returned 404" in result.result


def test_add_plugin_accepts_an_openapi_plugin_directly() -> None:
    kernel = Kernel()
    plugin = kernel.add_plugin(load_openapi(SPEC), "Pets")
    assert sorted(plugin) == ["addPet", "getPet"]
    assert kernel.get_function("Pets.getPet").view.return_parameter.schema is not None


def test_a_generated_plugin_is_added_like_any_class_plugin() -> None:
    generated = pytest.importorskip("tests.golden.generated.date_plugin")
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(str(request.url))
        return httpx.Response(200, json={"date": "2024-01-03"})

    client = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    kernel = Kernel()
    kernel.add_plugin(generated.DatePlugin(client=client), "Date")
    result = asyncio.run(kernel.invoke("Date.GetDate1", {"numDays": 2}))
    assert result.value.date == "2024-01-03"  # the generated model, hydrated by the client
    assert seen == ["https://date.example.com/date?numDays=2"]


@pytest.mark.parametrize(
    ("ctype", "body", "expected"),
    [
        ("image/png", b"\x89PNG\r\n\x1a\n\xff\x00", b"\x89PNG\r\n\x1a\n\xff\x00"),
        ("application/pdf", b"%PDF-1.7\xff\xfe", b"%PDF-1.7\xff\xfe"),
        ("application/octet-stream", b"\x00\x01\xfe", b"\x00\x01\xfe"),
        ("text/plain; charset=utf-8", "héllo".encode(), "héllo"),
        ("application/xml", b"<pet id='7'/>", "<pet id='7'/>"),
        ("application/problem+xml", b"<p/>", "<p/>"),
    ],
)
def test_binary_bodies_are_bytes_and_text_bodies_str(
    ctype: str, body: bytes, expected: Any
) -> None:
    kernel, _ = kernel_with(
        lambda r: httpx.Response(200, content=body, headers={"Content-Type": ctype})
    )
    result = asyncio.run(kernel.invoke("PetStore.getPet", {"petId": 7}))
    assert type(result.value) is type(expected)
    assert result.value == expected
