"""The semantic-kernel format renders what Semantic Kernel's own engine renders.

Expected outputs in tests/golden/templates/semantic_kernel_compat.json were produced by
semantic-kernel 1.45.0's Python SDK for the same templates and arguments; the few
deliberate differences carry ``ours`` and a ``why`` (also listed in docs/templates.md).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from sktypes.errors import TemplateError
from sktypes.templates import PromptTemplateConfig, create_prompt_template
from tests.test_templates_fakes import golden_kernel

GOLDEN = json.loads(
    (Path(__file__).parent / "golden" / "templates" / "semantic_kernel_compat.json").read_text()
)


def _cases(fmt: str) -> list[Any]:
    return [pytest.param(c, id=repr(c["template"])[:40]) for c in GOLDEN[fmt]]


def _outcome(fmt: str, template: str) -> Any:
    arguments = dict(GOLDEN["arguments"])
    arguments.update(GOLDEN["extra_arguments"])
    try:
        created = create_prompt_template(
            PromptTemplateConfig(template=template, template_format=fmt)
        )
    except TemplateError:
        return {"error": "parse"}
    try:
        return asyncio.run(created.render(golden_kernel(), arguments))
    except TemplateError:
        return {"error": "render"}


@pytest.mark.parametrize("case", _cases("semantic-kernel"))
def test_semantic_kernel_syntax_renders_like_semantic_kernel(case: dict[str, Any]) -> None:
    expected = case.get("ours", case["semantic_kernel"])
    assert _outcome("semantic-kernel", case["template"]) == expected


@pytest.mark.parametrize("case", _cases("jinja2"))
def test_jinja2_renders_like_semantic_kernel(case: dict[str, Any]) -> None:
    assert _outcome("jinja2", case["template"]) == case.get("ours", case["semantic_kernel"])


@pytest.mark.parametrize("case", _cases("handlebars"))
def test_handlebars_renders_like_semantic_kernel(case: dict[str, Any]) -> None:
    assert _outcome("handlebars", case["template"]) == case.get("ours", case["semantic_kernel"])


def test_every_deliberate_difference_says_why() -> None:
    for fmt in ("semantic-kernel", "jinja2", "handlebars"):
        for case in GOLDEN[fmt]:
            assert ("ours" in case) == ("why" in case), case
