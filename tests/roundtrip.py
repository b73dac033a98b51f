"""The oracle generated types are held to: an OpenAPI-flavoured JSON Schema validator.

A generated type must accept exactly the JSON values the spec's schema accepts, and dump an
accepted value back to the same JSON. "Accepts" is decided by :func:`oracle`: jsonschema's
draft 2020-12 validator, with the OpenAPI meanings generated code gives its schemas:

- the formats generated types enforce are checked (``date-time``, ``date``, ``time``,
  ``uuid``, ``ipv4``, ``ipv6``, ``byte``, and ``int32``/``int64`` as ranges); other formats
  stay annotations, as draft 2020-12 says;
- OpenAPI's ``discriminator``: a member that is there must name one of the options (through
  ``mapping``, the definition's name, or the one value an option allows its member: OpenAI's
  ``object: {enum: [organization.usage.completions.result]}``), and the value must be valid
  as that option; left
  out (or not a string), the value is matched against each option;
- a schema without ``type`` whose keywords all belong to one JSON type admits that type only
  (``properties`` → an object), as OpenAPI tools read it;
- ``oneOf`` is read as ``anyOf``: a value matching several options is accepted (a pydantic
  union takes the first that fits; ``docs/generate.md`` lists this limit).

Values are validated by the generated type in pydantic's strict JSON mode, which is JSON's own
typing (``"5"`` is not an integer, ``1`` is not ``true``).
"""

from __future__ import annotations

import base64
import binascii
import functools
import json
from collections.abc import Iterator, Mapping
from typing import Any

import jsonschema
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter, ValidationError

from tests.instances import instances, same_json

__all__ = ["Verdict", "assert_same_behaviour", "check_round_trip", "mutations", "oracle"]

_FORMATS = jsonschema.FormatChecker(["date-time", "date", "time", "uuid", "ipv4", "ipv6"])


@_FORMATS.checks("byte", raises=(binascii.Error, ValueError))
def _byte(value: object) -> bool:
    if not isinstance(value, str):
        return True
    base64.b64decode(value, validate=True)
    return True


def _int_range(bits: int) -> Any:
    def check(value: object) -> bool:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return True
        return bool(-(2 ** (bits - 1)) <= value <= 2 ** (bits - 1) - 1)

    return check


_FORMATS.checks("int32")(_int_range(32))
_FORMATS.checks("int64")(_int_range(64))

_KINDS = {
    "object": ("properties", "additionalProperties", "patternProperties", "required"),
    "array": ("items", "prefixItems", "minItems", "maxItems", "uniqueItems"),
    "string": ("minLength", "maxLength", "pattern"),
    "number": ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"),
}
_PYTHON = {"object": dict, "array": list, "string": str}


def _sole_value(defs: Mapping[str, Any], name: str, member: str) -> Any:
    """The one value definition ``name`` allows its ``member`` (``const`` or a one-value
    ``enum``, through ``$ref`` and ``allOf``), else ``None``."""
    seen = 0
    node: Any = defs.get(name)
    while isinstance(node, Mapping) and "$ref" in node and seen < 20:
        seen += 1
        node = defs.get(str(node["$ref"]).rsplit("/", 1)[-1])
    if not isinstance(node, Mapping):
        return None
    parts = [node, *(p for p in node.get("allOf") or () if isinstance(p, Mapping))]
    for part in parts:
        if "$ref" in part and part is not node:
            found = _sole_value(defs, str(part["$ref"]).rsplit("/", 1)[-1], member)
            if found is not None:
                return found
        prop = (part.get("properties") or {}).get(member)
        while isinstance(prop, Mapping) and "$ref" in prop and seen < 40:
            seen += 1
            prop = defs.get(str(prop["$ref"]).rsplit("/", 1)[-1])
        if isinstance(prop, Mapping):
            if "const" in prop:
                return prop["const"]
            if isinstance(prop.get("enum"), list) and len(prop["enum"]) == 1:
                return prop["enum"][0]
    return None


def _discriminator(
    validator: Any,
    value: Mapping[str, Any],
    instance: Any,
    schema: Mapping[str, Any],
    defs: Mapping[str, Any] | None = None,
) -> Iterator[jsonschema.ValidationError]:
    if not isinstance(instance, dict):
        return
    member = value.get("propertyName")
    options = [o for key in ("oneOf", "anyOf") for o in schema.get(key) or ()]
    names = {o["$ref"].rsplit("/", 1)[-1] for o in options if isinstance(o, dict) and "$ref" in o}
    mapped = {k: v.rsplit("/", 1)[-1] for k, v in (value.get("mapping") or {}).items()}
    # an option whose member allows one value is named by it (OpenAI's `object` consts)
    sole: dict[Any, list[str]] = {}
    for name in sorted(names):
        found = _sole_value(defs or {}, name, str(member))
        if isinstance(found, str):
            sole.setdefault(found, []).append(name)
    for found, owners in sole.items():
        if len(owners) == 1 and found not in mapped and found not in names:
            mapped[found] = owners[0]
    if not isinstance(instance.get(member), str):
        return  # nothing names an option: the value is matched against each (oneOf)
    chosen = mapped.get(instance[member], instance[member])
    if chosen not in names and instance[member] not in mapped:
        yield jsonschema.ValidationError(f"{member}={instance[member]!r} names no option")
        return
    if chosen not in names:
        return  # mapped to a definition that is no option: the value is matched against each
    for error in validator.evolve(schema={"$ref": f"#/$defs/{chosen}"}).iter_errors(instance):
        yield jsonschema.ValidationError(f"as {chosen}: {error.message}")


def _one_of_as_any_of(
    validator: Any, options: list[Any], instance: Any, schema: Mapping[str, Any]
) -> Iterator[jsonschema.ValidationError]:
    if not any(validator.evolve(schema=o).is_valid(instance) for o in options):
        yield jsonschema.ValidationError("matches no option of oneOf")


def _implied_type(
    validator: Any, value: Any, instance: Any, schema: Mapping[str, Any]
) -> Iterator[jsonschema.ValidationError]:
    if "type" in schema or "$ref" in schema or "enum" in schema or "const" in schema:
        return
    kinds = {k for k, words in _KINDS.items() if any(w in schema for w in words)}
    if len(kinds) != 1:
        return
    kind = kinds.pop()
    if kind == "number":
        ok = isinstance(instance, (int, float)) and not isinstance(instance, bool)
    else:
        ok = isinstance(instance, _PYTHON[kind])
    if not ok:
        yield jsonschema.ValidationError(f"not a {kind} (a schema of {kind} keywords)")


def _with_implied(original: Any) -> Any:
    def check(
        validator: Any, value: Any, instance: Any, schema: Mapping[str, Any]
    ) -> Iterator[jsonschema.ValidationError]:
        yield from _implied_type(validator, value, instance, schema)
        yield from original(validator, value, instance, schema)

    return check


_BASE = jsonschema.Draft202012Validator
_OpenApiValidator = jsonschema.validators.extend(
    _BASE,
    {
        "discriminator": _discriminator,
        "oneOf": _one_of_as_any_of,
        "properties": _with_implied(_BASE.VALIDATORS["properties"]),
        "items": _with_implied(_BASE.VALIDATORS["items"]),
        "minLength": _with_implied(_BASE.VALIDATORS["minLength"]),
        "minimum": _with_implied(_BASE.VALIDATORS["minimum"]),
    },
)


def oracle(schema: Mapping[str, Any]) -> Any:
    """A validator of ``schema`` with the OpenAPI meanings of the module docstring."""
    defs = schema.get("$defs") or {}
    cls = jsonschema.validators.extend(
        _OpenApiValidator, {"discriminator": functools.partial(_discriminator, defs=defs)}
    )
    return cls(dict(schema), format_checker=_FORMATS)


class Verdict:
    """Counts of one type's checks: values accepted (and round-tripped), values refused."""

    def __init__(self) -> None:
        self.accepted = 0
        self.refused = 0


def _whole(value: Any) -> Any:
    """``value`` with integral floats written as integers (the same JSON number: pydantic's
    strict JSON mode reads ``1.0`` as a float, JSON Schema as the integer 1)."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**63:
        return int(value)
    if isinstance(value, list):
        return [_whole(v) for v in value]
    if isinstance(value, dict):
        return {k: _whole(v) for k, v in value.items()}
    return value


def check_round_trip(
    native_type: Any, validator: Any, instance: Any, verdict: Verdict | None = None
) -> None:
    """``native_type`` accepts ``instance`` exactly when the oracle does, losslessly.

    Raises:
        AssertionError: the type and the oracle disagree, or the dump differs.
    """
    adapter = TypeAdapter(native_type)
    text = json.dumps(_whole(instance))  # 1.0 is the integer 1 (JSON Schema), written so
    valid = validator.is_valid(instance)
    refused: ValidationError | None = None
    try:
        value = adapter.validate_json(text, strict=True)
    except ValidationError as exc:
        refused = exc
    if refused is not None:
        assert not valid, f"a valid instance is refused: {instance!r}: {refused}"
        if verdict is not None:
            verdict.refused += 1
        return
    problems = [e.message for e in validator.iter_errors(instance)][:3]
    assert valid, f"an invalid instance is accepted: {instance!r}: {problems}"
    dumped = adapter.dump_python(value, mode="json", by_alias=True, exclude_unset=True)
    assert same_json(dumped, instance), f"sent {instance!r}, dumped {dumped!r}"
    if verdict is not None:
        verdict.accepted += 1


def assert_same_behaviour(native_type: Any, schema: dict[str, Any], examples: int) -> Verdict:
    """Drawn instances and their mutations: accepted exactly when the oracle accepts."""
    validator = oracle(schema)
    verdict = Verdict()

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        instance = data.draw(instances(schema), label="instance")
        check_round_trip(native_type, validator, instance, verdict)
        changed = data.draw(mutations(instance), label="mutated")
        check_round_trip(native_type, validator, changed, verdict)

    run()
    return verdict


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda children: (
        st.lists(children, max_size=2) | st.dictionaries(st.text(max_size=4), children, max_size=2)
    ),
    max_leaves=4,
)


def mutations(instance: Any) -> st.SearchStrategy[Any]:
    """``instance`` with one change: a value replaced by another JSON value, a member
    removed or added, an item dropped (most are invalid; the oracle decides)."""
    paths = list(_paths(instance, ()))
    return st.sampled_from(paths).flatmap(lambda path: _change(instance, path))


def _paths(value: Any, prefix: tuple[Any, ...]) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*prefix, i))


def _change(instance: Any, path: tuple[Any, ...]) -> st.SearchStrategy[Any]:
    def replaced(new: Any) -> Any:
        return _set(instance, path, new)

    options = [_JSON_VALUES.map(replaced)]
    if path:
        options.append(st.just(_set(instance, path, _DELETE)))
    target = _get(instance, path)
    if isinstance(target, dict):
        options.append(
            st.tuples(st.text(max_size=6), _JSON_VALUES).map(
                lambda kv: _set(instance, path, {**target, kv[0]: kv[1]})
            )
        )
    return st.one_of(options)


_DELETE = object()


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


def _set(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        out = dict(value)
        if not rest and new is _DELETE:
            del out[head]
        else:
            out[head] = _set(value[head], rest, new)
        return out
    items = list(value)
    if not rest and new is _DELETE:
        del items[head]
    else:
        items[head] = _set(value[head], rest, new)
    return items
