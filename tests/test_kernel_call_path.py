"""The kernel's one call path: the view's argument contract decides, lax like ``hydrate``.

``KernelFunction.prepare`` (what ``Kernel.invoke`` runs, with or without filters, and what
templates reach through ``Kernel.invoke``) is ``hydrate(view, arguments, repair=False)``:
the same values, the same coercions, the same refusals — or none of the coercions with
``strict=True``, on the kernel or per call. Views whose schemas say more than their
native types are checked against the schema too; JSON-only functions against the schema
only (with the schema's numeric/boolean coercions).
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import enum
import functools
import re
import types
import uuid
from typing import Annotated, Any, Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel, Field

from sktypes import function_view, hydrate, kernel_function
from sktypes.errors import ArgumentsError, HydrationError, SktypesError
from sktypes.hydration import argument_contract
from sktypes.jsondoc import JsonDocument
from sktypes.kernel import FunctionInvocationContext, Kernel, KernelFunction, NextFilter
from sktypes.views import FunctionView, ParameterView


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Item(BaseModel):
    sku: str
    qty: int = 1


def scalars(a: int, b: float = 1.5, c: bool = False, d: str = "x", e: str | None = None) -> str:
    """Every plain kind, some with defaults."""
    return f"{a}{b}{c}{d}{e}"


def rich(
    when: dt.date,
    at: dt.time | None = None,
    key: uuid.UUID | None = None,
    color: Color = Color.RED,
    items: list[Item] | None = None,
    mode: Literal["fast", "slow"] = "fast",
) -> str:
    """Dates, times, UUIDs, enums, models, literals."""
    return "ok"


def constrained(a: Annotated[str, Field(max_length=3)], n: Annotated[int, Field(ge=0)] = 2) -> str:
    """Constraints live in the native types (Annotated): pydantic checks them."""
    return a * n


def with_minimum() -> KernelFunction:
    """A view whose schema says more than its native types (``minimum`` on an ``int``)."""
    view = function_view(scalars)
    first = dataclasses.replace(
        view.parameters[0], schema=JsonDocument({"type": "integer", "minimum": 0})
    )
    return KernelFunction.from_view(
        dataclasses.replace(view, parameters=(first, *view.parameters[1:]))
    )


FUNCTIONS = {
    "scalars": KernelFunction.from_callable(scalars),
    "rich": KernelFunction.from_callable(rich),
    "constrained": KernelFunction.from_callable(constrained),
}


def outcome(run: Any) -> Any:
    """The prepared arguments with each value's type, or that it failed."""
    try:
        ready = run()
    except SktypesError:
        return "refused"
    return {k: (type(v), v) for k, v in ready.items()}


json_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.sampled_from(["2", "-3", "1.5", "true", "no", "red", "RED", "fast", "x", "", "10:30"]),
    st.sampled_from(["2024-05-01", "2024-05-01T10:00:00Z", "6f1d1c34-6a4c-4c3b-9d7e-2a1c3f9b8e11"]),
    st.lists(st.fixed_dictionaries({"sku": st.sampled_from(["a", "b"])}), max_size=2),
    st.lists(st.integers(), max_size=2),
)
argument_dicts = st.dictionaries(
    st.sampled_from(["a", "b", "c", "d", "e", "n", "when", "at", "key", "color", "items", "mode"]),
    json_values,
)


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
@pytest.mark.parametrize("strict", [False, True])
@given(arguments=argument_dicts)
def test_invoke_accepts_exactly_what_hydrate_accepts(
    name: str, strict: bool, arguments: dict[str, Any]
) -> None:
    fn = FUNCTIONS[name]
    ours = outcome(lambda: fn.prepare(dict(arguments), strict=strict))
    theirs = outcome(lambda: hydrate(fn.view, dict(arguments), repair=False, strict=strict))
    assert ours == theirs


@given(arguments=argument_dicts)
def test_a_mapping_that_is_not_a_dict_prepares_alike(arguments: dict[str, Any]) -> None:
    fn = FUNCTIONS["scalars"]
    direct = outcome(lambda: fn.prepare(dict(arguments)))
    assert outcome(lambda: fn.prepare(types.MappingProxyType(arguments))) == direct


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({"a": "2"}, {"a": 2}),  # a numeric string for an int
        ({"a": 2, "b": "2.5", "c": "true"}, {"b": 2.5, "c": True}),
        ({"a": 1, "b": 2}, {"b": 2.0}),  # an int for a float
    ],
)
def test_lax_coercions_are_hydrates(arguments: dict[str, Any], expected: dict[str, Any]) -> None:
    ready = FUNCTIONS["scalars"].prepare(arguments)
    assert {k: ready[k] for k in expected} == expected
    assert all(type(ready[k]) is type(v) for k, v in expected.items())


def test_dates_times_uuids_and_enums_by_value_or_name() -> None:
    ready = FUNCTIONS["rich"].prepare(
        {
            "when": "2024-05-01",
            "at": "10:30",
            "key": "6f1d1c34-6a4c-4c3b-9d7e-2a1c3f9b8e11",
            "color": "blue",
            "items": [{"sku": "a"}],
        },
    )
    assert ready["when"] == dt.date(2024, 5, 1)
    assert ready["at"] == dt.time(10, 30)
    assert ready["key"] == uuid.UUID("6f1d1c34-6a4c-4c3b-9d7e-2a1c3f9b8e11")
    assert ready["color"] is Color.BLUE
    assert ready["items"] == [Item(sku="a")]
    assert (
        FUNCTIONS["rich"].prepare({"when": "2024-05-01", "color": "RED"})["color"] is Color.RED
    )  # hydrate's documented fallback: the member's name


def test_the_issue_case_days_as_a_string() -> None:
    def forecast(days: int) -> int:
        """Days ahead."""
        return days

    kernel = Kernel()
    kernel.add_function(forecast, "Weather")
    assert asyncio.run(kernel.invoke("Weather.forecast", {"days": "2"})).value == 2
    with pytest.raises(ArgumentsError) as info:
        asyncio.run(kernel.invoke("Weather.forecast", {"days": "2"}, strict=True))
    assert [e.path for e in info.value.errors] == ["$.days"]
    strict = Kernel(strict=True)
    strict.add_function(forecast, "Weather")
    with pytest.raises(ArgumentsError):
        asyncio.run(strict.invoke("Weather.forecast", {"days": "2"}))
    assert asyncio.run(strict.invoke("Weather.forecast", {"days": "2"}, strict=False)).value == 2


def test_strictness_reaches_the_end_of_the_filter_chain() -> None:
    seen: list[bool] = []

    async def spy(context: FunctionInvocationContext, next: NextFilter) -> None:
        seen.append(context.strict)
        await next(context)

    kernel = Kernel(filters=[spy])
    kernel.add_function(scalars, "p")
    assert asyncio.run(kernel.invoke("p.scalars", {"a": "3"})).value == "31.5FalsexNone"
    with pytest.raises(ArgumentsError):
        asyncio.run(kernel.invoke("p.scalars", {"a": "3"}, strict=True))
    assert seen == [False, True]


def test_a_schema_that_says_more_than_the_native_types_is_checked_too() -> None:
    fn = with_minimum()
    assert fn.prepare({"a": 3})["a"] == 3
    assert fn.prepare({"a": "3"})["a"] == 3  # the schema's own lax coercion
    with pytest.raises(ArgumentsError, match="minimum"):
        fn.prepare({"a": -1})
    with pytest.raises(ArgumentsError, match="minimum"):
        fn.prepare({"a": "-1"})
    with pytest.raises(ArgumentsError):
        fn.prepare({"a": "3"}, strict=True)


class _Counter:
    def __call__(self, x: int) -> int:
        """A callable object (its view is not cached by function)."""
        return x


@pytest.mark.parametrize(
    ("make", "arguments"),
    [
        (lambda: kernel_function(scalars), {"a": "3"}),
        (lambda: functools.partial(scalars, d="y"), {"a": "3"}),
        (_Counter, {"x": "3"}),
    ],
    ids=["function", "partial", "callable-object"],
)
def test_the_first_call_reuses_the_view_built_at_registration(
    make: Any, arguments: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Deciding whether hydration checks everything introspects nothing a second time."""
    import sktypes.introspect as introspect

    builds: list[Any] = []
    real = introspect._build
    monkeypatch.setattr(introspect, "_build", lambda *a: builds.append(a) or real(*a))
    kernel = Kernel()
    kernel.add_function(make(), "Tools")
    assert len(builds) == 1
    fn = kernel.functions[0]
    assert asyncio.run(kernel.invoke(fn, arguments)).value is not None
    assert len(builds) == 1
    assert argument_contract(fn.view) is argument_contract(fn.view)  # kept with the view
    assert argument_contract(fn.view).schema_decides == frozenset()  # the natives say it all
    assert argument_contract(with_minimum().view).schema_decides == {"a"}


def test_json_only_functions_get_coerced_json_values() -> None:
    view = FunctionView(
        name="get",
        plugin_name="Api",
        parameters=(
            ParameterView("id", schema={"type": "integer", "minimum": 1}, is_required=True),
            ParameterView("flag", schema={"type": "boolean"}, is_required=False),
        ),
    )
    fn = KernelFunction(view, lambda arguments: arguments, hydrate=False)
    assert fn.prepare({"id": "7", "flag": "false"}) == {"id": 7, "flag": False}
    with pytest.raises(ArgumentsError, match="minimum"):
        fn.prepare({"id": "0"})
    with pytest.raises(ArgumentsError, match="is not of type 'integer'"):
        fn.prepare({"id": "7"}, strict=True)
    kernel = Kernel()
    kernel.add_function(fn)
    assert asyncio.run(kernel.invoke("Api.get", {"id": "7"})).value == {"id": 7}


def test_schema_and_native_refusals_are_one_arguments_error() -> None:
    fn = FUNCTIONS["rich"]
    with pytest.raises(ArgumentsError) as info:
        fn.prepare({"when": "2024-05-01", "mode": "medium", "extra": 1})
    assert [e.path for e in info.value.errors] == ["$.mode", "$.extra"]
    date_as_text = FunctionView(
        name="f",
        parameters=(ParameterView("a", schema={"type": "string"}, native_type=dt.date),),
        native_function=lambda a: a,
    )
    with pytest.raises(ArgumentsError, match=re.escape("invalid arguments for f")) as info:
        KernelFunction.from_view(date_as_text).prepare({"a": "nope"})
    assert isinstance(info.value, HydrationError)  # what hydrate(view) raises, as before
    assert [e.path for e in info.value.errors] == ["$.a"]
    assert "valid date" in info.value.errors[0].message  # the native type's terms


def test_defaults_are_filled_in_and_mutable_defaults_copied() -> None:
    def tags(names: list[str] = ["a"]) -> list[str]:  # noqa: B006 - the point of the test
        """A mutable default."""
        return names

    fn = KernelFunction.from_callable(tags)
    first = fn.prepare({})
    assert first == {"names": ["a"]}
    first["names"].append("b")
    assert fn.prepare({}) == {"names": ["a"]}


def test_find_function_answers_as_get_function_without_raising() -> None:
    kernel = Kernel()
    kernel.add_function(scalars, "a")
    kernel.add_function(scalars, "b")
    kernel.add_function(constrained, "a")
    assert kernel.find_function("a.scalars") is kernel.get_function("a.scalars")
    assert kernel.find_function("constrained") is kernel.get_function("constrained")
    assert kernel.find_function("scalars", "b") is kernel.get_function("scalars", "b")
    assert kernel.find_function("scalars") is None  # ambiguous: get_function explains
    with pytest.raises(
        SktypesError, match=re.escape("ambiguous: one of ['a.scalars', 'b.scalars']")
    ):
        kernel.get_function("scalars")
    assert kernel.find_function("a.nope") is None
    with pytest.raises(SktypesError, match=re.escape("no function named 'a.nope'")):
        kernel.get_function("a.nope")
