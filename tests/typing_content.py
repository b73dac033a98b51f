"""Static typing checks of sktypes.content and sktypes.kernel (mypy --strict, make lint)."""

from __future__ import annotations

from typing import Any, assert_type

from sktypes.content import (
    ChatHistory,
    ChatMessageContent,
    FunctionCallContent,
    FunctionResult,
    FunctionResultContent,
    StreamingChatMessageContent,
)
from sktypes.kernel import Kernel, KernelFunction, KernelPlugin
from sktypes.plan._run import KernelLike
from sktypes.templates._protocols import TemplateKernel


async def check(kernel: Kernel, history: ChatHistory) -> None:
    assert_type(kernel.get_function("P.f"), KernelFunction)
    assert_type(kernel.add_plugin(object()), KernelPlugin)
    assert_type(await kernel.invoke("P.f", {"x": 1}), FunctionResult[Any])
    assert_type(kernel.plugins, dict[str, KernelPlugin])
    message = history[0]
    assert_type(message, ChatMessageContent)
    assert_type(history[1:], ChatHistory)
    calls = FunctionCallContent.get_function_calls(message)
    assert_type(calls, list[FunctionCallContent])
    result = await calls[0].invoke(kernel)
    assert_type(result, FunctionResultContent)
    assert_type(ChatHistory.from_json(history.to_json(), kernel=kernel), ChatHistory)
    chunk = StreamingChatMessageContent()
    assert_type(chunk + chunk, StreamingChatMessageContent)
    assert_type(chunk.to_chat_message(kernel), ChatMessageContent)
    typed: FunctionResult[int] = FunctionResult(value=1)
    assert_type(typed.value, int)
    runner: KernelLike = kernel  # plans run on a Kernel
    renderer: TemplateKernel = kernel  # templates call functions through a Kernel
    assert runner is renderer
