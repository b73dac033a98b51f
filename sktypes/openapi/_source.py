"""Reading a spec: path, text, bytes or dict → a JSON-compatible tree, safely and with limits.

Every file goes through the one document loader (:mod:`sktypes._documents`) under the
caller's :class:`~sktypes.limits.DocumentLimits`: the byte size is bounded while reading,
the nesting depth before any recursive parser sees the text, YAML aliases by count and by
expansion. A spec given as a ``dict`` is checked by the same rules.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from sktypes._documents import check_tree, line_of, locate, parse_document, read_file
from sktypes.errors import OpenApiError
from sktypes.limits import DEFAULT_LIMITS, DocumentLimits

__all__ = [
    "DEFAULT_MAX_BYTES",
    "Document",
    "check_tree",
    "digest_of",
    "line_of",
    "locate",
    "parse_bytes",
    "path_of_uri",
    "read_path",
]

DEFAULT_MAX_BYTES = DEFAULT_LIMITS.max_bytes
"""Default size limit for one spec file (GitHub's REST description is ~13 MB)."""


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
        digest: the SHA-256 of its bytes (``None`` for a dict), which names its validation
            verdict (:mod:`._verdicts`).
    """

    data: Any
    display: str
    uri: str | None
    text: bytes | None = None
    path: Path | None = None
    digest: str | None = None

    def raw(self) -> bytes | None:
        """The document's text, for line numbers (``None`` for dicts or unreadable files)."""
        if self.text is not None or self.path is None:
            return self.text
        try:
            return read_file(self.path, self.display, DEFAULT_LIMITS, OpenApiError)
        except OpenApiError:
            return None


def read_path(
    path: Path, display: str, limits: DocumentLimits, *, regular_only: bool = False
) -> Document:
    """Read and parse the spec file at ``path`` (bounded; see :func:`read_file`)."""
    raw = read_file(path, display, limits, OpenApiError, regular_only=regular_only)
    data = parse_document(raw, display, OpenApiError, limits)
    return Document(data, display, path.resolve().as_uri(), path=path, digest=digest_of(raw))


def digest_of(raw: bytes) -> str:
    """The SHA-256 of a document's bytes (hex)."""
    return hashlib.sha256(raw).hexdigest()


def path_of_uri(uri: str) -> Path:
    """Return the local path of a ``file://`` URI."""
    return Path(unquote(urlsplit(uri).path))


def parse_bytes(raw: bytes, display: str, limits: DocumentLimits = DEFAULT_LIMITS) -> Any:
    """Parse JSON or YAML text into a JSON-compatible tree; errors name file and line."""
    return parse_document(raw, display, OpenApiError, limits)
