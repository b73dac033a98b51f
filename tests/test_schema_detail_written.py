"""Schemas a manual shows are written once per content: the same output, less work."""

from __future__ import annotations

from typing import Any

import pytest

from sktypes._arguments_schema import parameters_document
from sktypes.jsondoc import JsonDocument
from sktypes.openapi import load_openapi
from sktypes.schema import _detail
from sktypes.schema._detail import compact_schema, full_schema
from sktypes.schema._emit import Emitter
from tests.corpus_util import CORPUS

SPECS = [
    "oai-v3.0-uspto/uspto.yaml",
    "twilio-messaging-v1/twilio_messaging_v1.json",
    "oai-v3.0-petstore-expanded/petstore-expanded.json",
    "oai-v2.0-uber/uber.json",
]

SHARED = {
    "type": "object",
    "properties": {"owner": {"$ref": "#/$defs/user"}, "author": {"$ref": "#/$defs/user"}},
    "$defs": {"user": {"type": "object", "properties": {"login": {"type": ["string", "null"]}}}},
}


@pytest.fixture
def writes(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every schema written (caches emptied first)."""
    for cache in (_detail._FULL, _detail._COMPACT, _detail._COMPACT_RESULT, _detail._WRITTEN):
        cache.clear()
    seen: list[Any] = []
    real = _detail._write

    def counted(schema: Any, emitter: type[Emitter]) -> Any:
        seen.append(schema)
        return real(schema, emitter)

    monkeypatch.setattr(_detail, "_write", counted)
    return seen


def test_equal_schemas_built_apart_are_written_once(writes: list[Any]) -> None:
    first, second = JsonDocument.from_value(SHARED), JsonDocument.from_value(SHARED)
    assert first is not second
    assert full_schema(first) == full_schema(second)
    assert len(writes) == 1
    compact_schema(first)
    compact_schema(second)
    compact_schema(second, result=True)
    assert len(writes) == 3  # one per emitter


def test_a_written_schema_is_a_new_dict_each_time(writes: list[Any]) -> None:
    doc = JsonDocument.from_value(SHARED)
    one = full_schema(doc)
    one["properties"]["x"] = {}
    assert "x" not in full_schema(JsonDocument.from_value(SHARED))["properties"]


def test_key_order_and_number_forms_are_kept_apart(writes: list[Any]) -> None:
    a = JsonDocument.from_value({"type": "number", "maximum": 1, "minimum": 0})
    b = JsonDocument.from_value({"type": "number", "minimum": 0, "maximum": 1})
    c = JsonDocument.from_value({"type": "number", "maximum": 1.0, "minimum": 0})
    for doc in (a, b, c):
        assert full_schema(doc) == _detail._write(doc.value, Emitter)
    assert len(writes) == 6  # three written through the memory, three directly


@pytest.mark.skipif(not CORPUS.is_dir(), reason="no corpus")
@pytest.mark.parametrize("name", SPECS)
def test_every_schema_of_a_spec_is_written_as_without_the_memory(
    name: str, writes: list[Any]
) -> None:
    plugin = load_openapi(CORPUS / name, validate=False)
    docs = [parameters_document(v) for v in plugin.views]
    docs += [v.return_parameter.schema for v in plugin.views if v.return_parameter.schema]
    for doc in docs:
        # a copy of each schema: a new object of the same content is read from the memory
        copy = JsonDocument.from_value(doc.value)
        assert full_schema(doc) == full_schema(copy) == _detail._write(doc.value, Emitter)
        assert compact_schema(doc) == compact_schema(copy)
        assert compact_schema(doc) == _detail._write(doc.value, _detail._Compact)
        assert compact_schema(copy, result=True) == _detail._write(
            doc.value, _detail._CompactResult
        )
    distinct = {d.to_json() for d in docs}
    assert len(writes) == 3 * len(distinct) + 3 * len(docs)  # the memory's, then the direct
