"""The client every generated plugin extends, and what it raises and parses."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import httpx

from sktypes.hydration import hydrate
from sktypes.remote._request import Credential, Request, build_request

__all__ = ["ApiClient", "ApiError", "parse_json"]


class ApiError(Exception):
    """The API answered with a status outside 2xx.

    Attributes:
        status_code: the HTTP status.
        body: the response body as text.
        operation: the function that was called.
    """

    def __init__(self, operation: str, status_code: int, body: str) -> None:
        self.operation = operation
        self.status_code = status_code
        self.body = body
        super().__init__(f"{operation}: HTTP {status_code}: {body[:200]}")


class ApiClient:
    """What every generated plugin shares: base URL, credentials, the HTTP clients.

    Requests are built through ``client`` (``sync_client`` for the ``*_sync`` methods) when
    one is given, so everything configured on it applies: base URL, headers, params,
    cookies, auth, event hooks, transport, timeout. Explicit per-call arguments win.

    Args:
        base_url: the server URL the operation paths are relative to; ``None`` means the
            client's ``base_url`` when it has one, else ``default_base_url``.
        credentials: the credentials to send with every request.
        client: an ``httpx.AsyncClient`` to use (one is created per call otherwise).
        sync_client: an ``httpx.Client`` for the ``*_sync`` methods.
        timeout: seconds, for the clients created here.
        default_base_url: the spec's server URL (what generated plugins pass).
    """

    def __init__(
        self,
        base_url: str | None = None,
        credentials: Sequence[Credential] = (),
        *,
        client: httpx.AsyncClient | None = None,
        sync_client: httpx.Client | None = None,
        timeout: float = 30.0,
        default_base_url: str = "",
    ) -> None:
        self._base_url = base_url.rstrip("/") if base_url is not None else None
        self._default_base_url = default_base_url.rstrip("/")
        self._credentials = tuple(credentials)
        self._client = client
        self._sync_client = sync_client
        self._timeout = timeout

    def _base_for(self, client: httpx.Client | httpx.AsyncClient | None) -> str:
        if self._base_url is not None:
            return self._base_url
        if client is not None and str(client.base_url):
            return str(client.base_url).rstrip("/")
        return self._default_base_url

    def _build(
        self, request: Request, client: httpx.Client | httpx.AsyncClient | None = None
    ) -> httpx.Request:
        base = self._base_for(client)
        return build_request(base, request, credentials=self._credentials, client=client)

    async def _send(self, request: Request) -> httpx.Response:
        if self._client is not None:
            response = await self._client.send(self._build(request, self._client))
        else:
            async with httpx.AsyncClient(timeout=self._timeout) as client:
                response = await client.send(self._build(request, client))
        return _checked(request.operation, response)

    def _send_sync(self, request: Request) -> httpx.Response:
        if self._sync_client is not None:
            response = self._sync_client.send(self._build(request, self._sync_client))
        else:
            with httpx.Client(timeout=self._timeout) as client:
                response = client.send(self._build(request, client))
        return _checked(request.operation, response)


def _checked(operation: str, response: httpx.Response) -> httpx.Response:
    if not 200 <= response.status_code < 300:
        raise ApiError(operation, response.status_code, response.text)
    return response


def parse_json(target: Any, response: httpx.Response) -> Any:
    """Hydrate a JSON response body into ``target`` (no repair: the API is not a model)."""
    return hydrate(target, response.content, repair=False)
