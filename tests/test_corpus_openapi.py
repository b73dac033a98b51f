"""Real-world specs nobody on this project wrote (``../shared/corpus/openapi``).

Every spec the manifest lists valid loads with validation on and the manifest's operation
count; the invalid ones load with ``validate=False`` and say what they repaired in
``.warnings``. Every view schema passes the draft 2020-12 meta-schema, and every ``$ref`` in
it points into its own ``$defs``.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from sktypes.errors import OpenApiError
from sktypes.jsondoc import FrozenDict, thaw
from sktypes.openapi import load_openapi

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "openapi"
MANIFEST = CORPUS / "MANIFEST.tsv"
LARGE = 1_000_000  # bytes; these are marked slow (still run by `make test`)


def _rows() -> list[dict[str, str]]:
    if not MANIFEST.is_file():
        return []
    with MANIFEST.open(newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def _params() -> list[Any]:
    rows = _rows()
    if not rows:
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"no corpus at {CORPUS}"))]
    return [
        pytest.param(
            row,
            id=row["id"],
            marks=[pytest.mark.slow] if int(row["total_bytes"]) > LARGE else [],
        )
        for row in rows
    ]


def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, Mapping):
        ref = node.get("$ref")
        if isinstance(ref, str):
            yield ref
        for key, value in node.items():
            if key == "properties" and isinstance(value, Mapping):
                for sub in value.values():  # a property may be *named* $ref
                    yield from _refs(sub)
            elif key not in ("enum", "const", "default", "examples"):
                yield from _refs(value)
    elif isinstance(node, tuple):
        for v in node:
            yield from _refs(v)


def _check_views(plugin: Any) -> int:
    """Check every distinct schema piece once (definitions are shared between views)."""
    checked: set[int] = set()
    count = 0
    for view in plugin.views:
        docs = [p.schema for p in view.parameters] + [view.return_parameter.schema]
        for doc in docs:
            if doc is None:
                continue
            value = doc.value
            if not isinstance(value, FrozenDict):
                Draft202012Validator.check_schema(value)
                continue
            defs = value.get("$defs") or {}
            root = {k: v for k, v in value.items() if k != "$defs"}
            Draft202012Validator.check_schema(thaw(root))
            for ref in _refs(value):
                assert ref.startswith("#/$defs/"), ref
                assert ref[len("#/$defs/") :] in defs, (view.name, ref)
            for sub in defs.values():
                if id(sub) not in checked:
                    checked.add(id(sub))
                    Draft202012Validator.check_schema(thaw(sub))
            count += 1
    return count


@pytest.mark.parametrize("row", _params())
def test_corpus_spec_loads_with_manifest_operation_count(row: dict[str, str]) -> None:
    path = CORPUS / row["file"]
    valid = row["valid"] == "yes"
    # a spec's $refs may read files under its corpus entry (petstore-separate's ../common)
    plugin = load_openapi(path, validate=valid, ref_roots=[CORPUS / row["id"]])
    assert len(plugin.views) == int(row["operations"])
    assert len({v.name for v in plugin.views}) == len(plugin.views)
    assert all(name.isidentifier() for name in (v.name for v in plugin.views))
    if not valid:
        assert plugin.warnings, "an invalid spec must say what was repaired"
        assert all(w.startswith(("/", "#")) or "#/" in w for w in plugin.warnings)
    _check_views(plugin)


@pytest.mark.parametrize(
    "row", [p for p in _params() if p.values[0] is None or p.values[0]["valid"] != "yes"]
)
def test_invalid_corpus_spec_fails_validation_with_one_line(row: dict[str, str]) -> None:
    path = CORPUS / row["file"]
    with pytest.raises(OpenApiError) as info:
        load_openapi(path, ref_roots=[CORPUS / row["id"]])
    message = str(info.value)
    assert re.match(rf"{re.escape(str(path))}(:\d+:\d+)?: /", message), message
    assert "not a valid OpenAPI document" in message
    assert "\n" not in message
