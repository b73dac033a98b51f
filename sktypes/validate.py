"""Check a model's arguments against a function view, reporting every violation."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import ValidationError

from sktypes._identity import IdentityCache, by_identity
from sktypes._quick import Check, compile_check
from sktypes.errors import ArgumentsError, ErrorDetail, snippet
from sktypes.jsondoc import JsonDocument
from sktypes.schema._inline import inline_refs
from sktypes.views import FunctionView

__all__ = [
    "json_path",
    "quick_check",
    "schema_problems",
    "validate_arguments",
    "validator_for",
    "value_problems",
]


def _format_checker() -> FormatChecker:
    """Draft 2020-12 formats, with ``date-time`` and ``time`` as lenient as the hydrator.

    RFC 3339 demands a UTC offset; pydantic (and so :func:`sktypes.hydrate`) also accepts
    naive values such as ``"07:30:00"``. A check stricter than the hydration would reject
    calls the function itself accepts.
    """
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


_FORMATS = _format_checker()
# keyed by the identity of the view's parameters tuple (shared by bound copies of a view):
# hashing a view by value would hash every schema on every call
_VALIDATORS: IdentityCache[tuple[Any, ...], dict[bool, Draft202012Validator]] = IdentityCache()
_QUICK: IdentityCache[tuple[Any, ...], dict[bool, Check | None]] = IdentityCache()
T = TypeVar("T")


def _conforms(value: Any, format: str) -> bool:
    return bool(_FORMATS.conforms(value, format))


def quick_check(view: FunctionView) -> Check | None:
    """The compiled yes-check of the view's arguments schema (``None``: not compilable).

    It says ``True`` only for an arguments dict :func:`validate_arguments` would accept;
    ``False`` means "ask jsonschema" (it may still be valid).
    """
    return _by_parameters(_QUICK, view, _compile_quick)


def validator_for(view: FunctionView) -> Draft202012Validator:
    """Return a (cached) validator for the view's arguments object, formats checked."""
    return _by_parameters(_VALIDATORS, view, _build_validator)


def _compile_quick(view: FunctionView) -> Check | None:
    # the yes-check does not follow $ref: definitions are written in place where exact
    return compile_check(inline_refs(view.parameters_schema), _conforms)


def _build_validator(view: FunctionView) -> Draft202012Validator:
    return Draft202012Validator(view.parameters_schema, format_checker=_FORMATS)


def _by_parameters(
    cache: IdentityCache[tuple[Any, ...], dict[bool, T]],
    view: FunctionView,
    build: Callable[[FunctionView], T],
) -> T:
    """``build(view)``, cached by the identity of the view's parameters tuple."""
    by_extra = cache.get(view.parameters)
    if by_extra is None:
        by_extra = cache.put(view.parameters, {})
    if view.accepts_extra not in by_extra:
        by_extra[view.accepts_extra] = build(view)
    return by_extra[view.accepts_extra]


def json_path(parts: Any) -> str:
    """Render a jsonschema error path as ``$.a[0].b``."""
    out = "$"
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def validate_arguments(view: FunctionView, arguments: Mapping[str, Any]) -> None:
    """Raise :class:`ArgumentsError` listing every way ``arguments`` break ``view``.

    Checks the JSON form of the arguments against the view's parameters schema: missing
    required arguments, unknown ones (unless the function takes ``**kwargs``), types,
    enums, formats and bounds. Each error has a JSON path (``$.date``) and the offending
    input.
    """
    if type(arguments) is dict:
        quick = quick_check(view)
        if quick is not None and quick(arguments):
            return  # the compiled check only says yes when jsonschema would find nothing
    elif not isinstance(arguments, Mapping):
        raise ArgumentsError(
            [ErrorDetail("$", "arguments must be a JSON object", snippet(arguments))],
            summary=f"invalid arguments for {view.fully_qualified_name}",
        )
    errors = sorted(validator_for(view).iter_errors(dict(arguments)), key=_order)
    if errors:
        raise ArgumentsError(
            [_detail(e) for e in errors],
            summary=f"invalid arguments for {view.fully_qualified_name}",
        )


def _order(error: ValidationError) -> tuple[str, str]:
    return (json_path(error.absolute_path), error.message)


def _detail(error: ValidationError) -> ErrorDetail:
    error = _deepest(error)
    path = json_path(error.absolute_path)
    return ErrorDetail(path, error_message(error), snippet(error.instance))


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


_OPTIONS_SAID = 4  # option messages an anyOf/oneOf failure lists


def _cut(message: str, limit: int = 200) -> str:
    return message if len(message) <= limit else message[: limit - 3] + "..."


def _deepest(error: ValidationError) -> ValidationError:
    """For ``anyOf``/``oneOf`` failures, the sub-error that got furthest into the value.

    ``items: [{"sku": ""}]`` against ``list[Item] | None`` fails both options; the useful
    report is ``$.items[0].sku`` (from the list option), not "not valid under any schema".
    """
    while error.context:
        best = max(error.context, key=lambda e: len(e.absolute_path))
        if len(best.absolute_path) <= len(error.absolute_path):
            break
        error = best
    return error


def value_problems(schema: JsonDocument, value: Any) -> list[ErrorDetail]:
    """Every way the JSON ``value`` breaks ``schema`` (empty when it fits).

    The same check as for arguments (formats as lenient as the hydrator), for any value: a
    function's result against its return schema, say. The checkers are built once per
    schema document (kept by identity: a view's schema is the same object on every call).
    A schema that cannot be used (an unresolvable ``$ref``) is one problem at ``$``.
    """
    return [
        ErrorDetail(json_path(where), message, snippet(found))
        for where, message, found in schema_problems(schema, value)
    ]


def schema_problems(schema: JsonDocument, value: Any) -> list[tuple[tuple[Any, ...], str, Any]]:
    """:func:`value_problems` as data: ``(path parts, message, offending value)`` each.

    The path parts are keys and indexes into ``value`` (a JSON pointer's tokens).
    """
    quick, validator = _value_checkers(schema)
    if quick is not None and quick(value):
        return []
    try:
        errors = sorted(validator.iter_errors(value), key=_order)
    except (Exception, RecursionError) as exc:  # a broken schema, not a broken value
        return [((), f"the schema cannot be used: {exc}", value)]
    out = []
    for error in errors:
        error = _deepest(error)
        out.append((tuple(error.absolute_path), error.message, error.instance))
    return out


@by_identity
def _value_checkers(schema: JsonDocument) -> tuple[Check | None, Draft202012Validator]:
    plain = schema.to_python()
    quick = compile_check(inline_refs(plain), _conforms)
    return quick, Draft202012Validator(plain, format_checker=_FORMATS)
