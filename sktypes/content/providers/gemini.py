"""Gemini ``contents`` ⇄ chat history (pure functions, no network; camelCase wire keys).

``to_gemini(history)`` gives ``{"contents": [...], "systemInstruction": ...}``: assistant
messages become ``model`` contents, function calls ``functionCall`` parts (``args`` is an
object; the call's ``metadata["thought_signature"]`` is replayed as ``thoughtSignature``),
results ``functionResponse`` parts in a ``user`` content with the value under ``output`` (or
the error text under ``error``), media ``inlineData``/``fileData`` parts. Gemini does not
need call ids, so none are simulated; existing ids are echoed.

Documented losses: system/developer messages lose their position (``systemInstruction``);
thought summaries (``"thought": true`` parts) are not read;
non-object results come back from ``output``; metadata (except thought signatures) and
model ids are not carried; raw call arguments that cannot be repaired into an object
cannot be sent (``ContentError``); message names are dropped.
"""

from __future__ import annotations

import base64
from collections.abc import Iterable, Mapping
from typing import Any

from sktypes.content._base import AuthorRole, KernelContent
from sktypes.content._codec import to_json_value
from sktypes.content._functions import FunctionCallContent, FunctionResultContent
from sktypes.content._history import ChatHistory
from sktypes.content._media import AudioContent, BinaryContent, ImageContent, TextContent
from sktypes.content._message import ChatMessageContent
from sktypes.content._streaming import (
    StreamingChatMessageContent,
    StreamingFunctionCallContent,
    StreamingTextContent,
)
from sktypes.content.providers._common import SEPARATOR, join_name, split_name
from sktypes.errors import ContentError

__all__ = ["from_gemini", "from_gemini_response", "from_gemini_stream", "to_gemini"]

SIGNATURE = "thought_signature"
"""The metadata key holding a function call's ``thoughtSignature`` (Gemini 3 needs it back)."""


def to_gemini(
    messages: Iterable[ChatMessageContent], *, separator: str = SEPARATOR
) -> dict[str, Any]:
    """The ``contents`` (and ``systemInstruction``) of a generateContent request.

    Raises:
        ContentError: content Gemini cannot carry; the message names ``$[i].items[j]``.
    """
    system: list[dict[str, Any]] = []
    contents: list[dict[str, Any]] = []
    for i, message in enumerate(messages):
        parts = [
            _part(item, separator, f"$[{i}].items[{j}]") for j, item in enumerate(message.items)
        ]
        if message.role in (AuthorRole.SYSTEM, AuthorRole.DEVELOPER):
            system.extend(parts)
            continue
        role = "model" if message.role is AuthorRole.ASSISTANT else "user"
        contents.append({"role": role, "parts": parts})
    request: dict[str, Any] = {"contents": contents}
    if system:
        request["systemInstruction"] = {"parts": system}
    return request


def _part(item: KernelContent, separator: str, where: str) -> dict[str, Any]:
    if isinstance(item, TextContent):
        return {"text": item.text}
    if isinstance(item, FunctionCallContent):
        try:
            args = item.parse_arguments()
        except ContentError as exc:
            raise ContentError(
                f"Gemini needs an arguments object: {exc.message}", where=where
            ) from None
        call: dict[str, Any] = {
            "name": join_name(item.plugin_name, item.function_name, separator),
            "args": to_json_value(args, where),
        }
        if item.id is not None:
            call["id"] = item.id
        part: dict[str, Any] = {"functionCall": call}
        signature = item.metadata.get(SIGNATURE)
        if isinstance(signature, str):
            part["thoughtSignature"] = signature
        return part
    if isinstance(item, FunctionResultContent):
        response: dict[str, Any] = {
            "name": join_name(item.plugin_name, item.function_name or "", separator)
        }
        if item.id is not None:
            response["id"] = item.id
        if isinstance(item.result, BinaryContent):
            response["response"] = {}
            response["parts"] = [_part(item.result, separator, f"{where}.result")]
        elif isinstance(item.result, KernelContent):
            raise ContentError("a result must be a value or media", where=where)
        elif item.is_error:
            response["response"] = {"error": to_json_value(item.result, where)}
        else:
            response["response"] = {"output": to_json_value(item.result, where)}
        return {"functionResponse": response}
    if isinstance(item, BinaryContent):
        mime = item.mime_type or "application/octet-stream"
        if item.data is not None:
            return {"inlineData": {"mimeType": mime, "data": item.base64_data}}
        if item.uri is not None and item.uri.startswith("data:"):
            inline = BinaryContent.from_data_uri(item.uri)
            return {
                "inlineData": {
                    "mimeType": inline.mime_type or mime,
                    "data": inline.base64_data,
                }
            }
        return {"fileData": {"mimeType": mime, "fileUri": item.uri}}
    raise ContentError(f"Gemini contents cannot carry {type(item).__name__}", where=where)


# --- reading ------------------------------------------------------------------------


def from_gemini(
    contents: Iterable[Mapping[str, Any]],
    system_instruction: Mapping[str, Any] | None = None,
    *,
    separator: str = SEPARATOR,
) -> ChatHistory:
    """A history from ``contents`` (and ``systemInstruction``).

    A user content's ``functionResponse`` parts become a ``tool`` message; its other parts
    a ``user`` message after it.

    Raises:
        ContentError: a malformed content or part; the message names ``$[i].parts[j]``.
    """
    history = ChatHistory()
    if system_instruction:
        parts = system_instruction.get("parts") or []
        items = [
            _read_part(p, f"$.systemInstruction.parts[{j}]", separator) for j, p in enumerate(parts)
        ]
        history.add_message(ChatMessageContent(AuthorRole.SYSTEM, items))
    for i, raw in enumerate(contents):
        where = f"$[{i}]"
        role = raw.get("role", "user") if isinstance(raw, Mapping) else None
        if role not in ("user", "model"):
            raise ContentError(f"unknown role {role!r}", where=f"{where}.role")
        parts = raw.get("parts")
        if not isinstance(parts, list):
            raise ContentError("parts must be a list", where=where)
        items = [
            _read_part(p, f"{where}.parts[{j}]", separator)
            for j, p in enumerate(parts)
            if not _is_thought(p)
        ]
        results = [x for x in items if isinstance(x, FunctionResultContent)]
        others = [x for x in items if not isinstance(x, FunctionResultContent)]
        if results:
            history.add_message(ChatMessageContent(AuthorRole.TOOL, results))
        if others or not results:
            role_out = AuthorRole.ASSISTANT if role == "model" else AuthorRole.USER
            history.add_message(ChatMessageContent(role_out, others))
    return history


def _is_thought(part: Any) -> bool:
    """A thought summary (``"thought": true``): the model's reasoning, not the answer."""
    return isinstance(part, Mapping) and part.get("thought") is True


def _read_part(part: Any, where: str, separator: str) -> KernelContent:
    if not isinstance(part, Mapping):
        raise ContentError("a part must be an object", where=where)
    if "text" in part:
        return TextContent(text=str(part["text"]))
    if "functionCall" in part:
        fc = part["functionCall"] or {}
        plugin, function = split_name(str(fc.get("name", "")), separator)
        args = fc.get("args")
        call = FunctionCallContent(
            id=fc.get("id") if isinstance(fc.get("id"), str) else None,
            plugin_name=plugin,
            function_name=function,
            arguments=dict(args) if isinstance(args, Mapping) else {},
        )
        if isinstance(part.get("thoughtSignature"), str):
            call.metadata[SIGNATURE] = part["thoughtSignature"]
        return call
    if "functionResponse" in part:
        fr = part["functionResponse"] or {}
        plugin, function = split_name(str(fr.get("name", "")), separator)
        response = fr.get("response") or {}
        media = fr.get("parts") or []
        result: Any
        is_error = False
        if media:
            result = _read_part(media[0], f"{where}.functionResponse.parts[0]", separator)
        elif isinstance(response, Mapping) and set(response) == {"error"}:
            result, is_error = response["error"], True
        elif (
            isinstance(response, Mapping)
            and len(response) == 1
            and ("output" in response or "result" in response)
        ):
            result = next(iter(response.values()))
        else:
            result = response
        return FunctionResultContent(
            id=fr.get("id") if isinstance(fr.get("id"), str) else None,
            plugin_name=plugin,
            function_name=function,
            result=result,
            is_error=is_error,
        )
    for key, make in (("inlineData", True), ("fileData", False)):
        if key in part:
            blob = part[key] or {}
            mime = blob.get("mimeType")
            cls = _media_class(mime)
            if make:
                try:
                    data = base64.b64decode(str(blob.get("data", "")), validate=True)
                except ValueError:
                    raise ContentError("inlineData.data is not base64", where=where) from None
                return cls(data=data, mime_type=mime)
            return cls(uri=str(blob.get("fileUri", "")), mime_type=mime)
    raise ContentError(f"unsupported part with keys {sorted(part)}", where=where)


def _media_class(mime: Any) -> type[BinaryContent]:
    if isinstance(mime, str) and mime.startswith("image/"):
        return ImageContent
    if isinstance(mime, str) and mime.startswith("audio/"):
        return AudioContent
    return BinaryContent


def from_gemini_response(
    response: Mapping[str, Any], *, separator: str = SEPARATOR
) -> list[ChatMessageContent]:
    """One assistant message per candidate (``finishReason`` in metadata)."""
    out = []
    model = response.get("modelVersion")
    for i, candidate in enumerate(response.get("candidates") or ()):
        content = candidate.get("content") or {"role": "model", "parts": []}
        parts = content.get("parts") or []
        items = [
            _read_part(p, f"$.candidates[{i}].content.parts[{j}]", separator)
            for j, p in enumerate(parts)
            if not _is_thought(p)
        ]
        message = ChatMessageContent(AuthorRole.ASSISTANT, items)
        if candidate.get("finishReason") is not None:
            message.metadata["finish_reason"] = candidate["finishReason"]
        message.model_id = model if isinstance(model, str) else None
        message.inner_content = candidate
        out.append(message)
    return out


def from_gemini_stream(
    chunks: Iterable[Mapping[str, Any]], *, separator: str = SEPARATOR
) -> list[StreamingChatMessageContent]:
    """Streaming chunks from ``streamGenerateContent`` responses; merge them with ``+``.

    Gemini streams whole ``functionCall`` parts; each gets the next call index of its
    candidate, so calls from different chunks never merge into one.
    """
    out: list[StreamingChatMessageContent] = []
    counters: dict[int, int] = {}
    for chunk in chunks:
        for i, candidate in enumerate(chunk.get("candidates") or ()):
            index = int(candidate.get("index", i))
            parts = (candidate.get("content") or {}).get("parts") or []
            items: list[KernelContent] = []
            for j, p in enumerate(parts):
                if _is_thought(p):
                    continue
                item = _read_part(p, f"$.candidates[{i}].content.parts[{j}]", separator)
                if isinstance(item, TextContent):
                    items.append(StreamingTextContent(text=item.text, choice_index=index))
                elif isinstance(item, FunctionCallContent):
                    n = counters.get(index, 0)
                    counters[index] = n + 1
                    items.append(
                        StreamingFunctionCallContent(
                            choice_index=index,
                            call_index=n,
                            id=item.id,
                            plugin_name=item.plugin_name,
                            function_name=item.function_name,
                            arguments=item.arguments if isinstance(item.arguments, dict) else None,
                            metadata=item.metadata,
                        )
                    )
                else:
                    items.append(item)
            out.append(
                StreamingChatMessageContent(
                    role=AuthorRole.ASSISTANT,
                    items=items,
                    choice_index=index,
                    finish_reason=candidate.get("finishReason"),
                    inner_content=chunk,
                )
            )
    return out
