"""The examples in README.md's OpenAPI section run; its error table matches the messages."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.readme_util import readme_section

ROOT = Path(__file__).resolve().parents[1]


def test_python_examples_in_the_openapi_docs_run(monkeypatch: pytest.MonkeyPatch) -> None:
    blocks = re.findall(r"```python\n(.*?)```", readme_section("openapi"), flags=re.DOTALL)
    assert blocks
    monkeypatch.chdir(ROOT)
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, "README.md#openapi", "exec"), namespace)
    plugin = namespace["plugin"]
    assert getattr(plugin, "name", None) == "DatePluginSimpleComplex"
    assert os.fspath(ROOT) == os.getcwd()


def test_error_table_lists_every_bad_input_of_the_issue() -> None:
    text = readme_section("openapi")
    for kind in (
        "not YAML/JSON",
        "not an OpenAPI document",
        "unknown version",
        "dangling `$ref`",
        "`$ref` cycle through a parameter",
        "remote `$ref` without permission",
        "YAML alias bomb",
        "a 100 MB document",
        "duplicate parameter",
    ):
        assert f"| {kind} |" in text, kind
