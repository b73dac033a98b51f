"""Pagination: how an operation's pages chain, and the walk over their items.

A :class:`Pagination` says how one operation pages (recognised from the spec by
``sktypes.openapi``, or declared by an extension); :func:`iterate_pages` and
:func:`iterate_pages_sync` send the first request, read each page's items, work out the
next request from the page, and stop by the style's rule:

========== ==================================================================================
style      next page, and the end
========== ==================================================================================
link       the ``Link`` header's ``rel="next"`` URL (GitHub); ends when there is none
next_url   the URL at ``next_url`` in the body (relative ones resolved); ends when it is
           null, empty or absent
cursor     the value at ``next_cursor`` in the body (or at ``last_item_cursor`` inside the
           page's last item) sent as the argument ``cursor``; ends when it is null, empty or
           absent, when ``has_more`` is false, or on a page without items
offset     the argument ``offset`` advanced by the number of items received
page       the argument ``page`` advanced by one (from the caller's page, else ``first_page``)
========== ==================================================================================

``offset`` and ``page`` end on an empty page, when ``has_more`` is false, when ``total``
items (or ``total_pages`` pages) have been reached, or on a page shorter than the page size
the caller asked for with ``limit`` (capped by ``max_limit``, the parameter's declared
maximum: a server may clamp the size, and a page the clamp shortened is not the last).
Without an explicit page size the walk asks until a page comes back empty: one request
more, never an item less.

Next-page URLs must stay on the first request's origin (scheme, host and port): the
request goes out with the plugin's credentials, which must not leak to another host; a
URL elsewhere raises :class:`RemoteResponseError`, as does a page identical to the one
before (a server ignoring the page parameter would otherwise be walked forever) or a
``items`` member that is not an array. An absent or ``null`` items member is an empty page
(Google's APIs leave empty lists out).
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import AsyncGenerator, Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import httpx
import orjson

from sktypes import _pointer
from sktypes.errors import RemoteResponseError
from sktypes.generated import MISSING
from sktypes.hydration import hydrate
from sktypes.remote._items import AsyncItems

if TYPE_CHECKING:
    from sktypes.remote._client import ApiClient
    from sktypes.remote._request import Request

__all__ = [
    "PAGE_STYLES",
    "Pagination",
    "Style",
    "iterate_pages",
    "iterate_pages_sync",
    "walk_pages",
]

Style = Literal["link", "next_url", "cursor", "offset", "page"]
PAGE_STYLES: tuple[Style, ...] = ("link", "next_url", "cursor", "offset", "page")
"""Every pagination style, in the order recognition prefers them."""


@dataclass(frozen=True, slots=True)
class Pagination:
    """How one operation's pages chain (see the module docstring for each style's rule).

    Argument names (``cursor``, ``offset``, ``page``, ``limit``) are the call's arguments:
    view parameter names in views and ``kernel_openapi``, Python argument names in
    generated code. Places in the body are JSON pointers (``""`` is the body itself).

    Attributes:
        style: ``link``, ``next_url``, ``cursor``, ``offset`` or ``page``.
        items: where the page's items are (``""``: the body is the array).
        cursor: the argument the next cursor is sent in (``cursor`` style).
        next_cursor: where the next cursor is in the body.
        last_item_cursor: where the next cursor is inside the page's last item (Stripe's
            ``starting_after`` takes the last item's ``/id``; ``""`` is the item itself).
        next_url: where the next page's URL is in the body (``next_url`` style).
        offset: the argument holding the offset (``offset`` style).
        page: the argument holding the page number (``page`` style).
        limit: the argument holding the page size, if there is one.
        max_limit: the page size parameter's declared maximum, if any.
        first_page: the number of the first page (``page`` style).
        has_more: where a boolean "more pages follow" is in the body.
        total: where the total number of items is in the body.
        total_pages: where the total number of pages is in the body.
        source: what declared it: ``guessed`` (recognised from names and shapes),
            ``x-sktypes-pagination``, ``x-speakeasy-pagination``, ``x-fern-pagination``.
    """

    style: Style
    items: str = ""
    cursor: str | None = None
    next_cursor: str | None = None
    last_item_cursor: str | None = None
    next_url: str | None = None
    offset: str | None = None
    page: str | None = None
    limit: str | None = None
    max_limit: int | None = None
    first_page: int = 1
    has_more: str | None = None
    total: str | None = None
    total_pages: str | None = None
    source: str = "guessed"

    def to_dict(self) -> dict[str, Any]:
        """The fields that are set, as JSON data (what ``views.json`` records)."""
        out: dict[str, Any] = {"style": self.style, "items": self.items}
        for f in dataclasses.fields(self)[2:]:
            value = getattr(self, f.name)
            if value != f.default:
                out[f.name] = value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Pagination:
        """The inverse of :meth:`to_dict`."""
        return cls(**{str(k): v for k, v in data.items()})

    def renamed(self, names: Mapping[str, str]) -> Pagination:
        """The same pagination with its arguments renamed (view names → Python names)."""
        fields = ("cursor", "offset", "page", "limit")
        changes = {
            f: names.get(getattr(self, f), getattr(self, f))
            for f in fields
            if getattr(self, f) is not None
        }
        return dataclasses.replace(self, **changes)

    def describe(self) -> str:
        """One line saying how the pages chain (``generate -v`` prints it)."""
        at = {"": "the body"}

        def place(pointer: str | None) -> str:
            return at.get(pointer or "", f"body {pointer}")

        items = place(self.items)
        if self.style == "link":
            how = "Link header rel=next"
        elif self.style == "next_url":
            how = f"next URL at {place(self.next_url)}"
        elif self.style == "cursor":
            source = (
                f"last item {self.last_item_cursor or '(itself)'}"
                if self.last_item_cursor is not None
                else place(self.next_cursor)
            )
            how = f"cursor {source} -> argument {self.cursor!r}"
        elif self.style == "offset":
            how = f"offset argument {self.offset!r}"
        else:
            how = f"page argument {self.page!r} from {self.first_page}"
        ends = [
            f"{name} {place(getattr(self, name))}"
            for name in ("has_more", "total", "total_pages")
            if getattr(self, name) is not None
        ]
        if self.limit is not None:
            ends.append(f"page size {self.limit!r}")
        tail = f"; ends by {', '.join(ends)}" if ends else ""
        return f"{self.style} ({self.source}): {how}; items at {items}{tail}"


# --- the walk ---------------------------------------------------------------------------

Send = Callable[[dict[str, Any], str | None], Any]
"""Sends one page: the call's arguments and, for URL styles, the URL to fetch instead."""


class _Walk:
    """The state of one walk over pages; pure (no I/O): what to send, what came back."""

    def __init__(
        self,
        pagination: Pagination,
        arguments: Mapping[str, Any],
        operation: str,
        max_pages: int | None,
    ) -> None:
        if max_pages is not None and max_pages < 1:
            raise ValueError("max_pages must be 1 or more (or None for every page)")
        self.p = pagination
        self.args = {k: v for k, v in arguments.items() if v is not MISSING and v is not None}
        self.operation = operation
        self.max_pages = max_pages
        self.url: str | None = None
        self.origin: tuple[str, str, int | None] | None = None
        self.pages = 0
        self.previous: bytes | None = None
        self.seen_items = 0
        if pagination.style == "page" and pagination.page is not None:
            self.args.setdefault(pagination.page, pagination.first_page)
        if pagination.style == "offset" and pagination.offset is not None:
            self.args.setdefault(pagination.offset, 0)

    def next_request(self) -> tuple[dict[str, Any], str | None]:
        return dict(self.args), self.url

    def _fail(self, message: str) -> RemoteResponseError:
        return RemoteResponseError(f"page {self.pages}: {message}", where=self.operation)

    def read(self, response: httpx.Response) -> tuple[list[Any], bool]:
        """The page's items, and whether another page follows (the next request is set)."""
        self.pages += 1
        if self.origin is None:
            self.origin = _origin(response.request.url)
        digest = hashlib.sha256(response.content).digest()
        if self.previous is not None and digest == self.previous:
            raise self._fail("the page repeats the page before it (is the page argument ignored?)")
        self.previous = digest
        body = _json(response, self)
        items = self._items(body)
        self.seen_items += len(items)
        more = self._advance(response, body, items)
        if self.max_pages is not None and self.pages >= self.max_pages:
            more = False
        return items, more

    def _items(self, body: Any) -> list[Any]:
        found = _at(body, self.p.items)
        if found is None:
            return []
        if not isinstance(found, list):
            where = self.p.items or "the body"
            raise self._fail(f"the items at {where} are not an array: {type(found).__name__}")
        return found

    def _advance(self, response: httpx.Response, body: Any, items: list[Any]) -> bool:
        p = self.p
        if p.style in ("link", "next_url"):
            raw = response.links.get("next", {}).get("url") if p.style == "link" else None
            if p.style == "next_url":
                value = _at(body, p.next_url or "")
                raw = value if isinstance(value, str) else None
            if not raw or not self._more(body):
                return False
            url = response.request.url.join(raw)
            if _origin(url) != self.origin:
                raise self._fail(
                    f"the next page {str(url)!r} is on another origin than "
                    f"{_show(self.origin)}: not followed (the credentials would go with it)"
                )
            self.url = str(url)
            return True
        if p.style == "cursor":
            if not self._more(body) or (p.last_item_cursor is not None and not items):
                return False
            if p.last_item_cursor is not None:
                value = _at(items[-1], p.last_item_cursor)
            else:
                value = _at(body, p.next_cursor or "")
            if value is None or value == "" or p.cursor is None:
                return False
            self.args[p.cursor] = value
            return True
        if not items or not self._more(body) or self._done(body, items):
            return False
        if p.style == "offset" and p.offset is not None:
            self.args[p.offset] = _int(self.args.get(p.offset), 0) + len(items)
            return True
        if p.style == "page" and p.page is not None:
            self.args[p.page] = _int(self.args.get(p.page), p.first_page) + 1
            return True
        return False

    def _more(self, body: Any) -> bool:
        if self.p.has_more is None:
            return True
        return _at(body, self.p.has_more) is not False

    def _done(self, body: Any, items: list[Any]) -> bool:
        """The end of an ``offset`` or ``page`` walk by total, total pages or a short page."""
        p = self.p
        total = _at(body, p.total) if p.total is not None else None
        if isinstance(total, int) and not isinstance(total, bool):
            if p.style == "offset" and p.offset is not None:
                if _int(self.args.get(p.offset), 0) + len(items) >= total:
                    return True
            elif self.seen_items >= total:
                return True
        pages = _at(body, p.total_pages) if p.total_pages is not None else None
        if isinstance(pages, int) and not isinstance(pages, bool) and p.page is not None:
            number = _int(self.args.get(p.page), p.first_page)
            if number - p.first_page + 1 >= pages:
                return True
        size = self.args.get(p.limit) if p.limit is not None else None
        if isinstance(size, int) and not isinstance(size, bool) and size > 0:
            if p.max_limit is not None:
                size = min(size, p.max_limit)
            return len(items) < size
        return False


def _int(value: Any, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _origin(url: httpx.URL) -> tuple[str, str, int | None]:
    return url.scheme, url.host, url.port


def _show(origin: tuple[str, str, int | None] | None) -> str:
    if origin is None:
        return "?"
    scheme, host, port = origin
    return f"{scheme}://{host}" + (f":{port}" if port is not None else "")


def _at(document: Any, pointer: str) -> Any:
    """The value at ``pointer``, ``None`` where there is none."""
    try:
        return _pointer.resolve(document, pointer)
    except _pointer.PointerError:
        return None


def _json(response: httpx.Response, walk: _Walk) -> Any:
    if not response.content:
        return None
    try:
        return orjson.loads(response.content)
    except orjson.JSONDecodeError as exc:
        raise walk._fail(f"the page is not JSON ({exc})") from None


def _parse(target: Any, item: Any) -> Any:
    return item if target is None else hydrate(target, item, repair=False)


def walk_pages(
    pagination: Pagination,
    arguments: Mapping[str, Any],
    *,
    operation: str = "",
    max_pages: int | None = None,
) -> _Walk:
    """The state machine of one walk (for callers with their own send: ``kernel_openapi``).

    ``next_request()`` gives ``(arguments, url)`` to send (``url`` replaces the operation's
    URL when set); ``read(response)`` gives the page's items and whether to go on.
    """
    return _Walk(pagination, arguments, operation, max_pages)


def iterate_pages(
    client: ApiClient,
    pagination: Pagination,
    build: Callable[..., Request],
    item: Any = None,
    /,
    *,
    max_pages: int | None = None,
    **arguments: Any,
) -> AsyncItems[Any]:
    """Yield the items of every page, each hydrated into ``item`` (JSON data when ``None``).

    ``build(**arguments)`` makes a page's :class:`Request` (the next page's arguments, or
    URL, worked out from the page before); it is sent through ``client._send``, so the
    client's credentials, retries and errors apply to every page. ``max_pages`` stops the
    walk after that many pages (``None``: every page).

    Raises:
        ValueError: ``max_pages`` is less than 1 (at once).
        RemoteResponseError: a page cannot be read as its pagination says (see the module).
        ApiError: a page's request failed.
    """
    return AsyncItems(_pages(client, build, item, _Walk(pagination, arguments, "", max_pages)))


async def _pages(
    client: ApiClient, build: Callable[..., Request], item: Any, walk: _Walk
) -> AsyncGenerator[Any, None]:
    while True:
        args, url = walk.next_request()
        request = build(**args)
        request.url = url
        walk.operation = request.operation
        items, more = walk.read(await client._send(request))
        for value in items:
            yield _parse(item, value)
        if not more:
            return


def iterate_pages_sync(
    client: ApiClient,
    pagination: Pagination,
    build: Callable[..., Request],
    item: Any = None,
    /,
    *,
    max_pages: int | None = None,
    **arguments: Any,
) -> Iterator[Any]:
    """:func:`iterate_pages`, blocking (every page sent through ``client._send_sync``)."""
    return _pages_sync(client, build, item, _Walk(pagination, arguments, "", max_pages))


def _pages_sync(
    client: ApiClient, build: Callable[..., Request], item: Any, walk: _Walk
) -> Iterator[Any]:
    while True:
        args, url = walk.next_request()
        request = build(**args)
        request.url = url
        walk.operation = request.operation
        items, more = walk.read(client._send_sync(request))
        for value in items:
            yield _parse(item, value)
        if not more:
            return
