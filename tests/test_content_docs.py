"""The examples in README.md's content section run as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.readme_util import readme_section

ROOT = Path(__file__).resolve().parents[1]
BLOCKS = re.findall(r"```python\n(.*?)```", readme_section("content"), re.DOTALL)


def test_docs_have_python_examples() -> None:
    assert len(BLOCKS) >= 4


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_docs_python_example_runs(index: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    exec(compile(BLOCKS[index], f"README.md#content[{index}]", "exec"), {"__name__": "docs"})
