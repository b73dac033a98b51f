"""``by_identity``: one value per object, told apart by identity, never by equality."""

from __future__ import annotations

from sktypes._identity import by_identity


def test_a_value_is_built_once_per_object_and_equal_objects_are_not_confused() -> None:
    built: list[list[int]] = []

    @by_identity
    def total(numbers: list[int]) -> int:
        """Sum of the numbers."""
        built.append(numbers)
        return sum(numbers)

    first, twin = [1, 2], [1, 2]
    assert total(first) == 3 and total(first) == 3
    assert total(twin) == 3
    assert built == [first, twin] and built[0] is first and built[1] is twin
    assert total.__doc__ == "Sum of the numbers." and total.__name__ == "total"


def test_a_full_cache_forgets_the_least_recently_used_object_and_still_answers() -> None:
    calls: list[object] = []

    def build(obj: object) -> int:
        calls.append(obj)
        return len(calls)

    cached = by_identity(build, limit=2)
    a, b, c = object(), object(), object()
    assert [cached(a), cached(b), cached(a)] == [1, 2, 1]
    assert cached(c) == 3  # full: b, the least recently used, is forgotten
    assert cached(a) == 1
    assert cached(b) == 4  # built again; now c is the least recently used
    assert cached(a) == 1
    assert cached(c) == 5
    assert len(cached.cache) == 2  # type: ignore[attr-defined]


def test_a_weak_cache_entry_goes_with_its_object() -> None:
    import gc

    from sktypes._identity import WeakCache

    cache: WeakCache[object, int] = WeakCache()

    def f() -> None:
        return None

    cache.put(f, 1)
    assert cache.get(f) == 1 and len(cache) == 1
    del f
    gc.collect()
    assert len(cache) == 0


def test_value_caches_are_bounded_and_keep_the_recent() -> None:
    from sktypes._identity import ValueCache

    cache: ValueCache[int, int] = ValueCache(3)
    for i in range(5):
        cache.put(i, i * 10)
    assert len(cache) == 3 and cache.get(0) is None and cache.get(4) == 40
    cache.get(2)
    cache.put(5, 50)
    assert cache.get(2) == 20 and cache.get(3) is None
