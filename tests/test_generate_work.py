"""Generation does each piece of work once: counted, never timed (issue 25).

Node hashes are computed once per node; views.json's parameter types come from the nodes
the plugin's combined schema model already parsed (no view schema is parsed again on its
own); the cyclic garbage collector is paused for the call and restored after it.
"""

from __future__ import annotations

import gc
import json
from pathlib import Path
from typing import Any

import pytest

import sktypes.schema
import sktypes.schema._nodes as nodes
import sktypes_codegen._package as package
from sktypes.schema import parse
from sktypes.views import view_type_of
from sktypes_codegen import generate_plugin, render_plugin

ROOT = Path(__file__).resolve().parents[1]
SPECS = [
    ROOT / "schemas" / "examples" / "weather_plugin.openapi.yaml",
    ROOT / "tests" / "specs" / "composition.yaml",
]


def test_a_node_hashes_once_and_a_replaced_node_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    node = parse(_schema()).root
    first = hash(node)

    def fail(value: Any) -> int:
        raise AssertionError("hashed again")

    monkeypatch.setattr(nodes, "_hash", fail)
    assert hash(node) == first  # the memo, not a second walk
    monkeypatch.undo()
    changed = node.replace(title="t")
    assert hash(changed) == hash(parse({**_schema(), "title": "t"}).root)
    assert node.replace() == node and hash(node.replace()) == first


def _schema() -> dict[str, Any]:
    return {"type": "object", "properties": {"a": {"type": "string", "enum": ["x", "y"]}}}


@pytest.mark.parametrize("spec", SPECS, ids=lambda p: p.stem)
def test_views_types_come_from_the_parsed_plugin_schemas(
    spec: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[object] = []
    real = sktypes.schema.parse

    def counting(schema: Any, flavor: Any = "json-schema") -> Any:
        calls.append(schema)
        return real(schema, flavor)

    monkeypatch.setattr(sktypes.schema, "parse", counting)  # what view.type parses with
    _, files = render_plugin(spec, validate=False)
    monkeypatch.undo()
    assert calls == []  # no view schema parsed on its own for its type
    data = json.loads(files["views.json"])
    defs = data["defs"]
    checked = 0
    for entry in data["functions"]:
        view = entry["view"]
        for holder in [*view["parameters"], view["return_parameter"]]:
            schema = holder.get("schema")
            if schema is None:
                continue
            names = schema.get("$defs", []) if isinstance(schema, dict) else []
            if names:
                keys = [(n, n) if isinstance(n, str) else (n[0], n[1]) for n in names]
                schema = {**schema, "$defs": {name: defs[key] for name, key in keys}}
            expected = view_type_of(schema)
            assert holder.get("type") == (expected.value if expected else None)
            checked += 1
    assert checked


def test_generation_pauses_the_collector_and_restores_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[bool] = []
    real = package.plugin_context

    def building(*args: Any, **kwargs: Any) -> Any:
        seen.append(gc.isenabled())
        return real(*args, **kwargs)

    monkeypatch.setattr(package, "plugin_context", building)
    assert gc.isenabled()
    generate_plugin(SPECS[0], tmp_path, validate=False)
    assert seen == [False] and gc.isenabled()
    gc.disable()
    try:
        generate_plugin(SPECS[0], tmp_path / "again", validate=False)
        assert not gc.isenabled()  # left as the caller had it
    finally:
        gc.enable()
    with pytest.raises(Exception):  # noqa: B017 - any failure: the state is restored
        generate_plugin(tmp_path / "missing.yaml", tmp_path / "x")
    assert gc.isenabled()


def test_ascii_text_is_escaped_as_character_by_character() -> None:
    from sktypes_codegen._naming import _escape, py_string

    for text in ["".join(map(chr, range(128))), "a'b", 'a"b"c\'', "plain", ""]:
        quote = "'" if text.count('"') > text.count("'") else '"'
        assert py_string(text) == quote + "".join(_escape(c, quote) for c in text) + quote


def test_a_frozen_dict_reads_as_its_dict() -> None:
    from sktypes.jsondoc import FrozenDict

    data = {"b": 1, "a": [2], "c": None}
    frozen = FrozenDict(data)
    assert list(frozen.items()) == list(data.items())
    assert list(frozen.keys()) == list(data) and list(frozen.values()) == list(data.values())
    assert frozen.get("c", 5) is None and frozen.get("z", 5) == 5 and frozen.get("z") is None
    assert "a" in frozen and "z" not in frozen and frozen.keys() == {"a", "b", "c"}
    unhashable: Any = []
    with pytest.raises(TypeError):
        unhashable in frozen  # noqa: B015 - as for a dict
