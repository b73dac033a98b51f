"""Every code example in docs/ and in the code's docstrings runs, and prints what it shows.

How blocks are found and run is described in ``tests/docs_examples.py``. Each page (and each
module's docstrings) runs once per test process, in a child process and a scratch directory;
each block is one test, named ``file:line``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.docs_examples import (
    ROOT,
    Block,
    Result,
    all_modules,
    docstring_blocks,
    page_blocks,
    pages,
    run_in_child,
)

PAGE_BLOCKS = [block for page in pages() for block in page_blocks(page)]


def _module_blocks() -> list[tuple[str, Block]]:
    found: list[tuple[str, Block]] = []
    for name in all_modules():
        try:
            blocks = docstring_blocks(name)
        except ModuleNotFoundError as exc:  # an optional extra that is not installed
            if exc.name and exc.name.split(".")[0] in {"sktypes", "sktypes_codegen"}:
                raise
            continue
        found.extend((name, block) for block in blocks)
    return found


MODULE_BLOCKS = _module_blocks()
_RESULTS: dict[tuple[str, str], dict[int, Result]] = {}


def _results(kind: str, name: str, factory: pytest.TempPathFactory) -> dict[int, Result]:
    key = (kind, name)
    if key not in _RESULTS:
        _RESULTS[key] = run_in_child(kind, name, factory.mktemp("docs-example"))
    return _RESULTS[key]


def _report(result: Result) -> None:
    if result.status == "skipped":
        pytest.skip(result.message)
    if result.status != "passed":
        pytest.fail(result.message, pytrace=False)


def test_the_docs_have_examples_of_every_kind() -> None:
    langs = {block.lang for block in PAGE_BLOCKS}
    assert {"python", "console"} <= langs
    assert sum(block.expected is not None for block in PAGE_BLOCKS) >= 20


def _grouped(blocks: list[Block], values: list[object]) -> list[object]:
    """One xdist group per page: its blocks run on one worker, so the page runs once."""
    return [
        pytest.param(
            *(v if isinstance(v, tuple) else (v,)),
            marks=pytest.mark.xdist_group(b.document),
            id=b.where,
        )
        for b, v in zip(blocks, values, strict=True)
    ]


@pytest.mark.parametrize("block", _grouped(PAGE_BLOCKS, list(PAGE_BLOCKS)))
def test_docs_example(block: Block, tmp_path_factory: pytest.TempPathFactory) -> None:
    page = block.document
    assert (ROOT / page).is_file()
    _report(_results("page", page, tmp_path_factory)[block.line])


@pytest.mark.parametrize(
    ("module", "block"), _grouped([b for _, b in MODULE_BLOCKS], list(MODULE_BLOCKS))
)
def test_docstring_example(
    module: str, block: Block, tmp_path_factory: pytest.TempPathFactory
) -> None:
    _report(_results("module", module, tmp_path_factory)[block.line])


def test_a_failing_example_is_reported_with_its_place(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "# t\n\n```python\nprint(1 + 1)\n```\n\n```text\n3\n```\n\n"
        "```python\nx = 1\n```\n\n```python\nprint(x)\n```\n\n"
        "<!-- docs-test: skip needs a network -->\n```python\nraise SystemExit\n```\n\n"
        "```console\n$ echo hi; false\nhi\n$ echo $?\n1\n```\n"
    )
    from tests.docs_examples import blocks_of, run_blocks

    blocks = blocks_of("page.md", page.read_text())
    assert [(b.line, b.lang, b.expected) for b in blocks] == [
        (3, "python", "3\n"),
        (11, "python", None),
        (15, "python", None),
        (20, "python", None),
        (24, "console", None),
    ]
    results = run_blocks(blocks, "docs_example_selftest")
    assert [r.status for r in results] == ["failed", "passed", "failed", "skipped", "passed"]
    assert "printed:\n    2" in results[0].message
    assert "no ```text block follows" in results[2].message
    assert results[3].message == "needs a network"
