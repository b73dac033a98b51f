"""What ``sktypes serve`` makes of remote answers that are not one value: streams and pages.

- A streamed result (an async iterator) is read into one list of JSON values, bounded by
  ``LoadOptions.stream_items`` and ``stream_bytes``; past a bound the stream is closed and
  the result says so (:class:`~._tools.Noted`, ``_meta["sktypes/truncated"]``).
- A page of a paginated operation is the tool's result as it is; when another page follows,
  the result carries the arguments of the next page (a note the model reads, and
  ``_meta["sktypes/next-page"]``), worked out by the walk of ``sktypes.remote``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

import httpx
import orjson

from sktypes.content._codec import to_plain_json
from sktypes.errors import SktypesError
from sktypes.integrations.mcp._tools import NEXT_PAGE_META, TRUNCATED_META, Noted
from sktypes.openapi import Operation
from sktypes.remote._pages import walk_pages

if TYPE_CHECKING:
    from sktypes.integrations.mcp._targets import LoadOptions

__all__ = ["collected", "paged"]


async def collected(value: Any, options: LoadOptions) -> Any:
    """A streaming function's items as a list of JSON values (its tool returns them at once).

    At most ``options.stream_items`` items and ``options.stream_bytes`` bytes of JSON are
    read; past either the stream is closed and the items read so far are returned as
    :class:`Noted`, saying why.
    """
    if not isinstance(value, AsyncIterator):
        return value
    items: list[Any] = []
    size = 0
    note = None
    try:
        async for item in value:
            plain = to_plain_json(item)
            size += len(orjson.dumps(plain))
            if len(items) >= options.stream_items:
                note = f"the stream was cut after {len(items)} items (the server's bound)"
            elif size > options.stream_bytes:
                note = (
                    f"the stream was cut after {len(items)} items: the next would pass "
                    f"the server's bound of {options.stream_bytes} bytes"
                )
            if note is not None:
                break
            items.append(plain)
    finally:
        closing = getattr(value, "aclose", None)
        if closing is not None:
            await closing()
    return items if note is None else Noted(items, note, {TRUNCATED_META: note})


def paged(
    operation: Operation, arguments: dict[str, Any], seen: list[httpx.Response], value: Any
) -> Any:
    """A page, with the arguments of the next page when one follows (a note and ``_meta``).

    The walk of :mod:`sktypes.remote` reads the page: a cursor, page or offset argument is
    the next page's; a next-page URL (a ``Link`` header, a URL in the body) gives the
    operation's query parameters it holds. A next page the arguments cannot reach (a URL
    of another path) is said without arguments.
    """
    if operation.pagination is None or not seen or not seen[-1].is_success:
        return value
    walk = walk_pages(operation.pagination, arguments, operation=operation.name)
    try:
        _, more = walk.read(seen[-1])
    except SktypesError:
        return value
    if not more:
        return value
    following, url = walk.next_request()
    args: dict[str, Any] | None = following
    if url is not None:
        same = httpx.URL(url).path == seen[-1].request.url.path
        args = _url_arguments(operation, arguments, httpx.URL(url)) if same else None
    if args is None:
        note = "more results follow, on a page these arguments cannot ask for"
        return Noted(value, note, {NEXT_PAGE_META: None})
    shown = orjson.dumps(args).decode()
    return Noted(value, f"more results: call again with {shown}", {NEXT_PAGE_META: args})


def _url_arguments(
    operation: Operation, arguments: dict[str, Any], url: httpx.URL
) -> dict[str, Any] | None:
    """The arguments whose request is ``url`` (its query by parameter), if the path matches."""
    query = {p.name: p for p in operation.parameters if p.location == "query"}
    out = {k: v for k, v in arguments.items() if k not in {q.argument for q in query.values()}}
    for name, value in url.params.multi_items():
        param = query.get(name)
        if param is None:
            return None
        out[param.argument] = int(value) if value.isdigit() else value
    return out
