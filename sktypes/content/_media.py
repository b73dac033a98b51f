"""Text and media content: text, binary data, images and audio.

Media hold either a ``uri`` (a URL or a ``data:`` URL) or raw ``data`` bytes with a
``mime_type``; bytes serialize as base64 and come back as the same bytes.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from sktypes.content._base import KernelContent, register_content_type, str_field
from sktypes.errors import ContentError

__all__ = ["AudioContent", "BinaryContent", "ImageContent", "TextContent"]


@register_content_type
@dataclass(slots=True)
class TextContent(KernelContent):
    """A piece of text."""

    type_name: ClassVar[str] = "text"

    text: str = ""

    def __str__(self) -> str:
        return self.text

    def _to_dict(self) -> dict[str, Any]:
        return self._base_fields({"type": "text", "text": self.text})

    @classmethod
    def _from_fields(cls, data: dict[str, Any]) -> TextContent:
        text = data.get("text")
        if type(text) is not str:
            raise ContentError("'text' must be a string", where="text")
        return cls(text=text)


@register_content_type
@dataclass(slots=True)
class BinaryContent(KernelContent):
    """Bytes with a MIME type, or a URI pointing at them (exactly one of ``uri``/``data``).

    Args:
        uri: an http(s) URL, a provider file URI, or a ``data:`` URL.
        data: the raw bytes.
        mime_type: e.g. ``image/png``; needed with ``data`` for most providers.
    """

    type_name: ClassVar[str] = "binary"

    uri: str | None = None
    data: bytes | None = None
    mime_type: str | None = None

    def __post_init__(self) -> None:
        if (self.uri is None) == (self.data is None):
            raise ContentError(f"{type(self).__name__} needs exactly one of uri= or data=")
        if self.data is not None and not isinstance(self.data, bytes):
            raise ContentError(f"{type(self).__name__}.data must be bytes")

    @classmethod
    def from_data_uri(cls, uri: str) -> Self:
        """Decode a ``data:<mime>;base64,<payload>`` URL into ``data`` + ``mime_type``."""
        mime, payload = _split_data_uri(uri)
        return cls(data=payload, mime_type=mime)

    @property
    def data_uri(self) -> str:
        """The content as a ``data:`` URL (the ``uri`` itself when there are no bytes)."""
        if self.data is None:
            return self.uri or ""
        mime = self.mime_type or "application/octet-stream"
        return f"data:{mime};base64,{base64.b64encode(self.data).decode()}"

    @property
    def base64_data(self) -> str | None:
        """The bytes as base64 text, or ``None`` for a URI."""
        return None if self.data is None else base64.b64encode(self.data).decode()

    def _to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type_name}
        if self.uri is not None:
            out["uri"] = self.uri
        if self.data is not None:
            out["data"] = base64.b64encode(self.data).decode()
        if self.mime_type is not None:
            out["mime_type"] = self.mime_type
        return self._base_fields(out)

    @classmethod
    def _from_fields(cls, data: dict[str, Any]) -> Self:
        raw = str_field(data, "data")
        payload = None
        if raw is not None:
            try:
                payload = base64.b64decode(raw, validate=True)
            except (binascii.Error, ValueError):
                raise ContentError("'data' is not valid base64", where="data") from None
        return cls(uri=str_field(data, "uri"), data=payload, mime_type=str_field(data, "mime_type"))


@register_content_type
@dataclass(slots=True)
class ImageContent(BinaryContent):
    """An image: a URL, or bytes with a MIME type such as ``image/png``."""

    type_name: ClassVar[str] = "image"


@register_content_type
@dataclass(slots=True)
class AudioContent(BinaryContent):
    """Audio: a URL, or bytes with a MIME type such as ``audio/wav``."""

    type_name: ClassVar[str] = "audio"


def _split_data_uri(uri: str) -> tuple[str | None, bytes]:
    if not uri.startswith("data:") or "," not in uri:
        raise ContentError("not a data: URL", where=uri[:40])
    head, payload = uri[5:].split(",", 1)
    parts = head.split(";")
    mime = parts[0] or None
    if "base64" not in parts[1:]:
        from urllib.parse import unquote_to_bytes

        return mime, unquote_to_bytes(payload)
    try:
        return mime, base64.b64decode(payload, validate=True)
    except (binascii.Error, ValueError):
        raise ContentError("the data: URL is not valid base64", where=uri[:40]) from None
