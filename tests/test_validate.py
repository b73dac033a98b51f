"""validate_arguments: every violation, with its JSON path."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

import pytest
from pydantic import Field

from sktypes import ArgumentsError, function_view, validate_arguments
from tests.typefamilies import Item


def book(
    when: dt.date,
    guests: Annotated[int, Field(ge=1, le=8)],
    kind: Literal["table", "bar"] = "table",
    items: list[Item] | None = None,
) -> None:
    """Book a table."""


VIEW = function_view(book)


@pytest.mark.parametrize(
    "args",
    [
        {"when": "2024-05-01", "guests": 2},
        {"when": "2024-05-01", "guests": 8, "kind": "bar", "items": None},
        {"when": "2024-05-01", "guests": 1, "items": [{"sku": "a", "qty": 3}]},
    ],
)
def test_valid_calls_pass(args: dict[str, Any]) -> None:
    validate_arguments(VIEW, args)


@pytest.mark.parametrize(
    ("args", "path"),
    [
        ({"guests": 2}, "$.when"),
        ({"when": "May 1st", "guests": 2}, "$.when"),
        ({"when": "2024-05-01", "guests": 0}, "$.guests"),
        ({"when": "2024-05-01", "guests": 2, "kind": "sofa"}, "$.kind"),
        ({"when": "2024-05-01", "guests": 2, "extra": 1}, "$.extra"),
        ({"when": "2024-05-01", "guests": 2, "items": [{"sku": "", "qty": 1}]}, "$.items[0].sku"),
    ],
)
def test_invalid_calls_name_the_path(args: dict[str, Any], path: str) -> None:
    with pytest.raises(ArgumentsError) as info:
        validate_arguments(VIEW, args)
    assert path in [e.path for e in info.value.errors]


def test_every_problem_is_reported_at_once() -> None:
    with pytest.raises(ArgumentsError) as info:
        validate_arguments(VIEW, {"guests": 99, "kind": 3, "zzz": True})
    by_path = {e.path: e.message for e in info.value.errors}
    assert list(by_path) == ["$.when", "$.guests", "$.kind", "$.zzz"]  # parameters, then unknown
    assert by_path["$.when"] == "required argument missing"
    assert by_path["$.zzz"] == "unknown argument (known: guests, items, kind, when)"
    assert str(info.value).startswith("invalid arguments for book")


def test_arguments_must_be_an_object() -> None:
    with pytest.raises(ArgumentsError, match="must be a JSON object"):
        validate_arguments(VIEW, [1, 2])  # type: ignore[arg-type]


def test_naive_times_are_accepted_like_the_hydrator_does() -> None:
    def alarm(at: dt.time, when: dt.datetime) -> None: ...

    view = function_view(alarm)
    validate_arguments(view, {"at": "07:30:00", "when": "2024-05-01T18:00:00"})
    validate_arguments(view, {"at": "07:30:00+02:00", "when": "2024-05-01T18:00:00Z"})
    with pytest.raises(ArgumentsError) as info:
        validate_arguments(view, {"at": "7 am", "when": "tomorrow"})
    assert [e.path for e in info.value.errors] == ["$.at", "$.when"]


def test_references_do_not_keep_arguments_from_the_compiled_check() -> None:
    from sktypes.hydration import SchemaCheck

    def order(items: list[Item], gift: Item | None = None) -> None: ...

    view = function_view(order)
    assert "$defs" in view.parameters_schema
    check = SchemaCheck(view.parameters_schema).quick
    assert check is not None
    assert check({"items": [{"sku": "a", "qty": 1}]})
    assert not check({"items": [{"sku": "", "qty": 1}]})


def test_lax_coercions_are_accepted_unless_strict() -> None:
    validate_arguments(VIEW, {"when": "2024-05-01", "guests": "2"})
    with pytest.raises(ArgumentsError) as info:
        validate_arguments(VIEW, {"when": "2024-05-01", "guests": "2"}, strict=True)
    assert [e.path for e in info.value.errors] == ["$.guests"]


def test_native_types_decide_too() -> None:
    """What the function's native types refuse is refused here as at a call."""
    import sktypes as sk

    def on(day: dt.date) -> None: ...

    view = sk.FunctionView(
        name="on",
        parameters=(sk.ParameterView("day", schema={"type": "string"}, native_type=dt.date),),
        native_function=on,
    )
    with pytest.raises(ArgumentsError) as info:
        validate_arguments(view, {"day": "someday"})
    assert [e.path for e in info.value.errors] == ["$.day"]
