"""Issue 13, item 10: an operationId may be any name, including those the module uses.

``operationId: kernel_function`` made a method that shadowed the decorator for every later
operation in the class body, and the package could not be imported.
"""

from __future__ import annotations

import importlib
import json
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest

import sktypes as sk
from sktypes_codegen import render_plugin

NAMES = [
    "kernel_function",
    "httpx",
    "DEFAULT_BASE_URL",
    "ApiClient",
    "Credential",
    "Request",
    "parse_json",
    "annotations",
    "super",
    "self",
]


def _op(op_id: str) -> dict[str, Any]:
    return {
        "operationId": op_id,
        "responses": {
            "200": {
                "description": "ok",
                "content": {"application/json": {"schema": {"type": "integer"}}},
            }
        },
    }


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("split", [False, True])
def test_operation_ids_named_like_module_names_import_and_call(
    tmp_path: Path, name: str, split: bool
) -> None:
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "Shadow", "version": "1"},
        "paths": {"/a": {"get": _op(name)}, "/b": {"get": _op("after")}},
    }
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(spec))
    package = f"shadow_{uuid.uuid4().hex}"
    _, files = render_plugin(path, name=package, split=split)
    for f, content in files.items():
        (tmp_path / package / f).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / package / f).write_text(content)
    sys.path.insert(0, str(tmp_path))
    try:
        module = importlib.import_module(package)
    finally:
        sys.path.remove(str(tmp_path))
    plugin_cls = next(getattr(module, n) for n in module.__all__ if n != "ApiError")
    views = sk.plugin_views(plugin_cls())
    assert sorted(v.name for v in views) == sorted([name, "after"])
