"""Where a JSON pointer is in YAML/JSON text: its line and column, for messages.

Only used on error paths. libyaml's events are walked (no tree is built, nothing recurses),
so a place is found in a 13 MB spec without holding a second copy of it.
"""

from __future__ import annotations

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

from sktypes._pointer import unescape
from sktypes._yaml import YamlProblem, events
from sktypes.errors import format_error
from sktypes.limits import DEFAULT_LIMITS, DocumentLimits

__all__ = ["Location", "Placed", "line_of", "locate", "placed_warning"]


@dataclass(frozen=True, slots=True)
class Location:
    """Where a node is in YAML/JSON text (1-based lines and columns).

    Attributes:
        line: where the value starts.
        key_line: the line of its key when it is an object member, else ``line``.
        style: a scalar's style (``|``, ``>``, ``"``, ``'``), ``None`` when plain or not
            a scalar.
        column: the column where the value starts.
        key_column: the column of its key when it is an object member, else ``column``.
    """

    line: int
    key_line: int
    style: str | None
    column: int = 0
    key_column: int = 0


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


_LOOKED_UP = 1_000_000
_LINE = re.compile(r"^(?P<where>.*?) \(line (?P<line>\d+)\)$")


@dataclass(frozen=True, slots=True)
class Placed:
    """A load warning taken apart: its file, pointer, line, column and message.

    ``str()`` is the one form of every located message (:func:`sktypes.errors.format_error`):
    ``file:line:column: /pointer: message``.
    """

    file: str
    where: str
    message: str
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        return format_error(
            self.message, file=self.file, line=self.line, column=self.column, where=self.where
        )


def placed_warning(text: str, file: str, raw: bytes | None = None) -> Placed:
    """Where a warning of ``OpenApiPlugin.warnings`` is: in ``file`` (whose text is ``raw``).

    The load writes each as ``<where>[ (line N)]: <message>``, ``<where>`` a JSON pointer
    of the spec or ``<file>#<pointer>`` of a ``$ref``'d file (named as the ``$ref`` wrote
    it, relative to where the command ran; read again here). The pointer is looked up in
    the text for its line and column; in a text over :data:`_LOOKED_UP` bytes only where
    the validator gave a line (a lookup walks the whole text, and the validator reports a
    bounded number of problems).
    """
    where, sep, message = text.partition(": ")
    if not sep:
        return Placed(file, "", text)
    line = column = None
    numbered = _LINE.match(where)
    if numbered is not None:
        where, line = numbered["where"], int(numbered["line"])
    if not where.startswith("/") and "#" in where:  # in a $ref'd file, named as loading does
        file, _, where = where.partition("#")
        raw = _read(file)
    if where.startswith("/") and (line is not None or len(raw or b"") <= _LOOKED_UP):
        found = locate(raw, where)
        if found is not None:
            line, column = found.key_line, found.key_column
    return Placed(file, where or "/", message, line, column)


def _read(file: str) -> bytes | None:
    """A ``$ref``'d file's text, for the place of a warning in it (small local files only)."""
    try:
        path = Path(file)
        if path.is_file() and path.stat().st_size <= _LOOKED_UP:
            return path.read_bytes()
    except (OSError, ValueError):
        pass
    return None


def _walk(stream: Any, tokens: list[str], max_depth: int) -> Location | None:
    # frames along the matched path:
    # [is_map, expecting_key, key_matches, key_line, index, key_column]
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
        column = event.start_mark.column + 1
        container = cls is MappingStartEvent or cls is SequenceStartEvent
        if not path:  # the root node
            if not tokens:
                return Location(line, line, _style(event), column, column)
            if not container:
                return None
            path.append([cls is MappingStartEvent, True, False, line, 0, column])
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
            frame[5] = column
            continue
        if frame[0]:
            match, key_line, key_column = frame[2], frame[3], frame[5]
        else:
            match, key_line, key_column = tokens[len(path) - 1] == str(frame[4]), line, column
        if match:
            if len(path) == len(tokens):
                return Location(line, key_line, _style(event), column, key_column)
            if not container:
                return None
            path.append([cls is MappingStartEvent, True, False, line, 0, column])
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
