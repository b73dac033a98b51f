"""Writing ``$defs`` references in place, exactly: the schema accepts the same values after.

Only local references into the root's ``$defs`` (``#/$defs/Name``) are written in place, and
only when that is exact: the definition is not recursive, and the reference's sibling
keywords do not repeat one of the definition's (``{"$ref": …, "description": …}`` beside a
definition with its own ``description`` stays a reference: under draft 2020-12 both apply).
Every other reference, and the definitions it needs, stay as they are.

Used where a schema is read many times and references cost: the compiled yes-check (which
does not follow ``$ref``) and the tool listings of the MCP server (a definition used once is
shorter in place).
"""

from __future__ import annotations

from typing import Any

from sktypes.schema._walk import SCHEMA_LIST_KEYS, SCHEMA_MAP_KEYS, SCHEMA_VALUE_KEYS

__all__ = ["inline_refs", "unused_definitions_dropped"]

_PREFIX = "#/$defs/"
_DEFS = frozenset({"$defs", "definitions"})


def inline_refs(schema: Any, *, single_use: bool = False) -> Any:
    """``schema`` with the references that can be written in place, written in place.

    Args:
        schema: a JSON Schema (plain dicts and lists), ``$defs`` at the root.
        single_use: only definitions referenced exactly once (the result is never larger).

    Returns the schema itself when nothing changes; a new dict otherwise (the input is not
    modified). Definitions no longer referenced are dropped.
    """
    if not isinstance(schema, dict):
        return schema
    defs = schema.get("$defs")
    if not isinstance(defs, dict) or not defs:
        return schema
    uses: dict[str, list[set[str]]] = {}  # name -> the sibling keywords of each use
    edges: dict[str, set[str]] = {}
    mapped: set[str] = set()  # named by a discriminator's mapping: must stay referable
    _uses({k: v for k, v in schema.items() if k != "$defs"}, uses, set(), mapped)
    for name, sub in defs.items():
        edges[name] = set()
        _uses(sub, uses, edges[name], mapped)
    inline = {
        name
        for name, sub in defs.items()
        if isinstance(sub, dict)
        and name in uses
        and name not in mapped
        and (len(uses[name]) == 1 or not single_use)
        and not any(siblings & sub.keys() for siblings in uses[name])
        and not _reaches(name, name, edges)
    }
    if not inline:
        return schema

    def expand(node: Any) -> Any:
        if not isinstance(node, dict):
            return node
        wrapped = _wrapped_ref(node)
        if wrapped is not None and wrapped[0] in inline:  # {"anyOf": [{"$ref": X}], ...}
            return expand({**defs[wrapped[0]], **wrapped[1]})
        ref = node.get("$ref")
        name = ref[len(_PREFIX) :] if isinstance(ref, str) and ref.startswith(_PREFIX) else None
        if name in inline:
            siblings = {k: v for k, v in node.items() if k != "$ref"}
            return expand({**defs[name], **siblings})
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key in SCHEMA_VALUE_KEYS and isinstance(value, dict):
                out[key] = expand(value)
            elif key in SCHEMA_LIST_KEYS and isinstance(value, list):
                out[key] = [expand(v) for v in value]
            elif key in SCHEMA_MAP_KEYS and key not in _DEFS and isinstance(value, dict):
                out[key] = {k: expand(v) for k, v in value.items()}
            else:
                out[key] = value
        return out

    result: dict[str, Any] = expand({k: v for k, v in schema.items() if k != "$defs"})
    kept: dict[str, Any] = {}
    todo = _names(result)
    while todo:
        name = todo.pop()
        if name in kept or name not in defs:
            continue
        kept[name] = expand(defs[name])
        todo.extend(_names(kept[name]))
    if kept:
        result["$defs"] = {name: kept[name] for name in defs if name in kept}
    return result


def unused_definitions_dropped(schema: Any) -> Any:
    """``schema`` without the root ``$defs`` nothing reaches (the same dict if there are none).

    A definition no reference (nor a discriminator's mapping) reaches says nothing about
    what the schema accepts.
    """
    if not isinstance(schema, dict) or not isinstance(schema.get("$defs"), dict):
        return schema
    defs = schema["$defs"]
    kept: set[str] = set()
    todo = _names({k: v for k, v in schema.items() if k != "$defs"})
    while todo:
        name = todo.pop()
        if name in kept or name not in defs:
            continue
        kept.add(name)
        todo.extend(_names(defs[name]))
    if len(kept) == len(defs):
        return schema
    out = {k: v for k, v in schema.items() if k != "$defs"}
    if kept:
        out["$defs"] = {name: sub for name, sub in defs.items() if name in kept}
    return out


def _names(node: Any) -> list[str]:
    found: dict[str, list[set[str]]] = {}
    mapped: set[str] = set()
    _uses(node, found, set(), mapped)
    return [*found, *(name for name in mapped if name not in found)]


def _uses(node: Any, uses: dict[str, list[set[str]]], edges: set[str], mapped: set[str]) -> None:
    """Record each ``#/$defs/X`` reference in a schema (through schema keywords only).

    References in a discriminator's ``mapping`` go to ``mapped``: they are not schemas, but
    they name definitions that must stay.
    """
    if not isinstance(node, dict):
        return
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith(_PREFIX):
        name = ref[len(_PREFIX) :]
        uses.setdefault(name, []).append(set(node) - {"$ref"})
        edges.add(name)
    wrapped = _wrapped_ref(node)
    if wrapped is not None:  # the reference's siblings are its wrapper's
        uses.setdefault(wrapped[0], []).append(set(wrapped[1]))
        edges.add(wrapped[0])
        node = wrapped[1]
    discriminator = node.get("discriminator")
    if isinstance(discriminator, dict) and isinstance(discriminator.get("mapping"), dict):
        for target in discriminator["mapping"].values():
            if isinstance(target, str) and target.startswith(_PREFIX):
                mapped.add(target[len(_PREFIX) :])
                edges.add(target[len(_PREFIX) :])
    for key, value in node.items():
        if key in SCHEMA_VALUE_KEYS and isinstance(value, dict):
            _uses(value, uses, edges, mapped)
        elif key in SCHEMA_LIST_KEYS and isinstance(value, list):
            for v in value:
                _uses(v, uses, edges, mapped)
        elif key in SCHEMA_MAP_KEYS and key not in _DEFS and isinstance(value, dict):
            for v in value.values():
                _uses(v, uses, edges, mapped)


def _wrapped_ref(node: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """``(name, siblings)`` of ``{"anyOf": [{"$ref": "#/$defs/name"}], ...siblings}``.

    A one-option ``anyOf`` (or ``allOf``) around a bare reference is how dialects that
    refuse siblings beside ``$ref`` write one: it is that reference with those siblings.
    """
    for key in ("anyOf", "allOf"):
        options = node.get(key)
        if (
            isinstance(options, list)
            and len(options) == 1
            and isinstance(options[0], dict)
            and set(options[0]) == {"$ref"}
            and "$ref" not in node
            and not ({"anyOf", "allOf", "oneOf"} - {key}) & node.keys()
        ):
            ref = options[0]["$ref"]
            if isinstance(ref, str) and ref.startswith(_PREFIX):
                return ref[len(_PREFIX) :], {k: v for k, v in node.items() if k != key}
    return None


def _reaches(start: str, goal: str, edges: dict[str, set[str]]) -> bool:
    todo, seen = list(edges.get(start, ())), set()
    while todo:
        name = todo.pop()
        if name == goal:
            return True
        if name not in seen:
            seen.add(name)
            todo.extend(edges.get(name, ()))
    return False
