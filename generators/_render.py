"""The one Jinja2 environment that renders generated files (``StrictUndefined``).

Templates live in ``generators/templates`` (one per output file, macros per kind in
``_macros.jinja``). Values from a spec reach a template only through the filters here,
which escape them: ``pystr`` (a string literal), ``pystr_chunks`` (literals that fit a
line), ``pylit`` (any JSON value) and ``docstring`` (an escaped, wrapped docstring).
"""

from __future__ import annotations

import functools
from typing import Any

import jinja2

from generators._naming import docstring_body, py_literal, py_string, py_string_chunks

__all__ = ["LINE_LENGTH", "call", "environment", "render", "signature"]

LINE_LENGTH = 100
"""Generated lines stay within this length (ruff's E501 at the project's setting)."""


def _docstring(text: str | None, indent: int, fallback: str = "") -> str:
    """Render a complete docstring statement (without leading indentation)."""
    lines = docstring_body(text or fallback, indent=indent + 4, width=LINE_LENGTH)
    if not lines:
        return ""
    pad = " " * indent
    if len(lines) == 1 and indent + len(lines[0]) + 6 <= LINE_LENGTH:
        return f'"""{lines[0]}"""'
    body = "".join(f"{pad}{line}\n" if line else "\n" for line in lines[1:])
    return f'"""{lines[0]}\n{body}{pad}"""'


def _chunks(text: str, indent: int) -> list[str]:
    return py_string_chunks(text, LINE_LENGTH - indent - 2)


@functools.cache
def environment() -> jinja2.Environment:
    """Return the configured environment (cached: templates compile once per process)."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("generators", "templates"),
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
    """Mark the file when a line (a long ``Literal`` or URL) cannot be wrapped."""
    if all(len(line) <= LINE_LENGTH for line in text.splitlines()):
        return text
    head, sep, rest = text.partition('"""\n\n')
    return head + sep + "# ruff: noqa: E501\n" + rest if sep else "# ruff: noqa: E501\n" + text


def signature(
    name: str, params: list[str], returns: str, indent: int, *, is_async: bool = False
) -> str:
    """Render ``def name(params) -> returns:`` on one line, or one parameter per line."""
    keyword = "async def" if is_async else "def"
    one = f"{keyword} {name}({', '.join(params)}) -> {returns}:"
    if indent + len(one) <= LINE_LENGTH:
        return one
    pad = " " * (indent + 4)
    body = "".join(f"{pad}{p},\n" for p in params)
    return f"{keyword} {name}(\n{body}{' ' * indent}) -> {returns}:"


def call(head: str, args: list[str], indent: int, tail: str = "") -> str:
    """Render ``head(args)tail`` on one line, or one argument per line with a trailing comma.

    The trailing comma is "magic" for ruff's formatter, so the exploded form is stable.
    """
    one = f"{head}({', '.join(args)}){tail}"
    if indent + len(one) <= LINE_LENGTH or not args:
        return one
    pad = " " * (indent + 4)
    inner = "".join(f"{pad}{a},\n" for a in args)
    return f"{head}(\n{inner}{' ' * indent}){tail}"
