"""Kernel functions for the operations of an ``OpenApiPlugin``, called through ``sktypes.remote``.

Each operation's ``Operation`` info (method, path, parameter locations and styles, body
media types, declared responses, security) turns the model's JSON arguments into a
:class:`~sktypes.remote.Request`, sent by the same runtime generated plugins use: the
credentials the operation's ``security`` asks for, ``Accept`` from the declared media types,
retries of idempotent requests, a fresh OAuth2 token on 401. A 2xx response's body is the
function's value, read by the ``Content-Type`` received: parsed JSON (checked against the
declared schema: a :class:`~sktypes.remote.ResponseDriftWarning` names what breaks it, or
``strict=True`` raises), text (``str``) for text media types, the ``bytes`` as sent for any
other (an image, a PDF). Any other status raises :class:`~sktypes.remote.ApiError` (a
:class:`KernelError`) naming the operation, with ``.parsed`` the body when it is what the
operation declares for that status; :meth:`FunctionCallContent.invoke` turns it into an
error result the model can read.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from typing import TYPE_CHECKING, Any

import httpx

from sktypes.errors import KernelError
from sktypes.kernel._function import KernelFunction, KernelPlugin
from sktypes.remote import (
    RAW,
    ApiClient,
    Request,
    Retry,
    idempotency_header,
    is_text,
    iterate_stream,
)
from sktypes.remote._items import AsyncItems
from sktypes.remote._pages import pages_of, walk_pages

if TYPE_CHECKING:
    from sktypes.auth import SecurityCredentials
    from sktypes.openapi import Operation
    from sktypes.views import FunctionView

__all__ = ["is_text", "openapi_functions", "openapi_pages", "openapi_plugin", "openapi_stream"]

DEFAULT_TIMEOUT = 30.0


def openapi_plugin(
    plugin: Any,
    *,
    name: str | None = None,
    server_url: str | None = None,
    client: httpx.AsyncClient | None = None,
    headers: Mapping[str, str] | None = None,
    credentials: SecurityCredentials | None = None,
    retries: int | Retry = 2,
    strict: bool = False,
) -> KernelPlugin:
    """A :class:`KernelPlugin` whose functions call ``plugin``'s operations.

    Args:
        plugin: an ``sktypes.openapi.OpenApiPlugin``.
        name: the plugin name (defaults to the spec's).
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
    functions, default_name = openapi_functions(
        plugin,
        server_url=server_url,
        client=client,
        headers=headers,
        credentials=credentials,
        retries=retries,
        strict=strict,
    )
    return KernelPlugin(name or default_name, functions, getattr(plugin, "title", "") or "")


def openapi_functions(
    plugin: Any,
    *,
    server_url: str | None = None,
    client: httpx.AsyncClient | None = None,
    headers: Mapping[str, str] | None = None,
    credentials: SecurityCredentials | None = None,
    retries: int | Retry = 2,
    strict: bool = False,
) -> tuple[list[KernelFunction], str]:
    """One kernel function per operation of ``plugin``, and the plugin's name."""
    functions = []
    clients: dict[str, ApiClient] = {}
    for view in plugin.views:
        operation = plugin.operation(view.name)
        base = (server_url or (operation.servers or plugin.servers or ("",))[0]).rstrip("/")
        api = clients.get(base)
        if api is None:
            api = clients[base] = ApiClient(
                base,
                client=client,
                timeout=DEFAULT_TIMEOUT,
                security=credentials,
                retries=retries,
                strict=strict,
                headers=headers,
            )
        functions.append(KernelFunction(view, _Caller(operation, view, api), hydrate=False))
    return functions, str(plugin.name)


def openapi_pages(
    function: KernelFunction, arguments: Mapping[str, Any], *, max_pages: int | None = None
) -> AsyncIterator[Any]:
    """The items of every page of a paginated operation's kernel function, as JSON data.

    ``function`` is one of :func:`openapi_functions` (or of a kernel the spec was added
    to); ``arguments`` are its JSON arguments for the first page (the walk changes the
    cursor, offset or page argument, or follows the next page's URL). Every page is sent
    like a call of the function (same server, client, headers and credentials).

    Raises:
        KernelError: ``function`` is not a paginated OpenAPI operation, or a page failed.
        RemoteResponseError: a page cannot be read as the pagination says.
    """
    caller = function.invoker
    if not isinstance(caller, _Caller) or caller.operation.pagination is None:
        raise KernelError("is not a paginated OpenAPI operation", where=function.name)
    return caller.pages(dict(arguments), max_pages)


def openapi_stream(function: KernelFunction, arguments: Mapping[str, Any]) -> AsyncIterator[Any]:
    """The items of a streamed operation's answer as they arrive, as JSON data.

    Server-sent events come as ``{"event", "data", "id", "retry"}`` objects (``data`` read
    as JSON unless the stream declares text). Calling the function itself gives the same
    iterator (its view ``is_streaming``).

    Raises:
        KernelError: ``function`` is not a streamed OpenAPI operation, or the API answered
            with an error status.
        StreamItemError: an item is not JSON.
        RemoteResponseError: the stream broke off.
    """
    caller = function.invoker
    if not isinstance(caller, _Caller) or caller.operation.stream is None:
        raise KernelError("is not a streamed OpenAPI operation", where=function.name)
    return caller.stream(dict(arguments))


class _Caller:
    """Sends one operation's request for a dict of JSON arguments."""

    def __init__(self, operation: Operation, view: FunctionView, api: ApiClient) -> None:
        self.operation = operation
        self.schema = view.return_parameter.schema
        self.api = api
        self.base = api._base_for(None)
        headers = [p.name for p in operation.parameters if p.location == "header"]
        self.idempotency_key = idempotency_header(headers)
        self.errors = {
            r.status: r.schema
            for r in operation.responses
            if r.schema is not None and not r.status.startswith("2")
        }
        media: dict[str, None] = {}
        if operation.response_content_type is not None:
            media[operation.response_content_type] = None
        for response in operation.responses:
            media.update(dict.fromkeys(response.content_types))
        self.accept = tuple(media)

    async def __call__(self, arguments: dict[str, Any]) -> Any:
        if self.operation.stream is not None:
            return self.stream(arguments)
        request = self.request(arguments)
        return await self.api._call(request, RAW, schema=self.schema)

    def stream(self, arguments: Mapping[str, Any]) -> AsyncItems[Any]:
        """The streamed answer's items (see :func:`openapi_stream`)."""
        op = self.operation
        assert op.stream is not None
        return iterate_stream(self.api, self.request(arguments), op.stream, schema=self.schema)

    def pages(self, arguments: Mapping[str, Any], max_pages: int | None) -> AsyncItems[Any]:
        """Every page's items (see :func:`openapi_pages`), each page sent like a call."""
        op = self.operation
        assert op.pagination is not None
        walk = walk_pages(op.pagination, arguments, operation=op.name, max_pages=max_pages)
        return AsyncItems(pages_of(self.api, self._page_request, None, walk, schema=self.schema))

    def _page_request(self, **arguments: Any) -> Request:
        return self.request(arguments)

    def request(self, arguments: Mapping[str, Any]) -> Request:
        """The :class:`Request` for ``arguments`` (JSON values keyed by view parameter)."""
        op = self.operation
        if not self.base.startswith(("http://", "https://")):
            raise KernelError(
                "has no http(s) server URL; pass server_url= to openapi_plugin()",
                where=op.name,
            )
        request = Request(
            op.name,
            op.method,
            op.path,
            accept=self.accept,
            errors=self.errors,
            security=op.security,
            idempotency_key=self.idempotency_key,
        )
        groups = {
            "path": request.path_params,
            "query": request.query,
            "header": request.headers,
            "cookie": request.cookies,
        }
        for p in op.parameters:
            if p.argument in arguments:
                style = "json" if p.content_type is not None else p.style
                groups[p.location].append((p.name, arguments[p.argument], style, p.explode))
        body = op.request_body
        if body is not None:
            payload = _body(body, arguments)
            if payload is not _MISSING:
                request.body = payload
                request.content_type = body.content_type
                request.content_types = body.content_types
                request.send_body = True
        return request


_MISSING = object()


def _body(body: Any, arguments: Mapping[str, Any]) -> Any:
    if body.fields:
        obj = {f.property: arguments[f.argument] for f in body.fields if f.argument in arguments}
        return obj if obj or body.required else _MISSING
    if body.argument is not None and body.argument in arguments:
        return arguments[body.argument]
    return _MISSING
