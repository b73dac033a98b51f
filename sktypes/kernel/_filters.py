"""Function invocation filters: code that runs around every kernel invocation.

A filter is an async callable ``(context, next)``: it may change ``context.arguments``
before awaiting ``next(context)``, and change or replace ``context.result`` after it — or
not call ``next`` at all and set a result itself. Filters run in the order they were added,
outermost first (like Semantic Kernel's ``IFunctionInvocationFilter``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sktypes.content import FunctionResult
from sktypes.kernel._function import KernelFunction

if TYPE_CHECKING:
    from sktypes.kernel import Kernel

__all__ = ["FunctionInvocationContext", "FunctionInvocationFilter", "NextFilter"]


@dataclass(slots=True)
class FunctionInvocationContext:
    """One invocation as filters see it.

    Args:
        kernel: the kernel invoking.
        function: the function being invoked.
        arguments: the JSON arguments (validated and hydrated after the filters ran).
        result: the result, once the function returned (or a filter set one).
        strict: whether the arguments are hydrated without coercions.
    """

    kernel: Kernel
    function: KernelFunction
    arguments: dict[str, Any] = field(default_factory=dict)
    result: FunctionResult[Any] | None = None
    strict: bool = False


NextFilter = Callable[[FunctionInvocationContext], Awaitable[None]]
"""Runs the rest of the chain (the next filters, then the function)."""

FunctionInvocationFilter = Callable[[FunctionInvocationContext, NextFilter], Awaitable[None]]
"""``async def my_filter(context, next): ...; await next(context); ...``"""
