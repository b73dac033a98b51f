"""Tool lists → views: OpenAI (Chat Completions, Responses), Anthropic, Gemini, MCP, planner.

Each parameter's schema is its property read through the schema model and written back
(draft 2020-12, the definitions it needs under ``$defs``), in the shortest exact form the
manual writes at ``full``: reading what :func:`functions_manual` wrote and writing it again
gives the same manual.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from sktypes._documents import parse_document
from sktypes.errors import ManualError, SchemaError, snippet
from sktypes.jsondoc import thaw
from sktypes.manual._names import NameTable, split_name
from sktypes.schema import NeverNode, ObjectNode, RefNode, parse
from sktypes.schema._emit import Emitter
from sktypes.views import FunctionView, ParameterView, ReturnParameterView

__all__ = ["WRAPPED", "from_gemini", "views_from_manual"]

WRAPPED = "sktypes/result-wrapped"
"""The MCP tool ``_meta`` key saying the result is wrapped as ``{"result": ...}``."""


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
        if output is not None and meta.get(WRAPPED):
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
    plugin, func = split_name(name, separator)
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
        defs = _definitions(sub, model, write)
        if defs:
            sub["$defs"] = defs
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


def _definitions(sub: dict[str, Any], model: Any, write: Emitter) -> dict[str, Any]:
    """The definitions a written parameter schema refers to (``#/$defs/X``), transitively.

    Read from what was written, so references inside keywords kept as written (an
    ``items`` beside ``type: string``) keep their definitions too.
    """
    found: dict[str, Any] = {}
    todo: list[Any] = [sub]
    while todo:
        current = todo.pop()
        if isinstance(current, dict):
            ref = current.get("$ref")
            name = (
                ref[len("#/$defs/") :]
                if isinstance(ref, str) and ref.startswith("#/$defs/")
                else None
            )
            if name is not None and name not in found and name in model.definitions:
                found[name] = write.emit(model.definitions[name])
                todo.append(found[name])
            mapping = (current.get("discriminator") or {}).get("mapping")
            if isinstance(mapping, dict):
                todo.extend({"$ref": target} for target in mapping.values())
            todo.extend(current.values())
        elif isinstance(current, list):
            todo.extend(current)
    return {name: found[name] for name in model.definitions if name in found}


def _number(text: Any) -> Any:
    """A number Gemini wrote as text (``"2"`` is 2, ``"2.0"`` 2.0: written as it was)."""
    if not isinstance(text, str):
        return text
    try:
        return int(text)
    except ValueError:
        return float(text)


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
        out["enum"] = [_number(v) for v in out.get("enum", ())]
        out.pop("format")
    if schema.get("nullable"):
        t = out.get("type")
        if isinstance(out.get("enum"), list) and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]  # listed values are all a value may be
        if isinstance(t, str):
            out["type"] = [t, "null"]
        elif "anyOf" in out:
            out["anyOf"] = [*out["anyOf"], {"type": "null"}]
        else:
            out = {"anyOf": [out, {"type": "null"}]} if out else {"type": "null"}
    return out
