"""Verdicts of the subsumption check, and the context one comparison carries.

A verdict is only ever as strong as its evidence: ``compatible`` comes from proof rules,
``incompatible`` only with a *witness* — a value that the validator accepts for the source
and rejects for the target — and everything else is ``unknown``.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Literal

import orjson
from jsonschema import Draft202012Validator

from sktypes._quick import compile_node
from sktypes.errors import snippet
from sktypes.schema import Node, SchemaModel
from sktypes.schema._emit import Emitter

__all__ = [
    "ASSERTING",
    "FORMAT_CHECKER",
    "MISSING",
    "Compatibility",
    "Context",
    "Side",
    "Verdict",
    "compatible",
    "merge_results",
    "show",
    "unknown",
]

FORMAT_CHECKER = Draft202012Validator.FORMAT_CHECKER
"""The format checker sktypes validates with; only the formats it knows are asserted."""

ASSERTING = frozenset(Draft202012Validator.VALIDATORS)
"""Every keyword the draft 2020-12 validator enforces (others are annotations to it)."""

Side = Literal["s", "t"]
"""Which schema a sub-schema belongs to: the source (``s``) or the target (``t``)."""


class _Missing(enum.Enum):
    MISSING = "MISSING"


MISSING = _Missing.MISSING
"""No value: what an example builder returns when it cannot build one."""


class Verdict(enum.StrEnum):
    """Whether every value valid for the source is valid for the target."""

    COMPATIBLE = "compatible"
    INCOMPATIBLE = "incompatible"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class Compatibility:
    """A verdict with its reason; ``witness`` is set for ``incompatible`` verdicts.

    Args:
        verdict: compatible, incompatible or unknown.
        reason: why, in one line ("the target requires 'date'", "the source may be null").
        witness: for ``incompatible``, a value the source admits and the target rejects.
    """

    verdict: Verdict
    reason: str
    witness: Any = None

    @property
    def compatible(self) -> bool:
        """``True`` only when the check proved compatibility."""
        return self.verdict is Verdict.COMPATIBLE

    def __str__(self) -> str:
        if self.verdict is Verdict.INCOMPATIBLE:
            return f"incompatible: {self.reason}"
        return f"{self.verdict.value}: {self.reason}" if self.reason else self.verdict.value


def compatible(reason: str = "") -> Compatibility:
    """A ``compatible`` verdict."""
    return Compatibility(Verdict.COMPATIBLE, reason)


def unknown(reason: str) -> Compatibility:
    """An ``unknown`` verdict."""
    return Compatibility(Verdict.UNKNOWN, reason)


class Context:
    """State of one comparison: both sides' schema models, checks, recursion guard.

    ``sub`` is the engine's comparison function, set by the engine so that the keyword
    families can compare nested schemas without importing it.
    """

    def __init__(self, source: SchemaModel, target: SchemaModel, budget: int = 5000) -> None:
        self.models: dict[Side, SchemaModel] = {"s": source, "t": target}
        self.same_roots = source is target or source.document == target.document
        self.active: dict[tuple[int, int], tuple[int, Node, Node]] = {}
        self.descents = 0
        self.budget = budget
        self.sub: Callable[[Node, Node, Context], Compatibility] = _unset
        self._checks: dict[int, tuple[Node, Callable[[Any], bool | None]]] = {}

    def valid(self, side: Side, node: Node, value: Any) -> bool | None:
        """Validate ``value`` against a node of one side (``None``: could not tell).

        Exact: the node's compiled check, or jsonschema on the node written back (with
        its side's document, for references) when it holds a keyword the model keeps
        as written.
        """
        hit = self._checks.get(id(node))
        if hit is None or hit[0] is not node:
            hit = (node, _checker(self.models[side], node))
            self._checks[id(node)] = hit
        try:
            return hit[1](value)
        except Exception:  # a schema the validator cannot use (bad regex, broken $ref, ...)
            return None

    def descend(self, s: Node, t: Node) -> Compatibility:
        """Compare schemas of a member or element (one level inside the value)."""
        self.descents += 1
        try:
            return self.sub(s, t, self)
        finally:
            self.descents -= 1

    def counter(self, s: Node, t: Node, candidates: Iterable[Any], reason: str) -> Compatibility:
        """Return ``incompatible`` if a candidate is valid for ``s`` and not for ``t``.

        Otherwise the pair is ``unknown`` for ``reason``: this is the only way an
        ``incompatible`` verdict is made, so every one of them carries a checked witness.
        """
        seen: list[Any] = []
        for c in candidates:
            if c is MISSING or any(c == x and type(c) is type(x) for x in seen):
                continue
            seen.append(c)
            if self.valid("s", s, c) is True and self.valid("t", t, c) is False:
                return Compatibility(Verdict.INCOMPATIBLE, reason, c)
        return unknown(reason)


def _conforms(value: Any, fmt: str) -> bool:
    return bool(FORMAT_CHECKER.conforms(value, fmt))


def _checker(model: SchemaModel, node: Node) -> Callable[[Any], bool | None]:
    compiled = compile_node(node, _conforms)
    if compiled is not None:
        return compiled
    written = Emitter(model).emit(node)
    root = model.document.to_python()
    base = Draft202012Validator(
        root if isinstance(root, dict) else {}, format_checker=FORMAT_CHECKER
    )
    validator = base.evolve(schema=written)
    return lambda value: bool(validator.is_valid(value))


def _unset(s: Node, t: Node, ctx: Context) -> Compatibility:
    raise RuntimeError("Context.sub is set by the engine")


def merge_results(results: Iterable[Compatibility], reason_ok: str = "") -> Compatibility:
    """All must hold: the first incompatible wins, then the first unknown, else compatible."""
    first_unknown: Compatibility | None = None
    for r in results:
        if r.verdict is Verdict.INCOMPATIBLE:
            return r
        if r.verdict is Verdict.UNKNOWN and first_unknown is None:
            first_unknown = r
    return first_unknown or compatible(reason_ok)


def show(value: Any) -> str:
    """A value as short JSON text, for messages (``null``, not ``None``)."""
    try:
        return snippet(orjson.dumps(value).decode())
    except TypeError:
        return snippet(value)
