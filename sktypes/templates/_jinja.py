"""The ``jinja2`` format: a sandboxed, async Jinja2 template compiled once.

Kernel functions are callables named ``plugin_function`` (Jinja2 names cannot hold ``-``),
found in the kernel at render time. A call returns the function's typed value (so
``{% for x in plugin_list() %}`` works). Whatever an expression prints is encoded by
Jinja2's own autoescaping (markupsafe), so values never become template code and cannot
open or close a ``<message>``; trusted values are passed as ``Markup``, macros' output is
not encoded twice, and ``|safe`` is the template author's explicit opt-out. Containers,
models and dataclasses print as JSON (the ``finalize`` hook), then are encoded.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import jinja2
from jinja2 import meta, nodes
from jinja2.sandbox import ImmutableSandboxedEnvironment
from markupsafe import Markup

from sktypes.errors import TemplateError, UnknownTemplateFormatError
from sktypes.templates._calls import (
    Blocking,
    bind_arguments,
    blocking_invoker,
    helper_candidates,
    in_file,
    invoke,
    resolve_helper,
)
from sktypes.templates._config import (
    JINJA2_FORMAT,
    PromptTemplateConfig,
    merged_arguments,
    template_parameters,
)
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


_ENV = ImmutableSandboxedEnvironment(enable_async=True, autoescape=True, finalize=_finalize)
_SYNC_ENV = ImmutableSandboxedEnvironment(autoescape=True, finalize=_finalize)
"""The same sandbox rendering synchronously: used when every call can be made blocking."""
_BUILTINS = frozenset(_ENV.globals)  # range, dict, namespace...: never kernel functions


class Jinja2PromptTemplate:
    """A Jinja2 template rendered in a sandbox.

    Args:
        config: the config; its ``template`` is compiled now.

    Raises:
        TemplateError: a Jinja2 syntax error (the message names the line).
    """

    __slots__ = (
        "_config",
        "_defaults",
        "_functions",
        "_parameters",
        "_sync_template",
        "_template",
        "_tree",
        "_trusted",
    )

    def __init__(self, config: PromptTemplateConfig) -> None:
        self._config = config
        try:
            tree = _ENV.parse(config.template)
            self._template = _ENV.from_string(tree)
            self._tree: nodes.Template = tree
            self._sync_template: jinja2.Template | None = None
        except jinja2.TemplateSyntaxError as exc:
            file, where = config.place(exc.lineno)
            raise TemplateError(exc.message or "syntax error", file=file, where=where) from None
        undeclared = set(meta.find_undeclared_variables(tree)) - _BUILTINS  # not macros, sets
        called = undeclared & {
            node.node.name
            for node in tree.find_all(nodes.Call)
            if isinstance(node.node, nodes.Name)
        }
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
            TemplateError: rendering failed (a sandbox violation, a failing function...).
        """
        raw_args = merged_arguments(self._defaults, arguments or {})
        context = trusted_context(raw_args, self._trusted, Markup)
        found: list[tuple[str, Any, Blocking | None]] = []
        for name, candidates in self._functions:
            if name not in context:
                function = resolve_helper(kernel, candidates)
                if function is None:
                    context[name] = _missing(kernel, name, candidates)
                else:
                    found.append((name, function, blocking_invoker(kernel, function)))
        blocking = all(call is not None for _, _, call in found)
        for name, function, call in found:
            context[name] = (
                self._blocking_helper(function, call, name, raw_args)
                if blocking and call is not None
                else self._helper(kernel, function, name, raw_args)
            )
        try:
            if blocking:
                return self._sync().render(context)
            return await self._template.render_async(context)
        except TemplateError as exc:
            raise in_file(exc, self._config.source_file) from exc.__cause__
        except jinja2.TemplateError as exc:
            lineno = getattr(exc, "lineno", None)
            file, where = self._config.place(lineno) if lineno else (self._config.source_file, None)
            raise TemplateError(f"jinja2: {exc}", file=file, where=where) from None
        except Exception as exc:  # e.g. a TypeError from an expression on bad values
            problem = f"jinja2: {type(exc).__name__}: {exc}"
            raise TemplateError(problem, file=self._config.source_file) from None

    def _sync(self) -> jinja2.Template:
        """The template compiled for synchronous rendering (on first use)."""
        if self._sync_template is None:  # a race compiles twice, harmlessly
            self._sync_template = _SYNC_ENV.from_string(self._tree)
        return self._sync_template

    def _blocking_helper(
        self, function: Any, call: Blocking, name: str, args: Mapping[str, Any]
    ) -> Callable[..., Any]:
        trust = self._config.allow_dangerously_set_content

        def blocking(*positional: Any, **named: Any) -> Any:
            bound = bind_arguments(function.view, args, positional, named, where=name)
            value = call(bound, name)
            return Markup(to_text(value)) if trust else value

        return blocking

    def _helper(
        self, kernel: TemplateKernel | None, function: Any, name: str, args: Mapping[str, Any]
    ) -> Callable[..., Any]:
        trust = self._config.allow_dangerously_set_content

        async def call(*positional: Any, **named: Any) -> Any:
            bound = bind_arguments(function.view, args, positional, named, where=name)
            value = await invoke(kernel, function, bound, where=name)
            return Markup(to_text(value)) if trust else value

        return call


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
    """Creates ``jinja2`` templates."""

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
        return Jinja2PromptTemplate(config)
