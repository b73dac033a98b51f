"""``sktypes plan check``: exit codes and one line per issue."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sktypes.cli import cli
from tests.golden_util import check_golden

ROOT = Path(__file__).resolve().parents[1]
PLANS = ROOT / "examples" / "plans"
EXAMPLE = str(ROOT / "examples" / "date_weather.py")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_adr_plan_checks_clean() -> None:
    plan = str(PLANS / "date_weather.plan.json")
    code, out, _ = run("plan", "check", plan, "--views", EXAMPLE)
    assert code == 0
    assert out == f"{plan}: ok (2 steps checked)\n"


def test_wrong_plan_exits_1_with_one_line_naming_the_date_fix() -> None:
    plan = str(PLANS / "date_weather.wrong.plan.json")
    code, out, _ = run("plan", "check", plan, "--views", EXAMPLE)
    assert code == 1
    lines = out.splitlines()
    assert len(lines) == 1
    expected = f"{plan}:14:9: error: step 'w', argument 'date': the output of step 'd'"
    assert lines[0].startswith(expected)
    assert "(fix: use `$.date`" in lines[0]


def test_several_targets_after_views(tmp_path: Path) -> None:
    plan = str(PLANS / "date_weather.plan.json")
    code, _, _ = run(
        "plan", "check", plan, "--views",
        "examples.date_weather:DatePluginSimpleComplex",
        "examples.date_weather:WeatherPluginSimpleComplex",
    )  # fmt: skip
    assert code == 0


def test_missing_function_is_an_issue_not_a_crash() -> None:
    plan = str(PLANS / "date_weather.plan.json")
    code, out, _ = run(
        "plan", "check", plan, "--views", "examples.date_weather:DatePluginSimpleComplex"
    )
    assert code == 1
    assert "unknown function 'WeatherPluginSimpleComplex.GetWeatherForecast1'" in out


def test_json_output_lists_issues() -> None:
    plan = str(PLANS / "date_weather.wrong.plan.json")
    code, out, _ = run("plan", "check", plan, "--views", EXAMPLE, "--json")
    assert code == 1
    [issue] = json.loads(out)
    assert issue["step"] == "w" and issue["argument"] == "date" and issue["severity"] == "error"


def test_warnings_pass_unless_strict(tmp_path: Path) -> None:
    tools = tmp_path / "tools.json"
    returns = {"type": "array", "items": {"type": "string"}, "minItems": 1}
    takes = {"type": "array", "contains": {"type": "string"}}
    tools.write_text(
        json.dumps(
            [
                {
                    "name": "P.g",
                    "description": "g",
                    "parameters": {"type": "object", "properties": {}},
                    "responses": {
                        "200": {
                            "description": "ok",
                            "content": {"application/json": {"schema": returns}},
                        }
                    },
                },
                {
                    "name": "P.f",
                    "description": "f",
                    "parameters": {"type": "object", "properties": {"x": takes}, "required": ["x"]},
                },
            ]
        )
    )
    plan = tmp_path / "plan.json"
    plan.write_text(
        json.dumps(
            {
                "steps": [
                    {"id": "a", "function": "P.g"},
                    {"id": "b", "function": "P.f", "arguments": {"x": {"$from": "a"}}},
                ]
            }
        )
    )
    code, out, err = run("plan", "check", str(plan), "--views", str(tools))
    assert code == 0
    assert out.startswith(f"{plan}:1:89: warning: step 'b', argument 'x': cannot prove")
    assert err == f"{plan}: ok (2 steps checked)\n"
    code, _, _ = run("plan", "check", str(plan), "--views", str(tools), "--strict")
    assert code == 1


def test_unreadable_plan_exits_2_naming_the_file(tmp_path: Path) -> None:
    plan = tmp_path / "plan.json"
    plan.write_text('{"steps": [{"id": "a"}]}')
    code, _, err = run("plan", "check", str(plan), "--views", EXAMPLE)
    assert code == 2
    assert err == f"sktypes: error: {plan}:1:12: $.steps[0].function: not a plan: Field required\n"


def test_invalid_json_exits_2_with_the_line(tmp_path: Path) -> None:
    plan = tmp_path / "plan.json"
    plan.write_text('{"steps": [\n')
    code, _, err = run("plan", "check", str(plan), "--views", EXAMPLE)
    assert code == 2
    assert err.startswith(f"sktypes: error: {plan}:2:1: not JSON: Expecting value")


def test_missing_plan_file_and_missing_targets_exit_2(tmp_path: Path) -> None:
    code, _, err = run("plan", "check", str(tmp_path / "nope.json"), "--views", EXAMPLE)
    assert code == 2 and "cannot read" in err
    code, _, err = run("plan", "check", str(PLANS / "date_weather.plan.json"))
    assert code == 2 and "--views" in err
    code, _, err = run("plan", "check", str(PLANS / "date_weather.plan.json"), "--views", "nope.py")
    assert code == 2 and err.startswith("sktypes: error: nope.py")


def test_run_checks_then_prints_the_output_as_json() -> None:
    plan = str(PLANS / "date_weather.plan.json")
    code, out, err = run("plan", "run", plan, "--plugins", EXAMPLE)
    assert code == 0, err
    assert isinstance(json.loads(out), int)
    assert err == f"{plan}: ok (2 steps checked)\n"


def test_run_refuses_the_wrong_plan_before_calling_anything() -> None:
    plan = str(PLANS / "date_weather.wrong.plan.json")
    code, out, _ = run("plan", "run", plan, "--plugins", EXAMPLE)
    assert code == 1
    assert "(fix: use `$.date`" in out


def test_run_without_check_names_the_failing_step() -> None:
    plan = str(PLANS / "date_weather.wrong.plan.json")
    code, _, err = run(
        "plan", "run", plan, "--no-check", "--plugins",
        "examples.date_weather:DatePluginSimpleComplex",
        "examples.date_weather:WeatherPluginSimpleComplex",
    )  # fmt: skip
    assert code == 1
    assert err.startswith(f"sktypes: error: {plan}: step 'w': WeatherPluginSimpleComplex")
    assert "is not of type 'string'" in err and len(err.splitlines()) == 1


def test_run_with_unusable_plugins_exits_2(tmp_path: Path) -> None:
    plan = str(PLANS / "date_weather.plan.json")
    code, _, err = run("plan", "run", plan)
    assert code == 2 and "--plugins" in err
    empty = tmp_path / "empty.py"
    empty.write_text("X = 1\n")
    code, _, err = run("plan", "run", plan, "--plugins", str(empty))
    assert code == 2 and "no class with @kernel_function" in err
    needs_args = tmp_path / "needs_args.py"
    needs_args.write_text(
        "from sktypes import kernel_function\n\n\n"
        "class P:\n    def __init__(self, key: str) -> None:\n        self.key = key\n\n"
        "    @kernel_function\n    def f(self) -> int:\n        return 1\n"
    )
    code, _, err = run("plan", "run", plan, "--plugins", f"{needs_args}:P")
    assert code == 2 and "cannot create P()" in err


def test_a_models_answer_with_prose_and_fences_is_read(tmp_path: Path) -> None:
    plan = tmp_path / "answer.txt"
    body = (PLANS / "date_weather.plan.json").read_text()
    plan.write_text(f"Sure! Here is the plan:\n```json\n{body}```\nDone.")
    code, out, _ = run("plan", "check", str(plan), "--views", EXAMPLE)
    assert code == 0, out


SPECS = [
    str(ROOT / "schemas" / "examples" / f)
    for f in ("date_plugin.openapi.yaml", "weather_plugin.openapi.yaml")
]


def test_adr_plans_against_the_openapi_plugins() -> None:
    code, out, _ = run("plan", "check", str(PLANS / "date_weather.plan.json"), "--views", *SPECS)
    assert code == 0, out
    code, out, _ = run(
        "plan", "check", str(PLANS / "date_weather.wrong.plan.json"), "--views", *SPECS
    )
    assert code == 1
    assert "argument 'date'" in out and "(fix: use `$.date`" in out


BAD_PLANS: dict[str, object] = {
    "whole_output": {
        "steps": [
            {
                "id": "d",
                "function": "DatePluginSimpleComplex.GetDate1",
                "arguments": {"numDays": 1},
            },
            {
                "id": "w",
                "function": "WeatherPluginSimpleComplex.GetWeatherForecast1",
                "arguments": {"date": {"$from": "d"}},
            },
        ]
    },
    "typos": {
        "steps": [
            {"id": "d", "function": "DatePluginSimpleComplex.GetDate", "arguments": {"numDays": 1}},
            {
                "id": "w",
                "function": "WeatherPluginSimpleComplex.GetWeatherForecast1",
                "arguments": {"dat": "2024-01-01"},
            },
        ],
        "output": {"$from": "w", "path": "$.degreesFarenheit"},
    },
    "wrong_literal_and_path": {
        "steps": [
            {
                "id": "d",
                "function": "DatePluginSimpleComplex.GetDate1",
                "arguments": {"numDays": "tomorrow"},
            },
            {
                "id": "w",
                "function": "WeatherPluginSimpleComplex.GetWeatherForecast1",
                "arguments": {"date": {"$from": "d", "path": "$.day"}},
            },
        ]
    },
    "cycle": {
        "steps": [
            {
                "id": "w1",
                "function": "WeatherPluginSimpleComplex.GetWeatherForecast1",
                "arguments": {"date": {"$from": "w2"}},
            },
            {
                "id": "w2",
                "function": "WeatherPluginSimpleComplex.GetWeatherForecast1",
                "arguments": {"date": {"$from": "w1"}},
            },
        ]
    },
    "not_a_plan": {
        "steps": [{"id": "d", "function": "P.f", "arguments": {"x": {"$from": "d", "pth": "$"}}}]
    },
}


def test_check_output_for_known_bad_plans_golden(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    chunks: list[str] = []
    for name, body in BAD_PLANS.items():
        Path(f"{name}.json").write_text(json.dumps(body))
        code, out, err = run("plan", "check", f"{name}.json", "--views", EXAMPLE)
        chunks.append(f"$ sktypes plan check {name}.json  # exit {code}\n{out}{err}")
    check_golden("plans/check_bad_plans.txt", "\n".join(chunks))
