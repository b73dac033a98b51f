"""Arguments for one operation, built from the spec: its examples when they validate, else drawn.

:func:`arguments` returns the first candidate that validates against the view's parameters
schema (jsonschema, formats checked) and keeps to what HTTP can carry (below):

1. **examples**: every value from the spec's ``examples``/``default``/``const``/``enum``,
   the required members only, and, where a leaf has none, the plainest value its type and
   constraints allow (the smallest number in range, a string of the least length, a sample
   of its ``format``, a match of its ``pattern``);
2. **drawn**: instances of the schema from hypothesis-jsonschema, seeded (the same draw on
   every run), the first of them within the transport limits.

Transport limits (HTTP's, not the generator's): header and cookie values are printable
ASCII, path parameters are non-empty and neither hold ``/`` nor are ``.`` or ``..`` (the
server decodes ``%2F`` and URL normalisation removes dot segments), query values are not
empty strings unless the spec allows empty values, form bodies hold no ``null`` and no empty
array (the encoding has no spelling for them), and a raw body is not empty.
"""

from __future__ import annotations

import datetime
import json
import random
import re
from collections.abc import Mapping
from typing import Any

import jsonschema
from hypothesis import HealthCheck, Phase, find, settings
from hypothesis import strategies as st
from hypothesis.errors import HypothesisException

import sktypes as sk
from sktypes.openapi import Operation
from tests.instances import instances

__all__ = ["arguments", "within_limits"]

_NOTHING = object()
_FORMATS: dict[str, Any] = {
    "date-time": "2024-01-02T03:04:05Z",
    "date": "2024-01-02",
    "time": "03:04:05Z",
    "email": "user@example.com",
    "idn-email": "user@example.com",
    "uri": "https://example.com/a",
    "url": "https://example.com/a",
    "iri": "https://example.com/a",
    "uri-reference": "https://example.com/a",
    "hostname": "example.com",
    "ipv4": "192.0.2.1",
    "ipv6": "2001:db8::1",
    "uuid": "3fa85f64-5717-4562-b3fc-2c963f66afa6",
    "byte": "c2t0eXBlcw==",
    "duration": "P1D",
    "binary": "sktypes",
}


class _Builder:
    def __init__(self, root: Mapping[str, Any], seed: int) -> None:
        self.defs: Mapping[str, Any] = root.get("$defs") or {}
        self.seed = seed
        self.depth = 0

    def value(self, schema: Any, *, top: bool = False) -> Any:
        if schema is True or schema is None:
            return "sktypes"
        if not isinstance(schema, Mapping):
            return _NOTHING
        ref = schema.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            if self.depth > 12:
                return _NOTHING
            self.depth += 1
            try:
                target = self.defs.get(ref[len("#/$defs/") :])
                rest = {k: v for k, v in schema.items() if k != "$ref"}
                return self.value({**target, **rest} if rest else target)
            finally:
                self.depth -= 1
        for key in ("examples",):
            found = schema.get(key)
            if isinstance(found, list) and found:
                return found[0]
        for key in ("example", "default", "const"):
            if key in schema:
                return schema[key]
        if isinstance(schema.get("enum"), list) and schema["enum"]:
            return next((v for v in schema["enum"] if v is not None), schema["enum"][0])
        if "allOf" in schema:
            merged: dict[str, Any] = {k: v for k, v in schema.items() if k != "allOf"}
            for member in schema["allOf"]:
                member = self.resolve(member)
                for k, v in member.items():
                    if k == "properties":
                        merged["properties"] = {**merged.get("properties", {}), **v}
                    elif k == "required":
                        merged["required"] = [*merged.get("required", []), *v]
                    else:
                        merged.setdefault(k, v)
            return self.value(merged)
        for key in ("oneOf", "anyOf"):
            options = schema.get(key)
            if isinstance(options, list) and options:
                plain = [o for o in options if self.resolve(o).get("type") != "null"]
                for option in plain or options:
                    found = self.value(option)
                    if found is not _NOTHING:
                        return found
                return _NOTHING
        kind = schema.get("type")
        if isinstance(kind, list):
            kinds = [k for k in kind if k != "null"] or kind
            kind = kinds[0] if kinds else None
        if kind is None and "properties" in schema:
            kind = "object"
        if kind == "object" or (kind is None and top):
            out: dict[str, Any] = {}
            props = schema.get("properties") or {}
            required = set(schema.get("required") or [])
            for name, sub in props.items():
                resolved = self.resolve(sub)
                explicit = any(k in resolved for k in ("examples", "example", "default"))
                if name in required or (top and explicit):
                    found = self.value(sub)
                    if found is _NOTHING:
                        return _NOTHING
                    out[name] = found
            for name in required - set(props):
                out[name] = "sktypes"
            return out
        if kind == "array":
            items = schema.get("items", True)
            count = max(int(schema.get("minItems", 1)), 1)
            if schema.get("maxItems") == 0:
                return []
            one = self.value(items)
            if one is _NOTHING:
                return [] if not schema.get("minItems") else _NOTHING
            if count > 1 and schema.get("uniqueItems"):
                return _NOTHING
            return [one] * count
        if kind in ("integer", "number"):
            return self.number(schema, kind)
        if kind == "boolean":
            return True
        if kind == "null":
            return None
        if kind == "string" or kind is None:
            return self.string(schema)
        return _NOTHING

    def resolve(self, schema: Any) -> Mapping[str, Any]:
        seen = 0
        while isinstance(schema, Mapping) and isinstance(schema.get("$ref"), str) and seen < 20:
            seen += 1
            schema = self.defs.get(schema["$ref"][len("#/$defs/") :], {})
        return schema if isinstance(schema, Mapping) else {}

    def number(self, schema: Mapping[str, Any], kind: str) -> Any:
        low = schema.get("minimum")
        if isinstance(schema.get("exclusiveMinimum"), (int, float)):
            low = schema["exclusiveMinimum"] + 1
        high = schema.get("maximum")
        if isinstance(schema.get("exclusiveMaximum"), (int, float)):
            high = schema["exclusiveMaximum"] - 1
        value: Any = low if low is not None else (min(1, high) if high is not None else 1)
        step = schema.get("multipleOf")
        if isinstance(step, (int, float)) and step:
            value = (int(value / step) + (1 if value % step else 0)) * step
        if kind == "integer":
            value = int(value)
        return value

    def string(self, schema: Mapping[str, Any]) -> Any:
        pattern = schema.get("pattern")
        if isinstance(pattern, str):
            return self.match(pattern, schema)
        fmt = schema.get("format")
        if fmt in _FORMATS:
            return _FORMATS[fmt]
        low = int(schema.get("minLength", 1))
        high = schema.get("maxLength")
        length = max(low, 1) if high is None else min(max(low, 1), int(high))
        return ("sktypes" * (length // 7 + 1))[:length]

    def match(self, pattern: str, schema: Mapping[str, Any]) -> Any:
        try:
            compiled = re.compile(pattern)
        except re.error:
            return _NOTHING
        low, high = int(schema.get("minLength", 0)), schema.get("maxLength")

        def fits(text: str) -> bool:
            return len(text) >= low and (high is None or len(text) <= int(high))

        try:
            return find(
                st.from_regex(compiled, fullmatch=False).filter(fits),
                lambda t: bool(t) and all(0x20 < ord(c) < 0x7F for c in t),
                settings=settings(
                    max_examples=200,
                    database=None,
                    phases=[Phase.generate],
                    suppress_health_check=list(HealthCheck),
                ),
                random=random.Random(self.seed),
            )
        except (HypothesisException, ValueError):
            return _NOTHING


def _validator(schema: Mapping[str, Any]) -> jsonschema.protocols.Validator:
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def _raw_parameter_allows_empty(raw: Mapping[str, Any], name: str) -> bool:
    return any(
        isinstance(p, Mapping) and p.get("name") == name and p.get("allowEmptyValue") is True
        for p in raw.get("parameters") or ()
    )


def within_limits(operation: Operation, args: Mapping[str, Any], raw: Mapping[str, Any]) -> bool:
    """Whether HTTP can carry ``args`` as the spec says (module docstring)."""
    where = {p.argument: p for p in operation.parameters}
    for name, value in args.items():
        param = where.get(name)
        if param is None:
            continue
        texts = _texts(value)
        if param.location in ("header", "cookie") and not all(_printable(t) for t in texts):
            return False
        if param.location == "path" and any(not t or "/" in t or t in (".", "..") for t in texts):
            return False
        if (
            param.location == "query"
            and value in ("", [], {})
            and not _raw_parameter_allows_empty(raw, param.name)
        ):
            return False
    body = operation.request_body
    if body is not None and body.argument is not None and body.argument in args:
        value = args[body.argument]
        ctype = body.content_type.lower()
        if ("form" in ctype) and isinstance(value, dict):
            return not any(v is None or v == [] for v in value.values())
        if not (ctype.endswith("json") or ctype == "*/*") and value in ("", b""):
            return False
    return True


def _texts(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [*map(str, value), *(t for v in value.values() for t in _texts(v))]
    if isinstance(value, list):
        return [t for v in value for t in _texts(v)]
    return [json.dumps(value)]


def _printable(text: str) -> bool:
    return all(0x20 <= ord(c) < 0x7F for c in text) and text == text.strip()


def arguments(
    view: sk.FunctionView, operation: Operation, raw: Mapping[str, Any], seed: int
) -> tuple[str, dict[str, Any]]:
    """``(how, arguments)``: ``how`` is ``"examples"`` or ``"drawn"`` (module docstring).

    Raises:
        ValueError: no candidate validates (the message says why).
    """
    schema = view.parameters_schema
    validator = _validator(schema)
    built = _Builder(schema, seed).value(schema, top=True)
    if isinstance(built, dict):
        built = _jsonable(built)
        if validator.is_valid(built) and within_limits(operation, built, raw):
            return "examples", built
    strategy = instances(schema).filter(lambda a: within_limits(operation, a, raw))
    try:
        drawn = find(
            strategy,
            lambda _: True,
            settings=settings(
                max_examples=100,
                database=None,
                phases=[Phase.generate],
                deadline=None,
                suppress_health_check=list(HealthCheck),
            ),
            random=random.Random(seed),
        )
    except (HypothesisException, ValueError, RecursionError) as exc:
        raise ValueError(f"no arguments could be built: {type(exc).__name__}: {exc}") from None
    return "drawn", drawn


def _jsonable(value: Any) -> Any:
    """Spec examples as JSON data (YAML may have turned a date into a ``date``)."""
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    return value
