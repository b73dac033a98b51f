"""What a value becomes inside a rendered prompt: text, encoded unless trusted.

Every engine follows one rule: a variable's value or a function's output is *text*, never
template code, and unless the config trusts it (``allow_dangerously_set_content`` on the
template or on that input variable) it is HTML-encoded (``& < > " '``), the encoding
Semantic Kernel uses, so it cannot open or close a ``<message>`` block of a chat prompt.
Parsing a chat prompt (:func:`sktypes.templates.parse_chat_prompt`) decodes it again.

Unlike Semantic Kernel, values that are not strings are not refused: mappings, sequences,
pydantic models and dataclasses become JSON text (then encoded like any text).
"""

from __future__ import annotations

import dataclasses
import enum
import re
from collections.abc import Callable, Mapping
from html import escape
from typing import Any

from pydantic import BaseModel
from pydantic_core import to_json

__all__ = ["SPECIAL", "Raw", "encode", "to_text", "trusted_context"]


class Raw(str):
    """Text that is emitted as is: a trusted value or trusted function output."""

    __slots__ = ()


def to_text(value: Any) -> str:
    """Return the text a value renders as (``None`` is empty; containers become JSON)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, (bool, int, float, enum.Enum)):
        return str(value.value if isinstance(value, enum.Enum) else value)
    if isinstance(value, (Mapping, list, tuple, set, frozenset, BaseModel)) or (
        dataclasses.is_dataclass(value) and not isinstance(value, type)
    ):
        return to_json(value, fallback=str).decode()
    return str(value)


SPECIAL = re.compile("[&<>\"']")
"""The characters :func:`encode` replaces."""


def encode(value: Any) -> str:
    """Return ``value`` as text, HTML-encoded unless it is :class:`Raw`."""
    kind = type(value)
    if kind is Raw:
        return str.__str__(value)
    text: str = value if kind is str else to_text(value)
    return escape(text) if SPECIAL.search(text) else text


def trusted_context(
    arguments: dict[str, Any],
    trusted: frozenset[str] | None,
    mark: Callable[[str], str] = Raw,
) -> dict[str, Any]:
    """``arguments`` with trusted string values marked (:class:`Raw` by default).

    ``trusted`` holds the trusted names (``None``: every variable is trusted). A copy when
    anything is marked; ``arguments`` itself (which the caller owns) when nothing is.
    """
    if trusted is None:
        return {k: mark(v) if isinstance(v, str) else v for k, v in arguments.items()}
    if not trusted:
        return arguments
    return {k: mark(v) if isinstance(v, str) and k in trusted else v for k, v in arguments.items()}
