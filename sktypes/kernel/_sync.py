"""Running a kernel's awaitables to their end from synchronous code."""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Awaitable
from typing import TypeVar

__all__ = ["run_sync"]

T = TypeVar("T")


def run_sync(awaitable: Awaitable[T]) -> T:
    """Run an awaitable to completion from synchronous code.

    On an event loop of its own; when this thread already runs one (a synchronous call
    made from async code, as frameworks do), on a helper thread.
    """

    async def wait() -> T:
        return await awaitable

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(wait())
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, wait()).result()
