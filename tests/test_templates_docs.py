"""The examples in README.md's templates section run as written and print what they say."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.readme_util import readme_section

ROOT = Path(__file__).resolve().parents[1]
DOC = readme_section("templates")
BLOCKS = re.findall(r"```python\n(.*?)```", DOC, re.DOTALL)


def test_docs_have_python_examples() -> None:
    assert len(BLOCKS) >= 4


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_docs_python_example_runs(
    index: int, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(ROOT)
    exec(compile(BLOCKS[index], f"README.md#templates[{index}]", "exec"), {"__name__": "docs"})
    printed = capsys.readouterr().out
    if "is_requird" in BLOCKS[index]:
        assert "story.yaml: line 7: invalid prompt template config:" in printed
        assert "$.input_variables[0].is_requird (line 7): Extra inputs are not permitted" in printed
        assert "story.yaml: line 4 (template line 2 column 1): '$length': only the" in printed
    if "ShoutFactory" in BLOCKS[index]:
        assert printed.split() == ["HI", "hi!", "hi!"]
