"""The faster validator gives the stock validator's verdicts: same first error, same pointer.

``sktypes.openapi._validator`` runs openapi-spec-validator's own walk with two changes (a
compiled first answer for the meta-schema passes, sets for the walk's visited lists). The
oracle here is the stock validator class with the jsonschema meta-schema pass, as it ran
before: on the corpus, on every invalid spec of the suite, and on generated mutations of
small specs, both must report the same first error (message and pointer) or none.
"""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema.validators import validator_for
from jsonschema_path import SchemaPath
from openapi_spec_validator import (
    OpenAPIV2SpecValidator,
    OpenAPIV30SpecValidator,
    OpenAPIV31SpecValidator,
)
from openapi_spec_validator.schemas import schema_v2, schema_v30, schema_v31

from sktypes.openapi._validator import spec_validator
from tests.corpus_util import corpus_specs
from tests.test_openapi_errors import CASES

_STOCK = {
    2: (OpenAPIV2SpecValidator, schema_v2),
    30: (OpenAPIV30SpecValidator, schema_v30),
    31: (OpenAPIV31SpecValidator, schema_v31),
}


def _stock(version: int) -> type[Any]:
    """The stock validator with jsonschema's meta-schema pass (what ran before)."""
    base, schema = _STOCK[version]
    python = validator_for(dict(schema))(schema)
    return type(f"Stock{base.__name__}", (base,), {"schema_validator": python})


def _version(data: Any) -> int | None:
    if not isinstance(data, dict):
        return None
    if str(data.get("swagger")) == "2.0":
        return 2
    text = str(data.get("openapi", ""))
    return 31 if text.startswith("3.1") else 30 if text.startswith("3.0") else None


def _verdict(cls: type[Any], data: Any, base_uri: str = "") -> tuple[str, str] | None:
    """The first error as ``(pointer, message)``, or what the validator raised."""
    try:
        spec = SchemaPath.from_dict(data, base_uri=base_uri)
        first = next(cls(spec).iter_errors(), None)
    except RecursionError:
        return ("", "RecursionError")
    except Exception as exc:
        return ("", f"{type(exc).__name__}")
    if first is None:
        return None
    return ("/".join(map(str, first.absolute_path)), first.message)


def _same(data: Any, base_uri: str = "") -> None:
    version = _version(data)
    if version is None:
        return
    expected = _verdict(_stock(version), data, base_uri)
    assert _verdict(spec_validator(version), data, base_uri) == expected


def _single_file(path: Path) -> bool:
    text = path.read_text(encoding="utf-8")
    return "$ref: './" not in text and '"$ref": "./' not in text and ".yaml#" not in text


@pytest.mark.slow
@pytest.mark.parametrize(("spec_id", "path"), corpus_specs(valid_only=False) or [("none", None)])
def test_corpus_verdicts_equal_the_stock_validator(spec_id: str, path: Path | None) -> None:
    if path is None:
        pytest.skip("no corpus")
    data = (json.loads if path.suffix == ".json" else yaml.safe_load)(path.read_text("utf-8"))
    _same(data, path.resolve().as_uri())


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_the_suite_s_invalid_specs_get_the_stock_verdicts(case: tuple[str, str, str, bool]) -> None:
    try:
        data = yaml.safe_load(case[1])
    except yaml.YAMLError:
        return  # not a document: refused before validation
    _same(data)


def _petstore() -> dict[str, Any]:
    return {
        "openapi": "3.0.3",
        "info": {"title": "Pets", "version": "1"},
        "paths": {
            "/pets/{id}": {
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}
                ],
                "get": {
                    "operationId": "getPet",
                    "parameters": [
                        {"name": "q", "in": "query", "schema": {"type": "string", "pattern": "a+"}}
                    ],
                    "responses": {
                        "200": {
                            "description": "ok",
                            "content": {
                                "application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}
                            },
                        }
                    },
                },
            }
        },
        "components": {
            "schemas": {
                "Pet": {
                    "type": "object",
                    "required": ["id"],
                    "properties": {
                        "id": {"type": "integer", "format": "int64", "minimum": 0},
                        "tag": {"type": "string", "nullable": True, "default": "x"},
                        "kind": {"allOf": [{"$ref": "#/components/schemas/Kind"}]},
                    },
                },
                "Kind": {"type": "string", "enum": ["cat", "dog"], "maxLength": 5},
            }
        },
    }


def _swagger() -> dict[str, Any]:
    return {
        "swagger": "2.0",
        "info": {"title": "Pets", "version": "1"},
        "paths": {
            "/pets": {
                "get": {
                    "parameters": [{"name": "limit", "in": "query", "type": "integer"}],
                    "responses": {
                        "200": {"description": "ok", "schema": {"$ref": "#/definitions/P"}}
                    },
                }
            }
        },
        "definitions": {"P": {"type": "object", "properties": {"a": {"type": "string"}}}},
    }


def _v31() -> dict[str, Any]:
    spec = _petstore()
    spec["openapi"] = "3.1.0"
    pet = spec["components"]["schemas"]["Pet"]
    pet["properties"]["tag"] = {"type": ["string", "null"], "default": "x", "examples": ["a"]}
    pet["$defs"] = {"n": {"const": 1}}
    spec["webhooks"] = {"w": {"post": {"responses": {"200": {"description": "ok"}}}}}
    return spec


def test_the_meta_schema_passes_are_compiled() -> None:
    from openapi_schema_validator import OAS30Validator

    from sktypes.openapi import _validator

    for version in (2, 30, 31):
        assert spec_validator(version).schema_validator._compiled is not None
    meta = _validator._compiled(OAS30Validator.META_SCHEMA, OAS30Validator.FORMAT_CHECKER)
    assert meta is not None
    assert not meta.is_valid({"enum": []})  # jsonschema's draft-04 meta-schema, not its own
    assert not meta.is_valid({"pattern": "(?<n>a)"})  # patterns are Python's (format "regex")


def _nodes(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _nodes(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _nodes(v, (*path, i))


_EXAMPLES = int(os.environ.get("SKTYPES_VALIDATOR_EXAMPLES", "150"))
_VALUES: st.SearchStrategy[Any] = st.sampled_from(
    [
        1,
        1.0,
        1.5,
        -1,
        0,
        True,
        None,
        "x",
        "",
        "(?<n>a)",
        "[",
        "a\n",
        "2\u0660\u0660",  # Arabic-Indic digits: Python's \\d matches them, ECMA's does not
        "x-ext",
        [],
        {},
        ["a"],
        {"type": "string"},
        {"type": "nope"},
        {"$ref": "#/components/schemas/Pet"},
        {"$ref": "#/nowhere"},
        {"pattern": "("},
        {"format": "regex", "type": "string"},
        {"minimum": "1"},
        {"required": []},
        {"enum": []},
        {"x-a": 1},
    ]
)


@settings(
    max_examples=int(__import__("os").environ.get("N_EX", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(data=st.data(), base=st.sampled_from([_petstore, _swagger, _v31]))
def test_mutated_specs_get_the_stock_verdicts(data: st.DataObject, base: Any) -> None:
    spec = base()
    for _ in range(data.draw(st.integers(1, 3))):
        paths = [p for p in _nodes(spec) if p]
        path = data.draw(st.sampled_from(paths))
        parent = spec
        for part in path[:-1]:
            parent = parent[part]
        action = data.draw(st.sampled_from(["set", "delete", "add"]))
        if action == "delete" and isinstance(parent, dict):
            del parent[path[-1]]
        elif action == "add" and isinstance(parent, dict):
            key = data.draw(st.sampled_from(["type", "format", "x-n", "pattern", "default", "zz"]))
            parent[key] = copy.deepcopy(data.draw(_VALUES))
        else:
            parent[path[-1]] = copy.deepcopy(data.draw(_VALUES))
    _same(spec)


_REF_SPEC = """openapi: 3.0.3
info: {title: Pets, version: "1"}
paths:
  /pets:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: 'pet.yaml'}
"""


def test_a_validator_that_does_not_check_ref_files_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """openapi-spec-validator below 0.8.1 (semantic-kernel's venv resolves 0.7) passes an
    invalid schema in a $ref'd file: the load says which files were not checked."""
    import sktypes.openapi._validate as validate
    from sktypes.openapi import load_openapi

    monkeypatch.setenv("SKTYPES_NO_CACHE", "1")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pet.yaml").write_text("type: object\n")
    (tmp_path / "api.yaml").write_text(_REF_SPEC)
    if validate.checks_ref_files()[0]:
        assert not any("not validated" in w for w in load_openapi("api.yaml").warnings)
    monkeypatch.setattr(validate, "checks_ref_files", lambda: (False, "0.7.1"))
    warned = load_openapi("api.yaml").warnings
    assert (
        "/: the schemas in $ref'd files (pet.yaml) were not validated: openapi-spec-validator "
        "0.7.1 does not check them (0.8.1 and later do)"
    ) in warned
