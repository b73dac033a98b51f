"""Function calls a model asks for, and the results sent back (ADR option 1.2).

:class:`FunctionCallContent` is the model's request; :class:`FunctionResultContent` the
answer, sent back in a message with role ``tool``. A result holds any JSON-representable
value (ADR option 3.1), or another content item (an image a function produced); failures
are results too, carrying an error text the model can reason about (``is_error``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

import orjson

from sktypes.content._base import (
    AuthorRole,
    KernelContent,
    item_from_dict,
    item_to_dict,
    register_content_type,
    relocate,
    str_field,
)
from sktypes.content._codec import loads, to_json_value
from sktypes.content._message import ChatMessageContent
from sktypes.content._result import FunctionResult
from sktypes.errors import (
    ArgumentsError,
    ContentError,
    HydrationError,
    KernelError,
    arguments_header,
    snippet,
)

__all__ = ["FunctionCallContent", "FunctionResultContent", "InvokingKernel", "error_text"]


class InvokingKernel(Protocol):
    """What :meth:`FunctionCallContent.invoke` needs: ``sktypes.kernel.Kernel`` is one."""

    def invoke(
        self, function: str, arguments: Mapping[str, Any] | None = None, /
    ) -> Awaitable[FunctionResult[Any]]:
        """Invoke ``Plugin.Function`` with JSON arguments."""
        ...


def _qualified(plugin_name: str | None, function_name: str, separator: str) -> str:
    return f"{plugin_name}{separator}{function_name}" if plugin_name else function_name


@register_content_type
@dataclass(slots=True)
class FunctionCallContent(KernelContent):
    """A call the model asked for.

    Args:
        id: the provider's call id (``None`` for simulated calls until a provider needs one).
        plugin_name: the plugin, when the function is qualified.
        function_name: the function.
        arguments: the parsed arguments object, or the model's raw text when it was not
            usable JSON (then ``exception`` says why).
        exception: why the call cannot be made as it stands (serialized as text only).
    """

    type_name: ClassVar[str] = "function_call"

    id: str | None = None
    plugin_name: str | None = None
    function_name: str = ""
    arguments: dict[str, Any] | str | None = None
    exception: BaseException | None = field(default=None, compare=False)

    @property
    def fully_qualified_name(self) -> str:
        """``Plugin.function`` (or ``function`` without a plugin)."""
        return _qualified(self.plugin_name, self.function_name, ".")

    def qualified_name(self, separator: str = ".") -> str:
        """The plugin and function names joined by ``separator`` (e.g. ``-`` for OpenAI)."""
        return _qualified(self.plugin_name, self.function_name, separator)

    def parse_arguments(self, *, repair: bool = True) -> dict[str, Any]:
        """The arguments as a dict (raw text is parsed; nothing means ``{}``).

        With ``repair`` (the default), text that is not valid JSON goes through
        ``sktypes.hydrate``'s repairs — trailing commas, single quotes, Python literals,
        JSON inside prose or code fences — before it is given up on.

        Raises:
            ContentError: the text is not (repairable) JSON, or not a JSON object.
        """
        args = self.arguments
        if args is None or args == "":
            return {}
        if isinstance(args, str):
            try:
                args = loads(args)
            except ContentError as exc:
                raise ContentError(
                    f"the arguments cannot be read: {exc.message} ({exc.where})",
                    where=self.fully_qualified_name,
                ) from None
            except orjson.JSONDecodeError as exc:
                if repair:
                    return self._repaired(args, str(exc))
                raise ContentError(
                    f"the arguments are not valid JSON ({exc}): {snippet(self.arguments)}",
                    where=self.fully_qualified_name,
                ) from None
        if not isinstance(args, dict):
            raise ContentError(
                f"the arguments must be a JSON object, got {snippet(args)}",
                where=self.fully_qualified_name,
            )
        return dict(args)

    def _repaired(self, text: str, reason: str) -> dict[str, Any]:
        from sktypes.hydration import hydrate

        try:
            repaired: dict[str, Any] = hydrate({"type": "object"}, text, repair=True)
        except HydrationError:
            raise ContentError(
                f"the arguments are not valid JSON ({reason}): {snippet(text)}",
                where=self.fully_qualified_name,
            ) from None
        return repaired

    @staticmethod
    def get_function_calls(message: ChatMessageContent) -> list[FunctionCallContent]:
        """The function calls in a message, whatever its role."""
        return [i for i in message.items if isinstance(i, FunctionCallContent)]

    async def invoke(self, kernel: InvokingKernel) -> FunctionResultContent:
        """Run the call on ``kernel`` and return its result content.

        Argument text that is not valid JSON is repaired when it can be (see
        :meth:`parse_arguments`). Never raises for the model's mistakes or the function's
        failures: an unknown function, unusable or invalid arguments, or an exception
        inside the function all become a result with ``is_error`` set and a text the model
        can act on (the exception itself is kept in the result's ``inner_content``).
        """
        try:
            arguments = self.parse_arguments()
            result = await kernel.invoke(self.fully_qualified_name, arguments)
        except Exception as exc:
            return FunctionResultContent.from_function_call(
                self, error_text(self, exc), is_error=True, inner_content=exc
            )
        return FunctionResultContent.from_function_call(self, result.value, inner_content=result)

    def _to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "function_call", "function_name": self.function_name}
        if self.id is not None:
            out["id"] = self.id
        if self.plugin_name is not None:
            out["plugin_name"] = self.plugin_name
        if self.arguments is not None:
            out["arguments"] = self.arguments
        if self.exception is not None:
            out["exception"] = _describe(self.exception)
        return self._base_fields(out)

    @classmethod
    def _from_fields(cls, data: dict[str, Any]) -> FunctionCallContent:
        args = data.get("arguments")
        if args is not None and type(args) not in (dict, str):
            raise ContentError("'arguments' must be an object or a string", where="arguments")
        exc_text = str_field(data, "exception")
        return cls(
            id=str_field(data, "id"),
            plugin_name=str_field(data, "plugin_name"),
            function_name=str_field(data, "function_name", required=True),
            arguments=args,
            exception=ContentError(exc_text) if exc_text is not None else None,
        )


@register_content_type
@dataclass(slots=True)
class FunctionResultContent(KernelContent):
    """The result of a function call, sent back to the model in a ``tool`` message.

    Args:
        id: the id of the call this answers.
        plugin_name: the plugin of the function.
        function_name: the function.
        result: any JSON-representable value, or a content item (e.g. an image).
        is_error: ``True`` when ``result`` describes a failure.
    """

    type_name: ClassVar[str] = "function_result"

    id: str | None = None
    plugin_name: str | None = None
    function_name: str | None = None
    result: Any = None
    is_error: bool = False

    @classmethod
    def from_function_call(
        cls,
        call: FunctionCallContent,
        result: Any,
        *,
        is_error: bool = False,
        inner_content: Any = None,
    ) -> FunctionResultContent:
        """A result answering ``call`` (same id, plugin and function)."""
        return cls(
            id=call.id,
            plugin_name=call.plugin_name,
            function_name=call.function_name,
            result=result,
            is_error=is_error,
            inner_content=inner_content,
        )

    @property
    def fully_qualified_name(self) -> str:
        """``Plugin.function`` (or ``function`` without a plugin)."""
        return _qualified(self.plugin_name, self.function_name or "", ".")

    def to_chat_message(self) -> ChatMessageContent:
        """A ``tool`` message holding this result (add more results to its items freely)."""
        return ChatMessageContent(AuthorRole.TOOL, [self])

    def result_text(self) -> str:
        """The result as the text a provider sends: strings as they are, the rest as JSON."""
        if isinstance(self.result, str):
            return self.result
        if isinstance(self.result, KernelContent):
            raise ContentError(
                f"the result is {type(self.result).__name__}, not text",
                where=self.fully_qualified_name,
            )
        return orjson.dumps(to_json_value(self.result, "result")).decode()

    def _to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "function_result"}
        if self.id is not None:
            out["id"] = self.id
        if self.plugin_name is not None:
            out["plugin_name"] = self.plugin_name
        if self.function_name is not None:
            out["function_name"] = self.function_name
        if isinstance(self.result, KernelContent):
            try:
                out["result_content"] = item_to_dict(self.result)
            except ContentError as exc:
                raise relocate(exc, "result_content") from None
        else:
            out["result"] = self.result
        if self.is_error:
            out["is_error"] = True
        return self._base_fields(out)

    @classmethod
    def _from_fields(cls, data: dict[str, Any]) -> FunctionResultContent:
        result: Any
        if "result_content" in data:
            try:
                result = item_from_dict(data["result_content"])
            except ContentError as exc:
                raise relocate(exc, "result_content") from None
        else:
            result = data.get("result")
        is_error = data.get("is_error", False)
        if type(is_error) is not bool:
            raise ContentError("'is_error' must be a boolean", where="is_error")
        return cls(
            id=str_field(data, "id"),
            plugin_name=str_field(data, "plugin_name"),
            function_name=str_field(data, "function_name"),
            result=result,
            is_error=is_error,
        )


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def error_text(call: FunctionCallContent, exc: BaseException) -> str:
    """The text a model reads when ``call`` failed with ``exc``."""
    name = call.fully_qualified_name
    if isinstance(exc, ArgumentsError):  # the contract's words, as at every other door
        return exc.for_llm(header=arguments_header(name))
    if isinstance(exc, HydrationError):
        return exc.for_llm()
    if isinstance(exc, KernelError):
        return f"Error: {exc.message}"
    if isinstance(exc, ContentError):
        return f"Error: cannot call {name}: {exc.message}"
    return f"Error: {name} failed: {_describe(exc)}"
