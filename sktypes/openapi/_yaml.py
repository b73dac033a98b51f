"""A fast, safe YAML → JSON-tree builder on libyaml's event stream.

Why not ``yaml.load(..., CSafeLoader)``: on a 3 MB spec (Plaid, OpenAI) two thirds of its
time goes to PyYAML's per-scalar resolver and node objects, not to parsing. This module takes
libyaml's events (``yaml.parse`` with the C parser) and builds dicts and lists directly,
resolving plain scalars with PyYAML's own implicit-resolver table and constructing them
with PyYAML's own ``SafeConstructor`` methods, so values are the ones ``safe_load`` gives,
except that (as JSON wants) timestamps stay strings, mapping keys are strings and integers
beyond 64 bits become floats. Safety: no tags beyond the YAML core schema, a bounded alias
count, anchors resolved by reference (never copied). Merge keys (``<<``) are supported.
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.constructor import SafeConstructor
from yaml.events import (
    AliasEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)
from yaml.resolver import Resolver

__all__ = ["YamlProblem", "load_yaml"]

MAX_ALIASES = 100_000
_INT_MIN, _INT_MAX = -(2**63), 2**64 - 1
_RESOLVERS = Resolver.yaml_implicit_resolvers
_TAG = "tag:yaml.org,2002:"
_CONSTRUCT = SafeConstructor()
_Parser: Any
try:
    from yaml._yaml import CParser as _LibyamlParser

    _Parser = _LibyamlParser
except ImportError:  # pragma: no cover - PyYAML built without libyaml
    _Parser = None


class YamlProblem(Exception):
    """A document sktypes refuses or cannot read; ``line`` is 1-based (``None`` if unknown)."""

    def __init__(self, message: str, line: int | None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


class _Merge:
    """The ``<<`` merge key."""


_MERGE = _Merge()
_NO_KEY = object()


def _scalar(tag: str, value: str, line: int) -> Any:
    if tag == "str" or tag == "timestamp":
        return value
    if tag == "null":
        return None
    if tag == "merge":
        return _MERGE
    node = yaml.ScalarNode(_TAG + tag, value)
    if tag == "int":
        number: int = _CONSTRUCT.construct_yaml_int(node)
        return number if _INT_MIN <= number <= _INT_MAX else float(number)
    if tag == "float":
        return _CONSTRUCT.construct_yaml_float(node)
    if tag == "bool":
        return _CONSTRUCT.construct_yaml_bool(node)
    if tag == "value":
        return value
    raise YamlProblem(f"unsupported YAML tag !!{tag}", line)


def _implicit(value: str) -> str:
    for tag, regexp in _RESOLVERS.get(value[:1] if value else "", ()):
        if regexp.match(value):
            return str(tag)[len(_TAG) :]
    return "str"


def _key(key: Any, line: int) -> str:
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


def load_yaml(raw: bytes) -> Any:
    """Parse one YAML document into dicts, lists and scalars; raise :class:`YamlProblem`."""
    # without libyaml, PyYAML's pure-Python parser gives the same events (slower)
    events = _events(_Parser(raw)) if _Parser is not None else yaml.parse(raw, yaml.SafeLoader)
    return _build(events)


def _events(parser: Any) -> Any:
    try:
        while parser.check_event():
            yield parser.get_event()
    finally:
        parser.dispose()


def _build(events: Any) -> Any:
    anchors: dict[str, Any] = {}
    # frames: [container, pending key, merge sources]
    stack: list[list[Any]] = []
    root: Any = _NO_KEY
    documents = 0
    aliases = 0
    for event in events:
        cls = type(event)
        line = event.start_mark.line + 1 if event.start_mark is not None else 0
        if cls is ScalarEvent:
            value_text: str = event.value
            tag = event.tag
            if tag is None or tag == "!":
                kind = _implicit(value_text) if event.implicit[0] and tag is None else "str"
            elif tag.startswith(_TAG):
                kind = tag[len(_TAG) :]
            else:
                raise YamlProblem(f"unsupported YAML tag {tag}", line)
            value: Any = _scalar(kind, value_text, line)
            if event.anchor is not None:
                anchors[event.anchor] = value
        elif cls is MappingStartEvent or cls is SequenceStartEvent:
            _check_tag(event.tag, "map" if cls is MappingStartEvent else "seq", line)
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
            if aliases > MAX_ALIASES:
                raise YamlProblem(f"more than {MAX_ALIASES} YAML aliases (alias bomb?)", line)
            try:
                value = anchors[event.anchor]
            except KeyError:
                raise YamlProblem(f"unknown YAML alias *{event.anchor}", line) from None
        else:
            if type(event).__name__ == "DocumentStartEvent":
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
    return None if root is _NO_KEY else root


def _check_tag(tag: str | None, kind: str, line: int) -> None:
    if tag is None or tag == "!" or tag == _TAG + kind:
        return
    raise YamlProblem(f"unsupported YAML tag {tag}", line)
