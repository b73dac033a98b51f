"""Stubs from tool lists: a typed module that passes mypy --strict and names every tool."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import sktypes as sk
from sktypes.errors import GenerationError
from sktypes_codegen import generate_stubs
from tests.corpus_util import CORPUS

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent

OPENAI_TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": 'Weather """ now \\ é',
            "parameters": {
                "type": "object",
                "properties": {
                    "city": {"type": "string"},
                    "unit": {"enum": ["c", "f"]},
                    "class": {"type": "integer"},
                    "when": {"type": "string", "format": "date-time"},
                    "opts": {
                        "type": "object",
                        "properties": {"a-b": {"type": "string"}, "n": {"type": "number"}},
                        "required": ["n"],
                    },
                },
                "required": ["city"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "tree",
            "parameters": {
                "type": "object",
                "properties": {"root": {"$ref": "#/$defs/Node"}},
                "$defs": {
                    "Node": {
                        "type": "object",
                        "properties": {
                            "kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
                            "name": {"type": "string"},
                        },
                    }
                },
            },
        },
    },
]
MCP_TOOLS = {
    "tools": [
        {
            "name": "add",
            "inputSchema": {
                "type": "object",
                "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
                "required": ["a", "b"],
            },
            "outputSchema": {
                "type": "object",
                "properties": {"sum": {"type": "integer"}},
                "required": ["sum"],
            },
        }
    ]
}


def _mypy(source: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "stub_module.py"
    path.write_text(source)
    return subprocess.run(
        [BIN / "mypy", "--strict", "--no-incremental", "--cache-dir", os.devnull, str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )


@pytest.mark.parametrize("tools", [OPENAI_TOOLS, MCP_TOOLS], ids=["openai", "mcp"])
def test_stubs_pass_mypy_strict_and_ruff(tools: object, tmp_path: Path) -> None:
    source = generate_stubs(sk.views_from_manual(tools), source="tools.json")
    compile(source, "stub", "exec")
    result = _mypy(source, tmp_path)
    assert result.returncode == 0, result.stdout + source
    ruff = subprocess.run(
        [
            BIN / "ruff",
            "check",
            "--isolated",
            "--select",
            "E,F,W,I,B,UP,SIM,RUF,C4,PIE,RET",
            "--line-length",
            "100",
            str(tmp_path / "stub_module.py"),
        ],
        capture_output=True,
        text=True,
    )
    assert ruff.returncode == 0, ruff.stdout


def test_stub_protocol_types_the_result_and_arguments(tmp_path: Path) -> None:
    source = generate_stubs(sk.views_from_manual(MCP_TOOLS))
    assert "def add(self, *, a: int, b: int) -> AddResult:" in source
    usage = source + (
        "\n\nclass Impl:\n    def add(self, *, a: int, b: int) -> AddResult:\n"
        "        return {'sum': a + b}\n\n\nt: Tools = Impl()\n"
        "bad: AddArguments = {'a': 1}\n"
    )
    result = _mypy(usage, tmp_path)
    assert result.returncode == 1
    assert 'Missing key "b"' in result.stdout
    assert result.stdout.count("error:") == 1


def test_bad_protocol_name_is_a_generation_error() -> None:
    with pytest.raises(GenerationError, match="not a valid class name"):
        generate_stubs([], protocol="not valid")


def test_stubs_cli_writes_module_and_reports_missing_file(tmp_path: Path) -> None:
    tools = tmp_path / "tools.json"
    tools.write_text(__import__("json").dumps(MCP_TOOLS))
    out = tmp_path / "out.py"
    ok = subprocess.run(
        [BIN / "sktypes", "stubs", str(tools), "-o", str(out)], capture_output=True, text=True
    )
    assert ok.returncode == 0, ok.stderr
    assert "class Tools(Protocol):" in out.read_text()
    bad = subprocess.run(
        [BIN / "sktypes", "stubs", str(tmp_path / "nope.json")], capture_output=True, text=True
    )
    assert bad.returncode == 2
    assert bad.stderr.startswith("sktypes: error: ") and "nope.json" in bad.stderr
    assert "Traceback" not in bad.stderr


@pytest.mark.skipif(not CORPUS.is_dir(), reason="corpus not available")
def test_stubs_from_spec_views_pass_mypy_strict_and_ruff(tmp_path: Path) -> None:
    views = [
        *sk.load_openapi(CORPUS / "oai-v2.0-uber" / "uber.json").views,
        *sk.load_openapi(CORPUS / "twilio-messaging-v1" / "twilio_messaging_v1.json").views,
    ]
    with pytest.warns(sk_codegen_warning()) as caught:  # Twilio's defaults, its allOf
        source = generate_stubs(views)
    assert any("validity_period: default cannot be expressed" in str(w.message) for w in caught)
    result = _mypy(source, tmp_path)
    assert result.returncode == 0, result.stdout
    ruff = subprocess.run(
        [
            BIN / "ruff",
            "check",
            "--isolated",
            "--select",
            "E,F,W,I,B,UP,SIM,RUF,C4,PIE,RET",
            "--line-length",
            "100",
            str(tmp_path / "stub_module.py"),
        ],
        capture_output=True,
        text=True,
    )
    assert ruff.returncode == 0, ruff.stdout


def test_constraints_are_written_as_annotated_metadata() -> None:
    """They were dropped silently: ``qty: int`` for ``minimum: 1``, ``list[str]`` for a set."""
    view = sk.views_from_manual(
        [
            {
                "name": "place",
                "input_schema": {
                    "type": "object",
                    "properties": {
                        "qty": {"type": "integer", "minimum": 1, "maximum": 9},
                        "sku": {"type": "string", "maxLength": 8, "pattern": "^[A-Z]+$"},
                        "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
                        "rate": {"enum": [0.5, 1.5]},
                        "pair": {
                            "type": "array",
                            "prefixItems": [{"type": "integer"}, {"type": "string"}],
                            "minItems": 2,
                            "maxItems": 2,
                        },
                    },
                    "required": ["qty", "sku", "tags", "rate", "pair"],
                },
            }
        ]
    )
    source = generate_stubs(view)
    assert "qty: Annotated[int, Field(ge=1, le=9)]" in source
    assert 'sku: Annotated[str, Field(max_length=8, pattern="^[A-Z]+$")]' in source
    assert "tags: Annotated[list[str], unique_items]" in source
    assert "rate: Annotated[float, one_of(0.5, 1.5)]" in source
    assert "pair: tuple[int, str]" in source
    namespace: dict[str, object] = {}
    exec(compile(source, "stub", "exec"), namespace)  # it imports what it names


def test_what_a_typeddict_cannot_say_is_reported_with_its_place() -> None:
    view = sk.views_from_manual(
        [
            {
                "name": "move",
                "input_schema": {
                    "type": "object",
                    "properties": {
                        "to": {
                            "type": "object",
                            "properties": {
                                "x": {"type": "integer"},
                                "y": {"type": "integer", "default": 0},
                            },
                            "required": ["x"],
                        }
                    },
                    "required": ["to"],
                },
            }
        ]
    )
    with pytest.warns(sk_codegen_warning()) as caught:
        generate_stubs(view, source="tools.json")
    messages = [str(w.message) for w in caught]
    assert messages == [
        "tools.json: /properties/y: default cannot be expressed in generated code "
        "(move parameter 'to')"
    ]


def sk_codegen_warning() -> type[Warning]:
    from sktypes_codegen import GenerationWarning

    return GenerationWarning


def test_the_cli_prints_each_unexpressed_rule_as_a_warning_line(tmp_path: Path) -> None:
    tools = tmp_path / "tools.json"
    schema = {"type": "object", "properties": {"n": {"type": "integer", "default": 3}}}
    point = {"type": "object", "properties": {"p": schema}, "required": ["p"]}
    tools.write_text(json.dumps([{"name": "f", "input_schema": point}]))
    done = subprocess.run(
        [BIN / "sktypes", "stubs", str(tools), "-o", str(tmp_path / "out.py")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines()[0] == (
        f"warning: {tools}: /properties/n: default cannot be expressed in generated code "
        "(f parameter 'p')"
    )
