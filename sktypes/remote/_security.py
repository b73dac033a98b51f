"""Security schemes and the credentials each operation sends (see :mod:`sktypes.auth`)."""

from __future__ import annotations

import base64
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import quote, urljoin

import httpx

from sktypes.errors import RemoteRequestError
from sktypes.remote._oauth import ClientCredentials, CredentialsError, Key, TokenCache
from sktypes.remote._secrets import register_secret

__all__ = [
    "ENV_PREFIX",
    "Credential",
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
Requirement = Mapping[str, Sequence[str]]
"""One alternative of an operation's ``security``: scheme name → scopes."""

Value = str | ClientCredentials
_BAD = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")


@dataclass(frozen=True, slots=True)
class Credential:
    """One credential applied to a request.

    ``location`` is ``header``, ``query`` or ``cookie``; ``name`` the header, parameter or
    cookie name; ``value`` what is sent (left out of ``repr``: a secret must not reach a
    log). An explicit parameter of the same name and place wins over the credential.
    """

    location: str
    name: str
    value: str = field(repr=False)


@dataclass(frozen=True, slots=True)
class Scheme:
    """One security scheme the runtime can send.

    Attributes:
        name: the scheme's name in the document.
        kind: ``apiKey``, ``bearer``, ``basic``, ``oauth2`` (a token you have, or client
            credentials a token is fetched with) or ``token`` (a bearer token the user
            supplies: ``openIdConnect``).
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
        if self.kind == "oauth2" and self.token_url:
            return (f"{self.name}.client_id", f"{self.name}.client_secret")
        return (self.name,)


def apply_credentials(request: httpx.Request, credentials: Sequence[Credential]) -> None:
    """Add ``credentials`` to a request already built, where each says.

    An explicit header, query parameter or cookie of the same name wins (as in
    :func:`sktypes.remote.build_request`). Values are checked like any header value.
    """
    for cred in credentials:
        _check_value(cred.name, cred.value)
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


def _check_value(name: str, value: str, scheme: str | None = None, where: str = "") -> None:
    """Refuse a credential a header could not carry, naming it but never showing it."""
    what = f"the credential of {scheme!r}" if scheme else f"credential {name!r}"
    if _BAD.search(value):
        raise RemoteRequestError(
            f"{what} holds a line break or a control character (a CRLF .env file?); it is not sent",
            where=where or None,
        )
    if not value.isascii():
        raise RemoteRequestError(f"{what} is not ASCII; it is not sent", where=where or None)


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
    """The schemes of a document that can be sent, and a problem line for each other one.

    Values that already are :class:`Scheme` objects (generated packages) are kept.
    """
    out: dict[str, Scheme] = {}
    problems: list[str] = []
    where = "/securityDefinitions" if swagger2 else "/components/securitySchemes"
    for name, raw in schemes.items():
        if isinstance(raw, Scheme):
            out[str(name)] = raw
            continue
        pointer = f"{where}/{str(name).replace('~', '~0').replace('/', '~1')}"
        scheme = scheme_of(str(name), raw) if isinstance(raw, Mapping) else None
        if scheme is None:
            kind = raw.get("type") if isinstance(raw, Mapping) else None
            detail = f" {kind!r}" if isinstance(kind, str) else ""
            has = isinstance(raw, Mapping) and "scheme" in raw
            extra = f" {raw.get('scheme')!r}" if has else ""
            problems.append(f"{pointer}: security scheme{detail}{extra} is not supported")
        else:
            out[str(name)] = scheme
    return out, problems


def scheme_of(name: str, raw: Mapping[str, Any]) -> Scheme | None:
    """The :class:`Scheme` of one ``securitySchemes`` entry (``None``: not supported)."""
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


@dataclass(frozen=True, slots=True)
class _Plan:
    """What one scheme sends: a fixed credential, or a token to fetch with client credentials."""

    credential: Credential | None = None
    fetch: tuple[Key, str, ClientCredentials] | None = None


class SecurityCredentials:
    """The credentials of one document's security schemes, sent per operation.

    Args:
        schemes: the document's ``securitySchemes`` (``OpenApiPlugin.security_schemes``),
            raw or as :class:`Scheme` values.
        plugin_name: the plugin, for plugin-specific environment variables.
        values: values by key (``S``, ``S.username``, ``S.password``, ``S.client_id``,
            ``S.client_secret``, ``S.token_url``); an OAuth2 scheme's ``S`` may be a
            :class:`ClientCredentials`. They win over the environment; ``None`` values are
            not set.
        env: where to read variables (``os.environ`` by default; ``{}`` reads none).
        swagger2: the document is Swagger 2.0 (only for the pointers in :attr:`problems`).
        base_url: what a relative OAuth2 ``tokenUrl`` is resolved against.
        required: an operation that needs credentials none of which are configured raises
            :class:`CredentialsError`; ``False`` sends it without (a client's own auth may
            supply them).
    """

    def __init__(
        self,
        schemes: Mapping[str, Any],
        *,
        plugin_name: str | None = None,
        values: Mapping[str, Value | None] | None = None,
        env: Mapping[str, str] | None = None,
        swagger2: bool = False,
        base_url: str = "",
        required: bool = True,
    ) -> None:
        self.schemes, self.problems = parse_schemes(schemes, swagger2=swagger2)
        self._plugin = plugin_name
        self._values = {k: v for k, v in (values or {}).items() if v is not None}
        self._env = os.environ if env is None else env
        self.base_url = base_url
        self.required = required
        self._tokens = TokenCache()

    def __repr__(self) -> str:
        return f"SecurityCredentials(schemes={sorted(self.schemes)})"

    def _get(self, key: str) -> Value | None:
        if key in self._values:
            return self._values[key]
        names = [env_name(key, self._plugin), env_name(key)] if self._plugin else [env_name(key)]
        for name in names:
            value = self._env.get(name)
            if value:
                return value
        return None

    def _text(self, key: str) -> str | None:
        value = self._get(key)
        return value if isinstance(value, str) else None

    def _client(self, scheme: Scheme) -> ClientCredentials | None:
        """The client credentials of an OAuth2 scheme (given, or from the environment)."""
        value = self._get(scheme.name)
        if isinstance(value, ClientCredentials):
            return value
        if value is not None:
            return None  # a token the user has
        client_id = self._text(f"{scheme.name}.client_id")
        secret = self._text(f"{scheme.name}.client_secret")
        if client_id is None or secret is None:
            return None
        return ClientCredentials(
            client_id, secret, token_url=self._text(f"{scheme.name}.token_url")
        )

    def _token_url(self, scheme: Scheme, creds: ClientCredentials) -> str | None:
        url = creds.token_url or scheme.token_url
        if not url:
            return None
        return url if "://" in url else urljoin(self.base_url.rstrip("/") + "/", url)

    def configured(self, name: str) -> bool:
        """Whether scheme ``name`` can be sent (it is supported and its values are set)."""
        scheme = self.schemes.get(name)
        if scheme is None:
            return False
        if scheme.kind == "basic":
            return self._text(f"{name}.username") is not None
        if scheme.kind == "oauth2":
            creds = self._client(scheme)
            if creds is not None:
                return self._token_url(scheme, creds) is not None
        return self._text(name) is not None

    def choose(self, security: Sequence[Requirement], where: str = "") -> Requirement:
        """The alternative of ``security`` to send (``{}``: nothing to send).

        The first alternative whose schemes are all configured, an empty one (``{}``,
        "optional") only when no other is.

        Raises:
            CredentialsError: credentials are needed, none is configured and
                :attr:`required`; the message names the environment variables of each
                alternative.
        """
        if not security:
            return {}
        for requirement in security:
            if requirement and all(self.configured(name) for name in requirement):
                return requirement
        if any(not r for r in security) or not self.required:
            return {}
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

    def _plans(self, security: Sequence[Requirement], where: str) -> list[_Plan]:
        plans = []
        for name, scopes in self.choose(security, where).items():
            plans.append(self._plan(self.schemes[name], tuple(scopes), where))
        return plans

    def _plan(self, scheme: Scheme, scopes: tuple[str, ...], where: str) -> _Plan:
        name = scheme.name
        if scheme.kind == "apiKey":
            value = self._text(name) or ""
            return _Plan(self._checked(scheme, scheme.location, scheme.parameter, value, where))
        if scheme.kind == "basic":
            user = self._text(f"{name}.username") or ""
            password = self._text(f"{name}.password") or ""
            if ":" in user:
                raise RemoteRequestError(
                    f"the username of {name!r} holds ':', which basic authentication cannot carry",
                    where=where or None,
                )
            for part in (user, password):
                _check_value("Authorization", part, name, where)
            raw = base64.b64encode(f"{user}:{password}".encode()).decode("ascii")
            register_secret(password)
            return _Plan(self._checked(scheme, "header", "Authorization", f"Basic {raw}", where))
        creds = self._client(scheme) if scheme.kind == "oauth2" else None
        if creds is not None:
            url = self._token_url(scheme, creds) or ""
            return _Plan(fetch=((name, tuple(sorted(set(creds.scopes or scopes)))), url, creds))
        token = self._text(name) or ""
        return _Plan(self._checked(scheme, "header", "Authorization", f"Bearer {token}", where))

    def _checked(
        self, scheme: Scheme, location: str, name: str, value: str, where: str
    ) -> Credential:
        _check_value(name, value, scheme.name, where)
        register_secret(value)
        if " " in value:
            register_secret(value.split(" ", 1)[1])
        return Credential(location, name, value)

    async def credentials(
        self,
        security: Sequence[Requirement],
        client: httpx.AsyncClient,
        where: str = "",
    ) -> list[Credential]:
        """The credentials to send for an operation with this ``security`` (may fetch tokens).

        Raises:
            CredentialsError: nothing configured satisfies ``security`` (and
                :attr:`required`), or a token request failed (the message names the token
                endpoint and status, never a secret).
            RemoteRequestError: a value holds a line break or a control character.
        """
        out: list[Credential] = []
        for plan in self._plans(security, where):
            if plan.fetch is not None:
                key, url, creds = plan.fetch
                token = await self._tokens.get(key, url, creds, client, where)
                out.append(self._bearer(token, key[0], where))
            elif plan.credential is not None:
                out.append(plan.credential)
        return out

    def credentials_sync(
        self, security: Sequence[Requirement], client: httpx.Client, where: str = ""
    ) -> list[Credential]:
        """:meth:`credentials`, blocking (tokens fetched through a sync client)."""
        out: list[Credential] = []
        for plan in self._plans(security, where):
            if plan.fetch is not None:
                key, url, creds = plan.fetch
                token = self._tokens.get_sync(key, url, creds, client, where)
                out.append(self._bearer(token, key[0], where))
            elif plan.credential is not None:
                out.append(plan.credential)
        return out

    def _bearer(self, token: str, scheme: str, where: str) -> Credential:
        _check_value("Authorization", token, scheme, where)
        return Credential("header", "Authorization", f"Bearer {token}")

    def forget_tokens(self, security: Sequence[Requirement]) -> bool:
        """Drop the fetched tokens ``security`` would send (the API answered 401).

        ``True`` when a token was fetched for it, so asking again may succeed.
        """
        try:
            plans = self._plans(security, "")
        except (CredentialsError, RemoteRequestError):
            return False
        dropped = False
        for plan in plans:
            if plan.fetch is not None:
                dropped = self._tokens.forget(plan.fetch[0]) or dropped
        return dropped
