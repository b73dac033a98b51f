"""Chat prompts: a rendered prompt holding ``<message role="...">`` blocks → a ChatHistory.

Follows Semantic Kernel's ``ChatHistory.from_rendered_prompt``: the prompt is read as XML
inside a root element; text before the first message becomes a ``system`` message (or a
``user`` message when it is all there is), text after a message a ``user`` message;
``<chat_history>`` wraps messages; inside a message, ``<text>`` and ``<image>`` become
content items and other tags stay text. A prompt that is not XML is one ``user`` message.

Entities are decoded exactly once (by the XML parser), the inverse of the encoding values
get when rendered, so a value's ``</message>`` comes back as text. (Semantic Kernel
decodes a second time, which turns a literal ``&lt;`` typed by a user into ``<``.)
"""

from __future__ import annotations

from html import unescape
from xml.etree.ElementTree import XML, Element, ParseError, tostring

from sktypes.content import (
    AuthorRole,
    ChatHistory,
    ChatMessageContent,
    ImageContent,
    KernelContent,
    TextContent,
)
from sktypes.errors import ContentError, TemplateError

__all__ = ["parse_chat_prompt"]

_ROOT = "root"


def parse_chat_prompt(prompt: str) -> ChatHistory:
    """Turn a rendered prompt into a :class:`ChatHistory`.

    Raises:
        TemplateError: a ``<message>`` without a known ``role`` (names the message).
    """
    text = prompt.strip()
    try:
        root = XML(f"<{_ROOT}>{text}</{_ROOT}>")
    except ParseError:
        return ChatHistory([ChatMessageContent(AuthorRole.USER, unescape(text))])
    messages: list[ChatMessageContent] = []
    if root.text and root.text.strip():
        messages.append(ChatMessageContent(AuthorRole.SYSTEM, root.text.strip()))
    for element in root:
        if element.tag == "message":
            messages.append(_message(element, len(messages)))
        elif element.tag == "chat_history":
            messages.extend(_message(child, len(messages) + i) for i, child in enumerate(element))
        else:
            raw = _outer(element)
            if messages:
                messages[-1].content = messages[-1].content + raw + (element.tail or "")
            else:
                messages.append(ChatMessageContent(AuthorRole.USER, raw + (element.tail or "")))
            continue
        if element.tail and element.tail.strip():
            messages.append(ChatMessageContent(AuthorRole.USER, element.tail.strip()))
    if len(messages) == 1 and messages[0].role is AuthorRole.SYSTEM:
        messages[0].role = AuthorRole.USER
    return ChatHistory(messages)


def _outer(element: Element) -> str:
    tail = element.tail
    element.tail = None
    try:
        return tostring(element, encoding="unicode", short_empty_elements=False)
    finally:
        element.tail = tail


def _message(element: Element, index: int) -> ChatMessageContent:
    where = f"message {index + 1}"
    if element.tag != "message":
        raise TemplateError(
            f"<{element.tag}> inside <chat_history> is not a <message>", where=where
        )
    role = element.get("role")
    if role is None:
        raise TemplateError("<message> has no role attribute", where=where)
    items: list[KernelContent] = []
    if element.text:
        items.append(TextContent(text=element.text))
    for child in element:
        if child.tag == "text":
            items.append(TextContent(text=child.text or ""))
        elif child.tag == "image":
            uri = child.get("uri") or (child.text or "").strip()
            if not uri:
                raise TemplateError("<image> has no uri", where=where)
            try:
                image = ImageContent.from_data_uri(uri) if uri.startswith("data:") else None
                items.append(image or ImageContent(uri=uri))
            except ContentError as exc:
                raise TemplateError(f"<image>: {exc.message}", where=where) from None
        else:
            items.append(TextContent(text=_outer(child)))
        if child.tail:
            items.append(TextContent(text=child.tail))
    try:
        return ChatMessageContent(role, _merge_text(items), element.get("name"))
    except ContentError as exc:
        raise TemplateError(exc.message, where=where) from None


def _merge_text(items: list[KernelContent]) -> list[KernelContent]:
    """Join neighbouring text items, so plain text is one item as in a typed message."""
    out: list[KernelContent] = []
    for item in items:
        if isinstance(item, TextContent) and out and isinstance(out[-1], TextContent):
            out[-1] = TextContent(text=out[-1].text + item.text)
        else:
            out.append(item)
    return out
