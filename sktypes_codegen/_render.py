"""The one Jinja2 environment that renders generated files (``StrictUndefined``).

Templates live in ``sktypes_codegen/templates`` (one per output file, macros per kind in
``_macros.jinja``). Values from a spec reach a template only through the filters here,
which escape them: ``pystr`` (a string literal), ``pystr_chunks`` (literals that fit a
line), ``pylit`` (any JSON value) and ``docstring`` (an escaped, wrapped docstring).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import jinja2

from sktypes_codegen._naming import docstring_body, py_literal, py_string, py_string_chunks

__all__ = [
    "DEFAULT_LINE_LENGTH",
    "assignment",
    "call",
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
    env.globals["signature"] = signature
    env.globals["call"] = call
    env.globals["assignment"] = assignment
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


def signature(
    name: str, params: list[str], returns: str, indent: int, *, is_async: bool = False
) -> str:
    """Render ``def name(params) -> returns:`` on one line, or one parameter per line.

    Parameters and the return annotation too long for a line are split as ruff splits them
    (a union one part per line, a subscript inside its brackets).
    """
    keyword = "async def" if is_async else "def"
    one = f"{keyword} {name}({', '.join(params)}) -> {returns}:"
    if indent + len(one) <= line_length():
        return one
    pad = " " * (indent + 4)
    body = "".join(f"{pad}{_parameter(p, indent + 4)},\n" for p in params)
    close = " " * indent
    if indent + len(f") -> {returns}:") <= line_length():
        return f"{keyword} {name}(\n{body}{close}) -> {returns}:"
    if len(_split_top(returns, "|")) == 1 and not returns.endswith("]"):
        return f"{keyword} {name}(\n{body}{close}) -> {returns}:"  # one long name stays
    result = _expression(returns, indent + 4)
    return f"{keyword} {name}(\n{body}{close}) -> (\n{pad}{result}\n{close}):"


def _parameter(param: str, indent: int) -> str:
    """One ``name: annotation [= default]`` parameter (followed by a comma) at ``indent``."""
    name, colon, rest = param.partition(": ")
    if not colon or indent + len(param) + 1 <= line_length():
        return param
    annotation, default = _split_default(rest)
    tail = f" = {default}" if default is not None else ""
    split = _expression(annotation, indent, len(name) + 2, last=len(tail) + 1)
    return f"{name}: {split}{tail}"


def _split_default(text: str) -> tuple[str, str | None]:
    """``annotation = default`` → its two parts (a top-level ``=``; strings respected)."""
    for i in _top_level(text, "="):
        if text[i - 1 : i + 2] == " = ":
            return text[: i - 1], text[i + 2 :]
    return text, None


def call(head: str, args: list[str], indent: int, tail: str = "") -> str:
    """Render ``head(args)tail`` on one line, or one argument per line with a trailing comma.

    The trailing comma is "magic" for ruff's formatter, so the exploded form is stable.
    """
    one = f"{head}({', '.join(args)}){tail}"
    if indent + len(one) <= line_length() or not args:
        return one
    pad = " " * (indent + 4)
    inner = "".join(f"{pad}{_expression(a, indent + 4, last=1)},\n" for a in args)
    return f"{head}(\n{inner}{' ' * indent}){tail}"


def assignment(
    name: str,
    annotation: str,
    value: str | None,
    args: list[str],
    indent: int = 4,
    callee: str = "Field",
) -> str:
    """Render ``name: annotation [= value | = callee(args)]`` the way ruff formats it.

    ``value`` is a plain default (``None``); with ``args``, the value is ``callee(args)``
    (``Field(...)`` for a class attribute). Too long for a line: the call is exploded when
    its opening fits, else the value goes in parentheses of its own, else the annotation
    does (ruff's order).
    """
    head = f"{name}: {annotation}"
    expression = value if not args else None
    one = head if value is None and not args else f"{head} = {expression or callee}"
    pad = " " * indent
    if not args:
        if indent + len(one) <= line_length():
            return one
        if value is None:
            return _annotation_lines(name, annotation, pad)
    elif indent + len(one) + 1 <= line_length():  # ``Field(`` fits: the call explodes
        return call(one, args, indent)
    inner = call(callee, args, indent + 4) if args else str(value)
    if indent + len(f"{head} = (") <= line_length():
        return f"{head} = (\n{pad}    {inner}\n{pad})"
    outer = call(callee, args, indent) if args else str(value)
    return f"{_annotation_lines(name, annotation, pad)} = {outer}"


def _annotation_lines(name: str, annotation: str, pad: str) -> str:
    """``name: annotation`` with the annotation split the way ruff splits it.

    A subscript (``list[X]``) opens its own brackets; anything else goes in parentheses,
    one ``| ``-part per line when it is still too long there.
    """
    if len(_split_top(annotation, "|")) == 1:
        if annotation.endswith("]"):
            return f"{name}: {_expression(annotation, len(pad), force=True)}"
        return f"{name}: {annotation}"  # one long name: ruff leaves it (and the line) long
    inner = _expression(annotation, len(pad) + 4)
    return f"{name}: (\n{pad}    {inner}\n{pad})"


def _expression(
    expr: str, indent: int, first: int = 0, last: int = 0, *, force: bool = False
) -> str:
    """``expr`` (a type expression) split over lines as ruff would.

    ``indent`` is the indentation of the line the expression starts on and ``first`` the
    columns taken before it on that line (``name: ``, ``| ``). Too long: a union puts one
    part per line (each continuation starting ``| ``); a subscript opens its brackets, one
    element per line with a trailing comma when there are several. ``force`` splits even
    an expression that fits (what follows it on the line does not); ``last`` is the columns
    that follow it on its last line (`` = None,``).
    """
    if not force and indent + first + len(expr) + last <= line_length():
        return expr
    pad = " " * indent
    parts = _split_top(expr, "|")
    if len(parts) > 1:
        head = _expression(parts[0], indent, first)
        middle = [_expression(p, indent, 2) for p in parts[1:-1]]
        rest = [*middle, _expression(parts[-1], indent, 2, last)]
        return head + "".join(f"\n{pad}| {r}" for r in rest)
    if not expr.endswith("]") or "[" not in expr:
        return expr
    cut = expr.index("[")
    items = _split_top(expr[cut + 1 : -1], ",")
    inner = " " * (indent + 4)
    if len(items) == 1 and indent + 4 + len(items[0]) <= line_length():
        return f"{expr[:cut]}[\n{inner}{items[0]}\n{pad}]"
    body = "".join(f"{inner}{_expression(item, indent + 4)},\n" for item in items)
    return f"{expr[:cut]}[\n{body}{pad}]"


def _split_top(text: str, separator: str) -> list[str]:
    """The top-level ``separator``-parts of ``text`` (brackets and string literals respected)."""
    parts: list[str] = []
    start = 0
    for i in _top_level(text, separator):
        parts.append(text[start:i].strip())
        start = i + 1
    parts.append(text[start:].strip())
    return [p for p in parts if p]


def _top_level(text: str, char: str) -> Iterator[int]:
    """The positions of ``char`` in ``text`` outside brackets and string literals."""
    depth = 0
    quote = ""
    escaped = False
    for i, c in enumerate(text):
        if quote:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == quote:
                quote = ""
        elif c in "'\"":
            quote = c
        elif c in "[(":
            depth += 1
        elif c in "])":
            depth -= 1
        elif c == char and depth == 0:
            yield i
