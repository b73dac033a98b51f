"""A parsed schema: its root node, its definitions and what the model could not express."""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Literal

from sktypes import _pointer
from sktypes.errors import format_error
from sktypes.jsondoc import FrozenDict, JsonDocument
from sktypes.schema._nodes import AnyNode, Node, OpaqueNode, RefNode

if TYPE_CHECKING:
    from sktypes.schema._parse import Parser

__all__ = ["Flavor", "SchemaModel", "Unsupported"]

Flavor = Literal["json-schema", "openapi-3.0"]
"""How keywords are read: JSON Schema 2020-12, or OpenAPI 3.0's Schema Object
(``nullable``, boolean ``exclusiveMinimum``/``Maximum``, ``$ref`` siblings ignored)."""


@dataclass(frozen=True, slots=True)
class Unsupported:
    """A keyword the model does not represent, and where it is.

    Attributes:
        pointer: the JSON pointer of the keyword (``/properties/a/not``).
        keyword: the keyword (``not``).
        reason: why it is listed ("is not represented", "is not a valid regular
            expression"...).
    """

    pointer: str
    keyword: str
    reason: str = "is not represented in the schema model"

    def __str__(self) -> str:
        return f"{self.pointer or '/'}: {self.keyword} {self.reason}"

    def warning(self, file: str) -> str:
        """The line a code generator prints for it."""
        what = f"{self.keyword} cannot be expressed in generated code"
        return "warning: " + format_error(what, file=file, where=self.pointer or "/")


class SchemaModel:
    """One parsed JSON Schema: nodes for the root and every definition, built once.

    Get one with :func:`sktypes.schema.parse`. References resolve through the model
    (:meth:`resolve`, or :attr:`RefNode.target`), so recursive definitions are fine. The
    model also reads as its root node: ``parse(schema).properties`` is the root's.

    The root is parsed at once; a definition, or the target of a reference, when it is
    first needed (a view's schema carries every definition it may reach, and most
    readers look at a few). :attr:`unsupported` parses the rest, so the report is whole.

    Attributes:
        document: the schema, frozen.
        flavor: how it was read (``json-schema`` or ``openapi-3.0``).
        root: the node of the whole schema.
    """

    __slots__ = (
        "__weakref__",
        "_complete",
        "_definitions",
        "_parser",
        "_pointers",
        "document",
        "flavor",
        "root",
    )

    def __init__(self, document: JsonDocument, flavor: Flavor, parser: Parser) -> None:
        """A model whose parts ``parser`` parses on demand (use ``parse``)."""
        self.document = document
        self.flavor: Flavor = flavor
        self._parser = parser
        self._definitions: Mapping[str, Node] | None = None
        self._pointers: dict[str, tuple[str, object]] | None = None
        self._complete = False
        self.root: Node = AnyNode()

    @property
    def definitions(self) -> Mapping[str, Node]:
        """``$defs`` (and ``definitions``) by name, in document order."""
        if self._definitions is None:
            parser = self._parser
            self._definitions = MappingProxyType(
                {name: parser.at(ptr) for ptr, name, _ in parser.definition_entries()}
            )
        return self._definitions

    def _definition_pointers(self) -> dict[str, tuple[str, object]]:
        """Each definition's pointer and schema as written, by name, in document order.

        Nothing is parsed.
        """
        if self._pointers is None:
            entries = self._parser.definition_entries()
            self._pointers = {name: (ptr, raw) for ptr, name, raw in entries}
        return self._pointers

    @property
    def unsupported(self) -> tuple[Unsupported, ...]:
        """Every keyword the model does not represent, with its JSON pointer.

        In the order they were found; empty means the nodes say everything the schema
        says. Reading it parses whatever was not parsed yet.
        """
        if not self._complete:
            _ = self.definitions
            self._parser.resolve_all()
            self._complete = True
        return tuple(self._parser.unsupported)

    def resolve(self, ref: RefNode | str) -> Node:
        """The node a reference points at, through any chain of references.

        A reference that cannot be followed (outside the document, or to nothing) gives
        ``AnyNode``; ``unsupported`` lists it.
        """
        seen: set[str] = set()
        node: Node = ref if isinstance(ref, RefNode) else RefNode(ref=ref, model=self)
        while isinstance(node, RefNode):
            if node.ref in seen:
                return AnyNode(pointer=node.pointer)  # a chain of bare references
            seen.add(node.ref)
            target = self._parser.target_of(node.ref)
            if target is None:
                return AnyNode(pointer=node.pointer)
            node = target
        return node

    def subschema(self, schema: object) -> Node:
        """The node of ``schema``: a part of this document, handed over on its own.

        Its references point into this document.
        """
        if schema is self.document.value:
            return self.root
        return self._parser.within(schema)

    def can_resolve(self, ref: RefNode) -> bool:
        """Whether ``ref`` points at a node of this document (else ``resolve`` gives any)."""
        return self._parser.target_of(ref.ref) is not None

    def definitions_used(self, node: Node) -> list[str]:
        """The definitions ``node`` needs, transitively, in document order.

        What a copy of ``node`` with these definitions needs to be self-contained: the
        references among its nodes, in discriminator mappings and inside keywords the model
        keeps as written (``not``...), the definitions an ``allOf`` merged into it
        (``bases``), and from each definition on, every ``$ref`` written in it (the copy
        holds the definition as written, merged ``allOf`` members included). Definitions
        are read as written, not parsed: asking about one item of a large response costs
        a walk of the JSON it reaches, once per definition object.
        """
        pointers = self._definition_pointers()
        refs: list[str] = []
        names: list[str] = []
        todo = [node]
        seen: set[int] = set()
        while todo:
            current = todo.pop()
            if id(current) in seen:
                continue
            seen.add(id(current))
            if isinstance(current, RefNode):
                refs.append(current.ref)
            discriminator = getattr(current, "discriminator", None)
            if discriminator is not None:
                refs.extend(ref.ref for _, ref in discriminator.mapping)
            if isinstance(current, OpaqueNode):
                refs.extend(_refs_written(current.value))
            names.extend(getattr(current, "bases", ()))
            todo.extend(current.children())
        used: set[str] = set()
        while refs or names:
            name = names.pop() if names else self._definition_name(refs.pop())
            if name is None or name in used or name not in pointers:
                continue
            used.add(name)
            refs.extend(_written_refs(pointers[name][1]))
        return [name for name in pointers if name in used]

    def _definition_name(self, ref: str) -> str | None:
        candidates = _definition_candidates(ref)
        pointers = self._definition_pointers()
        return next((name for name in candidates if name in pointers), None)

    def definition(self, name: str) -> Node:
        """The definition called ``name`` (``KeyError`` when there is none)."""
        return self.definitions[name]

    def nodes(self) -> Iterator[Node]:
        """Every node of the root and the definitions, each once (references not followed)."""
        seen: set[int] = set()
        todo = [self.root, *self.definitions.values()]
        while todo:
            node = todo.pop()
            if id(node) in seen:
                continue
            seen.add(id(node))
            yield node
            todo.extend(node.children())

    def warnings(self, file: str) -> list[str]:
        """One ``warning: <file>:<pointer>: <keyword> cannot be expressed ...`` per entry."""
        return [u.warning(file) for u in self.unsupported]

    def __getattr__(self, name: str) -> object:
        # the model reads as its root node: parse(schema).properties, .kind, .description
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.root, name)

    def __repr__(self) -> str:
        return f"SchemaModel(root={self.root!r}, definitions={list(self.definitions)!r})"


@functools.lru_cache(maxsize=65536)
def _definition_candidates(ref: str) -> tuple[str, ...]:
    """The definition names a ``$ref`` may name, in the order to try them.

    ``#/$defs/X`` (or a part of it, ``#/$defs/X/properties/y``) names ``X``;
    ``#/definitions/X`` names ``definitions/X`` when both containers have an ``X``, else
    ``X``. Remembered: a plugin's schemas write the same references thousands of times.
    """
    if not ref.startswith("#"):
        return ()
    try:
        tokens = _pointer.split(ref)
    except _pointer.PointerError:
        return ()
    if len(tokens) >= 2 and tokens[0] in ("$defs", "definitions"):
        return (f"{tokens[0]}/{tokens[1]}", tokens[1])
    return ()


def _refs_written(value: object) -> list[str]:
    """``$ref`` strings inside JSON kept as written (an object's ``$ref`` member)."""
    found: list[str] = []
    todo = [value]
    while todo:
        current = todo.pop()
        if isinstance(current, Mapping):
            ref = current.get("$ref")
            if isinstance(ref, str):
                found.append(ref)
            todo.extend(current.values())
        elif isinstance(current, (list, tuple)):
            todo.extend(current)
    return found


_WRITTEN: dict[int, tuple[object, tuple[str, ...]]] = {}
"""``$ref`` strings written in a frozen definition, by the definition's identity (kept
alive with it): one plugin's view schemas share their definitions, so each is walked once."""
_WRITTEN_LIMIT = 100_000


def _written_refs(value: object) -> tuple[str, ...]:
    """``_refs_written(value)``, remembered for frozen values (plain ones can change)."""
    if not isinstance(value, FrozenDict):
        return tuple(_refs_written(value))
    hit = _WRITTEN.get(id(value))
    if hit is not None and hit[0] is value:
        return hit[1]
    if len(_WRITTEN) >= _WRITTEN_LIMIT:
        _WRITTEN.clear()
    found = tuple(_refs_written(value))
    _WRITTEN[id(value)] = (value, found)
    return found
