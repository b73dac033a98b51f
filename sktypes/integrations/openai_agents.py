"""OpenAI Agents SDK: sktypes functions as ``FunctionTool``s, and function tools as views.

``export(target)`` gives one ``FunctionTool`` per function, sending the view's arguments
schema (``$defs`` kept). The SDK is strict by default and raises on a schema it cannot make
strict; here a schema is shaped for strict mode by sktypes' ``openai-strict`` dialect
(optional arguments required *and nullable*; a ``null`` the model sends for one is read
back as "absent", so the default applies), and a schema that cannot be strict (an object
with arbitrary keys) goes non-strict instead, unless ``strict=True`` demands it.

The SDK hands the tool the model's JSON text: sktypes parses, validates and hydrates it.
Refused arguments are *returned* as the error text naming each bad argument's JSON path
(the SDK sends a returned string to the model; a raised exception would end the run).
Results go back as JSON text — a ``str`` whose ``value`` attribute is the typed value, so
Python code reading the run's tool outputs gets it without parsing.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from sktypes._install import missing_extra
from sktypes.integrations import _core
from sktypes.views import FunctionView

try:
    from agents import FunctionTool
    from agents.tool_context import ToolContext
except ImportError as exc:
    raise missing_extra(__name__, "the OpenAI Agents SDK", "openai-agents", exc) from None

__all__ = ["ToolResult", "export", "views"]


class ToolResult(str):
    """A tool's result as the model reads it (JSON text), carrying the typed ``value``."""

    value: Any

    def __new__(cls, text: str, value: Any) -> ToolResult:
        """The text ``text`` carrying ``value``."""
        made = super().__new__(cls, text)
        made.value = value
        return made

    def __getnewargs__(self) -> tuple[str, Any]:  # type: ignore[override]
        """What copies are made from (the SDK deep-copies tool outputs)."""
        return (str(self), self.value)


def export(
    target: Any, *, plugin_name: str | None = None, strict: bool | None = None
) -> list[FunctionTool]:
    """Agents SDK ``FunctionTool``s that call ``target``'s functions through sktypes.

    Args:
        target: anything ``sktypes.kernel.Kernel.add_plugin`` takes, or a ``Kernel``.
        plugin_name: renames the plugin (tool names are ``Plugin-Function``).
        strict: ``None`` (the SDK's default) is strict wherever the schema can be, ``True``
            demands it (an error otherwise), ``False`` never.

    Raises:
        SchemaError: ``strict=True`` and a schema cannot be made strict.
        KernelError: ``target`` holds no functions.
    """
    found = _core.tools(target, plugin_name, inline=False, strict=strict, strict_default=True)
    return [_tool(t) for t in found]


class _Invoke:
    """A tool's ``on_invoke_tool``: the SDK's JSON text through sktypes' checked call."""

    __slots__ = ("tool",)

    def __init__(self, tool: _core.Tool) -> None:
        self.tool = tool

    async def __call__(self, context: ToolContext[Any], arguments: str) -> str:
        tool = self.tool
        try:
            value = await tool.invoke(arguments)
        except _core.BadArguments as exc:
            return _core.error_text(exc, tool)
        return ToolResult(tool.text_result(value), value)


def _tool(tool: _core.Tool) -> FunctionTool:
    return FunctionTool(
        name=tool.name,
        description=tool.description,
        params_json_schema=tool.schema.parameters,
        on_invoke_tool=_Invoke(tool),
        strict_json_schema=tool.schema.strict,
    )


def views(native: FunctionTool | Iterable[FunctionTool]) -> list[FunctionView]:
    """The views of Agents SDK function tools (one tool or several).

    Tools made by :func:`export` give back their own views; any other ``FunctionTool`` is
    read from the schema it sends the model, and calling the view invokes it through the
    SDK (``on_invoke_tool`` with the arguments' JSON, outside a run).
    """
    found = [native] if isinstance(native, FunctionTool) else list(native)
    return [_view(t) for t in found]


def _view(tool: FunctionTool) -> FunctionView:
    invoke = tool.on_invoke_tool
    if isinstance(invoke, _Invoke):
        return invoke.tool.view

    async def call(**kwargs: Any) -> Any:
        text = json.dumps(kwargs)
        context = ToolContext(
            context=None, tool_name=tool.name, tool_call_id="sktypes", tool_arguments=text
        )
        return await invoke(context, text)

    return _core.foreign_view(tool.name, tool.description, tool.params_json_schema, call)
