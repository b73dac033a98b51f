"""Documents a user hands to sktypes: OpenAPI bytes, ``$ref`` strings, tool lists, configs."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from sktypes.errors import SktypesError
from sktypes.manual import functions_manual, views_from_manual
from sktypes.openapi import load_openapi
from sktypes.templates import parse_prompt_template_config
from tests.fuzz._guard import watching
from tests.fuzz._inputs import json_values, mutated, to_json, to_yaml
from tests.fuzz._registry import Finding, as_bytes, target

FORMATS = ("planner", "openai", "openai-strict", "anthropic", "gemini", "mcp", "text")
SYSTEM_DIRS = [Path("/etc"), Path("/dev"), Path("/proc"), Path("/sys"), Path.home() / ".ssh"]
"""Directories no input may make sktypes open a file in."""

# -- OpenAPI bytes ---------------------------------------------------------------------------

_KEYWORDS = [
    "type", "properties", "items", "required", "nullable", "enum", "allOf", "anyOf", "oneOf",
    "$ref", "minimum", "exclusiveMinimum", "pattern", "format", "additionalProperties",
    "readOnly", "writeOnly", "example", "default", "maxLength", "description", "discriminator",
]  # fmt: skip
_REFS = ["#/components/schemas/A", "#/components/schemas/B", "#/nowhere", "x.yaml", "#", ""]
_schema_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-5, 5)
    | st.sampled_from(["string", "object", "array", "integer", "null", "number", "(", *_REFS])
)
schemas = st.recursive(
    _schema_scalars,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(_KEYWORDS) | st.text(max_size=3), inner, max_size=4)
    ),
    max_leaves=15,
)


@st.composite
def specs(draw: st.DrawFn) -> dict[str, Any]:
    schema = draw(schemas)
    version = draw(st.sampled_from(["3.0.3", "3.1.0", "2.0", "3.0", 3.1]))
    op: dict[str, Any] = {
        "operationId": draw(st.text(max_size=10) | st.sampled_from(["kernel_function", "get"])),
        "parameters": [
            {
                "name": draw(st.sampled_from(["id", "q", "body", "Accept", ""])),
                "in": draw(st.sampled_from(["query", "path", "header", "cookie", "body"])),
                "schema": schema,
            }
        ],
        "responses": {
            "200": {"description": "ok", "content": {"application/json": {"schema": schema}}}
        },
    }
    if version != "2.0":
        op["requestBody"] = {"content": {"application/json": {"schema": schema}}}
    key = "swagger" if version == "2.0" else "openapi"
    return {
        key: version,
        "info": {"title": draw(st.text(max_size=8)), "version": "1"},
        "paths": {draw(st.sampled_from(["/a/{id}", "/", "/a"])): {"post": op}},
        "components": {"schemas": {"A": draw(schemas), "B": {"$ref": "#/components/schemas/A"}}},
    }


_OPENAPI_SEEDS = (
    b'{"openapi": "3.0.3", "x": ' + b"[" * 30_000 + b"]" * 30_000 + b"}",
    b"openapi: 3.0.3\nx: 1" + b"0" * 400 + b"\n",
    b'{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {},'
    b' "components": {"schemas": {"\\ud800": {}}}}',
    b"openapi: 3.0.3\ninfo:\n  title: \x01\n",
    b'a: &a ["l","l","l","l","l","l","l","l","l"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n'
    b"c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n",
    b'{"openapi": "3.0.3", "x": NaN}',
)

_openapi_inputs = st.one_of(
    specs().map(to_json),
    specs().map(to_yaml),
    mutated(specs().map(to_json) | specs().map(to_yaml)),
    mutated(st.sampled_from(_OPENAPI_SEEDS)),
    st.binary(max_size=300),
)


def _check_plugin(plugin: Any) -> None:
    for view in plugin.views:
        docs = [p.schema for p in view.parameters] + [view.return_parameter.schema]
        for doc in docs:
            if doc is not None:
                Draft202012Validator.check_schema(doc.to_python())
    for fmt in FORMATS:
        with contextlib.suppress(SktypesError):
            functions_manual(plugin.views, format=fmt)


@target("openapi", _openapi_inputs, seeds=_OPENAPI_SEEDS, timeout=15.0)
def openapi(data: bytes) -> None:
    """Spec bytes: loaded (both validation modes) or refused with an OpenApiError."""
    with watching(SYSTEM_DIRS):
        for validate in (False, True):
            try:
                plugin = load_openapi(data, validate=validate)
            except SktypesError:
                continue
            _check_plugin(plugin)


# -- $ref strings ----------------------------------------------------------------------------

_ROOT = Path(tempfile.mkdtemp(prefix="sktypes-fuzz-refs-"))
_SPEC_DIR = _ROOT / "project" / "spec"
_OUTSIDE = _ROOT / "outside"
_SPEC_DIR.mkdir(parents=True)
_OUTSIDE.mkdir()
(_OUTSIDE / "secret.json").write_text('{"type": "string", "description": "CANARY-SECRET"}')
(_SPEC_DIR / "models.json").write_text(
    '{"Pet": {"type": "string"}, "Out": {"$ref": "../../outside/secret.json"}}'
)
(_SPEC_DIR / "link.json").symlink_to(_OUTSIDE / "secret.json")
os.mkfifo(_SPEC_DIR / "pipe.json")
_SECRET = str(_OUTSIDE / "secret.json")

_REF_PIECES = [
    "models.json#/Pet", "models.json#/Out", "link.json", "pipe.json", "./models.json",
    "../../outside/secret.json", "%2e%2e/%2e%2e/outside/secret.json", _SECRET,
    "file://" + _SECRET, "FILE://" + _SECRET, "file://localhost" + _SECRET,
    "file://evil" + _SECRET, "//evil/x", "http://127.0.0.1:9/x", "HTTP://127.0.0.1:9/x",
    "Https://example.invalid/x", "ftp://x/y", "data:,{}", "/dev/zero", "/dev/stdin",
    "#/components/schemas/A", "#", " ", "\t", "\n", "\x00", "..", "%00", "?", "#/%",
]  # fmt: skip
_refs = st.lists(st.sampled_from(_REF_PIECES) | st.text(max_size=6), min_size=1, max_size=3).map(
    lambda parts: "".join(parts).encode("utf-8", "surrogatepass")
)
_ref_inputs = _refs | mutated(_refs) | st.binary(max_size=40)


def _spec_with(ref: str) -> dict[str, Any]:
    schema = {"$ref": ref}
    return {
        "openapi": "3.0.3",
        "info": {"title": "T", "version": "1"},
        "paths": {
            "/a": {
                "get": {
                    "operationId": "a",
                    "responses": {
                        "200": {
                            "description": "ok",
                            "content": {"application/json": {"schema": schema}},
                        }
                    },
                }
            }
        },
        "components": {"schemas": {"A": {"type": "string"}, "Unused": {"$ref": ref}}},
    }


@target("refs", _ref_inputs, seeds=tuple(p.encode() for p in _REF_PIECES), timeout=15.0)
def refs(data: bytes) -> None:
    """A ``$ref`` string: nothing outside the spec's directory read, nothing fetched."""
    ref = data.decode("utf-8", "replace")
    path = _SPEC_DIR / "api.json"
    path.write_text(json.dumps(_spec_with(ref)))
    with watching([_OUTSIDE, *SYSTEM_DIRS]):
        for validate in (False, True):
            try:
                plugin = load_openapi(path, validate=validate)
            except SktypesError as exc:
                if "CANARY" in str(exc):
                    raise Finding(f"a refused file's content in the error: {exc}") from None
                continue
            text = json.dumps([v.to_dict() for v in plugin.views]) + " ".join(plugin.warnings)
            if "CANARY" in text:
                raise Finding("a file outside the spec's directory reached the views")


# -- tool lists (functions manuals) ----------------------------------------------------------

_TOOL = st.fixed_dictionaries(
    {"name": st.text(max_size=8) | st.sampled_from(["P-f", "P.f", "f"])},
    optional={
        "description": st.text(max_size=8),
        "parameters": schemas,
        "input_schema": schemas,
        "inputSchema": schemas,
        "outputSchema": schemas,
        "type": st.sampled_from(["function", "x"]),
        "function": json_values,
        "functionDeclarations": st.lists(json_values, max_size=2),
    },
)
_manual_inputs = st.one_of(
    st.lists(_TOOL, max_size=3).map(to_json),
    st.fixed_dictionaries({"tools": st.lists(_TOOL, max_size=3)}).map(to_json),
    mutated(st.lists(_TOOL, max_size=3).map(to_json)),
    json_values.map(to_json),
)


@target(
    "manual",
    _manual_inputs,
    seeds=(b'[{"name": "0", "inputSchema": null, "outputSchema": []}]',),  # found by make fuzz
)
def manual(data: bytes) -> None:
    """A tool list: read into views (then written in every format) or a ManualError."""
    with watching(SYSTEM_DIRS):
        try:
            views = views_from_manual(data)
        except SktypesError:
            return
        for fmt in FORMATS:
            with contextlib.suppress(SktypesError):
                functions_manual(views, format=fmt)


# -- prompt template configs -----------------------------------------------------------------

_CONFIG = st.fixed_dictionaries(
    {"template": st.text(max_size=20)},
    optional={
        "name": st.text(max_size=5),
        "template_format": st.sampled_from(["semantic-kernel", "jinja2", "handlebars", "x"]),
        "input_variables": st.lists(json_values, max_size=2),
        "execution_settings": json_values,
        "description": json_values,
    },
)
_config_inputs = _CONFIG.map(to_yaml) | _CONFIG.map(to_json) | mutated(_CONFIG.map(to_yaml))


@target("prompt_config", _config_inputs)
def prompt_config(data: bytes) -> None:
    """A prompt template config file's text: a config or a TemplateError."""
    text = data.decode("utf-8", "replace")
    with watching(SYSTEM_DIRS), contextlib.suppress(SktypesError):
        parse_prompt_template_config(text, file="prompt.yaml")


__all__ = ["as_bytes", "manual", "openapi", "prompt_config", "refs"]
