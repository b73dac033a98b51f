"""An ``OpenApiPlugin`` as a kernel plugin: each operation's view, invoking its HTTP call."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import httpx

from sktypes.kernel._function import KernelFunction, KernelPlugin
from sktypes.kernel_openapi import operation_caller

if TYPE_CHECKING:
    from sktypes.auth import SecurityCredentials
    from sktypes.openapi import OpenApiPlugin

__all__ = ["openapi_plugin"]


def openapi_plugin(
    plugin: OpenApiPlugin,
    *,
    name: str | None = None,
    description: str | None = None,
    server_url: str | None = None,
    client: httpx.AsyncClient | None = None,
    headers: Mapping[str, str] | None = None,
    credentials: SecurityCredentials | None = None,
) -> KernelPlugin:
    """A :class:`KernelPlugin` whose functions call ``plugin``'s operations over HTTP.

    Each function is an operation's view, invoked with the JSON arguments its argument
    contract lets through (:func:`sktypes.kernel_openapi.operation_caller`).

    Args:
        plugin: an ``sktypes.openapi.OpenApiPlugin``.
        name: the plugin name (defaults to the spec's).
        description: what the plugin is about (defaults to the spec's title).
        server_url: the base URL (defaults to the operation's, then the spec's first server).
        client: the httpx client to send with (e.g. with auth, retries or a mock transport);
            a short-lived client per call otherwise.
        headers: extra headers for every request (e.g. an API key).
        credentials: the spec's security schemes with their values
            (:class:`sktypes.auth.SecurityCredentials`): each operation sends the
            credentials its ``security`` asks for, and only those.
    """
    functions = [
        KernelFunction(
            op.view,
            operation_caller(
                op,
                server_url=server_url,
                servers=plugin.servers,
                client=client,
                headers=headers,
                credentials=credentials,
            ),
            hydrate=False,
        )
        for op in plugin.operations
    ]
    about = description if description is not None else plugin.title or ""
    return KernelPlugin(name or str(plugin.name), functions, about)
