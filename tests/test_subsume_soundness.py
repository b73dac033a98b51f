"""Soundness of the subsumption check, as properties over schemas of random Python types.

Whenever the check says *compatible*, every instance hypothesis-jsonschema generates for the
source validates against the target; whenever it says *incompatible*, its witness is valid
for the source and invalid for the target.
"""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Annotated, Any, Literal, Optional, Union

from hypothesis import event, given, note
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from jsonschema import Draft202012Validator
from pydantic import Field, create_model

from sktypes import FunctionView, ParameterView, ReturnParameterView, json_schema
from sktypes.plan import Plan, Verdict, check_plan, compatibility
from tests.typefamilies import Address, Color, Item, Level, Mode, Pet, Point

FC = Draft202012Validator.FORMAT_CHECKER

LEAVES: list[Any] = [
    int,
    float,
    str,
    bool,
    type(None),
    dt.date,
    dt.datetime,
    uuid.UUID,
    Literal["a", "b"],
    Literal[1, 2],
    Annotated[int, Field(ge=0)],
    Annotated[int, Field(ge=0, le=10)],
    Annotated[int, Field(gt=-5, lt=5)],
    Annotated[str, Field(max_length=5)],
    Annotated[str, Field(min_length=1)],
    Annotated[float, Field(gt=0)],
    Annotated[float, Field(multiple_of=2)],
    Color,
    Level,
    Mode,
    Point,
    Address,
    Item,
    Pet,
]
_NAMES = ["a", "b", "date"]
_models = 0


def _model(fields: dict[str, tuple[Any, bool]]) -> Any:
    global _models
    _models += 1
    spec: dict[str, Any] = {
        name: (tp, ...) if required else (Optional[tp], None)  # noqa: UP045 - a type object
        for name, (tp, required) in fields.items()
    }
    return create_model(f"M{_models}", **spec)


def _extend(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(
        inner.map(lambda t: list[t]),  # type: ignore[valid-type]
        inner.map(lambda t: Optional[t]),  # noqa: UP045
        st.tuples(inner, inner).map(lambda p: Union[p[0], p[1]]),  # noqa: UP007
        inner.map(lambda t: dict[str, t]),  # type: ignore[valid-type]
        st.tuples(inner, inner).map(lambda p: tuple[p[0], p[1]]),  # type: ignore[valid-type]
        st.dictionaries(
            st.sampled_from(_NAMES), st.tuples(inner, st.booleans()), min_size=1, max_size=3
        ).map(_model),
    )


TYPES = st.recursive(st.sampled_from(LEAVES), _extend, max_leaves=4)


def _widen(tp: Any) -> st.SearchStrategy[Any]:
    return st.sampled_from(
        [tp, Optional[tp], Union[tp, int], Union[str, tp], list[tp]]  # noqa: UP007, UP045
    )


PAIRS = st.one_of(
    st.tuples(TYPES, TYPES),
    TYPES.flatmap(lambda s: st.tuples(st.just(s), _widen(s))),
    TYPES.flatmap(lambda t: st.tuples(_widen(t), st.just(t))),
)


def _schema(tp: Any) -> dict[str, Any]:
    return json_schema(tp)


@given(pair=PAIRS, data=st.data())
def test_compatible_verdicts_hold_for_generated_instances(
    pair: tuple[Any, Any], data: st.DataObject
) -> None:
    source, target = _schema(pair[0]), _schema(pair[1])
    result = compatibility(source, target)
    note(f"source={source}\ntarget={target}\n{result}")
    event(result.verdict.value)
    s_valid = Draft202012Validator(source, format_checker=FC)
    t_valid = Draft202012Validator(target, format_checker=FC)
    if result.verdict is Verdict.INCOMPATIBLE:
        assert s_valid.is_valid(result.witness)
        assert not t_valid.is_valid(result.witness)
    if result.verdict is not Verdict.COMPATIBLE:
        return
    try:
        instances = from_schema(source)
    except Exception:  # recursive or draft 2020-12 only schemas it cannot generate from
        return
    for _ in range(5):
        try:
            instance = data.draw(instances)
        except Exception:
            return
        if s_valid.is_valid(instance):  # hypothesis-jsonschema reads some 2020-12 as draft 7
            note(f"instance={instance!r}")
            event("instance checked")
            assert t_valid.is_valid(instance), f"{instance!r} breaks the target"


@given(tp=TYPES)
def test_every_schema_is_compatible_with_itself(tp: Any) -> None:
    schema = _schema(tp)
    result = compatibility(schema, schema)
    assert result.verdict is Verdict.COMPATIBLE, result


@given(tp=TYPES)
def test_every_schema_fits_its_optional_form(tp: Any) -> None:
    result = compatibility(_schema(tp), _schema(Optional[tp]))  # noqa: UP045
    assert result.verdict is Verdict.COMPATIBLE, result


def _views(source: dict[str, Any], target: dict[str, Any]) -> list[FunctionView]:
    wrapped = {
        "type": "object",
        "properties": {"value": {k: v for k, v in source.items() if k != "$defs"}},
        "required": ["value"],
        "$defs": source.get("$defs", {}),
    }
    return [
        FunctionView(
            name="src", plugin_name="P", return_parameter=ReturnParameterView(schema=wrapped)
        ),
        FunctionView(
            name="dst", plugin_name="P", parameters=(ParameterView(name="x", schema=target),)
        ),
    ]


WIRED = Plan.model_validate(
    {
        "steps": [
            {"id": "a", "function": "P.src"},
            {"id": "b", "function": "P.dst", "arguments": {"x": {"$from": "a", "path": "$.value"}}},
        ]
    }
)


@given(pair=PAIRS, data=st.data())
def test_plans_that_check_clean_pass_values_the_target_accepts(
    pair: tuple[Any, Any], data: st.DataObject
) -> None:
    source, target = _schema(pair[0]), _schema(pair[1])
    issues = check_plan(WIRED, _views(source, target))
    note(f"source={source}\ntarget={target}\n{issues}")
    event("clean" if not issues else issues[0].severity)
    if issues:
        return
    s_valid = Draft202012Validator(source, format_checker=FC)
    t_valid = Draft202012Validator(target, format_checker=FC)
    try:
        instances = from_schema(source)
    except Exception:  # recursive or draft 2020-12 only schemas it cannot generate from
        return
    for _ in range(5):
        try:
            instance = data.draw(instances)
        except Exception:
            return
        if s_valid.is_valid(instance):
            assert t_valid.is_valid(instance), f"{instance!r} breaks the target"


# Raw schemas: every keyword family the check compares, in small random combinations.

_INTS = st.integers(-3, 3)
_NUMS = st.sampled_from([-2, -0.5, 0, 0.5, 2])
_VALUES = st.sampled_from([0, 1, 2, 1.5, -1, "", "a", "b", "ab", None, True, False])


def _opt(key: str, values: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    return st.one_of(st.just({}), values.map(lambda v: {key: v}))


def _merge(*parts: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    return st.tuples(*parts).map(lambda ds: {k: v for d in ds for k, v in d.items()})


_LEAF_SCHEMAS = st.one_of(
    _merge(
        st.just({"type": "integer"}),
        _opt("minimum", _INTS),
        _opt("maximum", _INTS),
        _opt("exclusiveMinimum", _INTS),
        _opt("multipleOf", st.sampled_from([1, 2, 3])),
    ),
    _merge(
        st.just({"type": "number"}),
        _opt("minimum", _NUMS),
        _opt("exclusiveMaximum", _NUMS),
        _opt("multipleOf", st.sampled_from([0.5, 1, 2])),
    ),
    _merge(
        st.just({"type": "string"}),
        _opt("minLength", st.integers(0, 2)),
        _opt("maxLength", st.integers(0, 3)),
        _opt("format", st.sampled_from(["date", "email"])),
        _opt("pattern", st.just("^a")),
    ),
    st.sampled_from([{"type": "boolean"}, {"type": "null"}, {}, {"type": ["integer", "string"]}]),
    st.lists(_VALUES, min_size=1, max_size=3).map(lambda vs: {"enum": vs}),
    _VALUES.map(lambda v: {"const": v}),
)


def _extend_schemas(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    names = st.sampled_from(["a", "b"])
    return st.one_of(
        _merge(
            st.just({"type": "array"}),
            inner.map(lambda s: {"items": s}),
            _opt("minItems", st.integers(0, 2)),
            _opt("maxItems", st.integers(0, 2)),
            _opt("uniqueItems", st.just(True)),
        ),
        _merge(
            st.just({"type": "object"}),
            st.dictionaries(names, inner, max_size=2).map(lambda p: {"properties": p}),
            _opt("required", st.lists(names, max_size=2, unique=True)),
            _opt("additionalProperties", st.one_of(st.booleans(), inner)),
            _opt("minProperties", st.integers(0, 2)),
            _opt("maxProperties", st.integers(0, 2)),
        ),
        st.tuples(
            st.sampled_from(["anyOf", "oneOf", "allOf"]), st.lists(inner, min_size=1, max_size=2)
        ).map(lambda kv: {kv[0]: kv[1]}),
        inner.map(lambda s: {"not": s}),
    )


SCHEMAS = st.recursive(_LEAF_SCHEMAS, _extend_schemas, max_leaves=4)


def _drop_keyword(schema: Any, data: st.DataObject) -> Any:
    if not isinstance(schema, dict) or not schema:
        return schema
    key = data.draw(st.sampled_from(sorted(schema)))
    return {k: v for k, v in schema.items() if k != key}


@given(source=SCHEMAS, data=st.data())
def test_raw_schema_verdicts_are_sound(source: Any, data: st.DataObject) -> None:
    target = data.draw(
        st.one_of(SCHEMAS, st.just(source), st.just(None)).map(
            lambda t: _drop_keyword(source, data) if t is None else t
        )
    )
    result = compatibility(source, target)
    note(f"source={source}\ntarget={target}\n{result}")
    event(result.verdict.value)
    s_valid = Draft202012Validator(source, format_checker=FC)
    t_valid = Draft202012Validator(target, format_checker=FC)
    if result.verdict is Verdict.INCOMPATIBLE:
        assert s_valid.is_valid(result.witness)
        assert not t_valid.is_valid(result.witness)
    if result.verdict is not Verdict.COMPATIBLE:
        return
    try:
        instances = from_schema(source)
    except Exception:  # unsatisfiable sources: nothing to check
        return
    for _ in range(5):
        try:
            instance = data.draw(instances)
        except Exception:
            return
        if s_valid.is_valid(instance):
            event("instance checked")
            note(f"instance={instance!r}")
            assert t_valid.is_valid(instance), f"{instance!r} breaks the target"
