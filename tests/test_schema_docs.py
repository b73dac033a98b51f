"""The examples in docs/concepts/schema-model.md run and print what the page shows."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parents[1] / "docs" / "concepts" / "schema-model.md"
EXAMPLES = re.findall(r"```python\n(.*?)```\n\n```\n(.*?)```", PAGE.read_text(), re.DOTALL)


def test_the_page_has_examples() -> None:
    assert len(EXAMPLES) >= 3


@pytest.mark.parametrize(("code", "printed"), EXAMPLES)
def test_each_example_prints_what_the_page_shows(code: str, printed: str) -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(PAGE), "exec"), {})
    assert out.getvalue() == printed
