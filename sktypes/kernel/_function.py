"""`KernelFunction` and `KernelPlugin`: a view plus the way to call it, grouped by plugin."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar, overload

from sktypes.errors import KernelError
from sktypes.hydration import argument_contract
from sktypes.views import FunctionView

__all__ = ["Invoker", "KernelFunction", "KernelPlugin"]

T = TypeVar("T")

Invoker = Callable[[dict[str, Any]], Any]
"""Calls a function with its (hydrated) arguments; may return a value or an awaitable."""


@dataclass(frozen=True, slots=True)
class KernelFunction:
    """A function a kernel can invoke: its view and how to call it.

    Args:
        view: what the model sees (names, schemas, native types).
        invoker: called with the arguments dict; returns the value or an awaitable of it.
            ``None`` for views without an implementation (e.g. read from a tool list).
        hydrate: ``True`` when the invoker wants native values (local Python functions);
            ``False`` when it wants the JSON arguments (remote operations). The view's
            argument contract decides alike either way; only the form of what the
            invoker gets differs.
    """

    view: FunctionView
    invoker: Invoker | None = None
    hydrate: bool = True
    _decide: Callable[..., dict[str, Any]] | None = field(
        default=None, init=False, compare=False, repr=False
    )

    @classmethod
    def from_view(cls, view: FunctionView) -> KernelFunction:
        """A function that calls the view's ``native_function`` with keyword arguments."""
        fn = view.native_function
        if fn is None:
            return cls(view, None)
        return cls(view, _keywords(fn))

    @classmethod
    def from_callable(
        cls, fn: Callable[..., Any], plugin_name: str | None = None
    ) -> KernelFunction:
        """A function built from a Python callable (through ``sktypes.function_view``)."""
        from sktypes.introspect import function_view

        return cls.from_view(function_view(fn, plugin_name))

    @property
    def name(self) -> str:
        """The function name."""
        return self.view.name

    @property
    def plugin_name(self) -> str:
        """The plugin name (``""`` when it has none)."""
        return self.view.plugin_name

    @property
    def fully_qualified_name(self) -> str:
        """``Plugin.Function``."""
        return self.view.fully_qualified_name

    @property
    def description(self) -> str:
        """What the function does."""
        return self.view.description

    def prepare(self, arguments: Mapping[str, Any], *, strict: bool = False) -> dict[str, Any]:
        """The model's arguments as the invoker takes them, decided by the view's contract.

        Native values with defaults filled in (``hydrate=True``), or the coerced JSON
        values as sent (``hydrate=False``); see :class:`sktypes.hydration.ArgumentContract`.

        Raises:
            ArgumentsError: every way the arguments break the view's contract.
        """
        decide = self._decide
        if decide is None:  # the view's contract, in the form this invoker takes
            contract = argument_contract(self.view)
            decide = contract.arguments if self.hydrate else contract.json_arguments
            object.__setattr__(self, "_decide", decide)
        return decide(arguments, strict=strict)

    async def call(self, arguments: dict[str, Any]) -> Any:
        """Call the implementation with ready arguments (no validation, no filters)."""
        invoker = self.invoker
        if invoker is None:
            raise KernelError("has no implementation to call", where=self.fully_qualified_name)
        value = invoker(arguments)
        if inspect.isawaitable(value):
            value = await value
        return value

    def call_sync(self, arguments: dict[str, Any]) -> Any:
        """Call the implementation with ready arguments; an async one's awaitable is returned."""
        if self.invoker is None:
            raise KernelError("has no implementation to call", where=self.fully_qualified_name)
        return self.invoker(arguments)


def _keywords(fn: Callable[..., Any]) -> Invoker:
    def invoke(arguments: dict[str, Any]) -> Any:
        return fn(**arguments)

    invoke.__wrapped__ = fn  # type: ignore[attr-defined]  # what blocking callers inspect
    return invoke


class KernelPlugin(Mapping[str, KernelFunction]):
    """A named group of functions, looked up by function name.

    Args:
        name: the plugin name (the ``Plugin`` of ``Plugin.Function``).
        functions: its functions; their views are renamed to this plugin if needed.
        description: what the plugin is about.
    """

    __slots__ = ("_functions", "description", "name")

    def __init__(
        self, name: str, functions: Iterable[KernelFunction] = (), description: str = ""
    ) -> None:
        self.name = name
        self.description = description
        self._functions: dict[str, KernelFunction] = {}
        for f in functions:
            self.add(f)

    def add(self, function: KernelFunction) -> KernelFunction:
        """Add a function (its view takes this plugin's name); a taken name is an error."""
        if function.view.plugin_name != self.name:
            import dataclasses

            view = dataclasses.replace(function.view, plugin_name=self.name)
            function = dataclasses.replace(function, view=view)
        if function.name in self._functions:
            raise KernelError(
                f"plugin {self.name!r} already has a function {function.name!r}",
                where=function.fully_qualified_name,
            )
        self._functions[function.name] = function
        return function

    def __getitem__(self, name: str) -> KernelFunction:
        return self._functions[name]

    def __contains__(self, name: object) -> bool:
        return name in self._functions

    @overload
    def get(self, name: str, /) -> KernelFunction | None: ...
    @overload
    def get(self, name: str, /, default: KernelFunction | T) -> KernelFunction | T: ...
    def get(self, name: str, /, default: Any = None) -> Any:
        """The function called ``name``, or ``default`` (Mapping's, without its try/except)."""
        return self._functions.get(name, default)

    def __iter__(self) -> Iterator[str]:
        return iter(self._functions)

    def __len__(self) -> int:
        return len(self._functions)

    @property
    def views(self) -> list[FunctionView]:
        """The views of its functions, in the order they were added."""
        return [f.view for f in self._functions.values()]

    def __repr__(self) -> str:
        return f"KernelPlugin({self.name!r}, {list(self._functions)})"
