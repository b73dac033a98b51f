"""The gemini dialect: Gemini's OpenAPI subset."""

from __future__ import annotations

from typing import Any

from sktypes.errors import SchemaError
from sktypes.jsondoc import thaw
from sktypes.schema._dialect_base import (
    Json,
    _keep,
    _note,
    _root,
    _text,
    _tuple_as_items,
)
from sktypes.schema._emit import (
    Emitter,
    describe,
    without_null,
)
from sktypes.schema._model import SchemaModel
from sktypes.schema._nodes import (
    ArrayNode,
    ConstNode,
    EnumNode,
    IntersectionNode,
    NeverNode,
    Node,
    NullNode,
    OpaqueNode,
    RefNode,
    UnionNode,
    _Numeric,
    strip_null,
)

GEMINI_RECURSION_DEPTH = 3
"""How many nested times a recursive definition is expanded in the gemini dialect (below
the root) before the recursion is cut: the cut node keeps the definition's type, loses its
properties, and says so in its description."""

_GEMINI_KEYS = frozenset(
    {
        "type",
        "format",
        "description",
        "nullable",
        "enum",
        "properties",
        "required",
        "items",
        "minItems",
        "maxItems",
        "minLength",
        "maxLength",
        "pattern",
        "minimum",
        "maximum",
        "minProperties",
        "maxProperties",
        "anyOf",
    }
)


class _Gemini(Emitter):
    """Gemini's OpenAPI subset.

    Upper-case types, ``nullable``, string enums, no references (inlined, recursion cut
    at :data:`GEMINI_RECURSION_DEPTH`).
    """

    def __init__(self, model: SchemaModel) -> None:
        super().__init__(model)
        self.depth: dict[str, int] = {}

    def convert(self) -> Json:
        out: Json = _collapse(self.emit(_root(self.model)))
        return out

    def emit(self, node: Node) -> Json:
        out = super().emit(node)
        t = out.get("type")
        if isinstance(t, str):
            out["type"] = t.upper()
        return out

    def null(self, node: NullNode) -> Json:
        return {"nullable": True}

    def union(self, node: UnionNode) -> Json:
        rest, nullable = without_null(node)
        if isinstance(rest, UnionNode):
            out: Json = {"anyOf": [self.emit(o) for o in rest.options]}
        elif isinstance(rest, NeverNode):
            out = {}
        else:
            out = self.emit(rest)
        if nullable:
            out["nullable"] = True
        return out

    def intersection(self, node: IntersectionNode) -> Json:
        flat = super().intersection(node)  # siblings that do not meet: one object
        if "allOf" not in flat:
            return flat
        out = self.emit(node.parts[0])
        rest = [Emitter(self.model).emit(p) for p in node.parts[1:]]
        _note(out, {"allOf": rest})
        return out

    def opaque(self, node: OpaqueNode) -> Json:
        out: Json = {}
        _note(out, thaw(node.as_schema()))
        return out

    def never(self, node: NeverNode) -> Json:
        out: Json = {}
        _note(out, {"not": {}})
        return out

    def numeric(self, node: _Numeric) -> Json:
        out = super().numeric(node)
        for exclusive, bound in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
            if exclusive in out:
                _note(out, {exclusive: out[exclusive]})
                out[bound] = out.pop(exclusive)
        return out

    def array(self, node: ArrayNode) -> Json:
        out = super().array(node)
        _tuple_as_items(self, node, out)
        if out.get("items") is False:  # no item admitted: the empty array, said as Gemini can
            out["maxItems"] = 0
        if "items" not in out or out["items"] is False:
            out["items"] = {}
        return out

    def enum(self, node: EnumNode) -> Json:
        return _gemini_enum(list(node.values))

    def const(self, node: ConstNode) -> Json:
        return _gemini_enum([node.value])

    def ref(self, node: RefNode) -> Json:
        if not self.model.can_resolve(node):
            raise SchemaError(f"dangling $ref {node.ref!r}", where=node.ref)
        target = node.target
        name = node.name or node.ref
        seen = self.depth.get(name, 0)
        if seen >= GEMINI_RECURSION_DEPTH:
            cut: Json = {"type": _gemini_type(target)}
            cut["description"] = f"{name} (recursion cut at depth {GEMINI_RECURSION_DEPTH})"
            return cut
        self.depth[name] = seen + 1
        try:
            return self.emit(target)
        finally:
            self.depth[name] = seen

    def annotate(self, node: Node, out: Json) -> Json:
        describe(out, node.description)
        return _keep(out, _GEMINI_KEYS)


def _gemini_enum(values: list[Any]) -> Json:
    """Listed values as Gemini can say them: its enums hold text, or numbers as text.

    Strings are a ``STRING`` enum; integers (numbers) an ``INTEGER`` (``NUMBER``) enum with
    ``format: enum``; a mix of those kinds one ``anyOf`` option per kind (exact). Booleans,
    objects and arrays have no Gemini enum: their type is said and the listed values move
    into the description (``(enum: [false])``), a loss the provider-formats table reports,
    never a silent change of ``false`` into the text ``"False"``.
    """
    thawed = thaw(values)
    present = [v for v in thawed if v is not None]
    groups: dict[str, list[Any]] = {}
    for value in present:
        groups.setdefault(_GEMINI_ENUM_KIND.get(type(value), "OBJECT"), []).append(value)
    if "NUMBER" in groups and "INTEGER" in groups:  # one numeric enum, as JSON Schema reads it
        groups["NUMBER"] = [v for v in present if type(v) in (int, float)]
        del groups["INTEGER"]
    options = [_gemini_enum_of(kind, listed) for kind, listed in groups.items()]
    out: Json = options[0] if len(options) == 1 else {"anyOf": options} if options else {}
    if len(present) != len(thawed):
        out["nullable"] = True
    return out


_GEMINI_ENUM_KIND = {str: "STRING", int: "INTEGER", float: "NUMBER", bool: "BOOLEAN", list: "ARRAY"}


def _gemini_enum_of(kind: str, listed: list[Any]) -> Json:
    if kind == "STRING":
        return {"type": "STRING", "enum": listed}
    if kind in ("INTEGER", "NUMBER"):
        return {"type": kind, "format": "enum", "enum": [_text(v) for v in listed]}
    out: Json = {"type": kind}
    if kind == "ARRAY":
        out["items"] = {}
    if kind != "BOOLEAN" or set(listed) != {True, False}:
        _note(out, {"enum": listed})
    return out


def _gemini_type(node: Node) -> str:
    inner, _ = strip_null(node)
    kind = (
        inner.kind
        if inner.kind in ("string", "integer", "number", "boolean", "array", "object")
        else "object"
    )
    return kind.upper()


def _collapse(node: Any) -> Any:
    """Merge one-option ``anyOf``s into their node (what inlined references leave)."""
    if not isinstance(node, dict):
        return node
    out = dict(node)
    if isinstance(out.get("properties"), dict):
        out["properties"] = {k: _collapse(v) for k, v in out["properties"].items()}
    if isinstance(out.get("items"), dict):
        out["items"] = _collapse(out["items"])
    options = out.get("anyOf")
    if isinstance(options, list):
        options = out["anyOf"] = [_collapse(o) for o in options]
        if len(options) == 1 and isinstance(options[0], dict):
            rest = {k: v for k, v in out.items() if k != "anyOf"}
            if not set(rest) & set(options[0]) - {"description"}:
                return {**options[0], **rest}
    return out
