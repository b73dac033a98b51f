"""Handlebars rendering state: scopes, paths, what ``{{…}}`` prints, the render's budget.

A path is resolved segment by segment: a list's item or ``length``, a :class:`Scope`'s data
variable (``@index``...), else a field by the one attribute policy of every engine
(:func:`pick`, :mod:`._attributes`).
"""

from __future__ import annotations

import html
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from sktypes.templates._attributes import ABSENT, read_field
from sktypes.templates._calls import bind_arguments, invoke
from sktypes.templates._limits import RenderBudget
from sktypes.templates._protocols import TemplateKernel
from sktypes.templates._safety import SPECIAL, Raw, encode, to_text

__all__ = [
    "Body",
    "Render",
    "RenderProblem",
    "Scope",
    "pick",
    "plain",
    "printed",
    "resolve",
]


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
    """``context``'s field ``name`` (a mapping's key, a declared field), else ``None``.

    What a field is, is the one policy of every engine (:mod:`._attributes`): no attribute
    of a frame, a function, a generator, a module, a class or a plain object is read.
    """
    if type(context) is dict:
        return context.get(name)
    value = read_field(context, name)
    return None if value is ABSENT else value


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


def plain(value: Any) -> Any:
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
        budget: RenderBudget,
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
        self.budget.step()
        positional = tuple(map(plain, args))
        named = {k: plain(v) for k, v in kwargs.items()}
        bound = bind_arguments(function.view, self.arguments, positional, named, where=name)
        return await invoke(self.kernel, function, bound, where=name)

    def output(self, value: Any) -> str:
        """A kernel function's value as printed text (encoded unless outputs are trusted)."""
        return to_text(value) if self.trust_output else encode(value)


class Body:
    """A compiled sequence of nodes: ``sync`` when nothing in it awaits, else ``run``."""

    __slots__ = ("run", "sync")

    def __init__(
        self,
        sync: Callable[[Scope, Render], str] | None,
        run: Callable[[Scope, Render], Awaitable[str]] | None,
    ) -> None:
        self.sync = sync
        self.run = run
