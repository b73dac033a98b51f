"""Views and JsonDocument: immutable, hashable, round-tripping."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest

from sktypes import (
    FunctionView,
    JsonDocument,
    ParameterView,
    ParameterViewType,
    ReturnParameterView,
)
from sktypes.errors import SktypesError


def make_view() -> FunctionView:
    return FunctionView(
        name="GetDate1",
        plugin_name="DatePlugin",
        description="Gets a date.",
        parameters=(
            ParameterView(name="numDays", description="Offset.", schema={"type": "integer"}),
            ParameterView(
                name="since",
                default_value=dt.date(2024, 1, 1),
                is_required=False,
                native_type=dt.date,
                schema={"type": "string", "format": "date"},
            ),
        ),
        return_parameter=ReturnParameterView(
            description="The date.",
            schema={"type": "object", "properties": {"date": {"type": "string"}}},
        ),
    )


def test_json_document_is_frozen_and_compares_by_value() -> None:
    doc = JsonDocument.parse('{"b": [1, 2], "a": {"x": true}}')
    assert doc == JsonDocument.from_value({"a": {"x": True}, "b": [1, 2]})
    assert hash(doc) == hash(JsonDocument.from_value({"a": {"x": True}, "b": [1, 2]}))
    assert doc != JsonDocument.from_value({"a": {"x": 1}, "b": [1, 2]})
    with pytest.raises(TypeError):
        doc.value["a"] = 1  # type: ignore[index]
    assert isinstance(doc.value["b"], tuple)
    copy = doc.to_python()
    copy["a"]["x"] = False
    assert doc.pointer("/a/x") is True


def test_json_document_pointer_and_errors() -> None:
    doc = JsonDocument.from_value({"a/b": [10, {"~k": 3}]})
    assert doc.pointer("/a~1b/1/~0k") == 3
    assert doc.pointer("") == doc.value
    with pytest.raises(SktypesError, match="/a~1b/5: no value"):
        doc.pointer("/a~1b/5")
    with pytest.raises(SktypesError, match="not valid JSON"):
        JsonDocument.parse("{")
    with pytest.raises(SktypesError, match="set is not a JSON value"):
        JsonDocument.from_value({"a": {1, 2}})


def test_views_are_immutable_and_hashable() -> None:
    view = make_view()
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.name = "x"  # type: ignore[misc]
    assert hash(view) == hash(make_view())
    assert view == make_view()
    assert len({view, make_view()}) == 1


def test_view_round_trips_through_dict() -> None:
    view = make_view()
    data = view.to_dict()
    assert data["parameters"][1]["default_value"] == "2024-01-01"
    assert FunctionView.from_dict(data) == view
    assert FunctionView.from_dict(data).to_dict() == data


def test_fully_qualified_name_and_parameter_types() -> None:
    view = make_view()
    assert view.fully_qualified_name == "DatePlugin.GetDate1"
    assert view.qualified_name("-") == "DatePlugin-GetDate1"
    assert view.parameters[0].type is ParameterViewType.INTEGER
    assert view.return_parameter.type is ParameterViewType.OBJECT


def test_parameters_schema_hoists_defs_and_forbids_extras() -> None:
    item = {"type": "object", "properties": {"n": {"type": "integer"}}}
    other = {"type": "object", "properties": {"s": {"type": "string"}}}
    view = FunctionView(
        name="f",
        parameters=(
            ParameterView(name="a", schema={"$ref": "#/$defs/Item", "$defs": {"Item": item}}),
            ParameterView(
                name="b",
                is_required=False,
                schema={"items": {"$ref": "#/$defs/Item"}, "$defs": {"Item": other}},
            ),
        ),
    )
    schema = view.parameters_schema
    assert schema["required"] == ["a"]
    assert schema["additionalProperties"] is False
    assert schema["$defs"] == {"Item": item, "Item__2": other}
    assert schema["properties"]["b"]["items"] == {"$ref": "#/$defs/Item__2"}


def test_duplicate_parameter_names_are_refused() -> None:
    with pytest.raises(SktypesError, match="duplicate parameter"):
        FunctionView(name="f", parameters=(ParameterView(name="a"), ParameterView(name="a")))


def test_boolean_schemas_have_no_single_type() -> None:
    from sktypes.views import view_type_of

    assert view_type_of(True) is None  # type: ignore[arg-type]
    assert view_type_of({"anyOf": [True, {"type": "null"}]}) is None
    assert view_type_of({"$ref": "#/$defs/A", "$defs": {"A": False}}) is None
