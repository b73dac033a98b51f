"""Callables → views: every kind of callable, every source of description."""

from __future__ import annotations

import functools
import warnings
from collections.abc import AsyncIterator, Awaitable
from typing import Annotated, Any

import pytest
from pydantic import BaseModel, Field
from typing_extensions import Doc

from sktypes import IntrospectionError, function_view, kernel_function, plugin_views
from sktypes.introspect import SktypesWarning


class Answer(BaseModel):
    """The answer."""

    value: int


def google(city: str, days: int = 3) -> Answer:
    """Forecast for a city.

    Args:
        city: The city name.
        days: How many days.

    Returns:
        The forecast.
    """
    return Answer(value=days)


def numpy_style(city: str) -> int:
    """Forecast.

    Parameters
    ----------
    city : str
        The city name.

    Returns
    -------
    int
        Degrees.
    """
    return 1


def rest_style(city: str) -> int:
    """Forecast.

    :param city: The city name.
    :returns: Degrees.
    """
    return 1


@pytest.mark.parametrize("fn", [google, numpy_style, rest_style])
def test_docstring_styles_describe_parameters_and_returns(fn: Any) -> None:
    view = function_view(fn)
    assert view.description.startswith("Forecast")
    assert view.parameters[0].description == "The city name."
    assert view.return_parameter.description in ("The forecast.", "Degrees.")


def test_required_default_and_native_type_are_always_filled() -> None:
    view = function_view(google)
    city, days = view.parameters
    assert (city.is_required, city.default_value, city.native_type) == (True, None, str)
    assert (days.is_required, days.default_value, days.native_type) == (False, 3, int)
    assert days.schema is not None and days.schema.value["default"] == 3
    assert view.return_parameter.native_type is Answer
    assert view.return_parameter.schema is not None
    assert view.return_parameter.schema.value["description"] == "The answer."


def test_optional_without_default_is_required_but_nullable() -> None:
    def f(x: int | None) -> None: ...

    (x,) = function_view(f).parameters
    assert x.is_required
    assert x.schema is not None and x.schema.to_python() == {
        "anyOf": [{"type": "integer"}, {"type": "null"}]
    }


def test_annotated_string_field_and_doc_descriptions() -> None:
    def f(
        a: Annotated[int, "from a string"],
        b: Annotated[int, Field(ge=0, description="from Field")],
        c: Annotated[int, Doc("from Doc")],
        d: int = Field(5, le=9, description="from a Field default"),
        e: list[int] = Field(default_factory=list),
    ) -> None:
        """Docs.

        Args:
            a: loses to Annotated
        """

    a, b, c, d, e = function_view(f).parameters
    assert a.description == "from a string"
    assert b.description == "from Field"
    assert b.schema is not None and b.schema.value["minimum"] == 0
    assert c.description == "from Doc"
    assert (d.description, d.default_value, d.is_required) == ("from a Field default", 5, False)
    assert d.schema is not None and d.schema.value["maximum"] == 9
    assert (e.default_value, e.is_required) == ([], False)


class Plugin:
    @kernel_function(name="Renamed", description="Overrides the docstring.")
    def method(self, x: int) -> str:
        """Ignored."""
        return str(x)

    @staticmethod
    @kernel_function
    def static(x: int) -> int:
        return x

    @kernel_function
    @classmethod
    def klass(cls, x: int) -> int:
        return x

    @kernel_function
    async def coro(self, x: int) -> int:
        return x

    @kernel_function
    async def stream(self, n: int) -> AsyncIterator[str]:
        yield str(n)

    def unmarked(self) -> None: ...


def test_methods_skip_self_and_cls() -> None:
    for fn in (Plugin().method, Plugin.method, Plugin.static, Plugin.klass, Plugin().coro):
        view = function_view(fn)
        assert [p.name for p in view.parameters] == ["x"], fn
    assert function_view(Plugin().method).name == "Renamed"
    assert function_view(Plugin().method).description == "Overrides the docstring."
    assert function_view(Plugin().method).plugin_name == "Plugin"


def test_plugin_views_of_class_and_instance_keep_definition_order() -> None:
    names = [v.name for v in plugin_views(Plugin())]
    assert names == ["Renamed", "static", "klass", "coro", "stream"]
    assert [v.name for v in plugin_views(Plugin, "P")] == names
    assert {v.plugin_name for v in plugin_views(Plugin, "P")} == {"P"}
    bound = plugin_views(Plugin())[0].native_function
    assert bound is not None and bound(2) == "2"


def test_async_returns_are_unwrapped_and_streams_marked() -> None:
    coro = function_view(Plugin().coro).return_parameter
    assert coro.schema is not None and coro.schema.to_python() == {"type": "integer"}
    stream = function_view(Plugin().stream).return_parameter
    assert stream.is_streaming
    assert stream.schema is not None and stream.schema.to_python() == {"type": "string"}

    def awaitable() -> Awaitable[int]: ...

    assert function_view(awaitable).return_parameter.native_type is int


def test_none_return_has_no_schema() -> None:
    def f() -> None: ...

    def g():  # type: ignore[no-untyped-def]
        ...

    assert function_view(f).return_parameter.schema is None
    assert function_view(g).return_parameter.schema is None


def test_partial_hides_bound_arguments() -> None:
    view = function_view(functools.partial(google, "Oslo"))
    assert [p.name for p in view.parameters] == ["days"]
    view2 = function_view(functools.partial(google, days=7))
    assert view2.parameter("days").default_value == 7


def test_callable_instance() -> None:
    class Adder:
        def __call__(self, a: int, b: int = 1) -> int:
            return a + b

    view = function_view(Adder())
    assert view.name == "Adder"
    assert [p.name for p in view.parameters] == ["a", "b"]


def test_kwargs_allow_extra_and_args_are_skipped_with_a_warning() -> None:
    def f(a: int, *rest: int, **extra: Any) -> None: ...

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        view = function_view(f)
    assert [p.name for p in view.parameters] == ["a"]
    assert view.accepts_extra
    assert "additionalProperties" not in view.parameters_schema
    assert any(issubclass(w.category, SktypesWarning) and "*rest" in str(w.message) for w in caught)


def test_positional_and_keyword_only_parameters_are_kept() -> None:
    def f(a: int, /, b: int, *, c: int = 0) -> None: ...

    view = function_view(f)
    assert [(p.name, p.is_required) for p in view.parameters] == [
        ("a", True),
        ("b", True),
        ("c", False),
    ]
    assert view.parameters_schema["additionalProperties"] is False


def test_unresolvable_hint_names_the_function() -> None:
    def f(x: Missing) -> None: ...  # type: ignore[name-defined]  # noqa: F821

    with pytest.raises(
        IntrospectionError, match=r"test_unresolvable_hint_names_the_function.*Missing"
    ):
        function_view(f)


class Opaque:
    """A class pydantic cannot describe."""


def test_unsupported_parameter_type_names_function_and_parameter() -> None:
    def f(x: Opaque) -> None: ...

    with pytest.raises(IntrospectionError, match=r"f\(x\): type .*Opaque has no JSON Schema"):
        function_view(f)


def test_module_and_class_without_kernel_functions_are_errors() -> None:
    class Empty:
        def f(self) -> None: ...

    with pytest.raises(IntrospectionError, match="no @kernel_function"):
        plugin_views(Empty)


def test_second_view_is_cached() -> None:
    first = function_view(google)
    assert function_view(google) == first
    assert function_view(google).parameters is first.parameters


def test_field_defaults_do_not_defeat_the_type_cache() -> None:
    import types

    from sktypes.schema import _types

    def with_default(n: int = Field(default=1, ge=1, le=9, description="Travellers.")) -> None:
        """Book."""

    function_view(with_default)
    before = len(_types._SCHEMAS)
    for _ in range(5):
        copy = types.FunctionType(with_default.__code__, with_default.__globals__)
        copy.__defaults__ = with_default.__defaults__
        copy.__annotations__ = with_default.__annotations__
        assert (
            function_view(copy).parameters[0].schema
            == function_view(with_default).parameters[0].schema
        )
    assert len(_types._SCHEMAS) == before


def test_cached_view_of_a_function_is_the_same_object() -> None:
    assert function_view(google) is function_view(google)
    bound = Plugin()
    assert function_view(bound.method).parameters is function_view(bound.method).parameters
