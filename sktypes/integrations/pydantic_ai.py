"""pydantic-ai: sktypes functions as a ``FunctionToolset``, and pydantic-ai tools as views.

``export(target)`` gives a ``FunctionToolset`` of ``Tool.from_schema`` tools, each sending
the view's arguments schema (``$defs`` kept: pydantic-ai adapts schemas per model itself).
pydantic-ai does not validate a tool made from a schema: every call goes through sktypes
first, and refused arguments raise ``ModelRetry`` whose text names each bad argument's
JSON path — pydantic-ai sends it back to the model as a retry prompt (counted against
the tool's ``max_retries``). The function's typed value is the tool's return value;
pydantic-ai serialises it for the model.

``strict``: ``True`` shapes each schema for strict function calling and marks the tools
strict; ``None`` leaves strictness to pydantic-ai (per model, for schemas that are
strict-compatible as they are); ``False`` marks them not strict.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable, Iterable
from typing import Any

from sktypes._install import missing_extra
from sktypes.errors import KernelError, SktypesError
from sktypes.integrations import _core
from sktypes.introspect import function_view
from sktypes.views import FunctionView

try:
    from pydantic_ai import FunctionToolset, ModelRetry, Tool
    from pydantic_ai.toolsets import AbstractToolset
except ImportError as exc:
    raise missing_extra(__name__, "pydantic-ai", "pydantic-ai", exc) from None

__all__ = ["export", "views"]


def export(
    target: Any, *, plugin_name: str | None = None, strict: bool | None = None
) -> FunctionToolset[Any]:
    """A pydantic-ai ``FunctionToolset`` whose tools call ``target``'s functions through sktypes.

    Args:
        target: anything ``sktypes.kernel.Kernel.add_plugin`` takes, or a ``Kernel``.
        plugin_name: renames the plugin (tool names are ``Plugin-Function``).
        strict: see the module docs.

    Raises:
        SchemaError: ``strict=True`` and a schema cannot be made strict.
        KernelError: ``target`` holds no functions.
    """
    found = _core.tools(target, plugin_name, inline=False, strict=bool(strict))
    return FunctionToolset([_tool(t, strict) for t in found])


def _tool(tool: _core.Tool, strict: bool | None) -> Tool[Any]:
    async def call(**kwargs: Any) -> Any:
        try:
            return await tool.invoke(kwargs)
        except _core.BadArguments as exc:
            raise ModelRetry(_core.error_text(exc, tool)) from exc

    made: Tool[Any] = Tool.from_schema(
        call, name=tool.name, description=tool.description, json_schema=tool.schema.parameters
    )
    made.strict = True if tool.schema.strict else (None if strict is None else False)
    made.metadata = {_core.VIEW_KEY: _core.Source(tool)}
    return made


def views(native: Tool[Any] | AbstractToolset[Any] | Iterable[Tool[Any]]) -> list[FunctionView]:
    """The views of pydantic-ai tools: a ``Tool``, a ``FunctionToolset`` or a list of tools.

    Tools made by :func:`export` give back their own views. A tool made from a Python
    function (without ``RunContext``) is read as sktypes reads that function (native
    types, so calls are hydrated), named as the tool; any other tool is read from the
    schema it sends the model, and calling its view calls the function with the JSON
    arguments (a tool that takes ``RunContext`` cannot be called outside an agent run).
    """
    if isinstance(native, Tool):
        found: list[Tool[Any]] = [native]
    elif isinstance(native, FunctionToolset):
        found = list(native.tools.values())
    elif isinstance(native, AbstractToolset):
        raise KernelError(f"cannot list the tools of a {type(native).__name__} outside a run")
    else:
        found = list(native)
    return [_view(t) for t in found]


def _view(tool: Tool[Any]) -> FunctionView:
    source = _core.Source.of(tool.metadata)
    if source is not None:
        return source.tool.view
    definition = tool.tool_def
    schema = definition.parameters_json_schema
    if not tool.takes_ctx:
        try:
            own = function_view(tool.function)
        except SktypesError:
            own = None
        if own is not None and [p.name for p in own.parameters] == list(
            schema.get("properties", {})
        ):
            return dataclasses.replace(
                own, name=tool.name, plugin_name="", description=definition.description or ""
            )
    function: Callable[..., Any] = tool.function  # not taking RunContext (checked below)
    takes_ctx = tool.takes_ctx

    async def call(**kwargs: Any) -> Any:
        if takes_ctx:
            raise KernelError(
                "takes pydantic-ai's RunContext: call it inside an agent run", where=tool.name
            )
        value = function(**kwargs)
        return await value if inspect.isawaitable(value) else value

    return _core.foreign_view(tool.name, definition.description, schema, call)
