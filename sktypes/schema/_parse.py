"""JSON Schema (2020-12, or OpenAPI 3.0's Schema Object) → the schema model's nodes.

Each schema object is read keyword by keyword into the parts it asserts — its ``type``
(one typed node per listed type), ``enum``/``const``, ``$ref``, ``anyOf``/``oneOf``,
``allOf`` — which are then conjoined (:mod:`._merge`): merged into one node where that is
exact, an :class:`IntersectionNode` where it is not. Annotations land on the resulting
node. A keyword the model does not represent becomes an :class:`OpaqueNode` part and an
entry of the model's ``unsupported`` report, never a silent drop.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from sktypes import _pointer
from sktypes.jsondoc import FrozenDict, JsonDocument, freeze
from sktypes.schema._merge import conjoin, kinds_of, make_union
from sktypes.schema._model import Flavor, SchemaModel, Unsupported
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
    Property,
    RefNode,
    StringNode,
    UnionNode,
)

__all__ = ["ASSERTING_UNSUPPORTED", "Parser", "parse_document"]

_TYPES: Final = ("null", "boolean", "integer", "number", "string", "array", "object")
_ANNOTATIONS: Final = frozenset(
    {
        "title",
        "description",
        "default",
        "examples",
        "example",
        "deprecated",
        "readOnly",
        "writeOnly",
    }
)
_NUMBER: Final = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")
_STRING: Final = ("minLength", "maxLength", "pattern", "contentEncoding", "contentMediaType")
_ARRAY: Final = (
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "uniqueItems",
    "contains",
    "minContains",
    "maxContains",
)
_OBJECT: Final = (
    "properties",
    "required",
    "additionalProperties",
    "patternProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
)
_FAMILY: Final = {
    **dict.fromkeys(_NUMBER, "number"),
    **dict.fromkeys(_STRING, "string"),
    **dict.fromkeys(_ARRAY, "array"),
    **dict.fromkeys(_OBJECT, "object"),
}
_COUNTS: Final = frozenset(
    {
        "minLength",
        "maxLength",
        "minItems",
        "maxItems",
        "minProperties",
        "maxProperties",
        "minContains",
        "maxContains",
    }
)
ASSERTING_UNSUPPORTED: Final = (
    "not",
    "if",
    "then",
    "else",
    "dependentSchemas",
    "dependentRequired",
    "dependencies",
    "unevaluatedItems",
    "unevaluatedProperties",
    "$dynamicRef",
    "$recursiveRef",
)
"""Keywords validators enforce and the model does not represent: each becomes an
:class:`OpaqueNode` and an ``unsupported`` entry."""
_STRUCTURE: Final = frozenset({"$defs", "definitions"})
_APPLIES: Final = {"integer": "number", "number": "number", "string": "string", "array": "array"}
_REF_SIBLINGS_30: Final = _ANNOTATIONS | _STRUCTURE | {"nullable", "x-nullable", "$ref"}
_DEF_CONTAINERS: Final = ("$defs", "definitions", "schemas")


class _Invalid(Exception):
    """A keyword's value is not what the keyword takes (the message says what it takes)."""


def parse_document(document: JsonDocument, flavor: Flavor = "json-schema") -> SchemaModel:
    """Build the model of ``document`` (use :func:`sktypes.schema.parse`, which caches)."""
    return Parser(document, flavor).start()


class Parser:
    """One document's parse: the nodes by pointer, the references to resolve, the report.

    It stays with its model, which asks it for definitions and reference targets when
    they are first needed.
    """

    def __init__(self, document: JsonDocument, flavor: Flavor) -> None:
        self.model = SchemaModel(document, flavor, self)
        self.value = document.value
        self.openapi = flavor == "openapi-3.0"
        self.unsupported: list[Unsupported] = []
        self.nodes: dict[str, Node] = {}
        self.targets: dict[str, Node | None] = {}
        self.busy: set[str] = set()
        self.refs: list[RefNode] = []
        self._resolved = 0

    # --- the document ----------------------------------------------------------------

    def start(self) -> SchemaModel:
        """Name the definitions and parse the root (the rest waits until it is needed)."""
        self.collect_definitions()
        self.model.root = self.at("")
        return self.model

    def target_of(self, ref: str) -> Node | None:
        """The node a reference points at (parsed now if needed; ``None``: nothing)."""
        if ref in self.targets:
            return self.targets[ref]
        node = self.target(RefNode(ref=ref, model=self.model), report=False, lookup=True)
        if node is not None or not self.busy:  # a target being parsed is asked again later
            self.targets[ref] = node
        return node

    def resolve_all(self) -> None:
        """Parse the target of every reference made so far (and of those they make).

        The ones that cannot be followed are recorded in the report.
        """
        while self._resolved < len(self.refs):
            ref = self.refs[self._resolved]
            self._resolved += 1
            if ref.ref in self.targets and self.targets[ref.ref] is not None:
                continue
            self.targets[ref.ref] = self.target(ref, report=True)

    def within(self, schema: Any) -> Node:
        """The node of a schema whose references point into this document.

        Neither cached nor reported: it is not part of the document.
        """
        kept = len(self.unsupported)
        try:
            return self.schema(freeze(schema), "")
        finally:
            del self.unsupported[kept:]

    def collect_definitions(self) -> None:
        """Check the root's ``$defs`` and ``definitions`` (each named when first needed)."""
        if isinstance(self.value, Mapping):
            for container in ("$defs", "definitions"):
                defs = self.value.get(container)
                if defs is not None and not isinstance(defs, Mapping):
                    self.report(_pointer.join("", container), container, "must be an object")

    def definition_entries(self) -> list[tuple[str, str, Any]]:
        """Every root definition as (pointer, name, schema as written), in document order.

        ``$defs`` first; named as :meth:`def_name` names them.
        """
        out: list[tuple[str, str, Any]] = []
        if isinstance(self.value, Mapping):
            dollar_defs = self.value.get("$defs")
            dollar_defs = dollar_defs if isinstance(dollar_defs, Mapping) else {}
            for container in ("$defs", "definitions"):
                defs = self.value.get(container)
                if isinstance(defs, Mapping):
                    clash = container == "definitions"
                    for name, raw in defs.items():
                        shown = f"definitions/{name}" if clash and name in dollar_defs else name
                        out.append((_pointer.join("", container, name), shown, raw))
        return out

    def def_name(self, pointer: str) -> str | None:
        """The name of the root definition at ``pointer``, or ``None`` when there is none.

        ``definitions/X`` when ``$defs`` has an ``X`` too.
        """
        if not pointer.startswith(("/$defs/", "/definitions/")):
            return None
        tokens = _pointer.split(pointer)
        if len(tokens) != 2 or not isinstance(self.value, Mapping):
            return None
        container, name = tokens
        defs = self.value.get(container)
        if not isinstance(defs, Mapping) or name not in defs:
            return None
        if container == "definitions":
            other = self.value.get("$defs")
            if isinstance(other, Mapping) and name in other:
                return f"definitions/{name}"
        return name

    def report(self, pointer: str, keyword: str, reason: str) -> None:
        """Record something the model does not represent."""
        self.unsupported.append(Unsupported(pointer, keyword, reason))

    def at(self, pointer: str) -> Node:
        """The node of the schema at ``pointer`` (parsed once)."""
        hit = self.nodes.get(pointer)
        if hit is not None:
            return hit
        raw = _pointer.resolve(self.value, pointer)
        self.busy.add(pointer)
        try:
            node = self.schema(raw, pointer)
        finally:
            self.busy.discard(pointer)
        name = self.def_name(pointer)
        if name is not None:
            node = _named(node, name)
        self.nodes[pointer] = node
        return node

    def target(self, ref: RefNode, *, report: bool = False, lookup: bool = False) -> Node | None:
        """The node ``ref`` points at, parsing it if needed; ``None`` if it cannot be had.

        While merging (neither ``report`` nor ``lookup``) a target still being parsed is a
        cycle: ``None``.
        """
        where = _pointer.join(ref.pointer, "$ref")
        if not ref.ref.startswith("#"):
            if report:
                self.report(where, "$ref", f"{ref.ref!r} is outside this document")
            return None
        try:
            pointer = _pointer.join("", *_pointer.split(ref.ref))
        except _pointer.PointerError:
            if report:
                self.report(where, "$ref", f"{ref.ref!r} is not a JSON pointer")
            return None
        if pointer in self.busy and not (report or lookup):
            return None
        if pointer in self.busy:
            return self.nodes.get(pointer)  # asked about while it is being parsed
        try:
            return self.at(pointer)
        except _pointer.PointerError:
            if report:
                self.report(where, "$ref", f"{ref.ref!r} points at nothing")
            return None

    def resolve_for_merge(self, ref: RefNode) -> Node | None:
        """The resolver :func:`conjoin` uses (cycles and dangling references: ``None``)."""
        return self.target(ref)

    # --- one schema object -----------------------------------------------------------

    def schema(self, raw: Any, ptr: str) -> Node:
        """The node of one schema (an object or a boolean)."""
        if raw is True:
            return AnyNode(pointer=ptr)
        if raw is False:
            return NeverNode(pointer=ptr)
        if not isinstance(raw, Mapping):
            self.report(ptr, "schema", "is not a schema (an object or a boolean)")
            return OpaqueNode(keyword="schema", value=freeze(raw), pointer=ptr)
        return _SchemaReader(self, raw, ptr).read()

    def ref_node(self, ref: str, ptr: str) -> RefNode:
        """A reference node, queued for resolution."""
        node = RefNode(ref=ref, name=self.ref_name(ref), model=self.model, pointer=ptr)
        self.refs.append(node)
        return node

    def ref_name(self, ref: str) -> str | None:
        """The definition name a reference names (``Pet`` for ``#/$defs/Pet``)."""
        if not ref.startswith("#"):
            return None
        try:
            tokens = _pointer.split(ref)
        except _pointer.PointerError:
            return None
        known = self.def_name(_pointer.join("", *tokens))
        if known is not None:
            return known
        if len(tokens) >= 2 and tokens[-2] in _DEF_CONTAINERS:
            return tokens[-1]
        return None

    def definition_ref(self, name: str) -> str | None:
        """The reference to the definition called ``name``, if there is one."""
        container, _, rest = name.partition("/")
        candidates = [("definitions", rest)] if container == "definitions" and rest else []
        candidates += [("$defs", name), ("definitions", name)]
        for box, key in candidates:
            pointer = _pointer.join("", box, key)
            if self.def_name(pointer) == name:
                return "#" + pointer
        return None


def _object_of(node: Node | None) -> Node | None:
    """The object part of a definition (itself, or the object inside an intersection)."""
    if isinstance(node, IntersectionNode):
        return next((p for p in node.parts if isinstance(p, ObjectNode)), None)
    return node


def _named(node: Node, name: str) -> Node:
    """Give a definition's object (also the object of a nullable definition) its name."""
    if isinstance(node, ObjectNode):
        return node.replace(name=name)
    if isinstance(node, IntersectionNode):
        parts = tuple(_named(p, name) if isinstance(p, ObjectNode) else p for p in node.parts)
        return node.replace(parts=parts)
    if isinstance(node, UnionNode) and node.nullable and len(node.options) == 2:
        options = tuple(_named(o, name) if isinstance(o, ObjectNode) else o for o in node.options)
        return node.replace(options=options)
    return node


class _SchemaReader:
    """Reads one schema object: collects its keywords, builds and conjoins its parts."""

    def __init__(self, parser: Parser, raw: Mapping[str, Any], ptr: str) -> None:
        self.p = parser
        self.raw = raw
        self.ptr = ptr
        self.annotations: dict[str, Any] = {}
        self.extra: dict[str, Any] = {}
        self.family: dict[str, dict[str, Any]] = {
            "number": {},
            "string": {},
            "array": {},
            "object": {},
        }
        self.format: str | None = None
        self.types: list[str] | None = None
        self.parts: list[Node | tuple[str, list[Node]]] = []
        self.opaque: list[Node] = []
        self.nullable = False
        self.discriminator_value: Any = None
        self.bases: list[RefNode] = []

    def where(self, *tokens: str | int) -> str:
        return _pointer.join(self.ptr, *tokens)

    def invalid(self, key: str, value: Any, reason: str) -> None:
        self.p.report(self.where(key), key, reason)
        self.opaque.append(OpaqueNode(keyword=key, value=_frozen(value), pointer=self.ptr))

    # --- collecting ------------------------------------------------------------------

    def read(self) -> Node:
        raw = self.raw
        keys: Sequence[str] = list(raw)
        if self.p.openapi and "$ref" in raw:
            for key in keys:
                if key not in _REF_SIBLINGS_30 and not key.startswith("x-"):
                    self.p.report(self.where(key), key, "is ignored beside $ref in OpenAPI 3.0")
            keys = [k for k in keys if k in _REF_SIBLINGS_30 or k.startswith("x-")]
        for key in keys:
            try:
                self.keyword(key, raw[key])
            except _Invalid as exc:
                self.invalid(key, raw[key], str(exc))
        return self.build()

    def keyword(self, key: str, value: Any) -> None:
        if key in _ANNOTATIONS:
            self.annotation(key, value)
        elif key == "type":
            self.types = _types(value)
        elif key in _FAMILY:
            self.family[_FAMILY[key]][key] = self.checked(key, value)
        elif key == "format":
            if not isinstance(value, str):
                raise _Invalid("must be a string")
            self.format = value
        elif key == "enum":
            if not isinstance(value, (list, tuple)):
                raise _Invalid("must be an array")
            self.parts.append(_enum(tuple(freeze(value)), self.ptr))
        elif key == "const":
            value = freeze(value)
            node: Node = (
                NullNode(pointer=self.ptr)
                if value is None
                else ConstNode(value=value, pointer=self.ptr)
            )
            self.parts.append(node)
        elif key == "$ref":
            if not isinstance(value, str):
                raise _Invalid("must be a string")
            self.parts.append(self.p.ref_node(value, self.ptr))
        elif key in ("anyOf", "oneOf"):
            options = [self.p.schema(o, self.where(key, i)) for i, o in enumerate(_schemas(value))]
            self.parts.append((key, options))
        elif key == "allOf":
            for i, part in enumerate(_schemas(value)):
                node = self.p.schema(part, self.where(key, i))
                if isinstance(node, RefNode) and node.name is not None:
                    self.bases.append(node)
                self.parts.append(node)
        elif key == "discriminator":
            self.discriminator_value = value
        elif key == "not" and isinstance(value, Mapping) and not value:
            self.parts.append(NeverNode(pointer=self.ptr))
        elif key in ASSERTING_UNSUPPORTED:
            self.unsupported(key, value)
        elif key in ("nullable", "x-nullable"):
            if not self.p.openapi:
                self.extra[key] = _frozen(value)
            elif not isinstance(value, bool):
                raise _Invalid("must be a boolean")
            else:
                self.nullable = self.nullable or value
        elif key == "$id" and self.ptr:
            self.extra[key] = _frozen(value)
            self.p.report(
                self.where(key),
                key,
                "changes the base of references, which the model does not follow",
            )
        elif key in _STRUCTURE:
            return  # definitions: parsed where references reach them
        else:
            self.extra[key] = _frozen(value)

    def unsupported(self, key: str, value: Any) -> None:
        if key in ("then", "else") and "if" not in self.raw:
            self.extra[key] = _frozen(value)  # ignored by validators without "if"
            return
        self.p.report(self.where(key), key, "is not represented in the schema model")
        if key in ("then", "else"):
            return  # one opaque part holds the whole conditional (see "if")
        if key == "if":  # if, then and else only mean something together
            value = {k: self.raw[k] for k in ("if", "then", "else") if k in self.raw}
        self.opaque.append(OpaqueNode(keyword=key, value=_frozen(value), pointer=self.ptr))

    def annotation(self, key: str, value: Any) -> None:
        if key in ("title", "description"):
            if not isinstance(value, str):
                raise _Invalid("must be a string")
            self.annotations[key] = value
        elif key in ("deprecated", "readOnly", "writeOnly"):
            if not isinstance(value, bool):
                raise _Invalid("must be a boolean")
            name = {"deprecated": "deprecated", "readOnly": "read_only", "writeOnly": "write_only"}
            self.annotations[name[key]] = value
        elif key == "default":
            self.annotations["default"] = _frozen(value)
        elif key == "examples":
            if not isinstance(value, (list, tuple)):
                raise _Invalid("must be an array")
            self.annotations["examples"] = tuple(_frozen(v) for v in value)
        elif "examples" not in self.raw:  # OpenAPI's single example
            self.annotations["examples"] = (_frozen(value),)

    def checked(self, key: str, value: Any) -> Any:
        """A family keyword's value, checked (and counts made ``int``)."""
        if key in _COUNTS:
            if not _is_number(value) or value < 0 or value != int(value):
                raise _Invalid("must be a non-negative integer")
            return int(value)
        if key in ("exclusiveMinimum", "exclusiveMaximum") and isinstance(value, bool):
            if not self.p.openapi:
                raise _Invalid("must be a number (a boolean is OpenAPI 3.0's form)")
            return value
        if key in _NUMBER:
            if not _is_number(value) or (key == "multipleOf" and value <= 0):
                raise _Invalid("must be a number" + (" > 0" if key == "multipleOf" else ""))
            return value
        if key == "pattern":
            _regex(value)
            return value
        if key in ("contentEncoding", "contentMediaType"):
            if not isinstance(value, str):
                raise _Invalid("must be a string")
            return value
        if key == "uniqueItems":
            if not isinstance(value, bool):
                raise _Invalid("must be a boolean")
            return value
        if key == "required":
            if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
                raise _Invalid("must be an array of property names")
            return tuple(dict.fromkeys(value))
        if key == "items":
            if isinstance(value, (list, tuple)):
                raise _Invalid("must be a schema (an array of schemas is prefixItems in 2020-12)")
            return self.p.schema(value, self.where(key))
        if key in ("contains", "additionalProperties", "propertyNames"):
            return self.p.schema(value, self.where(key))
        if key == "prefixItems":
            return tuple(
                self.p.schema(v, self.where(key, i)) for i, v in enumerate(_schemas(value))
            )
        if key in ("properties", "patternProperties"):
            if not isinstance(value, Mapping):
                raise _Invalid("must be an object")
            if key == "patternProperties":
                for pattern in value:
                    _regex(pattern)
            return tuple((k, self.p.schema(v, self.where(key, k))) for k, v in value.items())
        raise AssertionError(key)  # pragma: no cover - every family keyword is listed

    # --- building --------------------------------------------------------------------

    def build(self) -> Node:
        typed = self.typed()
        parts: list[Node] = [typed] if typed is not None else []
        discriminator = self.discriminator()
        for part in self.parts:
            if isinstance(part, tuple):
                keyword, options = part
                union = make_union(options, one_of=keyword == "oneOf")
                if discriminator is not None and isinstance(union, UnionNode):
                    union = union.replace(discriminator=discriminator)
                    discriminator = None
                parts.append(union)
            else:
                parts.append(part)
        parts.extend(self.opaque)
        resolve = self.p.resolve_for_merge
        node: Node = AnyNode()
        for i, part in enumerate(parts):
            node = part if i == 0 else conjoin(node, part, resolve)
        if self.bases:
            node = self.with_bases(node)
        extra = dict(node.extra)
        extra.update(self.extra)
        if discriminator is not None:
            if isinstance(node, ObjectNode):
                node = node.replace(discriminator=discriminator)
            else:
                extra["discriminator"] = _frozen(self.raw["discriminator"])
        changes: dict[str, Any] = dict(self.annotations)
        if extra or node.extra:
            changes["extra"] = FrozenDict(extra)
        if node.pointer != self.ptr:
            changes["pointer"] = self.ptr
        if changes:
            node = node.replace(**changes)
        if self.nullable:
            node = _nullable(node, resolve)
        return node

    def with_bases(self, node: Node) -> Node:
        """Record which ``allOf`` references were merged into the resulting object."""
        kept = node.parts if isinstance(node, IntersectionNode) else (node,)
        names = tuple(
            ref.name
            for ref in self.bases
            if ref.name is not None
            and not any(k is ref for k in kept)
            and isinstance(_object_of(self.p.target(ref)), ObjectNode)
        )
        if not names:
            return node
        if isinstance(node, ObjectNode):
            return node.replace(bases=names)
        if isinstance(node, IntersectionNode):
            parts = list(node.parts)
            for i, part in enumerate(parts):
                if isinstance(part, ObjectNode):
                    parts[i] = part.replace(bases=names)
                    return node.replace(parts=tuple(parts))
        return node

    def discriminator(self) -> Discriminator | None:
        value = self.discriminator_value
        if value is None:
            return None
        where = self.where("discriminator")
        if not isinstance(value, Mapping) or not isinstance(value.get("propertyName"), str):
            self.p.report(where, "discriminator", "needs a propertyName")
            self.extra["discriminator"] = _frozen(value)
            return None
        mapping: list[tuple[str, RefNode]] = []
        raw_mapping = value.get("mapping") or {}
        if not isinstance(raw_mapping, Mapping):
            self.p.report(
                _pointer.join(where, "mapping"), "discriminator", "mapping must be an object"
            )
            raw_mapping = {}
        for key, target in raw_mapping.items():
            ref = self.mapping_ref(target)
            if ref is None:
                self.p.report(
                    _pointer.join(where, "mapping", key),
                    "discriminator",
                    f"mapping value {target!r} names no schema in this document",
                )
                continue
            mapping.append((key, self.p.ref_node(ref, _pointer.join(where, "mapping", key))))
        return Discriminator(value["propertyName"], tuple(mapping))

    def mapping_ref(self, target: Any) -> str | None:
        """A mapping value as a local reference (``Cat``, ``#/components/schemas/Cat``)."""
        if not isinstance(target, str):
            return None
        if target.startswith("#"):
            try:
                _pointer.resolve(self.p.value, target)
                return target
            except _pointer.PointerError:
                name = target.rsplit("/", 1)[-1]
        else:
            name = target
        return self.p.definition_ref(_pointer.unescape(name))

    def typed(self) -> Node | None:
        """The node ``type`` and the type-specific keywords make (``None``: no such keyword)."""
        fam = self.family
        if self.p.openapi:
            _openapi_exclusive(fam["number"])
        if self.types is not None:
            nodes = [self.of_type(t, implied=False) for t in self.types]
            applies = {_APPLIES.get(t, t) for t in self.types}
            for name, keywords in fam.items():
                if keywords and name not in applies:  # no declared type has these: kept
                    self.extra.update(
                        {k: _frozen(v) for k, v in self.raw.items() if _FAMILY.get(k) == name}
                    )
            if self.format is not None and not applies & {"number", "string"}:
                self.extra["format"] = self.format
            return make_union(nodes) if len(nodes) != 1 else nodes[0]
        present = [name for name, keywords in fam.items() if keywords]
        if self.format is not None and not fam["string"] and fam["number"]:
            pass  # an untyped number with a format (int32...): the format is the number's
        elif self.format is not None and "string" not in present:
            present.append("string")
        if not present:
            return None
        nodes = [self.of_type(name, implied=True) for name in present]
        node = nodes[0]
        for other in nodes[1:]:
            node = conjoin(node, other, self.p.resolve_for_merge)
        return node

    def of_type(self, name: str, *, implied: bool) -> Node:
        ptr = self.ptr
        fam = self.family
        if name == "null":
            return NullNode(pointer=ptr)
        if name == "boolean":
            return BooleanNode(pointer=ptr)
        if name in ("integer", "number"):
            kw = fam["number"]
            cls = IntegerNode if name == "integer" else NumberNode
            return cls(
                minimum=kw.get("minimum"),
                maximum=kw.get("maximum"),
                exclusive_minimum=kw.get("exclusiveMinimum"),
                exclusive_maximum=kw.get("exclusiveMaximum"),
                multiple_of=kw.get("multipleOf"),
                format=self.format,
                implied=implied,
                pointer=ptr,
            )
        if name == "string":
            kw = fam["string"]
            return StringNode(
                min_length=kw.get("minLength"),
                max_length=kw.get("maxLength"),
                pattern=kw.get("pattern"),
                format=self.format,
                content_encoding=kw.get("contentEncoding"),
                content_media_type=kw.get("contentMediaType"),
                implied=implied,
                pointer=ptr,
            )
        if name == "array":
            kw = fam["array"]
            return ArrayNode(
                items=kw.get("items") or AnyNode(pointer=self.where("items")),
                prefix_items=kw.get("prefixItems", ()),
                min_items=kw.get("minItems"),
                max_items=kw.get("maxItems"),
                unique_items=kw.get("uniqueItems", False),
                contains=kw.get("contains"),
                min_contains=kw.get("minContains"),
                max_contains=kw.get("maxContains"),
                implied=implied,
                pointer=ptr,
            )
        kw = fam["object"]
        required: tuple[str, ...] = kw.get("required", ())
        names = set(required)
        properties = tuple(Property(n, node, n in names) for n, node in kw.get("properties", ()))
        return ObjectNode(
            properties=properties,
            required=required,
            additional=kw.get("additionalProperties") or AnyNode(),
            pattern_properties=kw.get("patternProperties", ()),
            property_names=kw.get("propertyNames"),
            min_properties=kw.get("minProperties"),
            max_properties=kw.get("maxProperties"),
            implied=implied,
            pointer=ptr,
        )


# --- small pieces --------------------------------------------------------------------


def _types(value: Any) -> list[str]:
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, (list, tuple)) or not all(
        isinstance(n, str) and n in _TYPES for n in names
    ):
        raise _Invalid(f"must be one of {', '.join(_TYPES)} or an array of them")
    return list(dict.fromkeys(names))


def _schemas(value: Any) -> Sequence[Any]:
    if not isinstance(value, (list, tuple)) or not value:
        raise _Invalid("must be a non-empty array of schemas")
    return value


def _regex(pattern: Any) -> None:
    if not isinstance(pattern, str):
        raise _Invalid("must be a string")
    try:
        re.compile(pattern)
    except (re.error, RecursionError, OverflowError):
        raise _Invalid(f"{pattern!r} is not a valid regular expression") from None


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _frozen(value: Any) -> Any:
    try:
        return freeze(value)
    except Exception:  # not JSON (a schema built in Python): keep its text
        return repr(value)


def _openapi_exclusive(kw: dict[str, Any]) -> None:
    """OpenAPI 3.0's boolean ``exclusiveMinimum``/``Maximum`` → 2020-12 numbers."""
    for flag, bound in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
        value = kw.get(flag)
        if isinstance(value, bool):
            del kw[flag]
            if value and bound in kw:
                kw[flag] = kw.pop(bound)


def _enum(values: tuple[Any, ...], ptr: str) -> Node:
    """``enum``: its members, with ``null`` as a union option (the one nullable form)."""
    rest = tuple(v for v in values if v is not None)
    if len(rest) == len(values):
        return EnumNode(values=values, pointer=ptr) if values else NeverNode(pointer=ptr)
    options: list[Node] = [EnumNode(values=rest, pointer=ptr)] if rest else []
    return make_union([*options, NullNode(pointer=ptr)])


def _nullable(node: Node, resolve: Any) -> Node:
    """OpenAPI 3.0's ``nullable: true``: the node or ``null``, annotations on the union."""
    if "null" in kinds_of(node, resolve):
        return node
    annotations = node.annotations()
    bare = node.replace(**{k: _DEFAULTS[k] for k in annotations})
    if isinstance(node, UnionNode) and not node.one_of and not node.discriminator:
        return node.replace(options=(*node.options, NullNode(pointer=node.pointer)))
    return UnionNode(
        options=(bare, NullNode(pointer=node.pointer)), pointer=node.pointer, **annotations
    )


_DEFAULTS: dict[str, Any] = {
    name: getattr(AnyNode(), name)
    for name in (
        "title",
        "description",
        "default",
        "examples",
        "deprecated",
        "read_only",
        "write_only",
        "extra",
    )
}
