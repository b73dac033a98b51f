"""The functions manual: views → what a model or planner reads, in each provider's dialect.

``functions_manual(views, format=...)`` writes; ``views_from_manual(tools)`` reads OpenAI
(Chat Completions and Responses), Anthropic, Gemini, MCP and planner tool lists back.
Writing what was read gives back the same manual.

Names: the planner, Gemini and MCP formats use ``Plugin.Function``; OpenAI and Anthropic
allow only ``[A-Za-z0-9_-]{1,64}``, so they use ``Plugin-Function``. Characters a format
refuses become ``_``. A name over the length limit is the function's name alone when that
fits and no other function of the manual has it (a :class:`NameTable` maps it back to its
plugin); only then does it keep its head and end with an 8-character hash of the full name,
so distinct functions keep distinct names.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from sktypes._documents import parse_document
from sktypes.errors import ManualError, SchemaError, snippet
from sktypes.jsondoc import thaw
from sktypes.schema import NeverNode, ObjectNode, RefNode, parse
from sktypes.schema._dialects import to_dialect
from sktypes.schema._emit import Emitter
from sktypes.views import FunctionView, ParameterView, ReturnParameterView

__all__ = [
    "FORMATS",
    "ManualFormat",
    "NameTable",
    "functions_manual",
    "provider_name",
    "views_from_manual",
]

ManualFormat = Literal["planner", "openai", "openai-strict", "anthropic", "gemini", "mcp", "text"]
"""The name of a functions-manual format."""
FORMATS: tuple[ManualFormat, ...] = (
    "planner",
    "openai",
    "openai-strict",
    "anthropic",
    "gemini",
    "mcp",
    "text",
)
"""Every format ``functions_manual`` writes, in a stable order."""
DEFAULT_RESPONSE_DESCRIPTION = "Successful response."
_WRAPPED = "sktypes/result-wrapped"


@dataclass(frozen=True, slots=True)
class _NameRule:
    separator: str
    invalid: re.Pattern[str]
    limit: int
    must_start: re.Pattern[str] | None = None


_OPENAI_NAMES = _NameRule("-", re.compile(r"[^A-Za-z0-9_-]"), 64)
_NAME_RULES: dict[str, _NameRule] = {
    "planner": _NameRule(".", re.compile(r"[\x00-\x1f]"), 1024),
    "text": _NameRule(".", re.compile(r"[\x00-\x1f]"), 1024),
    "openai": _OPENAI_NAMES,
    "openai-strict": _OPENAI_NAMES,
    "anthropic": _OPENAI_NAMES,
    "gemini": _NameRule(".", re.compile(r"[^A-Za-z0-9_.:-]"), 128, re.compile(r"^[A-Za-z_]")),
    "mcp": _NameRule(".", re.compile(r"[^A-Za-z0-9._-]"), 128),
}


def provider_name(view: FunctionView, format: str) -> str:
    """Return the name ``view`` has in ``format`` (valid for that provider).

    Stateless, so a name over the limit is shortened with a hash (a :class:`NameTable`
    first tries the function's name alone, which needs the table to be unique).
    """
    rule = _NAME_RULES[format]
    full = view.qualified_name(rule.separator)
    name = _cleaned(full, rule)
    if len(name) > rule.limit:
        digest = hashlib.sha1(full.encode()).hexdigest()[:8]
        name = f"{name[: rule.limit - 9]}_{digest}"
    return name


def _cleaned(name: str, rule: _NameRule) -> str:
    name = rule.invalid.sub("_", name) or "_"
    if rule.must_start is not None and not rule.must_start.match(name):
        name = "_" + name
    return name


class NameTable:
    """The reversible map between provider names and (plugin, function) pairs.

    ``functions_manual(..., names=table)`` records every name it writes (and makes names
    that would collide distinct); ``views_from_manual(..., names=table)`` maps them back, so
    a name shortened or cleaned for a provider still resolves to the original function.
    """

    def __init__(self) -> None:
        self._by_name: dict[str, tuple[str, str]] = {}

    def assign(self, view: FunctionView, format: str) -> str:
        """Return the provider name of ``view`` in ``format``, unique within this table."""
        key = (view.plugin_name, view.name)
        rule = _NAME_RULES[format]
        name = provider_name(view, format)
        bare = _cleaned(view.name, rule)
        if (
            len(_cleaned(view.qualified_name(rule.separator), rule)) > rule.limit
            and len(bare) <= rule.limit
            and self._by_name.get(bare, key) == key
        ):
            name = bare  # readable: the function's own name, unique in this table
        n = 1
        while self._by_name.get(name, key) != key:
            rule = _NAME_RULES[format]
            digest = hashlib.sha1(f"{view.qualified_name(rule.separator)}#{n}".encode())
            name = f"{name[: rule.limit - 9]}_{digest.hexdigest()[:8]}"
            n += 1
        self._by_name[name] = key
        return name

    def lookup(self, name: str) -> tuple[str, str] | None:
        """Return ``(plugin_name, function_name)`` for a provider name, if it was written."""
        return self._by_name.get(name)

    def __len__(self) -> int:
        return len(self._by_name)


def _split_name(name: str, separator: str) -> tuple[str, str]:
    plugin, sep, func = name.partition(separator)
    return (plugin, func) if sep and plugin and func else ("", name)


# --- writing ------------------------------------------------------------------------


def functions_manual(
    views: Iterable[FunctionView], format: str = "planner", *, names: NameTable | None = None
) -> list[dict[str, Any]] | str:
    """Return the functions manual of ``views`` in ``format``.

    Formats: ``planner`` (the ADR's JSON: name, description, parameters, responses),
    ``openai`` / ``openai-strict`` (Chat Completions tools; strict mode rewrites schemas to
    OpenAI's structured-outputs rules and falls back to ``strict: false``, with a warning,
    for a tool it cannot express), ``anthropic``, ``gemini`` (one tool holding
    ``functionDeclarations`` in Gemini's OpenAPI subset), ``mcp`` (``tools/list`` entries with
    ``outputSchema``) and ``text`` (the ADR's older YAML-like manual, a string).

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
    if format == "text":
        return _text_manual(items)
    writer = _WRITERS.get(format)
    if writer is None:
        raise ManualError(f"unknown manual format {format!r}; choose one of {', '.join(FORMATS)}")
    table = names if names is not None else NameTable()
    tools = [writer(v, table.assign(v, format)) for v in items]
    return [{"functionDeclarations": tools}] if format == "gemini" else tools


def _planner_parameters(view: FunctionView) -> dict[str, Any]:
    schema = view.parameters_schema
    out: dict[str, Any] = {"type": "object"}
    if schema.get("required"):
        out["required"] = schema["required"]
    out["properties"] = schema["properties"]
    if view.accepts_extra:
        out["additionalProperties"] = True
    if "$defs" in schema:
        out["$defs"] = schema["$defs"]
    return out


def _planner(view: FunctionView, name: str) -> dict[str, Any]:
    ret = view.return_parameter
    response: dict[str, Any] = {"description": ret.description or DEFAULT_RESPONSE_DESCRIPTION}
    if ret.schema is not None:
        response["content"] = {"application/json": {"schema": ret.schema.to_python()}}
    return {
        "name": name,
        "description": view.description,
        "parameters": _planner_parameters(view),
        "responses": {"200": response},
    }


def _openai(view: FunctionView, name: str) -> dict[str, Any]:
    fn: dict[str, Any] = {"name": name}
    if view.description:
        fn["description"] = view.description
    fn["parameters"] = view.parameters_schema
    return {"type": "function", "function": fn}


def _openai_strict(view: FunctionView, name: str) -> dict[str, Any]:
    tool = _openai(view, name)
    try:
        tool["function"]["parameters"] = to_dialect(view.parameters_schema, "openai-strict")
        tool["function"]["strict"] = True
    except SchemaError as exc:
        warnings.warn(
            f"{view.fully_qualified_name}: not expressible in strict mode ({exc}); "
            "emitted with strict: false",
            stacklevel=3,
        )
        tool["function"]["strict"] = False
    return tool


def _anthropic(view: FunctionView, name: str) -> dict[str, Any]:
    out: dict[str, Any] = {"name": name}
    if view.description:
        out["description"] = view.description
    out["input_schema"] = view.parameters_schema
    return out


def _gemini(view: FunctionView, name: str) -> dict[str, Any]:
    out: dict[str, Any] = {"name": name}
    if view.description:
        out["description"] = view.description
    if view.parameters:
        out["parameters"] = to_dialect(view.parameters_schema, "gemini")
    ret = view.return_parameter
    if ret.schema is not None:
        out["response"] = to_dialect(ret.schema.to_python(), "gemini")
    return out


def _mcp(view: FunctionView, name: str) -> dict[str, Any]:
    out: dict[str, Any] = {"name": name}
    if view.description:
        out["description"] = view.description
    out["inputSchema"] = view.parameters_schema
    ret = view.return_parameter
    if ret.schema is not None:
        schema = ret.schema.to_python()
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
            out["_meta"] = {_WRAPPED: True}
    return out


_WRITERS = {
    "planner": _planner,
    "openai": _openai,
    "openai-strict": _openai_strict,
    "anthropic": _anthropic,
    "gemini": _gemini,
    "mcp": _mcp,
}


def _text_manual(views: Sequence[FunctionView]) -> str:
    lines: list[str] = []
    for view in views:
        lines.append(f"{view.fully_qualified_name}:")
        lines.append(f"  description: {_one_line(view.description)}")
        if view.parameters:
            lines.append("  inputs:")
            for p in view.parameters:
                lines.append(f"    - {p.name}: {_one_line(p.description or '')}".rstrip())
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def _one_line(text: str) -> str:
    return " ".join(text.split())


# --- reading ------------------------------------------------------------------------


def views_from_manual(tools: Any, *, names: NameTable | None = None) -> list[FunctionView]:
    """Read a tool list back into views.

    Accepts JSON text or parsed data: a list of tools or an object with ``tools`` — OpenAI
    Chat Completions (``{"type": "function", "function": {...}}``) and Responses (flat)
    tools, Anthropic tools (``input_schema``), Gemini tools (``functionDeclarations``), MCP
    ``tools/list`` entries (``inputSchema``/``outputSchema``) and planner entries.

    With ``names`` (the table :func:`functions_manual` filled), provider names map back to
    the original plugin and function names; without it, names split at the format's
    separator (``Plugin-Function``, ``Plugin.Function``).

    Raises:
        ManualError: an entry is not a tool in any known format (the message names its index).
    """
    data = tools
    if isinstance(tools, (str, bytes)):
        raw = tools.encode("utf-8", "surrogatepass") if isinstance(tools, str) else tools
        data = parse_document(raw, None, ManualError, strict_json=True)
    if isinstance(data, Mapping) and "tools" in data:
        data = data["tools"]
    if isinstance(data, Mapping):
        data = [data]
    if not isinstance(data, list):
        raise ManualError("a tool list must be a JSON array or an object with 'tools'")
    read: list[tuple[Any, FunctionView]] = []
    for i, entry in enumerate(data):
        where = f"$[{i}]"
        try:
            read.extend(_read_tool(entry, where))
        except (TypeError, ValueError, AttributeError, KeyError) as exc:
            # a field of the wrong JSON type somewhere inside the entry
            raise ManualError(
                f"not a tool in any known format ({snippet(str(exc))})", where=where
            ) from None
    if names is None:
        return [view for _, view in read]
    return [
        _renamed(view, names.lookup(raw) if isinstance(raw, str) else None) for raw, view in read
    ]


def _read_tool(entry: Any, where: str) -> list[tuple[Any, FunctionView]]:
    """The views one entry of a tool list holds (a Gemini tool holds several)."""
    if not isinstance(entry, Mapping):
        raise ManualError("a tool must be an object", where=where)
    if "functionDeclarations" in entry:
        declarations = entry["functionDeclarations"]
        if not isinstance(declarations, list):
            raise ManualError("must be an array", where=f"{where}.functionDeclarations")
        views = []
        for j, decl in enumerate(declarations):
            at = f"{where}.functionDeclarations[{j}]"
            if not isinstance(decl, Mapping):
                raise ManualError("a function declaration must be an object", where=at)
            views.append((decl.get("name"), _read_gemini(decl, at)))
        return views
    inner = entry.get("function")
    tool: Mapping[str, Any] = inner if isinstance(inner, Mapping) else entry
    return [(tool.get("name"), _read_entry(entry, where))]


def _renamed(view: FunctionView, original: tuple[str, str] | None) -> FunctionView:
    if original is None:
        return view
    return dataclasses.replace(view, plugin_name=original[0], name=original[1])


def _read_entry(entry: Mapping[str, Any], where: str) -> FunctionView:
    if entry.get("type") == "function" and isinstance(entry.get("function"), Mapping):
        fn = entry["function"]
        return _view(fn, "-", fn.get("parameters"), None, where, strict_absent_extra=False)
    if "input_schema" in entry:
        return _view(entry, "-", entry["input_schema"], None, where, strict_absent_extra=False)
    if "inputSchema" in entry:
        output = entry.get("outputSchema")
        meta = entry.get("_meta") or {}
        if output is not None and meta.get(_WRAPPED):
            output = _unwrap(output)
        return _view(entry, ".", entry["inputSchema"], output, where, strict_absent_extra=False)
    if "responses" in entry or ("parameters" in entry and entry.get("type") != "function"):
        response = (entry.get("responses") or {}).get("200") or {}
        content = (response.get("content") or {}).get("application/json") or {}
        ret = ReturnParameterView(
            description=response.get("description"), schema=content.get("schema")
        )
        return _view(
            entry, ".", entry.get("parameters"), None, where, strict_absent_extra=True, ret=ret
        )
    if entry.get("type") == "function" and "name" in entry:  # OpenAI Responses API tool
        return _view(
            entry,
            "-",
            entry.get("parameters"),
            entry.get("output_schema"),
            where,
            strict_absent_extra=False,
        )
    raise ManualError("not a tool in any known format", where=where)


def _unwrap(output: Mapping[str, Any]) -> dict[str, Any]:
    inner = dict(output["properties"]["result"])
    if "$defs" in output:
        inner["$defs"] = output["$defs"]
    return inner


def _read_gemini(decl: Mapping[str, Any], where: str) -> FunctionView:
    params = decl.get("parametersJsonSchema")
    if params is None and decl.get("parameters") is not None:
        params = from_gemini(decl["parameters"])
    ret = decl.get("responseJsonSchema")
    if ret is None and decl.get("response") is not None:
        ret = from_gemini(decl["response"])
    return _view(decl, ".", params, ret, where, strict_absent_extra=True)


def _view(
    entry: Mapping[str, Any],
    separator: str,
    params: Any,
    output: Any,
    where: str,
    *,
    strict_absent_extra: bool,
    ret: ReturnParameterView | None = None,
) -> FunctionView:
    name = entry.get("name")
    if not isinstance(name, str) or not name:
        raise ManualError("a tool needs a non-empty 'name'", where=where)
    plugin, func = _split_name(name, separator)
    parameters, accepts_extra = _parameters(params, where, strict_absent_extra)
    if ret is None:
        ret = ReturnParameterView(schema=_output_schema(output, f"{where}.outputSchema"))
    elif ret.schema is not None:
        _output_schema(ret.schema, f"{where}.responses")
    try:
        return FunctionView(
            name=func,
            plugin_name=plugin,
            description=entry.get("description") or "",
            parameters=tuple(parameters),
            return_parameter=ret,
            accepts_extra=accepts_extra,
        )
    except Exception as exc:
        raise ManualError(str(exc), where=where) from None


def _output_schema(output: Any, where: str) -> Any:
    """A return schema as read, once the schema model has admitted it."""
    if output is None:
        return None
    try:
        model = parse(output)
    except SchemaError as exc:
        raise ManualError(f"the output is not a JSON Schema: {exc.message}", where=where) from None
    for problem in model.unsupported:
        if problem.pointer == "" and problem.keyword == "schema":
            raise ManualError(f"the output schema {problem.reason}", where=where)
    return output


def _parameters(
    params: Any, where: str, strict_absent_extra: bool
) -> tuple[list[ParameterView], bool]:
    """One view per property of the arguments schema, read through the schema model.

    Each parameter's schema is its property's node written back (draft 2020-12), with
    the definitions it needs under ``$defs``. ``additionalProperties`` left out means
    "no more" for the formats that say so (planner, Gemini: ``strict_absent_extra``) and
    "any more" for the others.
    """
    if not params:
        return [], False
    try:
        model = parse(params)
    except SchemaError as exc:
        raise ManualError(
            f"parameters are not a JSON Schema: {exc.message}", where=f"{where}.parameters"
        ) from None
    root = model.resolve(model.root) if isinstance(model.root, RefNode) else model.root
    if not isinstance(root, ObjectNode) or (root.implied and not root.properties):
        raise ManualError("parameters must be an object schema", where=f"{where}.parameters")
    write = Emitter(model)
    parameters = []
    for prop in root.properties:
        sub = write.emit(prop.node)
        used = model.definitions_used(prop.node)
        if used:
            sub["$defs"] = {name: write.emit(model.definitions[name]) for name in used}
        node = prop.node
        parameters.append(
            ParameterView(
                name=prop.name,
                description=node.description,
                default_value=thaw(node.default) if node.has_default else None,
                is_required=prop.required,
                schema=sub,
            )
        )
    said = isinstance(params, Mapping) and "additionalProperties" in params
    open_ = not isinstance(root.additional, NeverNode)
    return parameters, open_ and (said or not strict_absent_extra)


def from_gemini(schema: Any) -> Any:
    """Convert a Gemini (OpenAPI subset) schema back to draft 2020-12."""
    if isinstance(schema, list):
        return [from_gemini(s) for s in schema]
    if not isinstance(schema, Mapping):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in ("properties", "defs"):
            out["$defs" if key == "defs" else key] = {k: from_gemini(v) for k, v in value.items()}
        elif key in ("items", "anyOf"):
            out[key] = from_gemini(value)
        elif key == "ref":
            out["$ref"] = str(value).replace("#/defs/", "#/$defs/")
        elif key in ("nullable", "propertyOrdering"):
            continue
        elif key == "type" and isinstance(value, str):
            out["type"] = value.lower()
        else:
            out[key] = value
    if out.get("format") == "enum" and out.get("type") in ("integer", "number"):
        cast = int if out["type"] == "integer" else float
        out["enum"] = [cast(v) for v in out.get("enum", ())]
        out.pop("format")
    if schema.get("nullable"):
        t = out.get("type")
        if isinstance(t, str):
            out["type"] = [t, "null"]
        elif "anyOf" in out:
            out["anyOf"] = [*out["anyOf"], {"type": "null"}]
        else:
            out = {"anyOf": [out, {"type": "null"}]} if out else {"type": "null"}
    return out
