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
from sktypes.templates._calls import _may_suspend, blocking_invoker


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
    with pytest.raises(TemplateError, match=r"'qty' of shop\.price"):
        render("{{shop.price 'tea' qty='many'}}", "semantic-kernel", kernel())


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
    """A kernel whose calls go through a (no-op) filter: the awaiting path in every engine."""

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
def test_jinja2_renders_alike_blocking_and_awaiting(template: str) -> None:
    """Sync functions on a filter-less Kernel render synchronously; the result is the same."""
    arguments = {"n": "3", "o": '{"sku": "tea", "qty": 2}', "sku": "<b>"}
    blocking = render(template, "jinja2", kernel(), **arguments)
    awaiting = render(template, "jinja2", with_passthrough_filter(), **arguments)
    assert blocking == awaiting


def test_blocking_and_awaiting_calls_fail_alike() -> None:
    template = "{{ shop_price('tea', qty='many') }}"
    messages = []
    for k in (kernel(), with_passthrough_filter()):
        with pytest.raises(TemplateError) as info:
            render(template, "jinja2", k)
        messages.append(str(info.value))
    assert messages[0] == messages[1]
    assert "shop.price" in messages[0]


def test_only_plain_functions_on_a_filterless_kernel_are_called_blocking() -> None:
    k = kernel()
    assert blocking_invoker(k, k.get_function("shop.price")) is not None
    assert blocking_invoker(k, k.get_function("shop.upcoming")) is None  # async def
    assert blocking_invoker(with_passthrough_filter(), k.get_function("shop.price")) is None
    assert blocking_invoker(None, k.get_function("shop.price")) is None


def test_a_plain_function_returning_a_waiting_awaitable_is_named() -> None:
    def later(x: str) -> str:
        """Returns a coroutine despite its annotation."""
        return asyncio.sleep(0.01, x)  # type: ignore[return-value]

    k = Kernel()
    k.add_function(later, "p")
    with pytest.raises(TemplateError, match="declare it `async def`"):
        render("{{ p_later('a') }}", "jinja2", k)


def test_what_may_suspend_is_seen_through_partials_and_callable_objects() -> None:
    async def waits(x: str) -> str:
        return x

    def plain(x: str) -> str:
        return x

    class AsyncCall:
        async def __call__(self, x: str) -> str:
            return x

    class SyncCall:
        def __call__(self, x: str) -> str:
            return x

    assert _may_suspend(waits) and _may_suspend(functools.partial(waits, "a"))
    assert _may_suspend(AsyncCall())
    assert not _may_suspend(plain) and not _may_suspend(functools.partial(plain, "a"))
    assert not _may_suspend(SyncCall())


HANDLEBARS_CASES = [
    "{{shop-price 'tea' qty=n}} {{shop-summary o}} <{{shop-price sku}}>",
    "{{shop-price (shop-summary o)}}",  # an output passed on: the value, not its text
    "{{concat 'total: ' (shop-price 'tea' qty=n)}}",
    "{{#if (shop-price 'none')}}yes{{else}}no{{/if}}",
    '{{#message role="user"}}{{shop-price sku}}{{/message}}',
]


@pytest.mark.parametrize("trusted", [False, True])
@pytest.mark.parametrize("template", HANDLEBARS_CASES)
def test_handlebars_renders_alike_blocking_and_awaiting(template: str, trusted: bool) -> None:
    arguments = {"n": "3", "o": '{"sku": "<b>", "qty": 2}', "sku": "<b>"}
    config = PromptTemplateConfig(
        template=template, template_format="handlebars", allow_dangerously_set_content=trusted
    )
    outputs = [
        asyncio.run(create_prompt_template(config).render(k, arguments))
        for k in (kernel(), with_passthrough_filter())
    ]
    assert outputs[0] == outputs[1]


def test_handlebars_blocking_and_awaiting_calls_fail_alike() -> None:
    messages = []
    for k in (kernel(), with_passthrough_filter()):
        with pytest.raises(TemplateError) as info:
            render("{{shop-price 'tea' qty='many'}}", "handlebars", k)
        messages.append(str(info.value))
    assert messages[0] == messages[1]


def test_a_decorated_async_function_is_awaited_not_called_blocking() -> None:
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
    assert _may_suspend(k.get_function("p.slow").view.native_function)
    assert blocking_invoker(k, k.get_function("p.slow")) is None
    assert render("{{ p_slow('a') }}", "jinja2", k) == "A"
    assert render("{{p-slow 'a'}}", "handlebars", k) == "A"
