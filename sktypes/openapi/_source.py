"""Reading a spec: path, text, bytes or dict → a JSON-compatible tree, safely and with limits.

JSON goes through the stdlib parser; anything else through :mod:`sktypes.openapi._yaml` (libyaml's
parser, safe-schema values). YAML is bounded three ways: the byte size (``max_bytes``), alias
expansion (an alias bomb is a small file whose tree, expanded, is huge) and recursion (a
YAML alias may point at its own ancestor). YAML 1.1 quirks that do not belong in JSON are
undone: timestamps stay strings and integer keys (``200:``) become strings.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import yaml

from sktypes import _pointer
from sktypes.errors import OpenApiError
from sktypes.openapi._yaml import YamlProblem, load_yaml

__all__ = ["DEFAULT_MAX_BYTES", "Document", "line_of", "parse_bytes", "read_path"]

DEFAULT_MAX_BYTES = 64 * 1024 * 1024
"""Default size limit for one spec file (GitHub's REST description is ~13 MB)."""

_MAX_EXPANDED_NODES = 2_000_000
NEWLINE = b"\n"
_ALIAS = re.compile(rb"(?:^|[\s\[,:-])\*[^\s,\[\]{}]+", re.MULTILINE)

_BaseLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass(frozen=True, slots=True)
class Document:
    """One parsed spec file (or in-memory spec).

    Attributes:
        data: the JSON-compatible tree.
        display: how messages name it (a path as given, or ``<string>`` / ``<dict>``).
        uri: its absolute base URI (``file://...``), ``None`` for in-memory specs.
        text: the raw bytes when it came from text (used only to find line numbers).
        path: the file it was read from (re-read for line numbers on the error path, rather
            than kept in memory).
    """

    data: Any
    display: str
    uri: str | None
    text: bytes | None = None
    path: Path | None = None

    def raw(self) -> bytes | None:
        """The document's text, for line numbers (``None`` for dicts or unreadable files)."""
        if self.text is not None or self.path is None:
            return self.text
        try:
            return self.path.read_bytes()
        except OSError:
            return None


def _check_size(size: int, max_bytes: int, display: str) -> None:
    if size > max_bytes:
        raise OpenApiError(
            f"document is {size} bytes, over the {max_bytes}-byte limit "
            "(pass a larger max_bytes to load it)",
            file=display,
        )


def read_path(path: Path, display: str, max_bytes: int) -> Document:
    """Read and parse the spec file at ``path`` (size checked before reading)."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise OpenApiError(f"cannot read the file: {exc.strerror or exc}", file=display) from None
    _check_size(size, max_bytes, display)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise OpenApiError(f"cannot read the file: {exc.strerror or exc}", file=display) from None
    data = parse_bytes(raw, display, max_bytes)
    return Document(data, display, path.resolve().as_uri(), path=path)


def path_of_uri(uri: str) -> Path:
    """Return the local path of a ``file://`` URI."""
    return Path(unquote(urlsplit(uri).path))


def _int(text: str) -> int | float:
    """A JSON integer; one outside 64 bits becomes a float (JsonDocument serializes with orjson)."""
    value = int(text)
    return value if -(2**63) <= value <= 2**64 - 1 else float(value)


def parse_bytes(raw: bytes, display: str, max_bytes: int) -> Any:
    """Parse JSON or YAML text into a JSON-compatible tree; errors name file and line."""
    _check_size(len(raw), max_bytes, display)
    head = raw.lstrip()[:1]
    if head in (b"{", b"["):
        try:  # the stdlib parser: orjson is faster but peaks at ~7x the tree's memory
            return json.loads(raw, parse_int=_int)
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
            pass  # JSON-looking YAML (flow style); the YAML parser decides and reports
    try:
        data = load_yaml(raw)
    except YamlProblem as exc:
        where = f"line {exc.line}" if exc.line else None
        raise OpenApiError(exc.message, file=display, where=where) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"line {mark.line + 1}" if mark is not None else None
        problem = exc.problem or exc.context or "syntax error"
        raise OpenApiError(
            f"not valid YAML or JSON: {problem}", file=display, where=where
        ) from None
    except yaml.YAMLError as exc:
        raise OpenApiError(f"not valid YAML or JSON: {exc}", file=display) from None
    except RecursionError:
        raise OpenApiError("YAML nested too deeply", file=display) from None
    if _ALIAS.search(raw):
        _check_expansion(data, raw, display)
    return data


def _first_alias_line(raw: bytes) -> str | None:
    match = _ALIAS.search(raw)
    if match is None:
        return None
    return f"line {raw.count(NEWLINE, 0, match.start()) + 1}"


def _check_expansion(data: Any, raw: bytes, display: str) -> None:
    """Refuse YAML whose aliases expand into a huge or infinite tree."""
    sizes: dict[int, int] = {}
    active: set[int] = set()

    def size(node: Any) -> int:
        if not isinstance(node, (dict, list)):
            return 1
        key = id(node)
        known = sizes.get(key)
        if known is not None:
            return known
        if key in active:
            raise OpenApiError(
                "a YAML alias refers to its own ancestor (recursive document)",
                file=display,
                where=_first_alias_line(raw),
            )
        active.add(key)
        children = node.values() if isinstance(node, dict) else node
        total = 1
        for child in children:
            total += size(child)
            if total > _MAX_EXPANDED_NODES:
                raise OpenApiError(
                    f"YAML aliases expand to more than {_MAX_EXPANDED_NODES} nodes (alias bomb?)",
                    file=display,
                    where=_first_alias_line(raw),
                )
        active.discard(key)
        sizes[key] = total
        return total

    try:
        size(data)
    except RecursionError:
        raise OpenApiError("YAML nested too deeply", file=display) from None


def line_of(raw: bytes | None, pointer: str) -> int | None:
    """Return the 1-based line of the node at JSON ``pointer`` in YAML/JSON text, if found.

    Only used on the error path: composing the node tree keeps positions but costs time.
    """
    if raw is None:
        return None
    try:
        node = yaml.compose(raw, Loader=_BaseLoader)  # a safe loader
    except (yaml.YAMLError, RecursionError):
        return None
    line = node.start_mark.line + 1 if node is not None else None
    try:
        tokens = _pointer.split(pointer)
    except _pointer.PointerError:
        return None
    for token in tokens:
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                if str(key.value) == token:
                    node = value
                    line = key.start_mark.line + 1
                    break
            else:
                return None  # not in this file (e.g. a path inside a $ref's target)
        elif (
            isinstance(node, yaml.SequenceNode) and token.isdigit() and int(token) < len(node.value)
        ):
            node = node.value[int(token)]
            line = node.start_mark.line + 1
        else:
            return None
    return line
