"""``$ref`` resolution: files, remote documents, cycles, refs on non-schema objects."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

import sktypes as sk
from sktypes.errors import OpenApiError
from sktypes.openapi import load_openapi
from tests.remote_util import import_generated

HEAD = "openapi: 3.0.3\ninfo: {title: T, version: '1'}\n"


def _returning(ref: str) -> str:
    return HEAD + (
        "paths:\n  /p:\n    get:\n      operationId: g\n      responses:\n        '200':\n"
        "          description: ok\n          content:\n            application/json:\n"
        f"              schema: {{$ref: '{ref}'}}\n"
    )


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """A local HTTP server serving ``tmp_path/www``; yields its base URL."""
    www = tmp_path / "www"
    www.mkdir()
    handler = partial(_QuietHandler, directory=str(www))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def test_remote_ref_is_fetched_only_when_allowed(tmp_path: Path, server: str) -> None:
    (tmp_path / "www" / "models.yaml").write_text(
        "Pet:\n  type: object\n  properties:\n    owner: {$ref: '#/Owner'}\nOwner: {type: string}\n"
    )
    spec = tmp_path / "api.yaml"
    spec.write_text(_returning(f"{server}/models.yaml#/Pet"))
    with pytest.raises(OpenApiError, match="refused"):
        load_openapi(spec)
    assert "refused" in load_openapi(spec, validate=False).warnings[0]
    plugin = load_openapi(spec, validate=False, allow_remote_refs=True)
    schema = plugin.view("g").return_parameter.schema
    assert schema is not None
    assert schema.to_python() == {
        "$ref": "#/$defs/Pet",
        "$defs": {
            "Owner": {"type": "string"},
            "Pet": {"type": "object", "properties": {"owner": {"$ref": "#/$defs/Owner"}}},
        },
    }


def test_missing_remote_document_is_a_one_line_error(tmp_path: Path, server: str) -> None:
    spec = tmp_path / "api.yaml"
    spec.write_text(_returning(f"{server}/absent.yaml#/Pet"))
    with pytest.raises(OpenApiError) as info:
        load_openapi(spec, allow_remote_refs=True)
    message = str(info.value)
    assert message.startswith(f"{spec}:12:15: /paths/~1p/get/responses/200/content/")
    assert "absent.yaml' cannot be fetched: Client error '404 File not found'" in message
    assert "\n" not in message


def test_recursion_across_files_stays_refs(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text("type: object\nproperties:\n  b: {$ref: 'b.yaml'}\n")
    (tmp_path / "b.yaml").write_text("type: array\nitems: {$ref: 'a.yaml'}\n")
    spec = tmp_path / "api.yaml"
    spec.write_text(_returning("a.yaml"))
    schema = load_openapi(spec).view("g").return_parameter.schema
    assert schema is not None
    value = schema.to_python()
    assert value["$defs"] == {
        "a": {"type": "object", "properties": {"b": {"$ref": "#/$defs/b"}}},
        "b": {"type": "array", "items": {"$ref": "#/$defs/a"}},
    }
    assert Draft202012Validator(value).is_valid({"b": [{"b": []}]})


def test_same_component_name_in_two_files_gets_distinct_defs(tmp_path: Path) -> None:
    for name, kind in (("one", "string"), ("two", "integer")):
        (tmp_path / f"{name}.yaml").write_text(
            f"components:\n  schemas:\n    Id: {{type: {kind}}}\n"
        )
    spec = tmp_path / "api.yaml"
    spec.write_text(
        _returning("one.yaml#/components/schemas/Id")
        + "  /q:\n    get:\n      operationId: h\n      responses:\n        '200':\n"
        "          description: ok\n          content:\n            application/json:\n"
        "              schema: {$ref: 'two.yaml#/components/schemas/Id'}\n"
    )
    plugin = load_openapi(spec)
    schemas = [v.return_parameter.schema for v in plugin.views]
    assert [s.to_python() for s in schemas if s is not None] == [
        {"$ref": "#/$defs/Id", "$defs": {"Id": {"type": "string"}}},
        {"$ref": "#/$defs/two_Id", "$defs": {"two_Id": {"type": "integer"}}},
    ]


def test_schemas_that_only_ref_each_other_are_a_cycle_error() -> None:
    spec = _returning("#/components/schemas/A") + (
        "components:\n  schemas:\n    A: {$ref: '#/components/schemas/B'}\n"
        "    B: {$ref: '#/components/schemas/A'}\n"
    )
    with pytest.raises(OpenApiError) as info:
        load_openapi(spec)
    assert str(info.value) == (
        "<string>:15:5: /components/schemas/A: $ref cycle in a schema: "
        "#/components/schemas/A → #/components/schemas/B → #/components/schemas/A"
    )


def test_refs_on_parameters_responses_bodies_and_path_items_are_followed() -> None:
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "T", "version": "1"},
        "paths": {
            "/a": {"$ref": "#/x-items/a"},
        },
        "x-items": {
            "a": {
                "post": {
                    "operationId": "p",
                    "parameters": [{"$ref": "#/components/parameters/Q"}],
                    "requestBody": {"$ref": "#/components/requestBodies/B"},
                    "responses": {"200": {"$ref": "#/components/responses/R"}},
                }
            }
        },
        "components": {
            "parameters": {"Q": {"name": "q", "in": "query", "schema": {"type": "string"}}},
            "requestBodies": {
                "B": {"required": True, "content": {"application/json": {"schema": {}}}}
            },
            "responses": {
                "R": {
                    "description": "Done.",
                    "content": {"application/json": {"schema": {"type": "boolean"}}},
                }
            },
        },
    }
    plugin = load_openapi(spec)
    view = plugin.view("p")
    assert [p.name for p in view.parameters] == ["q", "body"]
    assert view.return_parameter.description == "Done."
    assert view.return_parameter.schema is not None
    assert view.return_parameter.schema.to_python() == {"type": "boolean"}


def test_validation_does_not_fetch_a_remote_ref_that_no_operation_uses(tmp_path: Path) -> None:
    spec = tmp_path / "api.yaml"
    spec.write_text(
        HEAD + "paths: {}\ncomponents:\n  schemas:\n"
        "    Unused: {$ref: 'https://example.invalid/x.yaml'}\n"
    )
    with pytest.raises(OpenApiError) as info:
        load_openapi(spec)
    assert str(info.value) == (
        f"{spec}:6:14: /components/schemas/Unused/$ref: remote $ref refused"
        " (pass allow_remote_refs=True to fetch it)"
    )
    assert load_openapi(spec, validate=False).views == []


# DigitalOcean's volume and NFS actions: anyOf options in other files, a discriminator whose
# mapping names those files ('models/volume_action_post_attach.yml', 'models/nfs.yml#/x').
# The mapping values were kept as written, named nothing in the view, and every tagged
# argument was refused ("Input tag 'attach' ... does not match any of the expected tags:
# 'volume_action_post_attach', ...").
ACTION = "type: object\nrequired: [type]\nproperties:\n  type: {{type: string}}\n  {field}\n"
ACTIONS_SPEC = (
    HEAD
    + """\
paths:
  /actions:
    post:
      operationId: act
      requestBody:
        required: true
        content:
          application/json:
            schema:
              anyOf:
                - $ref: 'models/volume_attach.yml'
                - $ref: 'models/more.yml#/volume_resize'
                - $ref: '#/components/schemas/VolumeDetach'
              discriminator:
                propertyName: type
                mapping:
                  attach: 'models/volume_attach.yml'
                  resize: 'models/more.yml#/volume_resize'
                  detach: '#/components/schemas/VolumeDetach'
      responses:
        '204': {description: done}
components:
  schemas:
    VolumeDetach:
      type: object
      required: [type]
      properties:
        type: {type: string}
        volume: {type: string}
"""
)


def _actions(tmp_path: Path) -> Path:
    models = tmp_path / "models"
    models.mkdir()
    (models / "volume_attach.yml").write_text(ACTION.format(field="droplet_id: {type: integer}"))
    resize = ACTION.format(field="size: {type: integer}").splitlines()
    (models / "more.yml").write_text("volume_resize:\n" + "".join(f"  {line}\n" for line in resize))
    spec = tmp_path / "api.yaml"
    spec.write_text(ACTIONS_SPEC)
    return spec


def test_discriminator_mappings_to_other_files_are_resolved_like_refs(tmp_path: Path) -> None:
    plugin = load_openapi(_actions(tmp_path))
    # (the folder's name holds "discriminator": a warning naming a file there is not one)
    assert not [w for w in plugin.warnings if "discriminator" in w.replace(str(tmp_path), "")]
    schema = plugin.view("act").parameters[0].schema
    assert schema is not None
    value = schema.to_python()
    assert value["discriminator"]["mapping"] == {
        "attach": "#/$defs/volume_attach",
        "resize": "#/$defs/volume_resize",
        "detach": "#/$defs/VolumeDetach",
    }
    assert {"volume_attach", "volume_resize", "VolumeDetach"} <= set(value["$defs"])
    assert [o["$ref"] for o in value["anyOf"]] == [
        "#/$defs/volume_attach",
        "#/$defs/volume_resize",
        "#/$defs/VolumeDetach",
    ]


def test_a_mapping_that_cannot_be_followed_is_dropped_with_its_reason(tmp_path: Path) -> None:
    spec = _actions(tmp_path)
    text = spec.read_text()
    spec.write_text(text.replace("attach: 'models/volume_attach.yml'", "attach: 'gone.yml'"))
    plugin = load_openapi(spec)
    said = [w for w in plugin.warnings if "discriminator" in w]
    assert len(said) == 1
    assert said[0].startswith(
        "/paths/~1actions/post/requestBody/content/application~1json/schema/discriminator/"
        "mapping/attach: $ref 'gone.yml' cannot be loaded: no such file; the mapping of 'attach'"
        " dropped"
    )
    schema = plugin.view("act").parameters[0].schema
    assert schema is not None
    assert "attach" not in schema.to_python()["discriminator"]["mapping"]


def test_the_generated_body_is_discriminated_by_those_mappings(tmp_path: Path) -> None:
    module = import_generated(_actions(tmp_path), tmp_path / "out", "actions_pkg")
    cls = next(getattr(module, n) for n in module.__all__ if n != "ApiError")
    view = next(v for v in sk.plugin_views(cls("http://test")) if v.name == "act")
    for body, model in (
        ({"type": "attach", "droplet_id": 7}, "VolumeAttach"),
        ({"type": "resize", "size": 100}, "VolumeResize"),
        ({"type": "detach", "volume": "v"}, "VolumeDetach"),
    ):
        native = sk.hydrate(view, {"body": body}, repair=False)
        assert type(native["body"]).__name__ == model
        assert native["body"].model_dump(exclude_unset=True) == body
    with pytest.raises(sk.HydrationError):
        sk.hydrate(view, {"body": {"type": "shrink", "size": 1}}, repair=False)
