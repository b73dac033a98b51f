"""Which operations are paginated, and how: :class:`~sktypes.remote.Pagination` from the spec.

A declaration wins over the guess: ``x-sktypes-pagination`` (sktypes' own, documented in
``docs/remote-client.md``), then Speakeasy's ``x-speakeasy-pagination``, then Fern's
``x-fern-pagination`` (operation level, or ``true`` taking the document-level one). A
declaration that cannot be followed is a warning naming its place, and the operation is
then not paginated (never half of what was declared); ``x-sktypes-pagination: false``
turns the guess off.

The guess (GET operations only) reads the query parameters by name and the 2xx response
through the schema model:

- the items: the body when it is an array, else its one array member (a preferred name —
  ``data``, ``items``, ``results``... — when there are several), one level down at most;
- ``link``: the response declares a ``Link`` header;
- ``next_url``: a string member named ``next``, ``next_url``, ``nextLink``, ``next_page_url``
  (or ``links.next``, ``_links.next.href``...);
- ``cursor``: a cursor-like query parameter (``cursor``, ``pageToken``, ``after``,
  ``starting_after``, ``continue``, ``marker``...) and a string member that feeds it
  (``next_cursor``, ``nextPageToken``, ``metadata.continue``, ``last_id``...), or the last
  item's ``id`` when a ``has_more`` member says whether more follow (Stripe);
- ``offset``: an ``offset``/``skip`` parameter (with ``limit``... as the page size);
- ``page``: a ``page`` parameter (with ``per_page``, ``page_size``...);

each with the stopping members found (``has_more``, ``total``, ``total_pages``...).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from sktypes.errors import SktypesError
from sktypes.jsondoc import JsonDocument
from sktypes.openapi._model import Operation
from sktypes.openapi._refs import Place, Refs
from sktypes.remote._pages import Pagination
from sktypes.schema import (
    ArrayNode,
    BooleanNode,
    IntegerNode,
    Node,
    NumberNode,
    ObjectNode,
    RefNode,
    SchemaModel,
    StringNode,
    UnionNode,
    parse,
    strip_null,
)
from sktypes.schema._emit import Emitter

__all__ = ["item_schema", "node_schema", "recognise_pagination"]

Warn = Callable[[str, Place], None]

_ITEM_NAMES = (
    "data", "items", "results", "records", "entries", "values", "elements", "objects",
    "nodes", "edges", "hits", "list", "content", "rows", "value",
)  # fmt: skip
_NEXT_URLS = {
    "next",
    "nexturl",
    "nextlink",
    "nextpageurl",
    "nextpageuri",
    "nexthref",
    "odatanextlink",
}
_CURSOR_PARAMS = re.compile(
    r"^(cursor|pagecursor|pagetoken|nexttoken|continuationtoken|continue|after|"
    r"startingafter|startcursor|marker|nextmarker|pagekey|scrollid)$"
)
_FEEDS = {  # cursor parameter → body members that feed it, best first
    "cursor": ("nextcursor", "cursor", "next"),
    "pagecursor": ("nextpagecursor", "nextcursor", "pagecursor"),
    "pagetoken": ("nextpagetoken", "pagetoken", "nexttoken"),
    "nexttoken": ("nexttoken",),
    "continuationtoken": ("nextcontinuationtoken", "continuationtoken"),
    "continue": ("continue",),
    "after": ("endcursor", "nextcursor", "after", "lastid"),
    "startingafter": ("nextcursor", "lastid"),
    "startcursor": ("nextcursor", "endcursor"),
    "marker": ("nextmarker", "marker"),
    "nextmarker": ("nextmarker",),
    "pagekey": ("nextpagekey", "lastevaluatedkey"),
    "scrollid": ("scrollid",),
}
_PAGE_FEEDS = ("nextpage", "nextpagetoken", "nextpagecursor", "nextcursor")
_LAST_ITEM_PARAMS = {"startingafter", "after"}
_OFFSETS = {"offset", "skip", "start", "startindex", "from"}
_PAGES = {"page", "pagenumber", "pagenum", "pageindex", "pageno"}
_SIZES = (
    "limit", "perpage", "pagesize", "size", "count", "maxresults", "take", "pagelimit",
    "rows", "first", "top", "numresults",
)  # fmt: skip
_HAS_MORE = {"hasmore", "hasnext", "hasnextpage", "more", "hasmoreresults", "ismore"}
_TOTALS = {
    "total",
    "totalcount",
    "totalitems",
    "totalresults",
    "count",
    "totalsize",
    "totalrecords",
}
_TOTAL_PAGES = {"totalpages", "pagecount", "numpages", "pages", "lastpage"}


def _norm(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def recognise_pagination(
    operation: Operation,
    op: Mapping[str, Any],
    op_place: Place,
    refs: Refs,
    document: Mapping[str, Any],
    warn: Warn,
) -> Pagination | None:
    """How ``operation`` pages, or ``None`` (declared by an extension, else guessed)."""
    from sktypes.openapi._paging_ext import declared

    found = declared(operation, op, op_place, document, warn, _Shape.of(operation))
    if found is not False:
        return found if isinstance(found, Pagination) else None
    if operation.method != "get":
        return None
    return _guess(operation, op, op_place, refs)


# --- the response's shape ----------------------------------------------------------------


class _Shape:
    """The 2xx response body read through the schema model: members by JSON pointer."""

    def __init__(self, model: SchemaModel | None, root: Node | None) -> None:
        self.model = model
        self.root = root

    @classmethod
    def of(cls, operation: Operation) -> _Shape:
        schema = operation.response_schema
        if schema is None or not str(operation.response_content_type or "").endswith("json"):
            return cls(None, None)
        try:
            model = parse(schema)
        except SktypesError:
            return cls(None, None)
        return cls(model, model.root)

    def plain(self, node: Node | None) -> Node | None:
        """``node`` without references and without ``null``."""
        seen = 0
        while node is not None and seen < 32:
            seen += 1
            if isinstance(node, RefNode) and self.model is not None:
                node = self.model.resolve(node)
                continue
            inner, _ = strip_null(node)
            if inner is node:
                return node
            node = inner
        return node

    def members(self, depth: int = 3) -> Iterator[tuple[str, list[str], Node]]:
        """``(pointer, normalised names along the way, node)`` of every member, shallow first."""
        level: list[tuple[str, list[str], Node]] = [("", [], self.plain(self.root))]  # type: ignore[list-item]
        for _ in range(depth):
            below: list[tuple[str, list[str], Node]] = []
            for pointer, names, node in level:
                if not isinstance(node, ObjectNode):
                    continue
                for prop in node.properties:
                    child = self.plain(prop.node)
                    if child is None:
                        continue
                    entry = (f"{pointer}/{_escape(prop.name)}", [*names, _norm(prop.name)], child)
                    yield entry
                    below.append(entry)
            level = below

    def at(self, pointer: str) -> Node | None:
        node = self.plain(self.root)
        for token in pointer.split("/")[1:] if pointer else []:
            name = token.replace("~1", "/").replace("~0", "~")
            if not isinstance(node, ObjectNode):
                return None
            prop = node.prop(name)
            node = self.plain(prop.node) if prop is not None else None
        return node

    def items(self) -> str | None:
        """Where the items are: ``""`` (the body), a member's pointer, or ``None``."""
        root = self.plain(self.root)
        if isinstance(root, ArrayNode):
            return ""
        for depth in (1, 2):
            arrays = [
                (p, names[-1])
                for p, names, n in self.members(depth)
                if len(names) == depth and isinstance(n, ArrayNode)
            ]
            if len(arrays) == 1:
                return arrays[0][0]
            for name in _ITEM_NAMES:
                named = [p for p, last in arrays if last == name]
                if len(named) == 1:
                    return named[0]
            if arrays:
                return None
        return None

    def find(self, names: set[str] | tuple[str, ...], kinds: tuple[type, ...]) -> str | None:
        """The shallowest member whose name is one of ``names`` and whose node is a kind."""
        order = list(names) if isinstance(names, tuple) else None
        best: tuple[int, int, str] | None = None
        for pointer, path, node in self.members():
            if path[-1] not in names or not isinstance(node, kinds):
                continue
            rank = (len(path), order.index(path[-1]) if order else 0, pointer)
            if best is None or rank < best:
                best = rank
        return best[2] if best else None

    def item_has(self, items: str, name: str) -> bool:
        """Every item (each option of a union of objects) has the member ``name``."""
        array = self.at(items) if items else self.plain(self.root)
        item = self.plain(array.items) if isinstance(array, ArrayNode) else None
        options = item.options if isinstance(item, UnionNode) else (item,)
        found = [self.plain(o) for o in options]
        return bool(found) and all(
            isinstance(o, ObjectNode) and o.prop(name) is not None for o in found
        )


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


# --- the guess ---------------------------------------------------------------------------


def _guess(
    operation: Operation, op: Mapping[str, Any], op_place: Place, refs: Refs
) -> Pagination | None:
    shape = _Shape.of(operation)
    items = shape.items()
    if items is None:
        return None
    query = {_norm(p.name): p for p in operation.parameters if p.location == "query"}
    stops = _stops(shape)
    more = {k: v for k, v in stops.items() if k == "has_more"}  # what URL and cursor walks read
    size = next((query[n] for n in _SIZES if n in query), None)
    limit = size.argument if size is not None else None
    max_limit = _maximum(size.schema) if size is not None else None
    if _declares_link(op, op_place, refs):
        return Pagination("link", items=items, **more)
    url = shape.find(_NEXT_URLS, (StringNode,))
    if url is None:
        url = _href(shape)
    cursor = _cursor(shape, query, items, more)
    if cursor is not None:
        return cursor
    if url is not None:
        return Pagination("next_url", items=items, next_url=url, **more)
    # a page or offset parameter alone is weak: the body must look like a page (an array, an
    # array with a conventional name, or a member saying when the pages end)
    named = _norm(items.rsplit("/", 1)[-1].replace("~1", "/").replace("~0", "~"))
    if items and named not in _ITEM_NAMES and not stops:
        return None
    offset = next((query[n] for n in query if n in _OFFSETS), None)
    if offset is not None and _is_integer(offset.schema):
        return Pagination(
            "offset", items=items, offset=offset.argument, limit=limit, max_limit=max_limit,
            **stops,
        )  # fmt: skip
    page = next((query[n] for n in query if n in _PAGES), None)
    if page is not None and _is_integer(page.schema):
        return Pagination(
            "page", items=items, page=page.argument, limit=limit, max_limit=max_limit,
            first_page=_first_page(page.schema), **stops,
        )  # fmt: skip
    return None


def _stops(shape: _Shape) -> dict[str, Any]:
    out: dict[str, Any] = {}
    more = shape.find(_HAS_MORE, (BooleanNode,))
    if more is not None:
        out["has_more"] = more
    total = shape.find(_TOTALS, (IntegerNode,))
    if total is not None:
        out["total"] = total
    pages = shape.find(_TOTAL_PAGES, (IntegerNode,))
    if pages is not None and pages != total:
        out["total_pages"] = pages
    return out


def _cursor(
    shape: _Shape, query: Mapping[str, Any], items: str, stops: dict[str, Any]
) -> Pagination | None:
    for name, param in query.items():
        textual = name in _PAGES and _is_string(param.schema)  # Stripe's and OpenAI's page
        if not _CURSOR_PARAMS.match(name) and not textual:
            continue
        feeds = _FEEDS.get(name, ()) if not textual else _PAGE_FEEDS
        found = shape.find(feeds, (StringNode, IntegerNode))
        if found is not None and found != items and not _is_url_name(found):
            return Pagination(
                "cursor", items=items, cursor=param.argument, next_cursor=found, **stops
            )
        if name in _LAST_ITEM_PARAMS and "has_more" in stops and shape.item_has(items, "id"):
            return Pagination(
                "cursor", items=items, cursor=param.argument, last_item_cursor="/id", **stops
            )
    return None


def _is_url_name(pointer: str) -> bool:
    return _norm(pointer.rsplit("/", 1)[-1]) in _NEXT_URLS - {"next"}


def _href(shape: _Shape) -> str | None:
    """``links.next`` / ``_links.next.href`` (JSON:API, HAL) when they are strings."""
    for pointer, path, node in shape.members():
        if not isinstance(node, StringNode) or len(path) < 2:
            continue
        if path[-1] == "next" and path[-2] in ("links", "_links", "link", "paging", "pagination"):
            return pointer
        if path[-2:] == ["next", "href"]:
            return pointer
    return None


def _declares_link(op: Mapping[str, Any], op_place: Place, refs: Refs) -> bool:
    responses = op.get("responses")
    if not isinstance(responses, Mapping):
        return False
    for code, raw in responses.items():
        if not str(code).startswith("2"):
            continue
        try:
            response, _ = refs.follow(raw, op_place.child("responses", str(code)), "response")
        except SktypesError:
            continue
        headers = response.get("headers") if isinstance(response, Mapping) else None
        if isinstance(headers, Mapping) and any(str(h).lower() == "link" for h in headers):
            return True
    return False


def _number(schema: JsonDocument | None) -> IntegerNode | NumberNode | None:
    """A parameter's schema as a number node (through the schema model), else ``None``."""
    if schema is None:
        return None
    try:
        model = parse(schema)
    except SktypesError:
        return None
    node = _Shape(model, model.root).plain(model.root)
    return node if isinstance(node, (IntegerNode, NumberNode)) else None


def _is_string(schema: JsonDocument | None) -> bool:
    if schema is None:
        return False
    try:
        model = parse(schema)
    except SktypesError:
        return False
    return isinstance(_Shape(model, model.root).plain(model.root), StringNode)


def _is_integer(schema: JsonDocument | None) -> bool:
    return _number(schema) is not None


def _maximum(schema: JsonDocument | None) -> int | None:
    node = _number(schema)
    high = node.maximum if node is not None else None
    return int(high) if high is not None else None


def _first_page(schema: JsonDocument | None) -> int:
    node = _number(schema)
    if node is None:
        return 1
    for found in (node.default, node.minimum):
        if isinstance(found, int) and not isinstance(found, bool) and found in (0, 1):
            return found
    return 1


def item_schema(operation: Operation, pagination: Pagination) -> JsonDocument | None:
    """The schema of one item of ``operation``'s pages, self-contained (its ``$defs``)."""
    schema = operation.response_schema
    shape = _Shape.of(operation)
    array = shape.at(pagination.items) if pagination.items else shape.plain(shape.root)
    if schema is None or shape.model is None or not isinstance(array, ArrayNode):
        return None
    return node_schema(schema, shape.model, array.items)


def node_schema(schema: JsonDocument, model: SchemaModel, node: Node) -> JsonDocument:
    """``node`` of ``schema`` as a schema of its own, with the definitions it needs.

    As the spec wrote it where that is exactly the node, else written back from the node.
    """
    written: Any = None
    if node.pointer:
        try:
            written = schema.pointer(node.pointer)
        except SktypesError:
            written = None
    if not isinstance(written, Mapping) or model.subschema(written) != node:
        written = Emitter(model).emit(node)
    defs = schema.value.get("$defs") if isinstance(schema.value, Mapping) else None
    used = model.definitions_used(node)
    out = dict(written)
    if used and isinstance(defs, Mapping):
        out["$defs"] = {k: defs[k] for k in used if k in defs}
    return JsonDocument(out)
