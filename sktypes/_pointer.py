"""JSON Pointer (RFC 6901): the one place that escapes, splits, joins and follows pointers.

Pointers name places inside JSON documents in every message sktypes writes
(``/paths/~1pets/get``) and in every local ``$ref`` (``#/$defs/Pet``). A token escapes ``~``
as ``~0`` and ``/`` as ``~1``; a ``$ref`` fragment is also URI-encoded (``%25`` for ``%``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from urllib.parse import unquote

__all__ = [
    "PointerError",
    "escape",
    "join",
    "parent_and_name",
    "resolve",
    "split",
    "unescape",
]


class PointerError(LookupError):
    """A pointer that is malformed or names nothing (``where`` holds the pointer)."""

    def __init__(self, message: str, where: str) -> None:
        super().__init__(f"{where}: {message}")
        self.message = message
        self.where = where


def escape(token: str | int) -> str:
    """One reference token, escaped (``a/b`` → ``a~1b``)."""
    text = str(token)
    if "~" not in text and "/" not in text:
        return text
    return text.replace("~", "~0").replace("/", "~1")


def unescape(token: str) -> str:
    """One reference token, unescaped (``a~1b`` → ``a/b``; ``~01`` → ``~1``)."""
    if "~" not in token:
        return token
    return token.replace("~1", "/").replace("~0", "~")


def join(base: str, *tokens: str | int) -> str:
    """``base`` extended by ``tokens`` (``join("/a", "b/c", 0)`` → ``/a/b~1c/0``)."""
    if len(tokens) == 1:
        return f"{base}/{escape(tokens[0])}"
    return base + "".join("/" + escape(t) for t in tokens)


def split(pointer: str) -> list[str]:
    """The unescaped tokens of a pointer or of a ``$ref`` fragment (``#/a/b`` or ``/a/b``).

    A leading ``#`` marks a URI fragment, whose tokens are percent-decoded as well.

    Raises:
        PointerError: the pointer neither is empty nor starts with ``/``.
    """
    fragment = pointer.startswith("#")
    body = pointer[1:] if fragment else pointer
    if not body:
        return []
    if not body.startswith("/"):
        raise PointerError("a JSON pointer must start with '/'", pointer)
    raw = body[1:].split("/")
    return [unescape(unquote(t) if fragment else t) for t in raw]


def parent_and_name(pointer: str) -> tuple[str, str] | None:
    """``("/$defs", "Pet")`` for ``#/$defs/Pet``: the parent pointer and the last token."""
    tokens = split(pointer)
    if not tokens:
        return None
    return join("", *tokens[:-1]), tokens[-1]


def resolve(document: Any, pointer: str | Iterable[str]) -> Any:
    """The value at ``pointer`` inside ``document`` (mappings by key, arrays by index).

    Raises:
        PointerError: no value at the pointer (or the pointer is malformed).
    """
    if isinstance(pointer, str):
        text = pointer
        tokens: Iterable[str] = split(pointer)
    else:
        tokens = list(pointer)
        text = join("", *tokens)
    node = document
    for token in tokens:
        if isinstance(node, Mapping):
            if token not in node:
                raise PointerError("no value at this JSON pointer", text)
            node = node[token]
        elif isinstance(node, Sequence) and not isinstance(node, (str, bytes)):
            if not (token.isdigit() and (token == "0" or not token.startswith("0"))):
                raise PointerError("no value at this JSON pointer", text)
            index = int(token)
            if index >= len(node):
                raise PointerError("no value at this JSON pointer", text)
            node = node[index]
        else:
            raise PointerError("no value at this JSON pointer", text)
    return node
