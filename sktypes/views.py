"""Function views: what a planner or model needs to know about a function.

A :class:`FunctionView` names a function, describes it, and carries a
:class:`ParameterView` per input and a :class:`ReturnParameterView` for the output,
each with a JSON Schema (draft 2020-12) held in an immutable :class:`JsonDocument`.
Views are frozen and hashable; ``to_dict()``/``from_dict()`` round-trip everything but
``native_type`` (and the native callable), which only exist in the running process.

Each parameter schema is self-contained: shared definitions sit under its own
``$defs``. :attr:`FunctionView.parameters_schema` hoists them into one object schema.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic_core import to_jsonable_python

from sktypes._arguments_schema import parameters_document
from sktypes.errors import SktypesError, snippet
from sktypes.jsondoc import JsonDocument
from sktypes.schema import (
    AnyNode,
    ArrayNode,
    BooleanNode,
    ConstNode,
    EnumNode,
    IntegerNode,
    IntersectionNode,
    Node,
    NullNode,
    NumberNode,
    ObjectNode,
    RefNode,
    StringNode,
    UnionNode,
)

T = TypeVar("T")

__all__ = [
    "FunctionView",
    "ParameterView",
    "ParameterViewType",
    "ReturnParameterView",
    "view_type_of",
]


class ParameterViewType(enum.StrEnum):
    """The JSON type of a parameter, as the ADR's ``ParameterViewType``."""

    STRING = "string"
    NUMBER = "number"
    INTEGER = "integer"
    BOOLEAN = "boolean"
    NULL = "null"
    OBJECT = "object"
    ARRAY = "array"


_TYPES = {t.value: t for t in ParameterViewType}


def view_type_of(
    schema: Mapping[str, Any] | JsonDocument | Node | None,
) -> ParameterViewType | None:
    """Return the single JSON type a schema admits (ignoring ``null``), or ``None``.

    ``{"type": ["string", "null"]}`` and ``anyOf: [{type: string}, {type: null}]`` are
    ``STRING``; a ``$ref`` to an object is ``OBJECT``; a real union is ``None``. Read
    through the schema model (:func:`sktypes.schema.parse`); ``schema`` may also be the
    schema's node in a model parsed already (its references resolve there).
    """
    from sktypes.schema import parse

    if isinstance(schema, Node):
        return _view_type(schema, 0)
    if not isinstance(schema, (Mapping, JsonDocument)):
        return None  # a boolean schema: any JSON type
    return _view_type(parse(schema).root, 0)


def _view_type(node: Node, depth: int) -> ParameterViewType | None:
    if depth > 32:
        return None
    if isinstance(node, RefNode):
        target = node.target
        return _view_type(target, depth + 1) if not isinstance(target, AnyNode) else None
    if isinstance(node, (ObjectNode, ArrayNode)):
        return _TYPES[node.kind]  # an implied object or array counts (properties, items)
    if isinstance(node, (StringNode, IntegerNode, NumberNode)):
        return None if node.implied else _TYPES[node.kind]
    if isinstance(node, (NullNode, BooleanNode)):
        return _TYPES[node.kind]
    if isinstance(node, (EnumNode, ConstNode)):
        values = node.values if isinstance(node, EnumNode) else (node.value,)
        kinds = {_json_kind(v) for v in values}
        return kinds.pop() if len(kinds) == 1 else None
    if isinstance(node, UnionNode):
        found = {_view_type(o, depth + 1) for o in node.options} - {ParameterViewType.NULL}
        if not found and node.nullable:
            return ParameterViewType.NULL
        return found.pop() if len(found) == 1 else None
    if isinstance(node, IntersectionNode):
        found = {_view_type(p, depth + 1) for p in node.parts} - {None}
        return found.pop() if len(found) == 1 else None
    return None  # any, never, opaque


def _lazy_type(view: Any, name: str) -> Any:
    """A view's ``type``, read from its schema the first time it is asked for.

    Building views (an OpenAPI spec makes thousands) then parses no schema; the slot is
    filled on first use and read directly after.
    """
    if name != "type":
        raise AttributeError(name)
    value = view_type_of(view.schema)
    object.__setattr__(view, "type", value)
    return value


def _json_kind(v: Any) -> ParameterViewType | None:
    if v is None:
        return ParameterViewType.NULL
    if isinstance(v, bool):
        return ParameterViewType.BOOLEAN
    if isinstance(v, int):
        return ParameterViewType.INTEGER
    if isinstance(v, float):
        return ParameterViewType.NUMBER
    if isinstance(v, str):
        return ParameterViewType.STRING
    return None


def _doc(schema: JsonDocument | Mapping[str, Any] | None) -> JsonDocument | None:
    if schema is None or isinstance(schema, JsonDocument):
        return schema
    return JsonDocument.from_value(schema)


def _jsonable(value: Any) -> Any:
    try:
        return to_jsonable_python(value)
    except Exception:  # an arbitrary object: compare and serialize by repr
        return repr(value)


SchemaLike = JsonDocument | Mapping[str, Any] | None
"""A schema as views accept it: a JsonDocument, or a JSON object that gets frozen."""


@dataclass(frozen=True, slots=True, eq=False, init=False)
class ParameterView:
    """One input of a function.

    Args:
        name: the parameter name as the model must send it.
        description: what it means (from ``Annotated``, ``Field`` or the docstring).
        default_value: the native default; ``None`` when the parameter is required.
        type: the JSON type (``None`` for unions that admit several).
        is_required: ``True`` when the caller must supply it.
        native_type: the Python type (only for local functions; not serialized).
        schema: its JSON Schema (draft 2020-12; ``$defs`` inside when needed).
    """

    name: str
    description: str | None = None
    default_value: Any = None
    type: ParameterViewType | None = None
    is_required: bool = True
    native_type: Any = field(default=None, repr=False)
    schema: JsonDocument | None = None
    _key_cache: tuple[Any, ...] | None = field(default=None, init=False, repr=False, compare=False)

    def __init__(
        self,
        name: str,
        description: str | None = None,
        default_value: Any = None,
        type: ParameterViewType | None = None,
        is_required: bool = True,
        native_type: Any = None,
        schema: SchemaLike = None,
    ) -> None:
        doc = _doc(schema)
        setter = object.__setattr__
        setter(self, "name", name)
        setter(self, "description", description)
        setter(self, "default_value", default_value)
        if type is not None or doc is None:
            setter(self, "type", type)  # else read from the schema when first asked
        setter(self, "is_required", is_required)
        setter(self, "native_type", native_type)
        setter(self, "schema", doc)
        setter(self, "_key_cache", None)

    def __getattr__(self, name: str) -> Any:
        return _lazy_type(self, name)

    def _key(self) -> tuple[Any, ...]:
        """What equality and hashing compare (computed once: views are immutable)."""
        if self._key_cache is None:
            key = (
                self.name,
                self.description,
                JsonDocument.from_value(_jsonable(self.default_value)),
                self.type,
                self.is_required,
                self.schema,
            )
            object.__setattr__(self, "_key_cache", key)
            return key
        return self._key_cache

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ParameterView):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-compatible dict (``native_type`` is left out)."""
        out: dict[str, Any] = {"name": self.name, "is_required": self.is_required}
        if self.description is not None:
            out["description"] = self.description
        if not self.is_required:
            out["default_value"] = _jsonable(self.default_value)
        if self.type is not None:
            out["type"] = self.type.value
        if self.schema is not None:
            out["schema"] = self.schema.to_python()
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ParameterView:
        """Rebuild a view from :meth:`to_dict` output."""
        _fields(data, "parameter view", name=str, description=str)
        try:
            return cls(
                name=data["name"],
                description=data.get("description"),
                default_value=data.get("default_value"),
                type=ParameterViewType(data["type"]) if data.get("type") else None,
                is_required=bool(data.get("is_required", True)),
                schema=_doc(data.get("schema")),
            )
        except (KeyError, ValueError, TypeError, AttributeError) as exc:
            raise SktypesError(f"not a parameter view: {snippet(str(exc))}") from None


@dataclass(frozen=True, slots=True, init=False)
class ReturnParameterView:
    """The output of a function: description, JSON type, native type and schema.

    ``schema`` is ``None`` when the function returns nothing (or a remote operation has no
    response body). ``is_streaming`` marks async iterators, whose schema is the element's.
    """

    description: str | None = None
    type: ParameterViewType | None = None
    native_type: Any = field(default=None, compare=False, repr=False)
    schema: JsonDocument | None = None
    is_streaming: bool = False

    def __init__(
        self,
        description: str | None = None,
        type: ParameterViewType | None = None,
        native_type: Any = None,
        schema: SchemaLike = None,
        is_streaming: bool = False,
    ) -> None:
        doc = _doc(schema)
        setter = object.__setattr__
        setter(self, "description", description)
        if type is not None or doc is None:
            setter(self, "type", type)  # else read from the schema when first asked
        setter(self, "native_type", native_type)
        setter(self, "schema", doc)
        setter(self, "is_streaming", is_streaming)

    def __getattr__(self, name: str) -> Any:
        return _lazy_type(self, name)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-compatible dict (``native_type`` is left out)."""
        out: dict[str, Any] = {}
        if self.description is not None:
            out["description"] = self.description
        if self.type is not None:
            out["type"] = self.type.value
        if self.schema is not None:
            out["schema"] = self.schema.to_python()
        if self.is_streaming:
            out["is_streaming"] = True
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ReturnParameterView:
        """Rebuild a view from :meth:`to_dict` output."""
        _fields(data, "return parameter view", description=str)
        try:
            return cls(
                description=data.get("description"),
                type=ParameterViewType(data["type"]) if data.get("type") else None,
                schema=_doc(data.get("schema")),
                is_streaming=bool(data.get("is_streaming", False)),
            )
        except (ValueError, TypeError, AttributeError) as exc:
            raise SktypesError(f"not a return parameter view: {snippet(str(exc))}") from None


@dataclass(frozen=True, slots=True, weakref_slot=True)
class FunctionView:
    """A function as a model sees it: name, plugin, description, inputs and output.

    Args:
        name: the function name.
        plugin_name: the plugin (class, module or API) it belongs to; may be empty.
        description: what it does.
        parameters: its inputs, in call order.
        return_parameter: its output.
        accepts_extra: ``True`` when the function takes ``**kwargs`` (then the parameters
            schema allows additional properties).
        native_function: the callable (local functions only; not compared or serialized).
    """

    name: str
    plugin_name: str = ""
    description: str = ""
    parameters: tuple[ParameterView, ...] = ()
    return_parameter: ReturnParameterView = field(default_factory=ReturnParameterView)
    accepts_extra: bool = False
    native_function: Callable[..., Any] | None = field(default=None, compare=False, repr=False)
    _hash: int | None = field(default=None, init=False, compare=False, repr=False)
    _derived: dict[Any, Any] | None = field(default=None, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "parameters", tuple(self.parameters))
        names = [p.name for p in self.parameters]
        if len(set(names)) != len(names):
            dup = sorted({n for n in names if names.count(n) > 1})
            raise SktypesError(f"duplicate parameter name(s) {dup}", where=self.name)

    def _compared(self) -> tuple[Any, ...]:
        return (
            self.name,
            self.plugin_name,
            self.description,
            self.parameters,
            self.return_parameter,
            self.accepts_extra,
        )

    def __hash__(self) -> int:
        # computed once: views are immutable, and a view's hash covers every schema in it
        if self._hash is None:
            object.__setattr__(self, "_hash", hash(self._compared()))
        return self._hash  # type: ignore[return-value]

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, FunctionView):
            return NotImplemented
        if hash(self) != hash(other):
            return False
        return self._compared() == other._compared()

    @property
    def fully_qualified_name(self) -> str:
        """``Plugin.Function`` (or just ``Function`` without a plugin)."""
        return self.qualified_name(".")

    def qualified_name(self, separator: str = ".") -> str:
        """The plugin and function names joined by ``separator``."""
        return f"{self.plugin_name}{separator}{self.name}" if self.plugin_name else self.name

    def parameter(self, name: str) -> ParameterView:
        """Return the parameter called ``name`` (``KeyError`` if there is none)."""
        for p in self.parameters:
            if p.name == name:
                return p
        raise KeyError(name)

    @property
    def parameters_schema(self) -> dict[str, Any]:
        """The arguments object's schema: properties, required, shared ``$defs`` hoisted."""
        schema: dict[str, Any] = parameters_document(self).to_python()
        return schema

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-compatible dict (native types and callables are left out)."""
        out: dict[str, Any] = {
            "name": self.name,
            "plugin_name": self.plugin_name,
            "description": self.description,
            "parameters": [p.to_dict() for p in self.parameters],
            "return_parameter": self.return_parameter.to_dict(),
        }
        if self.accepts_extra:
            out["accepts_extra"] = True
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> FunctionView:
        """Rebuild a view from :meth:`to_dict` output."""
        _fields(
            data,
            "function view",
            name=str,
            plugin_name=str,
            description=str,
            parameters=(list, tuple),
            return_parameter=Mapping,
        )
        try:
            return cls(
                name=data["name"],
                plugin_name=data.get("plugin_name") or "",
                description=data.get("description") or "",
                parameters=tuple(ParameterView.from_dict(p) for p in data.get("parameters", ())),
                return_parameter=ReturnParameterView.from_dict(data.get("return_parameter") or {}),
                accepts_extra=bool(data.get("accepts_extra", False)),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise SktypesError(f"not a function view: {snippet(str(exc))}") from None


def derived(view: FunctionView, key: Any, build: Callable[[FunctionView], T]) -> T:
    """``build(view)``, computed the first time it is asked for and kept with the view.

    A view is immutable, so what is derived from it (its argument contract, say) is built
    once and lives exactly as long as the view: nothing is kept anywhere else. ``key`` tells
    the values derived from one view apart (the builder itself, usually). A copy made with
    ``dataclasses.replace`` is a new view and derives its own values.
    """
    memo = view._derived
    if memo is None:
        memo = {}
        object.__setattr__(view, "_derived", memo)
    try:
        value: T = memo[key]
    except KeyError:
        value = memo[key] = build(view)
    return value


def _fields(data: Any, what: str, **kinds: type | tuple[type, ...]) -> None:
    """Refuse ``data`` unless it is a mapping whose listed fields (when set) have their kind."""
    if not isinstance(data, Mapping):
        raise SktypesError(f"not a {what}: an object is needed, not {type(data).__name__}")
    for key, kind in kinds.items():
        value = data.get(key)
        if value is not None and not isinstance(value, kind):
            wanted = kind[0] if isinstance(kind, tuple) else kind
            raise SktypesError(
                f"not a {what}: {key!r} must be {wanted.__name__}, not {type(value).__name__}"
            )
