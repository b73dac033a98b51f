"""Response drift: a body that breaks its declared schema is returned as received, and said.

One rule for generated clients, ``kernel_openapi`` and ``sktypes serve``: the JSON body is
checked against the operation's declared response schema with
:func:`sktypes.validate.schema_problems` (what ``serve --drift`` checks results with); each
problem becomes a :class:`ResponseDriftWarning` naming the operation, the JSON pointer and
the value, or, under ``strict=True``, one :class:`ResponseDriftError`.

The value returned is built without coercion and without dropping anything the type can
hold (:func:`lenient`): the parts that validate are typed, the parts that do not keep the
value received (``"12"`` stays a string where an integer was declared, a missing required
field stays missing), and the raw body is on the warning.
"""

from __future__ import annotations

import contextvars
import types
import typing
import warnings
from collections.abc import Sequence
from typing import Any

import httpx
import orjson
import pydantic

from sktypes.errors import HydrationError
from sktypes.hydration import hydrate
from sktypes.jsondoc import JsonDocument
from sktypes.remote._errors import (
    DriftProblem,
    ResponseDriftError,
    ResponseDriftWarning,
    _text,
)
from sktypes.validate import schema_problems

__all__ = [
    "MAX_WARNINGS",
    "checked",
    "drift_problems",
    "hydration_problems",
    "item_response",
    "lenient",
    "quiet_drift",
    "report",
]

MAX_WARNINGS = 20
"""At most this many warnings per response; a last one counts the rest."""

quiet_drift: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "sktypes_quiet_drift", default=False
)
"""Set by a caller that reports drift itself (the MCP server checks results on its own)."""


def _escape(token: Any) -> str:
    return str(token).replace("~", "~0").replace("/", "~1")


def pointer(parts: Sequence[Any]) -> str:
    """The JSON pointer of a path of keys and indexes (``""``: the whole body)."""
    return "".join("/" + _escape(p) for p in parts)


def drift_problems(schema: JsonDocument | None, value: Any) -> list[DriftProblem]:
    """Every way the JSON ``value`` breaks ``schema`` (empty when it fits or has no schema)."""
    if schema is None:
        return []
    return [
        DriftProblem(pointer(path), message, found)
        for path, message, found in schema_problems(schema, value)
    ]


def hydration_problems(error: HydrationError, value: Any) -> list[DriftProblem]:
    """The problems of a hydration that failed where the schema said nothing (a stricter type)."""
    out = []
    for detail in error.errors:
        parts = _parts(detail.path)
        out.append(DriftProblem(pointer(parts), detail.message, _at(value, parts)))
    return out


def _parts(path: str) -> list[Any]:
    """``$.a[0].b`` → ``["a", 0, "b"]`` (hydration's paths)."""
    out: list[Any] = []
    token = ""
    i = 1 if path.startswith("$") else 0
    while i < len(path):
        c = path[i]
        if c == ".":
            if token:
                out.append(token)
            token = ""
        elif c == "[":
            if token:
                out.append(token)
            token = ""
            end = path.find("]", i)
            inner = path[i + 1 : end if end > 0 else len(path)]
            out.append(int(inner) if inner.isdigit() else inner.strip("'\""))
            i = end if end > 0 else len(path)
        else:
            token += c
        i += 1
    if token:
        out.append(token)
    return out


def _at(value: Any, parts: Sequence[Any]) -> Any:
    for part in parts:
        try:
            value = value[part]
        except (KeyError, IndexError, TypeError):
            return None
    return value


def report(
    operation: str,
    response: httpx.Response,
    problems: Sequence[DriftProblem],
    strict: bool,
    stacklevel: int = 2,
    item: int | None = None,
) -> None:
    """Raise (``strict``) or warn about ``problems``; nothing when there are none.

    ``stacklevel`` is :func:`warnings.warn`'s, counted from this function; ``item``: the
    index of a streamed item (``response`` then holds that item: see :func:`item_response`).
    """
    if not problems:
        return
    if strict:
        raise ResponseDriftError(operation, response, problems, item)
    if quiet_drift.get():
        return
    body = _text(response)
    status = response.status_code
    for problem in problems[:MAX_WARNINGS]:
        warning = ResponseDriftWarning(operation, problem, body, status, item)
        warnings.warn(warning, stacklevel=stacklevel)
    if len(problems) > MAX_WARNINGS:
        rest = DriftProblem("", f"{len(problems) - MAX_WARNINGS} more problems", None)
        warnings.warn(
            ResponseDriftWarning(operation, rest, body, status, item), stacklevel=stacklevel
        )


def checked(
    operation: str,
    response: httpx.Response,
    target: Any,
    data: Any,
    *,
    schema: JsonDocument | None,
    strict: bool,
    stacklevel: int = 2,
    text: bytes | None = None,
    found: Sequence[DriftProblem] = (),
    item: int | None = None,
) -> Any:
    """The JSON ``data`` as ``target`` (``None``: as it is), drift reported (the one rule).

    ``data`` is checked against ``schema``, then hydrated into ``target`` (without repair);
    what breaks either (and the problems ``found`` before) is reported by :func:`report`,
    and the value is then :func:`lenient`: nothing dropped, nothing coerced. ``text``: the
    JSON text of ``data``, when at hand (it is hydrated instead of dumping ``data`` again);
    ``found``: problems seen by the caller (one the schema reports at the same place is not
    repeated).
    """
    problems = drift_problems(schema, data)
    said = {p.pointer for p in problems}
    problems = [*(p for p in found if p.pointer not in said), *problems]
    if target is None:
        report(operation, response, problems, strict, stacklevel + 1, item)
        return data
    if not problems:
        try:
            return hydrate(target, text if text is not None else orjson.dumps(data), repair=False)
        except HydrationError as exc:
            problems = hydration_problems(exc, data)
    report(operation, response, problems, strict, stacklevel + 1, item)
    return lenient(target, data)


_FRAMING = {"content-encoding", "content-length", "transfer-encoding"}


def item_response(response: httpx.Response, body: bytes) -> httpx.Response:
    """A response whose body is one part of ``response`` (a streamed item, for drift).

    Status, request and headers are the response's (but those that frame its body).
    """
    headers = [(k, v) for k, v in response.headers.multi_items() if k.lower() not in _FRAMING]
    return httpx.Response(
        response.status_code, headers=headers, content=body, request=response.request
    )


def lenient(target: Any, data: Any) -> Any:
    """``data`` as ``target`` where it fits, as received where it does not (no coercion).

    Models are built with ``model_construct`` from their fields read this way; lists and
    maps item by item; a union takes the first option that validates, else the one whose
    shape fits; anything else that does not validate is the value received.
    """
    try:
        adapter = _adapter(target)
    except Exception:
        return data
    fits, value = _strict(adapter, data)
    if fits:
        return value
    origin = typing.get_origin(target)
    if origin is typing.Annotated:
        return lenient(typing.get_args(target)[0], data)
    if isinstance(target, type) and issubclass(target, pydantic.BaseModel):
        return _model(target, data)
    if origin is typing.Union or origin is types.UnionType:
        return _union(typing.get_args(target), data)
    if origin in (list, Sequence, typing.Sequence) and isinstance(data, list):
        (item,) = typing.get_args(target) or (Any,)
        return [lenient(item, v) for v in data]
    if origin is dict and isinstance(data, dict):
        args = typing.get_args(target)
        value_type = args[1] if len(args) == 2 else Any
        return {k: lenient(value_type, v) for k, v in data.items()}
    if _is_alias(target):
        return lenient(target.__value__, data)
    return data


def _is_alias(target: Any) -> bool:
    """A ``TypeAliasType`` (``typing``'s on 3.12+, ``typing_extensions``' before)."""
    return type(target).__name__ == "TypeAliasType" and hasattr(target, "__value__")


def _model(cls: type[pydantic.BaseModel], data: Any) -> Any:
    if not isinstance(data, dict):
        return data
    by_key: dict[str, tuple[str, Any]] = {}
    for name, info in cls.model_fields.items():
        by_key[info.alias or name] = (name, info.annotation)
        by_key.setdefault(name, (name, info.annotation))
    values: dict[str, Any] = {}
    for key, value in data.items():
        found = by_key.get(key)
        if found is None:
            values[key] = value
        else:
            values[found[0]] = lenient(_field_type(cls, found[0], found[1]), value)
    return cls.model_construct(**values)


def _field_type(cls: type[pydantic.BaseModel], name: str, annotation: Any) -> Any:
    info = cls.model_fields[name]
    if info.metadata:
        return typing.Annotated[(annotation, *info.metadata)]
    return annotation


def _union(options: tuple[Any, ...], data: Any) -> Any:
    for option in options:
        try:
            fits, value = _strict(_adapter(option), data)
        except Exception:
            continue
        if fits:
            return value
    for option in options:
        bare = (
            typing.get_args(option)[0] if typing.get_origin(option) is typing.Annotated else option
        )
        if (
            isinstance(bare, type)
            and issubclass(bare, pydantic.BaseModel)
            and isinstance(data, dict)
        ):
            return _model(bare, data)
        if typing.get_origin(bare) in (list, dict) and isinstance(data, typing.get_origin(bare)):
            return lenient(bare, data)
    return data


def _strict(adapter: pydantic.TypeAdapter[Any], data: Any) -> tuple[bool, Any]:
    """Validate JSON ``data`` without coercion.

    pydantic's strict JSON mode: an ISO date string is a date, ``"12"`` is not an integer.
    """
    try:
        return True, adapter.validate_json(orjson.dumps(data), strict=True)
    except (pydantic.ValidationError, orjson.JSONEncodeError, TypeError, ValueError):
        return False, None


_ADAPTERS: dict[Any, pydantic.TypeAdapter[Any]] = {}


def _adapter(target: Any) -> pydantic.TypeAdapter[Any]:
    try:
        found = _ADAPTERS.get(target)
    except TypeError:  # unhashable
        return pydantic.TypeAdapter(target)
    if found is None:
        found = pydantic.TypeAdapter(target)
        if len(_ADAPTERS) < 4096:
            _ADAPTERS[target] = found
    return found
