"""Templates with the real :class:`sktypes.kernel.Kernel`: typed arguments, results, chat."""

from __future__ import annotations

import asyncio
import functools
from typing import Annotated, Any

import pytest
from pydantic import BaseModel

from sktypes.content import AuthorRole
from sktypes.errors import TemplateError
from sktypes.introspect import kernel_function
from sktypes.kernel import Kernel
from sktypes.templates import (
    PromptTemplateConfig,
    TemplateKernel,
    create_prompt_template,
    parse_chat_prompt,
)


class Order(BaseModel):
    sku: str
    qty: int


class Shop:
    """Orders and prices."""

    @kernel_function
    def price(self, sku: str, qty: int = 1) -> float:
        """The price of ``qty`` items."""
        return {"tea": 2.5}.get(sku, 1.0) * qty

    @kernel_function
    def summary(self, order: Order) -> str:
        """Describe an order."""
        return f"{order.qty} x {order.sku}"

    @kernel_function
    async def upcoming(self, days: Annotated[int, "how many"]) -> list[int]:
        """The next days."""
        return list(range(days))


def kernel() -> Kernel:
    k = Kernel()
    k.add_plugin(Shop(), "shop")
    return k


def render(template: str, fmt: str, k: TemplateKernel, **arguments: object) -> str:
    created = create_prompt_template(PromptTemplateConfig(template=template, template_format=fmt))
    return asyncio.run(created.render(k, arguments))


@pytest.mark.parametrize(
    ("fmt", "template"),
    [
        ("semantic-kernel", "{{shop.price 'tea' qty=$n}}"),
        ("jinja2", "{{ shop_price('tea', qty=n) }}"),
        ("handlebars", "{{shop-price 'tea' qty=n}}"),
    ],
)
def test_template_text_is_hydrated_to_the_real_kernels_parameter_types(
    fmt: str, template: str
) -> None:
    assert render(template, fmt, kernel(), n="4") == "10.0"


def test_a_json_argument_becomes_a_model_parameter() -> None:
    out = render("{{shop.summary $o}}", "semantic-kernel", kernel(), o='{"sku": "tea", "qty": 2}')
    assert out == "2 x tea"


def test_jinja2_loops_over_an_async_functions_typed_result() -> None:
    out = render("{% for d in shop_upcoming(3) %}{{ d + 1 }};{% endfor %}", "jinja2", kernel())
    assert out == "1;2;3;"


def test_bad_text_for_a_typed_parameter_is_a_template_error() -> None:
    """The function's argument contract refuses it, as at every other door."""
    with pytest.raises(TemplateError, match=r"calling shop\.price: invalid arguments") as caught:
        render("{{shop.price 'tea' qty='many'}}", "semantic-kernel", kernel())
    assert "$.qty: 'many' is not of type 'integer'" in caught.value.message


def test_rendered_chat_prompt_becomes_the_content_models_chat_history() -> None:
    template = (
        '<message role="system">Prices in EUR.</message>'
        "<message role=\"user\">{{$question}} {{shop.price 'tea'}}</message>"
    )
    prompt = render(template, "semantic-kernel", kernel(), question="Is <b>2.5</b> fair?")
    history = parse_chat_prompt(prompt)
    assert [m.role for m in history] == [AuthorRole.SYSTEM, AuthorRole.USER]
    assert history[1].content == "Is <b>2.5</b> fair? 2.5"
    assert history.to_json()  # it is the content model's ChatHistory, serializable


def with_passthrough_filter() -> Kernel:
    """A kernel whose calls go through a (no-op) filter."""

    async def passthrough(context: Any, next: Any) -> None:
        await next(context)

    k = kernel()
    k.filters.append(passthrough)
    return k


JINJA_CASES = [
    "{{ shop_price('tea', qty=n) }} {{ shop_summary(o) }} <{{ shop_price(sku) }}>",
    "{% for d in shop_upcoming(2) %}{{ shop_price('tea', qty=d + 1) }};{% endfor %}",
    "{% if shop_price('tea') > 2 %}dear{% else %}cheap{% endif %}",
]


@pytest.mark.parametrize("template", JINJA_CASES)
def test_jinja2_renders_alike_with_and_without_filters(template: str) -> None:
    arguments = {"n": "3", "o": '{"sku": "tea", "qty": 2}', "sku": "<b>"}
    plain = render(template, "jinja2", kernel(), **arguments)
    filtered = render(template, "jinja2", with_passthrough_filter(), **arguments)
    assert plain == filtered


def test_calls_fail_alike_with_and_without_filters() -> None:
    template = "{{ shop_price('tea', qty='many') }}"
    messages = []
    for k in (kernel(), with_passthrough_filter()):
        with pytest.raises(TemplateError) as info:
            render(template, "jinja2", k)
        messages.append(str(info.value))
    assert messages[0] == messages[1]
    assert "shop.price" in messages[0]


@pytest.mark.parametrize(
    ("fmt", "template"),
    [
        ("semantic-kernel", "{{shop.price 'tea'}}"),
        ("jinja2", "{{ shop_price('tea') }}"),
        ("handlebars", "{{shop-price 'tea'}}"),
    ],
)
def test_template_calls_go_through_kernel_invoke_and_its_filters(fmt: str, template: str) -> None:
    seen: list[tuple[str, dict[str, Any]]] = []

    async def spy(context: Any, next: Any) -> None:
        seen.append((context.function.fully_qualified_name, dict(context.arguments)))
        await next(context)

    k = kernel()
    k.add_filter(spy)
    assert render(template, fmt, k) == "2.5"
    assert seen == [("shop.price", {"sku": "tea"})]


@pytest.mark.parametrize(
    ("fmt", "template"),
    [
        ("semantic-kernel", "{{p.later 'a'}}"),
        ("jinja2", "{{ p_later('a') }}"),
        ("handlebars", "{{p-later 'a'}}"),
    ],
)
def test_a_plain_function_returning_an_awaitable_works_as_through_invoke(
    fmt: str, template: str
) -> None:
    """``Kernel.invoke`` awaits what a plain ``def`` hands back; templates call through it."""

    def later(x: str) -> str:
        """Returns a coroutine despite its annotation."""
        return asyncio.sleep(0.01, x.upper())  # type: ignore[return-value]

    k = Kernel()
    k.add_function(later, "p")
    assert asyncio.run(k.invoke("p.later", {"x": "a"})).value == "A"
    assert render(template, fmt, k) == "A"


HANDLEBARS_CASES = [
    "{{shop-price 'tea' qty=n}} {{shop-summary o}} <{{shop-price sku}}>",
    "{{shop-price (shop-summary o)}}",  # an output passed on: the value, not its text
    "{{concat 'total: ' (shop-price 'tea' qty=n)}}",
    "{{#if (shop-price 'none')}}yes{{else}}no{{/if}}",
    '{{#message role="user"}}{{shop-price sku}}{{/message}}',
]


@pytest.mark.parametrize("trusted", [False, True])
@pytest.mark.parametrize("template", HANDLEBARS_CASES)
def test_handlebars_renders_alike_with_and_without_filters(template: str, trusted: bool) -> None:
    arguments = {"n": "3", "o": '{"sku": "<b>", "qty": 2}', "sku": "<b>"}
    config = PromptTemplateConfig(
        template=template, template_format="handlebars", allow_dangerously_set_content=trusted
    )
    outputs = [
        asyncio.run(create_prompt_template(config).render(k, arguments))
        for k in (kernel(), with_passthrough_filter())
    ]
    assert outputs[0] == outputs[1]


def test_handlebars_calls_fail_alike_with_and_without_filters() -> None:
    messages = []
    for k in (kernel(), with_passthrough_filter()):
        with pytest.raises(TemplateError) as info:
            render("{{shop-price 'tea' qty='many'}}", "handlebars", k)
        messages.append(str(info.value))
    assert messages[0] == messages[1]


def test_a_decorated_async_function_is_awaited() -> None:
    """``functools.wraps`` around an ``async def``: the wrapper looks sync, the call waits."""

    def logged(fn: Any) -> Any:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            return fn(*args, **kwargs)

        return wrapper

    @logged
    async def slow(x: str) -> str:
        await asyncio.sleep(0.001)
        return x.upper()

    k = Kernel()
    k.add_function(slow, "p")
    assert render("{{ p_slow('a') }}", "jinja2", k) == "A"
    assert render("{{p-slow 'a'}}", "handlebars", k) == "A"
