"""The ``jinja2`` format: a sandboxed Jinja2 template, compiled once, public API only.

Kernel functions are callables named ``plugin_function`` (Jinja2 names cannot hold ``-``),
found in the kernel at render time. A call goes through the kernel's one call path
(``Kernel.invoke``) and returns the function's typed value (so
``{% for x in plugin_list() %}`` works); a template that calls functions is compiled in
Jinja2's async mode, which awaits them. Whatever an expression prints is encoded by
Jinja2's own autoescaping (markupsafe), so values never become template code and cannot
open or close a ``<message>``; trusted values are passed as ``Markup``, macros' output is
not encoded twice, and ``|safe`` is the template author's explicit opt-out. Containers,
models and dataclasses print as JSON (the ``finalize`` hook), then are encoded.

Only Jinja2's documented API is used (the sandbox's operator interception, ``filters``,
``is_safe_attribute``, ``generate``/``generate_async``), so a Jinja2 release cannot change
rendering behind sktypes' back. The rendered size is bounded
(:attr:`TemplateLimits.max_output`): the output is counted as Jinja2 streams it, and the
operators and filters that can build a huge string in one step (``*``, ``**``, ``%``,
``+``, ``center``, ``indent``, ``format``, ``replace``) check their result's size first;
``str`` methods that pad to a width (``ljust``, ``format``…) are not callable.
"""

from __future__ import annotations

import contextvars
import functools
import inspect
import re
from collections.abc import Callable, Mapping
from typing import Any

import jinja2
from jinja2 import meta, nodes
from jinja2.exceptions import SecurityError
from jinja2.runtime import Context
from jinja2.sandbox import ImmutableSandboxedEnvironment
from markupsafe import Markup

from sktypes.errors import Location, TemplateError, UnknownTemplateFormatError
from sktypes.templates._calls import (
    bind_arguments,
    helper_candidates,
    in_file,
    invoke,
    kernel_finder,
    resolve_helper,
)
from sktypes.templates._config import (
    JINJA2_FORMAT,
    PromptTemplateConfig,
    merged_arguments,
    template_parameters,
)
from sktypes.templates._limits import DEFAULT_TEMPLATE_LIMITS, OutputBudget, TemplateLimits
from sktypes.templates._protocols import TemplateKernel
from sktypes.templates._safety import to_text, trusted_context
from sktypes.views import ParameterView

__all__ = ["Jinja2PromptTemplate", "Jinja2PromptTemplateFactory"]


def _finalize(value: Any) -> Any:
    """Text for what an expression prints; Jinja2's autoescaping then encodes it."""
    if isinstance(value, str):  # str and Markup (trusted): autoescape decides
        return value
    if isinstance(value, jinja2.Undefined):
        return ""
    return to_text(value)


_LIMIT: contextvars.ContextVar[int] = contextvars.ContextVar(
    "sktypes_template_limit", default=DEFAULT_TEMPLATE_LIMITS.max_output
)
"""The output limit of the render in progress (what the size guards compare with)."""


class _TooBig(SecurityError):
    """A guarded operation would build a string past the output limit."""


def _too_big(what: str) -> _TooBig:
    return _TooBig(
        f"{what} would be longer than the output limit of {_LIMIT.get():,} "
        "characters (TemplateLimits.max_output)"
    )


def _size(value: Any) -> int:
    """The length of a sized value (``0`` for numbers and the like)."""
    try:
        return len(value) if isinstance(value, (str, bytes, list, tuple)) else 0
    except TypeError:  # pragma: no cover - every type above has a length
        return 0


_WIDTHS = re.compile(r"%(?:\([^)]*\))?[#0 +\-]*(\*|\d+)?(?:\.(\*|\d+))?")


def _check_percent(template: Any) -> None:
    """``text % args``: refuse ``*`` widths and widths past the limit."""
    if not isinstance(template, str):
        return
    limit = _LIMIT.get()
    for width, precision in _WIDTHS.findall(template):
        for number in (width, precision):
            if number == "*" or (number and len(number) > 9) or (number and int(number) > limit):
                raise _too_big("a %-format with that width")


class _Environment(ImmutableSandboxedEnvironment):
    """The immutable sandbox, with size guards on the operators that multiply text."""

    intercepted_binops = frozenset({"*", "**", "%", "+"})

    def call_binop(self, context: Context, operator: str, left: Any, right: Any) -> Any:
        """Run ``left operator right`` after checking the result cannot be huge."""
        limit = _LIMIT.get()
        if operator == "*":
            for seq, times in ((left, right), (right, left)):
                if isinstance(times, int) and _size(seq) * max(times, 0) > limit:
                    raise _too_big("a repeated text or list")
        elif operator == "**":
            if (
                isinstance(left, int)
                and isinstance(right, int)
                and right > 0
                and abs(left) > 1
                and abs(left).bit_length() * right > 4 * limit
            ):
                raise _too_big("a power")
        elif operator == "%":
            _check_percent(left)
        elif operator == "+" and _size(left) + _size(right) > limit:
            raise _too_big("a concatenation")
        return super().call_binop(context, operator, left, right)

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        """The sandbox's answer, minus ``str`` methods that pad text to any width."""
        if isinstance(obj, str) and attr in _PADDING_METHODS:
            return False
        return super().is_safe_attribute(obj, attr, value)


_PADDING_METHODS = frozenset(
    {"ljust", "rjust", "center", "zfill", "expandtabs", "format", "format_map"}
)


def _guarded(name: str, check: Callable[[Mapping[str, Any]], None], env: _Environment) -> None:
    """Replace filter ``name`` by one that runs ``check`` on its named arguments first.

    The arguments are bound to the filter's own signature (its documented parameter names:
    ``s``, ``value``, ``width``, ``old``, ``new``, ``count``), whatever Jinja2 passes first.
    """
    original = env.filters[name]
    signature = inspect.signature(original)

    @functools.wraps(original)  # keeps the markers of pass_eval_context & co.
    def guarded(*args: Any, **kwargs: Any) -> Any:
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError:  # wrong arguments: the filter reports them itself
            return original(*args, **kwargs)
        bound.apply_defaults()
        check(bound.arguments)
        return original(*args, **kwargs)

    env.filters[name] = guarded


def _first(arguments: Mapping[str, Any]) -> Any:
    return arguments.get("s", arguments.get("value", ""))


def _center_check(arguments: Mapping[str, Any]) -> None:
    width = arguments.get("width", 0)
    if isinstance(width, int) and width > _LIMIT.get():
        raise _too_big("a centered text")


def _indent_check(arguments: Mapping[str, Any]) -> None:
    width = arguments.get("width", 4)
    lines = str(_first(arguments)).count("\n") + 1
    size = len(width) if isinstance(width, str) else width if isinstance(width, int) else 0
    if size * lines > _LIMIT.get():
        raise _too_big("an indented text")


def _format_check(arguments: Mapping[str, Any]) -> None:
    _check_percent(_first(arguments))


def _replace_check(arguments: Mapping[str, Any]) -> None:
    text, old, new = str(_first(arguments)), str(arguments["old"]), str(arguments["new"])
    count = arguments.get("count")
    grows = len(new) - len(old)
    if grows > 0:
        hits = text.count(old) if old else len(text) + 1
        if isinstance(count, int) and count >= 0:
            hits = min(hits, count)
        if len(text) + hits * grows > _LIMIT.get():
            raise _too_big("a replacement")


def _environment(enable_async: bool) -> _Environment:
    env = _Environment(enable_async=enable_async, autoescape=True, finalize=_finalize)
    _guarded("center", _center_check, env)
    _guarded("indent", _indent_check, env)
    _guarded("format", _format_check, env)
    _guarded("replace", _replace_check, env)
    return env


_ASYNC_ENV = _environment(enable_async=True)
"""Templates that call functions: Jinja2's async mode awaits the kernel's calls."""
_SYNC_ENV = _environment(enable_async=False)
"""Templates that call nothing render synchronously (about a third faster)."""
_BUILTINS = frozenset(_ASYNC_ENV.globals)  # range, dict, namespace...: never kernel functions


class Jinja2PromptTemplate:
    """A Jinja2 template rendered in a sandbox.

    Args:
        config: the config; its ``template`` is compiled now.
        limits: the output bound (:data:`DEFAULT_TEMPLATE_LIMITS`).

    Raises:
        TemplateError: a Jinja2 syntax error (the message names the line).
    """

    __slots__ = (
        "_config",
        "_defaults",
        "_functions",
        "_limits",
        "_parameters",
        "_template",
        "_trusted",
    )

    def __init__(self, config: PromptTemplateConfig, limits: TemplateLimits | None = None) -> None:
        self._config = config
        self._limits = limits or DEFAULT_TEMPLATE_LIMITS
        try:
            tree = _SYNC_ENV.parse(config.template)
        except jinja2.TemplateSyntaxError as exc:
            at = config.place(exc.lineno)._asdict()
            raise TemplateError(exc.message or "syntax error", **at) from None
        undeclared = set(meta.find_undeclared_variables(tree)) - _BUILTINS  # not macros, sets
        called = undeclared & {
            node.node.name
            for node in tree.find_all(nodes.Call)
            if isinstance(node.node, nodes.Name)
        }
        environment = _ASYNC_ENV if called else _SYNC_ENV
        self._template: jinja2.Template = environment.from_string(tree)
        self._functions = tuple((name, helper_candidates(name, "_")) for name in sorted(called))
        self._defaults = config.defaults()
        self._trusted = config.trusted_names()
        self._parameters = template_parameters(config, sorted(undeclared - called))

    @property
    def config(self) -> PromptTemplateConfig:
        """The configuration the template was created from."""
        return self._config

    @property
    def parameters(self) -> tuple[ParameterView, ...]:
        """The config's input variables plus every variable the template reads."""
        return self._parameters

    async def render(
        self, kernel: TemplateKernel | None = None, arguments: Mapping[str, Any] | None = None
    ) -> str:
        """Render the template; functions it calls are looked up in ``kernel`` now.

        Raises:
            TemplateError: rendering failed (a sandbox violation, a failing function, an
                output past :attr:`TemplateLimits.max_output`...).
        """
        config = self._config
        raw_args = merged_arguments(self._defaults, arguments or {})
        variables = trusted_context(raw_args, self._trusted, Markup)
        if variables is raw_args:
            variables = dict(raw_args)
        find = kernel_finder(kernel)
        trust = config.allow_dangerously_set_content
        for name, candidates in self._functions:
            if name not in raw_args:
                function = resolve_helper(kernel, candidates, find)
                if function is None:
                    variables[name] = _missing(kernel, name, candidates)
                else:
                    variables[name] = _KernelCall(kernel, function, name, raw_args, trust)
        budget = OutputBudget(self._limits.max_output, config.source_file, config.name)
        token = _LIMIT.set(self._limits.max_output)
        parts: list[str] = []
        append = parts.append
        left = budget.limit  # counted here, chunk by chunk, as Jinja2 streams the output
        try:
            template = self._template
            if template.environment.is_async:
                async for chunk in template.generate_async(variables):
                    left -= len(chunk)
                    if left < 0:
                        raise budget.error()
                    append(chunk)
            else:
                for chunk in template.generate(variables):
                    left -= len(chunk)
                    if left < 0:
                        raise budget.error()
                    append(chunk)
        except TemplateError as exc:
            raise in_file(exc, config.source_file) from exc.__cause__
        except _TooBig as exc:
            at = _place(config, exc)
            raise TemplateError(f"{budget.subject}: {exc}", **at) from None
        except jinja2.TemplateError as exc:
            raise TemplateError(f"jinja2: {exc}", **_place(config, exc)) from None
        except Exception as exc:  # e.g. a TypeError from an expression on bad values
            problem = f"jinja2: {type(exc).__name__}: {exc}"
            raise TemplateError(problem, file=config.source_file) from None
        finally:
            _LIMIT.reset(token)
        return "".join(parts)


class _KernelCall:
    """A kernel function as a Jinja2 callable: binds the call's arguments, then invokes.

    Calling it returns the invocation's coroutine, which Jinja2's async mode awaits. Its
    attributes start with ``_``, which the sandbox never lets a template read: a template
    can call it, not reach the kernel or the function through it.
    """

    __slots__ = ("_arguments", "_function", "_kernel", "_name", "_trust")

    def __init__(
        self,
        kernel: TemplateKernel | None,
        function: Any,
        name: str,
        arguments: Mapping[str, Any],
        trust: bool,
    ) -> None:
        self._kernel, self._function = kernel, function
        self._name, self._arguments, self._trust = name, arguments, trust

    async def __call__(self, *positional: Any, **named: Any) -> Any:
        bound = bind_arguments(
            self._function.view, self._arguments, positional, named, where=self._name
        )
        value = await invoke(self._kernel, self._function, bound, where=self._name)
        return Markup(to_text(value)) if self._trust else value


def _missing(
    kernel: TemplateKernel | None, name: str, tried: tuple[str, ...]
) -> Callable[..., Any]:
    """A stand-in for a function the kernel does not have: calling it is the error."""

    def call(*_: Any, **__: Any) -> Any:
        if kernel is None:
            raise TemplateError(f"the template calls {name!r} but no kernel was given")
        raise TemplateError(f"{name}(): no such function in the kernel (tried {', '.join(tried)})")

    return call


class Jinja2PromptTemplateFactory:
    """Creates ``jinja2`` templates.

    Args:
        limits: the output bound for the templates it creates.
    """

    __slots__ = ("limits",)

    def __init__(self, limits: TemplateLimits | None = None) -> None:
        self.limits = limits

    def create(self, config: PromptTemplateConfig) -> Jinja2PromptTemplate:
        """Compile ``config.template`` and return the template.

        Raises:
            UnknownTemplateFormatError: the format is not ``jinja2``.
            TemplateError: a Jinja2 syntax error.
        """
        if config.template_format != JINJA2_FORMAT:
            raise UnknownTemplateFormatError(
                f"Jinja2PromptTemplateFactory handles {JINJA2_FORMAT!r}, "
                f"not {config.template_format!r}"
            )
        return Jinja2PromptTemplate(config, self.limits)


def _place(config: PromptTemplateConfig, exc: Exception) -> dict[str, Any]:
    """The place of a Jinja2 error (its line when Jinja2 knows it) as error keywords."""
    lineno = getattr(exc, "lineno", None)
    return (config.place(lineno) if lineno else Location(config.source_file))._asdict()
