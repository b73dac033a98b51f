"""The content base class, author roles, and the registry that (de)serializes content.

Restoring content never imports or instantiates a class named by the data: the ``type``
field of a serialized item is looked up in :data:`_REGISTRY`, which only holds classes
registered in code (:func:`register_content_type`). An unknown ``type`` is a
:class:`ContentError` naming the JSON path.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

from sktypes.content._codec import to_plain_json
from sktypes.errors import ContentError, snippet

__all__ = [
    "AuthorRole",
    "KernelContent",
    "content_from_dict",
    "content_to_dict",
    "register_content_type",
]


class AuthorRole(enum.StrEnum):
    """Who wrote a message. Function results travel with role ``tool`` (ADR decision 2)."""

    SYSTEM = "system"
    DEVELOPER = "developer"
    USER = "user"
    ASSISTANT = "assistant"
    TOOL = "tool"


@dataclass(kw_only=True, slots=True)
class KernelContent:
    """Base of every content item.

    Args:
        metadata: JSON-representable extra data (serialized).
        model_id: the model that produced the content, when known (serialized).
        inner_content: the provider's own object, kept in memory but never serialized or
            compared (breaking glass).
    """

    type_name: ClassVar[str] = ""

    metadata: dict[str, Any] = field(default_factory=dict)
    model_id: str | None = None
    inner_content: Any = field(default=None, compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON form (``{"type": ..., ...}``); see :func:`content_to_dict`."""
        return content_to_dict(self)

    def _to_dict(self) -> dict[str, Any]:
        """The item's form for serialization: ``type``, its fields, the base fields.

        Values may still be native (a pydantic model result); the JSON encoder turns them
        into JSON. Errors carry ``where`` relative to the item (``result``).
        """
        raise ContentError(f"{type(self).__name__} is not a registered content type")

    def _base_fields(self, out: dict[str, Any]) -> dict[str, Any]:
        if self.metadata:
            out["metadata"] = self.metadata
        if self.model_id is not None:
            out["model_id"] = self.model_id
        return out

    @classmethod
    def _from_fields(cls, data: dict[str, Any]) -> KernelContent:
        """Build an instance from its JSON form; errors carry ``where`` relative to it."""
        raise ContentError(f"{cls.__name__} cannot be restored")


_REGISTRY: dict[str, type[KernelContent]] = {}
_REGISTERED: set[type[KernelContent]] = set()

C = TypeVar("C", bound=type[KernelContent])


def register_content_type(cls: C) -> C:
    """Register a content class under its ``type_name`` so histories can restore it.

    Usable as a class decorator. Registering a second class under a taken name is an
    error: the registry is the only way data can choose a class.
    """
    name = cls.type_name
    if not name:
        raise ContentError(f"{cls.__name__} has no type_name")
    known = _REGISTRY.get(name)
    if known is not None and known is not cls:
        raise ContentError(f"content type {name!r} is already registered to {known.__name__}")
    _REGISTRY[name] = cls
    _REGISTERED.add(cls)
    return cls


def join_path(prefix: str, where: str | None) -> str:
    """``prefix`` followed by a relative place (``result``, ``[2].type``, ``items[0]``)."""
    if not where:
        return prefix
    if where.startswith("$"):
        return where
    return prefix + where if where.startswith("[") else f"{prefix}.{where}"


def relocate(exc: ContentError, prefix: str) -> ContentError:
    """The same error, its place prefixed (errors bubble up from nested items)."""
    return ContentError(exc.message, file=exc.file, where=join_path(prefix, exc.where))


def item_to_dict(item: KernelContent) -> dict[str, Any]:
    """The serialization form of a registered item (values may still be native)."""
    if type(item) not in _REGISTERED:
        raise ContentError(f"{type(item).__name__} is not a registered content type")
    return item._to_dict()


def items_to_dicts(items: list[KernelContent], name: str) -> list[dict[str, Any]]:
    """The serialization form of a list of items; errors name ``name[i]``."""
    out: list[dict[str, Any]] = []
    try:
        for item in items:
            out.append(item_to_dict(item))
    except ContentError as exc:
        raise relocate(exc, f"{name}[{len(out)}]") from None
    return out


def item_from_dict(data: Any) -> KernelContent:
    """Restore an item from its JSON form (errors carry a relative ``where``)."""
    if type(data) is not dict:
        raise ContentError("a content item must be a JSON object")
    name = data.get("type")
    cls = _REGISTRY.get(name) if type(name) is str else None
    if cls is None:
        raise ContentError(f"unknown content type {snippet(repr(name))}", where="type")
    item = cls._from_fields(data)
    metadata = data.get("metadata")
    if metadata is not None:
        if type(metadata) is not dict:
            raise ContentError("metadata must be a JSON object", where="metadata")
        item.metadata = metadata
    model_id = data.get("model_id")
    if model_id is not None:
        if type(model_id) is not str:
            raise ContentError("'model_id' must be a string", where="model_id")
        item.model_id = model_id
    return item


def items_from_dicts(raw: Any, name: str) -> list[KernelContent]:
    """Restore a list of items; errors name ``name[i]``."""
    if type(raw) is not list:
        raise ContentError(f"{name!r} must be an array", where=name)
    out: list[KernelContent] = []
    try:
        for data in raw:
            out.append(item_from_dict(data))
    except ContentError as exc:
        raise relocate(exc, f"{name}[{len(out)}]") from None
    return out


def content_to_dict(content: KernelContent) -> dict[str, Any]:
    """Return the JSON form of a content item: ``type``, its fields, metadata, model id.

    Raises:
        ContentError: a value is not JSON-representable (the message names its place).
    """
    plain: dict[str, Any] = to_plain_json(item_to_dict(content))
    return plain


def content_from_dict(data: Any, path: str = "$") -> KernelContent:
    """Restore a content item from its JSON form; ``path`` names it in errors."""
    try:
        return item_from_dict(data)
    except ContentError as exc:
        raise relocate(exc, path) from None


def str_field(data: dict[str, Any], key: str, *, required: bool = False) -> Any:
    """Return ``data[key]`` if it is a string (or absent/None unless ``required``)."""
    value = data.get(key)
    if type(value) is str or (value is None and not required):
        return value
    raise ContentError(f"{key!r} must be a string", where=key)
