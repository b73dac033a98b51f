"""prance as a test oracle: where it succeeds, fully inlined view schemas equal its output.

prance inlines every ``$ref`` (which is why it fails on recursive specs); sktypes keeps them
under ``$defs``. Inlining ours back and writing prance's OpenAPI 3.0 ``nullable``/``example``
the 2020-12 way must give the same schemas. Needs prance (the ``bench`` extra).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sktypes.openapi import load_openapi

prance = pytest.importorskip("prance")

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "openapi"
SPECS = [
    "oai-v2.0-petstore/petstore.json",
    "oai-v2.0-petstore-expanded/petstore-expanded.json",
    "oai-v2.0-uber/uber.json",
    "oai-v3.0-petstore/petstore.yaml",
    "oai-v3.0-petstore-expanded/petstore-expanded.json",
    "oai-v3.0-uspto/uspto.yaml",
    "oai-v3.0-link-example/link-example.yaml",
    "twilio-messaging-v1/twilio_messaging_v1.json",
]


def _inline(node: Any, defs: dict[str, Any]) -> Any:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and len(node) == 1 and ref.startswith("#/$defs/"):
            return _inline(defs[ref[len("#/$defs/") :]], defs)
        return {k: _inline(v, defs) for k, v in node.items()}
    if isinstance(node, list):
        return [_inline(v, defs) for v in node]
    return node


def _as_2020_12(node: Any) -> Any:
    """prance's 3.0 schema written as draft 2020-12 (only what these specs use)."""
    if isinstance(node, list):
        return [_as_2020_12(v) for v in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in ("properties", "patternProperties"):
            out[key] = {k: _as_2020_12(v) for k, v in value.items()}
        elif key == "example":
            out["examples"] = [value]
        elif key != "nullable":
            out[key] = _as_2020_12(value)
    if node.get("nullable") is True and isinstance(out.get("type"), str):
        out["type"] = [out["type"], "null"]
        if "enum" in out and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
    return out


def _ours(doc: Any) -> Any:
    if doc is None:
        return None
    value = doc.to_python()
    defs = value.pop("$defs", {}) if isinstance(value, dict) else {}
    return _inline(value, defs)


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"no corpus at {CORPUS}")
@pytest.mark.parametrize("spec", SPECS)
def test_inlined_view_schemas_equal_prance_where_prance_succeeds(spec: str) -> None:
    path = CORPUS / spec
    resolved = prance.ResolvingParser(
        str(path), backend="openapi-spec-validator", strict=False
    ).specification
    plugin = load_openapi(path)
    compared = 0
    for op in plugin.operations:
        raw_op = resolved["paths"][op.path][op.method]
        response = raw_op["responses"].get(op.success_status or "", {})
        if "content" in response:
            media = response["content"].get(op.response_content_type or "", {})
            theirs = media.get("schema")
        else:
            theirs = response.get("schema")
        assert _ours(op.response_schema) == _as_2020_12(theirs), op.name
        for param in op.parameters:
            raw = next(
                p
                for p in raw_op.get("parameters", [])
                + resolved["paths"][op.path].get("parameters", [])
                if p["name"] == param.name and p["in"] == param.location
            )
            if "schema" in raw:
                assert _ours(param.schema) == _as_2020_12(raw["schema"]), (op.name, param.name)
        compared += 1
    assert compared == len(plugin.operations)
