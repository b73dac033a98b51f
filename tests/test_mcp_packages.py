"""A generated package served from its ``views.json``: imported when a tool is first called."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from sktypes.errors import SktypesError
from sktypes.integrations import mcp
from tests.mcp_helpers import SPECS, connected, upstream

SPEC = SPECS / "weather_plugin.openapi.yaml"


def _run(server: Any, body: Any, *, last: bool = True) -> Any:
    """``body(client)`` over a client of ``server``; the server closed after its ``last`` use."""

    async def main() -> Any:
        if not last:
            async with Client(server) as client:
                return await body(client)
        async with connected(server) as client:
            return await body(client)

    return anyio.run(main)


def _generated(tmp_path: Path, name: str) -> Path:
    from sktypes_codegen import generate_plugin

    generate_plugin(SPEC, tmp_path, name=name)
    return tmp_path / name


def test_a_package_is_listed_without_being_imported_and_imported_at_its_first_call(
    tmp_path: Path,
) -> None:
    package = _generated(tmp_path, "lazy_weather")
    with upstream() as api:
        api.route("GET", "/forecast", (200, {"degreesFahrenheit": 71}))
        server = mcp.server(str(package), base_url=api.url)

        async def listed(client: Any) -> Any:
            return (await client.list_tools()).tools

        (tool,) = _run(server, listed, last=False)
        assert tool.name == "GetWeatherForecast1"
        assert tool.input_schema["required"] == ["date"]
        assert "lazy_weather" not in sys.modules  # the listing needs only views.json

        async def called(client: Any) -> Any:
            bad = await client.call_tool(tool.name, {})
            good = await client.call_tool(tool.name, {"date": "2026-11-27"})
            return bad, good

        bad, good = _run(server, called)
    assert "lazy_weather" in sys.modules
    assert bad.is_error and "$.date" in bad.content[0].text  # the contract, as before
    assert not good.is_error and good.structured_content == {"degreesFahrenheit": 71}
    assert api.seen[-1].query == [("date", "2026-11-27")]


def test_an_edited_package_is_imported_at_start_and_its_errors_reported_there(
    tmp_path: Path,
) -> None:
    package = _generated(tmp_path, "edited_weather")
    (package / "plugin.py").write_text("def (:\n")
    with pytest.raises(SktypesError, match=r"edited_weather.*importing failed: SyntaxError"):
        mcp.server(str(package), base_url="http://127.0.0.1:9")


def test_a_package_that_fails_at_its_first_call_says_why_in_the_result(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    package = _generated(tmp_path, "failing_weather")
    server = mcp.server(str(package), base_url="http://127.0.0.1:9")
    (package / "__init__.py").write_text("raise RuntimeError('broken after start')\n")

    async def called(client: Any) -> Any:
        first = await client.call_tool("GetWeatherForecast1", {"date": "2026-11-27"})
        second = await client.call_tool("GetWeatherForecast1", {"date": "2026-11-27"})
        return first, second

    first, second = _run(server, called)
    for result in (first, second):
        assert result.is_error
        assert "importing failed: RuntimeError: broken after start" in result.content[0].text
    logged = [r for r in caplog.records if "broken after start" in r.getMessage()]
    assert len(logged) == 1  # one line, when importing (not one per call)
