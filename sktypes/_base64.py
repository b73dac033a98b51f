"""``Base64``: bytes in Python, base64 text in JSON (OpenAPI's ``format: byte``).

pydantic's ``Base64Bytes`` decodes whatever it is given, bytes included, so
``Model(data=bytes([255]))`` silently holds ``b""``. This type keeps the bytes a caller gives as
they are and reads a string as base64 text (RFC 4648 §4, padded, nothing else allowed);
dumped to JSON it is that text again, dumped to Python the bytes.
"""

from __future__ import annotations

import base64
import binascii
from typing import Annotated, Any

from pydantic import BeforeValidator, PlainSerializer, WithJsonSchema

__all__ = ["Base64"]


def _decode(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):
            raise ValueError("not base64 text (RFC 4648, padded)") from None
    if isinstance(value, (bytearray, memoryview)):
        return bytes(value)
    return value


def _encode(value: bytes) -> str:
    return base64.b64encode(value).decode("ascii")


Base64 = Annotated[
    bytes,
    BeforeValidator(_decode),
    PlainSerializer(_encode, return_type=str, when_used="json"),
    WithJsonSchema({"type": "string", "format": "byte"}),
]
"""Bytes that travel as base64 text: ``format: byte``."""
