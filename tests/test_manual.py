"""The functions manual in every format, read back, and provider name rules."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from examples.date_weather import DatePluginSimpleComplex, WeatherPluginSimpleComplex
from sktypes import FunctionView, ParameterView, functions_manual, plugin_views, views_from_manual
from sktypes.errors import ManualError
from sktypes.manual import FORMATS, NameTable, provider_name
from sktypes.schema import dialect_problems
from tests.golden_util import check_golden
from tests.typefamilies import Item, Tree


def example_views() -> list[FunctionView]:
    return plugin_views(DatePluginSimpleComplex()) + plugin_views(WeatherPluginSimpleComplex())


@pytest.mark.parametrize("fmt", FORMATS)
def test_golden_manual_of_the_example(fmt: str) -> None:
    manual = functions_manual(example_views(), fmt)
    text = manual if isinstance(manual, str) else json.dumps(manual, indent=2) + "\n"
    check_golden(f"manuals/date_weather.{fmt}.{'txt' if fmt == 'text' else 'json'}", text)


def test_planner_manual_has_the_adr_shape() -> None:
    (date, _) = functions_manual(example_views(), "planner")
    assert isinstance(date, dict)
    assert list(date) == ["name", "description", "parameters", "responses"]
    assert date["name"] == "DatePluginSimpleComplex.GetDate1"
    assert date["parameters"] == {
        "type": "object",
        "required": ["numDays"],
        "properties": {
            "numDays": {
                "type": "integer",
                "description": "The number of days to offset the date by from today. "
                "Positive for future, negative for past.",
            }
        },
    }
    response = date["responses"]["200"]
    assert response["description"] == "Successful response."
    schema = response["content"]["application/json"]["schema"]
    assert schema["description"] == "The date."
    assert schema["properties"]["date"]["type"] == "string"


def test_text_manual_is_the_adr_listing() -> None:
    assert functions_manual(example_views(), "text") == (
        "DatePluginSimpleComplex.GetDate1:\n"
        "  description: Gets the date with the current date offset by the specified number"
        " of days.\n"
        "  inputs:\n"
        "    - numDays: The number of days to offset the date by from today. Positive for"
        " future, negative for past.\n"
        "\n"
        "WeatherPluginSimpleComplex.GetWeatherForecast1:\n"
        "  description: Gets the weather forecast for the specified date and the current"
        " location, and time.\n"
        "  inputs:\n"
        "    - date: The date for the forecast\n"
    )


def rich_views() -> list[FunctionView]:
    def order(items: list[Item], tree: Tree | None, note: str = "") -> Tree:
        """Place an order."""
        raise NotImplementedError

    def count(word: str) -> int:
        """Count letters."""
        return len(word)

    from sktypes import function_view

    return [function_view(order, "Shop"), function_view(count, "Text")]


@pytest.mark.parametrize("fmt", [f for f in FORMATS if f != "text"])
def test_manual_views_manual_is_identity(fmt: str) -> None:
    for views in (example_views(), rich_views()):
        manual = functions_manual(views, fmt)
        again = functions_manual(views_from_manual(manual), fmt)
        assert again == manual


@pytest.mark.parametrize("fmt", ["planner", "openai", "anthropic", "mcp"])
def test_views_read_back_keep_names_and_schemas(fmt: str) -> None:
    views = rich_views()
    back = views_from_manual(json.dumps(functions_manual(views, fmt)))
    assert [v.fully_qualified_name for v in back] == [v.fully_qualified_name for v in views]
    for a, b in zip(views, back, strict=True):
        assert [p.name for p in a.parameters] == [p.name for p in b.parameters]
        assert [p.is_required for p in a.parameters] == [p.is_required for p in b.parameters]


def test_every_manual_schema_belongs_to_its_dialect() -> None:
    views = example_views() + rich_views()
    for tool in functions_manual(views, "openai-strict"):
        assert isinstance(tool, dict)
        assert tool["function"]["strict"] is True
        assert dialect_problems(tool["function"]["parameters"], "openai-strict") == []
    (gemini,) = functions_manual(views, "gemini")
    assert isinstance(gemini, dict)
    for decl in gemini["functionDeclarations"]:
        assert dialect_problems(decl["parameters"], "gemini") == []
        assert dialect_problems(decl["response"], "gemini") == []
    for tool in functions_manual(views, "mcp"):
        assert isinstance(tool, dict)
        Draft202012Validator.check_schema(tool["inputSchema"])
        assert tool["outputSchema"]["type"] == "object"


def test_mcp_wraps_non_object_results() -> None:
    tool = functions_manual(rich_views(), "mcp")[1]
    assert isinstance(tool, dict)
    assert tool["outputSchema"]["properties"]["result"] == {"type": "integer"}
    (back,) = views_from_manual([tool])
    assert back.return_parameter.schema is not None
    assert back.return_parameter.schema.to_python() == {"type": "integer"}


@pytest.mark.parametrize(
    ("fmt", "pattern"),
    [
        ("openai", r"^[A-Za-z0-9_-]{1,64}$"),
        ("anthropic", r"^[A-Za-z0-9_-]{1,64}$"),
        ("gemini", r"^[A-Za-z_][A-Za-z0-9_.:-]{0,127}$"),
        ("mcp", r"^[A-Za-z0-9._-]{1,128}$"),
    ],
)
def test_names_are_valid_for_each_provider(fmt: str, pattern: str) -> None:
    for plugin, name in [("Plugin", "f"), ("9lives", "x" * 200), ("a b", "c/d")]:
        view = FunctionView(name=name, plugin_name=plugin)
        assert re.match(pattern, provider_name(view, fmt)), (fmt, provider_name(view, fmt))
    long_a = FunctionView(name="x" * 100 + "a", plugin_name="P")
    long_b = FunctionView(name="x" * 100 + "b", plugin_name="P")
    assert provider_name(long_a, fmt) != provider_name(long_b, fmt)


def test_openai_names_use_a_dash_and_read_back() -> None:
    (tool,) = functions_manual([FunctionView(name="GetDate1", plugin_name="Date")], "openai")
    assert isinstance(tool, dict)
    assert tool["function"]["name"] == "Date-GetDate1"
    (view,) = views_from_manual([tool])
    assert (view.plugin_name, view.name) == ("Date", "GetDate1")


def test_reads_chat_responses_anthropic_gemini_and_mcp_shapes() -> None:
    params: dict[str, Any] = {"type": "object", "properties": {"c": {"type": "string"}}}
    tools = [
        {"type": "function", "function": {"name": "a", "parameters": params}},
        {"type": "function", "name": "b", "parameters": params, "strict": True},
        {"name": "c", "input_schema": params},
        {
            "functionDeclarations": [
                {
                    "name": "d",
                    "parameters": {
                        "type": "OBJECT",
                        "properties": {"c": {"type": "STRING", "nullable": True}},
                    },
                }
            ]
        },
        {"name": "e", "inputSchema": params},
    ]
    views = views_from_manual({"tools": tools})
    assert [v.name for v in views] == ["a", "b", "c", "d", "e"]
    d = views[3].parameters[0]
    assert d.schema is not None and d.schema.to_python() == {"type": ["string", "null"]}


def test_unknown_tool_shape_names_its_index() -> None:
    with pytest.raises(ManualError, match=r"\$\[1\]: not a tool"):
        views_from_manual([{"name": "a", "input_schema": {"type": "object"}}, {"x": 1}])
    with pytest.raises(ManualError, match="unknown manual format"):
        functions_manual([], "yaml")


def test_strict_mode_falls_back_for_mappings() -> None:
    def f(tags: dict[str, int]) -> None: ...

    from sktypes import function_view

    with pytest.warns(UserWarning, match="strict: false"):
        (tool,) = functions_manual([function_view(f)], "openai-strict")
    assert isinstance(tool, dict)
    assert tool["function"]["strict"] is False


def test_parameter_view_descriptions_reach_the_schema() -> None:
    view = FunctionView(
        name="f",
        parameters=(ParameterView(name="a", description="An a.", schema={"type": "integer"}),),
    )
    (tool,) = functions_manual([view], "anthropic")
    assert isinstance(tool, dict)
    assert tool["input_schema"]["properties"]["a"] == {"type": "integer", "description": "An a."}


@pytest.mark.parametrize("fmt", ["openai", "anthropic", "gemini", "mcp"])
def test_name_table_maps_cleaned_and_shortened_names_back(fmt: str) -> None:
    views = [
        FunctionView(name="get items", plugin_name="My API"),
        FunctionView(name="get_items", plugin_name="My_API"),
        FunctionView(name="x" * 150, plugin_name="P"),
    ]
    table = NameTable()
    manual = functions_manual(views, fmt, names=table)
    tools = manual[0]["functionDeclarations"] if fmt == "gemini" else manual  # type: ignore[index]
    written = [t["function"]["name"] if fmt == "openai" else t["name"] for t in tools]
    assert len(set(written)) == 3  # "My API.get items" and "My_API.get_items" stay distinct
    back = views_from_manual(manual, names=table)
    assert [(v.plugin_name, v.name) for v in back] == [(v.plugin_name, v.name) for v in views]
