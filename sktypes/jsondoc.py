"""`JsonDocument`: an immutable, hashable parsed JSON value (the ADR's schema holder).

The value is deep-frozen once (objects become :class:`FrozenDict`, arrays tuples), so a
document can sit inside frozen views and be shared without defensive copies.

Documents and frozen objects are equal when their canonical JSON texts are (sorted keys):
``1`` and ``true`` differ, key order does not matter, and equal values hash equally (the
hash is of the same text, computed once per object, at C speed). :func:`json_equal` is
the comparison JSON Schema uses for ``enum`` and ``const``, where ``1`` and ``1.0`` are
also one number; :func:`json_hash` agrees with it.
"""

from __future__ import annotations

from collections.abc import ItemsView, Iterator, KeysView, Mapping, ValuesView
from typing import Any, TypeAlias

import orjson

from sktypes import _pointer
from sktypes.errors import SktypesError

__all__ = ["FrozenDict", "JsonDocument", "JsonValue", "freeze", "json_equal", "json_hash", "thaw"]

JsonValue: TypeAlias = Any
"""A JSON value: ``None``, bool, int, float, str, list/tuple or dict with str keys."""


class FrozenDict(Mapping[str, Any]):
    """A read-only, hashable mapping used for JSON objects inside a :class:`JsonDocument`."""

    __slots__ = ("_data", "_hash")

    def __init__(self, data: Mapping[str, Any] | None = None) -> None:
        self._data: dict[str, Any] = dict(data or {})
        self._hash: int | None = None

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    # the dict's own methods (Mapping's mixins call __getitem__ once per key; the schema
    # model reads every schema object with them)
    def __contains__(self, key: object) -> bool:
        return key in self._data

    def get(self, key: str, default: Any = None) -> Any:
        """The value of ``key``, else ``default``."""
        return self._data.get(key, default)

    def keys(self) -> KeysView[str]:
        """The member names, in order."""
        return self._data.keys()

    def items(self) -> ItemsView[str, Any]:
        """The ``(name, value)`` pairs, in order."""
        return self._data.items()

    def values(self) -> ValuesView[Any]:
        """The values, in order."""
        return self._data.values()

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(_canonical(self))
        return self._hash

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if isinstance(other, FrozenDict):
            if self._hash is not None and other._hash is not None and self._hash != other._hash:
                return False
        elif not isinstance(other, Mapping):
            return NotImplemented
        try:
            return _canonical(self) == _canonical(other)
        except TypeError:  # not JSON (a mapping holding other objects): not equal
            return False

    def __repr__(self) -> str:
        return f"FrozenDict({self._data!r})"


def json_equal(a: Any, b: Any) -> bool:
    """Whether two JSON values are equal as JSON Schema's ``enum``/``const`` compare them.

    ``true`` is not ``1`` (Python says it is), ``1`` and ``1.0`` are one number, arrays
    (lists or tuples) compare item by item and objects member by member in any order.
    """
    if a is b:
        return True
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)):
        return isinstance(b, (int, float)) and a == b
    if isinstance(a, str) or a is None:
        return type(a) is type(b) and a == b
    if isinstance(a, Mapping):
        return isinstance(b, Mapping) and _mapping_equal(a, b)
    if isinstance(a, (list, tuple)):
        if not isinstance(b, (list, tuple)) or len(a) != len(b):
            return False
        return all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _mapping_equal(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    if len(a) != len(b):
        return False
    return all(key in b and json_equal(value, b[key]) for key, value in a.items())


def json_hash(value: Any) -> int:
    """A hash that agrees with :func:`json_equal` (equal JSON values hash equally)."""
    if isinstance(value, bool):
        return hash((_BOOL_TAG, value))
    if isinstance(value, Mapping):
        return _object_hash(value)
    if isinstance(value, (list, tuple)):
        return hash(tuple(json_hash(v) for v in value))
    return hash(value)


_BOOL_TAG = "json-boolean"


def _object_hash(data: Mapping[str, Any]) -> int:
    return hash(frozenset((k, json_hash(v)) for k, v in data.items()))


class _NotJson(Exception):
    """Raised inside :func:`freeze`; collects the path on the way out."""

    def __init__(self, message: str) -> None:
        self.message = message
        self.path: list[str] = []


def freeze(value: Any) -> Any:
    """Return a deep-frozen copy of a JSON value (dicts → FrozenDict, lists → tuples).

    Already-frozen parts are reused as they are, so freezing a new object around frozen
    schemas costs one level, not the whole tree.
    """
    try:
        return _freeze(value)
    except _NotJson as exc:
        where = "/" + "/".join(reversed(exc.path))
        raise SktypesError(exc.message, where=where) from None


def _freeze(value: Any) -> Any:
    if value is None or isinstance(value, (str, bool, int, FrozenDict)):
        return value
    if isinstance(value, float):
        if value != value or value in (_INF, -_INF):
            raise _NotJson(f"{value!r} is not a JSON number")
        return value
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise _NotJson(f"object key {k!r} is not a string")
            try:
                out[k] = _freeze(v)
            except _NotJson as exc:
                exc.path.append(_pointer.escape(k))
                raise
        return FrozenDict(out)
    if isinstance(value, (list, tuple)):
        items = []
        for i, v in enumerate(value):
            try:
                items.append(_freeze(v))
            except _NotJson as exc:
                exc.path.append(str(i))
                raise
        return tuple(items)
    raise _NotJson(f"{type(value).__name__} is not a JSON value")


_INF = float("inf")


def thaw(value: Any) -> Any:
    """Return a mutable deep copy of a (frozen or not) JSON value: dicts and lists."""
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [thaw(v) for v in value]
    return value


def _default(obj: Any) -> Any:
    if isinstance(obj, FrozenDict):
        return obj._data
    raise TypeError


def _canonical(value: Any) -> bytes:
    return orjson.dumps(value, default=_default, option=orjson.OPT_SORT_KEYS)


class JsonDocument:
    """An immutable parsed JSON document.

    Build one with :meth:`parse` (from text) or :meth:`from_value` (from Python data).
    ``.value`` is read-only; :meth:`to_python` returns a mutable copy.
    """

    __slots__ = ("__weakref__", "_canon", "_hash", "_value")

    def __init__(self, value: Any) -> None:
        self._value = freeze(value)
        self._canon: bytes | None = None
        self._hash: int | None = None

    @classmethod
    def parse(cls, text: str | bytes) -> JsonDocument:
        """Parse JSON text; a syntax error raises :class:`SktypesError` naming the position."""
        try:
            return cls(orjson.loads(text))
        except orjson.JSONDecodeError as exc:
            raise SktypesError(f"not valid JSON: {exc}") from None

    @classmethod
    def from_value(cls, value: Any) -> JsonDocument:
        """Wrap a JSON-compatible Python value (it is copied and frozen)."""
        if isinstance(value, JsonDocument):
            return value
        return cls(value)

    @property
    def value(self) -> Any:
        """The frozen value: FrozenDict for objects, tuples for arrays."""
        return self._value

    def to_python(self) -> Any:
        """Return a mutable deep copy (dicts and lists).

        A serialize-and-parse round trip through orjson beats a recursive copy; the bytes
        are not kept, so large schemas do not stay in memory twice.
        """
        return orjson.loads(orjson.dumps(self._value, default=_default))

    def to_json(self, *, indent: bool = False, sort_keys: bool = False) -> str:
        """Serialize to JSON text (compact unless ``indent``)."""
        opt = (orjson.OPT_INDENT_2 if indent else 0) | (orjson.OPT_SORT_KEYS if sort_keys else 0)
        return orjson.dumps(self._value, default=_default, option=opt).decode()

    def pointer(self, pointer: str) -> Any:
        """Return the value at an RFC 6901 JSON pointer such as ``/properties/date``."""
        try:
            return _pointer.resolve(self._value, pointer)
        except _pointer.PointerError as exc:
            raise SktypesError(exc.message, where=exc.where) from None

    def _canonical(self) -> bytes:
        if self._canon is None:
            self._canon = _canonical(self._value)
        return self._canon

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, JsonDocument):
            return NotImplemented
        if self is other or self._value is other._value:
            return True
        return hash(self) == hash(other) and self._canonical() == other._canonical()

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(self._canonical())
        return self._hash

    def __repr__(self) -> str:
        text = self.to_json()
        return f"JsonDocument({text if len(text) < 80 else text[:77] + '...'})"
