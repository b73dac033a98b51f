"""Where a type's value holds floats: a check of those places only, compiled once per type.

Refusing NaN and ±Infinity (:mod:`._finite`) needs to know whether the validated value
holds a non-finite float. Scanning the whole answer for what might become one costs a
quarter of pydantic's own validation on a 1 MB answer, and walking the whole value costs
more. But the type says where floats can be: in ``Orders`` only ``orders[*].items[*]
.unit_price`` can hold one. :func:`float_check` reads the type's core schema
(``TypeAdapter.core_schema``, pydantic-core's documented schema format) once and returns a
check that gathers the values of those places level by level (``map``/``chain`` over
attributes, items and dict values) and sums the floats: a finite sum means every one is
finite. So a clean answer costs a few C-level passes over the float-bearing parts of its
value, and nothing over the rest.

The check only ever says "all finite" or "look closer" (``False``; then the caller runs
the full check), so it may be conservative but never wrong. A type with a place whose
value is not what pydantic's schema describes, or that may hold floats anywhere (``Any``,
a plain validator, an after/wrap validator of a structure, a model's own ``__init__`` or
``model_post_init``, extra members, a union of structures, recursion, a lazy generator,
any schema kind not listed here), gets ``None``: the caller keeps its general check. What
an after/wrap validator makes of one value (a field validator, usually) is checked whole.
"""

from __future__ import annotations

import dataclasses
import math
import operator
from collections.abc import Callable, Collection, Iterable, Mapping
from functools import partial
from itertools import chain
from typing import Any

from pydantic import BaseModel, TypeAdapter

from sktypes.errors import ErrorDetail
from sktypes.hydration._errors import Invalid, join_path

__all__ = ["NON_FINITE", "FloatCheck", "check_result", "float_check", "walk_non_finite"]

NON_FINITE = (
    "{token} is not a JSON number (NaN and Infinity are refused; "
    "hydrate(..., allow_inf_nan=True) accepts them for float fields)"
)
"""What a NaN or an infinity is reported as (``token``: how JSON's neighbours spell it)."""

FloatCheck = Callable[[Any], bool]
"""``check(value)``: ``True`` when every float the validated value holds is finite."""

_Level = Callable[[Iterable[Any]], bool]
"""A compiled place: given every value at it, whether the floats below them are finite.

Values flow lazily (``map``/``chain``/``filter`` over the level above); a place with
several members makes a list of its values once, to go over them once per member."""
_Members = list[tuple[Callable[[Any], Any], _Level]]
"""The members of a place that hold floats: how to get each, and its check."""

# Schema kinds whose values hold no float (whatever the text said, pydantic either made
# one of these or refused it).
_NO_FLOATS = frozenset(
    {
        "bool",
        "bytes",
        "complex",
        "date",
        "datetime",
        "decimal",
        "enum",
        "int",
        "literal",
        "missing-sentinel",
        "multi-host-url",
        "none",
        "str",
        "time",
        "timedelta",
        "url",
        "uuid",
    }
)
# Kinds whose value is their inner schema's value.
_WRAPPERS = {"custom-error": "schema", "default": "schema", "function-before": "schema"}
_NOT_NONE = partial(operator.is_not, None)


class _Unknown(Exception):
    """A place this module cannot follow: the caller keeps its general check."""


def float_check(adapter: TypeAdapter[Any]) -> FloatCheck | None:
    """The check of the floats a value of the adapter's type holds (see the module).

    ``None`` when the type has a place this module cannot follow.
    """
    try:
        level = _Compiler().level(adapter.core_schema)
    except (_Unknown, RecursionError):
        return None
    except Exception:  # a schema shape pydantic-core did not document: be general
        return None
    if level is None:
        return _no_floats
    return partial(_run, level)


def _no_floats(value: Any) -> bool:
    return True


def _run(level: _Level, value: Any) -> bool:
    try:
        return level([value])
    except (TypeError, AttributeError, IndexError):  # not the shape the schema says
        return False


def _finite(values: Iterable[Any]) -> bool:
    """Whether every float among ``values`` is finite (``None`` and numbers may mix in)."""
    values = list(values)
    try:
        if math.isfinite(sum(values, 0.0)):
            return True
    except TypeError:  # None (an absent optional) or another type among them
        pass
    return all(not isinstance(v, float) or math.isfinite(v) for v in values)


class _Compiler:
    """One compilation: the named definitions, and which are being compiled (recursion)."""

    def __init__(self) -> None:
        self.definitions: dict[str, Mapping[str, Any]] = {}
        self.open: set[str] = set()

    def level(self, schema: Mapping[str, Any]) -> _Level | None:
        """The check of one place (``None``: it holds no float)."""
        kind = schema.get("type")
        if kind in _NO_FLOATS:
            return None
        if kind == "float":
            return _finite
        if kind in _WRAPPERS:
            return self.level(schema[_WRAPPERS[kind]])
        if kind == "nullable":
            inner = self.level(schema["schema"])
            return None if inner is None else partial(_present, inner)
        method = getattr(self, "_" + str(kind).replace("-", "_"), None)
        if method is None:
            raise _Unknown(kind)
        found: _Level | None = method(schema)
        return found

    def _definitions(self, schema: Mapping[str, Any]) -> _Level | None:
        for definition in schema["definitions"]:
            self.definitions[definition["ref"]] = definition
        return self.level(schema["schema"])

    def _definition_ref(self, schema: Mapping[str, Any]) -> _Level | None:
        ref = schema["schema_ref"]
        if ref in self.open:
            raise _Unknown("recursion")
        self.open.add(ref)
        try:
            return self.level(self.definitions[ref])
        finally:
            self.open.discard(ref)

    def _function_after(self, schema: Mapping[str, Any]) -> _Level | None:
        """A validator's own value: checked whole, when what it is given is one value."""
        inner = schema["schema"].get("type")
        if inner not in _NO_FLOATS and inner != "float":
            raise _Unknown("a validator of a structure")
        return _whole

    _function_wrap = _function_after

    def _json_or_python(self, schema: Mapping[str, Any]) -> _Level | None:
        return self.level(schema["json_schema"])  # hydration reads JSON

    def _lax_or_strict(self, schema: Mapping[str, Any]) -> _Level | None:
        if self.level(schema["lax_schema"]) or self.level(schema["strict_schema"]):
            raise _Unknown("lax-or-strict")
        return None

    def _union(self, schema: Mapping[str, Any]) -> _Level | None:
        choices = [c[0] if isinstance(c, tuple) else c for c in schema["choices"]]
        return self._choices(choices)

    def _tagged_union(self, schema: Mapping[str, Any]) -> _Level | None:
        return self._choices(list(schema["choices"].values()))

    def _choices(self, choices: list[Mapping[str, Any]]) -> _Level | None:
        found = [self.level(c) for c in choices]
        if all(f is None for f in found):
            return None
        if all(f is None or f is _finite for f in found):
            return _finite  # float | int, float | str...: the values are scalars
        raise _Unknown("a union of structures with floats")

    def _list(self, schema: Mapping[str, Any]) -> _Level | None:
        items = self.level(schema.get("items_schema", {"type": "any"}))
        return None if items is None else partial(_items, items)

    _set = _frozenset = _list

    def _tuple(self, schema: Mapping[str, Any]) -> _Level | None:
        places = [self.level(s) for s in schema.get("items_schema", [])]
        variadic = schema.get("variadic_item_index")
        if variadic is not None:
            if len(places) != 1:
                raise _Unknown("a tuple with a variadic part among fixed ones")
            return None if places[0] is None else partial(_items, places[0])
        found = [(i, p) for i, p in enumerate(places) if p is not None]
        if not found:
            return None
        return partial(_fields, [(operator.itemgetter(i), p) for i, p in found])

    def _dict(self, schema: Mapping[str, Any]) -> _Level | None:
        keys = self.level(schema.get("keys_schema", {"type": "any"}))
        values = self.level(schema.get("values_schema", {"type": "any"}))
        parts: list[_Level] = []
        if keys is not None:
            parts.append(partial(_items, keys))  # iterating a dict gives its keys
        if values is not None:
            parts.append(partial(_values, values))
        return _all(parts)

    def _model(self, schema: Mapping[str, Any]) -> _Level | None:
        _plain_class(schema)
        if schema.get("root_model"):
            inner = self.level(schema["schema"])
            return None if inner is None else partial(_fields, [(_ROOT, inner)])
        return self.level(schema["schema"])

    def _model_fields(self, schema: Mapping[str, Any]) -> _Level | None:
        _no_extra(schema)
        found: _Members = []
        for name, field in schema["fields"].items():
            place = self.level(field["schema"])
            if place is not None:
                found.append((operator.attrgetter(name), place))
        return partial(_fields, found) if found else None

    def _dataclass(self, schema: Mapping[str, Any]) -> _Level | None:
        _plain_class(schema)
        return self.level(schema["schema"])

    def _dataclass_args(self, schema: Mapping[str, Any]) -> _Level | None:
        _no_extra(schema)
        found: _Members = []
        for field in schema["fields"]:
            place = self.level(field["schema"])
            if place is not None:
                found.append((operator.attrgetter(field["name"]), place))
        return partial(_fields, found) if found else None

    def _typed_dict(self, schema: Mapping[str, Any]) -> _Level | None:
        _no_extra(schema)
        found: _Members = []
        for name, field in schema["fields"].items():
            place = self.level(field["schema"])
            if place is not None:
                found.append((operator.methodcaller("get", name), partial(_present, place)))
        return partial(_fields, found) if found else None


_ROOT = operator.attrgetter("root")


def _plain_class(schema: Mapping[str, Any]) -> None:
    """A model or dataclass whose value is what its fields' schemas made."""
    if schema.get("custom_init") or schema.get("post_init"):
        raise _Unknown("the class's own code builds the value")
    _no_extra(schema)


def _no_extra(schema: Mapping[str, Any]) -> None:
    config = schema.get("config")
    if schema.get("extra_behavior") == "allow" or (
        isinstance(config, Mapping) and config.get("extra_fields_behavior") == "allow"
    ):
        raise _Unknown("extra members are kept as parsed")


def _all(parts: list[_Level]) -> _Level | None:
    if not parts:
        return None
    if len(parts) == 1:
        return parts[0]
    return partial(_each_part, parts)


def _each_part(parts: list[_Level], values: Iterable[Any]) -> bool:
    values = list(values)
    return all(part(values) for part in parts)


def _whole(values: Iterable[Any]) -> bool:
    """Whatever a validator made of one value: a float is looked at, anything else walked."""
    for value in values:
        if type(value) is float:
            if not math.isfinite(value):
                return False
        elif not isinstance(value, (str, int)):
            try:
                check_result(value)
            except Invalid:
                return False
    return True


def _present(inner: _Level, values: Iterable[Any]) -> bool:
    return inner(filter(_NOT_NONE, values))


def _items(inner: _Level, values: Iterable[Any]) -> bool:
    return inner(chain.from_iterable(values))


def _values(inner: _Level, values: Iterable[Any]) -> bool:
    return inner(chain.from_iterable(map(dict.values, values)))


def _fields(found: _Members, values: Iterable[Any]) -> bool:
    if len(found) == 1:
        ((get, place),) = found
        return place(map(get, values))
    values = list(values)
    return all(place(map(get, values)) for get, place in found)


def check_result(value: Any) -> None:
    """Raise :class:`Invalid` if a hydrated value holds a NaN or infinite float.

    Walks dicts, lists, tuples, sets, pydantic models and dataclasses (the shapes
    hydration builds); anything else is a leaf.
    """
    walk_non_finite(value, _RESULT_SEQUENCES, objects=True, str_keys_only=False)


_RESULT_SEQUENCES = (list, tuple, set, frozenset)


def walk_non_finite(
    value: Any, sequences: tuple[type[Collection[Any]], ...], *, objects: bool, str_keys_only: bool
) -> None:
    """Raise :class:`Invalid` at the first NaN or infinite float found walking ``value``.

    ``sequences``: the types whose items are walked; ``objects``: whether pydantic models
    and dataclasses are walked too (else leaves); ``str_keys_only``: walk only the members
    of a dict under a string key (else every member, its key written with ``str``).
    """
    stack: list[tuple[Any, str]] = [(value, "$")]
    while stack:
        node, path = stack.pop()
        if isinstance(node, float):
            if not math.isfinite(node):
                token = "NaN" if math.isnan(node) else ("-Infinity" if node < 0 else "Infinity")
                raise Invalid([ErrorDetail(path, NON_FINITE.format(token=token), repr(node))])
        elif isinstance(node, dict):
            if str_keys_only:
                stack.extend((v, join_path(path, k)) for k, v in node.items() if isinstance(k, str))
            else:
                stack.extend((v, join_path(path, str(k))) for k, v in node.items())
        elif isinstance(node, sequences):
            stack.extend((v, join_path(path, i)) for i, v in enumerate(node))
        elif not objects:
            continue
        elif isinstance(node, BaseModel):
            stack.extend((v, join_path(path, k)) for k, v in vars(node).items())
            extra = node.__pydantic_extra__ or {}
            stack.extend((v, join_path(path, k)) for k, v in extra.items())
        elif dataclasses.is_dataclass(node) and not isinstance(node, type):
            stack.extend(
                (getattr(node, f.name, None), join_path(path, f.name))
                for f in dataclasses.fields(node)
            )
