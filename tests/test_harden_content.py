"""Issue 13, items 9 and 12: a chat history restores or fails with a ContentError, exactly.

Any JSON value in any field is either read or refused with its path (no ``TypeError`` from
a list used as a type, no ``AttributeError`` from a number used as a view, no
``RecursionError`` from deep nesting), and integers beyond 64 bits are refused both ways
rather than read back as inexact floats.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from sktypes.content import ChatHistory, TextContent
from sktypes.errors import ContentError


def _message(**fields: Any) -> dict[str, Any]:
    message: dict[str, Any] = {
        "type": "message",
        "role": "user",
        "items": [{"type": "text", "text": "hi"}],
    }
    message.update(fields)
    return message


def _history(*messages: Any) -> str:
    return json.dumps({"version": 1, "messages": list(messages)})


ODD = [["message"], {"a": 1}, 5, 1.5, True, None, ""]


@pytest.mark.parametrize("value", ODD, ids=repr)
@pytest.mark.parametrize("field", ["type", "role"])
def test_any_json_value_as_type_or_role_is_a_content_error(field: str, value: Any) -> None:
    with pytest.raises(ContentError) as info:
        ChatHistory.from_json(_history(_message(**{field: value})))
    assert info.value.where == f"$.messages[0].{field}"


@pytest.mark.parametrize("value", ODD, ids=repr)
def test_any_json_value_as_an_item_type_is_a_content_error(value: Any) -> None:
    with pytest.raises(ContentError) as info:
        ChatHistory.from_json(_history(_message(items=[{"type": value, "text": "x"}])))
    assert info.value.where == "$.messages[0].items[0].type"


@pytest.mark.parametrize(
    "function",
    [
        5,
        "f",
        [],
        {"name": 5},
        {"name": "f", "return_parameter": 5},
        {"name": "f", "return_parameter": "x"},
        {"name": "f", "return_parameter": {"type": ["x"]}},
        {"name": "f", "parameters": [5]},
        {"name": "f", "parameters": {"a": 1}},
        {"name": "f", "parameters": [{"name": ["x"]}]},
    ],
    ids=repr,
)
def test_a_malformed_function_view_is_a_content_error(function: Any) -> None:
    item = {"type": "function_invocation_result", "value": 1, "function": function}
    with pytest.raises(ContentError) as info:
        ChatHistory.from_json(_history(_message(role="tool", items=[item])))
    assert info.value.where == "$.messages[0].items[0].function"


@pytest.mark.parametrize("depth", [500, 5000])
def test_deep_nesting_is_a_content_error(depth: int) -> None:
    deep = "[" * depth + "]" * depth
    text = _history(_message(metadata={"a": 0})).replace('{"a": 0}', '{"a": ' + deep + "}")
    with pytest.raises(ContentError, match="nested deeper than 128 levels"):
        ChatHistory.from_json(text)
    nested: Any = []
    for _ in range(depth):
        nested = [nested]
    with pytest.raises(ContentError, match="nested deeper") as info:
        ChatHistory.from_dict({"version": 1, "messages": [_message(metadata={"a": nested})]})
    assert info.value.where is not None and info.value.where.startswith("$.messages[0].metadata")


BIG = 123456789012345678901234567890


def test_integers_beyond_64_bits_are_refused_both_ways() -> None:
    text = _history(_message(items=[{"type": "text", "text": "x", "metadata": {"n": 0}}]))
    text = text.replace('"n": 0', f'"n": {BIG}')
    with pytest.raises(ContentError, match="beyond 64 bits") as info:
        ChatHistory.from_json(text)
    assert info.value.line == 1 and info.value.column is not None
    history = ChatHistory()
    history.add_user_message([TextContent(text="x", metadata={"n": BIG})])
    with pytest.raises(ContentError):
        history.to_json()
    with pytest.raises(ContentError, match="beyond 64 bits"):
        ChatHistory.from_dict(json.loads(text))


def test_64_bit_integers_and_long_digit_strings_round_trip_exactly() -> None:
    history = ChatHistory()
    metadata = {"max": 2**64 - 1, "min": -(2**63), "id": str(BIG)}
    history.add_user_message([TextContent(text="x", metadata=metadata)])
    back = ChatHistory.from_json(history.to_json())
    assert back.messages[0].items[0].metadata == metadata
    assert back == history
