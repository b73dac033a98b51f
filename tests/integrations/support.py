"""What every framework's tests share: the targets, a real pets API, schema checks.

Framework-free: each ``tests/integrations/<framework>/`` drives these targets through its
framework's own fake model.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import importlib
import json
import sys
import threading
from collections.abc import Iterator, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import hypothesis.strategies as st
from hypothesis_jsonschema import from_schema
from jsonschema import Draft202012Validator, FormatChecker
from pydantic import TypeAdapter
from referencing import Registry, Resource
from referencing.exceptions import Unresolvable
from referencing.jsonschema import DRAFT202012

import sktypes as sk
from examples.date_weather import DatePluginSimpleComplex, WeatherPluginSimpleComplex
from sktypes.kernel import Kernel, KernelPlugin
from sktypes.kernel import openapi_plugin as _openapi_plugin
from tests.typefamilies import FAMILIES

TODAY = dt.date(2026, 1, 1)

# --- the targets --------------------------------------------------------------------


def date_plugin() -> DatePluginSimpleComplex:
    """The example date plugin, with a fixed today."""
    return DatePluginSimpleComplex(today=TODAY)


def weather_plugin() -> WeatherPluginSimpleComplex:
    """The example weather plugin."""
    return WeatherPluginSimpleComplex()


def example_kernel() -> Kernel:
    """Both example plugins in one sktypes kernel."""
    kernel = Kernel()
    kernel.add_plugin(date_plugin())
    kernel.add_plugin(weather_plugin())
    return kernel


def _echo(name: str, tp: Any) -> Any:
    def echo(self: Any, value: Any) -> Any:
        return value

    echo.__annotations__ = {"value": tp, "return": tp}
    echo.__name__ = echo.__qualname__ = f"echo_{name}"
    echo.__doc__ = f"Return the {name} value it is given."
    return sk.kernel_function(echo)


class Families:
    """One function per type family of ``tests/typefamilies.py``: each returns its argument."""


for _name, _tp in FAMILIES.items():
    setattr(Families, f"echo_{_name}", _echo(_name, _tp))

FAMILY_TYPES: dict[str, Any] = {f"echo_{n}": tp for n, tp in FAMILIES.items()}
"""Function name -> the type it takes and returns."""

RECURSIVE = frozenset({"echo_recursive_model"})
"""Functions whose schema is recursive (hypothesis-jsonschema cannot draw their instances)."""

# --- a real pets API on 127.0.0.1 ---------------------------------------------------

PETS_SPEC: dict[str, Any] = {
    "openapi": "3.0.3",
    "info": {"title": "Pets", "version": "1.0"},
    "servers": [{"url": "https://pets.example.com"}],
    "paths": {
        "/pets": {
            "get": {
                "operationId": "listPets",
                "summary": "List pets.",
                "parameters": [
                    {
                        "name": "limit",
                        "in": "query",
                        "description": "How many to return.",
                        "schema": {"type": "integer", "minimum": 1, "maximum": 100},
                    },
                    {
                        "name": "kind",
                        "in": "query",
                        "required": True,
                        "schema": {"type": "string", "enum": ["cat", "dog"]},
                    },
                ],
                "responses": {
                    "200": {
                        "description": "The pets.",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "array",
                                    "items": {"$ref": "#/components/schemas/Pet"},
                                }
                            }
                        },
                    }
                },
            },
            "post": {
                "operationId": "addPet",
                "summary": "Add a pet.",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}
                    },
                },
                "responses": {
                    "200": {
                        "description": "The pet as stored.",
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
            "Owner": {
                "type": "object",
                "required": ["email"],
                "properties": {
                    "email": {"type": "string", "format": "email"},
                    "phone": {"type": "string", "pattern": "^[0-9+ ]{6,20}$"},
                },
            },
            "Pet": {
                "type": "object",
                "required": ["name", "kind"],
                "properties": {
                    "name": {"type": "string", "minLength": 1, "maxLength": 40},
                    "kind": {"type": "string", "enum": ["cat", "dog"]},
                    "age": {"type": "integer", "minimum": 0, "maximum": 40},
                    "owner": {"$ref": "#/components/schemas/Owner"},
                },
            },
        }
    },
}


class _Pets(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        url = urlparse(self.path)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        limit = int(query.get("limit", "2"))
        kind = query.get("kind", "cat")
        self._send([{"name": f"{kind}{i}", "kind": kind, "age": i} for i in range(limit)])

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        self._send(json.loads(self.rfile.read(length) or b"{}"))

    def _send(self, body: Any) -> None:
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextlib.contextmanager
def serve() -> Iterator[str]:
    """Serve the pets API on 127.0.0.1; yield its base URL."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Pets)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(5)


def generated_plugin(out: Path, base_url: str) -> Any:
    """The plugin sktypes generates from the pets spec, as an instance calling ``base_url``."""
    from sktypes_codegen import generate_plugin

    spec = out / "pets.openapi.json"
    spec.write_text(json.dumps(PETS_SPEC))
    generate_plugin(spec, out, name="pets_plugin")
    sys.path.insert(0, str(out))
    try:
        module = importlib.import_module("pets_plugin")
    finally:
        sys.path.remove(str(out))
    return module.PetsPlugin(base_url)


def openapi_plugin(base_url: str) -> KernelPlugin:
    """The pets spec loaded by sktypes, its operations called over HTTP (no generated code)."""
    return _openapi_plugin(sk.load_openapi(PETS_SPEC), server_url=base_url)


# --- schema checks ------------------------------------------------------------------

FORMATS = FormatChecker()
CUSTOM_FORMATS = {
    "uuid": st.uuids().map(str),
    "duration": st.timedeltas().map(
        lambda d: TypeAdapter(dt.timedelta).dump_python(d, mode="json")
    ),
    "path": st.text(min_size=1, alphabet="abc/._-"),
    "binary": st.text(),
}


def dangling_refs(schema: Any) -> list[str]:
    """Every ``$ref`` in ``schema`` that does not resolve inside it."""
    resource = Resource.from_contents(schema, default_specification=DRAFT202012)
    resolver = Registry().with_resource("urn:sent", resource).resolver(base_uri="urn:sent")
    bad: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                try:
                    resolver.lookup(ref)
                except Unresolvable:
                    bad.append(ref)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)
    return bad


def draft7(node: Any) -> Any:
    """``prefixItems`` as draft-7 ``items`` arrays, for hypothesis-jsonschema."""
    if isinstance(node, list):
        return [draft7(v) for v in node]
    if not isinstance(node, dict):
        return node
    out = {k: draft7(v) for k, v in node.items()}
    if "prefixItems" in out:
        rest = out.pop("items", False)
        out["items"] = out.pop("prefixItems")
        out["additionalItems"] = rest
    return out


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 50) | st.floats(-1e3, 1e3) | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)


def candidates(view: sk.FunctionView, recursive: bool) -> st.SearchStrategy[dict[str, Any]]:
    """Argument objects near the view's: valid ones, valid ones with one value replaced, junk."""
    names = [p.name for p in view.parameters]
    junk = st.dictionaries(st.sampled_from([*names, "unknown"]), JSON, max_size=len(names) + 1)
    if recursive:
        return junk
    valid = from_schema(draft7(view.parameters_schema), custom_formats=CUSTOM_FORMATS)
    broken = st.tuples(valid, st.sampled_from([*names, "unknown"]), JSON).map(
        lambda t: {**t[0], t[1]: t[2]}
    )
    return st.one_of(valid, broken, junk)


_VALIDATORS: dict[str, Draft202012Validator] = {}


def _validator(schema: Mapping[str, Any]) -> Draft202012Validator:
    key = json.dumps(schema, sort_keys=True)
    if key not in _VALIDATORS:
        _VALIDATORS[key] = Draft202012Validator(dict(schema), format_checker=FORMATS)
    return _VALIDATORS[key]


def agree(sent: Mapping[str, Any], view: sk.FunctionView, instance: Any) -> tuple[bool, bool]:
    """Whether the schema a framework sends and the view accept ``instance``."""
    mine = _validator(view.parameters_schema)
    return _validator(sent).is_valid(instance), mine.is_valid(instance)


def family_argument(name: str) -> tuple[Any, Any]:
    """A valid JSON argument for ``echo_<family>``, and the typed value it hydrates to."""
    tp = FAMILY_TYPES[name]
    samples: dict[str, Any] = {
        "echo_int": 3,
        "echo_float": 2.5,
        "echo_str": "x",
        "echo_bool": True,
        "echo_none": None,
        "echo_optional": None,
        "echo_union": "u",
        "echo_pipe_union": 4,
        "echo_literal": 3,
        "echo_enum": "red",
        "echo_int_enum": 2,
        "echo_str_enum": "safe",
        "echo_list": [1, 2],
        "echo_fixed_tuple": [1, "a"],
        "echo_var_tuple": [1, 2, 3],
        "echo_set": [1, 2],
        "echo_frozenset": ["a"],
        "echo_dict": {"a": 1},
        "echo_mapping": {"a": 1.5},
        "echo_sequence": ["a", "b"],
        "echo_dataclass": {"x": 1, "y": 2},
        "echo_typeddict": {"street": "Main"},
        "echo_namedtuple": [1, "r"],
        "echo_model": {"sku": "A1", "qty": 2},
        "echo_recursive_model": {"value": 1, "children": [{"value": 2, "children": []}]},
        "echo_discriminated_union": {"pet": {"kind": "cat", "lives": 9}},
        "echo_datetime": "2026-01-01T10:00:00+00:00",
        "echo_date": "2026-01-01",
        "echo_time": "10:30:00",
        "echo_timedelta": "PT1H",
        "echo_uuid": "12345678-1234-5678-1234-567812345678",
        "echo_decimal": "1.50",
        "echo_path": "a/b.txt",
        "echo_annotated_constraints": 7,
        "echo_list_of_models": [{"sku": "B", "qty": 1}],
    }
    value = samples[name]
    return value, TypeAdapter(tp).validate_python(value)


BAD_FAMILY_ARGUMENTS: dict[str, tuple[Any, str]] = {
    "echo_int": ("three", "$.value"),
    "echo_model": ({"sku": "", "qty": 0}, "$.value.sku"),
    "echo_annotated_constraints": (11, "$.value"),
    "echo_list_of_models": ([{"sku": "B", "qty": 5000}], "$.value[0].qty"),
    "echo_discriminated_union": ({"pet": {"kind": "cat", "lives": 12}}, "$.value.pet.lives"),
    "echo_date": ("yesterday", "$.value"),
}
"""Function -> an argument its view refuses, and the JSON path the error must name."""
