"""Issue 13, item 9 (plans): a plan of any size is ordered, checked or refused without recursion.

A 1,000-step dependency cycle raised ``RecursionError``; ordering and duplicate-id checks were
quadratic in the number of steps.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from sktypes.errors import PlanError
from sktypes.plan import Plan, check_plan, run_plan
from sktypes.plan._check import MAX_CYCLES, dependency_cycles
from sktypes.views import FunctionView, ParameterView, ReturnParameterView

VIEWS = [
    FunctionView(
        name="f",
        plugin_name="P",
        parameters=(ParameterView(name="x", schema={}, is_required=False),),
        return_parameter=ReturnParameterView(schema={"type": "integer"}),
    )
]


def _ring(n: int) -> Plan:
    steps = [
        {"id": f"s{i}", "function": "P.f", "arguments": {"x": {"$from": f"s{(i + 1) % n}"}}}
        for i in range(n)
    ]
    return Plan.model_validate({"steps": steps})


def _chain(n: int) -> Plan:
    steps: list[dict[str, Any]] = [{"id": "s0", "function": "P.f", "arguments": {}}]
    steps += [
        {"id": f"s{i}", "function": "P.f", "arguments": {"x": {"$from": f"s{i - 1}"}}}
        for i in range(1, n)
    ]
    return Plan.model_validate({"steps": steps})


class _Kernel:
    def __init__(self) -> None:
        self.calls = 0

    async def invoke(self, function: str, arguments: dict[str, Any], /) -> Any:
        self.calls += 1
        return arguments.get("x", 0) + 1


@pytest.mark.parametrize("n", [1000, 5000])
def test_a_long_dependency_cycle_is_reported_not_a_recursion_error(n: int) -> None:
    plan = _ring(n)
    cycles = dependency_cycles(plan)
    assert len(cycles) == 1 and len(cycles[0]) == n
    issues = check_plan(plan, VIEWS)
    assert any(i.message.startswith("steps depend on each other: 's0' -> 's1'") for i in issues)
    kernel = _Kernel()
    with pytest.raises(PlanError, match="steps depend on each other"):
        asyncio.run(run_plan(plan, kernel))
    assert kernel.calls == 0


def test_many_cycles_are_capped() -> None:
    steps = []
    for i in range(200):
        a, b = f"a{i}", f"b{i}"
        steps.append({"id": a, "function": "P.f", "arguments": {"x": {"$from": b}}})
        steps.append({"id": b, "function": "P.f", "arguments": {"x": {"$from": a}}})
    cycles = dependency_cycles(Plan.model_validate({"steps": steps}))
    assert len(cycles) == MAX_CYCLES


def test_a_long_chain_runs_in_order() -> None:
    kernel = _Kernel()
    assert asyncio.run(run_plan(_chain(3000), kernel)) == 3000
    assert kernel.calls == 3000


def test_duplicate_ids_in_a_large_plan_are_named() -> None:
    steps = [{"id": f"s{i % 4000}", "function": "P.f", "arguments": {}} for i in range(4001)]
    with pytest.raises(ValueError, match="repeated: s0"):
        Plan.model_validate({"steps": steps})
