"""Names and literals for generated code: cleaned once, then trusted.

Everything a spec or tool list says ends up in generated Python through one of these
functions, so nothing a document contains is ever executed:

- :func:`identifier` / :func:`class_name` return :class:`PythonIdentifier` /
  :class:`ClassName` values: ASCII, not a keyword, not a dunder, never starting with a digit;
- :func:`py_literal` renders a JSON value as a Python expression (strings through ``repr``
  of an ASCII-escaped form, so the file holds no ambiguous Unicode);
- :func:`docstring_body` escapes a description for a ``\"\"\"`` docstring (backslashes, quotes,
  non-ASCII) and wraps it to the line length.

Clashes are resolved by :class:`Namespace`, which remembers what each name stands for.
"""

from __future__ import annotations

import builtins
import functools
import keyword
import re
import textwrap
import unicodedata
from collections.abc import Iterable
from typing import Any, NewType

__all__ = [
    "ClassName",
    "Namespace",
    "PythonIdentifier",
    "class_name",
    "class_refs",
    "docstring_body",
    "identifier",
    "import_order",
    "py_literal",
    "py_string",
    "py_string_chunks",
]

PythonIdentifier = NewType("PythonIdentifier", str)
"""A snake_case name that is a valid, non-keyword, non-dunder Python identifier."""

ClassName = NewType("ClassName", str)
"""A PascalCase name that is a valid, non-keyword Python class name."""

_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z]|\d|\b|_|$)|[A-Z]?[a-z]+|[A-Z]+|\d+")
_RESERVED = frozenset(keyword.kwlist) | frozenset(keyword.softkwlist) | {"None", "True", "False"}
_BUILTINS = frozenset(n for n in dir(builtins) if n[:1].isupper())
"""Builtin names a class name could take (``Warning``, ``Exception``, ``TimeoutError``...)."""


@functools.lru_cache(maxsize=65536)
def _ascii_words(text: str) -> tuple[str, ...]:
    """Split ``text`` into ASCII words (accents folded, other characters are separators).

    Remembered: a plugin names the same parameters and schemas over and over.
    """
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    words: list[str] = []
    for chunk in re.split(r"[^A-Za-z0-9]+", folded):
        for word in _WORD.findall(chunk):
            if word.isdigit() and words and chunk.find(word) > 0:  # t2 → t2, not t_2
                words[-1] += word
            else:
                words.append(word)
    return tuple(words)


def identifier(
    text: str, *, prefix: str = "value", reserved: Iterable[str] = ()
) -> PythonIdentifier:
    """Return ``text`` as a snake_case Python identifier.

    ``petId`` → ``pet_id``, ``X-Rate-Limit`` → ``x_rate_limit``, ``class`` → ``class_``,
    ``2fa`` → ``value_2fa``, ``__import__`` → ``import_``, ``""`` → ``value``. Names in
    ``reserved`` (e.g. a base class's attributes) get a trailing underscore too.
    """
    words = [w.lower() for w in _ascii_words(text)]
    name = "_".join(words) or prefix
    if name[0].isdigit():
        name = f"{prefix}_{name}"
    if name in _RESERVED or name in set(reserved):
        name = f"{name}_"
    return PythonIdentifier(name)


def class_name(text: str, *, prefix: str = "Model") -> ClassName:
    """Return ``text`` as a PascalCase class name (``pet.owner`` → ``PetOwner``)."""
    words = _ascii_words(text)
    name = "".join(w[:1].upper() + w[1:] for w in words) or prefix
    if name[0].isdigit():
        name = f"{prefix}{name}"
    if name in _RESERVED or name in _BUILTINS:
        name = f"{name}_"  # `Warning` would be Python's where it is named before its class
    return ClassName(name)


class Namespace:
    """Hands out unique names in one scope; the same key always gets the same name.

    A clash (``fooBar`` and ``foo_bar`` both cleaning to ``foo_bar``) gets a numeric
    suffix in first-come order, which callers make deterministic by sorting keys first.
    """

    def __init__(self, taken: Iterable[str] = ()) -> None:
        self._taken: set[str] = set(taken)
        self._by_key: dict[str, str] = {}

    def claim(self, key: str, name: str) -> str:
        """Return a unique name for ``key``, derived from ``name``."""
        if key in self._by_key:
            return self._by_key[key]
        candidate, n = name, 2
        while candidate in self._taken:
            candidate = f"{name}{'' if name.endswith('_') else '_'}{n}"
            n += 1
        self._taken.add(candidate)
        self._by_key[key] = candidate
        return candidate

    def __contains__(self, name: object) -> bool:
        return name in self._taken


def py_string(text: str) -> str:
    """Return a Python string literal for ``text``: ASCII only, every special character escaped.

    Double quotes unless the text holds more ``"`` than ``'`` (what ``ruff format`` prefers:
    the quotes that need fewer escapes, double on a tie).
    """
    quote = "'" if text.count('"') > text.count("'") else '"'
    if text.isascii():  # nearly every text: one C-level pass
        return quote + text.translate(_ASCII_ESCAPES[quote]) + quote
    return quote + "".join(_escape(c, quote) for c in text) + quote


_SIMPLE_ESCAPES = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(c: str, quote: str) -> str:
    if c in _SIMPLE_ESCAPES:
        return _SIMPLE_ESCAPES[c]
    if c == quote:
        return "\\" + c
    code = ord(c)
    if 32 <= code < 127:
        return c
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


_ASCII_ESCAPES = {
    quote: str.maketrans(
        {
            chr(code): _escape(chr(code), quote)
            for code in range(128)
            if _escape(chr(code), quote) != chr(code)
        }
    )
    for quote in "\"'"
}
""":func:`_escape` of every ASCII character it changes, per quote (a table for ``translate``)."""


def py_string_chunks(text: str, width: int) -> list[str]:
    """Return string literals whose concatenation is ``text``, each at most ``width`` long.

    Long descriptions become implicitly concatenated literals inside parentheses, so
    generated lines stay within the line length.
    """
    whole = py_string(text)
    if len(whole) <= width or not text:
        return [whole]
    chunks: list[str] = []
    current = ""
    for piece in re.findall(r"\S*\s*", text):
        if current and len(py_string(current + piece)) > width:
            chunks.append(py_string(current))
            current = ""
        current += piece
    if current:
        chunks.append(py_string(current))
    return chunks


def py_literal(value: Any) -> str:
    """Render a JSON value (``None``, bool, int, float, str, list, dict) as Python source."""
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return repr(value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            return f"float({py_string(repr(value))})"
        return repr(value)
    if isinstance(value, str):
        return py_string(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(py_literal(v) for v in value) + "]"
    if isinstance(value, dict):
        items = ", ".join(f"{py_string(str(k))}: {py_literal(v)}" for k, v in value.items())
        return "{" + items + "}"
    raise TypeError(f"not a JSON value: {type(value).__name__}")


def docstring_body(text: str | None, *, indent: int, width: int = 100) -> list[str]:
    r"""Return ``text`` as escaped, wrapped docstring lines (without the indentation).

    Backslashes and quotes are escaped so the text cannot end the docstring, non-ASCII
    becomes ``\uXXXX`` escapes (the docstring's value is still the original text), and
    lines are wrapped so that ``indent`` + line stays within ``width``.
    """
    if not text or not text.strip():
        return []
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    escaped = escaped.encode("ascii", "backslashreplace").decode("ascii")
    escaped = "".join(c if c.isprintable() or c == "\n" else f"\\x{ord(c):02x}" for c in escaped)
    room = max(20, width - indent)
    lines: list[str] = []
    for paragraph in escaped.strip().splitlines():
        stripped = paragraph.strip()
        if not stripped:
            if lines and lines[-1]:
                lines.append("")
            continue
        # long words stay whole (ruff exempts one-word lines) so no escape is ever cut
        lines.extend(textwrap.wrap(stripped, room, break_long_words=False, break_on_hyphens=False))
    while lines and not lines[-1]:
        lines.pop()
    return lines


_STRING_LITERAL = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")
_NAME = re.compile(r"[A-Za-z_]\w*")


def class_refs(annotation: str, names: set[str] | frozenset[str]) -> frozenset[str]:
    """The class names of ``names`` that ``annotation`` refers to.

    String literals are skipped: ``Literal["Pet"]`` does not use the class ``Pet``.
    """
    return frozenset(n for n in _NAME.findall(_STRING_LITERAL.sub("", annotation)) if n in names)


def import_order(name: str) -> tuple[int, str, str]:
    """Ruff's isort order of the names in one ``from x import (...)``.

    CONSTANTS first, then the rest, case-insensitively.
    """
    return (0 if name.isupper() else 1, name.lower(), name)
