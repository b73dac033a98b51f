"""Calling remote (OpenAPI) operations over HTTP: the runtime of generated plugins.

One implementation of OpenAPI's parameter serialization and body encoding, used by the
packages ``sktypes generate`` writes (their plugin class is an :class:`ApiClient`) and by
the kernel functions of ``sktypes.kernel_openapi``:

- path parameters by ``style`` (``simple``, ``label``, ``matrix``) and ``explode``,
  percent-encoded;
- query and cookie parameters by ``style`` (``form``, ``spaceDelimited``,
  ``pipeDelimited``, ``deepObject``) and ``explode``; headers in ``simple`` style;
  parameters described by ``content`` are sent as compact JSON (style ``"json"``);
- the body as JSON (``application/json``, ``*+json``, no content type), form fields,
  multipart fields, or raw text/bytes for any other media type.

Values are JSON data or anything pydantic can dump (models are dumped by alias, leaving
unset fields out).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import httpx
import pydantic

from sktypes.hydration import hydrate

__all__ = [
    "ApiClient",
    "ApiError",
    "Credential",
    "Param",
    "Request",
    "build_request",
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
    cookie name; ``value`` what is sent.
    """

    location: str
    name: str
    value: str


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
        return {str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    return _ANY.dump_python(value, mode="json", by_alias=True)


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    if isinstance(value, (dict, list)):
        return _compact(value)
    return str(value)


_DELIMITERS = {"form": ",", "simple": ",", "spaceDelimited": " ", "pipeDelimited": "|"}


def query_pairs(params: Sequence[Param]) -> Pairs:
    """Serialize query (and cookie) parameters by their OpenAPI style and explode.

    ``None`` values are left out (an optional parameter the caller did not pass).
    """
    out: Pairs = []
    for name, raw, style, explode in params:
        if raw is None:
            continue
        value = to_json(raw)
        if style == "json":
            out.append((name, _compact(value)))
        elif isinstance(value, list):
            if explode and style == "form":
                out.extend((name, _scalar(v)) for v in value)
            else:
                out.append((name, _DELIMITERS.get(style, ",").join(_scalar(v) for v in value)))
        elif isinstance(value, dict):
            if style == "deepObject":
                out.extend((f"{name}[{k}]", _scalar(v)) for k, v in value.items())
            elif explode:
                out.extend((k, _scalar(v)) for k, v in value.items())
            else:
                out.append((name, ",".join(f"{k},{_scalar(v)}" for k, v in value.items())))
        else:
            out.append((name, _scalar(value)))
    return out


def path_value(name: str, raw: Any, style: str, explode: bool) -> str:
    """Serialize one path parameter (``simple``, ``label`` or ``matrix`` style), URL-encoded."""
    value = to_json(raw)
    if style == "json":
        return quote(_compact(value), safe="")
    if isinstance(value, dict):
        pairs = [(quote(str(k), safe=""), quote(_scalar(v), safe="")) for k, v in value.items()]
        items = [f"{k}={v}" for k, v in pairs] if explode else [x for kv in pairs for x in kv]
    elif isinstance(value, list):
        items = [quote(_scalar(v), safe="") for v in value]
    else:
        items = [quote(_scalar(value), safe="")]
    if style == "label":
        return "." + ("." if explode else ",").join(items)
    if style == "matrix":
        if explode and isinstance(value, list):
            return "".join(f";{name}={v}" for v in items)
        if explode and isinstance(value, dict):
            return "".join(f";{v}" for v in items)
        return f";{name}=" + ",".join(items)
    return ",".join(items)


def header_value(raw: Any, explode: bool, style: str = "simple") -> str:
    """Serialize one header parameter (``simple`` style, or ``"json"``)."""
    value = to_json(raw)
    if style == "json":
        return _compact(value)
    if isinstance(value, list):
        return ",".join(_scalar(v) for v in value)
    if isinstance(value, dict):
        sep = "=" if explode else ","
        return ",".join(f"{k}{sep}{_scalar(v)}" for k, v in value.items())
    return _scalar(value)


def _media_type(content_type: str) -> str:
    return content_type.split(";")[0].strip().lower()


def _body(body: Any, content_type: str) -> dict[str, Any]:
    """The httpx keyword arguments that send ``body`` as ``content_type``."""
    kind = _media_type(content_type)
    if kind == "application/json" or kind.endswith("+json") or not kind:
        return {"content": _compact(to_json(body)).encode()}
    if isinstance(body, bytes):
        return {"content": body}
    if isinstance(body, str):
        return {"content": body.encode()}
    data = to_json(body)
    if kind == "application/x-www-form-urlencoded" and isinstance(data, dict):
        return {"data": {k: _scalar(v) for k, v in data.items()}}
    if kind.startswith("multipart/") and isinstance(data, dict):
        return {"files": {k: (None, _scalar(v)) for k, v in data.items()}}
    return {"content": _compact(data).encode()}


def build_request(
    base_url: str,
    request: Request,
    *,
    credentials: Sequence[Credential] = (),
    headers: Mapping[str, str] | None = None,
) -> httpx.Request:
    """Return the ``httpx.Request`` for ``request`` against ``base_url``.

    ``headers`` are sent with every request (a parameter of the same name wins);
    ``credentials`` are applied last.
    """
    path = request.path
    for name, raw, style, explode in request.path_params:
        path = path.replace("{" + name + "}", path_value(name, raw, style, explode))
    query = query_pairs(request.query)
    sent = dict(headers or {})
    for name, raw, style, explode in request.headers:
        if raw is not None:
            sent[name] = header_value(raw, explode, style)
    cookies = {k: str(v) for k, v in query_pairs(request.cookies)}
    for cred in credentials:
        if cred.location == "query":
            query.append((cred.name, cred.value))
        elif cred.location == "cookie":
            cookies[cred.name] = cred.value
        else:
            sent[cred.name] = cred.value
    if cookies:
        sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
    kwargs: dict[str, Any] = {}
    if request.send_body and request.body is not None:
        ctype = request.content_type or "application/json"
        kwargs = _body(request.body, ctype)
        if "content" in kwargs:
            sent.setdefault("Content-Type", ctype)
    return httpx.Request(
        request.method.upper(),
        base_url.rstrip("/") + path,
        params=query,
        headers=sent,
        **kwargs,
    )


class ApiClient:
    """What every generated plugin shares: base URL, credentials, the HTTP clients.

    Args:
        base_url: the server URL the operation paths are relative to.
        credentials: the credentials to send with every request.
        client: an ``httpx.AsyncClient`` to use (one is created per call otherwise).
        sync_client: an ``httpx.Client`` for the ``*_sync`` methods.
        timeout: seconds, for the clients created here.
    """

    def __init__(
        self,
        base_url: str,
        credentials: Sequence[Credential] = (),
        *,
        client: httpx.AsyncClient | None = None,
        sync_client: httpx.Client | None = None,
        timeout: float = 30.0,
    ) -> None:
        self._base_url = base_url.rstrip("/")
        self._credentials = tuple(credentials)
        self._client = client
        self._sync_client = sync_client
        self._timeout = timeout

    def _build(self, request: Request) -> httpx.Request:
        return build_request(self._base_url, request, credentials=self._credentials)

    async def _send(self, request: Request) -> httpx.Response:
        built = self._build(request)
        if self._client is not None:
            response = await self._client.send(built)
        else:
            async with httpx.AsyncClient(timeout=self._timeout) as client:
                response = await client.send(built)
        return _checked(request.operation, response)

    def _send_sync(self, request: Request) -> httpx.Response:
        built = self._build(request)
        if self._sync_client is not None:
            response = self._sync_client.send(built)
        else:
            with httpx.Client(timeout=self._timeout) as client:
                response = client.send(built)
        return _checked(request.operation, response)


def _checked(operation: str, response: httpx.Response) -> httpx.Response:
    if not 200 <= response.status_code < 300:
        raise ApiError(operation, response.status_code, response.text)
    return response


def parse_json(target: Any, response: httpx.Response) -> Any:
    """Hydrate a JSON response body into ``target`` (no repair: the API is not a model)."""
    return hydrate(target, response.content, repair=False)
