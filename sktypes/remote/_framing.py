"""Stream framing: a streamed body's bytes in, raw items out, incrementally.

:class:`StreamParser` splits server-sent events (WHATWG rules: ``event``, ``data`` over
several lines, ``id``, ``retry``, ``:`` comments, CR/LF/CRLF line ends), JSON lines and JSON
text sequences (RFC 7464) into :class:`RawItem` values as the chunks arrive, each with the
line it starts on; :mod:`._streams` types them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

import orjson

if TYPE_CHECKING:
    from sktypes.remote._streams import Format

__all__ = ["RawItem", "StreamParser"]


@dataclass(slots=True)
class RawItem:
    """One item as received: its text, where it starts, and (SSE) its event fields."""

    text: bytes
    line: int
    event: str = "message"
    id: str | None = None
    retry: int | None = None
    error: str | None = None


class StreamParser:
    """Splits a stream's bytes into raw items, incrementally (``feed`` then ``close``)."""

    def __init__(self, fmt: Format) -> None:
        self.format = fmt
        self._buffer = b""
        self._line = 1  # the line the buffer starts on
        self._pending_cr = False
        # SSE state
        self._data: list[bytes] = []
        self._data_line = 0
        self._event = ""
        self._retry: int | None = None
        self._last_id: str | None = None
        self._first = True

    def feed(self, chunk: bytes) -> list[RawItem]:
        """The items ``chunk`` completes."""
        if self.format == "json-seq":
            return self._records(chunk, final=False)
        return [item for line, n in self._lines(chunk) if (item := self._take(line, n))]

    def close(self) -> list[RawItem]:
        """The items left when the body ends (a last line without its line end)."""
        if self.format == "json-seq":
            return self._records(b"", final=True)
        out: list[RawItem] = []
        if self._buffer:
            line, self._buffer = self._buffer, b""
            item = self._take(line, self._line)
            if item:
                out.append(item)
        if self.format == "sse" and self._data:
            out.append(self._dispatch())
        return out

    def _lines(self, chunk: bytes) -> Iterator[tuple[bytes, int]]:
        """Complete lines (CRLF, LF or CR ends), each with its line number."""
        if self._pending_cr and chunk.startswith(b"\n"):
            chunk = chunk[1:]  # the LF of a CRLF split across chunks
        self._pending_cr = False
        data = self._buffer + chunk
        start = 0
        i = 0
        n = len(data)
        while i < n:
            byte = data[i]
            if byte in (0x0A, 0x0D):
                yield data[start:i], self._line
                self._line += 1
                if byte == 0x0D:
                    if i + 1 < n and data[i + 1] == 0x0A:
                        i += 1
                    elif i + 1 == n:
                        self._pending_cr = True
                start = i + 1
            i += 1
        self._buffer = data[start:]

    def _take(self, line: bytes, number: int) -> RawItem | None:
        if self.format == "jsonl":
            return RawItem(line, number) if line.strip() else None
        if self._first:
            self._first = False
            line = line.removeprefix(b"\xef\xbb\xbf")  # a BOM before the first field
        if not line:
            if self._data:
                return self._dispatch()
            self._reset()
            return None
        if line.startswith(b":"):
            return None
        name, colon, value = line.partition(b":")
        if colon and value.startswith(b" "):
            value = value[1:]
        if name == b"data":
            if not self._data:
                self._data_line = number
            self._data.append(value)
        elif name == b"event":
            self._event = value.decode("utf-8", "replace")
        elif name == b"id" and b"\x00" not in value:
            self._last_id = value.decode("utf-8", "replace")
        elif name == b"retry" and value.isdigit():
            self._retry = int(value)
        return None

    def _reset(self) -> None:
        self._event = ""
        self._retry = None
        return

    def _dispatch(self) -> RawItem:
        raw = RawItem(
            b"\n".join(self._data),
            self._data_line,
            self._event or "message",
            self._last_id,
            self._retry,
        )
        self._data = []
        self._reset()
        return raw

    def _records(self, chunk: bytes, *, final: bool) -> list[RawItem]:
        """RFC 7464 records: RS, a JSON text, LF.

        A record is complete at the next RS, or at a line end where its text so far is
        whole JSON (so it arrives without waiting for the next record).
        """
        self._buffer += chunk
        out: list[RawItem] = []
        while self._buffer:
            if not self._buffer.startswith(b"\x1e"):
                cut = self._buffer.find(b"\x1e")
                if cut < 0 and not final:
                    break
                junk = self._buffer if cut < 0 else self._buffer[:cut]
                if junk.strip():
                    out.append(RawItem(junk, self._line, error="text outside a record (no RS)"))
                self._line += junk.count(b"\n")
                self._buffer = self._buffer[len(junk) :]
                continue
            end = self._buffer.find(b"\x1e", 1)
            record = self._buffer[1:] if end < 0 else self._buffer[1:end]
            if end < 0 and not final and not _whole(record):
                break
            if record.strip():
                out.append(RawItem(record, self._line))
            self._line += record.count(b"\n")
            self._buffer = self._buffer[1 + len(record) :]
        return out


def _whole(record: bytes) -> bool:
    if not record.endswith(b"\n") or not record.strip():
        return False
    try:
        orjson.loads(record)
    except orjson.JSONDecodeError:
        return False
    return True
