"""run_plan on a fake kernel: order, concurrency, values passed, failures that keep results."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from examples.date_weather import DatePluginSimpleComplex, WeatherPluginSimpleComplex
from sktypes.kernel import Kernel
from sktypes.plan import Plan, PlanRunError, check_plan, run_plan

TODAY = dt.date(2024, 2, 28)

ADR_PLAN: dict[str, Any] = {
    "steps": [
        {"id": "d", "function": "DatePluginSimpleComplex.GetDate1", "arguments": {"numDays": 1}},
        {
            "id": "w",
            "function": "WeatherPluginSimpleComplex.GetWeatherForecast1",
            "arguments": {"date": {"$from": "d", "path": "$.date"}},
        },
    ],
    "output": {"$from": "w", "path": "$.degreesFahrenheit"},
}


@dataclass
class Result:
    value: Any


class FakeKernel:
    """Calls plain functions by name and records the calls."""

    def __init__(self, functions: dict[str, Callable[..., Any]]) -> None:
        self.functions = functions
        self.calls: list[tuple[str, dict[str, Any]]] = []

    async def invoke(self, function: str, arguments: dict[str, Any], /) -> Result:
        self.calls.append((function, arguments))
        out = self.functions[function](**arguments)
        if asyncio.iscoroutine(out):
            out = await out
        return Result(out)


def adr_kernel() -> FakeKernel:
    date, weather = DatePluginSimpleComplex(today=TODAY), WeatherPluginSimpleComplex()
    return FakeKernel(
        {
            "DatePluginSimpleComplex.GetDate1": date.GetDate1,
            "WeatherPluginSimpleComplex.GetWeatherForecast1": weather.GetWeatherForecast1,
        }
    )


def test_adr_plan_runs_and_returns_the_selected_output() -> None:
    kernel = adr_kernel()
    value = asyncio.run(run_plan(Plan.model_validate(ADR_PLAN), kernel))
    expected = WeatherPluginSimpleComplex().GetWeatherForecast1("2024-02-29").degreesFahrenheit
    assert value == expected
    assert kernel.calls == [
        ("DatePluginSimpleComplex.GetDate1", {"numDays": 1}),
        ("WeatherPluginSimpleComplex.GetWeatherForecast1", {"date": "2024-02-29"}),
    ]


def test_whole_output_is_the_native_value_of_the_last_step() -> None:
    plan = Plan.model_validate({"steps": ADR_PLAN["steps"]})
    value = asyncio.run(run_plan(plan, adr_kernel()))
    assert type(value).__name__ == "WeatherForecast"


def test_steps_run_in_dependency_order_whatever_their_order_in_the_plan() -> None:
    plan = Plan.model_validate(
        {"steps": list(reversed(ADR_PLAN["steps"])), "output": ADR_PLAN["output"]}
    )
    kernel = adr_kernel()
    asyncio.run(run_plan(plan, kernel))
    assert kernel.calls[0][0] == "DatePluginSimpleComplex.GetDate1"


def test_independent_steps_run_concurrently() -> None:
    started: dict[str, asyncio.Event] = {}

    async def wait_for_other(me: str, other: str) -> str:
        started.setdefault(me, asyncio.Event()).set()
        await asyncio.wait_for(started.setdefault(other, asyncio.Event()).wait(), timeout=2)
        return me

    kernel = FakeKernel({"P.f": wait_for_other, "P.join": lambda a, b: [a, b]})
    plan = Plan.model_validate(
        {
            "steps": [
                {"id": "a", "function": "P.f", "arguments": {"me": "a", "other": "b"}},
                {"id": "b", "function": "P.f", "arguments": {"me": "b", "other": "a"}},
                {
                    "id": "j",
                    "function": "P.join",
                    "arguments": {"a": {"$from": "a"}, "b": {"$from": "b"}},
                },
            ]
        }
    )
    assert asyncio.run(run_plan(plan, kernel)) == ["a", "b"]


def test_failure_names_the_step_and_keeps_earlier_results() -> None:
    def broken(date: str) -> None:
        raise RuntimeError("service down")

    kernel = adr_kernel()
    kernel.functions["WeatherPluginSimpleComplex.GetWeatherForecast1"] = broken
    with pytest.raises(PlanRunError) as info:
        asyncio.run(run_plan(Plan.model_validate(ADR_PLAN), kernel))
    err = info.value
    assert err.step == "w"
    assert str(err) == (
        "step 'w': WeatherPluginSimpleComplex.GetWeatherForecast1 failed: "
        "RuntimeError: service down"
    )
    assert err.results["d"].date == "2024-02-29"
    assert isinstance(err.__cause__, RuntimeError)


def test_missing_member_at_run_time_names_the_consuming_step() -> None:
    kernel = FakeKernel({"P.src": lambda: {"other": 1}, "P.dst": lambda x: x})
    plan = Plan.model_validate(
        {
            "steps": [
                {"id": "a", "function": "P.src"},
                {
                    "id": "b",
                    "function": "P.dst",
                    "arguments": {"x": {"$from": "a", "path": "$.date"}},
                },
            ]
        }
    )
    with pytest.raises(PlanRunError, match=r"^step 'b': P\.dst failed: argument 'x'") as info:
        asyncio.run(run_plan(plan, kernel))
    assert info.value.results == {"a": {"other": 1}}


def test_missing_output_member_keeps_all_results() -> None:
    kernel = FakeKernel({"P.src": lambda: {"other": 1}})
    plan = Plan.model_validate(
        {"steps": [{"id": "a", "function": "P.src"}], "output": {"$from": "a", "path": "$.x"}}
    )
    with pytest.raises(PlanRunError, match="the plan's output") as info:
        asyncio.run(run_plan(plan, kernel))
    assert info.value.step is None
    assert info.value.results == {"a": {"other": 1}}


@pytest.mark.parametrize(
    ("steps", "message"),
    [
        (
            [{"id": "a", "function": "P.f", "arguments": {"x": {"$from": "zz"}}}],
            "refers to no earlier step",
        ),
        (
            [
                {"id": "a", "function": "P.f", "arguments": {"x": {"$from": "b"}}},
                {"id": "b", "function": "P.f", "arguments": {"x": {"$from": "a"}}},
            ],
            "steps depend on each other: a -> b -> a",
        ),
    ],
)
def test_plans_that_cannot_be_ordered_are_refused_before_any_call(steps: Any, message: str) -> None:
    kernel = FakeKernel({"P.f": lambda x: x})
    with pytest.raises(PlanRunError, match=message):
        asyncio.run(run_plan(Plan.model_validate({"steps": steps}), kernel))
    assert kernel.calls == []


def test_adr_plan_runs_on_the_real_kernel_with_hydrated_values() -> None:
    kernel = Kernel()
    kernel.add_plugin(DatePluginSimpleComplex(today=TODAY))
    kernel.add_plugin(WeatherPluginSimpleComplex())
    plan = Plan.model_validate(ADR_PLAN)
    assert check_plan(plan, kernel.views) == []
    expected = WeatherPluginSimpleComplex().GetWeatherForecast1("2024-02-29").degreesFahrenheit
    assert asyncio.run(run_plan(plan, kernel)) == expected


def test_wrong_plan_fails_on_the_real_kernel_at_the_weather_step() -> None:
    kernel = Kernel()
    kernel.add_plugin(DatePluginSimpleComplex(today=TODAY))
    kernel.add_plugin(WeatherPluginSimpleComplex())
    wrong = Plan.model_validate(
        {
            "steps": [
                ADR_PLAN["steps"][0],
                {**ADR_PLAN["steps"][1], "arguments": {"date": {"$from": "d"}}},
            ]
        }
    )
    with pytest.raises(
        PlanRunError, match=r"step 'w': .*\$\.date: .* is not of type 'string'"
    ) as info:
        asyncio.run(run_plan(wrong, kernel))
    assert list(info.value.results) == ["d"]
