"""What the dialect writers share.

Constraints a dialect drops are noted in the description; the root; the keywords kept;
tuples said as ``items``.
"""

from __future__ import annotations

from typing import Any

import orjson

from sktypes.schema._emit import (
    Emitter,
    is_plain_any,
)
from sktypes.schema._model import SchemaModel
from sktypes.schema._nodes import (
    ArrayNode,
    NeverNode,
    Node,
    RefNode,
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
    "contains",
    "minContains",
    "maxContains",
    "propertyNames",
    "patternProperties",
    "contentEncoding",
    "contentMediaType",
)
_NULL = {"type": "null"}

Json = dict[str, Any]


def _root(model: SchemaModel) -> Node:
    """The root; a root that is only a reference is written as its definition.

    Dialects want a schema at the root (an object for openai-strict, a Schema Object,
    not a Reference, for OpenAPI 3.0); references inside keep pointing at definitions.
    """
    root = model.root
    if isinstance(root, RefNode) and model.can_resolve(root):
        target = model.resolve(root)
        own = dict(root.annotations())
        return target.replace(**own) if own else target
    return root


def _note(out: Json, dropped: Json) -> None:
    """Move dropped constraints into the description, so the model still reads them."""
    if not dropped:
        return
    text = ", ".join(f"{k}: {_text(v)}" for k, v in dropped.items())
    desc = out.get("description")
    out["description"] = f"{desc} ({text})" if desc else f"({text})"


def _text(value: Any) -> str:
    if isinstance(value, (dict, list)):
        return orjson.dumps(value).decode()
    return str(value)


def _keep(out: Json, allowed: frozenset[str], *, extensions: bool = False) -> Json:
    """Drop what ``allowed`` does not hold; constraints among it go into the description."""
    dropped = {
        k: out.pop(k)
        for k in list(out)
        if k not in allowed and not (extensions and k.startswith("x-"))
    }
    _note(out, {k: v for k, v in dropped.items() if k in _CONSTRAINTS})
    return out


def _tuple_as_items(emitter: Emitter, node: ArrayNode, out: Json) -> None:
    """``prefixItems`` written as ``items`` (an ``anyOf`` of the positions) and counts.

    Which schema holds at which position is then lost: when the positions differ, they are
    said in the description (``(prefixItems: [{"type":"integer"},{"type":"string"}])``), as
    every other keyword a dialect drops.
    """
    if not node.prefix_items:
        return
    out.pop("prefixItems", None)
    options: list[Any] = [emitter.emit(p) for p in node.prefix_items]
    if any(o != options[0] for o in options):
        _note(out, {"prefixItems": options})
    if not isinstance(node.items, NeverNode) and not is_plain_any(node.items):
        options.append(emitter.emit(node.items))
    unique: list[Any] = []
    for o in options:
        if o not in unique:
            unique.append(o)
    out["items"] = unique[0] if len(unique) == 1 else {"anyOf": unique}
    size = len(node.prefix_items)
    out["minItems"] = (
        max(out.get("minItems", 0), size) if node.min_items is None else out["minItems"]
    )
    if isinstance(node.items, NeverNode):
        out["maxItems"] = min(out.get("maxItems", size), size)


def _resolver(ref: RefNode) -> Node | None:
    return ref.target
