"""Code-mode stubs: one importable, mypy --strict clean module of typed async functions."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import subprocess
import sys
from datetime import date
from pathlib import Path
from typing import Any, TypedDict

import pytest
from click.testing import CliRunner

import sktypes as sk
from examples.date_weather import DatePluginSimpleComplex
from sktypes.cli import cli
from sktypes_codegen import code_mode_stubs

SPEC = "schemas/examples/weather_plugin.openapi.yaml"


def _import(path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _sources() -> dict[str, list[sk.FunctionView]]:
    plugin = sk.plugin_views(DatePluginSimpleComplex())
    spec = sk.load_openapi(SPEC).views
    tools = sk.views_from_manual(sk.functions_manual(plugin + spec, "mcp"))
    return {"plugin": plugin, "spec": spec, "tools": tools}


def test_every_source_gives_an_importable_strict_clean_module(tmp_path: Path) -> None:
    paths = []
    for name, views in _sources().items():
        result = code_mode_stubs(views, source=name)
        assert result.functions == len(views)
        assert result.typed == result.declared > 0
        path = tmp_path / f"tools_{name}.py"
        path.write_text(result.source)
        paths.append(str(path))
        _import(path)
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", *paths],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout


def test_calls_go_to_the_bound_runner_without_unset_arguments(tmp_path: Path) -> None:
    def greet(name: str, times: int = 1) -> dict[str, str]:
        """Say hello. Politely."""
        return {"text": f"hello {name}"}

    path = tmp_path / "greet_tools.py"
    path.write_text(code_mode_stubs([sk.function_view(greet, "Hi")]).source)
    module = _import(path)
    seen: list[tuple[str, dict[str, Any]]] = []

    async def run(tool: str, arguments: dict[str, Any]) -> Any:
        seen.append((tool, arguments))
        return {"text": "hello Ada"}

    module.bind(run)
    assert asyncio.run(module.greet(name="Ada")) == {"text": "hello Ada"}
    assert seen == [("Hi.greet", {"name": "Ada"})]
    assert "- greet(" in module.__doc__ and "Say hello." in module.__doc__
    assert module.greet.__doc__.startswith("Say hello. Politely.")


def test_cli_code_mode_reads_any_source_and_says_the_typed_share(tmp_path: Path) -> None:
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps(sk.functions_manual(sk.load_openapi(SPEC).views, "mcp")))
    for target in (SPEC, str(tools), "examples/date_weather.py"):
        out = tmp_path / "stubs_out.py"
        result = CliRunner().invoke(cli, ["stubs", "--code-mode", target, "-o", str(out)])
        assert result.exit_code == 0, result.output
        assert "declared results typed" in result.stderr
        _import(out)


def test_cli_code_mode_and_manual_read_a_generated_package_by_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a package's plugin class lives in its plugin.py: the package name alone found nothing
    # ("no @kernel_function found"), though serve took it (regression)
    runner = CliRunner()
    names = [f"{v.plugin_name}.{v.name}" for v in sk.load_openapi(SPEC).views]
    spec = str(Path(SPEC).resolve())
    made = runner.invoke(cli, ["generate", spec, "-o", str(tmp_path), "--name", "weather_pkg"])
    assert made.exit_code == 0, made.output
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    out = tmp_path / "pkg_tools.py"
    result = runner.invoke(cli, ["stubs", "--code-mode", "weather_pkg", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "1 of 1 declared results typed" in result.stderr
    manual = runner.invoke(cli, ["manual", "weather_pkg", "-f", "mcp", "--detail", "names"])
    assert manual.exit_code == 0, manual.output
    assert [t["name"] for t in json.loads(manual.stdout)] == names


def test_cli_code_mode_says_when_no_result_is_declared(tmp_path: Path) -> None:
    tools = tmp_path / "openai_tools.json"
    tools.write_text(json.dumps(sk.functions_manual(sk.load_openapi(SPEC).views, "openai")))
    result = CliRunner().invoke(cli, ["stubs", "--code-mode", str(tools)])
    assert result.exit_code == 0, result.output
    assert "no function declares its result" in result.stderr
    assert "async def " in result.stdout


class Stay(TypedDict):
    arrives: date
    nights: int


def book_stay(arrives: date, leaves: date | None = None) -> Stay:
    """Book a stay."""
    return {"arrives": arrives, "nights": 1}


def test_values_are_typed_as_the_json_they_are(tmp_path: Path) -> None:
    # the runner returns JSON: a result typed datetime.date held a str at run time (regression)
    source = code_mode_stubs([sk.function_view(book_stay, "Inn")]).source
    assert "datetime" not in source
    assert "arrives: str" in source and "leaves: str | None = NOT_GIVEN" in source
    assert "- arrives: (date)" in source and "- leaves: (date)" in source
    path = tmp_path / "inn_tools.py"
    path.write_text(source)
    module = _import(path)

    async def run(tool: str, arguments: dict[str, Any]) -> Any:
        return json.loads(json.dumps({"arrives": arguments["arrives"], "nights": 2}))

    module.bind(run)
    stay = asyncio.run(module.book_stay(arrives="2026-12-01"))
    assert stay == {"arrives": "2026-12-01", "nights": 2}
