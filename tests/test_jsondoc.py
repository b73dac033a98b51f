"""JSON equality as JSON means it, and the one JSON Pointer helper."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sktypes import _pointer
from sktypes.jsondoc import FrozenDict, JsonDocument, freeze, json_equal, json_hash


def test_true_is_not_one_in_frozen_objects() -> None:
    assert FrozenDict({"a": 1}) != FrozenDict({"a": True})
    assert FrozenDict({"a": 0}) != FrozenDict({"a": False})
    assert FrozenDict({"a": [1]}) != {"a": [True]}
    assert JsonDocument.from_value(1) != JsonDocument.from_value(True)
    assert JsonDocument.from_value([0]) != JsonDocument.from_value([False])


def test_equal_objects_hash_equally() -> None:
    a = FrozenDict({"a": 1, "b": [1, {"c": None}]})
    b = freeze({"b": [1, {"c": None}], "a": 1})
    assert a == b and hash(a) == hash(b) and a == {"b": [1, {"c": None}], "a": 1}
    assert JsonDocument.from_value(a) == JsonDocument.from_value(b)
    assert hash(JsonDocument.from_value(a)) == hash(JsonDocument.from_value(b))
    # documents compare as JSON texts: 1.0 is written differently from 1
    assert JsonDocument.from_value(1) != JsonDocument.from_value(1.0)


def test_numbers_compare_by_value_and_arrays_by_items() -> None:
    assert json_equal(1, 1.0) and json_equal([1, 2], (1, 2))
    assert not json_equal([1, 2], [2, 1]) and not json_equal("1", 1)
    assert not json_equal(None, False) and json_equal(None, None)
    assert json_equal({"a": 1, "b": 2}, {"b": 2, "a": 1})
    assert not json_equal({"a": 1}, {"a": 1, "b": 2})


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.floats(-3, 3, allow_nan=False)
    | st.text(max_size=3),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=2), inner, max_size=3)
    ),
    max_leaves=10,
)


@given(json_values, json_values)
def test_equality_and_hash_agree_on_any_json(a: Any, b: Any) -> None:
    fa, fb = freeze(a), freeze(b)
    if json_equal(fa, fb):
        assert json_hash(fa) == json_hash(fb)
    assert json_equal(fa, a) and json_hash(fa) == json_hash(a)
    da, db = JsonDocument.from_value(a), JsonDocument.from_value(b)
    if da == db:
        assert hash(da) == hash(db) and json_equal(a, b)
    if isinstance(fa, FrozenDict) and isinstance(fb, FrozenDict) and fa == fb:
        assert hash(fa) == hash(fb)


@pytest.mark.parametrize(
    ("pointer", "tokens"),
    [
        ("", []),
        ("#", []),
        ("/a~1b/~0c/0", ["a/b", "~c", "0"]),
        ("#/a%20b/~01", ["a b", "~1"]),
        ("/a%20b", ["a%20b"]),
        ("/", [""]),
    ],
)
def test_pointers_split_into_unescaped_tokens(pointer: str, tokens: list[str]) -> None:
    assert _pointer.split(pointer) == tokens


def test_join_escapes_and_resolve_follows() -> None:
    doc = {"a/b": [{"~k": 3}], "": {"x": 1}}
    where = _pointer.join("", "a/b", 0, "~k")
    assert where == "/a~1b/0/~0k"
    assert _pointer.resolve(doc, where) == 3 and _pointer.resolve(doc, "#/a~1b/0/~0k") == 3
    assert _pointer.resolve(doc, "//x") == 1
    assert _pointer.parent_and_name("#/$defs/Pet") == ("/$defs", "Pet")
    for bad in ("/a~1b/1", "/a~1b/01", "/nope", "/a~1b/0/~k/x"):
        with pytest.raises(_pointer.PointerError, match="no value"):
            _pointer.resolve(doc, bad)
    with pytest.raises(_pointer.PointerError, match="must start with '/'"):
        _pointer.split("a/b")


@given(st.lists(st.text(max_size=4), max_size=4))
def test_join_then_split_gives_the_tokens_back(tokens: list[str]) -> None:
    assert _pointer.split(_pointer.join("", *tokens)) == tokens
