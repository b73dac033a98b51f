"""Anthropic Messages ⇄ chat history (pure functions, no network).

``to_anthropic(history)`` gives ``{"system": ..., "messages": [...]}``: system and developer
messages join the top-level ``system`` text; function calls become ``tool_use`` blocks
(``input`` is an object), results ``tool_result`` blocks in a user message — first, as the
API requires — with ``is_error`` for failures and image blocks for image results. Calls
without ids get simulated ones. Consecutive messages that land on the same role merge.

Documented losses: system/developer messages lose their position (they all go to
``system``); a tool message followed by a user message comes back as the two, merged on the
wire only; non-string results come back as their JSON text; metadata and model ids are not
carried; raw call arguments that cannot be repaired into an object cannot be sent
(``ContentError``); audio is
refused.
"""

from __future__ import annotations

import base64
from collections.abc import Iterable, Mapping
from typing import Any

from sktypes.content._base import AuthorRole, KernelContent
from sktypes.content._functions import FunctionCallContent, FunctionResultContent
from sktypes.content._history import ChatHistory
from sktypes.content._media import AudioContent, BinaryContent, ImageContent, TextContent
from sktypes.content._message import ChatMessageContent
from sktypes.content._streaming import (
    StreamingChatMessageContent,
    StreamingFunctionCallContent,
    StreamingTextContent,
)
from sktypes.content.providers._common import SEPARATOR, CallIds, join_name, split_name
from sktypes.errors import ContentError

__all__ = ["from_anthropic", "from_anthropic_response", "from_anthropic_stream", "to_anthropic"]


def to_anthropic(
    messages: Iterable[ChatMessageContent], *, separator: str = SEPARATOR
) -> dict[str, Any]:
    """The ``system`` text (when there is one) and ``messages`` of a Messages request.

    Raises:
        ContentError: content Anthropic cannot carry; the message names ``$[i].items[j]``.
    """
    history = list(messages)
    ids = CallIds(history)
    system: list[str] = []
    out: list[dict[str, Any]] = []
    for i, message in enumerate(history):
        if message.role in (AuthorRole.SYSTEM, AuthorRole.DEVELOPER):
            for j, item in enumerate(message.items):
                if not isinstance(item, TextContent):
                    raise ContentError(
                        f"an Anthropic system prompt is text only, not {type(item).__name__}",
                        where=f"$[{i}].items[{j}]",
                    )
            system.append(message.content)
            continue
        role = "assistant" if message.role is AuthorRole.ASSISTANT else "user"
        blocks = [
            _block(item, ids, separator, f"$[{i}].items[{j}]")
            for j, item in enumerate(message.items)
        ]
        if out and out[-1]["role"] == role:
            out[-1]["content"].extend(blocks)
        else:
            out.append({"role": role, "content": blocks})
    for message_out in out:  # tool results first in a user turn
        content = message_out["content"]
        content.sort(key=lambda b: b.get("type") != "tool_result")
    request: dict[str, Any] = {"messages": out}
    if system:
        request["system"] = "\n\n".join(system)
    return request


def _block(item: KernelContent, ids: CallIds, separator: str, where: str) -> dict[str, Any]:
    if isinstance(item, TextContent):
        return {"type": "text", "text": item.text}
    if isinstance(item, FunctionCallContent):
        try:
            args = item.parse_arguments()
        except ContentError as exc:
            raise ContentError(
                f"Anthropic needs an arguments object: {exc.message}", where=where
            ) from None
        return {
            "type": "tool_use",
            "id": ids(item),
            "name": join_name(item.plugin_name, item.function_name, separator),
            "input": args,
        }
    if isinstance(item, FunctionResultContent):
        block: dict[str, Any] = {"type": "tool_result", "tool_use_id": ids(item)}
        if isinstance(item.result, KernelContent):
            block["content"] = [_block(item.result, ids, separator, f"{where}.result")]
        else:
            block["content"] = item.result_text()
        if item.is_error:
            block["is_error"] = True
        return block
    if isinstance(item, AudioContent):
        raise ContentError("Anthropic messages cannot carry audio", where=where)
    if isinstance(item, BinaryContent):
        kind = "image" if isinstance(item, ImageContent) else "document"
        if item.data is None and item.uri is not None and item.uri.startswith("data:"):
            item = BinaryContent.from_data_uri(item.uri)
        if item.data is not None:
            source = {
                "type": "base64",
                "media_type": item.mime_type or "application/octet-stream",
                "data": item.base64_data,
            }
            return {"type": kind, "source": source}
        return {"type": kind, "source": {"type": "url", "url": item.uri}}
    raise ContentError(f"Anthropic messages cannot carry {type(item).__name__}", where=where)


# --- reading ------------------------------------------------------------------------


def from_anthropic(
    messages: Iterable[Mapping[str, Any]],
    system: str | list[Mapping[str, Any]] | None = None,
    *,
    separator: str = SEPARATOR,
) -> ChatHistory:
    """A history from a Messages request's ``system`` and ``messages``.

    A user message's ``tool_result`` blocks become a ``tool`` message; its other blocks a
    ``user`` message after it.

    Raises:
        ContentError: a malformed message or block; the message names ``$[i].content[j]``.
    """
    history = ChatHistory()
    if system:
        text = (
            system if isinstance(system, str) else "".join(str(b.get("text", "")) for b in system)
        )
        history.add_system_message(text)
    names: dict[str, tuple[str | None, str]] = {}
    for i, raw in enumerate(messages):
        where = f"$[{i}]"
        role = raw.get("role") if isinstance(raw, Mapping) else None
        if role not in ("user", "assistant"):
            raise ContentError(f"unknown role {role!r}", where=f"{where}.role")
        content = raw.get("content")
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        if not isinstance(content, list):
            raise ContentError("content must be a string or a list of blocks", where=where)
        results: list[KernelContent] = []
        others: list[KernelContent] = []
        for j, block in enumerate(content):
            item = _read_block(block, f"{where}.content[{j}]", separator, names)
            if item is None:
                continue
            (results if isinstance(item, FunctionResultContent) else others).append(item)
        if results:
            history.add_message(ChatMessageContent(AuthorRole.TOOL, results))
        if others or not results:
            history.add_message(ChatMessageContent(AuthorRole(role), others))
    return history


def _read_block(
    block: Any, where: str, separator: str, names: dict[str, tuple[str | None, str]]
) -> KernelContent | None:
    kind = block.get("type") if isinstance(block, Mapping) else None
    if kind == "text":
        return TextContent(text=str(block.get("text", "")))
    if kind == "tool_use":
        plugin, function = split_name(str(block.get("name", "")), separator)
        call_id = block.get("id")
        if isinstance(call_id, str):
            names[call_id] = (plugin, function)
        args = block.get("input")
        return FunctionCallContent(
            id=call_id if isinstance(call_id, str) else None,
            plugin_name=plugin,
            function_name=function,
            arguments=dict(args) if isinstance(args, Mapping) else {},
        )
    if kind == "tool_result":
        call_id = block.get("tool_use_id")
        plugin, function = (
            names.get(call_id, (None, "")) if isinstance(call_id, str) else (None, "")
        )
        return FunctionResultContent(
            id=call_id if isinstance(call_id, str) else None,
            plugin_name=plugin,
            function_name=function or None,
            result=_result_of(block.get("content"), where, separator, names),
            is_error=bool(block.get("is_error", False)),
        )
    if kind in ("image", "document"):
        source = block.get("source") or {}
        cls = ImageContent if kind == "image" else BinaryContent
        if source.get("type") == "base64":
            try:
                data = base64.b64decode(str(source.get("data", "")), validate=True)
            except ValueError:
                raise ContentError("source.data is not base64", where=where) from None
            return cls(data=data, mime_type=source.get("media_type"))
        if source.get("type") == "url":
            return cls(uri=str(source.get("url")))
        raise ContentError(f"unsupported {kind} source {source.get('type')!r}", where=where)
    if kind in ("thinking", "redacted_thinking"):
        return None  # replayed only by providers that produced it; not part of the history
    raise ContentError(f"unknown content block type {kind!r}", where=where)


def _result_of(
    content: Any, where: str, separator: str, names: dict[str, tuple[str | None, str]]
) -> Any:
    if content is None or isinstance(content, str):
        return content or ""
    if not isinstance(content, list):
        raise ContentError("tool_result content must be text or blocks", where=where)
    items = [
        _read_block(b, f"{where}.content[{k}]", separator, names) for k, b in enumerate(content)
    ]
    if len(items) == 1 and not isinstance(items[0], TextContent):
        return items[0]
    return "".join(i.text for i in items if isinstance(i, TextContent))


def from_anthropic_response(
    response: Mapping[str, Any], *, separator: str = SEPARATOR
) -> ChatMessageContent:
    """The assistant message of a Messages response (``stop_reason`` in metadata)."""
    history = from_anthropic(
        [{"role": "assistant", "content": response.get("content") or []}], separator=separator
    )
    message = history[0]
    if response.get("stop_reason") is not None:
        message.metadata["finish_reason"] = response["stop_reason"]
    model = response.get("model")
    message.model_id = model if isinstance(model, str) else None
    message.inner_content = response
    return message


def from_anthropic_stream(
    events: Iterable[Mapping[str, Any]], *, separator: str = SEPARATOR
) -> list[StreamingChatMessageContent]:
    """Streaming chunks from Messages stream events; merge them with ``+`` (or ``sum``).

    ``content_block_start`` opens a text or ``tool_use`` block (id and name); the
    ``input_json_delta`` pieces that follow carry its arguments; ``message_delta`` carries
    the stop reason. The block index is the call index.
    """
    out: list[StreamingChatMessageContent] = []
    model: str | None = None
    for event in events:
        kind = event.get("type")
        items: list[KernelContent] = []
        finish = None
        if kind == "message_start":
            model = (event.get("message") or {}).get("model")
        elif kind == "content_block_start":
            block = event.get("content_block") or {}
            index = int(event.get("index", 0))
            if block.get("type") == "tool_use":
                plugin, function = split_name(str(block.get("name", "")), separator)
                items.append(
                    StreamingFunctionCallContent(
                        call_index=index,
                        id=block.get("id"),
                        plugin_name=plugin,
                        function_name=function,
                    )
                )
            elif block.get("type") == "text" and block.get("text"):
                items.append(StreamingTextContent(text=str(block["text"])))
        elif kind == "content_block_delta":
            delta = event.get("delta") or {}
            if delta.get("type") == "text_delta":
                items.append(StreamingTextContent(text=str(delta.get("text", ""))))
            elif delta.get("type") == "input_json_delta":
                items.append(
                    StreamingFunctionCallContent(
                        call_index=int(event.get("index", 0)),
                        arguments=str(delta.get("partial_json", "")),
                    )
                )
        elif kind == "message_delta":
            finish = (event.get("delta") or {}).get("stop_reason")
        else:
            continue
        out.append(
            StreamingChatMessageContent(
                role=AuthorRole.ASSISTANT,
                items=items,
                finish_reason=finish,
                model_id=model,
                inner_content=event,
            )
        )
    return out
