"""NaN and ±Infinity are refused by looking where a type's floats can be (issue 25).

The check of a type's float places (``sktypes.hydration._float_slots``) is compiled once
per type and says either "every float is finite" or "look closer"; whatever it says, what
``hydrate`` refuses and accepts is what the full check decides. These tests hold both
ends: the types it follows, the ones it leaves to the full check, and that every spelling
of a non-finite float is refused at its path through either.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Annotated, Any, NotRequired

import pytest
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    RootModel,
    TypeAdapter,
    field_validator,
    model_validator,
)
from typing_extensions import TypedDict

import sktypes as sk
from sktypes.errors import HydrationError
from sktypes.hydration._float_slots import float_check


class Point(BaseModel):
    x: float
    y: float | None = None
    label: str = ""


class Shape(BaseModel):
    name: str
    points: list[Point]
    weights: dict[str, float] = Field(default_factory=dict)
    span: tuple[float, int] = (0.0, 0)
    scale: int | float = 1


class Reading(TypedDict):
    value: NotRequired[float]
    unit: str


@dataclasses.dataclass
class Sample:
    at: float
    tags: list[str]


class Series(RootModel[list[float]]):
    pass


class Loose(BaseModel):
    model_config = ConfigDict(extra="allow")
    x: float


class Checked(BaseModel):
    x: str

    @field_validator("x")
    @classmethod
    def keep(cls, value: str) -> str:
        return value


class Parsed(BaseModel):
    """A field validator that makes a float of a string: its value is checked whole."""

    v: Annotated[str, AfterValidator(float)]


class Whole(BaseModel):
    points: list[Point]

    @model_validator(mode="after")
    def keep(self) -> Whole:
        return self


FOLLOWED = [Shape, list[Point], Reading, Sample, Series, dict[str, list[float]], float, Checked]
GENERAL = [Any, dict[str, Any], Loose, Whole]


@pytest.mark.parametrize("tp", FOLLOWED, ids=repr)
def test_types_whose_float_places_are_known_get_a_check(tp: Any) -> None:
    assert float_check(TypeAdapter(tp)) is not None


@pytest.mark.parametrize("tp", GENERAL, ids=repr)
def test_types_with_places_it_cannot_follow_keep_the_full_check(tp: Any) -> None:
    assert float_check(TypeAdapter(tp)) is None


def test_a_type_without_floats_needs_no_look() -> None:
    check = float_check(TypeAdapter(list[dict[str, int]]))
    assert check is not None and check([{"a": 1}])


def test_the_check_finds_a_non_finite_float_at_every_kind_of_place() -> None:
    check = float_check(TypeAdapter(Shape))
    assert check is not None
    good = Shape(name="s", points=[Point(x=1.0), Point(x=2.0, y=3.0)], weights={"a": 1.0})
    assert check(good)
    bad = [
        good.model_copy(update={"points": [Point(x=math.inf)]}),
        good.model_copy(update={"points": [Point(x=1.0, y=math.nan)]}),
        good.model_copy(update={"weights": {"a": -math.inf}}),
        good.model_copy(update={"span": (math.nan, 1)}),
        good.model_copy(update={"scale": math.inf}),
    ]
    for value in bad:
        assert not check(value), value


def test_finite_values_whose_sum_overflows_are_still_finite() -> None:
    check = float_check(TypeAdapter(list[float]))
    assert check is not None
    assert check([1e308, 1e308])
    assert not check([1e308, math.nan])


_SPELLINGS = [
    "NaN",
    "-Infinity",
    '"nan"',
    '" -Inf "',
    "1e400",
    '"1e999"',
    "1" + "0" * 250 + "e99",  # 210 digits before the point and a two-digit exponent
    "1" + "0" * 250 + ".5e99",
]


@pytest.mark.parametrize("spelling", _SPELLINGS)
@pytest.mark.parametrize(
    ("template", "path"),
    [
        ('{{"name": "s", "points": [{{"x": 1}}, {{"x": 2, "y": {0}}}]}}', "$.points[1].y"),
        ('{{"name": "s", "points": [], "weights": {{"w": {0}}}}}', "$.weights.w"),
        ('{{"name": "s", "points": [], "span": [{0}, 1]}}', "$.span[0]"),
        ('{{"name": "s", "points": [], "scale": {0}}}', "$.scale"),
    ],
)
def test_every_spelling_of_a_non_finite_float_is_refused_at_its_path(
    spelling: str, template: str, path: str
) -> None:
    text = template.format(spelling)
    try:
        lax = sk.hydrate(Shape, text, allow_inf_nan=True)
    except HydrationError:
        return  # pydantic refuses this spelling here anyway
    assert lax is not None
    with pytest.raises(HydrationError, match="not a JSON number") as info:
        sk.hydrate(Shape, text)
    assert info.value.errors[0].path in (path, "$")


def test_a_nan_token_in_an_ignored_member_is_still_refused() -> None:
    """The value never holds it, but the answer spelled it: refused wherever it appears."""
    with pytest.raises(HydrationError, match="not a JSON number"):
        sk.hydrate(Point, '{"x": 1, "junk": NaN}')


def test_a_nan_token_after_many_capitals_is_found() -> None:
    prose = "NORTH NOTE INDEX " * 4000
    text = '{"label": "' + prose + '", "x": 1, "y": NaN}'
    with pytest.raises(HydrationError, match="not a JSON number"):
        sk.hydrate(Point, text)
    assert sk.hydrate(Point, '{"label": "' + prose + 'NaN Infinity", "x": 1}').x == 1.0


def test_partial_prefixes_refuse_non_finite_floats_too() -> None:
    with pytest.raises(HydrationError, match="not a JSON number"):
        sk.hydrate(Shape, '{"name": "s", "points": [{"x": NaN}, {"x": 1', partial=True)
    got = sk.hydrate(Shape, '{"name": "s", "points": [{"x": 1.5}, {"x": 2', partial=True)
    assert got.points[0].x == 1.5


def test_what_a_field_validator_makes_is_checked_whole() -> None:
    assert float_check(TypeAdapter(Parsed)) is not None
    assert sk.hydrate(Parsed, '{"v": "1.5"}').v == 1.5
    with pytest.raises(HydrationError, match="not a JSON number") as info:
        sk.hydrate(Parsed, '{"v": "nan"}')
    assert info.value.errors[0].path == "$.v"


def test_the_parsed_value_walk_and_the_result_walk_differ_only_in_shapes_and_keys() -> None:
    """One walker: a parsed JSON value's walk (``check_value``) follows lists, tuples and
    string-keyed members; a hydrated result's (``check_result``) every dict member, sets,
    models and dataclasses too. Each says the path of the first non-finite float."""
    from sktypes.hydration._errors import Invalid
    from sktypes.hydration._finite import check_value
    from sktypes.hydration._float_slots import check_result

    def path(check: Any, value: Any) -> str | None:
        try:
            check(value)
        except Invalid as exc:
            return exc.details[0].path
        return None

    @dataclasses.dataclass
    class Box:
        size: float

    nan = math.nan
    assert path(check_value, {"a": [1.0, {"b": nan}]}) == "$.a[1].b"
    assert path(check_result, {"a": [1.0, {"b": nan}]}) == "$.a[1].b"
    assert path(check_value, ({"x": -math.inf},)) == "$[0].x"
    for beyond_json in ({1: nan}, {nan}, frozenset({math.inf}), Point(x=nan), Box(nan)):
        assert path(check_value, beyond_json) is None
        assert path(check_result, beyond_json) is not None
    assert path(check_result, {1: nan}) == '$["1"]'
    assert path(check_result, Point(x=1.0, y=math.inf)) == "$.y"
    assert path(check_result, Box(nan)) == "$.size"
