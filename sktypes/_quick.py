"""A quick, compiled yes-check for JSON Schema, in front of the full validator.

:func:`compile_check` turns a schema into a predicate that answers ``True`` only when the
full draft 2020-12 validation would find no error. ``False`` means "not sure": the caller
then runs jsonschema, which reports the real errors (or finds none). Schemas using keywords
outside the subset below are not compiled at all (``None``), so correctness never depends
on this module knowing every keyword — only on it being right about the ones it accepts.

Compiled: ``type`` (one or a list), ``enum``/``const`` (exact-type matches), numeric bounds,
``minLength``/``maxLength``, ``pattern``, ``format`` (through the caller's format checker),
``items`` (a schema), ``minItems``/``maxItems``, ``properties``/``required``/
``additionalProperties``, ``minProperties``/``maxProperties``, ``anyOf``, ``allOf``, boolean
schemas, and the annotation keywords jsonschema ignores (``description``, ``default``...).
Everything else (``$ref``, ``oneOf``, ``not``, ``prefixItems``, ``uniqueItems``,
``patternProperties``, conditionals...) makes the schema uncompiled.

Typical function parameters (strings, numbers, enums, flat objects, lists of them) take the
compiled path: a call's arguments are checked in about a microsecond instead of the tens of
jsonschema's iterative validation.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sized
from typing import Any

__all__ = ["Check", "compile_check"]

Check = Callable[[Any], bool]
FormatCheck = Callable[[Any, str], bool]

_ANNOTATIONS = frozenset(
    {
        "description",
        "title",
        "default",
        "examples",
        "deprecated",
        "readOnly",
        "writeOnly",
        "$comment",
        "$schema",
        "contentMediaType",
        "contentEncoding",
    }
)
_SCALARS = (str, int, float, bool, type(None))


def _is_integer(v: Any) -> bool:
    if isinstance(v, bool):
        return False
    return isinstance(v, int) or (isinstance(v, float) and v.is_integer())


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


_TYPES: dict[str, Check] = {
    "string": lambda v: isinstance(v, str),
    "integer": _is_integer,
    "number": _is_number,
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
}


class _Unsupported(Exception):
    """The schema uses a keyword this module does not compile."""


def compile_check(schema: Any, formats: FormatCheck | None = None) -> Check | None:
    """Return a yes-check for ``schema``, or ``None`` when it uses an uncompiled keyword.

    Args:
        schema: a JSON Schema (draft 2020-12), a mapping or a boolean.
        formats: ``(value, format) -> bool`` — the full validator's format checker; without
            it, schemas with ``format`` are not compiled.
    """
    try:
        return _compile(schema, formats, 0)
    except _Unsupported:
        return None


def _compile(schema: Any, formats: FormatCheck | None, depth: int) -> Check:
    if schema is True:
        return _always
    if schema is False or not isinstance(schema, Mapping) or depth > 32:
        raise _Unsupported
    checks: list[Check] = []
    for key, value in schema.items():
        if key in _ANNOTATIONS or key.startswith("x-"):
            continue
        maker = _KEYWORDS.get(key)
        if maker is None:
            raise _Unsupported
        check = maker(value, schema, formats, depth)
        if check is not None:
            checks.append(check)
    if not checks:
        return _always
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        first, second = checks
        return lambda v: first(v) and second(v)
    return _every(tuple(checks))


def _every(checks: tuple[Check, ...]) -> Check:
    def run(v: Any) -> bool:
        for check in checks:  # noqa: SIM110 - a loop is faster than all() over a generator
            if not check(v):
                return False
        return True

    return run


def _always(_: Any) -> bool:
    return True


Maker = Callable[[Any, Mapping[str, Any], "FormatCheck | None", int], "Check | None"]


def _type(value: Any, *_: Any) -> Check:
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not all(isinstance(n, str) and n in _TYPES for n in names):
        raise _Unsupported
    if len(names) == 1:
        return _TYPES[names[0]]
    checks = [_TYPES[n] for n in names]
    return lambda v: any(c(v) for c in checks)


def _same(a: Any, b: Any) -> bool:
    """Exactly equal scalars (``1`` is not ``True``); containers are left to jsonschema."""
    return type(a) is type(b) and isinstance(a, _SCALARS) and a == b


def _enum(value: Any, *_: Any) -> Check:
    if not isinstance(value, list):
        raise _Unsupported
    options = list(value)
    return lambda v: any(_same(v, o) for o in options)


def _const(value: Any, *_: Any) -> Check:
    return lambda v: _same(v, value)


def _bound(op: Callable[[Any, Any], bool]) -> Maker:
    def make(limit: Any, *_: Any) -> Check:
        if not _is_number(limit):
            raise _Unsupported
        return lambda v: not _is_number(v) or op(v, limit)

    return make


def _length(op: Callable[[int, int], bool], kind: type[Sized]) -> Maker:
    def make(limit: Any, *_: Any) -> Check:
        if not isinstance(limit, int) or isinstance(limit, bool):
            raise _Unsupported
        return lambda v: not isinstance(v, kind) or op(len(v), limit)

    return make


def _pattern(value: Any, *_: Any) -> Check:
    if not isinstance(value, str):
        raise _Unsupported
    try:
        search = re.compile(value).search
    except re.error:
        raise _Unsupported from None
    return lambda v: not isinstance(v, str) or search(v) is not None


def _format(value: Any, _schema: Any, formats: FormatCheck | None, _depth: int) -> Check:
    if formats is None or not isinstance(value, str):
        raise _Unsupported
    check = formats
    return lambda v: check(v, value)


def _items(value: Any, _schema: Any, formats: FormatCheck | None, depth: int) -> Check:
    item = _compile(value, formats, depth + 1)
    if item is _always:
        return _always
    return lambda v: not isinstance(v, list) or all(item(x) for x in v)


def _properties(
    value: Any, schema: Mapping[str, Any], formats: FormatCheck | None, depth: int
) -> Check:
    if not isinstance(value, Mapping):
        raise _Unsupported
    props = {k: _compile(s, formats, depth + 1) for k, s in value.items()}
    extra_schema = schema.get("additionalProperties", True)
    closed = extra_schema is False
    extra = None if extra_schema is True or closed else _compile(extra_schema, formats, depth + 1)

    def check(v: Any) -> bool:
        if not isinstance(v, dict):
            return True
        for key, item in v.items():
            prop = props.get(key)
            if prop is not None:
                if not prop(item):
                    return False
            elif closed or (extra is not None and not extra(item)):
                return False
        return True

    return check


def _additional(
    value: Any, schema: Mapping[str, Any], formats: FormatCheck | None, depth: int
) -> Check | None:
    if "properties" in schema:
        return None  # handled with the properties
    if value is False:
        return lambda v: not isinstance(v, dict) or not v
    extra = _compile(value, formats, depth + 1)
    return lambda v: not isinstance(v, dict) or all(extra(x) for x in v.values())


def _required(value: Any, *_: Any) -> Check:
    if not isinstance(value, list) or not all(isinstance(k, str) for k in value):
        raise _Unsupported
    keys = frozenset(value)
    return lambda v: not isinstance(v, dict) or keys <= v.keys()


def _any_of(value: Any, _schema: Any, formats: FormatCheck | None, depth: int) -> Check:
    if not isinstance(value, list) or not value:
        raise _Unsupported
    options = [_compile(s, formats, depth + 1) for s in value]
    return lambda v: any(o(v) for o in options)


def _all_of(value: Any, _schema: Any, formats: FormatCheck | None, depth: int) -> Check:
    if not isinstance(value, list) or not value:
        raise _Unsupported
    parts = [_compile(s, formats, depth + 1) for s in value]
    return lambda v: all(p(v) for p in parts)


_KEYWORDS: dict[str, Maker] = {
    "type": _type,
    "enum": _enum,
    "const": _const,
    "minimum": _bound(lambda v, m: v >= m),
    "maximum": _bound(lambda v, m: v <= m),
    "exclusiveMinimum": _bound(lambda v, m: v > m),
    "exclusiveMaximum": _bound(lambda v, m: v < m),
    "minLength": _length(lambda n, m: n >= m, str),
    "maxLength": _length(lambda n, m: n <= m, str),
    "minItems": _length(lambda n, m: n >= m, list),
    "maxItems": _length(lambda n, m: n <= m, list),
    "minProperties": _length(lambda n, m: n >= m, dict),
    "maxProperties": _length(lambda n, m: n <= m, dict),
    "pattern": _pattern,
    "format": _format,
    "items": _items,
    "properties": _properties,
    "additionalProperties": _additional,
    "required": _required,
    "anyOf": _any_of,
    "allOf": _all_of,
}
