"""Microsoft Agent Framework: sktypes functions as ``FunctionTool``s, and tools as views.

``export(target)`` gives one ``FunctionTool`` per function. Agent Framework checks a
JSON-schema ``input_model`` only at the top level and answers a refused call with a
redacted "Argument parsing failed" unless ``include_detailed_errors`` is set; so each
tool's input model is a pydantic model that *stands for* the view's arguments schema
(its ``model_json_schema()`` is that schema, ``$defs`` included) and accepts the arguments
as they are, and sktypes validates and hydrates them inside the call. Refused arguments
are *returned* as the error text naming each bad argument's JSON path — the result the
model reads, never redacted. Results reach the model as JSON (``result_parser``);
``invoke(..., skip_parsing=True)`` gives Python callers the typed value.

Agent Framework sends tools without a strict flag (its OpenAI clients send
``strict=False``): ``strict=True`` is an error.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, ConfigDict

from sktypes._install import missing_extra
from sktypes.errors import SchemaError
from sktypes.integrations import _core
from sktypes.views import FunctionView

try:
    from agent_framework import FunctionTool
except ImportError as exc:
    raise missing_extra(__name__, "Microsoft Agent Framework", "agent-framework", exc) from None

__all__ = ["export", "views"]


def export(
    target: Any, *, plugin_name: str | None = None, strict: bool | None = None
) -> list[FunctionTool]:
    """Agent Framework ``FunctionTool``s that call ``target``'s functions through sktypes.

    Args:
        target: anything ``sktypes.kernel.Kernel.add_plugin`` takes, or a ``Kernel``.
        plugin_name: renames the plugin (tool names are ``Plugin-Function``).
        strict: Agent Framework sends no strict flag: ``True`` is an error.

    Raises:
        SchemaError: ``strict=True``.
        KernelError: ``target`` holds no functions.
    """
    if strict:
        raise SchemaError(
            "Agent Framework sends tools without a strict flag; pass strict=None",
            where=plugin_name,
        )
    return [_tool(t) for t in _core.tools(target, plugin_name, inline=False, strict=False)]


def _tool(tool: _core.Tool) -> FunctionTool:
    async def call(**kwargs: Any) -> Any:
        try:
            return await tool.invoke(kwargs)
        except _core.BadArguments as exc:
            return _core.error_text(exc, tool)  # the result the model reads

    return FunctionTool(
        name=tool.name,
        description=tool.description,
        func=call,
        input_model=_arguments_model(tool),
        result_parser=tool.text_result,
        additional_properties={_core.VIEW_KEY: _core.Source(tool)},
    )


class _Arguments(BaseModel):
    """An input model that takes the arguments as they come (sktypes checks them)."""

    model_config = ConfigDict(extra="allow")


def _arguments_model(tool: _core.Tool) -> type[BaseModel]:
    schema = tool.schema.parameters

    class Arguments(_Arguments):
        @classmethod
        def model_json_schema(cls, *args: Any, **kwargs: Any) -> dict[str, Any]:
            """The view's arguments schema: what the model is sent."""
            return copy.deepcopy(schema)  # clients may adjust what they get

    Arguments.__name__ = Arguments.__qualname__ = f"{tool.view.name}_input"
    return Arguments


def views(native: FunctionTool | Iterable[FunctionTool]) -> list[FunctionView]:
    """The views of Agent Framework tools (one tool or several).

    Tools made by :func:`export` give back their own views; any other ``FunctionTool`` is
    read from the schema it sends the model (``parameters()``), and calling the view
    invokes it through Agent Framework (its own validation first).
    """
    found = [native] if isinstance(native, FunctionTool) else list(native)
    return [_view(t) for t in found]


def _view(tool: FunctionTool) -> FunctionView:
    source = _core.Source.of(tool.additional_properties)
    if source is not None:
        return source.tool.view

    async def call(**kwargs: Any) -> Any:
        return await tool.invoke(arguments=kwargs, skip_parsing=True)

    return _core.foreign_view(tool.name, tool.description, tool.parameters(), call)
