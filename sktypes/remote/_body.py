"""Request bodies: JSON, form fields, multipart parts, raw text and bytes, by media type."""

from __future__ import annotations

import os
import re
import typing
from collections.abc import Mapping, Sequence
from typing import Any

import pydantic

from sktypes._base64 import Base64
from sktypes.errors import RemoteRequestError
from sktypes.generated import MISSING
from sktypes.remote._media import is_json, media_type, request_media_type, sniff
from sktypes.remote._wire import _compact, _pairs, _scalar, to_json

__all__ = ["encode_body"]


def _is_json(kind: str) -> bool:
    return not kind or is_json(kind)


def _is_file(value: Any) -> bool:
    return isinstance(value, (bytes, bytearray, memoryview)) or callable(
        getattr(value, "read", None)
    )


def _concrete(
    content_type: str, body: Any, declared: Sequence[str], given: str | None, operation: str
) -> tuple[str, Any]:
    """The media type to send and the body (a file object read into bytes when sniffed).

    A concrete declared type is kept; for a wildcard (``image/*``, ``*/*``) the caller's
    type, else the bytes' signature, else the body's kind decides, and never a type the
    declared ones exclude (see :func:`request_media_type`).
    """
    listed = tuple(declared) or (content_type,)
    head: bytes | None = None
    if given is None and "*" not in media_type(content_type):
        return content_type, body
    if _is_file(body):
        body = _read_all(body)
        head = body[:16]
    elif isinstance(body, str) and sniff(body[:16].encode()) is not None:
        body = body.encode()  # bytes that came as text (an MCP argument is JSON)
        head = body[:16]
    chosen = request_media_type(listed, body, given, operation, head)
    return chosen or content_type, body


def _read_all(value: Any) -> bytes:
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    data = value.read()
    return data.encode() if isinstance(data, str) else bytes(data)


def _form_fields(body: Any, operation: str) -> dict[str, Any]:
    """The top-level fields of a form body (models by alias; ``bytes`` kept as they are)."""
    if isinstance(body, pydantic.BaseModel):
        dumped = body.model_dump(mode="python", by_alias=True, exclude_unset=True)
        return {str(k): v for k, v in dumped.items()}
    if isinstance(body, Mapping):
        return {str(k): v for k, v in body.items() if v is not MISSING}
    raise RemoteRequestError(
        f"a form body must be an object, not {type(body).__name__}", where=operation
    )


def _file_part(name: str, value: Any) -> tuple[str, Any]:
    if isinstance(value, tuple):
        return name, value
    if isinstance(value, (bytes, bytearray, memoryview)):
        return name, (name, bytes(value), "application/octet-stream")
    filename = os.path.basename(str(getattr(value, "name", "") or name))
    return name, (filename, value, "application/octet-stream")


def _mentions_base64(annotation: Any) -> bool:
    if annotation == Base64:
        return True
    return any(_mentions_base64(arg) for arg in typing.get_args(annotation))


def _base64_fields(body: Any) -> set[str]:
    """The names on the wire of a model's ``format: byte`` fields (``Base64``, lists too)."""
    if not isinstance(body, pydantic.BaseModel):
        return set()
    return {
        field.alias or name
        for name, field in type(body).model_fields.items()
        if _mentions_base64(field.rebuild_annotation())
    }


def _multipart(body: Any, operation: str) -> dict[str, Any]:
    """Multipart parts: ``format: byte`` fields are base64 text parts, other bytes files."""
    data: dict[str, list[str]] = {}
    files: list[tuple[str, Any]] = []
    encoded = _base64_fields(body)
    for name, value in _form_fields(body, operation).items():
        if value is None:
            continue
        items = value if isinstance(value, list) else [value]
        if name not in encoded and all(_is_file(v) or isinstance(v, tuple) for v in items):
            files.extend(_file_part(name, v) for v in items)
            continue
        plain = to_json(value)
        if isinstance(plain, dict) or (
            isinstance(plain, list) and any(isinstance(v, (dict, list)) for v in plain)
        ):
            files.append((name, (None, _compact(plain).encode(), "application/json")))
        else:
            data[name] = [_scalar(v) for v in (plain if isinstance(plain, list) else [plain])]
    if not files:  # httpx writes multipart only when a file part is present
        files = [(k, (None, v.encode())) for k, vs in data.items() for v in vs]
        return {"files": files}
    return {"data": data, "files": files}


def encode_body(
    body: Any,
    content_type: str,
    operation: str,
    declared: Sequence[str] = (),
    given: str | None = None,
) -> tuple[dict[str, Any], str | None]:
    """The httpx keyword arguments that send ``body``, and the Content-Type to set.

    ``declared``: every media type the operation accepts (wildcards are checked against
    them); ``given``: the caller's concrete type. ``None`` as the content type: httpx sets
    it (form and multipart, with the boundary).

    Raises:
        RemoteRequestError: the body cannot be sent as the media type, or no declared type
            admits it.
    """
    content_type, body = _concrete(content_type, body, declared, given, operation)
    kind = media_type(content_type)
    if body is None and (
        kind == "application/x-www-form-urlencoded" or kind.startswith("multipart/")
    ):
        return {}, None  # an optional form left out: no fields (a form cannot spell null)
    if _is_json(kind):
        return {"content": _compact(to_json(body)).encode()}, content_type or "application/json"
    if kind == "application/x-www-form-urlencoded":
        fields = {k: to_json(v) for k, v in _form_fields(body, operation).items()}
        pairs = _pairs([(k, v, "form", True) for k, v in fields.items()], _scalar)
        data: dict[str, list[str]] = {}
        for k, v in pairs:
            data.setdefault(k, []).append(v)
        return {"data": data}, None
    if kind.startswith("multipart/"):
        return _multipart(body, operation), None
    if _is_file(body):
        return {"content": _read_all(body)}, content_type
    if isinstance(body, str):
        charset = re.search(r"charset=([\w.-]+)", content_type, re.IGNORECASE)
        return {"content": body.encode(charset[1] if charset else "utf-8")}, content_type
    if kind.startswith("text/") and isinstance(body, (int, float)):
        return {"content": _scalar(body).encode()}, content_type
    raise RemoteRequestError(
        f"a {type(body).__name__} body cannot be sent as {kind}: pass str or bytes",
        where=operation,
    )
