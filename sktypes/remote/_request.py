"""One operation's request: its values, credentials, and the ``httpx.Request`` built from them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx

from sktypes.generated import MISSING
from sktypes.remote._body import encode_body
from sktypes.remote._media import accept_header
from sktypes.remote._security import Credential, Requirement, _check_value
from sktypes.remote._wire import (
    Pairs,
    Param,
    _check_header,
    _check_token,
    _cookie_scalar,
    _fill_path,
    _pairs,
    _scalar,
    cookie_pairs,
    header_value,
)

__all__ = ["Credential", "Request", "build_request"]


@dataclass(slots=True)
class Request:
    """Everything needed to send one operation's request (values not yet serialized).

    Attributes:
        operation: the operation's name (its view's).
        method: the HTTP method.
        path: the path template (``/pets/{petId}``).
        path_params: path parameters, each ``(name, value, style, explode)``.
        query: query parameters, likewise.
        headers: header parameters, likewise.
        cookies: cookie parameters, likewise.
        body: the body (``MISSING``: none).
        content_type: the media type the body is sent as (the spec's preferred one).
        send_body: whether the operation has a body at all.
        content_types: every media type the operation accepts for its body (a wildcard
            ``content_type`` becomes a concrete one admitted by these).
        body_content_type: the caller's concrete media type for the body, if any.
        accept: the media types the operation declares for its responses (``Accept``).
        errors: the declared non-2xx responses: status (``"404"``, ``"4XX"``,
            ``"default"``) → the type its body is hydrated into (``ApiError.parsed``), or
            its schema (a :class:`~sktypes.jsondoc.JsonDocument`: the body is kept as JSON
            when it validates).
        security: the operation's security requirements (``()``: send no credentials);
            ``None`` when unknown (every configured credential is sent).
        idempotency_key: the header parameter that carries an idempotency key (POST
            requests with one are retried, with the same key).
    """

    operation: str
    method: str
    path: str
    path_params: list[Param] = field(default_factory=list)
    query: list[Param] = field(default_factory=list)
    headers: list[Param] = field(default_factory=list)
    cookies: list[Param] = field(default_factory=list)
    body: Any = None
    content_type: str | None = None
    send_body: bool = False
    content_types: tuple[str, ...] = ()
    body_content_type: str | None = None
    accept: tuple[str, ...] = ()
    errors: Mapping[str, Any] = field(default_factory=dict)
    security: Sequence[Requirement] | None = None
    idempotency_key: str | None = None
    url: str | None = None
    """An absolute URL sent instead of the server's path and query (a next page's URL:
    the query parameters are the URL's own; credentials in the query are still added)."""


def build_request(
    base_url: str,
    request: Request,
    *,
    credentials: Sequence[Credential] = (),
    headers: Mapping[str, str] | None = None,
    client: httpx.Client | httpx.AsyncClient | None = None,
) -> httpx.Request:
    """Return the ``httpx.Request`` for ``request`` against ``base_url``.

    With ``client``, the request is built by ``client.build_request``: the client's headers,
    params, cookies and timeout are merged in (the request's own win), and ``client.send``
    then applies its auth and event hooks. Precedence, lowest first: the client's defaults,
    ``headers``, ``credentials``, the operation's parameters.

    ``Accept`` is built from the declared response media types (JSON first) and sits
    between the client's defaults and ``headers``.

    Raises:
        RemoteRequestError: a header value holds a line break or a control character, a
            header or cookie name is not a token, or the body cannot take the media type.
    """
    op = request.operation
    path = _fill_path(request.path, request.path_params)
    sent: dict[str, tuple[str, str]] = {}  # lower-case name -> (name, value)
    query: Pairs = []
    cookies: dict[str, str] = {}
    accept = accept_header(request.accept)
    if accept is not None:
        sent["accept"] = ("Accept", accept)
    for name, value in (headers or {}).items():
        sent[name.lower()] = (name, value)
    for cred in credentials:
        _check_value(cred.name, cred.value, where=op)
        if cred.location == "query":
            query.append((cred.name, cred.value))
        elif cred.location == "cookie":
            cookies[cred.name] = _cookie_scalar(cred.value)
        else:
            sent[cred.name.lower()] = (cred.name, cred.value)
    explicit = _pairs(request.query, _scalar) if request.url is None else []
    named = {k for k, _ in explicit}
    if request.url is not None:
        named = set(httpx.URL(request.url).params.keys())
    query = [(k, v) for k, v in query if k not in named]
    query.extend(explicit)
    for name, raw, style, explode in request.headers:
        if raw is not None and raw is not MISSING:
            sent[name.lower()] = (name, header_value(raw, explode, style))
    cookies.update(cookie_pairs(request.cookies, op))
    for name in cookies:
        _check_token(name, "cookie", op)
    kwargs: dict[str, Any] = {}
    if request.send_body and request.body is not MISSING:
        kwargs, ctype = encode_body(
            request.body,
            request.content_type or "application/json",
            op,
            request.content_types,
            request.body_content_type,
        )
        if ctype is not None and "content-type" not in sent:
            sent["content-type"] = ("Content-Type", ctype)
    out = {name: _check_header(name, value, op) for name, value in sent.values()}
    url = base_url.rstrip("/") + path
    if request.url is not None:  # its query goes in params (httpx replaces a URL's query)
        given = httpx.URL(request.url)
        query = [*given.params.multi_items(), *query]
        url = str(given.copy_with(query=None))
    method = request.method.upper()
    if client is not None:
        return client.build_request(
            method, url, params=query, headers=out, cookies=cookies or None, **kwargs
        )
    return httpx.Request(method, url, params=query, headers=out, cookies=cookies or None, **kwargs)
