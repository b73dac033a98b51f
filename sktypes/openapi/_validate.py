"""Spec validation with openapi-spec-validator, reported as one line with pointer and line.

The validator's own errors carry a path; the best one (``jsonschema.exceptions.best_match``,
the most specific) becomes an :class:`OpenApiError` naming the file, the JSON pointer and,
for text specs, the line. Anything else it raises (a ``referencing`` error, a recursion
error on a pathological document) is reported without a traceback as well.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from typing import Any

from jsonschema.exceptions import ValidationError, best_match
from openapi_spec_validator import (
    OpenAPIV2SpecValidator,
    OpenAPIV30SpecValidator,
    OpenAPIV31SpecValidator,
)
from openapi_spec_validator.validation.validators import SpecValidator

from sktypes import _pointer as pointers
from sktypes.errors import OpenApiError, snippet
from sktypes.openapi._source import Document, line_of

__all__ = ["validate_spec"]

_VALIDATORS: dict[int, type[SpecValidator]] = {
    2: OpenAPIV2SpecValidator,
    30: OpenAPIV30SpecValidator,
    31: OpenAPIV31SpecValidator,
}
_MESSAGE_LIMIT = 160


def _path_options() -> dict[str, Any]:
    """The validator's own resolved-ref cache size (settings exist from version 0.8 on)."""
    try:
        from openapi_spec_validator.settings import OpenAPISpecValidatorSettings
    except ImportError:  # openapi-spec-validator 0.7 (e.g. next to semantic-kernel)
        return {}
    return {"resolved_cache_maxsize": OpenAPISpecValidatorSettings().resolved_cache_maxsize}


def _pointer(path: Iterable[Any]) -> str:
    return pointers.join("", *path)


def validate_spec(doc: Document, version: int) -> None:
    """Validate ``doc`` as the given OpenAPI ``version`` (2, 30 or 31); raise on the first error."""
    from jsonschema_path import SchemaPath

    cls = _VALIDATORS[version]
    try:
        spec = SchemaPath.from_dict(doc.data, base_uri=doc.uri or "", **_path_options())
        errors = cls(spec).iter_errors()
        first = next(errors, None)  # a valid spec costs one pass, as the validator alone
    except RecursionError:
        message = "the validator gave up: spec nested too deeply"
        raise OpenApiError(message, file=doc.display) from None
    except Exception as exc:  # the validator leaks referencing/IO errors: report, don't crash
        raise OpenApiError(
            f"the spec does not validate: {type(exc).__name__}: {snippet(str(exc), 120)}",
            file=doc.display,
        ) from None
    if first is None:
        return
    best = first
    # the most specific part of the first error (looking for more errors would cost another
    # pass of the validator); best_match may trip on the validator's errors: keep the first
    with contextlib.suppress(Exception):
        best = best_match([first]) or first
    _raise(doc, best)


def _raise(doc: Document, error: ValidationError) -> None:
    pointer = _pointer(error.absolute_path) or "/"
    line = line_of(doc.raw(), pointer)
    where = f"{pointer} (line {line})" if line is not None else pointer
    raise OpenApiError(
        f"not a valid OpenAPI document: {snippet(error.message, _MESSAGE_LIMIT)}",
        file=doc.display,
        where=where,
    )
