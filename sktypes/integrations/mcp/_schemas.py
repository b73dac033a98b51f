"""The schemas of a tool: output schemas per protocol era, compacted for ``tools/list``.

Decisions read the schema model (:mod:`sktypes.schema`): whether a result is always an
object (no wrapping for older clients) and whether it may be ``null`` (wrapped for every
client: an absent ``structuredContent`` and a null one are the same on the wire).

:func:`tool_schema` makes a schema shorter without changing what it accepts: a definition
used once, and not recursive, is written where it is used.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from sktypes.jsondoc import JsonDocument
from sktypes.schema import (
    AnyNode,
    ArrayNode,
    BooleanNode,
    ConstNode,
    EnumNode,
    IntegerNode,
    IntersectionNode,
    NeverNode,
    Node,
    NullNode,
    NumberNode,
    ObjectNode,
    RefNode,
    StringNode,
    UnionNode,
    inline_refs,
    parse,
)
from sktypes.schema._detail import compact_schema, full_schema
from sktypes.views import FunctionView

__all__ = [
    "DriftMode",
    "admits_anything",
    "binary_inputs",
    "binary_media_type",
    "binary_schema",
    "may_be_null",
    "only_objects",
    "output_schema",
    "return_schema",
    "tool_schema",
]

DriftMode = Literal["warn", "error"]


def return_schema(view: FunctionView) -> JsonDocument | None:
    ret = view.return_parameter
    if ret.schema is None:
        return None
    if not ret.is_streaming:
        return ret.schema
    element = ret.schema.to_python()  # a stream is served as the list of its items
    defs = element.pop("$defs", None)
    listed: dict[str, Any] = {"type": "array", "items": element}
    if defs:
        listed["$defs"] = defs
    return JsonDocument.from_value(listed)


def binary_media_type(schema: JsonDocument, declared: str | None = None) -> str | None:
    """The media type of a result the schema declares as bytes, or ``None`` if it is not.

    Bytes are a string with ``format: binary`` (OpenAPI 3.0, Swagger's ``file``, Python's
    ``bytes``) or with a non-text ``contentMediaType`` and no ``contentEncoding`` (OpenAPI
    3.1). The media type is the schema's ``contentMediaType``, else ``declared`` (the
    response's media type in the spec) when it names one type, else
    ``application/octet-stream``.
    """
    node = parse(schema).root
    seen: set[str] = set()
    while isinstance(node, RefNode) and node.ref not in seen:
        seen.add(node.ref)
        node = node.target
    if not isinstance(node, StringNode) or node.implied or not _is_binary(node):
        return None
    media = node.content_media_type
    for candidate in (media, declared):
        if candidate and "*" not in candidate:
            return candidate.split(";")[0].strip().lower()
    return "application/octet-stream"


def _is_binary(node: StringNode) -> bool:
    """Whether a string node stands for bytes (not base64 or other text)."""
    from sktypes.kernel_openapi import is_text

    if node.content_encoding:
        return False
    media = node.content_media_type
    return node.format == "binary" or bool(media and not is_text(media.lower()))


def binary_inputs(schema: JsonDocument | dict[str, Any]) -> list[str]:
    """The JSON paths (``$.body``, ``$.body.file``, ``$.files[*]``) of bytes in arguments."""
    found: list[str] = []
    doc = JsonDocument.from_value(schema)
    text = doc.to_json()
    if '"binary"' not in text and '"contentMediaType"' not in text:
        return found  # bytes are said by one or the other: a schema saying neither has none

    def walk(node: Node, path: str, seen: frozenset[str]) -> None:
        if isinstance(node, StringNode):
            if _is_binary(node) and path not in found:
                found.append(path)
        elif isinstance(node, ObjectNode):
            for prop in node.properties:
                walk(prop.node, f"{path}.{prop.name}", seen)
            walk(node.additional, f"{path}.*", seen)
        elif isinstance(node, ArrayNode):
            for i, item in enumerate(node.prefix_items):
                walk(item, f"{path}[{i}]", seen)
            walk(node.items, f"{path}[*]", seen)
        elif isinstance(node, UnionNode):
            for option in node.options:
                walk(option, path, seen)
        elif isinstance(node, IntersectionNode):
            for part in node.parts:
                walk(part, path, seen)
        elif isinstance(node, RefNode) and node.ref not in seen:
            walk(node.target, path, seen | {node.ref})

    walk(parse(doc).root, "$", frozenset())
    return found


def binary_schema(schema: JsonDocument, media_type: str) -> JsonDocument:
    """The schema of bytes as they travel in JSON: base64 text of ``media_type``."""
    source = parse(schema).root
    out: dict[str, Any] = {
        "type": "string",
        "contentEncoding": "base64",
        "contentMediaType": media_type,
    }
    if isinstance(source, StringNode):
        for key, value in (("title", source.title), ("description", source.description)):
            if value:
                out[key] = value
    return JsonDocument.from_value(out)


def admits_anything(schema: JsonDocument) -> bool:
    """Whether the schema admits every value (``{}``, ``true``, Python's ``Any``)."""
    return isinstance(parse(schema).root, AnyNode)


def only_objects(schema: JsonDocument) -> bool:
    """Whether every value the schema admits is a JSON object (no wrapping needed)."""
    kinds = _kinds(parse(schema).root, frozenset())
    return bool(kinds) and kinds <= {"object"}


def may_be_null(schema: JsonDocument) -> bool:
    """Whether the schema may admit ``null`` (when it cannot tell: yes)."""
    kinds = _kinds(parse(schema).root, frozenset())
    return "null" in kinds or "any" in kinds


_SCALAR_NODES = (BooleanNode, IntegerNode, NumberNode, StringNode, ArrayNode)


def _kinds(node: Node, seen: frozenset[str]) -> set[str]:
    """The JSON kinds a node admits: ``object``, ``null``, ``other``; ``any`` when unsure."""
    if isinstance(node, NullNode):
        return {"null"}
    if isinstance(node, NeverNode):
        return set()
    if isinstance(node, (ObjectNode, *_SCALAR_NODES)):
        if getattr(node, "implied", False):
            return {"any"}
        return {"object"} if isinstance(node, ObjectNode) else {"other"}
    if isinstance(node, EnumNode):
        return {_kind_of(v) for v in node.values}
    if isinstance(node, ConstNode):
        return {_kind_of(node.value)}
    if isinstance(node, UnionNode):
        return set().union(*(_kinds(o, seen) for o in node.options))
    if isinstance(node, IntersectionNode):
        parts = [_kinds(p, seen) for p in node.parts]
        known = [k for k in parts if "any" not in k]
        return set.intersection(*known) if known else {"any"}
    if isinstance(node, RefNode):
        if node.ref in seen:
            return {"any"}
        return _kinds(node.target, seen | {node.ref})
    return {"any"}  # AnyNode, OpaqueNode


def _kind_of(value: Any) -> str:
    if value is None:
        return "null"
    return "object" if isinstance(value, Mapping) else "other"


def output_schema(
    schema: JsonDocument, *, wrap: bool, modern: bool, detail: str = "full"
) -> dict[str, Any]:
    """The ``outputSchema`` of a result with ``schema``: the declared shape at the root.

    ``wrap``: the result travels as ``{"result": value}`` (clients that take only object
    results, and results that may be ``null``). Nothing else is admitted: a result that
    breaks the schema (drift) is reported as an error result, which clients do not check
    against the output schema (see :mod:`._tools`). Clients before ``modern`` protocols
    want ``type: object`` at the root: an object result's schema that only says so through
    a ``$ref`` says it there too (the same values are admitted). A root that is only a
    reference to a definition (a recursive model) is that definition, written at the root
    (its ``properties`` are where clients look for them; the definitions stay for the
    recursion). ``detail``: ``compact`` writes the schema as a compact manual does (shape
    and constraints, no descriptions).
    """
    shape = compact_schema(schema, result=True) if detail == "compact" else full_schema(schema)
    body: dict[str, Any] = _root_in_place(tool_schema(shape))
    if not wrap:
        if not modern and "type" not in body:
            body = {"type": "object", **body}
        return body
    defs = body.pop("$defs", None)
    out: dict[str, Any] = {"type": "object", "properties": {"result": body}, "required": ["result"]}
    if defs:
        out["$defs"] = defs
    return out


def _root_in_place(body: dict[str, Any]) -> dict[str, Any]:
    """``{"$ref": "#/$defs/X", "$defs": ...}`` → X's keywords at the root, ``$defs`` kept."""
    ref = body.get("$ref")
    defs = body.get("$defs")
    if set(body) != {"$ref", "$defs"} or not isinstance(ref, str) or not isinstance(defs, dict):
        return body
    name = ref.removeprefix("#/$defs/")
    target = defs.get(name) if ref.startswith("#/$defs/") else None
    if not isinstance(target, dict) or "$defs" in target or "$ref" in target:
        return body
    return {**target, "$defs": defs}


def tool_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` for ``tools/list``: every definition used once (not recursive) in place.

    What the schema accepts does not change; it only gets shorter.
    """
    out: dict[str, Any] = inline_refs(schema, single_use=True)
    return out
