"""Views → the functions manual, in each provider's dialect, at a detail level.

Every format writes what :func:`~sktypes.manual._shown.shown` gives for the level: ``full``
(the default: every schema exactly, in its shortest form), ``compact`` or ``names``. Writing
what :func:`views_from_manual` read from a ``full`` manual gives the same manual.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Literal

from sktypes.errors import ManualError, SchemaError
from sktypes.manual._names import NameTable
from sktypes.manual._read import WRAPPED
from sktypes.manual._shown import DETAILS, Shown, shown
from sktypes.schema._dialects import to_dialect
from sktypes.schema._inline import inline_refs
from sktypes.views import FunctionView

__all__ = [
    "DEFAULT_RESPONSE_DESCRIPTION",
    "FORMATS",
    "DEFERRAL",
    "ManualFormat",
    "functions_manual",
    "manual_at",
    "tool_entry",
]

ManualFormat = Literal[
    "planner", "openai", "openai-strict", "openai-responses", "anthropic", "gemini", "mcp", "text"
]
"""The name of a functions-manual format."""
FORMATS: tuple[ManualFormat, ...] = (
    "planner",
    "openai",
    "openai-strict",
    "openai-responses",
    "anthropic",
    "gemini",
    "mcp",
    "text",
)
"""Every format ``functions_manual`` writes, in a stable order."""
DEFERRAL: dict[str, str] = {"openai-responses": "defer_loading", "anthropic": "defer_loading"}
"""The field each format's provider reads as "load this tool on demand" (tool search), by
format. Chat Completions, Gemini's ``functionDeclarations``, MCP and the planner format have
none; there a ``names`` entry is only shorter."""
DEFAULT_RESPONSE_DESCRIPTION = "Successful response."

Writer = Callable[[FunctionView, str, Shown], dict[str, Any]]


def functions_manual(
    views: Iterable[FunctionView],
    format: str = "planner",
    *,
    names: NameTable | None = None,
    detail: str = "full",
) -> list[dict[str, Any]] | str:
    """Return the functions manual of ``views`` in ``format``.

    Formats: ``planner`` (the ADR's JSON: name, description, parameters, responses),
    ``openai`` / ``openai-strict`` (Chat Completions tools; strict mode rewrites schemas to
    OpenAI's structured-outputs rules and falls back to ``strict: false``, with a warning,
    for a tool it cannot express), ``openai-responses`` (Responses API function tools, with
    ``output_schema``), ``anthropic``, ``gemini`` (one tool holding ``functionDeclarations``
    in Gemini's OpenAPI subset), ``mcp`` (``tools/list`` entries with ``outputSchema``) and
    ``text`` (the ADR's older YAML-like manual, a string).

    Detail levels: ``full`` (every schema exactly, in its shortest form), ``compact`` (every
    constraint a validator enforces, the first sentence of each description; titles,
    examples and repeats dropped) and ``names`` (the name and one line, for tools loaded on
    demand: marked ``defer_loading`` where the provider has that field). Whatever a level
    leaves out is still enforced when a call arrives (calls are checked against the view).

    Pass a :class:`NameTable` as ``names`` to keep the map from provider names back to
    functions (names are unique within a table, also after cleaning and shortening).

    Examples:
        >>> import sktypes as sk
        >>> def add(a: int, b: int = 0) -> int:
        ...     '''Add two numbers.'''
        ...     return a + b
        >>> [tool] = sk.functions_manual([sk.function_view(add, "Math")], "anthropic")
        >>> tool["name"], tool["input_schema"]["required"]
        ('Math-add', ['a'])
    """
    items = list(views)
    if detail not in DETAILS:
        raise ManualError(f"unknown detail level {detail!r}; choose one of {', '.join(DETAILS)}")
    table = names if names is not None else NameTable()
    return manual_at(items, format, [detail] * len(items), table)


def manual_at(
    views: Sequence[FunctionView], format: str, details: Sequence[str], names: NameTable
) -> list[dict[str, Any]] | str:
    """The manual of ``views``, each at its own detail level (``details``, in order)."""
    if format == "text":
        return _text_manual(views, details)
    if format not in _WRITERS:
        raise ManualError(f"unknown manual format {format!r}; choose one of {', '.join(FORMATS)}")
    tools = [
        tool_entry(v, format, d, names.assign(v, format))
        for v, d in zip(views, details, strict=True)
    ]
    return [{"functionDeclarations": tools}] if format == "gemini" else tools


def tool_entry(view: FunctionView, format: str, detail: str, name: str) -> dict[str, Any]:
    """One tool of a manual in ``format`` (a Gemini function declaration for ``gemini``)."""
    out = _WRITERS[format](view, name, shown(view, detail))
    field = DEFERRAL.get(format)
    if field is not None and detail == "names":
        out[field] = True
    return out


def _planner_parameters(params: dict[str, Any]) -> dict[str, Any]:
    """The planner's arguments schema (an open object says ``additionalProperties`` itself).

    In the planner format, leaving ``additionalProperties`` out means "no other arguments".
    """
    out: dict[str, Any] = {"type": "object"}
    if params.get("required"):
        out["required"] = params["required"]
    out["properties"] = params.get("properties", {})
    extra = params.get("additionalProperties", True)
    if extra is not False:
        out["additionalProperties"] = extra
    for key, value in params.items():
        if key != "additionalProperties":
            out.setdefault(key, value)
    return out


def _planner(view: FunctionView, name: str, seen: Shown) -> dict[str, Any]:
    ret = view.return_parameter
    response: dict[str, Any] = {"description": ret.description or DEFAULT_RESPONSE_DESCRIPTION}
    if seen.returns is not None:
        response["content"] = {"application/json": {"schema": seen.returns}}
    return {
        "name": name,
        "description": seen.description,
        "parameters": _planner_parameters(seen.parameters),
        "responses": {"200": response},
    }


def _openai(view: FunctionView, name: str, seen: Shown) -> dict[str, Any]:
    fn: dict[str, Any] = {"name": name}
    if seen.description:
        fn["description"] = seen.description
    fn["parameters"] = seen.parameters
    return {"type": "function", "function": fn}


def _strict(view: FunctionView, seen: Shown) -> dict[str, Any] | None:
    """The arguments schema in OpenAI's strict dialect, or ``None`` (with a warning)."""
    if seen.deferred:
        return None  # an open object cannot be strict
    try:
        strict: dict[str, Any] = inline_refs(
            to_dialect(seen.parameters, "openai-strict"), single_use=True
        )  # definitions the dialect leaves used once (a mapping it cannot say) in place
        return strict
    except SchemaError as exc:
        warnings.warn(
            f"{view.fully_qualified_name}: not expressible in strict mode ({exc}); "
            "emitted with strict: false",
            stacklevel=4,
        )
        return None


def _openai_strict(view: FunctionView, name: str, seen: Shown) -> dict[str, Any]:
    tool = _openai(view, name, seen)
    strict = _strict(view, seen)
    if strict is not None:
        tool["function"]["parameters"] = strict
    tool["function"]["strict"] = strict is not None
    return tool


def _openai_responses(view: FunctionView, name: str, seen: Shown) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "function", "name": name}
    if seen.description:
        out["description"] = seen.description
    out["parameters"] = seen.parameters
    out["strict"] = False  # said: Responses makes a tool strict when strict is left out
    if seen.returns is not None:
        out["output_schema"] = seen.returns
    return out


def _anthropic(view: FunctionView, name: str, seen: Shown) -> dict[str, Any]:
    out: dict[str, Any] = {"name": name}
    if seen.description:
        out["description"] = seen.description
    out["input_schema"] = seen.parameters
    return out


def _gemini(view: FunctionView, name: str, seen: Shown) -> dict[str, Any]:
    out: dict[str, Any] = {"name": name}
    if seen.description:
        out["description"] = seen.description
    if view.parameters and not seen.deferred:
        out["parameters"] = to_dialect(seen.parameters, "gemini")
    if seen.returns is not None:
        out["response"] = to_dialect(seen.returns, "gemini")
    return out


def _mcp(view: FunctionView, name: str, seen: Shown) -> dict[str, Any]:
    out: dict[str, Any] = {"name": name}
    if seen.description:
        out["description"] = seen.description
    out["inputSchema"] = seen.parameters
    schema = seen.returns
    if schema is not None:
        if schema.get("type") == "object":
            out["outputSchema"] = schema
        else:  # MCP output schemas are objects: wrap the value as {"result": ...}
            defs = schema.pop("$defs", None)
            wrapped: dict[str, Any] = {
                "type": "object",
                "properties": {"result": schema},
                "required": ["result"],
            }
            if defs:
                wrapped["$defs"] = defs
            out["outputSchema"] = wrapped
            out["_meta"] = {WRAPPED: True}
    return out


_WRITERS: dict[str, Writer] = {
    "planner": _planner,
    "openai": _openai,
    "openai-strict": _openai_strict,
    "openai-responses": _openai_responses,
    "anthropic": _anthropic,
    "gemini": _gemini,
    "mcp": _mcp,
}


def _text_manual(views: Sequence[FunctionView], details: Sequence[str]) -> str:
    lines: list[str] = []
    for view, detail in zip(views, details, strict=True):
        seen = shown(view, detail)
        lines.append(f"{view.fully_qualified_name}:")
        lines.append(f"  description: {_one_line(seen.description)}")
        if view.parameters and not seen.deferred:
            lines.append("  inputs:")
            properties = seen.parameters.get("properties", {})
            for p in view.parameters:
                text = properties.get(p.name, {}).get("description") or p.description or ""
                if detail == "full":
                    text = p.description or text
                lines.append(f"    - {p.name}: {_one_line(text)}".rstrip())
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def _one_line(text: str) -> str:
    return " ".join(text.split())
