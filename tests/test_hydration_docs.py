"""docs/hydration.md quotes the real truncation message (its examples run with the other
pages', in tests/test_docs_examples.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

import sktypes as sk

PAGE = Path(__file__).resolve().parents[1] / "docs" / "hydration.md"


def test_doc_truncation_message_is_the_real_one() -> None:
    with pytest.raises(sk.HydrationError) as info:
        sk.hydrate(dict[str, float], '{"temp_c": 21')
    detail = info.value.errors[0]
    rendered = f"`{detail.path}: {detail.message}`"
    assert " ".join(rendered.split()) in " ".join(PAGE.read_text().split())
