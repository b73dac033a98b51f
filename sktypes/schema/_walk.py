"""Schema-aware traversal: visit every subschema of a JSON Schema, keyword by keyword.

Property *names* are not schemas: a property called ``title`` or ``$ref`` is data and
must survive transformations that drop the ``title`` keyword or rewrite ``$ref``s.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from sktypes import _pointer

__all__ = [
    "SCHEMA_LIST_KEYS",
    "SCHEMA_MAP_KEYS",
    "SCHEMA_VALUE_KEYS",
    "rename_refs",
    "transform",
]

# keywords whose value is a schema
SCHEMA_VALUE_KEYS = frozenset(
    {
        "items",
        "additionalProperties",
        "additionalItems",
        "not",
        "if",
        "then",
        "else",
        "contains",
        "propertyNames",
        "unevaluatedItems",
        "unevaluatedProperties",
        "contentSchema",
    }
)
# keywords whose value is a list of schemas
SCHEMA_LIST_KEYS = frozenset({"anyOf", "oneOf", "allOf", "prefixItems"})
# keywords whose value maps names to schemas
SCHEMA_MAP_KEYS = frozenset(
    {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
)

Node = dict[str, Any]


def transform(schema: Any, fn: Callable[[Node], Node]) -> Any:
    """Return a copy of ``schema`` with ``fn`` applied bottom-up to every schema object.

    ``fn`` receives a fresh dict whose subschemas are already transformed and returns the
    replacement. Boolean schemas are left as they are.
    """
    if not isinstance(schema, dict):
        return schema
    out: Node = {}
    for key, value in schema.items():
        if key in SCHEMA_VALUE_KEYS and isinstance(value, dict):
            out[key] = transform(value, fn)
        elif isinstance(value, list) and (key in SCHEMA_LIST_KEYS or key == "items"):
            out[key] = [transform(v, fn) for v in value]  # "items" as a list: draft-04 tuples
        elif key in SCHEMA_MAP_KEYS and isinstance(value, dict):
            out[key] = {k: transform(v, fn) for k, v in value.items()}
        else:
            out[key] = value
    return fn(out)


def rename_refs(schema: Any, renames: Mapping[str, str]) -> Any:
    """A copy of ``schema`` whose references to renamed ``$defs`` use the new names.

    Only references are rewritten (``$ref`` and discriminator mappings, in schema
    positions): a property called ``$ref``, or a ``$ref`` member inside an ``enum`` or a
    ``default``, is data and stays as it is.
    """

    def new_ref(ref: Any) -> Any:
        if not isinstance(ref, str) or not ref.startswith("#/$defs/"):
            return ref
        tokens = _pointer.split(ref)
        if len(tokens) != 2 or tokens[1] not in renames:
            return ref
        return "#" + _pointer.join("", "$defs", renames[tokens[1]], *tokens[2:])

    def fix(node: Node) -> Node:
        if "$ref" in node:
            node["$ref"] = new_ref(node["$ref"])
        disc = node.get("discriminator")
        if isinstance(disc, Mapping) and isinstance(disc.get("mapping"), Mapping):
            mapping = {k: new_ref(v) for k, v in disc["mapping"].items()}
            node["discriminator"] = {**disc, "mapping": mapping}
        return node

    return transform(schema, fix)
