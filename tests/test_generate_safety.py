"""Hostile names and descriptions still give code that compiles, imports and runs none of it."""

from __future__ import annotations

import importlib
import json
import sys
import tempfile
import uuid
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import sktypes as sk
from sktypes_codegen import render_plugin
from sktypes_codegen._naming import class_name, docstring_body, identifier, py_string

NASTY = [
    '"""',
    "'''",
    "\\",
    "\n",
    "class",
    "__init__",
    "__import__('os').system('x')",
    '"); import os; os._exit(3) #',
    "é\u2028\U0001f600",
    "self",
    "model_config",
    "json",
    "2fa",
    "",
]
text = st.one_of(st.sampled_from(NASTY), st.text(max_size=30))


@given(text)
def test_identifiers_are_safe(value: str) -> None:
    name = identifier(value)
    assert name.isidentifier() and name.isascii()
    assert not name.startswith("__")
    cls = class_name(value)
    assert cls.isidentifier() and cls.isascii()


@given(text)
def test_string_literals_round_trip_without_executing(value: str) -> None:
    literal = py_string(value)
    assert literal.isascii()
    assert eval(compile(literal, "<lit>", "eval"), {"__builtins__": {}}) == value


@given(text)
def test_docstrings_cannot_escape(value: str) -> None:
    body = "\n    ".join(docstring_body(value, indent=4))
    source = f'def f() -> None:\n    """{body or "x"}\n    """\n'
    namespace: dict[str, object] = {}
    exec(compile(source, "<doc>", "exec"), namespace)  # only defines f
    assert callable(namespace["f"])


def _spec(op_id: str, param: str, prop: str, description: str, title: str) -> dict[str, object]:
    return {
        "openapi": "3.0.3",
        "info": {"title": title or "t", "version": "1", "description": description},
        "paths": {
            "/things/{id}": {
                "post": {
                    "operationId": op_id or "op",
                    "tags": [title or "t"],
                    "description": description,
                    "summary": description,
                    "parameters": [
                        {
                            "name": "id",
                            "in": "path",
                            "required": True,
                            "schema": {"type": "string"},
                        },
                        {
                            "name": param or "p",
                            "in": "query",
                            "description": description,
                            "schema": {"type": "string", "enum": [description or "a"]},
                        },
                    ],
                    "requestBody": {
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "description": description,
                                    "properties": {
                                        prop or "q": {"type": "string", "description": description}
                                    },
                                }
                            }
                        }
                    },
                    "responses": {
                        "200": {
                            "description": description or "ok",
                            "content": {
                                "application/json": {
                                    "schema": {
                                        "type": "object",
                                        "properties": {prop or "q": {"type": "integer"}},
                                    }
                                }
                            },
                        }
                    },
                }
            }
        },
    }


@settings(max_examples=15)
@given(text, text, text, text, text, st.booleans())
def test_hostile_specs_generate_importable_plugins(
    op_id: str, param: str, prop: str, description: str, title: str, split: bool
) -> None:
    """Hostile names, descriptions and tags (the split layout's module and class names)."""
    tmp = Path(tempfile.mkdtemp())
    if param == "id":
        param = "p"
    spec = tmp / "spec.json"
    spec.write_text(json.dumps(_spec(op_id, param, prop, description, title)))
    package = f"hostile_{uuid.uuid4().hex}"
    _, files = render_plugin(spec, name=package, split=split)
    assert ("operations/__init__.py" in files) is split
    for f, content in files.items():
        if f.endswith(".py"):
            compile(content, f, "exec")
        (tmp / package / f).parent.mkdir(parents=True, exist_ok=True)
        (tmp / package / f).write_text(content)
    sys.path.insert(0, str(tmp))
    try:
        module = importlib.import_module(package)
    finally:
        sys.path.remove(str(tmp))
    plugin_cls = next(getattr(module, n) for n in module.__all__ if n != "ApiError")
    views = sk.plugin_views(plugin_cls())
    assert len(views) == 1
