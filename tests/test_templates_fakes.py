"""A minimal kernel for template tests (the real one is sktypes.kernel.Kernel), and its tests.

It finds functions by ``plugin.function`` (or a unique bare name) and hydrates arguments
to the parameter types with pydantic, as the real kernel's invoke does.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import pytest
from pydantic import TypeAdapter

from sktypes.errors import KernelError
from sktypes.introspect import function_view
from sktypes.views import FunctionView


@dataclass(frozen=True)
class FakeFunction:
    view: FunctionView
    fn: Callable[..., Any]


@dataclass(frozen=True)
class FakeResult:
    value: Any


class FakeKernel:
    def __init__(self) -> None:
        self.functions: dict[str, FakeFunction] = {}
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def add(self, fn: Callable[..., Any], plugin: str, name: str | None = None) -> None:
        view = function_view(fn, plugin)
        if name is not None:
            view = FunctionView(name, plugin, view.description, view.parameters)
        self.functions[view.fully_qualified_name] = FakeFunction(view, fn)

    def get_function(self, name: str, /) -> FakeFunction:
        if name in self.functions:
            return self.functions[name]
        if "." not in name:
            found = [f for f in self.functions.values() if f.view.name == name]
            if len(found) == 1:
                return found[0]
        raise KernelError(f"no function {name!r}")

    async def invoke(self, function: Any, arguments: Mapping[str, Any]) -> FakeResult:
        view: FunctionView = function.view
        names = {p.name for p in view.parameters}
        unknown = set(arguments) - names
        if unknown:
            raise KernelError(f"unknown argument(s) {sorted(unknown)}")
        native = {
            p.name: TypeAdapter(p.native_type).validate_python(arguments[p.name])
            for p in view.parameters
            if p.name in arguments
        }
        self.calls.append((view.fully_qualified_name, native))
        value = function.fn(**native)
        if inspect.isawaitable(value):
            value = await value
        return FakeResult(value)


class P:
    """The plugin the golden cases call (the same functions as the semantic-kernel side)."""

    def echo(self, input: str) -> str:
        return input

    def join(self, a: str, b: str = "B") -> str:
        return f"{a}|{b}"

    def html(self) -> str:
        return "<b>&</b>"

    def inc(self, n: int) -> int:
        return n + 1


def golden_kernel() -> FakeKernel:
    kernel = FakeKernel()
    plugin = P()
    for fn in (plugin.echo, plugin.join, plugin.html, plugin.inc):
        kernel.add(fn, "p")
    return kernel


def test_fake_kernel_hydrates_arguments_to_parameter_types() -> None:
    kernel = golden_kernel()
    result = asyncio.run(kernel.invoke(kernel.get_function("p.inc"), {"n": "41"}))
    assert result.value == 42


def test_fake_kernel_refuses_unknown_functions() -> None:
    with pytest.raises(KernelError):
        golden_kernel().get_function("p.nope")
