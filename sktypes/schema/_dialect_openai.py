"""The openai-strict dialect: OpenAI's structured outputs (strict mode) subset."""

from __future__ import annotations

from typing import Any

from sktypes.errors import SchemaError
from sktypes.schema._dialect_base import (
    _NULL,
    Json,
    _keep,
    _note,
    _resolver,
    _root,
    _tuple_as_items,
)
from sktypes.schema._emit import (
    Emitter,
    describe,
    two_descriptions,
    without_null,
)
from sktypes.schema._kinds import kinds_of
from sktypes.schema._nodes import (
    AnyNode,
    ArrayNode,
    IntersectionNode,
    NeverNode,
    Node,
    ObjectNode,
    OpaqueNode,
    UnionNode,
)

_OPENAI_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
)
_OPENAI_KEYS = frozenset(
    {
        "type",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "enum",
        "const",
        "anyOf",
        "$ref",
        "$defs",
        "description",
        "pattern",
        "format",
        "multipleOf",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "minItems",
        "maxItems",
    }
)


class _OpenAIStrict(Emitter):
    """OpenAI's structured outputs.

    Every property required (optional ones nullable), objects closed, a fixed keyword
    and format set, ``$ref`` without siblings.
    """

    def convert(self) -> Json:
        out = self.emit(_root(self.model))
        if out.get("type") != "object":
            raise SchemaError("openai-strict needs an object at the root", where="/")
        if self.model.definitions:
            defs = {n: self.emit(d) for n, d in self.model.definitions.items()}
            used = _reachable(out, defs)  # a discriminator's mapping is not kept here
            if used:
                out["$defs"] = {n: d for n, d in defs.items() if n in used}
        return out

    def union(self, node: UnionNode) -> Json:
        rest, nullable = without_null(node)
        if nullable and not isinstance(rest, (UnionNode, NeverNode)):
            if two_descriptions(node, rest):  # each description at its place
                return {"anyOf": [self.emit(rest), dict(_NULL)]}
            return self.optional(rest)  # one form for "X or null": a type list when it can be
        return {"anyOf": [self.emit(o) for o in node.options]}

    def intersection(self, node: IntersectionNode) -> Json:
        raise SchemaError("openai-strict does not accept 'allOf'", where=node.pointer or "/")

    def opaque(self, node: OpaqueNode) -> Json:
        raise SchemaError(
            f"openai-strict cannot express {node.keyword!r}", where=node.pointer or "/"
        )

    def never(self, node: NeverNode) -> Json:
        raise SchemaError(
            "openai-strict cannot express a schema no value fits", where=node.pointer or "/"
        )

    def object(self, node: ObjectNode) -> Json:
        # strict mode closes every object: what undeclared members could hold is lost when
        # they may hold anything; when they are typed (a mapping), it cannot be said at all
        if node.pattern_properties or not isinstance(node.additional, (AnyNode, NeverNode)):
            raise SchemaError(
                "openai-strict cannot express an object with arbitrary keys (a mapping)",
                where=_pointer(node, "additionalProperties"),
            )
        required = set(node.required)
        props = {
            p.name: self.emit(p.node) if p.name in required else self.optional(p.node)
            for p in node.properties
        }
        out: Json = {"type": "object", "properties": props, "required": list(props)}
        out["additionalProperties"] = False
        _put_counts(out, node)
        return out

    def array(self, node: ArrayNode) -> Json:
        out = super().array(node)
        _tuple_as_items(self, node, out)
        if "items" not in out:
            out["items"] = {}
        return out

    def optional(self, node: Node) -> Json:
        """An optional property: required in strict mode, so ``null`` stands for absent."""
        out = self.emit(node)
        if "null" in kinds_of(node, _resolver):
            return out
        t = out.get("type")
        if isinstance(t, str) and "enum" not in out and "const" not in out:
            return {**out, "type": [t, "null"]}
        if isinstance(t, str) and isinstance(out.get("enum"), list):
            return {**out, "type": [t, "null"], "enum": [*out["enum"], None]}
        if isinstance(t, str) and "const" in out and "enum" not in out:  # one listed value
            rest = {k: v for k, v in out.items() if k != "const"}
            return {**rest, "type": [t, "null"], "enum": [out["const"], None]}
        if isinstance(t, list):
            return {**out, "type": [*t, "null"]}
        if "anyOf" in out and set(out) <= {"anyOf", "description"}:
            return {**out, "anyOf": [*out["anyOf"], dict(_NULL)]}
        desc = out.pop("description", None)
        wrapped: Json = {"anyOf": [out, dict(_NULL)]}
        if desc:
            wrapped["description"] = desc
        return wrapped

    def annotate(self, node: Node, out: Json) -> Json:
        describe(out, node.description)
        fmt = out.get("format")
        if fmt is not None and fmt not in _OPENAI_FORMATS:
            _note(out, {"format": out.pop("format")})
        _keep(out, _OPENAI_KEYS)
        if "$ref" in out and len(out) > 1:  # "$ref" may not have siblings in strict mode
            ref = {"$ref": out.pop("$ref")}
            out = {"anyOf": [ref], **out}
        return out


def _reachable(root: Json, defs: dict[str, Json]) -> set[str]:
    """Names of the definitions ``root`` reaches through ``#/$defs/...`` references."""
    found: set[str] = set()
    todo: list[Any] = [root]
    while todo:
        current = todo.pop()
        if isinstance(current, dict):
            ref = current.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                name = ref[len("#/$defs/") :]
                if name in defs and name not in found:
                    found.add(name)
                    todo.append(defs[name])
            todo.extend(current.values())
        elif isinstance(current, list):
            todo.extend(current)
    return found


def _put_counts(out: Json, node: ObjectNode) -> None:
    if node.min_properties is not None:
        out["minProperties"] = node.min_properties
    if node.max_properties is not None:
        out["maxProperties"] = node.max_properties


def _pointer(node: Node, key: str) -> str:
    return f"{node.pointer}/{key}" if node.pointer else key
