"""The MCP server: the official SDK's low-level ``Server`` with sktypes' tools behind it."""

from __future__ import annotations

import difflib
import logging
import time
from typing import Any, cast

import httpx
import mcp.types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

from sktypes.integrations.mcp._tools import ToolSet

__all__ = ["McpServer"]

log = logging.getLogger("sktypes.mcp")


class McpServer(Server[Any]):
    """An MCP server of function views (build it with :func:`sktypes.integrations.mcp.server`).

    It is the SDK's low-level ``Server``: run it over any of the SDK's transports. Tools are
    listed with input and output schemas; calls are validated, hydrated, made, and their
    results checked against the output schema.

    Attributes:
        toolset: the tools, their listings and the call path.
        warnings: what the targets could not express (each naming its place).
        http_client: the HTTP client remote calls go through.
        trace: log each call (tool, duration, status) at ``INFO`` on ``sktypes.mcp``.
    """

    def __init__(
        self,
        toolset: ToolSet,
        *,
        name: str,
        version: str,
        http_client: httpx.AsyncClient,
        owns_client: bool,
        warnings: list[str],
        trace: bool = False,
        instructions: str | None = None,
    ) -> None:
        self.toolset = toolset
        self.warnings = warnings
        self.http_client = http_client
        self.trace = trace
        self._owns_client = owns_client
        super().__init__(
            name,
            version=version,
            instructions=instructions,
            on_list_tools=self._list_tools,
            on_call_tool=self._call_tool,
            get_tool_input_schema=self._input_schema,
        )

    async def aclose(self) -> None:
        """Close the HTTP client this server made (a client passed in is left open)."""
        if self._owns_client:
            await self.http_client.aclose()

    def _input_schema(self, name: str) -> dict[str, Any] | None:
        entry = self.toolset.find(name)
        return None if entry is None else entry.served.view.parameters_schema

    async def _list_tools(
        self, ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        # the listing as JSON data: the SDK takes a dict from a handler as the result
        # itself (no model built and dumped again for a listing of megabytes)
        return cast(types.ListToolsResult, self.toolset.listing_data(ctx.protocol_version))

    async def _call_tool(
        self, ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        entry = self.toolset.find(params.name)
        if entry is None:
            close = difflib.get_close_matches(params.name, self.toolset.names, n=3, cutoff=0.6)
            hint = f" (did you mean {', '.join(close)}?)" if close else ""
            raise MCPError(types.INVALID_PARAMS, f"unknown tool {params.name!r}{hint}")
        start = time.perf_counter()
        result, status = await self.toolset.call(entry, params.arguments, ctx.protocol_version)
        if self.trace:
            log.info(
                "call %s %.1f ms %s", params.name, (time.perf_counter() - start) * 1000, status
            )
        return result
