"""HTTP calls for the operations of an ``OpenApiPlugin``, with httpx: what the kernel invokes.

Each :class:`~sktypes.openapi.Operation`'s HTTP binding (method, path, parameter locations
and styles, body media type) turns the model's JSON arguments into a request: path parameters
substituted (percent-encoded), query parameters by ``style``/``explode`` (``form``,
``spaceDelimited``, ``pipeDelimited``, ``deepObject``; ``content`` parameters as JSON), headers
and cookies, and the body as JSON, form or raw content. A 2xx response's body is the call's
value: parsed JSON, text (``str``) for text media types, the ``bytes`` as sent for any other (an
image, a PDF); any other status raises :class:`KernelError` naming the operation, which
:meth:`FunctionCallContent.invoke` turns into an error result the model can read.

:func:`operation_caller` makes the call of one operation; the kernel makes it the invoker of
the operation's view (:func:`sktypes.kernel.openapi_plugin`, ``Kernel.add_plugin``). This
module does not import the kernel: the kernel calls down into it.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

import httpx

from sktypes.errors import KernelError, snippet
from sktypes.remote import Credential, Request, build_request
from sktypes.remote._items import AsyncItems
from sktypes.remote._pages import walk_pages
from sktypes.remote._streams import read_stream

if TYPE_CHECKING:
    from sktypes.auth import SecurityCredentials
    from sktypes.kernel import KernelFunction
    from sktypes.openapi import Operation

__all__ = ["is_text", "openapi_pages", "openapi_stream", "operation_caller"]

DEFAULT_TIMEOUT = 30.0


def operation_caller(
    operation: Operation,
    *,
    server_url: str | None = None,
    servers: tuple[str, ...] = (),
    client: httpx.AsyncClient | None = None,
    headers: Mapping[str, str] | None = None,
    credentials: SecurityCredentials | None = None,
) -> Callable[[dict[str, Any]], Awaitable[Any]]:
    """The call of ``operation``: JSON arguments (keyed by view parameter) → the response's value.

    Args:
        operation: the operation (its HTTP binding).
        server_url: the base URL (defaults to the operation's, then ``servers``' first).
        servers: the spec's server URLs.
        client: the httpx client to send with (e.g. with auth, retries or a mock transport);
            a short-lived client per call otherwise.
        headers: extra headers for every request (e.g. an API key).
        credentials: the spec's security schemes with their values
            (:class:`sktypes.auth.SecurityCredentials`): the operation sends the
            credentials its ``security`` asks for, and only those.
    """
    base = server_url or (operation.servers or servers or ("",))[0]
    return _Caller(operation, base, client, dict(headers or {}), credentials)


def openapi_pages(
    function: KernelFunction, arguments: Mapping[str, Any], *, max_pages: int | None = None
) -> AsyncIterator[Any]:
    """The items of every page of a paginated operation's kernel function, as JSON data.

    ``function`` is one of :func:`sktypes.kernel.openapi_plugin`'s (or of a kernel the spec
    was added to); ``arguments`` are its JSON arguments for the first page (the walk changes the
    cursor, offset or page argument, or follows the next page's URL). Every page is sent
    like a call of the function (same server, client, headers and credentials).

    Raises:
        KernelError: ``function`` is not a paginated OpenAPI operation, or a page failed.
        RemoteResponseError: a page cannot be read as the pagination says.
    """
    caller = function.invoker
    if not isinstance(caller, _Caller) or caller.operation.pagination is None:
        raise KernelError("is not a paginated OpenAPI operation", where=function.name)
    return AsyncItems(caller.pages(dict(arguments), max_pages))


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
    return AsyncItems(caller.stream(dict(arguments)))


class _Caller:
    """Sends one operation's request for a dict of JSON arguments."""

    def __init__(
        self,
        operation: Any,
        base: str,
        client: httpx.AsyncClient | None,
        headers: dict[str, str],
        credentials: SecurityCredentials | None = None,
    ) -> None:
        self.operation = operation
        self.base = base.rstrip("/")
        self.client = client
        self.headers = headers
        self.credentials = credentials

    async def __call__(self, arguments: dict[str, Any]) -> Any:
        if self.operation.stream is not None:
            return AsyncItems(self.stream(arguments))
        if self.client is not None:
            return self.read(await self.client.send(await self._request(arguments, self.client)))
        async with httpx.AsyncClient(timeout=DEFAULT_TIMEOUT) as client:
            return self.read(await client.send(await self._request(arguments, client)))

    async def stream(self, arguments: dict[str, Any]) -> AsyncGenerator[Any, None]:
        """The streamed answer's items (see :func:`openapi_stream`)."""
        op = self.operation
        async with contextlib.AsyncExitStack() as stack:
            client = self.client
            if client is None:
                client = await stack.enter_async_context(httpx.AsyncClient(timeout=DEFAULT_TIMEOUT))
            request = await self._request(arguments, client)
            response = await client.send(request, stream=True)
            stack.push_async_callback(response.aclose)
            if not response.is_success:
                await response.aread()
                self.read(response)  # raises as a call would
            async for item in read_stream(response, op.stream, None, op.name):
                yield item

    async def pages(
        self, arguments: dict[str, Any], max_pages: int | None
    ) -> AsyncGenerator[Any, None]:
        """Every page's items (see :func:`openapi_pages`); one client for the whole walk."""
        op = self.operation
        walk = walk_pages(op.pagination, arguments, operation=op.name, max_pages=max_pages)
        async with contextlib.AsyncExitStack() as stack:
            client = self.client
            if client is None:
                client = await stack.enter_async_context(httpx.AsyncClient(timeout=DEFAULT_TIMEOUT))
            while True:
                args, url = walk.next_request()
                response = await client.send(await self._request(args, client, url))
                self.read(response)  # a failed page raises as a call would
                items, more = walk.read(response)
                for item in items:
                    yield item
                if not more:
                    return

    async def _request(
        self, arguments: dict[str, Any], client: httpx.AsyncClient, url: str | None = None
    ) -> httpx.Request:
        sent: list[Credential] = []
        if self.credentials is not None and self.operation.security:
            sent = await self.credentials.credentials(
                self.operation.security, client, where=self.operation.name
            )
        return self.build(arguments, sent, client, url)

    def build(
        self,
        arguments: Mapping[str, Any],
        credentials: list[Credential] | None = None,
        client: httpx.AsyncClient | None = None,
        url: str | None = None,
    ) -> httpx.Request:
        """The httpx request for ``arguments`` (JSON values keyed by view parameter).

        Built through ``client`` when given (its headers, params and cookies apply).
        """
        op = self.operation
        if not self.base.startswith(("http://", "https://")):
            raise KernelError(
                "has no http(s) server URL; pass server_url= to openapi_plugin()",
                where=op.name,
            )
        request = Request(op.name, op.method, op.path, url=url)
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
                request.send_body = True
        return build_request(
            self.base, request, headers=self.headers, credentials=credentials or (), client=client
        )

    def read(self, response: httpx.Response) -> Any:
        """The value of a 2xx response; :class:`KernelError` for any other status.

        JSON bodies are parsed; text (``text/*``, XML, no content type) is a ``str``; any
        other media type (images, PDFs, ``application/octet-stream``) is the ``bytes`` as
        sent — decoding them as text would garble them.
        """
        op = self.operation
        if not response.is_success:
            raise KernelError(
                f"{op.method.upper()} {op.path} returned {response.status_code}: "
                f"{snippet(response.text, 200)}",
                where=op.name,
            )
        if not response.content:
            return None
        kind = response.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind == "application/json" or kind.endswith("+json"):
            try:
                return response.json()
            except ValueError:
                raise KernelError("the response is not valid JSON", where=op.name) from None
        if not kind or is_text(kind):
            return response.text
        return response.content


def is_text(kind: str) -> bool:
    """Whether a media type is text (its body is read as ``str``, not ``bytes``)."""
    return (
        kind.startswith("text/")
        or kind.endswith(("+xml", "/xml", "+yaml", "/yaml"))
        or kind in ("application/javascript", "application/x-www-form-urlencoded")
    )


_MISSING = object()


def _body(body: Any, arguments: Mapping[str, Any]) -> Any:
    if body.fields:
        obj = {f.property: arguments[f.argument] for f in body.fields if f.argument in arguments}
        return obj if obj or body.required else _MISSING
    if body.argument is not None and body.argument in arguments:
        return arguments[body.argument]
    return _MISSING
