"""The one-operation Pets spec the ``sktypes check`` tests share: ``GET /pets/{id}``.

Its answer is a pet object, written inline or as a reference to another file.
"""

from __future__ import annotations

from pathlib import Path

PET_SCHEMA = "{type: object, properties: {name: {type: string}}}"
"""The pet object, inline (YAML flow style)."""

PET_FILE = "type: object\nproperties: {name: {type: string}}\n"
"""The pet object as a file of its own, for ``{$ref: 'pet.yaml'}``."""

_HEAD = """openapi: 3.0.3
info: {title: Pets, version: "1"}
servers: [{url: "https://pets.example"}]
paths:
  /pets/{id}:
    get:
      operationId: getPet
      parameters:
        - {name: id, in: path, required: true, schema: {type: integer}}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: """


def pets_spec(pet_schema: str = PET_SCHEMA) -> str:
    """The spec's text, its answer's schema written as ``pet_schema`` (one YAML line)."""
    return _HEAD + pet_schema + "\n"


def write_pets_spec(folder: Path, *, pet_in_file: bool = False) -> Path:
    """Write ``api.yaml`` (and ``pet.yaml`` when the pet is a file of its own) to ``folder``."""
    if pet_in_file:
        (folder / "pet.yaml").write_text(PET_FILE)
    path = folder / "api.yaml"
    path.write_text(pets_spec("{$ref: 'pet.yaml'}" if pet_in_file else PET_SCHEMA))
    return path
