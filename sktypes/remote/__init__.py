"""Calling remote (OpenAPI) operations over HTTP: the runtime of generated plugins.

One runtime for the packages ``sktypes generate`` writes (their plugin class is an
:class:`ApiClient`), the kernel functions of ``sktypes.kernel_openapi`` and the tools of
``sktypes serve``:

- credentials per operation from the spec's ``securitySchemes`` (:class:`SecurityCredentials`;
  OAuth2 :class:`ClientCredentials` fetch a token, keep it until it expires, fetch it again
  once on 401), checked like header values and never shown (:func:`redact`);
- retries of idempotent requests on 408/429/5xx and connection failures, honouring
  ``Retry-After`` (:class:`Retry`); a POST only with a declared idempotency-key header;
- ``Accept`` from the declared media types (JSON first), the body read by the
  ``Content-Type`` received (:func:`read_result`; :class:`UnexpectedMediaType` for what the
  result type cannot hold);
- a non-2xx answer raises :class:`ApiError`, ``.parsed`` typed by the declared response;
- a body that breaks its schema is returned with a :class:`ResponseDriftWarning`, or raises
  :class:`ResponseDriftError` under ``strict=True``;

and OpenAPI's parameter serialization and body encoding:

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
  ``application/*``, ``image/*``) becomes a concrete one: the caller's, else the one the
  bytes' signature proves (PNG, JPEG, GIF, WebP, PDF), else JSON for data, text for ``str``,
  ``application/octet-stream`` for bytes — never one the declared types exclude;
- ``bytes`` in a parameter or a JSON value are base64 text (``format: byte``).

Paginated operations (:class:`Pagination`, recognised by ``sktypes.openapi``) are walked
page by page by :func:`iterate_pages` (``<method>_iter`` in generated packages), every page
sent through the same client. Streamed answers (:class:`Stream`: server-sent events, JSON
lines, JSON text sequences) are read item by item as they arrive by :func:`iterate_stream`.

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

from sktypes.errors import RemoteRequestError, RemoteResponseError, StreamItemError
from sktypes.remote._client import ApiClient
from sktypes.remote._drift import quiet_drift
from sktypes.remote._errors import (
    ApiError,
    DriftProblem,
    ResponseDriftError,
    ResponseDriftWarning,
    ResponseError,
    UnexpectedMediaType,
)
from sktypes.remote._items import AsyncItems
from sktypes.remote._media import accept_header, is_text, kind_of, sniff
from sktypes.remote._oauth import ClientCredentials, CredentialsError
from sktypes.remote._pages import Pagination, iterate_pages, iterate_pages_sync
from sktypes.remote._request import Request, build_request
from sktypes.remote._response import RAW, declared_status, parse_json, read_result
from sktypes.remote._retry import Retry, idempotency_header
from sktypes.remote._secrets import redact
from sktypes.remote._security import Credential, Scheme, SecurityCredentials
from sktypes.remote._streams import (
    ServerSentEvent,
    Stream,
    iterate_stream,
    iterate_stream_sync,
)
from sktypes.remote._wire import (
    Param,
    cookie_pairs,
    header_value,
    path_value,
    query_pairs,
    to_json,
)

__all__ = [
    "RAW",
    "ApiClient",
    "ApiError",
    "AsyncItems",
    "ClientCredentials",
    "Credential",
    "CredentialsError",
    "DriftProblem",
    "Pagination",
    "Param",
    "RemoteRequestError",
    "RemoteResponseError",
    "ServerSentEvent",
    "Stream",
    "StreamItemError",
    "Request",
    "ResponseDriftError",
    "ResponseDriftWarning",
    "ResponseError",
    "Retry",
    "Scheme",
    "SecurityCredentials",
    "UnexpectedMediaType",
    "accept_header",
    "build_request",
    "cookie_pairs",
    "declared_status",
    "header_value",
    "idempotency_header",
    "is_text",
    "iterate_pages",
    "iterate_pages_sync",
    "iterate_stream",
    "iterate_stream_sync",
    "kind_of",
    "parse_json",
    "path_value",
    "query_pairs",
    "quiet_drift",
    "read_result",
    "redact",
    "sniff",
    "to_json",
]
