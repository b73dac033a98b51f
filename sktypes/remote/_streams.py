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

An item that is not JSON raises :class:`~sktypes.errors.StreamItemError` with its position
(index and line) and the item as received. An item that is JSON but breaks the stream's
schema (or an event name the stream does not declare) follows the rule of every response
(:mod:`._drift`): it is yielded as received, typed where it fits, with a
:class:`ResponseDriftWarning` naming the item's index, the JSON pointer inside the item and
the value; ``strict`` raises :class:`ResponseDriftError` instead. A stream that breaks off
raises :class:`~sktypes.errors.RemoteResponseError` saying how many items came before.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

import httpx
import orjson
import pydantic

from sktypes.errors import RemoteResponseError, StreamItemError
from sktypes.remote._drift import checked, item_response
from sktypes.remote._errors import DriftProblem
from sktypes.remote._framing import RawItem, StreamParser
from sktypes.remote._items import AsyncItems

if TYPE_CHECKING:
    from sktypes.jsondoc import JsonDocument
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


# --- typing the items -----------------------------------------------------------------------


class _Reader:
    """Raw items → typed items, counted; ``[DONE]`` ends an SSE stream."""

    def __init__(
        self,
        stream: Stream,
        item: Any,
        operation: str,
        response: httpx.Response,
        drift: _Drift,
    ) -> None:
        self.stream = stream
        self.item = item
        self.operation = operation
        self.response = response
        self.drift = drift
        self.index = 0
        self.done = False
        self.parser = StreamParser(stream.format)

    def items(self, raws: Iterable[RawItem]) -> Iterator[Any]:
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

    def _fail(self, raw: RawItem, message: str) -> StreamItemError:
        text = raw.text.decode("utf-8", "replace")
        return StreamItemError(
            message, index=self.index, line=raw.line, raw=text, where=self.operation
        )

    def _typed(self, raw: RawItem) -> Any:
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
        found: list[DriftProblem] = []
        body = raw.text
        if self.stream.format == "sse":
            if self.stream.events and raw.event not in self.stream.events:
                names = ", ".join(self.stream.events)
                found.append(DriftProblem("/event", f"not an event declared ({names})", raw.event))
            value: Any = {"event": raw.event, "data": data}
            if raw.id is not None:
                value["id"] = raw.id
            if raw.retry is not None:
                value["retry"] = raw.retry
            body = orjson.dumps(value)
        else:
            value = data
        return checked(
            self.operation,
            item_response(self.response, body),
            self.item,
            value,
            schema=self.drift.schema,
            strict=self.drift.strict,
            stacklevel=self.drift.stacklevel,
            found=found,
            item=self.index,
        )

    def broken(self, exc: Exception) -> RemoteResponseError:
        return RemoteResponseError(
            f"the stream broke off after {self.index} items: {type(exc).__name__}: {exc}",
            where=self.operation,
        )


_BROKEN = (httpx.RemoteProtocolError, httpx.ReadError, httpx.ReadTimeout)


@dataclass(frozen=True, slots=True)
class _Drift:
    """How items that break their schema are treated (see :mod:`._drift`)."""

    schema: JsonDocument | None = None
    strict: bool = False
    stacklevel: int = 7  # from checked() to the caller's async for (through _items)


async def read_stream(
    response: httpx.Response,
    stream: Stream,
    item: Any = None,
    operation: str = "",
    drift: _Drift = _Drift(),
) -> AsyncIterator[Any]:
    """The items of a response opened with ``stream=True``, as they arrive (see the module).

    ``drift``: the item schema and ``strict`` (items that break it: see the module).
    """
    reader = _Reader(stream, item, operation, response, drift)
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
    response: httpx.Response,
    stream: Stream,
    item: Any = None,
    operation: str = "",
    drift: _Drift = _Drift(stacklevel=6),
) -> Iterator[Any]:
    """:func:`read_stream`, blocking."""
    reader = _Reader(stream, item, operation, response, drift)
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


_LOOK_UP: Any = object()


def iterate_stream(
    client: ApiClient,
    request: Request,
    stream: Stream,
    item: Any = None,
    *,
    strict: bool | None = None,
    schema: JsonDocument | None = _LOOK_UP,
) -> AsyncItems[Any]:
    """Yield the items of a streamed response as they arrive, each typed as ``item``.

    ``item`` is the item's type (``ServerSentEvent[Tick]``, ``Tick``); ``None`` yields JSON
    data (server-sent events as ``{"event", "data", "id", "retry"}`` objects). The request
    is sent through ``client`` like any call (credentials, retries and a fresh OAuth2 token
    before the first byte of the stream; errors); the connection is closed when the
    iteration ends or is abandoned.

    Each item is checked against ``schema`` (by default the item schema ``client`` declares
    for the operation) and hydrated into ``item``: one that breaks them is yielded as
    received with a :class:`ResponseDriftWarning`, or raises :class:`ResponseDriftError`
    under ``strict`` (``None``: the client's).

    Raises:
        ApiError: the API answered with an error status (nothing streamed).
        StreamItemError: an item is not JSON.
        ResponseDriftError: ``strict`` and an item breaks its schema.
        RemoteResponseError: the stream broke off.
    """
    return AsyncItems(
        _items(client, request, stream, item, _drift(client, request, strict, schema))
    )


def _drift(
    client: ApiClient, request: Request, strict: bool | None, schema: Any, stacklevel: int = 7
) -> _Drift:
    if schema is _LOOK_UP:
        schema = client._return_schema(request.operation)
    return _Drift(schema, client._strict if strict is None else strict, stacklevel)


async def _items(
    client: ApiClient, request: Request, stream: Stream, item: Any, drift: _Drift
) -> AsyncGenerator[Any, None]:
    async with client._stream(request) as response:
        async for value in read_stream(response, stream, item, request.operation, drift):
            yield value


def iterate_stream_sync(
    client: ApiClient,
    request: Request,
    stream: Stream,
    item: Any = None,
    *,
    strict: bool | None = None,
) -> Iterator[Any]:
    """:func:`iterate_stream`, blocking (through the client's ``sync_client``)."""
    drift = _drift(client, request, strict, _LOOK_UP, stacklevel=6)
    with client._stream_sync(request) as response:
        yield from read_stream_sync(response, stream, item, request.operation, drift)
