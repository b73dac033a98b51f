"""JSONPath into a step's output: parse, render, resolve over a schema, extract from a value.

Plans name a part of a step's output with a *singular* JSONPath (RFC 9535 "singular query"):
``$``, member names (``$.date``, ``$['odd key']``) and non-negative array indexes
(``$.days[0]``). Wildcards, slices, filters and descendants select several values and have
no single type, so they are refused.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sktypes.errors import PlanError

__all__ = [
    "PathError",
    "Resolved",
    "Segment",
    "extract",
    "member_names",
    "parse_path",
    "render_path",
    "resolve_pointer",
    "resolve_schema",
]

Segment = str | int
"""A member name (``str``) or an array index (``int``)."""

_SEGMENT = re.compile(
    r"""\.(?P<name>[A-Za-z_$][\w$-]*)"""
    r"""|\[(?P<index>0|[1-9]\d*)\]"""
    r"""|\[(?P<q>['"])(?P<quoted>(?:\\.|(?!(?P=q)).)*)(?P=q)\]"""
)
_PLAIN = re.compile(r"[A-Za-z_$][\w$-]*\Z")
_MAX_REF_HOPS = 32


class PathError(PlanError):
    """A JSONPath that cannot be parsed, or names nothing in a schema or value."""


def parse_path(path: str) -> tuple[Segment, ...]:
    """Parse ``$.a[0]['b c']`` into ``("a", 0, "b c")``.

    Raises:
        PathError: not a singular JSONPath (the message names the offending position).
    """
    if not path.startswith("$"):
        raise PathError("a path must start with '$' (e.g. '$.date')", where=path)
    segments: list[Segment] = []
    pos = 1
    while pos < len(path):
        m = _SEGMENT.match(path, pos)
        if m is None:
            raise PathError(
                f"cannot read the path at character {pos + 1} ({path[pos:][:20]!r}); use "
                "member names and array indexes only, like $.days[0].date",
                where=path,
            )
        if m["name"] is not None:
            segments.append(m["name"])
        elif m["index"] is not None:
            segments.append(int(m["index"]))
        else:
            segments.append(re.sub(r"\\(.)", r"\1", m["quoted"]))
        pos = m.end()
    return tuple(segments)


def render_path(segments: Sequence[Segment]) -> str:
    """Render segments back as a JSONPath (``$.a[0]['b c']``)."""
    out = "$"
    for seg in segments:
        if isinstance(seg, int):
            out += f"[{seg}]"
        elif _PLAIN.match(seg):
            out += f".{seg}"
        else:
            out += "['" + seg.replace("\\", "\\\\").replace("'", "\\'") + "']"
    return out


def resolve_pointer(root: Any, ref: str) -> Any:
    """Return the schema a local ``$ref`` (``#``, ``#/$defs/X``) points at inside ``root``.

    Raises:
        PathError: the reference is not local or points at nothing.
    """
    if not ref.startswith("#"):
        raise PathError("only local references ('#/...') can be followed", where=ref)
    node = root
    for raw in ref[1:].split("/")[1:] if ref != "#" else []:
        token = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, Mapping) and token in node:
            node = node[token]
        elif isinstance(node, Sequence) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            raise PathError("reference points at nothing", where=ref)
    return node


@dataclass(frozen=True, slots=True)
class Resolved:
    """The schema of the value a path selects, and whether it may be absent.

    ``schema`` keeps its ``$ref`` s, which point into the same root as the output schema.
    ``optional`` is ``True`` when some member on the way is not required or may be null:
    the value can be missing at run time even though the path is declared.
    """

    schema: Any
    optional: bool


def resolve_schema(schema: Any, root: Any, segments: Sequence[Segment]) -> Resolved:
    """Follow ``segments`` through ``schema`` (whose ``$ref`` s point into ``root``).

    Raises:
        PathError: a segment names nothing the schema declares; the message lists what is
            there.
    """
    optional = False
    node = schema
    for i, seg in enumerate(segments):
        branches = _branches(node, root)
        found: list[Any] = []
        for branch in branches:
            child, branch_optional = _child(branch, root, seg)
            if child is not None:
                found.append(child)
                optional = optional or branch_optional
        if not found:
            where = render_path(segments[: i + 1])
            raise PathError(_missing_message(seg, branches, root), where=where)
        if len(found) < len(branches):
            optional = True  # some alternatives of the value do not have this member
        node = found[0] if len(found) == 1 else {"anyOf": found}
    return Resolved(node, optional)


def _deref(schema: Any, root: Any) -> Any:
    hops = 0
    while isinstance(schema, Mapping) and isinstance(schema.get("$ref"), str):
        siblings = {k: v for k, v in schema.items() if k != "$ref"}
        target = resolve_pointer(root, schema["$ref"])
        if _has_assertions(siblings):
            return {"allOf": [target, siblings]}
        schema = target
        hops += 1
        if hops > _MAX_REF_HOPS:
            raise PathError("reference cycle", where=str(schema.get("$ref")))
    return schema


_NON_ASSERTING = frozenset(
    {"title", "description", "default", "examples", "$comment", "deprecated", "readOnly",
     "writeOnly", "$defs", "definitions", "$schema", "$id", "$anchor"}
)  # fmt: skip


def _has_assertions(schema: Mapping[str, Any]) -> bool:
    return any(k not in _NON_ASSERTING and not k.startswith("x-") for k in schema)


def _branches(schema: Any, root: Any) -> list[Any]:
    """The alternatives a value of ``schema`` may take (nulls dropped: a path cannot go on)."""
    schema = _deref(schema, root)
    if not isinstance(schema, Mapping):
        return [schema]
    for key in ("anyOf", "oneOf"):
        options = schema.get(key)
        if isinstance(options, Sequence) and options:
            base = {k: v for k, v in schema.items() if k != key}
            out: list[Any] = []
            for option in options:
                merged = {"allOf": [base, option]} if _has_assertions(base) else option
                out.extend(_branches(merged, root))
            return out
    return [schema]


def _child(schema: Any, root: Any, seg: Segment) -> tuple[Any, bool]:
    """The schema of member/element ``seg`` of ``schema``, or ``None`` if it has none."""
    if schema is True or (isinstance(schema, Mapping) and not _has_assertions(schema)):
        return {}, True  # an untyped value: any member may be there
    if not isinstance(schema, Mapping):
        return None, False
    if "allOf" in schema:
        parts = [_child(_deref(s, root), root, seg) for s in schema["allOf"]]
        own = {k: v for k, v in schema.items() if k != "allOf"}
        if _has_assertions(own):
            parts.append(_child(own, root, seg))
        declared = [p for p in parts if p[0] is not None]
        if not declared or any(p[0] is False for p in declared):
            return None, False
        optional = all(p[1] for p in declared)
        kids = [p[0] for p in declared]
        return (kids[0] if len(kids) == 1 else {"allOf": kids}), optional
    types = schema.get("type")
    if isinstance(seg, str):
        if types is not None and "object" not in _as_list(types):
            return None, False
        props = schema.get("properties") or {}
        matching = [props[seg]] if seg in props else []
        for pattern, sub in (schema.get("patternProperties") or {}).items():
            if re.search(pattern, seg):
                matching.append(sub)
        required = seg in (schema.get("required") or ())
        if not matching:
            extra = schema.get("additionalProperties")
            if extra is None or extra is False:
                return None, False  # undeclared: almost surely a mistake in the plan
            matching = [{} if extra is True else extra]
        child = matching[0] if len(matching) == 1 else {"allOf": matching}
        return (None, False) if child is False else (child, not required)
    if types is not None and "array" not in _as_list(types):
        return None, False
    prefix = schema.get("prefixItems") or ()
    present = seg < int(schema.get("minItems", 0))
    if seg < len(prefix):
        return prefix[seg], not present
    items = schema.get("items")
    if items is None or items is False:
        return None, False
    return (items if items is not True else {}), not present


def _as_list(types: Any) -> list[Any]:
    return list(types) if isinstance(types, (list, tuple)) else [types]


def _missing_message(seg: Segment, branches: Sequence[Any], root: Any) -> str:
    if isinstance(seg, int):
        return f"the value here is not an array with an element [{seg}]"
    names: list[str] = []
    for b in branches:
        if isinstance(b, Mapping):
            names.extend(n for n in _member_names(b, root) if n not in names)
    if names:
        return f"no member {seg!r} here; it has {', '.join(map(repr, names))}"
    return f"no member {seg!r} here; the value is not an object with declared members"


def member_names(schema: Any, root: Any) -> list[str]:
    """The member names a value of ``schema`` may have (over all its alternatives)."""
    names: list[str] = []
    try:
        branches = _branches(schema, root)
    except PathError:
        return names
    for b in branches:
        if isinstance(b, Mapping):
            names.extend(n for n in _member_names(b, root) if n not in names)
    return names


def _member_names(schema: Mapping[str, Any], root: Any) -> list[str]:
    names = list(schema.get("properties") or ())
    for sub in schema.get("allOf") or ():
        sub = _deref(sub, root)
        if isinstance(sub, Mapping):
            names.extend(_member_names(sub, root))
    return names


def extract(value: Any, segments: Sequence[Segment]) -> Any:
    """Return the part of a JSON value that ``segments`` select.

    Raises:
        PathError: the value has no such member or element (names the path so far).
    """
    node = value
    for i, seg in enumerate(segments):
        is_member = isinstance(seg, str) and isinstance(node, Mapping) and seg in node
        is_element = (
            isinstance(seg, int)
            and isinstance(node, Sequence)
            and not isinstance(node, str)
            and seg < len(node)
        )
        if is_member or is_element:
            node = node[seg]
        else:
            kind = type(node).__name__ if node is not None else "null"
            where = render_path(segments[: i + 1])
            raise PathError(f"the value has no {seg!r} here (it is {kind})", where=where)
    return node
