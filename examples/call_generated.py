"""Call the generated weather plugin once, as a dry run: the request is printed, not sent.

``make run`` generates ``out/weather_plugin`` from ``schemas/examples/weather_plugin.openapi.yaml``
and runs ``python examples/call_generated.py out``. An ``httpx.MockTransport`` stands in for
the server, so the call shows the request the plugin builds and the typed value it returns.
"""

from __future__ import annotations

import asyncio
import importlib
import sys

import httpx


def answer(request: httpx.Request) -> httpx.Response:
    """Print the request the generated plugin built and answer like the real service."""
    print(f"request: {request.method} {request.url}")
    return httpx.Response(200, json={"degreesFahrenheit": 71})


async def main(out_dir: str) -> None:
    """Import the generated package from ``out_dir`` and make one typed call."""
    sys.path.insert(0, out_dir)
    package = importlib.import_module("weather_plugin")
    plugin = package.WeatherPlugin(client=httpx.AsyncClient(transport=httpx.MockTransport(answer)))
    result = await plugin.get_weather_forecast1(date="2026-01-02")
    print(f"result:  {result!r} ({type(result).__module__}.{type(result).__qualname__})")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else "out"))
