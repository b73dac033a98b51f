"""Schema-model nodes → Python annotations (typed nodes) and the classes they need.

One :class:`TypeBuilder` per generated module reads the nodes of :mod:`sktypes.schema` (never
raw schema dicts) and builds :mod:`~sktypes_codegen._annotations` expressions, recording the
classes, recursive aliases and imports they need, either as pydantic models (generated
plugins) or as ``TypedDict``s (stubs). What a node says and Python cannot is recorded as a
:class:`Unexpressed` with its place, never dropped quietly.

Mapping (pydantic style; ``docs/generate.md`` has the full table):

- objects with properties (or ``allOf`` bases, or closed) → a model named after the
  definition or the place; ``allOf`` bases that are models themselves → base classes
  (a field whose merged schema differs from the base's is redeclared); unknown members kept
  (``extra="allow"``), typed by ``additionalProperties`` when it has a schema, refused when it
  is ``false``; other objects → ``dict[str, T]``;
- a property that may be absent and is not nullable → ``T | MISSING = MISSING``; nullable →
  ``T | None``; a scalar ``default`` becomes the field's default;
- scalars through the one type table (``sktypes.schema.scalar_type_for``), with their
  constraints as ``Annotated[T, Field(ge=..., pattern=...)]``;
- arrays → ``list[T]`` (``min_length``/``max_length``, ``unique_items``); closed
  ``prefixItems`` → ``tuple[A, B]``;
- ``enum``/``const`` → ``Literal[...]`` (``one_of`` for values a ``Literal`` cannot hold);
- ``anyOf``/``oneOf`` → ``A | B``, with OpenAPI's ``discriminator`` →
  ``Annotated[Annotated[A, Tag("A")] | ..., discriminated_by("kind", mapping)]``;
- a cycle through definitions that are not classes → a ``TypeAliasType``.
"""

from __future__ import annotations

import keyword
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, TypeAdapter
from pydantic_core import SchemaError

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
    OpaqueNode,
    Property,
    RefNode,
    SchemaModel,
    StringNode,
    UnionNode,
    scalar_type_for,
    strip_null,
)
from sktypes_codegen._annotations import (
    ANY,
    BOOL,
    FLOAT,
    MISSING,
    NONE,
    STR,
    Call,
    Expr,
    Import,
    Name,
    Subscript,
    Union,
    Value,
    annotated,
    class_refs,
    literal,
    render,
    union,
)
from sktypes_codegen._naming import Namespace, class_name, identifier
from sktypes_codegen._schemas import Handle, SchemaSet

__all__ = ["AliasDef", "ClassDef", "FieldDef", "Style", "TypeBuilder", "Unexpressed"]

Style = Literal["pydantic", "typeddict"]

_MODEL_ATTRS = frozenset(n for n in dir(BaseModel) if not n.startswith("__")) | {
    "model_config",
    "model_fields",
}
_SHADOWING = frozenset(
    {"bool", "int", "str", "float", "list", "dict", "tuple", "bytes", "datetime", "uuid"}
    | {"decimal", "ipaddress", "pathlib", "Any", "Literal", "Annotated", "MISSING", "Field"}
)
"""Names annotations use: a field called ``bool`` would hide the type in its class body."""

_PYDANTIC = "pydantic"
_GENERATED = "sktypes.generated"
_FIELD = Name("Field", Import(_PYDANTIC, "Field"))
_TAG = Name("Tag", Import(_PYDANTIC, "Tag"))
_LIST = Name("list")
_DICT = Name("dict")
_TUPLE = Name("tuple")
_DISCRIMINATED = Name("discriminated_by", Import(_GENERATED, "discriminated_by"))
_UNIQUE = Name("unique_items", Import(_GENERATED, "unique_items"))
_ONE_OF = Name("one_of", Import(_GENERATED, "one_of"))
_TEXT = Name("text", Import(_GENERATED, "text"))
_NOT_REQUIRED = Name("NotRequired", Import("typing", "NotRequired"))

_INT_FORMATS = {"int32": (-(2**31), 2**31 - 1), "int64": (-(2**63), 2**63 - 1)}
"""OpenAPI's integer formats are ranges (openapi-core enforces them): generated types too."""

_KEYWORDS = frozenset(
    {"contains", "patternProperties", "propertyNames", "minProperties", "maxProperties"}
    | {"prefixItems"}
)
"""Keywords a warning points into (others point at the schema that holds them)."""

_LOSSY_FORMATS = frozenset({"uri", "duration"})
"""Formats the type table reads back as a type whose text form differs from what arrived
(``AnyUrl`` adds a ``/``, ``timedelta`` turns a month into 30 days): kept as ``str``."""


@dataclass(frozen=True, slots=True)
class Unexpressed:
    """Something a schema says that the generated code cannot express.

    Attributes:
        pointer: the node's JSON pointer in the module's combined schemas
            (``/$defs/Pet/properties/tags``; :meth:`SchemaSet.locate` finds it in the spec).
        keyword: the keyword that is not expressed.
    """

    pointer: str
    keyword: str


@dataclass(slots=True)
class FieldDef:
    """One property of a generated class.

    Attributes:
        name: the Python attribute name (cleaned).
        key: the JSON key on the wire (the alias when it differs from ``name``).
        annotation: the Python type.
        required: the schema lists the key in ``required``.
        default: the default value (``MISSING``, a literal), ``None`` when required.
        description: the property's description.
    """

    name: str
    key: str
    annotation: Expr
    required: bool
    default: Expr | None = None
    description: str | None = None

    @property
    def aliased(self) -> bool:
        """The wire key differs from the attribute name."""
        return self.name != self.key

    @property
    def value(self) -> Expr | None:
        """What follows ``=`` in the class body (``None``: nothing)."""
        if not self.aliased:
            return self.default
        kwargs: list[tuple[str, Expr]] = []
        if self.default is not None:
            kwargs.append(("default", self.default))
        kwargs.append(("alias", Value(self.key)))
        return Call(_FIELD, kwargs=tuple(kwargs))


@dataclass(slots=True)
class ClassDef:
    """A generated class: a pydantic model or a ``TypedDict``.

    Attributes:
        name: the class name (unique in the module).
        description: the schema's description (becomes the docstring).
        fields: its properties, in schema order (inherited ones left out).
        bases: the generated classes it derives from (empty: ``BaseModel``/``TypedDict``).
        extra: what happens to members no property declares: ``allow`` (kept),
            ``forbid`` (``additionalProperties: false``).
        extra_type: the type of those members when the schema gives one.
        functional: a ``TypedDict`` whose keys are not all identifiers (functional syntax).
        regex_python: a pattern needs Python's ``re`` (``regex_engine="python-re"``).
    """

    name: str
    description: str | None = None
    fields: list[FieldDef] = field(default_factory=list)
    bases: list[str] = field(default_factory=list)
    extra: Literal["allow", "forbid"] = "allow"
    extra_type: Expr | None = None
    functional: bool = False
    inherited_extra: str | None = None

    @property
    def has_aliases(self) -> bool:
        """Some field is sent under another name (needs ``validate_by_name``)."""
        return any(f.aliased for f in self.fields)

    @property
    def config(self) -> list[tuple[str, Expr]]:
        """The ``model_config`` entries that differ from what the class inherits."""
        out: list[tuple[str, Expr]] = []
        if self.extra != self.inherited_extra:
            out.append(("extra", Value(self.extra)))
        if self.has_aliases:
            out.append(("validate_by_name", Value(True)))
            out.append(("serialize_by_alias", Value(True)))
        return out

    @property
    def config_args(self) -> list[str]:
        """``model_config = ConfigDict(...)``'s arguments, as code."""
        return [f"{k}={render(v)}" for k, v in self.config]

    @property
    def extra_annotation(self) -> Expr:
        """``dict[str, T]``: the annotation of ``__pydantic_extra__`` (with :attr:`extra_type`)."""
        return Subscript(_DICT, (STR, self.extra_type or ANY))

    @property
    def extra_value(self) -> Expr:
        """``Field(init=False)``: ``__pydantic_extra__`` is not a constructor argument."""
        return Call(_FIELD, kwargs=(("init", Value(False)),))

    def annotations(self) -> list[Expr]:
        """Every expression the class body holds (for imports and references)."""
        out: list[Expr] = []
        for f in self.fields:
            out.append(f.annotation)
            if f.value is not None:
                out.append(f.value)
        if self.extra_type is not None:
            out += [self.extra_annotation, self.extra_value]
        return out


@dataclass(slots=True)
class AliasDef:
    """A named definition that is not a class but a union or a ``Literal``.

    ``Name: TypeAlias = <value>``; one that refers to itself (a recursive union) is
    ``Name = TypeAliasType("Name", "<value>")``, its value a string read lazily.
    """

    name: str
    value: Expr | None = None
    recursive: bool = False

    def annotations(self) -> list[Expr]:
        """The alias's value (for imports and references)."""
        return [self.value] if self.value is not None else []


@dataclass(slots=True)
class _Job:
    key: object
    node: ObjectNode
    model: SchemaModel
    name: str


IMPORTED_NAMES = frozenset(
    {
        # pydantic, typing and sktypes names generated modules import: a class with one of
        # these names would replace it for the rest of the module (Cohere's `BaseModel`)
        *("BaseModel", "ConfigDict", "Field", "Tag", "TypeAdapter"),
        *("Annotated", "Any", "Literal", "NotRequired", "Required", "Protocol", "TypedDict"),
        *("TypeAlias", "TypeAliasType", "AsyncIterator", "Iterator"),
        *("MISSING", "PackageViews", "ApiClient", "ApiError", "Credential", "Request"),
        *("Pagination", "ServerSentEvent", "Stream", "Base64", "Base64Bytes", "AnyUrl"),
    }
)
"""Names a generated class never takes."""


class TypeBuilder:
    """Turns schema nodes into annotations, collecting the classes and imports they need.

    Args:
        schemas: the parsed schemas of the module.
        style: ``"pydantic"`` (models with aliases) or ``"typeddict"`` (stubs).
        taken: names already used in the module (functions, other classes).
        json_scalars: scalars are typed as their JSON values (a ``format: date`` string is
            ``str``, not ``datetime.date``): for code that sends and receives raw JSON.
    """

    def __init__(
        self,
        schemas: SchemaSet,
        style: Style,
        taken: set[str] | None = None,
        *,
        json_scalars: bool = False,
        constraints: bool | None = None,
    ):
        self.schemas = schemas
        self._json_scalars = json_scalars
        self.style: Style = style
        self.classes: dict[str, ClassDef] = {}
        self.aliases: dict[str, AliasDef] = {}
        self.warnings: list[Unexpressed] = []
        self._names = Namespace((taken or set()) | IMPORTED_NAMES)
        self._by_def: dict[object, Expr] = {}
        self._class_names: set[str] = set()
        self._inline: dict[Node, str] = {}
        self._inlining: dict[object, str | None] = {}
        self._queue: list[_Job] = []
        self._place = ""
        self._pydantic = style == "pydantic"
        self._constrained = self._pydantic if constraints is None else constraints

    # --- public ---------------------------------------------------------------------

    def annotation(self, handle: Handle, hint: str) -> Expr:
        """The Python type of the schema added as ``handle``; ``hint`` names its classes."""
        self._place = handle.key
        result = self._nullable(self.schemas.root(handle), self.schemas.model(handle), hint)
        self._drain()
        return result

    def _nullable(self, node: Node, model: SchemaModel, hint: str) -> Expr:
        """``T | None`` for a nullable node; ``None`` for a node that admits only ``null``."""
        inner, nullable = strip_null(node)
        if nullable and isinstance(inner, NeverNode):
            return NONE
        result = self._type(inner, model, hint)
        return union([result, NONE]) if nullable else result

    def parameter(self, handle: Handle, hint: str, required: bool) -> tuple[Expr, str | None]:
        """A parameter's annotation and default: ``T | MISSING = MISSING`` when optional."""
        ann = self.annotation(handle, hint)
        if required:
            return ann, None
        if not self._pydantic:
            return ann, "..."
        return union([ann, MISSING]), "MISSING"

    def ordered_classes(self) -> list[ClassDef]:
        """The classes, each after its bases (otherwise in creation order)."""
        out: list[ClassDef] = []
        done: set[str] = set()

        def place(cls: ClassDef) -> None:
            if cls.name in done:
                return
            done.add(cls.name)
            for base in cls.bases:
                place(self.classes[base])
            out.append(cls)

        for cls in self.classes.values():
            place(cls)
        return out

    def ordered_aliases(self) -> list[AliasDef]:
        """The aliases, each after the aliases its value names (plain ones run at import)."""
        out: list[AliasDef] = []
        done: set[str] = set()

        def place(alias: AliasDef) -> None:
            if alias.name in done:
                return
            done.add(alias.name)
            if not alias.recursive:
                for ref in sorted(class_refs(alias.annotations())):
                    if ref in self.aliases:
                        place(self.aliases[ref])
            out.append(alias)

        for alias in self.aliases.values():
            place(alias)
        return out

    # --- one method per kind --------------------------------------------------------

    def _type(self, node: Node, model: SchemaModel, hint: str) -> Expr:
        if isinstance(node, RefNode):
            return self._ref(node, model)
        if isinstance(node, NullNode):
            return NONE
        if isinstance(node, BooleanNode):
            return BOOL
        if isinstance(node, (IntegerNode, NumberNode, StringNode)):
            return self._scalar(node)
        if isinstance(node, ArrayNode):
            return self._array(node, model, hint)
        if isinstance(node, ObjectNode):
            return self._object(node, model, hint)
        if isinstance(node, EnumNode):
            return self._values(node.values, node)
        if isinstance(node, ConstNode):
            return self._values((node.value,), node)
        if isinstance(node, UnionNode):
            return self._union(node, model, hint)
        if isinstance(node, IntersectionNode):
            return self._intersection(node, model, hint)
        if isinstance(node, NeverNode):  # no value is valid: only absence, when optional
            return annotated(ANY, [Call(_ONE_OF, ())]) if self._constrained else ANY
        if not isinstance(node, (AnyNode, OpaqueNode)):  # a kind this builder does not know
            self._warn(node, node.kind)
        return ANY

    def _ref(self, node: RefNode, model: SchemaModel) -> Expr:
        key = self.schemas.identity(model, node.name) if node.name else (id(model), node.ref)
        known = self._by_def.get(key)
        if known is not None:
            return known
        target = model.resolve(node)
        hint = class_name(node.name or node.ref.rsplit("/", 1)[-1])
        if _is_class(target) and isinstance(target, ObjectNode):
            return self._class_ref(key, target, model, hint)
        if key in self._inlining:  # a cycle through definitions that are not classes
            alias = self._inlining[key] or self._names.claim(f"alias:{hint}", hint)
            self._inlining[key] = alias
            return Name(alias, local=True)
        self._inlining[key] = None
        result = self._nullable(target, model, hint)
        recursive = self._inlining.pop(key)
        if recursive is not None:
            self.aliases[recursive] = AliasDef(recursive, result, recursive=True)
            result = Name(recursive, local=True)
        elif node.name and self._pydantic and _worth_a_name(result):
            alias = self._names.claim(f"alias:{hint}", hint)
            self.aliases[alias] = AliasDef(alias, result)
            result = Name(alias, local=True)
        self._by_def[key] = result
        return result

    def _class_ref(self, key: object, node: ObjectNode, model: SchemaModel, hint: str) -> Expr:
        """A definition that is a class: named now, built from the worklist."""
        name = self._names.claim(f"def:{id(key)}", hint)
        self._class_names.add(name)
        result = Name(name, local=True)
        self._by_def[key] = result
        self._queue.append(_Job(key, node, model, name))
        return result

    def _drain(self) -> None:
        """Build the classes of the definitions referenced so far (a worklist, not recursion).

        A reference names its class at once and queues it, so deep chains of references
        (Stripe's expandable fields) never exhaust the stack.
        """
        while self._queue:
            job = self._queue.pop(0)
            place, self._place = self._place, ""
            try:
                self._class(job.node, job.model, job.name)
            finally:
                self._place = place

    # --- scalars --------------------------------------------------------------------

    def _scalar(self, node: IntegerNode | NumberNode | StringNode) -> Expr:
        base = self._scalar_name(node)
        if not self._constrained:
            return base
        kwargs: list[tuple[str, Expr]] = []
        extra: list[Expr] = []
        if isinstance(node, StringNode):
            text = [
                (k, v)
                for k, v in (("min_length", node.min_length), ("max_length", node.max_length))
                if v is not None
            ]
            pattern = None if _own_pattern(node, base) else node.pattern
            if base != STR and (text or pattern is not None):
                extra.append(self._text(text, pattern))
            else:
                kwargs.extend((k, Value(v)) for k, v in text)
                if pattern is not None:
                    if _rust_pattern(pattern):
                        kwargs.append(("pattern", Value(pattern)))
                    else:
                        extra.append(self._text([], pattern))
        else:
            low, high = _INT_FORMATS.get(node.format or "", (None, None))
            if isinstance(node, IntegerNode) and low is not None and high is not None:
                node = node.replace(
                    minimum=low if node.minimum is None else max(low, node.minimum),
                    maximum=high if node.maximum is None else min(high, node.maximum),
                )
            for key, value in (
                ("ge", node.minimum),
                ("le", node.maximum),
                ("gt", node.exclusive_minimum),
                ("lt", node.exclusive_maximum),
                ("multiple_of", node.multiple_of),
            ):
                if value is not None:
                    if isinstance(node, IntegerNode) and base == Name("int"):
                        key, value = _integer_bound(key, value)
                    kwargs.append((key, Value(value)))
        metadata = [Call(_FIELD, kwargs=tuple(kwargs))] if kwargs else []
        return annotated(base, [*metadata, *extra])

    def _scalar_name(self, node: IntegerNode | NumberNode | StringNode) -> Name:
        row = scalar_type_for(node)
        lossy = node.format in _LOSSY_FORMATS and self._pydantic
        if row is None or lossy or self._json_scalars:
            return STR if isinstance(node, StringNode) else _plain(node)
        if self._pydantic and isinstance(node, NumberNode) and row.module == "decimal":
            return FLOAT  # a Decimal is written back as a string: the number would change type
        if row.module == "builtins":
            return Name(row.name)
        if row.module in ("pydantic", "sktypes.generated"):
            return Name(row.name, Import(row.module, row.name))
        return Name(f"{row.module}.{row.name}", Import(row.module))

    @staticmethod
    def _text(lengths: list[tuple[str, Any]], pattern: str | None) -> Expr:
        kwargs = [(k, Value(v)) for k, v in lengths]
        if pattern is not None:
            kwargs.append(("pattern", Value(pattern)))
        return Call(_TEXT, kwargs=tuple(kwargs))

    def _values(self, values: tuple[Any, ...], node: Node) -> Expr:
        if all(isinstance(v, (str, int, bool)) or v is None for v in values):
            return literal(values)
        if not self._constrained:
            return ANY
        numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
        base = FLOAT if numbers else ANY
        return annotated(base, [Call(_ONE_OF, tuple(Value(v) for v in values))])

    # --- containers -----------------------------------------------------------------

    def _array(self, node: ArrayNode, model: SchemaModel, hint: str) -> Expr:
        if node.contains is not None:
            self._warn(node, "contains")
        if node.prefix_items:
            parts = [
                self._type(p, model, f"{hint}Item{i + 1}") for i, p in enumerate(node.prefix_items)
            ]
            if node.is_tuple:
                base: Expr = Subscript(_TUPLE, tuple(parts))
            else:
                self._warn(node, "prefixItems")
                rest = self._item(node.items, model, hint)
                base = Subscript(_LIST, (union([*parts, rest]),))
        else:
            base = Subscript(_LIST, (self._item(node.items, model, hint),))
        if not self._constrained:
            return base
        kwargs = [
            (k, Value(v))
            for k, v in (("min_length", node.min_items), ("max_length", node.max_items))
            if v is not None and not (node.is_tuple and v == len(node.prefix_items))
        ]
        metadata: list[Expr] = [Call(_FIELD, kwargs=tuple(kwargs))] if kwargs else []
        if node.unique_items:
            metadata.append(_UNIQUE)
        return annotated(base, metadata)

    def _item(self, node: Node, model: SchemaModel, hint: str) -> Expr:
        return self._nullable(node, model, f"{hint}Item")

    def _object(self, node: ObjectNode, model: SchemaModel, hint: str) -> Expr:
        if _is_class(node):
            known = self._inline.get(node)
            if known is not None:
                return Name(known, local=True)
            name = self._names.claim(f"inline:{len(self.classes)}:{hint}", class_name(hint))
            self._inline[node] = name
            self._class(node, model, name)
            return Name(name, local=True)
        return self._map(node, model, hint)

    def _map(self, node: ObjectNode, model: SchemaModel, hint: str) -> Expr:
        key: Expr = STR
        values: list[Node] = []
        if not isinstance(node.additional, NeverNode):
            values.append(node.additional)
        patterns = node.pattern_properties
        if len(patterns) == 1 and isinstance(node.additional, NeverNode) and self._pydantic:
            key = self._pattern_key(patterns[0][0])
            values.append(patterns[0][1])
        elif patterns:
            self._warn(node, "patternProperties")
            values.extend(p for _, p in patterns)
        if node.property_names is not None:
            if key == STR and isinstance(node.property_names, StringNode) and self._pydantic:
                key = self._scalar(node.property_names)
            else:
                self._warn(node, "propertyNames")
        value = union([self._item(v, model, f"{hint}Value") for v in values]) if values else ANY
        base: Expr = Subscript(_DICT, (key, value))
        if not self._constrained:
            return base
        kwargs = [
            (k, Value(v))
            for k, v in (("min_length", node.min_properties), ("max_length", node.max_properties))
            if v is not None
        ]
        return annotated(base, [Call(_FIELD, kwargs=tuple(kwargs))] if kwargs else [])

    def _pattern_key(self, pattern: str) -> Expr:
        if _rust_pattern(pattern):
            return annotated(STR, [Call(_FIELD, kwargs=(("pattern", Value(pattern)),))])
        return annotated(STR, [self._text([], pattern)])

    # --- classes --------------------------------------------------------------------

    def _class(self, node: ObjectNode, model: SchemaModel, name: str) -> None:
        cls = ClassDef(name=name, description=_text(node.description))
        self.classes[name] = cls  # registered first: recursive users find it
        inherited: dict[str, Property] = {}
        if self._pydantic:
            for base in node.bases:
                base_node = model.definitions.get(base)
                if not isinstance(base_node, ObjectNode) or not _is_class(base_node):
                    continue
                if not self._can_inherit(node, base_node, inherited):
                    continue
                ref = self._ref(RefNode(ref=f"#/$defs/{base}", name=base, model=model), model)
                if isinstance(ref, Name) and ref.text in self._class_names and ref.text != name:
                    cls.bases.append(ref.text)
                    for p in base_node.properties:
                        inherited[p.name] = p
                    for r in base_node.required:
                        inherited.setdefault(r, Property(r, AnyNode(), True))
                    cls.inherited_extra = _extra_of(base_node)
        attrs = Namespace(_MODEL_ATTRS if self._pydantic else ())
        reserved = _MODEL_ATTRS | _SHADOWING if self._pydantic else _SHADOWING
        declared = {p.name for p in node.properties}
        undeclared = [Property(r, AnyNode(), True) for r in node.required if r not in declared]
        for prop in [*node.properties, *undeclared]:
            known = inherited.get(prop.name)
            if known is not None and known == prop:
                attrs.claim(prop.name, identifier(prop.name, prefix="field", reserved=reserved))
                continue
            cls.fields.append(self._field(prop, model, name, attrs, reserved))
        cls.extra = _extra_of(node)
        if not isinstance(node.additional, (AnyNode, NeverNode)) and self._pydantic:
            cls.extra_type = self._item(node.additional, model, f"{name}Value")
        if node.pattern_properties:
            self._warn(node, "patternProperties")
        if node.property_names is not None:
            self._warn(node, "propertyNames")
        if node.min_properties is not None:
            self._warn(node, "minProperties")
        if node.max_properties is not None:
            self._warn(node, "maxProperties")
        cls.functional = not self._pydantic and any(
            not f.key.isidentifier() or keyword.iskeyword(f.key) for f in cls.fields
        )
        # definition order: after the classes its fields created
        self.classes.pop(name)
        self.classes[name] = cls

    def _can_inherit(
        self, node: ObjectNode, base: ObjectNode, inherited: dict[str, Property]
    ) -> bool:
        """Whether ``node`` can derive from ``base``.

        Every base property it redeclares must narrow the base's: a redeclared field must be
        a subtype for type checkers.
        """
        mine = {p.name: p for p in node.properties}
        for p in base.properties:
            own = mine.get(p.name)
            if own is None:
                return False  # the merge lost a base property: not a clean chain
            if own == p:
                continue
            if p.required and not own.required:
                return False
            if not _narrows(own.node, p.node):
                return False
            if p.name in inherited and inherited[p.name] != p:
                return False
        return _extra_of(base) == "allow" or _extra_of(node) == _extra_of(base)

    def _field(
        self,
        prop: Property,
        model: SchemaModel,
        owner: str,
        attrs: Namespace,
        reserved: frozenset[str],
    ) -> FieldDef:
        key = prop.name
        inner, nullable = strip_null(prop.node)
        ann = self._nullable(prop.node, model, f"{owner}{class_name(key, prefix='Field')}")
        attr = key
        if self._pydantic:
            attr = attrs.claim(key, identifier(key, prefix="field", reserved=reserved))
        default: Expr | None = None
        if not prop.required and not self._pydantic:
            ann = Subscript(_NOT_REQUIRED, (ann,))
            if prop.node.has_default:  # a TypedDict key has no default
                self._warn(prop.node, "default")
        if not prop.required and self._pydantic:
            if prop.node.has_default and _default_fits(prop.node.default, inner, nullable):
                default = Value(prop.node.default)
            else:
                ann = union([ann, MISSING])
                default = MISSING
        return FieldDef(attr, key, ann, prop.required, default, _text(prop.node.description))

    # --- composition ----------------------------------------------------------------

    def _union(self, node: UnionNode, model: SchemaModel, hint: str) -> Expr:
        options = [o for o in node.options if not isinstance(o, NullNode)]
        if node.discriminator is not None and self._pydantic:
            tagged = self._discriminated(node, options, model)
            if tagged is not None:
                return union([tagged, NONE]) if node.nullable else tagged
        parts = [self._type(o, model, f"{hint}Option{i + 1}") for i, o in enumerate(options)]
        if node.nullable:
            parts.append(NONE)
        return union(parts)

    def _discriminated(
        self, node: UnionNode, options: list[Node], model: SchemaModel
    ) -> Expr | None:
        """``Annotated[Annotated[A, Tag("A")] | ..., discriminated_by(member, mapping)]``.

        Every option must be a reference to a class (its definition name is its tag);
        otherwise the union stays a plain one, which validates the same values.
        """
        assert node.discriminator is not None
        tags: list[tuple[str, Expr]] = []
        for option in options:
            if not isinstance(option, RefNode) or option.name is None:
                return None
            target = model.resolve(option)
            if not (isinstance(target, ObjectNode) and _is_class(target)):
                return None
            tags.append((option.name, self._ref(option, model)))
        if len({t for t, _ in tags}) != len(tags):
            return None
        mapping = {value: ref.name for value, ref in node.discriminator.mapping if ref.name}
        mapping.update(_sole_values(node.discriminator.property_name, options, model, mapping))
        args: list[Expr] = [Value(node.discriminator.property_name)]
        if any(value != target for value, target in mapping.items()):
            args.append(Value(mapping))
        members = union([annotated(ann, [Call(_TAG, (Value(tag),))]) for tag, ann in tags])
        return annotated(members, [Call(_DISCRIMINATED, tuple(args))])

    def _intersection(self, node: IntersectionNode, model: SchemaModel, hint: str) -> Expr:
        parts = [p for p in node.parts if not isinstance(p, OpaqueNode)]
        if len(parts) != 1:
            self._warn(node, "allOf")
        if not parts:
            return ANY
        return self._type(parts[0], model, hint)

    # --- small pieces ---------------------------------------------------------------

    def _warn(self, node: Node, keyword_: str) -> None:
        inside = keyword_ in _KEYWORDS  # the pointer names the keyword itself
        pointer = f"{node.pointer}/{keyword_}" if inside else node.pointer
        self.warnings.append(Unexpressed(pointer, keyword_))


def _sole_values(
    member: str, options: list[Node], model: SchemaModel, mapping: dict[str, str]
) -> dict[str, str]:
    """Values that name options besides ``mapping``: the one value an option allows ``member``.

    OpenAI discriminates by ``object`` without a mapping, each option saying
    ``object: {enum: [organization.usage.completions.result]}``: that value names it (no
    other option allows it, and it is neither mapped nor a definition's name).
    """
    names = {o.name for o in options if isinstance(o, RefNode) and o.name}
    owners: dict[str, list[str]] = {}
    for option in options:
        if not isinstance(option, RefNode) or option.name is None:
            continue
        target = model.resolve(option)
        if not isinstance(target, ObjectNode):
            continue
        prop = next((p for p in target.properties if p.name == member), None)
        value = _sole_value(prop.node, model) if prop is not None else None
        if isinstance(value, str):
            owners.setdefault(value, []).append(option.name)
    return {
        value: found[0]
        for value, found in owners.items()
        if len(found) == 1 and value not in mapping and value not in names
    }


def _sole_value(node: Node, model: SchemaModel) -> Any:
    node = strip_null(model.resolve(node) if isinstance(node, RefNode) else node)[0]
    if isinstance(node, ConstNode):
        return node.value
    if isinstance(node, EnumNode) and len(node.values) == 1:
        return node.values[0]
    return None


def _integer_bound(key: str, value: Any) -> tuple[str, Any]:
    """An integer's bound as an ``int`` (pydantic refuses a float bound on an ``int``).

    JSON gives ``maximum: 18446744073709552000`` as a float (Cohere's ``seed``); an integral
    float is that integer, exactly. A fractional bound is the nearest integer that admits
    the same integers (``minimum: 0.5`` is ``ge=1``, ``exclusiveMaximum: 9.5`` is ``le=9``).
    """
    if not isinstance(value, float) or key == "multiple_of" or not math.isfinite(value):
        return key, value
    if value.is_integer():
        return key, int(value)
    if key in ("ge", "gt"):
        return "ge", math.ceil(value)
    return "le", math.floor(value)


def _worth_a_name(annotation: Expr) -> bool:
    """A union or a ``Literal`` of several values reads better under its definition's name."""
    if isinstance(annotation, Union):
        return True
    if isinstance(annotation, Subscript) and annotation.head.text == "Annotated":
        return _worth_a_name(annotation.args[0])
    return (
        isinstance(annotation, Subscript)
        and annotation.head.text == "Literal"
        and len(annotation.args) > 1
    )


def _own_pattern(node: StringNode, base: Name) -> bool:
    """Whether ``node``'s pattern is the rule of the type it is read as (``Decimal``'s text)."""
    row = scalar_type_for(node)
    if node.pattern is None or row is None or base.text != row.annotation:
        return False
    options = row.schema.get("anyOf", (row.schema,))
    return any(isinstance(o, Mapping) and o.get("pattern") == node.pattern for o in options)


def _plain(node: IntegerNode | NumberNode | StringNode) -> Name:
    return {"integer": Name("int"), "number": FLOAT}.get(node.kind, STR)


def _is_class(node: Node) -> bool:
    """Whether an object node becomes a class (not a plain ``dict``)."""
    if not isinstance(node, ObjectNode):
        return False
    return bool(node.properties or node.bases) or (
        isinstance(node.additional, NeverNode) and not node.pattern_properties
    )


def _extra_of(node: ObjectNode) -> Literal["allow", "forbid"]:
    closed = isinstance(node.additional, NeverNode) and not node.pattern_properties
    return "forbid" if closed else "allow"


def _narrows(child: Node, base: Node) -> bool:
    """``child`` admits a subset of what ``base`` does, in a way type checkers see too."""
    if child == base or isinstance(base, AnyNode):
        return True
    c, c_null = strip_null(child)
    b, b_null = strip_null(base)
    if c_null and not b_null:
        return False
    if c == b:
        return True
    if type(c) is type(b) and isinstance(c, (IntegerNode, NumberNode, StringNode, BooleanNode)):
        return getattr(c, "format", None) == getattr(b, "format", None)
    if isinstance(b, EnumNode) and isinstance(c, (EnumNode, ConstNode)):
        values = c.values if isinstance(c, EnumNode) else (c.value,)
        return all(any(v == w and type(v) is type(w) for w in b.values) for v in values)
    return False


def _default_fits(default: Any, node: Node, nullable: bool) -> bool:
    """A scalar default that matches the field's type (else the field uses ``MISSING``)."""
    if default is None:
        return nullable
    if isinstance(node, (EnumNode, ConstNode)):
        values = node.values if isinstance(node, EnumNode) else (node.value,)
        return any(default == v and type(default) is type(v) for v in values) and isinstance(
            default, (str, int, bool)
        )
    if isinstance(node, BooleanNode):
        return isinstance(default, bool)
    if isinstance(node, IntegerNode):
        return isinstance(default, int) and not isinstance(default, bool) and _within(default, node)
    if isinstance(node, NumberNode):
        ok = isinstance(default, (int, float)) and not isinstance(default, bool)
        return ok and _within(default, node)
    if isinstance(node, StringNode):
        return isinstance(default, str) and scalar_type_for(node) == scalar_type_for(StringNode())
    return False


def _within(value: float, node: IntegerNode | NumberNode) -> bool:
    return not (
        (node.minimum is not None and value < node.minimum)
        or (node.maximum is not None and value > node.maximum)
    )


_RUST_OK: dict[str, bool] = {}


def _rust_pattern(pattern: str) -> bool:
    """Whether pydantic's default (Rust) regex engine compiles ``pattern``."""
    known = _RUST_OK.get(pattern)
    if known is None:
        try:
            TypeAdapter(Annotated[str, Field(pattern=pattern)])
            known = True
        except SchemaError:
            known = False
        _RUST_OK[pattern] = known
    return known


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value.strip() else None
