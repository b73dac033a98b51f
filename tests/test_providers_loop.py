"""The ADR's caller loop end to end against scripted fake chat services, per provider.

Each fake service turns the history into its provider's request (proving the history
maps onto the wire format), records it, and answers with the next pre-written response.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
from collections.abc import Callable
from typing import Any

import pytest

from sktypes.content import (
    AuthorRole,
    ChatHistory,
    ChatMessageContent,
    FunctionCallContent,
    FunctionResultContent,
)
from sktypes.content.providers import (
    from_anthropic,
    from_anthropic_response,
    from_gemini,
    from_gemini_response,
    from_openai,
    from_openai_response,
    to_anthropic,
    to_gemini,
    to_openai,
)
from sktypes.kernel import Kernel
from tests.content_util import date_weather_kernel

DATE = "DatePluginSimpleComplex-GetDate1"
WEATHER = "WeatherPluginSimpleComplex-GetWeatherForecast1"
DEGREES = 50 + dt.date(2024, 1, 3).toordinal() % 30


class FakeService:
    """Answers with pre-written provider responses, recording each request."""

    def __init__(
        self,
        to_wire: Callable[[ChatHistory], Any],
        read: Callable[[Any], ChatMessageContent],
        responses: list[Any],
    ) -> None:
        self.to_wire = to_wire
        self.read = read
        self.responses = list(responses)
        self.requests: list[Any] = []

    async def get_chat_message_content(self, history: ChatHistory) -> ChatMessageContent:
        self.requests.append(json.loads(json.dumps(self.to_wire(history))))
        return self.read(self.responses.pop(0))


async def caller_loop(
    service: FakeService, kernel: Kernel, history: ChatHistory
) -> ChatMessageContent:
    """The ADR's loop: call → invoke → result message → … → final answer."""
    while True:
        message = await service.get_chat_message_content(history)
        history.add_message(message)
        calls = FunctionCallContent.get_function_calls(message)
        if not calls:
            return message
        results = [await call.invoke(kernel) for call in calls]
        history.add_tool_message(results)


def openai_service() -> FakeService:
    def tool_call(call_id: str, name: str, args: str) -> dict[str, Any]:
        return {"id": call_id, "type": "function", "function": {"name": name, "arguments": args}}

    def reply(message: dict[str, Any], finish: str) -> dict[str, Any]:
        return {
            "model": "gpt-test",
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        }

    return FakeService(
        to_openai,
        lambda r: from_openai_response(r)[0],
        [
            reply(
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        tool_call("call_a", DATE, '{"numDays": 2}'),
                        tool_call("call_b", DATE, '{"numDays": "two"}'),
                    ],
                },
                "tool_calls",
            ),
            reply(
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [tool_call("call_c", WEATHER, '{"date": "2024-01-03"}')],
                },
                "tool_calls",
            ),
            reply({"role": "assistant", "content": f"It will be {DEGREES}F."}, "stop"),
        ],
    )


def anthropic_service() -> FakeService:
    def reply(content: list[dict[str, Any]], stop: str) -> dict[str, Any]:
        return {
            "model": "claude-test",
            "role": "assistant",
            "content": content,
            "stop_reason": stop,
        }

    return FakeService(
        to_anthropic,
        from_anthropic_response,
        [
            reply(
                [
                    {"type": "text", "text": "Let me look."},
                    {"type": "tool_use", "id": "toolu_a", "name": DATE, "input": {"numDays": 2}},
                    {
                        "type": "tool_use",
                        "id": "toolu_b",
                        "name": DATE,
                        "input": {"numDays": "two"},
                    },
                ],
                "tool_use",
            ),
            reply(
                [
                    {
                        "type": "tool_use",
                        "id": "toolu_c",
                        "name": WEATHER,
                        "input": {"date": "2024-01-03"},
                    }
                ],
                "tool_use",
            ),
            reply([{"type": "text", "text": f"It will be {DEGREES}F."}], "end_turn"),
        ],
    )


def gemini_service() -> FakeService:
    def reply(parts: list[dict[str, Any]]) -> dict[str, Any]:
        return {
            "modelVersion": "gemini-test",
            "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP"}],
        }

    return FakeService(
        to_gemini,
        lambda r: from_gemini_response(r)[0],
        [
            reply(
                [
                    {
                        "functionCall": {"name": DATE, "args": {"numDays": 2}},
                        "thoughtSignature": "c2ln",
                    },
                    {"functionCall": {"name": DATE, "args": {"numDays": "two"}}},
                ]
            ),
            reply([{"functionCall": {"name": WEATHER, "args": {"date": "2024-01-03"}}}]),
            reply([{"text": f"It will be {DEGREES}F."}]),
        ],
    )


SERVICES = {"openai": openai_service, "anthropic": anthropic_service, "gemini": gemini_service}


@pytest.mark.parametrize("provider", list(SERVICES))
def test_caller_loop_reaches_the_final_answer(provider: str) -> None:
    service = SERVICES[provider]()
    kernel = date_weather_kernel()
    history = ChatHistory(system_message="You answer about the weather.")
    history.add_user_message("What is the weather in two days?")
    final = asyncio.run(caller_loop(service, kernel, history))
    assert final.content == f"It will be {DEGREES}F."
    assert final.role is AuthorRole.ASSISTANT
    # the tool messages hold typed results and the model-readable error for the bad call
    tool_messages = [m for m in history if m.role is AuthorRole.TOOL]
    first = [i for i in tool_messages[0].items if isinstance(i, FunctionResultContent)]
    assert first[0].result.date == "2024-01-03"
    assert first[1].is_error
    assert "$.numDays" in first[1].result
    assert tool_messages[1].items[0].result.degreesFahrenheit == DEGREES
    # and the history restores with native results
    restored = ChatHistory.from_json(history.to_json(), kernel=kernel)
    assert restored == history
    assert len(service.requests) == 3


def test_openai_requests_carry_tool_messages_linked_by_id() -> None:
    service = openai_service()
    history = ChatHistory()
    history.add_user_message("weather?")
    asyncio.run(caller_loop(service, date_weather_kernel(), history))
    second = service.requests[1]
    assert second[1]["tool_calls"][0]["id"] == "call_a"
    tool = [m for m in second if m["role"] == "tool"]
    assert tool[0] == {"role": "tool", "tool_call_id": "call_a", "content": '{"date":"2024-01-03"}'}
    assert tool[1]["tool_call_id"] == "call_b"
    assert tool[1]["content"].startswith("The arguments for DatePluginSimpleComplex.GetDate1 could")


def test_anthropic_requests_put_tool_results_first_with_is_error() -> None:
    service = anthropic_service()
    history = ChatHistory(system_message="sys")
    history.add_user_message("weather?")
    asyncio.run(caller_loop(service, date_weather_kernel(), history))
    second = service.requests[1]
    assert second["system"] == "sys"
    last = second["messages"][-1]
    assert last["role"] == "user"
    assert [b["type"] for b in last["content"]] == ["tool_result", "tool_result"]
    assert last["content"][0] == {
        "type": "tool_result",
        "tool_use_id": "toolu_a",
        "content": '{"date":"2024-01-03"}',
    }
    assert last["content"][1]["is_error"] is True


def test_gemini_requests_replay_thought_signatures_and_wrap_outputs() -> None:
    service = gemini_service()
    history = ChatHistory()
    history.add_user_message("weather?")
    asyncio.run(caller_loop(service, date_weather_kernel(), history))
    second = service.requests[1]["contents"]
    assert second[1]["role"] == "model"
    assert second[1]["parts"][0]["thoughtSignature"] == "c2ln"
    responses = [p["functionResponse"] for p in second[2]["parts"]]
    assert responses[0] == {"name": DATE, "response": {"output": {"date": "2024-01-03"}}}
    assert "error" in responses[1]["response"]


def test_a_history_recorded_with_gemini_converts_to_openai_with_simulated_ids() -> None:
    service = gemini_service()
    history = ChatHistory()
    history.add_user_message("weather?")
    asyncio.run(caller_loop(service, date_weather_kernel(), history))
    messages = to_openai(history)
    calls = [tc for m in messages if m.get("tool_calls") for tc in m["tool_calls"]]
    tools = [m for m in messages if m["role"] == "tool"]
    assert [c["id"] for c in calls] == ["call_1", "call_2", "call_3"]
    assert [t["tool_call_id"] for t in tools] == ["call_1", "call_2", "call_3"]
    anthropic = to_anthropic(history)
    uses = [b["id"] for m in anthropic["messages"] for b in m["content"] if b["type"] == "tool_use"]
    answers = [
        b["tool_use_id"]
        for m in anthropic["messages"]
        for b in m["content"]
        if b["type"] == "tool_result"
    ]
    assert uses == answers == ["call_1", "call_2", "call_3"]
    # and back again, the results find their functions through the ids
    back = from_openai(messages)
    result = next(i for m in back for i in m.items if isinstance(i, FunctionResultContent))
    assert result.fully_qualified_name == "DatePluginSimpleComplex.GetDate1"


def test_a_history_recorded_with_openai_converts_to_gemini_and_anthropic() -> None:
    service = openai_service()
    history = ChatHistory(system_message="sys")
    history.add_user_message("weather?")
    asyncio.run(caller_loop(service, date_weather_kernel(), history))
    gemini = to_gemini(history)
    back = from_gemini(gemini["contents"], gemini["systemInstruction"])
    calls = [c for m in back for c in FunctionCallContent.get_function_calls(m)]
    assert [c.id for c in calls] == ["call_a", "call_b", "call_c"]
    assert back[-1].content == f"It will be {DEGREES}F."
    anthropic = to_anthropic(history)
    again = from_anthropic(anthropic["messages"], anthropic["system"])
    assert [m.role for m in again] == [m.role for m in history]


def test_streamed_openai_answers_merge_into_the_same_loop() -> None:
    from sktypes.content.providers import from_openai_chunk

    def delta(d: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {"choices": [{"index": 0, "delta": d, "finish_reason": finish}]}

    def call_piece(index: int, **fn: Any) -> dict[str, Any]:
        head = {"id": fn.pop("id")} if "id" in fn else {}
        return delta({"tool_calls": [{"index": index, **head, "function": fn}]})

    streams = [
        [
            delta({"role": "assistant"}),
            call_piece(0, id="call_a", name=DATE, arguments=""),
            call_piece(1, id="call_b", name=DATE, arguments='{"num'),
            call_piece(0, arguments='{"numDays"'),
            call_piece(1, arguments='Days": 0}'),
            call_piece(0, arguments=": 2}"),
            delta({}, "tool_calls"),
        ],
        [
            delta({"role": "assistant", "content": "It will be "}),
            delta({"content": "mild."}, "stop"),
        ],
    ]
    kernel = date_weather_kernel()
    history = ChatHistory()
    history.add_user_message("weather?")
    for stream in streams:
        chunks = [c for raw in stream for c in from_openai_chunk(raw)]
        message = sum(chunks).to_chat_message(kernel)  # type: ignore[union-attr]
        history.add_message(message)
        for call in FunctionCallContent.get_function_calls(message):
            history.add_tool_message(asyncio.run(call.invoke(kernel)))
    results = [i.result for m in history for i in m.items if isinstance(i, FunctionResultContent)]
    assert [r.date for r in results] == ["2024-01-03", "2024-01-01"]
    assert history[-1].content == "It will be mild."
    assert history[-1].metadata["finish_reason"] == "stop"
