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

__all__ = ["inline_refs"]

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
    _uses({k: v for k, v in schema.items() if k != "$defs"}, uses, set())
    for name, sub in defs.items():
        edges[name] = set()
        _uses(sub, uses, edges[name])
    inline = {
        name
        for name, sub in defs.items()
        if isinstance(sub, dict)
        and name in uses
        and (len(uses[name]) == 1 or not single_use)
        and not any(siblings & sub.keys() for siblings in uses[name])
        and not _reaches(name, name, edges)
    }
    if not inline:
        return schema

    def expand(node: Any) -> Any:
        if not isinstance(node, dict):
            return node
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


def _names(node: Any) -> list[str]:
    found: dict[str, list[set[str]]] = {}
    _uses(node, found, set())
    return list(found)


def _uses(node: Any, uses: dict[str, list[set[str]]], edges: set[str]) -> None:
    """Record each ``#/$defs/X`` reference in a schema (through schema keywords only)."""
    if not isinstance(node, dict):
        return
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith(_PREFIX):
        name = ref[len(_PREFIX) :]
        uses.setdefault(name, []).append(set(node) - {"$ref"})
        edges.add(name)
    for key, value in node.items():
        if key in SCHEMA_VALUE_KEYS and isinstance(value, dict):
            _uses(value, uses, edges)
        elif key in SCHEMA_LIST_KEYS and isinstance(value, list):
            for v in value:
                _uses(v, uses, edges)
        elif key in SCHEMA_MAP_KEYS and key not in _DEFS and isinstance(value, dict):
            for v in value.values():
                _uses(v, uses, edges)


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
