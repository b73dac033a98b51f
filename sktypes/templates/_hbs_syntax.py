r"""Handlebars syntax: whitespace control, then a parser into a tree of frozen nodes.

The grammar is pybars3's (the Handlebars dialect Semantic Kernel's Python SDK renders), so
existing templates parse as they did: ``{{path args}}``, ``{{{path}}}`` and ``{{&path}}``,
``{{#block args}}…{{else}}…{{/block}}``, ``{{^inverted}}``, ``{{!comment}}``,
``{{> partial}}``, ``{{{{raw}}}}…{{{{/raw}}}}``, subexpressions ``(helper args)``, hash
arguments ``name=value``, literals (strings with ``\"``/``\'`` escapes, integers, ``true``,
``false``, ``null``, ``undefined``), paths ``a.b``, ``a/b``, ``../a``, ``@index``, ``this``
and segment literals ``[any text]``, and the ``~`` whitespace marks.

Nothing here produces code: the tree is data, interpreted by
:mod:`sktypes.templates._hbs_runtime`. Where pybars3 misbehaves this parser does not:

- the whole template must parse (pybars3 renders ``a{{#if x}}b`` as ``a``, dropping the
  unclosed tail without a word);
- a ``\r\n`` right after a tag is kept (pybars3 drops the ``\r``);
- whitespace control is linear (pybars3's regular expression backtracks exponentially on
  a line of many block tags: 14 tags took 27 s);
- nesting is bounded (:attr:`TemplateLimits.max_depth`), so a deep template is an error,
  not a ``RecursionError``;
- a hash argument may be named like a Python keyword (``class="x"``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

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
    "parse",
    "whitespace_control",
]


# --- the tree ----------------------------------------------------------------------------


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


# --- whitespace control ------------------------------------------------------------------

_TAG_ANY = r"\{\{(?:#[^{}]++|/[^{}]++|![^{}]++|else|else if [^{}]++)\}\}"
_TAG_OPEN = r"\{\{(?:#[^{}]++|![^{}]++)\}\}"
_TAG_CLOSE = r"\{\{(?:/[^{}]++|![^{}]++)\}\}"


def _line_of(tag: str) -> re.Pattern[str]:
    """Spaces, one or more of ``tag`` with spaces between, spaces (possessive: linear)."""
    return re.compile(rf"(?:[ \t]*+{tag}[ \t]*+)++")


_STANDALONE = _line_of(_TAG_ANY)
_FIRST_LINE = _line_of(_TAG_OPEN)
_LAST_LINE = _line_of(_TAG_CLOSE)
_TIDY = re.compile(r"(?<=\{\{)~|~(?=\}\})|(?<=\}\})[ \t]+(?=\{\{)")


def whitespace_control(source: str) -> tuple[str, Callable[[int], int]]:
    """Apply Handlebars' whitespace rules; return the text and a map back to ``source``.

    The rules (pybars3's, in its order of precedence at each position):

    1. ``~}}`` eats the whitespace after it; ``{{~`` the whitespace before it;
    2. a line holding only block tags (``{{#…}}``, ``{{/…}}``, ``{{else}}``, comments)
       loses its indentation and its line break;
    3. so does a first line of opening tags, and a last line of closing tags (with the
       line break before it).

    The second value maps a position in the returned text to the position in ``source``
    it came from (for error messages).
    """
    out: list[str] = []
    edits: list[tuple[int, int]] = []  # (position in out, position in source) after an edit
    length = len(source)
    done = 0  # source[:done] is in out
    written = 0
    scan = _Scan(source)
    i = 0
    while i < length:
        end = scan.rule_at(i)
        if end < 0:
            i += 1
            continue
        kept = _TIDY.sub("", source[i:end].strip())
        if i > done:
            out.append(source[done:i])
            written += i - done
        out.append(kept)
        written += len(kept)
        edits.append((written, end))
        done = i = end
    if done < length:
        out.append(source[done:])
    text = "".join(out)

    def original(position: int) -> int:
        back = 0
        for at, source_at in edits:
            if at > position:
                break
            back = source_at - at
        return min(position + back, length)

    return text, original


class _Scan:
    """Which whitespace rule matches where, each position looked at a bounded number of times."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.no_tilde_until = -1  # positions before this start no ``\s*{{~`` match

    def rule_at(self, i: int) -> int:
        """The end of the rule matching at ``i`` (``-1``: none), in pybars3's order."""
        source = self.source
        char = source[i]
        if char == "~" and source.startswith("~}}", i):
            end = i + 3
            while end < len(source) and source[end].isspace():
                end += 1
            return end
        if i >= self.no_tilde_until and (char.isspace() or char == "{"):
            end = i
            while end < len(source) and source[end].isspace():
                end += 1
            if source.startswith("{{~", end):
                return end + 3
            self.no_tilde_until = end + 1  # the rest of this run is followed by the same
        if i > 0 and source[i - 1] == "\n":
            found = _STANDALONE.match(source, i)
            if found:
                end = _line_break(source, found.end())
                if end >= 0:
                    return end
        if i == 0:
            found = _FIRST_LINE.match(source)
            if found:
                end = _line_break(source, found.end())
                if end >= 0:
                    return end
        if char in "\r\n":
            start = _line_break(source, i)
            found = _LAST_LINE.match(source, start) if start >= 0 else None
            if found and (found.end() == len(source) or source[found.end() :] == "\n"):
                return found.end()
        return -1


def _line_break(source: str, i: int) -> int:
    """The position after a line break (CR LF or LF) at ``i`` (``-1``: there is none)."""
    if source.startswith("\r\n", i):
        return i + 2
    if source.startswith("\n", i):
        return i + 1
    return -1


# --- the parser ----------------------------------------------------------------------------


_T = TypeVar("_T")


class _Miss(Exception):
    """Internal: an alternative did not match (the parser backtracks)."""


_MISS = _Miss()
_SPACE = " \t\r\n"


def _symbol_char(char: str) -> bool:
    return char.isalnum() or char in "_-@"


class _Parser:
    """A recursive-descent parser with ordered choice, as pybars3's PEG grammar."""

    def __init__(self, text: str, max_depth: int, original: Callable[[int], int]) -> None:
        self.text = text
        self.original = original
        self.pos = 0
        self.furthest = 0
        self.max_depth = max_depth
        self.depth = 0

    # primitives

    def miss(self, at: int | None = None) -> _Miss:
        at = self.pos if at is None else at
        if at > self.furthest:
            self.furthest = at
        # the one instance, raised afresh: a raise adds its frames to the exception's
        # traceback, so a kept one would hold every parser (and its nodes) that ever missed
        return _MISS.with_traceback(None)

    def peek(self, literal: str) -> bool:
        return self.text.startswith(literal, self.pos)

    def expect(self, literal: str) -> None:
        if not self.text.startswith(literal, self.pos):
            raise self.miss()
        self.pos += len(literal)

    def spaces(self) -> None:
        text, pos = self.text, self.pos
        while pos < len(text) and text[pos].isspace():
            pos += 1
        self.pos = pos

    def space_run(self) -> bool:
        text, pos = self.text, self.pos
        while pos < len(text) and text[pos] in _SPACE:
            pos += 1
        moved = pos > self.pos
        self.pos = pos
        return moved

    def attempt(self, rule: Callable[[], _T]) -> _T | None:
        """``rule()``, or ``None`` with the position restored when it does not match."""
        start = self.pos
        try:
            return rule()
        except _Miss:
            self.pos = start
            return None

    def nested(self) -> None:
        self.depth += 1
        if self.depth > self.max_depth:
            raise SyntaxProblem(
                f"blocks and subexpressions nest deeper than {self.max_depth} levels",
                self.original(self.pos),
            )

    # template ::= (text | command)*

    def template(self) -> tuple[Node, ...]:
        nodes: list[Node] = []
        text = self.text
        while self.pos < len(text):
            start = self.pos
            if not text.startswith("{{", start):
                stop = text.find("{{", start)
                stop = len(text) if stop < 0 else stop
                self.pos = stop
                if nodes and isinstance(nodes[-1], Text):
                    nodes[-1] = Text(nodes[-1].text + text[start:stop])
                else:
                    nodes.append(Text(text[start:stop]))
                continue
            node = self.command()
            if node is None:
                self.pos = start
                self.miss()
                break
            if not isinstance(node, Comment):
                nodes.append(node)
        return tuple(nodes)

    def command(self) -> Node | None:
        for rule in (
            self.block,
            self.comment,
            self.escaped_expression,
            self.expression,
            self.partial,
            self.raw_block,
        ):
            found = self.attempt(rule)
            if found is not None:
                return found  # type: ignore[return-value]
        return None

    def comment(self) -> Comment:
        self.expect("{{!")
        stop = self.text.find("}}", self.pos)
        if stop < 0:
            raise self.miss(len(self.text))
        self.pos = stop + 2
        return Comment()

    def escaped_expression(self) -> Expand:
        where = self.original(self.pos)
        self.expect("{{")
        path, args, kwargs = self.expression_inner()
        return Expand(path, args, kwargs, True, where)

    def expression(self) -> Expand:
        where = self.original(self.pos)
        self.expect("{{")
        if self.peek("{"):
            self.pos += 1
            path, args, kwargs = self.expression_inner()
            self.expect("}")
        else:
            self.expect("&")
            path, args, kwargs = self.expression_inner()
        return Expand(path, args, kwargs, False, where)

    def expression_inner(self) -> tuple[Path, tuple[Value, ...], tuple[tuple[str, Value], ...]]:
        self.spaces()
        path = self.path()
        args, kwargs = self.arguments()
        self.spaces()
        self.expect("}}")
        return path, args, kwargs

    # blocks

    def block(self) -> Block:
        where = self.original(self.pos)
        self.expect("{{")
        if self.peek("#"):
            inverted = False
        elif self.peek("^"):
            inverted = True
        else:
            raise self.miss()
        self.pos += 1
        name, args, kwargs = self.block_inner()
        self.nested()
        try:
            body = self.template()
            inverse = self.attempt(self.alternative)
            self.close(name)
        finally:
            self.depth -= 1
        return Block(name, args, kwargs, body, inverse, inverted, where)

    def block_inner(self) -> tuple[str, tuple[Value, ...], tuple[tuple[str, Value], ...]]:
        self.spaces()
        name = self.symbol()
        args, kwargs = self.arguments()
        self.spaces()
        self.expect("}}")
        return name, args, kwargs

    def alternative(self) -> tuple[Node, ...]:
        self.expect("{{")
        if not self.alt_inner():
            raise self.miss()
        return self.template()

    def alt_inner(self) -> bool:
        """``{{else}}`` or ``{{^}}`` from after the ``{{`` (consumed when it matches)."""
        start = self.pos
        self.spaces()
        if self.peek("^"):
            self.pos += 1
        elif self.peek("else"):
            self.pos += 4
        else:
            self.pos = start
            return False
        self.spaces()
        if self.peek("}}"):
            self.pos += 2
            return True
        self.pos = start
        return False

    def close(self, name: str) -> None:
        self.expect("{{/")
        found = self.symbol()
        if found != name:
            raise self.miss()
        self.expect("}}")

    def raw_block(self) -> RawBlock:
        where = self.original(self.pos)
        self.expect("{{{{")
        name, args, kwargs = self.block_inner()
        self.expect("}}")
        stop = self.text.find("{{{{/", self.pos)
        while stop >= 0:
            end = self._raw_finish(stop, name)
            if end >= 0:
                raw = self.text[self.pos : stop]
                self.pos = end
                return RawBlock(name, args, kwargs, raw, where)
            stop = self.text.find("{{{{/", stop + 1)
        raise self.miss(len(self.text))

    def _raw_finish(self, at: int, name: str) -> int:
        """The end of ``{{{{/name}}}}`` at ``at`` (the symbol may be bracketed), or ``-1``."""
        saved = self.pos
        self.pos = at + 5
        try:
            if self.symbol() == name and self.peek("}}}}"):
                return self.pos + 4
            return -1
        except _Miss:
            return -1
        finally:
            self.pos = saved

    def partial(self) -> Partial:
        where = self.original(self.pos)
        self.expect("{{>")
        self.spaces()
        name: str | SubExpr | None = self.attempt(self.subexpression)
        if name is None:
            name = self.partial_name()
        args, kwargs = self.arguments()
        self.spaces()
        self.expect("}}")
        if len(args) > 1:
            raise SyntaxProblem("a partial takes at most one positional argument", where)
        return Partial(name, args, kwargs, where)

    def partial_name(self) -> str:
        if self.lookahead_alt():
            raise self.miss()
        text = self.text
        if self.pos < len(text) and text[self.pos] in '["':
            self.pos += 1
        start = self.pos
        while self.pos < len(text) and not (
            text[self.pos] in _SPACE or text[self.pos] in ']"' or text.startswith("}}", self.pos)
        ):
            self.pos += 1
        if self.pos == start:
            raise self.miss()
        name = text[start : self.pos]
        if self.pos < len(text) and text[self.pos] in ']"':
            self.pos += 1
        return name

    # arguments

    def arguments(self) -> tuple[tuple[Value, ...], tuple[tuple[str, Value], ...]]:
        args: list[Value] = []
        kwargs: list[tuple[str, Value]] = []
        while True:
            start = self.pos
            if not self.space_run():
                break
            kw = self.attempt(self.keyword_argument)
            if kw is not None:
                name, value = kw
                if any(name == seen for seen, _ in kwargs):
                    raise SyntaxProblem(
                        f"the hash argument {name!r} is given twice", self.original(start)
                    )
                kwargs.append((name, value))
                continue
            positional = self.attempt(self.value)
            if positional is None:
                self.pos = start
                break
            if kwargs:
                raise SyntaxProblem(
                    "a positional argument follows a hash argument", self.original(start)
                )
            args.append(positional)
        return tuple(args), tuple(kwargs)

    def keyword_argument(self) -> tuple[str, Value]:
        name = self.safe_symbol()
        self.expect("=")
        for rule in (self.literal, self.path, self.subexpression):
            found = self.attempt(rule)
            if found is not None:
                return name, found  # type: ignore[return-value]
        raise self.miss()

    def value(self) -> Value:
        for rule in (self.literal, self.path, self.subexpression):
            found = self.attempt(rule)
            if found is not None:
                return found  # type: ignore[return-value]
        raise self.miss()

    def subexpression(self) -> SubExpr:
        start = self.pos
        self.expect("(")
        self.nested()
        try:
            self.spaces()
            path = self.path()
            args, kwargs = self.arguments()
            self.spaces()
            self.expect(")")
        finally:
            self.depth -= 1
        if path.simple is None:
            raise SyntaxProblem(
                "a subexpression must name a helper, not a path", self.original(start)
            )
        return SubExpr(path.simple, args, kwargs)

    def literal(self) -> Literal:
        text, pos = self.text, self.pos
        if pos >= len(text):
            raise self.miss()
        char = text[pos]
        if char in "\"'":
            return Literal(self.string(char))
        if char == "-" or char.isdigit():
            end = pos + 1 if char == "-" else pos
            while end < len(text) and text[end].isdigit():
                end += 1
            if end == pos + 1 and char == "-":
                raise self.miss()
            try:
                number = int(text[pos:end])
            except ValueError:  # a digit int() does not read (e.g. '²')
                problem = f"{text[pos:end]!r} is not a number"
                raise SyntaxProblem(problem, self.original(pos)) from None
            self.pos = end
            return Literal(number)
        for word, value in (("false", False), ("true", True), ("null", None), ("undefined", None)):
            if text.startswith(word, pos):
                self.pos = pos + len(word)
                return Literal(value)
        raise self.miss()

    def string(self, quote: str) -> str:
        text = self.text
        pos = self.pos + 1
        out: list[str] = []
        while pos < len(text):
            char = text[pos]
            if char == "\\" and pos + 1 < len(text) and text[pos + 1] in "\"'":
                out.append(text[pos + 1])
                pos += 2
                continue
            if char == quote:
                self.pos = pos + 1
                return "".join(out)
            out.append(char)
            pos += 1
        raise self.miss(len(text))

    # paths and symbols

    def path(self) -> Path:
        if self.peek("/"):
            raise self.miss()
        segments: list[str] = []
        while True:
            segment = self.attempt(self.path_segment)
            if segment is None:
                break
            segments.append(segment)
        if not segments:
            raise self.miss()
        return Path(tuple("" if s == "this" else s for s in segments))

    def path_segment(self) -> str:
        text, pos = self.text, self.pos
        if text.startswith("[", pos):
            stop = text.find("]", pos + 1)
            if stop > pos + 1:
                self.pos = stop + 1
                return text[pos + 1 : stop]
        if text.startswith("@../", pos):
            self.pos = pos + 4
            return "@@_parent"
        found = self.attempt(self.symbol)
        if found is not None:
            return found
        if text.startswith("/", pos):
            self.pos = pos + 1
            return ""
        if text.startswith("../", pos):
            self.pos = pos + 3
            return "@_parent"
        if text.startswith(".", pos):
            self.pos = pos + 1
            return ""
        raise self.miss()

    def lookahead_alt(self) -> bool:
        start = self.pos
        found = self.alt_inner()
        self.pos = start
        return found

    def symbol(self) -> str:
        if self.lookahead_alt():
            raise self.miss()
        text = self.text
        if self.peek("["):
            self.pos += 1
        start = self.pos
        while self.pos < len(text) and _symbol_char(text[self.pos]):
            self.pos += 1
        if self.pos == start:
            raise self.miss()
        name = text[start : self.pos]
        if self.peek("]"):
            self.pos += 1
        return name

    def safe_symbol(self) -> str:
        if self.lookahead_alt():
            raise self.miss()
        text = self.text
        if self.peek("["):
            self.pos += 1
        start = self.pos
        if self.pos < len(text) and (text[self.pos].isalpha() or text[self.pos] == "_"):
            self.pos += 1
        else:
            raise self.miss()
        while self.pos < len(text) and (text[self.pos].isalnum() or text[self.pos] == "_"):
            self.pos += 1
        if self.pos - start < 2:  # pybars3 wants two characters at least
            raise self.miss()
        name = text[start : self.pos]
        if self.peek("]"):
            self.pos += 1
        return name


def parse(source: str, max_depth: int = 50) -> tuple[Node, ...]:
    """Parse a Handlebars template (after :func:`whitespace_control`) into nodes.

    Node positions (``where``) are offsets in ``source``.

    Raises:
        SyntaxProblem: the text does not parse; ``position`` is where in ``source``
            (the original, before whitespace control) parsing got furthest.
    """
    text, original = whitespace_control(source)
    parser = _Parser(text, max_depth, original)
    nodes = parser.template()
    if parser.pos < len(text):
        position = max(parser.furthest, parser.pos)
        near = text[parser.pos : parser.pos + 20]
        raise SyntaxProblem(f"syntax error near {near!r}", original(position))
    return nodes
