"""Targets: what a hydration produces, behind one small interface.

A target turns JSON text (``from_json``) or an already-parsed JSON value
(``from_value``) into the result, raising :class:`JsonSyntax` when the text is not JSON
and :class:`Invalid` when the value does not fit. Kinds:

- :class:`TypeTarget`: any type pydantic validates (a cached ``TypeAdapter``);
- :class:`SchemaTarget`: a JSON Schema (the schema check; returns the JSON value);
- a function view's arguments: its argument contract
  (:class:`~sktypes.hydration._contract.ContractTarget`).

:func:`~sktypes.hydration._dispatch.target_for` picks one per target object.
"""

from __future__ import annotations

import abc
import enum
from collections.abc import Mapping
from typing import Any

import orjson
import pydantic_core
from pydantic import TypeAdapter, ValidationError

from sktypes.errors import ErrorDetail, HydrationError, SktypesError
from sktypes.hydration._check import SchemaCheck
from sktypes.hydration._coerce import enum_classes, enum_name_fix
from sktypes.hydration._errors import Invalid, details_from_pydantic, json_syntax_message
from sktypes.hydration._float_slots import FloatCheck, float_check
from sktypes.hydration._partial import partial_schema, partial_type
from sktypes.jsondoc import JsonDocument
from sktypes.schema import SchemaModel, type_adapter
from sktypes.schema._kinds import kinds_of

__all__ = [
    "JsonSyntax",
    "SchemaTarget",
    "Target",
    "TypeTarget",
    "loads",
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

    def float_check(self) -> FloatCheck | None:
        """A check that every float of a result is finite, looking only where floats can be.

        ``None``: the target cannot say where (then the answer is scanned for what may
        have become a non-finite float: :class:`~sktypes.hydration._finite.FiniteOnly`).
        """
        return None

    def failure(self, details: list[ErrorDetail], note: str, total: int) -> HydrationError:
        """The error ``hydrate`` raises when the input cannot become this target's value."""
        summary = f"cannot hydrate {self.name}" + (f" ({note})" if note else "")
        return HydrationError(details, summary=summary, total=total)


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
        self._floats: FloatCheck | bool | None = False  # False: not compiled yet

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

    def float_check(self) -> FloatCheck | None:
        """The type's float places, read once from its core schema (:mod:`._float_slots`)."""
        if self._floats is False:
            self._floats = float_check(self.adapter)
        return self._floats if callable(self._floats) else None

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


class SchemaTarget(Target):
    """A JSON Schema: the value is checked (:class:`SchemaCheck`) and returned as JSON.

    The schema model (:func:`sktypes.schema.parse`) says where lax mode may coerce a
    string, and whether the target takes text as it is.
    """

    def __init__(
        self, schema: Mapping[str, Any] | bool | JsonDocument | SchemaModel, name: str = "value"
    ) -> None:
        self.check = SchemaCheck(schema)
        self.model = self.check.model
        self.name = name
        self.accepts_text = kinds_of(self.model.root, _target) == {"string"}
        self._partial: SchemaTarget | None = None

    def from_json(self, raw: str | bytes, strict: bool) -> Any:
        """Parse, then validate against the schema."""
        return self.from_value(loads(raw), strict)

    def from_value(self, value: Any, strict: bool) -> Any:
        """Validate against the schema; in lax mode numeric/boolean strings are coerced."""
        fitted, problems = self.check.fit(value, strict)
        if problems:
            raise Invalid(problems)
        return fitted

    def partial(self) -> Target:
        """The schema relaxed for prefixes."""
        if self._partial is None:
            self._partial = SchemaTarget(partial_schema(self.model.document.to_python()), self.name)
        return self._partial


def _target(ref: Any) -> Any:
    return ref.target
