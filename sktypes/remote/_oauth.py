"""OAuth2 client credentials (RFC 6749 §4.4): fetch a token, keep it until it expires.

A token is asked for with ``grant_type=client_credentials`` (and the scopes), the client
authenticated with HTTP Basic (``client_secret_basic``, what RFC 6749 §2.3.1 asks servers to
support); a server that refuses that (400 or 401) is asked once more with the id and secret
in the form (``client_secret_post``), which is then used for that endpoint. A token is kept
until shortly before its ``expires_in`` (a tenth of its lifetime, at most 30 s) and
forgotten when the API answers 401, so the next request fetches a new one.

Nothing here puts a secret in a message: a failed token request names the endpoint and the
status only (the server's answer may echo what it was sent).
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import httpx

from sktypes.errors import KernelError
from sktypes.remote._secrets import register_secret

__all__ = ["ClientCredentials", "CredentialsError", "TokenCache"]

_MARGIN = 30.0  # seconds: at most this long before expiry, a token is fetched again
_DEFAULT_LIFETIME = 3600.0
_clock = time.monotonic
"""The clock token lifetimes are measured on (tests move it)."""


class CredentialsError(KernelError):
    """An operation needs credentials that are not configured, or a token cannot be fetched."""


@dataclass(frozen=True, slots=True)
class ClientCredentials:
    """An OAuth2 client's id and secret: tokens are fetched from the scheme's ``tokenUrl``.

    Pass it as the value of an OAuth2 scheme's constructor keyword (a string there is a
    token you already have).

    Args:
        client_id: the client's id.
        client_secret: the client's secret (never shown in a ``repr``).
        scopes: the scopes to ask for; empty: the scopes each operation's ``security``
            names.
        token_url: overrides the spec's ``tokenUrl`` (relative URLs are resolved against
            the API's base URL).
    """

    client_id: str
    client_secret: str = field(repr=False)
    scopes: Sequence[str] = ()
    token_url: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "scopes", tuple(self.scopes))
        register_secret(self.client_secret)


@dataclass(slots=True)
class _Token:
    value: str = field(repr=False)
    expires: float


Key = tuple[str, tuple[str, ...]]
"""A cached token's key: the scheme and the scopes asked for."""


class TokenCache:
    """Tokens by scheme and scopes, fetched on demand (sync or async), kept until expiry."""

    def __init__(self) -> None:
        self._tokens: dict[Key, _Token] = {}
        self._post: set[str] = set()  # token URLs that want client_secret_post
        self._lock = threading.Lock()
        self._async_locks: dict[tuple[Key, int], asyncio.Lock] = {}

    def __repr__(self) -> str:
        return f"TokenCache({len(self._tokens)} tokens)"

    def cached(self, key: Key) -> str | None:
        """The token for ``key`` if one is held and not about to expire."""
        token = self._tokens.get(key)
        if token is not None and token.expires > _clock():
            return token.value
        return None

    def forget(self, key: Key) -> bool:
        """Drop the token for ``key`` (the API refused it); ``True`` if one was held."""
        return self._tokens.pop(key, None) is not None

    def get_sync(
        self, key: Key, url: str, creds: ClientCredentials, client: httpx.Client, where: str
    ) -> str:
        """The token for ``key``, fetched through ``client`` when none is held."""
        with self._lock:
            found = self.cached(key)
            if found is not None:
                return found
            for basic in self._methods(url):
                request = _request(url, creds, key[1], basic)
                response = _sent(client, request, url)
                if basic and response.status_code in (400, 401):
                    continue
                return self._keep(key, url, basic, response, where)
            raise AssertionError("unreachable")

    async def get(
        self, key: Key, url: str, creds: ClientCredentials, client: httpx.AsyncClient, where: str
    ) -> str:
        """The token for ``key``, fetched through ``client`` when none is held."""
        found = self.cached(key)
        if found is not None:
            return found
        loop = id(asyncio.get_running_loop())
        lock = self._async_locks.setdefault((key, loop), asyncio.Lock())
        async with lock:
            found = self.cached(key)
            if found is not None:
                return found
            for basic in self._methods(url):
                request, auth = _request(url, creds, key[1], basic)
                try:
                    response = await client.send(request, auth=auth)
                except httpx.HTTPError as exc:
                    raise _failed(url, type(exc).__name__) from None
                if basic and response.status_code in (400, 401):
                    continue
                return self._keep(key, url, basic, response, where)
            raise AssertionError("unreachable")

    def _methods(self, url: str) -> tuple[bool, ...]:
        """Basic authentication first, then the form; only the form once it was needed."""
        return (False,) if url in self._post else (True, False)

    def _keep(self, key: Key, url: str, basic: bool, response: httpx.Response, where: str) -> str:
        token = _read(response, url, where)
        if not basic:
            self._post.add(url)
        self._tokens[key] = token
        return token.value


def _request(
    url: str, creds: ClientCredentials, scopes: tuple[str, ...], basic: bool
) -> tuple[httpx.Request, httpx.Auth]:
    """The token request, and its auth.

    The auth replaces the client's own: that may be an auth which itself needs this token.
    """
    data = {"grant_type": "client_credentials"}
    if scopes:
        data["scope"] = " ".join(scopes)
    headers = {"Accept": "application/json"}
    if basic:
        auth: httpx.Auth = httpx.BasicAuth(creds.client_id, creds.client_secret)
    else:
        data |= {"client_id": creds.client_id, "client_secret": creds.client_secret}
        auth = httpx.Auth()
    return httpx.Request("POST", url, data=data, headers=headers), auth


def _sent(
    client: httpx.Client, request: tuple[httpx.Request, httpx.Auth], url: str
) -> httpx.Response:
    try:
        return client.send(request[0], auth=request[1])
    except httpx.HTTPError as exc:
        raise _failed(url, type(exc).__name__) from None


def _failed(url: str, what: str) -> CredentialsError:
    return CredentialsError(f"token request to {url} failed: {what}")


def _read(response: httpx.Response, url: str, where: str) -> _Token:
    """The token of a token endpoint's answer (RFC 6749 §5.1)."""
    if not response.is_success:
        raise CredentialsError(
            f"token request to {url} returned {response.status_code}", where=where
        )
    try:
        body = response.json()
        value = body["access_token"]
        lifetime = float(body.get("expires_in", _DEFAULT_LIFETIME))
    except (ValueError, KeyError, TypeError, AttributeError):
        raise CredentialsError(
            f"token response from {url} has no access_token", where=where
        ) from None
    if not isinstance(value, str) or not value:
        raise CredentialsError(f"token response from {url} has no access_token", where=where)
    register_secret(value)
    margin = min(_MARGIN, max(lifetime, 0.0) / 10)
    return _Token(value, _clock() + max(lifetime - margin, 0.0))
