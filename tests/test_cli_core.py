"""CLI: manual and schema commands, and one-line errors for bad targets."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from sktypes.cli import cli

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_manual_of_the_example_file() -> None:
    code, out, _ = run("manual", str(ROOT / "examples/date_weather.py"))
    assert code == 0
    names = [t["name"] for t in json.loads(out)]
    assert names == [
        "DatePluginSimpleComplex.GetDate1",
        "WeatherPluginSimpleComplex.GetWeatherForecast1",
    ]


def test_manual_of_module_class_and_function_targets() -> None:
    code, out, _ = run("manual", "examples.date_weather:DatePluginSimpleComplex", "-f", "openai")
    assert code == 0
    assert json.loads(out)[0]["function"]["name"] == "DatePluginSimpleComplex-GetDate1"
    code, out, _ = run("manual", "examples.date_weather", "-f", "text")
    assert code == 0 and out.startswith("DatePluginSimpleComplex.GetDate1:")


def test_manual_writes_a_file(tmp_path: Path) -> None:
    out = tmp_path / "manual.json"
    code, _, _ = run("manual", "examples.date_weather", "-o", str(out))
    assert code == 0
    assert len(json.loads(out.read_text())) == 2


def test_manual_reads_a_tool_list(tmp_path: Path) -> None:
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps([{"name": "P-f", "input_schema": {"type": "object"}}]))
    code, out, _ = run("manual", str(tools), "-f", "mcp")
    assert code == 0
    assert json.loads(out)[0]["name"] == "P.f"


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("nope.py", "sktypes: error: nope.py: no such file"),
        ("no_such_module_xyz", "sktypes: error: no_such_module_xyz: cannot import"),
        ("examples.date_weather:Nope", "has no attribute 'Nope'"),
        ("json", "sktypes: error: json: no @kernel_function found"),
    ],
)
def test_bad_targets_exit_2_with_one_line(target: str, message: str) -> None:
    code, out, err = run("manual", target)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err + out


def test_schema_command_in_each_dialect() -> None:
    code, out, _ = run("schema", "examples.date_weather:DateResponse", "--dialect", "gemini")
    assert code == 0
    assert json.loads(out)["properties"]["date"]["type"] == "STRING"
    code, _, err = run("schema", "examples.date_weather:DatePluginSimpleComplex")
    assert code == 2 and "has no JSON Schema" in err


def test_console_script_help_lists_commands() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "sktypes", "--help"], capture_output=True, text=True, cwd=ROOT
    )
    assert proc.returncode == 0
    assert "manual" in proc.stdout and "schema" in proc.stdout
