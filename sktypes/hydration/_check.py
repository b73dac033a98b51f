"""The schema check: whether a JSON value fits a JSON Schema, and where and why it does not.

One :class:`SchemaCheck` per schema, compiled once from its schema model
(:func:`sktypes.schema.parse`):

- a compiled yes-check (:mod:`sktypes._quick`) answers most values in about a microsecond;
- jsonschema (draft 2020-12) runs only when the yes-check cannot say yes, and finds every
  problem;
- formats are checked as the hydrator reads them: ``date-time`` and ``time`` without a UTC
  offset are accepted (pydantic accepts them, so refusing them would refuse calls the
  function itself accepts);
- in lax mode, numeric and boolean strings are coerced where the schema wants a number, an
  integer or a boolean (:func:`~sktypes.hydration._coerce.coerce_schema_strings`).

Problems are :class:`~sktypes.errors.ErrorDetail` values at JSON paths over the data: for
``anyOf``/``oneOf`` the sub-problem that got furthest into the value; a missing member at its
own path (``required property missing``); each member ``additionalProperties: false`` refuses
at its own path (``unknown property (not allowed here)``).

The argument contract (:mod:`._contract`) decides with it; schema targets of ``hydrate`` and
results checked against a return schema use it as well: there is one schema check.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from sktypes._quick import Check, compile_check
from sktypes.errors import ErrorDetail, snippet
from sktypes.hydration._coerce import coerce_schema_strings
from sktypes.hydration._errors import join_path, path_of
from sktypes.jsondoc import JsonDocument
from sktypes.schema import SchemaModel, inline_refs, parse

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator, FormatChecker
    from jsonschema.exceptions import ValidationError

__all__ = ["MISSING_MEMBER", "NO_FIT", "UNKNOWN_MEMBER", "SchemaCheck", "conforms"]

NO_FIT: Any = object()
"""What :meth:`SchemaCheck.fitting` returns for a value that does not fit."""

MISSING_MEMBER = "required property missing"
"""What a member an object schema requires, and the value lacks, is reported as."""
UNKNOWN_MEMBER = "unknown property (not allowed here)"
"""What a member an object schema does not allow is reported as."""


@functools.cache
def _format_checker() -> FormatChecker:
    """Draft 2020-12 formats, with ``date-time`` and ``time`` as lenient as the hydrator."""
    from jsonschema import Draft202012Validator, FormatChecker

    checker = FormatChecker(formats=())
    checker.checkers = dict(Draft202012Validator.FORMAT_CHECKER.checkers)
    checker.checks("date-time", raises=ValueError)(_is_date_time)
    checker.checks("time", raises=ValueError)(_is_time)
    checker.checks("byte", raises=ValueError)(_is_base64)
    return checker


_BASE64 = re.compile(r"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$")


def _is_base64(value: object) -> bool:
    """OpenAPI's ``format: byte``: base64 text (RFC 4648 §4, padded)."""
    return not isinstance(value, str) or _BASE64.match(value) is not None


def _is_date_time(value: object) -> bool:
    return not isinstance(value, str) or bool(dt.datetime.fromisoformat(value))


def _is_time(value: object) -> bool:
    return not isinstance(value, str) or bool(dt.time.fromisoformat(value))


def conforms(value: Any, format: str) -> bool:
    """Whether ``value`` has ``format``, as the schema check reads formats."""
    return bool(_format_checker().conforms(value, format))


class SchemaCheck:
    """The compiled check of one JSON Schema.

    Args:
        schema: a JSON Schema (a mapping, a ``JsonDocument``, ``True``/``False``) or its
            parsed :class:`~sktypes.schema.SchemaModel`.
    """

    __slots__ = ("_validator", "model", "quick")

    def __init__(self, schema: Mapping[str, Any] | bool | JsonDocument | SchemaModel) -> None:
        self.model = schema if isinstance(schema, SchemaModel) else parse(schema)
        plain = self.model.document.to_python()
        # the yes-check does not follow $ref: definitions are written in place where exact
        self.quick: Check | None = compile_check(inline_refs(plain), conforms)
        self._validator: Draft202012Validator | None = None

    @property
    def validator(self) -> Draft202012Validator:
        """The full jsonschema validator (built on first use: most values never need it)."""
        if self._validator is None:
            from jsonschema import Draft202012Validator

            self._validator = Draft202012Validator(
                self.model.document.to_python(), format_checker=_format_checker()
            )
        return self._validator

    def is_valid(self, value: Any) -> bool:
        """Whether ``value`` fits the schema (a schema that cannot be used fits nothing)."""
        quick = self.quick
        if quick is not None and quick(value):
            return True
        try:
            return bool(self.validator.is_valid(value))
        except (Exception, RecursionError):  # a broken schema, not a broken value
            return False

    def fitting(self, value: Any, strict: bool) -> Any:
        """``value`` as the schema takes it, or :data:`NO_FIT`.

        In lax mode (``strict=False``) numeric and boolean strings are coerced where the
        schema wants numbers or booleans: the first coerced copy that fits is the answer.
        """
        if self.is_valid(value):
            return value
        if not strict:
            for candidate in coerce_schema_strings(self.model.root, value):
                if self.is_valid(candidate):
                    return candidate
        return NO_FIT

    def fit(
        self, value: Any, strict: bool, *, members: bool = True
    ) -> tuple[Any, list[ErrorDetail]]:
        """``value`` as the schema takes it, and what remains wrong with it (empty: it fits).

        As :meth:`fitting`; when no coerced copy fits, the problems are those of the first
        coerced copy (what still breaks once the strings are read). ``members``: see
        :meth:`problems`.
        """
        fitted = self.fitting(value, strict)
        if fitted is not NO_FIT:
            return fitted, []
        if not strict:
            candidates = coerce_schema_strings(self.model.root, value)
            if candidates:
                value = candidates[0]
        return value, self.problems(value, members=members)

    def problems(self, value: Any, base: str = "$", *, members: bool = True) -> list[ErrorDetail]:
        """Every way ``value`` breaks the schema (empty when it fits), paths under ``base``.

        ``members=False`` leaves out the missing and unknown members of the value itself
        (the root object): the argument contract reports those as arguments.
        """
        quick = self.quick
        if quick is not None and quick(value):
            return []
        try:
            errors = list(self.validator.iter_errors(value))
        except (Exception, RecursionError) as exc:  # a broken schema or an unresolvable $ref
            return [ErrorDetail(base, f"the schema cannot be used: {snippet(str(exc), 200)}")]
        out = _details(errors, base, members)
        out.sort(key=lambda d: (d.path, d.message))
        return out

    def located(self, value: Any) -> list[tuple[tuple[Any, ...], str, Any]]:
        """Every way ``value`` breaks the schema as ``(path parts, message, offending value)``.

        The path parts are keys and indexes into ``value``; for ``anyOf``/``oneOf`` the
        sub-problem that got furthest into the value. A schema that cannot be used is one
        problem at the root.
        """
        quick = self.quick
        if quick is not None and quick(value):
            return []
        try:
            errors = sorted(
                self.validator.iter_errors(value),
                key=lambda e: (path_of(e.absolute_path), e.message),
            )
        except (Exception, RecursionError) as exc:  # a broken schema or an unresolvable $ref
            return [((), f"the schema cannot be used: {exc}", value)]
        deepest = [_deepest(e) for e in errors]
        return [(tuple(e.absolute_path), error_message(e), e.instance) for e in deepest]


def _details(errors: Iterable[ValidationError], base: str, members: bool) -> list[ErrorDetail]:
    out: list[ErrorDetail] = []
    seen: set[tuple[str, str]] = set()
    for error in errors:
        error = _deepest(error)
        parts = list(error.absolute_path)
        if error.validator in ("required", "additionalProperties") and isinstance(
            error.instance, Mapping
        ):
            if not parts and not members:
                continue
            where = path_of(parts, base)
            if error.validator == "required":
                names = [n for n in error.validator_value if n not in error.instance]
                message = MISSING_MEMBER
            elif error.validator_value is False:
                names = _unknown_members(error.schema, error.instance)
                message = UNKNOWN_MEMBER
            else:
                names = []
            if names:
                for name in names:
                    if (where, name) not in seen:
                        seen.add((where, name))
                        out.append(ErrorDetail(join_path(where, str(name)), message))
                continue
        out.append(ErrorDetail(path_of(parts, base), error_message(error), snippet(error.instance)))
    return out


def _unknown_members(schema: Any, instance: Mapping[str, Any]) -> list[str]:
    """The members of ``instance`` that ``schema``'s ``properties`` and patterns do not name."""
    if not isinstance(schema, Mapping):
        return []
    named = schema.get("properties") or {}
    patterns = list(schema.get("patternProperties") or {})
    return [
        key for key in instance if key not in named and not any(re.search(p, key) for p in patterns)
    ]


def _deepest(error: ValidationError) -> ValidationError:
    """For ``anyOf``/``oneOf`` failures, the sub-error that tells what went wrong.

    ``items: [{"sku": ""}]`` against ``list[Item] | None`` fails both options; the useful
    report is ``$.items[0].sku`` (from the list option, which got furthest into the value),
    not "not valid under any schema". ``"someday"`` against ``date | None`` fails both at
    the same place: the error stays the ``anyOf``, whose message (:func:`error_message`)
    says what each option wanted.
    """
    while error.context:
        best = max(error.context, key=lambda e: len(e.absolute_path))
        if len(best.absolute_path) > len(error.absolute_path):
            error = best
            continue
        break
    return error


_UNSTATED = frozenset(
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
_OPTIONS_SAID = 4  # option messages an anyOf/oneOf failure lists


def error_message(error: ValidationError) -> str:
    """The message of a validation error, with the limit where jsonschema's does not say it.

    ``'abc…' is too long`` becomes ``'abc…' is too long (maxLength: 80)``, and a value no
    option of an ``anyOf``/``oneOf`` admits says what each option refused: a model shown a
    compact manual (or only a name) learns the constraint it broke, stated in full.
    """
    message: str = error.message
    if error.validator in _UNSTATED and str(error.validator_value) not in message:
        message = f"{message} ({error.validator}: {error.validator_value})"
    elif error.validator in ("anyOf", "oneOf") and error.context:
        # "is not valid under any of the given schemas" names no option: say what each
        # refused (a model shown only a name learns that the value must be a date, or null)
        said = list(dict.fromkeys(_cut(error_message(e)) for e in error.context))
        more = f"; and {len(said) - _OPTIONS_SAID} more" if len(said) > _OPTIONS_SAID else ""
        message = f"{message}: {'; '.join(said[:_OPTIONS_SAID])}{more}"
    return message


def _cut(message: str, limit: int = 200) -> str:
    return message if len(message) <= limit else message[: limit - 3] + "..."
