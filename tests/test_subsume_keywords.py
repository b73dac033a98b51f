"""The subsumption check, keyword by keyword: compatible / incompatible / unknown."""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator

from sktypes import JsonDocument
from sktypes.plan import Compatibility, Verdict, compatibility

C, I, U = Verdict.COMPATIBLE, Verdict.INCOMPATIBLE, Verdict.UNKNOWN  # noqa: E741 - a verdict table
FC = Draft202012Validator.FORMAT_CHECKER

OBJ_DATE = {"type": "object", "properties": {"date": {"type": "string"}}, "required": ["date"]}
TREE = {
    "$defs": {
        "T": {
            "type": "object",
            "properties": {
                "v": {"type": "integer"},
                "kids": {"type": "array", "items": {"$ref": "#/$defs/T"}},
            },
            "required": ["v"],
        }
    },
    "$ref": "#/$defs/T",
}
TREE_NUMBERS = {
    "$defs": {
        "N": {
            "type": "object",
            "properties": {
                "v": {"type": "number"},
                "kids": {"type": "array", "items": {"$ref": "#/$defs/N"}},
            },
        }
    },
    "$ref": "#/$defs/N",
}
CAT = {"type": "object", "properties": {"kind": {"const": "cat"}}, "required": ["kind"]}
DOG = {"type": "object", "properties": {"kind": {"const": "dog"}}, "required": ["kind"]}

# (source, target, expected verdict)
CASES: dict[str, tuple[Any, Any, Verdict]] = {
    # type
    "same_type": ({"type": "string"}, {"type": "string"}, C),
    "other_type": ({"type": "string"}, {"type": "integer"}, I),
    "integer_into_number": ({"type": "integer"}, {"type": "number"}, C),
    "number_into_integer": ({"type": "number"}, {"type": "integer"}, I),
    "number_multiple_of_2_into_integer": (
        {"type": "number", "multipleOf": 2},
        {"type": "integer"},
        C,
    ),
    "type_list_into_wider_list": (
        {"type": ["string", "null"]},
        {"type": ["null", "string", "integer"]},
        C,
    ),
    "nullable_into_plain": ({"type": ["string", "null"]}, {"type": "string"}, I),
    "untyped_source_into_typed": ({"properties": {"a": {}}}, {"type": "object"}, I),
    "anything_into_empty_schema": ({}, {}, C),
    "anything_into_true": ({"type": "string"}, True, C),
    "false_into_anything": (False, {"type": "string"}, C),
    "something_into_false": ({"type": "string"}, False, I),
    # enum / const
    "enum_subset": ({"enum": ["a", "b"]}, {"enum": ["a", "b", "c"]}, C),
    "enum_superset": ({"enum": ["a", "b", "c"]}, {"enum": ["a", "b"]}, I),
    "enum_into_type": ({"enum": ["a", 1]}, {"type": "string"}, I),
    "const_into_pattern": ({"const": "2024-01-01"}, {"type": "string", "pattern": "^\\d{4}-"}, C),
    "string_into_enum": ({"type": "string"}, {"enum": ["a"]}, I),
    "boolean_into_const_true": ({"type": "boolean"}, {"const": True}, I),
    "small_integer_range_into_enum": (
        {"type": "integer", "minimum": 1, "maximum": 3},
        {"enum": [1, 2, 3]},
        C,
    ),
    # numeric bounds
    "tighter_bounds": (
        {"type": "integer", "minimum": 1, "maximum": 5},
        {"type": "integer", "minimum": 0, "maximum": 10},
        C,
    ),
    "below_minimum": ({"type": "integer", "minimum": 0}, {"type": "integer", "minimum": 1}, I),
    "above_maximum": ({"type": "number"}, {"type": "number", "maximum": 100}, I),
    "exclusive_vs_inclusive": (
        {"type": "number", "exclusiveMinimum": 0},
        {"type": "number", "minimum": 0},
        C,
    ),
    "inclusive_vs_exclusive": (
        {"type": "number", "minimum": 0},
        {"type": "number", "exclusiveMinimum": 0},
        I,
    ),
    "integer_exclusive_is_next_integer": (
        {"type": "integer", "exclusiveMinimum": 0},
        {"type": "integer", "minimum": 1},
        C,
    ),
    "multiple_of_multiple": (
        {"type": "integer", "multipleOf": 6},
        {"type": "integer", "multipleOf": 3},
        C,
    ),
    "multiple_of_not_multiple": (
        {"type": "integer", "multipleOf": 4},
        {"type": "integer", "multipleOf": 3},
        I,
    ),
    # the validator's float division: 0.3 / 0.1 is not whole, so 0.3 is a witness
    "fractional_multiple_float_division": (
        {"type": "number", "multipleOf": 0.3},
        {"type": "number", "multipleOf": 0.1},
        I,
    ),
    # strings
    "shorter_max_length": (
        {"type": "string", "maxLength": 5},
        {"type": "string", "maxLength": 10},
        C,
    ),
    "longer_than_max_length": ({"type": "string"}, {"type": "string", "maxLength": 10}, I),
    "shorter_than_min_length": ({"type": "string"}, {"type": "string", "minLength": 1}, I),
    "same_pattern": ({"type": "string", "pattern": "^a"}, {"type": "string", "pattern": "^a"}, C),
    "other_pattern": ({"type": "string"}, {"type": "string", "pattern": "^a"}, I),
    "same_format": ({"type": "string", "format": "date"}, {"type": "string", "format": "date"}, C),
    "string_into_date": ({"type": "string"}, {"type": "string", "format": "date"}, I),
    "date_into_string": ({"type": "string", "format": "date"}, {"type": "string"}, C),
    "unchecked_format_is_annotation": (
        {"type": "string"},
        {"type": "string", "format": "x-custom"},
        C,
    ),
    # arrays
    "items_widen": (
        {"type": "array", "items": {"type": "integer"}},
        {"type": "array", "items": {"type": "number"}},
        C,
    ),
    "items_narrow": (
        {"type": "array", "items": {"type": "number"}},
        {"type": "array", "items": {"type": "integer"}},
        I,
    ),
    "min_items": ({"type": "array", "minItems": 2}, {"type": "array", "minItems": 1}, C),
    "too_few_items": ({"type": "array"}, {"type": "array", "minItems": 1}, I),
    "too_many_items": ({"type": "array", "maxItems": 5}, {"type": "array", "maxItems": 3}, I),
    "unique_items": ({"type": "array"}, {"type": "array", "uniqueItems": True}, I),
    "unique_items_single": (
        {"type": "array", "maxItems": 1},
        {"type": "array", "uniqueItems": True},
        C,
    ),
    "tuple_into_list": (
        {
            "type": "array",
            "prefixItems": [{"type": "integer"}, {"type": "integer"}],
            "items": False,
        },
        {"type": "array", "items": {"type": "integer"}},
        C,
    ),
    "tuple_wrong_position": (
        {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}], "items": False},
        {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "integer"}]},
        I,
    ),
    "property_names_not_compared": (
        {"type": "object"},
        {"type": "object", "propertyNames": {"maxLength": 2}},
        I,
    ),
    "contains_not_compared": (
        {"type": "array"},
        {"type": "array", "contains": {"type": "string"}},
        I,
    ),
    "contains_with_no_witness": (
        {"type": "array", "minItems": 1, "items": {"type": "string"}},
        {"type": "array", "contains": {"type": "string"}},
        U,
    ),
    # objects
    "same_object": (OBJ_DATE, OBJ_DATE, C),
    "extra_member_allowed": (
        {**OBJ_DATE, "properties": {"date": {"type": "string"}, "x": {}}},
        OBJ_DATE,
        C,
    ),
    "required_missing": (
        {"type": "object", "properties": {"date": {"type": "string"}}},
        OBJ_DATE,
        I,
    ),
    "member_type_wrong": (
        {"type": "object", "properties": {"date": {"type": "integer"}}, "required": ["date"]},
        OBJ_DATE,
        I,
    ),
    "closed_target_open_source": (OBJ_DATE, {**OBJ_DATE, "additionalProperties": False}, I),
    "closed_both": (
        {**OBJ_DATE, "additionalProperties": False},
        {**OBJ_DATE, "additionalProperties": False},
        C,
    ),
    "additional_properties_schema": (
        {"type": "object", "additionalProperties": {"type": "integer"}},
        {"type": "object", "additionalProperties": {"type": "number"}},
        C,
    ),
    "additional_properties_wrong": (
        {"type": "object", "additionalProperties": {"type": "string"}},
        {"type": "object", "additionalProperties": {"type": "number"}},
        I,
    ),
    "min_properties": ({"type": "object"}, {"type": "object", "minProperties": 1}, I),
    "max_properties_closed": (
        {"type": "object", "properties": {"a": {}}, "additionalProperties": False},
        {"type": "object", "maxProperties": 1},
        C,
    ),
    "pattern_properties_of_a_closed_source": (
        {"type": "object", "additionalProperties": False},
        {"type": "object", "patternProperties": {"^a": {"type": "string"}}},
        C,
    ),
    "pattern_properties_meet_undeclared_members": (
        {"type": "object", "additionalProperties": {"type": "integer"}},
        {"type": "object", "patternProperties": {"^a": {"type": "string"}}},
        I,
    ),
    "pattern_properties_meet_declared_members": (
        {"type": "object", "properties": {"ab": {"type": "string"}}, "additionalProperties": False},
        {"type": "object", "patternProperties": {"^a": {"type": "string", "maxLength": 2}}},
        I,
    ),
    "dependent_required_not_compared": (
        {
            "type": "object",
            "properties": {"a": {}},
            "required": ["a"],
            "additionalProperties": False,
        },
        {"type": "object", "dependentRequired": {"a": ["b"]}},
        I,
    ),
    # anyOf / oneOf / allOf / not
    "into_optional": ({"type": "string"}, {"anyOf": [{"type": "string"}, {"type": "null"}]}, C),
    "optional_into_plain": (
        {"anyOf": [{"type": "string"}, {"type": "null"}]},
        {"type": "string"},
        I,
    ),
    "union_into_union": (
        {"anyOf": [{"type": "integer"}, {"type": "string"}]},
        {"anyOf": [{"type": "string"}, {"type": "number"}]},
        C,
    ),
    "range_split_over_union": (
        {"type": "integer", "minimum": 0, "maximum": 1000},
        {"anyOf": [{"type": "integer", "maximum": 5}, {"type": "integer", "minimum": 6}]},
        U,
    ),
    "into_discriminated_one_of": (CAT, {"oneOf": [CAT, DOG]}, C),
    "into_overlapping_one_of": (
        {"type": "integer"},
        {"oneOf": [{"type": "integer"}, {"type": "number"}]},
        I,
    ),
    "into_all_of": (
        {"type": "integer", "minimum": 1},
        {"allOf": [{"type": "integer"}, {"minimum": 0}]},
        C,
    ),
    "into_all_of_failing": (
        {"type": "integer"},
        {"allOf": [{"type": "integer"}, {"minimum": 0}]},
        I,
    ),
    "from_all_of": (
        {"allOf": [{"type": "integer"}, {"minimum": 1}]},
        {"type": "integer", "minimum": 0},
        C,
    ),
    "into_not": ({"type": "string"}, {"not": {"type": "null"}}, C),
    "into_not_overlapping": ({"type": "string"}, {"not": {"type": "string", "maxLength": 0}}, I),
    "if_then_not_compared": (
        {"type": "integer", "minimum": 0},
        {"if": {"minimum": 5}, "then": {"multipleOf": 5}},
        U,
    ),
    # $ref
    "ref_into_ref": (TREE, TREE, C),
    "recursive_integer_into_number": (TREE, TREE_NUMBERS, C),
    "recursive_number_into_integer": (TREE_NUMBERS, TREE, I),
    "remote_ref_unknown": ({"$ref": "https://example.com/s.json"}, {"type": "string"}, U),
}


@pytest.mark.parametrize("name", list(CASES))
def test_keyword_verdict(name: str) -> None:
    source, target, expected = CASES[name]
    result = compatibility(source, target)
    assert result.verdict is expected, f"{name}: {result}"
    assert result.reason or expected is C
    if result.verdict is I:
        _assert_witness(result, source, target)


def _assert_witness(result: Compatibility, source: Any, target: Any) -> None:
    assert Draft202012Validator(source, format_checker=FC).is_valid(result.witness)
    assert not Draft202012Validator(target, format_checker=FC).is_valid(result.witness)


def test_wrong_plan_source_is_incompatible_with_a_witness_object() -> None:
    result = compatibility(OBJ_DATE, {"type": "string"})
    assert result.verdict is I
    assert result.witness == {"date": ""}
    assert "object" in result.reason


def test_roots_resolve_refs_of_sub_schemas() -> None:
    source_root = {"$defs": {"D": {"type": "string", "format": "date"}}}
    target_root = {"$defs": {"S": {"type": "string"}}}
    result = compatibility(
        {"$ref": "#/$defs/D"}, {"$ref": "#/$defs/S"},
        source_root=source_root, target_root=target_root,
    )  # fmt: skip
    assert result.verdict is C


def test_json_documents_are_accepted() -> None:
    result = compatibility(
        JsonDocument.from_value(OBJ_DATE), JsonDocument.from_value({"type": "object"})
    )
    assert result.compatible


def test_unsatisfiable_target_without_source_values_is_compatible() -> None:
    assert compatibility({"enum": []}, False).verdict is C


def test_incompatible_verdict_renders_with_its_reason() -> None:
    text = str(compatibility({"type": "integer", "minimum": 0}, {"type": "integer", "minimum": 1}))
    assert text.startswith("incompatible: ")
    assert "lower bound 1" in text


def test_huge_schemas_give_unknown_not_a_hang() -> None:
    wide = {"anyOf": [{"type": "integer", "minimum": i, "maximum": i + 1000} for i in range(60)]}
    deep = {"anyOf": [{"type": "integer", "maximum": i} for i in range(60)]}
    result = compatibility(wide, deep)
    assert result.verdict in (U, I)
