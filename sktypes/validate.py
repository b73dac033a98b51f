"""Check a model's arguments against a function view, reporting every violation."""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from sktypes.errors import ArgumentsError, ErrorDetail, snippet
from sktypes.views import FunctionView

__all__ = ["json_path", "validate_arguments", "validator_for"]

_FORMATS = Draft202012Validator.FORMAT_CHECKER  # draft 2020-12 formats only
_VALIDATORS: weakref.WeakKeyDictionary[FunctionView, Draft202012Validator] = (
    weakref.WeakKeyDictionary()
)


def validator_for(view: FunctionView) -> Draft202012Validator:
    """Return a (cached) validator for the view's arguments object, formats checked."""
    hit = _VALIDATORS.get(view)
    if hit is None:
        hit = Draft202012Validator(view.parameters_schema, format_checker=_FORMATS)
        _VALIDATORS[view] = hit
    return hit


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
    if not isinstance(arguments, Mapping):
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
    return ErrorDetail(json_path(error.absolute_path), error.message, snippet(error.instance))


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
