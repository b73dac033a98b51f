"""Rendering a parsed Handlebars tree: scopes, paths, helpers, kernel calls — no code made.

:func:`compile_template` turns the tree of :mod:`._hbs_syntax` into nested closures once;
each render then walks them with a :class:`Render` state. The semantics are pybars3's
(which Semantic Kernel's Python SDK uses), so templates render as they did:

- ``{{name}}`` is a helper when one is called ``name`` (the built-ins, then kernel
  functions), else the value at that path; a missing value is empty, a missing helper
  called with arguments is an error; ``this``, ``..``, ``@root``, ``@index``, ``@key``,
  ``@first``, ``@last``, ``length`` of a list, list indexes;
- ``each`` (lists, mappings — ``@key`` —, strings), ``if``, ``unless``, ``with``,
  ``lookup``, ``log``; a block named after a value iterates a list, enters a value or
  is skipped when the value is false; ``{{^name}}`` inverts it.

Where pybars3 runs code a template or its data did not ask for, this does not: a value
reached by a path is never called (pybars3 calls any callable it finds, including methods
such as ``{{items.append}}``), attributes starting with ``_`` are not read, and mappings
are read by key only. ``{{#each ..}}``, which loops forever in pybars3, iterates the
parent's value.

Kernel functions are helpers named ``plugin-function`` or ``plugin_function``; a call is
``await``-ed through the kernel's one call path (``Kernel.invoke``), so a function's value
can feed another call, a ``concat``, or steer ``{{#if}}``.
"""

from __future__ import annotations

import html
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from sktypes.templates._calls import bind_arguments, invoke
from sktypes.templates._hbs_syntax import (
    Block,
    Expand,
    Literal,
    Node,
    Partial,
    Path,
    RawBlock,
    SubExpr,
    Text,
    Value,
)
from sktypes.templates._limits import OutputBudget
from sktypes.templates._protocols import TemplateKernel
from sktypes.templates._safety import SPECIAL, Raw, encode, to_text

__all__ = ["BUILTIN_HELPERS", "RenderProblem", "Render", "Scope", "compile_template"]


class RenderProblem(Exception):
    """Rendering failed at ``position`` (of the template text) for ``message``."""

    def __init__(self, message: str, position: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.position = position


class Scope:
    """A value being rendered, with its parent scope, the root and the loop's data."""

    __slots__ = ("context", "first", "index", "key", "last", "parent", "root")

    def __init__(
        self,
        context: Any,
        parent: Any,
        root: Any,
        index: int | None = None,
        key: Any = None,
        first: bool | None = None,
        last: bool | None = None,
    ) -> None:
        self.context = context
        self.parent = parent
        self.root = root
        self.index = index
        self.key = key
        self.first = first
        self.last = last

    def get(self, name: str) -> Any:
        """The value of ``name`` here: a data variable (``@index``...), ``this``, or a field."""
        if name[:1] == "@":
            data = _DATA.get(name)
            if data is not None:
                value = getattr(self, data)
                if value is not None or data in ("root", "parent"):
                    return value
        elif name == "this":
            return self.context
        return pick(self.context, name)

    def __str__(self) -> str:
        return str(self.context)


_DATA = {
    "@root": "root",
    "@_parent": "parent",
    "@index": "index",
    "@key": "key",
    "@first": "first",
    "@last": "last",
}


def pick(context: Any, name: str) -> Any:
    """``context``'s entry ``name``: a mapping's key, else a public attribute, else ``None``."""
    if type(context) is dict or isinstance(context, Mapping):
        try:
            return context[name]
        except (KeyError, TypeError):
            return None
    if context is None or name[:1] == "_":
        return None
    return getattr(context, name, None)


def resolve(context: Any, segments: tuple[str, ...]) -> Any:
    """The value at a path, segment by segment (``""`` segments are skipped)."""
    if segments == ("",) and type(context) is Scope:
        return context.context
    carry = False
    for segment in segments:
        if carry:  # ``@../index``: the segment after ``@@_parent`` is a data variable
            carry = False
            segment = "@" + segment
        if segment[:2] == "@@" and len(segment) > 1:
            segment = segment[1:]
            carry = True
        if context is None:
            return None
        if not segment:
            continue
        kind = type(context)
        if kind is list or kind is tuple:
            if segment == "length":
                return len(context)
            try:
                context = context[int(segment)]
            except (ValueError, IndexError):
                raise RenderProblem(f"no item {segment!r} in a list of {len(context)}") from None
        elif kind is Scope:
            context = context.get(segment)
        else:
            context = pick(context, segment)
    return context


def _plain(value: Any) -> Any:
    """A scope as the value it holds (what helpers and functions are given)."""
    return value.context if type(value) is Scope else value


def printed(value: Any) -> str:
    """What ``{{…}}`` writes for a value: text, encoded unless trusted (:class:`Raw`)."""
    kind = type(value)
    if kind is str:
        return html.escape(value) if SPECIAL.search(value) else value
    if kind is Raw:
        return str.__str__(value)
    if value is None:
        return ""
    if kind is bool:
        return "true" if value else "false"
    if kind is Scope:
        return printed(value.context)
    return encode(value)


class Render:
    """One render's state: the kernel, its functions found by helper name, the budget."""

    __slots__ = ("arguments", "budget", "functions", "kernel", "root", "trust_output")

    def __init__(
        self,
        kernel: TemplateKernel | None,
        functions: dict[str, Any],
        arguments: Mapping[str, Any],
        root: Any,
        budget: OutputBudget,
        trust_output: bool,
    ) -> None:
        self.kernel = kernel
        self.functions = functions
        self.arguments = arguments
        self.root = root
        self.budget = budget
        self.trust_output = trust_output

    async def call(self, name: str, function: Any, args: list[Any], kwargs: dict[str, Any]) -> Any:
        """Call a kernel function through the kernel with the helper's arguments."""
        positional = tuple(map(_plain, args))
        named = {k: _plain(v) for k, v in kwargs.items()}
        bound = bind_arguments(function.view, self.arguments, positional, named, where=name)
        return await invoke(self.kernel, function, bound, where=name)

    def output(self, value: Any) -> str:
        """A kernel function's value as printed text (encoded unless outputs are trusted)."""
        return to_text(value) if self.trust_output else encode(value)


# --- built-in helpers ----------------------------------------------------------------------

_ABSENT: Any = object()


class Options:
    """What a block helper gets: the body, the ``{{else}}`` part, the render."""

    __slots__ = ("inverse_body", "main_body", "render")

    def __init__(self, main: Body | None, inverse: Body | None, render: Render) -> None:
        self.main_body = main
        self.inverse_body = inverse
        self.render = render

    async def fn(self, this: Any) -> Raw | None:
        """Render the block's body with ``this`` as its value."""
        return await _run_body(self.main_body, this, self.render)

    async def inverse(self, this: Any) -> Raw | None:
        """Render the ``{{else}}`` part (nothing when there is none)."""
        return await _run_body(self.inverse_body, this, self.render)


async def _run_body(body: Body | None, this: Any, render: Render) -> Raw | None:
    if body is None:
        return None
    scope = this if type(this) is Scope else Scope(this, this, render.root)
    if body.sync is not None:
        return Raw(body.sync(scope, render))
    assert body.run is not None
    return Raw(await body.run(scope, render))


def _needs(name: str, value: Any) -> Any:
    if value is _ABSENT:
        raise RenderProblem(f"the helper {name!r} needs an argument")
    return value


def _called(name: str, value: Any) -> RenderProblem:
    return RenderProblem(
        f"{name!r} is a callable value ({type(value).__name__}); a template calls helpers "
        "and kernel functions only, never values from its arguments"
    )


async def _each(this: Any, options: Options, context: Any = _ABSENT) -> Raw | None:
    context = _needs("each", context)
    if type(context) is Scope:
        context = context.context
    try:
        count = len(context)
    except TypeError:
        return await options.inverse(this)
    if count == 0:
        return await options.inverse(this)
    keyed = isinstance(context, Mapping)
    root = options.render.root
    parts: list[str] = []
    for index, item in enumerate(context):
        if keyed:
            scope = Scope(context[item], this, root, index, item, index == 0, index == count - 1)
        else:
            scope = Scope(item, this, root, index, None, index == 0, index == count - 1)
        text = await options.fn(scope)
        if text:
            parts.append(text)
    return Raw("".join(parts))


async def _if(this: Any, options: Options, context: Any = _ABSENT) -> Raw | None:
    context = _needs("if", context)
    if callable(context) and type(context) is not Scope:
        raise _called("if", context)
    if _plain(context):
        return await options.fn(this)
    return await options.inverse(this)


async def _unless(this: Any, options: Options, context: Any = _ABSENT) -> Raw | None:
    if not _plain(_needs("unless", context)):
        return await options.fn(this)
    return None


async def _with(this: Any, options: Options, context: Any = _ABSENT) -> Raw | None:
    return await options.fn(_needs("with", context))


async def _message(this: Any, options: Options, **attributes: Any) -> Raw:
    """``{{#message role="user"}}…{{/message}}`` → ``<message role="user">…</message>``."""
    attrs = "".join(f' {k}="{html.escape(to_text(_plain(v)))}"' for k, v in attributes.items())
    body = await options.fn(this)
    return Raw(f"<message{attrs}>{body or ''}</message>")


async def _missing_block(this: Any, options: Options, context: Any) -> Raw | None:
    """A block named after a value: iterate a list, enter a value, skip a false one."""
    if callable(context) and type(context) is not Scope:
        raise _called("block", context)
    value = _plain(context)
    if value != "" and not value:
        return await options.inverse(this)
    if type(value) is list or type(value) is tuple:
        return await _each(this, options, value)
    return await options.fn(this if value is True else context)


def _equals(this: Any, left: Any = _ABSENT, right: Any = _ABSENT) -> bool:
    return bool(_needs("equals", left) == _needs("equals", right))


def _json(this: Any, value: Any = _ABSENT) -> str:
    value = _plain(_needs("json", value))
    return value if isinstance(value, str) else to_text(value)


def _concat(this: Any, *values: Any) -> str:
    return "".join(to_text(_plain(v)) for v in values)


def _lookup(this: Any, context: Any = _ABSENT, key: Any = _ABSENT) -> Any:
    context, key = _plain(_needs("lookup", context)), _plain(_needs("lookup", key))
    if isinstance(context, (Mapping, list, tuple, str)):
        try:
            return context[key]
        except (KeyError, IndexError, TypeError):
            return None
    return None


def _log(this: Any, *values: Any, **named: Any) -> None:
    return None


BlockHelper = Callable[..., Awaitable[Raw | None]]
BLOCK_HELPERS: dict[str, BlockHelper] = {
    "each": _each,
    "if": _if,
    "unless": _unless,
    "with": _with,
    "message": _message,
}
PLAIN_HELPERS: dict[str, Callable[..., Any]] = {
    "equals": _equals,
    "json": _json,
    "concat": _concat,
    "lookup": _lookup,
    "log": _log,
}
BUILTIN_HELPERS = frozenset(BLOCK_HELPERS) | frozenset(PLAIN_HELPERS)
"""Helpers every template has; they take precedence over variables and kernel functions."""


def is_function_name(name: str) -> bool:
    """Whether a helper name may stand for a kernel function (``plugin-f``, ``plugin_f``)."""
    return ("-" in name or "_" in name) and name not in BUILTIN_HELPERS


# --- compiling the tree into closures ------------------------------------------------------

SyncOp = Callable[[Scope, Render], Any]
AsyncOp = Callable[[Scope, Render], Awaitable[Any]]


class Body:
    """A compiled sequence of nodes: ``sync`` when nothing in it awaits, else ``run``."""

    __slots__ = ("run", "sync")

    def __init__(self, sync: Callable[[Scope, Render], str] | None, run: AsyncOp | None) -> None:
        self.sync = sync
        self.run = run


class _Op:
    """One compiled node or argument: a function of (scope, render), maybe async."""

    __slots__ = ("fn", "is_async")

    def __init__(self, fn: Callable[[Scope, Render], Any], is_async: bool) -> None:
        self.fn = fn
        self.is_async = is_async


def compile_template(nodes: tuple[Node, ...]) -> Body:
    """Turn the parsed template into its render closures (once per template)."""
    return _body(nodes)


def _body(nodes: tuple[Node, ...]) -> Body:
    ops = [_node(node) for node in nodes]
    if not any(op.is_async for op in ops):
        return Body(_joined([op.fn for op in ops]), None)
    steps: list[tuple[Callable[[Scope, Render], Any], bool]] = []
    run_of: list[SyncOp] = []  # consecutive sync ops become one step
    for op in [*ops, None]:
        if op is not None and not op.is_async:
            run_of.append(op.fn)
            continue
        if run_of:
            steps.append((_joined(run_of), False))
            run_of = []
        if op is not None:
            steps.append((op.fn, True))

    async def run(scope: Scope, render: Render) -> str:
        parts = []
        for fn, is_async in steps:
            parts.append(await fn(scope, render) if is_async else fn(scope, render))
        return "".join(parts)

    return Body(None, run)


def _joined(fns: list[SyncOp]) -> Callable[[Scope, Render], str]:
    """One sync function writing what ``fns`` write, in order."""
    if len(fns) == 1:
        return fns[0]

    def sync(scope: Scope, render: Render) -> str:
        return "".join([fn(scope, render) for fn in fns])

    return sync


def _node(node: Node) -> _Op:
    if isinstance(node, Text):
        return _text(node.text)
    if isinstance(node, Expand):
        name = node.path.simple
        if name is not None and not (node.args or node.kwargs) and _plain_name(name):
            return _Op(_field(name, node.where), False)  # places its own errors
        return _located(_expand(node), node.where)
    if isinstance(node, Block):
        return _located(_block(node), node.where)
    if isinstance(node, RawBlock):
        return _located(_raw_block(node), node.where)
    if isinstance(node, Partial):
        return _located(_partial(node), node.where)
    return _text("")  # a comment


def _text(text: str) -> _Op:
    size = len(text)

    def run(scope: Scope, render: Render) -> str:
        budget = render.budget
        budget.left -= size
        if budget.left < 0:
            raise budget.error()
        return text

    return _Op(run, False)


def _located(op: _Op, where: int) -> _Op:
    """``op`` with a :class:`RenderProblem` it raises placed at ``where``."""
    fn = op.fn
    if op.is_async:

        async def run_async(scope: Scope, render: Render) -> Any:
            try:
                return await fn(scope, render)
            except RenderProblem as exc:
                raise _placed(exc, where) from None

        return _Op(run_async, True)

    def run(scope: Scope, render: Render) -> Any:
        try:
            return fn(scope, render)
        except RenderProblem as exc:
            raise _placed(exc, where) from None

    return _Op(run, False)


def _placed(exc: RenderProblem, where: int) -> RenderProblem:
    return exc if exc.position is not None else RenderProblem(exc.message, where)


def _emit(render: Render, text: str) -> str:
    budget = render.budget
    budget.left -= len(text)
    if budget.left < 0:
        raise budget.error()
    return text


# arguments


Args = tuple[list[_Op], list[tuple[str, _Op]], bool]


def _arguments(args: tuple[Value, ...], kwargs: tuple[tuple[str, Value], ...]) -> Args:
    positional = [_value(v) for v in args]
    named = [(k, _value(v)) for k, v in kwargs]
    is_async = any(op.is_async for op in positional) or any(op.is_async for _, op in named)
    return positional, named, is_async


def _evaluate(args: Args, scope: Scope, render: Render) -> tuple[list[Any], dict[str, Any]]:
    positional, named, _ = args
    return [op.fn(scope, render) for op in positional], {k: op.fn(scope, render) for k, op in named}


async def _evaluate_async(
    args: Args, scope: Scope, render: Render
) -> tuple[list[Any], dict[str, Any]]:
    positional, named, is_async = args
    if not is_async:  # nothing to await: no coroutine per argument
        return _evaluate(args, scope, render)
    values = [
        await op.fn(scope, render) if op.is_async else op.fn(scope, render) for op in positional
    ]
    keywords = {
        k: await op.fn(scope, render) if op.is_async else op.fn(scope, render) for k, op in named
    }
    return values, keywords


def _value(value: Value) -> _Op:
    if isinstance(value, Literal):
        constant = value.value
        return _Op(lambda scope, render: constant, False)
    if isinstance(value, Path):
        segments = value.segments
        return _Op(lambda scope, render: resolve(scope, segments), False)
    return _subexpression(value)


def _subexpression(sub: SubExpr) -> _Op:
    name = sub.name
    args = _arguments(sub.args, sub.kwargs)
    plain = PLAIN_HELPERS.get(name)
    if plain is not None:
        if not args[2]:

            def run(scope: Scope, render: Render) -> Any:
                positional, named = _evaluate(args, scope, render)
                return _apply(name, plain, scope, positional, named)

            return _Op(run, False)

        async def run_async(scope: Scope, render: Render) -> Any:
            positional, named = await _evaluate_async(args, scope, render)
            return _apply(name, plain, scope, positional, named)

        return _Op(run_async, True)
    if not is_function_name(name):
        message = (
            f"{name!r} is a block helper: use {{{{#{name} …}}}}…{{{{/{name}}}}}"
            if name in BLOCK_HELPERS
            else f"could not find the helper {name!r}"
        )

        def missing(scope: Scope, render: Render) -> Any:
            raise RenderProblem(message)

        return _Op(missing, False)

    async def call(scope: Scope, render: Render) -> Any:
        function = render.functions.get(name)
        if function is None:
            raise RenderProblem(_no_function(name, render))
        positional, named = await _evaluate_async(args, scope, render)
        return await render.call(name, function, positional, named)

    return _Op(call, True)


def _apply(
    name: str, helper: Callable[..., Any], scope: Scope, args: list[Any], kwargs: dict[str, Any]
) -> Any:
    try:
        return helper(scope, *args, **kwargs)
    except TypeError as exc:  # the wrong arguments for a built-in helper
        raise RenderProblem(f"helper {name!r}: {exc}") from None


def _no_function(name: str, render: Render) -> str:
    if render.kernel is None:
        return f"the template calls {name!r} but no kernel was given"
    return f"no helper or kernel function named {name!r}"


# expressions


def _expand(node: Expand) -> _Op:
    name = node.path.simple
    args = _arguments(node.args, node.kwargs)
    has_args = bool(node.args or node.kwargs)
    if name is not None:
        plain = PLAIN_HELPERS.get(name)
        if plain is not None:
            call = _subexpression(SubExpr(name, node.args, node.kwargs))
            if call.is_async:
                fn = call.fn

                async def helper_async(scope: Scope, render: Render) -> str:
                    return _emit(render, printed(await fn(scope, render)))

                return _Op(helper_async, True)
            sync_fn = call.fn
            return _Op(lambda scope, render: _emit(render, printed(sync_fn(scope, render))), False)
        if name in BLOCK_HELPERS:
            problem = f"{name!r} is a block helper: use {{{{#{name} …}}}}…{{{{/{name}}}}}"

            def block_misuse(scope: Scope, render: Render) -> str:
                raise RenderProblem(problem)

            return _Op(block_misuse, False)
    lookup = _variable(node.path, name, has_args)
    if name is None or not is_function_name(name):
        return _Op(lambda scope, render: _emit(render, printed(lookup(scope, render))), False)

    async def maybe_call(scope: Scope, render: Render) -> str:
        function = render.functions.get(name)
        if function is None:
            try:
                return _emit(render, printed(lookup(scope, render)))
            except _Missing:
                raise RenderProblem(_no_function(name, render)) from None
        positional, named = await _evaluate_async(args, scope, render)
        value = await render.call(name, function, positional, named)
        return _emit(render, render.output(value))

    return _Op(maybe_call, True)


def _plain_name(name: str) -> bool:
    """A name that is neither a helper nor special (``@index``, ``this``): a field."""
    return name[:1] not in ("", "@") and name not in BUILTIN_HELPERS and not is_function_name(name)


def _field(name: str, where: int) -> SyncOp:
    """``{{name}}`` for a plain field name: the commonest expression, in one step.

    What :func:`_variable`, :func:`printed` and :func:`_emit` do, fused; it places its own
    errors (it is not wrapped by :func:`_located`).
    """

    def run(scope: Scope, render: Render) -> str:
        context = scope.context
        value: Any = context.get(name) if type(context) is dict else pick(context, name)
        kind = type(value)
        text: str
        if kind is str:
            text = html.escape(value) if SPECIAL.search(value) else value
        elif value is None:
            return ""
        elif callable(value) and kind is not Scope:
            raise RenderProblem(_called(name, value).message, where)
        else:
            text = printed(value)
        budget = render.budget
        budget.left -= len(text)
        if budget.left < 0:
            raise budget.error()
        return text

    return run


class _Missing(RenderProblem):
    """A helper called with arguments that is neither a helper nor a value."""


def _variable(path: Path, name: str | None, has_args: bool) -> SyncOp:
    """The value an expression prints when it names no helper (never called)."""
    segments = path.segments
    label = name if name is not None else ".".join(s for s in segments if s) or "this"
    direct = name is not None and name[:1] not in ("", "@")  # a plain field of the scope

    def value(scope: Scope, render: Render) -> Any:
        found = pick(scope.context, name) if direct else resolve(scope, segments)  # type: ignore[arg-type]
        if found is None:
            if name is not None and has_args:
                raise _Missing(f"could not find the helper {name!r}")
            return None
        if callable(found) and type(found) is not Scope:
            raise _called(label, found)
        return found

    return value


# blocks


def _block(node: Block) -> _Op:
    name = node.name
    args = _arguments(node.args, node.kwargs)
    main: Body | None = _body(node.body)
    other = _body(node.inverse) if node.inverse is not None else None
    main, other = (other, main) if node.inverted else (main, other)
    builtin = BLOCK_HELPERS.get(name)
    function_name = is_function_name(name)
    if name in PLAIN_HELPERS:
        problem = f"{name!r} is not a block helper: use {{{{{name} …}}}}"

        def misuse(scope: Scope, render: Render) -> str:
            raise RenderProblem(problem)

        return _Op(misuse, False)

    async def run(scope: Scope, render: Render) -> str:
        options = Options(main, other, render)
        if builtin is not None:
            positional, named = await _evaluate_async(args, scope, render)
            try:
                result = await builtin(scope, options, *positional, **named)
            except TypeError as exc:
                raise RenderProblem(f"helper {name!r}: {exc}") from None
            return result or ""
        function = render.functions.get(name) if function_name else None
        if function is not None:
            positional, named = await _evaluate_async(args, scope, render)
            value = await render.call(name, function, positional, named)
        else:
            value = resolve(scope, (name,))
        return await _missing_block(scope, options, value) or ""

    return _Op(run, True)


def _raw_block(node: RawBlock) -> _Op:
    """``{{{{name}}}}raw{{{{/name}}}}``: the raw text, through a block helper if one is named."""
    name, raw = node.name, node.raw
    if name in BLOCK_HELPERS or name in PLAIN_HELPERS:
        return _block(Block(name, node.args, node.kwargs, (Text(raw),), None, False, node.where))
    if not is_function_name(name):
        return _text(raw)
    args = _arguments(node.args, node.kwargs)
    body = _body((Text(raw),))

    async def run(scope: Scope, render: Render) -> str:
        function = render.functions.get(name)
        if function is None:
            return _emit(render, raw)
        positional, named = await _evaluate_async(args, scope, render)
        value = await render.call(name, function, positional, named)
        return await _missing_block(scope, Options(body, None, render), value) or ""

    return _Op(run, True)


def _partial(node: Partial) -> _Op:
    name = node.name if isinstance(node.name, str) else f"({node.name.name} …)"
    problem = f"the partial {name!r} could not be found (templates have no partials)"

    def run(scope: Scope, render: Render) -> str:
        raise RenderProblem(problem)

    return _Op(run, False)
