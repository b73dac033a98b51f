"""What a model reads when a tool call fails because of the API: its status, body, or host.

An API's error answer is shown with its status and body; a request that got no answer
names the host it could not reach (one log line, no traceback).
(Refused arguments are written by the argument contract: ``HydrationError.for_llm``.)
"""

from __future__ import annotations

import httpx

from sktypes.remote import ApiError, redact

__all__ = ["api_error_text", "unreachable"]

_ERROR_BODY = 4000  # characters of an error body a model is shown


def api_error_text(tool: str, error: ApiError) -> str:
    """What a model reads of an API's error answer: the status, what it is, the body.

    The body is the one the operation declares for that status when :attr:`ApiError.parsed`
    is set (it validated), so the model reads a typed error it can act on.
    """
    if error.parsed is not None and error.declared is not None:
        what = f"its declared {error.declared} response"
    else:
        what = "a response the API does not declare for it"
    head = f"{tool} failed: the API answered HTTP {error.status_code} ({what})"
    if not error.body:
        return redact(head + ", with no body.")
    body = error.body
    if len(body) > _ERROR_BODY:
        body = body[:_ERROR_BODY] + f"... ({len(error.body) - _ERROR_BODY} more characters)"
    kind = error.media_type or "no Content-Type"
    return redact(f"{head}. Body ({kind}):\n{body}")


def unreachable(exc: httpx.RequestError) -> str:
    """``could not reach <host>: <reason>`` for a request that got no answer."""
    try:
        url = exc.request.url
        host = url.host + (f":{url.port}" if url.port is not None else "")
    except RuntimeError:  # raised without its request
        host = "the API"
    reason = str(exc) or type(exc).__name__
    return f"could not reach {host or 'the API'}: {reason}"
