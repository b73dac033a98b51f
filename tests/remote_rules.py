"""The three doors into the runtime, on ``tests/specs/runtime/remote_rules.yaml``.

Every runtime rule (typed errors, retries, auth, media types, drift) is tested through:

- the generated package (``sync`` and ``async`` methods): :func:`generated` builds the
  plugin on the server, :func:`call` calls a method either way;
- ``kernel_openapi``: :func:`kernel_function` (async, as the kernel calls it);
- ``sktypes serve``: :func:`serve_call`, an MCP client in process, serving the spec or the
  generated package.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sktypes.kernel import KernelFunction, openapi_plugin
from sktypes.openapi import load_openapi
from sktypes.remote import Retry, SecurityCredentials
from tests.remote_server import RemoteServer

SPEC = Path(__file__).parent / "specs" / "runtime" / "remote_rules.yaml"
PACKAGE = "remote_rules_client"
FAST = Retry(backoff=0.0, max_delay=0.0)
"""Retries without waiting (the waits themselves are tested on their own)."""

MODES = ["async", "sync"]


@pytest.fixture(scope="session")
def package_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The package generated from the spec once per session, importable."""
    from sktypes_codegen import generate_plugin

    out = tmp_path_factory.mktemp("remote_rules")
    generate_plugin(SPEC, out, name=PACKAGE, sync=True)
    sys.path.insert(0, str(out))
    try:
        yield out / PACKAGE
    finally:
        sys.path.remove(str(out))


@pytest.fixture
def rules(package_dir: Path) -> Any:
    """The generated package's module."""
    return importlib.import_module(PACKAGE)


def generated(rules: Any, server: RemoteServer, **kwargs: Any) -> Any:
    """The generated plugin on ``server`` (no waits between retries unless told)."""
    kwargs.setdefault("retries", FAST)
    return rules.RemoteRulesClientPlugin(server.url, **kwargs)


def call(plugin: Any, mode: str, method: str, *args: Any, **kwargs: Any) -> Any:
    """``plugin.method(...)`` awaited (``async``) or its ``_sync`` twin called."""
    if mode == "sync":
        return getattr(plugin, f"{method}_sync")(*args, **kwargs)
    return asyncio.run(getattr(plugin, method)(*args, **kwargs))


def kernel_function(
    server: RemoteServer,
    name: str,
    *,
    values: dict[str, Any] | None = None,
    retries: int | Retry = FAST,
    strict: bool = False,
) -> KernelFunction:
    """The ``kernel_openapi`` function of operation ``name`` on ``server``."""
    plugin = load_openapi(SPEC)
    credentials = SecurityCredentials(
        plugin.security_schemes, values=values or {}, env={}, base_url=server.url
    )
    functions = openapi_plugin(
        plugin, server_url=server.url, credentials=credentials, retries=retries, strict=strict
    )
    return functions[name]


def invoke(fn: KernelFunction, arguments: dict[str, Any]) -> Any:
    """Call a kernel function with JSON arguments."""
    return asyncio.run(fn.call(arguments))


def serve_call(
    target: str | Path,
    server: RemoteServer,
    tool: str,
    arguments: dict[str, Any] | None = None,
    **options: Any,
) -> Any:
    """Serve ``target`` (the spec or the generated package) and call ``tool`` over MCP.

    Skipped where the MCP SDK is not installed (``make test-lowest``: the runtime only).
    """
    pytest.importorskip("mcp")
    from mcp import Client

    from sktypes.integrations import mcp

    options.setdefault("env", {})
    app = mcp.server(str(target), base_url=server.url, **options)

    async def main() -> Any:
        try:
            async with Client(app, mode="legacy") as client:
                return await client.call_tool(tool, arguments or {})
        finally:
            await app.aclose()

    return asyncio.run(main())


def text(result: Any) -> str:
    """The text blocks of an MCP tool result, joined."""
    return "\n".join(getattr(block, "text", "") for block in result.content)


def drifted(result: Any) -> tuple[Any, list[str]]:
    """A drifted MCP result's value (whole, as received) and its problems as ``path: message``.

    The server lists only the declared shape, so a value that breaks it comes as an error
    result: the value in its first block, the problems in ``_meta["sktypes/drift"]``.
    """
    assert result.is_error and result.structured_content is None
    problems = result.meta["sktypes/drift"]
    return json.loads(result.content[0].text), [f"{p['path']}: {p['message']}" for p in problems]
