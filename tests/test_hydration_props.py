"""Hypothesis properties: round trips per type family, fences, prose, prefixes, fuzzing."""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import enum
from typing import Any, Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel

import sktypes as sk
from sktypes.schema import type_adapter
from tests.hydration_models import Item, Movie, Order, Point, Status

text = st.text(st.characters(codec="utf-8", exclude_characters="`"), max_size=20)
floats = st.floats(allow_nan=False, allow_infinity=False, width=64)
dates = st.dates(min_value=dt.date(1900, 1, 1), max_value=dt.date(2100, 1, 1))
datetimes = st.datetimes(
    min_value=dt.datetime(1900, 1, 1),
    max_value=dt.datetime(2100, 1, 1),
    timezones=st.sampled_from([dt.UTC, dt.timezone(dt.timedelta(hours=-5))]),
)
items = st.builds(Item, sku=text, qty=st.integers(-(2**31), 2**31), price=floats)
orders = st.builds(
    Order,
    id=st.integers(0, 2**40),
    customer=text,
    items=st.lists(items, max_size=4),
    status=st.sampled_from(Status),
    placed_at=st.none() | datetimes,
    note=st.none() | text,
)
movies = st.fixed_dictionaries({"title": text, "year": st.integers(1880, 2100)})
points = st.builds(Point, x=floats, y=floats, label=text)


class Tagged(BaseModel):
    kind: Literal["a", "b"]
    value: int | str | None


tagged = st.builds(
    Tagged,
    kind=st.sampled_from(["a", "b"]),
    value=st.none() | st.integers() | text.filter(lambda s: not s.lstrip("-").isdigit()),
)

# (id, type, strategy, is_container)
FAMILIES: list[tuple[str, Any, st.SearchStrategy[Any], bool]] = [
    ("int", int, st.integers(), False),
    ("float", float, floats, False),
    ("str", str, text, False),
    ("bool", bool, st.booleans(), False),
    ("date", dt.date, dates, False),
    ("datetime", dt.datetime, datetimes, False),
    ("enum", Status, st.sampled_from(Status), False),
    ("list", list[int], st.lists(st.integers(), max_size=8), True),
    ("dict", dict[str, float], st.dictionaries(text, floats, max_size=5), True),
    ("tuple", tuple[int, str], st.tuples(st.integers(), text), True),
    ("model", Order, orders, True),
    ("typeddict", Movie, movies, True),
    ("dataclass", Point, points, True),
    ("union-model", Tagged, tagged, True),
    ("optional-list", list[Item] | None, st.none() | st.lists(items, max_size=3), False),
]


def _dumps(tp: Any, value: Any) -> str:
    return type_adapter(tp).dump_json(value).decode()


def _ids() -> list[Any]:
    return [pytest.param(tp, strat, box, id=name) for name, tp, strat, box in FAMILIES]


@pytest.mark.parametrize(("tp", "strategy", "container"), _ids())
@given(data=st.data())
def test_round_trip_through_json(tp: Any, strategy: Any, container: bool, data: Any) -> None:
    value = data.draw(strategy)
    assert sk.hydrate(tp, _dumps(tp, value)) == value


@pytest.mark.parametrize(("tp", "strategy", "container"), _ids())
@given(data=st.data())
def test_round_trip_through_code_fence(tp: Any, strategy: Any, container: bool, data: Any) -> None:
    value = data.draw(strategy)
    fenced = f"Here it is:\n```json\n{_dumps(tp, value)}\n```\nDone."
    assert sk.hydrate(tp, fenced) == value


@pytest.mark.parametrize(("tp", "strategy", "container"), [p for p in _ids() if p.values[2]])
@given(data=st.data())
def test_round_trip_through_prose(tp: Any, strategy: Any, container: bool, data: Any) -> None:
    value = data.draw(strategy)
    assert sk.hydrate(tp, f"Sure, here you go: {_dumps(tp, value)} Let me know!") == value


@pytest.mark.parametrize(("tp", "strategy", "container"), _ids())
@given(data=st.data())
def test_every_prefix_returns_or_raises_hydration_error(
    tp: Any, strategy: Any, container: bool, data: Any
) -> None:
    value = data.draw(strategy)
    dumped = _dumps(tp, value)
    for end in range(len(dumped) + 1):
        with contextlib.suppress(sk.HydrationError):
            sk.hydrate(tp, dumped[:end], partial=True)
    assert sk.hydrate(tp, dumped, partial=True) == value


@given(orders)
def test_partial_results_grow_towards_the_value(order: Order) -> None:
    dumped = _dumps(Order, order)
    seen = 0
    for end in range(0, len(dumped) + 1, 7):
        try:
            got = sk.hydrate(Order, dumped[:end], partial=True)
        except sk.HydrationError:
            continue
        assert isinstance(got, Order)
        assert len(got.model_fields_set) >= seen or got == order
        seen = len(got.model_fields_set)


@given(st.text(max_size=200))
def test_any_text_returns_or_raises_hydration_error(junk: str) -> None:
    for partial in (False, True):
        with contextlib.suppress(sk.HydrationError):
            sk.hydrate(Order, junk, partial=partial)


@given(st.binary(max_size=200))
def test_any_bytes_return_or_raise_hydration_error(junk: bytes) -> None:
    with contextlib.suppress(sk.HydrationError):
        sk.hydrate(dict[str, Any], junk)


json_chars = st.sampled_from(list("{}[]:,\"' \n0123456789.-+eEtrufalsnTFN/*#`\\abc"))


@given(orders, st.lists(st.tuples(st.integers(0, 10_000), json_chars), max_size=6))
def test_mangled_json_returns_or_raises_hydration_error(
    order: Order, edits: list[tuple[int, str]]
) -> None:
    chars = list(_dumps(Order, order))
    for at, ch in edits:
        if chars:
            chars[at % len(chars)] = ch
    mangled = "".join(chars)
    for target in (Order, Order.model_json_schema(), dict[str, Any]):
        for partial in (False, True):
            with contextlib.suppress(sk.HydrationError):
                sk.hydrate(target, mangled, partial=partial)


class Shape(enum.Enum):
    CIRCLE = "circle"
    SQUARE = "square"


@dataclasses.dataclass
class Drawing:
    shapes: list[Shape]


@given(st.lists(st.sampled_from(Shape), max_size=5))
def test_enum_names_hydrate_like_values(shapes: list[Shape]) -> None:
    by_name = "{'shapes': [" + ", ".join(f"'{s.name}'" for s in shapes) + "]}"
    assert sk.hydrate(Drawing, by_name) == Drawing(shapes)
