"""Generated code always compiles: a module that would not is a GenerationError, never a package.

The reproducer is GitHub's ``packages/list-docker-migration-conflicting-packages-for-
authenticated-user`` in ten lines: an operation with no parameters whose request-builder
call does not fit the line, once rendered as a call holding a lone ``,``.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import pydantic
import pytest

from sktypes.check import check_paths
from sktypes.errors import GenerationError
from sktypes_codegen import generate_plugin, render_plugin
from sktypes_codegen._compile import compile_errors, owner_of

NO_PARAMETERS_LONG_NAME = """\
openapi: 3.0.3
info: {title: Packages, version: "1"}
paths:
  /user/docker/conflicts:
    get:
      operationId: packages/list-docker-migration-conflicting-packages-for-authenticated-user
      responses:
        "200":
          description: ok
          content: {application/json: {schema: {type: array, items: {type: string}}}}
"""


def test_an_operation_without_parameters_and_a_long_name_compiles_and_imports(
    tmp_path: Path,
) -> None:
    spec = tmp_path / "packages.yaml"
    spec.write_text(NO_PARAMETERS_LONG_NAME)
    for width in (40, 88, 120):
        package = generate_plugin(
            spec, tmp_path / f"w{width}", name=f"pk{width}", line_length=width
        )
        source = (package / "plugin.py").read_text()
        assert not [line for line in source.splitlines() if line.strip() == ","]
        sys.path.insert(0, str(package.parent))
        try:
            module = importlib.import_module(f"pk{width}")
        finally:
            sys.path.remove(str(package.parent))
        assert hasattr(module, f"Pk{width}Plugin")


def test_a_module_that_does_not_compile_is_a_generation_error_naming_the_operation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = tmp_path / "packages.yaml"
    spec.write_text(NO_PARAMETERS_LONG_NAME)
    from sktypes_codegen import _plugin

    real = _plugin.OperationContext.code

    def broken(self: _plugin.OperationContext, is_async: bool) -> str:
        return real(self, is_async) + "\n        ,"

    monkeypatch.setattr(_plugin.OperationContext, "code", broken)
    with pytest.raises(GenerationError) as caught:
        render_plugin(spec, name="pk")
    message = str(caught.value)
    assert "generated code does not compile (pk/plugin.py:" in message
    assert "(in operation packages_list_docker_migration_conflicting_packages" in message
    assert "bug in sktypes" in message
    with pytest.raises(GenerationError):
        generate_plugin(spec, tmp_path / "out", name="pk")
    assert not (tmp_path / "out" / "pk").exists()


def test_check_reports_a_module_that_does_not_compile(tmp_path: Path) -> None:
    spec = tmp_path / "packages.yaml"
    spec.write_text(NO_PARAMETERS_LONG_NAME)
    package = generate_plugin(spec, tmp_path / "out", name="pk")
    plugin = package / "plugin.py"
    lines = plugin.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if "return result" in line)
    lines.insert(at, "        ,")
    plugin.write_text("\n".join(lines) + "\n")
    reasons = [str(f) for f in check_paths([str(package)])]
    assert any(
        r.startswith(f"{plugin}:{at + 1}: does not compile: invalid syntax (in operation packages_")
        for r in reasons
    ), reasons


def test_owner_of_a_line_is_the_model_or_operation_around_it() -> None:
    source = "class A(BaseModel):\n    x: int\n    ,\n"
    assert compile_errors([("m.py", source)]) == [("m.py", 3, "invalid syntax (in class A)")]
    assert owner_of("X: TypeAlias = (\n  ,\n)\n", 2) == "X"


def test_integer_bounds_given_as_floats_are_integers(tmp_path: Path) -> None:
    # Cohere's seed: {type: integer, minimum: 0, maximum: 18446744073709552000}; JSON reads the
    # maximum as a float and `le=1.8446744073709552e+19` on an int made the package unimportable
    spec = tmp_path / "seed.json"
    body = {
        "type": "object",
        "properties": {
            "seed": {"type": "integer", "minimum": 0, "maximum": 18446744073709552000},
            "half": {"type": "integer", "minimum": 0.5, "exclusiveMaximum": 9.5},
        },
    }
    spec.write_text(
        json.dumps(
            {
                "openapi": "3.1.0",
                "info": {"title": "Seeds", "version": "1"},
                "paths": {
                    "/g": {
                        "post": {
                            "operationId": "generate",
                            "requestBody": {"content": {"application/json": {"schema": body}}},
                            "responses": {"204": {"description": "ok"}},
                        }
                    }
                },
            }
        ),
        encoding="utf-8",
    )
    package = generate_plugin(spec, tmp_path / "out", name="seeds")
    assert "le=18446744073709551616" in (package / "models.py").read_text()
    sys.path.insert(0, str(package.parent))
    try:
        models = importlib.import_module("seeds.models")
    finally:
        sys.path.remove(str(package.parent))
    model = models.GenerateBody
    assert model.model_validate({"seed": 2**64, "half": 1}).seed == 2**64
    for bad in ({"seed": 2**64 + 1}, {"half": 0}, {"half": 10}):
        with pytest.raises(pydantic.ValidationError):
            model.model_validate(bad)
    assert model.model_validate({"half": 9}).half == 9
