"""A parsed schema: its root node, its definitions and what the model could not express."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from sktypes import _pointer
from sktypes.jsondoc import JsonDocument
from sktypes.schema._nodes import AnyNode, Node, OpaqueNode, RefNode

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
        where = self.pointer or "/"
        return f"warning: {file}:{where}: {self.keyword} cannot be expressed in generated code"


class SchemaModel:
    """One parsed JSON Schema: nodes for the root and every definition, built once.

    Get one with :func:`sktypes.schema.parse`. References resolve through the model
    (:meth:`resolve`, or :attr:`RefNode.target`), so recursive definitions are fine.

    Attributes:
        document: the schema, frozen.
        flavor: how it was read (``json-schema`` or ``openapi-3.0``).
        root: the node of the whole schema.
        definitions: ``$defs`` (and ``definitions``) by name, in document order.
        unsupported: every keyword the model does not represent, with its JSON pointer,
            in document order. Empty means the nodes say everything the schema says.
    """

    __slots__ = (
        "__weakref__",
        "_nodes",
        "_targets",
        "definitions",
        "document",
        "flavor",
        "root",
        "unsupported",
    )

    def __init__(self, document: JsonDocument, flavor: Flavor) -> None:
        """An empty model; :mod:`sktypes.schema._parse` fills it (use ``parse``)."""
        self.document = document
        self.flavor: Flavor = flavor
        self.root: Node = AnyNode()
        self.definitions: Mapping[str, Node] = MappingProxyType({})
        self.unsupported: tuple[Unsupported, ...] = ()
        self._nodes: dict[str, Node] = {}
        self._targets: dict[str, Node] = {}

    def resolve(self, ref: RefNode | str) -> Node:
        """The node a reference points at, through any chain of references.

        A reference that cannot be followed (outside the document, or to nothing) gives
        ``AnyNode``; ``unsupported`` lists it.
        """
        seen: set[str] = set()
        node: Node = ref if isinstance(ref, RefNode) else RefNode(ref=ref)
        while isinstance(node, RefNode):
            if node.ref in seen:
                return AnyNode(pointer=node.pointer)  # a chain of bare references
            seen.add(node.ref)
            target = self._targets.get(node.ref)
            if target is None and node.ref.startswith("#"):
                try:
                    target = self._nodes.get(_pointer.join("", *_pointer.split(node.ref)))
                except _pointer.PointerError:
                    target = None
            if target is None:
                return AnyNode(pointer=node.pointer)
            node = target
        return node

    def subschema(self, schema: object) -> Node:
        """The node of ``schema``: a part of this document, handed over on its own.

        Its references point into this document.
        """
        from sktypes.schema._parse import parse_within

        if schema is self.document.value:
            return self.root
        return parse_within(self, schema)

    def can_resolve(self, ref: RefNode) -> bool:
        """Whether ``ref`` points at a node of this document (else ``resolve`` gives any)."""
        return ref.ref in self._targets

    def definitions_used(self, node: Node) -> list[str]:
        """The definitions ``node`` needs, transitively, in document order.

        References among its nodes and in discriminator mappings count, and so do
        references written inside keywords the model keeps as written (``not``...).
        """
        used: set[str] = set()
        todo = [node]
        seen: set[int] = set()
        while todo:
            current = todo.pop()
            if id(current) in seen:
                continue
            seen.add(id(current))
            refs: list[str] = []
            if isinstance(current, RefNode):
                refs.append(current.ref)
            discriminator = getattr(current, "discriminator", None)
            if discriminator is not None:
                refs.extend(ref.ref for _, ref in discriminator.mapping)
            if isinstance(current, OpaqueNode):
                refs.extend(_refs_written(current.value))
            for ref in refs:
                name = self._definition_name(ref)
                if name is not None and name not in used:
                    used.add(name)
                    todo.append(self.definitions[name])
            todo.extend(current.children())
        return [name for name in self.definitions if name in used]

    def _definition_name(self, ref: str) -> str | None:
        if not ref.startswith("#"):
            return None
        try:
            tokens = _pointer.split(ref)
        except _pointer.PointerError:
            return None
        if len(tokens) == 2 and tokens[0] in ("$defs", "definitions"):
            for name in (f"{tokens[0]}/{tokens[1]}", tokens[1]):  # a clash: "definitions/X"
                if name in self.definitions:
                    return name
        return None

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

    def __repr__(self) -> str:
        return (
            f"SchemaModel(root={self.root!r}, definitions={list(self.definitions)!r}, "
            f"unsupported={len(self.unsupported)})"
        )


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
