"""`ChatMessageContent`: one message of a chat — a role and a list of content items."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from sktypes.content._base import (
    _REGISTERED,
    AuthorRole,
    KernelContent,
    item_from_dict,
    register_content_type,
    relocate,
    str_field,
)
from sktypes.content._media import TextContent
from sktypes.errors import ContentError, snippet

__all__ = ["ChatMessageContent"]


@register_content_type
@dataclass(init=False, slots=True)
class ChatMessageContent(KernelContent):
    """A message: who wrote it (``role``), what it holds (``items``), optional author ``name``.

    ``items`` may hold any content: text, media, function calls (from the assistant) and
    function results (role ``tool``). Passing a string as ``items`` is shorthand for one
    :class:`TextContent`.
    """

    type_name: ClassVar[str] = "message"

    role: AuthorRole
    items: list[KernelContent] = field(default_factory=list)
    name: str | None = None

    def __init__(
        self,
        role: AuthorRole | str,
        items: Iterable[KernelContent] | str | None = None,
        name: str | None = None,
        *,
        metadata: Mapping[str, Any] | None = None,
        model_id: str | None = None,
        inner_content: Any = None,
    ) -> None:
        try:
            self.role = AuthorRole(role)
        except (ValueError, TypeError):
            raise ContentError(f"unknown author role {snippet(repr(role))}") from None
        if isinstance(items, str):
            self.items = [TextContent(text=items)]
        else:
            self.items = list(items or ())
        self.name = name
        self.metadata = dict(metadata or {})
        self.model_id = model_id
        self.inner_content = inner_content

    @property
    def content(self) -> str:
        """The message's text: its text items joined (``""`` when it has none)."""
        return "".join(i.text for i in self.items if isinstance(i, TextContent))

    @content.setter
    def content(self, text: str) -> None:
        for item in self.items:
            if isinstance(item, TextContent):
                item.text = text
                return
        self.items.insert(0, TextContent(text=text))

    def __str__(self) -> str:
        return self.content

    def _to_dict(self) -> dict[str, Any]:
        # the role enum goes as it is: the JSON encoder writes its value
        out: dict[str, Any] = {"type": "message", "role": self.role}
        if self.name is not None:
            out["name"] = self.name
        items: list[dict[str, Any]] = []
        try:
            for item in self.items:  # inlined items_to_dicts: the hot path of serializing
                if type(item) not in _REGISTERED:
                    raise ContentError(f"{type(item).__name__} is not a registered content type")
                items.append(item._to_dict())
        except ContentError as exc:
            raise relocate(exc, f"items[{len(items)}]") from None
        out["items"] = items
        return self._base_fields(out)

    @classmethod
    def _from_fields(cls, data: dict[str, Any]) -> ChatMessageContent:
        name = data.get("role")
        role = _ROLES.get(name) if type(name) is str else None
        if role is None:
            raise ContentError(f"unknown author role {snippet(repr(name))}", where="role")
        message = cls.__new__(cls)
        message.role = role
        raw = data.get("items", _EMPTY)
        if type(raw) is not list:
            raise ContentError("'items' must be an array", where="items")
        items: list[KernelContent] = []
        try:
            for d in raw:  # inlined items_from_dicts: messages are the hot path of restoring
                items.append(item_from_dict(d))
        except ContentError as exc:
            raise relocate(exc, f"items[{len(items)}]") from None
        message.items = items
        message.name = str_field(data, "name")
        message.metadata = {}
        message.model_id = None
        message.inner_content = None
        return message


_ROLES = {r.value: r for r in AuthorRole}
_EMPTY: list[Any] = []
