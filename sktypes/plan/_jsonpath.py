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
from sktypes.schema import (
    AnyNode,
    ArrayNode,
    IntersectionNode,
    NeverNode,
    Node,
    ObjectNode,
    OpaqueNode,
    RefNode,
    SchemaModel,
    UnionNode,
    parse,
)
from sktypes.schema._emit import Emitter
from sktypes.schema._merge import conjoin, make_union

__all__ = [
    "PathError",
    "Resolved",
    "Segment",
    "extract",
    "member_names",
    "parse_path",
    "render_path",
    "node_member_names",
    "resolve_node",
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


@dataclass(frozen=True, slots=True)
class Resolved:
    """The schema of the value a path selects, and whether it may be absent.

    ``node`` is the schema model's node (its references resolve through the output's
    model); ``schema`` the same written as draft 2020-12, ``$ref`` s kept (they point into
    the output schema). ``optional`` is ``True`` when some member on the way is not
    required or may be null: the value can be missing at run time even though the path
    is declared.
    """

    node: Node
    optional: bool
    model: SchemaModel

    @property
    def schema(self) -> Any:
        """The node written as draft 2020-12 (``$ref`` s kept)."""
        return Emitter(self.model).emit(self.node)


def resolve_schema(schema: Any, root: Any, segments: Sequence[Segment]) -> Resolved:
    """Follow ``segments`` through ``schema`` (whose ``$ref`` s point into ``root``).

    Raises:
        PathError: a segment names nothing the schema declares; the message lists what is
            there.
    """
    model = parse(root)
    node = model.root if schema is root else model.subschema(schema)
    return resolve_node(model, node, segments)


def resolve_node(model: SchemaModel, node: Node, segments: Sequence[Segment]) -> Resolved:
    """:func:`resolve_schema` on a node of ``model``."""
    optional = False
    for i, seg in enumerate(segments):
        branches = _branches(node, 0)
        found: list[Node] = []
        for branch in branches:
            child, branch_optional = _child(branch, seg)
            if child is not None:
                found.append(child)
                optional = optional or branch_optional
        if not found:
            where = render_path(segments[: i + 1])
            raise PathError(_missing_message(seg, branches), where=where)
        if len(found) < len(branches):
            optional = True  # some alternatives of the value do not have this member
        node = found[0] if len(found) == 1 else make_union(found)
    return Resolved(node, optional, model)


def _deref(node: Node) -> Node:
    for _ in range(_MAX_REF_HOPS):
        if not isinstance(node, RefNode):
            return node
        if node.model is None or not node.model.can_resolve(node):
            raise PathError("reference cannot be followed", where=node.ref)
        node = node.target
    raise PathError("reference cycle", where=node.ref if isinstance(node, RefNode) else "")


def _branches(node: Node, depth: int) -> list[Node]:
    """The alternatives a value of ``node`` may take."""
    node = _deref(node)
    if isinstance(node, UnionNode) and depth < _MAX_REF_HOPS:
        out: list[Node] = []
        for option in node.options:
            out.extend(_branches(option, depth + 1))
        return out
    return [node]


def _child(node: Node, seg: Segment) -> tuple[Node | None, bool]:
    """The node of member/element ``seg`` of ``node``, or ``None`` if it has none."""
    node = _deref(node)
    if isinstance(node, AnyNode):
        return AnyNode(), True  # an untyped value: any member may be there
    if isinstance(node, IntersectionNode):
        declared = [_child(part, seg) for part in node.parts if not isinstance(part, OpaqueNode)]
        kids = [k for k, _ in declared if k is not None]
        if not kids or any(isinstance(k, NeverNode) for k in kids):
            return None, False
        optional = all(o for k, o in declared if k is not None)
        merged = kids[0]
        for kid in kids[1:]:
            merged = conjoin(merged, kid, _target)
        return merged, optional
    if isinstance(seg, str):
        if not isinstance(node, ObjectNode):
            return None, False
        prop = node.prop(seg)
        matching = [prop.node] if prop is not None else []
        matching += [sub for pattern, sub in node.pattern_properties if re.search(pattern, seg)]
        if not matching:
            if not node.is_map:
                return None, False  # undeclared: almost surely a mistake in the plan
            matching = [node.additional]
        child = matching[0]
        for other in matching[1:]:
            child = conjoin(child, other, _target)
        if isinstance(child, NeverNode):
            return None, False
        return child, seg not in node.required
    if not isinstance(node, ArrayNode):
        return None, False
    present = seg < (node.min_items or 0)
    if seg < len(node.prefix_items):
        return node.prefix_items[seg], not present
    if isinstance(node.items, NeverNode):
        return None, False
    return node.items, not present


def _target(ref: RefNode) -> Node | None:
    return ref.target


def _missing_message(seg: Segment, branches: Sequence[Node]) -> str:
    if isinstance(seg, int):
        return f"the value here is not an array with an element [{seg}]"
    names: list[str] = []
    for b in branches:
        names.extend(n for n in _member_names(b, 0) if n not in names)
    if names:
        return f"no member {seg!r} here; it has {', '.join(map(repr, names))}"
    return f"no member {seg!r} here; the value is not an object with declared members"


def member_names(schema: Any, root: Any) -> list[str]:
    """The member names a value of ``schema`` may have (over all its alternatives)."""
    model = parse(root)
    node = model.root if schema is root else model.subschema(schema)
    return node_member_names(node)


def node_member_names(node: Node) -> list[str]:
    """:func:`member_names` of a node."""
    names: list[str] = []
    try:
        branches = _branches(node, 0)
    except PathError:
        return names
    for b in branches:
        names.extend(n for n in _member_names(b, 0) if n not in names)
    return names


def _member_names(node: Node, depth: int) -> list[str]:
    try:
        node = _deref(node)
    except PathError:
        return []
    if isinstance(node, ObjectNode):
        return [p.name for p in node.properties]
    if isinstance(node, IntersectionNode) and depth < _MAX_REF_HOPS:
        names: list[str] = []
        for part in node.parts:
            names.extend(n for n in _member_names(part, depth + 1) if n not in names)
        return names
    return []


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
