"""What a model sends back: answers to hydrate (whole and cut off), chat histories, plans."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import json
import math
import re
from typing import Any

from hypothesis import strategies as st
from pydantic import BaseModel

import sktypes as sk
from examples.date_weather import DatePluginSimpleComplex, WeatherPluginSimpleComplex
from sktypes.content import (
    AuthorRole,
    ChatHistory,
    ChatMessageContent,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    TextContent,
)
from sktypes.errors import HydrationError, SktypesError
from sktypes.kernel import Kernel
from sktypes.plan import Plan, check_plan, run_plan
from tests.fuzz._guard import watching
from tests.fuzz._inputs import json_values, mutated, noisy_text, to_json
from tests.fuzz._registry import Finding, target
from tests.fuzz.targets_documents import SYSTEM_DIRS

# -- hydrate: whole answers ------------------------------------------------------------------


class Item(BaseModel):
    sku: str
    qty: int


class Order(BaseModel):
    id: int
    items: list[Item]
    note: str | None = None


ORDER_SCHEMA = {
    "type": "object",
    "properties": {
        "id": {"type": "integer"},
        "tags": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["id"],
}
TARGETS: list[Any] = [Any, Order, list[Item], dict[str, float], ORDER_SCHEMA, float, str]

_orders = st.fixed_dictionaries(
    {
        "id": st.integers(-(2**63), 2**63) | json_values,
        "items": st.lists(
            st.fixed_dictionaries({"sku": st.text(max_size=5), "qty": st.integers(0, 9)}),
            max_size=3,
        )
        | json_values,
    },
    optional={"note": st.text(max_size=10) | st.sampled_from(["```\n[1]\n```", "a\n```json\n{}"])},
)
_answers = st.one_of(noisy_text(), noisy_text(_orders), mutated(noisy_text(_orders)))

_HYDRATE_SEEDS = (
    b'{"note": "run \n```\n[\'a.py\', \'b.py\']\n```\n", "id": 1, "items": [],}',
    b"[" + b",".join([b"{}"] * 2000) + b"]",
    b'{"id": NaN, "items": []}',
    b'[NaN, Infinity, -Infinity, "inf", 1e400]',
    b'```json\n{"a": "```"}\n```',
    # found by make fuzz: a lone surrogate escape, CESU-8 surrogate bytes, and broken
    # objects whose inner array was returned as the answer
    b'{"\\ud800id": 0, "items": []}',
    b'{"\xed\xa0\x80id": 0, "items": []}',
    b'{id": 0, "items": []}',
    b'{"0": [[,], null, [',
)


def _no_non_finite(value: Any) -> None:
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, float) and not math.isfinite(node):
            raise Finding("hydrate returned a NaN or an infinity without allow_inf_nan")
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, (list, tuple)):
            stack.extend(node)
        elif isinstance(node, BaseModel):
            stack.extend(vars(node).values())


def _bounded(exc: HydrationError) -> None:
    if len(exc.for_llm()) > 2000 or len(str(exc)) > 20_000 or len(exc.errors) > 100:
        raise Finding(f"an unbounded error: {len(str(exc))} characters, {len(exc.errors)} details")


@target("hydrate", _answers, seeds=_HYDRATE_SEEDS)
def hydrate(data: bytes) -> None:
    """An answer: a value of the target (never NaN), or a bounded HydrationError only."""
    text = data.decode("utf-8", "replace")
    with watching(SYSTEM_DIRS):
        for tgt in TARGETS:
            try:
                value = sk.hydrate(tgt, text)
            except HydrationError as exc:
                _bounded(exc)
                continue
            _no_non_finite(value)
            if tgt is Order and not isinstance(value, Order):
                raise Finding(f"hydrate(Order) returned {type(value).__name__}")
        try:  # strict UTF-8: json.loads(bytes) would let CESU-8 surrogate bytes through
            exact = json.loads(data.decode("utf-8"))
        except ValueError:
            return
        if _plain(exact):
            try:
                got = sk.hydrate(Any, data)
            except HydrationError as exc:
                raise Finding(f"valid JSON refused: {exc}") from None
            if got != exact:
                raise Finding(f"valid JSON changed: {exact!r} -> {got!r}")


_SURROGATE = re.compile("[\ud800-\udfff]")


def _plain(value: Any) -> bool:
    """JSON that hydrate(Any, ...) must return unchanged (finite, 64-bit, not too deep).

    A lone surrogate (``"\\ud800"``) is not plain: no UTF-8 text can hold it, so hydrate
    refuses it with a HydrationError rather than return a string nothing can encode.
    """
    stack = [(value, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > 150:
            return False
        if isinstance(node, float) and not math.isfinite(node):
            return False
        if isinstance(node, int) and not isinstance(node, bool) and not -(2**63) <= node < 2**64:
            return False
        if isinstance(node, str) and _SURROGATE.search(node):
            return False
        if isinstance(node, dict):
            if any(_SURROGATE.search(key) for key in node):
                return False
            stack.extend((v, depth + 1) for v in node.values())
        elif isinstance(node, list):
            stack.extend((v, depth + 1) for v in node)
    return True


# -- hydrate: cut-off answers (partial) ------------------------------------------------------

_prefixes = st.tuples(noisy_text(_orders) | noisy_text(), st.floats(0, 1)).map(
    lambda t: t[0][: int(len(t[0]) * t[1])]
)


@target("partial", _prefixes | mutated(_prefixes), seeds=_HYDRATE_SEEDS)
def partial(data: bytes) -> None:
    """A prefix of an answer: the best value so far of the target's kind, or HydrationError."""
    text = data.decode("utf-8", "replace")
    head = text.lstrip()[:1]
    with watching(SYSTEM_DIRS):
        for tgt in TARGETS:
            try:
                value = sk.hydrate(tgt, text, partial=True)
            except HydrationError as exc:
                _bounded(exc)
                continue
            _no_non_finite(value)
            if tgt is Order and not isinstance(value, Order):
                raise Finding(f"partial Order is a {type(value).__name__}")
            if tgt is Any and head == "{" and not isinstance(value, dict):
                raise Finding(f"a cut-off object came back as {type(value).__name__}: {value!r}")
            if tgt is Any and head == "[" and not isinstance(value, list):
                raise Finding(f"a cut-off array came back as {type(value).__name__}: {value!r}")


# -- chat histories --------------------------------------------------------------------------

_items = st.one_of(
    st.builds(
        TextContent,
        text=st.text(max_size=10),
        metadata=st.dictionaries(st.text(max_size=3), json_values, max_size=2),
    ),
    st.builds(
        FunctionCallContent,
        id=st.text(max_size=4),
        plugin_name=st.text(max_size=4) | st.none(),
        function_name=st.text(min_size=1, max_size=4),
        arguments=st.dictionaries(st.text(max_size=3), json_values, max_size=2)
        | st.text(max_size=8),
    ),
    st.builds(
        FunctionResultContent,
        id=st.text(max_size=4),
        function_name=st.text(max_size=4) | st.none(),
        result=json_values,
    ),
    st.builds(ImageContent, data=st.binary(max_size=8), mime_type=st.just("image/png")),
)
_messages = st.builds(
    ChatMessageContent,
    role=st.sampled_from(list(AuthorRole)),
    items=st.lists(_items, max_size=3),
    name=st.text(max_size=4) | st.none(),
)


def _history_json(messages: list[ChatMessageContent]) -> bytes:
    try:
        return ChatHistory(messages).to_json().encode()
    except SktypesError:
        return b'{"version": 1, "messages": []}'


def _with_junk(pair: tuple[bytes, Any]) -> bytes:
    raw, junk = pair
    data = json.loads(raw)
    data.setdefault("messages", []).append(junk)
    return to_json(data)


_histories = st.lists(_messages, max_size=3).map(_history_json)
_history_inputs = st.one_of(
    _histories,
    mutated(_histories),
    st.tuples(_histories, json_values).map(_with_junk),
    json_values.map(to_json),
)
_HISTORY_SEEDS = (
    b'{"version": 1, "messages": [{"type": ["message"], "role": "user", "items": []}]}',
    b'{"version": 1, "messages": [{"type": "message", "role": {}, "items": []}]}',
    b'{"version": 1, "messages": [{"type": "message", "role": "tool", "items": [{"type":'
    b' "function_invocation_result", "value": 1,'
    b' "function": {"name": "f", "return_parameter": 5}}]}]}',
    b'{"version": 1, "messages": [], "x": ' + b"[" * 500 + b"]" * 500 + b"}",
    b'{"version": 1, "messages": [{"type": "message", "role": "user", "items": [{"type": "text",'
    b' "text": "x", "metadata": {"n": 123456789012345678901234567890}}]}]}',
)


@target("chat_history", _history_inputs, seeds=_HISTORY_SEEDS)
def chat_history(data: bytes) -> None:
    """History JSON: restored (and written back to the same history) or a ContentError."""
    with watching(SYSTEM_DIRS):
        try:
            history = ChatHistory.from_json(data)
        except SktypesError:
            return
        try:
            text = history.to_json()
        except SktypesError as exc:
            raise Finding(f"a restored history cannot be written back: {exc}") from None
        again = ChatHistory.from_json(text)
        if again != history:
            raise Finding("a history did not survive to_json/from_json unchanged")


# -- plans -----------------------------------------------------------------------------------

FUNCTIONS = ["DatePluginSimpleComplex.GetDate1", "WeatherPluginSimpleComplex.GetWeatherForecast1"]
_ids = st.sampled_from(["d", "w", "x", "s0", ""]) | st.text(max_size=3)
_reference = st.fixed_dictionaries(
    {"$from": _ids},
    optional={
        "path": st.sampled_from(["$", "$.date", "$.x[0]", "$..", "$.a.b"]) | st.text(max_size=5)
    },
)
_argument = json_values | _reference
_step = st.fixed_dictionaries(
    {
        "id": _ids,
        "function": st.sampled_from([*FUNCTIONS, "Nope.f", ""]) | st.text(max_size=5),
        "arguments": st.dictionaries(
            st.sampled_from(["numDays", "date", "x"]) | st.text(max_size=3), _argument, max_size=2
        ),
    }
)
_plans = st.fixed_dictionaries(
    {"steps": st.lists(_step, max_size=4)}, optional={"output": _reference}
)
_plan_inputs = st.one_of(_plans.map(to_json), mutated(_plans.map(to_json)), noisy_text(_plans))
_PLAN_SEEDS = tuple(
    to_json(
        {
            "steps": [
                {
                    "id": f"s{i}",
                    "function": FUNCTIONS[0],
                    "arguments": {"numDays": {"$from": f"s{(i + 1) % n}"}},
                }
                for i in range(n)
            ]
        }
    )
    for n in (2, 1000)
)

_KERNEL = Kernel()
_KERNEL.add_plugin(DatePluginSimpleComplex(today=dt.date(2024, 1, 1)))
_KERNEL.add_plugin(WeatherPluginSimpleComplex())
_VIEWS = [
    *sk.plugin_views(DatePluginSimpleComplex()),
    *sk.plugin_views(WeatherPluginSimpleComplex()),
]


@target("plan", _plan_inputs, seeds=_PLAN_SEEDS)
def plan(data: bytes) -> None:
    """A model's plan: read, checked and (when clean) run, or a PlanError/HydrationError."""
    text = data.decode("utf-8", "replace")
    with watching(SYSTEM_DIRS):
        try:
            the_plan = sk.hydrate(Plan, text)
        except HydrationError:
            return
        issues = check_plan(the_plan, _VIEWS)
        if any(i.severity == "error" for i in issues):
            return
        with contextlib.suppress(SktypesError):
            asyncio.run(run_plan(the_plan, _KERNEL))
