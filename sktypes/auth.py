"""Credentials for an OpenAPI document's security schemes, sent only where an operation asks.

An operation's ``security`` lists alternatives (any one will do), each naming the schemes it
needs together. :class:`SecurityCredentials` turns the document's ``securitySchemes`` and the
values the user configured into :class:`~sktypes.remote.Credential` values for one operation:
the first alternative whose schemes are all configured wins; an operation that needs
credentials none of which are configured gets a :class:`CredentialsError` naming what to set,
and an operation without ``security`` gets nothing.

Supported schemes and where their values come from (``S`` is the scheme's name in the
document, ``P`` the plugin's; names are upper-cased, every other character than ``A-Z0-9``
becomes ``_``; ``SKTYPES_AUTH_P_S...`` is looked up before ``SKTYPES_AUTH_S...``):

- ``apiKey`` (in a header, the query or a cookie): ``SKTYPES_AUTH_S``, sent where the scheme
  says;
- ``http`` ``bearer``: ``SKTYPES_AUTH_S``, sent as ``Authorization: Bearer …``;
- ``http`` ``basic`` (Swagger 2.0 ``basic``): ``SKTYPES_AUTH_S_USERNAME`` and
  ``SKTYPES_AUTH_S_PASSWORD``, sent as ``Authorization: Basic …``;
- ``oauth2`` with a client-credentials flow (Swagger 2.0 ``application``):
  ``SKTYPES_AUTH_S_CLIENT_ID`` and ``SKTYPES_AUTH_S_CLIENT_SECRET`` (``…_TOKEN_URL``
  overrides the document's ``tokenUrl``): a token is fetched (scopes: the operation's),
  kept until it expires, and sent as ``Bearer``;
- ``oauth2`` (any flow) and ``openIdConnect``: ``SKTYPES_AUTH_S``, a token you already
  have, sent as ``Bearer``.

The same keys can be passed as values (``{"S": …, "S.username": …}``), which win over the
environment. Other schemes (``mutualTLS``, ``http`` digest, …) are listed in
:attr:`SecurityCredentials.problems` with their JSON pointer. Values never appear in a
message, a ``repr`` or a log line (httpx logs request URLs at ``INFO``: the values of
query-string API keys are masked there).
"""

from __future__ import annotations

import asyncio
import base64
import logging
import os
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import quote, urljoin

import httpx

from sktypes.errors import KernelError
from sktypes.remote import Credential

__all__ = [
    "ENV_PREFIX",
    "CredentialsError",
    "Scheme",
    "SecurityCredentials",
    "apply_credentials",
    "env_name",
    "parse_schemes",
]

ENV_PREFIX = "SKTYPES_AUTH_"
"""The prefix of every environment variable read for credentials."""

SchemeKind = Literal["apiKey", "bearer", "basic", "oauth2", "token"]
_TOKEN_MARGIN = 30.0  # seconds: a token this close to expiry is fetched again


def apply_credentials(request: httpx.Request, credentials: Sequence[Credential]) -> None:
    """Add ``credentials`` to a request already built, where each says.

    An explicit header, query parameter or cookie of the same name wins (as in
    :func:`sktypes.remote.build_request`).
    """
    for cred in credentials:
        if cred.location == "query":
            if cred.name not in request.url.params:
                request.url = request.url.copy_add_param(cred.name, cred.value)
        elif cred.location == "cookie":
            existing = request.headers.get("Cookie", "")
            names = {part.split("=", 1)[0].strip() for part in existing.split(";") if part.strip()}
            if cred.name not in names:
                pair = f"{cred.name}={quote(cred.value, safe=_COOKIE_SAFE)}"
                request.headers["Cookie"] = f"{existing}; {pair}" if existing else pair
        elif cred.name not in request.headers:
            request.headers[cred.name] = cred.value


# RFC 6265 cookie-octet, less "%": what a cookie value may hold unencoded
_COOKIE_SAFE = "!#$&'()*+-./:<=>?@[]^_`{|}~"


class _RedactQuery(logging.Filter):
    """Masks the values of API-key query parameters in httpx's request log lines.

    httpx logs every request's URL at ``INFO``; a key sent in the query string would be in
    it. The filter sits on the ``httpx`` logger and rewrites ``name=value`` for the
    parameter names of every query API key in use.
    """

    def __init__(self) -> None:
        super().__init__("sktypes.auth")
        self.names: set[str] = set()
        self._pattern: re.Pattern[str] | None = None

    def add(self, name: str) -> None:
        self.names.add(name)
        alternatives = "|".join(re.escape(n) for n in sorted(self.names, key=len, reverse=True))
        self._pattern = re.compile(rf"([?&](?:{alternatives})=)[^&#\s\"']*")

    def filter(self, record: logging.LogRecord) -> bool:
        if self._pattern is None:
            return True
        message = record.getMessage()
        cleaned = self._pattern.sub(r"\1[redacted]", message)
        if cleaned != message:
            record.msg, record.args = cleaned, ()
        return True


_REDACT = _RedactQuery()
logging.getLogger("httpx").addFilter(_REDACT)


class CredentialsError(KernelError):
    """An operation needs credentials that are not configured, or a token cannot be fetched."""


@dataclass(frozen=True, slots=True)
class Scheme:
    """One security scheme the runtime can send.

    Attributes:
        name: the scheme's name in the document.
        kind: ``apiKey``, ``bearer``, ``basic``, ``oauth2`` (client credentials: a token is
            fetched) or ``token`` (a bearer token the user supplies: ``oauth2`` without a
            client-credentials flow, ``openIdConnect``).
        location: for ``apiKey``: ``header``, ``query`` or ``cookie``.
        parameter: for ``apiKey``: the header, query parameter or cookie name.
        token_url: for ``oauth2``: the token endpoint of the client-credentials flow.
    """

    name: str
    kind: SchemeKind
    location: str = "header"
    parameter: str = "Authorization"
    token_url: str | None = None

    def needs(self) -> tuple[str, ...]:
        """The keys (``S``, ``S.username``, ...) one of which set is needed, for messages."""
        if self.kind == "basic":
            return (f"{self.name}.username", f"{self.name}.password")
        if self.kind == "oauth2":
            return (f"{self.name}.client_id", f"{self.name}.client_secret")
        return (self.name,)


def env_name(key: str, plugin: str | None = None) -> str:
    """The environment variable read for ``key`` (``S`` or ``S.field``) of ``plugin``."""
    scheme, _, part = key.partition(".")
    words = [plugin, scheme, part] if plugin else [scheme, part]
    return ENV_PREFIX + "_".join(_upper(w) for w in words if w)


def _upper(word: str) -> str:
    return re.sub(r"[^A-Z0-9]", "_", word.upper())


def parse_schemes(
    schemes: Mapping[str, Any], *, swagger2: bool = False
) -> tuple[dict[str, Scheme], list[str]]:
    """The schemes of a document that can be sent, and a problem line for each other one."""
    out: dict[str, Scheme] = {}
    problems: list[str] = []
    where = "/securityDefinitions" if swagger2 else "/components/securitySchemes"
    for name, raw in schemes.items():
        pointer = f"{where}/{_escape(str(name))}"
        scheme = _scheme(str(name), raw) if isinstance(raw, Mapping) else None
        if scheme is None:
            kind = raw.get("type") if isinstance(raw, Mapping) else None
            detail = f" {kind!r}" if isinstance(kind, str) else ""
            has = isinstance(raw, Mapping) and "scheme" in raw
            extra = f" {raw.get('scheme')!r}" if has else ""
            problems.append(f"{pointer}: security scheme{detail}{extra} is not supported")
        else:
            out[str(name)] = scheme
    return out, problems


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _scheme(name: str, raw: Mapping[str, Any]) -> Scheme | None:
    kind = raw.get("type")
    if kind == "apiKey":
        where, param = raw.get("in"), raw.get("name")
        if where in ("header", "query", "cookie") and isinstance(param, str) and param:
            return Scheme(name, "apiKey", where, param)
        return None
    if kind == "basic":  # Swagger 2.0
        return Scheme(name, "basic")
    if kind == "http":
        http = str(raw.get("scheme", "")).lower()
        if http == "bearer":
            return Scheme(name, "bearer")
        if http == "basic":
            return Scheme(name, "basic")
        return None
    if kind == "oauth2":
        return Scheme(name, "oauth2", token_url=_client_credentials_url(raw))
    if kind == "openIdConnect":
        return Scheme(name, "token")
    return None


def _client_credentials_url(raw: Mapping[str, Any]) -> str | None:
    flows = raw.get("flows")
    if isinstance(flows, Mapping):
        flow = flows.get("clientCredentials")
        url = flow.get("tokenUrl") if isinstance(flow, Mapping) else None
        return url if isinstance(url, str) else None
    if raw.get("flow") == "application":  # Swagger 2.0
        url = raw.get("tokenUrl")
        return url if isinstance(url, str) else None
    return None


@dataclass(slots=True)
class _Token:
    value: str = field(repr=False)
    expires: float


class SecurityCredentials:
    """The credentials of one document's security schemes, per operation.

    Args:
        schemes: the document's ``securitySchemes`` (``OpenApiPlugin.security_schemes``).
        plugin_name: the plugin, for plugin-specific environment variables.
        values: explicit values by key (``S``, ``S.username``, ``S.client_id``, ...); they
            win over the environment.
        env: where to read variables (``os.environ`` by default).
        swagger2: the document is Swagger 2.0 (only for the pointers in :attr:`problems`).
        base_url: what a relative OAuth2 ``tokenUrl`` is resolved against.
    """

    def __init__(
        self,
        schemes: Mapping[str, Any],
        *,
        plugin_name: str | None = None,
        values: Mapping[str, str] | None = None,
        env: Mapping[str, str] | None = None,
        swagger2: bool = False,
        base_url: str = "",
    ) -> None:
        self.schemes, self.problems = parse_schemes(schemes, swagger2=swagger2)
        for scheme in self.schemes.values():
            if scheme.kind == "apiKey" and scheme.location == "query":
                _REDACT.add(scheme.parameter)
        self._plugin = plugin_name
        self._values = dict(values or {})
        self._env = os.environ if env is None else env
        self._base_url = base_url
        self._tokens: dict[tuple[str, tuple[str, ...]], _Token] = {}
        self._locks: dict[tuple[str, tuple[str, ...]], asyncio.Lock] = {}

    def __repr__(self) -> str:
        return f"SecurityCredentials(schemes={sorted(self.schemes)})"

    def _get(self, key: str) -> str | None:
        if key in self._values:
            return self._values[key]
        names = [env_name(key, self._plugin), env_name(key)] if self._plugin else [env_name(key)]
        for name in names:
            value = self._env.get(name)
            if value:
                return value
        return None

    def configured(self, name: str) -> bool:
        """Whether scheme ``name`` can be sent (it is supported and its values are set)."""
        scheme = self.schemes.get(name)
        if scheme is None:
            return False
        if scheme.kind == "basic":
            return self._get(f"{name}.username") is not None
        if scheme.kind == "oauth2" and self._get(name) is None:
            return (
                self._get(f"{name}.client_id") is not None
                and self._get(f"{name}.client_secret") is not None
                and (self._get(f"{name}.token_url") or scheme.token_url) is not None
            )
        return self._get(name) is not None

    def choose(
        self, security: Sequence[Mapping[str, Sequence[str]]], where: str = ""
    ) -> Mapping[str, Sequence[str]]:
        """The first alternative of ``security`` that can be sent (``{}``: none is needed).

        Raises:
            CredentialsError: credentials are needed and no alternative is configured; the
                message names the environment variables of each alternative.
        """
        if not security:
            return {}
        for requirement in security:
            if all(self.configured(name) for name in requirement):
                return requirement
        options = []
        for requirement in security:
            names = []
            for scheme_name in requirement:
                scheme = self.schemes.get(scheme_name)
                if scheme is None:
                    names.append(f"{scheme_name} (unsupported scheme)")
                else:
                    names.extend(env_name(k, None) for k in scheme.needs())
            options.append(" + ".join(names))
        raise CredentialsError("needs credentials; set " + " or ".join(options), where=where)

    async def credentials(
        self,
        security: Sequence[Mapping[str, Sequence[str]]],
        client: httpx.AsyncClient,
        where: str = "",
    ) -> list[Credential]:
        """The credentials to send for an operation with this ``security`` (may fetch tokens).

        Raises:
            CredentialsError: nothing configured satisfies ``security``, or a token request
                failed (the message names the token endpoint and status, never a secret).
        """
        chosen = self.choose(security, where)
        out: list[Credential] = []
        for name, scopes in chosen.items():
            out.append(await self._credential(self.schemes[name], tuple(scopes), client, where))
        return out

    async def _credential(
        self, scheme: Scheme, scopes: tuple[str, ...], client: httpx.AsyncClient, where: str
    ) -> Credential:
        name = scheme.name
        if scheme.kind == "apiKey":
            return Credential(scheme.location, scheme.parameter, self._get(name) or "")
        if scheme.kind == "basic":
            user = self._get(f"{name}.username") or ""
            password = self._get(f"{name}.password") or ""
            raw = base64.b64encode(f"{user}:{password}".encode()).decode("ascii")
            return Credential("header", "Authorization", f"Basic {raw}")
        token = self._get(name)
        if token is None:  # oauth2 client credentials
            token = await self._fetch(scheme, scopes, client, where)
        return Credential("header", "Authorization", f"Bearer {token}")

    async def _fetch(
        self, scheme: Scheme, scopes: tuple[str, ...], client: httpx.AsyncClient, where: str
    ) -> str:
        key = (scheme.name, tuple(sorted(set(scopes))))
        token = self._tokens.get(key)
        if token is not None and token.expires > time.monotonic():
            return token.value
        lock = self._locks.setdefault(key, asyncio.Lock())
        async with lock:
            token = self._tokens.get(key)
            if token is not None and token.expires > time.monotonic():
                return token.value
            token = await self._request_token(scheme, key[1], client, where)
            self._tokens[key] = token
            return token.value

    async def _request_token(
        self, scheme: Scheme, scopes: tuple[str, ...], client: httpx.AsyncClient, where: str
    ) -> _Token:
        name = scheme.name
        url = self._get(f"{name}.token_url") or scheme.token_url or ""
        url = urljoin(self._base_url.rstrip("/") + "/", url) if "://" not in url else url
        data = {"grant_type": "client_credentials"}
        if scopes:
            data["scope"] = " ".join(scopes)
        auth = httpx.BasicAuth(
            self._get(f"{name}.client_id") or "", self._get(f"{name}.client_secret") or ""
        )
        try:
            response = await client.post(url, data=data, auth=auth)
        except httpx.HTTPError as exc:
            raise CredentialsError(
                f"token request to {url} for {name!r} failed: {type(exc).__name__}", where=where
            ) from None
        if not response.is_success:
            raise CredentialsError(
                f"token request to {url} for {name!r} returned {response.status_code}",
                where=where,
            )
        try:
            body = response.json()
            value = body["access_token"]
            lifetime = float(body.get("expires_in", 3600))
        except (ValueError, KeyError, TypeError):
            raise CredentialsError(
                f"token response from {url} for {name!r} has no access_token", where=where
            ) from None
        if not isinstance(value, str) or not value:
            raise CredentialsError(
                f"token response from {url} for {name!r} has no access_token", where=where
            )
        return _Token(value, time.monotonic() + max(lifetime - _TOKEN_MARGIN, 0.0))
