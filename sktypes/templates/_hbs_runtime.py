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
such as ``{{items.append}}``), mappings are read by key only, and an attribute is read only
where it is data — a declared field of a pydantic model, a dataclass or a named tuple
(:mod:`._attributes`; pybars3 reads any attribute, so a generator's ``gi_frame`` led to
``os.environ``). ``{{#each ..}}``, which loops forever in pybars3, iterates the parent's
value.

Kernel functions are helpers named ``plugin-function`` or ``plugin_function``; a call is
``await``-ed through the kernel's one call path (``Kernel.invoke``), so a function's value
can feed another call, a ``concat``, or steer ``{{#if}}``.
"""

from __future__ import annotations

import html
from collections.abc import Awaitable, Callable
from typing import Any

from sktypes.templates._hbs_helpers import (
    BLOCK_HELPERS,
    BUILTIN_HELPERS,
    PLAIN_HELPERS,
    Options,
    called,
    is_function_name,
    missing_block,
)
from sktypes.templates._hbs_nodes import (
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
from sktypes.templates._hbs_scope import (
    Body,
    Render,
    RenderProblem,
    Scope,
    pick,
    plain,
    printed,
    resolve,
)
from sktypes.templates._limits import STEP_SIZE, weight
from sktypes.templates._safety import SPECIAL

__all__ = ["Render", "RenderProblem", "Scope", "compile_template", "is_function_name"]


SyncOp = Callable[[Scope, Render], Any]
AsyncOp = Callable[[Scope, Render], Awaitable[Any]]


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
    helper = PLAIN_HELPERS.get(name)
    if helper is not None:
        if not args[2]:

            def run(scope: Scope, render: Render) -> Any:
                positional, named = _evaluate(args, scope, render)
                return _apply(name, helper, scope, positional, named, render)

            return _Op(run, False)

        async def run_async(scope: Scope, render: Render) -> Any:
            positional, named = await _evaluate_async(args, scope, render)
            return _apply(name, helper, scope, positional, named, render)

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
    name: str,
    helper: Callable[..., Any],
    scope: Scope,
    args: list[Any],
    kwargs: dict[str, Any],
    render: Render,
) -> Any:
    """Call a plain helper: one step, and one per STEP_SIZE of what it reads and builds.

    Its arguments' text is counted first (``concat`` joins them): a value past
    :attr:`TemplateLimits.max_output` is refused before it is built, printed or not.
    """
    budget = render.budget
    reads = sum(weight(plain(v)) for v in args) + sum(weight(plain(v)) for v in kwargs.values())
    if helper is PLAIN_HELPERS["concat"]:
        budget.built(reads, "a concatenation (concat)")
    else:
        budget.step(1 + reads // STEP_SIZE)
    try:
        value = helper(scope, *args, **kwargs)
    except TypeError as exc:  # the wrong arguments for a built-in helper
        raise RenderProblem(f"helper {name!r}: {exc}") from None
    if type(value) is str:
        budget.built(len(value), f"the value of {name!r}")
    return value


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
            raise RenderProblem(called(name, value).message, where)
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
            raise called(label, found)
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
        budget = render.budget
        budget.steps -= 1  # one step per block (TemplateLimits.max_steps)
        if budget.steps < 0:
            raise budget.work_error()
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
        return await missing_block(scope, options, value) or ""

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
        return await missing_block(scope, Options(body, None, render), value) or ""

    return _Op(run, True)


def _partial(node: Partial) -> _Op:
    name = node.name if isinstance(node.name, str) else f"({node.name.name} …)"
    problem = f"the partial {name!r} could not be found (templates have no partials)"

    def run(scope: Scope, render: Render) -> str:
        raise RenderProblem(problem)

    return _Op(run, False)
