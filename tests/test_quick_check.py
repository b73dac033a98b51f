"""The compiled yes-check in front of jsonschema: never says yes to an invalid value.

Soundness is the whole contract (a ``False`` only costs a full validation), so the property
test draws schemas from every compiled keyword, nested, and values shaped to hit them, and
checks ``quick(v) ⇒ jsonschema finds no error``. The unit tests pin that the everyday
parameter shapes do take the compiled path, and that unknown keywords are never compiled.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

import sktypes as sk
from sktypes._quick import compile_check
from sktypes.validate import _FORMATS, _conforms, quick_check, validate_arguments

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.sampled_from([0.0, 1.0, 1.5, -2.5]),
    st.sampled_from(["", "a", "ab", "abc", "2024-01-02", "x@y.z", "07:30:00"]),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from(["a", "b", "c"]), inner, max_size=3),
    ),
    max_leaves=8,
)
types = st.sampled_from(["string", "integer", "number", "boolean", "null", "array", "object"])


def _schemas(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    keyword = st.one_of(
        st.builds(lambda t: {"type": t}, st.one_of(types, st.lists(types, min_size=1))),
        st.builds(lambda e: {"enum": e}, st.lists(scalars, min_size=1, max_size=3)),
        st.builds(lambda c: {"const": c}, scalars),
        st.builds(
            lambda k, n: {k: n},
            st.sampled_from(["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]),
            st.sampled_from([-1, 0, 1, 1.5]),
        ),
        st.builds(
            lambda k, n: {k: n},
            st.sampled_from(
                [
                    "minLength",
                    "maxLength",
                    "minItems",
                    "maxItems",
                    "minProperties",
                    "maxProperties",
                ]
            ),
            st.integers(0, 3),
        ),
        st.builds(lambda p: {"pattern": p}, st.sampled_from(["^a", "b$", "[0-9]"])),
        st.builds(lambda f: {"format": f}, st.sampled_from(["date", "time", "email", "unknown"])),
        st.builds(lambda s: {"items": s}, inner),
        st.builds(
            lambda props, req, extra: {
                "properties": props,
                "required": req,
                **({} if extra is None else {"additionalProperties": extra}),
            },
            st.dictionaries(st.sampled_from(["a", "b"]), inner, max_size=2),
            st.lists(st.sampled_from(["a", "b", "c"]), max_size=2, unique=True),
            st.one_of(st.none(), st.booleans(), inner),
        ),
        st.builds(lambda s: {"additionalProperties": s}, st.one_of(st.booleans(), inner)),
        st.builds(lambda ss: {"anyOf": ss}, st.lists(inner, min_size=1, max_size=3)),
        st.builds(lambda ss: {"allOf": ss}, st.lists(inner, min_size=1, max_size=3)),
        st.just({"description": "annotations only", "default": 1}),
    )
    return st.lists(keyword, min_size=1, max_size=3).map(
        lambda parts: {k: v for part in parts for k, v in part.items()}
    )


schemas = st.recursive(st.just(True), _schemas, max_leaves=6)


@given(schemas, values)
def test_thequick_check_never_accepts_what_jsonschema_rejects(schema: Any, value: Any) -> None:
    check = compile_check(schema, _conforms)
    assert check is not None  # every keyword drawn here is compiled
    if check(value):
        errors = list(Draft202012Validator(schema, format_checker=_FORMATS).iter_errors(value))
        assert errors == [], (schema, value)


@pytest.mark.parametrize(
    "schema",
    [
        {"$ref": "#/$defs/X", "$defs": {"X": {"type": "string"}}},
        {"oneOf": [{"type": "string"}]},
        {"not": {"type": "string"}},
        {"prefixItems": [{"type": "string"}]},
        {"uniqueItems": True},
        {"patternProperties": {"^a": {"type": "string"}}},
        {"if": {"type": "string"}, "then": {"minLength": 1}},
        {"someFutureKeyword": 1},
        {"type": "string", "format": "date"},  # without a format checker
        False,
    ],
)
def test_uncompiled_keywords_fall_back_to_jsonschema(schema: Any) -> None:
    assert compile_check(schema) is None


def test_numbers_compare_like_jsonschema() -> None:
    check = compile_check({"type": "integer", "enum": [1, 2]})
    assert check is not None
    assert check(1)
    assert not check(True)  # a boolean is not an integer
    assert not check(1.0)  # equal for jsonschema: left to it (a False is only "not sure")
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
    check = quick_check(view)
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
            validate_arguments(view, bad)
