"""Handlebars syntax tree: the frozen nodes :mod:`._hbs_syntax` parses a template into.

The tree is data, interpreted by :mod:`sktypes.templates._hbs_runtime`; positions
(``where``) are offsets in the original template text.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "Block",
    "Comment",
    "Expand",
    "Literal",
    "Node",
    "Partial",
    "Path",
    "RawBlock",
    "SubExpr",
    "SyntaxProblem",
    "Text",
    "Value",
]


@dataclass(frozen=True, slots=True)
class Path:
    """A path such as ``a.b``, ``../x`` or ``this``: its segments, resolved left to right.

    ``""`` segments (from ``.``, ``/`` and ``this``) are skipped when resolving; ``..``
    becomes ``@_parent``, ``@../`` becomes ``@@_parent``.
    """

    segments: tuple[str, ...]

    @property
    def simple(self) -> str | None:
        """The name when the path is one segment (it may then name a helper)."""
        return self.segments[0] if len(self.segments) == 1 else None


@dataclass(frozen=True, slots=True)
class Literal:
    """A literal argument: a string, an integer, ``True``/``False`` or ``None``."""

    value: str | int | bool | None


@dataclass(frozen=True, slots=True)
class SubExpr:
    """``(helper args)``: a helper call whose value is an argument."""

    name: str
    args: tuple[Value, ...]
    kwargs: tuple[tuple[str, Value], ...]


Value = Path | Literal | SubExpr
"""What an argument can be."""


@dataclass(frozen=True, slots=True)
class Text:
    """Literal template text."""

    text: str


@dataclass(frozen=True, slots=True)
class Comment:
    """``{{! … }}``: renders as nothing."""


@dataclass(frozen=True, slots=True)
class Expand:
    """``{{path args}}`` (``escaped``) or ``{{{path args}}}`` / ``{{&path args}}``."""

    path: Path
    args: tuple[Value, ...]
    kwargs: tuple[tuple[str, Value], ...]
    escaped: bool
    where: int


@dataclass(frozen=True, slots=True)
class Block:
    """``{{#name args}}body{{else}}inverse{{/name}}``; ``inverted`` for ``{{^name}}``."""

    name: str
    args: tuple[Value, ...]
    kwargs: tuple[tuple[str, Value], ...]
    body: tuple[Node, ...]
    inverse: tuple[Node, ...] | None
    inverted: bool
    where: int


@dataclass(frozen=True, slots=True)
class RawBlock:
    """``{{{{name args}}}}raw text{{{{/name}}}}``: the text is not parsed."""

    name: str
    args: tuple[Value, ...]
    kwargs: tuple[tuple[str, Value], ...]
    raw: str
    where: int


@dataclass(frozen=True, slots=True)
class Partial:
    """``{{> name args}}``: parsed for compatibility; rendering one is an error."""

    name: str | SubExpr
    args: tuple[Value, ...]
    kwargs: tuple[tuple[str, Value], ...]
    where: int


Node = Text | Comment | Expand | Block | RawBlock | Partial


class SyntaxProblem(Exception):
    """The template does not parse: ``message`` at ``position`` of the original text."""

    def __init__(self, message: str, position: int) -> None:
        super().__init__(message)
        self.message = message
        self.position = position
