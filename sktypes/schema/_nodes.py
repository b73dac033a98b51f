"""The schema model's nodes: one small frozen class per kind of JSON Schema.

Every node carries the annotations any schema may have (:class:`Node`); each kind adds the
keywords that constrain its values. Values the schema holds (defaults, examples, ``enum``
members, ``const``) are frozen JSON (:class:`~sktypes.jsondoc.FrozenDict`, tuples) and
compare the way JSON does (``1`` is not ``true``).

Nullability has one form: a :class:`UnionNode` with a :class:`NullNode` option (whether
the schema said ``type: [X, "null"]``, ``anyOf`` with ``null`` or OpenAPI 3.0's
``nullable: true``). :func:`strip_null` takes it apart.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Final, TypeVar

from typing_extensions import dataclass_transform

from sktypes.jsondoc import FrozenDict, json_equal, json_hash

if TYPE_CHECKING:
    from sktypes.schema._model import SchemaModel

__all__ = [
    "NO_DEFAULT",
    "ANNOTATION_FIELDS",
    "AnyNode",
    "ArrayNode",
    "BooleanNode",
    "ConstNode",
    "Discriminator",
    "EnumNode",
    "IntegerNode",
    "IntersectionNode",
    "NeverNode",
    "Node",
    "NullNode",
    "NumberNode",
    "ObjectNode",
    "OpaqueNode",
    "Property",
    "RefNode",
    "StringNode",
    "UnionNode",
    "json_kind",
    "strip_null",
]


class _NoDefault:
    """The type of :data:`NO_DEFAULT` (one instance)."""

    _instance: ClassVar[_NoDefault | None] = None

    def __new__(cls) -> _NoDefault:
        if cls._instance is None:
            cls._instance = object.__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "NO_DEFAULT"

    def __reduce__(self) -> str:
        return "NO_DEFAULT"


NO_DEFAULT: Final = _NoDefault()
"""A node's ``default`` when the schema gives none (a ``null`` default is ``None``)."""

_EMPTY = FrozenDict()
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
_COMPARED: dict[type, tuple[str, ...]] = {}


def _compared(cls: type) -> tuple[str, ...]:
    """The fields equality and hashing compare (all but ``pointer``), per node class."""
    names = _COMPARED.get(cls)
    if names is None:
        names = _COMPARED[cls] = tuple(f.name for f in dataclasses.fields(cls) if f.compare)
    return names


N = TypeVar("N", bound="Node")


def _same(a: Any, b: Any) -> bool:
    """Field equality: nodes by their own ``==``, JSON values the way JSON compares them."""
    if isinstance(a, Node) or isinstance(b, Node):
        return bool(a == b)
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, (Property, Discriminator)) or isinstance(b, (Property, Discriminator)):
        return bool(a == b)
    return json_equal(a, b)


def _hash(value: Any) -> int:
    if isinstance(value, (Node, Property, Discriminator, _NoDefault)):
        return hash(value)
    if isinstance(value, tuple):
        return hash(tuple(_hash(v) for v in value))
    return json_hash(value)


@dataclass(frozen=True, slots=True, kw_only=True, eq=False, repr=False)
class Node:
    """What every node holds: the schema's annotations and where it was read.

    Attributes:
        title: ``title``.
        description: ``description``.
        default: ``default`` (frozen JSON); :data:`NO_DEFAULT` when there is none.
        examples: ``examples`` (OpenAPI's single ``example`` becomes a one-item tuple).
        deprecated: ``deprecated``.
        read_only: ``readOnly``.
        write_only: ``writeOnly``.
        extra: keywords that no validator enforces and the model does not interpret,
            kept verbatim: ``x-*`` extensions, ``$comment``, vendor annotations.
        pointer: the JSON pointer of the schema in its document (not compared).
    """

    kind: ClassVar[str] = "node"

    title: str | None = None
    description: str | None = None
    default: Any = NO_DEFAULT
    examples: tuple[Any, ...] = ()
    deprecated: bool = False
    read_only: bool = False
    write_only: bool = False
    extra: FrozenDict = _EMPTY
    pointer: str = field(default="", compare=False)

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if type(other) is not type(self):
            return NotImplemented if not isinstance(other, Node) else False
        for f in dataclasses.fields(self):
            if f.compare and not _same(getattr(self, f.name), getattr(other, f.name)):
                return False
        return True

    def __hash__(self) -> int:
        return hash(
            (
                self.kind,
                *(_hash(getattr(self, f.name)) for f in dataclasses.fields(self) if f.compare),
            )
        )

    def __repr__(self) -> str:
        shown = []
        for f in dataclasses.fields(self):
            if not f.repr or f.name == "pointer":
                continue
            value = getattr(self, f.name)
            if f.default is not dataclasses.MISSING:
                default = f.default
            elif f.default_factory is not dataclasses.MISSING:
                default = f.default_factory()
            else:  # pragma: no cover - every field has a default
                default = dataclasses.MISSING
            if value is default or (not isinstance(value, _NoDefault) and _same(value, default)):
                continue
            shown.append(f"{f.name}={value!r}")
        return f"{type(self).__name__}({', '.join(shown)})"

    @property
    def has_default(self) -> bool:
        """Whether the schema gives a default (``null`` included)."""
        return self.default is not NO_DEFAULT

    def replace(self: N, **changes: Any) -> N:
        """A copy with ``changes`` applied (nodes are immutable)."""
        cls = type(self)
        names = _FIELD_NAMES.get(cls)
        if names is None:
            names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
        unknown = changes.keys() - set(names)
        if unknown:
            raise TypeError(f"{cls.__name__} has no field {sorted(unknown)[0]!r}")
        new = object.__new__(cls)
        for name in names:
            object.__setattr__(new, name, changes[name] if name in changes else getattr(self, name))
        return new

    def annotations(self) -> dict[str, Any]:
        """The annotation fields that differ from their defaults (for copying elsewhere)."""
        out: dict[str, Any] = {}
        for name in ANNOTATION_FIELDS:
            value = getattr(self, name)
            if value != _ANNOTATION_DEFAULTS[name] and value is not NO_DEFAULT:
                out[name] = value
        return out

    def children(self) -> Iterator[Node]:
        """The nodes directly inside this one (references are not followed)."""
        return iter(())


ANNOTATION_FIELDS: Final = (
    "title",
    "description",
    "default",
    "examples",
    "deprecated",
    "read_only",
    "write_only",
    "extra",
)
"""The fields every node has for annotations (``pointer`` aside)."""
_ANNOTATION_DEFAULTS: dict[str, Any] = {
    "title": None,
    "description": None,
    "default": NO_DEFAULT,
    "examples": (),
    "deprecated": False,
    "read_only": False,
    "write_only": False,
    "extra": _EMPTY,
}


@dataclass_transform(kw_only_default=True, frozen_default=True)
def _node(cls: type[N]) -> type[N]:
    """Declare a node kind (frozen, slotted, keyword-only; equality from :class:`Node`)."""
    return dataclass(frozen=True, slots=True, kw_only=True, eq=False, repr=False)(cls)


# --- kinds without constraints ---------------------------------------------------------


@_node
class AnyNode(Node):
    """Any JSON value: ``{}``, ``true``, or a schema with annotations only."""

    kind: ClassVar[str] = "any"


@_node
class NeverNode(Node):
    """No value at all: ``false`` or ``{"not": {}}``, or constraints that contradict."""

    kind: ClassVar[str] = "never"


@_node
class NullNode(Node):
    """``null`` (``type: "null"``, ``const: null``, or the null option of a nullable)."""

    kind: ClassVar[str] = "null"


@_node
class BooleanNode(Node):
    """``true`` or ``false``."""

    kind: ClassVar[str] = "boolean"


# --- scalars with constraints ----------------------------------------------------------


@_node
class _Numeric(Node):
    """Numeric constraints shared by :class:`IntegerNode` and :class:`NumberNode`.

    Attributes:
        minimum: ``minimum`` (inclusive).
        maximum: ``maximum`` (inclusive).
        exclusive_minimum: ``exclusiveMinimum`` as a number (OpenAPI 3.0's boolean form
            is read as this number).
        exclusive_maximum: ``exclusiveMaximum`` as a number.
        multiple_of: ``multipleOf``.
        format: ``format`` (``int32``, ``int64``, ``float``, ``double``, ``decimal``...).
        implied: the schema declared no ``type``: these constraints apply to numbers only
            and values of every other JSON type are valid too.
    """

    minimum: int | float | None = None
    maximum: int | float | None = None
    exclusive_minimum: int | float | None = None
    exclusive_maximum: int | float | None = None
    multiple_of: int | float | None = None
    format: str | None = None
    implied: bool = False


@_node
class IntegerNode(_Numeric):
    """An integer (JSON Schema counts ``1.0`` as one), with its bounds and format."""

    kind: ClassVar[str] = "integer"


@_node
class NumberNode(_Numeric):
    """Any number, with its bounds and format."""

    kind: ClassVar[str] = "number"


@_node
class StringNode(Node):
    """A string with its constraints.

    Attributes:
        min_length: ``minLength`` (code points, as JSON Schema counts).
        max_length: ``maxLength``.
        pattern: ``pattern`` (an ECMA 262 regular expression, searched, not anchored).
        format: ``format`` (``date-time``, ``uuid``, ``byte``, ``binary``...).
        content_encoding: ``contentEncoding`` (``base64``...).
        content_media_type: ``contentMediaType``.
        implied: the schema declared no ``type``: other JSON types are valid too.
    """

    kind: ClassVar[str] = "string"

    min_length: int | None = None
    max_length: int | None = None
    pattern: str | None = None
    format: str | None = None
    content_encoding: str | None = None
    content_media_type: str | None = None
    implied: bool = False


# --- containers ------------------------------------------------------------------------


@_node
class ArrayNode(Node):
    """An array: a list (``items``) or a tuple (``prefixItems``), with its constraints.

    Attributes:
        items: the schema of every item after the prefix (``AnyNode`` when absent,
            ``NeverNode`` for ``items: false``, which closes a tuple).
        prefix_items: the schemas of the first items, position by position.
        min_items: ``minItems``.
        max_items: ``maxItems``.
        unique_items: ``uniqueItems``.
        contains: ``contains``; with ``min_contains``/``max_contains``.
        min_contains: ``minContains``.
        max_contains: ``maxContains``.
        implied: the schema declared no ``type``: other JSON types are valid too.
    """

    kind: ClassVar[str] = "array"

    items: Node = field(default_factory=lambda: AnyNode())
    prefix_items: tuple[Node, ...] = ()
    min_items: int | None = None
    max_items: int | None = None
    unique_items: bool = False
    contains: Node | None = None
    min_contains: int | None = None
    max_contains: int | None = None
    implied: bool = False

    @property
    def is_tuple(self) -> bool:
        """A fixed-length tuple: a prefix and no items after it.

        No item after it: ``items: false``, or ``maxItems`` the prefix's length with
        ``minItems`` the same (how pydantic writes ``tuple[int, str]``).
        """
        size = len(self.prefix_items)
        if not size:
            return False
        if isinstance(self.items, NeverNode):
            return True
        return self.max_items == size and self.min_items == size

    def children(self) -> Iterator[Node]:
        """Prefix items, items, then ``contains``."""
        yield from self.prefix_items
        yield self.items
        if self.contains is not None:
            yield self.contains


@dataclass(frozen=True, slots=True)
class Property:
    """One declared member of an object.

    Attributes:
        name: the member name on the wire (any string).
        node: its schema.
        required: listed in ``required``.
    """

    name: str
    node: Node
    required: bool = False


@dataclass(frozen=True, slots=True)
class Discriminator:
    """OpenAPI's ``discriminator``: which member tells the options apart.

    Attributes:
        property_name: ``propertyName``.
        mapping: ``mapping`` in order: member value → the definition it selects. Empty
            when the spec gives none (the options' definition names are then the values).
    """

    property_name: str
    mapping: tuple[tuple[str, RefNode], ...] = ()


@_node
class ObjectNode(Node):
    """An object: declared properties, what other members may hold, and counts.

    Attributes:
        properties: the declared members in schema order (merged ``allOf`` parts add
            theirs after the parts they merge into).
        required: every name in ``required`` (also names no property declares).
        additional: ``additionalProperties``: ``AnyNode`` when absent, ``NeverNode`` for
            ``false`` (a closed object), else the schema of every undeclared member.
        pattern_properties: ``patternProperties`` as (regex, schema) pairs in order.
        property_names: ``propertyNames``.
        min_properties: ``minProperties``.
        max_properties: ``maxProperties``.
        name: the definition this object is (``Pet`` for ``#/$defs/Pet``), else ``None``.
        bases: the definitions an ``allOf`` merged into this object, in order (their
            properties come first): a generator may emit them as base classes.
        discriminator: OpenAPI's ``discriminator`` on a base schema (the subtypes
            ``allOf`` it).
        implied: the schema declared no ``type``: other JSON types are valid too.
    """

    kind: ClassVar[str] = "object"

    properties: tuple[Property, ...] = ()
    required: tuple[str, ...] = ()
    additional: Node = field(default_factory=lambda: AnyNode())
    pattern_properties: tuple[tuple[str, Node], ...] = ()
    property_names: Node | None = None
    min_properties: int | None = None
    max_properties: int | None = None
    name: str | None = None
    bases: tuple[str, ...] = ()
    discriminator: Discriminator | None = None
    implied: bool = False

    def prop(self, name: str) -> Property | None:
        """The declared property called ``name``, if any."""
        for p in self.properties:
            if p.name == name:
                return p
        return None

    @property
    def closed(self) -> bool:
        """No member beyond the declared ones (``additionalProperties: false``)."""
        return isinstance(self.additional, NeverNode) and not self.pattern_properties

    @property
    def is_map(self) -> bool:
        """A mapping of any keys: no declared property, undeclared members allowed."""
        return not self.properties and not isinstance(self.additional, NeverNode)

    def children(self) -> Iterator[Node]:
        """Property schemas, pattern schemas, ``additionalProperties``, ``propertyNames``."""
        for p in self.properties:
            yield p.node
        for _, node in self.pattern_properties:
            yield node
        yield self.additional
        if self.property_names is not None:
            yield self.property_names


# --- values ----------------------------------------------------------------------------


@_node
class EnumNode(Node):
    """One of listed values (``enum``), compared the way JSON compares them.

    ``null`` is never a member: an ``enum`` that lists it is a nullable union of this
    node and a :class:`NullNode`.
    """

    kind: ClassVar[str] = "enum"

    values: tuple[Any, ...] = ()


@_node
class ConstNode(Node):
    """Exactly one value (``const``, or a one-member ``enum`` kept as written)."""

    kind: ClassVar[str] = "const"

    value: Any = None


# --- composition -----------------------------------------------------------------------


@_node
class UnionNode(Node):
    """Any of the options (``anyOf``, a ``type`` list, a nullable) or exactly one (``oneOf``).

    Attributes:
        options: the alternatives in order (never nested ``anyOf`` unions: those are
            flattened).
        one_of: ``oneOf``: a value must match exactly one option.
        discriminator: OpenAPI's ``discriminator``, when the schema names one.
    """

    kind: ClassVar[str] = "union"

    options: tuple[Node, ...] = ()
    one_of: bool = False
    discriminator: Discriminator | None = None

    @property
    def nullable(self) -> bool:
        """One option is ``null``."""
        return any(isinstance(o, NullNode) for o in self.options)

    def children(self) -> Iterator[Node]:
        """The options."""
        return iter(self.options)


@_node
class IntersectionNode(Node):
    """Parts that must all hold and could not be merged into one node.

    What an ``allOf``, or sibling keywords that do not combine (two different
    ``pattern``s), leave: ``allOf`` parts are merged whenever the result means exactly the
    same; what stays here is what a single node cannot say.
    """

    kind: ClassVar[str] = "intersection"

    parts: tuple[Node, ...] = ()

    def children(self) -> Iterator[Node]:
        """The parts."""
        return iter(self.parts)


@_node
class RefNode(Node):
    """A reference (``$ref``) to a definition or another place in the same document.

    Resolved on demand (:attr:`target`), so recursive schemas are finite graphs.

    Attributes:
        ref: the reference as written (``#/$defs/Pet``).
        name: the definition's name (``Pet``) when the reference names one.
    """

    kind: ClassVar[str] = "ref"

    ref: str = ""
    name: str | None = None
    model: SchemaModel | None = field(default=None, compare=False, repr=False)

    @property
    def target(self) -> Node:
        """The node the reference points at.

        ``AnyNode`` when it cannot be followed; the model's ``unsupported`` report names
        such references.
        """
        if self.model is None:
            return AnyNode(pointer=self.pointer)
        return self.model.resolve(self)


@_node
class OpaqueNode(Node):
    """A constraint the model does not represent, kept as written.

    ``not``, ``if``/``then``/``else``, ``dependentSchemas``, ``unevaluatedProperties``... It
    always sits inside an :class:`IntersectionNode` beside what the rest of the schema
    says (or alone), and the model's ``unsupported`` report lists it with its pointer: a
    consumer that cannot honour it says so instead of dropping it.

    Attributes:
        keyword: the keyword (``not``).
        value: its value, frozen JSON; for ``if``, an object holding ``if`` and the
            ``then``/``else`` beside it (they only mean something together).
    """

    kind: ClassVar[str] = "opaque"

    def as_schema(self) -> FrozenDict:
        """The keywords as written, as one schema object."""
        if self.keyword == "if":
            return self.value if isinstance(self.value, FrozenDict) else FrozenDict()
        return FrozenDict({self.keyword: self.value})

    keyword: str = ""
    value: Any = None


# --- helpers ---------------------------------------------------------------------------


def strip_null(node: Node) -> tuple[Node, bool]:
    """Split a nullable node into (the node without ``null``, whether ``null`` was allowed).

    A union of one non-null option and ``null`` gives that option (with the union's
    annotations where the option has none); a larger union gives a union of the rest.
    """
    if isinstance(node, NullNode):
        return NeverNode(pointer=node.pointer), True
    if not isinstance(node, UnionNode) or not node.nullable:
        return node, False
    rest = tuple(o for o in node.options if not isinstance(o, NullNode))
    if len(rest) == 1:
        inner = rest[0]
        missing = {k: v for k, v in node.annotations().items() if k not in inner.annotations()}
        return (inner.replace(**missing) if missing else inner), True
    return node.replace(options=rest), True


def json_kind(value: Any) -> str:
    """The JSON type of a value (``1.0`` is an ``integer``, as JSON Schema counts).

    One of ``null``, ``boolean``, ``integer``, ``number``, ``string``, ``array``, ``object``.
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "integer" if value.is_integer() else "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, Mapping):
        return "object"
    if isinstance(value, (list, tuple)):
        return "array"
    raise TypeError(f"{type(value).__name__} is not a JSON value")


def walk(node: Node, visit: Callable[[Node], None]) -> None:
    """Call ``visit`` on ``node`` and every node inside it (references not followed)."""
    todo = [node]
    while todo:
        current = todo.pop()
        visit(current)
        todo.extend(current.children())
