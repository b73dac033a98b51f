"""Draft 2020-12 schemas → provider dialects: openai-strict, openapi-3.0, gemini.

Each dialect reads the schema through the schema model (:func:`sktypes.schema.parse`) and
writes it with an :class:`~sktypes.schema._emit.Emitter` of its own: one method per node
kind, changed where the provider cannot take what 2020-12 says. ``allOf`` parts arrive
merged (the model merges whatever is exactly mergeable, at any depth). What a dialect
cannot carry is dropped and, when it constrains values, written into the ``description``
so the model still reads it (``(minLength: 3)``); what it cannot express at all raises
:class:`SchemaError` naming the JSON pointer.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, Literal

import orjson

from sktypes.errors import SchemaError
from sktypes.jsondoc import thaw
from sktypes.schema._emit import (
    Emitter,
    describe,
    is_plain_any,
    two_descriptions,
    without_null,
)
from sktypes.schema._merge import kinds_of
from sktypes.schema._model import SchemaModel
from sktypes.schema._nodes import (
    AnyNode,
    ArrayNode,
    ConstNode,
    EnumNode,
    IntersectionNode,
    NeverNode,
    Node,
    NullNode,
    ObjectNode,
    OpaqueNode,
    RefNode,
    UnionNode,
    _Numeric,
    strip_null,
)

__all__ = ["DIALECTS", "GEMINI_RECURSION_DEPTH", "Dialect", "to_dialect"]

Dialect = Literal["json-schema", "openai-strict", "openapi-3.0", "gemini"]
"""The name of a JSON Schema dialect ``json_schema`` and ``to_dialect`` write."""
DIALECTS: tuple[Dialect, ...] = ("json-schema", "openai-strict", "openapi-3.0", "gemini")
"""Every dialect, in a stable order."""

GEMINI_RECURSION_DEPTH = 3
"""How many nested times a recursive definition is expanded in the gemini dialect (below
the root) before the recursion is cut: the cut node keeps the definition's type, loses its
properties, and says so in its description."""

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
_CONSTRAINTS = (
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "contains",
    "minContains",
    "maxContains",
    "propertyNames",
    "patternProperties",
    "contentEncoding",
    "contentMediaType",
)
_NULL = {"type": "null"}

Json = dict[str, Any]


def to_dialect(schema: dict[str, Any], dialect: str) -> dict[str, Any]:
    """Return ``schema`` (draft 2020-12) rewritten for ``dialect`` (a new dict)."""
    if dialect == "json-schema":
        return copy.deepcopy(schema)
    writer = _WRITERS.get(dialect)
    if writer is None:
        raise SchemaError(f"unknown dialect {dialect!r}; choose one of {', '.join(DIALECTS)}")
    from sktypes.schema import parse

    out: dict[str, Any] = writer(parse(schema)).convert()
    return out


def _root(model: SchemaModel) -> Node:
    """The root; a root that is only a reference is written as its definition.

    Dialects want a schema at the root (an object for openai-strict, a Schema Object,
    not a Reference, for OpenAPI 3.0); references inside keep pointing at definitions.
    """
    root = model.root
    if isinstance(root, RefNode) and model.can_resolve(root):
        target = model.resolve(root)
        own = dict(root.annotations())
        return target.replace(**own) if own else target
    return root


def _note(out: Json, dropped: Json) -> None:
    """Move dropped constraints into the description, so the model still reads them."""
    if not dropped:
        return
    text = ", ".join(f"{k}: {_text(v)}" for k, v in dropped.items())
    desc = out.get("description")
    out["description"] = f"{desc} ({text})" if desc else f"({text})"


def _text(value: Any) -> str:
    if isinstance(value, (dict, list)):
        return orjson.dumps(value).decode()
    return str(value)


def _keep(out: Json, allowed: frozenset[str], *, extensions: bool = False) -> Json:
    """Drop what ``allowed`` does not hold; constraints among it go into the description."""
    dropped = {
        k: out.pop(k)
        for k in list(out)
        if k not in allowed and not (extensions and k.startswith("x-"))
    }
    _note(out, {k: v for k, v in dropped.items() if k in _CONSTRAINTS})
    return out


def _tuple_as_items(emitter: Emitter, node: ArrayNode, out: Json) -> None:
    """``prefixItems`` written as ``items`` (an ``anyOf`` of the positions) and counts."""
    if not node.prefix_items:
        return
    out.pop("prefixItems", None)
    options: list[Any] = [emitter.emit(p) for p in node.prefix_items]
    if not isinstance(node.items, NeverNode) and not is_plain_any(node.items):
        options.append(emitter.emit(node.items))
    unique: list[Any] = []
    for o in options:
        if o not in unique:
            unique.append(o)
    out["items"] = unique[0] if len(unique) == 1 else {"anyOf": unique}
    size = len(node.prefix_items)
    out["minItems"] = (
        max(out.get("minItems", 0), size) if node.min_items is None else out["minItems"]
    )
    if isinstance(node.items, NeverNode):
        out["maxItems"] = min(out.get("maxItems", size), size)


def _resolver(ref: RefNode) -> Node | None:
    return ref.target


# --- openai-strict ------------------------------------------------------------------


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


# --- openapi-3.0 --------------------------------------------------------------------


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


# --- gemini -------------------------------------------------------------------------


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


_WRITERS: dict[str, Callable[[SchemaModel], Any]] = {
    "openai-strict": _OpenAIStrict,
    "openapi-3.0": _OpenAPI30,
    "gemini": _Gemini,
}
