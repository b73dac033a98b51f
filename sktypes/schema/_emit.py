"""Nodes → schema JSON: one method per node kind, overridden per dialect.

:class:`Emitter` writes draft 2020-12 that means exactly what the nodes mean (merged
``allOf`` parts come out merged). The dialects (:mod:`._dialects`) subclass it and change
what their consumer cannot take. Keys come out in one order: ``type``, the kind's
keywords, composition, then annotations.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sktypes.jsondoc import thaw
from sktypes.schema._model import SchemaModel
from sktypes.schema._nodes import (
    AnyNode,
    ArrayNode,
    BooleanNode,
    ConstNode,
    Discriminator,
    EnumNode,
    IntegerNode,
    IntersectionNode,
    NeverNode,
    Node,
    NullNode,
    NumberNode,
    ObjectNode,
    OpaqueNode,
    RefNode,
    StringNode,
    UnionNode,
    _Numeric,
    json_kind,
    strip_null,
)

__all__ = ["Emitter", "describe", "is_plain_any", "to_json_schema", "without_null"]

Json = dict[str, Any]


def is_plain_any(node: Node) -> bool:
    """``{}``: any value, and nothing to say about it."""
    return isinstance(node, AnyNode) and not node.annotations()


class Emitter:
    """Draft 2020-12 from nodes; references stay references (``#/$defs/...``).

    Args:
        model: the model the nodes belong to (references resolve through it).
    """

    type_lists = True
    """Whether ``type`` may list several types (OpenAPI 3.0 and Gemini take one)."""

    def __init__(self, model: SchemaModel) -> None:
        self.model = model
        self._kinds: dict[type[Node], Callable[[Any], Json]] = {
            AnyNode: self.any,
            NeverNode: self.never,
            NullNode: self.null,
            BooleanNode: self.boolean,
            IntegerNode: self.numeric,
            NumberNode: self.numeric,
            StringNode: self.string,
            ArrayNode: self.array,
            ObjectNode: self.object,
            EnumNode: self.enum,
            ConstNode: self.const,
            UnionNode: self.union,
            IntersectionNode: self.intersection,
            RefNode: self.ref,
            OpaqueNode: self.opaque,
        }

    # --- entry points ------------------------------------------------------------------

    def emit(self, node: Node) -> Json:
        """The schema of one node."""
        out = self._kinds[type(node)](node)
        return self.annotate(node, out)

    def document(self) -> Json:
        """The whole model: its root, and the definitions under ``$defs``."""
        out = self.emit(self.model.root)
        if self.model.definitions:
            out["$defs"] = {name: self.emit(n) for name, n in self.model.definitions.items()}
        return out

    def annotate(self, node: Node, out: Json) -> Json:
        """Add the node's annotations (after its keywords)."""
        if node.title is not None:
            out["title"] = node.title
        describe(out, node.description)
        if node.has_default:
            out["default"] = thaw(node.default)
        if node.examples:
            out["examples"] = thaw(node.examples)
        if node.deprecated:
            out["deprecated"] = True
        if node.read_only:
            out["readOnly"] = True
        if node.write_only:
            out["writeOnly"] = True
        for key, value in node.extra.items():
            out.setdefault(key, thaw(value))
        return out

    # --- one method per kind -------------------------------------------------------------

    def any(self, node: AnyNode) -> Json:
        return {}

    def never(self, node: NeverNode) -> Json:
        return {"not": {}}

    def null(self, node: NullNode) -> Json:
        return {"type": "null"}

    def boolean(self, node: BooleanNode) -> Json:
        return {"type": "boolean"}

    def numeric(self, node: _Numeric) -> Json:
        out: Json = {} if node.implied else {"type": node.kind}
        _put(out, "minimum", node.minimum)
        _put(out, "exclusiveMinimum", node.exclusive_minimum)
        _put(out, "maximum", node.maximum)
        _put(out, "exclusiveMaximum", node.exclusive_maximum)
        _put(out, "multipleOf", node.multiple_of)
        _put(out, "format", node.format)
        return out

    def string(self, node: StringNode) -> Json:
        out: Json = {} if node.implied else {"type": "string"}
        _put(out, "minLength", node.min_length)
        _put(out, "maxLength", node.max_length)
        _put(out, "pattern", node.pattern)
        _put(out, "format", node.format)
        _put(out, "contentEncoding", node.content_encoding)
        _put(out, "contentMediaType", node.content_media_type)
        return out

    def array(self, node: ArrayNode) -> Json:
        out: Json = {} if node.implied else {"type": "array"}
        if node.prefix_items:
            out["prefixItems"] = [self.emit(p) for p in node.prefix_items]
        if isinstance(node.items, NeverNode) and not node.items.annotations():
            out["items"] = False
        elif not is_plain_any(node.items):
            out["items"] = self.emit(node.items)
        _put(out, "minItems", node.min_items)
        _put(out, "maxItems", node.max_items)
        if node.unique_items:
            out["uniqueItems"] = True
        if node.contains is not None:
            out["contains"] = self.emit(node.contains)
            _put(out, "minContains", node.min_contains)
            _put(out, "maxContains", node.max_contains)
        return out

    def object(self, node: ObjectNode) -> Json:
        out: Json = {} if node.implied else {"type": "object"}
        if node.properties:
            out["properties"] = {p.name: self.emit(p.node) for p in node.properties}
        if node.required:
            out["required"] = list(node.required)
        extra = node.additional
        if isinstance(extra, NeverNode) and not extra.annotations():
            out["additionalProperties"] = False
        elif not is_plain_any(extra):
            out["additionalProperties"] = self.emit(extra)
        if node.pattern_properties:
            out["patternProperties"] = {p: self.emit(n) for p, n in node.pattern_properties}
        if node.property_names is not None:
            out["propertyNames"] = self.emit(node.property_names)
        _put(out, "minProperties", node.min_properties)
        _put(out, "maxProperties", node.max_properties)
        if node.discriminator is not None:
            out["discriminator"] = self.discriminator(node.discriminator)
        return out

    def enum(self, node: EnumNode) -> Json:
        return {**_values_type(node.values), "enum": thaw(node.values)}

    def const(self, node: ConstNode) -> Json:
        return {**_values_type((node.value,)), "const": thaw(node.value)}

    def union(self, node: UnionNode) -> Json:
        if not node.one_of and node.discriminator is None:
            rest, nullable = without_null(node)
            if nullable and not isinstance(rest, (UnionNode, NeverNode)):
                inner = self.emit(rest)
                if two_descriptions(node, rest):  # the short form has room for one
                    return {"anyOf": [inner, self.emit(NullNode())]}
                t = inner.get("type")
                if isinstance(t, str) and not _COMPOSED & inner.keys():
                    return {**inner, "type": [t, "null"]}  # "X or null" in its short form
                listed = _listed(inner)
                if listed is not None:  # listed values or null: null is one more value
                    kept = {k: v for k, v in inner.items() if k not in ("type", "enum", "const")}
                    return {"enum": [*listed, None], **kept}
            options = [self.emit(o) for o in node.options]
            kinds = [o["type"] for o in options if len(o) == 1 and isinstance(o.get("type"), str)]
            if self.type_lists and len(kinds) == len(options) and len(set(kinds)) == len(kinds):
                return {"type": kinds}  # bare types: one type list
            return {"anyOf": options}
        out: Json = {"oneOf" if node.one_of else "anyOf": [self.emit(o) for o in node.options]}
        if node.discriminator is not None:
            out["discriminator"] = self.discriminator(node.discriminator)
        return out

    def intersection(self, node: IntersectionNode) -> Json:
        parts = [self.emit(p) for p in node.parts]
        flat = _siblings(parts)
        return flat if flat is not None else {"allOf": parts}

    def ref(self, node: RefNode) -> Json:
        return {"$ref": node.ref}

    def opaque(self, node: OpaqueNode) -> Json:
        out: Json = thaw(node.as_schema())
        return out

    def discriminator(self, d: Discriminator) -> Json:
        out: Json = {"propertyName": d.property_name}
        if d.mapping:
            out["mapping"] = {value: ref.ref for value, ref in d.mapping}
        return out


_TOGETHER = (
    frozenset({"properties", "patternProperties", "additionalProperties"}),
    frozenset({"prefixItems", "items"}),
    frozenset({"contains", "minContains", "maxContains"}),
    frozenset({"if", "then", "else"}),
    frozenset({"anyOf"}),
    frozenset({"oneOf"}),
    frozenset({"allOf"}),
    frozenset({"$ref"}),
)
"""Keywords that read their siblings (or repeat): two parts holding them stay apart."""


def _siblings(parts: list[Json]) -> Json | None:
    """Parts written as one object when their keywords do not meet (siblings conjoin)."""
    out: Json = {}
    for part in parts:
        for key, value in part.items():
            if key in out and not (key == "type" and out[key] == value):
                return None
        for group in _TOGETHER:
            if group & out.keys() and group & part.keys():
                return None
        out.update(part)
    return out


def describe(out: Json, text: str | None) -> None:
    """Put a node's description first, before any note its content left there."""
    if text is None:
        return
    note = out.get("description")
    out["description"] = f"{text} {note}" if note and note != text else text


def _values_type(values: tuple[Any, ...]) -> Json:
    """``type`` for listed values that share one JSON type.

    It says nothing the values do not, and readers of the schema see it at once.
    """
    kinds = {json_kind(v) for v in values}
    if kinds == {"integer"} and not all(isinstance(v, int) for v in values):
        return {}
    if len(kinds) == 1:
        return {"type": kinds.pop()}
    if kinds == {"integer", "number"}:
        return {"type": "number"}
    return {}


_COMPOSED = frozenset({"enum", "const", "anyOf", "oneOf", "allOf", "$ref", "not"})


def two_descriptions(node: UnionNode, rest: Node) -> bool:
    """``X or null`` whose ``X`` (``rest``) describes itself otherwise than the union does."""
    own = rest.description
    return own is not None and node.description is not None and own != node.description


def _listed(out: Json) -> list[Any] | None:
    """The values of a schema that only lists values (``enum`` or ``const``), else ``None``."""
    if _COMPOSED & out.keys() - {"enum", "const"}:
        return None
    if isinstance(out.get("enum"), list) and "const" not in out:
        return list(out["enum"])
    if "const" in out and "enum" not in out:
        return [out["const"]]
    return None


_ANNOTATION_DEFAULTS: dict[str, Any] = {
    "title": None,
    "description": None,
    "default": AnyNode().default,
    "examples": (),
    "deprecated": False,
    "read_only": False,
    "write_only": False,
    "extra": AnyNode().extra,
}


def without_null(node: UnionNode) -> tuple[Node, bool]:
    """The union's options without ``null``, and whether there was one.

    The union's annotations are written once, on the node the union becomes; the option
    keeps its own description, which a dialect's short form writes after the union's (a
    property's description first, then its type's: ``describe``), never dropping either.
    """
    bare = node.replace(**{k: _ANNOTATION_DEFAULTS[k] for k in node.annotations()})
    return strip_null(bare)


def _put(out: Json, key: str, value: Any) -> None:
    if value is not None:
        out[key] = value


def to_json_schema(model: SchemaModel, node: Node | None = None) -> Json:
    """Draft 2020-12 for ``node`` (default: the whole model, ``$defs`` included)."""
    emitter = Emitter(model)
    return emitter.document() if node is None else emitter.emit(node)
