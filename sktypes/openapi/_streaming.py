"""Which operations stream their answer, and the schema of one item.

An operation streams when its success response (the lowest 2xx, as for the return value)
declares a stream media type (``text/event-stream``, ``application/jsonl``,
``application/x-ndjson``, ``application/json-seq``; see ``sktypes.remote``) or an OpenAPI 3.2
``itemSchema``, and no JSON body beside it (an API offering both, as OpenAI's ``stream:
true`` does, answers JSON unless asked otherwise: the JSON body is the return value).

The item schema is ``itemSchema`` (3.2), else the media type's ``schema``, which 3.0 and 3.1
specs use for one item. For server-sent events the items are events
(``{"event", "data", "id", "retry"}``): a schema of that shape (3.2's generic one, a union of
such shapes, ``data`` as a string whose ``contentSchema`` types the JSON it holds) gives the
data's schema; any other schema is the data's schema itself. The data is read as JSON unless
its schema is a string without ``contentSchema`` (then it is text); without a schema it is
JSON when it parses as JSON, else the text.

The operation's view then returns an array of items (``sktypes serve`` returns the items
read, as one result).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, Literal

from sktypes.errors import SktypesError
from sktypes.jsondoc import JsonDocument
from sktypes.openapi._paging import _Shape, node_schema
from sktypes.openapi._refs import Place, Refs
from sktypes.openapi._schemas import SchemaConverter
from sktypes.remote._streams import Stream, stream_format
from sktypes.schema import (
    AnyNode,
    ConstNode,
    EnumNode,
    Node,
    ObjectNode,
    StringNode,
    UnionNode,
    parse,
)

__all__ = ["recognise_stream"]

Warn = Callable[[str, Place], None]
_SUCCESS = re.compile(r"^2(\d\d|XX)$", re.IGNORECASE)
_EVENT_FIELDS = {"event", "data", "id", "retry"}


def recognise_stream(
    op: Mapping[str, Any], op_place: Place, refs: Refs, schemas: SchemaConverter, warn: Warn
) -> tuple[Stream, JsonDocument] | None:
    """The stream of ``op``'s success response and the schema of one item, or ``None``."""
    found = _success(op, op_place, refs)
    if found is None:
        return None
    content, place = found
    streams = [
        (str(t), media)
        for t, media in content.items()
        if isinstance(media, Mapping) and (stream_format(str(t)) or "itemSchema" in media)
    ]
    if not streams:
        return None
    if any(_is_json(str(t)) for t in content):
        return None
    media_type, media = streams[0]
    fmt = stream_format(media_type)
    where = place.child(media_type)
    if fmt is None:
        warn(f"{media_type} items (itemSchema) are not read as a stream; left as the body", where)
        return None
    key = "itemSchema" if "itemSchema" in media else "schema"
    raw = media.get(key, {})
    item = schemas.view_schema(raw, where.child(key), "response")
    if fmt != "sse":
        return Stream(media_type, fmt), item
    data, kind, names = _sse_data(item)
    return Stream(media_type, fmt, kind, names or ()), _event_schema(data, names)


def _success(
    op: Mapping[str, Any], op_place: Place, refs: Refs
) -> tuple[Mapping[str, Any], Place] | None:
    responses = op.get("responses")
    if not isinstance(responses, Mapping):
        return None
    codes = [str(c) for c in responses]
    success = sorted((c for c in codes if _SUCCESS.match(c)), key=lambda c: c.upper())
    status = success[0] if success else ("default" if "default" in codes else None)
    if status is None:
        return None
    raw = responses[status] if status in responses else responses.get(int(status))
    try:
        response, r_place = refs.follow(raw, op_place.child("responses", status), "response")
    except SktypesError:
        return None
    content = response.get("content") if isinstance(response, Mapping) else None
    if not isinstance(content, Mapping):
        return None
    return content, r_place.child("content")


def _is_json(media_type: str) -> bool:
    kind = media_type.split(";")[0].strip().lower()
    return kind == "application/json" or kind.endswith("+json")


def _sse_data(
    item: JsonDocument,
) -> tuple[JsonDocument, Literal["json", "text", "any"], tuple[str, ...] | None]:
    """The schema of the events' data, whether it is JSON or text, and the event names.

    The names are those the envelopes allow (``const``/``enum``); ``None``: any name.
    """
    try:
        model = parse(item)
    except SktypesError:
        return item, "json", None
    shape = _Shape(model, model.root)
    root = shape.plain(model.root)
    envelopes = root.options if isinstance(root, UnionNode) else (root,)
    datas: list[Node] = []
    names: list[str] | None = []
    for option in envelopes:
        node = shape.plain(option)
        if not _is_envelope(node):
            return item, _kind_of(root), None
        assert isinstance(node, ObjectNode)
        prop = node.prop("data")
        datas.append(prop.node if prop is not None else node)
        event = node.prop("event")
        allowed = _names(shape.plain(event.node)) if event is not None else None
        names = None if names is None or allowed is None else [*names, *allowed]
    kinds = set()
    schemas = []
    for data in datas:
        inner = shape.plain(data)
        carried = inner.extra.get("contentSchema") if isinstance(inner, StringNode) else None
        if carried is not None:
            schemas.append(node_schema(item, model, model.subschema(carried)))
            kinds.add("json")
        else:
            schemas.append(node_schema(item, model, data))
            kinds.add(_kind_of(inner))
    kind: Literal["json", "text", "any"] = "text" if kinds == {"text"} else "json"
    if kinds == {"any"}:
        kind = "any"
    events = tuple(dict.fromkeys(names)) if names else None
    if len(schemas) == 1:
        return schemas[0], kind, events
    return _union(schemas), kind, events


def _names(node: Node | None) -> list[str] | None:
    """The event names an envelope's ``event`` allows (``const``/``enum``), else ``None``."""
    if isinstance(node, ConstNode) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, EnumNode) and all(isinstance(v, str) for v in node.values):
        return [str(v) for v in node.values]
    return None


def _is_envelope(node: Node | None) -> bool:
    if not isinstance(node, ObjectNode) or node.prop("data") is None:
        return False
    return {p.name for p in node.properties} <= _EVENT_FIELDS


def _kind_of(node: Node | None) -> Literal["json", "text", "any"]:
    if isinstance(node, AnyNode) or node is None:
        return "any"  # no schema: JSON when it parses, else the text
    return "text" if isinstance(node, StringNode) and node.content_media_type is None else "json"


def _union(schemas: list[JsonDocument]) -> JsonDocument:
    defs: dict[str, Any] = {}
    options = []
    for s in schemas:
        value = dict(s.value) if isinstance(s.value, Mapping) else {"allOf": [s.value]}
        defs.update(value.pop("$defs", {}) or {})
        options.append(value)
    out: dict[str, Any] = {"anyOf": options}
    if defs:
        out["$defs"] = defs
    return JsonDocument(out)


def _event_schema(data: JsonDocument, names: tuple[str, ...] | None = None) -> JsonDocument:
    """The schema of one event as sktypes returns it: event, data (typed), id, retry."""
    value = dict(data.value) if isinstance(data.value, Mapping) else {"allOf": [data.value]}
    defs = value.pop("$defs", None)
    event: dict[str, Any] = {"type": "string"}
    if names:
        event["enum"] = list(names)
    out: dict[str, Any] = {
        "type": "object",
        "required": ["event", "data"],
        "properties": {
            "event": event,
            "data": value,
            "id": {"type": ["string", "null"]},
            "retry": {"type": ["integer", "null"], "minimum": 0},
        },
        "additionalProperties": False,
    }
    if defs:
        out["$defs"] = defs
    return JsonDocument(out)


def array_of(item: JsonDocument) -> JsonDocument:
    """``{"type": "array", "items": item}`` (the definitions moved to the top)."""
    value = dict(item.value) if isinstance(item.value, Mapping) else {"allOf": [item.value]}
    defs = value.pop("$defs", None)
    out: dict[str, Any] = {"type": "array", "items": value}
    if defs:
        out["$defs"] = defs
    return JsonDocument(out)
