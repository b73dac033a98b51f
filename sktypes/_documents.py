"""One loader for every JSON/YAML document sktypes reads, under one set of limits.

Specs and the files their ``$ref``s reach, functions manuals, JSON Schema files, prompt
template configs and plans all come through here (:class:`sktypes.limits.DocumentLimits`):

- :func:`read_file`: the byte limit holds while reading (a file that grows, a pipe); with
  ``regular_only`` devices, FIFOs and sockets are refused before they are opened, and the
  open itself cannot block;
- :func:`parse_document`: JSON through the stdlib parser, anything else through the
  event-based YAML builder (:mod:`sktypes._yaml`). The nesting depth of JSON text is
  measured on the bytes *before* the (recursive) JSON parser sees them; YAML is built
  without recursion and bounded while it is built. Values JSON has no form for (NaN,
  infinities, numbers beyond the float range, lone surrogates) are refused with their place;
- :func:`check_tree`: the same rules for a tree built in memory (a ``dict`` spec);
- :func:`locate`: the line of a JSON pointer, for messages (an event walk, no recursion).

Errors are raised as the caller's :class:`~sktypes.errors.SktypesError` subclass, naming the
file and the line or JSON pointer.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from yaml.events import (
    AliasEvent,
    CollectionStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)

from sktypes._files import decode_utf8, read_file, same_bytes, size_error
from sktypes._pointer import escape, unescape
from sktypes._yaml import YamlProblem, events, load_yaml
from sktypes.errors import SktypesError
from sktypes.limits import DEFAULT_LIMITS, DocumentLimits

__all__ = [
    "Location",
    "big_integer_at",
    "check_tree",
    "decode_utf8",
    "json_too_deep",
    "line_of",
    "locate",
    "parse_document",
    "read_document",
    "read_file",
    "same_bytes",
]

_INT_MIN, _INT_MAX = -(2**63), 2**64 - 1
NEWLINE = b"\n"


# -- parsing ------------------------------------------------------------------------------

# a JSON string, or an unterminated one running to the end (so a failed match never rescans)
_JSON_STRING = re.compile(rb'"[^"\\]*+(?:\\.[^"\\]*+)*+(?:"|\\?\Z)', re.S)
_BRACKETS_ONLY = bytes.maketrans(b"{}", b"[]")
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _json_too_deep(raw: bytes, max_depth: int) -> bool:
    """Whether JSON text nests deeper than ``max_depth`` (brackets inside strings ignored).

    Linear in the size for real documents: each pass removes one level of empty pairs, and
    a document stops after its own depth (or ``max_depth``) passes.
    """
    if raw.count(b"[") + raw.count(b"{") <= max_depth:
        return False
    brackets = _JSON_STRING.sub(b"", raw).translate(_BRACKETS_ONLY, _NOT_BRACKETS)
    for _ in range(max_depth):
        shorter = brackets.replace(b"[]", b"")
        if len(shorter) == len(brackets):
            return False
        brackets = shorter
    return b"[]" in brackets


_LONG_DIGITS = re.compile(rb"\d{20}")
_STRING_OR_INTEGER = re.compile(rb'"[^"\\]*+(?:\\.[^"\\]*+)*+"|(?<![\w.])-?\d{20,}(?![\w.])', re.S)


def big_integer_at(raw: bytes) -> int | None:
    """The offset of the first JSON integer outside the 64-bit range in ``raw``, if any.

    orjson (sktypes' JSON engine for histories and views) reads such an integer as an
    inexact float without a word; callers that must stay exact refuse it instead.
    """
    if _LONG_DIGITS.search(raw) is None:
        return None
    for m in _STRING_OR_INTEGER.finditer(raw):
        token = m.group()
        if token[:1] == b'"':
            continue
        if len(token) > 22 or not _INT_MIN <= int(token) <= _INT_MAX:
            return m.start()
    return None


def json_too_deep(raw: bytes, max_depth: int) -> bool:
    """Whether JSON text nests deeper than ``max_depth`` (see :func:`parse_document`)."""
    return _json_too_deep(raw, max_depth)


class _BadNumber(Exception):
    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


def _json_int(text: str) -> int | float:
    """A JSON integer; beyond 64 bits a float (as JavaScript reads it), beyond that refused."""
    if len(text) > 330:  # past the float range whatever the digits (and int()'s digit limit)
        raise _BadNumber(text)
    value = int(text)
    if _INT_MIN <= value <= _INT_MAX:
        return value
    try:
        return float(value)
    except OverflowError:
        raise _BadNumber(text) from None


def _json_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _BadNumber(text)
    return value


def _json_constant(text: str) -> Any:
    raise _BadNumber(text)


def _number_line(raw: bytes, text: str) -> str | None:
    literal = re.compile(rb"(?<![\w.+-])" + re.escape(text.encode()) + rb"(?![\w.])")
    found = literal.search(raw)
    return f"line {raw.count(NEWLINE, 0, found.start()) + 1}" if found else None


def _number_message(text: str) -> str:
    shown = text if len(text) <= 20 else text[:19] + "…"
    return f"the number {shown} has no JSON form (NaN, infinite or out of range)"


def _where(line: int | None, column: int | None, columns: bool) -> str | None:
    if not line:
        return None
    return f"line {line} column {column}" if columns and column else f"line {line}"


def parse_document(
    raw: bytes,
    display: str | None,
    error: type[SktypesError],
    limits: DocumentLimits = DEFAULT_LIMITS,
    *,
    strict_json: bool = False,
    columns: bool = False,
) -> Any:
    """Parse JSON or YAML text into a JSON-compatible tree within ``limits``.

    Args:
        raw: the text.
        display: how messages name it.
        error: the error class to raise.
        limits: the limits.
        strict_json: text that starts like JSON must be JSON (its syntax errors are
            reported as such); otherwise it may be flow-style YAML.
        columns: name the column as well as the line where it is known.

    Raises:
        SktypesError: (as ``error``) the text is too large, too deep, not JSON/YAML, or holds
            a value JSON cannot represent; the message names ``display`` and the line (or
            the JSON pointer).
    """
    if len(raw) > limits.max_bytes:
        raise size_error(error, display, len(raw), limits.max_bytes)
    head = raw.lstrip()[:1]
    if head in (b"{", b"[") and not _json_too_deep(raw, limits.max_depth):
        try:  # the stdlib parser: orjson is faster but peaks at ~7x the tree's memory
            data = json.loads(
                raw, parse_int=_json_int, parse_float=_json_float, parse_constant=_json_constant
            )
        except _BadNumber as exc:
            where = _number_line(raw, exc.text)
            raise error(_number_message(exc.text), file=display, where=where) from None
        except json.JSONDecodeError as exc:
            if strict_json:
                where = _where(exc.lineno, exc.colno, columns)
                raise error(f"invalid JSON: {exc.msg}", file=display, where=where) from None
            # else JSON-looking YAML (flow style): the YAML parser decides and reports
        except (ValueError, RecursionError):  # UnicodeDecodeError: the YAML reader reports
            pass
        else:
            if _SURROGATE_ESCAPE.search(raw):
                _check_strings(data, display, error)
            return data
    try:
        return load_yaml(raw, limits)
    except YamlProblem as exc:
        where = _where(exc.line, exc.column, columns)
        raise error(exc.message, file=display, where=where) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = _where(mark.line + 1, mark.column + 1, columns) if mark is not None else None
        problem = exc.problem or exc.context or "syntax error"
        raise error(f"not valid YAML or JSON: {problem}", file=display, where=where) from None
    except yaml.YAMLError as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise error(f"not valid YAML or JSON: {first}", file=display) from None
    except RecursionError:  # pragma: no cover - the builder does not recurse
        raise error(f"nested deeper than {limits.max_depth} levels", file=display) from None


def _check_strings(data: Any, display: str | None, error: type[SktypesError]) -> None:
    """Refuse a lone surrogate (half of a UTF-16 pair, escaped) in any key or string."""
    stack: list[tuple[Any, str]] = [(data, "")]
    while stack:
        node, pointer = stack.pop()
        if type(node) is dict:
            for key, value in node.items():
                child = f"{pointer}/{escape(key)}" if _SURROGATE.search(key) is None else ""
                if not child:
                    raise error(_SURROGATE_MESSAGE, file=display, where=pointer or "/")
                stack.append((value, child))
        elif type(node) is list:
            stack.extend((v, f"{pointer}/{i}") for i, v in enumerate(node))
        elif type(node) is str and _SURROGATE.search(node) is not None:
            raise error(_SURROGATE_MESSAGE, file=display, where=pointer or "/")


_SURROGATE_MESSAGE = "a lone surrogate escape (such as \\ud800) is not Unicode text"


def check_tree(
    data: Any,
    display: str | None,
    error: type[SktypesError],
    limits: DocumentLimits = DEFAULT_LIMITS,
    *,
    json_path: bool = False,
) -> None:
    """Apply the document rules to a tree built in memory (no recursion).

    JSON values only (``str`` keys; ``None``, bools, 64-bit ints, finite floats, strings
    without lone surrogates, lists, tuples, dicts), nested at most ``limits.max_depth`` deep
    (a container that holds itself is too deep). The error names the place as a JSON
    pointer, or a JSON path (``$.a[0]``) with ``json_path``; places are only spelled out
    for the error, so a clean tree costs one type test per value.
    """
    # entries: (value, depth, parent link); a link is (parent link, key) or None
    stack: list[tuple[Any, int, Any]] = [(data, 0, None)]
    max_depth = limits.max_depth

    def fail(message: str, link: Any) -> SktypesError:
        keys: list[str | int] = []
        while link is not None:
            link, key = link
            keys.append(key)
        keys.reverse()
        if json_path:
            where = "$" + "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in keys)
        else:
            where = "".join("/" + escape(k) for k in keys) or "/"
        return error(message, file=display, where=where)

    while stack:
        node, depth, link = stack.pop()
        kind = type(node)
        if kind is str:
            if _SURROGATE.search(node) is not None:
                raise fail(_SURROGATE_MESSAGE, link)
        elif node is None or kind is bool:
            continue
        elif kind is dict or kind is list or kind is tuple or isinstance(node, (dict, list)):
            if depth >= max_depth:
                raise fail(f"nested deeper than {max_depth} levels", link)
            if isinstance(node, dict):
                for key, value in node.items():
                    if type(key) is not str:
                        what = f"an object key must be a string, not {type(key).__name__}"
                        raise fail(what, link)
                    if _SURROGATE.search(key) is not None:
                        raise fail(_SURROGATE_MESSAGE, link)
                    stack.append((value, depth + 1, (link, key)))
            else:
                stack.extend((v, depth + 1, (link, i)) for i, v in enumerate(node))
        elif isinstance(node, int):
            if not _INT_MIN <= node <= _INT_MAX:
                what = "an integer beyond 64 bits has no exact JSON form here (use a float)"
                raise fail(what, link)
        elif isinstance(node, float):
            if not math.isfinite(node):
                raise fail(_number_message(repr(node)), link)
        elif isinstance(node, str):
            stack.append((str(node), depth, link))
        else:
            raise fail(f"{type(node).__name__} is not a JSON value", link)


# -- positions ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Location:
    """Where a node is in YAML/JSON text (1-based lines).

    Attributes:
        line: where the value starts.
        key_line: the line of its key when it is an object member, else ``line``.
        style: a scalar's style (``|``, ``>``, ``"``, ``'``), ``None`` when plain or not
            a scalar.
    """

    line: int
    key_line: int
    style: str | None


def locate(
    raw: bytes | None, pointer: str, limits: DocumentLimits = DEFAULT_LIMITS
) -> Location | None:
    """Find the node at JSON ``pointer`` in ``raw`` by walking libyaml's events.

    Only used on error paths. No tree is built and nothing recurses; the walk stops where
    the text nests deeper than ``limits.max_depth`` (libyaml's scanner slows down
    quadratically with the depth of flow collections). ``None`` when the pointer is not in
    the text (a place inside a ``$ref``'d file, a merged key) or the text does not parse.
    """
    if raw is None:
        return None
    tokens = [unescape(t) for t in pointer.split("/")[1:]] if pointer not in ("", "/") else []
    try:
        return _walk(events(raw, limits.max_depth), tokens, limits.max_depth)
    except (yaml.YAMLError, YamlProblem):
        return None


def line_of(raw: bytes | None, pointer: str, limits: DocumentLimits = DEFAULT_LIMITS) -> int | None:
    """The 1-based line of the node at ``pointer`` (its key's line for an object member)."""
    found = locate(raw, pointer, limits)
    return found.key_line if found is not None else None


def _walk(stream: Any, tokens: list[str], max_depth: int) -> Location | None:
    # frames along the matched path: [is_map, expecting_key, key_matches, key_line, index]
    path: list[list[Any]] = []
    skip = 0  # nesting count inside a subtree off the path
    skipping_key = False
    for event in stream:
        cls = type(event)
        if len(path) + skip > max_depth:
            return None
        if skip:
            if isinstance(event, CollectionStartEvent):
                skip += 1
            elif cls is MappingEndEvent or cls is SequenceEndEvent:
                skip -= 1
            if skip == 0:
                _advance(path[-1], skipping_key)
                skipping_key = False
            continue
        if cls is MappingEndEvent or cls is SequenceEndEvent:
            return None  # a container on the path ended without the target
        if not (cls is ScalarEvent or cls is AliasEvent or isinstance(event, CollectionStartEvent)):
            continue
        line = event.start_mark.line + 1
        container = cls is MappingStartEvent or cls is SequenceStartEvent
        if not path:  # the root node
            if not tokens:
                return Location(line, line, _style(event))
            if not container:
                return None
            path.append([cls is MappingStartEvent, True, False, line, 0])
            continue
        frame = path[-1]
        if frame[0] and frame[1]:  # a key
            if container:
                skip, skipping_key = 1, True
                frame[2] = False
                continue
            frame[1] = False
            frame[2] = cls is ScalarEvent and event.value == tokens[len(path) - 1]
            frame[3] = line
            continue
        if frame[0]:
            match, key_line = frame[2], frame[3]
        else:
            match, key_line = tokens[len(path) - 1] == str(frame[4]), line
        if match:
            if len(path) == len(tokens):
                return Location(line, key_line, _style(event))
            if not container:
                return None
            path.append([cls is MappingStartEvent, True, False, line, 0])
        elif container:
            skip = 1
        else:
            _advance(frame, False)
    return None


def _advance(frame: list[Any], after_key: bool) -> None:
    if frame[0]:
        frame[1] = not after_key
        if after_key:
            frame[2] = False
    else:
        frame[4] += 1


def _style(event: Any) -> str | None:
    style = getattr(event, "style", None)
    return style if isinstance(style, str) and style else None


def read_document(
    path: Path,
    display: str,
    error: type[SktypesError],
    limits: DocumentLimits = DEFAULT_LIMITS,
    *,
    regular_only: bool = False,
    strict_json: bool = False,
    columns: bool = False,
) -> tuple[bytes, Any]:
    """:func:`read_file` then :func:`parse_document`: the raw bytes and the tree."""
    raw = read_file(path, display, limits, error, regular_only=regular_only)
    tree = parse_document(raw, display, error, limits, strict_json=strict_json, columns=columns)
    return raw, tree
