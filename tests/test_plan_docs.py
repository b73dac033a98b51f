"""The examples in README.md's plans section run as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.readme_util import readme_section

ROOT = Path(__file__).resolve().parents[1]
BLOCKS = re.findall(r"```python\n(.*?)```", readme_section("plans"), re.DOTALL)


def test_docs_have_python_examples() -> None:
    assert len(BLOCKS) >= 2


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_docs_python_example_runs(index: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    exec(compile(BLOCKS[index], f"README.md#plans[{index}]", "exec"), {"__name__": "docs"})
