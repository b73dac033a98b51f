"""Streams: the best value so far as chunks of an answer arrive, in linear time."""

from __future__ import annotations

import codecs
from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator
from typing import Any, TypeVar, overload

from sktypes.errors import HydrationError
from sktypes.hydration._api import HydrationLimits, hydrate

__all__ = ["ahydrate_stream", "hydrate_stream"]

T = TypeVar("T")
_NOTHING: Any = object()


_EAGER = 32 * 1024  # below this many characters every chunk is parsed
_GROWTH = 0.25  # above it, a new parse waits for the text to grow by this fraction


@overload
def hydrate_stream(
    target: type[T],
    chunks: Iterable[str | bytes],
    *,
    repair: bool = ...,
    strict: bool = ...,
    limits: HydrationLimits | None = ...,
    allow_inf_nan: bool = ...,
) -> Iterator[T]: ...
@overload
def hydrate_stream(
    target: Any,
    chunks: Iterable[str | bytes],
    *,
    repair: bool = ...,
    strict: bool = ...,
    limits: HydrationLimits | None = ...,
    allow_inf_nan: bool = ...,
) -> Iterator[Any]: ...
def hydrate_stream(
    target: Any,
    chunks: Iterable[str | bytes],
    *,
    repair: bool = True,
    strict: bool = False,
    limits: HydrationLimits | None = None,
    allow_inf_nan: bool = False,
) -> Iterator[Any]:
    """Yield the best value so far as chunks of a streamed answer arrive.

    Each yield is valid for the partial twin of ``target`` (see :func:`hydrate` with
    ``partial=True``); a value is yielded only when it changed. The last yield is the
    complete value, hydrated without ``partial``: a stream that ends early raises
    :class:`HydrationError`. Work is linear in the total size: small answers are
    parsed at every chunk, large ones each time they have grown by a quarter.
    """
    state = _StreamState(target, repair, strict, limits, allow_inf_nan)
    for chunk in chunks:
        value = state.feed(chunk)
        if value is not _NOTHING:
            yield value
    final = state.finish()
    if final is not _NOTHING:
        yield final


async def ahydrate_stream(
    target: Any,
    chunks: AsyncIterable[str | bytes],
    *,
    repair: bool = True,
    strict: bool = False,
    limits: HydrationLimits | None = None,
    allow_inf_nan: bool = False,
) -> AsyncIterator[Any]:
    """:func:`hydrate_stream` for an async stream of chunks."""
    state = _StreamState(target, repair, strict, limits, allow_inf_nan)
    async for chunk in chunks:
        value = state.feed(chunk)
        if value is not _NOTHING:
            yield value
    final = state.finish()
    if final is not _NOTHING:
        yield final


class _StreamState:
    """The text received so far and when it was last parsed."""

    def __init__(
        self,
        target: Any,
        repair: bool,
        strict: bool,
        limits: HydrationLimits | None,
        allow_inf_nan: bool,
    ) -> None:
        self.target = target
        self.options: dict[str, Any] = {
            "repair": repair,
            "strict": strict,
            "limits": limits,
            "allow_inf_nan": allow_inf_nan,
        }
        self.parts: list[str] = []
        self.size = 0
        self.parsed_at = 0
        self.last: Any = _NOTHING
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def feed(self, chunk: str | bytes) -> Any:
        text = chunk if isinstance(chunk, str) else self.decoder.decode(chunk)
        if not text:
            return _NOTHING
        self.parts.append(text)
        self.size += len(text)
        grown = self.size - self.parsed_at
        if self.size > _EAGER and grown < self.size * _GROWTH:
            return _NOTHING
        self.parsed_at = self.size
        try:
            value = hydrate(self.target, self.text(), partial=True, **self.options)
        except HydrationError:
            return _NOTHING  # nothing usable yet; the final parse reports real problems
        if self.last is not _NOTHING and value == self.last:
            return _NOTHING
        self.last = value
        return value

    def text(self) -> str:
        if len(self.parts) > 1:
            self.parts = ["".join(self.parts)]
        return self.parts[0] if self.parts else ""

    def finish(self) -> Any:
        tail = self.decoder.decode(b"", final=True)
        if tail:
            self.parts.append(tail)
        final = hydrate(self.target, self.text(), partial=False, **self.options)
        same = type(final) is type(self.last) and final == self.last
        return _NOTHING if same else final
