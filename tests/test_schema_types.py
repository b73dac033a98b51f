"""Type families → draft 2020-12 schemas, checked against pydantic in both directions."""

from __future__ import annotations

import collections.abc
import datetime as dt
import typing
from typing import Any, Literal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from jsonschema import Draft202012Validator
from pydantic import TypeAdapter, ValidationError

from sktypes import IntrospectionError, json_schema
from sktypes.schema import type_adapter
from sktypes.schema._types import _FIXED
from tests.typefamilies import FAMILIES, Address, Color, Item, Point, Tree

FORMATS = Draft202012Validator.FORMAT_CHECKER


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_every_family_schema_passes_the_meta_schema(name: str) -> None:
    Draft202012Validator.check_schema(json_schema(FAMILIES[name]))


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_no_titles_are_emitted(name: str) -> None:
    def titles(node: Any, in_props: bool = False) -> list[str]:
        if isinstance(node, dict):
            found = [] if in_props else (["title"] if "title" in node else [])
            for k, v in node.items():
                if k in ("properties", "$defs"):
                    for sub in v.values():
                        found += titles(sub)
                elif not in_props:
                    found += titles(v)
            return found
        if isinstance(node, list):
            return [t for v in node for t in titles(v)]
        return []

    assert titles(json_schema(FAMILIES[name])) == []


def _strategy(tp: Any) -> st.SearchStrategy[Any]:
    if tp is dt.datetime:  # JSON Schema date-time needs an offset
        return st.datetimes(timezones=st.just(dt.UTC))
    if tp is dt.time:
        return st.times(timezones=st.just(dt.UTC))
    if tp is Tree:  # st.from_type grows recursive models without bound: keep them small
        leaf = st.builds(Tree, value=st.integers(), children=st.just([]))
        return st.recursive(
            leaf,
            lambda kids: st.builds(Tree, value=st.integers(), children=st.lists(kids, max_size=3)),
            max_leaves=8,
        )
    return st.from_type(tp)


@pytest.mark.parametrize("name", sorted(FAMILIES))
@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(data=st.data())
def test_dumped_values_validate_against_the_schema(name: str, data: st.DataObject) -> None:
    tp = FAMILIES[name]
    value = data.draw(_strategy(tp))
    adapter = TypeAdapter(tp)
    try:
        dumped = adapter.dump_python(adapter.validate_python(value), mode="json")
    except (ValidationError, ValueError):
        return  # st.from_type ignores constraints such as ge=1: not a value of the type
    errors = list(Draft202012Validator(json_schema(tp), format_checker=FORMATS).iter_errors(dumped))
    assert errors == [], (dumped, [e.message for e in errors])


# hypothesis-jsonschema speaks drafts 4-7: give it tuples in the draft-7 form and
# strategies for the formats it does not know.
CUSTOM_FORMATS = {
    "uuid": st.uuids().map(str),
    "duration": st.timedeltas().map(
        lambda d: TypeAdapter(dt.timedelta).dump_python(d, mode="json")
    ),
    "path": st.text(min_size=1, alphabet="abc/._-"),
    "binary": st.text(),
}


def draft7(node: Any) -> Any:
    """Rewrite ``prefixItems`` into draft-7 ``items`` arrays for hypothesis-jsonschema."""
    if isinstance(node, list):
        return [draft7(v) for v in node]
    if not isinstance(node, dict):
        return node
    out = {k: draft7(v) for k, v in node.items()}
    if "prefixItems" in out:
        rest = out.pop("items", False)
        out["items"] = out.pop("prefixItems")
        out["additionalItems"] = rest
    return out


@pytest.mark.parametrize("name", sorted(set(FAMILIES) - {"recursive_model"}))
@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(data=st.data())
def test_schema_instances_validate_with_pydantic(name: str, data: st.DataObject) -> None:
    tp = FAMILIES[name]
    schema = draft7(json_schema(tp))
    instance = data.draw(from_schema(schema, custom_formats=CUSTOM_FORMATS))
    TypeAdapter(tp).validate_python(instance)


@given(st.recursive(st.integers(), lambda kids: st.lists(kids, max_size=3)))
def test_recursive_schema_accepts_and_rejects_like_pydantic(shape: Any) -> None:
    # hypothesis-jsonschema cannot unroll recursive refs: build trees by hand instead
    def tree(node: Any) -> dict[str, Any]:
        if isinstance(node, int):
            return {"value": node}
        return {"value": len(node), "children": [tree(k) for k in node]}

    instance = tree(shape)
    validator = Draft202012Validator(json_schema(Tree))
    assert validator.is_valid(instance)
    Tree.model_validate(instance)
    broken = {"value": 1, "children": [{"children": []}]}
    assert not validator.is_valid(broken)


def test_fixed_table_matches_pydantic() -> None:
    for tp, schema in _FIXED.items():
        if tp is None or tp is object:
            continue
        assert TypeAdapter(tp).json_schema() == schema, tp


def test_recursive_model_stays_a_ref() -> None:
    schema = json_schema(Tree)
    assert schema["$defs"]["Tree"]["properties"]["children"]["items"] == {"$ref": "#/$defs/Tree"}


def test_field_constraints_and_model_docstring_are_kept() -> None:
    schema = json_schema(Item)
    assert schema["description"] == "An order line."
    assert schema["properties"]["qty"] == {"type": "integer", "minimum": 1, "maximum": 1000}
    assert schema["properties"]["sku"]["minLength"] == 1


def test_property_named_title_survives_title_dropping() -> None:
    from pydantic import BaseModel

    class Book(BaseModel):
        title: str

    assert json_schema(Book)["properties"] == {"title": {"type": "string"}}


def test_decimal_strings_must_spell_a_number() -> None:
    from decimal import Decimal

    validator = Draft202012Validator(json_schema(Decimal))
    assert validator.is_valid("12.50")
    assert validator.is_valid(3)
    assert not validator.is_valid("twelve")


def test_plain_typing_typeddict_is_accepted() -> None:
    from tests.plain_types import Plain

    schema = json_schema(Plain)
    assert schema["required"] == ["b"]
    assert type_adapter(Plain).validate_python({"b": "x"}) == {"b": "x"}
    nested = json_schema(list[Plain])
    assert nested["items"] == {"$ref": "#/$defs/Plain"}


def test_unsupported_type_is_a_clear_error() -> None:
    class Opaque:
        pass

    with pytest.raises(IntrospectionError, match=r"type .*Opaque has no JSON Schema"):
        json_schema(Opaque)


# --- composed container schemas equal pydantic's -------------------------------------

_LEAVES = [int, str, float, bool, type(None), dt.date, Color, Item, Tree, Point, Address]
_ORIGINS = [list, set, frozenset, collections.abc.Sequence, collections.abc.Mapping, dict]


def _types() -> st.SearchStrategy[Any]:
    leaves = st.sampled_from(_LEAVES) | st.builds(
        lambda vs: Literal[tuple(vs)],  # type: ignore[misc]
        st.lists(
            st.one_of(st.text(max_size=3), st.integers(-3, 3), st.none()), min_size=1, max_size=3
        ),
    )

    def extend(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        def container(origin: Any, arg: Any) -> Any:
            if origin in (dict, collections.abc.Mapping):
                return origin[str, arg]
            if origin in (set, frozenset) and arg in (Item, Tree, Point, Address):
                return list[arg]  # unhashable models cannot sit in sets
            return origin[arg]

        return st.one_of(
            st.builds(container, st.sampled_from(_ORIGINS), inner),
            st.builds(lambda a: tuple[a, ...], inner),
            st.lists(inner, min_size=2, max_size=3).map(
                lambda xs: typing.Union[tuple(xs)],  # noqa: UP007
            ),
        )

    return st.recursive(leaves, extend, max_leaves=5)


@given(tp=_types(), mode=st.sampled_from(["validation", "serialization"]))
def test_composed_schemas_equal_pydantic(tp: Any, mode: str) -> None:
    from sktypes.schema._types import ModelSchemaGenerator, type_schema

    try:
        expected = TypeAdapter(tp).json_schema(
            mode=mode,  # type: ignore[arg-type]
            ref_template="#/$defs/{model}",
            schema_generator=ModelSchemaGenerator,
        )
    except Exception:
        return  # pydantic itself refuses (e.g. an unhashable set member)
    assert type_schema(tp, mode).to_python() == expected  # type: ignore[arg-type]
