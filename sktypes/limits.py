"""Limits on the documents sktypes reads: one set, used by every JSON/YAML loader.

Specs (and every file a ``$ref`` reaches), functions manuals, JSON Schema files, prompt
template configs and plans are all read by one loader (``sktypes._documents``) under a
:class:`DocumentLimits`. Each bound is checked *before* the work it bounds: the byte size
before a file is read (and while it is read: a file that grows, a pipe), the nesting depth
before any recursive code sees the tree, the alias count and the alias expansion before
the tree is used.

LLM output has its own bounds: :class:`sktypes.hydration.HydrationLimits`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

__all__ = ["DEFAULT_LIMITS", "DocumentLimits"]


@dataclass(frozen=True, slots=True)
class DocumentLimits:
    """Bounds on one JSON or YAML document.

    Attributes:
        max_bytes: largest file (or text) in bytes; a ``$ref``'d file has the same limit.
            GitHub's REST description, the largest public spec we know, is ~13 MB.
        max_depth: deepest nesting of objects and arrays, counted after YAML aliases are
            expanded. The deepest of 25 real-world specs (Plaid) is 26 levels.
        max_aliases: most YAML aliases (``*name``) in one document; ``0`` refuses aliases.
        max_nodes: most values the document may expand to through aliases (an "alias bomb"
            is a small file whose expanded tree is huge); checked only when aliases occur.
    """

    max_bytes: int = 64 * 1024 * 1024
    max_depth: int = 128
    max_aliases: int = 100_000
    max_nodes: int = 2_000_000

    def __post_init__(self) -> None:
        for name in ("max_bytes", "max_depth", "max_aliases", "max_nodes"):
            value = getattr(self, name)
            if type(value) is not int or value < 0:
                raise ValueError(f"DocumentLimits.{name} must be an int >= 0, not {value!r}")

    def with_max_bytes(self, max_bytes: int) -> DocumentLimits:
        """The same limits with another byte size limit."""
        return replace(self, max_bytes=max_bytes)


DEFAULT_LIMITS = DocumentLimits()
"""The limits every loader uses unless given others."""
