"""Static typing checks of hydrate / hydrate_stream: mypy --strict runs on this file."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, assert_type

import sktypes as sk
from sktypes.hydration import HydrationLimits
from tests.hydration_models import Item, Order


def check(text: str, raw: bytes, view: sk.FunctionView, param: sk.ParameterView) -> None:
    assert_type(sk.hydrate(Order, text), Order)
    assert_type(sk.hydrate(Order, raw, partial=True), Order)
    assert_type(sk.hydrate(Item, {"sku": "a", "qty": 1}, strict=True), Item)
    assert_type(sk.hydrate(int, "1", repair=False), int)
    assert_type(sk.hydrate(list[Item], "[]"), list[Item])
    assert_type(sk.hydrate(view, "{}"), dict[str, Any])
    assert_type(sk.hydrate(param, "1"), Any)
    assert_type(sk.hydrate({"type": "integer"}, "1"), Any)
    assert_type(sk.hydrate(Order, text, limits=HydrationLimits(max_size=1024)), Order)
    assert_type(sk.hydrate_stream(Order, iter(["{"])), Iterator[Order])
    assert_type(sk.hydrate_stream(view, ["{}"]), Iterator[Any])
    try:
        sk.hydrate(Order, text)
    except sk.HydrationError as exc:
        assert_type(exc.for_llm(), str)
