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
from sktypes.remote._client import ApiClient, ApiError, parse_json
from sktypes.remote._items import AsyncItems
from sktypes.remote._pages import Pagination, iterate_pages, iterate_pages_sync
from sktypes.remote._request import Credential, Request, build_request
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
    "ApiClient",
    "ApiError",
    "AsyncItems",
    "Credential",
    "Pagination",
    "Param",
    "RemoteRequestError",
    "RemoteResponseError",
    "ServerSentEvent",
    "Stream",
    "StreamItemError",
    "Request",
    "build_request",
    "cookie_pairs",
    "header_value",
    "iterate_pages",
    "iterate_pages_sync",
    "iterate_stream",
    "iterate_stream_sync",
    "parse_json",
    "path_value",
    "query_pairs",
    "to_json",
]
