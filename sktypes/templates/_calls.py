"""Calling kernel functions from a template: find them late, bind arguments, invoke.

Arguments a call passes: the template's own arguments whose names are parameters of the
function (all of them when it takes ``**kwargs``), then the call's positional argument
(bound to the first parameter) and its named arguments. Values are passed *raw* (never
encoded). Template text is text, so a string bound to a parameter that is not a string
(``{{p.inc '41'}}``) is read as the JSON it holds (``41``, a list, an object; repaired as
:func:`sktypes.hydrate` repairs it), and text that is not JSON stays text. The call is then
``kernel.invoke`` — for a :class:`sktypes.kernel.Kernel`, its one call path: the view's
argument contract decides about the arguments (and refuses them in the words it uses at
every other door), filters run, whatever the function returns is awaited — as for a
model's call.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import orjson

from sktypes.errors import HydrationError, SktypesError, TemplateError
from sktypes.hydration import hydrate
from sktypes.templates._protocols import TemplateFunction, TemplateKernel
from sktypes.views import FunctionView, ParameterView, ParameterViewType, derived

__all__ = [
    "bind_arguments",
    "find_function",
    "helper_candidates",
    "in_file",
    "invoke",
    "kernel_finder",
    "resolve_helper",
]


def in_file(exc: TemplateError, file: str | None) -> TemplateError:
    """``exc`` naming ``file`` (the config's source) when it names no file yet."""
    if file is None or exc.file is not None:
        return exc
    return type(exc)(exc.message, **exc.location()._replace(file=file)._asdict())


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


def kernel_finder(kernel: TemplateKernel | None) -> Callable[[str], Any] | None:
    """``Kernel.find_function`` of a :class:`sktypes.kernel.Kernel` whose lookup is its own.

    ``None`` for any other kernel. Found once per render, for :func:`resolve_helper`.
    """
    kernel_class = _kernel_class()
    if isinstance(kernel, kernel_class) and type(kernel).get_function is kernel_class.get_function:
        find: Callable[[str], Any] = kernel.find_function
        return find
    return None


def resolve_helper(
    kernel: TemplateKernel | None,
    candidates: tuple[str, ...],
    find: Callable[[str], Any] | None = None,
) -> Any | None:
    """Return the first function the kernel has among ``candidates``, or ``None``.

    With ``find`` (:func:`kernel_finder`), a miss costs no error (whose message would
    suggest close names): a Jinja2 name such as ``my_plugin_get`` tries ``my.plugin_get``
    first on every render.
    """
    if kernel is None:
        return None
    for candidate in candidates:
        if find is not None:
            function = find(candidate)
            if function is not None:
                return function
            continue
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
    names, typed = derived(view, _shape, _shape)
    if view.accepts_extra:
        out = dict(template_arguments)
    else:
        out = {n: template_arguments[n] for n in names if n in template_arguments}
    if positional:
        if len(positional) > len(names):
            raise TemplateError(
                f"{view.fully_qualified_name} takes {len(names)} parameter(s) "
                f"but the template passes {len(positional)} positional argument(s)",
                where=where,
            )
        for param_name, value in zip(names, positional, strict=False):
            out[param_name] = value
    if named:
        out.update(named)
    for name, value in out.items():
        if type(value) is str:
            if name in typed:
                out[name] = _json_of(value)
        elif isinstance(value, str):  # Raw, Markup: plain text
            text = out[name] = str.__str__(value)
            if name in typed:
                out[name] = _json_of(text)
    return out


_TEXT_TYPES = frozenset({ParameterViewType.STRING, None})


def _shape(view: FunctionView) -> tuple[tuple[str, ...], dict[str, ParameterView]]:
    """The view's parameter names, and its parameters that are not text, by name.

    Derived once per view and kept with it (:func:`sktypes.views.derived`).
    """
    names = tuple(p.name for p in view.parameters)
    typed = {p.name: p for p in view.parameters if p.type not in _TEXT_TYPES}
    return names, typed


def _json_of(text: str) -> Any:
    """Template text bound to a parameter that is not a string: the JSON it holds, else itself.

    Reading it is not deciding about it: the function's argument contract does that when
    the kernel invokes it (``'many'`` for an ``int`` is refused there, with the path).
    """
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        pass
    if text.lstrip()[:1] in ("{", "["):
        try:
            return hydrate({}, text)  # any JSON value, repaired (single quotes, commas...)
        except HydrationError:
            pass
    return text


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
    try:
        result = await kernel.invoke(function, arguments)
    except SktypesError as exc:
        name = function.view.fully_qualified_name
        raise TemplateError(f"calling {name}: {exc}", where=where) from exc
    except Exception as exc:
        name = function.view.fully_qualified_name
        raise TemplateError(
            f"calling {name} failed: {type(exc).__name__}: {exc}", where=where
        ) from exc
    return getattr(result, "value", result)


@functools.cache
def _kernel_class() -> type[Any]:
    from sktypes.kernel import Kernel

    return Kernel
