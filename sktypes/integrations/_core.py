"""What every framework integration shares: targets → tools, the checked call, results.

A :class:`Tool` is one sktypes function ready for a framework: its view, the kernel
function that calls it, the kernel whose invocation filters run around the call, a name
valid in every provider, and its arguments schema shaped for the framework
(:mod:`._schema`). A framework module wraps each tool into its own object and maps
:class:`ArgumentsError`/:class:`HydrationError` onto the channel its model reads.

Every call takes sktypes' one path: the model's arguments (a dict, or JSON text, repaired
as :func:`sktypes.hydrate` repairs it) go to :meth:`sktypes.kernel.Kernel.invoke` (or
:meth:`~sktypes.kernel.Kernel.invoke_sync`), where the view's argument contract decides
about them — every problem at once, with its JSON path — and hydrates them into the
parameters' native types, so the function receives exactly what it declares and unknown
arguments are refused.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import orjson

from sktypes.content._codec import dumps, to_json_value
from sktypes.errors import (
    ArgumentsError,
    ErrorDetail,
    HydrationError,
    SktypesError,
    arguments_header,
    snippet,
)
from sktypes.integrations._schema import ToolSchema, absent_restorer, tool_schema
from sktypes.kernel import Kernel, KernelFunction, KernelPlugin
from sktypes.manual import provider_name
from sktypes.views import FunctionView

__all__ = [
    "BadArguments",
    "Source",
    "Tool",
    "collect",
    "error_text",
    "foreign_view",
    "tools",
]

BadArguments = (ArgumentsError, HydrationError)
"""What a call raises when the model's arguments cannot be used (reported to the model)."""

VIEW_KEY = "sktypes_view"
"""Where an exported tool keeps its :class:`Source` (frameworks' metadata dicts)."""


@dataclasses.dataclass(frozen=True, slots=True, eq=False)
class Tool:
    """One function as an integration exports it.

    Attributes:
        view: the function's view (names, schemas, native types).
        function: the sktypes kernel function that validates, hydrates and calls it.
        kernel: the kernel whose invocation filters run around each call.
        name: the tool name for frameworks with one flat namespace: ``Plugin-Function``
            as in the ``openai`` functions manual (valid for every provider).
        schema: the arguments schema shaped for the framework.
    """

    view: FunctionView
    function: KernelFunction
    kernel: Kernel
    name: str
    schema: ToolSchema
    _restore: Callable[[Any], Any] | None = dataclasses.field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.schema.strict:
            object.__setattr__(self, "_restore", absent_restorer(self.view))

    @property
    def description(self) -> str:
        """What the model reads about the function (its summary)."""
        return self.view.description

    def arguments(self, raw: Mapping[str, Any] | str | bytes | None) -> dict[str, Any]:
        """The model's arguments as a dict of JSON values, before validation.

        JSON text is parsed (and repaired as ``hydrate`` repairs it); in the strict shape,
        a ``null`` standing for an absent optional argument is removed.

        Raises:
            HydrationError: the text is not a JSON object.
        """
        if raw is None:
            args: Any = {}
        elif isinstance(raw, (str, bytes)):
            args = _parse(raw, self.view)
        else:
            args = raw if type(raw) is dict else dict(raw)
        if not isinstance(args, dict):
            raise HydrationError(
                [ErrorDetail("$", "the arguments must be a JSON object", snippet(args))],
                summary=f"invalid arguments for {self.view.fully_qualified_name}",
            )
        if self._restore is not None:
            restored: dict[str, Any] = self._restore(args)
            return restored
        return args

    async def invoke(self, raw: Mapping[str, Any] | str | bytes | None) -> Any:
        """Validate, hydrate and call; return the function's (typed) value.

        Raises:
            ArgumentsError: the arguments break the view (every violation, with paths).
            HydrationError: the arguments are not JSON, or cannot become native values.
            Exception: whatever the function raises, unchanged.
        """
        result = await self.kernel.invoke(self.function, self.arguments(raw))
        return result.value

    def invoke_sync(self, raw: Mapping[str, Any] | str | bytes | None) -> Any:
        """:meth:`invoke` for synchronous callers (:meth:`Kernel.invoke_sync`)."""
        return self.kernel.invoke_sync(self.function, self.arguments(raw)).value

    def json_result(self, value: Any) -> Any:
        """The JSON form of a result (``model_dump(mode="json")`` for models)."""
        try:
            return to_json_value(value, "$")
        except SktypesError:
            return str(value)  # no JSON form: the model reads its text

    def text_result(self, value: Any) -> str:
        """A result as the text a model reads: strings as they are, anything else as JSON."""
        if isinstance(value, str):
            return value
        try:
            return dumps(value).decode()
        except SktypesError:
            return str(value)


def _parse(raw: str | bytes, view: FunctionView) -> Any:
    text = raw.strip()
    if not text:
        return {}
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        from sktypes.hydration import hydrate

        try:
            return hydrate({"type": "object"}, text)
        except HydrationError as exc:
            raise HydrationError(
                exc.errors, summary=f"the arguments for {view.fully_qualified_name} are not JSON"
            ) from None


def error_text(exc: ArgumentsError | HydrationError, tool: Tool) -> str:
    """The text a model reads when its arguments were refused: one line per bad argument."""
    return exc.for_llm(header=arguments_header(tool.name))


# --- targets ------------------------------------------------------------------------


def collect(target: Any, plugin_name: str | None = None) -> tuple[Kernel, list[KernelPlugin]]:
    """The kernel and plugins behind ``target``.

    ``target`` is a :class:`Kernel` (all its plugins; its filters run on every call), or
    anything ``Kernel.add_plugin`` takes — an object, class or module with
    ``@kernel_function`` members (Semantic Kernel's decorator included), an
    ``OpenApiPlugin``, a generated plugin, a :class:`KernelPlugin` — or a list of
    callables, views and kernel functions (grouped by their views' plugin names unless
    ``plugin_name`` is given).

    Raises:
        KernelError: ``target`` holds no functions (or names clash).
        IntrospectionError: a function cannot become a view.
    """
    if isinstance(target, Kernel):
        plugins = list(target.plugins.values())
        if plugin_name is not None and len(plugins) == 1:
            plugins = [KernelPlugin(plugin_name, plugins[0].values(), plugins[0].description)]
        return target, plugins
    kernel = Kernel()
    if isinstance(target, (list, tuple)) and plugin_name is None:
        for name, members in _by_plugin(target).items():
            kernel.add_plugin(members, name)
    else:
        kernel.add_plugin(target, plugin_name)
    return kernel, list(kernel.plugins.values())


def _by_plugin(items: Iterable[Any]) -> dict[str, list[Any]]:
    groups: dict[str, list[Any]] = {}
    for item in items:
        if isinstance(item, (KernelFunction, FunctionView)):
            name = item.plugin_name
        else:
            from sktypes.introspect import function_view

            name = function_view(item).plugin_name
        groups.setdefault(name, []).append(item)
    return groups


def tools(
    target: Any,
    plugin_name: str | None = None,
    *,
    inline: bool,
    strict: bool | None,
    strict_default: bool = False,
    schema: Callable[[FunctionView], ToolSchema] | None = None,
) -> list[Tool]:
    """Every function of ``target`` (see :func:`collect`) as a :class:`Tool`.

    Args:
        target: what to export.
        plugin_name: renames the plugin (a single-plugin target).
        inline: whether the framework needs references inlined.
        strict: the caller's choice (``None``: the framework's default where possible).
        strict_default: the framework's default.
        schema: builds the schema instead (for a framework with its own rules).

    Raises:
        SchemaError: ``strict=True`` and a schema cannot be made strict.
    """
    kernel, plugins = collect(target, plugin_name)
    out = []
    for plugin in plugins:
        for function in plugin.values():
            view = function.view
            shaped = (
                schema(view)
                if schema is not None
                else tool_schema(view, inline=inline, strict=strict, strict_default=strict_default)
            )
            out.append(Tool(view, function, kernel, provider_name(view, "openai"), shaped))
    return out


# --- back: framework tools -> views -----------------------------------------------------


class Source:
    """An exported tool's origin, kept in the framework object's metadata for ``views()``.

    Copies of the framework object (frameworks deep-copy their metadata) share it.
    """

    __slots__ = ("merged", "tool")

    def __init__(self, tool: Tool, merged: bool = False) -> None:
        self.tool = tool
        self.merged = merged  # one of several plugins merged under one name

    def __copy__(self) -> Source:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Source:
        return self

    @staticmethod
    def of(metadata: Mapping[str, Any] | None) -> Source | None:
        """The source kept in ``metadata``, if any."""
        found = (metadata or {}).get(VIEW_KEY)
        return found if isinstance(found, Source) else None


def foreign_view(
    name: str,
    description: str | None,
    parameters: Mapping[str, Any] | None,
    call: Callable[..., Any] | None,
    *,
    returns: Mapping[str, Any] | None = None,
    plugin_name: str = "",
) -> FunctionView:
    """The view of a framework's own tool, read from the schema it sends the model.

    The schema is read the way :func:`sktypes.views_from_manual` reads an MCP tool entry
    (shared definitions go with the parameters that use them; an open arguments object
    means the tool takes extra arguments); the name is kept whole.

    Raises:
        ManualError: the parameters schema is not an object schema.
    """
    from sktypes.manual import views_from_manual

    entry: dict[str, Any] = {
        "name": name,
        "description": description or "",
        "inputSchema": dict(parameters) if parameters else {"type": "object"},
    }
    if returns is not None:
        entry["outputSchema"] = dict(returns)
    (view,) = views_from_manual([entry])
    return dataclasses.replace(view, name=name, plugin_name=plugin_name, native_function=call)
