"""Names: plugin names from titles, function names from ``operationId`` or method + path.

A function name is an identifier (``[A-Za-z_][A-Za-z0-9_]*``) of at most 64 characters, so
it is valid in every provider's tool format; over-long names keep their head and end with
an 8-character hash of the original, so distinct operations keep distinct names. Clashes
inside one plugin fall back to the method + path name (a namespace the spec guarantees
unique), and only then to a numeric suffix.
"""

from __future__ import annotations

import hashlib
import re

__all__ = ["NameRegistry", "identifier", "plugin_identifier"]

MAX_NAME = 64
_NOT_IDENT = re.compile(r"[^A-Za-z0-9_]+")
_WORDS = re.compile(r"[A-Za-z0-9]+")


def identifier(text: str, limit: int = MAX_NAME) -> str:
    """Return ``text`` as an identifier: invalid runs become ``_``, no leading digit."""
    name = _NOT_IDENT.sub("_", text).strip("_") or "_"
    if name[0].isdigit():
        name = "_" + name
    if len(name) > limit:
        digest = hashlib.sha1(text.encode()).hexdigest()[:8]
        name = name[: limit - 9].rstrip("_") + "_" + digest
    return name


def plugin_identifier(title: str) -> str:
    """Return a plugin name from ``info.title``: words joined in CamelCase.

    ``DatePluginSimpleComplex`` stays as it is; ``Swagger Petstore`` → ``SwaggerPetstore``.
    """
    words = _WORDS.findall(title)
    name = "".join(w[:1].upper() + w[1:] for w in words)
    if not name:
        return "OpenApiPlugin"
    return identifier(name)


def method_path_name(method: str, path: str) -> str:
    """A name from method and path: ``GET /pets/{petId}`` → ``get_pets_petId``."""
    return identifier(re.sub(r"[^A-Za-z0-9]+", "_", f"{method}_{path}"))


class NameRegistry:
    """Hands out unique function names within one plugin."""

    def __init__(self) -> None:
        self._taken: set[str] = set()

    def take(self, operation_id: str | None, method: str, path: str) -> str:
        """The name for an operation: its cleaned ``operationId``, else method + path."""
        candidates = []
        if isinstance(operation_id, str) and operation_id.strip():
            candidates.append(identifier(operation_id))
        candidates.append(method_path_name(method, path))
        for name in candidates:
            if name not in self._taken:
                self._taken.add(name)
                return name
        base = candidates[0]
        n = 2
        while f"{base}_{n}" in self._taken:
            n += 1
        name = f"{base}_{n}"
        self._taken.add(name)
        return name
