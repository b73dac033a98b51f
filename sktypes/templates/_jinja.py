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

The environment (:mod:`._jinja_env`) reads attributes by the one policy of every engine
and bounds the render: its output (counted here as Jinja2 streams it), every value it
builds (:attr:`TemplateLimits.max_output`) and its work (:attr:`TemplateLimits.max_steps`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import jinja2
from jinja2 import meta, nodes
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
from sktypes.templates._jinja_env import environment, prepare
from sktypes.templates._jinja_guards import BUDGET
from sktypes.templates._limits import DEFAULT_TEMPLATE_LIMITS, RenderBudget, TemplateLimits
from sktypes.templates._protocols import TemplateKernel
from sktypes.templates._safety import to_text, trusted_context
from sktypes.views import ParameterView

__all__ = ["Jinja2PromptTemplate", "Jinja2PromptTemplateFactory"]


_ASYNC_ENV = environment(enable_async=True)
"""Templates that call functions: Jinja2's async mode awaits the kernel's calls."""
_SYNC_ENV = environment(enable_async=False)
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
            undeclared = set(meta.find_undeclared_variables(tree)) - _BUILTINS  # not macros
            called = undeclared & {
                node.node.name
                for node in tree.find_all(nodes.Call)
                if isinstance(node.node, nodes.Name)
            }
            env = _ASYNC_ENV if called else _SYNC_ENV
            # Jinja2 folds constant expressions while it compiles (a filter over literals
            # runs now, once): under this template's own limits, and one that fails them is
            # left for the render, which reports it
            token = BUDGET.set(RenderBudget(self._limits, config.source_file, config.name))
            try:
                self._template: jinja2.Template = env.from_string(prepare(tree))
            finally:
                BUDGET.reset(token)
        except jinja2.TemplateSyntaxError as exc:
            at = config.place(exc.lineno)._asdict()
            raise TemplateError(exc.message or "syntax error", **at) from None
        except RecursionError:  # Jinja2's parser and compiler recurse on nested expressions
            raise TemplateError(
                "jinja2: the template nests expressions too deeply to be parsed",
                file=config.source_file,
            ) from None
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
                output or a value past :attr:`TemplateLimits.max_output`, work past
                :attr:`TemplateLimits.max_steps`...).
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
        budget = RenderBudget(self._limits, config.source_file, config.name)
        token = BUDGET.set(budget)
        parts: list[str] = []
        append = parts.append
        try:  # the output is counted here, chunk by chunk, as Jinja2 streams it
            template = self._template
            if template.environment.is_async:
                async for chunk in template.generate_async(variables):
                    budget.left -= len(chunk)
                    if budget.left < 0:
                        raise budget.error()
                    append(chunk)
            else:
                for chunk in template.generate(variables):
                    budget.left -= len(chunk)
                    if budget.left < 0:
                        raise budget.error()
                    append(chunk)
        except TemplateError as exc:  # a kernel call, or a limit
            raise in_file(exc, config.source_file) from exc.__cause__
        except jinja2.TemplateError as exc:
            raise TemplateError(f"jinja2: {exc}", **_place(config, exc)) from None
        except Exception as exc:  # e.g. a TypeError from an expression on bad values
            problem = f"jinja2: {type(exc).__name__}: {exc}"
            raise TemplateError(problem, file=config.source_file) from None
        finally:
            BUDGET.reset(token)
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
