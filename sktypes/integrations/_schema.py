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
from collections.abc import Mapping
from typing import Any

from jsonschema import Draft202012Validator

from sktypes.errors import SchemaError
from sktypes.introspect import SktypesWarning
from sktypes.schema import to_dialect
from sktypes.schema._walk import SCHEMA_LIST_KEYS, SCHEMA_MAP_KEYS, SCHEMA_VALUE_KEYS
from sktypes.views import FunctionView

__all__ = [
    "RECURSION_DEPTH",
    "SchemaCutWarning",
    "ToolSchema",
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
    defs = {**schema.get("definitions", {}), **schema.get("$defs", {})}
    cuts: list[str] = []
    try:
        inlined = _expand(schema, defs, {}, "", cuts)
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


def _expand(
    node: Any, defs: Mapping[str, Any], seen: Mapping[str, int], pointer: str, cuts: list[str]
) -> Any:
    """``node`` with every ``$ref`` replaced by its definition (recursion cut)."""
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str):
        name = _def_name(ref)
        if name is None or name not in defs:
            raise SchemaError(f"cannot inline the reference {ref!r}", where=pointer or "/")
        rest = _children({k: v for k, v in node.items() if k != "$ref"}, defs, seen, pointer, cuts)
        target = defs[name]
        if seen.get(name, 0) >= RECURSION_DEPTH:
            cuts.append(pointer or "/")
            return _merge(_cut(name, target), rest)
        inner = _expand(target, defs, {**seen, name: seen.get(name, 0) + 1}, pointer, cuts)
        return _merge(inner, rest)
    return _children(node, defs, seen, pointer, cuts)


def _children(
    node: dict[str, Any],
    defs: Mapping[str, Any],
    seen: Mapping[str, int],
    pointer: str,
    cuts: list[str],
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in node.items():
        here = f"{pointer}/{_escape(key)}"
        if key in _DEFS:
            continue  # everything they held is inlined where it is used
        if key in SCHEMA_VALUE_KEYS and isinstance(value, dict):
            out[key] = _expand(value, defs, seen, here, cuts)
        elif isinstance(value, list) and (key in SCHEMA_LIST_KEYS or key == "items"):
            out[key] = [_expand(v, defs, seen, f"{here}/{i}", cuts) for i, v in enumerate(value)]
        elif key == "discriminator" and isinstance(value, dict):
            # OpenAPI's mapping names definitions that no longer exist once inlined; the
            # property name stays (each option's ``const`` says which value it takes)
            out[key] = {k: v for k, v in value.items() if k != "mapping"}
        elif key in SCHEMA_MAP_KEYS and isinstance(value, dict):
            out[key] = {
                k: _expand(v, defs, seen, f"{here}/{_escape(k)}", cuts) for k, v in value.items()
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


def _def_name(ref: str) -> str | None:
    for prefix in ("#/$defs/", "#/definitions/"):
        if ref.startswith(prefix):
            return ref[len(prefix) :].replace("~1", "/").replace("~0", "~")
    return None


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


# --- strict arguments back to the view's --------------------------------------------


def restore_absent(validator: Draft202012Validator, arguments: Any) -> Any:
    """Drop the ``null``s that stand for "absent" in strict arguments.

    In the strict shape an optional property is required and nullable; the model sends
    ``null`` to leave it out. Where the view's own schema (``validator.schema``, the
    view's arguments schema) does not accept ``null`` for a property it does not require,
    the property is removed, at any depth. Everything else is returned as it is (a
    ``null`` the view accepts stays a ``null``).
    """
    if not _has_null(arguments):
        return arguments
    return _restore(validator, validator.schema, arguments)


def _has_null(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, dict):
        return any(_has_null(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_null(v) for v in value)
    return False


def _restore(validator: Draft202012Validator, node: Any, value: Any) -> Any:
    if not isinstance(node, dict) or not _has_null(value):
        return value
    ref = node.get("$ref")
    if isinstance(ref, str):
        name = _def_name(ref)
        root = validator.schema
        defs = {**root.get("definitions", {}), **root.get("$defs", {})}
        if name is not None and name in defs:
            value = _restore(validator, defs[name], value)
    for sub in node.get("allOf", ()):
        value = _restore(validator, sub, value)
    for key in ("anyOf", "oneOf"):
        options = node.get(key)
        if isinstance(options, list):
            for sub in options:
                fixed = _restore(validator, sub, value)
                if validator.evolve(schema=sub).is_valid(fixed):
                    value = fixed
                    break
    if isinstance(value, dict):
        value = _restore_object(validator, node, value)
    elif isinstance(value, list):
        value = _restore_array(validator, node, value)
    return value


def _restore_object(
    validator: Draft202012Validator, node: dict[str, Any], value: dict[str, Any]
) -> dict[str, Any]:
    props = node.get("properties")
    props = props if isinstance(props, dict) else {}
    extra = node.get("additionalProperties")
    required = node.get("required")
    required = set(required) if isinstance(required, list) else set()
    out: dict[str, Any] = {}
    for key, item in value.items():
        sub = props.get(key, extra if isinstance(extra, dict) else None)
        if (
            item is None
            and key in props
            and key not in required
            and not validator.evolve(schema=props[key]).is_valid(None)
        ):
            continue  # strict's stand-in for "absent"
        out[key] = _restore(validator, sub, item) if sub is not None else item
    return out


def _restore_array(
    validator: Draft202012Validator, node: dict[str, Any], value: list[Any]
) -> list[Any]:
    prefix = node.get("prefixItems")
    prefix = prefix if isinstance(prefix, list) else []
    items = node.get("items")
    out = []
    for i, item in enumerate(value):
        sub = prefix[i] if i < len(prefix) else items if isinstance(items, dict) else None
        out.append(_restore(validator, sub, item) if sub is not None else item)
    return out
