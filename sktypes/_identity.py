"""The one cache mechanism: bounded memories of derived values, by identity or by value.

Hot paths meet the same objects again and again (function views, schema documents, kernel
functions) and derive things from them that cost far more than a lookup: a compiled
check, a hydration target, a parsed schema model. Two small classes keep them:

- :class:`IdentityCache` keys an object by ``id`` and keeps the object beside its value, so
  the ``id`` cannot be reused while the entry lives and a hit is confirmed with ``is``.
  Nothing is hashed: a view whose hash covers every schema it holds costs the same to
  look up as any other object.
- :class:`ValueCache` keys by an ordinary hashable value (a type, a canonical text).
- :class:`WeakCache` keys by an object that can be weakly referenced and hashes by
  identity (a function): the entry goes when the object does.

The first two are bounded and evict the least recently used entry, so a long-running server that
makes new objects per request holds at most ``limit`` of them; nothing grows without
limit, and nothing is global except these bounded instances.
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["IdentityCache", "ValueCache", "WeakCache", "by_identity"]

K = TypeVar("K")
V = TypeVar("V")
H = TypeVar("H", bound=Hashable)

_MISS = object()


class IdentityCache(Generic[K, V]):
    """A bounded least-recently-used map from objects (by identity) to derived values.

    Args:
        limit: how many entries it keeps at most.
    """

    __slots__ = ("_entries", "limit")

    def __init__(self, limit: int = 4096) -> None:
        self.limit = limit
        self._entries: OrderedDict[int, tuple[K, V]] = OrderedDict()

    def get(self, obj: K) -> V | None:
        """The value kept for ``obj`` itself, or ``None``."""
        hit = self._entries.get(id(obj))
        if hit is None or hit[0] is not obj:
            return None
        self._entries.move_to_end(id(obj))
        return hit[1]

    def put(self, obj: K, value: V) -> V:
        """Keep ``value`` for ``obj`` (dropping the least recently used entry when full)."""
        self._entries[id(obj)] = (obj, value)
        self._entries.move_to_end(id(obj))
        while len(self._entries) > self.limit:
            self._entries.popitem(last=False)
        return value

    def clear(self) -> None:
        """Forget everything."""
        self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)


class ValueCache(Generic[H, V]):
    """A bounded least-recently-used map from hashable keys to derived values.

    Args:
        limit: how many entries it keeps at most.
    """

    __slots__ = ("_entries", "limit")

    def __init__(self, limit: int = 4096) -> None:
        self.limit = limit
        self._entries: OrderedDict[H, V] = OrderedDict()

    def get(self, key: H) -> V | None:
        """The value kept for ``key``, or ``None``."""
        value = self._entries.get(key, _MISS)
        if value is _MISS:
            return None
        self._entries.move_to_end(key)
        return value  # type: ignore[return-value]

    def put(self, key: H, value: V) -> V:
        """Keep ``value`` for ``key`` (dropping the least recently used entry when full)."""
        self._entries[key] = value
        self._entries.move_to_end(key)
        while len(self._entries) > self.limit:
            self._entries.popitem(last=False)
        return value

    def clear(self) -> None:
        """Forget everything."""
        self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)


class WeakCache(Generic[K, V]):
    """A map from objects (by identity) to derived values that lives as long as they do.

    For keys that hash by identity and accept weak references (functions): a function
    made per request takes its entry with it when it is freed, so there is no bound to
    set. Lookups never hash anything but the object's identity.
    """

    __slots__ = ("_entries",)

    def __init__(self) -> None:
        self._entries: weakref.WeakKeyDictionary[K, V] = weakref.WeakKeyDictionary()

    def get(self, obj: K) -> V | None:
        """The value kept for ``obj``, or ``None``."""
        return self._entries.get(obj)

    def put(self, obj: K, value: V) -> V:
        """Keep ``value`` for as long as ``obj`` lives."""
        self._entries[obj] = value
        return value

    def __len__(self) -> int:
        return len(self._entries)


def by_identity(build: Callable[[K], V], limit: int = 4096) -> Callable[[K], V]:
    """``build``, remembering its value per argument object (an :class:`IdentityCache`).

    Use as a decorator. ``build`` may return ``None``; that is remembered too.
    """
    cache: IdentityCache[K, tuple[V]] = IdentityCache(limit)

    def cached(obj: K) -> V:
        hit = cache.get(obj)
        if hit is not None:
            return hit[0]
        return cache.put(obj, (build(obj),))[0]

    cached.__doc__ = build.__doc__
    cached.__name__ = getattr(build, "__name__", "cached")
    cached.__wrapped__ = build  # type: ignore[attr-defined]
    cached.cache = cache  # type: ignore[attr-defined]
    return cached
