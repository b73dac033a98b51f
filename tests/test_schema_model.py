"""The schema model: one node kind per kind of schema, one field per keyword, and a report
of every keyword it does not represent (with its JSON pointer)."""

from __future__ import annotations

import datetime as dt
import decimal
import ipaddress
import pathlib
import uuid
from typing import Any

import pytest
from pydantic import AnyUrl, Base64Bytes

import sktypes.schema as S
from sktypes.errors import SchemaError
from sktypes.generated import Base64
from sktypes.jsondoc import FrozenDict, JsonDocument, thaw
from sktypes.schema import (
    NO_DEFAULT,
    AnyNode,
    ArrayNode,
    BooleanNode,
    ConstNode,
    EnumNode,
    IntegerNode,
    IntersectionNode,
    NeverNode,
    NullNode,
    NumberNode,
    ObjectNode,
    OpaqueNode,
    RefNode,
    StringNode,
    UnionNode,
    parse,
    strip_null,
)
from sktypes.schema._parse import ASSERTING_UNSUPPORTED


def root(schema: Any, **kw: Any) -> Any:
    return parse(schema, **kw).root


# --- one kind per node ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("schema", "kind"),
    [
        ({}, AnyNode),
        (True, AnyNode),
        ({"description": "annotations only"}, AnyNode),
        (False, NeverNode),
        ({"not": {}}, NeverNode),
        ({"type": "null"}, NullNode),
        ({"const": None}, NullNode),
        ({"type": "boolean"}, BooleanNode),
        ({"type": "integer"}, IntegerNode),
        ({"type": "number"}, NumberNode),
        ({"type": "string"}, StringNode),
        ({"type": "array"}, ArrayNode),
        ({"type": "object"}, ObjectNode),
        ({"enum": ["a", "b"]}, EnumNode),
        ({"const": 3}, ConstNode),
        ({"anyOf": [{"type": "string"}, {"type": "integer"}]}, UnionNode),
        ({"type": ["string", "integer"]}, UnionNode),
        ({"$ref": "#/$defs/A", "$defs": {"A": {"type": "string"}}}, RefNode),
        ({"type": "string", "pattern": "a", "allOf": [{"pattern": "b"}]}, IntersectionNode),
        ({"if": {"type": "string"}}, OpaqueNode),
    ],
)
def test_each_kind_of_schema_has_its_node(schema: Any, kind: type) -> None:
    assert type(root(schema)) is kind


def test_nodes_are_frozen_hashable_and_compare_by_content() -> None:
    a = root({"type": "string", "maxLength": 3})
    b = StringNode(max_length=3, pointer="/elsewhere")
    assert a == b and hash(a) == hash(b) and a is not b
    with pytest.raises(AttributeError):
        a.max_length = 4  # type: ignore[misc]
    assert a.replace(max_length=4).max_length == 4 and a.max_length == 3


def test_node_values_compare_the_way_json_does() -> None:
    assert root({"enum": [1]}) != root({"enum": [True]})
    assert root({"const": {"a": 1}}) != root({"const": {"a": True}})
    assert root({"const": 1}) == root({"const": 1.0})
    assert hash(root({"const": 1})) == hash(root({"const": 1.0}))
    assert root({"default": 0}) != root({"default": False})


def test_repr_shows_only_what_the_schema_says() -> None:
    assert repr(root({"type": "string", "maxLength": 3})) == "StringNode(max_length=3)"
    assert repr(root({})) == "AnyNode()"


# --- annotations ---------------------------------------------------------------------


def test_every_annotation_keyword_has_a_field() -> None:
    node = root(
        {
            "type": "string",
            "title": "T",
            "description": "D",
            "default": "x",
            "examples": ["a", "b"],
            "deprecated": True,
            "readOnly": True,
            "writeOnly": False,
            "x-vendor": {"k": 1},
            "$comment": "c",
        }
    )
    assert node.title == "T" and node.description == "D" and node.default == "x"
    assert node.examples == ("a", "b") and node.deprecated and node.read_only
    assert not node.write_only
    assert node.extra == {"x-vendor": {"k": 1}, "$comment": "c"}


def test_a_null_default_is_not_the_absence_of_a_default() -> None:
    assert root({"type": "string"}).default is NO_DEFAULT
    assert not root({"type": "string"}).has_default
    with_null = root({"type": ["string", "null"], "default": None})
    assert with_null.default is None and with_null.has_default
    assert repr(NO_DEFAULT) == "NO_DEFAULT"


def test_openapi_example_becomes_examples_unless_examples_are_given() -> None:
    assert root({"type": "integer", "example": 3}).examples == (3,)
    assert root({"type": "integer", "example": 3, "examples": [4]}).examples == (4,)


# --- scalars -------------------------------------------------------------------------


def test_number_keywords() -> None:
    node = root(
        {
            "type": "number",
            "minimum": 1,
            "maximum": 9.5,
            "exclusiveMinimum": 0,
            "exclusiveMaximum": 10,
            "multipleOf": 0.5,
            "format": "double",
        }
    )
    assert isinstance(node, NumberNode)
    assert (node.minimum, node.maximum) == (1, 9.5)
    assert (node.exclusive_minimum, node.exclusive_maximum) == (0, 10)
    assert node.multiple_of == 0.5 and node.format == "double" and not node.implied


def test_integer_keywords_and_format() -> None:
    node = root({"type": "integer", "format": "int64", "minimum": 0})
    assert node == IntegerNode(format="int64", minimum=0)


def test_string_keywords() -> None:
    node = root(
        {
            "type": "string",
            "minLength": 1,
            "maxLength": 5,
            "pattern": "^a",
            "format": "date",
            "contentEncoding": "base64",
            "contentMediaType": "image/png",
        }
    )
    assert node == StringNode(
        min_length=1,
        max_length=5,
        pattern="^a",
        format="date",
        content_encoding="base64",
        content_media_type="image/png",
    )


def test_counts_written_as_whole_floats_are_integers() -> None:
    assert root({"type": "string", "maxLength": 3.0}).max_length == 3


def test_keywords_of_another_type_are_kept_but_not_asserted() -> None:
    node = root({"type": "string", "minimum": 3, "properties": {"a": {}}})
    assert node == StringNode(extra=FrozenDict({"minimum": 3, "properties": {"a": {}}}))


def test_without_type_the_keywords_imply_one_and_other_types_stay_valid() -> None:
    node = root({"properties": {"a": {"type": "string"}}, "required": ["a"]})
    assert isinstance(node, ObjectNode) and node.implied and node.required == ("a",)
    assert root({"maxLength": 2}) == StringNode(max_length=2, implied=True)
    assert root({"format": "date"}) == StringNode(format="date", implied=True)
    assert root({"minimum": 0, "format": "int32"}) == NumberNode(
        minimum=0, format="int32", implied=True
    )
    both = root({"maxLength": 2, "minimum": 0})
    assert isinstance(both, IntersectionNode) and len(both.parts) == 2


# --- containers ----------------------------------------------------------------------


def test_array_keywords() -> None:
    node = root(
        {
            "type": "array",
            "items": {"type": "integer"},
            "minItems": 1,
            "maxItems": 3,
            "uniqueItems": True,
            "contains": {"const": 2},
            "minContains": 1,
            "maxContains": 2,
        }
    )
    assert node == ArrayNode(
        items=IntegerNode(),
        min_items=1,
        max_items=3,
        unique_items=True,
        contains=ConstNode(value=2),
        min_contains=1,
        max_contains=2,
    )


def test_prefix_items_with_closed_items_is_a_tuple() -> None:
    node = root(
        {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": False}
    )
    assert isinstance(node, ArrayNode) and node.is_tuple
    assert node.prefix_items == (StringNode(), IntegerNode())
    assert not root({"type": "array", "prefixItems": [{}]}).is_tuple


def test_prefix_items_with_its_length_as_min_and_max_items_is_a_tuple() -> None:
    """How pydantic writes ``tuple[int, str]``; fewer items admitted is not a fixed tuple."""
    pair = {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}]}
    assert root({**pair, "minItems": 2, "maxItems": 2}).is_tuple
    assert not root({**pair, "minItems": 1, "maxItems": 2}).is_tuple
    assert not root({**pair, "maxItems": 2}).is_tuple


def test_object_keywords() -> None:
    node = root(
        {
            "type": "object",
            "properties": {"b": {"type": "string"}, "a": {"type": "integer"}},
            "required": ["a", "c", "a"],
            "additionalProperties": {"type": "boolean"},
            "patternProperties": {"^x-": {"type": "string"}},
            "propertyNames": {"maxLength": 8},
            "minProperties": 1,
            "maxProperties": 9,
        }
    )
    assert isinstance(node, ObjectNode)
    assert [(p.name, p.required) for p in node.properties] == [("b", False), ("a", True)]
    assert node.required == ("a", "c")  # "c" is required though no property declares it
    assert node.additional == BooleanNode()
    assert node.pattern_properties == (("^x-", StringNode()),)
    assert node.property_names == StringNode(max_length=8, implied=True)
    assert (node.min_properties, node.max_properties) == (1, 9)
    assert node.prop("a") is not None and node.prop("zz") is None


def test_absent_additional_properties_means_any_and_false_means_closed() -> None:
    open_ = root({"type": "object", "properties": {"a": {}}})
    closed = root({"type": "object", "properties": {"a": {}}, "additionalProperties": False})
    assert isinstance(open_, ObjectNode) and isinstance(closed, ObjectNode)
    assert open_.additional == AnyNode() and not open_.closed
    assert closed.additional == NeverNode() and closed.closed
    assert root({"type": "object", "additionalProperties": {"type": "integer"}}).is_map


def test_property_names_that_look_like_keywords_are_properties() -> None:
    node = root({"type": "object", "properties": {"$ref": {"type": "string"}, "type": {}}})
    assert [p.name for p in node.properties] == ["$ref", "type"]


# --- values --------------------------------------------------------------------------


def test_enum_values_are_kept_in_order_and_frozen() -> None:
    node = root({"enum": ["b", 1, {"k": [1]}]})
    assert isinstance(node, EnumNode) and node.values == ("b", 1, {"k": (1,)})
    assert isinstance(node.values[2], FrozenDict)


def test_null_in_an_enum_is_the_one_nullable_form() -> None:
    node = root({"enum": ["a", None]})
    assert node == UnionNode(options=(EnumNode(values=("a",)), NullNode()))
    assert root({"enum": [None]}) == NullNode()


def test_a_type_filters_the_enum_members_it_excludes() -> None:
    assert root({"type": "string", "enum": ["a", 1]}) == EnumNode(values=("a",))
    assert root({"type": "integer", "enum": [1, 1.0, 1.5, True]}) == EnumNode(values=(1, 1.0))
    assert root({"type": "string", "enum": [1]}) == NeverNode()
    nullable = root({"type": ["string", "null"], "enum": ["a", None]})
    assert nullable == UnionNode(options=(EnumNode(values=("a",)), NullNode()))


def test_an_enum_beside_constraints_keeps_the_members_that_meet_them() -> None:
    assert root({"type": "string", "enum": ["a", "bb"], "maxLength": 1}) == EnumNode(values=("a",))
    assert root({"type": "string", "enum": ["a1", "b"], "pattern": "[0-9]"}) == EnumNode(
        values=("a1",)
    )
    numbers = root({"type": "number", "enum": [1, 2.5, 4], "minimum": 2, "multipleOf": 0.5})
    assert numbers == EnumNode(values=(2.5, 4))


def test_an_enum_beside_a_format_stays_an_intersection() -> None:
    node = root({"type": "string", "enum": ["GET"], "format": "http-method"})
    assert isinstance(node, IntersectionNode)
    assert node.parts == (StringNode(format="http-method"), EnumNode(values=("GET",)))


def test_const_and_enum_meet() -> None:
    assert root({"const": "a", "enum": ["a", "b"]}) == ConstNode(value="a")
    assert root({"const": "c", "enum": ["a", "b"]}) == NeverNode()


# --- unions ----------------------------------------------------------------------------


def test_type_lists_any_of_and_nullable_all_give_a_union_with_null() -> None:
    expected = UnionNode(options=(StringNode(max_length=2), NullNode()))
    assert root({"type": ["string", "null"], "maxLength": 2}) == expected
    assert root({"anyOf": [{"type": "string", "maxLength": 2}, {"type": "null"}]}) == expected
    assert (
        root({"type": "string", "maxLength": 2, "nullable": True}, flavor="openapi-3.0") == expected
    )


def test_annotations_of_a_nullable_sit_on_the_union() -> None:
    node = root({"type": "string", "nullable": True, "description": "d"}, flavor="openapi-3.0")
    assert isinstance(node, UnionNode) and node.description == "d"
    inner, nullable = strip_null(node)
    assert nullable and inner == StringNode(description="d")
    assert strip_null(StringNode()) == (StringNode(), False)


def test_one_of_is_kept_apart_from_any_of() -> None:
    node = root({"oneOf": [{"type": "string"}, {"type": "integer"}]})
    assert isinstance(node, UnionNode) and node.one_of
    assert root({"anyOf": [{"type": "string"}]}) == StringNode()
    nested = root(
        {"anyOf": [{"anyOf": [{"type": "string"}, {"type": "integer"}]}, {"type": "null"}]}
    )
    assert nested == UnionNode(options=(StringNode(), IntegerNode(), NullNode()))


def test_any_option_makes_any_of_admit_anything() -> None:
    assert root({"anyOf": [{}, {"type": "string"}]}) == AnyNode()


def test_discriminator_with_mapping_names_the_definitions() -> None:
    model = parse(
        {
            "oneOf": [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}],
            "discriminator": {
                "propertyName": "kind",
                "mapping": {"cat": "#/$defs/Cat", "dog": "Dog", "pup": "#/components/schemas/Dog"},
            },
            "$defs": {"Cat": {"type": "object"}, "Dog": {"type": "object"}},
        }
    )
    node = model.root
    assert isinstance(node, UnionNode) and node.discriminator is not None
    assert node.discriminator.property_name == "kind"
    mapping = {k: (ref.name, ref.target) for k, ref in node.discriminator.mapping}
    assert mapping == {
        "cat": ("Cat", model.definitions["Cat"]),
        "dog": ("Dog", model.definitions["Dog"]),
        "pup": ("Dog", model.definitions["Dog"]),
    }
    assert model.unsupported == ()


def test_a_discriminator_mapping_to_nothing_is_reported() -> None:
    model = parse(
        {
            "oneOf": [{"type": "object"}],
            "discriminator": {"propertyName": "k", "mapping": {"x": "Nope"}},
        }
    )
    assert [(u.pointer, u.keyword) for u in model.unsupported] == [
        ("/discriminator/mapping/x", "discriminator")
    ]


def test_a_discriminator_on_a_base_object_stays_on_the_object() -> None:
    node = root(
        {
            "type": "object",
            "properties": {"kind": {"type": "string"}},
            "discriminator": {"propertyName": "kind"},
        }
    )
    assert isinstance(node, ObjectNode) and node.discriminator is not None


# --- references and definitions ------------------------------------------------------


def test_definitions_are_parsed_and_named() -> None:
    model = parse(
        {
            "$ref": "#/$defs/Pet",
            "$defs": {"Pet": {"type": "object", "properties": {"n": {"type": "string"}}}},
            "definitions": {"Old": {"type": "integer"}},
        }
    )
    assert list(model.definitions) == ["Pet", "Old"]
    pet = model.definitions["Pet"]
    assert isinstance(pet, ObjectNode) and pet.name == "Pet"
    assert isinstance(model.root, RefNode) and model.root.name == "Pet"
    assert model.root.target is pet and model.resolve("#/definitions/Old") == IntegerNode()


def test_recursive_definitions_are_finite_graphs() -> None:
    model = parse(
        {
            "$ref": "#/$defs/Tree",
            "$defs": {
                "Tree": {
                    "type": "object",
                    "properties": {
                        "children": {"type": "array", "items": {"$ref": "#/$defs/Tree"}}
                    },
                }
            },
        }
    )
    tree = model.definitions["Tree"]
    assert isinstance(tree, ObjectNode)
    children = tree.properties[0].node
    assert isinstance(children, ArrayNode) and isinstance(children.items, RefNode)
    assert children.items.target is tree


def test_references_to_any_place_in_the_document_resolve() -> None:
    model = parse({"properties": {"a": {"type": "integer"}, "b": {"$ref": "#/properties/a"}}})
    b = model.root.prop("b").node
    assert isinstance(b, RefNode) and b.name is None and b.target == IntegerNode()


def test_a_chain_of_references_resolves_to_the_end() -> None:
    model = parse(
        {"$ref": "#/$defs/A", "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"type": "null"}}}
    )
    assert model.resolve(model.root) == NullNode()


@pytest.mark.parametrize(
    ("ref", "reason"),
    [
        ("other.json#/$defs/A", "is outside this document"),
        ("#/$defs/Nope", "points at nothing"),
        ("#anchor", "is not a JSON pointer"),
    ],
)
def test_references_that_cannot_be_followed_are_reported(ref: str, reason: str) -> None:
    model = parse({"properties": {"a": {"$ref": ref}}})
    [entry] = model.unsupported
    assert entry.pointer == "/properties/a/$ref" and entry.keyword == "$ref"
    assert reason in entry.reason
    node = model.root.prop("a").node
    assert isinstance(node, RefNode) and node.target == AnyNode()


def test_ref_siblings_are_kept_in_json_schema_and_ignored_in_openapi_30() -> None:
    schema = {"$ref": "#/$defs/S", "maxLength": 2, "$defs": {"S": {"type": "string"}}}
    assert root(schema) == StringNode(max_length=2)
    model = parse(schema, flavor="openapi-3.0")
    assert isinstance(model.root, RefNode)
    assert [str(u) for u in model.unsupported] == [
        "/maxLength: maxLength is ignored beside $ref in OpenAPI 3.0"
    ]


def test_a_ref_beside_its_own_type_stays_a_reference() -> None:
    node = root(
        {
            "$ref": "#/$defs/O",
            "type": "object",
            "$defs": {"O": {"type": "object", "properties": {"a": {}}}},
        }
    )
    assert isinstance(node, RefNode)


# --- allOf -----------------------------------------------------------------------------


def test_all_of_objects_merge_into_one_object_at_any_depth() -> None:
    model = parse(
        {
            "type": "object",
            "properties": {
                "deep": {
                    "allOf": [
                        {"$ref": "#/$defs/Base"},
                        {"properties": {"own": {"type": "integer"}}, "required": ["own"]},
                    ]
                }
            },
            "$defs": {
                "Base": {
                    "type": "object",
                    "description": "base",
                    "properties": {"id": {"type": "string"}},
                    "required": ["id"],
                }
            },
        }
    )
    deep = model.root.prop("deep").node
    assert isinstance(deep, ObjectNode)
    assert [(p.name, p.required) for p in deep.properties] == [("id", True), ("own", True)]
    assert deep.bases == ("Base",) and deep.name is None and not deep.implied


def test_all_of_chains_record_their_direct_bases() -> None:
    model = parse(
        {
            "$ref": "#/$defs/C",
            "$defs": {
                "A": {"type": "object", "properties": {"a": {"type": "string"}}},
                "B": {"allOf": [{"$ref": "#/$defs/A"}, {"properties": {"b": {"type": "string"}}}]},
                "C": {
                    "allOf": [
                        {"$ref": "#/$defs/B"},
                        {"$ref": "#/$defs/X"},
                        {"properties": {"c": {"type": "string"}}, "description": "C itself"},
                    ]
                },
                "X": {"type": "object", "properties": {"x": {"type": "integer"}}},
            },
        }
    )
    c = model.definitions["C"]
    assert isinstance(c, ObjectNode)
    assert c.name == "C" and c.bases == ("B", "X") and c.description == "C itself"
    assert [p.name for p in c.properties] == ["a", "b", "x", "c"]
    b = model.definitions["B"]
    assert isinstance(b, ObjectNode) and b.bases == ("A",)


def test_merging_a_closed_object_closes_the_other_side_exactly() -> None:
    node = root(
        {
            "allOf": [
                {
                    "type": "object",
                    "properties": {"a": {"type": "string"}},
                    "additionalProperties": False,
                },
                {"type": "object", "properties": {"b": {"type": "integer"}}},
            ]
        }
    )
    assert isinstance(node, ObjectNode)
    assert node.prop("b").node == NeverNode()  # "a"'s side forbids it
    assert node.additional == NeverNode()


def test_the_same_property_in_two_parts_is_the_conjunction() -> None:
    node = root(
        {
            "allOf": [
                {"properties": {"n": {"type": "integer", "minimum": 0}}},
                {"properties": {"n": {"type": "number", "maximum": 10, "multipleOf": 2}}},
            ]
        }
    )
    assert node.prop("n").node == IntegerNode(minimum=0, maximum=10, multiple_of=2)


def test_contradicting_types_merge_to_never() -> None:
    assert root({"allOf": [{"type": "string"}, {"type": "integer"}]}) == NeverNode()


def test_parts_that_do_not_merge_stay_an_intersection() -> None:
    node = root({"allOf": [{"type": "string", "pattern": "a"}, {"type": "string", "pattern": "b"}]})
    assert isinstance(node, IntersectionNode)
    assert node.parts == (StringNode(pattern="a"), StringNode(pattern="b"))


def test_a_union_beside_properties_distributes() -> None:
    node = root(
        {
            "type": "object",
            "properties": {"common": {"type": "string"}},
            "anyOf": [{"required": ["a"]}, {"required": ["b"]}],
        }
    )
    assert isinstance(node, UnionNode)
    assert [o.required for o in node.options] == [("a",), ("b",)]
    assert all(o.prop("common") is not None for o in node.options)


def test_a_cycle_through_all_of_stops_merging() -> None:
    model = parse({"$defs": {"A": {"allOf": [{"$ref": "#/$defs/A"}, {"type": "object"}]}}})
    assert isinstance(model.definitions["A"], IntersectionNode)


# --- unsupported keywords -----------------------------------------------------------------


@pytest.mark.parametrize("keyword", [k for k in ASSERTING_UNSUPPORTED if k not in ("then", "else")])
def test_every_unsupported_keyword_is_reported_with_its_pointer(keyword: str) -> None:
    value: Any = (
        {"type": "string"}
        if keyword not in ("dependentRequired", "$dynamicRef", "$recursiveRef")
        else "x"
    )
    if keyword == "dependentRequired":
        value = {"a": ["b"]}
    model = parse({"type": "object", "properties": {"p": {keyword: value}}})
    assert [(u.pointer, u.keyword) for u in model.unsupported] == [
        (f"/properties/p/{keyword}", keyword)
    ]
    node = model.root.prop("p").node
    assert isinstance(node, OpaqueNode) and node.keyword == keyword


def test_then_and_else_are_reported_beside_if_and_kept_alone() -> None:
    model = parse({"if": {"type": "string"}, "then": {"minLength": 1}, "else": {"type": "null"}})
    assert [u.keyword for u in model.unsupported] == ["if", "then", "else"]
    node = model.root
    assert isinstance(node, OpaqueNode) and node.keyword == "if"
    assert node.as_schema() == {
        "if": {"type": "string"},
        "then": {"minLength": 1},
        "else": {"type": "null"},
    }
    alone = parse({"then": {"minLength": 1}})
    assert alone.unsupported == () and alone.root == AnyNode(
        extra=FrozenDict({"then": {"minLength": 1}})
    )


def test_an_unsupported_keyword_sits_beside_what_the_schema_says() -> None:
    node = root({"type": "string", "maxLength": 3, "not": {"const": "x"}})
    assert isinstance(node, IntersectionNode)
    assert node.parts[0] == StringNode(max_length=3) and isinstance(node.parts[1], OpaqueNode)


@pytest.mark.parametrize(
    ("schema", "pointer", "keyword"),
    [
        ({"type": "strin"}, "/type", "type"),
        ({"minLength": -1}, "/minLength", "minLength"),
        ({"minLength": "3"}, "/minLength", "minLength"),
        ({"multipleOf": 0}, "/multipleOf", "multipleOf"),
        ({"pattern": "("}, "/pattern", "pattern"),
        ({"patternProperties": {"(": {}}}, "/patternProperties", "patternProperties"),
        ({"required": "a"}, "/required", "required"),
        ({"enum": "a"}, "/enum", "enum"),
        ({"anyOf": []}, "/anyOf", "anyOf"),
        ({"items": [{}]}, "/items", "items"),
        ({"exclusiveMinimum": True}, "/exclusiveMinimum", "exclusiveMinimum"),
        ({"$ref": 3}, "/$ref", "$ref"),
        ({"properties": {"a": 3}}, "/properties/a", "schema"),
        ({"$defs": {"A": {"$id": "x"}}, "$ref": "#/$defs/A"}, "/$defs/A/$id", "$id"),
    ],
)
def test_invalid_keyword_values_are_reported_not_dropped(
    schema: Any, pointer: str, keyword: str
) -> None:
    model = parse(schema)
    assert [(u.pointer, u.keyword) for u in model.unsupported] == [(pointer, keyword)]


def test_warnings_name_the_file_and_pointer() -> None:
    model = parse({"properties": {"a": {"not": {"type": "string"}}}})
    assert model.warnings("api.yaml") == [
        "warning: api.yaml: /properties/a/not: not cannot be expressed in generated code"
    ]


def test_a_fully_represented_schema_reports_nothing() -> None:
    assert parse(S.json_schema(dict[str, list[int]])).unsupported == ()


# --- OpenAPI 3.0 ------------------------------------------------------------------------


def test_openapi_boolean_exclusive_bounds_become_numbers() -> None:
    node = root(
        {
            "type": "integer",
            "minimum": 3,
            "exclusiveMinimum": True,
            "maximum": 9,
            "exclusiveMaximum": False,
        },
        flavor="openapi-3.0",
    )
    assert node == IntegerNode(exclusive_minimum=3, maximum=9)


def test_nullable_is_only_read_in_openapi_30() -> None:
    node = root({"type": "string", "nullable": True})
    assert node == StringNode(extra=FrozenDict({"nullable": True}))
    ref = root(
        {"allOf": [{"$ref": "#/$defs/A"}], "nullable": True, "$defs": {"A": {"type": "object"}}},
        flavor="openapi-3.0",
    )
    assert isinstance(ref, UnionNode) and ref.nullable and isinstance(ref.options[0], RefNode)


# --- building once ------------------------------------------------------------------------


def test_a_schema_is_parsed_once_per_document_and_once_per_value() -> None:
    doc = JsonDocument.from_value({"type": "object", "properties": {"a": {"type": "integer"}}})
    assert parse(doc) is parse(doc)
    assert parse(doc.value) is parse(doc.value)  # a frozen mapping: by identity
    plain = {"properties": {"a": {"type": "integer"}}, "type": "object"}
    assert parse(plain) is parse({"type": "object", "properties": {"a": {"type": "integer"}}})
    assert parse(plain).root == parse(doc).root
    assert parse(doc, flavor="openapi-3.0") is not parse(doc)


def test_unknown_flavors_and_non_json_are_refused() -> None:
    with pytest.raises(SchemaError, match="flavor"):
        parse({}, flavor="draft-4")  # type: ignore[arg-type]
    with pytest.raises(SchemaError, match="not a JSON Schema"):
        parse({"default": object()})


def test_model_lists_every_node_once() -> None:
    model = parse(
        {"type": "array", "items": {"$ref": "#/$defs/A"}, "$defs": {"A": {"type": "string"}}}
    )
    kinds = sorted(n.kind for n in model.nodes())
    assert kinds == ["array", "ref", "string"]


# --- the Python type <-> schema table -----------------------------------------------------


@pytest.mark.parametrize(
    "tp",
    [
        str,
        int,
        float,
        bool,
        type(None),
        dt.datetime,
        dt.date,
        dt.time,
        dt.timedelta,
        uuid.UUID,
        bytes,
        Base64Bytes,
        Base64,
        decimal.Decimal,
        pathlib.Path,
        AnyUrl,
        ipaddress.IPv4Address,
        ipaddress.IPv6Address,
    ],
)
def test_a_scalar_type_comes_back_as_itself(tp: Any) -> None:
    schema = S.json_schema(tp)
    row = S.scalar_type_of(tp)
    assert row is not None and schema == thaw(row.schema)
    back = S.scalar_type_for(parse(schema).root)
    assert back is not None and back.python is tp


@pytest.mark.parametrize(
    ("schema", "annotation"),
    [
        ({"type": "string", "format": "byte"}, "sktypes.generated.Base64"),
        ({"type": "string", "format": "base64"}, "pydantic.Base64Bytes"),
        ({"type": "string", "format": "decimal"}, "decimal.Decimal"),
        ({"type": "number", "format": "decimal"}, "decimal.Decimal"),
        ({"type": "string", "format": "email"}, "str"),
        ({"type": "string", "format": "hostname"}, "str"),
        ({"type": "integer", "format": "int64"}, "int"),
        ({"type": "null"}, "None"),
        ({"type": "string", "format": "date-time"}, "datetime.datetime"),
        # OpenAPI 3.1 / JSON Schema say format: byte as contentEncoding (was typed str)
        ({"type": "string", "contentEncoding": "base64"}, "sktypes.generated.Base64"),
        ({"type": "string", "contentEncoding": "BASE64"}, "sktypes.generated.Base64"),
        (
            {"type": "string", "contentEncoding": "base64", "contentMediaType": "image/png"},
            "sktypes.generated.Base64",
        ),
        ({"type": "string", "contentMediaType": "image/png"}, "str"),
    ],
)
def test_formats_read_back_through_the_table(schema: Any, annotation: str) -> None:
    row = S.scalar_type_for(root(schema))
    assert row is not None and row.annotation == annotation


def test_non_scalars_have_no_scalar_type() -> None:
    assert S.scalar_type_for(root({"type": "object"})) is None
    assert S.scalar_type_for(root({"anyOf": [{"type": "string"}, {"type": "integer"}]})) is None


def test_the_model_reads_as_its_root_node() -> None:
    model = parse({"type": "object", "properties": {"a": {"type": "string"}}, "description": "d"})
    assert model.kind == "object" and model.description == "d"
    assert [p.name for p in model.properties] == ["a"] and model.prop("a") is not None
    with pytest.raises(AttributeError):
        _ = model.no_such_field
