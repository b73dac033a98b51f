"""The HTTP responses behind the call being served (an httpx response hook records them).

A remote function returns its typed value; the MCP result needs what the API sent (its
media type, or the whole body of a generated method's call). :func:`record_response` sits
on the server's client; :func:`recording` collects, for the call under way only, every
response it gets (retries and token requests included: the last one is the answer).
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator, Mapping
from typing import Any

import httpx
import orjson

from sktypes.errors import KernelError
from sktypes.integrations.mcp._tools import Binary
from sktypes.remote import RemoteRequestError, is_text, quiet_drift
from sktypes.remote._secrets import register_secret, secret_header
from sktypes.remote._wire import _check_token

__all__ = ["body_of", "checked_headers", "media_type", "record_response", "recording"]

_RESPONSES: contextvars.ContextVar[list[httpx.Response] | None] = contextvars.ContextVar(
    "sktypes_mcp_responses", default=None
)


async def record_response(response: httpx.Response) -> None:
    """Keep (an httpx response hook) the response for the call being served (if one is)."""
    seen = _RESPONSES.get()
    if seen is not None:
        seen.append(response)


@contextlib.contextmanager
def recording() -> Iterator[list[httpx.Response]]:
    """Collect the responses of the call run inside; the runtime's drift warnings stay quiet.

    The server checks results against their output schemas itself (``--drift``), with the
    same rule, and reports drift in the result.
    """
    seen: list[httpx.Response] = []
    token = _RESPONSES.set(seen)
    quiet = quiet_drift.set(True)
    try:
        yield seen
    finally:
        quiet_drift.reset(quiet)
        _RESPONSES.reset(token)


def body_of(response: httpx.Response) -> Any:
    """The body as the API sent it: JSON, text, or :class:`Binary` of its media type."""
    if not response.content:
        return None
    kind = media_type(response)
    if kind == "application/json" or kind.endswith("+json"):
        try:
            return orjson.loads(response.content)
        except orjson.JSONDecodeError:
            raise KernelError("the response is not valid JSON", where=response.url.path) from None
    if not kind or is_text(kind):
        return response.text
    return Binary(response.content, kind)


def media_type(response: httpx.Response) -> str:
    """The bare, lower-case ``Content-Type`` of ``response``."""
    kind: str = response.headers.get("content-type", "")
    return kind.split(";")[0].strip().lower()


def checked_headers(headers: Mapping[str, str]) -> dict[str, str]:
    """``headers`` for every API request, checked: names are tokens, values printable ASCII.

    The value of a header whose name says it carries a credential (``Authorization``,
    ``X-API-Key``, ``*-Token``...) is registered as a secret: no result or log shows it.

    Raises:
        RemoteRequestError: a name is not a token or a value holds a control character
            (the message names the header, never the value).
    """
    out: dict[str, str] = {}
    for name, value in headers.items():
        _check_token(name, "header", "")
        if any((ord(c) < 0x20 and c != "\t") or ord(c) == 0x7F for c in value):
            raise RemoteRequestError(
                f"header {name!r}: the value holds a line break or a control character"
            )
        if not value.isascii():
            raise RemoteRequestError(f"header {name!r}: the value is not ASCII")
        if secret_header(name):
            register_secret(value)
            if " " in value:
                register_secret(value.split(" ", 1)[1])
        out[name] = value
    return out
