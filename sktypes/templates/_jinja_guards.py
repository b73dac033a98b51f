"""The Jinja2 render's budget: sizes of values, the filters' charge, their size guards.

Every render runs under a :class:`~sktypes.templates._limits.RenderBudget` (the context
variable :data:`BUDGET`). Every filter and test is wrapped once, at environment creation:
a call costs one step plus one per :data:`~sktypes.templates._limits.STEP_SIZE` characters
or items of its input; an iterator given to it is charged per item as it is consumed; what
it returns must fit :attr:`TemplateLimits.max_output` (strings by their length, lists by
their items and the text of those items). Filters whose result can be much larger than
their input check their arguments *before* running: ``center``, ``indent``, ``format``,
``replace``, ``join``, ``sum``, ``batch``, ``slice``, ``wordwrap``, ``tojson``; so does the
``lipsum`` global.
"""

from __future__ import annotations

import contextvars
import functools
import inspect
import re
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping
from typing import Any, cast

import jinja2
from jinja2.utils import generate_lorem_ipsum
from markupsafe import Markup

from sktypes.templates._limits import (
    DEFAULT_TEMPLATE_LIMITS,
    STEP_SIZE,
    RenderBudget,
    size,
    weight,
)

__all__ = [
    "BUDGET",
    "budget",
    "charge_filters",
    "check_percent",
    "counted",
    "joined_size",
    "size",
    "weight",
]

BUDGET: contextvars.ContextVar[RenderBudget | None] = contextvars.ContextVar(
    "sktypes_template_budget", default=None
)
"""The budget of the render in progress (set by ``Jinja2PromptTemplate.render``)."""


def budget() -> RenderBudget:
    """The render's budget (outside a render, a fresh default one: nothing is unbounded)."""
    current = BUDGET.get()
    return RenderBudget(DEFAULT_TEMPLATE_LIMITS, None, "") if current is None else current


def joined_size(items: Iterable[Any], separator: int, limit: int) -> tuple[list[Any], int]:
    """The items (a list) and the length of their join as text, stopping past ``limit``."""
    parts: list[Any] = []
    total = 0
    for item in items:
        total += (len(item) if isinstance(item, str) else len(str(item))) + (
            separator if parts else 0
        )
        parts.append(item)
        if total > limit:
            break
    return parts, total


class _Counted:
    """A sized iterable whose iteration costs one step per item (``len`` stays exact)."""

    __slots__ = ("_budget", "_items")

    def __init__(self, items: Any, budget: RenderBudget) -> None:
        self._items = items
        self._budget = budget

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[Any]:
        spent = self._budget
        for item in self._items:
            spent.steps -= 1
            if spent.steps < 0:
                raise spent.work_error()
            yield item


def _counted_iterator(items: Iterable[Any], spent: RenderBudget) -> Iterator[Any]:
    for item in items:
        spent.steps -= 1
        if spent.steps < 0:
            raise spent.work_error()
        yield item


async def _counted_async(items: Any, spent: RenderBudget) -> AsyncIterator[Any]:
    async for item in items:
        spent.steps -= 1
        if spent.steps < 0:
            raise spent.work_error()
        yield item


def counted(items: Any) -> Any:
    """``items`` charged one step per item as it is iterated (an undefined value as is)."""
    if isinstance(items, jinja2.Undefined) or items is None:
        return items
    spent = budget()
    if hasattr(items, "__aiter__"):
        return _counted_async(items, spent)
    if hasattr(items, "__len__") and hasattr(items, "__iter__"):
        return _Counted(items, spent)
    if hasattr(items, "__iter__"):
        return _counted_iterator(items, spent)
    return items  # not iterable: Jinja2 reports it


# --- size guards of the filters that can grow -----------------------------------------------

_WIDTHS = re.compile(r"%(?:\([^)]*\))?[#0 +\-]*(\*|\d+)?(?:\.(\*|\d+))?")


def check_percent(template: Any) -> None:
    """``text % args``: refuse ``*`` widths and widths past the limit."""
    if not isinstance(template, str):
        return
    spent = budget()
    for width, precision in _WIDTHS.findall(template):
        for number in (width, precision):
            too_wide = bool(number) and (len(number) > 9 or int(number) > spent.limit)
            if number == "*" or too_wide:
                raise spent.value_error("a %-format with that width")


def _number(value: Any, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _center(a: Mapping[str, Any], spent: RenderBudget) -> None:
    spent.built(max(_number(a.get("width"), 80), size(a.get("value"))), "a centered text")


def _indent(a: Mapping[str, Any], spent: RenderBudget) -> None:
    width = a.get("width", 4)
    lines = str(a.get("s", "")).count("\n") + 1
    each = len(width) if isinstance(width, str) else _number(width)
    spent.built(each * lines + size(a.get("s")), "an indented text")


def _format(a: Mapping[str, Any], spent: RenderBudget) -> None:
    check_percent(a.get("value"))


def _replace(a: Mapping[str, Any], spent: RenderBudget) -> None:
    text, old, new = str(a.get("s", "")), str(a.get("old", "")), str(a.get("new", ""))
    check_replace(text, old, new, a.get("count"), spent)


def check_replace(text: str, old: str, new: str, count: Any, spent: RenderBudget) -> None:
    """``text.replace(old, new, count)``: refuse a result past the limit before building it."""
    grows = len(new) - len(old)
    if grows > 0:
        hits = text.count(old) if old else len(text) + 1
        if isinstance(count, int) and count >= 0:
            hits = min(hits, count)
        spent.built(len(text) + hits * grows, "a replacement")


def _join(a: Mapping[str, Any], spent: RenderBudget) -> None:
    value = a.get("value")
    if isinstance(value, (list, tuple)) and a.get("attribute") is None:
        _, total = joined_size(value, len(str(a.get("d", ""))), spent.limit)
        spent.built(total, "a joined text")


def _sum(a: Mapping[str, Any], spent: RenderBudget) -> None:
    items, start = a.get("iterable"), a.get("start", 0)
    if isinstance(items, (list, tuple)) and isinstance(start, (list, tuple, str)):
        total = size(start) + sum(size(item) for item in items)
        spent.built(total, "a sum of lists")
        spent.step(len(items) * (1 + total // STEP_SIZE))  # each + copies what came before


def _batch(a: Mapping[str, Any], spent: RenderBudget) -> None:
    if a.get("fill_with") is not None:
        spent.built(_number(a.get("linecount")), "a batch filled up")


def _slice(a: Mapping[str, Any], spent: RenderBudget) -> None:
    spent.built(_number(a.get("slices")), "a slice into that many lists")


def _wordwrap(a: Mapping[str, Any], spent: RenderBudget) -> None:
    text = str(a.get("s", ""))
    wrap = a.get("wrapstring")
    breaks = len(text) // max(_number(a.get("width"), 79), 1) + text.count(" ") + 1
    spent.built(len(text) + breaks * (len(wrap) if isinstance(wrap, str) else 1), "a wrapped text")


def _tojson(a: Mapping[str, Any], spent: RenderBudget) -> None:
    indent = a.get("indent")
    each = len(indent) if isinstance(indent, str) else _number(indent)
    if each:
        spent.built(_indentation(a.get("value"), each, spent.limit), "an indented JSON text")


def _indentation(value: Any, each: int, limit: int) -> int:
    """The characters of indentation ``json.dumps(value, indent=each)`` writes (capped)."""
    total = 0
    stack = [(value, 1)]
    while stack and total <= limit:
        node, depth = stack.pop()
        children: Iterable[Any] = ()
        if isinstance(node, dict):
            children = node.values()
        elif isinstance(node, (list, tuple)):
            children = node
        for child in children:
            total += depth * each
            stack.append((child, depth + 1))
    return total


_PRECHECKS: dict[str, Callable[[Mapping[str, Any], RenderBudget], None]] = {
    "center": _center,
    "indent": _indent,
    "format": _format,
    "replace": _replace,
    "join": _join,
    "sum": _sum,
    "batch": _batch,
    "slice": _slice,
    "wordwrap": _wordwrap,
    "tojson": _tojson,
}
_PASS_ARGS = ("context", "eval_ctx", "environment", "env")


def _bound(function: Callable[..., Any]) -> Callable[..., dict[str, Any]]:
    """Names a filter's arguments (after Jinja2's context argument), defaults filled in.

    By position and keyword, as Python binds them (a wrong call is the filter's to report).
    """
    try:
        parameters = list(inspect.signature(function).parameters.values())
    except (TypeError, ValueError):  # pragma: no cover - every built-in filter has one
        parameters = []
    while parameters and parameters[0].name in _PASS_ARGS:
        parameters.pop(0)
    positional = inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD
    names = [p.name for p in parameters if p.kind in positional]
    defaults = {p.name: p.default for p in parameters if p.default is not p.empty}

    def bind(*args: Any, **kwargs: Any) -> dict[str, Any]:
        found = dict(defaults)
        found.update(zip(names, args, strict=False))
        found.update(kwargs)
        return found

    return bind


def _charged(name: str, original: Callable[..., Any], kind: str) -> Callable[..., Any]:
    """``original`` charging the render's budget (see the module docstring)."""
    precheck = _PRECHECKS.get(name) if kind == "filter" else None
    bind = _bound(original)
    what = f"the {kind} {name!r}"

    skip = 1 if hasattr(original, "jinja_pass_arg") else 0  # Jinja2's context argument

    @functools.wraps(original)  # keeps Jinja2's markers (pass_context & co.)
    def charged(*args: Any, **kwargs: Any) -> Any:
        spent = budget()
        reads = 0
        for argument in args[skip:]:
            reads += len(argument) if type(argument) is str else weight(argument)
        spent.steps -= 1 + reads // STEP_SIZE
        if spent.steps < 0:
            raise spent.work_error()
        if skip < len(args):
            value = args[skip]
            if hasattr(value, "__next__") or hasattr(value, "__anext__"):
                args = (*args[:skip], counted(value), *args[skip + 1 :])
            if precheck is not None:
                precheck(bind(*args[skip:], **kwargs), spent)
        result = original(*args, **kwargs)
        kind_of = type(result)
        if kind_of is str or kind_of is Markup:
            if len(result) > spent.limit:
                raise spent.value_error(what)
            spent.steps -= len(result) // STEP_SIZE
        elif isinstance(result, (list, tuple, dict)):
            spent.built(weight(result), what)
        elif inspect.isawaitable(result):
            return _checked(result, what)
        return result

    return charged


async def _checked(result: Any, what: str) -> Any:
    value = await result
    if isinstance(value, (str, list, tuple, dict)):
        budget().built(weight(value), what)
    return value


def _lipsum(n: int = 5, html: bool = True, min: int = 20, max: int = 100) -> str:
    """Jinja2's ``lipsum`` global, refused before it writes past the limit."""
    budget().built(_number(n, 5) * _number(max, 100) * 16, "a lorem ipsum text")
    return str(generate_lorem_ipsum(n=n, html=html, min=min, max=max))


def charge_filters(env: jinja2.Environment) -> None:
    """Wrap every filter and test of ``env`` and its ``lipsum`` global (once, at creation)."""
    for name, function in list(env.filters.items()):
        env.filters[name] = _charged(name, function, "filter")
    for name, test in list(env.tests.items()):
        env.tests[name] = _charged(name, cast("Callable[..., Any]", test), "test")
    env.globals["lipsum"] = _lipsum
