"""Issue 29 item 7: one form for every place, ``file:line:column: where: message``.

``check`` wrote ``file:line 13:``, ``generate`` ``file: line 13:``; a ``$ref`` was shown
resolved to an absolute ``file://`` URI; ``check`` named the spec when the broken place was in
a file it ``$ref``s; YAML errors lost PyYAML's context line.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from sktypes.errors import OpenApiError, SktypesError, format_error

BIN = Path(sys.executable).parent

BROKEN_YAML = (
    "openapi: 3.0.0\ninfo:\n  title: x\n  version: '1'\npaths:\n  /a:\n    get:\n"
    "      responses:\n        '200':\n          description: ok\n       bad: [\n"
)
MAIN = """openapi: 3.0.0
info: {title: x, version: "1"}
paths:
  /a:
    get:
      operationId: getA
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                $ref: "./schemas/pet.yaml#/Pet"
"""
PET = "Pet:\n  type: object\n  properties:\n    owner:\n      $ref: '#/Owner'\n"


def _sktypes(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / "sktypes"), *args], cwd=cwd, capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(
    ("kwargs", "text"),
    [
        ({"file": "a.yaml", "line": 3, "column": 7}, "a.yaml:3:7: boom"),
        ({"file": "a.yaml", "line": 3}, "a.yaml:3: boom"),
        ({"file": "a.yaml", "where": "/paths"}, "a.yaml: /paths: boom"),
        ({"file": "a.yaml", "line": 3, "column": 1, "where": "/paths"}, "a.yaml:3:1: /paths: boom"),
        ({"line": 2, "column": 18}, "line 2, column 18: boom"),
        ({"where": "$.a[0]"}, "$.a[0]: boom"),
        ({}, "boom"),
    ],
)
def test_one_form_for_every_place(kwargs: dict[str, object], text: str) -> None:
    assert format_error("boom", **kwargs) == text  # type: ignore[arg-type]
    assert str(SktypesError("boom", **kwargs)) == text  # type: ignore[arg-type]


def test_an_error_can_be_raised_again_at_the_same_place() -> None:
    first = OpenApiError("boom", file="a.yaml", line=3, column=1, where="/paths")
    again = SktypesError("other", **first.location()._asdict())
    assert str(again) == "a.yaml:3:1: /paths: other"


def test_check_and_generate_write_the_same_place_for_a_yaml_error(tmp_path: Path) -> None:
    (tmp_path / "bad.yaml").write_text(BROKEN_YAML)
    checked = _sktypes(tmp_path, "check", "bad.yaml")
    generated = _sktypes(tmp_path, "generate", "bad.yaml", "-o", "out")
    assert checked.returncode == 1 and generated.returncode == 2
    place = "bad.yaml:11:8: "
    assert checked.stdout.startswith(place + "cannot be parsed: not valid YAML or JSON")
    assert generated.stderr.startswith(f"sktypes: error: {place}not valid YAML or JSON")
    # PyYAML's context: where the mapping the mistake breaks started
    assert "(while parsing a block mapping that starts at line 8, column 7)" in generated.stderr
    assert not (tmp_path / "out").exists()


def test_a_ref_is_shown_as_written_and_the_refd_file_is_named(tmp_path: Path) -> None:
    api = tmp_path / "api"
    (api / "schemas").mkdir(parents=True)
    (api / "main.yaml").write_text(MAIN)
    (api / "schemas" / "pet.yaml").write_text(PET)
    for command in (["check"], ["generate", "-o", "out"], ["manual"]):
        done = _sktypes(tmp_path, *command[:1], "api/main.yaml", *command[1:])
        out = done.stdout if command[0] == "check" else done.stderr
        assert "api/schemas/pet.yaml:4:5: /Pet/properties/owner: $ref '#/Owner'" in out, out
    (api / "main.yaml").write_text(MAIN.replace("./schemas/pet.yaml", "./schemas/nope.yaml"))
    done = _sktypes(tmp_path, "generate", "api/main.yaml", "-o", "out")
    assert "api/main.yaml:12:15: /paths/~1a/get" in done.stderr
    assert "$ref './schemas/nope.yaml#/Pet' cannot be loaded: no such file" in done.stderr
    assert "file://" not in done.stderr
    (api / "main.yaml").write_text(MAIN.replace("./schemas/pet.yaml", "../../outside.yaml"))
    done = _sktypes(api, "check", "main.yaml")
    assert "$ref '../../outside.yaml#/Pet' is outside the spec's directory .;" in done.stdout
    assert str(tmp_path) not in done.stdout
