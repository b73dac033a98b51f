"""The examples in README.md's hydration section run, and say what they claim."""

from __future__ import annotations

import re
import sys
import types

import pytest

import sktypes as sk
from tests.readme_util import readme_section

BLOCK = re.compile(r"^(`{3,})python\n(.*?)^\1$", re.S | re.M)


def _blocks() -> list[str]:
    return [m.group(2) for m in BLOCK.finditer(readme_section("hydration"))]


def test_the_doc_has_examples() -> None:
    assert len(_blocks()) >= 4


@pytest.mark.parametrize("index", range(len(_blocks())))
def test_doc_example_runs(index: int, capsys: pytest.CaptureFixture[str]) -> None:
    code = _blocks()[index]
    module = types.ModuleType(f"doc_example_{index}")
    sys.modules[module.__name__] = module  # pydantic resolves annotations through it
    try:
        exec(compile(code, f"README.md#hydration[{index}]", "exec"), module.__dict__)
    finally:
        del sys.modules[module.__name__]
    printed = capsys.readouterr().out
    expected = [line[2:] for line in code.splitlines() if line.startswith("# ")]
    if printed:
        assert printed.splitlines() == expected


def test_doc_truncation_message_is_the_real_one() -> None:
    text = readme_section("hydration")
    with pytest.raises(sk.HydrationError) as info:
        sk.hydrate(dict[str, float], '{"temp_c": 21')
    detail = info.value.errors[0]
    rendered = f"`{detail.path}: {detail.message}`"
    assert " ".join(rendered.split()) in " ".join(text.split())
