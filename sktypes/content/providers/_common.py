"""What the provider mappings share: qualified names and simulated call ids."""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Iterable

from sktypes.content._functions import FunctionCallContent, FunctionResultContent
from sktypes.content._message import ChatMessageContent

__all__ = ["CallIds", "join_name", "split_name"]

SEPARATOR = "-"
"""Joins plugin and function names on the wire: ``[A-Za-z0-9_-]`` is safe everywhere."""


def join_name(plugin_name: str | None, function_name: str, separator: str = SEPARATOR) -> str:
    """``Plugin-function`` (or ``function`` without a plugin)."""
    return f"{plugin_name}{separator}{function_name}" if plugin_name else function_name


def split_name(name: str, separator: str = SEPARATOR) -> tuple[str | None, str]:
    """Split a wire name at the first ``separator`` into plugin and function."""
    if separator and separator in name:
        plugin, function = name.split(separator, 1)
        if plugin and function:
            return plugin, function
    return None, name


class CallIds:
    """Ids for calls and results, simulating the missing ones (ADR section 4).

    Calls without an id get ``call_<n>`` (skipping ids the history already uses); a
    result without an id answers the oldest open call of the same function. The history
    itself is not changed.
    """

    def __init__(self, messages: Iterable[ChatMessageContent], simulate: bool = True) -> None:
        self._ids: dict[int, str | None] = {}
        open_calls: dict[str, deque[str]] = defaultdict(deque)
        history = list(messages)
        taken = {
            i.id
            for m in history
            for i in m.items
            if isinstance(i, (FunctionCallContent, FunctionResultContent)) and i.id is not None
        }
        counter = 0

        def fresh() -> str:
            nonlocal counter
            counter += 1
            while f"call_{counter}" in taken:
                counter += 1
            return f"call_{counter}"

        for message in history:
            for item in message.items:
                if isinstance(item, FunctionCallContent):
                    call_id = item.id
                    if call_id is None and simulate:
                        call_id = fresh()
                    self._ids[id(item)] = call_id
                    if call_id is not None:
                        open_calls[item.fully_qualified_name].append(call_id)
                elif isinstance(item, FunctionResultContent):
                    queue = open_calls[item.fully_qualified_name]
                    result_id = item.id
                    if result_id is None and queue:
                        result_id = queue.popleft()
                    elif result_id is not None and result_id in queue:
                        queue.remove(result_id)
                    if result_id is None and simulate:
                        result_id = fresh()
                    self._ids[id(item)] = result_id

    def __call__(self, item: FunctionCallContent | FunctionResultContent) -> str | None:
        """The id to send for ``item``."""
        return self._ids.get(id(item), item.id)
