"""Targets (views, function views, schemas), partial hydration, streams, bounds and the CLI."""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
import json
import time
from collections.abc import AsyncIterator
from typing import Any, Literal

import pytest
from click.testing import CliRunner
from pydantic import BaseModel, field_validator

import sktypes as sk
from sktypes.cli import cli
from sktypes.hydration import HydrationLimits, ahydrate_stream
from tests.hydration_models import Item, Movie, Node, Order, Status, Weather


def get_weather(city: str, date: dt.date, units: Literal["c", "f"] = "c", days: int = 1) -> Weather:
    """Get the weather for a city on a date."""
    raise NotImplementedError


def search(query: str, **filters: str) -> list[str]:
    """Search with any filters."""
    raise NotImplementedError


# --- parameter and return views ----------------------------------------------------------


def test_parameter_view_with_native_type_gives_native_value() -> None:
    date = sk.function_view(get_weather).parameter("date")
    assert sk.hydrate(date, '"2024-05-01"') == dt.date(2024, 5, 1)


def test_parameter_view_without_native_type_validates_against_its_schema() -> None:
    view = sk.ParameterView(name="days", schema={"type": "integer", "minimum": 1})
    assert sk.hydrate(view, "3") == 3
    assert sk.hydrate(view, '"4"') == 4  # lax: numeric strings
    with pytest.raises(sk.HydrationError) as info:
        sk.hydrate(view, "0")
    assert info.value.errors[0].path == "$"
    assert "minimum" in info.value.errors[0].message


def test_return_view_hydrates_the_native_return_type() -> None:
    ret = sk.function_view(get_weather).return_parameter
    text = '```json\n{"city": "Oslo", "temp_c": -3, "date": "2024-01-02"}\n```'
    assert sk.hydrate(ret, text) == Weather(city="Oslo", temp_c=-3, date=dt.date(2024, 1, 2))


def test_return_view_without_schema_accepts_any_json() -> None:
    assert sk.hydrate(sk.ReturnParameterView(), "{'a': [1, None]}") == {"a": [1, None]}


# --- function views ----------------------------------------------------------------------


def test_function_view_turns_openai_arguments_string_into_native_dict() -> None:
    view = sk.function_view(get_weather)
    args = sk.hydrate(view, '{"city": "Paris", "date": "2024-05-01"}')
    assert args == {"city": "Paris", "date": dt.date(2024, 5, 1), "units": "c", "days": 1}


def test_function_view_takes_already_parsed_arguments() -> None:
    view = sk.function_view(get_weather)
    args = sk.hydrate(view, {"city": "Paris", "date": "2024-05-01", "days": "3"})
    assert args == {"city": "Paris", "date": dt.date(2024, 5, 1), "units": "c", "days": 3}


def test_function_view_reports_missing_unknown_and_wrong_arguments_at_once() -> None:
    view = sk.function_view(get_weather)
    with pytest.raises(sk.HydrationError) as info:
        sk.hydrate(view, '{"date": "tomorrow", "units": "k", "colour": "red"}')
    by_path = {e.path: e.message for e in info.value.errors}
    assert set(by_path) == {"$.city", "$.date", "$.units", "$.colour"}
    assert "missing" in by_path["$.city"]
    assert "unknown" in by_path["$.colour"]
    assert "get_weather" in str(info.value)


def test_function_view_with_kwargs_keeps_extra_arguments() -> None:
    view = sk.function_view(search)
    assert sk.hydrate(view, '{"query": "q", "lang": "en"}') == {"query": "q", "lang": "en"}


def test_function_view_without_native_types_uses_parameter_schemas() -> None:
    view = sk.FunctionView(
        name="book",
        plugin_name="Travel",
        parameters=(
            sk.ParameterView(name="seats", schema={"type": "integer", "maximum": 9}),
            sk.ParameterView(
                name="class",
                schema={"enum": ["eco", "biz"]},
                is_required=False,
                default_value="eco",
            ),
        ),
    )
    assert sk.hydrate(view, "{'seats': 2}") == {"seats": 2, "class": "eco"}
    with pytest.raises(sk.HydrationError) as info:
        sk.hydrate(view, '{"seats": 12, "class": "first"}')
    assert [e.path for e in info.value.errors] == ["$.seats", "$.class"]


def test_function_view_default_values_are_not_shared_between_calls() -> None:
    view = sk.FunctionView(
        name="f",
        parameters=(
            sk.ParameterView(
                name="tags", native_type=list[str], is_required=False, default_value=[]
            ),
        ),
    )
    first = sk.hydrate(view, "{}")
    first["tags"].append("x")
    assert sk.hydrate(view, "{}") == {"tags": []}


def test_function_view_double_encoded_arguments() -> None:
    view = sk.function_view(get_weather)
    text = json.dumps(json.dumps({"city": "Rome", "date": "2024-05-02"}))
    assert sk.hydrate(view, text)["date"] == dt.date(2024, 5, 2)


# --- JSON Schema targets ------------------------------------------------------------------

SCHEMA = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "age": {"type": "integer", "minimum": 0},
        "tags": {"type": "array", "items": {"type": "string"}},
        "active": {"type": "boolean"},
    },
    "required": ["name", "age"],
    "additionalProperties": False,
}


def test_schema_target_returns_json_values() -> None:
    got = sk.hydrate(SCHEMA, "```json\n{'name': 'Ada', 'age': 36, 'tags': ['x',],}\n```")
    assert got == {"name": "Ada", "age": 36, "tags": ["x"]}


def test_schema_target_coerces_numeric_and_boolean_strings_in_lax_mode() -> None:
    got = sk.hydrate(SCHEMA, '{"name": "Ada", "age": "36", "active": "false"}')
    assert got == {"name": "Ada", "age": 36, "active": False}
    with pytest.raises(sk.HydrationError):
        sk.hydrate(SCHEMA, '{"name": "Ada", "age": "36"}', strict=True)


def test_schema_target_reports_every_violation() -> None:
    with pytest.raises(sk.HydrationError) as info:
        sk.hydrate(SCHEMA, '{"age": -1, "tags": [1], "extra": true}')
    by_path = {e.path: e.message for e in info.value.errors}
    assert sorted(by_path) == ["$.age", "$.extra", "$.name", "$.tags[0]"]
    assert by_path["$.name"] == "required property missing"
    assert by_path["$.extra"] == "unknown property (not allowed here)"


def test_json_document_target_is_a_schema_target() -> None:
    doc = sk.JsonDocument.from_value({"type": "array", "items": {"type": "number"}})
    assert sk.hydrate(doc, "[1, 2.5]") == [1, 2.5]


def test_broken_schema_is_a_hydration_error() -> None:
    with pytest.raises(sk.HydrationError):
        sk.hydrate({"type": 12}, "1")


# --- partial hydration ----------------------------------------------------------------------


def test_truncated_final_answer_is_an_error_not_a_completion() -> None:
    with pytest.raises(sk.HydrationError) as info:
        sk.hydrate(Weather, '{"city": "Paris", "temp_c": 21')
    assert "truncated" in info.value.errors[0].message


def test_partial_leaves_out_fields_not_yet_complete() -> None:
    got = sk.hydrate(Weather, '{"city": "Paris", "temp_c": 21', partial=True)
    assert isinstance(got, Weather)
    assert got.city == "Paris"
    assert got.model_fields_set == {"city"}


def test_partial_drops_a_half_written_string() -> None:
    got = sk.hydrate(Order, '{"id": 1, "customer": "Ad', partial=True)
    assert (got.id, got.customer) == (1, None)
    assert got.status is Status.PENDING  # defaults stay defaults


def test_partial_keeps_complete_items_and_the_open_one() -> None:
    got = sk.hydrate(Order, '{"id": 1, "items": [{"sku": "a", "qty": 2}, {"sku": "b"', partial=True)
    assert [(i.sku, i.qty) for i in got.items] == [("a", 2), ("b", None)]


def test_partial_typeddict_and_function_view() -> None:
    assert sk.hydrate(Movie, '{"title": "Up", "year": 20', partial=True) == {"title": "Up"}
    view = sk.function_view(get_weather)
    assert sk.hydrate(view, '{"city": "Oslo", "da', partial=True) == {"city": "Oslo"}


def test_partial_still_reports_wrong_complete_values() -> None:
    with pytest.raises(sk.HydrationError) as info:
        sk.hydrate(Item, '{"sku": "a", "qty": "many", "pr', partial=True)
    assert info.value.errors[0].path == "$.qty"


# --- streams --------------------------------------------------------------------------------

ORDER_TEXT = (
    'Here you go:\n```json\n{"id": 9, "customer": "Bo", "items": '
    '[{"sku": "a", "qty": 1}, {"sku": "b", "qty": 2}], "status": "shipped"}\n```'
)


def _chunks(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


def test_stream_yields_growing_values_and_ends_with_the_complete_one() -> None:
    values = list(sk.hydrate_stream(Order, _chunks(ORDER_TEXT, 5)))
    assert values[-1] == sk.hydrate(Order, ORDER_TEXT)
    assert type(values[-1]) is Order
    counts = [len(v.items or []) for v in values]
    assert counts == sorted(counts)
    assert len(values) > 3
    assert all(a != b for a, b in itertools.pairwise(values))


def test_stream_of_utf8_bytes_split_inside_characters() -> None:
    raw = json.dumps({"title": "Amélie — 天使", "year": 2001}, ensure_ascii=False).encode()
    values = list(sk.hydrate_stream(Movie, [raw[i : i + 3] for i in range(0, len(raw), 3)]))
    assert values[-1] == {"title": "Amélie — 天使", "year": 2001}


def test_stream_that_ends_early_raises() -> None:
    with pytest.raises(sk.HydrationError):
        list(sk.hydrate_stream(Order, _chunks(ORDER_TEXT[:60], 7)))


def test_async_stream() -> None:
    async def source() -> AsyncIterator[str]:
        for chunk in _chunks(ORDER_TEXT, 11):
            yield chunk

    async def collect() -> list[Any]:
        return [v async for v in ahydrate_stream(Order, source())]

    values = asyncio.run(collect())
    assert values[-1].status is Status.SHIPPED


def test_stream_of_a_large_answer_is_parsed_a_bounded_number_of_times() -> None:
    items = [{"sku": f"s{i}", "qty": i} for i in range(4000)]
    text = json.dumps({"id": 1, "customer": "c", "items": items})
    start = time.perf_counter()
    values = list(sk.hydrate_stream(Order, _chunks(text, len(text) // 1000 + 1)))
    elapsed = time.perf_counter() - start
    assert len(values[-1].items) == 4000
    assert len(values) < 500  # not one full parse per chunk
    assert elapsed < 20


# --- bounds and robustness -----------------------------------------------------------------


def test_five_megabyte_input_returns_quickly() -> None:
    items = [{"sku": "x" * 20, "qty": i, "price": 1.5} for i in range(90_000)]
    text = json.dumps({"id": 1, "customer": "c", "items": items})
    assert len(text) > 5_000_000
    start = time.perf_counter()
    assert len(sk.hydrate(Order, text).items) == 90_000
    assert len(sk.hydrate(Order, "Sure: " + text.replace("}]", "},]")).items) == 90_000
    assert time.perf_counter() - start < 30


@pytest.mark.parametrize("partial", [False, True])
@pytest.mark.parametrize("target", [list[Any], Any, dict[str, Any], {"type": "array"}])
def test_ten_thousand_deep_nesting_fails_fast(target: Any, partial: bool) -> None:
    for text in ("[" * 10_000 + "]" * 10_000, "[" * 10_000, "{'a': " * 10_000):
        start = time.perf_counter()
        with pytest.raises(sk.HydrationError) as info:
            sk.hydrate(target, text, partial=partial)
        assert time.perf_counter() - start < 2
        assert info.value.errors


def test_deeply_nested_parsed_value_fails_without_recursion_error() -> None:
    value: dict[str, Any] = {"name": "leaf"}
    for _ in range(10_000):
        value = {"name": "n", "children": [value]}
    with pytest.raises(sk.HydrationError):
        sk.hydrate(Node, value)


def test_size_limit_is_configurable() -> None:
    with pytest.raises(sk.HydrationError) as info:
        sk.hydrate(list[int], "[1, 2, 3]", limits=HydrationLimits(max_size=4))
    assert "limit" in info.value.errors[0].message


def test_depth_limit_is_configurable() -> None:
    text = "[[[[1,]]]]"
    assert sk.hydrate(list[Any], text) == [[[[1]]]]
    with pytest.raises(sk.HydrationError) as info:
        sk.hydrate(list[Any], text, limits=HydrationLimits(max_depth=3))
    assert "deeper than 3" in info.value.errors[0].message


class Touchy(BaseModel):
    value: int

    @field_validator("value")
    @classmethod
    def explode(cls, v: int) -> int:
        raise TypeError("validator bug")


def test_a_validator_raising_anything_becomes_a_hydration_error() -> None:
    with pytest.raises(sk.HydrationError) as info:
        sk.hydrate(Touchy, '{"value": 1}')
    assert "TypeError" in info.value.errors[0].message


@pytest.mark.parametrize("target", [object(), lambda: None, 3])
def test_a_target_that_cannot_be_hydrated_is_a_hydration_error(target: Any) -> None:
    with pytest.raises(sk.HydrationError) as info:
        sk.hydrate(target, "1")
    assert "cannot hydrate" in str(info.value)


# --- CLI ---------------------------------------------------------------------------------------


def _cli(*args: str, stdin: str = "") -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["hydrate", *args], input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_cli_prints_canonical_json_of_the_value() -> None:
    text = "Sure:\n```json\n{'qty': '2', 'sku': 'A-1',}\n```"
    code, out, _ = _cli("tests.hydration_models:Item", "-", stdin=text)
    assert code == 0
    assert out.strip() == '{"price":0.0,"qty":2,"sku":"A-1"}'


def test_cli_prints_the_for_llm_text_and_exits_1(tmp_path: Any) -> None:
    path = tmp_path / "answer.txt"
    path.write_text('{"sku": 1}')
    code, out, _ = _cli("tests.hydration_models:Item", str(path))
    assert code == 1
    assert out.startswith("Your output could not be used.")
    assert "- at $.qty: required field is missing" in out


def test_cli_hydrates_a_functions_arguments() -> None:
    code, out, _ = _cli(
        "tests.test_hydration_targets:get_weather", stdin='{"city": "Oslo", "date": "2024-01-02"}'
    )
    assert code == 0
    assert json.loads(out) == {"city": "Oslo", "date": "2024-01-02", "days": 1, "units": "c"}


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("tests.hydration_models:Nope", "-"), "has no attribute"),
        (("tests.hydration_models:Item", "no/such/file.json"), "no such file"),
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(args: tuple[str, ...], says: str) -> None:
    code, _, err = _cli(*args)
    assert code == 2
    assert says in err
    assert len(err.strip().splitlines()) == 1


def test_utf8_bytes_and_memoryview_inputs() -> None:
    raw = "Voilà:\n```json\n{'title': 'Amélie', 'year': 2001,}\n```".encode()
    assert sk.hydrate(Movie, raw) == {"title": "Amélie", "year": 2001}
    assert sk.hydrate(Movie, memoryview(raw)) == {"title": "Amélie", "year": 2001}


# --- wording snapshots ---------------------------------------------------------------------

BAD_ORDER = (
    'Here:\n```json\n{"id": "seven", "customer": "Ada", '
    '"items": [{"sku": "A", "qty": "x"}, {}], "status": "lost",}\n```'
)


def test_snapshot_of_error_and_for_llm_wording() -> None:
    with pytest.raises(sk.HydrationError) as info:
        sk.hydrate(Order, BAD_ORDER)
    assert str(info.value) == (
        "cannot hydrate Order\n"
        "  $.id: Input should be a valid integer, unable to parse string as an integer\n"
        "  $.items[0].qty: Input should be a valid integer, unable to parse string as an integer\n"
        "  $.items[1].sku: required field is missing\n"
        "  $.items[1].qty: required field is missing\n"
        "  $.status: Input should be 'pending', 'shipped' or 'delivered'"
    )
    assert info.value.for_llm() == (
        "Your output could not be used. Fix these problems and answer again:\n"
        "- at $.id: Input should be a valid integer, unable to parse string as an integer"
        " (got seven)\n"
        "- at $.items[0].qty: Input should be a valid integer, unable to parse string as an"
        " integer (got x)\n"
        "- at $.items[1].sku: required field is missing\n"
        "- at $.items[1].qty: required field is missing\n"
        "- at $.status: Input should be 'pending', 'shipped' or 'delivered' (got lost)"
    )


def test_snapshot_of_truncation_wording() -> None:
    with pytest.raises(sk.HydrationError) as info:
        sk.hydrate(Weather, '{"city": "Paris", "temp_c": 21')
    assert info.value.for_llm() == (
        "Your output could not be used. Fix these problems and answer again:\n"
        "- at $.temp_c: the output ends at line 1, column 30 before the JSON value is complete"
        ' (truncated?) (got {"city": "Paris", "temp_c": 21)'
    )
