"""Bounds on what rendering a template may produce, the same for every engine."""

from __future__ import annotations

from dataclasses import dataclass

from sktypes.errors import TemplateError

__all__ = ["DEFAULT_TEMPLATE_LIMITS", "OutputBudget", "TemplateLimits"]


@dataclass(frozen=True, slots=True)
class TemplateLimits:
    """Bounds on one template.

    Attributes:
        max_output: the longest rendered prompt, in characters (default 8 Mi, about two
            million tokens: more than any model reads). Rendering stops as soon as the
            output passes it, with a :class:`~sktypes.errors.TemplateError` naming the
            template, before a loop or ``'a' * 10**9`` can fill the memory.
        max_depth: how deeply Handlebars blocks and subexpressions may nest.
    """

    max_output: int = 8 * 1024 * 1024
    max_depth: int = 50

    def __post_init__(self) -> None:
        if self.max_output < 0 or self.max_depth < 1:
            raise ValueError("max_output must be >= 0 and max_depth >= 1")


DEFAULT_TEMPLATE_LIMITS = TemplateLimits()
"""The limits a template renders under when its factory is given none."""


class OutputBudget:
    """Characters a render may still write; :meth:`charge` raises once they run out.

    Args:
        limit: :attr:`TemplateLimits.max_output`.
        file: the config's file, for the error.
        name: the template's name, for the error.
    """

    __slots__ = ("file", "left", "limit", "name")

    def __init__(self, limit: int, file: str | None, name: str) -> None:
        self.limit = limit
        self.left = limit
        self.file = file
        self.name = name

    def charge(self, size: int) -> None:
        """Count ``size`` more characters of output."""
        self.left -= size
        if self.left < 0:
            raise self.error()

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
        """The error for a render that passed the limit."""
        return TemplateError(
            f"{self.subject} renders more than {self.limit:,} characters "
            "(TemplateLimits.max_output); rendering stopped",
            file=self.file,
        )
