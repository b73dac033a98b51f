"""Streamed responses: server-sent events, JSON lines and JSON text sequences, item by item.

An operation whose success response is ``text/event-stream``, ``application/jsonl`` (also
``application/x-ndjson``, ``application/x-jsonlines``) or ``application/json-seq``, or that
declares an OpenAPI 3.2 ``itemSchema``, returns its items as they arrive
(:func:`iterate_stream`): the body is read chunk by chunk and each complete item is parsed,
typed and yielded before the next one is read.

- **Server-sent events** are parsed by the WHATWG rules (``event``, ``data`` over several
  lines, ``id``, ``retry``, ``:`` comments, CR/LF/CRLF line ends); each event becomes a
  :class:`ServerSentEvent` whose ``data`` is the event's data read as JSON and typed by the
  stream's schema (or kept as text when the schema says the data is a string). ``id`` is
  the last event ID (as a browser's ``lastEventId``). A data of ``[DONE]`` ends the stream
  (the convention of OpenAI's and others' streams). An event the stream ends in without a
  blank line after it is still delivered.
- **JSON lines**: one JSON value per line; blank lines are skipped.
- **JSON text sequences** (RFC 7464): records after an RS byte (0x1E).

An item that is not JSON, or not what the stream's schema declares, raises
:class:`~sktypes.errors.StreamItemError` with its position (index and line) and the item as
received; a stream that breaks off raises :class:`~sktypes.errors.RemoteResponseError`
saying how many items came before.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncGenerator, AsyncIterator, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

import httpx
import orjson
import pydantic

from sktypes.errors import HydrationError, RemoteResponseError, StreamItemError
from sktypes.hydration import hydrate
from sktypes.remote._client import _checked
from sktypes.remote._items import AsyncItems

if TYPE_CHECKING:
    from sktypes.remote._client import ApiClient
    from sktypes.remote._request import Request

__all__ = [
    "STREAM_MEDIA_TYPES",
    "ServerSentEvent",
    "Stream",
    "StreamParser",
    "iterate_stream",
    "iterate_stream_sync",
    "read_stream",
    "read_stream_sync",
    "stream_format",
]

T = TypeVar("T")

Format = Literal["sse", "jsonl", "json-seq"]

STREAM_MEDIA_TYPES: dict[str, Format] = {
    "text/event-stream": "sse",
    "application/jsonl": "jsonl",
    "application/x-ndjson": "jsonl",
    "application/x-jsonlines": "jsonl",
    "application/jsonlines": "jsonl",
    "application/json-seq": "json-seq",
}
"""The media types read as streams, and how."""


def stream_format(media_type: str) -> Format | None:
    """How a media type is streamed (``None``: it is not a stream)."""
    return STREAM_MEDIA_TYPES.get(media_type.split(";")[0].strip().lower())


class ServerSentEvent(pydantic.BaseModel, Generic[T]):
    """One server-sent event.

    Attributes:
        data: the event's data, typed by the stream's schema (``str`` when it is text).
        event: the event type (``message`` when the event names none).
        id: the last event ID received so far (``None`` before any).
        retry: the reconnection time the event sets, in milliseconds, if it sets one.
    """

    model_config = pydantic.ConfigDict(frozen=True, extra="forbid")

    data: T
    event: str
    id: str | None = None
    retry: int | None = pydantic.Field(default=None, ge=0)

    @pydantic.model_serializer(mode="wrap")
    def _present(self, handler: pydantic.SerializerFunctionWrapHandler) -> Any:
        """As JSON, an event leaves out the ``id`` and ``retry`` it was not given."""
        out = handler(self)
        if isinstance(out, dict):
            unset = {"id", "retry"} - self.model_fields_set
            return {k: v for k, v in out.items() if not (k in unset and v is None)}
        return out


@dataclass(frozen=True, slots=True)
class Stream:
    """How one operation's response streams.

    Attributes:
        media_type: the declared media type (``text/event-stream``, ``application/jsonl``...).
        format: ``sse``, ``jsonl`` or ``json-seq``.
        data: server-sent events only: their data is ``json`` (parsed, then typed),
            ``text`` (kept as the string sent) or ``any`` (no schema: JSON when it parses
            as JSON, else the text).
        events: server-sent events only: the event names the stream declares (an event
            of another name is refused); empty: any name.
    """

    media_type: str
    format: Format
    data: Literal["json", "text", "any"] = "json"
    events: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The stream as JSON data (what ``views.json`` records)."""
        out: dict[str, Any] = {"media_type": self.media_type, "format": self.format}
        if self.format == "sse":
            out["data"] = self.data
            if self.events:
                out["events"] = list(self.events)
        return out

    @classmethod
    def from_dict(cls, data: Any) -> Stream:
        """The inverse of :meth:`to_dict`."""
        return cls(**{**data, "events": tuple(data.get("events", ()))})

    def describe(self) -> str:
        """One line saying how items arrive (``generate -v`` prints it)."""
        if self.format == "sse":
            named = f" (events {', '.join(self.events)})" if self.events else ""
            return f"{self.media_type}: server-sent events{named}, data as {self.data}"
        what = "JSON lines" if self.format == "jsonl" else "JSON text sequence (RFC 7464)"
        return f"{self.media_type}: {what}"


# --- parsing: bytes in, raw items out -------------------------------------------------------


@dataclass(slots=True)
class _Raw:
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

    def feed(self, chunk: bytes) -> list[_Raw]:
        """The items ``chunk`` completes."""
        if self.format == "json-seq":
            return self._records(chunk, final=False)
        return [item for line, n in self._lines(chunk) if (item := self._take(line, n))]

    def close(self) -> list[_Raw]:
        """The items left when the body ends (a last line without its line end)."""
        if self.format == "json-seq":
            return self._records(b"", final=True)
        out: list[_Raw] = []
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

    def _take(self, line: bytes, number: int) -> _Raw | None:
        if self.format == "jsonl":
            return _Raw(line, number) if line.strip() else None
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

    def _dispatch(self) -> _Raw:
        raw = _Raw(
            b"\n".join(self._data),
            self._data_line,
            self._event or "message",
            self._last_id,
            self._retry,
        )
        self._data = []
        self._reset()
        return raw

    def _records(self, chunk: bytes, *, final: bool) -> list[_Raw]:
        """RFC 7464 records: RS, a JSON text, LF.

        A record is complete at the next RS, or at a line end where its text so far is
        whole JSON (so it arrives without waiting for the next record).
        """
        self._buffer += chunk
        out: list[_Raw] = []
        while self._buffer:
            if not self._buffer.startswith(b"\x1e"):
                cut = self._buffer.find(b"\x1e")
                if cut < 0 and not final:
                    break
                junk = self._buffer if cut < 0 else self._buffer[:cut]
                if junk.strip():
                    out.append(_Raw(junk, self._line, error="text outside a record (no RS)"))
                self._line += junk.count(b"\n")
                self._buffer = self._buffer[len(junk) :]
                continue
            end = self._buffer.find(b"\x1e", 1)
            record = self._buffer[1:] if end < 0 else self._buffer[1:end]
            if end < 0 and not final and not _whole(record):
                break
            if record.strip():
                out.append(_Raw(record, self._line))
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


# --- typing the items -----------------------------------------------------------------------


class _Reader:
    """Raw items → typed items, counted; ``[DONE]`` ends an SSE stream."""

    def __init__(self, stream: Stream, item: Any, operation: str) -> None:
        self.stream = stream
        self.item = item
        self.operation = operation
        self.index = 0
        self.done = False
        self.parser = StreamParser(stream.format)

    def items(self, raws: Iterable[_Raw]) -> Iterator[Any]:
        for raw in raws:
            if self.done:
                return
            sse_json = self.stream.format == "sse" and self.stream.data != "text"
            if sse_json and raw.text == b"[DONE]":
                self.done = True
                return
            value = self._typed(raw)
            self.index += 1
            yield value

    def _fail(self, raw: _Raw, message: str) -> StreamItemError:
        text = raw.text.decode("utf-8", "replace")
        return StreamItemError(
            message, index=self.index, line=raw.line, raw=text, where=self.operation
        )

    def _typed(self, raw: _Raw) -> Any:
        data: Any
        if raw.error is not None:
            raise self._fail(raw, raw.error)
        if self.stream.format == "sse" and self.stream.data == "text":
            data = raw.text.decode("utf-8", "replace")
        elif self.stream.format == "sse" and self.stream.data == "any":
            try:
                data = orjson.loads(raw.text)
            except orjson.JSONDecodeError:
                data = raw.text.decode("utf-8", "replace")
        else:
            try:
                data = orjson.loads(raw.text)
            except orjson.JSONDecodeError as exc:
                raise self._fail(raw, f"not JSON ({exc})") from None
        if self.stream.format == "sse":
            if self.stream.events and raw.event not in self.stream.events:
                names = ", ".join(self.stream.events)
                raise self._fail(
                    raw, f"event {raw.event!r} is not one the stream declares ({names})"
                )
            value: Any = {"event": raw.event, "data": data}
            if raw.id is not None:
                value["id"] = raw.id
            if raw.retry is not None:
                value["retry"] = raw.retry
        else:
            value = data
        if self.item is None:
            return value
        try:
            return hydrate(self.item, value, repair=False)
        except HydrationError as exc:
            raise self._fail(raw, f"not what the stream declares: {exc.message}") from exc

    def broken(self, exc: Exception) -> RemoteResponseError:
        return RemoteResponseError(
            f"the stream broke off after {self.index} items: {type(exc).__name__}: {exc}",
            where=self.operation,
        )


_BROKEN = (httpx.RemoteProtocolError, httpx.ReadError, httpx.ReadTimeout)


async def read_stream(
    response: httpx.Response, stream: Stream, item: Any = None, operation: str = ""
) -> AsyncIterator[Any]:
    """The items of a response opened with ``stream=True``, as they arrive (see the module)."""
    reader = _Reader(stream, item, operation)
    chunks = response.aiter_bytes()
    while not reader.done:
        try:
            chunk = await chunks.__anext__()
        except StopAsyncIteration:
            break
        except _BROKEN as exc:
            raise reader.broken(exc) from exc
        for value in reader.items(reader.parser.feed(chunk)):
            yield value
    if not reader.done:
        for value in reader.items(reader.parser.close()):
            yield value


def read_stream_sync(
    response: httpx.Response, stream: Stream, item: Any = None, operation: str = ""
) -> Iterator[Any]:
    """:func:`read_stream`, blocking."""
    reader = _Reader(stream, item, operation)
    chunks = response.iter_bytes()
    while not reader.done:
        try:
            chunk = next(chunks)
        except StopIteration:
            break
        except _BROKEN as exc:
            raise reader.broken(exc) from exc
        yield from reader.items(reader.parser.feed(chunk))
    if not reader.done:
        yield from reader.items(reader.parser.close())


def iterate_stream(
    client: ApiClient,
    request: Request,
    stream: Stream,
    item: Any = None,
) -> AsyncItems[Any]:
    """Yield the items of a streamed response as they arrive, each typed as ``item``.

    ``item`` is the item's type (``ServerSentEvent[Tick]``, ``Tick``); ``None`` yields JSON
    data (server-sent events as ``{"event", "data", "id", "retry"}`` objects). The request
    is sent through ``client`` (its credentials and errors apply); the connection is closed
    when the iteration ends or is abandoned.

    Raises:
        ApiError: the API answered with an error status (nothing streamed).
        StreamItemError: an item is not JSON or not what the stream declares.
        RemoteResponseError: the stream broke off.
    """
    return AsyncItems(_items(client, request, stream, item))


async def _items(
    client: ApiClient, request: Request, stream: Stream, item: Any
) -> AsyncGenerator[Any, None]:
    async with _open(client, request) as response:
        async for value in read_stream(response, stream, item, request.operation):
            yield value


def iterate_stream_sync(
    client: ApiClient,
    request: Request,
    stream: Stream,
    item: Any = None,
) -> Iterator[Any]:
    """:func:`iterate_stream`, blocking (through the client's ``sync_client``)."""
    with _open_sync(client, request) as response:
        yield from read_stream_sync(response, stream, item, request.operation)


# --- sending with the body left unread ------------------------------------------------------


@contextlib.asynccontextmanager
async def _open(client: ApiClient, request: Request) -> AsyncIterator[httpx.Response]:
    async with contextlib.AsyncExitStack() as stack:
        http = client._client
        if http is None:
            http = await stack.enter_async_context(httpx.AsyncClient(timeout=client._timeout))
        response = await http.send(client._build(request, http), stream=True)
        stack.push_async_callback(response.aclose)
        if not response.is_success:
            await response.aread()
            _checked(request.operation, response)
        yield response


@contextlib.contextmanager
def _open_sync(client: ApiClient, request: Request) -> Iterator[httpx.Response]:
    with contextlib.ExitStack() as stack:
        http = client._sync_client
        if http is None:
            http = stack.enter_context(httpx.Client(timeout=client._timeout))
        response = http.send(client._build(request, http), stream=True)
        stack.callback(response.close)
        if not response.is_success:
            response.read()
            _checked(request.operation, response)
        yield response
