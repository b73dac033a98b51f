"""A repository as a team keeps it: two specs named ``openapi.yaml``, one split across files."""

from __future__ import annotations

from pathlib import Path

V1 = """\
openapi: 3.0.3
info: {title: Pets, version: "1"}
servers: [{url: "https://pets.test/v1"}]
paths:
  /pets/{id}:
    get:
      operationId: getPet
      tags: [pets]
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "./schemas/pet.yaml#/Pet"}
  /stores:
    get:
      operationId: listStores
      tags: [stores]
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {type: array, items: {type: string}}
"""

PET = """\
Pet:
  type: object
  required: [name]
  properties:
    name: {type: string}
    tag: {$ref: "./common.yaml#/Tag"}
"""

COMMON = """\
Tag:
  type: string
"""

V2 = """\
openapi: 3.1.0
info: {title: Pets, version: "2"}
servers: [{url: "https://pets.test/v2"}]
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {type: array, items: {type: string}}
"""


def make_repo(root: Path) -> Path:
    """Write the specs under ``root/api`` and return ``root``."""
    (root / "api" / "v1" / "schemas").mkdir(parents=True)
    (root / "api" / "v2").mkdir(parents=True)
    (root / "api" / "v1" / "openapi.yaml").write_text(V1)
    (root / "api" / "v1" / "schemas" / "pet.yaml").write_text(PET)
    (root / "api" / "v1" / "schemas" / "common.yaml").write_text(COMMON)
    (root / "api" / "v2" / "openapi.yaml").write_text(V2)
    return root
