"""The conformance harness builds arguments from the spec (tests/vendor/arguments.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import sktypes as sk
from tests.vendor.arguments import arguments, operation_examples
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
