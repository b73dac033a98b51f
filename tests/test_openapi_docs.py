"""docs/openapi.md: its error table lists every bad input the loader names (its examples run
with the other pages', in tests/test_docs_examples.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

import sktypes as sk

PAGE = Path(__file__).resolve().parents[1] / "docs" / "openapi.md"


def test_error_table_lists_every_bad_input_of_the_issue() -> None:
    text = PAGE.read_text()
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


def test_error_table_shows_the_real_message_for_an_unknown_version() -> None:
    with pytest.raises(sk.OpenApiError) as info:
        sk.load_openapi("openapi: 4.0.0\ninfo: {title: t, version: '1'}\npaths: {}\n")
    message = str(info.value).removeprefix("<string>")  # the page calls the file api.yaml
    assert f"`api.yaml{message}`" in PAGE.read_text()
