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
from collections.abc import AsyncGenerator, Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import httpx

from sktypes.errors import HydrationError
from sktypes.hydration import hydrate
from sktypes.remote._drift import drift_problems, hydration_problems, lenient, report
from sktypes.remote._errors import DriftProblem
from sktypes.remote._items import AsyncItems
from sktypes.remote._walk import Walk, walk_pages

if TYPE_CHECKING:
    from sktypes.jsondoc import JsonDocument
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


# --- the items, typed ---------------------------------------------------------------------


_LOOK_UP: Any = object()


class _Typing:
    """A page's items as the item type, drift reported by the one rule (see the module)."""

    def __init__(
        self,
        client: ApiClient,
        target: Any,
        strict: bool | None,
        schema: JsonDocument | None,
        stacklevel: int,
    ) -> None:
        self.client = client
        self.target = target
        self.strict = client._strict if strict is None else strict
        self.schema = schema
        self.stacklevel = stacklevel

    def items(
        self, request: Request, response: httpx.Response, walk: Walk, items: list[Any]
    ) -> Iterator[Any]:
        op = request.operation
        if self.schema is _LOOK_UP:
            self.schema = self.client._return_schema(op)
        level = self.stacklevel + 1
        page = drift_problems(self.schema, walk.body)
        report(op, response, page, self.strict, level)
        if self.target is None:
            yield from items
            return
        base = walk.p.items or ""
        for index, value in enumerate(items):
            at = f"{base}/{index}"
            if any(p.pointer == at or p.pointer.startswith(at + "/") for p in page):
                yield lenient(self.target, value)  # said with the page's problems
                continue
            try:
                yield hydrate(self.target, value, repair=False)
            except HydrationError as exc:
                problems = [
                    DriftProblem(at + p.pointer, p.message, p.value)
                    for p in hydration_problems(exc, value)
                ]
                report(op, response, problems, self.strict, level)
                yield lenient(self.target, value)


def iterate_pages(
    client: ApiClient,
    pagination: Pagination,
    build: Callable[..., Request],
    item: Any = None,
    /,
    *,
    max_pages: int | None = None,
    strict: bool | None = None,
    **arguments: Any,
) -> AsyncItems[Any]:
    """Yield the items of every page, each hydrated into ``item`` (JSON data when ``None``).

    ``build(**arguments)`` makes a page's :class:`Request` (the next page's arguments, or
    URL, worked out from the page before); it is sent through ``client._send``, so the
    client's credentials, retries and errors apply to every page. ``max_pages`` stops the
    walk after that many pages (``None``: every page).

    Each page is checked against the operation's declared response schema, and each item
    hydrated into ``item``, by the rule of single calls: what breaks them is a
    :class:`ResponseDriftWarning` (the JSON pointer is in the page's body) and the item is
    yielded as received where it does not fit; ``strict`` (``None``: the client's) raises
    :class:`ResponseDriftError` instead, before the page's first item.

    Raises:
        ValueError: ``max_pages`` is less than 1 (at once).
        RemoteResponseError: a page cannot be read as its pagination says (see the module).
        ApiError: a page's request failed.
        ResponseDriftError: ``strict`` and a page breaks its schema.
    """
    walk = Walk(pagination, arguments, "", max_pages)
    return AsyncItems(pages_of(client, build, item, walk, strict=strict))


async def pages_of(
    client: ApiClient,
    build: Callable[..., Request],
    item: Any,
    walk: Walk,
    *,
    strict: bool | None = None,
    schema: JsonDocument | None = _LOOK_UP,
) -> AsyncGenerator[Any, None]:
    """The items of the pages ``walk`` asks for, each request made by ``build(**arguments)``.

    ``schema``: the page's declared schema (by default the one ``client`` declares for the
    operation: see :meth:`ApiClient._return_schema`).
    """
    typing = _Typing(client, item, strict, schema, stacklevel=4)  # the caller's async for
    while True:
        args, url = walk.next_request()
        request = build(**args)
        request.url = url
        walk.operation = request.operation
        response = await client._send(request)
        items, more = walk.read(response)
        for value in typing.items(request, response, walk, items):
            yield value
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
    strict: bool | None = None,
    **arguments: Any,
) -> Iterator[Any]:
    """:func:`iterate_pages`, blocking (every page sent through ``client._send_sync``)."""
    walk = Walk(pagination, arguments, "", max_pages)
    return _pages_sync(client, build, item, walk, strict)


def _pages_sync(
    client: ApiClient,
    build: Callable[..., Request],
    item: Any,
    walk: Walk,
    strict: bool | None,
) -> Iterator[Any]:
    typing = _Typing(client, item, strict, _LOOK_UP, stacklevel=3)  # the caller's for
    while True:
        args, url = walk.next_request()
        request = build(**args)
        request.url = url
        walk.operation = request.operation
        response = client._send_sync(request)
        items, more = walk.read(response)
        yield from typing.items(request, response, walk, items)
        if not more:
            return
