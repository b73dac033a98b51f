"""Media types: what a request asks for (``Accept``), sends, and how a body is read.

- :func:`accept_header`: the declared media types of the responses, JSON first, the others
  with a lower ``q`` so a server that negotiates picks JSON when it is offered;
- :func:`kind_of`: how a received body is read: ``json``, ``text`` or ``bytes``;
- :func:`request_media_type`: the concrete type a body is sent as when the spec declares a
  wildcard (``image/*``): the caller's, else one recognised from the bytes' signature (PNG,
  JPEG, GIF, WebP, PDF), never one the declared types exclude.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from sktypes.errors import RemoteRequestError

__all__ = [
    "BodyKind",
    "accept_header",
    "is_json",
    "is_text",
    "kind_of",
    "matches",
    "media_type",
    "request_media_type",
    "sniff",
]

BodyKind = Literal["json", "text", "bytes"]


def media_type(content_type: str) -> str:
    """The bare, lower-case media type of a ``Content-Type`` value (no parameters)."""
    return content_type.split(";")[0].strip().lower()


def is_json(kind: str) -> bool:
    """Whether a bare media type is JSON (``application/json``, ``*/*+json``, ``*/json``)."""
    return kind == "application/json" or kind.endswith(("+json", "/json"))


def is_text(kind: str) -> bool:
    """Whether a media type is text (its body is read as ``str``, not ``bytes``)."""
    return (
        kind.startswith("text/")
        or kind.endswith(("+xml", "/xml", "+yaml", "/yaml"))
        or kind in ("application/javascript", "application/x-www-form-urlencoded")
    )


def kind_of(content_type: str) -> BodyKind:
    """How a body of this ``Content-Type`` is read (no type at all: JSON is tried)."""
    kind = media_type(content_type)
    if not kind or is_json(kind):
        return "json"
    return "text" if is_text(kind) else "bytes"


def matches(concrete: str, declared: str) -> bool:
    """Whether media type ``concrete`` is admitted by ``declared`` (which may be a wildcard)."""
    have, want = media_type(concrete), media_type(declared)
    if want in ("*/*", "*", ""):
        return True
    main, _, sub = want.partition("/")
    if sub == "*":
        return have.partition("/")[0] == main
    return have == want


def accept_header(declared: Sequence[str]) -> str | None:
    """The ``Accept`` value for responses declared as ``declared`` (``None``: no body declared).

    JSON types first, in spec order, then the others with ``q=0.9`` and wildcards last with
    lower ``q`` still, so a negotiating server answers JSON whenever it can.
    """
    seen: dict[str, None] = {}
    for item in declared:
        kind = media_type(item)
        if kind:
            seen.setdefault(kind, None)
    kinds = list(seen)
    if not kinds:
        return None
    json_kinds = [k for k in kinds if is_json(k)]
    concrete = [k for k in kinds if not is_json(k) and "*" not in k]
    wild = sorted((k for k in kinds if "*" in k and not is_json(k)), key=lambda k: k == "*/*")
    parts = list(json_kinds)
    if not parts:  # nothing to prefer: the spec's order is the preference
        return ", ".join(concrete + [w if w != "*/*" else "*/*;q=0.1" for w in wild])
    parts += [f"{k};q=0.9" for k in concrete]
    parts += [f"{k};q={'0.1' if k == '*/*' else '0.5'}" for k in wild]
    return ", ".join(parts)


_SIGNATURES: tuple[tuple[bytes, int, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", 0, "image/png"),
    (b"\xff\xd8\xff", 0, "image/jpeg"),
    (b"GIF87a", 0, "image/gif"),
    (b"GIF89a", 0, "image/gif"),
    (b"%PDF-", 0, "application/pdf"),
)


def sniff(data: bytes) -> str | None:
    """The media type the bytes' signature proves (PNG, JPEG, GIF, WebP, PDF), else ``None``."""
    for magic, offset, kind in _SIGNATURES:
        if data[offset : offset + len(magic)] == magic:
            return kind
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return None


def request_media_type(
    declared: Sequence[str], body: Any, given: str | None, operation: str, head: bytes | None
) -> str | None:
    """The concrete media type to send ``body`` as, for a spec declaring ``declared``.

    ``given``: the caller's (must be admitted by a declared type). Without it, a concrete
    declared type is kept as it is (``None`` is returned: the caller encodes as declared);
    for a wildcard, ``head`` (the body's first bytes) decides when its signature is known,
    else the body's kind: JSON data, text or ``application/octet-stream``, each only when a
    declared type admits it.

    Raises:
        RemoteRequestError: the caller's type, or every type the body could be sent as, is
            excluded by the declared types (the message names them).
    """
    listed = [d for d in declared if d] or ["application/json"]
    shown = ", ".join(listed)
    if given is not None:
        if not any(matches(given, d) for d in listed):
            raise RemoteRequestError(
                f"content type {media_type(given)!r} is not one the operation accepts ({shown})",
                where=operation,
            )
        return given
    if not any("*" in media_type(d) for d in listed):
        return None
    candidates: list[str] = []
    if head is not None:
        found = sniff(head)
        if found is not None:
            candidates.append(found)
        candidates.append("application/octet-stream")
    elif isinstance(body, str):
        candidates += ["text/plain; charset=utf-8", "application/json"]
    else:
        candidates += ["application/json", "text/plain; charset=utf-8"]
    for candidate in candidates:
        for d in listed:
            if "*" not in media_type(d) and matches(candidate, d):
                return d  # a concrete declared type that fits: as the spec writes it
        if any(matches(candidate, d) for d in listed):
            return candidate
    raise RemoteRequestError(
        f"cannot tell which of {shown} the body is (its bytes match no known signature); "
        "pass content_type=",
        where=operation,
    )
