"""Calling remote (OpenAPI) operations over HTTP: the runtime of generated plugins.

One implementation of OpenAPI's parameter serialization and body encoding, used by the
packages ``sktypes generate`` writes (their plugin class is an :class:`ApiClient`) and by
the kernel functions of ``sktypes.kernel_openapi``:

- path parameters by ``style`` (``simple``, ``label``, ``matrix``) and ``explode``,
  percent-encoded; a segment that would read as ``.`` or ``..`` is sent as ``%2E``/``%2E%2E``
  (RFC 3986 §2.3), so a value cannot walk up the server's path;
- query and cookie parameters by ``style`` (``form``, ``spaceDelimited``,
  ``pipeDelimited``, ``deepObject``) and ``explode``; headers in ``simple`` style;
  parameters described by ``content`` are sent as compact JSON (style ``"json"``);
- cookie values percent-encode every character outside RFC 6265's ``cookie-octet`` (``;``,
  ``,``, space, quotes, backslash, controls), so a value cannot add a cookie; a header value
  with a line break or another control character raises :class:`RemoteRequestError`;
- the body as JSON (``application/json``, ``*+json``, no content type), form fields,
  multipart parts (bytes, file objects and ``(filename, content[, type])`` tuples become
  file parts), or raw text/bytes for any other media type. A wildcard media type (``*/*``,
  ``application/*``) becomes a concrete one chosen by the body: JSON for data, text for
  ``str``, ``application/octet-stream`` for bytes.

Requests are built through the user's ``httpx`` client when there is one
(``client.build_request``), so its base URL, headers, params, cookies, auth, event hooks and
transport apply. Precedence, lowest first: the client's defaults, ``ApiClient`` credentials,
the operation's explicit parameters.

Values are JSON data or anything pydantic can dump (models are dumped by alias, leaving
unset fields out). ``MISSING`` (``sktypes.generated.MISSING``, what a generated method's
optional parameters default to) is never sent: the parameter, body or member is left out.
An explicit ``None`` body is sent as JSON ``null``; ``None`` query, header and cookie values
are left out (they have no ``null``).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import httpx
import pydantic

from sktypes.errors import RemoteRequestError
from sktypes.generated import MISSING
from sktypes.hydration import hydrate

__all__ = [
    "ApiClient",
    "ApiError",
    "Credential",
    "Param",
    "RemoteRequestError",
    "Request",
    "build_request",
    "cookie_pairs",
    "header_value",
    "parse_json",
    "path_value",
    "query_pairs",
    "to_json",
]

Param = tuple[str, Any, str, bool]
"""A parameter on the wire: (name, value, style, explode); ``style`` ``"json"`` sends JSON."""

Pairs = list[tuple[str, str | int | float | bool | None]]
"""Serialized query parameters, in order (a name may repeat)."""


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


@dataclass(frozen=True, slots=True)
class Credential:
    """One credential applied to every request.

    ``location`` is ``header``, ``query`` or ``cookie``; ``name`` the header, parameter or
    cookie name; ``value`` what is sent (left out of ``repr``: a secret must not reach a
    log). An explicit parameter of the same name and place wins over the credential.
    """

    location: str
    name: str
    value: str = field(repr=False)


@dataclass(slots=True)
class Request:
    """Everything needed to send one operation's request (values not yet serialized)."""

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


_ANY: pydantic.TypeAdapter[Any] = pydantic.TypeAdapter(Any)
_PLAIN = (str, int, float, bool, type(None))


def to_json(value: Any) -> Any:
    """Return ``value`` as JSON data (models by alias, unset fields left out)."""
    if isinstance(value, _PLAIN):
        return value
    if isinstance(value, pydantic.BaseModel):
        return value.model_dump(mode="json", by_alias=True, exclude_unset=True)
    if isinstance(value, Mapping):
        return {str(k): to_json(v) for k, v in value.items() if v is not MISSING}
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    return _ANY.dump_python(value, mode="json", by_alias=True)


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


_SURROGATE = re.compile("[\ud800-\udfff]")


def _text(text: str) -> str:
    """``text`` if it can be sent (encoded as UTF-8); a lone surrogate is refused."""
    if _SURROGATE.search(text) is not None:
        raise RemoteRequestError(
            f"{text!r} holds a lone surrogate: it is not text and cannot be sent"
        )
    return text


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    if isinstance(value, (dict, list)):
        return _text(_compact(value))
    return _text(str(value))


_DELIMITERS = {"form": ",", "simple": ",", "spaceDelimited": " ", "pipeDelimited": "|"}


def _pairs(params: Sequence[Param], scalar: Callable[[Any], str]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for name, raw, style, explode in params:
        if raw is None or raw is MISSING:
            continue
        value = to_json(raw)
        if style == "json":
            out.append((name, scalar(_compact(value))))
        elif value == [] or value == {}:
            continue  # RFC 6570 §2.3: an empty list or map is undefined, so left out
        elif isinstance(value, list):
            if explode and style == "form":
                out.extend((name, scalar(v)) for v in value)
            else:
                out.append((name, _DELIMITERS.get(style, ",").join(scalar(v) for v in value)))
        elif isinstance(value, dict):
            if style == "deepObject":
                out.extend((f"{name}[{k}]", scalar(v)) for k, v in value.items())
            elif explode:
                out.extend((k, scalar(v)) for k, v in value.items())
            else:
                out.append((name, ",".join(f"{scalar(k)},{scalar(v)}" for k, v in value.items())))
        else:
            out.append((name, scalar(value)))
    return out


def query_pairs(params: Sequence[Param]) -> Pairs:
    """Serialize query parameters by their OpenAPI style and explode.

    ``None`` values are left out (an optional parameter the caller did not pass), and so
    are empty lists and objects: RFC 6570 (which OpenAPI's styles follow) treats them as
    undefined, and ``ids=`` would read back as ``[""]``.
    """
    return list(_pairs(params, _scalar))


# RFC 6265 cookie-octet, less "%" (the escape character itself)
_COOKIE_SAFE = "".join(
    chr(c) for c in range(0x21, 0x7F) if chr(c) not in '"%,;\\'
)  # fmt: skip
_TOKEN = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")


def _cookie_scalar(value: Any) -> str:
    return quote(_scalar(value), safe=_COOKIE_SAFE)


def cookie_pairs(params: Sequence[Param], operation: str = "") -> list[tuple[str, str]]:
    """Serialize cookie parameters like query parameters, each value cookie-safe.

    Every character outside RFC 6265's ``cookie-octet`` is percent-encoded inside each
    value (the style's own ``,`` delimiters stay), so ``abc; apikey=X`` stays one cookie.

    Raises:
        RemoteRequestError: a cookie name is not an HTTP token.
    """
    out = _pairs(params, _cookie_scalar)
    for name, _ in out:
        _check_token(name, "cookie", operation)
    return out


def _dot_segment(segment: str) -> str:
    """``.`` and ``..`` spelled ``%2E``/``%2E%2E``: the server must not remove them."""
    return segment.replace(".", "%2E") if segment in (".", "..") else segment


def path_value(name: str, raw: Any, style: str, explode: bool) -> str:
    """Serialize one path parameter (``simple``, ``label`` or ``matrix`` style), URL-encoded.

    A whole value of ``.`` or ``..`` is encoded as ``%2E``/``%2E%2E``.
    """
    value = to_json(raw)
    if style == "json":
        return quote(_text(_compact(value)), safe="")
    if isinstance(value, dict):
        pairs = [(_quote_path(_text(str(k))), _quote_path(_scalar(v))) for k, v in value.items()]
        items = [f"{k}={v}" for k, v in pairs] if explode else [x for kv in pairs for x in kv]
    elif isinstance(value, list):
        items = [_quote_path(_scalar(v)) for v in value]
    else:
        items = [_quote_path(_scalar(value))]
    if style == "label":
        return _dot_segment("." + ("." if explode else ",").join(items))
    if style == "matrix":
        if explode and isinstance(value, list):
            return "".join(f";{name}={v}" for v in items)
        if explode and isinstance(value, dict):
            return "".join(f";{v}" for v in items)
        return f";{name}=" + ",".join(items)
    return ",".join(items)


def _quote_path(text: str) -> str:
    return _dot_segment(quote(text, safe=""))


def _fill_path(template: str, params: Sequence[Param]) -> str:
    """The path with every ``{name}`` replaced; no segment can be ``.`` or ``..``.

    Values are substituted in one pass, so a value cannot itself contain a placeholder
    that a later parameter fills (and every value is percent-encoded anyway).
    """
    values = {name: path_value(name, raw, style, explode) for name, raw, style, explode in params}
    path = re.sub(r"\{([^{}]+)\}", lambda m: values.get(m[1], m[0]), template)
    return "/".join(_dot_segment(s) for s in path.split("/"))


def header_value(raw: Any, explode: bool, style: str = "simple") -> str:
    """Serialize one header parameter (``simple`` style, or ``"json"``)."""
    value = to_json(raw)
    if style == "json":
        return _text(_compact(value))
    if isinstance(value, list):
        return ",".join(_scalar(v) for v in value)
    if isinstance(value, dict):
        sep = "=" if explode else ","
        return ",".join(f"{_text(str(k))}{sep}{_scalar(v)}" for k, v in value.items())
    return _scalar(value)


_BAD_HEADER_VALUE = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")


def _check_token(name: str, kind: str, operation: str) -> None:
    if not _TOKEN.match(name):
        raise RemoteRequestError(f"{kind} name {name!r} is not an HTTP token", where=operation)


def _check_header(name: str, value: str, operation: str) -> str:
    _check_token(name, "header", operation)
    if _BAD_HEADER_VALUE.search(value):
        raise RemoteRequestError(
            f"header {name!r}: the value holds a line break or a control character",
            where=operation,
        )
    if not value.isascii():
        raise RemoteRequestError(
            f"header {name!r}: the value is not ASCII (HTTP headers cannot carry it as is)",
            where=operation,
        )
    return value


def _media_type(content_type: str) -> str:
    return content_type.split(";")[0].strip().lower()


def _is_json(kind: str) -> bool:
    return not kind or kind == "application/json" or kind.endswith("+json")


def _is_file(value: Any) -> bool:
    return isinstance(value, (bytes, bytearray, memoryview)) or callable(
        getattr(value, "read", None)
    )


def _concrete(content_type: str, body: Any) -> str:
    """A concrete media type for a wildcard one (``*/*``, ``application/*``, ``text/*``)."""
    kind = _media_type(content_type)
    if "*" not in kind:
        return content_type
    if _is_file(body):
        return "application/octet-stream"
    if kind == "text/*" or (isinstance(body, str) and kind in ("*/*", "text/*")):
        return "text/plain; charset=utf-8"
    return "application/json"


def _read_all(value: Any) -> bytes:
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    data = value.read()
    return data.encode() if isinstance(data, str) else bytes(data)


def _form_fields(body: Any, operation: str) -> dict[str, Any]:
    """The top-level fields of a form body (models by alias; ``bytes`` kept as they are)."""
    if isinstance(body, pydantic.BaseModel):
        dumped = body.model_dump(mode="python", by_alias=True, exclude_unset=True)
        return {str(k): v for k, v in dumped.items()}
    if isinstance(body, Mapping):
        return {str(k): v for k, v in body.items() if v is not MISSING}
    raise RemoteRequestError(
        f"a form body must be an object, not {type(body).__name__}", where=operation
    )


def _file_part(name: str, value: Any) -> tuple[str, Any]:
    if isinstance(value, tuple):
        return name, value
    if isinstance(value, (bytes, bytearray, memoryview)):
        return name, (name, bytes(value), "application/octet-stream")
    filename = os.path.basename(str(getattr(value, "name", "") or name))
    return name, (filename, value, "application/octet-stream")


def _multipart(body: Any, operation: str) -> dict[str, Any]:
    data: dict[str, list[str]] = {}
    files: list[tuple[str, Any]] = []
    for name, value in _form_fields(body, operation).items():
        if value is None:
            continue
        items = value if isinstance(value, list) else [value]
        if all(_is_file(v) or isinstance(v, tuple) for v in items):
            files.extend(_file_part(name, v) for v in items)
            continue
        plain = to_json(value)
        if isinstance(plain, dict) or (
            isinstance(plain, list) and any(isinstance(v, (dict, list)) for v in plain)
        ):
            files.append((name, (None, _compact(plain).encode(), "application/json")))
        else:
            data[name] = [_scalar(v) for v in (plain if isinstance(plain, list) else [plain])]
    if not files:  # httpx writes multipart only when a file part is present
        files = [(k, (None, v.encode())) for k, vs in data.items() for v in vs]
        return {"files": files}
    return {"data": data, "files": files}


def _body(body: Any, content_type: str, operation: str) -> tuple[dict[str, Any], str | None]:
    """The httpx keyword arguments that send ``body``, and the Content-Type to set.

    ``None`` as the content type: httpx sets it (form and multipart, with the boundary).
    """
    content_type = _concrete(content_type, body)
    kind = _media_type(content_type)
    if _is_json(kind):
        return {"content": _compact(to_json(body)).encode()}, content_type or "application/json"
    if kind == "application/x-www-form-urlencoded":
        fields = {k: to_json(v) for k, v in _form_fields(body, operation).items()}
        pairs = _pairs([(k, v, "form", True) for k, v in fields.items()], _scalar)
        data: dict[str, list[str]] = {}
        for k, v in pairs:
            data.setdefault(k, []).append(v)
        return {"data": data}, None
    if kind.startswith("multipart/"):
        return _multipart(body, operation), None
    if _is_file(body):
        return {"content": _read_all(body)}, content_type
    if isinstance(body, str):
        charset = re.search(r"charset=([\w.-]+)", content_type, re.IGNORECASE)
        return {"content": body.encode(charset[1] if charset else "utf-8")}, content_type
    if kind.startswith("text/") and isinstance(body, (int, float)):
        return {"content": _scalar(body).encode()}, content_type
    raise RemoteRequestError(
        f"a {type(body).__name__} body cannot be sent as {kind}: pass str or bytes",
        where=operation,
    )


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

    Raises:
        RemoteRequestError: a header value holds a line break or a control character, a
            header or cookie name is not a token, or the body cannot take the media type.
    """
    op = request.operation
    path = _fill_path(request.path, request.path_params)
    sent: dict[str, tuple[str, str]] = {}  # lower-case name -> (name, value)
    query: Pairs = []
    cookies: dict[str, str] = {}
    for name, value in (headers or {}).items():
        sent[name.lower()] = (name, value)
    for cred in credentials:
        if cred.location == "query":
            query.append((cred.name, cred.value))
        elif cred.location == "cookie":
            cookies[cred.name] = _cookie_scalar(cred.value)
        else:
            sent[cred.name.lower()] = (cred.name, cred.value)
    explicit = _pairs(request.query, _scalar)
    named = {k for k, _ in explicit}
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
        kwargs, ctype = _body(request.body, request.content_type or "application/json", op)
        if ctype is not None and "content-type" not in sent:
            sent["content-type"] = ("Content-Type", ctype)
    out = {name: _check_header(name, value, op) for name, value in sent.values()}
    url = base_url.rstrip("/") + path
    method = request.method.upper()
    if client is not None:
        return client.build_request(
            method, url, params=query, headers=out, cookies=cookies or None, **kwargs
        )
    return httpx.Request(method, url, params=query, headers=out, cookies=cookies or None, **kwargs)


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
