"""Draft 2020-12 schemas → provider dialects: openai-strict, openapi-3.0, gemini.

Each dialect is a pure function of a draft 2020-12 schema (``$defs`` at the root). What a
dialect cannot carry is dropped and, when it constrains values, written into the
``description`` so the model still reads it (``(minLength: 3)``); what it cannot express
at all raises :class:`SchemaError` naming the JSON pointer.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, Literal

from sktypes.errors import SchemaError
from sktypes.schema._walk import transform

__all__ = ["DIALECTS", "Dialect", "to_dialect"]

Dialect = Literal["json-schema", "openai-strict", "openapi-3.0", "gemini"]
DIALECTS: tuple[Dialect, ...] = ("json-schema", "openai-strict", "openapi-3.0", "gemini")

GEMINI_RECURSION_DEPTH = 3
"""How many nested times a recursive definition is expanded in the gemini dialect (below
the root) before the recursion is cut: the cut node keeps the definition's type, loses its
properties, and says so in its description."""

_OPENAI_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
)
_OPENAI_KEYS = frozenset(
    {
        "type",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "enum",
        "const",
        "anyOf",
        "$ref",
        "$defs",
        "description",
        "pattern",
        "format",
        "multipleOf",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "minItems",
        "maxItems",
    }
)
_OAS30_KEYS = frozenset(
    {
        "type",
        "format",
        "title",
        "description",
        "default",
        "multipleOf",
        "maximum",
        "exclusiveMaximum",
        "minimum",
        "exclusiveMinimum",
        "maxLength",
        "minLength",
        "pattern",
        "maxItems",
        "minItems",
        "uniqueItems",
        "maxProperties",
        "minProperties",
        "required",
        "enum",
        "properties",
        "additionalProperties",
        "items",
        "allOf",
        "oneOf",
        "anyOf",
        "not",
        "nullable",
        "readOnly",
        "writeOnly",
        "example",
        "deprecated",
        "discriminator",
        "$ref",
    }
)
_GEMINI_KEYS = frozenset(
    {
        "type",
        "format",
        "description",
        "nullable",
        "enum",
        "properties",
        "required",
        "items",
        "minItems",
        "maxItems",
        "minLength",
        "maxLength",
        "pattern",
        "minimum",
        "maximum",
        "minProperties",
        "maxProperties",
        "anyOf",
    }
)
_CONSTRAINTS = (
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
)


def to_dialect(schema: dict[str, Any], dialect: str) -> dict[str, Any]:
    """Return ``schema`` (draft 2020-12) rewritten for ``dialect`` (a new dict)."""
    if dialect == "json-schema":
        return copy.deepcopy(schema)
    convert = _CONVERTERS.get(dialect)
    if convert is None:
        raise SchemaError(f"unknown dialect {dialect!r}; choose one of {', '.join(DIALECTS)}")
    return convert(_inline_root_ref(copy.deepcopy(schema)))


def _inline_root_ref(schema: dict[str, Any]) -> dict[str, Any]:
    """Replace a root that is only a ``$ref`` (a recursive model) by its definition.

    Dialects want a schema at the root (an object for openai-strict, a Schema Object, not
    a Reference, for OpenAPI 3.0); references inside keep pointing at ``$defs``.
    """
    name = _defs_name(schema.get("$ref", "")) if isinstance(schema.get("$ref"), str) else None
    defs = schema.get("$defs", {})
    if name is None or name not in defs:
        return schema
    rest = {k: v for k, v in schema.items() if k not in ("$ref", "$defs")}
    return {**copy.deepcopy(defs[name]), **rest, "$defs": defs}


# --- shared helpers -----------------------------------------------------------------


def _note(node: dict[str, Any], dropped: dict[str, Any]) -> None:
    """Move dropped constraints into the description, so the model still reads them."""
    if not dropped:
        return
    text = ", ".join(f"{k}: {v}" for k, v in dropped.items())
    desc = node.get("description")
    node["description"] = f"{desc} ({text})" if desc else f"({text})"


def _defs_name(ref: str) -> str | None:
    return ref[len("#/$defs/") :] if ref.startswith("#/$defs/") else None


def _nullable_parts(node: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """Split a schema into (schema without null, whether null was allowed)."""
    t = node.get("type")
    if isinstance(t, list) and "null" in t:
        rest = [x for x in t if x != "null"]
        out = dict(node)
        if len(rest) == 1:
            out["type"] = rest[0]
        elif rest:
            out["type"] = rest
        else:
            out.pop("type")
        return out, True
    options = node.get("anyOf")
    if isinstance(options, list) and any(_is_null(o) for o in options):
        rest = [o for o in options if not _is_null(o)]
        out = {k: v for k, v in node.items() if k != "anyOf"}
        if len(rest) == 1:
            inner = rest[0]
            if "$ref" in inner or set(inner) & set(out):
                out["anyOf"] = rest
            else:
                out.update(inner)
        elif rest:
            out["anyOf"] = rest
        return out, True
    return node, False


def _is_null(option: Any) -> bool:
    """A schema that admits only null, before or after a dialect rewrote it."""
    return option in ({"type": "null"}, {"enum": [None], "nullable": True}, {"nullable": True})


def _tuple_to_items(node: dict[str, Any]) -> None:
    prefix = node.pop("prefixItems", None)
    if prefix is None:
        return
    extra = node.get("items")
    options = [*prefix, *([extra] if isinstance(extra, dict) and extra else [])]
    unique = []
    for o in options:
        if o not in unique:
            unique.append(o)
    node["items"] = unique[0] if len(unique) == 1 else {"anyOf": unique}
    node.setdefault("minItems", len(prefix))
    if extra is False or "items" not in node or extra is None:
        node.setdefault("maxItems", len(prefix))


# --- openai-strict ------------------------------------------------------------------


def _openai_strict(schema: dict[str, Any]) -> dict[str, Any]:
    def fix(node: dict[str, Any]) -> dict[str, Any]:
        if "oneOf" in node:
            node["anyOf"] = node.pop("oneOf")
            node.pop("discriminator", None)
        if "allOf" in node:
            parts = node.pop("allOf")
            if len(parts) != 1:
                raise SchemaError("openai-strict does not accept 'allOf'", where="allOf")
            node = {**parts[0], **node}
        if "$ref" in node and len(node) > 1:
            # "$ref" may not have siblings in strict mode: wrap it in a one-option anyOf
            node = {"anyOf": [{"$ref": node.pop("$ref")}], **node}
        _tuple_to_items(node)
        if node.get("format") is not None and node["format"] not in _OPENAI_FORMATS:
            _note(node, {"format": node.pop("format")})
        is_object = node.get("type") == "object" or "properties" in node
        if is_object:
            extra = node.get("additionalProperties")
            if isinstance(extra, dict) or (extra is True and not node.get("properties")):
                raise SchemaError(
                    "openai-strict cannot express an object with arbitrary keys (a mapping)",
                    where="additionalProperties",
                )
            props = node.setdefault("properties", {})
            required = set(node.get("required", ()))
            for name, sub in list(props.items()):
                if name not in required:
                    props[name] = _make_nullable(sub)
            node["required"] = list(props)
            node["additionalProperties"] = False
            node["type"] = "object"
        dropped = {k: node.pop(k) for k in list(node) if k not in _OPENAI_KEYS}
        dropped.pop("default", None)
        dropped.pop("title", None)
        dropped.pop("examples", None)
        dropped.pop("discriminator", None)
        _note(node, {k: v for k, v in dropped.items() if k in _CONSTRAINTS})
        return node

    out: dict[str, Any] = transform(schema, fix)
    if out.get("type") != "object":
        raise SchemaError("openai-strict needs an object at the root", where="/")
    return out


def _make_nullable(sub: dict[str, Any]) -> dict[str, Any]:
    _, already = _nullable_parts(sub)
    if already:
        return sub
    t = sub.get("type")
    if isinstance(t, str) and "enum" not in sub and "const" not in sub:
        return {**sub, "type": [t, "null"]}
    if isinstance(t, list):
        return {**sub, "type": [*t, "null"]}
    if "anyOf" in sub and set(sub) <= {"anyOf", "description"}:
        return {**sub, "anyOf": [*sub["anyOf"], {"type": "null"}]}
    desc = sub.get("description")
    inner = {k: v for k, v in sub.items() if k != "description"}
    out: dict[str, Any] = {"anyOf": [inner, {"type": "null"}]}
    if desc:
        out["description"] = desc
    return out


# --- openapi-3.0 --------------------------------------------------------------------


def _openapi30(schema: dict[str, Any]) -> dict[str, Any]:
    defs: dict[str, Any] = schema.pop("$defs", {})
    recursive = _recursive_defs(defs)

    def fix(node: dict[str, Any]) -> dict[str, Any]:
        node.pop("$schema", None)
        node.pop("$id", None)
        rest, nullable = _nullable_parts(node)
        node = dict(rest)
        t = node.get("type")
        if isinstance(t, list):
            node.pop("type")
            node = {"anyOf": [{"type": x} for x in t], **node}
        if t == "null":
            node.pop("type")
            node["enum"] = [None]
            nullable = True
        if "const" in node:
            node["enum"] = [node.pop("const")]
        for bound, flag in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
            if isinstance(node.get(bound), (int, float)) and not isinstance(node[bound], bool):
                node[flag] = node.pop(bound)
                node[bound] = True
        if "examples" in node:
            examples = node.pop("examples")
            if isinstance(examples, list) and examples:
                node["example"] = examples[0]
        _tuple_to_items(node)
        if node.get("type") == "array" and "items" not in node:
            node["items"] = {}
        if "$ref" in node:
            name = _defs_name(node["$ref"]) or ""
            node["$ref"] = f"#/components/schemas/{name}"
            if len(node) > 1 or nullable:
                ref = {"$ref": node.pop("$ref")}
                node = {"allOf": [ref], **node}
        if nullable:
            node["nullable"] = True
        dropped = {
            k: node.pop(k) for k in list(node) if k not in _OAS30_KEYS and not k.startswith("x-")
        }
        _note(node, {k: v for k, v in dropped.items() if k in _CONSTRAINTS})
        return node

    converted = {name: transform(sub, fix) for name, sub in defs.items()}
    out: dict[str, Any] = _inline_refs(
        transform(schema, fix), converted, keep=recursive, prefix="#/components/schemas/"
    )
    if recursive:
        kept = {
            n: _inline_refs(converted[n], converted, keep=recursive, prefix="#/components/schemas/")
            for n in sorted(recursive)
        }
        out["x-components"] = {"schemas": kept}
    return out


# --- gemini -------------------------------------------------------------------------


def _gemini(schema: dict[str, Any]) -> dict[str, Any]:
    defs: dict[str, Any] = schema.pop("$defs", {})

    def fix(node: dict[str, Any]) -> dict[str, Any]:
        rest, nullable = _nullable_parts(node)
        node = dict(rest)
        if "oneOf" in node:
            node["anyOf"] = node.pop("oneOf")
        if "allOf" in node and len(node["allOf"]) == 1:
            node = {**node.pop("allOf")[0], **node}
        if "const" in node:
            node["enum"] = [node.pop("const")]
        for bound, flag in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
            if bound in node:
                _note(node, {bound: node[bound]})
                node[flag] = node.pop(bound)
        _tuple_to_items(node)
        t = node.get("type")
        if isinstance(t, list):
            node.pop("type")
            node["anyOf"] = [{"type": x.upper()} for x in t]
        elif isinstance(t, str):
            node["type"] = t.upper()
            if t == "null":
                node.pop("type")
                nullable = True
        if "enum" in node:
            values = node["enum"]
            if not all(isinstance(v, str) for v in values):
                kind = node.get("type") or _enum_type(values)
                node["enum"] = [str(v) for v in values if v is not None]
                if None in values:
                    nullable = True
                if kind in ("INTEGER", "NUMBER"):
                    node["type"] = kind
                    node["format"] = "enum"
                else:
                    node["type"] = "STRING"
            else:
                node.setdefault("type", "STRING")
        if node.get("type") == "ARRAY" and "items" not in node:
            node["items"] = {}
        if nullable:
            node["nullable"] = True
        keep_ref = node.get("$ref")
        dropped = {k: node.pop(k) for k in list(node) if k not in _GEMINI_KEYS}
        if keep_ref is not None:
            node["$ref"] = keep_ref
        _note(node, {k: v for k, v in dropped.items() if k in _CONSTRAINTS})
        return node

    converted = {name: transform(sub, fix) for name, sub in defs.items()}
    expanded: dict[str, Any] = transform(_expand(transform(schema, fix), converted, {}), _collapse)
    return expanded


def _collapse(node: dict[str, Any]) -> dict[str, Any]:
    """Merge a one-option ``anyOf`` into its node (left behind by inlined ``$ref``s)."""
    options = node.get("anyOf")
    if isinstance(options, list) and len(options) == 1 and isinstance(options[0], dict):
        rest = {k: v for k, v in node.items() if k != "anyOf"}
        if not set(rest) & set(options[0]) - {"description"}:
            return {**options[0], **rest}
    return node


def _enum_type(values: list[Any]) -> str:
    kinds = {type(v) for v in values if v is not None}
    if kinds <= {int}:
        return "INTEGER"
    if kinds <= {int, float}:
        return "NUMBER"
    return "STRING"


def _expand(node: Any, defs: dict[str, Any], depth: dict[str, int]) -> Any:
    """Inline ``$ref``s; a definition already expanded N times on this path is cut."""
    if isinstance(node, list):
        return [_expand(v, defs, depth) for v in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str):
        name = _defs_name(ref) or ""
        siblings = {k: v for k, v in node.items() if k != "$ref"}
        target = defs.get(name)
        if target is None:
            raise SchemaError(f"dangling $ref {ref!r}", where=ref)
        if depth.get(name, 0) >= GEMINI_RECURSION_DEPTH:
            cut: dict[str, Any] = {"type": target.get("type", "OBJECT")}
            cut["description"] = f"{name} (recursion cut at depth {GEMINI_RECURSION_DEPTH})"
            return {**cut, **siblings}
        inner = _expand(target, defs, {**depth, name: depth.get(name, 0) + 1})
        return {**inner, **siblings}
    return {k: _expand(v, defs, depth) if k != "enum" else v for k, v in node.items()}


# --- $defs analysis -----------------------------------------------------------------


def _refs_in(node: Any) -> set[str]:
    found: set[str] = set()
    stack = [node]
    while stack:
        cur = stack.pop()
        if isinstance(cur, dict):
            ref = cur.get("$ref")
            if isinstance(ref, str):
                name = _defs_name(ref)
                if name is not None:
                    found.add(name)
            stack.extend(cur.values())
        elif isinstance(cur, list):
            stack.extend(cur)
    return found


def _recursive_defs(defs: dict[str, Any]) -> set[str]:
    """Names of definitions that can reach themselves through ``$ref``s."""
    edges = {name: _refs_in(sub) for name, sub in defs.items()}
    out: set[str] = set()
    for start in edges:
        seen: set[str] = set()
        stack = list(edges[start])
        while stack:
            cur = stack.pop()
            if cur == start:
                out.add(start)
                break
            if cur in seen:
                continue
            seen.add(cur)
            stack.extend(edges.get(cur, ()))
    return out


def _inline_refs(node: Any, defs: dict[str, Any], *, keep: set[str], prefix: str) -> Any:
    if isinstance(node, list):
        return [_inline_refs(v, defs, keep=keep, prefix=prefix) for v in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith(prefix):
        name = ref[len(prefix) :]
        if name not in keep and name in defs:
            siblings = {k: v for k, v in node.items() if k != "$ref"}
            return {**_inline_refs(defs[name], defs, keep=keep, prefix=prefix), **siblings}
    return {k: _inline_refs(v, defs, keep=keep, prefix=prefix) for k, v in node.items()}


_CONVERTERS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "openai-strict": _openai_strict,
    "openapi-3.0": _openapi30,
    "gemini": _gemini,
}
