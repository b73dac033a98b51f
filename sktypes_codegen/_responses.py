"""What an operation's responses add to its generated code: ``Accept``, typed errors, docs.

- ``accept``: every media type the responses declare (the runtime sends JSON first);
- ``errors``: each declared non-2xx response (exact code, ``4XX``, ``default``) with the
  type its body is hydrated into for :attr:`ApiError.parsed`: the generated model of its
  JSON schema, ``str`` for text, ``bytes`` for other media types;
- the ``Raises:`` section of the method's docstring, listing them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sktypes.openapi import Operation, OperationResponse
from sktypes.remote import is_text
from sktypes_codegen._annotations import BYTES, STR, Expr
from sktypes_codegen._schemas import Handle, SchemaSet

__all__ = ["ErrorResponse", "accepted", "error_handles", "error_responses", "raises_section"]

_SUCCESS = re.compile(r"^2(\d\d|XX)$", re.IGNORECASE)
_JSON = re.compile(r"^application/([\w.+-]+\+)?json|/json$|^\*/\*$")


@dataclass(slots=True)
class ErrorResponse:
    """One declared non-2xx response, as the generated code names it."""

    status: str
    annotation: Expr | None
    description: str


def is_error(response: OperationResponse) -> bool:
    """A response that is not a success: any code outside 2xx, and ``default``."""
    return not _SUCCESS.match(response.status)


def accepted(op: Operation) -> tuple[str, ...]:
    """The media types the operation's responses declare: the success response's first."""
    out: dict[str, None] = {}
    if op.response_content_type is not None:
        out[op.response_content_type] = None
    ordered = sorted(op.responses, key=lambda r: (not _SUCCESS.match(r.status), ""))
    for response in ordered:
        for media in response.content_types:
            out.setdefault(media, None)
    return tuple(out)


def _kind(response: OperationResponse) -> str:
    media = (response.content_type or "").split(";")[0].strip().lower()
    schema = response.schema.value if response.schema is not None else None
    if _JSON.search(media):
        return "json"
    if isinstance(schema, Mapping) and schema.get("format") == "binary":
        return "bytes"
    return "text" if is_text(media) else "bytes"


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def error_handles(op: Operation, schemas: SchemaSet) -> dict[str, Handle]:
    """Add the JSON schemas of the declared error responses; their handles by status."""
    out: dict[str, Handle] = {}
    for response in op.responses:
        if not is_error(response) or response.schema is None or _kind(response) != "json":
            continue
        where = f"{op.pointer}/responses/{_escape(response.status)}"
        out[response.status] = schemas.add(response.schema, where, f"response {response.status}")
    return out


def error_responses(op: Operation, annotations: Mapping[str, Expr]) -> list[ErrorResponse]:
    """The declared error responses, each with the type of its body (``None``: no body)."""
    out = []
    for response in op.responses:
        if not is_error(response):
            continue
        annotation: Expr | None = annotations.get(response.status)
        if annotation is None and response.content_type is not None:
            kind = _kind(response)
            annotation = STR if kind == "text" else BYTES if kind == "bytes" else None
        out.append(ErrorResponse(response.status, annotation, response.description or ""))
    return out


def raises_section(
    errors: list[ErrorResponse], render: Any, *, streamed: bool = False
) -> list[str]:
    """The ``Raises:`` lines of the method docstring (``render``: an annotation's code).

    ``streamed``: the method yields the items of a stream (they are what may drift).
    """
    lines = ["Raises:"]
    if not errors:
        lines.append("    ApiError: a status outside 2xx (no error response is declared).")
    else:
        lines.append("    ApiError: a status outside 2xx; ``.parsed`` is its body as declared:")
        for e in errors:
            what = f"``{render(e.annotation)}``" if e.annotation is not None else "no body"
            status = e.status if e.status.lower() != "default" else "any other status"
            text = f"{status}: {what}" + (f" ({_sentence(e.description)})" if e.description else "")
            lines.append(f"        {text}.")
    if streamed:
        lines.append("    StreamItemError: an item is not JSON (its index, line and text).")
        lines.append("    ResponseDriftError: an item breaks its schema and ``strict`` is on.")
        lines.append("    RemoteResponseError: the stream broke off.")
    else:
        lines.append("    ResponseDriftError: the body breaks its schema and ``strict`` is on.")
    return lines


def _sentence(text: str) -> str:
    line = " ".join(text.split())
    return line[:117] + "..." if len(line) > 120 else line
