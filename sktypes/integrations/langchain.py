"""LangChain: sktypes functions as ``StructuredTool``s, and LangChain tools as views.

``export(target)`` gives one ``StructuredTool`` per function, its ``args_schema`` the
view's arguments schema with references inlined (LangChain inlines them itself when it
converts a tool for a model, and turns recursion into ``{}``; here a recursive definition
is expanded :data:`~sktypes.integrations.RECURSION_DEPTH` times and the cut reported).
LangChain never validates a dict ``args_schema``: every call goes through sktypes first,
synchronous (``invoke``) or not (``ainvoke``). Refused arguments raise ``ToolException``
with ``handle_tool_error`` set, so the model reads the text naming each bad argument's
JSON path in the ``ToolMessage`` (``status="error"``).

Results use ``response_format="content_and_artifact"``: the model reads JSON
(``ToolMessage.content``), Python callers get the typed value (``ToolMessage.artifact``).

``strict=True`` gives the strict shape (every argument required, optional ones nullable,
a ``null`` read back as "absent"), which ``bind_tools(..., strict=True)`` then sends as is;
LangChain's own strict conversion makes optional arguments required without making them
nullable.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel

from sktypes._install import missing_extra
from sktypes.integrations import _core
from sktypes.views import FunctionView

try:
    from langchain_core.tools import BaseTool, StructuredTool, ToolException
except ImportError as exc:
    raise missing_extra(__name__, "LangChain", "langchain", exc) from None

__all__ = ["export", "views"]


def export(
    target: Any, *, plugin_name: str | None = None, strict: bool | None = None
) -> list[StructuredTool]:
    """LangChain ``StructuredTool``s that call ``target``'s functions through sktypes.

    Args:
        target: anything ``sktypes.kernel.Kernel.add_plugin`` takes, or a ``Kernel``.
        plugin_name: renames the plugin (tool names are ``Plugin-Function``).
        strict: ``True`` shapes every schema for strict function calling (an error where
            one cannot take it); ``None``/``False`` keep the view's schema.

    Raises:
        SchemaError: ``strict=True`` and a schema cannot be made strict.
        KernelError: ``target`` holds no functions.
    """
    found = _core.tools(target, plugin_name, inline=True, strict=bool(strict))
    return [_tool(t) for t in found]


def _tool(tool: _core.Tool) -> StructuredTool:
    def call(**kwargs: Any) -> tuple[str, Any]:
        try:
            value = tool.invoke_sync(kwargs)
        except _core.BadArguments as exc:
            raise ToolException(_core.error_text(exc, tool)) from exc
        return tool.text_result(value), value

    async def acall(**kwargs: Any) -> tuple[str, Any]:
        try:
            value = await tool.invoke(kwargs)
        except _core.BadArguments as exc:
            raise ToolException(_core.error_text(exc, tool)) from exc
        return tool.text_result(value), value

    return StructuredTool(
        name=tool.name,
        description=tool.description,
        args_schema=tool.schema.parameters,
        func=call,
        coroutine=acall,
        handle_tool_error=True,
        response_format="content_and_artifact",
        metadata={_core.VIEW_KEY: _core.Source(tool)},
    )


def views(native: BaseTool | Iterable[BaseTool]) -> list[FunctionView]:
    """The views of LangChain tools (one tool or several).

    Tools made by :func:`export` give back their own views; any other tool is read from
    the schema of the arguments the model sends (``tool_call_schema``), and calling the
    view invokes it through LangChain (``ainvoke``).
    """
    found = [native] if isinstance(native, BaseTool) else list(native)
    return [_view(t) for t in found]


def _view(tool: BaseTool) -> FunctionView:
    source = _core.Source.of(tool.metadata)
    if source is not None:
        return source.tool.view
    schema = tool.tool_call_schema
    if isinstance(schema, dict):
        parameters = schema
    elif issubclass(schema, BaseModel):
        parameters = schema.model_json_schema()
    else:  # a pydantic.v1 model
        parameters = schema.schema()

    async def call(**kwargs: Any) -> Any:
        return await tool.ainvoke(kwargs)

    return _core.foreign_view(tool.name, tool.description, parameters, call)
