"""Remembering a value per object by the object's identity.

Some objects the hot paths meet again and again (function views, kernel functions) are
costly to hash — a view hashes every schema it holds — so their derived values are kept
per ``id``. The object is stored beside its value, which keeps it alive (its ``id`` cannot
be reused while the entry exists) and lets a lookup confirm it is the same object.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

__all__ = ["by_identity"]

K = TypeVar("K")
V = TypeVar("V")


def by_identity(build: Callable[[K], V], limit: int = 4096) -> Callable[[K], V]:
    """``build``, remembering its value per argument object (at most ``limit`` entries).

    Use as a decorator. When full, the memory is cleared and starts again.
    """
    entries: dict[int, tuple[K, V]] = {}

    def cached(obj: K) -> V:
        hit = entries.get(id(obj))
        if hit is not None and hit[0] is obj:
            return hit[1]
        value = build(obj)
        if len(entries) >= limit:
            entries.clear()
        entries[id(obj)] = (obj, value)
        return value

    cached.__doc__ = build.__doc__
    cached.__name__ = getattr(build, "__name__", "cached")
    cached.__wrapped__ = build  # type: ignore[attr-defined]
    return cached
