"""``sktypes serve`` driven by the official MCP client, the server a real subprocess.

Over stdio (``ClientSession`` on the process's stdin/stdout) and streamable HTTP on
127.0.0.1, against the example Python plugins, the bundled weather spec (its API a local
HTTP server) and a package generated from a corpus spec.
"""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp")

from tests.mcp_helpers import (
    CORPUS,
    EXAMPLES,
    ROOT,
    SPECS,
    check_structured,
    http_server,
    http_session,
    stdio_session,
    text_of,
    upstream,
)

DATE = "DatePluginSimpleComplex.GetDate1"  # two plugins in one server: qualified names
WEATHER = "WeatherPluginSimpleComplex.GetWeatherForecast1"
FORECAST = "GetWeatherForecast1"  # the weather spec alone: the server is the plugin


async def _exercise_examples(session: Any) -> None:
    tools = {t.name: t for t in (await session.list_tools()).tools}
    assert set(tools) == {DATE, WEATHER}
    date_tool = tools[DATE]
    assert date_tool.input_schema["properties"]["numDays"]["description"].startswith("The number")
    result = await session.call_tool(DATE, {"numDays": 1})
    check_structured(date_tool, result)
    day = result.structured_content["date"]
    assert json.loads(text_of(result)) == {"date": day}
    weather = await session.call_tool(WEATHER, {"date": day})
    check_structured(tools[WEATHER], weather)
    assert isinstance(weather.structured_content["degreesFahrenheit"], int)
    bad = await session.call_tool(DATE, {"numDays": "tomorrow", "when": 1})
    assert bad.is_error
    text = text_of(bad)
    assert "$.numDays" in text and "$.when" in text
    missing = await session.call_tool(WEATHER, {})
    assert missing.is_error and "$.date" in text_of(missing)


def test_example_plugins_over_stdio() -> None:
    async def main() -> None:
        async with stdio_session(str(EXAMPLES / "date_weather.py")) as session:
            await _exercise_examples(session)

    anyio.run(main)


def test_example_plugins_over_streamable_http() -> None:
    with http_server(str(EXAMPLES / "date_weather.py")) as url:
        assert url.startswith("http://127.0.0.1:")

        async def main() -> None:
            async with http_session(url) as session:
                await _exercise_examples(session)

        anyio.run(main)


def _weather_api() -> Any:
    def forecast(seen: Any) -> Any:
        date = dict(seen.query).get("date")
        if date == "drift":
            return (200, {"degreesFahrenheit": "warm", "note": "kept"})
        if date == "boom":
            return (503, {"error": "upstream down"})
        return (200, {"degreesFahrenheit": 61})

    api = upstream()
    return api, forecast


async def _exercise_weather(session: Any, seen: list[Any]) -> None:
    tools = {t.name: t for t in (await session.list_tools()).tools}
    assert list(tools) == [FORECAST]
    tool = tools[FORECAST]
    assert tool.annotations is not None and tool.annotations.read_only_hint is True
    ok = await session.call_tool(FORECAST, {"date": "2026-01-02"})
    check_structured(tool, ok)
    assert ok.structured_content == {"degreesFahrenheit": 61}
    assert seen[-1].method == "GET" and seen[-1].path == "/forecast"
    assert seen[-1].query == [("date", "2026-01-02")]
    # the API breaks its own spec: returned whole, with a warning, as an error result (the
    # output schema shows the declared shape only); the qualified name is accepted too
    drift = await session.call_tool(WEATHER, {"date": "drift"})
    assert drift.is_error and drift.structured_content is None
    assert json.loads(drift.content[0].text) == {"degreesFahrenheit": "warm", "note": "kept"}
    assert (
        drift.meta is not None and drift.meta["sktypes/drift"][0]["path"] == "$.degreesFahrenheit"
    )
    assert "drift" in text_of(drift) and "$.degreesFahrenheit" in text_of(drift)
    # an API error reaches the model as an error result with the status
    failed = await session.call_tool(FORECAST, {"date": "boom"})
    assert failed.is_error and "503" in text_of(failed)
    calls = len(seen)
    bad = await session.call_tool(FORECAST, {"date": 20260102})
    assert bad.is_error and "$.date" in text_of(bad)
    assert len(seen) == calls  # nothing was sent upstream


def test_weather_spec_over_stdio_against_a_local_api() -> None:
    api, forecast = _weather_api()
    with api as server:
        server.route("GET", "/forecast", forecast)
        spec = str(SPECS / "weather_plugin.openapi.yaml")

        async def main() -> None:
            async with stdio_session(spec, "--base-url", server.url) as session:
                await _exercise_weather(session, server.seen)

        anyio.run(main)


def test_weather_spec_over_streamable_http_against_a_local_api() -> None:
    api, forecast = _weather_api()
    with api as server:
        server.route("GET", "/forecast", forecast)
        spec = str(SPECS / "weather_plugin.openapi.yaml")
        with http_server(spec, "--base-url", server.url) as url:

            async def main() -> None:
                async with http_session(url) as session:
                    await _exercise_weather(session, server.seen)

            anyio.run(main)


PETSTORE = CORPUS / "oai-v3.0-petstore-expanded" / "petstore-expanded.json"


@pytest.mark.skipif(not PETSTORE.is_file(), reason="the shared OpenAPI corpus is not here")
@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_generated_package_of_a_corpus_spec(transport: str) -> None:
    from sktypes_codegen import generate_plugin

    with tempfile.TemporaryDirectory() as tmp, upstream() as api:
        generate_plugin(PETSTORE, Path(tmp), name="served_petstore")
        pets = [{"id": 1, "name": "Rex", "tag": "dog", "chipped": True}]
        api.route("GET", "/pets", (200, pets))
        api.route("GET", "/pets/7", (200, {"id": "seven", "name": "Odd"}))
        api.route("DELETE", "/pets/1", (204, None))
        package = str(Path(tmp) / "served_petstore")

        async def exercise(session: Any) -> None:
            tools = {t.name: t for t in (await session.list_tools()).tools}
            find = tools["findPets"]
            # the package records its spec: the spec's views are the contract
            assert find.annotations is not None and find.annotations.read_only_hint
            assert tools["deletePet"].annotations.destructive_hint  # type: ignore[union-attr]
            assert "maximum number of results" in json.dumps(find.input_schema)
            listed = await session.call_tool(find.name, {"tags": ["dog"], "limit": 2})
            check_structured(find, listed)
            # the body as the API sent it: a field the models do not declare is kept
            assert listed.structured_content == {"result": pets}
            assert api.seen[-1].query == [("tags", "dog"), ("limit", "2")]
            by_id = next(n for n in tools if n.lower().endswith("by_id"))
            odd = await session.call_tool(by_id, {"id": 7})  # drift: an error result, whole
            assert odd.is_error and odd.meta is not None and odd.meta["sktypes/drift"]
            assert json.loads(odd.content[0].text) == {"id": "seven", "name": "Odd"}
            assert "$.id" in text_of(odd)
            gone = await session.call_tool("deletePet", {"id": 1})
            assert not gone.is_error
            assert api.seen[-1].method == "DELETE"
            bad = await session.call_tool(find.name, {"limit": "many"})
            assert bad.is_error and "$.limit" in text_of(bad)

        if transport == "stdio":

            async def main() -> None:
                async with stdio_session(package, "--base-url", api.url) as session:
                    await exercise(session)

            anyio.run(main)
        else:
            with http_server(package, "--base-url", api.url) as url:

                async def over_http() -> None:
                    async with http_session(url) as session:
                        await exercise(session)

                anyio.run(over_http)


def test_unknown_target_fails_in_one_line(tmp_path: Path) -> None:
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-m", "sktypes", "serve", str(tmp_path / "nope.yaml")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "nope.yaml" in proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""


NOISY = '''
import logging
from sktypes import kernel_function

@kernel_function
def shout(word: str) -> str:
    """Echo a word, loudly."""
    print("stray output from the plugin")
    logging.getLogger("noisy").warning("plugin log line")
    return word.upper()
'''


def test_stray_prints_cannot_corrupt_stdio_and_logs_go_to_stderr(tmp_path: Path) -> None:
    plugin = tmp_path / "noisy.py"
    plugin.write_text(NOISY)

    with tempfile.TemporaryFile("w+") as errlog:

        async def main() -> Any:
            async with stdio_session(str(plugin), errlog=errlog) as session:
                first = await session.call_tool("shout", {"word": "hey"})
                second = await session.call_tool("shout", {"word": "you"})
                return first, second

        first, second = anyio.run(main)
        errlog.seek(0)
        logged = errlog.read()
    assert first.structured_content == {"result": "HEY"}
    assert second.structured_content == {"result": "YOU"}
    assert "stray output from the plugin" in logged and "plugin log line" in logged


def test_sigterm_stops_a_stdio_server_cleanly() -> None:
    import signal
    import subprocess
    import sys
    import time

    proc = subprocess.Popen(
        [sys.executable, "-m", "sktypes", "serve", str(EXAMPLES / "date_weather.py")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    assert proc.stdin is not None and proc.stdout is not None
    hello = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        },
    }
    proc.stdin.write(json.dumps(hello).encode() + b"\n")
    proc.stdin.flush()
    reply = json.loads(proc.stdout.readline())
    assert reply["id"] == 1 and "serverInfo" in reply["result"]
    time.sleep(0.2)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err.decode()
    assert b"Traceback" not in err


def test_the_2026_protocol_over_streamable_http() -> None:
    from mcp import Client

    with http_server(str(EXAMPLES / "date_weather.py")) as url:

        async def main() -> Any:
            async with Client(url) as client:  # negotiates the newest protocol
                tools = {t.name: t for t in (await client.list_tools()).tools}
                result = await client.call_tool(DATE, {"numDays": 0})
                return client.protocol_version, tools[DATE], result

        version, tool, result = anyio.run(main)
    assert version == "2026-07-28"
    check_structured(tool, result)
    assert set(result.structured_content) == {"date"}


FILES_SPEC = """
openapi: 3.0.3
info: {title: Files, version: "1"}
paths:
  /logo:
    get:
      operationId: logo
      responses:
        "200":
          description: the logo
          content:
            image/png:
              schema: {type: string, format: binary}
  /report/{year}:
    get:
      operationId: report
      parameters:
        - {name: year, in: path, required: true, schema: {type: integer}}
      responses:
        "200":
          description: the year's report
          content:
            application/pdf:
              schema: {type: string, format: binary}
"""


def test_binary_responses_over_stdio_are_content_blocks(tmp_path: Path) -> None:
    import base64

    spec = tmp_path / "files.yaml"
    spec.write_text(FILES_SPEC)
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256))
    pdf = b"%PDF-1.7\n\xe2\xe3\xcf\xd3" + bytes(range(255, -1, -1))
    with upstream() as api:
        api.route("GET", "/logo", (200, png, "image/png"))
        api.route("GET", "/report/2025", (200, pdf, "application/pdf"))

        async def main() -> Any:
            async with stdio_session(str(spec), "--base-url", api.url) as session:
                tools = {t.name: t for t in (await session.list_tools()).tools}
                logo = await session.call_tool("logo", {})
                report = await session.call_tool("report", {"year": 2025})
                check_structured(tools["logo"], logo)
                check_structured(tools["report"], report)
                return tools, logo, report

        tools, logo, report = anyio.run(main)
    listed = tools["report"].output_schema["properties"]["result"]
    assert listed["contentEncoding"] == "base64"
    assert listed["contentMediaType"] == "application/pdf"
    (image,) = logo.content
    assert image.type == "image" and image.mime_type == "image/png"
    assert base64.b64decode(image.data) == png
    (embedded,) = report.content
    assert embedded.type == "resource" and embedded.resource.mime_type == "application/pdf"
    assert base64.b64decode(embedded.resource.blob) == pdf
    assert base64.b64decode(report.structured_content["result"]) == pdf


TRACED = '''
from sktypes import kernel_function

@kernel_function
def stock(sku: str) -> dict[str, int]:
    """Units in stock per warehouse."""
    if sku == "odd":
        return {"north": "many"}  # breaks its own return type: drift
    return {"north": 3}
'''


def test_verbose_traces_each_call_and_drift_is_logged(tmp_path: Path) -> None:
    plugin = tmp_path / "traced.py"
    plugin.write_text(TRACED)

    def run(*flags: str) -> tuple[Any, str]:
        with tempfile.TemporaryFile("w+") as errlog:

            async def main() -> Any:
                async with stdio_session(str(plugin), *flags, errlog=errlog) as session:
                    return [
                        await session.call_tool("stock", {"sku": "a1"}),
                        await session.call_tool("stock", {"sku": 7}),
                        await session.call_tool("stock", {"sku": "odd"}),
                    ]

            results = anyio.run(main)
            errlog.seek(0)
            return results, errlog.read()

    (ok, invalid, drift), logged = run("--verbose")
    assert not ok.is_error and invalid.is_error and drift.meta["sktypes/drift"]
    calls = re.findall(r"INFO sktypes\.mcp: call stock (\d+\.\d) ms (\w+)", logged)
    assert [status for _, status in calls] == ["ok", "invalid", "drift"]
    assert "WARNING sktypes.mcp: stock: the result does not match the output schema (drift)" in (
        logged
    )
    assert "$.north" in logged
    # without --verbose: no trace, but the drift warning is always logged
    _, quiet = run()
    assert "call stock" not in quiet
    assert "the result does not match the output schema (drift)" in quiet


def test_closing_stdin_stops_a_stdio_server_cleanly() -> None:
    import subprocess
    import sys

    proc = subprocess.Popen(
        [sys.executable, "-m", "sktypes", "serve", str(EXAMPLES / "date_weather.py")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    hello = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        },
    }
    out, err = proc.communicate(json.dumps(hello).encode() + b"\n", timeout=60)
    assert proc.returncode == 0, err.decode()
    assert json.loads(out.splitlines()[0])["id"] == 1
    assert b"Traceback" not in err
