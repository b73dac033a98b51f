"""Property: random histories survive to_json/from_json unchanged and match the schema."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel

from sktypes.content import (
    AudioContent,
    AuthorRole,
    BinaryContent,
    ChatHistory,
    ChatMessageContent,
    FunctionCallContent,
    FunctionResultContent,
    ImageContent,
    KernelContent,
    TextContent,
)
from sktypes.errors import ContentError
from tests.content_util import check_schema

names = st.sampled_from(["get", "Weather", "a_b", "x1"])
optional_text = st.none() | st.text(max_size=6)
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)
metadata = st.dictionaries(st.text(max_size=4), json_values, max_size=2)


def media(cls: type[BinaryContent]) -> st.SearchStrategy[KernelContent]:
    by_data = st.builds(
        cls,
        data=st.binary(max_size=16),
        mime_type=st.none() | st.sampled_from(["image/png", "audio/wav"]),
    )
    by_uri = st.builds(
        cls, uri=st.sampled_from(["https://x.test/a.png", "data:image/png;base64,AA=="])
    )
    return by_data | by_uri


leaf_items: st.SearchStrategy[KernelContent] = st.one_of(
    st.builds(
        TextContent, text=st.text(max_size=10), metadata=metadata, model_id=st.none() | names
    ),
    media(ImageContent),
    media(AudioContent),
    media(BinaryContent),
    st.builds(
        FunctionCallContent,
        id=optional_text,
        plugin_name=st.none() | names,
        function_name=names,
        arguments=st.none()
        | st.text(max_size=8)
        | st.dictionaries(st.text(max_size=4), json_values, max_size=3),
        metadata=metadata,
    ),
)
items = st.one_of(
    leaf_items,
    st.builds(
        FunctionResultContent,
        id=optional_text,
        plugin_name=st.none() | names,
        function_name=st.none() | names,
        result=json_values | media(ImageContent),
        is_error=st.booleans(),
    ),
)
messages = st.builds(
    ChatMessageContent,
    role=st.sampled_from(["system", "developer", "user", "assistant", "tool"]),
    items=st.lists(items, max_size=4),
    name=st.none() | names,
    metadata=metadata,
    model_id=st.none() | names,
)
histories = st.lists(messages, max_size=5).map(ChatHistory)


@given(histories)
def test_random_histories_survive_to_json_and_from_json(history: ChatHistory) -> None:
    text = history.to_json()
    check_schema(text)
    back = ChatHistory.from_json(text)
    assert back == history
    assert back.to_json() == text


@given(histories)
def test_serialized_form_is_plain_json_with_no_class_names(history: ChatHistory) -> None:
    data: Any = history.to_dict()
    kinds = {item["type"] for m in data["messages"] for item in m["items"]}
    assert kinds <= {"text", "image", "audio", "binary", "function_call", "function_result"}


class Reading(BaseModel):
    value: float


@pytest.mark.parametrize(
    ("result", "where"),
    [
        (float("nan"), "$.messages[0].items[0].result"),
        ({"a": [1.0, float("inf")]}, "$.messages[0].items[0].result.a[1]"),
        (Reading(value=float("-inf")), "$.messages[0].items[0].result.value"),
    ],
)
def test_nan_and_infinities_are_refused_not_written_as_null(result: Any, where: str) -> None:
    history = ChatHistory()
    history.add_message(
        ChatMessageContent(
            role=AuthorRole.TOOL,
            items=[FunctionResultContent(id="1", function_name="f", result=result)],
        )
    )
    with pytest.raises(ContentError) as info:
        history.to_json()
    assert info.value.where == where
    assert "NaN and infinities" in info.value.message


def test_a_genuine_null_still_serializes() -> None:
    history = ChatHistory()
    history.add_message(
        ChatMessageContent(
            role=AuthorRole.TOOL,
            items=[FunctionResultContent(id="1", function_name="f", result={"a": None, "b": 1.5})],
        )
    )
    restored = ChatHistory.from_json(history.to_json())
    assert restored[0].items[0].result == {"a": None, "b": 1.5}
