"""The schemas of one generated module, read through the schema model once.

Views carry self-contained schemas (each with the ``$defs`` it reaches), and the
definitions of one plugin are shared objects. Parsing every view schema on its own would
parse Stripe's definitions thousands of times; instead :class:`SchemaSet` gathers the
definitions into as few combined documents as possible (one, unless two definitions share a
name but differ, as the request and response forms of a component with ``readOnly``
properties do), puts each view schema's root beside them, and parses each document once
with :func:`sktypes.schema.parse`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from sktypes.jsondoc import FrozenDict, JsonDocument
from sktypes.schema import Node, SchemaModel, Unsupported, parse
from sktypes.views import FunctionView, view_type_of

__all__ = ["Handle", "SchemaSet"]


class Finding(Protocol):
    """Something a schema says that generated code does not: a keyword at a pointer."""

    @property
    def pointer(self) -> str: ...

    @property
    def keyword(self) -> str: ...


_ROOT = "~root:"
"""The prefix of the keys roots get among the definitions (no definition name has ``~``)."""


@dataclass(frozen=True, slots=True)
class Handle:
    """Where one added schema is: its combined document and its key there."""

    document: int
    key: str


@dataclass(slots=True)
class _Document:
    defs: dict[str, Any] = field(default_factory=dict)
    roots: dict[str, Any] = field(default_factory=dict)
    model: SchemaModel | None = None


class SchemaSet:
    """Schemas added one by one, then parsed together (:meth:`parse`), then read as nodes."""

    def __init__(self) -> None:
        self._documents: list[_Document] = []
        self._places: dict[str, tuple[str, str]] = {}

    def add(
        self, schema: JsonDocument | Mapping[str, Any] | bool, place: str = "", note: str = ""
    ) -> Handle:
        """Add a view schema.

        ``place`` is the JSON pointer of the schema in the spec and ``note`` what it is
        (``parameter 'limit'``), for warnings.
        """
        value = schema.value if isinstance(schema, JsonDocument) else schema
        defs: Mapping[str, Any] = {}
        root: Any = value
        if isinstance(value, Mapping):
            local = value.get("$defs")
            if isinstance(local, Mapping):
                defs = local
                root = FrozenDict({k: v for k, v in value.items() if k != "$defs"})
        document = self._document_for(defs)
        doc = self._documents[document]
        doc.defs.update(defs)
        key = f"{_ROOT}{len(self._places)}"
        doc.roots[key] = root
        self._places[key] = (place, note)
        return Handle(document, key)

    def _document_for(self, defs: Mapping[str, Any]) -> int:
        for i, doc in enumerate(self._documents):
            if doc.model is None and _agree(doc.defs, defs):
                return i
        self._documents.append(_Document())
        return len(self._documents) - 1

    def parse(self) -> None:
        """Parse every document not parsed yet (call after the last :meth:`add`)."""
        for doc in self._documents:
            if doc.model is None:
                doc.model = parse({"$defs": {**doc.defs, **doc.roots}})

    def model(self, handle: Handle) -> SchemaModel:
        """The model of the document holding ``handle``."""
        model = self._documents[handle.document].model
        if model is None:
            raise RuntimeError("SchemaSet.parse() was not called")
        return model

    def root(self, handle: Handle) -> Node:
        """The node of the schema added as ``handle``."""
        return self.model(handle).definitions[handle.key]

    def typed(
        self, view: FunctionView, parameters: Mapping[str, Handle], result: Handle | None
    ) -> FunctionView:
        """``view`` with the JSON ``type`` of each schema added here read from its node.

        A view reads its types from its own schemas when first asked, parsing each with
        the definitions it carries: for a plugin that re-parses the shared definitions
        once per parameter. The nodes here are the same schemas, parsed once.
        """
        params = tuple(
            p
            if (h := parameters.get(p.name)) is None
            else dataclasses.replace(p, type=view_type_of(self.root(h)))
            for p in view.parameters
        )
        ret = view.return_parameter
        if result is not None:
            ret = dataclasses.replace(ret, type=view_type_of(self.root(result)))
        return dataclasses.replace(view, parameters=params, return_parameter=ret)

    def identity(self, model: SchemaModel, name: str) -> object:
        """What makes two definitions the same: their shared schema object."""
        for doc in self._documents:
            if doc.model is model:
                return doc.defs.get(name, (id(model), name))
        return (id(model), name)

    def unsupported(self) -> list[Unsupported]:
        """Every keyword the schema model could not represent (pointers as :meth:`locate` reads)."""
        out: list[Unsupported] = []
        seen: set[tuple[str, str]] = set()
        for doc in self._documents:
            for item in doc.model.unsupported if doc.model is not None else ():
                if (item.pointer, item.keyword) not in seen:
                    seen.add((item.pointer, item.keyword))
                    out.append(item)
        return out

    def placed(
        self,
        found: Iterable[Finding],
        definitions: Mapping[str, str],
        skip: Collection[str] = (),
    ) -> list[tuple[str, str, str, str]]:
        """``(file, pointer, keyword, note)`` of what the generated code does not express.

        The keywords the schema model could not represent, then ``found`` (the type builder's
        findings), each located in its source (:meth:`locate`) and said once per place.
        ``skip``: keys of added schemas whose findings are said through other schemas.
        """
        out: list[tuple[str, str, str, str]] = []
        seen: set[tuple[str, str]] = set()
        for item in [*self.unsupported(), *found]:
            head = item.pointer.removeprefix("/$defs/").partition("/")[0]
            if skip and head.replace("~1", "/").replace("~0", "~") in skip:
                continue
            file, pointer, note = self.locate(item.pointer, definitions)
            if (file + pointer, item.keyword) not in seen:
                seen.add((file + pointer, item.keyword))
                out.append((file, pointer, item.keyword, note))
        return out

    def locate(self, pointer: str, definitions: Mapping[str, str]) -> tuple[str, str, str]:
        """``(file, pointer, note)``: where a pointer into the combined documents is in the spec.

        A pointer under a view schema's root is joined to that schema's place; one under a
        definition to the definition's source (``definitions``: ``OpenApiPlugin.definitions``,
        ``[file]#pointer``); ``file`` is empty for the spec itself.
        """
        head, _, rest = pointer.removeprefix("/$defs/").partition("/")
        name = head.replace("~1", "/").replace("~0", "~")
        tail = f"/{rest}" if rest else ""
        if name in self._places:
            place, note = self._places[name]
            return "", place + tail, note
        source = definitions.get(name)
        if source is None:
            return "", f"/$defs/{head}{tail}", ""
        file, _, where = source.partition("#")
        return file, where + tail, ""


def _agree(known: Mapping[str, Any], defs: Mapping[str, Any]) -> bool:
    """Whether no definition of ``defs`` differs from the one ``known`` holds by its name.

    Run for every view schema over every definition it carries: one plain loop (the
    definitions are shared objects, so nearly every check is ``is``).
    """
    get = known.get
    for name, new in defs.items():
        old = get(name)
        if old is not None and old is not new and old != new:
            return False
    return True
