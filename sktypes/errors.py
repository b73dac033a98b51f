"""Errors raised by sktypes.

Every error sktypes raises for bad input derives from :class:`SktypesError`, and its
message names the place: the file (when there is one), the line and column where they are
known, and a JSON pointer (``/paths/~1pets/get``) or a JSON path (``$.items[0].qty``), in
one form, ``file:line:column: where: message``, that editors jump to (:func:`format_error`
writes it, for every error and every ``sktypes check`` finding)::

    SktypesError
    ├── IntrospectionError   a callable or type that cannot become a view / schema
    ├── SchemaError          a schema that cannot be expressed in a dialect
    ├── ManualError          a tool list / functions manual that cannot be read
    ├── HydrationError       LLM output that cannot become the target value
    │   └── ArgumentsError   arguments that do not satisfy a function view's contract
    ├── OpenApiError         a spec that cannot be loaded
    ├── GenerationError      code generation failed (nothing was written)
    ├── TemplateError        a prompt template that cannot be parsed or rendered
    │   └── UnknownTemplateFormatError
    ├── ContentError         chat content that cannot be (de)serialized
    ├── KernelError          a function that cannot be found or invoked
    ├── RemoteRequestError   a remote call whose request cannot be built safely
    ├── RemoteResponseError  a remote answer that cannot be read as the spec declares it
    │   └── StreamItemError  a streamed item that is not what the stream declares
    └── PlanError            a plan that cannot be read or run

:class:`ArgumentsError` and :class:`HydrationError` carry every problem found, not only
the first, as :class:`ErrorDetail` values. Arguments are model output too: every door into a
function (the kernel, ``validate_arguments``, ``hydrate(view, ...)``, the integrations, the
MCP server) refuses them with the one :class:`ArgumentsError` its argument contract raises, so
``except HydrationError`` catches a refused call wherever it came from.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

__all__ = [
    "ArgumentsError",
    "ContentError",
    "ErrorDetail",
    "GenerationError",
    "HydrationError",
    "IntrospectionError",
    "KernelError",
    "ManualError",
    "OpenApiError",
    "PlanError",
    "RemoteRequestError",
    "RemoteResponseError",
    "SchemaError",
    "StreamItemError",
    "SktypesError",
    "TemplateError",
    "UnknownTemplateFormatError",
]

_SNIPPET = 60


class Location(NamedTuple):
    """Where an error is: the file, line and column (1-based), and a place that is not a line.

    ``SomeError(message, **location._asdict())`` raises an error there.
    """

    file: str | None = None
    line: int | None = None
    column: int | None = None
    where: str | None = None


def format_error(
    message: str,
    *,
    file: str | None = None,
    line: int | None = None,
    column: int | None = None,
    where: str | None = None,
) -> str:
    """The one form of every located message: ``file:line:column: where: message``.

    Parts that are not known are left out: ``api.yaml:12:5: not valid YAML``,
    ``api.yaml: /paths/~1a/get: ...`` (a pointer without a line), ``api.yaml:7:9:
    /paths/~1a/get: ...`` (both). Without a file the line reads ``line 2, column 18: ...``.
    """
    head = file or ""
    if line is not None:
        if head:
            head += f":{line}" + (f":{column}" if column is not None else "")
        else:
            head = f"line {line}" + (f", column {column}" if column is not None else "")
    return ": ".join([p for p in (head, where) if p] + [message])


class SktypesError(Exception):
    """Base class of every error sktypes raises for bad input.

    Args:
        message: what went wrong, in one line.
        file: the file the input came from, if any.
        where: the place inside it that is not a line: ``/paths/~1a/get``, ``$.a[0]``, a
            function's name.
        line: the 1-based line in ``file`` (or in the text given), when known.
        column: the 1-based column on that line, when known.
    """

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        where: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.message = message
        self.file = file
        self.where = where
        self.line = line
        self.column = column
        super().__init__(self._render())

    def _render(self) -> str:
        return format_error(
            self.message, file=self.file, line=self.line, column=self.column, where=self.where
        )

    def location(self) -> Location:
        """The error's place; ``OtherError(msg, **exc.location()._asdict())`` raises there."""
        return Location(self.file, self.line, self.column, self.where)

    def at_line(self, line: int | None, column: int | None = None) -> None:
        """Add the line (and column) once they are known, e.g. found from a JSON pointer."""
        self.line, self.column = line, column
        self.args = (self._render(),)


@dataclass(frozen=True, slots=True)
class ErrorDetail:
    """One problem: where (a JSON path such as ``$.items[0]``), what, and the offending input."""

    path: str
    message: str
    input: str = ""

    def to_dict(self) -> dict[str, str]:
        """Return the detail as a JSON-compatible dict."""
        return {"path": self.path, "message": self.message, "input": self.input}


def snippet(value: object, limit: int = _SNIPPET) -> str:
    """Return a short, single-line rendering of ``value`` for an error message."""
    text = value if isinstance(value, str) else repr(value)
    text = text.replace("\n", "\\n")
    return text if len(text) <= limit else text[: limit - 1] + "…"


MAX_DETAILS = 100
"""At most this many problems are kept on an error; the rest are only counted (``.total``)."""

_MESSAGE_LINES = 20
_LINE_CHARS = 300
_LLM_CHARS = 2000


def _line(text: str, limit: int = _LINE_CHARS) -> str:
    """One line of an error message, at most ``limit`` characters (cut in the middle)."""
    text = text.replace("\n", "\\n")
    if len(text) <= limit:
        return text
    half = (limit - 1) // 2
    return text[:half] + "…" + text[len(text) - (limit - 1 - half) :]


class _DetailedError(SktypesError):
    """An error that carries a list of :class:`ErrorDetail`.

    Bounded whatever the input: at most :data:`MAX_DETAILS` details are kept (``.total``
    counts them all), the message lists the first 20, and every line is cut to 300
    characters, so a 1 MB answer with 300,000 problems makes a short error.
    """

    def __init__(
        self,
        errors: Iterable[ErrorDetail],
        *,
        summary: str | None = None,
        file: str | None = None,
        total: int | None = None,
    ) -> None:
        kept = list(errors)
        self.total: int = max(total or 0, len(kept))
        self.errors: list[ErrorDetail] = kept[:MAX_DETAILS]
        lines = [_line(f"{e.path}: {e.message}") for e in self.errors[:_MESSAGE_LINES]]
        if self.total > len(lines):
            lines.append(f"… and {self.total - len(lines)} more")
        head = summary or f"{self.total} problem(s)"
        super().__init__(head + ("\n  " + "\n  ".join(lines) if lines else ""), file=file)

    def for_llm(
        self, limit: int = 10, *, header: str | None = None, max_chars: int = _LLM_CHARS
    ) -> str:
        """Return a compact text a model can correct its output from: one line per problem.

        Args:
            limit: how many problems to list (the rest are counted).
            header: the first line; defaults to asking the model to fix its output.
            max_chars: the text's size bound (a model's context is finite): lines are cut to
                300 characters and problems that do not fit are counted, not listed.
        """
        first = header or "Your output could not be used. Fix these problems and answer again:"
        lines = [_line(first, max(max_chars // 2, 1))]
        size = len(lines[0])
        shown = 0
        for e in self.errors[:limit]:
            got = f" (got {e.input})" if _shows_more(e) else ""
            line = _line(f"- at {e.path}: {e.message}{got}")
            if size + 1 + len(line) > max_chars - 40:  # leave room for the count line
                break
            lines.append(line)
            size += 1 + len(line)
            shown += 1
        if self.total > shown:
            lines.append(f"- … and {self.total - shown} more")
        return "\n".join(lines)


def _shows_more(detail: ErrorDetail) -> bool:
    """Whether the offending input adds to the message (not when the message opens with it)."""
    shown = detail.input
    if not shown:
        return False
    return not (detail.message.startswith(shown) or detail.message.startswith(repr(shown)))


def arguments_header(function: str) -> str:
    """The first line of the text a model reads when its arguments for ``function`` were refused."""
    return f"The arguments for {function} could not be used. Fix these problems and call it again:"


class IntrospectionError(SktypesError):
    """A callable or type cannot be turned into a view or a schema."""


class SchemaError(SktypesError):
    """A schema cannot be expressed in the requested dialect."""


class ManualError(SktypesError):
    """A tool list or functions manual cannot be read."""


class HydrationError(_DetailedError):
    """LLM output cannot be turned into the target value; ``.errors`` lists every problem."""


class ArgumentsError(HydrationError):
    """Arguments do not satisfy a function view's contract; ``.errors`` lists every violation.

    Raised by the view's argument contract (:class:`sktypes.hydration.ArgumentContract`),
    whichever door the call came through. ``function`` names the function (``Plugin.f``);
    ``for_llm()`` then opens with :func:`arguments_header`.
    """

    def __init__(
        self,
        errors: Iterable[ErrorDetail],
        *,
        summary: str | None = None,
        file: str | None = None,
        total: int | None = None,
        function: str | None = None,
    ) -> None:
        self.function = function
        super().__init__(errors, summary=summary, file=file, total=total)

    def for_llm(
        self, limit: int = 10, *, header: str | None = None, max_chars: int = _LLM_CHARS
    ) -> str:
        """The text a model corrects its call from (see :meth:`HydrationError.for_llm`).

        Without ``header``, the first line names the function (:func:`arguments_header`).
        """
        if header is None and self.function is not None:
            header = arguments_header(self.function)
        return super().for_llm(limit, header=header, max_chars=max_chars)


class OpenApiError(SktypesError):
    """An OpenAPI document cannot be loaded."""


class GenerationError(SktypesError):
    """Code generation failed; nothing was written."""


class TemplateError(SktypesError):
    """A prompt template cannot be parsed or rendered."""


class UnknownTemplateFormatError(TemplateError):
    """A template factory does not handle the requested format."""


class ContentError(SktypesError):
    """Chat content cannot be serialized or restored."""


class KernelError(SktypesError):
    """A kernel function cannot be found or invoked."""


class RemoteRequestError(SktypesError):
    """A remote operation's request cannot be built safely.

    A header value with a line break or a control character, a header or cookie name that
    is not a token, or a body the declared media type cannot carry; ``where`` names the
    operation.
    """


class RemoteResponseError(SktypesError):
    """A remote operation's answer cannot be read as its spec declares it.

    A page whose items are not an array, a next page on another origin (not followed: the
    credentials would go with it), a page that repeats the one before (the server ignores
    the page parameter), a stream cut short; ``where`` names the operation and the place.
    """


class StreamItemError(RemoteResponseError):
    """One item of a streamed response is not what the stream declares.

    Attributes:
        index: the item's position in the stream (0 for the first).
        line: the line of the response body it starts on (1 for the first).
        raw: the item as received (text), so nothing is lost.
    """

    def __init__(
        self, message: str, *, index: int, line: int, raw: str, where: str | None = None
    ) -> None:
        super().__init__(f"item {index} (line {line}): {message}", where=where)
        self.index = index
        self.line = line  # set after the base class, which keeps a place's line there too
        self.raw = raw


class PlanError(SktypesError):
    """A plan cannot be read or run."""
