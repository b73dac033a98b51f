"""OpenAPI ingestion: operations → views and operation info, on small inline specs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from sktypes.manual import functions_manual
from sktypes.openapi import OpenApiPlugin, load_openapi
from sktypes.openapi._naming import identifier, package_identifier, plugin_identifier, readable
from sktypes.views import FunctionView, ParameterViewType

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "schemas" / "examples"

# The functions manual printed in the ADR ("Providing more type information to SKFunctions
# and Planners"), verbatim.
ADR_MANUAL = json.loads("""
[
  {
    "name": "DatePluginSimpleComplex.GetDate1",
    "description": "Gets the date with the current date offset by the specified number of days.",
    "parameters": {
      "type": "object",
      "required": ["numDays"],
      "properties": {
        "numDays": {
          "type": "integer",
          "description": "The number of days to offset the date by from today. Positive for future, negative for past."
        }
      }
    },
    "responses": {
      "200": {
        "description": "Successful response.",
        "content": {
          "application/json": {
            "schema": {
              "type": "object",
              "properties": { "date": { "type": "string" } },
              "description": "The date."
            }
          }
        }
      }
    }
  },
  {
    "name": "WeatherPluginSimpleComplex.GetWeatherForecast1",
    "description": "Gets the weather forecast for the specified date and the current location, and time.",
    "parameters": {
      "type": "object",
      "required": ["date"],
      "properties": {
        "date": { "type": "string", "description": "The date for the forecast" }
      }
    },
    "responses": {
      "200": {
        "description": "Successful response.",
        "content": {
          "application/json": {
            "schema": {
              "type": "object",
              "properties": { "degreesFahrenheit": { "type": "integer" } },
              "description": "The forecasted temperature in Fahrenheit."
            }
          }
        }
      }
    }
  }
]
""")  # noqa: E501  # the ADR's lines, kept as printed


def spec30(paths: dict[str, Any], **extra: Any) -> dict[str, Any]:
    info = {"title": "Test API", "version": "1"}
    return {"openapi": "3.0.3", "info": info, "paths": paths, **extra}


def ok(schema: dict[str, Any] | None = None, code: str = "200") -> dict[str, Any]:
    response: dict[str, Any] = {"description": "ok"}
    if schema is not None:
        response["content"] = {"application/json": {"schema": schema}}
    return {code: response}


def schema_of(plugin: OpenApiPlugin, fn: str, param: str | None = None) -> Any:
    view = plugin.view(fn)
    doc = view.return_parameter.schema if param is None else view.parameter(param).schema
    assert doc is not None
    value = doc.to_python()
    Draft202012Validator.check_schema(value)
    return value


# -- the ADR example ------------------------------------------------------------------------


def test_planner_manual_of_both_example_specs_is_exactly_the_adrs() -> None:
    views = [
        v
        for name in ("date_plugin", "weather_plugin")
        for v in load_openapi(EXAMPLES / f"{name}.openapi.yaml").views
    ]
    assert functions_manual(views, format="planner") == ADR_MANUAL


def test_example_operation_tells_the_generator_how_to_call_it() -> None:
    plugin = load_openapi(EXAMPLES / "date_plugin.openapi.yaml")
    assert plugin.name == "DatePluginSimpleComplex"
    assert plugin.servers == ("https://date.example.com",)
    op = plugin.operation("GetDate1")
    assert (op.method, op.path, op.success_status) == ("get", "/date", "200")
    assert op.response_content_type == "application/json"
    (param,) = op.parameters
    assert (param.name, param.location, param.style, param.explode, param.required) == (
        "numDays",
        "query",
        "form",
        True,
        True,
    )
    assert plugin.view("GetDate1").parameter("numDays").type is ParameterViewType.INTEGER


# -- names ----------------------------------------------------------------------------------


def test_function_names_come_from_operation_id_or_method_and_path() -> None:
    long_id = "x" * 80
    plugin = load_openapi(
        spec30(
            {
                "/pets/{petId}": {
                    "get": {"responses": ok()},
                    "put": {"operationId": "pets/update one", "responses": ok()},
                    "post": {"operationId": long_id, "responses": ok()},
                    "delete": {"operationId": "pets/update one", "responses": ok()},
                }
            }
        ),
        validate=False,
    )
    names = [v.name for v in plugin.views]
    assert names[0] == "get_pets_petId"
    assert names[1] == "pets_update_one"
    assert len(names[2]) == 64 and names[2].isidentifier()
    assert names[3] == "delete_pets_petId"  # the clash falls back to method + path
    assert len(set(names)) == 4


def test_plugin_name_is_a_short_form_of_the_title_unless_given() -> None:
    assert load_openapi(spec30({})).name == "Test"  # "Test API"
    assert load_openapi(spec30({}), "my plugin").name == "my_plugin"


@given(st.text(max_size=120))
def test_identifier_is_always_a_short_valid_identifier(text: str) -> None:
    name = identifier(text)
    assert name.isidentifier() and name.isascii() and len(name) <= 64
    assert identifier(text) == name
    short = readable(text)
    assert short is None or (short.isidentifier() and short.isascii() and len(short) <= 64)
    plugin = plugin_identifier(text)
    assert plugin.isidentifier() and plugin.isascii() and len(plugin) <= 64
    package = package_identifier(text)
    assert package == "" or (package.isidentifier() and package.isascii())


# -- paths and parameters ---------------------------------------------------------------------


def test_non_operation_keys_under_a_path_are_not_operations_and_path_parameters_merge() -> None:
    item = {
        "summary": "pets",
        "description": "all pets",
        "servers": [
            {"url": "https://{region}.example.com", "variables": {"region": {"default": "eu"}}}
        ],
        "x-internal": True,
        "parameters": [
            {"name": "petId", "in": "path", "required": True, "schema": {"type": "string"}},
            {"name": "verbose", "in": "query", "schema": {"type": "boolean"}},
        ],
        "get": {
            "operationId": "getPet",
            "parameters": [{"name": "verbose", "in": "query", "schema": {"type": "integer"}}],
            "responses": ok(),
        },
    }
    plugin = load_openapi(spec30({"/pets/{petId}": item}))
    assert [v.name for v in plugin.views] == ["getPet"]
    op = plugin.operation("getPet")
    got = [(p.name, p.location) for p in op.parameters]
    assert got == [("petId", "path"), ("verbose", "query")]
    assert op.parameter("verbose").schema is not None
    assert op.parameter("verbose").schema.value["type"] == "integer"  # the operation's wins
    assert op.servers == ("https://eu.example.com",)


def test_parameter_locations_styles_and_explode_are_kept() -> None:
    params = [
        {"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}},
        {"name": "id", "in": "query", "schema": {"type": "string"}},
        {"name": "tags", "in": "query", "style": "pipeDelimited", "explode": False,
         "schema": {"type": "array", "items": {"type": "string"}}},
        {"name": "X-Trace", "in": "header", "schema": {"type": "string"}},
        {"name": "Accept", "in": "header", "schema": {"type": "string"}},
        {"name": "session", "in": "cookie", "schema": {"type": "string"}},
        {"name": "filter", "in": "query",
         "content": {"application/json": {"schema": {"type": "object"}}}},
    ]  # fmt: skip
    plugin = load_openapi(spec30({"/a/{id}": {"get": {"operationId": "f", "parameters": params,
                                                       "responses": ok()}}}))  # fmt: skip
    op = plugin.operation("f")
    got = [(p.argument, p.location, p.style, p.explode) for p in op.parameters]
    assert got == [
        ("id", "path", "simple", False),
        ("query_id", "query", "form", True),
        ("tags", "query", "pipeDelimited", False),
        ("X-Trace", "header", "simple", False),
        ("session", "cookie", "form", True),
        ("filter", "query", "form", True),
    ]
    assert op.parameter("filter").content_type == "application/json"
    view = plugin.view("f")
    assert [p.name for p in view.parameters] == [a for a, *_ in got]
    assert [p.is_required for p in view.parameters] == [True] + [False] * 5


# -- request bodies ---------------------------------------------------------------------------


def _body_op(content: dict[str, Any], required: bool = True) -> dict[str, Any]:
    return spec30(
        {"/up": {"post": {"operationId": "up", "requestBody": {"required": required,
                                                               "content": content},
                          "responses": ok()}}}
    )  # fmt: skip


@pytest.mark.parametrize(
    ("content", "chosen"),
    [
        ({"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}},
         "application/octet-stream"),
        ({"multipart/form-data": {"schema": {"type": "object", "properties": {
            "file": {"type": "string", "format": "binary"}}}}}, "multipart/form-data"),
        ({"text/plain": {}, "application/x-www-form-urlencoded": {"schema": {"type": "object"}}},
         "application/x-www-form-urlencoded"),
        ({"application/xml": {}, "application/merge-patch+json": {"schema": {"type": "object"}}},
         "application/merge-patch+json"),
    ],
)  # fmt: skip
def test_non_json_bodies_become_one_body_parameter(content: dict[str, Any], chosen: str) -> None:
    plugin = load_openapi(_body_op(content))
    body = plugin.operation("up").request_body
    assert body is not None
    assert body.content_type == chosen
    assert body.content_types == tuple(content)
    assert body.argument == "body"
    assert plugin.view("up").parameter("body").is_required


def test_flatten_body_exposes_top_level_properties() -> None:
    schema = {
        "type": "object",
        "required": ["name"],
        "properties": {
            "name": {"type": "string", "description": "The name."},
            "owner": {"$ref": "#/components/schemas/Owner"},
            "id": {"type": "integer", "readOnly": True},
        },
    }
    components = {"schemas": {"Owner": {"type": "object", "properties": {"n": {"type": "string"}}}}}
    spec = _body_op({"application/json": {"schema": schema}}) | {"components": components}
    plugin = load_openapi(spec, flatten_body=True)
    view = plugin.view("up")
    assert [(p.name, p.is_required, p.description) for p in view.parameters] == [
        ("name", True, "The name."),
        ("owner", False, None),
    ]
    owner = schema_of(plugin, "up", "owner")
    assert owner == {"$ref": "#/$defs/Owner", "$defs": {"Owner": components["schemas"]["Owner"]}}
    body = plugin.operation("up").request_body
    assert body is not None and body.argument is None
    assert [(f.argument, f.property) for f in body.fields] == [("name", "name"), ("owner", "owner")]


def test_read_only_dropped_from_requests_and_write_only_from_responses() -> None:
    components = {
        "schemas": {
            "Pet": {
                "type": "object",
                "required": ["id", "name", "secret"],
                "properties": {
                    "id": {"type": "integer", "readOnly": True},
                    "name": {"type": "string"},
                    "secret": {"type": "string", "writeOnly": True},
                },
            }
        }
    }
    pet = {"$ref": "#/components/schemas/Pet"}
    spec = spec30(
        {"/pets": {"post": {"operationId": "add",
                            "requestBody": {"content": {"application/json": {"schema": pet}}},
                            "responses": ok(pet)}}},
        components=components,
    )  # fmt: skip
    plugin = load_openapi(spec)
    request = schema_of(plugin, "add", "body")["$defs"]["Pet"]
    response = schema_of(plugin, "add")["$defs"]["Pet"]
    assert list(request["properties"]) == ["name", "secret"]
    assert request["required"] == ["name", "secret"]
    assert list(response["properties"]) == ["id", "name"]
    assert response["required"] == ["id", "name"]


# -- responses --------------------------------------------------------------------------------


def test_success_without_body_has_no_schema_even_when_default_has_one() -> None:
    responses = {
        "204": {"description": "Deleted."},
        "default": {"description": "error", "content": {"application/json": {"schema": {
            "type": "object"}}}},
    }  # fmt: skip
    plugin = load_openapi(spec30({"/a": {"delete": {"operationId": "d", "responses": responses}}}))
    ret = plugin.view("d").return_parameter
    assert (ret.description, ret.schema) == ("Deleted.", None)
    assert plugin.operation("d").success_status == "204"


def test_default_response_is_the_return_only_without_any_2xx() -> None:
    responses = {"default": {"description": "Anything.", "content": {
        "application/json": {"schema": {"type": "string"}}}}}  # fmt: skip
    plugin = load_openapi(spec30({"/a": {"get": {"operationId": "g", "responses": responses}}}))
    assert schema_of(plugin, "g") == {"type": "string"}
    assert plugin.operation("g").success_status == "default"


def test_yaml_integer_response_codes_are_read() -> None:
    text = (
        "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n  /a:\n    get:\n"
        "      operationId: g\n      responses:\n        201:\n          description: Made.\n"
        "          content:\n            application/json:\n              schema: {type: integer}\n"
    )
    plugin = load_openapi(text)
    assert schema_of(plugin, "g") == {"type": "integer"}
    assert plugin.operation("g").success_status == "201"


# -- schema conversion ------------------------------------------------------------------------


def test_openapi_30_nullable_and_exclusive_bounds_become_2020_12() -> None:
    components = {"schemas": {"Pet": {"type": "object"}}}
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "string", "nullable": True},
            "b": {"$ref": "#/components/schemas/Pet", "nullable": True, "description": "B."},
            "c": {"type": "number", "minimum": 0, "exclusiveMinimum": True, "example": 3},
            "d": {"type": "string", "enum": ["x", "y"], "nullable": True},
        },
    }
    plugin = load_openapi(spec30({"/a": {"get": {"operationId": "g", "responses": ok(schema)}}},
                                 components=components))  # fmt: skip
    props = schema_of(plugin, "g")["properties"]
    assert props["a"] == {"type": ["string", "null"]}
    assert props["b"] == {"anyOf": [{"$ref": "#/$defs/Pet"}, {"type": "null"}], "description": "B."}
    assert props["c"] == {"type": "number", "exclusiveMinimum": 0, "examples": [3]}
    assert props["d"] == {"type": ["string", "null"], "enum": ["x", "y", None]}


def test_openapi_31_type_arrays_and_ref_siblings_are_kept() -> None:
    spec = {
        "openapi": "3.1.0",
        "info": {"title": "T", "version": "1"},
        "paths": {"/a": {"get": {"operationId": "g", "responses": ok({
            "type": "object",
            "properties": {
                "a": {"type": ["string", "null"]},
                "b": {"$ref": "#/components/schemas/N", "maxLength": 3},
            },
        })}}},
        "components": {"schemas": {"N": {"type": "string"}}},
    }  # fmt: skip
    props = schema_of(load_openapi(spec), "g")["properties"]
    assert props["a"] == {"type": ["string", "null"]}
    assert props["b"] == {"$ref": "#/$defs/N", "maxLength": 3}


def test_recursive_schemas_stay_refs_and_validate_nested_instances() -> None:
    components = {"schemas": {"Node": {
        "type": "object",
        "properties": {
            "children": {"type": "array", "items": {"$ref": "#/components/schemas/Node"}},
            "value": {"type": "integer"},
        },
    }}}  # fmt: skip
    plugin = load_openapi(spec30({"/t": {"get": {"operationId": "tree", "responses": ok(
        {"$ref": "#/components/schemas/Node"})}}}, components=components))  # fmt: skip
    schema = schema_of(plugin, "tree")
    assert schema["$ref"] == "#/$defs/Node"
    assert schema["$defs"]["Node"]["properties"]["children"]["items"] == {"$ref": "#/$defs/Node"}
    validator = Draft202012Validator(schema)
    assert validator.is_valid({"value": 1, "children": [{"value": 2, "children": []}]})
    assert not validator.is_valid({"children": [{"value": "deep"}]})


def test_a_property_named_ref_is_a_property() -> None:
    properties = {"$ref": {"type": "string"}, "x": {"type": "integer"}}
    schema = {"type": "object", "properties": properties}
    plugin = load_openapi(spec30({"/a": {"get": {"operationId": "g", "responses": ok(schema)}}}))
    assert schema_of(plugin, "g") == schema


def test_shared_components_are_converted_once_and_reused() -> None:
    components = {"schemas": {"Pet": {"type": "object", "properties": {"n": {"type": "string"}}}}}
    pet = {"$ref": "#/components/schemas/Pet"}
    plugin = load_openapi(spec30(
        {"/a": {"get": {"operationId": "a", "responses": ok(pet)}},
         "/b": {"get": {"operationId": "b", "responses": ok({"type": "array", "items": pet})}}},
        components=components,
    ))  # fmt: skip
    schemas = [v.return_parameter.schema for v in plugin.views]
    assert schemas[0] is not None and schemas[1] is not None
    assert schemas[0].value["$defs"]["Pet"] is schemas[1].value["$defs"]["Pet"]


def test_invalid_keyword_values_are_dropped_with_a_warning_naming_the_pointer() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "string", "required": True,
                                                     "pattern": "(unclosed"}}}  # fmt: skip
    plugin = load_openapi(spec30({"/a": {"get": {"operationId": "g", "responses": ok(schema)}}}),
                          validate=False)  # fmt: skip
    assert schema_of(plugin, "g")["properties"]["a"] == {"type": "string"}
    where = "/paths/~1a/get/responses/200/content/application~1json/schema/properties/a"
    assert plugin.warnings == [
        f"{where}/required: required must be an array of property names; dropped",
        f"{where}/pattern: pattern is not a valid regular expression; dropped",
    ]


# -- Swagger 2.0 ------------------------------------------------------------------------------

SWAGGER = {
    "swagger": "2.0",
    "info": {"title": "Old API", "version": "2"},
    "host": "api.example.com",
    "basePath": "/v2",
    "schemes": ["https"],
    "consumes": ["application/json"],
    "produces": ["application/json"],
    "paths": {
        "/pets": {
            "get": {
                "operationId": "listPets",
                "parameters": [
                    {"name": "limit", "in": "query", "type": "integer", "format": "int32"},
                    {"name": "tags", "in": "query", "type": "array", "items": {"type": "string"},
                     "collectionFormat": "multi"},
                ],
                "responses": {"200": {"description": "Pets.", "schema": {
                    "type": "array", "items": {"$ref": "#/definitions/Pet"}}}},
            },
            "post": {
                "operationId": "addPet",
                "parameters": [{"name": "pet", "in": "body", "required": True,
                                "schema": {"$ref": "#/definitions/Pet"}}],
                "responses": {"201": {"description": "Made.", "schema": {
                    "$ref": "#/definitions/Pet"}}},
            },
        },
        "/pets/{id}/photo": {
            "post": {
                "operationId": "upload",
                "consumes": ["multipart/form-data"],
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "type": "integer"},
                    {"name": "file", "in": "formData", "type": "file", "required": True},
                    {"name": "note", "in": "formData", "type": "string"},
                ],
                "responses": {"200": {"description": "ok"}},
            }
        },
    },
    "definitions": {"Pet": {"type": "object", "required": ["name"], "properties": {
        "name": {"type": "string"}, "tag": {"type": "string", "x-nullable": True}}}},
}  # fmt: skip


def test_swagger_20_parameter_types_bodies_and_responses_are_kept() -> None:
    plugin = load_openapi(SWAGGER)
    assert plugin.servers == ("https://api.example.com/v2",)
    assert schema_of(plugin, "listPets", "limit") == {"type": "integer", "format": "int32"}
    tags = plugin.operation("listPets").parameter("tags")
    assert (tags.style, tags.explode) == ("form", True)
    pets = schema_of(plugin, "listPets")
    assert pets["items"] == {"$ref": "#/$defs/Pet"}
    assert pets["$defs"]["Pet"]["properties"]["tag"] == {"type": ["string", "null"]}
    add = plugin.operation("addPet")
    assert add.request_body is not None and add.request_body.content_type == "application/json"
    assert schema_of(plugin, "addPet", "body")["$ref"] == "#/$defs/Pet"
    assert schema_of(plugin, "addPet")["$ref"] == "#/$defs/Pet"
    assert add.success_status == "201"


def test_swagger_20_form_data_becomes_a_multipart_object_body() -> None:
    plugin = load_openapi(SWAGGER)
    upload = plugin.operation("upload")
    assert upload.request_body is not None
    assert upload.request_body.content_type == "multipart/form-data"
    assert schema_of(plugin, "upload", "body") == {
        "type": "object",
        "properties": {"file": {"type": "string", "format": "binary"}, "note": {"type": "string"}},
        "required": ["file"],
    }
    assert plugin.view("upload").return_parameter.schema is None


# -- sources and files ------------------------------------------------------------------------


def test_multi_file_spec_resolves_relative_refs(tmp_path: Path) -> None:
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "pet.yaml").write_text(
        "type: object\nproperties:\n  owner: {$ref: 'owner.yaml'}\n"
    )
    owner = "type: object\nproperties: {n: {type: string}}\n"
    (tmp_path / "models" / "owner.yaml").write_text(owner)
    (tmp_path / "api.yaml").write_text(
        "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n  /p:\n    get:\n"
        "      operationId: g\n      responses:\n        '200':\n          description: ok\n"
        "          content:\n            application/json:\n"
        "              schema: {$ref: 'models/pet.yaml'}\n"
    )
    plugin = load_openapi(tmp_path / "api.yaml")
    schema = schema_of(plugin, "g")
    assert schema["$ref"] == "#/$defs/pet"
    assert schema["$defs"]["pet"]["properties"]["owner"] == {"$ref": "#/$defs/owner"}
    assert set(schema["$defs"]) == {"pet", "owner"}


def test_refs_where_the_spec_forbids_them_are_followed_without_validation() -> None:
    spec = spec30({"$ref": "#/x-paths"}) | {
        "info": {"title": "T", "version": "1", "description": {"$ref": "#/x-text"}},
        "x-paths": {"/a": {"get": {"operationId": "g", "responses": ok()}}},
        "x-text": "hello",
    }
    plugin = load_openapi(spec, validate=False)
    assert [v.name for v in plugin.views] == ["g"]
    assert plugin.warnings == [
        "/paths: $ref directly under paths (not allowed by OpenAPI); followed"
    ]


def test_json_text_and_dict_sources_give_equal_views() -> None:
    spec = spec30({"/a": {"get": {"operationId": "g", "responses": ok({"type": "string"})}}})
    from_dict = load_openapi(spec).views
    assert load_openapi(json.dumps(spec)).views == from_dict
    assert load_openapi(json.dumps(spec).encode()).views == from_dict
    assert all(isinstance(v, FunctionView) for v in from_dict)


def test_components_without_read_or_write_only_are_shared_by_requests_and_responses() -> None:
    components = {
        "schemas": {
            "Pet": {"type": "object", "properties": {"tag": {"$ref": "#/components/schemas/Tag"}}},
            "Tag": {"type": "string"},
        }
    }
    pet = {"$ref": "#/components/schemas/Pet"}
    spec = spec30(
        {"/pets": {"post": {"operationId": "add",
                            "requestBody": {"content": {"application/json": {"schema": pet}}},
                            "responses": ok(pet)}}},
        components=components,
    )  # fmt: skip
    view = load_openapi(spec).view("add")
    request, response = view.parameter("body").schema, view.return_parameter.schema
    assert request is not None and response is not None
    assert request.value["$defs"]["Pet"] is response.value["$defs"]["Pet"]
    assert request.value["$defs"]["Tag"] is response.value["$defs"]["Tag"]


def test_flatten_body_reads_a_referenced_object_through_the_schema_model() -> None:
    components = {
        "schemas": {
            "New": {
                "type": "object",
                "required": ["name"],
                "properties": {
                    "name": {"type": "string"},
                    "owner": {"$ref": "#/components/schemas/Owner"},
                },
            },
            "Owner": {"type": "object", "properties": {"n": {"type": "string"}}},
        }
    }
    spec = _body_op({"application/json": {"schema": {"$ref": "#/components/schemas/New"}}}) | {
        "components": components
    }
    view = load_openapi(spec, flatten_body=True).view("up")
    assert [(p.name, p.is_required) for p in view.parameters] == [("name", True), ("owner", False)]
    assert schema_of(load_openapi(spec, flatten_body=True), "up", "owner") == {
        "$ref": "#/$defs/Owner",
        "$defs": {"Owner": components["schemas"]["Owner"]},
    }
