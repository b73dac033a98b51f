"""Targets: what a hydration produces, behind one small interface.

A target turns JSON text (``from_json``) or an already-parsed JSON value
(``from_value``) into the result, raising :class:`JsonSyntax` when the text is not JSON
and :class:`Invalid` when the value does not fit. Kinds:

- :class:`TypeTarget`: any type pydantic validates (a cached ``TypeAdapter``);
- :class:`SchemaTarget`: a JSON Schema (jsonschema; returns the JSON value);
- :class:`FunctionTarget`: a function view's arguments object → ``dict`` of natives.

``target_for`` picks and caches one per target object.
"""

from __future__ import annotations

import abc
import copy
import enum
from collections.abc import Mapping
from typing import Any

import orjson
import pydantic_core
import typing_extensions
from jsonschema import Draft202012Validator
from pydantic import ConfigDict, TypeAdapter, ValidationError

from sktypes._identity import IdentityCache, ValueCache
from sktypes.errors import ErrorDetail, SktypesError, snippet
from sktypes.hydration._coerce import coerce_schema_strings, enum_classes, enum_name_fix
from sktypes.hydration._errors import (
    Invalid,
    details_from_pydantic,
    json_syntax_message,
    path_of,
)
from sktypes.hydration._partial import partial_schema, partial_type
from sktypes.jsondoc import JsonDocument, thaw
from sktypes.schema import SchemaModel, compat_type, parse, type_adapter
from sktypes.schema._merge import kinds_of
from sktypes.validate import error_message
from sktypes.views import FunctionView, ParameterView, ReturnParameterView

__all__ = [
    "FunctionTarget",
    "JsonSyntax",
    "SchemaTarget",
    "Target",
    "TypeTarget",
    "loads",
    "target_for",
]


class JsonSyntax(Exception):
    """Internal: the text is not JSON (the message says where)."""


def loads(raw: str | bytes) -> Any:
    """Parse strict JSON (orjson; pydantic's parser for integers beyond 64 bits)."""
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        try:
            return pydantic_core.from_json(raw)
        except ValueError:
            raise JsonSyntax(str(exc)) from None


def _internal(exc: BaseException) -> Invalid:
    text = str(exc).splitlines()[0] if str(exc) else ""
    return Invalid([ErrorDetail("$", f"validation failed: {type(exc).__name__}: {text}")])


class Target(abc.ABC):
    """The interface every target kind implements."""

    name = "value"
    accepts_text = False

    @abc.abstractmethod
    def from_json(self, raw: str | bytes, strict: bool) -> Any:
        """Validate JSON text."""

    @abc.abstractmethod
    def from_value(self, value: Any, strict: bool) -> Any:
        """Validate an already-parsed value."""

    def from_partial_json(self, body: str, strict: bool) -> Any:
        """Validate a prefix of clean JSON (pydantic's partial parser drops what is cut)."""
        try:
            value = pydantic_core.from_json(body, allow_partial=True)
        except ValueError as exc:
            raise JsonSyntax(str(exc)) from None
        return self.from_value(value, strict)

    def partial(self) -> Target:
        """The target for prefixes (see :mod:`sktypes.hydration._partial`)."""
        return self


class TypeTarget(Target):
    """A Python type, validated by pydantic (lax unless ``strict``)."""

    def __init__(self, tp: Any, *, is_partial: bool = False) -> None:
        self.tp = tp
        self.adapter: TypeAdapter[Any] = type_adapter(tp)
        self.name = getattr(tp, "__qualname__", None) or repr(tp)
        self.accepts_text = tp is str
        self._is_partial = is_partial
        self._partial: Target | None = None
        self._enums: list[type[enum.Enum]] | None = None

    def from_json(self, raw: str | bytes, strict: bool) -> Any:
        """Validate JSON text with pydantic's ``validate_json``."""
        try:
            return self.adapter.validate_json(raw, strict=strict or None)
        except ValidationError as exc:
            message = json_syntax_message(exc)
            if message is not None:
                raise JsonSyntax(message) from None
            return self._retry(exc, raw, strict)
        except (Exception, RecursionError) as exc:  # a validator raised something else
            raise _internal(exc) from None

    def from_partial_json(self, body: str, strict: bool) -> Any:
        """Validate a prefix in one pass (pydantic's ``experimental_allow_partial``)."""
        try:
            return self.adapter.validate_json(
                body, strict=strict or None, experimental_allow_partial=True
            )
        except ValidationError as exc:
            message = json_syntax_message(exc)
            if message is not None:
                raise JsonSyntax(message) from None
            data = pydantic_core.from_json(body, allow_partial=True)
            raise Invalid(details_from_pydantic(exc, data)) from None
        except (Exception, RecursionError) as exc:
            raise _internal(exc) from None

    def from_value(self, value: Any, strict: bool) -> Any:
        """Validate a parsed value (through JSON, so lax and strict mean what they mean)."""
        try:
            raw = orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS | orjson.OPT_SERIALIZE_NUMPY)
        except (TypeError, orjson.JSONEncodeError):
            return self._python(value, strict)
        try:
            return self.from_json(raw, strict)
        except JsonSyntax:  # pragma: no cover - orjson wrote it
            return self._python(value, strict)

    def _python(self, value: Any, strict: bool) -> Any:
        try:
            return self.adapter.validate_python(value, strict=strict or None)
        except ValidationError as exc:
            raise Invalid(details_from_pydantic(exc, value)) from None
        except (Exception, RecursionError) as exc:
            raise _internal(exc) from None

    def _retry(self, exc: ValidationError, raw: str | bytes, strict: bool) -> Any:
        """Lax mode: enums by member name, then validate again; else report."""
        if not strict:
            if self._enums is None:
                self._enums = enum_classes(self.tp)
            fixed = enum_name_fix(exc, raw, self._enums) if self._enums else None
            if fixed is not None:
                try:
                    return self.adapter.validate_python(fixed)
                except ValidationError as again:
                    raise Invalid(details_from_pydantic(again, fixed)) from None
                except (Exception, RecursionError) as other:
                    raise _internal(other) from None
        raise Invalid(details_from_pydantic(exc, text=raw)) from None

    def partial(self) -> Target:
        """A target for the type's partial twin (all fields optional, recursively)."""
        if self._is_partial:
            return self
        if self._partial is None:
            twin = partial_type(self.tp)
            try:
                self._partial = TypeTarget(twin, is_partial=True) if twin is not self.tp else self
            except SktypesError:
                self._partial = self
        return self._partial


_FORMATS = Draft202012Validator.FORMAT_CHECKER


class SchemaTarget(Target):
    """A JSON Schema: the value is validated with jsonschema and returned as JSON.

    The schema model (:func:`sktypes.schema.parse`) says where lax mode may coerce a
    string, and whether the target takes text as it is.
    """

    def __init__(
        self, schema: Mapping[str, Any] | bool | JsonDocument, name: str = "value"
    ) -> None:
        self.model = parse(schema)
        plain = self.model.document.to_python()
        self.schema = plain
        self.name = name
        self.validator = Draft202012Validator(plain, format_checker=_FORMATS)
        self.accepts_text = kinds_of(self.model.root, _target) == {"string"}
        self._partial: SchemaTarget | None = None

    def from_json(self, raw: str | bytes, strict: bool) -> Any:
        """Parse, then validate against the schema."""
        return self.from_value(loads(raw), strict)

    def from_value(self, value: Any, strict: bool) -> Any:
        """Validate against the schema; in lax mode numeric/boolean strings are coerced."""
        details = self.problems(value)
        if details and not strict:
            for fixed in coerce_schema_strings(self.model.root, value):
                if self.validator.is_valid(fixed):
                    return fixed
        if details:
            raise Invalid(details)
        return value

    def problems(self, value: Any, base: str = "$") -> list[ErrorDetail]:
        """Every way ``value`` breaks the schema, as details (empty when it fits)."""
        try:
            errors = sorted(self.validator.iter_errors(value), key=lambda e: list(map(str, e.path)))
        except (Exception, RecursionError) as exc:  # a broken schema or an unresolvable $ref
            return [ErrorDetail(base, f"the target schema cannot be used: {exc}")]
        out = []
        for err in errors:
            while err.context:
                best = max(err.context, key=lambda e: len(e.absolute_path))
                if len(best.absolute_path) <= len(err.absolute_path):
                    break
                err = best
            out.append(
                ErrorDetail(
                    path_of(err.absolute_path, base), error_message(err), snippet(err.instance)
                )
            )
        return out

    def partial(self) -> Target:
        """The schema relaxed for prefixes."""
        if self._partial is None:
            self._partial = SchemaTarget(partial_schema(self.schema), self.name)
        return self._partial


_PLAIN_TYPES = (str, int, float, bool)
"""Native parameter types whose exact instances pydantic's lax validation returns as they are."""
_IMMUTABLE = frozenset({str, int, float, bool, type(None), bytes})
"""Default values of these types are filled in as they are; others are deep-copied per call."""


class FunctionTarget(Target):
    """A function view: the arguments object → ``dict`` of native values per parameter."""

    def __init__(self, view: FunctionView, *, is_partial: bool = False) -> None:
        self.view = view
        self.name = f"arguments of {view.fully_qualified_name}"
        self._is_partial = is_partial
        self._partial: FunctionTarget | None = None
        fields: dict[str, Any] = {}
        self.schemas: dict[str, SchemaTarget] = {}
        for p in view.parameters:
            tp: Any = Any
            if p.native_type is not None:
                tp = compat_type(p.native_type)
                tp = partial_type(tp) if is_partial else tp
            elif p.schema is not None:
                schema = p.schema.value
                self.schemas[p.name] = SchemaTarget(
                    partial_schema(thaw(schema)) if is_partial else schema
                )
            required = p.is_required and not is_partial
            fields[p.name] = (
                typing_extensions.Required[tp] if required else typing_extensions.NotRequired[tp]
            )
        make: Any = typing_extensions.TypedDict
        arguments = make(f"{view.name}Arguments", fields)
        arguments.__pydantic_config__ = (
            ConfigDict(extra="allow") if view.accepts_extra else ConfigDict(extra="forbid")
        )
        self.inner = TypeTarget(arguments, is_partial=True)
        self.inner.name = self.name
        # every parameter a plain scalar: values already of exactly that type pass as they are
        plain = not is_partial and not view.accepts_extra and not self.schemas
        self._plain: dict[str, type] | None = None
        if plain and all(p.native_type in _PLAIN_TYPES for p in view.parameters):
            self._plain = {p.name: p.native_type for p in view.parameters}
        self._required = frozenset(p.name for p in view.parameters if p.is_required)
        # defaults filled in by _finish: immutable ones as they are, others copied per call
        self._defaults = tuple(
            (p.name, p.default_value, type(p.default_value) not in _IMMUTABLE)
            for p in view.parameters
            if not p.is_required and not is_partial
        )

    def from_json(self, raw: str | bytes, strict: bool) -> Any:
        """Validate the arguments object, then apply defaults."""
        try:
            out = self.inner.from_json(raw, strict)
        except Invalid as exc:
            raise Invalid(exc.details + self._schema_problems(_safe_loads(raw))) from None
        return self._finish(out)

    def from_partial_json(self, body: str, strict: bool) -> Any:
        """Validate a prefix of the arguments object (no defaults: see ``partial``)."""
        try:
            out = self.inner.from_partial_json(body, strict)
        except Invalid as exc:
            data = pydantic_core.from_json(body, allow_partial=True)
            raise Invalid(exc.details + self._schema_problems(data)) from None
        return self._finish(out)

    def plain_arguments(self, value: Any) -> dict[str, Any] | None:
        """The hydrated arguments when no conversion is needed, else ``None``.

        That is when every parameter is a plain ``str``/``int``/``float``/``bool`` and
        every value already has exactly its parameter's type: pydantic would return them
        unchanged, so it is not called. Defaults are applied as by :meth:`from_value`.
        """
        plain = self._plain
        if plain is None or type(value) is not dict or not self._required <= value.keys():
            return None
        for key, item in value.items():
            if type(item) is not plain.get(key):
                return None
        return self._finish(dict(value))

    @property
    def is_plain(self) -> bool:
        """Whether :meth:`plain_arguments` can ever answer (every parameter a plain scalar)."""
        return self._plain is not None

    def from_value(self, value: Any, strict: bool) -> Any:
        """Validate a parsed arguments object, then apply defaults."""
        fast = self.plain_arguments(value)
        if fast is not None:
            return fast
        try:
            out = self.inner.from_value(value, strict)
        except Invalid as exc:
            raise Invalid(exc.details + self._schema_problems(value)) from None
        return self._finish(out)

    def _schema_problems(self, data: Any) -> list[ErrorDetail]:
        if not isinstance(data, dict):
            return []
        out: list[ErrorDetail] = []
        for name, target in self.schemas.items():
            if name in data:
                out.extend(target.problems(data[name], path_of([name])))
        return out

    def _finish(self, out: dict[str, Any]) -> dict[str, Any]:
        if self.schemas:
            problems = self._schema_problems(out)
            if problems:
                raise Invalid(problems)
        for name, default, mutable in self._defaults:
            if name not in out:
                out[name] = copy.deepcopy(default) if mutable else default
        return out

    def partial(self) -> Target:
        """Arguments of a prefix: nothing required, parameter types partial, no defaults."""
        if self._is_partial:
            return self
        if self._partial is None:
            self._partial = FunctionTarget(self.view, is_partial=True)
        return self._partial


def _safe_loads(raw: str | bytes) -> Any:
    try:
        return loads(raw)
    except JsonSyntax:
        return None


# --- dispatch and caches -------------------------------------------------------------

_TYPES: ValueCache[Any, TypeTarget] = ValueCache(2048)
_SCHEMAS: IdentityCache[SchemaModel, dict[str, SchemaTarget]] = IdentityCache(2048)
_VIEWS: IdentityCache[FunctionView, FunctionTarget] = IdentityCache(2048)
"""The same view object again (a kernel function's): found by identity, without hashing."""
_EQUAL_VIEWS: ValueCache[tuple[FunctionView, tuple[int, ...]], FunctionTarget] = ValueCache(2048)
"""An equal view with the same native types (a method bound again): one target."""


def _type_target(tp: Any) -> TypeTarget:
    try:
        hit = _TYPES.get(tp)
    except TypeError:  # unhashable type expression
        return TypeTarget(tp)
    if hit is None:
        hit = _TYPES.put(tp, TypeTarget(tp))
    return hit


def _schema_target(
    schema: Mapping[str, Any] | bool | JsonDocument, name: str = "value"
) -> SchemaTarget:
    model = parse(schema)
    by_name = _SCHEMAS.get(model)
    if by_name is None:
        by_name = _SCHEMAS.put(model, {})
    hit = by_name.get(name)
    if hit is None:
        hit = by_name[name] = SchemaTarget(model.document, name)
    return hit


def function_target(view: FunctionView) -> FunctionTarget:
    """The (cached) target of a function view's arguments."""
    hit = _VIEWS.get(view)
    if hit is not None:
        return hit
    key = (view, tuple(id(p.native_type) for p in view.parameters))
    equal = _EQUAL_VIEWS.get(key)
    if equal is None:
        equal = _EQUAL_VIEWS.put(key, FunctionTarget(view))
    return _VIEWS.put(view, equal)


def _target(ref: Any) -> Any:
    return ref.target


def target_for(target: Any) -> Target:
    """Return the (cached) target for a type, view, or JSON Schema."""
    if isinstance(target, FunctionView):
        return function_target(target)
    if isinstance(target, (ParameterView, ReturnParameterView)):
        if target.native_type is not None:
            return _type_target(target.native_type)
        if target.schema is None:
            return _schema_target({})
        name = target.name if isinstance(target, ParameterView) else "return value"
        return _schema_target(target.schema, name)
    if isinstance(target, JsonDocument):
        return _schema_target(target)
    if isinstance(target, (Mapping, bool)):
        return _schema_target(target)  # a JSON Schema (``true``/``false`` are schemas too)
    return _type_target(target)
