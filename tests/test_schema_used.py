"""``SchemaModel.definitions_used`` reads the definitions it needs as written, parsing none.

Pagination asks it for the item schema of every paginated operation (each operation's own
self-contained response schema): parsing all the definitions of each made Stripe's 98
paginated operations parse ~300 definitions each (a quadratic over shared components).
What a copy of a node with its definitions needs is what those definitions say as written
(an ``allOf`` merged in the model is still written as a ``$ref``).
"""

from __future__ import annotations

from typing import Any

import pytest

import sktypes.schema as S
from sktypes.schema._parse import Parser


def _schema(unrelated: int) -> dict[str, Any]:
    defs: dict[str, Any] = {
        "Item": {"type": "object", "properties": {"owner": {"$ref": "#/$defs/Owner"}}},
        "Owner": {"type": "object", "properties": {"name": {"type": "string"}}},
    }
    for i in range(unrelated):
        defs[f"Other{i}"] = {"type": "object", "properties": {"x": {"$ref": "#/$defs/Owner"}}}
    return {"type": "array", "items": {"$ref": "#/$defs/Item"}, "$defs": defs}


def test_no_definition_is_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    parsed: list[str] = []
    at = Parser.at

    def spy(self: Parser, pointer: str) -> S.Node:
        if pointer not in self.nodes:
            parsed.append(pointer)
        return at(self, pointer)

    monkeypatch.setattr(Parser, "at", spy)
    model = S.parse(_schema(200))
    root = model.root
    assert isinstance(root, S.ArrayNode)
    assert model.definitions_used(root.items) == ["Item", "Owner"]
    assert parsed == [""]  # the root, parsed by S.parse


def test_used_definitions_keep_document_order() -> None:
    schema = _schema(3)
    schema["$defs"] = dict(reversed(list(schema["$defs"].items())))
    model = S.parse(schema)
    root = model.root
    assert isinstance(root, S.ArrayNode)
    assert model.definitions_used(root.items) == ["Owner", "Item"]
    assert model.definitions_used(root) == ["Owner", "Item"]


def test_a_merged_definition_is_used() -> None:
    """A copy of ``Item`` holds its ``allOf`` as written: ``Base`` must come with it."""
    model = S.parse(
        {
            "type": "array",
            "items": {"$ref": "#/$defs/Item"},
            "$defs": {
                "Item": {"allOf": [{"$ref": "#/$defs/Base"}, {"properties": {"b": {}}}]},
                "Base": {"type": "object", "properties": {"a": {"$ref": "#/$defs/Leaf"}}},
                "Leaf": {"type": "integer"},
                "Unused": {"type": "string"},
            },
        }
    )
    root = model.root
    assert isinstance(root, S.ArrayNode)
    assert model.definitions_used(root.items) == ["Item", "Base", "Leaf"]


def test_an_inline_merge_and_a_reference_into_a_definition() -> None:
    model = S.parse(
        {
            "allOf": [{"$ref": "#/$defs/Base"}, {"properties": {"c": {"$ref": "#/$defs/A/x"}}}],
            "$defs": {"Base": {"type": "object"}, "A": {"x": {"type": "string"}}, "B": {}},
        }
    )
    assert model.definitions_used(model.root) == ["Base", "A"]
