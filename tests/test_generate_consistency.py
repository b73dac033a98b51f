"""``function_view(Plugin.method)`` describes what ``load_openapi(spec).views`` describes.

The comparison is on schema *shape* after the documented normalisations (docs/generate.md, "What
generated code differs in"):
references are resolved; annotations (``title``, ``description``, ``default``, examples) and
validation keywords the generated types do not carry (``pattern``, bounds, most formats) are
dropped; ``null`` alternatives are ignored (optional arguments and fields accept ``None``,
meaning "not sent"); ``allOf`` is merged; enums of non-JSON-scalar values become their type.
Parameter names are the view's names whenever they are Python identifiers.
"""

from __future__ import annotations

import importlib
import keyword
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

import sktypes as sk
from sktypes_codegen import generate_plugin
from tests.corpus_util import CORPUS

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "schemas" / "examples"
_FORMATS = {"date-time", "date", "time", "uuid"}
_DEPTH = 4
DEEP = "..."
"""Where the comparison stops descending; it matches anything (see :func:`same`)."""


def shape(schema: Any, defs: Mapping[str, Any] | None = None, depth: int = 0) -> Any:
    """A comparable skeleton of a schema (see the module docstring for what is ignored)."""
    if depth > _DEPTH:
        return DEEP
    if not isinstance(schema, Mapping):
        return "any"
    if schema.get("$defs"):
        defs = {**(defs or {}), **schema["$defs"]}
    defs = defs or {}
    seen = 0
    while isinstance(schema.get("$ref"), str) and seen < 50:
        target = defs.get(schema["$ref"].rsplit("/", 1)[-1])
        if not isinstance(target, Mapping):
            return "any"
        schema, seen = target, seen + 1
    if "const" in schema or schema.get("enum"):
        values = [schema["const"]] if "const" in schema else list(schema["enum"])
        values = [v for v in values if v is not None]
        if all(isinstance(v, (str, int, bool)) for v in values):
            return ("enum", tuple(sorted(repr(v) for v in values)))
        numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
        return "number" if numbers else "any"
    for key in ("anyOf", "oneOf"):
        if schema.get(key):
            return _union([shape(o, defs, depth) for o in schema[key]])
    if schema.get("allOf"):
        parts = [*schema["allOf"], {k: v for k, v in schema.items() if k != "allOf"}]
        merged: dict[str, Any] = {"type": "object", "properties": {}, "required": []}
        for part in parts:
            while isinstance(part, Mapping) and isinstance(part.get("$ref"), str):
                part = defs.get(part["$ref"].rsplit("/", 1)[-1], {})
            merged["properties"].update(part.get("properties") or {})
            merged["required"] += list(part.get("required") or ())
        if not merged["properties"]:
            return shape(parts[0], defs, depth)
        return shape(merged, defs, depth)
    kind = schema.get("type")
    if isinstance(kind, (list, tuple)):
        return _union([shape({**schema, "type": k}, defs, depth) for k in kind])
    if kind == "string":
        return ("string", schema.get("format")) if schema.get("format") in _FORMATS else "string"
    if kind in ("integer", "number", "boolean", "null"):
        return kind
    if kind == "array" or (kind is None and "items" in schema):
        items = schema.get("items")
        return ("array", shape(items, defs, depth + 1) if items else "any")
    if kind == "object" or (kind is None and "properties" in schema):
        props = schema.get("properties") or {}
        if not props:
            extra = schema.get("additionalProperties")
            if isinstance(extra, Mapping) and extra:
                return ("map", shape(extra, defs, depth + 1))
            return ("map", "any")
        return (
            "object",
            tuple(sorted((k, shape(v, defs, depth + 1)) for k, v in props.items())),
            tuple(sorted(set(schema.get("required") or ()) & set(props))),
        )
    return "any"


def same(a: Any, b: Any) -> bool:
    """Shapes are equal, treating :data:`DEEP` (the depth limit) as matching anything.

    Generated schemas nest some types one level deeper than the spec's (``Optional``
    wrappers, hoisted definitions), so either side may stop first.
    """
    if a == DEEP or b == DEEP:
        return True
    if not (isinstance(a, tuple) and isinstance(b, tuple)):
        return bool(a == b)
    if a[0] != b[0] or len(a) != len(b):
        return False
    if a[0] == "union":
        rest = list(b[1])
        for x in a[1]:
            match = next((i for i, y in enumerate(rest) if same(x, y)), None)
            if match is None:
                return False
            rest.pop(match)
        return not rest
    if a[0] == "object":
        da, db = dict(a[1]), dict(b[1])
        return da.keys() == db.keys() and a[2] == b[2] and all(same(da[k], db[k]) for k in da)
    return all(same(x, y) for x, y in zip(a[1:], b[1:], strict=True))


def _union(options: list[Any]) -> Any:
    flat: list[Any] = []
    for o in options:  # A | (B | C) is A | B | C
        flat.extend(o[1] if isinstance(o, tuple) and o[0] == "union" else [o])
    kept = sorted({repr(o): o for o in flat if o != "null"}.items())
    if any(o == "any" for _, o in kept):
        return "any"
    return kept[0][1] if len(kept) == 1 else ("union", tuple(o for _, o in kept))


def assert_consistent(
    spec: Path,
    package_dir: Path,
    package: str,
    views: list[sk.FunctionView] | None = None,
    limit: int | None = None,
) -> int:
    """Import the generated package and compare its operations; return how many matched.

    With ``limit``, only that many operations, evenly spaced, are compared (pydantic's schema
    generation for a Stripe-sized model graph takes about a minute for all 417).
    """
    sys.path.insert(0, str(package_dir))
    try:
        module = importlib.import_module(package)
    finally:
        sys.path.remove(str(package_dir))
    plugin_cls = next(getattr(module, n) for n in module.__all__ if n != "ApiError")
    expected = views if views is not None else sk.load_openapi(spec).views
    if not expected:  # a spec without operations (webhooks only): an empty plugin class
        assert not [n for n in dir(plugin_cls) if not n.startswith("_")]
        return 0
    instance = plugin_cls()
    methods = {
        getattr(instance, n).__sktypes_function__.name: getattr(instance, n)
        for n in dir(plugin_cls)
        if hasattr(getattr(plugin_cls, n), "__sktypes_function__")
    }
    assert sorted(methods) == sorted(v.name for v in expected)
    if limit is not None and len(expected) > limit:
        step = len(expected) / limit
        expected = [expected[int(i * step)] for i in range(limit)]
    actual = [sk.function_view(methods[v.name], plugin_name=v.plugin_name) for v in expected]
    for want, got in zip(expected, actual, strict=True):
        assert got.name == want.name
        got_params = {p.name: p for p in got.parameters}
        for p in want.parameters:
            if not p.name.isidentifier() or p.name.startswith("_") or keyword.iskeyword(p.name):
                continue  # renamed on purpose (documented)
            assert p.name in got_params, f"{want.name}: parameter {p.name} missing"
            mine = got_params[p.name]
            assert mine.is_required == p.is_required, f"{want.name}.{p.name}: required differs"
            assert same(shape(_value(mine.schema)), shape(_value(p.schema))), (
                f"{want.name}.{p.name}"
            )
        want_ret, got_ret = want.return_parameter.schema, got.return_parameter.schema
        if want_ret is not None and got_ret is not None:
            assert same(shape(_value(got_ret)), shape(_value(want_ret))), f"{want.name} result"
    return len(expected)


def _value(doc: Any) -> Any:
    return doc.to_python() if doc is not None else {}


SPECS = {
    "date": EXAMPLES / "date_plugin.openapi.yaml",
    "weather": EXAMPLES / "weather_plugin.openapi.yaml",
    "petstore_v3": CORPUS / "oai-v3.0-petstore" / "petstore.yaml",
    "petstore_v2_expanded": CORPUS / "oai-v2.0-petstore-expanded" / "petstore-expanded.json",
    "uspto": CORPUS / "oai-v3.0-uspto" / "uspto.yaml",
    "uber": CORPUS / "oai-v2.0-uber" / "uber.json",
}


@pytest.mark.parametrize("key", sorted(k for k, v in SPECS.items() if v.is_file()))
def test_generated_views_match_spec_views(key: str, tmp_path: Path) -> None:
    package = f"consistency_{key}"
    generate_plugin(SPECS[key], tmp_path, name=package)
    assert assert_consistent(SPECS[key], tmp_path, package) >= 1


def test_shape_ignores_documented_differences() -> None:
    a = {"type": "object", "properties": {"x": {"type": "string", "pattern": "a", "title": "X"}}}
    b = {
        "type": "object",
        "properties": {"x": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None}},
    }
    assert same(shape(a), shape(b))
    assert not same(shape({"type": "integer"}), shape({"type": "string"}))
    assert not same(
        shape({"type": "object", "properties": {"x": {}}, "required": ["x"]}),
        shape({"type": "object", "properties": {"x": {}}}),
    )
    assert same(("union", ("string", DEEP)), ("union", (("array", "integer"), "string")))
