"""Issue 23, findings 1, 7 and 8: what a template can reach, how long it runs, what it builds.

1. Handlebars read any public attribute: a generator (what a streaming kernel function
   returns) led through ``gi_frame.f_globals`` to ``os.environ``. One policy now decides
   for every engine (``sktypes.templates._attributes``): attributes are read only where
   they are data — mappings, sequences, declared fields of models, dataclasses and named
   tuples.
2. Nested loops that write nothing never stopped (nine nested ``{{#each}}`` over a
   10-character string; six nested ``range(100)`` in Jinja2): a work budget
   (:attr:`TemplateLimits.max_steps`) is charged per iteration and per block, helper,
   filter and function call, in all three engines.
3. Values built inside a template escaped the size bound (Jinja2's ``~``,
   ``([a] * n)|join``, ``str.replace``; Handlebars ``concat`` inside ``{{#with}}``): every
   intermediate string and list is bounded by :attr:`TemplateLimits.max_output`.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
from typing import Any

import pytest

from sktypes.errors import TemplateError
from sktypes.templates import (
    DEFAULT_TEMPLATE_LIMITS,
    PromptTemplateConfig,
    TemplateLimits,
    create_prompt_template,
)
from tests.template_escapes import (
    CANARY,
    ESCAPES,
    callable_by_design,
    catalogue,
    engine_escape_templates,
    escape_templates,
    printed_leak,
    render_path,
    roots,
)

BUDGET = 120.0  # seconds: a guard against a hang (each render below ran for hours, or
# forever, before the fix; now each stops at its limit in about a second on an idle machine)


def render(template: str, fmt: str, limits: TemplateLimits | None = None, **arguments: Any) -> str:
    config = PromptTemplateConfig(template=template, template_format=fmt, name="greeting")
    created = create_prompt_template(config, limits=limits)
    return asyncio.run(created.render(None, arguments))


# --- 1. the attribute policy ----------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["handlebars", "jinja2", "semantic-kernel"])
@pytest.mark.parametrize(("root", "path"), ESCAPES, ids=[f"{r}.{p}" for r, p in ESCAPES])
def test_a_known_escape_path_prints_nothing_in_any_engine(fmt: str, root: str, path: str) -> None:
    for template in escape_templates(fmt, root, path):
        out = render_path(fmt, template, roots())
        if out is None:  # refused: a TemplateError
            continue
        assert printed_leak(out) is None, (template, out[:200])
        if template.startswith((f"{{{{{root}.", f"{{{{ {root}.")):
            assert out == "", (template, out[:200])


def test_the_issue_reproducer_reads_no_secret_from_a_streaming_functions_generator() -> None:
    template = "{{gen.gi_frame.f_globals.os.environ.SKTYPES_TEST_CANARY}}"
    assert render(template, "handlebars", gen=roots()["gen"]) == ""


@pytest.mark.parametrize("fmt", ["handlebars", "jinja2"])
def test_no_path_in_the_catalogue_of_reachable_objects_escapes(fmt: str) -> None:
    """Every attribute path from common values to a frame, code, module, function... (BFS)."""
    values = roots()
    paths = list(catalogue(values, depth=2))
    assert len(paths) > 200  # the catalogue is not empty: the walk reaches many objects
    leaks = []
    for root, path in paths:
        if fmt == "jinja2" and callable_by_design(values, root, path):
            continue  # ``text.upper``: a method of a built-in value, which Jinja2 calls
        template = escape_templates(fmt, root, path)[0]
        out = render_path(fmt, template, roots())
        if out is not None and (printed_leak(out) or out):
            leaks.append((template, out[:80]))
    assert leaks == []


@pytest.mark.parametrize("fmt", ["handlebars", "jinja2"])
def test_the_engines_own_objects_lead_nowhere(fmt: str) -> None:
    """Jinja2's globals, loop, macros, caller...; Handlebars' this, @root, ../: no way out."""
    templates = list(engine_escape_templates(fmt))
    assert len(templates) > 300
    printed = []
    for template in templates:
        out = render_path(fmt, template, roots())
        if out is not None and out.strip():
            printed.append((template, out[:80]))
    assert printed == []


DATA = {
    "handlebars": (
        "{{person.name}}|{{point.x}}|{{pair.left}}|{{mapping.k}}|{{items.[1]}}|{{items.length}}|"
        "{{#each person.tags}}{{this}}{{/each}}|{{#with point}}{{y}}{{/with}}|"
        '{{lookup mapping "k"}}|{{extra.note}}',
        "ann|1|l|v|b|2|a|2|v|hi",
    ),
    "jinja2": (
        "{{ person.name }}|{{ point.x }}|{{ pair.left }}|{{ mapping.k }}|{{ items[1] }}|"
        "{{ items|length }}|{% for t in person.tags %}{{ t }}{% endfor %}|"
        "{% for k, v in mapping.items() %}{{ k }}={{ v }}{% endfor %}|{{ text.upper() }}|"
        "{% for i in items %}{{ loop.index }}{% endfor %}|"
        "{% set ns = namespace(n=1) %}{% set ns.n = ns.n + 1 %}{{ ns.n }}|{{ extra.note }}",
        "ann|1|l|v|b|2|a|k=v|ABC|12|2|hi",
    ),
}


@pytest.mark.parametrize("fmt", sorted(DATA))
def test_data_is_still_read_fields_entries_items_and_the_engines_own_objects(fmt: str) -> None:
    from pydantic import BaseModel, ConfigDict

    class Open(BaseModel):
        model_config = ConfigDict(extra="allow")

    template, expected = DATA[fmt]
    assert render(template, fmt, **roots(), extra=Open(note="hi")) == expected


def test_a_plain_objects_attributes_and_methods_are_not_data() -> None:
    service = roots()["obj"]
    assert render("[{{obj.name}}][{{obj.api_key}}][{{obj.call}}]", "handlebars", obj=service) == (
        "[][][]"
    )
    out = render("[{{ obj.name }}][{{ obj.api_key }}]", "jinja2", obj=service)
    assert out == "[][]"
    assert CANARY not in out


@pytest.mark.parametrize("fmt", ["handlebars", "jinja2", "semantic-kernel"])
@pytest.mark.parametrize("text", ["{" * 600, "{{" + "(" * 3000, "{{" + "[" * 3000 + "x"])
def test_deeply_nested_template_text_is_a_template_error(fmt: str, text: str) -> None:
    """Found by ``make fuzz`` (template_jinja2): Jinja2's parser recursed past the stack."""
    try:
        out = render(text, fmt)
    except TemplateError:
        return
    assert out == text  # text that is no expression stays text


# --- 2. the work budget ---------------------------------------------------------------------


def _nested(fmt: str, levels: int) -> tuple[str, dict[str, Any]]:
    if fmt == "handlebars":
        return "{{#each @root.s}}" * levels + "{{/each}}" * levels, {"s": "abcdefghij"}
    if fmt == "jinja2":
        opened = "".join(f"{{% for i{n} in range(100) %}}" for n in range(levels))
        return opened + "{% endfor %}" * levels, {}
    return "{{$s}}" * 10**levels, {"s": ""}


@pytest.mark.parametrize(("fmt", "levels"), [("handlebars", 9), ("jinja2", 6)])
def test_the_issue_reproducers_stop_at_the_work_budget(fmt: str, levels: int) -> None:
    template, arguments = _nested(fmt, levels)
    assert len(template) < 300  # a few hundred bytes of template, 10**9 or 10**12 steps
    start = time.monotonic()
    with pytest.raises(TemplateError) as caught:
        render(template, fmt, **arguments)
    assert time.monotonic() - start < BUDGET
    assert caught.value.message == (
        "template 'greeting' takes more than 1,000,000 steps (TemplateLimits.max_steps: one per "
        "loop iteration, block, helper, filter or function call); rendering stopped"
    )


@pytest.mark.parametrize("fmt", ["handlebars", "jinja2", "semantic-kernel"])
def test_the_work_budget_is_configurable_in_every_engine(fmt: str) -> None:
    template, arguments = _nested(fmt, 3)
    assert DEFAULT_TEMPLATE_LIMITS.max_steps == 1_000_000
    assert render(template, fmt, TemplateLimits(max_steps=10**7), **arguments) == ""
    with pytest.raises(TemplateError, match="more than 500 steps"):
        render(template, fmt, TemplateLimits(max_steps=500), **arguments)
    with pytest.raises(ValueError, match="max_steps"):
        TemplateLimits(max_steps=0)


JINJA_WORK = [
    "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
    "{% macro m(n) %}{% for i in range(100) %}{{ m(n) if n else '' }}{% endfor %}{% endmacro %}"
    "{{ m(0) }}{% for i in range(100000) %}{{ m(0) }}{% endfor %}",
    "{% for x in range(100000) recursive %}{{ loop(range(100000)) if loop.depth < 3 else '' }}"
    "{% endfor %}",
    "{% for i in range(100000) %}{{ range(100000)|sum }}{% endfor %}",
    "{% for i in range(100000) %}{% for j in range(100000)|select %}{% endfor %}{% endfor %}",
    "{% set big = 'a' * 8000000 %}{% for i in range(100000) %}{% if 'zz' in big %}{% endif %}"
    "{% endfor %}",
    "{% set big = 'a' * 8000000 %}{% for i in range(100000) %}{% set c = big[1:] %}{% endfor %}",
    "{% set big = 'a' * 8000000 %}{% for i in range(100000) %}{% set c = big.upper() %}"
    "{% endfor %}",
]


@pytest.mark.parametrize("template", JINJA_WORK)
def test_jinja2_work_that_writes_nothing_is_charged(template: str) -> None:
    start = time.monotonic()
    with pytest.raises(TemplateError, match=r"TemplateLimits\.max_steps"):
        render(template, "jinja2")
    assert time.monotonic() - start < BUDGET


HANDLEBARS_WORK = [
    "{{#each @root.xs}}{{#each @root.xs}}{{#each @root.xs}}{{/each}}{{/each}}{{/each}}",
    "{{#each @root.xs}}{{#each @root.xs}}{{#if this}}{{equals this 1}}{{/if}}{{/each}}{{/each}}",
    "{{#each @root.xs}}{{#each @root.xs}}{{#with this}}{{/with}}{{/each}}{{/each}}",
    "{{#each @root.xs}}{{#each @root.xs}}{{concat this this}}{{/each}}{{/each}}",
]


@pytest.mark.parametrize("template", HANDLEBARS_WORK)
def test_handlebars_work_that_writes_nothing_is_charged(template: str) -> None:
    start = time.monotonic()
    with pytest.raises(TemplateError, match=r"TemplateLimits\.max_steps"):
        render(template, "handlebars", TemplateLimits(max_steps=100_000), xs=[""] * 1000)
    assert time.monotonic() - start < BUDGET


def test_ordinary_templates_stay_far_below_the_budget() -> None:
    people = [{"name": f"p{i}", "tags": ["a", "b", "c"]} for i in range(2_000)]
    hbs = "{{#each people}}{{name}}:{{#each tags}}{{this}},{{/each}};{{/each}}"
    jinja = (
        "{% for p in people %}{{ p.name }}:{% for t in p.tags %}{{ t }},{% endfor %};{% endfor %}"
    )
    limits = TemplateLimits(max_steps=20_000)  # 2,000 people x 4 iterations, and calls
    assert render(hbs, "handlebars", limits, people=people) == render(
        jinja, "jinja2", limits, people=people
    )


# --- 3. values built inside a template ------------------------------------------------------

SMALL = TemplateLimits(max_output=1_000)

BUILT = {
    "jinja2": [
        "{% set a = 'x' * 600 %}{% set b = a ~ a %}{{ b|length }}",
        "{% set a = 'x' * 600 %}{{ (a ~ a ~ a)|length }}",
        "{{ (['x' * 600] * 2)|join|length }}",
        "{{ (['x' * 10] * 90)|join('yyyyyyyyyyyyyyyyyyyy')|length }}",
        "{{ ('a' * 100).replace('a', 'b' * 100)|length }}",
        "{{ ('a' * 100).join(['b'] * 20)|length }}",
        "{{ [[1] * 600, [2] * 600]|sum(start=[])|length }}",
        "{{ [xs * 600, xs * 600]|sum(start=[])|length }}",
        "{{ xs|batch(100000, 0)|list|length }}",
        "{{ [1]|batch(100000, 0)|list|length }}",
        "{{ []|slice(100000)|list|length }}",
        "{{ lipsum(100)|length }}",
        "{{ ('x' * 600)|wordwrap(1, wrapstring='yyyyyyyy')|length }}",
        "{{ [[[1]]]|tojson(indent=1000)|length }}",
        "{{ {'a': 'x' * 600, 'b': 'y' * 600}|tojson|length }}",
        "{{ ('http://a.b ' * 100)|urlize|length }}",
        "{{ 7 * 7 ** 5000 }}",
    ],
    "handlebars": [
        "{{#with (concat a a)}}{{#with (concat this this)}}{{/with}}{{/with}}",
        "{{#with (concat a a a)}}{{/with}}",
        "{{#each (concat a a)}}{{/each}}",
        "{{#if (concat a a)}}{{/if}}",
    ],
}


@pytest.mark.parametrize(
    ("fmt", "template"), [(f, t) for f, ts in BUILT.items() for t in ts], ids=repr
)
def test_a_value_built_past_the_limit_is_refused_even_when_only_its_length_prints(
    fmt: str, template: str
) -> None:
    with pytest.raises(TemplateError, match=r"TemplateLimits\.max_output") as caught:
        render(template, fmt, SMALL, a="x" * 600, xs=[1])
    assert caught.value.message.startswith("template 'greeting'")


def test_the_issue_reproducers_of_doubling_values_stop_quickly() -> None:
    start = time.monotonic()
    jinja = (
        "{% set a = 'x' * 1000000 %}"
        + "".join(f"{{% set a{n + 1} = a{n} ~ a{n} %}}" for n in range(30)).replace("a0", "a")
        + "{{ a30|length }}"
    )
    with pytest.raises(TemplateError, match="max_output"):
        render(jinja, "jinja2")
    hbs = "{{#with (concat a a)}}" + "{{#with (concat this this)}}" * 29 + "{{/with}}" * 30
    with pytest.raises(TemplateError, match="max_output"):
        render(hbs, "handlebars", a="x" * 1_000_000)
    assert time.monotonic() - start < BUDGET


@pytest.mark.parametrize(
    ("fmt", "template", "expected"),
    [
        ("jinja2", "{% set a = 'x' * 400 %}{{ (a ~ a)|length }}", "800"),
        ("jinja2", "{{ (['ab'] * 3)|join('-') }}", "ab-ab-ab"),
        ("jinja2", "{{ 'a-b'.replace('-', '+') }}|{{ ','.join(['x', 'y']) }}", "a+b|x,y"),
        ("jinja2", "{{ [xs, xs + [2]]|sum(start=[]) }}", "[1,1,2]"),
        ("jinja2", "{{ (xs + [2, 3])|batch(2, 0)|list }}", "[[1,2],[3,0]]"),
        ("jinja2", "{{ {'a': [1]}|tojson(indent=2) }}", '{\n  "a": [\n    1\n  ]\n}'),
        ("handlebars", "{{#with (concat a a)}}{{this}}{{/with}}", "xyxy"),
    ],
)
def test_values_within_the_limit_are_built_as_before(
    fmt: str, template: str, expected: str
) -> None:
    assert render(template, fmt, SMALL, a="xy", xs=[1]) == expected


# --- a long-running process: parsing keeps nothing -------------------------------------------


@pytest.mark.parametrize(
    "template",
    [
        "{{#each @root.s}}{{#with (concat a a)}}{{this}}{{/with}}{{/each}}",
        "{{#if a}}{{lookup xs 0}}{{else}}{{a.[x y]}}{{/if}} {{> missing}}",
        "{{#each xs}}{{unclosed",  # a syntax error: every alternative missed
    ],
)
def test_parsing_handlebars_leaves_no_parser_behind(template: str) -> None:
    """Found by make fuzz (atheris: out of memory after 94,000 inputs, 4 GB, slow units).

    The parser backtracks by raising one exception instance; each raise added its frames
    to that instance's traceback, so every parser that ever missed (and every node it built)
    stayed alive: about 46 KB per template in a server that creates templates.
    """

    def parsers() -> int:
        gc.collect()
        return sum(
            type(o).__name__ == "_Parser" and type(o).__module__.endswith("._hbs_syntax")
            for o in gc.get_objects()
        )

    before = parsers()
    for _ in range(20):
        with contextlib.suppress(TemplateError):  # the syntax error is refused
            render(template, "handlebars", SMALL, a="xy", xs=[1], s="abc")
    assert parsers() - before <= 1
