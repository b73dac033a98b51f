"""The example scripts ``make run`` calls work from a fresh checkout."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from sktypes_codegen import generate_plugin

ROOT = Path(__file__).resolve().parents[1]


def test_plan_runs_over_generated_openapi_plugins_against_a_local_server() -> None:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "plan_over_openapi.py")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "plan checks clean against the specs' views"
    assert "  server: GET /date?numDays=1" in lines
    assert "  server: GET /forecast?date=2026-01-02" in lines
    assert lines[-1].endswith(": 78")  # 50 + date(2026, 1, 2).toordinal() % 30


def test_generated_plugin_dry_run_prints_request_and_typed_result(tmp_path: Path) -> None:
    spec = ROOT / "schemas" / "examples" / "weather_plugin.openapi.yaml"
    generate_plugin(spec, tmp_path, name="weather_plugin")
    proc = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "call_generated.py"), str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines() == [
        "request: GET https://weather.example.com/forecast?date=2026-01-02",
        "result:  GetWeatherForecast1Result(degrees_fahrenheit=71) "
        "(weather_plugin.models.GetWeatherForecast1Result)",
    ]
