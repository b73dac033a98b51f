"""Property: any arguments a tool's ``inputSchema`` admits reach the API as the spec describes.

Hypothesis draws arguments from each tool's ``inputSchema`` (as a client sees it); the
official client calls the tool; the local API checks the request it gets with openapi-core
against the same spec (an independent reading of OpenAPI's serialization rules) and
compares what openapi-core reads back with the arguments that were sent.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import anyio
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("mcp")
pytest.importorskip("openapi_core")

from hypothesis_jsonschema import from_schema
from openapi_core import OpenAPI
from openapi_core.contrib.werkzeug import WerkzeugOpenAPIRequest
from werkzeug.test import EnvironBuilder
from werkzeug.wrappers import Request as WerkzeugRequest

from sktypes.integrations import mcp
from sktypes.openapi import load_openapi
from tests.mcp_helpers import Seen, Upstream, connected, upstream

OK = {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object"}}}}}
SHORT = {"type": "string", "maxLength": 12}
TOKEN = {"type": "string", "pattern": "^[A-Za-z0-9]{1,8}$"}

SPEC: dict[str, Any] = {
    "openapi": "3.0.3",
    "info": {"title": "Catalog", "version": "1"},
    "servers": [{"url": "http://127.0.0.1:9"}],
    "paths": {
        "/items/{itemId}": {
            "parameters": [
                {
                    "name": "itemId",
                    "in": "path",
                    "required": True,
                    "schema": {"type": "integer", "minimum": 1},
                }
            ],
            "get": {
                "operationId": "getItem",
                "parameters": [
                    {
                        "name": "tags",
                        "in": "query",
                        "schema": {
                            "type": "array",
                            "items": {"type": "string", "enum": ["red", "blue", "big one"]},
                            "maxItems": 3,
                        },
                    },
                    {
                        "name": "limit",
                        "in": "query",
                        "schema": {"type": "integer", "minimum": 1, "maximum": 50},
                    },
                    # without allowEmptyValue, OpenAPI 3.0 forbids ``q=`` (openapi-core too)
                    {"name": "q", "in": "query", "allowEmptyValue": True, "schema": SHORT},
                    {"name": "X-Trace", "in": "header", "schema": TOKEN},
                    {"name": "sess", "in": "cookie", "schema": TOKEN},
                ],
                "responses": OK,
            },
            "put": {
                "operationId": "putFlags",
                "parameters": [{"name": "on", "in": "query", "schema": {"type": "boolean"}}],
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {"type": "array", "items": SHORT, "maxItems": 4}
                        }
                    },
                },
                "responses": OK,
            },
        },
        "/items": {
            "post": {
                "operationId": "addItem",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "required": ["name", "price"],
                                "additionalProperties": False,
                                "properties": {
                                    "name": {"type": "string", "minLength": 1, "maxLength": 20},
                                    "price": {"type": "number", "minimum": 0},
                                    "labels": {"type": "array", "items": SHORT, "maxItems": 3},
                                    "kind": {"type": "string", "enum": ["x", "y"]},
                                    "meta": {
                                        "type": "object",
                                        "additionalProperties": False,
                                        "properties": {"n": {"type": "integer"}},
                                    },
                                },
                            }
                        }
                    },
                },
                "responses": OK,
            }
        },
        "/search": {
            "get": {
                "operationId": "search",
                "parameters": [
                    {
                        "name": "filter",
                        "in": "query",
                        "style": "deepObject",
                        "explode": True,
                        "schema": {
                            "type": "object",
                            "additionalProperties": False,
                            "properties": {
                                "color": {"type": "string", "enum": ["red", "blue"]},
                                "size": {"type": "integer", "minimum": 0, "maximum": 99},
                            },
                        },
                    },
                    {
                        "name": "ids",
                        "in": "query",
                        "explode": False,
                        "schema": {
                            "type": "array",
                            "items": {"type": "integer", "minimum": 0},
                            "maxItems": 4,
                        },
                    },
                ],
                "responses": OK,
            }
        },
    },
}

PLUGIN = load_openapi(SPEC)


@dataclass
class Api:
    """The local API, and openapi-core reading the spec with the API's URL as its server."""

    upstream: Upstream
    oracle: OpenAPI


@pytest.fixture(scope="module")
def api() -> Iterator[Api]:
    local = Upstream()
    local.fallback = lambda seen: (200, {})
    with upstream(local):
        spec = copy.deepcopy(SPEC)
        spec["servers"] = [{"url": local.url}]
        yield Api(local, OpenAPI.from_dict(spec))


def _checked(seen: Seen, api: Api) -> dict[str, Any]:
    """openapi-core's reading of one request: its errors, parameters and body."""
    headers = [(k, v) for k, v in seen.headers.items() if k.lower() != "host"]
    environ = EnvironBuilder(
        method=seen.method,
        path=seen.raw_path,
        base_url=api.upstream.url,
        headers=headers,
        data=seen.body or None,
    ).get_environ()
    result = api.oracle.unmarshal_request(WerkzeugOpenAPIRequest(WerkzeugRequest(environ)))
    params = result.parameters
    return {
        "errors": [str(e) for e in result.errors],
        "path": dict(params.path),
        "query": dict(params.query),
        "header": {k.lower(): v for k, v in params.header.items()},
        "cookie": dict(params.cookie),
        "body": result.body,
    }


def _expected(name: str, args: dict[str, Any]) -> dict[str, Any]:
    """What openapi-core should read back for ``args`` of operation ``name``."""
    op = PLUGIN.operation(name)
    out: dict[str, dict[str, Any]] = {"path": {}, "query": {}, "header": {}, "cookie": {}}
    for p in op.parameters:
        value = args.get(p.argument)
        if p.argument not in args or (p.location == "query" and value in ([], {})):
            continue  # an empty list or object has no form in a query string
        key = p.name.lower() if p.location == "header" else p.name
        out[p.location][key] = value
    body = op.request_body
    return {**out, "body": args.get(body.argument) if body and body.argument else None}


def _normal(value: Any) -> Any:
    """JSON form with numbers compared by value (``2`` sent for ``2.0``)."""
    return json.loads(json.dumps(value, default=str), parse_float=float, parse_int=float)


@pytest.mark.filterwarnings("ignore:Use of allowEmptyValue:DeprecationWarning")
@settings(suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_arguments_reach_the_api_as_the_spec_describes(
    api: Api, data: st.DataObject
) -> None:
    server = mcp.server(PLUGIN, base_url=api.upstream.url)
    name = data.draw(st.sampled_from(server.toolset.names), label="tool")
    schema = server.toolset.view(name).parameters_schema
    args = data.draw(from_schema(schema), label="arguments")

    async def call() -> Any:
        async with connected(server, mode="legacy") as client:
            return await client.call_tool(name, args)

    api.upstream.seen.clear()
    result = anyio.run(call)
    assert not result.is_error, result.content
    assert len(api.upstream.seen) == 1
    got = _checked(api.upstream.seen[0], api)
    assert got["errors"] == []
    operation = server.toolset.view(name).name
    want = _expected(operation, args)
    for place in ("path", "query", "header", "cookie"):
        assert _normal({k: got[place].get(k) for k in want[place]}) == _normal(want[place]), place
    if PLUGIN.operation(operation).request_body is not None:
        assert _normal(got["body"]) == _normal(want["body"])
