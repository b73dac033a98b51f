"""Bounds on rendering a template, the same for every engine: output, values, work, nesting."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sktypes.errors import TemplateError

__all__ = [
    "DEFAULT_TEMPLATE_LIMITS",
    "STEP_SIZE",
    "RenderBudget",
    "TemplateLimits",
    "size",
    "weight",
]

STEP_SIZE = 64
"""Characters or items of a value a template builds or scans that cost one more step."""


@dataclass(frozen=True, slots=True)
class TemplateLimits:
    """Bounds on one template.

    Attributes:
        max_output: the longest rendered prompt, in characters (default 8 Mi, about two
            million tokens: more than any model reads). Rendering stops as soon as the
            output passes it, with a :class:`~sktypes.errors.TemplateError` naming the
            template, before a loop or ``'a' * 10**9`` can fill the memory. It bounds every
            value a template *builds* too — a string (``a ~ a``, ``concat``, ``join``), a
            list (``[x] * n``, ``sum``), their items' text counted — printed or not.
        max_steps: the work one render may do (default 1,000,000): one step per loop
            iteration, block, helper, filter, function or macro call, and one more per
            :data:`STEP_SIZE` characters or items of each value built, sliced, searched
            or passed to a filter. Nested loops that write nothing stop here; a template
            over a few thousand items takes tens of thousands of steps.
        max_depth: how deeply Handlebars blocks and subexpressions may nest.
    """

    max_output: int = 8 * 1024 * 1024
    max_depth: int = 50
    max_steps: int = 1_000_000

    def __post_init__(self) -> None:
        if self.max_output < 0 or self.max_depth < 1 or self.max_steps < 1:
            raise ValueError("max_output must be >= 0, max_depth and max_steps >= 1")


DEFAULT_TEMPLATE_LIMITS = TemplateLimits()
"""The limits a template renders under when its factory is given none."""


class RenderBudget:
    """What one render may still write (``left``) and do (``steps``); raises when spent.

    Args:
        limits: the template's :class:`TemplateLimits`.
        file: the config's file, for the errors.
        name: the template's name, for the errors.
    """

    __slots__ = ("file", "held", "left", "limit", "max_steps", "name", "steps")

    def __init__(self, limits: TemplateLimits, file: str | None, name: str) -> None:
        self.limit = limits.max_output
        self.left = limits.max_output
        self.held = limits.max_output  # text captured by blocks (Jinja2's {% set %}...)
        self.max_steps = limits.max_steps
        self.steps = limits.max_steps
        self.file = file
        self.name = name

    def charge(self, size: int) -> None:
        """Count ``size`` more characters of output."""
        self.left -= size
        if self.left < 0:
            raise self.error()

    def step(self, count: int = 1) -> None:
        """Count ``count`` more steps of work."""
        self.steps -= count
        if self.steps < 0:
            raise self.work_error()

    def built(self, size: int, what: str) -> None:
        """A value of ``size`` characters or items is about to be built: bound and charge it."""
        if size > self.limit:
            raise self.value_error(what)
        self.steps -= 1 + size // STEP_SIZE
        if self.steps < 0:
            raise self.work_error()

    def check(self, text: str) -> str:
        """``text`` when it fits the limit (the final, exact check of a whole render)."""
        if len(text) > self.limit:
            raise self.error()
        return text

    @property
    def subject(self) -> str:
        """``template 'name'`` (``the template`` when it has no name), for messages."""
        return f"template {self.name!r}" if self.name else "the template"

    def error(self) -> TemplateError:
        """The error for a render that passed the output limit."""
        return TemplateError(
            f"{self.subject} renders more than {self.limit:,} characters "
            "(TemplateLimits.max_output); rendering stopped",
            file=self.file,
        )

    def value_error(self, what: str) -> TemplateError:
        """The error for a value built past the limit (``what``: ``a concatenation``...)."""
        return TemplateError(
            f"{self.subject}: {what} would be longer than the output limit of "
            f"{self.limit:,} characters (TemplateLimits.max_output); rendering stopped",
            file=self.file,
        )

    def work_error(self) -> TemplateError:
        """The error for a render past its work budget."""
        return TemplateError(
            f"{self.subject} takes more than {self.max_steps:,} steps (TemplateLimits.max_steps:"
            " one per loop iteration, block, helper, filter or function call); rendering stopped",
            file=self.file,
        )


_SIZED = (str, bytes, list, tuple, dict, set, frozenset, range)
_SCALARS = frozenset({int, float, bool, type(None)})


def size(value: Any) -> int:
    """Characters of a string, items of a sized container or range (``0`` for the rest)."""
    if type(value) in _SCALARS:
        return 0
    return len(value) if isinstance(value, _SIZED) else 0


def weight(value: Any) -> int:
    """What a value costs to write out: a string's length; a container's items plus their text.

    One level deep (an item's own items are counted by their number): ``[a] * n`` weighs
    ``n * (1 + len(a))``, so it is refused before ``|join`` could build it.
    """
    kind = type(value)
    if kind is str:
        return len(value)
    if kind in _SCALARS:
        return 0
    if isinstance(value, (str, bytes)):
        return len(value)
    if isinstance(value, (list, tuple, set, frozenset)):
        return len(value) + sum(size(item) for item in value)
    if isinstance(value, dict):
        return len(value) + sum(size(k) + size(v) for k, v in value.items())
    return size(value)
