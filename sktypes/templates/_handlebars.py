"""The ``handlebars`` format, on pybars3, compiled once.

Kernel functions are helpers named ``plugin-function`` or ``plugin_function``, found in the
kernel at render time. pybars helpers are synchronous and kernel functions are async, so a
helper records its call and leaves a per-render placeholder; once pybars is done, the calls
run in template order and their (encoded) outputs replace the placeholders. A function
output passed to another helper (``{{p-f (p-g x)}}``) is resolved in the same way. The
limit: a function's output cannot steer ``{{#if}}``/``{{#each}}`` (use a variable). When every
call can be made without awaiting (``blocking_invoker``), helpers call at once and return an
:class:`_Output` that renders, passes on and tests exactly as the placeholder would.

Output encoding: every expression, ``{{x}}`` *and* ``{{{x}}}``, is encoded unless the config
trusts the variable (or, for function outputs, the template) — the compiled template's
``prepare`` hook is replaced by :func:`_prepare`.
"""

from __future__ import annotations

import re
import secrets
import threading
from collections.abc import Callable, Mapping
from html import escape
from typing import Any

from pybars import Compiler, PybarsError, Scope, strlist
from pybars import _compiler as pybars_compiler

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
    HANDLEBARS_FORMAT,
    PromptTemplateConfig,
    merged_arguments,
    template_parameters,
)
from sktypes.templates._protocols import TemplateKernel
from sktypes.templates._safety import SPECIAL, Raw, encode, to_text, trusted_context
from sktypes.views import ParameterView

__all__ = ["HandlebarsPromptTemplate", "HandlebarsPromptTemplateFactory"]

_COMPILER = Compiler()
_COMPILE_LOCK = threading.Lock()  # pybars keeps compile state on the class


class _Output(str):
    """A function's output returned by a blocking helper: its text, carrying the value.

    Printed, it is encoded like the output the awaiting path substitutes (unless the template
    trusts function outputs); passed to another function, the value itself is passed; it is
    always true, as the awaiting path's placeholder is (outputs do not steer ``{{#if}}``).
    A ``str`` value (the usual case) is its own text: :class:`_Text` carries it more cheaply.
    """

    value: Any
    trusted: bool

    def __new__(cls, value: Any, trusted: bool) -> _Output:
        out = super().__new__(cls, to_text(value))
        out.value = value
        out.trusted = trusted
        return out

    def __bool__(self) -> bool:
        return True


class _Text(str):
    """An :class:`_Output` whose value is a plain ``str``: the text *is* the value."""

    __slots__ = ()

    def __bool__(self) -> bool:
        return True


class _TrustedText(_Text):
    """A :class:`_Text` the template trusts (printed as is)."""

    __slots__ = ()


def _output(value: Any, trusted: bool) -> str:
    """What a blocking helper returns for a function's ``value``."""
    if type(value) is str:
        return _TrustedText(value) if trusted else _Text(value)
    return _Output(value, trusted)


def _prepare(value: Any, should_escape: bool) -> Any:
    """Replace pybars' ``prepare``: like it, but everything not trusted is encoded."""
    kind = type(value)
    if kind is str:
        return escape(value) if SPECIAL.search(value) else value
    if kind is _Text:
        return escape(value) if SPECIAL.search(value) else str.__str__(value)
    if kind is _TrustedText:
        return str.__str__(value)
    if value is None:
        return ""
    if kind is strlist:
        return value
    if kind is Raw:
        return str.__str__(value)  # a plain str: pybars' strlist would split a subclass
    if kind is _Output:
        text = str.__str__(value)  # to_text(value.value)
        return text if value.trusted or not SPECIAL.search(text) else escape(text)
    if kind is bool:
        return "true" if value else "false"
    return encode(value)


def _message(this: Any, options: Mapping[str, Any], **attributes: Any) -> Any:
    """``{{#message role="user"}}...{{/message}}`` → ``<message role="user">...</message>``."""
    attrs = "".join(f' {k}="{escape(to_text(v))}"' for k, v in attributes.items())
    out = strlist([f"<message{attrs}>"])
    out.grow(options["fn"](this))
    out.append("</message>")
    return out


def _equals(this: Any, left: Any, right: Any) -> bool:
    return bool(left == right)


def _json(this: Any, value: Any) -> str:
    return to_text(value) if not isinstance(value, str) else value


def _concat(this: Any, *values: Any) -> str:
    return "".join(to_text(v) for v in values)


BUILTIN_HELPERS: dict[str, Callable[..., Any]] = {
    "message": _message,
    "equals": _equals,
    "json": _json,
    "concat": _concat,
}
"""Helpers every template has; they take precedence over kernel functions."""

_PYBARS_GLOBALS = {"helpers": {**pybars_compiler._pybars_["helpers"], **BUILTIN_HELPERS}}
"""pybars' own helpers and ours: what a compiled template starts from (its ``_pybars_``)."""

_pybars_resolve = pybars_compiler.resolve


def _resolve(context: Any, *segments: str) -> Any:
    """The ``resolve`` of pybars, with a short way for the commonest case: a top-level name.

    ``{{name}}`` at the top level resolves in a ``Scope`` over the arguments dict; for a
    name that is not special (``this``, ``@index``...) and a scope without overrides,
    pybars' answer is the dict's value when it has the key. Everything else (a missing key
    included: pybars then tries attributes) is pybars' own ``resolve``.
    """
    if len(segments) == 1 and type(context) is Scope and not context.overrides:
        name = segments[0]
        inner = context.context
        if name and name[0] != "@" and name != "this" and type(inner) is dict:
            try:
                return inner[name]
            except KeyError:
                pass
    return _pybars_resolve(context, *segments)


class _Calls:
    """The function calls one render recorded; each left a NUL-delimited placeholder.

    The nonce is random per template, so a value cannot forge a placeholder.
    """

    __slots__ = ("nonce", "pending")

    def __init__(self, nonce: str) -> None:
        self.nonce = nonce
        self.pending: list[tuple[Any, tuple[Any, ...], dict[str, Any], str]] = []

    def add(self, function: Any, args: tuple[Any, ...], kwargs: dict[str, Any], name: str) -> Raw:
        self.pending.append((function, args, kwargs, name))
        return Raw(f"\x00{self.nonce}{len(self.pending) - 1}\x00")


def _helper_names(tree: Any) -> frozenset[str]:
    """Single-segment names holding ``-`` or ``_``: the kernel functions a template may call."""
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, tuple) and len(node) == 2 and node[0] == "path":
            if len(node[1]) == 1 and isinstance(node[1][0], str):
                found.add(node[1][0])
            return
        if isinstance(node, tuple) and node and node[0] in ("block", "invertedblock"):
            found.add(node[1])
        if isinstance(node, (list, tuple)):
            for child in node:
                walk(child)

    walk(tree)
    return frozenset(n for n in found if ("-" in n or "_" in n) and n not in BUILTIN_HELPERS)


def _compile(config: PromptTemplateConfig) -> tuple[Any, Callable[..., Any]]:
    """Parse once with pybars' grammar and build the render function from that tree.

    What ``pybars.Compiler.compile`` does, minus its second parse and its ``sys.modules``
    entry per template; the render function gets :func:`_prepare` as its ``prepare``.
    A syntax error names its line and column in the template.
    """
    source = config.template
    with _COMPILE_LOCK:
        processed = _COMPILER.whitespace_control(source)
        tree, position = _grammar(config, processed)
        if position < len(processed):
            if processed != source:  # locate the error in the text the author wrote
                _, position = _grammar(config, source)
            _syntax_error(config, position)
        try:
            _COMPILER._compiler.globals["builder"]._reset()
            container = _COMPILER._compiler(tree).apply("compile")[0]
        except Exception as exc:  # the OMeta code generator raises its own error types
            raise TemplateError(f"handlebars: {exc}", file=config.source_file) from None
    namespace: dict[str, Any] = {}
    code = compile(container.full_code, "<handlebars template>", "exec", dont_inherit=True)
    exec(code, namespace)  # pybars' own step: code generated from the template, literals repr'd
    namespace["prepare"] = _prepare
    namespace["resolve"] = _resolve
    namespace["_pybars_"] = _PYBARS_GLOBALS
    return tree, namespace[container.name]


def _grammar(config: PromptTemplateConfig, source: str) -> tuple[Any, int]:
    try:
        tree, (position, _) = _COMPILER._handlebars(source).apply("template")
    except Exception as exc:  # the OMeta grammar raises its own error types
        raise TemplateError(f"handlebars: cannot parse: {exc}", file=config.source_file) from None
    return tree, int(position)


def _syntax_error(config: PromptTemplateConfig, position: int) -> None:
    source = config.template
    position = min(position, len(source))
    line = source.count("\n", 0, position) + 1
    column = position - (source.rfind("\n", 0, position) + 1) + 1
    file, where = config.place(line, column)
    near = source[position : position + 20]
    raise TemplateError(f"handlebars: syntax error near {near!r}", file=file, where=where)


def _deferred(calls: _Calls, function: Any, name: str) -> Callable[..., Raw]:
    def helper(this: Any, *args: Any, **kwargs: Any) -> Raw:
        return calls.add(function, args, kwargs, name)

    return helper


class HandlebarsPromptTemplate:
    """A Handlebars template (pybars3).

    Args:
        config: the config; its ``template`` is compiled now.

    Raises:
        TemplateError: a Handlebars syntax error (the message names line and column).
    """

    __slots__ = (
        "_blocking_helpers",
        "_config",
        "_defaults",
        "_helpers",
        "_nonce",
        "_parameters",
        "_pattern",
        "_render",
        "_trusted",
    )

    def __init__(self, config: PromptTemplateConfig) -> None:
        self._config = config
        tree, self._render = _compile(config)
        self._parameters = template_parameters(config, _variables(tree))
        self._helpers = tuple(
            (name, helper_candidates(name, "-" if "-" in name else "_", bare=False))
            for name in sorted(_helper_names(tree))
        )
        self._defaults = config.defaults()
        self._trusted = config.trusted_names()
        self._nonce = secrets.token_hex(8)
        self._pattern = re.compile("\x00" + self._nonce + r"(\d+)\x00")
        self._blocking_helpers: dict[str, tuple[Any, Blocking, Callable[..., str]]] = {}

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
        """Render the template, then run the function calls it made, in order.

        Raises:
            TemplateError: rendering failed, or a called function is missing or fails.
        """
        raw_args = merged_arguments(self._defaults, arguments or {})
        context = trusted_context(raw_args, self._trusted)
        inline, find = blocking_kernel(kernel), kernel_finder(kernel)
        helpers: dict[str, Callable[..., Any]] = {}  # kernel functions (pybars adds the rest)
        found: list[tuple[str, Any]] = []
        blocking = inline
        for name, candidates in self._helpers:
            if name not in context:
                function = resolve_helper(kernel, candidates, find)
                if function is not None:
                    found.append((name, function))
                    call = blocking_call(function) if blocking else None
                    if call is None:
                        blocking = False
                    else:
                        helpers[name] = self._blocking(function, call, name)
        calls: _Calls | None = None
        if found and not blocking:  # one call must be awaited: all are deferred, in order
            calls = _Calls(self._nonce)
            helpers = {name: _deferred(calls, function, name) for name, function in found}
        try:
            text = str(self._render(context, helpers=helpers))
        except TemplateError as exc:  # from a blocking call: as the awaiting path reports it
            raise in_file(exc, self._config.source_file) from exc.__cause__
        except PybarsError as exc:
            raise TemplateError(f"handlebars: {exc}", file=self._config.source_file) from None
        except Exception as exc:  # e.g. a helper called with the wrong arguments
            problem = f"handlebars: {type(exc).__name__}: {exc}"
            raise TemplateError(problem, file=self._config.source_file) from None
        if calls is None or not calls.pending:
            return text
        try:
            return await self._finish(kernel, text, calls, raw_args)
        except TemplateError as exc:
            raise in_file(exc, self._config.source_file) from exc.__cause__

    def _blocking(self, function: Any, call: Blocking, name: str) -> Callable[..., str]:
        """A helper that calls ``function`` now (see :func:`blocking_invoker`).

        It reads the template's arguments from the scope pybars passes (its root is the
        render's context), so it does not depend on the render and is made once per
        function found under ``name``.
        """
        hit = self._blocking_helpers.get(name)
        if hit is not None and hit[0] is function and hit[1] is call:
            return hit[2]
        trusted = self._config.allow_dangerously_set_content
        view = function.view

        def helper(this: Any, *positional: Any, **named: Any) -> str:
            if positional:
                positional = tuple(map(_native, positional))
            for key, value in named.items():
                if type(value) in _OUTPUTS:
                    named[key] = _native(value)
            root = this.root if type(this) is Scope else {}
            bound = bind_arguments(view, root, positional, named, where=name)
            return _output(call(bound, name), trusted)

        self._blocking_helpers[name] = (function, call, helper)
        return helper

    async def _finish(
        self, kernel: TemplateKernel | None, text: str, calls: _Calls, args: Mapping[str, Any]
    ) -> str:
        values: list[Any] = []

        def resolved(value: Any) -> Any:
            if isinstance(value, str):
                whole = self._pattern.fullmatch(value)
                if whole:
                    return values[int(whole.group(1))]
                return self._pattern.sub(lambda m: to_text(values[int(m.group(1))]), value)
            return value

        for function, positional, named, name in calls.pending:
            bound = _bind(function, args, positional, named, name, resolved)
            values.append(await invoke(kernel, function, bound, where=name))
        trust = self._config.allow_dangerously_set_content
        out = [to_text(v) if trust else encode(v) for v in values]
        return self._pattern.sub(lambda m: out[int(m.group(1))], text)


def _bind(
    function: Any,
    args: Mapping[str, Any],
    positional: tuple[Any, ...],
    named: Mapping[str, Any],
    name: str,
    value_of: Callable[[Any], Any],
) -> dict[str, Any]:
    """A call's arguments, each helper argument first turned into the value it stands for."""
    return bind_arguments(
        function.view,
        args,
        tuple(map(value_of, positional)) if positional else (),
        {k: value_of(v) for k, v in named.items()} if named else None,
        where=name,
    )


_OUTPUTS = frozenset({_Output, _Text, _TrustedText})


def _native(value: Any) -> Any:
    """A blocking helper's output passed to another function: the value, not its text."""
    kind = type(value)
    if kind is _Output:
        return value.value
    return str.__str__(value) if kind is _Text or kind is _TrustedText else value


def _variables(tree: Any) -> list[str]:
    """Names read at the top level of the template (outside ``#each``/``#with`` scopes)."""
    names: list[str] = []

    def path_root(path: Any, depth: int) -> str | None:
        if not (isinstance(path, tuple) and path and path[0] == "path"):
            return None
        parts = [p for p in path[1] if p]
        ups = 0
        while parts and parts[0] == "@_parent":
            parts = parts[1:]
            ups += 1
        if not parts or ups != depth or parts[0].startswith("@") or parts[0] == "this":
            return None
        return str(parts[0])

    def args_of(arguments: Any, depth: int) -> None:
        for arg in arguments or ():
            if isinstance(arg, tuple) and arg and arg[0] == "kwparam":
                arg = arg[2]
            if isinstance(arg, tuple) and arg and arg[0] == "subexpr":
                args_of(arg[2], depth)
                continue
            root = path_root(arg, depth)
            if root:
                names.append(root)

    def walk(node: Any, depth: int) -> None:
        if not isinstance(node, (list, tuple)) or not node:
            return
        if node[0] == "template":
            for child in node[1:]:
                walk(child, depth)
            return
        kind = node[0]
        if kind in ("escapedexpand", "expand"):
            _, path, arguments = node
            if arguments:  # a helper call: its arguments are variables
                args_of(arguments, depth)
            else:
                root = path_root(path, depth)
                if root and "-" not in root:
                    names.append(root)
        elif kind in ("block", "invertedblock"):
            _, symbol, arguments, body, alternative = node
            args_of(arguments, depth)
            scoped = depth + 1 if symbol in ("each", "with") else depth
            walk(body, scoped)
            walk(alternative, depth)

    walk(tree, 0)
    return names


class HandlebarsPromptTemplateFactory:
    """Creates ``handlebars`` templates."""

    def create(self, config: PromptTemplateConfig) -> HandlebarsPromptTemplate:
        """Compile ``config.template`` and return the template.

        Raises:
            UnknownTemplateFormatError: the format is not ``handlebars``.
            TemplateError: a Handlebars syntax error.
        """
        if config.template_format != HANDLEBARS_FORMAT:
            raise UnknownTemplateFormatError(
                f"HandlebarsPromptTemplateFactory handles {HANDLEBARS_FORMAT!r}, "
                f"not {config.template_format!r}"
            )
        return HandlebarsPromptTemplate(config)
