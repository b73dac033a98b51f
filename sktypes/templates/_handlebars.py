"""The ``handlebars`` format: parsed once into a tree, rendered by sktypes' own interpreter.

No Python is generated from template text and nothing is ``exec``-ed: pybars3 (which
Semantic Kernel's SDK uses) compiles each template into Python source, pasting segment
literals such as ``{{a.[…]}}`` into it unescaped, so creating a template could run code.
Here the grammar and the rendering rules are pybars3's (see :mod:`._hbs_syntax` and
:mod:`._hbs_runtime` for the few places where pybars3 loses text, hangs or calls data),
implemented as a parser and an interpreter over frozen nodes.

Kernel functions are helpers named ``plugin-function`` or ``plugin_function``, looked up in
the kernel at render time and awaited through it (``Kernel.invoke``: validated, hydrated,
filtered) where the template calls them, so a function's value can feed another call or
steer ``{{#if}}``/``{{#each}}``.

Output encoding: every expression, ``{{x}}`` *and* ``{{{x}}}``, is encoded unless the config
trusts the variable (or, for function outputs, the template).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sktypes.errors import Location, TemplateError, UnknownTemplateFormatError
from sktypes.templates._calls import helper_candidates, in_file, kernel_finder, resolve_helper
from sktypes.templates._config import (
    HANDLEBARS_FORMAT,
    PromptTemplateConfig,
    merged_arguments,
    template_parameters,
)
from sktypes.templates._hbs_nodes import (
    Block,
    Expand,
    Node,
    Path,
    RawBlock,
    SubExpr,
    SyntaxProblem,
    Value,
)
from sktypes.templates._hbs_runtime import (
    Render,
    RenderProblem,
    Scope,
    compile_template,
    is_function_name,
)
from sktypes.templates._hbs_syntax import parse
from sktypes.templates._limits import DEFAULT_TEMPLATE_LIMITS, RenderBudget, TemplateLimits
from sktypes.templates._protocols import TemplateKernel
from sktypes.templates._safety import trusted_context
from sktypes.views import ParameterView

__all__ = ["HandlebarsPromptTemplate", "HandlebarsPromptTemplateFactory"]


class HandlebarsPromptTemplate:
    """A Handlebars template.

    Args:
        config: the config; its ``template`` is parsed now.
        limits: output size and nesting bounds (:data:`DEFAULT_TEMPLATE_LIMITS`).

    Raises:
        TemplateError: a Handlebars syntax error (the message names line and column).
    """

    __slots__ = (
        "_body",
        "_config",
        "_defaults",
        "_file",
        "_functions",
        "_limits",
        "_name",
        "_parameters",
        "_trust_output",
        "_trusted",
    )

    def __init__(self, config: PromptTemplateConfig, limits: TemplateLimits | None = None) -> None:
        self._config = config
        self._limits = limits or DEFAULT_TEMPLATE_LIMITS
        try:
            nodes = parse(config.template, self._limits.max_depth)
        except SyntaxProblem as exc:
            at = self._place(exc.position)._asdict()
            raise TemplateError(f"handlebars: {exc.message}", **at) from None
        self._body = compile_template(nodes)
        self._parameters = template_parameters(config, _variables(nodes))
        self._functions = tuple(
            (name, helper_candidates(name, "-" if "-" in name else "_", bare=False))
            for name in sorted(_function_names(nodes))
        )
        self._defaults = config.defaults()
        self._trusted = config.trusted_names()
        self._file, self._name = config.source_file, config.name
        self._trust_output = config.allow_dangerously_set_content

    @property
    def config(self) -> PromptTemplateConfig:
        """The configuration the template was created from."""
        return self._config

    @property
    def parameters(self) -> tuple[ParameterView, ...]:
        """The config's input variables plus the variables the template reads at top level."""
        return self._parameters

    async def render(
        self, kernel: TemplateKernel | None = None, arguments: Mapping[str, Any] | None = None
    ) -> str:
        """Render the template; kernel functions are looked up now and awaited in order.

        Raises:
            TemplateError: rendering failed, a called function is missing or fails, or the
                output passed :attr:`TemplateLimits.max_output`.
        """
        raw_args = merged_arguments(self._defaults, arguments or {})
        root = trusted_context(raw_args, self._trusted)
        functions: dict[str, Any] = {}
        if kernel is not None:
            find = kernel_finder(kernel)
            for name, candidates in self._functions:
                if name not in raw_args:  # a variable of that name wins
                    function = resolve_helper(kernel, candidates, find)
                    if function is not None:
                        functions[name] = function
        file = self._file
        budget = RenderBudget(self._limits, file, self._name)
        state = Render(kernel, functions, raw_args, root, budget, self._trust_output)
        scope = Scope(root, root, root)
        body = self._body
        try:
            if body.sync is not None:
                text = body.sync(scope, state)
            else:
                assert body.run is not None
                text = await body.run(scope, state)
        except RenderProblem as exc:
            at = self._place(exc.position)._asdict()
            raise TemplateError(f"handlebars: {exc.message}", **at) from None
        except TemplateError as exc:  # a kernel call, or the output limit
            raise in_file(exc, file) from exc.__cause__
        except Exception as exc:  # e.g. a property of a value that raised
            problem = f"handlebars: {type(exc).__name__}: {exc}"
            raise TemplateError(problem, file=file) from None
        return budget.check(text)

    def _place(self, position: int | None) -> Location:
        if position is None:
            return Location(self._config.source_file)
        source = self._config.template
        position = min(position, len(source))
        line = source.count("\n", 0, position) + 1
        column = position - (source.rfind("\n", 0, position) + 1) + 1
        return self._config.place(line, column)


def _function_names(nodes: tuple[Node, ...]) -> set[str]:
    """Helper names in call positions that may stand for kernel functions."""
    found: set[str] = set()

    def values(args: tuple[Value, ...], kwargs: tuple[tuple[str, Value], ...]) -> None:
        for value in (*args, *(v for _, v in kwargs)):
            if isinstance(value, SubExpr):
                if is_function_name(value.name):
                    found.add(value.name)
                values(value.args, value.kwargs)

    def walk(items: tuple[Node, ...]) -> None:
        for node in items:
            if isinstance(node, Expand):
                name = node.path.simple
                if name is not None and is_function_name(name):
                    found.add(name)
                values(node.args, node.kwargs)
            elif isinstance(node, (Block, RawBlock)):
                if is_function_name(node.name):
                    found.add(node.name)
                values(node.args, node.kwargs)
                if isinstance(node, Block):
                    walk(node.body)
                    walk(node.inverse or ())

    walk(nodes)
    return found


def _variables(nodes: tuple[Node, ...]) -> list[str]:
    """Names read at the top level of the template (outside ``#each``/``#with`` scopes)."""
    names: list[str] = []

    def root_of(path: Path, depth: int) -> str | None:
        parts = [p for p in path.segments if p]
        ups = 0
        while parts and parts[0] == "@_parent":
            parts = parts[1:]
            ups += 1
        if not parts or ups != depth or parts[0].startswith("@") or parts[0] == "this":
            return None
        return parts[0]

    def values(args: tuple[Value, ...], kwargs: tuple[tuple[str, Value], ...], depth: int) -> None:
        for value in (*args, *(v for _, v in kwargs)):
            if isinstance(value, SubExpr):
                values(value.args, value.kwargs, depth)
            elif isinstance(value, Path):
                root = root_of(value, depth)
                if root:
                    names.append(root)

    def walk(items: tuple[Node, ...], depth: int) -> None:
        for node in items:
            if isinstance(node, Expand):
                if node.args or node.kwargs:  # a helper call: its arguments are variables
                    values(node.args, node.kwargs, depth)
                else:
                    root = root_of(node.path, depth)
                    if root and "-" not in root:
                        names.append(root)
            elif isinstance(node, Block):
                values(node.args, node.kwargs, depth)
                scoped = depth + 1 if node.name in ("each", "with") else depth
                walk(node.body, scoped)
                walk(node.inverse or (), depth)

    walk(nodes, 0)
    return names


class HandlebarsPromptTemplateFactory:
    """Creates ``handlebars`` templates.

    Args:
        limits: output size and nesting bounds for the templates it creates.
    """

    __slots__ = ("limits",)

    def __init__(self, limits: TemplateLimits | None = None) -> None:
        self.limits = limits

    def create(self, config: PromptTemplateConfig) -> HandlebarsPromptTemplate:
        """Parse ``config.template`` and return the template.

        Raises:
            UnknownTemplateFormatError: the format is not ``handlebars``.
            TemplateError: a Handlebars syntax error.
        """
        if config.template_format != HANDLEBARS_FORMAT:
            raise UnknownTemplateFormatError(
                f"HandlebarsPromptTemplateFactory handles {HANDLEBARS_FORMAT!r}, "
                f"not {config.template_format!r}"
            )
        return HandlebarsPromptTemplate(config, self.limits)
