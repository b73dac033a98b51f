"""Iterator methods: ``<method>_iter`` of paginated operations, streamed operations' bodies.

``<method>_iter`` (and ``_iter_sync``) takes the operation's arguments and ``max_pages``, and
returns an async iterator over the items of every page (``iterate_pages`` from
``sktypes.remote``, each page built by the operation's own request builder and sent through
the plugin's client). A streamed operation's method itself returns an async iterator of its
items (``iterate_stream``; server-sent events as ``ServerSentEvent[Data]``). Both return
:class:`sktypes.remote.AsyncItems`, which may be awaited too.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sktypes.openapi import Operation
from sktypes.openapi._records import operation_features
from sktypes.remote import Pagination, Stream
from sktypes_codegen._annotations import Call, Expr, Import, Name, Raw, Subscript, Value
from sktypes_codegen._naming import py_string
from sktypes_codegen._render import Param, call

__all__ = [
    "ASYNC_ITERATOR",
    "ITERATOR",
    "MAX_PAGES",
    "STRICT",
    "PageMethods",
    "StreamMethod",
    "describe_features",
    "features",
    "iterator_imports",
    "pagination_call",
    "sse_of",
    "stream_call",
]

_RUNTIME = "sktypes.remote"

ASYNC_ITERATOR = Name("AsyncIterator", Import("collections.abc", "AsyncIterator"))
ITERATOR = Name("Iterator", Import("collections.abc", "Iterator"))
MAX_PAGES = "max_pages"
"""The keyword every ``_iter`` method takes (an operation argument of that name is renamed)."""
STRICT = "strict"
"""The keyword every method takes: drift raises instead of warning (``None``: the client's)."""


@dataclass(slots=True)
class PageMethods:
    """The ``_iter`` methods of one paginated operation, as the template renders them."""

    name: str
    pagination: Pagination
    item: Expr
    params: list[Param]
    arguments: list[str]
    request_name: str
    operation: str

    def returns(self, is_async: bool) -> Expr:
        """``AsyncIterator[Item]`` (``Iterator[Item]`` for the blocking twin)."""
        return Subscript(ASYNC_ITERATOR if is_async else ITERATOR, (self.item,))

    def annotations(self) -> list[Expr]:
        """What its signatures name, but the iterator types (see :func:`page_imports`)."""
        return [self.item, *(a for _, a, _ in self.params if a)]

    def doc(self) -> str:
        """The docstring: what it iterates over and how the pages chain."""
        return (
            f"Iterate over the items of every page of {self.operation}.\n\n"
            f"Pages: {self.pagination.describe()}. ``max_pages`` stops after that many pages;\n"
            "``strict`` raises ``ResponseDriftError`` for a page that breaks its schema."
        )

    def code(self, is_async: bool) -> str:
        """The body: hand the walk to ``iterate_pages`` (``iterate_pages_sync``)."""
        head = "return iterate_pages" if is_async else "return iterate_pages_sync"
        item: Expr = Raw("None") if self.item == Name("Any", Import("typing", "Any")) else self.item
        args: list[Expr | str] = [
            "self",
            pagination_call(self.pagination),
            f"self.{self.request_name}",
            item,
            f"{MAX_PAGES}={MAX_PAGES}",
            f"{STRICT}={STRICT}",
            *(f"{a}={a}" for a in self.arguments),
        ]
        return " " * 8 + call(head, args, 8)


@dataclass(slots=True)
class StreamMethod:
    """How a streamed operation's methods read their items."""

    stream: Stream
    item: Expr

    def code(self, request: str, is_async: bool) -> str:
        """The body: return what ``iterate_stream`` reads (``request``: the builder call)."""
        args: list[Expr | str] = [
            "self",
            request,
            stream_call(self.stream),
            self.item,
            f"{STRICT}={STRICT}",
        ]
        head = "return iterate_stream" if is_async else "return iterate_stream_sync"
        return " " * 8 + call(head, args, 8)


def stream_call(stream: Stream) -> Call:
    """``Stream("text/event-stream", "sse")``: the fields that are set."""
    values = (Value(stream.media_type), Value(stream.format))
    kwargs: list[tuple[str, Expr]] = []
    if stream.data != "json":
        kwargs.append(("data", Value(stream.data)))
    if stream.events:
        names = ", ".join(py_string(n) for n in stream.events)
        kwargs.append(("events", Raw(f"({names},)" if len(stream.events) == 1 else f"({names})")))
    return Call(Name("Stream", Import(_RUNTIME, "Stream")), values, tuple(kwargs))


def sse_of(data: Expr) -> Expr:
    """``ServerSentEvent[data]``."""
    return Subscript(Name("ServerSentEvent", Import(_RUNTIME, "ServerSentEvent")), (data,))


def features(op: Operation) -> dict[str, Any]:
    """What ``views.json`` records of ``op`` besides its view.

    The operation itself, and how it pages or streams (view parameter names).
    """
    return operation_features(op)


def describe_features(op: Operation) -> list[str]:
    """One line per way ``op`` pages or streams (``sktypes generate -v``)."""
    out = []
    if op.pagination is not None:
        out.append(f"paginated: {op.pagination.describe()}")
    if op.stream is not None:
        out.append(f"streamed: {op.stream.describe()}")
    return out


def iterator_imports(
    pages: Iterable[PageMethods | None], streams: Iterable[StreamMethod | None], sync: bool
) -> set[Import]:
    """What a module with these ``_iter`` and streamed methods imports for them."""
    paged = any(p is not None for p in pages)
    streamed = [s for s in streams if s is not None]
    needs: set[Import | None] = set()
    if paged:
        needs |= {Import(_RUNTIME, "iterate_pages"), Import(_RUNTIME, "Pagination")}
        needs |= {Import(_RUNTIME, "iterate_pages_sync")} if sync else set()
    if streamed:
        needs |= {Import(_RUNTIME, "iterate_stream"), Import(_RUNTIME, "Stream")}
        needs |= {Import(_RUNTIME, "iterate_stream_sync")} if sync else set()
    if paged or streamed:
        needs |= {ASYNC_ITERATOR.needs} | ({ITERATOR.needs} if sync else set())
    return {n for n in needs if n is not None}


def pagination_call(p: Pagination) -> Call:
    """``Pagination("cursor", items="/data", ...)``: the fields that are set."""
    data = p.to_dict()
    style = data.pop("style")
    kwargs = tuple((k, Value(v)) for k, v in data.items())
    return Call(Name("Pagination", Import(_RUNTIME, "Pagination")), (Value(style),), kwargs)
