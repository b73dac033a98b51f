"""The examples in docs/generate.md run and print what the page shows.

They run in order in one namespace (later ones use what earlier ones generated), in a
temporary directory.
"""

from __future__ import annotations

import contextlib
import io
import re
import sys
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parents[1] / "docs" / "generate.md"
EXAMPLES = re.findall(r"```python\n(.*?)```\n\n```\n(.*?)```", PAGE.read_text(), re.DOTALL)


def test_the_page_has_examples() -> None:
    assert len(EXAMPLES) >= 4


def test_each_example_prints_what_the_page_shows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    namespace: dict[str, object] = {}
    for code, printed in EXAMPLES:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, str(PAGE), "exec"), namespace)
        assert out.getvalue() == printed, code
