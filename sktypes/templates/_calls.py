"""Calling kernel functions from a template: find them late, bind arguments, read the value.

Arguments a call passes: the template's own arguments whose names are parameters of the
function (all of them when it takes ``**kwargs``), then the call's positional argument
(bound to the first parameter) and its named arguments. Values are passed *raw* (never
encoded). Template text is text, so a string bound to a parameter that is not a string
(``{{p.inc '41'}}``) is hydrated to the parameter's type first (``41``); the kernel then
validates and hydrates everything as for a model's arguments.
"""

from __future__ import annotations

import collections.abc
import functools
import inspect
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sktypes.errors import HydrationError, SktypesError, TemplateError
from sktypes.hydration import hydrate
from sktypes.templates._protocols import TemplateFunction, TemplateKernel
from sktypes.views import FunctionView, ParameterView, ParameterViewType

__all__ = [
    "Blocking",
    "bind_arguments",
    "blocking_invoker",
    "find_function",
    "helper_candidates",
    "in_file",
    "invoke",
    "resolve_helper",
]


def in_file(exc: TemplateError, file: str | None) -> TemplateError:
    """``exc`` naming ``file`` (the config's source) when it names no file yet."""
    if file is None or exc.file is not None:
        return exc
    return type(exc)(exc.message, file=file, where=exc.where)


def find_function(kernel: TemplateKernel | None, name: str, where: str | None = None) -> Any:
    """Return the kernel function called ``name`` (``Plugin.function``).

    Raises:
        TemplateError: there is no kernel or no such function.
    """
    if kernel is None:
        raise TemplateError(f"the template calls {name!r} but no kernel was given", where=where)
    try:
        return kernel.get_function(name)
    except (SktypesError, LookupError) as exc:
        raise TemplateError(f"function {name!r} not found: {exc}", where=where) from None


def helper_candidates(name: str, separator: str, *, bare: bool = True) -> tuple[str, ...]:
    """The ``Plugin.function`` names a helper name such as ``plugin_function`` may stand for.

    The name is split at each ``separator`` in turn (``a_b_c`` gives ``a.b_c`` then
    ``a_b.c``), then (when ``bare``) kept whole as a bare function name.
    """
    out = [name[:i] + "." + name[i + 1 :] for i, ch in enumerate(name) if ch == separator and i]
    if bare:
        out.append(name)
    return tuple(out)


def resolve_helper(kernel: TemplateKernel | None, candidates: tuple[str, ...]) -> Any | None:
    """Return the first function the kernel has among ``candidates``, or ``None``."""
    if kernel is None:
        return None
    for candidate in candidates:
        try:
            return kernel.get_function(candidate)
        except (SktypesError, LookupError):
            continue
    return None


def bind_arguments(
    view: FunctionView,
    template_arguments: Mapping[str, Any],
    positional: Sequence[Any] = (),
    named: Mapping[str, Any] | None = None,
    where: str | None = None,
) -> dict[str, Any]:
    """Build a call's arguments (see the module docstring).

    Raises:
        TemplateError: more positional arguments than the function has parameters.
    """
    params = view.parameters
    if view.accepts_extra:
        out = dict(template_arguments)
    else:
        out = {p.name: template_arguments[p.name] for p in params if p.name in template_arguments}
    if positional:
        if len(positional) > len(params):
            raise TemplateError(
                f"{view.fully_qualified_name} takes {len(params)} parameter(s) "
                f"but the template passes {len(positional)} positional argument(s)",
                where=where,
            )
        for param, value in zip(params, positional, strict=False):
            out[param.name] = value
    if named:
        out.update(named)
    return _typed(view, out, where)


_TEXT_TYPES = frozenset({ParameterViewType.STRING, None})
_TYPED: dict[int, tuple[FunctionView, dict[str, ParameterView]]] = {}


def _typed_parameters(view: FunctionView) -> dict[str, ParameterView]:
    """The view's parameters that are not text, by name.

    Cached by identity: hashing a view hashes every schema, which would cost more than
    the lookup saves.
    """
    hit = _TYPED.get(id(view))
    if hit is not None and hit[0] is view:
        return hit[1]
    found = {p.name: p for p in view.parameters if p.type not in _TEXT_TYPES}
    if len(_TYPED) > 4096:
        _TYPED.clear()
    _TYPED[id(view)] = (view, found)
    return found


def _typed(view: FunctionView, arguments: dict[str, Any], where: str | None) -> dict[str, Any]:
    """Plain ``str`` for text; strings bound to non-string parameters hydrated to their type."""
    typed = _typed_parameters(view)
    for name, value in arguments.items():
        if type(value) is not str and isinstance(value, str):  # Raw, Markup: plain text
            value = arguments[name] = str.__str__(value)
        param = typed.get(name)
        if param is None or not isinstance(value, str):
            continue
        text = value
        try:
            arguments[name] = hydrate(param, text)
        except HydrationError as exc:
            raise TemplateError(
                f"argument {name!r} of {view.fully_qualified_name}: {exc.message}", where=where
            ) from None
    return arguments


async def invoke(
    kernel: TemplateKernel | None,
    function: TemplateFunction,
    arguments: Mapping[str, Any],
    where: str | None = None,
) -> Any:
    """Invoke ``function`` through the kernel and return the native value of its result.

    Raises:
        TemplateError: the function failed; the message names it and the place.
    """
    assert kernel is not None  # a function was found, so there is a kernel
    name = function.view.fully_qualified_name
    try:
        result = await kernel.invoke(function, arguments)
    except SktypesError as exc:
        raise TemplateError(f"calling {name}: {exc}", where=where) from exc
    except Exception as exc:
        raise TemplateError(
            f"calling {name} failed: {type(exc).__name__}: {exc}", where=where
        ) from exc
    return getattr(result, "value", result)


Blocking = Callable[[Mapping[str, Any], str | None], Any]
"""``(arguments, where)``: invokes through the kernel without awaiting; the native value."""


def blocking_invoker(kernel: TemplateKernel | None, function: Any) -> Blocking | None:
    """A blocking call of ``function`` through ``kernel`` when it cannot suspend, else ``None``.

    That is when ``kernel`` is a :class:`sktypes.kernel.Kernel` (its ``invoke`` not
    overridden) without filters, and ``function`` calls a plain Python function (not
    ``async``, nothing it wraps is, not annotated to return an awaitable): ``Kernel.invoke``
    would then never await anything, so running its steps inline (``prepare_arguments``,
    then the function) *is* the call — same validation, hydration and errors, reported as
    :func:`invoke` reports them — and a template can render synchronously (Jinja2's sync
    mode is about a third faster than its async mode).
    """
    kernel_class = _kernel_class()
    if (
        not isinstance(kernel, kernel_class)
        or type(kernel).invoke is not kernel_class.invoke
        or kernel.filters
        or not _plain_function(function)
    ):
        return None
    name = function.view.fully_qualified_name
    prepare = kernel_prepare()

    def call(arguments: Mapping[str, Any], where: str | None) -> Any:
        try:  # Kernel.invoke without filters: prepare, call (see its fast path)
            value = function.invoker(prepare(function, dict(arguments)))
            if inspect.isawaitable(value):
                value = _finish_now(value)
        except _Waits:
            raise TemplateError(
                f"calling {name}: it returned an awaitable that waits for something; "
                "declare it `async def` so templates await it",
                where=where,
            ) from None
        except SktypesError as exc:
            raise TemplateError(f"calling {name}: {exc}", where=where) from exc
        except Exception as exc:
            problem = f"calling {name} failed: {type(exc).__name__}: {exc}"
            raise TemplateError(problem, where=where) from exc
        return value

    return call


class _Waits(Exception):
    """An awaitable returned by a plain function suspended: it needs an event loop."""


def _finish_now(awaitable: Any) -> Any:
    """The value of an awaitable that completes without waiting; :class:`_Waits` otherwise."""
    steps = awaitable.__await__()
    try:
        steps.send(None)
    except StopIteration as done:
        return done.value
    close = getattr(steps, "close", None)
    if close is not None:
        close()
    raise _Waits


@functools.cache
def kernel_prepare() -> Callable[[Any, dict[str, Any]], dict[str, Any]]:
    """``sktypes.kernel.prepare_arguments`` (imported late: the kernel imports content)."""
    from sktypes.kernel import prepare_arguments

    return prepare_arguments


@functools.cache
def _kernel_class() -> type[Any]:
    from sktypes.kernel import Kernel

    return Kernel


_PLAIN_FUNCTIONS: dict[int, tuple[Any, bool]] = {}


def _plain_function(function: Any) -> bool:
    """Whether ``function`` calls a plain Python function (cached by identity)."""
    hit = _PLAIN_FUNCTIONS.get(id(function))
    if hit is not None and hit[0] is function:
        return hit[1]
    from sktypes.kernel import KernelFunction

    plain = False
    if isinstance(function, KernelFunction):
        native = function.view.native_function
        plain = (
            native is not None
            and getattr(function.invoker, "__wrapped__", None) is native
            and not _may_suspend(native)
            and not _awaitable_type(function.view.return_parameter.native_type)
        )
    if len(_PLAIN_FUNCTIONS) > 4096:
        _PLAIN_FUNCTIONS.clear()
    _PLAIN_FUNCTIONS[id(function)] = (function, plain)
    return plain


def _may_suspend(fn: Any) -> bool:
    """Whether calling ``fn`` may give an awaitable: it, or anything it wraps, is ``async``.

    Sees through ``functools.partial``, callable objects and decorators that set
    ``__wrapped__`` (``functools.wraps`` around an ``async def``).
    """
    seen: set[int] = set()
    while id(fn) not in seen:
        seen.add(id(fn))
        if isinstance(fn, functools.partial):
            fn = fn.func
            continue
        target = fn if inspect.isfunction(fn) or inspect.ismethod(fn) else type(fn).__call__
        if inspect.iscoroutinefunction(target) or inspect.isasyncgenfunction(target):
            return True
        wrapped = getattr(fn, "__wrapped__", None)
        if wrapped is None:
            return False
        fn = wrapped
    return False


def _awaitable_type(tp: Any) -> bool:
    origin = typing.get_origin(tp) or tp
    return isinstance(origin, type) and issubclass(origin, collections.abc.Awaitable)
