"""Spec validation problems that do not stop the views from being built are warnings.

By default every command (``generate``, ``manual``, ``serve``) reports each problem as a
``warning:`` line naming the file, the JSON pointer and the line, and goes on with the
operations it can understand; ``--strict`` makes them errors (exit 2); the pre-commit check
(``sktypes check``) keeps failing on them; ``--no-validate`` skips validation. The library's
``load_openapi`` is strict unless told ``strict=False``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import sktypes as sk
from sktypes.check import check_paths
from sktypes.integrations import mcp

BIN = Path(sys.executable).parent

# Directus ships a request body whose schema is null (the validator refuses it)
NULL_SCHEMA = """\
openapi: 3.0.3
info: {title: Items, version: "1"}
servers: [{url: "https://api.example.com"}]
paths:
  /items:
    post:
      operationId: createItem
      requestBody:
        content:
          application/json:
            schema:
      responses:
        "200":
          description: ok
          content: {application/json: {schema: {type: object, properties: {id: {type: integer}}}}}
"""
BARE = "/paths/~1items/post/requestBody/content/application~1json/schema"
POINTER = f"{BARE} (line 11)"


def _sktypes(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN / "sktypes"), *args], capture_output=True, text=True, cwd=cwd)


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    path = tmp_path / "items.yaml"
    path.write_text(NULL_SCHEMA)
    return path


def test_load_openapi_is_strict_by_default_and_lists_problems_when_not(spec: Path) -> None:
    with pytest.raises(sk.OpenApiError, match="not a valid OpenAPI document"):
        sk.load_openapi(spec)
    plugin = sk.load_openapi(spec, strict=False)
    assert [v.name for v in plugin.views] == ["createItem"]
    assert f"{POINTER}: not a valid OpenAPI document: None is not valid" in "\n".join(
        plugin.warnings
    )
    assert not any("valid OpenAPI" in w for w in sk.load_openapi(spec, validate=False).warnings)


def test_generate_warns_with_the_pointer_and_strict_refuses(spec: Path) -> None:
    done = _sktypes("generate", str(spec), "-o", "out", "--name", "items", cwd=spec.parent)
    assert done.returncode == 0, done.stderr
    assert f"warning: {spec}:11:13: {BARE}: not a valid OpenAPI document" in done.stderr
    assert (spec.parent / "out" / "items" / "plugin.py").is_file()
    strict = _sktypes("generate", str(spec), "-o", "o2", "--strict", cwd=spec.parent)
    assert strict.returncode == 2
    assert f"{spec}:11:13: {BARE}: not a valid OpenAPI document" in strict.stderr
    assert not (spec.parent / "o2").exists()


def test_the_pre_commit_check_keeps_failing_on_them(spec: Path) -> None:
    _sktypes("generate", str(spec), "-o", "out", "--name", "items", cwd=spec.parent)
    findings = [str(f) for f in check_paths([str(spec)])]
    assert findings and "not a valid OpenAPI document" in findings[0]
    assert check_paths([str(spec.parent / "out" / "items")])  # regenerating it is strict too


def test_manual_warns_by_default_and_has_strict_and_no_validate(spec: Path) -> None:
    done = _sktypes("manual", str(spec), "-f", "openai", cwd=spec.parent)
    assert done.returncode == 0, done.stderr
    assert f"warning: {spec}:11:13: {BARE}: not a valid OpenAPI document" in done.stderr
    assert '"createItem"' in done.stdout or "createItem" in done.stdout
    strict = _sktypes("manual", str(spec), "--strict", cwd=spec.parent)
    assert strict.returncode == 2 and "not a valid OpenAPI document" in strict.stderr
    quiet = _sktypes("manual", str(spec), "--no-validate", cwd=spec.parent)
    assert quiet.returncode == 0 and "valid OpenAPI" not in quiet.stderr


def test_serve_has_strict_and_no_validate() -> None:
    done = subprocess.run(
        [str(BIN / "sktypes"), "serve", "--help"], capture_output=True, text=True, check=True
    )
    assert "--strict" in done.stdout and "--no-validate" in done.stdout


def test_the_mcp_server_serves_an_invalid_spec_with_warnings_unless_strict(spec: Path) -> None:
    pytest.importorskip("mcp")
    with pytest.raises(sk.SktypesError, match="not a valid OpenAPI document"):
        mcp.server(str(spec))
    served = mcp.server(str(spec), strict=False)
    assert f"{spec}:11:13: {BARE}: not a valid OpenAPI document" in "\n".join(served.warnings)


def test_every_command_places_a_warning_the_same_way(spec: Path) -> None:
    """Issue 29: ``file:line:column: /pointer: message``, relative as given, one function."""
    shown = {}
    for command in (
        ["generate", "items.yaml", "-o", "out"],
        ["manual", "items.yaml"],
        ["views", "items.yaml"],
    ):
        done = _sktypes(*command, cwd=spec.parent)
        assert done.returncode == 0, done.stderr
        shown[command[0]] = [
            line for line in done.stderr.splitlines() if line.startswith("warning:")
        ]
    assert shown["generate"] == shown["manual"] == shown["views"]
    assert f"warning: items.yaml:11:13: {BARE}: not a valid OpenAPI document" in shown["manual"][-1]
    assert all(line.startswith("warning: items.yaml:11:13: /paths/") for line in shown["manual"])


def test_a_warning_in_a_refd_file_names_that_file_as_the_ref_wrote_it() -> None:
    from sktypes._positions import placed_warning

    at = placed_warning("schemas/pet.yaml#/Pet/not: not cannot be expressed", "api.yaml")
    assert str(at) == "schemas/pet.yaml: /Pet/not: not cannot be expressed"
    raw = b"a:\n  b:\n    c: 1\n"
    assert str(placed_warning("/a/b/c (line 3): bad", "x.yaml", raw)) == "x.yaml:3:5: /a/b/c: bad"
    assert str(placed_warning("/a/b: odd", "x.yaml", raw)) == "x.yaml:2:3: /a/b: odd"
    assert str(placed_warning("no place at all", "x.yaml")) == "x.yaml: no place at all"


def test_a_problem_in_a_refd_schema_is_placed_in_that_file(tmp_path: Path) -> None:
    """The validator's path starts at the ``$ref``'d schema: the place is found in its file."""
    (tmp_path / "schemas").mkdir()
    (tmp_path / "api.yaml").write_text(
        'openapi: 3.0.3\ninfo: {title: t, version: "1"}\npaths:\n  /a:\n    get:\n'
        "      operationId: getA\n      responses:\n        '200':\n          description: ok\n"
        "          content:\n            application/json:\n"
        "              schema: {$ref: './schemas/pet.yaml#/Pet'}\n"
    )
    (tmp_path / "schemas" / "pet.yaml").write_text(
        "Pet:\n  type: object\n  properties:\n    id: {type: integer}\n    n: {type: strin}\n"
    )
    place = "schemas/pet.yaml:5:9: /Pet/properties/n/type: not a valid OpenAPI document"
    strict = _sktypes("generate", "api.yaml", "-o", "out", "--strict", cwd=tmp_path)
    assert strict.returncode == 2 and f"sktypes: error: {place}" in strict.stderr, strict.stderr
    warned = _sktypes("manual", "api.yaml", cwd=tmp_path)
    assert warned.returncode == 0 and f"warning: {place}" in warned.stderr, warned.stderr
    with pytest.raises(sk.OpenApiError) as raised:
        sk.load_openapi(tmp_path / "api.yaml")
    assert (raised.value.where, raised.value.line) == ("/Pet/properties/n/type", 5)
    assert raised.value.file is not None and raised.value.file.endswith("pet.yaml")


def test_a_recorded_warning_in_a_refd_file_is_named_from_where_the_command_runs(
    tmp_path: Path,
) -> None:
    """The verdict cache holds the line from the spec's folder; each working directory reads it."""
    api = tmp_path / "api"
    (api / "schemas").mkdir(parents=True)
    (api / "api.yaml").write_text(
        'openapi: 3.0.3\ninfo: {title: t, version: "1"}\npaths:\n  /a:\n    get:\n'
        "      operationId: getA\n      responses:\n        '200':\n          description: ok\n"
        "          content:\n            application/json:\n"
        "              schema: {$ref: './schemas/pet.yaml#/Pet'}\n"
    )
    (api / "schemas" / "pet.yaml").write_text("Pet:\n  type: object\n  required: 7\n")
    env = {**os.environ, "SKTYPES_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("SKTYPES_NO_CACHE", None)
    seen = []
    for cwd, spec, shown in (
        (tmp_path, "api/api.yaml", "api/schemas"),
        (api, "api.yaml", "schemas"),
    ):
        done = subprocess.run(
            [str(BIN / "sktypes"), "manual", spec], capture_output=True, text=True, cwd=cwd, env=env
        )
        assert done.returncode == 0, done.stderr
        warned = [w for w in done.stderr.splitlines() if "valid OpenAPI" in w]
        assert warned and warned[0].startswith(f"warning: {shown}/pet.yaml:3:3: /Pet/required: ")
        seen.append(warned[0].split(": ", 2)[2])
    assert seen[0] == seen[1]
    assert any((tmp_path / "cache").rglob("*")), "the verdict was not recorded"


def test_a_problem_in_a_component_reached_by_ref_is_placed_there(tmp_path: Path) -> None:
    spec = tmp_path / "api.yaml"
    spec.write_text(
        'openapi: 3.0.3\ninfo: {title: t, version: "1"}\npaths:\n  /a:\n    get:\n'
        "      operationId: getA\n      responses:\n        '200':\n          description: ok\n"
        "          content:\n            application/json:\n"
        "              schema: {$ref: '#/components/schemas/Pet'}\n"
        "components:\n  schemas:\n    Pet:\n      type: object\n      required: 7\n"
    )
    with pytest.raises(sk.OpenApiError) as raised:
        sk.load_openapi(spec)
    assert raised.value.where == "/components/schemas/Pet/required"
    assert (raised.value.line, raised.value.column) == (17, 7)
