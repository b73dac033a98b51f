"""The conformance harness builds arguments from the spec (tests/vendor/arguments.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import sktypes as sk
from tests.vendor.arguments import Unsatisfiable, arguments, operation_examples
from tests.vendor.run import _raw_operation, _resolve

# GitHub's secret-scanning-custom-pattern-to-update: no `type`, properties beside an anyOf of
# `required` lists; the builder read each option alone as a string and sent "s"
UPDATE = {
    "required": ["version"],
    "anyOf": [{"required": ["pattern"]}, {"required": ["must_match"]}],
    "properties": {
        "pattern": {"type": "string"},
        "must_match": {"type": "array", "items": {"type": "string"}},
        "version": {"type": ["string", "null"]},
    },
}
SPEC: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "Patterns", "version": "1"},
    "paths": {
        "/patterns/{id}": {
            "patch": {
                "operationId": "update",
                "parameters": [{"$ref": "#/components/parameters/id"}],
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {"$ref": "#/components/schemas/Update"},
                            "examples": {"one": {"$ref": "#/components/examples/update"}},
                        }
                    },
                },
                "responses": {"204": {"description": "done"}},
            }
        }
    },
    "components": {
        "schemas": {"Update": UPDATE},
        "parameters": {
            "id": {"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}},
        },
        "examples": {"update": {"value": {"version": "v7", "must_match": ["a+"]}}},
    },
}


def _operation(tmp_path: Path) -> tuple[sk.FunctionView, Any, dict[str, Any]]:
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(SPEC), encoding="utf-8")
    plugin = sk.load_openapi(path)
    return (
        plugin.views[0],
        plugin.operation("update"),
        _raw_operation(SPEC, plugin.operation("update")),
    )


def test_keywords_beside_an_anyof_apply_to_each_option(tmp_path: Path) -> None:
    view, operation, raw = _operation(tmp_path)
    how, args = arguments(view, operation, raw, 1)
    assert how == "examples"
    assert args["body"] == {"pattern": "s", "version": "s"}


def test_the_specs_own_examples_come_first(tmp_path: Path) -> None:
    view, operation, raw = _operation(tmp_path)
    given = operation_examples(operation, raw, lambda node: _resolve(SPEC, node))
    assert given == {"body": {"version": "v7", "must_match": ["a+"]}}
    how, args = arguments(view, operation, raw, 1, given)
    assert (how, args["body"]) == ("examples", {"version": "v7", "must_match": ["a+"]})
    # an example the view refuses is not used
    how, args = arguments(view, operation, raw, 1, {"body": {"version": 7}})
    assert args["body"] == {"pattern": "s", "version": "s"}


def _body_op(tmp_path: Path, body: dict[str, Any]) -> tuple[sk.FunctionView, Any, dict[str, Any]]:
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "T", "version": "1"},
        "paths": {
            "/x": {
                "post": {
                    "operationId": "op",
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": body}},
                    },
                    "responses": {"204": {"description": "ok"}},
                }
            }
        },
    }
    path = tmp_path / "body.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    plugin = sk.load_openapi(path)
    operation = plugin.operation("op")
    return plugin.views[0], operation, _raw_operation(spec, operation)


def test_a_schema_no_value_satisfies_is_the_specs_fault(tmp_path: Path) -> None:
    # ShipEngine: additionalProperties: false beside allOf members declaring the properties
    money = {
        "type": "object",
        "required": ["amount"],
        "properties": {"amount": {"type": "number"}},
    }
    body = {"type": "object", "additionalProperties": False, "allOf": [money]}
    view, operation, raw = _body_op(tmp_path, body)
    with pytest.raises(Unsatisfiable, match="Additional properties are not allowed"):
        arguments(view, operation, raw, 1)


def test_an_example_breaking_its_own_format_gives_way_to_a_plain_value(tmp_path: Path) -> None:
    # ShipEngine's webhook url: format url, example "https://[YOUR ENDPOINT ID].x.requestbin.com"
    url = {"type": "string", "format": "url", "example": "https://[YOUR ENDPOINT ID].x.test"}
    body = {"type": "object", "required": ["url"], "properties": {"url": url}}
    view, operation, raw = _body_op(tmp_path, body)
    assert arguments(view, operation, raw, 1) == (
        "examples",
        {"body": {"url": "https://example.com/a"}},
    )


def test_values_are_valid_as_the_generated_types_read_the_schema(tmp_path: Path) -> None:
    # GitHub's security-product body: {properties: {query_suite}} without a type, its example
    # null; valid JSON Schema, but the generated type (an object, docs/generate.md) refuses it
    body = {"properties": {"suite": {"type": "string", "enum": ["default"]}}}
    view, operation, raw = _body_op(tmp_path, body)
    _how, args = arguments(view, operation, raw, 1, {"body": None})
    assert isinstance(args["body"], dict)


def test_a_uri_example_that_is_no_uri_is_replaced_and_the_rest_of_the_example_kept(
    tmp_path: Path,
) -> None:
    # Twilio's CreateStream example {Url: myUrl} and CreateSipDomain's VoiceFallbackUrl: "":
    # format uri was not checked (jsonschema needs an optional package), Prism refused them
    uri = {"type": "string", "format": "uri"}
    body = {
        "type": "object",
        "properties": {"Url": uri, "Fallback": uri, "Name": {"type": "string"}},
    }
    view, operation, raw = _body_op(tmp_path, body)
    given = {"body": {"Url": "myUrl", "Fallback": "", "Name": "Scranton"}}
    how, args = arguments(view, operation, raw, 1, given)
    assert how == "examples"
    assert args["body"] == {
        "Url": "https://example.com/a",
        "Fallback": "https://example.com/a",
        "Name": "Scranton",
    }
    kept = {"body": {"Url": "mailto:user@example.com", "Name": "x"}}
    assert arguments(view, operation, raw, 1, kept)[1] == kept
