"""Content types, messages and ChatHistory: behaviour, serialization, restoring."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from pydantic import BaseModel

from examples.date_weather import DateResponse, WeatherForecast
from sktypes.content import (
    AudioContent,
    AuthorRole,
    BinaryContent,
    ChatHistory,
    ChatMessageContent,
    FunctionCallContent,
    FunctionResult,
    FunctionResultContent,
    ImageContent,
    KernelContent,
    TextContent,
)
from sktypes.errors import ContentError
from sktypes.views import FunctionView, ReturnParameterView
from tests.content_util import check_schema, date_weather_kernel

PNG = b"\x89PNG\r\n\x1a\n\x00\x01\xff"


def full_history() -> ChatHistory:
    history = ChatHistory(system_message="You are a weather bot.")
    history.add_developer_message("Answer briefly.")
    history.add_user_message(
        [
            TextContent("What is this, and the weather in two days?"),
            ImageContent(data=PNG, mime_type="image/png"),
            ImageContent(uri="https://example.com/a.png"),
            AudioContent(data=b"RIFF", mime_type="audio/wav"),
            BinaryContent(data=b"%PDF", mime_type="application/pdf"),
        ],
        name="ann",
    )
    history.add_assistant_message(
        [
            TextContent("Let me check.", model_id="gpt-x"),
            FunctionCallContent("c1", "DatePluginSimpleComplex", "GetDate1", {"numDays": 2}),
            FunctionCallContent(None, None, "broken", '{"a": 1', metadata={"k": [1, None]}),
        ]
    )
    history.add_tool_message(
        [
            FunctionResultContent("c1", "DatePluginSimpleComplex", "GetDate1", {"date": "x"}),
            FunctionResultContent(None, None, "broken", "Error: bad JSON", is_error=True),
            FunctionResultContent("c3", "P", "img", ImageContent(data=PNG, mime_type="image/png")),
            FunctionResultContent("c4", "P", "n", [1, 2.5, True, None, {"a": "b"}]),
        ]
    )
    history.add_assistant_message("It will be sunny.")
    history[-1].metadata["finish_reason"] = "stop"
    return history


def test_message_from_string_is_one_text_item_and_content_joins_text() -> None:
    message = ChatMessageContent("user", "hello")
    assert message.role is AuthorRole.USER
    assert message.items == [TextContent("hello")]
    message.items.append(ImageContent(uri="https://x/y.png"))
    message.items.append(TextContent(" world"))
    assert message.content == "hello world"
    message.content = "bye"
    assert message.items[0] == TextContent("bye")


def test_author_roles_are_lower_case_values() -> None:
    assert [r.value for r in AuthorRole] == ["system", "developer", "user", "assistant", "tool"]


def test_unknown_role_is_a_content_error() -> None:
    with pytest.raises(ContentError, match="unknown author role 'robot'"):
        ChatMessageContent("robot", "hi")


def test_media_needs_exactly_one_of_uri_or_data() -> None:
    with pytest.raises(ContentError, match="exactly one"):
        ImageContent()
    with pytest.raises(ContentError, match="exactly one"):
        ImageContent(uri="https://x", data=b"1")


def test_data_uri_round_trips_bytes_and_mime_type() -> None:
    image = ImageContent(data=PNG, mime_type="image/png")
    back = ImageContent.from_data_uri(image.data_uri)
    assert isinstance(back, ImageContent)
    assert back.data == PNG
    assert back.mime_type == "image/png"


def test_history_is_a_mutable_sequence_with_add_helpers() -> None:
    history = full_history()
    assert len(history) == 6
    assert [m.role for m in history] == [
        AuthorRole.SYSTEM,
        AuthorRole.DEVELOPER,
        AuthorRole.USER,
        AuthorRole.ASSISTANT,
        AuthorRole.TOOL,
        AuthorRole.ASSISTANT,
    ]
    assert isinstance(history[1:3], ChatHistory)
    del history[0]
    assert history[0].role is AuthorRole.DEVELOPER


def test_every_content_type_survives_to_json_and_from_json() -> None:
    history = full_history()
    text = history.to_json()
    check_schema(text)
    back = ChatHistory.from_json(text)
    assert back == history
    result = back[4].items[2]
    assert isinstance(result, FunctionResultContent)
    assert isinstance(result.result, ImageContent)
    assert result.result.data == PNG
    assert back[3].items[0].model_id == "gpt-x"


def test_raw_arguments_and_exception_survive_as_text() -> None:
    call = FunctionCallContent("c", None, "f", "{not json", exception=ValueError("boom"))
    back = ChatHistory.from_json(ChatHistory([ChatMessageContent("assistant", [call])]).to_json())
    restored = back[0].items[0]
    assert isinstance(restored, FunctionCallContent)
    assert restored.arguments == "{not json"
    assert isinstance(restored.exception, ContentError)
    assert str(restored.exception) == "ValueError: boom"


def test_inner_content_is_kept_in_memory_but_not_serialized() -> None:
    item = TextContent("hi", inner_content=object())
    back = ChatHistory.from_json(ChatHistory([ChatMessageContent("user", [item])]).to_json())
    assert back[0].items[0].inner_content is None
    assert back[0].items[0] == item  # inner_content is not compared


def test_a_model_result_serializes_as_json_not_as_repr() -> None:
    history = ChatHistory()
    history.add_tool_message(
        FunctionResultContent("c", "P", "f", WeatherForecast(degreesFahrenheit=3))
    )
    text = history.to_json()
    assert '"result":{"degreesFahrenheit":3}' in text
    assert ChatHistory.from_json(text)[0].items[0].result == {"degreesFahrenheit": 3}


def test_results_come_back_as_native_types_with_a_kernel() -> None:
    kernel = date_weather_kernel()
    history = ChatHistory()
    history.add_tool_message(
        [
            FunctionResultContent(
                "c1",
                "WeatherPluginSimpleComplex",
                "GetWeatherForecast1",
                WeatherForecast(degreesFahrenheit=68),
            ),
            FunctionResultContent(
                "c2", "DatePluginSimpleComplex", "GetDate1", DateResponse(date="2024-01-03")
            ),
            FunctionResultContent("c3", "Unknown", "f", {"kept": "as JSON"}),
            FunctionResultContent(
                "c4", "WeatherPluginSimpleComplex", "GetWeatherForecast1", "Error: x", is_error=True
            ),
        ]
    )
    back = ChatHistory.from_json(history.to_json(), kernel=kernel)
    results = [i.result for i in back[0].items if isinstance(i, FunctionResultContent)]
    assert results[0] == WeatherForecast(degreesFahrenheit=68)
    assert isinstance(results[0], WeatherForecast)
    assert isinstance(results[1], DateResponse)
    assert results[2] == {"kept": "as JSON"}
    assert results[3] == "Error: x"


def test_a_result_that_does_not_fit_its_return_type_names_the_path() -> None:
    history = ChatHistory()
    history.add_user_message("hi")
    history.add_tool_message(
        FunctionResultContent("c", "WeatherPluginSimpleComplex", "GetWeatherForecast1", {"x": 1})
    )
    with pytest.raises(ContentError) as info:
        ChatHistory.from_json(history.to_json(), kernel=date_weather_kernel(), file="h.json")
    assert info.value.file == "h.json"
    assert info.value.where == "$.messages[1].items[0].result"


class Opaque:
    pass


def test_a_result_that_is_not_json_is_refused_with_its_path() -> None:
    history = ChatHistory()
    history.add_user_message("hi")
    history.add_tool_message(
        [FunctionResultContent("a", None, "f", 1), FunctionResultContent("b", None, "g", Opaque())]
    )
    with pytest.raises(ContentError, match="Opaque is not JSON-representable") as info:
        history.to_json()
    assert info.value.where == "$.messages[1].items[1].result"


def test_metadata_that_is_not_json_is_refused_with_its_path() -> None:
    history = ChatHistory()
    history.add_user_message("hi").metadata["bad"] = Opaque()
    with pytest.raises(ContentError) as info:
        history.to_json()
    assert info.value.where == "$.messages[0].metadata.bad"


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        (
            '{"version": 1, "messages": [{"type": "os.system", "role": "user"}]}',
            "$.messages[0].type",
            "unknown content type 'os.system'",
        ),
        (
            '{"version": 1, "messages": [{"type": "message", "role": "user",'
            ' "items": [{"type": "builtins.eval"}]}]}',
            "$.messages[0].items[0].type",
            "unknown content type",
        ),
        (
            '{"version": 1, "messages": [{"type": "message", "role": "god", "items": []}]}',
            "$.messages[0].role",
            "unknown author role",
        ),
        (
            '{"version": 1, "messages": [{"type": "message", "role": "user",'
            ' "items": [{"type": "image", "data": "%%%"}]}]}',
            "$.messages[0].items[0].data",
            "not valid base64",
        ),
        (
            '{"version": 1, "messages": [{"type": "text", "text": "x"}]}',
            "$.messages[0].type",
            "not a message",
        ),
    ],
)
def test_restoring_bad_data_names_the_path_and_never_imports(
    text: str, where: str, message: str
) -> None:
    with pytest.raises(ContentError, match=message) as info:
        ChatHistory.from_json(text, file="chat.json")
    assert info.value.where == where
    assert str(info.value).startswith(f"chat.json: {where}: ")


def test_invalid_json_text_is_a_content_error() -> None:
    with pytest.raises(ContentError, match="not valid JSON"):
        ChatHistory.from_json("{", file="chat.json")


def test_get_function_calls_and_to_chat_message() -> None:
    message = full_history()[3]
    calls = FunctionCallContent.get_function_calls(message)
    assert [c.function_name for c in calls] == ["GetDate1", "broken"]
    assert calls[0].fully_qualified_name == "DatePluginSimpleComplex.GetDate1"
    assert calls[0].qualified_name("-") == "DatePluginSimpleComplex-GetDate1"
    result = FunctionResultContent.from_function_call(calls[0], {"date": "2024-01-03"})
    tool = result.to_chat_message()
    assert tool.role is AuthorRole.TOOL
    assert tool.items == [result]
    assert result.id == "c1"


def test_parse_arguments_refuses_text_that_is_not_an_object() -> None:
    with pytest.raises(ContentError, match="not valid JSON"):
        FunctionCallContent("c", None, "f", "{").parse_arguments()
    with pytest.raises(ContentError, match="must be a JSON object"):
        FunctionCallContent("c", None, "f", "[1]").parse_arguments()
    assert FunctionCallContent("c", None, "f", None).parse_arguments() == {}
    assert FunctionCallContent("c", None, "f", '{"a": 1}').parse_arguments() == {"a": 1}


def test_function_result_is_generic_and_holds_choices() -> None:
    view = FunctionView(
        name="f", plugin_name="P", return_parameter=ReturnParameterView(schema={"type": "string"})
    )
    result: FunctionResult[str] = FunctionResult.from_choices(["a", "b"], view)
    assert result.value == "a"
    assert result.get_choice(1) == "b"
    assert str(FunctionResult(value=3)) == "3"
    history = ChatHistory([ChatMessageContent("assistant", [result])])
    text = history.to_json()
    check_schema(text)
    back = ChatHistory.from_json(text)[0].items[0]
    assert isinstance(back, FunctionResult)
    assert back.choices == ["a", "b"]
    assert back.function == view


def test_function_invocation_result_value_is_rehydrated_with_a_kernel() -> None:
    kernel = date_weather_kernel()
    result = asyncio.run(kernel.invoke("DatePluginSimpleComplex.GetDate1", {"numDays": 1}))
    history = ChatHistory([ChatMessageContent("assistant", [result])])
    back = ChatHistory.from_json(history.to_json(), kernel=kernel)[0].items[0]
    assert isinstance(back, FunctionResult)
    assert back.value == DateResponse(date="2024-01-02")


def test_unregistered_content_subclass_cannot_be_serialized() -> None:
    class Custom(KernelContent):
        pass

    history = ChatHistory([ChatMessageContent("user", [Custom()])])
    with pytest.raises(ContentError, match="not a registered content type") as info:
        history.to_json()
    assert info.value.where == "$.messages[0].items[0]"


class Point(BaseModel):
    x: int


def test_nested_models_in_arguments_serialize_as_json() -> None:
    call = FunctionCallContent("c", None, "f", {"p": Point(x=1)})
    data: Any = ChatHistory([ChatMessageContent("assistant", [call])]).to_dict()
    assert data["messages"][0]["items"][0]["arguments"] == {"p": {"x": 1}}


def test_the_documented_names_are_exported() -> None:
    import sktypes.content as content
    import sktypes.kernel as kernel

    documented = {
        "KernelContent", "TextContent", "ImageContent", "AudioContent", "BinaryContent",
        "FunctionCallContent", "FunctionResultContent", "ChatMessageContent", "ChatHistory",
        "AuthorRole", "StreamingChatMessageContent", "StreamingFunctionCallContent",
        "StreamingTextContent", "FunctionResult",
    }  # fmt: skip
    assert documented <= set(content.__all__)
    assert all(hasattr(content, name) for name in content.__all__)
    assert {"Kernel", "KernelFunction", "KernelPlugin"} <= set(kernel.__all__)
