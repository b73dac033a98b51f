"""Every type family in every dialect passes that dialect's check; rules per dialect."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel

from sktypes import SchemaError, json_schema
from sktypes.schema import DIALECTS, GEMINI_RECURSION_DEPTH, dialect_problems
from tests.typefamilies import FAMILIES, Tree

OBJECT_FAMILIES = {"dataclass", "typeddict", "model", "recursive_model", "discriminated_union"}


@pytest.mark.parametrize("dialect", ["json-schema", "openapi-3.0", "gemini"])
@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_family_passes_dialect_check(dialect: str, name: str) -> None:
    schema = json_schema(FAMILIES[name], dialect)
    assert dialect_problems(schema, dialect) == []


@pytest.mark.parametrize("name", sorted(OBJECT_FAMILIES))
def test_object_families_pass_openai_strict(name: str) -> None:
    schema = json_schema(FAMILIES[name], "openai-strict")
    assert dialect_problems(schema, "openai-strict") == []


class Profile(BaseModel):
    name: str
    nickname: str | None = None
    age: int = 0
    tags: list[str] = []


def test_optional_field_becomes_nullable_and_required_in_openai_strict() -> None:
    schema = json_schema(Profile, "openai-strict")
    assert schema["required"] == ["name", "nickname", "age", "tags"]
    assert schema["additionalProperties"] is False
    assert schema["properties"]["age"] == {"type": ["integer", "null"]}
    assert schema["properties"]["nickname"] == {"type": ["string", "null"]}  # one nullable form
    assert "default" not in str(schema)


def test_openai_strict_refuses_non_objects_and_mappings() -> None:
    with pytest.raises(SchemaError, match="object at the root"):
        json_schema(int, "openai-strict")

    class Bag(BaseModel):
        counts: dict[str, int]

    with pytest.raises(SchemaError, match="arbitrary keys"):
        json_schema(Bag, "openai-strict")


def test_openai_strict_moves_unsupported_constraints_into_the_description() -> None:
    from pydantic import Field

    class Name(BaseModel):
        value: str = Field(min_length=2, description="A name.")

    prop = json_schema(Name, "openai-strict")["properties"]["value"]
    assert prop == {"type": "string", "description": "A name. (minLength: 2)"}


@pytest.mark.parametrize("dialect", ["openai-strict", "openapi-3.0", "gemini"])
def test_a_tuple_written_as_items_says_its_positions(dialect: str) -> None:
    """Which type is at which place was lost silently (``items: anyOf [integer, string]``)."""

    class Pairs(BaseModel):
        pair: tuple[int, str]
        same: tuple[int, int]

    props = json_schema(Pairs, dialect)["properties"]
    pair = props["pair"]
    assert pair["items"]["anyOf"] and "prefixItems" not in pair
    assert pair["description"].lower() == '(prefixitems: [{"type":"integer"},{"type":"string"}])'
    assert "description" not in props["same"]  # nothing lost: every place has the same schema


def test_openapi_30_uses_nullable_and_components_for_recursion() -> None:
    schema = json_schema(Profile, "openapi-3.0")
    assert schema["properties"]["nickname"] == {"type": "string", "nullable": True, "default": None}
    tree = json_schema(Tree, "openapi-3.0")
    assert tree["properties"]["children"]["items"] == {"$ref": "#/components/schemas/Tree"}
    assert "Tree" in tree["x-components"]["schemas"]


def test_gemini_inlines_and_cuts_recursion() -> None:
    schema = json_schema(Tree, "gemini")
    assert "$ref" not in str(schema) and "$defs" not in str(schema)
    depth = 0
    node: Any = schema
    while "properties" in node:
        node = node["properties"]["children"]["items"]
        depth += 1
    assert depth == GEMINI_RECURSION_DEPTH + 1  # the root, then N nested expansions
    assert "recursion cut" in node["description"]


def test_gemini_enums_are_strings_and_types_upper_case() -> None:
    from typing import Literal

    assert json_schema(Literal[1, 2], "gemini") == {
        "type": "INTEGER",
        "format": "enum",
        "enum": ["1", "2"],
    }
    assert json_schema(int | None, "gemini") == {"type": "INTEGER", "nullable": True}


def test_unknown_dialect_is_an_error() -> None:
    with pytest.raises(SchemaError, match="unknown dialect"):
        json_schema(int, "yaml")
    assert "json-schema" in DIALECTS
