r"""Semantic Kernel template syntax: the tokenizer and the parsed blocks.

The grammar and its edge cases follow Semantic Kernel's Python ``TemplateTokenizer`` and
``CodeTokenizer`` (``{{ {{x}}`` is text ``"{{ "`` then a block; quotes hide ``}}``;
``\`` escapes a quote or a backslash inside a quoted value; an empty ``{{ }}`` stays
text; ``{{$a $b}}`` keeps only ``$a``). Parsing happens once; a syntax error names the
line and column of the block.

One deliberate difference: Semantic Kernel's named-argument pattern also accepts
``name=1abc`` (or ``name={abc``) as the variable ``$abc``; here a variable must start
with ``$``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from sktypes.errors import Location, TemplateError

__all__ = ["Call", "Text", "Val", "Var", "parse"]

_VAR = re.compile(r"\$([0-9A-Za-z_]+)")
_VAL = re.compile(r"([\"'])(.*)\1", re.S)
_FUNCTION_ID = re.compile(r"(?:([0-9A-Za-z_]+)\.)?([0-9A-Za-z_]+)")
_NAMED_ARG = re.compile(r"([0-9A-Za-z_]+)=(?:\$([0-9A-Za-z_]+)|([\"'])([^\"'^]+)\3)")
_SPACES = frozenset(" \t\n\r")
_QUOTES = frozenset("'\"")


@dataclass(frozen=True, slots=True)
class Text:
    """Literal template text."""

    text: str


@dataclass(frozen=True, slots=True)
class Var:
    """``$name``: a variable's value."""

    name: str


@dataclass(frozen=True, slots=True)
class Val:
    """``'text'`` or ``"text"``: a literal value (escapes already applied)."""

    value: str


@dataclass(frozen=True, slots=True)
class Call:
    """``plugin.function [first] [name=value ...]``: a function call.

    Args:
        plugin: the plugin name (``""`` when the block names only the function).
        function: the function name.
        first: the positional argument, bound to the function's first parameter.
        named: ``(parameter, value)`` pairs.
        place: where the block is, for render errors.
    """

    plugin: str
    function: str
    first: Var | Val | None
    named: tuple[tuple[str, Var | Val], ...]
    place: Location

    @property
    def name(self) -> str:
        """``plugin.function`` (or ``function``)."""
        return f"{self.plugin}.{self.function}" if self.plugin else self.function


Block = Text | Var | Val | Call


Locator = Callable[[int, int], Location]
"""Maps a template line and column to where it is, for messages."""


def _plain(line: int, column: int) -> Location:
    return Location(None, line, column)


def parse(text: str, locate: Locator = _plain) -> list[Block]:
    """Split a template into blocks (adjacent text merged), raising on a malformed block.

    Raises:
        TemplateError: a ``{{...}}`` block that is not a variable, value or function call;
            the message names its line and column.
    """
    if not text:
        return []
    if len(text) < 5:  # "{{}}" is the shortest block and renders as itself
        return [Text(text)]
    blocks: list[Block] = []
    end_of_last = 0
    start = 0
    found = False
    in_value = False
    delimiter = ""
    skip = False
    for pos in range(len(text) - 1):
        if skip:
            skip = False
            continue
        char = text[pos]
        following = text[pos + 1]
        if not in_value and char == "{" and following == "{":
            start = pos
            found = True
        if not found:
            continue
        if in_value:
            if char == "\\" and following in "\"'\\":
                skip = True
            elif char == delimiter:
                in_value = False
            continue
        if char in _QUOTES:
            in_value = True
            delimiter = char
            continue
        if char == "}" and following == "}":
            if start > end_of_last:
                _add_text(blocks, text[end_of_last:start])
            raw = text[start : pos + 2]
            code = raw[2:-2].strip()
            if not code:
                _add_text(blocks, raw)
            else:
                line = text.count("\n", 0, start) + 1
                column = start - (text.rfind("\n", 0, start) + 1) + 1
                blocks.append(_code_block(code, locate(line, column)))
            end_of_last = pos + 2
            found = False
    if end_of_last < len(text):
        _add_text(blocks, text[end_of_last:])
    return blocks


def _add_text(blocks: list[Block], text: str) -> None:
    if blocks and isinstance(blocks[-1], Text):
        blocks[-1] = Text(blocks[-1].text + text)
    else:
        blocks.append(Text(text))


def _code_block(code: str, place: Location) -> Block:
    tokens = _tokenize(code, place)
    first = tokens[0]
    if first[0] in ("var", "val"):
        return _operand(first, place)  # anything after a lone value is ignored
    if first[0] == "named":
        raise _error(f"a block cannot start with the named argument {first[1]!r}", place)
    match = _FUNCTION_ID.fullmatch(first[1])
    if match is None:
        raise _error(f"{first[1]!r} is not a function name (plugin.function)", place)
    positional: Var | Val | None = None
    named: list[tuple[str, Var | Val]] = []
    for index, (kind, content) in enumerate(tokens[1:], start=1):
        if kind == "named":
            named.append(_named(content, place))
        elif index == 1 and kind in ("var", "val"):
            positional = _operand((kind, content), place)
        else:
            raise _error(
                f"{content!r}: only the first argument may be positional; "
                "the others must be named (name=$var or name='value')",
                place,
            )
    return Call(match.group(1) or "", match.group(2), positional, tuple(named), place)


def _operand(token: tuple[str, str], place: Location) -> Var | Val:
    kind, content = token
    if kind == "var":
        match = _VAR.fullmatch(content)
        if match is None:
            raise _error(f"{content!r} is not a variable name ($name)", place)
        return Var(match.group(1))
    value = _VAL.fullmatch(content)
    if value is None:
        raise _error(f"{content!r} is not a quoted value", place)
    return Val(value.group(2))


def _named(content: str, place: Location) -> tuple[str, Var | Val]:
    match = _NAMED_ARG.fullmatch(content)
    if match is None:
        raise _error(f"{content!r} is not a named argument (name=$var or name='value')", place)
    if match.group(2) is not None:
        return match.group(1), Var(match.group(2))
    return match.group(1), Val(match.group(4))


def _tokenize(code: str, place: Location) -> list[tuple[str, str]]:
    """Split a block's code into ``(kind, content)`` tokens, as Semantic Kernel does.

    Kinds: ``var`` (``$x``), ``val`` (a quoted value, escapes applied), ``id`` (a function
    name) and ``named`` (an ``id`` holding ``=``).
    """
    if len(code) == 1:
        return [("id", code)]
    tokens: list[tuple[str, str]] = []
    kind: str | None = None
    content: list[str] = []
    delimiter = ""
    separated = False
    skip = False
    following = ""
    for index in range(len(code) - 1):
        char = code[index]
        following = code[index + 1]
        if skip:
            skip = False
            continue
        if index == 0:
            if char == "$":
                kind = "var"
            elif char in _QUOTES:
                kind = "val"
                delimiter = char
            else:
                kind = "id"
            content.append(char)
            continue
        if kind == "val":
            if char == "\\" and following in "\"'\\":
                content.append(following)
                skip = True
                continue
            content.append(char)
            if char == delimiter:
                tokens.append(("val", "".join(content)))
                content.clear()
                kind = None
                separated = False
            continue
        if char in _SPACES:
            if kind == "var":
                tokens.append(("var", "".join(content)))
            elif kind == "id":
                text = "".join(content)
                tokens.append(("named" if "=" in text else "id", text))
            content.clear()
            separated = True
            kind = None
            continue
        content.append(char)
        if kind is None:
            if not separated:
                raise _error("tokens must be separated by at least one space", place)
            if char in _QUOTES:
                kind = "val"
                delimiter = char
            elif char == "$":
                kind = "var"
            else:
                kind = "id"
    content.append(following)
    text = "".join(content)
    if kind == "id":
        tokens.append(("named" if "=" in text else "id", text))
    elif kind in ("var", "val"):
        tokens.append((kind, text))
    else:
        raise _error("tokens must be separated by at least one space", place)
    return tokens


def _error(message: str, place: Location) -> TemplateError:
    return TemplateError(message, **place._asdict())
