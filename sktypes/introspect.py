"""Python callables → function views.

``function_view`` reads a callable's signature, type hints (``from __future__ import
annotations`` included), ``Annotated`` metadata, pydantic ``Field``s, ``@kernel_function``
metadata and its docstring (Google, NumPy or reST, through docstring-parser).
Functions marked with Semantic Kernel's own ``@kernel_function`` are read as well, so
Semantic Kernel plugins become views unchanged.

Rules worth knowing:

- ``self``/``cls`` are skipped; ``functools.partial`` hides the arguments it binds.
- A parameter without a default is required, even when its type admits ``None``.
- ``**kwargs`` lets the arguments object carry extra keys (``accepts_extra``); ``*args``
  cannot be passed by name, so it is skipped with a :class:`SktypesWarning`.
- ``async def`` and ``Awaitable[T]`` return ``T``; ``AsyncIterator[T]`` returns ``T``
  with ``is_streaming`` set; ``None`` (or no annotation) means no return schema.
- Views are cached per function: the second view of a function costs a dict lookup.
- sktypes' decorator keeps its metadata under ``__sktypes_function__``; Semantic Kernel's
  writes ``__kernel_function__`` and friends, which are read (never written) here. In a
  Semantic Kernel function, the parameters Semantic Kernel fills in itself (``kernel``,
  ``service``, ``execution_settings``, ``arguments``, and any annotated with
  ``{"include_in_function_choices": False}``) are not the model's and stay out of the view.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import types
import typing
import warnings
from collections.abc import Callable, Iterable
from typing import Any, ParamSpec, TypeVar, overload

from sktypes._callable_parts import (
    _describe,
    _hints,
    _parameter,
    _parse_docstring,
    _return_view,
)
from sktypes._callable_parts import native_schema as native_schema  # re-exported: was here
from sktypes._identity import WeakCache
from sktypes.errors import IntrospectionError
from sktypes.views import FunctionView, ParameterView

__all__ = [
    "KernelFunctionInfo",
    "SktypesWarning",
    "function_view",
    "kernel_function",
    "kernel_function_info",
    "plugin_views",
]

P = ParamSpec("P")
R = TypeVar("R")

_MARK = "__sktypes_function__"
_SK_MARK = "__kernel_function__"  # Semantic Kernel's decorator sets it to True
_SK_INJECTED = frozenset({"kernel", "service", "execution_settings", "arguments"})
"""Parameters Semantic Kernel passes to its functions from the invocation, not from the model."""


class SktypesWarning(UserWarning):
    """Something was left out of a view on purpose (e.g. ``*args``)."""


@dataclasses.dataclass(frozen=True, slots=True)
class KernelFunctionInfo:
    """What ``@kernel_function`` records on a callable.

    ``semantic_kernel`` is set when the mark is Semantic Kernel's own decorator's.
    """

    name: str | None = None
    description: str | None = None
    semantic_kernel: bool = False


@overload
def kernel_function(fn: Callable[P, R], /) -> Callable[P, R]: ...
@overload
def kernel_function(
    fn: None = None, /, *, name: str | None = None, description: str | None = None
) -> Callable[[Callable[P, R]], Callable[P, R]]: ...
def kernel_function(
    fn: Any = None, /, *, name: str | None = None, description: str | None = None
) -> Any:
    """Mark a function or method as a kernel function, optionally renaming or describing it.

    Usable bare (``@kernel_function``) or with arguments; above or below
    ``@staticmethod``/``@classmethod``. The callable itself is returned unchanged.
    """
    info = KernelFunctionInfo(name=name, description=description)

    def mark(target: Any) -> Any:
        inner = target.__func__ if isinstance(target, (staticmethod, classmethod)) else target
        setattr(inner, _MARK, info)
        return target

    return mark if fn is None else mark(fn)


def kernel_function_info(fn: Any) -> KernelFunctionInfo | None:
    """What marks ``fn`` as a kernel function (sktypes' or Semantic Kernel's), or ``None``.

    Semantic Kernel's decorator defaults the description to the whole docstring; that
    default is not taken as an explicit description, so the docstring is parsed as usual
    (summary as the description, ``Args:`` entries as parameter descriptions).
    """
    found = getattr(fn, _MARK, None)
    if isinstance(found, KernelFunctionInfo):
        return found
    if getattr(fn, _SK_MARK, None) is not True:
        return None
    name = getattr(fn, "__kernel_function_name__", None)
    description = getattr(fn, "__kernel_function_description__", None)
    if description == getattr(fn, "__doc__", None):
        description = None
    return KernelFunctionInfo(
        name=name if isinstance(name, str) else None,
        description=description if isinstance(description, str) else None,
        semantic_kernel=True,
    )


_info = kernel_function_info


# --- the view of one callable -------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class _Target:
    """What to introspect: the function holding hints/docs, and how to call it."""

    func: Callable[..., Any]
    signature: inspect.Signature
    skip_first: bool
    name: str
    default_plugin: str


def _target(fn: Any) -> _Target:
    if isinstance(fn, (staticmethod, classmethod)):
        return _target(fn.__func__)
    if isinstance(fn, functools.partial):
        inner = _target(fn.func)
        try:
            sig = inspect.signature(fn)
        except (TypeError, ValueError) as exc:
            raise IntrospectionError(f"cannot read the signature of {fn!r}: {exc}") from None
        return dataclasses.replace(inner, signature=sig, skip_first=False)
    if inspect.ismethod(fn):
        func = fn.__func__
        owner: type = fn.__self__ if isinstance(fn.__self__, type) else type(fn.__self__)
        return _Target(func, _signature(func), True, func.__name__, owner.__name__)
    if inspect.isfunction(fn):
        qual = fn.__qualname__.split(".")
        is_method = len(qual) > 1 and qual[-2] != "<locals>"
        params = list(_signature(fn).parameters)
        skip = is_method and bool(params) and params[0] in ("self", "cls")
        return _Target(fn, _signature(fn), skip, fn.__name__, qual[-2] if is_method else "")
    call = vars(type(fn)).get("__call__") if callable(fn) else None
    if not isinstance(fn, type) and inspect.isfunction(call):
        return _Target(call, _signature(call), True, type(fn).__name__, "")
    raise IntrospectionError(f"{fn!r} is not a function, method or callable object")


def _signature(fn: Callable[..., Any]) -> inspect.Signature:
    try:
        return inspect.signature(fn)
    except (TypeError, ValueError) as exc:
        raise IntrospectionError(f"cannot read the signature of {fn!r}: {exc}") from None


# function -> {(owner, plugin_name): view}; weak, so functions made per request are freed
_VIEWS: WeakCache[Callable[..., Any], dict[tuple[Any, ...], FunctionView]] = WeakCache()


def function_view(fn: Callable[..., Any], plugin_name: str | None = None) -> FunctionView:
    """Return the :class:`FunctionView` of a callable.

    Args:
        fn: a function, bound or unbound method, static/class method, async function,
            callable instance or ``functools.partial``.
        plugin_name: the plugin it belongs to; defaults to the owning class's name for
            methods and to ``""`` for plain functions.

    Raises:
        IntrospectionError: a hint cannot be resolved or a type has no JSON Schema; the
            message names the function and the parameter.

    Examples:
        >>> import sktypes as sk
        >>> def book(room: int, note: str | None = None) -> bool:
        ...     '''Book a room.'''
        ...     return True
        >>> view = sk.function_view(book, plugin_name="Hotel")
        >>> view.fully_qualified_name, [p.name for p in view.parameters if p.is_required]
        ('Hotel.book', ['room'])
        >>> view.return_parameter.schema.to_python()
        {'type': 'boolean'}
    """
    key = _cache_key(fn, plugin_name)
    slot = _VIEWS.get(key[0]) if key is not None else None
    cached = slot.get(key[1]) if slot is not None and key is not None else None
    if cached is None:
        target = _target(fn)
        built = _build(target, plugin_name if plugin_name is not None else target.default_plugin)
        cached = dataclasses.replace(built, native_function=fn)
        if key is not None:
            slot = _VIEWS.get(key[0]) or _VIEWS.put(key[0], {})
            slot[key[1]] = cached
    if cached.native_function is fn:
        return cached  # a plain function: the cached view itself
    return dataclasses.replace(cached, native_function=fn)  # a fresh bound method


def _cache_key(fn: Any, plugin_name: str | None) -> tuple[Any, tuple[Any, ...]] | None:
    if inspect.ismethod(fn):
        owner = fn.__self__ if isinstance(fn.__self__, type) else type(fn.__self__)
        return (fn.__func__, (owner, plugin_name))
    if inspect.isfunction(fn):
        return (fn, (None, plugin_name))
    return None  # partials and callable instances: built each time (they carry state)


def _build(target: _Target, plugin_name: str) -> FunctionView:
    func = target.func
    info = _info(func)
    where = f"{getattr(func, '__module__', '?')}.{getattr(func, '__qualname__', target.name)}"
    hints = _hints(func, where)
    doc = _parse_docstring(inspect.getdoc(func) or "")
    param_docs = {p.arg_name: p.description for p in doc.params if p.description}
    params: list[ParameterView] = []
    accepts_extra = False
    items = list(target.signature.parameters.values())
    if target.skip_first and items:
        items = items[1:]
    for param in items:
        if param.kind is inspect.Parameter.VAR_KEYWORD:
            accepts_extra = True
            continue
        if param.kind is inspect.Parameter.VAR_POSITIONAL:
            warnings.warn(
                f"{where}: *{param.name} cannot be passed by name and is left out of the view",
                SktypesWarning,
                stacklevel=3,
            )
            continue
        hint = hints.get(param.name, Any if param.annotation is param.empty else param.annotation)
        if info is not None and info.semantic_kernel and _sk_injected(param.name, hint):
            continue
        params.append(_parameter(param, hint, param_docs.get(param.name), where))
    name = (info.name if info and info.name else None) or target.name
    description = (info.description if info and info.description else None) or _describe(doc)
    returns = _return_view(func, hints.get("return", inspect.Signature.empty), doc, where)
    return FunctionView(
        name=name,
        plugin_name=plugin_name,
        description=description,
        parameters=tuple(params),
        return_parameter=returns,
        accepts_extra=accepts_extra,
    )


def _sk_injected(name: str, hint: Any) -> bool:
    """Whether Semantic Kernel fills this parameter of its function in itself."""
    if name in _SK_INJECTED:
        return True
    if typing.get_origin(hint) is typing.Annotated:
        return any(
            isinstance(m, dict) and m.get("include_in_function_choices") is False
            for m in hint.__metadata__
        )
    return False


# --- plugins: classes, instances, modules -------------------------------------------


def plugin_views(obj: Any, plugin_name: str | None = None) -> list[FunctionView]:
    """Return the views of every ``@kernel_function`` member of a class, instance or module.

    Members marked with Semantic Kernel's ``@kernel_function`` count too.

    The plugin name defaults to the class name (for classes and instances) or the last
    component of the module name. Views of an instance's methods are bound to it; views
    of a class's instance methods hold the plain function (bind an instance to call them).

    A class that carries its views (``__function_views__``, as generated OpenAPI plugins do,
    see :mod:`sktypes.generated`) returns those: the spec's own views, named as
    ``load_openapi`` names them, bound to the methods.

    Raises:
        IntrospectionError: ``obj`` has no ``@kernel_function`` members.
    """
    carried = getattr(obj, "__function_views__", None)
    if callable(carried) and not isinstance(obj, types.ModuleType):
        views = list(carried())
        if plugin_name is not None:
            views = [dataclasses.replace(v, plugin_name=plugin_name) for v in views]
        if views:
            return views
    if isinstance(obj, types.ModuleType):
        name = plugin_name or obj.__name__.rsplit(".", 1)[-1]
        members = [(n, v) for n, v in vars(obj).items() if _info(v) is not None]
        views = [function_view(v, name) for _, v in members]
        where = obj.__name__
    else:
        cls = obj if isinstance(obj, type) else type(obj)
        name = plugin_name or cls.__name__
        views = []
        for attr in _marked_members(cls):
            bound = getattr(obj, attr)
            views.append(function_view(bound, name))
        where = cls.__qualname__
    if not views:
        raise IntrospectionError("has no @kernel_function members", where=where)
    return views


def _marked_members(cls: type) -> Iterable[str]:
    seen: set[str] = set()
    for klass in reversed(cls.__mro__):
        for attr, value in vars(klass).items():
            inner = value.__func__ if isinstance(value, (staticmethod, classmethod)) else value
            if _info(inner) is not None and attr not in seen:
                seen.add(attr)
    order = {a: i for i, a in enumerate(_definition_order(cls))}
    return sorted(seen, key=lambda a: order.get(a, len(order)))


def _definition_order(cls: type) -> list[str]:
    out: list[str] = []
    for klass in reversed(cls.__mro__):
        for attr in vars(klass):
            if attr not in out:
                out.append(attr)
    return out
