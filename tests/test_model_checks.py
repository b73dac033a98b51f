"""The validators generated models use check values *and* say their rule in the JSON Schema.

``unique_items``, ``one_of`` and ``text`` were pydantic ``AfterValidator``/``BeforeValidator``s:
values were checked, but ``model_json_schema()`` of a generated model left the rule out
(``uniqueItems: true`` became a plain array), so a schema taken from a generated model said
less than the spec. Each rule is now in both places.
"""

from __future__ import annotations

import datetime
from typing import Annotated, Any

import pydantic
import pytest

from sktypes.generated import one_of, text, unique_items


def _schema(tp: Any) -> dict[str, Any]:
    return pydantic.TypeAdapter(tp).json_schema()


def test_unique_items_is_checked_and_said() -> None:
    tags = pydantic.TypeAdapter(Annotated[list[int], unique_items])
    assert tags.validate_python([1, 2]) == [1, 2]
    with pytest.raises(pydantic.ValidationError, match="unique"):
        tags.validate_python([1, 1])
    assert tags.json_schema() == {
        "items": {"type": "integer"},
        "type": "array",
        "uniqueItems": True,
    }


def test_unique_items_compares_json_values() -> None:
    items = pydantic.TypeAdapter(Annotated[list[Any], unique_items])
    assert items.validate_python([1, True]) == [1, True]  # 1 is not true in JSON
    with pytest.raises(pydantic.ValidationError):
        items.validate_python([{"a": 1, "b": 2}, {"b": 2, "a": 1}])


def test_one_of_values_are_checked_and_said() -> None:
    rate = Annotated[float, one_of(0.5, 1.5)]
    assert pydantic.TypeAdapter(rate).validate_python(1.5) == 1.5
    with pytest.raises(pydantic.ValidationError, match=r"must be one of 0\.5, 1\.5"):
        pydantic.TypeAdapter(rate).validate_python(2.0)
    assert _schema(rate) == {"enum": [0.5, 1.5], "type": "number"}
    assert _schema(Annotated[Any, one_of([1, 2])]) == {"const": [1, 2]}


def test_one_of_nothing_admits_no_value() -> None:
    never = Annotated[Any, one_of()]
    with pytest.raises(pydantic.ValidationError, match="no value is allowed"):
        pydantic.TypeAdapter(never).validate_python(None)
    assert _schema(never) == {"not": {}}


def test_text_rules_are_checked_on_the_text_and_said() -> None:
    when = Annotated[datetime.date, text(max_length=10, pattern=r"^\d{4}-")]
    adapter = pydantic.TypeAdapter(when)
    assert adapter.validate_python("2026-11-27") == datetime.date(2026, 11, 27)
    with pytest.raises(pydantic.ValidationError, match="at most 10"):
        adapter.validate_python("2026-11-27 ")
    assert _schema(when) == {
        "format": "date",
        "maxLength": 10,
        "pattern": r"^\d{4}-",
        "type": "string",
    }


def test_a_rule_on_a_referenced_model_is_said_beside_the_reference() -> None:
    class Pet(pydantic.BaseModel):
        name: str

    class Owner(pydantic.BaseModel):
        pets: Annotated[list[Pet], unique_items]
        best: Annotated[Pet, one_of({"name": "Rex"})]

    schema = Owner.model_json_schema()
    assert schema["properties"]["pets"]["uniqueItems"] is True
    assert schema["properties"]["best"] == {"$ref": "#/$defs/Pet", "const": {"name": "Rex"}}
    assert schema["$defs"]["Pet"] == pydantic.TypeAdapter(Pet).json_schema()  # not touched
