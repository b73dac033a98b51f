"""What a call raises or warns when the API's answer cannot simply be its result.

::

    KernelError
    └── ResponseError              the answer cannot be the call's result
        ├── ApiError               a status outside 2xx (``.parsed``: the declared model)
        ├── ResponseDriftError     ``strict=True``: the body breaks its declared schema
        └── UnexpectedMediaType    a 2xx body the result type cannot hold (XML for a model)

    UserWarning
    └── ResponseDriftWarning       the body breaks its declared schema; returned as received

Each carries the status, the headers, the body (text and bytes) and its media type, so the
raw answer stays reachable. Messages never hold a credential (see :func:`redact`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import httpx

from sktypes.errors import KernelError, snippet
from sktypes.remote._secrets import redact

__all__ = [
    "ApiError",
    "DriftProblem",
    "ResponseDriftError",
    "ResponseDriftWarning",
    "ResponseError",
    "UnexpectedMediaType",
]

_SHOWN = 200  # characters of a body shown in a message


class ResponseError(KernelError):
    """The API's answer cannot be the call's result.

    Attributes:
        operation: the operation called (its view name).
        status_code: the HTTP status.
        headers: the response headers.
        body: the body as text (decoded as the response says; bytes that are not text are
            replaced, see :attr:`content`).
        content: the body as received.
        media_type: the bare ``Content-Type`` received (``""`` when none).
    """

    def __init__(self, operation: str, response: httpx.Response, message: str) -> None:
        self.operation = operation
        self.status_code = response.status_code
        self.headers = response.headers
        self.content = response.content
        self.body = _text(response)
        self.media_type = response.headers.get("content-type", "").split(";")[0].strip().lower()
        super().__init__(redact(message), where=operation)


def _text(response: httpx.Response) -> str:
    try:
        return response.text
    except (UnicodeDecodeError, LookupError):
        return response.content.decode("utf-8", "replace")


class ApiError(ResponseError):
    """The API answered with a status outside 2xx.

    The message reads ``GET /pets/{petId} returned 404: <the body, shortened>``.

    Attributes:
        parsed: the body hydrated into the type of the response the operation declares for
            this status (the exact code, else its ``4XX``/``5XX`` range, else ``default``);
            ``None`` when none is declared or the body is not what was declared (then
            :attr:`body` still has it).
        declared: the declared status the answer matched (``"404"``, ``"4XX"``,
            ``"default"``), ``None`` when undeclared.
    """

    def __init__(
        self,
        operation: str,
        response: httpx.Response,
        parsed: Any = None,
        declared: str | None = None,
        request: str = "",
    ) -> None:
        self.parsed = parsed
        self.declared = declared
        head = f"{request or 'the request'} returned {response.status_code}"
        body = _text(response)
        super().__init__(operation, response, f"{head}: {snippet(body, _SHOWN)}" if body else head)


@dataclass(frozen=True, slots=True)
class DriftProblem:
    """One way a response body breaks its declared schema.

    Attributes:
        pointer: the JSON pointer of the offending value in the body (``""``: the body).
        message: what is wrong.
        value: the offending value, as received.
    """

    pointer: str
    message: str
    value: Any

    def line(self) -> str:
        """``/pets/0/id: 'x' is not of type 'integer'`` (value shortened)."""
        return f"{self.pointer or '/'}: {self.message} (got {snippet(self.value)})"


class ResponseDriftError(ResponseError):
    """``strict=True``: a 2xx body breaks the schema the operation declares for it.

    Attributes:
        problems: every problem found, each with its JSON pointer and value.
        item: for a streamed item, its index in the stream (from 0); ``None`` otherwise.
            The pointers are then inside the item, which is :attr:`body`.
    """

    def __init__(
        self,
        operation: str,
        response: httpx.Response,
        problems: Sequence[DriftProblem],
        item: int | None = None,
    ) -> None:
        self.problems = list(problems)
        self.item = item
        lines = "; ".join(p.line() for p in self.problems[:5])
        more = f" (and {len(self.problems) - 5} more)" if len(self.problems) > 5 else ""
        what = "the response" if item is None else f"item {item} of the stream"
        super().__init__(operation, response, f"{what} breaks its declared schema: {lines}{more}")


class UnexpectedMediaType(ResponseError):
    """A 2xx body of a media type the call's result type cannot hold.

    ``body`` (text) and ``content`` (bytes) have it, ``media_type`` says what it is.
    """

    def __init__(self, operation: str, response: httpx.Response, expected: str) -> None:
        kind = response.headers.get("content-type", "") or "no Content-Type"
        super().__init__(
            operation,
            response,
            f"the response is {kind}, which the result ({expected}) cannot hold; "
            "its body is on the error (.body, .content)",
        )


class ResponseDriftWarning(UserWarning):
    """A response broke its declared schema; the call returned the data as received.

    Attributes:
        operation: the operation called.
        pointer: the JSON pointer of the offending value (in :attr:`body`).
        value: the offending value.
        problem: what is wrong.
        body: the raw body (text), for whatever the result could not hold; for a streamed
            item, the item (a server-sent event as JSON: ``event``, ``data``, ``id``).
        status_code: the HTTP status.
        item: for a streamed item, its index in the stream (from 0); ``None`` otherwise.
    """

    def __init__(
        self,
        operation: str,
        problem: DriftProblem,
        body: str,
        status_code: int,
        item: int | None = None,
    ) -> None:
        self.operation = operation
        self.pointer = problem.pointer
        self.value = problem.value
        self.problem = problem.message
        self.body = body
        self.status_code = status_code
        self.item = item
        where = "" if item is None else f" of item {item}"
        super().__init__(redact(f"{operation}: response drift{where} at {problem.line()}"))
