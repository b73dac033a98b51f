"""The Jinja2 environment: the immutable sandbox, the attribute policy, the render's budget.

Only Jinja2's documented API is used: the sandbox's hooks (``getattr``, ``getitem``,
``is_safe_attribute``, ``call``, ``call_binop``, ``wrap_str_format``), the syntax tree
(:mod:`jinja2.nodes`, rewritten once before it is compiled, with filters whose names
template text cannot spell), the filter and test tables, and ``finalize``.

- **Attributes** (:mod:`._attributes`, the policy of every engine): declared fields of
  models, dataclasses and named tuples, the methods of built-in values in
  :data:`~._attributes.DATA_METHODS`, Jinja2's own runtime objects — nothing else (the
  sandbox alone lets a template read a module's ``environ`` or a plain object's key).
- **Work** (:attr:`TemplateLimits.max_steps`): the tree is rewritten once, at creation, so
  every ``{% for %}`` iterates through :func:`~._jinja_guards.counted` (one step per item;
  so does a recursive ``loop(...)``), every call, filter and test costs a step, and
  comparisons, ``in`` and slices cost one more per ``STEP_SIZE`` characters or items.
- **Values** (:attr:`TemplateLimits.max_output`): ``~`` (rewritten), ``+``, ``*``, ``%``,
  ``**``, the methods ``str.replace``/``str.join``, every filter's result and the text a
  ``{% set %}`` block, macro, ``{% call %}`` or ``{% filter %}`` block captures are bounded
  before they are built (captured text in total, as printed text is).
"""

from __future__ import annotations

import types
from collections.abc import Mapping
from typing import Any, cast

from jinja2 import nodes, pass_context, pass_environment
from jinja2.runtime import Context, LoopContext, Undefined, markup_join, str_join
from jinja2.sandbox import ImmutableSandboxedEnvironment
from jinja2.visitor import NodeTransformer
from markupsafe import Markup, soft_str

from sktypes.templates._attributes import DATA_METHODS, jinja_may_read
from sktypes.templates._jinja_guards import (
    budget,
    charge_filters,
    check_percent,
    check_replace,
    counted,
    joined_size,
    size,
    weight,
)
from sktypes.templates._limits import STEP_SIZE
from sktypes.templates._safety import to_text

__all__ = ["environment", "finalize", "prepare"]


def finalize(value: Any) -> Any:
    """Text for what an expression prints; Jinja2's autoescaping then encodes it."""
    if isinstance(value, str):  # str and Markup (trusted): autoescape decides
        return value
    if isinstance(value, Undefined):
        return ""
    return to_text(value)


# The rewritten tree calls these as filters whose names template text cannot spell (a
# filter name is an identifier); ``pass_context`` keeps Jinja2 from running them once at
# compile time on constants (their charge belongs to each render).


@pass_context
def _iterate(context: Context, items: Any) -> Any:
    """What a ``{% for %}`` loops over, one step per item."""
    return counted(items)


@pass_context
def _concat(context: Context, *items: Any) -> str:
    """``a ~ b ~ c``, refused before it is built past the limit."""
    spent = budget()
    parts, total = joined_size([soft_str(item) for item in items], 0, spent.limit)
    spent.built(total, "a concatenation (~)")
    eval_ctx = context.eval_ctx
    join = markup_join if eval_ctx.volatile or eval_ctx.autoescape else str_join
    joined: str = join(parts)
    spent.built(len(joined), "a concatenation (~)")
    return joined


@pass_context
def _scanned(context: Context, value: Any) -> Any:
    """A value a comparison, ``in`` or a slice reads whole: one step per STEP_SIZE."""
    spent = budget()
    spent.steps -= 1 + weight(value) // STEP_SIZE
    if spent.steps < 0:
        raise spent.work_error()
    return value


@pass_context
def _captured(context: Context, value: Any) -> Any:
    """What an expression writes inside a block that captures its text."""
    text = finalize(value)
    _hold(len(text) if isinstance(text, str) else 0)
    return value


@pass_context
def _captured_text(context: Context, text: str) -> Markup:
    """Template text inside a block that captures it (already text: marked safe)."""
    _hold(len(text))
    return Markup(text)


def _hold(count: int) -> None:
    spent = budget()
    spent.held -= count
    if spent.held < 0:
        raise spent.value_error(
            "the text captured by {% set %} blocks, macros, {% call %} and {% filter %} blocks"
        )
    spent.steps -= count // STEP_SIZE
    if spent.steps < 0:
        raise spent.work_error()


_HOOKS: dict[str, Any] = {
    "sktypes-iterate": _iterate,
    "sktypes-concat": _concat,
    "sktypes-scanned": _scanned,
    "sktypes-captured": _captured,
    "sktypes-captured-text": _captured_text,
}
_CAPTURING = (nodes.AssignBlock, nodes.FilterBlock, nodes.Macro, nodes.CallBlock)
_SCANNING_OPS = frozenset({"in", "notin", "eq", "ne", "lt", "lteq", "gt", "gteq"})


def _hook(name: str, node: nodes.Expr, *args: nodes.Expr) -> nodes.Filter:
    return nodes.Filter(node, f"sktypes-{name}", list(args), [], None, None, lineno=node.lineno)


class _Rewrite(NodeTransformer):
    """Route loops, ``~``, comparisons, slices and captured output through the hooks."""

    def __init__(self) -> None:
        self.capturing = 0

    def generic_visit(self, node: nodes.Node, *args: Any, **kwargs: Any) -> nodes.Node:
        if isinstance(node, _CAPTURING):
            self.capturing += 1
            try:
                return super().generic_visit(node, *args, **kwargs)
            finally:
                self.capturing -= 1
        return super().generic_visit(node, *args, **kwargs)

    def visit_For(self, node: nodes.For) -> nodes.Node:
        self.generic_visit(node)  # in place
        node.iter = _hook("iterate", cast("nodes.Expr", node.iter))
        return node

    def visit_Concat(self, node: nodes.Concat) -> nodes.Node:
        self.generic_visit(node)  # in place
        return _hook("concat", *node.nodes)

    def visit_Compare(self, node: nodes.Compare) -> nodes.Node:
        self.generic_visit(node)  # in place
        if any(op.op in _SCANNING_OPS for op in node.ops):
            node.expr = _hook("scanned", node.expr)
            for op in node.ops:
                op.expr = _hook("scanned", op.expr)
        return node

    def visit_Getitem(self, node: nodes.Getitem) -> nodes.Node:
        self.generic_visit(node)  # in place
        if isinstance(node.arg, nodes.Slice):
            node.node = _hook("scanned", node.node)
        return node

    def visit_Output(self, node: nodes.Output) -> nodes.Node:
        self.generic_visit(node)  # in place
        if self.capturing:
            node.nodes = [
                _hook("captured-text", nodes.Const(child.data, lineno=child.lineno))
                if isinstance(child, nodes.TemplateData)
                else _hook("captured", child)
                for child in node.nodes
            ]
        return node


def prepare(tree: nodes.Template) -> nodes.Template:
    """The parsed template rewritten so that its work and values are charged (in place)."""
    rewritten: nodes.Template = _Rewrite().visit(tree)
    return rewritten


_DICT_METHODS = DATA_METHODS[dict]


class _Environment(ImmutableSandboxedEnvironment):
    """The immutable sandbox with the attribute policy and the render's budget."""

    intercepted_binops = frozenset({"*", "**", "%", "+"})

    def call_binop(self, context: Context, operator: str, left: Any, right: Any) -> Any:
        """Run ``left operator right`` after checking the result cannot be huge."""
        spent = budget()
        if operator == "*":
            for seq, times in ((left, right), (right, left)):
                if isinstance(times, int) and isinstance(seq, (str, list, tuple)):
                    spent.built(weight(seq) * max(times, 0), "a repeated text or list")
            if isinstance(left, int) and isinstance(right, int):
                spent.built((left.bit_length() + right.bit_length()) // 4, "a product")
        elif operator == "**":
            if (
                isinstance(left, int)
                and isinstance(right, int)
                and right > 0
                and abs(left) > 1
                and abs(left).bit_length() * right > 4 * spent.limit
            ):
                raise spent.value_error("a power")
        elif operator == "%":
            check_percent(left)
        elif operator == "+" and (size(left) or size(right)):
            spent.built(weight(left) + weight(right), "a concatenation")
        result = super().call_binop(context, operator, left, right)
        if operator == "%" and isinstance(result, str):
            spent.built(len(result), "a %-format")
        return result

    def getattr(self, obj: Any, attribute: str) -> Any:
        """``obj.attribute``: read only where the policy allows it, else a mapping's entry.

        The policy is asked *before* the attribute is read (the sandbox reads it, then
        asks), so no property of an object that is not data ever runs.
        """
        if type(obj) is dict and attribute not in _DICT_METHODS:  # the common case, first
            try:
                return obj[attribute]
            except (TypeError, LookupError):
                return self.undefined(obj=obj, name=attribute)
        if jinja_may_read(obj, attribute):
            return super().getattr(obj, attribute)
        if isinstance(obj, Mapping):
            try:
                return obj[attribute]
            except (TypeError, LookupError):
                return self.undefined(obj=obj, name=attribute)
        return self.unsafe_undefined(obj, attribute)

    def getitem(self, obj: Any, argument: Any) -> Any:
        """``obj[argument]``: an item, else (a name) the attribute by :meth:`getattr`."""
        try:
            return obj[argument]
        except (TypeError, LookupError):
            if isinstance(argument, str):
                return self.getattr(obj, argument)
        return self.undefined(obj=obj, name=argument)

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        """The attribute policy of every engine (:mod:`._attributes`), then the sandbox's."""
        return jinja_may_read(obj, attr) and super().is_safe_attribute(obj, attr, value)

    def wrap_str_format(self, value: Any) -> None:
        """``str.format`` is not callable (it pads to any width and reads attributes)."""

    def call(__self, __context: Context, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        """Call ``__obj`` from the template: one step, size guards, a bounded result."""
        spent = budget()
        cost = 1
        if isinstance(__obj, LoopContext) and args:  # a recursive loop's next level
            args = (counted(args[0]), *args[1:])
        elif isinstance(__obj, types.BuiltinMethodType):
            owner = __obj.__self__
            if isinstance(owner, (str, list, dict)):
                cost += (weight(owner) + sum(weight(a) for a in args)) // STEP_SIZE
                if isinstance(owner, str):
                    args = _method_guard(owner, __obj.__name__, args, kwargs)
        spent.steps -= cost
        if spent.steps < 0:
            raise spent.work_error()
        result = super().call(__context, __obj, *args, **kwargs)
        if isinstance(result, (str, list, tuple)):
            spent.built(weight(result), "a call's result")
        return result


def _method_guard(text: str, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """``str.replace`` and ``str.join``, refused before they build past the limit."""
    spent = budget()
    if name == "replace" and len(args) >= 2:
        count = args[2] if len(args) > 2 else kwargs.get("count", -1)
        check_replace(text, str(args[0]), str(args[1]), count, spent)
    elif name == "join" and args:
        items = counted(args[0])
        parts, total = joined_size(items, len(text), spent.limit)
        spent.built(total, "a joined text")
        return (parts, *args[1:])
    return args


def _attr_filter(original: Any) -> Any:
    """``|attr(name)`` asking the policy first (Jinja2 3.1.0's filter reads, then asks)."""

    @pass_environment
    def attr(env: _Environment, obj: Any, name: Any) -> Any:
        if isinstance(name, str) and not jinja_may_read(obj, name):
            return env.unsafe_undefined(obj, name)
        return original(env, obj, name)

    return attr


def environment(enable_async: bool) -> _Environment:
    """A configured environment (two exist: templates that call functions render async)."""
    env = _Environment(enable_async=enable_async, autoescape=True, finalize=finalize)
    env.filters["attr"] = _attr_filter(env.filters["attr"])
    charge_filters(env)
    env.filters.update(_HOOKS)
    return env
