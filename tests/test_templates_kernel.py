"""Templates with the real :class:`sktypes.kernel.Kernel`: typed arguments, results, chat."""

from __future__ import annotations

import asyncio
from typing import Annotated

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
