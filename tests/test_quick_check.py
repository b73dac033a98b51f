"""The compiled yes-check in front of jsonschema: never says yes to an invalid value.

Soundness is the contract (a ``False`` only costs a full validation); compiled from the
schema model, the check is in fact exact. The property test draws schemas from every
keyword the model represents (``$ref``, ``allOf``, ``oneOf``, tuples, pattern properties...),
nested, and values shaped to hit them, and checks ``quick(v) == jsonschema finds no error``.
The unit tests pin that the everyday parameter shapes take the compiled path, and that
keywords the model does not represent are never compiled.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

import pytest
from hypothesis import given
from jsonschema import Draft202012Validator

import sktypes as sk
from sktypes._quick import compile_check
from sktypes.hydration import SchemaCheck
from sktypes.hydration._check import _format_checker, conforms
from sktypes.validate import validate_arguments
from tests.schema_grammar import documents, values


@given(documents(), values)
def test_the_quick_check_agrees_with_jsonschema(schema: Any, value: Any) -> None:
    check = compile_check(schema, conforms)
    assert check is not None  # every keyword drawn here is represented, so compiled
    valid = Draft202012Validator(schema, format_checker=_format_checker()).is_valid(value)
    assert check(value) == valid, (schema, value)


@pytest.mark.parametrize(
    ("schema", "good", "bad"),
    [
        ({"$ref": "#/$defs/X", "$defs": {"X": {"type": "string"}}}, "a", 1),
        ({"oneOf": [{"type": "integer"}, {"minimum": 2}]}, 1.5 + 1, 3),
        ({"prefixItems": [{"type": "string"}], "items": False}, ["a"], ["a", 1]),
        ({"uniqueItems": True}, [1, True], [1, 1.0]),
        ({"patternProperties": {"^a": {"type": "string"}}}, {"ab": "x", "b": 1}, {"ab": 1}),
        ({"someFutureKeyword": 1}, 1, None),
        (False, None, 1),
        ({"type": "integer", "enum": [1, 2]}, 1.0, True),
    ],
)
def test_keywords_the_model_represents_are_compiled_exactly(
    schema: Any, good: Any, bad: Any
) -> None:
    check = compile_check(schema)
    assert check is not None
    if good is not None:
        assert check(good)
    if bad is not None:
        assert not check(bad)


@pytest.mark.parametrize(
    "schema",
    [
        {"not": {"type": "string"}},
        {"if": {"type": "string"}, "then": {"minLength": 1}},
        {"type": "string", "format": "date"},  # without a format checker
        {"$ref": "#/$defs/Missing"},
        {"$ref": "other.json"},
    ],
)
def test_what_the_model_does_not_represent_falls_back_to_jsonschema(schema: Any) -> None:
    assert compile_check(schema) is None


def test_numbers_compare_like_jsonschema() -> None:
    check = compile_check({"type": "integer", "enum": [1, 2]})
    assert check is not None
    assert check(1)
    assert not check(True)  # a boolean is not an integer
    assert check(1.0)  # 1.0 is the integer 1 for jsonschema
    assert compile_check({"type": "integer"}) is not None
    integer = compile_check({"type": "integer"})
    assert integer is not None and integer(2.0) and not integer(2.5)


def lookup(
    city: str,
    when: dt.date,
    units: Literal["metric", "imperial"] = "metric",
    days: int = 1,
    tags: list[str] | None = None,
) -> str:
    """Look something up."""
    return city


def test_everyday_parameters_take_the_compiled_path() -> None:
    view = sk.function_view(lookup)
    check = SchemaCheck(view.parameters_schema).quick
    assert check is not None
    assert check({"city": "Oslo", "when": "2026-01-02", "units": "metric", "tags": ["a"]})
    assert check({"city": "Oslo", "when": "2026-01-02", "tags": None})
    for bad in (
        {"when": "2026-01-02"},  # missing city
        {"city": "Oslo", "when": "not a date"},
        {"city": "Oslo", "when": "2026-01-02", "units": "kelvin"},
        {"city": "Oslo", "when": "2026-01-02", "extra": 1},
        {"city": "Oslo", "when": "2026-01-02", "days": "1"},
    ):
        assert not check(bad)
        with pytest.raises(sk.ArgumentsError):
            validate_arguments(view, bad, strict=True)
