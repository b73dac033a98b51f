"""The package layout split by tag: where models go, imports without cycles, same behaviour."""

from __future__ import annotations

import ast
import asyncio
import importlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

import sktypes as sk
from sktypes_codegen import generate_plugin, render_plugin
from sktypes_codegen._package import SPLIT_OPERATIONS
from tests.test_generate_consistency import assert_same_views

BIN = Path(sys.executable).parent
ROOT = Path(__file__).resolve().parents[1]


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": schema}}}


def _op(op_id: str, tag: str | None, result: dict[str, Any]) -> dict[str, Any]:
    op: dict[str, Any] = {
        "operationId": op_id,
        "responses": {"200": {"description": "ok", **_json(result)}},
    }
    if tag is not None:
        op["tags"] = [tag, "ignored-second-tag"]
    return op


SPEC: dict[str, Any] = {
    "openapi": "3.0.3",
    "info": {"title": "Zoo", "version": "1"},
    "servers": [{"url": "https://zoo.test"}],
    "paths": {
        "/a": {"get": _op("getA", "Animals", _ref("OnlyA"))},
        "/a/common": {"get": _op("getCommonA", "Animals", _ref("Common"))},
        "/b": {"get": _op("getB", "birds & bees", _ref("Node"))},
        "/b/common": {
            "post": {
                **_op("postCommonB", "birds & bees", {"type": "string"}),
                "requestBody": {"required": True, **_json(_ref("Common"))},
            }
        },
        "/health": {
            "get": _op(
                "health", None, {"type": "object", "properties": {"ok": {"type": "boolean"}}}
            )
        },
    },
    "components": {
        "schemas": {
            "OnlyA": {
                "type": "object",
                "required": ["leaf"],
                "properties": {"leaf": _ref("ALeaf"), "kind": {"enum": ["Common", "Node"]}},
            },
            "ALeaf": {"type": "object", "properties": {"n": {"type": "integer"}}},
            "Common": {"type": "object", "properties": {"leaf": _ref("Leaf")}},
            "Leaf": {"type": "object", "properties": {"s": {"type": "string"}}},
            "Node": {
                "type": "object",
                "properties": {"children": {"type": "array", "items": _ref("Node")}},
            },
        }
    },
}


@pytest.fixture(scope="module")
def spec_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("spec") / "zoo.json"
    path.write_text(json.dumps(SPEC), encoding="utf-8")
    return path


def _classes(source: str) -> set[str]:
    return {n.name for n in ast.parse(source).body if isinstance(n, ast.ClassDef)}


def _local_imports(source: str) -> set[str]:
    return {
        "." * n.level + (n.module or "")
        for n in ast.walk(ast.parse(source))
        if isinstance(n, ast.ImportFrom) and n.level
    }


def test_models_live_with_the_only_tag_that_reaches_them(spec_file: Path) -> None:
    _, files = render_plugin(spec_file, name="zoo", split=True)
    assert sorted(f for f in files if f.endswith(".py")) == [
        "__init__.py",
        "models/__init__.py",
        "models/_shared.py",
        "models/animals.py",
        "models/birds_bees.py",
        "models/default.py",
        "operations/__init__.py",
        "operations/animals.py",
        "operations/birds_bees.py",
        "operations/default.py",
        "plugin.py",
    ]
    # Leaf is reached from both tags only through Common, so it is shared too
    assert _classes(files["models/_shared.py"]) == {"Common", "Leaf"}
    assert _classes(files["models/animals.py"]) == {"OnlyA", "ALeaf"}
    assert _classes(files["models/birds_bees.py"]) == {"Node"}
    assert _classes(files["models/default.py"]) == {"HealthResult"}
    # a tag's models import only from _shared (a Literal naming a class imports nothing)
    assert _local_imports(files["models/animals.py"]) == set()
    assert _local_imports(files["models/_shared.py"]) == set()
    assert _local_imports(files["operations/animals.py"]) == {
        "..models._shared",
        "..models.animals",
    }
    assert _local_imports(files["operations/birds_bees.py"]) == {
        "..models._shared",
        "..models.birds_bees",
    }
    assert _classes(files["operations/birds_bees.py"]) == {"BirdsBeesOperations"}


def test_split_package_imports_type_checks_and_matches_the_views(
    spec_file: Path, tmp_path: Path
) -> None:
    target = generate_plugin(spec_file, tmp_path, name="zoo_split", split=True, sync=True)
    assert (target / "models" / "_shared.py").is_file()
    sys.path.insert(0, str(tmp_path))
    try:
        package = importlib.import_module("zoo_split")
        models = importlib.import_module("zoo_split.models")
        animals = importlib.import_module("zoo_split.models.animals")
    finally:
        sys.path.remove(str(tmp_path))
    assert models.OnlyA is animals.OnlyA
    plugin_cls = package.ZooSplitPlugin
    assert len(assert_same_views(plugin_cls, sk.load_openapi(spec_file))) == 5
    assert [c.__name__ for c in plugin_cls.__mro__[1:4]] == [
        "AnimalsOperations",
        "BirdsBeesOperations",
        "DefaultOperations",
    ]

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"children": [{"children": []}]})

    plugin = plugin_cls(client=httpx.AsyncClient(transport=httpx.MockTransport(handler)))
    node = asyncio.run(plugin.get_b())
    assert node.children is not None and node.children[0].children == []
    assert len(sk.plugin_views(plugin)) == 5
    mypy = subprocess.run(
        [BIN / "mypy", "--strict", "--no-incremental", "--cache-dir", os.devnull, str(target)],
        cwd=ROOT,
        env={**os.environ, "MYPYPATH": str(tmp_path)},
        capture_output=True,
        text=True,
    )
    assert mypy.returncode == 0, mypy.stdout
    ruff = subprocess.run(
        [BIN / "ruff", "check", "--isolated", "--line-length", "100", "--select", "E,F,I,UP,B"],
        cwd=target,
        capture_output=True,
        text=True,
    )
    assert ruff.returncode == 0, ruff.stdout


def test_split_is_automatic_for_large_tagged_specs(spec_file: Path) -> None:
    assert "plugin.py" in render_plugin(spec_file)[1]
    assert "models/_shared.py" not in render_plugin(spec_file)[1]
    many = json.loads(json.dumps(SPEC))
    for i in range(SPLIT_OPERATIONS):
        many["paths"][f"/extra/{i}"] = {"get": _op(f"extra{i}", f"T{i % 3}", {"type": "string"})}
    _, files = render_plugin_dict(many, spec_file.parent)
    assert "models/_shared.py" in files and "operations/t0.py" in files
    _, single = render_plugin_dict(many, spec_file.parent, split=False)
    assert "models.py" in single and not any(f.startswith("operations/") for f in single)


def render_plugin_dict(
    spec: dict[str, Any], where: Path, split: bool | None = None
) -> tuple[str, dict[str, str]]:
    path = where / "many.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    return render_plugin(path, split=split)


# GitHub's Event (tag activity) names ReleaseEvent, whose `release` is a class of the activity
# module derived from Release, shared by several tags, whose `assets` names ReleaseAsset,
# defined after it in models/_shared.py: Release was incomplete at import, so the derived class
# inherited an unresolved `list[ReleaseAsset]` that models/activity.py cannot resolve
# ("TypeAdapter[list[Event]] is not fully defined"; 9 GitHub operations failed to parse).
FORWARD: dict[str, Any] = {
    "openapi": "3.0.3",
    "info": {"title": "Releases", "version": "1"},
    "servers": [{"url": "https://releases.test"}],
    "paths": {
        "/events": {
            "get": _op("listEvents", "activity", {"type": "array", "items": _ref("Event")})
        },
        "/releases": {"get": _op("getRelease", "repos", _ref("Release"))},
    },
    "components": {
        "schemas": {
            "Event": {
                "type": "object",
                "required": ["id", "payload"],
                "properties": {"id": {"type": "string"}, "payload": _ref("ReleaseEvent")},
            },
            "ReleaseEvent": {
                "type": "object",
                "required": ["release"],
                "properties": {
                    "release": {
                        "allOf": [
                            _ref("Release"),
                            {"type": "object", "properties": {"short": {"type": "string"}}},
                        ]
                    }
                },
            },
            "Release": {
                "type": "object",
                "required": ["assets"],
                "properties": {
                    "assets": {"type": "array", "items": _ref("ReleaseAsset")},
                    "author": _ref("Author"),
                },
            },
            "ReleaseAsset": {
                "type": "object",
                "required": ["name"],
                "properties": {"name": {"type": "string"}, "uploader": _ref("Author")},
            },
            "Author": {"type": "object", "properties": {"login": {"type": "string"}}},
        }
    },
}


@pytest.mark.parametrize("split", [True, False], ids=["split", "single"])
def test_every_model_is_complete_at_import(tmp_path: Path, split: bool) -> None:
    spec = tmp_path / "releases.json"
    spec.write_text(json.dumps(FORWARD), encoding="utf-8")
    name = f"releases_{'split' if split else 'single'}"
    generate_plugin(spec, tmp_path / "out", name=name, split=split, sync=True)
    sys.path.insert(0, str(tmp_path / "out"))
    try:
        package = importlib.import_module(name)
        models = importlib.import_module(f"{name}.models")
    finally:
        sys.path.remove(str(tmp_path / "out"))
    incomplete = [
        n
        for n in models.__all__
        if isinstance(getattr(models, n), type) and not getattr(models, n).__pydantic_complete__
    ]
    assert incomplete == []
    asset = {"name": "a.tgz", "uploader": {"login": "o"}}
    answer = [{"id": "1", "payload": {"release": {"assets": [asset]}}}]

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json=answer)

    client = httpx.Client(transport=httpx.MockTransport(handler))
    plugin_cls = package.ReleasesSplitPlugin if split else package.ReleasesSinglePlugin
    plugin = plugin_cls(sync_client=client)
    events = plugin.list_events_sync()
    assert events[0].payload.release.assets[0].uploader.login == "o"


def test_a_model_named_like_a_builtin_does_not_resolve_to_the_builtin(tmp_path: Path) -> None:
    # Plaid's AssetReportGetResponse names its schema `Warning`, defined below it: the class
    # statement resolved `list[Warning]` to Python's builtin Warning, and the model could not
    # be built (PydanticSchemaGenerationError at import once the module rebuilds its models)
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "Reports", "version": "1"},
        "paths": {
            "/report": {"get": _op("getReport", None, _ref("Report"))},
        },
        "components": {
            "schemas": {
                "Report": {
                    "type": "object",
                    "properties": {"warnings": {"type": "array", "items": _ref("Warning")}},
                },
                "Warning": {"type": "object", "properties": {"code": {"type": "string"}}},
            }
        },
    }
    path = tmp_path / "reports.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    generate_plugin(path, tmp_path / "out", name="reports_pkg")
    sys.path.insert(0, str(tmp_path / "out"))
    try:
        models = importlib.import_module("reports_pkg.models")
    finally:
        sys.path.remove(str(tmp_path / "out"))
    report = models.Report.model_validate({"warnings": [{"code": "late"}]})
    assert report.warnings[0].code == "late"
    assert not issubclass(type(report.warnings[0]), BaseException)


@pytest.mark.parametrize("schema_name", ["BaseModel", "ConfigDict", "Field", "Any", "MISSING"])
def test_a_model_never_takes_a_name_the_module_imports(tmp_path: Path, schema_name: str) -> None:
    # Cohere's fine-tuning schema `BaseModel`: `class BaseModel(BaseModel)` replaced pydantic's
    # BaseModel for every model defined below it (they inherited its fields); mypy: no-redef
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "Tunes", "version": "1"},
        "paths": {"/t": {"get": _op("getTune", None, _ref("Tune"))}},
        "components": {
            "schemas": {
                "Tune": {
                    "type": "object",
                    "properties": {"base": _ref(schema_name), "after": _ref("After")},
                },
                schema_name: {"type": "object", "properties": {"name": {"type": "string"}}},
                "After": {"type": "object", "properties": {"n": {"type": "integer"}}},
            }
        },
    }
    path = tmp_path / "tunes.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    package = f"tunes_{schema_name.lower()}"
    generate_plugin(path, tmp_path / "out", name=package)
    sys.path.insert(0, str(tmp_path / "out"))
    try:
        models = importlib.import_module(f"{package}.models")
    finally:
        sys.path.remove(str(tmp_path / "out"))
    assert set(models.After.model_fields) == {"n"}
    tune = models.Tune.model_validate({"base": {"name": "x"}, "after": {"n": 1}})
    assert tune.base.name == "x"


def test_an_option_allowing_one_discriminator_value_is_named_by_it(tmp_path: Path) -> None:
    # OpenAI's usage results: oneOf [...] discriminated by `object` without a mapping, each
    # option's `object` an enum of one value ("organization.usage.completions.result"): every
    # real answer was refused ("Input tag ... does not match any of the expected tags")
    def result(value: str, field: str) -> dict[str, Any]:
        return {
            "type": "object",
            "required": ["object", field],
            "properties": {
                "object": {"type": "string", "enum": [value]},
                field: {"type": "integer"},
            },
        }

    spec = {
        "openapi": "3.0.3",
        "info": {"title": "Usage", "version": "1"},
        "paths": {
            "/usage": {
                "get": _op(
                    "usage",
                    None,
                    {
                        "type": "array",
                        "items": {
                            "oneOf": [_ref("Completions"), _ref("Embeddings")],
                            "discriminator": {"propertyName": "object"},
                        },
                    },
                )
            }
        },
        "components": {
            "schemas": {
                "Completions": result("organization.usage.completions.result", "tokens"),
                "Embeddings": result("organization.usage.embeddings.result", "inputs"),
            }
        },
    }
    path = tmp_path / "usage.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    generate_plugin(path, tmp_path / "out", name="usage_pkg", sync=True)
    sys.path.insert(0, str(tmp_path / "out"))
    try:
        package = importlib.import_module("usage_pkg")
    finally:
        sys.path.remove(str(tmp_path / "out"))
    answer = [
        {"object": "organization.usage.embeddings.result", "inputs": 3},
        {"object": "organization.usage.completions.result", "tokens": 5},
    ]

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json=answer)

    plugin = package.UsagePkgPlugin(
        sync_client=httpx.Client(transport=httpx.MockTransport(handler))
    )
    got = plugin.usage_sync()
    assert [type(r).__name__ for r in got] == ["Embeddings", "Completions"]
