"""One framework's side of ``bench_integrations.py``: run inside that framework's venv.

    .venv-langchain/bin/python benchmarks/_integrations.py langchain

Times one tool call through the framework's own call path, twice in the same process: the
framework's native tool for a function (what its decorator builds from the signature) and
sktypes' export of the same function. Prints one JSON line per function.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, Field

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import sktypes as sk

REPEAT = 7


class Item(BaseModel):
    """An order line."""

    sku: str = Field(min_length=1, max_length=20)
    qty: int = Field(ge=1, le=1000)


class Order(BaseModel):
    """An order."""

    items: list[Item]
    note: str = ""


def get_date(num_days: Annotated[int, "Days from today"]) -> dict[str, str]:
    """The date num_days from 2026-01-01."""
    return {"date": (dt.date(2026, 1, 1) + dt.timedelta(days=num_days)).isoformat()}


def place_order(order: Order, express: bool = False) -> Order:
    """Place an order."""
    return order


ARGUMENTS: dict[str, dict[str, Any]] = {
    "get_date": {"num_days": 3},
    "place_order": {
        "order": {"items": [{"sku": "A1", "qty": 2}, {"sku": "B2", "qty": 1}], "note": "x"},
        "express": True,
    },
}
FUNCTIONS = {"get_date": get_date, "place_order": place_order}


class Plugin:
    """Both functions as an sktypes plugin."""

    get_date = staticmethod(sk.kernel_function(get_date))
    place_order = staticmethod(sk.kernel_function(place_order))


def per_call(call: Callable[[], Any], n: int) -> float:
    """Best per-call time of ``n`` calls, over ``REPEAT`` rounds (µs)."""
    best = float("inf")
    for _ in range(REPEAT):
        start = time.perf_counter()
        for _ in range(n):
            call()
        best = min(best, (time.perf_counter() - start) / n)
    return best * 1e6


def per_call_async(make: Callable[[], Any], n: int) -> float:
    """:func:`per_call` for a coroutine function, on one event loop."""
    loop = asyncio.new_event_loop()
    try:

        async def rounds() -> float:
            best = float("inf")
            for _ in range(REPEAT):
                start = time.perf_counter()
                for _ in range(n):
                    await make()
                best = min(best, (time.perf_counter() - start) / n)
            return best

        return loop.run_until_complete(rounds()) * 1e6
    finally:
        loop.close()


# --- one function per framework: (native, sktypes) per-call times -------------------------


def semantic_kernel(name: str, n: int) -> tuple[float, float]:
    from semantic_kernel import Kernel
    from semantic_kernel.functions import KernelArguments, kernel_function

    from sktypes.integrations import semantic_kernel as integration

    kernel = Kernel()
    native = kernel.add_plugin({name: kernel_function(FUNCTIONS[name])}, "Native")
    exported = kernel.add_plugin(integration.export(Plugin(), plugin_name="Exported"))
    args = ARGUMENTS[name]
    return (
        per_call_async(lambda: kernel.invoke(native[name], KernelArguments(**args)), n),
        per_call_async(lambda: kernel.invoke(exported[name], KernelArguments(**args)), n),
    )


def agent_framework(name: str, n: int) -> tuple[float, float]:
    from agent_framework import tool

    from sktypes.integrations import agent_framework as integration

    native = tool(FUNCTIONS[name], approval_mode="never_require")
    exported = {t.name: t for t in integration.export(Plugin())}[f"Plugin-{name}"]
    args = ARGUMENTS[name]
    return (
        per_call_async(lambda: native.invoke(arguments=args), n),
        per_call_async(lambda: exported.invoke(arguments=args), n),
    )


def langchain(name: str, n: int) -> tuple[float, float]:
    from langchain_core.tools import tool

    from sktypes.integrations import langchain as integration

    native = tool(FUNCTIONS[name])
    exported = {t.name: t for t in integration.export(Plugin())}[f"Plugin-{name}"]
    args = ARGUMENTS[name]

    def call(t: Any) -> Callable[[], Any]:
        return lambda: t.invoke({"name": t.name, "args": args, "id": "c", "type": "tool_call"})

    return per_call(call(native), n), per_call(call(exported), n)


def pydantic_ai(name: str, n: int) -> tuple[float, float]:
    from pydantic_ai import Agent, FunctionToolset, Tool
    from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart
    from pydantic_ai.models.function import FunctionModel

    from sktypes.integrations import pydantic_ai as integration

    calls_per_run = 20
    args = json.dumps(ARGUMENTS[name])

    def agent(toolset: Any, tool_name: str) -> Agent[None, str]:
        def model(messages: list[Any], info: Any) -> ModelResponse:
            if len(messages) > 1:
                return ModelResponse(parts=[TextPart("done")])
            parts = [ToolCallPart(tool_name, args, f"c{i}") for i in range(calls_per_run)]
            return ModelResponse(parts=parts)

        return Agent(FunctionModel(model), toolsets=[toolset])

    native = agent(FunctionToolset([Tool(FUNCTIONS[name])]), name)
    exported = agent(integration.export(Plugin()), f"Plugin-{name}")
    runs = max(1, n // calls_per_run)
    return (
        per_call_async(lambda: native.run("go"), runs) / calls_per_run,
        per_call_async(lambda: exported.run("go"), runs) / calls_per_run,
    )


def openai_agents(name: str, n: int) -> tuple[float, float]:
    from agents import function_tool
    from agents.tool_context import ToolContext

    from sktypes.integrations import openai_agents as integration

    native = function_tool(FUNCTIONS[name])
    exported = {t.name: t for t in integration.export(Plugin())}[f"Plugin-{name}"]
    text = json.dumps(ARGUMENTS[name])

    def call(t: Any) -> Callable[[], Any]:
        context = ToolContext(None, tool_name=t.name, tool_call_id="c", tool_arguments=text)
        return lambda: t.on_invoke_tool(context, text)

    return per_call_async(call(native), n), per_call_async(call(exported), n)


FRAMEWORKS = {
    "semantic-kernel": semantic_kernel,
    "agent-framework": agent_framework,
    "langchain": langchain,
    "pydantic-ai": pydantic_ai,
    "openai-agents": openai_agents,
}


def main() -> None:
    framework, n = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 300
    bench = FRAMEWORKS[framework]
    for name in FUNCTIONS:
        bench(name, max(1, n // 10))  # warm up: schemas, validators, caches
        native, mine = bench(name, n)
        print(
            json.dumps(
                {"framework": framework, "function": name, "native_us": native, "sktypes_us": mine}
            )
        )


if __name__ == "__main__":
    main()
