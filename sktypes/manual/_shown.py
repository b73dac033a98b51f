"""What a model is shown of one function at each detail level: ``full``, ``compact``, ``names``.

- ``full``: the description, and the schemas exactly, in their shortest form;
- ``compact``: the first sentence of the description, and schemas with every enforced
  keyword but only the annotations a model needs (:func:`sktypes.schema._detail.compact_schema`);
  the return schema keeps its shape and constraints, not its descriptions;
- ``names``: the name and one line (the first sentence); the arguments schema is an open
  object and there is no return schema. Formats whose provider loads tools on demand mark
  the tool deferred (Anthropic's and OpenAI Responses' ``defer_loading``).

Every level is enforced the same way when a call arrives: arguments are checked against the
full view, and the error names what was broken in full (the constraint, the allowed values),
so a model shown less still learns what it needs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from sktypes.schema._detail import compact_schema, first_sentence, full_schema
from sktypes.views import FunctionView, parameters_document

__all__ = ["DETAILS", "Detail", "Shown", "shown"]

Detail = Literal["full", "compact", "names"]
"""How much a manual says of each function."""
DETAILS: tuple[Detail, ...] = ("full", "compact", "names")
"""Every detail level, richest first."""


@dataclass(frozen=True, slots=True)
class Shown:
    """One function as a manual shows it.

    Attributes:
        description: the function's description at this level.
        parameters: the arguments schema (a new dict).
        returns: the return value's schema, or ``None`` (none declared, or ``names``).
        deferred: only the name and one line are shown (``names``).
    """

    description: str
    parameters: dict[str, Any]
    returns: dict[str, Any] | None
    deferred: bool = False


def shown(view: FunctionView, detail: str = "full") -> Shown:
    """What ``view`` shows at ``detail`` (``ValueError`` for an unknown level)."""
    ret = view.return_parameter.schema
    if detail == "full":
        returns = full_schema(ret) if ret is not None else None
        return Shown(view.description, full_schema(parameters_document(view)), returns)
    if detail == "compact":
        returns = compact_schema(ret, result=True) if ret is not None else None
        params = compact_schema(parameters_document(view))
        return Shown(first_sentence(view.description), params, returns)
    if detail == "names":
        return Shown(first_sentence(view.description), {"type": "object"}, None, deferred=True)
    raise ValueError(f"unknown detail level {detail!r}; choose one of {', '.join(DETAILS)}")
