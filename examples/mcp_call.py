"""Serve the example plugins over MCP (stdio) and make one call with the official client.

``make run`` runs ``python examples/mcp_call.py``: it starts ``sktypes serve
examples/date_weather.py`` as a subprocess, connects the ``mcp`` SDK's ``ClientSession`` to
its stdin/stdout, lists the tools and calls ``DatePluginSimpleComplex.GetDate1``, then sends
a bad argument to show the error a model gets back.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = Path(__file__).resolve().parents[1]


async def main() -> None:
    """List the tools of ``sktypes serve examples/date_weather.py`` and call one."""
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "sktypes", "serve", str(ROOT / "examples" / "date_weather.py")],
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        tools = (await session.list_tools()).tools
        print("tools:", ", ".join(t.name for t in tools))
        result = await session.call_tool("DatePluginSimpleComplex.GetDate1", {"numDays": 1})
        print("GetDate1(numDays=1):", json.dumps(result.structured_content))
        bad = await session.call_tool("DatePluginSimpleComplex.GetDate1", {"numDays": "one"})
        text = bad.content[0].text if bad.content and bad.content[0].type == "text" else ""
        print(f"GetDate1(numDays='one'): isError={bad.is_error}")
        print("  " + text.replace("\n", "\n  "))


if __name__ == "__main__":
    anyio.run(main)
