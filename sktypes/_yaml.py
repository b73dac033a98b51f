"""A fast, safe, bounded YAML → JSON-tree builder on libyaml's event stream.

Why not ``yaml.load(..., CSafeLoader)``: on a 3 MB spec (Plaid, OpenAI) two thirds of its
time goes to PyYAML's per-scalar resolver and node objects, not to parsing; and PyYAML's C
composer recurses once per nesting level, so a deeply nested document overflows the C stack
(a segfault, not an exception). This module takes libyaml's events (``yaml.parse`` with the
C parser, a state machine without recursion) and builds dicts and lists with an explicit
stack, resolving plain scalars by the YAML 1.2 core schema (what the OpenAPI specification
recommends, and what JavaScript tools such as js-yaml and Prism read), not by PyYAML's YAML
1.1 table: ``yes``/``no``/``on``/``off`` (and so Norway's ``NO`` in a country enum), ``1:30``,
``1_000`` and ``0b101`` stay the strings they are in YAML 1.2, ``017`` is seventeen, ``0o17``
is fifteen and ``1e5`` is a number. Timestamps stay strings and mapping keys are strings (as
JSON wants). :class:`Yaml12Resolver` is that table in PyYAML's own resolver form, so a PyYAML
emitter built on it quotes exactly the strings a YAML 1.2 reader would misread.

Bounds (:class:`sktypes.limits.DocumentLimits`): nesting depth while building, the alias
count, and — when aliases occur — the expanded size and depth of the tree, all before the
tree is returned. Values JSON has no form for are refused with their line: NaN and
infinities, integers beyond the float range. Integers beyond 64 bits but within the float
range become floats (JavaScript tools write ``-2^63`` as ``-9223372036854776000``); as
mapping keys they keep their text. No tags beyond the YAML core schema; anchors resolved by
reference (never copied); merge keys (``<<``) supported.
"""

from __future__ import annotations

import math
import re
from typing import Any

import yaml
from yaml.events import (
    AliasEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)
from yaml.resolver import BaseResolver

from sktypes.limits import DEFAULT_LIMITS, DocumentLimits

__all__ = [
    "Yaml12Resolver",
    "YamlProblem",
    "events",
    "flow_depth_place",
    "load_yaml",
    "scalar_kind",
]

_INT_MIN, _INT_MAX = -(2**63), 2**64 - 1
_TAG = "tag:yaml.org,2002:"


class Yaml12Resolver(BaseResolver):
    """The YAML 1.2 core schema's implicit tags (YAML 1.2.2, 10.3.2), plus the merge key."""


def _core(kind: str, pattern: str, first: str) -> None:
    Yaml12Resolver.add_implicit_resolver(_TAG + kind, re.compile(pattern, re.X), list(first))


_core("null", r"^(?: ~ | null | Null | NULL | )$", "~nN")
_core("bool", r"^(?: true | True | TRUE | false | False | FALSE )$", "tTfF")
_core("int", r"^(?: [-+]?[0-9]+ | 0o[0-7]+ | 0x[0-9a-fA-F]+ )$", "-+0123456789")
_core(
    "float",
    r"""^(?: [-+]? (?: \.[0-9]+ | [0-9]+ (?: \.[0-9]* )? ) (?: [eE][-+]?[0-9]+ )?
        | [-+]? \. (?: inf | Inf | INF ) | \. (?: nan | NaN | NAN ) )$""",
    "-+.0123456789",
)
_core("merge", r"^(?: << )$", "<")
Yaml12Resolver.add_implicit_resolver(_TAG + "null", re.compile(r"^$"), [""])
_RESOLVERS = Yaml12Resolver.yaml_implicit_resolvers
_SPECIAL_FLOATS = {"inf": math.inf, "nan": math.nan}
_DECIMAL = re.compile(r"[-+]?[0-9]+")
# libyaml's parser through PyYAML's public loader class (its events; nothing constructed)
_Parser: Any = getattr(yaml, "CBaseLoader", None)  # None: PyYAML built without libyaml


class YamlProblem(Exception):
    """A document sktypes refuses or cannot read; ``line`` is 1-based (``None`` if unknown)."""

    def __init__(self, message: str, line: int | None, column: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


class _Merge:
    """The ``<<`` merge key."""


_MERGE = _Merge()
_NO_KEY = object()


def _core_int(value: str) -> int:
    """A core-schema integer (``ValueError`` for text that is not one)."""
    if value[:2] == "0o":
        return int(value[2:], 8)
    if value[:2] == "0x":
        return int(value[2:], 16)
    if _DECIMAL.fullmatch(value) is None:
        raise ValueError(value)
    return int(value, 10)


def _core_float(value: str) -> float:
    """A core-schema float (``ValueError`` for text that is not one)."""
    special = _SPECIAL_FLOATS.get(value.lstrip("-+.").lower())
    if special is not None:
        return -special if value[0] == "-" else special
    if "_" in value:
        raise ValueError(value)
    return float(value)


def _number(kind: str, value: str, line: int, key: bool) -> Any:
    try:
        if kind == "int":
            number: int | float = _core_int(value)
            if _INT_MIN <= number <= _INT_MAX:
                return str(number) if key else number
            if key:
                return value  # a key is text: keep the digits as written
            number = float(number)
        else:
            number = _core_float(value)
    except OverflowError:  # beyond the float range
        number = math.inf
    except ValueError:  # an explicit tag on text that is no such number, the int digit limit
        if _core_int_digits(value):
            number = math.inf
        else:
            raise YamlProblem(f"!!{kind} {_shown(value)} is not a YAML 1.2 {kind}", line) from None
    if math.isfinite(number):
        return str(number) if key else number
    if key:
        return value
    raise YamlProblem(
        f"the number {_shown(value)} has no JSON form (NaN, infinite or out of range)", line
    )


def _core_int_digits(value: str) -> bool:
    """``value`` is a plain decimal integer (too long for ``int()``'s digit limit)."""
    return _DECIMAL.fullmatch(value) is not None


def _shown(value: str) -> str:
    return value if len(value) <= 20 else value[:19] + "…"


def _scalar(kind: str, value: str, line: int, key: bool) -> Any:
    if kind == "str" or kind == "timestamp" or kind == "value":
        return value
    if kind == "null":
        return "null" if key else None
    if kind == "merge":
        return _MERGE
    if kind == "int" or kind == "float":
        return _number(kind, value, line, key)
    if kind == "bool":
        flag = _BOOLS.get(value)
        if flag is None:
            raise YamlProblem(f"!!bool {_shown(value)} is not a YAML 1.2 bool", line)
        return ("true" if flag else "false") if key else flag
    raise YamlProblem(f"unsupported YAML tag !!{kind}", line)


_BOOLS = dict.fromkeys(("true", "True", "TRUE"), True)
_BOOLS.update(dict.fromkeys(("false", "False", "FALSE"), False))


def scalar_kind(event: ScalarEvent, line: int) -> str:
    """The core-schema kind of a scalar event (``str``, ``int``, ``bool``...)."""
    tag = event.tag
    if tag is None or tag == "!":
        return _implicit(event.value) if event.implicit[0] and tag is None else "str"
    if tag.startswith(_TAG):
        return tag[len(_TAG) :]
    raise YamlProblem(f"unsupported YAML tag {tag}", line)


def _implicit(value: str) -> str:
    for tag, regexp in _RESOLVERS.get(value[:1] if value else "", ()):
        if regexp.match(value):
            return str(tag)[len(_TAG) :]
    return "str"


def _key(key: Any, line: int) -> str:
    """A key that came through an alias (already a value): its JSON text."""
    if isinstance(key, str):
        return key
    if isinstance(key, bool):
        return "true" if key else "false"
    if key is None:
        return "null"
    if isinstance(key, (int, float)):
        return str(key)
    raise YamlProblem("a mapping key must be a scalar", line)


def _merge_into(mapping: dict[str, Any], sources: list[Any], line: int) -> None:
    merged: dict[str, Any] = {}
    flat: list[Any] = []
    for source in sources:
        flat.extend(source if isinstance(source, list) else [source])
    for source in reversed(flat):  # earlier sources win, as in PyYAML
        if not isinstance(source, dict):
            raise YamlProblem("a merge key (<<) needs a mapping or a list of mappings", line)
        merged.update(source)
    explicit = dict(mapping)
    mapping.clear()  # in place: an anchor may already point at this dict
    mapping.update(merged)
    mapping.update(explicit)


def events(raw: bytes, max_depth: int = DEFAULT_LIMITS.max_depth) -> Any:
    """Return the event stream for ``raw``; reader errors become :class:`YamlProblem`.

    The nesting bound is sktypes' own whatever the parser does: libyaml (0.2.6+, in PyYAML
    6.0.4's wheels) stops at 1,000 levels of its own, and in flow collections it stops while
    it looks ahead, before it has given a single event. That refusal is reported as
    ``nested deeper than max_depth levels`` on the line where the text passes ``max_depth``.
    """
    # without libyaml, PyYAML's pure-Python parser gives the same events (slower)
    stream = _events(_Parser(raw)) if _Parser is not None else yaml.parse(raw, yaml.SafeLoader)
    try:
        yield from stream
    except yaml.MarkedYAMLError as exc:
        if exc.problem != _PARSER_DEPTH or exc.problem_mark is None:
            raise
        place = flow_depth_place(raw, max_depth)
        if place is not None:
            raise YamlProblem(f"nested deeper than {max_depth} levels", *place) from None
        mark = exc.problem_mark
        message = "nested deeper than the YAML parser allows"
        raise YamlProblem(message, mark.line + 1, mark.column + 1) from None
    except yaml.reader.ReaderError as exc:  # a control character, invalid UTF-8
        at = max(exc.position, 0)
        line = raw.count(b"\n", 0, at) + 1
        column = at - raw.rfind(b"\n", 0, at)
        if isinstance(exc.character, int):
            problem = f"unacceptable character #x{exc.character:04x}: {exc.reason}"
        else:
            byte = exc.character[0]
            problem = f"'{exc.encoding}' codec cannot decode byte #x{byte:02x}: {exc.reason}"
        raise YamlProblem(problem, line, column) from None


_PARSER_DEPTH = "exceeded maximum nesting depth"
# a bracket, or a double-quoted string (which may hide brackets), unterminated ones included
_BRACKET_OR_STRING = re.compile(rb'[\[\]{}]|"[^"\\]*+(?:\\.[^"\\]*+)*+(?:"|\\?\Z)', re.S)


def flow_depth_place(raw: bytes, max_depth: int) -> tuple[int, int] | None:
    """The line and column where flow brackets in ``raw`` first nest deeper than ``max_depth``.

    Brackets inside double-quoted strings do not count. ``None`` when they never do (the
    nesting is block-style, or within the bound).
    """
    depth = 0
    for match in _BRACKET_OR_STRING.finditer(raw):
        first = match.group()[0]
        if first in _OPENERS:
            depth += 1
            if depth > max_depth:
                at = match.start()
                return raw.count(b"\n", 0, at) + 1, at - raw.rfind(b"\n", 0, at)
        elif first in _CLOSERS and depth:
            depth -= 1
    return None


_OPENERS = frozenset(b"[{")
_CLOSERS = frozenset(b"]}")


def _events(parser: Any) -> Any:
    try:
        while parser.check_event():
            yield parser.get_event()
    finally:
        parser.dispose()


def load_yaml(raw: bytes, limits: DocumentLimits = DEFAULT_LIMITS) -> Any:
    """Parse one YAML document into dicts, lists and scalars.

    Raises:
        YamlProblem: the document is refused (a limit, a tag, a value JSON cannot hold) or
            libyaml cannot read its characters; the line is given where known.
        yaml.MarkedYAMLError: a syntax error (with its mark).
    """
    return _build(events(raw, limits.max_depth), limits)


def _located(problem: YamlProblem, event: Any) -> YamlProblem:
    """``problem`` with the column of ``event`` when it is on the event's line."""
    mark = getattr(event, "start_mark", None)
    if problem.column is None and mark is not None and problem.line == mark.line + 1:
        problem.column = mark.column + 1
    return problem


def _build(stream: Any, limits: DocumentLimits) -> Any:
    anchors: dict[str, Any] = {}
    # frames: [container, pending key, merge sources]
    stack: list[list[Any]] = []
    root: Any = _NO_KEY
    documents = 0
    aliases = 0
    first_alias = 0
    max_depth = limits.max_depth
    event: Any = None
    try:
        for event in stream:
            cls = type(event)
            line = event.start_mark.line + 1 if event.start_mark is not None else 0
            if cls is ScalarEvent:
                as_key = bool(stack) and type(stack[-1][0]) is dict and stack[-1][1] is _NO_KEY
                value: Any = _scalar(scalar_kind(event, line), event.value, line, as_key)
                if event.anchor is not None:
                    anchors[event.anchor] = value
            elif cls is MappingStartEvent or cls is SequenceStartEvent:
                _check_tag(event.tag, "map" if cls is MappingStartEvent else "seq", line)
                if len(stack) >= max_depth:
                    raise YamlProblem(f"nested deeper than {max_depth} levels", line)
                container: Any = {} if cls is MappingStartEvent else []
                if event.anchor is not None:
                    anchors[event.anchor] = container
                stack.append([container, _NO_KEY, None])
                continue
            elif cls is MappingEndEvent or cls is SequenceEndEvent:
                frame = stack.pop()
                value = frame[0]
                if frame[2]:
                    _merge_into(value, frame[2], line)
            elif cls is AliasEvent:
                aliases += 1
                if aliases > limits.max_aliases:
                    if limits.max_aliases == 0:
                        raise YamlProblem("YAML aliases are not allowed here", line)
                    raise YamlProblem(
                        f"more than {limits.max_aliases} YAML aliases (alias bomb?)", line
                    )
                first_alias = first_alias or line
                try:
                    value = anchors[event.anchor]
                except KeyError:
                    raise YamlProblem(f"unknown YAML alias *{event.anchor}", line) from None
            else:
                if cls is DocumentStartEvent:
                    documents += 1
                    if documents > 1:
                        raise YamlProblem("more than one YAML document in the file", line)
                continue
            if not stack:
                root = value
                continue
            frame = stack[-1]
            target = frame[0]
            if type(target) is list:
                target.append(value)
            elif frame[1] is _NO_KEY:
                frame[1] = value
            else:
                key = frame[1]
                frame[1] = _NO_KEY
                if key is _MERGE:
                    frame[2] = [*(frame[2] or []), value]
                else:
                    target[_key(key, line)] = value
    except YamlProblem as exc:
        raise _located(exc, event) from None
    result = None if root is _NO_KEY else root
    if aliases:
        problem = expansion_problem(result, limits)
        if problem:
            raise YamlProblem(problem, first_alias)
    return result


def _children(node: Any) -> Any:
    return iter(node.values()) if type(node) is dict else iter(node)


def expansion_problem(root: Any, limits: DocumentLimits) -> str:
    """Why a tree whose parts may be shared (YAML aliases) is refused, or ``""``.

    Shared parts count once per place they appear: the size and depth are those of the
    tree a JSON encoder (or any recursive consumer) would walk. A part that contains itself
    is refused. Iterative, memoized per shared part: linear in the number of distinct parts.
    """
    if type(root) is not dict and type(root) is not list:
        return ""
    done: dict[int, tuple[int, int]] = {}  # id -> (expanded size, depth)
    active = {id(root)}
    # frames: [node, children iterator, size so far, depth of the deepest child]
    stack: list[list[Any]] = [[root, _children(root), 1, 0]]
    max_nodes, max_depth = limits.max_nodes, limits.max_depth
    while stack:
        frame = stack[-1]
        for child in frame[1]:
            if type(child) is dict or type(child) is list:
                known = done.get(id(child))
                if known is None:
                    if id(child) in active:
                        return "a YAML alias refers to its own ancestor (recursive document)"
                    if len(stack) >= max_depth:
                        return f"nested deeper than {max_depth} levels (YAML aliases expanded)"
                    active.add(id(child))
                    stack.append([child, _children(child), 1, 0])
                    break
                size, depth = known
                if len(stack) + depth > max_depth:
                    return f"nested deeper than {max_depth} levels (YAML aliases expanded)"
            else:
                size, depth = 1, 0
            frame[2] += size
            if depth > frame[3]:
                frame[3] = depth
            if frame[2] > max_nodes:
                return f"YAML aliases expand to more than {max_nodes} nodes (alias bomb?)"
        else:
            stack.pop()
            node = frame[0]
            active.discard(id(node))
            size, depth = frame[2], frame[3] + 1
            done[id(node)] = (size, depth)
            if len(stack) + depth > max_depth:
                return f"nested deeper than {max_depth} levels (YAML aliases expanded)"
            if stack:
                parent = stack[-1]
                parent[2] += size
                if depth > parent[3]:
                    parent[3] = depth
                if parent[2] > max_nodes:
                    return f"YAML aliases expand to more than {max_nodes} nodes (alias bomb?)"
    return ""


def _check_tag(tag: str | None, kind: str, line: int) -> None:
    if tag is None or tag == "!" or tag == _TAG + kind:
        return
    raise YamlProblem(f"unsupported YAML tag {tag}", line)
