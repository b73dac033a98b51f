"""``SchemaModel.definitions_used`` parses the definitions it needs, not every definition.

Pagination asks it for the item schema of every paginated operation (each operation's own
self-contained response schema): parsing all the definitions of each made Stripe's 98
paginated operations parse ~300 definitions each (a quadratic over shared components).
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


def test_only_the_definitions_used_are_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
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
    assert sorted(parsed) == ["", "/$defs/Item", "/$defs/Owner"]


def test_used_definitions_keep_document_order() -> None:
    schema = _schema(3)
    schema["$defs"] = dict(reversed(list(schema["$defs"].items())))
    model = S.parse(schema)
    root = model.root
    assert isinstance(root, S.ArrayNode)
    assert model.definitions_used(root.items) == ["Owner", "Item"]
    assert model.definitions_used(root) == ["Owner", "Item"]
