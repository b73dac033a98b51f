"""An API that cannot be reached: one log line, and a result naming the host."""

from __future__ import annotations

import logging
import socket
from typing import Any

import anyio
import httpx
import pytest

from sktypes.integrations import mcp
from sktypes.integrations.mcp._errors import unreachable
from tests.mcp_helpers import SPECS, connected


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port  # nothing listens there now


def test_an_unreachable_api_is_one_log_line_and_a_result_naming_its_host(
    caplog: pytest.LogCaptureFixture,
) -> None:
    port = _closed_port()
    spec = SPECS / "weather_plugin.openapi.yaml"
    server = mcp.server(str(spec), base_url=f"http://127.0.0.1:{port}")

    async def main() -> Any:
        async with connected(server) as client:
            return [
                await client.call_tool("GetWeatherForecast1", {"date": "2026-11-27"})
                for _ in range(2)
            ]

    with caplog.at_level(logging.INFO, logger="sktypes.mcp"):
        results = anyio.run(main)
    for result in results:
        assert result.is_error
        text = result.content[0].text
        assert text.startswith(f"GetWeatherForecast1 failed: could not reach 127.0.0.1:{port}: ")
    logged = [r for r in caplog.records if r.name == "sktypes.mcp" and r.levelno >= logging.INFO]
    assert len(logged) == 2  # one line per call
    for record in logged:
        assert record.exc_info is None and "\n" not in record.getMessage()
        assert f"could not reach 127.0.0.1:{port}" in record.getMessage()


def test_the_reason_is_the_exceptions_words_or_its_kind() -> None:
    request = httpx.Request("GET", "https://api.example.com:8443/x?key=secret")
    timeout = httpx.ReadTimeout("", request=request)
    assert unreachable(timeout) == "could not reach api.example.com:8443: ReadTimeout"
    refused = httpx.ConnectError("connection refused", request=request)
    assert unreachable(refused) == "could not reach api.example.com:8443: connection refused"
    assert unreachable(httpx.ConnectError("no route")) == "could not reach the API: no route"
