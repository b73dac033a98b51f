"""Service-agnostic chat content for function calling (ADR "function call content").

Content items (:class:`TextContent`, :class:`ImageContent`, :class:`FunctionCallContent`,
:class:`FunctionResultContent`, ...) sit in a :class:`ChatMessageContent`'s ``items``;
messages form a :class:`ChatHistory`, which serializes to JSON and restores losslessly
(``schemas/chat-history.schema.json``). Streaming chunks merge with ``+``. Provider wire
formats live in :mod:`sktypes.content.providers`.
"""

from sktypes.content._base import (
    AuthorRole,
    KernelContent,
    content_from_dict,
    content_to_dict,
    register_content_type,
)
from sktypes.content._functions import FunctionCallContent, FunctionResultContent, InvokingKernel
from sktypes.content._history import ChatHistory, FunctionSource
from sktypes.content._media import AudioContent, BinaryContent, ImageContent, TextContent
from sktypes.content._message import ChatMessageContent
from sktypes.content._result import FunctionResult
from sktypes.content._streaming import (
    StreamingChatMessageContent,
    StreamingFunctionCallContent,
    StreamingTextContent,
    merge_chunks,
)

__all__ = [
    "AudioContent",
    "AuthorRole",
    "BinaryContent",
    "ChatHistory",
    "ChatMessageContent",
    "FunctionCallContent",
    "FunctionResult",
    "FunctionResultContent",
    "FunctionSource",
    "ImageContent",
    "InvokingKernel",
    "KernelContent",
    "StreamingChatMessageContent",
    "StreamingFunctionCallContent",
    "StreamingTextContent",
    "TextContent",
    "content_from_dict",
    "content_to_dict",
    "merge_chunks",
    "register_content_type",
]
