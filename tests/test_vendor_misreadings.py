"""Prism's refusals the conformance harness records as the server's, with evidence."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import sktypes as sk
from tests.vendor.misreadings import misreading, spec_fault
from tests.vendor.run import _raw_operation

ONE_OF = "path.id: Request path parameter id must match exactly one schema in oneOf"
NO_TYPES = "request: No supported content types, but request included a non-empty body"


def _load(tmp_path: Path, spec: dict[str, Any], name: str) -> tuple[Any, dict[str, Any]]:
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    operation = sk.load_openapi(path, validate=False).operation(name)
    return operation, _raw_operation(spec, operation)


def test_an_ambiguous_one_of_on_the_wire_is_prisms(tmp_path: Path) -> None:
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "T", "version": "1"},
        "paths": {
            "/runs/{id}": {
                "get": {
                    "operationId": "getRun",
                    "parameters": [
                        {
                            "name": "id",
                            "in": "path",
                            "required": True,
                            "schema": {"oneOf": [{"type": "integer"}, {"type": "string"}]},
                        }
                    ],
                    "responses": {"204": {"description": "ok"}},
                }
            }
        },
    }
    operation, raw = _load(tmp_path, spec, "getRun")
    evidence = misreading(operation, spec, raw, {"id": 1}, [ONE_OF])
    assert evidence is not None and "id=1 matches exactly one option" in evidence
    # a value that matches several options as JSON too is a client-side failure
    spec["paths"]["/runs/{id}"]["get"]["parameters"][0]["schema"]["oneOf"][1] = {}
    operation, raw = _load(tmp_path, spec, "getRun")
    assert misreading(operation, spec, raw, {"id": 1}, [ONE_OF]) is None
    # so is any other refusal beside it
    other = "query.q: Request query parameter q must be integer"
    assert misreading(operation, spec, raw, {"id": 1}, [ONE_OF, other]) is None


def _swagger(consumes: list[str] | None) -> dict[str, Any]:
    operation: dict[str, Any] = {
        "operationId": "createUser",
        "parameters": [{"name": "body", "in": "body", "required": True, "schema": {}}],
        "responses": {"200": {"description": "ok"}},
    }
    if consumes is not None:
        operation["consumes"] = consumes
    return {
        "swagger": "2.0",
        "info": {"title": "T", "version": "1"},
        "paths": {"/user": {"post": operation}},
    }


def test_a_swagger2_body_without_consumes_refused_by_prism_is_prisms(tmp_path: Path) -> None:
    spec = _swagger(None)
    operation, raw = _load(tmp_path, spec, "createUser")
    evidence = misreading(operation, spec, raw, {"body": {}}, [NO_TYPES])
    assert evidence is not None and "gives consumes no default" in evidence
    # declared media types make the same refusal a client-side failure
    spec = _swagger(["application/xml"])
    operation, raw = _load(tmp_path, spec, "createUser")
    assert misreading(operation, spec, raw, {"body": {}}, [NO_TYPES]) is None


def test_a_path_key_with_a_query_string_is_the_specs_fault(tmp_path: Path) -> None:
    # Anthropic's beta operations: /v1/files?beta=true (85 operations Prism routes nowhere)
    spec = {
        "openapi": "3.1.0",
        "info": {"title": "T", "version": "1"},
        "paths": {
            "/v1/files?beta=true": {
                "get": {"operationId": "listFiles", "responses": {"204": {"description": "ok"}}}
            }
        },
    }
    operation, _ = _load(tmp_path, spec, "listFiles")
    refusal = "NO_PATH_MATCHED_ERROR: The route /v1/files hasn't been found"
    evidence = spec_fault(operation, [refusal])
    assert evidence is not None and "holds a query string" in evidence
    assert spec_fault(operation, ["query.x: must be integer"]) is None


def _form(encoding: dict[str, Any] | None) -> dict[str, Any]:
    media: dict[str, Any] = {
        "schema": {
            "type": "object",
            "properties": {
                "MediaUrl": {"type": "array", "items": {"type": "string"}},
                "Body": {"type": "string"},
            },
        }
    }
    if encoding is not None:
        media["encoding"] = encoding
    return {
        "openapi": "3.0.1",
        "info": {"title": "T", "version": "1"},
        "paths": {
            "/messages": {
                "post": {
                    "operationId": "createMessage",
                    "requestBody": {"content": {"application/x-www-form-urlencoded": media}},
                    "responses": {"201": {"description": "ok"}},
                }
            }
        },
    }


FORM_ARRAY = "body.MediaUrl: Request body property MediaUrl must be array"


def test_a_form_array_without_an_encoding_refused_by_prism_is_prisms(tmp_path: Path) -> None:
    # Twilio's MediaUrl, Permissions...: OpenAPI's default for a form body member is style
    # form, explode true (MediaUrl=a&MediaUrl=b), which Prism does not apply
    spec = _form(None)
    operation, raw = _load(tmp_path, spec, "createMessage")
    for items in (["https://a"], ["https://a", "https://b"]):
        args = {"body": {"MediaUrl": items, "Body": "hi"}}
        evidence = misreading(operation, spec, raw, args, [FORM_ARRAY])
        assert evidence is not None and "gives no Encoding Object" in evidence
    nullable = FORM_ARRAY + ",null"
    assert misreading(operation, spec, raw, {"body": {"MediaUrl": ["x"]}}, [nullable])
    # not sent as an array, or the spec says how to encode it: a client-side failure
    assert misreading(operation, spec, raw, {"body": {"MediaUrl": "x"}}, [FORM_ARRAY]) is None
    spec = _form({"MediaUrl": {"style": "form", "explode": True}})
    operation, raw = _load(tmp_path, spec, "createMessage")
    assert misreading(operation, spec, raw, {"body": {"MediaUrl": ["x"]}}, [FORM_ARRAY]) is None
    # another member's refusal is no such evidence
    other = "body.Body: Request body property Body must be array"
    assert misreading(operation, spec, raw, {"body": {"Body": "x"}}, [other]) is None
