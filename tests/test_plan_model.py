"""The plan model, its published schema, and JSONPath over schemas and values."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, assert_type

import pytest
from jsonschema import Draft202012Validator
from pydantic import ValidationError

import sktypes
from sktypes.plan import (
    PathError,
    Plan,
    PlanIssue,
    Reference,
    parse_path,
    plan_json_schema,
    render_path,
)
from sktypes.plan._jsonpath import extract, member_names, resolve_schema

SCHEMA_FILE = Path(__file__).parent.parent / "schemas" / "plan.schema.json"

ADR_PLAN: dict[str, Any] = {
    "steps": [
        {"id": "d", "function": "DatePluginSimpleComplex.GetDate1", "arguments": {"numDays": 1}},
        {
            "id": "w",
            "function": "WeatherPluginSimpleComplex.GetWeatherForecast1",
            "arguments": {"date": {"$from": "d", "path": "$.date"}},
        },
    ],
    "output": {"$from": "w", "path": "$.degreesFahrenheit"},
}


def test_adr_plan_reads_references_and_literals() -> None:
    plan = Plan.model_validate(ADR_PLAN)
    assert plan.steps[0].arguments == {"numDays": 1}
    ref = plan.steps[1].arguments["date"]
    assert isinstance(ref, Reference)
    assert (ref.from_, ref.path, ref.segments) == ("d", "$.date", ("date",))
    assert plan.output is not None and plan.output.segments == ("degreesFahrenheit",)


def test_plan_round_trips_through_json_with_aliases() -> None:
    plan = Plan.model_validate(ADR_PLAN)
    dumped = json.loads(plan.model_dump_json(by_alias=True, exclude_none=True))
    assert dumped == ADR_PLAN
    assert Plan.model_validate_json(json.dumps(dumped)) == plan


def test_object_literals_stay_literals() -> None:
    plan = Plan.model_validate(
        {"steps": [{"id": "a", "function": "P.f", "arguments": {"x": {"from": "d"}, "y": [1]}}]}
    )
    assert plan.steps[0].arguments == {"x": {"from": "d"}, "y": [1]}
    assert list(plan.steps[0].references()) == []


@pytest.mark.parametrize(
    ("argument", "message"),
    [
        ({"$from": "d", "pth": "$.date"}, "pth: Extra inputs are not permitted"),
        ({"$from": "d", "path": "$..date"}, "cannot read the path at character 2"),
        ({"$from": "d", "path": "date"}, "must start with '$'"),
        ({"$from": ""}, "at least 1 character"),
    ],
)
def test_malformed_reference_is_rejected_with_the_reason(argument: Any, message: str) -> None:
    with pytest.raises(
        ValidationError, match=r"steps\.0\.arguments\.x\n.*not a valid reference"
    ) as info:
        Plan.model_validate(
            {"steps": [{"id": "a", "function": "P.f", "arguments": {"x": argument}}]}
        )
    assert message in str(info.value)


def test_repeated_step_ids_are_rejected() -> None:
    with pytest.raises(ValidationError, match="repeated: a"):
        Plan.model_validate(
            {"steps": [{"id": "a", "function": "P.f"}, {"id": "a", "function": "P.g"}]}
        )


def test_plan_without_steps_is_rejected() -> None:
    with pytest.raises(ValidationError, match="at least one step"):
        Plan.model_validate({"steps": []})


def test_plan_schema_golden_file_is_in_sync() -> None:
    expected = json.dumps(plan_json_schema(), indent=2, ensure_ascii=False) + "\n"
    if os.environ.get("SKTYPES_UPDATE_GOLDEN") == "1":
        SCHEMA_FILE.write_text(expected)
    assert SCHEMA_FILE.read_text() == expected, "run `make golden` to regenerate plan.schema.json"


def test_published_schema_accepts_the_adr_plan_and_rejects_a_broken_one() -> None:
    validator = Draft202012Validator(json.loads(SCHEMA_FILE.read_text()))
    Draft202012Validator.check_schema(validator.schema)
    assert validator.is_valid(ADR_PLAN)
    assert not validator.is_valid({"steps": [{"id": "a"}]})


def test_issue_renders_place_message_and_fix() -> None:
    issue = PlanIssue("w", "date", "does not fit", "use `$.date`")
    assert str(issue) == "error: step 'w', argument 'date': does not fit (fix: use `$.date`)"
    assert PlanIssue(None, None, "x", severity="warning").where == "output"


# JSONPath


@pytest.mark.parametrize(
    ("path", "segments"),
    [
        ("$", ()),
        ("$.date", ("date",)),
        ("$.days[0].date", ("days", 0, "date")),
        ("$['odd key'][12]", ("odd key", 12)),
        ('$["a\\"b"]', ('a"b',)),
        ("$.$from", ("$from",)),
    ],
)
def test_singular_paths_parse(path: str, segments: tuple[Any, ...]) -> None:
    assert parse_path(path) == segments


@pytest.mark.parametrize("path", ["date", "$.", "$..date", "$[*]", "$[-1]", "$[01]", "$.a b"])
def test_non_singular_or_broken_paths_are_refused(path: str) -> None:
    with pytest.raises(PathError):
        parse_path(path)


@pytest.mark.parametrize("segments", [(), ("a",), ("a", 0, "b c"), ("it's",), (3,)])
def test_render_parses_back(segments: tuple[Any, ...]) -> None:
    assert parse_path(render_path(segments)) == segments


FORECAST: dict[str, Any] = {
    "$defs": {
        "Day": {
            "type": "object",
            "properties": {"date": {"type": "string"}, "high": {"type": "integer"}},
            "required": ["date"],
        }
    },
    "type": "object",
    "properties": {
        "days": {"type": "array", "items": {"$ref": "#/$defs/Day"}},
        "today": {"anyOf": [{"$ref": "#/$defs/Day"}, {"type": "null"}]},
        "tags": {"type": "object", "additionalProperties": {"type": "string"}},
    },
    "required": ["days"],
}


@pytest.mark.parametrize(
    ("path", "schema", "optional"),
    [
        ("$.days", {"type": "array", "items": {"$ref": "#/$defs/Day"}}, False),
        ("$.days[0].date", {"type": "string"}, True),
        ("$.today.date", {"type": "string"}, True),
        ("$.tags.anything", {"type": "string"}, True),
    ],
)
def test_paths_resolve_through_refs_unions_and_arrays(
    path: str, schema: Any, optional: bool
) -> None:
    resolved = resolve_schema(FORECAST, FORECAST, parse_path(path))
    assert resolved.schema == schema
    assert resolved.optional is optional


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("$.day", "no member 'day' here; it has 'days', 'today', 'tags'"),
        ("$.days.date", "not an object"),
        ("$.days[0].low", "it has 'date', 'high'"),
        ("$.today[0]", "not an array"),
    ],
)
def test_paths_the_schema_does_not_declare_name_what_is_there(path: str, message: str) -> None:
    with pytest.raises(PathError) as info:
        resolve_schema(FORECAST, FORECAST, parse_path(path))
    assert message in info.value.message


def test_member_names_cover_every_alternative() -> None:
    assert member_names(FORECAST["properties"]["today"], FORECAST) == ["date", "high"]


def test_extract_follows_members_and_indexes() -> None:
    value = {"days": [{"date": "2024-01-02"}]}
    assert extract(value, ("days", 0, "date")) == "2024-01-02"
    with pytest.raises(PathError, match=r"\$\.days\[1\]"):
        extract(value, ("days", 1))


def test_hydrate_reads_a_plan_from_model_text_with_fences_and_prose() -> None:
    fenced = f"```json\n{json.dumps(ADR_PLAN, indent=2)}\n```"
    text = f"Here is the plan:\n{fenced}\nIt gets tomorrow's date first."
    plan = sktypes.hydrate(Plan, text)
    assert_type(plan, Plan)
    assert plan == Plan.model_validate(ADR_PLAN)


def test_hydrate_errors_point_at_the_broken_argument() -> None:
    text = json.dumps(
        {
            "steps": [
                {"id": "a", "function": "P.f", "arguments": {"x": {"$from": "d", "path": "$..a"}}}
            ]
        }
    )
    with pytest.raises(sktypes.HydrationError) as info:
        sktypes.hydrate(Plan, text)
    [error] = info.value.errors
    assert error.path == "$.steps[0].arguments.x"
    assert "not a valid reference" in error.message
