r"""Handlebars syntax: a parser into the tree of frozen nodes of :mod:`._hbs_nodes`.

The grammar is pybars3's (the Handlebars dialect Semantic Kernel's Python SDK renders), so
existing templates parse as they did: ``{{path args}}``, ``{{{path}}}`` and ``{{&path}}``,
``{{#block args}}…{{else}}…{{/block}}``, ``{{^inverted}}``, ``{{!comment}}``,
``{{> partial}}``, ``{{{{raw}}}}…{{{{/raw}}}}``, subexpressions ``(helper args)``, hash
arguments ``name=value``, literals (strings with ``\"``/``\'`` escapes, integers, ``true``,
``false``, ``null``, ``undefined``), paths ``a.b``, ``a/b``, ``../a``, ``@index``, ``this``
and segment literals ``[any text]``, and the ``~`` whitespace marks.

Nothing here produces code: the tree is data, interpreted by
:mod:`sktypes.templates._hbs_runtime`. Whitespace control comes first
(:mod:`._hbs_whitespace`). Where pybars3 misbehaves this parser does not:

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

from collections.abc import Callable

from sktypes.templates._hbs_cursor import SPACE, Cursor, Miss
from sktypes.templates._hbs_nodes import (
    Block,
    Comment,
    Expand,
    Literal,
    Node,
    Partial,
    Path,
    RawBlock,
    SubExpr,
    SyntaxProblem,
    Text,
    Value,
)
from sktypes.templates._hbs_whitespace import whitespace_control

__all__ = ["parse"]


def _symbol_char(char: str) -> bool:
    return char.isalnum() or char in "_-@"


class _Parser(Cursor):
    """A recursive-descent parser with ordered choice, as pybars3's PEG grammar."""

    def __init__(self, text: str, max_depth: int, original: Callable[[int], int]) -> None:
        super().__init__(text, original)
        self.max_depth = max_depth
        self.depth = 0

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
        except Miss:
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
            text[self.pos] in SPACE or text[self.pos] in ']"' or text.startswith("}}", self.pos)
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
