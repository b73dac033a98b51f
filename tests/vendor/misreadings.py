"""Prism's refusals that are Prism's own misreading of the spec, each with its evidence.

A request Prism refuses is a client-side failure unless the refusal is one of these, checked
against the spec and the arguments sent, never assumed:

- **an ambiguous ``oneOf`` on the wire**: a path, query, header or cookie value whose schema
  is a ``oneOf`` (GitHub's ``workflow_id: oneOf [integer, string]``). The value sent matches
  exactly one option as JSON (``1`` is an integer, not a string), but on the wire it is the
  text ``1``, which Prism's type coercion reads as both, so it refuses every value the first
  option admits ("must match exactly one schema in oneOf");
- **a Swagger 2.0 body without a media type**: the operation has an ``in: body`` parameter
  and neither it nor the document declares ``consumes``. Swagger 2.0 gives ``consumes`` no
  default (it is optional on the Swagger and the Operation objects), so the document names no
  media type at all; Prism turns that into "no media type is acceptable" and refuses every
  body ("No supported content types, but request included a non-empty body"), making a
  declared, often required, body impossible to send;
- **a form array without an Encoding Object**: an array member of an
  ``application/x-www-form-urlencoded`` body for which the media type gives no ``encoding``
  (Twilio's ``MediaUrl``, ``Permissions``...). OpenAPI's default for it is ``style: form,
  explode: true`` (the Encoding Object's defaults), one ``key=value`` pair per item, which
  the client sends; Prism applies no such default and refuses every array so spelled ("must
  be array", for one item as for several), while it takes the very same request once the
  spec says ``encoding: {key: {explode: true}}`` (tried on Prism 5.14.2:
  ``Tags=a&Tags=b`` is refused without it, answered 204 with it).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import jsonschema

from sktypes.openapi import Operation

__all__ = ["misreading", "spec_fault"]

_ONE_OF = re.compile(
    r"^(path|query|header|cookie)\.(.+?): Request \w+ parameter .+ must match exactly one "
    r"schema in oneOf$"
)
_NO_CONTENT_TYPES = "No supported content types, but request included a non-empty body"
_FORM_ARRAY = re.compile(r"^body\.([^.]+): Request body property \1 must be array(,null)?$")
_FORM = "application/x-www-form-urlencoded"


def misreading(
    operation: Operation,
    spec: Mapping[str, Any],
    raw_operation: Mapping[str, Any],
    args: Mapping[str, Any],
    refusals: list[str],
) -> str | None:
    """The evidence that every one of Prism's ``refusals`` is its own misreading, else ``None``."""
    found = [
        _ambiguous_one_of(operation, args, refusal)
        or _no_consumes(spec, raw_operation, refusal)
        or _form_array(operation, args, refusal)
        for refusal in refusals
    ]
    if not found or not all(found):
        return None
    return "; ".join(dict.fromkeys(e for e in found if e))


def _ambiguous_one_of(operation: Operation, args: Mapping[str, Any], refusal: str) -> str | None:
    match = _ONE_OF.match(refusal)
    if match is None:
        return None
    location, name = match.groups()
    param = next(
        (p for p in operation.parameters if p.location == location and p.name == name), None
    )
    if param is None or param.schema is None or param.argument not in args:
        return None
    schema = param.schema.to_python()
    options = schema.get("oneOf")
    if not isinstance(options, list):
        return None
    value = args[param.argument]
    defs = {"$defs": schema["$defs"]} if "$defs" in schema else {}
    matching = [
        i
        for i, option in enumerate(options)
        if jsonschema.Draft202012Validator({**defs, **option}).is_valid(value)
    ]
    if len(matching) != 1:
        return None
    return (
        f"Prism misreads a oneOf on the wire: {location} parameter {name}={value!r} matches "
        f"exactly one option as JSON (option {matching[0] + 1} of {len(options)}), but its "
        f"wire text {str(value)!r} reads as several once Prism coerces it"
    )


def _no_consumes(
    spec: Mapping[str, Any], raw_operation: Mapping[str, Any], refusal: str
) -> str | None:
    if not refusal.endswith(_NO_CONTENT_TYPES) or not str(spec.get("swagger", "")).startswith("2"):
        return None
    if "consumes" in raw_operation or "consumes" in spec:
        return None
    params = raw_operation.get("parameters") or ()
    if not any(isinstance(p, Mapping) and p.get("in") == "body" for p in params):
        return None
    return (
        "Prism refuses every body of a Swagger 2.0 operation that declares no consumes: the "
        "operation has an `in: body` parameter, and Swagger 2.0 gives consumes no default "
        "(optional on the Swagger and Operation objects); Prism says: " + _NO_CONTENT_TYPES
    )


def _form_array(operation: Operation, args: Mapping[str, Any], refusal: str) -> str | None:
    match = _FORM_ARRAY.match(refusal)
    body = operation.request_body
    if match is None or body is None or body.content_type.lower() != _FORM:
        return None
    name = match.group(1)
    encoding = body.encoding.to_python() if body.encoding is not None else {}
    if isinstance(encoding, Mapping) and name in encoding:
        return None  # the spec says how: Prism follows it
    value = args.get(body.argument) if body.argument is not None else None
    if not isinstance(value, Mapping) or not isinstance(value.get(name), list):
        return None
    schema = body.schema.to_python() if body.schema is not None else {}
    member = (schema.get("properties") or {}).get(name) if isinstance(schema, Mapping) else None
    if not isinstance(member, Mapping) or not jsonschema.Draft202012Validator(
        {**({"$defs": schema["$defs"]} if "$defs" in schema else {}), **member}
    ).is_valid(value[name]):
        return None
    return (
        f"Prism refuses a form array the spec gives no Encoding Object: body member {name}="
        f"{_brief(value[name])} sent as one {name}= pair per item (style form, explode true: "
        "OpenAPI's default for form bodies); Prism applies no default and refuses it as not an "
        "array, and takes the same request once the spec says explode: true"
    )


def _brief(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


def spec_fault(operation: Operation, refusals: list[str]) -> str | None:
    """The evidence that Prism's refusal comes from the spec breaking OpenAPI, else ``None``.

    A path key holding a query string (Anthropic's ``/v1/files?beta=true``): the Paths
    Object's keys are relative paths, templated, with no query; the client sends the path
    and the query as written, and Prism matches the path ``/v1/files`` against no key.
    """
    if "?" not in operation.path:
        return None
    if not refusals or not all("NO_PATH_MATCHED_ERROR" in r for r in refusals):
        return None
    return (
        f"the spec's path key {operation.path!r} holds a query string, which OpenAPI path "
        "keys do not (a relative path); Prism matches the path alone against no key"
    )
