"""An ``OpenApiPlugin`` as a kernel plugin: each operation's view, invoking its HTTP call."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import httpx

from sktypes.kernel._function import KernelFunction, KernelPlugin
from sktypes.kernel_openapi import operation_callers

if TYPE_CHECKING:
    from sktypes.auth import SecurityCredentials
    from sktypes.openapi import OpenApiPlugin
    from sktypes.remote import Retry

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
    retries: int | Retry = 2,
    strict: bool = False,
) -> KernelPlugin:
    """A :class:`KernelPlugin` whose functions call ``plugin``'s operations over HTTP.

    Each function is an operation's view, invoked with the JSON arguments its argument
    contract lets through; the request is sent by the runtime of generated clients
    (:func:`sktypes.kernel_openapi.operation_callers`).

    Args:
        plugin: an ``sktypes.openapi.OpenApiPlugin``.
        name: the plugin name (defaults to the spec's).
        description: what the plugin is about (defaults to the spec's title).
        server_url: the base URL (defaults to the operation's, then the spec's first server).
        client: the httpx client to send with (e.g. with auth or a mock transport); a
            short-lived client per call otherwise.
        headers: extra headers for every request (e.g. an API key).
        credentials: the spec's security schemes with their values
            (:class:`sktypes.auth.SecurityCredentials`): each operation sends the
            credentials its ``security`` asks for, and only those.
        retries: retries of idempotent requests (an int or a :class:`sktypes.remote.Retry`).
        strict: a response that breaks its declared schema raises instead of warning.
    """
    callers = operation_callers(
        plugin,
        server_url=server_url,
        client=client,
        headers=headers,
        credentials=credentials,
        retries=retries,
        strict=strict,
    )
    functions = [KernelFunction(c.operation.view, c, hydrate=False) for c in callers]
    about = description if description is not None else plugin.title or ""
    return KernelPlugin(name or str(plugin.name), functions, about)
