"""Responses: a 2xx body read by the ``Content-Type`` received, an error typed by its status.

:func:`read_result` turns a 2xx response into the call's result. The body is read as its
``Content-Type`` says (JSON parsed, text as ``str``, anything else as ``bytes``), then:

- JSON is checked against the declared schema (drift: see :mod:`._drift`) and hydrated
  into the result type;
- text is the result when the type holds a string (``str``, an enum of strings, ``Any``);
- bytes are the result when the type is ``bytes`` (or ``Any``);
- a body the type cannot hold (XML where a model was declared, an image for a JSON type)
  raises :class:`UnexpectedMediaType` carrying the body and its media type: never a JSON
  decoding error.

:func:`api_error` builds the :class:`ApiError` of a non-2xx response, with ``.parsed`` the
body as the declared response of that status types it.
"""

from __future__ import annotations

import enum
import types
import typing
from collections.abc import Mapping
from typing import Any

import httpx
import orjson
import pydantic
import pydantic.fields

from sktypes.errors import HydrationError
from sktypes.hydration import hydrate
from sktypes.jsondoc import JsonDocument
from sktypes.remote._drift import _is_alias, checked, drift_problems, report
from sktypes.remote._errors import ApiError, DriftProblem, UnexpectedMediaType
from sktypes.remote._media import kind_of
from sktypes.schema import scalar_type_of

__all__ = ["RAW", "api_error", "declared_status", "parse_json", "read_result"]


class _Raw:
    def __repr__(self) -> str:
        return "RAW"


RAW: Any = _Raw()
"""The result type "the body as received": JSON parsed, text as ``str``, else ``bytes``."""

_JSON_FAILED = object()


def _json(content: bytes) -> Any:
    try:
        return orjson.loads(content)
    except orjson.JSONDecodeError:
        return _JSON_FAILED


def read_result(
    operation: str,
    response: httpx.Response,
    target: Any,
    *,
    schema: JsonDocument | None = None,
    strict: bool = False,
    stacklevel: int = 2,
) -> Any:
    """The result of a 2xx ``response`` as ``target`` (``None``: the operation declares no body).

    ``schema``: the declared response schema drift is checked against; ``stacklevel``: the
    frame drift warnings name, counted from the caller of this function (as in
    :func:`warnings.warn`).

    Raises:
        ResponseDriftError: ``strict`` and the body breaks ``schema`` (or the type).
        UnexpectedMediaType: the body is of a media type ``target`` cannot hold.
    """
    if target is None:
        return None
    content = response.content
    kind = kind_of(response.headers.get("content-type", ""))
    if target is RAW:
        return _raw(operation, response, kind, schema, strict, stacklevel + 1)
    if not content:
        if not _holds_none(target):
            report(
                operation, response, [DriftProblem("", "the response has no body", None)], strict
            )
        return None
    if _is_bytes(target):
        return content
    if kind == "json":
        data = _json(content)
        if data is not _JSON_FAILED:
            return _typed(
                operation, response, target, data, content, schema, strict, stacklevel + 1
            )
        if not _holds_str(target):
            raise UnexpectedMediaType(operation, response, _name(target))
        kind = "text"  # declared (or sent) as JSON, but it is text: a string type holds it
    if kind == "text" and _holds_str(target):
        text = response.text
        return _typed(
            operation, response, target, text, orjson.dumps(text), schema, strict, stacklevel + 1
        )
    if _is_any(target):
        return response.text if kind == "text" else content
    raise UnexpectedMediaType(operation, response, _name(target))


def _raw(
    operation: str,
    response: httpx.Response,
    kind: str,
    schema: JsonDocument | None,
    strict: bool,
    stacklevel: int,
) -> Any:
    content = response.content
    if not content:
        return None
    if kind == "json":
        data = _json(content)
        if data is _JSON_FAILED:
            return response.text  # it said JSON; it is text
        report(operation, response, drift_problems(schema, data), strict, stacklevel + 1)
        return data
    return response.text if kind == "text" else content


def _typed(
    operation: str,
    response: httpx.Response,
    target: Any,
    data: Any,
    text: bytes,
    schema: JsonDocument | None,
    strict: bool,
    stacklevel: int,
) -> Any:
    return checked(
        operation,
        response,
        target,
        data,
        schema=schema,
        strict=strict,
        stacklevel=stacklevel + 1,
        text=text,
    )


def parse_json(target: Any, response: httpx.Response) -> Any:
    """Hydrate a JSON response body into ``target`` (no repair: the API is not a model).

    Kept for packages generated before :meth:`ApiClient._call`; new code reads results
    with :func:`read_result`.
    """
    return hydrate(target, response.content, repair=False)


def declared_status(errors: Mapping[str, Any], status_code: int) -> str | None:
    """The key of ``errors`` covering ``status_code``: exact, then ``4XX``, then ``default``."""
    code = str(status_code)
    if code in errors:
        return code
    for key in errors:
        if key.upper() == f"{code[0]}XX":
            return key
    for key in errors:
        if key.lower() == "default":
            return key
    return None


def api_error(
    operation: str, response: httpx.Response, errors: Mapping[str, Any], request: str = ""
) -> ApiError:
    """The :class:`ApiError` of a non-2xx ``response``, its body typed by the declaration.

    ``request``: ``GET /pets/{petId}``, for the message.
    """
    key = declared_status(errors, response.status_code)
    parsed = None
    if key is not None:
        parsed = _declared_body(errors[key], response)
    return ApiError(operation, response, parsed, key, request)


def _declared_body(target: Any, response: httpx.Response) -> Any:
    """The body as ``target`` (a type, or a schema), ``None`` when it is not that."""
    content = response.content
    if target is None or not content:
        return None
    kind = kind_of(response.headers.get("content-type", ""))
    data = _json(content) if kind == "json" else _JSON_FAILED
    if isinstance(target, JsonDocument):
        if data is _JSON_FAILED:
            return None
        return None if drift_problems(target, data) else data
    if _is_bytes(target):
        return content
    try:
        if data is not _JSON_FAILED:
            return hydrate(target, content, repair=False)
        if kind == "text" and _holds_str(target):
            return hydrate(target, orjson.dumps(response.text), repair=False)
    except HydrationError:
        return None
    return None


# --- what a result type can hold ------------------------------------------------------


def _bare(target: Any) -> Any:
    while typing.get_origin(target) is typing.Annotated:
        target = typing.get_args(target)[0]
    return target


def _options(target: Any) -> tuple[Any, ...]:
    target = _bare(target)
    if typing.get_origin(target) in (typing.Union, types.UnionType):
        return tuple(_bare(a) for a in typing.get_args(target))
    return (target,)


def _is_any(target: Any) -> bool:
    return any(o is Any or o is object for o in _options(target))


def _is_bytes(target: Any) -> bool:
    """The raw body (``bytes``), not base64 text read into bytes (``Base64``, ``Base64Bytes``).

    Only constraints (``Field(max_length=...)``) may annotate it: any other metadata reads
    the bytes from something else.
    """
    metadata: list[Any] = []
    while typing.get_origin(target) is typing.Annotated:
        target, *more = typing.get_args(target)
        metadata.extend(more)
    plain = all(isinstance(m, pydantic.fields.FieldInfo) for m in metadata)
    return target in (bytes, bytearray) and plain


def _holds_str(target: Any) -> bool:
    """Whether ``target`` can be a string's value.

    ``str``, a string enum or literal, a type read from a string (dates, UUIDs...), ``Any``.
    """
    for option in _options(target):
        if option is Any or option is object or option is str:
            return True
        if _is_alias(option):
            if _holds_str(option.__value__):
                return True
            continue
        if typing.get_origin(option) is typing.Literal:
            if any(isinstance(v, str) for v in typing.get_args(option)):
                return True
            continue
        if isinstance(option, type):
            if issubclass(option, str):
                return True
            if issubclass(option, enum.Enum) and any(isinstance(m.value, str) for m in option):
                return True
            row = scalar_type_of(option)
            if row is not None and row.kind == "string":
                return True
    return False


def _holds_none(target: Any) -> bool:
    return any(o is None or o is type(None) or o is Any or o is object for o in _options(target))


def _name(target: Any) -> str:
    bare = _bare(target)
    return getattr(bare, "__name__", None) or repr(bare)
