"""Garbage in the places real specs get wrong: never a traceback, always valid schemas."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from sktypes.errors import OpenApiError
from sktypes.openapi import load_openapi

KEYWORDS = [
    "type", "properties", "items", "required", "nullable", "enum", "allOf", "anyOf", "oneOf",
    "$ref", "minimum", "exclusiveMinimum", "pattern", "format", "additionalProperties",
    "readOnly", "writeOnly", "example", "default", "maxLength", "description", "x-nullable",
]  # fmt: skip
REFS = ["#/components/schemas/A", "#/components/schemas/B", "#/nowhere", "other.yaml"]

scalars = (
    st.none()
    | st.booleans()
    | st.integers(-5, 5)
    | st.sampled_from(["string", "object", "array", "integer", "null", "file", "(", "a", *REFS])
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(KEYWORDS) | st.text(max_size=3), inner, max_size=4)
    ),
    max_leaves=12,
)


def _spec(schema: Any, param: Any, version: str) -> dict[str, Any]:
    return {
        "openapi": version,
        "info": {"title": "Fuzz", "version": "1"},
        "paths": {
            "/a/{id}": {
                "post": {
                    "parameters": [param, {"name": "id", "in": "path", "schema": schema}],
                    "requestBody": {"content": {"application/json": {"schema": schema}}},
                    "responses": {"200": {"description": "ok", "content": {
                        "application/json": {"schema": schema}}}},
                }
            }
        },
        "components": {"schemas": {"A": schema, "B": {"$ref": "#/components/schemas/A"}}},
    }  # fmt: skip


params = st.fixed_dictionaries(
    {
        "name": st.sampled_from(["id", "q", "body", "Accept"]),
        "in": st.sampled_from(["query", "path", "header", "cookie", "body"]),
        "schema": values,
    },
    optional={"style": st.sampled_from(["form", "simple", 3]), "explode": values},
)


@given(values, params | values, st.sampled_from(["3.0.3", "3.1.0"]))
def test_any_garbage_loads_or_fails_with_openapi_error(
    schema: Any, param: Any, version: str
) -> None:
    try:
        plugin = load_openapi(_spec(schema, param, version), validate=False)
    except OpenApiError:
        return
    for view in plugin.views:
        docs = [p.schema for p in view.parameters] + [view.return_parameter.schema]
        for doc in docs:
            if doc is not None:
                Draft202012Validator.check_schema(doc.to_python())
