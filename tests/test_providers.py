"""Provider mappings: wire shapes, reading responses and stream chunks, round trips."""

from __future__ import annotations

import base64
import functools
import operator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

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
from sktypes.content.providers import (
    from_anthropic,
    from_anthropic_stream,
    from_gemini,
    from_gemini_stream,
    from_openai,
    from_openai_chunk,
    to_anthropic,
    to_gemini,
    to_openai,
)
from sktypes.errors import ContentError
from tests.content_util import jsonable

PNG = b"\x89PNG\r\n\x1a\n"
B64 = base64.b64encode(PNG).decode()


def test_openai_user_parts_and_data_url_images() -> None:
    history = ChatHistory()
    history.add_user_message(
        [
            TextContent("see"),
            ImageContent(data=PNG, mime_type="image/png"),
            ImageContent(uri="https://x/a.png"),
        ],
        name="ann",
    )
    (message,) = to_openai(history)
    assert message == {
        "role": "user",
        "name": "ann",
        "content": [
            {"type": "text", "text": "see"},
            {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{B64}"}},
            {"type": "image_url", "image_url": {"url": "https://x/a.png"}},
        ],
    }
    assert from_openai([message]) == history


def test_openai_refuses_an_image_result_naming_the_item() -> None:
    history = ChatHistory()
    history.add_tool_message(
        FunctionResultContent("c", None, "f", ImageContent(data=PNG, mime_type="image/png"))
    )
    with pytest.raises(ContentError, match="text only") as info:
        to_openai(history)
    assert info.value.where == "$[0].items[0]"


def test_openai_unparseable_arguments_are_kept_raw_with_an_exception() -> None:
    history = from_openai(
        [
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "c",
                        "type": "function",
                        "function": {"name": "P-f", "arguments": '{"a": '},
                    }
                ],
            }
        ]
    )
    (call,) = FunctionCallContent.get_function_calls(history[0])
    assert (call.plugin_name, call.function_name, call.arguments) == ("P", "f", '{"a": ')
    assert isinstance(call.exception, ContentError)
    assert to_openai(history)[0]["tool_calls"][0]["function"]["arguments"] == '{"a": '


def test_openai_stream_chunks_merge_into_calls() -> None:
    chunks = [
        {
            "model": "m",
            "choices": [
                {
                    "index": 0,
                    "delta": {
                        "role": "assistant",
                        "tool_calls": [
                            {
                                "index": 0,
                                "id": "c0",
                                "type": "function",
                                "function": {"name": "P-f", "arguments": ""},
                            }
                        ],
                    },
                }
            ],
        },
        {
            "choices": [
                {
                    "index": 0,
                    "delta": {
                        "tool_calls": [
                            {
                                "index": 1,
                                "id": "c1",
                                "type": "function",
                                "function": {"name": "g", "arguments": '{"b"'},
                            }
                        ]
                    },
                }
            ]
        },
        {
            "choices": [
                {
                    "index": 0,
                    "delta": {"tool_calls": [{"index": 0, "function": {"arguments": '{"a": 1}'}}]},
                }
            ]
        },
        {
            "choices": [
                {
                    "index": 0,
                    "delta": {"tool_calls": [{"index": 1, "function": {"arguments": ": 2}"}}]},
                    "finish_reason": "tool_calls",
                }
            ]
        },
    ]
    parts = [c for chunk in chunks for c in from_openai_chunk(chunk)]
    message = functools.reduce(operator.add, parts).to_chat_message()
    calls = FunctionCallContent.get_function_calls(message)
    assert [(c.id, c.plugin_name, c.function_name, c.arguments) for c in calls] == [
        ("c0", "P", "f", {"a": 1}),
        ("c1", None, "g", {"b": 2}),
    ]
    assert message.model_id == "m"
    assert message.metadata["finish_reason"] == "tool_calls"


def test_anthropic_stream_events_merge_into_text_and_calls() -> None:
    events = [
        {"type": "message_start", "message": {"model": "claude"}},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "text_delta", "text": "Let me "},
        },
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "text_delta", "text": "check."},
        },
        {"type": "content_block_stop", "index": 0},
        {
            "type": "content_block_start",
            "index": 1,
            "content_block": {"type": "tool_use", "id": "t1", "name": "P-f", "input": {}},
        },
        {
            "type": "content_block_delta",
            "index": 1,
            "delta": {"type": "input_json_delta", "partial_json": '{"x"'},
        },
        {
            "type": "content_block_delta",
            "index": 1,
            "delta": {"type": "input_json_delta", "partial_json": ": [1]}"},
        },
        {"type": "content_block_stop", "index": 1},
        {"type": "message_delta", "delta": {"stop_reason": "tool_use"}},
    ]
    message = sum(from_anthropic_stream(events)).to_chat_message()  # type: ignore[union-attr]
    assert message.content == "Let me check."
    (call,) = FunctionCallContent.get_function_calls(message)
    assert (call.id, call.function_name, call.arguments) == ("t1", "f", {"x": [1]})
    assert message.metadata["finish_reason"] == "tool_use"


def test_gemini_stream_calls_in_separate_chunks_stay_separate() -> None:
    def chunk(part: dict[str, Any]) -> dict[str, Any]:
        return {"candidates": [{"index": 0, "content": {"role": "model", "parts": [part]}}]}

    stream = from_gemini_stream(
        [
            chunk({"text": "ok"}),
            chunk({"functionCall": {"name": "f", "args": {"a": 1}}}),
            chunk({"functionCall": {"name": "f", "args": {"a": 2}}}),
        ]
    )
    message = sum(stream).to_chat_message()  # type: ignore[union-attr]
    assert [c.arguments for c in FunctionCallContent.get_function_calls(message)] == [
        {"a": 1},
        {"a": 2},
    ]


def test_anthropic_image_results_and_documents() -> None:
    history = ChatHistory()
    history.add_assistant_message([FunctionCallContent("t", None, "shot", {})])
    history.add_tool_message(
        FunctionResultContent("t", None, "shot", ImageContent(data=PNG, mime_type="image/png"))
    )
    history.add_user_message([BinaryContent(data=b"%PDF", mime_type="application/pdf")])
    request = to_anthropic(history)
    user = request["messages"][1]["content"]
    assert user[0]["content"] == [
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": B64}}
    ]
    assert user[1]["type"] == "document"
    back = from_anthropic(request["messages"])
    assert back == history


def test_anthropic_refuses_audio_and_raw_arguments() -> None:
    with pytest.raises(ContentError, match="audio"):
        to_anthropic([ChatMessageContent("user", [AudioContent(data=b"1", mime_type="audio/wav")])])
    with pytest.raises(ContentError, match="arguments object") as info:
        to_anthropic([ChatMessageContent("assistant", [FunctionCallContent("c", None, "f", "{")])])
    assert info.value.where == "$[0].items[0]"


def test_gemini_media_and_error_results() -> None:
    history = ChatHistory(system_message="sys")
    history.add_user_message(
        [
            ImageContent(data=PNG, mime_type="image/png"),
            ImageContent(uri="gs://b/a.png", mime_type="image/png"),
        ]
    )
    history.add_assistant_message([FunctionCallContent(None, "P", "f", {"a": 1})])
    history.add_tool_message([FunctionResultContent(None, "P", "f", "boom", is_error=True)])
    request = to_gemini(history)
    assert request["systemInstruction"] == {"parts": [{"text": "sys"}]}
    assert request["contents"][0]["parts"] == [
        {"inlineData": {"mimeType": "image/png", "data": B64}},
        {"fileData": {"mimeType": "image/png", "fileUri": "gs://b/a.png"}},
    ]
    assert request["contents"][2]["parts"][0] == {
        "functionResponse": {"name": "P-f", "response": {"error": "boom"}}
    }
    assert from_gemini(request["contents"], request["systemInstruction"]) == history


def test_unknown_wire_shapes_are_content_errors_with_paths() -> None:
    with pytest.raises(ContentError) as info:
        from_openai([{"role": "user", "content": [{"type": "video"}]}])
    assert info.value.where == "$[0].content[0]"
    with pytest.raises(ContentError) as info:
        from_anthropic([{"role": "user", "content": [{"type": "mystery"}]}])
    assert info.value.where == "$[0].content[0]"
    with pytest.raises(ContentError) as info:
        from_gemini([{"role": "user", "parts": [{"mystery": 1}]}])
    assert info.value.where == "$[0].parts[0]"


# --- property: round trips through each provider, modulo the documented losses ---------

identifiers = st.sampled_from(["get", "Weather", "a_b", "x1"])
texts = st.text(min_size=1, max_size=8)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=6,
)


@st.composite
def conversations(draw: st.DrawFn) -> ChatHistory:
    """system, then turns of user → assistant calls → tool results → assistant text."""
    history = ChatHistory(system_message=draw(texts))
    n = 0
    for _ in range(draw(st.integers(1, 2))):
        user: list[KernelContent] = [TextContent(draw(texts))]
        if draw(st.booleans()):
            user.append(
                ImageContent(data=draw(st.binary(min_size=1, max_size=8)), mime_type="image/png")
            )
        history.add_user_message(user)
        calls = []
        for _ in range(draw(st.integers(0, 2))):
            n += 1
            calls.append(
                FunctionCallContent(
                    f"id{n}",
                    draw(st.none() | identifiers),
                    draw(identifiers),
                    draw(st.dictionaries(st.sampled_from(["a", "b"]), json_values, max_size=2)),
                )
            )
        if calls:
            history.add_assistant_message([TextContent(draw(texts)), *calls])
            history.add_tool_message(
                [
                    FunctionResultContent.from_function_call(
                        c, draw(json_values), is_error=draw(st.booleans())
                    )
                    for c in calls
                ]
            )
        history.add_assistant_message(draw(texts))
    return history


def as_text(history: ChatHistory, keep_error: bool) -> ChatHistory:
    """The history as text-only tool results (what OpenAI/Anthropic tool messages carry)."""
    out = ChatHistory()
    for m in history:
        items: list[KernelContent] = []
        for i in m.items:
            if isinstance(i, FunctionResultContent):
                i = FunctionResultContent(
                    i.id,
                    i.plugin_name,
                    i.function_name,
                    i.result_text(),
                    is_error=i.is_error and keep_error,
                )
            items.append(i)
        out.add_message(ChatMessageContent(m.role, items, m.name))
    return out


@given(conversations())
def test_conversations_round_trip_through_openai(history: ChatHistory) -> None:
    wire = jsonable(to_openai(history))
    assert from_openai(wire) == as_text(history, keep_error=False)


@given(conversations())
def test_conversations_round_trip_through_anthropic(history: ChatHistory) -> None:
    wire = jsonable(to_anthropic(history))
    assert from_anthropic(wire["messages"], wire["system"]) == as_text(history, keep_error=True)


@given(conversations())
def test_conversations_round_trip_through_gemini(history: ChatHistory) -> None:
    wire = jsonable(to_gemini(history))
    assert from_gemini(wire["contents"], wire["systemInstruction"]) == history


@given(conversations())
def test_conversations_convert_between_providers(history: ChatHistory) -> None:
    via_gemini = to_gemini(history)
    restored = from_gemini(via_gemini["contents"], via_gemini["systemInstruction"])
    assert from_anthropic(**_anthropic_args(restored)) == as_text(history, keep_error=True)
    assert from_openai(jsonable(to_openai(restored))) == as_text(history, keep_error=False)
    assert [m.role for m in restored] == [m.role for m in history]
    assert AuthorRole.SYSTEM in {m.role for m in restored}


def _anthropic_args(history: ChatHistory) -> dict[str, Any]:
    wire = jsonable(to_anthropic(history))
    return {"messages": wire["messages"], "system": wire["system"]}


def test_simulated_ids_never_reuse_an_id_the_history_has() -> None:
    history = ChatHistory()
    history.add_assistant_message(
        [FunctionCallContent("call_1", None, "f", {}), FunctionCallContent(None, None, "g", {})]
    )
    history.add_tool_message(
        [
            FunctionResultContent("call_1", None, "f", 1),
            FunctionResultContent(None, None, "g", 2),
        ]
    )
    messages = to_openai(history)
    assert [c["id"] for c in messages[0]["tool_calls"]] == ["call_1", "call_2"]
    assert [m["tool_call_id"] for m in messages[1:]] == ["call_1", "call_2"]


def test_anthropic_refuses_an_image_in_the_system_prompt() -> None:
    history = ChatHistory()
    history.add_system_message([ImageContent(uri="https://x/a.png")])
    with pytest.raises(ContentError, match="text only") as info:
        to_anthropic(history)
    assert info.value.where == "$[0].items[0]"


def test_gemini_thought_summaries_are_not_part_of_the_answer() -> None:
    from sktypes.content.providers import from_gemini_response

    response = {
        "candidates": [
            {
                "content": {
                    "role": "model",
                    "parts": [{"text": "thinking...", "thought": True}, {"text": "Answer."}],
                }
            }
        ]
    }
    (message,) = from_gemini_response(response)
    assert message.content == "Answer."
