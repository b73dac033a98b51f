"""Behaviour of the three engines and the factories: calls, typing, late binding, errors."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from sktypes.errors import TemplateError, UnknownTemplateFormatError
from sktypes.templates import (
    AggregatePromptTemplateFactory,
    HandlebarsPromptTemplateFactory,
    InputVariable,
    Jinja2PromptTemplateFactory,
    KernelPromptTemplateFactory,
    PromptTemplate,
    PromptTemplateConfig,
    _sk_syntax,
    create_prompt_template,
)
from tests.test_templates_fakes import FakeKernel, golden_kernel


def render(template: str, fmt: str, kernel: Any = None, **arguments: Any) -> str:
    created = create_prompt_template(PromptTemplateConfig(template=template, template_format=fmt))
    return asyncio.run(created.render(kernel, arguments))


def days(count: int) -> list[int]:
    """Return the next ``count`` day numbers."""
    return list(range(1, count + 1))


# --- semantic-kernel syntax -------------------------------------------------------------


def test_sk_call_arguments_are_hydrated_to_the_parameter_types() -> None:
    kernel = golden_kernel()
    assert render("{{p.inc $n}} {{p.inc n='9'}}", "semantic-kernel", kernel, n="41") == "42 10"
    assert kernel.calls == [("p.inc", {"n": 41}), ("p.inc", {"n": 9})]


def test_sk_call_passes_only_the_template_arguments_the_function_takes() -> None:
    kernel = golden_kernel()
    assert render("{{p.join}}", "semantic-kernel", kernel, a="A", other="x") == "A|B"
    assert kernel.calls == [("p.join", {"a": "A"})]


def test_sk_syntax_error_names_line_and_column() -> None:
    with pytest.raises(TemplateError) as caught:
        render("first line\n  ok {{$x}} then {{p.f $a $b}}", "semantic-kernel")
    assert (caught.value.line, caught.value.column) == (2, 18)
    assert "only the first argument may be positional" in caught.value.message


def test_sk_missing_function_is_an_error_naming_the_block() -> None:
    with pytest.raises(TemplateError) as caught:
        render("x\n{{p.nope $a}}", "semantic-kernel", golden_kernel())
    assert (caught.value.line, caught.value.column) == (2, 1)
    assert "'p.nope' not found" in str(caught.value)


def test_sk_function_call_without_a_kernel_is_an_error() -> None:
    with pytest.raises(TemplateError, match="no kernel"):
        render("{{p.echo}}", "semantic-kernel")


def test_sk_template_is_parsed_once_and_rendered_many_times(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    created = create_prompt_template(PromptTemplateConfig(template="{{$x}}-{{p.echo $x}}"))

    def fail(*_: Any, **__: Any) -> None:
        raise AssertionError("parsed again")

    monkeypatch.setattr(_sk_syntax, "parse", fail)
    kernel = golden_kernel()
    outputs = {asyncio.run(created.render(kernel, {"x": str(i)})) for i in range(3)}
    assert outputs == {"0-0", "1-1", "2-2"}


def test_parameters_are_the_declared_variables_then_the_used_ones() -> None:
    config = PromptTemplateConfig(
        template="{{$b}} {{p.f $c name=$d}} {{$A}}",
        input_variables=[
            InputVariable(name="a", description="the a", json_schema='{"type":"integer"}')
        ],
    )
    params = create_prompt_template(config).parameters
    assert [p.name for p in params] == ["a", "b", "c", "d"]  # $A matches "a" case-insensitively
    assert params[0].description == "the a"
    assert params[0].schema is not None and params[0].schema.value["type"] == "integer"
    assert params[0].is_required
    assert not params[1].is_required


def test_declared_defaults_fill_missing_arguments() -> None:
    config = PromptTemplateConfig(
        template="Hello {{$name}}", input_variables=[InputVariable(name="name", default="you")]
    )
    created = create_prompt_template(config)
    assert asyncio.run(created.render(None, {})) == "Hello you"
    assert asyncio.run(created.render(None, {"name": "Ann"})) == "Hello Ann"
    assert not created.parameters[0].is_required


@pytest.mark.parametrize(
    ("fmt", "template"),
    [
        ("semantic-kernel", "{{late.days $n}}"),
        ("jinja2", "{{ late_days(n) }}"),
        ("handlebars", "{{late-days n}}"),
    ],
)
def test_a_function_added_after_the_template_was_created_is_found_at_render(
    fmt: str, template: str
) -> None:
    created = create_prompt_template(PromptTemplateConfig(template=template, template_format=fmt))
    kernel = FakeKernel()
    kernel.add(days, "late")
    assert asyncio.run(created.render(kernel, {"n": "3"})) == "[1,2,3]"
    assert kernel.calls == [("late.days", {"count": 3})]


# --- jinja2 -----------------------------------------------------------------------------


def test_jinja2_function_returns_its_typed_value() -> None:
    kernel = FakeKernel()
    kernel.add(days, "cal")
    template = "{% for d in cal_days(count='3') %}<{{ d * 2 }}>{% endfor %}"
    assert render(template, "jinja2", kernel) == "<2><4><6>"


def test_jinja2_runs_in_a_sandbox() -> None:
    with pytest.raises(TemplateError, match="jinja2"):
        render("{{ x.__class__.__mro__[1].__subclasses__() }}", "jinja2", x="a")


def test_jinja2_syntax_error_names_the_line() -> None:
    with pytest.raises(TemplateError) as caught:
        render("ok\n{% for x in %}\n{% endfor %}", "jinja2")
    assert caught.value.line == 2


def test_jinja2_macros_are_not_kernel_functions_and_missing_functions_are_named() -> None:
    template = (
        "{% macro hi(n) %}Hi {{ n }}{% endmacro %}{{ hi(x) }}{% for i in range(2) %}.{% endfor %}"
    )
    assert render(template, "jinja2", golden_kernel(), x="<X>") == "Hi &lt;X&gt;.."
    with pytest.raises(TemplateError, match=r"p_nope\(\): no such function.*tried p\.nope"):
        render("{{ p_nope() }}", "jinja2", golden_kernel())


def test_jinja2_parameters_leave_out_called_functions() -> None:
    config = PromptTemplateConfig(
        template="{{ a }} {{ p_f(b) }} {% for i in items %}{{ i }}{% endfor %}",
        template_format="jinja2",
    )
    assert [p.name for p in create_prompt_template(config).parameters] == ["a", "b", "items"]


# --- handlebars -------------------------------------------------------------------------


def test_handlebars_helpers_are_named_with_dash_or_underscore() -> None:
    kernel = golden_kernel()
    out = render("{{p-echo x}} {{p_echo input='lit'}}", "handlebars", kernel, x="X")
    assert out == "X lit"


def test_handlebars_function_output_can_feed_another_function() -> None:
    kernel = golden_kernel()
    out = render(
        "{{p-join (p-html) (p-echo x)}} {{p-inc (p-inc n)}}", "handlebars", kernel, x="X", n="1"
    )
    assert out == "&lt;b&gt;&amp;&lt;/b&gt;|X 3"
    assert [c[0] for c in kernel.calls] == ["p.html", "p.echo", "p.join", "p.inc", "p.inc"]
    assert kernel.calls[2] == ("p.join", {"a": "<b>&</b>", "b": "X"})  # raw, not encoded
    assert kernel.calls[4] == ("p.inc", {"n": 2})  # the inner call's native value


def test_handlebars_message_helper_writes_a_chat_message() -> None:
    out = render('{{#message role="user"}}Hi {{name}}{{/message}}', "handlebars", name="<Ann>")
    assert out == '<message role="user">Hi &lt;Ann&gt;</message>'


def test_handlebars_syntax_error_names_line_and_column() -> None:
    with pytest.raises(TemplateError) as caught:
        render("ok\n  {{#if x}}\n{{/each}}", "handlebars")
    assert caught.value.line == 3 and caught.value.column is not None


def test_handlebars_parameters_are_the_top_level_names() -> None:
    config = PromptTemplateConfig(
        template="{{a}} {{#each items}}{{this.x}} {{../b}}{{/each}} {{p-f c key=d}}",
        template_format="handlebars",
    )
    names = [p.name for p in create_prompt_template(config).parameters]
    assert names == ["a", "items", "b", "c", "d"]


# --- factories --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("factory", "other"),
    [
        (KernelPromptTemplateFactory(), "jinja2"),
        (Jinja2PromptTemplateFactory(), "handlebars"),
        (HandlebarsPromptTemplateFactory(), "semantic-kernel"),
    ],
)
def test_each_factory_refuses_formats_it_does_not_handle(factory: Any, other: str) -> None:
    with pytest.raises(UnknownTemplateFormatError):
        factory.create(PromptTemplateConfig(template="x", template_format=other))


def test_aggregate_factory_lets_the_first_taker_win_and_accepts_third_parties() -> None:
    class Upper:
        def __init__(self, config: PromptTemplateConfig) -> None:
            self.config = config
            self.parameters = ()

        async def render(self, kernel: Any, arguments: Any) -> str:
            return self.config.template.upper()

    class UpperFactory:
        def create(self, config: PromptTemplateConfig) -> PromptTemplate:
            if config.template_format != "upper":
                raise UnknownTemplateFormatError("not mine")
            return Upper(config)

    factory = AggregatePromptTemplateFactory(UpperFactory(), KernelPromptTemplateFactory())
    upper = factory.create(PromptTemplateConfig(template="hi", template_format="upper"))
    assert isinstance(upper, PromptTemplate)
    assert asyncio.run(upper.render(None, {})) == "HI"
    sk = factory.create(PromptTemplateConfig(template="{{$x}}"))
    assert asyncio.run(sk.render(None, {"x": 1})) == "1"
    with pytest.raises(UnknownTemplateFormatError, match="'jinja2'"):
        factory.create(PromptTemplateConfig(template="x", template_format="jinja2"))


def test_default_factory_handles_the_three_formats() -> None:
    for fmt in ("semantic-kernel", "jinja2", "handlebars"):
        assert render("plain", fmt) == "plain"
