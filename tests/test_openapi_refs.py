"""``$ref`` resolution: files, remote documents, cycles, refs on non-schema objects."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from sktypes.errors import OpenApiError
from sktypes.openapi import load_openapi

HEAD = "openapi: 3.0.3\ninfo: {title: T, version: '1'}\n"


def _returning(ref: str) -> str:
    return HEAD + (
        "paths:\n  /p:\n    get:\n      operationId: g\n      responses:\n        '200':\n"
        "          description: ok\n          content:\n            application/json:\n"
        f"              schema: {{$ref: '{ref}'}}\n"
    )


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """A local HTTP server serving ``tmp_path/www``; yields its base URL."""
    www = tmp_path / "www"
    www.mkdir()
    handler = partial(_QuietHandler, directory=str(www))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def test_remote_ref_is_fetched_only_when_allowed(tmp_path: Path, server: str) -> None:
    (tmp_path / "www" / "models.yaml").write_text(
        "Pet:\n  type: object\n  properties:\n    owner: {$ref: '#/Owner'}\nOwner: {type: string}\n"
    )
    spec = tmp_path / "api.yaml"
    spec.write_text(_returning(f"{server}/models.yaml#/Pet"))
    with pytest.raises(OpenApiError, match="refused"):
        load_openapi(spec)
    assert "refused" in load_openapi(spec, validate=False).warnings[0]
    plugin = load_openapi(spec, validate=False, allow_remote_refs=True)
    schema = plugin.view("g").return_parameter.schema
    assert schema is not None
    assert schema.to_python() == {
        "$ref": "#/$defs/Pet",
        "$defs": {
            "Owner": {"type": "string"},
            "Pet": {"type": "object", "properties": {"owner": {"$ref": "#/$defs/Owner"}}},
        },
    }


def test_missing_remote_document_is_a_one_line_error(tmp_path: Path, server: str) -> None:
    spec = tmp_path / "api.yaml"
    spec.write_text(_returning(f"{server}/absent.yaml#/Pet"))
    with pytest.raises(OpenApiError) as info:
        load_openapi(spec, allow_remote_refs=True)
    message = str(info.value)
    assert message.startswith(f"{spec}:12:15: /paths/~1p/get/responses/200/content/")
    assert "absent.yaml' cannot be fetched: Client error '404 File not found'" in message
    assert "\n" not in message


def test_recursion_across_files_stays_refs(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text("type: object\nproperties:\n  b: {$ref: 'b.yaml'}\n")
    (tmp_path / "b.yaml").write_text("type: array\nitems: {$ref: 'a.yaml'}\n")
    spec = tmp_path / "api.yaml"
    spec.write_text(_returning("a.yaml"))
    schema = load_openapi(spec).view("g").return_parameter.schema
    assert schema is not None
    value = schema.to_python()
    assert value["$defs"] == {
        "a": {"type": "object", "properties": {"b": {"$ref": "#/$defs/b"}}},
        "b": {"type": "array", "items": {"$ref": "#/$defs/a"}},
    }
    assert Draft202012Validator(value).is_valid({"b": [{"b": []}]})


def test_same_component_name_in_two_files_gets_distinct_defs(tmp_path: Path) -> None:
    for name, kind in (("one", "string"), ("two", "integer")):
        (tmp_path / f"{name}.yaml").write_text(
            f"components:\n  schemas:\n    Id: {{type: {kind}}}\n"
        )
    spec = tmp_path / "api.yaml"
    spec.write_text(
        _returning("one.yaml#/components/schemas/Id")
        + "  /q:\n    get:\n      operationId: h\n      responses:\n        '200':\n"
        "          description: ok\n          content:\n            application/json:\n"
        "              schema: {$ref: 'two.yaml#/components/schemas/Id'}\n"
    )
    plugin = load_openapi(spec)
    schemas = [v.return_parameter.schema for v in plugin.views]
    assert [s.to_python() for s in schemas if s is not None] == [
        {"$ref": "#/$defs/Id", "$defs": {"Id": {"type": "string"}}},
        {"$ref": "#/$defs/two_Id", "$defs": {"two_Id": {"type": "integer"}}},
    ]


def test_schemas_that_only_ref_each_other_are_a_cycle_error() -> None:
    spec = _returning("#/components/schemas/A") + (
        "components:\n  schemas:\n    A: {$ref: '#/components/schemas/B'}\n"
        "    B: {$ref: '#/components/schemas/A'}\n"
    )
    with pytest.raises(OpenApiError) as info:
        load_openapi(spec)
    assert str(info.value) == (
        "<string>:15:5: /components/schemas/A: $ref cycle in a schema: "
        "#/components/schemas/A → #/components/schemas/B → #/components/schemas/A"
    )


def test_refs_on_parameters_responses_bodies_and_path_items_are_followed() -> None:
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "T", "version": "1"},
        "paths": {
            "/a": {"$ref": "#/x-items/a"},
        },
        "x-items": {
            "a": {
                "post": {
                    "operationId": "p",
                    "parameters": [{"$ref": "#/components/parameters/Q"}],
                    "requestBody": {"$ref": "#/components/requestBodies/B"},
                    "responses": {"200": {"$ref": "#/components/responses/R"}},
                }
            }
        },
        "components": {
            "parameters": {"Q": {"name": "q", "in": "query", "schema": {"type": "string"}}},
            "requestBodies": {
                "B": {"required": True, "content": {"application/json": {"schema": {}}}}
            },
            "responses": {
                "R": {
                    "description": "Done.",
                    "content": {"application/json": {"schema": {"type": "boolean"}}},
                }
            },
        },
    }
    plugin = load_openapi(spec)
    view = plugin.view("p")
    assert [p.name for p in view.parameters] == ["q", "body"]
    assert view.return_parameter.description == "Done."
    assert view.return_parameter.schema is not None
    assert view.return_parameter.schema.to_python() == {"type": "boolean"}


def test_validation_does_not_fetch_a_remote_ref_that_no_operation_uses(tmp_path: Path) -> None:
    spec = tmp_path / "api.yaml"
    spec.write_text(
        HEAD + "paths: {}\ncomponents:\n  schemas:\n"
        "    Unused: {$ref: 'https://example.invalid/x.yaml'}\n"
    )
    with pytest.raises(OpenApiError) as info:
        load_openapi(spec)
    assert str(info.value) == (
        f"{spec}:6:14: /components/schemas/Unused/$ref: remote $ref refused"
        " (pass allow_remote_refs=True to fetch it)"
    )
    assert load_openapi(spec, validate=False).views == []
