"""Kernel: plugins, lookup, invocation with validation and hydration, filters."""

from __future__ import annotations

import asyncio
import datetime as dt
import re
import types
from typing import Annotated, Any

import pytest
from pydantic import BaseModel

from examples.date_weather import DateResponse, WeatherForecast
from sktypes import kernel_function
from sktypes.content import FunctionCallContent, FunctionResult, FunctionResultContent
from sktypes.errors import ArgumentsError, HydrationError, KernelError
from sktypes.kernel import (
    FunctionInvocationContext,
    Kernel,
    KernelFunction,
    KernelPlugin,
    NextFilter,
)
from sktypes.views import FunctionView, ParameterView, ReturnParameterView
from tests.content_util import date_weather_kernel


def run(coro: Any) -> Any:
    return asyncio.run(coro)


class Order(BaseModel):
    sku: str
    qty: int


class Shop:
    """Sells things."""

    def __init__(self) -> None:
        self.seen: list[Any] = []

    @kernel_function
    async def place(self, order: Order, when: dt.date | None = None) -> dict[str, Any]:
        """Place an order."""
        self.seen.append((order, when))
        return {"sku": order.sku, "total": order.qty * 2}

    @kernel_function(name="fail")
    def explode(self, why: str) -> str:
        raise RuntimeError(why)


def test_add_plugin_names_it_after_the_class_and_keeps_the_docstring() -> None:
    kernel = Kernel()
    plugin = kernel.add_plugin(Shop())
    assert plugin.name == "Shop"
    assert plugin.description == "Sells things."
    assert list(plugin) == ["place", "fail"]
    assert kernel.plugins["Shop"] is plugin
    assert kernel.add_plugin(Shop(), "Other").name == "Other"
    assert [v.fully_qualified_name for v in kernel.views] == [
        "Shop.place",
        "Shop.fail",
        "Other.place",
        "Other.fail",
    ]


def test_adding_a_plugin_name_twice_is_an_error() -> None:
    kernel = Kernel()
    kernel.add_plugin(Shop())
    with pytest.raises(KernelError, match="already added"):
        kernel.add_plugin(Shop())


def test_get_function_by_qualified_or_bare_name_and_suggests_close_names() -> None:
    kernel = date_weather_kernel()
    fn = kernel.get_function("DatePluginSimpleComplex.GetDate1")
    assert fn.fully_qualified_name == "DatePluginSimpleComplex.GetDate1"
    assert kernel.get_function("GetDate1") is fn
    assert kernel.get_function("GetDate1", "DatePluginSimpleComplex") is fn
    with pytest.raises(
        KernelError,
        match=re.escape(
            "no function named 'DatePluginSimpleComplex.GetDate2'"
            " (did you mean 'DatePluginSimpleComplex.GetDate1'?)"
        ),
    ):
        kernel.get_function("DatePluginSimpleComplex.GetDate2")


def test_a_bare_name_shared_by_two_plugins_is_ambiguous() -> None:
    kernel = Kernel()
    kernel.add_plugin(Shop(), "A")
    kernel.add_plugin(Shop(), "B")
    with pytest.raises(KernelError, match="ambiguous"):
        kernel.get_function("place")


def test_invoke_hydrates_json_arguments_into_native_types_and_awaits_async() -> None:
    kernel = Kernel()
    shop = Shop()
    kernel.add_plugin(shop)
    result = run(
        kernel.invoke("Shop.place", {"order": {"sku": "a", "qty": 2}, "when": "2024-05-01"})
    )
    assert isinstance(result, FunctionResult)
    assert result.value == {"sku": "a", "total": 4}
    assert result.function is not None
    assert result.function.fully_qualified_name == "Shop.place"
    assert shop.seen == [(Order(sku="a", qty=2), dt.date(2024, 5, 1))]


def test_invoke_accepts_native_values_and_keyword_arguments() -> None:
    kernel = Kernel()
    shop = Shop()
    kernel.add_plugin(shop)
    run(kernel.invoke("Shop.place", order=Order(sku="b", qty=1)))
    assert shop.seen == [(Order(sku="b", qty=1), None)]


def test_invoke_reports_every_invalid_argument_at_once() -> None:
    kernel = Kernel()
    kernel.add_plugin(Shop())
    with pytest.raises(ArgumentsError) as info:
        run(kernel.invoke("Shop.place", {"order": {"sku": 1}, "extra": True}))
    paths = sorted(e.path for e in info.value.errors)
    assert "$.order" in paths or "$.order.sku" in paths
    assert len(info.value.errors) >= 2


def test_invoke_with_an_unknown_function_is_a_kernel_error() -> None:
    with pytest.raises(KernelError, match=re.escape("no function named 'Nope.f'")):
        run(Kernel().invoke("Nope.f", {}))


def test_the_adr_date_weather_chain_returns_typed_values() -> None:
    kernel = date_weather_kernel()
    date = run(kernel.invoke("DatePluginSimpleComplex.GetDate1", {"numDays": 2}))
    assert date.value == DateResponse(date="2024-01-03")
    forecast = run(
        kernel.invoke("WeatherPluginSimpleComplex.GetWeatherForecast1", {"date": date.value.date})
    )
    assert isinstance(forecast.value, WeatherForecast)


def test_add_function_with_and_without_plugin() -> None:
    kernel = Kernel()

    def add(a: int, b: int) -> int:
        """Add two numbers."""
        return a + b

    fn = kernel.add_function(add, "Math")
    assert fn.fully_qualified_name == "Math.add"
    assert run(kernel.invoke("Math.add", {"a": 1, "b": 2})).value == 3
    kernel.add_function(lambda text: text.upper())
    assert run(kernel.invoke("<lambda>", {"text": "x"})).value == "X"


def test_module_plugins_are_supported() -> None:
    module = types.ModuleType("generated_tools")

    @kernel_function
    def echo(text: Annotated[str, "what to echo"]) -> str:
        return text

    module.echo = echo  # type: ignore[attr-defined]
    kernel = Kernel()
    kernel.add_plugin(module)
    assert run(kernel.invoke("generated_tools.echo", {"text": "hi"})).value == "hi"


def test_views_without_an_implementation_refuse_to_run() -> None:
    view = FunctionView(
        name="remote", plugin_name="R", parameters=(ParameterView("x", schema={"type": "integer"}),)
    )
    kernel = Kernel([KernelPlugin("R", [KernelFunction.from_view(view)])])
    with pytest.raises(KernelError, match="no implementation"):
        run(kernel.invoke("R.remote", {"x": 1}))


def test_hand_built_views_and_invokers_work_without_native_types() -> None:
    view = FunctionView(
        name="twice",
        plugin_name="M",
        parameters=(
            ParameterView(name="x", schema={"type": "integer"}, is_required=True, native_type=int),
        ),
        return_parameter=ReturnParameterView(schema={"type": "integer"}),
    )
    fn = KernelFunction(view, lambda args: args["x"] * 2)
    kernel = Kernel()
    kernel.add_function(fn)
    assert run(kernel.invoke(view, {"x": 4})).value == 8


def test_filters_run_in_order_and_can_change_arguments_and_result() -> None:
    kernel = date_weather_kernel()
    calls: list[str] = []

    @kernel.add_filter
    async def outer(context: FunctionInvocationContext, next: NextFilter) -> None:
        calls.append("outer-before")
        await next(context)
        calls.append("outer-after")
        assert context.result is not None
        context.result = FunctionResult(
            value=context.result.value.date, function=context.function.view
        )

    @kernel.add_filter
    async def inner(context: FunctionInvocationContext, next: NextFilter) -> None:
        calls.append("inner-before")
        context.arguments["numDays"] = 10
        await next(context)
        calls.append("inner-after")

    result = run(kernel.invoke("DatePluginSimpleComplex.GetDate1", {"numDays": 1}))
    assert result.value == "2024-01-11"
    assert calls == ["outer-before", "inner-before", "inner-after", "outer-after"]


def test_a_filter_can_short_circuit_with_its_own_result() -> None:
    async def cache(context: FunctionInvocationContext, next: NextFilter) -> None:
        context.result = FunctionResult(value="cached", function=context.function.view)

    kernel = Kernel(filters=[cache])
    kernel.add_plugin(Shop())
    assert run(kernel.invoke("Shop.fail", {"why": "x"})).value == "cached"


def test_a_filter_that_sets_no_result_is_an_error() -> None:
    async def swallow(context: FunctionInvocationContext, next: NextFilter) -> None:
        return None

    kernel = Kernel(filters=[swallow])
    kernel.add_plugin(Shop())
    with pytest.raises(KernelError, match="without a result"):
        run(kernel.invoke("Shop.fail", {"why": "x"}))


def test_call_invoke_turns_failures_into_error_results_the_model_can_read() -> None:
    kernel = Kernel()
    kernel.add_plugin(Shop())
    cases = {
        "unknown": FunctionCallContent("1", "Shop", "nope", {}),
        "bad json": FunctionCallContent("2", "Shop", "place", '{"order": '),
        "invalid": FunctionCallContent(
            "3", "Shop", "place", {"order": {"sku": "a", "qty": "many"}}
        ),
        "raises": FunctionCallContent("4", "Shop", "fail", {"why": "out of stock"}),
    }
    results = {k: run(c.invoke(kernel)) for k, c in cases.items()}
    assert all(isinstance(r, FunctionResultContent) and r.is_error for r in results.values())
    assert "no function named 'Shop.nope'" in results["unknown"].result
    assert "not valid JSON" in results["bad json"].result
    assert "$.order.qty" in results["invalid"].result
    assert results["raises"].result == "Error: Shop.fail failed: RuntimeError: out of stock"
    assert isinstance(results["raises"].inner_content, RuntimeError)
    assert [r.id for r in results.values()] == ["1", "2", "3", "4"]


def test_call_invoke_returns_the_native_value_and_keeps_the_function_result() -> None:
    kernel = date_weather_kernel()
    call = FunctionCallContent("c", "DatePluginSimpleComplex", "GetDate1", '{"numDays": -1}')
    result = run(call.invoke(kernel))
    assert result.result == DateResponse(date="2023-12-31")
    assert isinstance(result.inner_content, FunctionResult)
    assert not result.is_error


def test_hydration_errors_list_every_argument() -> None:
    def f(a: dt.date, b: dt.date) -> None:
        return None

    view = FunctionView(
        name="f",
        parameters=(
            ParameterView("a", schema={"type": "string"}, native_type=dt.date),
            ParameterView("b", schema={"type": "string"}, native_type=dt.date),
        ),
        native_function=f,
    )
    kernel = Kernel()
    kernel.add_function(view)
    with pytest.raises(HydrationError) as info:
        run(kernel.invoke("f", {"a": "nope", "b": "never"}))
    assert [e.path for e in info.value.errors] == ["$.a", "$.b"]


def test_call_invoke_repairs_sloppy_argument_json_from_the_model() -> None:
    kernel = date_weather_kernel()
    sloppy = "Sure! ```json\n{'numDays': 2,}\n```"
    call = FunctionCallContent("c", "DatePluginSimpleComplex", "GetDate1", sloppy)
    assert call.parse_arguments() == {"numDays": 2}
    result = run(call.invoke(kernel))
    assert not result.is_error
    assert result.result == DateResponse(date="2024-01-03")
    assert call.arguments == sloppy  # the history keeps what the model sent


def test_a_plugin_class_with_instance_methods_is_instantiated_or_refused() -> None:
    import asyncio

    from sktypes import kernel_function
    from sktypes.errors import KernelError
    from sktypes.kernel import Kernel

    class Counter:
        def __init__(self) -> None:
            self.base = 10

        @kernel_function
        def add(self, n: int) -> int:
            return self.base + n

    class Needy:
        def __init__(self, token: str) -> None:
            self.token = token

        @kernel_function
        def who(self) -> str:
            return self.token

    kernel = Kernel()
    kernel.add_plugin(Counter)
    assert asyncio.run(kernel.invoke("Counter.add", {"n": 5})).value == 15
    with pytest.raises(KernelError, match=r"Needy has instance methods.*pass an instance"):
        kernel.add_plugin(Needy)


def scale(text: str, times: int = 2, factor: float = 1.5, loud: bool = False) -> str:
    """Repeat the text."""
    return f"{text * times}|{factor!r}|{loud}"


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({"text": "a"}, "aa|1.5|False"),  # defaults applied
        ({"text": "a", "times": 3, "factor": 2.0, "loud": True}, "aaa|2.0|True"),
        ({"text": "a", "factor": 2}, "aa|2.0|False"),  # an int for a float: pydantic converts
        ({"text": "a", "times": 3.0}, "aaa|1.5|False"),  # a whole float for an int
    ],
)
def test_plain_arguments_hydrate_alike_with_and_without_filters(
    arguments: dict[str, Any], expected: str
) -> None:
    """Exactly-typed scalars skip pydantic and filter-less kernels skip the chain: same results."""

    async def passthrough(context: FunctionInvocationContext, next: Any) -> None:
        await next(context)

    plain, filtered = Kernel(), Kernel()
    filtered.filters.append(passthrough)
    for kernel in (plain, filtered):
        kernel.add_function(scale, "Text")
    results = [asyncio.run(k.invoke("Text.scale", arguments)) for k in (plain, filtered)]
    assert [r.value for r in results] == [expected, expected]
    assert results[0] == results[1]


@pytest.mark.parametrize(
    ("strict", "paths"),
    [(False, ["$.text", "$.extra"]), (True, ["$.text", "$.times", "$.extra"])],
)
def test_invalid_plain_arguments_fail_alike_with_and_without_filters(
    strict: bool, paths: list[str]
) -> None:
    """``"2"`` for an ``int`` is a lax coercion (as in ``hydrate``); strict mode refuses it."""

    async def passthrough(context: FunctionInvocationContext, next: Any) -> None:
        await next(context)

    plain, filtered = Kernel(strict=strict), Kernel(strict=strict)
    filtered.filters.append(passthrough)
    messages = []
    for kernel in (plain, filtered):
        kernel.add_function(scale, "Text")
        with pytest.raises(ArgumentsError) as info:
            asyncio.run(kernel.invoke("Text.scale", {"text": 1, "times": "2", "extra": True}))
        messages.append([(d.path, d.message) for d in info.value.errors])
    assert messages[0] == messages[1]
    assert [path for path, _ in messages[0]] == paths
