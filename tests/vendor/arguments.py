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
empty strings unless the spec allows empty values, form bodies are objects holding no
``null`` and no empty array (the encoding has no spelling for them), and a raw body is not
empty.
"""

from __future__ import annotations

import datetime
import json
import random
import re
import urllib.parse
from collections.abc import Mapping
from typing import Any

import jsonschema
from hypothesis import HealthCheck, Phase, find, settings
from hypothesis import strategies as st
from hypothesis.errors import HypothesisException
from hypothesis.errors import Unsatisfiable as HypothesisUnsatisfiable
from referencing.exceptions import Unresolvable

import sktypes as sk
from sktypes.openapi import Operation
from tests.instances import instances
from tests.roundtrip import oracle

__all__ = ["Unsatisfiable", "arguments", "operation_examples", "within_limits"]

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
    def __init__(self, root: Mapping[str, Any], seed: int, *, examples: bool = True) -> None:
        self.defs: Mapping[str, Any] = root.get("$defs") or {}
        self.seed = seed
        self.depth = 0
        self.examples = examples
        """Whether to take the schemas' examples (else defaults, enums, the plainest values)."""

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
        found = schema.get("examples")
        if self.examples and isinstance(found, list) and found:
            return found[0]
        for key in ("example", "default", "const") if self.examples else ("default", "const"):
            if key in schema:
                return schema[key]
        if isinstance(schema.get("enum"), list) and schema["enum"]:
            return next((v for v in schema["enum"] if v is not None), schema["enum"][0])
        if "allOf" in schema:
            rest = {k: v for k, v in schema.items() if k != "allOf"}
            return self.value(_merged(rest, schema["allOf"], self.resolve))
        for key in ("oneOf", "anyOf"):
            options = schema.get(key)
            if isinstance(options, list) and options:
                rest = {k: v for k, v in schema.items() if k not in ("oneOf", "anyOf")}
                plain = [o for o in options if self.resolve(o).get("type") != "null"]
                for option in plain or options:
                    # keywords beside oneOf/anyOf apply to every option (GitHub's
                    # {properties, anyOf: [{required: [pattern]}, ...]})
                    found = self.value(_merged(rest, [option], self.resolve) if rest else option)
                    if found is not _NOTHING:
                        return found
                return _NOTHING
        kind = schema.get("type")
        if isinstance(kind, list):
            kinds = [k for k in kind if k != "null"] or kind
            kind = kinds[0] if kinds else None
        if kind is None and any(k in schema for k in _OBJECT_WORDS):
            kind = "object"  # read as the generator reads it (docs/generate.md)
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


_OBJECT_WORDS = ("properties", "required", "additionalProperties", "minProperties")


def _merged(base: Mapping[str, Any], members: Any, resolve: Any) -> dict[str, Any]:
    """``base`` with each of ``members`` (``allOf``, or one option) merged in."""
    merged: dict[str, Any] = dict(base)
    for member in members:
        for k, v in resolve(member).items():
            if k == "properties":
                merged["properties"] = {**merged.get("properties", {}), **v}
            elif k == "required":
                merged["required"] = [*merged.get("required", []), *v]
            else:
                merged.setdefault(k, v)
    return merged


def _validator(schema: Mapping[str, Any]) -> jsonschema.protocols.Validator:
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    return cls(schema, format_checker=_FORMAT_CHECKER)


_FORMAT_CHECKER = jsonschema.FormatChecker()


@_FORMAT_CHECKER.checks("url")
def _is_url(value: object) -> bool:
    """``url`` (not a JSON Schema format; servers check it as an absolute http(s) URL)."""
    if not isinstance(value, str):
        return True
    try:
        parts = urllib.parse.urlsplit(value)
    except ValueError:  # "https://[YOUR ENDPOINT ID].x.requestbin.com"
        return False
    return parts.scheme in ("http", "https") and bool(re.fullmatch(r"[\w.-]+(:\d+)?", parts.netloc))


_URI = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:(?:[\w\-.~!$&'()*+,;=:@/?#\[\]]|%[0-9A-Fa-f]{2})*")


@_FORMAT_CHECKER.checks("uri")
def _is_uri(value: object) -> bool:
    """``uri`` as RFC 3986 (and Prism's ajv-formats) read it: a scheme, then URI characters.

    jsonschema checks it only with an optional package the project does not install (and
    must not: the library's own format checks would change with it), so an example such as
    Twilio's ``Url: myUrl`` (a relative reference) or ``""`` passed here and Prism refused it.
    """
    return not isinstance(value, str) or (bool(_URI.fullmatch(value)) and value.isascii())


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
        if "form" in ctype:  # form encodings carry an object's fields, nothing else
            return isinstance(value, dict) and not any(v is None or v == [] for v in value.values())
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
    view: sk.FunctionView,
    operation: Operation,
    raw: Mapping[str, Any],
    seed: int,
    given: Mapping[str, Any] | None = None,
) -> tuple[str, dict[str, Any]]:
    """``(how, arguments)``: ``how`` is ``"examples"`` or ``"drawn"`` (module docstring).

    ``given``: the spec's own examples of the operation's parameters and body, by argument
    (:func:`operation_examples`), tried first over the values built from the schemas.

    Raises:
        ValueError: no candidate validates (the message says why).
    """
    schema = view.parameters_schema
    validator, as_generated = _validator(schema), oracle(schema)

    def valid(value: Any) -> bool:
        """Valid for the view, and as the generated types read it (docs/generate.md: a
        schema without ``type`` is the type its keywords belong to)."""
        return bool(validator.is_valid(value) and _lenient(as_generated, value))

    built = _Builder(schema, seed).value(schema, top=True)
    plain = _Builder(schema, seed, examples=False).value(schema, top=True)
    if isinstance(built, dict):
        built = _jsonable(built)
        candidates = [{**built, **_jsonable(dict(given))}] if given else []
        if given:  # the members of the spec's examples that break it given up (Twilio's uri
            # examples "" and "myUrl"): the rest of the example is still sent
            candidates.append(
                _without_breaking(candidates[0], validator, _Builder(schema, seed, examples=False))
            )
        # the spec's examples may break its own schema: then the plainest values
        candidates += [built, _jsonable(plain)] if isinstance(plain, dict) else [built]
        for candidate in candidates:
            if valid(candidate) and within_limits(operation, candidate, raw):
                return "examples", candidate
    strategy = instances(schema).filter(
        lambda a: within_limits(operation, a, raw) and _lenient(as_generated, a)
    )
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
    except HypothesisUnsatisfiable:
        errors = list(validator.iter_errors(built)) if isinstance(built, dict) else []
        said = f"; the spec's own values break it: {_error_line(errors[0])}" if errors else ""
        raise Unsatisfiable(
            "no value satisfies the parameters' schema (hypothesis-jsonschema proves it "
            f"unsatisfiable){said}"
        ) from None
    except (HypothesisException, ValueError, RecursionError) as exc:
        raise ValueError(f"no arguments could be built: {type(exc).__name__}: {exc}") from None
    return "drawn", drawn


def _without_breaking(candidate: dict[str, Any], validator: Any, plain: _Builder) -> dict[str, Any]:
    """``candidate`` with each object argument's member that breaks the schema replaced.

    A member refused by its own schema (a ``format``, a ``pattern``...) takes the plainest
    value that schema allows (``plain``), else is left out; a few rounds, as a repair can
    reveal the next error.
    """
    out = json.loads(json.dumps(candidate))
    for _round in range(3):
        changed = False
        for error in validator.iter_errors(out):
            path = list(error.absolute_path)
            if len(path) < 2 or not isinstance(out.get(path[0]), dict):
                continue
            argument, member = path[0], path[1]
            if member not in out[argument]:
                continue
            stand_in = plain.value(error.schema) if len(path) == 2 else _NOTHING
            if stand_in is _NOTHING or stand_in == out[argument][member]:
                del out[argument][member]
            else:
                out[argument][member] = _jsonable(stand_in)
            changed = True
        if not changed:
            break
    return out


def _lenient(check: Any, value: Any) -> bool:
    """``check.is_valid(value)``, ``True`` where the oracle cannot follow the schema."""
    try:
        return bool(check.is_valid(value))
    except Unresolvable:
        return True


class Unsatisfiable(ValueError):
    """No value satisfies the schema: the spec contradicts itself (the message says where)."""


def _error_line(error: jsonschema.ValidationError) -> str:
    where = "/".join(map(str, error.absolute_path)) or "(root)"
    keyword = "/".join(map(str, error.relative_schema_path))
    return f"{where}: {error.message} ({keyword})"


def _jsonable(value: Any) -> Any:
    """Spec examples as JSON data (YAML may have turned a date into a ``date``)."""
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    return value


def operation_examples(
    operation: Operation, raw: Mapping[str, Any], resolve: Any
) -> dict[str, Any]:
    """The spec's own examples of ``operation``'s parameters and body, by view argument.

    ``raw`` is the operation as the document gives it, ``resolve`` follows a local ``$ref`` of
    the document (a parameter, request body or example given by reference). A parameter's
    ``example`` or first ``examples`` value; the body's media type ``example`` or first
    ``examples`` value (of the media type the client sends).
    """
    out: dict[str, Any] = {}
    by_place = {(p.location, p.name): p.argument for p in operation.parameters}
    for item in raw.get("parameters") or ():
        param = resolve(item)
        argument = by_place.get((param.get("in"), param.get("name")))
        found = _example_of(param, resolve)
        if argument is not None and found is not _NOTHING:
            out[argument] = found
    body = operation.request_body
    if body is not None and body.argument is not None:
        content = (resolve(raw.get("requestBody") or {}).get("content") or {}).get(
            body.content_type
        )
        found = _example_of(content, resolve) if isinstance(content, Mapping) else _NOTHING
        if found is not _NOTHING:
            out[body.argument] = found
    return out


def _example_of(node: Mapping[str, Any], resolve: Any) -> Any:
    if "example" in node:
        return node["example"]
    examples = node.get("examples")
    if isinstance(examples, Mapping):
        for example in examples.values():
            example = resolve(example)
            if isinstance(example, Mapping) and "value" in example:
                return example["value"]
    return _NOTHING
