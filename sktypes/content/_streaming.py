"""Streaming chunks and how they merge (ADR "function call content", section 5).

A streamed answer arrives as :class:`StreamingChatMessageContent` chunks; ``a + b`` merges
two chunks of one choice in order. Text pieces concatenate; function-call pieces merge by
``call_index``: the id and name usually come in a call's first chunk and the arguments are
spread over later ones, possibly interleaved with other calls. Argument pieces may be text
fragments (OpenAI, Anthropic) or whole objects (Gemini) — every mix is accepted.
:meth:`StreamingChatMessageContent.to_chat_message` turns the merged chunks into a
:class:`ChatMessageContent` whose calls carry parsed (optionally hydrated) arguments.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import orjson

from sktypes.content._base import AuthorRole, KernelContent
from sktypes.content._codec import loads
from sktypes.content._functions import FunctionCallContent
from sktypes.content._history import FunctionSource
from sktypes.content._media import TextContent
from sktypes.content._message import ChatMessageContent
from sktypes.errors import ContentError, SktypesError

__all__ = [
    "StreamingChatMessageContent",
    "StreamingFunctionCallContent",
    "StreamingTextContent",
    "merge_chunks",
]


@dataclass(slots=True)
class StreamingTextContent(KernelContent):
    """A piece of streamed text for one choice."""

    text: str = ""
    choice_index: int = 0

    def __add__(self, other: StreamingTextContent) -> StreamingTextContent:
        _same_choice(self.choice_index, other.choice_index)
        return StreamingTextContent(
            text=self.text + other.text,
            choice_index=self.choice_index,
            metadata={**self.metadata, **other.metadata},
            model_id=self.model_id or other.model_id,
        )


@dataclass(slots=True)
class StreamingFunctionCallContent(KernelContent):
    """A piece of a streamed function call.

    Args:
        choice_index: which choice of the response it belongs to.
        call_index: which call of that choice (OpenAI ``tool_calls[].index``, Anthropic
            content block index); pieces with the same index merge.
        id: the call id (usually only in the first piece).
        plugin_name: the plugin, when the name was qualified.
        function_name: the function (usually only in the first piece).
        arguments: a fragment of the arguments' JSON text, or a whole (partial) object.
        extra_arguments: after merging, object pieces that arrived beside text pieces
            (merged over the parsed text when the call is finished).
    """

    choice_index: int = 0
    call_index: int = 0
    id: str | None = None
    plugin_name: str | None = None
    function_name: str | None = None
    arguments: str | dict[str, Any] | None = None
    extra_arguments: dict[str, Any] | None = None

    def __add__(self, other: StreamingFunctionCallContent) -> StreamingFunctionCallContent:
        _same_choice(self.choice_index, other.choice_index)
        if self.call_index != other.call_index:
            raise ContentError(
                f"cannot merge pieces of call {self.call_index} and call {other.call_index}"
            )
        text = _text_part(self) + _text_part(other)
        objects = {**_object_part(self), **_object_part(other)}
        return StreamingFunctionCallContent(
            choice_index=self.choice_index,
            call_index=self.call_index,
            arguments=text if text else (objects or None),
            extra_arguments=objects if text and objects else None,
            id=self.id or other.id,
            plugin_name=self.plugin_name or other.plugin_name,
            function_name=self.function_name or other.function_name,
            metadata={**self.metadata, **other.metadata},
            model_id=self.model_id or other.model_id,
        )

    def to_function_call(self) -> FunctionCallContent:
        """The finished call: arguments parsed; unusable text stays raw with ``exception``."""
        call = FunctionCallContent(
            id=self.id,
            plugin_name=self.plugin_name,
            function_name=self.function_name or "",
            arguments=self.arguments if isinstance(self.arguments, dict) else None,
            metadata=dict(self.metadata),
            model_id=self.model_id,
        )
        text = self.arguments
        if isinstance(text, str) and text.strip():
            try:
                parsed = loads(text)
            except orjson.JSONDecodeError as exc:
                parsed, call.exception = text, ContentError(f"arguments are not JSON: {exc}")
            except ContentError as exc:
                parsed, call.exception = text, exc
            if isinstance(parsed, dict):
                parsed = {**parsed, **(self.extra_arguments or {})}
            elif not isinstance(parsed, str) or call.exception is None:
                parsed = text
                call.exception = ContentError("arguments are not a JSON object")
            call.arguments = parsed
        elif self.extra_arguments:
            call.arguments = dict(self.extra_arguments)
        return call


def _text_part(piece: StreamingFunctionCallContent) -> str:
    return piece.arguments if isinstance(piece.arguments, str) else ""


def _object_part(piece: StreamingFunctionCallContent) -> dict[str, Any]:
    obj = piece.arguments if isinstance(piece.arguments, dict) else {}
    return {**obj, **piece.extra_arguments} if piece.extra_arguments else obj


def _same_choice(a: int, b: int) -> None:
    if a != b:
        raise ContentError(f"cannot merge chunks of choice {a} and choice {b}")


@dataclass(slots=True)
class StreamingChatMessageContent(KernelContent):
    """A chunk of a streamed message for one choice; ``+`` merges chunks in order.

    Args:
        role: the author role (usually only in the first chunk).
        items: streamed text and function-call pieces (other content passes through).
        choice_index: which choice of the response this chunk belongs to.
        name: the author name, if any.
        finish_reason: why the choice ended (last chunk), e.g. ``tool_calls``.
    """

    role: AuthorRole | None = None
    items: list[KernelContent] = field(default_factory=list)
    choice_index: int = 0
    name: str | None = None
    finish_reason: str | None = None

    @property
    def content(self) -> str:
        """The text streamed so far."""
        return "".join(
            i.text for i in self.items if isinstance(i, (StreamingTextContent, TextContent))
        )

    def __add__(self, other: StreamingChatMessageContent) -> StreamingChatMessageContent:
        if not isinstance(other, StreamingChatMessageContent):
            return NotImplemented
        _same_choice(self.choice_index, other.choice_index)
        items = list(self.items)
        for item in other.items:
            _absorb(items, item)
        return StreamingChatMessageContent(
            role=self.role or other.role,
            items=items,
            choice_index=self.choice_index,
            name=self.name or other.name,
            finish_reason=other.finish_reason or self.finish_reason,
            metadata={**self.metadata, **other.metadata},
            model_id=self.model_id or other.model_id,
            inner_content=other.inner_content,
        )

    def __radd__(self, other: object) -> StreamingChatMessageContent:
        if other == 0:  # sum(chunks)
            return self
        return NotImplemented

    def to_chat_message(self, kernel: FunctionSource | None = None) -> ChatMessageContent:
        """The finished message: text joined, calls with parsed arguments.

        With ``kernel``, each call's arguments are also validated against its function's
        view and hydrated into the parameters' native types; a call whose arguments do not
        fit keeps its JSON arguments and gets ``exception`` set (invoking it then yields an
        error result the model can correct itself from).
        """
        items: list[KernelContent] = []
        for item in _calls_in_index_order(self.items):
            if isinstance(item, StreamingTextContent):
                items.append(TextContent(text=item.text, metadata=dict(item.metadata)))
            elif isinstance(item, StreamingFunctionCallContent):
                call = item.to_function_call()
                if kernel is not None and isinstance(call.arguments, dict):
                    _hydrate_call(call, kernel)
                items.append(call)
            else:
                items.append(item)
        metadata = dict(self.metadata)
        if self.finish_reason is not None:
            metadata.setdefault("finish_reason", self.finish_reason)
        return ChatMessageContent(
            self.role or AuthorRole.ASSISTANT,
            items,
            self.name,
            metadata=metadata,
            model_id=self.model_id,
        )


def _calls_in_index_order(items: list[KernelContent]) -> list[KernelContent]:
    """The items with the calls sorted by ``call_index`` in the slots calls occupy."""
    slots = [n for n, i in enumerate(items) if isinstance(i, StreamingFunctionCallContent)]
    calls = sorted(
        (items[n] for n in slots),
        key=lambda c: c.call_index if isinstance(c, StreamingFunctionCallContent) else 0,
    )
    out = list(items)
    for n, c in zip(slots, calls, strict=True):
        out[n] = c
    return out


def _absorb(items: list[KernelContent], item: KernelContent) -> None:
    if isinstance(item, StreamingTextContent):
        if items and isinstance(items[-1], StreamingTextContent):
            items[-1] = items[-1] + item
        else:
            items.append(dataclasses.replace(item))
        return
    if isinstance(item, StreamingFunctionCallContent):
        for n, known in enumerate(items):
            if isinstance(known, StreamingFunctionCallContent) and (
                known.call_index == item.call_index
            ):
                items[n] = known + item
                return
        items.append(dataclasses.replace(item))
        return
    items.append(item)


def _hydrate_call(call: FunctionCallContent, kernel: FunctionSource) -> None:
    try:
        view = kernel.get_function(call.fully_qualified_name).view
    except SktypesError:
        return
    from sktypes.hydration import argument_contract

    assert isinstance(call.arguments, dict)
    try:
        native = argument_contract(view).arguments(call.arguments)
    except SktypesError as exc:  # the contract's ArgumentsError
        call.exception = exc
        return
    call.arguments = {k: v for k, v in native.items() if k in call.arguments}  # as the model sent


def merge_chunks(chunks: Iterable[StreamingChatMessageContent]) -> list[ChatMessageContent]:
    """Merge a stream's chunks per choice (in arrival order) into finished messages.

    Returns one message per choice index, ordered by index.
    """
    merged: dict[int, StreamingChatMessageContent] = {}
    for chunk in chunks:
        known = merged.get(chunk.choice_index)
        merged[chunk.choice_index] = chunk if known is None else known + chunk
    return [merged[i].to_chat_message() for i in sorted(merged)]
