"""The one Jinja2 environment that renders generated files (``StrictUndefined``).

Templates live in ``sktypes_codegen/templates`` (one per output file, macros per kind in
``_macros.jinja``). Values from a spec reach a template only through the filters here,
which escape them: ``pystr`` (a string literal), ``pystr_chunks`` (literals that fit a
line), ``pylit`` (any JSON value) and ``docstring`` (an escaped, wrapped docstring).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import jinja2

from sktypes_codegen._annotations import Call, Expr, Raw, Subscript, Union
from sktypes_codegen._annotations import render as render_expr
from sktypes_codegen._naming import docstring_body, py_literal, py_string, py_string_chunks

__all__ = [
    "DEFAULT_LINE_LENGTH",
    "Param",
    "assignment",
    "call",
    "collection",
    "environment",
    "line_length",
    "render",
    "signature",
    "using_line_length",
]

DEFAULT_LINE_LENGTH = 100
"""Generated lines stay within this length unless told otherwise (ruff's E501 setting)."""

_LINE_LENGTH: ContextVar[int] = ContextVar("line_length", default=DEFAULT_LINE_LENGTH)


def line_length() -> int:
    """The line length of the generation under way (see :func:`using_line_length`)."""
    return _LINE_LENGTH.get()


@contextmanager
def using_line_length(width: int) -> Iterator[None]:
    """Generate at ``width`` columns inside the block (the repository formatter's setting)."""
    token = _LINE_LENGTH.set(width)
    try:
        yield
    finally:
        _LINE_LENGTH.reset(token)


def _docstring(text: str | None, indent: int, fallback: str = "") -> str:
    """Render a complete docstring statement (without leading indentation).

    A one-line docstring too long for its closing quotes is wrapped 3 columns narrower:
    ruff's formatter would pull lone closing quotes back onto a single text line.
    """
    lines = docstring_body(text or fallback, indent=indent + 4, width=line_length())
    if not lines:
        return ""
    pad = " " * indent
    if len(lines) == 1 and indent + len(lines[0]) + 6 <= line_length():
        return f'"""{lines[0]}"""'
    if len(lines) == 1:
        lines = docstring_body(text or fallback, indent=indent + 7, width=line_length())
        if len(lines) == 1:  # one unbreakable word: a long line either way
            return f'"""{lines[0]}"""'
    body = "".join(f"{pad}{line}\n" if line else "\n" for line in lines[1:])
    return f'"""{lines[0]}\n{body}{pad}"""'


def _method_docstring(text: str | None, indent: int, fallback: str, sections: Sequence[str]) -> str:
    """A docstring of ``text`` followed by ``sections`` (lines whose indentation is kept).

    Each section line is escaped and wrapped like the text; its continuation lines are
    indented 4 more columns (Google style).
    """
    lines = docstring_body(text or fallback, indent=indent + 4, width=line_length())
    if sections:
        lines.append("")
    for section in sections:
        inner = len(section) - len(section.lstrip(" "))
        wrapped = docstring_body(section.strip(), indent=indent + inner + 4, width=line_length())
        lines.extend(
            " " * (inner if i == 0 else inner + 4) + line for i, line in enumerate(wrapped)
        )
    if len(lines) == 1:
        return _docstring(text, indent, fallback)
    pad = " " * indent
    body = "".join(f"{pad}{line}\n" if line else "\n" for line in lines[1:])
    return f'"""{lines[0]}\n{body}{pad}"""'


def _chunks(text: str, indent: int) -> list[str]:
    """String literals for ``text``, one per line at ``indent`` (nothing follows them)."""
    return py_string_chunks(text, line_length() - indent)


@functools.cache
def environment() -> jinja2.Environment:
    """Return the configured environment (cached: templates compile once per process)."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("sktypes_codegen", "templates"),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["pystr"] = py_string
    env.filters["pylit"] = py_literal
    env.filters["pystr_chunks"] = _chunks
    env.filters["docstring"] = _docstring
    env.globals["method_docstring"] = _method_docstring
    env.globals["signature"] = signature
    env.globals["call"] = call
    env.globals["assignment"] = assignment
    env.filters["expr"] = render_expr
    env.globals["type_alias"] = Raw("TypeAlias")
    return env


def render(template: str, **context: Any) -> str:
    """Render ``template`` with ``context``; collapse runs of blank lines ruff would flag."""
    text = environment().get_template(template).render(**context)
    lines = text.splitlines()
    out: list[str] = []
    blanks = 0
    for line in lines:
        if line.strip():
            out.append(line.rstrip())
            blanks = 0
        elif blanks < 2 and out:
            out.append("")
            blanks += 1
    return _noqa_long_lines(_import_spacing(out))


def _import_spacing(lines: list[str]) -> str:
    """Normalise blank lines around the imports the way ruff's isort wants them.

    One blank line at most between import groups, then two before a ``class``/``def`` and
    one before anything else. Empty template sections leave stray blanks; this removes them.
    """
    starts = [i for i, line in enumerate(lines) if line.startswith(("import ", "from "))]
    if not starts:
        return "\n".join(lines).rstrip() + "\n"
    first, last = starts[0], starts[-1]
    if lines[last].endswith("("):
        while last < len(lines) - 1 and lines[last] != ")":
            last += 1
    block: list[str] = []
    for line in lines[first : last + 1]:
        if line or (block and block[-1]):
            block.append(line)
    rest = lines[last + 1 :]
    while rest and not rest[0]:
        rest.pop(0)
    nxt = rest[0] if rest else ""
    gap = 2 if nxt.startswith(("class ", "def ", "async def ", "@")) else 1
    out = [*lines[:first], *block, *([""] * gap), *rest]
    return "\n".join(out).rstrip() + "\n"


def _noqa_long_lines(text: str) -> str:
    """Mark the file when a line (a long ``Literal`` or URL) cannot be wrapped.

    Like ruff's E501, a long line that is a single word (``name=name`` with a long name)
    does not count: marking a file for it alone would be an unused ``noqa`` (RUF100).
    """
    if all(len(line) <= line_length() or " " not in line.strip() for line in text.splitlines()):
        return text
    head, sep, rest = text.partition('"""\n\n')
    return head + sep + "# ruff: noqa: E501\n" + rest if sep else "# ruff: noqa: E501\n" + text


Param = tuple[str, "Expr | None", "str | None"]
"""A parameter: its name, its annotation (``None`` for ``self`` and ``*``), its default."""


def signature(
    name: str, params: list[Param], returns: Expr | str, indent: int, *, is_async: bool = False
) -> str:
    """Render ``def name(params) -> returns:`` on one line, or one parameter per line.

    Parameters and the return annotation too long for a line are split as ruff splits them
    (a union one part per line, a subscript inside its brackets).
    """
    if isinstance(returns, str):
        returns = Raw(returns)
    keyword = "async def" if is_async else "def"
    flat = ", ".join(_param_text(p) for p in params)
    ret = render_expr(returns)
    one = f"{keyword} {name}({flat}) -> {ret}:"
    if indent + len(one) <= line_length():
        return one
    pad = " " * (indent + 4)
    body = "".join(f"{pad}{_parameter(p, indent + 4)},\n" for p in params)
    close = " " * indent
    if indent + len(f") -> {ret}:") <= line_length() or not _splittable(returns):
        return f"{keyword} {name}(\n{body}{close}) -> {ret}:"
    if isinstance(returns, (Subscript, Call)):  # split inside its own brackets
        result = _expression(returns, indent, 5, 1, force=True)
        return f"{keyword} {name}(\n{body}{close}) -> {result}:"
    result = _expression(returns, indent + 4)
    return f"{keyword} {name}(\n{body}{close}) -> (\n{pad}{result}\n{close}):"


def _param_text(param: Param) -> str:
    name, annotation, default = param
    text = name if annotation is None else f"{name}: {render_expr(annotation)}"
    return text if default is None else f"{text} = {default}"


def _parameter(param: Param, indent: int) -> str:
    """One ``name: annotation [= default]`` parameter (followed by a comma) at ``indent``."""
    text = _param_text(param)
    name, annotation, default = param
    if annotation is None or indent + len(text) + 1 <= line_length():
        return text
    tail = f" = {default}" if default is not None else ""
    split = _expression(annotation, indent, len(name) + 2, last=len(tail) + 1)
    return f"{name}: {split}{tail}"


def call(head: str, args: Sequence[Expr | str], indent: int, tail: str = "") -> str:
    """Render ``head(args)tail`` on one line, or one argument per line with a trailing comma.

    The trailing comma is "magic" for ruff's formatter, so the exploded form is stable.
    Plain strings are code written as is (names, literals already rendered).
    """
    nodes = [Raw(a) if isinstance(a, str) else a for a in args]
    one = f"{head}({', '.join(render_expr(a) for a in nodes)}){tail}"
    if indent + len(one) <= line_length() or not nodes:
        return one
    pad = " " * (indent + 4)
    inner = "".join(f"{pad}{_expression(a, indent + 4, last=1)},\n" for a in nodes)
    return f"{head}(\n{inner}{' ' * indent}){tail}"


Literal = Expr | str | list[Any] | tuple[Any, ...] | Mapping[str, Any]
"""Code for :func:`collection`: an expression, code written as is (``str``), or a list,
tuple or dict of those (dict keys are code too: ``'"404"'``)."""


def collection(value: Literal, indent: int, first: int = 0, last: int = 0) -> str:
    """Render a list, tuple or dict literal the way ruff formats it.

    On one line when it fits (``first`` columns before it, ``last`` after); else one item
    per line with a trailing comma, each item laid out the same way in turn.
    """
    flat = _flat(value)
    if indent + first + len(flat) + last <= line_length():
        return flat
    if isinstance(value, str):
        return value
    if not isinstance(value, (list, tuple, Mapping)):
        return _expression(value, indent, first, last)
    if not value:
        return flat
    items: list[tuple[str, Literal]]
    if isinstance(value, Mapping):
        opening, closing = "{", "}"
        items = [(f"{k}: ", v) for k, v in value.items()]
    else:
        opening, closing = ("[", "]") if isinstance(value, list) else ("(", ")")
        items = [("", v) for v in value]
    pad = " " * (indent + 4)
    body = "".join(
        f"{pad}{key}{collection(item, indent + 4, len(key), 1)},\n" for key, item in items
    )
    return f"{opening}\n{body}{' ' * indent}{closing}"


def _flat(value: Literal) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}: {_flat(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flat(v) for v in value) + "]"
    if isinstance(value, tuple):
        if len(value) == 1:
            return f"({_flat(value[0])},)"
        return "(" + ", ".join(_flat(v) for v in value) + ")"
    return render_expr(value)


def assignment(name: str, annotation: Expr, value: Expr | None, indent: int = 4) -> str:
    """Render ``name: annotation [= value]`` the way ruff formats it.

    Too long for a line: a call value (``Field(...)``) is split inside its parentheses when
    ``name: annotation = Field(`` fits, else any value goes in parentheses of its own when
    ``name: annotation = (`` fits; otherwise the annotation is split (a subscript inside
    its brackets, a union in parentheses), the value following the closing bracket.
    """
    head = f"{name}: {render_expr(annotation)}"
    one = head if value is None else f"{head} = {render_expr(value)}"
    if indent + len(one) <= line_length():
        return one
    pad = " " * indent
    opening = _opening(value)
    if value is not None and opening and indent + len(f"{head} = {opening}") <= line_length():
        return f"{head} = {_expression(value, indent, len(head) + 3, force=True)}"
    if value is not None and indent + len(f"{head} = (") <= line_length():
        return f"{head} = (\n{pad}    {_expression(value, indent + 4)}\n{pad})"
    tail = "" if value is None else f" = {render_expr(value)}"
    if value is not None and indent + 1 + len(tail) > line_length():  # ``] = value`` too long
        if isinstance(value, Union):
            tail = f" = (\n{pad}    {_expression(value, indent + 4)}\n{pad})"
        else:
            tail = f" = {_expression(value, indent, 4)}"
    if isinstance(annotation, Subscript):
        split = _expression(annotation, indent, len(name) + 2, len(tail), force=True)
        return f"{name}: {split}{tail}"
    if isinstance(annotation, Union):
        return f"{name}: (\n{pad}    {_expression(annotation, indent + 4)}\n{pad}){tail}"
    if value is not None and _opening(value):  # one long name: the value can be split
        return f"{head} = {_expression(value, indent, len(head) + 3, force=True)}"
    if isinstance(value, Union):
        return f"{head} = (\n{pad}    {_expression(value, indent + 4)}\n{pad})"
    flat = render_expr(annotation)
    if value is None and indent + 4 + len(flat) <= line_length():
        return f"{name}: (\n{pad}    {flat}\n{pad})"
    return one  # one long name: ruff leaves it (and the line) long


def _opening(node: Expr | None) -> str:
    """``Field(`` or ``Annotated[``: where a bracketed expression opens (``""``: it does not)."""
    if isinstance(node, Call):
        return f"{node.func.text}("
    if isinstance(node, Subscript):
        return f"{node.head.text}["
    return ""


def _splittable(node: Expr) -> bool:
    return isinstance(node, (Subscript, Union, Call))


def _expression(
    node: Expr, indent: int, first: int = 0, last: int = 0, *, force: bool = False
) -> str:
    """``node`` split over lines as ruff would.

    ``indent`` is the indentation of the line the expression starts on and ``first`` the
    columns taken before it on that line (``name: ``, ``| ``). Too long: a union puts one
    part per line (each continuation starting ``| ``); a subscript or call opens its
    brackets, its contents on one line when they fit there, else one element per line with
    a trailing comma. ``force`` splits even an expression that fits (what follows it on the
    line does not); ``last`` is the columns that follow it on its last line (`` = None,``).
    """
    flat = render_expr(node)
    if not force and indent + first + len(flat) + last <= line_length():
        return flat
    pad = " " * indent
    if isinstance(node, Union):
        parts = node.options
        head = _expression(parts[0], indent, first)
        middle = [_expression(p, indent, 2) for p in parts[1:-1]]
        rest = [*middle, _expression(parts[-1], indent, 2, last)]
        return head + "".join(f"\n{pad}| {r}" for r in rest)
    if isinstance(node, Subscript):
        opening, closing = f"{node.head.text}[", "]"
        items: list[tuple[str, Expr]] = [("", a) for a in node.args]
    elif isinstance(node, Call):
        opening, closing = f"{node.func.text}(", ")"
        items = [("", a) for a in node.args] + [(f"{k}=", v) for k, v in node.kwargs]
    else:
        return flat  # a name or a literal: nothing to split
    inner = " " * (indent + 4)
    body = ", ".join(f"{k}{render_expr(v)}" for k, v in items)
    if indent + 4 + len(body) <= line_length():
        return f"{opening}\n{inner}{body}\n{pad}{closing}"
    if len(items) == 1 and isinstance(node, Subscript):  # no comma: ``x[a,]`` is a tuple
        return f"{opening}\n{inner}{_expression(items[0][1], indent + 4)}\n{pad}{closing}"
    lines = "".join(f"{inner}{k}{_expression(v, indent + 4, len(k), 1)},\n" for k, v in items)
    return f"{opening}\n{lines}{pad}{closing}"
