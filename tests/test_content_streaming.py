"""Streaming chunks merge with `+` into finished messages, whatever the chunk shapes."""

from __future__ import annotations

import functools
import json
import operator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from examples.date_weather import DateResponse
from sktypes.content import (
    AuthorRole,
    FunctionCallContent,
    StreamingChatMessageContent,
    StreamingFunctionCallContent,
    StreamingTextContent,
    merge_chunks,
)
from sktypes.errors import ArgumentsError, ContentError
from tests.content_util import date_weather_kernel


def chunk(*items: Any, choice: int = 0, **kw: Any) -> StreamingChatMessageContent:
    return StreamingChatMessageContent(items=list(items), choice_index=choice, **kw)


def call(index: int, **kw: Any) -> StreamingFunctionCallContent:
    return StreamingFunctionCallContent(call_index=index, **kw)


def test_interleaved_calls_merge_by_index_with_id_and_name_from_the_first_chunk() -> None:
    chunks = [
        chunk(StreamingTextContent(text="Checking "), role=AuthorRole.ASSISTANT),
        chunk(StreamingTextContent(text="both.")),
        chunk(call(0, id="c0", plugin_name="P", function_name="a")),
        chunk(call(1, id="c1", function_name="b")),
        chunk(call(0, arguments='{"x": ')),
        chunk(call(1, arguments='{"y": [1,')),
        chunk(call(0, arguments="1}")),
        chunk(call(1, arguments=" 2]}"), finish_reason="tool_calls"),
    ]
    message = functools.reduce(operator.add, chunks).to_chat_message()
    assert message.role is AuthorRole.ASSISTANT
    assert message.content == "Checking both."
    calls = FunctionCallContent.get_function_calls(message)
    assert [(c.id, c.plugin_name, c.function_name, c.arguments) for c in calls] == [
        ("c0", "P", "a", {"x": 1}),
        ("c1", None, "b", {"y": [1, 2]}),
    ]
    assert message.metadata["finish_reason"] == "tool_calls"
    assert sum(chunks).content == "Checking both."  # type: ignore[attr-defined]


def test_dict_and_text_argument_chunks_combine() -> None:
    merged = sum(
        [
            chunk(call(0, id="c", function_name="f", arguments={"a": 1})),
            chunk(call(0, arguments='{"b": 2}')),
            chunk(call(1, id="d", function_name="g", arguments='{"c": 3}')),
            chunk(call(1, arguments={"d": 4})),
        ]
    )
    calls = FunctionCallContent.get_function_calls(merged.to_chat_message())  # type: ignore[union-attr]
    assert [c.arguments for c in calls] == [{"a": 1, "b": 2}, {"c": 3, "d": 4}]


def test_truncated_arguments_stay_raw_with_an_exception() -> None:
    merged = chunk(call(0, id="c", function_name="f", arguments='{"a": ')) + chunk()
    (fc,) = FunctionCallContent.get_function_calls(merged.to_chat_message())
    assert fc.arguments == '{"a": '
    assert isinstance(fc.exception, ContentError)


def test_chunks_of_different_choices_do_not_merge() -> None:
    with pytest.raises(ContentError, match="choice 0 and choice 1"):
        chunk(choice=0) + chunk(choice=1)
    messages = merge_chunks(
        [
            chunk(StreamingTextContent(text="a"), choice=0),
            chunk(StreamingTextContent(text="x", choice_index=1), choice=1),
            chunk(StreamingTextContent(text="b"), choice=0),
        ]
    )
    assert [m.content for m in messages] == ["ab", "x"]


def test_to_chat_message_with_a_kernel_hydrates_arguments_or_flags_them() -> None:
    kernel = date_weather_kernel()
    good = chunk(
        call(
            0,
            id="1",
            plugin_name="DatePluginSimpleComplex",
            function_name="GetDate1",
            arguments='{"numDays": 3}',
        )
    )
    bad = chunk(
        call(
            1,
            id="2",
            plugin_name="DatePluginSimpleComplex",
            function_name="GetDate1",
            arguments='{"numDays": "x"}',
        )
    )
    message = (good + bad).to_chat_message(kernel)
    first, second = FunctionCallContent.get_function_calls(message)
    assert first.arguments == {"numDays": 3}
    assert first.exception is None
    assert isinstance(second.exception, ArgumentsError)
    assert DateResponse  # the function's return type is untouched by argument hydration


calls_strategy = st.lists(
    st.tuples(
        st.sampled_from(["get", "put", "a_1", "weather"]),
        st.dictionaries(
            st.sampled_from(["a", "b", "city", "n"]),
            st.recursive(
                st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(max_size=8),
                lambda inner: (
                    st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=3), inner, max_size=3)
                ),
                max_leaves=6,
            ),
            max_size=4,
        ),
    ),
    min_size=1,
    max_size=4,
)


@given(calls=calls_strategy, data=st.data())
def test_random_calls_split_into_random_chunks_merge_back(
    calls: list[tuple[str, dict[str, Any]]], data: st.DataObject
) -> None:
    # each call: a head chunk (id + name) and its JSON text cut at random places
    queues: list[list[StreamingFunctionCallContent]] = []
    for index, (name, args) in enumerate(calls):
        # the arguments travel as text fragments, whole-object pieces (Gemini), or both
        keys = list(args)
        as_objects = (
            set(data.draw(st.sets(st.sampled_from(keys), max_size=len(keys)))) if keys else set()
        )
        text = json.dumps({k: v for k, v in args.items() if k not in as_objects})
        cuts = sorted(data.draw(st.sets(st.integers(1, max(1, len(text) - 1)), max_size=4)))
        pieces: list[str | dict[str, Any]] = [
            text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)
        ]
        for k in as_objects:
            pieces.insert(data.draw(st.integers(0, len(pieces))), {k: args[k]})
        head = call(index, id=f"id{index}", function_name=name)
        queues.append([head] + [call(index, arguments=p) for p in pieces if p])
    stream: list[StreamingChatMessageContent] = []
    while any(queues):  # interleave: any call may go next, each call's pieces stay in order
        live = [q for q in queues if q]
        pick = data.draw(st.integers(0, len(live) - 1))
        stream.append(chunk(live[pick].pop(0)))
    (message,) = merge_chunks(stream)
    got = [
        (c.id, c.function_name, c.arguments)
        for c in FunctionCallContent.get_function_calls(message)
    ]
    assert got == [(f"id{i}", name, args) for i, (name, args) in enumerate(calls)]
