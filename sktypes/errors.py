"""Errors raised by sktypes.

Every error sktypes raises for bad input derives from :class:`SktypesError`, and its
message names the place: the file (when there is one) and a line, a JSON pointer
(``/paths/~1pets/get``) or a JSON path (``$.items[0].qty``)::

    SktypesError
    ├── IntrospectionError   a callable or type that cannot become a view / schema
    ├── SchemaError          a schema that cannot be expressed in a dialect
    ├── ManualError          a tool list / functions manual that cannot be read
    ├── ArgumentsError       arguments that do not satisfy a function view
    ├── HydrationError       LLM output that cannot become the target value
    ├── OpenApiError         a spec that cannot be loaded
    ├── GenerationError      code generation failed (nothing was written)
    ├── TemplateError        a prompt template that cannot be parsed or rendered
    │   └── UnknownTemplateFormatError
    ├── ContentError         chat content that cannot be (de)serialized
    ├── KernelError          a function that cannot be found or invoked
    ├── RemoteRequestError   a remote call whose request cannot be built safely
    └── PlanError            a plan that cannot be read or run

:class:`ArgumentsError` and :class:`HydrationError` carry every problem found, not only
the first, as :class:`ErrorDetail` values.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

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
    "SchemaError",
    "SktypesError",
    "TemplateError",
    "UnknownTemplateFormatError",
]

_SNIPPET = 60


class SktypesError(Exception):
    """Base class of every error sktypes raises for bad input.

    Args:
        message: what went wrong, in one line.
        file: the file the input came from, if any.
        where: the place inside it: ``line 12``, ``/paths/~1a/get`` or ``$.a[0]``.
    """

    def __init__(self, message: str, *, file: str | None = None, where: str | None = None) -> None:
        self.message = message
        self.file = file
        self.where = where
        super().__init__(self._render())

    def _render(self) -> str:
        place = ": ".join(p for p in (self.file, self.where) if p)
        return f"{place}: {self.message}" if place else self.message


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


class _DetailedError(SktypesError):
    """An error that carries a list of :class:`ErrorDetail`."""

    def __init__(
        self,
        errors: Iterable[ErrorDetail],
        *,
        summary: str | None = None,
        file: str | None = None,
    ) -> None:
        self.errors: list[ErrorDetail] = list(errors)
        lines = [f"{e.path}: {e.message}" for e in self.errors]
        head = summary or f"{len(self.errors)} problem(s)"
        super().__init__(head + ("\n  " + "\n  ".join(lines) if lines else ""), file=file)

    def for_llm(self, limit: int = 10, *, header: str | None = None) -> str:
        """Return a compact text a model can correct its output from: one line per problem.

        Args:
            limit: how many problems to list (the rest are counted).
            header: the first line; defaults to asking the model to fix its output.
        """
        shown: Sequence[ErrorDetail] = self.errors[:limit]
        lines = [header or "Your output could not be used. Fix these problems and answer again:"]
        for e in shown:
            got = f" (got {e.input})" if e.input else ""
            lines.append(f"- at {e.path}: {e.message}{got}")
        if len(self.errors) > limit:
            lines.append(f"- … and {len(self.errors) - limit} more")
        return "\n".join(lines)


class IntrospectionError(SktypesError):
    """A callable or type cannot be turned into a view or a schema."""


class SchemaError(SktypesError):
    """A schema cannot be expressed in the requested dialect."""


class ManualError(SktypesError):
    """A tool list or functions manual cannot be read."""


class ArgumentsError(_DetailedError):
    """Arguments do not satisfy a function view; ``.errors`` lists every violation."""


class HydrationError(_DetailedError):
    """LLM output cannot be turned into the target value; ``.errors`` lists every problem."""


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


class PlanError(SktypesError):
    """A plan cannot be read or run."""
