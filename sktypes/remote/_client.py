"""The client every generated plugin extends, ``kernel_openapi`` and ``sktypes serve`` call.

The send path, in layers (each async, with a blocking twin for ``*_sync`` methods):

- :meth:`ApiClient._exchange`: one request, whatever the status: credentials for the
  operation's ``security``, retries (:class:`Retry`), a fresh OAuth2 token once on 401;
- :meth:`ApiClient._send`: a 2xx response, or the :class:`ApiError` of any other status;
- :meth:`ApiClient._stream`: the same, the body not read yet (for streams and pages);
- :meth:`ApiClient._call`: the result, the body read by the ``Content-Type`` received and
  checked against the declared schema (:func:`read_result`).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
import uuid
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from typing import Any

import httpx

from sktypes.generated import MISSING
from sktypes.jsondoc import JsonDocument
from sktypes.remote._request import Request, build_request
from sktypes.remote._response import api_error, read_result
from sktypes.remote._retry import IDEMPOTENT_METHODS, RETRY_ERRORS, Retry, retry_policy
from sktypes.remote._secrets import redact
from sktypes.remote._security import Credential, SecurityCredentials

__all__ = ["ApiClient"]

log = logging.getLogger("sktypes.remote")

_sleep = time.sleep
"""How a blocking retry waits (tests replace it to record the waits)."""
_async_sleep = asyncio.sleep
"""How an async retry waits."""

_NOT_LOOKED_UP: Any = object()


class ApiClient:
    """What every generated plugin shares: base URL, credentials, retries, the HTTP clients.

    Requests are built through ``client`` (``sync_client`` for the ``*_sync`` methods) when
    one is given, so everything configured on it applies: base URL, headers, params,
    cookies, auth, event hooks, transport, timeout. Explicit per-call arguments win.

    Args:
        base_url: the server URL the operation paths are relative to; ``None`` means the
            client's ``base_url`` when it has one, else ``default_base_url``.
        credentials: credentials to send with every request (besides ``security``).
        client: an ``httpx.AsyncClient`` to use (one is created per call otherwise).
        sync_client: an ``httpx.Client`` for the ``*_sync`` methods.
        timeout: seconds, for the clients created here.
        default_base_url: the spec's server URL (what generated plugins pass).
        security: the spec's security schemes with their values: each request sends what
            its operation's ``security`` asks for, and only that.
        retries: an int (retries of idempotent requests) or a :class:`Retry`; ``0``
            disables retrying.
        strict: a response that breaks its declared schema raises
            :class:`ResponseDriftError` instead of being returned with a
            :class:`ResponseDriftWarning` (each call may say otherwise).
        headers: headers for every request (under the operation's own parameters).
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
        security: SecurityCredentials | None = None,
        retries: int | Retry = 2,
        strict: bool = False,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        self._base_url = base_url.rstrip("/") if base_url is not None else None
        self._default_base_url = default_base_url.rstrip("/")
        self._credentials = tuple(credentials)
        self._client = client
        self._sync_client = sync_client
        self._timeout = timeout
        self._security = security
        self._retry = retry_policy(retries)
        self._strict = strict
        self._headers = dict(headers or {})
        self._schemas: dict[str, JsonDocument | None] = {}
        if security is not None and not security.base_url:
            security.base_url = self._base_for(client or sync_client)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(base_url={self._base_for(self._client)!r})"

    def _configure(
        self,
        *,
        security: SecurityCredentials | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        """Replace the security schemes' values and add headers (``sktypes serve`` does)."""
        if security is not None:
            self._security = security
            if not security.base_url:
                security.base_url = self._base_for(self._client or self._sync_client)
        if headers:
            self._headers.update(headers)

    def _base_for(self, client: httpx.Client | httpx.AsyncClient | None) -> str:
        if self._base_url is not None:
            return self._base_url
        if client is not None and str(client.base_url):
            return str(client.base_url).rstrip("/")
        return self._default_base_url

    # --- building -----------------------------------------------------------------------

    def _build(
        self,
        request: Request,
        client: httpx.Client | httpx.AsyncClient | None = None,
        credentials: Sequence[Credential] = (),
    ) -> httpx.Request:
        base = self._base_for(client)
        return build_request(
            base,
            request,
            credentials=(*self._credentials, *credentials),
            headers=self._headers,
            client=client,
        )

    def _security_of(self, request: Request) -> Sequence[Mapping[str, Sequence[str]]]:
        """The requirements to satisfy: the operation's, or (unknown) every configured scheme."""
        if request.security is not None or self._security is None:
            return request.security or ()
        configured = {
            name: () for name in self._security.schemes if self._security.configured(name)
        }
        return [configured] if configured else ()

    def _prepared(self, request: Request) -> Request:
        """``request`` with an idempotency key when it may be retried and carries none.

        The key is made once, here, so every attempt sends the same one.
        """
        header = request.idempotency_key
        if header is None or self._retry.max_retries == 0:
            return request
        for name, value, _, _ in request.headers:
            if name.lower() == header.lower() and value is not None and value is not MISSING:
                return request
        headers = [h for h in request.headers if h[0].lower() != header.lower()]
        headers.append((header, str(uuid.uuid4()), "simple", False))
        return dataclasses.replace(request, headers=headers)

    def _retryable(self, request: Request) -> bool:
        if self._retry.max_retries == 0:
            return False
        if request.method.upper() in IDEMPOTENT_METHODS:
            return True
        return request.idempotency_key is not None

    # --- the exchange: credentials, retries, token refresh ------------------------------

    async def _exchange(
        self, request: Request, client: httpx.AsyncClient, *, stream: bool = False
    ) -> httpx.Response:
        """Send ``request`` through ``client``; the final response, whatever its status."""
        request = self._prepared(request)
        plan = _Attempts(self, request)
        while True:
            security = self._security_of(request)
            sent: list[Credential] = []
            if self._security is not None and security:
                sent = await self._security.credentials(security, client, request.operation)
            try:
                response = await client.send(self._build(request, client, sent), stream=stream)
            except RETRY_ERRORS as exc:
                wait = plan.after_error(exc)
                if wait is None:
                    raise
                await _async_sleep(wait)
                continue
            wait = plan.after_response(response)
            if wait is None:
                return response
            await response.aclose()
            await _async_sleep(wait)

    def _exchange_sync(
        self, request: Request, client: httpx.Client, *, stream: bool = False
    ) -> httpx.Response:
        """:meth:`_exchange`, blocking."""
        request = self._prepared(request)
        plan = _Attempts(self, request)
        while True:
            security = self._security_of(request)
            sent: list[Credential] = []
            if self._security is not None and security:
                sent = self._security.credentials_sync(security, client, request.operation)
            try:
                response = client.send(self._build(request, client, sent), stream=stream)
            except RETRY_ERRORS as exc:
                wait = plan.after_error(exc)
                if wait is None:
                    raise
                _sleep(wait)
                continue
            wait = plan.after_response(response)
            if wait is None:
                return response
            response.close()
            _sleep(wait)

    # --- clients ------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _async_client(self) -> AsyncIterator[httpx.AsyncClient]:
        if self._client is not None:
            yield self._client
        else:
            async with httpx.AsyncClient(timeout=self._timeout) as client:
                yield client

    @contextlib.contextmanager
    def _blocking_client(self) -> Iterator[httpx.Client]:
        if self._sync_client is not None:
            yield self._sync_client
        else:
            with httpx.Client(timeout=self._timeout) as client:
                yield client

    # --- 2xx or ApiError ----------------------------------------------------------------

    async def _send(self, request: Request) -> httpx.Response:
        """The 2xx response to ``request`` (body read); another status raises :class:`ApiError`."""
        async with self._async_client() as client:
            response = await self._exchange(request, client)
        return _checked(request, response)

    def _send_sync(self, request: Request) -> httpx.Response:
        """:meth:`_send`, blocking."""
        with self._blocking_client() as client:
            response = self._exchange_sync(request, client)
        return _checked(request, response)

    @contextlib.asynccontextmanager
    async def _stream(self, request: Request) -> AsyncIterator[httpx.Response]:
        """The 2xx response to ``request``, its body not read yet (closed on exit).

        Any other status raises :class:`ApiError` (its body read first).
        """
        async with self._async_client() as client:
            response = await self._exchange(request, client, stream=True)
            try:
                if not response.is_success:
                    await response.aread()
                    raise _error(request, response)
                yield response
            finally:
                await response.aclose()

    @contextlib.contextmanager
    def _stream_sync(self, request: Request) -> Iterator[httpx.Response]:
        """:meth:`_stream`, blocking."""
        with self._blocking_client() as client:
            response = self._exchange_sync(request, client, stream=True)
            try:
                if not response.is_success:
                    response.read()
                    raise _error(request, response)
                yield response
            finally:
                response.close()

    # --- results ------------------------------------------------------------------------

    async def _call(
        self,
        request: Request,
        target: Any,
        strict: bool | None = None,
        schema: JsonDocument | None = _NOT_LOOKED_UP,
    ) -> Any:
        """Send ``request`` and return its result as ``target`` (see :func:`read_result`)."""
        response = await self._send(request)
        return self._result(request, response, target, strict, schema)

    def _call_sync(
        self,
        request: Request,
        target: Any,
        strict: bool | None = None,
        schema: JsonDocument | None = _NOT_LOOKED_UP,
    ) -> Any:
        """:meth:`_call`, blocking."""
        response = self._send_sync(request)
        return self._result(request, response, target, strict, schema)

    def _result(
        self,
        request: Request,
        response: httpx.Response,
        target: Any,
        strict: bool | None = None,
        schema: JsonDocument | None = _NOT_LOOKED_UP,
    ) -> Any:
        """The result of a 2xx ``response`` (drift checked against the declared schema)."""
        if schema is _NOT_LOOKED_UP:
            schema = self._return_schema(request.operation)
        return read_result(
            request.operation,
            response,
            target,
            schema=schema,
            strict=self._strict if strict is None else strict,
            stacklevel=5,  # the caller of the generated method (of _call's caller)
        )

    def _return_schema(self, operation: str) -> JsonDocument | None:
        """The declared response schema of ``operation`` (from the package's views)."""
        if operation not in self._schemas:
            found = None
            for klass in type(self).__mro__:
                views = klass.__dict__.get("__function_views__")
                if views is not None and hasattr(views, "return_schema"):
                    found = views.return_schema(operation)
                    break
            self._schemas[operation] = found
        return self._schemas[operation]


def _checked(request: Request, response: httpx.Response) -> httpx.Response:
    if not response.is_success:
        raise _error(request, response)
    return response


class _Attempts:
    """Whether to send a request again, and after how long (``None``: do not)."""

    def __init__(self, api: ApiClient, request: Request) -> None:
        self.policy = api._retry
        self.retryable = api._retryable(request)
        self.security = api._security
        self.requirements = api._security_of(request)
        self.request = request
        self.retries = 0
        self.refreshed = False

    def _next(self, headers: Mapping[str, str] | None, why: str) -> float | None:
        if not self.retryable or self.retries >= self.policy.max_retries:
            return None
        self.retries += 1
        wait = self.policy.delay(self.retries, headers)
        log.info(
            "%s: %s; retry %d of %d in %.2f s",
            self.request.operation,
            why,
            self.retries,
            self.policy.max_retries,
            wait,
        )
        return wait

    def after_response(self, response: httpx.Response) -> float | None:
        if response.status_code == 401 and not self.refreshed and self.security is not None:
            self.refreshed = True
            if self.requirements and self.security.forget_tokens(self.requirements):
                log.info("%s: 401; fetching a new token", self.request.operation)
                return 0.0
        if response.status_code in self.policy.statuses:
            return self._next(response.headers, f"HTTP {response.status_code}")
        return None

    def after_error(self, exc: Exception) -> float | None:
        return self._next(None, redact(f"{type(exc).__name__}: {exc}"))


def _error(request: Request, response: httpx.Response) -> Exception:
    where = f"{request.method.upper()} {request.path}"
    return api_error(request.operation, response, request.errors, where)
