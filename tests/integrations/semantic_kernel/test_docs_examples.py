"""The docs' Semantic Kernel examples run here, where semantic-kernel is installed.

``make test``'s main venv has no semantic-kernel, so tests/test_docs_examples.py skips the
blocks marked ``<!-- docs-test: requires semantic_kernel -->``; this venv runs each such page
whole and requires every block of it, those included, to pass.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.docs_examples import page_blocks, pages, run_in_child

PAGES = [
    page
    for page in pages()
    if any("semantic_kernel" in block.requires for block in page_blocks(page))
]


def test_some_page_has_semantic_kernel_examples() -> None:
    assert PAGES


@pytest.mark.parametrize("page", PAGES, ids=[page.name for page in PAGES])
def test_semantic_kernel_examples_of_the_docs_run(page: Path, tmp_path: Path) -> None:
    relative = page.relative_to(Path(__file__).resolve().parents[3]).as_posix()
    results = run_in_child("page", relative, tmp_path)
    failed = {line: result.message for line, result in results.items() if result.status != "passed"}
    assert failed == {}
