"""Python type expressions as typed nodes: built once, rendered and laid out, never re-parsed.

The type mapping (:mod:`sktypes_codegen._types`) builds annotations from these nodes;
:mod:`sktypes_codegen._render` lays them out over lines the way ruff's formatter does, and
the modules compute their imports and class references by walking them:

- :class:`Name`: a name, with the import it needs (``int``, ``datetime.datetime``, a
  generated class, ``MISSING``);
- :class:`Subscript`: ``list[X]``, ``dict[str, X]``, ``tuple[X, Y]``, ``Literal["a"]``,
  ``Annotated[X, Field(ge=1)]``;
- :class:`Union`: ``A | B | None``;
- :class:`Call`: ``Field(ge=1, le=50)``, ``Tag("cat")`` inside ``Annotated``;
- :class:`Value`: a JSON value written as a Python literal (through ``py_literal``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from sktypes_codegen._naming import py_literal

__all__ = [
    "ANY",
    "BOOL",
    "BYTES",
    "FLOAT",
    "INT",
    "MISSING",
    "NONE",
    "STR",
    "Call",
    "Expr",
    "Import",
    "Name",
    "Raw",
    "Subscript",
    "Union",
    "Value",
    "annotated",
    "class_refs",
    "imports",
    "literal",
    "render",
    "union",
    "walk",
]


@dataclass(frozen=True, slots=True)
class Import:
    """What a name needs: ``import module`` (no ``name``) or ``from module import name``."""

    module: str
    name: str | None = None


@dataclass(frozen=True, slots=True)
class Name:
    """A name in a type expression.

    Attributes:
        text: how it is written (``int``, ``datetime.datetime``, ``Pet``).
        needs: the import it needs (``None`` for builtins and generated classes).
        local: a class (or alias) generated in this package.
    """

    text: str
    needs: Import | None = None
    local: bool = False


@dataclass(frozen=True, slots=True)
class Value:
    """A JSON value (``None``, bool, number, string, list, object) as a Python literal."""

    value: Any


@dataclass(frozen=True, slots=True)
class Raw:
    """Code written as is: an argument name, ``...`` (never text from a spec)."""

    text: str


@dataclass(frozen=True, slots=True)
class Subscript:
    """``head[args]``."""

    head: Name
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Union:
    """``A | B | ...`` (at least two options; build it with :func:`union`)."""

    options: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Call:
    """``func(args, key=value, ...)``."""

    func: Name
    args: tuple[Expr, ...] = ()
    kwargs: tuple[tuple[str, Expr], ...] = ()


Expr = Name | Value | Raw | Subscript | Union | Call
"""Any node."""

_TYPING = "typing"
INT = Name("int")
FLOAT = Name("float")
STR = Name("str")
BOOL = Name("bool")
BYTES = Name("bytes")
NONE = Name("None")
ANY = Name("Any", Import(_TYPING, "Any"))
MISSING = Name("MISSING", Import("sktypes.generated", "MISSING"))
_LITERAL = Name("Literal", Import(_TYPING, "Literal"))
_ANNOTATED = Name("Annotated", Import(_TYPING, "Annotated"))


def render(node: Expr) -> str:
    """The expression on one line."""
    if isinstance(node, Name):
        return node.text
    if isinstance(node, Raw):
        return node.text
    if isinstance(node, Value):
        return py_literal(node.value)
    if isinstance(node, Subscript):
        return f"{node.head.text}[{', '.join(render(a) for a in node.args)}]"
    if isinstance(node, Union):
        return " | ".join(render(o) for o in node.options)
    parts = [render(a) for a in node.args] + [f"{k}={render(v)}" for k, v in node.kwargs]
    return f"{node.func.text}({', '.join(parts)})"


def walk(node: Expr) -> Iterator[Expr]:
    """``node`` and every node inside it."""
    todo = [node]
    while todo:
        current = todo.pop()
        yield current
        if isinstance(current, Subscript):
            todo.append(current.head)
            todo.extend(current.args)
        elif isinstance(current, Union):
            todo.extend(current.options)
        elif isinstance(current, Call):
            todo.append(current.func)
            todo.extend(current.args)
            todo.extend(v for _, v in current.kwargs)


def imports(nodes: Iterable[Expr]) -> set[Import]:
    """The imports the expressions need."""
    return {n.needs for node in nodes for n in walk(node) if isinstance(n, Name) and n.needs}


def class_refs(nodes: Iterable[Expr]) -> set[str]:
    """The generated classes (and aliases) the expressions name."""
    return {n.text for node in nodes for n in walk(node) if isinstance(n, Name) and n.local}


def union(options: Iterable[Expr]) -> Expr:
    """``A | B``: nested unions flattened, duplicates dropped, ``None`` last, ``Any`` absorbs.

    ``None`` goes last, after ``MISSING`` (``T | MISSING | None``), as ruff wants it.
    """
    flat: list[Expr] = []
    for option in options:
        for part in option.options if isinstance(option, Union) else (option,):
            if part not in flat:
                flat.append(part)
    if ANY in flat:
        flat = [ANY, *(p for p in flat if p == MISSING)]
    tail: list[Expr] = [p for p in (MISSING, NONE) if p in flat]
    flat = [p for p in flat if p not in tail] + tail
    if not flat:
        raise ValueError("a union needs at least one option")
    return flat[0] if len(flat) == 1 else Union(tuple(flat))


def literal(values: Iterable[Any]) -> Subscript:
    """``Literal[...]`` of JSON scalars (strings, integers, booleans, ``None``)."""
    return Subscript(_LITERAL, tuple(Value(v) for v in values))


def annotated(base: Expr, metadata: Iterable[Expr]) -> Expr:
    """``Annotated[base, *metadata]`` (``base`` itself without metadata)."""
    extra = tuple(metadata)
    return Subscript(_ANNOTATED, (base, *extra)) if extra else base
