"""check_plan: every kind of issue, with its place and its fix, and a clean ADR plan."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from examples.date_weather import DatePluginSimpleComplex, WeatherPluginSimpleComplex
from sktypes import FunctionView, ParameterView, ReturnParameterView, plugin_views
from sktypes.plan import Plan, PlanIssue, check_plan

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

# the ADR's functions manual, by hand: its return schemas do not mark members required
MANUAL_VIEWS = [
    FunctionView(
        name="GetDate1",
        plugin_name="DatePluginSimpleComplex",
        parameters=(ParameterView(name="numDays", schema={"type": "integer"}, is_required=True),),
        return_parameter=ReturnParameterView(
            schema={"type": "object", "properties": {"date": {"type": "string"}}}
        ),
    ),
    FunctionView(
        name="GetWeatherForecast1",
        plugin_name="WeatherPluginSimpleComplex",
        parameters=(ParameterView(name="date", schema={"type": "string"}, is_required=True),),
        return_parameter=ReturnParameterView(
            schema={"type": "object", "properties": {"degreesFahrenheit": {"type": "integer"}}}
        ),
    ),
]


def python_views() -> list[FunctionView]:
    return plugin_views(DatePluginSimpleComplex()) + plugin_views(WeatherPluginSimpleComplex())


def plan_with(edit: Any = None, **changes: Any) -> Plan:
    data = copy.deepcopy(ADR_PLAN)
    data.update(changes)
    if edit is not None:
        edit(data)
    return Plan.model_validate(data)


def only(issues: list[PlanIssue]) -> PlanIssue:
    assert len(issues) == 1, [str(i) for i in issues]
    return issues[0]


@pytest.mark.parametrize("views", [python_views(), MANUAL_VIEWS], ids=["python", "manual"])
def test_adr_plan_checks_clean(views: list[FunctionView]) -> None:
    assert check_plan(plan_with(), views) == []


@pytest.mark.parametrize("views", [python_views(), MANUAL_VIEWS], ids=["python", "manual"])
def test_adr_wrong_plan_whole_date_response_is_rejected_with_the_date_fix(
    views: list[FunctionView],
) -> None:
    def whole_output(data: Any) -> None:
        data["steps"][1]["arguments"]["date"] = {"$from": "d"}

    issue = only(check_plan(plan_with(whole_output), views))
    assert (issue.step, issue.argument, issue.severity) == ("w", "date", "error")
    assert "the output of step 'd' (DatePluginSimpleComplex.GetDate1)" in issue.message
    assert "does not fit parameter 'date'" in issue.message
    assert issue.fix is not None
    assert issue.fix.startswith("use `$.date`")
    assert '{"$from":"d","path":"$.date"}' in issue.fix


def test_unknown_function_suggests_the_closest_name() -> None:
    def typo(data: Any) -> None:
        data["steps"][1]["function"] = "WeatherPluginSimpleComplex.GetWeatherForcast1"

    issue = only(check_plan(plan_with(typo), python_views()))
    assert issue.step == "w"
    assert issue.message == "unknown function 'WeatherPluginSimpleComplex.GetWeatherForcast1'"
    assert issue.fix == "did you mean 'WeatherPluginSimpleComplex.GetWeatherForecast1'?"


def test_missing_required_argument() -> None:
    def drop(data: Any) -> None:
        data["steps"][0]["arguments"] = {}

    issue = only(check_plan(plan_with(drop), python_views()))
    assert (issue.step, issue.argument) == ("d", "numDays")
    assert issue.message == "missing required argument 'numDays' (integer)"


def test_unknown_argument_suggests_the_parameter() -> None:
    def rename(data: Any) -> None:
        data["steps"][0]["arguments"] = {"numDays": 1, "numDay": 2}

    issue = only(check_plan(plan_with(rename), python_views()))
    assert (issue.step, issue.argument) == ("d", "numDay")
    assert "has no parameter 'numDay'" in issue.message
    assert issue.fix == "did you mean 'numDays'?"


def test_unknown_argument_is_fine_for_functions_taking_kwargs() -> None:
    views = [
        FunctionView(name="f", plugin_name="P", accepts_extra=True),
    ]
    plan = Plan.model_validate({"steps": [{"id": "a", "function": "P.f", "arguments": {"x": 1}}]})
    assert check_plan(plan, views) == []


def test_literal_that_does_not_validate() -> None:
    def text(data: Any) -> None:
        data["steps"][0]["arguments"]["numDays"] = "tomorrow"

    issue = only(check_plan(plan_with(text), python_views()))
    assert (issue.step, issue.argument) == ("d", "numDays")
    assert issue.message == "\"tomorrow\" is not valid: 'tomorrow' is not of type 'integer'"


def test_path_not_in_the_output_suggests_a_fitting_one() -> None:
    def wrong_path(data: Any) -> None:
        data["steps"][1]["arguments"]["date"]["path"] = "$.day"

    issue = only(check_plan(plan_with(wrong_path), python_views()))
    assert "$.day is not in the output of step 'd'" in issue.message
    assert "it has 'date'" in issue.message
    assert issue.fix is not None and issue.fix.startswith("use `$.date`")


def test_reference_to_no_step_suggests_the_closest_id() -> None:
    def wrong_id(data: Any) -> None:
        data["steps"][0]["id"] = "date"
        data["steps"][1]["arguments"]["date"]["$from"] = "dates"

    issue = only(check_plan(plan_with(wrong_id), python_views()))
    assert issue.message == "no step 'dates' to take a value from"
    assert issue.fix == "did you mean 'date'?"


def test_step_using_its_own_output() -> None:
    def self_ref(data: Any) -> None:
        data["steps"][1]["arguments"]["date"]["$from"] = "w"

    issue = only(check_plan(plan_with(self_ref), python_views()))
    assert issue.message == "a step cannot use its own output"


def test_dependency_cycle_is_reported_once() -> None:
    views = [
        FunctionView(
            name="f",
            plugin_name="P",
            parameters=(ParameterView(name="x", schema={}),),
            return_parameter=ReturnParameterView(schema={"type": "integer"}),
        )
    ]
    plan = Plan.model_validate(
        {
            "steps": [
                {"id": "a", "function": "P.f", "arguments": {"x": {"$from": "b"}}},
                {"id": "b", "function": "P.f", "arguments": {"x": {"$from": "a"}}},
            ]
        }
    )
    issue = only(check_plan(plan, views))
    assert issue.message == "steps depend on each other: 'a' -> 'b' -> 'a'"


def test_output_path_typo_suggests_the_member() -> None:
    plan = plan_with(output={"$from": "w", "path": "$.degrees"})
    issue = only(check_plan(plan, python_views()))
    assert issue.where == "output"
    assert "no member 'degrees' here; it has 'degreesFahrenheit'" in issue.message
    assert issue.fix == "did you mean `$.degreesFahrenheit`?"


def test_output_from_no_step() -> None:
    issue = only(check_plan(plan_with(output={"$from": "x"}), python_views()))
    assert issue.message == "no step 'x' to take the output from"


def test_reference_to_a_function_returning_nothing() -> None:
    views = [
        FunctionView(name="log", plugin_name="P"),
        FunctionView(name="f", plugin_name="P", parameters=(ParameterView(name="x", schema={}),)),
    ]
    plan = Plan.model_validate(
        {
            "steps": [
                {"id": "a", "function": "P.log"},
                {"id": "b", "function": "P.f", "arguments": {"x": {"$from": "a"}}},
            ]
        }
    )
    assert only(check_plan(plan, views)).message == "step 'a' returns nothing to use"


def _pair(returns: Any, takes: Any, path: str | None = None) -> list[PlanIssue]:
    views = [
        FunctionView(
            name="src", plugin_name="P", return_parameter=ReturnParameterView(schema=returns)
        ),
        FunctionView(
            name="dst", plugin_name="P", parameters=(ParameterView(name="x", schema=takes),)
        ),
    ]
    ref = {"$from": "a"} | ({"path": path} if path else {})
    plan = Plan.model_validate(
        {
            "steps": [
                {"id": "a", "function": "P.src"},
                {"id": "b", "function": "P.dst", "arguments": {"x": ref}},
            ]
        }
    )
    return check_plan(plan, views)


def test_undecided_compatibility_is_a_warning() -> None:
    returns = {"type": "array", "items": {"type": "string"}, "minItems": 1}
    issue = only(_pair(returns, {"type": "array", "contains": {"type": "string"}}))
    assert issue.severity == "warning"
    assert issue.message.startswith("cannot prove that the output of step 'a' (P.src) fits")
    assert "contains" in issue.message


def test_incompatible_member_names_a_witness() -> None:
    returns = {"type": "object", "properties": {"n": {"type": "number"}}, "required": ["n"]}
    issue = only(_pair(returns, {"type": "integer"}, "$.n"))
    assert issue.severity == "error"
    assert "`$.n` of step 'a' (P.src) does not fit parameter 'x'" in issue.message
    assert "fractions" in issue.message
    assert "(e.g. 0.5)" in issue.message


def test_witness_that_no_whole_output_holds_downgrades_to_a_warning() -> None:
    returns = {
        "type": "object",
        "properties": {"n": {"type": "integer"}},
        "required": ["n"],
        "dependentSchemas": {"n": {"properties": {"n": {"minimum": 5}}}},
    }
    issue = only(_pair(returns, {"type": "integer", "minimum": 5}, "$.n"))
    assert issue.severity == "warning"


def test_fix_prefers_the_member_named_like_the_argument() -> None:
    returns = {
        "type": "object",
        "properties": {"other": {"type": "string"}, "x": {"type": "string"}},
        "required": ["other", "x"],
    }
    issue = only(_pair(returns, {"type": "string"}))
    assert issue.fix is not None and issue.fix.startswith("use `$.x` or `$.other`")


def test_nested_fix_through_refs() -> None:
    returns = {
        "$defs": {
            "Inner": {
                "type": "object",
                "properties": {"date": {"type": "string", "format": "date"}},
            }
        },
        "type": "object",
        "properties": {"result": {"$ref": "#/$defs/Inner"}},
    }
    issue = only(_pair(returns, {"type": "string", "format": "date"}))
    assert issue.fix is not None and issue.fix.startswith("use `$.result.date`")


def test_untyped_output_is_a_warning_not_an_error() -> None:
    issue = only(_pair({"description": "anything"}, {"type": "string"}, "$.date"))
    assert issue.severity == "warning"
    assert issue.message.endswith("its schema says nothing")


def test_paths_into_open_mappings_are_allowed() -> None:
    returns = {"type": "object", "additionalProperties": {"type": "string"}}
    assert _pair(returns, {"type": "string"}, "$.anything") == []
    assert (
        only(
            _pair({"type": "object", "additionalProperties": True}, {"type": "string"}, "$.x")
        ).severity
        == "warning"
    )


def test_optional_paths_warn_only_when_asked() -> None:
    plan = plan_with()
    assert check_plan(plan, MANUAL_VIEWS) == []
    issues = check_plan(plan, MANUAL_VIEWS, optional_paths=True)
    assert [(i.step, i.argument, i.severity) for i in issues] == [("w", "date", "warning")]
    assert issues[0].message.startswith("`$.date` may be missing from the output of step 'd'")
    assert check_plan(plan, python_views(), optional_paths=True) == []  # pydantic: required
