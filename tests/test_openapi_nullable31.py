"""OpenAPI 3.1 documents that still say ``nullable: true`` (ReadMe's API: 498 times).

3.1 has no ``nullable``; users mean what 3.0 meant (the type or null), so it is honoured
that way, with a warning naming each place: never silently ignored, never silently kept.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import jsonschema
import pytest

import sktypes as sk
from sktypes_codegen import GenerationWarning, generate_plugin

SPEC = """\
openapi: 3.1.0
info: {title: Pages, version: "1"}
paths:
  /pages:
    get:
      operationId: getPage
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Page"}
components:
  schemas:
    Page:
      type: object
      required: [next, kind]
      properties:
        next: {type: string, nullable: true}
        kind: {type: string, enum: [a, b], nullable: true}
        plain: {type: string}
"""


def test_nullable_in_3_1_admits_null_with_a_warning_per_place(tmp_path: Path) -> None:
    spec = tmp_path / "pages.yaml"
    spec.write_text(SPEC)
    plugin = sk.load_openapi(spec)
    nullable = [w for w in plugin.warnings if "nullable" in w]
    assert nullable == [
        "/components/schemas/Page/properties/next: nullable: true is not OpenAPI 3.1; "
        "read as its type or null",
        "/components/schemas/Page/properties/kind: nullable: true is not OpenAPI 3.1; "
        "read as its type or null",
    ]
    schema = plugin.views[0].return_parameter.schema
    assert schema is not None
    validator = jsonschema.Draft202012Validator(schema.to_python())
    assert validator.is_valid({"next": None, "kind": None})
    assert not validator.is_valid({"next": None, "kind": None, "plain": None})


def test_the_generated_model_takes_the_nulls_the_server_sends(tmp_path: Path) -> None:
    spec = tmp_path / "pages.yaml"
    spec.write_text(SPEC)
    with pytest.warns(GenerationWarning, match="nullable: true is not OpenAPI 3.1"):
        generate_plugin(spec, tmp_path / "out", name="pages31")
    sys.path.insert(0, str(tmp_path / "out"))
    try:
        models = importlib.import_module("pages31.models")
    finally:
        sys.path.remove(str(tmp_path / "out"))
    page = models.Page.model_validate({"next": None, "kind": None})
    assert page.next is None and page.kind is None


def test_nullable_in_3_0_is_read_without_a_warning(tmp_path: Path) -> None:
    spec = tmp_path / "pages30.yaml"
    spec.write_text(SPEC.replace("openapi: 3.1.0", "openapi: 3.0.3"))
    plugin = sk.load_openapi(spec)
    assert not [w for w in plugin.warnings if "nullable" in w]
    schema = plugin.views[0].return_parameter.schema
    assert schema is not None
    assert jsonschema.Draft202012Validator(schema.to_python()).is_valid(
        {"next": None, "kind": None}
    )


# OpenAI's Upload.file: "File or null" said through an allOf member with no type. Alone the
# member admits anything, so the flag changed nothing: the view refused null for a typed File
# (and admitted it for OpenAI's typeless one only by accident), the generated model refused
# it always ('$.file: Input should be an object' on every createUpload answer).
ALLOF = """\
openapi: 3.1.0
info: {title: Uploads, version: "1"}
paths:
  /uploads:
    post:
      operationId: createUpload
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Upload"}
components:
  schemas:
    File:
      type: object
      required: [id]
      properties: {id: {type: string}}
    Upload:
      type: object
      required: [id, file]
      properties:
        id: {type: string}
        file:
          allOf:
            - $ref: "#/components/schemas/File"
            - nullable: true
              description: The ready File object after the Upload is completed.
"""


@pytest.mark.parametrize("version", ["3.1.0", "3.0.3"])
def test_an_allof_member_saying_only_nullable_makes_the_allof_nullable(
    tmp_path: Path, version: str
) -> None:
    spec = tmp_path / "uploads.yaml"
    spec.write_text(ALLOF.replace("openapi: 3.1.0", f"openapi: {version}"))
    plugin = sk.load_openapi(spec)
    said = [w for w in plugin.warnings if "nullable" in w]
    suffix = " (nullable is not OpenAPI 3.1)" if version == "3.1.0" else ""
    assert said == [
        "/components/schemas/Upload/properties/file/allOf/1: nullable: true in an allOf "
        "member without a type: read as the allOf's schemas or null" + suffix
    ]
    schema = plugin.views[0].return_parameter.schema
    assert schema is not None
    validator = jsonschema.Draft202012Validator(schema.to_python())
    assert validator.is_valid({"id": "u", "file": None})
    assert validator.is_valid({"id": "u", "file": {"id": "f"}})
    assert not validator.is_valid({"id": "u", "file": {}})  # still a File when not null
    assert not validator.is_valid({"id": "u", "file": "f"})

    with pytest.warns(GenerationWarning, match="allOf member without a type"):
        generate_plugin(spec, tmp_path / "out", name=f"uploads{version[2]}")
    sys.path.insert(0, str(tmp_path / "out"))
    try:
        models = importlib.import_module(f"uploads{version[2]}.models")
    finally:
        sys.path.remove(str(tmp_path / "out"))
    assert models.Upload.model_validate({"id": "u", "file": None}).file is None
    assert models.Upload.model_validate({"id": "u", "file": {"id": "f"}}).file.id == "f"
    with pytest.raises(ValueError):
        models.Upload.model_validate({"id": "u", "file": {}})


def test_an_allof_member_with_a_type_keeps_its_own_nullable(tmp_path: Path) -> None:
    # a typed member says "this type or null" of itself, as everywhere: not lifted
    spec = tmp_path / "typed.yaml"
    text = ALLOF.replace("- nullable: true\n", "- nullable: true\n              type: object\n")
    spec.write_text(text.replace("openapi: 3.1.0", "openapi: 3.0.3"))
    plugin = sk.load_openapi(spec)
    assert not [w for w in plugin.warnings if "nullable" in w]
    schema = plugin.views[0].return_parameter.schema
    assert schema is not None
    validator = jsonschema.Draft202012Validator(schema.to_python())
    assert not validator.is_valid({"id": "u", "file": None})
