"""One walk over pages: what to send next and what came back (pure, no I/O).

:func:`walk_pages` makes the state machine :func:`~sktypes.remote.iterate_pages` drives (and
``sktypes serve``, which answers one page per call, reads): ``next_request()`` gives the
arguments (or the URL) of the next page, ``read(response)`` the page's items and whether
another page follows, by the rules of :mod:`._pages`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import httpx
import orjson

from sktypes import _pointer
from sktypes.errors import RemoteResponseError
from sktypes.generated import MISSING

if TYPE_CHECKING:
    from sktypes.remote._pages import Pagination

__all__ = ["Walk", "walk_pages"]


class Walk:
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
        self.body: Any = None
        """The JSON body of the last page read."""
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
        body = self.body = _json(response, self)
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


def _json(response: httpx.Response, walk: Walk) -> Any:
    if not response.content:
        return None
    try:
        return orjson.loads(response.content)
    except orjson.JSONDecodeError as exc:
        raise walk._fail(f"the page is not JSON ({exc})") from None


def walk_pages(
    pagination: Pagination,
    arguments: Mapping[str, Any],
    *,
    operation: str = "",
    max_pages: int | None = None,
) -> Walk:
    """The state machine of one walk (for callers with their own send: ``kernel_openapi``).

    ``next_request()`` gives ``(arguments, url)`` to send (``url`` replaces the operation's
    URL when set); ``read(response)`` gives the page's items and whether to go on.
    """
    return Walk(pagination, arguments, operation, max_pages)
