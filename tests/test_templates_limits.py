"""The rendered size is bounded in every engine (issue 13, item 15); the error names the template.

``{{ 'a' * 300000000 }}`` rendered 300 MB through Jinja2. Now each engine counts what it
writes and stops past :attr:`TemplateLimits.max_output` (8 Mi characters unless configured),
and Jinja2's operators and filters that build a big string in one step refuse before
allocating it.
"""

from __future__ import annotations

import asyncio
import time
import tracemalloc
from typing import Any

import pytest

from sktypes.errors import TemplateError
from sktypes.templates import (
    DEFAULT_TEMPLATE_LIMITS,
    AggregatePromptTemplateFactory,
    PromptTemplateConfig,
    TemplateLimits,
    create_prompt_template,
)

SMALL = TemplateLimits(max_output=1_000)


def render(template: str, fmt: str, limits: TemplateLimits | None = None, **arguments: Any) -> str:
    config = PromptTemplateConfig(template=template, template_format=fmt, name="greeting")
    created = create_prompt_template(config, limits=limits)
    return asyncio.run(created.render(None, arguments))


def test_the_default_limit_is_documented_and_generous() -> None:
    assert DEFAULT_TEMPLATE_LIMITS.max_output == 8 * 1024 * 1024
    with pytest.raises(ValueError, match="max_output"):
        TemplateLimits(max_output=-1)


def test_the_issue_reproducer_fails_fast_without_allocating_the_string() -> None:
    tracemalloc.start()
    start = time.perf_counter()
    try:
        with pytest.raises(TemplateError) as caught:
            render("{{ 'a' * 300000000 }}", "jinja2")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert caught.value.message.startswith("template 'greeting': a repeated text")
    assert "output limit of 8,388,608 characters" in caught.value.message
    assert peak < 50_000_000
    assert time.perf_counter() - start < 2


LOOPS = {
    "semantic-kernel": ("{{$x}}{{$x}}", {"x": "y" * 600}),
    "jinja2": ("{% for i in range(1000) %}{{ x }}{% endfor %}", {"x": "ab"}),
    "handlebars": ("{{#each xs}}{{this}}{{/each}}", {"xs": ["ab"] * 1000}),
}


@pytest.mark.parametrize("fmt", sorted(LOOPS))
def test_every_engine_stops_past_the_limit_naming_the_template(fmt: str) -> None:
    template, arguments = LOOPS[fmt]
    with pytest.raises(TemplateError) as caught:
        render(template, fmt, SMALL, **arguments)
    assert "template 'greeting' renders more than 1,000 characters" in caught.value.message
    assert "TemplateLimits.max_output" in caught.value.message


@pytest.mark.parametrize("fmt", sorted(LOOPS))
def test_output_within_the_limit_renders_in_full(fmt: str) -> None:
    template, arguments = LOOPS[fmt]
    limits = TemplateLimits(max_output=2_000)
    out = render(template, fmt, limits, **arguments)
    assert len(out) in (1_200, 2_000)


@pytest.mark.parametrize(
    "template",
    [
        "{{ 'ab' * 1000 }}",
        "{{ [1] * 5000 }}",
        "{{ 10 ** 10000 }}",
        "{{ '%2000s' % 'a' }}",
        "{{ '%*s' % (5, 'a') }}",
        "{{ 'a'|center(5000) }}",
        "{{ 'a\nb'|indent(1000) }}",
        "{{ '%2000d'|format(1) }}",
        "{{ ('a' * 100)|replace('a', 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbb') }}",
        "{{ x + x }}",
        "{{ 'a'.ljust(5000) }}",
        "{{ '{:>5000}'.format(1) }}",
    ],
)
def test_jinja2_refuses_to_build_a_string_past_the_limit(template: str) -> None:
    with pytest.raises(TemplateError):
        render(template, "jinja2", SMALL, x="x" * 600)


@pytest.mark.parametrize(
    ("template", "expected"),
    [
        ("{{ 'ab' * 3 }}", "ababab"),
        ("{{ 2 ** 10 }}", "1024"),
        ("{{ '%5s' % 'a' }}", "    a"),
        ("{{ 'a'|center(5) }}", "  a  "),
        ("{{ 'a-b'|replace('-', '+') }}", "a+b"),
        ("{{ '%03d'|format(7) }}", "007"),
        ("{{ [1, 2] + [3] }}", "[1,2,3]"),  # containers print as JSON
    ],
)
def test_jinja2_small_results_of_the_guarded_operations_are_unchanged(
    template: str, expected: str
) -> None:
    assert render(template, "jinja2", SMALL) == expected


def test_limits_reach_every_factory_of_the_aggregate() -> None:
    factory = AggregatePromptTemplateFactory(limits=SMALL)
    for fmt, (template, arguments) in LOOPS.items():
        config = PromptTemplateConfig(template=template, template_format=fmt)
        with pytest.raises(TemplateError, match="renders more than 1,000"):
            asyncio.run(factory.create(config).render(None, arguments))
