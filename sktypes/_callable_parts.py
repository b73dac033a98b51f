"""The parts of a Python callable that make its view: hints, docstring, parameters, return.

:func:`sktypes.introspect.function_view` reads a callable through these: type hints (with
``Annotated`` metadata), the docstring (Google, NumPy or reST, through docstring-parser),
each parameter's pydantic ``Field``/default and schema, and the return type (``Awaitable``
and ``AsyncIterator`` unwrapped).
"""

from __future__ import annotations

import collections.abc
import copy
import dataclasses
import inspect
import re
import typing
from collections.abc import Callable
from typing import Any

import docstring_parser
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined, to_jsonable_python

from sktypes._identity import IdentityCache
from sktypes.errors import IntrospectionError
from sktypes.jsondoc import JsonDocument
from sktypes.schema._types import type_schema
from sktypes.views import ParameterView, ReturnParameterView, view_type_of

__all__ = ["native_schema"]


def _hints(func: Callable[..., Any], where: str) -> dict[str, Any]:
    try:
        return typing.get_type_hints(func, include_extras=True)
    except Exception as exc:  # NameError for unresolved strings, TypeError for bad ones
        raise IntrospectionError(f"cannot resolve the type hints: {exc}", where=where) from None


_STYLE_MARKERS = (
    (
        re.compile(r"^\s*(Args|Arguments|Parameters|Returns|Raises|Yields):\s*$", re.M),
        docstring_parser.DocstringStyle.GOOGLE,
    ),
    (re.compile(r"^\s*-{3,}\s*$", re.M), docstring_parser.DocstringStyle.NUMPYDOC),
    (
        re.compile(r"^\s*:(param|returns?|rtype|raises)\b", re.M),
        docstring_parser.DocstringStyle.REST,
    ),
)


def _parse_docstring(text: str) -> docstring_parser.Docstring:
    """Parse with the style the text shows (one parser instead of trying all four)."""
    for pattern, style in _STYLE_MARKERS:
        if pattern.search(text):
            try:
                return docstring_parser.parse(text, style=style)
            except docstring_parser.ParseError:
                break
    return docstring_parser.parse(text)


def _describe(doc: docstring_parser.Docstring) -> str:
    parts = [p for p in (doc.short_description, doc.long_description) if p]
    return "\n\n".join(parts)


@dataclasses.dataclass(slots=True)
class _Meta:
    """What ``Annotated`` metadata and ``Field`` defaults say about a parameter."""

    base: Any
    description: str | None = None
    default: Any = PydanticUndefined
    factory: Callable[[], Any] | None = None


def _split(hint: Any, default: Any) -> _Meta:
    """Separate descriptions and defaults from the type that pydantic should see."""
    meta = _Meta(base=hint)
    extra: list[Any] = []
    if typing.get_origin(hint) is typing.Annotated:
        meta.base = typing.get_args(hint)[0]
        for m in hint.__metadata__:
            if isinstance(m, str):
                meta.description = meta.description or m
            elif isinstance(getattr(m, "documentation", None), str):  # typing_extensions.Doc
                meta.description = meta.description or m.documentation
            elif isinstance(m, FieldInfo):
                extra.append(_absorb_field(meta, m))
            else:
                extra.append(m)
    if isinstance(default, FieldInfo):
        extra.append(_absorb_field(meta, default))
    elif default is not inspect.Parameter.empty:
        meta.default = default
    if extra:
        meta.base = typing.Annotated[(meta.base, *extra)]
    return meta


def _absorb_field(meta: _Meta, field: FieldInfo) -> FieldInfo:
    """Take default and description out of a ``Field``; return the constraints only."""
    if field.description and not meta.description:
        meta.description = field.description
    if field.default is not PydanticUndefined:
        meta.default = field.default
    if field.default_factory is not None:
        meta.factory = typing.cast(Callable[[], Any], field.default_factory)
    if field.default is PydanticUndefined and field.default_factory is None:
        return field
    hit = _CLONES.get(field)
    if hit is not None:
        return hit  # one clone per Field object keeps the per-type schema cache hitting
    clone = copy.copy(field)  # pydantic refuses defaults inside Annotated
    clone.default = PydanticUndefined
    clone.default_factory = None
    return _CLONES.put(field, clone)


_CLONES: IdentityCache[FieldInfo, FieldInfo] = IdentityCache(4096)


def _parameter(param: inspect.Parameter, hint: Any, doc: str | None, where: str) -> ParameterView:
    meta = _split(hint, param.default)
    try:
        base_schema = type_schema(meta.base)
    except IntrospectionError as exc:
        raise IntrospectionError(exc.message, where=f"{where}({param.name})") from None
    required = meta.default is PydanticUndefined and meta.factory is None
    default: Any = None
    schema = base_schema
    if not required:
        default = meta.factory() if meta.factory is not None else meta.default
        try:
            jsonable = to_jsonable_python(default)
        except Exception:  # a default with no JSON form stays out of the schema
            jsonable = PydanticUndefined
        if jsonable is not PydanticUndefined:  # frozen values are reused, not copied
            schema = JsonDocument({**base_schema.value, "default": jsonable})
    return ParameterView(
        name=param.name,
        description=meta.description or doc,
        default_value=default,
        type=view_type_of(base_schema),  # the cached type schema: its model is cached too
        is_required=required,
        native_type=hint,
        schema=schema,
    )


def native_schema(parameter: ParameterView) -> JsonDocument | None:
    """The schema :func:`function_view` gives a parameter of this native type and default.

    ``None`` when the parameter has no native type or its type has no schema. A parameter
    whose ``schema`` equals this says nothing its native type does not: validating the
    native type checks all of it (the argument contract compiles to one pass then).
    """
    if parameter.native_type is None:
        return None
    meta = _split(parameter.native_type, inspect.Parameter.empty)
    try:
        base = type_schema(meta.base)
    except IntrospectionError:
        return None
    if parameter.is_required:
        return base
    try:
        jsonable = to_jsonable_python(parameter.default_value)
    except Exception:  # a default with no JSON form stays out of the schema
        return base
    return JsonDocument({**base.value, "default": jsonable})


_AWAITABLES = {collections.abc.Awaitable, collections.abc.Coroutine}
_ASYNC_ITERS = {
    collections.abc.AsyncIterator,
    collections.abc.AsyncIterable,
    collections.abc.AsyncGenerator,
}


def _return_view(
    func: Callable[..., Any], hint: Any, doc: docstring_parser.Docstring, where: str
) -> ReturnParameterView:
    description = doc.returns.description if doc.returns and doc.returns.description else None
    streaming = False
    origin = typing.get_origin(hint)
    if origin in _AWAITABLES:
        hint = typing.get_args(hint)[-1]
        origin = typing.get_origin(hint)
    if origin in _ASYNC_ITERS:
        hint = typing.get_args(hint)[0] if typing.get_args(hint) else Any
        streaming = True
    if typing.get_origin(hint) is typing.Annotated:
        strings = [m for m in hint.__metadata__ if isinstance(m, str)]
        if strings:
            description = description or strings[0]
            rest = [m for m in hint.__metadata__ if not isinstance(m, str)]
            base = typing.get_args(hint)[0]
            hint = typing.Annotated[(base, *rest)] if rest else base
    if hint is inspect.Signature.empty or hint is None or hint is type(None):
        return ReturnParameterView(description=description, is_streaming=streaming)
    try:
        schema = type_schema(hint, "serialization")
    except IntrospectionError as exc:
        raise IntrospectionError(exc.message, where=f"{where}(return)") from None
    return ReturnParameterView(
        description=description, native_type=hint, schema=schema, is_streaming=streaming
    )
