"""A fenced answer is read once: the first JSON fence goes straight into the target (issue 25).

Where a fence ends depends on whether its body is JSON (a ````` inside a JSON string is
text). ``hydrate`` used to ask orjson, then read the same body into the target; now the
target's own reading answers for the first JSON fence. What is found, refused and said
stays as it was.
"""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel

import sktypes as sk
from sktypes.errors import HydrationError
from sktypes.hydration import _extract


class Files(BaseModel):
    note: str
    files: list[str]


@pytest.fixture
def orjson_asked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The fence bodies handed to the orjson test (``_extract._is_json``)."""
    asked: list[str] = []
    real = _extract._is_json

    def spy(body: str) -> bool:
        asked.append(body)
        return real(body)

    monkeypatch.setattr(_extract, "_is_json", spy)
    return asked


def test_the_first_json_fence_is_not_parsed_apart(orjson_asked: list[str]) -> None:
    text = 'Here:\n```json\n{"note": "n", "files": ["a"]}\n```\nAnything else?'
    assert sk.hydrate(Files, text) == Files(note="n", files=["a"])
    assert orjson_asked == []


def test_fences_after_the_answer_are_not_read(orjson_asked: list[str]) -> None:
    text = '```json\n{"note": "n", "files": []}\n```\nand\n```json\n{"note": 1}\n```'
    assert sk.hydrate(Files, text) == Files(note="n", files=[])
    assert orjson_asked == []


def test_a_misfit_in_the_first_fence_is_the_error_with_its_note() -> None:
    text = '```json\n{"note": "n", "files": [1]}\n```\n```python\nprint(1)\n```'
    with pytest.raises(HydrationError) as info:
        sk.hydrate(Files, text)
    assert info.value.errors[0].path == "$.files[0]"
    assert "used code block 1 of 2" in str(info.value)


def test_a_fence_inside_a_string_of_the_first_fence_is_text() -> None:
    text = '```json\n{"note": "a ```\n[9]\n``` b", "files": ["x"]}\n```'
    got = sk.hydrate(Files, text)
    assert got.files == ["x"] and "```" in got.note


def test_a_first_fence_that_needs_repair_is_repaired() -> None:
    text = "```json\n{'note': 'n', 'files': ['a',],}\n```"
    assert sk.hydrate(Files, text) == Files(note="n", files=["a"])


def test_a_json_fence_after_a_python_one_is_used() -> None:
    text = 'Look:\n```python\nx = "{"\n```\n```json\n{"note": "n", "files": []}\n```'
    assert sk.hydrate(Files, text) == Files(note="n", files=[])


@pytest.mark.parametrize("partial", [False, True])
def test_a_double_encoded_first_fence_is_unwrapped(partial: bool) -> None:
    inner = '{\\"note\\": \\"n\\", \\"files\\": []}'
    text = f'```json\n"{inner}"\n```'
    got: Any = sk.hydrate(Files, text, partial=partial)
    assert got == Files(note="n", files=[])


def test_a_misfit_first_fence_in_partial_mode_reads_as_a_prefix() -> None:
    text = '```json\n{"note": "n", "files": ["a"]}\n```'
    assert sk.hydrate(Files, text, partial=True) == Files(note="n", files=["a"])
