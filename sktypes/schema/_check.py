"""Meta-schema checks: does a schema belong to its dialect?

``json-schema`` and ``openai-strict`` are checked against the draft 2020-12 meta-schema;
``openapi-3.0`` against the Schema Object of the OpenAPI 3.0 specification's own JSON
Schema (shipped with openapi-spec-validator); ``openai-strict`` and ``gemini`` also against
the provider rules in PROVIDERS.md (keywords, required-ness, ``additionalProperties``).
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

from jsonschema import Draft4Validator, Draft202012Validator
from jsonschema.exceptions import SchemaError as _JsonSchemaError

from sktypes.schema._dialect_gemini import _GEMINI_KEYS
from sktypes.schema._dialect_openai import _OPENAI_FORMATS, _OPENAI_KEYS
from sktypes.schema._walk import SCHEMA_LIST_KEYS, SCHEMA_MAP_KEYS, SCHEMA_VALUE_KEYS

__all__ = ["dialect_problems"]

_GEMINI_TYPES = frozenset({"STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL"})


def dialect_problems(schema: Any, dialect: str) -> list[str]:
    """Return every way ``schema`` breaks ``dialect`` (``pointer: message``); empty if none."""
    problems: list[str] = []
    if dialect in ("json-schema", "openai-strict"):
        try:
            Draft202012Validator.check_schema(schema)
        except _JsonSchemaError as exc:
            problems.append(f"/{'/'.join(map(str, exc.path))}: {exc.message}")
    if dialect == "openai-strict":
        if not isinstance(schema, dict) or schema.get("type") != "object":
            problems.append("/: the root must be an object schema")
        _walk(schema, "", _openai_rules, problems)
    elif dialect == "openapi-3.0":
        validator = _oas30_validator()
        for err in validator.iter_errors(schema):
            problems.append(f"/{'/'.join(map(str, err.path))}: {err.message}")
        components = (
            schema.get("x-components", {}).get("schemas", {}) if isinstance(schema, dict) else {}
        )
        for name, sub in components.items():
            for err in validator.iter_errors(sub):
                problems.append(f"/x-components/schemas/{name}: {err.message}")
    elif dialect == "gemini":
        _walk(schema, "", _gemini_rules, problems)
    return problems


@functools.lru_cache(maxsize=1)
def _oas30_validator() -> Draft4Validator:
    spec = json.loads(
        resources.files("openapi_spec_validator")
        .joinpath("resources/schemas/v3.0/schema.json")
        .read_text()
    )
    root = {**spec, "$ref": "#/definitions/Schema"}
    root.pop("id", None)
    root.pop("$schema", None)
    return Draft4Validator(root)


def _walk(node: Any, where: str, rule: Any, problems: list[str]) -> None:
    if not isinstance(node, dict):
        return
    rule(node, where or "/", problems)
    for key, value in node.items():
        if key in SCHEMA_VALUE_KEYS and isinstance(value, dict):
            _walk(value, f"{where}/{key}", rule, problems)
        elif key in SCHEMA_LIST_KEYS and isinstance(value, list):
            for i, v in enumerate(value):
                _walk(v, f"{where}/{key}/{i}", rule, problems)
        elif key in SCHEMA_MAP_KEYS and isinstance(value, dict):
            for name, v in value.items():
                _walk(v, f"{where}/{key}/{name}", rule, problems)


def _openai_rules(node: dict[str, Any], where: str, problems: list[str]) -> None:
    for key in node:
        if key not in _OPENAI_KEYS:
            problems.append(f"{where}: keyword {key!r} is not accepted in strict mode")
    if "$ref" in node and len(node) > 1:
        problems.append(f"{where}: '$ref' may not have sibling keywords in strict mode")
    fmt = node.get("format")
    if fmt is not None and fmt not in _OPENAI_FORMATS:
        problems.append(f"{where}: format {fmt!r} is not accepted in strict mode")
    if node.get("type") == "object" or "properties" in node:
        if node.get("additionalProperties") is not False:
            problems.append(f"{where}: objects need 'additionalProperties': false")
        props = list(node.get("properties", {}))
        if sorted(props) != sorted(node.get("required", [])):
            problems.append(f"{where}: every property must be listed in 'required'")


def _gemini_rules(node: dict[str, Any], where: str, problems: list[str]) -> None:
    for key in node:
        if key not in _GEMINI_KEYS:
            problems.append(f"{where}: keyword {key!r} is not in Gemini's schema subset")
    t = node.get("type")
    if t is not None and t not in _GEMINI_TYPES:
        problems.append(f"{where}: type {t!r} is not a Gemini type")
    enum = node.get("enum")
    if enum is not None and not all(isinstance(v, str) for v in enum):
        problems.append(f"{where}: Gemini enums hold strings only")
