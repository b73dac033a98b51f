"""OpenAI Chat Completions messages ⇄ chat history (pure functions, no network).

``to_openai(history)`` gives the ``messages`` list of a request: assistant function calls
become ``tool_calls`` (arguments as JSON text, names ``Plugin-function``), each function
result its own ``role: "tool"`` message, images ``image_url`` parts (data URLs for bytes).
Calls without ids get simulated ones (OpenAI requires them). ``from_openai`` reads such a
list back; ``from_openai_response`` and ``from_openai_chunk`` read responses and stream
chunks.

Documented losses: tool messages carry text only (a non-string result comes back as its
JSON text; ``is_error`` is not carried); metadata and model ids are not carried;
consecutive tool messages come back as one ``tool`` message; in an assistant message the
text comes back before the calls.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import orjson

from sktypes.content._base import AuthorRole, KernelContent
from sktypes.content._codec import loads
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

__all__ = ["from_openai", "from_openai_chunk", "from_openai_response", "to_openai"]

_ROLES = {r.value for r in AuthorRole}


def to_openai(
    messages: Iterable[ChatMessageContent], *, separator: str = SEPARATOR
) -> list[dict[str, Any]]:
    """The Chat Completions ``messages`` for a history.

    Raises:
        ContentError: content OpenAI cannot carry (an image as a function result, a call
            outside an assistant message); the message names ``$[i].items[j]``.
    """
    history = list(messages)
    ids = CallIds(history)
    out: list[dict[str, Any]] = []
    for i, message in enumerate(history):
        where = f"$[{i}]"
        results = [x for x in message.items if isinstance(x, FunctionResultContent)]
        rest = [x for x in message.items if not isinstance(x, FunctionResultContent)]
        if rest or not results:
            out.append(_message(message, rest, ids, separator, where))
        for result in results:
            j = message.items.index(result)
            try:
                text = result.result_text()
            except ContentError as exc:
                raise ContentError(
                    f"OpenAI tool messages carry text only: {exc.message}",
                    where=f"{where}.items[{j}]",
                ) from None
            out.append({"role": "tool", "tool_call_id": ids(result), "content": text})
    return out


def _message(
    message: ChatMessageContent,
    items: list[KernelContent],
    ids: CallIds,
    separator: str,
    where: str,
) -> dict[str, Any]:
    role = message.role
    out: dict[str, Any] = {"role": role.value}
    if message.name is not None:
        out["name"] = message.name
    calls = [x for x in items if isinstance(x, FunctionCallContent)]
    others = [x for x in items if not isinstance(x, FunctionCallContent)]
    if calls and role is not AuthorRole.ASSISTANT:
        raise ContentError("function calls belong in assistant messages", where=where)
    if role is AuthorRole.TOOL:
        raise ContentError("a tool message must hold function results only", where=where)
    if role is AuthorRole.ASSISTANT:
        texts = []
        for item in others:
            if not isinstance(item, TextContent):
                j = message.items.index(item)
                raise ContentError(
                    f"OpenAI assistant messages carry no {type(item).__name__}",
                    where=f"{where}.items[{j}]",
                )
            texts.append(item.text)
        out["content"] = "".join(texts) if texts else None
        if calls:
            out["tool_calls"] = [_tool_call(c, ids, separator) for c in calls]
        return out
    if all(isinstance(x, TextContent) for x in others):
        out["content"] = "".join(x.text for x in others if isinstance(x, TextContent))
    else:
        out["content"] = [_part(x, f"{where}.items[{message.items.index(x)}]") for x in others]
    return out


def _tool_call(call: FunctionCallContent, ids: CallIds, separator: str) -> dict[str, Any]:
    args = call.arguments
    text = args if isinstance(args, str) else orjson.dumps(args or {}).decode()
    return {
        "id": ids(call),
        "type": "function",
        "function": {
            "name": join_name(call.plugin_name, call.function_name, separator),
            "arguments": text,
        },
    }


def _part(item: KernelContent, where: str) -> dict[str, Any]:
    if isinstance(item, TextContent):
        return {"type": "text", "text": item.text}
    if isinstance(item, ImageContent):
        url = item.data_uri if item.data is not None else item.uri
        return {"type": "image_url", "image_url": {"url": url}}
    if isinstance(item, AudioContent) and item.data is not None:
        fmt = (item.mime_type or "audio/wav").split("/")[-1]
        return {"type": "input_audio", "input_audio": {"data": item.base64_data, "format": fmt}}
    if isinstance(item, BinaryContent) and not isinstance(item, AudioContent):
        return {"type": "file", "file": {"file_data": item.data_uri}}
    raise ContentError(f"OpenAI messages cannot carry {type(item).__name__} like this", where=where)


# --- reading ------------------------------------------------------------------------


def from_openai(
    messages: Iterable[Mapping[str, Any]], *, separator: str = SEPARATOR
) -> ChatHistory:
    """A history from Chat Completions ``messages`` (requests or replayed responses).

    Raises:
        ContentError: a malformed message; the message names ``$[i]``.
    """
    history = ChatHistory()
    names: dict[str, tuple[str | None, str]] = {}
    for i, raw in enumerate(messages):
        where = f"$[{i}]"
        if not isinstance(raw, Mapping):
            raise ContentError("a message must be an object", where=where)
        role = raw.get("role")
        if role == "tool":
            call_id = raw.get("tool_call_id")
            plugin, function = (
                names.get(call_id, (None, "")) if isinstance(call_id, str) else (None, "")
            )
            result = FunctionResultContent(
                id=call_id if isinstance(call_id, str) else None,
                plugin_name=plugin,
                function_name=function or None,
                result=_text_of(raw.get("content"), where),
            )
            last = history[-1] if history else None
            if last is not None and last.role is AuthorRole.TOOL:
                last.items.append(result)
            else:
                history.add_message(ChatMessageContent(AuthorRole.TOOL, [result]))
            continue
        message = _read_message(raw, where, separator)
        for call in FunctionCallContent.get_function_calls(message):
            if call.id is not None:
                names[call.id] = (call.plugin_name, call.function_name)
        history.add_message(message)
    return history


def _read_message(raw: Mapping[str, Any], where: str, separator: str) -> ChatMessageContent:
    role = raw.get("role")
    if role not in ("system", "developer", "user", "assistant"):
        raise ContentError(f"unknown role {role!r}", where=f"{where}.role")
    items: list[KernelContent] = []
    content = raw.get("content")
    if isinstance(content, str):
        if content or not raw.get("tool_calls"):
            items.append(TextContent(text=content))
    elif isinstance(content, list):
        items.extend(_read_part(p, f"{where}.content[{j}]") for j, p in enumerate(content))
    elif content is not None:
        raise ContentError("content must be a string or a list of parts", where=where)
    for j, tc in enumerate(raw.get("tool_calls") or ()):
        items.append(_read_tool_call(tc, f"{where}.tool_calls[{j}]", separator))
    name = raw.get("name")
    return ChatMessageContent(AuthorRole(role), items, name if isinstance(name, str) else None)


def _read_tool_call(tc: Any, where: str, separator: str) -> FunctionCallContent:
    fn = tc.get("function") if isinstance(tc, Mapping) else None
    if not isinstance(fn, Mapping) or not isinstance(fn.get("name"), str):
        raise ContentError("a tool call needs function.name", where=where)
    plugin, function = split_name(fn["name"], separator)
    return parsed_call(tc.get("id"), plugin, function, fn.get("arguments"))


def parsed_call(
    call_id: Any, plugin: str | None, function: str, arguments: Any
) -> FunctionCallContent:
    """A call whose JSON-text arguments are parsed (kept raw, with ``exception``, if unusable)."""
    call = FunctionCallContent(
        id=call_id if isinstance(call_id, str) else None,
        plugin_name=plugin,
        function_name=function,
    )
    if isinstance(arguments, dict):
        call.arguments = arguments
    elif isinstance(arguments, str) and arguments.strip():
        try:
            parsed = loads(arguments)
        except orjson.JSONDecodeError as exc:
            call.arguments = arguments
            call.exception = ContentError(f"the arguments are not valid JSON: {exc}")
            return call
        except ContentError as exc:
            call.arguments = arguments
            call.exception = exc
            return call
        if isinstance(parsed, dict):
            call.arguments = parsed
        else:
            call.arguments = arguments
            call.exception = ContentError("the arguments are not a JSON object")
    elif arguments is not None and arguments != "":
        raise ContentError("arguments must be JSON text", where=function)
    return call


def _read_part(part: Any, where: str) -> KernelContent:
    kind = part.get("type") if isinstance(part, Mapping) else None
    if kind == "text":
        return TextContent(text=str(part.get("text", "")))
    if kind == "image_url":
        url = (part.get("image_url") or {}).get("url")
        if not isinstance(url, str):
            raise ContentError("image_url.url must be a string", where=where)
        return ImageContent.from_data_uri(url) if url.startswith("data:") else ImageContent(uri=url)
    if kind == "input_audio":
        audio = part.get("input_audio") or {}
        data = BinaryContent.from_data_uri(f"data:;base64,{audio.get('data', '')}").data
        return AudioContent(data=data, mime_type=f"audio/{audio.get('format', 'wav')}")
    if kind == "file":
        data_url = (part.get("file") or {}).get("file_data")
        if isinstance(data_url, str) and data_url.startswith("data:"):
            return BinaryContent.from_data_uri(data_url)
        raise ContentError("only inline file parts (file_data) are supported", where=where)
    raise ContentError(f"unknown content part type {kind!r}", where=where)


def _text_of(content: Any, where: str) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            str(p.get("text", ""))
            for p in content
            if isinstance(p, Mapping) and p.get("type") == "text"
        )
    if content is None:
        return ""
    raise ContentError("tool content must be text", where=where)


def from_openai_response(
    response: Mapping[str, Any], *, separator: str = SEPARATOR
) -> list[ChatMessageContent]:
    """One message per choice of a Chat Completions response (``finish_reason`` in metadata)."""
    out = []
    model = response.get("model")
    for i, choice in enumerate(response.get("choices") or ()):
        message = _read_message(choice.get("message") or {}, f"$.choices[{i}].message", separator)
        if choice.get("finish_reason") is not None:
            message.metadata["finish_reason"] = choice["finish_reason"]
        message.model_id = model if isinstance(model, str) else None
        message.inner_content = choice
        out.append(message)
    return out


def from_openai_chunk(
    chunk: Mapping[str, Any], *, separator: str = SEPARATOR
) -> list[StreamingChatMessageContent]:
    """One streaming message per choice of a ``chat.completion.chunk``; merge them with ``+``."""
    out = []
    model = chunk.get("model")
    for choice in chunk.get("choices") or ():
        index = int(choice.get("index", 0))
        delta = choice.get("delta") or {}
        items: list[KernelContent] = []
        if isinstance(delta.get("content"), str) and delta["content"]:
            items.append(StreamingTextContent(text=delta["content"], choice_index=index))
        for tc in delta.get("tool_calls") or ():
            fn = tc.get("function") or {}
            plugin, function = split_name(fn["name"], separator) if fn.get("name") else (None, None)
            items.append(
                StreamingFunctionCallContent(
                    choice_index=index,
                    call_index=int(tc.get("index", 0)),
                    id=tc.get("id"),
                    plugin_name=plugin,
                    function_name=function,
                    arguments=fn.get("arguments"),
                )
            )
        role = delta.get("role")
        out.append(
            StreamingChatMessageContent(
                role=AuthorRole(role) if isinstance(role, str) and role in _ROLES else None,
                items=items,
                choice_index=index,
                finish_reason=choice.get("finish_reason"),
                model_id=model if isinstance(model, str) else None,
                inner_content=chunk,
            )
        )
    return out
