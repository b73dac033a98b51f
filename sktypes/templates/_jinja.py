"""The ``jinja2`` format: a sandboxed, async Jinja2 template compiled once.

Kernel functions are callables named ``plugin_function`` (Jinja2 names cannot hold ``-``),
found in the kernel at render time. A call returns the function's typed value (so
``{% for x in plugin_list() %}`` works). Whatever an expression prints is encoded as
Jinja2's autoescaping encodes it (markupsafe), so values never become template code and
cannot open or close a ``<message>``; trusted values are passed as ``Markup``, macros'
output is not encoded twice, and ``|safe`` is the template author's explicit opt-out.
Containers, models and dataclasses print as JSON (the ``finalize`` hook), then are encoded.

Speed: printing is one call (:func:`_output`) instead of Jinja2's ``escape(finalize(x))``,
kernel functions skip the sandbox's generic call checks (they are ours), and the render
context is built without Jinja2's per-render copy of the globals; a template whose calls
can all be made blocking renders synchronously.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any, cast

import jinja2
import markupsafe
from jinja2 import meta, nodes
from jinja2.compiler import CodeGenerator, Frame
from jinja2.runtime import Context
from jinja2.sandbox import ImmutableSandboxedEnvironment
from markupsafe import Markup, escape

from sktypes.errors import TemplateError, UnknownTemplateFormatError
from sktypes.templates._calls import (
    Blocking,
    bind_arguments,
    blocking_call,
    blocking_kernel,
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


def _escape_text(text: str) -> str:
    return str(escape(text))


_escape_inner: Callable[[str], str] = getattr(markupsafe, "_escape_inner", _escape_text)
"""markupsafe's encoder without the ``Markup`` wrapper (a clean string comes back as is)."""


def _output(value: Any) -> str:
    """What ``{{ expr }}`` prints where autoescaping is on: encoded text; ``Markup`` as is.

    The same text as Jinja2's ``escape(finalize(value))``, in one call, without wrapping
    each printed value in a new ``Markup`` (the wrapper costs 20 times the encoding).
    """
    if type(value) is str:
        return _escape_inner(value)
    if isinstance(value, Markup):
        return value
    if isinstance(value, jinja2.Undefined):
        return ""
    return _escape_inner(to_text(value))


class _CodeGenerator(CodeGenerator):
    """Jinja2's code generator, printing through :func:`_output` where autoescaping is on.

    Where autoescaping can change at run time (``{% autoescape %}`` with a variable) or is
    off, Jinja2's own code is kept. The two hooks are Jinja2 internals: should they be
    renamed, Jinja2's own ``escape(finalize(...))`` is generated again, which prints the
    same text, only slower (``tests/test_templates_engine_internals.py`` compares both).
    """

    def _output_child_pre(self, node: nodes.Expr, frame: Frame, finalize: Any) -> None:
        if frame.eval_ctx.autoescape and not frame.eval_ctx.volatile:
            self.write("environment.sktypes_output(")
        else:
            super()._output_child_pre(node, frame, finalize)

    def _output_child_post(self, node: nodes.Expr, frame: Frame, finalize: Any) -> None:
        if frame.eval_ctx.autoescape and not frame.eval_ctx.volatile:
            self.write(")")
        else:
            super()._output_child_post(node, frame, finalize)


class _Environment(ImmutableSandboxedEnvironment):
    """The sandbox, with the fused output step and kernel helpers called directly."""

    code_generator_class = _CodeGenerator
    sktypes_output = staticmethod(_output)

    def call(self, context: Context, obj: Any, /, *args: Any, **kwargs: Any) -> Any:
        if type(obj) is _KernelCall:  # ours: safe, and takes no context
            if kwargs:  # what Jinja2 adds inside loops and blocks, for context functions
                kwargs.pop("_loop_vars", None)
                kwargs.pop("_block_vars", None)
            return obj(*args, **kwargs)
        return super().call(context, obj, *args, **kwargs)


_ENV = _Environment(enable_async=True, autoescape=True, finalize=_finalize)
_SYNC_ENV = _Environment(autoescape=True, finalize=_finalize)
"""The same sandbox rendering synchronously: used when every call can be made blocking."""
_GLOBALS = dict(_ENV.globals)  # range, dict, namespace...: never kernel functions
_BUILTINS = frozenset(_GLOBALS)


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
        # the sandbox's globals, then the arguments, then the kernel functions
        variables = _GLOBALS | trusted_context(raw_args, self._trusted, Markup)
        found: list[tuple[str, Any, Blocking | None]] = []
        inline, find = blocking_kernel(kernel), kernel_finder(kernel)
        for name, candidates in self._functions:
            if name not in raw_args:
                function = resolve_helper(kernel, candidates, find)
                if function is None:
                    variables[name] = _missing(kernel, name, candidates)
                else:
                    found.append((name, function, blocking_call(function) if inline else None))
        blocking = all(call is not None for _, _, call in found)
        trust = self._config.allow_dangerously_set_content
        for name, function, call in found:
            now = call if blocking else None
            variables[name] = _KernelCall(kernel, function, now, name, raw_args, trust)
        try:
            if blocking:
                template = self._sync()
                return "".join(template.root_render_func(_context(template, variables)))
            template = self._template
            ctx = _context(template, variables)
            chunks = cast("AsyncIterator[str]", template.root_render_func(ctx))
            return "".join([text async for text in chunks])
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


class _KernelCall:
    """A kernel function as a Jinja2 callable: binds the call's arguments, then invokes.

    Blocking (``call`` given) when the whole render is synchronous, else it returns the
    invocation's coroutine, which Jinja2's async mode awaits. Its attributes start with
    ``_``, which the sandbox never lets a template read: a template can call it, not reach
    the kernel or the function through it.
    """

    __slots__ = ("_arguments", "_call", "_function", "_kernel", "_name", "_trust")

    def __init__(
        self,
        kernel: TemplateKernel | None,
        function: Any,
        call: Blocking | None,
        name: str,
        arguments: Mapping[str, Any],
        trust: bool,
    ) -> None:
        self._kernel, self._function, self._call = kernel, function, call
        self._name, self._arguments, self._trust = name, arguments, trust

    def __call__(self, *positional: Any, **named: Any) -> Any:
        bound = bind_arguments(
            self._function.view, self._arguments, positional, named, where=self._name
        )
        if self._call is None:
            return self._later(bound)
        value = self._call(bound, self._name)
        return Markup(to_text(value)) if self._trust else value

    async def _later(self, bound: dict[str, Any]) -> Any:
        value = await invoke(self._kernel, self._function, bound, where=self._name)
        return Markup(to_text(value)) if self._trust else value


def _context(template: jinja2.Template, variables: dict[str, Any]) -> Context:
    """The render context over ``variables`` (the sandbox's globals and the render's names).

    What ``Template.render`` builds, without copying the globals out of the template's
    ``ChainMap`` on every render (4 µs: half of rendering a small template).
    """
    return template.environment.context_class(
        template.environment, variables, template.name, template.blocks
    )


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
