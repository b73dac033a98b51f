"""The `Kernel`: plugins of functions, invoked with validated, hydrated arguments.

``await kernel.invoke("Plugin.Function", {"arg": ...})`` runs the invocation filters
around the call, has the view's argument contract decide about the model's (JSON)
arguments (:class:`sktypes.hydration.ArgumentContract`: the lax coercions of
:func:`sktypes.hydrate` — ``"2"`` for an ``int`` —, none with ``strict=True``; every
violation at once, as :class:`ArgumentsError`), calls the function (sync or async) with
the native values and returns a :class:`FunctionResult` whose ``value`` is what the
function returned. Templates, plans and integrations call through this same path;
:meth:`Kernel.invoke_sync` is the same path for synchronous callers.
"""

from __future__ import annotations

import difflib
import inspect
import sys
import types
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from sktypes.content import FunctionResult
from sktypes.errors import KernelError
from sktypes.kernel._filters import (
    FunctionInvocationContext,
    FunctionInvocationFilter,
    NextFilter,
)
from sktypes.kernel._function import Invoker, KernelFunction, KernelPlugin
from sktypes.kernel._openapi import openapi_plugin
from sktypes.kernel._sync import run_sync
from sktypes.views import FunctionView

__all__ = [
    "FunctionInvocationContext",
    "FunctionInvocationFilter",
    "Invoker",
    "Kernel",
    "KernelFunction",
    "KernelPlugin",
    "NextFilter",
    "openapi_plugin",
]


class Kernel:
    """Plugins of functions, and the one way to invoke them.

    Args:
        plugins: plugins to start with.
        filters: invocation filters, outermost first.
        strict: refuse arguments that need a coercion (``"2"`` for an ``int``, ``"true"``
            for a ``bool``); each :meth:`invoke` may say otherwise.
    """

    def __init__(
        self,
        plugins: Iterable[KernelPlugin] = (),
        *,
        filters: Iterable[FunctionInvocationFilter] = (),
        strict: bool = False,
    ) -> None:
        self.plugins: dict[str, KernelPlugin] = {}
        self.filters: list[FunctionInvocationFilter] = list(filters)
        self.strict = strict
        for plugin in plugins:
            self.add_plugin(plugin)

    # --- registering ----------------------------------------------------------------

    def add_plugin(
        self, plugin: Any, plugin_name: str | None = None, *, description: str | None = None
    ) -> KernelPlugin:
        """Add a plugin and return it.

        Args:
            plugin: an instance or class with ``@kernel_function`` methods, a module with
                ``@kernel_function`` functions (e.g. a generated plugin), a
                :class:`KernelPlugin`, an ``OpenApiPlugin`` (operations are called over
                HTTP with httpx), or a list of callables / views / kernel functions.
            plugin_name: its name; defaults to the class, module or API name.
            description: what the plugin is about (defaults to the class/module docstring).

        Raises:
            KernelError: the name is taken, or ``plugin`` holds no functions.
            IntrospectionError: a function's signature cannot become a view.
        """
        built = self._build_plugin(plugin, plugin_name, description)
        if built.name in self.plugins:
            raise KernelError(f"a plugin named {built.name!r} is already added")
        self.plugins[built.name] = built
        return built

    def _build_plugin(self, plugin: Any, name: str | None, description: str | None) -> KernelPlugin:
        if isinstance(plugin, KernelPlugin):
            if name is None or name == plugin.name:
                return plugin
            return KernelPlugin(name, plugin.values(), description or plugin.description)
        if _is_openapi_plugin(plugin):
            return openapi_plugin(plugin, name=name, description=description or "")
        if isinstance(plugin, (list, tuple)):
            if name is None:
                raise KernelError("a list of functions needs a plugin_name")
            return KernelPlugin(name, [_as_function(f, name) for f in plugin], description or "")
        from sktypes.introspect import plugin_views

        if isinstance(plugin, type) and _has_instance_functions(plugin):
            plugin = _instantiate(plugin)
        views = plugin_views(plugin, name)
        doc = description
        if doc is None:
            owner = plugin if isinstance(plugin, (type, types.ModuleType)) else type(plugin)
            doc = (owner.__doc__ or "").strip().split("\n\n")[0]
        return KernelPlugin(views[0].plugin_name, [KernelFunction.from_view(v) for v in views], doc)

    def add_function(
        self,
        function: Callable[..., Any] | FunctionView | KernelFunction,
        plugin_name: str | None = None,
    ) -> KernelFunction:
        """Add one function (a callable, a view with a native function, or a KernelFunction).

        It joins the plugin ``plugin_name`` (created when missing); without a name it goes
        to the view's own plugin (``""`` for plain functions: call it by its bare name).
        """
        built = _as_function(function, plugin_name)
        name = plugin_name if plugin_name is not None else built.plugin_name
        plugin = self.plugins.get(name)
        if plugin is None:
            plugin = self.plugins[name] = KernelPlugin(name)
        return plugin.add(built)

    def add_filter(self, filter: FunctionInvocationFilter) -> FunctionInvocationFilter:
        """Add an invocation filter (innermost so far) and return it; usable as a decorator."""
        self.filters.append(filter)
        return filter

    # --- lookup ---------------------------------------------------------------------

    @property
    def functions(self) -> list[KernelFunction]:
        """Every function of every plugin."""
        return [f for p in self.plugins.values() for f in p.values()]

    @property
    def views(self) -> list[FunctionView]:
        """The views of every function (what ``functions_manual`` takes)."""
        return [f.view for f in self.functions]

    def get_plugin(self, name: str) -> KernelPlugin:
        """Return the plugin called ``name`` (:class:`KernelError` if there is none)."""
        try:
            return self.plugins[name]
        except KeyError:
            raise KernelError(f"no plugin named {name!r}{_hint(name, self.plugins)}") from None

    def get_function(self, name: str, plugin_name: str | None = None) -> KernelFunction:
        """Return a function by ``"Plugin.Function"`` (or ``name`` + ``plugin_name``).

        A bare function name works when exactly one plugin has a function of that name.

        Raises:
            KernelError: no such function (the message suggests close names), or a bare
                name several plugins share.
        """
        function = self.find_function(name, plugin_name)
        if function is not None:
            return function
        if plugin_name is None and "." not in name:
            found = sorted(p[name].fully_qualified_name for p in self.plugins.values() if name in p)
            if found:
                raise KernelError(f"function name {name!r} is ambiguous: one of {found}")
        wanted = f"{plugin_name}.{name}" if plugin_name else name
        known = [f.fully_qualified_name for f in self.functions]
        raise KernelError(f"no function named {wanted!r}{_hint(wanted, known)}")

    def find_function(self, name: str, plugin_name: str | None = None) -> KernelFunction | None:
        """:meth:`get_function`'s answer, or ``None`` where it raises (nothing is formatted)."""
        if plugin_name is None:
            plugin_name, dot, function_name = name.partition(".")
            if dot:
                name = function_name
            else:
                plugin_name = None
        if plugin_name is not None:
            plugin = self.plugins.get(plugin_name)
            return plugin.get(name) if plugin is not None else None
        found = [p[name] for p in self.plugins.values() if name in p]
        return found[0] if len(found) == 1 else None

    # --- invoking -------------------------------------------------------------------

    async def invoke(
        self,
        function: KernelFunction | FunctionView | str,
        arguments: Mapping[str, Any] | None = None,
        /,
        *,
        strict: bool | None = None,
        **kwargs: Any,
    ) -> FunctionResult[Any]:
        """Invoke a function with the model's arguments and return its result.

        Args:
            function: a :class:`KernelFunction`, a view, or ``"Plugin.Function"``.
            arguments: the arguments (JSON values as a model sends them; native values are
                accepted too and go through their JSON form).
            strict: no coercions for this call (default: the kernel's ``strict``). A
                function parameter named ``strict`` is passed in ``arguments``.
            **kwargs: more arguments, merged over ``arguments``.

        Raises:
            KernelError: the function is unknown or has no implementation.
            ArgumentsError: the arguments break the view (every violation listed).
            HydrationError: valid arguments that cannot become the native types.
            Exception: whatever the function itself raises, unchanged.
        """
        fn = self._resolve(function)
        args = dict(arguments) if arguments else {}
        if kwargs:
            args.update(kwargs)
        strict = self.strict if strict is None else strict
        if not self.filters:  # what the chain would do, without building it
            value = await fn.call(fn.prepare(args, strict=strict))
            return FunctionResult(value=value, function=fn.view)
        context = FunctionInvocationContext(self, fn, args, strict=strict)
        await self._chain(0)(context)
        if context.result is None:
            raise KernelError("an invocation filter returned without a result", where=fn.name)
        return context.result

    def invoke_sync(
        self,
        function: KernelFunction | FunctionView | str,
        arguments: Mapping[str, Any] | None = None,
        /,
        *,
        strict: bool | None = None,
    ) -> FunctionResult[Any]:
        """:meth:`invoke` for synchronous callers: the same decision, filters and call.

        A function that cannot suspend, on a kernel without filters, is called right here;
        anything that may suspend (an ``async`` function, a filter chain) runs to its end on
        an event loop of its own (a helper thread's when this thread runs one).

        Raises:
            KernelError, ArgumentsError, Exception: as :meth:`invoke`.
        """
        if self.filters:
            return run_sync(self.invoke(function, arguments, strict=strict))
        fn = self._resolve(function)
        strict = self.strict if strict is None else strict
        value = fn.call_sync(fn.prepare(arguments or {}, strict=strict))
        if inspect.isawaitable(value):
            value = run_sync(value)
        return FunctionResult(value=value, function=fn.view)

    def _resolve(self, function: KernelFunction | FunctionView | str) -> KernelFunction:
        if isinstance(function, KernelFunction):
            return function
        if isinstance(function, FunctionView):
            try:
                known = self.get_function(function.name, function.plugin_name or None)
            except KernelError:
                return KernelFunction.from_view(function)
            return known if known.view == function else KernelFunction.from_view(function)
        return self.get_function(function)

    def _chain(self, index: int) -> NextFilter:
        if index == len(self.filters):
            return _call
        current = self.filters[index]
        rest = self._chain(index + 1)

        async def step(context: FunctionInvocationContext) -> None:
            await current(context, rest)

        return step


async def _call(context: FunctionInvocationContext) -> None:
    """The end of the chain: validate, hydrate, call, wrap the value."""
    fn = context.function
    value = await fn.call(fn.prepare(context.arguments, strict=context.strict))
    context.result = FunctionResult(value=value, function=fn.view)


def _as_function(
    function: Callable[..., Any] | FunctionView | KernelFunction, plugin_name: str | None
) -> KernelFunction:
    if isinstance(function, KernelFunction):
        return function
    if isinstance(function, FunctionView):
        return KernelFunction.from_view(function)
    return KernelFunction.from_callable(function, plugin_name)


def _is_openapi_plugin(obj: Any) -> bool:
    """Whether ``obj`` is an ``OpenApiPlugin``.

    Without importing the OpenAPI loader for it: an instance exists only once
    ``sktypes.openapi`` has been imported.
    """
    openapi = sys.modules.get("sktypes.openapi")
    return openapi is not None and isinstance(obj, openapi.OpenApiPlugin)


def _hint(name: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(name, list(known), n=3, cutoff=0.75)
    return f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else ""


def _has_instance_functions(cls: type) -> bool:
    """Whether a class has ``@kernel_function`` methods that need an instance."""
    from sktypes.introspect import _info

    for klass in cls.__mro__:
        for value in vars(klass).values():
            if inspect.isfunction(value) and _info(value) is not None:
                return True
    return False


def _instantiate(cls: type) -> Any:
    """An instance of a plugin class given as a class: its constructor must take no arguments."""
    try:
        return cls()
    except TypeError as exc:
        raise KernelError(
            f"plugin class {cls.__qualname__} has instance methods and cannot be built without "
            f"arguments ({exc}); pass an instance instead"
        ) from None
