"""Pagination declared by extensions: ``x-sktypes-pagination``, Speakeasy's, Fern's.

``x-sktypes-pagination`` (on an operation) is a :class:`~sktypes.remote.Pagination` written
out: ``style`` (``link``, ``next_url``, ``cursor``, ``offset``, ``page``), places in the body
as JSON pointers (``items``, ``next_cursor``, ``last_item_cursor``, ``next_url``,
``has_more``, ``total``, ``total_pages``), query parameters by their name in the spec
(``cursor``, ``offset``, ``page``, ``limit``), ``first_page``; ``false`` means "not
paginated, do not guess".

``x-speakeasy-pagination`` (Speakeasy's documented shape)::

    type: offsetLimit | cursor | url
    inputs: [{name: <parameter>, in: parameters, type: page | offset | limit | cursor}]
    outputs: {results: $.data, numPages: $.pages, nextCursor: $.next, nextUrl: $.next}

JSONPath is read in its simple form (``$.a.b``, ``$.a[0]``, ``$['a']``) and the last item
of an array (``$.data[-1].id``, ``$.data[(@.length-1)].id``: the cursor taken from the last
item). Inputs ``in: requestBody`` are not supported (a warning; not paginated).

``x-fern-pagination`` (Fern's)::

    cursor: $request.<parameter>        offset: $request.<parameter>
    next_cursor: $response.<path>       step: $request.<parameter>   (page size; optional)
    results: $response.<path>           has-next-page: $response.<path>   (optional)
                                        results: $response.<path>

``offset`` with a ``step`` advances by the items received, without one it counts pages
(Fern increments by one). ``x-fern-pagination: true`` takes the document-level one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from sktypes.openapi._model import Operation
from sktypes.openapi._refs import Place
from sktypes.remote._pages import PAGE_STYLES, Pagination, Style

if TYPE_CHECKING:
    from sktypes.openapi._paging import _Shape

__all__ = ["declared"]

Warn = Callable[[str, Place], None]


class _Refused(Exception):
    """A declaration that cannot be followed (the message says why)."""


def declared(
    operation: Operation,
    op: Mapping[str, Any],
    op_place: Place,
    document: Mapping[str, Any],
    warn: Warn,
    shape: _Shape,
) -> Pagination | bool | None:
    """The declared pagination; ``None`` when declared off or unusable; ``False``: none."""
    readers: list[tuple[str, Callable[[Any, Operation, _Shape], Pagination | None]]] = [
        ("x-sktypes-pagination", _sktypes),
        ("x-speakeasy-pagination", _speakeasy),
        ("x-fern-pagination", _fern),
    ]
    for key, reader in readers:
        if key not in op:
            continue
        value = op[key]
        if key == "x-fern-pagination" and value is True:
            value = document.get(key)
        place = op_place.child(key)
        try:
            return reader(value, operation, shape)
        except _Refused as exc:
            warn(f"{key}: {exc}; the operation is not paginated", place)
            return None
    return False


def _param(operation: Operation, name: Any, role: str) -> str:
    """The argument of the parameter named ``name`` (query, header, path or cookie)."""
    if not isinstance(name, str):
        raise _Refused(f"{role} must name a parameter")
    for p in operation.parameters:
        if p.name == name:
            return p.argument
    raise _Refused(f"{role} {name!r} is not a parameter of the operation")


def _pointer(value: Any, role: str) -> str:
    if not isinstance(value, str) or (value and not value.startswith("/")):
        raise _Refused(f"{role} must be a JSON pointer ('' or starting with '/')")
    return value


# --- x-sktypes-pagination ------------------------------------------------------------------

_POINTERS = (
    "items",
    "next_cursor",
    "last_item_cursor",
    "next_url",
    "has_more",
    "total",
    "total_pages",
)
_PARAMS = ("cursor", "offset", "page", "limit")
_NEEDS = {
    "link": (),
    "next_url": ("next_url",),
    "cursor": ("cursor",),
    "offset": ("offset",),
    "page": ("page",),
}


def _sktypes(value: Any, operation: Operation, shape: _Shape) -> Pagination | None:
    if value is False:
        return None
    if not isinstance(value, Mapping):
        raise _Refused("must be an object or false")
    unknown = sorted(set(value) - {"style", "first_page", *_POINTERS, *_PARAMS})
    if unknown:
        raise _Refused(f"unknown member {unknown[0]!r}")
    style = next((s for s in PAGE_STYLES if s == value.get("style")), None)
    if style is None:
        raise _Refused(f"style must be one of {', '.join(PAGE_STYLES)}")
    missing = [k for k in _NEEDS[style] if k not in value]
    if style == "cursor" and "next_cursor" not in value and "last_item_cursor" not in value:
        missing.append("next_cursor")
    if missing:
        raise _Refused(f"style {style} needs {missing[0]!r}")
    fields: dict[str, Any] = {"source": "x-sktypes-pagination"}
    for key in _POINTERS:
        if key in value:
            fields[key] = _pointer(value[key], key)
    for key in _PARAMS:
        if key in value:
            fields[key] = _param(operation, value[key], key)
    first = value.get("first_page", 1)
    if not isinstance(first, int) or isinstance(first, bool):
        raise _Refused("first_page must be an integer")
    if "items" not in fields:
        fields["items"] = _default_items(shape)
    return Pagination(style, first_page=first, **fields)


def _default_items(shape: _Shape) -> str:
    found = shape.items()
    if found is None:
        raise _Refused("no 'items' pointer and the response has no one array of items")
    return found


# --- x-speakeasy-pagination ----------------------------------------------------------------

_STEP = re.compile(
    r"\.([A-Za-z_$][\w$-]*)|\[(\d+|-1|\(@\.length-1\))\]|\['([^']*)'\]|\[\"([^\"]*)\"\]"
)


def _jsonpath(path: Any, role: str, prefix: str = "$") -> tuple[str, str | None]:
    """``(pointer, rest inside the last item)`` of a simple JSONPath.

    ``$.a.b`` → ``("/a/b", None)``; ``$.a[-1].id`` → ``("/a", "/id")``.
    """
    if not isinstance(path, str) or not path.startswith(prefix):
        raise _Refused(f"{role} must be a path starting with {prefix!r}")
    rest = path[len(prefix) :]
    tokens: list[str] = []
    last: list[str] | None = None
    while rest:
        m = _STEP.match(rest)
        if m is None:
            raise _Refused(f"{role} {path!r} is not a path sktypes can follow")
        rest = rest[m.end() :]
        token = next(g for g in m.groups() if g is not None)
        if token in ("-1", "(@.length-1)"):
            if last is not None:
                raise _Refused(f"{role} {path!r} takes a last item twice")
            last = []
            continue
        escaped = token.replace("~", "~0").replace("/", "~1")
        (tokens if last is None else last).append(escaped)
    pointer = "".join(f"/{t}" for t in tokens)
    return pointer, ("".join(f"/{t}" for t in last) if last is not None else None)


def _speakeasy(value: Any, operation: Operation, shape: _Shape) -> Pagination | None:
    if not isinstance(value, Mapping):
        raise _Refused("must be an object")
    kind = value.get("type")
    inputs = value.get("inputs") or []
    outputs = value.get("outputs") or {}
    if not isinstance(inputs, list) or not isinstance(outputs, Mapping):
        raise _Refused("inputs must be a list and outputs an object")
    args: dict[str, str] = {}
    for entry in inputs:
        if not isinstance(entry, Mapping):
            raise _Refused("each input must be an object")
        where, role = entry.get("in"), entry.get("type")
        if where != "parameters":
            raise _Refused(f"inputs in {where!r} are not supported (only 'parameters')")
        if role not in ("page", "offset", "limit", "cursor"):
            raise _Refused(f"input type {role!r} is not one of page, offset, limit, cursor")
        args[str(role)] = _param(operation, entry.get("name"), f"input {role}")
    fields: dict[str, Any] = {"source": "x-speakeasy-pagination"}
    style: Style
    if "results" in outputs:
        fields["items"], _ = _jsonpath(outputs["results"], "outputs.results")
    if "numPages" in outputs:
        fields["total_pages"], _ = _jsonpath(outputs["numPages"], "outputs.numPages")
    if kind == "url":
        if "nextUrl" not in outputs:
            raise _Refused("type url needs outputs.nextUrl")
        fields["next_url"], _ = _jsonpath(outputs["nextUrl"], "outputs.nextUrl")
        style = "next_url"
    elif kind == "cursor":
        if "cursor" not in args or "nextCursor" not in outputs:
            raise _Refused("type cursor needs a cursor input and outputs.nextCursor")
        pointer, last = _jsonpath(outputs["nextCursor"], "outputs.nextCursor")
        if last is not None:
            fields["last_item_cursor"] = last
            fields.setdefault("items", pointer)
        else:
            fields["next_cursor"] = pointer
        fields["cursor"] = args["cursor"]
        style = "cursor"
    elif kind == "offsetLimit":
        if "page" in args:
            style, fields["page"] = "page", args["page"]
        elif "offset" in args:
            style, fields["offset"] = "offset", args["offset"]
        else:
            raise _Refused("type offsetLimit needs a page or an offset input")
    else:
        raise _Refused(f"type {kind!r} is not one of offsetLimit, cursor, url")
    if "limit" in args:
        fields["limit"] = args["limit"]
    if "items" not in fields:
        fields["items"] = _default_items(shape)
    return Pagination(style, **fields)


# --- x-fern-pagination ---------------------------------------------------------------------


def _fern(value: Any, operation: Operation, shape: _Shape) -> Pagination | None:
    if not isinstance(value, Mapping):
        raise _Refused("must be an object (or true with one at the document level)")

    def request(key: str) -> str:
        raw = value[key]
        if not isinstance(raw, str) or not raw.startswith("$request."):
            raise _Refused(f"{key} must be $request.<parameter>")
        return _param(operation, raw.removeprefix("$request."), key)

    def response(key: str) -> str:
        pointer, last = _jsonpath(value[key], key, "$response")
        if last is not None:
            raise _Refused(f"{key}: a last item is not supported here")
        return pointer

    fields: dict[str, Any] = {"source": "x-fern-pagination"}
    if "results" in value:
        fields["items"] = response("results")
    else:
        fields["items"] = _default_items(shape)
    if "cursor" in value:
        if "next_cursor" not in value:
            raise _Refused("cursor needs next_cursor")
        fields["cursor"] = request("cursor")
        fields["next_cursor"] = response("next_cursor")
        return Pagination("cursor", **fields)
    if "offset" not in value:
        raise _Refused("needs cursor or offset")
    if "has-next-page" in value:
        fields["has_more"] = response("has-next-page")
    if "step" in value:
        return Pagination("offset", offset=request("offset"), limit=request("step"), **fields)
    return Pagination("page", page=request("offset"), **fields)
