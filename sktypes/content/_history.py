"""`ChatHistory`: a list of messages that serializes and restores losslessly.

The JSON form (``schemas/chat-history.schema.json``) is
``{"version": 1, "messages": [{"type": "message", "role": ..., "items": [...]}, ...]}``.
Bytes travel as base64; function results as their JSON form. Restoring looks content
types up in a registry (never a class named by the data); with ``kernel=`` it turns each
function result back into the native type of its function's return view.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, MutableSequence, Sequence
from typing import Any, Protocol, overload

import orjson

from sktypes._documents import check_tree
from sktypes.content._base import (
    AuthorRole,
    KernelContent,
    items_from_dicts,
    items_to_dicts,
    join_path,
    relocate,
)
from sktypes.content._codec import dumps, from_json_value, loads, to_plain_json
from sktypes.content._functions import FunctionResultContent
from sktypes.content._message import ChatMessageContent
from sktypes.content._result import FunctionResult
from sktypes.errors import ContentError, SktypesError, snippet
from sktypes.views import FunctionView

__all__ = ["ChatHistory", "FunctionSource"]

_VERSION = 1


class _HasView(Protocol):
    @property
    def view(self) -> FunctionView: ...


class FunctionSource(Protocol):
    """Where restoring finds functions by name: ``sktypes.kernel.Kernel`` is one."""

    def get_function(self, name: str, /) -> _HasView:
        """Return the function called ``Plugin.Function`` (raise if there is none)."""
        ...


class ChatHistory(MutableSequence[ChatMessageContent]):
    """The messages of a conversation, in order; a mutable sequence with add helpers.

    Args:
        messages: initial messages.
        system_message: shorthand for a first ``system`` message.
    """

    __slots__ = ("messages",)

    def __init__(
        self,
        messages: Iterable[ChatMessageContent] | None = None,
        *,
        system_message: str | None = None,
    ) -> None:
        self.messages: list[ChatMessageContent] = []
        if system_message is not None:
            self.add_system_message(system_message)
        self.messages.extend(messages or ())

    # --- sequence protocol ----------------------------------------------------------

    @overload
    def __getitem__(self, index: int) -> ChatMessageContent: ...
    @overload
    def __getitem__(self, index: slice) -> ChatHistory: ...
    def __getitem__(self, index: int | slice) -> ChatMessageContent | ChatHistory:
        if isinstance(index, slice):
            return ChatHistory(self.messages[index])
        return self.messages[index]

    @overload
    def __setitem__(self, index: int, value: ChatMessageContent) -> None: ...
    @overload
    def __setitem__(self, index: slice, value: Iterable[ChatMessageContent]) -> None: ...
    def __setitem__(self, index: Any, value: Any) -> None:
        self.messages[index] = value

    def __delitem__(self, index: int | slice) -> None:
        del self.messages[index]

    def __len__(self) -> int:
        return len(self.messages)

    def __iter__(self) -> Iterator[ChatMessageContent]:
        return iter(self.messages)

    def insert(self, index: int, value: ChatMessageContent) -> None:
        """Insert a message before ``index``."""
        self.messages.insert(index, value)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ChatHistory):
            return NotImplemented
        return self.messages == other.messages

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"ChatHistory({self.messages!r})"

    # --- adding messages ------------------------------------------------------------

    def add_message(self, message: ChatMessageContent) -> ChatMessageContent:
        """Append a message and return it."""
        if not isinstance(message, ChatMessageContent):
            raise ContentError(f"not a ChatMessageContent: {type(message).__name__}")
        self.messages.append(message)
        return message

    def _add(
        self, role: AuthorRole, content: str | Sequence[KernelContent], name: str | None
    ) -> ChatMessageContent:
        return self.add_message(ChatMessageContent(role, content, name))

    def add_system_message(self, content: str | Sequence[KernelContent]) -> ChatMessageContent:
        """Append a ``system`` message."""
        return self._add(AuthorRole.SYSTEM, content, None)

    def add_developer_message(self, content: str | Sequence[KernelContent]) -> ChatMessageContent:
        """Append a ``developer`` message."""
        return self._add(AuthorRole.DEVELOPER, content, None)

    def add_user_message(
        self, content: str | Sequence[KernelContent], name: str | None = None
    ) -> ChatMessageContent:
        """Append a ``user`` message (text, or items such as images)."""
        return self._add(AuthorRole.USER, content, name)

    def add_assistant_message(
        self, content: str | Sequence[KernelContent], name: str | None = None
    ) -> ChatMessageContent:
        """Append an ``assistant`` message (text, function calls, ...)."""
        return self._add(AuthorRole.ASSISTANT, content, name)

    def add_tool_message(
        self, results: FunctionResultContent | Sequence[FunctionResultContent]
    ) -> ChatMessageContent:
        """Append one ``tool`` message holding one or several function results."""
        items = [results] if isinstance(results, FunctionResultContent) else list(results)
        return self.add_message(ChatMessageContent(AuthorRole.TOOL, items))

    # --- serialization --------------------------------------------------------------

    def _raw(self) -> dict[str, Any]:
        try:
            messages = items_to_dicts(list(self.messages), "messages")
        except ContentError as exc:
            raise relocate(exc, "$") from None
        return {"version": _VERSION, "messages": messages}

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``{"version": 1, "messages": [...]}`` (plain JSON values only).

        Raises:
            ContentError: a value is not JSON-representable; the message names its path
                (``$.messages[3].items[0].result``).
        """
        plain: dict[str, Any] = to_plain_json(self._raw())
        return plain

    def to_json(self, *, indent: bool = False) -> str:
        """Serialize to JSON text (see :meth:`to_dict`).

        Results, arguments and metadata go through their JSON form: pydantic models,
        dataclasses, dates and enums as pydantic serializes them (by alias); a value with
        no JSON form is an error naming its path, never a silent ``str(value)``.
        """
        return dumps(self._raw(), indent=indent).decode()

    @classmethod
    def from_dict(
        cls, data: Any, kernel: FunctionSource | None = None, *, file: str | None = None
    ) -> ChatHistory:
        """Restore a history from :meth:`to_dict` output (see :meth:`from_json`).

        The data must be JSON values within :data:`sktypes.limits.DEFAULT_LIMITS` (no
        integer beyond 64 bits, which :meth:`to_json` could not write back).
        """
        check_tree(data, file, ContentError, json_path=True)
        return cls._restore(data, kernel, file)

    @classmethod
    def _restore(cls, data: Any, kernel: FunctionSource | None, file: str | None) -> ChatHistory:
        if type(data) is not dict or type(data.get("messages")) is not list:
            raise ContentError("a chat history is an object with a 'messages' array", file=file)
        if data.get("version", _VERSION) != _VERSION:
            raise ContentError(
                f"unsupported version {snippet(data['version'])}", file=file, where="$"
            )
        messages: list[ChatMessageContent] = []
        try:
            for i, item in enumerate(items_from_dicts(data["messages"], "messages")):
                if not isinstance(item, ChatMessageContent):
                    raise ContentError("not a message", where=f"messages[{i}].type")
                if kernel is not None:
                    _rehydrate(item, kernel, f"$.messages[{i}]")
                messages.append(item)
        except ContentError as exc:
            raise ContentError(exc.message, file=file, where=join_path("$", exc.where)) from None
        history = cls()
        history.messages = messages
        return history

    @classmethod
    def from_json(
        cls, text: str | bytes, kernel: FunctionSource | None = None, *, file: str | None = None
    ) -> ChatHistory:
        """Restore a history from :meth:`to_json` text.

        Args:
            text: the JSON text.
            kernel: when given, each function result whose function the kernel knows comes
                back as the native type of the function's return view (a ``WeatherForecast``
                goes in and comes back a ``WeatherForecast``); unknown functions and error
                results keep their JSON value.
            file: named in error messages.

        Raises:
            ContentError: not JSON, nested deeper than the document limit, an integer
                beyond 64 bits (read back exactly or not at all: :meth:`to_json` refuses
                them too), an unknown content type, a malformed item or a result that does
                not fit its function's return type — naming the place.
        """
        try:
            data = loads(text)
        except orjson.JSONDecodeError as exc:
            raise ContentError(f"not valid JSON: {exc}", file=file) from None
        except ContentError as exc:
            at = exc.location()._replace(file=file)
            raise ContentError(exc.message, **at._asdict()) from None
        return cls._restore(data, kernel, file)


def _rehydrate(message: ChatMessageContent, kernel: FunctionSource, path: str) -> None:
    for i, item in enumerate(message.items):
        where = f"{path}.items[{i}]"
        if isinstance(item, FunctionResultContent):
            if item.is_error or item.function_name is None:
                continue
            if isinstance(item.result, KernelContent):
                continue
            view = _find(kernel, item.fully_qualified_name)
            if view is not None:
                item.result = _native(view, item.result, f"{where}.result")
        elif isinstance(item, FunctionResult) and item.function is not None:
            view = _find(kernel, item.function.fully_qualified_name)
            if view is not None:
                item.function = view
                item.value = _native(view, item.value, f"{where}.value")
                item.choices = [
                    _native(view, c, f"{where}.choices[{n}]") for n, c in enumerate(item.choices)
                ]


def _find(kernel: FunctionSource, name: str) -> FunctionView | None:
    try:
        return kernel.get_function(name).view
    except SktypesError:
        return None


def _native(view: FunctionView, value: Any, where: str) -> Any:
    returns = view.return_parameter
    if returns.native_type is None or returns.is_streaming:
        return value
    try:
        return from_json_value(returns.native_type, value, where)
    except SktypesError as exc:
        raise ContentError(
            f"does not fit the return type of {view.fully_qualified_name}: {exc}", where=where
        ) from None
