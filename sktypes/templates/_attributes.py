"""Which attributes a template may read: one policy for every engine.

A template reads *data*, never the objects behind it: a mapping's entries (by key), a
sequence's items (by index), and the *declared fields* of pydantic models (fields, computed
fields, extra fields), dataclasses and named tuples. Every other object has no attribute a
template can see: frames, code, modules, functions, methods, generators, coroutines,
classes, tracebacks, and plain objects (whose attributes may hold a client, a kernel or a
secret as well as data). So no chain of attributes leads from a value — a streaming
function's generator, a bound method, an exception — to a frame, a module's globals or
``os.environ``. A name starting with ``_`` is never a field.

- Handlebars (:mod:`._hbs_runtime`) reads fields through :func:`read_field` only.
- Jinja2 (:mod:`._jinja_env`) asks :func:`jinja_may_read` from its sandbox's
  ``is_safe_attribute``: fields, the methods of built-in values in :data:`DATA_METHODS`
  (``name.upper()``, ``d.items()``; none that mutates, pads or translates), and the public
  attributes of Jinja2's own runtime objects (``loop.index``, a ``namespace``, ``caller``).
- The Semantic Kernel syntax reads no attribute at all (``{{$name}}`` is a variable).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import weakref
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

__all__ = ["ABSENT", "DATA_METHODS", "data_fields", "jinja_may_read", "read_field"]

ABSENT: Any = object()
"""What :func:`read_field` returns for a name that is not a field of the value."""

_NO_FIELDS: frozenset[str] = frozenset()


_DECLARED: weakref.WeakKeyDictionary[type, frozenset[str]] = weakref.WeakKeyDictionary()


def _declared(kind: type) -> frozenset[str]:
    """The declared fields of instances of ``kind`` (empty when it declares none)."""
    try:
        return _DECLARED[kind]
    except (KeyError, TypeError):
        pass
    names = _find_declared(kind)
    with contextlib.suppress(TypeError):  # every class can be weakly referenced
        _DECLARED[kind] = names
    return names


def _find_declared(kind: type) -> frozenset[str]:
    if issubclass(kind, BaseModel):
        names = {*kind.model_fields, *kind.model_computed_fields}
    elif dataclasses.is_dataclass(kind):
        names = {f.name for f in dataclasses.fields(kind)}
    elif issubclass(kind, tuple) and isinstance(getattr(kind, "_fields", None), tuple):
        names = {f for f in getattr(kind, "_fields", ()) if isinstance(f, str)}
    else:
        return _NO_FIELDS
    return frozenset(n for n in names if not n.startswith("_"))


def data_fields(value: Any) -> frozenset[str]:
    """The names a template may read as attributes of ``value`` (see the module docstring).

    A class is not data (``type(value)`` is a metaclass, which declares nothing), nor is any
    object outside the three kinds of declared records.
    """
    names = _declared(type(value))
    if isinstance(value, BaseModel):
        extra = value.model_extra
        if extra:
            names = names | {k for k in extra if isinstance(k, str) and not k.startswith("_")}
    return names


def read_field(value: Any, name: str) -> Any:
    """``value``'s field ``name``: a mapping's entry, a declared field, else :data:`ABSENT`."""
    if isinstance(value, Mapping):
        try:
            return value[name]
        except (KeyError, TypeError):
            return ABSENT
    if name in data_fields(value):
        return getattr(value, name, ABSENT)
    return ABSENT


_STR_METHODS = frozenset(
    {
        "capitalize", "casefold", "count", "endswith", "find", "index", "isalnum", "isalpha",
        "isascii", "isdecimal", "isdigit", "isidentifier", "islower", "isnumeric",
        "isprintable", "isspace", "istitle", "isupper", "join", "lower", "lstrip",
        "partition", "removeprefix", "removesuffix", "replace", "rfind", "rindex",
        "rpartition", "rsplit", "rstrip", "split", "splitlines", "startswith", "strip",
        "swapcase", "title", "upper",
    }
)  # fmt: skip
_SET_METHODS = frozenset(
    {
        "copy", "difference", "intersection", "isdisjoint", "issubset", "issuperset",
        "symmetric_difference", "union",
    }
)  # fmt: skip
DATA_METHODS: dict[type, frozenset[str]] = {
    str: _STR_METHODS,
    dict: frozenset({"copy", "get", "items", "keys", "values"}),
    list: frozenset({"copy", "count", "index"}),
    tuple: frozenset({"count", "index"}),
    set: _SET_METHODS,
    frozenset: _SET_METHODS - {"copy"},
}
"""Methods of built-in values a Jinja2 template may call (Handlebars calls no method).

Left out: what mutates (the sandbox refuses it too), what pads or repeats text to a width
(``ljust``, ``center``, ``zfill``, ``expandtabs``, ``format``), ``translate`` and
``maketrans`` (a table can grow every character), ``encode`` (bytes have no policy), and
everything on numbers (``int.to_bytes(10**9)`` allocates a gigabyte).
"""
_MARKUP_METHODS = frozenset({"striptags", "unescape"})


def _builtin_methods(value: Any) -> frozenset[str]:
    for kind in type(value).__mro__:
        methods = DATA_METHODS.get(kind)
        if methods is not None:
            return methods
    return _NO_FIELDS


@functools.cache
def _jinja_runtime_types() -> tuple[type, ...]:
    """Jinja2's own runtime objects: the loop, namespaces, macros, cyclers, blocks."""
    from jinja2.runtime import BlockReference, LoopContext, Macro, TemplateReference, Undefined
    from jinja2.utils import Cycler, Joiner, Namespace

    return (
        LoopContext,
        Namespace,
        Macro,
        Cycler,
        Joiner,
        TemplateReference,
        BlockReference,
        Undefined,
    )


_DECIDED: dict[tuple[type, str], bool] = {}


def jinja_may_read(value: Any, name: str) -> bool:
    """Whether a Jinja2 template may read attribute ``name`` of ``value``.

    Decided once per type and name (a model's extra fields, which differ by instance,
    are asked each time).
    """
    kind = type(value)
    known = _DECIDED.get((kind, name))
    if known is not None:
        return known
    if name[:1] == "_":
        return False
    if isinstance(value, BaseModel) and value.model_extra:
        return name in data_fields(value)
    decided = (
        name in _declared(kind)
        or name in _builtin_methods(value)
        or (name in _MARKUP_METHODS and hasattr(value, "__html__") and isinstance(value, str))
        or isinstance(value, _jinja_runtime_types())
    )
    if len(_DECIDED) > 4096:  # bounded: names come from templates
        _DECIDED.clear()
    _DECIDED[(kind, name)] = decided
    return decided
