"""Detail levels, token counts and budgets of the functions manual."""

from __future__ import annotations

import json
from datetime import date
from typing import Annotated, Any, Literal

import pytest
from click.testing import CliRunner
from pydantic import Field

import sktypes as sk
from sktypes.cli import cli
from sktypes.errors import ArgumentsError, ManualError
from sktypes.manual import (
    DEFERRAL,
    FORMATS,
    estimate_tokens,
    fit_budget,
    functions_manual,
    manual_cost,
    render_manual,
    token_counter,
)
from sktypes.schema._detail import compact_schema, first_sentence

SPEC = "schemas/examples/weather_plugin.openapi.yaml"


def book(
    title: Annotated[str, Field(min_length=2, max_length=80, description="The title. Long.")],
    pages: Annotated[int, Field(ge=1, le=5000, description="How many pages.")] = 100,
) -> dict[str, int]:
    """Add a book to the catalog.

    The book is stored at once and returned with its new id.
    """
    return {"id": 1}


def view() -> sk.FunctionView:
    return sk.function_view(book, "Shelf")


def test_compact_keeps_every_enforced_constraint_and_first_sentences() -> None:
    manual = functions_manual([view()], "mcp", detail="compact")
    assert isinstance(manual, list)
    [tool] = manual
    assert tool["description"] == "Add a book to the catalog."
    title = tool["inputSchema"]["properties"]["title"]
    assert (title["minLength"], title["maxLength"], title["description"]) == (2, 80, "The title.")
    pages = tool["inputSchema"]["properties"]["pages"]
    assert (pages["minimum"], pages["maximum"], pages["default"]) == (1, 5000, 100)
    assert tool["inputSchema"]["required"] == ["title"]
    assert tool["inputSchema"]["additionalProperties"] is False


def test_compact_drops_titles_examples_extensions_and_implied_types() -> None:
    schema = {
        "type": "string",
        "enum": ["a", "b"],
        "title": "T",
        "examples": ["a"],
        "x-internal": 1,
        "$comment": "c",
        "description": "One. Two.",
    }
    assert compact_schema(schema) == {"enum": ["a", "b"], "description": "One."}


def test_compact_drops_a_description_its_parent_already_says() -> None:
    schema = {
        "type": "object",
        "description": "A point.",
        "properties": {"p": {"anyOf": [{"type": "integer", "description": "A point."}]}},
    }
    out = compact_schema(schema)
    assert out["properties"]["p"] == {"type": "integer"}


def test_compact_keeps_keywords_the_model_does_not_represent() -> None:
    schema = {"type": "object", "dependentRequired": {"a": ["b"]}, "not": {"required": ["c"]}}
    assert compact_schema(schema) == schema


@pytest.mark.parametrize(
    ("text", "first"),
    [
        ("Get the weather. In a city.", "Get the weather."),
        ("The city, e.g. 'Paris'. More.", "The city, e.g. 'Paris'."),
        ("See [the docs](https://x.y/z) first. Then.", "See the docs first."),
        ("Version 1.5 is out. Yes.", "Version 1.5 is out."),
        ("# Title\n\nBody.", "Title"),
        ("", ""),
    ],
)
def test_first_sentence(text: str, first: str) -> None:
    assert first_sentence(text) == first


def test_first_sentence_is_one_bounded_line() -> None:
    line = first_sentence("word " * 100)
    assert len(line) <= 160 and line.endswith("…") and "\n" not in line


@pytest.mark.parametrize("fmt", [f for f in FORMATS if f != "text"])
def test_names_is_the_name_and_one_line_with_the_providers_deferral_field(fmt: str) -> None:
    manual = functions_manual([view()], fmt, detail="names")
    text = json.dumps(manual)
    assert "minLength" not in text and "catalog." in text and "stored at once" not in text
    assert isinstance(manual, list)
    tool: Any = manual[0]["functionDeclarations"][0] if fmt == "gemini" else manual[0]
    field = DEFERRAL.get(fmt)
    if field is not None:
        assert tool[field] is True
    else:
        assert "defer_loading" not in text


def test_openai_responses_writes_flat_tools_with_their_output_schema() -> None:
    manual = functions_manual([view()], "openai-responses")
    assert isinstance(manual, list)
    [tool] = manual
    assert (tool["type"], tool["name"], tool["strict"]) == ("function", "Shelf-book", False)
    assert tool["output_schema"]["type"] == "object"
    [back] = sk.views_from_manual([tool])
    assert back.return_parameter.schema is not None


def test_what_a_level_leaves_out_is_refused_at_call_time_stated_in_full() -> None:
    for detail in ("compact", "names"):
        functions_manual([view()], "openai", detail=detail)
    with pytest.raises(ArgumentsError) as info:
        sk.validate_arguments(view(), {"title": "x" * 81})
    text = info.value.for_llm()
    assert "maxLength: 80" in text and "title" in text


def when(day: date | None = None, kind: Literal["a", "b"] | int = "a") -> None:
    """Plan a day."""


def test_a_value_no_option_admits_is_refused_with_what_each_option_wanted() -> None:
    # at names the model saw no schema: "not valid under any of the given schemas" named
    # neither the date nor the null it may be (regression)
    manual = functions_manual([sk.function_view(when)], "anthropic", detail="names")
    assert isinstance(manual, list) and manual[0]["input_schema"] == {"type": "object"}
    with pytest.raises(ArgumentsError) as info:
        sk.validate_arguments(sk.function_view(when), {"day": "not a date", "kind": "c"})
    messages = {e.path: e.message for e in info.value.errors}
    assert "is not a 'date'" in messages["$.day"] and "of type 'null'" in messages["$.day"]
    assert "['a', 'b']" in messages["$.kind"] and "of type 'integer'" in messages["$.kind"]


def test_unknown_detail_is_a_manual_error() -> None:
    with pytest.raises(ManualError, match="unknown detail level"):
        functions_manual([view()], "openai", detail="tiny")


def test_levels_get_smaller() -> None:
    views = sk.load_openapi(SPEC).views
    totals = [manual_cost(views, "mcp", detail=d).total for d in ("full", "compact", "names")]
    assert totals[0] >= totals[1] > totals[2]


def test_the_tokenizer_is_real_o200k_when_installed() -> None:
    counter = token_counter()
    assert counter.exact and counter.name.startswith("o200k_base")
    assert counter.count("hello world") == 2  # o200k: [24912, 2375]


def test_the_estimate_is_within_ten_percent_of_o200k_on_manuals() -> None:
    counter = token_counter(exact=True)
    views = [*sk.load_openapi(SPEC).views, view()]
    for fmt in ("mcp", "openai", "planner"):
        for detail in ("full", "compact", "names"):
            manual = functions_manual(views, fmt, detail=detail)
            # one-line JSON, and indented as printed: the first weights read that 12% low
            for text in (json.dumps(manual), render_manual(manual)):
                real, guess = counter.count(text), estimate_tokens(text)
                assert abs(guess - real) <= 0.1 * real, (fmt, detail, real, guess)


def test_a_budget_counted_by_the_estimate_fits_as_o200k_counts_it() -> None:
    estimate = token_counter(exact=False)
    assert not estimate.exact
    views = [*sk.load_openapi(SPEC).views, view()]
    full = manual_cost(views, "mcp").total
    names = manual_cost(views, "mcp", detail="names").total
    for budget in (full, (full + names) // 2, names + 20):
        fitted = fit_budget(views, "mcp", budget, counter=estimate)
        assert fitted.budget == budget
        assert token_counter(exact=True).count(render_manual(fitted.manual)) <= budget


def test_budget_keeps_each_function_as_rich_as_fits() -> None:
    views = [*sk.load_openapi(SPEC).views, view()]
    full = manual_cost(views, "mcp").total
    names = manual_cost(views, "mcp", detail="names").total
    for budget in (full, (full + names) // 2, names):
        fitted = fit_budget(views, "mcp", budget)
        assert fitted.total <= budget
        assert fitted.counter.count(json.dumps(fitted.manual, indent=2)) <= budget
    assert set(fit_budget(views, "mcp", full).levels()) >= {"full"}
    assert fit_budget(views, "mcp", full).levels()["full"] == len(views)


def test_a_budget_too_small_says_by_how_much() -> None:
    with pytest.raises(ManualError, match="even at 'names'"):
        fit_budget([view()], "mcp", 5)


def test_cli_detail_budget_and_report() -> None:
    runner = CliRunner()
    compact = runner.invoke(cli, ["manual", SPEC, "-f", "mcp", "--detail", "compact"])
    assert compact.exit_code == 0, compact.output
    assert json.loads(compact.stdout)
    report = runner.invoke(cli, ["manual", SPEC, "-f", "mcp", "--report"])
    assert report.exit_code == 0
    assert "total" in report.stdout and "o200k_base" in report.stdout
    fitted = runner.invoke(cli, ["manual", SPEC, "-f", "anthropic", "--budget", "150"])
    assert fitted.exit_code == 0, fitted.stderr
    assert "budget 150" in fitted.stderr
    assert token_counter().count(fitted.stdout) <= 150
    both = runner.invoke(cli, ["manual", SPEC, "--budget", "9", "--detail", "full"])
    assert both.exit_code == 2
    tiny = runner.invoke(cli, ["manual", SPEC, "--budget", "3"])
    assert tiny.exit_code == 2 and "even at 'names'" in tiny.stderr


def test_check_holds_a_served_spec_and_a_manual_to_their_budgets(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pathlib import Path

    monkeypatch.chdir(tmp_path)
    Path("spec.yaml").write_text(Path(__file__).parents[1].joinpath(SPEC).read_text())
    manual = functions_manual(sk.load_openapi("spec.yaml").views, "mcp")
    Path("tools.json").write_text(json.dumps(manual, indent=2))
    runner = CliRunner()
    for source, tokens, code in (
        ("spec.yaml", 50, 1),
        ("spec.yaml", 5000, 0),
        ("tools.json", 9, 1),
    ):
        Path("pyproject.toml").write_text(
            f'[[tool.sktypes.budget]]\nsource = "{source}"\ntokens = {tokens}\n'
        )
        result = runner.invoke(cli, ["check"])
        assert result.exit_code == code, result.output
        if code:
            assert f"over its budget of {tokens} by" in result.stdout
            assert "largest: WeatherPluginSimpleComplex.GetWeatherForecast1" in result.stdout
    Path("pyproject.toml").write_text('[[tool.sktypes.budget]]\nsource = "spec.yaml"\n')
    result = runner.invoke(cli, ["check"])
    assert result.exit_code == 2 and "tool.sktypes.budget[0]" in result.stderr
