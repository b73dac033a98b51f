"""The docs' framework examples run in the framework's own venv (``make integrations``).

``make test``'s main venv has none of the frameworks, so tests/test_docs_examples.py skips the
blocks marked ``<!-- docs-test: requires MODULE -->``. Here, with ``SKTYPES_INTEGRATION`` naming
the framework this venv holds, every page with such a block for this framework runs whole, and
each of its blocks must pass — those that need this framework included.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

from tests.docs_examples import ROOT, page_blocks, pages, run_in_child

FRAMEWORK = os.environ.get("SKTYPES_INTEGRATION", "").replace("-", "_")
IMPORT_NAMES = {"openai_agents": "agents", "langchain": "langchain_core"}
MODULE = IMPORT_NAMES.get(FRAMEWORK, FRAMEWORK)

pytestmark = pytest.mark.skipif(not FRAMEWORK, reason="runs in a framework's venv only")


def _here(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


PAGES = [
    page
    for page in pages()
    if MODULE and any(MODULE in block.requires for block in page_blocks(page))
]


def test_the_framework_has_examples_in_the_docs() -> None:
    assert _here(MODULE), f"{MODULE} is not installed in this venv"
    assert PAGES, f"no page has a block marked `docs-test: requires {MODULE}`"


@pytest.mark.parametrize("page", PAGES, ids=[page.relative_to(ROOT).as_posix() for page in PAGES])
def test_the_framework_examples_of_the_docs_run(page: Path, tmp_path: Path) -> None:
    results = run_in_child("page", page.relative_to(ROOT).as_posix(), tmp_path)
    blocks = {block.line: block for block in page_blocks(page)}
    problems = {
        line: result.message
        for line, result in results.items()
        if result.status == "failed"
        or (result.status == "skipped" and all(map(_here, blocks[line].requires or ("-",))))
    }
    assert problems == {}
