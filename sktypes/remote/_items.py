"""The async iterator a paginated ``_iter`` method or a streamed operation returns."""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator, Generator
from typing import Any, TypeVar

__all__ = ["AsyncItems"]

T = TypeVar("T")


class AsyncItems(AsyncIterator[T]):
    """Items as they come: ``async for item in plugin.op()``.

    Awaiting it gives itself, so ``async for item in await plugin.op()`` works as well (the
    shape of SDKs whose streaming calls are coroutines). :meth:`aclose` stops the reading
    (closing the connection); ``async with`` does it at the end of the block.
    """

    def __init__(self, items: AsyncGenerator[T, None]) -> None:
        self._items = items

    def __aiter__(self) -> AsyncItems[T]:
        return self

    async def __anext__(self) -> T:
        return await self._items.__anext__()

    def __await__(self) -> Generator[Any, None, AsyncItems[T]]:
        async def itself() -> AsyncItems[T]:
            return self

        return itself().__await__()

    async def aclose(self) -> None:
        """Stop: the request's connection is closed, no more items are read."""
        await self._items.aclose()

    async def __aenter__(self) -> AsyncItems[T]:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
