"""Semantic Kernel: sktypes plugins as ``KernelPlugin``s, and Semantic Kernel functions as views.

``export(target)`` builds each function the way Semantic Kernel's own OpenAPI plugin does
(``KernelFunctionFromMethod`` with ``KernelParameterMetadata.schema_data``). Semantic
Kernel sends each parameter's ``schema_data`` on its own, so references are inlined per
parameter (recursion cut, see :mod:`sktypes.integrations`); it has no strict mode
(semantic-kernel #10208). Each call is validated and hydrated by sktypes first; refused
arguments raise ``FunctionExecutionException`` whose text — which Semantic Kernel puts in
the function result the model reads — names each bad argument's JSON path.

Semantic Kernel hands a function only the arguments it declares (``KernelArguments`` are a
bag of variables each function takes its own from), so an unknown argument would be dropped
silently. An exported function (a ``KernelFunctionFromMethod`` subclass) takes every
argument of the call instead, and sktypes refuses the unknown ones as every other door does
— except, in Semantic Kernel's function-calling loop, the caller's own variables merged into
the model's arguments (the loop has already refused the model's unknown arguments itself).

``views(native)`` reads a ``KernelPlugin``, a ``KernelFunction``, a Semantic Kernel
``Kernel`` or an object/module with Semantic Kernel ``@kernel_function`` members.
"""

from __future__ import annotations

import contextvars
import dataclasses
import re
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from sktypes._install import missing_extra
from sktypes.errors import SchemaError, SktypesError
from sktypes.integrations import _core
from sktypes.introspect import function_view, kernel_function_info, plugin_views
from sktypes.views import FunctionView, ParameterView

try:
    import semantic_kernel as sk_pkg
    from semantic_kernel.exceptions import FunctionExecutionException
    from semantic_kernel.filters.auto_function_invocation.auto_function_invocation_context import (
        AutoFunctionInvocationContext,
    )
    from semantic_kernel.filters.functions.function_invocation_context import (
        FunctionInvocationContext,
    )
    from semantic_kernel.functions import (
        KernelArguments,
        KernelFunction,
        KernelFunctionFromMethod,
        KernelParameterMetadata,
        KernelPlugin,
        kernel_function,
    )
except ImportError as exc:
    raise missing_extra(__name__, "Semantic Kernel", "semantic-kernel", exc) from None

__all__ = ["export", "json_results", "views"]

_NAME = re.compile(r"[^0-9A-Za-z_]")
_PARAM = re.compile(r"[^0-9A-Za-z_-]")
_INJECTED = frozenset({"kernel", "service", "execution_settings", "arguments"})
"""Parameter names Semantic Kernel fills in itself: a model's argument of that name is renamed."""


def export(
    target: Any, *, plugin_name: str | None = None, strict: bool | None = None
) -> KernelPlugin:
    """A Semantic Kernel ``KernelPlugin`` whose functions call ``target``'s through sktypes.

    Args:
        target: anything ``sktypes.kernel.Kernel.add_plugin`` takes, or a ``Kernel``.
        plugin_name: the plugin's name (defaults to the target's). When the target holds
            several plugins (a ``Kernel``), they become one plugin of this name (default
            ``"sktypes"``) whose functions are named ``Plugin_Function``.
        strict: Semantic Kernel sends no strict flag: ``True`` is an error.

    Raises:
        SchemaError: ``strict=True``, or a reference that cannot be inlined.
        KernelError: ``target`` holds no functions.
    """
    if strict:
        raise SchemaError(
            "Semantic Kernel cannot send strict tool schemas (semantic-kernel #10208); "
            "pass strict=None",
            where=plugin_name,
        )
    tools = _core.tools(target, plugin_name, inline=True, strict=False)
    plugins = {t.view.plugin_name for t in tools}
    single = len(plugins) == 1
    name = plugin_name or (next(iter(plugins)) if single else "sktypes")
    functions = [_function(t, None if single else t.view.plugin_name) for t in tools]
    return KernelPlugin(name=_NAME.sub("_", name) or "_", functions=functions)


def _function(tool: _core.Tool, prefix: str | None) -> KernelFunctionFromMethod:
    view = tool.view
    aliases = {_param_name(p.name): p.name for p in view.parameters}
    name = _NAME.sub("_", f"{prefix}_{view.name}" if prefix else view.name)

    async def call(**kwargs: Any) -> Any:
        arguments = {aliases.get(k, k): v for k, v in kwargs.items()}
        try:
            return await tool.invoke(arguments)
        except _core.BadArguments as exc:
            raise FunctionExecutionException(_core.error_text(exc, tool)) from exc

    schemas = tool.schema.properties
    parameters = [
        KernelParameterMetadata(
            name=alias,
            description=view.parameter(original).description,
            default_value=view.parameter(original).default_value,
            type_=_type_name(view.parameter(original)),
            is_required=view.parameter(original).is_required,
            schema_data=schemas.get(original, {}),
        )
        for alias, original in aliases.items()
    ]
    ret = view.return_parameter
    returns = KernelParameterMetadata(
        name="return",
        description=ret.description or "",
        type_=ret.type.value if ret.type is not None else "object",
        is_required=ret.schema is not None,
        schema_data=ret.schema.to_python() if ret.schema is not None else None,
    )
    return _Exported(
        method=kernel_function(call, name=name, description=view.description),
        plugin_name=None,
        parameters=parameters,
        return_parameter=returns,
        additional_metadata={_core.VIEW_KEY: _core.Source(tool, merged=prefix is not None)},
    )


_FROM_LOOP: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "sktypes_semantic_kernel_loop", default=False
)
"""Set while Semantic Kernel's function-calling loop invokes an exported function."""


class _Exported(KernelFunctionFromMethod):  # type: ignore[misc, unused-ignore]
    """An exported function: every argument of the call reaches sktypes' argument contract."""

    def __init__(self, **kwargs: Any) -> None:
        """As ``KernelFunctionFromMethod``."""
        super().__init__(**kwargs)

    async def invoke(
        self,
        kernel: sk_pkg.Kernel,
        arguments: KernelArguments | None = None,
        metadata: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> Any:
        """Semantic Kernel's ``invoke``, noting whether its function-calling loop calls."""
        token = _FROM_LOOP.set(_is_function_call(metadata))
        try:
            return await super().invoke(kernel, arguments, metadata, **kwargs)
        finally:
            _FROM_LOOP.reset(token)

    def gather_function_parameters(self, context: FunctionInvocationContext) -> dict[str, Any]:
        """Every argument of the call (the declared ones only, for the loop's variables)."""
        arguments = dict(context.arguments)
        if _FROM_LOOP.get():  # the loop merged the caller's variables into the model's call
            declared = {p.name for p in self.parameters}
            return {k: v for k, v in arguments.items() if k in declared}
        return arguments


def _is_function_call(metadata: Mapping[str, Any] | None) -> bool:
    """Whether ``invoke``'s metadata is a model's function call (the loop passes its content)."""
    return (
        isinstance(metadata, Mapping)
        and metadata.get("type") == "function"
        and isinstance(metadata.get("function"), Mapping)
    )


def _param_name(name: str) -> str:
    alias = _PARAM.sub("_", name) or "_"
    return f"{alias}_" if alias in _INJECTED else alias


def _type_name(param: ParameterView) -> str:
    return param.type.value if param.type is not None else "object"


async def json_results(
    context: AutoFunctionInvocationContext,
    next: Callable[[AutoFunctionInvocationContext], Awaitable[None]],
) -> None:
    """An auto-function-invocation filter: results of exported functions reach the model as JSON.

    Semantic Kernel shows the model ``str(value)`` (a pydantic model's repr, a dict with
    single quotes); with this filter the model reads the JSON form instead, while direct
    ``kernel.invoke`` callers keep the typed value. Add it with
    ``kernel.add_filter("auto_function_invocation", json_results)``.
    """
    await next(context)
    source = _source(context.function)
    result = context.function_result
    if source is not None and result is not None and result.value is not None:
        result.value = source.tool.text_result(result.value)


def _source(function: KernelFunction) -> _core.Source | None:
    return _core.Source.of(function.metadata.additional_properties)


# --- views --------------------------------------------------------------------------


def views(native: Any) -> list[FunctionView]:
    """The views of Semantic Kernel functions.

    Args:
        native: a ``KernelPlugin``, a ``KernelFunction``, a Semantic Kernel ``Kernel``
            (all its plugins), or an object, class or module with Semantic Kernel
            ``@kernel_function`` members.

    Functions exported by :func:`export` give back their own views. Functions made from a
    decorated method give its view as sktypes reads it (native types, docstring); any
    other function (a prompt function, Semantic Kernel's OpenAPI operations) is read
    from its metadata, and calling the view invokes it through Semantic Kernel.

    Raises:
        IntrospectionError: an object without kernel functions.
    """
    if isinstance(native, sk_pkg.Kernel):
        return [v for plugin in native.plugins.values() for v in _plugin_views(plugin)]
    if isinstance(native, KernelPlugin):
        return _plugin_views(native)
    if isinstance(native, KernelFunction):
        return [_view(native)]
    return plugin_views(native)


def _plugin_views(plugin: KernelPlugin) -> list[FunctionView]:
    return [_view(f) for f in plugin.functions.values()]


def _view(function: KernelFunction) -> FunctionView:
    plugin = function.plugin_name or ""
    source = _source(function)
    if source is not None:
        view = source.tool.view
        if source.merged or view.plugin_name == plugin:
            return view
        return dataclasses.replace(view, plugin_name=plugin)  # the plugin was added renamed
    if isinstance(function, KernelFunctionFromMethod) and _from_decorator(function):
        try:
            return function_view(function.method, plugin)
        except SktypesError:
            pass  # a signature sktypes cannot read: fall back to Semantic Kernel's metadata
    return _metadata_view(function, plugin)


def _from_decorator(function: KernelFunctionFromMethod) -> bool:
    """Whether the function's metadata is what its method's decorator says."""
    method = function.method
    info = kernel_function_info(getattr(method, "__func__", method))
    if info is None or not info.semantic_kernel:
        return False
    declared = getattr(method, "__kernel_function_parameters__", None)
    if not isinstance(declared, list):
        return False
    names = [p.get("name") for p in declared if isinstance(p, Mapping)]
    return [p.name for p in function.parameters if p.name not in _INJECTED] == [
        n for n in names if n not in _INJECTED
    ]


def _metadata_view(function: KernelFunction, plugin: str) -> FunctionView:
    meta = function.metadata
    shown = [p for p in meta.parameters if p.include_in_function_choices and p.name]
    parameters = {
        "type": "object",
        "properties": {p.name: _described(p) for p in shown},
        "required": [p.name for p in shown if p.is_required],
        "additionalProperties": False,  # Semantic Kernel refuses unknown arguments
    }
    ret = meta.return_parameter
    returns = ret.schema_data if ret is not None and ret.schema_data else None

    async def call(**kwargs: Any) -> Any:
        result = await function.invoke(sk_pkg.Kernel(), KernelArguments(**kwargs))
        return result.value if result is not None else None

    view = _core.foreign_view(
        meta.name, meta.description, parameters, call, returns=returns, plugin_name=plugin
    )
    if ret is not None and ret.description and not view.return_parameter.description:
        view = dataclasses.replace(
            view,
            return_parameter=dataclasses.replace(
                view.return_parameter, description=ret.description
            ),
        )
    return view


def _described(param: KernelParameterMetadata) -> dict[str, Any]:
    schema = dict(param.schema_data or {})
    if param.description and "description" not in schema:
        schema["description"] = param.description
    default = param.default_value
    if not param.is_required and isinstance(default, (str, int, float, bool)):
        schema.setdefault("default", default)
    return schema
