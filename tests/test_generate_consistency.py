"""A generated plugin describes its API exactly as ``load_openapi`` does, and behaves like it.

Views: ``plugin_views(Plugin())`` *equals* ``load_openapi(spec).views`` (names, descriptions,
schemas), and so do their manuals in every format; the kernel registers the plugin under the
same names.

Behaviour (not a re-implementation of any schema merge): each parameter's and each return's
native type (the generated annotation the carried view holds) accepts exactly the JSON values
the view's schema accepts, and dumps them back unchanged — instances drawn from the schema
(hypothesis-jsonschema) and one-change mutations of them, judged by the oracle of
:mod:`tests.roundtrip`.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import sys
from pathlib import Path
from typing import Any

import pytest

import sktypes as sk
from sktypes.kernel import Kernel
from sktypes.openapi import Operation
from sktypes.openapi._records import plugin_from_records
from sktypes_codegen import generate_plugin
from tests.corpus_util import CORPUS
from tests.roundtrip import assert_same_behaviour, oracle

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "schemas" / "examples"
SPECS_DIR = Path(__file__).parent / "specs"
FORMATS = ["planner", "anthropic", "mcp", "text"]
"""Manual formats compared (the others inline references: Stripe's take minutes, and equal
views give equal manuals)."""

SPECS = {
    "date": EXAMPLES / "date_plugin.openapi.yaml",
    "weather": EXAMPLES / "weather_plugin.openapi.yaml",
    "petstore_v3": CORPUS / "oai-v3.0-petstore" / "petstore.yaml",
    "petstore_v2_expanded": CORPUS / "oai-v2.0-petstore-expanded" / "petstore-expanded.json",
    "uspto": CORPUS / "oai-v3.0-uspto" / "uspto.yaml",
    "uber": CORPUS / "oai-v2.0-uber" / "uber.json",
    **{p.stem: p for p in sorted(SPECS_DIR.glob("*.yaml"))},
}


def import_generated(spec: Path, root: Path, package: str) -> Any:
    """Generate ``spec`` as ``package`` under ``root``; return its plugin class."""
    generate_plugin(spec, root, name=package, validate=False)
    sys.path.insert(0, str(root))
    try:
        module = importlib.import_module(package)
    finally:
        sys.path.remove(str(root))
    return next(getattr(module, n) for n in module.__all__ if n != "ApiError")


def assert_same_views(plugin_cls: Any, loaded: sk.OpenApiPlugin) -> list[sk.FunctionView]:
    """The plugin's carried views equal the spec's; returns them (typed, bound)."""
    if not loaded.views:  # webhooks only: an empty plugin class
        return []
    views = sk.plugin_views(plugin_cls())
    assert [v.name for v in views] == [v.name for v in loaded.views]
    assert views == loaded.views
    for fmt in FORMATS:
        assert sk.functions_manual(views, format=fmt) == sk.functions_manual(loaded.views, fmt)
    kernel = Kernel()
    registered = kernel.add_plugin(plugin_cls())
    assert registered.name == loaded.name
    assert [f.view for f in registered.values()] == loaded.views
    return views


def _recorded_part(op: Operation) -> Operation:
    """``op`` without what ``views.json`` leaves to the views (schemas, bodies, texts)."""
    params = tuple(
        dataclasses.replace(p, schema=None, content_type=None, description=None, deprecated=False)
        for p in op.parameters
    )
    return dataclasses.replace(
        op,
        summary=None,
        description=None,
        parameters=params,
        request_body=None,
        success_status=None,
        response_schema=None,
        responses=(),
        deprecated=False,
        item_schema=None,
    )


def assert_same_operations(plugin_cls: Any, loaded: sk.OpenApiPlugin) -> None:
    """What ``views.json`` records serves the operations ``load_openapi`` gives."""
    bindings, spec = inspect.getattr_static(plugin_cls, "__function_views__").recorded()
    carried = plugin_from_records(loaded.name, bindings, spec, "views.json")
    assert carried is not None
    assert (carried.title, carried.version) == (loaded.title, loaded.version)
    assert (carried.openapi_version, carried.servers) == (loaded.openapi_version, loaded.servers)
    assert carried.security_schemes == loaded.security_schemes
    assert carried.views == loaded.views
    assert carried.operations == [_recorded_part(op) for op in loaded.operations]


def slots(views: list[sk.FunctionView]) -> list[tuple[str, Any, dict[str, Any]]]:
    """``(label, native type, schema)`` of every parameter and return that has a schema."""
    out = []
    for view in views:
        for p in view.parameters:
            if p.schema is not None and p.native_type is not None:
                out.append((f"{view.name}.{p.name}", p.native_type, p.schema.to_python()))
        ret = view.return_parameter
        if ret.schema is not None and ret.native_type is not None:
            out.append((f"{view.name} result", ret.native_type, ret.schema.to_python()))
    return out


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("consistency")


@pytest.mark.parametrize("key", sorted(k for k, v in SPECS.items() if v.is_file()))
def test_generated_plugin_carries_the_spec_views_and_behaves_like_them(
    key: str, generated: Path
) -> None:
    plugin_cls = import_generated(SPECS[key], generated, f"consistency_{key}")
    loaded = sk.load_openapi(SPECS[key], validate=False)
    views = assert_same_views(plugin_cls, loaded)
    assert_same_operations(plugin_cls, loaded)
    for label, native_type, schema in slots(views):
        try:
            assert_same_behaviour(native_type, schema, examples=10)
        except AssertionError as exc:
            raise AssertionError(f"{label}: {exc}") from None


def test_the_oracle_reads_openapi_meanings() -> None:
    shape = {
        "oneOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}],
        "discriminator": {"propertyName": "k", "mapping": {"a": "#/components/schemas/A"}},
        "$defs": {
            "A": {"properties": {"k": {"type": "string"}}},
            "B": {"type": "object", "properties": {"n": {"type": "integer", "format": "int32"}}},
        },
    }
    check = oracle(shape)
    assert check.is_valid({"k": "a"})
    assert check.is_valid({"k": "B", "n": 1})
    assert not check.is_valid({"k": "c"})  # names no option
    assert not check.is_valid({"k": "B", "n": 2**31})  # int32 is a range
    assert not oracle({"properties": {"x": {}}}).is_valid(3)  # properties imply an object
