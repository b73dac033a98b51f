"""The kernel's fast path of ``prepare_arguments`` decides exactly as the full path.

The fast path serves functions whose parameters are all ``str``/``int``/``float``/``bool``;
whatever it returns must be what validation plus hydration return, and whatever it
declines (``None``) goes the full way. A ``MappingProxyType`` of the same arguments takes
the full path (the shortcut is for plain dicts), which is the reference here.
"""

from __future__ import annotations

import asyncio
import dataclasses
import re
import types
from typing import Annotated, Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import Field

from sktypes import function_view
from sktypes.errors import SktypesError
from sktypes.jsondoc import JsonDocument
from sktypes.kernel import Kernel, KernelFunction
from sktypes.kernel._prepare import fast_path, prepare_arguments


def scalars(a: int, b: float = 1.5, c: bool = False, d: str = "x", e: str | None = None) -> str:
    """Every plain kind, some with defaults (``e`` is optional, so not plain)."""
    return f"{a}{b}{c}{d}{e}"


def plain(a: int, b: float = 1.5, c: bool = False, d: str = "x") -> str:
    """Every plain kind, some with defaults."""
    return f"{a}{b}{c}{d}"


def constrained(a: Annotated[str, Field(max_length=3)], n: int = 2) -> str:
    """A constraint makes the native type ``Annotated``: the full path."""
    return a * n


def short_text_view() -> KernelFunction:
    """A view whose native types are plain but whose schema says more (``minimum``)."""
    view = function_view(plain)
    first = view.parameters[0]
    schema = {"type": "integer", "minimum": 0}
    params = (
        dataclasses.replace(first, schema=JsonDocument(schema)),
        *view.parameters[1:],
    )
    return KernelFunction.from_view(dataclasses.replace(view, parameters=params))


FUNCTIONS = {
    "plain": KernelFunction.from_callable(plain),
    "scalars": KernelFunction.from_callable(scalars),
    "constrained": KernelFunction.from_callable(constrained),
    "checked": short_text_view(),
}

json_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.text(max_size=5),
    st.lists(st.integers(), max_size=2),
)
argument_dicts = st.dictionaries(st.sampled_from(["a", "b", "c", "d", "e", "n", "zz"]), json_values)


def outcome(fn: KernelFunction, arguments: Any) -> Any:
    """The prepared arguments with each value's type, or the error's type and message."""
    try:
        ready = prepare_arguments(fn, arguments)
    except SktypesError as exc:
        return (type(exc).__name__, str(exc))
    return {k: (type(v), v) for k, v in ready.items()}


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
@given(arguments=argument_dicts)
def test_the_fast_path_prepares_exactly_what_the_full_path_does(
    name: str, arguments: dict[str, Any]
) -> None:
    fn = FUNCTIONS[name]
    assert outcome(fn, dict(arguments)) == outcome(fn, types.MappingProxyType(arguments))


def test_which_functions_take_the_fast_path() -> None:
    assert fast_path(FUNCTIONS["plain"]) is not None
    assert fast_path(FUNCTIONS["checked"]) is not None  # plain natives, compiled check
    assert fast_path(FUNCTIONS["scalars"]) is None  # str | None
    assert fast_path(FUNCTIONS["constrained"]) is None  # Annotated[str, ...]


def test_the_fast_path_takes_exact_types_and_fills_defaults() -> None:
    ready = fast_path(FUNCTIONS["plain"])
    assert ready is not None
    assert ready({"a": 1}) == {"a": 1, "b": 1.5, "c": False, "d": "x"}
    assert ready({"a": 1, "b": 2}) is None  # 2 becomes 2.0: pydantic's work
    assert ready({"a": True}) is None  # a bool is not an int here
    assert ready({"b": 2.0}) is None  # a is required
    assert ready({"a": 1, "zz": 1}) is None  # unknown names are the full path's to report


def test_the_fast_path_checks_what_the_schema_adds() -> None:
    ready = fast_path(FUNCTIONS["checked"])
    assert ready is not None
    assert ready({"a": 3}) == {"a": 3, "b": 1.5, "c": False, "d": "x"}
    assert ready({"a": -1}) is None
    with pytest.raises(SktypesError, match="minimum"):
        prepare_arguments(FUNCTIONS["checked"], {"a": -1})


def test_the_kernel_invokes_through_the_fast_path_with_the_same_result() -> None:
    kernel = Kernel()
    kernel.add_function(plain, "p")
    result = asyncio.run(kernel.invoke("p.plain", {"a": 7, "d": "y"}))
    assert result.value == "71.5Falsey"


def test_find_function_answers_as_get_function_without_raising() -> None:
    kernel = Kernel()
    kernel.add_function(plain, "a")
    kernel.add_function(plain, "b")
    kernel.add_function(scalars, "a")
    assert kernel.find_function("a.plain") is kernel.get_function("a.plain")
    assert kernel.find_function("scalars") is kernel.get_function("scalars")
    assert kernel.find_function("plain", "b") is kernel.get_function("plain", "b")
    assert kernel.find_function("plain") is None  # ambiguous: get_function explains
    with pytest.raises(SktypesError, match=re.escape("ambiguous: one of ['a.plain', 'b.plain']")):
        kernel.get_function("plain")
    assert kernel.find_function("a.nope") is None
    with pytest.raises(SktypesError, match=re.escape("no function named 'a.nope'")):
        kernel.get_function("a.nope")
