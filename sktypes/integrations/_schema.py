"""Arguments schemas as each framework can carry them, and strict arguments read back.

A view's arguments schema (``FunctionView.parameters_schema``: draft 2020-12, shared
definitions under the root ``$defs``) is what every framework should send. Their limits:

- some send each parameter's schema on its own (Semantic Kernel), or inline references
  themselves and turn recursion into ``{}`` (LangChain): for them references are inlined
  here, per parameter, and a recursive definition is expanded at most
  :data:`RECURSION_DEPTH` times along one path. The node where it is cut keeps the
  definition's JSON type and says in its description that it was cut; the cut is reported
  (:class:`SchemaCutWarning`, and :attr:`ToolSchema.cuts`). Calls are still checked
  against the whole view, so a cut loosens only what the model is told;
- strict function calling (OpenAI's ``strict: true``) wants every property required and
  no open objects: the ``openai-strict`` dialect of :mod:`sktypes.schema` makes optional
  arguments required *and nullable*; :func:`restore_absent` turns a ``null`` the model
  sent for such an argument back into "absent", so the function's default applies.

This is the one module of the integrations that reads schema dicts; it moves onto the
schema model (``sktypes.schema.parse``) when that lands, without touching the frameworks.
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Callable, Mapping
from typing import Any

from jsonschema import Draft202012Validator

from sktypes import _pointer
from sktypes._arguments_schema import parameters_document
from sktypes.errors import SchemaError
from sktypes.hydration import SchemaCheck
from sktypes.introspect import SktypesWarning
from sktypes.jsondoc import thaw
from sktypes.schema import (
    AnyNode,
    ArrayNode,
    ConstNode,
    IntersectionNode,
    Node,
    NullNode,
    ObjectNode,
    OpaqueNode,
    RefNode,
    SchemaModel,
    UnionNode,
    to_dialect,
)
from sktypes.schema._walk import SCHEMA_LIST_KEYS, SCHEMA_MAP_KEYS, SCHEMA_VALUE_KEYS
from sktypes.views import FunctionView

__all__ = [
    "RECURSION_DEPTH",
    "SchemaCutWarning",
    "ToolSchema",
    "absent_restorer",
    "restore_absent",
    "tool_schema",
]

RECURSION_DEPTH = 3
"""How many times a recursive definition is expanded along one path when references are
inlined; the next occurrence is cut (its JSON type kept, its content open)."""

_ANNOTATIONS = frozenset(
    {"description", "title", "default", "examples", "deprecated", "readOnly", "writeOnly"}
)
_DEFS = frozenset({"$defs", "definitions"})


class SchemaCutWarning(SktypesWarning):
    """A recursive definition was cut where a framework needed references inlined."""


@dataclasses.dataclass(frozen=True, slots=True)
class ToolSchema:
    """The arguments schema one framework gets for one function.

    Attributes:
        parameters: the arguments object's schema, as the framework sends it.
        strict: whether it is in the openai-strict shape (every property required,
            optional ones nullable, objects closed).
        inlined: whether references were inlined (no ``$defs``, no ``$ref``).
        cuts: JSON pointers into ``parameters`` where a recursive definition was cut.
    """

    parameters: dict[str, Any]
    strict: bool = False
    inlined: bool = False
    cuts: tuple[str, ...] = ()

    @property
    def properties(self) -> dict[str, Any]:
        """Each argument's own schema (self-contained when ``inlined``)."""
        props: dict[str, Any] = self.parameters.get("properties", {})
        return props

    @property
    def required(self) -> list[str]:
        """The names the model must send."""
        required: list[str] = self.parameters.get("required", [])
        return required


def tool_schema(
    view: FunctionView, *, inline: bool, strict: bool | None, strict_default: bool = False
) -> ToolSchema:
    """The arguments schema of ``view`` for a framework.

    Args:
        view: the function.
        inline: whether the framework needs references inlined (see the module docs).
        strict: ``True`` demands the strict shape (:class:`SchemaError` when the schema
            cannot take it: an object with arbitrary keys, or a cut recursion), ``False``
            refuses it, ``None`` takes ``strict_default`` where the schema allows it.
        strict_default: the framework's own default for ``strict=None``.

    Raises:
        SchemaError: ``strict=True`` and the schema cannot be made strict, or a
            reference cannot be inlined; the message names the function and the pointer.
    """
    want = strict_default if strict is None else strict
    base = view.parameters_schema
    if want:
        try:
            shaped = _shape(to_dialect(base, "openai-strict"), inline, view, strict=True)
        except SchemaError as exc:
            if strict:
                raise SchemaError(
                    f"cannot be made strict: {exc.message}",
                    where=f"{view.fully_qualified_name}: {exc.where or '/'}",
                ) from None
        else:
            if not shaped.cuts:
                return shaped
            if strict:
                raise SchemaError(
                    "cannot be made strict: a recursive definition had to be cut at "
                    + ", ".join(shaped.cuts),
                    where=view.fully_qualified_name,
                )
    return _shape(base, inline, view, strict=False)


def _shape(schema: dict[str, Any], inline: bool, view: FunctionView, *, strict: bool) -> ToolSchema:
    if not inline:
        return ToolSchema(schema, strict=strict)
    cuts: list[str] = []
    try:
        inlined = _expand(schema, schema, {}, "", cuts)
    except SchemaError as exc:
        raise SchemaError(exc.message, where=f"{view.fully_qualified_name}: {exc.where}") from None
    if cuts and not strict:
        warnings.warn(
            f"{view.fully_qualified_name}: recursive schema cut at depth {RECURSION_DEPTH} at "
            f"{', '.join(cuts)} (the model sees an open value there; calls are still checked "
            "against the whole schema)",
            SchemaCutWarning,
            stacklevel=4,
        )
    return ToolSchema(inlined, strict=strict, inlined=True, cuts=tuple(cuts))


def _expand(node: Any, root: Any, seen: Mapping[str, int], pointer: str, cuts: list[str]) -> Any:
    """``node`` with every ``$ref`` replaced by what it points at (recursion cut)."""
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str):
        try:
            if not ref.startswith("#"):
                raise _pointer.PointerError("not a reference inside the document", ref)
            target = _pointer.resolve(root, ref)
        except _pointer.PointerError:
            raise SchemaError(
                f"cannot inline the reference {ref!r}", where=pointer or "/"
            ) from None
        key = _pointer.join("", *_pointer.split(ref))
        rest = _children({k: v for k, v in node.items() if k != "$ref"}, root, seen, pointer, cuts)
        if seen.get(key, 0) >= RECURSION_DEPTH:
            cuts.append(pointer or "/")
            return _merge(_cut(_pointer.split(ref)[-1] if key else "schema", target), rest)
        inner = _expand(target, root, {**seen, key: seen.get(key, 0) + 1}, pointer, cuts)
        return _merge(inner, rest)
    return _children(node, root, seen, pointer, cuts)


def _children(
    node: dict[str, Any], root: Any, seen: Mapping[str, int], pointer: str, cuts: list[str]
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in node.items():
        here = _pointer.join(pointer, key)
        if key in _DEFS:
            continue  # everything they held is inlined where it is used
        if key in SCHEMA_VALUE_KEYS and isinstance(value, dict):
            out[key] = _expand(value, root, seen, here, cuts)
        elif isinstance(value, list) and (key in SCHEMA_LIST_KEYS or key == "items"):
            out[key] = [
                _expand(v, root, seen, _pointer.join(here, i), cuts) for i, v in enumerate(value)
            ]
        elif key == "discriminator" and isinstance(value, dict):
            # OpenAPI's mapping names definitions that no longer exist once inlined; the
            # property name stays (each option's ``const`` says which value it takes)
            out[key] = {k: v for k, v in value.items() if k != "mapping"}
        elif key in SCHEMA_MAP_KEYS and isinstance(value, dict):
            out[key] = {
                k: _expand(v, root, seen, _pointer.join(here, k), cuts) for k, v in value.items()
            }
        else:
            out[key] = value
    return out


def _merge(inner: Any, siblings: dict[str, Any]) -> Any:
    """A definition and the keywords next to its ``$ref``: one node when they do not clash."""
    if not siblings:
        return inner
    if not isinstance(inner, dict):  # a boolean definition
        return {"allOf": [inner], **siblings}
    if set(inner) & set(siblings) - _ANNOTATIONS:
        return {"allOf": [inner], **siblings}
    return {**inner, **siblings}


def _cut(name: str, target: Any) -> dict[str, Any]:
    cut: dict[str, Any] = {}
    if isinstance(target, dict) and isinstance(target.get("type"), (str, list)):
        cut["type"] = target["type"]
    title = target.get("title", name) if isinstance(target, dict) else name
    cut["description"] = (
        f"A {title} (nested deeper than {RECURSION_DEPTH} levels; same shape as above)"
    )
    return cut


# --- strict arguments back to the view's --------------------------------------------


def restore_absent(view: FunctionView, arguments: Any) -> Any:
    """Drop the ``null``s that stand for "absent" in strict arguments.

    In the strict shape an optional property is required and nullable; the model sends
    ``null`` to leave it out. Where the view's own schema (read through the schema model)
    does not accept ``null`` for a property it does not require, the property is removed,
    at any depth. Everything else is returned as it is (a ``null`` the view accepts stays a
    ``null``). In a union, the first option the restored value is valid for wins.
    """
    return absent_restorer(view)(arguments)


def absent_restorer(view: FunctionView) -> Callable[[Any], Any]:
    """:func:`restore_absent` for one view, its schema model read once (for every call)."""
    restorer: _Restorer | None = None

    def restore(arguments: Any) -> Any:
        nonlocal restorer
        if not _has_null(arguments):
            return arguments
        if restorer is None:
            check = SchemaCheck(parameters_document(view))
            restorer = _Restorer(check.model, check.validator)
        return restorer.restore(restorer.model.root, arguments)

    return restore


def _has_null(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, dict):
        return any(_has_null(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_null(v) for v in value)
    return False


class _Restorer:
    def __init__(self, model: SchemaModel, validator: Draft202012Validator) -> None:
        self.model = model
        self.validator = validator

    def restore(self, node: Node, value: Any) -> Any:
        if not _has_null(value):
            return value
        if isinstance(node, RefNode):
            return self.restore(node.target, value)
        if isinstance(node, IntersectionNode):
            for part in node.parts:
                value = self.restore(part, value)
            return value
        if isinstance(node, UnionNode):
            for option in node.options:
                fixed = self.restore(option, value)
                if self.valid(option, fixed):
                    return fixed
            return value
        if isinstance(node, ObjectNode) and isinstance(value, dict):
            return self.restore_object(node, value)
        if isinstance(node, ArrayNode) and isinstance(value, list):
            prefix = node.prefix_items
            return [
                self.restore(prefix[i] if i < len(prefix) else node.items, item)
                for i, item in enumerate(value)
            ]
        return value

    def restore_object(self, node: ObjectNode, value: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, item in value.items():
            prop = node.prop(key)
            if prop is None:
                out[key] = self.restore(node.additional, item)
            elif item is None and not prop.required and not _takes_null(prop.node):
                continue  # strict's stand-in for "absent"
            else:
                out[key] = self.restore(prop.node, item)
        return out

    def valid(self, node: Node, value: Any) -> bool:
        """Whether ``value`` fits ``node`` (jsonschema on the node's part of the document)."""
        fragment = _pointer.resolve(self.model.document.value, node.pointer)
        return bool(self.validator.evolve(schema=thaw(fragment)).is_valid(value))


def _takes_null(node: Node, seen: frozenset[int] = frozenset()) -> bool:
    """Whether a node admits ``null`` (unknown constraints are taken to: ``null`` is kept)."""
    if id(node) in seen:
        return False
    seen = seen | {id(node)}
    if isinstance(node, (AnyNode, NullNode, OpaqueNode)):
        return True
    if isinstance(node, RefNode):
        return _takes_null(node.target, seen)
    if isinstance(node, UnionNode):
        return any(_takes_null(o, seen) for o in node.options)
    if isinstance(node, IntersectionNode):
        return all(_takes_null(p, seen) for p in node.parts)
    if isinstance(node, ConstNode):
        return node.value is None
    return bool(getattr(node, "implied", False))  # no "type": other JSON types are valid
