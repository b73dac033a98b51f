"""The openapi-3.0 dialect: the Schema Object of the OpenAPI 3.0 specification."""

from __future__ import annotations

from typing import Any

from sktypes.errors import SchemaError
from sktypes.jsondoc import thaw
from sktypes.schema._dialect_base import (
    Json,
    _keep,
    _root,
    _tuple_as_items,
)
from sktypes.schema._emit import (
    Emitter,
    without_null,
)
from sktypes.schema._model import SchemaModel
from sktypes.schema._nodes import (
    ArrayNode,
    ConstNode,
    NeverNode,
    Node,
    NullNode,
    OpaqueNode,
    RefNode,
    UnionNode,
    _Numeric,
)

_OAS30_KEYS = frozenset(
    {
        "type",
        "format",
        "title",
        "description",
        "default",
        "multipleOf",
        "maximum",
        "exclusiveMaximum",
        "minimum",
        "exclusiveMinimum",
        "maxLength",
        "minLength",
        "pattern",
        "maxItems",
        "minItems",
        "uniqueItems",
        "maxProperties",
        "minProperties",
        "required",
        "enum",
        "properties",
        "additionalProperties",
        "items",
        "allOf",
        "oneOf",
        "anyOf",
        "not",
        "nullable",
        "readOnly",
        "writeOnly",
        "example",
        "deprecated",
        "discriminator",
        "$ref",
    }
)


class _OpenAPI30(Emitter):
    """OpenAPI 3.0's Schema Object.

    ``nullable``, boolean exclusive bounds, one ``example``, references to
    ``#/components/schemas``; definitions that do not recur are inlined, recursive ones
    are kept under ``x-components``.
    """

    type_lists = False

    def __init__(self, model: SchemaModel) -> None:
        super().__init__(model)
        # kept as components: recursive definitions, and what a discriminator maps to
        self.recursive = _recursive_definitions(model) | _mapped_definitions(model)

    def convert(self) -> Json:
        out = self.emit(_root(self.model))
        if self.recursive:
            schemas = {n: self.emit(self.model.definitions[n]) for n in sorted(self.recursive)}
            out["x-components"] = {"schemas": schemas}
        return out

    def null(self, node: NullNode) -> Json:
        return {"enum": [None], "nullable": True}

    def const(self, node: ConstNode) -> Json:
        out = super().const(node)
        out["enum"] = [out.pop("const")]
        return out

    def numeric(self, node: _Numeric) -> Json:
        out = super().numeric(node)
        for exclusive, bound in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
            value = out.pop(exclusive, None)
            if value is None:
                continue
            inclusive = out.get(bound)
            tighter = (
                inclusive is None
                or (bound == "minimum" and value >= inclusive)
                or (bound == "maximum" and value <= inclusive)
            )
            if tighter:
                out[bound] = value
                out[exclusive] = True
        return out

    def array(self, node: ArrayNode) -> Json:
        out = super().array(node)
        _tuple_as_items(self, node, out)
        if "items" not in out or out["items"] is False:
            out["items"] = {} if "items" not in out else {"not": {}}
        return out

    def union(self, node: UnionNode) -> Json:
        rest, nullable = without_null(node)
        if not nullable:
            return super().union(node)
        if isinstance(rest, UnionNode):
            out = super().union(rest)
        elif isinstance(rest, NeverNode):
            return {"enum": [None], "nullable": True}
        else:
            out = self.emit(rest)
        if "$ref" in out:
            out = {"allOf": [{"$ref": out.pop("$ref")}], **out}
        if isinstance(out.get("enum"), list):
            out["enum"] = [*out["enum"], None]  # listed values are all a value may be
        out["nullable"] = True
        return out

    def discriminator(self, d: Any) -> Json:
        out = super().discriminator(d)
        if "mapping" in out:
            out["mapping"] = {
                value: f"#/components/schemas/{ref.name}" if ref.name else ref.ref
                for value, ref in d.mapping
            }
        return out

    def ref(self, node: RefNode) -> Json:
        if node.name is not None and node.name in self.recursive:
            return {"$ref": f"#/components/schemas/{node.name}"}
        if not self.model.can_resolve(node):
            raise SchemaError(f"dangling $ref {node.ref!r}", where=node.ref)
        return self.emit(node.target)

    def opaque(self, node: OpaqueNode) -> Json:
        if node.keyword == "not":
            return {"not": thaw(node.value)}
        raise SchemaError(f"openapi-3.0 cannot express {node.keyword!r}", where=node.pointer or "/")

    def annotate(self, node: Node, out: Json) -> Json:
        out = super().annotate(node, out)
        examples = out.pop("examples", None)
        if isinstance(examples, list) and examples:
            out["example"] = examples[0]
        out.pop("$schema", None)
        out.pop("$id", None)
        if "$ref" in out and len(out) > 1:
            out = {"allOf": [{"$ref": out.pop("$ref")}], **out}
        return _keep(out, _OAS30_KEYS, extensions=True)


def _recursive_definitions(model: SchemaModel) -> set[str]:
    """Names of definitions that can reach themselves through references."""
    edges = {name: _refs_in(model, node) for name, node in model.definitions.items()}
    out: set[str] = set()
    for start, first in edges.items():
        seen: set[str] = set()
        todo = list(first)
        while todo:
            cur = todo.pop()
            if cur == start:
                out.add(start)
                break
            if cur in seen:
                continue
            seen.add(cur)
            todo.extend(edges.get(cur, ()))
    return out


def _mapped_definitions(model: SchemaModel) -> set[str]:
    """Names of definitions a discriminator's mapping names (they must stay referable)."""
    names: set[str] = set()
    for node in model.nodes():
        d = getattr(node, "discriminator", None)
        if d is not None:
            names.update(ref.name for _, ref in d.mapping if ref.name in model.definitions)
    return names


def _refs_in(model: SchemaModel, node: Node) -> set[str]:
    found: set[str] = set()
    todo = [node]
    while todo:
        current = todo.pop()
        if isinstance(current, RefNode):
            if current.name is not None and current.name in model.definitions:
                found.add(current.name)
            continue
        todo.extend(current.children())
    return found
