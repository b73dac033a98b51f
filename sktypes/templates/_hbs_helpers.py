"""The built-in Handlebars helpers (pybars3's, which Semantic Kernel's SDK uses).

Blocks: ``each``, ``if``, ``unless``, ``with``, ``message``; plain: ``equals``, ``json``,
``concat``, ``lookup``, ``log``.
"""

from __future__ import annotations

import html
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from sktypes.templates._hbs_scope import Body, Render, RenderProblem, Scope, plain
from sktypes.templates._safety import Raw, to_text

__all__ = [
    "BLOCK_HELPERS",
    "BUILTIN_HELPERS",
    "PLAIN_HELPERS",
    "BlockHelper",
    "Options",
    "called",
    "is_function_name",
    "missing_block",
]


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


def called(name: str, value: Any) -> RenderProblem:
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
    budget = options.render.budget
    parts: list[str] = []
    for index, item in enumerate(context):
        budget.steps -= 1  # one step per iteration (TemplateLimits.max_steps)
        if budget.steps < 0:
            raise budget.work_error()
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
        raise called("if", context)
    if plain(context):
        return await options.fn(this)
    return await options.inverse(this)


async def _unless(this: Any, options: Options, context: Any = _ABSENT) -> Raw | None:
    if not plain(_needs("unless", context)):
        return await options.fn(this)
    return None


async def _with(this: Any, options: Options, context: Any = _ABSENT) -> Raw | None:
    return await options.fn(_needs("with", context))


async def _message(this: Any, options: Options, **attributes: Any) -> Raw:
    """``{{#message role="user"}}…{{/message}}`` → ``<message role="user">…</message>``."""
    attrs = "".join(f' {k}="{html.escape(to_text(plain(v)))}"' for k, v in attributes.items())
    body = await options.fn(this)
    return Raw(f"<message{attrs}>{body or ''}</message>")


async def missing_block(this: Any, options: Options, context: Any) -> Raw | None:
    """A block named after a value: iterate a list, enter a value, skip a false one."""
    if callable(context) and type(context) is not Scope:
        raise called("block", context)
    value = plain(context)
    if value != "" and not value:
        return await options.inverse(this)
    if type(value) is list or type(value) is tuple:
        return await _each(this, options, value)
    return await options.fn(this if value is True else context)


def _equals(this: Any, left: Any = _ABSENT, right: Any = _ABSENT) -> bool:
    return bool(_needs("equals", left) == _needs("equals", right))


def _json(this: Any, value: Any = _ABSENT) -> str:
    value = plain(_needs("json", value))
    return value if isinstance(value, str) else to_text(value)


def _concat(this: Any, *values: Any) -> str:
    return "".join(to_text(plain(v)) for v in values)


def _lookup(this: Any, context: Any = _ABSENT, key: Any = _ABSENT) -> Any:
    context, key = plain(_needs("lookup", context)), plain(_needs("lookup", key))
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
