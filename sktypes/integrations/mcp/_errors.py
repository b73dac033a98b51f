"""What a model reads when a tool call fails.

Bad arguments, one line per problem at its path; an API's error answer, with its status and
its body.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from sktypes.errors import ErrorDetail
from sktypes.remote import ApiError, redact
from sktypes.views import FunctionView

__all__ = ["api_error_text", "invalid_arguments_text"]

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


_REQUIRED = re.compile(r"^'(.+)' is a required property$")


def invalid_arguments_text(
    tool: str, view: FunctionView, args: Mapping[str, Any], errors: Sequence[ErrorDetail]
) -> str:
    """The error text of arguments that break the view: one line per problem, by path."""
    lines = _argument_lines(view, args, errors)
    head = f"The arguments for {tool} could not be used. Fix these problems and call it again:"
    return "\n".join([head, *(f"- at {line}" for line in lines)])


def _argument_lines(
    view: FunctionView, args: Mapping[str, Any], errors: Sequence[ErrorDetail]
) -> list[str]:
    """One line per problem, each naming the argument's path (``$.date``, ``$.body.qty``).

    The arguments object's own problems (a missing or unknown argument) are reported at
    the argument's path, read from the view, rather than at ``$``.
    """
    lines: list[str] = []
    known = {p.name for p in view.parameters}
    for p in view.parameters:
        if p.is_required and p.name not in args:
            lines.append(f"$.{p.name}: required argument missing")
    if not view.accepts_extra:
        for name in args:
            if name not in known:
                lines.append(f"$.{name}: unknown argument (known: {', '.join(sorted(known))})")
    for e in errors:
        if e.path == "$" and (_REQUIRED.match(e.message) or "dditional properties" in e.message):
            continue  # reported above, by name
        path = e.path
        required = _REQUIRED.match(e.message)
        if required:
            path = f"{path}.{required.group(1)}"
        got = f" (got {e.input})" if e.input and e.input not in e.message else ""
        lines.append(f"{path}: {e.message}{got}")
    return lines or ["$: the arguments do not match the tool's input schema"]
